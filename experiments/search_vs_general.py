"""Summarise ``search`` against ``general`` per seat, paired with general against general.

The games come from ``gettysburg simulate`` (both files may hold other rows; only the
matching ones are read)::

    gettysburg simulate boc/day1 --games 24 --usa search --csa general --seed 500 \\
        --budget 2 --workers 2 --out experiments/results/search_styles.jsonl
    gettysburg simulate boc/day1 --games 24 --usa general --csa search --seed 500 \\
        --budget 2 --workers 2 --out experiments/results/search_styles.jsonl
    gettysburg simulate boc/day1 --games 24 --usa general --csa general --seed 500 \\
        --workers 2 --out experiments/results/search_styles_baseline.jsonl
    .venv/bin/python experiments/search_vs_general.py experiments/results/search_styles.jsonl \\
        experiments/results/search_styles_baseline.jsonl

Game k of every run has the same seed, so each search game pairs with the general's game
in the same seat. Printed per seat and pooled: games, search's wins, draws and losses with
Wilson 95% intervals (``gettysburg.lab.simulate.wilson``), the general's wins in the same
seat on the same seeds, and the mean paired gain in CSA total, signed for search's seat
(``--agent`` another agent's rows in search's place); then the same gain split into its
parts (victory hexes, enemy blocks eliminated, own blocks kept). A game pairs only with
the general's game of the same seed *and dice* (``gettysburg simulate --dice keyed`` rows
with keyed rows: docs/ai.md, "Coupled games").

With ``--rival ROWS... --rival-agent NAME`` the agent's games are also paired with another
agent's games of the same seeds and seats (say a variant against the agent it varies), so
the difference the variant makes is read on the same dice as far as the two games agree::

    .venv/bin/python experiments/search_vs_general.py \\
        experiments/results/search_move_end_s30.jsonl \\
        experiments/results/thousands_s20_day1.jsonl --agent search-move-end \\
        --rival experiments/results/search_move_s24.jsonl \\
        experiments/results/search_move_usa_s25.jsonl \\
        experiments/results/search_move_csa_s25.jsonl experiments/results/search_move_csa_s26.jsonl

``--seat-agent usa=search-move`` reads another agent's rows for one seat: the package's
``search-move-still`` plays as ``search-move`` (same settings, same random numbers) from
the USA seat, and as ``search-move-still-paired`` from the CSA seat.

``play_against_general`` plays such games for an agent that only a benchmark registers
(``search_oracle.py``, ``search_value.py``).
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from gettysburg.lab.simulate import make_specs, run_local, summarise, wilson

Row = dict[str, Any]


def read(path: str) -> list[Row]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def pct(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k} ({100 * k / n:.0f}%, {100 * lo:.0f}%–{100 * hi:.0f}%)" if n else "0"


def pair_key(row: Row) -> tuple[str, str]:
    """What pairs two games: the seed and the dice (rows before keyed dice were seeded)."""
    return str(row["seed"]), str(row.get("dice", "seeded"))


def general_games(base: list[Row], scenario: str) -> dict[tuple[str, str], Row]:
    """The finished games between two generals in ``scenario``, by what pairs them."""
    return {pair_key(r): r for r in base if r["scenario"] == scenario and r["finished"]
            and r["agents"] == {"usa": "general", "csa": "general"}}


def seat_games(rows: list[Row], scenario: str, agent: str, seat: str) -> list[Row]:
    """The rows where ``agent`` held ``seat`` against the general."""
    return [r for r in rows if r["scenario"] == scenario and r["agents"].get(seat) == agent
            and r["agents"].get("usa" if seat == "csa" else "csa") == "general"]


def gain(row: Row, seat: str, other: Row) -> float | None:
    """How many more points ``row`` ended with than ``other`` for ``seat`` (the VP are the
    CSA's total, so the USA's gain is its negation); None if either has no total."""
    if row["vp"] is None or other["vp"] is None:
        return None
    return float((1 if seat == "csa" else -1) * (row["vp"] - other["vp"]))


def paired_gain(gains: Sequence[float]) -> str:
    """The mean of paired differences ± one standard error, signed ("–" for none)."""
    if not gains:
        return "–"
    mean = statistics.fmean(gains)
    se = statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else 0.0
    return f"{mean:+.2f} ± {se:.2f}"


def table(rows: list[Row], base: list[Row], scenario: str, agent: str = "search",
          seat_agents: dict[str, str] | None = None) -> list[str]:
    """The agent's games against the general per seat and pooled; ``seat_agents`` names
    another agent's rows for a seat (an agent that plays as another from that seat)."""
    general = general_games(base, scenario)
    lines = [f"| {agent} plays | games | {agent} wins | draws | {agent} losses | general's wins "
             "(same seat, seeds) | score, a draw ½ (the general's) | paired gain ± se | s/game |",
             "|---|---|---|---|---|---|---|---|---|"]
    pooled: list[tuple[Row, str]] = []
    for seat in ("usa", "csa"):
        mine = seat_games(rows, scenario, (seat_agents or {}).get(seat, agent), seat)
        pooled += [(r, seat) for r in mine]
        lines.append(line(seat.upper(), [(r, seat) for r in mine], general))
    lines.append(line("both", pooled, general))
    return lines


