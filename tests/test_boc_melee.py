"""Melee (7.x) with scripted dice: the rulebooks' examples and the restrictions."""

from __future__ import annotations

from typing import Any

import pytest

from boc_combat_helpers import block, clear_board, make_state, orders_of
from gettysburg.boc.board import Board
from gettysburg.boc.combat import MELEE, Context, firepower
from gettysburg.boc.command import Orders
from gettysburg.boc.melee import (
    MeleeState,
    declare,
    melee_act,
    melee_decision,
    melee_declare_options,
    retreat_hexes,
)
from gettysburg.boc.state import ELIMINATED, OFF_MAP, RESERVE, BocState
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import Event, RuleError

# K6's neighbours: K5 K7 J6 L6 J5 L7.


class Melee:
    """Drive one melee phase: declare, then answer decisions."""

    def __init__(self, board: Board, st: BocState, o: Orders, dice: list[int]) -> None:
        self.board, self.st, self.o = board, st, o
        self.ms = MeleeState()
        self.dice = ScriptedDice(dice)
        self.events: list[Event] = []

    def declare(self, unit: str, target: str, **extra: Any) -> None:
        act = {"type": "melee", "unit": unit, "target": target, **extra}
        self.events.append(declare(self.board, self.st, self.o, self.st.active, self.ms, act,
                                   extra.get("entry_hexes")))

    def decision(self):  # type: ignore[no-untyped-def]
        return melee_decision(self.board, self.st, self.o, self.ms, self.st.active)

    def act(self, action: dict[str, Any], seat: str | None = None) -> list[Event]:
        d = self.decision()
        assert d is not None
        ev = melee_act(self.board, self.st, self.o, self.ms, seat or d.seat, action, self.dice)
        self.events += ev
        return ev

    def fight_all(self, retreat: set[str] | None = None) -> None:
        """Answer every turn with the first unit fighting (or retreating if listed), and
        end regroup at once, until the hex is resolved."""
        while (d := self.decision()) is not None and d.kind != "melee_order":
            if d.kind == "regroup":
                self.act({"type": "regroup_done"})
                continue
            if d.kind == "casualty":
                self.act(d.options[0])
                continue
            first = d.options[0]["unit"]
            wanted = [a for a in d.options if a["unit"] == first]
            if retreat and first in retreat:
                pick = next(a for a in wanted if a["type"] == "melee_retreat")
            else:
                pick = next(a for a in wanted if a["type"] == "melee_fight")
            self.act(pick)

    def fires(self) -> list[tuple[str, int, int]]:
        return [(e.data["unit"], e.data["round"], e.data["firepower"])
                for e in self.events if e.type == "melee_fire"]

    def log(self) -> list[str]:
        out = []
        for e in self.events:
            if e.type == "melee_fire":
                out.append(f"{e.data['round']}:{e.data['unit']}")
            elif e.type == "melee_retreat":
                out.append(f"retreat:{e.data['unit']}")
        return out


def example_position() -> tuple[Board, BocState, Orders]:
    """7.2/7.3 example: USA holds clear K6 with B3 and C2 infantry and A3 artillery; CSA
    attacks with A3 infantry across a woods hexside (J6) and B2 infantry across a clear one
    (J5)."""
    board = clear_board([{"a": "J6", "b": "K6", "terrain": ["woods"]}])
    o = orders_of(block("usa-b3", rating="B3"), block("usa-c2", rating="C2"),
                  block("usa-art", "artillery", "A3", long=1), block("csa-a3", rating="A3"),
                  block("csa-b2", rating="B2"))
    st = make_state(board, [("usa-b3", "K6", 2), ("usa-c2", "K6", 2), ("usa-art", "K6", 2),
                            ("csa-a3", "J6", 2), ("csa-b2", "J5", 2)], phase="movement")
    return board, st, o


