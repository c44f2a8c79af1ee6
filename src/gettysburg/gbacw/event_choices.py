"""The Random Events table's choices in the engine (004 §18.0, rule ``tdg.18.0``): the
letters whose effect waits on a player's pick become one decision, ``Position.pending``
``{"kind": "event_choice", "letter", "roller", "chooser", "seat"}`` (``seat`` is the chooser's
opponent, as for every pending decision, so ``to_move()`` names the chooser). The draw from
the pool stops until it is answered, then goes on (game.py).

Letters and their choice (the roller chooses, K's is his opponent's):

- B: one of his brigades in play (not in Reserve, not Finished) acts at once, outside the
  AMs; optional (``event_pass``). The activation itself is the engine's (battle_book_step's
  ``event_brigade``: the marker of its division, or March, activating that brigade only).
- D: one of his groups due this turn with no unit on yet waits a turn (compulsory).
- E: an enemy leader within 4 hexes of one of his infantry units and in its sight; a d10,
  odd kills him (optional).
- G: a group due this turn or next enters by the area numbered one above or below
  (optional; hidden from the enemy until the units come on).
- H: the Confederates' entry area (1 or 2) for Imboden's command, next turn (optional;
  :mod:`imboden`).
- K: the opponent moves up to two combat units of either side, not on March orders, up to
  3 hexes each, facing kept, without MP, fatigue or AM (two steps: the unit, then its hex).
- L: one of his brigadiers rated U on the map is drunk (compulsory; :mod:`drunk`).
- N: an enemy unit within 3 hexes of his combat units; a d10 above its cohesion routs it
  (compulsory).
- O: one of his routed units comes back within a hex of its brigadier (optional).
- Q: one of his cavalry brigades with no enemy combat unit within 2 hexes leaves play
  (compulsory; Buford's division not before 2 July).

A compulsory letter with one candidate is applied at once; a letter with none is no event
(004 §18.0: an event that cannot apply is ignored).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError

from . import drunk, imboden, random_events, results_step
from .charts import all_charts
from .kinds import unit_class
from .movement import entry_cost
from .state import other

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame

RULE = "tdg.18.0"
KIND = "event_choice"
CHOICE, MOVE, PASS = "event_choice", "event_move", "event_pass"
ACTION_KINDS = (CHOICE, MOVE, PASS)
LETTERS = ("B", "D", "E", "G", "H", "K", "L", "N", "O", "Q")
OPTIONAL = frozenset("BEGHKO")
BUFORD = "US-1/Cav"  # Buford's division (Q: not before 2 July)
K_UNITS, K_HEXES = 2, 3


def pending(game: GbacwGame) -> dict[str, Any] | None:
    """The Random Events choice waiting in ``Position.pending``, or None (004 §18.0)."""
    got = game.pos.pending
    return got if got is not None and got.get("kind") == KIND else None


# --- candidates ----------------------------------------------------------------------------------
def _hex(game: GbacwGame, key: str) -> Hex | None:
    return game.hex_of(game.pos.units[key].hex)


def _standing(game: GbacwGame, seat: str) -> list[str]:
    """The seat's combat units on the map (not routed, not eliminated)."""
    return [k for k, u in sorted(game.pos.units.items())
            if u.seat == seat and u.hex is not None and not game.gone(k)]


def _date(game: GbacwGame) -> dt.date:
    return all_charts().turn_track.turns()[game.pos.turn].date


def _not_entered(game: GbacwGame, index: int) -> bool:
    counters = set(game.scen.arrivals[index].counters)
    return not any(u.counter in counters and u.hex is not None for u in game.pos.units.values())


def due_groups(game: GbacwGame, seat: str) -> list[int]:
    """D: the seat's groups due this turn none of whose units has come on yet (004 §18.0 D)."""
    p = game.pos
    return [i for i in sorted(p.arrived) if game.scen.arrivals[i].seat == seat
            and p.arrived_on.get(str(i)) == p.turn and _not_entered(game, i)]


def _area_of(game: GbacwGame, hex_id: str) -> int | None:
    info = game.cat.board.hexes.get(game.cat.board.parse(hex_id))
    return None if info is None else info.entry


