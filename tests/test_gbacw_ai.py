"""The GBACW general (issue 54): its doctrine scores actions from a seat's view only, and
plays legal actions through a game (gbacw/ai)."""

from __future__ import annotations

import random
from typing import Any

from gettysburg.ai import agent_names, make_agent
from gettysburg.ai.general import best_index
from gettysburg.gbacw.ai.doctrine import GbacwDoctrine, situation
from gettysburg.gbacw.ai.ground import board, mp_to, objectives, parse
from gettysburg.gbacw.ai.memory import FIRED, GbacwMemory
from gettysburg.gbacw.game import GbacwGame

JSON = dict[str, Any]
V = {"kind": "vertex", "index": 0}


def _unit(seat: str, at: str | None, brigade: str, sp: int = 6, **more: Any) -> JSON:
    return {"seat": seat, "hex": at, "facing": V, "sp": sp, "brigade": brigade,
            "disordered": False, "arm": "inf", **more}


def _view(units: dict[str, JSON], orders: dict[str, str] | None = None,
          scenario: str = "herr-ridge", seat: str = "csa", **more: Any) -> JSON:
    brigades = {b: {"seat": seat, "orders": o} for b, o in (orders or {}).items()}
    return {"system": "gbacw", "seat": seat, "scenario": scenario, "units": units,
            "brigades": brigades, "leaders": {}, "turn": "1-0700", "phase": "action",
            "current": "csa/CS-Heth/III", "brigade": "B", **more}


def test_objectives_are_the_scenarios_control_hexes() -> None:
    """004 sc.2 and sc.3: the Confederacy must hold both hexes at the end."""
    hr = objectives("herr-ridge")
    assert hr.taker == "csa" and hr.hexes == (parse("A2512"), parse("A3517"))
    lrt = objectives("little-round-top")
    assert lrt.taker == "csa" and lrt.hexes == (parse("C2118"), parse("C2219"))
    assert objectives("no-such-scenario").hexes == ()


def test_first_day_and_campaign_objectives() -> None:
    """004 sc.1: the Confederacy takes Gettysburg, Culp's and Cemetery Hill (7 hexes). 004
    sc.6 (sudden death): the Confederacy's geographic list (11 hexes) is the longer, so it
    takes; the Union's town (B3821, B3827, B3818) is among the objectives too, and the
    Round Tops and the Emmitsburg Road hex C4645."""
    day1 = objectives("first-day")
    assert day1.taker == "csa" and len(day1.hexes) == 7
    assert parse("B5014") in day1.hexes and parse("B3821") in day1.hexes
    battle = objectives("battle")
    assert battle.taker == "csa"
    want = {"B3818", "B3821", "B3827", "B5013", "B5014", "B4720", "B5020", "B5323",
            "C2118", "C2219", "C4645", "C1115"}
    assert {parse(h) for h in want} <= set(battle.hexes)
    assert battle.sheets == ("A", "B", "C")


def test_distance_field_grows_away_from_the_goal() -> None:
    g = parse("A2512")
    assert mp_to(g, g) == 0
    assert 0 < mp_to(g, parse("A2314")) < mp_to(g, parse("A1527"))


def test_orders_fit_the_distance_to_the_objective() -> None:
    """002 §6: March from afar, Advance nearer, Attack close to the hexes to take."""
    d = GbacwDoctrine()
    far = _view({"a": _unit("csa", "A1030", "Far"), "b": _unit("csa", "A2413", "Near"),
                 "c": _unit("csa", "A1527", "Mid")}, phase="orders")
    legal = [{"type": "set_orders", "brigade": b, "orders": o}
             for b in ("Far", "Near") for o in ("march", "advance", "attack")]
    legal.append({"type": "end_orders"})
    scores = dict(zip([(a.get("brigade"), a.get("orders")) for a in legal],
                      d.scores(far, legal), strict=True))
    assert max(("march", "advance", "attack"), key=lambda o: scores[("Far", o)]) == "march"
    assert max(("march", "advance", "attack"), key=lambda o: scores[("Near", o)]) == "attack"
    # the defender does not attack the hexes it holds
    usa = _view({"a": _unit("usa", "A2413", "Near")}, seat="usa", phase="orders")
    s2 = d.scores(usa, legal[3:6])
    assert s2[1] == max(s2)


