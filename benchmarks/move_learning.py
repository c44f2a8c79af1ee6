"""Can the general's movement scores learn from search's rollouts? (session 31)

``search-move`` gains about a point a game over the general by overriding some 8 of its
block moves a game (docs/ai.md, "The agent search-move"). This script asks whether what
those rollouts find can be written back into the general's own move scores, so that it
applies to every move near the enemy at the general's cost, as a learned correction of
the doctrine (docs/ai.md, "Learning the move scores from search").

``label``: plays the general against itself and, at a share of its moves of a block near
the enemy, plays ``search-move``'s plans for that block (its destination, its next two
best, staying put) in the same sampled worlds with the same dice through the enemy's
reply, as ``search-move`` does. Each sample stores the plans' destinations, the doctrine's
score of each, the features of each destination (``FEATURES``, relative to staying put)
and every rollout's value. Session 31's labels (stopped after 2,380 samples, about 50
games; the file's order is the order the games finished in)::

    .venv/bin/python benchmarks/move_learning.py label --games 60 --seed 31000 --share 0.3 \\
        --rounds 4 --workers 2 --out results/move_labels_s31.jsonl   # then gzipped

``fit``: ridge regression of each rival's mean gain over the general's destination on the
differences of their features, the doctrine score's a control; the features'
coefficients are the correction's weights, in units of value. Session 31's, for both seats
and for each::

    .venv/bin/python benchmarks/move_learning.py fit results/move_labels_s31.jsonl.gz \\
        --limit 2066 --out results/move_weights_s31.json
    .venv/bin/python benchmarks/move_learning.py fit results/move_labels_s31.jsonl.gz \\
        --limit 2183 --seat usa --out results/move_weights_usa_s31.json   # and csa

``play``: the agent ``general-learned`` (the general, its score of each move near the
enemy plus the weighted features of the move) against the general on the seeds of
``gettysburg simulate --seed``, so each game pairs with the general's own
(``search_vs_general.py``)::

    .venv/bin/python benchmarks/move_learning.py play --weights results/move_weights_s31.json \\
        --min-z 2 --games 100 --seed 20000 --workers 2 --out results/general_learned_s31.jsonl
    .venv/bin/python benchmarks/move_learning.py play --weights \\
        usa=results/move_weights_usa_s31.json csa=results/move_weights_csa_s31.json \\
        --min-z 2 --games 100 --seed 20000 --workers 2 \\
        --out results/general_learned_seats_s31.jsonl
    .venv/bin/python benchmarks/search_vs_general.py results/general_learned_s31.jsonl \\
        results/thousands_s20_day1.jsonl --agent general-learned
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import random
import sys
from collections.abc import Sequence
from multiprocessing import Pool

import numpy as np
from search_vs_general import play_against_general

from gettysburg.ai.agent import JSONDict, register_agent
from gettysburg.ai.doctrines import doctrine_for
from gettysburg.ai.general import GeneralAgent, best_index, doctrine_choice
from gettysburg.ai.search import WIN_VALUE, MoveSearchAgent, Plan, SearchAgent
from gettysburg.boc.ai.doctrine import BocDoctrine, Situation
from gettysburg.boc.ai.search_hooks import hooks as boc_hooks
from gettysburg.boc.oob import ARTILLERY_TYPES, HQ_TYPES
from gettysburg.core.protocol import Action, new_game

#: What a destination offers a block, each relative to staying put (0 for staying).
FEATURES = (
    "moved",  # 1 for any move: the doctrine's inertia
    "objective",  # pull of the victory hexes (the doctrine's own term)
    "control",  # victory points won in projected control (6.61)
    "front",  # next to a known enemy
    "enemy_hexes",  # known enemy hexes next to it
    "enemy_strength",  # their strength (hidden blocks at 3), in 4s
    "friends",  # own blocks next to it (support in melee, 7.8), in 2s
    "shelter",  # the doctrine's shelter of the hex (woods, town, height, 5.x)
    "prey",  # how easily a worn enemy block next to it falls (doctrine)
    "worn_front",  # a 1-step block in the line
    "gun_front",  # a battery in the line
    "gun_range",  # a battery 2-3 hexes from the enemy (5.31)
    "hq_front",  # an HQ in the line
    "victory",  # the hex's victory points (9.1)
    "near",  # hexes to the nearest known enemy, at most 4, in 4s
    "strong_front",  # the block's strength in the line, in 4s
    "crowd",  # blocks in the hex after the move, over its stacking limit (6.2)
)


def _phi(sit: Situation, uid: str, here: str, hx: str) -> list[float]:
    label = sit.unit(uid)
    kind = label.type if label else "infantry"
    facts = sit.facts
    front = 1.0 if hx in sit.front else 0.0
    nbrs = facts.nbrs.get(hx, ())
    enemy = [n for n in nbrs if n in sit.enemy_at]
    strength = sit.strength(uid)
    friends = sum(sit.garrison.get(n, 0) for n in nbrs) - (1 if here in nbrs else 0)
    crowd = sit.garrison.get(hx, 0) + (0 if hx == here else 1)
    limit = facts.stacking.get(hx, 0) or 1
    gun = kind in ARTILLERY_TYPES
    near = sit.nearest_enemy(hx)
    return [0.0 if hx == here else 1.0, sit.objective(hx, here), sit.control_gain(hx, here),
            front, float(len(enemy)), sum(sit.enemy_at[n] for n in enemy) / 4.0,
            friends / 2.0, facts.shelter.get(hx, 0.0), sit.prey(hx),
            front * (strength <= 1), front * gun, float(gun and not front and near <= 3),
            front * (kind in HQ_TYPES), float(facts.victory.get(hx, 0)), min(near, 4) / 4.0,
            front * strength / 4.0, crowd / limit]


def features(sit: Situation, uid: str, here: str, dest: str,
             at: Sequence[float] | None = None) -> list[float]:
    """``FEATURES`` of ``dest`` for unit ``uid`` now in ``here``, less those of staying
    (``at``: those of staying, if already worked out)."""
    if at is None:
        at = _phi(sit, uid, here, here)
    return [b - a for a, b in zip(at, _phi(sit, uid, here, dest), strict=True)]


# --- label ---------------------------------------------------------------------------------
def label_game(args: tuple[str, float, int]) -> list[JSONDict]:
    """One general-against-general Day 1 game; samples of the move plans along it."""
    seed, share, rounds = args
    game = new_game("boc/day1", seed=seed)
    generals = {s: GeneralAgent(f"{seed}:{s}") for s in ("usa", "csa")}
    rng = random.Random(f"move_learning:{seed}")
    samples: list[JSONDict] = []
    while not game.is_terminal():
        seat = game.to_move()[0]
        view = game.view(seat)
        legal = view.get("legal_actions") or game.legal_actions(seat)
        general = generals[seat]
        rview = general.memory.recall(view)
        doctrine = doctrine_for(rview)
        scores = doctrine.scores(rview, legal)
        choice = dict(legal[best_index(scores, legal)])
        if choice.get("type") == "move" and rng.random() < share:
            got = _sample(rview, legal, choice, general, rounds, rng)
            if got is not None:
                samples.append({"seed": seed, "seat": seat, "hour": rview.get("hour"), **got})
        game.apply_unrecorded(choice, seat)
    return samples


def _sample(view: JSONDict, legal: Sequence[Action], choice: Action, general: GeneralAgent,
            rounds: int, rng: random.Random) -> JSONDict | None:
    hooks = boc_hooks(general.memory.get(view))
    searcher = MoveSearchAgent("label")
    searcher.style_search = False
    plans: list[Plan] = searcher.plans_for(view, legal, choice, hooks).plans
    uid, here = str(choice["unit"]), str(choice["path"][0])
    if len(plans) < 2 or any(uid not in p.moves for p in plans):
        return None  # no block near the enemy, or the last turn's whole-turn plans
    dests = [p.moves[uid] for p in plans]
    doctrine = doctrine_for(view)
    assert isinstance(doctrine, BocDoctrine)
    sit = doctrine.situation(view)
    mine = [a for a in legal if a.get("type") == "move" and str(a.get("unit")) == uid]
    best: dict[str, float] = {here: 0.0}  # staying: no move, the doctrine's zero
    for a, sc in zip(mine, doctrine.scores(view, mine), strict=True):
        to = str(a["path"][-1])
        best[to] = max(best.get(to, -math.inf), sc)
    at = _phi(sit, uid, here, here)
    values: list[list[float]] = []
    for _ in range(rounds):
        world = rng.getrandbits(64)
        try:
            got = [SearchAgent.rollout(view, p, hooks, random.Random(world)) for p in plans]
        except Exception:  # a world the engine refused: skip the round, as search does
            continue
        if all(v is not None for v in got):
            values.append([float(v) for v in got if v is not None])
    if len(values) < 2:
        return None
    return {"unit": uid, "here": here, "dests": dests, "scores": [best[d] for d in dests],
            "features": [features(sit, uid, here, d, at) for d in dests], "values": values}


def label(games: int, seed: int, share: float, rounds: int, workers: int, out: str) -> None:
    jobs = [(str(seed + k), share, rounds) for k in range(games)]
    with Pool(workers) as pool, open(out, "a", encoding="utf-8") as f:
        for samples in pool.imap_unordered(label_game, jobs):
            for s in samples:
                f.write(json.dumps(s, sort_keys=True) + "\n")
            f.flush()
            print(f"game {samples[0]['seed'] if samples else '?'}: {len(samples)} samples",
                  flush=True)


# --- fit -----------------------------------------------------------------------------------
def read_samples(paths: Sequence[str], limit: int | None = None, seat: str | None = None
                 ) -> list[JSONDict]:
    """The samples of label files (JSON lines, gzipped if the name ends in .gz): the first
    ``limit`` of them in file order, then those of ``seat`` only."""
    out: list[JSONDict] = []
    for path in paths:
        with (gzip.open(path, "rt", encoding="utf-8") if path.endswith(".gz")
              else open(path, encoding="utf-8")) as f:
            out += [json.loads(line) for line in f if line.strip()]
    out = out[:limit] if limit is not None else out
    return [s for s in out if seat is None or s["seat"] == seat]


def design(samples: Sequence[JSONDict]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows (one per rival of the general's destination): the differences of features and
    of doctrine score, the rival's mean gain in value and that mean's variance. Samples
    where a world ended within the horizon are left out: their +-100 (``WIN_VALUE``) would
    outweigh every other row of a least-squares fit."""
    xs, ys, var = [], [], []
    for s in samples:
        v = np.array(s["values"])
        if np.abs(v).max() >= WIN_VALUE / 2:
            continue  # a world won or lost within the horizon (7 PM on Day 1): +-100 a plan
        f0, s0 = np.array(s["features"][0]), s["scores"][0]
        for k in range(1, len(s["dests"])):
            d = v[:, k] - v[:, 0]
            xs.append([*(np.array(s["features"][k]) - f0), s["scores"][k] - s0])
            ys.append(d.mean())
            var.append(d.var(ddof=1) / len(d) if len(d) > 1 else 1.0)
    return np.array(xs), np.array(ys), np.array(var)


