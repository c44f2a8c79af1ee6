"""Mundo Machango through the research adapters: OpenSpiel's random_sim_test and
PettingZoo's api_test on a bounded campaign, and its hooks' own promises (codec, no
leaks of the USA's hidden divisions or a battle hand, re-deals in the seat's information
set that keep what the seat knows)."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from gettysburg import systems
from gettysburg.core.protocol import new_game, research_hooks
from gettysburg.interop import SCENARIOS
from gettysburg.machango.game import MachangoGame
from gettysburg.machango.research import Recall, _compositions, encode, hooks, layout

HOOKS = hooks()
SPEC = "machango/campaign"
# A random player needs ~1,000 decisions for the whole campaign; 150 take it through the
# composition and the first hours (bombardments: chance nodes) in a few seconds.
SIM_DECISIONS = 150


def _game(seed: int = 0) -> MachangoGame:
    game = new_game(SPEC, seed=seed)
    assert isinstance(game, MachangoGame)
    return game


def _play(game: MachangoGame, rng: random.Random, steps: int) -> MachangoGame:
    for _ in range(steps):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        game.apply(rng.choice(game.legal_actions(seat)), seat)
    return game


def _fork(game: MachangoGame) -> MachangoGame:
    twin = HOOKS.fork(game)
    assert isinstance(twin, MachangoGame)
    return twin


@dataclass
class Campaign:
    """One random campaign: forks every 25 decisions to its end, and the legal actions of
    each decision."""

    snapshots: list[MachangoGame] = field(default_factory=list)
    legal: list[list[Any]] = field(default_factory=list)


@pytest.fixture(scope="module")
def campaign() -> Campaign:
    game, rng, out = _game(3), random.Random(3), Campaign()
    while not game.is_terminal():
        if len(out.legal) % 25 == 0:
            out.snapshots.append(_fork(game))
        seat = game.to_move()[0]
        out.legal.append(game.legal_actions(seat))
        game.apply(rng.choice(out.legal[-1]), seat)
    out.snapshots.append(game)
    return out


# --- registry and codec --------------------------------------------------------------------


def test_machango_is_served_through_its_declaration() -> None:
    assert SPEC in SCENARIOS
    research = systems.get("machango").research
    assert research is not None and research() is research_hooks("machango") is HOOKS


def test_id_ranges_tile_the_action_space() -> None:
    first = 0
    for kind, (start, n) in layout().items():
        assert start == first and n > 0, kind
        first += n
    assert HOOKS.action_space_size(_game()) == first
    assert encode({"type": "end_turn"}) == 0


def test_codec_is_injective_and_in_range_over_a_campaign(campaign: Campaign) -> None:
    game = campaign.snapshots[0]
    size, kinds = HOOKS.action_space_size(game), set()
    by_id: dict[int, Any] = {}
    for legal in campaign.legal:
        ids = HOOKS.encode_actions(game, legal)
        assert len(set(ids)) == len(ids) and all(0 <= i < size for i in ids)
        for i, action in zip(ids, legal, strict=True):
            assert by_id.setdefault(i, action) == action  # one id, one action, ever
            kinds.add(action["type"])
    assert {"compose", "move", "attack", "end_turn", "night_pass", "battle_card",
            "battle_order", "battle_move", "battle_fire", "battle_done"} <= kinds


def test_an_action_without_an_id_is_refused_naming_its_field() -> None:
    with pytest.raises(ValueError, match="'division'"):
        encode({"type": "move", "division": "nobody", "to": "x"})
    with pytest.raises(ValueError, match="'artillery'"):
        encode({"type": "compose", "division": "u_schurz", "artillery": 9})
    with pytest.raises(ValueError, match="type must be one of"):
        encode({"type": "charge"})


# --- no leaks --------------------------------------------------------------------------------


def _composed(artillery: int) -> MachangoGame:
    """The campaign after every division is composed, the USA's with ``artillery`` guns
    each (as far as its capacity allows), the CSA's alike in both."""
    game = _game(0)
    while game.phase == "compose":
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        k = artillery if seat == "usa" else 1
        game.apply(next(a for a in legal if a["artillery"] == min(k, len(legal) - 1)), seat)
    return game


