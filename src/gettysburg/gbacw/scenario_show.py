"""A GBACW scenario as ``gettysburg scenario show gbacw/<id>`` prints it: the set-up with
names, strengths, hexes and orders, the reinforcement schedule with its times and entries,
the special rules and the victory block (issue 51)."""

from __future__ import annotations

from typing import Any

from gettysburg.gbacw.board import Board, load_board
from gettysburg.gbacw.charts.datafile import DataError
from gettysburg.gbacw.deployment import leader_id, place_leaders, place_units, resolve_units
from gettysburg.gbacw.oob import Oob, default_oob
from gettysburg.gbacw.scenario import Force, Reinforcement, Scenario, Seat, load_scenario

SEATS: tuple[Seat, ...] = ("usa", "csa")


def scenario_doc(scenario: str) -> dict[str, Any]:
    """The JSON document of a scenario; a bad file or name raises ValueError naming it."""
    try:
        scen = load_scenario(scenario)
        return describe(scen, default_oob(), load_board())
    except DataError as exc:
        raise ValueError(str(exc)) from None


def describe(scen: Scenario, oob: Oob, board: Board) -> dict[str, Any]:
    counters = {c.id: c for c in oob.counters()}
    setup: dict[str, Any] = {}
    for seat in SEATS:
        units = [{"counter": p.counter, "unit": counters[p.counter].unit,
                  "brigade": counters[p.counter].formation,
                  "sp": counters[p.counter].sp - p.sp_lost, "hex": p.hex, "orders": p.orders,
                  "facing": p.facing, "extension": list(p.extension), "line": p.line}
                 for p in place_units(scen, seat, oob, board)]
        leaders = [{"leader": lp.leader, "name": oob.leader(lp.leader).name, "hex": lp.hex,
                    "line": lp.line} for lp in place_leaders(scen, seat, oob, board)]
        setup[seat] = {"units": units, "leaders": leaders,
                       "left_out": list(scen.leave_out.get(seat, ()))}
    schedule = {seat: [_group(g, seat, oob) for g in scen.reinforcements.get(seat, ())]
                for seat in SEATS}
    return {
        "id": scen.id, "title": scen.title, "source": scen.source, "summary": scen.summary,
        "maps": list(scen.maps), "first_turn": scen.first_turn, "last_turn": scen.last_turn,
        "initiative": scen.initiative, "options": scen.options.model_dump(),
        "special_rules": [r.model_dump(exclude_defaults=True) for r in scen.special_rules],
        "setup": setup, "reinforcements": schedule,
        "breastworks": [b.model_dump(exclude_defaults=True) for b in scen.breastworks],
        "victory": scen.victory.model_dump(exclude_defaults=True),
    }


def _group(g: Reinforcement, seat: Seat, oob: Oob) -> dict[str, Any]:
    out = g.model_dump(exclude_defaults=True, exclude={"formations", "less", "units",
                                                        "leaders"})
    out["units"] = _units(g, seat, oob, f"reinforcements.{seat}[id={g.id}]")
    out["leaders"] = [{"leader": lid, "name": oob.leader(lid).name} for lid in (
        leader_id(n, seat, oob, g.id, f"leaders[{i}]") for i, n in enumerate(g.leaders))]
    return out


def _units(force: Force, seat: Seat, oob: Oob, where: str) -> list[dict[str, Any]]:
    return [{"unit": u.unit.name, "brigade": u.formation.id, "arm": u.arm, "sp": u.sp}
            for u in resolve_units(force, seat, oob, where)]


def scenario_text(doc: dict[str, Any]) -> str:
    """The same, for people: one line a counter, leader and arriving group."""
    lines = [f"{doc['title']} ({doc['source']}): maps {', '.join(doc['maps'])}, "
             f"{doc['first_turn']} to {doc['last_turn'] or 'open end'}, "
             f"initiative {doc['initiative'] or 'rolled'}"]
    for seat in SEATS:
        s = doc["setup"][seat]
        lines.append(f"\n{seat.upper()} set-up ({len(s['units'])} counters)")
        lines += [f"  {u['hex']}  {u['counter'].split(':', 1)[1]:<24} {u['sp']:>3} SP  "
                  f"{u['orders']}" for u in s["units"]]
        lines += [f"  {ld['hex']}  {ld['name']} (leader)" for ld in s["leaders"]]
        for g in doc["reinforcements"][seat]:
            entry = g["entry"]
            where = (f"area {entry['area']}" if "area" in entry else
                     entry.get("hex") or " or ".join(entry.get("hexes", [])))
            names = [u["unit"] for u in g["units"]] + [ld["name"] for ld in g["leaders"]]
            lines.append(f"  + {g['turn']} at {where}: {', '.join(names)}")
    return "\n".join(lines)
