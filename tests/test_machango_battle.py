"""Mundo Machango's battle rules, each from a battle state laid out by hand with scripted
dice: every die face, range band and terrain row, the seed-003 marks and every general's
battle rule (docs/machango-battles.md)."""

from __future__ import annotations

from typing import Any

import pytest

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import RuleError
from gettysburg.machango.battle_fire import fire_dice, resolve
from gettysburg.machango.battle_hexes import all_hexes, between, distance, neighbours
from gettysburg.machango.battle_turns import act, check, options, reach

INF, CAV, ART, FLAG, SABRES = 1, 3, 4, 5, 6


def state(units: dict[str, tuple[str, str, str, int]], terrain: dict[str, str] | None = None,
          heights: dict[str, float] | None = None, **marks: Any) -> dict[str, Any]:
    """A battle: ``units`` uid -> (side, kind, hex, figures), each its own division named
    after the uid; usa attacks (baseline row 0); ``marks``: uid -> division marks."""
    board = {"hexes": {h: {"terrain": (terrain or {}).get(h, "clear"),
                           "height": (heights or {}).get(h, 0.0)} for h in all_hexes()},
             "hex_m": 100, "columns": {}}
    divisions: dict[str, dict[str, Any]] = {
        uid: {"side": side, "elite": False, "extra_die": False, "ignores_flags": False,
              "ignores_one_flag": False, "fortified": False, "generals": []}
        for uid, (side, _, _, _) in units.items()}
    for uid, m in marks.items():
        divisions[uid].update(m)
    return {"id": 1, "line": "x", "day": 1, "turns": 2, "turn": 1, "attacker": "usa",
            "defender": "csa", "active": "usa", "step": "fire", "card": None,
            "orders_left": 0, "card_dice": 0, "board": board, "entrench": [],
            "units": {uid: {"side": side, "division": uid, "index": 0, "kind": kind,
                            "figures": f, "start": f, "hex": h,
                            "generals": list(divisions[uid]["generals"]),
                            "ordered": True, "moved": False, "fired": False, "entered": None}
                      for uid, (side, kind, h, f) in units.items()},
            "divisions": divisions, "hands": {"usa": ["feel_left"], "csa": ["feel_left"]},
            "deck": ["push_left"] * 10, "discard": [], "cards": {"usa": 1, "csa": 1},
            "aside": {}, "shuffles": 0, "seed": "t", "over": False,
            "roster": {uid: [f] for uid, (_, _, _, f) in units.items()}}


def duel(kind: str = "infantry", target: str = "infantry", d_hex: str = "6,5",
         **kw: Any) -> dict[str, Any]:
    return state({"a": ("usa", kind, "6,4", 4 if kind == "infantry" else 3),
                  "d": ("csa", target, d_hex, 4 if target == "infantry" else 2)}, **kw)


# --- the six faces, hits and retreats (B-g) -------------------------------------------------


@pytest.mark.parametrize(("value", "target", "lost"), [
    (INF, "infantry", 1), (2, "infantry", 1), (CAV, "infantry", 0), (ART, "infantry", 0),
    (SABRES, "infantry", 1), (CAV, "cavalry", 1), (ART, "artillery", 1), (INF, "artillery", 0),
    (SABRES, "artillery", 1), (FLAG, "infantry", 0)])
def test_each_face(value: int, target: str, lost: int) -> None:
    st = duel(target=target)
    before = st["units"]["d"]["figures"]
    miss = ART if target == "cavalry" else CAV
    out = resolve(st, "a", "d", ScriptedDice([value] + [miss] * 3))
    assert before - st["units"]["d"]["figures"] == lost == out["hits"]


def test_a_flag_moves_the_target_a_hex_toward_its_own_baseline() -> None:
    st = duel()
    out = resolve(st, "a", "d", ScriptedDice([FLAG, FLAG, CAV, CAV]))
    assert out["retreat"] == ["6,6", "6,7"] and st["units"]["d"]["hex"] == "6,7"
    att = duel(d_hex="6,5")
    att["units"]["a"], att["units"]["d"] = att["units"]["d"], att["units"]["a"]
    for uid, side in (("a", "csa"), ("d", "usa")):
        att["units"][uid]["side"] = att["divisions"][uid]["side"] = side
    resolve(att, "a", "d", ScriptedDice([FLAG, CAV, CAV, CAV]))
    assert att["units"]["d"]["hex"] == "6,3" and att["units"]["a"]["hex"] == "6,5"


def test_a_blocked_retreat_costs_a_figure_a_hex() -> None:
    st = duel(d_hex="6,8")  # on its own baseline: nowhere to go
    st["units"]["a"]["hex"] = "6,7"
    out = resolve(st, "a", "d", ScriptedDice([FLAG, FLAG, CAV, CAV]))
    assert out["figures_lost"] == 2 and st["units"]["d"]["figures"] == 2
    walled = duel(terrain={"6,6": "rough", "7,6": "rough"})  # both hexes behind impassable
    resolve(walled, "a", "d", ScriptedDice([FLAG, CAV, CAV, CAV]))
    assert walled["units"]["d"]["figures"] == 3 and walled["units"]["d"]["hex"] == "6,5"


