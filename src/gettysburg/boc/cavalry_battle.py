"""The optional off-map cavalry battles of Day 3 (10.0), driven by the scenario's
``cavalry_battle`` section (``boc/data/scenarios/day3.yaml``, read by
:mod:`gettysburg.boc.scenario`).

Steps, kept in :class:`CavalryBattleState` (JSON):

1. ``rolls`` - Buford's division (but Merritt) leaves the game; one die per absent
   brigade (Huey 5+, Imboden 6+, Robertson 5+, Jones 5+); done at once by
   :func:`begin_cavalry_battles`.
2. ``custer`` - if Huey stayed away the USA player may move Custer from Kilpatrick to Gregg:
   ``{"type": "cavalry_custer", "move": true|false}``.
3. ``assign`` - Stuart sends brigades against Gregg and/or Kilpatrick, one at a time:
   ``{"type": "cavalry_assign", "unit": U, "fight": "gregg"|"kilpatrick"}``, then
   ``{"type": "cavalry_assign_done"}``.
4. ``fight`` - each opposed division fights a three-round special melee with the USA
   defending (:mod:`gettysburg.boc.melee` with kind ``cavalry``): no command needed, HQs
   fight like other blocks (Stuart may attack), no forced retreat after round 3. Turns and
   casualty choices are the melee actions (``melee_fight``, ``melee_retreat`` with
   ``"to": "off"``, ``casualty``).
5. ``done`` - outcomes: the winner's surviving blocks arrive at 4 PM (CSA beating Gregg on
   the Baltimore Pike, Gregg winning on the Hanover Road, either side winning against
   Kilpatrick on the Emmitsburg Road); an unopposed division arrives at 3 PM on its road; a
   stalemate lets nobody in. Eliminated blocks count for victory points as usual (9.12).

Decisions (the text is short; German wins where the two differ):

* The fights are fought in the order of the scenario file (Gregg, then Kilpatrick).
* Blocks that retreat out of a cavalry battle, the loser's survivors, the brigades whose
  roll failed and the CSA brigades Stuart sends to neither fight take no further part
  (status ``withdrawn``). Only blocks still in the fight when it is won enter the map.
* Off the map there is no hexside, so no terrain penalty; 7.6 (cavalry -1 attacking, +1
  defending in round 1) and 7.4 (horse artillery 1 after round 1) apply, as the battle is
  a melee.
* es keeps Jenkins on the map besides Buford's division; de names only Buford. The
  scenario's ``on_map`` list (Pleasonton, Jenkins) decides, so Jenkins stays (es).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Final

from gettysburg.boc.board import Board
from gettysburg.boc.combat import Decision
from gettysburg.boc.command import Orders
from gettysburg.boc.melee import CAVALRY, Battle, MeleeState, advance, melee_act, melee_decision
from gettysburg.boc.scenario import CavalryBattle, CavalryFight, load_scenario
from gettysburg.boc.state import ELIMINATED, RESERVE, WITHDRAWN, BocState, parse_time, turn_key
from gettysburg.core.canonical import JSONDict
from gettysburg.core.dice import Dice
from gettysburg.core.protocol import Action, Event, RuleError

ROLLS: Final = "rolls"
CUSTER: Final = "custer"
ASSIGN: Final = "assign"
FIGHT: Final = "fight"
DONE: Final = "done"


def load_cavalry_battle(scenario: str = "boc/day3") -> CavalryBattle:
    """The 10.0 section of a scenario (the full battle uses Day 3's)."""
    sc = load_scenario(scenario)
    if sc.cavalry_battle is None:
        sc = load_scenario("boc/day3")
    assert sc.cavalry_battle is not None
    return sc.cavalry_battle


@dataclass
class CavalryBattleState:
    stage: str = ROLLS
    joined: list[str] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)
    groups: dict[str, list[str]] = field(default_factory=dict)  # fight -> USA blocks
    assigned: dict[str, list[str]] = field(default_factory=dict)  # fight -> CSA blocks
    current: str | None = None
    melee: JSONDict | None = None
    outcomes: dict[str, str] = field(default_factory=dict)  # fight -> usa/csa/stalemate/...

    def to_json(self) -> JSONDict:
        return asdict(self)

    @staticmethod
    def from_json(data: dict[str, Any]) -> CavalryBattleState:
        return CavalryBattleState(**data)


def _present(state: BocState, uid: str) -> bool:
    u = state.units.get(uid)
    return u is not None and u.status not in (ELIMINATED, WITHDRAWN)


