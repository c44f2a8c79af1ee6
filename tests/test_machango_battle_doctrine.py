"""The Machango general in a battle: it fires with what can fire, at the target it rolls
most dice against, plays the card that orders units in range, and keeps its guns still."""

from __future__ import annotations

from typing import Any

from gettysburg.core.protocol import Action
from gettysburg.machango.battle_turns import options
from gettysburg.machango.doctrine import MachangoDoctrine
from test_machango_battle import duel, state


def choice(st: dict[str, Any], seat: str = "usa") -> Action:
    legal = options(st)
    scores = MachangoDoctrine().scores({"seat": seat, "phase": "battle", "battle": st}, legal)
    return legal[max(range(len(legal)), key=lambda i: (scores[i], -i))]


def test_it_fires_at_the_target_it_rolls_most_dice_against() -> None:
    st = state({"a": ("usa", "infantry", "6,4", 4), "near": ("csa", "infantry", "6,5", 4),
                "far": ("csa", "infantry", "4,6", 1)})
    assert choice(st) == {"type": "battle_fire", "unit": "a", "target": "near"}


def test_it_plays_the_card_that_orders_units_in_range() -> None:
    st = state({"l": ("usa", "infantry", "1,4", 4), "r": ("usa", "infantry", "11,4", 4),
                "foe": ("csa", "infantry", "11,5", 4)})
    st.update(step="card", hands={"usa": ["feel_left", "feel_right"], "csa": []})
    assert choice(st) == {"type": "battle_card", "card": "feel_right"}


def test_guns_in_range_stay_put_and_infantry_closes_in() -> None:
    guns = duel(kind="artillery", d_hex="6,7")
    guns.update(step="move")
    assert choice(guns)["type"] == "battle_done"
    foot = duel(d_hex="6,8")
    foot["units"]["a"]["hex"] = "6,2"
    foot.update(step="move")
    act = choice(foot)
    assert act["type"] == "battle_move" and act["to"] in ("6,3", "7,3", "5,3")
