"""The withdrawal move in the GBACW engine (002 §9.54, through :mod:`withdrawal`).

A unit of the active brigade on Advance or Attack orders may spend its move backing one or
two hexes into its rear hexes, its facing kept (the facing of a stack it joins, §7.11). The
action is ``withdrawal_move`` {unit, path: [one or two hex ids]}. Each hex dearer than 1 MP
calls for a UDD, +1 per MP above one (§9.54); a hex's own "D" or "d" (§9.47) is met as on any
move. A failed UDD disorders the unit; a unit already disordered that fails cannot go on:
failing for the first hex it stays disordered there, failing for the second it goes back to
the first (§9.54's example). Path rates lower the cost only under Advance and within March
stacking (§9.54, §8.13). The unit may not fire or shock after it: its ``fired`` list gets
"phasing" (no phasing fire, §10.31's refusal) and "withdrawal_move" (the reason, read by
shock). A refused flank ends with the withdrawal (free, §7.33).

Extended units (§9.54): an extended line withdraws whole, every part stepping back the
same way, no path rates, the dearest hex a part enters setting each step's UDD
(``withdrawal.line_withdrawals``; the path names the counter's hexes). An extended unit
that cannot withdraw extended — a column never can — may instead take a disorder (none more
if already disordered), gather into one of its hexes and withdraw from there as a one-hex
unit: its path then starts with that hex (a reading: the gathering is free, §9.54 names no
cost, and the column's case follows the same sentence).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError, dice_event

from .facing import Facing
from .fatigue import level
from .kinds import unit_class
from .stacking import stack_problem
from .state import Position
from .udd import udd
from .withdrawal import Withdrawal, line_withdrawals, withdrawals

if TYPE_CHECKING:
    from .charts.terrain import UnitClass
    from .move_step import MoveGame

#: the mark a withdrawal leaves in ``UnitState.fired`` (no fire or shock after it)
WITHDREW = "withdrawal_move"


def _class(game: MoveGame, key: str) -> UnitClass:
    return unit_class(game.counter(key))


def _march_stacking(game: Any, key: str) -> bool:
    """Whether the unit's hex keeps within March stacking (002 §8.13, for path rates)."""
    p: Position = game.pos
    here = p.units[key].hex
    keys = [k for k, u in sorted(p.units.items()) if u.hex == here and u.seat == p.units[key].seat]
    return stack_problem([game.stack_entry(k) for k in keys], "march") is None


def choices(game: Any, key: str) -> list[Withdrawal]:
    """The withdrawals ``key`` may make now (002 §9.54), in :func:`withdrawal.withdrawals`'
    order; none when it may not move now or is not on Advance or Attack."""
    p: Position = game.pos
    u = p.units.get(key)
    if u is None or not game.in_activation(key):  # or its coordinated group (§5.34)
        return []
    if key not in game.active_units() or not game.may_move(game.formation(key)) \
            or game._fired_instead(key) or u.formation_mp:
        return []  # the withdrawal is the unit's whole move: none after a formation change
    orders = game.orders_of(key)
    here = game.hex_of(u.hex)
    if orders not in ("advance", "attack") or here is None or u.facing is None:
        return []
    if u.extends:
        return _extended(game, key, here, u.facing, orders)
    return withdrawals(game.cat.board, here, u.facing, unit_class=_class(game, key),
                       orders=orders, enemy=game.enemy_hexes(u.seat),
                       friends=game.friends_of(key),
                       use_paths=_march_stacking(game, key))


def _extended(game: Any, key: str, here: Hex, facing: Facing, orders: str
              ) -> list[Withdrawal]:
    """002 §9.54 for an extended unit: a line withdraws whole when it can; otherwise (and
    always for a column) it may gather, disordered, into one of its hexes and withdraw
    from there."""
    p: Position = game.pos
    u = p.units[key]
    board = game.cat.board
    own = [here, *(board.parse(x) for x in u.extends)]
    enemy: set[Hex] = set()
    blocked: set[Hex] = set()
    for k, v in p.units.items():
        h = game.hex_of(v.hex)
        if k == key or h is None:
            continue
        held = {h, *(board.parse(x) for x in v.extends)}
        if v.seat != u.seat:
            enemy |= held
            continue
        blocked |= held - {h}  # another unit's extension
        if _class(game, k) != "artillery" or v.facing != facing:
            blocked.add(h)  # a line shares a hex only with guns facing its way (§8.44, §7.11)
    if u.extension == "line":
        whole = line_withdrawals(board, tuple(own), facing, unit_class=_class(game, key),
                                 orders=orders, enemy=enemy, blocked=blocked)  # type: ignore[arg-type]
        if whole:
            return whole
    out: list[Withdrawal] = []
    for x in own:
        for w in withdrawals(board, x, facing, unit_class=_class(game, key),
                             orders=orders, enemy=enemy,  # type: ignore[arg-type]
                             friends={h: f for h, f in game.friends_of(key).items()
                                      if h not in own},
                             use_paths=_march_stacking(game, key)):
            if not any(h in own or h in blocked - set(game.friends_of(key)) for h in w.hexes):
                out.append(Withdrawal(w.hexes, w.checks, w.terrain, gather=x))
    return out


