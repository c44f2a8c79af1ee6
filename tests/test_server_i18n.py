"""The UI catalogues: same keys and placeholders in every language, every key the client
uses is defined, and the static client ships inside the package."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

SERVER = Path(str(resources.files("gettysburg.server")))
LANGS = ("en", "es", "de", "it")


def _catalogue(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((SERVER / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


@pytest.mark.parametrize("lang", LANGS[1:])
def test_catalogues_match_english(lang: str) -> None:
    en, other = _catalogue("en"), _catalogue(lang)
    assert set(other) == set(en)
    for key, text in other.items():
        assert text.strip(), key
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", en[key])), key
    # Translated, not copied: most strings differ from the English ones.
    assert sum(other[k] != en[k] for k in en) > len(en) * 0.6


def test_every_key_the_client_uses_exists() -> None:
    en = _catalogue("en")
    used: set[str] = set()
    for js in (SERVER / "static" / "js").glob("*.js"):
        text = js.read_text("utf-8")
        used |= set(re.findall(r"\bt\(\"([a-z_]+\.[a-z_.]+)\"", text))
        used |= set(re.findall(r"i18n: \"([a-z_]+\.[a-z_.]+)\"", text))
    html = (SERVER / "static" / "index.html").read_text("utf-8")
    used |= set(re.findall(r"data-i18n=\"([a-z_.]+)\"", html))
    assert len(used) > 40
    assert sorted(used - set(en)) == []



def test_every_opponent_the_lobby_offers_is_described_in_every_language() -> None:
    """The lobby offers each system's opponents (``GET /api/systems``) by title, with a
    sentence saying what each is, in the player's language: every language has its own
    text, and they are not the English copied."""
    from gettysburg.server.systems import available_systems

    for system in available_systems():
        offered = system["opponents"]
        assert 0 < len(offered) <= 4, system["name"]
        for o in offered:
            assert o["title"] and o["description"] and o["thinking_s"] >= 0
            if not system["listed"]:
                continue  # the toy, hidden from the lobby, is described in English only
            texts = o["i18n"]
            assert set(texts) >= set(LANGS), (system["name"], o["name"])
            for lang in LANGS:
                assert texts[lang]["title"] and texts[lang]["description"]
            assert len({texts[lang]["description"] for lang in LANGS}) == len(LANGS)


def test_the_served_catalogue_holds_every_systems_seat_titles_and_words() -> None:
    """Seat titles come from each system's declaration (and its words per language), not
    from the client's own catalogue; a system's words have the same keys in every
    language."""
    from gettysburg import systems as registry
    from gettysburg.server.client import catalogue

    for declared in registry.all_systems():
        if declared.words is not None:
            en = declared.words("en")
            for lang in LANGS:
                theirs = declared.words(lang)
                assert set(theirs) == set(en), (declared.name, lang)
                assert all(text.strip() for text in theirs.values()), (declared.name, lang)
                if lang != "en":  # translated, not copied
                    assert sum(theirs[k] != en[k] for k in en) > len(en) * 0.6, lang
        for lang in LANGS:
            served = catalogue(lang)
            for seat, title in declared.seats.items():
                expected = (declared.words(lang) if declared.words else {}).get(
                    f"seat.{seat}", title)
                assert served[f"seat.{seat}"] == expected
    own = _catalogue("en")
    assert not [k for k in own if k.startswith(("seat.", "agent."))
                and k != "seat.referee"]


def test_every_boc_event_and_action_has_words() -> None:
    """The log and the actions panel name each BoC event and action in the player's
    language: every kind the engine can emit has a catalogue entry, and so does every phase
    the view can name."""
    from gettysburg.boc.game import ACTION_ORDER
    from gettysburg.boc.sequence import DAY_PHASES, DEPLOY

    boc = SERVER.parent / "boc"
    kinds: set[str] = set()
    for py in boc.glob("*.py"):
        kinds |= set(re.findall(r'(?:Event|private)\(\s*(?:type=)?"(\w+)"', py.read_text("utf-8")))
    assert {"verdict", "player_turn", "game_over", "fire", "move"} <= kinds
    from gettysburg.server.client import catalogue

    en = catalogue("en")  # the client's words with every system's (BoC's in its package)
    assert sorted(k for k in kinds if f"event.{k}" not in en) == []
    assert sorted(a for a in ACTION_ORDER if f"action.{a}" not in en) == []
    assert sorted(p for p in (*DAY_PHASES, DEPLOY) if f"value.phase.{p}" not in en) == []
