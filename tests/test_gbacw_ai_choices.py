"""The GBACW general on the decisions the engine grew after its first version (issue 54,
gbacw/ai/choices.py): random events' choices (004 §18.0), mounting (002 §14.22), resupply
(§10.92), split fire (§10.15), Warren (004 §14.5); and every action type the engine
declares gets a score without an error."""

from __future__ import annotations

import math
from typing import Any

from gettysburg.ai.general import best_index
from gettysburg.gbacw.actions import ACTION_TYPES
from gettysburg.gbacw.ai.doctrine import GbacwDoctrine
from gettysburg.gbacw.ai.ground import board, parse

JSON = dict[str, Any]
V = {"kind": "vertex", "index": 0}


def _unit(seat: str, at: str | None, brigade: str, sp: int = 6, **more: Any) -> JSON:
    return {"seat": seat, "hex": at, "facing": V, "sp": sp, "brigade": brigade,
            "disordered": False, "arm": "inf", **more}


def _view(units: dict[str, JSON], orders: dict[str, str] | None = None,
          seat: str = "csa", **more: Any) -> JSON:
    brigades = {b: {"seat": seat, "orders": o} for b, o in (orders or {}).items()}
    return {"system": "gbacw", "seat": seat, "scenario": "herr-ridge", "units": units,
            "brigades": brigades, "leaders": {}, "turn": "1-0700", "phase": "action",
            "current": None, "brigade": None, **more}


def _best(view: JSON, legal: list[JSON]) -> JSON:
    return legal[best_index(GbacwDoctrine().scores(view, legal), legal)]


def _pending(letter: str, seat: str = "csa") -> JSON:
    return {"kind": "event_choice", "letter": letter, "roller": seat, "chooser": seat,
            "seat": "usa" if seat == "csa" else "csa"}


def test_every_declared_action_type_gets_a_finite_score() -> None:
    """Whatever kind the engine offers (actions.py), the doctrine scores it without an
    error, so a new decision never stops the general."""
    values = {"str": "a", "hex": "A2413", "facing": V, "list": ["a"], "bool": True,
              "orders": "advance",
              "shocks": [{"attackers": ["a"], "targets": ["A2512"]}]}
    hex_lists = {"targets": ["A2512"], "path": ["A2413", "A2314"]}  # lists of hexes
    legal = [{"type": t.name, **{f: hex_lists.get(f, values[k]) for f, k in t.fields}}
             for t in ACTION_TYPES]
    view = _view({"a": _unit("csa", "A2413", "B"), "e": _unit("usa", "A2512", "X")},
                 {"B": "advance"}, brigade="B", pending=_pending("B"))
    scores = GbacwDoctrine().scores(view, legal)
    assert len(scores) == len(legal) and all(math.isfinite(x) for x in scores)


def test_random_event_b_activates_the_largest_brigade() -> None:
    """004 §18.0, B: the general takes the free activation for its largest brigade."""
    units = {"a": _unit("csa", "A2413", "S"), "b": _unit("csa", "A2314", "L"),
             "c": _unit("csa", "A2315", "L")}
    legal: list[JSON] = [{"type": "event_choice", "letter": "B", "choice": "S"},
                         {"type": "event_choice", "letter": "B", "choice": "L"},
                         {"type": "event_pass"}]
    assert _best(_view(units, pending=_pending("B")), legal)["choice"] == "L"


def test_random_event_g_is_declined_and_n_picks_the_objectives_holder() -> None:
    """004 §18.0: G's area shift is declined (optional); N's compulsory panic goes to the
    enemy unit standing on an objective (Herr Ridge's A2512) before a stronger one off it."""
    g: list[JSON] = [{"type": "event_choice", "letter": "G", "choice": "0@4"},
                     {"type": "event_pass"}]
    assert _best(_view({}, pending=_pending("G")), g)["type"] == "event_pass"
    units = {"e1": _unit("usa", "A2414", "X", sp=9), "e2": _unit("usa", "A2512", "X", sp=3)}
    n: list[JSON] = [{"type": "event_choice", "letter": "N", "choice": "e1"},
                     {"type": "event_choice", "letter": "N", "choice": "e2"}]
    assert _best(_view(units, pending=_pending("N")), n)["choice"] == "e2"


def test_random_event_k_moves_the_enemy_off_the_objective() -> None:
    """004 §18.0, K: the Confederate general (the taker at Herr Ridge) picks the Union unit
    on an objective and moves it as far from the objectives as the options allow."""
    units = {"a": _unit("csa", "A2110", "B"), "e": _unit("usa", "A2512", "X")}
    pick: list[JSON] = [{"type": "event_choice", "letter": "K", "choice": "a"},
                        {"type": "event_choice", "letter": "K", "choice": "e"},
                        {"type": "event_pass"}]
    view = _view(units, pending=_pending("K", "usa"))
    assert _best(view, pick)["choice"] == "e"
    here = parse("A2512")
    ring = sorted((n for n in here.neighbours() if n in board().hexes),
                  key=lambda n: (n.q, n.r))
    moves: list[JSON] = [{"type": "event_move", "unit": "e", "to": board().hexes[n].id}
                         for n in ring]
    moves.append({"type": "event_pass"})
    chosen = _best({**view, "pending": {**_pending("K", "usa"), "unit": "e"}}, moves)
    assert chosen["type"] == "event_move"
    from gettysburg.gbacw.ai.situation import situation

    s = situation(view)
    assert s.to_goal(parse(chosen["to"])) == max(s.to_goal(n) for n in ring)


