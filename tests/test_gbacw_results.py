"""Combat results in the GBACW engine (gbacw/results_step.py, 002 §12.4-12.8, §13.43,
§13.5) on the hand-made skirmish (tests/data/gbacw/skirmish.yaml): positions set by hand,
d10s scripted (0..9, 002 §2.5)."""

from __future__ import annotations

import pytest

from gbacw_skirmish import ARCHER, GAMBLE, active_gamble
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Event, RuleError
from gettysburg.gbacw import results_step as rs
from gettysburg.gbacw.combatant import Disorder
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.retreat import RetreatPath


def dice(g: GbacwGame, rolls: list[int]) -> None:
    g.dice = ScriptedDice(rolls, die="d10")


def hx(g: GbacwGame, key: str) -> Hex:
    h = g.hex_of(g.pos.units[key].hex)
    assert h is not None
    return h


def hid(g: GbacwGame, h: Hex) -> str:
    return g.cat.board.hexes[h].id


def free_neighbour(g: GbacwGame, h: Hex, avoid: set[Hex] = frozenset()) -> Hex:  # type: ignore[assignment]
    taken = {x for u in g.pos.units.values() if (x := g.hex_of(u.hex)) is not None}
    return next(n for n in sorted(h.neighbours(), key=lambda x: (x.q, x.r))
                if n in g.cat.board.hexes and n not in taken and n not in avoid)


def types(ev: list[Event]) -> list[str]:
    return [e.type for e in ev]


# --- retreats (002 §12.41-12.47) ----------------------------------------------------------


def test_the_owner_chooses_the_retreat_path_12_41() -> None:
    """Archer's regiment must retreat 1-2 hexes from Gamble's unit: several paths are allowed,
    so it waits off the map and its owner (csa) picks one; a path not allowed is refused."""
    g, k, enemy = active_gamble()
    frm = g.pos.units[enemy].hex
    ev = rs.retreat(g, enemy, (1, 2), {hx(g, k)})
    assert types(ev) == ["retreat_choice"]
    assert g.pos.pending is not None and g.pos.pending["kind"] == "retreat"
    assert g.to_move() == ["csa"] and g.pos.units[enemy].hex is None
    legal = g.legal_actions("csa")
    assert len(legal) > 1 and all(a["type"] == "retreat" for a in legal)
    for a in legal:
        g.validate(a, "csa")
    with pytest.raises(RuleError) as e:
        g.validate({"type": "retreat", "unit": enemy, "path": [frm]}, "csa")
    assert e.value.rule == "12.44"
    with pytest.raises(RuleError):
        g.validate(legal[0], "usa")  # not the owner
    with pytest.raises(RuleError) as e:  # nothing else until the path is chosen
        g.validate({"type": "end_brigade"}, "usa")
    assert e.value.rule == "12.41"
    chosen = legal[-1]
    out = g.apply(chosen, "csa")
    assert "retreat_chosen" in types(out) and "retreat" in types(out)
    assert g.pos.units[enemy].hex == chosen["path"][-1]
    assert g.pos.pending is None and g.to_move() == ["usa"]
    # the retreat ends farther from the enemy than it started (002 §12.44)
    assert hx(g, enemy).distance(hx(g, k)) > 1


def test_a_phasing_unit_that_retreats_is_done_12_47() -> None:
    g, k, enemy = active_gamble()
    ev = rs.retreat(g, k, (1, 1), {hx(g, enemy)})
    if g.pos.pending is not None:  # the owner's choice first
        ev += g.apply(g.legal_actions("usa")[0], "usa")
    assert "retreat_done" in types(ev)
    u = g.pos.units[k]
    assert u.moves >= g.moves_allowed(k) and "phasing" in u.fired
    assert not any(a.get("unit") == k and a["type"] in ("move", "fire", "rally")
                   for a in g.legal_actions("usa"))


