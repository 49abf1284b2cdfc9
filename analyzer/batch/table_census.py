"""The meld census of any table: ``binokel simulate --what melds`` for the games with
partners (kreuz-48, kreuz-40, pinochle-80; issue 24).

Every deal deals the game's deck (``Kernel.copies`` of each card type: 48, 40 or 80 cards,
R1, V5.1, V6.1) uniformly to the seats in play, ``hand_size`` cards each, the rest (the
Dabb, V4.1, V5.1; none in V6.1) aside.  Each hand is melded with each of the four trumps by
the game's own meld table: the R5 kernel (analyzer.mechanics.melds.meld_all_trumps, with
the game's values: V2.5 in kreuz-48, V5.5 in kreuz-40) on a two-copy deck, the V6.3 kernel
(analyzer.mechanics.melds.meld_all_trumps_counts) on the four-copy deck.  The chunk
returns aggregates in the rows ``(metric, bin, count, sq)`` of analyzer.batch.runs:

- ``hand.meld.<suit>`` (the hand's meld total with that trump) and ``hand.meld.best``
  (the maximum over the trumps), one unit per hand (``in_play`` a deal): ``count`` per
  bin and ``sq`` = the sum over deals of the squared per-deal count in the bin, plus
  ``hand.meld.<x>:dealsq`` (the sum over deals of the squared per-deal sum), since the
  hands of one deal share a deck and the deal is the sampling unit;
- ``hand.best_trump``: the suit index of the best trump (ties: the lower index);
- ``side.meld.best``: for partners (V1: seats s and s + 2), the better of the two
  partners' summed meld totals over the four trumps (both meld with the one trump named,
  V4.4, V6.3), one unit per side, two a deal (with ``sq`` and ``:dealsq`` as above);
- ``dabb.points``: the card points (R1, V1) of the cards laid aside, one per deal.

Same seed, same numbers for any number of workers: chunk ``i`` draws only from
``rng.chunk_state(seed, i)`` (analyzer.batch.runs.run_chunk).  The plain-Python check is
tests/batch/test_table_census.py against tests/oracle (variants.melds_total,
pinochle.melds) on random deals.
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.cards import N_SUITS, N_TYPES, PLANE, SUIT_LETTERS
from analyzer.mechanics.melds import meld_all_trumps
from analyzer.mechanics.melds import meld_all_trumps_counts
from analyzer.mechanics.rng import bounded
from analyzer.mechanics.rules import from_flat, team_kernel
from analyzer.mechanics.ruleset import SIDES_PARTNERS

#: rows of the per-hand histogram: the four trumps, then the best
N_ROWS = N_SUITS + 1
#: ranks that can meld four (or eight) of a kind: A 10 K Q J and the low card, at most
N_RANKS_MELD = 6


def hand_metric_names() -> list[str]:
    """``hand.meld.C`` ... ``hand.meld.D``, ``hand.meld.best`` (the histogram rows)."""
    return [f"hand.meld.{s}" for s in SUIT_LETTERS] + ["hand.meld.best"]


@njit(_nrt=False)
def deal_table(state, deck, n_play, hand_size, counts):
    """Shuffle ``deck`` (card types, in place; Fisher-Yates) and deal it: ``counts[s, t]``
    copies of type t for seat s < n_play (``hand_size`` cards each), row ``n_play`` the
    rest (the Dabb)."""
    n = deck.shape[0]
    for i in range(n - 1, 0, -1):
        j = bounded(state, i + 1)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
    for s in range(counts.shape[0]):
        for t in range(N_TYPES):
            counts[s, t] = 0
    for i in range(n):
        s = min(i // hand_size, n_play)
        counts[s, deck[i]] += 1


@njit(_nrt=False)
def _totals2(c, kr, out):
    """Meld totals per trump of a two-copy hand (counts ``c``) by R5's kernel."""
    lo = np.int64(0)
    hi = np.int64(0)
    for t in range(N_TYPES):
        if c[t] >= 1:
            lo |= np.int64(1) << np.int64(t)
        if c[t] >= 2:
            hi |= np.int64(1) << np.int64(t)
    meld_all_trumps(lo | (hi << np.int64(PLANE)), kr, out)


