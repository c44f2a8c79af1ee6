"""The supply preview (issue 57): which of a seat's blocks an HQ would supply, and why the
others are out, before the player spends a step on it.

By day an HQ is activated for supply where it stands (8.1): it loses a step and gets as
many supply points as its command range (8.2), each giving one step to a block of its own
that it may supply (8.2), in its command range (4.5), not at full strength and not yet
supplied this phase; a block in a front-line hex costs two (8.3). Once active, what is
left of its points is previewed the same way. By night there are no HQs to activate:
the side's pool reaches every block with a line of non-enemy hexes to its supply hex
(8.4). Only the seat's own blocks are named, so the preview tells nothing its view hides.
"""

from __future__ import annotations

from gettysburg.boc.command import command_range, may_supply, supply_roles
from gettysburg.boc.control import front_line
from gettysburg.boc.oob import HQ_TYPES
from gettysburg.boc.supply import SUPPLY_HEX, day_targets, night_targets
from gettysburg.core.canonical import JSONDict
from gettysburg.core.protocol import Game


def _names(game: Game, ids: list[str]) -> str:
    oob = game.orders.oob  # type: ignore[attr-defined]
    return ", ".join(oob[i].name for i in ids)


def supply_preview(game: Game, seat: str, hq_id: str) -> JSONDict | None:
    """8.1-8.3: the blocks ``hq_id`` would supply if activated for supply where it stands
    (or, once active, with the points it has left); None when it is not an HQ that may
    supply now."""
    st = game.state  # type: ignore[attr-defined]
    orders = game.orders  # type: ignore[attr-defined]
    board = game.board  # type: ignore[attr-defined]
    hq = st.units[hq_id]
    printed = orders.oob[hq_id]
    if printed.type not in HQ_TYPES:
        return None
    active = hq.sup_active
    if not active and game.supply_activation_problem(hq) is not None:  # type: ignore[attr-defined]
        return None
    points = st.supply_points.get(hq_id, 0) if active else (printed.command_range or 0)
    reach = command_range(board, st, orders, hq_id)
    roles = supply_roles(st, orders, hq_id)
    front = front_line(board, st, seat)
    lit: list[str] = []
    out: dict[str, str] = {}
    for b in st.on_map(seat):
        if b.id == hq_id or not may_supply(orders, roles, printed, orders.oob[b.id]):
            continue  # not one of its blocks to supply (8.2): nothing to explain
        cost = 2 if b.hex in front else 1
        if b.hex not in reach:
            out[b.id] = f"out of {printed.name}'s command range of " \
                        f"{printed.command_range or 0} (4.5, 8.3)"
        elif b.strength >= orders.oob[b.id].max_strength:
            out[b.id] = "at full strength (8.3)"
        elif b.supplied:
            out[b.id] = "already supplied this phase (8.3)"
        elif b.sup_active:
            out[b.id] = "an HQ active for supply itself (8.3)"
        elif cost > points:
            out[b.id] = f"a step there costs {cost} SP, {printed.name} has {points} (8.3)"
        else:
            lit.append(b.id)
    if active:  # the rules' own list of what it may still do agrees (legal actions)
        lit = [u for u, _ in day_targets(board, st, orders, hq_id)]
    lit.sort()
    priced = [f"{orders.oob[b].name}{' (2 SP, front line)' if st.units[b].hex in front else ''}"
              for b in lit]
    if active:
        note = f"{printed.name} has {points} SP left"
        note += f" and may supply {', '.join(priced)} (8.3)" if lit else \
            ": no block of its own it may still supply (8.3)"
    else:
        note = f"Activated for supply here, {printed.name} would lose a step and have " \
               f"{points} SP (8.1, 8.2)"
        note += f" for {', '.join(priced)} (8.3)" if lit else "; it would supply no block (8.3)"
    if out:
        note += "; out: " + "; ".join(f"{orders.oob[b].name}: {why}"
                                      for b, why in sorted(out.items()))
    warn = None
    if not active and not lit:
        warn = (f"activating {printed.name} for supply here supplies no block: it would only "
                "lose a step (8.1)")
    return {"lit": lit, "out": out, "note": note, "warn": warn,
            "warn_for": [] if active else [{"type": "supply_activate", "hq": hq_id}]}


def night_preview(game: Game, seat: str) -> JSONDict:
    """8.4: by night the side's pool supplies every block with a line of non-enemy hexes to
    its supply hex; the blocks below full strength without one are out."""
    st = game.state  # type: ignore[attr-defined]
    orders = game.orders  # type: ignore[attr-defined]
    board = game.board  # type: ignore[attr-defined]
    reached = {u for u, _most, _per in night_targets(board, st, orders, seat)}
    lit = sorted(reached)
    out = {b.id: f"no line of non-enemy hexes to {SUPPLY_HEX[seat]}, or the pool cannot "
                 "pay a step there (8.4)"
           for b in st.on_map(seat)
           if b.id not in reached and b.strength < orders.oob[b.id].max_strength}
    pool = st.night_points.get(seat, 0)
    note = f"by night the pool of {pool} SP may supply "
    note += _names(game, lit) if lit else "no block"
    note += f" (8.4, supply hex {SUPPLY_HEX[seat]})"
    return {"lit": lit, "out": out, "note": note, "warn": None, "warn_for": []}
