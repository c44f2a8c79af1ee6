"""Brigade orders (002 §6): what each order lets a combat unit do, when March may be given,
the orders-change roll and Loose Cannon, March brigades under fire, and Reserve.

The engine asks :func:`permits` before every action; the table behind it is the Orders
Summary chart (``all_charts().orders``, 002 §6.11-6.16) plus the rules' extra refusals
(reaction moves under March, Stay, Reserve, coordination Confusion).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal, get_args

from gettysburg.core.protocol import RuleError

from .charts import all_charts
from .charts.command import OrderSummary
from .coordination import CONFUSION_ALLOWS

Order = Literal["march", "advance", "attack"]
ORDERS: tuple[Order, ...] = get_args(Order)
Profile = Literal["A", "N", "C", "U"]
_PROFILES: dict[str, Profile] = {p: p for p in get_args(Profile)}

#: the actions a combat unit may try, as :func:`permits` knows them
Action = Literal[
    "move",  # spend MP
    "road_rate",  # move at the pike/road rate (002 §9.22-9.24)
    "move_adjacent_enemy",  # enter a hex next to an enemy non-artillery combat unit
    "move_adjacent_enemy_artillery",  # enter a hex next to enemy artillery only
    "fire",
    "move_and_fire",
    "prepared_fire",
    "reaction_fire",
    "reaction_facing",  # reaction facing change or refusal (002 §9.61)
    "reaction_move",  # 002 §9.63
    "face_one_vertex",
    "shock",
    "charge",  # the infantry charge bonus, or a mounted cavalry charge
    "refuse_flank",
    "construct",
    "withdraw_before_shock",
    "rally",
    "resupply",
    "leader_move",
]
ACTIONS: tuple[str, ...] = get_args(Action)

_SECTION: dict[str, str] = {"march": "6.13", "advance": "6.15", "attack": "6.16"}
# chart fields that answer an action directly
_FLAG: dict[str, str] = {
    "fire": "fire", "move_and_fire": "move_and_fire", "prepared_fire": "prepared_fire",
    "reaction_fire": "reaction_fire", "shock": "shock", "charge": "charge",
    "refuse_flank": "refuse_flank", "construct": "construction",
    "withdraw_before_shock": "withdraw_before_shock", "rally": "rally",
}
# what Stay forbids (002 §6.23): spending MP in the brigade's own activation (reaction moves
# happen in the enemy's, so Stay does not touch them)
_STAY_FORBIDS = frozenset({"move", "road_rate", "move_adjacent_enemy",
                           "move_adjacent_enemy_artillery", "move_and_fire", "charge"})


def _order(orders: str) -> Order:
    for o in ORDERS:
        if o == orders:
            return o
    raise ValueError(f"orders must be march, advance or attack, not {orders!r}")


def _summary(orders: Order) -> OrderSummary:
    return all_charts().orders.get(orders)


def _allowed(orders: Order, action: str) -> bool:
    s = _summary(orders)
    if action in _FLAG:
        return bool(getattr(s, _FLAG[action]))
    if action == "road_rate":
        return s.road_cost != "none"
    if action == "move_adjacent_enemy":
        return s.may_move_adjacent == "yes"
    if action == "move_adjacent_enemy_artillery":
        return s.may_move_adjacent != "never"
    if action in ("reaction_facing", "reaction_move"):
        return orders != "march"  # 002 §6.13
    return True  # move, face_one_vertex, resupply, leader_move


def permits(
    orders: str,
    action: str,
    *,
    stay: bool = False,
    reserve: bool = False,
    confusion: bool = False,
) -> RuleError | None:
    """None when a combat unit under ``orders`` may take ``action``, else the refusal.

    ``stay``: the brigade rolled a Stay result this activation (002 §6.23); ``reserve``: its
    formation is in Reserve (002 §6.32); ``confusion``: its division rolled Confusion on the
    coordination table this AM (002 §5.34). A March unit moves only on its side's March AM
    and an Advance or Attack one only on its division's (the engine's check; see
    :func:`activated_by`). Bridges and fords let an Advance unit end next to the enemy
    (002 §6.15, §9.52): the engine asks ``move_adjacent_enemy`` only where that does not
    apply."""
    o = _order(orders)
    if action not in ACTIONS:
        raise ValueError(f"action: unknown action {action!r}")
    if reserve:
        return RuleError("6.32", "a formation in Reserve takes no action until it leaves "
                         "Reserve")
    if confusion and action not in CONFUSION_ALLOWS:
        return RuleError("5.34", f"confusion: the brigade may not {action.replace('_', ' ')} "
                         "this AM")
    if not _allowed(o, action):
        return RuleError(_SECTION[o], f"a unit on {o} orders may not {action.replace('_', ' ')}")
    if stay and action in _STAY_FORBIDS:
        return RuleError("6.23", f"stay: the brigade's units spend no MP this activation "
                         f"({action.replace('_', ' ')})")
    return None


def activated_by(orders: str) -> Literal["march-am", "division-am"]:
    """002 §6.13, §5.35: March formations act on their side's March AM, the others on their
    division's AMs."""
    return _summary(_order(orders)).activated_by


