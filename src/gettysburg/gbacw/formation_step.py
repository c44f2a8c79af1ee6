"""Formations in the engine (issue 52): extended lines (002 §8.4), extended columns (§8.5),
refused flanks (§7.3), one facing a hex (§7.11, §8.26) and road rates on Advance (§8.13).

The rules themselves are pure functions in :mod:`extension`, :mod:`facing` and
:mod:`stacking`; here the game's side: the actions (``extend``, ``retract``, ``refuse``,
``unrefuse``), the moves of an extended line, the trail of a column, and the hooks the
engine layers call. How a formation is kept (``UnitState``):

* an extended line: ``extension == "line"``, ``extends`` the hex ids of its flank parts
  (the counter's own hex is ``hex``); every part shares the unit's vertex facing;
* an extended column: ``extension == "column"``, ``extends`` its trail, the hex next to
  the lead first;
* a refused flank: ``refused`` holds ``"left"`` and/or ``"right"`` (both only for a line).

The whole unit is one state, so one disorder disorders every part (§8.45) by construction.
Changing formation spends MP (``formation_mp``) out of the MA the unit's move then has; it
does not use up the unit's move.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable
from dataclasses import replace
from typing import Any, Protocol, cast

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError, Seat
from gettysburg.gbacw.catalog import Catalog
from gettysburg.gbacw.extension import (
    ExtendedLine,
    about_face,
    check_column_fire,
    check_extend,
    check_half_adjacent,
    column_as_line,
    column_aspect,
    column_extensions,
    column_ma_penalty,
    line_as_column,
    line_extensions_allowed,
    line_moves,
    split_strength,
)
from gettysburg.gbacw.facing import (
    JOIN_REFUSED_COST,
    REFUSE_COST,
    Aspect,
    Facing,
    RefuseSide,
    aspect_of,
    check_refuse,
    flank_direction,
    front_hexes,
    turn,
    unrefuse_cost,
    vertex_steps,
)
from gettysburg.gbacw.kinds import unit_class
from gettysburg.gbacw.movement import Check, Step, approach_ban, entry_cost
from gettysburg.gbacw.oob import Counter
from gettysburg.gbacw.paths import Reach
from gettysburg.gbacw.stacking import (
    StackEntry,
    check_reorder,
    check_road_stacking,
    entry_positions,
    reverse_stack,
)
from gettysburg.gbacw.state import Position

KINDS = ("extend", "retract", "refuse", "unrefuse", "restack", "move_stack", "form")
SIDES: tuple[RefuseSide, RefuseSide] = ("left", "right")


class FormationGame(Protocol):
    """What this module asks of the game (:class:`gettysburg.gbacw.game.GbacwGame`)."""

    pos: Position
    cat: Catalog

    def counter(self, key: str) -> Counter: ...

    def hex_of(self, hex_id: str | None) -> Hex | None: ...

    def orders_of(self, key: str) -> str: ...

    def formation(self, key: str) -> str: ...

    def stack_entry(self, key: str) -> StackEntry: ...

    def mp_of(self, key: str) -> int: ...

    def active_units(self) -> list[str]: ...

    def in_activation(self, key: str) -> bool: ...

    def may_move(self, brigade: str) -> bool: ...

    def moves_allowed(self, key: str) -> int: ...

    def reach(self, key: str) -> dict[tuple[Hex, Facing], Reach]: ...


def _class(c: Counter) -> str:
    return unit_class(c)


def present(game: FormationGame, key: str) -> StackEntry:
    """The unit's stacking entry at its present strength (SP lost taken off, 002 §12.13;
    ``stack_entry`` already gives it)."""
    return game.stack_entry(key)


# --- where the parts are ------------------------------------------------------------------


def _sides(h: Hex, f: Facing, ext: Iterable[Hex]) -> list[RefuseSide]:
    parts = set(ext)
    return [s for s in SIDES if h.neighbour(flank_direction(f, s)) in parts]


def line_of(game: FormationGame, key: str) -> ExtendedLine | None:
    """The unit's extended line (002 §8.44), or None."""
    u = game.pos.units[key]
    h = game.hex_of(u.hex)
    if u.extension != "line" or h is None or u.facing is None or u.facing.kind != "vertex":
        return None
    sides = _sides(h, u.facing, (game.cat.board.parse(x) for x in u.extends))
    return ExtendedLine.extend(h, u.facing, sides) if sides else None


def parts(game: FormationGame, key: str) -> list[Hex]:
    """Every hex the unit holds: its counter's, then its extensions (002 §8.44, §8.5)."""
    u = game.pos.units[key]
    h = game.hex_of(u.hex)
    if h is None:
        return []
    return [h, *(game.cat.board.parse(x) for x in u.extends)]


def _memo(game: FormationGame) -> dict[Any, Any]:
    """The game's answers for the position as it stands (emptied after every action)."""
    memo = getattr(game, "_memo", None)
    return memo if isinstance(memo, dict) else {}


def extension_hexes(game: FormationGame, seat: Seat | None = None) -> dict[Hex, str]:
    """Hexes held by an extension (not a counter) -> the unit, of ``seat`` or of both
    (002 §8.44, §8.5)."""
    memo = _memo(game)
    mk = ("formation.extension_hexes", seat)
    if mk in memo:
        return dict(memo[mk])
    out: dict[Hex, str] = {}
    for k, u in sorted(game.pos.units.items()):
        if u.extends and u.hex is not None and (seat is None or u.seat == seat):
            for x in u.extends:
                out[game.cat.board.parse(x)] = k
    memo[mk] = dict(out)
    return out


def units_at(game: FormationGame, h: Hex) -> list[str]:
    """Units with a part in ``h``: counters there, then extensions (for fire and shock;
    002 §8.45, §8.46)."""
    here = [k for k, u in sorted(game.pos.units.items()) if game.hex_of(u.hex) == h]
    ext = extension_hexes(game)
    return here + ([ext[h]] if h in ext and ext[h] not in here else [])


def part_strengths(game: FormationGame, key: str) -> dict[Hex, int]:
    """SP in each hex of an extended unit, the counter's hex first with the odd SP (002
    §8.44, §8.5): 9 SP over two hexes 5/4, 17 over three 6/6/5."""
    hexes = parts(game, key)
    sp = present(game, key).sp
    if len(hexes) <= 1:
        return {h: sp for h in hexes}
    base, extra = divmod(sp, len(hexes))
    return {h: base + (1 if i < extra else 0) for i, h in enumerate(hexes)}


def signature(game: FormationGame, key: str) -> tuple[Any, ...]:
    """What a unit's reach depends on beyond the engine's own signature: its MP already
    spent on formation changes, every unit's extensions, and every unit's SP lost (stacking
    counts present SP, 002 §8.12, §12.13) (cache key part)."""
    u = game.pos.units[key]
    return (u.formation_mp, u.extension, tuple(u.refused),
            tuple((k, tuple(v.extends)) for k, v in sorted(game.pos.units.items())
                  if v.extends),
            tuple((k, v.lost) for k, v in sorted(game.pos.units.items()) if v.lost))