def test_melee_example_turn_order_and_firepower() -> None:
    board, st, o = example_position()
    m = Melee(board, st, o, [6] * 24)
    m.declare("csa-a3", "K6")
    m.declare("csa-b2", "K6")
    d = m.decision()
    assert d is not None and d.kind == "melee_order" and d.seat == "csa"
    m.act({"type": "melee_resolve", "hex": "K6"})
    assert all(st.units[u].revealed for u in st.units)
    m.fight_all()
    assert m.fires() == [
        ("usa-art", 1, 3), ("csa-a3", 1, 2), ("usa-b3", 1, 3), ("csa-b2", 1, 2),
        ("usa-c2", 1, 2),
        ("usa-art", 2, 1), ("csa-a3", 2, 3), ("usa-b3", 2, 3), ("csa-b2", 2, 2),
        ("usa-c2", 2, 2),
        ("usa-art", 3, 1), ("usa-b3", 3, 3),
    ]
    # round 3: both CSA units retreat instead of firing, each at its own turn
    assert m.log()[-4:] == ["3:usa-art", "retreat:csa-a3", "3:usa-b3", "retreat:csa-b2"]
    retreats = [e for e in m.events if e.type == "melee_retreat"]
    assert [(e.data["unit"], e.data["to"], e.data["forced"]) for e in retreats] == [
        ("csa-a3", "J6", True), ("csa-b2", "J5", True)]
    won = next(e for e in m.events if e.type == "melee_won")
    assert won.data["winner"] == "usa"
    assert m.ms.resolved == ["K6"] and m.decision() is None
    assert st.units["csa-a3"].hex == "J6"


def third_round(attacker: str, defender: str) -> list[str]:
    board = clear_board()
    o = orders_of(block("usa-d", rating=defender), block("csa-a", rating=attacker))
    st = make_state(board, [("usa-d", "K6", 1), ("csa-a", "J6", 1)], phase="movement")
    m = Melee(board, st, o, [6] * 10)
    m.declare("csa-a", "K6")
    m.act({"type": "melee_resolve", "hex": "K6"})
    m.fight_all()
    return [x for x in m.log() if x.startswith("3:") or x.startswith("retreat")]


def test_third_round_b_attacker_retreats_after_an_a_defender_fires() -> None:
    assert third_round("B2", "A2") == ["3:usa-d", "retreat:csa-a"]


def test_third_round_a_attacker_retreats_before_a_b_defender_fires() -> None:
    assert third_round("A2", "B2") == ["retreat:csa-a"]


def test_hits_go_to_the_strongest_and_attacker_wins_the_hex() -> None:
    board = clear_board()
    o = orders_of(block("usa-x", rating="C1"), block("usa-hq", "dhq", "C1"),
                  block("csa-a", rating="A3"))
    st = make_state(board, [("usa-x", "K6", 1), ("usa-hq", "K6", 0), ("csa-a", "J6", 3)],
                    phase="movement")
    m = Melee(board, st, o, [1, 1, 6])
    m.declare("csa-a", "K6")
    m.act({"type": "melee_resolve", "hex": "K6"})
    d = m.decision()
    assert d is not None and d.seat == "csa"
    m.act({"type": "melee_fight", "unit": "csa-a"})
    # two hits: the brigade first (7.5: the HQ at strength 0 goes last), then the HQ
    assert st.units["usa-x"].status == ELIMINATED
    assert st.units["usa-hq"].status == ELIMINATED
    assert st.units["csa-a"].hex == "K6"
    d = m.decision()
    assert d is not None and d.kind == "regroup" and d.seat == "csa"
    m.act({"type": "regroup_done"})
    assert m.decision() is None


