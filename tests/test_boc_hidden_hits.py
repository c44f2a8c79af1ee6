"""The ``hidden_hits`` option (5.23): fire on a hidden stack of two or more blocks asks
the owner for every hit, so the firer cannot tell a tie among the owner's strongest blocks
(a real choice) from a forced hit. Without the option the game waits for the owner only
on a tie, and the firer sees it wait."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from boc_engine_boards import write_position
from gettysburg.boc.game import OPTION_RULES, BocGame
from gettysburg.boc.state import ELIMINATED
from gettysburg.core import savefile
from gettysburg.core.dice import ScriptedDice

FIRE_AT_K6 = {"type": "fire", "unit": "csa-kemper", "target": "K6", "through": "K6"}


def fire_at(tmp: Path, usa: list[tuple[str, int]], dice: list[int],
            options: list[str]) -> BocGame:
    """CSA's Kemper (strength 3, firepower 2) in K7 fires at the USA blocks ``usa`` in K6;
    the dice are Kemper's."""
    path = write_position(tmp, {"usa": [("K6", usa)],
                                "csa": [("K7", [("csa-pickett", 2), ("csa-kemper", 3)])]})
    g = BocGame(path, options, 0, ScriptedDice(dice))
    g.apply({"type": "activate", "hq": "csa-pickett"}, "csa")
    g.apply({"type": "end_phase"}, "csa")
    g.apply(FIRE_AT_K6, "csa")
    return g


def firer_sees(g: BocGame) -> tuple[list[str], Any, Any]:
    """What the CSA player can see of the hits being placed."""
    return g.to_move(), g.legal_actions("csa"), g.view("csa")["combat"]


def test_the_option_is_offered_with_its_rule() -> None:
    assert OPTION_RULES["hidden_hits"] == "5.23"


def test_every_hit_on_a_stack_waits_for_the_owner(tmp_path: Path) -> None:
    # Two hits (dice 1, 2) on Harrow 3 and Webb 2: the first is forced (Harrow is the
    # strongest), the second a tie (2 and 2). With the option both go to the owner.
    g = fire_at(tmp_path, [("usa-harrow", 3), ("usa-webb", 2)], [1, 2, 6], ["hidden_hits"])
    assert g.to_move() == ["usa"]
    assert g.legal_actions("usa") == [{"type": "casualty", "unit": "usa-harrow"}]
    g.apply({"type": "casualty", "unit": "usa-harrow"}, "usa")
    assert g.state.units["usa-harrow"].strength == 2
    assert g.legal_actions("usa") == [{"type": "casualty", "unit": "usa-harrow"},
                                      {"type": "casualty", "unit": "usa-webb"}]
    g.apply({"type": "casualty", "unit": "usa-webb"}, "usa")
    assert (g.state.units["usa-harrow"].strength, g.state.units["usa-webb"].strength) == (2, 1)
    assert g.to_move() == ["csa"]
    # The save records the answers and replays them.
    again = savefile.replay(json.loads(json.dumps(savefile.save(g))), verify=True)
    assert again.state_hash() == g.state_hash()


def test_without_the_option_only_a_tie_waits(tmp_path: Path) -> None:
    g = fire_at(tmp_path, [("usa-harrow", 3), ("usa-webb", 2)], [1, 2, 6], [])
    # The forced first hit is placed at once; the tie that follows waits.
    assert g.state.units["usa-harrow"].strength == 2
    assert g.legal_actions("usa") == [{"type": "casualty", "unit": "usa-harrow"},
                                      {"type": "casualty", "unit": "usa-webb"}]


def test_a_tie_and_a_forced_hit_look_the_same_to_the_firer(tmp_path: Path) -> None:
    # One hit on Harrow and Webb: at 3 and 3 the owner has a choice, at 3 and 2 none.
    tie = fire_at(tmp_path, [("usa-harrow", 3), ("usa-webb", 3)], [1, 6, 6], ["hidden_hits"])
    forced = fire_at(tmp_path, [("usa-harrow", 3), ("usa-webb", 2)], [1, 6, 6],
                     ["hidden_hits"])
    assert firer_sees(tie) == firer_sees(forced)
    assert firer_sees(tie)[0] == ["usa"]
    # Without the option the firer tells them apart: that is the leak the option closes.
    tie = fire_at(tmp_path, [("usa-harrow", 3), ("usa-webb", 3)], [1, 6, 6], [])
    forced = fire_at(tmp_path, [("usa-harrow", 3), ("usa-webb", 2)], [1, 6, 6], [])
    assert firer_sees(tie)[0] == ["usa"] and firer_sees(forced)[0] == ["csa"]


