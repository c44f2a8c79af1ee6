"""Shock (002 §11): who may and must shock, designation, withdrawal before shock, the
green and pre-shock checks, strengths and the ratio, position and the other DRMs, the
Shock Resolution Table, continued shock, the automatic post-shock disorder, cavalry
charges and Blown cavalry, artillery in shock.

Pure functions over :class:`~gettysburg.gbacw.combatant.Combatant` records; dice come in
as a :class:`~gettysburg.core.dice.Dice` and every roll is returned in a record that names
its section, ready to become an event. Retreats, routs and advances are in
:mod:`gettysburg.gbacw.retreat`. Pre-shock reaction fire (§11.38) belongs to the fire
modules; the engine runs it between :func:`pre_shock_check` and :func:`resolve`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from gettysburg.core.dice import Dice
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError

from .board import Board
from .charts import all_charts
from .charts.datafile import ChartLookupError
from .charts.shock import Ratio, ShockResult
from .charts.terrain import TerrainChart, UnitClass
from .combatant import Check, Combatant, Disorder, check, disorder, stack_losses
from .facing import aspect_of
from .retreat import RetreatOptions, Surroundings, retreat_options

# --- eligibility (002 §11.12, §11.21-11.22, §11.61) ---------------------------------------


def check_may_shock(u: Combatant, *, active_brigade: str, enemy: Collection[Hex],
                    coordinated: Collection[str] = (),
                    rallied: bool = False, built: bool = False,
                    entered_by_exception: bool = False, turned_after_entering: bool = False,
                    closed: Collection[Hex] = ()) -> None:
    """002 §11.12: a unit may shock only if it is on Advance or Attack orders, of the active
    brigade (or of the ``coordinated`` brigades acting with it, §5.34), has neither rallied
    nor built, has an enemy in a front hex, did not enter its
    hex by the §9.42 exception nor turn after entering, and the hexside to the enemy is not
    closed to movement (``closed``: front hexes it may not move into). Artillery never
    shocks (§11.61); a column never does (§8.5, see extension.check_column_shock)."""
    if u.kind == "artillery":
        raise RuleError("11.61", f"{u.unit}: artillery never shocks")
    if u.orders not in ("advance", "attack"):
        raise RuleError("11.12", f"{u.unit}: only units on Advance or Attack orders shock")
    if u.brigade != active_brigade and u.brigade not in coordinated:  # a group: §5.34
        raise RuleError("11.12", f"{u.unit}: only the active brigade's units shock")
    if rallied or built:
        raise RuleError("11.12", f"{u.unit}: a unit that rallied or built does not shock")
    if entered_by_exception:
        raise RuleError("11.12", f"{u.unit} entered its hex by the 9.42 exception")
    if turned_after_entering:
        raise RuleError("11.12", f"{u.unit} changed facing after entering its hex")
    targets = [h for h in sorted(u.fronts()) if h in enemy and h not in closed]
    if not targets:
        raise RuleError("11.12", f"{u.unit}: no enemy in a front hex it could move into")


def infantry_charge(u: Combatant, *, moved_adjacent: bool) -> bool:
    """002 §11.21: infantry (or dismounted cavalry) on Attack orders that moved adjacent to
    an enemy this phase without firing is charging."""
    return (u.kind == "infantry" and u.orders == "attack" and moved_adjacent
            and not u.fired)


def mandatory_shock(u: Combatant, *, moved_adjacent: bool) -> str | None:
    """002 §11.21: why ``u`` must shock (an infantry charge, mounted cavalry that moved
    adjacent without firing, a cavalry charge), or None when shock is its choice (§11.22)."""
    if u.kind == "mounted_cavalry" and u.charging:
        return "cavalry-charge"
    if u.charging or infantry_charge(u, moved_adjacent=moved_adjacent):
        return "infantry-charge"
    if u.kind == "mounted_cavalry" and moved_adjacent and not u.fired:
        return "mounted-cavalry"
    return None


# --- designation and combining (002 §11.31-11.32) -----------------------------------------


@dataclass(frozen=True, slots=True)
class Shock:
    """One designated shock: the attacking units and the defending units (002 §11.31)."""

    attackers: tuple[str, ...]
    defenders: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {"attackers": list(self.attackers), "defenders": list(self.defenders)}


def stack(units: Iterable[Combatant], h: Hex) -> tuple[Combatant, ...]:
    """The units in ``h``, top first (``units`` is in stack order) (002 §8.23, §8.3)."""
    return tuple(u for u in units if h in u.hexes)


def _hexes(units: Iterable[Combatant]) -> set[Hex]:
    return {h for u in units for h in u.hexes}


def _connected(hexes: set[Hex]) -> bool:
    if not hexes:
        return True
    todo = [min(hexes)]
    seen = {todo[0]}
    while todo:
        h = todo.pop()
        for n in h.neighbours():
            if n in hexes and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == hexes


def check_designation(shocks: Sequence[Shock], units: Sequence[Combatant]) -> None:
    """002 §11.31-11.32: the attacker's designations for one shock step.

    * each attacker is in one shock only (a unit never splits its strength, extended
      lines included) and each shock has attackers and defenders of opposite sides;
    * every defender lies in a front hex of one of its attackers, and a shocked hex is
      shocked whole (the defenders of a hex combine; abandoned guns do not count);
    * a shock has one attacking hex or one defending hex, unless an extended line takes
      part; its attackers' hexes are adjacent to each other; infantry never combines with
      mounted cavalry, nor charging cavalry with cavalry that is not charging;
    * adjacent infantry shocking the same defender must combine into one shock;
    * every enemy in a front hex of a designated attacker is shocked by someone.
    """
    by_id = {u.unit: u for u in units}
    seen: set[str] = set()
    for i, s in enumerate(shocks):
        if not s.attackers or not s.defenders:
            raise RuleError("11.31", f"shock {i}: name attackers and defenders")
        for name in (*s.attackers, *s.defenders):
            if name not in by_id:
                raise RuleError("11.31", f"shock {i}: no unit {name!r}")
        att = [by_id[a] for a in s.attackers]
        dfn = [by_id[d] for d in s.defenders]
        for a in att:
            if a.unit in seen:
                raise RuleError("11.32", f"{a.unit} is in two shocks; a unit never splits "
                                "its strength")
            seen.add(a.unit)
        sides = {a.side for a in att}
        if len(sides) != 1 or any(d.side in sides for d in dfn):
            raise RuleError("11.31", f"shock {i}: attackers of one side against the other's")
        fronts = set().union(*(a.fronts() for a in att))
        for d in dfn:
            if not set(d.hexes) & fronts:
                raise RuleError("11.31", f"shock {i}: {d.unit} is in no attacker's front hex")
        dhexes = {h for d in dfn for h in d.hexes if h in fronts}
        for h in dhexes:
            missing = [u.unit for u in stack(units, h)
                       if u.side not in sides and not u.abandoned and u.unit not in s.defenders]
            if missing:
                raise RuleError("11.32", f"shock {i}: the units of {h} combine; add "
                                f"{', '.join(missing)}")
        ahexes = _hexes(att)
        extended = any(u.extended for u in (*att, *dfn))
        if len(ahexes) > 1 and len(dhexes) > 1 and not extended:
            raise RuleError("11.31", f"shock {i}: one attacking hex or one defending hex "
                            "(unless an extended line takes part)")
        if not _connected(ahexes):
            raise RuleError("11.32", f"shock {i}: attackers that are not adjacent cannot "
                            "combine")
        kinds = {a.kind for a in att}
        if "infantry" in kinds and "mounted_cavalry" in kinds:
            raise RuleError("11.32", f"shock {i}: infantry never combines with mounted "
                            "cavalry")
        cav = [a for a in att if a.kind == "mounted_cavalry"]
        if cav and len({a.charging for a in cav}) > 1:
            raise RuleError("11.32", f"shock {i}: charging cavalry never combines with "
                            "cavalry that is not charging")
    for i, s in enumerate(shocks):
        for j in range(i + 1, len(shocks)):
            t = shocks[j]
            if not set(s.defenders) & set(t.defenders):
                continue
            inf_s = {h for a in s.attackers if by_id[a].kind == "infantry"
                     for h in by_id[a].hexes}
            inf_t = {h for a in t.attackers if by_id[a].kind == "infantry"
                     for h in by_id[a].hexes}
            if any(a.distance(b) <= 1 for a in inf_s for b in inf_t):
                raise RuleError("11.32", f"shocks {i} and {j}: adjacent infantry shocking the "
                                "same defender must combine")
    shocked = {d for s in shocks for d in s.defenders}
    for name in sorted(seen):
        a = by_id[name]
        for h in sorted(a.fronts()):
            for u in stack(units, h):
                if u.side != a.side and not u.abandoned and u.unit not in shocked:
                    raise RuleError("11.31", f"{u.unit} in {name}'s front hex {h} must be "
                                    "shocked by someone")


# --- withdrawal before shock (002 §11.33-11.35) -------------------------------------------


def check_withdrawal_before_shock(defender: Combatant, attackers: Sequence[Combatant]) -> None:
    """002 §11.33: a non-phasing unit about to be shocked by infantry may withdraw, unless
    it is on Attack or March orders, is artillery, or any attacker is mounted cavalry."""
    if defender.kind == "artillery":
        raise RuleError("11.33", f"{defender.unit}: artillery never withdraws before shock")
    if defender.orders in ("attack", "march"):
        raise RuleError("11.33", f"{defender.unit}: units on {defender.orders.title()} "
                        "orders do not withdraw before shock")
    if any(a.kind == "mounted_cavalry" for a in attackers):
        raise RuleError("11.33", f"{defender.unit}: no withdrawal from mounted cavalry")


def withdrawal_distance(defender: Combatant) -> int:
    """002 §11.33: infantry (and dismounted cavalry) go one hex, mounted cavalry up to two."""
    return 2 if defender.kind == "mounted_cavalry" else 1


def after_withdrawal(dice: Dice, defender: Combatant) -> Disorder | None:
    """002 §11.33, §12.34: a disordered unit that withdrew takes a UDD; failing it is a
    second disorder from withdrawal before shock (the 2nd Disorder Table)."""
    if not defender.disordered:
        return None
    c = check(dice, defender, "withdrawal before shock", "11.33")
    if c.passed:
        return Disorder(defender.unit, "withdrawal-before-shock", "11.33", checks=(c,))
    d = disorder(dice, defender, "withdrawal-before-shock")
    return Disorder(d.unit, d.cause, d.rule, d.disordered, d.second, d.sp_loss, d.retreat,
                    d.rout, d.abandoned, d.blown, d.stop, (c, *d.checks))


# --- green commitment check (002 §11.36, §14.1) -------------------------------------------


def green_check(dice: Dice, u: Combatant) -> Check | None:
    """002 §11.36: a green attacker must pass a UDD to shock; failing it never disorders,
    and it still counts as an attempt for the designation rule (§11.31)."""
    if not u.green:
        return None
    return check(dice, u, "green commitment", "11.36")


# --- the defender's pre-shock cohesion check (002 §11.37, §11.55, §11.62) -----------------

PreShockOutcome = Literal["holds", "disordered", "rout", "abandoned"]


@dataclass(frozen=True, slots=True)
class PreShock:
    """The pre-shock check of one defending stack: the DRM ids used, the top unit's roll,
    and what befell each unit (a :class:`Disorder` per unit that took a result)."""

    drm_ids: tuple[str, ...]
    roll: Check
    results: tuple[Disorder, ...]
    losses: dict[str, int]

    @property
    def vacated(self) -> bool:
        """No unit is left to defend (every one routed, was abandoned or must retreat);
        002 §11.47 then offers continued shock."""
        return bool(self.results) and all(r.rout or r.abandoned or r.retreat
                                          for r in self.results)

    def to_json(self) -> dict[str, object]:
        return {"rule": "11.37", "drms": list(self.drm_ids), "roll": self.roll.to_json(),
                "results": [r.to_json() for r in self.results], "losses": self.losses}


def pre_shock_drm_ids(defender: Combatant, attackers: Sequence[Combatant], *,
                      behind_breastworks: bool = False,
                      favourable_terrain: bool = False) -> tuple[str, ...]:
    """The fixed DRMs of the pre-shock check (002 §11.37, §11.55, §15.23; the Shock chart):
    March orders, disordered, shocked through a flank or rear hex (whether or not the
    attacker gets a position DRM), charged by cavalry (not against mounted cavalry, nor a
    defender with favourable terrain), behind breastworks."""
    ids: list[str] = []
    if defender.orders == "march":
        ids.append("march-orders")
    if defender.disordered:
        ids.append("disordered")
    if any(aspect in ("flank", "rear") for aspect in _aspects(defender, attackers)):
        ids.append("flank-or-rear")
    if (any(a.charging and a.kind == "mounted_cavalry" for a in attackers)
            and defender.kind != "mounted_cavalry" and not favourable_terrain):
        ids.append("charged-by-cavalry")
    if behind_breastworks:
        ids.append("breastworks")
    return tuple(ids)


def _aspects(defender: Combatant, attackers: Iterable[Combatant]) -> set[str]:
    out: set[str] = set()
    for d in defender.hexes:
        for a in attackers:
            for h in a.hexes:
                if h.distance(d) == 1 and h not in defender.hexes:
                    out.add(defender.aspect(d, h))  # a column's per 002 §8.51
    return out


def pre_shock_check(dice: Dice, defenders: Sequence[Combatant],
                    drm_sets: Sequence[Sequence[str]], *,
                    continued: bool = False) -> PreShock | None:
    """002 §11.37: the top unit of a defending stack takes one UDD, with the worst DRMs of
    every shock against it (§11.32; ``drm_sets`` one per shock). Failing disorders the
    whole stack (a second disorder for units already disordered; disordered artillery is
    abandoned, §11.62). A stack on March orders is disordered if it passes and routs (its
    artillery abandoned) if it fails. None in continued shock, which has no check."""
    if continued:
        return None
    if not defenders:
        raise ValueError("a pre-shock check needs the defending stack")
    chart = all_charts().shock
    worst = max(drm_sets, key=lambda ids: chart.pre_shock_drm(ids), default=())
    top = defenders[0]
    c = check(dice, top, "pre-shock check", "11.37", drm=chart.pre_shock_drm(worst))
    results: list[Disorder] = []
    march = top.orders == "march"
    if march and not c.passed:
        for u in defenders:
            if u.kind == "artillery":
                results.append(Disorder(u.unit, "pre-shock-check", "11.37", abandoned=True))
            else:
                results.append(Disorder(u.unit, "pre-shock-check", "11.37", rout=True))
    elif march or not c.passed:
        for u in defenders:
            if u.kind == "artillery" and u.disordered:
                results.append(Disorder(u.unit, "pre-shock-check", "11.62", second=True,
                                        abandoned=True))
            else:
                results.append(disorder(dice, u, "pre-shock-check"))
    return PreShock(tuple(worst), c, tuple(results), stack_losses(tuple(defenders),
                                                                  tuple(results)))


# --- strength and ratio (002 §11.43, §11.55, §11.63, §14.25) ------------------------------


def horse_holders(sp: int) -> int:
    """002 §14.25: dismounted cavalry leaves one SP of every full four holding the horses."""
    if sp < 0:
        raise ValueError("sp cannot be negative")
    return sp // 4


def artillery_shock_sp(guns: int) -> int:
    """002 §11.63: artillery on top of a stack (or alone) adds 1 SP per four guns in the
    hex, rounded down, at least 1."""
    return max(1, guns // 4) if guns > 0 else 0


def unit_shock_sp(u: Combatant, *, attacking: bool, cover: Collection[Hex] = (),
                  target_cover: bool = False, flank_or_rear: bool = False) -> Fraction:
    """One non-artillery unit's strength in a shock (002 §11.43, §11.55, §14.25): dismounted
    cavalry less its horse holders; mounted cavalry charging a flank or rear doubled, and
    halved (as well) when it attacks or charges into woods or town (``target_cover``) or
    defends there (its hex in ``cover``)."""
    if u.kind == "artillery":
        raise ValueError("artillery strength is artillery_shock_sp (002 §11.63)")
    sp = Fraction(u.sp)
    if u.dismounted_cavalry:
        sp -= horse_holders(u.sp)
    if u.kind == "mounted_cavalry":
        if attacking and u.charging and flank_or_rear:
            sp *= 2
        in_cover = target_cover if attacking else any(h in cover for h in u.hexes)
        if in_cover:
            sp /= 2
    return sp


def hex_shock_sp(units: Sequence[Combatant], *, attacking: bool, cover: Collection[Hex] = (),
                 target_cover: bool = False, flank_or_rear: bool = False) -> Fraction:
    """Strength of a stack (top first) in shock: its non-artillery units, plus, when
    artillery is on top or alone, 1 SP per four guns in the hex (002 §11.63). Artillery
    lower in the stack and abandoned guns add nothing."""
    live = [u for u in units if not u.abandoned]
    total = sum((unit_shock_sp(u, attacking=attacking, cover=cover,
                               target_cover=target_cover, flank_or_rear=flank_or_rear)
                 for u in live if u.kind != "artillery"), Fraction(0))
    if live and live[0].kind == "artillery":
        total += artillery_shock_sp(sum(u.sp for u in live if u.kind == "artillery"))
    return total


def side_shock_sp(side: Sequence[Combatant], *, attacking: bool, cover: Collection[Hex] = (),
                  target_cover: bool = False, flank_or_rear: bool = False) -> Fraction:
    """A side's strength: each unit once, an extended line at its full SP (002 §11.32
    examples 2-4), the artillery bonus of each hex whose stack has artillery on top."""
    seen: set[Hex] = set()
    total = Fraction(0)
    for u in side:
        if u.kind != "artillery" and not u.abandoned:
            total += unit_shock_sp(u, attacking=attacking, cover=cover,
                                   target_cover=target_cover, flank_or_rear=flank_or_rear)
    arts: dict[Hex, list[Combatant]] = {}
    for u in side:
        if u.kind == "artillery" and not u.abandoned:
            arts.setdefault(u.hex, []).append(u)
    for h, batteries in arts.items():
        if h in seen:
            continue
        seen.add(h)
        top = next(u for u in side if h in u.hexes and not u.abandoned)
        if top.kind == "artillery":
            total += artillery_shock_sp(sum(b.sp for b in batteries))
    return total


def defender_terrain(terrain_drm: int, terrain_ids: Sequence[str] = ()) -> bool:
    """Whether the defender gets a terrain DRM in its favour (002 §11.43, §11.55): any of the
    Terrain chart ids met helps it (woods and a downhill attack that cancel out still count),
    or, without ids, the sum is below 0."""
    if terrain_ids:
        tc = all_charts().terrain
        return any((tc.get(i).shock_drm or 0) < 0 for i in terrain_ids)
    return terrain_drm < 0


def rounds_for_attacker(attackers: Sequence[Combatant], *, terrain_drm: int,
                        continued: bool, terrain_ids: Sequence[str] = ()) -> bool:
    """002 §11.43: round toward the attacker when every attacker moved this phase and the
    defender has no terrain DRM; never in continued shock (§11.47)."""
    return (not continued and not defender_terrain(terrain_drm, terrain_ids)
            and all(a.moved for a in attackers))


def shock_ratio(attacker_sp: Fraction, defender_sp: Fraction, *, favour_attacker: bool) -> Ratio:
    """002 §11.43: the ratio of the Shock chart, rounded as ``favour_attacker`` says and
    clamped to 1:4…5:1. 5 SP against 3: 2:1 rounding toward the attacker, 1.5:1 else."""
    if attacker_sp <= 0 or defender_sp <= 0:
        raise RuleError("11.43", "both sides need a strength above 0 to shock")
    ratios = all_charts().shock.ratios  # weakest first
    exact = Fraction(attacker_sp) / Fraction(defender_sp)  # exact: 1:3 must stay 1:3
    if favour_attacker:
        return next((r for r in ratios if r.value >= exact), ratios[-1])
    return next((r for r in reversed(ratios) if r.value <= exact), ratios[0])


# --- position (002 §11.44; decision E-7) --------------------------------------------------


def position_id(aspects: Collection[str], *, surrounded: bool) -> str | None:
    """The Shock chart's position row for the aspects shocked through (E-7) (002 §11.44; E-7)."""
    if surrounded:
        return "surrounded"
    f, fl, r = "front" in aspects, "flank" in aspects, "rear" in aspects
    if fl and r:
        return "flank-rear"
    if f and fl:
        return "front-flank"
    if f and r:
        return "front-rear"
    if r:
        return "rear"
    if fl:
        return "flank"
    return None


