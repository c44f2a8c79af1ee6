"""10.0 cavalry battles with the shipped Day 3 data and scripted dice."""

from __future__ import annotations

from typing import Any

import pytest

from boc_combat_helpers import clear_board, make_state
from gettysburg.boc.cavalry_battle import (
    ASSIGN,
    CUSTER,
    DONE,
    CavalryBattleState,
    begin_cavalry_battles,
    cavalry_act,
    cavalry_decision,
    load_cavalry_battle,
)
from gettysburg.boc.command import Orders
from gettysburg.boc.oob import default_hierarchy, default_oob
from gettysburg.boc.state import ELIMINATED, RESERVE, WITHDRAWN, BocState, turn_key
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import Event, RuleError

ROLL_UNITS = ["usa-huey", "csa-imboden", "csa-robertson-bh", "csa-jones-we"]
ORDERS = Orders.build(default_oob(), default_hierarchy())
CB = load_cavalry_battle()


def setup(strengths: dict[str, int]) -> BocState:
    board = clear_board()
    st = make_state(board, [(u, None, s) for u, s in strengths.items()], phase="command",
                    status={u: RESERVE for u in strengths})
    st.day, st.hour = 3, 14
    return st


class Run:
    def __init__(self, st: BocState, dice: list[int]) -> None:
        self.board = clear_board()
        self.st = st
        self.dice = ScriptedDice(dice)
        self.cs, self.events = begin_cavalry_battles(st, CB, self.dice)

    def decision(self):  # type: ignore[no-untyped-def]
        return cavalry_decision(self.board, self.st, ORDERS, CB, self.cs)

    def act(self, action: dict[str, Any], seat: str | None = None) -> list[Event]:
        d = self.decision()
        assert d is not None
        ev = cavalry_act(self.board, self.st, ORDERS, CB, self.cs, seat or d.seat, action,
                         self.dice)
        self.events += ev
        return ev

    def fight_out(self) -> None:
        while (d := self.decision()) is not None:
            if d.kind == "casualty":
                self.act(d.options[0])
                continue
            self.act(next(a for a in d.options if a["type"] == "melee_fight"))


def test_arrival_rolls_join_or_withdraw() -> None:
    st = setup({u: 2 for u in ROLL_UNITS})
    run = Run(st, [5, 5, 5, 4])  # Huey 5+ yes, Imboden 6+ no, Robertson 5+ yes, Jones no
    assert run.cs.joined == ["usa-huey", "csa-robertson-bh"]
    assert run.cs.absent == ["csa-imboden", "csa-jones-we"]
    assert st.units["csa-imboden"].status == WITHDRAWN
    assert st.units["usa-huey"].status == RESERVE
    assert run.cs.stage == ASSIGN  # Huey came: no Custer choice
    assert run.cs.groups["gregg"] == ["usa-huey"]
    # Each roll is one die, marked made or not as fire marks its hits (docs/protocol.md).
    rolls = [e.data for e in run.events if e.type == "cavalry_roll"]
    assert [(r["dice"], r["hit"], r["joins"]) for r in rolls] == [
        ([5], [True], True), ([5], [False], False), ([5], [True], True), ([4], [False], False)]


def test_custer_may_move_to_gregg_when_huey_fails() -> None:
    st = setup({"usa-huey": 2, "usa-custer": 3, "usa-gregg": 2})
    run = Run(st, [4])
    assert run.cs.stage == CUSTER
    d = run.decision()
    assert d is not None and d.seat == "usa"
    run.act({"type": "cavalry_custer", "move": True})
    assert run.cs.groups == {"gregg": ["usa-gregg", "usa-custer"], "kilpatrick": []}
    assert run.cs.stage == ASSIGN


def test_usa_win_against_gregg_enters_on_hanover_road_and_kilpatrick_unopposed() -> None:
    st = setup({"usa-gregg": 1, "usa-mcintosh": 1, "usa-kilpatrick": 2,
                "csa-hampton": 1, "csa-chambliss": 2})
    run = Run(st, [1])  # no roll units present: the only die is Gregg's melee shot
    d = run.decision()
    assert d is not None and d.seat == "csa"
    run.act({"type": "cavalry_assign", "unit": "csa-hampton", "fight": "gregg"})
    with pytest.raises(RuleError):
        run.act({"type": "cavalry_assign", "unit": "csa-hampton", "fight": "kilpatrick"})
    run.act({"type": "cavalry_assign_done"})
    assert st.units["csa-chambliss"].status == WITHDRAWN  # sent nowhere
    # turn order: Gregg's HQ (A, defender) fires first and hits with its 1 (HQs fight)
    d = run.decision()
    assert d is not None and d.options[0] == {"type": "melee_fight", "unit": "usa-gregg"}
    run.act(d.options[0])
    assert st.units["csa-hampton"].status == ELIMINATED and st.losses["csa"] == 1
    assert run.cs.outcomes == {"gregg": "usa", "kilpatrick": "unopposed"}
    assert run.cs.stage == DONE and run.decision() is None
    for uid in ("usa-gregg", "usa-mcintosh"):
        u = st.units[uid]
        assert (u.arrival_key, u.arrival_entry) == (turn_key(3, 16), "Hanover Road")
    k = st.units["usa-kilpatrick"]
    assert (k.arrival_key, k.arrival_entry) == (turn_key(3, 15), "Emmitsburg Road")


