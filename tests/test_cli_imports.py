"""The command line imports only what a command uses (issue 59): starting it, or listing
a save file's legal actions, loads neither the lab, the agents, rich nor matplotlib.
Checked by the modules a fresh interpreter holds, never by a clock."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HEAVY = ("gettysburg.lab", "gettysburg.ai", "gettysburg.server", "gettysburg.interop",
         "rich", "matplotlib")


def _loaded(code: str, *args: str) -> set[str]:
    """The modules loaded after ``code`` ran in a fresh interpreter (printed as JSON)."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe, *args], check=True,
                         capture_output=True, text=True).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_importing_the_command_line_loads_nothing_heavy() -> None:
    loaded = _loaded("import gettysburg.cli")
    assert "gettysburg.cli.lab_cmd" in loaded  # the probe sees the command modules
    assert _heavy(loaded) == []


def test_game_legal_loads_only_the_game(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    run = ("import sys\nfrom gettysburg.cli import app\nsys.argv[0] = 'gettysburg'\n"
           "try:\n    app()\nexcept SystemExit as exc:\n    assert not exc.code, exc.code")
    _loaded(run, "game", "new", "toy/standard", "--seed", "1", "--out", str(save))
    loaded = _loaded(run, "game", "legal", str(save))
    assert "gettysburg.toy.game" in loaded  # the command did run
    assert _heavy(loaded) == []
