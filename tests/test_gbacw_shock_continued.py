"""Step 6 of shock in the GBACW engine beyond one roll (002 §11.35, §11.41, §11.47-11.48,
§6.26, §17.22): continued shock as the attacker's decision, the voluntary advance after a
withdrawal, the order shocks resolve in, the March brigade shocked, shock fatigue. Positions
on the hand-made skirmish (tests/data/gbacw/skirmish.yaml) with scripted d10s."""

from __future__ import annotations

from typing import Any

import pytest

from gbacw_skirmish import active_gamble
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import Event, RuleError
from gettysburg.gbacw.game import GbacwGame
from test_gbacw_shock_engine import shocks, stand

SECOND = "CS-III:5 AL Bn"  # Archer's regiment placed beyond the first defender


def beyond(dice: list[int], *, weak: bool = True) -> tuple[GbacwGame, str, str]:
    """Gamble's first unit shocks Archer's first regiment (worn to 2 SP when ``weak``, so
    that an 8 reads 8+ at 1.5:1 with the disordered defender's +1); a second regiment
    stands one hex beyond, next to the defender's hex and in its front (seen with the
    attacker's facing)."""
    g, k, d1 = active_gamble()
    f = g.pos.units[k].facing
    here = g.hex_of(g.pos.units[d1].hex)
    assert f is not None and here is not None
    g.pos.units[SECOND].hex = g.cat.board.hexes[here.neighbour(f.index)].id
    if weak:  # 2 of 6 SP: collapsed, so disordered (002 §12.23; +1 on the shock roll)
        u = g.pos.units[d1]
        u.lost, u.collapsed, u.disordered = 4, True, True
    g.dice = ScriptedDice(dice + [0] * 40, die="d10")
    g._memo.clear()
    a = next(a for a in shocks(g) if a["shocks"][0]["attackers"] == [k])
    g.apply(a, "usa")
    return g, k, d1


def kinds(ev: list[Event]) -> list[str]:
    return [e.type for e in ev]


def test_adjusted_8_or_more_offers_a_continued_shock_11_47() -> None:
    """Pre-shock check 0 (passed), shock 7 at 2:1 +2 +1 -1 -1 (the dismounted attackers at
    their printed SP less the horse holders): adjusted 8, the defender retreats, the
    attacker must advance (§11.46) and may continue (§11.47): the phasing seat decides;
    already next to an enemy, it shocks from where it stands."""
    g, k, _d1 = beyond([0, 7])
    ev = stand(g)
    resolved = next(e for e in ev if e.type == "shock_resolved")
    assert resolved.data["roll"]["modified"] == 8
    assert resolved.data["attacker_continues"] == "may"
    assert "shock_post_disorder" not in kinds(ev)  # 6e waits for the end of the series
    pend = g.pos.pending
    assert pend is not None and pend["kind"] == "after_shock"
    assert g.to_move() == ["usa"] and pend["units"] == [k]
    legal = g.legal_actions("usa")
    here, facing = g.pos.units[k].hex, g.pos.units[k].facing
    assert facing is not None
    assert legal == [{"type": "continue_shock", "to": here, "facing": facing.to_json()},
                     {"type": "end_shock"}]
    assert g.legal_actions("csa") == []
    for seat in ("usa", "csa"):  # announced to both
        assert g.view(seat)["pending"]["kind"] == "after_shock"


