"""The battle book's rules in the engine (seed 004, ``tdg.*``): the Random Events table's
effects (004 §18.0) applied when the marker is drawn, and the lasting effects the other steps
ask about (a brigade Finished, heavy rain, Lee paralysed, A.P. Hill indisposed).

The letter comes from :func:`random_events.draw_event` (``steps._random_event``); here
:func:`apply_event` turns it into the game's change and events. Lasting effects live in
``Position.tdg`` (saved only when not empty):

- ``finished``: {"turn", "brigades"}: A's brigades that may not be activated again this turn;
- ``last``: {"turn", "brigade"}: the brigade whose activation ended last (for A);
- ``rain``: {"from", "to"}: M's turns (track indices, both included);
- ``lee``: {"from", "to"}: S's turns;
- ``hill``: R's outcome, {"on_map", "delay"} or {"on_map", "from", "to"};
- ``warren``: {"turn", "brigade", "active"} once Warren has been called (004 §14.5);
- ``event_b``: {"brigade", "active"}: B's brigade while its marker lasts;
- ``jinx`` / ``jinx_shot``: J's sides owing a jinxed battery / the shot being resolved;
- ``delayed`` / ``shifted``: D's held-back groups (index -> turn) and G's entry for a group
  due next turn (index -> hex): not in either seat's view, like all of ``tdg``;
- ``removed``: Q's units out of play (``removed``, read by ``gone``).

The letters that need a player's pick (B, D, E, G, H, K, L, N, O, Q) are one decision of
:mod:`event_choices`. P gives its Hero marker (``heroes``: seat -> count); the markers are
played at the UDDs themselves (``lasting.hero_play``, decision E-33).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gettysburg.core.protocol import Action, Event, RuleError

from . import barrage_step, drunk, event_choices, random_events
from .charts import all_charts
from .cup import uniform_index
from .kinds import unit_class
from .lasting import HERO_POLICIES, hero_policy
from .lasting import jinx_drm as jinx_drm
from .lasting import jinx_roll as jinx_roll
from .lasting import removed as removed
from .random_events import Draw
from .state import division_marker, march_marker, marker_parts
from .tdg_leaders import MAX_ACTIVATIONS, check_warren

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame

RULE = "tdg.18.0"

# letters the engine cannot apply yet: what each one still needs (a player's choice)
NEEDS: dict[str, str] = {}


def _on(game: GbacwGame) -> bool:
    return "random_events" in game.setup.options


def _span(game: GbacwGame, key: str) -> tuple[int, int] | None:
    got = game.pos.tdg.get(key)
    if not isinstance(got, dict) or "from" not in got:
        return None
    return int(got["from"]), int(got["to"])


def _active(game: GbacwGame, key: str) -> bool:
    span = _span(game, key)
    return span is not None and span[0] <= game.pos.turn <= span[1]


# --- questions the other steps ask ----------------------------------------------------------------
def note_brigade(game: GbacwGame, brigade: str) -> None:
    """004 §18.0 A needs the brigade activated last this turn: noted when its activation
    ends (only under the option, so games without it keep their saves unchanged)."""
    if _on(game):
        game.pos.tdg["last"] = {"turn": game.pos.turn, "brigade": brigade}


def finished(game: GbacwGame, brigade: str) -> bool:
    """004 §18.0 A: the brigade is Finished for this turn (no further activation)."""
    got = game.pos.tdg.get("finished")
    return (isinstance(got, dict) and got.get("turn") == game.pos.turn
            and brigade in got.get("brigades", []))


def rain_ma(game: GbacwGame, ma: int) -> int:
    """004 §18.0 M: while the rain lasts every unit's MA is halved, rounded down."""
    if not _active(game, "rain"):
        return ma
    return random_events.Rain(1).ma(ma)


def rain_fire_drm(game: GbacwGame) -> int:
    """004 §18.0 M: the fire DRM while it rains (0 otherwise); for the fire code."""
    return random_events.Rain(1).fire_drm if _active(game, "rain") else 0


def rain_rally_drm(game: GbacwGame) -> int:
    """004 §18.0 M: the rally DRM while it rains (0 otherwise); for the rally code."""
    return random_events.Rain(1).rally_drm if _active(game, "rain") else 0


