"""Badges of Courage doctrine: how a sensible commander plays, from public knowledge only.

Inputs are the seat's view (own blocks in full, revealed enemy blocks, hidden enemy blocks
as side + hex), the public board (``load_board()``: terrain, hexsides, victory hexes) and
the public order of battle (``default_oob()``: ratings and types). Nothing here reads the
game state, so two games that look the same from a seat get the same scores.

The commander's intent, as scores (0 = a "done" action such as ``end_phase``):

* objectives: CSA must take the victory hexes (9.1), USA must hold them; every unit is
  drawn towards the victory hex that needs it most, less so the more friends already
  garrison it (so the army spreads over the objectives instead of piling up);
* defend on good ground (woods, town, rocks, hills, double-defence hexes) when next to the
  enemy; never overstack (6.2 eliminates the excess at the phase's end);
* HQs stay in command range of their corps and out of the front line;
* at night (9.7) everybody pulls back from the front line, except victory-hex garrisons;
* fire where expected hits (strength x firepower/6, minus hexside terrain, halved in
  double-defence hexes) are best; melee only at good odds;
* activate HQs (they pay a step, 4.3) only where their troops face the enemy, spend supply
  (8.x) on depleted units, front line first.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import count
from math import comb
from typing import Any

from gettysburg.boc.ai.facts import MapFacts, facts_for, scenario_source
from gettysburg.boc.ai.facts import map_facts as map_facts  # re-exported: older callers
from gettysburg.boc.ai.melee_outlook import GUESS_STRENGTH, Fighter, fighter, outlook
from gettysburg.boc.ai.move_memo import (
    HexTerms,
    KeptMoves,
    Key,
    LastUsed,
    MoveMemo,
    UnitMoves,
)
from gettysburg.boc.combat import would_eliminate
from gettysburg.boc.control import control_at, control_of
from gettysburg.boc.game import BocGame, load_context
from gettysburg.boc.oob import ARTILLERY_TYPES, HQ_TYPES, OrderOfBattle, Unit, default_oob
from gettysburg.boc.scenario import parse_scenario
from gettysburg.boc.state import NIGHT_HOUR
from gettysburg.core.doctrine import DONE_TYPES, JSONDict
from gettysburg.core.protocol import Action, new_game

FIRE_SIDE_TERRAIN = frozenset({"woods", "orchard", "town", "marsh", "river"})
HIDDEN_STRENGTH = 3.0  # a hidden enemy block is guessed at the typical full strength
OVERSTACK = -100.0
LAST_DAY_HOUR = 20  # the last day turn (8 PM) before night (9.7)
# Facts read from scenario files, kept for this many scenarios: a long-lived server meets
# any number of custom scenario files (as ``belief.STARTS_KEPT``).
SCENARIOS_KEPT = 32
# The defaults of Style, named for tests and docs.
MELEE_MIN = 0.2  # least expected net gain (blocks, steps, hex) worth a melee
MELEE_MIN_BEHIND = -0.3  # late in the day and not winning: a gamble beats a sure draw


@dataclass(frozen=True)
class Style:
    """The weights of the commander's intent. ``Style()`` is the ``general`` (but see
    ``GENERAL_STYLES``); the ``search`` agent compares variants of it (a portfolio of
    plans for a player turn)."""

    decay: float = 0.7  # pull of an objective per hex of distance
    control_weight: float = 0.5  # per victory point a move wins in projected control (6.61)
    kill_weight: float = 1.0  # a shot's chance of eliminating a block, in victory points (9.12)
    melee_min: float = MELEE_MIN
    melee_min_behind: float = MELEE_MIN_BEHIND
    hunt: float = 0.3  # pull towards worn enemy blocks in reach (each one is a point, 9.12)
    hunt_behind: float = 0.6  # ... stronger while the seat is not yet winning
    weak_in_front: float = 0.4  # a worn block keeps out of the line (unless on an objective)
    weak_steps: int = 1  # ... worn: at this strength or less
    weak_reach: int = 1  # ... out of the line: no known enemy within this many hexes
    weak_on_objective: float = 0.0  # ... in the line on a victory hex: others relieve it
    take: float = 1.3  # need of a victory hex nobody holds (see ``hold`` and ``lost``)
    night_pull: float = 2.0  # at night, the cost of a front-line hex that is no objective
    # A block at its last step hit at long range is repulsed into an adjacent friendly hex
    # with room, or eliminated if there is none (5.32). The cost of a move that takes the
    # last such hex from a worn block within the enemy's gun range, or that puts a worn
    # block there with no such hex. 0: off (the general fills its line's hexes).
    keep_room: float = 0.0
    # Weights that were constants until session 37, named so a tuner may vary them
    # (experiments/style_tuning.py); their defaults are the old constants, so ``Style()``
    # plays exactly as before.
    shelter_weight: float = 1.0  # x the shelter of a front-line hex (its terrain, 5.22; level)
    close_in: float = 0.2  # an attacker's front-line hex (it must be adjacent to fire, 5.1)
    gun_front: float = 0.3  # a battery's front-line hex (guns shoot from 2-3 hexes, 5.31)
    gun_range: float = 0.3  # a battery's hex within 3 of the enemy, out of the line
    crowd: float = 0.7  # how much each friend already garrisoning an objective damps its pull
    threat: float = 0.3  # an objective's need per enemy hex near it ...
    threat_reach: int = 2  # ... within this many hexes ...
    threat_cap: int = 3  # ... counting at most this many
    hold: float = 1.0  # need of a victory hex the seat controls (6.6, 9.1; ``take``: nobody)
    lost: float = 0.3  # need of a victory hex the enemy controls (6.6), over ``take``
    hq_troops: float = 0.25  # an HQ's hex, per block of its corps in command range (4.5)
    hq_front: float = 1.5  # an HQ's front-line hex
    activate_per: float = 0.4  # activating an HQ (4.3), per block of its corps in the line
    activate_cost: float = 0.7  # ... less the step it costs
    fire_vp: float = 0.1  # a shot, per victory point of the target hex
    # An HQ at 1 step stays idle (an HQ at 0 cannot activate, and one hit eliminates it,
    # 4.3, 4.61), except, with ``final_turn_command``, in an own turn a verdict follows: its
    # division may fire and attack before the count, the enemy's answer risking the HQ at 0.
    final_turn_command: bool = False

    @property
    def decay_pow(self) -> tuple[float, ...]:
        return _decay_pow(self.decay)


@cache
def _decay_pow(decay: float) -> tuple[float, ...]:
    return tuple(decay ** d for d in range(128))


DEFAULT_STYLE = Style()
#: Where the general plays another style than ``Style()``: by seat and scenario.
#: Day 2 (9.3) opens with the Union line held by worn blocks (the XI Corps at 1 step on and next to
#: Cemetery Hill). There the USA general charges a 1-step block in the line on a victory hex too, so
#: fresher blocks take its place. Measured with ``experiments/style_trials.py`` against ``Style()``
#: (experiments/HISTORY.md, "The USA general's Day 2 style"): +1.68 +- 0.41 points a game for the
#: USA over 50 seeds (CSA wins 35 instead of 43); against random it still wins 39 of 40 (one draw,
#: as before). Stronger variants gained more against the general but drew against random; on Day 3
#: the same weight costs the USA 2.2 points, so it is kept to Day 2.
#: The CSA's two styles (session 6) change only how fast an objective's pull fades with
#: distance (``decay``, 0.7 in ``Style()``); paired gains in points a game for the CSA
#: against the general, from ``experiments/style_trials.py`` (experiments/HISTORY.md, "The CSA
#: general's Day 1 style" and "... Day 3 style"):
#: Day 1, 0.55 (``tight``: objectives pull only nearby troops): +1.25 +- 1.03 (16 seeds,
#: 500), +0.93 +- 0.61 (40, seeds 800), +1.60 +- 0.58 (60, seeds 900).
#: Day 3, 0.85 (``wide``: they pull from farther): +1.35 +- 0.83 (20 seeds, 500), +1.23
#: +- 0.67 (30, seeds 600).
#: Day 2 for the USA, session 13: also keep a repulse hex (5.32) for worn blocks in the
#: enemy's gun range (``keep_room`` 1.0): +0.93 +- 0.67 (30 seeds, 800), +1.88 +- 0.56 (40,
#: seeds 900); CSA wins 32 of 70 instead of 43 (experiments/HISTORY.md, "Room to fall back").
#: Day 1 for the USA, against the CSA's Day 1 style: blocks at 2 steps or fewer keep 2
#: hexes from the enemy, at a cost of 1.5 (``shy3``): +0.72 +- 0.55 (40 seeds, 800),
#: +1.48 +- 0.48 (60, seeds 900), +0.57 +- 0.38 (100, seeds 700); experiments/HISTORY.md, "The USA
#: general's Day 1 style".
GENERAL_STYLES: dict[tuple[str, str], Style] = {
    ("csa", "boc/day1"): Style(decay=0.55),
    ("usa", "boc/day1"): Style(weak_in_front=1.5, weak_reach=2, weak_steps=2),
    ("usa", "boc/day2"): Style(weak_on_objective=0.6, keep_room=1.0),
    ("csa", "boc/day3"): Style(decay=0.85),
}


#: Which seat, scenario and (optionally) day a style plays: (seat, scenario) or (seat,
#: scenario, day).
StyleKey = tuple[str, str] | tuple[str, str, int]


def general_style(seat: str, scenario: str) -> Style:
    """The style the ``general`` plays ``seat`` with in ``scenario`` (a scenario id)."""
    return GENERAL_STYLES.get((seat, scenario), DEFAULT_STYLE)


#: The variants the ``search`` agent may play instead of the general for one of its
#: player turns, by seat: the best of each family when a seat played them all day
#: against the general (Day 1, 16 seeds per variant and seat,
#: ``experiments/style_trials.py``, experiments/HISTORY.md). The general's own style is
#: always the incumbent (``search_hooks.portfolio``).
_GREEDY = Style(control_weight=1.5)  # take and hold victory hexes above all (6.61)
_HUNTER = Style(hunt=0.8, hunt_behind=1.2)  # close in on worn enemy blocks (9.12)
STYLES: dict[str, dict[str, Style]] = {
    # Blocks at 2 steps or fewer keep out of the enemy's reach (2 hexes).
    "usa": {"shy": Style(weak_in_front=1.5, weak_steps=2, weak_reach=2),
            "greedy": _GREEDY, "hunter": _HUNTER,
            "take": Style(take=2.0),  # contested objectives call louder
            "wide": Style(decay=0.85)},  # objectives pull troops from far away
    "csa": {"greedy": _GREEDY, "hunter": _HUNTER,
            "tight": Style(decay=0.55),  # objectives pull only the troops close to them
            "aggressive": Style(melee_min=-0.1, melee_min_behind=-0.5),  # even odds
            "careful": Style(weak_in_front=1.5, weak_steps=2, melee_min=0.4)},
}


@lru_cache(maxsize=SCENARIOS_KEPT)
def _opening(scenario: str) -> BocGame | None:
    """A fresh game of ``scenario`` (a ``scenario_source``): its public set-up and
    schedule, read by ``strength_mix`` and ``verdict_schedule``, which never change it.
    None for a scenario this process cannot open as a BoC game."""
    try:
        game = new_game(f"boc/{scenario}", seed="doctrine")
    except Exception:  # not a BoC scenario this process can open
        return None
    return game if isinstance(game, BocGame) else None


@lru_cache(maxsize=SCENARIOS_KEPT)
def strength_mix(scenario: str, side: str) -> tuple[tuple[int, float], ...]:
    """(strength, share) of ``side``'s blocks in the public set-up of ``scenario`` (a
    ``scenario_source``; on the map and still to arrive): the guess for a block the seat
    cannot identify."""
    game = _opening(scenario)
    if game is None:  # the typical block
        return ((GUESS_STRENGTH, 1.0),)
    units = game.view("referee")["units"]
    counts = Counter(int(u.get("strength", 0)) for u in units if u.get("side") == side
                     and u.get("status") != "eliminated" and int(u.get("strength", 0)) > 0)
    n = sum(counts.values()) or 1
    return tuple((s, c / n) for s, c in sorted(counts.items())) or ((GUESS_STRENGTH, 1.0),)


@lru_cache(maxsize=SCENARIOS_KEPT)
def scenario_bands(scenario: str) -> tuple[int, int]:
    """(highest CSA total the USA wins with, lowest the CSA wins with), from the public
    scenario file (9.1-9.3); the standard bands when the scenario is unknown."""
    try:
        raw, _engine, path, board = load_context(scenario)  # a custom file's engine: too
        v = parse_scenario(raw, path, default_oob(), board).victory
    except Exception:  # unknown or unreadable scenario: the standard bands (9.1)
        return (-1, 10)
    return (int(v.usa_win_max), int(v.csa_win_min))


@lru_cache(maxsize=SCENARIOS_KEPT)
def verdict_schedule(scenario: str) -> tuple[bool, bool, int]:
    """(judged after every day, judged after the last night, last day) of a scenario, as
    the engine reads its public file (9.1-9.5: the full battle is judged after each day's
    8 PM turn; Day 1 played alone after its 8 PM turn; Days 2 and 3 after the night
    turn). Unknown: one day, judged after 8 PM."""
    game = _opening(scenario)
    if game is None:
        return (False, False, 1)
    st = game.state
    return (st.campaign, st.ends_after_night, st.last_day)


def turns_left(view: JSONDict) -> int | None:
    """Turns after this one before the next verdict: 0 in a turn judged at its end (the
    scenario's last turn, 9.1; in the battle each day's 8 PM turn, 9.5); None when no
    verdict comes this day (``sequence.advance_clock`` judges)."""
    campaign, after_night, last_day = verdict_schedule(scenario_source(view))
    day, hour = int(view.get("day") or 0), int(view.get("hour") or 0)
    if campaign:
        last = LAST_DAY_HOUR
    elif day != last_day:
        return None
    else:
        last = NIGHT_HOUR if after_night else LAST_DAY_HOUR
    return last - hour if hour <= last else None


#: A number per distinct ``Style`` met (equal styles share one), by ``id``, with the style
#: kept so that its id is not reused: a key part hashed at once (``terms_context``).
_STYLE_KEYS: dict[int, tuple[Style, int]] = {}
_STYLE_NUMBERS: dict[Style, int] = {}
_NEXT_STYLE = count()  # never a number twice, so a key kept elsewhere cannot mislead
STYLE_KEYS_KEPT = 256


def _style_key(style: Style) -> int:
    got = _STYLE_KEYS.get(id(style))
    if got is not None and got[0] is style:
        return got[1]
    if len(_STYLE_NUMBERS) >= STYLE_KEYS_KEPT:  # a tuner's thousand styles: start again
        _STYLE_KEYS.clear()
        _STYLE_NUMBERS.clear()
    number = _STYLE_NUMBERS.get(style)
    if number is None:
        number = _STYLE_NUMBERS[style] = next(_NEXT_STYLE)
    _STYLE_KEYS[id(style)] = (style, number)
    return number


@lru_cache(maxsize=8)
def _no_room(facts: MapFacts) -> frozenset[str]:
    """Hexes of the board where no block may stand (stacking limit 0, 6.2)."""
    return frozenset(h for h, n in facts.stacking.items() if n < 1)


@lru_cache(maxsize=8)
def _around_victory(facts: MapFacts) -> tuple[str, ...]:
    """``facts.around_victory`` in a fixed order (a key of ``move_context``)."""
    return tuple(sorted(facts.around_victory))


class EnemyReach:
    """How far hexes are from one set of enemy hexes: the nearest enemy block, and how
    many enemy hexes lie within r. Worked out on demand and kept, since the enemy's hexes
    stay the same through a player's phase while many situations ask (``enemy_reach``)."""

    def __init__(self, facts: MapFacts, enemy_hexes: frozenset[str]) -> None:
        self.facts, self.enemy_hexes = facts, enemy_hexes
        self._nearest: dict[str, int] = {}
        self._within: dict[tuple[str, int], int] = {}

    def nearest(self, hx: str) -> int:
        """Hexes from ``hx`` to the nearest enemy hex (99: none)."""
        got = self._nearest.get(hx)
        if got is None:
            got = min((self.facts.dist(hx, e) for e in self.enemy_hexes), default=99)
            self._nearest[hx] = got
        return got

    def within(self, hx: str, r: int) -> int:
        """Enemy hexes at most ``r`` hexes from ``hx``."""
        got = self._within.get((hx, r))
        if got is None:
            got = sum(1 for e in self.enemy_hexes if self.facts.dist(hx, e) <= r)
            self._within[(hx, r)] = got
        return got


