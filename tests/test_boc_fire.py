"""Fire combat (5.x) with scripted dice: examples from the rulebooks and the edge cases."""

from __future__ import annotations

import pytest

from boc_boards import make_board
from boc_combat_helpers import block, clear_board, make_state, orders_of
from gettysburg.boc.combat import FIRE, Context, firepower, hexside_penalty, roll_hits
from gettysburg.boc.fire import (
    FireLedger,
    end_fire_phase,
    fire_options,
    pending_decision,
    resolve_choice,
    resolve_fire,
)
from gettysburg.boc.state import ELIMINATED
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import RuleError

# J6's neighbours are J5 J7 I6 K6 I5 K7 (boc-facts 1).


def fire(board, st, orders, ledger, act, dice, side="csa"):  # type: ignore[no-untyped-def]
    return resolve_fire(board, st, orders, ledger, side, act, ScriptedDice(dice))


def test_fire_example_5_2_strength_3_b2_hits_on_ones_and_twos() -> None:
    board = clear_board()
    o = orders_of(block("csa-a", rating="B2"), block("usa-x", rating="B2"))
    st = make_state(board, [("csa-a", "J6", 3), ("usa-x", "K6", 4)])
    led = FireLedger()
    out = fire(board, st, o, led, {"type": "fire", "unit": "csa-a", "target": "K6",
                                   "through": "K6"}, [1, 2, 3])
    assert out.events[0].data["dice"] == [1, 2, 3]
    assert out.events[0].data["hits"] == 2
    assert st.units["usa-x"].strength == 2
    assert st.units["csa-a"].fired and st.units["csa-a"].revealed
    assert out.done


@pytest.mark.parametrize(("rating", "hits"), [("B1", 1), ("B3", 3)])
def test_rating_example_3_12_a_hit_at_or_under_the_firepower(rating: str, hits: int) -> None:
    """3.12 example: B1 hits on each 1 only, B3 on each 1, 2 or 3 (the letter plays no part
    in fire)."""
    roll = roll_hits(ScriptedDice([1, 2, 3, 4]), 4, firepower(block("csa-a", rating=rating),
                                                             Context(FIRE)), "test", "5.2")
    assert roll.dice == (1, 2, 3, 4) and roll.hits == hits
    # The event marks each die, so the client need not know the rule.
    marks = roll.to_json()["hit"]
    assert marks == [v <= (1 if rating == "B1" else 3) for v in (1, 2, 3, 4)]
    assert sum(marks) == hits


def test_terrain_penalties_per_hexside() -> None:
    sides = [{"a": "J6", "b": "K6", "terrain": ["woods", "river"]},
             {"a": "J6", "b": "J7", "terrain": ["creek"]},
             {"a": "J6", "b": "I6", "slope": "hill", "uphill": "I6"},
             {"a": "J6", "b": "J5", "slope": "rise", "uphill": "J5"},
             {"a": "J6", "b": "I5", "terrain": ["creek"],
              "roads": [{"road": "r", "name": "R", "class": "main", "crossing": "bridge"}]}]
    board = clear_board(sides)
    assert hexside_penalty(board, "J6", "K6", FIRE) == 2  # woods + river (5.22)
    assert hexside_penalty(board, "J6", "J7", FIRE) == 0  # creek: no fire penalty
    assert hexside_penalty(board, "J6", "I6", FIRE) == 1  # hill uphill
    assert hexside_penalty(board, "I6", "J6", FIRE) == 0  # downhill: nothing
    assert hexside_penalty(board, "J6", "J5", FIRE) == 0  # rise: fire unaffected
    assert hexside_penalty(board, "J6", "I5", "melee") == 1  # bridge keeps the creek (de 2.2)
    a3 = block("csa-a", rating="A3")
    assert firepower(a3, Context(FIRE, penalty=2)) == 1  # A3 = A1


def test_penalty_down_to_zero_means_no_fire() -> None:
    board = clear_board([{"a": "J6", "b": "K6", "terrain": ["woods", "town"]}])
    o = orders_of(block("csa-a", rating="B2"), block("usa-x"))
    st = make_state(board, [("csa-a", "J6", 3), ("usa-x", "K6", 2)])
    assert fire_options(board, st, o, "csa", FireLedger()) == []
    with pytest.raises(RuleError) as err:
        fire(board, st, o, FireLedger(), {"type": "fire", "unit": "csa-a", "target": "K6",
                                          "through": "K6"}, [1, 1, 1])
    assert err.value.rule == "5.22"


