"""BoC engine as a whole: random legal play, invariants, fog, bad input, saves, CLI."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from boc_engine_boards import board_doc, merge_sides, road_line, write_position
from gettysburg.boc.board import board_path
from gettysburg.boc.game import BocGame
from gettysburg.boc.state import ON_MAP
from gettysburg.cli import app
from gettysburg.core import savefile
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import REFEREE, RULE_ACTION, RuleError, load_game, new_game

PROFILE = settings(max_examples=12, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow,
                                          HealthCheck.function_scoped_fixture])
SHIPPED = ["boc/day1", "boc/day2", "boc/day3", "boc/battle"]
HAVE_BOARD = board_path().exists()

BOARD = board_doc(
    hexes={"L1": {"entries": ["Baltimore Pike"]}, "H14": {"entries": ["Cashtown Pike"]},
           "T5": {"entries": ["Taneytown Road"]}, "J6": {"victory": 2}, "M11": {"victory": 1},
           "K7": {"terrain": "woods", "stacking": 3}, "L8": {"terrain": "marsh",
                                                           "stacking": 2}},
    sides=merge_sides(road_line(["L1", "L2", "L3", "L4", "L5", "K5", "J5", "J6", "I6"],
                                "Baltimore Pike"),
                      road_line(["H14", "H13", "H12", "H11", "H10", "I10", "J10"],
                                "Cashtown Pike"),
                      road_line(["T5", "S5", "R5", "Q5", "P5"], "Taneytown Road", "secondary"),
                      [{"a": "K6", "b": "K7", "terrain": ["creek", "woods"]},
                       {"a": "J6", "b": "J7", "slope": "hill", "uphill": "J6"}]))

SETUP = {
    "usa": [("J6", [("usa-gibbon", 2), ("usa-harrow", 2), "usa-webb"]),
            ("L4", [("usa-meade", 2), ("usa-hancock", 2)]), ("K6", ["usa-hays", ("usa-smyth", 1)]),
            ("L6", [("usa-hazard", 2), "usa-ransom"]), ("M5", ["usa-hunt"])],
    "csa": [("M11", [("csa-lee", 2)]), ("J9", [("csa-pickett", 2), ("csa-kemper", 2),
                                               "csa-armistead"]),
            ("K10", [("csa-longstreet", 2), "csa-dearing"]), ("L10", ["csa-garnett-rb"]),
            ("J10", [("csa-alexander-hq", 2), ("csa-cabell", 1)])],
}
ARRIVALS = [
    {"time": "17:00", "side": "usa", "entry": "Baltimore Pike", "hex": "L1",
     "units": ["usa-caldwell", "usa-cross", "usa-kelly"], "designed": True, "basis": "test"},
    {"time": "17:00", "side": "csa", "entry": "Chambersburg Pike", "hex": "H14",
     "units": ["csa-hood", "csa-law"], "designed": True, "basis": "test"},
]


def custom(tmp: Path, hour: int = 19, seed: int | str = 7, options: tuple[str, ...] = ()
           ) -> BocGame:
    path = write_position(tmp, SETUP, board=BOARD, arrivals=ARRIVALS,
                          eliminated=[{"unit": "usa-coster", "counts_for": "csa"}],
                          engine={"hour": hour})
    game = new_game(f"boc/{path}", options=options, seed=seed)
    assert isinstance(game, BocGame)
    return game


def hidden_words(game: BocGame, seat: str) -> list[str]:
    """Ids of the enemy blocks that ``seat`` must not see."""
    return [u.id for u in game.state.units.values()
            if u.side != seat and u.status == ON_MAP and not u.revealed]


def check_invariants(game: BocGame, after_phase_end: bool,
                     seen: set[str] | None = None) -> None:
    """``seen``: blocks the enemy has seen at some time (revealed or eliminated); the log
    may name those, as the players saw them then. Views never name a hidden block."""
    seen = seen if seen is not None else set()
    oob = game.orders.oob
    for u in game.state.units.values():
        assert 0 <= u.strength <= oob[u.id].max_strength, u
        assert (u.status == ON_MAP) == (u.hex is not None), u
        if u.status == ON_MAP and oob[u.id].type not in ("ahq", "chq", "dhq", "art_hq",
                                                          "cav_chq", "cav_dhq"):
            assert u.strength >= 1, u
    if after_phase_end and not game.is_terminal():
        assert game.stacking_problems() == []
    for seat in ("usa", "csa"):
        view = game.view(seat)
        text = json.dumps(view)
        for uid in hidden_words(game, seat):
            assert f'"{uid}"' not in text, (seat, uid)
        for h in view["hidden"]:
            assert set(h) == {"handle", "side", "hex", "column"}
        log = json.dumps(game.events(seat))
        for uid in hidden_words(game, seat):
            if uid not in seen:
                assert f'"{uid}"' not in log, (seat, uid)
    movers = game.to_move()
    if movers:
        for action in game.legal_actions(movers[0]):
            game.validate(action, movers[0])


def play(game: BocGame, choices: list[int], check: bool = True) -> set[str]:
    seen: set[str] = set()
    for c in choices:
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        action = legal[-1] if c % 4 == 0 else legal[c % len(legal)]
        game.apply(action, seat)
        seen |= {u.id for u in game.state.units.values() if u.revealed or u.status != ON_MAP}
        if check:
            check_invariants(game, action["type"] == "end_phase", seen)
    return seen


def finish(game: BocGame) -> None:
    """End phases until the game is over; a pending combat decision is answered with its
    last option (regroup_done, a retreat, assign_done...), which always ends it."""
    while not game.is_terminal():
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        game.apply({"type": "end_phase"} if {"type": "end_phase"} in legal else legal[-1],
                   seat)


COMBAT = {"fire", "melee", "casualty", "repulse", "melee_resolve", "melee_fight", "melee_line",
          "melee_retreat", "regroup", "regroup_done", "cavalry_custer", "cavalry_assign",
          "cavalry_assign_done"}


def assert_replays(game: BocGame) -> None:
    data = savefile.save(game)
    again = savefile.replay(json.loads(json.dumps(data)), verify=True)
    assert again.state_hash() == game.state_hash()
    assert load_game(game.to_json()).state_hash() == game.state_hash()


@PROFILE
@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=60))
def test_random_play_on_a_hand_built_position(tmp_path_factory: pytest.TempPathFactory,
                                              choices: list[int]) -> None:
    game = custom(tmp_path_factory.mktemp("pos"))
    play(game, choices)
    assert_replays(game)


# The same armies in contact: CSA blocks next to the USA line, so fire and melee come up in
# most examples (J6's neighbours are J5 J7 I6 K6 I5 K7).
CONTACT = {
    "usa": SETUP["usa"],
    "csa": [("M11", [("csa-lee", 2)]), ("J7", [("csa-pickett", 2), ("csa-kemper", 2),
                                               "csa-armistead"]),
            ("K7", [("csa-longstreet", 2), "csa-dearing"]), ("L7", ["csa-garnett-rb"]),
            ("J9", [("csa-alexander-hq", 2), ("csa-cabell", 1)])],
}


@PROFILE
@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=80))
def test_random_play_with_combat_in_contact(tmp_path_factory: pytest.TempPathFactory,
                                            choices: list[int]) -> None:
    path = write_position(tmp_path_factory.mktemp("contact"), CONTACT, board=BOARD,
                          arrivals=ARRIVALS, engine={"hour": 16}, name="contact")
    game = new_game(f"boc/{path}", seed=choices[0])
    assert isinstance(game, BocGame)
    play(game, choices)
    assert_replays(game)


def test_contact_position_reaches_fire_and_melee(tmp_path: Path) -> None:
    path = write_position(tmp_path, CONTACT, board=BOARD, arrivals=ARRIVALS,
                          engine={"hour": 16}, name="contact")
    game = new_game(f"boc/{path}", seed=2)
    assert isinstance(game, BocGame)
    seen, kinds = play_with_combat(game, random.Random(2), 400)
    assert kinds["fire"] > 0 and kinds["melee_fight"] > 0
    finish(game)
    assert game.result() is not None
    check_invariants(game, True, seen)
    assert_replays(game)


@pytest.mark.skipif(not HAVE_BOARD, reason="boc/data/board.json not generated yet")
@pytest.mark.parametrize(("scenario", "options"), [(s, ()) for s in SHIPPED]
                         + [("boc/day3", ("cavalry_battles",))])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(choices=st.lists(st.integers(0, 10**6), min_size=1, max_size=40))
def test_random_play_through_every_scenario(scenario: str, options: tuple[str, ...],
                                            choices: list[int]) -> None:
    game = new_game(scenario, seed=3, options=options)
    assert isinstance(game, BocGame)
    play(game, choices)
    assert_replays(game)


def test_a_short_scenario_plays_to_its_end(tmp_path: Path) -> None:
    game = custom(tmp_path, hour=20)
    seen = play(game, list(range(1, 4000, 7)), check=False)
    finish(game)
    result = game.result()
    assert result is not None and result["day"] == 2
    check_invariants(game, True, seen)
    assert_replays(game)


def test_refusals_change_nothing_and_name_the_rule(tmp_path: Path) -> None:
    game = custom(tmp_path)
    before = game.state_hash()
    seat = game.to_move()[0]
    cases: list[tuple[Any, str]] = [
        ({"type": "move", "unit": "csa-kemper", "path": ["J9", "J8"]}, "1.2"),
        ({"type": "activate", "hq": "csa-kemper"}, "4.3"),
        ({"type": "supply", "hq": "csa-lee", "unit": "csa-kemper"}, "8.3"),
        ({"type": "activate"}, RULE_ACTION),
        ({"type": "activate", "hq": 7}, RULE_ACTION),
        ({"type": "teleport"}, RULE_ACTION),
        ({"kind": "move"}, RULE_ACTION),
        (["not", "an", "object"], RULE_ACTION),
    ]
    assert seat == "csa"
    for action, rule in cases:
        with pytest.raises(RuleError) as err:
            game.apply(action, seat)
        assert err.value.rule == rule, (action, err.value)
        assert game.state_hash() == before
    with pytest.raises(RuleError):
        game.apply({"type": "end_phase"}, "usa")
    assert game.state_hash() == before and not game.history


def test_errors_never_confirm_an_enemy_identity(tmp_path: Path) -> None:
    game = custom(tmp_path)
    with pytest.raises(RuleError) as enemy:
        game.apply({"type": "activate", "hq": "usa-gibbon"}, "csa")
    with pytest.raises(RuleError) as unknown:
        game.apply({"type": "activate", "hq": "usa-nobody"}, "csa")
    assert enemy.value.message.replace("usa-gibbon", "X") == \
        unknown.value.message.replace("usa-nobody", "X")


def test_fog_views(tmp_path: Path) -> None:
    game = custom(tmp_path)
    usa, csa, ref = game.view("usa"), game.view("csa"), game.view(REFEREE)
    assert {u["id"] for u in usa["units"]} >= {"usa-gibbon", "usa-meade"}
    assert not any(u["id"].startswith("csa-") for u in usa["units"])
    assert len(usa["hidden"]) == 9 and all(h["side"] == "csa" for h in usa["hidden"])
    assert len(ref["hidden"]) == 0 and len(ref["units"]) == len(game.state.units)
    assert "legal_actions" not in ref and csa["legal_actions"]
    handles = {h["handle"] for h in usa["hidden"]}
    assert handles == {h["handle"] for h in custom(tmp_path, seed=7).view("usa")["hidden"]}
    assert handles != {h["handle"] for h in custom(tmp_path, seed=8).view("usa")["hidden"]}
    secret = custom(tmp_path, seed="never-shown-seed-5d1c")
    for seat in ("usa", "csa"):
        assert "never-shown-seed-5d1c" not in json.dumps(secret.view(seat))
    # An activated (revealed) HQ shows its identity to the enemy.
    game.apply({"type": "activate", "hq": "csa-pickett"}, "csa")
    shown = {u["id"]: u for u in game.view("usa")["units"]}
    assert shown["csa-pickett"]["strength"] == 2
    assert "csa-kemper" not in json.dumps(game.view("usa"))
    assert "csa-kemper" not in json.dumps(game.events("usa"))
    assert "csa-kemper" in json.dumps(game.events("csa"))


# --- CLI -------------------------------------------------------------------------------------
runner = CliRunner()


def cli(*args: str) -> Any:
    return runner.invoke(app, list(args))


def test_cli_play_by_email(tmp_path: Path) -> None:
    pos = write_position(tmp_path, SETUP, board=BOARD, arrivals=ARRIVALS,
                         engine={"hour": 19})
    save = tmp_path / "game.json"
    r = cli("game", "new", pos, "--seed", "5", "--out", str(save))
    assert r.exit_code == 0, r.output
    r = cli("game", "legal", str(save), "--json")
    legal = json.loads(r.output)
    assert {"type": "end_phase"} in legal
    r = cli("game", "apply", str(save), json.dumps({"type": "activate", "hq": "csa-pickett"}),
            "--out", str(save))
    assert r.exit_code == 0, r.output
    r = cli("game", "show", str(save), "--as", "usa", "--json")
    view = json.loads(r.output)
    assert "csa-pickett" in {u["id"] for u in view["units"]}
    assert "csa-kemper" not in r.output
    before = save.read_text()
    r = cli("game", "apply", str(save), json.dumps({"type": "activate", "hq": "csa-kemper"}),
            "--out", str(save))
    assert r.exit_code == 2 and "4.3" in r.output and save.read_text() == before
    r = cli("game", "apply", str(save), "{not json", "--out", str(save))
    assert r.exit_code == 2 and save.read_text() == before
    r = cli("game", "replay", str(save), "--verify")
    data = json.loads(save.read_text())
    assert r.exit_code == 0 and f"last link {data['moves'][-1]['link']}" in r.output
    data["moves"][0]["action"]["hq"] = "csa-longstreet"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    r = cli("game", "replay", str(bad), "--verify")
    assert r.exit_code != 0
    assert "move 0" in r.output.lower(), r.output


def test_cli_scripted_dice(tmp_path: Path) -> None:
    pos = write_position(tmp_path, SETUP, board=BOARD,
                         engine={"hour": 19, "phase": "supply", "active": "usa",
                                 "order": ["csa", "usa"], "player_index": 1})
    save = tmp_path / "g.json"
    assert cli("game", "new", pos, "--scripted", "--out", str(save)).exit_code == 0
    before = save.read_text()
    r = cli("game", "apply", str(save), '{"type": "end_phase"}', "--out", str(save),
            "--dice", "2,2,6,6,1")  # one die more than the initiative roll uses
    assert r.exit_code == 2 and "4 of the 5" in r.output and save.read_text() == before
    r = cli("game", "apply", str(save), '{"type": "end_phase"}', "--out", str(save),
            "--dice", "2,2,6,6")
    assert r.exit_code == 0, r.output
    r = cli("game", "show", str(save), "--as", "referee", "--json")
    assert json.loads(r.output)["order"] == ["csa", "usa"] and json.loads(r.output)["hour"] == 20
    assert cli("game", "replay", str(save)).exit_code == 0
    seeded = tmp_path / "s.json"
    assert cli("game", "new", pos, "--out", str(seeded)).exit_code == 0
    r = cli("game", "apply", str(seeded), '{"type": "end_phase"}', "--out", str(seeded),
            "--dice", "1,2")
    assert r.exit_code == 2


def test_scripted_dice_game_object(tmp_path: Path) -> None:
    path = write_position(tmp_path, SETUP, board=BOARD, engine={"hour": 19})
    game = BocGame(path, [], 0, ScriptedDice([]))
    assert game.to_move() == ["csa"]


@pytest.mark.skipif(not HAVE_BOARD, reason="boc/data/board.json not generated yet")
def test_day2_plays_to_its_end() -> None:
    game = new_game("boc/day2", seed=9)
    assert isinstance(game, BocGame)
    seen = play(game, [(i * 7919) % 1000 for i in range(300)], check=False)
    finish(game)
    result = game.result()
    assert result is not None and result["day"] == 2 and game.state.night
    check_invariants(game, True, seen)
    assert_replays(game)


def play_with_combat(game: BocGame, rng: random.Random, limit: int) -> tuple[set[str],
                                                                         Counter[str]]:
    """Random legal play that prefers combat and ends phases rarely, checking the
    invariants at the ends of the movement and melee phases (where blocks change hexes;
    the hypothesis tests check every phase end)."""
    seen: set[str] = set()
    kinds: Counter[str] = Counter()
    for _ in range(limit):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        assert legal, (game.state.phase, seat)
        combat = [a for a in legal if a["type"] in COMBAT]
        if combat and rng.random() < 0.8:
            action = rng.choice(combat)
        elif {"type": "end_phase"} in legal and rng.random() < 0.2:
            action = {"type": "end_phase"}
        else:
            action = rng.choice(legal)
        game.apply(action, seat)
        kinds[action["type"]] += 1
        seen |= {u.id for u in game.state.units.values() if u.revealed or u.status != ON_MAP}
        if action["type"] == "end_phase" and game.state.phase in ("melee", "supply"):
            check_invariants(game, True, seen)  # after movement and after melee (6.2, 7.7)
    return seen, kinds


@pytest.mark.skipif(not HAVE_BOARD, reason="boc/data/board.json not generated yet")
def test_day3_with_cavalry_battles_plays_to_its_end_with_combat() -> None:
    """Pickett's Charge from its start with random legal actions, fire, melee and the 10.0
    cavalry battles included, to a result."""
    game = new_game("boc/day3", seed=11, options=("cavalry_battles",))
    assert isinstance(game, BocGame)
    seen, kinds = play_with_combat(game, random.Random(11), 3000)
    finish(game)
    result = game.result()
    assert result is not None and result["day"] == 3 and result["winner"] in ("usa", "csa", None)
    assert kinds["fire"] > 0 and kinds["melee"] > 0 and kinds["melee_fight"] > 0
    assert kinds["cavalry_assign_done"] == 1
    assert game.state.cavalry["stage"] == "done"
    check_invariants(game, True, seen)
    assert_replays(game)


def test_cli_show_says_the_game_is_over_and_replay_says_what_it_checked(
        tmp_path: Path) -> None:
    pos = write_position(tmp_path, SETUP, board=BOARD, arrivals=ARRIVALS,
                         engine={"hour": 20})
    save = tmp_path / "end.json"
    assert cli("game", "new", pos, "--seed", "5", "--out", str(save)).exit_code == 0
    for _ in range(200):
        r = cli("game", "legal", str(save), "--json")
        if r.exit_code != 0:  # refused once the game is over
            assert "over" in r.output, r.output
            break
        legal = json.loads(r.output)
        pick = next((a for a in legal if a["type"] == "end_phase"), legal[0])
        r = cli("game", "apply", str(save), json.dumps(pick), "--out", str(save))
        assert r.exit_code == 0, r.output
    r = cli("game", "show", str(save), "--as", "usa")
    assert r.exit_code == 0 and "Game over: " in r.output, r.output
    assert cli("game", "replay", str(save)).output.count("verified") == 1
    r = cli("game", "replay", str(save), "--no-verify")
    assert r.exit_code == 0 and "verified" not in r.output and "without checking" in r.output
    r = cli("game", "show", str(save), "--as", "USA")
    assert r.exit_code == 2 and "referee" in r.output


def test_cli_agrees_the_seed_by_commit_and_reveal(tmp_path: Path) -> None:
    """By e-mail: each player runs `game commit` and sends the commitment; once both are
    in, the secrets; `game new --commit --reveal` makes a save whose seed nobody chose, and
    `game replay --verify` re-checks the record."""
    from gettysburg.core.dice import combine_seed

    lines = {}
    for seat in ("usa", "csa"):
        r = cli("game", "commit", "--as", seat, "--secret-out", str(tmp_path / f"{seat}.key"))
        assert r.exit_code == 0, r.output
        lines[seat] = r.output.split(f"commitment for {seat}: ")[1].split()[0]
    secret = {s: (tmp_path / f"{s}.key").read_text().strip() for s in ("usa", "csa")}
    assert (tmp_path / "usa.key").stat().st_mode & 0o077 == 0  # the secret stays private
    r = cli("game", "commit", "--as", "usa", "--secret-out", str(tmp_path / "usa.key"))
    assert r.exit_code == 2 and (tmp_path / "usa.key").read_text().strip() == secret["usa"]
    save = tmp_path / "g.json"
    args = ["game", "new", "boc/day1", "--out", str(save),
            "--commit", f"usa={lines['usa']}", "--commit", f"csa={lines['csa']}"]
    r = cli(*args, "--reveal", f"usa=@{tmp_path / 'usa.key'}", "--reveal",
            f"csa={secret['csa']}")
    assert r.exit_code == 0 and "commit and reveal" in r.output, r.output
    data = json.loads(save.read_text())
    assert data["seed"] == combine_seed(secret)
    assert data["commit_reveal"]["commitments"] == lines
    r = cli("game", "replay", str(save), "--verify")
    assert r.exit_code == 0 and "commit and reveal of csa, usa" in r.output, r.output
    assert f"last link {data['genesis']}" in r.output  # no move yet: the genesis
    # A secret that does not match its commitment, a seed beside the record, a missing
    # reveal: refused, nothing written.
    for bad in (["--reveal", f"usa={secret['csa']}", "--reveal", f"csa={secret['csa']}"],
                ["--reveal", f"usa={secret['usa']}", "--reveal", f"csa={secret['csa']}",
                 "--seed", "7"],
                ["--reveal", f"usa={secret['usa']}"]):
        other = tmp_path / "other.json"
        r = cli(*[a.replace(str(save), str(other)) for a in args], *bad)
        assert r.exit_code == 2 and not other.exists(), r.output
    # A save whose record was edited afterwards fails its check.
    data["commit_reveal"]["reveals"]["usa"] = secret["csa"]
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    r = cli("game", "replay", str(forged), "--verify")
    assert r.exit_code != 0 and "commit" in r.output.lower(), r.output
    assert r.output.count("header") == 1 and r.output.count(str(forged)) == 1, r.output


def test_a_hex_is_named_as_the_map_prints_it(tmp_path: Path) -> None:
    """An action is stored as sent, so a hex spelled otherwise than legal_actions lists it
    ("f4", " F4") is refused, naming the spelling wanted; the listed action is accepted."""
    game = custom(tmp_path)
    kinds: set[str] = set()
    for _ in range(60):
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        for listed in legal:
            field = next((f for f in ("to", "target", "entry") if f in listed), None)
            if field is None and "path" not in listed:
                continue
            before = game.state_hash()
            wrong = [{**listed, field: listed[field].lower()},
                     {**listed, field: " " + listed[field]}] if field else []
            if "path" in listed:
                wrong.append({**listed, "path": [h.lower() for h in listed["path"]]})
            for action in wrong:
                with pytest.raises(RuleError) as err:
                    game.apply(action, seat)
                assert err.value.rule == RULE_ACTION and "as the map prints" in str(err.value)
                assert game.state_hash() == before
            kinds.add(listed["type"])
        if {"activate", "move"} <= kinds:
            break
        game.apply(next(a for a in legal if a["type"] == "end_phase") if any(
            a["type"] == "end_phase" for a in legal) else legal[0], seat)
    assert {"activate", "move"} <= kinds, kinds
    seat = game.to_move()[0]
    listed = next(a for a in game.legal_actions(seat) if "path" in a)
    game.apply(listed, seat)
    assert game.history[-1].action == listed


def test_a_custom_scenario_travels_with_its_save(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A save names its custom scenario file relative to its own folder: a friend who puts
    both files in one folder anywhere can play on, and no local path is in the save."""
    import shutil

    home = tmp_path / "mine"
    home.mkdir()
    pos = Path(write_position(home, SETUP, board=BOARD, arrivals=ARRIVALS,
                              engine={"hour": 19}))
    save = home / "g.json"
    r = cli("game", "new", str(pos), "--seed", "5", "--out", str(save))
    assert r.exit_code == 0, r.output
    r = cli("game", "apply", str(save), json.dumps({"type": "activate", "hq": "csa-pickett"}),
            "--out", str(save))
    assert r.exit_code == 0, r.output
    data = json.loads(save.read_text())
    assert data["scenario"] == pos.name and str(tmp_path) not in save.read_text()
    friend = tmp_path / "friend" / "games"
    friend.mkdir(parents=True)
    for f in home.iterdir():  # the save, the scenario and what it names (a test board)
        shutil.copy(f, friend / f.name)
    monkeypatch.chdir(tmp_path)  # run from elsewhere, as anyone might
    copy = Path("friend/games/g.json")
    assert cli("game", "replay", str(copy), "--verify").exit_code == 0
    r = cli("game", "legal", str(copy), "--json")
    assert r.exit_code == 0 and json.loads(r.output), r.output
    # The scenario file is part of what the save checks: edited, it no longer replays.
    (friend / pos.name).write_text(pos.read_text().replace("hour: 19", "hour: 18"))
    r = cli("game", "replay", str(copy), "--verify")
    assert r.exit_code != 0 and "header" in r.output, r.output