def test_retreat_through_friends_rolls_their_udds_once_12_46() -> None:
    """The friend passed through takes a UDD after the retreat (a 9 fails against 7: it is
    disordered); in the same chain it never rolls twice (no double jeopardy)."""
    g, k, enemy = active_gamble()
    friend = g.brigade_units(ARCHER)[1]
    start = hx(g, enemy)
    h1 = free_neighbour(g, start, {hx(g, k)})
    g.pos.units[friend].hex = hid(g, h1)
    h2 = free_neighbour(g, h1, {start})
    path = RetreatPath((h1, h2), (h1,), ())
    checked = {enemy}
    dice(g, [9, 9])
    ev = rs._carry(g, enemy, start, (1, 2), path, 0, False, {hx(g, k)}, checked)
    assert "retreat_through" in types(ev)
    assert g.pos.units[friend].disordered and friend in checked
    assert g.pos.units[enemy].hex == hid(g, h2)
    rolls = g.dice.counter
    g.pos.units[enemy].hex = hid(g, start)
    rs._carry(g, enemy, start, (1, 2), path, 0, False, {hx(g, k)}, checked)
    assert g.dice.counter == rolls  # checked already: no second UDD


def test_a_blocked_retreat_costs_sp_12_44() -> None:
    """No allowed hex at all: each hex not retreated costs 1 SP."""
    g, k, enemy = active_gamble()
    start = hx(g, enemy)
    lost = g.pos.units[enemy].lost
    ev = rs._carry(g, enemy, start, (2, 2), None, 2, False, {hx(g, k)}, set())
    assert g.pos.units[enemy].lost == lost + 2
    assert ev[-1].data["lost_sp"] == 2 and ev[-1].rule == "12.44"


def test_second_disorder_from_fire_retreats_12_35a() -> None:
    """A ``fire_retreat`` step of a shot is made after the action (away from the firer); a
    ``fire_done`` phasing unit is done for the activation (§12.35f)."""
    g, k, enemy = active_gamble()
    shot = [Event("fire", "10.17", {"unit": k, "target": g.pos.units[enemy].hex}),
            Event("fire_retreat", "12.35", {"what": "retreat", "unit": enemy,
                                            "rule": "12.35", "least": 1, "most": 2})]
    ev = rs.after_action(g, {"type": "fire"}, shot, {}, lambda: [])
    assert "retreat_choice" in types(ev) or "retreat" in types(ev)
    while g.pos.pending is not None and g.pos.pending["kind"] == "retreat":
        g.apply(g.legal_actions("csa")[0], "csa")
    assert hx(g, enemy).distance(hx(g, k)) > 1
    g.pos.units[k].fired = ["phasing"]  # it fired, then took a 2nd disorder in return
    done = [Event("fire_done", "12.35", {"what": "done", "unit": k, "rule": "12.35"})]
    ev = rs.after_action(g, {"type": "return_fire"}, done, {}, lambda: [])
    assert "second_disorder_done" in types(ev)
    assert g.pos.units[k].fired == ["phasing"] and g.pos.units[k].moves >= g.moves_allowed(k)


# --- routs (002 §12.52-12.54) ------------------------------------------------------------


def neighbours_of(g: GbacwGame, key: str, friend: str) -> None:
    """Put ``friend`` next to ``key`` (away from the enemy)."""
    g.pos.units[friend].hex = hid(g, free_neighbour(g, hx(g, key)))


def test_a_rout_goes_to_the_division_box_with_its_chain_12_53_12_54() -> None:
    """Archer's regiment routs: to its Division box (routed, off the map); the friend next to
    it rolls a UDD (9 fails against 7) and is disordered. The enemy's view loses the unit;
    its owner still sees it, routed."""
    g, _k, enemy = active_gamble()
    friend = g.brigade_units(ARCHER)[1]
    neighbours_of(g, enemy, friend)
    g.pos.units[enemy].routed = True
    dice(g, [9])
    ev = rs.routs(g, [enemy])
    assert types(ev)[:2] == ["dice", "rout_chain"] and "rout" in types(ev)
    u = g.pos.units[enemy]
    assert u.routed and u.hex is None and u.facing is None
    assert g.pos.units[friend].disordered and not g.pos.units[friend].routed
    assert enemy not in g.view("usa")["units"]
    assert g.view("csa")["units"][enemy]["hex"] is None
    assert g.view("csa")["units"][enemy]["routed"]
    assert all(e.rule for e in ev)


