"""The computer opponents Badges of Courage offers (``data/opponents.yaml``), easiest
first, as presets of the generic agents."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from gettysburg.core.system import Opponent, load_opponents

OPPONENTS_FILE = Path(__file__).resolve().parent.parent / "data" / "opponents.yaml"


@lru_cache(maxsize=1)
def opponents() -> tuple[Opponent, ...]:
    return load_opponents(OPPONENTS_FILE)
