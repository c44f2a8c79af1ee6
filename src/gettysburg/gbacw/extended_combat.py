"""Extended lines in shock, the engine's side (issue 52): envelopment (002 §8.48), the
gathering it calls for before an advance, a retreat or a continued shock (§8.49), and a line
advancing after shock still extended (§8.47). The pure geometry is :mod:`extension`'s.

How it fits the shock step (:mod:`shock_step`, which calls these hooks):

* a designated shock may name, beside its ``attackers`` and ``targets``, ``"envelop":
  [unit]``: a two-hex line among its attackers whose free half swings round the lone target
  (:func:`variants` lists them with the designations, :func:`check` validates them);
* after the green checks (step 3, §11.36) and before the defender's pre-shock check,
  :func:`pivot_all` turns each enveloping line that still may (no MP, §8.48), so the
  pre-shock check and the roll see it on the defender's flank;
* after the roll, an enveloping line that will move (it retreats, the defender's hex empties
  so it must advance, or it continues the shock) first gathers into its counter's hex
  (:func:`gather_after_roll`, §8.49);
* a line that advances after shock (§8.47) does it extended when it can, straight ahead or
  pivoting into the empty hex (:func:`advance_line`); otherwise the shock step gathers it
  and advances the counter alone.

Readings (docs/gbacw-rules.md): the envelopment is chosen with the designation, carried out
at step 3; §8.49's gathering goes into the counter's hex; when a line can advance extended in
more than one way the engine takes the one entering the fewest hexes (then straight ahead
before pivots), the owner's choice not being offered, as for the other advances.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError

from .combatant import check as udd_check
from .extension import ExtendedLine, envelop, line_moves
from .facing import RefuseSide, flank_direction, front_hexes
from .formation_step import SIDES, line_of, units_at
from .kinds import unit_class
from .movement import entry_cost
from .retreat import RetreatOptions, RetreatPath, Surroundings
from .shock_action import combatant_of

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame
    from .formation_step import FormationGame

ENVELOP = "envelop"  # a designated shock's key: the attackers that envelop its target
ENVELOPED = "enveloped"  # the shock context's key: the lines that pivoted, not yet gathered


def _fg(game: GbacwGame) -> FormationGame:
    return cast("FormationGame", game)


def _hid(game: GbacwGame, h: Hex) -> str:
    return game.cat.board.hexes[h].id


def _ground(game: GbacwGame, seat: str) -> tuple[dict[Hex, frozenset[Hex]], set[Hex]]:
    """(each enemy-held hex -> its occupants' front hexes, every hex holding a unit or a
    part of one), for ``seat``'s line. An enemy line's parts each face with the unit."""
    fronts: dict[Hex, set[Hex]] = {}
    occupied: set[Hex] = set()
    for _, u in sorted(game.pos.units.items()):
        h = game.hex_of(u.hex)
        if h is None or u.routed:
            continue
        held = [h, *(x for e in u.extends if (x := game.hex_of(e)) is not None)]
        occupied.update(held)
        if u.seat == seat or u.facing is None or u.abandoned is not None:
            continue
        for x in held:
            fronts.setdefault(x, set()).update(front_hexes(x, u.facing))
    return {h: frozenset(v) for h, v in fronts.items()}, occupied


def envelopment(game: GbacwGame, key: str, target: Hex) -> ExtendedLine:
    """002 §8.48 for ``key`` shocking the lone enemy hex ``target``: the line after its
    pivot, or a RuleError naming the condition that fails."""
    u = game.pos.units[key]
    line = line_of(_fg(game), key)
    if line is None or u.extension != "line":
        raise RuleError("8.48", f"{key} is not an extended line")
    if any(game.pos.units[k].extends for k in units_at(_fg(game), target)
           if game.pos.units[k].seat != u.seat):
        raise RuleError("8.48", "envelopment takes a one-hex enemy unit, not an extended one")
    fronts, occupied = _ground(game, u.seat)
    if target not in fronts:
        raise RuleError("8.48", f"no enemy unit in {_hid(game, target)}")
    new = envelop(line, target, orders=game.orders_of(key), disordered=u.disordered,
                  refused=bool(u.refused), enemy_fronts=fronts,
                  occupied=occupied - set(line.hexes))
    mover = next(i for i, h in enumerate(line.hexes) if h not in new.hexes)
    goal = next(h for h in new.hexes if h not in line.hexes)
    step = entry_cost(game.cat.board, line.hexes[mover], goal,
                      unit_class=unit_class(game.counter(key)),
                      orders=game.orders_of(key),  # type: ignore[arg-type]
                      use_paths=False)
    if isinstance(step, RuleError):
        raise RuleError("8.48", f"the free half cannot enter {_hid(game, goal)}: "
                        f"{step.message}")
    return new


def _targets(shock: dict[str, Any]) -> list[str]:
    return [str(t) for t in shock.get("targets", [])]


def extended_targets(game: GbacwGame, defenders: Sequence[str], shock: dict[str, Any]
                     ) -> set[str]:
    """002 §8.5, §8.46: an extended column or line is shocked through any of its hexes (its
    attackers need not touch them all): the designated hexes of a defending column's trail or
    line's extensions stand as hexes of the shock beside the counters' own, so an attack
    touching those alone still fights (the defender counted once)."""
    parts = {x for d in defenders if game.pos.units[d].extension in ("line", "column")
             for x in game.pos.units[d].extends}
    return {t for t in _targets(shock) if t in parts}


def check(game: GbacwGame, action: Action) -> None:
    """The ``envelop`` entries of a shock designation (002 §8.48): each an attacker of its
    shock, a two-hex line that may envelop the shock's one target hex; a unit once."""
    seen: set[str] = set()
    for i, s in enumerate(action.get("shocks", [])):
        if not isinstance(s, dict) or ENVELOP not in s:
            continue
        names = s[ENVELOP]
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise RuleError("8.48", f"shocks.{i}.envelop must be a list of unit ids")
        for k in names:
            if k not in s.get("attackers", []):
                raise RuleError("8.48", f"shocks.{i}.envelop: {k} is not one of its attackers")
            if k in seen:
                raise RuleError("8.48", f"shocks.{i}.envelop: {k} envelops once")
            seen.add(k)
            targets = _targets(s)
            if len(targets) != 1:
                raise RuleError("8.48", "an envelopment shocks one enemy hex")
            h = game.hex_of(targets[0])
            assert h is not None  # check_shock parsed the targets
            envelopment(game, k, h)


