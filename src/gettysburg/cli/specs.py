"""How commands read a scenario argument: ``SYSTEM/SCENARIO``, a bare scenario name some
registered system lists, or a scenario file (YAML).

Rule systems are known only through the registry (:mod:`gettysburg.systems`): a bare name
belongs to the first system whose menu lists it; a file belongs to the system it names
(a ``system:`` field, or an ``id`` of the form ``SYSTEM/NAME``), else to ``--system``,
else to the first registered system that can set it up.
"""

from __future__ import annotations

from pathlib import Path

# The registry, the protocol and PyYAML are imported by the functions that use them: a
# command that reads no scenario argument (``game legal``) never loads them (issue 59).


class SpecError(ValueError):
    """A scenario argument no rule system can be found for; the message says what to give."""


def is_file(scenario: str) -> bool:
    """Whether the argument names a scenario file rather than a scenario of a menu."""
    p = Path(scenario)
    return p.suffix in (".yaml", ".yml") or p.exists()


def _named_in(path: Path) -> str | None:
    """The registered system a scenario file names of itself, if any."""
    import yaml

    from gettysburg import systems as registry

    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None  # the system that loads it will say what is wrong
    if not isinstance(raw, dict):
        return None
    for named in (raw.get("system"), str(raw.get("id") or "").partition("/")[0]):
        if isinstance(named, str) and named in registry.names():
            return named
    return None


def system_of_file(path: Path, system: str | None = None) -> str:
    """The system of the scenario file at ``path``: the one it names, else ``system``
    (``--system``), else the first registered system that sets it up."""
    from gettysburg import systems as registry
    from gettysburg.core.protocol import setup_seats

    named = _named_in(path)
    if named is not None:
        if system is not None and system != named:
            raise SpecError(f"{path} is a scenario of {named}, not of --system {system}")
        return named
    if system is not None:
        if registry.find(system) is None:
            raise SpecError(f"--system {system!r} is not a registered rule system; known: "
                            f"{', '.join(registry.names())}")
        return system
    for name in registry.names():
        try:
            setup_seats(f"{name}/{path.resolve()}")
        except Exception:  # not this system's file: try the next one
            continue
        return name
    raise SpecError(f"no registered rule system can set up {path}; give --system "
                    f"({', '.join(registry.names())})")


def scenario_spec(scenario: str, system: str | None = None) -> str:
    """``SYSTEM/SCENARIO`` as is; a bare name becomes that of the first system that lists
    it (``day2``); a scenario file (or any file that exists) becomes ``SYSTEM/<absolute
    path>``, the form ``new_game`` takes. ``system`` is ``--system``: the system of a
    bare name or of a file that does not say. Raises :class:`SpecError`."""
    if is_file(scenario):
        path = Path(scenario)
        return f"{system_of_file(path, system)}/{path.resolve()}"
    if "/" in scenario:
        return scenario
    if system is not None:
        return f"{system}/{scenario}"
    from gettysburg import systems as registry

    found = registry.system_of_scenario(scenario)
    if found is None:
        listed = [f"{s.name}/{n}" for s in registry.all_systems() for n in s.menu().scenarios]
        raise SpecError(f"no rule system lists a scenario {scenario!r} (listed: "
                        f"{', '.join(listed)}); give SYSTEM/SCENARIO or a scenario file")
    return f"{found}/{scenario}"


def system_and_scenario(spec: str) -> tuple[str, str]:
    """``SYSTEM/SCENARIO`` split in two (the scenario may itself be a path)."""
    system, _, scenario = spec.partition("/")
    return system, scenario


def default_scenario() -> str:
    """The first scenario of the first system the lobby lists (``game commit``'s
    default)."""
    from gettysburg import systems as registry

    for declared in registry.all_systems(listed_only=True) or registry.all_systems():
        for name in declared.menu().scenarios:
            return f"{declared.name}/{name}"
    raise SpecError("no registered rule system lists a scenario")
