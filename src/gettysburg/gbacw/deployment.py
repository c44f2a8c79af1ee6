"""The set-up placer: a scenario's set-up lines turned into counters on concrete hexes.

A line names what (formations less some units, units, leaders) and where (the book's
instruction: one hex, within N of a hex or of a wood's edge, along a road, or a list). The
placer resolves every name to exactly one OOB record, picks each unit's counters (all the
sections of a battery together, 002 §8.37; cavalry's mounted or dismounted twin), and fills
the area's hexes nearest first, one unit per hex unless the line says otherwise, within the
stacking limits of 002 §8.12 counted over everything the seat has already placed. It is
deterministic: the same file, OOB and board give the same hexes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gettysburg.core.hexes import Hex, disc, line

from .charts.datafile import DataError

if TYPE_CHECKING:
    from .board import Board
    from .oob import Counter, Oob, UnitRecord
    from .scenario import Force, Scenario, Seat, SetupLine, UnitRef, Where


@dataclass(frozen=True)
class Placement:
    """One counter (an OOB Counter.id; cavalry's mounted or dismounted twin) on a hex."""

    counter: str
    hex: str
    orders: str
    facing: int | None  # None: the owner's free choice (004 sc.1 note)
    extension: tuple[str, ...] = ()  # trailing hexes of an extended column (002 §8.5)
    line: str = ""  # the set-up line it comes from
    sp_lost: int = 0  # PL-n and named losses taken by this counter (digest §D.2)


@dataclass(frozen=True)
class LeaderPlacement:
    leader: str
    hex: str
    line: str = ""


class SetupError(DataError):
    """A set-up line that cannot be resolved or placed (names the file, line and field)."""

    def __init__(self, file: str, record: str, field: str, problem: str) -> None:
        super().__init__(file, record.removeprefix(f"{file}:"), field, problem)


@dataclass
class _Piece:
    """A unit as the placer moves it: all its counters go to one hex."""

    unit: UnitRecord
    counters: list[Counter]

    @property
    def klass(self) -> str:
        if self.unit.arm in ("art", "horse_art"):
            return "artillery"
        if self.unit.arm == "cav" and self.counters[0].mode == "mounted":
            return "cavalry"
        return "infantry"

    @property
    def sp(self) -> int:
        return sum(c.sp for c in self.counters)


# --- resolving names --------------------------------------------------------------------------
def resolve_units(force: Force, seat: Seat, oob: Oob, where: str) -> list[UnitRecord]:
    """The units a line or reinforcement brings, in OOB order; an error names the line.
    (004 sc.1-6)"""
    from .scenario import SIDE_OF_SEAT
    side = SIDE_OF_SEAT[seat]
    out: list[UnitRecord] = []
    for i, name in enumerate(force.formations):
        fid = _one(oob.resolve(name, side=side, kind="formation"), name, where,
                   f"formations[{i}]")
        out.extend(u for u in oob.units if fid in (
            u.formation.id, u.division.id if u.division else "", u.corps.id))
    for i, less in enumerate(force.less):
        rec = unit_record(less, seat, oob, where, f"less[{i}]")
        if rec not in out:
            raise SetupError(where.split(":")[0], where, f"less[{i}]",
                             f"{less.label()!r} is not in the line's formations")
        if less.section is None:  # a section left out keeps the battery (see sections_kept)
            out.remove(rec)
    for i, ref in enumerate(force.units):
        rec = unit_record(ref, seat, oob, where, f"units[{i}]")
        if rec in out:
            raise SetupError(where.split(":")[0], where, f"units[{i}]",
                             f"{ref.label()!r} is already in the line")
        out.append(rec)
    for i, ref in enumerate(force.eliminated):
        rec = unit_record(ref, seat, oob, where, f"eliminated[{i}]")
        if rec in out and ref.section is None:
            out.remove(rec)
    return out


def sections_kept(force: Force, seat: Seat, oob: Oob, where: str
                  ) -> dict[tuple[str, str], frozenset[str]]:
    """The sections (Counter.mode labels) a line keeps of each battery it splits, keyed by
    (corps id, unit name): a ``units`` ref with a section brings that section alone, a
    ``less`` or ``eliminated`` one takes it away (004 sc.5 puts Hardaway's two sections on
    two hexes). A section the battery does not have is refused naming the line and field."""
    modes: dict[tuple[str, str], list[str]] = {}
    for c in oob.counters():
        if c.mode and c.arm in ("art", "horse_art"):
            modes.setdefault((c.corps, c.unit), []).append(c.mode)
    out: dict[tuple[str, str], frozenset[str]] = {}
    for key in ("units", "less", "eliminated"):
        refs: tuple[UnitRef, ...] = getattr(force, key)
        for i, ref in enumerate(refs):
            if ref.section is None:
                continue
            rec = unit_record(ref, seat, oob, where, f"{key}[{i}]")
            k = (rec.corps.id, rec.unit.name)
            have = modes.get(k, [])
            if ref.section not in have:
                given = (f"its sections are {', '.join(have)}" if have
                         else "it is not a battery of several sections")
                raise SetupError(where.split(":")[0], where, f"{key}[{i}].section",
                                 f"{rec.unit.name!r} has no section {ref.section!r} ({given})")
            keep = out.get(k, frozenset(have))
            out[k] = keep & {ref.section} if key == "units" else keep - {ref.section}
    return out


def unit_record(ref: UnitRef, seat: Seat, oob: Oob, where: str, field: str) -> UnitRecord:
    """The OOB record a set-up line's unit name resolves to; an error names the line
    (004 sc.1-6)."""
    from .scenario import SIDE_OF_SEAT
    key = _one(oob.resolve(ref.name, side=SIDE_OF_SEAT[seat], kind="unit", within=ref.within),
               ref.label(), where, field)
    _, corps, name = key.split(":", 2)
    for u in oob.units:
        if u.corps.id == corps and u.unit.name == name:
            return u
    raise SetupError(where.split(":")[0], where, field, f"no unit record {key!r}")


def leader_id(name: str, seat: Seat, oob: Oob, where: str, field: str) -> str:
    """The OOB id of a set-up line's leader; an exact id wins over a surname
    (004 sc.1-6)."""
    from .scenario import SIDE_OF_SEAT
    if any(r.leader.id == name and r.side == SIDE_OF_SEAT[seat] for r in oob.leaders):
        return name  # a leader's id is exact ('lee', not also Fitzhugh Lee by surname)
    hits = [h for h in oob.resolve(name, side=SIDE_OF_SEAT[seat])
            if h.startswith(("leader:", "artillery:"))]
    return _one(hits, name, where, field).split(":", 1)[1]


def _one(hits: list[str], name: str, where: str, field: str) -> str:
    if len(hits) != 1:
        what = "nothing" if not hits else f"{len(hits)} records ({', '.join(hits)})"
        raise SetupError(where.split(":")[0], where, field,
                         f"{name!r} must name exactly one OOB record, it names {what}")
    return hits[0].removeprefix("formation:")


# --- areas -------------------------------------------------------------------------------------
def area(where: Where, board: Board, maps: Sequence[str], label: str) -> list[Hex]:
    """The hexes of a line's area in the order the placer fills them (004 sc.1-6)."""
    file, _ = label.split(":", 1) if ":" in label else (label, "")

    def parse(hid: str) -> Hex:
        try:
            return board.parse(hid)
        except ValueError as exc:
            raise SetupError(file, label, "where", str(exc)) from None

    if where.hex is not None:
        out = [parse(where.hex)]
    elif where.hexes is not None:
        out = [parse(h) for h in where.hexes]
    elif where.road is not None:
        a, b = parse(where.road[0]), parse(where.road[1])
        out = road_path(board, a, b)
        if not out:  # the derived road may run a hex aside: use it if it is as long
            snapped, straight = snapped_road(board, a, b), line(a, b)
            out = snapped if len(snapped) >= len(straight) else straight
    elif where.line is not None:
        out = line(parse(where.line[0]), parse(where.line[1]))
    else:
        w = where.within
        assert w is not None
        centres = [parse(h) for h in w.of]
        if w.line:
            centres = line(centres[0], centres[1])
        found = {h for c in centres for h in disc(c, w.radius) if h in board.hexes}
        if w.side is not None:
            sheet = w.of[0][0]
            found = {h for h in found if _on_side(board, h, centres, sheet, w.side)}
        out = sorted(found, key=lambda h: (min(h.distance(c) for c in centres),
                                           board.hexes[h].id))
    return [h for h in out if h in board.hexes and set(board.hexes[h].sheets) & set(maps)]


def _on_side(board: Board, h: Hex, ref: Sequence[Hex], sheet: str, side: str) -> bool:
    """West = a larger YY than the reference hex of the nearest row (004 numbers YY westward)."""
    here = board.codec.local(h, sheet)
    if here is None:
        return False
    rows = [(p, board.codec.local(p, sheet)) for p in ref]
    known = [(loc[0], loc[1]) for _, loc in rows if loc is not None]
    if not known:
        return False
    nearest = min(abs(x - here[0]) for x, _ in known)
    yy = [y for x, y in known if abs(x - here[0]) == nearest]
    return here[1] > max(yy) if side == "west" else here[1] < min(yy)


def snapped_road(board: Board, a: Hex, b: Hex) -> list[Hex]:
    """The road between the road hexes next to a and b, when the derived map's road runs a
    hex beside the book's (the shortest such stretch; ties by hex order) (004 sc.2 roads)."""
    def near(h: Hex) -> list[Hex]:
        return sorted(n for n in (h, *h.neighbours()) if board.road_neighbours(n)) if (
            h in board.hexes) else []

    best: list[Hex] = []
    for x in near(a):
        for y in near(b):
            path = road_path(board, x, y, limit=a.distance(b) + 4)
            if path and (not best or len(path) < len(best)):
                best = path
    return best


def road_path(board: Board, a: Hex, b: Hex, limit: int = 40) -> list[Hex]:
    """The shortest chain of road hexsides from a to b (empty if none within ``limit``).
    (004 sc.2 roads)"""
    prev: dict[Hex, Hex | None] = {a: None}
    frontier = [a]
    for _ in range(limit):
        nxt: list[Hex] = []
        for h in frontier:
            for n in board.road_neighbours(h):
                if n not in prev:
                    prev[n] = h
                    nxt.append(n)
        if b in prev:
            path = [b]
            while (p := prev[path[-1]]) is not None:
                path.append(p)
            return path[::-1]
        frontier = nxt
    return []


# --- stacking -------------------------------------------------------------------------------------
def stack_ok(pieces: Sequence[_Piece], orders: str) -> bool:
    """The stacking limits of 002 §8.12 (leaders do not count)."""
    art = [p for p in pieces if p.klass == "artillery"]
    troops = [p for p in pieces if p.klass != "artillery"]
    guns = sum(p.sp for p in art)
    if orders == "march":
        if art and troops:
            return False
        if art:
            return len(art) <= 2 and guns <= 12
    else:
        if art and (len(art) > (1 if troops else 2) or guns > (6 if troops else 12)):
            return False
    if not troops:
        return True
    if len({p.klass for p in troops}) > 1:
        return False
    if len(troops) == 1:
        return True
    sp = sum(p.sp for p in troops)
    if troops[0].klass == "infantry":
        one_brigade = len({p.unit.formation.id for p in troops}) == 1
        return one_brigade and sp <= (7 if orders == "march" else 15)
    return sp <= (4 if orders == "march" else 7)


# --- losses ----------------------------------------------------------------
def spread_losses(pieces: Sequence[_Piece], force: Force) -> dict[str, int]:
    """SP lost per counter id: PL-n spread evenly over the line's infantry and cavalry, the
    remainder to the biggest, never below 1 SP (digest §D.2); then the named losses.
    (004 sc.4 prior losses)"""
    lost: dict[str, int] = {}
    first = {p.unit.unit.name: p.counters[0].id for p in pieces}
    troops = sorted((p for p in pieces if p.klass != "artillery"),
                    key=lambda p: (-p.sp, p.counters[0].id))
    left = force.pl
    while left > 0:
        room = [p for p in troops if p.sp - lost.get(p.counters[0].id, 0) > 1]
        if not room:
            break
        for p in room:
            if left == 0:
                break
            lost[p.counters[0].id] = lost.get(p.counters[0].id, 0) + 1
            left -= 1
    for name, sp in force.losses.items():
        cid = first.get(name)
        if cid is not None:
            lost[cid] = lost.get(cid, 0) + sp
    return lost


# --- the placer ----------------------------------------------------------------
@dataclass
class _State:
    pieces: dict[Hex, list[tuple[_Piece, str]]]
    leaders: dict[str, Hex]
    claims: dict[Hex, set[str]]  # the 'within' lines whose area holds each hex


def _pieces(units: Iterable[UnitRecord], by_unit: dict[tuple[str, str], list[Counter]],
            mounted: bool | None,
            sections: dict[tuple[str, str], frozenset[str]] | None = None) -> list[_Piece]:
    out: list[_Piece] = []
    want = "dismounted" if mounted is False else "mounted"
    for u in units:
        key = (u.corps.id, u.unit.name)
        cs = by_unit[key]
        if u.arm == "cav":
            cs = [c for c in cs if c.mode == want] or cs[:1]
        if u.arm in ("art", "horse_art"):
            if sections and key in sections:  # a split battery: the line's sections only
                cs = [c for c in cs if c.mode in sections[key]]
                if not cs:
                    continue
            out.append(_Piece(u, cs))  # a battery's sections stay together (002 §8.37)
        else:
            out.extend(_Piece(u, [c]) for c in cs)  # a big regiment's counters part
    return out


def _trail(p: _Piece, orders: str, arrangement: str | None) -> int:
    """Trailing hexes of an extended column (002 §8.5)."""
    if arrangement != "extended_column":
        return 0
    big, bigger = (8, 15) if p.klass == "infantry" else (5, 9)
    return 2 if p.sp >= bigger else 1 if p.sp >= big else 0


def _facing_along(path: Sequence[Hex], i: int) -> int | None:
    """The hexside a column's counter at path[i] faces: toward path[i-1] (the head end)."""
    here = path[i]
    toward = path[i - 1] if i > 0 else None
    if toward is None and len(path) > 1:
        away = path[1]
        for d in range(6):
            if here.neighbour(d) == away:
                return (d + 3) % 6
        return None
    for d in range(6):
        if here.neighbour(d) == toward:
            return d
    return None


def _place(scen: Scenario, seat: Seat, oob: Oob, board: Board
           ) -> tuple[list[Placement], list[LeaderPlacement]]:
    file = f"{scen.id}.yaml"
    by_unit: dict[tuple[str, str], list[Counter]] = {}
    for c in oob.counters():
        by_unit.setdefault((c.corps, c.unit), []).append(c)
    skip = set(scen.leave_out.get(seat, ()))
    state = _State({}, {}, {})
    for ln in scen.setup.get(seat, ()):
        if ln.id not in skip and ln.where.within is not None and ln.stack_with is None:
            for h in area(ln.where, board, scen.maps, f"{file}:setup.{seat}[id={ln.id}]"):
                state.claims.setdefault(h, set()).add(ln.id)
    units_out: list[Placement] = []
    leaders_out: list[LeaderPlacement] = []
    for ln in scen.setup.get(seat, ()):
        if ln.id in skip:
            continue
        label = f"{file}:setup.{seat}[id={ln.id}]"
        placed, lead = _place_line(scen, seat, ln, oob, board, by_unit, state, label)
        units_out.extend(placed)
        leaders_out.extend(lead)
    return units_out, leaders_out


def _allowed(scen: Scenario, board: Board, ident: str) -> set[Hex] | None:
    """Hexes a line may not be placed in by the scenario's forbidden rows/hexes."""
    return forbidden_ground(scen, board, ident) or None


def forbidden_ground(scen: Scenario, board: Board, ident: str | None = None) -> set[Hex]:
    """The hexes of the scenario's forbidden rows and listed hexes (004 sc.3), leaving out
    the entries that exempt the set-up line ``ident``."""
    bad: set[Hex] = set()
    for f in scen.forbidden():
        if ident is not None and ident in f.exempt:
            continue
        if f.sheet is not None and f.rows_up_to is not None:
            for h in board.hexes:
                loc = board.codec.local(h, f.sheet)
                if loc is not None and loc[0] <= f.rows_up_to:
                    bad.add(h)
        bad.update(board.parse(x) for x in f.hexes)
    return bad


def _place_line(scen: Scenario, seat: Seat, ln: SetupLine, oob: Oob, board: Board,
                by_unit: dict[tuple[str, str], list[Counter]], state: _State, label: str
                ) -> tuple[list[Placement], list[LeaderPlacement]]:
    file = f"{scen.id}.yaml"
    units = resolve_units(ln, seat, oob, label)
    leaders = [leader_id(n, seat, oob, label, f"leaders[{i}]") for i, n in enumerate(ln.leaders)]
    pieces = _pieces(units, by_unit, ln.mounted, sections_kept(ln, seat, oob, label))
    orders = ln.orders or "advance"
    if ln.stack_with is not None:
        lid = leader_id(ln.stack_with, seat, oob, label, "stack_with")
        if lid not in state.leaders:
            raise SetupError(file, label, "stack_with", f"{lid!r} is not placed by an earlier line")
        hexes = [state.leaders[lid]]
    else:
        hexes = area(ln.where, board, scen.maps, label)
        if ln.where.within is not None:  # leave hexes other lines' areas share till last
            hexes.sort(key=lambda h: bool(state.claims.get(h, set()) - {ln.id}))
    bad = _allowed(scen, board, ln.id)
    if bad:
        hexes = [h for h in hexes if h not in bad]
    if not hexes:
        raise SetupError(file, label, "where", "the area has no hex on the scenario's maps")
    lost = spread_losses(pieces, ln)
    road = ln.where.road is not None or ln.where.line is not None
    used: dict[Hex, int] = {}
    taken: set[Hex] = set()  # column tails
    out: list[Placement] = []
    first_hex: Hex | None = None
    for p in pieces:
        trail = _trail(p, orders, ln.arrangement)
        spot = _free(hexes, p, orders, ln.per_hex, used, taken, state)
        if spot is None:
            raise SetupError(file, label, "where",
                             f"no room for {p.unit.unit.name} in the area's {len(hexes)} "
                             "hexes within the stacking limits (002 §8.12)")
        i, h = spot
        tail = _tail(hexes, i, trail, road) if trail else []
        if any(t not in board.hexes or not set(board.hexes[t].sheets) & set(scen.maps)
               for t in tail):
            raise SetupError(file, label, "where", f"{p.unit.unit.name}'s column runs off the map")
        taken.update(tail)
        facing = ln.facing
        if facing is None and road and orders == "march":
            facing = _facing_along(hexes, i)
        state.pieces.setdefault(h, []).append((p, orders))
        used[h] = used.get(h, 0) + 1
        first_hex = first_hex or h
        for c in p.counters:
            out.append(Placement(counter=c.id, hex=_id(board, h, scen.maps), orders=orders,
                                 facing=facing,
                                 extension=tuple(_id(board, t, scen.maps) for t in tail),
                                 line=ln.id, sp_lost=lost.get(c.id, 0)))
    where_l = first_hex or hexes[0]
    lead_out = []
    for lid in leaders:
        state.leaders[lid] = where_l
        lead_out.append(LeaderPlacement(lid, _id(board, where_l, scen.maps), ln.id))
    return out, lead_out


def _free(hexes: Sequence[Hex], p: _Piece, orders: str, per_hex: int, used: dict[Hex, int],
          taken: set[Hex], state: _State) -> tuple[int, Hex] | None:
    """The first hex of the area that takes the unit: every hex gets one of the line's units
    before any gets a second (so a line spreads over its whole area)."""
    for layer in range(per_hex):
        for i, h in enumerate(hexes):
            if h in taken or used.get(h, 0) != layer:
                continue
            here = state.pieces.get(h, [])
            kind = "march" if "march" in {o for _, o in here} | {orders} else orders
            if stack_ok([q for q, _ in here] + [p], kind):
                return i, h
    return None


def _tail(hexes: Sequence[Hex], i: int, n: int, road: bool) -> list[Hex]:
    """The n hexes behind a column's head at hexes[i]: the next ones along the road, and past
    its end in the same direction when the stretch runs out (the head stays on it)."""
    tail = list(hexes[i + 1:i + 1 + n]) if road else []
    last, before = hexes[min(i + len(tail), len(hexes) - 1)], hexes[max(0, min(
        i + len(tail), len(hexes) - 1) - 1)]
    while len(tail) < n:
        step = last - before if last != before else Hex(0, 0)
        nxt = last + step
        tail.append(nxt)
        before, last = last, nxt
    return tail


def _id(board: Board, h: Hex, maps: Sequence[str]) -> str:
    """The hex's id on the first of the scenario's maps that prints it."""
    for sheet in sorted(maps):
        loc = board.codec.local(h, sheet)
        if loc is not None and sheet in board.hexes[h].sheets:
            return f"{sheet}{loc[0]:02d}{loc[1]:02d}"
    return board.hexes[h].id


def place_units(scen: Scenario, seat: Seat, oob: Oob, board: Board) -> list[Placement]:
    """Every counter of ``seat``'s set-up on a hex (see the module's docstring).
    (004 sc.1-6; 002 §8.12)"""
    return _place(scen, seat, oob, board)[0]


def place_leaders(scen: Scenario, seat: Seat, oob: Oob, board: Board) -> list[LeaderPlacement]:
    """Every leader of ``seat``'s set-up: in the hex of his line's first unit (004 sc.1-6)."""
    return _place(scen, seat, oob, board)[1]


def check_scenario(scen: Scenario, oob: Oob, board: Board) -> None:
    """Everything a scenario names, against the OOB and the board: each set-up line placed,
    each reinforcement's units and leaders one record each, each hex it cites on its maps.
    (004 sc.1-6)"""
    file = f"{scen.id}.yaml"
    seats: tuple[Seat, ...] = ("usa", "csa")
    for seat in seats:
        lines = {ln.id for ln in scen.setup.get(seat, ())}
        for i, lid in enumerate(scen.leave_out.get(seat, ())):
            if lid not in lines:
                raise SetupError(file, f"leave_out.{seat}", f"[{i}]", f"no set-up line {lid!r}")
        _place(scen, seat, oob, board)
        for ln in scen.setup.get(seat, ()):  # lines left out still name real records
            label = f"{file}:setup.{seat}[id={ln.id}]"
            resolve_units(ln, seat, oob, label)
            sections_kept(ln, seat, oob, label)
            for i, n in enumerate(ln.leaders):
                leader_id(n, seat, oob, label, f"leaders[{i}]")
        for g in scen.reinforcements.get(seat, ()):
            label = f"{file}:reinforcements.{seat}[id={g.id}]"
            resolve_units(g, seat, oob, label)
            for i, n in enumerate(g.leaders):
                leader_id(n, seat, oob, label, f"leaders[{i}]")
            for a in (g.entry, *(x.entry for x in g.later)):
                for hid in a.hex_ids():
                    _on_maps(board, hid, scen.maps, file, label, "entry")
    for cond in scen.victory.conditions:
        for hid in _victory_hexes(cond):
            _on_maps(board, hid, scen.maps, file, f"victory[kind={cond.kind}]", "hexes")


def _victory_hexes(cond: object) -> list[str]:
    hexes = list(getattr(cond, "hexes", ()))
    for obj in getattr(cond, "objectives", ()):
        hexes.extend(obj.hexes)
    for geo in getattr(cond, "geographic", ()):
        hexes.extend(geo.hexes)
    return hexes


def _on_maps(board: Board, hid: str, maps: Sequence[str], file: str, record: str,
             field: str) -> None:
    try:
        h = board.parse(hid)
    except ValueError as exc:
        raise SetupError(file, record, field, str(exc)) from None
    if not set(board.hexes[h].sheets) & set(maps):
        raise SetupError(file, record, field, f"{hid} is not on the scenario's maps {list(maps)}")