def is_surrounded(defender_hex: Hex, shockers: Sequence[Combatant]) -> bool:
    """002 §11.44: every hex around the defender holds a unit shocking it or is a front hex
    of such a unit (whether or not those shockers combine)."""
    held = _hexes(shockers)
    fronts: set[Hex] = set().union(*(s.fronts() for s in shockers)) if shockers else set()
    return all(n in held or n in fronts for n in defender_hex.neighbours())


def position(defenders: Sequence[Combatant], shockers: Sequence[Combatant]) -> str | None:
    """002 §11.44: the position DRM id of a shock on ``defenders``: ``shockers`` are all the
    units shocking them this step (non-adjacent shocks each get the position of all; green
    units that failed their check are left out by the caller). For a defence of several
    hexes the one best for the defender stands (§11.42)."""
    chart = all_charts().shock
    best: str | None = None
    best_drm: int | None = None
    for d in defenders:  # a column is one solid unit with one front and rear (002 §8.5, §8.51)
        if d.column and len(d.hexes) > 1:
            pid = _column_position(d, shockers)
            drm = chart.drm([pid]) if pid else 0
            if best_drm is None or drm < best_drm:
                best, best_drm = pid, drm
    for h in sorted(attacked_hexes(defenders, shockers)):
        top = next(d for d in defenders if h in d.hexes)
        aspects = {aspect_of(h, top.facing, x) for s in shockers for x in s.hexes
                   if x.distance(h) == 1}
        parts = {p for d in defenders if h in d.hexes for p in d.hexes}
        pid = position_id(aspects, surrounded=_ring_closed(parts, shockers))
        drm = chart.drm([pid]) if pid else 0
        if best_drm is None or drm < best_drm:
            best, best_drm = pid, drm
    return best


