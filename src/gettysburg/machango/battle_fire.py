"""Fire in a battle: who may fire at whom with how many dice (ranges, line of sight,
terrain, the marks), and what a roll does (hits, flags, retreats, taking ground).

The numbers are ``data/battle.yaml``'s; a battle's state is the JSON dict of
:mod:`gettysburg.machango.battle_state` (``units``, ``board``, ``entrench``, ...).
"""

from __future__ import annotations

from typing import Any

from gettysburg.core.canonical import JSONDict
from gettysburg.core.dice import Dice
from gettysburg.machango.battle_board import battle_board
from gettysburg.machango.battle_data import face, rules, terrain
from gettysburg.machango.battle_hexes import between, distance, neighbours, parse


def occupant(st: JSONDict, h: str) -> str | None:
    return next((uid for uid, u in st["units"].items() if u["hex"] == h), None)


def board_of(st: JSONDict) -> dict[str, Any]:
    """The battle's board (derived again from its lines: the state keeps only them; a
    board laid by hand, as tests do, sits in the state itself)."""
    if "board" in st:
        hand: dict[str, Any] = st["board"]
        return hand
    froms, line = st["board_of"]
    return battle_board(tuple(froms), str(line))


def ground(st: JSONDict, h: str) -> dict[str, Any]:
    out: dict[str, Any] = board_of(st)["hexes"][h]
    return out


def higher(st: JSONDict, a: str, b: str) -> bool:
    """TE3: hex ``a`` stands higher than hex ``b``."""
    return bool(ground(st, a)["height"] >= ground(st, b)["height"] + rules()["board"]["higher_ft"])


def sees(st: JSONDict, a: str, b: str) -> bool:
    """Line of sight: no unit and no sight-blocking terrain between the two hexes (a line
    along the board's ragged edge may graze a hex off it: open ground)."""
    hexes = board_of(st)["hexes"]
    return all(occupant(st, h) is None and not terrain(hexes[h]["terrain"])["los"]
               for h in between(a, b) if h in hexes)


def band(st: JSONDict, uid: str, target_hex: str) -> list[int]:
    """Dice by range for the unit (index 0 = adjacent); guns on higher ground reach one
    hex further (TE3)."""
    u = st["units"][uid]
    cfg = rules()
    dice = list(cfg["units"][u["kind"]]["dice"])
    if u["kind"] == "artillery" and higher(st, u["hex"], target_hex):
        dice += [cfg["higher_ground_die"]] * cfg["higher_ground_range"]
    return dice


def fire_dice(st: JSONDict, uid: str, tid: str) -> int:
    """How many dice ``uid`` rolls at ``tid`` now; 0 when it may not fire at it."""
    cfg = rules()
    u, t = st["units"][uid], st["units"][tid]
    if u["hex"] is None or t["hex"] is None or u["side"] == t["side"]:
        return 0
    if u["moved"] and not cfg["units"][u["kind"]]["fire_after_move"]:
        return 0
    d = distance(u["hex"], t["hex"])
    dice_by_range = band(st, uid, t["hex"])
    entered = u.get("entered")
    if entered and u["kind"] in terrain(entered).get("enter", {}):
        dice_by_range = terrain(entered)["enter"][u["kind"]]  # it has just come in
    if not 1 <= d <= len(dice_by_range) or (d > 1 and not sees(st, u["hex"], t["hex"])):
        return 0
    n = dice_by_range[d - 1]
    div = st["divisions"][u["division"]]
    n += cfg["extra_die"]["elite"] * div["elite"] + cfg["extra_die"]["stuart"] * div["extra_die"]
    n += int(st.get("card_dice", 0))
    own, there = ground(st, u["hex"]), ground(st, t["hex"])
    n -= terrain(there["terrain"])["cover"] + terrain(own["terrain"])["firer"]
    if t["hex"] in st["entrench"]:
        n -= cfg["entrenchment"]["cover"]
    if there["terrain"] == "hill":
        if own["terrain"] != "hill":
            n -= cfg["hill"]["uphill"]
        elif d > 1:
            n -= cfg["hill"]["hill_to_hill"]
    return max(0, int(n))


def flags_ignored(st: JSONDict, uid: str, tid: str) -> int | None:
    """Flags the target may ignore; None for all of them (B7, G-CSA-5)."""
    cfg = rules()
    t = st["units"][tid]
    div = st["divisions"][t["division"]]
    if div["ignores_flags"]:
        return None
    n = int(div["ignores_one_flag"])  # G-USA-3, G-USA-5
    n += cfg["general_ignores_flag"] if t["generals"] else 0  # 150th edition general
    n += 1 if higher(st, t["hex"], st["units"][uid]["hex"]) else 0  # TE3
    n += cfg["entrenchment"]["ignores_flag"] if t["hex"] in st["entrench"] else 0
    return n


def _retreat_step(st: JSONDict, tid: str) -> str | None:
    t = st["units"][tid]
    c, r = parse(t["hex"])
    back = -1 if t["side"] == st["attacker"] else 1
    free = [h for h in neighbours(t["hex"]) if parse(h)[1] == r + back
            and occupant(st, h) is None and terrain(ground(st, h)["terrain"])["passable"]]
    return min(free, key=lambda h: (abs(parse(h)[0] - c), parse(h)[0]), default=None)


def lose(st: JSONDict, tid: str, n: int) -> int:
    t = st["units"][tid]
    n = min(n, t["figures"])
    t["figures"] -= n
    if t["figures"] == 0:
        t["hex"] = None
    return n


def resolve(st: JSONDict, uid: str, tid: str, dice: Dice) -> JSONDict:
    """Roll ``uid``'s dice at ``tid``: each face of the target's kind, and crossed sabres,
    takes a figure; each flag not ignored moves it a hex toward its own baseline, and each
    hex it cannot take costs a figure (B-g); after close combat a vacated hex may be taken
    (data ``take_ground``). Returns what happened, for the event."""
    cfg = rules()
    u, t = st["units"][uid], st["units"][tid]
    n = fire_dice(st, uid, tid)
    close = distance(u["hex"], t["hex"]) == 1
    target_hex = t["hex"]
    ignore = flags_ignored(st, uid, tid)
    rolls = dice.roll_n(n, f"{uid} fires at {tid}", "B-f")
    faces = [face(v) for v in rolls]
    hits = sum(1 for f in faces if f == t["kind"] or (f == "sabres" and cfg["sabres_hit"]))
    lost = lose(st, tid, hits)
    flags = sum(1 for f in faces if f == "flag")
    due = 0 if ignore is None else max(0, flags - ignore) * cfg["retreat_hexes_per_flag"]
    path: list[str] = []
    for _ in range(due):
        if t["hex"] is None:
            break
        step = _retreat_step(st, tid)
        if step is None:
            lost += lose(st, tid, cfg["blocked_retreat_figures"])
        else:
            t["hex"] = step
            path.append(step)
    took = None
    rule = cfg["take_ground"][u["kind"]]
    if close and t["hex"] != target_hex and occupant(st, target_hex) is None and (
            rule == "always" or (rule == "general" and u["generals"])):
        u["hex"] = took = target_hex
    return {"unit": uid, "target": tid, "dice": n, "faces": faces, "hits": hits,
            "figures_lost": lost, "flags": flags, "flags_ignored": "all" if ignore is None
            else min(flags, ignore), "retreat": path, "eliminated": t["hex"] is None,
            "took_ground": took}
