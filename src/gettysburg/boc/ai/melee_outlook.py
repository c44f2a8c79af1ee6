"""What a melee is likely to bring: a small, seeded Monte Carlo of its rounds.

The BoC doctrine asks this module before it declares a melee (7.1) and at each of its
blocks' turns in one (7.2: fight or retreat). The model follows the rules' shape:

* up to three rounds (two for the 7.8 unsupported form); in each round the blocks act by
  morale letter A to D, the defender's first within a letter (7.2);
* a block rolls one die per strength step and hits on each die at or under its melee
  firepower in context (3.12; 7.3 the attacker's hexside penalty in round 1 only, 7.4
  artillery drops to 1 after round 1, 7.6 cavalry -1 attacking / +1 defending in round 1);
* each hit goes to the strongest enemy block still fighting (5.23); a block at 0 is
  eliminated;
* an attacker's turn in the last round is a forced retreat (7.2), so a melee the attackers
  have not won by then ends with them back where they came from.

Voluntary retreats are left out (the estimate is for fighting it out). Unknown enemy blocks
are guessed from what the seat may know: firepower 2, the morale letter most common in that
army's infantry (CSA A, USA B: public order of battle), and a strength drawn in each trial
from the strengths that army's blocks have in the scenario's public set-up (``guess``).

The dice come from a fixed seed, so the same inputs always give the same estimate (the
general stays deterministic, and two games that look the same from a seat get the same
decisions).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from gettysburg.boc.combat import MELEE, Context, firepower
from gettysburg.boc.oob import Unit

MORALE = "ABCD"
GUESS_STRENGTH = 3
GUESS_FIREPOWER = 2
GUESS_MORALE = {"csa": "A", "usa": "B"}
TRIALS = 64


@dataclass(frozen=True)
class Fighter:
    """One block in a melee, as the estimate sees it."""

    strength: int
    morale: int  # index in "ABCD": lower acts first (7.2)
    fps: tuple[int, int, int]  # melee firepower in rounds 1, 2, 3
    defender: bool
    unknown: bool = False  # strength drawn from the guess in each trial


@dataclass(frozen=True)
class Outlook:
    """Expected result of a melee, from the attacker's side."""

    win: float  # probability that the attackers take the hex
    att_lost: float  # expected attacking blocks eliminated
    def_lost: float  # expected defending blocks eliminated
    att_steps: float  # expected attacking strength steps lost
    def_steps: float  # expected defending strength steps lost

    def value(self, attacking: bool, hex_worth: float) -> float:
        """Net worth for one side: blocks eliminated are victory points (9.12), steps a
        little, and the hex (held or taken) ``hex_worth``."""
        blocks = self.def_lost - self.att_lost
        steps = self.def_steps - self.att_steps
        if attacking:
            return blocks + 0.1 * steps + self.win * hex_worth
        return -blocks - 0.1 * steps + (1.0 - self.win) * hex_worth


#: Fighters made so far, by (unit id, side, strength, defender, penalty), with their unit:
#: the doctrine asks for the same few blocks at every melee it weighs. A game's blocks
#: make a few thousand at most; past ``FIGHTERS_KEPT`` (orders of battle of many custom
#: scenarios in one process) it starts afresh.
_FIGHTERS: dict[tuple[str | None, str, int, bool, int], tuple[Unit | None, Fighter]] = {}
FIGHTERS_KEPT = 8192


def fighter(unit: Unit | None, side: str, strength: int, defender: bool,
            penalty: int = 0) -> Fighter:
    """A block as a fighter; ``unit`` None for an enemy block the seat cannot identify."""
    key = (unit.id if unit is not None else None, side, strength, defender, penalty)
    got = _FIGHTERS.get(key)
    if got is not None and got[0] is unit:
        return got[1]
    made = _fighter(unit, side, strength, defender, penalty)
    if len(_FIGHTERS) >= FIGHTERS_KEPT:
        _FIGHTERS.clear()
    _FIGHTERS[key] = (unit, made)
    return made


def _fighter(unit: Unit | None, side: str, strength: int, defender: bool,
             penalty: int) -> Fighter:
    if unit is None:
        r1 = GUESS_FIREPOWER - (0 if defender else penalty)
        return Fighter(strength, MORALE.index(GUESS_MORALE.get(side, "B")),
                       (max(0, r1), GUESS_FIREPOWER, GUESS_FIREPOWER), defender, True)
    fps = tuple(firepower(unit, Context(MELEE, round=r, attacking=not defender,
                                        penalty=0 if defender else penalty))
                for r in (1, 2, 3))
    return Fighter(strength, MORALE.index(unit.morale), (fps[0], fps[1], fps[2]), defender)