def test_hq_defends_and_fights_but_cannot_attack() -> None:
    board = clear_board()
    o = orders_of(block("usa-hq", "dhq", "A1"), block("csa-a", rating="B2"),
                  block("csa-hq", "dhq", "A1"), block("csa-art", "artillery", "A3"),
                  block("csa-hart", "horse_artillery", "A3"))
    st = make_state(board, [("usa-hq", "K6", 2), ("csa-a", "J6", 2), ("csa-hq", "J6", 1),
                            ("csa-art", "J5", 2), ("csa-hart", "L7", 2)], phase="movement")
    opts = melee_declare_options(board, st, o, "csa", MeleeState())
    assert sorted({a["unit"] for a in opts}) == ["csa-a", "csa-hart"]  # 7.4, 7.5
    m = Melee(board, st, o, [1, 6, 6, 6] + [6] * 20)
    m.declare("csa-a", "K6")
    m.declare("csa-hart", "K6")
    m.act({"type": "melee_resolve", "hex": "K6"})
    m.fight_all()
    # the HQ fights first (A), then horse artillery (A3, then A1 from round 2)
    assert m.fires()[:3] == [("usa-hq", 1, 1), ("csa-hart", 1, 3), ("csa-a", 1, 2)]
    assert ("csa-hart", 2, 1) in m.fires()


def test_cavalry_minus_one_attacking_plus_one_defending_round_one_only() -> None:
    cav = block("csa-cav", "cavalry", "B2")
    assert firepower(cav, Context(MELEE, round=1, attacking=True)) == 1
    assert firepower(cav, Context(MELEE, round=1, attacking=False)) == 3
    assert firepower(cav, Context(MELEE, round=2, attacking=True)) == 2
    assert firepower(cav, Context(MELEE, round=2, attacking=False)) == 2
    # terrain on top: an attacking cavalry brigade across woods fights at 0 in round 1
    assert firepower(cav, Context(MELEE, round=1, attacking=True, penalty=1)) == 0


def test_artillery_drops_to_one_after_round_one_and_terrain_is_round_one_only() -> None:
    art = block("usa-art", "artillery", "B3")
    assert firepower(art, Context(MELEE, round=1)) == 3
    assert firepower(art, Context(MELEE, round=2)) == 1
    inf = block("csa-a", rating="A3")
    assert firepower(inf, Context(MELEE, round=1, attacking=True, penalty=3)) == 0
    assert firepower(inf, Context(MELEE, round=2, attacking=True, penalty=3)) == 3
    assert firepower(inf, Context(MELEE, round=1, attacking=False, penalty=3)) == 3


def test_berdan_melees_without_command_at_a1() -> None:
    board = clear_board()
    o = orders_of(block("usa-berdan", rating="A3", melee=1, special=("berdan", "independent")),
                  block("csa-x", rating="C2"))
    st = make_state(board, [("usa-berdan", "J6", 2), ("csa-x", "K6", 1)], active="usa",
                    phase="movement", command=False)
    opts = melee_declare_options(board, st, o, "usa", MeleeState())
    assert {"type": "melee", "unit": "usa-berdan", "target": "K6"} in opts  # supported
    m = Melee(board, st, o, [2, 1])
    m.declare("usa-berdan", "K6")
    m.act({"type": "melee_resolve", "hex": "K6"})
    m.act({"type": "melee_fight", "unit": "usa-berdan"})
    assert m.fires() == [("usa-berdan", 1, 1)]
    assert st.units["csa-x"].status == ELIMINATED


def test_roads_never_help_a_melee_and_the_attacker_pays_only_in_round_one() -> None:
    board = clear_board([{"a": "J6", "b": "K6", "terrain": ["woods"], "slope": "hill",
                          "uphill": "K6",
                          "roads": [{"road": "p", "name": "Pike", "class": "main"}]}])
    o = orders_of(block("usa-d", rating="D1"), block("csa-a", rating="A3"))
    st = make_state(board, [("usa-d", "K6", 1), ("csa-a", "J6", 1)], phase="movement")
    m = Melee(board, st, o, [6] * 5)
    m.declare("csa-a", "K6")
    m.act({"type": "melee_resolve", "hex": "K6"})
    m.fight_all()
    # woods -1 and hill uphill -2: A3 becomes A0 (no dice) in round 1, A3 in round 2
    assert [f for f in m.fires() if f[0] == "csa-a"] == [("csa-a", 1, 0), ("csa-a", 2, 3)]