def variants(game: GbacwGame, designations: list[Action]) -> list[Action]:
    """The listed designations again with one enveloping line each (002 §8.48)."""
    out: list[Action] = []
    for a in designations:
        for i, s in enumerate(a["shocks"]):
            targets = _targets(s)
            if len(targets) != 1:
                continue
            h = game.hex_of(targets[0])
            for k in s["attackers"]:
                if h is None or game.pos.units[k].extension != "line":
                    continue
                try:
                    envelopment(game, k, h)
                except RuleError:
                    continue
                b = copy.deepcopy(a)
                b["shocks"][i][ENVELOP] = [k]
                out.append(b)
    return out


def chosen(action: Action) -> dict[str, str]:
    """The designation's enveloping lines -> the hex each envelops (kept in the shock's
    context until step 3) (002 §8.48)."""
    return {str(k): _targets(s)[0] for s in action.get("shocks", [])
            if isinstance(s, dict) for k in s.get(ENVELOP, [])}


def pivot_all(game: GbacwGame, ctx: dict[str, Any], uncommitted: set[str]) -> list[Event]:
    """Step 3 of shock (002 §8.48): each chosen line that passed its green check and may
    still envelop swings its free half round the defender, free of MP; the others shock
    as they stand (event ``envelop_lost``)."""
    ev: list[Event] = []
    for k, t in sorted(ctx.pop(ENVELOP, {}).items()):
        u = game.pos.units[k]
        h = game.hex_of(t)
        if k in uncommitted or u.hex is None or h is None:
            continue
        try:
            new = envelopment(game, k, h)
        except RuleError as exc:
            ev.append(Event("envelop_lost", "8.48", {"unit": k, "target": t,
                                                     "rule": exc.rule, "reason": str(exc)}))
            continue
        ev.append(place_line(game, k, new, event="envelop", rule="8.48",
                             extra={"target": t}))
        ctx[ENVELOPED] = sorted({*ctx.get(ENVELOPED, []), k})
    game._memo.clear()
    return ev


