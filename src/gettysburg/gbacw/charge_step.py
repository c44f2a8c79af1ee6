"""Cavalry charges in the GBACW engine (002 §11.51-11.58, §16.12).

* **Declaring a charge (§11.52-11.53).** ``charge`` {unit}, before the unit moves: mounted
  cavalry of the active brigade on Attack orders, not Blown, that has neither moved nor
  fired, began the activation in its brigadier's range (read from II/A's command status: not
  out of command), and sees an enemy it can reach the adjacency of with 5 MP or less; never
  on a night turn (§16.12). The top unit of its stack takes a UDD (``shock.charge_check``):
  passed, it and the eligible units stacked with it are charging (they must shock, §11.21,
  and the charge's benefits follow them, §11.55); failed, the stack stays and its activation
  is over (it may neither move, fire nor shock: marked ``charge_failed`` and ``phasing`` in
  ``fired``).
* **During the charge (§11.52).** A charging unit fires at no point of it
  (:func:`fire_problem`); disordered on the way, it still completes it: its reach is searched
  without §12.34's ban on ending next to the enemy (``questions.reach``, ``charge=True``) and
  a failed check on the way does not stop it short (``move_step.plan``).
* **The charge path (§11.54).** A charging unit's moves are only those whose last three
  hexes entered keep one facing, hold no friendly unit and cost 1 MP each (a stream
  crossing allowed: **reading**, the crossing's extra cost is not counted)
  (:func:`charge_path_filter`, over the movement module's reach).
* **A charge meeting a reaction move (§11.57).** When the defender makes a reaction move
  while a unit of the active brigade is charging, the charging unit has two options. Option
  1: a unit that has made its move may move on (:func:`moving_on`): a second ``move`` of
  that unit, from where it stands, with what is left of its MA (:func:`mp_left`), the
  charge path still kept over the last three hexes of the whole movement (the first move's
  last states are noted in ``Position.reacted``, :func:`note_move`); ending with an enemy in
  a front hex it must shock (§11.21). Option 2: ``break_charge`` {unit}: the stack's top
  unit's UDD; passed, the stack stops, its activation over; failed, it goes on as in option
  1 (it may still move on, not break off again until another reaction move). The window
  closes when the unit moves on, breaks off, or its brigade designates its shocks; outside
  it a second move of a charging unit is refused with 11.57 (:func:`check_move_on`).
* **Counter-charge (§11.56).** While a charge waits for the defender, ``counter_charge``
  {unit}: defending mounted cavalry on Attack or Advance orders, not shocked through a flank
  or rear, without return or withdrawal fire this enemy activation, the attacker's hex open
  to a charge (at most 1 MP for mounted cavalry from the defender's hex). On Attack orders it
  simply counter-charges; on Advance its stack's top unit takes a UDD. A counter-charging
  stack takes no pre-shock check and fires no pre-shock fire; the charge loses its benefits
  (charging infantry takes -1 instead of +1: ``shock.fight(counter_charged=True)``). A
  failed UDD leaves the pre-shock check, with the charge's benefits against it.
* **Blown (§11.58).** The MA is halved by :func:`blown_ma_of`; the marker goes at the end of
  the next activation of the unit's brigade (``UnitState.blown_activation`` counts the
  activation ends still to come: 2 when Blown in its own activation, 1 otherwise), unless it
  takes part in a step 6b again, which starts the count anew (:func:`blown_recovery`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gettysburg.core.protocol import Action, Event, RuleError, dice_event

from . import shock_fog
from .facing import Facing, aspect_of
from .kinds import unit_class
from .movement import entry_cost
from .shock import blown_ma, break_charge, charge_check
from .shock_action import combatant_of
from .shock_units import defenders as _defenders

if TYPE_CHECKING:
    from gettysburg.core.hexes import Hex

    from .board import Board
    from .charts.terrain import UnitClass
    from .engine_view import GameView
    from .engine_view import GameView as GbacwGame
    from .state import Position

COVER = ("woods", "rough-woods", "town")  # 002 §11.43, §11.55: mounted cavalry halved there
CHARGE_MP = 10  # half MP: an enemy's adjacency within 5 MP (§11.52)
FAILED = "charge_failed"


def _class(game: GameView, key: str) -> UnitClass:
    return unit_class(game.counter(key))


def _problem(game: GbacwGame, key: str) -> RuleError | None:
    """Why ``key`` may not declare a charge now (002 §11.52, §11.58, §16.12), or None."""
    p = game.pos
    u = p.units[key]
    here = game.hex_of(u.hex)
    if p.brigade is None or not game.in_activation(key) or u.seat != \
            p.brigades[p.brigade].seat:  # (or its coordinated group, §5.34)
        return RuleError("11.52", f"{key} is not of the active brigade")
    if here is None or u.facing is None:
        return RuleError("11.52", f"{key} is not on the map")
    if _class(game, key) != "mounted_cavalry":
        return RuleError("11.52", f"{key}: only mounted cavalry charges")
    if game._light() == "night":
        return RuleError("16.12", "no charges on a night turn")
    if u.blown:
        return RuleError("11.58", f"{key} is Blown")
    if game.orders_of(key) != "attack":
        return RuleError("11.52", f"{key}: a charge needs Attack orders")
    if u.charging:
        return RuleError("11.53", f"{key} is already charging")
    if u.moves or u.mp_spent or u.fired or u.moved:
        return RuleError("11.53", f"{key}: a charge is declared before the unit moves or fires")
    if key in p.command.get("units", []):
        return RuleError("11.52", f"{key} did not start in its brigadier's range")
    enemy = game.enemy_hexes(u.seat)
    seen = [e for e in enemy if game._sight(here, e)]
    for (h, _f), r in game.reach(key).items():
        if r.half_mp <= CHARGE_MP and any(n in seen for n in h.neighbours()):
            return None
    if any(n in seen for n in here.neighbours()):
        return None
    return RuleError("11.52", f"{key}: no enemy in sight within 5 MP of adjacency")


def options(game: GbacwGame, seat: str) -> list[Action]:
    """The ``charge`` declarations open to ``seat`` now (002 §11.52-11.53)."""
    p = game.pos
    if p.brigade is None or p.pending is not None:
        return []
    return [{"type": "charge", "unit": k} for k in game.activation_units()
            if p.units[k].seat == seat and _problem(game, k) is None]


def check(game: GbacwGame, action: Action, seat: str) -> None:
    """Refuse a ``charge`` declaration that 002 §11.52-11.53 (and §11.58, §16.12) forbid."""
    key = str(action["unit"])
    if key not in game.pos.units or game.pos.units[key].seat != seat:
        raise RuleError("11.52", f"{key!r} is not one of your units")
    problem = _problem(game, key)
    if problem is not None:
        raise problem


def declare(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """002 §11.53: the top unit's UDD; the stack charges or stays, its activation over."""
    check(game, action, seat)
    p = game.pos
    key = str(action["unit"])
    here = p.units[key].hex
    stack = [k for k, u in p.units.items() if u.hex == here and u.seat == seat]
    top = stack[0]
    first = game.dice.counter
    c = charge_check(game.dice, combatant_of(game, top))
    ev = [dice_event(game.dice.rolls_since(first)),
          Event("charge", "11.53", {"unit": key, "check": c.to_json()})]
    mates = [k for k in stack if k == key or _problem(game, k) is None]
    for k in mates:
        u = p.units[k]
        if c.passed:
            u.charging = True
        else:
            u.moves = max(u.moves, game.moves_allowed(k))
            u.fired = [*u.fired, FAILED, "phasing"]  # no fire either: its activation is over
    ev[-1].data["units"] = mates
    return shock_fog.fog(game, ev, seat)  # 002 §17.31: the fatigue on the UDD is the owner's


