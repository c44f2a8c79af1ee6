"""Engineering: building breastworks and what they do (002 §15; decision E-8).

A breastwork marker guards two adjacent hexsides of its hex, the two across which a vertex
facing looks (§15.21): we store it as that vertex, so a builder faces the vertex it will
cover. Building (§15.11-15.15): an infantry or dismounted cavalry unit on Advance orders, in
command, whose brigadier may change orders in II/C, and (with fatigue) below Fatigue 2,
starts in the Engineering Phase (II/F) at a site within three hexes of woods, orchard, town
or a building (farm hexes) but not in town or marsh, where neither the site, the source hex
nor the (at most two) hexes between stand next to an enemy; at most two markers a hex. The
marker flips in the Replacement/Recovery Phase (IV/B) of the second turn, or of the same
turn when building starts at night. Attack orders, leaving the hex, any other action (fire
out of phase too), being shocked, or the brigade reaching Fatigue 2 end the work; going out
of command does not. Any combat unit crossing a guarded hexside pays the Terrain chart's
extra MP (movement.py reads ``breastwork_sides``) and removes the marker (§15.17).

Effects as data for the combat modules (§15.23, E-8): +1 to small-arms fire out through a
guarded hexside; -1 to fire at infantry or dismounted cavalry behind one by small arms or
canister (never shell); -1 to the defender's pre-shock check and -1 to the shock roll when
the shock comes across guarded hexsides. The Terrain chart's -1 shock line is that same
-1, not another (E-8).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from gettysburg.core.hexes import Hex, Hexside
from gettysburg.core.protocol import RuleError

from .board import Board
from .charts.turns import Light
from .fatigue import may_build
from .fire import exit_side

MATERIAL_TERRAIN = frozenset({"woods", "rough-woods", "orchard", "town"})
MATERIAL_FEATURES = frozenset({"farm"})  # the board marks hexes with buildings as farms
NO_BUILD_TERRAIN = frozenset({"town", "marsh"})
MAX_PER_HEX = 2  # §15.12 note
MATERIAL_REACH = 3  # §15.12


@dataclass(frozen=True, order=True, slots=True)
class Breastwork:
    """A placed marker: its hex and the vertex whose two hexsides it guards (§15.21)."""

    hex: Hex
    vertex: int

    def __post_init__(self) -> None:
        if not 0 <= self.vertex <= 5:
            raise ValueError(f"a breastwork's vertex is 0..5, not {self.vertex}")

    def sides(self) -> tuple[int, int]:
        """The two directions whose hexsides it guards (vertex v: sides v and v+1)."""
        return self.vertex, (self.vertex + 1) % 6

    def hexsides(self) -> tuple[Hexside, Hexside]:
        a, b = self.sides()
        return (Hexside.between(self.hex, self.hex.neighbour(a)),
                Hexside.between(self.hex, self.hex.neighbour(b)))


def guarded_hexsides(breastworks: Iterable[Breastwork]) -> frozenset[Hexside]:
    """Every guarded hexside, for movement's ``breastwork_sides`` (§15.22)."""
    return frozenset(s for bw in breastworks for s in bw.hexsides())


# --- who and where (§15.11-15.12) ----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Builder:
    unit: str
    unit_class: str  # the Terrain chart's class: "infantry" covers dismounted cavalry
    orders: str
    in_command: bool
    brigadier_may_change: bool  # eligible to change orders in II/C (§3.0)
    fatigue: int = 0  # steps (fatigue.py); 0 when fatigue is not used


def check_builder(b: Builder) -> None:
    """002 §15.11 (and §17.34 with fatigue)."""
    if b.unit_class != "infantry":
        raise RuleError("15.11", f"{b.unit}: only infantry or dismounted cavalry build "
                        "breastworks")
    if b.orders != "advance":
        raise RuleError("15.11", f"{b.unit}: only a unit on Advance orders builds breastworks")
    if not b.in_command:
        raise RuleError("15.11", f"{b.unit}: a builder must be in command")
    if not b.brigadier_may_change:
        raise RuleError("15.11", f"{b.unit}: its brigadier may not change orders this turn "
                        "(II/C)")
    if not may_build(b.fatigue):
        raise RuleError("17.34", f"{b.unit}: a brigade at Fatigue 2 or worse may not build")


def _material(board: Board, h: Hex) -> bool:
    info = board.hexes[h]
    return info.terrain in MATERIAL_TERRAIN or bool(MATERIAL_FEATURES & set(info.features))


def material_source(board: Board, site: Hex, enemy: Collection[Hex]) -> Hex | None:
    """The nearest hex of woods, orchard, town or with buildings reachable from ``site`` in at
    most three steps through hexes none of which is an enemy's or next to one (002 §15.12);
    ties go to the smallest hex. None when there is none."""
    def safe(h: Hex) -> bool:
        return h in board.hexes and h not in enemy and \
            not any(n in enemy for n in h.neighbours())

    if not safe(site):
        return None
    frontier, seen = [site], {site}
    for _ in range(MATERIAL_REACH + 1):
        found = sorted(h for h in frontier if _material(board, h))
        if found:
            return found[0]
        nxt: list[Hex] = []
        for h in frontier:
            for n in h.neighbours():
                if n not in seen and safe(n):
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return None


