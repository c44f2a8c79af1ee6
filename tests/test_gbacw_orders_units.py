"""Orders a unit keeps out of command (002 §4.23) when combat or fatigue changes what its
brigade is on (§6.26, §17.32): the unit's own March orders end with the brigade's March, and
every unit faces as its orders say (§7.1), so that nothing the engine then asks (its moves'
reach, 002 §7.11) finds a March unit facing a vertex. Positions on the hand-made skirmish
(tests/data/gbacw/skirmish.yaml) with scripted d10s.

The bug this pins (Little Round Top, lab seed 5400, game 0): the Washington Artillery's
batteries kept March when their brigade took Advance out of command; a shock on one of them
turned every battery to a vertex while their own orders stayed March, and the next
``legal_actions`` raised 7.11."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gbacw_skirmish import ARCHER, active_gamble
from gettysburg.core.dice import ScriptedDice
from gettysburg.gbacw import orders_step
from gettysburg.gbacw.fatigue import MAX_STEPS
from gettysburg.gbacw.game import GbacwGame, facing_kind
from test_gbacw_random_play import WEIGHTS
from test_gbacw_shock_continued import march_target
from test_gbacw_shock_engine import shocks, stand


def facings_agree(g: GbacwGame) -> None:
    """Every unit on the map faces as its orders say (002 §7.1), and both seats' legal
    actions can be listed."""
    for k, u in g.pos.units.items():
        if u.hex is not None and u.facing is not None:
            assert u.facing.kind == facing_kind(g.orders_of(k)), (k, u.facing, g.orders_of(k))
    g._memo.clear()
    for seat in ("usa", "csa"):
        g.legal_actions(seat)


def keep_march(g: GbacwGame, brigade: str, units: list[str], orders: str = "advance") -> None:
    """The brigade is on ``orders``; ``units`` kept March out of command (002 §4.23)."""
    g.pos.brigades[brigade].orders = orders
    for k in units:
        g.pos.unit_orders[k] = "march"
    g._refacing(brigade)
    g._memo.clear()
    assert all(g.orders_of(k) == "march" for k in units)
    facings_agree(g)


def test_a_unit_on_its_own_march_orders_shocked_takes_advance_6_26_4_23() -> None:
    """Davis's brigade is on Advance but its shocked regiment and one other kept March
    (out of command at the change). The shock on March orders (§6.26, §11.48): both take
    Advance with their brigade, face vertices, and the engine lists both seats' actions."""
    g, k, davis = march_target()
    brigade = g.formation(davis)
    other = next(u for u in g.brigade_units(brigade) if u != davis)
    keep_march(g, brigade, [davis, other])
    g.dice = ScriptedDice([0, 0] + [9] * 40, die="d10")
    g.apply(next(a for a in shocks(g) if a["shocks"][0]["attackers"] == [k]), "usa")
    ev = stand(g)
    while g.pos.pending is not None:  # a retreat path, if any
        seat = g.to_move()[0]
        ev += g.apply(g.legal_actions(seat)[0], seat)
    assert any(e.type == "march_shocked" for e in ev)
    assert g.pos.brigades[brigade].orders == "advance"
    assert not any(g.pos.unit_orders.get(u) for u in g.brigade_units(brigade))
    assert g.orders_of(davis) == g.orders_of(other) == "advance"
    facings_agree(g)


def test_a_unit_on_its_own_march_orders_fired_on_takes_advance_6_26_4_23() -> None:
    """Archer's brigade on Advance, its regiment in front of Gamble kept March: fired on
    by small arms, it takes Advance at the end of Gamble's activation (§6.26); the brigade's
    orders stay as they were."""
    g, _k, enemy = active_gamble()
    keep_march(g, ARCHER, [enemy])
    target = g.pos.units[enemy].hex
    shot = next(a for a in g.legal_actions("usa") if a["type"] == "fire"
                and a["target"] == target)
    g.apply(shot, "usa")
    while g.pos.pending is not None:  # the defender's answer, if one is asked
        seat = g.to_move()[0]
        g.apply(g.legal_actions(seat)[-1], seat)
    assert g.pos.fired_on == [ARCHER]
    ev = g.apply({"type": "end_brigade"}, "usa")
    turn = next(e for e in ev if e.type == "march_fired_on")
    assert turn.rule == "6.26" and turn.data["orders"] == "advance"
    assert g.pos.brigades[ARCHER].orders == "advance"
    assert enemy not in g.pos.unit_orders and g.orders_of(enemy) == "advance"
    facings_agree(g)