@cache
def _hits_cdf(dice: int, fp: int) -> tuple[float, ...]:
    """Cumulative probabilities of 0..dice-1 hits (3.12: a die hits at or under fp)."""
    p = min(max(fp, 0), 6) / 6.0
    probs = [1.0]
    for _ in range(dice):  # binomial by repeated convolution
        nxt = [0.0] * (len(probs) + 1)
        for k, q in enumerate(probs):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        probs = nxt
    out, acc = [], 0.0
    for q in probs[:-1]:
        acc += q
        out.append(acc)
    return tuple(out)


def outlook(attackers: Sequence[Fighter], defenders: Sequence[Fighter], rounds: int = 3,
            trials: int = TRIALS, guess: Sequence[tuple[int, float]] = ()) -> Outlook:
    """Monte Carlo estimate of a melee fought to its end (see the module doc). ``guess``
    lists (strength, weight) for unknown blocks; without it they keep their strength.
    The same melee comes up at many decisions of a phase, so estimates are remembered."""
    return _outlook(tuple(attackers), tuple(defenders), rounds, trials, tuple(guess))


@lru_cache(maxsize=8192)
def _outlook(attackers: tuple[Fighter, ...], defenders: tuple[Fighter, ...], rounds: int,
             trials: int, guess: tuple[tuple[int, float], ...]) -> Outlook:
    if not attackers:
        return Outlook(0.0, 0.0, 0.0, 0.0, 0.0)
    if not defenders:
        return Outlook(1.0, 0.0, 0.0, 0.0, 0.0)
    fighters = list(attackers) + list(defenders)
    order = sorted(range(len(fighters)),
                   key=lambda i: (fighters[i].morale, 0 if fighters[i].defender else 1, i))
    rng = random.Random(7919)
    total = sum(w for _, w in guess)
    cdf, acc = [], 0.0
    for _s, w in guess:
        acc += w / total
        cdf.append(acc)
    wins = att_lost = def_lost = att_steps = def_steps = 0
    defender = [f.defender for f in fighters]
    # Each side's blocks in index order: the foes of a block, whoever is left of them.
    sides = {flag: [j for j in range(len(fighters)) if defender[j] == flag]
             for flag in (False, True)}
    foes_of = [sides[not flag] for flag in defender]
    fps = [f.fps for f in fighters]
    strengths = [f.strength for f in fighters]
    # The dice are drawn in the same order as ever (a guess per unknown block in index
    # order, then the hits of each turn that rolls), so an estimate never changes.
    drawn = [i for i, f in enumerate(fighters) if f.unknown] if cdf else []
    last_guess = len(guess) - 1
    rand = rng.random
    for _ in range(trials):
        st = list(strengths)
        for i in drawn:
            st[i] = guess[min(last_guess, bisect_right(cdf, rand()))][0]
        start = list(st)
        gone = [False] * len(fighters)  # eliminated or retreated
        for rnd in range(rounds):
            for i in order:
                if gone[i]:
                    continue
                foes = [j for j in foes_of[i] if not gone[j]]
                if not foes:
                    break
                if rnd == rounds - 1 and not defender[i]:
                    gone[i] = True  # 7.2: the attacker's last turn is a forced retreat
                    continue
                dice, fp = st[i], fps[i][rnd]
                if dice <= 0 or fp <= 0:
                    continue
                for _h in range(bisect_right(_hits_cdf(dice, fp), rand())):
                    # The strongest foe still fighting takes the hit (the first on ties).
                    j = -1
                    for k in foes:
                        if not gone[k] and (j < 0 or st[k] > st[j]):
                            j = k
                    if j < 0:
                        break
                    st[j] -= 1
                    if st[j] <= 0:
                        gone[j] = True
        defenders_left = any(not gone[j] for j in sides[True])
        attackers_left = any(not gone[j] and st[j] > 0 for j in sides[False])
        if not defenders_left and attackers_left:
            wins += 1
        for j, is_defender in enumerate(defender):
            lost = start[j] - max(st[j], 0)
            dead = st[j] <= 0
            if is_defender:
                def_steps += lost
                def_lost += dead
            else:
                att_steps += lost
                att_lost += dead
    n = float(trials)
    return Outlook(wins / n, att_lost / n, def_lost / n, att_steps / n, def_steps / n)