def test_continued_shock_rolls_without_checks_at_minus_one_11_47() -> None:
    """The continued shock: no green or pre-shock check, the defender's rounding, -1 for
    the first continued shock, the rule cited; 6e once, after the series (§11.48)."""
    g, _k, _d1 = beyond([0, 8, 5])
    stand(g)
    first = g.dice.counter
    ev = g.apply(g.legal_actions("usa")[0], "usa")
    ev += stand(g)
    if g.pos.pending is not None:  # adjusted 1: the defender declines to counter-attack
        assert g.pos.pending["kind"] == "after_shock" and g.pos.pending["counter"]
        ev += g.apply({"type": "end_shock"}, "csa")
    assert ev[0].type == "shock_continue" and ev[0].rule == "11.47"
    assert SECOND in next(e for e in ev if e.type == "shock_designated").data["defenders"]
    assert "shock_pre_shock_check" not in kinds(ev) and "shock_green_check" not in kinds(ev)
    resolved = next(e for e in ev if e.type == "shock_resolved")
    assert resolved.rule == "11.47" and resolved.data["continued"] == 1
    drms = {d["id"]: d["value"] for d in resolved.data["roll"]["drms"]}
    assert drms["successive-continued-shock"] == -1
    assert "charge" not in drms
    rolls = [r for e in ev if e.type == "dice" for r in e.data["rolls"]]
    assert rolls[0]["purpose"] == "shock resolution" and rolls[0]["counter"] == first
    assert kinds(ev).count("shock_post_disorder") == 1
    assert g.pos.pending is None and g.to_move() == ["usa"]


def test_declining_ends_the_series_with_its_post_shock_disorder_11_48() -> None:
    g, k, _d1 = beyond([0, 8])
    stand(g)
    assert not g.pos.units[k].disordered
    ev = g.apply({"type": "end_shock"}, "usa")
    assert kinds(ev)[:2] == ["shock_ended", "shock_post_disorder"]
    assert g.pos.units[k].disordered  # attacking infantry in good order (§11.48)
    assert g.pos.pending is None


def test_bad_continuation_is_refused_and_changes_nothing() -> None:
    g, _k, _d1 = beyond([0, 8])
    stand(g)
    before = g.position_json()
    far = {"type": "continue_shock", "to": "A3303", "facing": {"kind": "vertex", "index": 1}}
    with pytest.raises(RuleError) as e:
        g.validate(far, "usa")
    assert e.value.rule == "11.47"
    with pytest.raises(RuleError) as e:  # the defender does not decide this
        g.validate({"type": "end_shock"}, "csa")
    assert e.value.rule == "11.47"
    with pytest.raises(RuleError) as e:
        g.validate({"type": "end_brigade"}, "usa")
    assert g.position_json() == before


def test_no_continuation_below_8_11_47() -> None:
    """Shock 6 at 1.5:1 +1 -1 -1: adjusted 6, the defender retreats but nobody continues."""
    g, _k, _d1 = beyond([0, 6])
    ev = stand(g)
    resolved = next(e for e in ev if e.type == "shock_resolved")
    assert resolved.data["attacker_continues"] == "none"
    assert g.pos.pending is None and "shock_post_disorder" in kinds(ev)


def test_a_pre_shock_check_that_empties_the_hex_opens_continuation_11_47() -> None:
    """The defender, already disordered, fails its pre-shock check (9): a second disorder
    from shock moves it out; the attacker advances (§11.46) and may continue; declining,
    it takes no post-shock disorder (the defender left on its check, §11.48)."""
    g, k, d1 = active_gamble()
    f = g.pos.units[k].facing
    here = g.hex_of(g.pos.units[d1].hex)
    assert f is not None and here is not None
    g.pos.units[SECOND].hex = g.cat.board.hexes[here.neighbour(f.index)].id
    g.pos.units[d1].disordered = True
    g.dice = ScriptedDice([9] + [0] * 40, die="d10")
    g._memo.clear()
    g.apply(next(a for a in shocks(g) if a["shocks"][0]["attackers"] == [k]), "usa")
    ev = stand(g)
    assert g.pos.units[d1].hex != here.__str__() and g.pos.units[k].hex == \
        g.cat.board.hexes[here].id
    assert "shock_resolved" not in kinds(ev)
    ended = next(e for e in ev if e.type == "shock_ended")
    assert ended.rule == "11.47"
    assert g.pos.pending is not None and g.pos.pending["kind"] == "after_shock"
    ev = g.apply({"type": "end_shock"}, "usa")
    assert "shock_post_disorder" not in kinds(ev)
    assert not g.pos.units[k].disordered


