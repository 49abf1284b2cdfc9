"""The soloist's best discard for a given Tapp, double dummy (R4, R5, R7, R8).

The soloist adds the face-up Tapp to the hand and discards ``tapp_size`` cards (R4);
the discard's points count for the soloist, discarded cards never meld.  For a deal with
all hands open, the soloist's *total* after discard D with trump t is

    total(D, t) = points(D) + play(D, t) + (melds(kept, t) if play(D, t) > 0 else 0)

with ``play`` the exact double-dummy card points from the play (forehand leads, R6;
:mod:`analyzer.search.solve`) and melds only with a trick (R8; as in
:func:`~analyzer.search.solve.deal_table`, a won trick of 0 card points is not told apart
from none).  Durch is not a candidate here (its score is not a total, R4).

Search (why it can stop early, and what it then claims)
-------------------------------------------------------
A full-deal solve takes 0.3-20 s of CPU, and there are up to C(18, 3) = 816 discards x 4
trumps, so trying them all is usually out of reach.  The candidates (distinct discards:
identical copies are one card) are ranked by the fast exchange estimate (R5 melds exact +
discard points + the linear card-point model, :func:`analyzer.mechanics.exchange.
estimate_card_points`), then, best estimate first:

- the first is solved exactly and is the best so far;
- every later candidate is first bounded: the soloist takes at most every card point in
  play plus the discard and the last-trick bonus, so ``total <= melds + that`` (exact
  bound); a candidate whose bound is at most the best so far is *pruned*;
- otherwise one zero-window search asks whether its play reaches the points it would
  need to beat the best so far; if not it is *refuted* (exact), if so it is solved
  exactly and becomes the best.

The budget: ``max_candidates`` caps the candidates searched; ``max_seconds`` is turned
into a node budget for every search at the node rate measured on this machine (the first
search measures it), so a search that would overrun stops, counts as untested, and
leaves a cleared table.  When the
budget runs out, the candidates not searched are still compared with the best by their
exact bound: if no untested bound exceeds the best, the answer is still exact;
otherwise the result says ``exact: False`` and is the best of the candidates searched,
in the ranking above.  If even the first search cannot finish, there is no answer (a
one-line error asks for more time).
"""
from __future__ import annotations

import time
from itertools import combinations_with_replacement

import numpy as np

from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_TYPES, Card, CardError, Hand, Suit
from analyzer.mechanics.exchange import estimate_card_points
from analyzer.mechanics.melds import melds
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet
from analyzer.search.solve import (Solver, TimedSearch, dd_value, dd_window, make_position,
                                   set_context, set_hands)

MAX_SECONDS = 3600.0
RANKING = ("fast exchange estimate: melds (R5, exact) + discard points + linear card-point "
           "model (exchange.estimate_card_points)")


def discards(pool: Hand, size: int) -> list[Hand]:
    """Every distinct discard of ``size`` cards from ``pool`` (identical copies are one
    card, so a multiset of card types is one discard)."""
    types = [t for t in range(N_TYPES) for _ in range(pool.counts[t])]
    out = []
    seen = set()
    for combo in combinations_with_replacement(sorted(set(types)), size):
        c = [0] * N_TYPES
        for t in combo:
            c[t] += 1
        if all(c[t] <= pool.counts[t] for t in range(N_TYPES)):
            key = tuple(c)
            if key not in seen:
                seen.add(key)
                out.append(Hand(key))
    return out


def _check_deal(hands, soloist: int, tapp, rules: RuleSet):
    hs = [Hand.parse(h, rules=rules) for h in hands]
    if len(hs) != 3:
        raise BinokelError(f"give three hands (seats 0, 1, 2), got {len(hs)}")
    if soloist not in (0, 1, 2):
        raise BinokelError(f"soloist must be seat 0, 1 or 2, got {soloist!r}")
    n = len(hs[0])
    if any(len(h) != n for h in hs) or not 1 <= n <= rules.hand_size:
        raise BinokelError(f"the three hands must hold the same number of cards, 1 to "
                           f"{rules.hand_size} (R2), got {[len(h) for h in hs]}")
    if tapp is None:
        counts = [sum(h.counts[t] for h in hs) for t in range(N_TYPES)]
        if max(counts) > 2:
            raise CardError("a card appears more than twice in the three hands: the deck has two (R1)")
        tp = Hand(tuple((2 if rules.in_deck(t) else 0) - counts[t] for t in range(N_TYPES)))
    else:
        tp = Hand.parse(tapp, rules=rules)
    if len(tp) != rules.tapp_size:
        raise BinokelError(f"the Tapp holds {rules.tapp_size} cards (R2), got {len(tp)}"
                           + (" (give the whole deal, or the Tapp)" if tapp is None else ""))
    for t in range(N_TYPES):
        if sum(h.counts[t] for h in hs) + tp.counts[t] > 2:
            raise CardError(f"more than two copies of {Card(t)} in hands and Tapp (R1)")
    return hs, tp