def enemy_parts(game: FormationGame, seat: Seat) -> set[Hex]:
    """Hexes the enemy holds with an extension: they count as enemy-held for movement
    (002 §8.44, §8.5)."""
    return {h for h, k in extension_hexes(game).items() if game.pos.units[k].seat != seat}


# --- order in a stack (002 §8.23, §8.24, §7.21) -------------------------------------------


def stack_of(game: FormationGame, h: Hex) -> list[str]:
    """The units whose counter is in ``h``, top first (``UnitState.stack``, then id;
    002 §8.23)."""
    p = game.pos
    return sorted((k for k, u in p.units.items() if game.hex_of(u.hex) == h),
                  key=lambda k: (p.units[k].stack, k))


def _renumber(game: FormationGame, keys: list[str]) -> None:
    for i, k in enumerate(keys):
        game.pos.units[k].stack = i


def join_stack(game: FormationGame, key: str, prev: Hex | None) -> dict[str, Any] | None:
    """A unit that a retreat put in a friendly stack (002 §12.44): it takes the stack's
    facing when they differ (one facing a hex, §7.11; §8.47 names such a turn to stack with
    guns, so a retreat's kept facing, §7.25, yields to it) and its place in the stack as an
    entering unit (§8.23). The new facing's JSON, or None when it kept its own."""
    u = game.pos.units[key]
    mates = [v.facing for k, v in sorted(game.pos.units.items())
             if k != key and v.seat == u.seat and v.hex == u.hex and v.hex is not None
             and v.facing is not None and u.facing is not None
             and v.facing.kind == u.facing.kind]
    turned = None
    if mates and u.facing != mates[0]:
        u.facing = mates[0]
        turned = mates[0].to_json()
    if mates:
        place_entering(game, key, prev)
    return turned


def place_entering(game: FormationGame, key: str, prev: Hex | None) -> None:
    """002 §8.23: a unit ending its move on friends goes on top when it came in through
    the stack's front hexside, below them through a flank or rear one (among artillery
    the first place §8.23 allows: the player's choice there is not offered)."""
    p = game.pos
    u = p.units[key]
    to = game.hex_of(u.hex)
    if to is None:
        return
    others = [k for k in stack_of(game, to) if k != key and p.units[k].seat == u.seat]
    if not others:
        u.stack = 0
        return
    f = p.units[others[0]].facing
    aspect = "rear" if prev is None or f is None or prev.distance(to) != 1 \
        else aspect_of(to, f, prev)
    at = entry_positions([present(game, k) for k in others], present(game, key), aspect)[0]
    _renumber(game, [*others[:at], key, *others[at:]])


def restack_problem(game: FormationGame, key: str) -> RuleError | None:
    """002 §8.24: instead of moving, a unit goes to the top of its stack; not in an
    enemy unit's front hex."""
    p = game.pos
    u = p.units[key]
    here = game.hex_of(u.hex)
    if here is None:
        return RuleError("8.24", f"{key} is not on the map")
    own = [k for k in stack_of(game, here) if p.units[k].seat == u.seat]
    if len(own) < 2 or own[0] == key:
        return RuleError("8.24", f"{key} is not under another unit")
    if u.moved or u.mp_spent or u.fired:
        return RuleError("8.24", f"{key} has moved or fired: it reorders instead of moving")
    fronts = {h for k, v in p.units.items() if v.seat != u.seat and v.facing is not None
              and (e := game.hex_of(v.hex)) is not None for h in front_hexes(e, v.facing)}
    try:
        check_reorder(in_enemy_front=here in fronts)
    except RuleError as exc:
        return exc
    return None


def reverse_on_about_face(game: FormationGame, key: str, old: Facing | None) -> None:
    """002 §7.21: a 180-degree turn in a stack reverses the order of its non-artillery
    units (artillery keeps its places)."""
    u = game.pos.units[key]
    here = game.hex_of(u.hex)
    if here is None or old is None or u.facing is None or old.kind != u.facing.kind \
            or vertex_steps(old, u.facing) != 3:
        return
    keys = [k for k in stack_of(game, here) if game.pos.units[k].seat == u.seat]
    if len(keys) < 2:
        return
    names = {present(game, k).unit: k for k in keys}
    turned = reverse_stack([present(game, k) for k in keys])
    _renumber(game, [names[e.unit] for e in turned])


# --- stacks moving together (002 §8.21 exception 1, §8.25) -------------------------------


def stack_movers(game: FormationGame, key: str) -> list[str]:
    """The units that move with ``key`` as one stack, top first (``key`` on top): units of
    the active brigade in its hex that may still move, on March or on Advance, the stack
    within March limits; none extended or refused; empty when fewer than two (002 §8.21
    exception 1, §8.25)."""
    p = game.pos
    u = p.units[key]
    here = game.hex_of(u.hex)
    if here is None or p.brigade is None:
        return []
    active = set(game.active_units())
    keys = [k for k in stack_of(game, here) if p.units[k].seat == u.seat]
    if len(keys) < 2 or keys[0] != key or any(
            k not in active or not game.in_activation(k) or p.units[k].extends
            or p.units[k].refused or "phasing" in p.units[k].fired
            or game.orders_of(k) not in ("march", "advance") for k in keys):
        return []
    try:
        check_road_stacking([present(game, k) for k in keys], "advance")
    except RuleError:
        return []
    return keys


def stack_destinations(game: FormationGame, key: str) -> list[tuple[Hex, Facing]]:
    """Where the whole stack may go: the (hex, facing) every one of its units reaches
    (002 §8.21 exception 1, §8.25)."""
    movers = stack_movers(game, key)
    if not movers:
        return []
    here = game.hex_of(game.pos.units[key].hex)
    common = set(game.reach(movers[0]))
    for k in movers[1:]:
        common &= set(game.reach(k))
    return sorted((x for x in common if x[0] != here),
                  key=lambda x: (x[0].q, x[0].r, x[1].kind, x[1].index))


def move_stack(game: FormationGame, action: Action) -> list[Event]:
    """Move the stack unit by unit along each one's own path to the same end (the rolls of
    each path are each unit's; one that cannot reach it any more stays; 002 §8.25)."""
    from gettysburg.gbacw import move_step, reaction_step  # the engine's move, as for `move`

    board = game.cat.board
    to, facing = board.parse(action["to"]), Facing.from_json(action["facing"])
    movers = stack_movers(game, action["unit"])
    ev: list[Event] = [Event("move_stack", "8.25", {"units": movers, "to": action["to"]})]
    for k in movers:
        found = game.reach(k).get((to, facing))
        if found is None:
            continue
        one = {"type": "move", "unit": k, "to": action["to"], "facing": action["facing"]}
        ev += move_step.execute(cast(Any, game), one, found)
        cast(Any, game)._memo.clear()
    return ev + reaction_step.after_move(cast(Any, game), action["unit"])


# --- the hooks of the engine's layers -----------------------------------------------------


