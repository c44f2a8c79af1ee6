"""Agent and lab throughput: run with ``.venv/bin/python benchmarks/bench_agents.py``.

Prints:

* random-vs-random Day 1 games per second (one process);
* the ``general`` agent's decision latency and the latency of a whole ``general`` player
  turn (every decision of one side from its command phase to the end of its supply
  phase), median and 95th percentile, agent time only (the engine's own time excluded);
* parallel efficiency of ``gettysburg simulate``'s local pool: 2 workers against 1 on the
  same games (efficiency = t1 / (2 * t2));
* the ``search`` agent's latency per decision it actually searches (median, p95, mean) at
  ``--budget`` seconds, and the share of its decisions it searches, over one game in which
  it plays each side against the general; and how long its player turns take, which is
  what a person playing against it waits (``--agent search-move-still`` times that preset).

``--games N`` sets the games per measurement (default 2), ``--scenario`` the scenario.
``--clock-bound`` binds search to the clock, as the server does (``agent.bind_to_clock``:
each decision keeps its budget on the clock; ``--no-level-stop`` then plays every world
of a block's move plans even when they end level, ``search.LEVEL_STOP``);
``--search-only`` measures search alone.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from gettysburg.ai import make_agent
from gettysburg.core.protocol import new_game
from gettysburg.lab.simulate import make_specs, run_local


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def random_games_per_second(scenario: str, games: int) -> float:
    rows = run_local(make_specs(scenario, games, {"usa": "random", "csa": "random"},
                                seed="bench"), workers=1)
    return games / sum(float(r["seconds"]) for r in rows)


def general_latency(scenario: str, games: int) -> tuple[list[float], list[float]]:
    """(per decision, per player turn) agent seconds for general vs general."""
    decisions: list[float] = []
    turns: list[float] = []
    for k in range(games):
        game = new_game(scenario, seed=f"bench-{k}")
        agents = {s: make_agent("general", k) for s in game.seats()}
        rng = random.Random(k)
        current: tuple[object, ...] | None = None
        spent = 0.0
        while not game.is_terminal():
            seat = game.to_move()[0]
            view = game.view(seat)
            turn = (view.get("day"), view.get("hour"), view.get("active"))
            if turn != current:
                if current is not None:
                    turns.append(spent)
                current, spent = turn, 0.0
            t0 = time.perf_counter()
            action = agents[seat].choose(view, view["legal_actions"], 1.0, rng)
            dt = time.perf_counter() - t0
            decisions.append(dt)
            spent += dt
            game.apply(action, seat)
        turns.append(spent)
    return decisions, turns


def parallel_efficiency(scenario: str, games: int) -> tuple[float, float, float]:
    specs = make_specs(scenario, games, {"usa": "general", "csa": "random"}, seed="par")
    t0 = time.perf_counter()
    run_local(specs, workers=1)
    t1 = time.perf_counter() - t0
    t0 = time.perf_counter()
    run_local(specs, workers=2)
    t2 = time.perf_counter() - t0
    return t1, t2, t1 / (2 * t2)


def search_latency(scenario: str, budget: float, clock_bound: bool = False,
                   agent_name: str = "search") -> tuple[list[float], int, list[float]]:
    """(seconds per searched decision, decisions taken, seconds per player turn of the
    searching side) for ``agent_name`` (a search agent) against ``general``, one game
    with it as each side. A player turn's seconds are what a person playing against it
    waits for its whole turn (its decisions from command to supply phase, the engine's
    own time excluded)."""
    from gettysburg.ai.agent import bind_to_clock

    searched: list[float] = []
    turns: list[float] = []
    decisions = 0
    for side_index in (0, 1):
        game = new_game(scenario, seed=f"bench-search-{side_index}")
        seat_of_search = game.seats()[side_index]
        agent, general = make_agent(agent_name, "bench"), make_agent("general")
        if not hasattr(agent, "searched"):
            raise SystemExit(f"{agent_name!r} is not a search agent (it counts no searches)")
        if clock_bound:
            bind_to_clock(agent)
        rng = random.Random(side_index)
        current: tuple[object, ...] | None = None
        while not game.is_terminal():
            seat = game.to_move()[0]
            view = game.view(seat)
            if seat == seat_of_search:
                turn = (view.get("day"), view.get("hour"), view.get("active"))
                if turn != current:
                    current = turn
                    turns.append(0.0)
                before = agent.searched
                t0 = time.perf_counter()
                action = agent.choose(view, view["legal_actions"], budget, rng)
                dt = time.perf_counter() - t0
                decisions += 1
                turns[-1] += dt
                if agent.searched > before:
                    searched.append(dt)
            else:
                action = general.choose(view, view["legal_actions"], budget, rng)
            game.apply(action, seat)
    return searched, decisions, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--scenario", default="boc/day1")
    parser.add_argument("--budget", type=float, default=1.0,
                        help="search budget per decision, seconds")
    parser.add_argument("--skip-search", action="store_true")
    parser.add_argument("--search-only", action="store_true")
    parser.add_argument("--agent", default="search",
                        help="the search agent to time (search, search-move-still)")
    parser.add_argument("--clock-bound", action="store_true",
                        help="search keeps each decision's budget on the clock (the server)")
    parser.add_argument("--no-level-stop", action="store_true",
                        help="bound to the clock, still play every world of a block's move "
                             "plans that end level (search.LEVEL_STOP = 0, as before session 31)")
    args = parser.parse_args()
    if args.no_level_stop:
        import gettysburg.ai.search as search

        search.LEVEL_STOP = 0
    if not args.search_only:
        others(args)
    if not args.skip_search:
        searched, taken, turns = search_latency(args.scenario, args.budget,
                                                args.clock_bound, args.agent)
        bound = ", bound to the clock" if args.clock_bound else ""
        if searched:
            print(f"{args.agent} decision (budget {args.budget} s{bound}): median "
                  f"{1000 * statistics.median(searched):.0f} ms, p95 "
                  f"{1000 * percentile(searched, 0.95):.0f} ms, mean "
                  f"{1000 * statistics.fmean(searched):.0f} ms, max "
                  f"{1000 * max(searched):.0f} ms over {len(searched)} searched "
                  f"of {taken} decisions")
        else:
            print(f"{args.agent} decision: none of {taken} decisions was searched")
        print(f"{args.agent} player turn: median {statistics.median(turns):.1f} s, p95 "
              f"{percentile(turns, 0.95):.1f} s, max {max(turns):.1f} s over {len(turns)} "
              f"turns; {sum(turns):.0f} s in all")


def others(args: argparse.Namespace) -> None:
    """Everything but search."""
    gps = random_games_per_second(args.scenario, args.games)
    print(f"random vs random {args.scenario}: {gps:.3f} games/s ({1 / gps:.1f} s/game)")
    decisions, turns = general_latency(args.scenario, max(1, args.games // 2))
    print(f"general decision: median {1000 * statistics.median(decisions):.1f} ms, "
          f"p95 {1000 * percentile(decisions, 0.95):.1f} ms over {len(decisions)} decisions")
    print(f"general player turn: median {1000 * statistics.median(turns):.0f} ms, "
          f"p95 {1000 * percentile(turns, 0.95):.0f} ms over {len(turns)} turns")
    t1, t2, eff = parallel_efficiency(args.scenario, max(2, args.games))
    print(f"parallel: 1 worker {t1:.1f} s, 2 workers {t2:.1f} s, efficiency {eff:.2f}")


if __name__ == "__main__":
    main()