def fire_problem(game: GameView, key: str) -> RuleError | None:
    """002 §11.52: charging cavalry fires during no part of its charge."""
    if game.pos.units[key].charging:
        return RuleError("11.52", f"{key} is charging: charging cavalry does not fire")
    return None


def charge_path_filter(game: GameView, key: str, found: dict[Any, Any]) -> dict[Any, Any]:
    """002 §11.54: a charging unit's moves keep a charge path: over the last three hexes it
    enters (fewer when it starts closer) it changes no facing, meets no friendly unit and
    enters no hex of more than 1 MP (a stream crossing allowed). ``found`` maps (hex,
    facing) to the movement module's ``Reach`` (its ``path`` of (hex, facing) states).
    Moving on after a reaction (§11.57 option 1), the path counts from the first move's
    noted states: the three hexes may straddle the two moves (friends are looked for in the
    hexes entered now only: the earlier ones were checked when entered)."""
    u = game.pos.units[key]
    if not u.charging:
        return found
    board = game.cat.board
    prior = _noted_path(game, key) if moving_on(game, key) else []
    friends = {h for k, v in game.pos.units.items() if k != key and v.seat == u.seat
               and (h := game.hex_of(v.hex)) is not None}
    out = {}
    for state, r in found.items():
        path = [*prior[:-1], *r.path] if prior and prior[-1][0] == r.path[0][0] \
            else list(r.path)
        new = len(path) - len(r.path)  # the states before this one are the first move's
        entered = [i for i in range(1, len(path)) if path[i][0] != path[i - 1][0]]
        tail = entered[-3:]
        ok = True
        if tail and len({f for _h, f in path[tail[0]:]}) > 1:
            ok = False  # a facing change on the charge path
        for i in tail:
            h, prev = path[i][0], path[i - 1][0]
            side = board.side(prev, h)
            step = entry_cost(board, prev, h, unit_class="mounted_cavalry",
                              orders="attack", use_paths=False)
            creek = side is not None and bool(side.stream)
            if (h in friends and i > new) or isinstance(step, RuleError) or (
                    step.half_mp > 2 and not creek):
                ok = False
        if ok:
            out[state] = r
    return out


