"""Random legal play through Herr Ridge and Little Round Top to their ends (issue 52), with
the invariants checked after every action and a replay at the end.

The player picks an action type first, then an action of that type, leaning towards the
ones that move the game on, so a game ends in seconds; every action it takes is one that
``legal_actions`` listed."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gettysburg.core.dice import Dice
from gettysburg.core.protocol import load_game, new_game
from gettysburg.gbacw import formation_step, random_events
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.extension import check_column_chain
from gettysburg.gbacw.game import GbacwGame, facing_kind
from gettysburg.gbacw.stacking import stack_problem

# how much more likely each type is to be picked than a move (moves are the costly part)
# orders_step, engineering_step, end_segment
WEIGHTS = {"alexander_swap": 1, "attach": 1, "build": 1, "idle_rally": 1,
           "end_orders": 6, "first_am": 4, "end_orders_change": 6, "end_activation": 3, "warren": 1,
           "barrage": 1, "barrage_fire": 2,  # barrage_step.py
           "buford_leaves": 1, "buford_stays": 1, "entry_area": 1,  # scenario_step.py
           "place_works": 1,  # setup_works.py
           "leave_map": 1,  # off_map_step.py
           "trimble": 1,  # special_units.py
           "hold_cavalry": 1, "withdraw_cavalry": 1, "return_cavalry": 1,  # cavalry_step.py
           "event_choice": 2, "event_move": 2, "event_pass": 1, "relieve": 1,  # event_choices.py
           "hero_policy": 1,  # battle_book_step.py (004 §18.0 P)
           "end_brigade": 4, "activate": 4, "activate_group": 2, "roll_orders": 1, "set_orders": 1,
           "reserve": 1,
           "transfer": 1, "move": 2, "face": 1, "move_leader": 1, "fire": 2,
           "fire_split": 1, "combined_fire": 1, "rapid_fire": 1,  # fire_action.py
           "withdrawal_fire": 2, "approach_fire": 2, "let_pass": 2,  # nonphasing_fire.py
           "withdrawal_fire_reserve": 1, "approach_fire_reserve": 1,  # nonphasing_fire.py
           "resupply": 1, "resupply_face": 1,  # ammunition.py, resupply_turn.py
           "mount": 1, "dismount": 1,  # mounting.py
           "return_fire_reserve": 1, "rapid_return_fire": 1,  # return_fire.py
           "coordinate": 2, "rally": 2, "rally_face": 1, "move_commander": 1, "end_commanders": 6,
           "share": 1, "raise": 1, "shock": 3, "withdraw": 2, "stand": 3,
           "return_fire": 3, "hold": 2, "react": 2, "no_reaction": 3,
           "react_refuse": 1, "react_move": 2,  # reaction_step.py
           "pre_shock_fire": 3, "retreat": 3, "advance": 2, "no_advance": 2,
           "continue_shock": 3, "shock_advance": 2,
           "end_shock": 2, "charge": 2, "counter_charge": 2, "break_charge": 2,
           "extend": 1, "retract": 1, "refuse": 1, "unrefuse": 2,  # formation_step.py
           "restack": 1, "move_stack": 2, "form": 1,
           "withdrawal_move": 2}
MAX_ACTIONS = 1500
MELEE = str(Path(__file__).parent / "data" / "gbacw" / "melee.yaml")
HIDDEN_TYPES = ("efficiency", "pool", "orders", "orders_change", "transfer", "reserve", "chain",
                "share", "raise", "fatigue", "stragglers")


def check_invariants(g: GbacwGame, moved: str | None) -> None:
    p = g.pos
    # one place per unit, on the map or off it, and a counter of its own
    counters = Counter(u.counter for u in p.units.values())
    assert max(counters.values()) == 1
    for k, u in p.units.items():
        if u.hex is not None:
            assert g.hex_of(u.hex) in g.cat.board.hexes
            assert u.facing is not None
            # the facing's kind fits the brigade's orders (002 §7.1)
            assert u.facing.kind == facing_kind(g.orders_of(k)), (k, u.facing)
    # formations (002 §8.4, §8.5): every part on the map, a line whole, no part of one
    # unit where another unit's part is
    parts: dict[str, str] = {}
    for k, u in sorted(p.units.items()):
        if u.extends:
            assert u.hex is not None and u.extension in ("line", "column")
            assert all(g.hex_of(x) in g.cat.board.hexes for x in u.extends)
            if u.extension == "line":
                assert formation_step.line_of(g, k) is not None, (k, u.extends)
            else:  # a column's parts: lead, then each extension next to the one before
                check_column_chain(formation_step.parts(g, k))
            for x in u.extends:
                assert x not in parts, (k, x, parts.get(x))
                parts[x] = k
    if moved is not None and p.units[moved].hex is not None:
        check_moved_stacks(g, moved)


def check_moved_stacks(g: GbacwGame, moved: str) -> None:
    """A unit that just moved ended in legal stacks (002 §8.12) in every hex it holds, each
    unit counted with the SP its part holds there (§8.44, §8.5: the counter's hex takes the
    odd SP); a column ends its move alone in each of its hexes (§8.5). The one problem
    allowed: a lone unit on March whose column is still shorter than its size (a short move
    from a hex where it stood gathered leaves the lead over the limit until it moves on)."""
    p = g.pos
    u = p.units[moved]
    strengths = {k: formation_step.part_strengths(g, k) for k, v in sorted(p.units.items())
                 if v.seat == u.seat and v.hex is not None}
    for h, sp in formation_step.part_strengths(g, moved).items():
        others = [k for k in strengths if k != moved and h in strengths[k]]
        if u.extension == "column" and u.extends:
            assert not others, (moved, h, others)
        entries = [replace(g.stack_entry(k), sp=strengths[k][h]) for k in others]
        entries.append(replace(g.stack_entry(moved), sp=sp))
        problem = stack_problem(entries, g.orders_of(moved))
        short = len(u.extends) < formation_step.column_size(g, moved)
        assert problem is None or (len(entries) == 1 and short
                                   and "extend the column" in str(problem)), (moved, h, problem)
    # the fog: no enemy orders, EMs, AM counts or pool markers in a seat's view or events
    for seat in ("usa", "csa"):
        view = g.view(seat)
        assert all(b["seat"] == seat for b in view["brigades"].values())
        own_divisions = set(g.divisions(seat))
        assert set(view["ams"]) <= own_divisions
        assert all(m.startswith(seat + "/") for m in view["pool"])
        own_commands = {c for c, _ in g._commands(seat)}
        assert set(view["em"]) <= own_commands
        for e in g.events(seat, since=max(0, g.log_size(seat) - 12)):
            if e["type"] in HIDDEN_TYPES and not e.get("redacted"):
                assert e["data"].get("seat", seat) == seat
                brigade = e["data"].get("brigade")
                assert brigade is None or p.brigades[brigade].seat == seat
            if e["type"] == "dice":
                for r in e["data"].get("rolls", []):
                    assert r["purpose"] != "activation draw"
                    assert not r["purpose"].startswith("efficiency " + ("csa" if seat == "usa"
                                                                          else "usa"))


def play(scenario: str, seed: int, data: st.DataObject, game: GbacwGame | None = None
         ) -> GbacwGame:
    g = new_game(f"gbacw/{scenario}", seed=seed) if game is None else game
    assert isinstance(g, GbacwGame)
    for _ in range(MAX_ACTIONS):
        if g.is_terminal():
            break
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        assert legal, "a seat to move always has an action"
        kinds = sorted({a["type"] for a in legal})
        weighted = [k for k in kinds for _ in range(WEIGHTS[k])]
        kind = weighted[data.draw(st.integers(0, len(weighted) - 1))]
        choices = [a for a in legal if a["type"] == kind]
        action = choices[data.draw(st.integers(0, len(choices) - 1))]
        # validate accepts what legal_actions lists: a few others are checked too
        for other in (legal[data.draw(st.integers(0, len(legal) - 1))] for _ in range(2)):
            g.validate(other, seat)
        g.apply(action, seat)
        check_invariants(g, action.get("unit") if kind == "move" else None)
    assert g.is_terminal(), "the scenario reached its last turn"
    result = g.result()
    assert result is not None and result["scored"]
    return g


def check_replay(g: GbacwGame, scenario: str, seed: int) -> None:
    again = new_game(f"gbacw/{scenario}", seed=seed)
    for mv in g.history:
        again.apply(mv.action, mv.seat)
    assert again.state_hash() == g.state_hash()
    loaded = load_game(json.loads(json.dumps(g.to_json())))
    assert loaded.state_hash() == g.state_hash()


@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), data=st.data())
def test_random_play_herr_ridge(seed: int, data: st.DataObject) -> None:
    g = play("herr-ridge", seed, data)
    check_replay(g, "herr-ridge", seed)


@settings(max_examples=1, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), data=st.data())
def test_random_play_little_round_top(seed: int, data: st.DataObject) -> None:
    g = play("little-round-top", seed, data)
    check_replay(g, "little-round-top", seed)


@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), data=st.data())
def test_random_play_melee_with_shock(seed: int, data: st.DataObject) -> None:
    """Two brigades in contact from the start (tests/data/gbacw/melee.yaml): shock, the
    defender's withdraw/stand and fire come up, and every listed action is accepted."""
    g = play("melee", seed, data, GbacwGame(MELEE, seed=seed))
    again = GbacwGame(MELEE, seed=seed)
    for mv in g.history:
        again.apply(mv.action, mv.seat)
    assert again.state_hash() == g.state_hash()


