"""Badges of Courage's side of the generic agents (:mod:`gettysburg.ai`): its doctrine,
the hidden-block sampler, search's hooks, the tuned styles and the opponent presets. Only
the system's own modules and the core are imported here."""