def test_a_brigade_with_its_orders_already_right_keeps_them() -> None:
    d = GbacwDoctrine()
    v = _view({"a": _unit("csa", "A2413", "Near")}, {"Near": "attack"}, phase="orders")
    legal = [{"type": "set_orders", "brigade": "Near", "orders": "advance"},
             {"type": "end_orders"}]
    assert best_index(d.scores(v, legal), legal) == 1


def test_moves_toward_the_objective_and_never_off_it() -> None:
    d = GbacwDoctrine()
    v = _view({"a": _unit("csa", "A2314", "B"), "b": _unit("csa", "A2512", "B")},
              {"B": "advance"})
    legal: list[JSON] = [{"type": "move", "unit": "a", "to": "A2213", "facing": V},
                         {"type": "move", "unit": "a", "to": "A2415", "facing": V},
                         {"type": "move", "unit": "b", "to": "A2413", "facing": V},
                         {"type": "end_brigade"}]
    sc = d.scores(v, legal)
    assert sc[0] > sc[1]
    assert sc[2] < 0 and sc[3] > 0


def test_an_empty_objective_within_reach_is_taken() -> None:
    d = GbacwDoctrine()
    v = _view({"a": _unit("csa", "A2314", "B")}, {"B": "advance"})
    legal = [{"type": "move", "unit": "a", "to": "A2413", "facing": V},
             {"type": "move", "unit": "a", "to": "A2512", "facing": V}]
    assert best_index(d.scores(v, legal), legal) == 1


def test_not_next_to_a_much_stronger_enemy() -> None:
    d = GbacwDoctrine()
    me, foe = _unit("csa", "A1527", "B", sp=3), _unit("usa", "A1726", "X", sp=12)
    here, there = parse("A1527"), parse("A1726")
    h = next(n for n in there.neighbours() if n.distance(here) == 1)
    to = board().hexes[h].id
    assert situation(_view({"a": me, "e": foe})).enemy_next_to(h) == 12
    step = [{"type": "move", "unit": "a", "to": to, "facing": V}]
    near = d.scores(_view({"a": me, "e": foe}, {"B": "advance"}), step)[0]
    alone = d.scores(_view({"a": me}, {"B": "advance"}), step)[0]
    assert near < alone - 0.3


def test_fire_and_rally() -> None:
    """A shot at an objective's holder beats another; a disordered unit rallies (002
    §13.41); a unit seen to fire on Advance does not move (002 §6.15)."""
    d = GbacwDoctrine()
    v = _view({"a": _unit("csa", "A2413", "B"), "e1": _unit("usa", "A2512", "X"),
               "e2": _unit("usa", "A2414", "X")}, {"B": "advance"})
    legal = [{"type": "fire", "unit": "a", "target": "A2414"},
             {"type": "fire", "unit": "a", "target": "A2512"},
             {"type": "rally", "unit": "a"},
             {"type": "end_brigade"}]
    sc = d.scores(v, legal)
    assert sc[1] > sc[0] > 0 and sc[2] > sc[3] > 0
    moved = {**v, FIRED: ["a"]}
    assert d.scores(moved, [{"type": "move", "unit": "a", "to": "A2313", "facing": V}])[0] < 0


def test_memory_infers_a_shot_within_one_activation() -> None:
    m = GbacwMemory()
    shot = [{"type": "fire", "unit": "a", "target": "A2512"}]
    assert m.recall(_view({}, legal_actions=shot))[FIRED] == []
    assert m.recall(_view({}, legal_actions=[]))[FIRED] == ["a"]
    assert m.recall(_view({}, legal_actions=[], brigade="C"))[FIRED] == []