def test_a_lone_block_is_never_asked(tmp_path: Path) -> None:
    # One block in the hex: the firer sees there is no choice to make, so none is asked.
    g = fire_at(tmp_path, [("usa-harrow", 3)], [1, 2, 6], ["hidden_hits"])
    assert g.to_move() == ["csa"] and g.state.units["usa-harrow"].strength == 1


def expected_questions(strengths: list[int], hits: int) -> tuple[int, int]:
    """(hits placed while two or more blocks are left, blocks eliminated): strongest
    first, a block at 1 eliminated by its next hit (5.23)."""
    pool = sorted(strengths)
    asked = 0
    for _ in range(hits):
        if not pool:
            break
        asked += len(pool) > 1
        pool[-1] -= 1
        pool = sorted(s for s in pool if s > 0)
    return asked, len(strengths) - len(pool)


BLOCKS = [("usa-harrow", 3), ("usa-webb", 3), ("usa-hall", 2)]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=2, max_size=3),
       st.lists(st.integers(1, 6), min_size=3, max_size=3))
def test_owner_is_asked_once_a_hit_while_two_blocks_are_left(raw: list[int],
                                                              dice: list[int]) -> None:
    """Whatever the hidden strengths, the owner answers once for each hit placed while two
    or more blocks stand in the hex: a count the firer can work out from what he sees (the
    hits rolled, the blocks in the hex, the blocks eliminated), so it tells him nothing."""
    usa = [(uid, min(s, top)) for (uid, top), s in zip(BLOCKS, raw, strict=False)]
    with tempfile.TemporaryDirectory() as tmp:
        g = fire_at(Path(tmp), usa, dice, ["hidden_hits"])
        fired = next(e for e in g.log if e.type == "fire")
        hits = int(fired.data["hits"])
        asked = 0
        while g.to_move() == ["usa"]:
            options = g.legal_actions("usa")
            assert options and all(a["type"] == "casualty" for a in options)
            g.apply(options[-1], "usa")  # any of them: the count must not depend on it
            asked += 1
        assert g.to_move() == ["csa"]
        want_asked, want_lost = expected_questions([s for _, s in usa], hits)
        assert asked == want_asked
        lost = sum(1 for uid, _ in usa if g.state.units[uid].status == ELIMINATED)
        left = sum(g.state.units[uid].strength for uid, _ in usa
                   if g.state.units[uid].status != ELIMINATED)
        assert left == max(0, sum(s for _, s in usa) - hits) and lost == want_lost


def test_the_option_changes_who_is_asked_never_what_happens() -> None:
    """Day 1 between two generals with the option, replayed without it minus the answers
    that had only one choice, ends in the same position: the option adds questions, it
    changes no hit."""
    import random

    from gettysburg.ai.agent import make_agent
    from gettysburg.core.protocol import new_game

    rng = random.Random(23)
    agents = {seat: make_agent("general", seat) for seat in ("usa", "csa")}
    on = new_game("boc/day1", options=["hidden_hits"], seed=23)
    kept: list[tuple[str, dict[str, Any]]] = []
    forced = 0
    for _ in range(1500):
        if on.is_terminal():
            break
        seat = on.to_move()[0]
        legal = on.legal_actions(seat)
        action = agents[seat].choose(on.view(seat), legal, 1.0, rng)
        on.apply_unrecorded(action, seat)
        if action["type"] == "casualty" and len(legal) == 1:
            forced += 1
        else:
            kept.append((seat, action))
    assert forced >= 5 and on.is_terminal()  # a whole game, many hits on stacks
    off = new_game("boc/day1", seed=23)
    for seat, action in kept:
        off.apply_unrecorded(action, seat)
    a, b = on.state.to_json(), off.state.to_json()  # type: ignore[attr-defined]
    assert a.pop("options") == ["hidden_hits"] and b.pop("options") == []
    assert a == b
