"""``gettysburg game``: play by e-mail with save files (new, legal, apply, show, replay).

A save file holds scenario, options, seed and the actions with a hash chain
(:mod:`gettysburg.core.savefile`); every command replays it, so a tampered file is caught.
Refusals and bad input print a message on stderr and exit with code 2 without writing;
``replay --verify`` exits 1 when the file fails its check (tampered, or damaged).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer

# Each command imports what it uses (issue 59): starting the command line loads neither
# the save files, the dice nor the registry of rule systems, and `game legal` not the
# registry (a save file names its system, whose package the protocol loads).
if TYPE_CHECKING:
    from gettysburg.core.dice import CommitReveal
    from gettysburg.core.protocol import Game

app = typer.Typer(help="Play a game by e-mail: new, legal, apply, show, replay.",
                  no_args_is_help=True)


def _fail(message: str) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code=2)


def _beside(save: Path) -> contextlib.chdir[str]:
    """Work in the save file's folder: a save names a custom scenario file relative to its
    own folder, so the two travel together (and no local path goes into the save)."""
    return contextlib.chdir(str(save.resolve().parent))


def _load(path: Path) -> Game:
    from gettysburg.core import savefile

    try:
        model = savefile.load(path)
        with _beside(path):
            return savefile.replay(model, verify=True)
    except savefile.ReplayError as exc:
        _fail(f"{path}: {exc.problem}")
    except (savefile.SaveFileError, ValueError, LookupError) as exc:
        _fail(str(exc))


def _seat(game: Game, seat: str | None) -> str:
    from gettysburg.core.protocol import REFEREE

    if seat is None:
        movers = game.to_move()
        if not movers:
            _fail("the game is over; nobody is to move")
        return movers[0]
    if seat not in (*game.seats(), REFEREE):
        _fail(f"unknown seat {seat!r}; seats: {', '.join(game.seats())} "
              f"(and {REFEREE}, who sees everything, for show)")
    return seat


@app.command("commit")
def commit(seat: str = typer.Option(..., "--as", help="your seat, as the game's rule "
                                   "system names it"),
           secret_out: Path = typer.Option(..., "--secret-out",
                                           help="file to keep your secret in (new)"),
           scenario: str | None = typer.Option(None, "--scenario",
                                               help="the game you will start, whose seats "
                                               "--as must name (default: the first "
                                               "scenario of the first system listed)"),
           ) -> None:
    """Step 1 of agreeing the dice seed by e-mail: keep a secret, send its commitment.

    The secret goes to --secret-out; send the commitment printed here to your opponent
    (docs/protocol.md, "Commit and reveal")."""
    from gettysburg.cli.specs import default_scenario, scenario_spec
    from gettysburg.core.dice import commitment, new_secret
    from gettysburg.core.protocol import setup_seats

    # A commitment is bound to its seat: one made for a seat the game lacks could only
    # fail later, at `game new`, after both players have exchanged theirs.
    try:
        scenario = scenario or default_scenario()
        seats = setup_seats(scenario_spec(scenario))
    except (ValueError, LookupError) as exc:
        _fail(f"--scenario: {exc}")
    if seat not in seats:
        _fail(f"--as {seat!r} is not a seat of {scenario}; its seats: {', '.join(seats)}")
    secret = new_secret()
    try:
        with secret_out.open("x", encoding="utf-8") as fh:  # never overwrite a secret
            fh.write(secret + "\n")
        secret_out.chmod(0o600)
    except OSError as exc:
        _fail(f"cannot write the secret to {secret_out}: {exc}")
    typer.echo(f"commitment for {seat}: {commitment(seat, secret)}")
    typer.echo(f"Your secret is in {secret_out}: send it only once you hold your "
               "opponent's commitment.")


def _pairs(values: list[str], what: str) -> dict[str, str]:
    """``seat=value`` pairs; a value ``@FILE`` is read from that file (a kept secret)."""
    out: dict[str, str] = {}
    for item in values:
        seat, sep, value = item.partition("=")
        if not sep or not seat or not value:
            _fail(f"--{what} takes SEAT=VALUE, got {item!r}")
        if value.startswith("@"):
            try:
                value = Path(value[1:]).read_text(encoding="utf-8").strip()
            except OSError as exc:
                _fail(f"--{what} {seat}: cannot read {value[1:]}: {exc}")
        if seat in out:
            _fail(f"--{what} names {seat} twice")
        out[seat] = value
    return out


def _agreed(commits: list[str], reveals: list[str]) -> CommitReveal:
    """The commit-reveal record of ``--commit`` and ``--reveal``, checked."""
    from gettysburg.core.dice import CommitReveal, CommitRevealError

    made, shown = _pairs(commits, "commit"), _pairs(reveals, "reveal")
    if set(made) != set(shown):
        _fail(f"--commit names {sorted(made)} but --reveal names {sorted(shown)}")
    try:
        record = CommitReveal(tuple(sorted(made)))
        for seat, digest in made.items():
            record.commit(seat, digest)
        for seat, secret in shown.items():
            record.reveal(seat, secret)
        record.verify()
    except CommitRevealError as exc:
        _fail(f"commit and reveal: {exc}")
    return record


@app.command("new")
def new(scenario: str = typer.Argument(..., help="SYSTEM/SCENARIO (see `scenario list`), "
                                       "a scenario name, or a scenario YAML"),
        out: Path = typer.Option(..., "--out", help="save file to write"),
        system: str | None = typer.Option(None, "--system", help="the rule system of a "
                                          "bare name or of a file that does not say"),
        seed: str | None = typer.Option(None, "--seed", help="dice seed (default: a fresh "
                                        "random one)"),
        option: list[str] = typer.Option([], "--option", help="optional rule (repeatable)"),
        scripted: bool = typer.Option(False, "--scripted",
                                      help="scripted dice (give them with apply --dice)"),
        commits: list[str] = typer.Option([], "--commit", help="SEAT=COMMITMENT, one per "
                                          "seat: the seed comes from commit and reveal"),
        reveals: list[str] = typer.Option([], "--reveal", help="SEAT=SECRET or SEAT=@FILE, "
                                          "one per seat, matching its commitment"),
        force: bool = typer.Option(False, "--force",
                                   help="replace an existing save file at --out"),
        ) -> None:
    """Start a game and write its save file.

    By e-mail, agree the seed with `game commit` and give every seat's --commit and
    --reveal: nobody chose the dice, and `game replay --verify` re-checks the record."""
    from gettysburg import systems as registry
    from gettysburg.cli.specs import is_file, scenario_spec, system_and_scenario
    from gettysburg.core import savefile
    from gettysburg.core.dice import DiceError, ScriptedDice, new_secret
    from gettysburg.core.protocol import new_game

    if out.exists() and not force:
        # A save is a whole game's record: never lose one to a mistyped --out.
        _fail(f"{out} already exists; give another --out, or --force to replace it")
    try:
        spec = scenario_spec(scenario, system)
        name, scen = system_and_scenario(spec)
        if is_file(scenario):
            # A custom scenario: named relative to the save's folder (see _beside).
            spec = f"{name}/" + os.path.relpath(Path(scenario).resolve(), out.resolve().parent)
        # A new game: only the options its scenario's sheet lists.
        problem = registry.get(name).menu().options_problem(scen, option)
    except (ValueError, LookupError) as exc:
        _fail(str(exc))
    if problem is not None:
        _fail(problem)
    named, out = out, out.resolve()  # the message names the file as it was typed
    record = None
    if commits or reveals:
        if seed is not None or scripted:
            _fail("--commit/--reveal fix the seed: give no --seed or --scripted with them")
        record = _agreed(commits, reveals)
    try:
        with _beside(out):
            # No seed given: a fresh random one, never a fixed default everyone knows.
            game = new_game(spec, options=option, seed=seed or new_secret(),
                            dice=ScriptedDice([]) if scripted else None, commit_reveal=record)
        if record is not None and set(record.seats) != set(game.seats()):
            _fail(f"commit and reveal: the record names {list(record.seats)}, the game's "
                  f"seats are {game.seats()}")
        savefile.write(savefile.save(game), out)
    except (ValueError, LookupError, OSError, DiceError) as exc:
        _fail(str(exc))
    agreed = " (seed agreed by commit and reveal)" if record is not None else ""
    typer.echo(f"{named}: new game {scenario}{agreed}; to move: {', '.join(game.to_move())}")
    _trust_notice()


#: What a save file cannot hide (docs/security.md, "Play by e-mail").
TRUST_NOTICE = ("note: file play is for players who trust each other: the save file holds "
                "the dice seed, so whoever holds it can read every hidden piece and every "
                "die to come. For a refereed game by e-mail, host it with `gettysburg serve`: "
                "each player gets a link, moves when they like, and cannot see through the "
                "fog.")


def _trust_notice() -> None:
    typer.echo(TRUST_NOTICE, err=True)


@app.command("legal")
def legal(file: Path = typer.Argument(..., help="the save file"),
          seat: str | None = typer.Option(None, "--as", help="the seat whose actions to "
                                          "list (default: the seat to move)"),
          as_json: bool = typer.Option(False, "--json", help="one JSON list instead of a "
                                       "numbered line per action")) -> None:
    """List the legal actions of a seat (default: the seat to move)."""
    game = _load(file)
    who = _seat(game, seat)
    actions = game.legal_actions(who)
    if as_json:
        typer.echo(json.dumps(actions))
        return
    for i, a in enumerate(actions):
        typer.echo(f"{i:4d} {json.dumps(a)}")


def _with_dice(file: Path, values: list[int]) -> Game:
    """The game with ``values`` appended to its dice script (scripted games only): the
    history is verified first, then replayed under the longer script."""
    from gettysburg.core import savefile
    from gettysburg.core.dice import ScriptedDice
    from gettysburg.core.protocol import new_game

    model = savefile.load(file)
    if model.dice.kind != "scripted":
        _fail("--dice needs a game created with scripted dice (game new --scripted); "
              "seeded dice cannot be overridden")
    _load(file)  # verify the file as it is
    data: dict[str, Any] = model.model_dump()
    script = list(model.dice.values or []) + values
    with _beside(file):
        game = new_game(f"{model.system}/{model.scenario}", options=model.options,
                        seed=model.seed, dice=ScriptedDice(script))
    for mv in data["moves"]:
        game.apply(mv["action"], mv["seat"])
    return game


@app.command("apply")
def apply(file: Path = typer.Argument(..., help="the save file"),
          action: str = typer.Argument(..., help="the action as JSON, or its number in "
                                       "`game legal`'s list"),
          out: Path = typer.Option(..., "--out", help="where to write (may be FILE)"),
          seat: str | None = typer.Option(None, "--as", help="the seat acting (default: "
                                          "the seat to move)"),
          dice: str | None = typer.Option(None, "--dice", help="scripted dice, e.g. 3,6,1")
          ) -> None:
    """Apply one action (JSON, or its number in `game legal`); write the new save file."""
    from gettysburg.core import savefile
    from gettysburg.core.dice import DiceError, ScriptedDice
    from gettysburg.core.protocol import RuleError

    number = action.strip().isdigit()
    try:
        act = None if number else json.loads(action)
    except json.JSONDecodeError as exc:
        _fail(f"the action is not JSON: {exc}")
    if dice is not None:
        try:
            values = [int(v) for v in dice.split(",") if v.strip()]
        except ValueError:
            _fail("--dice takes comma-separated die values 1-6")
        try:
            game = _with_dice(file, values)
        except (DiceError, RuleError, ValueError) as exc:
            _fail(str(exc))
    else:
        game = _load(file)
    who = _seat(game, seat)
    if number:  # the same list, in the same order, `game legal` numbered
        listed = game.legal_actions(who)
        if int(action) >= len(listed):
            _fail(f"action {int(action)}: {who} has {len(listed)} legal actions, numbered "
                  f"0 to {len(listed) - 1} (`game legal`)")
        act = listed[int(action)]
    try:
        events = game.apply(act, who)
        left = game.dice.remaining if isinstance(game.dice, ScriptedDice) else 0
        if dice is not None and left:
            # Dice left over would silently decide a later move: --dice is this action's.
            _fail(f"the action rolled {len(values) - left} of the {len(values)} dice given; "
                  "give exactly the dice it rolls (nothing was written)")
        savefile.write(savefile.save(game), out)
    except RuleError as exc:
        _fail(f"refused: {exc.message} [rule {exc.rule}]")
    except DiceError as exc:
        if dice is None and isinstance(game.dice, ScriptedDice):
            # A scripted game rolls only the dice given with the action that rolls them.
            _fail(f"{exc}; give this action's dice with --dice, e.g. --dice 3,6,1 "
                  "(nothing was written)")
        _fail(str(exc))
    except (ValueError, OSError) as exc:
        _fail(str(exc))
    for ev in events:
        shown = ev.for_seat(who)
        if shown is not None:
            typer.echo(json.dumps(shown))


@app.command("show")
def show(file: Path = typer.Argument(..., help="the save file"),
         seat: str = typer.Option(..., "--as", help="whose view: a seat, or referee for "
                                  "everything"),
         as_json: bool = typer.Option(False, "--json", help="the view as JSON"),
         out: Path | None = typer.Option(None, "--out", help="draw the map with the pieces "
                                         "to this .png or .svg file")) -> None:
    """Show the game as a seat (or the referee) sees it: map and pieces, as text or --out.

    Without --out the system's text picture of the view is printed (a map as text
    with the blocks on it, then a line per block); --out draws it to a .png or .svg."""
    from gettysburg import systems as registry

    game = _load(file)
    who = _seat(game, seat)
    view = game.view(who)
    if not game.is_terminal() and not as_json:  # --json is for programs
        _trust_notice()  # what this view hides, the file itself shows
    if as_json:
        typer.echo(json.dumps(view))
        return
    declared = registry.find(game.setup.system)
    if out is not None:
        draw = declared.view_picture if declared is not None else None
        if draw is None:
            _fail(f"{game.setup.system} draws no picture of a game; leave out --out")
        try:
            typer.echo(f"wrote {draw(view, out)}")
        except (ValueError, OSError) as exc:
            _fail(str(exc))
        return
    picture = declared.view_text if declared is not None else None
    if picture is not None:  # the system's own picture of a view
        typer.echo(picture(view))
    else:
        _show_any(view)
    if game.is_terminal():
        result = game.result() or {}
        winner = result.get("winner")
        rest = ", ".join(f"{k} {v}" for k, v in result.items()
                         if k != "winner" and not isinstance(v, dict | list))
        typer.echo(f"Game over: {f'{winner} wins' if winner else 'a draw'}"
                   + (f" ({rest})" if rest else ""))
    else:
        typer.echo(f"To move: {', '.join(game.to_move())}")


# View fields `show` leaves out: the seat is the --as given, the rest are repeated below.
_NOT_SHOWN = {"seat", "to_move", "legal_actions", "result"}


def _show_any(view: dict[str, Any]) -> None:
    """A view of a system `show` knows nothing of: its plain fields on one line, then a
    line per entry of each table in it (``blocks: r1 side red, strength 3``)."""
    plain = {k: v for k, v in view.items()
             if k not in _NOT_SHOWN and not isinstance(v, dict | list)}
    typer.echo(" · ".join(f"{k} {v}" for k, v in plain.items()))
    for key, value in view.items():
        if key in _NOT_SHOWN or not isinstance(value, dict | list) or not value:
            continue
        typer.echo(f"{key}:")
        entries = value.items() if isinstance(value, dict) else enumerate(value)
        for name, entry in entries:
            shown = (", ".join(f"{k} {v}" for k, v in entry.items())
                     if isinstance(entry, dict) else json.dumps(entry))
            typer.echo(f"  {name!s:12} {shown}")


@app.command("replay")
def replay(file: Path = typer.Argument(..., help="the save file"),
           verify: bool = typer.Option(True, "--verify/--no-verify",
                                       help="re-check every die, state hash and link")
           ) -> None:
    """Replay a save file; with --verify every die, state hash and link is checked."""
    from gettysburg.core import savefile

    try:
        model = savefile.load(file)
        with _beside(file):
            problem = savefile.check(model) if verify else None
            if problem is not None:
                typer.echo(_about(file, str(problem)), err=True)
                raise typer.Exit(code=1)
            game = savefile.replay(model, verify=verify)
    except (savefile.SaveFileError, savefile.ReplayError) as exc:
        typer.echo(_about(file, str(exc)), err=True)
        raise typer.Exit(code=1) from None
    done = "verified" if verify else "replayed without checking dice, hashes or links"
    agreed = ""
    if model.commit_reveal is not None:
        agreed = f"; seed agreed by commit and reveal of {', '.join(model.commit_reveal.seats)}"
    # The last link commits to every move before it: a player keeps it to catch a save
    # cut back to an earlier move (docs/protocol.md, "Save files").
    last = model.moves[-1].link if model.moves else model.genesis
    typer.echo(f"{file}: {len(game.history)} moves {done}; state {game.state_hash()[:16]}…"
               + agreed + f"; last link {last}")


def _about(file: Path, problem: str) -> str:
    """``problem`` about ``file``, naming the file once."""
    return problem if problem.startswith(str(file)) else f"{file}: {problem}"
