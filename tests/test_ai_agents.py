"""Agents: legal, deterministic, fog-honest; the general beats random on the toy game."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from gettysburg import systems
from gettysburg.ai import agent_names, make_agent
from gettysburg.ai.agent import UnknownAgentError, seeded_rng
from gettysburg.ai.doctrines import doctrine_for
from gettysburg.ai.general import GeneralAgent, best_index
from gettysburg.core.doctrine import DONE_TYPES
from gettysburg.core.protocol import Game, new_game
from gettysburg.core.system import LANGUAGES, Opponent, PresetError, load_opponents
from gettysburg.lab.simulate import make_specs, run_local, summarise


def _strip_handles(view: dict[str, Any]) -> str:
    out = dict(view)
    out["hidden"] = sorted((h["side"], h["hex"], h["column"]) for h in view["hidden"])
    return json.dumps(out, sort_keys=True)


def test_names_are_the_systems_presets_then_the_generic_agents() -> None:
    """A system's names are its opponent presets, easiest first, then the generic agents
    they leave unnamed; an unknown name is refused listing the choices."""
    boc = agent_names("boc")
    assert boc[:4] == [o.name for o in systems.get("boc").ai.opponents()] \
        == ["novice", "general", "general-tuned", "search-move-still"]
    assert set(boc[4:]) >= {"random", "search"} and "general" not in boc[4:]
    assert agent_names("toy")[:2] == ["random", "general"]
    assert set(agent_names()) >= {*boc, *agent_names("toy")}
    with pytest.raises(UnknownAgentError, match=r"'nobody'.*'novice', 'general'"):
        make_agent("nobody", 1, "boc")
    # (Other test modules register agents of their own, listed after these.)
    with pytest.raises(UnknownAgentError, match=r"\['random', 'general', 'search'[\],]"):
        make_agent("novice", 1, "toy")  # another system's preset
    with pytest.raises(LookupError, match="rule system"):
        make_agent("general", 1, "no-such-system")


@pytest.mark.parametrize(("retired", "preset"), [
    ("search-move", "search-move-still"), ("search-move-still-day1", "search-move-still"),
    ("search-end-day1-tuned", "general-tuned")])
def test_retired_names_build_their_nearest_preset(retired: str, preset: str) -> None:
    """The agents that became presets keep their names as aliases (rows and stored games
    name them); an alias builds the preset, on the same random numbers."""
    old, new = make_agent(retired, 1), make_agent(preset, 1, "boc")
    assert type(old) is type(new) and old.__dict__.keys() == new.__dict__.keys()
    assert old.name == new.name == preset
    assert getattr(old, "stream", None) == getattr(new, "stream", None)


def test_presets_take_only_their_agents_settings() -> None:
    """A preset's settings are its agent's: a setting the agent does not take, or a bad
    value, is refused naming the preset and the setting."""
    def preset(agent: str, given: dict[str, Any]) -> Opponent:
        return Opponent("odd", agent, {"en": "Odd"}, {"en": "Odd."}, settings=given)

    for agent, extra, words in [
            ("general", {"lapses": 2.0}, "lapses"), ("general", {"depth": 3}, "odd"),
            ("search", {"still_seats": ["csa"]}, "move_plans"),
            ("search", {"move_plans": "yes"}, "move_plans"), ("random", {"x": 1}, "odd")]:
        toy, made = systems.get("toy"), (preset(agent, extra),)
        odd = replace(toy, ai=replace(toy.ai, opponents=lambda made=made: made))
        with pytest.MonkeyPatch.context() as patch:
            patch.setitem(systems._loaded, "toy", odd)
            with pytest.raises(ValueError, match=words):
                make_agent("odd", 1, "toy")


@pytest.mark.parametrize("name", ["random", "general", "novice"])
def test_agents_play_legal_toy_games_deterministically(name: str) -> None:
    def play(seed: int) -> list[str]:
        game = new_game("toy/standard", seed=seed)
        agent, rng, moves = make_agent(name, seed), seeded_rng(seed), []
        while not game.is_terminal():
            seat = game.to_move()[0]
            legal = game.legal_actions(seat)
            action = agent.choose(game.view(seat), legal, 0.1, rng)
            assert action in legal
            game.apply(action, seat)
            moves.append(json.dumps(action, sort_keys=True))
        return moves

    assert play(3) == play(3)


def test_general_beats_random_on_toy_from_both_seats() -> None:
    for agents in ({"red": "general", "blue": "random"}, {"red": "random", "blue": "general"}):
        rows = run_local(make_specs("toy/standard", 60, agents, seed=5))
        general = next(s for s, n in agents.items() if n == "general")
        wins = summarise(rows, ("red", "blue"))["wins"]
        assert wins.get(general, 0) > 2 * wins.get("blue" if general == "red" else "red", 0)


def test_best_index_prefers_done_when_nothing_is_worth_it() -> None:
    legal = [{"type": "move", "unit": "u"}, {"type": "end_phase"}]
    assert best_index([-0.5, 0.0], legal) == 1
    assert best_index([0.2, 0.0], legal) == 0


def _deploy_game(swap: bool) -> Game:
    """Day 2 with free deployment: USA either swaps two blocks in different hexes or not.
    The CSA seat sees the same board either way, only the opaque handles differ."""
    game = new_game("boc/day2", options=["free_deployment"], seed=11)
    if swap:
        swaps = [a for a in game.legal_actions("usa") if a["type"] == "swap"]
        game.apply(swaps[len(swaps) // 2], "usa")
    game.apply({"type": "end_phase"}, "usa")
    return game


@pytest.mark.parametrize("name", ["general", "novice", "general-tuned"])
def test_general_decides_the_same_whatever_the_hidden_identities(name: str) -> None:
    a, b = _deploy_game(False), _deploy_game(True)
    assert a.state_hash() != b.state_hash()  # the truth differs ...
    general = make_agent(name, 1)
    steps = 0
    while steps < 25 and not a.is_terminal():
        seat = a.to_move()[0]
        assert b.to_move() == [seat]
        if seat != "csa":
            break
        va, vb = a.view(seat), b.view(seat)
        assert _strip_handles(va) == _strip_handles(vb)  # ... the CSA view does not
        ca = general.choose(va, va["legal_actions"], 0.1, random.Random(steps))
        cb = general.choose(vb, vb["legal_actions"], 0.1, random.Random(steps))
        assert ca == cb
        a.apply(ca, seat)
        b.apply(cb, seat)
        steps += 1
    assert steps > 3


def test_boc_doctrine_scores_every_action_and_ends_phases() -> None:
    game = new_game("boc/day1", seed=2)
    seat = game.to_move()[0]
    view = game.view(seat)
    legal = view["legal_actions"]
    scores = doctrine_for(view).scores(view, legal)
    assert len(scores) == len(legal)
    for s, a in zip(scores, legal, strict=True):
        if a["type"] in DONE_TYPES:
            assert s == 0.0


def test_general_never_overstacks_in_a_day1_turn() -> None:
    game = new_game("boc/day1", seed=4)
    general, rng = make_agent("general", 4), random.Random(0)
    for _ in range(120):
        seat = game.to_move()[0]
        view = game.view(seat)
        action = general.choose(view, view["legal_actions"], 0.1, rng)
        events = game.apply(action, seat)
        assert not [e for e in events if e.type == "eliminated" and e.rule == "6.2"
                    and e.data.get("side") == seat]


def _front_pair(view: dict[str, Any]) -> tuple[dict[str, Any], str]:
    from gettysburg.boc.ai.facts import map_facts

    facts = map_facts()
    enemy = {h["hex"] for h in view["hidden"]}
    for u in view["units"]:
        if u["side"] == view["seat"] and u["status"] == "on_map" and u["id"].count("-") == 1:
            for n in facts.nbrs[u["hex"]]:
                if n in enemy:
                    return u, n
    raise AssertionError("no own block next to an enemy")


def test_boc_doctrine_scores_combat_actions_by_expected_hits_and_odds() -> None:
    from gettysburg.boc.ai.doctrine import BocDoctrine, expected_hits

    game = new_game("boc/day3", seed=1)
    seat = game.to_move()[0]
    view = game.view(seat)
    unit, target = _front_pair(view)
    doctrine = BocDoctrine()
    fire = {"type": "fire", "unit": unit["id"], "target": target, "through": target}
    assert doctrine.scores(view, [fire])[0] > 0.0
    assert expected_hits(3, 2, False) == 1.0 and expected_hits(3, 2, True) == 0.5
    # A lone block against a stacked hex is bad odds: no melee; night: no melee at all.
    melee = {"type": "melee", "unit": unit["id"], "target": target}
    crowded = dict(view, hidden=view["hidden"] + [{"handle": f"x{k}", "side": "usa" if seat
                                                   == "csa" else "csa", "hex": target,
                                                   "column": False} for k in range(4)])
    assert doctrine.scores(crowded, [melee])[0] < 0.0
    assert doctrine.scores(dict(view, night=True), [melee])[0] < 0.0


def test_night_pulls_back_from_the_line_but_keeps_objective_garrisons() -> None:
    from gettysburg.boc.ai.doctrine import BocDoctrine

    game = new_game("boc/day3", seed=1)
    view = game.view(game.to_move()[0])
    unit, _ = _front_pair(view)
    doctrine = BocDoctrine()
    day, night = doctrine.situation(view), doctrine.situation(dict(view, night=True))
    here = unit["hex"]
    assert here in night.front
    drop = day.hex_value(unit["id"], here, here) - night.hex_value(unit["id"], here, here)
    if here in night.facts.victory:
        assert drop < 2.0
    else:
        assert drop >= 2.0
    victory_front = [v for v in night.facts.victory if v in night.front]
    for v in victory_front:
        assert night.hex_value(unit["id"], v, here) > -1.0


def _open_front(view: dict[str, Any], need: int) -> tuple[dict[str, Any], list[str]]:
    """An own infantry block and ``need`` empty hexes next to it that it fires into
    without terrain penalty (no hexside terrain, not double defence)."""
    from gettysburg.boc.ai.doctrine import fire_penalty
    from gettysburg.boc.ai.facts import map_facts

    facts = map_facts()
    taken = {u["hex"] for u in view["units"] if u.get("hex")} | {h["hex"] for h in view["hidden"]}
    for u in view["units"]:
        if u["side"] != view["seat"] or u["status"] != "on_map" or u["strength"] < 3:
            continue
        if not u["id"].startswith("usa-") or "hq" in u["id"]:
            continue
        from gettysburg.boc.oob import default_oob

        if default_oob().units[u["id"]].type != "infantry":
            continue
        free = [n for n in facts.nbrs[u["hex"]] if n not in taken
                and fire_penalty(facts, u["hex"], n) == 0
                and not facts.board.hex(n).double_defence]
        if len(free) >= need:
            return u, free[:need]
    raise AssertionError("no block with open ground around it")


def _with_enemies(view: dict[str, Any], placed: dict[str, list[tuple[str, int]]]
                  ) -> dict[str, Any]:
    """The view with revealed enemy blocks ``placed`` (hex -> [(unit id, strength)])."""
    ids = {uid for blocks in placed.values() for uid, _ in blocks}
    units = [u for u in view["units"] if u["id"] not in ids]
    for hx, blocks in placed.items():
        for uid, strength in blocks:
            units.append({"id": uid, "side": "csa", "hex": hx, "strength": strength,
                          "revealed": True, "column": False})
    return dict(view, units=units)


def _usa_day2_view() -> dict[str, Any]:
    game = new_game("boc/day2", seed=3)
    view = game.view("usa")
    return dict(view, hidden=[])  # no unknown enemy nearby: the test places what it needs


def test_general_fires_at_the_block_it_can_finish() -> None:
    """Two shots with the same expected hits: the one that can eliminate a 1-step block
    (a victory point, 9.12) wins over one into a fresh 3-step block."""
    base = _usa_day2_view()
    unit, (strong_hex, weak_hex) = _open_front(base, 2)
    view = _with_enemies(base, {strong_hex: [("csa-kemper", 3)],
                                weak_hex: [("csa-garnett-rb", 1)]})
    legal = [{"type": "fire", "unit": unit["id"], "target": h, "through": h}
             for h in (strong_hex, weak_hex)] + [{"type": "end_phase"}]
    action = make_agent("general", 1).choose(view, legal, 0.1, random.Random(0))
    assert action["target"] == weak_hex


def test_general_melees_a_worn_block_but_not_a_strong_one() -> None:
    from gettysburg.boc.ai.doctrine import BocDoctrine

    base = _usa_day2_view()
    unit, (target,) = _open_front(base, 1)
    melee = {"type": "melee", "unit": unit["id"], "target": target}
    doctrine = BocDoctrine()
    weak = _with_enemies(base, {target: [("csa-garnett-rb", 1)]})
    strong = _with_enemies(base, {target: [("csa-kemper", 4), ("csa-armistead", 4)]})
    assert doctrine.scores(weak, [melee])[0] > 0.0
    assert doctrine.scores(strong, [melee])[0] < 0.0


def test_melee_outlook_follows_the_odds() -> None:
    from gettysburg.boc.ai.melee_outlook import fighter, outlook
    from gettysburg.boc.oob import default_oob

    oob = default_oob().units
    big = [fighter(oob["usa-webb"], "usa", 3, False), fighter(oob["usa-hall"], "usa", 3, False)]
    lone = [fighter(oob["csa-garnett-rb"], "csa", 1, True)]
    good = outlook(big, lone)
    bad = outlook(big[:1], [fighter(oob["csa-kemper"], "csa", 4, True),
                            fighter(oob["csa-armistead"], "csa", 4, True)])
    assert good.win > 0.8 and good.def_lost > 0.8
    assert bad.win < 0.2 and bad.att_steps > bad.def_steps
    assert outlook(big, lone) == good  # seeded: the same estimate every time
    # 7.3: crossing a hill uphill costs the attacker 2 in round 1
    assert fighter(oob["usa-webb"], "usa", 3, False, penalty=2).fps[0] == \
        fighter(oob["usa-webb"], "usa", 3, False).fps[0] - 2


def test_weak_block_keeps_out_of_the_front_line() -> None:
    from gettysburg.boc.ai.doctrine import BocDoctrine

    base = _usa_day2_view()
    unit, (enemy_hex,) = _open_front(base, 1)
    view = _with_enemies(base, {enemy_hex: [("csa-kemper", 3)]})
    doctrine = BocDoctrine()
    here = unit["hex"]
    full = doctrine.situation(view)
    worn_view = dict(view, units=[dict(u, strength=1) if u["id"] == unit["id"] else u
                                  for u in view["units"]])
    worn = doctrine.situation(worn_view)
    assert here in full.front
    if here not in full.facts.victory:
        assert worn.hex_value(unit["id"], here, here) < full.hex_value(unit["id"], here, here)


def test_defender_retreats_into_a_hex_with_room_when_the_melee_is_lost() -> None:
    from gettysburg.boc.ai.facts import facts_for

    base = _usa_day2_view()
    unit, (enemy_hex, crowded, empty) = _open_front(base, 3)
    facts = facts_for(base)
    fill = [u for u in base["units"] if u["side"] == "usa" and u["status"] == "on_map"
            and u["id"] != unit["id"]][:facts.stacking[crowded]]
    units = [dict(u, hex=crowded) if u in fill else u for u in base["units"]]
    units = [dict(u, strength=1) if u["id"] == unit["id"] else u for u in units]
    view = _with_enemies(dict(base, units=units),
                         {enemy_hex: [("csa-kemper", 4), ("csa-armistead", 4)]})
    view["combat"] = {"battle": {"hex": unit["hex"], "attacker": "csa", "kind": "supported",
                                 "round": 1, "attackers": ["csa-armistead", "csa-kemper"],
                                 "defenders": [unit["id"]]}}
    legal = [{"type": "melee_fight", "unit": unit["id"]},
             {"type": "melee_retreat", "unit": unit["id"], "to": crowded},
             {"type": "melee_retreat", "unit": unit["id"], "to": empty}]
    action = make_agent("general", 1).choose(view, legal, 0.1, random.Random(0))
    assert action == legal[2]


def test_usa_general_retakes_an_undefended_victory_hex() -> None:
    """Day 2: the CSA holds G6 (2 points, 9.3). With the CSA blocks gone from it and its
    surroundings, a USA block next to it walks in rather than to another neighbour hex."""
    from gettysburg.boc.ai.facts import map_facts

    facts = map_facts()
    base = _usa_day2_view()
    target = "G6"
    assert base["control"].get(target) == "csa"
    ring = set(facts.nbrs[target]) | {target}
    units = [u for u in base["units"] if not (u["side"] == "csa" and u.get("hex") in ring)]
    own = [u for u in units if u["side"] == "usa" and u["status"] == "on_map"
           and u["id"] == "usa-webb"]
    assert own, "the test moves usa-webb next to the objective"
    start = next(n for n in facts.nbrs[target] if not any(u.get("hex") == n for u in units))
    units = [dict(u, hex=start) if u["id"] == "usa-webb" else u for u in units]
    view = dict(base, units=units, phase="movement")
    others = [n for n in facts.nbrs[start] if n != target and n in facts.hexes
              and not any(u.get("hex") == n for u in units)][:3]
    legal = [{"type": "move", "unit": "usa-webb", "path": [start, n]} for n in others]
    legal += [{"type": "move", "unit": "usa-webb", "path": [start, target]},
              {"type": "end_phase"}]
    action = make_agent("general", 1).choose(view, legal, 0.1, random.Random(0))
    assert action["type"] == "move" and action["path"][-1] == target


def test_late_in_the_day_a_side_that_is_not_winning_takes_a_riskier_melee() -> None:
    """A melee slightly worse than the usual threshold is declared at 8 PM (the last day
    turn) by a USA that is not yet winning (CSA total 6 > -1, 9.3), not at 4 PM."""
    from gettysburg.boc.ai.doctrine import MELEE_MIN, MELEE_MIN_BEHIND, BocDoctrine

    base = _usa_day2_view()
    assert base["victory"]["total"] > -1
    unit, (target,) = _open_front(base, 1)
    melee = {"type": "melee", "unit": unit["id"], "target": target}
    doctrine = BocDoctrine()
    found = None
    for own in (1, 2, 3):
        for theirs in (1, 2, 3, 4):
            units = [dict(u, strength=own) if u["id"] == unit["id"] else u
                     for u in base["units"]]
            view = _with_enemies(dict(base, units=units), {target: [("csa-kemper", theirs)]})
            score = doctrine.scores(view, [melee])[0]
            late = doctrine.scores(dict(view, hour=20), [melee])[0]
            if score < 0.0 < late:
                found = (own, theirs)
            # never the other way round: lateness only lowers the bar
            assert not (score > 0.0 and late < 0.0)
    assert found is not None, (MELEE_MIN, MELEE_MIN_BEHIND)


def test_full_blocks_close_on_worn_enemy_blocks() -> None:
    """Hunting (9.12: each eliminated block is a point): standing next to a 1-step enemy
    block is worth more than standing next to a fresh 4-step one."""
    from gettysburg.boc.ai.doctrine import BocDoctrine

    base = _usa_day2_view()
    unit, (enemy_hex,) = _open_front(base, 1)
    doctrine = BocDoctrine()
    here = unit["hex"]
    worn = doctrine.situation(_with_enemies(base, {enemy_hex: [("csa-kemper", 1)]}))
    fresh = doctrine.situation(_with_enemies(base, {enemy_hex: [("csa-kemper", 4)]}))
    assert worn.prey(here) == 1.0 and fresh.prey(here) == 0.25
    assert worn.hex_value(unit["id"], here, here) > fresh.hex_value(unit["id"], here, here)


def test_general_gives_a_hit_to_its_hq_rather_than_lose_a_brigade() -> None:
    """5.23 ties: between a DHQ and a brigade both at 1 the general hits the HQ (it stays
    at 0, 7.5); between the two at 2 it spares the HQ."""
    from gettysburg.boc.ai.doctrine import BocDoctrine

    base = _usa_day2_view()
    units = [dict(u) for u in base["units"]]
    hq = next(u for u in units if u["id"] == "usa-gibbon")
    brigade = next(u for u in units if u["id"] == "usa-harrow")
    legal = [{"type": "casualty", "unit": "usa-gibbon"},
             {"type": "casualty", "unit": "usa-harrow"}]
    for strength, pick in ((1, "usa-gibbon"), (2, "usa-harrow")):
        hq["strength"] = brigade["strength"] = strength
        scores = BocDoctrine().scores(dict(base, units=units), legal)
        assert legal[scores.index(max(scores))]["unit"] == pick


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_enemy_reach_agrees_with_distances_worked_out_afresh(data: st.DataObject) -> None:
    """``EnemyReach`` answers from its memo what the board's distances give afresh, and
    the same enemy hexes share one memo."""
    from gettysburg.boc.ai.doctrine import enemy_reach
    from gettysburg.boc.ai.facts import map_facts

    facts = map_facts()
    ids = sorted(facts.hexes)
    enemy = frozenset(data.draw(st.lists(st.sampled_from(ids), max_size=6)))
    reach = enemy_reach(facts, enemy)
    assert enemy_reach(facts, frozenset(enemy)) is reach
    for _ in range(3):  # twice for some hexes: the second answer comes from the memo
        hx = data.draw(st.sampled_from(ids))
        r = data.draw(st.integers(min_value=0, max_value=4))
        assert reach.nearest(hx) == min((facts.dist(hx, e) for e in enemy), default=99)
        assert reach.within(hx, r) == sum(1 for e in enemy if facts.dist(hx, e) <= r)
        assert reach.nearest(hx) == min((facts.dist(hx, e) for e in enemy), default=99)


def test_the_memo_of_melee_fighters_is_bounded_and_gives_the_same_fighters(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from gettysburg.boc.ai import melee_outlook as dm
    from gettysburg.boc.oob import default_oob

    oob = default_oob().units
    first = dm.fighter(oob["usa-webb"], "usa", 3, False)
    monkeypatch.setattr(dm, "FIGHTERS_KEPT", 3)
    for strength in range(1, 6):
        dm.fighter(oob["usa-hall"], "usa", strength, True)
        assert len(dm._FIGHTERS) <= 3
    again = dm.fighter(oob["usa-webb"], "usa", 3, False)
    assert again == first and again is not first  # made afresh, the same fighter


def test_the_memo_of_scenario_starts_is_bounded() -> None:
    """The public start of a scenario (search's worlds, its last-turn check, research) is
    made once per source and options, in a memo of at most ``STARTS_KEPT`` entries, the
    least recently used dropped first (``functools.lru_cache``)."""
    from gettysburg.boc.ai.belief import STARTS_KEPT, _start_of, scenario_start

    assert _start_of.cache_parameters()["maxsize"] == STARTS_KEPT == 32
    _start_of.cache_clear()
    first = scenario_start({"scenario": "boc/day1", "options": []})
    again = scenario_start({"scenario": "boc/day1", "source": "day1", "options": []})
    other = scenario_start({"scenario": "boc/day1", "options": ["hancock"]})
    assert again is first and other is not first  # kept: not made again
    assert other["setup"]["options"] == ["hancock"] and first["setup"]["options"] == []
    info = _start_of.cache_info()
    assert (info.hits, info.misses, info.currsize) == (1, 2, 2)


def test_the_novice_is_the_general_but_for_its_lapses() -> None:
    """At each decision the novice (the general with ``lapses``) plays the general's choice
    unless its generator's first draw falls under ``lapses``; then it plays a random legal
    action. Replayed with the same generator, a game is the same game; at 0 it is the
    general's game."""
    NOVICE_EPS = 0.25

    def play(agent_for: dict[str, Any], seed: int, actions: int = 250) -> list[Any]:
        game = new_game("boc/day1", seed=seed)
        rngs = {s: seeded_rng("t", seed, s) for s in ("usa", "csa")}
        out = []
        for _ in range(actions):
            seat = game.to_move()[0]
            view = game.view(seat)
            action = agent_for[seat].choose(view, view["legal_actions"], 0.0, rngs[seat])
            game.apply(action, seat)
            out.append(action)
        return out

    def novice(eps: float) -> GeneralAgent:
        return GeneralAgent(lapses=eps)

    general = {s: make_agent("general") for s in ("usa", "csa")}
    assert play({s: novice(0.0) for s in ("usa", "csa")}, 7) == play(general, 7)
    assert make_agent("novice").lapses == NOVICE_EPS  # type: ignore[attr-defined]
    assert play({"usa": make_agent("novice"), "csa": make_agent("general")}, 7) == \
        play({"usa": make_agent("novice"), "csa": make_agent("general")}, 7)
    # Where its coin says "lapse", the USA novice plays the random pick of that generator.
    game = new_game("boc/day1", seed=7)
    agent, lapses = make_agent("novice"), 0
    for step in range(200):
        seat = game.to_move()[0]
        view = game.view(seat)
        legal = view["legal_actions"]
        if seat == "usa":
            probe = seeded_rng("probe", step)
            coin = random.Random()
            coin.setstate(probe.getstate())
            lapse = coin.random() < NOVICE_EPS
            pick = coin.choice(list(legal)) if lapse else None
            action = agent.choose(view, legal, 0.0, probe)
            if lapse:
                lapses += 1
                assert action == pick
        else:
            action = make_agent("general").choose(view, legal, 0.0, random.Random(0))
        game.apply(action, seat)
    assert lapses > 5


def test_every_declared_preset_builds_and_plays_a_legal_action() -> None:
    """Each system's presets build from their settings and choose one of the legal
    actions of a fresh game of that system; easiest first, four at most in the lobby."""
    for declared in systems.all_systems():
        presets = list(declared.ai.opponents())
        assert sum(o.lobby for o in presets) <= 4
        scenario = next(iter(declared.menu().scenarios))
        for o in presets:
            game = new_game(f"{declared.name}/{scenario}" if "/" not in scenario else scenario,
                            seed=3)
            seat = game.to_move()[0]
            view = game.view(seat)
            agent = make_agent(o.name, 1, declared.name)
            assert agent.name == o.name
            action = agent.choose(view, game.legal_actions(seat), 0.05, random.Random(0))
            assert action in game.legal_actions(seat), (declared.name, o.name)


def test_an_opponents_file_is_checked_naming_the_entry_and_field(tmp_path: Path) -> None:
    """A preset names a known agent, a title and a description in every language; its
    aliases are names, none used twice (nor a preset's name)."""
    texts = {lang: "x" for lang in LANGUAGES}

    def entry(name: str, **extra: object) -> dict[str, object]:
        return {"name": name, "agent": "general", "titles": texts, "descriptions": texts,
                **extra}

    def problem(entries: list[dict[str, object]]) -> str:
        path = tmp_path / "opponents.yaml"
        path.write_text(yaml.safe_dump(entries), "utf-8")
        with pytest.raises(PresetError) as err:
            load_opponents(path)
        return str(err.value)

    good = tmp_path / "good.yaml"
    good.write_text(yaml.safe_dump([entry("a", aliases=["old-a"]), entry("b")]), "utf-8")
    assert [o.aliases for o in load_opponents(good)] == [("old-a",), ()]
    assert "'b'" in problem([entry("a"), entry("b", aliases=["a"])])
    assert "used twice" in problem([entry("a", aliases=["x"]), entry("b", aliases=["x"])])
    assert "'aliases'" in problem([entry("a", aliases="old-a")])
    assert "'agent'" in problem([entry("a", agent="genius")])
    assert "'titles'" in problem([entry("a", titles={"en": "A"})])
    assert "unknown field" in problem([entry("a", depth=3)])
