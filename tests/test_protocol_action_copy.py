"""``check_action`` copies plain actions without encoding and decoding them (issue 59):
the copy, its key order and its types are what the JSON round trip gave, and anything
else (subclasses, tuples of odd things, non-text keys, NaN, huge integers, cycles) is
refused or copied exactly as before, with the same ``RuleError``."""

from __future__ import annotations

import enum
import math
from collections import OrderedDict
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gettysburg.core.canonical import CanonicalError, json_copy
from gettysburg.core.protocol import RULE_ACTION, RuleError, check_action, new_game


def old_check_action(obj: object) -> dict[str, Any]:
    """``check_action`` as it was: the JSON round trip."""
    if not isinstance(obj, dict):
        raise RuleError(RULE_ACTION, f"an action must be a JSON object, not {type(obj).__name__}")
    kind = obj.get("type")
    if not isinstance(kind, str) or not kind:
        raise RuleError(RULE_ACTION, "an action needs a non-empty string 'type'")
    try:
        copy: dict[str, Any] = json_copy(obj)
    except CanonicalError as exc:
        raise RuleError(RULE_ACTION, f"action is not plain JSON: {exc}") from exc
    return copy


class Colour(enum.IntEnum):
    RED = 1


class Text(str):
    pass


class Number(float):
    pass


def _shape(value: object) -> object:
    """The value with its exact types and key order spelled out."""
    if isinstance(value, dict):
        return ("dict", type(value).__name__, [(type(k).__name__, k, _shape(v))
                                               for k, v in value.items()])
    if isinstance(value, list | tuple):
        return (type(value).__name__, [_shape(v) for v in value])
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, value)


def _containers(value: object) -> list[int]:
    if isinstance(value, dict):
        return [id(value)] + [i for v in value.values() for i in _containers(v)]
    if isinstance(value, list):
        return [id(value)] + [i for v in value for i in _containers(v)]
    return []


def _same_as_before(obj: object) -> None:
    try:
        want = old_check_action(obj)
    except RuleError as exc:
        with pytest.raises(RuleError) as got:
            check_action(obj)
        assert (got.value.rule, got.value.message) == (exc.rule, exc.message)
        return
    except (ValueError, RecursionError) as exc:  # not JSON's own errors: the same again
        with pytest.raises(type(exc)):
            check_action(obj)
        return
    got_copy = check_action(obj)
    assert _shape(got_copy) == _shape(want)
    # A copy all the way down: no container of the caller's is handed back.
    assert not set(_containers(got_copy)) & set(_containers(obj))


odd = st.sampled_from([Colour.RED, Text("F4"), Number(1.5), OrderedDict(a=1), float("nan"),
                       float("inf"), -float("inf"), b"x", {1, 2}, 10**30, -(10**18), 10**18,
                       10**18 - 1, -(10**18) + 1, (1, "a"), {1: "x"}, {(1, 2): 3},
                       {"b": 1, "a": 2}, -0.0, "\ud800", True, None])
scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4)
values = st.recursive(scalars | odd,
                      lambda inner: st.lists(inner, max_size=4)
                      | st.lists(inner, max_size=3).map(tuple)
                      | st.dictionaries(st.text(max_size=3), inner, max_size=4),
                      max_leaves=12)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.text(max_size=3), values, max_size=4), st.sampled_from(
    ["move", "", 3, None, Text("fire")]))
def test_actions_are_copied_or_refused_as_before(fields: dict[str, Any], kind: object) -> None:
    _same_as_before({**fields, "type": kind})
    _same_as_before(OrderedDict({**fields, "type": kind}))
    keyed: dict[Any, Any] = {**fields, "type": kind}
    keyed[7] = "seven"
    _same_as_before(keyed)


def test_cycles_and_non_objects_are_refused_as_before() -> None:
    looped: dict[str, Any] = {"type": "move"}
    looped["self"] = looped
    _same_as_before(looped)
    listed: list[Any] = []
    _same_as_before({"type": "move", "path": [listed, listed]})  # one list twice: copied twice
    for bad in (["type", "x"], "move", None, 3, ("type", "move")):
        _same_as_before(bad)
    _same_as_before({"type": "move", "steps": 10**5000})  # too long to print: ValueError


def test_a_malformed_action_leaves_the_game_untouched() -> None:
    """Refused with the message it always had, by ``apply`` and ``apply_unrecorded``,
    with the state as it was."""
    game = new_game("boc/day1", seed=3)
    seat = game.to_move()[0]
    before = game.state_hash()
    malformed: list[Any] = [{"type": "end_phase", "x": float("nan")}, {"type": "end_phase", 1: 2},
                            {"type": "end_phase", "x": {"y": b"z"}}, ["end_phase"],
                            {"type": ""}]
    for bad in malformed:
        for way in (game.apply, game.apply_unrecorded):
            with pytest.raises(RuleError) as err:
                way(bad, seat)
            with pytest.raises(RuleError) as old:
                old_check_action(bad)
            assert (err.value.rule, err.value.message) == (old.value.rule, old.value.message)
            assert game.state_hash() == before
    game.apply({"type": "end_phase"}, seat)  # a plain one is taken
    assert game.state_hash() != before