def test_hits_go_to_the_strongest_and_the_owner_breaks_ties() -> None:
    board = clear_board()
    o = orders_of(block("csa-a", rating="A3"), block("usa-x"), block("usa-y"),
                  block("usa-z"))
    st = make_state(board, [("csa-a", "J6", 3), ("usa-x", "K6", 3), ("usa-y", "K6", 2),
                            ("usa-z", "K6", 1)])
    led = FireLedger()
    out = fire(board, st, o, led, {"type": "fire", "unit": "csa-a", "target": "K6",
                                   "through": "K6"}, [1, 1, 6])
    # first hit: x (3 -> 2); second: x and y both at 2, USA chooses
    assert st.units["usa-x"].strength == 2
    assert out.decision is not None and out.decision.seat == "usa"
    assert [a["unit"] for a in out.decision.options] == ["usa-x", "usa-y"]
    assert fire_options(board, st, o, "csa", led) == []  # nothing else until answered
    with pytest.raises(RuleError):
        resolve_choice(board, st, o, led, "usa", {"type": "casualty", "unit": "usa-z"})
    with pytest.raises(RuleError):
        resolve_choice(board, st, o, led, "csa", {"type": "casualty", "unit": "usa-y"})
    done = resolve_choice(board, st, o, led, "usa", {"type": "casualty", "unit": "usa-y"})
    assert done.done and led.pending is None
    assert (st.units["usa-x"].strength, st.units["usa-y"].strength) == (2, 1)


def test_an_hq_takes_hits_as_the_strongest_block_and_is_eliminated_last() -> None:
    """5.23: every hit goes to the strongest block, an HQ too; 7.5: its extra step (0)
    makes it the last to go. A DHQ at 3 and a brigade at 1 take 3 hits: the HQ takes the
    first two, then the owner picks between the two blocks at 1."""
    board = clear_board()
    o = orders_of(block("csa-a", rating="A3"), block("usa-hq", "dhq", "A1"), block("usa-x"))
    st = make_state(board, [("csa-a", "J6", 3), ("usa-hq", "K6", 3), ("usa-x", "K6", 1)])
    led = FireLedger()
    out = fire(board, st, o, led, {"type": "fire", "unit": "csa-a", "target": "K6",
                                   "through": "K6"}, [1, 1, 1])
    assert st.units["usa-hq"].strength == 1 and st.units["usa-x"].strength == 1
    assert out.decision is not None and out.decision.seat == "usa"
    assert sorted(a["unit"] for a in out.decision.options) == ["usa-hq", "usa-x"]
    resolve_choice(board, st, o, led, "usa", {"type": "casualty", "unit": "usa-hq"})
    assert st.units["usa-hq"].strength == 0 and st.units["usa-x"].strength == 1
    assert st.losses["usa"] == 0  # an HQ at 0 is still on the map


def test_an_hq_at_strength_0_goes_after_every_other_block() -> None:
    board = clear_board()
    o = orders_of(block("csa-a", rating="A3"), block("usa-hq", "dhq", "A1"), block("usa-x"))
    st = make_state(board, [("csa-a", "J6", 2), ("usa-hq", "K6", 0), ("usa-x", "K6", 1)])
    fire(board, st, o, FireLedger(), {"type": "fire", "unit": "csa-a", "target": "K6",
                                      "through": "K6"}, [1, 1])
    assert st.units["usa-x"].status == ELIMINATED  # the first hit: the brigade at 1
    assert st.units["usa-hq"].status == ELIMINATED  # the second: the HQ at 0, last
    assert st.losses["usa"] == 2


def test_double_defence_half_hits_and_healing() -> None:
    board = clear_board(hexes={"K6": {"terrain": "woods"}})
    o = orders_of(block("csa-a", rating="A3"), block("csa-b", rating="A3"),
                  block("usa-x"), block("usa-y"))
    st = make_state(board, [("csa-a", "J6", 1), ("csa-b", "K5", 1),
                            ("usa-x", "K6", 3), ("usa-y", "K6", 3)])
    led = FireLedger()
    out = fire(board, st, o, led, {"type": "fire", "unit": "csa-a", "target": "K6",
                                   "through": "K6"}, [1])
    assert out.decision is not None  # a tie: USA picks the block for the half hit
    resolve_choice(board, st, o, led, "usa", {"type": "casualty", "unit": "usa-y"})
    assert st.units["usa-y"].strength == 3 and led.half_hits == ["usa-y"]
    # the next hit in the same fire phase must go to usa-y (5.24), no choice offered
    out2 = fire(board, st, o, led, {"type": "fire", "unit": "csa-b", "target": "K6",
                                    "through": "K6"}, [2])
    assert out2.done
    assert st.units["usa-y"].strength == 2 and st.units["usa-x"].strength == 3
    assert led.half_hits == []


