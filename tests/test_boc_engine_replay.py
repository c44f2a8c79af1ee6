"""Regression check: recorded BoC games replay to the same state hashes.

Three games were played by a seeded random chooser (a Day 1 game with the column/line
and hidden hits options, a Day 2 game with free deployment and Hancock, a Day 3 game with
the cavalry battles) and their actions, seats and state hashes stored in
``data/boc_engine_replay.json``. Between them they use every action type but ``hancock``
and ``melee_line`` (tested on set positions in test_boc_engine_command.py and
test_boc_melee.py). A change to how actions are dispatched, listed or carried out that
alters any rule outcome, die roll or the order of the legal actions shows up here.

The hashes are not worked out from the rules: they are what the engine produced when
recorded, a regression check only. Re-record them
(``python tests/test_boc_engine_replay.py --record``)
only for a rule change meant to alter play, and say so in the commit.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from gettysburg.boc.game import ACTION_ORDER
from gettysburg.core.protocol import Game, new_game

FIXTURE = Path(__file__).parent / "data" / "boc_engine_replay.json"
#: (scenario, options, seed) of each recorded game.
GAMES = [("boc/day1", ["column_line", "hidden_hits"], 1),
         ("boc/day2", ["free_deployment", "hancock", "hidden_hits"], 5),
         ("boc/day3", ["cavalry_battles"], 3)]
CHECK_EVERY = 50  # a hash every so many actions, so a difference is found near its cause
LIMIT = 3000


def play_seeded(scenario: str, options: list[str], seed: int) -> tuple[Game, list[Any]]:
    """A whole game by the seeded chooser: combat weighted up, ending a phase weighted by
    how many other choices there are (so phases are neither skipped nor endless)."""
    game = new_game(scenario, seed=seed, options=options)
    rng = random.Random(seed)
    moves: list[Any] = []
    for _ in range(LIMIT):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        weights = [20 if a["type"] in ("fire", "melee") else
                   max(1, len(legal) // 6) if a["type"] == "end_phase" else 1 for a in legal]
        action = rng.choices(legal, weights)[0]
        game.apply(action, seat)
        moves.append([seat, action])
    return game, moves


def record() -> dict[str, Any]:
    games = []
    for scenario, options, seed in GAMES:
        game, moves = play_seeded(scenario, options, seed)
        replay = new_game(scenario, seed=seed, options=options)
        hashes = {}
        for k, (seat, action) in enumerate(moves):
            replay.apply(action, seat)
            if (k + 1) % CHECK_EVERY == 0:
                hashes[str(k + 1)] = replay.state_hash()
        games.append({"scenario": scenario, "options": options, "seed": seed,
                      "moves": moves, "hashes": hashes, "final_hash": game.state_hash(),
                      "result": game.result()})
    return {"games": games}


def _recorded() -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))["games"]
    return games


@pytest.mark.parametrize("k", range(len(GAMES)), ids=[g[0] for g in GAMES])
def test_recorded_game_replays_to_the_recorded_hashes(k: int) -> None:
    rec = _recorded()[k]
    assert (rec["scenario"], rec["options"], rec["seed"]) == GAMES[k]
    game = new_game(rec["scenario"], seed=rec["seed"], options=rec["options"])
    for n, (seat, action) in enumerate(rec["moves"], start=1):
        assert game.to_move() == [seat], f"action {n}: {game.to_move()} to move, not {seat}"
        game.apply(action, seat)
        want = rec["hashes"].get(str(n))
        assert want is None or game.state_hash() == want, f"state differs after action {n}"
    assert game.is_terminal()
    assert game.state_hash() == rec["final_hash"]
    assert game.result() == rec["result"]


@pytest.mark.parametrize("k", range(len(GAMES)), ids=[g[0] for g in GAMES])
def test_the_seeded_chooser_still_picks_the_recorded_actions(k: int) -> None:
    """The legal actions are listed in the same order as when recorded (the chooser
    indexes into the list), so the same seed picks the same game."""
    rec = _recorded()[k]
    game, moves = play_seeded(*GAMES[k])
    assert moves == rec["moves"]
    assert game.state_hash() == rec["final_hash"]


def test_the_recorded_games_use_every_action_type_but_two() -> None:
    used = {a["type"] for rec in _recorded() for _, a in rec["moves"]}
    assert used == set(ACTION_ORDER) - {"hancock", "melee_line"}


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/test_boc_engine_replay.py --record (rewrites the fixture)")
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps(record(), separators=(",", ":")) + "\n", encoding="utf-8")
