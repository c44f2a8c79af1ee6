"""The end segment's Replacement/Recovery phase in the engine (002 §3.0 IV/B): dead
leaders replaced (§4.18, §12.74-12.76 through :func:`fire_result.replacement_for`), each
brigade's recovery (a Reserve formation's actions, §6.35; an idle brigade's automatic rally
or rest, §13.45, §17.42), and the idle brigades' choice offered in IV/A.

A leader's counter is his *post*: the position keys leaders by the counter's id, and a post
whose holder fell is held by ``Position.acting[post]`` (the counter's back, §4.18). The
post's counter comes back in the Replacement phase with a unit of its command (with the
immediate superior when the brigade has no unit left, §12.74), and its ratings are its
holder's (:class:`ActingCatalog`, the game's ``cat``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING

from gettysburg.core.protocol import Action, Event, RuleError, Seat
from gettysburg.gbacw import fatigue
from gettysburg.gbacw.catalog import Catalog, catalog
from gettysburg.gbacw.command_status import measure
from gettysburg.gbacw.fire_result import replacement_for
from gettysburg.gbacw.kinds import unit_class
from gettysburg.gbacw.lasting import removed
from gettysburg.gbacw.rally import idle_rally
from gettysburg.gbacw.shock_action import combatant_of

if TYPE_CHECKING:
    from gettysburg.gbacw.engine_view import GameView as GbacwGame


# --- leaders killed and replaced (002 §4.18, §12.74-12.76) ---------------------------------


def _nobody() -> Mapping[str, str]:
    return {}


@dataclass(frozen=True)
class ActingCatalog(Catalog):
    """The shared catalogue, with each post's ratings read from the leader who holds it
    now (``Position.acting``, §12.74): the game's ``cat``."""

    acting: Callable[[], Mapping[str, str]] = field(default=_nobody)

    def rating(self, leader: str, key: str, default: int = 0) -> int:
        return super().rating(self.acting().get(leader, leader), key, default)


def _acting_of(game: GbacwGame) -> Mapping[str, str]:
    return game.pos.acting


def acting_catalog(game: GbacwGame) -> Catalog:
    """The game's catalog with each post's ratings taken from its acting holder, a fallen leader's
    replacement (002 §4.18, §12.74-12.76)."""
    base = catalog()
    # a partial of a module function, not a lambda, so that the game pickles (checkpoints)
    return ActingCatalog(**{f.name: getattr(base, f.name) for f in fields(base)},
                         acting=functools.partial(_acting_of, game))



def on_map_leaders(game: GbacwGame) -> set[str]:
    """The leaders on the map now: what an action removed of them is a leader casualty to replace
    (002 §12.7, §12.74)."""
    return {ld for ld, h in game.pos.leaders.items() if h is not None}


def note_fallen(game: GbacwGame, before: set[str]) -> None:
    """Leaders on the map before an action and off it after were killed by it (fire,
    shock, a leader alone next to the enemy, 002 §12.71-12.73): nothing else takes a leader
    off the map. They wait for the next Replacement phase."""
    p = game.pos
    for ld in sorted(before):
        if p.leaders.get(ld) is None and ld not in p.fallen \
                and not removed(game, ld):  # 004 §18.0 Q: gone scouting, not killed
            p.fallen.append(ld)


def _command_units(game: GbacwGame, post: str) -> list[str]:
    """The units on the map of the post's command, sorted."""
    cat, p = game.cat, game.pos
    level, command = cat.leader_level.get(post), cat.leader_command.get(post, "")
    seat = p.leader_seat.get(post)
    out = []
    for k, u in sorted(p.units.items()):
        if u.hex is None or u.seat != seat:
            continue
        b = p.brigades[game.formation(k)]
        if ((level in ("brigade", "artillery") and game.formation(k) == command)
                or (level == "division" and b.division == command)
                or (level == "corps" and b.corps == command)
                or level == "army"):
            out.append(k)
    return out