@lru_cache(maxsize=32)
def enemy_reach(facts: MapFacts, enemy_hexes: frozenset[str]) -> EnemyReach:
    """The shared :class:`EnemyReach` of these enemy hexes on this board."""
    return EnemyReach(facts, enemy_hexes)


def near_victory(facts: MapFacts, hx: str) -> tuple[str, ...]:
    """The victory hexes at distance 0 or 1 from ``hx`` (their control can change when a
    block enters or leaves ``hx``, 6.61)."""
    got = facts.near_victories.get(hx)
    if got is None:
        got = tuple(v for v in facts.victory if facts.dist(v, hx) <= 1)
        facts.near_victories[hx] = got
    return got


def other(side: str) -> str:
    return "csa" if side == "usa" else "usa"


def fire_penalty(facts: MapFacts, from_hex: str, through: str) -> int:
    """Hexside terrain between firer and ``through`` (5.22, terrain chart): woods, orchard,
    town, marsh, river -1; a hill crossed uphill -1."""
    try:
        side = facts.board.side(from_hex, through)
    except ValueError:
        return 0
    pen = 1 if side.terrain & FIRE_SIDE_TERRAIN else 0
    if side.slope == "hill" and side.uphill == facts.hexes.get(through):
        pen += 1
    return pen


def kill_chance(dice: int, firepower: int, strengths: Sequence[int],
                double_defence: bool) -> float:
    """Chance that one shot eliminates a block of the target hex: hits go one at a time
    to the strongest block (5.23), so the first elimination needs every block worn down
    to 1 step and one hit more; in a double-defence hex a step costs two half hits (5.24)."""
    if not strengths or dice <= 0 or firepower <= 0:
        return 0.0
    need = sum(max(0, s - 1) for s in strengths) + 1
    if double_defence:
        need *= 2
    if need > dice:
        return 0.0
    p = min(firepower, 6) / 6.0
    return sum(comb(dice, k) * p ** k * (1 - p) ** (dice - k) for k in range(need, dice + 1))


