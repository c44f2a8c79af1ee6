"""The artillery barrage in the engine (004 §10.9, ``tdg.10.91``-``tdg.10.95``), through the
pure rules of :mod:`gettysburg.gbacw.barrage` and the shot machinery of
:mod:`gettysburg.gbacw.fire_action`.

Actions (the phasing seat's):

* ``{"type": "barrage"}``: on a drawn artillery AM (the marker of the formation the side's
  artillery chief commands: Hunt's Artillery Reserve), before any brigade has acted on it,
  with the chief on the map and no barrage by that side last turn, the marker becomes a
  barrage phase: no brigade activates on it (its brigades are marked done), only barrage
  fire and the end of the activation follow (tdg.10.92, tdg.10.95).
* ``{"type": "barrage_fire", "units": [batteries], "target": hex}``: batteries in the
  chief's command range, or joined to one that is by adjacent batteries (the §4.22
  exception the note names), fire together at one hex 4+ hexes from each of them, guns
  added, the worst range DRM (as combined fire, 002 §10.64); each battery fires at most
  twice in the phase; nothing moves in it (tdg.10.93). The Fire Table's ammunition results
  do not apply; after each shot every battery that fired rolls the barrage check instead:
  d10 + the activations it has used this turn, this barrage counted (tdg.10.94; a reserve
  battery activated on two artillery AMs barrages on the third at +3). A disordered battery
  cannot fire again until rallied (002 §10.61); a Confederate battery above 9 is removed.
  The hex fire limits (002 §8.31-8.33) are not lifted by tdg.10.91/10.93: each battery fires
  what ``fire_action.fire_sp`` allows from its hex, noted for the phase as in an activation;
  the declaration clears the notes the activation before left (the phase starts afresh).

Readings: the activations counted are the battery's brigade's activations this turn plus the
barrage phases it fired in (its own count, ``Position.tdg["barrage_acts"]``). Pendleton
commands no formation with a marker of its own, so his artillery AMs are a command of their
own, ``CS-Art`` (:func:`extra_commands`): while his post is on the map it draws an efficiency
marker like a corps (E-29, E-30), its AMs are the marker plus the post's efficiency rating,
1 to 3 (:func:`chief_ams`), it takes no part in transfers (``kinds.ARTILLERY_COMMANDS``), and a
``CS-Art`` marker drawn when no barrage is possible is idle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError, dice_event

from .barrage import (
    MIN_RANGE,
    SHOTS,
    barrage_batteries,
    barrage_check,
    check_declare,
    check_shot,
    check_target,
)
from .charts import all_charts
from .fire import check_may_fire, in_fire_arc
from .fire_action import (
    FIRED_FROM,
    FirePlan,
    apply_shot,
    firer_of,
    note_fired_from,
    plan_at,
    present_sp,
    roll_shot,
    shot_events,
)
from .los import line_of_sight
from .state import marker_parts

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame

ACTIONS = ("barrage", "barrage_fire")
#: each side's artillery chief's post (004 §4.3, §4.35): after the Alexander swap the
#: Pendleton counter's post is Alexander's (Position.acting), so the post is the key
CHIEFS: dict[str, tuple[str, ...]] = {"usa": ("hunt",), "csa": ("pendleton",)}
#: the Confederate chief's artillery AMs: he commands no formation with a marker of its own,
#: so his AMs are a command of their own, drawn like a corps' (E-29, E-30)
CSA_ARTILLERY = "CS-Art"
ARTILLERY = ("art", "horse_art")


# --- the barrage phase's state ---------------------------------------------------------------
def _stamp(game: GbacwGame) -> str:
    """This drawn marker, told apart from another draw of the same marker (the pool only
    shrinks within a turn)."""
    p = game.pos
    return f"{p.turn}:{p.current}:{len(p.pool)}"


def active(game: GbacwGame) -> bool:
    """Whether the current activation marker is a barrage phase (004 §10.92)."""
    b = game.pos.tdg.get("barrage")
    return isinstance(b, dict) and game.pos.current is not None and b.get("stamp") == _stamp(game)


def tidy(game: GbacwGame) -> None:
    """Forget a barrage phase once its marker is over (so the save holds only a live one)
    (004 §10.92)."""
    if "barrage" in game.pos.tdg and not active(game):
        del game.pos.tdg["barrage"]


def chief(game: GbacwGame, seat: str) -> str | None:
    """The side's artillery chief on the map, if any (004 §4.3, §4.35)."""
    for ld in CHIEFS.get(seat, ()):
        if game.leader_hex(ld) is not None:
            return ld
    return None