def test_the_chain_routs_a_disordered_friend_12_54_12_35b() -> None:
    """A friend already disordered fails the adjacent-rout UDD (9) and its second disorder's
    UDD (9): it routs too, and both go to the box."""
    g, _k, enemy = active_gamble()
    friend = g.brigade_units(ARCHER)[1]
    neighbours_of(g, enemy, friend)
    g.pos.units[friend].disordered = True
    g.pos.units[enemy].routed = True
    dice(g, [9, 9])
    rs.routs(g, [enemy])
    assert g.pos.units[friend].routed and g.pos.units[friend].hex is None


def test_the_chain_passed_leaves_the_friend_alone_12_54() -> None:
    g, _k, enemy = active_gamble()
    friend = g.brigade_units(ARCHER)[1]
    neighbours_of(g, enemy, friend)
    g.pos.units[enemy].routed = True
    dice(g, [0])
    rs.routs(g, [enemy])
    assert not g.pos.units[friend].disordered and g.pos.units[friend].hex is not None


def test_both_sides_rout_the_best_unit_stays_12_52() -> None:
    """Both sides rout in one shock: the single routing unit with the best cohesion (less
    half its fatigue; the attacker on a tie) ignores it."""
    g, k, enemy = active_gamble()
    g.pos.units[k].routed = True
    g.pos.units[enemy].routed = True
    g.pos.units[enemy].disordered = True  # cohesion 5 against the attacker's 7
    dice(g, [0] * 10)
    ev = rs.routs(g, [k, enemy])
    assert "rout_ignored" in types(ev)
    assert not g.pos.units[k].routed and g.pos.units[k].hex is not None
    assert g.pos.units[enemy].routed and g.pos.units[enemy].hex is None


def test_artillery_never_routs_12_53() -> None:
    g, _k, _enemy = active_gamble()
    guns = next((k for k, u in g.pos.units.items() if u.hex is not None
                 and g.counter(k).arm in ("art", "horse_art")), None)
    if guns is None:
        pytest.skip("no battery on the skirmish's map")
    g.pos.units[guns].routed = True
    rs.routs(g, [guns])
    u = g.pos.units[guns]
    assert not u.routed and u.abandoned == "abandoned-1" and u.hex is not None


def test_the_sweep_sends_units_left_routed_to_the_box_12_53() -> None:
    """Fire and shock mark ``routed``; after the action the sweep moves them off with their
    chain."""
    g, _k, enemy = active_gamble()
    g.pos.units[enemy].routed = True
    dice(g, [0] * 10)
    ev = rs.sweep(g)
    assert "rout" in types(ev) and g.pos.units[enemy].hex is None


# --- rout recovery (002 §13.5) -----------------------------------------------------------


def boxed(g: GbacwGame, key: str) -> None:
    u = g.pos.units[key]
    u.routed, u.hex, u.facing = True, None, None


def test_rout_recovery_returns_near_the_brigadier_13_52() -> None:
    """A brigade in Reserve all turn: a 3 at or below the disordered cohesion (5) brings the
    unit back within a hex of its brigadier, disordered and 1 SP weaker."""
    g, _k, enemy = active_gamble()
    boxed(g, enemy)
    g.pos.brigades[ARCHER].reserve = True
    lost = g.pos.units[enemy].lost
    dice(g, [3])
    ev = rs.rout_recovery_phase(g)
    assert types(ev) == ["dice", "rout_recovery"] and ev[1].rule == "13.52"
    u = g.pos.units[enemy]
    archer = g.hex_of(g.pos.leaders["archer"])
    assert archer is not None and u.hex is not None and u.facing is not None
    assert hx(g, enemy).distance(archer) <= 1
    assert u.disordered and not u.routed and u.lost == lost + 1
    assert ev[1].visible_to == ("csa",)


def test_rout_recovery_fails_or_eliminates_13_52() -> None:
    g, _k, enemy = active_gamble()
    other = g.brigade_units(ARCHER)[1]
    boxed(g, enemy)
    boxed(g, other)
    g.pos.brigades[ARCHER].reserve = True
    dice(g, [7, 9])  # the first unit by id fails (7 > 5), the second rolls a 9
    rs.rout_recovery_phase(g)
    first, second = sorted([enemy, other])
    assert g.pos.units[first].routed and g.pos.units[first].hex is None
    assert g.pos.units[first].lost == 1
    assert g.pos.units[second].lost == g.counter(second).sp  # gone for good


def test_rout_recovery_only_for_a_brigade_in_reserve_13_51() -> None:
    g, _k, enemy = active_gamble()
    boxed(g, enemy)
    dice(g, [0])
    assert rs.rout_recovery_phase(g) == []
    assert g.pos.units[enemy].routed


