"""The Random Events table's letters that wait on a player's choice (004 §18.0, rule
``tdg.18.0``; gbacw/event_choices.py, battle_book_step.py): each drawn with scripted d10s on
Herr Ridge between two activation markers, answered through the engine, and what changed
checked; plus C (no effect), J (the jinxed battery) and R (A.P. Hill) in the game."""

from __future__ import annotations

import copy
from functools import cache

import pytest

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import Action, Event, RuleError
from gettysburg.gbacw import battle_book_step, drunk, effectiveness, event_choices, imboden
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.kinds import unit_class

WHO = {"usa": 0, "csa": 3}  # the who-rolls d10 (004 §18.0: 0-2 Union, 3-5 Confederate)


@cache
def _base() -> GbacwGame:
    g = GbacwGame("herr-ridge", options=["random_events"], seed=3)
    for _ in range(40):  # through the orders segment to the first activation
        if g.pos.current is not None:
            break
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        g.apply(next((a for a in legal if a["type"] in ("end_orders", "first_am")), legal[0]),
                seat)
    return g


def between_markers() -> GbacwGame:
    """Herr Ridge in its first activation segment with no marker active (where a draw
    from the pool happens) and markers left in the pool."""
    g = copy.deepcopy(_base())
    p = g.pos
    p.current, p.brigade, p.done_brigades, p.phase = None, None, [], "action"
    p.pool = sorted([*p.pool, "usa/US-1/Cav", "csa/CS-Heth/III"])
    g._memo.clear()
    return g


def cell(letter: str) -> tuple[int, int]:
    chart = all_charts().random_events
    return next((c, r) for c in (0, 2, 5, 8) for r in range(10)
                if chart.event(c, r).letter == letter)


def draw(g: GbacwGame, letter: str, roller: str, *extra: int) -> list[Event]:
    """The marker drawn and ``letter`` rolled by ``roller``; ``extra`` d10s follow (the
    effect's own rolls, then the pool's next draws read 0)."""
    first, second = cell(letter)
    g.dice = ScriptedDice([WHO[roller], first, second, *extra] + [0] * 40, die="d10")
    g._memo.clear()
    return g._random_event()


def main_event(ev: list[Event]) -> Event:
    return next(e for e in ev if e.type == "random_event")


def chosen(g: GbacwGame, action: Action) -> list[Event]:
    return g.apply(action, g.to_move()[0])


# --- the decision ---------------------------------------------------------------------------------
def test_a_choice_stops_the_draw_and_is_the_rollers_tdg_18() -> None:
    g = between_markers()
    pool = list(g.pos.pool)
    ev = draw(g, "B", "usa")
    assert main_event(ev).data["applied"] == "pending"
    assert g.pos.pending is not None and g.pos.pending["kind"] == "event_choice"
    assert g.to_move() == ["usa"] and g.pos.pool == pool  # nothing else drawn yet
    legal = g.legal_actions("usa")
    assert {a["type"] for a in legal} == {"event_choice", "event_pass"}
    assert g.legal_actions("csa") == []
    # both seats see that a choice waits (the letter is public), not its options
    assert g.view("csa")["pending"]["letter"] == "B"
    with pytest.raises(RuleError) as err:
        g.apply({"type": "event_choice", "letter": "B", "choice": "US-nope"}, "usa")
    assert err.value.rule == "tdg.18.0"
    with pytest.raises(RuleError):
        g.apply({"type": "end_activation"}, "usa")
    with pytest.raises(RuleError):
        g.apply(legal[0], "csa")


def test_pass_goes_on_with_the_draw_tdg_18() -> None:
    g = between_markers()
    draw(g, "B", "usa")
    n = len(g.pos.pool)
    ev = chosen(g, {"type": "event_pass"})
    assert any(e.type == "random_event_effect" and e.data.get("passed") for e in ev)
    assert g.pos.pending is None and g.pos.current is not None and len(g.pos.pool) == n - 1


