"""What one seat's GBACW general remembers within an activation (fed only its own views):
which of its units have fired. The owner's view does not show it, and a unit on Advance
that fired may not move (002 §6.15, §10.32); a unit whose shots were offered and are no
longer offered in the same activation has fired (or its target is gone, when holding it
still costs nothing)."""

from __future__ import annotations

from gettysburg.core.canonical import JSONDict

#: the key under which the recalled view carries the units seen to have fired
FIRED = "ai_fired"
#: the key under which it carries the units seen to charge (002 §11.53): offered a charge,
#: then no longer offered one while still unmoved and not fired (a failed charge marks the
#: unit fired, so only a passed one counts)
CHARGING = "ai_charging"
#: the key under which it carries how many decisions this seat has made in the same
#: activation and phase (a guard against an engine that keeps offering re-choices)
REPEATS = "ai_repeats"


def _offered(view: JSONDict) -> tuple[set[str], set[str]]:
    """The units offered a shot, and those offered a charge (one pass over the list: it
    may hold ten thousand moves)."""
    shooters: set[str] = set()
    chargers: set[str] = set()
    for a in view.get("legal_actions") or []:
        kind = a.get("type")
        if kind == "fire":
            shooters.add(str(a.get("unit")))
        elif kind == "charge":
            chargers.add(str(a.get("unit")))
    return shooters, chargers


def _unmoved(view: JSONDict, key: str) -> bool:
    u = (view.get("units") or {}).get(key) or {}
    return bool(u.get("hex")) and not (u.get("moved") or u.get("mp_spent") or u.get("fired")
                                       or u.get("moves"))


class GbacwMemory:
    def __init__(self) -> None:
        self._activation: tuple[object, ...] | None = None
        self._offered: set[str] = set()
        self._fired: set[str] = set()
        self._repeats = 0
        self._may_charge: set[str] = set()
        self._charging: set[str] = set()
        self._activation_of_charge: tuple[object, ...] | None = None

    def recall(self, view: JSONDict) -> JSONDict:
        key = (view.get("turn"), view.get("current"), view.get("brigade"), view.get("phase"))
        now, may = _offered(view)
        if key != self._activation:
            self._activation, self._offered, self._fired = key, set(), set()
            self._repeats = 0
            if key[:3] != self._activation_of_charge:
                self._may_charge, self._charging = set(), set()
                self._activation_of_charge = key[:3]
        self._fired |= self._offered - now
        self._offered = now
        if view.get("pending") is None:  # (a pending decision lists no charge at all)
            self._charging |= {k for k in self._may_charge - may if _unmoved(view, k)}
            self._may_charge = may
        self._repeats += 1
        return {**view, FIRED: sorted(self._fired), REPEATS: self._repeats,
                CHARGING: sorted(self._charging)}
