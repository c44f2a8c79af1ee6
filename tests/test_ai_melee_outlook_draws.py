"""The melee Monte Carlo (``boc/ai/melee_outlook._outlook``), rewritten for speed in
session 48 (issue 59), draws the same dice in the same order as the plain loop below (the
way it was written before), so every estimate, and every decision of the general, is the
same."""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence

from gettysburg.boc.ai.melee_outlook import Fighter, _hits_cdf, _outlook


def _plain(attackers: Sequence[Fighter], defenders: Sequence[Fighter], rounds: int,
           trials: int, guess: Sequence[tuple[int, float]]) -> tuple[float, ...]:
    """The estimate as a plain loop: guesses for unknown blocks, then each round's
    blocks by morale (the defender's first within a letter), hits on the strongest foe."""
    if not attackers:
        return (0.0, 0.0, 0.0, 0.0, 0.0)
    if not defenders:
        return (1.0, 0.0, 0.0, 0.0, 0.0)
    fighters = list(attackers) + list(defenders)
    order = sorted(range(len(fighters)),
                   key=lambda i: (fighters[i].morale, 0 if fighters[i].defender else 1, i))
    rng = random.Random(7919)
    total = sum(w for _, w in guess)
    cdf: list[float] = []
    acc = 0.0
    for _s, w in guess:
        acc += w / total
        cdf.append(acc)
    wins = att_lost = def_lost = att_steps = def_steps = 0
    for _ in range(trials):
        st = [f.strength if not (f.unknown and cdf) else
              guess[min(len(guess) - 1, bisect_right(cdf, rng.random()))][0] for f in fighters]
        start = list(st)
        gone = [False] * len(fighters)
        for rnd in range(1, rounds + 1):
            for i in order:
                if gone[i]:
                    continue
                foes = [j for j, f in enumerate(fighters)
                        if f.defender != fighters[i].defender and not gone[j]]
                if not foes:
                    break
                if not fighters[i].defender and rnd == rounds:
                    gone[i] = True
                    continue
                fp = fighters[i].fps[rnd - 1]
                hits = 0 if st[i] <= 0 or fp <= 0 else \
                    bisect_right(_hits_cdf(st[i], fp), rng.random())
                for _h in range(hits):
                    j = -1
                    for k in foes:
                        if not gone[k] and (j < 0 or st[k] > st[j]):
                            j = k
                    if j < 0:
                        break
                    st[j] -= 1
                    if st[j] <= 0:
                        gone[j] = True
        if not any(not gone[j] for j, f in enumerate(fighters) if f.defender) and any(
                not gone[j] and st[j] > 0 for j, f in enumerate(fighters) if not f.defender):
            wins += 1
        for j, f in enumerate(fighters):
            lost, dead = start[j] - max(st[j], 0), st[j] <= 0
            if f.defender:
                def_steps, def_lost = def_steps + lost, def_lost + dead
            else:
                att_steps, att_lost = att_steps + lost, att_lost + dead
    n = float(trials)
    return (wins / n, att_lost / n, def_lost / n, att_steps / n, def_steps / n)


def test_the_estimate_is_the_plain_loops_for_random_melees() -> None:
    rnd = random.Random(48)
    for _ in range(400):
        def side(defender: bool) -> tuple[Fighter, ...]:
            return tuple(Fighter(rnd.randint(0, 4), rnd.randint(0, 3),
                                 (rnd.randint(-1, 6), rnd.randint(-1, 6), rnd.randint(-1, 6)),
                                 defender, rnd.random() < 0.3)
                         for _ in range(rnd.randint(0, 4)))
        attackers, defenders = side(False), side(True)
        guess = tuple((rnd.randint(1, 4), rnd.random() + 0.01) for _ in range(rnd.randint(0, 3)))
        rounds, trials = rnd.choice([1, 2, 3]), rnd.choice([1, 7, 64])
        got = _outlook(attackers, defenders, rounds, trials, guess)
        assert (got.win, got.att_lost, got.def_lost, got.att_steps, got.def_steps) == \
            _plain(attackers, defenders, rounds, trials, guess)
