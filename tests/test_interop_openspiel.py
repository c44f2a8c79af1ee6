"""The OpenSpiel adapter on Badges of Courage: OpenSpiel's own random simulation test on
every BoC scenario, and our checks it lacks (codec round trip, chance nodes, information
sets, no hidden leaks, IS-MCTS). The toy system's are in test_interop_toy.py."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
bos = pytest.importorskip("gettysburg.interop.openspiel")

from gettysburg.core.protocol import research_hooks  # noqa: E402
from gettysburg.interop import SCENARIOS  # noqa: E402

HOOKS = research_hooks("boc")
BOC = [spec for spec in SCENARIOS if spec.startswith("boc/")]


# 60 decisions: enough for a uniformly random player to reach the dice (initiative, fire)
# in every scenario, so OpenSpiel's test walks through chance nodes too.
SIM_DECISIONS = 60


def test_the_four_scenarios_keep_their_game_names() -> None:
    assert BOC == ["boc/day1", "boc/day2", "boc/day3", "boc/battle"]
    for spec in BOC:
        name = f"python_boc_{spec.removeprefix('boc/')}"
        assert bos.game_name(spec) == name
        assert pyspiel.load_game(name).get_type().long_name.startswith(
            "Gettysburg: Badges of Courage (")


@pytest.mark.parametrize("scenario", BOC)
def test_random_sim_test(scenario: str) -> None:
    game = bos.load(scenario, max_decisions=SIM_DECISIONS)
    assert game.max_game_length() == SIM_DECISIONS
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    # The same bound lets random play meet chance nodes (checked on one playthrough).
    rng, state, chance = random.Random(1), game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance += 1
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert chance > 0


def _play(state: object, rng: random.Random, steps: int, p_end: float = 0.6) -> object:
    """Chance nodes by their probabilities; decisions end the phase with ``p_end`` (so
    whole turns pass and dice are rolled), otherwise a random legal id."""
    s = state
    for _ in range(steps):
        if s.is_terminal():
            break
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert [a for a, _ in outcomes] == list(range(6))
            s.apply_action(rng.randrange(6))
        else:
            legal = s.legal_actions()
            s.apply_action(legal[0] if rng.random() < p_end else rng.choice(legal))
    return s


def test_chance_nodes_clone_and_serialise() -> None:
    game = bos.load("boc/day3", max_turns=2)
    s = game.new_initial_state()
    rng = random.Random(4)
    chance_seen = 0
    while not s.is_terminal():
        if s.is_chance_node():
            chance_seen += 1
            assert s.legal_actions() == list(range(6))
            text = pyspiel.serialize_game_and_state(game, s)
            _, back = pyspiel.deserialize_game_and_state(text)
            assert str(back) == str(s) and back.history() == s.history()
            twin = s.clone()
            face = rng.randrange(6)
            s.apply_action(face)
            twin.apply_action(face)
            assert str(twin) == str(s)
        else:
            _play(s, rng, 1)
    assert chance_seen >= 4  # initiative rolls (1.1) at least
    returns = s.returns()
    assert sum(returns) == pytest.approx(0.0) and -1.0 <= returns[0] <= 1.0
    assert "truncated" in str(s) or s.engine.is_terminal()


def test_same_seed_and_actions_give_same_bytes() -> None:
    game = bos.load("boc/day2", max_decisions=40)
    a = _play(game.new_initial_state(), random.Random(9), 60)
    b = game.new_initial_state()
    for action in a.history():
        b.apply_action(action)
    assert str(a) == str(b)
    assert a.information_state_string(0) == b.information_state_string(0)


def test_bad_ids_are_refused_in_python() -> None:
    s = bos.load("boc/day1", max_decisions=5).new_initial_state()
    n = s.get_game().num_distinct_actions()
    legal = set(s.legal_actions())
    illegal = next(i for i in range(n) if i not in legal)
    for bad in (n, 10**9, illegal):
        with pytest.raises(ValueError):
            s.apply_action(bad)
    with pytest.raises(pyspiel.SpielError):  # -1 is OpenSpiel's own "invalid action"
        s.apply_action(-1)
    assert s.history() == []  # nothing reached the state
    with pytest.raises(ValueError):
        s.decode(True)


@pytest.mark.parametrize("scenario", ["day2", "day3"])
def test_codec_round_trip_in_random_games(scenario: str) -> None:
    """decode(encode(a)) == a for every legal action met in a random game."""
    s = bos.load(scenario).new_initial_state()
    rng = random.Random(11)
    kinds: set[str] = set()
    for _ in range(120):
        if s.is_terminal():
            break
        if not s.is_chance_node():
            game = s.engine
            seat = game.to_move()[0]
            actions = game.legal_actions(seat)
            ids = HOOKS.encode_actions(game, actions)
            assert len(set(ids)) == len(ids)
            assert all(0 <= i < s.get_game().num_distinct_actions() for i in ids)
            for i, a in zip(ids, actions, strict=True):
                assert s.decode(i) == a
            kinds |= {a["type"] for a in actions}
        _play(s, rng, 1, p_end=0.25)
    assert {"end_phase", "activate", "move"} <= kinds


def _hidden_enemy(game: object, seat: str) -> list[object]:
    st = game.state
    return sorted((u for u in st.units.values() if u.side != seat and u.status == "on_map"
                   and not u.revealed and not game.orders.is_hq(u.id)),
                  key=lambda u: u.id)


def _seat_picture(state: object, player: int) -> tuple[str, str, list[float], list[float]]:
    return (state.information_state_string(player), state.observation_string(player),
            list(state.information_state_tensor(player)),
            list(state.observation_tensor(player)))


def test_swapping_hidden_enemy_identities_leaks_nothing() -> None:
    """Swap which enemy units stand behind two hidden blocks: the other seat's strings and
    tensors stay byte-identical; the owner's change (so the check can fail)."""
    game = bos.load("boc/day3", max_decisions=200)
    s = _play(game.new_initial_state(), random.Random(5), 40)
    for player, seat in enumerate(("usa", "csa")):
        twin = s.clone()
        engine = twin.engine
        hidden = _hidden_enemy(engine, seat)
        a, b = next((x, y) for x in hidden for y in hidden
                    if x.hex != y.hex and x.strength == y.strength)
        for field in ("hex", "seq", "column", "moved", "fired", "in_command", "mp_used"):
            va, vb = getattr(a, field), getattr(b, field)
            setattr(a, field, vb)
            setattr(b, field, va)
        twin._engine.moved()  # positions changed behind the adapter's back: drop caches
        assert _seat_picture(twin, player) == _seat_picture(s, player)
        assert twin.legal_actions(player) == s.legal_actions(player)
        assert twin.observation_string(1 - player) != s.observation_string(1 - player)


