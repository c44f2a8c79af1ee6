"""``gettysburg simulate`` and ``gettysburg report``: the simulation lab on the command line.

``simulate`` plays N games between two agents on local cores (or a Ray cluster), stores one
row per game (JSON Lines) and prints a summary; with ``--json`` stdout holds exactly one
JSON object. ``report`` turns a results file into plots and a Markdown summary.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from gettysburg.ai.agent import UnknownAgentError, agent_names, make_agent
from gettysburg.cli.specs import scenario_spec
from gettysburg.core.protocol import parse_spec, setup_seats
from gettysburg.lab import report as report_mod
from gettysburg.lab import simulate as sim
from gettysburg.lab.store import append_rows, read_numbered_rows, read_rows
from gettysburg.server.systems import options_problem

JSON_KEYS = ("games", "usa_wins", "csa_wins", "draws", "vp_mean", "vp_stdev",
             "seconds_per_game")


def _fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code=2)


def _out_problem(out: Path) -> str | None:
    """Why games cannot be appended to ``out`` (``None`` if they can), found before any
    game is played: a search game takes minutes, and would be lost at its first row."""
    if out.is_dir():
        return f"--out {out} is a folder; give the results file (JSON Lines) to append to"
    blocker = next((p for p in out.parents if p.exists() and not p.is_dir()), None)
    if blocker is not None:  # mkdir would only say "File exists"
        return f"--out {out}: {blocker} is a file, not a folder"
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("ab"):  # creates it empty if missing, as the first row would
            pass
    except OSError as exc:
        return f"--out {out}: cannot write there ({exc.strerror or exc})"
    return None


def _checkpoints(out: Path | None) -> Path | None:
    """The folder beside ``--out`` where games in play are saved now and then, so
    ``--resume`` goes on from them (gettysburg.lab.checkpoint)."""
    return None if out is None else out.with_name(out.name + ".checkpoints")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def simulate(
    scenario: str = typer.Argument(..., help="SYSTEM/SCENARIO, e.g. boc/day1"),
    games: int = typer.Option(10, "--games", "-n", min=1, help="how many games"),
    usa: str = typer.Option("random", "--usa", help="agent for the USA seat"),
    csa: str = typer.Option("random", "--csa", help="agent for the CSA seat"),
    seed: str = typer.Option("0", "--seed", help="base seed; game k uses a seed derived "
                                                 "from it"),
    workers: int = typer.Option(1, "--workers", "-w", min=0,
                                help="local processes (0 = one per core)"),
    out: Path | None = typer.Option(None, "--out", help="append one JSON line per game, "
                                                        "as each game ends"),
    as_json: bool = typer.Option(False, "--json", help="print only the summary as JSON"),
    max_actions: int = typer.Option(20000, "--max-actions", min=1,
                                    help="stop a game after this many actions (recorded "
                                         "as unfinished)"),
    budget: float = typer.Option(1.0, "--budget", min=0.0,
                                 help="seconds per decision given to the agents"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option (repeatable)"),
    ray_address: str | None = typer.Option(None, "--ray",
                                           help="Ray cluster address ('local' starts one)"),
    resume: bool = typer.Option(False, "--resume",
                                help="keep the games of this command already in --out and "
                                     "play only the rest, a game in play from its checkpoint "
                                     "(saved beside --out)"),
    dice: str = typer.Option("seeded", "--dice",
                             help="'seeded' (as every hosted game), or 'keyed': as fair, and "
                                  "two runs of the same seeds that differ in one agent or "
                                  "option keep sharing their dice (docs/ai.md, 'Coupled "
                                  "games')"),
) -> None:
    """Play GAMES complete games between two agents and summarise the outcomes."""
    spec = scenario_spec(scenario)
    if dice not in sim.DICE_KINDS:
        _fail(f"--dice must be one of {', '.join(sorted(sim.DICE_KINDS))}, not {dice!r}")
    try:
        system, scen = parse_spec(spec)
        problem = options_problem(system, scen, option)
        if problem is not None:
            _fail(problem)
        seats = setup_seats(spec, option)
        for name in (usa, csa):
            make_agent(name, 0)
    except (ValueError, LookupError) as exc:
        message = str(exc)
        if isinstance(exc, UnknownAgentError) and not all(a in message for a in agent_names()):
            message += f" (agents: {', '.join(agent_names())})"
        _fail(message)
    # --usa/--csa name the first and second seat (other systems name theirs differently).
    agents = dict(zip(seats[:2], (usa, csa), strict=True))
    specs = sim.make_specs(spec, games, agents, seed, max_actions, budget, option, dice)
    err = Console(stderr=True)
    done: list[sim.Row] = []
    if resume and out is None:
        _fail("--resume needs --out: the file that holds the games already played")
        return
    if out is not None and (problem := _out_problem(out)) is not None:
        _fail(problem)
    if resume and out is not None:
        try:
            stored = read_rows(out) if out.exists() else []
        except (ValueError, OSError) as exc:
            _fail(str(exc))
            return
        done, specs = sim.split_played(specs, stored)
        if not as_json:
            err.print(f"resuming: {len(done)} of {games} games already in {out}")
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    stored_now = len(done)  # games of this run in --out: kept ones, then each one played
    try:
        with Progress(*columns, console=err, transient=as_json) as bar:
            task = bar.add_task(f"{spec} {seats[0]}={usa} {seats[1]}={csa}", total=games,
                                completed=len(done))

            def tick(row: sim.Row) -> None:
                nonlocal stored_now
                # Each game is stored as it finishes: an interrupted run keeps its games.
                if out is not None:
                    try:
                        append_rows(out, [row])
                    except OSError as exc:
                        _fail(f"cannot append to --out {out} ({exc.strerror or exc}); "
                              f"{stored_now} of {games} games of this run are in it")
                    stored_now += 1
                bar.advance(task)

            if not specs:
                rows = []
            elif ray_address:
                try:
                    rows = sim.run_ray(specs, ray_address, tick)
                except ImportError:
                    _fail("Ray is not installed (pip install 'gettysburg[ray]')")
                    return
                except ConnectionError as exc:
                    _fail(f"--ray: {exc}")
                    return
            else:
                n = workers or os.cpu_count() or 1
                rows = sim.run_local(specs, n, tick, checkpoints=_checkpoints(out),
                                     resume=resume)
    except KeyboardInterrupt:
        # Ctrl-C: say what the file holds and how to go on; 130 as shells report SIGINT.
        if out is not None:
            err.print(f"interrupted: {stored_now} of {games} games of this run are in {out}; "
                      "the same command with --resume plays the rest, going on from the "
                      f"games in play saved in {_checkpoints(out)}", markup=False)
        else:
            err.print("interrupted (without --out the games played are not kept)")
        raise typer.Exit(code=130) from None
    rows = sorted(done + rows, key=lambda r: int(r["index"]))
    summary = sim.summarise(rows, seats)
    for row in rows:
        if row.get("error"):
            err.print(f"game {row['index']} (seed {row['seed']}) stopped: {row['error']}",
                      markup=False)
    if as_json:
        typer.echo(json.dumps({k: summary[k] for k in JSON_KEYS}))
        return
    err_or_out = Console()
    lo, hi = sim.wilson(summary["usa_wins"], summary["games"])
    lo2, hi2 = sim.wilson(summary["csa_wins"], summary["games"])
    finished = summary["games"] - summary["unfinished"]
    if summary["vp_mean"] is not None:
        vp = f"VP {summary['vp_mean']} ± {summary['vp_stdev']}"
    elif finished:
        vp = "no VP (this system's results give none)"
    else:
        vp = "VP – (no game finished)"
    # The first two seats, by their own names (the toy game's are red and blue).
    first, second = (s.upper() for s in seats[:2])
    err_or_out.print(
        f"{_plural(summary['games'], 'game')} of {spec} ({seats[0]}={usa}, {seats[1]}={csa}): "
        f"{first} {summary['usa_wins']} ({lo:.0%}-{hi:.0%}), "
        f"{second} {summary['csa_wins']} ({lo2:.0%}-{hi2:.0%}), "
        f"draws {summary['draws']}, unfinished {summary['unfinished']} "
        f"(errors {summary['errors']}); "
        f"{vp}; {summary['seconds_per_game']} s/game" + (f"; rows in {out}" if out else ""),
        markup=False)


def report(
    file: Path = typer.Argument(..., exists=True, dir_okay=False, help="results (JSON Lines)"),
    out: Path = typer.Option(Path("report"), "--out", help="folder for plots and summary.md"),
) -> None:
    """Plot stored games and summarise them in Markdown.

    Plots: VP distribution, win rates (Wilson), losses by corps, VP over time."""
    try:
        numbered = read_numbered_rows(file)  # its errors name the file and line already
    except (ValueError, OSError) as exc:
        _fail(str(exc))
        return
    try:
        written = report_mod.write_report([row for _, row in numbered], out,
                                          lines=[k for k, _ in numbered])
    except ValueError as exc:
        _fail(f"{file}: {exc}")
        return
    except OSError as exc:
        _fail(f"cannot write the report into {out}: {exc.strerror or exc}"
              + (f" ({exc.filename})" if exc.filename else ""))
        return
    for p in written:
        typer.echo(str(p))
