"""The disorder checks a move meets, rolled in the engine (gbacw/move_step.py): "d" terrain
(002 §9.47, §12.33), passing through friends (002 §8.22), the disordered MA from there on
and no move next to the enemy while disordered (002 §12.34). Positions built by hand on
the skirmish scenario, the d10s scripted."""

from __future__ import annotations

from gbacw_skirmish import active_gamble
from gettysburg.core.dice import ScriptedDice
from gettysburg.gbacw import move_step
from gettysburg.gbacw.facing import Facing
from gettysburg.gbacw.game import GbacwGame


def alone_in_the_woods(start: str, facing: int, *, disordered: bool = False
                       ) -> tuple[GbacwGame, str]:
    """Gamble's first unit alone on the map at ``start`` (the rough woods of map B, where
    hexes B4912-B5013 disorder on a "d"), everyone else off it."""
    g, k, _ = active_gamble()
    for x, u in g.pos.units.items():
        if x != k:
            u.hex = None
    u = g.pos.units[k]
    u.hex, u.facing, u.disordered = start, Facing("vertex", facing), disordered
    g._memo.clear()
    return g, k


def move(g: GbacwGame, k: str, to: str, facing: int, dice: list[int]) -> list[str]:
    g.dice = ScriptedDice(dice + [0] * 10, die="d10")
    ev = g.apply({"type": "move", "unit": k, "to": to,
                  "facing": {"kind": "vertex", "index": facing}}, "usa")
    return [e.type for e in ev]


def test_a_d_hex_passed_goes_on_9_47() -> None:
    g, k = alone_in_the_woods("B4911", 0)
    r = g.reach(k)[(g.cat.board.parse("B5112"), Facing("vertex", 0))]
    assert [g.cat.board.hexes[c.hex].id for c in r.checks] == ["B5012"]
    types = move(g, k, "B5112", 0, [3])  # 3 <= cohesion 7
    assert types[:3] == ["move", "dice", "move_check"]
    u = g.pos.units[k]
    assert u.hex == "B5112" and not u.disordered


def test_a_failed_d_disorders_and_the_disordered_ma_cuts_the_move_12_33() -> None:
    g, k = alone_in_the_woods("B4911", 0)
    assert g.mp_of(k) == 6  # 5 MP planned: 3 into B5012, 2 more into B5112
    types = move(g, k, "B5112", 0, [9])  # 9 > 7: disordered in B5012, MA 4 from now
    u = g.pos.units[k]
    assert u.disordered and u.hex == "B5012"  # 5 MP > 4: it stops where it failed
    assert "move_cut" in types and u.mp_spent == 3


def test_a_disordered_unit_failing_a_d_suffers_a_second_disorder_12_35() -> None:
    g, k = alone_in_the_woods("B4911", 0, disordered=True)
    assert g.mp_of(k) == 4
    g.dice = ScriptedDice([9] + [0] * 10, die="d10")
    out = g.apply({"type": "move", "unit": k, "to": "B5012",
                   "facing": {"kind": "vertex", "index": 0}}, "usa")
    check = next(e for e in out if e.type == "move_check")
    assert check.data["check"]["passed"] is False
    assert check.data["disorder"]["second"] is True
    assert g.pos.units[k].disordered


def no_enemy() -> GbacwGame:
    """The skirmish with Gamble active and no enemy on the map (no withdrawal fire)."""
    g, _k, _ = active_gamble()
    for u in g.pos.units.values():
        if u.seat == "csa":
            u.hex = None
    g._memo.clear()
    return g


def test_passing_through_friends_checks_on_leaving_8_22() -> None:
    g = no_enemy()
    key = "US-Cav:12 IL"
    r = g.reach(key)[(g.cat.board.parse("A3604"), Facing("vertex", 0))]
    assert [(g.cat.board.hexes[c.hex].id, c.rule) for c in r.checks] == [("A3503", "8.22")]
    types = move(g, key, "A3604", 0, [9])  # fails on leaving A3503: disordered
    u = g.pos.units[key]
    assert "move_check" in types and u.disordered and u.hex == "A3604"


def test_a_second_disorder_in_friends_sends_the_unit_back_8_22() -> None:
    g = no_enemy()
    key = "US-Cav:12 IL"
    r = g.reach(key)[(g.cat.board.parse("A3604"), Facing("vertex", 0))]
    g.pos.units[key].disordered = True  # disordered by now (a hand-made case)
    g.dice = ScriptedDice([9] + [0] * 10, die="d10")
    done, ev = move_step.plan(g, key, r)
    friends = g.cat.board.parse("A3503")
    before = r.path[[x for x, _ in r.path].index(friends) - 1]
    # back where it entered the friends from, facing as it was there, its activation over
    assert (done.reach.hex, done.reach.facing) == before and done.done
    check = next(e for e in ev if e.type == "move_check")
    assert check.data["disorder"]["second"] is True


def test_a_disordered_unit_may_not_move_next_to_the_enemy_12_34() -> None:
    g, k, _enemy = active_gamble()
    g.pos.brigades[g.formation(k)].orders = "attack"  # §9.52: Attack moves next to enemies
    g._memo.clear()
    seat = g.pos.units[k].seat
    near = {h for h in (x for e in g.enemy_hexes(seat) for x in e.neighbours())}
    others = [x for x in g.active_units() if x != k]
    key = next(x for x in others if any(h in near for h, _ in g.destinations(x)))
    g.pos.units[key].disordered = True
    g._memo.clear()
    start = g.hex_of(g.pos.units[key].hex)
    assert not [h for h, _ in g.destinations(key) if h in near and h != start]
    assert g.destinations(key)  # it still moves elsewhere


def test_fronts_left_names_the_enemy_whose_front_the_mover_leaves_10_44() -> None:
    g, k, enemy = active_gamble()
    here = g.hex_of(g.pos.units[k].hex)
    there = g.hex_of(g.pos.units[enemy].hex)
    assert here is not None and there is not None
    g.pos.units[enemy].facing = Facing("vertex", next(
        v for v in range(6) if here in (there.neighbour(v), there.neighbour((v + 1) % 6))))
    far = next(h for h in here.neighbours() if h.distance(there) == 2)
    assert move_step.fronts_left(g, k, here, far) == [enemy]
    assert move_step.fronts_left(g, k, here, here) == []


def _battery_on_march(moves: int) -> tuple[GbacwGame, str]:
    """A battery of the skirmish's scenario family on the March AM, ``moves`` made."""
    g = GbacwGame("herr-ridge", seed=1)
    key = next(k for k in sorted(g.pos.units) if g.counter(k).arm == "art"
               and g.pos.units[k].hex is not None)
    g.pos.brigades[g.formation(key)].orders = "march"
    g.pos.current = f"{g.pos.units[key].seat}/march"
    g.pos.units[key].moves = moves
    g.fatigue = True
    return g, key


def test_a_fourth_march_move_checks_the_wheels_17_26() -> None:
    g, key = _battery_on_march(4)
    g.dice = ScriptedDice([6], die="d10")
    ev = move_step.wheels(g, key)
    assert [e.type for e in ev] == ["dice", "broken_wheels"]
    assert ev[1].data["broken"] is True and g.pos.units[key].lost == 1
    g, key = _battery_on_march(4)
    g.dice = ScriptedDice([5], die="d10")
    assert move_step.wheels(g, key)[1].data["broken"] is False
    assert g.pos.units[key].lost == 0
    g, key = _battery_on_march(3)  # the third move: no check
    assert move_step.wheels(g, key) == []
