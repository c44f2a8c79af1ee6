"""Is a style's destination worth offering search? A probe by position, not by game.

A variant that adds a rival to search's move plans (``SearchAgent.move_style_rivals``)
changes a game only where the rival wins its comparison, so games tell little for their
cost: session 36's three CSA games with the "hunter" rival were ``search-move-still``'s
own games, action for action. This script asks the question at the decision instead. It
plays Day 1 between two generals (seeds as ``gettysburg simulate --seed``), and wherever
the general moves one of ``--seat``'s blocks near the enemy and the style's best
destination for it is not among the plans ``search-move`` would offer, it plays the
doctrine's destination and the style's in ``--worlds`` sampled worlds, with the same dice
for both (common random numbers), under each horizon of the move plans (``reply``: through
the enemy's next player turn; ``fire``: and our next fire phase). Printed: a line per
position with the style's mean paired gain ± se, then per horizon the mean over positions
and how many were positive::

    .venv/bin/python benchmarks/rival_probe.py --style hunter --seat csa --games 12 \\
        --per-game 3 --worlds 24
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from gettysburg.ai import search as search_mod
from gettysburg.ai.agent import JSONDict, make_agent
from gettysburg.ai.search import Horizon, Plan, SearchAgent, SystemHooks
from gettysburg.boc.ai.search_hooks import hooks as boc_hooks
from gettysburg.core.protocol import Action, new_game
from gettysburg.lab.simulate import game_seed

HORIZONS: dict[str, Horizon] = {"reply": search_mod.REPLY, "fire": search_mod.FIRE}


@dataclass
class Probe:
    where: str  # game, hour, block and the two destinations
    gains: dict[str, tuple[float, float]]  # horizon -> (mean paired gain, se)


def style_rival(view: JSONDict, legal: Sequence[Action], choice: Action, style: str,
                hooks: SystemHooks) -> tuple[Plan, Plan] | None:
    """The doctrine's plan and the style's for the block ``choice`` moves, when the style
    adds a rival to ``search-move``'s plans; None otherwise."""
    base = make_agent("search-move", "probe")
    wide = make_agent("search-move", "probe")
    assert isinstance(base, SearchAgent) and isinstance(wide, SearchAgent)
    wide.move_style_rivals = (style,)
    plans = wide.plans_for(view, legal, choice, hooks).plans
    if len(plans) <= len(base.plans_for(view, legal, choice, hooks).plans):
        return None
    return plans[0], plans[-2]  # the style's rival comes just before staying put


def paired_gain(view: JSONDict, doctrine: Plan, rival: Plan, horizon: Horizon, worlds: int,
                key: str, hooks: SystemHooks) -> tuple[float, float]:
    """The rival's mean gain over the doctrine's plan, ± se, over ``worlds`` worlds."""
    diffs = []
    for w in range(worlds):
        seed = random.Random(f"{key}:{w}").getrandbits(64)
        mine, theirs = rival.copy(), doctrine.copy()
        mine.horizon = theirs.horizon = horizon
        a = SearchAgent.rollout(view, mine, hooks, random.Random(seed))
        b = SearchAgent.rollout(view, theirs, hooks, random.Random(seed))
        if a is not None and b is not None:
            diffs.append(a - b)
    if len(diffs) < 2:
        return (statistics.fmean(diffs) if diffs else 0.0), 0.0
    return statistics.fmean(diffs), statistics.stdev(diffs) / len(diffs) ** 0.5


def probe(style: str, seat: str, games: int, per_game: int, worlds: int, seed: int,
          horizons: Sequence[str] = ("reply", "fire")) -> list[Probe]:
    """Up to ``per_game`` positions a game (a block once an hour) and their gains."""
    general, rng = make_agent("general"), random.Random(0)
    hooks = boc_hooks(None)  # views alone: no memory of earlier sightings
    out: list[Probe] = []
    for g in range(games):
        game = new_game("boc/day1", seed=game_seed(seed, g))
        found: set[tuple[str, int]] = set()
        while not game.is_terminal() and len(found) < per_game:
            mover = game.to_move()[0]
            view = game.view(mover)
            legal = view["legal_actions"]
            choice = general.choose(view, legal, 0.0, rng)
            key = (str(choice.get("unit")), int(view.get("hour", 0)))
            if choice["type"] == "move" and mover == seat == view["active"] \
                    and key not in found:
                pair = style_rival(view, legal, choice, style, hooks)
                if pair is not None:
                    found.add(key)
                    uid = str(choice["unit"])
                    where = (f"game {g} {key[1]}:00 {uid} {pair[0].moves[uid]} -> "
                             f"{pair[1].moves[uid]}")
                    gains = {h: paired_gain(view, *pair, HORIZONS[h], worlds,
                                            f"{g}:{uid}:{key[1]}", hooks) for h in horizons}
                    out.append(Probe(where, gains))
                    print(where, " ".join(f"{h} {m:+.2f} ± {se:.2f}"
                                          for h, (m, se) in gains.items()), flush=True)
            game.apply(choice, mover)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--style", default="hunter", help="a style of the seat's portfolio")
    ap.add_argument("--seat", default="csa", choices=["usa", "csa"])
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--per-game", type=int, default=3)
    ap.add_argument("--worlds", type=int, default=24)
    ap.add_argument("--seed", type=int, default=20000, help="as gettysburg simulate --seed")
    args = ap.parse_args()
    probes = probe(args.style, args.seat, args.games, args.per_game, args.worlds, args.seed)
    for h in HORIZONS:
        means = [p.gains[h][0] for p in probes]
        if len(means) > 1:
            print(f"{h}: {len(means)} positions, mean gain {statistics.fmean(means):+.3f} ± "
                  f"{statistics.stdev(means) / len(means) ** 0.5:.3f}, "
                  f"positive {sum(m > 0 for m in means)}")


if __name__ == "__main__":
    main()
