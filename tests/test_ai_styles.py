"""Doctrine styles: ``Style()`` is the general (``GENERAL_STYLES`` names the exceptions), and
each weight moves the scores it names."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gettysburg.ai import make_agent
from gettysburg.ai.doctrines import doctrine_for
from gettysburg.boc.ai.doctrine import (
    GENERAL_STYLES,
    STYLES,
    BocDoctrine,
    Style,
    general_style,
    kill_chance,
)
from gettysburg.boc.ai.search_hooks import hooks as boc_hooks
from gettysburg.boc.oob import HQ_TYPES
from gettysburg.core.protocol import new_game


def _view_after(n: int, scenario: str = "boc/day1") -> dict[str, Any]:
    """The view of the seat to move after ``n`` general-against-general actions."""
    game = new_game(scenario, seed=5)
    general, rng = make_agent("general"), random.Random(0)
    for _ in range(n):
        seat = game.to_move()[0]
        view = game.view(seat)
        game.apply(general.choose(view, view["legal_actions"], 0.0, rng), seat)
    return game.view(game.to_move()[0])


def test_the_default_style_is_the_general() -> None:
    view = _view_after(80, "boc/battle")  # the battle: both generals play Style()
    legal = view["legal_actions"]
    assert view["phase"] == "movement" and len(legal) > 100
    assert BocDoctrine(Style()).scores(view, legal) == doctrine_for(view).scores(view, legal)
    assert BocDoctrine().scores(view, legal) == doctrine_for(view).scores(view, legal)
    portfolio = boc_hooks(None).portfolio
    for seat, styles in STYLES.items():
        assert len(set(styles.values())) == len(styles), seat  # no variant twice
        assert Style() not in styles.values()
        # Search's incumbent is the general itself, whatever its style in the scenario.
        incumbent = next(iter(portfolio[seat].items()))
        assert incumbent[0] == "general" and isinstance(incumbent[1], BocDoctrine)
        assert incumbent[1].style is None
        assert list(portfolio[seat])[1:] == list(styles)


def test_general_styles_name_only_the_measured_exceptions() -> None:
    """``GENERAL_STYLES``: both seats on Day 1, the USA on Day 2 and the CSA on Day 3 play
    their own style; the other seat on Days 2 and 3, and both in the battle, ``Style()``."""
    own = {("csa", "boc/day1"), ("usa", "boc/day1"), ("usa", "boc/day2"),
           ("csa", "boc/day3")}
    assert set(GENERAL_STYLES) == own
    for seat in ("usa", "csa"):
        for day in ("boc/day1", "boc/day2", "boc/day3", "boc/battle"):
            assert (general_style(seat, day) != Style()) == ((seat, day) in own)


@pytest.mark.parametrize(("seat", "scenario"), [("csa", "boc/day1"), ("usa", "boc/day1"),
                                               ("usa", "boc/day2"), ("csa", "boc/day3")])
def test_the_general_scores_with_its_scenario_style(seat: str, scenario: str) -> None:
    """In its first movement phase the general's scores are those of its scenario style,
    not those of ``Style()``."""
    own = general_style(seat, scenario)
    game = new_game(scenario, seed=5)
    general, rng = make_agent("general"), random.Random(0)
    for _ in range(400):
        mover = game.to_move()[0]
        view = game.view(mover)
        if mover == seat and view["phase"] == "movement":
            break
        game.apply(general.choose(view, view["legal_actions"], 0.0, rng), mover)
    legal = view["legal_actions"]
    assert view["seat"] == seat and len(legal) > 5
    scores = doctrine_for(view).scores(view, legal)
    assert scores == BocDoctrine(own).scores(view, legal)
    assert scores != BocDoctrine(Style()).scores(view, legal)


def test_worn_blocks_keep_out_of_the_enemys_reach() -> None:
    """``weak_reach`` 2: a worn block is charged ``weak_in_front`` in any hex a known enemy
    could reach with a move and a melee, not only next to the enemy."""
    near = Style(weak_in_front=1.0, weak_steps=4)
    far = Style(weak_in_front=1.0, weak_steps=4, weak_reach=2)
    view = _view_after(60)
    sit_near, sit_far = BocDoctrine(near).situation(view), BocDoctrine(far).situation(view)
    uid = next(u for u in sit_near.own_on if (lab := sit_near.unit(u)) is not None
               and lab.type in ("infantry", "cavalry"))
    checked = {"charged": 0, "free": 0}
    for hx in sit_near.facts.hexes:
        if hx in sit_near.front or hx in sit_near.facts.victory:
            continue
        gap = sit_far.hex_value(uid, hx, None) - sit_near.hex_value(uid, hx, None)
        if any(sit_near.facts.dist(hx, e) <= 2 for e in sit_near.enemy_at):
            assert gap == -1.0, hx
            checked["charged"] += 1
        else:
            assert gap == 0.0, hx
            checked["free"] += 1
    assert checked["charged"] > 0 and checked["free"] > 0


def test_worn_blocks_make_way_on_victory_hexes() -> None:
    """``weak_on_objective``: a worn block in the line on a victory hex is charged that much
    (elsewhere it pays what it paid before); a fresh block is not."""
    view = new_game("boc/day2", seed=5).view("usa")  # worn USA blocks hold Cemetery Hill
    plain = BocDoctrine(Style(weak_steps=4)).situation(view)
    relief = BocDoctrine(Style(weak_steps=4, weak_on_objective=0.6)).situation(view)
    fresh = BocDoctrine(Style(weak_steps=0, weak_on_objective=0.6)).situation(view)
    fresh0 = BocDoctrine(Style(weak_steps=0)).situation(view)
    uid = next(u for u in plain.own_on if (lab := plain.unit(u)) is not None
               and lab.type == "infantry")
    lines = [hx for hx in plain.front if hx in plain.facts.victory]
    assert lines, "no victory hex in the USA line at the start of Day 2"
    for hx in plain.facts.hexes:
        gap = relief.hex_value(uid, hx, None) - plain.hex_value(uid, hx, None)
        assert gap == pytest.approx(-0.6 if hx in lines else 0.0), hx
        assert fresh.hex_value(uid, hx, None) == fresh0.hex_value(uid, hx, None), hx


def test_search_drops_a_variant_that_is_the_generals_own_style_here() -> None:
    """On Day 1 the CSA general plays ``tight`` and the USA ``shy``, so search's variants
    of those names would only repeat the incumbent's rollouts; on other days they are real
    variants."""
    from gettysburg.ai.search import distinct_styles

    portfolio = boc_hooks(None).portfolio["csa"]
    assert "tight" in portfolio
    day1 = distinct_styles(portfolio, {"seat": "csa", "scenario": "boc/day1"})
    assert list(day1) == [n for n in portfolio if n != "tight"]
    for scenario in ("boc/day2", "boc/day3", "boc/battle"):
        assert list(distinct_styles(portfolio, {"seat": "csa", "scenario": scenario})) \
            == list(portfolio)
    # The USA's Day 1 style is its ``shy`` variant.
    usa = boc_hooks(None).portfolio["usa"]
    assert list(distinct_styles(usa, {"seat": "usa", "scenario": "boc/day1"})) \
        == [n for n in usa if n != "shy"]
    assert list(distinct_styles(usa, {"seat": "usa", "scenario": "boc/day3"})) == list(usa)


def _column_line_view(seat: str, actions: int) -> tuple[Any, dict[str, Any]]:
    """A Day 1 game with the column/line option (6.0) after ``actions`` moves of the
    general, at ``seat``'s next movement decision."""

    game = new_game("boc/day1", seed=5, options=["column_line"])
    general, rng = make_agent("general"), random.Random(0)
    for n in range(2000):
        mover = game.to_move()[0]
        view = game.view(mover)
        if n >= actions and mover == seat and view["phase"] == "movement":
            return game, view
        legal = view["legal_actions"]
        action = general.choose(view, legal, 0.0, rng)
        game.apply(action, mover)
    raise AssertionError("no movement decision found")


