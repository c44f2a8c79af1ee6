"""What follows the last shock of a designation in the GBACW engine (002 §6.26, §11.48,
§17.22): March brigades shocked go to Advance orders and their other units take a UDD; each
brigade engaged in step 6b counts a shock phase for fatigue.

**Readings.** A designation (with its continued shocks) is one action phase for §17.22's
count: the brigades engaged in it count once whatever the number of rolls; a brigade
engaged again in a later designation of the same turn counts again (the phase is the
enemy's or its own brigade activation). The March brigade's change happens when the shock
step ends, which is the end of the enemy brigade's activation (§6.26: shock is its last
step). Its units are turned to the nearest vertex facing (§7.1), as any change from March.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gettysburg.core.protocol import Event, dice_event

from . import fatigue
from .orders_step import combat_orders, fatigue_orders
from .shock import march_aftermath
from .shock_action import combatant_of
from .shock_units import present as _present

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame


def finish(game: GbacwGame, seat: str, ctx: dict[str, Any]) -> list[Event]:
    """After a designation's last shock: March brigades shocked go to Advance, their other units
    take a UDD, and each engaged brigade counts a shock phase for fatigue (002 §6.26, §11.48,
    §17.22)."""
    return march_shocked(game, seat, ctx) + shock_fatigue(game, ctx)


def march_shocked(game: GbacwGame, seat: str, ctx: dict[str, Any]) -> list[Event]:
    """002 §6.26, §11.48: each brigade shocked on March orders (even when its units fled on
    the pre-shock check) goes to Advance orders; its units that were not in the shock and
    were on March themselves take a UDD: a failure disorders a unit in good order and costs
    a disordered one 1 SP.

    With §4.23 a brigade and its units may be on different orders. The brigade counts as
    shocked on March when its orders are March or a defender in the shock was on March of
    its own; the UDD goes only to the units whose own orders (``orders_of``, before the
    change) were March, as §11.48 heads its results "defending units on March orders": a
    unit that kept Advance or Attack stands deployed and is not caught in column."""
    p = game.pos
    ev: list[Event] = []
    involved = set(ctx.get("involved", []))
    marching = sorted({game.formation(k) for k in involved if p.units[k].seat != seat
                       and (game.orders_of(k) == "march"
                            or p.brigades[game.formation(k)].orders == "march")})
    for brigade in marching:
        b = p.brigades[brigade]
        others = [k for k in game.brigade_units(brigade)
                  if k not in involved and _present(game, k)
                  and game.orders_of(k) == "march"]
        first = game.dice.counter
        checks = march_aftermath(game.dice, [combatant_of(game, k) for k in others])
        # its orders and its units' own March orders (002 §4.23) go to Advance, facings after
        combat_orders(game, brigade)
        data: dict[str, Any] = {"brigade": brigade, "orders": b.orders, "checks": []}
        for c in checks:
            u = p.units[c.unit]
            if not c.passed:
                if u.disordered:
                    u.lost += 1
                u.disordered = True
            data["checks"].append(c.to_json())
        if game.dice.counter > first:
            ev.append(dice_event(game.dice.rolls_since(first)))
        # the orders are the owner's to see (002 §6); the checks' results are on the map
        ev.append(Event("march_shocked", "11.48", data, visible_to=(b.seat,),
                        redacted={"checks": data["checks"]}))
    return ev


def shock_fatigue(game: GbacwGame, ctx: dict[str, Any]) -> list[Event]:
    """002 §17.22 cause 2 (with the fatigue rule): a brigade's first shock phase of the turn
    is free, each later one adds a level (``fatigue.after_shock_phase``)."""
    if not game.fatigue:
        return []
    p = game.pos
    ev: list[Event] = []
    for brigade in sorted(set(ctx.get("fought", []))):
        b = p.brigades.get(brigade)
        if b is None:
            continue
        tally = fatigue.TurnTally(**b.tally) if b.tally else fatigue.TurnTally()
        tally, new = fatigue.after_shock_phase(tally)
        b.tally = tally.to_json()
        if not new:
            continue
        before = b.fatigue
        b.fatigue = fatigue.raised(b.fatigue, new)
        fatigue_orders(game, brigade)  # 002 §17.32: Fatigue 4 puts every unit on Advance
        ev.append(Event("fatigue", "17.22", {"brigade": brigade, "before": before,
                                             "after": b.fatigue,
                                             "marker": fatigue.label(b.fatigue),
                                             "cause": "shock"}, visible_to=(b.seat,)))
    return ev
