"""GBACW line of sight (002 §10.2, with Three Days of Gettysburg's town and railroad cuts,
004 §10.23, §9.86, §9.83), on the derived board.

The line runs centre to centre (002 §10.21); :func:`gettysburg.core.hexes.line_steps` gives
the hexes it crosses, two at a step where it runs exactly along their common hexside.
Terrain is judged with *adjusted heights*: a hex's base level plus the Terrain chart's
``los_levels`` (woods, rough woods and town stand one level up, 002 §10.23; orchards add
nothing). Units stand at the base level of their hex (002 §10.23 note 1), one level lower in
a railroad cut (004 §9.83). The checks, each a small function below, run in the order of
002 §10.24: higher intermediate ground, tree canopy, then, when the two ends stand at
different levels, the slope rule, the intermediate-hill, shadow and crest exceptions; the
units in the way (§10.26) come last, once the terrain is clear.

Every check is written so that it does not care which end is the firer (it speaks of the
upper and lower unit), so terrain sight is reciprocal (§10.25); only the unit rules of
§10.26 may differ by direction, as that section says.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from gettysburg.core.hexes import Hex, Hexside, distance, line_steps
from gettysburg.gbacw.board import Board, BoardError

#: What the line is traced for: plain sight (360°, 002 §10.21), small-arms fire, artillery
#: at canister range (1-3 hexes) or at shell range (4+), which §10.26 treats apart.
Fire = Literal["sight", "small_arms", "canister", "shell"]
FIRES: tuple[Fire, ...] = ("sight", "small_arms", "canister", "shell")

NON_GRADUAL = frozenset({"minor", "steep", "sheer"})
CLIFF = frozenset({"steep", "sheer"})
WOODS = frozenset({"woods", "rough-woods"})
TOWN = "town"
CUT = "railroad-cut"
#: The unfinished railroad is a trail (004 §9.82); the board names its bed.
BED_NAME = "unfinished railroad"

Steps = tuple[tuple[Hex, ...], ...]


@dataclass(frozen=True)
class Sight:
    """The verdict: ``clear``, the section that decided it (``rule``), a sentence saying
    why, the hex where the line is stopped (None when clear) and the hexes it crosses in
    order from the origin (both hexes where it runs along their hexside)."""

    clear: bool
    rule: str
    reason: str
    blocked_at: Hex | None
    path: tuple[Hex, ...]


@dataclass(frozen=True)
class _Ground:
    """What the checks read of a board, gathered once per board (plain dicts and sets)."""

    level: dict[Hex, int]
    cover: dict[Hex, int]  # the chart's los_levels of the hex's terrain
    woods: frozenset[Hex]
    town: frozenset[Hex]
    cut: frozenset[Hex]
    road_links: frozenset[Hexside]  # pike, road or trail hexsides (004 §10.23)
    bed_links: frozenset[Hexside]  # the unfinished railroad (004 §9.83)
    slopes: dict[Hexside, str]  # listed slope classes (minor, steep, sheer)


_GROUNDS: dict[int, tuple[weakref.ref[Board], _Ground]] = {}


def ground(board: Board) -> _Ground:
    """The board's terrain as the LOS checks read it, built on first use and kept while the
    board lives (so an engine may ask thousands of lines without re-reading the board).
    (002 §10.2; 004 §10.23, §9.83, §9.86)."""
    kept = _GROUNDS.get(id(board))
    if kept is not None and kept[0]() is board:
        return kept[1]
    from gettysburg.gbacw.charts import all_charts

    chart = all_charts().terrain
    levels_of: dict[str, int] = {}
    for info in board.hexes.values():
        if info.terrain not in levels_of:
            levels_of[info.terrain] = chart.get(info.terrain).los_levels
    road_links: set[Hexside] = set()
    bed_links: set[Hexside] = set()
    slopes: dict[Hexside, str] = {}
    for key, side in board.sides.items():
        if side.slope in NON_GRADUAL:
            slopes[key] = side.slope
        for road in side.roads:
            if road.road_class in ("pike", "road", "trail"):
                road_links.add(key)
            if road.road_class == "trail" and BED_NAME in road.name.lower():
                bed_links.add(key)
    g = _Ground(
        level={h: i.level for h, i in board.hexes.items()},
        cover={h: levels_of[i.terrain] for h, i in board.hexes.items()},
        woods=frozenset(h for h, i in board.hexes.items() if i.terrain in WOODS),
        town=frozenset(h for h, i in board.hexes.items() if i.terrain == TOWN),
        cut=frozenset(h for h, i in board.hexes.items() if CUT in i.features),
        road_links=frozenset(road_links), bed_links=frozenset(bed_links), slopes=slopes)
    _GROUNDS[id(board)] = (weakref.ref(board), g)
    return g


@lru_cache(maxsize=65536)
def _relative_steps(dq: int, dr: int) -> Steps:
    # A line's shape depends only on the offset between its ends (the rounding works on
    # whole-number translations alike), so it is computed once per offset.
    return tuple(line_steps(Hex(0, 0), Hex(dq, dr)))


def trace(origin: Hex, target: Hex) -> Steps:
    """The hexes the centre-to-centre line crosses, one tuple per step (002 §10.21)."""
    rel = _relative_steps(target.q - origin.q, target.r - origin.r)
    return tuple(tuple(origin + h for h in step) for step in rel)


# --- the context every check reads ------------------------------------------------------


@dataclass(frozen=True)
class _Line:
    g: _Ground
    origin: Hex
    target: Hex
    steps: Steps
    eye_o: int  # the units' levels (base level; one lower in a railroad cut)
    eye_t: int
    height: Callable[[Hex], int]

    @property
    def n(self) -> int:
        return len(self.steps) - 1

    @property
    def low_is_origin(self) -> bool:
        return self.eye_o < self.eye_t

    @property
    def low(self) -> Hex:
        return self.origin if self.low_is_origin else self.target

    @property
    def high(self) -> Hex:
        return self.target if self.low_is_origin else self.origin

    @property
    def low_eye(self) -> int:
        return min(self.eye_o, self.eye_t)

    @property
    def high_eye(self) -> int:
        return max(self.eye_o, self.eye_t)

    def from_low(self, i: int) -> int:
        """How many steps position ``i`` (counted from the origin) lies from the lower unit."""
        return i if self.low_is_origin else self.n - i

    def between(self) -> Iterable[tuple[int, Hex]]:
        """The intermediate hexes with their position, from the origin."""
        for i in range(1, self.n):
            for h in self.steps[i]:
                yield i, h

    def from_high(self) -> list[tuple[Hex, ...]]:
        """The intermediate steps walked from the upper unit towards the lower."""
        inner = list(self.steps[1:-1])
        return inner if not self.low_is_origin else inner[::-1]

    def along_side(self, i: int) -> bool:
        return len(self.steps[i]) > 1


Verdict = tuple[str, str, Hex]  # rule, reason, hex


def _side_rule(line: _Line, i: int, rule: str, why: str) -> tuple[str, str]:
    """002 §10.27: where the line runs along a hexside, a blocking hex on either side of it
    blocks the line."""
    if line.along_side(i):
        return "10.27", (f"{why}; the line runs along its hexside, which then blocks "
                         f"(002 §10.27, {rule})")
    return rule, why


# --- terrain checks (002 §10.24) --------------------------------------------------------


def higher_than_both(line: _Line, ids: Callable[[Hex], str]) -> Verdict | None:
    """002 §10.24: an intermediate hex whose adjusted height exceeds both units' levels
    blocks, whatever the ends' levels."""
    top = line.high_eye
    for i, h in line.between():
        if line.height(h) > top:
            rule, why = _side_rule(line, i, "10.24", (
                f"{ids(h)} stands at {line.height(h)}, above both units ({line.eye_o} and "
                f"{line.eye_t}) (002 §10.24 higher ground)"))
            return rule, why, h
    return None