def place_line(game: GbacwGame, key: str, new: ExtendedLine, *, event: str, rule: str,
               extra: dict[str, Any] | None = None) -> Event:
    """Put ``key``'s line on ``new`` (counter, extensions, facing) and say so (002 §8.47-8.49)."""
    u = game.pos.units[key]
    before = [u.hex, *u.extends]
    _put(game, key, new)
    return Event(event, rule, {"unit": key, "from": before, "hex": u.hex,
                               "extends": list(u.extends), "facing": new.facing.to_json(),
                               **(extra or {})})


def _put(game: GbacwGame, key: str, new: ExtendedLine) -> None:
    u = game.pos.units[key]
    here = new.hexes[new.counter]
    u.hex = _hid(game, here)
    u.extends = [_hid(game, h) for h in new.hexes if h != here]
    u.facing = new.facing


def gather(game: GbacwGame, ctx: dict[str, Any], key: str) -> list[Event]:
    """002 §8.49: an enveloping line gathers into its counter's hex (marker off)."""
    if key not in ctx.get(ENVELOPED, []):
        return []
    ctx[ENVELOPED] = [k for k in ctx[ENVELOPED] if k != key]
    u = game.pos.units[key]
    gone = list(u.extends)
    u.extension, u.extends = None, []
    game._memo.clear()
    return [Event("envelop_retract", "8.49", {"unit": key, "hex": u.hex, "hexes": gone})]


def gather_after_roll(game: GbacwGame, ctx: dict[str, Any], attackers: list[str], *,
                      retreating: set[str], vacated: bool, continues: bool) -> list[Event]:
    """002 §8.49 after a shock's roll: an enveloping attacker that retreats, must advance
    into the emptied hex or continues the shock gathers first."""
    ev: list[Event] = []
    for k in attackers:
        if k in retreating or vacated or continues:
            ev += gather(game, ctx, k)
    return ev