def test_the_usas_hidden_divisions_reach_no_csa_observation() -> None:
    """Two campaigns differing only in what the USA put in its divisions look the same to
    the CSA (observation, tensor, text) and different to the USA (so the check can fail)."""
    one, two = _composed(0), _composed(1)
    for seat, same in (("csa", True), ("usa", False)):
        pictures = [(HOOKS.observation_json(g, seat), HOOKS.observation_tensor(g, seat),
                     HOOKS.render_text(g, seat)) for g in (one, two)]
        assert (pictures[0] == pictures[1]) is same
        assert len(pictures[0][1]) == HOOKS.tensor_size(one)
    assert "legal_actions" not in HOOKS.observation_json(one, "csa")
    assert ": ?" in HOOKS.render_text(one, "csa") and ": ?" not in HOOKS.render_text(one, "usa")


def test_no_leak_through_the_openspiel_information_state() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    adapter = pytest.importorskip("gettysburg.interop.openspiel")
    game = adapter.load(SPEC, max_decisions=SIM_DECISIONS)
    assert isinstance(game, pyspiel.Game)
    states = []
    for artillery in (0, 1):
        state = game.new_initial_state()
        while state.engine.phase == "compose":
            seat = state.engine.to_move()[0]
            legal = state.engine.legal_actions(seat)
            k = artillery if seat == "usa" else 1
            action = next(a for a in legal if a["artillery"] == min(k, len(legal) - 1))
            state.apply_action(HOOKS.encode_actions(state.engine, [action])[0])
        states.append(state)
    for player, same in ((1, True), (0, False)):
        a, b = ((s.information_state_string(player), s.observation_string(player),
                 list(s.observation_tensor(player))) for s in states)
        assert (a == b) is same


def test_a_battle_hand_reaches_no_enemy_observation(campaign: Campaign) -> None:
    fight = next(g for g in campaign.snapshots if g.fight is not None and g.fight["deck"])
    st = fight.fight
    assert st is not None
    holder = str(st["attacker"])
    enemy = str(st["defender"])
    twin = _fork(fight)
    assert twin.fight is not None
    hand, deck = twin.fight["hands"][holder], twin.fight["deck"]
    other = next(c for c in deck if c not in hand)
    hand[0], deck[deck.index(other)] = other, hand[0]
    for seat, same in ((enemy, True), (holder, False)):
        assert (HOOKS.observation_json(fight, seat) == HOOKS.observation_json(twin, seat)) \
            is same
        assert (HOOKS.observation_tensor(fight, seat)
                == HOOKS.observation_tensor(twin, seat)) is same


# --- re-deals -----------------------------------------------------------------------------------


def _losses(game: MachangoGame, did: str) -> tuple[int, list[int]]:
    figures = game.forces.figures
    units = game.divisions[did]["units"]
    return (sum(1 for _, f in units if f == 0),
            sorted(figures[k] - f for k, f in units if f > 0))