def test_combat_changes_no_other_orders_6_26() -> None:
    """A brigade on Attack whose unit kept March: the combat ends the unit's March (it is
    on Advance of its own until it takes its brigade's Attack, §4.23) and leaves the
    brigade's Attack alone."""
    g, _k, enemy = active_gamble()
    keep_march(g, ARCHER, [enemy], orders="attack")
    assert orders_step.combat_orders(g, ARCHER) == "attack"
    assert g.pos.brigades[ARCHER].orders == "attack"
    assert g.pos.unit_orders[enemy] == "advance" and g.orders_of(enemy) == "advance"
    facings_agree(g)


def test_fatigue_4_puts_every_unit_on_advance_17_32_4_23() -> None:
    """At Fatigue 4 the brigade goes to Advance at once (§17.32): so do the units that kept
    March or Attack out of command; they face vertices."""
    g, _k, enemy = active_gamble()
    others = [u for u in g.brigade_units(ARCHER) if u != enemy]
    keep_march(g, ARCHER, [enemy], orders="attack")
    g.pos.brigades[ARCHER].fatigue = MAX_STEPS
    orders_step.fatigue_orders(g, ARCHER)
    assert g.pos.brigades[ARCHER].orders == "advance"
    assert not any(u in g.pos.unit_orders for u in [enemy, *others])
    facings_agree(g)
    # below Fatigue 4 nothing changes
    keep_march(g, ARCHER, [enemy], orders="attack")
    g.pos.brigades[ARCHER].fatigue = MAX_STEPS - 1
    orders_step.fatigue_orders(g, ARCHER)
    assert g.pos.brigades[ARCHER].orders == "attack" and g.orders_of(enemy) == "march"


# --- random play with units out of command --------------------------------------------------

MELEE = str(Path(__file__).parent / "data" / "gbacw" / "melee.yaml")


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), data=st.data())
def test_orders_of_units_out_of_command_under_random_play_4_23(seed: int,
                                                                data: st.DataObject) -> None:
    """The melee (brigades in contact, all put on March) with a random half of the units
    found out of command whenever orders may change, and orders changes, fire and shock
    picked often:
    after every action each unit faces as its orders say and both seats' actions can be
    listed (002 §4.23, §6.26, §7.1, §17.32)."""
    g = GbacwGame(MELEE, seed=seed)
    g.fatigue = True
    for n in sorted(g.pos.brigades):  # all on March, so that leaving it leaves units behind
        g.pos.brigades[n].orders = "march"
        g._refacing(n)
    g._memo.clear()
    units = sorted(g.pos.units)
    weights = {**WEIGHTS, "set_orders": 6, "roll_orders": 6, "fire": 4, "shock": 6}
    for _ in range(250):
        if g.is_terminal():
            break
        if g.pos.phase in ("orders", "orders_change"):  # the chain as II/A found it
            lost = [k for k in units if data.draw(st.booleans())]
            g.pos.command = {**g.pos.command, "units": lost}
            g._memo.clear()
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        assert legal
        kinds = sorted({a["type"] for a in legal})
        weighted = [k for k in kinds for _ in range(weights[k])]
        kind = weighted[data.draw(st.integers(0, len(weighted) - 1))]
        choices = [a for a in legal if a["type"] == kind]
        g.apply(choices[data.draw(st.integers(0, len(choices) - 1))], seat)
        facings_agree(g)
