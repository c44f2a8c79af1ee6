"""The GBACW engine's speed-ups answer as the plain code would (issue 54, issue 52's random
play): the view's summary is part of the view, and the caches of sight and of where the
units stand follow the position when units move."""

from __future__ import annotations

import random

from gettysburg.core.hexes import Hex
from gettysburg.gbacw import sightlines
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.lab_hooks import clock
from gettysburg.gbacw.los import line_of_sight


def test_summary_is_part_of_the_view() -> None:
    """Every key of ``view_summary`` has the view's value, for both seats and the referee,
    position after position; the summary holds neither pieces nor legal actions."""
    game = GbacwGame("little-round-top", seed=7)
    rng = random.Random(7)
    checked = 0
    for step in range(120):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        if step % 10 == 0:
            for who in ("usa", "csa", "referee"):
                summary, view = game.view_summary(who), game.view(who)
                assert {k: view[k] for k in summary} == summary, (step, who)
                assert not {"units", "legal_actions"} & set(summary)
                assert clock(summary) == clock(view)
            checked += 1
        legal = game.legal_actions(seat)
        game.apply_unrecorded(legal[rng.randrange(len(legal))], seat)
    assert checked >= 10


def test_enemy_hexes_and_sight_follow_a_unit_moved_by_hand() -> None:
    """002 §6.13, §10.26: the answers kept for where the units stand are rebuilt when a
    unit's hex changes, even between two questions of one position (``enemy_hexes``), and
    the sight shared between positions is the sight of the hexes occupied now."""
    game = GbacwGame("little-round-top", seed=1)
    board = game.cat.board
    key = next(k for k, u in sorted(game.pos.units.items()) if u.hex is not None)
    u = game.pos.units[key]
    other = "csa" if u.seat == "usa" else "usa"
    assert game.hex_of(u.hex) in game.enemy_hexes(other)
    occupied = {h for v in game.pos.units.values() if (h := game.hex_of(v.hex)) is not None}
    # an empty hex with empty hexes two away on either side of it (a line through it)
    spot, a, b = next((h, h + Hex(-1, 0) + Hex(-1, 0), h + Hex(1, 0) + Hex(1, 0))
                      for h in sorted(board.hexes, key=lambda h: (h.q, h.r))
                      if not {h, h + Hex(-2, 0), h + Hex(2, 0)} & occupied
                      and h + Hex(-2, 0) in board.hexes and h + Hex(2, 0) in board.hexes)
    before = game._sight(a, b)
    assert before == line_of_sight(board, a, b, blockers=occupied - {a, b}).clear
    u.hex = board.hexes[spot].id
    assert spot in game.enemy_hexes(other)  # no action between: the hexes were checked
    game._memo.clear()  # as after an action
    now = {h for v in game.pos.units.values() if (h := game.hex_of(v.hex)) is not None}
    assert game._sight(a, b) == line_of_sight(board, a, b, blockers=now - {a, b}).clear
    assert game._sight(a, b) is False or not before  # a unit between blocks (002 §10.26)


def test_sightlines_answer_as_line_of_sight() -> None:
    """002 §10.2, §10.26: :func:`sightlines.clear` against :func:`los.line_of_sight` over
    seeded pairs of hexes up to 8 apart and random sets of occupied hexes (the ends' own
    units never block), every pair asked under three sets."""
    game = GbacwGame("little-round-top", seed=1)
    board = game.cat.board
    hexes = sorted(board.hexes, key=lambda h: (h.q, h.r))
    rng = random.Random(10)
    centre = hexes[len(hexes) // 2]
    near = [h for h in hexes if h.distance(centre) <= 12]
    blocked = 0
    for _ in range(150):
        a = rng.choice(near)
        b = rng.choice([h for h in near if 2 <= a.distance(h) <= 8])
        for density in (0.0, 0.15, 0.4):
            occupied = frozenset(h for h in near if rng.random() < density) | {a}
            want = line_of_sight(board, a, b, blockers=occupied - {a, b}).clear
            assert sightlines.clear(board, a, b, occupied) == want, (a, b, density)
            blocked += not want
    assert blocked > 20  # the sets do block some lines