# --- B ---------------------------------------------------------------------------------------
def test_b_activates_one_brigade_outside_the_ams_tdg_18() -> None:
    g = between_markers()
    draw(g, "B", "usa")
    brigade = next(str(a["choice"]) for a in g.legal_actions("usa")
                   if a["type"] == "event_choice")
    b = g.pos.brigades[brigade]
    b.activations = 4  # its AMs spent: B activates it whatever its efficiency
    pool = list(g.pos.pool)
    chosen(g, {"type": "event_choice", "letter": "B", "choice": brigade})
    assert g.pos.pool == pool  # no AM used
    assert g.pos.current is not None and g.eligible_brigades() == [brigade]
    g.apply({"type": "end_orders_change"}, "usa")
    g.apply({"type": "activate", "brigade": brigade}, "usa")
    assert b.activations == 5
    g.apply({"type": "end_activation"}, "usa")
    assert "event_b" not in g.pos.tdg  # over with its marker; the draw goes on


# --- C ---------------------------------------------------------------------------------------
def test_c_flashman_is_no_effect_as_004_allows_tdg_18() -> None:
    g = between_markers()
    before = g.pos.to_json()
    ev = draw(g, "C", "csa")
    assert main_event(ev).data["applied"] is True
    assert next(e for e in ev if e.type == "random_event_effect").data["no_effect"]
    assert g.pos.pending is None
    after = g.pos.to_json()
    assert after["events_happened"] == ["C"]
    after.pop("events_happened")
    assert after == before


# --- D ---------------------------------------------------------------------------------------
def due_now(g: GbacwGame, index: int) -> None:
    p = g.pos
    p.arrived.append(index)
    p.entries[str(index)] = g.scen.arrivals[index].hex
    p.arrived_on[str(index)] = p.turn
    g._memo.clear()


def test_d_holds_a_group_back_a_turn_tdg_18() -> None:
    g = between_markers()
    due_now(g, 0)  # Pettigrew's and Brockenbrough's group, due now with no unit on
    ev = draw(g, "D", "csa")  # one candidate: compulsory, applied at once
    assert main_event(ev).data["applied"] is True
    eff = next(e for e in ev if e.type == "random_event_effect")
    assert eff.data["group"] == g.scen.arrivals[0].id
    assert eff.visible_to == ("csa",)  # the enemy sees only that D happened
    assert 0 not in g.pos.arrived and g.pos.tdg["delayed"] == {"0": g.pos.turn + 1}
    counters = set(g.scen.arrivals[0].counters)
    key = next(k for k, u in g.pos.units.items() if u.counter in counters)
    assert g.waiting(key) is None
    g.pos.turn += 1
    ev = battle_book_step.begin_turn(g)
    g._memo.clear()
    assert 0 in g.pos.arrived and g.pos.arrived_on["0"] == g.pos.turn
    assert g.waiting(key) == g.scen.arrivals[0].hex and "delayed" not in g.pos.tdg
    assert ev[0].type == "reinforcements" and ev[0].visible_to == ("csa",)


def test_d_with_nothing_due_is_no_event_tdg_18() -> None:
    g = between_markers()
    ev = draw(g, "D", "usa")
    assert main_event(ev).data["applied"] is False and g.pos.pending is None


# --- E ---------------------------------------------------------------------------------------
def sniper_setup(g: GbacwGame) -> tuple[str, str]:
    """A Union leader put next to a Confederate infantry unit; returns (leader, hex)."""
    p = g.pos
    foot = next(k for k, u in sorted(p.units.items()) if u.seat == "csa" and u.hex
                and unit_class(g.counter(k)) == "infantry")
    h = g.hex_of(p.units[foot].hex)
    assert h is not None
    spot = next(n for n in h.neighbours() if n in g.cat.board.hexes
                and g.cat.board.hexes[n].id not in {u.hex for u in p.units.values()})
    p.leaders["gamble"] = g.cat.board.hexes[spot].id
    g._memo.clear()
    return "gamble", g.cat.board.hexes[spot].id


@pytest.mark.parametrize(("roll", "killed"), [(3, True), (4, False)])
def test_e_sniper_odd_kills_tdg_18(roll: int, killed: bool) -> None:
    g = between_markers()
    leader, _ = sniper_setup(g)
    draw(g, "E", "csa", roll)
    assert {"type": "event_choice", "letter": "E", "choice": leader} in g.legal_actions("csa")
    ev = chosen(g, {"type": "event_choice", "letter": "E", "choice": leader})
    eff = next(e for e in ev if e.type == "random_event_effect")
    assert eff.data["roll"] == roll and eff.data["killed"] is killed
    assert (g.pos.leaders[leader] is None) is killed
    assert (leader in g.pos.fallen) is killed  # replaced in IV/B as any fallen leader