def budget(game: FormationGame, key: str) -> int:
    """MP the unit's move still has: its MA less what formation changes took (§8.42)."""
    return max(0, game.mp_of(key) - game.pos.units[key].formation_mp)


def may_use_roads(game: FormationGame, key: str) -> bool:
    """002 §8.13: on Advance, road rates only for a stack within March stacking limits."""
    if game.orders_of(key) != "advance":
        return True
    u = game.pos.units[key]
    entries = []
    for k, v in sorted(game.pos.units.items()):
        if v.hex is not None and v.hex == u.hex and v.seat == u.seat:
            e = present(game, k)
            # a big unit alone forms a column: only its lead part stands here (§8.5)
            entries.append(replace(e, sp=split_strength(e.sp, 1 + column_extensions(e))[0]))
    try:
        check_road_stacking(entries, "advance")
    except RuleError:
        return False
    return True


def blocks_move(game: FormationGame, key: str) -> RuleError | None:
    """A refused unit leaves the refused state before moving or turning (002 §7.33); a
    column on Attack orders retracts or forms line before anything else (§8.53)."""
    u = game.pos.units[key]
    if u.refused:
        return RuleError("7.33", f"{key} refuses a flank: 'unrefuse' first (1 MP)")
    if u.extension == "column" and game.orders_of(key) == "attack":
        return RuleError("8.53", f"{key} is in column on Attack orders: 'retract' or 'form' "
                         "a line first")
    return None


def is_line(game: FormationGame, key: str) -> bool:
    """Whether the unit stands in an extended line (002 §8.44: it then moves as one)."""
    return line_of(game, key) is not None


def filter_reach(game: FormationGame, key: str,
                 found: dict[tuple[Hex, Facing], Reach]) -> dict[tuple[Hex, Facing], Reach]:
    """The engine's reach less what formations forbid: ending with a facing other than the
    friends' in the hex (002 §7.11), ending in a hex an extension holds (§8.44, §8.5), and
    for a unit that will trail a column, ending on or trailing over another unit (§8.5)."""
    u = game.pos.units[key]
    p = game.pos
    facings: dict[Hex, Facing] = {}
    occupied: set[Hex] = set()
    for k, v in p.units.items():
        h = game.hex_of(v.hex)
        if k == key or h is None:
            continue
        occupied.add(h)
        if v.seat == u.seat and v.facing is not None:
            facings.setdefault(h, v.facing)
    ext = extension_hexes(game)
    blocked = {h for h, k in ext.items() if k != key}
    lines_with_room = {h for h in blocked if p.units[ext[h]].extension == "line"}
    artillery = _class(game.counter(key)) == "artillery"
    here = game.hex_of(u.hex)
    occupied |= blocked
    refusing = {h for k, v in p.units.items() if k != key and v.seat == u.seat and v.refused
                and (h := game.hex_of(v.hex)) is not None}
    half = 2 * budget(game, key)
    orders, size = game.orders_of(key), column_size(game, key)
    # _trail's own tests that need no move: whether any move of the unit could trail
    may_trail = u.extension != "line" and size > 0 and orders in ("march", "advance")
    out: dict[tuple[Hex, Facing], Reach] = {}
    for (h, f), r in found.items():
        if h in facings and facings[h].kind == f.kind and facings[h] != f and h != here:
            continue  # 002 §7.11: one facing a hex (a turn in place turns the stack, §8.26)
        if h in blocked and not (artillery and h in lines_with_room):
            continue
        if h in refusing and h != here and r.half_mp + 2 * JOIN_REFUSED_COST > half:
            continue  # 002 §7.32: joining a refused stack costs 1 MP more
        trail = _trail(game, key, r, orders, size) if may_trail else []
        if trail and (h in occupied or any(t in occupied for t in trail)):
            continue  # 002 §8.5: no part of a column ends stacked
        if trail and orders == "advance" and not _keeps_up(game, key, r, trail, half):
            continue  # 002 §8.5: an Advance column's extensions have 1 and 2 MP less
        out[(h, f)] = r
    return out


def column_size(game: FormationGame, key: str) -> int:
    """Trailing hexes the unit needs in column now (002 §8.5)."""
    return column_extensions(present(game, key))


def _keeps_up(game: FormationGame, key: str, r: Reach, trail: list[Hex], half: int
              ) -> bool:
    """002 §8.5 under Advance orders: the k-th extension has k MP less than the unit's MA
    for the activation and follows the lead's route, from where it stands (a column formed
    by this move starts in the lead's first hex) to its place in ``trail``; whether every
    extension can pay its way (``half`` is the unit's budget in half MP)."""
    u = game.pos.units[key]
    here = game.hex_of(u.hex)
    if here is None:
        return True
    old = [game.cat.board.parse(x) for x in u.extends] if u.extension == "column" else []
    chain: list[Hex] = [*reversed(old), here]
    for h, _ in r.path:
        if h != chain[-1]:
            chain.append(h)
    cls = _class(game.counter(key))
    for k, end in enumerate(trail, start=1):
        start = old[k - 1] if k <= len(old) else here
        if start not in chain or end not in chain:
            continue
        spent = 0
        for i in range(chain.index(start), chain.index(end)):
            step = entry_cost(game.cat.board, chain[i], chain[i + 1],
                              unit_class=cls,  # type: ignore[arg-type]
                              orders="advance")
            if isinstance(step, RuleError):
                return False
            spent += step.half_mp
        if spent > half - 2 * column_ma_penalty(k, orders="advance"):
            return False
    return True


def column_trail(game: FormationGame, key: str, r: Reach) -> list[Hex]:
    """The hexes a column's extensions hold after the move ``r`` (002 §8.5, §8.51): they
    follow the lead along its path, the first in the hex it left last; a short move leaves
    the rear parts where the column stood. Empty for a unit that does not form column:
    March orders, or Advance by road alone (§8.13, §8.52)."""
    return _trail(game, key, r, game.orders_of(key), None)


def _trail(game: FormationGame, key: str, r: Reach, orders: str, size: int | None
           ) -> list[Hex]:
    """:func:`column_trail` with the unit's orders and column size given (``None``: read
    it), so a reach's many ends do not recompute them."""
    u = game.pos.units[key]
    if u.extension == "line":
        return []
    if not (orders == "march" or (orders == "advance" and r.road_only and len(r.path) > 1)):
        return []
    n = column_size(game, key) if size is None else size
    if n == 0:
        return []
    behind: list[Hex] = [h for h, _ in reversed(r.path)]
    here = game.hex_of(u.hex)
    if here is not None:
        behind += [here, *(game.cat.board.parse(x) for x in u.extends)]
    trail: list[Hex] = []
    for h in behind:
        if h != r.hex and h not in trail:
            trail.append(h)
    return trail[:n]