def attacked_hexes(defenders: Sequence[Combatant], shockers: Sequence[Combatant]) -> set[Hex]:
    """The defending hexes whose position counts (002 §11.42, §11.44, §8.46; the reading of
    docs/gbacw-decisions.md E-34): the hexes of the (non-column) defenders next to a
    shocker. A part of an extended line that no attacker touches is not shocked through
    and gives no aspect, so a line shocked at one end takes that end's position."""
    held = _hexes(shockers)
    return {h for d in defenders if not d.column for h in d.hexes
            if any(h.distance(x) == 1 for x in held)}


def _ring_closed(parts: set[Hex], shockers: Sequence[Combatant]) -> bool:
    """002 §11.44 surrounded, for a defender holding ``parts`` (one hex, or an extended
    line's two or three, a solid unit by §8.46): every hex around them is held by a shocker
    or is a shocker's front hex."""
    held = _hexes(shockers)
    fronts: set[Hex] = set().union(*(s.fronts() for s in shockers)) if shockers else set()
    around = {n for p in parts for n in p.neighbours()} - parts
    return bool(around) and around <= held | fronts


def _column_position(column: Combatant, shockers: Sequence[Combatant]) -> str | None:
    """The position of a shock on an extended column (002 §8.51, §11.44): the aspects of
    every shocker next to any of its hexes as the column reads them; surrounded when each
    hex around the whole column is held or fronted by its shockers."""
    parts = set(column.hexes)
    aspects = {column.aspect(p, x) for s in shockers for x in s.hexes for p in column.hexes
               if x.distance(p) == 1 and x not in parts}
    return position_id(aspects, surrounded=_ring_closed(parts, shockers))