def line(label: str, games: list[tuple[Row, str]], general: dict[tuple[str, str], Row]) -> str:
    n = len(games)
    if not n:
        return f"| {label} | 0 | | | | | | | |"
    wins = sum(1 for r, s in games if r["winner"] == s)
    draws = sum(1 for r, _ in games if r["finished"] and r["winner"] is None)
    losses = sum(1 for r, s in games if r["winner"] not in (None, s))
    paired = [(r, s, general[pair_key(r)]) for r, s in games if pair_key(r) in general]
    gwins = sum(1 for _, s, g in paired if g["winner"] == s)
    gains = [d for r, s, g in paired if (d := gain(r, s, g)) is not None]
    secs = statistics.fmean(float(r["seconds"]) for r, _ in games)
    mine = [score(r, s) for r, s in games if r["finished"]]
    theirs = [score(g, s) for _, s, g in paired]
    return (f"| {label} | {n} | {pct(wins, n)} | {pct(draws, n)} | {pct(losses, n)} | "
            f"{gwins} of {len(paired)} | {mean_se(mine)} ({mean_se(theirs)}) | "
            f"{paired_gain(gains)} | {secs:.0f} |")


def parts(row: Row) -> tuple[float, float, float] | None:
    """A finished game's CSA total in its three parts at the last verdict (9.11, 9.12):
    terrain, USA blocks lost, CSA blocks lost; None for a row without a verdict."""
    verdicts = (row.get("result") or {}).get("verdicts") or []
    if not verdicts:
        return None
    v = verdicts[-1]
    return float(v["terrain"]), float(v["usa_losses"]), float(v["csa_losses"])


def split_table(rows: list[Row], base: list[Row], scenario: str, agent: str = "search",
                seat_agents: dict[str, str] | None = None) -> list[str]:
    """Where the paired gain comes from, per seat and pooled, each part signed for the
    agent's seat (positive: better for it): victory hexes held, enemy blocks eliminated,
    own blocks kept. The three add up to the paired gain of :func:`table`."""
    general = general_games(base, scenario)
    lines = [f"| {agent} plays | games split | terrain | enemy blocks eliminated | "
             "own blocks kept | paired gain ± se |", "|---|---|---|---|---|---|"]
    pooled: list[list[float]] = []
    for seat in ("usa", "csa"):
        mine = seat_games(rows, scenario, (seat_agents or {}).get(seat, agent), seat)
        diffs = []
        for r in mine:
            g = general.get(pair_key(r))
            a, b = parts(r), parts(g) if g is not None else None
            if a is None or b is None:
                continue
            terrain, usa_lost, csa_lost = (x - y for x, y in zip(a, b, strict=True))
            if seat == "csa":  # the CSA total's sign is the CSA's
                diffs.append([terrain, usa_lost, -csa_lost, terrain + usa_lost - csa_lost])
            else:
                diffs.append([-terrain, csa_lost, -usa_lost, -(terrain + usa_lost - csa_lost)])
        pooled += diffs
        lines.append(split_line(seat.upper(), diffs))
    lines.append(split_line("both", pooled))
    return lines


def split_line(label: str, diffs: list[list[float]]) -> str:
    cols = [paired_gain([d[i] for d in diffs]) for i in range(4)]
    return f"| {label} | {len(diffs)} | " + " | ".join(cols) + " |"


def rival_table(rows: list[Row], rivals: list[Row], scenario: str, agent: str,
                rival: str, seat_agents: dict[str, str] | None = None,
                rival_seat_agents: dict[str, str] | None = None) -> list[str]:
    """``agent``'s games paired with ``rival``'s (both against the general) of the same
    seeds and seats: per seat and pooled, games paired, how many of them were the same
    game (the same actions by type and the same CSA total at each turn: a paired variant
    that never decided otherwise), the paired gain, and the wins of each in those games.
    ``seat_agents`` and ``rival_seat_agents`` name another agent's rows for a seat, as in
    :func:`table` (say ``search-move-still``'s rivals: ``search-move``'s USA rows and
    ``search-move-still-paired``'s CSA rows)."""
    lines = [f"| {agent} against {rival} | games paired | the same game | paired gain ± se "
             f"| wins ({agent}, {rival}) |", "|---|---|---|---|---|"]
    pooled: list[float] = []
    wins, same = [0, 0], 0
    for seat in ("usa", "csa"):
        them = (rival_seat_agents or {}).get(seat, rival)
        theirs = {pair_key(r): r for r in seat_games(rivals, scenario, them, seat)}
        me = (seat_agents or {}).get(seat, agent)
        pairs = [(r, theirs[pair_key(r)]) for r in seat_games(rows, scenario, me, seat)
                 if pair_key(r) in theirs]
        gains = [d for r, t in pairs if (d := gain(r, seat, t)) is not None]
        won = [sum(1 for r, _ in pairs if r["winner"] == seat),
               sum(1 for _, t in pairs if t["winner"] == seat)]
        alike = sum(1 for r, t in pairs if "played" in r
                    and (r["played"], r.get("vp_track")) == (t.get("played"), t.get("vp_track")))
        lines.append(f"| {seat.upper()} | {len(pairs)} | {alike} | {paired_gain(gains)} | "
                     f"{won[0]}, {won[1]} |")
        pooled += gains
        wins, same = [wins[0] + won[0], wins[1] + won[1]], same + alike
    lines.append(f"| both | {len(pooled)} | {same} | {paired_gain(pooled)} | "
                 f"{wins[0]}, {wins[1]} |")
    return lines