def test_e_a_leader_out_of_reach_is_refused_tdg_18() -> None:
    g = between_markers()
    sniper_setup(g)
    draw(g, "E", "csa")
    assert {"type": "event_choice", "letter": "E", "choice": "buford"} \
        not in g.legal_actions("csa")  # out of reach (or out of sight)
    with pytest.raises(RuleError):
        g.apply({"type": "event_choice", "letter": "E", "choice": "meade"}, "csa")


# --- G ---------------------------------------------------------------------------------------
def test_g_shifts_a_groups_entry_area_in_secret_tdg_18() -> None:
    g = between_markers()
    due_now(g, 1)
    draw(g, "G", "csa")
    choices = [str(a["choice"]) for a in g.legal_actions("csa") if a["type"] == "event_choice"]
    assert {"1@1", "1@3"} <= set(choices)  # area 2, one number down or up
    assert "1@4" not in choices
    ev = chosen(g, {"type": "event_choice", "letter": "G", "choice": "1@3"})
    eff = next(e for e in ev if e.type == "random_event_effect")
    new = next(i.id for i in g.cat.board.hexes.values() if i.entry == 3)
    assert g.pos.entries["1"] == new and eff.data["hex"] == new
    assert eff.visible_to == ("csa",) and eff.redacted == {"letter": "G"}


def test_g_a_group_due_next_turn_enters_by_the_new_area_tdg_18() -> None:
    g = between_markers()
    g.pos.turn = 2  # A.P. Hill's group is due on the next turn (3)
    draw(g, "G", "csa")
    chosen(g, {"type": "event_choice", "letter": "G", "choice": "1@1"})
    new = next(i.id for i in g.cat.board.hexes.values() if i.entry == 1)
    assert g.pos.tdg["shifted"] == {"1": new}
    g.pos.turn = 3
    due_now(g, 1)
    battle_book_step.begin_turn(g)
    assert g.pos.entries["1"] == new and "shifted" not in g.pos.tdg


# --- K ---------------------------------------------------------------------------------------
def test_k_the_opponent_moves_two_units_up_to_3_hexes_tdg_18() -> None:
    g = between_markers()
    draw(g, "K", "usa")
    assert g.to_move() == ["csa"]  # the roller's opponent moves them
    picks = [a for a in g.legal_actions("csa") if a["type"] == "event_choice"]
    assert picks and all(g.orders_of(str(a["choice"])) != "march" for a in picks)
    moved = []
    for _ in range(2):
        pick = next(a for a in g.legal_actions("csa") if a["type"] == "event_choice")
        key = str(pick["choice"])
        chosen(g, pick)
        u = g.pos.units[key]
        start, facing = g.hex_of(u.hex), u.facing
        assert start is not None
        moves = [a for a in g.legal_actions("csa") if a["type"] == "event_move"]
        assert moves and all(a["unit"] == key for a in moves)
        far = max(moves, key=lambda a: g.cat.board.parse(str(a["to"])).distance(start))
        assert 1 <= g.cat.board.parse(str(far["to"])).distance(start) <= 3
        chosen(g, far)
        assert u.hex == far["to"] and u.facing == facing
        moved.append(key)
    assert g.pos.pending is None and g.pos.current is not None  # the draw went on
    assert len(set(moved)) == 2


# --- N ---------------------------------------------------------------------------------------
def near_enemy(g: GbacwGame) -> str:
    """A Confederate infantry unit put two hexes from a Union unit; returns its key."""
    p = g.pos
    union = next(k for k, u in sorted(p.units.items()) if u.seat == "usa" and u.hex)
    h = g.hex_of(p.units[union].hex)
    assert h is not None
    taken = {u.hex for u in p.units.values()}
    spot = next(n for n in sorted(g.cat.board.hexes, key=lambda x: (x.q, x.r))
                if n.distance(h) == 2 and g.cat.board.hexes[n].id not in taken)
    key = next(k for k, u in sorted(p.units.items()) if u.seat == "csa" and u.hex
               and unit_class(g.counter(k)) == "infantry")
    p.units[key].hex = g.cat.board.hexes[spot].id
    g._memo.clear()
    return key


