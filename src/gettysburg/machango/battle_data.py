"""The battle's numbers (``data/battle.yaml``) and the project's own command deck
(``data/cards.yaml``), read once; docs/machango-battles.md says where each comes from."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import yaml

from gettysburg.machango.paths import DATA


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    text: str
    count: int
    sections: tuple[str, ...]  # "left", "centre", "right" or "any"
    orders: int  # 0: every unit that qualifies
    kinds: tuple[str, ...] = ()
    dice: int = 0


@cache
def rules() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((DATA / "battle.yaml").read_text(encoding="utf-8"))
    return data


@cache
def cards() -> dict[str, Card]:
    raw = yaml.safe_load((DATA / "cards.yaml").read_text(encoding="utf-8"))["cards"]
    return {c["id"]: Card(id=c["id"], name=c["name"], text=c["text"], count=int(c["count"]),
                          sections=tuple(c["sections"]), orders=int(c["orders"]),
                          kinds=tuple(c.get("kinds", ())), dice=int(c.get("dice", 0)))
            for c in raw}


def deck() -> list[str]:
    """Every card of the deck, in file order (shuffled per battle)."""
    return [c.id for c in cards().values() for _ in range(c.count)]


def face(value: int) -> str:
    return str(rules()["faces"][value])


def terrain(kind: str) -> dict[str, Any]:
    out: dict[str, Any] = rules()["terrain"][kind]
    return out