def _ids(game: Any, w: Withdrawal) -> list[str]:
    start = [] if w.gather is None else [w.gather]
    return [game.cat.board.hexes[h].id for h in (*start, *w.hexes)]


def options(game: Any) -> list[Action]:
    """``withdrawal_move`` actions for the active brigade's units (002 §9.54)."""
    p: Position = game.pos
    if p.brigade is None or p.pending is not None:
        return []
    out: list[Action] = []
    for k in game.active_units():
        out += [{"type": "withdrawal_move", "unit": k, "path": _ids(game, w)}
                for w in choices(game, k)]
    return out


def check(game: Any, action: Action, seat: str) -> Withdrawal:
    """Refuse a withdrawal move the unit may not make now; the checked move as a :class:`Withdrawal`
    (002 §9.54, §5.3)."""
    key = str(action["unit"])
    p: Position = game.pos
    if key not in p.units or p.units[key].seat != seat:
        raise RuleError("5.3", f"{key!r} is not one of your units")
    if not game.in_activation(key):
        raise RuleError("5.3", f"{key} is not of the active brigade")
    path = [str(x) for x in action["path"]]
    for w in choices(game, key):
        if _ids(game, w) == path:
            return w
    raise RuleError("9.54", f"{key} cannot withdraw along {path}: one or two rear hexes, "
                    "facing kept, on Advance or Attack, its move unused, not into the enemy "
                    "or over stacking, artillery through friends only along a road")


def _facing_there(game: Any, key: str, h: Hex) -> Facing | None:
    """The facing of a friendly stack in ``h`` (§7.11: one facing a hex), if any."""
    p: Position = game.pos
    hid = game.cat.board.hexes[h].id
    for k, v in sorted(p.units.items()):
        if k != key and v.hex == hid and v.seat == p.units[key].seat and v.facing is not None \
                and v.facing.kind == (p.units[key].facing or v.facing).kind:
            return v.facing
    return None


def execute(game: Any, action: Action, w: Withdrawal) -> list[Event]:
    """Roll the withdrawal's checks hex by hex and move the unit (002 §9.54)."""
    p: Position = game.pos
    key = str(action["unit"])
    u = p.units[key]
    c = game.counter(key)
    frm = u.hex
    dis = u.disordered
    extra: dict[str, Any] = {}
    if w.gather is not None:  # §9.54: disordered, gathered into one hex, then withdrawn
        extra = {"gathered": game.cat.board.hexes[w.gather].id, "given_up": [
            x for x in (u.hex, *u.extends) if x != game.cat.board.hexes[w.gather].id]}
        dis = True
        u.hex = extra["gathered"]
        u.extension, u.extends = None, []
    start = game.hex_of(u.hex)
    b = p.brigades.get(game.formation(key))
    fatigue_drm = -(-(level(b.fatigue) or 0) // 2) if game.fatigue and b is not None else 0
    first = game.dice.counter
    entered: list[Hex] = []
    rolled: list[dict[str, Any]] = []
    for i, h in enumerate(w.hexes):
        checks = [t for t in w.terrain if t.hex == h]
        own = w.checks[i]
        if own is not None:
            checks.append(own)
        stop = False
        for chk in checks:
            if chk.kind == "auto":
                dis = True
                rolled.append({"hex": game.cat.board.hexes[h].id, "rule": chk.rule,
                               "auto": True})
                continue
            roll = udd(game.dice, unit=key,
                       cohesion=c.cohesion_disordered if dis else c.cohesion,
                       drm=chk.drm + fatigue_drm, purpose="withdrawal", rule=chk.rule)
            rolled.append({"hex": game.cat.board.hexes[h].id, **roll.to_json()})
            if not roll.passed:
                stop = stop or dis  # a disordered unit that fails goes no further
                dis = True
        if stop:
            if i == 0:
                entered.append(h)  # it stays, disordered, in the first hex
            break
        entered.append(h)
    end = entered[-1]
    u.hex = game.cat.board.hexes[end].id
    if w.line:  # the parts step back with the counter (§8.44)
        dq, dr = end.q - start.q, end.r - start.r
        u.extends = [game.cat.board.hexes[Hex(x.q + dq, x.r + dr)].id
                     for x in (game.cat.board.parse(e) for e in u.extends)]
        extra["extends"] = list(u.extends)
    else:
        u.facing = _facing_there(game, key, end) or u.facing
    u.disordered = dis
    u.refused = []  # §9.54 with §7.33: a withdrawal ends a refusal, at no cost
    u.moves = max(u.moves + 1, game.moves_allowed(key))
    u.moved = True
    u.fired = [*u.fired, *(x for x in ("phasing", WITHDREW) if x not in u.fired)]
    game._did(key, "move")
    objectives = game.victory_hexes()
    for h in entered:
        hid = game.cat.board.hexes[h].id
        if hid in objectives:
            p.control[hid] = u.seat
    game._memo.clear()
    rolls = game.dice.rolls_since(first)
    return ([dice_event(rolls)] if rolls else []) + [
        Event("withdrawal_move", "9.54", {
            "unit": key, "from": frm, "path": _ids(game, w),
            "to": u.hex, "facing": None if u.facing is None else u.facing.to_json(),
            "disordered": dis, "checks": rolled, **extra})]