def test_resample_keeps_what_each_seat_sees_and_redeals_the_rest(
        campaign: Campaign) -> None:
    changed = {"composition": 0, "hand": 0}
    for n, game in enumerate(campaign.snapshots[1:-1]):
        for seat in ("usa", "csa"):
            twin = HOOKS.resample(game, seat, n)
            assert isinstance(twin, MachangoGame)
            assert HOOKS.observation_json(twin, seat) == HOOKS.observation_json(game, seat)
            assert HOOKS.observation_tensor(twin, seat) == HOOKS.observation_tensor(game, seat)
            assert twin.legal_actions(seat) == game.legal_actions(seat)
            for did, d in game.divisions.items():
                if d["units"] is None:
                    continue
                assert _losses(twin, did) == _losses(game, did), did  # what was announced
                if d["side"] == seat or d["revealed"]:
                    assert twin.divisions[did]["units"] == d["units"]
                else:
                    changed["composition"] += twin.divisions[did]["units"] != d["units"]
            if game.fight is not None:
                mine = game.fight["hands"][seat]
                assert twin.fight is not None and twin.fight["hands"][seat] == mine
                theirs = next(h for s, h in game.fight["hands"].items() if s != seat)
                new = next(h for s, h in twin.fight["hands"].items() if s != seat)
                assert len(new) == len(theirs)
                assert sorted(new + twin.fight["deck"]) == \
                    sorted(theirs + game.fight["deck"])
                changed["hand"] += new != theirs
            # The re-dealt world plays on.
            mover = twin.to_move()
            if mover:
                twin.apply(twin.legal_actions(mover[0])[0], mover[0])
    assert changed["composition"] > 10 and changed["hand"] > 0, changed


def test_compositions_fit_losses_and_restored_kinds() -> None:
    """Capacity 3, infantry 4 and artillery 2 figures: a unit that lost 2 and stands is
    infantry, so at most two guns; a restored gun means at least one; two units dead
    leave one unit to carry a loss of 3, which only infantry bears."""
    assert _compositions(3, [0, 0, 0], set()) == [0, 1, 2, 3]
    assert _compositions(3, [2, 0, 0], set()) == [0, 1, 2]
    assert _compositions(3, [0, 0, 0], {"artillery"}) == [1, 2, 3]
    assert _compositions(3, [-1, -1, 3], set()) == [0, 1, 2]
    assert _compositions(3, [3, 3, 3], set()) == [0]


def test_remember_records_the_kind_a_hidden_division_restored() -> None:
    game = _composed(0)
    hidden = next(did for did in game.on_board("usa") if not game.divisions[did]["revealed"]
                  and not game.cavalry(did))
    game.divisions[hidden]["units"][0][1] = 3  # an infantry unit one figure short
    game.phase, game.night_step, game.day, game.hour = "night", 1, 1, 20
    game.pending_faces = ["infantry"]
    before = HOOKS.remember(game, "csa")
    game.apply({"type": "restore", "division": hidden, "unit": 0}, "usa")
    after = HOOKS.remember(game, "csa", before)
    assert isinstance(before, Recall) and isinstance(after, Recall)
    assert before.restored == frozenset() and after.restored == {(hidden, "infantry")}
    dealt = {sum(1 for k, _ in HOOKS.resample(game, "csa", s, after).divisions[hidden]["units"]
                 if k == "infantry") for s in range(30)}
    assert 0 not in dealt and len(dealt) > 1


def test_standing_and_clock() -> None:
    game = _game(1)
    # The USA wins unless the CSA meets V1 in time: ahead by half while nothing happens.
    assert HOOKS.standing(game) == 0.5 and HOOKS.turn(game) == 0
    rng, clock = random.Random(1), [0]
    for _ in range(40):
        _play(game, rng, 10)
        clock.append(HOOKS.turn(game))
        assert -0.5 <= HOOKS.standing(game) <= 0.5
    assert clock == sorted(clock) and clock[-1] > 0
    game.usa_lost = 4
    game.stars = dict.fromkeys(game.stars, "csa")
    assert HOOKS.standing(game) == pytest.approx(-0.25)
    game.usa_lost = 8
    assert HOOKS.standing(game) == -0.5
    game.winner = "csa"
    assert HOOKS.standing(game) == -1.0


# --- the frameworks' own suites ---------------------------------------------------------------


def test_openspiel_random_sim_test() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    adapter = pytest.importorskip("gettysburg.interop.openspiel")
    game = adapter.load(SPEC, max_decisions=SIM_DECISIONS)
    assert game.get_type().short_name == "python_machango_campaign"
    assert game.num_distinct_actions() == HOOKS.action_space_size(_game())
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    rng, state, chance = random.Random(1), game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance += 1
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert chance > 0  # the bound reaches the dice