def test_declaration_limits_hexside_stacking_and_movement() -> None:
    board = clear_board(hexes={"K6": {"terrain": "marsh"}})  # marsh: stacking 2
    o = orders_of(block("usa-d"), block("csa-a"), block("csa-b"), block("csa-c"),
                  block("csa-e"), block("csa-m"))
    st = make_state(board, [("usa-d", "K6", 1), ("csa-a", "J6", 1), ("csa-b", "J6", 1),
                            ("csa-c", "J5", 1), ("csa-e", "K5", 1), ("csa-m", "L7", 1)],
                    phase="movement")
    st.units["csa-m"].moved = True
    m = Melee(board, st, o, [])
    m.declare("csa-a", "K6")
    with pytest.raises(RuleError) as err:
        m.declare("csa-b", "K6")  # same hexside J6/K6
    assert err.value.rule == "7.1"
    m.declare("csa-c", "K6")
    with pytest.raises(RuleError) as err:
        m.declare("csa-e", "K6")  # a third attacker exceeds marsh stacking (2)
    assert "stacking" in err.value.message
    with pytest.raises(RuleError):
        m.declare("csa-m", "K6")  # moved this phase
    assert st.units["csa-a"].moved  # declaring ends its movement
    enemy_view = m.events[0].for_seat("usa")
    assert enemy_view is not None and "csa-a" not in str(enemy_view)


def test_unsupported_melee_one_unit_two_rounds_forced_retreat() -> None:
    board = clear_board()
    o = orders_of(block("usa-d", rating="A2"), block("csa-a", rating="B2"),
                  block("csa-b", rating="B2"))
    st = make_state(board, [("usa-d", "K6", 2), ("csa-a", "J6", 2), ("csa-b", "J5", 2)],
                    phase="movement", command=False)
    opts = melee_declare_options(board, st, o, "csa", MeleeState())
    assert {"type": "melee", "unit": "csa-a", "target": "K6", "unsupported": True} in opts
    m = Melee(board, st, o, [6] * 10)
    with pytest.raises(RuleError):
        m.declare("csa-a", "K6")  # no command: supported melee refused
    m.declare("csa-a", "K6", unsupported=True)
    with pytest.raises(RuleError) as err:
        m.declare("csa-b", "K6", unsupported=True)
    assert err.value.rule == "7.8"
    m.act({"type": "melee_resolve", "hex": "K6"})
    m.fight_all()
    assert m.log() == ["1:usa-d", "1:csa-a", "2:usa-d", "retreat:csa-a"]


def test_supported_attack_cannot_join_an_unsupported_one_and_vice_versa() -> None:
    board = clear_board()
    o = orders_of(block("usa-d"), block("csa-a"), block("csa-b"))
    st = make_state(board, [("usa-d", "K6", 2), ("csa-a", "J6", 2), ("csa-b", "J5", 2)],
                    phase="movement")
    st.units["csa-b"].in_command = False
    m = Melee(board, st, o, [])
    m.declare("csa-a", "K6")
    with pytest.raises(RuleError) as err:
        m.declare("csa-b", "K6", unsupported=True)
    assert err.value.rule == "7.8"


def test_defender_retreat_friendly_first_never_enemy_or_unresolved() -> None:
    board = clear_board()
    o = orders_of(block("usa-d", rating="A1"), block("usa-e", rating="A1"),
                  block("usa-f"), block("usa-g"), block("csa-a", rating="B2"),
                  block("csa-b", rating="B2"))
    # K6 is attacked from J6 and K7 (usa-g) from J7; usa-f holds L6.
    st = make_state(board, [("usa-d", "K6", 2), ("usa-e", "K6", 2), ("usa-f", "L6", 1),
                            ("usa-g", "K7", 1), ("csa-a", "J6", 2), ("csa-b", "J7", 2)],
                    phase="movement")
    m = Melee(board, st, o, [6] * 20)
    m.declare("csa-a", "K6")
    m.declare("csa-b", "K7")
    m.act({"type": "melee_resolve", "hex": "K6"})
    b = m.ms.battle
    assert b is not None
    # J5 touches J6 (CSA): neutral, so not offered while friendly hexes exist; J6 enemy;
    # K7 an unresolved melee; K5, L6 (usa-f) and L7 friendly
    assert retreat_hexes(board, st, m.ms, b, "usa-d") == ["K5", "L6", "L7"]
    m.act({"type": "melee_retreat", "unit": "usa-d", "to": "L7"})
    # one unit per hexside per round: usa-e may not use K6/L7 again this round
    assert retreat_hexes(board, st, m.ms, b, "usa-e") == ["K5", "L6"]
    m.act({"type": "melee_retreat", "unit": "usa-e", "to": "L6"})
    won = next(e for e in m.events if e.type == "melee_won")
    assert won.data["winner"] == "csa" and st.units["csa-a"].hex == "K6"