# --- a charge meeting a reaction move (002 §11.57) ---------------------------------------

MET = "charge_met:"  # a Position.reacted entry: this charging unit met a reaction move
TRIED = "charge_tried:"  # ... and tried to break off since (option 2 once a reaction)
PATH = "charge_path:"  # ... "charge_path:<unit>=<hex>/<v|s><index>;...": its last states
SHOCKED = "shock"  # shock_step.SHOCKED: the brigade has designated its shocks (§11.31)


def after_reaction(game: GameView, action: Action) -> list[Event]:
    """After the defender's reaction move, the charging units of the active brigade may move
    on or try to break off (002 §11.57): noted in ``Position.reacted`` (reset each
    activation); a new reaction move gives a new try at breaking off."""
    p = game.pos
    if action.get("type") != "react_move" or p.brigade is None:
        return []
    for k in game.activation_units():
        if p.units[k].charging:
            p.reacted = [*(x for x in p.reacted if x != TRIED + k),
                         *([MET + k] if MET + k not in p.reacted else [])]
    return []


def moving_on(game: GameView, key: str) -> bool:
    """Whether ``key`` may now move on after a reaction move (002 §11.57 option 1): a
    charging unit of the active brigade, on the map, that has made its move of the
    activation and met an enemy reaction move since, its brigade not yet shocking, no
    decision waiting."""
    p = game.pos
    u = p.units[key]
    return (p.brigade is not None and p.pending is None and u.charging and u.moved
            and MET + key in p.reacted and u.hex is not None and game.in_activation(key)
            and u.moves >= game.moves_allowed(key)
            and SHOCKED not in p.brigades[p.brigade].did)


def mp_left(game: GameView, key: str) -> int:
    """The MP a charging unit moving on still has (002 §11.57: up to its MA, counting what it
    spent): its MA now (disordered on the way: the disordered MA, §12.33) less what it
    spent and what formation changes took. **Reading:** the engine counts spent MP in whole
    MP, rounded up, so a half MP left over is lost."""
    u = game.pos.units[key]
    return max(0, game.mp_of(key) - u.formation_mp - u.mp_spent)


def budget(game: GameView, key: str) -> int | None:
    """The MP a charging unit's move is searched with: what is left when it moves on (002
    §11.57 option 1, :func:`mp_left`), else None (its MA, as for any move)."""
    return mp_left(game, key) if moving_on(game, key) else None


def check_move_on(game: GameView, key: str) -> bool:
    """For a ``move`` of a unit that has used its move: True when it may move on (002 §11.57
    option 1); a RuleError 11.57 when it is a charging unit outside that window; False for
    any other unit (the caller refuses it as a second move)."""
    u = game.pos.units[key]
    if not (u.charging and u.moved):
        return False
    if moving_on(game, key):
        return True
    raise RuleError("11.57", f"{key} is charging and has moved: it moves on only after an "
                    "enemy reaction move, before its brigade designates its shocks")


