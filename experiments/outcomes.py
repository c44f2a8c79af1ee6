"""What a scenario's games say at scale: results, VP and losses, and how many games a
designer needs to see a change.

Reads rows of ``gettysburg simulate --out`` (one or more files) and prints, for each
scenario and pairing of agents:

* USA wins, draws, CSA wins, each with its Wilson 95% interval;
* the CSA total (9.1): mean ± sd, range and most common values, and its parts as the
  last verdict counts them (terrain, USA blocks lost, CSA blocks lost, including those a
  scenario lists as lost from its start);
* the shares after the first 60, 100, 250... games (by ``index``), to show how far a short
  run strays from a long one;
* how many games each way tell a change of the mean CSA total of 0.5 or 1 point from
  noise (two-sided 5%, power 80%, two independent runs of this spread);
* for a one-day scenario, the results had every CSA total been h points higher: the
  handicap that would even the decisive results between these agents::

    gettysburg simulate boc/day1 --games 2000 --usa general --csa general --seed 20000 \\
        --workers 2 --out experiments/results/thousands_s20_day1.jsonl
    .venv/bin/python experiments/outcomes.py experiments/results/thousands_s20_day1.jsonl
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections import Counter
from typing import Any

from gettysburg.boc.ai.doctrine import scenario_bands
from gettysburg.lab.report import groups
from gettysburg.lab.simulate import wilson
from gettysburg.lab.store import read_rows

Row = dict[str, Any]
#: z for a two-sided 5% test plus z for 80% power.
_Z = 1.96 + 0.84


def games_to_tell(sd: float, shift: float) -> int:
    """Games in each of two runs for a shift of the mean to stand out of their noise."""
    return math.ceil(2 * (_Z * sd / shift) ** 2)


def _share(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k} ({k / n:.1%}, {lo:.1%}-{hi:.1%})"


def describe(rows: list[Row]) -> list[str]:
    done = sorted((r for r in rows if r.get("finished")), key=lambda r: int(r["index"]))
    n = len(done)
    if not n:
        return ["no finished games"]
    wins = Counter(r.get("winner") for r in done)
    vps = [float(r["vp"]) for r in done]
    sd = statistics.stdev(vps) if n > 1 else 0.0
    last = [r["result"]["verdicts"][-1] for r in done]
    common = ", ".join(f"{v:g} ({c})" for v, c in Counter(vps).most_common(3))
    out = [
        f"games {n}: USA wins {_share(wins['usa'], n)}, draws {_share(wins[None], n)}, "
        f"CSA wins {_share(wins['csa'], n)}",
        f"CSA total {statistics.fmean(vps):.2f} ± {sd:.2f} (range {min(vps):g} to "
        f"{max(vps):g}; most common {common})",
        "parts of the total: terrain {:.2f}, USA blocks lost {:.2f}, CSA blocks lost {:.2f}"
        .format(*(statistics.fmean(float(v[k]) for v in last)
                  for k in ("terrain", "usa_losses", "csa_losses"))),
    ]
    steps = [m for m in (60, 100, 250, 500, 1000, 2000, 5000) if m < n] + [n]
    for m in steps:
        first = Counter(r.get("winner") for r in done[:m])
        out.append(f"  first {m:>5}: USA {first['usa'] / m:.1%}, draws {first[None] / m:.1%}, "
                   f"CSA {first['csa'] / m:.1%}, CSA total "
                   f"{statistics.fmean(vps[:m]):.2f}")
    out.append(f"games each way to tell a change of the mean of 0.5 point: "
               f"{games_to_tell(sd, 0.5)}; of 1 point: {games_to_tell(sd, 1.0)}")
    bands = _bands(str(done[0].get("scenario")))
    if bands is not None:
        usa_max, csa_min = bands
        out.append(f"with h points added to every CSA total (USA wins at {usa_max} or less, "
                   f"CSA at {csa_min} or more):")
        for h in range(-2, 3):
            usa = sum(1 for v in vps if v + h <= usa_max) / n
            csa = sum(1 for v in vps if v + h >= csa_min) / n
            out.append(f"  h {h:+d}: USA {usa:.1%}, draws {1 - usa - csa:.1%}, CSA {csa:.1%}")
    return out


def _bands(scenario: str) -> tuple[int, int] | None:
    """A one-day BoC scenario's bands (9.1-9.3, ``scenario_bands``); None for others
    (the battle is judged after each day, 9.5)."""
    if scenario == "boc/battle" or not scenario.startswith("boc/"):
        return None
    return scenario_bands(scenario)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    rows = [r for path in args.files for r in read_rows(path)]
    # Grouped as the report groups them: runs with other options or dice stay apart.
    for name, group in groups(rows).items():
        print(name)
        for line in describe(group):
            print(f"  {line}")


if __name__ == "__main__":
    main()