def test_resampled_states_share_the_information_set() -> None:
    game = bos.load("boc/day3", max_decisions=300)
    s = _play(game.new_initial_state(), random.Random(2), 80, p_end=0.3)
    assert not s.is_terminal() and not s.is_chance_node()
    mover = s.current_player()
    moved_any = False
    for player in (0, 1):
        for k in range(3):
            other = s.resample_with_seed(s.seat_of(player), 100 + k)
            assert _seat_picture(other, player) == _seat_picture(s, player)
            if player == mover:
                assert other.legal_actions() == s.legal_actions()
            before = {u.id: u.hex for u in s.engine.state.units.values()}
            after = {u.id: u.hex for u in other.engine.state.units.values()}
            moved_any |= before != after
            # The sampled world plays on.
            _play(other, random.Random(k), 5)
    assert moved_any
    # The pyspiel entry point (what IS-MCTS calls) lands in the same information set.
    other = s.resample_from_infostate(mover, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(mover) == s.information_state_string(mover)


def test_perfect_recall_tells_own_histories_apart() -> None:
    game = bos.load("boc/day1", max_decisions=50)
    s = game.new_initial_state()
    p = s.current_player()
    legal = s.legal_actions()
    a, b = s.child(legal[1]), s.child(legal[2])
    assert a.information_state_string(p) != b.information_state_string(p)
    assert "recall=" in a.information_state_string(p)
    assert "recall=" not in a.observation_string(p)
    assert game.information_state_tensor_size() == game.observation_tensor_size() + 2


def test_ismcts_plays_day3() -> None:
    from open_spiel.python.algorithms import ismcts

    game = bos.load("boc/day3", max_decisions=12)
    bots = [ismcts.ISMCTSBot(game, bos.StandingEvaluator(), uct_c=2.0, max_simulations=4,
                             random_state=np.random.RandomState(p)) for p in (0, 1)]
    s = game.new_initial_state()
    rng = random.Random(0)
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.randrange(6))
        else:
            s.apply_action(bots[s.current_player()].step(s))
    assert len([h for h in s.full_history() if h.player >= 0]) == 12
    assert sum(s.returns()) == pytest.approx(0.0)


