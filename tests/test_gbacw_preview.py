"""The web client's fire and shock previews (gbacw/preview.py) on the hand-made skirmish:
each face of the d10 reads the row the engine then rolls (002 §10.17, §11.45), every DRM
comes with its source, and nothing hidden from the seat (the enemy's orders and fatigue,
002 §6, §17.31) changes what it is shown."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from gbacw_skirmish import ARCHER, active_gamble
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.preview import preview
from gettysburg.gbacw.system import SYSTEM


def _fire_to(g: GbacwGame, k: str, enemy: str) -> dict[str, Any]:
    p = preview(g, "usa", k)
    assert p is not None
    return next(f for f in p["fire"] if f["target"] == g.pos.units[enemy].hex)


def test_fire_preview_names_column_drms_and_chances_10_17() -> None:
    g, k, enemy = active_gamble()
    f = _fire_to(g, k, enemy)
    # the column the SP the unit may fire reads (horse holders take some, 002 §14.25)
    assert f["range"] == 1 and f["ammunition"] == "small_arms" and f["column"].startswith("sa-")
    assert next(m["source"] for m in f["modifiers"]) == "range"
    assert all(m["rule"] for m in f["modifiers"])
    assert [r["roll"] for r in f["rows"]] == list(range(10))
    assert sum(c["chance"] for c in f["chances"]) == 100
    assert enemy in f["units"]


@pytest.mark.parametrize("face", [0, 4, 9])
def test_each_face_is_the_row_the_engine_then_rolls_10_17(face: int) -> None:
    g, k, enemy = active_gamble(extra=[face, 9])
    f = _fire_to(g, k, enemy)
    fire = {"type": "fire", "unit": k, "target": g.pos.units[enemy].hex}
    events = g.apply(fire, "usa")
    if [e.type for e in events] == ["fire_declared"]:  # the target may answer (10.42)
        events = g.apply({"type": "hold"}, "csa")
    shot = next(e for e in events if e.type == "fire")
    assert shot.data["roll"] == face
    assert shot.data["result"] == f["rows"][face]["result"]
    assert shot.data["modifiers"] == f["modifiers"]


def test_shock_preview_reads_the_odds_and_rows_the_fight_uses_11_45() -> None:
    """The skirmish's 1:1.5 shock (test_gbacw_shock_engine: 4 SP after the horse holders
    against 6): -1 ratio, -1 no brigadier, -1 Advance orders; a 4 reads modified 1, the
    attacker retreats."""
    g, k, _enemy = active_gamble()
    p = preview(g, "usa", k)
    assert p is not None and p["shock"]
    s = next(x for x in p["shock"] if x["action"]["shocks"][0]["attackers"] == [k])
    part = s["parts"][0]
    assert part["ratio"] == "1:1.5"
    assert {m["id"] for m in part["modifiers"]} >= {"ratio", "no-brigadier",
                                                    "attacker-advance-orders"}
    assert part["drm"] == sum(m["value"] for m in part["modifiers"])
    assert part["rows"][4]["result"] == "attacker-retreats"
    assert part["rows"][5]["result"] == "standoff"
    assert sum(c["chance"] for c in part["chances"]) == 100
    # the engine's own roll of that shock reads the row the preview gave for its face
    g.apply(s["action"], "usa")
    ev = []
    while g.pos.pending is not None and g.pos.pending["kind"] == "shock":
        ev += g.apply({"type": "stand"}, "csa")
    resolved = next(e for e in ev if e.type == "shock_resolved")
    face = resolved.data["roll"]["roll"]
    assert resolved.data["roll"]["row"] == part["rows"][face]["result"]
    assert resolved.data["roll"]["drms"] == part["modifiers"]


def test_hidden_orders_and_fatigue_change_nothing_shown() -> None:
    g, k, _enemy = active_gamble()
    seen = preview(g, "usa", k)
    other = copy.deepcopy(g)
    b = other.pos.brigades[ARCHER]
    b.orders, b.fatigue = "march", 3
    assert preview(other, "usa", k) == seen


def test_nothing_for_the_enemy_or_out_of_turn() -> None:
    g, k, enemy = active_gamble()
    assert preview(g, "csa", enemy) is None  # not the CSA's decision now
    assert preview(g, "csa", k) is None  # not the CSA's unit
    assert preview(g, "usa", "nobody") is None
    assert SYSTEM.preview is not None and SYSTEM.preview(g, "usa", k) == preview(g, "usa", k)