def test_the_doctrine_reads_no_hidden_field() -> None:
    """The scores depend on the view alone: an enemy brigade's orders (hidden from a seat,
    002 §6) added to a view change nothing."""
    d = GbacwDoctrine()
    v = _view({"a": _unit("csa", "A2314", "B"), "e": _unit("usa", "A2512", "X")},
              {"B": "advance"})
    legal: list[JSON] = [{"type": "move", "unit": "a", "to": "A2413", "facing": V},
                         {"type": "fire", "unit": "a", "target": "A2512"},
                         {"type": "end_brigade"}]
    leak = {**v, "brigades": {**v["brigades"], "X": {"seat": "usa", "orders": "attack"}}}
    assert d.scores(v, legal) == d.scores(leak, legal)


def test_the_general_is_a_gbacw_preset() -> None:
    assert "general" in agent_names("gbacw")


def _closeness(g: GbacwGame) -> float:
    """Mean infantry MP from the Confederates on the map to their nearer objective."""
    goals = objectives("herr-ridge").hexes
    hexes = [parse(str(u["hex"])) for u in g.view("csa")["units"].values()
             if u["seat"] == "csa" and u["hex"]]
    return sum(min(mp_to(o, h) for o in goals) for h in hexes) / len(hexes)


def test_the_general_marches_on_herr_ridge() -> None:
    """004 sc.2's first turn (0700) against random play: every action the general chose
    was legal (a refusal raises) and its brigades closed on A2512 and A3517."""
    g = GbacwGame("herr-ridge", seed=1)
    agents = {s: make_agent("general" if s == "csa" else "random", "1", "gbacw")
              for s in ("usa", "csa")}
    rng = random.Random(1)
    start = _closeness(g)
    while g.view("referee")["turn"] == "1-0700":
        s = g.to_move()[0]
        v = g.view(s)
        g.apply(agents[s].choose(v, v["legal_actions"], 1.0, rng), s)
    assert _closeness(g) < start - 4


# --- combat (issue 53's actions): shock, withdraw/stand, return and pre-shock fire, react ---


def _shock(attackers: list[str], targets: list[str]) -> JSON:
    return {"type": "shock", "shocks": [{"attackers": attackers, "targets": targets}]}


def test_shock_on_good_odds_and_not_on_bad() -> None:
    """002 §11.43: 3:1 beats ending the brigade; 1:3 does not."""
    d = GbacwDoctrine()
    strong = _view({"a": _unit("csa", "A1527", "B", sp=9),
                    "e": _unit("usa", "A1627", "X", sp=3)}, {"B": "attack"})
    weak = _view({"a": _unit("csa", "A1527", "B", sp=3),
                  "e": _unit("usa", "A1627", "X", sp=9)}, {"B": "attack"})
    legal = [_shock(["a"], ["A1627"]), {"type": "end_brigade"}]
    assert best_index(d.scores(strong, legal), legal) == 0
    assert best_index(d.scores(weak, legal), legal) == 1


def test_shock_against_an_objectives_holder_is_worth_more() -> None:
    """The same odds score higher when the target holds an objective (004 sc.2)."""
    d = GbacwDoctrine()
    v = _view({"a": _unit("csa", "A2413", "B", sp=6), "b": _unit("csa", "A2513", "B", sp=6),
               "e": _unit("usa", "A2512", "X", sp=6), "f": _unit("usa", "A2412", "X", sp=6)},
              {"B": "attack"})
    on, off = d.scores(v, [_shock(["b"], ["A2512"]), _shock(["a"], ["A2412"])])
    assert on > off


def _pending_view(me_at: str, sp: int, foe_sp: int, scenario: str = "herr-ridge") -> JSON:
    foe_at = board().hexes[next(n for n in parse(me_at).neighbours()
                                 if n in board().hexes)].id
    return _view({"d": _unit("usa", me_at, "X", sp=sp), "e": _unit("csa", foe_at, "B",
                                                                   sp=foe_sp)},
                 seat="usa", scenario=scenario,
                 pending={"kind": "shock", "seat": "csa",
                          "shocks": [{"attackers": ["e"], "targets": [me_at]}],
                          "withdrawn": []})