def artillery_orders(formation_orders: str) -> Order:
    """002 §6.18: artillery is on Advance unless its formation marches, then on March."""
    return "march" if _order(formation_orders) == "march" else "advance"


MARCH_KEEP_AWAY = 4  # hexes, with line of sight (002 §6.13-6.14)


def near_enemy(distance: int, in_los: bool) -> bool:
    """002 §6.13-6.14: within 4 hexes of an enemy combat unit and in its line of sight."""
    return distance <= MARCH_KEEP_AWAY and in_los


def check_march_move(*, starts_near: bool, enters_near: bool, enters_adjacent: bool) -> None:
    """002 §6.13: a March unit that begins its activation near the enemy (:func:`near_enemy`)
    cannot move; it may never enter a hex near the enemy, nor one next to an enemy unit
    whatever the line of sight."""
    if starts_near:
        raise RuleError("6.13", "a March unit that starts within 4 hexes and sight of an enemy "
                        "combat unit may not move")
    if enters_adjacent:
        raise RuleError("6.13", "a March unit may never move next to an enemy unit")
    if enters_near:
        raise RuleError("6.13", "a March unit may not enter a hex within 4 hexes and sight of "
                        "an enemy combat unit")


Phase = Literal["division_orders", "reinforcement_orders", "activation", "recovery"]


def check_march_orders(
    phase: str,
    *,
    reinforcement: bool = False,
    any_unit_near_enemy: bool = False,
    entry: Literal["direct", "adjacent"] | None = None,
) -> None:
    """002 §6.14: March orders are given only in the orders phases of step II — Division
    Orders for a formation on the map none of whose units is near the enemy
    (:func:`near_enemy`) as the phase begins, Reinforcement Orders for an arriving one
    (002 §9.71) — never by a roll (E-3) nor on leaving Reserve (002 §6.35). In TDG a
    reinforcement entering by an adjacent entry hex must be on Attack or Advance
    (004 §9.76)."""
    if phase not in get_args(Phase):
        raise ValueError(f"phase: unknown phase {phase!r}")
    if reinforcement:
        if phase != "reinforcement_orders":
            raise RuleError("6.14", "a reinforcement gets its orders in the Reinforcement "
                            "Orders phase (9.71)")
        if entry == "adjacent":
            raise RuleError("tdg.9.76", "a reinforcement entering by an adjacent entry hex must "
                            "be on Attack or Advance orders")
        return
    if phase != "division_orders":
        raise RuleError("6.14", "March orders are given only in the Division Orders phase")
    if any_unit_near_enemy:
        raise RuleError("6.14", "a unit of the formation is within 4 hexes and sight of an "
                        "enemy combat unit")


# --- the orders-change roll (002 §6.2) ------------------------------------------------------
@dataclass(frozen=True)
class OrdersChange:
    roll: int
    total: int
    result: str  # retain-and-stay, retain, loose-cannon, change-and-stay, change
    change: bool
    stay: bool

    @property
    def loose_cannon(self) -> bool:
        return self.result == "loose-cannon"