#: :func:`material_source`'s answers by (site, enemy hexes), for one board: the search is
#: pure, and the same sites and enemy recur at every legal list of an orders segment
#: (002 §15.12). A game keeps one (``material_sources``, with its other caches).
Sources = dict[tuple[Hex, frozenset[Hex]], Hex | None]
SOURCES_KEPT = 20_000  # answers a Sources holds before it starts again


def _source(board: Board, site: Hex, enemy: Collection[Hex],
            kept: Sources | None) -> Hex | None:
    """:func:`material_source`, kept in ``kept`` when ``enemy`` is a frozenset."""
    if kept is None or not isinstance(enemy, frozenset):
        return material_source(board, site, enemy)
    key = (site, enemy)
    if key not in kept:
        if len(kept) >= SOURCES_KEPT:
            kept.clear()
        kept[key] = material_source(board, site, enemy)
    return kept[key]


def check_site(board: Board, site: Hex, enemy: Collection[Hex], *,
               markers_here: int, sources: Sources | None = None) -> Hex:
    """002 §15.12: the site may take a breastwork; returns the material hex it draws on.
    ``markers_here`` counts breastworks placed and building in the hex; ``sources``: the
    caller's kept answers of the material search for this board (:data:`Sources`)."""
    if site not in board.hexes:
        raise RuleError("15.12", f"{site} is not on the map")
    info = board.hexes[site]
    if info.terrain in NO_BUILD_TERRAIN:
        raise RuleError("15.12", f"no breastworks in {info.terrain} ({info.id})")
    if markers_here >= MAX_PER_HEX:
        raise RuleError("15.12", f"{info.id} already holds {MAX_PER_HEX} breastworks")
    if site in enemy or any(n in enemy for n in site.neighbours()):
        raise RuleError("15.12", f"{info.id} is next to an enemy unit")
    src = _source(board, site, enemy, sources)
    if src is None:
        raise RuleError("15.12", f"{info.id} has no woods, orchard, town or building within "
                        "3 hexes along hexes clear of the enemy")
    return src


# --- time (§15.13-15.15) -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Construction:
    """A construction marker: who builds, where, the vertex to guard, and when it began."""

    unit: str
    hex: Hex
    vertex: int
    started: int  # turn index (turn track)
    night: bool  # begun on a night turn: one turn's work (§15.13)

    def to_json(self) -> dict[str, object]:
        return {"unit": self.unit, "hex": [self.hex.q, self.hex.r], "vertex": self.vertex,
                "started": self.started, "night": self.night}


def start(b: Builder, board: Board, site: Hex, vertex: int, enemy: Collection[Hex], *,
          turn: int, light: Light, markers_here: int,
          building: Collection[Construction] = (),
          sources: Sources | None = None) -> Construction:
    """Place a construction marker in the Engineering Phase (002 §15.11-15.13, §15.15): the
    builder faces ``vertex``; one construction per unit (an extended line's parts build
    each in its own hex). ``sources``: as :func:`check_site`'s."""
    check_builder(b)
    check_site(board, site, enemy, markers_here=markers_here, sources=sources)
    if not 0 <= vertex <= 5:
        raise RuleError("15.21", f"a breastwork guards the two hexsides of a vertex 0..5, not "
                        f"{vertex}")
    if any(c.unit == b.unit and c.hex == site for c in building):
        raise RuleError("15.15", f"{b.unit} is already building in that hex")
    return Construction(b.unit, site, vertex, turn, light == "night")


def turns_needed(light: Light) -> int:
    """Two full turns, or one begun at night (002 §15.13)."""
    return 1 if light == "night" else 2


def completes(c: Construction, turn: int) -> bool:
    """Whether the marker flips in this turn's Replacement/Recovery Phase (IV/B, §15.13)."""
    return turn == c.started + (1 if c.night else 2) - 1


Interruption = Literal["attack_orders", "left_hex", "other_action", "shocked", "fatigue"]


def interruption(c: Construction, *, orders: str, hex_now: Hex | None,
                 actions: Iterable[str] = (), shocked: bool = False,
                 fatigue: int = 0) -> Interruption | None:
    """What, if anything, ends the work (002 §15.14): Attack orders, leaving the hex, any
    action but building (out-of-phase fire included), a shock on the hex, or the brigade's
    fatigue reaching 2. Being out of command or the brigadier's losing the right to change
    orders does not. Free facing changes do not count as actions (§15.13 has the builder
    already facing its work)."""
    if orders == "attack":
        return "attack_orders"
    if hex_now != c.hex:
        return "left_hex"
    if any(a not in ("build", "none") for a in actions):
        return "other_action"
    if shocked:
        return "shocked"
    if not may_build(fatigue):
        return "fatigue"
    return None


