"""A GBACW move carried out (002 §9): the disorder checks met on the way are rolled as the
unit goes, and a failure can cut the move short.

The legal move is a :class:`paths.Reach` (its path of (hex, facing) states and the checks
met on it). :func:`execute` walks its checks in path order:

- a "d" hex (002 §9.47) calls for a UDD on entering it, with no DRM (§12.33); a failure
  disorders the unit;
- leaving a friendly hex passed through (002 §8.22) calls for a UDD with the friend hex's
  entry cost as DRM (when 2 or more); a failure disorders the unit; a second disorder sends
  it back to the hex it entered the friends from, facing unchanged, its activation over;
- a "D" (002 §9.47) disorders without a roll.

A unit that comes to be disordered on the way goes on with its disordered MA less what it
has spent (§12.33; artillery keeps its MA, §12.31) and may not go on next to an enemy
(§12.34): it stops at the furthest state of its path it can still pay for and end in
(a reading: the player chose the path before the roll; the engine does not let him choose
another). A disordered unit failing a terrain check suffers a second disorder (§12.33 reads
like §12.32, so §12.35-12.36 apply: SP loss, rout; a retreat it calls for is listed on the
event, not carried out here). Every UDD adds half the brigade's fatigue (§17.31); leaders'
stars do not count (§12.33: no DRM).

Seam for withdrawal fire (002 §10.44, g3_fire): :func:`fronts_left` names the enemy units
whose front hex the mover started in and left; :func:`execute` returns after the move's
own events, and the caller (game.py) then offers reactions.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Protocol

from gettysburg.core.dice import Dice
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, Seat, dice_event

from . import artillery_near, charge_step, entry_step
from .catalog import Catalog
from .combatant import Combatant, disorder
from .facing import Facing, front_hexes
from .fatigue import broken_wheels, level
from .movement import Check
from .oob import Counter
from .paths import Reach
from .state import Position, marker_parts
from .udd import udd


class MoveGame(Protocol):
    """What a move's execution asks of the game (:class:`game.GbacwGame`)."""

    pos: Position
    cat: Catalog
    dice: Dice
    fatigue: bool

    def counter(self, key: str) -> Counter: ...

    def hex_of(self, hex_id: str | None) -> Hex | None: ...

    def enemy_hexes(self, seat: Seat) -> set[Hex]: ...

    def formation(self, key: str) -> str: ...

    def mp_of(self, key: str) -> int: ...

    def moves_allowed(self, key: str) -> int: ...

    def reach(self, key: str) -> dict[tuple[Hex, Facing], Reach]: ...

    def _move(self, action: Action, reach: Reach) -> list[Event]: ...


@dataclass(frozen=True, slots=True)
class Plan:
    """Where a move ends after its rolls: the kept part of the path (``reach``), whether the
    unit ends disordered, the SP it lost, whether it routed, and whether its activation is
    over (a second disorder passing through friends, §8.22)."""

    reach: Reach
    disordered: bool
    sp_loss: int = 0
    rout: bool = False
    done: bool = False


def check_index(path: tuple[tuple[Hex, Facing], ...], c: Check) -> int:
    """The path state at which ``c`` is rolled: on entering its hex (§9.47), or on leaving
    the friends' hex, i.e. entering the next one (§8.22)."""
    hexes = [h for h, _ in path]
    if c.rule == "8.22":
        last = len(hexes) - 1 - hexes[::-1].index(c.hex)
        return min(last + 1, len(hexes) - 1)
    return hexes.index(c.hex)