def extra_commands(game: GbacwGame, seat: str) -> list[tuple[str, list[str]]]:
    """Commands that draw an efficiency marker besides the corps and divisions: Pendleton's
    artillery AMs while his post is on the map (004 §4.35-4.36, E-29)."""
    if seat == "csa" and game.leader_hex(CHIEFS["csa"][0]) is not None:
        return [(CSA_ARTILLERY, [CSA_ARTILLERY])]
    return []


def extra_divisions(game: GbacwGame, seat: str) -> list[str]:
    """Their markers' "divisions" (the pool's marker ids, 002 §5.3)."""
    return [d for _, divs in extra_commands(game, seat) for d in divs]


def chief_ams(game: GbacwGame, seat: str, em: int) -> int:
    """004 §4.35-4.36 (E-29): the chief's marker plus his efficiency rating, 1 to 3."""
    from .efficiency import artillery_ams

    leader = CHIEFS[seat][0]
    return artillery_ams(em, int(game.cat.rating(leader, "efficiency")),
                         all_charts().efficiency_pools.artillery_am_cap.value)


def artillery_command(game: GbacwGame, seat: str) -> str | None:
    """The formation whose marker is the side's artillery AM: the one its chief commands,
    when it draws markers of its own (Hunt's Artillery Reserve), or the chief's own AMs
    (Pendleton's) (004 §4.3, §4.35, §10.92; E-29)."""
    if CSA_ARTILLERY in extra_divisions(game, seat):
        return CSA_ARTILLERY
    for ld in CHIEFS.get(seat, ()):
        command = game.cat.leader_command.get(ld)
        if command is not None and command in game.divisions(seat):
            return command
    return None


def _am_kind(game: GbacwGame, seat: str) -> str:
    p = game.pos
    if p.current is None:
        return "none"
    mseat, division = marker_parts(p.current)
    if mseat != seat or division is None:
        return "other"
    return "artillery" if division == artillery_command(game, seat) else "other"


def _last_turn(game: GbacwGame, seat: str) -> int | None:
    last = game.pos.tdg.get("barrage_turn", {})
    got = last.get(seat) if isinstance(last, dict) else None
    return None if got is None else int(got)


def declare_problem(game: GbacwGame, seat: str) -> RuleError | None:
    """Why ``seat`` may not declare a barrage now (None: it may) (004 §10.92, §10.95)."""
    p = game.pos
    if p.current is None or p.pending is not None or p.phase not in ("orders_change", "action"):
        return RuleError("tdg.10.92", "a barrage is declared on a drawn artillery AM")
    if marker_parts(p.current)[0] != seat:
        return RuleError("tdg.10.92", "the drawn marker is not yours")
    if active(game):
        return RuleError("tdg.10.92", "this marker is already a barrage phase")
    if p.brigade is not None or p.done_brigades:
        return RuleError("tdg.10.92", "a brigade has acted on this marker: the barrage is "
                         "declared when the artillery AM is drawn")
    try:
        check_declare(_am_kind(game, seat), chief(game, seat) is not None, p.turn,
                      _last_turn(game, seat))
    except RuleError as exc:
        return exc
    if not eligible(game, seat):
        return RuleError("tdg.10.92", "no battery is in the artillery chief's range")
    return None


def declare_options(game: GbacwGame, seat: str) -> list[Action]:
    """The barrage declaration, when the drawn artillery AM allows one (004 §10.92, §10.95)."""
    return [{"type": "barrage"}] if declare_problem(game, seat) is None else []