def best_discard(hands, soloist: int = 0, tapp=None, rules: RuleSet = DEFAULT_RULES,
                 trumps: str = "CSHD", max_seconds: float | None = 60.0,
                 max_candidates: int | None = None, solver: Solver | None = None,
                 progress=None) -> dict:
    """The soloist's best discard and trump for this Tapp, double dummy (module docstring).

    ``hands``: three hands of equal size (seats 0-2; a real deal has ``rules.hand_size``
    cards each; smaller hands are allowed for analysis and tests); ``tapp``: the Tapp's
    cards, by default the cards of the deck in no hand; ``trumps``: the trump suits to
    consider; ``max_seconds`` / ``max_candidates``: the budget (None = unbounded seconds,
    up to :data:`MAX_SECONDS`), checked before each candidate's search;
    ``progress(examined, candidates, best so far or None, seconds)``: called before each
    candidate after the first (the CLI prints it on stderr).

    Returns a dict: ``exact`` (True when the best is proven over every candidate),
    ``best`` (discard, kept hand, trump, play, discard_points, melds, total), counts of
    ``candidates``, ``solved`` (exact solves), ``refuted`` (zero-window), ``pruned``
    (bound), ``untested`` and ``untested_bound`` (the largest exact bound among them,
    None if none), ``ranking`` and ``seconds``.
    """
    t0 = time.perf_counter()
    if max_seconds is not None and not 0 < float(max_seconds) <= MAX_SECONDS:
        raise BinokelError(f"max_seconds must be in (0, {MAX_SECONDS:g}], got {max_seconds!r}")
    if max_candidates is not None and int(max_candidates) < 1:
        raise BinokelError(f"max_candidates must be at least 1, got {max_candidates!r}")
    ts = [c for c in str(trumps).upper() if not c.isspace()]
    if not ts or any(c not in "CSHD" for c in ts) or len(set(ts)) != len(ts):
        raise BinokelError(f"trumps: distinct suits of C S H D, got {trumps!r}")
    hs, tp = _check_deal(hands, soloist, tapp, rules)
    kr = rules.kernel
    cp = [int(x) for x in kr.card_points]
    bonus = int(kr.last_trick_bonus)
    pool = hs[soloist] + tp
    in_play = sum(cp[c.id] for p in range(3) if p != soloist for c in hs[p].cards())
    cands = []
    for d in discards(pool, rules.tapp_size):
        kept = pool - d
        dp = sum(cp[c.id] for c in d.cards())
        counts = np.asarray(kept.counts, dtype=np.uint8)
        for t in ts:
            si = Suit.parse(t).index
            m = melds(kept, t, rules, discard=d).total
            est = m + dp + float(estimate_card_points(counts, si, kr))
            # the soloist takes at most every card point in play + the last trick
            bound = m + dp + in_play + sum(cp[c.id] for c in kept.cards()) + bonus
            cands.append((est, t, si, d, kept, dp, m, bound))
    cands.sort(key=lambda x: (-x[0], x[1], x[3].mask))
    s = solver or Solver(rules)
    s.clear()   # also maps the table's pages now, not during the first (timed) search
    search = TimedSearch(s, max_seconds, t0)

    best = None
    solved = refuted = pruned = 0
    untested = []
    out_of_time = False
    for i, (est, t, si, d, kept, dp, m, bound) in enumerate(cands):
        if progress is not None and i:
            progress(i, len(cands), best, time.perf_counter() - t0)
        if best is not None and bound <= best["total"]:
            pruned += 1
            continue
        over = out_of_time or search.expired() or (
            max_candidates is not None and solved + refuted >= int(max_candidates))
        if over and best is not None:
            untested.append(bound)
            continue
        hands3 = list(hs)
        hands3[soloist] = kept
        pos = make_position(hands3, t, soloist, 0, (), rules)
        set_context(s.w, pos.trump, soloist, s.tt_mask)
        lo, hi = pos.planes()
        set_hands(s.w, lo, hi)
        if best is not None:
            # would this candidate beat the best?  total > best needs play >= need
            need = 0 if dp > best["total"] else max(best["total"] - dp - m + 1, 1)
            r = search(dd_window, 0, 0, -1, -1, -1, -1, 0, need - 1, need)
            if r is None:
                out_of_time = True
                untested.append(bound)
                continue
            if r < need:
                refuted += 1
                continue
        v = search(dd_value, 0, 0, -1, -1, -1, -1, 0)
        if v is None:
            if best is None:
                raise BinokelError(
                    f"the first candidate's search did not finish within {max_seconds:g} s "
                    "(a whole deal can take minutes of CPU): give more time")
            out_of_time = True
            untested.append(bound)
            continue
        solved += 1
        total = dp + v + (m if v > 0 else 0)
        if best is None or total > best["total"]:
            best = {"discard": d.codes(), "kept": kept.codes(), "trump": t, "play": v,
                    "discard_points": dp, "melds": m, "total": total}
    ub = max(untested) if untested else None
    return {"exact": ub is None or ub <= best["total"], "best": best,
            "candidates": len(cands), "solved": solved, "refuted": refuted,
            "pruned": pruned, "untested": len(untested), "untested_bound": ub,
            "soloist": soloist, "tapp": tp.codes(), "hands": [h.codes() for h in hs],
            "trumps": "".join(ts), "ranking": RANKING,
            "seconds": round(time.perf_counter() - t0, 3)}
