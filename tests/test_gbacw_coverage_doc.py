"""docs/gbacw-rules-coverage.md against the seeds' sections and the code (issue 52).

The list of sections is data beside this test (tests/data/gbacw_sections.txt, written by
tools/gbacw_sections.py), because CI runs on a fresh clone where the seeds are not at any
path relative to the checkout. When the seeds are on this machine the list is checked
against a fresh extraction too.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "gbacw-rules-coverage.md"
SECTIONS = Path(__file__).resolve().parent / "data" / "gbacw_sections.txt"
TOOL = ROOT / "tools" / "gbacw_sections.py"
SEEDS = Path(os.environ.get("GBACW_SEEDS", "/work/shared/seeds"))

# A table row whose first cell is a section: "| 9.53 |" (002) or "| tdg.9.76 |" (004).
ROW = re.compile(r"^\|\s*((?:tdg\.)?\d{1,2}\.\d{1,3})\s*\|")
CODE = re.compile(r"`([a-z_][a-z_.]*)::([A-Za-z_][A-Za-z_.]*)`")
TEST_FILE = re.compile(r"`(test_[a-z0-9_]+\.py)`")
TEST_FUNCTION = re.compile(r"`(test_[a-z0-9_]+\.py)::(test_[a-z0-9_]+)`")
STATUS = re.compile(r"^(\*\*(done|module|partial)\*\*|not yet \(#5[234]|n/a)")


def listed_sections() -> list[str]:
    """The section ids of the data file ("9.53", "tdg.9.76")."""
    out = []
    for line in SECTIONS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            seed, number = line.split()
            assert seed in ("002", "004"), line
            assert number.startswith("tdg.") == (seed == "004"), line
            out.append(number)
    return out


def doc_rows() -> dict[str, list[str]]:
    """Section id -> the cells of its row in the document."""
    rows: dict[str, list[str]] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            assert match.group(1) not in rows, f"{match.group(1)} has two rows"
            rows[match.group(1)] = [c.strip() for c in line.strip().strip("|").split("|")]
    return rows


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gbacw_sections", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_section_of_the_seeds_is_a_row_and_no_other() -> None:
    listed = listed_sections()
    assert len(listed) == len(set(listed))
    rows = doc_rows()
    assert [s for s in listed if s not in rows] == []
    assert [s for s in rows if s not in set(listed)] == []
    # both seeds are there, 002 from its introduction to fatigue's last section
    assert {"1.0", "9.53", "17.42", "tdg.9.76", "tdg.18.0"} <= set(listed)


def test_every_row_has_a_known_status_and_says_why_when_partial() -> None:
    for section, cells in doc_rows().items():
        assert len(cells) == 5, section
        status = cells[2]
        assert STATUS.match(status), f"{section}: status {status!r}"
        if status.startswith("**partial**"):
            assert len(status) > len("**partial**: "), f"{section}: partial without a note"
        if status.startswith(("**done**", "**module**")):
            assert cells[3] != "—", f"{section}: {status} names no code"
            assert cells[4] != "—", f"{section}: {status} names no test"


def test_every_function_the_doc_names_exists() -> None:
    named = sorted(set(CODE.findall(DOC.read_text(encoding="utf-8"))))
    assert len(named) > 100
    missing = []
    for module, attr in named:
        obj: object = importlib.import_module(f"gettysburg.gbacw.{module}")
        for part in attr.split("."):
            if not hasattr(obj, part):
                missing.append(f"{module}::{attr}")
                break
            obj = getattr(obj, part)
    assert missing == []


def test_every_test_file_the_doc_names_exists() -> None:
    named = sorted(set(TEST_FILE.findall(DOC.read_text(encoding="utf-8"))))
    assert "test_gbacw_movement.py" in named
    assert [n for n in named if not (ROOT / "tests" / n).is_file()] == []


def test_every_test_function_the_doc_names_exists() -> None:
    """The worked-examples table names tests as `file::function`."""
    named = sorted(set(TEST_FUNCTION.findall(DOC.read_text(encoding="utf-8"))))
    assert len(named) > 30
    missing = [f"{f}::{t}" for f, t in named
               if not re.search(rf"^def {t}\(", (ROOT / "tests" / f).read_text(encoding="utf-8"),
                                re.MULTILINE)]
    assert missing == []


def test_the_extraction_copes_with_the_ocr() -> None:
    """Noise before a heading, a heading a line early, cross-references and a word before a
    number from the next chapter (the cases met in seed 002)."""
    text = "\n".join([
        "7.0 Encaramiento", "7.31 Una unidad puede", "7.3 Rechazar Flancos",
        "10.43]. Todos los resultados", "3.5 y W es mas bajo", "Ew | 7.32 Solo las unidades",
        "8.1 Limites", "8.21 Durante una Fase", "Ver 9.31 para los Lideres",
        "8.22 Una unidad de combate", "11.53. Procedimiento", "9.1 Asignacion", "Fin",
    ])
    assert load_tool().sections(text, "Fin") == [
        "7.0", "7.3", "7.31", "7.32", "8.1", "8.21", "8.22", "9.1"]


def test_the_list_matches_a_fresh_extraction_from_the_seeds() -> None:
    if not any(SEEDS.glob("002_*.txt")) or not any(SEEDS.glob("004_*.txt")):
        pytest.skip(f"the seeds are not at {SEEDS} (set GBACW_SEEDS); the shipped list is "
                    "checked by the other tests")
    lines = [f"{p} {n}" for p, n in (line.split() for line in
                                      SECTIONS.read_text(encoding="utf-8").splitlines()
                                      if line.strip() and not line.startswith("#"))]
    assert load_tool().all_sections(SEEDS) == lines


def _status_kind(status: str) -> str:
    for kind in ("done", "module", "partial"):
        if status.startswith(f"**{kind}**"):
            return kind
    return "not yet" if status.startswith("not yet") else "n/a"


def counted_summary() -> dict[str, list[int]]:
    """The summary table as the rows give it: per 002 chapter, 002's total and 004's rules,
    the number of rows and of each status (done, module, partial, not yet, n/a)."""
    kinds = ["done", "module", "partial", "not yet", "n/a"]
    out: dict[str, list[int]] = {}
    for section, cells in doc_rows().items():
        keys = ["004"] if section.startswith("tdg.") else [
            f"002 ch. {section.split('.')[0]}", "002 total"]
        for key in keys:
            counts = out.setdefault(key, [0] * 6)
            counts[0] += 1
            counts[1 + kinds.index(_status_kind(cells[2]))] += 1
    return out


def test_the_summary_table_counts_the_rows() -> None:
    """The summary's figures are the rows' statuses counted (kept true by this test)."""
    printed: dict[str, list[int]] = {}
    summary = DOC.read_text(encoding="utf-8").split("## Summary", 1)[1].split("\n## ", 1)[0]
    for line in summary.splitlines():
        cells = [c.strip().strip("*") for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[1].isdigit():
            match = re.match(r"(002 ch\. \d+|002 total|004)", cells[0])
            assert match, line
            printed[match.group(1)] = [int(c) for c in cells[1:]]
    assert printed == counted_summary()
