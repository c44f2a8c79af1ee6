"""The per-hex fire limit (002 §8.31-8.33) in the artillery barrage (004 §10.9, tdg.10.91-10.95;
barrage_step.py). 004 §10.91 and §10.93 lift only combined fire's restriction (batteries in
any hexes may add their guns at one target) and let each battery fire twice; nothing in them
lifts the stacking limits on fire, so each barrage shot fires what ``fire_action.fire_sp``
allows from the hex, and the limit holds over the barrage phase as over an activation. The
phase starts afresh: notes left by the activation before it do not count. Gun-line positions
built by hand (tests/gbacw_gunline.py) with scripted d10s."""

from __future__ import annotations

from gbacw_gunline import GAMBLE, NAP1, NAP2, at, hid, key_of, place
from gettysburg.gbacw.fire_action import FIRED_FROM, fire_sp, fired_from
from test_gbacw_tdg_barrage import TARGET, artillery_am


def test_a_barrage_phase_starts_with_the_hex_limits_afresh_8_31() -> None:
    """Gamble's dismounted troopers fired 7 SP from the Napoleons' hex in Gamble's activation
    and left it (the note stays until the next brigade activates). Declaring the barrage
    clears it: the battery fires its 6 guns, not the 5 the old note would leave (12 - 7)."""
    g = artillery_am([])
    nap = key_of(g, NAP1)
    here = g.pos.units[nap].hex
    trooper = next(k for k in g.pos.units if g.formation(k) == GAMBLE)
    g.pos.units[trooper].fired = ["phasing", f"{FIRED_FROM}7@{here}"]
    g._memo.clear()
    assert fire_sp(g, nap) == 5  # what the stale note would allow
    g.apply({"type": "barrage"}, "usa")
    assert g.pos.units[trooper].fired == ["phasing"]
    ev = g.apply({"type": "barrage_fire", "units": [nap], "target": hid(g, at(g, TARGET))},
                 "usa")
    assert next(e for e in ev if e.type == "fire").data["sp"] == 6


def test_a_barrage_shot_notes_the_hex_s_guns_for_the_phase_8_31() -> None:
    """Each battery's barrage shot notes the guns it was allowed from its hex (as a phasing
    shot in an activation does): a battery that then leaves the hex (a Confederate battery
    removed by its check, tdg.10.94; here taken off by hand) still counts against the hex's
    12 guns of artillery (§8.31). The three 6-gun batteries in one hex are beyond §8.12's
    stacking limit, built so that the fire limit binds."""
    g = artillery_am([])
    nap1, nap2, c4 = key_of(g, NAP1), key_of(g, NAP2), key_of(g, "US-AR:C/4 US")
    here = g.cat.board.parse(str(g.pos.units[nap1].hex))
    place(g, nap2, here, 0)
    place(g, c4, here, 0)
    g._memo.clear()
    assert [fire_sp(g, k) for k in (nap1, nap2, c4)] == [6, 6, 0]  # top first (§8.33)
    g.apply({"type": "barrage"}, "usa")
    g.apply({"type": "barrage_fire", "units": [nap1], "target": hid(g, at(g, TARGET))}, "usa")
    assert fired_from(g.pos.units[nap1], hid(g, here)) == 6
    g.pos.units[nap1].hex = None
    g._memo.clear()
    assert fire_sp(g, nap2) == 6 and fire_sp(g, c4) == 0