def front_hex_penalty(attackers: Sequence[Combatant], targets: Collection[str],
                      enemies: Sequence[Combatant]) -> int:
    """002 §11.44 (004 chart note [a]): with a position DRM, one less for each attacking hex
    lying in a front hex of an enemy that is not a target of the shock."""
    fronts: set[Hex] = set()
    for e in enemies:
        if e.unit not in targets and not e.abandoned:
            fronts |= e.fronts()
    return sum(1 for h in _hexes(attackers) if h in fronts)


# --- terrain (002 §11.42; Terrain chart; decision E-8) ------------------------------------


def terrain_shock_drm(board: Board, attacker: Hex, defender: Hex, *,
                      breastworks: bool = False,
                      chart: TerrainChart | None = None) -> tuple[int, tuple[str, ...]]:
    """The Terrain chart's shock DRMs between one attacking and one defending hex: the
    defender's hex (a town, tdg.9.86; a farm, tdg.9.87), a stream on the hexside (its ford
    when a road crosses there), the slope (+1 attacking down a level), breastworks once
    (E-8). Returns the sum and the ids."""
    tc = chart or all_charts().terrain
    ids: list[str] = []
    info = board.hexes.get(defender)
    if info is None or attacker not in board.hexes:
        raise RuleError("11.42", f"{attacker} or {defender} is off the map")
    ids.append(info.terrain)
    if "farm" in info.features:  # tdg.9.87: a farm of several buildings helps the defender
        ids.append("farm")
    side = board.side(attacker, defender)
    if side is not None and side.stream:
        ids.append(side.stream)
    up = board.uphill(attacker, defender)
    steep = board.slope(attacker, defender) in ("steep", "sheer")
    if up == defender:
        ids.append("up-one-level-steep" if steep else "up-one-level")
    elif up == attacker:
        ids.append("down-one-level-steep" if steep else "down-one-level")
    if breastworks:
        ids.append("breastworks")
    total = 0
    used: list[str] = []
    for ident in ids:
        try:
            drm = tc.get(ident).shock_drm
        except ChartLookupError:  # ground the chart does not list gives no shock DRM
            continue
        if drm:
            total += drm
            used.append(ident)
    return total, tuple(used)


# --- the DRMs and the roll (002 §11.42-11.45, §11.55-11.56, §11.72) -----------------------


@dataclass(frozen=True, slots=True)
class Drm:
    """One modifier on the shock roll: its chart id, value and the section it comes from."""

    id: str
    value: int
    source: str

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "value": self.value, "source": self.source}


@dataclass(frozen=True, slots=True)
class Situation:
    """What the DRMs of one shock depend on besides the units (002 §11.42)."""

    terrain_drm: int = 0  # the defender's, the one best for it (§11.42)
    terrain_ids: tuple[str, ...] = ()
    position: str | None = None
    front_hex_penalty: int = 0
    continued: int = 0  # 0: the first shock; n: the n-th continued shock in succession
    counter_charged: bool = False
    no_brigadier: bool = False  # §11.72: decided when the brigade designated its shocks


