"""Reaction facing, refusal and reaction moves (002 §9.61-9.63), from the situations of the
seed's movement-and-reaction example and positions built by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import reaction as re_
from gettysburg.gbacw.board import Board, HexInfo, load_board
from gettysburg.gbacw.facing import Facing, front_hexes, turn
from gettysburg.gbacw.reaction import ActivationLog, Reactor
from gettysburg.gbacw.udd import udd

C0 = Hex(0, 0)


def board_of(terrain: dict[Hex, str] | None = None, *, radius: int = 8) -> Board:
    real = load_board()
    terrain = terrain or {}
    hexes = {}
    for q in range(-radius, radius + 1):
        for r in range(-radius, radius + 1):
            h = Hex(q, r)
            if h.distance(C0) <= radius:
                hexes[h] = HexInfo(id=f"T{q},{r}", hex=h, level=0, height_ft=0.0,
                                   terrain=terrain.get(h, "open"), features=(), sheets=("T",))
    return Board(codec=real.codec, layout=real.layout, hexes=hexes, sides={})


def far(d: int, n: int, start: Hex = C0) -> Hex:
    h = start
    for _ in range(n):
        h = h.neighbour(d)
    return h


def inf(**kw: object) -> Reactor:
    base: dict[str, object] = {"unit": "C", "hex": C0, "facing": Facing.vertex(0),
                               "unit_class": "infantry", "orders": "advance"}
    base.update(kw)
    return Reactor(**base)  # type: ignore[arg-type]


def test_9_61_example_unit_c_turns_one_vertex_then_udd() -> None:
    """The seed's example: enemy F moves next to C's flank; C turns one vertex as a reaction
    and then takes a UDD (scripted: a 3 against cohesion 5 passes)."""
    c = inf()
    f_hex = far(3, 1)  # a rear-side neighbour
    assert re_.moved_adjacent(c, f_hex)
    log = ActivationLog()
    re_.check_facing(c, "face", log, enemies=[(f_hex, Facing.vertex(0))], trigger=f_hex,
                     new_facing=turn(c.facing, 1))
    assert re_.facing_needs_udd(c)
    roll = udd(ScriptedDice([3], die="d10"), unit="C", cohesion=5, rule="9.62")
    assert roll.passed
    re_.after_facing(c, log)
    with pytest.raises(RuleError) as err:  # once per enemy brigade activation
        re_.check_facing(c, "face", log, enemies=[], trigger=None, new_facing=turn(c.facing, 2))
    assert err.value.rule == "9.62"


def test_9_62_example_unit_d_in_another_enemys_front_may_not_react() -> None:
    """Enemy D stands in the front hex of another enemy unit: it may not turn."""
    d = inf(unit="D")
    watcher_hex = far(0, 1)
    watcher = (watcher_hex, Facing.vertex(3))  # faces back towards D
    assert C0 in front_hexes(*watcher)
    trigger = far(3, 1)
    with pytest.raises(RuleError, match="another enemy unit's front"):
        re_.check_facing(d, "face", ActivationLog(), enemies=[watcher, (trigger, Facing.vertex(0))],
                         trigger=trigger, new_facing=turn(d.facing, 1))
    # the trigger's own front does not count
    re_.check_facing(d, "refuse", ActivationLog(), enemies=[(trigger, Facing.vertex(0))],
                     trigger=trigger)


def test_9_61_who_may_not_react() -> None:
    log = ActivationLog()
    for kw, kind, rule in (({"orders": "march"}, "face", "9.61"),
                           ({"extended_column": True}, "refuse", "9.61"),
                           ({"extended_line": True}, "face", "9.61"),
                           ({"refused": True}, "face", "9.62")):
        u = inf(**kw)
        with pytest.raises(RuleError) as err:
            re_.check_facing(u, kind, log, enemies=[], trigger=None,  # type: ignore[arg-type]
                             new_facing=turn(u.facing, 1))
        assert err.value.rule == rule
    re_.check_facing(inf(extended_line=True), "refuse", log, enemies=[], trigger=None)
    with pytest.raises(RuleError, match="stacked"):
        re_.check_facing(inf(), "face", log, enemies=[], trigger=None,
                         new_facing=turn(Facing.vertex(0), 1), stack_may_turn=False)
    with pytest.raises(RuleError, match="one vertex"):
        re_.check_facing(inf(), "face", log, enemies=[], trigger=None,
                         new_facing=turn(Facing.vertex(0), 2))


def test_9_61_fire_from_outside_the_front_triggers() -> None:
    c = inf()
    ahead, behind = far(0, 3), far(3, 3)
    assert not re_.fired_from_outside_front(c, ahead, must_retreat=False)
    assert re_.fired_from_outside_front(c, behind, must_retreat=False)
    assert not re_.fired_from_outside_front(c, behind, must_retreat=True)


def test_9_62_artillery_turn_no_udd_then_minus_2_and_no_rapid_fire() -> None:
    a = inf(unit="Bty", unit_class="artillery")
    log = ActivationLog()
    re_.check_facing(a, "face", log, enemies=[], trigger=None, new_facing=turn(a.facing, -1))
    assert not re_.facing_needs_udd(a)
    re_.after_facing(a, log)
    assert re_.artillery_fire_drm("Bty", log) == -2
    with pytest.raises(RuleError) as err:
        re_.check_rapid_fire("Bty", log)
    assert err.value.rule == "9.62"
    log.fired_after_facing.add("Bty")
    assert re_.artillery_fire_drm("Bty", log) == 0
    re_.check_rapid_fire("Bty", log)


def test_9_63_triggers_within_three_hexes_not_at_night_unless_adjacent() -> None:
    cav = inf(unit="Cav", unit_class="mounted_cavalry")
    assert re_.move_trigger(cav, far(0, 3))
    assert not re_.move_trigger(cav, far(0, 4))
    assert not re_.move_trigger(cav, far(0, 2), advance_after_combat=True)
    assert not re_.move_trigger(cav, far(0, 2), light="night")
    assert re_.move_trigger(cav, far(0, 1), light="night")


def test_9_63_who_may_move_and_artillery_once() -> None:
    log = ActivationLog()
    with pytest.raises(RuleError, match="only mounted cavalry"):
        re_.check_move(inf(), log, enemies=[], trigger=None)
    with pytest.raises(RuleError, match="March"):
        re_.check_move(inf(unit_class="mounted_cavalry", orders="march"), log, enemies=[],
                       trigger=None)
    bty = inf(unit="Bty", unit_class="artillery")
    re_.check_move(bty, log, enemies=[], trigger=None)
    re_.after_move(bty, log)
    with pytest.raises(RuleError, match="already moved"):
        re_.check_move(bty, log, enemies=[], trigger=None)
    with pytest.raises(RuleError, match="approach fire"):
        re_.check_approach_fire("Bty", log)
    log2 = ActivationLog(approach_fired={"Bty"})
    with pytest.raises(RuleError, match="approach fire"):
        re_.check_move(bty, log2, enemies=[], trigger=None)
    cav = inf(unit="Cav", unit_class="mounted_cavalry")
    re_.after_move(cav, log)
    re_.check_move(cav, log, enemies=[], trigger=None)  # cavalry may react again


def test_9_63_example_unit_g_cavalry_falls_back_away_from_the_enemy() -> None:
    """The seed's example: G moves towards enemy cavalry, which reacts by moving one or two
    hexes away (retreat rules) and then rolls a UDD; G may go on moving."""
    b = board_of()
    cav = inf(unit="Cav", unit_class="mounted_cavalry")
    g = far(0, 3)
    moves = re_.reaction_moves(b, cav, enemy=[g], enemy_fronts=[], causing=[g])
    assert moves
    here = C0.distance(g)
    assert all(min(m.hexes[-1].distance(g), 99) > here for m in moves)
    assert {len(m.hexes) for m in moves} == {1, 2}
    assert all(m.udd_drm == 0 for m in moves)  # all clear ground
    one = re_.reaction_moves(b, cav, enemy=[g], enemy_fronts=[], causing=[g], one_hex_only=True)
    assert {len(m.hexes) for m in one} == {1}


def test_9_63_cavalry_udd_counts_rough_ground() -> None:
    back = far(3, 1)
    b = board_of({back: "woods"})
    cav = inf(unit="Cav", unit_class="mounted_cavalry")
    moves = re_.reaction_moves(b, cav, enemy=[far(0, 3)], enemy_fronts=[], causing=[far(0, 3)])
    woods = [m for m in moves if m.hexes == (back,)]
    assert woods and woods[0].udd_drm >= 2


def test_9_63_artillery_limits() -> None:
    """Artillery never into a hex costing it over 2 MP, nor within 4 hexes and LOS of an
    enemy; never into an enemy front hex or next to the unit that set it off."""
    back = far(3, 1)
    b = board_of({back: "woods"})  # woods cost artillery more than 2 MP
    bty = inf(unit="Bty", unit_class="artillery")
    enemy = far(0, 3)
    moves = re_.reaction_moves(b, bty, enemy=[enemy], enemy_fronts=[], causing=[enemy])
    assert all(back not in m.hexes for m in moves)
    seen = re_.reaction_moves(b, bty, enemy=[enemy], enemy_fronts=[], causing=[enemy],
                              seen_by_enemy=lambda h: True)
    assert all(m.hexes[-1].distance(enemy) > 4 for m in seen)
    assert all(len(m.hexes) == 2 for m in seen)
    fronts = {far(4, 1), far(2, 1)}
    limited = re_.reaction_moves(b, bty, enemy=[enemy], enemy_fronts=fronts, causing=[enemy])
    assert all(not (set(m.hexes) & fronts) for m in limited)
    near = re_.reaction_moves(b, bty, enemy=[far(0, 2)], enemy_fronts=[], causing=[far(0, 2)])
    assert all(all(h.distance(far(0, 2)) > 1 for h in m.hexes) for m in near)


@given(st.sampled_from(["mounted_cavalry", "artillery"]),
       st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), min_size=1, max_size=4),
       st.lists(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), max_size=4),
       st.booleans())
def test_reaction_moves_respect_the_retreat_limits(
        cls: str, enemy_qr: list[tuple[int, int]], front_qr: list[tuple[int, int]],
        one: bool) -> None:
    """Every offered move: one or two adjacent steps on the map, never into an enemy hex,
    an enemy front hex or next to the units that set it off; artillery at most 2 MP a hex."""
    enemy = [Hex(q, r) for q, r in enemy_qr if Hex(q, r) != C0]
    if not enemy:
        return
    fronts = {Hex(q, r) for q, r in front_qr}
    u = inf(unit="U", unit_class=cls)
    moves = re_.reaction_moves(BOARD, u, enemy=enemy, enemy_fronts=fronts, causing=enemy[:1],
                               one_hex_only=one)
    for m in moves:
        assert 1 <= len(m.hexes) <= (1 if one else 2)
        prev = C0
        for h, s in zip(m.hexes, m.steps, strict=True):
            assert prev.distance(h) == 1 and h in BOARD.hexes
            assert h not in enemy and h not in fronts
            assert h.distance(enemy[0]) > 1
            if cls == "artillery":
                assert s.mp <= 2
            prev = h
        assert m.udd_drm >= 0


BOARD = board_of({far(1, 2): "woods", far(4, 1): "orchard"})
