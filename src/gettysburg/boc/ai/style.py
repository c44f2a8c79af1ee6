"""The weights of the BoC doctrine's intent (``Style``) and which the general plays where.

``Style()`` is the ``general``'s commander; ``GENERAL_STYLES`` the seats and scenarios where
it plays another, measured against it; ``STYLES`` the variants the ``search`` agent may try
for a player turn. ``style_key`` gives each distinct style a number, a key part hashed at
once (``move_keeping.terms_context``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import count

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
        return decay_powers(self.decay)


@cache
def decay_powers(decay: float) -> tuple[float, ...]:
    """``decay`` to the power of each distance (``Style.decay_pow``)."""
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


#: A number per distinct ``Style`` met (equal styles share one), by ``id``, with the style
#: kept so that its id is not reused: a key part hashed at once (``move_keeping.terms_context``).
_STYLE_KEYS: dict[int, tuple[Style, int]] = {}
_STYLE_NUMBERS: dict[Style, int] = {}
_NEXT_STYLE = count()  # never a number twice, so a key kept elsewhere cannot mislead
STYLE_KEYS_KEPT = 256


def style_key(style: Style) -> int:
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
