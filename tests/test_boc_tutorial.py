"""The first-game tutorial (issue 57): its script, played through the engine with its
fixed dice, tells the story its words tell (Calef's fire hits Archer, Gamble wins the
melee, Buford's supply gives Gamble back his step), every step can be done with the
actions it allows, and every step is written in the client's four languages."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from gettysburg.boc.system import SYSTEM
from gettysburg.boc.tutorial import OTHER, ROLLS, allowed, tutorial
from gettysburg.core.dice import Dice, ScriptedDice
from gettysburg.core.protocol import Game, new_game

WORDS = Path(str(resources.files("gettysburg") / "boc" / "data")) / "words.json"


def _done(step: dict[str, Any], events: list[Any]) -> bool:
    """As the client reads it: an event of the kind, or the start of the phase."""
    want = step["done"]
    if "event" in want:
        return any(e.type == want["event"] for e in events)
    return any(e.type == "phase" and e.data.get("phase") == want["phase"] for e in events)


def _play(dice: Dice | None = None) -> tuple[Game, dict[str, list[Any]]]:
    """Every step with the first legal action it allows (the other seat as the client
    plays it); the events each step saw, by step id."""
    tut = tutorial()
    game = new_game(f"boc/{tut['scenario']}", seed=tut["seed"], dice=dice)
    seen: dict[str, list[Any]] = {}
    for step in tut["steps"]:
        events: list[Any] = []
        for _ in range(20):
            if _done(step, events):
                break
            seat = game.to_move()[0]
            legal = game.legal_actions(seat)
            if seat != tut["seat"]:
                action = next(a for kind in OTHER for a in legal if a["type"] == kind)
            else:
                options = [a for a in legal if allowed(step, a)]
                assert options, (step["id"], legal)
                action = options[0]
            events += game.apply(action, seat)
        assert _done(step, events), step["id"]
        seen[step["id"]] = events
    return game, seen


def test_the_declaration_names_a_listed_scenario_and_the_learners_seat() -> None:
    assert SYSTEM.tutorial is not None
    tut = SYSTEM.tutorial()
    # Not in the scenario menu (the lobby offers it as "Learn to play"), yet hosted.
    assert tut["scenario"] not in SYSTEM.menu().scenarios
    from gettysburg.server.systems import scenario_problem

    assert scenario_problem("boc", tut["scenario"]) is None
    assert tut["seat"] in SYSTEM.seats
    assert tut["steps"][0]["id"] == "command"


def test_the_script_tells_its_story_with_its_dice_4_3_5_7_8() -> None:
    game, seen = _play()
    st = game.state  # type: ignore[attr-defined]
    activated = next(e for e in seen["command"] if e.type == "activate")
    assert activated.data["under_command"] == ["usa-calef", "usa-devin", "usa-gamble"]
    fire = next(e for e in seen["fire"] if e.type == "fire")
    assert fire.data["hits"] == 1  # Calef's die at or under his firepower: Archer hit
    assert any(e.type == "hit" and e.data["unit"] == "csa-archer" for e in seen["fire"])
    won = next(e for e in seen["melee"] if e.type == "melee_won")
    assert won.data["winner"] == "usa"
    assert st.units["csa-archer"].status == "eliminated"
    assert st.units["usa-buford"].strength == 1  # a step for command, one for supply
    supplied = next(e for e in seen["supply"] if e.type == "supply")
    assert supplied.data["unit"] == "usa-gamble" and st.units["usa-gamble"].strength == 3
    assert st.active == "csa"  # the tutorial ends with the Union's player turn


def test_the_seed_rolls_the_scripted_dice() -> None:
    """The seed's dice are the script's (ROLLS), and the same play with ScriptedDice of
    those values reaches the same position: the story does not hang on anything else."""
    seeded, _ = _play()
    assert tuple(r.value for r in seeded.dice.rolls) == ROLLS
    scripted, _ = _play(ScriptedDice(ROLLS))
    assert scripted.position_json() == seeded.position_json()


def test_a_step_refuses_what_it_does_not_teach() -> None:
    step = next(s for s in tutorial()["steps"] if s["id"] == "command")
    assert allowed(step, {"type": "activate", "hq": "usa-buford"})
    assert not allowed(step, {"type": "activate", "hq": "usa-buford", "to": "G9"})
    assert not allowed(step, {"type": "end_phase"})


def test_every_step_is_written_in_four_languages() -> None:
    words = json.loads(WORDS.read_text("utf-8"))
    for step in tutorial()["steps"]:
        for part in ("do", "after"):
            key = f"tutorial.{step['id']}.{part}"
            texts = [words[lang].get(key) for lang in ("en", "es", "de", "it")]
            assert all(texts), key
            assert len(set(texts)) == 4, key  # translated, not copied
    for key in ("tutorial.title", "tutorial.intro", "tutorial.finished"):
        assert all(words[lang].get(key) for lang in ("en", "es", "de", "it")), key