@njit(_nrt=False)
def _add_deal(tots, bidx, n_play, partners, counts, card_points, hist, hsq, dealsq, best_h,
              best_sq, side_h, side_sq, side_dealsq, dabb_h):
    """Accumulate one deal: ``tots[n_play, 5]`` the hands' totals per trump (column 4, the
    best, is filled here), ``counts[n_play]`` the cards laid aside."""
    for s in range(n_play):
        b = 0
        for t in range(1, N_SUITS):
            if tots[s, t] > tots[s, b]:
                b = t
        bidx[s] = b
        tots[s, N_SUITS] = tots[s, b]
    # a value held by m hands of the deal adds m to its count and m**2 to its square sum:
    # the i-th hand with an equal value adds 2 (i - 1) + 1
    for s in range(n_play):
        same = 0
        for r in range(s):
            if bidx[r] == bidx[s]:
                same += 1
        best_h[bidx[s]] += 1
        best_sq[bidx[s]] += 2 * same + 1
    for row in range(N_ROWS):
        total = np.int64(0)
        for s in range(n_play):
            v = tots[s, row]
            same = 0
            for r in range(s):
                if tots[r, row] == v:
                    same += 1
            hist[row, v] += 1
            hsq[row, v] += 2 * same + 1
            total += v
        dealsq[row] += total * total
    if partners:
        a = np.int64(-1)
        b = np.int64(-1)
        for t in range(N_SUITS):
            st0 = np.int64(0)
            st1 = np.int64(0)
            for s in range(n_play):
                if s % 2 == 0:
                    st0 += tots[s, t]
                else:
                    st1 += tots[s, t]
            a = max(a, st0)
            b = max(b, st1)
        side_h[a] += 1
        side_h[b] += 1
        side_sq[a] += 1
        side_sq[b] += 1 + 2 * (a == b)
        side_dealsq[0] += (a + b) * (a + b)
    pts = np.int64(0)
    for t in range(N_TYPES):
        pts += counts[n_play, t] * card_points[t]
    dabb_h[pts] += 1


@njit
def census_chunk2(state, n_deals, deck, n_play, hand_size, partners, kr, card_points, hist,
                  hsq, dealsq, best_h, best_sq, side_h, side_sq, side_dealsq, dabb_h):
    """The census of ``n_deals`` deals of a two-copy deck (R5's kernel with ``kr``)."""
    counts = np.zeros((n_play + 1, N_TYPES), dtype=np.int64)
    tots = np.zeros((n_play, N_ROWS), dtype=np.int64)
    bidx = np.zeros(n_play, dtype=np.int64)
    for _ in range(n_deals):
        deal_table(state, deck, n_play, hand_size, counts)
        for s in range(n_play):
            _totals2(counts[s], kr, tots[s, 0:N_SUITS])
        _add_deal(tots, bidx, n_play, partners, counts, card_points, hist, hsq, dealsq,
                  best_h, best_sq, side_h, side_sq, side_dealsq, dabb_h)


@njit
def census_chunk80(state, n_deals, deck, n_play, hand_size, partners, kp, card_points, hist,
                   hsq, dealsq, best_h, best_sq, side_h, side_sq, side_dealsq, dabb_h):
    """The census of ``n_deals`` deals of the four-copy deck (V6.3's kernel with ``kp``)."""
    counts = np.zeros((n_play + 1, N_TYPES), dtype=np.int64)
    c8 = np.zeros(N_TYPES, dtype=np.uint8)
    tots = np.zeros((n_play, N_ROWS), dtype=np.int64)
    bidx = np.zeros(n_play, dtype=np.int64)
    for _ in range(n_deals):
        deal_table(state, deck, n_play, hand_size, counts)
        for s in range(n_play):
            for t in range(N_TYPES):
                c8[t] = counts[s, t]
            meld_all_trumps_counts(c8, kp, tots[s, 0:N_SUITS])
        _add_deal(tots, bidx, n_play, partners, counts, card_points, hist, hsq, dealsq,
                  best_h, best_sq, side_h, side_sq, side_dealsq, dabb_h)