def test_lone_half_hit_heals_after_the_fire_phase() -> None:
    board = clear_board(hexes={"K6": {"terrain": "woods"}})
    o = orders_of(block("csa-a", rating="B2"), block("usa-x"))
    st = make_state(board, [("csa-a", "J6", 3), ("usa-x", "K6", 2)])
    led = FireLedger()
    fire(board, st, o, led, {"type": "fire", "unit": "csa-a", "target": "K6",
                             "through": "K6"}, [1, 1, 1])
    # three hits in D2: two for a step, one half hit left
    assert st.units["usa-x"].strength == 1 and led.half_hits == ["usa-x"]
    ev = end_fire_phase(st, led)
    assert [e.type for e in ev] == ["half_hit_healed"]
    assert led.half_hits == [] and led.used == []
    assert st.units["usa-x"].strength == 1


def test_long_range_hit_repulses_into_the_only_friendly_hex() -> None:
    board = clear_board()
    o = orders_of(block("csa-art", "artillery", "A3", long=1), block("usa-x"),
                  block("usa-y"), *[block(f"csa-z{i}") for i in range(4)])
    # J6 fires through K7 at L8 (range 2). Around L8: K7 is neutral (next to J6 and L8),
    # L7 L9 K8 M8 hold CSA blocks, M9 holds usa-y: the only friendly hex.
    placed = [("csa-art", "J6", 2), ("usa-x", "L8", 1), ("usa-y", "M9", 1)]
    placed += [(f"csa-z{i}", h, 1) for i, h in enumerate(["L7", "L9", "K8", "M8"])]
    st = make_state(board, placed)
    out = fire(board, st, o, FireLedger(), {"type": "fire", "unit": "csa-art",
                                            "target": "L8", "through": "K7"}, [1, 4])
    assert out.done
    assert st.units["usa-x"].hex == "M9" and st.units["usa-x"].strength == 1
    rep = [e for e in out.events if e.type == "repulsed"]
    assert rep and rep[0].for_seat("csa") == {"type": "repulsed", "rule": "5.32",
                                              "data": {"side": "usa", "from": "L8",
                                                       "to": "M9"}, "redacted": True}


def test_long_range_repulse_choice_and_elimination_without_room() -> None:
    board = clear_board()
    o = orders_of(block("csa-art", "artillery", "A3", long=1), block("usa-x"),
                  *[block(f"csa-z{i}") for i in range(6)])
    # surround L8 with CSA so no friendly hex exists
    ring = ["L7", "L9", "K8", "M8", "M9"]  # K7 is neutral (next to J6 and L8)
    placed = [("csa-art", "J6", 1), ("usa-x", "L8", 1)]
    placed += [(f"csa-z{i}", h, 1) for i, h in enumerate(ring)]
    st = make_state(board, placed)
    out = fire(board, st, o, FireLedger(), {"type": "fire", "unit": "csa-art",
                                            "target": "L8", "through": "K7"}, [1])
    assert st.units["usa-x"].status == ELIMINATED
    assert out.events[-1].data["why"].startswith("repulsed")


def test_long_range_repulse_asks_the_owner_when_several_hexes_have_room() -> None:
    board = clear_board()
    o = orders_of(block("csa-art", "artillery", "A3", long=1), block("usa-x"))
    st = make_state(board, [("csa-art", "J6", 1), ("usa-x", "L8", 1)])
    led = FireLedger()
    out = fire(board, st, o, led, {"type": "fire", "unit": "csa-art", "target": "L8",
                                   "through": "K7"}, [1])
    assert out.decision is not None and out.decision.kind == "repulse"
    dests = [a["to"] for a in out.decision.options]
    assert dests == ["K8", "L7", "L9", "M8", "M9"]  # K7 also touches J6: neutral
    pd = pending_decision(board, st, o, led)
    assert pd is not None and pd.options == out.decision.options
    done = resolve_choice(board, st, o, led, "usa", {"type": "repulse", "unit": "usa-x",
                                                     "to": "M9"})
    assert done.done and st.units["usa-x"].hex == "M9" and st.units["usa-x"].strength == 1


