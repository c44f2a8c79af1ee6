"""Formations in the GBACW engine (issue 52, gbacw/formation_step.py): extended lines and
columns, refused flanks, one facing a hex, road rates on Advance, from the hand-made
position tests/data/gbacw/formations.yaml (Pettigrew's brigade spread on open ground, Davis's
on March behind it, Gamble far away)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import formation_step
from gettysburg.gbacw.extension import ExtendedLine
from gettysburg.gbacw.facing import Facing, flank_direction, front_hexes, rear_hexes
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.state import Position

FORMATIONS = str(Path(__file__).parent / "data" / "gbacw" / "formations.yaml")
PETTIGREW, DAVIS = "CS-Pettigrew/Heth", "CS-Davis/Heth"
NC11, NC26, NC47, NC52 = "CS-III:11 NC", "CS-III:26 NC", "CS-III:47 NC", "CS-III:52 NC"
MS11 = "CS-III:11 MS"
ENEMY = "US-Cav:12 IL"


def active(brigade: str = PETTIGREW, marker: str = "csa/CS-Heth/III",
           seat: str = "csa") -> GbacwGame:
    """The brigade active on ``marker`` (the marker put in play by hand)."""
    g = GbacwGame(FORMATIONS, dice=ScriptedDice([7, 3, 0, 5, 4] + [0] * 80, die="d10"))
    g.apply({"type": "end_orders"}, "usa")
    g.apply({"type": "end_orders"}, "csa")
    p = g.pos
    p.pool.remove(marker)
    p.current, p.phase, p.brigade = marker, "action", None
    g.apply({"type": "activate", "brigade": brigade}, seat)
    return g


def hid(g: GbacwGame, h: object) -> str:
    return g.cat.board.hexes[h].id  # type: ignore[index]


def flank(g: GbacwGame, key: str, side: str) -> str:
    u = g.pos.units[key]
    here = g.hex_of(u.hex)
    assert here is not None and u.facing is not None
    return hid(g, here.neighbour(flank_direction(u.facing, side)))  # type: ignore[arg-type]


def of_type(g: GbacwGame, kind: str, unit: str, seat: str = "csa") -> list[dict[str, object]]:
    return [a for a in g.legal_actions(seat) if a["type"] == kind and a.get("unit") == unit]


def test_extend_one_side_from_8_sp_both_from_15_8_41_8_43() -> None:
    g = active()
    sides = [a["sides"] for a in of_type(g, "extend", NC11)]  # 12 SP
    assert sides == [["left"], ["right"]]
    sides = [a["sides"] for a in of_type(g, "extend", NC26)]  # 17 SP
    assert sides == [["left"], ["right"], ["left", "right"]]
    with pytest.raises(RuleError) as err:
        g.apply({"type": "extend", "unit": NC11, "sides": ["left", "right"]}, "csa")
    assert err.value.rule == "8.43"


def test_extending_costs_the_entry_and_leaves_the_move_8_42() -> None:
    g = active()
    target = flank(g, NC11, "right")
    ev = g.apply({"type": "extend", "unit": NC11, "sides": ["right"]}, "csa")
    u = g.pos.units[NC11]
    assert u.extension == "line" and u.extends == [target]
    assert u.mp_spent == 1 and u.formation_mp == 1  # open ground: 1 MP
    assert [e.type for e in ev] == ["extend"] and ev[0].data["mp"] == 1
    assert of_type(g, "move", NC11)  # the unit still moves, with what is left
    for seat in ("usa", "csa"):  # the marker is on the map: both seats see it
        assert g.view(seat)["units"][NC11]["extends"] == [target]


def test_no_extension_next_to_the_enemy_or_onto_infantry_8_41() -> None:
    g = active()
    right = g.cat.board.parse(flank(g, NC11, "right"))
    u = g.pos.units[NC11]
    assert u.facing is not None
    # an enemy unit beyond the right flank hex, another friend in the left flank hex
    g.pos.units[ENEMY].hex = hid(g, right.neighbour(flank_direction(u.facing, "right")))
    g.pos.units[NC47].hex = flank(g, NC11, "left")
    g._memo.clear()
    assert of_type(g, "extend", NC11) == []
    with pytest.raises(RuleError) as err:
        g.apply({"type": "extend", "unit": NC11, "sides": ["right"]}, "csa")
    assert err.value.rule == "8.41"
    assert g.pos.units[NC11].extends == []  # refused: nothing changed


def test_an_extended_line_moves_as_one_and_pivots_8_44() -> None:
    g = active()
    g.apply({"type": "extend", "unit": NC11, "sides": ["right"]}, "csa")
    u = g.pos.units[NC11]
    here, f = g.hex_of(u.hex), u.facing
    assert here is not None and f is not None
    moves = of_type(g, "move", NC11)
    ahead = hid(g, front_hexes(here, f)[0])
    assert {"type": "move", "unit": NC11, "to": ahead, "facing": f.to_json()} in moves
    # the pivot on the left end (the counter's hex) keeps the counter where it is
    pivot = Facing.vertex(f.index + 1)
    assert {"type": "move", "unit": NC11, "to": u.hex, "facing": pivot.to_json()} in moves
    # no sideways or backward step: every listed line keeps its shape
    for a in moves:
        line = ExtendedLine.extend(g.cat.board.parse(str(a["to"])),
                                   Facing.from_json(a["facing"]), ["right"])
        assert len(line.hexes) == 2
    g.apply({"type": "move", "unit": NC11, "to": ahead, "facing": f.to_json()}, "csa")
    assert g.pos.units[NC11].hex == ahead
    assert g.pos.units[NC11].extends == [flank(g, NC11, "right")]


def test_an_extended_line_turns_in_place_only_about_8_44() -> None:
    g = active()
    g.apply({"type": "extend", "unit": NC11, "sides": ["right"]}, "csa")
    u = g.pos.units[NC11]
    assert u.facing is not None
    back = Facing.vertex(u.facing.index + 3)
    extends = list(u.extends)
    assert [a["facing"] for a in of_type(g, "face", NC11)] == [back.to_json()]
    g.apply({"type": "face", "unit": NC11, "facing": back.to_json()}, "csa")
    line = formation_step.line_of(g, NC11)
    assert line is not None and g.pos.units[NC11].extends == extends
    assert flank(g, NC11, "left") == extends[0]  # right became left


def test_retract_into_the_counter_or_the_extension_8_42() -> None:
    g = active()
    g.apply({"type": "extend", "unit": NC11, "sides": ["right"]}, "csa")
    ext = g.pos.units[NC11].extends[0]
    start = g.pos.units[NC11].hex
    targets = {a["to"] for a in of_type(g, "retract", NC11)}
    assert targets == {start, ext}
    g.apply({"type": "retract", "unit": NC11, "to": ext}, "csa")
    u = g.pos.units[NC11]
    assert u.hex == ext and u.extends == [] and u.extension is None
    assert u.formation_mp == 2


def test_a_line_too_weak_is_retracted_at_the_brigade_s_end_8_42() -> None:
    g = active()
    g.apply({"type": "extend", "unit": NC11, "sides": ["right"]}, "csa")
    g.pos.units[NC11].lost = 5  # 7 SP left: under the 8 a line needs
    ev = g.apply({"type": "end_brigade"}, "csa")
    assert g.pos.units[NC11].extends == []
    assert any(e.type == "retract" and e.rule == "8.42" for e in ev)


def test_refuse_then_unrefuse_before_moving_7_32_7_33() -> None:
    g = active()
    assert {a["side"] for a in of_type(g, "refuse", NC47)} == {"left", "right"}
    g.apply({"type": "refuse", "unit": NC47, "side": "left"}, "csa")
    u = g.pos.units[NC47]
    assert u.refused == ["left"] and u.mp_spent == 1
    assert of_type(g, "move", NC47) == [] and of_type(g, "face", NC47) == []
    with pytest.raises(RuleError) as err:
        g.apply({"type": "face", "unit": NC47, "facing": Facing.vertex(0).to_json()}, "csa")
    assert err.value.rule == "7.33"
    assert g.view("usa")["units"][NC47]["refused"] == ["left"]
    g.apply({"type": "unrefuse", "unit": NC47}, "csa")
    assert u.refused == [] and u.formation_mp == 2
    assert of_type(g, "move", NC47)  # it moves on with its MA less 2


def test_a_stack_refuses_as_one_8_26() -> None:
    g = active()
    g.pos.units[NC52].hex = g.pos.units[NC47].hex
    g.pos.units[NC52].facing = g.pos.units[NC47].facing
    g._memo.clear()
    ev = g.apply({"type": "refuse", "unit": NC47, "side": "right"}, "csa")
    assert g.pos.units[NC52].refused == ["right"]
    assert ev[0].data["stack"] == sorted([NC47, NC52])


def test_no_refusal_next_to_the_enemy_7_32() -> None:
    g = active()
    u = g.pos.units[NC47]
    here = g.hex_of(u.hex)
    assert here is not None and u.facing is not None
    g.pos.units[ENEMY].hex = hid(g, front_hexes(here, u.facing)[0])
    g._memo.clear()
    assert of_type(g, "refuse", NC47) == []
    with pytest.raises(RuleError) as err:
        g.apply({"type": "refuse", "unit": NC47, "side": "left"}, "csa")
    assert err.value.rule == "7.32"


def test_one_facing_in_a_hex_and_a_turn_turns_the_stack_7_11_8_26() -> None:
    g = active("US-1/1/Cav", "usa/US-1/Cav", "usa")  # dismounted cavalry: 5-9 SP units
    mover, friend = "US-Cav:3 IN", "US-Cav:12 IL"
    um, uf = g.pos.units[mover], g.pos.units[friend]
    here = g.hex_of(um.hex)
    assert here is not None and um.facing is not None
    # the friend just ahead, facing another way (8 NY's first battalion, there at set-up,
    # goes to the friend's old hex: three regiments would break the stacking limit)
    ahead = front_hexes(here, um.facing)[0]
    for v in g.pos.units.values():
        if v.hex == hid(g, ahead):
            v.hex = uf.hex
    uf.hex, uf.facing = hid(g, ahead), Facing.vertex(um.facing.index + 2)
    g._memo.clear()
    into = [a for a in of_type(g, "move", mover, "usa") if a["to"] == hid(g, ahead)]
    assert into and all(a["facing"] == uf.facing.to_json() for a in into)
    # turning one unit of a stack turns them all
    uf.hex, uf.facing = um.hex, um.facing
    g._memo.clear()
    turn = of_type(g, "face", mover, "usa")[0]
    ev = g.apply(turn, "usa")
    assert uf.facing == um.facing and ev[0].data["stack"] == [friend]


def test_a_march_column_trails_behind_its_lead_8_5() -> None:
    g = active(DAVIS, "csa/march")
    start = g.pos.units[MS11].hex
    far = [a for a in of_type(g, "move", MS11)
           if g.cat.board.parse(str(a["to"])).distance(g.cat.board.parse(str(start))) >= 3]
    assert far
    g.apply(far[0], "csa")
    u = g.pos.units[MS11]
    assert u.extension == "column" and len(u.extends) == 1  # 12 SP: one extension
    trail = g.cat.board.parse(u.extends[0])
    lead = g.hex_of(u.hex)
    assert lead is not None and trail.distance(lead) == 1
    # no listed move of another unit ends in the column's trail
    for k in g.active_units():
        if k != MS11:
            assert all(a["to"] != u.extends[0] for a in of_type(g, "move", k))


def column_on_attack() -> GbacwGame:
    """11 MS marched into a two-hex column; then its brigade's orders turn to Attack and
    the unit is fresh for a new activation (its move counters reset by hand)."""
    g = active(DAVIS, "csa/march")
    a = next(x for x in of_type(g, "move", MS11) if x["to"] != g.pos.units[MS11].hex)
    g.apply(a, "csa")
    assert g.pos.units[MS11].extends
    g.pos.brigades[DAVIS].orders = "attack"
    g._refacing(DAVIS)
    u = g.pos.units[MS11]
    u.moves = u.mp_spent = u.formation_mp = 0
    g._memo.clear()
    return g


def test_a_column_on_attack_retracts_or_forms_line_first_8_53() -> None:
    """The column stays a column under the new orders; before anything else it retracts
    (into either hex) or forms line, free (§8.53 with §7.26); a move is refused till then."""
    g = column_on_attack()
    u = g.pos.units[MS11]
    assert u.extension == "column" and len(u.extends) == 1
    kinds = sorted({str(a["type"]) for a in g.legal_actions("csa") if a.get("unit") == MS11})
    # §9.54's way for an extended unit retracts first too (disordered, then withdraws)
    assert kinds == ["form", "retract", "withdrawal_move"]
    with pytest.raises(RuleError) as err:
        g.validate({"type": "move", "unit": MS11, "to": u.extends[0],
                    "facing": u.facing.to_json()}, "csa")  # type: ignore[union-attr]
    assert err.value.rule == "8.53"
    form = of_type(g, "form", MS11)[0]
    ev = g.apply(form, "csa")
    assert ev[0].data["mp"] == 0 and u.mp_spent == 0
    assert u.extension == "line" and of_type(g, "move", MS11)


def test_a_column_on_attack_that_did_not_choose_gathers_at_its_end_8_53() -> None:
    g = column_on_attack()
    u = g.pos.units[MS11]
    lead = u.hex
    ev = g.apply({"type": "end_brigade"}, "csa")
    gathered = [e for e in ev if e.type == "retract" and e.rule == "8.53"]
    assert gathered and gathered[0].data["unit"] == MS11
    assert u.extension is None and u.extends == [] and u.hex == lead


def test_a_column_that_cannot_form_line_gathers_at_the_orders_change_8_53_7_26() -> None:
    """A column whose flank hexes are taken (every way of forming a line refused) gathers
    in its lead hex at the change to Attack; a change to March gathers a line that cannot
    become a one-trail column (§7.26)."""
    g = active(DAVIS, "csa/march")
    a = next(x for x in of_type(g, "move", MS11) if x["to"] != g.pos.units[MS11].hex)
    g.apply(a, "csa")
    assert g.pos.units[MS11].extends
    lead = g.hex_of(g.pos.units[MS11].hex)
    assert lead is not None
    spare = [NC11, NC26, NC47, NC52, ENEMY]
    ext = g.hex_of(g.pos.units[MS11].extends[0])
    for k, x in zip(spare, [n for n in lead.neighbours() if n != ext], strict=False):
        g.pos.units[k].hex = hid(g, x)  # every other neighbour taken
    g.pos.brigades[DAVIS].orders = "attack"
    g._refacing(DAVIS)
    assert g.pos.units[MS11].extends == [] and g.pos.units[MS11].extension is None
    h = active()  # a line of a unit too big for a one-hex trail gathers on March
    h.apply({"type": "extend", "unit": NC26, "sides": ["right"]}, "csa")
    h.pos.brigades[PETTIGREW].orders = "march"
    h._refacing(PETTIGREW)
    assert h.pos.units[NC26].extends == []


def test_road_rates_on_advance_need_march_stacking_8_13() -> None:
    g = active()
    assert formation_step.may_use_roads(g, NC26)  # alone: its column spreads it (8.5)
    g.pos.units[NC47].hex = g.pos.units[NC52].hex  # 22 SP of two units in one hex
    assert not formation_step.may_use_roads(g, NC47)


def test_formations_survive_a_save_and_a_replay() -> None:
    g = active()
    g.apply({"type": "extend", "unit": NC26, "sides": ["left", "right"]}, "csa")
    g.apply({"type": "refuse", "unit": NC47, "side": "left"}, "csa")
    data = g.pos.to_json()
    back = Position.from_json(data)
    assert back.to_json() == data
    assert back.units[NC26].extends == g.pos.units[NC26].extends
    assert len(back.units[NC26].extends) == 2 and back.units[NC47].refused == ["left"]
    # the split of its strength over three hexes (002 §8.44: 17 is 6/6/5)
    assert sorted(formation_step.part_strengths(g, NC26).values()) == [5, 6, 6]


def gamble_stack(entry: str) -> tuple[GbacwGame, str, str, Hex]:
    """Gamble active; 12 IL stands in the open at A2810 facing vertex 1, 3 IN next to it on
    its ``entry`` side ("front" or "rear") facing it."""
    g = active("US-1/1/Cav", "usa/US-1/Cav", "usa")
    mover, friend = "US-Cav:3 IN", "US-Cav:12 IL"
    um, uf = g.pos.units[mover], g.pos.units[friend]
    h = g.cat.board.parse("A2810")
    uf.hex, uf.facing = "A2810", Facing.vertex(1)
    start = front_hexes(h, uf.facing)[0] if entry == "front" else h.neighbour(4)
    um.hex = hid(g, start)
    um.facing = next(Facing.vertex(v) for v in range(6)
                     if h in front_hexes(start, Facing.vertex(v)))
    g._memo.clear()
    return g, mover, friend, h


@pytest.mark.parametrize("entry,top", [("front", True), ("rear", False)])
def test_a_unit_entering_through_the_front_goes_on_top_8_23(entry: str, top: bool) -> None:
    g, mover, friend, h = gamble_stack(entry)
    into = [a for a in of_type(g, "move", mover, "usa") if a["to"] == "A2810"]
    assert into
    g.apply(into[0], "usa")
    assert formation_step.stack_of(g, h) == ([mover, friend] if top else [friend, mover])
    assert g.view("csa")["units"][mover]["stack"] == (0 if top else 1)


def test_reordering_instead_of_moving_8_24() -> None:
    g, mover, friend, h = gamble_stack("rear")
    g.pos.units[mover].hex = "A2810"
    g.pos.units[mover].facing = g.pos.units[friend].facing
    g.pos.units[friend].stack, g.pos.units[mover].stack = 0, 1
    g._memo.clear()
    assert of_type(g, "restack", mover, "usa") == [{"type": "restack", "unit": mover}]
    assert of_type(g, "restack", friend, "usa") == []  # already on top
    g.apply({"type": "restack", "unit": mover}, "usa")
    assert formation_step.stack_of(g, h) == [mover, friend]
    assert of_type(g, "move", mover, "usa") == []  # it reordered instead of moving
    # not in an enemy's front hex
    g2, m2, f2, h2 = gamble_stack("rear")
    g2.pos.units[m2].hex, g2.pos.units[m2].facing = "A2810", g2.pos.units[f2].facing
    g2.pos.units[m2].stack = 1
    enemy = g2.pos.units[NC11]
    enemy.hex = hid(g2, h2.neighbour(0))
    enemy.facing = next(Facing.vertex(v) for v in range(6)
                        if h2 in front_hexes(h2.neighbour(0), Facing.vertex(v)))
    g2._memo.clear()
    with pytest.raises(RuleError) as err:
        g2.apply({"type": "restack", "unit": m2}, "usa")
    assert err.value.rule == "8.24"


def test_an_about_face_reverses_the_stack_7_21() -> None:
    g, mover, friend, h = gamble_stack("rear")
    um, uf = g.pos.units[mover], g.pos.units[friend]
    um.hex, um.facing = "A2810", uf.facing
    uf.stack, um.stack = 0, 1
    g._memo.clear()
    assert uf.facing is not None
    back = Facing.vertex(uf.facing.index + 3)
    turns = [a for a in of_type(g, "face", friend, "usa") if a["facing"] == back.to_json()]
    assert turns
    g.apply(turns[0], "usa")
    assert formation_step.stack_of(g, h) == [mover, friend]
    assert um.facing == back


def test_a_stack_within_march_limits_moves_as_one_8_21_8_25() -> None:
    g, mover, friend, _ = gamble_stack("rear")
    um, uf = g.pos.units[mover], g.pos.units[friend]
    um.hex, um.facing, um.lost = "A2810", uf.facing, 3  # 3 SP under 12 IL's 4: 7 SP
    uf.lost = 1
    uf.stack, um.stack = 0, 1
    g._memo.clear()
    moves = of_type(g, "move_stack", friend, "usa")
    assert moves and of_type(g, "move_stack", mover, "usa") == []  # the top unit leads
    g.apply(moves[0], "usa")
    assert um.hex == uf.hex == moves[0]["to"] and um.facing == uf.facing
    # over March limits (8 SP) it may not: 3 SP under 12 IL's 5
    g2, m2, f2, _ = gamble_stack("rear")
    g2.pos.units[m2].hex, g2.pos.units[m2].facing = "A2810", g2.pos.units[f2].facing
    g2.pos.units[m2].lost, g2.pos.units[m2].stack = 3, 1
    g2._memo.clear()
    assert of_type(g2, "move_stack", f2, "usa") == []


def test_joining_a_refused_stack_costs_1_mp_more_and_refuses_7_32() -> None:
    g, mover, friend, _ = gamble_stack("rear")
    g.pos.units[friend].refused = ["left"]
    g._memo.clear()
    plain, joined = gamble_stack("rear")[0], g
    into = [a for a in of_type(joined, "move", mover, "usa") if a["to"] == "A2810"]
    base = [a for a in of_type(plain, "move", mover, "usa") if a["to"] == "A2810"]
    assert into and base
    plain.apply(base[0], "usa")
    joined.apply(into[0], "usa")
    assert joined.pos.units[mover].mp_spent == plain.pos.units[mover].mp_spent + 1
    assert joined.pos.units[mover].refused == ["left"]


def test_a_line_forms_a_column_and_back_8_44_8_52() -> None:
    g = active()
    g.apply({"type": "extend", "unit": NC11, "sides": ["right"]}, "csa")
    u = g.pos.units[NC11]
    here = g.hex_of(u.hex)
    assert here is not None
    ext = g.cat.board.parse(u.extends[0])
    forms = of_type(g, "form", NC11)
    assert forms
    for a in forms:  # the extension ends behind the lead
        f = Facing.from_json(a["facing"])
        assert ext in (here.neighbour((f.index + 3) % 6), here.neighbour((f.index + 4) % 6))
    g.apply(forms[0], "csa")
    assert u.extension == "column" and u.extends == [hid(g, ext)]
    assert of_type(g, "face", NC11) == []  # a column does not turn in place
    back = of_type(g, "form", NC11)
    assert back
    g.apply(back[0], "csa")
    assert u.extension == "line" and formation_step.line_of(g, NC11) is not None


def test_a_line_becomes_a_column_on_march_orders_7_26() -> None:
    """11 NC (12 SP: one trailing hex in column) extended to its right: March orders turn
    the line into a column, free, its counter leading away from the extension, which stays;
    26 NC (17 SP, two trailing hexes) gathers instead."""
    g = active()
    g.apply({"type": "extend", "unit": NC11, "sides": ["right"]}, "csa")
    g.apply({"type": "extend", "unit": NC26, "sides": ["left"]}, "csa")
    u, w = g.pos.units[NC11], g.pos.units[NC26]
    ext, here = g.hex_of(u.extends[0]), g.hex_of(u.hex)
    assert ext is not None and here is not None
    g.pos.brigades[PETTIGREW].orders = "march"
    g._refacing(PETTIGREW)
    assert u.extension == "column" and u.extends == [hid(g, ext)]
    assert u.facing is not None and u.facing.kind == "side"
    assert rear_hexes(here, u.facing) == (ext,)
    assert w.extension is None and w.extends == []


def test_an_extended_line_builds_facing_as_it_stands_15_15_8_44() -> None:
    """Each part of a line may build (§15.15), but turning the builder to the works would
    break the line (§8.44): an extended unit builds only facing as it stands."""
    from gettysburg.gbacw import engineering_step

    g = active()
    u = g.pos.units[NC11]
    assert u.facing is not None
    u.extension, u.extends = "line", [flank(g, NC11, "right")]
    g._memo.clear()
    turned = {"type": "build", "unit": NC11,
              "facing": Facing.vertex(u.facing.index + 1).to_json()}
    with pytest.raises(RuleError) as err:
        engineering_step.check_build(g, turned, "csa")
    assert err.value.rule == "15.15"
    same = {"type": "build", "unit": NC11, "facing": u.facing.to_json()}
    with pytest.raises(RuleError) as err:  # refused for the ground, not for the facing
        engineering_step.check_build(g, same, "csa")
    assert err.value.rule != "15.15"


def test_a_loose_cannon_step_back_gathers_a_column_6_24_8_5() -> None:
    """Loose Cannon's step back (§6.24) of a March column: the unit ends in one hex, its
    trail given up (a column never keeps its shape off its road move; a formations fuzz
    found the trail left behind, two hexes from its lead)."""
    from gettysburg.gbacw import orders_step

    g = active(DAVIS, "csa/march")
    a = next(x for x in of_type(g, "move", MS11) if x["to"] != g.pos.units[MS11].hex)
    g.apply(a, "csa")
    u = g.pos.units[MS11]
    assert u.extension == "column" and len(u.extends) == 1
    trail = list(u.extends)
    g._memo.clear()
    ev = orders_step._step_back(g, MS11)
    assert ev and ev[0].data["to"] is not None and u.hex == ev[0].data["to"]
    assert ev[0].data["given_up"] == trail and u.extension is None and u.extends == []