def test_shocks_resolve_from_one_end_of_the_line_11_41() -> None:
    """Two shocks designated right to left are kept in the engine's fixed order (lowest
    hex first), whatever order the player names them in."""
    g, k, d1 = active_gamble()
    k2 = next(u for u in g.brigade_units(g.formation(k)) if g.pos.units[u].hex == "A3703")
    f2 = g.pos.units[k2].facing
    h2 = g.hex_of(g.pos.units[k2].hex)
    assert f2 is not None and h2 is not None
    g.pos.units[SECOND].hex = g.cat.board.hexes[h2.neighbour(f2.index)].id
    g._memo.clear()
    t1, t2 = g.pos.units[d1].hex, g.pos.units[SECOND].hex
    both = [{"attackers": [k2], "targets": [t2]}, {"attackers": [k], "targets": [t1]}]
    g.validate({"type": "shock", "shocks": both}, "usa")
    g.apply({"type": "shock", "shocks": both}, "usa")
    pend = g.pos.pending
    assert pend is not None
    order = [s["targets"][0] for s in pend["shocks"]]
    hexes = [g.hex_of(t) for t in order]
    assert order == sorted(order, key=lambda t: (g.cat.board.parse(t).q, g.cat.board.parse(t).r))
    assert all(h is not None for h in hexes) and order == [t1, t2]  # not as designated


def march_target() -> tuple[GbacwGame, str, str]:
    """A regiment of Davis's brigade (on March orders) placed in the front hex of
    Gamble's first unit instead of Archer's."""
    g, k, d1 = active_gamble()
    davis = "CS-III:2 MS"
    assert g.orders_of(davis) == "march"
    g.pos.units[davis].hex, g.pos.units[d1].hex = g.pos.units[d1].hex, "A3212"
    g._memo.clear()
    return g, k, davis


def test_a_march_brigade_shocked_goes_to_advance_and_tests_its_others_6_26() -> None:
    """Pre-shock check 0 on March orders: passed, so disordered (§11.37); the shock 0
    (the attacker retreats). Then Davis's brigade goes to Advance, its units face vertices,
    and each other regiment takes a UDD (9s fail: disordered) (§6.26, §11.48)."""
    g, k, davis = march_target()
    brigade = g.formation(davis)
    g.dice = ScriptedDice([0, 0] + [9] * 40, die="d10")
    g.apply(next(a for a in shocks(g) if a["shocks"][0]["attackers"] == [k]), "usa")
    ev = stand(g)
    while g.pos.pending is not None:  # a retreat path, if any
        seat = g.to_move()[0]
        ev += g.apply(g.legal_actions(seat)[0], seat)
    march = next(e for e in ev if e.type == "march_shocked")
    assert march.rule == "11.48" and march.visible_to == (g.pos.brigades[brigade].seat,)
    assert march.redacted is not None and "orders" not in march.redacted
    assert g.pos.brigades[brigade].orders == "advance"
    others = [u for u in g.brigade_units(brigade) if u != davis]
    assert {c["unit"] for c in march.data["checks"]} == set(others)
    for u in g.brigade_units(brigade):
        facing = g.pos.units[u].facing
        assert facing is not None and facing.kind == "vertex"
    assert all(g.pos.units[u].disordered for u in others)
    shown = g.view("usa")
    assert all(e["type"] != "march_shocked" or e.get("redacted")
               for e in g.events("usa", since=0))
    assert "orders" not in str(shown["pending"])