def orders_change(
    roll: int,
    orders_rating: int,
    *,
    with_division_leader: bool = False,
    with_corps_or_oc: bool = False,
    brigadier_on_map: bool = True,
) -> OrdersChange:
    """002 §6.21-6.23: d10 ``roll`` + the brigadier's orders rating, +1 if his division leader
    shares his hex, +2 if his corps commander or the OC does (both may count), read on the
    Brigade Orders Change Table. 002 §6.23's example: rating -1, roll 4 -> 3 -> Retain."""
    if not brigadier_on_map:
        raise RuleError("6.21", "a brigade rolls to change orders only with its brigadier on "
                        "the map")
    mods = [m for m, on in (("with-division-leader", with_division_leader),
                            ("with-corps-commander-or-oc", with_corps_or_oc)) if on]
    table = all_charts().orders_change
    row = table.result(roll, orders_rating=orders_rating, modifiers=mods)
    total = roll + orders_rating + int(with_division_leader) + 2 * int(with_corps_or_oc)
    return OrdersChange(roll, total, row.id, row.change, row.stay)


def changed_orders(outcome: OrdersChange, new_orders: str) -> Order:
    """002 §6.23 (decision E-3): a Change result lets the brigade take Attack or Advance."""
    target = _order(new_orders)
    if not outcome.change:
        raise RuleError("6.23", f"{outcome.result}: the brigade keeps its orders")
    if target not in all_charts().orders_change.change_to:
        raise RuleError("6.23", "a rolled change is to Attack or Advance; March is given only "
                        "in Division Orders (6.14)")
    return target


# --- Loose Cannon (002 §6.24) ----------------------------------------------------------------
@dataclass(frozen=True)
class UnitSituation:
    """One combat unit of the brigade as the Loose Cannon finds it."""

    unit: str
    artillery: bool = False
    mounted_cavalry: bool = False
    disordered: bool = False
    green: bool = False
    adjacent_enemy: bool = False  # already next to an enemy combat unit
    mp_to_enemy: int | None = None  # MP to reach a hex next to an enemy combat unit


Task = Literal[
    "charge",  # infantry: charge (11.21); green units check first (11.36)
    "shock_without_fire",  # mounted cavalry in reach: shock without firing
    "shock_no_bonus",  # already adjacent: shock, no charge bonus, no fire first
    "close_in",  # disordered or out of reach: move toward the nearest enemy, no fire
    "advance_toward_enemy",  # nobody in reach: move as far as it can toward the enemy
    "step_back",  # cautious: retreat one hex
    "none",  # the profile asks nothing of this unit
]


@dataclass(frozen=True)
class LooseCannon:
    profile: Profile  # the brigadier's
    acts_as: Literal["A", "N", "C"]
    unreliable_roll: int | None
    orders: Order | None  # the brigade's new orders; None: it keeps its own
    tasks: Mapping[str, Task] = field(default_factory=dict)
    green_checks: frozenset[str] = frozenset()  # must pass the green commitment check (11.36)
    no_other_actions: bool = False  # cautious: nothing else this activation


def reach_mp(mounted_cavalry: bool) -> int:
    """002 §6.24: 3 MP (5 for mounted cavalry) to a hex next to an enemy combat unit."""
    prof = all_charts().loose_cannon.resolve("A")
    if prof.reach_mp is None:
        raise ValueError("loose cannon chart: profile A has no reach")
    return prof.reach_mp.mounted_cavalry if mounted_cavalry else prof.reach_mp.infantry


def _in_reach(u: UnitSituation) -> bool:
    return u.adjacent_enemy or (u.mp_to_enemy is not None and u.mp_to_enemy <= reach_mp(
        u.mounted_cavalry))


