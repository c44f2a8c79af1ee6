"""What a seat remembers of the enemy (``belief_boc.Sightings``) and how the sampler uses
it: a block that stands up again (8.1) is the one revealed there, a block revealed where a
hidden one stood is that one, a block gone while losses rose is lost, a block first seen
after the start came on the map by then. Positions are set up by hand from Day 1."""

from __future__ import annotations

import random
from typing import Any

from gettysburg.ai import make_agent
from gettysburg.boc.ai.belief import Sightings, sample_hidden, scenario_start
from gettysburg.boc.fog import handle
from gettysburg.core.protocol import Game, load_game, new_game


def _with(game: Game, **changes: dict[str, Any]) -> Game:
    """The game with some units' fields changed (``usa_calef={"revealed": True}``)."""
    data = game.to_json()
    for key, fields in changes.items():
        data["position"]["units"][key.replace("_", "-", 1)].update(fields)
    return load_game(data)


def _handle_at(view: dict[str, Any], hx: str) -> list[str]:
    return [str(h["handle"]) for h in view["hidden"] if h["hex"] == hx]


def test_a_block_that_stands_up_again_is_the_one_seen_there() -> None:
    game = new_game("boc/day1", seed=5)
    calef = game.to_json()["position"]["units"]["usa-calef"]
    hx = calef["hex"]
    seen = Sightings()
    revealed = _with(game, usa_calef={"revealed": True, "strength": 1})
    seen.update(revealed.view("csa"))
    assert "usa-calef" not in {h for hs in seen.only.values() for h in hs}
    hidden_again = _with(game, usa_calef={"revealed": False, "strength": 1})
    view = hidden_again.view("csa")
    new = [h for h in _handle_at(view, hx) if h not in seen.first]
    seen.update(view)
    assert len(new) == 1 and seen.only[new[0]] == {"usa-calef"}
    # The referee agrees: that handle is Calef's.
    assert new[0] == handle(hidden_again.key, "usa-calef")  # type: ignore[attr-defined]
    start = scenario_start(view)
    for k in range(5):
        sample = sample_hidden(view, random.Random(k), start, seen=seen)
        assert sample.blocks[new[0]] == ("usa-calef", 1)  # with the strength last seen
    # Without the memory the same view names Calef far less often.
    names = [sample_hidden(view, random.Random(k), start).blocks[new[0]][0] for k in range(30)]
    assert names.count("usa-calef") < 30


def test_a_block_revealed_where_a_hidden_one_stood_is_that_one() -> None:
    game = new_game("boc/day1", seed=6)
    hx = game.to_json()["position"]["units"]["usa-gamble"]["hex"]
    seen = Sightings()
    before = game.view("csa")
    seen.update(before)
    standing = _handle_at(before, hx)
    assert standing
    shown = _with(game, usa_gamble={"revealed": True})
    seen.update(shown.view("csa"))
    gone = [h for h in standing if h not in _handle_at(shown.view("csa"), hx)]
    assert len(gone) == 1 and seen.only[gone[0]] == {"usa-gamble"}
    assert gone[0] == handle(game.key, "usa-gamble")  # type: ignore[attr-defined]


def test_a_revealed_block_gone_while_losses_rose_is_lost_and_never_drawn() -> None:
    game = new_game("boc/day1", seed=7)
    seen = Sightings()
    seen.update(_with(game, usa_calef={"revealed": True}).view("csa"))
    data = game.to_json()
    data["position"]["units"]["usa-calef"].update({"status": "eliminated", "hex": None,
                                                   "strength": 0})
    data["position"]["losses"]["usa"] = 1
    after = load_game(data)
    view = after.view("csa")
    seen.update(view)
    assert seen.lost == {"usa-calef"}
    start = scenario_start(view)
    for k in range(10):
        drawn = {uid for uid, _ in sample_hidden(view, random.Random(k), start,
                                                  seen=seen).blocks.values()}
        assert "usa-calef" not in drawn


def test_a_fallen_dhq_rebuilt_under_4_61_is_drawn_again_at_strength_0() -> None:
    # Buford is seen, falls (the losses rise and the view lists him as fallen), then is
    # rebuilt at 0 in his hex under a new handle: the list drops him, so he is no longer
    # lost and the sampler may draw him again (it never did: Day 3's support was 0.999).
    game = new_game("boc/day1", seed=7)
    seen = Sightings()
    seen.update(_with(game, usa_buford={"revealed": True}).view("csa"))
    data = game.to_json()
    hx = data["position"]["units"]["usa-buford"]["hex"]
    data["position"]["units"]["usa-buford"].update({"status": "eliminated", "hex": None,
                                                    "strength": 0})
    data["position"]["losses"]["usa"] = 1
    data["position"]["fallen"] = {"usa-buford": 108}
    fell = load_game(data)
    assert fell.view("csa")["fallen"] == ["usa-buford"]
    seen.update(fell.view("csa"))
    assert seen.lost == {"usa-buford"}
    data["position"]["units"]["usa-buford"].update({"status": "on_map", "hex": hx,
                                                    "strength": 0, "returned": 1})
    back = load_game(data)
    view = back.view("csa")
    assert view["fallen"] == []
    seen.update(view)
    assert seen.lost == set() and seen.strength["usa-buford"] == 0
    new = handle(back.key, "usa-buford", 1)  # type: ignore[attr-defined]
    assert new in _handle_at(view, hx)
    start = scenario_start(view)
    drawn = [sample_hidden(view, random.Random(k), start, seen=seen).blocks for k in range(40)]
    assert any(blocks[new] == ("usa-buford", 0) for blocks in drawn)
    assert all(("usa-buford", 0) in blocks.values() or "usa-buford" not in
               {uid for uid, _ in blocks.values()} for blocks in drawn)


