"""What a fire or a shock would face before it is sent, for the web client (the declaration's
``preview`` hook): the chart column or odds, every DRM with its source and section, and the
chance of each result over the ten faces of the d10 (002 §2.5).

Only what the seat may know goes in (the fog, view.py): the enemy's orders and fatigue are
hidden, so the enemy is read as if on Advance orders and unfatigued, and any modifier that
would turn on them is named in ``unknown`` instead of being guessed. Fire: 002 §10.17,
§10.81 (the flank DRM does not apply to a target on March orders). Shock: 002 §11.42-11.45
(the defender's fatigue adds to the attacker's roll, §17.31). The green and pre-shock checks
(§11.36-11.37) come before the fight and are named, not rolled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from gettysburg.core.canonical import JSONDict
from gettysburg.core.protocol import Action, Game, RuleError

from .charts import all_charts
from .command_range import enemy_adjacent_hexes
from .fire import flank_fire
from .fire_action import check_fire, situation, target_keys
from .fire_result import Modifier, fire_modifiers, read_fire
from .paths import command_cost
from .shock import (
    Drm,
    Situation,
    _aspects_of_side,
    front_hex_penalty,
    no_brigadier,
    position,
    rounds_for_attacker,
    shock_drms,
    shock_ratio,
    shock_terrain,
    side_shock_sp,
)
from .shock_action import check_shock

if TYPE_CHECKING:
    from .combatant import Combatant
    from .game import GbacwGame

FACES = range(10)  # a d10 reads 0..9 (002 §2.5)


def preview(game: Game, seat: str, unit: str) -> JSONDict | None:
    """``{"fire": [...], "shock": [...], "lit": [...], "note": str}`` for the seat's unit
    ``unit``: one entry per legal fire at a hex and per legal shock designation naming the
    unit; None when the unit has neither (or is not the seat's) (002 §10.8, §10.17, §11.4)."""
    g: GbacwGame = game  # type: ignore[assignment]
    if g.pos.leader_seat.get(unit) == seat:
        return leader_reach(g, seat, unit)
    u = g.pos.units.get(unit)
    if u is None or u.seat != seat or seat not in g.to_move():
        return None
    legal = g.legal_actions(seat)
    fires = [f for a in legal if a.get("type") == "fire" and a.get("unit") == unit
             if (f := fire_preview(g, seat, a)) is not None]
    shocks = [s for a in legal if a.get("type") == "shock"
              and any(unit in x.get("attackers", []) for x in a.get("shocks", []))
              if (s := shock_preview(g, seat, a)) is not None]
    if not fires and not shocks:
        return None
    lit: list[str] = []
    for f in fires:
        lit += [k for k in f["units"] if k not in lit]
    for s in shocks:
        for part in s["parts"]:
            lit += [k for k in part["defenders"] if k not in lit]
    note = "; ".join([f"fire at {f['target']}: {_odds_text(f['chances'])}" for f in fires]
                     + [f"shock {', '.join(p['targets'] for p in s['parts'])} at "
                        f"{', '.join(p['ratio'] for p in s['parts'])}" for s in shocks])
    return {"fire": fires, "shock": shocks, "lit": lit, "note": note}


def leader_reach(game: GbacwGame, seat: str, leader: str) -> JSONDict | None:
    """``{"reach": [hex ids], "range": MP, "note"}``: the hexes within the seat's leader's
    command range now (002 §4.15: leader MP traced from his hex, not on through hexes next
    to an enemy unless a friendly combat unit holds them; by night the shorter range,
    §16.13), from the positions the seat sees; None off the map."""
    here = game.leader_hex(leader)
    if here is None:
        return None
    rng = game._command_tree(seat).ranges.get(leader, 0)
    enemy = enemy_adjacent_hexes(game.enemy_hexes(seat))
    friends = {h for u in game.pos.units.values()
               if u.seat == seat and (h := game.hex_of(u.hex)) is not None}
    costs = command_cost(game.cat.board, here, enemy_adjacent=lambda h: h in enemy,
                         friendly_combat=lambda h: h in friends, limit_half=2 * rng)
    hexes = {h for h, half in costs.items() if half <= 2 * rng}
    hexes |= {n for n in (here, *here.neighbours()) if n in game.cat.board.hexes}
    ids = sorted(game.cat.board.hexes[h].id for h in hexes if h in game.cat.board.hexes)
    return {"reach": ids, "range": rng, "rule": "4.15",
            "note": f"command range {rng} MP: {len(ids)} hexes (4.15)"}


def _odds_text(chances: Sequence[JSONDict]) -> str:
    return ", ".join(f"{c['result']} {c['chance']}%" for c in chances)


def _chances(codes: Sequence[str]) -> list[JSONDict]:
    """Each distinct result in the order first met, with its share of the ten faces."""
    out: dict[str, int] = {}
    for c in codes:
        out[c] = out.get(c, 0) + 1
    return [{"result": c, "chance": n * 10, "faces": n} for c, n in out.items()]


def _mods(ms: Sequence[Modifier]) -> list[JSONDict]:
    return [m.to_json() for m in ms]


def fire_preview(game: GbacwGame, seat: str, action: Action) -> JSONDict | None:
    """One phasing shot (002 §10.17, §10.81): the target, range, ammunition, the Fire
    Table's column, every DRM and each result's chance; None if the engine refuses it."""
    try:
        plan = check_fire(game, action, seat)
    except RuleError:
        return None
    charts = all_charts()
    keys = target_keys(game, plan.target)  # an extended unit's part too (8.45)
    top = keys[0]
    tu = game.pos.units[top]
    sit = situation(game, plan, top)
    # the enemy's orders are hidden: the flank DRM read from the facings alone
    geometric = tu.facing is not None and flank_fire(
        plan.target, tu.facing, plan.firer.hex, target_orders="advance",
        ammunition=plan.shot.ammunition)
    sit = replace(sit, flank=geometric)
    mods = fire_modifiers(charts, sit)
    column = charts.fire.column_for(
        "shell" if plan.shot.ammunition == "shell" else "small_arms", plan.sp).id
    reads = [read_fire(charts, column, plan.sp, r, mods) for r in FACES]
    out: JSONDict = {
        "type": "fire", "unit": plan.firer.unit, "target": str(action.get("target")),
        "units": keys, "range": plan.shot.hexes, "ammunition": plan.shot.ammunition,
        "sp": plan.sp, "column": column, "drm": sum(m.value for m in mods),
        "modifiers": _mods(mods),
        "rows": [{"roll": r.roll, "row": r.row, "result": r.result.code} for r in reads],
        "chances": _chances([r.result.code for r in reads]), "rule": "10.17",
        "unknown": [],
    }
    if any(m.source == "flank" for m in mods):
        # §10.81: no flank DRM against March orders, which this seat cannot see
        alt = tuple(m for m in mods if m.source != "flank")
        out["unknown"] = [{"source": "flank", "rule": "10.81",
                           "note": "not if the target is on March orders (hidden)",
                           "chances": _chances([read_fire(charts, column, plan.sp, r, alt)
                                                .result.code for r in FACES])}]
    return out


def _blind(c: Combatant) -> Combatant:
    """An enemy unit as the seat may know it: orders and fatigue unknown (002 §6)."""
    return c.with_(orders="advance", fatigue=0)


def shock_preview(game: GbacwGame, seat: str, action: Action) -> JSONDict | None:
    """One shock designation (002 §11.42-11.45): per shock, both sides' SP, the odds, the
    position, every DRM and each Shock Resolution Table row's chance; None if refused."""
    try:
        plan = check_shock(game, action, seat, mandatory=False)
    except RuleError:
        return None
    board = game.cat.board
    chart = all_charts().shock
    enemies = [_blind(u) if u.side != seat else u for u in plan.units]
    brigade_att = [plan.unit(a) for s in plan.shocks for a in s.attackers]
    parts: list[JSONDict] = []
    for s in plan.shocks:
        att = [plan.unit(a) for a in s.attackers]
        dfn = [_blind(plan.unit(k)) for k in s.defenders]
        if not att or not dfn:
            continue
        try:
            terrain = shock_terrain(board, att, dfn)
        except RuleError:
            continue
        flank_or_rear = bool(_aspects_of_side(dfn, att) & {"flank", "rear"})  # as fight()
        a_sp = side_shock_sp(att, attacking=True, flank_or_rear=flank_or_rear)
        d_sp = side_shock_sp(dfn, attacking=False)
        favour = rounds_for_attacker(att, terrain_drm=terrain[0], continued=False,
                                     terrain_ids=terrain[1])
        ratio = shock_ratio(a_sp, d_sp, favour_attacker=favour)
        pos = position(dfn, att)
        penalty = front_hex_penalty(att, {d.unit for d in dfn},
                                    [u for u in enemies if u.side != seat]) if pos else 0
        sit = Situation(terrain_drm=terrain[0], terrain_ids=terrain[1], position=pos,
                        front_hex_penalty=penalty, no_brigadier=no_brigadier(brigade_att))
        drms: tuple[Drm, ...] = shock_drms(att, dfn, ratio, sit)
        total = sum(d.value for d in drms)
        rows = [{"roll": r, "modified": r + total, "result": chart.result(r + total).id}
                for r in FACES]
        parts.append({
            "attackers": list(s.attackers), "defenders": list(s.defenders),
            "targets": ", ".join(sorted({str(game.pos.units[k].hex) for k in s.defenders})),
            "attacker_sp": str(a_sp), "defender_sp": str(d_sp), "ratio": ratio.label,
            "position": pos, "drm": total, "modifiers": [d.to_json() for d in drms],
            "rows": rows, "chances": _chances([str(r["result"]) for r in rows]),
            "green": [a.unit for a in att if a.green],  # §11.36: checked before the fight
            "unknown": [{"source": "fatigue-defender", "rule": "17.31",
                         "note": "the defender's fatigue (hidden) would add to the roll"}],
        })
    if not parts:
        return None
    return {"type": "shock", "action": action, "parts": parts, "rule": "11.45",
            "before": ["11.36 green check", "11.37 pre-shock check"]}