# --- leaders (002 §12.71-12.73, §13.43) ---------------------------------------------------


def test_leader_loss_after_shock_losses_12_71() -> None:
    g, _k, enemy = active_gamble()
    g.pos.leaders["archer"] = g.pos.units[enemy].hex
    dice(g, [4])
    ev = rs.leader_losses(g, {enemy: 1})
    assert g.pos.leaders["archer"] is not None
    assert [e.data["roll"] for e in ev if e.type == "leader_check"] == [4]
    dice(g, [0])
    ev = rs.leader_losses(g, {enemy: 1})
    assert g.pos.leaders["archer"] is None and "leader_killed" in types(ev)


def test_a_leader_dies_with_his_eliminated_command_not_a_routed_one_12_71() -> None:
    g, _k, _enemy = active_gamble()
    units = g.brigade_units(ARCHER)
    for key in units:
        boxed(g, key)
    rs.sweep_leaders(g)
    assert g.pos.leaders["archer"] is not None  # routed: he may bring them back
    for key in units:
        g.pos.units[key].lost = g.counter(key).sp
    ev = rs.sweep_leaders(g)
    assert g.pos.leaders["archer"] is None and ev[0].rule == "12.71"


def test_a_leader_alone_next_to_the_enemy_jumps_to_friends_12_73() -> None:
    g, k, enemy = active_gamble()
    spot = free_neighbour(g, hx(g, k), {hx(g, enemy)})
    g.pos.leaders["archer"] = hid(g, spot)
    ev = rs.sweep_leaders(g)
    assert types(ev) == ["leader_displaced"] and ev[0].rule == "12.73"
    h = g.hex_of(g.pos.leaders["archer"])
    csa = {x for u in g.pos.units.values() if u.seat == "csa"
           and (x := g.hex_of(u.hex)) is not None}
    assert h in csa


def test_a_leader_moves_with_a_retreat_that_would_leave_him_alone_12_72() -> None:
    g, k, enemy = active_gamble()
    g.pos.leaders["archer"] = g.pos.units[enemy].hex
    start = hx(g, enemy)
    to = free_neighbour(g, start, {hx(g, k)})
    ev = rs._carry(g, enemy, start, (1, 1), RetreatPath((to,), (), ()), 0, False,
                   {hx(g, k)}, set())
    assert "leader_follows" in types(ev) and g.pos.leaders["archer"] == hid(g, to)


def test_a_leader_who_helped_a_rally_has_ended_his_move_13_43() -> None:
    g, k, _enemy = active_gamble()
    g.pos.leaders["gamble"] = g.pos.units[k].hex
    assert "gamble" in g.movable_leaders()
    assert rs.rally_leaders(g, k) == ["gamble"]
    g._memo.clear()
    assert "gamble" not in g.movable_leaders()


# --- guns and the advance after fire (002 §12.6, §12.81) ----------------------------------


def test_abandoned_guns_are_recrewed_by_a_friend_entering_or_rallying_12_81() -> None:
    g, k, _enemy = active_gamble()
    guns = g.brigade_units(GAMBLE)[1]
    g.pos.units[guns].abandoned = "abandoned-1"
    here = g.pos.units[guns].hex
    assert here is not None
    ev = rs.recrew(g, k, [g.pos.units[k].hex or "", here])
    assert types(ev) == ["recrewed"] and ev[0].rule == "12.81"
    u = g.pos.units[guns]
    assert u.abandoned is None and u.disordered
    g.pos.units[guns].abandoned = "abandoned-2"
    ev = rs.recrew(g, k, [here], rallied=True)
    assert ev[0].data["why"] == "rallied" and g.pos.units[guns].abandoned is None


