"""What one seat observes in Badges of Courage, as JSON and as a float tensor.

Both are built from :meth:`BocGame.view` (the fog of war lives there, 3.0) and nothing
else of the game, with two reductions:

* hidden enemy blocks lose their opaque handle: the handle is a per-game function of the
  unit's identity, so two positions that differ only in *which* enemy unit hides behind a
  block would otherwise look different; what is left (side, hex, column) is what the table
  shows;
* the legal action list and the command-range overlay are dropped (both follow from the
  rest), which keeps the text short.

The tensor has :data:`PLANES` planes over the board's hexes (sorted hex ids) and then the
:data:`SCALARS` scalars; see ``docs/research.md``. Given no observation, it is read
straight from the state under the fog's rule (:func:`gettysburg.boc.fog.sees`), without
building the view's labels, handles, command ranges and legal actions (the adapters
already hold the legal list; building the whole view listed it a second time). A test
checks both routes give the same tensor.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from gettysburg.boc.fog import sees
from gettysburg.boc.game import BocGame
from gettysburg.boc.state import ON_MAP
from gettysburg.boc.victory import csa_total
from gettysburg.core.canonical import JSONDict, canonical_json
from gettysburg.core.protocol import REFEREE, Seat

PLANES = ("own_blocks", "own_strength", "own_hq", "own_artillery", "own_cavalry",
          "own_spent", "enemy_revealed", "enemy_revealed_strength", "enemy_hidden",
          "control_own", "control_enemy", "victory_hex")
PHASES = ("deploy", "command", "movement", "fire", "melee", "supply")
SCALARS = (*(f"phase_{p}" for p in PHASES), "day1", "day2", "day3", "hour", "night",
           "active", "to_move", "decision", "own_losses", "enemy_losses", "victory_total",
           "over")
# Unit fields left at their defaults say nothing; dropping them keeps the text short.
_DEFAULTS: dict[str, Any] = {"revealed": False, "cmd_active": False, "in_command": False,
                             "sup_active": False, "supplied": False, "fired": False,
                             "moved": False, "mp_used": 0, "column": False,
                             "exit_hex": None, "arrival_key": None, "arrival_entry": None,
                             "arrival_hex": None, "night_road": False}


def observation_json(game: BocGame, seat: Seat) -> JSONDict:
    """The seat's view without handles, legal actions or the command-range overlay."""
    view = game.view(seat)
    view.pop("legal_actions", None)
    view.pop("command_ranges", None)
    view["hidden"] = sorted(({"side": h["side"], "hex": h["hex"],
                              "column": bool(h.get("column"))} for h in view["hidden"]),
                            key=lambda d: (str(d["hex"]), str(d["side"]), d["column"]))
    view["units"] = [{k: v for k, v in u.items() if k not in _DEFAULTS or v != _DEFAULTS[k]}
                     for u in view["units"]]
    return view


def observation_string(game: BocGame, seat: Seat) -> str:
    return canonical_json(observation_json(game, seat))


def tensor_size(hexes: Sequence[str]) -> int:
    return len(PLANES) * len(hexes) + len(SCALARS)


_PLANE = {name: k for k, name in enumerate(PLANES)}


def _rest_of_view(game: BocGame, seat: Seat) -> JSONDict:
    """What the tensor reads of the view besides the blocks, straight from the state."""
    st = game.state
    d = game.decision()
    combat: JSONDict = {"decision": True} if d is not None \
        and seat in (REFEREE, d.seat) else {}
    return {"control": st.control, "phase": st.phase, "day": st.day, "hour": st.hour,
            "night": st.night, "active": st.active, "to_move": game.to_move(),
            "combat": combat, "losses": st.losses,
            "victory": {"total": csa_total(game.board, st)["total"]}, "over": st.over}


def _blocks_from_state(out: list[float], game: BocGame, seat: Seat, at: dict[str, int],
                       n: int) -> None:
    """The block planes read from the state under the fog's rule (:func:`.fog.sees`):
    own blocks in full, enemy blocks on the map by identity and strength once revealed,
    else only where they stand; what the view would show, without building it."""
    own_blocks, own_strength, own_hq, own_art, own_cav, own_spent, enemy, enemy_strength, \
        enemy_hidden = (_PLANE[name] * n for name in PLANES[:9])
    orders = game.orders  # the public order of battle
    for u in game.state.units.values():
        if u.status != ON_MAP or not isinstance(u.hex, str):
            continue
        i = at.get(u.hex)
        if i is None:
            continue
        if u.side == seat:
            kind = orders.oob[u.id].type
            out[own_blocks + i] += 1.0
            out[own_strength + i] += float(u.strength) / 4.0
            if orders.is_hq(u.id):
                out[own_hq + i] += 1.0
            if "artillery" in kind:
                out[own_art + i] += 1.0
            if "cav" in kind:
                out[own_cav + i] += 1.0
            if u.moved or u.fired:
                out[own_spent + i] += 1.0
        elif seat == REFEREE or sees(seat, u):
            out[enemy + i] += 1.0
            out[enemy_strength + i] += float(u.strength) / 4.0
        else:
            out[enemy_hidden + i] += 1.0