def test_elimination_takes_the_unit_off_and_cavalry_takes_ground() -> None:
    st = duel(kind="cavalry")
    st["units"]["d"]["figures"] = 1
    out = resolve(st, "a", "d", ScriptedDice([SABRES, CAV, CAV]))
    assert out["eliminated"] and st["units"]["d"]["hex"] is None
    assert st["units"]["a"]["hex"] == "6,5" and out["took_ground"] == "6,5"


def test_infantry_takes_ground_only_with_a_general() -> None:
    plain = duel()
    resolve(plain, "a", "d", ScriptedDice([FLAG, CAV, CAV, CAV]))
    assert plain["units"]["a"]["hex"] == "6,4"
    led = duel(a={"generals": ["hancock"]})
    led["units"]["a"]["generals"] = ["hancock"]
    resolve(led, "a", "d", ScriptedDice([FLAG, CAV, CAV, CAV]))
    assert led["units"]["a"]["hex"] == "6,5"


# --- ranges and dice by range (B-f, TE3) ----------------------------------------------------


@pytest.mark.parametrize(("kind", "dice"), [
    ("infantry", [4, 3, 2, 1, 0]), ("cavalry", [3, 0]), ("artillery", [5, 4, 3, 2, 1, 0])])
def test_dice_by_range(kind: str, dice: list[int]) -> None:
    for d, n in enumerate(dice, start=1):
        st = duel(kind=kind, d_hex=f"6,{4 + d}" if 4 + d <= 8 else "6,8")
        st["units"]["a"]["hex"] = f"6,{8 - d}"
        st["units"]["d"]["hex"] = "6,8"
        assert distance("6,8", f"6,{8 - d}") == d
        assert fire_dice(st, "a", "d") == n, (kind, d)


def test_higher_guns_reach_a_hex_further_with_one_die() -> None:  # TE3
    st = duel(kind="artillery", heights={"6,2": 30.0})
    st["units"]["a"]["hex"], st["units"]["d"]["hex"] = "6,2", "6,8"
    assert fire_dice(st, "a", "d") == 1
    st["board"]["hexes"]["6,2"]["height"] = 0.0
    assert fire_dice(st, "a", "d") == 0


def test_artillery_that_moved_may_not_fire() -> None:
    st = duel(kind="artillery")
    st["units"]["a"]["moved"] = True
    assert fire_dice(st, "a", "d") == 0


# --- terrain, line of sight, entrenchments --------------------------------------------------


@pytest.mark.parametrize(("where", "terrain", "dice"), [
    ("d", "woods", 3), ("d", "orchard", 3), ("d", "homestead", 3), ("d", "fence", 3),
    ("a", "waterway", 3), ("d", "bridge", 4), ("d", "clear", 4), ("a", "hill", 4)])
def test_terrain_dice(where: str, terrain: str, dice: int) -> None:
    h = "6,4" if where == "a" else "6,5"
    assert fire_dice(duel(terrain={h: terrain}), "a", "d") == dice


def test_hills_uphill_and_hill_to_hill() -> None:
    assert fire_dice(duel(terrain={"6,5": "hill"}), "a", "d") == 3  # uphill
    both = duel(terrain={"6,5": "hill", "6,3": "hill"})
    both["units"]["a"]["hex"] = "6,3"
    assert fire_dice(both, "a", "d") == 2  # 3 at two hexes, less 1 hill to hill
    assert fire_dice(duel(terrain={"6,5": "hill", "6,4": "hill"}), "a", "d") == 4


def test_entrenchment_cover() -> None:
    st = duel()
    st["entrench"] = ["6,5"]
    assert fire_dice(st, "a", "d") == 3


def test_line_of_sight_blocked_by_woods_and_units() -> None:
    st = duel(d_hex="6,7")
    mid = between("6,4", "6,7")
    assert fire_dice(st, "a", "d") == 2
    assert fire_dice(duel(d_hex="6,7", terrain={mid[0]: "woods"}), "a", "d") == 0
    blocked = duel(d_hex="6,7")
    blocked["units"]["x"] = dict(blocked["units"]["a"], hex=mid[1])
    assert fire_dice(blocked, "a", "d") == 0


def test_sight_along_the_ragged_edge() -> None:
    st = duel(d_hex="12,3")
    st["units"]["a"]["hex"] = "12,1"
    assert fire_dice(st, "a", "d") == 3