def _area_hex(game: GbacwGame, area: int) -> str | None:
    return next((info.id for info in game.cat.board.hexes.values() if info.entry == area), None)


def shift_choices(game: GbacwGame, seat: str) -> list[str]:
    """G: ``"<group index>@<area>"`` for the seat's groups due this turn (none on yet) or
    next turn, to the entry area one number above or below theirs (004 §18.0 G)."""
    p = game.pos
    out: list[str] = []
    for i, arr in enumerate(game.scen.arrivals):
        if arr.seat != seat:
            continue
        if i in p.arrived:
            if p.arrived_on.get(str(i)) != p.turn or not _not_entered(game, i):
                continue
            hex_id = str(p.entries.get(str(i), arr.hex))
        elif arr.turn == p.turn + 1 or str(i) in p.tdg.get("delayed", {}):
            hex_id = arr.hex
        else:
            continue
        area = _area_of(game, hex_id)
        if area is None:
            continue
        for new in (area - 1, area + 1):
            if _area_hex(game, new) is not None:
                random_events.shift_area(area, new)
                out.append(f"{i}@{new}")
    return out


def sniper_targets(game: GbacwGame, seat: str) -> list[str]:
    """E: enemy leaders on the map within 4 hexes of one of the seat's infantry units that
    sees them (004 §18.0 E)."""
    p = game.pos
    foot = [h for k in _standing(game, seat)
            if unit_class(game.counter(k)) == "infantry" and (h := _hex(game, k)) is not None]
    out = []
    for ld, where in sorted(p.leaders.items()):
        h = game.hex_of(where)
        if h is None or p.leader_seat.get(ld) == seat:
            continue
        if any(f.distance(h) <= 4 and (f == h or game._sight(f, h)) for f in foot):
            out.append(ld)
    return out


def panic_targets(game: GbacwGame, seat: str) -> list[str]:
    """N: enemy units on the map within 3 hexes of one of the seat's combat units (004 §18.0 N)."""
    mine = [h for k in _standing(game, seat) if (h := _hex(game, k)) is not None]
    return [k for k in _standing(game, other(seat))
            if (h := _hex(game, k)) is not None and any(h.distance(m) <= 3 for m in mine)]


def routed_units(game: GbacwGame, seat: str) -> list[str]:
    """O: the seat's routed units in their Division box that have a hex to come back to
    (004 §18.0 O)."""
    out = []
    for k, u in sorted(game.pos.units.items()):
        if u.seat != seat or not u.routed or u.hex is not None \
                or u.lost >= game.counter(k).sp:
            continue
        if results_step._return_hex(game, k, results_step._mounted_counter(game, k)) is not None:
            out.append(k)
    return out


def _cavalry(game: GbacwGame, brigade: str) -> bool:
    units = game.brigade_units(brigade)
    return bool(units) and all(game.counter(k).arm == "cav" for k in units)


def scouting_brigades(game: GbacwGame, seat: str) -> list[str]:
    """Q: the seat's cavalry brigades on the map with no enemy combat unit within 2 hexes
    of any of their units (Buford's not before 2 July) (004 §18.0 Q)."""
    p = game.pos
    enemy = [h for k in _standing(game, other(seat))
             if (h := _hex(game, k)) is not None]
    out = []
    for n, b in sorted(p.brigades.items()):
        if b.seat != seat or not _cavalry(game, n):
            continue
        hexes = [h for k in game.brigade_units(n) if not game.gone(k)
                 and (h := _hex(game, k)) is not None]
        if not hexes or any(e.distance(h) <= 2 for e in enemy for h in hexes):
            continue
        try:
            random_events.check_scouting(n, True, False, b.division == BUFORD, _date(game))
        except RuleError:
            continue
        out.append(n)
    return out


def activation_brigades(game: GbacwGame, seat: str) -> list[str]:
    """B: the seat's brigades in play, not in Reserve and not Finished (A) this turn
    (004 §18.0 B)."""
    p = game.pos
    got = p.tdg.get("finished")
    done = got.get("brigades", []) if isinstance(got, dict) and got.get("turn") == p.turn \
        else []
    return [n for n, b in sorted(p.brigades.items())
            if b.seat == seat and not b.reserve and n not in done and game.in_play(n)
            and any(game.on_map(k) for k in game.brigade_units(n))]


