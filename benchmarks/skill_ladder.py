"""How far apart in skill must two players be for the better one to win 60% of the games?

Issue #7 asks ``search`` to beat ``general`` in 60% of games. ``search_target.py`` turns
that bar into victory points. This script measures it in *skill*: the general plays a
weakened copy of itself, ``general-eps-P``, which at each decision plays a uniformly random
legal action with probability P (else the general's choice; it remembers every view
either way: ``gettysburg.ai.novice.Blundering``, the ``novice`` agent at P = 0.25); with
``--phases`` a rung blunders only in one phase, which shows where on the turn track skill
pays. The share of games the general wins against each rung says how
much worse an opponent must be for the general to win 60%, which is the gap issue #7 asks
search to open above the general::

    .venv/bin/python benchmarks/skill_ladder.py --eps 0.05 0.1 0.2 0.4 0.7 --games 50 \\
        --seed 700 --workers 2 --out results/skill_ladder_s10.jsonl
    .venv/bin/python benchmarks/skill_ladder.py --summarise results/skill_ladder_s10.jsonl \\
        --baseline results/general_vs_general_s8.jsonl
    .venv/bin/python benchmarks/skill_ladder.py --scenario boc/day2 --eps 0.2 --games 25 \\
        --seed 700 --workers 2 --out results/skill_ladder_s10.jsonl
    .venv/bin/python benchmarks/skill_ladder.py --summarise results/skill_ladder_s10.jsonl \\
        --scenario boc/day2 --baseline results/general_vs_general_s10.jsonl

Games are played on the seeds of ``gettysburg simulate --seed`` with the weakened general
in each seat in turn (``search_vs_general.play_against_general``), so each pairs with the
general-against-general game of its seed. The summary is from the *general's* side: its
wins, draws and losses against each rung of one scenario (``--scenario``), with Wilson 95%
intervals, pooled over seats.
"""

from __future__ import annotations

import argparse
from typing import Any

from search_vs_general import general_games, line, play_against_general, read

from gettysburg.ai.agent import agent_names, register_agent
from gettysburg.ai.novice import Blundering

JSONDict = dict[str, Any]


def rung(eps: float, phase: str | None = None) -> str:
    """The agent name of a rung (registered on first use)."""
    name = f"general-eps-{eps:g}" + (f"-in-{phase}" if phase else "")
    if name not in agent_names():
        register_agent(name, type(name.replace("-", "_").replace(".", "_"), (Blundering,),
                                  {"eps": eps, "phase": phase, "name": name}))
    return name


def _rung_key(name: str) -> tuple[str, float]:
    """Sort rungs by phase (all phases first), then by share of blunders."""
    eps, _, phase = name.removeprefix("general-eps-").partition("-in-")
    return phase, float(eps)


def summarise(rows: list[JSONDict], base: list[JSONDict], scenario: str = "boc/day1"
              ) -> list[str]:
    """The general's results against each rung in ``scenario``, pooled over seats; with
    ``base`` (general against general, same seeds) also the points a game the general's
    side gained over its own game of the seed: how much worse the rung plays, in victory
    points."""
    rows = [r for r in rows if r["scenario"] == scenario]
    general = general_games(base, scenario)
    lines = ["| general against | games | general wins | draws | general losses | the "
             "general's wins against itself (same seat, seeds) | points a game for the "
             "general's side ± se | s/game |", "|---|---|---|---|---|---|---|---|"]
    names = sorted({n for r in rows for n in r["agents"].values() if n.startswith("general-eps")},
                   key=_rung_key)
    for name in names:
        # The general's seat plays the part of search's in search_vs_general's table.
        lines.append(line(name, [(r, "usa" if r["agents"]["csa"] == name else "csa")
                                 for r in rows if name in r["agents"].values()], general))
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--eps", type=float, nargs="+", default=[0.05, 0.1, 0.2, 0.4])
    ap.add_argument("--phases", nargs="+", metavar="PHASE",
                    help="a rung per phase: blunders only in that phase (BoC: command, "
                         "movement, fire, melee, supply)")
    ap.add_argument("--scenario", default="boc/day1")
    ap.add_argument("--games", type=int, default=50, help="games per seat and rung")
    ap.add_argument("--seed", default="700")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out")
    ap.add_argument("--dice", default="seeded", choices=["seeded", "keyed"],
                    help="keyed: coupled games (docs/ai.md, 'Coupled games')")
    ap.add_argument("--summarise", metavar="FILE", help="print the table of FILE's rows only")
    ap.add_argument("--baseline", metavar="FILE",
                    help="general against general rows of the same seeds (for --summarise)")
    args = ap.parse_args()
    if args.summarise:
        print("\n".join(summarise(read(args.summarise),
                                   read(args.baseline) if args.baseline else [],
                                   args.scenario)))
        return
    for eps in args.eps:
        for phase in args.phases or [None]:
            play_against_general(rung(eps, phase), args.scenario, args.games, args.seed, 0.0,
                                 workers=args.workers, out=args.out, dice=args.dice)


if __name__ == "__main__":
    main()