def doc_example(marker: str) -> str:
    """The ```python block of docs/research.md whose first line is ``# example: marker``."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "research.md").read_text()
    for block in text.split("```python\n")[1:]:
        code = block.split("```", 1)[0]
        if code.startswith(f"# example: {marker}\n"):
            return code
    raise AssertionError(f"no '{marker}' example in docs/research.md")


def test_docs_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(doc_example("openspiel"), "docs/research.md", "exec"), {})
    out = capsys.readouterr().out
    assert "IS-MCTS mean return against random over 2 games" in out


def _calef_seen_standing_up() -> tuple[object, object, object]:
    """Day 1 from the CSA seat: Calef's battery seen revealed at 1 step, then hidden again
    in the same hex (8.1). The CSA seat's memory after both views, and the two games."""
    from gettysburg.core.protocol import load_game, new_game

    def with_calef(**fields: object) -> object:
        data = new_game("boc/day1", seed=5).to_json()
        data["position"]["units"]["usa-calef"].update(fields)
        return load_game(data)

    revealed = with_calef(revealed=True, strength=1)
    hidden_again = with_calef(revealed=False, strength=1)
    memory = HOOKS.remember(hidden_again, "csa", HOOKS.remember(revealed, "csa"))
    return revealed, hidden_again, memory


def test_the_seats_memory_is_what_its_views_showed() -> None:
    """``remember`` builds only the part of the view the sightings read: the same
    sightings as the whole views give, and the memory it started from is left as it was."""
    from gettysburg.boc.ai.belief import Sightings

    revealed, hidden_again, memory = _calef_seen_standing_up()
    first = HOOKS.remember(revealed, "csa")
    again = HOOKS.remember(hidden_again, "csa", first)
    whole = Sightings()
    for game in (revealed, hidden_again):
        whole.update(game.view("csa"))
    assert isinstance(again, Sightings) and isinstance(first, Sightings)
    for part in ("first", "only", "strength", "lost"):
        assert getattr(again, part) == getattr(whole, part) == getattr(memory, part)
    assert set(again.first) - set(first.first)  # the handle that stood up is new ...
    assert not first.only  # ... and the memory it was built on did not learn it
    assert any(ids == {"usa-calef"} for ids in again.only.values())


def test_resample_honours_what_the_seat_saw_earlier() -> None:
    """A block the CSA seat saw stand up again where Calef stood is Calef in every world
    re-dealt with its memory; from the view alone it is often another unit."""
    _, hidden_again, memory = _calef_seen_standing_up()
    hx = hidden_again.state.units["usa-calef"].hex
    kept = [HOOKS.resample(hidden_again, "csa", k, memory).state.units["usa-calef"].hex
            for k in range(8)]
    assert kept == [hx] * 8
    blind = [HOOKS.resample(hidden_again, "csa", k).state.units["usa-calef"].hex
             for k in range(8)]
    assert any(h != hx for h in blind)


