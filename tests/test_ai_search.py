"""Search: the belief sampler is consistent with the view, worlds are playable and carry
the combat bookkeeping the view shows, plans replace the general's only on clear evidence,
and the decision depends only on what the seat sees."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

import gettysburg.ai.search as search_mod
from gettysburg.ai import make_agent
from gettysburg.ai.agent import random_stream
from gettysburg.ai.search import Plan, SearchAgent, plan_choice
from gettysburg.boc.ai.belief import candidates, determinise, sample_hidden, scenario_start
from gettysburg.boc.ai.doctrine import BocDoctrine
from gettysburg.boc.ai.search_hooks import hooks as boc_search_hooks
from gettysburg.core.dice import KeyedDice, SeededDice
from gettysburg.core.protocol import Game, load_game, new_game


def _played(spec: str, n: int, seed: int = 3, options: tuple[str, ...] = ()) -> Game:
    game = new_game(spec, seed=seed, options=options)
    general, rng = make_agent("general"), random.Random(0)
    for _ in range(n):
        seat = game.to_move()[0]
        view = game.view(seat)
        game.apply(general.choose(view, view["legal_actions"], 0.0, rng), seat)
    return game


def _until_melee(game: Game, declared: int = 0) -> Game:
    """Play on with the general until the active side has declared ``declared`` melees
    and the general's next choice is another melee declaration."""
    general, rng = make_agent("general"), random.Random(0)
    for _ in range(600):
        seat = game.to_move()[0]
        view = game.view(seat)
        choice = general.choose(view, view["legal_actions"], 0.0, rng)
        melees = (view.get("combat") or {}).get("melees") or []
        if choice["type"] == "melee" and len(melees) >= declared:
            return game
        game.apply(choice, seat)
    raise AssertionError("no melee declaration in 600 actions")


def _no_styles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Search agents made from now on see an empty portfolio: no style search, the
    general's own doctrine all turn (to test the plans alone)."""
    real = search_mod.search_hooks_for

    def hooks_for(view: dict[str, Any], memory: Any) -> Any:
        got = real(view, memory)
        return dataclasses.replace(got, portfolio={}) if got is not None else None

    monkeypatch.setattr(search_mod, "search_hooks_for", hooks_for)


def test_sample_gives_each_hidden_block_a_distinct_plausible_enemy() -> None:
    game = _played("boc/day2", 30)
    seat = game.to_move()[0]
    view = game.view(seat)
    start = scenario_start(view)
    pool = candidates(view, start)
    sample = sample_hidden(view, random.Random(1), start)
    assert set(sample.blocks) == {h["handle"] for h in view["hidden"]}
    ids = [uid for uid, _ in sample.blocks.values()]
    assert len(ids) == len(set(ids)) and set(ids) <= set(pool)
    shown = {u["id"] for u in view["units"]}
    assert not set(ids) & shown
    assert all(start["position"]["units"][uid]["side"] != seat for uid in ids)
    assert all(1 <= s <= 4 for _, s in sample.blocks.values())
    again = sample_hidden(view, random.Random(1), start)
    assert again == sample


def test_world_matches_what_the_seat_sees() -> None:
    game = _played("boc/day1", 25)
    seat = game.to_move()[0]
    view = game.view(seat)
    world = determinise(view, sample_hidden(view, random.Random(2)), random.Random(2))
    wview = world.view(seat)
    for key in ("day", "hour", "phase", "active", "control", "losses"):
        assert wview[key] == view[key]
    own = [u for u in view["units"] if u["side"] == seat]
    assert [u for u in wview["units"] if u["side"] == seat] == own
    assert sorted(h["hex"] for h in wview["hidden"]) == sorted(h["hex"] for h in view["hidden"])
    assert world.to_move() == game.to_move()
    # The world is a real game: it plays on.
    action = world.legal_actions(seat)[-1]
    world.apply(action, seat)
    # Its dice: seeded unless asked for keyed ones (search_boc.WORLD_DICE, coupled_dice.py).
    assert isinstance(world.dice, SeededDice)
    keyed = determinise(view, sample_hidden(view, random.Random(2)), random.Random(2),
                        dice="keyed")
    assert isinstance(keyed.dice, KeyedDice) and keyed.dice.seed == world.dice.seed


def test_world_keeps_the_melees_declared_so_far() -> None:
    game = _until_melee(_played("boc/day1", 0), declared=1)
    seat = game.to_move()[0]
    view = game.view(seat)
    declared = view["combat"]["melees"]
    assert declared
    world = determinise(view, sample_hidden(view, random.Random(4)), random.Random(4))
    wview = world.view(seat)
    assert wview["combat"]["melees"] == declared
    # A declared attacker may not be declared again in the world either (7.1).
    again = {a["unit"] for a in wview["legal_actions"] if a["type"] == "melee"}
    assert not again & {m["unit"] for m in declared}
    # The melee options are the same (move paths may differ: 6.62 crossings are not shown).
    melee = sorted(_key(a) for a in view["legal_actions"] if a["type"] == "melee")
    assert sorted(_key(a) for a in wview["legal_actions"] if a["type"] == "melee") == melee


