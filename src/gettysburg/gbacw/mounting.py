"""Cavalry mounting and dismounting in the GBACW engine (002 §14.21-14.23, §10.94; 004
§14.2 and sc.1).

``{"type": "mount", "unit"}`` / ``{"type": "dismount", "unit"}``: a cavalry unit of the
active brigade swaps its counter for its twin (002 §14.21) at the start of its activation,
before it moves, turns, fires or charges, and away from the enemy (no enemy unit next to
it, §14.22). What follows:

* for that activation only its MA is half (rounded up) of the new counter's, halved again
  under Attack orders (``questions.mp_of`` through :func:`activation_ma`; fatigue comes off
  after, §17.31);
* the Terrain chart and the rest of the engine read the new counter: dismounted cavalry is
  infantry (§14.23), and leaves one SP in four with the horses in fire and shock (§14.25);
* mounting refills a dismounted unit's small-arms ammunition (§10.94, which only matters
  with the optional §10.9 rule);
* neither counts as activity for fatigue or for the idle brigade's recovery (§17.22, §17.42).

Refused: mounted cavalry that is Blown dismounting (§14.22, §11.58); a brigade under a Stay
result (the note under §6.23's table); Confederate cavalry dismounting in this battle (004
§14.2); a unit its scenario says may not (004 sc.1, the 3rd West Virginia); a stack the new
counter would overfill (§8.12). **Readings:** one change a unit an activation; a unit
extended in line or column (§8.4-8.5) contracts first; losses carry over in proportion when
the twins' printed strengths differ (the order of battle's substitute dismounted counters
are smaller), the unit keeping at least one SP.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from gettysburg.core.protocol import Action, Event, RuleError

from . import formation_step, scenario_step
from .stacking import StackEntry, entry_name, stack_problem
from .state import unit_key
from .tdg_leaders import check_dismount

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame

Mode = Literal["mounted", "dismounted"]
KINDS: dict[str, Mode] = {"mount": "mounted", "dismount": "dismounted"}


def twin_of(game: GbacwGame, key: str, mode: Mode) -> str | None:
    """The id of the unit's counter in ``mode`` (002 §14.21), or None if it has none."""
    cid = f"{unit_key(game.pos.units[key].counter)}:{mode}"
    return cid if cid in game.cat.counters else None