def fit(samples: Sequence[JSONDict], ridge: float = 1.0) -> JSONDict:
    """Ridge least squares of the gains on the differences (``design``), the doctrine
    score's difference a control: each term's coefficient ± its standard error. The
    correction's ``weights`` are the features' coefficients, in units of value (a block
    eliminated is about 1, 9.12); ``play --scale`` sets what they weigh in the doctrine's
    scores (on session 31's samples the score's own coefficient was near 0: among the
    plans compared, the doctrine's ranking did not predict the rollouts')."""
    x, y, _ = design(samples)
    n, p = x.shape
    a = x.T @ x + ridge * np.eye(p)
    coef = np.linalg.solve(a, x.T @ y)
    resid = y - x @ coef
    sigma2 = float(resid @ resid) / max(1, n - p)
    se = np.sqrt(np.diag(np.linalg.inv(a)) * sigma2)
    names = [*FEATURES, "doctrine_score"]
    r2 = 1.0 - float(resid @ resid) / float(((y - y.mean()) ** 2).sum() or 1.0)
    return {"rows": int(n), "samples": len(samples), "r2": r2, "ridge": ridge,
            "gain_mean": float(y.mean()), "gain_sd": float(y.std()),
            "coef": {k: [float(c), float(e)] for k, c, e in zip(names, coef, se, strict=True)},
            "weights": {k: float(c) for k, c in zip(FEATURES, coef[:-1], strict=True)}}