def imboden_areas(game: GbacwGame, roller: str) -> list[str]:
    """H: the Confederates' entry areas for Imboden (1 or 2, tdg.14.77), where his rule is
    in the scenario and his command is not in play yet."""
    allowed = random_events.imboden_areas(roller)  # type: ignore[arg-type]
    if not allowed or not imboden.in_play(game) or imboden.arrived(game):
        return []
    return [str(a) for a in imboden.areas(game) if a in allowed]


def k_units(game: GbacwGame, moved: list[str]) -> list[str]:
    """K: combat units of either side on the map, not on March orders, not extended in a
    line or column (they move as a whole only: a reading), not moved by this event yet,
    with somewhere to go (004 §18.0 K)."""
    out = []
    for k, u in sorted(game.pos.units.items()):
        if u.hex is None or game.gone(k) or k in moved or u.extension is not None \
                or game.orders_of(k) == "march":
            continue
        if k_destinations(game, k):
            out.append(k)
    return out


def k_destinations(game: GbacwGame, key: str) -> list[Hex]:
    """K: the hexes a unit may be moved to: up to 3 hexes by steps its class may take (the
    Terrain chart's prohibited ground and hexsides barred), never into or through a hex of
    its enemy, ending where no other unit stands (no stacking: a reading) (004 §18.0 K)."""
    memo = ("event_k", key)
    if memo in game._memo:
        return list(game._memo[memo])
    p = game.pos
    start = _hex(game, key)
    out: list[Hex] = []
    if start is not None:
        board = game.cat.board
        cls = unit_class(game.counter(key))
        orders: Any = game.orders_of(key)
        seat = p.units[key].seat
        enemy = game.enemy_hexes(seat)
        taken = {h for k, u in p.units.items() if k != key and (h := game.hex_of(u.hex))}
        seen = {start}
        frontier = [start]
        for _ in range(K_HEXES):
            nxt: list[Hex] = []
            for h in frontier:
                for n in sorted(h.neighbours(), key=lambda x: (x.q, x.r)):
                    if n in seen or n not in board.hexes or n in enemy:
                        continue
                    step = entry_cost(board, h, n, unit_class=cls, orders=orders)
                    if isinstance(step, RuleError):
                        continue
                    seen.add(n)
                    nxt.append(n)
                    if n not in taken and step.may_end:
                        out.append(n)
            frontier = nxt
    game._memo[memo] = out
    return list(out)


def candidates(game: GbacwGame, letter: str, roller: str) -> list[str]:
    """The ids the chooser may pick for ``letter`` (empty: the event cannot apply)
    (004 §18.0: B, D, E, G, K, N, O, Q)."""
    if letter == "B":
        return activation_brigades(game, roller)
    if letter == "D":
        return [str(i) for i in due_groups(game, roller)]
    if letter == "E":
        return sniper_targets(game, roller)
    if letter == "G":
        return shift_choices(game, roller)
    if letter == "H":
        return imboden_areas(game, roller)
    if letter == "K":
        return k_units(game, [])
    if letter == "L":
        return drunk.candidates(game, roller)
    if letter == "N":
        return panic_targets(game, roller)
    if letter == "O":
        return routed_units(game, roller)
    if letter == "Q":
        return scouting_brigades(game, roller)
    raise KeyError(letter)


# --- the decision ----------------------------------------------------------------------------
def open_choice(game: GbacwGame, letter: str, roller: str) -> tuple[dict[str, Any], list[Event]]:
    """Start the letter's decision (or apply it at once when compulsory with one candidate,
    or announce that nothing can apply). Returns the ``random_event`` fields and events.
    (004 §18.0)."""
    chooser = other(roller) if letter == "K" else roller
    cands = candidates(game, letter, roller)
    if not cands:
        return {"applied": False, "needs": "nothing it can apply to"}, [
            Event("random_event_effect", RULE, {"letter": letter, "none": "nothing it can "
                                                "apply to"})]
    if letter not in OPTIONAL and len(cands) == 1:
        ev, _ = _apply(game, letter, roller, cands[0])
        return {"applied": True}, ev
    game.pos.pending = {"kind": KIND, "letter": letter, "roller": roller, "chooser": chooser,
                        "seat": other(chooser)}
    if letter == "K":
        game.pos.pending["moved"] = []
    game.pos.phase = "action"
    return {"applied": "pending", "chooser": chooser}, []


