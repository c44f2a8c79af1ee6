"""``gettysburg simulate`` and ``gettysburg report``: the simulation lab on the command line.

``simulate`` plays N games between agents on local cores (or a Ray cluster), stores one
row per game (JSON Lines) and prints a summary; with ``--json`` stdout holds exactly one
JSON object. ``report`` turns a results file into plots and a Markdown summary.

Seats are the scenario's system's own (its declaration in the registry): ``--seat
SEAT=AGENT``, or ``--SEAT AGENT`` for short, read against the seats of the scenario, so
this module names no seat and no system.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from gettysburg.cli.specs import scenario_spec, system_and_scenario

if TYPE_CHECKING:
    from rich.console import Console

    from gettysburg.lab import simulate as sim

#: The agent of a seat the command does not name.
DEFAULT_AGENT = "random"


def append_rows(path: Path, rows: list[dict[str, Any]]) -> int:
    """The store's ``append_rows``, imported when a game ends (the lab loads with it)."""
    from gettysburg.lab.store import append_rows as append

    return append(path, rows)


def _fail(message: str) -> NoReturn:
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


def _seat_options(scenario: str, extra: list[str]) -> tuple[str, list[tuple[str, str]]]:
    """The scenario argument and the ``--SEAT AGENT`` pairs among the words the command
    did not know (``--SEAT=AGENT`` too). Click leaves those words where they stood, so an
    option given before the scenario took its place: the one plain word is the scenario."""
    words, plain, named = [scenario, *extra], [], []
    k = 0
    while k < len(words):
        word = words[k]
        if word.startswith("--") and len(word) > 2:
            seat, eq, agent = word[2:].partition("=")
            if not eq:
                if k + 1 >= len(words):
                    _fail(f"{word} needs an agent (--SEAT AGENT, or --seat SEAT=AGENT)")
                k += 1
                agent = words[k]
            named.append((seat, agent))
        elif word.startswith("-") and word != "-":
            _fail(f"no such option: {word}")
        else:
            plain.append(word)
        k += 1
    if len(plain) != 1:
        _fail(f"give one scenario (SYSTEM/SCENARIO, a name or a file), got {plain or 'none'}")
    return plain[0], named


def _seat_agents(spec: str, seats: list[str], pairs: list[str],
                 named: list[tuple[str, str]]) -> dict[str, str]:
    """The agent of every seat of ``spec``: from ``--seat SEAT=AGENT`` and ``--SEAT
    AGENT``, checked against the scenario's seats; a seat not named plays
    ``DEFAULT_AGENT``."""
    given: list[tuple[str, str, str]] = []
    for item in pairs:
        seat, eq, agent = item.partition("=")
        if not eq or not seat or not agent:
            _fail(f"--seat takes SEAT=AGENT, got {item!r}")
        given.append((seat, agent, f"--seat {seat}"))
    given += [(seat, agent, f"--{seat}") for seat, agent in named]
    agents: dict[str, str] = {}
    for seat, agent, flag in given:
        if seat not in seats:
            what = "is not a seat" if flag.startswith("--seat") else \
                "is no option of simulate, nor a seat"
            _fail(f"{flag} {what} of {spec}; its seats: {', '.join(seats)}")
        if seat in agents:
            _fail(f"{flag}: seat {seat} is given an agent twice")
        if not agent:
            _fail(f"{flag} needs an agent")
        agents[seat] = agent
    return {seat: agents.get(seat, DEFAULT_AGENT) for seat in seats}


def _check_agents(agents: dict[str, str], system: str) -> None:
    """Make each agent once, so a name no agent has is refused before any game is played;
    the message lists the agents of ``system`` (once)."""
    # The agents, the lab and rich are imported by the commands that use them: the other
    # commands start without them (docs/research.md, "Speed").
    from gettysburg.ai.agent import UnknownAgentError, agent_names, make_agent

    try:
        for name in agents.values():
            make_agent(name, 0, system=system)
    except (ValueError, LookupError) as exc:
        message = str(exc)
        names = agent_names(system)
        if isinstance(exc, UnknownAgentError) and not all(a in message for a in names):
            message += f" (agents: {', '.join(names)})"
        _fail(message)


