"""Turn stored game rows into plots and a short Markdown summary.

A group is the games of one command: the same scenario, options, dice (and budget and
action limit when not the defaults) and the same agent on each seat. Runs of one scenario
with and without an option are kept apart (docs/balance.md stores them in one file).
Plots: the score distribution per scenario (one group's games stacked by result, so the
bands of victory show; several groups as an outline each), win rates with Wilson 95%
intervals, losses by formation per group, and the running score over the game per
scenario when recorded.

Everything a plot says of a rule system comes from its declaration in the registry: the
seats' titles, and through its lab hooks (:class:`~gettysburg.core.system.LabHooks`) what
its score is called and which formation a lost piece belonged to. A row's ``vp`` is the
system's score of the game, ``vp_track`` its running score, ``eliminated`` its losses.
"""

from __future__ import annotations

import math
import statistics
import textwrap
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import fields
from functools import lru_cache
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt
from matplotlib.patches import Rectangle
from matplotlib.ticker import MaxNLocator

from gettysburg import systems as registry
from gettysburg.core.protocol import setup_seats
from gettysburg.lab.simulate import GameSpec, Row, lab_hooks, summarise, system_of, wilson

#: ``simulate``'s defaults: a setting at its default is left out of a group's name.
_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(GameSpec)}
#: Integer VP bins up to this spread; beyond it (a damaged or foreign file) a fixed
#: number of bins, so one stray value cannot ask for 100,000 of them.
_MAX_INT_BINS = 100


def settings(row: Row) -> list[str]:
    """What the command of ``row`` set beyond scenario and agents: its options, dice
    other than seeded, a budget or action limit other than the default."""
    out = [str(o) for o in row.get("options") or []]
    if row.get("dice", "seeded") != "seeded":  # rows before session 13 have no dice
        out.append(f"dice {row['dice']}")
    budget = row.get("budget_s")
    if budget is not None and budget != _DEFAULTS["budget_s"]:
        out.append(f"budget {budget:g} s")
    limit = row.get("max_actions")
    if limit is not None and limit != _DEFAULTS["max_actions"]:
        out.append(f"max {limit} actions")
    return out


def _system(scenario: str) -> str:
    try:
        return system_of(scenario)
    except ValueError:  # not SYSTEM/SCENARIO: no system to ask
        return ""


@lru_cache(maxsize=64)
def _system_seats(scenario: str, options: tuple[str, ...]) -> tuple[str, ...]:
    """The seats of a set-up in play order: its system's declared seats, or those of the
    set-up built here for a system the registry lacks; ``()`` when neither can be had (a
    system not installed)."""
    declared = registry.find(_system(scenario))
    if declared is not None:
        return tuple(declared.seats)
    try:
        return tuple(setup_seats(scenario, options))
    except Exception:  # any failure only loses the play order
        return ()


def seat_title(scenario: str, seat: str) -> str:
    """A seat as its system names it for people (the toy's "red": "Red")."""
    declared = registry.find(_system(scenario))
    return declared.seat_title(seat) if declared is not None else seat


def seat_order(row: Row) -> tuple[str, ...]:
    """The seats of ``row``'s agents, first seat first (stored rows sort their keys, so
    the toy's red/blue would otherwise read blue first). The set-up is built once per
    scenario and options (cached), for any system alike."""
    seats = [str(s) for s in row.get("agents") or {}]
    known = _system_seats(str(row.get("scenario")),
                          tuple(str(o) for o in row.get("options") or []))
    first = [s for s in known if s in seats]
    return tuple(first + sorted(s for s in seats if s not in first))


def group_key(row: Row) -> str:
    agents = row.get("agents") or {}
    names = " vs ".join(f"{seat}={agents[seat]}" for seat in seat_order(row))
    extra = settings(row)
    return f"{row.get('scenario')}{' [' + ', '.join(extra) + ']' if extra else ''}: {names}"


def groups(rows: Sequence[Row]) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        out[group_key(r)].append(r)
    return dict(sorted(out.items()))


def _seats(rows: Sequence[Row]) -> tuple[str, ...]:
    """The seats of a group's games, first seat first (a group has one set of agents)."""
    return seat_order(rows[0]) if rows else ()


def _in_scenario(key: str, scenario: str) -> str:
    """A group's name inside its scenario's panel: without the scenario."""
    return key.removeprefix(scenario).lstrip(": ") or key


def _colors(n: int) -> list[Any]:
    cmap = plt.get_cmap("tab10" if n <= 10 else "tab20")
    return [cmap(i % cmap.N) for i in range(n)]