def canopy(line: _Line, ids: Callable[[Hex], str]) -> Verdict | None:
    """002 §10.24 canopy: next to a unit in woods, a lower woods hex blocks, unless it is
    lower than both units' hexes and the step down to it is not gradual."""
    g = line.g
    for end, i in ((line.origin, 1), (line.target, line.n - 1)):
        if end not in g.woods:
            continue
        for h in line.steps[i]:
            if h not in g.woods or distance(h, end) != 1 or g.level[h] >= g.level[end]:
                continue
            lower_than_both = g.level[h] < min(g.level[line.origin], g.level[line.target])
            steep_step = g.slopes.get(Hexside.between(h, end)) in NON_GRADUAL
            if not (lower_than_both and steep_step):
                rule, why = _side_rule(line, i, "10.24", (
                    f"{ids(h)} is lower woods next to {ids(end)}, a unit in woods: the tree "
                    "canopy hides it (002 §10.24 canopy)"))
                return rule, why, h
    return None


def _non_gradual(line: _Line, a: Hex, b: Hex) -> Hex | None:
    """The upper hex of the hexside a-b if, for LOS, it is a non-gradual slope (002
    §10.23-10.24): a listed minor/steep/sheer slope, or a woods or town hex standing over its
    neighbour (note 2); a listed slope whose upper hex is only one level above the lower
    unit counts as gradual (woods and town excepted)."""
    ha, hb = line.height(a), line.height(b)
    if ha == hb:
        return None
    up, down = (a, b) if ha > hb else (b, a)
    g = line.g
    cover_edge = g.cover.get(up, 0) > 0 and line.height(up) > g.level[up]
    if cover_edge:
        return up
    if g.slopes.get(Hexside.between(a, b)) in NON_GRADUAL and g.level[up] > g.level[down]:
        return up if g.level[up] - line.low_eye > 1 else None
    return None


