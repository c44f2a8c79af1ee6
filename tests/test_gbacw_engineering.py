"""Breastworks (002 §15, E-8): who builds, where, how long, what stops the work, crossing,
and the combat modifiers, on hand-built boards."""

from __future__ import annotations

import pytest

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import engineering as en
from gettysburg.gbacw import fatigue as fa
from gettysburg.gbacw.board import Board, HexInfo, load_board
from gettysburg.gbacw.engineering import Breastwork, Builder
from gettysburg.gbacw.movement import entry_cost

C0 = Hex(0, 0)


def board_of(terrain: dict[Hex, str] | None = None, *, radius: int = 7,
             features: dict[Hex, tuple[str, ...]] | None = None) -> Board:
    """Open hexes within ``radius`` of C0 unless told otherwise."""
    real = load_board()
    terrain, features = terrain or {}, features or {}
    hexes = {}
    for q in range(-radius, radius + 1):
        for r in range(-radius, radius + 1):
            h = Hex(q, r)
            if h.distance(C0) <= radius:
                hexes[h] = HexInfo(id=f"T{q},{r}", hex=h, level=0, height_ft=0.0,
                                   terrain=terrain.get(h, "open"),
                                   features=features.get(h, ()), sheets=("T",))
    return Board(codec=real.codec, layout=real.layout, hexes=hexes, sides={})


def far(d: int, n: int) -> Hex:
    h = C0
    for _ in range(n):
        h = h.neighbour(d)
    return h


def builder(**kw: object) -> Builder:
    base: dict[str, object] = {"unit": "20 ME", "unit_class": "infantry", "orders": "advance",
                               "in_command": True, "brigadier_may_change": True}
    base.update(kw)
    return Builder(**base)  # type: ignore[arg-type]


WOODS3 = far(0, 3)


def test_15_11_who_may_build() -> None:
    en.check_builder(builder())
    for kw, rule in (({"unit_class": "mounted_cavalry"}, "15.11"),
                     ({"unit_class": "artillery"}, "15.11"),
                     ({"orders": "attack"}, "15.11"), ({"orders": "march"}, "15.11"),
                     ({"in_command": False}, "15.11"),
                     ({"brigadier_may_change": False}, "15.11"),
                     ({"fatigue": fa.steps_of("2")}, "17.34")):
        with pytest.raises(RuleError) as err:
            en.check_builder(builder(**kw))
        assert err.value.rule == rule
    en.check_builder(builder(fatigue=fa.steps_of("1")))


def test_15_12_site_within_three_hexes_of_material() -> None:
    b = board_of({WOODS3: "woods"})
    assert en.check_site(b, C0, [], markers_here=0) == WOODS3
    # four hexes away is too far
    b4 = board_of({far(0, 4): "woods"})
    with pytest.raises(RuleError, match="within 3 hexes"):
        en.check_site(b4, C0, [], markers_here=0)
    # a farm (buildings) serves as well as woods; town and marsh may not be built in
    assert en.check_site(board_of(features={far(3, 2): ("farm",)}), C0, [],
                         markers_here=0) == far(3, 2)
    for t in ("town", "marsh"):
        with pytest.raises(RuleError, match=t):
            en.check_site(board_of({C0: t, WOODS3: "woods"}), C0, [], markers_here=0)
    with pytest.raises(RuleError, match="already holds 2"):
        en.check_site(b, C0, [], markers_here=2)


def test_15_12_no_enemy_next_to_the_site_the_source_or_between() -> None:
    b = board_of({WOODS3: "woods"})
    with pytest.raises(RuleError, match="next to an enemy"):
        en.check_site(b, C0, [far(3, 1)], markers_here=0)
    # the only 3-hex path to the woods runs straight; an enemy next to the two hexes
    # between (but not to the site or the woods) closes it
    blocker = far(0, 1).neighbour(1)
    assert blocker.distance(C0) == 2 and blocker.distance(WOODS3) == 2
    with pytest.raises(RuleError, match="clear of the enemy"):
        en.check_site(b, C0, [blocker], markers_here=0)
    # an enemy far off does not matter
    assert en.check_site(b, C0, [far(3, 6)], markers_here=0) == WOODS3


