"""Badges of Courage doctrine weights tuned against the general (``data/tuned_styles.yaml``).

The file holds, per seat and scenario, the ``doctrine.Style`` weights that
``experiments/style_tuning.py`` found to play better against the ``general`` than the
general's own style there, with where each set came from. They are the doctrine of the
preset ``general-tuned`` (the declaration's doctrine variant "tuned", docs/ai.md); the
general itself keeps its own styles, so it stays the fixed opponent the tuning and every
measurement are made against.

An entry names only the weights that differ from the general's style for that seat and
scenario (``general_style``); the rest are the general's. An entry may name the ``days`` of
a multi-day scenario it plays (the battle, 9.5); there it comes before an entry of the same
seat and scenario without days. The file is checked when read: a weight that is not a
``Style`` field, a whole-number weight given a fraction, a seat, scenario and day given
twice are refused with the entry and field named.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError

from gettysburg.boc.ai.doctrine import BocDoctrine
from gettysburg.boc.ai.style import Style, StyleKey, general_style

TUNED_FILE = Path(__file__).resolve().parent.parent / "data" / "tuned_styles.yaml"
#: The weights an entry may set: every ``Style`` field.
WEIGHTS = {f.name: f.type for f in fields(Style)}
_WHOLE = frozenset(name for name, kind in WEIGHTS.items() if kind in (int, "int"))
#: Weights that are switches (``final_turn_command``): true or false, never a number.
_SWITCHES = frozenset(name for name, kind in WEIGHTS.items() if kind in (bool, "bool"))


class TunedStylesError(ValueError):
    """The tuned styles file is wrong; the message names the file, entry and field."""


class TunedEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: Literal["usa", "csa"]
    scenario: str
    #: The days of the scenario the entry plays (as views number them); None: every day.
    days: list[Annotated[int, Field(ge=1, le=3)]] | None = None
    weights: dict[str, StrictBool | float]
    source: str


class TunedFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    styles: list[TunedEntry]


def parse_tuned(raw: object, where: str = "tuned styles") -> dict[StyleKey, Style]:
    """The styles of a tuned styles document, by (seat, scenario) or, for an entry with
    days, (seat, scenario, day), each the general's style there with the entry's
    weights."""
    try:
        doc = TunedFile.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        place = ".".join(str(p) for p in first["loc"])
        raise TunedStylesError(f"{where}: {place}: {first['msg']}") from None
    out: dict[StyleKey, Style] = {}
    for k, entry in enumerate(doc.styles):
        keys: list[StyleKey] = ([(entry.seat, entry.scenario)] if entry.days is None else
                                [(entry.seat, entry.scenario, d) for d in entry.days])
        name = f"{where}: styles.{k} ({entry.seat}, {entry.scenario})"
        for j, key in enumerate(keys):
            if key in out or key in keys[:j]:
                day = f" day {key[2]}" if len(key) == 3 else ""
                raise TunedStylesError(f"{name}: seat and scenario{day} given twice")
        changes: dict[str, Any] = {}
        for field, value in entry.weights.items():
            if field not in WEIGHTS:
                raise TunedStylesError(f"{name}: weights.{field}: not a Style weight; have "
                                       f"{sorted(WEIGHTS)}")
            if (field in _SWITCHES) != isinstance(value, bool):
                want = "true or false" if field in _SWITCHES else "a number"
                raise TunedStylesError(f"{name}: weights.{field}: {want}, not {value!r}")
            if field in _SWITCHES:
                changes[field] = value
            elif field in _WHOLE:
                if value != int(value):
                    raise TunedStylesError(f"{name}: weights.{field}: a whole number, not "
                                           f"{value}")
                changes[field] = int(value)
            else:
                changes[field] = float(value)
        style = replace(general_style(entry.seat, entry.scenario), **changes)
        out.update(dict.fromkeys(keys, style))
    return out


@cache
def load_tuned(path: Path = TUNED_FILE) -> Mapping[StyleKey, Style]:
    """The tuned styles of ``path`` (the shipped file by default), read once."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise TunedStylesError(f"{path}: {exc}") from None
    return parse_tuned(raw, str(path))


def tuned_doctrine(path: Path = TUNED_FILE) -> BocDoctrine:
    """The doctrine that plays the tuned style where the file has one, the general's
    own elsewhere."""
    return BocDoctrine(styles=load_tuned(path))