def _set_up(scenario: str, system: str | None, options: list[str],
            pairs: list[str], extra: list[str]) -> tuple[str, list[str], dict[str, str]]:
    """The run's spec, the scenario's seats in play order and each seat's agent, every
    part checked (exit 2 naming what is wrong) before any game is played."""
    from gettysburg import systems as registry
    from gettysburg.core.protocol import setup_seats

    scenario, named = _seat_options(scenario, extra)
    try:
        spec = scenario_spec(scenario, system)
        name, scen = system_and_scenario(spec)
        problem = registry.get(name).menu().options_problem(scen, options)
        if problem is not None:
            _fail(problem)
        seats = setup_seats(spec, options)
    except (ValueError, LookupError) as exc:
        _fail(str(exc))
    agents = _seat_agents(spec, seats, pairs, named)
    _check_agents(agents, name)
    return spec, seats, agents


def _already_played(specs: list[sim.GameSpec], out: Path, games: int, quiet: bool,
                    err: Console) -> tuple[list[sim.Row], list[sim.GameSpec]]:
    """``--resume``: the rows of this command already in ``out``, and the games to play."""
    from gettysburg.lab import simulate as sim
    from gettysburg.lab.store import read_rows

    try:
        stored = read_rows(out) if out.exists() else []
    except (ValueError, OSError) as exc:
        _fail(str(exc))
    done, todo = sim.split_played(specs, stored)
    if not quiet:
        err.print(f"resuming: {len(done)} of {games} games already in {out}")
    return done, todo


def _play(specs: list[sim.GameSpec], *, label: str, games: int, done: int, out: Path | None,
          workers: int, ray_address: str | None, resume: bool, quiet: bool,
          err: Console) -> list[sim.Row]:
    """Play ``specs`` under a progress bar, appending each row to ``out`` as its game
    ends (an interrupted run keeps its games); Ctrl-C says what ``out`` holds, exit 130."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from gettysburg.lab import simulate as sim

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    stored_now = done  # games of this run in --out: kept ones, then each one played
    try:
        with Progress(*columns, console=err, transient=quiet) as bar:
            task = bar.add_task(label, total=games, completed=done)

            def tick(row: sim.Row) -> None:
                nonlocal stored_now
                if out is not None:
                    try:
                        append_rows(out, [row])
                    except OSError as exc:
                        _fail(f"cannot append to --out {out} ({exc.strerror or exc}); "
                              f"{stored_now} of {games} games of this run are in it")
                    stored_now += 1
                bar.advance(task)

            if not specs:
                return []
            if ray_address:
                try:
                    return sim.run_ray(specs, ray_address, tick)
                except ImportError:
                    _fail("Ray is not installed (pip install 'gettysburg[ray]')")
                except ConnectionError as exc:
                    _fail(f"--ray: {exc}")
            n = workers or os.cpu_count() or 1
            return sim.run_local(specs, n, tick, checkpoints=_checkpoints(out), resume=resume)
    except KeyboardInterrupt:
        # Ctrl-C: say what the file holds and how to go on; 130 as shells report SIGINT.
        if out is not None:
            err.print(f"interrupted: {stored_now} of {games} games of this run are in {out}; "
                      "the same command with --resume plays the rest, going on from the "
                      f"games in play saved in {_checkpoints(out)}", markup=False)
        else:
            err.print("interrupted (without --out the games played are not kept)")
        raise typer.Exit(code=130) from None


def summary_json(summary: dict[str, Any], seats: list[str]) -> dict[str, Any]:
    """``--json``'s object: games, ``wins`` by seat, each seat's ``<seat>_wins``, draws,
    unfinished, the score's mean and spread (``vp_mean``, ``vp_stdev``) and seconds a
    game."""
    return {"games": summary["games"], "wins": {s: summary["wins"].get(s, 0) for s in seats},
            **{f"{s}_wins": summary["wins"].get(s, 0) for s in seats},
            **{k: summary[k] for k in ("draws", "unfinished", "vp_mean", "vp_stdev",
                                       "seconds_per_game")}}


def _summary_line(summary: dict[str, Any], spec: str, agents: dict[str, str],
                  out: Path | None) -> str:
    """The summary in one line: each seat's wins with their Wilson interval, by the
    seats' own names in capitals (RED, BLUE for the toy game)."""
    from gettysburg.lab import simulate as sim

    n = summary["games"]
    wins = []
    for seat in agents:
        count = summary["wins"].get(seat, 0)
        lo, hi = sim.wilson(count, n)
        wins.append(f"{seat.upper()} {count} ({lo:.0%}-{hi:.0%})")
    finished = n - summary["unfinished"]
    if summary["vp_mean"] is not None:
        vp = f"VP {summary['vp_mean']} ± {summary['vp_stdev']}"
    elif finished:
        vp = "no VP (this system's results give none)"
    else:
        vp = "VP – (no game finished)"
    pairing = ", ".join(f"{seat}={agent}" for seat, agent in agents.items())
    return (f"{_plural(n, 'game')} of {spec} ({pairing}): {', '.join(wins)}, "
            f"draws {summary['draws']}, unfinished {summary['unfinished']} "
            f"(errors {summary['errors']}); {vp}; {summary['seconds_per_game']} s/game"
            + (f"; rows in {out}" if out else ""))


