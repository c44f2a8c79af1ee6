"""Victory of the six TDG scenarios (004 sc.1.7, 2.7, 3.8, 4.7, 5.7, 6.7), scored by
``gbacw.victory.score`` on hand-built end states."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from gettysburg.gbacw.board import load_board
from gettysburg.gbacw.scenario import load_scenario
from gettysburg.gbacw.victory import (
    Standing,
    UnitAt,
    road_intruders,
    road_line,
    score,
    vp_band,
)

DAY1 = ("B3821", "B3827", "B3818", "B5013", "B5014", "B4721", "B5020")


def units(seat: str, *hexes: str, arm: str = "inf", in_command: bool = True) -> tuple[UnitAt, ...]:
    return tuple(UnitAt(h, seat, arm, in_command) for h in hexes)  # type: ignore[arg-type]


# --- sc.1 First Day -----------------------------------------------------------------------------
def test_sc1_csa_holds_all_seven_and_equal_ci_wins() -> None:
    v = score(load_scenario("first-day").victory,
              Standing("1-2000", units("csa", *DAY1), ci_divisions={"csa": 1, "usa": 1}))
    assert (v.winner, v.band) == ("csa", "victory")


def test_sc1_two_more_ci_divisions_is_a_union_win() -> None:
    """004 sc.1.7: every hex held, but 2 more CI divisions -> Union win."""
    v = score(load_scenario("first-day").victory,
              Standing("1-2000", units("csa", *DAY1), ci_divisions={"csa": 3, "usa": 1}))
    assert v.winner == "usa"
    assert any("CI divisions: csa 3, usa 1" in r for r in v.reasons)


def test_sc1_one_more_ci_division_is_a_draw() -> None:
    v = score(load_scenario("first-day").victory,
              Standing("1-2000", units("csa", *DAY1), ci_divisions={"csa": 2, "usa": 1}))
    assert v.draw and v.band == "draw"


def test_sc1_last_to_occupy_controls_an_empty_hex() -> None:
    """Control = occupy, or be the last to occupy (sc.1.7): B5020 is empty, CSA last there."""
    st = Standing("1-2000", units("csa", *DAY1[:-1]), control={"B5020": "csa"})
    assert score(load_scenario("first-day").victory, st).winner == "csa"
    st = Standing("1-2000", units("csa", *DAY1[:-1]), control={"B5020": "usa"})
    v = score(load_scenario("first-day").victory, st)
    assert v.winner == "usa" and any("B5020" in r for r in v.reasons)


def test_sc1_missing_objective_is_a_union_win_whatever_the_losses() -> None:
    st = Standing("1-2000", units("csa", *DAY1[1:]) + units("usa", "B3821"),
                  ci_divisions={"usa": 9})
    assert score(load_scenario("first-day").victory, st).winner == "usa"


# --- sc.2 Herr Ridge ----------------------------------------------------------------------------
def test_sc2_herr_ridge() -> None:
    vic = load_scenario("herr-ridge").victory
    assert score(vic, Standing("1-1000", units("csa", "A2512", "A3517"))).winner == "csa"
    assert score(vic, Standing("1-1000", units("csa", "A2512"))).winner == "usa"
    # A3517 empty, last entered by the CSA: still controlled
    st = Standing("1-1000", units("csa", "A2512"), control={"A3517": "csa"})
    assert score(vic, st).winner == "csa"


# --- sc.3 Little Round Top ----------------------------------------------------------------------
def test_sc3_little_round_top_needs_occupation() -> None:
    vic = load_scenario("little-round-top").victory
    assert score(vic, Standing("2-1900", units("csa", "C2118", "C2219"))).winner == "csa"
    # last to enter is not enough: sc.3.8 says occupy
    st = Standing("2-1900", units("csa", "C2118"), control={"C2219": "csa"})
    assert score(vic, st).winner == "usa"


# --- sc.4 / sc.5 victory points -----------------------------------------------------------------
@pytest.mark.parametrize("sid", ["second-day", "third-day"])
def test_sc4_sc5_points_and_bands(sid: str) -> None:
    vic = load_scenario(sid).victory
    # Union holds Cemetery Hill (5) and LRT (4); CSA holds Culp's Hill (4) and C1115 (1)
    st = Standing("2-1900", units("usa", "B4720", "B5020", "B5323", "C2118", "C2219")
                  + units("csa", "B5013", "B5014", "C1115"),
                  ci_brigades={"usa": 4, "csa": 2})
    v = score(vic, st)
    assert v.points == {"usa": 9 + 2, "csa": 5 + 4}
    assert (v.winner, v.band) == ("usa", "marginal")


def test_sc4_a_split_objective_scores_nobody() -> None:
    vic = load_scenario("second-day").victory
    st = Standing("2-1900", units("csa", "B5013") + units("usa", "B5014"))
    v = score(vic, st)
    assert v.points == {"usa": 0, "csa": 0} and v.draw


def test_sc5_decisive_confederate_win() -> None:
    vic = load_scenario("third-day").victory
    st = Standing("3-1900", units("csa", "B4720", "B5020", "B5323", "C2118", "C2219"),
                  ci_brigades={"usa": 3})
    v = score(vic, st)
    assert v.points == {"usa": 0, "csa": 16}
    assert (v.winner, v.band) == ("csa", "decisive")


def test_vp_bands() -> None:
    assert [vp_band(m) for m in (0, 1, 4, 5, 9, 10)] == [
        "draw", "marginal", "marginal", "substantive", "substantive", "decisive"]


# --- sc.6 the battle -----------------------------------------------------------------------------
CSA_GEO = ("B5013", "B5014", "B4720", "B5020", "B5323", "B6920", "C1016", "C1115",
           "C2118", "C2219")


def test_sc6_nobody_yet() -> None:
    v = score(load_scenario("battle").victory, Standing("1-1200"), final=False,
              board=load_board())
    assert not v.decided and v.winner is None


def test_sc6_csa_loss_objective_twelve_union_ci_divisions() -> None:
    vic = load_scenario("battle").victory
    assert score(vic, Standing("2-1000", ci_divisions={"usa": 12}), final=False,
                 board=load_board()).winner == "csa"
    assert not score(vic, Standing("2-1000", ci_divisions={"usa": 11}), final=False,
                     board=load_board()).decided


def test_sc6_union_loss_objective_and_a_draw() -> None:
    vic = load_scenario("battle").victory
    v = score(vic, Standing("1-1500", ci_divisions={"csa": 6}), final=False, board=load_board())
    assert v.winner == "usa"
    v = score(vic, Standing("1-1500", ci_divisions={"csa": 6, "usa": 12}), final=False,
              board=load_board())
    assert v.decided and v.draw


def test_sc6_csa_geographic_needs_c4645_after_3_july_1400() -> None:
    vic = load_scenario("battle").victory
    board = load_board()
    held = units("csa", *CSA_GEO)
    # C4645 occupied now, but on the 1400 turn itself: not yet
    st = Standing("3-1400", held + units("csa", "C4645"))
    assert not score(vic, st, final=False, board=board).decided
    st = Standing("3-1500", held + units("csa", "C4645"))
    assert score(vic, st, final=False, board=board).winner == "csa"
    # occupied at 1600 and left since: still counts
    st = Standing("3-1800", held, last_held={"C4645": {"csa": "3-1600"}})
    assert score(vic, st, final=False, board=board).winner == "csa"


def test_sc6_union_geographic_only_from_2_july_and_with_the_road_clear() -> None:
    vic = load_scenario("battle").victory
    board = load_board()
    town = units("usa", "B3821", "B3827", "B3818")
    assert not score(vic, Standing("1-1900", town), final=False, board=board).decided
    assert score(vic, Standing("2-0500", town), final=False, board=board).winner == "usa"
    # an in-command Confederate brigade east of the road at row 60 spoils it
    east = units("csa", "B6020")
    v = score(vic, Standing("2-0500", town + east), final=False, board=board)
    assert not v.decided
    # ... but not if it is out of command, artillery, or west of the road
    for st in (Standing("2-0500", town + units("csa", "B6020", in_command=False)),
               Standing("2-0500", town + units("csa", "B6020", arm="art")),
               Standing("2-0500", town + units("csa", "B6031"))):
        assert score(vic, st, final=False, board=board).winner == "usa"


def test_road_line_follows_the_emmitsburg_road() -> None:
    board = load_board()
    line = road_line(board, "B4721", "C4645")
    assert min(line) == 47 and max(line) == 106
    assert line[60] == 28  # the derived road at row 60
    assert road_intruders(board, line, units("csa", "B6028", "B6029", "B4020"), "csa") == [
        "B6028"]


def test_road_stretch_ends_and_arms_sc6_7() -> None:
    """004 sc.6.7: only the rows between B4721 and C4645 count (row 47's road is at YY 22,
    C46's at C4642 on the derived board); infantry and cavalry count, horse artillery not."""
    board = load_board()
    line = road_line(board, "B4721", "C4645")
    first = units("csa", "B4722", "B4723", "B4620")  # row 46 is north of the stretch
    assert road_intruders(board, line, first, "csa") == ["B4722"]
    last = units("csa", "C4642", "C4643", "C4742")  # C47 is south of it
    assert road_intruders(board, line, last, "csa") == ["C4642"]
    assert road_intruders(board, line, units("csa", "B6020", arm="cav"), "csa") == ["B6020"]
    assert road_intruders(board, line, units("csa", "B6020", arm="horse_art"), "csa") == []
    assert road_intruders(board, line, units("usa", "B6020"), "csa") == []  # the Union's own


def test_sc6_union_needs_every_town_hex_and_may_hold_by_last_occupation() -> None:
    """004 sc.6.7: two town hexes of three are not Gettysburg; an empty town hex the Union
    occupied last still counts as held; one the Confederates entered last does not."""
    vic = load_scenario("battle").victory
    board = load_board()
    two = units("usa", "B3821", "B3827")
    assert not score(vic, Standing("2-0600", two), final=False, board=board).decided
    st = Standing("2-0600", two, control={"B3818": "usa"})
    assert score(vic, st, final=False, board=board).winner == "usa"
    st = Standing("2-0600", two, control={"B3818": "csa"})
    assert not score(vic, st, final=False, board=board).decided


def test_sc6_cavalry_spoils_the_road_and_five_ci_divisions_do_not_win() -> None:
    """004 sc.6.7: an in-command Confederate cavalry regiment east of the road stops the
    Union's geographic win as infantry does; the Union's loss objective needs six
    Confederate CI divisions, not five (the Confederacy's needs twelve, not eleven)."""
    vic = load_scenario("battle").victory
    board = load_board()
    town = units("usa", "B3821", "B3827", "B3818")
    st = Standing("2-0500", town + units("csa", "B6020", arm="cav"))
    assert not score(vic, st, final=False, board=board).decided
    assert not score(vic, Standing("2-0500", ci_divisions={"csa": 5, "usa": 11}),
                     final=False, board=board).decided


def test_sc6_both_geographic_objectives_in_one_turn_is_a_draw() -> None:
    """004 sc.6.7: the Confederacy controls every objective it needs by having occupied
    them last (C4645 after the 1400 turn of 3 July; its troops since gone west of the
    road), while the Union holds the town with the road clear: both win in the same turn,
    a draw. With a Confederate regiment still on Cemetery Hill (east of the road) the
    Confederacy alone wins."""
    vic = load_scenario("battle").victory
    board = load_board()
    control: dict[str, Any] = {h: "csa" for h in CSA_GEO}
    last: dict[str, Any] = {"C4645": {"csa": "3-1500"}}
    town = units("usa", "B3821", "B3827", "B3818")
    st = Standing("3-1600", town + units("csa", "B6031"), control=control, last_held=last)
    v = score(vic, st, final=False, board=board)
    assert v.decided and v.draw
    st = Standing("3-1600", town + units("csa", "B5013"), control=control, last_held=last)
    assert score(vic, st, final=False, board=board).winner == "csa"


def test_sc6_the_engine_reads_the_road_with_command_and_arms() -> None:
    """004 sc.6.7 through the engine's own standing (``GbacwGame.verdict``): the Union in
    the three town hexes on 2 July 0500 wins; a Confederate regiment set down east of the
    road spoils it; the same regiment out of command (the command phase's list) or a
    Confederate battery there does not."""
    from gettysburg.core.dice import SeededDice
    from gettysburg.gbacw.game import GbacwGame
    from gettysburg.gbacw.setup import turn_index

    g = GbacwGame("battle", dice=SeededDice(1))
    p = g.pos
    p.turn = turn_index("2-0500")
    inf = sorted(k for k, u in p.units.items() if g.counter(k).arm == "inf")
    usa = [k for k in inf if p.units[k].seat == "usa"][:3]
    rebel = next(k for k in inf if p.units[k].seat == "csa")
    gun = next(k for k, u in sorted(p.units.items())
               if u.seat == "csa" and g.counter(k).arm == "art")
    for u in p.units.values():  # nobody else on the map: the test's position alone
        u.hex = None
    for k, h in zip(usa, ("B3821", "B3827", "B3818"), strict=True):
        p.units[k].hex = h

    def winner() -> str | None:
        v = g.verdict(final=False)
        assert v is not None
        return v.winner

    p.command["units"] = []
    assert winner() == "usa"
    p.units[rebel].hex = "B6020"
    assert winner() is None
    p.command["units"] = [rebel]
    assert winner() == "usa"
    p.command["units"] = []
    p.units[rebel].hex, p.units[gun].hex = None, "B6020"
    assert winner() == "usa"


def test_sc6_end_without_a_winner_is_e14_otherwise() -> None:
    v = score(load_scenario("battle").victory, Standing("4-2000"), final=True,
              board=load_board())
    assert v.decided and v.draw


# --- properties ------------------------------------------------------------------------------
VP_HEXES = ("B5013", "B5014", "B4720", "B5020", "B5323", "B6920", "B7021", "C1115", "C2118",
            "C2219")


@settings(max_examples=60, deadline=None)
@given(hs.dictionaries(hs.sampled_from(VP_HEXES), hs.sampled_from(["usa", "csa"])),
       hs.integers(0, 12), hs.integers(0, 12))
def test_vp_verdict_follows_the_points(held: dict[str, str], ci_usa: int, ci_csa: int) -> None:
    st = Standing("2-1900", tuple(UnitAt(h, s) for h, s in sorted(held.items())),  # type: ignore[arg-type]
                  ci_brigades={"usa": ci_usa, "csa": ci_csa})
    v = score(load_scenario("second-day").victory, st)
    usa, csa = v.points["usa"], v.points["csa"]
    assert usa >= ci_csa and csa >= ci_usa
    assert v.winner == (None if usa == csa else "usa" if usa > csa else "csa")
    assert v.band == vp_band(abs(usa - csa))
    assert score(load_scenario("second-day").victory, st) == v  # deterministic


@settings(max_examples=40, deadline=None)
@given(hs.integers(0, 14), hs.integers(0, 8), hs.booleans())
def test_sudden_death_final_always_decides(ci_usa: int, ci_csa: int, final: bool) -> None:
    st = Standing("3-1000", ci_divisions={"usa": ci_usa, "csa": ci_csa})
    v = score(load_scenario("battle").victory, st, final=final, board=load_board())
    csa_wins, usa_wins = ci_usa >= 12, ci_csa >= 6
    assert v.decided == (final or csa_wins or usa_wins)
    if csa_wins != usa_wins:
        assert v.winner == ("csa" if csa_wins else "usa")
    elif v.decided:
        assert v.draw