@pytest.mark.parametrize(("roll", "routs"), [(9, True), (0, False)])
def test_n_panic_routs_above_cohesion_tdg_18(roll: int, routs: bool) -> None:
    g = between_markers()
    key = near_enemy(g)
    cands = event_choices.panic_targets(g, "usa")
    assert key in cands
    ev = draw(g, "N", "usa", roll)  # the panic roll follows the table's two dice
    if len(cands) > 1:
        ev = chosen(g, {"type": "event_choice", "letter": "N", "choice": key})
    else:  # one candidate: compulsory, applied at once
        assert main_event(ev).data["applied"] is True
    eff = next(e for e in ev if e.type == "random_event_effect")
    assert eff.data["unit"] == key and eff.data["routed"] is routs
    assert g.pos.units[key].routed is routs


def test_n_is_compulsory_tdg_18() -> None:
    g = between_markers()
    near_enemy(g)
    draw(g, "N", "usa")
    if g.pos.pending is not None:
        with pytest.raises(RuleError):
            g.apply({"type": "event_pass"}, "usa")


# --- O ---------------------------------------------------------------------------------------
def test_o_brings_a_routed_unit_back_by_its_brigadier_tdg_18() -> None:
    g = between_markers()
    p = g.pos
    key = next(k for k, u in sorted(p.units.items()) if u.seat == "csa" and u.hex
               and unit_class(g.counter(k)) == "infantry"
               and any(g.cat.leader_command.get(ld) == g.formation(k) and h
                       for ld, h in p.leaders.items()))
    u = p.units[key]
    lost = u.lost
    u.hex, u.facing, u.routed = None, None, True
    g._memo.clear()
    draw(g, "O", "csa")
    assert {"type": "event_choice", "letter": "O", "choice": key} in g.legal_actions("csa")
    chosen(g, {"type": "event_choice", "letter": "O", "choice": key})
    brigadier = next(ld for ld in p.leaders if g.cat.leader_command.get(ld) == g.formation(key))
    at = g.hex_of(p.leaders[brigadier])
    here = g.hex_of(u.hex)
    assert here is not None and at is not None and here.distance(at) <= 1
    assert not u.routed and u.disordered and u.lost == lost


# --- Q ---------------------------------------------------------------------------------------
def test_q_buford_not_before_2_july_then_scouting_removes_the_brigade_tdg_18() -> None:
    g = between_markers()
    p = g.pos
    for u in p.units.values():  # the enemy far off: only Buford's date stops it
        if u.seat == "csa":
            u.hex = None
    g._memo.clear()
    ev = draw(g, "Q", "usa")
    assert main_event(ev).data["applied"] is False  # 1 July: Buford's brigades may not go
    g.pos.events_happened.clear()
    p.turn = next(t.index for t in all_charts().turn_track.turns()
                  if t.date.day == 2 and t.hour == 10)
    g._memo.clear()
    draw(g, "Q", "usa")
    brigade = next(str(a["choice"]) for a in g.legal_actions("usa"))
    units = g.brigade_units(brigade)
    brigadier = g.cat.brigade_leader[brigade]
    assert p.leaders[brigadier] is not None
    ev = chosen(g, {"type": "event_choice", "letter": "Q", "choice": brigade})
    assert all(p.units[k].hex is None and g.gone(k) for k in units)
    assert not g.in_play(brigade) and all(p.units[k].lost < g.counter(k).sp for k in units)
    assert not effectiveness.brigade_ci(g, brigade, set())  # gone scouting: not a loss
    # the brigadier leaves with them, out of play and not fallen (no replacement)
    assert p.leaders[brigadier] is None and brigadier not in p.fallen
    assert next(e for e in ev if e.type == "random_event_effect").data["leaders"] == [brigadier]