def options(game: GbacwGame) -> list[Action]:
    """The chooser's answers to the waiting Random Events choice: the letter's candidates, a pass
    where the letter is optional, K's moves (004 §18.0)."""
    pend = pending(game)
    if pend is None:
        return []
    letter = str(pend["letter"])
    out: list[Action]
    if letter == "K" and pend.get("unit") is not None:
        key = str(pend["unit"])
        out = [{"type": MOVE, "unit": key, "to": game.cat.board.hexes[h].id}
               for h in k_destinations(game, key)]
    elif letter == "K":
        out = [{"type": CHOICE, "letter": "K", "choice": k}
               for k in k_units(game, list(pend.get("moved", [])))]
    else:
        out = [{"type": CHOICE, "letter": letter, "choice": c}
               for c in candidates(game, letter, str(pend["roller"]))]
    if letter in OPTIONAL:
        out.append({"type": PASS})
    return out


def check(game: GbacwGame, action: Action, seat: str) -> None:
    """Refuse an answer that is not the chooser's, not one of the letter's candidates or not a legal
    K move (004 §18.0)."""
    pend = pending(game)
    if pend is None:
        raise RuleError(RULE, "no random event waits for a choice")
    if seat != pend["chooser"]:
        raise RuleError(RULE, f"random event {pend['letter']} is {pend['chooser']}'s choice")
    kind = action["type"]
    if kind not in ACTION_KINDS:
        raise RuleError(RULE, f"random event {pend['letter']} waits for its choice first")
    if kind == PASS:
        if pend["letter"] not in OPTIONAL:
            raise RuleError(RULE, f"random event {pend['letter']} must be applied")
        return
    if action not in options(game):
        what = "destination" if kind == MOVE else "choice"
        raise RuleError(RULE, f"{action.get('choice', action.get('to'))!r} is not a "
                        f"{what} random event {pend['letter']} allows now")


def answer(game: GbacwGame, action: Action, seat: str) -> tuple[list[Event], str | None]:
    """Carry out the checked answer. Returns the events and, for B, the brigade to
    activate (the caller activates it); the pending decision is cleared when the letter is
    done (004 §18.0)."""
    pend = pending(game)
    assert pend is not None  # checked
    letter, roller = str(pend["letter"]), str(pend["roller"])
    kind = action["type"]
    if kind == PASS:
        game.pos.pending = None
        return [Event("random_event_effect", RULE, {"letter": letter, "passed": seat})], None
    if letter == "K":
        return _k_step(game, pend, action), None
    game.pos.pending = None
    return _apply(game, letter, roller, str(action["choice"]))


def _effect(letter: str, visible_to: tuple[str, ...] | None = None, **data: Any) -> Event:
    if visible_to is None:
        return Event("random_event_effect", RULE, {"letter": letter, **data})
    return Event("random_event_effect", RULE, {"letter": letter, **data},
                 visible_to=visible_to, redacted={"letter": letter})


