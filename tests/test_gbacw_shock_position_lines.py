"""The position DRM of a shock on an extended line (002 §11.44, §11.42, §8.46; reading E-34):
the defender-best position is taken over the hexes actually shocked (a shocker next to
them), so a line flanked at one end gives the attacker the flank; surrounded looks at the
ring round the whole line. Pure cases with :func:`shock.position` on lines built by hand,
and one through the engine on the hand-made skirmish (tests/data/gbacw/skirmish.yaml)."""

from __future__ import annotations

from gbacw_skirmish import active_gamble
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.hexes import Hex
from gettysburg.gbacw.combatant import Combatant
from gettysburg.gbacw.facing import Facing, front_hexes
from gettysburg.gbacw.shock import attacked_hexes, position
from test_gbacw_shock_engine import shocks, stand

V = 0  # the line faces vertex 0: front hexes of a part n(0), n(1); flanks n(5), n(2)
H = Hex(10, 10)
E = H.neighbour((V + 2) % 6)  # the extension, in H's flank hex


def _line() -> Combatant:
    return Combatant("D", "csa", (H, E), Facing.vertex(V), "infantry", 10, 6)


def _att(name: str, at: Hex, to: Hex) -> Combatant:
    d = next(i for i in range(6) if at.neighbour(i) == to)
    return Combatant(name, "usa", (at,), Facing.vertex(d), "infantry", 6, 6)


def test_a_line_flanked_at_one_end_gives_the_flank_8_46_11_44() -> None:
    """One attacker on the extension's outer flank touches E only: H is not shocked
    through, so the flank stands (before E-34 H's empty 'no position' won as the
    defender's best and a line shocked at one end never gave a position DRM)."""
    a = _att("A", E.neighbour((V + 2) % 6), E)
    assert a.hexes[0].distance(H) == 2
    assert attacked_hexes([_line()], [a]) == {E}
    assert position([_line()], [a]) == "flank"


def test_a_line_shocked_from_behind_one_end_11_44() -> None:
    a = _att("A", E.neighbour((V + 3) % 6), E)  # E's own rear, not next to H
    assert a.hexes[0].distance(H) == 2
    assert position([_line()], [a]) == "rear"
    both = [a, _att("B", E.neighbour((V + 2) % 6), E)]
    assert position([_line()], both) == "flank-rear"


def test_the_defender_best_of_the_hexes_shocked_still_holds_11_42() -> None:
    """Front of H and flank of E: each shocked hex reads its own aspects and the one best
    for the defender stands (§11.42's multi-hex bullet): H, shocked from the front only,
    gives none."""
    front = _att("F", H.neighbour(V), H)  # H's own front, not next to E
    assert front.hexes[0].distance(H) == 1 and front.hexes[0].distance(E) == 2
    flank = _att("L", E.neighbour((V + 2) % 6), E)
    assert position([_line()], [front, flank]) is None
    # front and flank on the same end: that hex has both, the other is not shocked
    ahead = _att("G", E.neighbour((V + 1) % 6), E)
    assert ahead.hexes[0].distance(H) == 2
    assert position([_line()], [ahead, flank]) == "front-flank"


def test_a_line_is_surrounded_by_the_ring_round_both_parts_11_44() -> None:
    ring = sorted({n for p in (H, E) for n in p.neighbours()} - {H, E})
    assert len(ring) == 8
    shockers = [_att(f"A{i}", x, H if x.distance(H) == 1 else E) for i, x in enumerate(ring)]
    assert position([_line()], shockers) == "surrounded"
    assert position([_line()], shockers[1:]) != "surrounded"


def test_a_single_hex_defender_reads_as_before_11_44() -> None:
    d = Combatant("D", "csa", (H,), Facing.vertex(V), "infantry", 6, 6)
    assert position([d], [_att("A", H.neighbour((V + 2) % 6), H)]) == "flank"
    assert position([d], [_att("A", H.neighbour(V), H)]) is None


def test_the_engine_gives_the_flank_on_a_line_shocked_at_its_end_8_46() -> None:
    """Archer's regiment extended in a line whose outer end lies in Gamble's first unit's
    front hex, the attacker standing on that end's flank: the shock is resolved with the
    flank DRM (before E-34, none)."""
    g, k, d1 = active_gamble([6, 5])
    u, d = g.pos.units[k], g.pos.units[d1]
    here = g.hex_of(u.hex)
    assert here is not None and u.facing is not None
    end = front_hexes(here, u.facing)[0]  # the line's outer end, next to Gamble
    to_k = next(i for i in range(6) if end.neighbour(i) == here)
    v = (to_k - 2) % 6  # the line faces so that Gamble is on its end's outer flank
    counter = end.neighbour((v + 5) % 6)  # the counter's hex, two from Gamble
    ids = {g.cat.board.hexes[x].id for x in (end, counter)}
    for x in g.pos.units.values():  # clear the ground the line needs
        if x.hex in ids and x is not d:
            x.hex = "A4005"
    d.hex = g.cat.board.hexes[counter].id
    d.facing = Facing.vertex(v)
    d.extension, d.extends = "line", [g.cat.board.hexes[end].id]
    g._memo.clear()
    assert here.distance(counter) == 2
    g.dice = ScriptedDice([0, 5] + [0] * 40, die="d10")
    a = next(a for a in shocks(g) if a["shocks"][0]["attackers"] == [k])
    assert a["shocks"][0]["targets"] == [g.cat.board.hexes[end].id]
    ev = g.apply(a, "usa") + stand(g)
    resolved = next(e for e in ev if e.type == "shock_resolved")
    ids_ = [x["id"] for x in resolved.data["roll"]["drms"]]
    assert "flank" in ids_