def test_defender_retreats_to_neutral_only_without_friendly_hex() -> None:
    board = clear_board()
    o = orders_of(block("usa-d", rating="A1"), block("csa-a", rating="B2"))
    st = make_state(board, [("usa-d", "K6", 2), ("csa-a", "J6", 2)], phase="movement")
    st.control = {"K6": "usa", "J6": "csa", "J5": "csa", "K5": "csa"}  # others neutral
    m = Melee(board, st, o, [])
    m.declare("csa-a", "K6")
    m.act({"type": "melee_resolve", "hex": "K6"})
    assert m.ms.battle is not None
    assert retreat_hexes(board, st, m.ms, m.ms.battle, "usa-d") == ["K7", "L6", "L7"]


def test_regroup_one_unit_per_hexside_and_only_friendly_hexes() -> None:
    board = clear_board()
    o = orders_of(block("usa-d", rating="D1"), block("csa-a", rating="A3"),
                  block("csa-r", rating="B2"), block("csa-s", rating="B2"))
    st = make_state(board, [("usa-d", "K6", 1), ("csa-a", "J6", 2), ("csa-r", "J6", 1),
                            ("csa-s", "J5", 1)], phase="movement")
    m = Melee(board, st, o, [1, 6])
    m.declare("csa-a", "K6")
    m.act({"type": "melee_resolve", "hex": "K6"})
    m.act({"type": "melee_fight", "unit": "csa-a"})
    d = m.decision()
    assert d is not None and d.kind == "regroup"
    # out: csa-a may go back to friendly J6 or J5; K5/K7/L6/L7 were USA-side or neutral
    outs = sorted(a["to"] for a in d.options if a.get("unit") == "csa-a")
    assert outs == ["J5", "J6"]
    ins = sorted(a["unit"] for a in d.options if a.get("to") == "K6")
    assert ins == ["csa-r", "csa-s"]
    m.act({"type": "regroup", "unit": "csa-r", "to": "K6"})
    d = m.decision()
    assert d is not None
    # J6/K6 hexside is used: csa-a may not leave by it now
    assert {"type": "regroup", "unit": "csa-a", "to": "J6"} not in d.options
    assert {"type": "regroup", "unit": "csa-a", "to": "J5"} in d.options
    with pytest.raises(RuleError):
        m.act({"type": "regroup", "unit": "csa-a", "to": "L7"})
    m.act({"type": "regroup_done"})
    assert st.units["csa-r"].hex == "K6" and m.decision() is None


def test_entry_road_melee_from_off_the_map_retreats_off() -> None:
    board = clear_board(hexes={"A6": {"entries": ["Pike"]}})
    o = orders_of(block("usa-d", rating="A2"), block("csa-a", rating="B2"),
                  block("csa-b", rating="B2"), block("csa-c", rating="B2"))
    st = make_state(board, [("usa-d", "A6", 2), ("csa-a", None, 2), ("csa-b", None, 2),
                            ("csa-c", None, 2)], phase="movement", command=False,
                    status={"csa-a": RESERVE, "csa-b": RESERVE, "csa-c": RESERVE})
    m = Melee(board, st, o, [6] * 30)
    m.declare("csa-a", "A6", entry="Pike", entry_hexes=["A6"])
    m.declare("csa-b", "A6", entry="Pike", entry_hexes=["A6"])
    with pytest.raises(RuleError) as err:
        m.declare("csa-c", "A6", entry="Pike", entry_hexes=["A6"])
    assert err.value.rule == "6.7"
    m.act({"type": "melee_resolve", "hex": "A6"})
    d = m.decision()
    assert d is not None
    m.fight_all(retreat={"csa-a"})
    r = next(e for e in m.events if e.type == "melee_retreat" and e.data["unit"] == "csa-a")
    assert r.data["to"] == "off" and st.units["csa-a"].status == RESERVE