def rain_fatigue(game: GbacwGame, levels: int) -> int:
    """004 §18.0 M: while it rains every activation that counts for fatigue adds a level."""
    return max(levels, 1) if _active(game, "rain") else levels


def no_rain_recovery(game: GbacwGame, brigade: str, kept: int, events: list[Event],
                     ) -> list[Event]:
    """004 §18.0 M: no fatigue recovery while it rains: a level the end segment took off
    ``brigade`` (``kept`` before it) is put back, and its fatigue event dropped."""
    b = game.pos.brigades[brigade]
    if not _active(game, "rain") or b.fatigue >= kept:
        return events
    b.fatigue = kept
    return [e for e in events if not (e.type == "fatigue" and e.data.get("brigade") == brigade)]


def lee_paralysed(game: GbacwGame, seat: str) -> bool:
    """004 §18.0 S: during the two turns after the event, the Confederate OC's initiative
    rating counts 0 and the Confederates may not transfer efficiency."""
    return seat == "csa" and _active(game, "lee")


# --- the effects --------------------------------------------------------------------------------
def apply_event(game: GbacwGame, draw: Draw) -> tuple[dict[str, Any], list[Event]]:
    """004 §18.0: apply the drawn letter. Returns the fields to add to the ``random_event``
    event (``applied``, and ``needs`` when the engine leaves it to the players) and the
    events of the effect itself."""
    letter = draw.letter
    if letter is None or draw.seat is None:
        return {}, []
    eff = random_events.EFFECTS[letter]
    base: dict[str, Any] = {"kind": eff.kind, "chooser": eff.chooser}
    if letter in NEEDS:
        return {**base, "applied": False, "needs": NEEDS[letter]}, []
    if letter in event_choices.LETTERS:  # a player's choice first (event_choices.py)
        fields, got = event_choices.open_choice(game, letter, draw.seat)
        return {**base, **fields}, got
    ev = {"A": _finish_last, "C": _flashman, "F": _remove_two, "I": _lose_gun, "J": _jinx,
          "M": _rain, "P": _hero, "R": _hill, "S": _lee}[letter](game, draw.seat)
    data = ev[-1].data
    if data.get("none"):
        return {**base, "applied": False, "needs": data["none"]}, ev
    if data.get("not_applied"):  # recorded; some of its effect is left to the players
        return {**base, "applied": "partial" if data.get("applied_parts") else False,
                "needs": ", ".join(data["not_applied"])}, ev
    return {**base, "applied": True}, ev


def _effect(letter: str, **data: Any) -> Event:
    return Event("random_event_effect", RULE, {"letter": letter, **data})


def _finish_last(game: GbacwGame, seat: str) -> list[Event]:
    """A: the brigade activated last this turn is Finished (whichever side it is)."""
    p = game.pos
    last = p.tdg.get("last")
    brigade = last.get("brigade") if isinstance(last, dict) and last.get("turn") == p.turn \
        else None
    if brigade is None:
        return [_effect("A", none="no brigade has been activated this turn")]
    got = p.tdg.get("finished")
    done = list(got["brigades"]) if isinstance(got, dict) and got.get("turn") == p.turn else []
    if brigade not in done:
        done.append(brigade)
    p.tdg["finished"] = {"turn": p.turn, "brigades": done}
    return [_effect("A", brigade=brigade)]


def _lose_gun(game: GbacwGame, seat: str) -> list[Event]:
    """I: the roller's next battery to move loses a gun (applied by :func:`after_action`)."""
    owed = list(game.pos.tdg.get("lose_gun", []))
    owed.append(seat)
    game.pos.tdg["lose_gun"] = owed
    return [_effect("I", seat=seat, waits="the next battery of this side to move")]


MOVE_KINDS = ("move", "move_stack", "withdrawal_move", "react_move")


def after_action(game: GbacwGame, action: Action) -> list[Event]:
    """After every action: the jinxed battery's gun (J), A.P. Hill kept off the map while
    his entry is delayed (R), and the gun lost by a side's next battery to move (I).
    (004 §18.0 I, J, R)."""
    if not game.pos.tdg:
        return []
    return _jinx_gun(game) + _hill_kept_off(game) + _moved_gun(game, action)


