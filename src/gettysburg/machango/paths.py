"""Where Mundo Machango's data files live (kept apart so the rules never import the map
generator)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

DATA = Path(str(resources.files("gettysburg") / "machango" / "data"))