def crossed(breastworks: Iterable[Breastwork], frm: Hex, to: Hex) -> tuple[Breastwork, ...]:
    """The markers a combat unit moving ``frm``->``to`` removes by crossing their hexside
    (002 §15.17; the extra MP is the Terrain chart's, paid in movement.py)."""
    side = Hexside.between(frm, to)
    return tuple(sorted(bw for bw in breastworks if side in bw.hexsides()))


# --- effects (§15.21, §15.23, E-8) ---------------------------------------------------------
def _through(bw: Breastwork, other: Hex) -> bool:
    """A line from ``bw.hex`` to ``other`` crosses a guarded hexside; a line exactly through
    a corner counts when either hexside at that corner is guarded (the benefit of the
    doubt goes to the works' holder, as §10.81's corner rule does for flanks)."""
    d = exit_side(bw.hex, other)
    if d is not None:
        return d in bw.sides()
    delta = other - bw.hex
    for v in range(6):
        corner = Hex(0, 0).neighbour(v) + Hex(0, 0).neighbour((v + 1) % 6)
        if corner.q * delta.r - corner.r * delta.q == 0 and \
                corner.q * delta.q + corner.r * delta.r + corner.s * delta.s > 0:
            return v in bw.sides() or (v + 1) % 6 in bw.sides()
    return False


def covers(breastworks: Iterable[Breastwork], h: Hex, other: Hex) -> bool:
    """Whether works in ``h`` stand between it and ``other`` (002 §15.21)."""
    return any(bw.hex == h and _through(bw, other) for bw in breastworks)


FireKind = Literal["small_arms", "canister", "shell"]


def fire_out_drm(breastworks: Iterable[Breastwork], firer: Hex, target: Hex, *,
                 kind: FireKind) -> int:
    """+1 to small-arms fire out through a guarded hexside; artillery gets nothing
    (002 §15.23)."""
    return 1 if kind == "small_arms" and covers(breastworks, firer, target) else 0


def fire_in_drm(breastworks: Iterable[Breastwork], target: Hex, firer: Hex, *,
                kind: FireKind, target_class: str) -> int:
    """-1 to fire at infantry or dismounted cavalry behind a guarded hexside by small arms or
    canister; none against shell or for other targets (002 §15.23)."""
    if kind == "shell" or target_class != "infantry":
        return 0
    return -1 if covers(breastworks, target, firer) else 0


def _shock_covered(breastworks: Collection[Breastwork], defender: Hex,
                   attackers: Collection[Hex]) -> bool:
    # Reading: the works help only when every attacking hex comes across them; an attack
    # also from an open side goes around them.
    return bool(attackers) and all(covers(breastworks, defender, a) for a in attackers)


def pre_shock_drm(breastworks: Collection[Breastwork], defender: Hex,
                  attackers: Collection[Hex]) -> int:
    """-1 to the defender's pre-shock check (002 §15.23, §11.37)."""
    return -1 if _shock_covered(breastworks, defender, attackers) else 0


def shock_defence_drm(breastworks: Collection[Breastwork], defender: Hex,
                      attackers: Collection[Hex]) -> int:
    """-1 to the shock roll when defending behind works (002 §15.23; the Terrain chart's -1
    is this one, E-8: never both)."""
    return -1 if _shock_covered(breastworks, defender, attackers) else 0


def from_board(board: Board, vertices: Mapping[Hex, tuple[int, ...]]) -> tuple[Breastwork, ...]:
    """The scenario's ready-made works (004 Day 2, E-18): ``board.hexes[h].breastworks``
    markers per hex, each oriented by the owner (``vertices[h]``) (004 sc.4.5; E-18)."""
    out: list[Breastwork] = []
    for h, info in sorted(board.hexes.items()):
        if info.breastworks:
            vs = vertices.get(h, ())
            if len(vs) != info.breastworks:
                raise RuleError("15.21", f"{info.id} holds {info.breastworks} breastworks: "
                                f"give that many vertices, not {len(vs)}")
            out.extend(Breastwork(h, v) for v in vs)
    return tuple(out)


def towards_vertex(h: Hex, enemies: Collection[Hex]) -> int:
    """The vertex whose two front hexes lie nearest the nearest enemy (lowest index on a
    tie; 0 with no enemy): how the engine orients a set-up marker the book leaves to its
    owner (004 sc. 4.5: "as the Union player likes"), facing the works to the foe."""
    if not enemies:
        return 0
    target = min(enemies, key=lambda e: (h.distance(e), e.q, e.r))
    return min(range(6), key=lambda v: (h.neighbour(v).distance(target)
                                        + h.neighbour((v + 1) % 6).distance(target), v))


def setup_vertices(h: Hex, markers: int, enemies: Collection[Hex]) -> tuple[int, ...]:
    """The vertices of ``markers`` set-up markers in ``h`` (004 sc. 4.5): one looks at the
    nearest enemy; two guard the four sides of that corner (vertices either side of it, so
    the four hexsides around the enemy's direction), as the book asks for B5013."""
    w = towards_vertex(h, enemies)
    if markers == 1:
        return (w,)
    if markers == 2:
        return tuple(sorted(((w - 1) % 6, (w + 1) % 6)))
    raise RuleError("15.12", f"at most {MAX_PER_HEX} breastworks a hex, not {markers}")