def test_defender_may_retreat_off_the_map_from_an_edge_hex() -> None:
    board = clear_board()
    o = orders_of(block("usa-d", rating="A2"), block("csa-a", rating="B2"))
    st = make_state(board, [("usa-d", "A6", 2), ("csa-a", "B6", 2)], phase="movement")
    m = Melee(board, st, o, [])
    m.declare("csa-a", "A6")
    m.act({"type": "melee_resolve", "hex": "A6"})
    m.act({"type": "melee_retreat", "unit": "usa-d", "to": "off"})
    assert st.units["usa-d"].status == OFF_MAP and st.units["csa-a"].hex == "A6"


def test_casualty_choice_in_melee_and_json_round_trip() -> None:
    board = clear_board()
    o = orders_of(block("usa-x", rating="D1"), block("usa-y", rating="D1"),
                  block("csa-a", rating="A3"))
    st = make_state(board, [("usa-x", "K6", 2), ("usa-y", "K6", 2), ("csa-a", "J6", 1)],
                    phase="movement")
    m = Melee(board, st, o, [1])
    m.declare("csa-a", "K6")
    m.act({"type": "melee_resolve", "hex": "K6"})
    m.act({"type": "melee_fight", "unit": "csa-a"})
    d = m.decision()
    assert d is not None and d.kind == "casualty" and d.seat == "usa"
    again = MeleeState.from_json(m.ms.to_json())
    assert again.to_json() == m.ms.to_json()
    m.ms = again
    m.act({"type": "casualty", "unit": "usa-y"})
    assert (st.units["usa-x"].strength, st.units["usa-y"].strength) == (2, 1)
    d = m.decision()
    assert d is not None and d.kind == "melee_turn" and d.seat == "usa"


def test_no_double_defence_in_melee() -> None:
    board = clear_board(hexes={"K6": {"terrain": "woods"}})
    o = orders_of(block("usa-x", rating="D1"), block("csa-a", rating="A3"))
    st = make_state(board, [("usa-x", "K6", 3), ("csa-a", "J6", 1)], phase="movement")
    m = Melee(board, st, o, [1])
    m.declare("csa-a", "K6")
    m.act({"type": "melee_resolve", "hex": "K6"})
    m.act({"type": "melee_fight", "unit": "csa-a"})
    assert st.units["usa-x"].strength == 2  # one hit, one step (5.24 not in melee)


def test_artillery_defends_but_never_attacks_and_fired_units_cannot_attack() -> None:
    board = clear_board()
    o = orders_of(block("usa-d"), block("csa-art", "artillery", "A3"), block("csa-f"))
    st = make_state(board, [("usa-d", "K6", 2), ("csa-art", "J6", 2), ("csa-f", "J5", 2)],
                    phase="movement")
    st.units["csa-f"].fired = True
    assert melee_declare_options(board, st, o, "csa", MeleeState()) == []
    m = Melee(board, st, o, [])
    with pytest.raises(RuleError) as err:
        m.declare("csa-art", "K6")
    assert err.value.rule == "7.1" and "7.4" in err.value.message


