"""The GBACW action types: their JSON shape, the section each cites, and the shape check.

One row per type, in the order ``legal_actions`` lists them. A field's kind is ``str``
(an id: brigade, unit, division or marker), ``hex`` (a map hex id as printed, e.g.
``B3821``), ``orders`` (``attack``/``advance``/``march``), ``facing`` (``{"kind":
"vertex"|"side", "index": 0..5}``, 002 §7.1), ``bool`` or ``list`` (of ids). A malformed
action is refused under ``protocol.action`` naming the field; the game then checks the rule
(the row's ``rule``) and changes nothing until it passes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gettysburg.core.protocol import Action, RuleError
from gettysburg.gbacw.facing import Facing
from gettysburg.gbacw.state import ORDERS


@dataclass(frozen=True)
class ActionType:
    name: str
    rule: str
    fields: tuple[tuple[str, str], ...]  # (name, kind) in the order legal actions write them
    phases: tuple[str, ...]  # the sequence phases it belongs to
    title: str


ACTION_TYPES: tuple[ActionType, ...] = (
    ActionType("raise", "5.22", (("corps", "list"),), ("orders",),
               "the corps the OC raises by one efficiency (as many as his initiative rating)"),
    ActionType("share", "5.23", (("corps", "str"), ("to", "list")), ("orders",),
               "where the corps commander's efficiency share goes (+1 per listed division)"),
    ActionType("transfer", "5.4", (("from", "list"), ("to", "str")), ("orders",),
               "efficiency transfer: 2 AMs from one or two divisions give 1 to another"),
    ActionType("alexander_swap", "tdg.4.35", (("from", "list"),), ("orders",),
               "the Confederates' transfer spent on Porter Alexander as chief of artillery "
               "(2 AMs from one or two divisions; orders_step.py)"),
    ActionType("set_orders", "6.12", (("brigade", "str"), ("orders", "orders")), ("orders",),
               "Division Orders (or a reinforcement's orders, 9.7)"),
    ActionType("reserve", "6.3", (("brigade", "str"), ("on", "bool")), ("orders",),
               "put a brigade in Reserve, or take it out"),
    ActionType("attach", "4.32", (("unit", "str"), ("brigade", "str")), ("orders",),
               "attach a divisional battery to a brigade of its division (its own battalion "
               "to detach it; orders_step.py)"),
    ActionType("build", "15.13", (("unit", "str"), ("facing", "facing")), ("orders",),
               "start breastworks (II/F): the unit faces the vertex whose two hexsides they "
               "will guard (engineering_step.py)"),
    ActionType("buford_leaves", "tdg.chart.c", (), ("orders",),
               "2 July 1000: Buford's division leaves the map by area 11 or 12 "
               "(scenario_step.py)"),
    ActionType("buford_stays", "tdg.chart.c", (("groups", "list"), ("battery", "str")),
               ("orders",), "2 July 1000: Buford stays; these two conditional cavalry groups "
               "and this horse battery of theirs will not come"),
    ActionType("place_works", "tdg.sc.5.5", (("hex", "hex"), ("facing", "facing")),
               ("orders",), "first turn: one of the scenario's ready-made breastworks, in a "
               "listed hex or one your infantry holds, guarding the vertex (setup_works.py)"),
    ActionType("leave_map", "tdg.9.88", (("unit", "str"), ("area", "str")), ("action",),
               "leave by an off-map road of map C's south, to come on at the linked entry "
               "area later (off_map_step.py)"),
    ActionType("entry_area", "tdg.chart.c", (("brigade", "str"), ("area", "str")),
               ("orders",), "1 July 1100: the entry area (3, 4 or 5) a brigade of Rodes's "
               "will use, written down unseen"),
    ActionType("trimble", "tdg.14.6", (("post", "str"),), ("orders",),
               "Trimble takes a fallen Confederate corps or division leader's post, once "
               "in the game (special_units.py)"),
    ActionType("hold_cavalry", "tdg.14.7", (("brigades", "list"), ("batteries", "list")),
               ("orders",), "campaign: cavalry brigades kept out of the 3 July cavalry fight, "
               "each with a horse battery (cavalry_step.py)"),
    ActionType("withdraw_cavalry", "tdg.14.72", (("brigade", "str"),), ("orders",),
               "a held Confederate cavalry brigade on the map leaves it by areas 8-9"),
    ActionType("return_cavalry", "tdg.14.75", (("brigades", "list"), ("area", "str")),
               ("orders",), "the side that kept more cavalry away brings the surplus back "
               "by one area (d10 SP lost)"),
    ActionType("end_orders", "3.0", (), ("orders",), "finish the orders segment"),
    ActionType("first_am", "5.1", (("marker", "str"),), ("first_am",),
               "the initiative player's first activation marker"),
    ActionType("roll_orders", "6.2", (("brigade", "str"), ("orders", "orders")),
               ("orders_change",), "roll to change a brigade's orders"),
    ActionType("coordinate", "5.34", (), ("orders_change",),
               "roll for brigade coordination (ends the orders changes)"),
    ActionType("end_orders_change", "3.0", (), ("orders_change",),
               "finish the orders changes without a coordination roll"),
    ActionType("activate", "5.3", (("brigade", "str"),), ("action",),
               "the next brigade of the active formation acts"),
    ActionType("activate_group", "5.34", (("brigades", "list"),), ("action",),
               "after a coordination result of two, three or all: these brigades act as one "
               "(the first listed leads)"),
    ActionType("move", "9.1", (("unit", "str"), ("to", "hex"), ("facing", "facing")),
               ("action",), "move a unit of the active brigade to a hex and facing"),
    ActionType("face", "7.2", (("unit", "str"), ("facing", "facing")), ("action",),
               "change a unit's facing in place"),
    ActionType("fire", "10.3", (("unit", "str"), ("target", "hex")), ("action",),
               "a unit of the active brigade fires at an enemy hex (fire_action.py)"),
    ActionType("fire_split", "10.15", (("unit", "str"), ("targets", "list")), ("action",),
               "a unit splits its fire evenly among enemy hexes (adjacent in its front; a "
               "one-counter battery: any in reach, 10.65)"),
    ActionType("combined_fire", "10.63", (("unit", "str"), ("with", "list"),
                                          ("target", "hex")), ("action",),
               "stacked batteries or sections fire as one at a hex (worst range DRM, 10.64)"),
    ActionType("rapid_fire", "10.68", (("unit", "str"), ("target", "hex")), ("action",),
               "a smoothbore battery fires twice at 1-3 hexes (ammunition runs out on a 0 or 5)"),
    ActionType("resupply", "10.92", (("unit", "str"),), ("action",),
               "a unit low on or out of ammunition, not next to the enemy, resupplies one step "
               "instead of acting"),
    ActionType("resupply_face", "10.92", (("unit", "str"), ("facing", "facing")), ("action",),
               "resupply, then turn one vertex (resupply_turn.py)"),
    ActionType("mount", "14.22", (("unit", "str"),), ("action",),
               "dismounted cavalry, not next to the enemy, mounts before it moves (half MA "
               "this activation; mounting resupplies, 10.94)"),
    ActionType("dismount", "14.22", (("unit", "str"),), ("action",),
               "mounted cavalry, not next to the enemy nor Blown, dismounts before it moves "
               "(half MA this activation)"),
    ActionType("withdrawal_fire", "10.44", (("unit", "str"),), ("action",),
               "the defender fires at an enemy leaving its front, before it moves"),
    ActionType("approach_fire", "10.45", (("unit", "str"),), ("action",),
               "a defending battery fires at an enemy that moved within 3 hexes"),
    ActionType("withdrawal_fire_reserve", "10.15", (("unit", "str"),), ("action",),
               "withdrawal fire with the larger half of the unit's SP, the rest held back "
               "for its next non-phasing shot at another hex"),
    ActionType("approach_fire_reserve", "10.15", (("unit", "str"),), ("action",),
               "approach fire with the larger half of the battery's SP, the rest held back "
               "for its next non-phasing shot at another hex"),
    ActionType("let_pass", "10.4", (), ("action",),
               "the defender lets the enemy move go on without (more) withdrawal or approach fire"),
    ActionType("shock", "11.31", (("shocks", "shocks"),), ("action",),
               "the active brigade designates its shocks: [{attackers: [units], targets: "
               "[hexes]}] (shock_step.py)"),
    ActionType("withdraw", "11.33", (("unit", "str"), ("to", "hex")), ("action",),
               "the defender withdraws a shocked unit before the shock"),
    ActionType("pre_shock_fire", "11.38", (("unit", "str"), ("target", "hex")), ("action",),
               "the defender fires at an attacker's hex before the shock is rolled"),
    ActionType("stand", "11.33", (), ("action",),
               "the defender awaits the designated shocks: they are rolled"),
    ActionType("continue_shock", "11.47", (("to", "hex"), ("facing", "facing")), ("action",),
               "the units that advanced continue the shock from a hex and facing "
               "(continued_shock.py)"),
    ActionType("shock_advance", "11.35", (("unit", "str"), ("to", "hex")), ("action",),
               "an attacking unit advances into a hex emptied by a withdrawal before shock"),
    ActionType("end_shock", "11.47", (), ("action",),
               "the attacker declines the continued shock or the advance"),
    ActionType("charge", "11.53", (("unit", "str"),), ("action",),
               "mounted cavalry on Attack orders declares a charge before moving (its stack's "
               "UDD; charge_step.py)"),
    ActionType("counter_charge", "11.56", (("unit", "str"),), ("action",),
               "defending mounted cavalry counter-charges the charge waiting for the defender"),
    ActionType("break_charge", "11.57", (("unit", "str"),), ("action",),
               "a charging stack tries to break off after an enemy reaction move (a UDD)"),
    ActionType("return_fire", "10.42", (("unit", "str"),), ("action",),
               "the defender answers a phasing shot with one unit (both rolled, then applied)"),
    ActionType("retreat", "12.41", (("unit", "str"), ("path", "list")), ("action",),
               "the owner picks the path of a retreat among those allowed (results_step.py)"),
    ActionType("advance", "12.6", (("unit", "str"), ("to", "hex"), ("facing", "facing")),
               ("action",), "the firer advances into the hex its shot emptied"),
    ActionType("no_advance", "12.6", (), ("action",),
               "the firer stays where it is after emptying a hex"),
    ActionType("return_fire_reserve", "10.15", (("unit", "str"),), ("action",),
               "the defender answers with half the unit's SP (the larger half), holding the "
               "rest back for one later return shot at another hex"),
    ActionType("rapid_return_fire", "10.68", (("unit", "str"),), ("action",),
               "a smoothbore battery answers twice at 1-3 hexes (ammunition runs out on a 0 or 5)"),
    ActionType("hold", "10.42", (), ("action",),
               "the defender does not answer the phasing shot: it is rolled"),
    ActionType("react", "9.62", (("unit", "str"), ("facing", "facing")), ("action",),
               "the defender turns a unit one vertex in reaction to an enemy move"),
    ActionType("no_reaction", "9.61", (), ("action",),
               "the defender lets the enemy move pass without reaction facing"),
    ActionType("react_refuse", "9.61", (("unit", "str"), ("side", "str")), ("action",),
               "the defender's unit and its stack refuse the left or right flank in reaction"),
    ActionType("react_move", "9.63", (("unit", "str"), ("path", "list")), ("action",),
               "the defender's mounted cavalry or artillery moves 1-2 hexes away in reaction"),
    ActionType("withdrawal_move", "9.54", (("unit", "str"), ("path", "list")), ("action",),
               "a unit on Advance or Attack backs one or two rear hexes, facing kept, as its "
               "move (withdrawal_step.py)"),
    ActionType("extend", "8.41", (("unit", "str"), ("sides", "list")), ("action",),
               "extend a unit's line into its left and/or right flank hex (formation_step.py)"),
    ActionType("retract", "8.42", (("unit", "str"), ("to", "hex")), ("action",),
               "gather an extended line or column into one of its hexes"),
    ActionType("refuse", "7.32", (("unit", "str"), ("side", "str")), ("action",),
               "the unit's stack refuses its left or right flank (1 MP)"),
    ActionType("unrefuse", "7.33", (("unit", "str"),), ("action",),
               "the unit's stack leaves the refused state (1 MP)"),
    ActionType("restack", "8.24", (("unit", "str"),), ("action",),
               "instead of moving, the unit goes to the top of its stack"),
    ActionType("move_stack", "8.25", (("unit", "str"), ("to", "hex"), ("facing", "facing")),
               ("action",), "the stack topped by the unit moves as one (March limits)"),
    ActionType("form", "8.52", (("unit", "str"), ("facing", "facing")), ("action",),
               "a two-hex extended line turns into a column facing so, or a column into a line"),
    ActionType("rally", "13.41", (("unit", "str"),), ("action",),
               "a disordered unit of the active brigade rallies instead of moving or firing"),
    ActionType("rally_face", "7.25", (("unit", "str"), ("facing", "facing")), ("action",),
               "rally, and if the unit rallies it turns one vertex (formation_step.py)"),
    ActionType("end_brigade", "5.3", (), ("action",), "the active brigade is done"),
    ActionType("move_leader", "9.3", (("leader", "str"), ("to", "hex")), ("action",),
               "move the active brigade's brigadier or the drawn division's leader"),
    ActionType("end_activation", "5.3", (), ("action",),
               "the activation marker is done (brigades that have not acted lose it)"),
    ActionType("event_choice", "tdg.18.0", (("letter", "str"), ("choice", "str")), ("action",),
               "a random event's choice (event_choices.py): the brigade, group, leader, unit "
               "or entry area the drawn letter asks for"),
    ActionType("event_move", "tdg.18.0", (("unit", "str"), ("to", "hex")), ("action",),
               "random event K: the picked unit moves up to 3 hexes, facing kept"),
    ActionType("event_pass", "tdg.18.0", (), ("action",),
               "decline (or end) an optional random event's choice"),
    ActionType("relieve", "tdg.18.0", (("leader", "str"),), ("action",),
               "random event L: relieve the drunk brigadier as his brigade's activation starts "
               "next to his corps commander or the OC (replaced as if killed)"),
    ActionType("hero_policy", "tdg.18.0", (("use", "str"),), ("action",),
               "random event P: when the seat's Hero markers are played at the UDDs: save "
               "(its own failed ones, the default), spoil (the enemy's passed ones), both, "
               "never (decision E-33)"),
    ActionType("warren", "tdg.14.5", (("brigade", "str"),), ("action",),
               "the Union ends its activation and calls Warren, once in the game: the brigade "
               "is activated at once, without fatigue"),
    ActionType("barrage", "tdg.10.92", (), ("orders_change", "action"),
               "the drawn artillery AM becomes an artillery barrage (its brigades do not "
               "activate; barrage_step.py)"),
    ActionType("barrage_fire", "tdg.10.93", (("units", "list"), ("target", "hex")),
               ("action",), "batteries in the artillery chief's range fire together at one "
               "hex 4+ hexes away, twice each at most; then each rolls the barrage check"),
    ActionType("move_commander", "9.32", (("leader", "str"), ("to", "hex")), ("commanders",),
               "move a corps commander or the OC (legs of up to 10 MP, 40 in all)"),
    ActionType("idle_rally", "13.45", (("brigade", "str"), ("on", "bool")), ("commanders",),
               "an idle brigade rallies its disordered units at IV/B instead of resting a "
               "fatigue level off (on: false goes back to resting; end_segment.py)"),
    ActionType("end_commanders", "9.32", (), ("commanders",),
               "finish the commander movement phase"),
)
BY_NAME: dict[str, ActionType] = {t.name: t for t in ACTION_TYPES}
ACTION_ORDER: tuple[str, ...] = tuple(t.name for t in ACTION_TYPES)


def _bad(field: str, message: str) -> RuleError:
    return RuleError("protocol.action", f"field {field!r}: {message}")


def check_shape(action: Action, hex_ok: Any) -> ActionType:
    """The row of ``action`` after checking its fields' presence and kinds
    (``hex_ok(id) -> bool`` says whether a hex id is on the map); changes nothing."""
    kind = action.get("type")
    row = BY_NAME.get(str(kind))
    if row is None:
        raise RuleError("protocol.action", f"unknown action type {kind!r}; known: "
                        f"{list(ACTION_ORDER)}")
    names = {n for n, _ in row.fields}
    extra = sorted(set(action) - names - {"type"})
    if extra:
        raise _bad(extra[0], f"{row.name} takes no such field (it takes {sorted(names)})")
    for name, fkind in row.fields:
        if name not in action:
            raise _bad(name, f"{row.name} needs it")
        value = action[name]
        if fkind == "str" and (not isinstance(value, str) or not value):
            raise _bad(name, "must be a non-empty string")
        if fkind == "hex" and (not isinstance(value, str) or not hex_ok(value)):
            raise _bad(name, f"{value!r} is not a hex of the map")
        if fkind == "orders" and value not in ORDERS:
            raise _bad(name, f"must be one of {list(ORDERS)}")
        if fkind == "bool" and not isinstance(value, bool):
            raise _bad(name, "must be true or false")
        if fkind == "list" and (not isinstance(value, list) or not value
                                or not all(isinstance(v, str) for v in value)):
            raise _bad(name, "must be a non-empty list of ids")
        if fkind == "shocks" and (not isinstance(value, list) or not value
                                  or not all(isinstance(v, dict) for v in value)):
            raise _bad(name, "must be a non-empty list of {attackers, targets}")
        if fkind == "facing":
            try:
                Facing.from_json(value)
            except ValueError as exc:
                raise _bad(name, str(exc)) from None
    return row
