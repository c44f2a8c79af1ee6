"""Every GBACW rule names its section: each public top-level function of the rule and step
modules of src/gettysburg/gbacw carries, in its docstring, the section it plays ("002 §9.53",
"004 §18.0", "§11.3"), a "tdg" rule id of the battle book or a scenario of 004 ("004 sc.6").
A function that serves several rules names them. Read with ``ast`` (nothing is imported), so
the check is quick and sees the files as written.

Plumbing modules, which hold no rule, are exempt below, each with its reason; PENDING may list
functions of a file another engineer is editing, to be cited when that file is free."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "gettysburg" / "gbacw"

# A section sign with a number ("§9.53", "§ 3.0"), a "tdg" rule id, or one of 004's scenarios.
CITATION = re.compile(r"§\s?\d|\btdg\b|\bsc\.\s?\d", re.IGNORECASE)

# Module (path under the package, "/" separated; a folder ends in "/") -> why it holds no rule.
EXEMPT: dict[str, str] = {
    "ai/": "a player (the general's heuristics), not the rules; it calls the rule functions",
    "charts/": "the charts as data: YAML parsing and band lookups; the rules read them",
    "actions.py": "action shapes; the ACTION_TYPES table names each type's section",
    "board.py": "loads the derived map (hexes, hexsides) from its JSON",
    "catalog.py": "OOB lookups cached for the engine (data, no rule)",
    "mapgen.py": "derives the map from the sheets' pictures and the hex tables",
    "map_hooks.py": "the map/inspect commands and the client's map JSON",
    "render.py": "draws the map sheets",
    "setup_render.py": "draws a scenario's set-up",
    "research.py": "OpenSpiel/PettingZoo id encoding of the actions",
    "oob.py": "the order of battle as validated data (loader and formulas)",
    "scenario.py": "the scenario file format and its loader",
    "scenario_show.py": "prints a scenario for the CLI",
    "explain.py": "the client's refusal note: replays the engine's own check, whose error cites",
    "engine_view.py": "the Protocol the step modules type the game with",
    "system.py": "the rule-system declaration (registry hooks)",
}

# Single functions that serve no rule of their own, with the reason.
EXEMPT_FUNCTIONS: dict[str, str] = {
    "questions.py::action_types": "lists the declared types; actions.ACTION_TYPES cites each one's",
}

# Functions still to cite, by module, while their file is someone else's work in progress
# (say whose in a comment; cite them when the file is free, then drop the entry). Empty: the
# sweep of session 45 cited every one.
PENDING: dict[str, frozenset[str]] = {}


def _exempt(rel: str) -> bool:
    return any(rel == key or (key.endswith("/") and rel.startswith(key)) for key in EXEMPT)


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if not _exempt(p.relative_to(PACKAGE).as_posix()))


def _public_functions(path: Path) -> dict[str, str]:
    """Name -> docstring of the module's public top-level functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return {node.name: ast.get_docstring(node) or "" for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and not node.name.startswith("_")}


def _uncited(path: Path) -> list[str]:
    return [name for name, doc in _public_functions(path).items() if not CITATION.search(doc)]


def test_every_public_rule_function_cites_its_section() -> None:
    """A newcomer finds the rule behind any function: its docstring cites the section."""
    missing = []
    for path in _modules():
        rel = path.relative_to(PACKAGE).as_posix()
        pending = PENDING.get(rel, frozenset())
        missing += [f"{rel}::{name}" for name in _uncited(path)
                    if name not in pending and f"{rel}::{name}" not in EXEMPT_FUNCTIONS]
    assert not missing, ("public functions whose docstring cites no section (002 §x.y, "
                         "004 §x.y, tdg, 004 sc.N):\n  " + "\n  ".join(missing))


def test_the_exempt_and_pending_lists_name_real_modules() -> None:
    """The lists must not rot: each entry names a module (or folder) that exists."""
    for key in EXEMPT:
        assert (PACKAGE / key).exists(), key
    for key in EXEMPT_FUNCTIONS:
        module, _, name = key.partition("::")
        assert name in _public_functions(PACKAGE / module), key
    for key in PENDING:
        assert (PACKAGE / key).is_file(), key


def test_the_citation_pattern_can_fail() -> None:
    """The pattern takes sections, tdg ids and scenarios, and nothing else."""
    for cited in ("002 §9.53", "(§ 3.0)", "tdg.18.0", "004 sc.6"):
        assert CITATION.search(cited), cited
    for bare in ("the rule", "section 9", "§", "tdgx", "scenario 3"):
        assert not CITATION.search(bare), bare
