"""The UI catalogues: same keys and placeholders in every language, every key the client
uses is defined, and the static client ships inside the package."""

from __future__ import annotations

import json
import re
import subprocess
import sys
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



def test_every_agent_the_lobby_offers_has_a_name_and_words_in_every_language() -> None:
    """The lobby names each AI in the player's language and says what it is under its list
    (``agent.<name>`` and ``agent.<name>_help``), so a player can weigh the choice. The
    agents are listed by a fresh interpreter, as a new server offers them: other tests
    register agents of their own in this one."""
    listed = subprocess.run(
        [sys.executable, "-c", "import json; from gettysburg.server.agents import agent_names;"
         " print(json.dumps(agent_names()))"], capture_output=True, text=True, check=True)
    offered = json.loads(listed.stdout)
    assert {"general", "novice", "random", "search", "search-move", "search-move-still"} \
        <= set(offered)
    for lang in LANGS:
        words = _catalogue(lang)
        missing = [k for a in offered for k in (f"agent.{a}", f"agent.{a}_help")
                   if k not in words]
        assert missing == [], (lang, missing)

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
    en = _catalogue("en")
    assert sorted(k for k in kinds if f"event.{k}" not in en) == []
    assert sorted(a for a in ACTION_ORDER if f"action.{a}" not in en) == []
    assert sorted(p for p in (*DAY_PHASES, DEPLOY) if f"value.phase.{p}" not in en) == []