def test_the_defender_withdraws_when_badly_outnumbered_off_the_objectives() -> None:
    """002 §11.33: withdraw before a 4:1 shock in the open; stand on an objective."""
    d = GbacwDoctrine()
    away = board().hexes[parse("A1527").neighbour(3)].id
    legal = [{"type": "withdraw", "unit": "d", "to": away}, {"type": "stand"}]
    assert best_index(d.scores(_pending_view("A1527", 2, 12), legal), legal) == 0
    assert best_index(d.scores(_pending_view("A1527", 6, 6), legal), legal) == 1
    held = [{"type": "withdraw", "unit": "d", "to": "A2413"}, {"type": "stand"}]
    assert best_index(d.scores(_pending_view("A2512", 2, 12), held), held) == 1


def test_return_and_pre_shock_fire_are_always_taken() -> None:
    """002 §10.42 (simultaneous) and §11.38: the shot costs the defender nothing."""
    d = GbacwDoctrine()
    v = _pending_view("A1527", 6, 6)
    rf = [{"type": "return_fire", "unit": "d"}, {"type": "hold"}]
    assert best_index(d.scores(v, rf), rf) == 0
    pf = [{"type": "pre_shock_fire", "unit": "d", "target": v["units"]["e"]["hex"]},
          {"type": "stand"}]
    assert best_index(d.scores(v, pf), pf) == 0


def test_react_to_an_enemy_on_the_flank_not_in_front() -> None:
    """002 §9.62: an enemy next to the rear/flank is faced; one in front is not."""
    d = GbacwDoctrine()
    here = parse("A1527")
    behind = board().hexes[here.neighbour(3)].id  # rear of vertex 0 (front 0 and 1)
    ahead = board().hexes[here.neighbour(0)].id
    turn: JSON = {"type": "react", "unit": "d", "facing": {"kind": "vertex", "index": 2}}
    legal: list[JSON] = [turn, {"type": "no_reaction"}]
    for trigger, want in ((behind, 0), (ahead, 1)):
        v = _view({"d": _unit("usa", "A1527", "X"), "e": _unit("csa", trigger, "B")},
                  seat="usa", pending={"kind": "reaction", "seat": "csa",
                                       "trigger": trigger, "units": ["d"]})
        assert best_index(d.scores(v, legal), legal) == want


def test_the_general_answers_a_real_shock_designation() -> None:
    """On the engine's skirmish (tests/data/gbacw/skirmish.yaml): the attacker's shock
    options and the defender's answers are scored from real views, and every choice is
    legal (002 §11.31, §11.33)."""
    from gbacw_skirmish import active_gamble
    from test_gbacw_shock_engine import designated

    d = GbacwDoctrine()
    g, _k, _e = active_gamble()
    v = g.view("usa")
    legal = v["legal_actions"]
    assert any(a["type"] == "shock" for a in legal)
    g.validate(legal[best_index(d.scores(v, legal), legal)], "usa")
    g, _k, _e = designated()
    v = g.view("csa")
    legal = v["legal_actions"]
    assert {a["type"] for a in legal} >= {"stand", "withdraw"}
    g.validate(legal[best_index(d.scores(v, legal), legal)], "csa")


# --- the chain of command and orders that no longer fit (002 §4.2, §6.12, §6.2) ---


def test_a_brigade_stuck_on_march_rolls_for_the_orders_it_needs() -> None:
    """002 §6.2: a taker's brigade next to its objective still on March (its chain broke,
    so Division Orders cannot reach it, §6.12) rolls for Attack; one whose orders fit does
    not roll."""
    d = GbacwDoctrine()
    legal = [{"type": "roll_orders", "brigade": "B", "orders": "attack"},
             {"type": "roll_orders", "brigade": "B", "orders": "advance"},
             {"type": "end_orders_change"}]
    stuck = _view({"a": _unit("csa", "A2413", "B")}, {"B": "march"}, phase="orders_change")
    assert best_index(d.scores(stuck, legal), legal) == 0
    fits = _view({"a": _unit("csa", "A2413", "B")}, {"B": "attack"}, phase="orders_change")
    assert best_index(d.scores(fits, legal), legal) == 2