def test_only_the_awaited_answer_is_accepted() -> None:
    board = clear_board()
    o = orders_of(block("usa-d", rating="A2"), block("csa-a", rating="B2"))
    st = make_state(board, [("usa-d", "K6", 2), ("csa-a", "J6", 2)], phase="movement")
    m = Melee(board, st, o, [])
    m.declare("csa-a", "K6")
    with pytest.raises(RuleError):
        m.act({"type": "melee_fight", "unit": "csa-a"})  # no melee picked yet
    with pytest.raises(RuleError):
        m.act({"type": "melee_resolve", "hex": "K7"})  # nothing declared there
    m.act({"type": "melee_resolve", "hex": "K6"})
    with pytest.raises(RuleError):
        m.act({"type": "melee_fight", "unit": "csa-a"}, seat="csa")  # USA's A goes first
    with pytest.raises(RuleError):
        m.act({"type": "melee_fight", "unit": "csa-a"})  # not in USA's options


def test_column_units_do_not_attack_and_form_line_when_attacked() -> None:
    board = clear_board()
    o = orders_of(block("usa-d", rating="A2"), block("csa-a", rating="B2"),
                  block("csa-c", rating="B2"))
    st = make_state(board, [("usa-d", "K6", 2), ("csa-a", "J6", 2), ("csa-c", "J5", 2)],
                    phase="movement")
    st.units["csa-c"].column = True
    st.units["usa-d"].column = True
    with pytest.raises(RuleError):
        Melee(board, st, o, []).declare("csa-c", "K6")
    m = Melee(board, st, o, [6, 6])
    m.declare("csa-a", "K6")
    m.act({"type": "melee_resolve", "hex": "K6"})
    d = m.decision()
    assert d is not None
    assert [a["type"] for a in d.options] == ["melee_line", "melee_retreat", "melee_retreat"]
    m.act({"type": "melee_line", "unit": "usa-d"})
    assert not st.units["usa-d"].column


def test_defending_winner_regroups_and_attackers_may_leave_early() -> None:
    """7.7: an attacker may retreat at its turn before the last round, back to the hex it
    came from; 7.9: when the defender wins, its blocks regroup too - out to hexes friendly in
    the 6.6 snapshot, in from a neighbour, one block per hexside."""
    board = clear_board()
    o = orders_of(block("usa-d", rating="A3"), block("usa-r"), block("usa-s"),
                  block("csa-a", rating="B1"), block("csa-b", rating="B1"))
    st = make_state(board, [("usa-d", "K6", 2), ("usa-r", "L7", 1), ("usa-s", "K4", 1),
                            ("csa-a", "J6", 1), ("csa-b", "J5", 1)], phase="movement")
    m = Melee(board, st, o, [1, 6])
    m.declare("csa-a", "K6")
    m.declare("csa-b", "K6")
    m.act({"type": "melee_resolve", "hex": "K6"})
    m.act({"type": "melee_fight", "unit": "usa-d"})  # one hit: the CSA picks who falls
    m.act({"type": "casualty", "unit": "csa-b"})
    assert st.units["csa-b"].status == ELIMINATED
    d = m.decision()
    assert d is not None and d.seat == "csa"
    assert {"type": "melee_retreat", "unit": "csa-a", "to": "J6"} in d.options
    m.act({"type": "melee_retreat", "unit": "csa-a", "to": "J6"})
    assert st.units["csa-a"].hex == "J6"
    d = m.decision()
    assert d is not None and d.kind == "regroup" and d.seat == "usa"
    opts = [a for a in d.options if a["type"] == "regroup"]
    # K5 and K7 stay neutral (next to the CSA's J5 / J6 at the start of the turn) even
    # though csa-b has fallen: control changes only at the end of the player turn (6.6)
    assert sorted(a["to"] for a in opts if a["unit"] == "usa-d") == ["L6", "L7"]
    assert [a["unit"] for a in opts if a["to"] == "K6"] == ["usa-r"]  # usa-s is not adjacent
    m.act({"type": "regroup", "unit": "usa-r", "to": "K6"})
    d = m.decision()
    assert d is not None and {"type": "regroup", "unit": "usa-d", "to": "L7"} not in d.options
    m.act({"type": "regroup_done"})
    assert st.units["usa-r"].hex == "K6" and m.decision() is None