# The long scenarios over a bounded number of actions (a turn of random play in Second or
# Third Day runs to hundreds of actions on boards of 400-600 counters: too long for the suite).
LONG_SCENARIOS = [("first-day", 120), ("second-day", 20), ("third-day", 20), ("battle", 20)]


@pytest.mark.parametrize(("scenario", "actions"), LONG_SCENARIOS)
@settings(max_examples=1, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), data=st.data())
def test_random_play_long_scenarios_bounded(scenario: str, actions: int, seed: int,
                                            data: st.DataObject) -> None:
    """Each long scenario from its set-up, random legal actions with the invariants checked
    after each, then the replay and a save's reload give the same hash."""
    g = new_game(f"gbacw/{scenario}", seed=seed)
    assert isinstance(g, GbacwGame)
    for _ in range(actions):
        if g.is_terminal():
            break
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        assert legal, "a seat to move always has an action"
        kinds = sorted({a["type"] for a in legal})
        weighted = [k for k in kinds for _ in range(WEIGHTS[k])]
        kind = weighted[data.draw(st.integers(0, len(weighted) - 1))]
        choices = [a for a in legal if a["type"] == kind]
        action = choices[data.draw(st.integers(0, len(choices) - 1))]
        g.apply(action, seat)
        check_invariants(g, action.get("unit") if kind == "move" else None)
    assert len(g.history) > 0
    check_replay(g, scenario, seed)