def simulate(
    ctx: typer.Context,
    scenario: str = typer.Argument(..., help="SYSTEM/SCENARIO (e.g. toy/standard), a "
                                             "scenario name, or a scenario file"),
    seat: list[str] = typer.Option([], "--seat", help="SEAT=AGENT: the agent of a seat "
                                   "(repeatable; --SEAT AGENT for short; a seat not given "
                                   "plays random)"),
    system: str | None = typer.Option(None, "--system", help="the rule system of a bare "
                                      "scenario name or of a file that does not say"),
    games: int = typer.Option(10, "--games", "-n", min=1, help="how many games"),
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
    """Play GAMES complete games between agents and summarise the outcomes.

    Each seat of the scenario's system gets its agent with --seat SEAT=AGENT or --SEAT
    AGENT (e.g. --red general for the toy game's red seat)."""
    from rich.console import Console

    from gettysburg.lab import simulate as sim

    if dice not in sim.DICE_KINDS:
        _fail(f"--dice must be one of {', '.join(sorted(sim.DICE_KINDS))}, not {dice!r}")
    spec, seats, agents = _set_up(scenario, system, option, seat, list(ctx.args))
    specs = sim.make_specs(spec, games, agents, seed, max_actions, budget, option, dice)
    err = Console(stderr=True)
    if resume and out is None:
        _fail("--resume needs --out: the file that holds the games already played")
    if out is not None and (problem := _out_problem(out)) is not None:
        _fail(problem)
    done: list[sim.Row] = []
    if resume and out is not None:
        done, specs = _already_played(specs, out, games, as_json, err)
    label = " ".join([spec, *(f"{s}={a}" for s, a in agents.items())])
    rows = _play(specs, label=label, games=games, done=len(done), out=out, workers=workers,
                 ray_address=ray_address, resume=resume, quiet=as_json, err=err)
    rows = sorted(done + rows, key=lambda r: int(r["index"]))
    summary = sim.summarise(rows, seats)
    for row in rows:
        if row.get("error"):
            err.print(f"game {row['index']} (seed {row['seed']}) stopped: {row['error']}",
                      markup=False)
    if as_json:
        typer.echo(json.dumps(summary_json(summary, seats)))
        return
    Console().print(_summary_line(summary, spec, agents, out), markup=False)


def report(
    file: Path = typer.Argument(..., exists=True, dir_okay=False, help="results (JSON Lines)"),
    out: Path = typer.Option(Path("report"), "--out", help="folder for plots and summary.md"),
) -> None:
    """Plot stored games and summarise them in Markdown.

    Plots: the score's distribution, win rates (Wilson), losses by formation, the score
    over time, each labelled as the rule system names them."""
    from gettysburg.lab.store import read_numbered_rows

    try:
        numbered = read_numbered_rows(file)  # its errors name the file and line already
    except (ValueError, OSError) as exc:
        _fail(str(exc))
        return
    try:
        from gettysburg.lab import report as report_mod  # matplotlib: only when reporting

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