def _apply(game: GbacwGame, letter: str, roller: str, choice: str,
           ) -> tuple[list[Event], str | None]:
    p = game.pos
    if letter == "B":
        return [_effect("B", brigade=choice)], choice
    if letter == "D":
        i = int(choice)
        arr = game.scen.arrivals[i]
        random_events.delay_group([str(j) for j in due_groups(game, roller)], [], choice)
        p.arrived.remove(i)
        p.entries.pop(str(i), None)
        p.arrived_on.pop(str(i), None)
        delayed = dict(p.tdg.get("delayed", {}))
        delayed[str(i)] = p.turn + 1
        p.tdg["delayed"] = delayed
        return [_effect("D", (roller,), group=arr.id, turn=p.turn + 1)], None
    if letter == "E":
        roll = game.dice.roll("random event E: the sniper", RULE, die="d10")
        where = p.leaders[choice]
        h = game.hex_of(where)
        assert h is not None  # a candidate stands on the map
        killed = random_events.sniper(0, True, roll)
        ev = [_effect("E", leader=choice, roll=roll, killed=killed)]
        if killed:
            p.leaders[choice] = None  # replaced in IV/B like any fallen leader (002 §12.74)
            ev.append(Event("leader_killed", RULE, {"leader": choice, "hex": where}))
        return ev, None
    if letter == "G":
        index, _, area = choice.partition("@")
        i, new = int(index), int(area)
        hex_id = _area_hex(game, new)
        assert hex_id is not None  # checked
        if i in p.arrived:
            p.entries[str(i)] = hex_id
        else:
            shifts = dict(p.tdg.get("shifted", {}))
            shifts[str(i)] = hex_id
            p.tdg["shifted"] = shifts
        arr = game.scen.arrivals[i]
        return [_effect("G", (roller,), group=arr.id, area=new, hex=hex_id)], None
    if letter == "H":
        return imboden.bring(game, int(choice)), None
    if letter == "L":
        return drunk.make_drunk(game, choice, roller), None
    if letter == "N":
        c = game.counter(choice)
        u = p.units[choice]
        cohesion = c.cohesion_disordered if u.disordered else c.cohesion
        roll = game.dice.roll("random event N: panic", RULE, die="d10")
        h = _hex(game, choice)
        mine = [m for k in _standing(game, roller) if (m := _hex(game, k)) is not None]
        distance = min(h.distance(m) for m in mine) if h is not None and mine else 0
        routed = random_events.panic(distance, cohesion, roll)
        ev = [_effect("N", unit=choice, roll=roll, cohesion=cohesion, routed=routed)]
        if routed:
            u.routed = True
            game._memo.clear()
            ev += results_step.routs(game, [choice], set())
        return ev, None
    if letter == "O":
        counter = results_step._mounted_counter(game, choice)
        spot = results_step._return_hex(game, choice, counter)
        assert spot is not None  # a candidate has one
        u = p.units[choice]
        u.counter = counter
        u.hex, u.facing = game.cat.board.hexes[spot[0]].id, spot[1]
        u.routed, u.disordered = False, True
        return [_effect("O", unit=choice, hex=u.hex)], None
    if letter == "Q":
        gone = [k for k in game.brigade_units(choice) if not game.gone(k)]
        removed = sorted(set(p.tdg.get("removed", [])) | set(gone))
        p.tdg["removed"] = removed
        for k in gone:
            p.units[k].hex, p.units[k].facing = None, None
            p.units[k].extension, p.units[k].extends = None, []
        # the brigadier rides off with them: out of play, not fallen (lasting.removed is
        # read by end_segment.note_fallen), so no replacement and no loss
        ld = game.cat.brigade_leader.get(choice)
        left = [] if ld is None or p.leaders.get(ld) is None else [ld]
        if left:
            p.leaders[left[0]] = None
            p.tdg["removed"] = sorted({*p.tdg["removed"], *left})
        return [_effect("Q", brigade=choice, units=gone, leaders=left)], None
    raise KeyError(letter)


def _k_step(game: GbacwGame, pend: dict[str, Any], action: Action) -> list[Event]:
    """K: the unit picked (first step) or moved (second); after the second unit, done."""
    if action["type"] == CHOICE:
        pend["unit"] = str(action["choice"])
        return []
    p = game.pos
    key = str(action["unit"])
    u = p.units[key]
    frm = u.hex
    u.hex, u.stack = str(action["to"]), 0
    # a unit moved off its works stops building them (002 §15.14: moving interrupts)
    p.constructions = [c for c in p.constructions if c.get("unit") != key]
    moved = [*pend.get("moved", []), key]
    pend["moved"], pend["unit"] = moved, None
    game._memo.clear()
    ev = [Event("random_event_effect", RULE, {"letter": "K", "unit": key, "from": frm,
                                              "to": u.hex})]
    if len(moved) >= K_UNITS or not k_units(game, moved):
        p.pending = None
    return ev
