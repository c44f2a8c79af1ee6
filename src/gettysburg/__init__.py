"""Gettysburg: the Gettysburg board wargames with their rules enforced.

Layers (see docs/architecture.md): ``core`` knows no rule system; each rule system is
one package implementing the game protocol, declared in the one registry
(``gettysburg.systems``); the CLI, server, AI, lab and research adapters sit on top of
the protocol and the registry only.
"""

__version__ = "0.1.0"