def _jinx_gun(game: GbacwGame) -> list[Event]:
    """004 §18.0 J: the jinxed shot done, its battery loses the gun an even roll cost."""
    shot = game.pos.tdg.pop("jinx_shot", None)
    if not isinstance(shot, dict) or not shot.get("guns"):
        return []
    key = str(shot["unit"])
    u = game.pos.units[key]
    u.lost = min(game.counter(key).sp, u.lost + int(shot["guns"]))
    game._memo.clear()
    return [Event("random_event_gun", RULE, {"letter": "J", "unit": key,
                                              "guns": game.counter(key).sp - u.lost})]


def _hill_kept_off(game: GbacwGame) -> list[Event]:
    """004 §18.0 R: Hill does not come on with his group's units before his delayed turn."""
    p = game.pos
    got = p.tdg.get("hill")
    if not isinstance(got, dict) or got.get("on_map") or p.turn >= int(got.get("until", 0)) \
            or p.leaders.get(HILL) is None:
        return []
    p.leaders[HILL] = None
    return [_effect("R", leader=HILL, kept_off_until=int(got["until"]))]


def _moved_gun(game: GbacwGame, action: Action) -> list[Event]:
    """004 §18.0 I: when a battery of a side that owes a gun moves, it loses one (a one-gun
    section so is eliminated, as any loss of its last SP)."""
    owed = game.pos.tdg.get("lose_gun")
    if not owed or action.get("type") not in MOVE_KINDS:
        return []
    key = str(action.get("unit"))
    u = game.pos.units.get(key)
    if u is None or u.seat not in owed or unit_class(game.counter(key)) != "artillery":
        return []
    left = list(owed)
    left.remove(u.seat)
    if left:
        game.pos.tdg["lose_gun"] = left
    else:
        del game.pos.tdg["lose_gun"]
    before = game.counter(key).sp - u.lost
    u.lost += before - random_events.lose_gun(before)
    game._memo.clear()
    return [Event("random_event_gun", RULE, {"letter": "I", "unit": key,
                                              "guns": game.counter(key).sp - u.lost})]


def _uniform(game: GbacwGame, n: int, purpose: str) -> int:
    return uniform_index(game.dice, n, purpose, RULE)


def _remove_two(game: GbacwGame, seat: str) -> list[Event]:
    """F: two markers taken at random from the pool are set aside for the turn (fewer when
    fewer are left); set aside in the open, so both seats see which."""
    p = game.pos
    removed = [p.pool.pop(_uniform(game, len(p.pool), "random event F: marker set aside"))
               for _ in range(min(2, len(p.pool)))]
    if not removed:
        return [_effect("F", none="the pool is empty")]
    return [_effect("F", removed=removed)]


def _rain(game: GbacwGame, seat: str) -> list[Event]:
    """M: heavy rain for half a d10 turns (at least 1), this turn included."""
    rain = random_events.heavy_rain(game.dice.roll("random event M: turns of rain", RULE,
                                                   die="d10"))
    t = game.pos.turn
    game.pos.tdg["rain"] = {"from": t, "to": t + rain.turns - 1}
    return [_effect("M", turns=rain.turns, last_turn=t + rain.turns - 1,
                    applied_parts=["ma", "fatigue", "no fatigue recovery"],
                    not_applied=["fire", "rally"])]


HILL = "hill-ap"  # the OOB's id for A.P. Hill


def _hill(game: GbacwGame, seat: str) -> list[Event]:
    """R: A.P. Hill on the map is indisposed for 3 turns (this one included): his post is
    held by his counter's back (the OOB's replacement, ``Position.acting``) until then. Off
    the map his entry is put back 1 (odd d10) or 2 (even) turns, counted from his group's
    turn (or this one, if it is due already): he is kept off the map until then
    (:func:`after_action`) and comes on with a unit of his corps (:func:`begin_turn`)."""
    p = game.pos
    if HILL not in p.leaders or HILL in p.dead or HILL in p.fallen:
        return [_effect("R", none="A.P. Hill is not in play")]
    on_map = p.leaders.get(HILL) is not None
    roll = 0 if on_map else game.dice.roll("random event R: Hill's delay", RULE, die="d10")
    out = random_events.hill(on_map, roll)
    if on_map:
        chain = game.cat.oob.replacement_chain(HILL)
        stand_in = chain[1] if len(chain) > 1 else HILL
        p.tdg["hill"] = {"on_map": True, "from": p.turn, "to": p.turn + out.replaced_turns - 1,
                         "stand_in": stand_in, "was": p.acting.get(HILL)}
        p.acting[HILL] = stand_in
        game._memo.clear()
        return [_effect("R", leader=HILL, on_map=True, stand_in=stand_in,
                        replaced_turns=out.replaced_turns,
                        last_turn=p.turn + out.replaced_turns - 1)]
    due = [a.turn for a in game.scen.arrivals if HILL in a.leaders]
    until = max([p.turn, *due[:1]]) + out.delay
    p.tdg["hill"] = {"on_map": False, "delay": out.delay, "until": until}
    return [_effect("R", leader=HILL, on_map=False, roll=roll, delay=out.delay,
                    first_turn=until)]