def replace_leaders(game: GbacwGame) -> list[Event]:
    """IV/B/1 (002 §12.74-12.76): each fallen post is taken by the counter's back (the
    OOB's replacement chain, ``replacement_for``); when that leader is out of play too, the
    next in the chain or the formation's succession; a brigadier's counter with nobody left
    brings its back side's leader back (§12.74); a successor who held a lower post flips
    that counter too (§12.75). The post returns with a unit of its command, or with the
    superior when the brigade has none left; with no successor it stays off the map."""
    p, cat = game.pos, game.cat
    ev: list[Event] = []
    for post in sorted(p.fallen):
        holder = p.acting.get(post, post)
        if holder not in p.dead:
            p.dead.append(holder)
        out_of_play = set(p.dead)  # killed; a leader whose counter is not in play still serves
        flips: tuple[tuple[str, str], ...] = ()
        successor: str | None
        try:
            rep = replacement_for(cat.oob, post, out_of_play)
            successor, flips, rule = rep.successor, rep.also_flipped, rep.rule
        except KeyError:  # a successor printed only on a counter's back: no flips to read
            successor = next((c for c in cat.oob.replacement_chain(post)[1:]
                              if c not in out_of_play), None)
            rule = "12.74"
        if successor is None and cat.leader_level.get(post) in ("brigade", "artillery") \
                and post in p.acting:
            successor = holder  # a brigadier's back side comes back (§12.74)
        seat: Seat = p.leader_seat.get(post, "")
        if successor is None:
            ev.append(Event("leader_not_replaced", "12.74", {"post": post, "fallen": holder},
                            visible_to=(seat,), redacted={"post": post}))
            continue
        p.acting[post] = successor
        units = _command_units(game, post)
        if units:
            where = p.units[units[0]].hex
        else:
            boss = game.superior_of(post, seat)
            where = None if boss is None else p.leaders.get(boss)
        p.leaders[post] = where
        if successor != post and successor in p.leaders and successor not in p.acting:
            # 002 §12.75: the successor leaves his own post, whose counter flips too
            try:
                lower = replacement_for(cat.oob, successor, out_of_play | {successor})
            except KeyError:
                lower = None
            if lower is not None and lower.successor is not None:
                p.acting[successor] = lower.successor
                flips = ((successor, lower.successor),)
        ev.append(Event("leader_replaced", rule, {"post": post, "fallen": holder,
                                                  "successor": successor, "hex": where,
                                                  "also": [list(f) for f in flips]}))
    p.fallen = []
    return ev


# --- idle brigades (002 §13.45, §17.42) ----------------------------------------------------


def idle_brigades(game: GbacwGame, seat: Seat) -> list[str]:
    """The seat's brigades on the map, not in Reserve, idle all turn so far (their units
    neither moved, fired in their phase, built nor shocked, ``fatigue.idle``) with a
    disordered unit that could rally: the ones for which the choice of §13.45 matters."""
    p = game.pos
    out = []
    for n, b in sorted(p.brigades.items()):
        if b.seat != seat or b.reserve or b.busy:
            continue
        units = [k for k in game.brigade_units(n) if game.on_map(k)]
        if any(p.units[k].disordered and not p.units[k].collapsed for k in units):
            out.append(n)
    return out


def idle_options(game: GbacwGame, seat: Seat) -> list[Action]:
    """IV/A's choice for IV/B (002 §13.45): an idle brigade rallies or rests; the engine
    rests unless told (with fatigue off it rallies, resting being worth nothing)."""
    if not game.fatigue:
        return []
    p = game.pos
    return [{"type": "idle_rally", "brigade": n, "on": n not in p.idle_rally}
            for n in idle_brigades(game, seat)]


def check_idle(game: GbacwGame, action: Action, seat: Seat) -> None:
    """Refuse an idle-rally choice for a brigade that is not the seat's or not idle (002 §13.45,
    §17.42)."""
    n = str(action["brigade"])
    b = game.pos.brigades.get(n)
    if b is None or b.seat != seat:
        raise RuleError("13.45", f"{n!r} is not one of your brigades")
    if action not in idle_options(game, seat):
        raise RuleError("13.45", f"{n}: only a brigade idle all turn, not in Reserve, with a "
                        "disordered unit chooses to rally rather than rest "
                        "(or it has chosen so already)")


def apply_idle(game: GbacwGame, action: Action, seat: Seat) -> list[Event]:
    """Record whether an idle brigade rallies (on) or rests (off) in IV/B (002 §13.45, §17.42)."""
    p = game.pos
    n = str(action["brigade"])
    if action["on"]:
        p.idle_rally = sorted({*p.idle_rally, n})
    else:
        p.idle_rally = [x for x in p.idle_rally if x != n]
    return [Event("idle_choice", "13.45", {"brigade": n,
                                           "choice": "rally" if action["on"] else "rest"},
                  visible_to=(seat,))]


def in_brigadier_range(game: GbacwGame, seat: Seat) -> dict[str, bool]:
    """Each of the seat's units: in its brigadier's command range now (the chain measured
    as at II/A, ``command_status.measure``) (002 §4.15, §4.22-4.23)."""
    p = game.pos
    tree = game._command_tree(seat)
    where = {ld: game.leader_hex(ld) for ld in tree.superior}
    for k in tree.unit_leader:
        where[k] = game.hex_of(p.units[k].hex)
    own = {h for u in p.units.values() if u.seat == seat
           and (h := game.hex_of(u.hex)) is not None}
    report = measure(game.cat.board, tree, where, game.enemy_hexes(seat), own)
    return {u: st.in_command for u, st in report.units.items()}


