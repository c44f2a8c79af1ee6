"""002 §15.12's material search kept by (site, enemy hexes) in the caller's table (a game's
``material_sources``, with its other caches; no module-level cache): the same answers and
refusals as the search made afresh, and only the game's own table fills."""

from __future__ import annotations

import random

import pytest

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import engineering as en
from gettysburg.gbacw import engineering_step
from gettysburg.gbacw.board import load_board
from gettysburg.gbacw.game import GbacwGame


def answer(board: object, site: Hex, enemy: frozenset[Hex],
           sources: en.Sources | None) -> object:
    try:
        return en.check_site(board, site, enemy, markers_here=0,  # type: ignore[arg-type]
                             sources=sources)
    except RuleError as exc:
        return exc.rule, exc.message


def test_kept_answers_equal_fresh_ones() -> None:
    """Seeded sites on the real map with enemies near: asked twice through one table, each
    answer (a material hex or the refusal) is the fresh search's; the table holds one
    entry per (site, enemy) asked that got as far as the search."""
    board = load_board()
    r = random.Random(15)
    hexes = sorted(board.hexes, key=lambda h: (h.q, h.r))
    kept: en.Sources = {}
    found = refused = 0
    for _ in range(150):
        site = r.choice(hexes)
        enemy = frozenset(Hex(site.q + r.randint(-4, 4), site.r + r.randint(-4, 4))
                          for _ in range(3))
        fresh = answer(board, site, enemy, None)
        assert answer(board, site, enemy, kept) == fresh
        assert answer(board, site, enemy, kept) == fresh
        found += isinstance(fresh, Hex)
        refused += not isinstance(fresh, Hex)
    assert found and refused
    assert 0 < len(kept) <= 150


def test_the_table_starts_again_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table at its limit is emptied before the next answer goes in."""
    monkeypatch.setattr(en, "SOURCES_KEPT", 2)
    board = load_board()
    kept: en.Sources = {}
    sites = sorted(board.hexes, key=lambda h: (h.q, h.r))[500:505]
    for i, s in enumerate(sites):
        assert en._source(board, s, frozenset(), kept) == \
            en.material_source(board, s, frozenset())
        assert len(kept) == i % 2 + 1


def test_a_games_build_list_fills_its_own_table() -> None:
    """Little Round Top's orders segment lists ``build`` (II/F): the game's table fills,
    a new game starts with an empty one, and the list is the same from a fresh game."""
    g = GbacwGame("little-round-top", seed=3)
    assert g.material_sources == {}
    seat = "csa"
    listed = engineering_step.build_options(g, seat)
    assert listed and g.material_sources
    other = GbacwGame("little-round-top", seed=3)
    assert other.material_sources == {}
    assert engineering_step.build_options(other, seat) == listed