def test_a_hex_with_an_own_column_holds_no_other_unit() -> None:
    """6.0 option: a hex with a column holds that unit alone, so the doctrine sends no other
    unit there (an HQ may enter such a hex, and the excess is eliminated at phase end)."""
    for actions in (150, 100, 200, 250):  # a position with a lone infantry block
        _game, view = _column_line_view("usa", actions)
        sit = BocDoctrine().situation(view)
        column_hexes = set(sit.columns)
        if column_hexes:
            break
        # Put one of the seat's infantry in column where it stands alone.
        uid = next((u for u in sit.own_on if (lab := sit.unit(u)) is not None
                    and lab.type == "infantry"
                    and sit.garrison[str(sit.own_on[u]["hex"])] == 1), None)
        if uid is not None:
            view = dict(view, units=[dict(u, column=True) if u["id"] == uid else u
                                     for u in view["units"]])
            sit = BocDoctrine().situation(view)
            column_hexes = set(sit.columns)
            break
    assert column_hexes
    hx = next(iter(column_hexes))
    other = next(u for u in sit.own_on if u not in sit.columns[hx]
                 and sit.own_on[u]["hex"] != hx)
    assert sit.hex_value(other, hx, str(sit.own_on[other]["hex"])) == -100.0  # OVERSTACK
    column = next(iter(sit.columns[hx]))
    assert sit.hex_value(column, hx, hx) > -100.0  # the column itself may stay


