"""6.61 hex control, one rule for the engine and for the AI's projections."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gettysburg.boc.ai.doctrine import BocDoctrine, map_facts, projected_control
from gettysburg.boc.board import load_board
from gettysburg.boc.control import compute_control, control_at, control_of, index
from gettysburg.core.protocol import new_game


def test_occupied_hexes_their_lone_neighbours_and_contested_hexes() -> None:
    nbrs = index(load_board()).nbrs
    assert "J6" in nbrs["J5"] and "J6" in nbrs["K7"]  # J6 lies between the two blocks
    control = control_of({"J5": "usa", "K7": "csa"}, nbrs)
    assert control["J5"] == "usa" and control["K7"] == "csa"
    assert "J6" not in control  # next to both sides: neutral
    only_usa = [n for n in nbrs["J5"] if n not in nbrs["K7"] and n != "K7"]
    assert only_usa and all(control[n] == "usa" for n in only_usa)
    far = [h for h in nbrs if h not in control]
    assert all(h not in ("J5", "K7") for h in far)
    assert control_of({}, nbrs) == {}


@settings(max_examples=30, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted(index(load_board()).nbrs)),
                       st.sampled_from(["usa", "csa"]), max_size=12))
def test_control_follows_the_neighbours_of_the_occupied_hexes(occ: dict[str, str]) -> None:
    nbrs = index(load_board()).nbrs
    control = control_of(occ, nbrs)
    for hx in nbrs:
        sides = {occ[n] for n in nbrs[hx] if n in occ}
        if hx in occ:
            assert control[hx] == occ[hx]
        elif len(sides) == 1:
            assert control[hx] == sides.pop()
        else:
            assert hx not in control
        assert control_at(hx, occ.get, nbrs) == control.get(hx)  # the per-hex form


def test_the_ai_projects_control_as_the_engine_computes_it() -> None:
    """From the referee's view of a game the AI's projection is the engine's 6.61."""
    game = new_game("boc/day1", seed="control")
    for _ in range(120):
        view = game.view("referee")
        assert projected_control(view, map_facts()) == compute_control(game.board, game.state)
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        moves = [a for a in legal if a["type"] in ("move", "enter")]
        game.apply((moves or legal)[-1], seat)


def test_the_ai_projects_a_move_with_the_same_rule() -> None:
    """The doctrine's per-hex projection (``Situation._control_of``, own blocks counted
    and moved) is ``control_of`` of the position the move would leave."""
    game = new_game("boc/day1", seed="control")
    for _ in range(200):  # into the afternoon, with both sides on the map
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        moves = [a for a in legal if a["type"] in ("move", "enter")]
        game.apply((moves or legal)[-1], seat)
    for seat in ("usa", "csa"):
        view = game.view(seat)
        sit = BocDoctrine().situation(view)
        nbrs = sit.facts.nbrs
        assert {v: c for v in nbrs if (c := sit._control_of(v, sit.garrison)) is not None} \
            == projected_control(view, sit.facts)
        here = sorted(h for h, n in sit.garrison.items() if n == 1)[0]
        to = next(n for n in nbrs[here] if n not in sit.enemy_at and n not in sit.garrison)
        moved = {here: -1, to: 1}  # the lone block of ``here`` steps to ``to``
        units = [dict(u, hex=to) if u.get("hex") == here and u["side"] == seat else u
                 for u in view["units"]]
        after = projected_control(dict(view, units=units), sit.facts)
        assert {v: c for v in nbrs
                if (c := sit._control_of(v, sit.garrison, moved)) is not None} == after
