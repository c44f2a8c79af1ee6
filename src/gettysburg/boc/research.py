"""Badges of Courage research hooks (:class:`gettysburg.core.protocol.ResearchHooks`).

The action codec (:mod:`gettysburg.boc.action_codec`), the handle-free observation
(:mod:`gettysburg.boc.observation`) and re-dealt hidden identities
(:mod:`gettysburg.boc.resample`) behind the interface the adapters in
``gettysburg.interop`` use.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from gettysburg.boc import action_codec, observation, resample
from gettysburg.boc.fog import handle, sees
from gettysburg.boc.game import BocGame
from gettysburg.boc.state import ON_MAP
from gettysburg.boc.victory import csa_total
from gettysburg.core.canonical import JSONDict
from gettysburg.core.protocol import Action, Game, Seat

#: VP beyond the win threshold at which the public standing saturates at +/-1.
STANDING_SCALE = 10.0


def _boc(game: Game) -> BocGame:
    if not isinstance(game, BocGame):
        raise TypeError(f"expected a BoC game, got {type(game).__name__}")
    return game


class BocResearch:
    """The hooks; stateless apart from caches of public scenario data."""

    def action_space_size(self, game: Game) -> int:
        return action_codec.action_space_size(_boc(game))

    def encode_actions(self, game: Game, actions: Sequence[Action]) -> list[int]:
        return action_codec.encode_actions(_boc(game), actions)

    def observation_json(self, game: Game, seat: Seat) -> JSONDict:
        return observation.observation_json(_boc(game), seat)

    def observation_tensor(self, game: Game, seat: Seat,
                           observation_data: JSONDict | None = None) -> list[float]:
        return observation.observation_tensor(_boc(game), seat, self.board_hexes(game),
                                              observation_data)

    def tensor_size(self, game: Game) -> int:
        return observation.tensor_size(self.board_hexes(game))

    def board_hexes(self, game: Game) -> tuple[str, ...]:
        """The board's hex ids in the order the tensor's planes use (sorted: the codec's
        order, kept with its layout)."""
        return action_codec.game_layout(_boc(game)).hexes

    def fork(self, game: Game) -> Game:
        return resample.fork(_boc(game))

    def remember(self, game: Game, seat: Seat, memory: object | None = None) -> object:
        """The seat's :class:`gettysburg.boc.ai.belief.Sightings` (a copy of ``memory``)
        updated with what it sees now. Only the parts of the view that
        ``Sightings.update`` reads are built, under the fog's rule (:mod:`.fog`): the
        enemy's blocks (revealed ones by id and strength, hidden ones by handle), the clock,
        losses and fallen leaders. A whole view costs several times as much, and the
        OpenSpiel adapter remembers every position for both seats."""
        from gettysburg.boc.ai.belief import Sightings

        boc = _boc(game)
        st = boc.state
        shown: list[JSONDict] = []
        hidden: list[JSONDict] = []
        for uid in sorted(st.units):  # the view's order (fog.units_view)
            u = st.units[uid]
            if u.side == seat or u.status != ON_MAP:
                continue  # own blocks and blocks off the map: the sightings skip them
            if sees(seat, u):
                shown.append({"id": u.id, "side": u.side, "hex": u.hex,
                              "strength": u.strength})
            else:
                hidden.append({"handle": _handle(boc.key, u.id, u.returned), "hex": u.hex})
        hidden.sort(key=lambda d: (str(d["hex"]), str(d["handle"])))
        # As the view lists them (BocGame.view): an enemy leader fallen while off the map
        # or revealed; a rebuilt one hidden again drops out of the list.
        fallen = sorted(uid for uid in st.fallen if st.units[uid].side == seat
                        or st.units[uid].status != ON_MAP or st.units[uid].revealed)
        seen = memory.copy() if isinstance(memory, Sightings) else Sightings()
        seen.update({"seat": seat, "scenario": st.scenario, "day": st.day, "hour": st.hour,
                     "units": shown, "hidden": hidden, "losses": dict(st.losses),
                     "fallen": fallen})
        return seen

    def resample(self, game: Game, seat: Seat, seed: int,
                 memory: object | None = None) -> Game:
        from gettysburg.boc.ai.belief import Sightings

        boc = _boc(game)
        return resample.resample(boc, seat, random.Random(seed),
                                 _start(boc.state.scenario, tuple(boc.state.options)),
                                 seen=memory if isinstance(memory, Sightings) else None)

    def standing(self, game: Game) -> float:
        """USA's public standing: 0 halfway between the two 9.1 bands, +/-1 at
        ``STANDING_SCALE`` VP beyond them (CSA totals count for the CSA)."""
        st = _boc(game).state
        total = float(csa_total(_boc(game).board, st)["total"])
        lo, hi = float(st.bands["usa_win_max"]), float(st.bands["csa_win_min"])
        mid = (lo + hi) / 2.0
        half = (hi - lo) / 2.0 + STANDING_SCALE
        return max(-1.0, min(1.0, (mid - total) / half))

    def turn(self, game: Game) -> int:
        return _boc(game).state.now

    def render_text(self, game: Game, seat: Seat) -> str:
        """Clock, phase, victory points, then each occupied hex with its blocks: own and
        revealed ones by name and strength, hidden enemy blocks as ``?``."""
        obs = self.observation_json(game, seat)
        vp = obs["victory"]
        lines = [f"{obs['title']} - {obs['time']}, {obs['phase']} phase, "
                 f"{'/'.join(obs['to_move']) or 'nobody'} to move (seen by {seat})",
                 f"CSA victory total {vp['total']} (terrain {vp['terrain']}, losses "
                 f"USA {vp['usa_losses']} CSA {vp['csa_losses']})"]
        stacks: dict[str, list[str]] = {}
        for u in obs["units"]:
            if u.get("status") == "on_map" and u.get("hex"):
                stacks.setdefault(u["hex"], []).append(
                    f"{u['side']}:{u['id']}({u['strength']})")
        for h in obs["hidden"]:
            stacks.setdefault(h["hex"], []).append(f"{h['side']}:?")
        lines += [f"  {hx}: {' '.join(blocks)}" for hx, blocks in sorted(stacks.items())]
        if obs["over"]:
            lines.append(f"result: {obs['result']}")
        return "\n".join(lines) + "\n"


@lru_cache(maxsize=4096)
def _handle(key: bytes, unit_id: str, returned: int) -> str:
    """A hidden block's handle (an HMAC), kept: every action re-reads the same ones."""
    return handle(key, unit_id, returned)


def _start(scenario: str, options: tuple[str, ...]) -> JSONDict:
    from gettysburg.boc.ai.belief import scenario_start

    return scenario_start({"scenario": scenario, "options": list(options)})


_HOOKS = BocResearch()


def hooks() -> BocResearch:
    return _HOOKS
