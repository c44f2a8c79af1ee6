"""Brigade coordination (002 §5.34, the Brigade Coordination Table, "Balanced" column).

When a division's AM is drawn the player may roll a d10 plus the division leader's
coordination rating (0-3) to let several of its brigades act as one (step III/C/2). Only
brigades whose brigadier is in the division leader's command range may take part; a combat
ineffective division may not try at all (002 §13.32). Confusion stops every in-command brigade
of the division from moving or fighting this AM (leaders still move; units may rally, resupply
and turn one vertex); a failure costs nothing. Coordination does not lift stacking limits
(002 §8.12).

After a result of two, three or all the player may activate a group of eligible brigades as
one (the engine's ``activate_group``): :func:`active_brigades` says which brigades act now,
:func:`group_limit` how many a group may hold and :func:`groups` lists the choices.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import combinations

from gettysburg.core.protocol import RuleError

from .charts import all_charts

#: what a confused brigade's units and leaders may still do (002 §5.34)
CONFUSION_ALLOWS = frozenset({"leader_move", "rally", "resupply", "face_one_vertex"})


@dataclass(frozen=True)
class CoordinationOutcome:
    roll: int
    total: int
    result: str  # the chart's id: confusion, fail, two, three, all
    eligible: frozenset[str]  # brigades in the division leader's range
    may_combine: int  # how many eligible brigades may act as one (1: each on its own)

    @property
    def confusion(self) -> bool:
        return self.result == "confusion"

    @property
    def confused(self) -> frozenset[str]:
        """The brigades that may neither move nor fight this AM."""
        return self.eligible if self.confusion else frozenset()


def coordinate(
    roll: int,
    coordination_rating: int,
    eligible: Collection[str],
    *,
    ineffective: bool = False,
) -> CoordinationOutcome:
    """002 §5.34 from the unmodified d10 ``roll``: the chart's result and how many of the
    ``eligible`` brigades may act as one. 002 §5.34's example: rating 2, roll 6 -> 8 -> two."""
    if ineffective:
        raise RuleError("13.32", "a combat ineffective division may not coordinate its brigades")
    brigades = frozenset(eligible)
    if len(brigades) < 2:
        raise RuleError("5.34", "coordination needs two or more brigades whose brigadiers are"
                        f" in the division leader's range ({len(brigades)} here)")
    row = all_charts().coordination.result(roll, coordination_rating=coordination_rating)
    # the chart's "all" row has no number; Fail still lets each brigade act alone
    combine = len(brigades) if row.brigades is None else min(max(row.brigades, 1), len(brigades))
    return CoordinationOutcome(roll, roll + coordination_rating, row.id, brigades, combine)


def check_group(outcome: CoordinationOutcome, group: Collection[str]) -> None:
    """002 §5.34: the brigades the player picks to act as one must be eligible and no more
    than the result allows."""
    chosen = set(group)
    if outcome.confusion:
        raise RuleError("5.34", "confusion: no brigade of the division moves or fights this AM")
    outside = sorted(chosen - outcome.eligible)
    if outside:
        raise RuleError("5.34", f"{', '.join(outside)}: brigadier out of the division leader's"
                        " range, not eligible")
    if len(chosen) > outcome.may_combine:
        raise RuleError("5.34", f"{outcome.result}: at most {outcome.may_combine} brigades act "
                        f"as one, not {len(chosen)}")


def group_limit(result: str | None, eligible: int) -> int:
    """002 §5.34: how many of ``eligible`` brigades may act as one after the chart's
    ``result`` id (1 when there was no roll, a Fail or Confusion)."""
    if result is None:
        return 1
    row = next((r for r in all_charts().coordination.results if r.id == result), None)
    if row is None:
        return 1
    return eligible if row.brigades is None else max(1, min(row.brigades, eligible))


def active_brigades(brigade: str | None, coordinated: Sequence[str]) -> tuple[str, ...]:
    """002 §5.34: the brigades acting now: the group while its lead ``brigade`` is the active
    one, else the active brigade alone (none when no brigade is active)."""
    if brigade is None:
        return ()
    if brigade in coordinated:
        return (brigade, *(b for b in coordinated if b != brigade))
    return (brigade,)


def groups(candidates: Collection[str], limit: int) -> list[tuple[str, ...]]:
    """Every group of two up to ``limit`` of the ``candidates`` (002 §5.34: the player picks
    which), each sorted, smaller groups first."""
    pool = sorted(set(candidates))
    return [g for n in range(2, min(limit, len(pool)) + 1) for g in combinations(pool, n)]
