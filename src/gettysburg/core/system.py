"""What a rule system declares to the layers above it, in one object.

Each rule system package (``gettysburg.<name>``) has a module ``system`` with a constant
``SYSTEM``, a :class:`RuleSystem`. The one registry of systems
(:mod:`gettysburg.systems`) lists those modules; the server, the lobby, the lab, the
CLI, the AI and the research adapters ask the registry and read these declarations, so
they never name a rule system themselves.

Every part that needs the system's heavier modules is a function called on first use, so
reading a declaration imports nothing but this file's types (the CLI stays quick).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

from gettysburg.core.canonical import JSONDict
from gettysburg.core.doctrine import Doctrine, Memory
from gettysburg.core.protocol import Game, ResearchHooks
from gettysburg.core.search_hooks import SystemHooks

#: How the web client draws a system's pieces: upright blocks (hidden faces), faced
#: counters in stacks, divisions on the positions of a graph, or plain markers.
CounterStyle = Literal["blocks", "counters", "divisions", "markers"]


@dataclass(frozen=True)
class ScenarioMenu:
    """What the lobby and the CLI offer of a system: its scenarios (name -> title, in
    menu order), its options (name -> rule section), which of them each scenario takes
    (absent: all of them) and, for a system whose options are free text, a hint of their
    form."""

    scenarios: dict[str, str]
    options: dict[str, str] = field(default_factory=dict)
    option_hint: str = ""
    scenario_options: dict[str, list[str]] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)  # other spellings -> menu names
    ticked: list[str] = field(default_factory=list)  # options a new game starts ticked
    options_rule: str = ""  # the rule that has each scenario list its options

    def options_problem(self, scenario: str, options: Sequence[str]) -> str | None:
        """Why a new game of ``scenario`` may not take ``options`` (``None`` if it may).

        A scenario may list the optional rules it is played with; a system accepts any
        of its options in any scenario (an option with no place there changes nothing), so
        games stored or saved before such a check still load. Every place that starts a
        new game (the lobby and API, ``game new``, ``simulate``) asks here first."""
        listed = self.scenario_options.get(scenario)
        if not listed:
            return None
        for opt in options:
            if self.aliases.get(opt, opt) not in listed:
                rule = f"rule {self.options_rule}: " if self.options_rule else ""
                return (f"option {opt!r} is not offered by scenario {scenario} ({rule}its "
                        f"sheet lists {listed})")
        return None


@dataclass(frozen=True)
class Opponent:
    """A computer opponent the lobby offers: a preset of one of the generic agents
    (``agent``: ``random``, ``general`` or ``search``) with its settings, kept as data in
    the system's package. ``titles`` and ``descriptions`` are by language (``en`` at
    least); ``thinking_s`` is its typical thinking time a decision, in seconds."""

    name: str
    agent: str
    titles: Mapping[str, str]
    descriptions: Mapping[str, str]
    thinking_s: float = 0.0
    settings: Mapping[str, Any] = field(default_factory=dict)
    lobby: bool = True  # offered in the lobby (else only by name, in the lab)
    #: Retired agent names that now build this preset (rows and stored games name them).
    aliases: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        return self.titles.get("en") or self.name

    @property
    def description(self) -> str:
        return self.descriptions.get("en", "")


#: The generic agents a preset may build on (:mod:`gettysburg.ai`).
AGENT_KINDS = ("random", "general", "search")
#: Languages every opponent's title and description is written in (the lobby's).
LANGUAGES = ("en", "es", "de", "it")


class PresetError(ValueError):
    """A malformed opponents file; the message names the file, the entry and the field."""


def load_opponents(path: Path) -> tuple[Opponent, ...]:
    """The opponent presets of a YAML file (a list of entries with ``name``, ``agent``,
    ``titles``, ``descriptions``, optional ``settings``, ``thinking_s``, ``lobby`` and
    ``aliases``), each checked: a known agent kind, every language written, no field
    unknown, no name or alias given twice."""
    try:
        raw = yaml.safe_load(path.read_text("utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise PresetError(f"{path}: cannot read: {exc}") from exc
    if not isinstance(raw, list):
        raise PresetError(f"{path}: expected a list of opponents")
    out: list[Opponent] = []
    allowed = {"name", "agent", "titles", "descriptions", "settings", "thinking_s", "lobby",
               "aliases"}
    for k, entry in enumerate(raw):
        where = f"{path}: opponent {k}"
        if not isinstance(entry, dict):
            raise PresetError(f"{where}: expected a mapping")
        where = f"{path}: opponent {entry.get('name', k)!r}"
        unknown = sorted(set(entry) - allowed)
        if unknown:
            raise PresetError(f"{where}: unknown field(s) {unknown}")
        name, agent = entry.get("name"), entry.get("agent")
        if not isinstance(name, str) or not name:
            raise PresetError(f"{where}: field 'name' must be a non-empty string")
        if agent not in AGENT_KINDS:
            raise PresetError(f"{where}: field 'agent' must be one of {list(AGENT_KINDS)}")
        texts: dict[str, dict[str, str]] = {}
        for key in ("titles", "descriptions"):
            got = entry.get(key)
            if not isinstance(got, dict) or any(
                    not isinstance(got.get(lang), str) or not got.get(lang)
                    for lang in LANGUAGES):
                raise PresetError(f"{where}: field {key!r} needs a text for each of "
                                  f"{list(LANGUAGES)}")
            texts[key] = {str(lang): str(text) for lang, text in got.items()}
        settings = entry.get("settings") or {}
        if not isinstance(settings, dict):
            raise PresetError(f"{where}: field 'settings' must be a mapping")
        thinking = entry.get("thinking_s", 0.0)
        if isinstance(thinking, bool) or not isinstance(thinking, int | float) or thinking < 0:
            raise PresetError(f"{where}: field 'thinking_s' must be a number >= 0")
        lobby = entry.get("lobby", True)
        if not isinstance(lobby, bool):
            raise PresetError(f"{where}: field 'lobby' must be true or false")
        aliases = entry.get("aliases") or []
        if not isinstance(aliases, list) or any(not isinstance(a, str) or not a
                                                for a in aliases):
            raise PresetError(f"{where}: field 'aliases' must be a list of names")
        taken = {n for o in out for n in (o.name, *o.aliases)}
        if name in taken or name in aliases or taken & set(aliases) \
                or len(set(aliases)) < len(aliases):
            raise PresetError(f"{where}: a name or alias is used twice")
        out.append(Opponent(name, str(agent), texts["titles"], texts["descriptions"],
                            float(thinking), dict(settings), lobby, tuple(aliases)))
    return tuple(out)


def words_file(path: Path) -> Callable[[str], Mapping[str, str]]:
    """A system's ``words`` read from a JSON file of ``{lang: {key: text}}`` (read once, on
    first use); a language the file lacks gets its English."""
    cache: dict[str, dict[str, str]] = {}

    def words(lang: str) -> Mapping[str, str]:
        if not cache:
            import json

            cache.update(json.loads(path.read_text("utf-8")))
        return dict(cache.get(lang) or cache["en"])

    return words


@dataclass(frozen=True)
class AIHooks:
    """What the generic agents need of a system: its doctrine (how good play scores each
    legal action), the memory one seat's agent keeps, search's hooks (worlds sampled from a
    view, the value of a world...), and its opponent presets, easiest first."""

    doctrine: Callable[[], Doctrine] | None = None
    memory: Callable[[], Memory] | None = None
    search: Callable[[Memory | None], SystemHooks] | None = None
    opponents: Callable[[], Sequence[Opponent]] = tuple
    #: Named variants of the doctrine a preset may play as its own (the ``doctrine``
    #: setting of ``general``, such as weights tuned against the general).
    doctrines: Callable[[], Mapping[str, Doctrine]] = dict


@dataclass(frozen=True)
class LabHooks:
    """What the lab (``gettysburg simulate`` and ``report``) reads of a system's games
    beyond the protocol, each part optional: ``clock`` names the turn a view is in (a new
    name starts a new turn, such as "Day 1 8 AM"), ``standing`` the running score a view
    shows (tracked turn by turn), ``score`` a finished game's score from its result (a
    row's ``vp``), ``losses`` the pieces each seat has lost, from the referee's view, and
    ``formation`` the formation a piece belongs to (the losses plot's bars). The labels
    name the score and the losses on the report's plots."""

    clock: Callable[[JSONDict], str | None] | None = None
    standing: Callable[[JSONDict], float | None] | None = None
    score: Callable[[JSONDict], float | None] | None = None
    losses: Callable[[JSONDict], dict[str, list[str]]] | None = None
    formation: Callable[[str], str] | None = None
    score_label: str = "score"
    losses_label: str = "pieces lost per game, by formation"


@dataclass(frozen=True)
class MapBuild:
    """A map re-derived from the ground: the file's text, where the package keeps it, and
    a short line saying what it holds (``259 hexes, 713 hexsides``)."""

    text: str
    path: Path
    summary: str


@dataclass(frozen=True)
class MapHooks:
    """What the ``map`` and ``inspect`` commands may ask of a system's map; each is
    optional (absent: the command says the system has no such thing). Every hook raises
    ``ValueError`` naming the bad hex id or option. ``render(out, ids, sheet)`` draws the
    map (or one printed sheet of it) to a .svg or .png file; ``inspect_hex(id)``,
    ``inspect_cone(origin, through)`` and ``inspect_los(origin, target, through)`` answer
    as JSON objects."""

    build: Callable[[], MapBuild] | None = None
    render: Callable[[Path, bool, str | None], Path] | None = None
    inspect_hex: Callable[[str], JSONDict] | None = None
    inspect_cone: Callable[[str, str], JSONDict] | None = None
    inspect_los: Callable[[str, str, str | None], JSONDict] | None = None


@dataclass(frozen=True)
class RuleSystem:
    """A rule system as the outer layers see it.

    ``seats`` names each seat for people (``{"red": "Red"}``), in play order;
    ``menu`` lists scenarios and options; ``map_json`` gives the drawing data of its
    map (with its ``topology``: ``hex`` or ``graph``, see ``docs/maps.md``);
    ``counters`` says how the client draws pieces; ``roster`` gives every piece's printed
    name by id and ``is_handle`` recognises a hidden piece's opaque handle (the log then
    says "a hidden piece"); ``research`` gives the OpenSpiel/PettingZoo hooks.
    ``listed`` false keeps a system (the toy) out of the lobby but in every other layer.
    ``capabilities`` are free words the layers may test (``"undo"``, ``"research"``...).
    """

    name: str
    title: str
    seats: Mapping[str, str]
    menu: Callable[[], ScenarioMenu]
    counters: CounterStyle = "markers"
    map_json: Callable[[], JSONDict] | None = None
    roster: Callable[[], dict[str, str]] | None = None
    is_handle: Callable[[str], bool] | None = None
    research: Callable[[], ResearchHooks] | None = None
    ai: AIHooks = field(default_factory=AIHooks)
    listed: bool = True
    capabilities: frozenset[str] = frozenset()
    # The lab's reading of a game (absent: rows and reports give only what the protocol
    # tells); the command line's text pictures of a view and of a scenario (absent: the
    # CLI prints their plain fields). ``scenario_doc`` raises ValueError naming the problem.
    lab: LabHooks | None = None
    view_text: Callable[[JSONDict], str] | None = None
    # A picture of a view (the map with the pieces the view shows) written to a .png or
    # .svg file, for ``game show --out``; raises ValueError naming a bad file name.
    view_picture: Callable[[JSONDict, Path], Path] | None = None
    # Why a seat's piece can do nothing at a place now (the web client asks when a click
    # there finds no legal action): ``explain(game, seat, piece, place)`` gives
    # ``{"rule", "message"}`` in words that show the seat nothing its view does not, or
    # None when it has no answer.
    explain: Callable[[Game, str, str, str], JSONDict | None] | None = None
    # What selecting a piece would set going (the client lights ``lit``, greys ``out``,
    # says ``note`` and, before an action of a kind in ``warn_for``, ``warn``):
    # ``preview(game, seat, piece)``, or None when there is nothing to preview.
    preview: Callable[[Game, str, str], JSONDict | None] | None = None
    # The scenario card of the game a seat's view shows, as the web client draws it:
    # ``card(view, seat)`` gives ``title``, ``rule``, ``start`` and ``end`` (times of day as
    # events give them), ``first`` (a seat), ``victory`` ({rule, measure: a key of the
    # view's ``victory``, bands: [{winner: seat or null, min?, max?}]}), ``options``
    # ([{name, rule}] in force) and ``arrivals`` ([{at, side, entry, hex, count, pieces:
    # printed names or null}]); only what the seat may know.
    card: Callable[[JSONDict, str], JSONDict] | None = None
    scenario_doc: Callable[[str], JSONDict] | None = None
    scenario_text: Callable[[JSONDict], str] | None = None
    # The web client's look of a seat's pieces (seat -> CSS colour; absent: a colour by the
    # seat's place in ``seats``) and its words for the system in a language (catalogue key
    # -> text, e.g. ``seat.<id>`` for a seat's title; absent: the titles in ``seats``).
    colours: Mapping[str, str] = field(default_factory=dict)
    words: Callable[[str], Mapping[str, str]] | None = None
    # The command line's map hooks (``gettysburg map``, ``gettysburg inspect``).
    maps: MapHooks = field(default_factory=MapHooks)
    # A first-game tutorial the lobby offers ("Learn to play"), as data the web client
    # follows: ``scenario`` and ``seed`` (the dice are fixed, so every run tells the same
    # story), the ``seat`` the learner plays, ``other`` (the action types the client plays
    # for the other seat when it must answer, in order of preference) and ``steps``: each
    # ``{id, allow: [partial actions the learner may send; a null value: key absent],
    # done: {event: type} or {phase: name}}``, its words under ``tutorial.<id>.do`` and
    # ``tutorial.<id>.after`` in ``words`` (with ``tutorial.title``, ``tutorial.intro`` and
    # ``tutorial.finished``); optional ``zoom``: how much closer than the whole map it opens.
    # Absent: no tutorial.
    tutorial: Callable[[], JSONDict] | None = None

    def seat_title(self, seat: str) -> str:
        return self.seats.get(seat, seat)
