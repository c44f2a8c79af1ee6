"""Mundo Machango's battles inside the campaign: set-up (B1, B2, B6, G-CSA-1, G-CSA-2), the
fog over the cards in hand, losses and the line carried back (B4), and random battles played
to their end with invariants checked and replayed."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gettysburg.machango.battle_hexes import parse
from gettysburg.machango.game import MachangoGame
from test_machango_rules import CAV, INF, make, refused


def to_battle(tmp_path: Path, attacker: str, defender: str, dice: list[int] | None,
              seat: str = "csa", hour: int = 19, **over: Any) -> MachangoGame:
    frm, line = ("klingel_farm", "codori_farm") if seat == "csa" else \
        ("codori_farm", "klingel_farm")
    g = make(tmp_path, {attacker: {"at": frm, **over.get(attacker, {})},
                        defender: {"at": line, **over.get(defender, {})}}, dice,
             start={"day": 1, "hour": hour, "phase": "day", "active": seat})
    g.apply({"type": "attack", "division": attacker, "target": line}, seat)
    g.apply({"type": "end_turn"}, seat)
    if seat == "usa":
        g.apply({"type": "end_turn"}, "csa")
    assert g.phase == "battle"
    return g


def test_deployment_first_mover_cards_and_entrenchments(tmp_path: Path) -> None:
    # Longstreet rides with McLaws; Buford's division always has F (G-USA-2): 3 tokens,
    # one on each unit; Longstreet's d6 (a 2) takes two of them (G-CSA-1).
    g = to_battle(tmp_path, "c_mclaws_1", "u_buford", [2] + [CAV] * 10)
    fight = g.fight
    assert fight is not None and fight["active"] == "csa" == fight["attacker"]  # B2
    rows = {u["side"]: set() for u in fight["units"].values()}
    for u in fight["units"].values():
        rows[u["side"]].add(parse(u["hex"])[1])
    assert rows == {"csa": {1}, "usa": {7}}  # B1: the front home rows fill first
    assert len(fight["entrench"]) == 1  # B6 less G-CSA-1
    removed = next(e for e in g.log if e.type == "entrenchments_removed")
    assert removed.data["roll"] == 2 and len(removed.data["removed"]) == 2
    assert fight["cards"] == {"csa": 4, "usa": 6}  # S1, S2 less Longstreet's card
    assert len(fight["hands"]["csa"]) == 4 and len(fight["hands"]["usa"]) == 6


def test_ewell_chooses_a_card_or_figures_set_aside(tmp_path: Path) -> None:  # G-CSA-2
    g = to_battle(tmp_path, "c_early_1", "u_doubleday", [])
    assert g.to_move() == ["csa"] and g.fight is not None and g.fight["step"] == "ewell"
    g.apply({"type": "battle_ewell", "choice": "card"}, "csa")
    assert g.fight is not None and g.fight["cards"]["csa"] == 4
    assert len(g.fight["hands"]["csa"]) == 4
    h = to_battle(tmp_path, "c_early_1", "u_doubleday", [INF, INF, CAV, 4])
    h.apply({"type": "battle_ewell", "choice": "aside"}, "csa")
    assert h.fight is not None and h.fight["cards"]["csa"] == 5
    assert h.fight["aside"] == {"c_early_1.0": 1, "c_early_1.1": 1, "c_early_1.3": 1}
    fig = {uid: u["figures"] for uid, u in h.fight["units"].items() if u["side"] == "csa"}
    assert fig == {"c_early_1.0": 3, "c_early_1.1": 3, "c_early_1.2": 4, "c_early_1.3": 1}


def test_bad_battle_actions_are_refused_naming_the_rule(tmp_path: Path) -> None:
    g = to_battle(tmp_path, "c_heth_1", "u_doubleday", [CAV] * 40)
    assert g.fight is not None
    card = g.fight["hands"]["csa"][0]
    refused(g, {"type": "battle_card", "card": "no_such_card"}, "csa", "B-e")
    refused(g, {"type": "battle_card", "card": card, "extra": 1}, "csa", "B-e")
    refused(g, {"type": "battle_fire", "unit": "c_heth_1.0", "target": "u_doubleday.0"},
            "csa", "B-f")  # cards first
    refused(g, {"type": "end_turn"}, "csa", "B-e")
    refused(g, {"type": "battle_card", "card": card}, "usa", "protocol.seat")


def test_each_side_sees_its_own_hand_only(tmp_path: Path) -> None:
    g = to_battle(tmp_path, "c_heth_1", "u_doubleday", [CAV] * 40)
    usa, csa = g.view("usa")["battle"], g.view("csa")["battle"]
    assert isinstance(usa["hands"]["usa"], list) and usa["hands"]["csa"] == 5
    assert isinstance(csa["hands"]["csa"], list) and csa["hands"]["usa"] == 6
    assert isinstance(usa["deck"], int) and "seed" not in usa
    seat = "csa"
    card = csa["hands"]["csa"][0]
    g.apply({"type": "battle_card", "card": card}, seat)
    while g.to_move() == ["csa"]:
        g.apply({"type": "battle_done"}, "csa")
    drawn = [e for e in g.events("usa") if e["type"] == "battle_draw"]
    assert drawn and all("card" not in e["data"] for e in drawn)
    assert any("card" in e["data"] for e in g.events("csa") if e["type"] == "battle_draw")


def test_a_wiped_out_defender_gives_up_the_line_and_losses_stay(tmp_path: Path) -> None:
    g = to_battle(tmp_path, "u_doubleday", "c_heth_1", [CAV] + [INF] * 8, seat="usa",
                  u_doubleday={"units": ["infantry"]},
                  c_heth_1={"units": ["infantry"], "figures": [1]})
    fight = g.fight
    assert fight is not None
    fight["units"]["c_heth_1.0"]["hex"] = "6,2"  # brought up beside the attacker
    fight["units"]["u_doubleday.0"]["hex"] = "6,1"
    fight["hands"]["usa"][0] = "single_unit"
    g.apply({"type": "battle_card", "card": "single_unit"}, "usa")
    g.apply({"type": "battle_order", "unit": "u_doubleday.0"}, "usa")
    if g.fight is not None and g.fight["step"] == "move":
        g.apply({"type": "battle_done"}, "usa")
    assert g.view("usa")["battle"]["fire_options"] == [
        {"unit": "u_doubleday.0", "target": "c_heth_1.0", "dice": 4}]
    assert "fire_options" not in g.view("csa")["battle"]
    g.apply({"type": "battle_fire", "unit": "u_doubleday.0", "target": "c_heth_1.0"}, "usa")
    assert g.fight is None and g.phase == "night"
    assert g.divisions["c_heth_1"]["status"] == "eliminated"
    assert g.divisions["u_doubleday"]["at"] == "klingel_farm"  # B4 (machango-facts)


def check_battle(g: MachangoGame) -> None:
    fight = g.fight
    if fight is None:
        return
    hexes = [u["hex"] for u in fight["units"].values() if u["hex"] is not None]
    assert len(hexes) == len(set(hexes))
    for u in fight["units"].values():
        assert 0 <= u["figures"] <= u["start"]
        assert (u["figures"] == 0) == (u["hex"] is None)
        if u["hex"] is not None:
            c, r = parse(u["hex"])
            assert 0 <= c < 13 and 0 <= r < 9
    assert 1 <= fight["turn"] <= fight["turns"]
    for side, hand in fight["hands"].items():
        assert len(hand) == fight["cards"][side] or fight["active"] == side


def open_random_battle(path: str, seed: int, pooled: bool) -> MachangoGame:
    """The CSA attacks Codori Farm (McLaws' division joining when ``pooled``); the hours
    pass to nightfall and the battle opens."""
    g = MachangoGame(path, (), seed)
    g.apply({"type": "attack", "division": "c_heth_1", "target": "codori_farm"}, "csa")
    join = {"type": "attack", "division": "c_mclaws_1", "target": "codori_farm"}
    if pooled and join in g.legal_actions("csa"):
        g.apply(join, "csa")  # MV4: from another line
    while g.phase == "day":
        g.apply({"type": "end_turn"}, g.to_move()[0])
    return g


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), hour=st.integers(16, 19), pooled=st.booleans())
def test_random_battles_end_with_invariants_and_replay(tmp_path: Path, seed: int, hour: int,
                                                       pooled: bool) -> None:
    extra = {"c_mclaws_1": {"at": "peach_orchard"}} if pooled else {}
    g = make(tmp_path, {"c_heth_1": {"at": "klingel_farm"}, "u_doubleday": {"at": "codori_farm"},
                        "u_buford": {"at": "codori_farm"}, **extra},
             start={"day": 3, "hour": hour, "phase": "day", "active": "csa"})
    path = g.setup.scenario
    g = open_random_battle(path, seed, pooled)
    assert g.phase == "battle" and g.fight is not None
    for u in g.fight["units"].values():  # B1: 8 or fewer units a side fit the home rows
        assert parse(u["hex"])[1] in ((0, 1) if u["side"] == "csa" else (7, 8))
    before = {d: [f for _, f in g.divisions[d]["units"]] for d in g.divisions
              if g.divisions[d]["status"] == "board"}
    choose = random.Random(seed)
    actions = []
    while g.phase == "battle":
        seat = g.to_move()[0]
        act = choose.choice(g.legal_actions(seat))
        g.validate(act, seat)
        g.apply(act, seat)
        actions.append((act, seat))
        check_battle(g)
    fought = next(e for e in g.log if e.type == "battle_fought")
    assert fought.data["turns"] == 2 * (20 - hour)  # B3
    for did, lost in fought.data["losses"].items():
        now = [f for _, f in g.divisions[did]["units"]]
        assert [max(0, b - n) for b, n in zip(before[did], lost, strict=True)] == now  # B4
    again = open_random_battle(path, seed, pooled)
    for act, seat in actions:
        again.apply(act, seat)
    assert again.state_hash() == g.state_hash()