def test_short_range_artillery_hit_eliminates() -> None:
    board = clear_board()
    o = orders_of(block("csa-art", "artillery", "A3", long=1), block("usa-x"))
    st = make_state(board, [("csa-art", "J6", 1), ("usa-x", "K7", 1)])
    fire(board, st, o, FireLedger(), {"type": "fire", "unit": "csa-art", "target": "K7",
                                      "through": "K7"}, [3])
    assert st.units["usa-x"].status == ELIMINATED


def test_revealed_artillery_targeted_alone_excess_lost() -> None:
    board = clear_board()
    o = orders_of(block("csa-a", rating="A3"), block("usa-art", "artillery", "A3"),
                  block("usa-x"))
    st = make_state(board, [("csa-a", "J6", 4), ("usa-art", "K6", 1), ("usa-x", "K6", 4)])
    st.units["usa-art"].revealed = True
    opts = fire_options(board, st, o, "csa", FireLedger())
    assert opts == [{"type": "fire", "unit": "csa-a", "target": "K6", "through": "K6"},
                    {"type": "fire", "unit": "csa-a", "target": "K6", "through": "K6",
                     "at": "artillery"}]
    out = fire(board, st, o, FireLedger(), opts[1], [1, 2, 3, 6])
    assert st.units["usa-art"].status == ELIMINATED
    assert st.units["usa-x"].strength == 4
    lost = [e for e in out.events if e.type == "hits_lost"]
    assert lost and lost[0].data["hits"] == 2


def test_normal_fire_at_a_hex_with_revealed_artillery_spares_it() -> None:
    board = clear_board()
    o = orders_of(block("csa-a", rating="A3"), block("usa-art", "artillery", "A3"),
                  block("usa-x"))
    st = make_state(board, [("csa-a", "J6", 3), ("usa-art", "K6", 4), ("usa-x", "K6", 1)])
    st.units["usa-art"].revealed = True
    fire(board, st, o, FireLedger(), {"type": "fire", "unit": "csa-a", "target": "K6",
                                      "through": "K6"}, [1, 1, 1])
    assert st.units["usa-x"].status == ELIMINATED and st.units["usa-art"].strength == 4


def test_only_units_under_command_fire_but_berdan_always() -> None:
    board = clear_board()
    o = orders_of(block("usa-berdan", rating="A3", melee=1, special=("berdan", "independent")),
                  block("usa-x"), block("usa-hq", "dhq", "A1"), block("csa-y"))
    st = make_state(board, [("usa-berdan", "J6", 2), ("usa-x", "J6", 3), ("usa-hq", "J6", 2),
                            ("csa-y", "K6", 3)], active="usa", command=False)
    opts = fire_options(board, st, o, "usa", FireLedger())
    assert [a["unit"] for a in opts] == ["usa-berdan"]  # 3.31; usa-x lacks command; HQ never
    out = resolve_fire(board, st, o, FireLedger(), "usa", opts[0], ScriptedDice([3, 4]))
    assert out.events[0].data["firepower"] == 3 and st.units["csa-y"].strength == 2
    with pytest.raises(RuleError) as err:
        resolve_fire(board, st, o, FireLedger(), "usa", {"type": "fire", "unit": "usa-x",
                                                         "target": "K6", "through": "K6"},
                     ScriptedDice([1]))
    assert err.value.rule == "5.1"


def test_one_unit_per_hexside_and_fired_units_cannot_fire_again() -> None:
    board = clear_board()
    o = orders_of(block("csa-a"), block("csa-b"), block("usa-x"), block("usa-y"))
    st = make_state(board, [("csa-a", "J6", 1), ("csa-b", "J6", 1), ("usa-x", "K6", 4),
                            ("usa-y", "K7", 4)])
    led = FireLedger()
    fire(board, st, o, led, {"type": "fire", "unit": "csa-a", "target": "K6",
                             "through": "K6"}, [6])
    with pytest.raises(RuleError) as err:
        fire(board, st, o, led, {"type": "fire", "unit": "csa-b", "target": "K6",
                                 "through": "K6"}, [6])
    assert err.value.rule == "5.21"
    assert fire_options(board, st, o, "csa", led) == [
        {"type": "fire", "unit": "csa-b", "target": "K7", "through": "K7"}]
    with pytest.raises(RuleError):
        fire(board, st, o, led, {"type": "fire", "unit": "csa-a", "target": "K7",
                                 "through": "K7"}, [6])


def test_infantry_fires_only_next_door() -> None:
    board = clear_board()
    o = orders_of(block("csa-a"), block("usa-x"))
    st = make_state(board, [("csa-a", "J6", 2), ("usa-x", "L8", 2)])
    assert fire_options(board, st, o, "csa", FireLedger()) == []


