"""A battle as a decision sequence: each side's turn is play a card (B-e), order the
units it allows, move them (B-f), fire with them (B-f, B-g); then the side draws a card.
The attacker plays first (B2); a battle turn is the attacker's then the defender's, 2 an
hour to nightfall (B3); it ends early when a side has no unit on the board (B3).

Actions (each with exactly these fields besides ``type``):
``battle_ewell`` (``choice``: ``card`` or ``aside``), ``battle_card`` (``card``),
``battle_order`` (``unit``), ``battle_move`` (``unit``, ``to``), ``battle_fire``
(``unit``, ``target``) and ``battle_done`` (ends ordering, moving or firing). A step with
nothing left to choose passes by itself.
"""

from __future__ import annotations

from typing import Any

from gettysburg.core.canonical import JSONDict
from gettysburg.core.dice import Dice
from gettysburg.core.protocol import Action, RuleError
from gettysburg.machango.battle_data import cards, rules, terrain
from gettysburg.machango.battle_fire import fire_dice, ground, occupant, resolve
from gettysburg.machango.battle_hexes import COLS, neighbours, parse
from gettysburg.machango.battle_state import deal, draw, ewell_aside

FIELDS: dict[str, tuple[str, ...]] = {
    "battle_ewell": ("choice",), "battle_card": ("card",), "battle_order": ("unit",),
    "battle_move": ("unit", "to"), "battle_fire": ("unit", "target"), "battle_done": ()}
RULES = {"battle_ewell": "G-CSA-2", "battle_card": "B-e", "battle_order": "B-e",
         "battle_move": "B-f", "battle_fire": "B-f", "battle_done": "B-e"}


def alive(st: JSONDict, side: str) -> list[str]:
    return sorted(uid for uid, u in st["units"].items() if u["side"] == side and u["hex"])


def in_section(st: JSONDict, uid: str, sections: tuple[str, ...]) -> bool:
    u = st["units"][uid]
    col = parse(u["hex"])[0]
    if u["side"] == st["defender"]:
        col = COLS - 1 - col  # sections are seen from the side's own baseline
    bounds = rules()["board"]["sections"]
    return "any" in sections or any(bounds[s][0] <= col <= bounds[s][1] for s in sections)


def reach(st: JSONDict, uid: str) -> list[str]:
    """Hexes the unit may move to: up to its move through empty passable hexes, stopping
    on entering stop terrain (woods, homestead, waterway)."""
    u = st["units"][uid]
    best = {u["hex"]: 0}
    todo = [u["hex"]]
    limit = rules()["units"][u["kind"]]["move"]
    while todo:
        here = todo.pop(0)
        if here != u["hex"] and terrain(ground(st, here)["terrain"])["stop"]:
            continue
        for n in neighbours(here):
            t = terrain(ground(st, n)["terrain"])
            if n in best or best[here] + 1 > limit or not t["passable"] or occupant(st, n):
                continue
            best[n] = best[here] + 1
            todo.append(n)
    return sorted(h for h in best if h != u["hex"])


def _orderable(st: JSONDict, uid: str) -> bool:
    card = cards()[st["card"]]
    u = st["units"][uid]
    return (st["orders_left"] > 0 and not u["ordered"]
            and (not card.kinds or u["kind"] in card.kinds)
            and in_section(st, uid, card.sections))


def options(st: JSONDict) -> list[Action]:
    """The battle's legal actions for its active side, ``battle_done`` last."""
    side, step = st["active"], st["step"]
    if st["over"]:
        return []
    if step == "ewell":
        return [{"type": "battle_ewell", "choice": c} for c in ("card", "aside")]
    if step == "card":
        return [{"type": "battle_card", "card": c} for c in sorted(set(st["hands"][side]))]
    out: list[Action] = []
    mine = alive(st, side)
    if step == "order":
        out = [{"type": "battle_order", "unit": uid} for uid in mine if _orderable(st, uid)]
    elif step == "move":
        for uid in mine:
            if st["units"][uid]["ordered"] and not st["units"][uid]["moved"]:
                out += [{"type": "battle_move", "unit": uid, "to": h} for h in reach(st, uid)]
    else:
        foes = alive(st, st["defender" if side == st["attacker"] else "attacker"])
        for uid in mine:
            u = st["units"][uid]
            if u["ordered"] and not u["fired"]:
                out += [{"type": "battle_fire", "unit": uid, "target": t} for t in foes
                        if fire_dice(st, uid, t) > 0]
    return [*out, {"type": "battle_done"}]