def test_each_later_shock_phase_adds_fatigue_17_22() -> None:
    """With the fatigue rule: the first shock phase of the turn is free for both
    brigades; a second one adds a level to each (002 §17.22 cause 2), an event only its
    owner sees."""
    g, k, d1 = beyond([0, 6, 0, 6], weak=False)
    g.fatigue = True
    ev = stand(g)
    assert "fatigue" not in kinds(ev)
    mine, theirs = g.formation(k), g.formation(d1)
    tally: dict[str, Any] = g.pos.brigades[mine].tally
    assert tally["shock_phases"] == 1 and g.pos.brigades[theirs].tally["shock_phases"] == 1
    # a second designation in the same turn (a later activation, built by hand)
    g.pos.brigades[mine].did.clear()
    g.pos.units[k].fired = []
    here = g.hex_of(g.pos.units[k].hex)
    f = g.pos.units[k].facing
    assert here is not None and f is not None
    g.pos.units[d1].hex = g.cat.board.hexes[here.neighbour(f.index)].id
    g.pos.units[SECOND].hex = None
    g._memo.clear()
    before = g.pos.brigades[mine].fatigue
    g.apply(next(a for a in shocks(g) if a["shocks"][0]["attackers"] == [k]), "usa")
    ev = stand(g)
    tired = [e for e in ev if e.type == "fatigue"]
    assert {e.data["brigade"] for e in tired} == {mine, theirs}
    assert all(e.rule == "17.22" and e.visible_to == (g.pos.brigades[e.data["brigade"]].seat,)
               for e in tired)
    assert g.pos.brigades[mine].fatigue > before


def test_every_shock_event_cites_a_rule_and_replays() -> None:
    g, _k, _d1 = beyond([0, 8, 5])
    stand(g)
    g.apply(g.legal_actions("usa")[0], "usa")
    stand(g)
    for seat in ("usa", "csa"):
        for e in g.events(seat, since=0):
            assert e["rule"], e["type"]


def test_the_defender_may_counter_attack_after_1_or_less_11_47() -> None:
    """Shock 0 at 1:2 -1 -1: adjusted -4, the attacker retreats and the defender may
    counter-attack (§11.47): its seat decides; staying it may face as it likes, or it
    enters the hex the attacker left; declining is allowed. The counter-attack is rolled
    at -1 (its first continued shock), without checks, by the defender's side."""
    g, _k, d1 = beyond([0, 0, 5], weak=False)
    ev = stand(g)
    resolved = next(e for e in ev if e.type == "shock_resolved")
    assert resolved.data["defender_counterattacks"]
    pend = g.pos.pending
    assert pend is not None and pend["kind"] == "after_shock" and pend["counter"]
    assert g.to_move() == ["csa"] and pend["units"] == [d1]
    legal = g.legal_actions("csa")
    assert {"type": "end_shock"} in legal and g.legal_actions("usa") == []
    here = g.pos.units[d1].hex
    assert any(a["type"] == "continue_shock" and a["to"] in pend["vacated"] for a in legal)
    stay = next(a for a in legal if a["type"] == "continue_shock" and a["to"] == here)
    ev = g.apply(stay, "csa")
    ev += stand_all(g)
    cont = next(e for e in ev if e.type == "shock_continue")
    assert cont.data["counterattack"] and cont.rule == "11.47"
    again = next(e for e in ev if e.type == "shock_resolved")
    assert again.rule == "11.47" and d1 in next(
        e for e in ev if e.type == "shock_designated").data["attackers"]
    drms = {d["id"]: d["value"] for d in again.data["roll"]["drms"]}
    assert drms["successive-continued-shock"] == -1
    assert "shock_pre_shock_check" not in kinds(ev)
    assert kinds(ev).count("shock_post_disorder") == 1
    assert g.pos.pending is None and g.to_move() == ["usa"]


def stand_all(g: GbacwGame) -> list[Event]:
    """Whoever defends stands; retreat paths take the first allowed."""
    ev: list[Event] = []
    while g.pos.pending is not None and g.pos.pending["kind"] in ("shock", "retreat"):
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        ev += g.apply({"type": "stand"} if {"type": "stand"} in legal else legal[0], seat)
    return ev