def _withdraw(state: BocState, uids: list[str], why: str) -> list[Event]:
    events = []
    for uid in sorted(uids):
        u = state.units.get(uid)
        if u is None or u.status in (ELIMINATED, WITHDRAWN):
            continue
        u.status, u.hex, u.arrival_key, u.arrival_entry = WITHDRAWN, None, None, None
        events.append(Event("cavalry_withdrawn", "10.0", {"unit": uid, "side": u.side,
                                                          "why": why}))
    return events


def begin_cavalry_battles(state: BocState, cb: CavalryBattle, dice: Dice
                          ) -> tuple[CavalryBattleState, list[Event]]:
    """10.0 arrival rolls; sets up the two USA divisions' groups."""
    cs = CavalryBattleState()
    # 10.0: Buford's division leaves the game, except Merritt (who joins Kilpatrick).
    events = _withdraw(state, list(cb.withdrawn), "Buford's division leaves (10.0)")
    for r in cb.rolls:
        if not _present(state, r.unit):
            continue
        value = dice.roll(purpose=f"10.0 does {r.unit} join", rule="10.0")
        ok = value >= r.min_roll
        (cs.joined if ok else cs.absent).append(r.unit)
        # One die, marked as the protocol's event data marks dice (docs/protocol.md): a
        # client draws a made roll as it draws a hit.
        events.append(Event("cavalry_roll", "10.0", {"unit": r.unit, "side": r.side,
                                                     "dice": [value], "hit": [ok],
                                                     "needed": r.min_roll, "joins": ok}))
    events += _withdraw(state, cs.absent, "did not reach the battle (10.0 roll)")
    cs.groups = {f.name: [u for u in f.usa_group if _present(state, u)] for f in cb.fights}
    custer = cb.custer_transfer.get("unit", "")
    huey_failed = any(r.unit in cs.absent and r.side == "usa" for r in cb.rolls)
    can_move = huey_failed and any(custer in g for g in cs.groups.values())
    cs.stage = CUSTER if can_move else ASSIGN
    return cs, events


def csa_available(state: BocState, cb: CavalryBattle, cs: CavalryBattleState) -> list[str]:
    """Stuart's blocks not yet assigned: his pool plus the brigades whose roll succeeded."""
    taken = {u for us in cs.assigned.values() for u in us}
    pool = [*cb.csa_pool, *(u for u in cs.joined if state.units[u].side == "csa")]
    return [u for u in pool if _present(state, u) and u not in taken]


def cavalry_decision(board: Board, state: BocState, orders: Orders, cb: CavalryBattle,
                     cs: CavalryBattleState) -> Decision | None:
    """What the cavalry battles wait for, or None when they are over."""
    if cs.stage == CUSTER:
        return Decision("cavalry_custer", "usa",
                        [{"type": "cavalry_custer", "move": True},
                         {"type": "cavalry_custer", "move": False}], "10.0")
    if cs.stage == ASSIGN:
        opts: list[JSONDict] = [{"type": "cavalry_assign", "unit": u, "fight": f.name}
                                for u in csa_available(state, cb, cs) for f in cb.fights]
        opts.append({"type": "cavalry_assign_done"})
        return Decision("cavalry_assign", "csa", opts, "10.0")
    if cs.stage == FIGHT:
        ms = MeleeState.from_json(cs.melee)
        return melee_decision(board, state, orders, ms, "csa")
    return None


def cavalry_act(board: Board, state: BocState, orders: Orders, cb: CavalryBattle,
                cs: CavalryBattleState, seat: str, action: Action, dice: Dice) -> list[Event]:
    d = cavalry_decision(board, state, orders, cb, cs)
    if d is None:
        raise RuleError("10.0", "the cavalry battles are over")
    if seat != d.seat:
        raise RuleError("10.0", f"waiting for {d.seat}")
    if cs.stage == CUSTER:
        return _custer(state, cb, cs, bool(action.get("move")))
    if cs.stage == ASSIGN:
        return _assign(board, state, orders, cb, cs, action)
    ms = MeleeState.from_json(cs.melee)
    events = melee_act(board, state, orders, ms, seat, action, dice)
    cs.melee = ms.to_json()
    over = next((e for e in events if e.type == "melee_over"), None)
    if over is not None:
        events += _finish_fight(state, cb, cs, str(over.data["winner"]))
        events += _next_fight(board, state, orders, cb, cs)
    return events