# 004 §18.0's letters that ask a player something (event_choices.py) or give a Hero marker
CHOICE_LETTERS = ("B", "D", "E", "G", "H", "K", "L", "N", "O", "P", "Q")


def forced_draw(data: st.DataObject) -> Callable[[Dice, frozenset[str]], random_events.Draw]:
    """The marker's drawing with its real dice, then a letter that asks for a choice picked
    by hypothesis (Herr Ridge draws the marker about once a game, and the table's letters
    are mostly no event or none for this side), resolved by the table's own cell for it."""
    chart = all_charts().random_events
    cells = {chart.event(first, second).letter: (first, second)
             for first in range(10) for second in range(10)}
    who = {side: next(r for r in range(10) if chart.who_rolls_for(r) == side)
           for side in ("usa", "csa")}

    def draw(dice: Dice, happened: frozenset[str] = frozenset()) -> random_events.Draw:
        real = real_draw(dice, happened)
        letters = [x for x in CHOICE_LETTERS if x not in happened]
        if not letters:
            return real
        letter = data.draw(st.sampled_from(letters))
        seat = data.draw(st.sampled_from(
            [s for s in ("usa", "csa") if s in next(e.sides for e in chart.events
                                                    if e.letter == letter)]))
        return random_events.resolve(who[seat], *cells[letter], happened)

    real_draw = random_events.draw_event
    return draw


def replaying(draws: list[random_events.Draw]
              ) -> Callable[[Dice, frozenset[str]], random_events.Draw]:
    """The same drawings again, in order, each after rolling the real drawing's dice."""
    left = iter(draws)

    def draw(dice: Dice, happened: frozenset[str] = frozenset()) -> random_events.Draw:
        real_draw(dice, happened)
        return next(left)

    real_draw = random_events.draw_event
    return draw


@settings(max_examples=1, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), data=st.data())
def test_random_play_herr_ridge_with_random_events(seed: int, data: st.DataObject) -> None:
    """004 §18.0's option on, the drawn letter forced to one that asks for a choice (or P):
    the event's choices (event_choice, event_move, event_pass), relieve and the Hero policy
    come up among the legal actions; the game ends, replays and reloads to the same hash."""
    options = ["random_events"]
    draws: list[random_events.Draw] = []
    pick = forced_draw(data)

    def recorded(dice: Dice, happened: frozenset[str] = frozenset()) -> random_events.Draw:
        draws.append(pick(dice, happened))
        return draws[-1]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(random_events, "draw_event", recorded)
        g = play("herr-ridge", seed, data, GbacwGame("herr-ridge", options=options, seed=seed))
    if draws:
        assert draws[0].letter in CHOICE_LETTERS
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(random_events, "draw_event", replaying(draws))
        again = GbacwGame("herr-ridge", options=options, seed=seed)
        for mv in g.history:
            again.apply(mv.action, mv.seat)
        assert again.state_hash() == g.state_hash()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(random_events, "draw_event", replaying(draws))
        loaded = load_game(json.loads(json.dumps(g.to_json())))
        assert loaded.state_hash() == g.state_hash()