def formation_of(scenario: str, piece: str) -> str:
    """The formation of a piece of ``scenario``'s system, as its lab hooks tell (a corps,
    say); a system that tells none gives the id's prefix."""
    formation = lab_hooks(scenario).formation if _system(scenario) else None
    return formation(piece) if formation is not None else piece.split("-")[0]


def _score_label(scenario: str) -> str:
    return lab_hooks(scenario).score_label if _system(scenario) else "score"


def _save(fig: Any, path: Path) -> str:
    # Figures are made with the constrained layout, which leaves room for legends placed
    # outside the axes; "tight" trims what is left around them.
    fig.savefig(path, dpi=100, bbox_inches="tight")
    plt.close(fig)
    return path.name


def _vp_bins(vps: Sequence[float]) -> range | int:
    lo, hi = math.floor(min(vps)), math.ceil(max(vps))
    return range(lo, hi + 2) if hi - lo <= _MAX_INT_BINS else 50


#: Colours of the results in the win-rate and score plots: the first seat's wins, the
#: second's, then any further seat's (as :func:`_seat_color` picks), and draws.
_RESULT_COLORS = ("#2b4c9b", "#9b2b2b", "#888888")
_MORE_SEAT_COLORS = ("#2b8c4b", "#9b7b2b", "#6b2b9b", "#2b8b9b")


def _seat_color(k: int) -> str:
    """The colour of the ``k``-th seat's wins (the draws keep their grey)."""
    return _RESULT_COLORS[k] if k < 2 else _MORE_SEAT_COLORS[(k - 2) % len(_MORE_SEAT_COLORS)]


def _finished_vp(r: Row) -> bool:
    return bool(r.get("finished")) and isinstance(r.get("vp"), int | float)


def vp_by_result(rows: Sequence[Row]) -> dict[str, list[float]]:
    """The finished games' score split by result, in the win-rate plot's order: each
    seat's wins in play order, then the draws (keys ``"<seat> wins"`` and ``"draws"``).
    Where a scenario's bands of victory lie is then read off the plot itself, from the
    games, for any rule system."""
    out: dict[str, list[float]] = {f"{seat} wins": [] for seat in _seats(rows)}
    out["draws"] = []
    for r in rows:
        if not _finished_vp(r):
            continue
        winner = r.get("winner")
        key = "draws" if winner is None else f"{winner} wins"
        out.setdefault(key, []).append(float(r["vp"]))
    return out


def _result_colors(split: Mapping[str, Sequence[float]]) -> list[str]:
    """The colour of each result of :func:`vp_by_result`: seats by place, draws grey."""
    seats = [k for k in split if k != "draws"]
    return [_RESULT_COLORS[2] if k == "draws" else _seat_color(seats.index(k)) for k in split]


def plot_vp(rows: Sequence[Row], out: Path) -> str | None:
    """A panel per scenario. One group: its games stacked by result (the colours of the
    win-rate plot), so the bands of victory show. Several groups in one scenario: outlines
    over one another, each named."""
    by_sc: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    grouped = groups(rows)
    for key, rs in grouped.items():
        for r in rs:
            if _finished_vp(r):
                by_sc[str(r["scenario"])][key].append(float(r["vp"]))
    if not by_sc:
        return None
    # Room under the panels for the longest legend (a line a group).
    legend_lines = max(len(g) for g in by_sc.values()) if any(
        len(g) > 1 for g in by_sc.values()) else 0
    fig, axes = plt.subplots(1, len(by_sc), figsize=(4.5 * len(by_sc), 3 + 0.14 * legend_lines),
                             squeeze=False, layout="constrained")
    for ax, (sc, by_group) in zip(axes[0], sorted(by_sc.items()), strict=True):
        names, data = list(by_group), list(by_group.values())
        every = [v for vps in data for v in vps]
        bins = _vp_bins(every)
        align = "left" if isinstance(bins, range) else "mid"  # integer bins: centred on the value
        if len(data) == 1:
            split = vp_by_result(grouped[names[0]])
            colors = [c for c, v in zip(_result_colors(split), split.values(), strict=True)
                      if v]
            shown = {k: v for k, v in split.items() if v}
            ax.hist(list(shown.values()), bins=bins, align=align, stacked=True, color=colors,
                    label=[f"{k} ({len(v)})" for k, v in shown.items()])
            ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1))
        else:
            # Outlines over one another, not stacked: each group's shape can be compared.
            ax.hist(data, bins=bins, align=align, histtype="step", linewidth=1.5,
                    color=_colors(len(data)),
                    label=[f"{_in_scenario(n, sc)} (n={len(d)})" for n, d in by_group.items()])
            # Below the axis label, outside the bars; hist lists its data sets last
            # first, the summary table's order is first first.
            handles, labels = ax.get_legend_handles_labels()
            ax.legend(handles[::-1], labels[::-1], fontsize=6, loc="upper center",
                      bbox_to_anchor=(0.5, -0.25))
        title = f"{sc} (n={len(every)})" if len(data) > 1 else f"{names[0]} (n={len(every)})"
        ax.set_title(textwrap.fill(title, 45), fontsize=8)
        ax.set_xlabel(f"{_score_label(sc)} (finished games)")
        ax.set_ylabel("games")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if min(every) == max(every):  # one value: whole numbers around it, not 49.65
            ax.set_xlim(min(every) - 2, max(every) + 2)
    return _save(fig, out / "vp_distribution.png")


