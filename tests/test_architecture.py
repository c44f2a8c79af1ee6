"""The house's shape (docs/architecture.md), checked on the source itself:

* outside the rule-system packages and the one registry (``gettysburg/systems.py``), no
  source file names a rule system;
* no rule-system package imports an outer layer (AI, server, lab, CLI, interop);
* no module imports, directly or through others, a module that imports it back.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from gettysburg import systems

SRC = Path(__file__).resolve().parent.parent / "src" / "gettysburg"
#: Rule systems shipped or planned: their names may appear only inside their packages.
SYSTEM_WORDS = re.compile(r"boc|gbacw|machango", re.IGNORECASE)
OUTER_LAYERS = ("gettysburg.ai", "gettysburg.server", "gettysburg.lab", "gettysburg.cli",
                "gettysburg.interop")
TEXT_SUFFIXES = {".py", ".js", ".css", ".html", ".json", ".yaml", ".md", ".txt"}


def _system_packages() -> set[str]:
    """The packages of the registered systems (and those of systems still to come)."""
    return set(systems.names()) | {"gbacw", "machango"}


def _module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if "egg-info" not in str(p))


def _imports(path: Path, known: set[str]) -> set[str]:
    """The project modules ``path`` imports anywhere in it (functions included)."""
    tree = ast.parse(path.read_text("utf-8"))
    me = _module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for a in node.names:
                full = f"{base}.{a.name}"
                out.add(full if full in known else base)
    return {m for m in out if m in known and m != me}


def test_no_outer_source_names_a_rule_system() -> None:
    inside = {SRC / name for name in _system_packages()} | {SRC / "systems.py"}
    offenders: list[str] = []
    for path in sorted(SRC.rglob("*")):
        if not path.is_file() or path.suffix not in TEXT_SUFFIXES or "egg-info" in str(path):
            continue
        if any(path == p or p in path.parents for p in inside):
            continue
        for n, line in enumerate(path.read_text("utf-8", errors="replace").splitlines(), 1):
            if SYSTEM_WORDS.search(line):
                offenders.append(f"{path.relative_to(SRC)}:{n}: {line.strip()[:90]}")
    assert not offenders, "rule systems named outside their packages:\n" + "\n".join(offenders)


def test_no_system_package_imports_an_outer_layer() -> None:
    known = {_module_name(p) for p in _sources()}
    bad: list[str] = []
    for path in _sources():
        me = _module_name(path)
        if me.split(".")[1:2] and me.split(".")[1] in _system_packages():
            for m in _imports(path, known):
                if m.startswith(OUTER_LAYERS):
                    bad.append(f"{me} imports {m}")
    assert not bad, "\n".join(bad)


def test_no_import_cycles() -> None:
    known = {_module_name(p) for p in _sources()}
    graph = {_module_name(p): _imports(p, known) for p in _sources()}
    # A package's __init__ importing its own submodules (to register them) is the usual
    # Python shape, not a circle of dependencies: those edges are left out.
    for me, deps in graph.items():
        graph[me] = {d for d in deps if not d.startswith(me + ".")}
    cycles: list[list[str]] = []
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


@pytest.mark.parametrize("name", systems.names())
def test_every_registered_system_declares_itself(name: str) -> None:
    declared = systems.get(name)
    assert declared.name == name and declared.title and declared.seats
    assert declared.menu().scenarios, f"{name} offers no scenario"
    assert len([o for o in declared.ai.opponents() if o.lobby]) <= 4