def slope_rule(line: _Line, ids: Callable[[Hex], str]) -> Verdict | None:
    """002 §10.24 slopes: with the units at different levels, an intermediate hex (or the
    hexside at the exact middle) higher than their average level blocks if it is nearer the
    lower unit; at the exact middle it counts as nearer only through a non-gradual slope
    facing the lower unit. A hexside's height is the mean of its two hexes' heights."""
    n = line.n
    avg2 = line.eye_o + line.eye_t  # twice the average: stays in whole numbers
    toward_low = -1 if line.low_is_origin else 1
    for i, h in line.between():
        if 2 * line.height(h) <= avg2:
            continue
        near, far = line.from_low(i), n - line.from_low(i)
        if near < far:
            rule, why = _side_rule(line, i, "10.24", (
                f"{ids(h)} at {line.height(h)} is above the average level "
                f"{avg2 / 2:g} and nearer the lower unit (002 §10.24 slopes)"))
            return rule, why, h
        if near == far:
            for nb in line.steps[i + toward_low]:
                if distance(nb, h) == 1 and _non_gradual(line, h, nb) == h:
                    rule, why = _side_rule(line, i, "10.24", (
                        f"{ids(h)} at {line.height(h)}, midway, is above the average level "
                        f"{avg2 / 2:g} and has a non-gradual slope towards the lower unit "
                        "(002 §10.24 slopes)"))
                    return rule, why, h
    if n % 2 == 1:
        m = n // 2
        for a in line.steps[m]:
            for b in line.steps[m + 1]:
                if distance(a, b) != 1:
                    continue
                up = _non_gradual(line, a, b)
                if up is not None and line.height(a) + line.height(b) > avg2:
                    return ("10.24", f"the slope {ids(a)}/{ids(b)} midway stands at "
                            f"{(line.height(a) + line.height(b)) / 2:g}, above the average "
                            f"level {avg2 / 2:g} (002 §10.24 slopes)", up)
    return None