def move_on_options(game: GameView) -> list[Action]:
    """The ``move`` actions of charging units moving on (002 §11.57 option 1)."""
    p = game.pos
    if p.brigade is None or p.pending is not None:
        return []
    out: list[Action] = []
    for k in game.activation_units():
        if not moving_on(game, k) or not game.may_move(game.formation(k)):
            continue
        out += [{"type": "move", "unit": k, "to": game.cat.board.hexes[h].id,
                 "facing": f.to_json()} for h, f in game.destinations(k)]
    return out


def will_move_on(pos: Position, key: str) -> bool:
    """Before a move is carried out: whether it is a charging unit moving on (002
    §11.57 option 1)."""
    u = pos.units[key]
    return u.charging and u.moved and MET + key in pos.reacted


def note_move(pos: Position, board: Board, key: str, path: Sequence[tuple[Hex, Facing]], *,
              on: bool) -> list[Event]:
    """After a charging unit's move: note the states its charge path needs (the last three
    hexes entered and the state before them), counting the first move's when it moved on
    (002 §11.54, §11.57); moving on closes its window (until another reaction move)."""
    u = pos.units[key]
    if not u.charging:
        return []
    states = list(path)
    if on:
        prior = _decode(board, _noted(pos, key))
        if prior and prior[-1][0] == states[0][0]:
            states = [*prior[:-1], *states]
    entered = [i for i in range(1, len(states)) if states[i][0] != states[i - 1][0]]
    keep = states[max(0, entered[-3:][0] - 1):] if entered else states[-1:]
    text = ";".join(f"{board.hexes[h].id}/{f.kind[0]}{f.index}" for h, f in keep)
    drop = {MET + key, TRIED + key} if on else set()
    pos.reacted = [*(x for x in pos.reacted if x not in drop
                     and not x.startswith(f"{PATH}{key}=")), f"{PATH}{key}={text}"]
    if not on:
        return []
    return [Event("charge_moves_on", "11.57", {"unit": key, "to": u.hex,
                                               "mp_spent": u.mp_spent})]


def _noted(pos: Position, key: str) -> str:
    head = f"{PATH}{key}="
    return next((x[len(head):] for x in pos.reacted if x.startswith(head)), "")


def _decode(board: Board, text: str) -> list[tuple[Hex, Facing]]:
    out: list[tuple[Hex, Facing]] = []
    for part in filter(None, text.split(";")):
        hid, f = part.split("/")
        out.append((board.parse(hid),
                    Facing("vertex" if f[0] == "v" else "side", int(f[1:]))))
    return out


def _noted_path(game: GameView, key: str) -> list[tuple[Hex, Facing]]:
    return _decode(game.cat.board, _noted(game.pos, key))


def break_options(game: GameView) -> list[Action]:
    """The ``break_charge`` actions open now (002 §11.57 option 2): charging units of the
    active brigade that met a reaction move and have not tried since."""
    p = game.pos
    if p.brigade is None or p.pending is not None:
        return []
    return [{"type": "break_charge", "unit": k} for k in game.activation_units()
            if p.units[k].charging and MET + k in p.reacted and TRIED + k not in p.reacted
            and p.units[k].hex is not None]


def check_break(game: GameView, action: Action, seat: str) -> None:
    """Refuse a ``break_charge`` outside its window (002 §11.57)."""
    key = str(action.get("unit"))
    if key not in game.pos.units or game.pos.units[key].seat != seat \
            or action not in break_options(game):
        raise RuleError("11.57", f"{key} may not break off a charge now (a charging unit of "
                        "the active brigade after an enemy reaction move, once a reaction)")


