"""Why a seat's block can do nothing at a hex now, in words with the rule that forbids it
(issue 57: a click on a hex that cannot be entered says why).

The question is put to the rules themselves: the action the phase would give the block
there (a move along the straight line of hexes, an activation, a fire, a melee) is checked
as if it had been sent, and its refusal is the answer. Nothing changes, and the answer is
cleaned of every hidden enemy block's id and name, so it tells the seat no more than its
view does.
"""

from __future__ import annotations

import re

from gettysburg.boc.oob import HQ_TYPES
from gettysburg.core.canonical import JSONDict
from gettysburg.core.hexes import line
from gettysburg.core.protocol import Game, RuleError

HIDDEN = "a hidden block"


def _attempt(game: Game, seat: str, unit: str, place: str) -> JSONDict | None:
    """The action the phase would give ``unit`` at ``place``, or None when it has none."""
    st = game.state  # type: ignore[attr-defined]
    board = game.board  # type: ignore[attr-defined]
    u = st.units[unit]
    printed = game.orders.oob[unit]  # type: ignore[attr-defined]
    hq = printed.type in HQ_TYPES
    if st.phase == "command" and hq:
        return {"type": "activate", "hq": unit, "to": place}
    if st.phase == "supply" and hq:
        return {"type": "supply_activate", "hq": unit, "to": place}
    if u.hex is None or u.status != "on_map":
        if st.phase == "movement" and u.arrival_entry:
            return {"type": "enter", "unit": unit, "entry": u.arrival_entry, "path": [place]}
        return None
    path = [board.hexes[h].id for h in line(board.parse(u.hex), board.parse(place))
            if h in board.hexes]
    if st.phase == "movement":
        return {"type": "move", "unit": unit, "path": path}
    if st.phase == "fire":
        return {"type": "fire", "unit": unit, "target": place,
                "through": path[1] if len(path) > 1 else place}
    if st.phase == "melee":
        return {"type": "melee", "unit": unit, "target": place}
    return None


def _clean(game: Game, seat: str, text: str) -> str:
    """``text`` without the id or printed name of any enemy block the seat cannot see."""
    st = game.state  # type: ignore[attr-defined]
    oob = game.orders.oob  # type: ignore[attr-defined]
    for uid, u in st.units.items():
        if u.side == seat or u.revealed:
            continue
        for word in (uid, oob[uid].name, *oob[uid].aliases):
            if word and word in text:
                text = re.sub(rf"(?<![\w.'-]){re.escape(word)}(?![\w'-])", HIDDEN, text)
    return text


def explain(game: Game, seat: str, unit: str, place: str) -> JSONDict | None:
    """``{"rule", "message"}``: why ``seat``'s ``unit`` has no action at hex ``place`` now;
    None when the question does not apply (not the seat's block, no such hex) or the rules
    find nothing against it."""
    st = game.state  # type: ignore[attr-defined]
    board = game.board  # type: ignore[attr-defined]
    u = st.units.get(unit)
    if u is None or u.side != seat:
        return None
    try:
        board.parse(place)
    except ValueError:  # not a hex of this map
        return None
    name = game.orders.oob[unit].name  # type: ignore[attr-defined]
    if seat not in game.to_move():
        return {"rule": "1.2", "message": "it is not your decision now"}
    attempt = _attempt(game, seat, unit, place)
    if attempt is None:
        return {"rule": "1.2", "message": f"{name} has nothing to do in the {st.phase} phase"}
    try:
        game.validate(attempt, seat)
    except (LookupError, ValueError):  # a hex the straight way cannot be drawn through
        return None
    except RuleError as exc:
        # The straight way is one way; its refusal is a true reason no way is open.
        return {"rule": exc.rule, "message": _clean(game, seat, f"{name}: {exc.message}")}
    return None


def preview(game: Game, seat: str, unit: str) -> JSONDict | None:
    """What selecting the seat's block ``unit`` would set going now: in the command phase,
    what activating the HQ where it stands would command (4.3, 4.5); in a day supply phase,
    which blocks the HQ would supply (8.1-8.3); by night, which blocks the side's pool can
    reach (8.4). ``{"lit": [blocks], "out": {block: why not}, "note": words, "warn": words
    when it would command or supply nobody, "warn_for": the actions the warning is for}``;
    None when there is nothing to preview (not the seat's decision, not an HQ that may act)."""
    from gettysburg.boc.command import can_command, command_range, commanded_units

    st = game.state  # type: ignore[attr-defined]
    orders = game.orders  # type: ignore[attr-defined]
    board = game.board  # type: ignore[attr-defined]
    u = st.units.get(unit)
    if u is None or u.side != seat or u.status != "on_map" or seat not in game.to_move():
        return None
    if st.phase == "supply":
        from gettysburg.boc.supply_preview import night_preview, supply_preview

        return night_preview(game, seat) if st.night else supply_preview(game, seat, unit)
    if st.phase != "command" or game.activation_problem(u) is not None:  # type: ignore[attr-defined]
        return None
    hq = orders.oob[unit]
    lit = commanded_units(board, st, orders, unit)
    reach = command_range(board, st, orders, unit)
    out = {b.id: f"out of {hq.name}'s command range of {hq.command_range or 0} (4.5)"
           for b in st.on_map(seat) if b.id not in lit and b.hex not in reach
           and can_command(orders, hq, orders.oob[b.id])}
    names = ", ".join(orders.oob[b].name for b in lit)
    note = f"{hq.name} would command {names} (4.3)" if lit else \
        f"{hq.name} would command no block where it stands (4.3)"
    if out:
        note += "; out of range: " + ", ".join(orders.oob[b].name for b in sorted(out)) + " (4.5)"
    warn = None if lit else (f"activating {hq.name} here commands no block: it would only "
                             "pay the activation's cost (4.3)")
    # The warning is for the activation where it stands (one with a step may reach others).
    return {"lit": lit, "out": out, "note": note, "warn": warn,
            "warn_for": [{"type": "activate", "hq": unit}]}
