"""Doctrine styles: ``Style()`` is the general (``GENERAL_STYLES`` names the exceptions), and
each weight moves the scores it names."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from gettysburg.ai import make_agent
from gettysburg.ai.doctrines import doctrine_for
from gettysburg.boc.ai.doctrine import (
    GENERAL_STYLES,
    OVERSTACK,
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


def _formations(seat: str) -> BocDoctrine:
    return BocDoctrine(replace(general_style(seat, "boc/day1"), formations=True))


def _column_line_view(seat: str, actions: int, formations: bool = False
                      ) -> tuple[Any, dict[str, Any]]:
    """A Day 1 game with the column/line option (6.0) after ``actions`` moves of the
    general (with ``formations`` on, if asked), at ``seat``'s next movement decision."""
    from gettysburg.ai.general import best_index

    game = new_game("boc/day1", seed=5, options=["column_line"])
    general, rng = make_agent("general"), random.Random(0)
    for n in range(2000):
        mover = game.to_move()[0]
        view = game.view(mover)
        if n >= actions and mover == seat and view["phase"] == "movement":
            return game, view
        legal = view["legal_actions"]
        if formations:
            action = legal[best_index(_formations(mover).scores(view, legal), legal)]
        else:
            action = general.choose(view, legal, 0.0, rng)
        game.apply(action, mover)
    raise AssertionError("no movement decision found")


def test_formations_march_in_column_and_fight_in_line() -> None:
    """``formations`` (6.0 option, off in the general): a unit far from every known enemy
    forms column before it moves (for one still to come on: by its entry hexes), one
    within ``LINE_AT`` hexes forms line; off, no formation change scores above 0."""
    from gettysburg.boc.ai.doctrine import COLUMN_CLEAR, LINE_AT

    seen: set[tuple[bool, bool]] = set()  # (to column, chosen before the moves)
    for seat, actions in (("usa", 100), ("usa", 200), ("csa", 40), ("csa", 150),
                          ("usa", 300), ("csa", 300)):
        _game, view = _column_line_view(seat, actions, formations=True)
        legal = view["legal_actions"]
        on = _formations(seat)
        sit = on.situation(view)
        for a in legal:
            if a["type"] == "enter":
                sit.entries.setdefault(str(a["unit"]), set()).add(str(a["entry"]))
        scores = on.scores(view, legal)
        for a, score in zip(legal, scores, strict=True):
            if a["type"] != "formation":
                continue
            u = sit.own[str(a["unit"])]
            hx = u.get("hex") if u.get("status") == "on_map" else None
            near = sit.nearest_enemy(hx) if hx else min(
                (sit.nearest_enemy(e) for e in sit.entries.get(str(a["unit"]), ())), default=99)
            wanted = (near > COLUMN_CLEAR and (hx is None or hx not in sit.near_objectives)
                      if a["column"] else near <= LINE_AT)
            first = score > max((s for b, s in zip(legal, scores, strict=True)
                                 if b["type"] in ("move", "enter")), default=0.0)
            assert first == wanted, (a, near)
            seen.add((bool(a["column"]), first))
        off = BocDoctrine(general_style(seat, "boc/day1"))
        assert all(s < 0 for a, s in zip(legal, off.scores(view, legal), strict=True)
                   if a["type"] == "formation")
    assert (True, True) in seen and (False, True) in seen, seen  # both kinds were chosen


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


@pytest.mark.parametrize("style", [Style(), Style(keep_room=1.0), Style(formations=True)])
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