def _hero(game: GbacwGame, seat: str) -> list[Event]:
    """P: the roller takes a Hero marker (he may hold several). Kept in ``tdg["heroes"]``;
    one is played, by the holder's standing policy, at a UDD it turns (``lasting.hero_play``:
    a shift of 2 in his favour, one marker per roll; decision E-33)."""
    heroes = dict(game.pos.tdg.get("heroes", {}))
    heroes[seat] = int(heroes.get(seat, 0)) + 1
    game.pos.tdg["heroes"] = heroes
    # the policy stays out: the enemy sees this event (E-33)
    return [_effect("P", seat=seat, held=heroes[seat])]


def holds_hero(game: GbacwGame, seat: str) -> int:
    """004 §18.0 P: how many Hero markers the seat holds."""
    return int(game.pos.tdg.get("heroes", {}).get(seat, 0))


def _flashman(game: GbacwGame, seat: str) -> list[Event]:
    """C: 004's own note lets the players treat this fantasy event as no effect; the engine
    does (decision E-32)."""
    return [_effect("C", no_effect="004 §18.0 C's note: treated as no effect")]


def _jinx(game: GbacwGame, seat: str) -> list[Event]:
    """J: the roller's next battery to fire is jinxed (:func:`jinx_roll` at that shot)."""
    owed = list(game.pos.tdg.get("jinx", []))
    owed.append(seat)
    game.pos.tdg["jinx"] = owed
    return [_effect("J", seat=seat, waits="the next battery of this side to fire")]


def _lee(game: GbacwGame, seat: str) -> list[Event]:
    """S: Lee's initiative 0 and no Confederate efficiency transfer for the next two turns."""
    t = game.pos.turn
    game.pos.tdg["lee"] = {"from": t + 1, "to": t + 2}
    return [_effect("S", first_turn=t + 1, last_turn=t + 2,
                    applied_parts=["initiative", "transfer"])]


# --- tdg.14.5 Warren ------------------------------------------------------------------------------
WARREN_RULE = "tdg.14.5"


def warren_in_play(game: GbacwGame) -> bool:
    """004 §14.5: the scenario lists Warren's rule among its special rules."""
    scen = game.scen.scenario
    return scen is not None and any(r.id == "warren" for r in scen.special_rules)


def warren_active(game: GbacwGame) -> bool:
    """The marker in play is the Warren phase's (its brigade is the only one it activates)
    (004 §14.5)."""
    got = game.pos.tdg.get("warren")
    return isinstance(got, dict) and bool(got.get("active"))


def warren_excludes(game: GbacwGame, brigade: str) -> bool:
    """004 §14.5: during the Warren phase only the chosen brigade is activated; so too
    during random event B's activation (004 §18.0)."""
    for key in ("warren", "event_b"):
        got = game.pos.tdg.get(key)
        if isinstance(got, dict) and got.get("active") and got.get("brigade") != brigade:
            return True
    return False


def warren_cap(game: GbacwGame, brigade: str, cap: int) -> int:
    """004 §14.5: Warren's brigade acts beyond its division's AMs, up to a 4th activation.
    004 §18.0 B: the event's brigade acts whatever its efficiency (no cap at all)."""
    got = game.pos.tdg.get("event_b")
    if isinstance(got, dict) and got.get("active") and got.get("brigade") == brigade:
        return game.pos.brigades[brigade].activations + 1
    got = game.pos.tdg.get("warren")
    if isinstance(got, dict) and got.get("active") and got.get("brigade") == brigade:
        return MAX_ACTIVATIONS
    return cap


