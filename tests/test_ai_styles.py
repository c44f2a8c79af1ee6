"""Doctrine styles: ``Style()`` is the general, and each weight moves the scores it names."""

from __future__ import annotations

import random
from typing import Any

from gettysburg.ai import make_agent
from gettysburg.ai.doctrine import doctrine_for
from gettysburg.ai.doctrine_boc import STYLES, BocDoctrine, Style
from gettysburg.core.protocol import new_game


def _view_after(n: int) -> dict[str, Any]:
    """The view of the seat to move after ``n`` general-against-general actions of Day 1."""
    game = new_game("boc/day1", seed=5)
    general, rng = make_agent("general"), random.Random(0)
    for _ in range(n):
        seat = game.to_move()[0]
        view = game.view(seat)
        game.apply(general.choose(view, view["legal_actions"], 0.0, rng), seat)
    return game.view(game.to_move()[0])


def test_the_default_style_is_the_general() -> None:
    view = _view_after(60)
    legal = view["legal_actions"]
    assert BocDoctrine(Style()).scores(view, legal) == doctrine_for(view).scores(view, legal)
    for seat, styles in STYLES.items():
        assert styles["general"] == Style(), seat  # every portfolio holds the general
        assert len(set(styles.values())) == len(styles), seat  # no variant twice
    assert next(iter(STYLES["usa"])) == "shy" and next(iter(STYLES["csa"])) == "general"


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
