"""Mundo Machango's campaign as a game on the core protocol.

Every refusal and event cites the digest's rule number (T, V, D, MV, TE, N, S, R, B, G-...;
``shared/spec/machango-digest.md``); the readings the seed leaves open are in
``docs/machango-decisions.md``. The phases:

* ``compose`` (D1): the USA then the CSA fills each non-cavalry division with infantry
  and artillery (``compose``: how many artillery units); the USA's stay hidden (D3).
* ``day`` (T1): each hour from 7 the USA then the CSA acts: ``move`` a division one link,
  ``attack`` an enemy-held line (a new battle, or joining one this seat began this turn,
  MV4/MV6), ``rest``, and ``end_turn``. Reinforcements arrive at the start of a side's
  turn (R1).
* ``battle`` (T2, B1-B7): after the CSA's 19:00 turn the day's battles are fought one
  after the other, move by move (:mod:`gettysburg.machango.battle_turns`: cards, orders,
  moves, fire); their losses are struck from the divisions (B4); after the third day's
  the game ends (T3).
* ``night`` (N1): CSA, USA, CSA, USA each pick one of ``recover`` (then ``restore`` /
  ``restore_skip`` per face), ``cards``, ``stealth``, ``fortify`` or ``night_pass``, and
  may move free generals first (``general``, N6).

Victory is checked after every action (V1).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from gettysburg.core.canonical import JSONDict, json_copy
from gettysburg.core.dice import Dice, normalize_seed
from gettysburg.core.protocol import (
    REFEREE,
    Action,
    Event,
    Game,
    GameSetup,
    RuleError,
    Seat,
    action_key,
    dice_event,
    resolve_dice,
)
from gettysburg.machango import battle_turns
from gettysburg.machango.battle import FACES, BattleDivision, BattleForce, BattleSetup
from gettysburg.machango.battle_fire import board_of, fire_dice
from gettysburg.machango.battle_state import begin, losses
from gettysburg.machango.board import Board, load_board
from gettysburg.machango.forces import KINDS, SIDES, Forces, load_forces
from gettysburg.machango.paths import DATA

SCENARIO_DIR = DATA / "scenarios"
FIRST_HOUR, LAST_HOUR, NIGHT_HOUR, DAYS = 7, 19, 20, 3
NIGHT_ORDER = ("csa", "usa", "csa", "usa")  # N1: two night turns, the CSA first
MP = {False: 3, True: 5}  # MV1: infantry/artillery divisions, cavalry divisions
USA_LOSSES_TO_WIN = 8  # V1
#: The fields of each action (besides ``type``), and the rule a malformed one breaks.
FIELDS: dict[str, tuple[str, ...]] = {
    "compose": ("division", "artillery"), "move": ("division", "to"),
    "attack": ("division", "target"), "rest": ("division",), "end_turn": (),
    "recover": (), "restore": ("division", "unit"), "restore_skip": (), "cards": (),
    "stealth": ("division", "to"), "fortify": ("division",), "general": ("general", "division"),
    "night_pass": ()}
FIELD_RULES = {"compose": "D1", "move": "MV1", "attack": "MV6", "rest": "MV2", "end_turn": "T1",
               "recover": "N2", "restore": "N2", "restore_skip": "N2", "cards": "N3",
               "stealth": "N4", "fortify": "N5", "general": "N6", "night_pass": "N1"}
OPTIONS = {"lrt_star": "V3 (decision): Little Round Top is a blue star in place of The Angle"}


def other(seat: Seat) -> Seat:
    return "csa" if seat == "usa" else "usa"


#: The fields a scenario file may hold (S1, S2 and the test positions' extras).
SCENARIO_FIELDS = frozenset({"id", "title", "start", "stars", "cards", "usa_units_lost",
                             "compose", "divisions", "arrivals", "generals"})


def scenario_names() -> list[str]:
    return sorted(p.stem for p in SCENARIO_DIR.glob("*.yaml"))


def read_scenario(scenario: str) -> tuple[str, dict[str, Any]]:
    """A scenario by name (``data/scenarios/<name>.yaml``) or by path to a YAML file."""
    path = SCENARIO_DIR / f"{scenario}.yaml"
    if not path.exists():
        path = Path(scenario)
        if path.suffix not in (".yaml", ".yml") or not path.exists():
            raise ValueError(f"unknown machango scenario {scenario!r}; have {scenario_names()}")
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ValueError(f"scenario {scenario!r}: cannot read: {exc}") from exc
    if not isinstance(raw, dict):
        raise ValueError(f"scenario {scenario!r}: expected a mapping")
    unknown = sorted(str(k) for k in raw if k not in SCENARIO_FIELDS)
    if unknown:  # a file written for another system, or a misspelt field
        raise ValueError(f"scenario {scenario!r}: unknown field(s) {unknown}; a Machango "
                         f"scenario has {sorted(SCENARIO_FIELDS)}")
    return path.stem, raw


class MachangoGame(Game):
    """The campaign; its constructor is also the registered factory."""

    system = "machango"

    def __init__(self, scenario: str = "campaign", options: Sequence[str] = (),
                 seed: int | str = 0, dice: Dice | None = None) -> None:
        for opt in options:
            if opt not in OPTIONS:
                raise ValueError(f"unknown machango option {opt!r}; have {sorted(OPTIONS)}")
        _, raw = read_scenario(scenario)
        super().__init__(GameSetup(self.system, scenario, tuple(options), normalize_seed(seed)),
                         resolve_dice(seed, dice))
        self._setup_from(raw, list(options))
        self.record(Event("setup", "S1", {"scenario": scenario, "title": raw.get("title", "")}))

    # --- data ------------------------------------------------------------------------------

    @property
    def board(self) -> Board:
        return load_board()

    @property
    def forces(self) -> Forces:
        return load_forces()

    def _setup_from(self, raw: dict[str, Any], options: list[str]) -> None:
        f, b = self.forces, self.board
        stars = list(b.stars)
        if "lrt_star" in options:
            stars = [b.star_option["by"] if s == b.star_option["replaces"] else s for s in stars]
        start = raw.get("start") or {}
        self.day, self.hour = int(start.get("day", 1)), int(start.get("hour", FIRST_HOUR))
        self.phase = str(start.get("phase", "compose"))
        self.active: Seat = str(start.get("active", "usa"))
        self.night_step = int(start.get("night_step", 0))
        if self.phase not in ("compose", "day", "night"):
            raise ValueError("scenario: field 'start.phase' must be compose, day or night")
        if self.active not in SIDES:
            raise ValueError(f"scenario: field 'start.active' must be one of {list(SIDES)}")
        if not (1 <= self.day <= DAYS and FIRST_HOUR <= self.hour <= NIGHT_HOUR
                and 0 <= self.night_step < len(NIGHT_ORDER)):
            raise ValueError("scenario: field 'start': day 1-3, hour 7-20, night_step 0-3 (T1)")
        for star, side in (raw.get("stars") or {}).items():
            if star not in stars or side not in SIDES:
                raise ValueError(f"scenario: field 'stars': {star!r}: {side!r} is not a star "
                                 "held by usa or csa (V3)")
        self.stars: dict[str, str] = {s: "usa" for s in stars}  # V3
        self.stars.update({k: str(v) for k, v in (raw.get("stars") or {}).items()})
        self.cards = dict(f.cards)
        self.cards.update({k: int(v) for k, v in (raw.get("cards") or {}).items()})
        self.card_gained = {s: False for s in SIDES}
        self.usa_lost = int(raw.get("usa_units_lost", 0))
        self.winner: str | None = None
        self.reason = ""
        self.battles: list[JSONDict] = []
        self.pending_faces: list[str] = []
        self.next_battle = 1
        self.fight: JSONDict | None = None  # the battle being fought (phase "battle")
        self.divisions: dict[str, JSONDict] = {}
        for did, d in f.divisions.items():
            self.divisions[did] = {
                "side": d.side, "at": d.start, "status": "board" if d.start else "waiting",
                "units": None, "standard": False, "bangs": 0, "fortified": False,
                "moved": False, "mp": None, "road_bonus": False, "resting": False,
                "battle": None, "revealed": d.side == "csa"}
            if d.cavalry:
                self.divisions[did]["units"] = [["cavalry", f.figures["cavalry"]]
                                                for _ in range(f.cavalry_units)]
        auto = raw.get("compose") == "auto"
        for did, over in (raw.get("divisions") or {}).items():
            if did not in self.divisions:
                raise ValueError(f"scenario: field 'divisions': no division {did!r}")
            if not isinstance(over, dict):
                raise ValueError(f"scenario: division {did!r}: expected a mapping")
            self._override(did, over)
        if auto:
            for did, state in self.divisions.items():
                if state["units"] is None:
                    cap = f.capacity_of(did)
                    state["units"] = [[k, f.figures[k]]
                                      for k in ["infantry"] * (cap - 1) + ["artillery"]]
        for did, over in (raw.get("divisions") or {}).items():
            units = self.divisions[did]["units"]
            if "figures" in over and "units" not in over and units is not None:
                for unit, n in zip(units, over["figures"], strict=True):
                    unit[1] = int(n)
        arrivals = raw.get("arrivals", "default")
        if arrivals == "none":
            self.arrivals: list[JSONDict] = []
        elif arrivals == "default":
            self.arrivals = [{"division": a.division, "day": a.day, "hour": a.hour,
                              "entry": a.entry} for a in f.arrivals
                             if self.divisions[a.division]["status"] == "waiting"]
        else:
            self.arrivals = [dict(a) for a in arrivals]
        self.generals: dict[str, JSONDict] = {
            gid: {"side": g.side, "division": g.tied or g.start, "removed": False}
            for gid, g in f.generals.items()}
        for gid, where in (raw.get("generals") or {}).items():
            if gid not in self.generals:
                raise ValueError(f"scenario: generals: no general {gid!r}")
            self.generals[gid]["division"] = where
        if self.phase == "compose" and self._uncomposed("usa") == [] \
                and self._uncomposed("csa") == []:
            self.phase = "day"
        if self.phase == "day":
            self._arrive(self.active)

    def _override(self, did: str, over: dict[str, Any]) -> None:
        d, f = self.divisions[did], self.forces
        for key in over:
            if key not in ("at", "units", "figures", "standard", "bangs", "fortified", "status"):
                raise ValueError(f"scenario: division {did!r}: unknown field {key!r}")
        if "at" in over:
            d["at"] = over["at"]
            d["status"] = "board" if over["at"] else "waiting"
            if over["at"] and over["at"] not in self.board.lines:
                raise ValueError(f"scenario: division {did!r}: field 'at': no line {over['at']!r}")
        if "status" in over:
            d["status"] = str(over["status"])
        if "units" in over:
            kinds = list(over["units"])
            if any(k not in KINDS for k in kinds) or len(kinds) > f.capacity_of(did):
                raise ValueError(f"scenario: division {did!r}: field 'units' (D1)")
            figs = over.get("figures") or [f.figures[k] for k in kinds]
            d["units"] = [[k, int(n)] for k, n in zip(kinds, figs, strict=True)]
        for key in ("standard", "fortified"):
            if key in over:
                d[key] = bool(over[key])
        if "bangs" in over:
            d["bangs"] = int(over["bangs"])

    # --- state -----------------------------------------------------------------------------

    def position_json(self) -> JSONDict:
        out: JSONDict = json_copy({
            "day": self.day, "hour": self.hour, "phase": self.phase, "active": self.active,
            "night_step": self.night_step, "stars": self.stars, "cards": self.cards,
            "card_gained": self.card_gained, "usa_lost": self.usa_lost, "winner": self.winner,
            "reason": self.reason, "battles": self.battles, "pending_faces": self.pending_faces,
            "next_battle": self.next_battle, "fight": self.fight, "divisions": self.divisions,
            "arrivals": self.arrivals, "generals": self.generals})
        return out

    def load_position(self, position: JSONDict) -> None:
        p = json_copy(position)
        self.day, self.hour, self.phase = int(p["day"]), int(p["hour"]), str(p["phase"])
        self.active, self.night_step = str(p["active"]), int(p["night_step"])
        self.stars, self.cards, self.card_gained = p["stars"], p["cards"], p["card_gained"]
        self.usa_lost, self.winner, self.reason = int(p["usa_lost"]), p["winner"], p["reason"]
        self.battles, self.pending_faces = p["battles"], p["pending_faces"]
        # The forces' order, not the canonical JSON's sorted one: legal actions are listed
        # by division, and a copy must list them as the game it was made from does.
        self.next_battle = int(p["next_battle"])
        kept = p["divisions"]
        self.divisions = {did: kept[did] for did in self.forces.divisions if did in kept}
        self.divisions.update({did: d for did, d in kept.items() if did not in self.divisions})
        self.fight = p["fight"]
        self.arrivals, self.generals = p["arrivals"], p["generals"]

    def seats(self) -> list[Seat]:
        return list(SIDES)

    # --- queries ---------------------------------------------------------------------------

    def on_board(self, side: Seat | None = None) -> list[str]:
        return [did for did, d in self.divisions.items()
                if d["status"] == "board" and (side is None or d["side"] == side)]

    def at_line(self, line: str, side: Seat | None = None) -> list[str]:
        return [did for did in self.on_board(side) if self.divisions[did]["at"] == line]

    def held_by(self, line: str) -> Seat | None:
        here = self.at_line(line)
        return str(self.divisions[here[0]]["side"]) if here else None

    def battle_at(self, line: str) -> JSONDict | None:
        return next((b for b in self.battles if b["line"] == line), None)

    def _uncomposed(self, side: Seat) -> list[str]:
        return [did for did, d in self.divisions.items()
                if d["side"] == side and d["units"] is None]

    def cavalry(self, did: str) -> bool:
        return self.forces.divisions[did].cavalry

    def _chamberlain(self, did: str) -> bool:
        g = self.generals["chamberlain"]
        return g["division"] == did and not g["removed"]

    def units_alive(self, did: str) -> int:
        return sum(1 for _, f in self.divisions[did]["units"] or [] if f > 0)

    # --- decisions -------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def to_move(self) -> list[Seat]:
        if self.phase == "over":
            return []
        if self.phase == "compose":
            return ["usa"] if self._uncomposed("usa") else ["csa"]
        if self.phase == "night":
            return [NIGHT_ORDER[self.night_step]]
        if self.phase == "battle" and self.fight is not None:
            return [str(self.fight["active"])]
        return [self.active]

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.to_move():
            return []
        if self.phase == "compose":
            out: list[Action] = []
            for did in self._uncomposed(seat):
                cap = self.forces.capacity_of(did)
                out += [{"type": "compose", "division": did, "artillery": k}
                        for k in range(cap + 1)]
            return out
        if self.phase == "night":
            return self._night_actions(seat)
        if self.phase == "battle" and self.fight is not None:
            return battle_turns.options(self.fight)
        return self._day_actions(seat)

    def _day_actions(self, seat: Seat) -> list[Action]:
        out: list[Action] = []
        b = self.board
        for did in self.on_board(seat):
            d = self.divisions[did]
            if d["battle"] is not None or d["resting"]:
                continue
            if not d["moved"] and (d["standard"] or d["bangs"]):
                out.append({"type": "rest", "division": did})
            for n in b.neighbours(d["at"]):
                try:
                    if self.held_by(n) == other(seat):
                        act: Action = {"type": "attack", "division": did, "target": n}
                        self._check_attack(act, seat)
                    else:
                        act = {"type": "move", "division": did, "to": n}
                        self._check_move(act, seat)
                except RuleError:
                    continue
                out.append(act)
        out.append({"type": "end_turn"})
        return out

    def _night_actions(self, seat: Seat) -> list[Action]:
        if self.pending_faces:
            kind = self.pending_faces[0]
            out: list[Action] = [{"type": "restore", "division": did, "unit": i}
                                 for did in self.on_board(seat)
                                 for i, (k, f) in enumerate(self.divisions[did]["units"])
                                 if k == kind and 0 < f < self.forces.figures[k]]
            return [*out, {"type": "restore_skip"}]
        out = [{"type": "recover"}]
        if not self.card_gained[seat]:
            out.append({"type": "cards"})
        for did in self.on_board(seat):
            out += [{"type": "stealth", "division": did, "to": to}
                    for to in self._stealth_reach(did)]
            if not self.divisions[did]["fortified"]:
                out.append({"type": "fortify", "division": did})
        for gid, g in self.generals.items():
            if g["side"] != seat or g["removed"] or self.forces.generals[gid].tied:
                continue
            if g["division"] is not None and self.divisions[g["division"]]["status"] == "waiting":
                continue  # he comes with his division
            out += [{"type": "general", "general": gid, "division": did}
                    for did in self.on_board(seat) if did != g["division"]]
        out.append({"type": "night_pass"})
        return out

    def _stealth_reach(self, did: str) -> list[str]:
        """Lines a division may reach by night within 2 MP, never through an enemy-held
        line (N4: a stealth move fights no one)."""
        start = str(self.divisions[did]["at"])
        side = str(self.divisions[did]["side"])
        best = {start: 0}
        todo = [start]
        while todo:
            here = todo.pop()
            for n in self.board.neighbours(here):
                c = best[here] + self.board.step_cost(here, n)
                if c <= 2 and c < best.get(n, 99) and self.held_by(n) != other(side):
                    best[n] = c
                    todo.append(n)
        return sorted(n for n in best if n != start)

    def validate(self, action: Action, seat: Seat) -> None:
        kind = action["type"]
        fields = FIELDS.get(kind)
        if fields is not None and set(action) != {"type", *fields}:
            raise RuleError(FIELD_RULES[kind], f"a {kind} action has exactly the fields "
                                               f"{['type', *fields]}")
        if self.phase == "compose":
            self._check_compose(action, seat)
            return
        if self.phase == "battle" and self.fight is not None:
            battle_turns.check(self.fight, action)
            return
        if self.phase == "night":
            if action_key(action) in {action_key(a) for a in self._night_actions(seat)}:
                return
            rule = {"recover": "N2", "restore": "N2", "restore_skip": "N2", "cards": "N3",
                    "stealth": "N4", "fortify": "N5", "general": "N6"}.get(kind, "N1")
            raise RuleError(rule, f"{kind} is not allowed for {seat} now (the night's choices: "
                                  "one of recover, cards, stealth, fortify or night_pass)")
        if kind == "end_turn":
            return
        if kind == "move":
            self._check_move(action, seat)
        elif kind == "attack":
            self._check_attack(action, seat)
        elif kind == "rest":
            d = self._own_division(action, seat, "MV2")
            if d["moved"]:
                raise RuleError("MV2", "a division that moved this turn cannot rest in it")
            if d["battle"] is not None:
                raise RuleError("MV6", "a division locked in a battle waits for nightfall")
            if d["resting"] or not (d["standard"] or d["bangs"]):
                raise RuleError("MV2", "the division has no standard or '!' to rest off, "
                                       "or already rests")
        else:
            raise RuleError("T1", f"unknown action {kind!r} in the day (move, attack, rest, "
                                  "end_turn)")

    def _own_division(self, action: Action, seat: Seat, rule: str) -> JSONDict:
        did = action.get("division")
        d = self.divisions.get(did) if isinstance(did, str) else None
        if d is None or d["side"] != seat:
            raise RuleError(rule, f"field 'division': {did!r} is not a division of {seat}")
        if d["status"] != "board":
            raise RuleError(rule, f"division {did} is not on the board")
        return d

    def _check_compose(self, action: Action, seat: Seat) -> None:
        if action["type"] != "compose":
            raise RuleError("D1", "before play each division's units are chosen (compose)")
        did = action.get("division")
        if did not in self._uncomposed(seat):
            raise RuleError("D1", f"field 'division': {did!r} is not an undecided division "
                                  f"of {seat}")
        k = action.get("artillery")
        cap = self.forces.capacity_of(str(did))
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= cap:
            raise RuleError("D1", f"field 'artillery' must be 0..{cap} (capacity {cap})")

    def _mp_left(self, did: str) -> int:
        d = self.divisions[did]
        return int(d["mp"]) if d["moved"] else MP[self.cavalry(did)]

    def _step_mp(self, did: str, to: str) -> tuple[int, bool]:
        """(MP the step costs, whether it earns the road bonus): 1, +1 obstructed (TE4);
        the first road link a division takes in a turn gives it +1 MP (TE5)."""
        d = self.divisions[did]
        link = self.board.link(str(d["at"]), to)
        assert link is not None
        cost = 2 if link["kind"] == "obstructed" else 1
        bonus = link["kind"] == "road" and not d["road_bonus"]
        return cost, bonus

    def _check_move(self, action: Action, seat: Seat) -> None:
        d = self._own_division(action, seat, "MV1")
        did, to = str(action["division"]), action.get("to")
        if d["battle"] is not None:
            raise RuleError("MV6", f"{did} is locked in a battle until nightfall")
        if d["resting"]:
            raise RuleError("MV2", f"{did} rests this turn")
        if not isinstance(to, str) or self.board.link(str(d["at"]), to) is None:
            raise RuleError("MV1", f"field 'to': {to!r} is not a line linked to {d['at']}")
        if self.battle_at(to) is not None:
            raise RuleError("MV7", f"a battle is being fought on {to}")
        if self.held_by(to) == other(seat):
            raise RuleError("MV6", f"{to} is held by the enemy: attack it")
        cost, bonus = self._step_mp(did, to)
        if cost > self._mp_left(did) + bonus:
            raise RuleError("MV1", f"{did} has {self._mp_left(did)} MP left; the step costs "
                                   f"{cost} (TE4/TE5)")

    def _check_attack(self, action: Action, seat: Seat) -> None:
        d = self._own_division(action, seat, "MV6")
        did, target = str(action["division"]), action.get("target")
        if d["battle"] is not None:
            raise RuleError("MV6", f"{did} is already in a battle")
        if d["resting"]:
            raise RuleError("MV2", f"{did} rests this turn")
        if not isinstance(target, str) or self.board.link(str(d["at"]), target) is None:
            raise RuleError("MV6", f"field 'target': {target!r} is not a line linked to "
                                   f"{d['at']}")
        if self.held_by(target) != other(seat):
            raise RuleError("MV6", f"no enemy division holds {target}")
        battle = self.battle_at(target)
        if battle is not None:
            joinable = (battle["side"] == seat and battle["day"] == self.day
                        and battle["start_hour"] == self.hour)
            if not joinable:
                raise RuleError("MV7", f"a battle is already being fought on {target}")
            if len(battle["attackers"]) >= 3:
                raise RuleError("MV4", "at most 3 divisions attack together")
            cost, bonus = 1, False  # MV4: a pooled division spends 1 MP
        else:
            cost, bonus = self._step_mp(did, target)
        if cost > self._mp_left(did) + bonus:
            raise RuleError("MV4" if battle else "MV1",
                            f"{did} has {self._mp_left(did)} MP left; joining costs {cost}")

    # --- execution -------------------------------------------------------------------------

    def execute(self, action: Action, seat: Seat) -> list[Event]:
        kind = action["type"]
        if kind in battle_turns.FIELDS:
            return [*self._battle_step(action, seat), *self._check_victory()]
        handler = {
            "compose": self._do_compose, "move": self._do_move, "attack": self._do_attack,
            "rest": self._do_rest, "end_turn": self._do_end_turn, "recover": self._do_recover,
            "restore": self._do_restore, "restore_skip": self._do_restore,
            "cards": self._do_cards, "stealth": self._do_stealth, "fortify": self._do_fortify,
            "general": self._do_general, "night_pass": self._do_night_pass}[kind]
        events = handler(action, seat)
        events += self._check_victory()
        return events

    def _do_compose(self, action: Action, seat: Seat) -> list[Event]:
        did, k = str(action["division"]), int(action["artillery"])
        cap, figs = self.forces.capacity_of(did), self.forces.figures
        self.divisions[did]["units"] = [[u, figs[u]]
                                        for u in ["infantry"] * (cap - k) + ["artillery"] * k]
        ev = Event("compose", "D1", {"division": did, "artillery": k, "infantry": cap - k},
                   visible_to=("usa",) if seat == "usa" else None,
                   redacted={"division": did} if seat == "usa" else None)
        if not self._uncomposed("usa") and not self._uncomposed("csa"):
            self.phase, self.active = "day", "usa"
            return [ev, Event("day", "T1", {"day": self.day, "hour": self.hour}),
                    *self._arrive("usa")]
        return [ev]

    def _start_moving(self, did: str) -> list[Event]:
        """The first step of a division this turn: a standard, or a forced march's "!"
        when it already carries one (MV2, MV3; never for Chamberlain's, G-USA-1)."""
        d = self.divisions[did]
        events: list[Event] = []
        if not d["moved"]:
            d["moved"], d["mp"] = True, MP[self.cavalry(did)]
            if d["standard"]:
                if self._chamberlain(did):
                    events.append(Event("forced_march", "G-USA-1", {"division": did,
                                                                    "bangs": d["bangs"]}))
                else:
                    d["bangs"] += 1
                    events.append(Event("forced_march", "MV3", {"division": did,
                                                                "bangs": d["bangs"]}))
            d["standard"] = True
        if d["fortified"]:
            d["fortified"] = False  # N5: struck when the division moves
            events.append(Event("fortify_lost", "N5", {"division": did}))
        return events

    def _pay(self, did: str, to: str, cost: int) -> None:
        d = self.divisions[did]
        _, bonus = self._step_mp(did, to)
        if bonus:
            d["road_bonus"] = True
            d["mp"] += 1
        d["mp"] -= cost

    def _do_move(self, action: Action, seat: Seat) -> list[Event]:
        did, to = str(action["division"]), str(action["to"])
        d = self.divisions[did]
        frm = str(d["at"])
        cost, _ = self._step_mp(did, to)
        events = self._start_moving(did)
        self._pay(did, to, cost)
        d["at"] = to
        events.append(Event("move", "MV1", {"division": did, "from": frm, "to": to,
                                            "mp_left": d["mp"]}))
        link = self.board.link(frm, to)
        assert link is not None
        for src in link["fire_from"]:  # TE6: guns overlooking the link fire on it
            if self.held_by(src) == other(seat) and self.divisions[did]["status"] == "board":
                events += self._bombard(did, self.board.artillery(src), other(seat), "TE6", src)
        return events

    def _do_attack(self, action: Action, seat: Seat) -> list[Event]:
        did, target = str(action["division"]), str(action["target"])
        d = self.divisions[did]
        battle = self.battle_at(target)
        events = self._start_moving(did)
        if battle is None:
            battle = {"id": self.next_battle, "line": target, "side": seat, "day": self.day,
                      "start_hour": self.hour, "attackers": [],
                      "defenders": self.at_line(target, other(seat))}
            self.next_battle += 1
            self.battles.append(battle)
            for ddid in battle["defenders"]:
                self.divisions[ddid]["battle"] = battle["id"]
            events.append(Event("battle", "MV6", {"id": battle["id"], "line": target,
                                                  "attacker": seat, "hour": self.hour,
                                                  "defenders": battle["defenders"]}))
            self._pay(did, target, self._step_mp(did, target)[0])
        else:
            d["mp"] -= 1  # MV4: a pooled division spends 1 MP
        battle["attackers"].append({"division": did, "from": d["at"]})
        d["battle"] = battle["id"]
        events.append(Event("attack", "MV4" if len(battle["attackers"]) > 1 else "MV6",
                            {"division": did, "from": d["at"], "line": target,
                             "battle": battle["id"]}))
        # TE1/TE2: the defended line's guns fire on each unit of the attacking division.
        events += self._bombard(did, self.board.artillery(target), other(seat), "TE1", target)
        if self.divisions[did]["status"] != "board":  # the guns stopped it: no attacker
            battle["attackers"] = [a for a in battle["attackers"] if a["division"] != did]
            if not battle["attackers"]:
                self.battles.remove(battle)
                for ddid in battle["defenders"]:
                    self.divisions[ddid]["battle"] = None
                events.append(Event("battle_void", "TE1", {"id": battle["id"],
                                                           "line": target}))
        return events

    def _bombard(self, did: str, symbols: int, firer: Seat, rule: str, src: str) -> list[Event]:
        """Each unit of ``did`` takes ``symbols`` battle dice (1 when the CSA fires: TE2);
        a die of the unit's kind or crossed sabres takes a figure, a flag too against
        cavalry (TE1)."""
        if symbols <= 0:
            return []
        n = 1 if firer == "csa" else symbols
        d = self.divisions[did]
        first = self.dice.counter
        lost = 0
        eliminated = 0
        for i, unit in enumerate(d["units"]):
            kind, figs = unit
            if figs <= 0:
                continue
            rolls = self.dice.roll_n(n, f"{src} fires on {did} unit {i}", rule)
            hits = sum(1 for v in rolls if FACES[v] in (kind, "sabres")
                       or (kind == "cavalry" and FACES[v] == "flag"))
            hits = min(hits, figs)
            unit[1] = figs - hits
            lost += hits
            if unit[1] == 0:
                eliminated += 1
                if d["side"] == "usa" and kind != "cavalry":
                    self.usa_lost += 1  # V1, D2: cavalry never counts
        hidden = d["side"] == "usa" and not d["revealed"]
        rolls_ev = dice_event(self.dice.rolls_since(first),
                              visible_to=("usa",) if hidden else None,
                              redacted={"division": did} if hidden else None)
        summary = {"division": did, "from": src, "dice_per_unit": n, "figures_lost": lost,
                   "units_eliminated": eliminated}
        events = [rolls_ev, Event("bombardment", "TE2" if firer == "csa" else rule, summary)]
        events += self._after_losses(did)
        return events

    def _after_losses(self, did: str) -> list[Event]:
        """A division with no units left leaves the board; a cavalry division comes back
        whole the next morning at its entry (D2)."""
        d = self.divisions[did]
        if d["status"] != "board" or self.units_alive(did):
            return []
        d.update({"status": "eliminated", "at": None, "battle": None, "standard": False,
                  "bangs": 0, "fortified": False})
        if self.cavalry(did):
            entry = next((a.entry for a in self.forces.arrivals if a.division == did), None)
            if entry is not None and self.day < DAYS:
                d["status"] = "waiting"
                d["units"] = [["cavalry", self.forces.figures["cavalry"]]
                              for _ in d["units"]]
                self.arrivals.append({"division": did, "day": self.day + 1,
                                      "hour": FIRST_HOUR, "entry": entry})
                return [Event("cavalry_returns", "D2", {"division": did, "day": self.day + 1,
                                                         "entry": entry})]
        return [Event("division_eliminated", "V1", {"division": did})]

    def _do_rest(self, action: Action, seat: Seat) -> list[Event]:
        did = str(action["division"])
        self.divisions[did]["resting"] = True
        return [Event("rest", "MV2", {"division": did})]

    def _do_end_turn(self, action: Action, seat: Seat) -> list[Event]:
        events: list[Event] = []
        for did in self.on_board(seat):
            d = self.divisions[did]
            if d["resting"] and not d["moved"]:  # MV2/MV3: an hour of rest
                d["standard"] = False
                d["bangs"] = max(0, d["bangs"] - 1)
                events.append(Event("rested", "MV2", {"division": did, "bangs": d["bangs"]}))
            d.update({"moved": False, "mp": None, "road_bonus": False, "resting": False})
        if seat == "usa":
            self.active = "csa"
            return [*events, *self._arrive("csa")]
        if self.hour < LAST_HOUR:
            self.hour += 1
            self.active = "usa"
            return [*events, Event("hour", "T1", {"day": self.day, "hour": self.hour}),
                    *self._arrive("usa")]
        return [*events, *self._nightfall()]

    def _arrive(self, side: Seat) -> list[Event]:
        """R1: the side's divisions due by this hour come onto their triangles; one kept off
        by an enemy on its triangle tries again the next hour."""
        events: list[Event] = []
        keep: list[JSONDict] = []
        for a in self.arrivals:
            did = a["division"]
            due = (a["day"], a["hour"]) <= (self.day, self.hour)
            if self.divisions[did]["side"] != side or not due:
                keep.append(a)
                continue
            if self.held_by(a["entry"]) == other(side) or self.battle_at(a["entry"]):
                keep.append(a)
                events.append(Event("arrival_delayed", "R1", {"division": did,
                                                               "entry": a["entry"]}))
                continue
            self.divisions[did].update({"status": "board", "at": a["entry"]})
            events.append(Event("arrival", "R1", {"division": did, "entry": a["entry"]}))
        self.arrivals = keep
        return events

    # --- nightfall -------------------------------------------------------------------------

    def _nightfall(self) -> list[Event]:
        self.hour = NIGHT_HOUR
        events = [Event("nightfall", "T2", {"day": self.day, "battles": len(self.battles)})]
        return [*events, *self._battles_on()]

    def _battles_on(self) -> list[Event]:
        """Opens the day's next battle (in the order they began), or, with none left,
        ends the game after the third day (T3) or begins the night (N1)."""
        events: list[Event] = []
        while self.battles:
            events += self._open_battle(self.battles[0])
            if self.fight is not None:
                self.phase = "battle"
                return events
            self.battles.pop(0)
            events += self._check_victory()
            if self.phase == "over":
                return events
        if self.day >= DAYS:
            self.phase, self.winner = "over", "usa"
            self.reason = "V1: the CSA did not meet its condition in the three days (T3)"
            return [*events, Event("game_over", "T3", self.result() or {})]
        self.phase, self.night_step = "night", 0
        self.card_gained = {s: False for s in SIDES}
        return [*events, Event("night", "N1", {"day": self.day})]

    def _open_battle(self, battle: JSONDict) -> list[Event]:
        """Sets up a battle for play (``self.fight``), or calls it off when one side is
        gone; Hancock and Armistead meeting leave (G-USA-4, G-CSA-3); the battle shows
        the USA's divisions (D3)."""
        events: list[Event] = []
        attackers = [a["division"] for a in battle["attackers"]
                     if self.divisions[a["division"]]["status"] == "board"]
        defenders = [d for d in battle["defenders"] if self.divisions[d]["status"] == "board"]
        everyone = attackers + defenders
        for did in everyone:
            self.divisions[did]["battle"] = None
        if not attackers or not defenders:
            return [Event("battle_void", "B3", {"id": battle["id"], "line": battle["line"]})]
        riders = {gid for gid, g in self.generals.items()
                  if not g["removed"] and g["division"] in everyone}
        if {"hancock", "armistead"} <= riders:  # G-USA-4, G-CSA-3
            for gid in ("hancock", "armistead"):
                self.generals[gid]["removed"] = True
            events.append(Event("generals_removed", "G-USA-4", {"generals": ["hancock",
                                                                            "armistead"]}))
        for did in everyone:  # D3: a battle shows the USA's divisions
            d = self.divisions[did]
            if not d["revealed"]:
                d["revealed"] = True
                events.append(Event("reveal", "D3", {"division": did, "units": d["units"],
                                                     "generals": self._generals_on(did)}))
        attacker = str(battle["side"])
        setup = BattleSetup(
            line=battle["line"], day=self.day, start_hour=int(battle["start_hour"]),
            turns=2 * (NIGHT_HOUR - int(battle["start_hour"])),
            attacker=self._force(attacker, attackers), defender=self._force(other(attacker),
                                                                              defenders))
        first = self.dice.counter
        froms = {a["division"]: str(a["from"]) for a in battle["attackers"]}
        self.fight, notes = begin(setup, int(battle["id"]), froms,
                                  f"{self.setup.seed}|{self.day}", self.dice)
        self.fight.update({"attackers": attackers, "defenders": defenders,
                           "start_hour": setup.start_hour})
        events.append(Event("battle_begins", "B1", {
            "id": battle["id"], "line": battle["line"], "attacker": attacker,
            "turns": setup.turns, "cards": dict(self.fight["cards"]),
            "entrenchments": list(self.fight["entrench"])}))
        return events + self._notes(notes, first)

    def _notes(self, notes: list[JSONDict], first: int) -> list[Event]:
        """The battle's notes as events, after the dice rolled for them."""
        rolls = self.dice.rolls_since(first)
        events = [dice_event(rolls)] if rolls else []
        for n in notes:
            seen = n.get("visible_to")
            events.append(Event(str(n["type"]), str(n["rule"]), n["data"],
                                visible_to=(str(seen),) if seen else None,
                                redacted={"side": n["data"].get("side")} if seen else None))
        return events

    def _battle_step(self, action: Action, seat: Seat) -> list[Event]:
        assert self.fight is not None
        first = self.dice.counter
        events = self._notes(battle_turns.act(self.fight, action, self.dice), first)
        if self.fight["over"]:
            events += self._close_battle()
            if self.phase != "over":
                events += self._battles_on()
        return events

    def _close_battle(self) -> list[Event]:
        """Strikes the battle's losses from the divisions (B4); the defender keeps the
        line unless it has no units left, then the attacker's survivors take it."""
        st = self.fight
        assert st is not None
        battle = self.battles.pop(0)
        self.fight = None
        attackers, defenders = list(st["attackers"]), list(st["defenders"])
        attacker = str(battle["side"])
        lost = losses(st)
        for did, per_unit in lost.items():
            d = self.divisions[did]
            for unit, n in zip(d["units"], per_unit, strict=True):
                if n <= 0 or unit[1] <= 0:
                    continue
                unit[1] = max(0, unit[1] - n)
                if unit[1] == 0 and d["side"] == "usa" and unit[0] != "cavalry":
                    self.usa_lost += 1
        events = [Event("battle_fought", "B4", {
            "id": battle["id"], "line": battle["line"], "attacker": attacker,
            "turns": st["turns"], "turns_played": min(st["turn"], st["turns"]),
            "losses": lost})]
        for did in attackers + defenders:
            events += self._after_losses(did)
        left_def = [d for d in defenders if self.divisions[d]["status"] == "board"]
        left_att = [a for a in attackers if self.divisions[a]["status"] == "board"]
        if not left_def and left_att:  # machango-facts: the attacker takes the line
            for did in left_att:
                self.divisions[did]["at"] = battle["line"]
                if self.divisions[did]["fortified"]:
                    self.divisions[did]["fortified"] = False
            events.append(Event("line_taken", "B4", {"line": battle["line"], "by": attacker,
                                                     "divisions": left_att}))
        else:
            events.append(Event("line_held", "B4", {"line": battle["line"],
                                                    "by": other(attacker)}))
        return events

    def _generals_on(self, did: str) -> list[str]:
        return sorted(g for g, v in self.generals.items()
                      if v["division"] == did and not v["removed"])

    def _force(self, side: Seat, dids: list[str]) -> BattleForce:
        """The side's divisions in a battle, with the card count the seed sets: each "!"
        costs a card (B5), Longstreet one (G-CSA-1), never below 1; Ewell's side chooses in
        the battle (G-CSA-2)."""
        riders: set[str] = set()
        divs = []
        bangs = 0
        for did in dids:
            d = self.divisions[did]
            gens = self._generals_on(did)
            riders |= set(gens)
            if not self._chamberlain(did):
                bangs += int(d["bangs"])
            divs.append(BattleDivision(
                id=did, units=tuple((str(k), int(f)) for k, f in d["units"]),
                elite=self.forces.divisions[did].elite, extra_die="stuart" in gens,
                fortified=bool(d["fortified"]) or "buford" in gens,
                ignores_flags=(side == "csa" and self.day == DAYS) or "pickett" in gens,
                ignores_one_flag=self.forces.divisions[did].elite or "custer" in gens,
                generals=tuple(gens)))
        cards = self.cards[side] - bangs - ("longstreet" in riders)
        return BattleForce(side, tuple(divs), max(1, cards))  # Ewell's card: his choice

    # --- night -----------------------------------------------------------------------------

    def _end_night_step(self) -> list[Event]:
        self.night_step += 1
        if self.night_step < len(NIGHT_ORDER):
            return []
        self.day, self.hour, self.phase, self.active = self.day + 1, FIRST_HOUR, "day", "usa"
        self.night_step = 0
        events = [Event("day", "T1", {"day": self.day, "hour": self.hour})]
        for did in self.on_board():  # D2: lost cavalry units are back by morning
            back = [u for u in self.divisions[did]["units"] if u[0] == "cavalry" and u[1] == 0]
            for unit in back:
                unit[1] = self.forces.figures["cavalry"]
            if back:
                events.append(Event("cavalry_returns", "D2", {"division": did,
                                                               "units": len(back)}))
        return [*events, *self._arrive("usa")]

    def _do_recover(self, action: Action, seat: Seat) -> list[Event]:
        first = self.dice.counter
        rolls = self.dice.roll_n(5, f"{seat} recovers troops", "N2")
        self.pending_faces = [FACES[v] for v in rolls if FACES[v] in KINDS]
        events = [dice_event(self.dice.rolls_since(first)),
                  Event("recover", "N2", {"seat": seat, "faces": list(self.pending_faces)})]
        if not self.pending_faces:
            events += self._end_night_step()
        return events

    def _do_restore(self, action: Action, seat: Seat) -> list[Event]:
        kind = self.pending_faces.pop(0)
        events: list[Event] = []
        if action["type"] == "restore":
            did, i = str(action["division"]), int(action["unit"])
            self.divisions[did]["units"][i][1] += 1
            hidden = seat == "usa" and not self.divisions[did]["revealed"]
            events.append(Event("restore", "N2", {"division": did, "unit": i, "kind": kind},
                                visible_to=("usa",) if hidden else None,
                                redacted={"division": did} if hidden else None))
        if not self.pending_faces:
            events += self._end_night_step()
        return events

    def _do_cards(self, action: Action, seat: Seat) -> list[Event]:
        first = self.dice.counter
        v = self.dice.roll(f"{seat} seeks a command card", "N3")
        events = [dice_event(self.dice.rolls_since(first))]
        if v >= 4:
            self.cards[seat] += 1
            self.card_gained[seat] = True
        events.append(Event("cards", "N3", {"seat": seat, "roll": v, "cards": self.cards[seat]}))
        return events + self._end_night_step()

    def _do_stealth(self, action: Action, seat: Seat) -> list[Event]:
        did, to = str(action["division"]), str(action["to"])
        d = self.divisions[did]
        frm = d["at"]
        d["at"] = to
        events = [Event("stealth", "N4", {"division": did, "from": frm, "to": to})]
        if d["fortified"]:
            d["fortified"] = False
            events.append(Event("fortify_lost", "N5", {"division": did}))
        return events + self._end_night_step()

    def _do_fortify(self, action: Action, seat: Seat) -> list[Event]:
        did = str(action["division"])
        self.divisions[did]["fortified"] = True
        return [Event("fortify", "N5", {"division": did}), *self._end_night_step()]

    def _do_general(self, action: Action, seat: Seat) -> list[Event]:
        gid, did = str(action["general"]), str(action["division"])
        self.generals[gid]["division"] = did
        hidden = seat == "usa"
        return [Event("general", "N6", {"general": gid, "division": did},
                      visible_to=("usa",) if hidden else None,
                      redacted={"general": "a USA general"} if hidden else None)]

    def _do_night_pass(self, action: Action, seat: Seat) -> list[Event]:
        return [Event("night_pass", "N1", {"seat": seat}), *self._end_night_step()]

    # --- victory ---------------------------------------------------------------------------

    def _check_victory(self) -> list[Event]:
        """V2: a side claims a star it stands on with no enemy on a line next to it; V1:
        the CSA wins at once holding more stars than the USA with 8 USA units destroyed."""
        if self.phase in ("over", "compose"):
            return []
        events: list[Event] = []
        for star, holder in sorted(self.stars.items()):
            for side in SIDES:
                if side == holder or not self.at_line(star, side):
                    continue
                near = self.board.neighbours(star)
                if any(self.at_line(n, other(side)) for n in near):
                    continue
                self.stars[star] = side
                events.append(Event("star", "V2", {"star": star, "side": side}))
        csa = sum(1 for v in self.stars.values() if v == "csa")
        if csa > len(self.stars) - csa and self.usa_lost >= USA_LOSSES_TO_WIN:
            self.phase, self.winner = "over", "csa"
            self.reason = (f"V1: the CSA holds {csa} of {len(self.stars)} stars and has "
                           f"destroyed {self.usa_lost} USA units")
            events.append(Event("game_over", "V1", self.result() or {}))
        return events

    def result(self) -> JSONDict | None:
        if self.phase != "over":
            return None
        return {"winner": self.winner, "reason": self.reason, "usa_units_lost": self.usa_lost,
                "stars": dict(self.stars)}

    # --- fog of war ------------------------------------------------------------------------

    def view(self, seat: Seat) -> JSONDict:
        """What ``seat`` sees: everything but the USA's unrevealed divisions' units and the
        free USA generals riding with them (D3)."""
        divisions: dict[str, JSONDict] = {}
        for did, d in self.divisions.items():
            shown = json_copy(d)
            shown["name"] = self.forces.divisions[did].name
            shown["cavalry"] = self.cavalry(did)
            if seat not in (REFEREE, d["side"]) and not d["revealed"] and not self.cavalry(did):
                shown["units"] = None
            divisions[did] = shown
        generals: dict[str, JSONDict] = {}
        for gid, g in self.generals.items():
            shown = json_copy(g)
            free = self.forces.generals[gid].tied is None
            if (seat not in (REFEREE, g["side"]) and free and g["division"] is not None
                    and not self.divisions[g["division"]]["revealed"]):
                shown["division"] = None
                shown["hidden"] = True
            generals[gid] = shown
        return {
            "system": self.system, "seat": seat, "day": self.day, "hour": self.hour,
            "phase": self.phase, "active": self.active, "night_step": self.night_step,
            "to_move": self.to_move(), "stars": dict(self.stars), "cards": dict(self.cards),
            "usa_units_lost": self.usa_lost, "divisions": divisions, "generals": generals,
            "battles": json_copy(self.battles), "arrivals": json_copy(self.arrivals),
            "pending_faces": list(self.pending_faces), "battle": self._battle_view(seat),
            "legal_actions": self.legal_actions(seat), "result": self.result()}

    def _battle_view(self, seat: Seat) -> JSONDict | None:
        """The battle being fought as ``seat`` sees it: the board, every unit (a battle
        shows them), the entrenchments; its own cards in hand but only how many the
        other side holds, and how many are left in the deck."""
        st = self.fight
        if st is None:
            return None
        out: JSONDict = json_copy({k: v for k, v in st.items()
                                   if k not in ("deck", "hands", "seed")})
        out["deck"] = len(st["deck"])
        out["board"] = json_copy(board_of(st))
        out["hands"] = {side: list(cards) if seat in (REFEREE, side) else len(cards)
                        for side, cards in st["hands"].items()}
        if seat == st["active"] and st["step"] == "fire":
            out["fire_options"] = [{"unit": a["unit"], "target": a["target"],
                                    "dice": fire_dice(st, str(a["unit"]), str(a["target"]))}
                                   for a in battle_turns.options(st)
                                   if a["type"] == "battle_fire"]
        return out