def plot_wins(rows: Sequence[Row], out: Path) -> str | None:
    """A bar per seat's wins and one for the draws, per group, with Wilson intervals."""
    gs = groups(rows)
    if not gs:
        return None
    places = max(len(_seats(rs)) for rs in gs.values())
    step = 0.75 / (places + 1)
    fig, ax = plt.subplots(figsize=(8, 0.3 * (places + 1) * len(gs) + 1.5),
                           layout="constrained")
    seat_names: list[set[str]] = [set() for _ in range(places)]  # what each colour stands for
    labels, y = [], 0.0
    for name, rs in gs.items():
        seats = _seats(rs)
        s = summarise(rs, seats)
        n = s["games"]
        counts = [s["wins"].get(seat, 0) for seat in seats] + [0] * (places - len(seats))
        for k, seat in enumerate(seats):
            seat_names[k].add(seat_title(str(rs[0].get("scenario")), seat))
        colors = [_seat_color(k) for k in range(places)] + [_RESULT_COLORS[2]]
        for k, (count, color) in enumerate(zip([*counts, s["draws"]], colors, strict=True)):
            p = count / n if n else 0.0
            lo, hi = wilson(count, n)
            ax.barh(y + k * step, p, height=step * 0.9, color=color,
                    xerr=[[p - lo], [hi - p]], capsize=3)
        labels.append((y + step * places / 2, f"{name} (n={n})"))
        y += 1.0
    ax.set_yticks([t[0] for t in labels], [t[1] for t in labels], fontsize=7)
    ax.invert_yaxis()  # groups top to bottom in the summary table's order
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games (Wilson 95% interval)")
    handles = [Rectangle((0, 0), 1, 1, color=c)
               for c in [_seat_color(k) for k in range(places)] + [_RESULT_COLORS[2]]]
    names = ["/".join(sorted(n for n in titles if n)) or "-" for titles in seat_names]
    ax.legend(handles, [f"{n} wins" for n in names] + ["draws"], fontsize=7,
              loc="upper left", bbox_to_anchor=(1.01, 1))
    return _save(fig, out / "win_rates.png")


def losses_by_formation(rows: Sequence[Row]) -> dict[str, float]:
    """Pieces a game lost per formation, a game on average; pieces the scenario started
    without (``eliminated_at_start``; older rows have none) are not the game's losses."""
    counts: Counter[str] = Counter()
    for r in rows:
        before = r.get("eliminated_at_start") or {}
        scenario = str(r.get("scenario"))
        for seat, ids in (r.get("eliminated") or {}).items():
            gone = set(before.get(seat, ()))
            counts.update(formation_of(scenario, piece) for piece in ids if piece not in gone)
    return {name: counts[name] / max(1, len(rows)) for name in sorted(counts)}


def losses_by_group(rows: Sequence[Row]) -> dict[str, dict[str, float]]:
    """:func:`losses_by_formation` for each group that lost any piece, over that group's
    own games (other scenarios, pairings, or systems that report no losses do not dilute
    it)."""
    out = {key: losses_by_formation(rs) for key, rs in groups(rows).items()}
    return {key: per for key, per in out.items() if per}


def _losses_label(rows: Sequence[Row], keys: Sequence[str]) -> str:
    """What the losses plot counts, as the systems of its groups name it (one name when
    they agree, the generic one when they do not)."""
    grouped = groups(rows)
    named = {lab_hooks(str(grouped[k][0].get("scenario"))).losses_label
             if _system(str(grouped[k][0].get("scenario"))) else "" for k in keys}
    return named.pop() if len(named) == 1 and "" not in named else \
        "pieces lost per game, by formation"


