"""The GBACW position: every piece of rule state that shapes the future, as plain data with
its JSON form (002 §2, digest §C).

A *unit* is keyed by its OOB counter id with the cavalry mode dropped (``US-Cav:7 MI Cav``);
its ``counter`` names the counter on the map (the mounted or dismounted twin, 002 §14).
Leaders, brigades (orders, Reserve, fatigue, activations), divisions (AMs), corps (EM) and
the turn's progress (segment and phase, initiative, the AM pool, the active marker and
brigade) sit beside them. The OOB's sides "union"/"confederate" become the seats "usa"/"csa"
here and nowhere else (:data:`SEAT_OF_SIDE`).
"""

from __future__ import annotations

import copy
from dataclasses import MISSING, dataclass, field, fields
from operator import attrgetter
from typing import Any

from gettysburg.core.canonical import JSONDict
from gettysburg.core.protocol import Seat
from gettysburg.gbacw.facing import Facing

#: The one place the OOB's side names meet the engine's seats.
SEAT_OF_SIDE: dict[str, Seat] = {"union": "usa", "confederate": "csa"}
SIDE_OF_SEAT: dict[Seat, str] = {v: k for k, v in SEAT_OF_SIDE.items()}
SEATS: tuple[Seat, Seat] = ("usa", "csa")
ORDERS: tuple[str, ...] = ("march", "advance", "attack")
_MODES = (":mounted", ":dismounted")


def other(seat: Seat) -> Seat:
    """The other seat: the enemy of every rule that speaks of a side's opponent (non-phasing fire,
    002 §10.4; shock, §11)."""
    return SEATS[1] if seat == SEATS[0] else SEATS[0]


def unit_key(counter_id: str) -> str:
    """The unit a counter shows: its id without the cavalry mode (002 §14)."""
    for mode in _MODES:
        if counter_id.endswith(mode):
            return counter_id[: -len(mode)]
    return counter_id


def march_marker(seat: Seat) -> str:
    """The id of a side's March activation marker in the pool (002 §5.35)."""
    return f"{seat}/march"


def division_marker(seat: Seat, division: str) -> str:
    """The id of a division's activation marker in the pool (002 §5.3)."""
    return f"{seat}/{division}"


def marker_parts(marker: str) -> tuple[Seat, str | None]:
    """``(seat, division)`` of an activation marker; ``None`` for the March AM (002 §5.28)."""
    seat, _, rest = marker.partition("/")
    return seat, None if rest == "march" else rest


