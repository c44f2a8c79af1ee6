"""The research adapters serve every registered system with research hooks: the toy
system through OpenSpiel's random_sim_test and PettingZoo's api_test, its hooks' own
promises (codec, no leaks, re-deals in the seat's information set), and the registry as
the adapters' only source of systems."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

from gettysburg import systems
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import Game, new_game, research_hooks
from gettysburg.interop import SCENARIOS, research_systems, resolve
from gettysburg.toy.game import ToyGame
from gettysburg.toy.research import Sightings, hooks

HOOKS = hooks()
TOY = ("toy/standard", "toy/strong")


# --- the registry decides what the adapters serve ------------------------------------------


def test_scenarios_come_from_the_registry() -> None:
    expected = [f"{s.name}/{n}" for s in systems.all_systems() if s.research is not None
                for n in s.menu().scenarios]
    assert list(SCENARIOS) == expected
    assert set(TOY) <= set(SCENARIOS)
    assert systems.get("toy").research is not None
    assert systems.get("toy").research() is research_hooks("toy") is HOOKS
    assert all(s.research is not None for s in research_systems())


def test_names_resolve_through_the_menus() -> None:
    system, scenario = resolve("toy/strong")
    assert (system.name, scenario) == ("toy", "strong")
    assert resolve("standard")[0].name == "toy"  # a bare name: the first system listing it
    with pytest.raises(ValueError, match="'nosuch'"):
        resolve("nosuch/standard")
    with pytest.raises(ValueError, match="'huge'"):
        resolve("toy/huge")
    with pytest.raises(ValueError, match="'huge'"):
        resolve("huge")


def test_the_adapters_name_no_rule_system() -> None:
    """Everything system-specific reaches them through the registry and the hooks."""
    folder = Path(__file__).resolve().parents[1] / "src" / "gettysburg" / "interop"
    names = re.compile(r"(?<![a-z])(boc|gbacw|machango|usa|csa|toy)(?![a-z])")
    for path in sorted(folder.glob("*.py")):
        assert not names.findall(path.read_text("utf-8").lower()), path.name


# --- the toy's hooks ------------------------------------------------------------------------


def _random_game(seed: int, steps: int, scenario: str = "standard") -> ToyGame:
    game = new_game(f"toy/{scenario}", seed=seed)
    assert isinstance(game, ToyGame)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        game.apply(rng.choice(game.legal_actions(seat)), seat)
    return game


def test_codec_is_injective_and_in_range_in_random_games() -> None:
    kinds: set[str] = set()
    for seed in range(20):
        game = new_game("toy/standard", seed=seed)
        rng = random.Random(seed)
        while not game.is_terminal():
            seat = game.to_move()[0]
            legal = game.legal_actions(seat)
            ids = HOOKS.encode_actions(game, legal)
            assert len(set(ids)) == len(ids)
            assert all(0 <= i < HOOKS.action_space_size(game) == 19 for i in ids)
            kinds |= {a["type"] for a in legal}
            game.apply(rng.choice(legal), seat)
    assert kinds == {"pass", "reveal", "attack", "assign"}
    with pytest.raises(ValueError, match="'z9'"):
        HOOKS.encode_actions(game, [{"type": "attack", "block": "z9"}])
    with pytest.raises(TypeError, match="toy game"):
        HOOKS.turn(object())


def _swap_hidden(game: ToyGame, a: str, b: str) -> ToyGame:
    twin = game.clone()
    for field in ("label", "strength"):
        twin.blocks[a][field], twin.blocks[b][field] = twin.blocks[b][field], \
            twin.blocks[a][field]
    return twin


def test_hidden_labels_and_strengths_reach_no_observation() -> None:
    """Swapping what stands behind two hidden blue blocks leaves red's observation, tensor
    and text as they were; blue's change (so the check can fail)."""
    game = new_game("toy/standard", seed=1)
    assert isinstance(game, ToyGame)
    twin = _swap_hidden(game, "b1", "b2")
    for seat, same in (("red", True), ("blue", False)):
        pictures = [(HOOKS.observation_json(g, seat), HOOKS.observation_tensor(g, seat),
                     HOOKS.render_text(g, seat)) for g in (game, twin)]
        assert (pictures[0] == pictures[1]) is same
        assert len(pictures[0][1]) == HOOKS.tensor_size(game)
    assert "legal_actions" not in HOOKS.observation_json(game, "red")
    assert "blue:b1 ?" in HOOKS.render_text(game, "red")
    assert "Davis 2" in HOOKS.render_text(game, "referee")


def _toy_with_dice(values: list[int]) -> ToyGame:
    game = new_game("toy/standard", seed=0, dice=ScriptedDice(values))
    assert isinstance(game, ToyGame)
    return game