def _warren_problem(game: GbacwGame, brigade: str, seat: str) -> RuleError | None:
    p = game.pos
    if not warren_in_play(game):
        return RuleError(WARREN_RULE, "Warren is not in play in this scenario")
    if p.current is None or marker_parts(p.current)[0] != "usa" or p.brigade is not None \
            or p.pending is not None or p.phase != "action":
        return RuleError(WARREN_RULE, "the Warren phase is called as a Union activation ends")
    b = p.brigades.get(brigade)
    if b is None or b.seat != "usa" or not game.in_play(brigade) or b.reserve:
        return RuleError(WARREN_RULE, f"{brigade!r} is not a Union brigade in play")
    if finished(game, brigade):
        return RuleError("tdg.18.0", f"{brigade} is Finished this turn (random event A)")
    date = all_charts().turn_track.turns()[p.turn].date
    try:
        check_warren(seat, date, "warren" in p.tdg, b.activations)  # type: ignore[arg-type]
    except RuleError as err:
        return err
    return None


def warren_options(game: GbacwGame, seat: str) -> list[Action]:
    """004 §14.5 (E-16): once in the game, from 2 July, as one of its activations ends the
    Union may call Warren to activate one brigade at once (offered beside ``end_activation``:
    the engine's reading is that the Union calls him when one of its own activations ends)."""
    p = game.pos
    if seat != "usa" or "warren" in p.tdg or not warren_in_play(game) or p.phase != "action":
        return []
    return [{"type": "warren", "brigade": n} for n in sorted(p.brigades)
            if _warren_problem(game, n, seat) is None]


def check_warren_call(game: GbacwGame, action: Action, seat: str) -> None:
    """Refuse a Warren phase the Union may not call now or for that brigade (004 §14.5)."""
    err = _warren_problem(game, str(action["brigade"]), seat)
    if err is not None:
        raise err


def call_warren(game: GbacwGame, brigade: str) -> tuple[list[Event], str]:
    """004 §14.5: the Union's marker ends (its brigades that have not acted lose it) and the
    chosen brigade is activated by itself, with no fatigue for what it does; used once.
    Returns the events and the marker the engine then activates (``_activate_marker``)."""
    p = game.pos
    b = p.brigades[brigade]
    ended = p.current
    p.tdg["warren"] = {"turn": p.turn, "brigade": brigade, "active": True}
    marker = march_marker("usa") if b.orders == "march" or b.division is None else \
        division_marker("usa", b.division)
    ev = [Event("marker_done", "5.5", {"marker": ended}),
          Event("warren", WARREN_RULE, {"brigade": brigade, "marker": marker})]
    return ev, marker


def warren_over(game: GbacwGame) -> None:
    """The Warren phase's marker (or random event B's) has ended: the draw goes on
    (004 §14.5; §18.0 B)."""
    got = game.pos.tdg.get("warren")
    if isinstance(got, dict) and got.get("active"):
        game.pos.tdg["warren"] = {k: v for k, v in got.items() if k != "active"}
    game.pos.tdg.pop("event_b", None)


# --- 004 §18.0: the choices' hooks in the engine ------------------------------------------------
def choosing(game: GbacwGame) -> bool:
    """A random event waits for a player's choice: the draw from the pool stops (004 §18.0)."""
    return event_choices.pending(game) is not None


def answer_event(game: GbacwGame, action: Action, seat: str) -> tuple[list[Event], str | None]:
    """A random event's choice answered (event_choices.answer). Returns the events and the
    marker to activate for B (its brigade alone, outside the AMs; its activation counts
    for fatigue as any other) (004 §18.0)."""
    ev, brigade = event_choices.answer(game, action, seat)
    if brigade is None:
        return ev, None
    b = game.pos.brigades[brigade]
    game.pos.tdg["event_b"] = {"brigade": brigade, "active": True}
    marker = march_marker(b.seat) if b.orders == "march" or b.division is None else \
        division_marker(b.seat, b.division)
    return ev, marker