@dataclass
class UnitState:
    counter: str
    seat: Seat
    hex: str | None  # None: not (yet) on the map
    facing: Facing | None
    disordered: bool = False
    moves: int = 0  # moves made in the current activation marker (March AM: up to 4, §5.35)
    lost: int = 0  # SP (guns) lost: a scenario's PL-n, fire and shock (002 §12.13)
    # for fire and shock (issue 53; defaults keep older saves loading)
    collapsed: bool = False  # 002 §12.23
    routed: bool = False  # 002 §12.53: off the map, in its division's box
    ammo: str = "none"  # "none", "low" or "out" (002 §10.69)
    fired: list[str] = field(default_factory=list)  # fire kinds used this activation (§10.31)
    mp_spent: int = 0  # MP spent this activation (§10.33: a free turn spends none)
    blown: bool = False  # 002 §11.58
    blown_activation: int | None = None
    abandoned: str | None = None  # "abandoned-1" / "abandoned-2" (002 §12.8)
    charging: bool = False  # 002 §11.21
    moved: bool = False  # moved this phase (§11.43)
    # formations (issue 52, formation_step.py): an extended line or column (002 §8.4,
    # §8.5) holds the counter's hex plus ``extends`` (hex ids: a line's flank hexes, a
    # column's trail from the lead backwards); ``refused`` the flanks refused (§7.3);
    # ``formation_mp`` the MP spent this activation on those changes before moving
    extension: str | None = None  # None, "line" or "column"
    extends: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # "left" / "right"
    formation_mp: int = 0
    stack: int = 0  # place in its hex's stack, lowest on top (002 §8.23; formation_step.py)
    remounted: bool = False  # mounted or dismounted this activation (002 §14.22, mounting.py)
    # a column whose orders turned to Advance may form line free before it spends MP in
    # its next activation (002 §7.26, formation_step.on_orders)
    form_free: bool = False

    def to_json(self) -> JSONDict:
        return {"counter": self.counter, "seat": self.seat, "hex": self.hex,
                "facing": None if self.facing is None else self.facing.to_json(),
                "disordered": self.disordered, "moves": self.moves, "lost": self.lost,
                "collapsed": self.collapsed, "routed": self.routed, "ammo": self.ammo,
                "fired": list(self.fired), "mp_spent": self.mp_spent, "blown": self.blown,
                "blown_activation": self.blown_activation, "abandoned": self.abandoned,
                "charging": self.charging, "moved": self.moved,
                # written only when set, so saves from before formations hash the same
                **({"extension": self.extension, "extends": list(self.extends)}
                   if self.extension is not None else {}),
                **({"refused": list(self.refused)} if self.refused else {}),
                **({"formation_mp": self.formation_mp} if self.formation_mp else {}),
                **({"stack": self.stack} if self.stack else {}),
                **({"remounted": True} if self.remounted else {}),
                **({"form_free": True} if self.form_free else {})}

    def text_key(self) -> tuple[Any, ...]:
        """Every field's value, lists copied into tuples: equal keys, equal :meth:`to_json`
        (a game keeps each unit's canonical text while its key stays the same; the state is
        hashed after every recorded action). Read through the dataclass's own field list,
        so a new field is in the key without being named here."""
        return (_UNIT_VALUES(self), *map(tuple, _UNIT_LISTS(self)))

    @staticmethod
    def from_json(d: JSONDict) -> UnitState:
        f = d["facing"]
        return UnitState(str(d["counter"]), str(d["seat"]),
                         None if d["hex"] is None else str(d["hex"]),
                         None if f is None else Facing.from_json(f),
                         bool(d["disordered"]), int(d["moves"]), int(d.get("lost", 0)),
                         bool(d.get("collapsed", False)), bool(d.get("routed", False)),
                         str(d.get("ammo", "none")), [str(x) for x in d.get("fired", [])],
                         int(d.get("mp_spent", 0)), bool(d.get("blown", False)),
                         None if d.get("blown_activation") is None
                         else int(d["blown_activation"]),
                         None if d.get("abandoned") is None else str(d["abandoned"]),
                         bool(d.get("charging", False)), bool(d.get("moved", False)),
                         None if d.get("extension") is None else str(d["extension"]),
                         [str(x) for x in d.get("extends", [])],
                         [str(x) for x in d.get("refused", [])],
                         int(d.get("formation_mp", 0)), int(d.get("stack", 0)),
                         bool(d.get("remounted", False)), bool(d.get("form_free", False)))


_UNIT_VALUES = attrgetter(*(f.name for f in fields(UnitState)))
#: the fields changed in place (lists): their contents, not the list objects, go in the key
_UNIT_LISTS = attrgetter(*(f.name for f in fields(UnitState) if f.default_factory is list))
if any(f.default_factory not in (list, MISSING) for f in fields(UnitState)):
    raise TypeError("UnitState.text_key copies list fields only: freeze the new one there")


@dataclass
class BrigadeState:
    seat: Seat
    division: str | None
    corps: str
    orders: str = "advance"  # a brigade without a marker is on Advance (002 §6.11)
    reserve: bool = False  # 002 §6.3
    fatigue: int = 0  # 002 §17 in fatigue.py's steps: 0 no marker, 1 OK, 2 "0" ... 6 "4"
    activations: int = 0  # activations used this turn (002 §17.2 counts them)
    stay: bool = False  # this activation's "Stay" result (002 §6.23)
    rolled: bool = False  # orders-change roll made this activation (002 §6.2)
    did: list[str] = field(default_factory=list)  # what its units did this activation (§17.22)
    busy: bool = False  # did more than §17.42 allows an idle brigade this turn
    tally: dict[str, Any] = field(default_factory=dict)  # fatigue.TurnTally's JSON this turn

    def to_json(self) -> JSONDict:
        return {"seat": self.seat, "division": self.division, "corps": self.corps,
                "orders": self.orders, "reserve": self.reserve, "fatigue": self.fatigue,
                "activations": self.activations, "stay": self.stay, "rolled": self.rolled,
                "did": list(self.did), "busy": self.busy, "tally": dict(self.tally)}

    @staticmethod
    def from_json(d: JSONDict) -> BrigadeState:
        div = d["division"]
        return BrigadeState(str(d["seat"]), None if div is None else str(div), str(d["corps"]),
                            str(d["orders"]), bool(d["reserve"]), int(d["fatigue"]),
                            int(d["activations"]), bool(d["stay"]), bool(d["rolled"]),
                            [str(x) for x in d["did"]], bool(d["busy"]), dict(d["tally"]))