def test_gun_shy_charges_a_last_step_battery_in_the_enemy_gun_range_only() -> None:
    """``Style.gun_shy``: Calef's battery (1 step) is charged the weight, and loses the
    guns' liking for two or three hexes off, in every hex within 3 of a known enemy block
    or in the line, victory hexes included; elsewhere, and for Gamble's cavalry next to
    it, nothing changes."""
    view = new_game("boc/day1", seed=5).view("usa")
    # A hidden CSA block two hexes from the Seminary's victory hex (G6), as at 10 AM.
    view = dict(view, hidden=[*view["hidden"], {"handle": "b-test", "side": "csa",
                                                "hex": "E6", "column": False}])
    plain = BocDoctrine(Style()).situation(view)
    shy = BocDoctrine(Style(gun_shy=2.0)).situation(view)
    here = str(plain.own_on["usa-calef"]["hex"])
    hexes = sorted(plain.facts.hexes)
    calef = dict(zip(hexes, (a - b for a, b in zip(plain.hex_values("usa-calef", here, hexes),
                                                    shy.hex_values("usa-calef", here, hexes),
                                                    strict=True)), strict=True))
    charged = 0
    for hx, diff in calef.items():
        in_front, near = hx in plain.front, plain._enemy_within(hx, 3)
        want = 2.0 + (0.3 if near and not in_front else 0.0) if in_front or near else 0.0
        assert diff == pytest.approx(want), hx
        charged += want > 0
    assert charged > 10 and calef["G6"] == pytest.approx(2.3)
    gamble = str(plain.own_on["usa-gamble"]["hex"])
    assert plain.hex_values("usa-gamble", gamble, hexes) == \
        shy.hex_values("usa-gamble", gamble, hexes)


def _exposure_view(order: list[str]) -> dict[str, Any]:
    """The USA's first view of Day 1 with a hidden CSA block in E6 and another in F6 (next
    to each other, two hexes from the Seminary), the hour's order as given."""
    view = new_game("boc/day1", seed=5).view("usa")
    extra = [{"handle": f"b-test{k}", "side": "csa", "hex": hx, "column": False}
             for k, hx in enumerate(("E6", "F6"))]
    return dict(view, hidden=[*view["hidden"], *extra], order=order, active="usa")


@pytest.mark.parametrize(("order", "first"), [(["usa", "csa"], True), (["csa", "usa"], False)])
def test_exposure_charges_the_line_by_the_enemy_strength_next_to_it(order: list[str],
                                                                    first: bool) -> None:
    """``exposure`` (we play first this hour: the enemy fires next, 1.1-1.2) or
    ``exposure_second`` (we play second) charges a front-line hex its weight per step of
    known enemy strength next to it, a hidden block counted at 3; other hexes, and the
    weight of the other case, change nothing."""
    view = _exposure_view(order)
    plain = BocDoctrine(Style()).situation(view)
    assert plain.enemy_next is first
    weight = {"exposure": 0.25} if first else {"exposure_second": 0.25}
    wrong = {"exposure_second": 0.25} if first else {"exposure": 0.25}
    charged = BocDoctrine(Style(**weight)).situation(view)
    idle = BocDoctrine(Style(**wrong)).situation(view)
    uid = "usa-gamble"
    here = str(plain.own_on[uid]["hex"])
    hexes = sorted(plain.facts.hexes)
    base = plain.hex_values(uid, here, hexes)
    assert idle.hex_values(uid, here, hexes) == base
    seen = 0
    for hx, a, b in zip(hexes, base, charged.hex_values(uid, here, hexes), strict=True):
        if a == OVERSTACK:
            continue
        next_to = sum(3.0 for e in ("E6", "F6") if e in plain.facts.nbrs[hx])
        assert plain.adjacent_enemy(hx) >= next_to
        want = 0.25 * plain.adjacent_enemy(hx) if hx in plain.front else 0.0
        assert a - b == pytest.approx(want), hx
        seen += hx in plain.front
    assert seen > 4
    # A hex next to both hidden blocks faces twice the fire of one next to one.
    both = [hx for hx in plain.front if {"E6", "F6"} <= set(plain.facts.nbrs[hx])]
    assert both and all(plain.adjacent_enemy(hx) >= 6.0 for hx in both)


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
