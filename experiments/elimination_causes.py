"""Why blocks are eliminated between two agents, by side and cause.

Run::

    .venv/bin/python experiments/elimination_causes.py --scenario boc/day2 --games 10

Plays ``--games`` games (seeds as ``gettysburg simulate --seed S``) between ``--usa`` and
``--csa`` (default: the general for both) through ``Game.apply``, reads every
``eliminated`` event of the log (its ``why``: the last step lost to fire, 5.23, or in a
melee, 7.2; a 5.32 repulse with no friendly hex with room, over a 6.2 stacking limit...)
and prints, per side and cause, the blocks lost a game. A designer reads where the losses
come from; a doctrine's self-inflicted losses (stacking, repulses into nowhere) show up
here first.
"""

from __future__ import annotations

import argparse
from collections import Counter

from gettysburg.ai.agent import make_agent, seeded_rng
from gettysburg.core.protocol import new_game
from gettysburg.lab.simulate import game_seed


def causes(scenario: str, games: int, seed: int, agents: dict[str, str]
           ) -> Counter[tuple[str, str]]:
    """(side, cause) -> blocks eliminated, over ``games`` games."""
    lost: Counter[tuple[str, str]] = Counter()
    for k in range(games):
        game_id = game_seed(seed, k)
        game = new_game(scenario, seed=game_id)
        players = {s: make_agent(name, f"{game_id}:{s}") for s, name in agents.items()}
        rngs = {s: seeded_rng("lab", game_id, s, name) for s, name in agents.items()}
        while not game.is_terminal():
            seat = game.to_move()[0]
            view = game.view(seat)
            action = players[seat].choose(view, game.legal_actions(seat), 1.0, rngs[seat])
            for event in game.apply(action, seat):
                if event.type == "eliminated":
                    why = str(event.data.get("why", ""))
                    if "stacking limit" in why:
                        why = "over a stacking limit (6.2)"
                    elif why == "lost its last step":  # to fire (5.23) or in a melee (7.2)
                        why = f"{why} ({event.rule})"
                    lost[(str(event.data.get("side")), why)] += 1
    return lost


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenario", default="boc/day2")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=700, help="as gettysburg simulate --seed")
    ap.add_argument("--usa", default="general")
    ap.add_argument("--csa", default="general")
    args = ap.parse_args()
    lost = causes(args.scenario, args.games, args.seed, {"usa": args.usa, "csa": args.csa})
    print(f"{args.scenario}, {args.games} games, usa={args.usa} csa={args.csa}")
    print("| side | cause | blocks a game |")
    print("|---|---|---|")
    for (side, why), n in sorted(lost.items(), key=lambda kv: (kv[0][0], -kv[1])):
        print(f"| {side} | {why} | {n / args.games:.2f} |")


if __name__ == "__main__":
    main()