def test_the_same_view_twice_changes_nothing_and_another_game_starts_afresh() -> None:
    game = new_game("boc/day1", seed=8)
    seen = Sightings()
    view = _with(game, usa_calef={"revealed": True}).view("csa")
    seen.update(view)
    state = (dict(seen.first), dict(seen.only), dict(seen.strength), set(seen.lost))
    seen.update(view)
    assert (dict(seen.first), dict(seen.only), dict(seen.strength), set(seen.lost)) == state
    # A new game of the same scenario: the clock went back, so memory starts afresh.
    later = game.to_json()
    later["position"]["hour"] = 12
    seen.update(load_game(later).view("csa"))
    seen.update(game.view("csa"))
    assert seen.strength == {} and seen.began == 1 * 14 + 8
    other = new_game("boc/day2", seed=8).view("csa")
    seen.update(other)
    assert seen.strength == {u["id"]: u["strength"] for u in other["units"]
                             if u["side"] == "usa"}
    assert set(seen.first) == {h["handle"] for h in other["hidden"]}


def test_blocks_first_seen_later_are_units_due_by_then() -> None:
    """Over a Day 1 game between generals, fed each seat's views at its own decisions:
    a block first seen after the start is always drawn among the units due by then."""
    game = new_game("boc/day1", seed=9)
    agents = {s: make_agent("general", s) for s in game.seats()}
    memory = {s: Sightings() for s in game.seats()}
    start = scenario_start(game.view("usa"))
    due = {uid: int(u.get("arrival_key") or 0) for uid, u in start["position"]["units"].items()}
    rng, checked = random.Random(9), 0
    for _ in range(400):
        seat = game.to_move()[0]
        view = game.view(seat)
        memory[seat].update(view)
        seen = memory[seat]
        later = {h: turn for h, (_, turn) in seen.first.items() if turn != seen.began}
        if later and view["phase"] == "movement":
            sample = sample_hidden(view, rng, start, seen=seen)
            for h, (uid, _) in sample.blocks.items():
                if h in later:
                    day, hour = divmod(due[uid], 100)
                    assert day * 14 + hour <= later[h], (h, uid)
                    checked += 1
        game.apply(agents[seat].choose(view, view["legal_actions"], 0.0, rng), seat)
    assert checked > 20


def test_the_general_remembers_a_worn_block_that_stood_up_again() -> None:
    """BocMemory hands the doctrine a hidden block it saw standing up again as that unit at
    the strength it last had: a 1-step block is easy prey (9.12), a guess is not."""
    from gettysburg.boc.ai.belief import BocMemory
    from gettysburg.boc.ai.doctrine import BocDoctrine

    game = new_game("boc/day1", seed=10)
    hx = game.to_json()["position"]["units"]["usa-calef"]["hex"]
    memory = BocMemory()
    memory.recall(_with(game, usa_calef={"revealed": True, "strength": 1}).view("csa"))
    view = _with(game, usa_calef={"strength": 1}).view("csa")
    recalled = memory.recall(view)
    h = handle(game.key, "usa-calef")  # type: ignore[attr-defined]
    assert recalled["recalled"] == {h: ["usa-calef", 1]}
    assert "recalled" not in view  # the game's view itself is untouched
    doctrine = BocDoctrine()
    knows, guesses = doctrine.situation(recalled), doctrine.situation(view)
    assert ("usa-calef", 1) in knows.enemy_blocks[hx]
    assert (None, 3) in guesses.enemy_blocks[hx]
    assert ("usa-calef", 1) not in guesses.enemy_blocks[hx]
    beside = next(n for n in knows.facts.nbrs[hx] if n not in knows.enemy_at)
    assert knows.prey(beside) > guesses.prey(beside)
    # A fresh memory (one view) knows nothing more than the view.
    assert "recalled" not in BocMemory().recall(view)


def test_general_and_search_keep_a_memory_per_agent() -> None:
    from gettysburg.boc.ai.belief import BocMemory

    game = new_game("boc/day1", seed=11)
    view = game.view("csa")
    for name in ("general", "search"):
        agent = make_agent(name, "csa")
        agent.choose(view, view["legal_actions"], 0.0, random.Random(0))
        memory = agent.memory.get(view)  # type: ignore[attr-defined]
        assert isinstance(memory, BocMemory)
        assert set(memory.seen.first) == {h["handle"] for h in view["hidden"]}