def test_states_remember_each_seats_decisions_and_resample_with_it() -> None:
    game = bos.load("boc/day1", max_decisions=300)
    s = game.new_initial_state()
    seat = s.seat_of(s.current_player())
    assert s._memory.get(seat) is None
    hidden = {h["handle"] for h in s.engine.view(seat)["hidden"]}
    s.apply_action(s.legal_actions()[0])
    seen = s._memory.get(seat)
    assert seen is not None and hidden and hidden <= set(seen.first)
    assert s.clone()._memory.get(seat) is seen  # shared by clones, never changed in place
    # The state hands its memory to the sampler: pin Calef as the CSA seat saw him.
    _, hidden_again, memory = _calef_seen_standing_up()
    pinned = game.new_initial_state()
    pinned._engine = type(pinned._engine)(pinned._engine.shared, hidden_again)
    hx = hidden_again.state.units["usa-calef"].hex
    twins = [pinned.resample_with_seed("csa", k) for k in range(8)]
    assert any(t.engine.state.units["usa-calef"].hex != hx for t in twins)
    pinned._memory = pinned._memory.updated("csa", memory)
    twins = [pinned.resample_with_seed("csa", k) for k in range(8)]
    assert all(t.engine.state.units["usa-calef"].hex == hx for t in twins)


def _enemies(state: object, seat: str) -> tuple[dict[str, str], dict[str, str]]:
    """(revealed, hidden) enemy units of ``seat`` on the map: unit id -> hex (the truth)."""
    shown: dict[str, str] = {}
    hidden: dict[str, str] = {}
    for uid, u in state.units.items():  # type: ignore[attr-defined]
        if u.side != seat and u.status == "on_map":
            (shown if u.revealed else hidden)[uid] = u.hex
    return shown, hidden


def test_blocks_seen_between_the_seats_decisions_keep_their_identity() -> None:
    """Each seat remembers every position it saw, not only those at its own decisions: when
    enemy blocks it saw revealed stand up again in their hexes (8.1), every re-deal for that
    seat keeps those units in those hexes, however many actions of the other seat passed
    since its last decision (before session 12: 35 of 380 such checks failed on Day 1)."""
    game = bos.load("boc/day1", max_decisions=300)
    rng, s = random.Random(2), game.new_initial_state()
    before: dict[str, tuple[dict[str, str], dict[str, str]]] | None = None
    checks = 0
    while not s.is_terminal():
        now = {seat: _enemies(s.engine.state, seat) for seat in ("usa", "csa")}
        for player, seat in enumerate(("usa", "csa")):
            if before is None or (s.is_chance_node() and s.pending_seat() != seat):
                continue
            shown0, _ = before[seat]
            _, hidden1 = now[seat]
            stood_up = {u: h for u, h in shown0.items() if hidden1.get(u) == h}
            # Hexes where every hidden block is one of those just seen revealed there.
            whole = {h for h in stood_up.values() if list(hidden1.values()).count(h)
                     == list(stood_up.values()).count(h)}
            for k in range(3) if whole else ():
                _, dealt = _enemies(s.resample_from_infostate(
                    player, random.Random(k).random).engine.state, seat)
                for h in whole:
                    checks += 1
                    assert {u for u, v in dealt.items() if v == h} == \
                        {u for u, v in stood_up.items() if v == h}, (len(s.history()), seat, h)
        before = now
        if s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    assert checks > 50


def test_no_re_deal_at_a_chance_node_of_the_other_seats_action() -> None:
    """At a chance node the waiting action names its seat's blocks by id, so the other seat
    may not re-deal them (a clear ValueError); the acting seat may, and plays on."""
    game = bos.load("boc/day3", max_turns=2)
    rng, s = random.Random(5), game.new_initial_state()
    while not s.is_chance_node() or len(s.history()) < 20:
        assert not s.is_terminal()
        if s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    acting = s.pending_seat()
    other = 1 - s.player_of(acting)
    with pytest.raises(ValueError, match="chance node"):
        s.resample_from_infostate(other, random.Random(1).random)
    own = s.resample_from_infostate(s.player_of(acting), random.Random(1).random)
    own.apply_action(own.chance_outcomes()[0][0])
