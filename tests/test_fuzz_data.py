"""Mutated data files through the BoC loaders (docs/security.md, "bad input").

Scenario and units YAML edited at random (a value replaced by one of another type or range,
a key dropped, an entry duplicated, bytes flipped in the text) must load, or be refused
with a :class:`DataError` naming the file, the entry and the field; never another kind of
exception. A scenario that loads must also set up a game or be refused the same way.
"""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gettysburg.boc.oob import DataError, default_oob, load_units, parse_units
from gettysburg.boc.scenario import SCENARIO_DIR, load_scenario, parse_scenario
from gettysburg.core.protocol import new_game

FUZZ = settings(max_examples=80, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))
UNITS = Path(default_oob().source)
SCENARIOS = sorted(SCENARIO_DIR.glob("*.yaml"))

VALUES = (st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats()
          | st.text(max_size=10) | st.sampled_from(["Q10", "Z99", "usa-meade", "csa-heth",
                                                     "25:00", "8:00", "usa", "both", ""])
          | st.lists(st.integers(-5, 9), max_size=3)
          | st.dictionaries(st.text(max_size=5), st.integers(), max_size=2))


@cache
def raw(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _paths(doc: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a YAML tree (to pick one to damage)."""
    out = [at]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, (*at, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, (*at, i))
    return out


@cache
def places(path: Path) -> list[tuple[Any, ...]]:
    return _paths(raw(path))


def damage(doc: Any, where: tuple[Any, ...], how: int, value: Any) -> Any:
    """A copy of ``doc`` with the node at ``where`` replaced, dropped or duplicated."""
    out = copy.deepcopy(doc)
    if not where:
        return value
    parent = out
    for step in where[:-1]:
        parent = parent[step]
    last = where[-1]
    if how == 0:
        parent[last] = value
    elif how == 1:
        del parent[last]
    elif how == 2 and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))  # the same entry twice
    elif how == 2 and isinstance(parent[last], (int, float)) and not isinstance(
            parent[last], bool):
        parent[last] = -parent[last] - 1  # out of range the other way
    else:
        parent[last] = str(parent[last]) + "x"
    return out


def _assert_names_the_place(exc: DataError, source: str) -> None:
    assert exc.file == source and exc.entry and exc.field and exc.problem, exc
    assert source in str(exc) and exc.field in str(exc)


@FUZZ
@given(pick=st.integers(0, 10**6), how=st.integers(0, 3), value=VALUES)
def test_damaged_units_are_refused_naming_entry_and_field(pick: int, how: int,
                                                          value: Any) -> None:
    where = places(UNITS)[pick % len(places(UNITS))]
    doc = damage(raw(UNITS), where, how, value)
    try:
        oob = parse_units(doc, "units.yaml")
        oob.check_counts()
    except DataError as exc:
        _assert_names_the_place(exc, "units.yaml")


@FUZZ
@given(file=st.sampled_from(SCENARIOS), pick=st.integers(0, 10**6), how=st.integers(0, 3),
       value=VALUES)
def test_damaged_scenarios_are_refused_naming_entry_and_field(
        file: Path, pick: int, how: int, value: Any) -> None:
    where = places(file)[pick % len(places(file))]
    doc = damage(raw(file), where, how, value)
    try:
        parse_scenario(doc, file.name, default_oob())
    except DataError as exc:
        _assert_names_the_place(exc, file.name)


@settings(max_examples=25, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(file=st.sampled_from(SCENARIOS), pick=st.integers(0, 10**6), how=st.integers(0, 3),
       value=VALUES)
def test_a_damaged_scenario_that_loads_sets_up_a_game_or_is_refused(
        tmp_path_factory: pytest.TempPathFactory, file: Path, pick: int, how: int,
        value: Any) -> None:
    where = places(file)[pick % len(places(file))]
    doc = damage(raw(file), where, how, value)
    path = tmp_path_factory.mktemp("sc") / "damaged.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    try:
        new_game(f"boc/{path}", seed=1)
    except DataError as exc:
        _assert_names_the_place(exc, str(path))


@FUZZ
@given(file=st.sampled_from([UNITS, *SCENARIOS]), at=st.integers(0, 10**7),
       cut=st.integers(0, 6), junk=st.binary(max_size=6))
def test_damaged_bytes_are_refused_as_data_errors(tmp_path_factory: pytest.TempPathFactory,
                                                  file: Path, at: int, cut: int,
                                                  junk: bytes) -> None:
    """Bytes flipped in the text (broken YAML, bad UTF-8, a tab in the indentation...)."""
    text = file.read_bytes()
    i = at % (len(text) + 1)
    path = tmp_path_factory.mktemp("bytes") / file.name
    path.write_bytes(text[:i] + junk + text[i + cut:])
    try:
        if file == UNITS:
            load_units(path)
        else:
            load_scenario(path, default_oob())
    except DataError as exc:
        _assert_names_the_place(exc, str(path))


def test_a_file_that_is_not_utf8_or_not_a_file_is_a_data_error(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes("units:\n- id: caf\xe9\n".encode("latin-1"))
    with pytest.raises(DataError, match=r"latin1\.yaml.*UTF-8"):
        load_units(bad)
    with pytest.raises(DataError, match="entry"):
        load_units(tmp_path)  # a directory