def follow(game: FormationGame, key: str, frm: Hex | None, old: Facing | None,
           r: Reach) -> list[Event]:
    """After the engine moved ``key`` (already in its new hex): its extensions follow.

    A line keeps its sides (002 §8.44); a column's trail follows the path (§8.5); a unit
    on Advance leaving the road drops its column (§8.52, retracted on the way). A friend
    ending its move in a refused flank hex ends that refusal (§7.32)."""
    p = game.pos
    u = p.units[key]
    board = game.cat.board
    u.formation_mp = 0
    ev: list[Event] = []
    to = game.hex_of(u.hex)
    if to is None or u.facing is None:
        return ev
    if u.extension == "line" and frm is not None and old is not None:
        sides = _sides(frm, old, (board.parse(x) for x in u.extends))
        if sides and u.facing.kind == "vertex":
            line = ExtendedLine.extend(to, u.facing, sides)
            u.extends = [board.hexes[h].id for h in line.hexes if h != to]
    else:
        trail = column_trail(game, key, r)
        before = list(u.extends)
        u.extends = [board.hexes[h].id for h in trail]
        u.extension = "column" if trail else None
        if u.extends != before:
            ev.append(Event("column", "8.5", {"unit": key, "hex": u.hex,
                                              "extends": list(u.extends)}))
    path = [h for h, _ in r.path if h != to]
    place_entering(game, key, path[-1] if path else frm)
    joined = sorted({x for k, v in p.units.items() if k != key and v.seat == u.seat
                     and v.hex == u.hex for x in v.refused})
    if joined and frm != to:  # 002 §7.32, §8.26: 1 MP more, and it refuses with them
        u.mp_spent += JOIN_REFUSED_COST
        u.refused = joined
    if frm is not None and frm != to:
        _renumber(game, stack_of(game, frm))
    for k, v in sorted(p.units.items()):
        h = game.hex_of(v.hex)
        if k == key or v.seat != u.seat or not v.refused or h is None or v.facing is None:
            continue
        flanks = {_end_hex(game, k, s).neighbour(flank_direction(v.facing, cast(RefuseSide, s))): s
                  for s in v.refused}
        if to in flanks:
            v.refused = [s for s in v.refused if s != flanks[to]]
            if not v.moved:  # 002 §7.32: a phasing unit yet to move has 1 MP less
                v.formation_mp += 1
            ev.append(Event("unrefuse", "7.32", {"unit": k, "hex": v.hex, "mp": 0,
                                                 "cause": key}))
    return ev


def own_turns(game: FormationGame, key: str) -> list[Facing] | None:
    """Facings a unit in a formation may turn to in place, or None for a plain unit: a
    refused unit none (002 §7.33), a column none (it retracts or forms line, §8.52), an
    extended line only its about face, for 1 MP (§8.44, §7.22)."""
    u = game.pos.units[key]
    if u.refused or u.extension == "column":
        return []
    line = line_of(game, key)
    if line is None:
        return None
    return [about_face(line).facing] if budget(game, key) >= 1 else []


def rally_turns(game: FormationGame, key: str) -> list[Facing]:
    """002 §7.25: the facings a unit rallying (§13.41) may take if it rallies: one vertex
    (or hexside) either way. Not for an extended or refused unit (a reading: a line turns in
    place only by its about face, §8.44; a refusal is left first, §7.33)."""
    u = game.pos.units[key]
    if u.facing is None or u.hex is None or u.extends or u.refused:
        return []
    return [turn(u.facing, -1), turn(u.facing, 1)]


def check_rally_turn(game: FormationGame, key: str, facing: Facing) -> None:
    """Refuse a rallying unit's turn other than one vertex (002 §7.25)."""
    if facing not in rally_turns(game, key):
        raise RuleError("7.25", f"{key} may turn one vertex on rallying, not to {facing}")


def rally_turn(game: FormationGame, key: str, facing: Facing) -> list[Event]:
    """A rallied unit turns one vertex, free (002 §7.25); the friends stacked with it turn
    with it (one facing a hex, §7.11, §8.26)."""
    u = game.pos.units[key]
    old = u.facing
    u.facing = facing
    mates = face_stack(game, key)
    return [Event("rally_turn", "7.25", {"unit": key, "hex": u.hex,
                                         "from": None if old is None else old.to_json(),
                                         "facing": facing.to_json(), "stack": mates})]


def face_stack(game: FormationGame, key: str) -> list[str]:
    """002 §7.11, §8.26: a turn in a stack turns every friendly unit there (those whose
    orders give them the same kind of facing); an extended line's about face keeps its
    hexes (left and right change places)."""
    p = game.pos
    u = p.units[key]
    turned: list[str] = []
    mates = [v.facing for k, v in sorted(p.units.items())
             if k != key and v.seat == u.seat and v.hex == u.hex and v.hex is not None]
    reverse_on_about_face(game, key, mates[0] if mates else None)
    for k, v in sorted(p.units.items()):
        if k != key and v.seat == u.seat and v.hex == u.hex and v.hex is not None \
                and v.facing != u.facing and v.facing is not None \
                and u.facing is not None and v.facing.kind == u.facing.kind:
            v.facing = u.facing
            turned.append(k)
    return turned


def on_orders(game: FormationGame, brigade: str) -> list[Event]:
    """A change of orders (002 §7.26, §8.53, §7.32): March ends lines and refusals (the
    line gathers in its counter's hex); under Attack a column that may form line stays a
    column until it acts (its first action is ``retract`` or a free ``form``, §8.53), any
    other gathers in its lead hex; under Advance a column may form line free before it
    spends MP (``UnitState.form_free``, §7.26). Free (§7.23)."""
    ev: list[Event] = []
    orders = game.pos.brigades[brigade].orders
    for k, u in sorted(game.pos.units.items()):
        if game.formation(k) != brigade or u.hex is None:
            continue
        u.form_free = False
        if orders == "march" and u.refused:
            u.refused = []
        if orders == "advance" and u.extension == "column":
            u.form_free = True  # 002 §7.26: free till it spends MP (the options read it)
            u.form_free = bool(_form_options(game, k))  # kept where a line may form
            continue
        if orders == "attack" and u.extension == "column" and _form_options(game, k):
            continue  # 002 §8.53: the unit chooses when it acts
        if orders == "march" and u.extension == "line" and _line_to_column(game, k):
            ev.append(Event("form", "7.26", {"unit": k, "hex": u.hex, "as": "column",
                                             "facing": u.facing.to_json() if u.facing
                                             else None, "extends": list(u.extends), "mp": 0}))
            continue
        if (orders == "march" and u.extension == "line") or (
                orders == "attack" and u.extension == "column"):
            ev.append(Event("retract", "7.26" if orders == "march" else "8.53",
                            {"unit": k, "to": u.hex, "mp": 0, "from": list(u.extends)}))
            u.extension, u.extends = None, []
    return ev


