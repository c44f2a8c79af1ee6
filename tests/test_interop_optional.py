"""The research adapters are an optional extra: the core package, the BoC rules and the
research hooks import without OpenSpiel or PettingZoo."""

from __future__ import annotations

import subprocess
import sys


def test_core_imports_without_the_frameworks() -> None:
    code = (
        "import sys\n"
        "import gettysburg, gettysburg.interop, gettysburg.boc.game\n"
        "from gettysburg.core.protocol import new_game, research_hooks\n"
        "g = new_game('boc/day1', seed=1)\n"
        "h = research_hooks('boc')\n"
        "ids = h.encode_actions(g, g.legal_actions(g.to_move()[0]))\n"
        "assert ids and h.action_space_size(g) > max(ids)\n"
        "loaded = [m for m in ('pyspiel', 'open_spiel', 'pettingzoo', 'gymnasium')\n"
        "          if m in sys.modules]\n"
        "print('loaded:', loaded)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=300)
    assert out.stdout.strip() == "loaded: []"


def test_an_unknown_system_has_no_research_hooks() -> None:
    import pytest

    from gettysburg.core.protocol import UnknownSystemError, research_hooks

    with pytest.raises(UnknownSystemError, match="research hooks"):
        research_hooks("nosuch")
    with pytest.raises(UnknownSystemError):
        research_hooks("../boc")