def score(row: Row, seat: str) -> float:
    """A finished game's score for ``seat`` as a chess player counts it: a win 1, a draw ½."""
    return 1.0 if row["winner"] == seat else 0.5 if row["winner"] is None else 0.0


def mean_se(values: Sequence[float]) -> str:
    if len(values) < 2:
        return f"{values[0]:.2f}" if values else "–"
    return (f"{statistics.fmean(values):.2f} ± "
            f"{statistics.stdev(values) / len(values) ** 0.5:.2f}")


def play_against_general(agent: str, scenario: str, games: int, seed: str, budget: float,
                         seats: Sequence[str] = ("usa", "csa"), workers: int = 2,
                         out: str | None = None, dice: str = "seeded",
                         start: int = 0) -> dict[str, Any]:
    """Play ``agent`` (registered in this process) against the general from each of
    ``seats`` on the seeds of ``gettysburg simulate --seed`` (so every game pairs with the
    general's own game of its seed), print a line per game, append the rows to ``out``;
    the run's summary. ``start`` skips that many seeds a seat, so a run can extend an
    earlier one without replaying its games."""
    specs = []
    for seat in seats:
        agents = {"usa": "general", "csa": "general", seat: agent}
        specs += [s for s in make_specs(scenario, start + games, agents, seed, budget_s=budget,
                                        dice=dice) if s.index >= start]
    # Interleave the seats so a short run still has both.
    specs.sort(key=lambda s: (s.index, s.agents["usa"]))
    specs = [replace(s, index=i) for i, s in enumerate(specs)]

    def progress(row: Row) -> None:
        seat = "usa" if row["agents"]["usa"] == agent else "csa"
        print(f"{row['seed']} {agent} {seat}: winner {row['winner']} vp {row['vp']} "
              f"{row['seconds']:.0f} s {row['agent_stats'].get(seat, {})}", flush=True)
        if out:
            with open(out, "a", encoding="utf-8") as f:
                f.write(json.dumps(row, sort_keys=True) + "\n")

    summary: dict[str, Any] = summarise(run_local(specs, workers=workers, progress=progress))
    print(json.dumps(summary))
    return summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rows", help="search against general rows (gettysburg simulate --out)")
    ap.add_argument("baseline", help="general against general rows, same seeds")
    ap.add_argument("--scenario", default="boc/day1")
    ap.add_argument("--agent", default="search",
                    help="the agent measured (experiments/search_oracle.py rows: oracle)")
    ap.add_argument("--rival", nargs="+", metavar="ROWS",
                    help="another agent's rows against the general: pair with those too")
    ap.add_argument("--rival-agent", default="search-move",
                    help="the agent of the --rival rows (default search-move)")
    ap.add_argument("--seat-agent", nargs="+", default=[], metavar="SEAT=AGENT",
                    help="read another agent's rows for a seat, e.g. usa=search-move for "
                         "search-move-still, which plays as search-move from that seat")
    ap.add_argument("--rival-seat-agent", nargs="+", default=[], metavar="SEAT=AGENT",
                    help="the same as --seat-agent for the --rival rows")
    args = ap.parse_args()

    def by_seat(items: list[str], flag: str) -> dict[str, str]:
        out = {}
        for item in items:
            seat, _, name = item.partition("=")
            if seat not in ("usa", "csa") or not name:
                ap.error(f"{flag} {item!r}: expected usa=AGENT or csa=AGENT")
            out[seat] = name
        return out

    seat_agents = by_seat(args.seat_agent, "--seat-agent")
    rival_seat_agents = by_seat(args.rival_seat_agent, "--rival-seat-agent")
    rows, base = read(args.rows), read(args.baseline)
    print("\n".join(table(rows, base, args.scenario, args.agent, seat_agents)))
    print()
    print("\n".join(split_table(rows, base, args.scenario, args.agent, seat_agents)))
    if args.rival:
        rivals = [row for path in args.rival for row in read(path)]
        print()
        print("\n".join(rival_table(rows, rivals, args.scenario, args.agent,
                                     args.rival_agent, seat_agents, rival_seat_agents)))


if __name__ == "__main__":
    main()
