"""The sequence of play (002 §3.0) as a small state machine.

A turn runs: I initiative (§5.1, automatic) -> II orders segment: A chain check and B
efficiency draws (automatic), then B transfer, C Division Orders, D reinforcement orders and
E Reserve, which each player takes as one phase ``orders`` (initiative player first; neither
choice depends on the other player's within the phase) -> III activation segment: A the
initiative player's first marker (``first_am``), B the rest into the pool, C draws; for each
drawn marker: 1 orders-change rolls and 2 the coordination try (``orders_change``), 3
actions (``action``) -> IV end segment: A commander movement (``commanders``, initiative
player first), B recovery and C combat effectiveness (automatic) -> the next turn, or
``over`` after the scenario's last turn. Within ``action`` the defender may owe an answer
(a shock's withdraw/stand, a shot's return fire: ``Position.pending``). Engineering (II/F)
is not built yet.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Phase:
    name: str
    segment: str  # "II", "III", ... of 002 §3.0
    rule: str  # the section a refusal in this phase cites
    title: str


PHASES: dict[str, Phase] = {p.name: p for p in (
    Phase("orders", "II", "3.0", "orders segment (efficiency transfer, Division Orders, "
          "reinforcement orders, Reserve)"),
    Phase("first_am", "III", "5.1", "activation segment: the initiative player's first marker"),
    Phase("orders_change", "III", "6.2", "activation: orders-change rolls"),
    Phase("action", "III", "5.3", "activation: brigades act"),
    Phase("commanders", "IV", "9.32", "end segment: commander movement"),
    Phase("over", "IV", "3.0", "the scenario is over"),
)}

#: What may follow each phase (the engine checks every move it makes against this).
NEXT: dict[str, tuple[str, ...]] = {
    "orders": ("orders", "first_am", "orders_change", "action", "commanders", "over"),
    "first_am": ("orders_change", "action", "commanders", "orders", "over"),
    "orders_change": ("action",),
    "action": ("action", "orders_change", "commanders", "orders", "over"),
    "commanders": ("commanders", "orders", "over"),
    "over": (),
}


def check_step(before: str, after: str) -> None:
    """Refuse (as a bug) a phase change the sequence does not allow (002 §3.0)."""
    if after not in NEXT[before]:
        raise AssertionError(f"sequence: {before} may not be followed by {after}")


def segment_of(phase: str) -> str:
    """The segment (I to IV of 002 §3.0) a phase belongs to."""
    return PHASES[phase].segment