def expected_hits(strength: int, firepower: int, double_defence: bool) -> float:
    """Dice x P(hit): a die hits at or under the firepower (3.12)."""
    hits = strength * max(0, firepower) / 6.0
    return hits / 2.0 if double_defence else hits


class Situation:
    """What one seat knows at one decision, pre-digested for scoring."""

    def __init__(self, view: JSONDict, facts: MapFacts, oob: OrderOfBattle,
                 style: Style = DEFAULT_STYLE) -> None:
        self.facts, self.oob, self.style = facts, oob, style
        self._decay_pow = style.decay_pow
        self.seat = str(view.get("seat"))
        self.enemy = other(self.seat)
        self.night = bool(view.get("night"))
        self.control: dict[str, str] = dict(view.get("control") or {})
        units = [u for u in view.get("units", []) if isinstance(u, dict)]
        self.own = {str(u["id"]): u for u in units if u.get("side") == self.seat}
        self.own_on = {k: u for k, u in self.own.items()
                       if u.get("status") == "on_map" and u.get("hex")}
        self.garrison = Counter(str(u["hex"]) for u in self.own_on.values())
        # Own columns by hex (6.0 option): a hex with a column holds that unit alone.
        self.columns: dict[str, set[str]] = {}
        for uid, u in self.own_on.items():
            if u.get("column"):
                self.columns.setdefault(str(u["hex"]), set()).add(uid)
        self.enemy_at: dict[str, float] = {}
        # Enemy blocks per hex as the seat knows them: (unit id or None if hidden, strength).
        self.enemy_blocks: dict[str, list[tuple[str | None, int]]] = {}
        for u in units:
            if u.get("side") == self.enemy and u.get("hex") \
                    and u.get("status", "on_map") == "on_map":
                hx = str(u["hex"])
                self.enemy_at[hx] = self.enemy_at.get(hx, 0.0) + float(u.get("strength", 0))
                self.enemy_blocks.setdefault(hx, []).append(
                    (str(u["id"]), int(u.get("strength", 0))))
        # Hidden blocks the seat's memory ties to one unit (BocMemory: seen standing up
        # again, 8.1) count as that unit at the strength last seen.
        recalled = view.get("recalled") or {}
        for h in view.get("hidden", []):
            if h.get("side") == self.enemy and h.get("hex"):
                hx = str(h["hex"])
                known = recalled.get(str(h.get("handle")))
                if known:
                    uid, s = str(known[0]), int(known[1])
                    self.enemy_at[hx] = self.enemy_at.get(hx, 0.0) + s
                    self.enemy_blocks.setdefault(hx, []).append((uid, s))
                    continue
                self.enemy_at[hx] = self.enemy_at.get(hx, 0.0) + HIDDEN_STRENGTH
                self.enemy_blocks.setdefault(hx, []).append((None, GUESS_STRENGTH))
        combat = view.get("combat") or {}
        # Own melee declarations this phase (7.1): target -> [(unit, from hex, kind)].
        self.declared: dict[str, list[tuple[str, str | None, str]]] = {}
        for m in combat.get("melees") or []:
            if m.get("side") == self.seat and m.get("unit") \
                    and m.get("target") not in (combat.get("resolved") or []):
                frm = m.get("from")
                self.declared.setdefault(str(m["target"]), []).append(
                    (str(m["unit"]), str(frm) if frm else None, str(m.get("kind"))))
        self.battle: JSONDict | None = combat.get("battle")
        # 9.1 bands of the scenario (public file) against the CSA total the view shows: a
        # side that is not yet winning late in the day takes more risks (a draw is no win).
        self.hour = int(view.get("hour") or 0)
        total = (view.get("victory") or {}).get("total")
        usa_max, csa_min = scenario_bands(scenario_source(view))
        if not isinstance(total, int):
            self.behind = False
        elif self.seat == "usa":
            self.behind = total > usa_max
        else:
            self.behind = total < csa_min
        self.late = not self.night and self.hour >= LAST_DAY_HOUR - 1
        self.guess = strength_mix(scenario_source(view), self.enemy)
        # Supported melee declarations on offer, by target (set by BocDoctrine.scores).
        self.melee_offers: dict[str, list[Action]] = {}
        # Entry hexes on offer to each unit due to arrive (set by BocDoctrine.scores).
        self.entries: dict[str, set[str]] = {}
        self.front = frozenset(n for hx in self.enemy_at for n in facts.nbrs.get(hx, ())
                               if n not in self.enemy_at)
        # Distances to the enemy depend on the enemy's hexes alone (shared, see EnemyReach).
        self._reach = enemy_reach(facts, frozenset(self.enemy_at))
        self.need = self._needs()
        self._prey_cache: dict[str, float] = {}
        #: Move parts kept across decisions of this context (set by BocDoctrine.scores).
        self.move_memo: dict[str, UnitMoves] | None = None
        #: ``hex_terms`` by kind of block and hex (``keep_terms``: kept across decisions).
        self._terms: dict[tuple[bool, bool], dict[str, HexTerms]] = {}
        # Whether an HQ at 1 step may activate (4.3, ``final_turn_command``): our own turn,
        # and a verdict follows it (9.1).
        self.spend_last_step = style.final_turn_command \
            and str(view.get("active") or "") == self.seat and turns_left(view) == 0
        # What a victory point won in projected control is worth to a move (6.61).
        self.control_weight = style.control_weight
        self._flip_cache: dict[tuple[str, str | None], float] = {}
        self._control_now: dict[str, str | None] = {}  # 6.61 now, by victory hex
        self._value_cache: dict[tuple[str, str, str | None], float] = {}
        # ``hq_near`` by (corps, command range); kept rows by corps' hexes and range.
        self._hq_rows: dict[tuple[str, int], dict[str, int]] = {}
        self._hq_kept: LastUsed[dict[str, int]] | None = None
        self._worn: dict[str, list[str]] | None = None  # for ``room_cost``, made on first use
        self._per_hq: dict[tuple[str, str], int] = {}  # HQ counts asked this decision
        # Garrison of each objective: blocks in it, plus half of those next to it.
        self.held = {v: self.garrison.get(v, 0) + 0.5 * sum(
            self.garrison.get(n, 0) for n in facts.nbrs.get(v, ())) for v in facts.victory}
        self._objectives = [(v, self.need[v], self.held[v], frozenset(facts.nbrs.get(v, ())))
                            for v in facts.victory]
        # The same, for a unit that garrisons none of them (``objective``).
        self.objectives_now = [(v, need, 1.0 + style.crowd * max(0.0, held))
                                for v, need, held, _ in self._objectives]
        self._leaving: dict[str, list[tuple[str, float, float]]] = {}
        self._full: frozenset[str] | None = None  # for ``may_overstack``, made on first use
        self._around_garrison: tuple[int, ...] | None = None  # made on first use
        # ``objective`` by the hex left (None: no garrison) and the hex reached.
        self._obj_rows: dict[str | None, dict[str, float]] = {}
        #: Victory hexes and their neighbours: only a unit standing in one garrisons one.
        self._near = facts.around_victory
        self.near_victory_hexes = facts.around_victory  # the same, for the move scoring
        self._corps_hexes: dict[str, list[str]] = {}
        for uid, u in self.own_on.items():
            lab = self.unit(uid)
            if lab is not None and not lab.is_hq:
                self._corps_hexes.setdefault(lab.corps, []).append(str(u["hex"]))

    def terms_context(self) -> Hashable:
        """Everything ``hex_terms`` reads besides the kind of block and the hex: the
        board, style, seat, night, whether behind, control and the enemy blocks as known
        (``move_memo``)."""
        return Key((self.facts, _style_key(self.style), self.seat, self.night, self.behind,
                    tuple(sorted(self.control.items())),
                    tuple(sorted((hx, tuple(b)) for hx, b in self.enemy_blocks.items()))))

    def move_context(self, terms: Hashable) -> Hashable | None:
        """Everything a move's value and control gain read besides the unit (its hex,
        strength and, for an HQ, ``corps_key``) and the destination: ``terms`` (the
        ``terms_context``), own blocks in and next to the victory hexes (their garrisons
        and control, 6.61) and own columns. ``None`` where the style keeps room to fall
        back (``keep_room`` reads own blocks anywhere): there no move parts are kept."""
        if self.style.keep_room:
            return None
        return Key((terms, self.around_garrison(),
                    tuple(sorted((hx, tuple(sorted(c))) for hx, c in self.columns.items()))))

    def around_garrison(self) -> tuple[int, ...]:
        """Own blocks in each victory hex and each hex next to one (in a fixed order)."""
        got = self._around_garrison
        if got is None:
            garrison = self.garrison
            got = self._around_garrison = tuple(
                [garrison.get(h, 0) for h in _around_victory(self.facts)])
        return got

    def carry_over(self, old: KeptMoves, new: KeptMoves) -> int:
        """Fill ``new``, the tables of this new ``move_context``, with what ``old`` (the
        last one of the same ``terms_context``) found that still holds here: own blocks
        moved in or out of some victory hexes' neighbourhoods, nothing else changed that
        the tables read. Returns how many units' move parts it took over.

        * control now (6.61) and control gains, unless they read a victory hex with a
          changed hex in or next to it;
        * the objectives' pull of a unit that garrisons none (``objective``): where every
          changed objective pulled less than the strongest before, the strongest of that
          and the changed ones' new pulls (a maximum, so the same number); elsewhere it
          is found again when asked;
        * a unit's move parts, unless it garrisons a victory hex or its hex or a
          destination is a hex where any of the above changed."""
        facts, old_garrison = self.facts, old.garrison
        if old_garrison is None:
            return 0
        changed = {h for h, a, b in zip(_around_victory(facts), old_garrison,
                                        self.around_garrison(), strict=True) if a != b}
        dirty = {v for v in facts.victory
                 if v in changed or not changed.isdisjoint(facts.nbrs.get(v, ()))}
        zone = set(dirty)  # hexes with a dirty victory hex within 1 (``near_victory``)
        for v in dirty:
            zone.update(facts.nbrs.get(v, ()))
        new.control_now.update({v: c for v, c in old.control_now.items() if v not in dirty})
        new.gains.update({k: g for k, g in old.gains.items()
                          if k[0] not in zone and (k[1] is None or k[1] not in zone)})
        # The pulls of the objectives on a unit leaving ``here`` (None: no garrison), as
        # ``old`` found them and now: only the changed ones are asked again.
        moved_pull: dict[str | None, set[str]] = {}
        for here, row in old.objective.items():
            before = old.objectives if here is None else old.leaving.get(here)
            if before is None or (here is not None and here in zone):
                continue
            moved_pull[here] = self._carry_row(row, before, new.objective.setdefault(here, {}),
                                               self.objectives_now if here is None
                                               else self._objectives_leaving(here))
        n = 0
        for uid, moves in old.units.items():
            here = moves.key[0] if isinstance(moves.key, tuple) else None
            if not isinstance(here, str) or here in zone:
                continue
            moved = moved_pull.get(here if here in self._near else None)
            if moved is None or here in moved or not moved.isdisjoint(moves.dests) \
                    or not zone.isdisjoint(moves.dests):
                continue
            new.units[uid] = moves
            n += 1
        return n

    def _carry_row(self, row: Mapping[str, float],
                   before: Sequence[tuple[str, float, float]], into: dict[str, float],
                   now: Sequence[tuple[str, float, float]]) -> set[str]:
        """``carry_over`` of one row of ``objective`` values: ``before`` and ``now`` the
        objectives' (hex, need, divisor) then and now. Fills ``into`` with the values that
        still hold and returns the hexes whose value changed or must be asked again."""
        was = {v: (need, den) for v, need, den in before}
        pulls = [(v, *was[v], need, den) for v, need, den in now
                 if v in was and was[v] != (need, den)]
        if len(was) != len(now):  # not the same objectives: nothing holds
            return set(row)
        moved: set[str] = set()
        decay, table = self._decay_pow, self.facts.table
        for hx, val in row.items():
            at = table[hx]
            best, sure = val, True
            for v, need0, den0, need1, den1 in pulls:
                w = decay[at[v]]
                if need0 * w / den0 >= val:
                    sure = False  # it may have been the strongest: ask again
                    break
                pull = need1 * w / den1
                if pull > best:
                    best = pull
            if not sure:
                moved.add(hx)
                continue
            into[hx] = best
            if best != val:
                moved.add(hx)
        return moved

    def corps_key(self, uid: str) -> tuple[str, ...] | None:
        """For an HQ, the hexes of the blocks it keeps in command range (its corps', 4.5),
        which its hex values read (``hq_near``); None for any other unit."""
        label = self.oob.units.get(uid)
        if label is None or label.type not in HQ_TYPES:
            return None
        if label.corps:
            return tuple(sorted(self._corps_hexes.get(label.corps, [])))
        return tuple(sorted(h for hs in self._corps_hexes.values() for h in hs))

    def _needs(self) -> dict[str, float]:
        """How much each victory hex calls for troops: CSA must take, USA must hold."""
        need: dict[str, float] = {}
        for v, pts in self.facts.victory.items():
            ours = self.control.get(v) == self.seat
            lost = self.control.get(v) == self.enemy
            near = self._enemy_within(v, self.style.threat_reach)
            take = self.style.take
            base = self.style.hold if ours else (take + self.style.lost if lost else take)
            need[v] = pts * (base + self.style.threat * min(self.style.threat_cap, near))
        return need

    def steps_before_loss(self, hx: str) -> list[int]:
        """The enemy blocks in ``hx`` as ``kill_chance`` counts them: by strength, with a
        known HQ one step stronger, for its 0 step takes a hit before it falls (7.5)."""
        return [s + 1 if self.is_hq(eid) else s for eid, s in self.enemy_blocks.get(hx, [])]

    def unit(self, uid: str) -> Unit | None:
        return self.oob.units.get(uid)

    def is_hq(self, uid: str | None) -> bool:
        """Whether this seat knows ``uid`` for an HQ: an own block, or a revealed enemy
        one (a hidden enemy block comes with no id)."""
        lab = self.unit(uid) if uid else None
        return lab is not None and lab.is_hq

    def objective(self, hx: str, here: str | None) -> float:
        """Pull of the objectives on a unit standing in ``hx`` (it now stands in
        ``here``, which does not count as a garrison of the place it leaves)."""
        if here is not None and here not in self._near:
            here = None  # it garrisons no objective: where it leaves does not matter
        kept = self.objective_row(here)
        got = kept.get(hx)
        if got is not None:
            return got
        best = 0.0
        row = self.facts.table[hx]
        decay = self._decay_pow
        for v, need, den in (self.objectives_now if here is None
                             else self._objectives_leaving(here)):
            val = need * decay[row[v]] / den
            if val > best:
                best = val
        kept[hx] = best
        return best

    def objective_row(self, here: str | None) -> dict[str, float]:
        """The ``objective`` values found so far for a unit now in ``here``, by hex."""
        if here is not None and here not in self._near:
            here = None
        kept = self._obj_rows.get(here)
        if kept is None:
            kept = self._obj_rows[here] = {}
        return kept

    def _objectives_leaving(self, here: str) -> list[tuple[str, float, float]]:
        """``objectives_now`` for a unit that leaves ``here`` (it garrisons it no more),
        worked out once per ``here``."""
        got = self._leaving.get(here)
        if got is None:
            got = []
            for v, need, held, adjacent in self._objectives:
                g = held
                if here == v:
                    g -= 1.0
                elif here in adjacent:
                    g -= 0.5
                got.append((v, need, 1.0 + self.style.crowd * max(0.0, g)))
            self._leaving[here] = got
        return got

    def hex_value(self, uid: str, hx: str, here: str | None) -> float:
        """How good it is for unit ``uid`` (now in ``here``) to end its move in ``hx``."""
        key = (uid, hx, here)
        got = self._value_cache.get(key)
        if got is None:
            got = self.hex_values(uid, here, (hx,))[0]
            self._value_cache[key] = got
        return got

    def overstacked(self, uid: str, here: str | None, hx: str) -> bool:
        """Whether unit ``uid`` (now in ``here``) ending its move in ``hx`` overstacks it
        (6.2; a column of another unit there holds the hex alone, 6.0 option)."""
        cols = self.columns.get(hx)
        limit = 1 if cols and (len(cols) > 1 or uid not in cols) \
            else self.facts.stacking.get(hx, 0)
        return limit - self.garrison.get(hx, 0) + (1 if here == hx else 0) < 1

    def may_overstack(self, here: str | None) -> frozenset[str]:
        """The hexes where ``overstacked`` may be true for a unit now in ``here`` (a
        superset: ``here`` itself, hexes with a column, hexes full already or with no
        room at all); any other hex of the board has room for one more block."""
        full = self._full
        if full is None:
            stacking, garrison = self.facts.stacking, self.garrison
            full = self._full = frozenset(
                {h for h, n in garrison.items() if stacking.get(h, 0) - n < 1}
                | set(self.columns) | _no_room(self.facts))
        return full | {here} if here is not None and here not in full else full

    def hex_values(self, uid: str, here: str | None, hexes: Iterable[str],
                   stacking: bool = True) -> list[float]:
        """``hex_value`` of each of ``hexes`` for unit ``uid`` (now in ``here``), none of
        them kept: the moves of a unit are scored together, each destination once, with
        what depends on the unit alone looked up once. ``stacking=False``: the values
        without the overstack check (``overstacked``), the only part that reads how many
        blocks stand in the hex itself (``move_context``).

        A block's value is the objectives' pull (``objective``) plus the terms of
        ``hex_terms``, added one by one in their order (so a value is the same number
        however its terms were found); an HQ's reads ``hq_near`` too."""
        label = self.oob.units.get(uid)
        kind = label.type if label else "infantry"
        out: list[float] = []
        objectives = self.objective_row(here)
        if kind in HQ_TYPES:
            # HQs keep their corps within command range (4.5) and stay out of the line.
            front, st, near_of = self.front, self.style, self.hq_near(label)
            for hx in hexes:
                if stacking and self.overstacked(uid, here, hx):
                    out.append(OVERSTACK)
                    continue
                near = near_of.get(hx)
                if near is None:
                    near = near_of[hx] = self._hq_near(label, hx)
                value = objectives.get(hx)
                if value is None:
                    value = self.objective(hx, here)
                out.append(st.hq_troops * near + 0.2 * value
                           - (st.hq_front if hx in front else 0.0))
            return out
        terms_of = self.terms_of(kind in ARTILLERY_TYPES, self.strength(uid))
        keep_room = self.style.keep_room
        for hx in hexes:
            if stacking and self.overstacked(uid, here, hx):
                out.append(OVERSTACK)
                continue
            value = objectives.get(hx)
            if value is None:
                value = self.objective(hx, here)
            got = terms_of.get(hx)
            if got is None:
                got = terms_of[hx] = self.hex_terms(kind in ARTILLERY_TYPES,
                                                    self.strength(uid), hx)
            before, room, after = got
            for t in before:
                value += t
            if room and keep_room:
                value -= keep_room * self.room_cost(uid, hx, here)
            for t in after:
                value += t
            out.append(value)
        return out

    def keep_hq_rows(self, kept: LastUsed[dict[str, int]]) -> None:
        """Find and keep ``hq_near`` rows in ``kept`` (the doctrine's, ``move_memo``)."""
        self._hq_kept = kept

    def keep_moves(self, kept: KeptMoves) -> None:
        """Find and keep move parts, objectives' pulls and control gains in ``kept``, the
        doctrine's tables for this ``move_context`` (``move_memo``)."""
        self.move_memo = kept.units
        self._obj_rows, self._flip_cache, self._control_now, self._leaving = \
            kept.objective, kept.gains, kept.control_now, kept.leaving

    def keep_terms(self, kept: dict[tuple[bool, bool], dict[str, HexTerms]]) -> None:
        """Find and keep ``hex_terms`` in ``kept``, the doctrine's table for this
        ``terms_context`` (``move_memo``)."""
        self._terms = kept

    def terms_of(self, artillery: bool, strength: int) -> dict[str, HexTerms]:
        """The ``hex_terms`` found so far for a block of this kind and strength, by hex:
        the doctrine's kept ones (``move_memo``, valid while the enemy, control and clock
        stay the same) or this decision's."""
        key = (artillery, strength <= self.style.weak_steps)
        got = self._terms.get(key)
        if got is None:
            got = self._terms[key] = {}
        return got

    def hex_terms(self, artillery: bool, strength: int, hx: str) -> HexTerms:
        """What a block (a battery or not, at ``strength``) ending its move in ``hx`` adds
        to the objectives' pull there, in order: the terms before the room to fall back
        (``keep_room``, which reads own blocks: added by ``hex_values``), whether that
        one applies, the terms after it. They read the enemy blocks, control, the style,
        seat, clock and score, never own blocks (kept across decisions, ``move_memo``)."""
        facts, st, victory = self.facts, self.style, self.facts.victory
        in_front = hx in self.front
        if self.night:
            # Pull back from the line, except the garrisons of victory hexes: the night
            # turn ends Days 2 and 3, and an abandoned objective scores for the enemy.
            return ((-(st.night_pull if in_front and hx not in victory else 0.0),), False, ())
        worn = strength <= st.weak_steps
        before: list[float] = []
        if in_front:
            before.append(st.shelter_weight * facts.shelter.get(hx, 0.0))
            if artillery:
                before.append(-st.gun_front)  # guns shoot best from two or three hexes away
            elif self.seat == "csa" or self.control.get(hx) != self.seat:
                # The attacker must close with the enemy to fire (the USA attacks only
                # where it does not hold the hex).
                before.append(st.close_in)
            if worn and hx not in victory:
                # One hit eliminates it: a point for the enemy (9.12).
                before.append(-st.weak_in_front)
            else:
                if worn:  # on a victory hex, whose pull keeps it there until relieved
                    before.append(-st.weak_on_objective)
                if not artillery:
                    before.append((st.hunt_behind if self.behind else st.hunt)
                                  * self.prey(hx))
        elif artillery and self._enemy_within(hx, 3):
            before.append(st.gun_range)
        after: tuple[float, ...] = ()
        if st.weak_reach > 1 and worn and not in_front and hx not in victory \
                and self._enemy_within(hx, st.weak_reach):
            # Within the enemy's reach of a move and a melee (6.1, 7.1): as bad as the
            # line.
            after = (-st.weak_in_front,)
        return (tuple(before), True, after)

    def _limit(self, hx: str) -> int:
        return 1 if self.columns.get(hx) else self.facts.stacking.get(hx, 0)

    def _room(self, at: str) -> list[str]:
        """5.32: the hexes next to ``at`` that a worn block there could be repulsed into
        now (friendly, no enemy block, room to stack)."""
        return [n for n in self.facts.nbrs.get(at, ()) if self.control.get(n) == self.seat
                and n not in self.enemy_at and self.garrison.get(n, 0) < self._limit(n)]

    def room_cost(self, uid: str, hx: str, here: str | None) -> int:
        """Worn blocks (at their last step) within the enemy's gun range (3 hexes, 5.31)
        that would have no hex to be repulsed into (5.32) after ``uid`` moves from ``here``
        to ``hx``: the mover itself, and each other that had one before the move."""
        if hx == here:
            return 0

        def freed(at: str) -> bool:  # ``here``, which the move empties, is room next to at
            return here is not None and here in self.facts.nbrs.get(at, ()) \
                and self.control.get(here) == self.seat and here not in self.enemy_at

        cost = 0
        label = self.unit(uid)
        if self.strength(uid) <= 1 and label is not None and not label.is_hq \
                and self._enemy_within(hx, 3) and not self._room(hx) and not freed(hx):
            cost += 1
        if self.garrison.get(hx, 0) + 1 < self._limit(hx) or self.control.get(hx) != self.seat \
                or hx in self.enemy_at:
            return cost  # hx keeps room after the move (or is no repulse hex)
        if self._worn is None:
            self._worn = {}
            for other, u in self.own_on.items():
                lab = self.unit(other)
                if lab is not None and not lab.is_hq \
                        and int(u.get("strength", 0)) <= 1 \
                        and self._enemy_within(str(u["hex"]), 3):
                    self._worn.setdefault(str(u["hex"]), []).append(other)
        for n in self.facts.nbrs.get(hx, ()):
            for other in self._worn.get(n, ()):
                if other != uid and self._room(n) == [hx] and not freed(n):
                    cost += 1
        return cost

    def prey(self, hx: str) -> float:
        """How easily a block standing in ``hx`` could finish an enemy block next to it:
        1 for a lone 1-step block, less the more steps must be shot away first (5.23)."""
        got = self._prey_cache.get(hx)
        if got is None:
            got = 0.0
            for n in self.facts.nbrs.get(hx, ()):
                blocks = self.enemy_blocks.get(n)
                if blocks:
                    got = max(got, 1.0 / (1.0 + sum(max(0, s - 1) for _, s in blocks)))
            self._prey_cache[hx] = got
        return got

    def _enemy_within(self, hx: str, r: int) -> int:
        return self._reach.within(hx, r)

    def hq_near(self, label: Unit | None) -> dict[str, int]:
        """For an HQ: blocks of its corps (every corps' for an HQ of none) within its
        command range (4.5) of each hex found so far, by hex; kept across decisions under
        the corps' hexes when the doctrine keeps them (``move_memo``)."""
        rng = (label.command_range or 1) if label else 1
        corps = label.corps if label else ""
        # A corps' HQs differ in range (a CHQ reaches farther than its DHQs, 4.5).
        got = self._hq_rows.get((corps, rng))
        if got is None:
            if self._hq_kept is None:
                got = {}
            else:
                hexes = self._corps_hexes.get(corps, []) if corps \
                    else [h for hs in self._corps_hexes.values() for h in hs]
                got = self._hq_kept.get((self.facts, tuple(sorted(hexes)), rng))
            self._hq_rows[(corps, rng)] = got
        return got

    def _hq_near(self, label: Unit | None, hx: str) -> int:
        rng = (label.command_range or 1) if label else 1
        corps = label.corps if label else ""
        row = self.facts.table[hx]
        if corps:
            hexes = self._corps_hexes.get(corps, [])
        else:
            hexes = [h for hs in self._corps_hexes.values() for h in hs]
        return sum(1 for h in hexes if row[h] <= rng)

    def _control_of(self, v: str, count: Counter[str],
                    moved: Mapping[str, int] | None = None) -> str | None:
        """6.61 (``control_at``) for one hex, with own blocks counted per hex in ``count``
        changed by ``moved`` (hex -> blocks more or fewer)."""
        delta = moved or {}

        def side_at(h: str) -> str | None:
            if count.get(h, 0) + delta.get(h, 0) > 0:
                return self.seat
            return self.enemy if h in self.enemy_at else None

        return control_at(v, side_at, self.facts.nbrs)

    def control_gain(self, dest: str, here: str | None) -> float:
        """Victory points the move ``here`` -> ``dest`` wins (or loses) for the seat in the
        control the blocks would give if the turn ended now (6.61, 9.1)."""
        if dest not in self._near and (here is None or here not in self._near):
            return 0.0  # most moves: no victory hex within 1 of either end
        key = (dest, here)
        got = self._flip_cache.get(key)
        if got is not None:
            return got
        touched = sorted(set(near_victory(self.facts, dest)
                             + (near_victory(self.facts, here) if here is not None else ())))
        gain = 0.0
        moved = {dest: 1}
        if here is not None:
            moved[here] = moved.get(here, 0) - 1
        for v in touched:
            before_c = self._control_now.get(v, "?")
            if before_c == "?":
                before_c = self._control_now[v] = self._control_of(v, self.garrison)
            after_c = self._control_of(v, self.garrison, moved)
            gain += self.facts.victory[v] * (self._worth(after_c) - self._worth(before_c))
        self._flip_cache[key] = gain
        return gain

    def _worth(self, controller: str | None) -> float:
        """What a victory hex under ``controller`` is worth to the seat: the CSA scores
        only hexes it controls (9.11); for the USA, denying is what counts."""
        if self.seat == "csa":
            return 1.0 if controller == "csa" else 0.0
        return 0.0 if controller == "csa" else (1.0 if controller == "usa" else 0.7)

    def strength(self, uid: str) -> int:
        u = self.own.get(uid)
        return int(u.get("strength", 0)) if u else 0

    def missing(self, uid: str) -> int:
        label = self.unit(uid)
        return max(0, (label.max_strength if label else 0) - self.strength(uid))

    def front_troops_in_range(self, hq: str) -> int:
        """Blocks of ``hq``'s corps in the front line within its command range (4.5);
        asked once per HQ and decision (an HQ's activations are listed per destination)."""
        got = self._per_hq.get(("front", hq))
        if got is None:
            got = self._per_hq[("front", hq)] = self._front_troops_in_range(hq)
        return got

    def _front_troops_in_range(self, hq: str) -> int:
        label, u = self.unit(hq), self.own.get(hq)
        if label is None or u is None or not u.get("hex"):
            return 0
        rng = label.command_range or 0
        n = 0
        for uid, o in self.own_on.items():
            lab = self.unit(uid)
            if lab is None or lab.is_hq or lab.corps != label.corps:
                continue
            if o["hex"] in self.front and self.facts.dist(str(u["hex"]), str(o["hex"])) <= rng:
                n += 1
        return n

    def depleted_in_range(self, hq: str) -> int:
        """Steps missing from the blocks ``hq`` may supply (8.2), once per HQ and decision."""
        got = self._per_hq.get(("depleted", hq))
        if got is None:
            got = self._per_hq[("depleted", hq)] = self._depleted_in_range(hq)
        return got

    def _depleted_in_range(self, hq: str) -> int:
        label, u = self.unit(hq), self.own.get(hq)
        if label is None or u is None or not u.get("hex"):
            return 0
        rng = label.command_range or 0
        # Only the HQ's own corps: 8.2 supply runs down the chain of command (an AHQ,
        # whose corps is "army", supplies everyone).
        army = label.type == "ahq"
        total = 0
        for uid, o in self.own_on.items():
            lab = self.unit(uid)
            if uid == hq or lab is None or not (army or lab.corps == label.corps):
                continue
            if self.facts.dist(str(u["hex"]), str(o["hex"])) <= rng:
                total += self.missing(uid)
        return total