def _roomless(view: dict[str, Any], sit: Any) -> set[str]:
    """Own blocks at their last step within 3 hexes of a known enemy with no hex to be
    repulsed into (5.32), worked out from the view as the engine does
    (``combat.repulse_hexes``): an adjacent hex the seat controls, with no enemy block and
    fewer blocks than its stacking limit."""
    seat = view["seat"]
    occupants: dict[str, list[dict[str, Any]]] = {}
    for u in view["units"]:
        if u.get("status") == "on_map" and u.get("hex"):
            occupants.setdefault(u["hex"], []).append(u)
    enemy = set(sit.enemy_at)
    out = set()
    for u in view["units"]:
        lab = sit.unit(u["id"])
        if u.get("side") != seat or u.get("status") != "on_map" or int(u["strength"]) > 1 \
                or lab is None or lab.type in HQ_TYPES:
            continue
        if not any(sit.facts.dist(u["hex"], e) <= 3 for e in enemy):
            continue
        room = [n for n in sit.facts.nbrs.get(u["hex"], ()) if view["control"].get(n) == seat
                and n not in enemy and len(occupants.get(n, [])) < sit.facts.stacking.get(n, 0)]
        if not room:
            out.add(u["id"])
    return out


def test_keep_room_counts_the_worn_blocks_a_move_leaves_with_no_repulse_hex() -> None:
    """``room_cost`` (``Style.keep_room``) against a brute force: move the block in a copy
    of the view and count the worn blocks in gun range that had a repulse hex (5.32) and
    have none after, plus the mover if it has none where it ends."""
    counted = 0
    for view in (new_game("boc/day2", seed=5).view("usa"),  # worn Union blocks in the line
                 _view_after(120, "boc/day2"), _view_after(330, "boc/day2")):
        counted += _check_room_costs(view)
    assert counted > 0  # these positions have such moves


def _check_room_costs(view: dict[str, Any]) -> int:
    sit = BocDoctrine(Style(keep_room=1.0)).situation(view)
    assert not sit.columns
    before = _roomless(view, sit)
    movers = [u for u in sorted(sit.own_on) if (lab := sit.unit(u)) is not None
              and lab.type not in HQ_TYPES]
    counted = 0
    for uid in movers:
        here = str(sit.own_on[uid]["hex"])
        for hx in sorted(sit.facts.nbrs.get(here, ())) + sorted(sit.front)[:12]:
            if hx == here:
                continue
            moved = dict(view, units=[dict(u, hex=hx) if u["id"] == uid else u
                                      for u in view["units"]])
            after = _roomless(moved, sit)
            want = len(after - before - {uid}) + (1 if uid in after else 0)
            assert sit.room_cost(uid, hx, here) == want, (uid, here, hx)
            counted += want
    # The weight moves the hex value by exactly the cost; off, nothing changes.
    off = BocDoctrine(Style()).situation(view)
    uid = movers[0]
    here = str(sit.own_on[uid]["hex"])
    for hx in sorted(sit.facts.nbrs.get(here, ())):
        if sit.hex_value(uid, hx, here) > -100:
            assert off.hex_value(uid, hx, here) - sit.hex_value(uid, hx, here) == \
                pytest.approx(sit.room_cost(uid, hx, here))
    return counted


def test_keep_room_charges_taking_the_last_repulse_hex_unless_the_move_frees_one() -> None:
    """Day 2: Ames and von Gilsa, 1-step blocks on Cemetery Hill (J6) in the CSA guns'
    range, are left a single repulse hex (J5, 3 of 4 blocks) once the others are filled.
    A fresh block that fills J5 from afar leaves both with none (cost 2); one that comes
    from I5, next to J6, frees a place there as it goes (cost 0). The brute force agrees."""
    view = new_game("boc/day2", seed=5).view("usa")
    sit = BocDoctrine(Style(keep_room=1.0)).situation(view)
    fresh = [u for u in sorted(sit.own_on) if (lab := sit.unit(u)) is not None
             and lab.type == "infantry" and sit.strength(u) >= 3
             and sit.facts.dist(str(sit.own_on[u]["hex"]), "J6") >= 3]
    mover, walker = fresh[0], fresh[1]
    units = [dict(u, hex="I5") if u["id"] == walker else u for u in view["units"]]
    filler = {"K7": 4, "J7": 4, "I5": 3}  # I5: the walker and three more
    for hx, n in filler.items():
        units += [{"id": f"usa-filler-{hx}-{k}", "side": "usa", "status": "on_map",
                   "hex": hx, "strength": 4} for k in range(n)]
    view = dict(view, units=units)
    sit = BocDoctrine(Style(keep_room=1.0)).situation(view)
    assert sit._room("J6") == ["J5"]
    before = _roomless(view, sit)
    for uid, here, want in ((mover, str(sit.own_on[mover]["hex"]), 2), (walker, "I5", 0)):
        moved = dict(view, units=[dict(u, hex="J5") if u["id"] == uid else u
                                  for u in view["units"]])
        assert len(_roomless(moved, sit) - before) == want
        assert sit.room_cost(uid, "J5", here) == want


