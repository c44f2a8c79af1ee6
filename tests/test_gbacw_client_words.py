"""GBACW's words for the web client (gbacw/data/client_words.json through the declaration's
``words``): in four languages with the same keys, served under ``gbacw:`` so that another
system's word for one key never says GBACW's event, and each sentence's slots are fields
the engine's events of that kind carry."""

from __future__ import annotations

import json
import re
from pathlib import Path

from gettysburg import gbacw, systems
from gettysburg.gbacw.game import GbacwGame

FILE = Path(gbacw.__file__).parent / "data" / "client_words.json"


def test_every_language_has_every_key_and_the_same_slots() -> None:
    words = json.loads(FILE.read_text("utf-8"))
    assert set(words) == {"en", "es", "de", "it"}
    keys = set(words["en"])
    for lang, table in words.items():
        assert set(table) == keys, lang
        for k, text in table.items():
            assert set(re.findall(r"\{(\w+)\}", text)) == set(
                re.findall(r"\{(\w+)\}", words["en"][k])), (lang, k)


def test_served_under_the_system_s_name_and_the_engine_s_words_kept_plain() -> None:
    served = systems.get("gbacw").words("es")  # type: ignore[misc]
    assert served["gbacw:sentence.move"].startswith("{unit}")
    assert served["gbacw:action.move"] == served["action.move"]
    assert "sentence.move" not in served  # a shared key only the system's page reads


def test_each_sentence_s_slots_are_in_its_events() -> None:
    """Day-2 afternoon at Little Round Top: the CSA's orders, first marker, a brigade
    activated and moved, every event's fields against its sentence."""
    words = json.loads(FILE.read_text("utf-8"))["en"]
    g = GbacwGame("little-round-top", seed=1)
    seen: dict[str, set[str]] = {}
    for _ in range(120):
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        pick = next((a for k in ("end_orders", "first_am", "end_orders_change", "activate",
                                 "move", "end_brigade", "end_activation")
                     for a in legal if a["type"] == k), legal[0])
        for e in g.apply(pick, seat):
            seen.setdefault(e.type, set()).update(e.data)
    checked = 0
    for key, text in words.items():
        kind = key.removeprefix("sentence.")
        if not key.startswith("sentence.") or kind not in seen:
            continue
        slots = set(re.findall(r"\{(\w+)\}", text))
        assert slots <= seen[kind], (kind, slots - seen[kind])
        checked += 1
    assert checked >= 5