def recover_brigade(game: GbacwGame, brigade: str) -> list[Event]:
    """IV/B/2 for one brigade (its fatigue step): two levels off after a whole turn in
    Reserve (§6.35, §17.41); an idle brigade rallies its disordered units in its
    brigadier's range (§13.45, its owner's choice, collapsed units excepted) or rests a
    level off (§17.42)."""
    p = game.pos
    b = p.brigades[brigade]
    was_idle = not b.busy and not b.reserve and any(
        game.on_map(k) for k in game.brigade_units(brigade))
    rally_now = was_idle and (brigade in p.idle_rally or not game.fatigue)
    ev: list[Event] = []
    if rally_now:
        units = [k for k in game.brigade_units(brigade) if game.on_map(k)]
        if any(p.units[k].disordered for k in units):
            in_range = in_brigadier_range(game, b.seat)
            rallied = idle_rally(was_idle=True, units=[combatant_of(game, k) for k in units],
                                 in_range=[in_range.get(k, True) for k in units])
            for k in rallied:
                p.units[k].disordered = False
            ev.append(Event("idle_rally", "13.45", {"brigade": brigade,
                                                    "rallied": list(rallied)}))
    if game.fatigue:
        before = b.fatigue
        b.fatigue = fatigue.end_of_turn(b.fatigue, reserve_all_turn=b.reserve,
                                        idle_choice=None if rally_now or not was_idle
                                        else "rest", was_idle=was_idle)
        if b.fatigue != before:
            ev.append(Event("fatigue", "17.41" if b.reserve else "17.42",
                            {"brigade": brigade, "before": before, "after": b.fatigue,
                             "marker": fatigue.label(b.fatigue)}, visible_to=(b.seat,)))
    return ev


def reserve_resupply(game: GbacwGame, brigade: str) -> list[Event]:
    """002 §6.35's fifth step: with the optional small-arms ammunition rule (§10.9, the
    ``small_arms_ammo`` option) a Reserve formation's units refill; artillery keeps its own
    ammunition rule (§10.69)."""
    if "small_arms_ammo" not in game.setup.options:
        return []
    p = game.pos
    refilled = [k for k in game.brigade_units(brigade) if game.on_map(k)
                and p.units[k].ammo != "none" and unit_class(game.counter(k)) != "artillery"]
    for k in refilled:
        p.units[k].ammo = "none"
    if not refilled:
        return []
    return [Event("resupply", "6.35", {"brigade": brigade, "units": refilled},
                  visible_to=(p.brigades[brigade].seat,))]


def note_not_idle(game: GbacwGame, action: Action) -> None:
    """What ends a brigade's idleness outside its own activation (002 §13.45, §17.42): a
    reaction move, or being designated the target of a shock (the phasing side's own
    actions are counted by ``fatigue.idle`` as they happen); artillery never counts."""
    p = game.pos
    kind = action.get("type")
    hit: set[str] = set()
    if kind == "react_move" and str(action.get("unit")) in p.units:
        hit.add(game.formation(str(action["unit"])))
    elif kind == "shock":
        targets = {str(h) for s in action.get("shocks", []) if isinstance(s, dict)
                   for h in s.get("targets", [])}
        hit |= {game.formation(k) for k, u in p.units.items() if u.hex in targets
                and unit_class(game.counter(k)) != "artillery"}
    for n in sorted(hit):
        if n in p.brigades:
            p.brigades[n].busy = True


def view_extras(game: GbacwGame, seat: str, *, full: bool) -> dict[str, object]:
    """What the end segment, engineering and orders_step add to a seat's view: breastworks
    and construction markers and the leaders' flipped counters stand on the map (both seats);
    units keeping their own orders (§4.23), attached batteries (§4.32), Loose Cannon tasks
    (§6.24) and the idle brigades' rally choices (§13.45) are orders-like: the owner's only."""
    p = game.pos

    def mine(unit: str) -> bool:
        return full or p.units[unit].seat == seat

    return {
        "breastworks": [dict(b) for b in p.breastworks],
        "constructions": [dict(c) for c in p.constructions],
        "acting": dict(sorted(p.acting.items())),
        "unit_orders": {k: v for k, v in sorted(p.unit_orders.items()) if mine(k)},
        "attached": {k: v for k, v in sorted(p.attached.items()) if mine(k)},
        "lc_tasks": {k: v for k, v in sorted(p.lc_tasks.items()) if mine(k)},
        "idle_rally": [n for n in sorted(p.idle_rally)
                       if full or p.brigades[n].seat == seat],
    }