def test_15_13_two_turns_or_one_at_night() -> None:
    b = board_of({WOODS3: "woods"})
    c = en.start(builder(), b, C0, 0, [], turn=5, light="day", markers_here=0)
    assert not en.completes(c, 5) and en.completes(c, 6)
    assert en.turns_needed("day") == 2 and en.turns_needed("night") == 1
    n = en.start(builder(), b, C0, 0, [], turn=16, light="night", markers_here=0)
    assert en.completes(n, 16)
    with pytest.raises(RuleError) as err:
        en.start(builder(), b, C0, 0, [], turn=5, light="day", markers_here=1, building=[c])
    assert err.value.rule == "15.15"
    with pytest.raises(RuleError) as err:
        en.start(builder(), b, C0, 6, [], turn=5, light="day", markers_here=0)
    assert err.value.rule == "15.21"


def test_15_14_what_ends_the_work() -> None:
    c = en.Construction("20 ME", C0, 0, 5, False)
    assert en.interruption(c, orders="advance", hex_now=C0) is None
    assert en.interruption(c, orders="advance", hex_now=C0, actions=["build"]) is None
    assert en.interruption(c, orders="attack", hex_now=C0) == "attack_orders"
    assert en.interruption(c, orders="advance", hex_now=far(1, 1)) == "left_hex"
    assert en.interruption(c, orders="advance", hex_now=None) == "left_hex"
    assert en.interruption(c, orders="advance", hex_now=C0,
                           actions=["return_fire"]) == "other_action"
    assert en.interruption(c, orders="advance", hex_now=C0, shocked=True) == "shocked"
    assert en.interruption(c, orders="advance", hex_now=C0,
                           fatigue=fa.steps_of("2")) == "fatigue"


def test_15_17_15_22_crossing_costs_and_removes() -> None:
    b = board_of()
    bw = Breastwork(C0, 0)
    guarded = en.guarded_hexsides([bw])
    assert len(guarded) == 2
    step = entry_cost(b, far(0, 1), C0, unit_class="infantry", orders="advance",
                      breastwork_sides=guarded)
    plain = entry_cost(b, far(0, 1), C0, unit_class="infantry", orders="advance")
    assert not isinstance(step, RuleError) and not isinstance(plain, RuleError)
    assert step.mp == plain.mp + 1
    assert en.crossed([bw], far(0, 1), C0) == (bw,)
    assert en.crossed([bw], far(1, 1), C0) == (bw,)
    assert en.crossed([bw], far(2, 1), C0) == ()


def test_15_23_fire_and_shock_modifiers_e8() -> None:
    bw = Breastwork(C0, 0)  # guards the hexsides towards directions 0 and 1
    front, side, back = far(0, 3), far(2, 2), far(3, 1)
    assert en.fire_out_drm([bw], C0, front, kind="small_arms") == 1
    assert en.fire_out_drm([bw], C0, front, kind="canister") == 0
    assert en.fire_out_drm([bw], C0, side, kind="small_arms") == 0
    assert en.fire_in_drm([bw], C0, front, kind="small_arms", target_class="infantry") == -1
    assert en.fire_in_drm([bw], C0, front, kind="canister", target_class="infantry") == -1
    assert en.fire_in_drm([bw], C0, front, kind="shell", target_class="infantry") == 0
    assert en.fire_in_drm([bw], C0, front, kind="small_arms", target_class="artillery") == 0
    assert en.fire_in_drm([bw], C0, back, kind="small_arms", target_class="infantry") == 0
    # shock across the works: -1 pre-shock check and -1 defence; also from an open side: none
    assert en.pre_shock_drm([bw], C0, [far(0, 1), far(1, 1)]) == -1
    assert en.shock_defence_drm([bw], C0, [far(0, 1)]) == -1
    assert en.shock_defence_drm([bw], C0, [far(0, 1), far(3, 1)]) == 0
    assert en.shock_defence_drm([], C0, [far(0, 1)]) == 0


def test_corner_line_favours_the_works() -> None:
    """A line leaving exactly through the corner between a guarded and an open hexside."""
    bw = Breastwork(C0, 0)
    corner_target = C0.neighbour(1) + C0.neighbour(2)  # the corner between sides 1 and 2
    assert en.covers([bw], C0, corner_target)
    assert not en.covers([bw], C0, C0.neighbour(3) + C0.neighbour(4))


def test_e18_ready_made_works_from_the_board() -> None:
    b = board_of()
    h = far(0, 2)
    b.hexes[h] = HexInfo(id="T", hex=h, level=0, height_ft=0.0, terrain="open", features=(),
                         sheets=("T",), breastworks=2)
    assert en.from_board(b, {h: (0, 3)}) == (Breastwork(h, 0), Breastwork(h, 3))
    with pytest.raises(RuleError, match="give that many"):
        en.from_board(b, {h: (0,)})
