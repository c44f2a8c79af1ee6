"""Random event P's Hero marker played at a UDD (004 §18.0 P, decision E-33): the holder's
standing policy ("save" by default: his own unit's failed UDD that 2 less turns into a pass;
"spoil": an enemy unit's passed UDD that 2 more turns into a fail; "both"; "never"), one
marker per roll, spent only when it changes the outcome. Rolled in the engine on a "d" hex
of the skirmish position (cohesion 7), the d10s scripted."""

from __future__ import annotations

from typing import Any

import pytest

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import lasting
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.udd import bind_hero, udd, unbind_hero
from test_gbacw_movement_checks import alone_in_the_woods


def woods_move(heroes: dict[str, int], roll: int, policy: dict[str, str] | None = None
               ) -> tuple[GbacwGame, str, list[Any]]:
    """Gamble's unit (cohesion 7) moves through B5012's "d" on a scripted ``roll``."""
    g, k = alone_in_the_woods("B4911", 0)
    g.pos.tdg["heroes"] = dict(heroes)
    if policy is not None:
        g.pos.tdg["hero_policy"] = dict(policy)
    g.dice = ScriptedDice([roll] + [0] * 10, die="d10")
    ev = g.apply({"type": "move", "unit": k, "to": "B5112",
                  "facing": {"kind": "vertex", "index": 0}}, "usa")
    return g, k, ev


def udd_records(ev: list[Any]) -> list[dict[str, Any]]:
    return [dict(e.data) for e in ev if e.type == "move_check"]


def played(ev: list[Any]) -> list[dict[str, Any]]:
    return [dict(e.data) for e in ev
            if e.type == "random_event_effect" and e.data.get("letter") == "P"]


def test_the_owner_saves_a_failed_udd_tdg_18_0_p() -> None:
    g, k, ev = woods_move({"usa": 1}, 8)  # 8 > 7 fails; 8 - 2 = 6 passes
    u = g.pos.units[k]
    assert not u.disordered and u.hex == "B5112"
    assert "heroes" not in g.pos.tdg and "hero_played" not in g.pos.tdg
    [p] = played(ev)
    assert p["seat"] == "usa" and p["unit"] == k and p["roll"] == 8 and p["shift"] == -2
    assert p["passed"] is True and p["held"] == 0 and ev[-1].rule == "tdg.18.0"
    [check] = udd_records(ev)
    assert check["check"]["hero"] == {"seat": "usa", "shift": -2, "rule": "tdg.18.0"}
    assert check["check"]["roll"] == 8 and check["check"]["modified"] == 6


def test_a_roll_2_cannot_save_keeps_the_marker() -> None:
    g, k, ev = woods_move({"usa": 1}, 9)  # 9 - 2 = 7 <= 7: saved
    assert not g.pos.units[k].disordered
    g, k, ev = woods_move({"usa": 2}, 3)  # passed anyway: nothing to play
    assert g.pos.tdg["heroes"] == {"usa": 2} and not played(ev)


def test_one_marker_per_roll_of_several_held() -> None:
    g, _k, ev = woods_move({"usa": 3, "csa": 1}, 8)
    assert g.pos.tdg["heroes"] == {"usa": 2, "csa": 1}
    assert [p["held"] for p in played(ev)] == [2]


def test_never_keeps_the_marker_and_the_unit_fails() -> None:
    g, k, ev = woods_move({"usa": 1}, 8, {"usa": "never"})
    assert g.pos.units[k].disordered and g.pos.tdg["heroes"] == {"usa": 1}
    assert not played(ev)


def test_the_enemy_spoils_a_passed_udd_when_his_policy_says_so() -> None:
    g, k, ev = woods_move({"csa": 1}, 6, {"csa": "spoil"})  # 6 passes; 6 + 2 = 8 fails
    assert g.pos.units[k].disordered and "heroes" not in g.pos.tdg
    [p] = played(ev)
    assert p["seat"] == "csa" and p["shift"] == 2 and p["passed"] is False
    g, k, ev = woods_move({"csa": 1}, 4, {"csa": "both"})  # 4 + 2 = 6 still passes
    assert not g.pos.units[k].disordered and g.pos.tdg["heroes"] == {"csa": 1}
    g, k, ev = woods_move({"csa": 1}, 6)  # the default policy only saves
    assert not g.pos.units[k].disordered and g.pos.tdg["heroes"] == {"csa": 1}