# --- J ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("roll", "drm", "guns"), [(4, -2, 1), (7, 0, 0)])
def test_j_the_next_battery_to_fire_is_jinxed_tdg_18(roll: int, drm: int, guns: int) -> None:
    g = between_markers()
    ev = draw(g, "J", "csa")
    assert main_event(ev).data["applied"] is True and g.pos.tdg["jinx"] == ["csa"]
    arty = sorted(k for k, u in g.pos.units.items()
                  if unit_class(g.counter(k)) == "artillery" and g.counter(k).sp >= 2)
    usa_gun = next(k for k in arty if g.pos.units[k].seat == "usa")
    csa_gun = next(k for k in arty if g.pos.units[k].seat == "csa")
    assert battle_book_step.jinx_roll(g, usa_gun) == []  # not the jinxed side
    g.dice = ScriptedDice([roll] + [0] * 5, die="d10")
    got = battle_book_step.jinx_roll(g, csa_gun)
    assert got[-1].data == {"letter": "J", "unit": csa_gun, "roll": roll, "drm": drm,
                            "guns_lost": guns}
    assert battle_book_step.jinx_drm(g, csa_gun) == drm
    assert battle_book_step.jinx_drm(g, usa_gun) == 0 and "jinx" not in g.pos.tdg
    lost = g.pos.units[csa_gun].lost
    battle_book_step.after_action(g, {"type": "fire", "unit": csa_gun})
    assert g.pos.units[csa_gun].lost == lost + guns and "jinx_shot" not in g.pos.tdg
    assert battle_book_step.jinx_roll(g, csa_gun) == []  # spent


# --- R ---------------------------------------------------------------------------------------
def test_r_hill_on_the_map_is_replaced_for_3_turns_tdg_18() -> None:
    g = between_markers()
    p = g.pos
    p.leaders["hill-ap"] = p.leaders["heth"]
    t = p.turn
    ev = draw(g, "R", "csa")
    eff = next(e for e in ev if e.type == "random_event_effect")
    assert eff.data["on_map"] is True and eff.data["last_turn"] == t + 2
    stand_in = eff.data["stand_in"]
    assert stand_in == g.cat.oob.replacement_chain("hill-ap")[1]
    assert p.acting["hill-ap"] == stand_in
    for turn in (t + 1, t + 2):
        p.turn = turn
        battle_book_step.begin_turn(g)
        assert p.acting.get("hill-ap") == stand_in
    p.turn = t + 3
    ev = battle_book_step.begin_turn(g)
    assert "hill-ap" not in p.acting and ev[0].data["recovered"] is True


def test_r_hill_off_the_map_comes_later_tdg_18() -> None:
    g = between_markers()
    p = g.pos
    ev = draw(g, "R", "usa", 4)  # even: two turns
    eff = next(e for e in ev if e.type == "random_event_effect")
    due = g.scen.arrivals[1].turn  # his group's turn (3)
    assert eff.data["delay"] == 2 and p.tdg["hill"]["until"] == due + 2
    # his group comes on at its turn: he is kept off the map
    p.turn = due
    p.leaders["hill-ap"] = "A1234"
    got = battle_book_step.after_action(g, {"type": "move", "unit": "x"})
    assert p.leaders["hill-ap"] is None and got[0].data["kept_off_until"] == due + 2
    corps_unit = next(k for k, u in sorted(p.units.items()) if u.hex and u.seat == "csa"
                      and p.brigades[g.formation(k)].corps
                      == g.cat.leader_command.get("hill-ap"))
    p.turn = due + 2
    battle_book_step.begin_turn(g)
    assert p.leaders["hill-ap"] == p.units[corps_unit].hex


# --- saves and replays ------------------------------------------------------------------------
def test_a_pending_choice_saves_and_replays_tdg_18() -> None:
    from gettysburg.core.protocol import load_game

    g = between_markers()
    draw(g, "K", "usa")
    loaded = load_game(g.to_json())
    assert loaded.legal_actions("csa") == g.legal_actions("csa")


