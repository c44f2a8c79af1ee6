"""The toy rule system: a tiny complete game that exercises every layer in the tests."""

from __future__ import annotations

from gettysburg.core.protocol import register_system
from gettysburg.toy.game import ToyGame

register_system("toy", ToyGame)
