"""Artillery near the enemy (002 §9.55): the two optional, mutually exclusive rules, as game
options (``artillery_caution`` is Option 1, ``artillery_close`` Option 2). Without either,
artillery obeys §9.52 alone (it never moves next to an enemy).

Option 1 (:func:`filter_reach`): a battery may not come within three hexes (less than four)
of an enemy combat unit that has a line of sight to the hex entered (the battery's own
side never blocks that sight). A battery that starts within three hexes may enter or cross
hexes as close to the nearest enemy as its start or farther, whatever the sight, but it
fires in that activation only if it ends at four hexes or more from every enemy that sees
it (:func:`caution_may_fire`, for the fire code).

Option 2 (:func:`close_check`): unless stacked with or next to friendly infantry or
cavalry, a battery may not move within three hexes of enemy mounted cavalry (a filter, as
Option 1's). A battery ending its move within three hexes and sight of enemy units takes a
UDD, +1 for each such enemy unit (every extension a unit), +2 more if one is within two
hexes: a failure disorders it (a disordered battery loses one gun more), and a failure by
more than two loses half the margin in guns, rounded down (§9.55's example: cohesion 7,
a 10 loses one). A failure also sends it back (:func:`close_retreat`) to the nearest hex,
by hexes entered, that no enemy within three hexes sees: **reading** (§9.55 gives no length
nor route): under the retreat rules' limits (§12.44-12.45: no enemy hex or enemy front
hex, no hex of more than 2 MP, no friendly hex), at most :data:`RETREAT_MAX` hexes, the
first such path in hex order; its facing is kept. With no such hex within reach it stays
(the event says so). A battery that started within three hexes and sight is exempt when
it ends its move farther from the nearest enemy.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Event, RuleError, dice_event

from .facing import Facing, front_hexes
from .los import line_of_sight
from .movement import entry_cost
from .paths import Reach
from .udd import udd

CAUTION = "artillery_caution"  # 002 §9.55 Option 1
CLOSE = "artillery_close"  # 002 §9.55 Option 2
NEAR = 3  # "less than four hexes"
CLOSE_NEAR = 2  # Option 2's extra +2
RETREAT_MAX = 6  # the longest Option 2 retreat searched (hexes)


def check_options(options: Iterable[str]) -> None:
    """The two options of 002 §9.55 exclude each other."""
    if CAUTION in options and CLOSE in options:
        raise ValueError(f"gbacw options {CAUTION!r} and {CLOSE!r} exclude each other "
                         "(002 §9.55)")


def _artillery(game: Any, key: str) -> bool:
    return bool(game.counter(key).arm in ("art", "horse_art"))


def _enemies(game: Any, seat: str) -> list[tuple[str, Hex]]:
    return [(k, h) for k, u in sorted(game.pos.units.items())
            if u.seat != seat and (h := game.hex_of(u.hex)) is not None]


def _sees(game: Any, enemy_seat_hexes: Collection[Hex], e: Hex, h: Hex) -> bool:
    """Whether the enemy in ``e`` sees ``h``, only the enemy's own units blocking (§9.55:
    the battery's side does not block)."""
    return line_of_sight(game.cat.board, e, h, blockers=set(enemy_seat_hexes) - {e, h}).clear


def nearest(h: Hex, enemy: Iterable[Hex]) -> int:
    """The distance from ``h`` to the nearest enemy hex, for the two options' ranges (002 §9.55)."""
    return min((h.distance(e) for e in enemy), default=10**6)


def filter_reach(game: Any, key: str,
                 found: dict[tuple[Hex, Facing], Reach]) -> dict[tuple[Hex, Facing], Reach]:
    """Drop the moves §9.55's chosen option forbids a battery (the whole path is judged)."""
    options = game.setup.options
    if (CAUTION not in options and CLOSE not in options) or not _artillery(game, key):
        return found
    u = game.pos.units[key]
    enemies = _enemies(game, u.seat)
    hexes = [h for _, h in enemies]
    if not hexes:
        return found
    start = game.hex_of(u.hex)
    memo: dict[Hex, bool] = {}

    if CAUTION in options:
        d0 = nearest(start, hexes) if start is not None else 10**6

        def bad(h: Hex) -> bool:
            if start is not None and d0 <= NEAR:
                return nearest(h, hexes) < d0  # closer than it started (§9.55)
            return any(h.distance(e) <= NEAR and _sees(game, hexes, e, h) for e in hexes)
    else:
        friends = [x for k, v in game.pos.units.items() if k != key and v.seat == u.seat
                   and (x := game.hex_of(v.hex)) is not None
                   and not _artillery(game, k)]
        mounted = [h for k, h in enemies if game.counter(k).arm == "cav"
                   and game.counter(k).mode == "mounted"]

        def bad(h: Hex) -> bool:
            if any(f.distance(h) <= 1 for f in friends):
                return False
            return any(h.distance(e) <= NEAR for e in mounted)

    def allowed(r: Reach) -> bool:
        for h, _ in r.path:
            if h == start:
                continue
            if h not in memo:
                memo[h] = bad(h)
            if memo[h]:
                return False
        return True

    return {k: r for k, r in found.items() if allowed(r)}