def _fatigue_drm(game: MoveGame, key: str) -> int:
    if not game.fatigue:
        return 0
    b = game.pos.brigades.get(game.formation(key))
    n = (level(b.fatigue) or 0) if b is not None else 0
    return -(-n // 2)


def _combatant(game: MoveGame, key: str, h: Hex, f: Facing, disordered: bool) -> Combatant:
    """The mover as the disorder chart sees it, at a point of its path."""
    u, c = game.pos.units[key], game.counter(key)
    kind = ("artillery" if c.arm in ("art", "horse_art")
            else "mounted_cavalry" if c.arm == "cav" and c.mode == "mounted" else "infantry")
    return Combatant(key, u.seat, (h,), f, kind, max(0, c.sp - u.lost),  # type: ignore[arg-type]
                     c.cohesion_disordered if disordered else c.cohesion,
                     brigade=c.formation, disordered=disordered,
                     cohesion_disordered=c.cohesion_disordered)


def _prefix_costs(game: MoveGame, key: str, reach: Reach) -> dict[int, int]:
    """Half MP spent at each path state whose cost the engine knows: the states the unit
    could end in by that same path (the search's best way there is the path's prefix)."""
    found = game.reach(key)
    out = {len(reach.path) - 1: reach.half_mp}
    for i, st in enumerate(reach.path[:-1]):
        r = found.get(st)
        if r is not None and r.path == reach.path[: i + 1]:
            out[i] = r.half_mp
    return out


def _cut(game: MoveGame, key: str, reach: Reach, at: int, *, back: bool) -> Reach:
    """``reach`` ending at path state ``at`` (``back``: the state before it)."""
    end = at - 1 if back else at
    end = max(0, end)
    path = reach.path[: end + 1]
    h, f = path[-1]
    costs = _prefix_costs(game, key, reach)
    checks = tuple(c for c in reach.checks if check_index(reach.path, c) <= end)
    near = any(h.distance(e) == 1 for e in game.enemy_hexes(game.pos.units[key].seat))
    return replace(reach, hex=h, facing=f, path=path, checks=checks,
                   half_mp=costs.get(end, reach.half_mp if end == len(reach.path) - 1
                                     else max((v for i, v in costs.items() if i <= end),
                                              default=0)),
                   disordered=any(c.kind == "auto" for c in checks), stopped=near)


def plan(game: MoveGame, key: str, reach: Reach) -> tuple[Plan, list[Event]]:
    """Roll the checks of ``reach`` in path order and say where the move ends (see the
    module; 002 §9.47, §8.22, §12.33-12.34). The dice are rolled here; nothing of the
    position changes."""
    u = game.pos.units[key]
    c = game.counter(key)
    artillery = c.arm in ("art", "horse_art")
    seat = u.seat
    enemies = game.enemy_hexes(seat)
    start = reach.path[0][0]
    dis = u.disordered
    loss, rout = 0, False
    ev: list[Event] = []
    order = sorted(reach.checks, key=lambda x: check_index(reach.path, x))
    first = game.dice.counter
    end = len(reach.path) - 1
    for chk in order:
        at = check_index(reach.path, chk)
        if at > end:
            break
        h, f = reach.path[at]
        hid = game.cat.board.hexes[chk.hex].id
        if chk.kind == "auto":
            dis = True
            ev.append(Event("move_disorder", "9.47", {"unit": key, "hex": hid,
                                                      "check": None}))
            continue
        me = _combatant(game, key, h, f, dis)
        roll = udd(game.dice, unit=key, cohesion=me.cohesion,
                   drm=chk.drm + _fatigue_drm(game, key),
                   purpose="passing through friends" if chk.rule == "8.22" else "terrain",
                   rule=chk.rule)
        data: dict[str, Any] = {"unit": key, "hex": hid, "check": roll.to_json()}
        if roll.passed:
            ev.append(Event("move_check", chk.rule, data))
            continue
        was = dis
        dis = True
        if was:  # a second disorder (§12.33 with §12.35-12.36)
            d = disorder(game.dice, me, "terrain")
            data["disorder"] = d.to_json()
            loss += d.sp_loss
            rout = rout or d.rout
            ev.append(Event("move_check", chk.rule, data))
            if chk.rule == "8.22":  # back to the hex it entered the friends from
                back = [h for h, _ in reach.path].index(chk.hex)
                return (Plan(_cut(game, key, reach, back, back=True), True, loss, rout,
                             done=True), [dice_event(game.dice.rolls_since(first)), *ev])
            end = _endable(_prefix_costs(game, key, reach), at, len(reach.path) - 1)
            break
        ev.append(Event("move_check", chk.rule, data))
        if artillery:
            continue  # §12.31: disorder leaves artillery's MA alone
        # §12.33: the disordered MA from here on; §12.34: not next to the enemy, unless
        # the unit is charging: disordered on the way, it completes the charge (§11.52)
        cap = 2 * _disordered_mp(game, key)
        costs = _prefix_costs(game, key, reach)
        keep = at
        charging = u.charging
        for i in range(at + 1, end + 1):
            hi = reach.path[i][0]
            if not charging and hi != start and any(hi.distance(e) == 1 for e in enemies):
                break
            cost = costs.get(i)
            if cost is not None and cost <= cap:
                keep = i
            elif cost is not None:
                break
        end = _endable(_prefix_costs(game, key, reach), keep, len(reach.path) - 1)
    kept = reach if end == len(reach.path) - 1 else _cut(game, key, reach, end, back=False)
    rolls = game.dice.rolls_since(first)
    return (Plan(kept, dis or kept.disordered, loss, rout),
            ([dice_event(rolls)] if rolls else []) + ev)


def _endable(costs: dict[int, int], at: int, last: int) -> int:
    """The first path state from ``at`` on that the unit may end in (the states the engine
    knows a cost for are legal ends: stacking, a bridge); the last state at worst."""
    return next((i for i in range(at, last + 1) if i in costs), last)


def _disordered_mp(game: MoveGame, key: str) -> int:
    """The unit's MA on its disordered face (§12.33), through the game's own arithmetic."""
    u = game.pos.units[key]
    was = u.disordered
    u.disordered = True
    try:
        return game.mp_of(key)
    finally:
        u.disordered = was


def execute(game: MoveGame, action: Action, reach: Reach) -> list[Event]:
    """Carry out the checked move ``action`` along ``reach`` (002 §9, §9.47, §8.22,
    §12.33-12.34): roll its checks, move the unit as far as they let it, apply them."""
    key = str(action["unit"])
    start = game.hex_of(game.pos.units[key].hex)
    on = charge_step.will_move_on(game.pos, key)  # 002 §11.57 option 1
    done, ev = plan(game, key, reach)
    kept = done.reach
    moved = {**action, "to": game.cat.board.hexes[kept.hex].id}
    if game.pos.units[key].hex is None:
        entry_step.note_entry(game, key, kept)  # 002 §9.72: the queue at its entry hex
    out = game._move(moved, kept)
    u = game.pos.units[key]
    if done.disordered:
        u.disordered = True
    u.lost += done.sp_loss
    u.routed = u.routed or done.rout
    if done.done:
        u.moves = max(u.moves, game.moves_allowed(key))
    if kept is not reach:
        out.append(Event("move_cut", "9.47", {"unit": key, "planned": action["to"],
                                               "to": moved["to"]}))
    out += charge_step.note_move(game.pos, game.cat.board, key, kept.path, on=on)  # 11.54
    return out + ev + wheels(game, key) + artillery_near.close_check(game, key, start)


def wheels(game: MoveGame, key: str) -> list[Event]:
    """002 §17.26: a battery on March orders making its fourth move of a March AM (its
    fourth AM-equivalent) rolls for broken wheels: 6-9 costs it 1 SP. Part of the fatigue
    rules, so only when they are on."""
    p = game.pos
    u, c = p.units[key], game.counter(key)
    if not game.fatigue or c.arm not in ("art", "horse_art") or u.moves != 4:
        return []
    b = p.brigades.get(game.formation(key))
    if b is None or b.orders != "march" or p.current is None \
            or marker_parts(p.current)[1] is not None:
        return []
    first = game.dice.counter
    roll = game.dice.roll(f"broken wheels: {key}", rule="17.26", die="d10")
    broken = broken_wheels(roll)
    if broken:
        u.lost += 1
    return [dice_event(game.dice.rolls_since(first)),
            Event("broken_wheels", "17.26", {"unit": key, "roll": roll, "broken": broken})]


def fronts_left(game: MoveGame, key: str, start: Hex | None, end: Hex) -> list[str]:
    """Enemy units in whose front hex ``key`` started and is no longer (the trigger of
    withdrawal fire, 002 §10.44), sorted."""
    if start is None or start == end:
        return []
    seat = game.pos.units[key].seat
    out = []
    for k, v in sorted(game.pos.units.items()):
        h = game.hex_of(v.hex)
        if v.seat == seat or h is None or v.facing is None:
            continue
        fronts = front_hexes(h, v.facing)
        if start in fronts and end not in fronts:
            out.append(k)
    return out
