"""Reactions of the non-phasing side in the GBACW engine (002 §9.6, through :mod:`reaction`).

After a phasing ``move`` (or ``withdrawal_move``) ends next to non-phasing units, or within
three hexes of their mounted cavalry or artillery, and after a phasing shot from outside a
unit's front (:func:`after_fire`), ``Position.pending`` holds ``{"kind": "reaction", "seat":
the phasing seat, "trigger": the hex of the mover or the firer, "cause": "move" | "fire",
"units": [units that may turn or refuse], "movers": [units that may move]}`` and
``to_move`` names the defender, whose answers are:

- ``react`` {unit, facing}: the unit's whole stack turns one vertex (one facing a hex,
  §7.11); each infantry and cavalry unit of it then takes its own UDD, a failure disorders
  it (§9.62). Not when any unit of the stack may not turn (§9.62: refusing, an extended
  line, in another enemy's front, already reacted...).
- ``react_refuse`` {unit, side}: the stack refuses its left or right flank (§9.61 with
  §7.31-7.32, the enemy-adjacent ban lifted for a reaction), with the same UDDs (§9.62).
- ``react_move`` {unit, path}: mounted cavalry or artillery moves one or two hexes under
  the retreat rules (§9.63, :func:`reaction.reaction_moves`), then a UDD (cavalry adds its
  ground modifier); a failure disorders it, a second disorder costs 1 SP or gun. A refused
  flank ends at no cost (§7.33). Artillery moves so once per enemy brigade activation and
  not after approach fire.
- ``no_reaction``: the phasing player goes on.

Each unit reacts (turn or refusal) once per enemy brigade activation (``Position.reacted``,
cleared when a brigade activates; an artillery reaction move is noted there as
``"moved:<unit>"``); a unit that answered a trigger is not asked again about it.

Readings: the engine moves a unit in one action, so a reaction move answers the mover's end
hex (the rule has it announced before the mover enters a hex in range, and the mover must
still enter that hex: here it is already there); a reaction to fire comes after the shot
and its answer are resolved (return fire is declared before the roll in this engine,
§10.42). Artillery that turned fires its first non-phasing shot at -2 and not rapidly:
:func:`artillery_fire_drm` says so for the fire code to add.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError, dice_event

from .combatant import check, disorder
from .facing import Facing, check_refuse, flank_direction, front_hexes
from .kinds import unit_class
from .reaction import (
    ActivationLog,
    EnemyUnit,
    Reactor,
    check_facing,
    check_move,
    facing_needs_udd,
    fired_from_outside_front,
    move_trigger,
    reaction_moves,
)
from .reaction import (
    artillery_fire_drm as _artillery_fire_drm,
)
from .shock_action import combatant_of

if TYPE_CHECKING:
    from .charts.terrain import UnitClass
    from .charts.turns import Light
    from .engine_view import GameView as GbacwGame

SIDES = ("left", "right")
ANSWERS = ("react", "react_refuse", "react_move", "no_reaction")
NON_PHASING_FIRE = ("return", "pre_shock", "withdrawal", "approach")


def _class(game: GbacwGame, key: str) -> UnitClass:
    return unit_class(game.counter(key))


def _ext(u: Any) -> str | None:
    return getattr(u, "extension", None)


def _reactor(game: GbacwGame, key: str) -> Reactor | None:
    u = game.pos.units[key]
    h = game.hex_of(u.hex)
    if h is None or u.facing is None:
        return None
    orders = game.orders_of(key)
    return Reactor(key, h, u.facing, _class(game, key),
                   orders if orders in ("march", "advance", "attack")  # type: ignore[arg-type]
                   else "advance", extended_line=_ext(u) == "line",
                   extended_column=_ext(u) == "column",
                   refused=bool(getattr(u, "refused", [])))


def _enemies(game: GbacwGame, seat: str) -> list[EnemyUnit]:
    out: list[EnemyUnit] = []
    for u in game.pos.units.values():
        h = game.hex_of(u.hex)
        if u.seat != seat and h is not None and u.facing is not None:
            out.append((h, u.facing))
    return out


def _log(game: GbacwGame) -> ActivationLog:
    done = game.pos.reacted
    log = ActivationLog(faced={x for x in done if not x.startswith(("moved:", "hit:"))},
                        moved={x[len("moved:"):] for x in done if x.startswith("moved:")})
    for k, u in game.pos.units.items():
        if "approach" in u.fired:
            log.approach_fired.add(k)
        if any(kind in u.fired for kind in NON_PHASING_FIRE):
            log.fired_after_facing.add(k)
    return log


def stack_of(game: GbacwGame, key: str) -> list[str]:
    """``key`` and the friendly units sharing its hex, sorted: the stack that reacts as one
    (002 §9.62)."""
    u = game.pos.units[key]
    return sorted(k for k, v in game.pos.units.items() if v.hex == u.hex and v.seat == u.seat)


def _parts(game: GbacwGame, key: str) -> list[Hex]:
    u = game.pos.units[key]
    hexes = [u.hex, *getattr(u, "extends", [])]
    return [h for x in hexes if (h := game.hex_of(x)) is not None]


def _may_react(game: GbacwGame, key: str, trigger: Hex, kind: str,
               new_facing: Facing | None = None, *, stack_ok: bool = True) -> bool:
    me = _reactor(game, key)
    if me is None:
        return False
    enemies = _enemies(game, game.pos.units[key].seat)
    try:
        for h in _parts(game, key):  # each part of a line on its own (§9.62)
            check_facing(Reactor(me.unit, h, me.facing, me.unit_class, me.orders,
                                 me.extended_line, me.extended_column, me.refused),
                         kind, _log(game), enemies=enemies, trigger=trigger,  # type: ignore[arg-type]
                         new_facing=new_facing, stack_may_turn=stack_ok)
    except RuleError:
        return False
    return True


def turns(game: GbacwGame, key: str, trigger: Hex) -> list[Facing]:
    """The one-vertex turns ``key``'s stack may make in reaction to ``trigger`` (002 §9.62:
    every unit of the stack must be able to turn)."""
    me = _reactor(game, key)
    if me is None or me.facing.kind != "vertex":
        return []
    stack = stack_of(game, key)
    out = []
    for d in (-1, 1):
        f = Facing("vertex", (me.facing.index + d) % 6)
        if all(_may_react(game, k, trigger, "face", f) for k in stack):
            out.append(f)
    return out


def _end_hex(game: GbacwGame, key: str, side: str) -> Hex:
    """The hex at the ``side`` end of the unit (its only hex, or a line's end part)."""
    u = game.pos.units[key]
    parts = _parts(game, key)
    assert u.facing is not None
    for h in parts:
        if h.neighbour(flank_direction(u.facing, side)) not in parts:  # type: ignore[arg-type]
            return h
    return parts[0]


def refusals(game: GbacwGame, key: str, trigger: Hex) -> list[str]:
    """The flanks ``key``'s stack may refuse in reaction (002 §9.61: eligible under
    §7.31-7.32, the ban next to the enemy lifted, and allowed a reaction at all)."""
    u = game.pos.units[key]
    me = _reactor(game, key)
    if me is None or me.facing.kind != "vertex":
        return []
    stack = stack_of(game, key)
    if not all(_may_react(game, k, trigger, "refuse") for k in stack):
        return []
    seat = u.seat
    enemy = {h for k, v in game.pos.units.items() if v.seat != seat
             and (h := game.hex_of(v.hex)) is not None}
    friendly = {h for k, v in game.pos.units.items() if v.seat == seat and k not in stack
                and (h := game.hex_of(v.hex)) is not None}
    out = []
    for side in SIDES:
        try:
            check_refuse(_end_hex(game, key, side), me.facing, side,  # type: ignore[arg-type]
                         orders=me.orders, friendly=friendly - set(_parts(game, key)),
                         enemy=enemy, units_in_hex=len(stack),
                         hex_sp=sum(max(0, game.counter(k).sp - game.pos.units[k].lost)
                                    for k in stack),
                         already_refused=set(getattr(u, "refused", [])),
                         extended_line=me.extended_line,
                         extended_column=me.extended_column, reaction=True)
        except RuleError:
            continue
        out.append(side)
    return out


def moves(game: GbacwGame, key: str, trigger: Hex) -> list[tuple[Hex, ...]]:
    """The reaction moves ``key`` may make now (002 §9.63), as hex paths."""
    me = _reactor(game, key)
    if me is None or me.unit_class not in ("mounted_cavalry", "artillery"):
        return []
    seat = game.pos.units[key].seat
    enemies = _enemies(game, seat)
    light: Light = game._light()  # type: ignore[assignment]
    if not move_trigger(me, trigger, light=light):
        return []
    try:
        check_move(me, _log(game), enemies=enemies, trigger=trigger)
    except RuleError:
        return []
    enemy = {h for h, _ in enemies}
    fronts = {x for h, f in enemies for x in front_hexes(h, f)}
    friends = game.friends_of(key)

    def seen(h: Hex) -> bool:
        return any(h.distance(e) <= 4 and game._sight(e, h)
                   for e in enemy)

    found = reaction_moves(game.cat.board, me, enemy=enemy, enemy_fronts=fronts,
                           causing=(trigger,),
                           friendly_ok=lambda h: h not in friends or friends[h].can_stack,
                           seen_by_enemy=seen,
                           # hurt by the mover's side's fire: one hex only (fire_action.mark_hurt)
                           one_hex_only=f"hit:{key}" in game.pos.reacted,
                           sp=max(0, game.counter(key).sp - game.pos.units[key].lost))
    return [m.hexes for m in found]


def _ask(game: GbacwGame, seat: str, trigger: Hex, cause: str, units: list[str],
         movers: list[str]) -> list[Event]:
    if not units and not movers:
        return []
    hid = game.cat.board.hexes[trigger].id
    game.pos.pending = {"kind": "reaction", "seat": seat, "trigger": hid, "cause": cause,
                        "units": units, "movers": movers}
    return [Event("reaction_possible", "9.61" if units else "9.63",
                  {"trigger": hid, "cause": cause, "units": units, "movers": movers})]


def after_move(game: GbacwGame, key: str) -> list[Event]:
    """Ask the defender about reactions when ``key``'s move ended next to its units (facing
    and refusal, 002 §9.61) or within three hexes of its mounted cavalry or artillery
    (reaction moves, §9.63)."""
    p = game.pos
    here = game.hex_of(p.units[key].hex)
    if here is None or p.pending is not None:
        return []
    seat = p.units[key].seat
    units, movers = [], []
    for k, u in sorted(p.units.items()):
        h = game.hex_of(u.hex)
        if u.seat == seat or h is None:
            continue
        if h.distance(here) == 1 and (turns(game, k, here) or refusals(game, k, here)):
            units.append(k)
        if h.distance(here) <= 3 and moves(game, k, here):
            movers.append(k)
    return _ask(game, seat, here, "move", units, movers)


def after_fire(game: GbacwGame, events: list[Event]) -> list[Event]:
    """Ask the defender about reaction facing or refusal after a phasing shot from outside
    its target units' front (002 §9.61), unless the shot makes them retreat (or rout)."""
    p = game.pos
    if p.pending is not None or p.brigade is None:
        return []
    shots = [e for e in events if e.type == "fire"]
    if not shots:
        return []
    shot = shots[-1]
    firer = str(shot.data.get("unit", ""))
    if firer not in p.units:
        return []
    seat = p.units[firer].seat
    if p.brigades[game.formation(firer)].seat != seat or not game.in_activation(firer):
        return []  # not the phasing side's shot
    origin = game.hex_of(p.units[firer].hex)
    target = game.hex_of(str(shot.data.get("target", "")))
    if origin is None or target is None:
        return []
    after = events[events.index(shot):]
    leaving = {str(e.data.get("unit")) for e in after
               if e.type in ("fire_retreat", "fire_rout", "retreat", "routed", "eliminated")}
    units = []
    for k, u in sorted(p.units.items()):
        me = _reactor(game, k)
        if u.seat == seat or me is None or me.hex != target or k in leaving:
            continue
        if not fired_from_outside_front(me, origin, must_retreat=False):
            continue
        if turns(game, k, origin) or refusals(game, k, origin):
            units.append(k)
    return _ask(game, seat, origin, "fire", units, [])


def options(game: GbacwGame) -> list[Action]:
    """The defender's answers to the pending reaction trigger (002 §9.61-9.63)."""
    pend = game.pos.pending
    assert pend is not None
    trigger = game.hex_of(str(pend["trigger"]))
    assert trigger is not None
    out: list[Action] = []
    for k in pend.get("units", []):
        out += [{"type": "react", "unit": k, "facing": f.to_json()}
                for f in turns(game, k, trigger)]
        out += [{"type": "react_refuse", "unit": k, "side": s}
                for s in refusals(game, k, trigger)]
    for k in pend.get("movers", []):
        out += [{"type": "react_move", "unit": k,
                 "path": [game.cat.board.hexes[h].id for h in m]}
                for m in moves(game, k, trigger)]
    return [*out, {"type": "no_reaction"}]


def check_answer(game: GbacwGame, action: Action, seat: str) -> None:
    """Refuse an answer the pending reaction does not allow (002 §9.61-9.63)."""
    p = game.pos.pending
    if p is None or p.get("kind") != "reaction":
        raise RuleError("9.61", "no enemy move or fire waits for a reaction")
    if seat == p["seat"]:
        raise RuleError("9.61", "the defender decides on reactions now")
    if action["type"] != "no_reaction" and action not in options(game):
        kind = action["type"]
        raise RuleError(
            "9.63" if kind == "react_move" else "9.62",
            f"{action.get('unit')} may not {kind.replace('_', ' ')} so now "
            "(one vertex or a refusal once per enemy activation, the whole stack able, not "
            "on March, not in another enemy's front; a reaction move for mounted cavalry or "
            "artillery only, 1-2 hexes away under the retreat rules)")


def _checks(game: GbacwGame, keys: list[str], why: str) -> list[Event]:
    """The §9.62 UDDs of a stack that turned or refused: each infantry and cavalry unit
    rolls its own; a failure disorders it."""
    p = game.pos
    first = game.dice.counter
    data: list[dict[str, object]] = []
    for k in keys:
        reactor = _reactor(game, k)
        if reactor is None or not facing_needs_udd(reactor):
            continue
        me = combatant_of(game, k)
        c = check(game.dice, me, why, "9.62")
        row: dict[str, object] = {"unit": k, "check": c.to_json()}
        if not c.passed:
            d = disorder(game.dice, me, "reaction-facing")
            row["disorder"] = d.to_json()
            u = p.units[k]
            u.disordered = True
            u.lost += d.sp_loss
            u.routed = u.routed or d.rout
        data.append(row)
    if not data:
        return []
    return [dice_event(game.dice.rolls_since(first)),
            Event("reaction_check", "9.62", {"checks": data,
                                             # the first unit's, as before stacks turned
                                             **{k: v for k, v in data[0].items()
                                                if k != "unit"}})]


def _react_move(game: GbacwGame, key: str, path: list[str]) -> list[Event]:
    p = game.pos
    u = p.units[key]
    me = _reactor(game, key)
    assert me is not None
    trigger = game.hex_of(str(p.pending["trigger"])) if p.pending else None
    found = [m for m in (moves(game, key, trigger) if trigger is not None else [])
             if [game.cat.board.hexes[h].id for h in m] == path]
    frm = u.hex
    end = game.hex_of(path[-1])
    assert end is not None and found
    drm = 0
    if me.unit_class == "mounted_cavalry":
        seat = u.seat
        enemy = {h for h, _ in _enemies(game, seat)}
        fronts = {x for h, f in _enemies(game, seat) for x in front_hexes(h, f)}
        friends = game.friends_of(key)
        drm = next((m.udd_drm for m in reaction_moves(
            game.cat.board, me, enemy=enemy, enemy_fronts=fronts, causing=(trigger,),  # type: ignore[arg-type]
            friendly_ok=lambda h: h not in friends or friends[h].can_stack,
            sp=max(0, game.counter(key).sp - u.lost))
            if [game.cat.board.hexes[h].id for h in m.hexes] == path), 0)
    combatant = combatant_of(game, key)
    for k, v in sorted(p.units.items()):  # one facing a hex (§7.11)
        if k != key and v.seat == u.seat and v.hex == path[-1] and v.facing is not None \
                and u.facing is not None and v.facing.kind == u.facing.kind:
            u.facing = v.facing
            break
    u.hex = path[-1]
    if getattr(u, "refused", None):
        u.refused = []  # §7.33: a reaction move ends it, free
    if me.unit_class == "artillery":
        p.reacted = [*p.reacted, f"moved:{key}"]
    first = game.dice.counter
    c = check(game.dice, combatant, "reaction move", "9.63", drm=drm)
    data: dict[str, object] = {"unit": key, "from": frm, "path": path, "to": u.hex,
                               "check": c.to_json()}
    if not c.passed:
        if u.disordered:
            u.lost += 1  # §9.63: a second disorder costs 1 SP or gun
            data["sp_loss"] = 1
        u.disordered = True
    return [Event("reaction_move", "9.63", data),
            dice_event(game.dice.rolls_since(first))]


def answer(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Carry out the defender's answer to a reaction trigger (002 §9.61-9.63)."""
    check_answer(game, action, seat)
    p = game.pos
    assert p.pending is not None
    if action["type"] == "no_reaction":
        p.pending = None
        return [Event("reaction_declined", "9.61", {})]
    key = str(action["unit"])
    u = p.units[key]
    ev: list[Event]
    if action["type"] == "react_move":
        ev = _react_move(game, key, [str(x) for x in action["path"]])
    else:
        stack = stack_of(game, key)
        if action["type"] == "react":
            f = Facing.from_json(action["facing"])
            for k in stack:
                p.units[k].facing = f
            ev = [Event("reaction_facing", "9.62", {"unit": key, "hex": u.hex,
                                                    "facing": f.to_json(), "stack": stack})]
        else:
            for k in stack:
                v = p.units[k]
                v.refused = sorted({*getattr(v, "refused", []), str(action["side"])})
            ev = [Event("reaction_refusal", "9.61", {"unit": key, "hex": u.hex,
                                                     "side": action["side"], "stack": stack})]
        p.reacted = [*p.reacted, *(k for k in stack if k not in p.reacted)]
        ev += _checks(game, stack, "reaction facing" if action["type"] == "react"
                      else "reaction refusal")
    trigger = game.hex_of(str(p.pending["trigger"]))
    answered = {key, *stack_of(game, key)}
    units = [k for k in p.pending.get("units", []) if k not in answered and trigger is not None
             and (turns(game, k, trigger) or refusals(game, k, trigger))]
    movers = [k for k in p.pending.get("movers", []) if k not in answered
              and trigger is not None and moves(game, k, trigger)]
    p.pending = {**p.pending, "units": units, "movers": movers} if units or movers else None
    return ev


def artillery_fire_drm(game: GbacwGame, key: str) -> int:
    """-2 on a battery's first non-phasing shot after its reaction turn in this enemy
    brigade activation, and no rapid fire for it (002 §9.62): for the fire code to add."""
    if _class(game, key) != "artillery":
        return 0
    return _artillery_fire_drm(key, _log(game))