def declare(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """tdg.10.92: the drawn artillery AM becomes a barrage phase."""
    problem = declare_problem(game, seat)
    if problem is not None:
        raise problem
    p = game.pos
    _, division = marker_parts(str(p.current))
    p.done_brigades = sorted({*p.done_brigades, *(n for n, b in p.brigades.items()
                                                   if b.division == division)})
    p.phase = "action"
    p.tdg["barrage"] = {"seat": seat, "stamp": _stamp(game), "shots": {}}
    for u in p.units.values():  # 002 §8.31: the hex limits start afresh with the phase
        if any(x.startswith(FIRED_FROM) for x in u.fired):
            u.fired = [x for x in u.fired if not x.startswith(FIRED_FROM)]
    turns = dict(p.tdg.get("barrage_turn", {}))
    turns[seat] = p.turn
    p.tdg["barrage_turn"] = turns
    leader = chief(game, seat)
    return [Event("barrage", "tdg.10.92", {"seat": seat, "marker": p.current,
                                           "chief": leader,
                                           "batteries": eligible(game, seat)})]


# --- barrage fire ---------------------------------------------------------------------------
def _batteries(game: GbacwGame, seat: str) -> dict[str, Hex]:
    out: dict[str, Hex] = {}
    for k, u in sorted(game.pos.units.items()):
        if u.seat != seat or u.routed or game.counter(k).arm not in ARTILLERY:
            continue
        h = game.hex_of(u.hex)
        if h is not None and present_sp(game, k) > 0:
            out[k] = h
    return out


def eligible(game: GbacwGame, seat: str) -> list[str]:
    """tdg.10.92: the batteries that may take part (in the chief's range or linked to one
    that is by adjacent batteries)."""
    memo = ("barrage_eligible", seat)
    if memo in game._memo:
        return list(game._memo[memo])
    leader = chief(game, seat)
    at = game.leader_hex(leader)
    if leader is None or at is None:
        return []
    reach = int(game.cat.rating(leader, "command_range", 4))
    got = barrage_batteries(at, reach, _batteries(game, seat))
    game._memo[memo] = list(got)
    return got


def _shots(game: GbacwGame) -> dict[str, int]:
    b = game.pos.tdg.get("barrage", {})
    return {str(k): int(v) for k, v in dict(b.get("shots", {})).items()}


def check_fire(game: GbacwGame, action: Action, seat: str) -> FirePlan:
    """Validate a barrage shot (changes nothing): the plan of the combined shot
    (004 §10.91-10.93)."""
    if not active(game) or game.pos.tdg["barrage"].get("seat") != seat:
        raise RuleError("tdg.10.92", "no barrage phase of yours is under way")
    units = [str(x) for x in action.get("units") or []]
    if not units or len(set(units)) != len(units):
        raise RuleError("tdg.10.93", "name each firing battery once")
    target = game.cat.board.parse(str(action.get("target")))
    check_target([game.cat.board.hexes[target].id])
    ok = eligible(game, seat)
    shots = _shots(game)
    plans: list[FirePlan] = []
    for k in units:
        u = game.pos.units.get(k)
        if u is None or u.seat != seat:
            raise RuleError("tdg.10.92", f"{k!r} is not one of your batteries")
        if game.counter(k).arm not in ARTILLERY:
            raise RuleError("tdg.10.91", f"{k} is not a battery")
        firer = firer_of(game, k, phasing=True)
        check_shot(k, firer.hex.distance(target), False, shots.get(k, 0), ok)
        check_may_fire(firer, "phasing")  # March orders, disorder, no ammunition (10.61)
        plans.append(plan_at(game, firer, target, seat))
    first = plans[0]
    if len(plans) == 1:
        return first
    light = all_charts().turn_track.turns()[game.pos.turn].light
    ranges = all_charts().range
    drm = min(ranges.drm(pl.firer.weapon, pl.shot.hexes, light)[0] for pl in plans)
    return FirePlan(first.firer, target, sum(pl.sp for pl in plans), first.shot,
                    range_drm=drm, units=tuple(pl.firer.unit for pl in plans), over=first.over)


PER_BATTERY = 3  # targets listed per battery (the nearest; the check takes any)


def fire_options(game: GbacwGame, seat: str) -> list[Action]:
    """Each battery able to fire with its nearest hexes it may barrage (up to
    :data:`PER_BATTERY`, nearest first), and at each such hex all the batteries listed for it
    together. Any other legal target or grouping is accepted by the check; the list is kept
    short because each candidate costs a full fire check (range, arc, sight) (004 §10.93)."""
    memo = ("barrage_options", seat, _stamp(game))
    if memo in game._memo:
        return [dict(a) for a in game._memo[memo]]
    board = game.cat.board
    light = all_charts().turn_track.turns()[game.pos.turn].light
    ranges = all_charts().range
    enemies = sorted(game.enemy_hexes(seat), key=lambda x: (x.q, x.r))
    shots = _shots(game)
    occupied = {h for v in game.pos.units.values() if (h := game.hex_of(v.hex)) is not None}
    friends = {h for v in game.pos.units.values()
               if v.seat == seat and (h := game.hex_of(v.hex)) is not None}
    by_target: dict[Hex, list[str]] = {}
    for k in eligible(game, seat):
        u = game.pos.units[k]
        here = game.hex_of(u.hex)
        if here is None or u.facing is None or u.disordered or shots.get(k, 0) >= SHOTS:
            continue
        try:
            reach = ranges.max_range(game.counter(k).weapon, light)
        except ValueError:
            continue
        near = sorted((h for h in enemies if MIN_RANGE <= here.distance(h) <= reach
                       and in_fire_arc(here, u.facing, h, u.refused)),
                      key=lambda h: (here.distance(h), h.q, h.r))
        hits = 0
        for h in near:
            if hits >= PER_BATTERY:
                break
            if not line_of_sight(board, here, h, blockers=occupied - {here, h},
                                 friends=friends, fire="shell").clear:
                continue  # a cheap look first, as fire.check_target looks (shell at 4+)
            try:
                check_fire(game, {"type": "barrage_fire", "units": [k],
                                  "target": board.hexes[h].id}, seat)
            except RuleError:
                continue
            by_target.setdefault(h, []).append(k)
            hits += 1
    out: list[Action] = []
    for h, ks in sorted(by_target.items(), key=lambda x: (x[0].q, x[0].r)):
        out += [{"type": "barrage_fire", "units": [k], "target": board.hexes[h].id} for k in ks]
        if len(ks) > 1:
            out.append({"type": "barrage_fire", "units": list(ks), "target": board.hexes[h].id})
    game._memo[memo] = [dict(a) for a in out]
    return out


def _acts(game: GbacwGame) -> dict[str, int]:
    got: Any = game.pos.tdg.get("barrage_acts", {})
    if not isinstance(got, dict) or got.get("turn") != game.pos.turn:
        return {}
    return {str(k): int(v) for k, v in dict(got.get("units", {})).items()}


def activations_used(game: GbacwGame, key: str) -> int:
    """tdg.10.94's DRM for a battery barraging now: its brigade's activations this turn and
    the barrage phases it has fired in, this one included."""
    brigade = game.pos.brigades.get(game.formation(key))
    done = brigade.activations if brigade is not None else 0
    return done + _acts(game).get(key, 0)


def fire(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Roll a barrage shot, apply it, then each battery's barrage check (tdg.10.93-10.94)."""
    plan = check_fire(game, action, seat)
    p = game.pos
    shooters = plan.shooters
    acts = _acts(game)
    shots = _shots(game)
    for k in shooters:
        if shots.get(k, 0) == 0:  # the first shot of this phase: one more activation used
            acts[k] = acts.get(k, 0) + 1
        shots[k] = shots.get(k, 0) + 1
    p.tdg["barrage_acts"] = {"turn": p.turn, "units": dict(sorted(acts.items()))}
    p.tdg["barrage"] = {**p.tdg["barrage"], "shots": dict(sorted(shots.items()))}
    done = roll_shot(game, plan)
    ev = shot_events(game, done)
    ev[0].data["barrage"] = True
    ev[0].data["barrage_rule"] = "tdg.10.93"
    note_fired_from(game, plan, phase=True)  # 002 §8.31 holds over the phase too
    apply_shot(game, done)
    for k in shooters:  # tdg.10.94, instead of the Fire Table's ammunition results
        used = activations_used(game, k)
        first = game.dice.counter
        roll = game.dice.roll(f"barrage check {k}", "tdg.10.94", die="d10")
        result = barrage_check(seat, roll, used)  # type: ignore[arg-type]
        u = p.units[k]
        if result == "disordered":
            u.disordered = True
        elif result == "removed":
            u.disordered = True
            u.lost = game.counter(k).sp  # off the map for good (the engine's sweep)
        ev += [dice_event(game.dice.rolls_since(first)),
               Event("barrage_check", "tdg.10.94", {"unit": k, "roll": roll, "drm": used,
                                                    "total": roll + used, "result": result})]
    return ev


def check(game: GbacwGame, action: Action, seat: str) -> None:
    """The engine's check of any action during a barrage phase, and of the barrage's own
    (004 §10.92-10.93)."""
    kind = action.get("type")
    if kind == "barrage":
        problem = declare_problem(game, seat)
        if problem is not None:
            raise problem
    elif kind == "barrage_fire":
        check_fire(game, action, seat)
    elif active(game) and game.pos.pending is None and kind != "end_activation":
        raise RuleError("tdg.10.93", "in a barrage phase the batteries only fire (and "
                        "nothing moves): barrage fire or the end of the activation")


def options(game: GbacwGame, seat: str) -> list[Action]:
    """The barrage phase's legal list (the caller adds the end of the activation) (004 §10.93)."""
    return fire_options(game, seat)


__all__ = ["ACTIONS", "SHOTS", "active", "check", "declare", "declare_options", "eligible",
           "fire", "options", "tidy"]
