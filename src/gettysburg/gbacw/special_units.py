"""The battle book's special units and leaders in the engine (004 §14.4 Berdan's
sharpshooters, §14.6 Trimble), through the pure rules of :mod:`tdg_leaders`. A step module:
it types the game as :class:`engine_view.GameView`; its choices reach the engine through
:mod:`scenario_step`'s orders-segment choices (the legal list, the check and the execution
already call them).

- tdg.14.4 (:func:`berdan_options`): at the start of each turn (the Union orders segment)
  each sharpshooter unit (1 and 2 USSS) may pick the division whose AMs it activates on that
  turn. The engine activates brigades, so the pick is an ``attach`` of the unit to that
  division's first brigade in play (002 §4.32's attachment: the unit acts with that brigade,
  on that division's AMs); naming its own brigade takes it back to Ward's. One choice a
  turn. Its range (6 hexes, -2 at 6) is the range chart's unit rule
  (:func:`range_rule`), its lone rally the engine's (rally needs no leader), and a routed
  sharpshooter goes to III Corps' box with Ward's brigade, where our OOB puts it.
- tdg.14.6 (:func:`trimble_options`): Trimble may take any Confederate corps or division
  post whose leader has fallen and been replaced (the ``trimble`` choice, in the
  Confederates' orders segment; once in the game): the post's ratings become Trimble's
  (corps: the front of his counter, division: its back, as :func:`tdg_leaders.trimble_side`
  says). Pender's post already falls to him by the OOB's replacement chain.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gettysburg.core.protocol import Action, Event, RuleError

from .tdg_leaders import BERDAN_RANGE_RULE, SHARPSHOOTERS, trimble_side

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame

TRIMBLE = "trimble"
SHARPSHOOTER_FLAG = "sharpshooter"


def range_rule(flags: tuple[str, ...] | list[str]) -> str | None:
    """The range chart's unit rule for a counter with these OOB flags (tdg.14.4), for the
    fire code's range lookups: ``all_charts().range.max_range(code, light, unit_rule=...)``."""
    return BERDAN_RANGE_RULE if SHARPSHOOTER_FLAG in flags else None


# --- tdg.14.4 Berdan's sharpshooters -------------------------------------------------------
def sharpshooter(game: GbacwGame, key: str) -> bool:
    """Whether ``key`` is one of Berdan's sharpshooter units (004 §14.4)."""
    c = game.counter(key)
    return c.unit in SHARPSHOOTERS or SHARPSHOOTER_FLAG in c.flags


def _first_brigades(game: GbacwGame, seat: str) -> list[str]:
    out = []
    for d in game.divisions(seat):
        for n in game.division_brigades(d):
            leader = game.cat.brigade_leader.get(n, "")
            if game.cat.leader_level.get(leader) == "brigade" and game.in_play(n):
                out.append(n)
                break
    return out


def berdan_options(game: GbacwGame, seat: str) -> list[Action]:
    """tdg.14.4 in the Union orders segment: each sharpshooter unit on the map not yet
    placed this turn joins a division (by its first brigade in play), or goes back to its
    own brigade."""
    p = game.pos
    if seat != "usa" or p.phase != "orders":
        return []
    out: list[Action] = []
    for k, u in sorted(p.units.items()):
        if u.seat != seat or u.hex is None or k in p.attach_done or not sharpshooter(game, k):
            continue
        own = game.counter(k).formation
        now = p.attached.get(k, own)
        targets = [n for n in _first_brigades(game, seat) if n != now]
        if now != own and own not in targets:
            targets.append(own)
        out += [{"type": "attach", "unit": k, "brigade": n} for n in targets]
    return out


def berdan_attach(game: GbacwGame, action: Action, seat: str) -> bool:
    """Whether ``action`` (an ``attach``) places a sharpshooter (tdg.14.4); refuses it under
    ``tdg.14.4`` when it is not one of :func:`berdan_options`."""
    key = str(action.get("unit"))
    if key not in game.pos.units or not sharpshooter(game, key):
        return False
    if action not in berdan_options(game, seat):
        raise RuleError("tdg.14.4", f"{key} picks a Union division (its first brigade in "
                        "play) or its own brigade, once a turn in the orders segment")
    return True


# --- tdg.14.6 Trimble ----------------------------------------------------------------------
def _trimble_free(game: GbacwGame) -> bool:
    p = game.pos
    return TRIMBLE not in p.dead and TRIMBLE not in p.acting.values() \
        and "trimble" not in p.tdg


def trimble_options(game: GbacwGame, seat: str) -> list[Action]:
    """tdg.14.6 in the Confederate orders segment: a corps or division post whose leader
    fell and is held by a replacement may be given to Trimble, once in the game."""
    p = game.pos
    if seat != "csa" or p.phase != "orders" or not _trimble_free(game):
        return []
    if TRIMBLE in p.leaders and p.leaders[TRIMBLE] is not None:
        return []  # on the map in a post of his own already
    out: list[Action] = []
    for post, holder in sorted(p.acting.items()):
        if p.leader_seat.get(post) != seat or holder == TRIMBLE:
            continue
        if game.cat.leader_level.get(post) in ("corps", "division"):
            out.append({"type": "trimble", "post": post})
    return out


def check_trimble(game: GbacwGame, action: Action, seat: str) -> None:
    """Refuse a Trimble action that is not among his options now (004 §14.6)."""
    if action not in trimble_options(game, seat):
        raise RuleError("tdg.14.6", "Trimble takes a Confederate corps or division post "
                        "whose leader has fallen, once in the game (in the orders segment)")


def apply_trimble(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Trimble takes the fallen leader's post, once in the game (004 §14.6)."""
    p = game.pos
    post = str(action["post"])
    side = trimble_side(str(game.cat.leader_level.get(post)))
    before = p.acting.get(post)
    p.acting[post] = TRIMBLE
    p.tdg["trimble"] = post
    game._memo.clear()
    return [Event("trimble", "tdg.14.6", {"post": post, "side": side, "instead_of": before})]