def loose_cannon(
    profile: str,
    units: Iterable[UnitSituation],
    *,
    unreliable_roll: int | None = None,
    on_march_am: bool = False,
) -> LooseCannon:
    """002 §6.24 (decision E-4), what the brigade must do; moving the units is the engine's.

    * A: if any unit is within reach (:func:`reach_mp`) of a hex next to the enemy, Attack
      orders: units in reach charge (mounted cavalry shock without firing), green ones check
      first, units already adjacent shock without the bonus and without firing, disordered or
      distant ones close in without firing. Otherwise Advance orders and every unit moves as
      far as it can toward the nearest enemy. Artillery never shocks (002 §11.61) and is given
      no task (a reading: the rule names only what can charge or close in).
    * N: nothing; C: every non-artillery unit steps back one hex, Advance orders, nothing
      more this activation; U: the d10 ``unreliable_roll`` picks A, N or C.
    * On its March AM (002 §6.25) an aggressive result reads as Retain; this reading applies
      it to an unreliable brigadier acting as A too."""
    chart = all_charts().loose_cannon
    prof = _PROFILES.get(profile)
    if prof is None:
        raise ValueError(f"profile must be A, N, C or U, not {profile!r}")
    acting = chart.resolve(prof, unreliable_roll)
    acts_as: Literal["A", "N", "C"]
    if acting.profile == "A" or acting.profile == "N" or acting.profile == "C":
        acts_as = acting.profile
    else:  # pragma: no cover - the chart resolves U to A, N or C
        raise ValueError("loose cannon chart resolved to U")
    roll = unreliable_roll if prof == "U" else None
    brigade = list(units)
    if acts_as == "N" or (acts_as == "A" and on_march_am):
        return LooseCannon(prof, acts_as, roll, None)
    tasks: dict[str, Task] = {}
    if acts_as == "C":
        for u in brigade:
            tasks[u.unit] = "none" if u.artillery else "step_back"
        return LooseCannon(prof, acts_as, roll, "advance", tasks, no_other_actions=True)
    fighters = [u for u in brigade if not u.artillery]
    if not any(_in_reach(u) for u in fighters):
        for u in brigade:
            tasks[u.unit] = "none" if u.artillery else "advance_toward_enemy"
        return LooseCannon(prof, acts_as, roll, "advance", tasks)
    green: set[str] = set()
    for u in brigade:
        if u.artillery:
            tasks[u.unit] = "none"
        elif u.adjacent_enemy:
            tasks[u.unit] = "shock_no_bonus"
        elif u.disordered or not _in_reach(u):
            tasks[u.unit] = "close_in"
        else:
            tasks[u.unit] = "shock_without_fire" if u.mounted_cavalry else "charge"
        if u.green and tasks[u.unit] in ("charge", "shock_without_fire", "shock_no_bonus"):
            green.add(u.unit)
    return LooseCannon(prof, acts_as, roll, "attack", tasks, frozenset(green))


# --- March brigades (002 §6.25-6.26) ---------------------------------------------------------
@dataclass(frozen=True)
class MarchChange:
    """002 §6.25: a March brigade's roll on its side's March AM."""

    roll: OrdersChange
    result: str  # the roll's result, an aggressive Loose Cannon read as "retain"
    may_change: bool  # it stops where it is and takes Attack or Advance for the division AMs
    stay_on: Literal["march_am", "first_division_am"] | None


def march_orders_change(roll: OrdersChange, profile: str) -> MarchChange:
    """002 §6.25: on success the brigade halts where it is, takes Advance or Attack and uses
    its division's remaining AMs this turn; Change & Stay holds it still on the first of those
    AMs (and lapses if none is left), Retain & Stay on this March AM. An aggressive
    brigadier's Loose Cannon counts as Retain (resolve the others with :func:`loose_cannon`,
    ``on_march_am=True``)."""
    result = roll.result
    if roll.loose_cannon and profile == "A":
        result = all_charts().loose_cannon.march_aggressive_reads_as
    stay_on: Literal["march_am", "first_division_am"] | None = None
    if result == "retain-and-stay":
        stay_on = "march_am"
    elif result == "change-and-stay":
        stay_on = "first_division_am"
    return MarchChange(roll, result, roll.change, stay_on)


FireKind = Literal["small_arms", "canister", "shell"]


def march_after_combat(orders: str, *, shocked: bool = False,
                       fired_on: Collection[str] = ()) -> Order:
    """002 §6.26: a March brigade that is shocked, or fired on by anything but artillery shell,
    goes to Advance orders at the end of the enemy brigade's activation (and then activates on
    its division's remaining AMs). Other orders are not changed by combat."""
    o = _order(orders)
    kinds = set(fired_on)
    unknown = sorted(kinds - set(get_args(FireKind)))
    if unknown:
        raise ValueError(f"fired_on: unknown fire kind {unknown[0]!r}")
    if o == "march" and (shocked or kinds - {"shell"}):
        return "advance"
    return o