# --- play ----------------------------------------------------------------------------------
#: The correction's weights by seat ("*": either), by feature (set by ``play --weights``
#: before the games fork).
WEIGHTS: dict[str, dict[str, float]] = {}
#: Moves corrected: those that start or end this near a known enemy (as search-move's).
REACH = 2


def weights(fitted: JSONDict, scale: float = 1.0, min_z: float = 0.0) -> dict[str, float]:
    """The correction a fit gives (``fit``'s output): each feature's coefficient times
    ``scale``, those within ``min_z`` standard errors of 0 left out."""
    return {k: c * scale for k, (c, se) in fitted["coef"].items()
            if k in FEATURES and abs(c) >= min_z * se}


class LearnedDoctrine(BocDoctrine):
    """The general's doctrine, its score of a move near the enemy plus the weighted
    ``features`` of the destination."""

    def _s_moves(self, sit: Situation, uid: str, here: str, moves: Sequence[Action]
                 ) -> list[float]:
        out = super()._s_moves(sit, uid, here, moves)
        mine = WEIGHTS.get(sit.seat, WEIGHTS.get("*"))
        if not mine:
            return out
        w = [mine.get(k, 0.0) for k in FEATURES]
        near_here = sit.nearest_enemy(here) <= REACH
        at = _phi(sit, uid, here, here)  # staying put: the same for every destination
        for i, a in enumerate(moves):
            dest = str(a["path"][-1])
            if near_here or sit.nearest_enemy(dest) <= REACH:
                out[i] += sum(c * f for c, f in zip(w, features(sit, uid, here, dest, at),
                                                    strict=True))
        return out


