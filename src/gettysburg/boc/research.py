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
from gettysburg.boc.fog import units_view
from gettysburg.boc.game import BocGame
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

    def board_hexes(self, game: Game) -> list[str]:
        """The board's hex ids in the order the tensor's planes use."""
        return list(_hexes(tuple(i.id for i in _boc(game).board.hexes.values())))

    def fork(self, game: Game) -> Game:
        return resample.fork(_boc(game))

    def remember(self, game: Game, seat: Seat, memory: object | None = None) -> object:
        """The seat's :class:`gettysburg.boc.ai.belief.Sightings` (a copy of ``memory``)
        updated with what it sees now. Only the parts of the view that
        ``Sightings.update`` reads are built (the blocks, clock and losses): a whole view
        costs four times as much."""
        from gettysburg.boc.ai.belief import Sightings

        boc = _boc(game)
        st = boc.state
        shown, hidden = units_view(boc.key, st, seat)
        seen = memory.copy() if isinstance(memory, Sightings) else Sightings()
        seen.update({"seat": seat, "scenario": st.scenario, "day": st.day, "hour": st.hour,
                     "units": shown, "hidden": hidden, "losses": dict(st.losses)})
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


@lru_cache(maxsize=8)
def _hexes(ids: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(ids))


def _start(scenario: str, options: tuple[str, ...]) -> JSONDict:
    from gettysburg.boc.ai.belief import scenario_start

    return scenario_start({"scenario": scenario, "options": list(options)})


_HOOKS = BocResearch()


def hooks() -> BocResearch:
    return _HOOKS
