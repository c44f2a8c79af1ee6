"""What the BoC doctrine reads from a scenario's public file and set-up: the guess of a
hidden block's strength, the victory bands (9.1) and when the verdicts fall (9.1-9.5)."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from gettysburg.boc.ai.facts import scenario_source
from gettysburg.boc.ai.melee_outlook import GUESS_STRENGTH
from gettysburg.boc.game import BocGame, load_context
from gettysburg.boc.oob import default_oob
from gettysburg.boc.scenario import parse_scenario
from gettysburg.boc.state import NIGHT_HOUR
from gettysburg.core.doctrine import JSONDict
from gettysburg.core.protocol import new_game

LAST_DAY_HOUR = 20  # the last day turn (8 PM) before night (9.7)
# Facts read from scenario files, kept for this many scenarios: a long-lived server meets
# any number of custom scenario files (as ``belief.STARTS_KEPT``).
SCENARIOS_KEPT = 32


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


