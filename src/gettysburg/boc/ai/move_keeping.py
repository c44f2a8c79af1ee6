"""How the BoC doctrine keeps move scores from one decision to the next (issue 59): the
contexts its kept tables hold for (``terms_context``, ``move_context``), how a new move
context starts from the last one (``carry_over``), handing a situation its kept tables
(``keep``) and a unit's moves scored from its kept parts (``kept_move_scores``). What is
kept, and why a kept number is the number a fresh computation gives, is ``move_memo``'s
module doc; docs/boc-speed.md (session 46) has the figures.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from operator import itemgetter

from gettysburg.boc.ai.move_memo import KeptMoves, Key, MoveMemo, UnitMoves
from gettysburg.boc.ai.move_values import (
    OVERSTACK,
    Situation,
    around_victory_order,
    pull_by_distance,
)
from gettysburg.boc.ai.style import style_key


def terms_context(sit: Situation) -> Hashable:
    """Everything ``hex_terms`` reads besides the kind of block and the hex: the
    board, style, seat, night, whether behind, control and the enemy blocks as known
    (``move_memo``)."""
    return Key((sit.facts, style_key(sit.style), sit.seat, sit.night, sit.behind,
                tuple(sorted(sit.control.items())),
                tuple(sorted((hx, tuple(b)) for hx, b in sit.enemy_blocks.items()))))


def move_context(sit: Situation, terms: Hashable) -> Hashable | None:
    """Everything a move's value and control gain read besides the unit (its hex,
    strength and, for an HQ, ``corps_key``) and the destination: ``terms`` (the
    ``terms_context``), own blocks in and next to the victory hexes (their garrisons
    and control, 6.61) and own columns. ``None`` where the style keeps room to fall
    back (``keep_room`` reads own blocks anywhere): there no move parts are kept."""
    if sit.style.keep_room:
        return None
    return Key((terms, sit.around_garrison(),
                tuple(sorted((hx, tuple(sorted(c))) for hx, c in sit.columns.items()))))


def carry_over(sit: Situation, old: KeptMoves, new: KeptMoves) -> int:
    """Give ``new``, the tables of this new ``move_context``, what ``old`` (the last one
    of the same ``terms_context``) found that still holds here: own blocks moved in or
    out of some victory hexes' neighbourhoods, nothing else changed that the tables
    read. ``new`` takes ``old``'s tables over, less what the change can reach, and
    ``old`` is left new (empty: were its context met again, it would be filled from
    the latest one like any other). Returns how many units' move parts it took over.

    * control now (6.61) and control gains, unless they read a victory hex with a
      changed hex in or next to it;
    * the objectives' pull of a unit that garrisons none (``objective``): where every
      changed objective pulled less than the strongest before, the strongest of that
      and the changed ones' new pulls (a maximum, so the same number); elsewhere it
      is found again when asked;
    * the hexes' values for a kind of block (``Situation.value_row``) where their
      objectives' pull holds;
    * a unit's move parts, unless it garrisons a victory hex or its hex or a
      destination is a hex where any of the above changed."""
    facts, old_garrison = sit.facts, old.garrison
    if old_garrison is None:
        return 0
    changed = {h for h, a, b in zip(around_victory_order(facts), old_garrison,
                                    sit.around_garrison(), strict=True) if a != b}
    dirty = {v for v in facts.victory
             if v in changed or not changed.isdisjoint(facts.nbrs.get(v, ()))}
    zone = set(dirty)  # hexes with a dirty victory hex within 1 (``near_victory``)
    for v in dirty:
        zone.update(facts.nbrs.get(v, ()))
    # Taken over in place (issue 59: copying them, and freeing the old ones when their
    # context was dropped, cost more than the few entries a change reaches).
    new.units, new.objective, new.gains, new.control_now, new.values = \
        old.units, old.objective, old.gains, old.control_now, old.values
    leaving_then, objectives_then = old.leaving, old.objectives
    old.units, old.objective, old.gains, old.control_now, old.values, old.leaving = \
        {}, {}, {}, {}, {}, {}
    old.garrison, old.objectives = None, ()
    for v in dirty:
        new.control_now.pop(v, None)
    # What is asked from a hex no own block stands in is left behind (found again if a
    # block comes there): the rows of the objectives' pull on a unit leaving a hex near
    # an objective are asked only while a block stands there, which this context fixes.
    garrison, gains = sit.garrison, new.gains
    for k in [k for k in gains if k[0] in zone or (k[1] is not None and (
            k[1] in zone or k[1] not in garrison))]:
        del gains[k]
    # The pulls of the objectives on a unit leaving ``here`` (None: no garrison), as
    # ``old`` found them and now: only the changed ones are asked again.
    moved_pull: dict[str | None, set[str]] = {}
    rows = new.objective
    for here in list(rows):
        before = objectives_then if here is None else leaving_then.get(here)
        if before is None or (here is not None and (here in zone or here not in garrison)):
            del rows[here]
            continue
        moved_pull[here] = _carry_row(sit, rows[here], before, sit.objectives_now
                                      if here is None else sit.objectives_leaving(here))
    # A hex's value for a kind of block is its objectives' pull plus terms that stay.
    values = new.values
    for key in list(values):
        moved = moved_pull.get(key[2])
        if moved is None:
            del values[key]
        elif moved:
            row = values[key]
            for hx in moved:
                row.pop(hx, None)
    # The hexes where a value or a gain changed, by the row of the objectives' pull.
    reached = {here: moved | zone for here, moved in moved_pull.items()}
    n = 0
    units = new.units
    for uid, moves in list(units.items()):
        here = moves.key[0] if isinstance(moves.key, tuple) else None
        changed_here = None
        if isinstance(here, str) and here not in zone and here in garrison:
            changed_here = reached.get(here if here in sit.near_victory_hexes else None)
        if changed_here is None or here in changed_here or not moves.watch:
            del units[uid]
            continue
        stale = moves.watch & changed_here
        # A destination's value and gain read nothing of the others': those of the
        # destinations the change did not reach hold, the rest are found again when
        # the unit's moves are next scored (``kept_move_scores``).
        if stale:
            units[uid] = moves.marked(stale)
        n += 1
    return n


def _carry_row(sit: Situation, row: dict[str, float],
               before: Sequence[tuple[str, float, float]],
               now: Sequence[tuple[str, float, float]]) -> set[str]:
    """``carry_over`` of one row of ``objective`` values, in place: ``before`` and
    ``now`` the objectives' (hex, need, divisor) then and now. Leaves in ``row`` the
    values that still hold (changed ones changed) and returns the hexes whose value
    changed or must be asked again (those are taken out of ``row``)."""
    was = {v: (need, den) for v, need, den in before}
    if len(was) != len(now):  # not the same objectives: nothing holds
        moved = set(row)
        row.clear()
        return moved
    # The changed objectives' pulls by distance (the same floats as ``objective``'s),
    # then and now, with their distances from every hex.
    decay, table = sit.style.decay, sit.facts.table
    pulls = [(table[v], pull_by_distance(*was[v], decay), pull_by_distance(need, den, decay))
             for v, need, den in now if v in was and was[v] != (need, den)]
    if not pulls:
        return set()
    unsure: list[str] = []  # it may have been the strongest: ask again
    stronger: list[tuple[str, float]] = []
    if len(pulls) == 1:  # most often: one objective's garrison changed
        ((far, pull_then, pull_now),) = pulls
        for hx, val in row.items():
            d = far[hx]
            if pull_then[d] >= val:
                unsure.append(hx)
            elif pull_now[d] > val:
                stronger.append((hx, pull_now[d]))
    else:
        for hx, val in row.items():
            best = val
            for far, pull_then, pull_now in pulls:
                d = far[hx]
                if pull_then[d] >= val:
                    unsure.append(hx)
                    break
                pull = pull_now[d]
                if pull > best:
                    best = pull
            else:
                if best != val:
                    stronger.append((hx, best))
    for hx in unsure:
        del row[hx]
    row.update(stronger)
    return set(unsure).union([hx for hx, _ in stronger])


def keep(memo: MoveMemo, sit: Situation) -> None:
    """Hand ``sit`` the kept tables of its contexts (``memo``); a new move context starts
    from the last one of the same terms context (``carry_over``)."""
    # Most decisions have the contexts of the seat's last one: its key is taken again
    # when what it was made of compares equal (the knowledge's own tables, never changed
    # once made), instead of sorting and hashing them again.
    terms = memo.last_key("terms", sit.seat, (
        sit.facts, style_key(sit.style), sit.seat, sit.night, sit.behind, sit.control,
        sit.enemy_blocks), lambda: terms_context(sit))
    kept_terms = memo.terms.get(terms)
    sit.keep_terms(kept_terms.terms)
    sit.keep_hq_rows(memo.hq_near)
    if sit.style.keep_room:
        return  # no move context (``move_context``)
    context = memo.last_key("moves", sit.seat, (terms, sit.around_garrison(), sit.columns),
                            lambda: move_context(sit, terms))
    if context is None:
        return
    kept = memo.moves.get(context)
    sit.keep_moves(kept)
    if kept.garrison is None:  # a new move context: start from the last one's
        if kept_terms.latest is not None:
            memo.carried += carry_over(sit, kept_terms.latest, kept)
            sit.keep_moves(kept)  # its tables are the last one's now
        kept.garrison = sit.around_garrison()
        kept.objectives = tuple(sit.objectives_now)
    kept_terms.latest = kept


def kept_move_scores(sit: Situation, memo: MoveMemo, units: dict[str, UnitMoves], uid: str,
                     here: str, paths: Sequence[Sequence[str]]) -> list[float]:
    """``move_values.move_scores`` from the parts kept since an earlier decision in the
    same context (``units``: ``sit.move_memo``, handed over by ``keep``), made and kept
    when missing: the same numbers, the same order of operations. Counts the units found
    kept or made in ``memo``. The list returned may be the kept one: not to be changed.

    While a unit's paths are the same as when its parts were kept, its scores are too,
    but for the moves into a hex that is now overstacked (6.2, asked afresh): only the
    destinations that may be (``may_overstack``) are asked, the rest handed out as kept."""
    key = (here, sit.strength(uid), sit.corps_key(uid))
    weight = sit.control_weight
    kept = units.get(uid)
    # The same paths: most often the very run of the last decision (``move_runs``).
    if kept is not None and kept.key == key and kept.weight == weight \
            and (kept.paths is paths or kept.paths == paths) and not kept.stale:
        memo.hits += 1
    else:
        dests = tuple(map(str, map(itemgetter(-1), paths)))
        if kept is None or kept.key != key or kept.dests != dests:
            memo.misses += 1
            values = tuple(sit.hex_values(uid, here, dests, stacking=False))
            gains = tuple(sit.control_gains(here, dests))
            stay = sit.hex_values(uid, here, (here,), stacking=False)[0]
        elif kept.stale:  # taken over by a new context: the destinations it reached
            memo.refreshed += 1
            stale = kept.stale
            again = [i for i, dest in enumerate(dests) if dest in stale]
            changed = [dests[i] for i in again]
            found = sit.hex_values(uid, here, changed, stacking=False)
            fresh_values, fresh_gains = list(kept.values), list(kept.gains)
            for i, value, gain in zip(again, found, sit.control_gains(here, changed),
                                      strict=True):
                fresh_values[i] = value
                fresh_gains[i] = gain
            values, gains, stay = tuple(fresh_values), tuple(fresh_gains), kept.stay
        else:  # the same destinations by other paths: their values and gains hold
            memo.hits += 1
            values, gains, stay = kept.values, kept.gains, kept.stay
        stacking = sit.facts.stacking
        watch = frozenset(dests)
        # Move only for a real gain.
        kept = units[uid] = UnitMoves(
            key, dests, values, gains, stay, paths, weight,
            [value - stay + weight * gain - 0.01 * len(p) - 0.05
             for value, gain, p in zip(values, gains, paths, strict=True)],
            watch, frozenset([d for d in dests if d not in stacking]), here in watch)
    over = sit.overstacked
    # Only the hexes that may be full are asked (``may_overstack``): staying overstacks
    # only a hex already full.
    may = sit.may_overstack(None)
    if here in may and over(uid, here, here):  # staying overstacks: every score changes
        return _scores(kept, paths, OVERSTACK, weight,
                       {d for d in kept.watch if over(uid, here, d)})
    risky = kept.watch & may
    if kept.off_board or kept.from_here:
        risky = risky | kept.off_board | ({here} if kept.from_here else set())
    full = {d for d in risky if over(uid, here, d)} if risky else None
    if not full:
        return kept.scores
    out = kept.scores.copy()
    gains, stay = kept.gains, kept.stay
    for i, d in enumerate(kept.dests):
        if d in full:  # the expression of ``move_scores``, into an overstacked hex
            out[i] = OVERSTACK - stay + weight * gains[i] - 0.01 * len(paths[i]) - 0.05
    return out


def _scores(kept: UnitMoves, paths: Sequence[Sequence[str]], stay: float, weight: float,
            full: set[str]) -> list[float]:
    """A unit's move scores from its kept parts, staying worth ``stay``, with the moves
    into the hexes ``full`` overstacked (6.2); the expression of ``move_scores``."""
    return [(OVERSTACK if dest in full else value) - stay + weight * gain - 0.01 * len(p)
            - 0.05 for value, gain, dest, p in zip(kept.values, kept.gains, kept.dests,
                                                    paths, strict=True)]
