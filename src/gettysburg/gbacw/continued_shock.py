"""The phasing seat's decisions after a shock's results (002 §11.35, §11.47, §8.49): the
voluntary advance into a hex emptied by a withdrawal before shock, and continued shock.

Both are a ``Position.pending`` of kind ``"after_shock"`` whose ``decider`` is the seat that
chooses (``seat`` names the other one, so ``to_move()`` gives the decider, as for every
pending). While it waits, the rest of the designation's shocks (``queue``) and what they
carry (``ctx``) wait in it too; :func:`shock_step._run` goes on with them afterwards.

* **Voluntary advance (§11.35).** After every defender of a shock withdrew, each attacking
  infantry unit may ``shock_advance`` {unit, to} into an emptied hex next to it; no
  continued shock follows. ``end_shock`` declines (or ends it after some advanced).
* **Continued shock (§11.47).** After a pre-shock check that emptied the hex, or an
  adjusted 8+, the units that advanced in step 6c may ``continue_shock`` {to, facing}: one
  or two hexes more (none when already next to an enemy), a vertex of turn per hex entered,
  never into ground closed to them or costing over 2 MP, stopping next to an enemy; then
  they shock every enemy in their front hexes with steps 1-6d, without the green and
  pre-shock checks, the charge bonus or the attacker's rounding, keeping the first shock's
  no-brigadier DRM, at -n for the n-th continued shock in succession (``shock.fight``).
  ``end_shock`` declines when the continuation is voluntary (chargers must, §11.47).
  **Readings:** the group is the units that advanced into one hex (the first advancer's);
  the engine picks the path to the chosen hex (the first by hex order); the continued
  shock may still meet a withdrawal before shock and pre-shock fire (the seed's exceptions
  name only the green and pre-shock checks).
* **Counter-attack (§11.47, §11.46).** After an adjusted 1 or less the defender's seat decides
  (``counter`` in the pending): staying, its units may face as they like; advancing, they
  enter a hex the attackers left and may go one hex more. The counter-attack is their
  continued shock (-1, no checks), with their own brigade's no-brigadier DRM.
* **§8.49** (an extended line retracts or pivots before continuing): the engine's position
  holds no extended unit in shock yet, so nothing is retracted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, RuleError

from .facing import Facing, front_hexes, turn
from .kinds import unit_class
from .movement import entry_cost
from .shock_units import advance_need
from .shock_units import present as _present
from .stacking import stack_problem
from .state import other

if TYPE_CHECKING:
    from .charts.terrain import UnitClass
    from .engine_view import GameView as GbacwGame

AFTER = "after_shock"
MAX_MP = 4  # half MP: a continued shock's advance never enters a hex of more than 2 MP


def _class(game: GbacwGame, key: str) -> UnitClass:
    return unit_class(game.counter(key))


def _hex_id(game: GbacwGame, h: Hex) -> str:
    return game.cat.board.hexes[h].id


def _blockers(game: GbacwGame, seat: str) -> set[Hex]:
    """Hexes holding an enemy still in the fight (routed, eliminated units and abandoned
    guns do not stop an advance)."""
    p = game.pos
    return {h for k, u in p.units.items() if u.seat != seat and u.abandoned is None
            and _present(game, k) and (h := game.hex_of(u.hex)) is not None}


def _group(game: GbacwGame, units: list[str]) -> list[str]:
    """The continuing units: those of ``units`` in the first one's hex (reading)."""
    live = [k for k in units if _present(game, k)]
    if not live:
        return []
    here = game.pos.units[live[0]].hex
    return [k for k in live if game.pos.units[k].hex == here]


def _step_ok(game: GbacwGame, group: list[str], frm: Hex, to: Hex, enemy: set[Hex]
             ) -> bool:
    if to in enemy or to not in game.cat.board.hexes:
        return False
    for k in group:
        step = entry_cost(game.cat.board, frm, to, unit_class=_class(game, k),
                          orders=game.orders_of(k),  # type: ignore[arg-type]
                          use_paths=False)
        if isinstance(step, RuleError) or step.half_mp > MAX_MP:
            return False
    return True


def _targets(game: GbacwGame, group: list[str], h: Hex, f: Facing, enemy: set[Hex]
             ) -> list[Hex]:
    """The enemy hexes in the front hexes of ``h`` facing ``f`` the group could enter."""
    out = []
    for t in front_hexes(h, f):
        if t in enemy and all(not isinstance(entry_cost(
                game.cat.board, h, t, unit_class=_class(game, k),
                orders=game.orders_of(k), use_paths=False),  # type: ignore[arg-type]
                RuleError) for k in group):
            out.append(t)
    return sorted(out, key=lambda x: (x.q, x.r))