def test_a_corps_commander_keeps_near_his_division_leaders() -> None:
    """002 §4.21, §6.12: Longstreet walks toward Hood (whose brigades' orders need the
    chain to reach him), not toward the corps' own artillery battalion."""
    d = GbacwDoctrine()
    brigades = {"CS-Law/Hood": {"seat": "csa", "division": "CS-Hood/I", "corps": "CS-I",
                                "orders": "advance"}}
    v = _view({"a": _unit("csa", "C2630", "CS-Law/Hood")}, scenario="little-round-top",
              phase="commanders")
    v["brigades"] = brigades
    v["leaders"] = {"longstreet": {"seat": "csa", "hex": "C2035"},
                    "hood": {"seat": "csa", "hex": "C2630"},
                    "law": {"seat": "csa", "hex": "C2630"}}
    here = parse("C2035")
    toward = min((n for n in here.neighbours() if n in board().hexes),
                 key=lambda n: n.distance(parse("C2630")))
    away = max((n for n in here.neighbours() if n in board().hexes),
               key=lambda n: n.distance(parse("C2630")))
    legal = [{"type": "move_commander", "leader": "longstreet", "to": board().hexes[h].id}
             for h in (away, toward)]
    legal.append({"type": "end_commanders"})
    assert best_index(d.scores(v, legal), legal) == 1


def test_on_attack_orders_a_unit_that_fired_still_closes() -> None:
    """002 §6.16: under Attack a unit may fire and move; the general still steps toward
    the objective after its shot (on Advance it would stay, §6.15)."""
    d = GbacwDoctrine()
    legal: list[JSON] = [{"type": "move", "unit": "a", "to": "A2413", "facing": V},
                         {"type": "move", "unit": "a", "to": "A2215", "facing": V},
                         {"type": "end_brigade"}]
    attack = {**_view({"a": _unit("csa", "A2314", "B")}, {"B": "attack"}), FIRED: ["a"]}
    assert best_index(d.scores(attack, legal), legal) == 0
    advance = {**_view({"a": _unit("csa", "A2314", "B")}, {"B": "advance"}), FIRED: ["a"]}
    assert best_index(d.scores(advance, legal), legal) == 2


def test_an_unknown_action_kind_comes_after_the_done_actions() -> None:
    """The engine grows new actions (formations, engineering...): one the doctrine does
    not know is never preferred to ending the brigade, but is played when it is the only
    legal answer."""
    d = GbacwDoctrine()
    v = _view({"a": _unit("csa", "A2314", "B")}, {"B": "advance"})
    legal: list[JSON] = [{"type": "extend", "unit": "a", "sides": ["left"]},
                         {"type": "end_brigade"}]
    assert best_index(d.scores(v, legal), legal) == 1
    only: list[JSON] = [{"type": "some_new_answer", "unit": "a"}]
    assert best_index(d.scores(v, only), only) == 0


def test_advance_after_combat_onto_an_objective() -> None:
    """002 §12.6, §11.35: advance into an objective the combat emptied; otherwise stay."""
    d = GbacwDoctrine()
    v = _view({"a": _unit("csa", "A2413", "B")}, {"B": "attack"})
    onto = [{"type": "advance", "unit": "a", "to": "A2512", "facing": V},
            {"type": "no_advance"}]
    assert best_index(d.scores(v, onto), onto) == 0
    usa = _view({"a": _unit("usa", "A2413", "B")}, {"B": "advance"}, seat="usa")
    away = [{"type": "advance", "unit": "a", "to": "A2314", "facing": V},
            {"type": "no_advance"}]
    assert best_index(d.scores(usa, away), away) == 1