# --- 5.3 line-of-sight diagram as fire eligibility ------------------------------------
DIAGRAM = {
    "Q10": ("orchard", 1), "R11": ("clear", 1), "R12": ("clear", 1), "S12": ("woods", 1),
    "T12": ("woods", 1), "S11": ("clear", 0), "S13": ("clear", 0), "T13": ("clear", 0),
    "R10": ("orchard", 1),
}


def test_line_of_sight_diagram_decides_artillery_targets() -> None:
    board = make_board(DIAGRAM, fill_radius=4)
    targets = ["R11", "R12", "S12", "T12", "S11", "S13", "T13"]
    o = orders_of(block("usa-art", "artillery", "A3", long=1),
                  *[block(f"csa-{t.lower()}") for t in targets])
    st = make_state(board, [("usa-art", "Q10", 2),
                            *[(f"csa-{t.lower()}", t, 2) for t in targets]], active="usa")
    opts = fire_options(board, st, o, "usa", FireLedger())
    through_r11 = sorted(a["target"] for a in opts if a["through"] == "R11")
    assert through_r11 == ["R11", "R12", "S11", "S12", "T12"]  # S13, T13 blocked
    # S12 is woods: double defence, so one long-range hit is only a half hit
    led = FireLedger()
    resolve_fire(board, st, o, led, "usa", {"type": "fire", "unit": "usa-art",
                                            "target": "S12", "through": "R11"},
                 ScriptedDice([1, 5]))
    assert st.units["csa-s12"].strength == 2 and led.half_hits == ["csa-s12"]


def test_long_range_ignores_hexside_terrain_and_uses_the_small_number() -> None:
    art = block("usa-art", "artillery", "A3", long=1)
    assert firepower(art, Context(FIRE, range=1, penalty=1)) == 2
    assert firepower(art, Context(FIRE, range=3, penalty=5)) == 1


def test_enemy_event_names_the_hex_not_the_block() -> None:
    board = clear_board()
    o = orders_of(block("csa-a", rating="A3"), block("usa-x"), block("usa-y"))
    st = make_state(board, [("csa-a", "J6", 1), ("usa-x", "K6", 3), ("usa-y", "K6", 1)])
    out = fire(board, st, o, FireLedger(), {"type": "fire", "unit": "csa-a", "target": "K6",
                                            "through": "K6"}, [1])
    hit = next(e for e in out.events if e.type == "hit")
    owner = hit.for_seat("usa")
    enemy = hit.for_seat("csa")
    assert owner is not None and owner["data"]["unit"] == "usa-x"
    assert enemy is not None and enemy["data"] == {"hex": "K6", "side": "usa", "half": False}
    assert "usa-x" not in str(enemy)
    shot = out.events[0].for_seat("usa")
    assert shot is not None and shot["data"]["unit"] == "csa-a"  # the firer is revealed


def test_cavalry_fires_at_its_rating_and_the_ledger_round_trips() -> None:
    cav = block("csa-cav", "cavalry", "A2")
    assert firepower(cav, Context(FIRE)) == 2  # 7.6 is for melee only
    led = FireLedger(used=["J6>K6"], half_hits=["usa-x"])
    assert FireLedger.from_json(led.to_json()) == led
    assert FireLedger.from_json(None) == FireLedger()


def test_long_range_repulse_eliminates_when_the_friendly_hex_is_full() -> None:
    board = clear_board()
    full = [block(f"usa-f{i}") for i in range(4)]
    o = orders_of(block("csa-art", "artillery", "A3", long=1), block("usa-x"), *full,
                  *[block(f"csa-z{i}") for i in range(4)])
    # as in the repulse test, M9 is L8's only friendly hex, but it holds 4 blocks (clear: 4)
    placed = [("csa-art", "J6", 1), ("usa-x", "L8", 1)]
    placed += [(f"usa-f{i}", "M9", 1) for i in range(4)]
    placed += [(f"csa-z{i}", h, 1) for i, h in enumerate(["L7", "L9", "K8", "M8"])]
    st = make_state(board, placed)
    out = fire(board, st, o, FireLedger(), {"type": "fire", "unit": "csa-art",
                                            "target": "L8", "through": "K7"}, [1])
    assert out.done and st.units["usa-x"].status == ELIMINATED
    gone = out.events[-1]
    assert gone.type == "eliminated" and gone.rule == "5.32"
    assert gone.for_seat("csa") == {"type": "eliminated", "rule": "5.32", "redacted": True,
                                    "data": {"hex": "L8", "side": "usa",
                                             "why": gone.data["why"]}}
