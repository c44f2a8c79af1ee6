"""``gettysburg map``: build and draw a rule system's map, through the registry of
systems (each declares its map hooks); ``--system ground`` draws the battlefield model."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer

if TYPE_CHECKING:
    from gettysburg.core.system import RuleSystem

app = typer.Typer(help="Build and draw game maps derived from the battlefield model.")
GROUND = "ground"  # the battlefield model itself, no grid: not a rule system

# What each map hook does, for the messages that say a system lacks it.
_DOES = {
    "build": "re-derive",
    "render": "draw",
    "inspect_hex": "ask about a hex",
    "inspect_cone": "ask about a firing cone",
    "inspect_los": "ask about a line of sight",
}


def _plain_drawing(declared: RuleSystem) -> Callable[[Path, bool, str | None], Path] | None:
    """For a system that declares a map but no drawing: the core's plain picture of its
    map JSON (``--sheet`` picks the hexes whose ``sheet`` field names it)."""
    builder = declared.map_json
    if builder is None:
        return None

    def draw(out: Path, ids: bool, sheet: str | None) -> Path:
        from gettysburg.core.maprender import render_map  # matplotlib: only when drawing

        doc = builder()
        only = None
        if sheet is not None:
            only = {h["id"] for h in doc.get("hexes", []) if h.get("sheet") == sheet}
            if not only:
                raise ValueError(f"--sheet {sheet!r}: no hex of {declared.title}'s map is "
                                 "on that sheet")
        return render_map(doc, out, ids=ids, only=only, title=declared.title)

    return draw


def _hook_of(declared: RuleSystem, hook: str) -> Callable[..., Any] | None:
    found: Callable[..., Any] | None = getattr(declared.maps, hook)
    if found is None and hook == "render":
        return _plain_drawing(declared)
    return found


def map_hook(system: str | None, hook: str) -> Callable[..., Any]:
    """The map hook ``hook`` (a field of :class:`gettysburg.core.system.MapHooks`) of
    ``system``; with no system, of the first registered system that has it (a system
    with a map JSON and no drawing of its own is drawn plainly). A LookupError with a
    message for the user when there is none."""
    from gettysburg import systems

    if system is None:
        for declared in systems.all_systems():
            found = _hook_of(declared, hook)
            if found is not None:
                return found
        raise LookupError(f"no registered system has a map to {_DOES[hook]}")
    named = systems.find(system)
    if named is None:
        extra = [GROUND] if hook == "render" else []
        raise LookupError(f"unknown system {system!r}; known: "
                          f"{', '.join([*systems.names(), *extra])}")
    found = _hook_of(named, hook)
    if found is None:
        raise LookupError(f"system {system!r} ({named.title}) has no map to {_DOES[hook]}")
    return found


def _fail(msg: str) -> NoReturn:
    from rich.console import Console  # only when there is something to say

    Console(stderr=True).print(msg, style="red", markup=False)
    raise typer.Exit(2)


@app.command("render")
def render(
    out: Path = typer.Option(..., "--out", help="Output file: .svg or .png"),
    system: str | None = typer.Option(
        None, "--system", help="Rule system whose map to draw (default: the first with a "
        "map), or 'ground' for the battlefield model"),
    sheet: str | None = typer.Option(None, "--sheet", help="Only this printed map sheet"),
    ids: bool = typer.Option(True, "--ids/--no-ids", help="Print hex ids"),
) -> None:
    """Draw the map (terrain, roads, streams, slopes, ids, victory hexes, entries)."""
    if out.suffix.lower() not in (".svg", ".png"):
        _fail(f"{out}: the file name must end in .svg or .png")
    if system == GROUND:
        if sheet is not None:
            _fail("--sheet: the battlefield model has no sheets")
        from gettysburg.core.battlefield import load_battlefield
        from gettysburg.core.groundmap import render_ground

        render_ground(load_battlefield(), out)
        typer.echo(str(out))
        return
    try:
        draw = map_hook(system, "render")
        draw(out, ids, sheet)
    except (LookupError, ValueError) as exc:
        _fail(str(exc))
    typer.echo(str(out))


@app.command("build")
def build(
    system: str | None = typer.Option(
        None, "--system", help="Rule system whose map to derive (default: the first with a "
        "map)"),
    out: Path | None = typer.Option(
        None, "--out", help="Where to write (default: the package's own map, which is "
        "rewritten only when the derivation changed it)"),
) -> None:
    """Re-derive the map from the battlefield model and write it as JSON."""
    try:
        made = map_hook(system, "build")()
    except (LookupError, ValueError) as exc:
        _fail(str(exc))
    target = out or made.path
    # The package's map is what every game plays on: leave the file alone (its date,
    # a read-only install) when the derivation gives it back byte for byte.
    if target.exists() and target.read_text() == made.text:
        typer.echo(f"{target}: {made.summary}; unchanged, not rewritten")
        return
    target.write_text(made.text)
    typer.echo(f"{target}: {made.summary}")