def test_dismount_near_the_enemy_mount_far_from_it() -> None:
    """002 §14.22: mounted cavalry dismounts to fight an enemy within 4 hexes; dismounted
    cavalry far from the enemy and its objective mounts to ride."""
    near = {"a": _unit("csa", "A2413", "B", arm="cav", mode="mounted"),
            "e": _unit("usa", "A2512", "X")}
    legal: list[JSON] = [{"type": "dismount", "unit": "a"}, {"type": "end_brigade"}]
    assert _best(_view(near, {"B": "advance"}, brigade="B"), legal)["type"] == "dismount"
    alone = {"a": _unit("csa", "A2413", "B", arm="cav", mode="mounted")}
    assert _best(_view(alone, {"B": "advance"}, brigade="B"), legal)["type"] == "end_brigade"
    far = {"a": _unit("csa", "A1010", "B", arm="cav", mode="dismounted")}
    ride: list[JSON] = [{"type": "mount", "unit": "a"}, {"type": "end_brigade"}]
    assert _best(_view(far, {"B": "march"}, brigade="B"), ride)["type"] == "mount"


def test_resupply_when_out_of_ammunition() -> None:
    """002 §10.92: a unit out of ammunition resupplies rather than end the brigade; one
    with ammunition does not."""
    legal: list[JSON] = [{"type": "resupply", "unit": "a"}, {"type": "end_brigade"}]
    out = {"a": _unit("csa", "A2413", "B", ammo="out")}
    assert _best(_view(out, {"B": "advance"}, brigade="B"), legal)["type"] == "resupply"
    full = {"a": _unit("csa", "A2413", "B", ammo="none")}
    assert _best(_view(full, {"B": "advance"}, brigade="B"), legal)["type"] == "end_brigade"


def test_split_fire_comes_after_the_whole_shot() -> None:
    """002 §10.15: the general fires whole at the objective's holder rather than split."""
    units = {"a": _unit("csa", "A2413", "B"), "e1": _unit("usa", "A2512", "X"),
             "e2": _unit("usa", "A2414", "X")}
    legal: list[JSON] = [{"type": "fire_split", "unit": "a", "targets": ["A2512", "A2414"]},
                         {"type": "fire", "unit": "a", "target": "A2512"},
                         {"type": "end_brigade"}]
    assert _best(_view(units, {"B": "advance"}, brigade="B"), legal)["type"] == "fire"


def test_warren_is_called_before_the_activation_ends() -> None:
    """004 §14.5: offered beside end_activation when no Union brigade acts, Warren's one
    call goes to the larger brigade; a brigade still to activate comes first."""
    units = {"a": _unit("usa", "C2118", "S"), "b": _unit("usa", "C2219", "L"),
             "c": _unit("usa", "C2220", "L")}
    legal: list[JSON] = [{"type": "warren", "brigade": "S"}, {"type": "warren", "brigade": "L"},
                         {"type": "end_activation"}]
    view = _view(units, {"S": "advance", "L": "advance"}, seat="usa")
    assert _best(view, legal) == {"type": "warren", "brigade": "L"}
    assert _best(view, [{"type": "activate", "brigade": "S"}, *legal])["type"] == "activate"


def test_a_coordinated_group_acts_as_one() -> None:
    """002 §5.34: after a coordination result the group's activation beats the lead's
    alone (the general never rolls for it, but answers it when it comes)."""
    units = {"a": _unit("csa", "A2413", "S"), "b": _unit("csa", "A2314", "L")}
    legal: list[JSON] = [{"type": "activate", "brigade": "S"},
                         {"type": "activate_group", "brigades": ["S", "L"]},
                         {"type": "end_activation"}]
    view = _view(units, {"S": "advance", "L": "advance"})
    assert _best(view, legal)["type"] == "activate_group"


def test_raise_and_share_leave_the_engines_default() -> None:
    """002 §5.22-5.23: the engine offers every other raise and share after each one, so
    the general ends the orders segment rather than choose again and again."""
    legal: list[JSON] = [{"type": "raise", "corps": ["I"]},
                         {"type": "share", "corps": "I", "to": ["CS-Hood"]},
                         {"type": "end_orders"}]
    view = _view({"a": _unit("csa", "A2413", "S")}, {"S": "advance"}, phase="orders")
    assert _best(view, legal)["type"] == "end_orders"


def test_a_seat_stuck_in_one_phase_finishes_it() -> None:
    """A guard: after 400 decisions in one activation and phase (the memory counts them),
    an action that finishes something beats any re-choice the engine keeps offering."""
    from gettysburg.gbacw.ai.memory import REPEATS, GbacwMemory

    legal: list[JSON] = [{"type": "set_orders", "brigade": "S", "orders": "attack"},
                         {"type": "end_orders"}]
    view = _view({"a": _unit("csa", "A2413", "S")}, {"S": "march"}, phase="orders")
    assert _best(view, legal)["type"] == "set_orders"
    m = GbacwMemory()
    for _ in range(401):
        recalled = m.recall(view)
    assert recalled[REPEATS] == 401
    assert _best(recalled, legal)["type"] == "end_orders"
