"""How the Machango general fights a battle, from its own view only (the view's
``battle``: the board, every unit, its own hand).

It plays the card that orders the most units able to fire (or to close in), orders every
unit it may, moves a unit only when that brings more dice to bear (or, out of range, closes
on the nearest enemy), never moves guns that can already fire, and fires every ordered unit
at the target it rolls most dice against, the weakest first on ties.
"""

from __future__ import annotations

from collections.abc import Sequence

from gettysburg.core.canonical import JSONDict
from gettysburg.core.protocol import Action
from gettysburg.machango.battle_data import cards
from gettysburg.machango.battle_fire import fire_dice
from gettysburg.machango.battle_hexes import distance
from gettysburg.machango.battle_turns import in_section


def _foes(b: JSONDict, side: str) -> list[str]:
    return [uid for uid, u in b["units"].items() if u["side"] != side and u["hex"]]


def _best_dice(b: JSONDict, uid: str) -> int:
    return max((fire_dice(b, uid, t) for t in _foes(b, b["units"][uid]["side"])), default=0)


def _nearest(b: JSONDict, uid: str) -> int:
    u = b["units"][uid]
    return min((distance(u["hex"], b["units"][t]["hex"]) for t in _foes(b, u["side"])),
               default=0)


def _worth(b: JSONDict, uid: str) -> float:
    """What ordering the unit is worth: its dice now, or a little for closing in."""
    dice = _best_dice(dict(b, card_dice=0), uid)
    return 1.0 + 0.2 * dice if dice else 0.4


def _after_move(b: JSONDict, uid: str, to: str) -> JSONDict:
    units = dict(b["units"])
    u = dict(units[uid], hex=to, moved=True)
    terrain = b["board"]["hexes"][to]["terrain"]
    u["entered"] = terrain if terrain in ("woods", "homestead", "waterway") else None
    units[uid] = u
    return dict(b, units=units)


def battle_scores(view: JSONDict, legal: Sequence[Action]) -> list[float]:
    b: JSONDict = view["battle"]
    seat = str(view.get("seat"))
    hand = b["hands"].get(seat)
    out: list[float] = []
    for a in legal:
        kind = a.get("type")
        if kind == "battle_ewell":
            out.append(0.5 if a["choice"] == "card" else 0.4)
        elif kind == "battle_card" and isinstance(hand, list):
            card = cards()[str(a["card"])]
            mine = [uid for uid, u in b["units"].items() if u["side"] == seat and u["hex"]
                    and (not card.kinds or u["kind"] in card.kinds)
                    and in_section(b, uid, card.sections)]
            worth = sorted((_worth(b, uid) for uid in mine), reverse=True)
            take = worth[:card.orders] if card.orders else worth
            out.append(0.1 + sum(take) + 0.3 * card.dice * len(take))
        elif kind == "battle_order":
            out.append(_worth(b, str(a["unit"])))
        elif kind == "battle_move":
            uid, to = str(a["unit"]), str(a["to"])
            now, then = _best_dice(b, uid), _best_dice(_after_move(b, uid, to), uid)
            if then > now:
                out.append(0.5 + 0.2 * (then - now))
            elif now == 0 and then == 0:
                closer = _nearest(b, uid) - _nearest(_after_move(b, uid, to), uid)
                out.append(0.2 * closer - 0.05)
            else:
                out.append(-0.5)
        elif kind == "battle_fire":
            target = b["units"][str(a["target"])]
            dice = fire_dice(b, str(a["unit"]), str(a["target"]))
            out.append(1.0 + 0.3 * dice + 0.5 / max(1, int(target["figures"])))
        else:  # battle_done
            out.append(0.0)
    return out
