"""The GBACW general's side of the computer opponents (issue 54): the doctrine the generic
``general`` agent plays (:mod:`.doctrine`) and the public ground it reasons over
(:mod:`.ground`: the scenario's objectives and the walking distance to them)."""