def intermediate_hill(line: _Line, ids: Callable[[Hex], str]) -> Verdict | None:
    """002 §10.24 exception 1: walking from the upper unit, an intermediate hex back up at
    the upper unit's level after a lower hex blocks."""
    g = line.g
    top = g.level[line.high]
    dipped = False
    for step in line.from_high():
        for h in step:
            if dipped and g.level[h] >= top:
                return ("10.24", f"{ids(h)} rises back to the upper unit's level {top} beyond "
                        "lower ground (002 §10.24 intermediate hill)", h)
        if any(g.level[h] < top for h in step):
            dipped = True
    return None


def shadow(line: _Line, ids: Callable[[Hex], str]) -> Verdict | None:
    """002 §10.24 exception 2: (a) a woods or town hex next to a unit and higher than it
    blocks; (b) a steep or sheer slope between an intermediate hex and the lower unit's hex
    blocks, unless every hexside from that hex up to the upper unit is as steep."""
    g = line.g
    for end, eye, i in ((line.origin, line.eye_o, 1), (line.target, line.eye_t, line.n - 1)):
        for h in line.steps[i]:
            if distance(h, end) == 1 and g.cover.get(h, 0) and line.height(h) > g.level[h] \
                    and line.height(h) > eye:
                rule, why = _side_rule(line, i, "10.24", (
                    f"{ids(h)} ({'town' if h in g.town else 'woods'}) stands above the unit "
                    f"next to it in {ids(end)} (002 §10.24 shadow a)"))
                return rule, why, h
    low = line.low
    i_next = 1 if line.low_is_origin else line.n - 1
    step_up = 1 if line.low_is_origin else -1
    for h in line.steps[i_next]:
        if distance(h, low) != 1:
            continue
        if g.slopes.get(Hexside.between(h, low)) not in CLIFF or g.level[h] <= g.level[low]:
            continue
        if not _cliff_to_top(line, i_next, step_up):
            rule, why = _side_rule(line, i_next, "10.24", (
                f"a {g.slopes[Hexside.between(h, low)]} slope drops from {ids(h)} to the lower "
                f"unit in {ids(low)} (002 §10.24 shadow b)"))
            return rule, why, h
    return None


def _cliff_to_top(line: _Line, start: int, step_up: int) -> bool:
    """Whether every hexside the line crosses from position ``start`` up to the upper unit
    is a steep or sheer slope rising towards it (002 §10.24 shadow b's exception)."""
    g = line.g
    i = start
    end = line.n if step_up == 1 else 0
    while i != end:
        for a in line.steps[i]:
            for b in line.steps[i + step_up]:
                if distance(a, b) != 1:
                    continue
                if g.slopes.get(Hexside.between(a, b)) not in CLIFF or g.level[b] <= g.level[a]:
                    return False
        i += step_up
    return True


def crest(line: _Line, ids: Callable[[Hex], str]) -> Verdict | None:
    """002 §10.24 exception 3 (optional, recommended): the ground at the upper unit's level
    runs on further towards the lower unit than behind the upper unit, and behind it the
    line meets lower ground before any higher: the rounded top of the hill (an implied
    crest) lies between them. Base levels only; woods and town do not count."""
    g = line.g
    top = g.level[line.high]
    ahead = 0
    for step in line.from_high():
        if all(g.level[h] == top for h in step):
            ahead += 1
        else:
            break
    if ahead == 0:
        return None
    behind = 0
    for step in _beyond(line.low, line.high, ahead + 1):
        if any(h not in g.level for h in step):
            return None  # off the map: no drop is seen
        levels = [g.level[h] for h in step]
        if all(v == top for v in levels):
            behind += 1
            continue
        if any(v > top for v in levels):
            return None  # higher ground behind: no crest
        break
    else:
        return None
    if behind < ahead:
        return ("10.24", f"behind {ids(line.high)} the ground drops after {behind} hex(es) at "
                f"level {top}, ahead after {ahead}: an implied crest hides the lower unit "
                "(002 §10.24 crests)", line.high)
    return None