def _blocks_from_view(add: Callable[[str, object, float], None], game: BocGame, seat: Seat,
                      view: JSONDict) -> None:
    """The block planes read from the seat's observation."""
    orders = game.orders  # the public order of battle
    for u in view["units"]:
        if u.get("status", "on_map") != "on_map":
            continue
        hx, strength = u.get("hex"), float(u.get("strength", 0))
        if u["side"] == seat:
            kind = orders.oob[u["id"]].type
            add("own_blocks", hx, 1.0)
            add("own_strength", hx, strength / 4.0)
            if orders.is_hq(u["id"]):
                add("own_hq", hx, 1.0)
            if "artillery" in kind:
                add("own_artillery", hx, 1.0)
            if "cav" in kind:
                add("own_cavalry", hx, 1.0)
            if u.get("moved") or u.get("fired"):
                add("own_spent", hx, 1.0)
        else:
            add("enemy_revealed", hx, 1.0)
            add("enemy_revealed_strength", hx, strength / 4.0)
    for h in view["hidden"]:
        add("enemy_hidden", h["hex"], 1.0)


def _frame(game: BocGame, hexes: Sequence[str]) -> tuple[dict[str, int], list[float]]:
    """Each hex's index and a blank tensor but for the victory-hex plane (the same for
    every position: a tensor starts as a copy of it), kept on the board object for the
    last hex order asked for."""
    key = tuple(hexes)
    got = game.board.__dict__.get("_boc_tensor_blank")
    if not (isinstance(got, tuple) and got[0] == key):
        at = {hx: i for i, hx in enumerate(key)}
        blank = [0.0] * tensor_size(key)
        start = _PLANE["victory_hex"] * len(key)
        for info in game.board.victory_hexes():
            if info.id in at:
                blank[start + at[info.id]] += float(info.victory) / 5.0
        got = (key, at, blank)
        game.board.__dict__["_boc_tensor_blank"] = got
    return got[1], got[2]


@lru_cache(maxsize=8)
def _offsets(n: int) -> tuple[dict[str, int], dict[str, int]]:
    """Where each plane and each scalar starts in a tensor over ``n`` hexes."""
    base = len(PLANES) * n
    return ({name: k * n for k, name in enumerate(PLANES)},
            {name: base + k for k, name in enumerate(SCALARS)})


def observation_tensor(game: BocGame, seat: Seat, hexes: Sequence[str],
                       view: JSONDict | None = None) -> list[float]:
    """Planes over ``hexes`` then scalars, from the seat's (handle-free) observation
    (default: read from the state, as the observation would show it)."""
    at, blank = _frame(game, hexes)
    n = len(hexes)
    out = blank.copy()  # the victory-hex plane already filled
    plane, scal = _offsets(n)

    def add(name: str, hx: object, value: float) -> None:
        if isinstance(hx, str) and hx in at:
            out[plane[name] + at[hx]] += value

    if view is None:
        _blocks_from_state(out, game, seat, at, n)
        obs = _rest_of_view(game, seat)
    else:
        _blocks_from_view(add, game, seat, view)
        obs = view
    # Every hex's control, so without a call of ``add`` each (issue 59).
    own_control, enemy_control = plane["control_own"], plane["control_enemy"]
    for hx, side in obs["control"].items():
        i = at.get(hx) if side and isinstance(hx, str) else None
        if i is not None:
            out[(own_control if side == seat else enemy_control) + i] += 1.0
    if obs["phase"] in PHASES:
        out[scal[f"phase_{obs['phase']}"]] = 1.0
    if 1 <= int(obs["day"]) <= 3:
        out[scal[f"day{obs['day']}"]] = 1.0
    out[scal["hour"]] = int(obs["hour"]) / 24.0
    out[scal["night"]] = float(bool(obs["night"]))
    out[scal["active"]] = float(obs["active"] == seat)
    out[scal["to_move"]] = float(seat in obs["to_move"])
    out[scal["decision"]] = float("decision" in obs.get("combat", {}))
    enemy = "csa" if seat == "usa" else "usa"
    out[scal["own_losses"]] = float(obs["losses"].get(seat, 0)) / 20.0
    out[scal["enemy_losses"]] = float(obs["losses"].get(enemy, 0)) / 20.0
    out[scal["victory_total"]] = float(obs["victory"]["total"]) / 20.0
    out[scal["over"]] = float(bool(obs["over"]))
    return out
