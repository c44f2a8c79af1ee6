"""The command line imports only what a command uses (issue 59): starting it, or listing
a save file's legal actions, loads neither the lab, the agents, rich nor matplotlib;
starting it loads no save file, dice, pydantic nor registry; `game legal` of a BoC game
loads BoC alone (no other rule system, no registry) and, its data files cached, no
PyYAML. Checked by the modules a fresh interpreter holds, never by a clock."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HEAVY = ("gettysburg.lab", "gettysburg.ai", "gettysburg.server", "gettysburg.interop",
         "rich", "matplotlib", "numpy", "shapely", "fastapi", "uvicorn", "ray")
# What no command needs before it runs: parsing the command line.
STARTUP = ("gettysburg.core.savefile", "gettysburg.core.dice", "gettysburg.core.protocol",
           "gettysburg.systems", "gettysburg.core.system", "pydantic", "yaml", "socket",
           "webbrowser", "logging")
# What `game legal` of a BoC save does not use: other systems, the registry of them,
# BoC's declaration (menus, views, AI hooks) and, with its data cached, PyYAML.
NOT_FOR_LEGAL = ("gettysburg.systems", "gettysburg.core.system", "gettysburg.boc.system",
                 "gettysburg.boc.ai", "gettysburg.gbacw", "gettysburg.machango",
                 "gettysburg.toy", "yaml")


def _loaded(code: str, *args: str, env: dict[str, str] | None = None) -> set[str]:
    """The modules loaded after ``code`` ran in a fresh interpreter (printed as JSON)."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe, *args], check=True,
                         capture_output=True, text=True,
                         env=None if env is None else {**os.environ, **env}).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


def _heavy(modules: set[str], heavy: tuple[str, ...] = HEAVY) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in heavy))


def test_importing_the_command_line_loads_nothing_heavy() -> None:
    loaded = _loaded("import gettysburg.cli")
    assert "gettysburg.cli.lab_cmd" in loaded  # the probe sees the command modules
    assert _heavy(loaded) == []
    assert _heavy(loaded, STARTUP) == []


RUN = ("import sys\nfrom gettysburg.cli import app\nsys.argv[0] = 'gettysburg'\n"
       "try:\n    app()\nexcept SystemExit as exc:\n    assert not exc.code, exc.code")


def test_game_legal_of_a_boc_game_loads_boc_alone(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    env = {"GETTYSBURG_CACHE": str(tmp_path / "cache")}
    _loaded(RUN, "game", "new", "boc/day1", "--seed", "1", "--out", str(save), env=env)
    loaded = _loaded(RUN, "game", "legal", str(save), env=env)
    assert "gettysburg.boc.game" in loaded  # the command did run
    assert _heavy(loaded) == []
    assert _heavy(loaded, NOT_FOR_LEGAL) == []
    # The probe can fail: the cache turned off, the data files are parsed with PyYAML.
    cold = _loaded(RUN, "game", "legal", str(save), env={"GETTYSBURG_CACHE": "off"})
    assert "yaml" in cold


def test_game_legal_loads_only_the_game(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    run = ("import sys\nfrom gettysburg.cli import app\nsys.argv[0] = 'gettysburg'\n"
           "try:\n    app()\nexcept SystemExit as exc:\n    assert not exc.code, exc.code")
    _loaded(run, "game", "new", "toy/standard", "--seed", "1", "--out", str(save))
    loaded = _loaded(run, "game", "legal", str(save))
    assert "gettysburg.toy.game" in loaded  # the command did run
    assert _heavy(loaded) == []