def caution_may_fire(game: Any, key: str) -> bool:
    """Option 1: a battery that moved this activation fires only from four hexes or more
    from every enemy that sees it (002 §9.55)."""
    if CAUTION not in game.setup.options or not _artillery(game, key):
        return True
    u = game.pos.units[key]
    h = game.hex_of(u.hex)
    if h is None or not u.moved:
        return True
    hexes = [e for _, e in _enemies(game, u.seat)]
    return not any(h.distance(e) <= NEAR and _sees(game, hexes, e, h) for e in hexes)


def close_check(game: Any, key: str, start: Hex | None) -> list[Event]:
    """Option 2's UDD after a battery's move (002 §9.55), rolled and applied."""
    if CLOSE not in game.setup.options or not _artillery(game, key):
        return []
    u = game.pos.units[key]
    h = game.hex_of(u.hex)
    if h is None:
        return []
    enemies = _enemies(game, u.seat)
    hexes = [e for _, e in enemies]
    seen_by = [(k, e) for k, e in enemies
               if h.distance(e) <= NEAR and _sees(game, hexes, e, h)]
    if not seen_by:
        return []
    if start is not None and nearest(start, hexes) <= NEAR and \
            nearest(h, hexes) > nearest(start, hexes):
        return []  # it began close and drew back (§9.55)
    count = sum(1 + len(getattr(game.pos.units[k], "extends", []) or []) for k, _ in seen_by)
    drm = count + (2 if any(h.distance(e) <= CLOSE_NEAR for _, e in seen_by) else 0)
    c = game.counter(key)
    was = u.disordered
    cohesion = c.cohesion_disordered if was else c.cohesion
    first = game.dice.counter
    roll = udd(game.dice, unit=key, cohesion=cohesion, drm=drm,
               purpose="artillery near the enemy", rule="9.55")
    data: dict[str, object] = {"unit": key, "check": roll.to_json(), "enemies": count}
    if not roll.passed:
        margin = roll.modified - cohesion
        guns = (margin // 2 if margin > 2 else 0) + (1 if was else 0)
        u.disordered = True
        u.lost += guns
        path = close_retreat(game, key) if u.lost < c.sp else []
        board = game.cat.board
        data.update({"disordered": True, "guns_lost": guns,
                     "retreat": [board.hexes[x].id for x in path] if path is not None else None})
        if path:
            u.hex = board.hexes[path[-1]].id
            u.stack = 0  # alone there: the search never stops on friends
    return [dice_event(game.dice.rolls_since(first)), Event("artillery_near", "9.55", data)]


def close_retreat(game: Any, key: str) -> list[Hex] | None:
    """Option 2's retreat after a failed check (002 §9.55): the hexes to the nearest hex
    that no enemy within three hexes sees ([] when the battery already stands in one; None
    when none is within :data:`RETREAT_MAX` hexes)."""
    u = game.pos.units[key]
    start = game.hex_of(u.hex)
    if start is None:
        return None
    board = game.cat.board
    enemies = _enemies(game, u.seat)
    hexes = [e for _, e in enemies]
    fronts = {f for k, e in enemies if (fc := game.pos.units[k].facing) is not None
              for f in front_hexes(e, fc)}
    occupied = {h for v in game.pos.units.values() if (h := game.hex_of(v.hex)) is not None}
    orders = game.orders_of(key)

    def safe(h: Hex) -> bool:
        return not any(h.distance(e) <= NEAR and _sees(game, hexes, e, h) for e in hexes)

    if safe(start):
        return []
    frontier: list[list[Hex]] = [[start]]
    seen = {start}
    for _ in range(RETREAT_MAX):
        nxt: list[list[Hex]] = []
        for path in frontier:
            here = path[-1]
            for to in sorted(here.neighbours()):
                if to in seen or to not in board.hexes or to in occupied or to in fronts:
                    continue
                step = entry_cost(board, here, to, unit_class="artillery", orders=orders)
                if isinstance(step, RuleError) or not step.may_end or step.half_mp > 4:
                    continue  # §12.45: never into a hex of more than 2 MP
                seen.add(to)
                if safe(to):
                    return [*path[1:], to]
                nxt.append([*path, to])
        frontier = nxt
    return None