def _labels_dealt(game: Game, seat: str, block: str, memory: object = None) -> set[str]:
    return {str(HOOKS.resample(game, seat, k, memory).blocks[block]["label"])
            for k in range(40)}


def test_resample_honours_the_hits_a_hidden_block_scored() -> None:
    """Blue's b2 scores three hits: only Early (3) rolls three dice, so every re-deal for
    red puts Early there; before the attack any of blue's labels could stand there."""
    game = _toy_with_dice([5, 6, 5])
    game.apply({"type": "pass"}, "red")
    assert _labels_dealt(game, "red", "b2") == {"Davis", "Early", "Field"}
    game.apply({"type": "attack", "block": "b2"}, "blue")
    assert game.pending_hits == 3
    assert _labels_dealt(game, "red", "b2") == {"Early"}
    # The seat's own blocks and what it sees are never touched.
    for k in range(5):
        twin = HOOKS.resample(game, "red", k)
        assert HOOKS.observation_json(twin, "red") == HOOKS.observation_json(game, "red")
        assert twin.legal_actions("red") == game.legal_actions("red")


def test_resample_honours_the_hits_a_hidden_block_took() -> None:
    """Red's r1 scores two hits and blue puts them on b2: b2 still stands, so it was dealt
    more than 2 strength, which only Early has (1 left); Davis and Field share the rest."""
    game = _toy_with_dice([5, 5, 1])
    game.apply({"type": "attack", "block": "r1"}, "red")
    game.apply({"type": "assign", "block": "b2"}, "blue")
    dealt = [HOOKS.resample(game, "red", k).blocks for k in range(40)]
    assert {(str(b["b2"]["label"]), int(b["b2"]["strength"])) for b in dealt} == {("Early", 1)}
    assert {str(b["b1"]["label"]) for b in dealt} == {"Davis", "Field"}
    assert all(b["b1"]["strength"] == (2 if b["b1"]["label"] == "Davis" else 1) for b in dealt)


def test_a_label_seen_is_never_dealt_again() -> None:
    game = _toy_with_dice([])
    game.apply({"type": "pass"}, "red")
    game.apply({"type": "reveal", "block": "b1"}, "blue")  # Davis, seen by red
    for block in ("b2", "b3"):
        assert _labels_dealt(game, "red", block) == {"Early", "Field"}


def test_memory_merges_and_a_foreign_memory_is_refused() -> None:
    game = _toy_with_dice([5, 6, 5])
    game.apply({"type": "pass"}, "red")
    before = HOOKS.remember(game, "red")
    game.apply({"type": "attack", "block": "b2"}, "blue")
    after = HOOKS.remember(game, "red", before)
    assert isinstance(before, Sightings) and isinstance(after, Sightings)
    assert dict(before.floor) == {} and dict(after.floor) == {"b2": 3}
    assert _labels_dealt(game, "red", "b2", after) == {"Early"}
    impossible = Sightings((("b1", 3), ("b2", 3)))  # two blocks of 3: blue has one
    with pytest.raises(ValueError, match="not from this game"):
        HOOKS.resample(game, "red", 0, impossible)


def test_standing_is_the_share_of_strength_left_and_agrees_with_the_result() -> None:
    ends = [_random_game(seed, 200) for seed in range(30)]
    signs = set()
    for game in ends:
        result = game.result()
        assert result is not None
        strength = result["strength"]
        s = HOOKS.standing(game)
        assert s == pytest.approx((strength["red"] - strength["blue"])
                                  / (strength["red"] + strength["blue"]))
        winner = result["winner"]
        signs.add(winner)
        assert (s > 0, s < 0) == (winner == "red", winner == "blue")
    assert {"red", "blue"} <= signs


# --- OpenSpiel ------------------------------------------------------------------------------


def _spiel() -> tuple[object, object]:
    pyspiel = pytest.importorskip("pyspiel")
    adapter = pytest.importorskip("gettysburg.interop.openspiel")
    return pyspiel, adapter


@pytest.mark.parametrize("spec", TOY)
def test_openspiel_random_sim_test(spec: str) -> None:
    pyspiel, adapter = _spiel()
    game = adapter.load(spec)
    assert game.get_type().short_name == f"python_toy_{spec.split('/')[1]}"
    assert game.num_players() == 2 and game.num_distinct_actions() == 19
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


def test_every_served_scenario_is_registered_with_openspiel() -> None:
    pyspiel, adapter = _spiel()
    names = set(pyspiel.registered_names())
    for spec in SCENARIOS:
        system, scenario = spec.split("/")
        assert f"python_{system}_{scenario}" in names
        assert adapter.game_name(spec) == f"python_{system}_{scenario}"
    loaded = pyspiel.load_game("python_toy_strong", {"options": "turns=2"})
    assert "Toy game" in loaded.get_type().long_name
    with pytest.raises(ValueError, match="max_turn"):
        adapter.load("toy/standard", max_turn=3)