def _custer(state: BocState, cb: CavalryBattle, cs: CavalryBattleState,
            move: bool) -> list[Event]:
    custer = cb.custer_transfer["unit"]
    if move:
        src = next(k for k, g in cs.groups.items() if custer in g)
        dst = cb.custer_transfer["to"].lower()
        cs.groups[src].remove(custer)
        cs.groups.setdefault(dst, []).append(custer)
    cs.stage = ASSIGN
    return [Event("cavalry_custer", "10.0", {"unit": custer, "moved": move})]


def _assign(board: Board, state: BocState, orders: Orders, cb: CavalryBattle,
            cs: CavalryBattleState, action: Action) -> list[Event]:
    if action.get("type") == "cavalry_assign_done":
        left = csa_available(state, cb, cs)
        events = _withdraw(state, left, "not sent against either division (10.0)")
        return events + _next_fight(board, state, orders, cb, cs)
    uid, fight = str(action.get("unit", "")), str(action.get("fight", ""))
    if uid not in csa_available(state, cb, cs) or fight not in {f.name for f in cb.fights}:
        raise RuleError("10.0", f"{uid!r} cannot be sent against {fight!r}")
    cs.assigned.setdefault(fight, []).append(uid)
    return [Event("cavalry_assign", "10.0", {"unit": uid, "fight": fight})]


def _fight_of(cb: CavalryBattle, name: str) -> CavalryFight:
    return next(f for f in cb.fights if f.name == name)


def _next_fight(board: Board, state: BocState, orders: Orders, cb: CavalryBattle,
                cs: CavalryBattleState) -> list[Event]:
    """Start the next opposed fight; settle unopposed divisions on the way."""
    events: list[Event] = []
    cs.current, cs.melee, cs.stage = None, None, FIGHT
    for f in cb.fights:
        if f.name in cs.outcomes:
            continue
        csa = [u for u in cs.assigned.get(f.name, []) if _present(state, u)]
        usa = [u for u in cs.groups.get(f.name, []) if _present(state, u)]
        if not csa:
            cs.outcomes[f.name] = "unopposed"
            events += _arrive(state, usa, f.unopposed.time, f.unopposed.entry, f.name)
            continue
        cs.current = f.name
        b = Battle(None, "csa", CAVALRY, {u: None for u in sorted(csa)}, sorted(usa))
        ms = MeleeState(battle=b)
        for uid in b.fighting():
            state.units[uid].revealed = True
        events.append(Event("cavalry_battle", "10.0", {"fight": f.name, "csa": sorted(csa),
                                                       "usa": sorted(usa)}))
        events += advance(board, state, orders, ms)
        cs.melee = ms.to_json()
        over = next((e for e in events if e.type == "melee_over"), None)
        if over is None:
            return events
        events += _finish_fight(state, cb, cs, str(over.data["winner"]))
    cs.stage = DONE
    return events


def _finish_fight(state: BocState, cb: CavalryBattle, cs: CavalryBattleState,
                  winner: str) -> list[Event]:
    assert cs.current is not None
    f = _fight_of(cb, cs.current)
    ms = MeleeState.from_json(cs.melee)
    cs.outcomes[f.name] = winner
    involved = [*cs.groups.get(f.name, []), *cs.assigned.get(f.name, [])]
    stayed = _still_fighting(ms, involved, state, winner)
    events = [Event("cavalry_result", "10.0", {"fight": f.name, "winner": winner})]
    if winner in ("usa", "csa"):
        out = f.usa_win if winner == "usa" else f.csa_win
        events += _arrive(state, stayed, out.time, out.entry, f.name)
    events += _withdraw(state, [u for u in involved if u not in stayed],
                        f"out of the {f.name} fight (10.0)")
    cs.current, cs.melee = None, None
    return events


def _still_fighting(ms: MeleeState, involved: list[str], state: BocState,
                    winner: str) -> list[str]:
    """Winners still in the fight at its end (retreated blocks are out of it)."""
    retreated = set(ms.retreated)
    return [u for u in involved if _present(state, u) and state.units[u].side == winner
            and u not in retreated]


def _arrive(state: BocState, uids: list[str], time: str, entry: str, fight: str
            ) -> list[Event]:
    key = turn_key(state.day, parse_time(time))
    events = []
    for uid in sorted(uids):
        u = state.units[uid]
        u.status, u.hex, u.arrival_key, u.arrival_entry = RESERVE, None, key, entry
        u.arrival_hex = None
        events.append(Event("cavalry_arrival", "10.0", {"unit": uid, "side": u.side,
                                                        "time": time, "entry": entry,
                                                        "fight": fight}))
    return events