@pytest.mark.parametrize("style", [Style(), Style(keep_room=1.0)])
def test_a_units_moves_scored_together_score_as_one_by_one(style: Style) -> None:
    """``scores`` weighs the moves of a unit together (``Situation.hex_values``); each
    scores as one move alone: what its end is worth over staying, plus what it does to
    control, less a little per hex."""
    view = _view_after(80, "boc/battle")
    legal = view["legal_actions"]
    doctrine = BocDoctrine(style)
    together = doctrine.scores(view, legal)
    sit = doctrine.situation(view)
    moves = [(i, a) for i, a in enumerate(legal) if a["type"] == "move"]
    assert len({a["unit"] for _, a in moves}) > 5
    for i, a in moves:
        uid, path = a["unit"], a["path"]
        here, dest = path[0], path[-1]
        alone = sit.hex_value(uid, dest, here) - sit.hex_value(uid, here, here) \
            + style.control_weight * sit.control_gain(dest, here) - 0.01 * len(path) - 0.05
        assert together[i] == alone == doctrine.score(sit, a), a


def test_hqs_of_one_corps_count_their_troops_each_within_its_own_range() -> None:
    """4.5: a corps HQ and its division HQs reach differently far, so the troops an HQ
    keeps in range on a hex do not depend on which HQ of the corps was scored first
    (the count was once kept by corps and hex alone)."""
    view = _view_after(60)
    doctrine = BocDoctrine()
    sit = doctrine.situation(view)
    hqs = [u for u in sit.oob.units.values() if u.side == sit.seat and u.type in HQ_TYPES]
    pairs = [(a.id, b.id) for a in hqs for b in hqs if a.corps == b.corps
             and (a.command_range or 1) != (b.command_range or 1)]
    assert pairs, "no corps with two HQs of different ranges"
    checked = 0
    for a, b in pairs:
        for hx in sorted(sit.facts.hexes)[::25]:
            alone = doctrine.situation(view).hex_value(b, hx, None)
            both = doctrine.situation(view)
            both.hex_value(a, hx, None)  # the other HQ of the corps first
            assert both.hex_value(b, hx, None) == alone, (a, b, hx)
            checked += 1
    assert checked > 100


def test_a_known_hq_takes_one_hit_more_before_it_falls() -> None:
    """7.5: an HQ has a 0 step, so a shot needs one more hit to eliminate it, or a block
    stacked with it, than the same strength of combat block; the fire score counts it."""
    view = _view_after(60)
    sit = BocDoctrine().situation(view)
    hq = next(u for u in sit.oob.units.values() if u.side == sit.enemy and u.type in HQ_TYPES)
    brigade = next(u for u in sit.oob.units.values()
                   if u.side == sit.enemy and u.type == "infantry")
    sit.enemy_blocks["Z99"] = [(hq.id, 1)]
    sit.enemy_blocks["Z98"] = [(brigade.id, 1)]
    sit.enemy_blocks["Z97"] = [(hq.id, 0), (brigade.id, 2)]
    assert sit.steps_before_loss("Z99") == [2]
    assert sit.steps_before_loss("Z98") == [1]
    assert sit.steps_before_loss("Z97") == [1, 2]
    # Four dice at firepower 3: one hit kills the brigade at 1, the HQ at 1 needs two.
    assert kill_chance(4, 3, [1], False) == pytest.approx(1 - 0.5 ** 4)
    assert kill_chance(4, 3, sit.steps_before_loss("Z99"), False) == pytest.approx(
        1 - 0.5 ** 4 - 4 * 0.5 ** 4)


def test_named_weights_move_the_scores_they_name() -> None:
    """The weights that were constants (session 37) each change the scores of the
    decisions they belong to, and leave the general's scores alone at their defaults."""
    view = _view_after(80, "boc/battle")
    legal = view["legal_actions"]
    general = BocDoctrine(Style()).scores(view, legal)
    for name, value in (("shelter_weight", 2.0), ("close_in", -0.5), ("crowd", 1.5),
                        ("threat", 0.8), ("hq_troops", 0.6)):
        changed = BocDoctrine(Style(**{name: value})).scores(view, legal)
        assert changed != general, name