def _swap_hidden(game: Game, seat: str) -> Game:
    """The same game with two hidden enemy blocks of ``seat``'s enemy exchanged."""
    data = game.to_json()
    units = data["position"]["units"]
    view = game.view(seat)
    shown = {u["id"] for u in view["units"]}
    hidden = sorted(uid for uid, u in units.items() if u["side"] != seat
                    and u["status"] == "on_map" and uid not in shown)
    a, b = next((x, y) for x in hidden for y in hidden
                if units[x]["hex"] != units[y]["hex"])
    for key in ("hex", "strength"):
        units[a][key], units[b][key] = units[b].get(key), units[a].get(key)
    return load_game(data)


def _key(a: dict[str, Any]) -> str:
    return json.dumps(a, sort_keys=True)


def test_search_decides_the_same_whatever_the_hidden_identities() -> None:
    a = _until_melee(_played("boc/day1", 0))
    seat = a.to_move()[0]
    b = _swap_hidden(a, seat)
    assert a.state_hash() != b.state_hash()
    va, vb = a.view(seat), b.view(seat)

    def without_handles(view: dict[str, Any]) -> str:
        hidden = sorted(_key({k: v for k, v in h.items() if k != "handle"})
                        for h in view["hidden"])
        # The engine may list the same legal actions in another order (noted in the
        # report); the set must be the same.
        legal = sorted(_key(x) for x in view["legal_actions"])
        return _key({**view, "hidden": hidden, "legal_actions": legal})

    assert without_handles(va) == without_handles(vb)
    sa, sb = SearchAgent("1"), SearchAgent("1")
    ca = sa.choose(va, va["legal_actions"], 0.3, random.Random(5))
    cb = sb.choose(vb, vb["legal_actions"], 0.3, random.Random(5))
    # The style of the player turn (then the melee plans, if its choice is a melee).
    assert sa.searched == sb.searched >= 1
    assert sa.styles == sb.styles and sum(sa.styles.values()) == 1
    assert _key(ca) == _key(cb)
    # Every sampled world played: no rollout was lost to an exception.
    assert sa.stats()["failed_rollouts"] == sb.stats()["failed_rollouts"] == 0


def _melee_position() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    game = _until_melee(_played("boc/day1", 0))
    view = game.view(game.to_move()[0])
    return view, view["legal_actions"]