def plot_losses(rows: Sequence[Row], out: Path) -> str | None:
    """One group: a bar per formation. Several: a shaded table, a row per group (their
    long names read across) and a column per formation."""
    table = losses_by_group(rows)
    if not table:
        return None
    what = _losses_label(rows, list(table))
    title = f"{what}\n(not those a scenario starts without)"
    if len(table) == 1:
        [(key, per_game)] = table.items()
        names = list(per_game)
        fig, ax = plt.subplots(figsize=(8, 0.3 * len(names) + 1.5), layout="constrained")
        ax.barh(names, list(per_game.values()), color="#6b8e23")
        ax.invert_yaxis()
        ax.set_xlabel(what.split(",")[0])
        ax.set_title(textwrap.fill(f"{key}: {title}", 90), fontsize=8)
        ax.tick_params(axis="y", labelsize=7)
        return _save(fig, out / "losses_by_corps.png")
    formations = sorted({c for per in table.values() for c in per})
    keys, games = list(table), {k: len(rs) for k, rs in groups(rows).items()}
    values = [[table[k].get(c, 0.0) for c in formations] for k in keys]
    fig, ax = plt.subplots(figsize=(5 + 0.55 * len(formations), 0.3 * len(keys) + 2),
                           layout="constrained")
    image = ax.imshow(values, cmap="Oranges", aspect="auto")
    top = max(max(row) for row in values) or 1.0
    for i, row in enumerate(values):
        for j, v in enumerate(row):
            ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=6,
                    color="white" if v > 0.6 * top else "black")
    ax.set_yticks(range(len(keys)), [f"{k} (n={games[k]})" for k in keys], fontsize=6)
    ax.set_xticks(range(len(formations)), formations, fontsize=7, rotation=45, ha="right",
                  rotation_mode="anchor")
    ax.set_title(title, fontsize=8)
    fig.colorbar(image, ax=ax, label=what.split(",")[0])
    return _save(fig, out / "losses_by_corps.png")


def plot_vp_track(rows: Sequence[Row], out: Path) -> str | None:
    """A panel per scenario (its turns on the x axis), a line per group."""
    tracks: dict[str, dict[str, dict[str, list[float]]]] = defaultdict(dict)
    for key, rs in groups(rows).items():
        per_turn: dict[str, list[float]] = {}  # insertion order: the order turns are played
        for r in rs:
            for label, total in r.get("vp_track") or []:
                per_turn.setdefault(str(label), []).append(float(total))
        if per_turn:
            tracks[str(rs[0].get("scenario"))][key] = per_turn
    if not tracks:
        return None
    # Each panel tall enough for its legend (a line a group) beside it.
    heights = [max(3.2, 1.2 + 0.13 * len(g)) for _, g in sorted(tracks.items())]
    fig, axes = plt.subplots(len(tracks), 1, figsize=(10, sum(heights)), squeeze=False,
                             layout="constrained", gridspec_kw={"height_ratios": heights})
    for ax, (sc, by_group) in zip(axes[:, 0], sorted(tracks.items()), strict=True):
        turns: list[str] = []  # the longest group's turns first, then any others
        for per_turn in sorted(by_group.values(), key=len, reverse=True):
            turns += [t for t in per_turn if t not in turns]
        colors = _colors(len(by_group))
        for k, (key, per_turn) in enumerate(by_group.items()):
            xs = [turns.index(t) for t in per_turn]
            ax.plot(xs, [statistics.fmean(v) for v in per_turn.values()], marker=".",
                    color=colors[k], linestyle=("-", "--", ":")[k // 20 % 3],  # past tab20
                    label=_in_scenario(key, sc))
        step = max(1, math.ceil(len(turns) / 14))
        ax.set_xticks(range(0, len(turns), step), turns[::step], fontsize=7, rotation=30,
                      ha="right", rotation_mode="anchor")
        ax.set_title(sc, fontsize=9)
        ax.set_ylabel(f"mean {_score_label(sc)}")
        ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1))
    axes[-1, 0].set_xlabel("start of turn (mean over the games that reached it)")
    return _save(fig, out / "vp_over_time.png")