def test_stop_terrain_and_impassable_rough() -> None:
    walls = {h: "rough" for h in neighbours("6,4")} | {"5,4": "woods"}
    st = duel(kind="cavalry", terrain=walls)
    st["units"]["d"]["hex"] = "0,8"
    assert reach(st, "a") == ["5,4"]  # rough cannot be entered; woods end a 3-hex move
    open_ground = duel(kind="cavalry")
    open_ground["units"]["d"]["hex"] = "0,8"
    assert "3,4" in reach(open_ground, "a")


@pytest.mark.parametrize(("kind", "terrain", "dist", "dice"), [
    ("cavalry", "woods", 1, 0), ("artillery", "woods", 1, 0), ("infantry", "woods", 2, 1),
    ("infantry", "woods", 3, 0), ("infantry", "homestead", 3, 1), ("cavalry", "homestead", 1, 2),
    ("artillery", "homestead", 1, 0)])
def test_what_a_unit_entering_woods_or_a_homestead_may_do(kind: str, terrain: str,
                                                          dist: int, dice: int) -> None:
    st = duel(kind=kind, d_hex=f"6,{4 + dist}", terrain={"6,4": terrain})
    st["units"]["a"]["entered"] = terrain
    st["units"]["a"]["moved"] = kind != "artillery"
    assert fire_dice(st, "a", "d") == dice


# --- the seed's marks and the generals (TE3, B7, G-...) ---------------------------------------


def flags_taken(**kw: Any) -> int:
    st = duel(**kw)
    if kw.get("d", {}).get("generals"):
        st["units"]["d"]["generals"] = kw["d"]["generals"]
    out = resolve(st, "a", "d", ScriptedDice([FLAG, FLAG, FLAG, CAV, CAV]))
    return len(out["retreat"])


def test_who_ignores_flags() -> None:
    assert flags_taken() == 3
    assert flags_taken(heights={"6,5": 20.0}) == 2  # TE3: higher ground, the first flag
    assert flags_taken(d={"ignores_one_flag": True}) == 2  # G-USA-3 elite, G-USA-5 Custer
    assert flags_taken(d={"ignores_flags": True}) == 0  # B7 (CSA, 3 July), G-CSA-5 Pickett
    assert flags_taken(d={"generals": ["ewell"]}) == 2  # a general rides with it


def test_entrenched_units_ignore_a_flag() -> None:  # B6
    st = duel()
    st["entrench"] = ["6,5"]
    out = resolve(st, "a", "d", ScriptedDice([FLAG, FLAG, CAV]))
    assert len(out["retreat"]) == 1


def test_elite_and_stuart_roll_an_extra_die() -> None:  # G-USA-3, G-CSA-4
    assert fire_dice(duel(a={"elite": True}), "a", "d") == 5
    assert fire_dice(duel(kind="cavalry", a={"extra_die": True}), "a", "d") == 4


# --- the turn: cards, orders, moves, fire, time and annihilation (B-e, B2, B3) ---------------


def test_a_turn_card_order_move_fire_then_draw() -> None:
    st = duel(d_hex="6,7")
    st.update(step="card", hands={"usa": ["feel_centre"], "csa": ["feel_left"]})
    for u in st["units"].values():
        u["ordered"] = False
    dice = ScriptedDice([CAV] * 3)
    assert options(st) == [{"type": "battle_card", "card": "feel_centre"}]
    act(st, {"type": "battle_card", "card": "feel_centre"}, dice)
    assert {"type": "battle_order", "unit": "a"} in options(st)
    with pytest.raises(RuleError) as info:
        check(st, {"type": "battle_order", "unit": "d"})
    assert info.value.rule == "B-e" and "'unit'" in str(info.value)
    act(st, {"type": "battle_order", "unit": "a"}, dice)
    assert st["step"] == "move"  # nothing more to order: the step passes by itself
    act(st, {"type": "battle_move", "unit": "a", "to": "6,5"}, dice)
    assert options(st) == [{"type": "battle_fire", "unit": "a", "target": "d"},
                           {"type": "battle_done"}]
    act(st, {"type": "battle_fire", "unit": "a", "target": "d"}, dice)
    assert st["active"] == "csa" and st["step"] == "card" and len(st["hands"]["usa"]) == 1


def test_the_battle_ends_when_its_turns_run_out_or_a_side_is_gone() -> None:  # B3
    st = duel(d_hex="6,8")
    st.update(step="card", turns=1)
    dice = ScriptedDice([])
    for side in ("usa", "csa"):
        assert st["active"] == side
        act(st, {"type": "battle_card", "card": "feel_left"}, dice)
        while st["active"] == side and not st["over"]:
            act(st, {"type": "battle_done"}, dice)
    assert st["over"] and st["turn"] == 2
    wiped = duel()
    wiped["units"]["d"]["figures"] = 1
    out = act(wiped, {"type": "battle_fire", "unit": "a", "target": "d"},
              ScriptedDice([INF, CAV, CAV, CAV]))
    assert wiped["over"] and out[-1]["type"] == "battle_annihilation"