class BocDoctrine:
    """Scores BoC actions for the ``general`` agent (see the module doc)."""

    def __init__(self, style: Style | None = None,
                 styles: Mapping[StyleKey, Style] | None = None, keep: bool = True) -> None:
        self.oob = default_oob()
        self.style = style  # None: by seat and scenario (``styles``, else the general's)
        #: Styles by (seat, scenario), or (seat, scenario, day) for one day of a multi-day
        #: scenario, that replace the general's own (``GENERAL_STYLES``) where given: e.g.
        #: the tuned styles (``gettysburg.boc.ai.tuned``).
        self.styles: dict[StyleKey, Style] = dict(styles or {})
        #: Whether to keep move values from one decision to the next (issue 59, ``memo``);
        #: ``keep=False`` scores every decision from scratch (the same scores, slower).
        self.keep = keep
        self._handlers: dict[str, Any] = {}  # ``score``'s method by action type
        self._local = threading.local()  # ``memo``: one per thread

    @property
    def memo(self) -> MoveMemo:
        """What this doctrine keeps between decisions (``move_memo``), one per thread: a
        server's games may ask one doctrine from several threads at once."""
        got: MoveMemo | None = getattr(self._local, "memo", None)
        if got is None:
            got = self._local.memo = MoveMemo()
        return got

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without what it keeps (a player's checkpoint holds its doctrine)."""
        state = dict(self.__dict__)
        del state["_local"], state["_handlers"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._handlers = {}
        self._local = threading.local()

    def style_for(self, view: JSONDict) -> Style:
        """The style this doctrine plays the view's seat, scenario and day with."""
        if self.style is not None:
            return self.style
        seat, scenario = str(view.get("seat")), str(view.get("scenario"))
        day = view.get("day")
        return (self.styles.get((seat, scenario, day)) if isinstance(day, int) else None) \
            or self.styles.get((seat, scenario)) or general_style(seat, scenario)

    def situation(self, view: JSONDict) -> Situation:
        return Situation(view, facts_for(view), self.oob, self.style_for(view))

    def _keep(self, sit: Situation) -> None:
        """Hand ``sit`` the kept tables of its contexts (``move_memo``); a new move
        context starts from the last one of the same terms context (``carry_over``)."""
        terms = sit.terms_context()
        kept_terms = self.memo.terms.get(terms)
        sit.keep_terms(kept_terms.terms)
        sit.keep_hq_rows(self.memo.hq_near)
        context = sit.move_context(terms)
        if context is None:
            return
        kept = self.memo.moves.get(context)
        sit.keep_moves(kept)
        if kept.garrison is None:  # a new move context: start from the last one's
            if kept_terms.latest is not None:
                self.memo.carried += sit.carry_over(kept_terms.latest, kept)
            kept.garrison = sit.around_garrison()
            kept.objectives = tuple(sit.objectives_now)
        kept_terms.latest = kept

    def scores(self, view: JSONDict, legal: Sequence[Action]) -> list[float]:
        sit = self.situation(view)
        if self.keep:
            self._keep(sit)
        # Moves are most of the actions, listed unit by unit: the moves of a unit are
        # scored together (``_s_moves``), other actions one by one, after the melees and
        # entries on offer are known (one pass over the list, issue 59).
        plan: list[Action | tuple[str, str, list[Sequence[str]]]] = []
        paths: list[Sequence[str]] = []  # the run of moves of one unit from one hex
        unit: object = None
        here: object = None
        for a in legal:
            kind = a.get("type")
            if kind == "move":
                path = a["path"]
                if paths and (a["unit"] != unit or path[0] != here):
                    plan.append((str(unit), str(here), paths))
                    paths = []
                unit, here = a["unit"], path[0]
                paths.append(path)
                continue
            if paths:
                plan.append((str(unit), str(here), paths))
                paths = []
            if kind == "melee" and not a.get("unsupported") and "entry" not in a:
                sit.melee_offers.setdefault(str(a["target"]), []).append(a)
            elif kind == "enter":
                sit.entries.setdefault(str(a["unit"]), set()).add(str(a["entry"]))
            plan.append(a)
        if paths:
            plan.append((str(unit), str(here), paths))
        out: list[float] = []
        for item in plan:
            if isinstance(item, tuple):
                out += self._s_moves(sit, *item)
            else:
                out.append(self.score(sit, item))
        return out

    def score(self, sit: Situation, a: Action) -> float:
        kind = str(a.get("type"))
        if kind in DONE_TYPES:
            return 0.0
        handler = self._handlers.get(kind, self)
        if handler is self:
            handler = self._handlers[kind] = getattr(self, f"_s_{kind}", None)
        return float(handler(sit, a)) if handler is not None else -0.05

    # --- movement --------------------------------------------------------------------------
    def _s_move(self, sit: Situation, a: Action) -> float:
        return self._s_moves(sit, str(a["unit"]), str(a["path"][0]), [a["path"]])[0]

    def _s_moves(self, sit: Situation, uid: str, here: str, paths: Sequence[Sequence[str]]
                 ) -> list[float]:
        """``_s_move`` of the moves of unit ``uid`` from ``here`` along ``paths``."""
        if sit.move_memo is not None:
            return self._s_moves_kept(sit, sit.move_memo, uid, here, paths)
        stay = sit.hex_value(uid, here, here)
        weight, gain_of = sit.control_weight, sit.control_gain
        dests = [str(p[-1]) for p in paths]
        # Each destination is one move: their values are not kept (no use again).
        values = sit.hex_values(uid, here, dests)
        # Most moves start and end away from every victory hex: control_gain's own first
        # test, asked here without the call (issue 59).
        near = sit.near_victory_hexes if here not in sit.near_victory_hexes else None
        # Move only for a real gain.
        return [value - stay + weight * (0.0 if near is not None and dest not in near
                                         else gain_of(dest, here))
                - 0.01 * len(p) - 0.05
                for value, dest, p in zip(values, dests, paths, strict=True)]

    def _s_moves_kept(self, sit: Situation, memo: dict[str, UnitMoves], uid: str,
                      here: str, paths: Sequence[Sequence[str]]) -> list[float]:
        """``_s_moves`` from the parts kept since an earlier decision in the same context
        (``move_memo``), made and kept when missing: the same numbers, the same order of
        operations."""
        dests = tuple([str(p[-1]) for p in paths])
        key = (here, sit.strength(uid), sit.corps_key(uid))
        kept = memo.get(uid)
        if kept is None or kept.key != key or kept.dests != dests:
            self.memo.misses += 1
            values = sit.hex_values(uid, here, dests, stacking=False)
            near = sit.near_victory_hexes if here not in sit.near_victory_hexes else None
            gains = [0.0 if near is not None and dest not in near
                     else sit.control_gain(dest, here) for dest in dests]
            kept = UnitMoves(key, dests, tuple(values), tuple(gains),
                             sit.hex_values(uid, here, (here,), stacking=False)[0])
            memo[uid] = kept
        else:
            self.memo.hits += 1
        over = sit.overstacked
        stay = OVERSTACK if over(uid, here, here) else kept.stay
        weight = sit.control_weight
        # Only the hexes that may be full are asked (``may_overstack``).
        may, stacking = sit.may_overstack(here), sit.facts.stacking
        # Move only for a real gain.
        return [(OVERSTACK if (dest in may or dest not in stacking) and over(uid, here, dest)
                 else value) - stay + weight * gain - 0.01 * len(p) - 0.05
                for value, gain, dest, p in zip(kept.values, kept.gains, dests, paths,
                                                strict=True)]

    def _s_enter(self, sit: Situation, a: Action) -> float:
        dest = str(a["path"][-1])
        return 1.0 + sit.hex_value(str(a["unit"]), dest, None) \
            + sit.control_weight * sit.control_gain(dest, None) - 0.001 * len(a["path"])

    def _s_leave_map(self, sit: Situation, a: Action) -> float:
        return -3.0

    def _s_formation(self, sit: Situation, a: Action) -> float:
        """6.0 column/line option: the general keeps every unit in line (a column doctrine
        was measured and gained nothing: experiments/README.md, formation trials)."""
        return -0.2

    def _s_swap(self, sit: Situation, a: Action) -> float:
        return -0.1

    # --- command and supply -----------------------------------------------------------------
    def _s_activate(self, sit: Situation, a: Action) -> float:
        hq = str(a["hq"])
        # An HQ at 1 step stays idle but in the turn before a count (``spend_last_step``).
        if sit.night or sit.strength(hq) < (1 if sit.spend_last_step else 2):
            return -1.0
        st = sit.style
        return st.activate_per * sit.front_troops_in_range(hq) - st.activate_cost \
            - (0.01 if "to" in a else 0.0)

    def _s_hancock(self, sit: Situation, a: Action) -> float:
        return 1.0

    def _s_supply_activate(self, sit: Situation, a: Action) -> float:
        hq = str(a["hq"])
        if sit.strength(hq) < 2:
            return -1.0
        label = sit.unit(hq)
        sp = (label.command_range or 0) if label else 0
        return 0.3 * min(sit.depleted_in_range(hq), sp) - 0.7 - (0.01 if "to" in a else 0.0)

    def _s_supply(self, sit: Situation, a: Action) -> float:
        uid = str(a["unit"])
        u = sit.own.get(uid, {})
        front = 0.3 if u.get("hex") in sit.front else 0.0
        return 0.5 + 0.2 * sit.missing(uid) + front

    def _s_night_supply(self, sit: Situation, a: Action) -> float:
        uid = str(a["unit"])
        return 0.3 + 0.1 * sit.missing(uid) + 0.05 * int(a.get("steps", 1))

    # --- combat ----------------------------------------------------------------------------
    def _s_fire(self, sit: Situation, a: Action) -> float:
        uid, target = str(a["unit"]), str(a["target"])
        through = str(a.get("through", target))
        label, u = sit.unit(uid), sit.own.get(uid)
        if label is None or u is None or not u.get("hex"):
            return 0.0
        here = str(u["hex"])
        info = sit.facts.board.hex(target)
        long_range = label.type in ARTILLERY_TYPES and sit.facts.dist(here, target) >= 2
        if long_range:
            fp = label.long_firepower or label.firepower  # 5.31 no terrain at range
        else:
            fp = label.firepower - fire_penalty(sit.facts, here, through)
        hits = expected_hits(sit.strength(uid), fp, info.double_defence)
        bonus = 0.1 if a.get("at") == "artillery" else 0.0
        # A block eliminated is a victory point (9.12): favour shots that can finish one.
        # Long-range hits repulse instead of eliminating (5.32).
        kill = 0.0 if long_range else sit.style.kill_weight * kill_chance(
            sit.strength(uid), fp, sit.steps_before_loss(target), info.double_defence)
        return 0.1 + hits + kill + bonus + sit.style.fire_vp * sit.facts.victory.get(target, 0)

    def _s_melee(self, sit: Situation, a: Action) -> float:
        if sit.night:
            return -1.0
        target, uid = str(a["target"]), str(a["unit"])
        unsupported = bool(a.get("unsupported"))
        entry = "entry" in a
        frm = None if entry else str(sit.own.get(uid, {}).get("hex") or "") or None
        attackers = [self._attacker(sit, uid, frm, target)]
        if not unsupported:
            used = {frm} if frm else set()
            for other_uid, other_from, _kind in sit.declared.get(target, []):
                attackers.append(self._attacker(sit, other_uid, other_from, target))
                if other_from:
                    used.add(other_from)
            # The best block still free in each other hex next to the target may join
            # (7.1: one attacker per hexside), up to the target's stacking limit.
            best: dict[str, tuple[int, str]] = {}
            for offer in sit.melee_offers.get(target, []):
                ou = str(offer["unit"])
                oh = str(sit.own.get(ou, {}).get("hex") or "")
                if not oh or oh in used or ou == uid:
                    continue
                if oh not in best or sit.strength(ou) > best[oh][0]:
                    best[oh] = (sit.strength(ou), ou)
            room = max(1, sit.facts.stacking.get(target, 1)) - len(attackers)
            for _s, ou in sorted(best.values(), reverse=True)[:max(0, room)]:
                attackers.append(self._attacker(sit, ou, str(sit.own[ou]["hex"]), target))
        defenders = self._enemy_fighters(sit, target, defending=True)
        o = outlook(attackers, defenders, rounds=2 if unsupported else 3, guess=sit.guess)
        val = o.value(True, self._hex_worth(sit, target))
        if val < (sit.style.melee_min_behind if sit.behind and sit.late
                   else sit.style.melee_min):
            return -1.0
        return 0.3 + val + 0.02 * sit.strength(uid) - (0.3 if unsupported else 0.0)

    def _attacker(self, sit: Situation, uid: str, frm: str | None, target: str) -> Fighter:
        pen = 0
        if frm is not None and frm in sit.facts.hexes:
            pen = sit.facts.melee_penalty(frm, target)  # 7.3
        return fighter(sit.unit(uid), sit.seat, sit.strength(uid), False, pen)

    def _enemy_fighters(self, sit: Situation, hx: str, defending: bool) -> list[Fighter]:
        return [fighter(sit.unit(eid) if eid else None, sit.enemy, s, defending)
                for eid, s in sit.enemy_blocks.get(hx, []) if s > 0 and not sit.is_hq(eid)]

    def _hex_worth(self, sit: Situation, hx: str) -> float:
        """What holding or taking a hex in a melee is worth besides the blocks: a victory
        hex changes hands with its points (9.11)."""
        return 0.3 + sit.facts.victory.get(hx, 0)

    def _battle_values(self, sit: Situation, leaving: str | None) -> float:
        """Our side's expected net worth of the melee being fought, with the block
        ``leaving`` taken out of it (a retreat) or everyone fighting on (None)."""
        b = sit.battle or {}
        hx = str(b.get("hex") or "")
        we_attack = b.get("attacker") == sit.seat
        rnd = int(b.get("round", 1))
        total = 2 if b.get("kind") == "unsupported" else 3
        ours = [str(x) for x in (b.get("attackers") if we_attack else b.get("defenders")) or []]
        theirs = [str(x) for x in (b.get("defenders") if we_attack else b.get("attackers")) or []]
        strength = {eid: s for blocks in sit.enemy_blocks.values() for eid, s in blocks if eid}
        own = [fighter(sit.unit(u), sit.seat, sit.strength(u), not we_attack)
               for u in ours if u != leaving and sit.strength(u) > 0]
        foe = [fighter(sit.unit(e), sit.enemy, strength.get(e, GUESS_STRENGTH), we_attack)
               for e in theirs if strength.get(e, GUESS_STRENGTH) > 0]
        # Penalties of round 1 are already behind us from round 2 on; in round 1 they are
        # small next to the fight itself, so the estimate leaves them out here.
        rounds = max(1, total - rnd + 1)
        if we_attack:
            return outlook(own, foe, rounds, guess=sit.guess).value(True, self._hex_worth(sit, hx))
        return outlook(foe, own, rounds, guess=sit.guess).value(False, self._hex_worth(sit, hx))

    def _in_open_melee(self, sit: Situation) -> bool:
        b = sit.battle or {}
        return bool(b.get("hex")) and b.get("kind") != "cavalry"

    def _s_melee_resolve(self, sit: Situation, a: Action) -> float:
        return 0.1

    def _s_melee_fight(self, sit: Situation, a: Action) -> float:
        return 0.5

    def _s_melee_line(self, sit: Situation, a: Action) -> float:
        return 0.6

    def _s_melee_retreat(self, sit: Situation, a: Action) -> float:
        uid = str(a.get("unit", ""))
        to = str(a.get("to", ""))
        if not self._in_open_melee(sit):  # off-map cavalry battles: the old rule of thumb
            return 0.6 if uid and sit.strength(uid) <= 1 else -0.2
        here = str(sit.own.get(uid, {}).get("hex") or "")
        b = sit.battle or {}
        if b.get("attacker") != sit.seat and to in sit.facts.hexes:
            # A defender's retreat hex must have stacking room, or 6.2 eliminates the
            # excess at the end of the phase.
            room = sit.facts.stacking.get(to, 0) - sit.garrison.get(to, 0)
            if room < 1:
                return -5.0
        gain = self._battle_values(sit, uid) - self._battle_values(sit, None)
        where = 0.0
        if to in sit.facts.hexes and here in sit.facts.hexes:
            where = 0.05 * max(-1.0, min(1.0, sit.hex_value(uid, to, here)))
        return 0.5 + gain - 0.1 + where

    def _s_casualty(self, sit: Situation, a: Action) -> float:
        # Among equally strong blocks (5.23) spare the HQ, unless the hit would eliminate
        # the other block: an HQ at 1 falls to 0 and stays (7.5), a brigade at 1 is a
        # victory point lost (9.12).
        uid = str(a.get("unit", ""))
        hq = sit.is_hq(uid)
        strength = int(sit.own.get(uid, {}).get("strength") or 0)
        dies = would_eliminate(strength, hq)
        return 0.1 - (0.05 if hq else 0.0) - (0.5 if dies else 0.0)

    def _s_repulse(self, sit: Situation, a: Action) -> float:
        to = str(a.get("to", ""))
        uid = str(a.get("unit", ""))
        if to not in sit.facts.hexes:
            return 0.1
        return 0.1 + 0.1 * sit.hex_value(uid, to, None)

    def _s_regroup(self, sit: Situation, a: Action) -> float:
        uid, to = str(a.get("unit", "")), str(a.get("to", ""))
        here = str(sit.own.get(uid, {}).get("hex") or to)
        if to not in sit.facts.hexes or here not in sit.facts.hexes:
            return -0.1
        return sit.hex_value(uid, to, here) - sit.hex_value(uid, here, here) - 0.1

    def _s_cavalry_assign(self, sit: Situation, a: Action) -> float:
        return 0.3

    def _s_cavalry_custer(self, sit: Situation, a: Action) -> float:
        return 0.2 if a.get("move") else 0.1

    # --- evaluation ------------------------------------------------------------------------
    def evaluate(self, view: JSONDict) -> float:
        """The CSA total (9.1) with control projected from where the blocks stand now,
        from the seat's side, plus a little for the seat's strength on the map."""
        seat = str(view.get("seat"))
        total = float(projected_total(view, facts_for(view)))
        own = sum(int(u.get("strength", 0)) for u in view.get("units", [])
                  if u.get("side") == seat and u.get("status") == "on_map")
        sign = 1.0 if seat == "csa" else -1.0
        return sign * total + 0.05 * own


def projected_control(view: JSONDict, facts: MapFacts) -> dict[str, str]:
    """6.61 applied to the blocks as they stand (every block's side and hex is public): the
    control the next end of a player turn would fix if nothing moved."""
    occ: dict[str, str] = {}
    for u in view.get("units", []):
        if u.get("status", "on_map") == "on_map" and u.get("hex"):
            occ[str(u["hex"])] = str(u["side"])
    for h in view.get("hidden", []):
        if h.get("hex"):
            occ[str(h["hex"])] = str(h["side"])
    return control_of(occ, facts.nbrs)


def projected_total(view: JSONDict, facts: MapFacts) -> int:
    """CSA victory hexes under projected control + USA losses - CSA losses (9.1, 9.12)."""
    control = projected_control(view, facts)
    losses = view.get("losses") or {}
    terrain = sum(p for v, p in facts.victory.items() if control.get(v) == "csa")
    return terrain + int(losses.get("usa", 0)) - int(losses.get("csa", 0))