def advance_line(game: GbacwGame, key: str, to: Hex) -> tuple[ExtendedLine, str] | None:
    """002 §8.47: where an extended line advancing into the emptied ``to`` goes while
    staying extended: straight ahead or pivoting on an end (as §8.48's swing), ``to`` among
    its new hexes, every hex entered empty of the enemy and of friends other than
    artillery, open to the unit; with the D/d met ("none", "auto", "udd": one roll for the
    whole line, §8.45). None when it cannot stay extended (it then gathers, §8.47)."""
    line = line_of(_fg(game), key)
    u = game.pos.units[key]
    if line is None or u.facing is None:
        return None
    board = game.cat.board
    cls = unit_class(game.counter(key))
    blocked: set[Hex] = set()
    for k, v in game.pos.units.items():
        h = game.hex_of(v.hex)
        if k == key or h is None:
            continue
        held = {h, *(x for e in v.extends if (x := game.hex_of(e)) is not None)}
        if v.seat != u.seat:
            if not v.routed and v.abandoned is None:
                blocked |= held
        elif unit_class(game.counter(k)) != "artillery":
            blocked |= held
        else:
            blocked |= held - {h}  # artillery may share a line's hex, not another's part
    best: tuple[int, int, ExtendedLine, str] | None = None
    for rank, new in enumerate(line_moves(line)):
        if to not in new.hexes:
            continue
        need = "none"
        ok = True
        entered = 0
        for a, b in zip(line.hexes, new.hexes, strict=True):
            if a == b:
                continue
            entered += 1
            frm = a if a.distance(b) == 1 else new.hexes[len(new.hexes) // 2]
            if b not in board.hexes or b in blocked:
                ok = False
                break
            step = entry_cost(board, frm, b, unit_class=cls,
                              orders=game.orders_of(key),  # type: ignore[arg-type]
                              use_paths=False)
            if isinstance(step, RuleError):
                ok = False
                break
            if step.disorder == "auto" or (step.disorder == "udd" and need == "none"):
                need = str(step.disorder)
        if ok and (best is None or (entered, rank) < best[:2]):
            best = (entered, rank, new, need)
    return None if best is None else (best[2], best[3])


def advance_extended(game: GbacwGame, key: str, to: Hex, *, rule: str
                     ) -> dict[str, Any] | None:
    """Carry out :func:`advance_line` (002 §8.47) for the shock step: the event's data
    (``from``, ``to``, ``extends``, the D/d check), or None when the line cannot advance
    extended (or ``key`` is no line)."""
    found = advance_line(game, key, to)
    if found is None:
        return None
    new, need = found
    u = game.pos.units[key]
    me = combatant_of(game, key)
    frm = [u.hex, *u.extends]
    _put(game, key, new)
    data: dict[str, Any] = {"unit": key, "from": frm[0], "to": _hid(game, to),
                            "hex": u.hex, "extends": list(u.extends), "extended": True}
    if frm != [u.hex, *u.extends]:
        data["was"] = frm
    if need == "auto":
        u.disordered = True
        data["terrain"] = "D"
    elif need == "udd":
        c = udd_check(game.dice, me, "advance into terrain", rule)
        u.disordered = u.disordered or not c.passed
        data["terrain"] = c.to_json()
    entered = {u.hex, *u.extends} - set(frm)
    for k, x in sorted(game.pos.units.items()):  # §12.81: guns the advance reaches
        if x.hex in entered and x.seat == u.seat and x.abandoned is not None:
            x.abandoned = None
            x.disordered = True
            data.setdefault("recrewed", []).append(k)
    game._memo.clear()
    return data


# --- retreating extended (002 §8.47) ---------------------------------------------------------


def _line_at(game: GbacwGame, key: str, here: Hex) -> ExtendedLine | None:
    """``key``'s line with its counter in ``here`` (a unit waiting for its owner's retreat
    path is off the map meanwhile, so its own ``hex`` cannot say)."""
    u = game.pos.units[key]
    if u.extension != "line" or not u.extends or u.facing is None \
            or u.facing.kind != "vertex":
        return None
    parts = {game.cat.board.parse(x) for x in u.extends}
    sides: list[RefuseSide] = [s for s in SIDES
                               if here.neighbour(flank_direction(u.facing, s)) in parts]
    if len(sides) != len(parts):
        return None
    return ExtendedLine.extend(here, u.facing, sides)


def retreats_extended(game: GbacwGame, key: str, here: Hex, path: RetreatPath,
                      sur: Surroundings) -> bool:
    """002 §8.47: whether ``key``'s line can follow its counter's retreat ``path`` still
    extended: every part stepping the same way, facing kept, into hexes open to it that
    hold no enemy (nor an enemy's part), no enemy front hex, no hex next to the causing
    units, no hex of a shock still to resolve, no "D" or "d", and no friend other than guns
    facing its way; the counter's path passes through no friends. A reading: a part never
    meets a terrain check (such a line gathers instead)."""
    line = _line_at(game, key, here)
    u = game.pos.units[key]
    if line is None or path.through or u.facing is None:
        return False
    board = game.cat.board
    cls = unit_class(game.counter(key))
    enemy_parts = {x for k, v in game.pos.units.items() if v.seat != u.seat
                   for x in (game.hex_of(e) for e in v.extends) if x is not None}
    friends: dict[Hex, list[str]] = {}
    for k, v in game.pos.units.items():
        h = game.hex_of(v.hex)
        if k != key and v.seat == u.seat and h is not None:
            friends.setdefault(h, []).append(k)
    parts = [h for h in line.hexes if h != here]
    prev = parts
    for h in path.hexes:
        dq, dr = h.q - here.q, h.r - here.r
        new = [Hex(x.q + dq, x.r + dr) for x in parts]
        for a, b in zip(prev, new, strict=True):
            if b not in board.hexes or b in sur.enemy or b in enemy_parts \
                    or b in sur.enemy_front or b in sur.pending \
                    or any(c.distance(b) <= 1 for c in sur.causing):
                return False
            if any(game.pos.units[k].facing != u.facing
                   or unit_class(game.counter(k)) != "artillery" for k in friends.get(b, [])):
                return False
            step = entry_cost(board, a, b, unit_class=cls,
                              orders=game.orders_of(key),  # type: ignore[arg-type]
                              use_paths=False)
            if isinstance(step, RuleError) or step.disorder != "none":
                return False
        prev = new
    return True


def keep_extended(game: GbacwGame, key: str, here: Hex, opts: RetreatOptions,
                  sur: Surroundings) -> RetreatOptions:
    """002 §8.47: an extended line retreats extended when it can: if some of the allowed
    paths let it, only those are offered; otherwise all (it then gathers and takes its UDD,
    the results code's)."""
    if game.pos.units[key].extension != "line":
        return opts
    ok = tuple(pth for pth in opts.paths if retreats_extended(game, key, here, pth, sur))
    return opts if not ok else RetreatOptions(ok, opts.lost_sp, opts.abandoned)


def shift_parts(game: GbacwGame, key: str, frm: Hex, to: Hex) -> list[str]:
    """Move the line's extensions with its counter from ``frm`` to ``to`` (002 §8.47); the
    new extension hexes."""
    u = game.pos.units[key]
    dq, dr = to.q - frm.q, to.r - frm.r
    u.extends = [_hid(game, Hex(x.q + dq, x.r + dr))
                 for x in (game.cat.board.parse(e) for e in u.extends)]
    game._memo.clear()
    return list(u.extends)


def _open_to(game: GbacwGame, key: str, frm: Hex, to: Hex) -> bool:
    """Whether a part of ``key`` may step from ``frm`` into ``to`` (002 §8.44): on the map,
    open to the unit, no enemy or enemy part there, no friend but guns facing its way."""
    u = game.pos.units[key]
    board = game.cat.board
    if to not in board.hexes:
        return False
    for k, v in game.pos.units.items():
        h = game.hex_of(v.hex)
        if k == key or h is None:
            continue
        held = {h, *(x for e in v.extends if (x := game.hex_of(e)) is not None)}
        if to not in held:
            continue
        if v.seat != u.seat or to != h or v.facing != u.facing \
                or unit_class(game.counter(k)) != "artillery":
            return False
    step = entry_cost(board, frm, to, unit_class=unit_class(game.counter(key)),
                      orders=game.orders_of(key),  # type: ignore[arg-type]
                      use_paths=False)
    return not isinstance(step, RuleError)


def withdraw_parts(game: GbacwGame, key: str, frm: Hex, to: Hex) -> dict[str, Any]:
    """The parts of an extended unit whose counter has just withdrawn before shock from
    ``frm`` to ``to`` (002 §11.33, facing kept): a line steps back whole when every part can
    (read with §8.47: it keeps its extension), otherwise — and always for a column — it
    gathers in the counter's new hex. The event's data to add (empty for a unit in one hex)."""
    u = game.pos.units[key]
    if not u.extends:
        return {}
    dq, dr = to.q - frm.q, to.r - frm.r
    parts = [game.cat.board.parse(e) for e in u.extends]
    moved = [Hex(x.q + dq, x.r + dr) for x in parts]
    if u.extension == "line" and all(_open_to(game, key, a, b)
                                     for a, b in zip(parts, moved, strict=True)):
        u.extends = [_hid(game, h) for h in moved]
        game._memo.clear()
        return {"extends": list(u.extends)}
    gone = list(u.extends)
    u.extension, u.extends = None, []
    game._memo.clear()
    return {"given_up": gone}
