"""A minimal doctrine for Mundo Machango (what the ``general`` agent plays), read from a
seat's view and the public board only.

The CSA heads for the blue stars it does not hold and attacks the lines on them; the USA
holds its stars and answers what comes near; both keep out of the enemy's fields of fire
when they can, rest off their marks, and at night take a card, then recover, then fortify
a division on a star. Battles are fought by :mod:`gettysburg.machango.battle_doctrine`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from gettysburg.core.canonical import JSONDict
from gettysburg.core.protocol import Action
from gettysburg.machango.battle_doctrine import battle_scores
from gettysburg.machango.board import Board, load_board


@cache
def _hops(goal: str) -> dict[str, int]:
    """Links from every line to ``goal`` (breadth first on the board)."""
    b = load_board()
    out = {goal: 0}
    todo = [goal]
    while todo:
        here = todo.pop(0)
        for n in b.neighbours(here):
            if n not in out:
                out[n] = out[here] + 1
                todo.append(n)
    return out


class MachangoDoctrine:
    def __init__(self, board: Board | None = None) -> None:
        self.board = board or load_board()

    def _distance(self, line: str, goals: Sequence[str]) -> int:
        return min((_hops(g).get(line, 99) for g in goals), default=99)

    def _under_fire(self, view: JSONDict, seat: str, frm: str, to: str) -> bool:
        link = self.board.link(frm, to)
        divisions = view.get("divisions") or {}
        held = {d["at"] for d in divisions.values()
                if d.get("status") == "board" and d.get("side") != seat}
        return link is not None and any(src in held for src in link["fire_from"])

    def scores(self, view: JSONDict, legal: Sequence[Action]) -> list[float]:
        if view.get("battle") and view.get("phase") == "battle":
            return battle_scores(view, legal)
        seat = str(view.get("seat"))
        stars = view.get("stars") or {}
        divisions = view.get("divisions") or {}
        wanted = sorted(s for s, side in stars.items() if side != seat) or sorted(stars)
        out: list[float] = []
        for a in legal:
            kind = a.get("type")
            d = divisions.get(str(a.get("division", ""))) or {}
            if kind == "compose":
                out.append(1.0 if a.get("artillery") == 1 else 0.5)
            elif kind == "move":
                frm, to = str(d.get("at")), str(a["to"])
                goals = wanted if seat == "csa" else sorted(stars)
                gain = self._distance(frm, goals) - self._distance(to, goals)
                fire = 0.6 if self._under_fire(view, seat, frm, to) else 0.0
                if seat == "usa" and frm in stars:
                    gain -= 2  # hold the stars
                out.append(0.3 * gain - fire - 0.05 * int(d.get("bangs") or 0))
            elif kind == "attack":
                star = str(a["target"]) in stars
                out.append((1.2 if star else 0.4) if seat == "csa" else (0.3 if star else -0.5))
            elif kind == "rest":
                out.append(0.2 + 0.1 * int(d.get("bangs") or 0))
            elif kind == "cards":
                out.append(0.8)
            elif kind == "recover":
                out.append(0.6)
            elif kind == "restore":
                out.append(1.0)
            elif kind == "fortify":
                out.append(0.7 if d.get("at") in stars else 0.1)
            else:  # end_turn, night_pass, restore_skip, stealth, general
                out.append(0.0)
        return out

    def evaluate(self, view: JSONDict) -> float:
        seat = str(view.get("seat"))
        stars = view.get("stars") or {}
        mine = sum(1 for s in stars.values() if s == seat)
        figures = 0
        for d in (view.get("divisions") or {}).values():
            units = d.get("units")
            if units is None or d.get("status") != "board":
                continue
            figures += sum(int(f) for _, f in units) * (1 if d.get("side") == seat else -1)
        return float(2 * mine - len(stars)) + 0.01 * figures