def test_csa_win_against_gregg_enters_on_the_baltimore_pike() -> None:
    st = setup({"usa-gregg": 1, "usa-mcintosh": 1, "csa-hampton": 1})
    run = Run(st, [6, 1, 6, 1, 1])
    run.act({"type": "cavalry_assign", "unit": "csa-hampton", "fight": "gregg"})
    run.act({"type": "cavalry_assign_done"})
    run.fight_out()
    # R1: Gregg misses, Hampton (A2 -1 attacking = A1) hits; Gregg and McIntosh are both
    # at 1 (5.23, an HQ like any block) and the USA gives the hit to Gregg (0), McIntosh
    # misses; R2: Gregg has no dice, Hampton kills McIntosh, the strongest; R3: Hampton
    # kills the HQ, last (7.5); no forced retreat in a cavalry battle (10.0)
    fires = [(e.data["unit"], e.data["round"], e.data["firepower"])
             for e in run.events if e.type == "melee_fire"]
    assert fires == [("usa-gregg", 1, 1), ("csa-hampton", 1, 1), ("usa-mcintosh", 1, 3),
                     ("usa-gregg", 2, 1), ("csa-hampton", 2, 2), ("usa-gregg", 3, 1),
                     ("csa-hampton", 3, 2)]
    hits = [e.data["unit"] for e in run.events if e.type in ("hit", "eliminated")]
    assert hits == ["usa-gregg", "usa-mcintosh", "usa-gregg"]
    assert st.units["usa-gregg"].status == ELIMINATED
    assert run.cs.outcomes["gregg"] == "csa"
    h = st.units["csa-hampton"]
    assert (h.arrival_key, h.arrival_entry) == (turn_key(3, 16), "Baltimore Pike")


def test_stalemate_after_three_rounds_lets_nobody_in() -> None:
    st = setup({"usa-mcintosh": 1, "csa-hampton": 1})
    run = Run(st, [6] * 6)
    run.act({"type": "cavalry_assign", "unit": "csa-hampton", "fight": "gregg"})
    run.act({"type": "cavalry_assign_done"})
    run.fight_out()
    assert run.cs.outcomes["gregg"] == "stalemate"
    assert st.units["usa-mcintosh"].status == WITHDRAWN
    assert st.units["csa-hampton"].status == WITHDRAWN


def test_either_winner_against_kilpatrick_uses_the_emmitsburg_road() -> None:
    st = setup({"usa-farnsworth": 1, "csa-stuart": 2})
    run = Run(st, [1, 1])  # Stuart (A1 HQ) attacks and hits twice: Farnsworth is gone
    run.act({"type": "cavalry_assign", "unit": "csa-stuart", "fight": "kilpatrick"})
    run.act({"type": "cavalry_assign_done"})
    assert run.cs.outcomes["gregg"] == "unopposed"
    run.fight_out()
    assert run.cs.outcomes["kilpatrick"] == "csa"
    s = st.units["csa-stuart"]
    assert (s.arrival_key, s.arrival_entry) == (turn_key(3, 16), "Emmitsburg Road")


def test_retreat_from_a_cavalry_battle_loses_it() -> None:
    st = setup({"usa-mcintosh": 2, "csa-hampton": 2})
    run = Run(st, [])
    run.act({"type": "cavalry_assign", "unit": "csa-hampton", "fight": "gregg"})
    run.act({"type": "cavalry_assign_done"})
    d = run.decision()
    assert d is not None and d.seat == "csa"  # Hampton (A) before McIntosh (B)
    assert {"type": "melee_retreat", "unit": "csa-hampton", "to": "off"} in d.options
    run.act({"type": "melee_retreat", "unit": "csa-hampton", "to": "off"})
    assert run.cs.outcomes["gregg"] == "usa"
    assert st.units["csa-hampton"].status == WITHDRAWN
    assert st.units["usa-mcintosh"].arrival_entry == "Hanover Road"


def test_state_round_trips_through_json() -> None:
    st = setup({"usa-mcintosh": 2, "csa-hampton": 2})
    run = Run(st, [])
    run.act({"type": "cavalry_assign", "unit": "csa-hampton", "fight": "gregg"})
    run.act({"type": "cavalry_assign_done"})
    again = CavalryBattleState.from_json(run.cs.to_json())
    assert again == run.cs


def test_buford_division_leaves_but_merritt_fights_with_kilpatrick() -> None:
    st = setup({"usa-buford": 2, "usa-gamble": 2, "usa-merritt": 2, "usa-kilpatrick": 1})
    run = Run(st, [])
    assert st.units["usa-buford"].status == WITHDRAWN
    assert st.units["usa-gamble"].status == WITHDRAWN
    assert run.cs.groups["kilpatrick"] == ["usa-kilpatrick", "usa-merritt"]
