"""Random event L, the drunk brigadier, in the engine (004 §18.0, rule ``tdg.18.0``).

The roller names one of his brigadiers rated U (the OOB's action profile) on the map
(:func:`candidates`; a choice of :mod:`event_choices`). Until the first day turn of the next
day he has the event's ratings instead of his own (``random_events.Drunk``: orders -2,
command range 2, MA 3; the seed gives values, not modifiers): the game's catalogue reads
them (:class:`DrunkCatalog`, built over the acting-leader catalogue) and
``questions.leader_moves`` his MA (:func:`leader_ma`). When his brigade's activation starts
with him next to (or with) his corps commander or the OC, his side may relieve him
(action ``relieve``): he leaves the map as if killed, and his post is filled in the next
Replacement phase (002 §12.74).

``Position.tdg["drunk"]``: {leader: the turn-track index the event happened on}.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from gettysburg.core.protocol import Action, Event, RuleError

from .catalog import Catalog
from .charts import all_charts
from .end_segment import ActingCatalog, acting_catalog
from .random_events import Drunk, drunk, may_relieve

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame

RULE = "tdg.18.0"
RATINGS = Drunk("")


def _nobody() -> Mapping[str, Any]:
    return {}


@dataclass(frozen=True)
class DrunkCatalog(ActingCatalog):
    """The acting-leader catalogue with a drunk brigadier's orders rating and command range
    replaced by the event's values while he is drunk."""

    drunk: Callable[[], Mapping[str, Any]] = field(default=_nobody)

    def rating(self, leader: str, key: str, default: int = 0) -> int:
        if leader in self.drunk():
            if key == "orders":
                return RATINGS.orders
            if key == "command_range":
                return RATINGS.command_range
        return super().rating(leader, key, default)


def _drunk_of(game: GbacwGame) -> Mapping[str, Any]:
    got = game.pos.tdg.get("drunk")
    return got if isinstance(got, dict) else {}


def catalog_for(game: GbacwGame) -> Catalog:
    """The game's ``cat``: acting leaders (002 §12.74) and drunk brigadiers (L)."""
    base = acting_catalog(game)
    # a partial of a module function, not a lambda, so that the game pickles
    return DrunkCatalog(**{f.name: getattr(base, f.name) for f in fields(base)},
                        drunk=functools.partial(_drunk_of, game))


def is_drunk(game: GbacwGame, leader: str) -> bool:
    """Whether ``leader`` is the drunk brigadier of random event L (004 §18.0 L)."""
    return leader in _drunk_of(game)


def leader_ma(game: GbacwGame, leader: str, ma: int) -> int:
    """L: a drunk brigadier's MA is the event's 3 (004 §18.0 L)."""
    return min(ma, RATINGS.ma) if is_drunk(game, leader) else ma


def candidates(game: GbacwGame, seat: str) -> list[str]:
    """L: the seat's brigadiers rated U on the map, not drunk already (004 §18.0 L)."""
    p, cat = game.pos, game.cat
    out = []
    for ld, where in sorted(p.leaders.items()):
        if where is None or p.leader_seat.get(ld) != seat or is_drunk(game, ld):
            continue
        if cat.leader_level.get(ld) not in ("brigade", "artillery"):
            continue
        try:
            drunk(ld, str(cat.oob.rating(ld, "profile") or ""))
        except RuleError:
            continue
        out.append(ld)
    return out


def make_drunk(game: GbacwGame, leader: str, seat: str) -> list[Event]:
    """Make the chosen U-rated brigadier drunk from this turn (004 §18.0 L)."""
    drunk(leader, str(game.cat.oob.rating(leader, "profile") or ""))
    got = dict(_drunk_of(game))
    got[leader] = game.pos.turn
    game.pos.tdg["drunk"] = got
    game._memo.clear()
    return [Event("random_event_effect", RULE,
                  {"letter": "L", "leader": leader, "orders": RATINGS.orders,
                   "command_range": RATINGS.command_range, "ma": RATINGS.ma})]


def sober(game: GbacwGame) -> list[Event]:
    """At a turn's start: the drunk of an earlier day are sober from the first day turn
    (004 §18.0 L)."""
    got = _drunk_of(game)
    if not got:
        return []
    turns = all_charts().turn_track.turns()
    now = turns[game.pos.turn]
    if now.light != "day":
        return []
    left = {ld: t for ld, t in got.items() if turns[int(t)].date >= now.date}
    if len(left) == len(got):
        return []
    if left:
        game.pos.tdg["drunk"] = left
    else:
        del game.pos.tdg["drunk"]
    game._memo.clear()
    return [Event("random_event_effect", RULE, {"letter": "L", "sober": ld})
            for ld in sorted(set(got) - set(left))]


def _relief_problem(game: GbacwGame, leader: str, seat: str) -> RuleError | None:
    p, cat = game.pos, game.cat
    if not is_drunk(game, leader) or p.leader_seat.get(leader) != seat:
        return RuleError(RULE, f"{leader!r} is not one of your drunk brigadiers")
    brigade = p.brigade
    if brigade is None or cat.leader_command.get(leader) != brigade or p.pending is not None:
        return RuleError(RULE, f"{leader} may be relieved as his brigade's activation starts")
    b = p.brigades[brigade]
    if b.did or leader in p.leaders_moved:
        return RuleError(RULE, f"{brigade}'s activation has started")
    here = game.leader_hex(leader)
    chiefs = [cat.corps_leader.get(b.corps), cat.army_leader.get(b.seat)]
    near = here is not None and any(
        (h := game.leader_hex(c)) is not None and h.distance(here) <= 1 for c in chiefs if c)
    if not may_relieve(near):
        return RuleError(RULE, f"{leader} is not next to his corps commander or the OC")
    return None


def relief_options(game: GbacwGame, seat: str) -> list[Action]:
    """L: ``relieve`` for the active brigade's drunk brigadier, at its activation's start,
    when he stands next to (or with) his corps commander or the OC (004 §18.0 L)."""
    ld = game.cat.brigade_leader.get(game.pos.brigade or "")
    if ld is None or not is_drunk(game, ld) or _relief_problem(game, ld, seat) is not None:
        return []
    return [{"type": "relieve", "leader": ld}]


def check_relief(game: GbacwGame, action: Action, seat: str) -> None:
    """Refuse the relief of a brigadier who is not drunk, not the active brigade's, or not next to
    his corps commander or the OC (004 §18.0 L)."""
    err = _relief_problem(game, str(action["leader"]), seat)
    if err is not None:
        raise err


def relieve(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """The drunk leaves the map as if killed (replaced in IV/B, 002 §12.74)."""
    ld = str(action["leader"])
    p = game.pos
    where = p.leaders[ld]
    p.leaders[ld] = None
    got = dict(_drunk_of(game))
    got.pop(ld, None)
    if got:
        p.tdg["drunk"] = got
    else:
        p.tdg.pop("drunk", None)
    return [Event("relieved", RULE, {"leader": ld, "hex": where, "seat": seat})]
