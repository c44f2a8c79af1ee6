"""Replay check of a lab game (issue 54: "every scenario plays to its end between random
agents, reproducibly from a seed, with replay verified").

For one game of a ``gettysburg simulate`` run (scenario, base seed, game index, agents):

1. plays it again through the lab's own ``play_game``, but *recorded* (``Game.apply``: every
   action checked, its dice and state hash kept), and compares the row with the stored one
   (``--rows``): same actions, turns, result and losses, so the seed alone reproduces the game
   the unrecorded run played;
2. writes the game as a save file (``--save``; the format of ``gettysburg game new/apply``)
   and replays it with ``savefile.replay(verify=True)`` (what ``gettysburg game replay``
   runs): every action applied again from the set-up, every die re-derived from the seed
   and every state hash and link compared; the final hash must be the played game's.

Prints one JSON line (and appends it to ``--out``). Exit status 1 when anything differs.
With ``--append-row`` the recorded game's row is also appended to a run's JSON Lines when it
holds no row of that game yet: the row ``gettysburg simulate`` writes for the same command
(same spec key, so ``simulate --resume`` counts the game as played), at the price of one
game played instead of two when a game lasts an hour.

    .venv/bin/python experiments/gbacw_replay_check.py gbacw/first-day --seed 54 --index 0 \\
        --rows experiments/results/gbacw/first-day_rr_s54.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from gettysburg.core import savefile
from gettysburg.core.protocol import Game
from gettysburg.lab import checkpoint, simulate

# What a stored row and the recorded replay must share (seconds and agent stats differ).
SAME = ("actions", "finished", "winner", "vp", "result", "eliminated", "turns", "played",
        "error")


def play_recorded(spec: simulate.GameSpec) -> tuple[dict[str, Any], Game]:
    """The lab's row of ``spec`` played through ``Game.apply``, and the game at its end."""
    kept: list[checkpoint.InPlay] = []
    new_play = simulate._new_play

    def keep(spec: simulate.GameSpec) -> checkpoint.InPlay:
        state = new_play(spec)
        kept.append(state)
        return state

    simulate._new_play = keep  # the lab's loop as it is; only its game is kept
    try:
        row = simulate.play_game(spec, recorded=True)
    finally:
        simulate._new_play = new_play
    return dict(row), kept[0].game


def stored_row(rows: Path, spec: simulate.GameSpec) -> dict[str, Any] | None:
    for line in rows.read_text("utf-8").splitlines():
        row = json.loads(line)
        if row.get("seed") == spec.seed and row.get("index") == spec.index \
                and row.get("agents") == spec.agents:
            return dict(row)
    return None


def check(spec: simulate.GameSpec, rows: Path | None, save: Path,
          append_row: Path | None = None) -> dict[str, Any]:
    t0 = time.perf_counter()
    row, game = play_recorded(spec)
    if append_row is not None and (not append_row.exists()
                                   or stored_row(append_row, spec) is None):
        with append_row.open("a", encoding="utf-8") as f:
            f.write(json.dumps(row, sort_keys=True, separators=(",", ":")) + "\n")
    played_s = time.perf_counter() - t0
    out: dict[str, Any] = {
        "scenario": spec.scenario, "seed": spec.seed, "index": spec.index,
        "agents": spec.agents, "actions": row["actions"], "finished": row["finished"],
        "winner": row["winner"], "error": row["error"], "final_hash": game.state_hash(),
        "moves_recorded": len(game.history), "play_s": round(played_s, 1)}
    problems: list[str] = []
    if row["error"] is not None:
        problems.append(f"the recorded game stopped on an error: {row['error']}")
    if len(game.history) != row["actions"]:
        problems.append(f"{len(game.history)} moves in the history, {row['actions']} played")
    if rows is not None:
        old = stored_row(rows, spec)
        if old is None:
            problems.append(f"no row of game {spec.index} (seed {spec.seed}) in {rows}")
        else:
            problems += [f"{k}: stored {old.get(k)!r}, replayed {row.get(k)!r}"
                         for k in SAME if old.get(k) != row.get(k)]
        out["row_compared"] = old is not None
    savefile.write(savefile.save(game), save)
    t1 = time.perf_counter()
    try:
        again = savefile.replay(savefile.load(save), verify=True)
    except savefile.ReplayError as exc:
        problems.append(f"replay refused: {exc}")
    else:
        out["replayed_hash"] = again.state_hash()
        if again.state_hash() != game.state_hash():
            problems.append("the replayed game's final hash differs")
        if again.is_terminal() != game.is_terminal():
            problems.append("the replayed game's end differs")
    out["replay_s"] = round(time.perf_counter() - t1, 1)
    out["save"] = str(save)
    out["problems"] = problems
    out["verified"] = not problems
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenario", help="SYSTEM/SCENARIO, e.g. gbacw/first-day")
    ap.add_argument("--seed", default="54", help="the run's base seed (simulate --seed)")
    ap.add_argument("--index", type=int, default=0, help="the game's index in the run")
    ap.add_argument("--usa", default="random")
    ap.add_argument("--csa", default="random")
    ap.add_argument("--max-actions", type=int, default=60000)
    ap.add_argument("--budget", type=float, default=1.0)
    ap.add_argument("--rows", type=Path, help="the run's JSON Lines, to compare the row")
    ap.add_argument("--save", type=Path, help="where to write the save (default: a temp file)")
    ap.add_argument("--out", type=Path, help="append the check's JSON line here")
    ap.add_argument("--append-row", type=Path,
                    help="append the game's lab row to this run's JSON Lines if missing")
    args = ap.parse_args(argv)
    agents = {"usa": args.usa, "csa": args.csa}
    spec = simulate.make_specs(args.scenario, args.index + 1, agents, args.seed,
                               args.max_actions, args.budget)[args.index]
    save = args.save or Path(tempfile.mkdtemp(prefix="gbacw_replay_")) / "game.json"
    result = check(spec, args.rows, save, args.append_row)
    line = json.dumps(result, sort_keys=True)
    print(line)
    if args.out is not None:
        with args.out.open("a", encoding="utf-8") as f:
            f.write(line + "\n")
    return 0 if result["verified"] else 1


if __name__ == "__main__":
    sys.exit(main())