def shock_drms(attackers: Sequence[Combatant], defenders: Sequence[Combatant], ratio: Ratio,
               sit: Situation) -> tuple[Drm, ...]:
    """Every DRM of one shock, each with its source (the Shock chart, 002 §11.42-11.47,
    §11.55-11.56, §11.72, §17.31). Positive helps the attacker."""
    chart = all_charts().shock
    out: list[Drm] = [Drm("ratio", ratio.drm, f"11.43 ({ratio.label})")]
    if sit.position:
        out.append(Drm(sit.position, chart.drm([sit.position]), "11.44; E-7"))
        if sit.front_hex_penalty:
            out.append(Drm("attacking-hex-in-other-front", -sit.front_hex_penalty, "11.44"))
    if sit.terrain_drm:
        out.append(Drm("terrain", sit.terrain_drm,
                       "11.42; TEC " + ", ".join(sit.terrain_ids) if sit.terrain_ids
                       else "11.42; TEC"))
    if any(d.disordered for d in defenders):
        out.append(Drm("any-defender-disordered", 1, "Shock chart"))
    if any(a.disordered for a in attackers):
        out.append(Drm("any-attacker-disordered", -1, "Shock chart"))
    charging = bool(attackers) and all(a.charging for a in attackers)
    if charging and not sit.continued:
        cav = any(a.kind == "mounted_cavalry" for a in attackers)
        if sit.counter_charged and not cav:
            out.append(Drm("charge-counter-charged", -1, "11.56"))
        elif sit.counter_charged:
            pass  # §11.56: counter-charged cavalry loses its charge benefits
        elif cav and defender_terrain(sit.terrain_drm, sit.terrain_ids):
            pass  # §11.55: no charge benefit against a defender with favourable terrain
        else:
            out.append(Drm("charge", 1, "11.21; 11.55"))
    if sit.no_brigadier:
        out.append(Drm("no-brigadier", -1, "11.72"))
    if any(a.aggressive_brigadier for a in attackers):
        out.append(Drm("aggressive-brigadier", 1, "11.72"))
    if any(a.orders == "advance" for a in attackers):
        out.append(Drm("attacker-advance-orders", -1, "Shock chart; E-25"))
    if sit.continued:
        out.append(Drm("successive-continued-shock", -sit.continued, "11.47"))
    fa = max((-(-a.fatigue // 2) for a in attackers), default=0)
    if fa:
        out.append(Drm("fatigue-attacker", -fa, "17.31"))
    fd = min((-(-d.fatigue // 2) for d in defenders), default=0)
    if fd:
        out.append(Drm("fatigue-defender", fd, "17.31"))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class ShockRoll:
    """The Shock Resolution Table read: the d10, every DRM, the modified roll and the row."""

    roll: int
    drms: tuple[Drm, ...]
    ratio: str
    modified: int
    result: ShockResult

    def to_json(self) -> dict[str, object]:
        return {"rule": "11.45", "roll": self.roll, "ratio": self.ratio,
                "drms": [d.to_json() for d in self.drms], "modified": self.modified,
                "row": self.result.id}


def resolve(dice: Dice, ratio: Ratio, drms: Sequence[Drm]) -> ShockRoll:
    """002 §11.45: roll the d10, add every DRM (no cap) and read the Shock table."""
    roll = dice.roll("shock resolution", rule="11.45", die="d10")
    modified = roll + sum(d.value for d in drms)
    row = all_charts().shock.result(modified)
    return ShockRoll(roll, tuple(drms), ratio.label, modified, row)


# --- the result (002 §11.45, §11.64-11.65, §12.21-12.23, §12.42, §12.51) ------------------


@dataclass(frozen=True, slots=True)
class Effects:
    """What a shock result did: SP lost per unit, each disorder, guns abandoned, routs, the
    retreat (in hexes, per unit), and the checks rolled."""

    losses: dict[str, int]
    disorders: tuple[Disorder, ...]
    retreats: dict[str, tuple[int, int]]
    routs: tuple[str, ...]
    abandoned: tuple[str, ...]
    checks: tuple[Check, ...]
    collapsed: tuple[str, ...] = ()  # newly below half their strength (§12.23)

    def to_json(self) -> dict[str, object]:
        return {"losses": self.losses, "disorders": [d.to_json() for d in self.disorders],
                "retreats": {k: list(v) for k, v in self.retreats.items()},
                "routs": list(self.routs), "abandoned": list(self.abandoned),
                "checks": [c.to_json() for c in self.checks],
                **({"collapsed": list(self.collapsed)} if self.collapsed else {})}


def _collapsing(side: Sequence[Combatant], losses: Mapping[str, int],
                already: Collection[str] = ()) -> list[str]:
    """002 §12.23: the non-artillery units these losses take below half their printed
    strength (an extended unit counts as one), not collapsed before and not eliminated."""
    out: list[str] = []
    for u in side:
        lost = losses.get(u.unit, 0)
        left = u.sp - lost
        if (lost and u.kind != "artillery" and not u.collapsed and u.unit not in already
                and u.printed_sp and left > 0 and 2 * left < u.printed_sp):
            out.append(u.unit)
    return out


def bloody_loser(side: Sequence[Combatant], *, defending: bool) -> Combatant | None:
    """002 §8.36, §11.64: a Bloody Standoff costs a side one SP in all, from its participant
    with the highest cohesion (the topmost of equals); a defending stack topped by artillery
    (or artillery alone) loses a gun instead."""
    live = [u for u in side if not u.abandoned and u.sp > 0]
    if not live:
        return None
    if defending and live[0].kind == "artillery":
        return live[0]
    troops = [u for u in live if u.kind != "artillery"] or live
    return max(troops, key=lambda u: (u.cohesion, -live.index(u)))


def apply_result(dice: Dice, row: ShockResult, side: Sequence[Combatant], *,
                 defending: bool) -> Effects:
    """The Shock table's row applied to one side (``side`` in stack order).

    Step losses come first (002 §12.21: a Bloody Standoff's one SP, §8.36, §11.64). Then
    disorder falls on every unit (a second disorder from shock when already disordered,
    rolled on the 2nd Disorder Table: rout, or 1 SP and a retreat of 1-2; artillery is
    abandoned, §11.65, §12.36); a stack loses at most one SP to second disorders
    (§12.35e). At 10+ defending artillery is abandoned (§11.64). A retreat takes the
    unit back the row's hexes, or a second disorder's 1-2 if longer. Last, one rout check
    per unit (§12.51): a defender at 10+, a collapsed unit that lost SP (§12.23: once only
    with the 10+ check), a Blown unit hit by disorder or loss (which also loses 1 SP more,
    §11.58)."""
    effect = row.defender if defending else row.attacker
    losses: dict[str, int] = {}
    if effect.sp_loss:
        loser = bloody_loser(side, defending=defending)
        if loser is not None:
            losses[loser.unit] = effect.sp_loss
    disorders: list[Disorder] = []
    retreats: dict[str, tuple[int, int]] = {}
    routs: list[str] = []
    abandoned: list[str] = []
    checks: list[Check] = []
    hit: set[str] = set(losses)
    # §12.21, §12.23: losses first; a unit they collapse is disordered at once, so the row's
    # disorder is a second one for it
    collapsed = _collapsing(side, losses)
    for u in side:
        if u.abandoned:
            continue
        if defending and effect.udd_or_rout and u.kind == "artillery":
            abandoned.append(u.unit)
            continue
        d: Disorder | None = None
        if effect.disordered:
            d = disorder(dice, u.with_(disordered=True, cohesion=u.cohesion_disordered)
                         if u.unit in collapsed and not u.disordered
                         and u.cohesion_disordered is not None else u, "shock-result")
            disorders.append(d)
            checks.extend(d.checks)
            hit.add(u.unit)
            if d.rout:
                routs.append(u.unit)
                continue
            if d.abandoned:
                abandoned.append(u.unit)
                continue
        low = high = effect.retreat
        if d is not None and d.retreat:
            low, high = max(low, d.retreat[0]), max(high, d.retreat[1])
        if high:
            retreats[u.unit] = (low, high)
    for k, v in stack_losses(tuple(side), tuple(disorders)).items():
        losses[k] = losses.get(k, 0) + v
    for k, v in blown_extra_losses(side, hit).items():
        losses[k] = losses.get(k, 0) + v
    collapsed += _collapsing([u for u in side if u.unit not in routs], losses, collapsed)
    for u in side:
        if u.unit in routs or u.unit in abandoned or u.abandoned or u.kind == "artillery":
            continue
        reasons = [defending and effect.udd_or_rout, u.collapsed and losses.get(u.unit, 0) > 0,
                   u.blown and u.unit in hit]
        if not any(reasons):
            continue
        rule = "12.51" if reasons[0] else "12.23" if reasons[1] else "11.58"
        fresh = any(d.unit == u.unit and d.disordered for d in disorders)
        c = check(dice, u, "rout check", rule,  # §12.31: the disordered face's cohesion now
                  cohesion=u.cohesion_disordered if fresh else None)
        checks.append(c)
        if not c.passed:
            routs.append(u.unit)
            retreats.pop(u.unit, None)
    return Effects(losses, tuple(disorders), retreats, tuple(routs), tuple(abandoned),
                   tuple(checks), tuple(collapsed))


def both_rout_keeper(attackers: Sequence[Combatant], defenders: Sequence[Combatant],
                     routs: Collection[str]) -> str | None:
    """002 §12.52: when both sides would rout, the one routing unit with the highest
    cohesion (less half its fatigue, rounded up) does not; on a tie the attacker keeps it.
    Abandoned guns are not counted. None unless both sides have a routing unit."""
    att = [u for u in attackers if u.unit in routs and u.kind != "artillery"]
    dfn = [u for u in defenders if u.unit in routs and u.kind != "artillery"]
    if not att or not dfn:
        return None

    def score(u: Combatant) -> int:
        return u.cohesion - -(-u.fatigue // 2)

    best_a = max(att, key=score)
    best_d = max(dfn, key=score)
    return best_a.unit if score(best_a) >= score(best_d) else best_d.unit


# --- continued shock (002 §11.47) ---------------------------------------------------------

Continuation = Literal["none", "may", "must"]


def attacker_continuation(row: ShockResult | None, attackers: Sequence[Combatant], *,
                          pre_shock_vacated: bool = False, continued: int = 0,
                          can_advance: bool = True) -> Continuation:
    """002 §11.47: after a failed pre-shock check that emptied the hex, or an adjusted 8+,
    chargers must continue and others may; after the first continued shock it is always a
    choice; units that cannot advance (stacking) may not."""
    if not can_advance or not attackers:
        return "none"
    if not (pre_shock_vacated or (row is not None and row.continued_shock == "attacker-may")):
        return "none"
    charging = any(a.charging for a in attackers)
    return "must" if charging and continued == 0 else "may"


def defender_may_counterattack(row: ShockResult, defenders: Sequence[Combatant]) -> bool:
    """002 §11.47, §11.64: after an adjusted 1 or less the defender may continue the shock
    (counter-attack) with its units that are not artillery."""
    return row.continued_shock == "defender-may" and any(
        d.kind != "artillery" and not d.abandoned for d in defenders)


def check_continued_advance(board: Board, path: Sequence[Hex], *, start: Hex,
                            enemy: Collection[Hex], costs: Sequence[int],
                            already_adjacent: bool) -> None:
    """002 §11.47: before a continued shock the units may advance one or two more hexes
    (none if already adjacent to an enemy after the 6c advance), never into a hex costing
    more than 2 MP (``costs``, the MP of each entry; impassable ground is the caller's),
    stopping on coming adjacent to an enemy."""
    if already_adjacent and path:
        raise RuleError("11.47", "already adjacent to an enemy: no further advance")
    if len(path) > 2:
        raise RuleError("11.47", "a continued shock advances at most two more hexes")
    if len(costs) != len(path):
        raise ValueError("give one cost per hex entered")
    prev = start
    for i, (h, mp) in enumerate(zip(path, costs, strict=True)):
        if h not in board.hexes or prev.distance(h) != 1:
            raise RuleError("11.47", f"{h} is not a hex next to {prev}")
        if h in enemy:
            raise RuleError("11.47", f"{h} holds an enemy")
        if mp > 2:
            raise RuleError("11.47", f"{h} costs {mp} MP; more than 2 is barred")
        if i < len(path) - 1 and any(n in enemy for n in h.neighbours()):
            raise RuleError("11.47", f"the advance stops at {h}, next to an enemy")
        prev = h


# --- automatic post-shock disorder (002 §11.48, §12.35d) ----------------------------------


@dataclass(frozen=True, slots=True)
class PostShock:
    """Automatic post-shock disorder: units newly disordered, units Blown, SP losses (which
    never cause leader casualties, §11.48)."""

    disordered: tuple[str, ...]
    blown: tuple[str, ...]
    losses: dict[str, int]

    def to_json(self) -> dict[str, object]:
        return {"rule": "11.48", "disordered": list(self.disordered),
                "blown": list(self.blown), "losses": self.losses}


def post_shock_disorder(attackers: Sequence[Combatant], defenders: Sequence[Combatant], *,
                        exempt: bool = False, routed: Collection[str] = ()) -> PostShock:
    """002 §11.48 after a shock (or a chain of continued shocks), on the units that took
    part in step 6b and did not rout (``attackers``: the side that rolled):

    * attacking infantry and dismounted cavalry in good order are disordered;
    * each attacking stack with a unit already disordered loses 1 SP (§12.35d, e);
    * mounted cavalry of either side in good order is disordered, disordered becomes Blown.

    ``exempt``: the defender withdrew before shock or left on its pre-shock check; the
    attacker then suffers nothing (the cavalry rule still holds for the defender)."""
    disordered: list[str] = []
    blown: list[str] = []
    losses: dict[str, int] = {}
    if not exempt:
        stacks: dict[Hex, list[Combatant]] = {}
        for a in attackers:
            if a.unit in routed:
                continue
            stacks.setdefault(a.hex, []).append(a)
            if a.kind == "infantry" and not a.disordered:
                disordered.append(a.unit)
        for h in sorted(stacks):
            hit = [a for a in stacks[h] if a.disordered and a.kind == "infantry"]
            if hit:
                losses[stacks[h][0].unit] = 1  # the top unit takes it (§12.35e)
    for u in (*(() if exempt else attackers), *defenders):
        if u.unit in routed or u.kind != "mounted_cavalry":
            continue
        if u.disordered:
            blown.append(u.unit)
        else:
            disordered.append(u.unit)
    return PostShock(tuple(disordered), tuple(blown), losses)


def march_aftermath(dice: Dice, others: Sequence[Combatant]) -> tuple[Check, ...]:
    """002 §11.48: a brigade shocked on March orders goes to Advance orders, and each of its
    units that was not in the shock takes a UDD: failing disorders it, or costs 1 SP if it
    was already disordered (the caller reads ``passed`` and the unit's state)."""
    return tuple(check(dice, u, "March brigade shocked", "11.48") for u in others)


# --- cavalry charge (002 §11.51-11.58) ----------------------------------------------------


def check_charge(u: Combatant, *, enemy_in_los: bool, mp_to_adjacent: int | None,
                 started_in_command: bool) -> None:
    """002 §11.52: a charge needs mounted cavalry on Attack orders, an enemy in its LOS it
    can reach adjacency with for 5 MP or less, and a start in its brigadier's range."""
    if u.kind != "mounted_cavalry":
        raise RuleError("11.52", f"{u.unit}: only mounted cavalry charges")
    if u.blown:
        raise RuleError("11.58", f"{u.unit}: Blown cavalry is on Advance orders")
    if u.orders != "attack":
        raise RuleError("11.52", f"{u.unit}: a charge needs Attack orders")
    if not enemy_in_los:
        raise RuleError("11.52", f"{u.unit}: no enemy in its line of sight")
    if mp_to_adjacent is None or mp_to_adjacent > 5:
        raise RuleError("11.52", f"{u.unit}: the enemy is not within 5 MP of adjacency")
    if not started_in_command:
        raise RuleError("11.52", f"{u.unit}: it did not start in its brigadier's range")


def charge_check(dice: Dice, top: Combatant) -> Check:
    """002 §11.53: before moving, the top unit of the charging stack takes a UDD; failing it
    there is no charge, the stack stays put and its activation ends."""
    return check(dice, top, "cavalry charge", "11.53")


def check_charge_path(path: Sequence[Hex], facings: Sequence[object], costs: Sequence[int],
                      *, friends: Collection[Hex]) -> None:
    """002 §11.54: the last three hexes moved into before the target (fewer if the unit
    started closer) are the charge path: no facing change there, no friendly unit, no hex
    costing more than 1 MP to enter (a creek crossing is allowed: pass its cost less the
    creek). ``path`` lists the hexes entered, ``facings`` the facing in each, ``costs`` the
    MP of each entry."""
    if not len(path) == len(facings) == len(costs):
        raise ValueError("give one facing and one cost per hex entered")
    tail = range(max(0, len(path) - 3), len(path))
    for i in tail:
        if path[i] in friends:
            raise RuleError("11.54", f"the charge path may not hold a friendly unit ({path[i]})")
        if costs[i] > 1:
            raise RuleError("11.54", f"{path[i]} costs {costs[i]} MP: the charge path needs "
                            "hexes of 1 MP")
        if i > tail.start and facings[i] != facings[i - 1]:
            raise RuleError("11.54", f"no facing change on the charge path ({path[i]})")


@dataclass(frozen=True, slots=True)
class CounterCharge:
    """The defending cavalry's counter-charge (002 §11.56): whether it happened, its check."""

    counter_charged: bool
    roll: Check | None

    def to_json(self) -> dict[str, object]:
        return {"rule": "11.56", "counter_charged": self.counter_charged,
                "roll": self.roll.to_json() if self.roll else None}


def counter_charge(dice: Dice, defender: Combatant, attackers: Sequence[Combatant], *,
                   fired_this_activation: bool = False,
                   attacker_hex_open_to_charge: bool = True) -> CounterCharge:
    """002 §11.56: defending mounted cavalry may counter-charge a charge unless shocked
    through a flank or rear, after it used return or withdrawal fire this activation, or
    when the attacker's hex is closed to a charge (woods...). On Attack orders it simply
    does (and skips the pre-shock check); on Advance its top unit must pass a UDD, and on
    failing it takes the pre-shock check with the charge's benefits against it."""
    if defender.kind != "mounted_cavalry":
        raise RuleError("11.56", f"{defender.unit}: only mounted cavalry counter-charges")
    if not any(a.charging for a in attackers):
        raise RuleError("11.56", "a counter-charge answers a charge")
    if _aspects(defender, attackers) & {"flank", "rear"}:
        raise RuleError("11.56", f"{defender.unit} is shocked through a flank or rear")
    if fired_this_activation:
        raise RuleError("11.56", f"{defender.unit} used return or withdrawal fire")
    if not attacker_hex_open_to_charge:
        raise RuleError("11.56", "the attacker's hex is closed to a charge")
    if defender.orders == "attack":
        return CounterCharge(True, None)
    if defender.orders == "march" or defender.blown:
        raise RuleError("11.56", f"{defender.unit}: a counter-charge needs Attack or Advance")
    c = check(dice, defender, "counter-charge", "11.56")
    return CounterCharge(c.passed, c)


def break_charge(dice: Dice, top: Combatant) -> Check:
    """002 §11.57: when the defenders make a reaction move, the charging stack may try to
    break off: its top unit's UDD; a pass stops it where it is, its activation over, a
    failure makes it go on (and charge whatever ends in its front hexes)."""
    return check(dice, top, "break off the charge", "11.57")


def done_for_activation(*, phasing: bool, retreated: bool = False,
                        second_disorder: bool = False) -> bool:
    """002 §12.47, §12.35f: a phasing unit forced to retreat, or taking a second disorder
    from fire or the shock family, does nothing more this activation (it may still use
    pre-shock fire against a defender's continued shock, and continue that shock after an
    adjusted 1 or less)."""
    return phasing and (retreated or second_disorder)


# --- Blown cavalry (002 §11.58) -----------------------------------------------------------


def blown_ma(disordered_ma: int) -> int:
    """002 §11.58: Blown cavalry moves half its printed disordered MA, rounded up."""
    return -(-disordered_ma // 2)


def blown_extra_losses(units: Sequence[Combatant], hit: Collection[str]) -> dict[str, int]:
    """002 §11.58: each Blown unit of a stack hit by disorder or step loss loses 1 SP more;
    a Blown stack loses at most 2 more, the top unit's first (the other at random: the
    caller draws it; here the next Blown unit down)."""
    blown = [u for u in units if u.blown and u.unit in hit]
    return {u.unit: 1 for u in blown[:2]}


def blown_ends(*, activations_since: int, shocked_again: bool) -> bool:
    """002 §11.58: the Blown marker goes at the end of the next activation of the unit's
    command unless it took part in a full step 6b again (the Hampton example: Blown in its
    first activation of the 1600 turn, the marker goes at the end of the next one)."""
    if activations_since < 0:
        raise ValueError("activations_since cannot be negative")
    return activations_since >= 1 and not shocked_again


def shock_resolution_order(defender_hexes: Sequence[Hex], *, left_to_right: bool = True
                           ) -> list[Hex]:
    """002 §11.41: the shocks go along the line from one end, not picked at will; hexes are
    ordered along the line by their position (q, then r)."""
    ordered = sorted(defender_hexes, key=lambda h: (h.q, h.r))
    return ordered if left_to_right else ordered[::-1]



# --- putting a shock together (002 §11.33, §11.42, §11.72, §11.41) -------------------------


def withdrawal_options(board: Board, defender: Combatant, attackers: Sequence[Combatant], *,
                       sur: Surroundings) -> RetreatOptions:
    """002 §11.33-11.34: where a unit may withdraw before shock: one hex away from the
    attackers for infantry, up to two for mounted cavalry, facing kept, by the retreat
    rules (never stopping among friends it cannot stack with, nor entering a friendly hex
    with a shock still to resolve). ``sur.causing`` should hold the attackers' hexes."""
    check_withdrawal_before_shock(defender, attackers)
    need = (1, 2) if defender.kind == "mounted_cavalry" else (1, 1)
    cls: UnitClass = "mounted_cavalry" if defender.kind == "mounted_cavalry" else "infantry"
    opts = retreat_options(board, defender.hex, need, unit_class=cls, orders=defender.orders,
                           sur=sur)
    return RetreatOptions(opts.paths, 0, False)  # no way back: the unit simply stays


def no_brigadier(brigade_shockers: Sequence[Combatant], *, first_had_it: bool | None = None
                 ) -> bool:
    """002 §11.72: -1 to every shock of a brigade none of whose shocking units is stacked
    with its brigadier; a continued shock keeps what the first shock had (``first_had_it``)."""
    if first_had_it is not None:
        return first_had_it
    return not any(a.with_brigadier for a in brigade_shockers)


def shock_terrain(board: Board, attackers: Sequence[Combatant],
                  defenders: Sequence[Combatant], *,
                  breastworks: Collection[tuple[Hex, Hex]] = (),
                  chart: TerrainChart | None = None) -> tuple[int, tuple[str, ...]]:
    """002 §11.42: the terrain DRM of a shock over several hexsides is the one best for the
    defender (the lowest). ``breastworks`` lists (attacker hex, defender hex) pairs whose
    hexside the defender holds with breastworks (E-8)."""
    best: tuple[int, tuple[str, ...]] | None = None
    for a in attackers:
        for ah in a.hexes:
            for d in defenders:
                for dh in d.hexes:
                    if ah.distance(dh) != 1:
                        continue
                    got = terrain_shock_drm(board, ah, dh, breastworks=(ah, dh) in breastworks,
                                            chart=chart)
                    if best is None or got[0] < best[0]:
                        best = got
    if best is None:
        raise RuleError("11.42", "no attacker is next to a defender")
    return best


@dataclass(frozen=True, slots=True)
class Fight:
    """One shock resolved through steps 6a-6b (002 §11.42-11.45): the strengths, ratio and
    DRMs, the roll, each side's effects, and what may follow (continued shock)."""

    attacker_sp: Fraction
    defender_sp: Fraction
    roll: ShockRoll
    attacker: Effects
    defender: Effects
    attacker_continues: Continuation
    defender_counterattacks: bool

    def to_json(self) -> dict[str, object]:
        return {"rule": "11.4", "attacker_sp": str(self.attacker_sp),
                "defender_sp": str(self.defender_sp), "roll": self.roll.to_json(),
                "attacker": self.attacker.to_json(), "defender": self.defender.to_json(),
                "attacker_continues": self.attacker_continues,
                "defender_counterattacks": self.defender_counterattacks}


def fight(dice: Dice, attackers: Sequence[Combatant], defenders: Sequence[Combatant], *,
          terrain: tuple[int, tuple[str, ...]] = (0, ()),
          shockers: Sequence[Combatant] | None = None,
          enemies: Sequence[Combatant] = (), cover: Collection[Hex] = (),
          target_cover: bool = False, continued: int = 0, counter_charged: bool = False,
          lacks_brigadier: bool = False) -> Fight:
    """Steps 6a-6b of one shock (002 §11.42-11.45, §11.64): strengths (§11.43, §11.63,
    §14.25), the ratio and its rounding, position (of all ``shockers`` of these defenders,
    default the attackers) with the front-hex penalty against ``enemies`` not shocked, every
    other DRM, the roll and the results on both sides (the defender's first). Retreat paths,
    advances and the post-shock disorder are the caller's next steps (§11.46-11.48)."""
    if not attackers or not defenders:
        raise RuleError("11.31", "a shock needs attackers and defenders")
    all_shockers = list(shockers) if shockers is not None else list(attackers)
    aspects = _aspects_of_side(defenders, all_shockers)
    flank_or_rear = bool(aspects & {"flank", "rear"})
    a_sp = side_shock_sp(attackers, attacking=True, target_cover=target_cover,
                         flank_or_rear=flank_or_rear)
    d_sp = side_shock_sp(defenders, attacking=False, cover=cover)
    favour = rounds_for_attacker(attackers, terrain_drm=terrain[0], continued=bool(continued),
                                 terrain_ids=terrain[1])
    ratio = shock_ratio(a_sp, d_sp, favour_attacker=favour)
    pos = position(defenders, all_shockers)
    penalty = 0
    if pos is not None:
        penalty = front_hex_penalty(attackers, {d.unit for d in defenders}, enemies)
    sit = Situation(terrain_drm=terrain[0], terrain_ids=terrain[1], position=pos,
                    front_hex_penalty=penalty, continued=continued,
                    counter_charged=counter_charged, no_brigadier=lacks_brigadier)
    roll = resolve(dice, ratio, shock_drms(attackers, defenders, ratio, sit))
    d_eff = apply_result(dice, roll.result, defenders, defending=True)
    a_eff = apply_result(dice, roll.result, attackers, defending=False)
    return Fight(a_sp, d_sp, roll, a_eff, d_eff,
                 attacker_continuation(roll.result, attackers, continued=continued),
                 defender_may_counterattack(roll.result, defenders))


def _aspects_of_side(defenders: Sequence[Combatant], shockers: Sequence[Combatant]) -> set[str]:
    out: set[str] = set()
    for d in defenders:
        out |= _aspects(d, shockers)
    return out


# --- leaders under shock losses (002 §12.71, §11.48) ------------------------------------------


@dataclass(frozen=True, slots=True)
class LeaderRoll:
    """A leader's casualty roll (002 §12.71): a 0 kills him."""

    leader: str
    roll: int

    @property
    def killed(self) -> bool:
        return self.roll == 0

    def to_json(self) -> dict[str, object]:
        return {"rule": "12.71", "leader": self.leader, "roll": self.roll,
                "killed": self.killed}


def leader_casualties(dice: Dice, leaders: Mapping[str, Collection[Hex]],
                      units: Sequence[Combatant], losses: Mapping[str, int], *,
                      post_shock: bool = False) -> tuple[LeaderRoll, ...]:
    """002 §12.71: each leader stacked with units that lost steps in shock steps 1-6d
    (second-disorder losses included; for an extended unit, any of its hexes) rolls a d10
    once, and a 0 kills him. Losses of the automatic post-shock disorder never do (§11.48).
    ``leaders`` maps each leader to the hexes he stands in (one, as a rule); rolls go in
    leader order. Call it after every UDD of the step (§12.71's note)."""
    if post_shock:
        return ()
    hit: set[Hex] = set()
    for u in units:
        if losses.get(u.unit, 0) > 0:
            hit.update(u.hexes)
    out: list[LeaderRoll] = []
    for name in sorted(leaders):
        if set(leaders[name]) & hit:
            out.append(LeaderRoll(name, dice.roll(f"leader casualty: {name}", rule="12.71",
                                                  die="d10")))
    return tuple(out)