def test_openspiel_chance_nodes_roll_the_attackers_dice() -> None:
    """An attack waits at one chance node a die; the dice land in the engine's log."""
    _, adapter = _spiel()
    state = adapter.load("toy/standard").new_initial_state()
    attack = HOOKS.encode_actions(state.engine, [{"type": "attack", "block": "r1"}])[0]
    state.apply_action(attack)  # Archer, strength 3: three dice
    faces = []
    while state.is_chance_node():
        assert [p for _, p in state.chance_outcomes()] == [pytest.approx(1 / 6)] * 6
        faces.append(5)
        state.apply_action(4)  # a 5
    assert faces == [5, 5, 5]
    assert [r.value for r in state.engine.dice.rolls] == [5, 5, 5]
    assert state.engine.pending_hits == 3 and state.current_player() == 1


def test_openspiel_resampled_states_share_the_information_set() -> None:
    _, adapter = _spiel()
    game = adapter.load("toy/standard", max_decisions=200)
    rng = random.Random(3)
    changed = checked = 0
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.randrange(6))
                continue
            for player in (0, 1):
                twin = state.resample_from_infostate(player, rng.random)
                for part in ("information_state_string", "observation_string",
                             "information_state_tensor", "observation_tensor"):
                    assert list(np.atleast_1d(getattr(twin, part)(player))) == \
                        list(np.atleast_1d(getattr(state, part)(player)))
                assert twin.legal_actions() == state.legal_actions()
                changed += twin.engine.blocks != state.engine.blocks
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 100 and changed > checked // 4


def test_ismcts_plays_the_toy() -> None:
    from open_spiel.python.algorithms import ismcts

    _, adapter = _spiel()
    game = adapter.load("toy/standard")
    bots = [ismcts.ISMCTSBot(game, adapter.StandingEvaluator(), uct_c=2.0,
                             max_simulations=20, random_state=np.random.RandomState(p))
            for p in (0, 1)]
    state, rng = game.new_initial_state(), random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(6))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert sum(state.returns()) == pytest.approx(0.0)
    assert state.engine.is_terminal()


# --- PettingZoo -----------------------------------------------------------------------------


def _pz() -> object:
    pytest.importorskip("pettingzoo")
    return pytest.importorskip("gettysburg.interop.pettingzoo")


@pytest.mark.parametrize("spec", TOY)
def test_pettingzoo_api_test(spec: str) -> None:
    pz = _pz()
    from pettingzoo.test import api_test

    e = pz.env(spec)
    assert e.possible_agents == ["red", "blue"]
    assert e.metadata["name"] == "gettysburg_toy_v0"
    api_test(e, num_cycles=100)


def test_pettingzoo_seed_and_render_tests() -> None:
    pz = _pz()
    from pettingzoo.test import render_test, seed_test

    seed_test(lambda **kw: pz.env("toy/standard", **kw), num_cycles=20)
    render_test(lambda render_mode=None: pz.env("toy/standard", render_mode=render_mode))
    e = pz.env("toy/standard", render_mode="ansi", render_seat="blue")
    e.reset(seed=1)
    text = e.render()
    assert "red:r1 ?" in text and "blue:b1 Davis 2" in text


def test_pettingzoo_plays_a_whole_toy_game_with_rewards() -> None:
    pz = _pz()
    e = pz.env("toy/standard", options="turns=4")
    e.reset(seed=2)
    rng, rewards = np.random.default_rng(0), {"red": 0.0, "blue": 0.0}
    for agent in e.agent_iter(100):
        obs, reward, termination, truncation, _ = e.last()
        rewards[agent] = reward
        if termination or truncation:
            e.step(None)
            continue
        assert int(obs["action_mask"].sum()) == len(e.game.legal_actions(agent))
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.game.is_terminal() and e.game.turn == 5
    winner = e.game.result()["winner"]
    assert rewards == ({"red": 0.0, "blue": 0.0} if winner is None else
                       {s: 1.0 if s == winner else -1.0 for s in ("red", "blue")})


def test_docs_toy_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    _spiel()
    text = (Path(__file__).resolve().parents[1] / "docs" / "research.md").read_text("utf-8")
    code = next(b.split("```", 1)[0] for b in text.split("```python\n")[1:]
                if b.startswith("# example: toy\n"))
    exec(compile(code, "docs/research.md", "exec"), {})
    out = capsys.readouterr().out
    assert "toy returns: [" in out and "'toy/standard'" in out
