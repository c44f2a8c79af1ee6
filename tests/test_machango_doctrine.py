"""Mundo Machango's minimal doctrine: it plays whole campaigns and goes for the stars."""

from __future__ import annotations

from pathlib import Path

from gettysburg.core.protocol import new_game
from gettysburg.machango.doctrine import MachangoDoctrine
from gettysburg.machango.game import MachangoGame
from gettysburg.machango.system import SYSTEM
from test_machango_rules import make


def best(doctrine: MachangoDoctrine, g: MachangoGame, seat: str) -> dict[str, object]:
    legal = g.legal_actions(seat)
    scores = doctrine.scores(g.view(seat), legal)
    return legal[max(range(len(legal)), key=lambda i: (scores[i], -i))]


def test_general_against_general_plays_a_campaign_to_its_end() -> None:
    assert SYSTEM.ai.doctrine is not None
    doctrine = SYSTEM.ai.doctrine()
    assert isinstance(doctrine, MachangoDoctrine)
    g = new_game("machango/campaign", seed=4)
    assert isinstance(g, MachangoGame)
    steps = 0
    while not g.is_terminal():
        seat = g.to_move()[0]
        g.apply(best(doctrine, g, seat), seat)
        steps += 1
        assert steps < 20000
    result = g.result()
    assert result is not None and result["winner"] in ("usa", "csa")
    assert any(e.type == "battle_fought" for e in g.log)  # it does fight
    assert doctrine.evaluate(g.view("usa")) != 0.0


def test_csa_attacks_a_star_rather_than_wait(tmp_path: Path) -> None:
    g = make(tmp_path, {"u_doubleday": {"at": "the_angle"}, "c_heth_1": {"at": "codori_farm"}},
             start={"day": 1, "hour": 8, "phase": "day", "active": "csa"})
    act = best(MachangoDoctrine(), g, "csa")
    assert act == {"type": "attack", "division": "c_heth_1", "target": "the_angle"}
