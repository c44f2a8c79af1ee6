"""Turn stored game rows into plots and a short Markdown summary.

Groups are (scenario, USA agent, CSA agent) for BoC rows, or (scenario, agents) in
general. Plots: VP distribution per scenario, win rates with Wilson 95% intervals, losses
by corps (BoC order of battle), and the VP total over the game when recorded.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt

from gettysburg.lab.simulate import Row, summarise, wilson


def group_key(row: Row) -> str:
    agents = row.get("agents") or {}
    names = " vs ".join(f"{seat}={name}" for seat, name in sorted(agents.items(),
                                                                   key=lambda t: t[0] != "usa"))
    return f"{row.get('scenario')}: {names}"


def groups(rows: Sequence[Row]) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        out[group_key(r)].append(r)
    return dict(sorted(out.items()))


def corps_of(unit_id: str) -> str:
    """The corps of a BoC block (public order of battle); other ids give their prefix."""
    try:
        from gettysburg.boc.oob import default_oob

        oob = default_oob()
        if unit_id in oob:
            u = oob[unit_id]
            return f"{u.side} {u.corps}"
    except ImportError:
        pass
    return unit_id.split("-")[0]


def _save(fig: Any, path: Path) -> str:
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path.name


def plot_vp(rows: Sequence[Row], out: Path) -> str | None:
    by_sc: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        if r.get("finished") and isinstance(r.get("vp"), int | float):
            by_sc[str(r["scenario"])].append(float(r["vp"]))
    if not by_sc:
        return None
    fig, axes = plt.subplots(1, len(by_sc), figsize=(4 * len(by_sc), 3), squeeze=False)
    for ax, (sc, vps) in zip(axes[0], sorted(by_sc.items()), strict=True):
        lo, hi = int(min(vps)), int(max(vps))
        ax.hist(vps, bins=range(lo, hi + 2), align="left", color="#55708f")
        ax.set_title(f"{sc} (n={len(vps)})")
        ax.set_xlabel("CSA victory points")
    return _save(fig, out / "vp_distribution.png")


def plot_wins(rows: Sequence[Row], out: Path) -> str | None:
    gs = groups(rows)
    if not gs:
        return None
    fig, ax = plt.subplots(figsize=(8, 0.9 * len(gs) + 1.5))
    labels, y = [], 0.0
    for name, rs in gs.items():
        s = summarise(rs)
        n = s["games"]
        for k, (seat, color) in enumerate((("usa", "#2b4c9b"), ("csa", "#9b2b2b"),
                                           ("draw", "#888888"))):
            wins = s["draws"] if seat == "draw" else s["wins"].get(seat, 0)
            p = wins / n if n else 0.0
            lo, hi = wilson(wins, n)
            ax.barh(y + k * 0.25, p, height=0.22, color=color,
                    xerr=[[p - lo], [hi - p]], capsize=3, label=seat if y == 0 else None)
        labels.append((y + 0.25, f"{name} (n={n})"))
        y += 1.0
    ax.set_yticks([t[0] for t in labels], [t[1] for t in labels], fontsize=7)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games (Wilson 95% interval)")
    ax.legend(loc="lower right", fontsize=7)
    return _save(fig, out / "win_rates.png")


def losses_by_corps(rows: Sequence[Row]) -> dict[str, float]:
    """Blocks a game lost per corps, a game on average; blocks the scenario started
    without (``eliminated_at_start``; older rows have none) are not the game's losses."""
    counts: Counter[str] = Counter()
    for r in rows:
        before = r.get("eliminated_at_start") or {}
        for side, ids in (r.get("eliminated") or {}).items():
            gone = set(before.get(side, ()))
            counts.update(corps_of(uid) for uid in ids if uid not in gone)
    return {name: counts[name] / max(1, len(rows)) for name in sorted(counts)}


def plot_losses(rows: Sequence[Row], out: Path) -> str | None:
    per_game = losses_by_corps(rows)
    if not per_game:
        return None
    names = list(per_game)
    fig, ax = plt.subplots(figsize=(8, 0.3 * len(names) + 1))
    ax.barh(names, list(per_game.values()), color="#6b8e23")
    ax.set_xlabel("blocks eliminated per game")
    ax.tick_params(axis="y", labelsize=7)
    return _save(fig, out / "losses_by_corps.png")


def plot_vp_track(rows: Sequence[Row], out: Path) -> str | None:
    tracks: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    order: dict[str, list[str]] = defaultdict(list)
    for r in rows:
        key = group_key(r)
        for label, total in r.get("vp_track") or []:
            tracks[key][str(label)].append(float(total))
            if str(label) not in order[key]:
                order[key].append(str(label))
    if not tracks:
        return None
    fig, ax = plt.subplots(figsize=(9, 4))
    for key in sorted(tracks):
        labels = order[key]
        ax.plot(range(len(labels)), [statistics.fmean(tracks[key][lb]) for lb in labels],
                marker=".", label=key)
    ax.set_xlabel("turn (in play order)")
    ax.set_ylabel("mean CSA total")
    ax.legend(fontsize=6)
    return _save(fig, out / "vp_over_time.png")


def markdown(rows: Sequence[Row], images: Sequence[str]) -> str:
    lines = ["# Simulation report", "", f"{len(rows)} games.", "",
             "| group | games | USA wins (95% CI) | CSA wins (95% CI) | draws | unfinished "
             "| VP mean ± sd | s/game |", "|---|---|---|---|---|---|---|---|"]
    for name, rs in groups(rows).items():
        s = summarise(rs)
        n = s["games"]

        def cell(k: int, n: int = n) -> str:
            lo, hi = wilson(k, n)
            return f"{k} ({lo:.0%}-{hi:.0%})"

        vp = "-" if s["vp_mean"] is None else f"{s['vp_mean']:.2f} ± {s['vp_stdev']:.2f}"
        lines.append(f"| {name} | {n} | {cell(s['usa_wins'])} | {cell(s['csa_wins'])} | "
                     f"{s['draws']} | {s['unfinished']} | {vp} | {s['seconds_per_game']:.1f} |")
    lines.append("")
    lines += [f"![{img}]({img})" for img in images]
    return "\n".join(lines) + "\n"


#: The fields every row of ``gettysburg simulate`` has that the report reads.
GAME_FIELDS = ("scenario", "agents", "finished", "vp", "seconds")


def row_problem(rows: Sequence[Row]) -> str | None:
    """Why ``rows`` cannot be reported (the first row that is no game row of
    ``gettysburg simulate``, and the fields it lacks), or ``None``."""
    if not rows:
        return "no games in the file"
    for k, row in enumerate(rows, 1):
        missing = [f for f in GAME_FIELDS if f not in row]
        if missing:
            return (f"row {k} is not a game row of gettysburg simulate: it has no "
                    f"{', '.join(repr(f) for f in missing)}")
    return None


def write_report(rows: Sequence[Row], out_dir: str | Path) -> list[Path]:
    """Write the plots and ``summary.md`` into ``out_dir``; returns the files written."""
    problem = row_problem(rows)
    if problem is not None:
        raise ValueError(problem)
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {out} is a file, not a folder")
    out.mkdir(parents=True, exist_ok=True)
    images = [name for name in (plot_vp(rows, out), plot_wins(rows, out),
                                plot_losses(rows, out), plot_vp_track(rows, out)) if name]
    (out / "summary.md").write_text(markdown(rows, images), encoding="utf-8")
    return [out / name for name in images] + [out / "summary.md"]