def test_a_plan_must_win_clearly_to_replace_the_generals(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    view, legal = _melee_position()
    general = make_agent("general").choose(view, legal, 0.0, random.Random(0))
    target = general["target"]

    def rollout(gain: float) -> Any:
        def fake(view: Any, plan: Plan, hooks: Any, rng: random.Random,
                 doctrine: Any = None, stop: float | None = None) -> float:
            noise = rng.random()  # the same "world" for every plan (common random numbers)
            return noise + (gain if target in plan.spare else 0.0)
        return staticmethod(fake)

    _no_styles(monkeypatch)
    monkeypatch.setattr(SearchAgent, "rollout", rollout(search_mod.MIN_GAIN / 2))
    small = SearchAgent("1")
    assert small.choose(view, legal, 1.0, random.Random(1)) == general
    assert small.searched == 1 and small.overrides == 0

    monkeypatch.setattr(SearchAgent, "rollout", rollout(1.0))
    big = SearchAgent("1")
    chosen = big.choose(view, legal, 1.0, random.Random(1))
    assert big.overrides == 1
    assert not (chosen["type"] == "melee" and chosen["target"] == target)
    assert chosen == plan_choice(view, legal, Plan(spare={target}))


def test_a_failed_rollout_is_counted_and_logged_not_fatal(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A rollout that raises (a world the engine refuses, or a bug) is skipped, counted in
    the agent's stats by exception and logged once; the decision is still made."""
    view, legal = _melee_position()

    def broken(*args: Any, **kwargs: Any) -> float:
        raise KeyError("no such block")

    monkeypatch.setattr(SearchAgent, "_style_rollout", staticmethod(broken))
    monkeypatch.setattr(SearchAgent, "rollout", staticmethod(broken))
    agent = SearchAgent("1")
    with caplog.at_level("WARNING", logger="gettysburg.ai.search"):
        chosen = agent.choose(view, legal, 1.0, random.Random(1))
    incumbent = next(iter(boc_search_hooks(None).portfolio[view["seat"]].values()))
    assert chosen == plan_choice(view, legal, Plan(), doctrine=incumbent)
    stats = agent.stats()
    assert stats["failed_rollouts"] >= search_mod.STYLE_MIN_WORLDS * len(agent.styles) >= 2
    assert list(stats["failures"]) == ["KeyError: 'no such block'"]
    assert sum("rollout failed" in r.getMessage() for r in caplog.records) == 1


def test_search_is_deterministic_and_legal() -> None:
    view, legal = _melee_position()
    keys = {_key(a) for a in legal}
    got = [SearchAgent("1").choose(view, legal, 0.3, random.Random(9)) for _ in range(2)]
    assert got[0] == got[1]
    assert _key(got[0]) in keys


def test_search_without_a_world_builder_plays_like_the_general() -> None:
    game = new_game("toy/standard", seed=1)
    seat = game.to_move()[0]
    view, legal = game.view(seat), game.legal_actions(seat)
    got = make_agent("search").choose(view, legal, 0.1, random.Random(0))
    assert got == make_agent("general").choose(view, legal, 0.1, random.Random(0))


def _first(game: Game, want: Any, limit: int = 900) -> Game:
    """Play on with the general until ``want(view, general's choice)`` holds."""
    general, rng = make_agent("general"), random.Random(0)
    for _ in range(limit):
        seat = game.to_move()[0]
        view = game.view(seat)
        choice = general.choose(view, view["legal_actions"], 0.0, rng)
        if want(view, choice):
            return game
        game.apply(choice, seat)
    raise AssertionError("position not reached")


def test_plans_offered_in_the_last_turn_and_none_in_command_or_fire() -> None:
    """In the scenario's last turn the general is compared with a control-greedy plan, both
    played to the end; the command and fire phases are never searched."""
    agent = SearchAgent("1")
    hooks = boc_search_hooks(None)
    general, rng = make_agent("general"), random.Random(0)

    def plans(game: Game, who: SearchAgent = agent) -> list[Plan]:
        view = game.view(game.to_move()[0])
        choice = general.choose(view, view["legal_actions"], 0.0, rng)
        who._plan = Plan()
        return who.plans_for(view, view["legal_actions"], choice, hooks).plans

    game = _first(_played("boc/day1", 0), lambda v, c: c["type"] == "fire")
    assert plans(game) == []
    game = _first(_played("boc/day1", 0), lambda v, c: c["type"] == "activate")
    assert plans(game) == []

    game = _first(_played("boc/day1", 0), lambda v, c: v["hour"] == 20
                  and v["phase"] == "movement" and v["active"] == v["seat"])
    view = game.view(game.to_move()[0])
    assert hooks.final_hour(view)
    last = plans(game)
    assert [p.horizon for p in last] == [search_mod.END] * 2 and last[1].greed > 0 == last[0].greed
    assert not hooks.final_hour({**view, "hour": 19})


def test_a_style_must_win_clearly_to_replace_the_incumbent(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """The portfolio is compared in common worlds; a style other than the seat's incumbent
    (the first) is played for the turn only on a paired gain above STYLE_MIN_GAIN and
    STYLE_Z errors."""
    view, legal = _melee_position()
    hooks = boc_search_hooks(None)
    styles = hooks.portfolio[view["seat"]]
    names = list(styles)
    assert "general" in names and len(names) >= 3
    incumbent, favourite = styles[names[0]], styles[names[2]]
    assert isinstance(incumbent, BocDoctrine) and isinstance(favourite, BocDoctrine)
    monkeypatch.setattr(search_mod, "MIN_GAIN", 1e9)  # no melee plan: only the style counts

    def rollout(gain: float) -> Any:
        def fake(view: Any, doctrine: Any, hooks: Any, rng: random.Random,
                 stop: float | None = None) -> float:
            return rng.random() + (gain if doctrine.style == favourite.style else 0.0)
        return staticmethod(fake)

    def best(doctrine: BocDoctrine) -> dict[str, Any]:
        scores = doctrine.scores(view, legal)
        return legal[max(range(len(legal)), key=lambda i: (scores[i], -i))]

    monkeypatch.setattr(SearchAgent, "_style_rollout",
                        rollout(search_mod.STYLE_MIN_GAIN / 2))
    small = SearchAgent("1")
    assert small.choose(view, legal, 1.0, random.Random(1)) == best(incumbent)
    assert small.styles == {names[0]: 1}

    monkeypatch.setattr(SearchAgent, "_style_rollout", rollout(1.0))
    big = SearchAgent("1")
    chosen = big.choose(view, legal, 1.0, random.Random(1))
    assert big.styles == {names[2]: 1}
    assert chosen == best(favourite)
    # The style holds for the rest of the player turn: no second style search.
    big.choose(view, legal, 1.0, random.Random(2))
    assert sum(big.styles.values()) == 1


def _where_rollouts_end(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Rollouts score 0 and note (hour, active side, seat scored) where each one ended."""
    seen: list[tuple[Any, ...]] = []

    def value(world: Game, s: str) -> float:
        w = world.view(world.to_move()[0])
        seen.append((w["hour"], w["active"], s))
        return 0.0

    monkeypatch.setattr(search_mod, "material_value", lambda world, s, v: value(world, s))
    return seen


def test_style_rollouts_stop_after_the_enemys_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """A style rollout plays the seat's player turn and the enemy's next, then scores."""
    game = _played("boc/day1", 0)
    seat = game.to_move()[0]
    view = game.view(seat)
    hooks = boc_search_hooks(None)
    seen = _where_rollouts_end(monkeypatch)
    got = SearchAgent._style_rollout(view, hooks.portfolio[seat]["general"], hooks,
                                     random.Random(3))
    assert got == 0.0
    hour, active, s = seen[0]
    # Stopped at the seat's next player turn, an hour later (8 AM: CSA, then USA).
    assert s == seat == active == "csa" and hour == view["hour"] + 1


class _Clock:
    """A clock that moves ``tick`` seconds each time it is read: the search's sense of
    time, independent of the machine."""

    def __init__(self, tick: float) -> None:
        self.t, self.tick = 0.0, tick

    def __call__(self) -> float:
        self.t += self.tick
        return self.t


def test_a_clock_bound_search_keeps_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bound to the clock (as the server binds it), a decision stops searching once its
    budget has passed, in the middle of a rollout if need be, and still plays; the lab's
    search ignores the clock below its runaway guard and plays every round."""
    from gettysburg.ai.agent import bind_to_clock

    view, legal = _melee_position()  # a style search, then melee plans
    built: list[int] = []
    hooks_for = search_mod.search_hooks_for

    def counting(v0: Any, memory: Any) -> Any:
        hooks = hooks_for(v0, memory)

        def build(v: Any, rng: random.Random) -> Game:
            built.append(1)
            return hooks.build(v, rng)
        return dataclasses.replace(hooks, build=build)

    monkeypatch.setattr(search_mod, "search_hooks_for", counting)
    clock = _Clock(0.01)  # every read of the clock: 10 ms
    monkeypatch.setattr(search_mod, "_now", clock)

    free = SearchAgent("1")
    general = make_agent("general")
    bind_to_clock(general)  # an agent without the option is left alone
    assert not hasattr(general, "clock_bound")
    free_choice = free.choose(view, legal, 1.0, random.Random(1))
    free_worlds = len(built)
    assert free.cut == 0 and free.searched >= 1
    # Every round: at least two worlds for each style of the portfolio.
    assert free_worlds >= 2 * sum(free.styles.values()) * 3

    bound = SearchAgent("1")
    bind_to_clock(bound)
    assert bound.clock_bound
    built.clear()
    start = clock.t
    bound_choice = bound.choose(view, legal, 1.0, random.Random(1))
    # A rollout reads the clock at every action, so 1 s of budget is 100 actions here,
    # fewer than the full rounds take; after the stop only the round's other plans read
    # it, once each, and the searches see they are late.
    assert clock.t - start <= 1.0 + 0.2
    assert bound.cut >= 1 and bound.stats()["cut_rollouts"] == bound.cut
    assert len(built) < free_worlds
    assert bound_choice in legal and free_choice in legal
    # A cut rollout is not a failure (and is never counted as evidence).
    assert bound.stats()["failed_rollouts"] == 0


def test_the_server_binds_its_agents_to_the_clock() -> None:
    from gettysburg.server.agents import SeatMind

    assert SeatMind("search", "g:csa").agent.clock_bound is True
    assert SeatMind("search-move", "g:csa").agent.clock_bound is True
    assert not hasattr(SeatMind("general", "g:csa").agent, "clock_bound")


def _block_on_a_clock(monkeypatch: pytest.MonkeyPatch
                      ) -> tuple[dict[str, Any], list[Any], _Clock]:
    """A Day 1 decision where the general moves a block near the enemy (view and legal
    actions), with the style search off (only the block's plans) and the search's clock
    moving 10 ms at each reading."""
    game = _first(_played("boc/day1", 0), _near_move)
    view = game.view(game.to_move()[0])
    _no_styles(monkeypatch)
    clock = _Clock(0.01)
    monkeypatch.setattr(search_mod, "_now", clock)
    return view, view["legal_actions"], clock


def test_a_clock_bound_move_search_keeps_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """``search-move`` in the server: a block's move plans, played through the enemy's
    reply (long rollouts), stop once the decision's budget has passed on the clock, and a
    legal move is still made; unbound, the same decision plays every round."""
    from gettysburg.ai.agent import bind_to_clock

    view, legal, clock = _block_on_a_clock(monkeypatch)
    played: list[Any] = []
    rollout = SearchAgent.rollout

    def counted(*args: Any, **kwargs: Any) -> float | None:
        played.append(1)
        return rollout(*args, **kwargs)
    monkeypatch.setattr(SearchAgent, "rollout", staticmethod(counted))
    free = make_agent("search-move", "1")
    assert isinstance(free, SearchAgent)
    free_choice = free.choose(view, legal, 1.0, random.Random(1))
    free_rollouts = len(played)
    bound = make_agent("search-move", "1")
    assert isinstance(bound, SearchAgent)
    bind_to_clock(bound)
    played.clear()
    start = clock.t
    bound_choice = bound.choose(view, legal, 1.0, random.Random(1))
    assert free.searched == bound.searched == 1 and free.cut == 0
    # Unbound: every round, each playing every plan (4 worlds a second of budget).
    assert free_rollouts >= search_mod.MOVE_ROUNDS_PER_S * 3
    assert clock.t - start <= 1.0 + 0.2 and bound.cut >= 1 and len(played) < free_rollouts
    assert bound_choice in legal and free_choice in legal


def test_on_the_clock_a_player_turn_stops_searching_after_its_turn_budgets(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In the server a player turn's searches add up: once they have taken
    ``TURN_BUDGETS`` decision budgets, the turn's next decisions are the doctrine's (a
    block near the enemy is moved unsearched); a new player turn searches again. The lab's
    search (not bound to the clock) never counts."""
    from gettysburg.ai.agent import bind_to_clock

    view, legal, _ = _block_on_a_clock(monkeypatch)
    general = make_agent("general").choose(view, legal, 0.0, random.Random(0))
    budget = 1.0

    def agent(bound: bool) -> SearchAgent:
        a = make_agent("search-move", "1")
        assert isinstance(a, SearchAgent)
        if bound:
            bind_to_clock(a)
        return a

    # One searched decision counts its time in the turn (about its budget on this clock).
    fresh = agent(True)
    fresh.choose(view, legal, budget, random.Random(1))
    assert fresh.searched == 1
    assert budget <= fresh._turn_spent <= budget + 0.3
    # A turn that has searched its budgets: this block is moved as the doctrine moves it.
    spent = agent(True)
    spent.choose(view, legal, budget, random.Random(1))
    spent._turn_spent = search_mod.TURN_BUDGETS * budget
    spent._plan = search_mod.Plan()  # the block not yet searched this turn
    searched = spent.searched
    assert spent.choose(view, legal, budget, random.Random(1)) == general
    assert spent.searched == searched
    # The next player turn starts afresh.
    later = {**view, "hour": int(view["hour"]) + 1}
    spent.choose(later, legal, budget, random.Random(1))
    assert spent.searched == searched + 1
    # The lab's agent keeps no account, so a long turn searches on.
    free = agent(False)
    free._plan_key = search_mod._turn_key(view)
    free._turn_spent = 100 * search_mod.TURN_BUDGETS * budget
    free.choose(view, legal, budget, random.Random(1))
    assert free.searched == 1 and free._turn_spent == 100 * search_mod.TURN_BUDGETS * budget


def test_level_worlds_stop_a_comparison_early_only_when_asked() -> None:
    """With ``level_stop`` a comparison whose candidates all end level with the incumbent
    in each of its first worlds plays no more; one difference and every round is played."""
    calls: list[int] = []

    def level(k: int, world: random.Random) -> float:
        calls.append(k)
        return 1.0

    def apart(k: int, world: random.Random) -> float:
        calls.append(k)
        return 1.0 + (0.5 if k == 2 and len(calls) == 3 else 0.0)  # candidate 2, first world

    far = search_mod._now() + 60.0
    for play, stop, played in ((level, 0, 8 * 3), (level, 2, 2 * 3), (apart, 2, 8 * 3)):
        calls.clear()
        assert search_mod._compare(play, 3, 8, far, random.Random(0), 0.25, 1.5, stop) == 0
        assert len(calls) == played


def test_on_the_clock_a_level_block_is_searched_in_two_worlds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In the server (``clock_bound``) a block's move plans that end level in their first
    ``LEVEL_STOP`` worlds stop there; in the lab every round is played."""
    from gettysburg.ai.agent import bind_to_clock

    game = _first(_played("boc/day1", 0), _near_move)
    view = game.view(game.to_move()[0])
    legal = view["legal_actions"]
    _no_styles(monkeypatch)
    played: list[int] = []

    def level(*args: Any, **kwargs: Any) -> float:
        played.append(1)
        return 0.0
    monkeypatch.setattr(SearchAgent, "rollout", staticmethod(level))
    counts = []
    for bound in (False, True):
        agent = make_agent("search-move", "1")
        assert isinstance(agent, SearchAgent)
        if bound:
            bind_to_clock(agent)
        played.clear()
        agent.choose(view, legal, 2.0, random.Random(1))
        assert agent.searched == 1 and agent.overrides == 0
        counts.append(len(played))
    plans = counts[1] // search_mod.LEVEL_STOP
    assert counts == [int(2.0 * search_mod.MOVE_ROUNDS_PER_S) * plans,
                      search_mod.LEVEL_STOP * plans]


def test_a_block_is_judged_by_the_move_constants(monkeypatch: pytest.MonkeyPatch) -> None:
    """``MOVE_ROUNDS_PER_S``, ``MOVE_MIN_GAIN`` and ``MOVE_Z`` judge a block's plans: fewer
    worlds play fewer rollouts, and a rival that beats the doctrine's destination by a
    point or two in every world wins unless more is asked of it."""
    view, legal, _ = _block_on_a_clock(monkeypatch)
    general = make_agent("general").choose(view, legal, 0.0, random.Random(0))
    uid, dest = str(general["unit"]), str(general["path"][-1])
    played: list[int] = []

    def rival_better(view: Any, plan: Any, hooks: Any, world: random.Random,
                     *args: Any, **kwargs: Any) -> float:
        played.append(1)  # a rival gains 1 to 2 points, by world (so its error is not 0)
        return 0.0 if plan.moves.get(uid) == dest else 1.0 + world.random()
    monkeypatch.setattr(SearchAgent, "rollout", staticmethod(rival_better))
    outcomes = []
    for settings in ({}, {"move_rounds_per_s": 1.0}, {"move_min_gain": 3.0},
                     {"move_z": 1e6}):
        agent = make_agent("search-move", "1")
        assert isinstance(agent, SearchAgent)
        with monkeypatch.context() as patched:
            for key, value in settings.items():
                patched.setattr(search_mod, key.upper(), value)
            played.clear()
            agent.choose(view, legal, 2.0, random.Random(1))
        outcomes.append((agent.overrides, len(played)))
    plans = outcomes[0][1] // int(2.0 * search_mod.MOVE_ROUNDS_PER_S)
    assert outcomes == [(1, outcomes[0][1]), (1, 2 * plans), (0, outcomes[0][1]),
                        (0, outcomes[0][1])]


def _near_move(view: dict[str, Any], choice: dict[str, Any]) -> bool:
    """The general moves a block in its own movement phase, near the enemy."""
    hooks = boc_search_hooks(None)
    return choice["type"] == "move" and view["active"] == view["seat"] \
        and hooks.near_enemy(view, (choice["path"][0], choice["path"][-1])) \
        <= search_mod.MOVE_CONTACT


def test_move_plans_place_one_block_near_the_enemy(monkeypatch: pytest.MonkeyPatch) -> None:
    """With movement plans on (``move_plans``), a block the general moves near
    the enemy is searched once: its chosen destination first, then its next best ones,
    then staying put. ``search`` itself leaves them off."""
    agent, plain = SearchAgent("1", move_plans=True), make_agent("search", "1")
    assert isinstance(plain, SearchAgent)
    assert agent.move_plans and not plain.move_plans
    hooks = boc_search_hooks(None)
    general, rng = make_agent("general"), random.Random(0)
    game = _first(_played("boc/day1", 0), _near_move)
    view = game.view(game.to_move()[0])
    legal = view["legal_actions"]
    choice = general.choose(view, legal, 0.0, rng)
    uid, here, dest = choice["unit"], choice["path"][0], choice["path"][-1]
    offer = agent.plans_for(view, legal, choice, hooks)
    assert not offer.still  # a moving block's plans, not a still one's
    plans = offer.plans
    placed = [p.moves[uid] for p in plans]
    assert placed[0] == dest and placed[-1] == here and len(set(placed)) == len(placed)
    assert 3 <= len(plans) <= 2 + search_mod.MOVE_ALTERNATIVES
    assert all(p.horizon == search_mod.REPLY and f"mv:{uid}" in p.settled for p in plans)
    reachable = {a["path"][-1] for a in legal if a["type"] == "move" and a["unit"] == uid}
    assert set(placed) - {here} <= reachable
    assert plain.plans_for(view, legal, choice, hooks).plans == []  # off by default
    agent._plan = plans[1]
    assert agent.plans_for(view, legal, choice, hooks).plans == []  # that block is settled
    # Far from the enemy (here: none known), the block's move is not searched.
    agent._plan = Plan()
    blind = dataclasses.replace(hooks, near_enemy=lambda v, hexes: 99)
    assert agent.plans_for(view, legal, choice, blind).plans == []
    assert len(agent.plans_for(view, legal, choice, hooks).plans) == len(plans)
    # The constants widen or narrow the search.
    agent._plan = Plan()
    monkeypatch.setattr(search_mod, "MOVE_ALTERNATIVES", 0)
    assert [p.moves[uid] for p in agent.plans_for(view, legal, choice, hooks).plans] == [dest, here]
    monkeypatch.setattr(search_mod, "MOVE_CONTACT", -1)  # no block is that near the enemy
    assert agent.plans_for(view, legal, choice, hooks).plans == []


def test_plan_choice_obeys_a_placed_block() -> None:
    """A plan that places a block makes its move at once (to the planned hex, never to
    another); a block planned to stay makes no move; other blocks are left alone."""
    game = _first(_played("boc/day1", 0), _near_move)
    view = game.view(game.to_move()[0])
    legal = view["legal_actions"]
    general_choice = plan_choice(view, legal, Plan())
    uid, here = general_choice["unit"], general_choice["path"][0]
    dests = sorted({a["path"][-1] for a in legal if a["type"] == "move" and a["unit"] == uid})
    other = next(d for d in dests if d != general_choice["path"][-1])
    moved = plan_choice(view, legal, Plan(moves={uid: other}))
    assert moved["type"] == "move" and moved["unit"] == uid and moved["path"][-1] == other
    stay = plan_choice(view, legal, Plan(moves={uid: here}))
    assert not (stay.get("type") == "move" and stay.get("unit") == uid)
    assert stay in legal


def test_move_plan_rollouts_play_through_the_enemys_reply(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """A move plan is judged after the enemy's next player turn with every move played,
    not at the end of our melee phase."""
    game = _first(_played("boc/day1", 0), _near_move)
    seat = game.to_move()[0]
    view = game.view(seat)
    hooks = boc_search_hooks(None)
    choice = plan_choice(view, view["legal_actions"], Plan())
    seen = _where_rollouts_end(monkeypatch)
    plan = Plan(moves={choice["unit"]: choice["path"][-1]}, horizon=search_mod.REPLY)
    assert SearchAgent.rollout(view, plan, hooks, random.Random(3)) == 0.0
    hour, active, s = seen[0]
    assert s == seat == active and hour > view["hour"]  # our next player turn
    short = Plan(moves={choice["unit"]: choice["path"][-1]})
    assert SearchAgent.rollout(view, short, hooks, random.Random(3)) == 0.0
    assert seen[1][0] == view["hour"]  # the same turn: our melee phase's end


def test_a_clearly_better_move_is_played_and_kept_without_the_reply_horizon(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """When a rival destination wins clearly, search makes that move; the reply horizon
    is not kept in the turn's plan."""
    game = _first(_played("boc/day1", 0), _near_move)
    view = game.view(game.to_move()[0])
    legal = view["legal_actions"]
    choice = plan_choice(view, legal, Plan())
    uid = choice["unit"]
    _no_styles(monkeypatch)
    agent = SearchAgent("1")
    agent.move_plans = True
    hooks = boc_search_hooks(None)
    rival = agent.plans_for(view, legal, choice, hooks).plans[-1].moves[uid]  # staying put
    monkeypatch.setattr(SearchAgent, "rollout", staticmethod(
        lambda v, plan, h, rng, doctrine=None, stop=None:
        rng.random() + (5.0 if plan.moves.get(uid) == rival else 0.0)))
    got = agent.choose(view, legal, 1.0, random.Random(1))
    assert not (got.get("type") == "move" and got.get("unit") == uid)
    assert agent.overrides == 1 and agent._plan.moves[uid] == rival \
        and agent._plan.horizon == search_mod.MELEE


def _still_near(view: dict[str, Any], choice: dict[str, Any], blocks: int = 1) -> bool:
    """The general ends its own movement phase leaving ``blocks`` or more blocks that
    could move next to a known enemy."""
    if choice["type"] != "end_phase" or view["phase"] != "movement" \
            or view["active"] != view["seat"]:
        return False
    hooks = boc_search_hooks(None)
    return len({a["unit"] for a in view["legal_actions"] if a["type"] == "move"
                and hooks.near_enemy(view, (a["path"][0],)) <= 1}) >= blocks


def _still_agent() -> SearchAgent:
    """Search with the move plans and the still plans for either seat."""
    return SearchAgent("1", move_plans=True, still_seats=("usa", "csa"))


def test_still_plans_search_the_blocks_left_next_to_the_enemy() -> None:
    """With ``move_still`` on, as the general ends its movement phase the first block it
    leaves still next to a known enemy is searched: staying put first (the general's own
    choice), then its best destinations. Off (``search-move``), nothing is searched."""
    game = _first(_played("boc/day1", 0), _still_near)
    view = game.view(game.to_move()[0])
    legal = view["legal_actions"]
    hooks = boc_search_hooks(None)
    end = plan_choice(view, legal, Plan())
    assert end["type"] == "end_phase"
    off = make_agent("search-move", "1")
    assert isinstance(off, SearchAgent) and off.plans_for(view, legal, end, hooks).plans == []
    agent = _still_agent()
    plans = agent.plans_for(view, legal, end, hooks).plans
    (uid,) = {u for p in plans for u in p.moves}
    here = next(a["path"][0] for a in legal if a["type"] == "move" and a["unit"] == uid)
    assert hooks.near_enemy(view, (here,)) <= 1
    placed = [p.moves[uid] for p in plans]
    assert placed[0] == here and len(set(placed)) == len(placed)
    assert 2 <= len(plans) <= 1 + search_mod.MOVE_ALTERNATIVES
    assert all(p.horizon == search_mod.REPLY and f"mv:{uid}" in p.settled for p in plans)
    # The incumbent is the general's own play: it ends the phase with the block still.
    assert plan_choice(view, legal, plans[0]) == end
    # That block searched, the next one (a different block) is offered, until none is left.
    seen = {uid}
    agent._plan = plans[0]
    for _ in range(60):
        nxt = agent.plans_for(view, legal, end, hooks).plans
        if not nxt:
            break
        (other,) = {u for p in nxt for u in p.moves} - set(agent._plan.moves)
        assert other not in seen
        seen.add(other)
        agent._plan = nxt[0]
    assert agent.plans_for(view, legal, end, hooks).plans == []


def test_a_still_block_that_should_stay_lets_the_next_one_be_searched(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At the phase's end one decision searches still blocks one after another while
    each stays; the first rival that wins clearly is moved, and the phase goes on."""
    _no_styles(monkeypatch)
    game = _first(_played("boc/day1", 0), lambda v, c: _still_near(v, c, blocks=2))
    view = game.view(game.to_move()[0])
    legal = view["legal_actions"]
    hooks = boc_search_hooks(None)
    agent = _still_agent()
    order = []
    probe = _still_agent()
    while plans := probe.plans_for(view, legal, plan_choice(view, legal, probe._plan), hooks).plans:
        (uid,) = {u for p in plans for u in p.moves} - set(probe._plan.moves)
        order.append((uid, plans[1].moves[uid]))
        probe._plan = plans[0]
    assert len(order) >= 2
    mover, rival = order[1]  # the second block searched is the one that should move

    monkeypatch.setattr(SearchAgent, "rollout", staticmethod(
        lambda v, plan, h, rng, doctrine=None, stop=None:
        rng.random() + (5.0 if plan.moves.get(mover) == rival else 0.0)))
    got = agent.choose(view, legal, 1.0, random.Random(1))
    assert got["type"] == "move" and got["unit"] == mover and got["path"][-1] == rival
    assert agent.searched == 2 and agent.overrides == 1
    assert agent._plan.moves[order[0][0]] != rival  # the first stays where it was
    # Nobody better: the phase ends after every still block was searched once.
    monkeypatch.setattr(SearchAgent, "rollout", staticmethod(
        lambda v, plan, h, rng, doctrine=None, stop=None: rng.random()))
    calm = _still_agent()
    assert calm.choose(view, legal, 1.0, random.Random(1))["type"] == "end_phase"
    assert calm.searched == len(order) and calm.overrides == 0


def test_search_move_still_searches_still_blocks_as_the_csa_only() -> None:
    """The preset ``search-move-still`` is search with the move plans, and the still plans
    as the CSA: at the end of a CSA movement phase with a block left next to the enemy it
    searches it; at the end of a USA one it offers nothing, where the two-seat agent
    would."""
    agent = make_agent("search-move-still", "1", "boc")
    assert isinstance(agent, SearchAgent)
    assert agent.move_plans and agent.still_seats == frozenset({"csa"})
    # In the lab it draws the retired search-move's numbers, so its recorded games replay.
    assert random_stream(agent, "search-move-still") == "search-move"
    hooks = boc_search_hooks(None)
    for seat, searched in (("csa", True), ("usa", False)):
        game = _first(_played("boc/day1", 0),
                      lambda v, c, seat=seat: v["seat"] == seat and _still_near(v, c),
                      limit=3000)
        view = game.view(seat)
        legal = view["legal_actions"]
        end = plan_choice(view, legal, Plan())
        fresh = make_agent("search-move-still", "1")
        assert isinstance(fresh, SearchAgent)
        offer = fresh.plans_for(view, legal, end, hooks)
        assert (len(offer.plans) >= 2) is searched, seat
        assert offer.still is searched, seat  # a still block's plans say so
        assert len(_still_agent().plans_for(view, legal, end, hooks).plans) >= 2


def _late_near_move(view: dict[str, Any], choice: dict[str, Any]) -> bool:
    return view["hour"] == 19 and _near_move(view, choice)


def test_an_endgame_rollout_in_the_battle_stops_at_the_days_verdict(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In the battle a draw at a day's end plays on (9.5): an END rollout from Day 1's 8 PM
    turn is scored at that day's verdict, not at the battle's end."""
    game = _first(_played("boc/battle", 0), lambda v, c: v["hour"] == 20
                  and v["phase"] == "movement" and v["active"] == v["seat"])
    seat = game.to_move()[0]
    view = game.view(seat)
    assert view["day"] == 1 and view["verdicts"] == []
    hooks = boc_search_hooks(None)
    ended: list[tuple[int, int, bool]] = []

    def value(world: Game, s: str) -> float:
        w = world.view(s)
        ended.append((w["day"], len(w["verdicts"]), world.is_terminal()))
        return 0.0

    monkeypatch.setattr(search_mod, "material_value", lambda world, s, v: value(world, s))
    for k in range(3):
        SearchAgent.rollout(view, Plan(horizon=search_mod.END), hooks, random.Random(k))
    assert all(day == 1 and verdicts == 1 for day, verdicts, _ in ended)
    # A drawn day: the battle went on, and the rollout stopped all the same.
    assert any(not over for _, _, over in ended)