def begin_turn(game: GbacwGame) -> list[Event]:
    """At a turn's start, after the reinforcements due: D's held-back groups come now, G's
    shifted entry for a group due next turn is written, A.P. Hill (R) comes back from his
    indisposition or on the map after his delay (004 §18.0 D, G, R)."""
    p = game.pos
    if not p.tdg:
        return []
    ev: list[Event] = []
    delayed = dict(p.tdg.get("delayed", {}))
    for index, turn in sorted(delayed.items()):
        if int(turn) > p.turn:
            continue
        del delayed[index]
        i = int(index)
        arr = game.scen.arrivals[i]
        if i not in p.arrived:
            p.arrived.append(i)
            p.entries[index] = arr.hex
            p.arrived_on[index] = p.turn
            ev.append(Event("reinforcements", "tdg.18.0", {"group": arr.id, "seat": arr.seat,
                                                           "hex": arr.hex, "letter": "D"},
                            visible_to=(arr.seat,)))
    if delayed:
        p.tdg["delayed"] = delayed
    else:
        p.tdg.pop("delayed", None)
    shifted = dict(p.tdg.get("shifted", {}))
    for index, hex_id in sorted(shifted.items()):
        if int(index) in p.arrived:
            p.entries[index] = str(hex_id)
            del shifted[index]
    if shifted:
        p.tdg["shifted"] = shifted
    else:
        p.tdg.pop("shifted", None)
    return ev + _hill_turn(game) + drunk.sober(game)


def _hill_turn(game: GbacwGame) -> list[Event]:
    p = game.pos
    got = p.tdg.get("hill")
    if not isinstance(got, dict):
        return []
    if got.get("on_map"):
        if p.turn <= int(got["to"]) or got.get("over"):
            return []
        if p.acting.get(HILL) == got.get("stand_in"):
            if got.get("was") is None:
                del p.acting[HILL]
            else:
                p.acting[HILL] = str(got["was"])
        p.tdg["hill"] = {**got, "over": True}
        game._memo.clear()
        return [_effect("R", leader=HILL, recovered=True)]
    if p.turn < int(got.get("until", 0)) or p.leaders.get(HILL) is not None \
            or HILL in p.dead or HILL in p.fallen or got.get("over"):
        return []
    corps = game.cat.leader_command.get(HILL)
    spot = next((u.hex for k, u in sorted(p.units.items()) if u.hex is not None
                 and not game.gone(k) and p.brigades[game.formation(k)].corps == corps), None)
    if spot is None:  # none of his corps on the map yet: he comes with its first unit
        return []
    p.leaders[HILL] = spot
    p.tdg["hill"] = {**got, "over": True}
    return [_effect("R", leader=HILL, enters=spot)]


# --- P: the Hero marker's standing policy (decision E-33) --------------------------------------
def _hero_policy_problem(game: GbacwGame, seat: str) -> str | None:
    p = game.pos
    if holds_hero(game, seat) < 1:
        return f"{seat} holds no Hero marker"
    if p.phase != "action" or p.pending is not None or barrage_step.active(game):
        return "the Hero policy is set in the action phase, between decisions"
    return None


def hero_options(game: GbacwGame, seat: str) -> list[Action]:
    """004 §18.0 P (E-33): a holder of Hero markers may change when they are played (the
    policies other than his present one)."""
    if _hero_policy_problem(game, seat) is not None:
        return []
    now = hero_policy(game, seat)
    return [{"type": "hero_policy", "use": u} for u in HERO_POLICIES if u != now]


def check_hero_policy(game: GbacwGame, action: Action, seat: str) -> None:
    """Refuse a Hero policy the seat may not set now, or one not offered (004 §18.0 P)."""
    err = _hero_policy_problem(game, seat)
    if err is not None:
        raise RuleError(RULE, err)
    if action["use"] not in HERO_POLICIES:
        raise RuleError(RULE, f"use must be one of {', '.join(HERO_POLICIES)}, "
                        f"not {action['use']!r}")


def set_hero_policy(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """004 §18.0 P: record the seat's policy (``tdg["hero_policy"]``; seen by that seat only)."""
    got = dict(game.pos.tdg.get("hero_policy", {}))
    got[seat] = str(action["use"])
    game.pos.tdg["hero_policy"] = got
    return [Event("random_event_effect", RULE,
                  {"letter": "P", "seat": seat, "policy": got[seat],
                   "held": holds_hero(game, seat)}, visible_to=(seat,))]