def census_shape(rules) -> dict:
    """What a game's table is, for the census: the compiled Kernel of its parts (deck,
    seats in play, hand size, sides) and the meld bound of its histograms."""
    k = from_flat(rules).kernel
    deck = np.repeat(np.arange(N_TYPES, dtype=np.int64), k.copies)
    return {"kernel": k, "deck": deck, "n_play": int(k.n_play), "hand_size": int(k.hand_size),
            "partners": int(k.side_rule) == SIDES_PARTNERS, "copies": int(k.k)}


def _meld_bound(shape: dict, rules) -> int:
    """An upper bound of one hand's meld total: every meld of the table at its highest
    value as often as the deck's copies allow (a generous, simple bound)."""
    m = from_flat(rules).melds
    k = shape["copies"]
    fam = max(max(m.family), max(m.double_family)) * k
    pair = max(m.pair) * k
    q = (max(max(m.fours), max(m.eights))) * k
    b = (max(max(m.binokel), m.grand_binokel)) * k
    return int(N_SUITS * (fam + pair) + N_RANKS_MELD * q + b + k * N_SUITS * m.dissle)



def _sparse_rows(name: str, counts: np.ndarray, sq: np.ndarray | None, out: list) -> None:
    """The non-zero bins of ``counts`` as rows (``sq`` = ``count`` for one unit a deal)."""
    for b in np.flatnonzero(counts):
        out.append((name, int(b), int(counts[b]), int(sq[b]) if sq is not None else int(counts[b])))


def table_meld_rows(state, n_deals: int, rules) -> list:
    """One chunk of the census (module docstring) as ``(metric, bin, count, sq)`` rows."""
    sh = census_shape(rules)
    k = sh["kernel"]
    h = _meld_bound(sh, rules) + 1
    n_play = sh["n_play"]
    hist = np.zeros((N_ROWS, h), np.int64)
    hsq = np.zeros_like(hist)
    dealsq = np.zeros(N_ROWS, np.int64)
    best_h = np.zeros(N_SUITS, np.int64)
    best_sq = np.zeros_like(best_h)
    side_h = np.zeros(n_play * h, np.int64)
    side_sq = np.zeros_like(side_h)
    side_dealsq = np.zeros(1, np.int64)
    dabb_h = np.zeros(int(k.card_points.max()) * max(len(sh["deck"]) - n_play * sh["hand_size"], 0) + 1,
                      np.int64)
    deck = sh["deck"].copy()
    args = (hist, hsq, dealsq, best_h, best_sq, side_h, side_sq, side_dealsq, dabb_h)
    if sh["copies"] == 2:
        census_chunk2(state, n_deals, deck, n_play, sh["hand_size"], sh["partners"],
                      rules.kernel, k.card_points, *args)
    else:
        census_chunk80(state, n_deals, deck, n_play, sh["hand_size"], sh["partners"],
                       team_kernel(rules), k.card_points, *args)
    rows: list = []
    for i, name in enumerate(hand_metric_names()):
        _sparse_rows(name, hist[i], hsq[i], rows)
        rows.append((name + ":dealsq", 0, int(dealsq[i]), 0))
    _sparse_rows("hand.best_trump", best_h, best_sq, rows)
    if sh["partners"]:
        _sparse_rows("side.meld.best", side_h, side_sq, rows)
        rows.append(("side.meld.best:dealsq", 0, int(side_dealsq[0]), 0))
    _sparse_rows("dabb.points", dabb_h, None, rows)
    return rows
