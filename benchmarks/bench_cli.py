"""How quickly the command line answers: ``gettysburg game legal FILE`` now and before the
issue 59 work, each in fresh processes, side by side in one run.

Run::

    .venv/bin/python benchmarks/bench_cli.py --scenario boc/day1 --repeat 7

Writes a save file of the scenario in a temporary folder, then times, in fresh
subprocesses, interleaved so that the machine's load falls on every row alike: the bare
interpreter; ``import gettysburg.cli`` (what every command pays); the save file loaded
and its legal actions listed without the command line (what ``game legal`` cannot
avoid); ``gettysburg game legal FILE`` itself. Each row is timed for the source tree as
it is (``now``) and for the tree of ``--before`` (default: the commit the issue 59 work
started from, unpacked with ``git archive`` and put first on ``PYTHONPATH``).

Two ways Python may start, both printed:

* ``bytecode``: the modules' compiled bytecode is kept (in a temporary
  ``PYTHONPYCACHEPREFIX``, filled by a first run), as in any installed copy;
* ``no bytecode``: every module compiled from source on every run, as in a checkout run
  with ``PYTHONDONTWRITEBYTECODE=1`` (this development machine's setting).

Data files are read through the data cache (``GETTYSBURG_CACHE`` set to a temporary
folder, filled by ``game new``; the ``before`` tree has no cache). Each row gives the
median and best wall-clock time and the median CPU time (user + system) of the child: on
a machine others are using, the CPU time is the steadier figure. The issue's goal for
``game legal`` is 0.3 s. For what each import costs: ``python -X importtime -c "import
gettysburg.cli"``.

What is left is mostly imports no command can skip: typer (about 0.05 s of CPU), and
pydantic (about 0.09 s), which typer itself (0.29) loads to convert any command's
parameters, so even a command with no pydantic model of its own pays for it; then the
save file and protocol (core) and the rule system's own modules.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import statistics
import subprocess
import sys
import tarfile
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
#: The commit the issue 59 command-line work started from.
BEFORE = "69ea48a"
GOAL = 0.30
ROOT = Path(__file__).resolve().parents[1]


def unpack(rev: str, into: Path) -> Path | None:
    """The ``src`` folder of commit ``rev``, unpacked under ``into`` (None if git cannot)."""
    done = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev, "src"],
                          capture_output=True)
    if done.returncode != 0:
        print(f"(no --before tree: git archive {rev}: {done.stderr.decode().strip()})")
        return None
    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def environment(src: Path | None, bytecode: Path | None, cache: Path) -> dict[str, str]:
    """The child's environment: which tree, whether bytecode is kept, the data cache."""
    env = dict(os.environ)
    env["GETTYSBURG_CACHE"] = str(cache)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src), *filter(None, [env.get("PYTHONPATH")])])
    if bytecode is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(bytecode)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    return env


def run(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one run of ``args`` (which must succeed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env, cwd=tempfile.gettempdir())
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--scenario", default="boc/day1")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--before", default=BEFORE,
                    help=f"the commit to compare with (default {BEFORE}); 'none' to skip")
    args = ap.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        trees: dict[str, Path | None] = {"now": None}
        if args.before != "none":
            old = unpack(args.before, folder / "before")
            if old is not None:
                trees["before"] = old
        rows: list[tuple[str, list[str], dict[str, str]]] = []
        plain = environment(None, None, folder / "cache")
        rows.append(("python -c pass", [py, "-c", "pass"], plain))
        for tree, src in trees.items():
            save = str(folder / f"{tree}.json")
            for mode in ("bytecode", "no bytecode"):
                pyc = folder / f"pyc-{tree}" if mode == "bytecode" else None
                env = environment(src, pyc, folder / "cache")
                # The save file (and, the first time, the bytecode and the data cache).
                subprocess.run([py, "-c", COMMAND, "game", "new", args.scenario, "--seed",
                                "1", "--out", save, "--force"], check=True,
                               capture_output=True, env=env)
                for label, command in (("import gettysburg.cli", [py, "-c",
                                                                  "import gettysburg.cli"]),
                                       ("load + legal, no CLI", [py, "-c", ENGINE, save]),
                                       ("gettysburg game legal", [py, "-c", COMMAND, "game",
                                                                  "legal", save])):
                    run(command, env)  # warm: bytecode written, files in the page cache
                    rows.append((f"{label:22} {tree:6} {mode:11}", command, env))
        times: dict[str, list[tuple[float, float]]] = {label: [] for label, _, _ in rows}
        for _ in range(args.repeat):
            for label, command, env in rows:  # interleaved: the load falls on every row
                times[label].append(run(command, env))
    print(f"{'':22} {'tree':6} {'python':11}  wall: median   best    CPU: median"
          f"   ({args.repeat} runs each, {args.scenario})")
    for label, got in times.items():
        walls, cpus = [w for w, _ in got], [c for _, c in got]
        print(f"{label:42}  {statistics.median(walls):7.2f} s {min(walls):5.2f} s"
              f"      {statistics.median(cpus):6.2f} s")
    print(f"goal for `game legal`: {GOAL:.2f} s")


if __name__ == "__main__":
    main()