def test_the_owner_does_not_spend_on_the_enemy_and_vice_versa() -> None:
    g, k, _ev = woods_move({"csa": 1}, 8, {"csa": "both"})  # csa may not save a usa unit
    assert g.pos.units[k].disordered and g.pos.tdg["heroes"] == {"csa": 1}


def test_replay_gives_the_same_state() -> None:
    g, _k, _ev = woods_move({"usa": 1}, 8)
    before = g.state_hash()
    g2, k2 = alone_in_the_woods("B4911", 0)
    g2.pos.tdg["heroes"] = {"usa": 1}
    g2.dice = ScriptedDice([8] + [0] * 10, die="d10")
    g2.apply({"type": "move", "unit": k2, "to": "B5112",
              "facing": {"kind": "vertex", "index": 0}}, "usa")
    assert g2.state_hash() == before


def test_only_the_bound_dice_are_offered() -> None:
    """A preview on other dice spends nothing: the hook is bound to the game's dice."""
    seen: list[str] = []

    def spy(r: Any) -> Any:
        seen.append(r.unit)
        return r

    mine, other = ScriptedDice([5], die="d10"), ScriptedDice([5], die="d10")
    token = bind_hero(mine, spy)
    try:
        udd(other, unit="x", cohesion=4)
        assert seen == []
        r = udd(mine, unit="y", cohesion=4)
    finally:
        unbind_hero(token)
    assert seen == ["y"] and "hero" not in r.to_json()
    # unbound again: the same roll with no hook is the plain UDD
    assert udd(ScriptedDice([5], die="d10"), unit="z", cohesion=4).passed is False


def test_policies_listed() -> None:
    assert lasting.HERO_POLICIES == ("save", "spoil", "both", "never")


def test_the_policy_is_a_legal_action_of_the_holder_only() -> None:
    """004 §18.0 P (E-33): the holder sets his policy between decisions of the action phase;
    the enemy is not told."""
    g, k = alone_in_the_woods("B4911", 0)
    assert not [a for a in g.legal_actions("usa") if a["type"] == "hero_policy"]
    g.pos.tdg["heroes"] = {"usa": 1}
    g._memo.clear()
    offered = [a["use"] for a in g.legal_actions("usa") if a["type"] == "hero_policy"]
    assert offered == ["spoil", "both", "never"]
    ev = g.apply({"type": "hero_policy", "use": "never"}, "usa")
    assert g.pos.tdg["hero_policy"] == {"usa": "never"}
    assert ev[-1].visible_to == ("usa",) and ev[-1].data["policy"] == "never"
    g.dice = ScriptedDice([8] + [0] * 10, die="d10")
    g.apply({"type": "move", "unit": k, "to": "B5112",
             "facing": {"kind": "vertex", "index": 0}}, "usa")
    assert g.pos.units[k].disordered and g.pos.tdg["heroes"] == {"usa": 1}


def test_a_bad_policy_is_refused_and_changes_nothing() -> None:
    g, _k = alone_in_the_woods("B4911", 0)
    with pytest.raises(RuleError, match="holds no Hero"):
        g.apply({"type": "hero_policy", "use": "never"}, "usa")
    g.pos.tdg["heroes"] = {"usa": 1}
    before = g.state_hash()
    with pytest.raises(RuleError, match="use must be one of"):
        g.apply({"type": "hero_policy", "use": "always"}, "usa")
    assert g.state_hash() == before


def test_the_holder_sees_his_markers_and_policy_the_enemy_does_not() -> None:
    g, _k = alone_in_the_woods("B4911", 0)
    assert "heroes" not in g.view("usa")
    g.pos.tdg["heroes"] = {"usa": 2}
    g.pos.tdg["hero_policy"] = {"usa": "spoil"}
    assert g.view("usa")["heroes"] == {"usa": {"held": 2, "policy": "spoil"}}
    assert "heroes" not in g.view("csa")