class LearnedGeneral(GeneralAgent):
    name = "general-learned"

    def __init__(self, seed: str = "0") -> None:
        super().__init__(seed)
        self.doctrine = LearnedDoctrine()

    def choose(self, view: JSONDict, legal_actions: Sequence[Action], budget_s: float,
               rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        view = self.memory.recall(view)
        return doctrine_choice(view, legal_actions, self.doctrine)


register_agent("general-learned", LearnedGeneral)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    lab = sub.add_parser("label")
    lab.add_argument("--games", type=int, default=10)
    lab.add_argument("--seed", type=int, default=31000)
    lab.add_argument("--share", type=float, default=0.3,
                     help="share of the general's near moves sampled")
    lab.add_argument("--rounds", type=int, default=8, help="sampled worlds a sample")
    lab.add_argument("--workers", type=int, default=2)
    lab.add_argument("--out", required=True)
    fi = sub.add_parser("fit")
    fi.add_argument("labels", nargs="+")
    fi.add_argument("--ridge", type=float, default=1.0)
    fi.add_argument("--limit", type=int, help="only the first LIMIT samples")
    fi.add_argument("--seat", choices=["usa", "csa"], help="only that seat's samples")
    fi.add_argument("--out")
    pl = sub.add_parser("play")
    pl.add_argument("--weights", nargs="+", required=True,
                    help="a fit's output for both seats (FILE), or for one (usa=FILE)")
    pl.add_argument("--scale", type=float, default=1.0, help="times the fitted weights")
    pl.add_argument("--min-z", type=float, default=0.0,
                    help="keep only the weights this many standard errors from 0")
    pl.add_argument("--games", type=int, default=50, help="games per seat")
    pl.add_argument("--seed", default="20000")
    pl.add_argument("--start", type=int, default=0)
    pl.add_argument("--seats", nargs="+", default=["usa", "csa"], choices=["usa", "csa"])
    pl.add_argument("--workers", type=int, default=2)
    pl.add_argument("--out")
    args = ap.parse_args(argv)
    if args.cmd == "label":
        label(args.games, args.seed, args.share, args.rounds, args.workers, args.out)
    elif args.cmd == "fit":
        got = fit(read_samples(args.labels, args.limit, args.seat), args.ridge)
        json.dump(got, sys.stdout, indent=1)
        print()
        if args.out:
            with open(args.out, "w", encoding="utf-8") as f:
                json.dump(got, f, indent=1, sort_keys=True)
    else:
        for item in args.weights:
            seat, _, path = item.rpartition("=")
            with open(path, encoding="utf-8") as f:
                WEIGHTS[seat or "*"] = weights(json.load(f), args.scale, args.min_z)
        print(json.dumps({"weights": WEIGHTS}), flush=True)
        play_against_general("general-learned", "boc/day1", args.games, args.seed, 0.0,
                             args.seats, args.workers, args.out, start=args.start)


if __name__ == "__main__":
    main()
