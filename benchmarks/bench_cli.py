"""How quickly the command line answers: ``gettysburg game legal FILE`` beside
``python -c pass``, each in a fresh process.

Run::

    .venv/bin/python benchmarks/bench_cli.py --scenario boc/day1 --repeat 7

Writes a save file of the scenario in a temporary folder, then times, in fresh
subprocesses (the best and the median of ``--repeat`` runs each): the bare interpreter,
``import gettysburg.cli`` (what every command pays), the same save file loaded and its
legal actions listed without the command line (what ``game legal`` cannot avoid), and
``gettysburg game legal FILE`` itself. The issue's goal for ``game legal`` is 0.3 s. For
what each import costs: ``python -X importtime -c "import gettysburg.cli"``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The command as the ``gettysburg`` script runs it (sys.argv[0] names the program).
COMMAND = "import sys; sys.argv[0] = 'gettysburg'; from gettysburg.cli import app; app()"
ENGINE = ("import sys, contextlib; from pathlib import Path; "
          "from gettysburg.core import savefile; p = Path(sys.argv[1]); "
          "m = savefile.load(p); cd = contextlib.chdir(str(p.resolve().parent)); "
          "cd.__enter__(); g = savefile.replay(m, verify=True); "
          "print(len(g.legal_actions(g.to_move()[0])))")


def timed(args: list[str], repeat: int) -> tuple[float, float]:
    """Best and median seconds of ``repeat`` runs of ``args`` (each must succeed)."""
    seconds = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
        seconds.append(time.perf_counter() - start)
    return min(seconds), statistics.median(seconds)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--scenario", default="boc/day1")
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as folder:
        save = str(Path(folder) / "game.json")
        subprocess.run([py, "-c", COMMAND, "game", "new", args.scenario, "--seed", "1",
                        "--out", save], check=True, capture_output=True)
        rows = [
            ("python -c pass", [py, "-c", "pass"]),
            ("import gettysburg.cli", [py, "-c", "import gettysburg.cli"]),
            ("load + legal, no CLI", [py, "-c", ENGINE, save]),
            ("gettysburg game legal", [py, "-c", COMMAND, "game", "legal", save]),
        ]
        for label, command in rows:
            best, median = timed(command, args.repeat)
            print(f"{label:>22}: best {best:5.2f} s, median {median:5.2f} s "
                  f"({args.repeat} runs, {args.scenario})")
    print("goal for `game legal`: 0.30 s")


if __name__ == "__main__":
    main()
