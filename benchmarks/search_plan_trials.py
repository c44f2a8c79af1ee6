"""Do search's optional plans pay? The command and fire plans, measured against the general.

``search`` ships with two kinds of plan written, tested and switched off
(``search.COMMAND_PLANS``, ``search.FIRE_PLANS``; docs/ai.md, "Plans"): which HQs to
activate in the command phase (4.3), and whether a block should keep its fire to attack
in melee instead (7.1). This script plays ``search`` with one of them switched on against
the general, on the seeds of ``gettysburg simulate --seed`` so that each game pairs with
the general's own game of its seed and with plain search's::

    .venv/bin/python benchmarks/search_plan_trials.py --agent search-command --games 10 \\
        --seed 700 --budget 2 --workers 1 --out results/search_plans_s10.jsonl
    .venv/bin/python benchmarks/search_plan_trials.py --agent search-fire --games 10 \\
        --seed 700 --budget 2 --workers 1 --out results/search_plans_s10.jsonl
    .venv/bin/python benchmarks/search_vs_general.py results/search_plans_s10.jsonl \\
        results/general_vs_general_s8.jsonl --agent search-command

Agents (all but ``search-move`` registered by this script only):

* ``search-command``: search plus the command plans;
* ``search-fire``: search plus the fire plans;
* ``search-both``: both;
* ``search-move`` (registered by ``gettysburg.ai.search`` since session 26; the same
  agent): search plus the block-by-block movement plans (session 24)::

    .venv/bin/python benchmarks/search_plan_trials.py --agent search-move --games 10 \\
        --seed 20000 --budget 2 --workers 2 --out results/search_move_s24.jsonl
    .venv/bin/python benchmarks/search_vs_general.py results/search_move_s24.jsonl \\
        results/thousands_s20_day1.jsonl --agent search-move

  and session 25's further games, on the next seeds of each seat (``--start``)::

    .venv/bin/python benchmarks/search_plan_trials.py --agent search-move --seats usa \\
        --start 10 --games 30 --seed 20000 --budget 2 --workers 2 \\
        --out results/search_move_usa_s25.jsonl

  and session 26's CSA games (``results/search_move_csa_s26.jsonl``, ``--seats csa
  --start 14 --games 26``).
* ``search-move-wide`` (session 27): ``search-move`` searching wider, blocks within 3
  hexes of a known enemy and 3 rival destinations (``MOVE_VARIANTS``)::

    .venv/bin/python benchmarks/search_plan_trials.py --agent search-move-wide --seats usa \\
        --games 24 --seed 20000 --budget 2 --workers 2 \\
        --out results/search_move_wide_usa_s27.jsonl
"""

from __future__ import annotations

import argparse

from search_vs_general import play_against_general

from gettysburg.ai.agent import register_agent
from gettysburg.ai.search import FIRE, Horizon, MoveSearchAgent, SearchAgent

#: agent name -> (command plans, fire plans, movement plans)
VARIANTS = {"search-command": (True, False, False), "search-fire": (False, True, False),
            "search-both": (True, True, False)}
#: agent name -> (contact hexes, other destinations): the movement plans of ``search-move``
#: searched wider (session 27): blocks within 3 hexes of a known enemy, 3 rival destinations.
MOVE_VARIANTS = {"search-move-wide": (3, 3)}
#: Registered by the package (``search.MoveSearchAgent``), offered here too.
REGISTERED = ["search-move"]


def _variant(name: str, command: bool, fire: bool, move: bool) -> type[SearchAgent]:
    class Variant(SearchAgent):
        def __init__(self, seed: str = "0") -> None:
            super().__init__(seed)
            self.command_plans, self.fire_plans, self.move_plans = command, fire, move

    Variant.name = name
    Variant.__name__ = Variant.__qualname__ = "SearchAgent_" + name.replace("-", "_")
    return Variant


for _name, (_command, _fire, _move) in VARIANTS.items():
    register_agent(_name, _variant(_name, _command, _fire, _move))


def _move_variant(name: str, contact: int, alternatives: int) -> type[SearchAgent]:
    class MoveVariant(MoveSearchAgent):
        def __init__(self, seed: str = "0") -> None:
            super().__init__(seed)
            self.move_contact, self.move_alternatives = contact, alternatives

    MoveVariant.name = name
    MoveVariant.__name__ = MoveVariant.__qualname__ = "MoveSearchAgent_" + name.replace("-", "_")
    return MoveVariant


for _name, (_contact, _alternatives) in MOVE_VARIANTS.items():
    register_agent(_name, _move_variant(_name, _contact, _alternatives))

#: agent name -> the move plans' horizon (session 28): ``search-move`` whose move plans
#: play on through our next fire phase, so a move into the line is judged by our fire from
#: it as well as by the enemy's answer.
HORIZON_VARIANTS = {"search-move-fire": FIRE}


def _horizon_variant(name: str, horizon: Horizon) -> type[SearchAgent]:
    class HorizonVariant(MoveSearchAgent):
        def __init__(self, seed: str = "0") -> None:
            super().__init__(seed)
            self.move_horizon = horizon

    HorizonVariant.name = name
    HorizonVariant.__name__ = HorizonVariant.__qualname__ = \
        "MoveSearchAgent_" + name.replace("-", "_")
    return HorizonVariant


for _name, _horizon in HORIZON_VARIANTS.items():
    register_agent(_name, _horizon_variant(_name, _horizon))

#: agent name -> (style search, only in the endgame, mass plans in the endgame): the
#: endgame plans (session 28), the move and melee plans of the last two turns before a
#: verdict played to that verdict.
ENDGAME_VARIANTS = {"search-end-only": (False, True, False),
                    "search-end-mass-only": (False, True, True),
                    "search-move-end": (True, False, False)}


def _endgame_variant(name: str, styles: bool, only: bool, mass: bool) -> type[SearchAgent]:
    class EndgameVariant(MoveSearchAgent):
        def __init__(self, seed: str = "0") -> None:
            super().__init__(seed)
            self.endgame, self.style_search, self.only_endgame = True, styles, only
            self.endgame_mass = mass

    EndgameVariant.name = name
    EndgameVariant.__name__ = EndgameVariant.__qualname__ = \
        "MoveSearchAgent_" + name.replace("-", "_")
    return EndgameVariant


for _name, (_styles, _only, _mass) in ENDGAME_VARIANTS.items():
    register_agent(_name, _endgame_variant(_name, _styles, _only, _mass))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--agent", required=True,
                    choices=sorted([*VARIANTS, *MOVE_VARIANTS, *HORIZON_VARIANTS,
                                     *ENDGAME_VARIANTS, *REGISTERED]))
    ap.add_argument("--scenario", default="boc/day1")
    ap.add_argument("--games", type=int, default=10, help="games per seat")
    ap.add_argument("--seed", default="700")
    ap.add_argument("--budget", type=float, default=2.0)
    ap.add_argument("--start", type=int, default=0,
                    help="skip this many seeds a seat (extend an earlier run)")
    ap.add_argument("--seats", nargs="+", default=["usa", "csa"], choices=["usa", "csa"])
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out")
    args = ap.parse_args()
    play_against_general(args.agent, args.scenario, args.games, args.seed, args.budget,
                         args.seats, args.workers, args.out, start=args.start)


if __name__ == "__main__":
    main()