def markdown(rows: Sequence[Row], images: Sequence[str]) -> str:
    """A table row per group: games, each seat's wins (Wilson 95% interval), draws,
    unfinished, score and seconds a game."""
    gs = groups(rows)
    # Headers by the seats' titles when every group has the same seats of one system;
    # otherwise by place, each cell naming its seat.
    sample = next(iter(gs.values()))
    titles = [seat_title(str(sample[0].get("scenario")), seat) for seat in _seats(sample)]
    plain = all(_seats(rs) == _seats(sample) and
                _system(str(rs[0].get("scenario"))) == _system(str(sample[0].get("scenario")))
                for rs in gs.values())
    places = max(len(_seats(rs)) for rs in gs.values())
    heads = titles if plain else [f"seat {k + 1}" for k in range(places)]
    lines = ["# Simulation report", "", f"{len(rows)} games.", "",
             "| group | games | " + " | ".join(f"{h} wins (95% CI)" for h in heads)
             + " | draws | unfinished | score mean ± sd | s/game |",
             "|---|---|" + "---|" * len(heads) + "---|---|---|---|"]
    for name, rs in gs.items():
        seats = _seats(rs)
        s = summarise(rs, seats)
        n = s["games"]

        def cell(k: int, seat: str, n: int = n) -> str:
            lo, hi = wilson(k, n)
            return f"{'' if plain else seat + ' '}{k} ({lo:.0%}-{hi:.0%})"

        cells = [cell(s["wins"].get(seat, 0), seat) for seat in seats]
        cells += ["-"] * (len(heads) - len(cells))
        vp = "-" if s["vp_mean"] is None else f"{s['vp_mean']:.2f} ± {s['vp_stdev']:.2f}"
        lines.append(f"| {name} | {n} | {' | '.join(cells)} | {s['draws']} | "
                     f"{s['unfinished']} | {vp} | {s['seconds_per_game']:.1f} |")
    lines.append("")
    lines += [f"![{img}]({img})" for img in images]
    return "\n".join(lines) + "\n"


#: The fields every row of ``gettysburg simulate`` has that the report reads.
GAME_FIELDS = ("scenario", "agents", "finished", "vp", "seconds")


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _strings(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _by_side(v: Any) -> bool:
    return v is None or (isinstance(v, dict) and all(_strings(ids) for ids in v.values()))


def _track(v: Any) -> bool:
    return v is None or (isinstance(v, list) and all(
        isinstance(p, list) and len(p) == 2 and _number(p[1]) for p in v))


#: What each field the report reads must hold, and how to say so (the optional ones may
#: be absent: older rows lack them).
_FORMS: dict[str, tuple[Any, str]] = {
    "scenario": (lambda v: isinstance(v, str) and bool(v), "a SYSTEM/SCENARIO string"),
    "agents": (lambda v: isinstance(v, dict) and bool(v)
               and all(isinstance(a, str) for a in v.values()),
               "an object naming the agent of each seat"),
    "finished": (lambda v: isinstance(v, bool), "true or false"),
    "vp": (lambda v: v is None or _number(v), "a finite number or null"),
    "seconds": (_number, "a finite number"),
    "winner": (lambda v: v is None or isinstance(v, str), "a seat name or null"),
    "options": (lambda v: v is None or _strings(v), "a list of option names"),
    "dice": (lambda v: isinstance(v, str), "a dice name"),
    "budget_s": (lambda v: v is None or _number(v), "a number of seconds"),
    "max_actions": (lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)),
                    "a whole number"),
    "eliminated": (_by_side, "an object listing piece ids by seat"),
    "eliminated_at_start": (_by_side, "an object listing piece ids by seat"),
    "vp_track": (_track, "a list of [turn, score] pairs"),
}


def _field_problem(row: Mapping[str, Any]) -> str | None:
    missing = [f for f in GAME_FIELDS if f not in row]
    if missing:
        return (f"not a game row of gettysburg simulate (it has no "
                f"{', '.join(repr(f) for f in missing)})")
    for name, (ok, form) in _FORMS.items():
        if name in row and not ok(row[name]):
            shown = repr(row[name])
            shown = shown if len(shown) <= 40 else shown[:37] + "..."
            return f"{name!r} must be {form}, not {shown}"
    return None


def row_problem(rows: Sequence[Row], lines: Sequence[int] | None = None) -> str | None:
    """Why ``rows`` cannot be reported (the first row that is no game row of
    ``gettysburg simulate`` or holds a field in the wrong form, named by its place and,
    given ``lines``, its line in the file), or ``None``."""
    if not rows:
        return "no games in the file"
    for k, row in enumerate(rows, 1):
        problem = _field_problem(row)
        if problem is not None:
            where = f"row {k}" + (f" (line {lines[k - 1]})" if lines else "")
            return f"{where}: {problem}"
    return None


def write_report(rows: Sequence[Row], out_dir: str | Path,
                 lines: Sequence[int] | None = None) -> list[Path]:
    """Write the plots and ``summary.md`` into ``out_dir``; returns the files written.
    ``lines``: the file line of each row, for errors. A folder that cannot be made or
    written raises ``OSError``."""
    problem = row_problem(rows, lines)
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
