"""A value learned from games between generals, as the leaf value of search (an experiment).

Run (Day 1; each step reads the previous one's file)::

    .venv/bin/python experiments/search_value.py collect --games 300 --seed 3000 \\
        --out /tmp/value_day1.jsonl
    .venv/bin/python experiments/search_value.py fit /tmp/value_day1.jsonl \\
        --out experiments/results/value_day1_s9.json
    .venv/bin/python experiments/search_value.py play experiments/results/value_day1_s9.json \\
        --games 20 --seed 700 --budget 2 --out experiments/results/search_value_s9.jsonl
    .venv/bin/python experiments/search_vs_general.py experiments/results/search_value_s9.jsonl \\
        experiments/results/general_vs_general_s8.jsonl --agent search-value

``search`` judges each rollout by the world's CSA total with projected control plus the
danger its blocks are in (``search_boc.value``), read where the rollout stops: after
our melee phase, or after the enemy's next player turn. That total says little of how the
game will end: between two generals the final total is 3 points from it (one standard
deviation) at noon and still 2 at 5 PM. This script asks whether a value that predicts
the final total better makes search play better.

* ``collect`` plays general-against-general games (their own seeds, not the measured
  ones) and writes, at the start of every player turn (its command phase), the referee's
  position as features (below) and, once the game is over, the final CSA total.
* ``fit`` fits one ridge regression per half hour of the clock (the second player turn of
  an hour is its own half hour), on two thirds of the games, and prints, on the other
  third, the share of the final total's variance (R²) explained by the fitted value and by
  search's own value (linearly calibrated per half hour, so only its ranking counts).
* ``play`` plays ``search-value`` against the general from both seats: ``search`` whose
  leaf value is the fitted prediction of the final total, signed for its seat (the rest is
  search as it is; a position past the last half hour fitted keeps search's own value).
  ``--agent value-greedy`` plays ``ValueGreedy`` instead: the general with a one-move
  look-ahead by the fitted value in its movement phases.

Features of a position, all from the world the rollout played (itself drawn from the
seat's view, so nothing hidden is read): search's value (the CSA total with projected
control) and the danger term; per victory hex, its points times +1/-1/0 for CSA, USA or no
control, and its points times tanh of the CSA-minus-USA strength within 4 hexes weighted by
exp(-distance / 1.5), over 6; each side's losses, strength on the map, strength still to
arrive, and blocks at 2 steps or fewer.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from search_vs_general import play_against_general

from gettysburg.ai.agent import JSONDict, make_agent, register_agent, seeded_rng
from gettysburg.ai.doctrines import doctrine_for
from gettysburg.ai.general import Remembering, best_index
from gettysburg.ai.search import SearchAgent
from gettysburg.boc.ai import search_hooks as search_boc
from gettysburg.boc.ai.doctrine import projected_total
from gettysburg.boc.ai.facts import map_facts
from gettysburg.core.protocol import REFEREE, Action, Game, new_game
from gettysburg.core.search_hooks import SystemHooks
from gettysburg.lab.simulate import game_seed

SCENARIO = "boc/day1"
RIDGE = 5.0  # penalty on standardised weights
FOLDS = 3  # game k is held out when k % FOLDS == 0


def features(ref: JSONDict) -> list[float]:
    """The features of a referee view (module doc)."""
    facts = map_facts()
    victory = sorted(facts.victory)
    control = ref.get("control", {})
    losses = ref.get("losses") or {}
    risk = 0.0
    near = dict.fromkeys(victory, 0.0)
    onmap = {"usa": 0.0, "csa": 0.0}
    coming = {"usa": 0.0, "csa": 0.0}
    worn = {"usa": 0.0, "csa": 0.0}
    for u in ref.get("units", []):
        side, strength = str(u["side"]), float(u.get("strength", 0))
        if u.get("status") == "on_map" and u.get("hex"):
            r = search_boc.RISK.get(int(strength), search_boc.RISK_FULL)
            risk += -r if side == "csa" else r
            onmap[side] += strength
            worn[side] += strength <= 2
            dist = facts.table.get(str(u["hex"]), {})
            sign = 1.0 if side == "csa" else -1.0
            for v in victory:
                d = dist.get(v)
                if d is not None and d <= 4:
                    near[v] += sign * strength * math.exp(-d / 1.5)
        elif u.get("status") == "reserve":
            coming[side] += strength
    x = [float(projected_total(ref, facts)), risk]
    x += [facts.victory[v] * (1.0 if control.get(v) == "csa" else
                              -1.0 if control.get(v) == "usa" else 0.0) for v in victory]
    x += [facts.victory[v] * math.tanh(near[v] / 6.0) for v in victory]
    x += [float(losses.get("usa", 0)), float(losses.get("csa", 0)), onmap["usa"],
          onmap["csa"], coming["usa"], coming["csa"], worn["usa"], worn["csa"]]
    return x


def clock(ref: JSONDict) -> str:
    """The half hour key of a position: day, hour, and whether the second player moves."""
    second = ref.get("active") != (ref.get("order") or [None])[0]
    return f"{ref.get('day')}:{float(ref.get('hour', 0)) + (0.5 if second else 0.0)}"


def _collect_one(k_seed: tuple[int, str]) -> list[JSONDict]:
    k, base = k_seed
    seed = game_seed(base, k)
    game = new_game(SCENARIO, seed=seed)
    agents = {s: make_agent("general", f"{seed}:{s}") for s in ("usa", "csa")}
    rngs = {s: seeded_rng("lab", seed, s, "general") for s in ("usa", "csa")}
    seen: set[str] = set()
    out: list[JSONDict] = []
    while not game.is_terminal():
        seat = game.to_move()[0]
        view = game.view(seat)
        if view.get("phase") == "command":
            ref = game.view(REFEREE)
            key = clock(ref)
            if key not in seen:
                seen.add(key)
                out.append({"game": k, "clock": key, "x": features(ref)})
        legal = view.get("legal_actions") or game.legal_actions(seat)
        game.apply_unrecorded(agents[seat].choose(view, legal, 1.0, rngs[seat]), seat)
    final = float((game.result() or {}).get("csa_vp", 0))
    return [dict(r, y=final) for r in out]


def collect(args: argparse.Namespace) -> None:
    jobs = [(k, args.seed) for k in range(args.games)]
    with multiprocessing.get_context("fork").Pool(args.workers) as pool, \
            open(args.out, "w", encoding="utf-8") as f:
        for recs in pool.imap_unordered(_collect_one, jobs):
            for r in recs:
                f.write(json.dumps(r) + "\n")
    print(f"{args.games} games written to {args.out}")


def _r2(y: Any, p: Any) -> float:
    return float(1 - np.sum((y - p) ** 2) / np.sum((y - y.mean()) ** 2))


def fit(args: argparse.Namespace) -> None:
    by: dict[str, list[JSONDict]] = {}
    with open(args.records, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            by.setdefault(r["clock"], []).append(r)
    models: dict[str, JSONDict] = {}
    print("| clock | positions | R², search's value | R², fitted value |\n|---|---|---|---|")
    for key in sorted(by, key=lambda c: tuple(float(p) for p in c.split(":"))):
        rows = by[key]
        x = np.array([r["x"] for r in rows])
        y = np.array([r["y"] for r in rows])
        test = np.array([r["game"] % FOLDS == 0 for r in rows])
        train = ~test
        base = np.c_[np.ones(len(x)), x[:, 0] + x[:, 1]]
        wb = np.linalg.lstsq(base[train], y[train], rcond=None)[0]
        mean, sd = x[train].mean(0), x[train].std(0) + 1e-9
        z = np.c_[np.ones(len(x)), (x - mean) / sd]
        pen = RIDGE * np.eye(z.shape[1])
        pen[0, 0] = 0.0
        w = np.linalg.solve(z[train].T @ z[train] + pen, z[train].T @ y[train])
        print(f"| {key} | {len(rows)} | {_r2(y[test], base[test] @ wb):.2f} | "
              f"{_r2(y[test], z[test] @ w):.2f} |")
        # The model kept is fitted on every game.
        mean, sd = x.mean(0), x.std(0) + 1e-9
        z = np.c_[np.ones(len(x)), (x - mean) / sd]
        w = np.linalg.solve(z.T @ z + pen, z.T @ y)
        models[key] = {"mean": mean.tolist(), "sd": sd.tolist(), "w": w.tolist()}
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"scenario": SCENARIO, "records": args.records, "ridge": RIDGE,
                   "models": models}, f, indent=1, sort_keys=True)
    print(f"models written to {args.out}")


class LearnedValue:
    """The fitted prediction of the final CSA total, signed for ``seat``."""

    def __init__(self, path: str) -> None:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        self.models = {k: (np.array(m["mean"]), np.array(m["sd"]), np.array(m["w"]))
                       for k, m in data["models"].items()}

    def __call__(self, world: Game, seat: str) -> float:
        ref = world.view(REFEREE)
        model = self.models.get(clock(ref))
        if model is None or world.is_terminal():
            return search_boc.value(world, seat)
        mean, sd, w = model
        total = float(w[0] + ((np.array(features(ref)) - mean) / sd) @ w[1:])
        return total if seat == "csa" else -total


_VALUE: list[LearnedValue] = []


class ValueSearch(SearchAgent):
    """``search`` whose leaf value is the fitted one (module doc)."""

    name = "search-value"

    def _system(self, view: JSONDict) -> SystemHooks | None:
        hooks = super()._system(view)
        return replace(hooks, value=_VALUE[0]) if hooks is not None else None


register_agent("search-value", ValueSearch)

#: value-greedy: candidates (the doctrine's best moves), sampled worlds, least gain.
GREEDY_K, GREEDY_WORLDS, GREEDY_MARGIN = 3, 2, 0.1


class ValueGreedy:
    """The general, except in its own movement phases: of the doctrine's ``GREEDY_K``
    best moves (and the general's own choice), the one whose position the fitted value
    likes best, averaged over ``GREEDY_WORLDS`` sampled worlds, if it beats the general's
    choice by ``GREEDY_MARGIN`` points (a one-move look-ahead with the learned value)."""

    name = "value-greedy"

    def __init__(self, seed: str = "0") -> None:
        self.memory = Remembering()
        self.hooks: SystemHooks | None = None
        self.checked = 0
        self.changed = 0

    def stats(self) -> JSONDict:
        return {"checked": self.checked, "changed": self.changed}

    def observe(self, view: JSONDict) -> None:
        self.memory.recall(view)

    def choose(self, view: JSONDict, legal: Sequence[Action], budget_s: float,
               rng: random.Random) -> Action:
        view = self.memory.recall(view)
        scores = doctrine_for(view).scores(view, legal)
        best = best_index(scores, legal)
        seat = str(view["seat"])
        if view.get("phase") != "movement" or view.get("active") != seat:
            return dict(legal[best])
        order = sorted(range(len(legal)), key=lambda i: (-scores[i], i))
        moves = [i for i in order if i != best and legal[i].get("type") in ("move", "enter")]
        cands = [best, *moves[:GREEDY_K - 1]]
        if len(cands) < 2:
            return dict(legal[best])
        if self.hooks is None:
            self.hooks = search_boc.hooks(self.memory.get(view))
        self.checked += 1
        values: dict[int, float] = dict.fromkeys(cands, 0.0)
        for _ in range(GREEDY_WORLDS):
            world_seed = rng.getrandbits(64)
            for i in cands:
                world = self.hooks.build(view, random.Random(world_seed))
                world.apply_unrecorded(dict(legal[i]), seat)
                values[i] += _VALUE[0](world, seat) / GREEDY_WORLDS
        pick = max(cands, key=lambda i: (values[i], -cands.index(i)))
        if values[pick] - values[best] > GREEDY_MARGIN:
            self.changed += 1
            return dict(legal[pick])
        return dict(legal[best])


register_agent("value-greedy", ValueGreedy)


def play(args: argparse.Namespace) -> None:
    _VALUE[:] = [LearnedValue(args.models)]
    play_against_general(args.agent, SCENARIO, args.games, args.seed, args.budget,
                         args.seats, args.workers, args.out)

def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--games", type=int, default=300)
    c.add_argument("--seed", default="3000")
    c.add_argument("--workers", type=int, default=2)
    c.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("records")
    f.add_argument("--out", required=True)
    p = sub.add_parser("play")
    p.add_argument("models")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", default="700")
    p.add_argument("--budget", type=float, default=2.0)
    p.add_argument("--seats", nargs="+", default=["usa", "csa"], choices=["usa", "csa"])
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out")
    p.add_argument("--agent", default="search-value", choices=["search-value", "value-greedy"])
    args = ap.parse_args(argv)
    {"collect": collect, "fit": fit, "play": play}[args.command](args)


if __name__ == "__main__":
    main()