def test_the_firer_may_advance_into_the_hex_it_emptied_12_6() -> None:
    g, k, enemy = active_gamble()
    target = g.pos.units[enemy].hex
    assert target is not None
    g.pos.units[enemy].lost = g.counter(enemy).sp
    g.pos.units[enemy].hex = None  # eliminated by the shot
    ev = rs.offer_fire_advance(g, k, target, g.pos.units[k].hex)
    assert types(ev) == ["advance_offer"] and g.to_move() == ["usa"]
    legal = g.legal_actions("usa")
    assert {"type": "no_advance"} in legal
    moves = [a for a in legal if a["type"] == "advance"]
    assert moves and all(a["to"] == target for a in moves)
    for a in legal:
        g.validate(a, "usa")
    with pytest.raises(RuleError) as e:
        g.validate({"type": "end_brigade"}, "usa")
    assert e.value.rule == "12.41"
    dice(g, [0] * 5)
    out = g.apply(moves[0], "usa")
    assert "fire_advance" in types(out) and g.pos.units[k].hex == target
    assert g.pos.pending is None


def test_no_advance_keeps_the_firer_and_artillery_never_advances_12_6() -> None:
    g, k, enemy = active_gamble()
    target = g.pos.units[enemy].hex
    assert target is not None
    start = g.pos.units[k].hex
    g.pos.units[enemy].hex = None
    g.pos.units[enemy].lost = g.counter(enemy).sp
    rs.offer_fire_advance(g, k, target, start)
    g.apply({"type": "no_advance"}, "usa")
    assert g.pos.units[k].hex == start and g.pos.pending is None
    # a firer that did not begin next to the target is offered nothing
    far = free_neighbour(g, hx(g, k), {g.hex_of(target)} - {None})  # type: ignore[arg-type]
    assert rs.offer_fire_advance(g, k, target, hid(g, far)) == []


# --- through the engine: a shot, the retreat it asks for, the advance (002 §12.35a, §12.6) -


def fire_on_a_disordered_regiment() -> tuple[GbacwGame, str, str, list[Event]]:
    """Gamble's carbines fire at Archer's disordered regiment: a 9 reads 1d+2 (1 SP), the UDD
    (9 +2 against 5) fails: a second disorder from fire, 1 SP more and a 1-2 hex retreat."""
    g, k, enemy = active_gamble()
    g.pos.units[enemy].disordered = True
    dice(g, [9, 9] + [0] * 20)
    ev = g.apply({"type": "fire", "unit": k, "target": g.pos.units[enemy].hex}, "usa")
    if g.pos.pending is not None and g.pos.pending["kind"] == "fire":
        ev += g.apply({"type": "hold"}, "csa")  # no return fire: the shot is rolled
    return g, k, enemy, ev


def test_a_shot_retreat_and_advance_through_the_engine_12_35a_12_6() -> None:
    g, k, enemy, ev = fire_on_a_disordered_regiment()
    target = next(e.data["target"] for e in ev if e.type == "fire")
    assert "fire_retreat" in types(ev) and "retreat_choice" in types(ev)
    assert g.to_move() == ["csa"] and g.pos.units[enemy].lost >= 1
    chosen = g.legal_actions("csa")[-1]
    ev = g.apply(chosen, "csa")
    assert g.pos.units[enemy].hex == chosen["path"][-1]
    # the hex is empty and the firer began next to it: it may advance (002 §12.6)
    assert "advance_offer" in types(ev) and g.to_move() == ["usa"]
    advance = next(a for a in g.legal_actions("usa") if a["type"] == "advance")
    ev = g.apply(advance, "usa")
    assert g.pos.units[k].hex == target and g.pos.pending is None
    for e in g.events("referee"):
        assert e["rule"], e["type"]
    # the same scripted dice and actions replay to the same position
    again, _, _, _ = fire_on_a_disordered_regiment()
    again.apply(chosen, "csa")
    again.apply(advance, "usa")
    assert again.state_hash() == g.state_hash()


def test_both_sides_retreating_the_higher_cohesion_goes_last_12_48() -> None:
    """retreat.retreat_order: cohesion less half the fatigue (rounded up); defenders first
    on a tie."""
    from gettysburg.gbacw.combatant import Combatant
    from gettysburg.gbacw.facing import Facing
    from gettysburg.gbacw.retreat import retreat_order

    def unit(name: str, side: str, cohesion: int, fatigue: int = 0) -> Combatant:
        return Combatant(name, side, (Hex(0, 0),), Facing("vertex", 0), "infantry", 4,
                         cohesion, fatigue=fatigue)

    assert retreat_order([unit("a", "usa", 7)], [unit("d", "csa", 6)]) == "defender"
    assert retreat_order([unit("a", "usa", 6)], [unit("d", "csa", 7)]) == "attacker"
    assert retreat_order([unit("a", "usa", 7)], [unit("d", "csa", 7)]) == "defender"
    # fatigue 3: 7 - 2 = 5 against 6
    assert retreat_order([unit("a", "usa", 7, 3)], [unit("d", "csa", 6)]) == "attacker"