def _line_to_column(game: FormationGame, key: str) -> bool:
    """002 §7.26: on a change to March a line whose unit trails as many hexes in column
    becomes that column, free, where it stands: a two-hex line's counter leads, facing the
    hexside away from its extension; a three-hex line's counter goes to its right end
    (the end whose hexside is nearest the facing the change gave, §7.23), facing away
    from the rest. Not when another unit shares a part's hex (a column part ends alone,
    §8.5). Whether it did; a line that does not gathers."""
    u = game.pos.units[key]
    here = game.hex_of(u.hex)
    if here is None or not 1 <= len(u.extends) <= 2 \
            or column_size(game, key) != len(u.extends):
        return False
    hexes = parts(game, key)
    if any(k != key for h in hexes for k in units_at(game, h)):
        return False
    if len(hexes) == 2:
        lead, rest = here, hexes[1:]
    else:
        line = sorted(hexes, key=lambda h: h.distance(here))  # the counter, then the ends
        ends = line[1:]
        assert u.facing is not None  # side v after the change: right is v - 1
        right = here.neighbour((u.facing.index - 1) % 6)
        lead = right if right in ends else ends[0]
        rest = [here, next(h for h in ends if h != lead)]
    d = next(i for i in range(6) if lead.neighbour(i) == rest[0])
    u.hex = game.cat.board.hexes[lead].id
    u.extends = [game.cat.board.hexes[h].id for h in rest]
    u.facing = Facing("side", (d + 3) % 6)
    u.extension = "column"
    return True


def tidy(game: FormationGame, *, end_of_brigade: bool) -> list[Event]:
    """Formations that no longer stand: a unit off the map loses them; a lone refusing
    unit under 2 SP drops the marker at once (§7.32); at the end of a brigade's
    activation an extension its SP no longer allow goes, the counter staying put (§8.42,
    §8.43, §8.5)."""
    p = game.pos
    ev: list[Event] = []
    for k, u in sorted(p.units.items()):
        if u.hex is None:
            u.extension, u.extends, u.refused = None, [], []
            continue
        sp = present(game, k).sp
        alone = sum(1 for v in p.units.values() if v.hex == u.hex and v.seat == u.seat) == 1
        if u.refused and alone and not u.extends and sp < 2:
            u.refused = []
            ev.append(Event("unrefuse", "7.32", {"unit": k, "hex": u.hex, "mp": 0}))
        if end_of_brigade and u.form_free and game.formation(k) in game.pos.done_brigades:
            u.form_free = False  # 002 §7.26: the chance went with the activation
        if not end_of_brigade or not u.extends:
            continue
        if u.extension == "column" and game.orders_of(k) == "attack" \
                and game.formation(k) in game.pos.done_brigades:
            # 002 §8.53: a column on Attack that acted without retracting or forming gathers
            ev.append(Event("retract", "8.53", {"unit": k, "to": u.hex, "mp": 0,
                                                "from": list(u.extends)}))
            u.extension, u.extends = None, []
            continue
        room = (line_extensions_allowed(present(game, k)) if u.extension == "line"
                else column_size(game, k))
        if len(u.extends) > room:
            # a column sheds its tail; a line its left part first (the owner's choice, §8.43)
            dropped = (u.extends[room:] if u.extension == "column"
                       else u.extends[:len(u.extends) - room])
            u.extends = [x for x in u.extends if x not in dropped]
            if not u.extends:
                u.extension = None
            ev.append(Event("retract", "8.42", {"unit": k, "to": u.hex, "mp": 0,
                                                "from": dropped}))
    return ev


def leave(game: FormationGame, key: str) -> list[str]:
    """Drop the unit's extensions and refusal without MP (a retreat or advance that cannot
    keep them, 002 §7.33, §8.47, §8.49); the hexes given up. For the results' code."""
    u = game.pos.units[key]
    gone = list(u.extends)
    u.extension, u.extends, u.refused = None, [], []
    return gone


def aspect(game: FormationGame, key: str, part: Hex, other: Hex) -> Aspect:
    """Whether the hex ``other``, next to ``part`` (one of ``key``'s hexes), is front,
    flank or rear of the unit for combat (fire's flank DRM, shock's position): for an
    extended column 002 §8.51's reading (``extension.column_aspect``: the front ahead of
    the lead, the rear behind the tail, every other hex a flank, its own parts not
    counting); for any other unit the facing's own (§7.12)."""
    u = game.pos.units[key]
    assert u.facing is not None
    if u.extension == "column" and u.extends:
        hexes = parts(game, key)
        if other not in hexes:
            return column_aspect([(h, u.facing) for h in hexes], other)
    return aspect_of(part, u.facing, other)


def column_fire_problem(game: FormationGame, key: str, *, prepared: bool
                        ) -> RuleError | None:
    """002 §8.52: a column fires from its lead hex only (its counter's; the lead part's SP,
    ``part_strengths``), never as prepared fire."""
    if game.pos.units[key].extension != "column":
        return None
    try:
        check_column_fire(0, prepared=prepared)
    except RuleError as exc:
        return exc
    return None


def disorder_spread(game: FormationGame, key: str) -> list[str]:
    """002 §8.45: when an extended unit is disordered, friendly artillery stacked in any
    of its hexes takes a UDD: the artillery units to roll for (the caller rolls)."""
    u = game.pos.units[key]
    hexes = set(parts(game, key))
    return [k for k, v in sorted(game.pos.units.items())
            if k != key and v.seat == u.seat and game.hex_of(v.hex) in hexes
            and _class(game.counter(k)) == "artillery"]


# --- the moves of an extended line (002 §8.44) ---------------------------------------------


def _end_hex(game: FormationGame, key: str, side: str) -> Hex:
    """The part of a unit at its ``side`` end (the counter's hex when not extended)."""
    line = line_of(game, key)
    here = game.hex_of(game.pos.units[key].hex)
    assert here is not None
    if line is None:
        return here
    return line.hexes[0] if side == "left" else line.hexes[-1]


