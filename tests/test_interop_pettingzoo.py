"""The PettingZoo adapter on Badges of Courage: PettingZoo's api_test, seed_test and
render_test, and our own checks (masks, refusals, seeded dice, no hidden leaks). The toy
system's are in test_interop_toy.py."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pz = pytest.importorskip("gettysburg.interop.pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402


def _short(**kwargs: object) -> object:
    return pz.env("boc/day1", max_decisions=12, **kwargs)


def test_api_test() -> None:
    api_test(_short(), num_cycles=12)


def test_seed_test() -> None:
    seed_test(_short, num_cycles=8)


def test_render_test() -> None:
    render_test(_short)
    e = _short(render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert "Day 1" in text and "usa:" in text


def test_observation_is_dict_with_int8_mask_matching_the_rules() -> None:
    e = pz.env("boc/day3", max_decisions=5)
    e.reset(seed=3)
    agent = e.agent_selection
    obs, *_ = e.last()
    assert set(obs) == {"observation", "action_mask"}
    assert obs["action_mask"].dtype == np.int8 and obs["observation"].dtype == np.float32
    legal = e.game.legal_actions(agent)
    assert int(obs["action_mask"].sum()) == len(legal) > 1
    other = next(a for a in e.agents if a != agent)
    assert int(e.observe(other)["action_mask"].sum()) == 0


def test_illegal_ids_are_refused_and_change_nothing() -> None:
    e = pz.env("boc/day1", max_decisions=5)
    e.reset(seed=2)
    mask = e.observe(e.agent_selection)["action_mask"]
    before = e.game.state_hash()
    bad = int(np.flatnonzero(mask == 0)[0])
    for action in (bad, -1, e.num_actions, 1.5, True):
        with pytest.raises(ValueError):
            e.step(action)
    assert e.game.state_hash() == before


def test_seed_fixes_the_dice() -> None:
    """Same seed and actions give the same game; another seed other dice."""
    def run(seed: int) -> tuple[str, list[int]]:
        e = pz.env("boc/day3", max_decisions=400, max_turns=1)
        e.reset(seed=seed)
        for _agent in e.agent_iter(2000):
            obs, _r, term, trunc, _i = e.last()
            if term or trunc:
                e.step(None)
                continue
            ids = np.flatnonzero(obs["action_mask"])
            e.step(int(ids[0]))  # end_phase (id 0) whenever it is legal: turns go by
        return e.game.state_hash(), [r.value for r in e.game.dice.rolls]

    a, b, c = run(5), run(5), run(6)
    assert a == b
    assert a[1] and a[1] != c[1]


def test_hidden_enemy_identities_do_not_reach_the_observation() -> None:
    e = pz.env("boc/day3", max_decisions=50)
    e.reset(seed=4)
    for seat in ("usa", "csa"):
        before = e.observe(seat)["observation"].copy()
        enemy = "csa" if seat == "usa" else "usa"
        owner_before = e.hooks.observation_json(e.game, enemy)
        st = e.game.state
        hidden = sorted((u for u in st.units.values() if u.side != seat
                         and u.status == "on_map" and not u.revealed
                         and not e.game.orders.is_hq(u.id)), key=lambda u: u.id)
        a, b = next((x, y) for x in hidden for y in hidden
                    if x.hex != y.hex and x.strength == y.strength)
        a.hex, b.hex = b.hex, a.hex
        assert np.array_equal(e.observe(seat)["observation"], before)
        assert e.hooks.observation_json(e.game, enemy) != owner_before  # the owner sees it
        a.hex, b.hex = b.hex, a.hex


def test_docs_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "research.md").read_text()
    code = next(b.split("```", 1)[0] for b in text.split("```python\n")[1:]
                if b.startswith("# example: pettingzoo\n"))
    exec(compile(code, "docs/research.md", "exec"), {})
    out = capsys.readouterr().out
    assert "mean USA return by arm" in out and "plays: [" in out


def test_options_as_a_list_or_as_openspiels_comma_separated_string() -> None:
    as_text = pz.env("boc/day3", options="column_line, cavalry_battles", max_turns=1)
    as_list = pz.env("boc/day3", options=["column_line", "cavalry_battles"], max_turns=1)
    assert as_text.options == as_list.options == ("column_line", "cavalry_battles")
    as_text.reset(seed=3)
    with pytest.raises(ValueError, match="'nope'"):
        pz.env("boc/day3", options="nope", max_turns=1).reset(seed=3)


def test_legal_ids_in_the_info_are_the_masks_and_built_once_a_position(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The mover's info holds the mask's ids (sorted), the other agent's none; the legal
    ids are encoded once per position however often they are asked for; what an agent is
    given may be changed without touching the next observation."""
    e = pz.env("toy/standard")
    encode = e.hooks.encode_actions
    calls: list[int] = []

    def counting(game: object, actions: object) -> object:
        calls.append(1)
        return encode(game, actions)

    monkeypatch.setattr(e.hooks, "encode_actions", counting)
    e.reset(seed=3)
    steps = 0
    for agent in e.agent_iter(200):
        obs, _r, term, trunc, info = e.last()
        if term or trunc:
            assert all("legal_ids" not in e.infos[a] for a in e.agents)
            e.step(None)
            continue
        again = e.observe(agent)
        assert np.array_equal(info["legal_ids"], np.flatnonzero(obs["action_mask"]))
        assert np.array_equal(again["action_mask"], obs["action_mask"])
        obs["observation"][:] = 99.0  # the agent's copy, not the env's
        assert not np.array_equal(e.observe(agent)["observation"], obs["observation"])
        others = [a for a in e.agents if a != agent]
        assert others and all("legal_ids" not in e.infos[a] for a in others)
        e.step(int(info["legal_ids"][-1]))
        steps += 1
    assert steps > 3
    assert len(calls) == steps  # one encoding per position decided at