# --- Reserve (002 §6.3) ------------------------------------------------------------------------
RESERVE_NEAR, RESERVE_FAR, RESERVE_NIGHT = 5, 10, 5  # hexes (002 §6.31)
RESERVE_FIRE_RANGE = 4  # 002 §6.34


@dataclass(frozen=True)
class ReserveStanding:
    """One unit of a formation asking to go into Reserve (002 §6.31)."""

    unit: str
    nearest_enemy_combat: int | None  # hexes; None when no enemy combat unit is on the map
    in_enemy_los: bool  # some enemy unit sees it


def _clear(u: ReserveStanding, hexes: int, need_hidden: bool) -> bool:
    far = u.nearest_enemy_combat is None or u.nearest_enemy_combat >= hexes
    return far and not (need_hidden and u.in_enemy_los)


def check_reserve(units: Iterable[ReserveStanding], *, night: bool = False,
                  phase: str = "reserve_placement") -> None:
    """002 §6.31-6.33: in the Reserve Placement phase (II/E) a brigade, division or corps goes
    into Reserve, whatever its orders and even when all its units are disordered, if every
    unit is out of enemy sight and 5+ hexes from the nearest enemy combat unit, or every unit
    is 10+ hexes away (5+ on a night turn) sight or no sight."""
    if phase != "reserve_placement":
        raise RuleError("6.32", "formations go into Reserve only in the Reserve Placement phase")
    group = list(units)
    if not group:
        raise ValueError("units: a formation with no units cannot go into Reserve")
    far = RESERVE_NIGHT if night else RESERVE_FAR
    if all(_clear(u, RESERVE_NEAR, True) for u in group):
        return
    if all(_clear(u, far, False) for u in group):
        return
    bad = next(u.unit for u in group if not _clear(u, far, False))
    raise RuleError("6.31", f"{bad} is too close to the enemy: every unit needs to be out of "
                    f"enemy sight and {RESERVE_NEAR}+ hexes away, or {far}+ hexes away")


def reserve_eligible(units: Iterable[ReserveStanding], *, night: bool = False) -> bool:
    """Whether a formation of these units may go into Reserve (002 §6.31-6.33)."""
    try:
        check_reserve(units, night=night)
    except RuleError:
        return False
    return True


def reserve_broken(*, shocked: bool = False, fire_range: int | None = None) -> bool:
    """002 §6.34: Reserve ends at once when any unit of the formation is the target of shock
    or of fire from 4 hexes or less; then every unit is disordered and takes Advance orders
    (the attack goes on as usual, and the formation may use its division's remaining AMs)."""
    return shocked or (fire_range is not None and fire_range <= RESERVE_FIRE_RANGE)


@dataclass(frozen=True)
class ReserveStep:
    id: str
    section: str
    text: str


#: 002 §6.35: what a formation in Reserve may do in the Replacement/Recovery phase, in order
RESERVE_STEPS: tuple[ReserveStep, ...] = (
    ReserveStep("fatigue", "17.0", "lower fatigue by two levels"),
    ReserveStep("undisorder", "12.3", "turn disordered units face up unless they collapsed"),
    ReserveStep("stragglers", "16.2", "try to recover stragglers"),
    ReserveStep("rout-recovery", "13.5", "try to recover routed units"),
    ReserveStep("ammunition", "10.9", "refill ammunition (with the optional ammunition rule)"),
    ReserveStep("orders", "6.35", "take Attack or Advance orders without a roll, whatever the "
                "units' command status"),
)


def reserve_steps(*, ammunition_rule: bool = False) -> tuple[ReserveStep, ...]:
    """002 §6.35 in order; the ammunition step only when the optional 002 §10.9 is used
    (off for TDG, decision E-5)."""
    return tuple(s for s in RESERVE_STEPS if ammunition_rule or s.id != "ammunition")


def leave_reserve_orders(new_orders: str) -> Order:
    """002 §6.12, §6.35: a formation leaving Reserve at the end of the turn may be given
    Attack or Advance orders, free of any roll."""
    o = _order(new_orders)
    if o == "march":
        raise RuleError("6.35", "a formation leaving Reserve takes Attack or Advance orders")
    return o