def test_openspiel_resampled_states_share_the_information_set() -> None:
    pytest.importorskip("pyspiel")
    adapter = pytest.importorskip("gettysburg.interop.openspiel")
    game = adapter.load(SPEC, max_decisions=60)
    rng, state, checked = random.Random(2), game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(6))
            continue
        if checked % 4 == 0:
            for player in (0, 1):
                twin = state.resample_from_infostate(player, rng.random)
                for part in ("information_state_string", "observation_string",
                             "observation_tensor"):
                    assert list(np.atleast_1d(getattr(twin, part)(player))) == \
                        list(np.atleast_1d(getattr(state, part)(player)))
                assert twin.legal_actions() == state.legal_actions()
        checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked == 60


def test_pettingzoo_api_test() -> None:
    pytest.importorskip("pettingzoo")
    pz = pytest.importorskip("gettysburg.interop.pettingzoo")
    from pettingzoo.test import api_test

    e = pz.env(SPEC, max_decisions=SIM_DECISIONS)
    assert e.possible_agents == ["usa", "csa"]
    assert e.metadata["name"] == "gettysburg_machango_v0"
    api_test(e, num_cycles=100)


def test_pettingzoo_seed_and_render_tests() -> None:
    pytest.importorskip("pettingzoo")
    pz = pytest.importorskip("gettysburg.interop.pettingzoo")
    from pettingzoo.test import render_test, seed_test

    seed_test(lambda **kw: pz.env(SPEC, max_decisions=60, **kw), num_cycles=20)
    render_test(lambda render_mode=None: pz.env(SPEC, max_decisions=60,
                                                render_mode=render_mode))
    e = pz.env(SPEC, render_mode="ansi", render_seat="csa")
    e.reset(seed=1)
    assert "not composed" in str(e.render())  # its own divisions, before D1
    for _agent in e.agent_iter(40):  # the USA composes, hidden from the CSA (D3)
        obs, *_ = e.last()
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    text = str(e.render())
    assert re.search(r"usa:u_\w+ at [^\n]*: \?\n", text)


def test_ismcts_plays_a_bounded_campaign() -> None:
    pytest.importorskip("pyspiel")
    adapter = pytest.importorskip("gettysburg.interop.openspiel")
    from open_spiel.python.algorithms import ismcts

    game = adapter.load(SPEC, max_decisions=40)
    bots = [ismcts.ISMCTSBot(game, adapter.StandingEvaluator(), uct_c=2.0, max_simulations=5,
                             random_state=np.random.RandomState(p)) for p in (0, 1)]
    state, rng = game.new_initial_state(), random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(6))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert sum(state.returns()) == pytest.approx(0.0)
    assert state.returns()[0] == pytest.approx(HOOKS.standing(state.engine))


def test_a_hidden_general_is_redealt_once_he_may_have_moved() -> None:
    """Hancock rides a hidden USA division: the CSA's re-deals leave him at his start
    until it is told of a USA general's night move (N6), then put him on any hidden one."""
    game = _composed(0)
    start = game.generals["hancock"]["division"]
    assert HOOKS.observation_json(game, "csa")["generals"]["hancock"]["hidden"]
    game.phase, game.night_step, game.day, game.hour = "night", 1, 1, 20

    def places(g: MachangoGame) -> set[str]:
        return {str(HOOKS.resample(g, "csa", s).generals["hancock"]["division"])
                for s in range(30)}

    assert places(game) == {start}
    target = next(a["division"] for a in game.legal_actions("usa")
                  if a["type"] == "general" and a["general"] == "hancock")
    game.apply({"type": "general", "general": "hancock", "division": target}, "usa")
    assert len(places(game)) > 2 and start in places(game)
    assert {str(HOOKS.resample(game, "usa", s).generals["hancock"]["division"])
            for s in range(10)} == {target}  # his own side knows