def _fits(game: GbacwGame, group: list[str], h: Hex) -> bool:
    p = game.pos
    seat = p.units[group[0]].seat
    hid = _hex_id(game, h)
    entries = [game.stack_entry(k) for k, u in p.units.items()
               if u.hex == hid and u.seat == seat and k not in group and u.abandoned is None]
    return stack_problem([*entries, *(game.stack_entry(k) for k in group)],
                         game.orders_of(group[0])) is None


def _standing(game: GbacwGame, units: list[str]
              ) -> tuple[list[str], Hex, Facing, set[Hex]] | None:
    """The group that goes on, the hex and facing of its first unit and the hexes that
    block it (None when there is no such group on the map)."""
    group = _group(game, units)
    if not group:
        return None
    u = game.pos.units[group[0]]
    start = game.hex_of(u.hex)
    if start is None or u.facing is None:
        return None
    return group, start, u.facing, _blockers(game, u.seat)


def continuations(game: GbacwGame, units: list[str]
                  ) -> dict[tuple[Hex, Facing], tuple[list[Hex], list[Hex]]]:
    """002 §11.47: every (hex, facing) the continuing group may shock from, with the path
    there (first by hex order) and the enemy hexes it must shock."""
    got = _standing(game, units)
    if got is None:
        return {}
    group, start, f0, enemy = got
    out: dict[tuple[Hex, Facing], tuple[list[Hex], list[Hex]]] = {}

    def offer(path: list[Hex], f: Facing) -> None:
        end = path[-1] if path else start
        targets = _targets(game, group, end, f, enemy)
        if targets and (end, f) not in out and (not path or _fits(game, group, end)):
            out[(end, f)] = (path, targets)

    def near_enemy(h: Hex) -> bool:
        return any(n in enemy for n in h.neighbours())

    if near_enemy(start):  # no further advance; shock from where it stands
        offer([], f0)
        return out
    turns = (0, 1, -1)
    for n1 in sorted(start.neighbours(), key=lambda x: (x.q, x.r)):
        if not _step_ok(game, group, start, n1, enemy):
            continue
        for t1 in turns:
            f1 = turn(f0, t1)
            offer([n1], f1)
            if near_enemy(n1):
                continue
            for n2 in sorted(n1.neighbours(), key=lambda x: (x.q, x.r)):
                if n2 == start or not _step_ok(game, group, n1, n2, enemy):
                    continue
                for t2 in turns:
                    offer([n1, n2], turn(f1, t2))
    return out


def counter_continuations(game: GbacwGame, units: list[str], vacated: list[str]
                          ) -> dict[tuple[Hex, Facing], tuple[list[Hex], list[Hex]]]:
    """002 §11.46-11.47: the defenders' counter-attack after an adjusted 1 or less. Staying,
    they may face as they like; advancing, they enter a hex the attackers left (facing as
    needed to do it) and may go one hex more (a vertex of turn), stopping next to an enemy.
    Each (hex, facing) they may shock from, with the path and the enemy hexes to shock."""
    got = _standing(game, units)
    if got is None:
        return {}
    group, start, f0, enemy = got
    out: dict[tuple[Hex, Facing], tuple[list[Hex], list[Hex]]] = {}
    facings = [Facing(f0.kind, i) for i in range(6)]

    def offer(path: list[Hex], f: Facing) -> None:
        end = path[-1] if path else start
        targets = _targets(game, group, end, f, enemy)
        if targets and (end, f) not in out and (not path or _fits(game, group, end)):
            out[(end, f)] = (path, targets)

    for f in facings:
        offer([], f)
    left = sorted((h for t in vacated if (h := game.hex_of(t)) is not None
                   and h.distance(start) == 1), key=lambda x: (x.q, x.r))
    for v in left:
        if not _step_ok(game, group, start, v, enemy):
            continue
        for f1 in facings:
            offer([v], f1)
            if any(n in enemy for n in v.neighbours()):
                continue
            for n2 in sorted(v.neighbours(), key=lambda x: (x.q, x.r)):
                if n2 != start and _step_ok(game, group, v, n2, enemy):
                    for t in (0, 1, -1):
                        offer([v, n2], turn(f1, t))
    return out