def break_off(game: GameView, action: Action, seat: str) -> list[Event]:
    """002 §11.57 option 2: the charging stack's top unit takes a UDD; passed, the stack
    stops where it is, its activation over; failed, it goes on as in option 1 (those of it
    that have moved may move on, :func:`moving_on`; ending with an enemy in a front hex,
    they must shock, §11.21)."""
    check_break(game, action, seat)
    p = game.pos
    key = str(action["unit"])
    here = p.units[key].hex
    stack = [k for k, u in p.units.items() if u.hex == here and u.seat == seat and u.charging]
    first = game.dice.counter
    c = break_charge(game.dice, combatant_of(game, stack[0]))
    for k in stack:
        if c.passed:
            p.reacted = [x for x in p.reacted if x not in (MET + k, TRIED + k)]
            u = p.units[k]
            u.charging = False
            u.moves = max(u.moves, game.moves_allowed(k))
            u.fired = [*u.fired, FAILED, "phasing"]  # stopped, its activation over
        elif TRIED + k not in p.reacted:
            p.reacted = [*p.reacted, TRIED + k]
    return shock_fog.fog(game, [dice_event(game.dice.rolls_since(first)),
                                Event("break_charge", "11.57", {
                                    "unit": key, "stack": stack, "check": c.to_json(),
                                    "broken": c.passed})], seat)  # 002 §17.31


# --- counter-charge (002 §11.56) ---------------------------------------------------------


def counter_options(game: GameView) -> list[Action]:
    """Defending mounted cavalry that may counter-charge the pending charge (002 §11.56)."""
    p = game.pos.pending
    if p is None or p.get("kind") != "shock" or p.get("stage") or p.get("continued"):
        return []
    done = set(p.get("ctx", {}).get("counter_charged", [])) | set(p.get("cc_tried", []))
    out: list[Action] = []
    for k, attackers in _defenders(game):
        if k in done or k in p.get("withdrawn", []) or not attackers:
            continue
        if _counter_problem(game, k, attackers) is None:
            out.append({"type": "counter_charge", "unit": k})
    return out


def _counter_problem(game: GameView, key: str, attackers: list[str]) -> RuleError | None:
    u = game.pos.units[key]
    here = game.hex_of(u.hex)
    if here is None or u.facing is None or _class(game, key) != "mounted_cavalry":
        return RuleError("11.56", f"{key}: only mounted cavalry counter-charges")
    att = [combatant_of(game, a) for a in attackers]
    if not any(a.charging for a in att):
        return RuleError("11.56", "a counter-charge answers a charge")
    if u.blown or game.orders_of(key) not in ("attack", "advance"):
        return RuleError("11.56", f"{key}: a counter-charge needs Attack or Advance orders, "
                         "not Blown")
    if any(aspect_of(here, u.facing, a.hex) in ("flank", "rear") for a in att):
        return RuleError("11.56", f"{key} is shocked through a flank or rear")
    if {"return", "withdrawal"} & set(u.fired):
        return RuleError("11.56", f"{key} used return or withdrawal fire this activation")
    for a in att:
        step = entry_cost(game.cat.board, here, a.hex, unit_class="mounted_cavalry",
                          orders=game.orders_of(key),  # type: ignore[arg-type]
                          use_paths=False)
        if isinstance(step, RuleError) or step.half_mp > 2:
            return RuleError("11.56", f"the attacker's hex {a.hex} is closed to a charge")
    return None


# --- Blown (002 §11.58) -------------------------------------------------------------------


def blown_ma_of(game: GameView, key: str) -> int | None:
    """The MA of a Blown unit: half its printed disordered MA, rounded up; None if not
    Blown (002 §11.58)."""
    if not game.pos.units[key].blown:
        return None
    return blown_ma(game.counter(key).ma_disordered)


def mark_blown(game: GameView, key: str) -> None:
    """A unit becomes (or is again) Blown: the count of its brigade's activation ends starts
    anew (two when its own brigade is active, the end of this one and of the next)
    (002 §11.58)."""
    u = game.pos.units[key]
    u.blown = True
    u.disordered = True
    u.blown_activation = 2 if game.in_activation(key) else 1


def blown_recovery(game: GameView, brigade: str) -> list[Event]:
    """At the end of a brigade's activation: its Blown units count down; at zero the marker
    goes (the unit stays disordered) (002 §11.58, the Hampton example)."""
    ev: list[Event] = []
    for k in game.brigade_units(brigade):
        u = game.pos.units[k]
        if not u.blown:
            continue
        left = (u.blown_activation if u.blown_activation is not None else 1) - 1
        if left <= 0:
            u.blown, u.blown_activation = False, None
            ev.append(Event("blown_removed", "11.58", {"unit": k}))
        else:
            u.blown_activation = left
    return ev