# --- H ---------------------------------------------------------------------------------------
def test_h_imboden_enters_next_turn_by_area_1_or_2_tdg_18(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """004 §18.0 H with tdg §14.77: Herr Ridge standing in for the whole battle (whose
    set-up takes too long for a unit test): the scenario's Imboden rule is patched in."""
    from gettysburg.core.protocol import load_game

    g = between_markers()
    assert event_choices.imboden_areas(g, "csa") == []  # no Imboden rule in Herr Ridge
    monkeypatch.setattr(imboden, "in_play", lambda game: True)
    monkeypatch.setattr(imboden, "areas", lambda game: [1, 2])
    draw(g, "H", "csa")
    assert g.legal_actions("csa") == [
        {"type": "event_choice", "letter": "H", "choice": "1"},
        {"type": "event_choice", "letter": "H", "choice": "2"}, {"type": "event_pass"}]
    t = g.pos.turn
    chosen(g, {"type": "event_choice", "letter": "H", "choice": "1"})
    keys = [k for k, u in g.pos.units.items() if g.formation(k) == imboden.FORMATION]
    assert len(keys) == len(imboden.counters(g)) >= 4  # regiments split as the OOB counts them
    assert all(g.pos.units[k].hex is None for k in keys)
    assert g.pos.brigades[imboden.FORMATION].orders == "advance"
    assert all(g.waiting(k) is None for k in keys)  # next turn, not now
    area_1 = next(i.id for i in g.cat.board.hexes.values() if i.entry == 1)
    assert g.pos.tdg["imboden"] == {"turn": t + 1, "area": 1, "hex": area_1}
    # the game's own schedule has the group; a loaded save has it too
    assert g.scen.arrivals[-1].id == "imboden" and g.scen.arrivals[-1].turn == t + 1
    assert GbacwGame("herr-ridge").scen.arrivals[-1].id != "imboden"  # others untouched
    loaded = load_game(g.to_json())
    assert isinstance(loaded, GbacwGame) and loaded.scen.arrivals[-1].id == "imboden"
    g.pos.turn = t + 1
    g._memo.clear()
    g._begin_turn()
    assert all(g.waiting(k) == area_1 for k in keys)
    assert event_choices.imboden_areas(g, "csa") == []  # once in play, never again


def test_h_is_no_event_for_the_union_tdg_18() -> None:
    g = between_markers()
    assert main_event(draw(g, "H", "usa")).data["letter"] is None


# --- L ---------------------------------------------------------------------------------------
def test_l_the_u_brigadier_is_drunk_until_the_next_days_first_day_turn_tdg_18() -> None:
    g = between_markers()
    assert drunk.candidates(g, "csa") == ["davis"]  # the one U-rated brigadier on the map
    assert g.cat.rating("davis", "orders") != -2
    ev = draw(g, "L", "csa")  # one candidate: compulsory, applied at once
    assert main_event(ev).data["applied"] is True
    assert g.cat.rating("davis", "orders") == -2
    assert g.cat.rating("davis", "command_range", 4) == 2
    assert g.cat.rating("archer", "orders") == GbacwGame("herr-ridge").cat.rating(
        "archer", "orders")  # only him
    here = g.leader_hex("davis")
    assert here is not None
    assert all(g.leader_reach("davis", 3)[h] <= 6 for h in g.leader_moves("davis"))
    assert len(g.leader_moves("davis")) < len(g.leader_reach("davis", 10)) - 1
    turns = all_charts().turn_track.turns()
    t = g.pos.turn
    night = next(x.index for x in turns if x.date == turns[t].date and x.light != "day"
                 and x.index > t)
    g.pos.turn = night
    battle_book_step.begin_turn(g)
    assert drunk.is_drunk(g, "davis")  # the rest of the day
    g.pos.turn = next(x.index for x in turns if x.date > turns[t].date and x.light == "day")
    ev = battle_book_step.begin_turn(g)
    assert not drunk.is_drunk(g, "davis") and ev[-1].data == {"letter": "L", "sober": "davis"}


def test_l_relief_next_to_the_corps_commander_tdg_18() -> None:
    g = between_markers()
    draw(g, "L", "csa")
    p = g.pos
    brigade = g.cat.leader_command["davis"]
    p.current, p.brigade, p.phase = f"csa/{p.brigades[brigade].division}", brigade, "action"
    p.brigades[brigade].did = []  # its activation starts
    g._memo.clear()
    assert not [a for a in g.legal_actions("csa") if a["type"] == "relieve"]  # Hill is away
    with pytest.raises(RuleError):
        g.apply({"type": "relieve", "leader": "davis"}, "csa")
    p.leaders["hill-ap"] = p.leaders["davis"]  # his corps commander with him
    g._memo.clear()
    assert {"type": "relieve", "leader": "davis"} in g.legal_actions("csa")
    ev = g.apply({"type": "relieve", "leader": "davis"}, "csa")
    assert ev[0].type == "relieved" and p.leaders["davis"] is None
    assert "davis" in p.fallen and not drunk.is_drunk(g, "davis")  # replaced in IV/B


# --- P ---------------------------------------------------------------------------------------
def test_p_the_roller_takes_a_hero_marker_tdg_18() -> None:
    g = between_markers()
    ev = draw(g, "P", "usa")
    assert main_event(ev).data["applied"] is True  # played at the UDDs (E-33)
    assert [e.data.get("policy") for e in ev if e.type == "random_event_effect"] == [None]
    assert battle_book_step.holds_hero(g, "usa") == 1
    g.pos.events_happened.clear()
    draw(g, "P", "usa")  # may happen more than once; several may be held
    assert battle_book_step.holds_hero(g, "usa") == 2 and battle_book_step.holds_hero(g, "csa") == 0


# --- every choice answered at random keeps the game going ----------------------------------------
def _sound(g: GbacwGame) -> None:
    """Units on the map face somewhere, are in play, and never share a hex with the enemy."""
    seats_at: dict[str, set[str]] = {}
    for k, u in g.pos.units.items():
        if u.hex is not None:
            assert u.facing is not None and not g.gone(k), k
            seats_at.setdefault(u.hex, set()).add(u.seat)
    assert all(len(seats) == 1 for seats in seats_at.values())


@pytest.mark.parametrize("letter", event_choices.LETTERS)
@pytest.mark.parametrize("seed", [1, 2])
def test_random_answers_end_the_choice_and_the_draw_goes_on_tdg_18(letter: str,
                                                                   seed: int) -> None:
    """Each choice letter, rolled by either side on a position where it applies (the
    letters' set-ups above), answered by random legal actions: the choice ends, the draw
    goes on, every listed action is accepted, the position saves and loads the same."""
    import random

    from gettysburg.core.protocol import load_game

    rng = random.Random(seed)
    g = between_markers()
    due_now(g, 0)
    sniper_setup(g)
    near_enemy(g)
    roller = "csa" if letter in "HL" or seed == 1 else "usa"
    draw(g, letter, roller, *[rng.randrange(10) for _ in range(4)])
    if not battle_book_step.choosing(g):  # as steps._draw goes on after an event
        g._draw()
    for _ in range(12):
        if g.pos.pending is None or g.pos.pending.get("kind") != "event_choice":
            break
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        for a in legal:
            g.validate(a, seat)
        g.apply(rng.choice(legal), seat)
    assert g.pos.pending is None or g.pos.pending.get("kind") != "event_choice"
    assert g.to_move() and g.legal_actions(g.to_move()[0])
    _sound(g)
    again = load_game(g.to_json())
    assert again.state_hash() == g.state_hash()


def test_j_through_a_battery_shot_in_the_engine_tdg_18() -> None:
    """J's mark on the Confederates; Pee Dee fires at a Union unit two hexes ahead (the
    Union holds its return fire): the Union's d10 (4, even) gives -2 on the Fire Table roll
    and Pee Dee loses a gun after the shot; the mark is spent."""
    g = between_markers()
    p = g.pos
    key = "CS-III:Pee Dee"
    u = p.units[key]
    h = g.hex_of(u.hex)
    assert h is not None and u.facing is not None
    ahead = h.neighbour(u.facing.index).neighbour(u.facing.index)
    target = next(k for k, w in sorted(p.units.items()) if w.seat == "usa" and w.hex)
    p.units[target].hex = g.cat.board.hexes[ahead].id
    brigade = g.formation(key)
    p.current, p.brigade = f"csa/{p.brigades[brigade].division}", brigade
    g._memo.clear()
    shot = {"type": "fire", "unit": key, "target": g.cat.board.hexes[ahead].id}
    assert shot in g.legal_actions("csa")
    p.tdg["jinx"] = ["csa"]
    guns = g.counter(key).sp - u.lost
    g.dice = ScriptedDice([4] + [5] * 30, die="d10")
    g.apply(shot, "csa")
    ev = g.apply({"type": "hold"}, "usa")  # 002 §10.42: the shot is rolled after the answer
    jinx = next(e for e in ev if e.type == "random_event_effect")
    assert jinx.data == {"letter": "J", "unit": key, "roll": 4, "drm": -2, "guns_lost": 1}
    fire = next(e for e in ev if e.type == "fire")
    assert {"source": "battery-jinx", "value": -2, "rule": "tdg.18.0"} in fire.data["modifiers"]
    assert g.counter(key).sp - u.lost == guns - 1 and "jinx" not in p.tdg
    assert "jinx_shot" not in p.tdg