def _beyond(low: Hex, high: Hex, count: int) -> Steps:
    """``count`` steps of the line of fire carried on past ``high``, away from ``low``."""
    n = distance(low, high)
    k = -(-count // n)
    far = high + (high - low).scale(k)
    return trace(low, far)[n + 1:n + 1 + count]


# --- 004's battle rules --------------------------------------------------------------


def along_road(g: _Ground, steps: Steps) -> bool:
    """004 §10.23: the line follows a road, pike or trail hexside at every step."""
    return all(len(s) == 1 for s in steps) and all(
        Hexside.between(steps[i][0], steps[i + 1][0]) in g.road_links
        for i in range(len(steps) - 1))


def railroad_cut(line: _Line, ids: Callable[[Hex], str]) -> Verdict | None:
    """004 §9.83: a unit in a railroad cut is seen only from next to it or straight along
    the unfinished railroad bed into the cut's centre."""
    g = line.g
    steps = line.steps
    for end in (line.origin, line.target):
        if end not in g.cut or line.n < 2:
            continue
        on_bed = all(len(s) == 1 for s in steps) and all(
            Hexside.between(steps[i][0], steps[i + 1][0]) in g.bed_links
            for i in range(len(steps) - 1))
        if not on_bed:
            return ("tdg.9.83", f"{ids(end)} is a railroad cut: seen only from next to it or along "
                    "the unfinished railroad (004 §9.83)", end)
    return None


# --- units (002 §10.26) -----------------------------------------------------------------


def units_block(line: _Line, ids: Callable[[Hex], str], board: Board,
                blockers: frozenset[Hex], friends: frozenset[Hex] | None,
                fire: Fire) -> Verdict | None:
    """002 §10.26: units in the way block small-arms fire (and sight) at all ranges and
    artillery at canister range, except a unit lower than both ends, one the artillery
    fires down on from two levels up next to it, one at the lower unit's level when the ends
    are two levels apart and it is not nearer the lower unit, and enemies the firer cannot
    see anyway when no friend is in the way. At shell range only friends within two hexes
    of the target (beyond it too) block."""
    g = line.g
    if fire == "shell":
        return _shell_friends(line, ids, blockers if friends is None else blockers & friends)
    found = [(i, h) for i, h in line.between() if h in blockers]
    if not found:
        return None
    if friends is not None and not any(h in friends for _, h in found) and all(
            not line_of_sight(board, line.origin, h).clear for _, h in found):
        return None  # only enemies, each hidden from the firer by the ground
    for i, h in found:
        lvl = g.level[h]
        if lvl < g.level[line.origin] and lvl < g.level[line.target]:
            continue
        if fire == "canister" and distance(h, line.origin) == 1 \
                and g.level[line.origin] >= lvl + 2:
            continue
        if line.high_eye - line.low_eye >= 2 and lvl == g.level[line.low] \
                and line.from_low(i) >= line.n - line.from_low(i):
            continue
        rule, why = _side_rule(line, i, "10.26", f"a unit in {ids(h)} is in the way (002 §10.26)")
        return rule, why, h
    return None


def _shell_friends(line: _Line, ids: Callable[[Hex], str],
                   friends: frozenset[Hex]) -> Verdict | None:
    if not friends:
        return None
    n = line.n
    far = line.target + (line.target - line.origin).scale(-(-2 // n))
    lof = trace(line.origin, far)[:n + 3]
    for i in range(1, len(lof)):
        if i == n or abs(n - i) > 2:
            continue
        for h in lof[i]:
            if h in friends:
                return ("10.26", f"friendly units in {ids(h)}, within two hexes of the target "
                        "on the line of fire, block shell fire (002 §10.26)", h)
    return None


# --- the entry point ---------------------------------------------------------------------

TerrainCheck = Callable[[_Line, Callable[[Hex], str]], Verdict | None]
ALWAYS_CHECKS: tuple[TerrainCheck, ...] = (higher_than_both, canopy)
SLOPE_CHECKS: tuple[TerrainCheck, ...] = (slope_rule, intermediate_hill, shadow)


def line_of_sight(board: Board, origin: Hex, target: Hex, *,
                  blockers: Collection[Hex] = (), friends: Collection[Hex] | None = None,
                  fire: Fire = "sight", crests: bool = True) -> Sight:
    """Whether a unit in ``origin`` sees ``target`` (002 §10.2 with 004 §10.23, §9.83).

    ``blockers`` are occupied hexes (002 §10.26); ``friends`` says which of them hold the
    firer's side (None: all of them); ``fire`` picks §10.26's case; ``crests`` plays the
    optional crest rule (002 §10.24, recommended: on by default). The firer's front
    (§10.21) is the caller's to check. Raises :class:`BoardError` (a ``ValueError``) for a
    hex off the map or an unknown ``fire``."""
    g = ground(board)
    for name, h in (("origin", origin), ("target", target)):
        if h not in g.level:
            raise BoardError(f"los: {name} {h} is not a hex of the GBACW sheets")
    if fire not in FIRES:
        raise BoardError(f"los: fire {fire!r} is not one of {', '.join(FIRES)}")

    def ids(h: Hex) -> str:
        info = board.hexes.get(h)
        return info.id if info is not None else str(h)

    steps = trace(origin, target)
    path = tuple(h for s in steps for h in s)
    n = len(steps) - 1
    if n <= 1:
        return Sight(True, "10.21", "the hexes are adjacent (or the same): nothing between "
                     "them (002 §10.21-10.22)", None, path)
    if any(h not in g.level for s in steps for h in s):
        off = next(h for s in steps for h in s if h not in g.level)
        return Sight(False, "10.21", f"the line leaves the map at {off}", off, path)
    road = along_road(g, steps)

    def height(h: Hex) -> int:
        if road and h in g.town:
            return g.level[h]  # 004 §10.23: town does not block along a road or trail
        return g.level[h] + g.cover[h]

    eye_o = g.level[origin] - (1 if origin in g.cut else 0)
    eye_t = g.level[target] - (1 if target in g.cut else 0)
    line = _Line(g, origin, target, steps, eye_o, eye_t, height)
    checks: list[TerrainCheck] = [railroad_cut, *ALWAYS_CHECKS]
    if eye_o != eye_t:
        checks.extend(SLOPE_CHECKS)
        if crests:
            checks.append(crest)
    for check in checks:
        verdict = check(line, ids)
        if verdict is not None:
            return Sight(False, verdict[0], verdict[1], verdict[2], path)
    if blockers:
        verdict = units_block(line, ids, board, frozenset(blockers),
                              None if friends is None else frozenset(friends), fire)
        if verdict is not None:
            return Sight(False, verdict[0], verdict[1], verdict[2], path)
    if road and any(h in g.town for _, h in line.between()):
        return Sight(True, "tdg.10.23", "clear: the line runs straight along a road or trail, "
                     "where town does not block (004 §10.23)", None, path)
    return Sight(True, "10.24", "clear: no ground, cover or unit in the way (002 §10.24)",
                 None, path)


def sight_json(board: Board, origin: Hex, target: Hex, sight: Sight) -> dict[str, object]:
    """The verdict as a JSON object (the ``inspect los`` command's answer) (002 §10.2)."""
    g = ground(board)

    def fmt(h: Hex) -> str:
        info = board.hexes.get(h)
        return info.id if info is not None else board.codec.format(h)

    return {
        "from": fmt(origin), "to": fmt(target), "range": distance(origin, target),
        "clear": sight.clear, "visible": sight.clear, "rule": sight.rule,
        "reason": sight.reason,
        "blocked_at": fmt(sight.blocked_at) if sight.blocked_at is not None else None,
        "path": [fmt(h) for h in sight.path],
        "steps": [[fmt(h) for h in s] for s in trace(origin, target)],
        "levels": {fmt(h): g.level[h] for h in sight.path if h in g.level},
    }