def open_counterattack(game: GbacwGame, seat: str, units: list[str], vacated: list[str], *,
                       queue: list[dict[str, Any]], ctx: dict[str, Any]) -> bool:
    """Ask the defender (``seat``) whether ``units`` counter-attack (002 §11.47, always a
    choice); False when none can reach an enemy."""
    group = _group(game, units)
    if not group or not counter_continuations(game, group, vacated):
        return False
    game.pos.pending = {"kind": AFTER, "seat": other(seat), "decider": seat,
                        "attacker": seat, "units": group, "must": False, "continued": 1,
                        "counter": True, "vacated": vacated, "queue": queue, "ctx": ctx}
    return True


def _moves(game: GbacwGame, p: dict[str, Any]
           ) -> dict[tuple[Hex, Facing], tuple[list[Hex], list[Hex]]]:
    if p.get("counter"):
        return counter_continuations(game, list(p["units"]), list(p.get("vacated", [])))
    return continuations(game, list(p["units"]))


def open_continuation(game: GbacwGame, seat: str, units: list[str], *, must: bool, n: int,
                      queue: list[dict[str, Any]], ctx: dict[str, Any]) -> bool:
    """Ask the attacker whether ``units`` continue the shock (002 §11.47); False when they
    cannot (no enemy to reach), so the series ends."""
    group = _group(game, units)
    if not group or not continuations(game, group):
        return False
    game.pos.pending = {"kind": AFTER, "seat": other(seat), "decider": seat,
                        "attacker": seat, "units": group, "must": must, "continued": n,
                        "queue": queue, "ctx": ctx}
    return True


def open_voluntary_advance(game: GbacwGame, seat: str, units: list[str], hexes: list[Hex],
                           *, queue: list[dict[str, Any]], ctx: dict[str, Any]) -> bool:
    """002 §11.35: after a withdrawal before shock emptied the hexes, the attacking
    infantry may advance; the decision waits only if some unit can (True then)."""
    game.pos.pending = {"kind": AFTER, "seat": other(seat), "decider": seat,
                        "attacker": seat, "voluntary": True,
                        "units": [k for k in units if _class(game, k) == "infantry"],
                        "hexes": [_hex_id(game, h) for h in hexes],
                        "queue": queue, "ctx": ctx}
    if advance_options(game):
        return True
    game.pos.pending = None
    return False


def advance_options(game: GbacwGame) -> list[Action]:
    """The voluntary advance into a hex emptied by a withdrawal before shock: each attacker that
    may, or none (002 §11.35, §11.46)."""
    p = game.pos.pending
    if p is None or p.get("kind") != AFTER or not p.get("voluntary"):
        return []
    out: list[Action] = []
    for k in p["units"]:
        if not _present(game, k):
            continue
        for t in p["hexes"]:
            h = game.hex_of(t)
            if h is not None and advance_need(game, k, h) is not None:
                out.append({"type": "shock_advance", "unit": k, "to": t})
    return out


def options(game: GbacwGame) -> list[Action]:
    """The decider's legal actions while an ``after_shock`` decision waits
    (002 §11.35, §11.47, §8.49)."""
    p = game.pos.pending
    if p is None or p.get("kind") != AFTER:
        return []
    if p.get("voluntary"):
        return [*advance_options(game), {"type": "end_shock"}]
    moves = [{"type": "continue_shock", "to": _hex_id(game, h), "facing": f.to_json()}
             for (h, f) in sorted(_moves(game, p),
                                  key=lambda x: (x[0].q, x[0].r, x[1].kind, x[1].index))]
    return [*moves, *([] if p.get("must") and moves else [{"type": "end_shock"}])]


def check(game: GbacwGame, action: Action, seat: str) -> None:
    """Refuse an after-shock answer when none waits, from the wrong seat or not among the options
    (002 §11.47, §11.35)."""
    p = game.pos.pending
    if p is None or p.get("kind") != AFTER:
        raise RuleError("11.47", "no continued shock or advance waits for a decision")
    if seat != p["decider"]:
        raise RuleError("11.47", f"{p['decider']} decides now")
    if action["type"] == "end_shock":
        if p.get("must") and not p.get("voluntary") and _moves(game, p):
            raise RuleError("11.47", "charging units must continue the shock")
        return
    if action not in options(game):
        rule = "11.35" if p.get("voluntary") else "11.47"
        raise RuleError(rule, f"{action['type']} to {action.get('to')} is not allowed now "
                        "(an emptied hex next to the unit for an advance; for a continued "
                        "shock one or two hexes of at most 2 MP, a vertex a hex, stopping "
                        "next to an enemy, with an enemy in a front hex)")