def test_a_move_next_to_a_lone_leader_displaces_him_12_73() -> None:
    """'Under any circumstance': after a move too (the engine's after-action pass)."""
    g, k, enemy = active_gamble()
    spot = free_neighbour(g, hx(g, k), {hx(g, enemy)})
    g.pos.leaders["archer"] = hid(g, spot)
    ev = rs.after_action(g, {"type": "move", "unit": k}, [], {}, lambda: [])
    assert "leader_displaced" in types(ev) and g.pos.leaders["archer"] != hid(g, spot)


def test_an_extended_unit_retreats_unextended_and_checks_8_47() -> None:
    """A line that cannot retreat extended (a friend where its extension would step; the
    case where it can is tests/test_gbacw_extended_combat.py's): the marker goes, then a UDD
    (a 9 fails against 7: disordered)."""
    g, k, enemy = active_gamble()
    u = g.pos.units[enemy]
    start = hx(g, enemy)
    side = free_neighbour(g, start, {hx(g, k)})
    u.extension, u.extends = "line", [hid(g, side)]
    to = free_neighbour(g, start, {hx(g, k), side})
    friend = next(x for x in g.brigade_units("CS-Archer/Heth") if x != enemy)
    step = Hex(side.q + to.q - start.q, side.r + to.r - start.r)  # the extension's way
    g.pos.units[friend].hex = hid(g, step)
    dice(g, [9])
    ev = rs._carry(g, enemy, start, (1, 1), RetreatPath((to,), (), ()), 0, False,
                   {hx(g, k)}, set())
    assert types(ev)[:3] == ["dice", "retreat_unextended", "retreat_unextended_check"]
    assert u.extension is None and u.extends == [] and u.disordered
    assert u.hex == hid(g, to)


@pytest.mark.parametrize(("disordered", "first"), [(None, "csa"), ("usa", "usa"),
                                                   ("csa", "csa")])
def test_both_sides_waiting_to_retreat_go_in_cohesion_order_12_48(
        disordered: str | None, first: str) -> None:
    """Gamble's (phasing) and Archer's units both wait for their paths: the side with the
    better cohesion retreats last; on a tie the defender (csa) goes first."""
    g, k, enemy = active_gamble()
    for key in (k, enemy):
        g.pos.units[key].disordered = g.pos.units[key].seat == disordered
    rs.retreat(g, k, (1, 2), {hx(g, enemy)})
    rs.retreat(g, enemy, (1, 2), set())
    pend = g.pos.pending
    assert pend is not None and len(pend["queue"]) == 2
    assert g.pos.units[pend["queue"][0]["unit"]].seat == first
    assert g.to_move() == [first]
    while g.pos.pending is not None:
        seat = g.to_move()[0]
        g.apply(g.legal_actions(seat)[0], seat)
    assert g.pos.units[k].hex is not None and g.pos.units[enemy].hex is not None


def test_stacked_second_disorders_of_one_event_cost_one_sp_12_35e() -> None:
    """002 §12.35e: stacked units each losing an SP to second disorders of one event (a
    rout chain's failed UDDs, a retreat through them) lose one SP in all, from the unit on
    top; a unit alone keeps its own loss."""
    g, _k, _e = active_gamble()
    a, b, c = g.brigade_units(ARCHER)[:3]
    g.pos.units[b].hex = g.pos.units[a].hex
    g.pos.units[a].stack, g.pos.units[b].stack = 1, 0  # b on top
    hit = [Disorder(x, "adjacent-rout", "12.35", second=True, sp_loss=1) for x in (a, b, c)]
    assert rs.stack_allotment(g, hit) == {b: 1, c: 1}
    before = {x: g.pos.units[x].lost for x in (a, b)}
    for d in hit[:2]:
        rs.write_disorder(g, d, causing=set(), checked={a, b},
                          sp=rs.stack_allotment(g, hit).get(d.unit, 0))
    assert g.pos.units[b].lost == before[b] + 1 and g.pos.units[a].lost == before[a]