def _present(sp_from: int, lost: int, sp_to: int) -> int:
    """The strength the unit shows on its new counter: the same share of it, rounded half
    up, at least one SP (a reading: the twins may print different strengths)."""
    here = max(0, sp_from - lost)
    if sp_from == sp_to:
        return here
    return max(1, (2 * here * sp_to + sp_from) // (2 * sp_from))


def remount_problem(game: GbacwGame, key: str, mode: Mode) -> RuleError | None:
    """Why ``key`` may not change to ``mode`` now (None: it may), 002 §14.22."""
    p = game.pos
    u = p.units.get(key)
    if u is None or not game.in_activation(key):  # or its coordinated group (§5.34)
        return RuleError("14.22", f"{key!r} is not a unit of the active brigade")
    c = game.counter(key)
    if c.arm != "cav":
        return RuleError("14.22", f"{key} is not cavalry")
    if c.mode == mode:
        return RuleError("14.22", f"{key} is already {mode}")
    twin = twin_of(game, key, mode)
    if twin is None:
        return RuleError("14.21", f"{key} has no {mode} counter")
    here = game.hex_of(u.hex)
    if here is None or u.routed:
        return RuleError("14.22", f"{key} is not on the map")
    if u.remounted:
        return RuleError("14.22", f"{key} has already changed its mode this activation")
    if u.moves or u.mp_spent or u.moved or u.fired or u.charging or u.formation_mp:
        return RuleError("14.22", f"{key} mounts or dismounts only at the start of its "
                         "activation, before it moves, turns, fires or charges")
    own = game.formation(key)  # its own brigade's Stay, in a coordinated group too (§5.34)
    if p.brigades[own].stay:
        return RuleError("6.23", f"{own} rolled Stay: its cavalry may neither mount nor "
                         "dismount")
    if u.extension is not None:
        return RuleError("14.22", f"{key} is extended: it contracts first (a reading)")
    enemy = game.enemy_hexes(u.seat) | formation_step.enemy_parts(game, u.seat)
    if any(here.distance(e) == 1 for e in enemy):
        return RuleError("14.22", f"{key} is next to an enemy unit")
    if mode == "dismounted":
        if u.blown:
            return RuleError("14.22", f"{key} is Blown: Blown cavalry may not dismount")
        try:
            check_dismount("csa" if u.seat == "csa" else "usa")
        except RuleError as exc:
            return exc
        if scenario_step.no_dismount(game, key):
            return RuleError("tdg.sc.1", f"{key} may not dismount in this scenario")
    new = game.cat.counters[twin]
    entries = [game.stack_entry(k) for k, v in sorted(p.units.items())
               if k != key and v.seat == u.seat and game.hex_of(v.hex) == here]
    mine = StackEntry(entry_name(key, corps=new.corps, name=new.unit, arm=new.arm), new.arm,
                      _present(game.counter(key).sp, u.lost, new.sp),  # present SP (§12.13)
                      new.formation, new.mode == "mounted")
    problem = stack_problem([*entries, mine], game.orders_of(key))
    if problem is not None:
        return RuleError("8.12", f"{key} {mode} would overfill its hex: {problem}")
    return None


def options(game: GbacwGame) -> list[Action]:
    """Every mount or dismount the active brigade may make now (002 §14.21-14.23; 004 §14.2)."""
    p = game.pos
    if p.brigade is None or p.pending is not None:
        return []
    out: list[Action] = []
    for k in game.activation_units():
        if game.counter(k).arm != "cav":
            continue
        for kind, mode in KINDS.items():
            if remount_problem(game, k, mode) is None:
                out.append({"type": kind, "unit": k})
    return out


def check(game: GbacwGame, action: Action, seat: str) -> None:
    """Refuse a mount or dismount by a unit that is not the seat's or may not change now
    (002 §14.21-14.23; 004 §14.2)."""
    key = str(action.get("unit"))
    if key not in game.pos.units or game.pos.units[key].seat != seat:
        raise RuleError("14.22", f"{key!r} is not one of your units")
    problem = remount_problem(game, key, KINDS[str(action["type"])])
    if problem is not None:
        raise problem


def execute(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Swap the counter (002 §14.22) and, when mounting, refill the ammunition (§10.94)."""
    check(game, action, seat)
    kind = str(action["type"])
    key = str(action["unit"])
    p = game.pos
    u = p.units[key]
    old = game.counter(key)
    twin = twin_of(game, key, KINDS[kind])
    assert twin is not None  # checked
    new = game.cat.counters[twin]
    u.lost = new.sp - _present(old.sp, u.lost, new.sp)
    u.counter = twin
    u.remounted = True
    p.brigades[game.formation(key)].did.append(kind)  # no fatigue, not movement (§17.22)
    ev = [Event(kind, "14.22", {"unit": key, "counter": twin, "hex": u.hex,
                                "sp": new.sp - u.lost, "ma": game.mp_of(key)})]
    if kind == "mount" and u.ammo != "none":
        before, u.ammo = u.ammo, "none"
        ev.append(Event("resupply", "10.94", {"unit": key, "from": before, "ammo": "none"}))
    return ev


def activation_ma(game: GbacwGame, key: str, ma: int) -> int:
    """002 §14.22: in the activation it mounted or dismounted, a unit has half (rounded up)
    the MA of its new counter; the caller halves it again for Attack orders (§9.24)."""
    u = game.pos.units[key]
    if u.remounted and game.in_activation(key):
        return (ma + 1) // 2
    return ma