def line_reach(game: FormationGame, key: str) -> dict[tuple[Hex, Facing], Reach]:
    """Where an extended line may end its move (002 §8.44): steps straight ahead or
    pivots on an end, each paying the dearest hex a part enters; no part enters an
    enemy's or a non-artillery friend's hex or a hex its orders forbid; the line stops
    when a part comes next to the enemy; with one part in contact the other comes next to
    enemy artillery only unless on Attack and in good order. Keyed by the counter's hex
    and the facing (the sides stay as they are, so that fixes every part)."""
    start = line_of(game, key)
    if start is None:
        return {}
    p = game.pos
    u = p.units[key]
    board = game.cat.board
    orders = game.orders_of(key)
    seat = u.seat
    cls = _class(game.counter(key))
    enemy = {h for v in p.units.values() if v.seat != seat
             and (h := game.hex_of(v.hex)) is not None} | enemy_parts(game, seat)
    enemy_art = {h for k, v in p.units.items() if v.seat != seat
                 and _class(game.counter(k)) == "artillery"
                 and (h := game.hex_of(v.hex)) is not None}
    blocked = set(enemy)
    for k, v in p.units.items():
        h = game.hex_of(v.hex)
        if k != key and v.seat == seat and h is not None:
            if _class(game.counter(k)) != "artillery":
                blocked.add(h)
            blocked.update(board.parse(x) for x in v.extends)
    limit = 2 * budget(game, key)
    best: dict[ExtendedLine, int] = {start: 0}
    info: dict[ExtendedLine, tuple[tuple[tuple[Hex, Facing], ...], bool, tuple[Check, ...]]] = {
        start: (((start.hexes[start.counter], start.facing),), False, ())}
    heap: list[tuple[int, int, ExtendedLine]] = [(0, 0, start)]
    tick = 0
    out: dict[tuple[Hex, Facing], Reach] = {}
    while heap:
        cost, _, line = heapq.heappop(heap)
        if cost > best.get(line, math.inf):
            continue
        path, disordered, checks = info[line]
        touching = any(n in enemy for h in line.hexes for n in h.neighbours())
        if line != start:
            out[(line.hexes[line.counter], line.facing)] = Reach(
                line.hexes[line.counter], line.facing, cost, path, checks, disordered,
                touching, False, False)
            if touching:
                continue  # 002 §9.53: a move ends on coming next to the enemy
        for new in line_moves(line):
            steps: list[Step] = []
            ok = True
            for a, b in zip(line.hexes, new.hexes, strict=True):
                if a == b:
                    continue
                frm = a if a.distance(b) == 1 else new.hexes[len(new.hexes) // 2]
                if b not in board.hexes or b in blocked:
                    ok = False
                    break
                step = entry_cost(board, frm, b, unit_class=cls,  # type: ignore[arg-type]
                                  orders=orders, use_paths=False)  # type: ignore[arg-type]
                if isinstance(step, RuleError) or approach_ban(
                        board, b, step, unit_class=cls,  # type: ignore[arg-type]
                        orders=orders, enemy=enemy,  # type: ignore[arg-type]
                        enemy_artillery=enemy_art) is not None:
                    ok = False
                    break
                steps.append(step)
            if not ok or not steps:
                continue
            try:
                check_half_adjacent(line, new, enemy=enemy, enemy_artillery=enemy_art,
                                    orders=orders, disordered=u.disordered or disordered)
            except RuleError:
                continue
            nc = cost + max(s.half_mp for s in steps)
            if nc > limit or nc >= best.get(new, math.inf):
                continue
            best[new] = nc
            # a D hex entered by any part disorders the whole line (§9.47, §8.45); the "d"
            # checks of the parts are not rolled (the roll walks the counter's path)
            d = disordered or any(s.disorder == "auto" for s in steps)
            info[new] = ((*path, (new.hexes[new.counter], new.facing)), d, checks)
            tick += 1
            heapq.heappush(heap, (nc, tick, new))
    return out


# --- the actions --------------------------------------------------------------------------


def _occupants(game: FormationGame, key: str) -> tuple[set[Hex], set[Hex], set[Hex]]:
    """(hexes with a non-artillery unit or any extension, enemy-held hexes, friend-held
    hexes), ``key``'s own parts left out."""
    memo = _memo(game)
    mk = ("formation.occupants", key)
    if mk in memo:
        a, b, c = memo[mk]
        return set(a), set(b), set(c)
    p = game.pos
    seat = p.units[key].seat
    non_art: set[Hex] = set()
    enemy: set[Hex] = set(enemy_parts(game, seat))
    friends: set[Hex] = set()
    for k, v in p.units.items():
        h = game.hex_of(v.hex)
        if k == key or h is None:
            continue
        holds = {h, *(game.cat.board.parse(x) for x in v.extends)}
        (friends if v.seat == seat else enemy).update(holds)
        if _class(game.counter(k)) != "artillery":
            non_art.add(h)
        non_art.update(holds - {h})
    memo[mk] = (frozenset(non_art), frozenset(enemy), frozenset(friends))
    return non_art, enemy, friends


def _mp(step: Step | RuleError) -> int | None:
    return None if isinstance(step, RuleError) else math.ceil(step.half_mp / 2)


def extend_cost(game: FormationGame, key: str, sides: list[str]) -> int:
    """002 §8.41-§8.43: check an extension of ``key`` to ``sides`` and give its MP."""
    p = game.pos
    u = p.units[key]
    here = game.hex_of(u.hex)
    if here is None or u.facing is None:
        raise RuleError("8.41", f"{key} is not on the map")
    if game.orders_of(key) not in ("advance", "attack") or u.facing.kind != "vertex":
        raise RuleError("8.41", "only a unit on Advance or Attack orders (facing a vertex) "
                        "extends its line")
    if u.extension == "column":
        raise RuleError("8.52", f"{key} is in column: retract first")
    if u.refused:
        raise RuleError("7.33", f"{key} refuses a flank: 'unrefuse' first")
    if any(s not in SIDES for s in sides):
        raise RuleError("8.41", "sides are 'left' and/or 'right'")
    line = line_of(game, key)
    have = _sides(here, u.facing, (game.cat.board.parse(x) for x in u.extends)) if line else []
    if set(sides) & set(have):
        raise RuleError("8.41", f"{key} already extends to its {'/'.join(have)}")
    non_art, enemy, _ = _occupants(game, key)
    stacked = any(v.hex == u.hex and k != key and v.seat == u.seat
                  and _class(game.counter(k)) != "artillery" for k, v in p.units.items())
    costs: list[int] = []
    for s in sides:
        target = here.neighbour(flank_direction(u.facing, cast(RefuseSide, s)))
        if target not in game.cat.board.hexes:
            raise RuleError("8.41", f"the {s} flank hex is off the map")
        c = _mp(entry_cost(game.cat.board, here, target,
                           unit_class=_class(game.counter(key)),  # type: ignore[arg-type]
                           orders=game.orders_of(key)))  # type: ignore[arg-type]
        if c is None:
            raise RuleError("8.42", f"{key} cannot enter its {s} flank hex")
        costs.append(c)
    cost = check_extend(present(game, key), here, u.facing, cast(list[RefuseSide], sides),
                        stacked_with_non_artillery=stacked,
                        occupied_by_non_artillery=non_art, enemy=enemy, costs=costs,
                        existing=len(have))
    if u.formation_mp + cost > game.mp_of(key):
        raise RuleError("8.42", f"{key} has {budget(game, key)} MP left; extending costs {cost}")
    return cost


def retract_cost(game: FormationGame, key: str, to: Hex) -> int:
    """002 §8.42, §8.52: gather an extended unit into one of its hexes; the MP are those
    of entering it (off the road for a column), the dearest part paying; a column of three
    gathering into an end hex also pays its far part's step into the middle one (§8.52:
    the second extension's retraction is paid unless the unit gathers in its centre)."""
    u = game.pos.units[key]
    hexes = parts(game, key)
    if not u.extends:
        raise RuleError("8.42", f"{key} is not extended")
    if to not in hexes:
        raise RuleError("8.42", f"{to} is not one of {key}'s hexes")
    if u.extension == "line" and len(hexes) == 3 and to != hexes[0]:
        raise RuleError("8.43", "a line extended both ways gathers in its counter's hex")
    cost = 0
    for h in hexes:
        if h != to and h.distance(to) == 1:
            c = _mp(entry_cost(game.cat.board, h, to,
                               unit_class=_class(game.counter(key)),  # type: ignore[arg-type]
                               orders=game.orders_of(key), use_paths=False))  # type: ignore[arg-type]
            if c is None:
                raise RuleError("8.42", f"{key} cannot gather into {to}")
            cost = max(cost, c)
    middle = hexes[1] if len(hexes) == 3 else None
    if u.extension == "column" and middle is not None and to != middle:
        far = next(h for h in hexes if h not in (to, middle))
        if far.distance(to) != 1:  # the far part comes two hexes: its first step too
            c = _mp(entry_cost(game.cat.board, far, middle,
                               unit_class=_class(game.counter(key)),  # type: ignore[arg-type]
                               orders=game.orders_of(key), use_paths=False))  # type: ignore[arg-type]
            if c is None:
                raise RuleError("8.52", f"{key}'s far part cannot gather through {middle}")
            cost += c
    if u.formation_mp + cost > game.mp_of(key):
        raise RuleError("8.42", f"{key} has {budget(game, key)} MP left; retracting costs "
                        f"{cost}")
    return cost


def refuse_problem(game: FormationGame, key: str, side: str) -> RuleError | None:
    """002 §7.31-§7.32 (and §8.44 for lines) for the unit's stack refusing ``side``."""
    p = game.pos
    u = p.units[key]
    here = game.hex_of(u.hex)
    if here is None or u.facing is None:
        return RuleError("7.32", f"{key} is not on the map")
    if side not in SIDES:
        return RuleError("7.32", "side is 'left' or 'right'")
    if u.formation_mp + REFUSE_COST > game.mp_of(key):
        return RuleError("7.32", f"{key} has no MP left to refuse")
    _, enemy, friends = _occupants(game, key)
    stack = [k for k, v in p.units.items() if v.hex == u.hex and v.seat == u.seat]
    line = line_of(game, key)
    try:
        check_refuse(_end_hex(game, key, side), u.facing, side,
                     orders=game.orders_of(key), friendly=friends - set(parts(game, key)),
                     enemy=enemy, units_in_hex=len(stack),
                     hex_sp=sum(present(game, k).sp for k in stack),
                     already_refused=set(u.refused), extended_line=line is not None,
                     extended_column=u.extension == "column")
        if line is not None:  # each part apart for the enemy ban (§7.32)
            for h in line.hexes:
                if any(n in enemy for n in h.neighbours()):
                    raise RuleError("7.32", "a part of the line is next to the enemy")
    except RuleError as exc:
        return exc
    return None


def form_cost(game: FormationGame, key: str, facing: Facing) -> int:
    """002 §8.44, §8.52, §7.26: an extended line on Advance, not next to the enemy, turns
    into a column (each part behind the one before: a three-hex line's counter leaves the
    middle for the end that leads), or a column on Advance or Attack into a line (a
    three-hex column lying straight, its counter going to the middle; a road's bend makes
    it ineligible); 1 MP when the facing turns two vertices or more, none for the line a
    change to Attack (§8.53) or to Advance (§7.26, ``UnitState.form_free``) calls for.
    Returns the MP (:func:`formed` gives the new hexes)."""
    formed(game, key, facing)
    u = game.pos.units[key]
    assert u.facing is not None
    cost = 1 if vertex_steps(u.facing, facing) >= 2 else 0
    if u.extension == "column" and game.orders_of(key) == "attack":
        cost = 0  # 002 §8.53 with §7.26: the line the change to Attack calls for is free
    if u.extension == "column" and u.form_free and u.mp_spent == 0:
        cost = 0  # 002 §7.26: the line a change to Advance allows, before it moves
    if u.formation_mp + cost > game.mp_of(key):
        raise RuleError("8.52", f"{key} has no MP left to change its formation")
    return cost


def formed(game: FormationGame, key: str, facing: Facing) -> tuple[Hex, list[Hex]]:
    """The counter's hex and the extensions (a line's left to right, a column's from the
    lead back) after ``key`` forms line or column facing ``facing`` (002 §8.44, §8.52,
    §7.26), or the RuleError why it may not. Changes nothing."""
    p = game.pos
    u = p.units[key]
    here = game.hex_of(u.hex)
    if here is None or u.facing is None or u.extension not in ("line", "column") \
            or len(u.extends) not in (1, 2):
        raise RuleError("8.52", f"{key} is not an extended line or column")
    if facing.kind != "vertex" or u.facing.kind != "vertex":
        raise RuleError("8.52", "lines and columns change shape facing a vertex (not on March)")
    hexes = parts(game, key)
    if any(k != key for h in hexes for k in units_at(game, h)):
        raise RuleError("8.5", "a unit sharing a hex with another cannot change its shape")
    _, enemy, _ = _occupants(game, key)
    if u.extension == "line":
        if game.orders_of(key) != "advance":
            raise RuleError("8.44", "only a line on Advance orders forms a column")
        if any(n in enemy for h in hexes for n in h.neighbours()):
            raise RuleError("8.44", "a line next to the enemy cannot form a column")
        line = line_of(game, key)
        if line is None:
            raise RuleError("8.44", f"{key}'s line is not whole")
        column = line_as_column(line, facing)
        if len(column) - 1 > column_size(game, key):
            raise RuleError("8.5", f"{key} is too weak for a column of {len(column)} hexes")
        return column[0], list(column[1:])
    if game.orders_of(key) not in ("advance", "attack"):
        raise RuleError("7.26", "a column forms line on Advance or Attack orders")
    if line_extensions_allowed(present(game, key)) < len(u.extends):
        raise RuleError("8.41", f"{key}: only infantry of 8 SP or more forms a line (15 SP "
                        "or more for both flanks)")
    new = column_as_line(hexes, facing)
    centre = new.hexes[new.counter]
    ext = [h for h in new.hexes if h != centre]
    if any(n in enemy for h in ext for n in h.neighbours()):
        raise RuleError("8.41", "an extension's hex is next to the enemy")
    return centre, ext


def _form_options(game: FormationGame, key: str) -> list[Action]:
    u = game.pos.units[key]
    if len(u.extends) not in (1, 2) or u.facing is None or u.facing.kind != "vertex":
        return []
    out: list[Action] = []
    for v in range(6):
        try:
            form_cost(game, key, Facing.vertex(v))
        except RuleError:
            continue
        out.append({"type": "form", "unit": key, "facing": Facing.vertex(v).to_json()})
    return out


def options(game: FormationGame, key: str) -> list[Action]:
    """The formation actions of an active unit that may spend MP (listed with its moves;
    002 §7.3, §8.24, §8.25, §8.4, §8.5)."""
    u = game.pos.units[key]
    if u.hex is None:
        return []
    out: list[Action] = []
    if u.refused:
        if u.formation_mp + unrefuse_cost() <= game.mp_of(key):
            out.append({"type": "unrefuse", "unit": key})
        return out
    for sides in (["left"], ["right"], ["left", "right"]):
        try:
            extend_cost(game, key, sides)
        except RuleError:
            continue
        out.append({"type": "extend", "unit": key, "sides": sides})
    for h in parts(game, key) if u.extends else []:
        try:
            retract_cost(game, key, h)
        except RuleError:
            continue
        out.append({"type": "retract", "unit": key, "to": game.cat.board.hexes[h].id})
    out += [{"type": "refuse", "unit": key, "side": s} for s in SIDES
            if refuse_problem(game, key, s) is None]
    if restack_problem(game, key) is None:
        out.append({"type": "restack", "unit": key})
    out += _form_options(game, key)
    out += [{"type": "move_stack", "unit": key, "to": game.cat.board.hexes[h].id,
             "facing": f.to_json()} for h, f in stack_destinations(game, key)]
    return out


def check(game: FormationGame, action: Action, seat: Seat) -> int:
    """Check a formation action; its MP (002 §7.3, §8.24, §8.25, §8.4, §8.5)."""
    p = game.pos
    key = action["unit"]
    if key not in p.units or p.units[key].seat != seat:
        raise RuleError("5.3", f"{key!r} is not one of your units")
    if not game.in_activation(key):  # the active brigade or its group (§5.34)
        raise RuleError("5.3", f"{key} is not of the active brigade")
    if key not in game.active_units():
        raise RuleError("5.3", f"{key} has used its move this activation")
    if not game.may_move(game.formation(key)):
        raise RuleError("6.23", f"{game.formation(key)} may spend no MP this activation")
    kind = action["type"]
    if kind == "extend":
        return extend_cost(game, key, list(action["sides"]))
    if kind == "retract":
        return retract_cost(game, key, game.cat.board.parse(action["to"]))
    if kind == "move_stack":
        if not stack_movers(game, key):
            raise RuleError("8.25", f"{key} does not top a stack that may move as one (March, "
                            "or Advance within March limits, every unit free to move)")
        end = (game.cat.board.parse(action["to"]), Facing.from_json(action["facing"]))
        if end not in stack_destinations(game, key):
            raise RuleError("9.1", f"the stack of {key} cannot all reach {action['to']} "
                            f"facing {end[1]}")
        return 0
    if kind == "form":
        return form_cost(game, key, Facing.from_json(action["facing"]))
    if kind == "restack":
        problem = restack_problem(game, key)
        if problem is not None:
            raise problem
        return 0
    if kind == "refuse":
        if p.units[key].refused and action["side"] in p.units[key].refused:
            raise RuleError("7.32", f"the {action['side']} flank is already refused")
        problem = refuse_problem(game, key, action["side"])
        if problem is not None:
            raise problem
        return REFUSE_COST
    if not p.units[key].refused:
        raise RuleError("7.33", f"{key} refuses no flank")
    if p.units[key].formation_mp + unrefuse_cost() > game.mp_of(key):
        raise RuleError("7.33", f"{key} has no MP left to leave the refused state")
    return unrefuse_cost()


def execute(game: FormationGame, action: Action, mp: int) -> list[Event]:
    """Carry out a checked formation action (002 §7.3, §8.24, §8.4, §8.5)."""
    p = game.pos
    key = action["unit"]
    u = p.units[key]
    board = game.cat.board
    u.formation_mp += mp
    u.mp_spent += mp
    kind = action["type"]
    if kind == "extend":
        here = game.hex_of(u.hex)
        assert here is not None and u.facing is not None
        old = line_of(game, key)
        have = _sides(here, u.facing, old.hexes) if old else []
        line = ExtendedLine.extend(here, u.facing, sorted({*have, *action["sides"]}))
        u.extension = "line"
        u.extends = [board.hexes[h].id for h in line.hexes if h != here]
        return [Event("extend", "8.41", {"unit": key, "hex": u.hex, "sides": action["sides"],
                                         "extends": list(u.extends), "mp": mp})]
    if kind == "retract":
        frm = list(u.extends)
        u.hex = action["to"]
        u.extension, u.extends = None, []
        return [Event("retract", "8.42", {"unit": key, "to": u.hex, "from": frm, "mp": mp})]
    if kind == "move_stack":
        return move_stack(game, action)
    if kind == "form":  # line <-> column (002 §8.44, §8.52, §7.26)
        facing = Facing.from_json(action["facing"])
        centre, ext = formed(game, key, facing)
        u.hex, u.extends = board.hexes[centre].id, [board.hexes[h].id for h in ext]
        u.facing, u.form_free = facing, False
        u.extension = "column" if u.extension == "line" else "line"
        return [Event("form", "8.52", {"unit": key, "hex": u.hex, "as": u.extension,
                                       "facing": u.facing.to_json(),
                                       "extends": list(u.extends), "mp": mp})]
    if kind == "restack":  # instead of moving (002 §8.24)
        here = game.hex_of(u.hex)
        assert here is not None
        _renumber(game, [key, *(k for k in stack_of(game, here) if k != key)])
        u.moves = max(u.moves, game.moves_allowed(key))
        return [Event("restack", "8.24", {"unit": key, "hex": u.hex,
                                          "stack": stack_of(game, here)})]
    stack = sorted(k for k, v in p.units.items() if v.hex == u.hex and v.seat == u.seat)
    if kind == "refuse":
        for k in stack:  # 002 §8.26: the whole stack refuses
            v = p.units[k]
            v.refused = sorted({*v.refused, action["side"]})
        return [Event("refuse", "7.32", {"unit": key, "hex": u.hex, "side": action["side"],
                                         "stack": stack, "mp": mp})]
    for k in stack:
        p.units[k].refused = []
    return [Event("unrefuse", "7.33", {"unit": key, "hex": u.hex, "stack": stack, "mp": mp})]


def view_fields(game: FormationGame, key: str) -> dict[str, Any]:
    """The formation markers of a unit on the map, as every seat sees them (002 §8.4,
    §8.5, §7.3, §8.23: markers and stack order are on the map)."""
    u = game.pos.units[key]
    out: dict[str, Any] = {}
    if u.extension is not None and u.hex is not None:
        out["extension"] = u.extension
        out["extends"] = list(u.extends)
    if u.refused and u.hex is not None:
        out["refused"] = list(u.refused)
    here = game.hex_of(u.hex)
    if here is not None:
        keys = _stacks(game).get(here, [])
        if len(keys) > 1:
            out["stack"] = keys.index(key)  # 0 on top (002 §8.23)
    return out


def _stacks(game: FormationGame) -> dict[Hex, list[str]]:
    """Every hex -> :func:`stack_of` there, built once per position for the views (one scan
    per unit made a view quadratic); read only where nothing moves meanwhile."""
    memo = _memo(game)
    found = memo.get("formation.stacks")
    if isinstance(found, dict):
        return found
    p = game.pos
    out: dict[Hex, list[str]] = {}
    for k, u in p.units.items():
        h = game.hex_of(u.hex)
        if h is not None:
            out.setdefault(h, []).append(k)
    for keys in out.values():
        keys.sort(key=lambda k: (p.units[k].stack, k))
    memo["formation.stacks"] = out
    return out
