"""The table of BoC action types (``boc/actions.py``): what validate refuses by the table
before any rule is asked, that legal_actions writes the fields the table lists in its
order, that the action codec follows the table, and that the docs list the same fields."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from gettysburg.boc import action_codec
from gettysburg.boc.actions import ACTION_TYPES, BY_NAME, FIELD_KINDS, ActionType, Field
from gettysburg.boc.game import ACTION_ORDER, BocGame
from gettysburg.core.protocol import RULE_ACTION, Game, RuleError, new_game

ROOT = Path(__file__).resolve().parents[1]
REPLAY = Path(__file__).parent / "data" / "boc_engine_replay.json"

#: A well-shaped value of each kind of field, and one of the wrong shape.
GOOD: dict[str, Any] = {"unit": "usa-meade", "pair": ["usa-meade", "usa-buford"],
                        "hex": "Q10", "near": "Q10", "reach": "Q10", "entry": "Q10",
                        "path": ["Q10", "R11"], "road": "Baltimore Pike", "corps": "I",
                        "fight": "gregg", "bool": True, "steps": 1}
BAD: dict[str, Any] = {"unit": 5, "pair": ["usa-meade"], "hex": "", "near": ["Q10"],
                       "reach": None, "entry": 7, "path": [], "road": False, "corps": 1,
                       "fight": {}, "bool": "yes", "steps": True, "word": "hex"}


def good(f: Field) -> Any:
    return f.words[0] if f.kind == "word" else GOOD[f.kind]


def shaped(t: ActionType) -> dict[str, Any]:
    return {"type": t.name, **{f.name: good(f) for f in t.fields}}


def fingerprint(game: Game) -> tuple[str, int, int, int]:
    return game.state_hash(), game.dice.counter, len(game.log), len(game.history)


def refusal(game: Game, action: dict[str, Any]) -> RuleError:
    seat = game.to_move()[0]
    before = fingerprint(game)
    with pytest.raises(RuleError) as err:
        game.apply(action, seat)
    assert fingerprint(game) == before, f"{action} was refused but changed the game"
    return err.value


@pytest.fixture(scope="module")
def fresh() -> Game:
    return new_game("boc/day1", seed=4)


def recorded_moves() -> list[tuple[str, str, dict[str, Any]]]:
    data = json.loads(REPLAY.read_text(encoding="utf-8"))
    return [(g["scenario"], seat, a) for g in data["games"] for seat, a in g["moves"]]


def test_every_row_has_its_own_name_and_fields_of_known_kinds() -> None:
    assert len(BY_NAME) == len(ACTION_TYPES), "two rows share a name"
    for t in ACTION_TYPES:
        names = [f.name for f in t.fields]
        assert len(set(names)) == len(names), t.name
        assert all(f.kind in FIELD_KINDS for f in t.fields)
    with pytest.raises(ValueError, match="unknown kind"):
        Field("unit", "soldier")


def test_an_unknown_type_is_refused_naming_the_known_ones(fresh: Game) -> None:
    err = refusal(fresh, {"type": "teleport", "unit": "usa-meade"})
    assert err.rule == RULE_ACTION
    assert "'teleport'" in err.message
    assert all(name in err.message for name in ACTION_ORDER)


@pytest.mark.parametrize("name", [t.name for t in ACTION_TYPES if t.fields])
def test_a_missing_or_wrongly_typed_field_is_refused_naming_it(fresh: Game, name: str) -> None:
    t = BY_NAME[name]
    for f in t.fields:
        wrong = {**shaped(t), f.name: BAD[f.kind]}
        err = refusal(fresh, wrong)
        assert err.rule == RULE_ACTION and f"{f.name!r}" in err.message, (wrong, err)
        if not f.optional:
            missing = shaped(t)
            del missing[f.name]
            err = refusal(fresh, missing)
            assert err.rule == RULE_ACTION and f"{f.name!r}" in err.message, (missing, err)
            assert "needs" in err.message


@pytest.mark.parametrize("name", ACTION_ORDER)
def test_a_field_the_type_does_not_take_is_refused(fresh: Game, name: str) -> None:
    err = refusal(fresh, {**shaped(BY_NAME[name]), "block": "usa-meade"})
    assert err.rule == RULE_ACTION and "takes no field 'block'" in err.message


def test_hexes_are_refused_unless_spelled_as_the_map_prints_them(fresh: Game) -> None:
    err = refusal(fresh, {"type": "move", "unit": "usa-buford", "path": ["q10", "R11"]})
    assert err.rule == RULE_ACTION and "'Q10'" in err.message
    err = refusal(fresh, {"type": "melee_resolve", "hex": "q10"})
    assert err.rule == RULE_ACTION and "'Q10'" in err.message


def test_legal_actions_carry_the_tables_fields() -> None:
    """Every action of the recorded games (every type but two) has only the fields its
    row lists, the required ones all there, each of its kind."""
    seen = set()
    for _, _, action in recorded_moves():
        t = BY_NAME[action["type"]]
        keys = set(action) - {"type"}
        assert keys <= t.field_names, action
        assert {f.name for f in t.fields if not f.optional} <= keys, action
        assert all(f.problem(action[f.name]) is None for f in t.fields if f.name in keys)
        seen.add(t.name)
    assert len(seen) >= len(ACTION_TYPES) - 2


def test_legal_actions_and_the_codec_follow_the_tables_order() -> None:
    data = json.loads(REPLAY.read_text(encoding="utf-8"))
    checked = 0
    for rec in data["games"]:
        game = new_game(rec["scenario"], seed=rec["seed"], options=rec["options"])
        assert isinstance(game, BocGame)
        lay = action_codec.game_layout(game)
        assert [name for name, _ in lay.sizes] == ACTION_ORDER
        for k, (seat, action) in enumerate(rec["moves"]):
            if k % 7 == 0:  # every seventh position: each type is met often enough
                legal = game.legal_actions(seat)
                if game.decision() is None:  # a decision offers its answers in its order
                    places = [ACTION_ORDER.index(a["type"]) for a in legal]
                    assert places == sorted(places), "legal_actions strays from the table"
                ids = action_codec.encode_actions(game, legal)  # raises on a shared id
                for a, i in zip(legal, ids, strict=True):
                    assert 0 <= i < lay.size
                    assert action_codec.kind_of(game, i) == a["type"]
                checked += len(ids)
            game.apply(action, seat)
    assert checked > 1000


def test_the_codec_sizes_each_block_from_the_fields() -> None:
    game = new_game("boc/day1")
    assert isinstance(game, BocGame)
    lay = action_codec.game_layout(game)
    sizes = dict(lay.sizes)
    u, h = len(lay.units), len(lay.hexes)
    assert sizes["end_phase"] == 1
    assert sizes["move"] == u * h  # the path by its last hex
    assert sizes["activate"] == u * (1 + action_codec.SLOTS)  # "to" may be left out
    assert sizes["melee_retreat"] == u * (h + 1)  # a hex or "off"
    assert sizes["supply"] == u * u  # its steps are always 1: left out
    assert lay.size == sum(sizes.values())


def test_the_docs_list_every_type_with_its_fields() -> None:
    """docs/rules-coverage.md's table of actions says what the table says."""
    text = (ROOT / "docs" / "rules-coverage.md").read_text(encoding="utf-8")
    rows = [line for line in text.split("## Actions", 1)[1].splitlines()
            if line.startswith("| `")]
    for t in ACTION_TYPES:
        row = next((r for r in rows if f"`{t.name}`" in r.split("|")[1]), None)
        assert row is not None, f"{t.name} is missing from the docs' table of actions"
        cell = row.split("|")[2]
        for f in t.fields:
            if not (f.fixed and f.optional):
                assert f"`{f.name}`" in cell, f"docs: {t.name}'s row lacks {f.name}"
        named = set(re.findall(r"`([a-z_]+)`", cell))
        every = {f.name for other in ACTION_TYPES if f"`{other.name}`" in row.split("|")[1]
                 for f in other.fields}
        assert named <= every | {"off", "true", "false", "artillery", "gregg", "kilpatrick"}, \
            f"docs: {t.name}'s row names a field no type on it has: {named - every}"
