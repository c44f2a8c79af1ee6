"""Gettysburg: the Gettysburg board wargames with their rules enforced.

Layers (see docs/architecture.md): ``core`` knows no rule system; ``boc`` (and
later ``gbacw``, ``machango``) implement the game protocol; the CLI, server, AI
and lab sit on top of the protocol only.
"""

__version__ = "0.1.0"