def check(st: JSONDict, action: Action) -> None:
    kind = str(action.get("type"))
    fields = FIELDS.get(kind)
    if fields is None:
        raise RuleError("B-e", f"{kind!r} is not a battle action (have {sorted(FIELDS)})")
    if set(action) != {"type", *fields}:
        raise RuleError(RULES[kind], f"a {kind} action has exactly the fields "
                                     f"{['type', *fields]}")
    if action not in options(st):
        what = {"ewell": "Ewell's choice (G-CSA-2)", "card": "a card from the hand (B-e)",
                "order": "units the card orders (B-e)", "move": "ordered units' moves (B-f)",
                "fire": "ordered units' fire at targets in range and sight (B-f)"}
        field = next((f for f in fields if f != "type"), "type")
        raise RuleError(RULES[kind], f"field {field!r}: {action.get(field)!r} is not allowed "
                                     f"now; the battle wants {what[st['step']]}")


def _advance(st: JSONDict) -> list[JSONDict]:
    """Passes steps with nothing left to choose; ends the turn after firing."""
    notes: list[JSONDict] = []
    while not st["over"] and st["step"] in ("order", "move", "fire") and len(options(st)) == 1:
        notes += _next_step(st)
    return notes


def _next_step(st: JSONDict) -> list[JSONDict]:
    nxt = {"order": "move", "move": "fire"}.get(st["step"])
    if nxt is not None:
        st["step"] = nxt
        return []
    return _end_turn(st)


def _end_turn(st: JSONDict) -> list[JSONDict]:
    side = st["active"]
    card = draw(st, side)
    notes: list[JSONDict] = [{"type": "battle_draw", "rule": "B-e", "visible_to": side,
                              "data": {"side": side, "card": card}}]
    for u in st["units"].values():
        u.update({"ordered": False, "moved": False, "fired": False, "entered": None})
    st.update({"card": None, "orders_left": 0, "card_dice": 0, "step": "card"})
    if side == st["defender"]:
        st["turn"] += 1
        if st["turn"] > st["turns"]:
            st["over"] = True
            return [*notes, {"type": "battle_time", "rule": "B3", "data": {"turns": st["turns"]}}]
    st["active"] = st["defender"] if side == st["attacker"] else st["attacker"]
    return notes


def act(st: JSONDict, action: Action, dice: Dice) -> list[JSONDict]:
    """Apply a checked action; returns what happened (type, rule, data[, visible_to])."""
    kind = action["type"]
    side = st["active"]
    notes: list[JSONDict] = []
    if kind == "battle_ewell":
        if action["choice"] == "card":
            st["cards"]["csa"] = max(1, st["cards"]["csa"] - 1)
            data: dict[str, Any] = {"choice": "card", "cards": st["cards"]["csa"]}
        else:
            data = {"choice": "aside", "set_aside": ewell_aside(st, dice)}
        notes.append({"type": "battle_ewell", "rule": "G-CSA-2", "data": data})
        deal(st)
        st["step"], st["active"] = "card", st["attacker"]
    elif kind == "battle_card":
        card = cards()[str(action["card"])]
        st["hands"][side].remove(card.id)
        st["discard"].append(card.id)
        st.update({"card": card.id, "orders_left": card.orders or 99, "card_dice": card.dice,
                   "step": "order"})
        notes.append({"type": "battle_card", "rule": "B-e",
                      "data": {"side": side, "card": card.id, "name": card.name}})
    elif kind == "battle_order":
        st["units"][action["unit"]]["ordered"] = True
        st["orders_left"] -= 1
        notes.append({"type": "battle_order", "rule": "B-e", "data": {"unit": action["unit"]}})
    elif kind == "battle_move":
        u = st["units"][action["unit"]]
        frm, u["hex"], u["moved"] = u["hex"], action["to"], True
        t = ground(st, u["hex"])["terrain"]
        u["entered"] = t if terrain(t)["stop"] else None
        notes.append({"type": "battle_move", "rule": "B-f",
                      "data": {"unit": action["unit"], "from": frm, "to": u["hex"]}})
    elif kind == "battle_fire":
        st["units"][action["unit"]]["fired"] = True
        shot = resolve(st, str(action["unit"]), str(action["target"]), dice)
        notes.append({"type": "battle_fire", "rule": "B-g", "data": shot})
        if not alive(st, st["attacker"]) or not alive(st, st["defender"]):
            st["over"] = True
            notes.append({"type": "battle_annihilation", "rule": "B3", "data": {}})
            return notes
    else:  # battle_done
        notes += _next_step(st)
    return notes + _advance(st)