@dataclass
class Position:
    """The whole mutable position; :meth:`to_json` is fresh JSON, never aliased."""

    turn: int  # index on the turn track (charts.turn_track.turns())
    last_turn: int
    phase: str  # sequence.PHASES
    units: dict[str, UnitState] = field(default_factory=dict)
    leaders: dict[str, str | None] = field(default_factory=dict)  # leader id -> hex
    leader_seat: dict[str, Seat] = field(default_factory=dict)
    brigades: dict[str, BrigadeState] = field(default_factory=dict)
    ams: dict[str, int] = field(default_factory=dict)  # division -> AMs this turn (§5.23)
    em: dict[str, int] = field(default_factory=dict)  # corps -> drawn EM this turn (§5.21)
    initiative: Seat | None = None  # this turn's (None: a tie, §5.11)
    last_initiative: Seat | None = None
    first_initiative: Seat | None = None  # a scenario's turn-1 initiative (§5.1)
    pool: list[str] = field(default_factory=list)  # markers, kept sorted: no order before a draw
    current: str | None = None  # the drawn (or chosen) activation marker
    brigade: str | None = None  # the active brigade
    done_brigades: list[str] = field(default_factory=list)
    coordination: str | None = None  # this AM's coordination result id (§5.34)
    orders_done: list[Seat] = field(default_factory=list)  # seats done with II/B-E
    transferred: list[Seat] = field(default_factory=list)  # §5.4: once per turn
    arrived: list[int] = field(default_factory=list)  # reinforcement lines already in
    # II/A's command status (002 §4.23), kept for the turn: "brigadiers" out of their
    # superior's range, "divisions" whose leader is out of his corps commander's, "units"
    # out of command, "no_orders" brigades whose chain does not reach the top in play
    command: dict[str, list[str]] = field(default_factory=dict)
    leaders_moved: list[str] = field(default_factory=list)  # this activation (002 §9.3)
    # IV/A commander movement (002 §9.32): seats done, half-MP each commander spent, and
    # those who spent more than 10 MP (no range, no rating, next turn)
    commanders_done: list[Seat] = field(default_factory=list)
    commander_mp: dict[str, int] = field(default_factory=dict)
    tired: list[str] = field(default_factory=list)
    control: dict[str, Seat] = field(default_factory=dict)  # victory hex -> last to enter it
    entries: dict[str, str] = field(default_factory=dict)  # arrived group -> its entry hex
    arrived_on: dict[str, int] = field(default_factory=dict)  # arrived group -> its turn
    shares: dict[str, dict[str, int]] = field(default_factory=dict)  # corps -> chosen §5.23 share
    last_held: dict[str, dict[Seat, str]] = field(default_factory=dict)  # objective -> seat -> turn
    # a decision of the defender mid-activation: a shock designated (shock_step.py, 002
    # §11.33: {"kind": "shock", "seat": the attacker, "shocks": [{"attackers", "targets"}],
    # "withdrawn": [units]}) or a phasing shot to answer (return_fire.py, 002 §10.42:
    # {"kind": "fire", "seat", "action"})
    pending: dict[str, Any] | None = None
    ci_brigades: list[str] = field(default_factory=list)  # 002 §13.22 markers (effectiveness.py)
    ci_divisions: list[str] = field(default_factory=list)  # 002 §13.31
    events_happened: list[str] = field(default_factory=list)  # random event letters (tdg.18.0)
    tdg: dict[str, Any] = field(default_factory=dict)  # battle-book effects (battle_book_step)
    reacted: list[str] = field(default_factory=list)  # reaction facing this enemy activation
    # reinforcements come on in this activation marker (002 §9.72, entry_step.py): its
    # "stamp" (turn:marker) and, per entry hex id, the half MP each unit paid to enter it
    entering: dict[str, Any] = field(default_factory=dict)
    # the end segment and engineering (end_segment.py, engineering_step.py): leaders killed
    # since the last Replacement phase, leaders out of play for good, who now holds each
    # fallen post (counter id -> the acting leader, 002 §12.74-12.76), idle brigades whose
    # owner chose the automatic rally (§13.45), construction markers and placed breastworks
    # ({"unit", "hex", "vertex", "started", "night"} / {"hex", "vertex"}, §15.1)
    fallen: list[str] = field(default_factory=list)
    dead: list[str] = field(default_factory=list)
    acting: dict[str, str] = field(default_factory=dict)
    idle_rally: list[str] = field(default_factory=list)
    constructions: list[dict[str, Any]] = field(default_factory=list)
    breastworks: list[dict[str, Any]] = field(default_factory=list)
    # orders and command (orders_step.py): brigades whose Change & Stay on the March AM holds
    # them on their division's first AM (002 §6.25); units out of command keeping the orders
    # they last had in command (§4.23, §5.36); activations each unit acted in this turn
    # (an out-of-command unit acts one time fewer than its division, §5.36)
    stay_next: list[str] = field(default_factory=list)
    unit_orders: dict[str, str] = field(default_factory=dict)
    acted: dict[str, int] = field(default_factory=dict)
    # divisional batteries attached to a brigade of their division (002 §4.32): unit -> brigade
    attached: dict[str, str] = field(default_factory=dict)
    # batteries whose attachment was set this turn: one choice a turn, in II/C (002 §4.32)
    attach_done: list[str] = field(default_factory=list)
    # what a Loose Cannon asks of each unit of its brigade this marker (002 §6.24):
    # unit -> orders.Task ("charge", "close_in", ...)
    lc_tasks: dict[str, str] = field(default_factory=dict)
    # March brigades fired on (not by shell) in the current activation: Advance at its end
    # (002 §6.26, orders_step.py)
    fired_on: list[str] = field(default_factory=list)
    # the brigades a coordination result lets act as one this marker, lead first (002 §5.34,
    # coordination.active_brigades); kept once the group is done: one group a marker
    coordinated: list[str] = field(default_factory=list)

    def to_json(self) -> JSONDict:
        head, rest = self.json_parts()
        return {**head, "units": {k: u.to_json() for k, u in sorted(self.units.items())},
                **rest}

    def json_parts(self) -> tuple[JSONDict, JSONDict]:
        """:meth:`to_json` without ``units``, as the keys before and after it (fresh JSON):
        the state hash writes the units from kept texts (``questions.state_hash``)."""
        return {"turn": self.turn, "last_turn": self.last_turn, "phase": self.phase}, {
            "leaders": dict(sorted(self.leaders.items())),
            "leader_seat": dict(sorted(self.leader_seat.items())),
            "brigades": {k: b.to_json() for k, b in sorted(self.brigades.items())},
            "ams": dict(sorted(self.ams.items())), "em": dict(sorted(self.em.items())),
            "initiative": self.initiative, "last_initiative": self.last_initiative,
            "first_initiative": self.first_initiative,
            "pool": sorted(self.pool), "current": self.current, "brigade": self.brigade,
            "done_brigades": list(self.done_brigades), "coordination": self.coordination,
            "orders_done": list(self.orders_done), "transferred": list(self.transferred),
            "arrived": list(self.arrived),
            "command": {k: sorted(v) for k, v in sorted(self.command.items())},
            "leaders_moved": list(self.leaders_moved),
            "commanders_done": list(self.commanders_done),
            "commander_mp": dict(sorted(self.commander_mp.items())),
            "tired": sorted(self.tired),
            "control": dict(sorted(self.control.items())),
            "entries": dict(sorted(self.entries.items())),
            "arrived_on": dict(sorted(self.arrived_on.items())),
            "shares": {k: dict(sorted(v.items())) for k, v in sorted(self.shares.items())},
            "last_held": {k: dict(sorted(v.items()))
                          for k, v in sorted(self.last_held.items())},
            **({} if self.pending is None else {"pending": copy.deepcopy(self.pending)}),
            **({"ci_brigades": sorted(self.ci_brigades)} if self.ci_brigades else {}),
            **({"ci_divisions": sorted(self.ci_divisions)} if self.ci_divisions else {}),
            **({"events_happened": list(self.events_happened)} if self.events_happened
               else {}),
            **({"reacted": list(self.reacted)} if self.reacted else {}),
            **({"tdg": copy.deepcopy(self.tdg)} if self.tdg else {}),
            **({"entering": copy.deepcopy(self.entering)} if self.entering else {}),
            **({"fallen": sorted(self.fallen)} if self.fallen else {}),
            **({"dead": sorted(self.dead)} if self.dead else {}),
            **({"acting": dict(sorted(self.acting.items()))} if self.acting else {}),
            **({"idle_rally": sorted(self.idle_rally)} if self.idle_rally else {}),
            **({"constructions": copy.deepcopy(self.constructions)}
               if self.constructions else {}),
            **({"breastworks": copy.deepcopy(self.breastworks)} if self.breastworks else {}),
            **({"stay_next": sorted(self.stay_next)} if self.stay_next else {}),
            **({"unit_orders": dict(sorted(self.unit_orders.items()))}
               if self.unit_orders else {}),
            **({"acted": dict(sorted(self.acted.items()))} if self.acted else {}),
            **({"attached": dict(sorted(self.attached.items()))} if self.attached else {}),
            **({"attach_done": sorted(self.attach_done)} if self.attach_done else {}),
            **({"lc_tasks": dict(sorted(self.lc_tasks.items()))} if self.lc_tasks else {}),
            **({"fired_on": sorted(self.fired_on)} if self.fired_on else {}),
            **({"coordinated": list(self.coordinated)} if self.coordinated else {})}

    @staticmethod
    def from_json(d: JSONDict) -> Position:
        def opt(v: Any) -> str | None:
            return None if v is None else str(v)

        return Position(
            turn=int(d["turn"]), last_turn=int(d["last_turn"]), phase=str(d["phase"]),
            units={str(k): UnitState.from_json(v) for k, v in d["units"].items()},
            leaders={str(k): opt(v) for k, v in d["leaders"].items()},
            leader_seat={str(k): str(v) for k, v in d["leader_seat"].items()},
            brigades={str(k): BrigadeState.from_json(v) for k, v in d["brigades"].items()},
            ams={str(k): int(v) for k, v in d["ams"].items()},
            em={str(k): int(v) for k, v in d["em"].items()},
            initiative=opt(d["initiative"]), last_initiative=opt(d["last_initiative"]),
            first_initiative=opt(d["first_initiative"]),
            pool=sorted(str(m) for m in d["pool"]), current=opt(d["current"]),
            brigade=opt(d["brigade"]), done_brigades=[str(b) for b in d["done_brigades"]],
            coordination=opt(d["coordination"]),
            orders_done=[str(s) for s in d["orders_done"]],
            transferred=[str(s) for s in d["transferred"]],
            arrived=[int(i) for i in d["arrived"]],
            command={str(k): [str(x) for x in v] for k, v in d["command"].items()},
            leaders_moved=[str(x) for x in d["leaders_moved"]],
            commanders_done=[str(x) for x in d.get("commanders_done", [])],
            commander_mp={str(k): int(v) for k, v in d.get("commander_mp", {}).items()},
            tired=[str(x) for x in d.get("tired", [])],
            control={str(k): str(v) for k, v in d.get("control", {}).items()},
            entries={str(k): str(v) for k, v in d.get("entries", {}).items()},
            arrived_on={str(k): int(v) for k, v in d.get("arrived_on", {}).items()},
            shares={str(k): {str(a): int(b) for a, b in v.items()}
                    for k, v in d.get("shares", {}).items()},
            last_held={str(k): {str(a): str(b) for a, b in v.items()}
                       for k, v in d.get("last_held", {}).items()},
            pending=None if d.get("pending") is None else copy.deepcopy(dict(d["pending"])),
            ci_brigades=[str(x) for x in d.get("ci_brigades", [])],
            ci_divisions=[str(x) for x in d.get("ci_divisions", [])],
            events_happened=[str(x) for x in d.get("events_happened", [])],
            reacted=[str(x) for x in d.get("reacted", [])],
            tdg=copy.deepcopy(dict(d.get("tdg", {}))),
            entering=copy.deepcopy(dict(d.get("entering", {}))),
            fallen=[str(x) for x in d.get("fallen", [])],
            dead=[str(x) for x in d.get("dead", [])],
            acting={str(k): str(v) for k, v in d.get("acting", {}).items()},
            idle_rally=[str(x) for x in d.get("idle_rally", [])],
            constructions=[dict(c) for c in copy.deepcopy(d.get("constructions", []))],
            breastworks=[dict(b) for b in copy.deepcopy(d.get("breastworks", []))],
            stay_next=[str(x) for x in d.get("stay_next", [])],
            unit_orders={str(k): str(v) for k, v in d.get("unit_orders", {}).items()},
            acted={str(k): int(v) for k, v in d.get("acted", {}).items()},
            attached={str(k): str(v) for k, v in d.get("attached", {}).items()},
            lc_tasks={str(k): str(v) for k, v in d.get("lc_tasks", {}).items()},
            fired_on=[str(x) for x in d.get("fired_on", [])],
            coordinated=[str(x) for x in d.get("coordinated", [])],
            attach_done=[str(x) for x in d.get("attach_done", [])])

    # --- questions -------------------------------------------------------------------------

    def units_of_brigade(self, brigade: str, formation_of: dict[str, str]) -> list[str]:
        return [k for k in sorted(self.units) if formation_of[k] == brigade]

    def occupied(self) -> dict[str, list[str]]:
        """Hex id -> the units on it (sorted), for stacking and enemy checks."""
        out: dict[str, list[str]] = {}
        for k in sorted(self.units):
            h = self.units[k].hex
            if h is not None:
                out.setdefault(h, []).append(k)
        return out
