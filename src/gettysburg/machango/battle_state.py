"""A battle's state as one JSON dict, and how a battle begins: the board between the
lines, deployment in the home rows (B1), entrenchments from "F" (B6, G-USA-2) less
Longstreet's 1d6 (G-CSA-1), Ewell's choice (G-CSA-2), the shuffled deck and the hands.

Deployment is the project's (decision): each division takes the column its line gives it
(attackers) or an even share of the width (defenders); its units fill the free hexes of
the front home row nearest that column, then the back row, then the rows ahead. Each
division's generals ride with its strongest unit. Each F division's entrenchments go on
its own units' hexes (one a unit), all in its own half.
"""

from __future__ import annotations

import random
from typing import Any

from gettysburg.core.canonical import JSONDict
from gettysburg.core.dice import Dice
from gettysburg.machango.battle import BattleForce, BattleSetup
from gettysburg.machango.battle_board import battle_board
from gettysburg.machango.battle_data import deck, face, rules, terrain
from gettysburg.machango.battle_fire import board_of
from gettysburg.machango.battle_hexes import COLS, ROWS, hid


def _rows(attacker: bool) -> list[int]:
    home = rules()["board"]["home_rows"]
    rows = list(range(ROWS // 2))
    order = list(reversed(rows[:home])) + rows[home:]
    return order if attacker else [ROWS - 1 - r for r in order]


def _deploy(st: JSONDict, force: BattleForce, columns: list[int], attacker: bool) -> None:
    board = board_of(st)
    for div, col in zip(force.divisions, columns, strict=True):
        alive = [(i, k, f) for i, (k, f) in enumerate(div.units) if f > 0]
        strongest = max(alive, key=lambda x: (x[2], -x[0]))[0] if alive else -1
        for i, kind, figs in alive:
            free = [(ri, abs(c - col), c, r) for ri, r in enumerate(_rows(attacker))
                    for c in range(COLS)
                    if terrain(board["hexes"][hid(c, r)]["terrain"])["passable"]
                    and hid(c, r) not in {u["hex"] for u in st["units"].values()}]
            if not free:
                continue  # no room in its half (cannot happen with 12 or fewer units)
            _, _, c, r = min(free)
            st["units"][f"{div.id}.{i}"] = {
                "side": force.side, "division": div.id, "index": i, "kind": kind,
                "figures": figs, "start": figs, "hex": hid(c, r),
                "generals": list(div.generals) if i == strongest else [],
                "ordered": False, "moved": False, "fired": False, "entered": None}
        if div.fortified:
            st["entrench"] += [u["hex"] for u in st["units"].values()
                               if u["division"] == div.id]
        st["divisions"][div.id] = {
            "side": force.side, "elite": div.elite, "extra_die": div.extra_die,
            "ignores_flags": div.ignores_flags, "ignores_one_flag": div.ignores_one_flag,
            "fortified": div.fortified, "generals": list(div.generals)}


def begin(setup: BattleSetup, battle_id: int, attack_from: dict[str, str], seed: str,
          dice: Dice) -> tuple[JSONDict, list[JSONDict]]:
    """A new battle's state and what happened setting it up (for the events)."""
    froms = tuple(sorted(set(attack_from.values())))
    board = battle_board(froms, setup.line)
    att, dfn = setup.attacker, setup.defender
    st: JSONDict = {
        "id": battle_id, "line": setup.line, "day": setup.day, "turns": setup.turns,
        "turn": 1, "attacker": att.side, "defender": dfn.side, "active": att.side,
        "step": "card", "card": None, "orders_left": 0, "card_dice": 0,
        "board_of": [list(froms), setup.line],
        "units": {}, "divisions": {}, "entrench": [], "hands": {att.side: [], dfn.side: []},
        "deck": [], "discard": [], "cards": {att.side: att.cards, dfn.side: dfn.cards},
        "aside": {}, "shuffles": 0, "seed": seed, "over": False,
        "roster": {d.id: [f for _, f in d.units] for d in (*att.divisions, *dfn.divisions)}}
    n = len(dfn.divisions)
    _deploy(st, att, [board["columns"][attack_from[d.id]] for d in att.divisions], True)
    _deploy(st, dfn, [round((i + 0.5) * COLS / n - 0.5) for i in range(n)], False)
    st["entrench"] = sorted(set(st["entrench"]))
    notes: list[JSONDict] = [{"type": "battle_board", "rule": "B1",
                              "data": {"battle": battle_id, "hex_m": board["hex_m"]}}]
    if any("longstreet" in d.generals for d in (*att.divisions, *dfn.divisions)):
        foe = [h for h in st["entrench"]
               if st["units"].get(_at(st, h), {}).get("side") != "csa"]
        if foe:
            k = dice.roll("Longstreet removes entrenchments", "G-CSA-1")
            gone = foe[:k]
            st["entrench"] = [h for h in st["entrench"] if h not in gone]
            notes.append({"type": "entrenchments_removed", "rule": "G-CSA-1",
                          "data": {"roll": k, "removed": gone}})
    st["deck"] = deck()
    random.Random(f"{seed}|{battle_id}|0").shuffle(st["deck"])
    if any("ewell" in d.generals for d in (*att.divisions, *dfn.divisions)):
        st["step"], st["active"] = "ewell", "csa"  # G-CSA-2: his choice comes first
    else:
        deal(st)
    return st, notes


def _at(st: JSONDict, h: str) -> str:
    return next((uid for uid, u in st["units"].items() if u["hex"] == h), "")


def draw(st: JSONDict, side: str) -> str:
    if not st["deck"]:  # the discards, shuffled again
        st["shuffles"] += 1
        st["deck"], st["discard"] = st["discard"], []
        random.Random(f"{st['seed']}|{st['id']}|{st['shuffles']}").shuffle(st["deck"])
    card = str(st["deck"].pop())
    st["hands"][side].append(card)
    return card


def deal(st: JSONDict) -> None:
    for side in (st["attacker"], st["defender"]):
        for _ in range(st["cards"][side]):
            draw(st, side)


def ewell_aside(st: JSONDict, dice: Dice) -> JSONDict:
    """G-CSA-2's second choice: a die a CSA unit; its own kind or crossed sabres sets a
    figure aside for this battle (never the last one; decision)."""
    out: dict[str, Any] = {}
    for uid, u in sorted(st["units"].items()):
        if u["side"] != "csa":
            continue
        f = face(dice.roll(f"Ewell: {uid}", "G-CSA-2"))
        if f in (u["kind"], "sabres") and u["figures"] > 1:
            u["figures"] -= 1
            u["start"] -= 1
            st["aside"][uid] = 1
            out[uid] = 1
    return out


def losses(st: JSONDict) -> dict[str, list[int]]:
    """Figures each unit lost in the battle, per division (B4); set-aside figures come
    back (G-CSA-2)."""
    out: dict[str, list[int]] = {}
    for did, figures in sorted(st["roster"].items()):
        out[did] = []
        for i, f in enumerate(figures):
            uid = f"{did}.{i}"
            u = st["units"].get(uid)
            out[did].append(0 if u is None else f - u["figures"] - st["aside"].get(uid, 0))
    return out
