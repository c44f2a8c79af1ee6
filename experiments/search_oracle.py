"""How much could look-ahead on the general gain if hidden information were no obstacle?

Run::

    .venv/bin/python experiments/search_oracle.py --games 20 --seed 700 --budget 2 \\
        --seats usa csa --workers 2 --out experiments/results/search_oracle_s9.jsonl
    .venv/bin/python experiments/search_vs_general.py experiments/results/search_oracle_s9.jsonl \\
        experiments/results/general_vs_general_s8.jsonl --agent oracle

``oracle`` is the ``search`` agent with one change: each world it plays its plans and
styles in is a copy of the *real* game (every hidden enemy block as it truly is) with
fresh dice, instead of a world drawn from what its seat has seen (``belief_boc``). It
cheats, so it is never registered outside this script and never plays a person. What it
measures is a ceiling: the gain over the general of search's look-ahead with perfect
knowledge of the enemy's blocks, at the same budget. If that ceiling is far below what
issue #7 asks (about 4 points a game on Day 1, ``experiments/search_target.py``), better
beliefs cannot close the gap and the look-ahead itself must change.

Games are played by ``gettysburg.lab.simulate.play_game`` on the seeds of ``gettysburg
simulate --seed S`` (game k of every run the same seed), so each game pairs with the
general-against-general game of its seed; rows have the lab's format, agent ``oracle``.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import replace
from typing import Any

from search_vs_general import play_against_general

from gettysburg.ai.agent import JSONDict, register_agent
from gettysburg.ai.search import SearchAgent, SystemHooks
from gettysburg.core.protocol import FORMAT_STATE, Game, load_game
from gettysburg.lab import simulate

#: The game being played in this process (one at a time per worker): what the oracle
#: copies. Set by the lab's ``new_game`` once ``track_games`` has wrapped it.
_TRUTH: list[Game] = []


def track_games() -> None:
    """Make the lab keep a reference to each game it starts in ``_TRUTH`` (the workers
    are forked after this, so they inherit it)."""
    if getattr(simulate.new_game, "tracked", False):
        return
    original = simulate.new_game

    def tracked(*args: Any, **kwargs: Any) -> Game:
        game = original(*args, **kwargs)
        _TRUTH[:] = [game]
        return game

    tracked.tracked = True  # type: ignore[attr-defined]
    simulate.new_game = tracked


def truth_world(view: JSONDict, rng: random.Random) -> Game:
    """The real game as it stands, with fresh dice (no log or history: rollouts need
    neither)."""
    truth = _TRUTH[0]
    seed = f"oracle-{rng.getrandbits(48)}"
    return load_game({"format": FORMAT_STATE, "system": truth.system,
                      "setup": dict(truth.setup.to_json(), seed=seed),
                      "position": truth.position_json(),
                      "dice": {"kind": "seeded", "seed": seed, "counter": 0, "rolls": []}})


class OracleSearch(SearchAgent):
    """``search`` whose worlds are the truth (benchmark only: it cheats)."""

    name = "oracle"

    def _system(self, view: JSONDict) -> SystemHooks | None:
        hooks = super()._system(view)
        return replace(hooks, build=truth_world) if hooks is not None else None


register_agent("oracle", OracleSearch)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenario", default="boc/day1")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", default="700")
    ap.add_argument("--budget", type=float, default=2.0)
    ap.add_argument("--seats", nargs="+", default=["usa", "csa"], choices=["usa", "csa"])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", help="append one JSON row per game")
    args = ap.parse_args()
    track_games()
    play_against_general("oracle", args.scenario, args.games, args.seed, args.budget,
                         args.seats, args.workers, args.out)


if __name__ == "__main__":
    main()
