"""Mundo Machango's strategic board: derived from the battlefield model, stored as data."""

from __future__ import annotations

import itertools
from collections import Counter

from gettysburg.machango.board import load_board
from gettysburg.machango.mapgen import board_text, derive_board, gabriel_links, planar
from gettysburg.machango.paths import DATA

SEED_LINES = ("the_angle", "cemetery_hill", "culps_hill", "stevens_knoll", "gettysburg",
              "mcpherson_ridge", "herr_ridge")


def test_board_file_rederives_byte_for_byte() -> None:
    assert board_text(derive_board()) == (DATA / "board.json").read_text(encoding="utf-8")


def test_the_lines_the_seed_names_exist_and_the_board_is_connected() -> None:
    b = load_board()
    lines = [p for p in b.lines.values() if p["kind"] == "line"]
    assert 40 <= len(lines) <= 70
    for pid in SEED_LINES:
        assert pid in b.lines
    seen, todo = {"gettysburg"}, ["gettysburg"]
    while todo:
        for n in b.neighbours(todo.pop()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(b.lines)


def test_three_stars_held_by_the_usa_set_up() -> None:
    b = load_board()
    assert sorted(b.stars) == ["cemetery_hill", "culps_hill", "the_angle"]
    assert all(b.lines[s]["star"] for s in b.stars)
    assert sum(p["star"] for p in b.lines.values()) == 3


def test_links_have_kinds_and_every_value_a_reason() -> None:
    b = load_board()
    kinds = Counter(k["kind"] for k in b.links.values())
    assert set(kinds) == {"road", "open", "obstructed"} and all(kinds.values())
    for k in b.links.values():
        assert k["why"]
        if k["kind"] == "road":
            assert k["why"].startswith("TE5")
        for src in k["fire_from"]:
            assert b.artillery(src) >= 1 and src not in (k["a"], k["b"])
    for p in b.lines.values():
        assert p["why"] and 0 <= p["artillery"] <= 2
        if p["kind"] == "entry":
            assert p["artillery"] == 0


def test_symbols_follow_the_written_formula() -> None:
    b = load_board()
    for p in b.lines.values():
        if p["kind"] == "entry":
            continue
        two = p["command_ft"] >= 25 and p["open_share"] >= 0.5
        one = p["command_ft"] >= 10 and p["open_share"] >= 0.3
        assert p["artillery"] == (2 if two else 1 if one else 0), p["id"]
    assert b.artillery("cemetery_hill") == 2  # commands the town


def test_entry_triangles_carry_the_arrival_hours_three_and_five_a_day() -> None:
    b = load_board()
    per: Counter[tuple[str, int]] = Counter()
    for p in b.lines.values():
        for e in p["entry_hours"]:
            assert p["kind"] == "entry"
            assert 7 <= e["hour"] <= 19
            per[(e["side"], e["day"])] += 1
    assert per == {("usa", 1): 3, ("usa", 2): 3, ("usa", 3): 3, ("csa", 1): 5, ("csa", 2): 5}


def test_herr_ridge_to_town_takes_a_whole_hour() -> None:
    b = load_board()
    best: dict[str, int] = {"herr_ridge": 0}
    todo = ["herr_ridge"]
    while todo:  # cheapest MP to every line (few lines: a plain relaxation)
        here = todo.pop()
        for n in b.neighbours(here):
            c = best[here] + b.step_cost(here, n)
            if c < best.get(n, 99):
                best[n] = c
                todo.append(n)
    assert best["gettysburg"] >= 3  # all of an infantry division's MP in an hour (MV1)
    path = b.graph.shortest_path("herr_ridge", "gettysburg", weight="links")
    assert sum(b.step_cost(x, y) for x, y in itertools.pairwise(path)) >= best["gettysburg"]


def test_gabriel_and_planar_on_a_square() -> None:
    pts = {"a": (0.0, 0.0), "b": (100.0, 0.0), "c": (100.0, 100.0), "d": (0.0, 100.0),
           "m": (50.0, 50.0)}
    pairs = gabriel_links(pts, 1000.0)
    assert ("a", "c") not in pairs  # m lies inside a-c's circle
    assert ("a", "m") in pairs
    crossing = planar(pts, [("a", "c"), ("b", "d")])
    assert len(crossing) == 1
