"""The Random Event marker in the activation pool (004 §18.0, optional rule ``random_events``;
gbacw/random_events.py): in the pool from the 1 July 1000 turn, drawn blind like the AMs, then
who rolls and the letter, logged; off without the option."""

from __future__ import annotations

from gettysburg.core.protocol import Action, Event
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.questions import EVENT_MARKER
from gettysburg.gbacw.setup import turn_label

PREFERRED = ("end_orders", "first_am", "end_orders_change", "end_activation",
             "end_commanders")


def quick(g: GbacwGame) -> Action:
    legal = g.legal_actions(g.to_move()[0])
    return next((a for k in PREFERRED for a in legal if a["type"] == k), legal[0])


def play_to(g: GbacwGame, label: str) -> list[Event]:
    seen: list[Event] = []
    for _ in range(400):
        if g.is_terminal() or turn_label(g.pos.turn) > label:
            break
        seen += g.apply(quick(g), g.to_move()[0])
    return seen


def test_marker_joins_the_pool_from_1000_and_is_drawn_tdg_18() -> None:
    g = GbacwGame("herr-ridge", options=["random_events"], seed=3)
    events = play_to(g, "1-1100")
    markers = [e for e in events if e.type == "random_event_marker"]
    drawn = [e for e in events if e.type == "random_event"]
    assert markers and len(drawn) == len(markers)
    assert all(e.rule == "tdg.18.0" for e in drawn)
    for e in drawn:
        assert "ignored" in e.data or e.data["who_roll"] in range(10)
        if e.data.get("letter"):
            assert e.data["applied"] in (True, False, "partial")
            assert e.data["letter"] in g.pos.events_happened


def test_no_marker_without_the_option() -> None:
    g = GbacwGame("herr-ridge", seed=3)
    events = play_to(g, "1-1100")
    assert not any(e.type.startswith("random_event") for e in events)
    assert EVENT_MARKER not in g.pos.pool
