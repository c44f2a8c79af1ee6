"""The GBACW general's side of the computer opponents (issue 54): the doctrine the generic
``general`` agent plays (:mod:`.doctrine`), its combat scoring (:mod:`.combat`: shock and
the defender's answers) and the public ground it reasons over (:mod:`.ground`: the
scenario's objectives and the walking distance to them)."""
