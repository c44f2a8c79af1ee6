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

Agents: ``search-move`` (registered by ``gettysburg.ai.search`` since session 26) and the
variants in ``VARIANTS``, registered by this script only, each a search agent with some of
its per-agent settings changed (the table says which and why). Session 24's games of the
block-by-block movement plans, and session 25's further games on the next seeds of each
seat (``--start``)::

    .venv/bin/python benchmarks/search_plan_trials.py --agent search-move --games 10 \\
        --seed 20000 --budget 2 --workers 2 --out results/search_move_s24.jsonl
    .venv/bin/python benchmarks/search_plan_trials.py --agent search-move --seats usa \\
        --start 10 --games 30 --seed 20000 --budget 2 --workers 2 \\
        --out results/search_move_usa_s25.jsonl
    .venv/bin/python benchmarks/search_vs_general.py results/search_move_s24.jsonl \\
        results/thousands_s20_day1.jsonl --agent search-move

and session 26's CSA games (``results/search_move_csa_s26.jsonl``, ``--seats csa --start 14
--games 26``). A variant of ``search-move`` is best read against it on the same seeds
(``search_vs_general.py --rival``; docs/ai.md gives each run's command).
"""

from __future__ import annotations

import argparse
from typing import Any

from search_vs_general import play_against_general

from gettysburg.ai.agent import random_stream, register_agent
from gettysburg.ai.search import FIRE, MoveSearchAgent, SearchAgent, StillSearchAgent

#: agent name -> (the agent it varies, the per-agent settings it changes: see
#: ``SearchAgent.SETTINGS``). Each becomes a registered agent class in this process.
VARIANTS: dict[str, tuple[type[SearchAgent], dict[str, Any]]] = {
    # session 10: which HQs to activate (4.3); keep a block's fire to attack instead (7.1)
    "search-command": (SearchAgent, {"command_plans": True}),
    "search-fire": (SearchAgent, {"fire_plans": True}),
    "search-both": (SearchAgent, {"command_plans": True, "fire_plans": True}),
    # attack a hex with every block that can (off in search since session 5)
    "search-mass": (SearchAgent, {"mass_plans": True}),
    # session 27: blocks within 3 hexes of a known enemy, 3 rival destinations
    "search-move-wide": (MoveSearchAgent, {"move_contact": 3, "move_alternatives": 3}),
    # session 28: the move plans play on through our next fire phase, so a move into the
    # line is judged by our fire from it as well as by the enemy's answer
    "search-move-fire": (MoveSearchAgent, {"move_horizon": FIRE}),
    # session 28: the endgame plans, the move and melee plans of the last two turns
    # before a verdict played to that verdict; "only": the general's game until then
    "search-end-only": (MoveSearchAgent, {"endgame": True, "style_search": False,
                                          "only_endgame": True}),
    "search-end-mass-only": (MoveSearchAgent, {"endgame": True, "style_search": False,
                                               "only_endgame": True, "endgame_mass": True}),
    "search-move-end": (MoveSearchAgent, {"endgame": True}),
    # session 30: both of session 28's, the FIRE horizon and the endgame
    "search-move-fire-end": (MoveSearchAgent, {"move_horizon": FIRE, "endgame": True}),
    # session 31: as the phase ends, the blocks the doctrine leaves still next to a known
    # enemy are searched too (stay put, or one of its two best destinations), from both
    # seats (the package's ``search-move-still`` does so as the CSA only, session 32)
    "search-move-still-both": (MoveSearchAgent, {"move_still": 1}),
    # session 33: the package's search-move-still with its still plans reaching blocks
    # within 2 hexes of a known enemy (as the CSA only, as it does); paired, -1.04 ± 0.54
    # points a game against search-move-still over 23 CSA games: not kept
    "search-move-still2": (StillSearchAgent, {"move_still": 2}),
    # session 36: search's gain had been all defence (docs/ai.md, "Where search's gain
    # comes from"), so the "hunter" style's own best destination for a searched block
    # (toward worn enemy blocks) joins its rivals; paired, 3 CSA games were the base's
    # own (the rival never won), and rival_probe.py found it worse than the doctrine's
    # destination: not kept
    "search-move-still-hunt": (StillSearchAgent, {"move_style_rivals": ("hunter",)}),
    # session 37 (docs/ai.md, "Tuned styles"): search-move-still on the tuned doctrine
    # (``base``): as the USA the move plans over the tuned USA style (as the CSA, which
    # has no tuned style, the general's doctrine under another name); 8 USA games, 2.4
    # points a game worse than the tuned doctrine alone
    "search-move-still-tuned": (StillSearchAgent, {"base": "tuned"}),
    # the same without the style search, whose other styles are the general's (6 games,
    # no better)
    "search-move-still-tuned-fixed": (StillSearchAgent, {"base": "tuned", "style_search": False}),
    # the same, its move plans played on through our next fire phase (session 28's FIRE
    # horizon), so a block in the line is judged by its own fire too (7 games, no better)
    "search-move-still-tuned-fire": (StillSearchAgent, {"base": "tuned", "style_search": False,
                                                        "move_horizon": FIRE}),
    # session 28's endgame-only search (the move and melee plans of the last two turns,
    # judged at the verdict) on the tuned doctrine (24 games, +0.21 ± 0.18 over it)
    "search-end-only-tuned": (MoveSearchAgent, {"endgame": True, "style_search": False,
                                                "only_endgame": True, "base": "tuned"}),
}
#: agent name -> the variant it plays, drawing its base agent's random numbers (the
#: agent's ``stream``; session 30): each game is the base's game of the same seed and seat
#: until their decisions first differ, so the pair's difference is the variant's alone
#: and far less noisy than a whole game's (docs/ai.md, "Variants on the base's random
#: numbers"). Pair their rows with the base's (``search_vs_general.py --rival``).
PAIRED = {"search-move-end-paired": "search-move-end",
          "search-move-fire-paired": "search-move-fire",
          "search-move-fire-end-paired": "search-move-fire-end",
          "search-move-still-paired": "search-move-still-both",
          "search-move-still2-paired": "search-move-still2",
          "search-move-still-hunt-paired": "search-move-still-hunt",
          "search-move-still-tuned-paired": "search-move-still-tuned",
          "search-move-still-tuned-fixed-paired": "search-move-still-tuned-fixed",
          "search-move-still-tuned-fire-paired": "search-move-still-tuned-fire"}
#: Registered by the package (``search.MoveSearchAgent``, ``search.StillSearchAgent``),
#: offered here too.
REGISTERED = ["search-move", "search-move-still",
              # session 38: the endgame-only search on the tuned doctrine, on the battle's
              # first day only (the CSA's battles are won or lost near Day 1's 10 points,
              # 9.5), the tuned doctrine alone after it; in the package since session 40
              "search-end-day1-tuned"]


def variant(name: str, base: type[SearchAgent], settings: dict[str, Any],
            stream: str | None = None) -> type[SearchAgent]:
    """A subclass of ``base`` named ``name`` whose agents start with ``settings`` and draw
    the random numbers of the agent named ``stream`` (None: their own)."""
    for key in settings:  # a misspelt setting would silently measure the base agent
        if key not in base.SETTINGS:
            raise AttributeError(f"{name}: {base.__name__} has no setting {key!r} "
                                 f"(SearchAgent.SETTINGS)")

    def __init__(self: SearchAgent, seed: str = "0") -> None:
        base.__init__(self, seed)
        for key, value in settings.items():
            setattr(self, key, value)

    cls_name = base.__name__ + "_" + name.replace("-", "_")
    return type(cls_name, (base,), {"__init__": __init__, "name": name, "stream": stream})


for _name, (_base, _settings) in VARIANTS.items():
    register_agent(_name, variant(_name, _base, _settings))
for _name, _of in PAIRED.items():
    _base, _settings = VARIANTS[_of]
    # the numbers the base draws (its own, or search-move's for search-move-still)
    _stream = random_stream(_base("0"), _base.name)
    register_agent(_name, variant(_name, _base, _settings, stream=_stream))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--agent", required=True,
                    choices=sorted([*VARIANTS, *PAIRED, *REGISTERED]))
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
