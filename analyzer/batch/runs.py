"""Batch simulations in chunks: per-chunk aggregates as Parquet parts, a manifest, resume.

A run of ``n`` deals is cut into chunks of ``chunk_size`` deals (the last one shorter).
Chunk ``i`` draws its random numbers from ``rng.chunk_state(seed, i)`` only, so the chunk
boundaries and every chunk's numbers are fixed by ``(seed, n, chunk_size)`` and never by
the number of workers, the backend or interruptions.  A chunk returns *aggregates*
(counts and histograms, never one row per deal); the parent writes each as one Parquet
part ``parts/part-NNNNNN.parquet`` (temp file + ``os.replace``, so a part is either
complete or absent) and the run's total is the sum of its parts, taken in chunk order.
Running the same run again skips every chunk whose part exists (resume); a folder that
holds a run with other parameters is refused rather than mixed.

Every part is one long table ``(metric, bin, count, sq)``:

- ``count``: how many *hands* (or deals) fell in ``bin`` of ``metric``;
- ``sq``: the sum over deals of (that deal's count in the bin) squared.  The three hands
  of one deal are not independent (they share one deck), so the standard errors of the
  report use the deal as the sampling unit; ``sq`` is what that needs.
- rows whose metric ends in ``:dealsq`` hold, in ``count``, the sum over deals of the
  squared per-deal sum of the metric (for the standard error of a mean).

What ``--what melds`` counts (per 15-card hand, all three seats of each deal, R5):

- ``h15.family.<suit>``: family level of the suit (0 none, 1 family, 2 double family);
- ``h15.pairs.<suit>``: K-Q pairs counted in the suit by R5's Reading (0..2);
- ``h15.rank.<rank>``: the lowest count of that rank over the four suits (1 = four of a
  kind, 2 = all eight; melds for A, K, Q, J only);
- ``h15.binokel``: 0, 1 (binokel) or 2 (double binokel);
- ``h15.nines.<suit>``: nines of that suit held (trump nines when it is trump);
- ``h15.pairs_total``, ``h15.families_total``: over all suits;
- ``h15.best_trump`` (suit index of the best trump by meld total, ties to the lower
  index) and ``h15.best_trump.family|pairs|nines`` in that suit;
- ``h15.meld.<suit>`` (meld total with that trump) and ``h15.meld.best`` (the maximum
  over the four trumps) as exact-value histograms.

The same with prefix ``h18`` for the *soloist's 18 cards*: forehand's 15 cards plus the
3-card Tapp, melded as if all 18 could be kept (R4 makes the soloist discard 3 cards
that then never meld, so this is an upper bound of what an exchange can keep; it is the
simple, exact definition, not a choice among 15 of 18).  One 18-card hand per deal.
``tapp.points``: the card points (R1) of the Tapp, one per deal.

What ``--what deals`` counts (one unit per deal; see :func:`deal_chunk`): every deal is bid
by three rule-of-thumb bidders (best meld + a fixed trick estimate, analyzer.mechanics.bidding, R3),
exchanged by the soloist's fast exchange (analyzer.mechanics.exchange, R4: discard, trump,
surrender, Durch) and played by the heuristic card-play policy (analyzer.mechanics.play, R6, R7),
then scored (analyzer.mechanics.scoring, R8/R4):

- ``bid.win`` (bin = winning bid), ``bid.seat`` (soloist's seat 0..2),
  ``contract`` (0 played with trump, 1 surrender, 2 Durch);
- ``by_bid.<kind>`` (bin = bid) for kind ``made``, ``failed`` (played, R8 -2 x bid),
  ``surrender``, ``durch_won``, ``durch_lost``;
- ``points.seat.<k>`` (card points by seat, R7, the soloist's incl. the discard),
  ``points.soloist``, ``points.defenders`` (the two opponents together), played deals only;
- ``sum.score.soloist.by_bid`` / ``sum.score.seat.<k>``: *sums* (count = sum of the
  scores, sq = sum of squares) for means with standard errors;
  ``sum.melds.soloist.by_bid``: the soloist's meld (R5, kept cards, named trump).

A team game's RuleSet (kreuz-48, kreuz-40, pinochle-80: ``rules.teams``) runs through the
same chunks, parts and manifest: ``deals`` by :func:`partners_deal_rows` (four rule
bidders, team metrics ``team.*``: see "Deals of partners" below), ``melds`` by the census
of any table,
:func:`analyzer.batch.table_census.table_meld_rows` (``hand.*``, ``side.*``,
``dabb.points``), and its manifest keeps every TeamRuleSet field, so
:attr:`RunResult.rules` rebuilds the TeamRuleSet.

A game with a stock (binokel-2, V7: ``has_stock(rules)``) runs ``deals`` only, by
:func:`analyzer.batch.stock_runs.stock_deal_rows` (heuristic play at both seats, metrics
``stock.*``); its manifest records the game's parts, and :attr:`RunResult.rules` gives
the registry's RuleSet when they are this version's.

Deals of partners (``--what deals`` of a team game, one row per deal from
:func:`partners_deal_chunk`, aggregated by :func:`aggregate_partners_rows`).  Every deal is
dealt (V4.1 11 + 4, V5.1 9 + 4, V6.1 20 + 0), bid by four rule-of-thumb bidders,
exchanged, played by the team policy at every seat and scored, by the partner games'
whole-deal kernels (analyzer.search.partner_deals.rule_deal_duels: V1's chain of duels, the
exchange and the contract choice V4.2-V4.6 / V5.3-V5.7; rule_deal_open: the V6.2 auction,
V6.3-V6.6).  Seats 0 + 2 are team 0, 1 + 3 team 1 (V1); seat 0 is forehand.  One unit
per deal, so ``sq`` = ``count`` for histograms.  The metrics:

- ``team.contract``: 0 played with trump, 1 going out (V4.3, V5.4), 2 Durch, 3 open Durch
  (V4.6), 4 thrown in (nobody bid: V6.2 all pass; V4.2 after V2.2 in kreuz-48);
- ``team.bidder`` (seat 0..3), ``team.bidding_team`` (0 / 1), ``team.trump`` (suit index,
  trump contracts and going out);
- ``team.bid.win`` (bin = winning bid); ``team.by_bid.<kind>`` (bin = bid) for kind
  ``made``, ``failed``, ``out``, ``durch_won``, ``durch_lost``; a played contract is made
  when the bidding team scores more than 0 (V4.6 / V5.7: total >= bid with a trick; V6.6:
  melds + counters >= bid with a counting trick);
- played trump contracts only: ``team.melds.bidding`` / ``team.melds.other`` /
  ``team.melds.team.<k>`` (the partners' melds with the named trump, V4.4 / V6.3, before
  the trick condition), ``team.points.bidding`` / ``team.points.other`` (card points, the
  discard counted for the soloist's team, V4.2; counters in Pinochle, V6.5),
  ``team.tricks.bidding`` (tricks won, V4.6; counting tricks in Pinochle, V6.3);
- ``team.score.bidding`` / ``team.score.other`` (every deal that was bid) and
  ``team.score.team.<k>`` (every deal, 0 when thrown in): the deal's score per team;
- ``sum.team.score.bidding.by_bid``, ``sum.team.score.other.by_bid`` (count = sum,
  sq = sum of squares of the score, bin = bid) and ``sum.team.melds.bidding.by_bid``
  (played contracts).

Decisions see only what the deciding player knows (bidders their own hand, the soloist
its hand and the Dabb, the partners' heuristic its hand and the cards played: game and
play.heuristic_partners say how, and their tests replace the hidden cards).
"""
from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.cards import N_SUITS, N_TYPES, PLANE, RANK_NAMES, SUIT_LETTERS
from analyzer.errors import BinokelError
from analyzer.parallel import parallel_map, resolve_jobs
from analyzer.mechanics.melds import meld_all_trumps
from analyzer.bounds import RUN_DEALS, SEED
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet, TeamRuleSet, has_partners, team_spec
from analyzer.mechanics.sampling import counts_mask, deal_rules, mask_counts, physical_deck
from analyzer.batch.part_rows import bin_rows, count_rows, hist_rows, sum_rows
from analyzer.batch.stock_runs import (has_stock, stock_deal_policy, stock_deal_rows,
                                       stock_rules_dict, stock_rules_from_dict)

FORMAT = 2                # 2: parts carry seed, rules, run digest and a checksum
MAX_DEALS = RUN_DEALS.hi  # ~28 CPU-hours of meld census: beyond it a request is a typo
MAX_CHUNKS = 1_000_000    # part files in one folder (and manifest checks per resume)
WHATS = ("melds", "deals")
DEFAULT_CHUNK = {"melds": 250_000, "deals": 20_000}
LO = np.int64((1 << N_TYPES) - 1)

# --- layout of the small per-hand meld census (rows of an int64[N_SMALL, N_BINS]) -----
FAMILY0, PAIRS0, RANK0, BINOKEL, NINES0 = 0, 4, 8, 14, 15
PAIRS_TOTAL, FAMILIES_TOTAL, BEST_TRUMP = 19, 20, 21
BEST_FAMILY, BEST_PAIRS, BEST_NINES = 22, 23, 24
N_SMALL, N_BINS = 25, 9


def small_metric_names(prefix: str) -> list[str]:
    """Names of the census rows, in kernel order (see the module docstring)."""
    names = [f"{prefix}.family.{s}" for s in SUIT_LETTERS]
    names += [f"{prefix}.pairs.{s}" for s in SUIT_LETTERS]
    names += [f"{prefix}.rank.{r}" for r in RANK_NAMES]
    names += [f"{prefix}.binokel"]
    names += [f"{prefix}.nines.{s}" for s in SUIT_LETTERS]
    names += [f"{prefix}.pairs_total", f"{prefix}.families_total", f"{prefix}.best_trump",
              f"{prefix}.best_trump.family", f"{prefix}.best_trump.pairs",
              f"{prefix}.best_trump.nines"]
    assert len(names) == N_SMALL
    return names


def meld_hist_names(prefix: str) -> list[str]:
    return [f"{prefix}.meld.{s}" for s in SUIT_LETTERS] + [f"{prefix}.meld.best"]


def suit_census_table() -> np.ndarray:
    """int64[4096, 2]: (family level, K-Q pairs) of one suit, indexed like the meld table.

    Index = ``lo6 | hi6 << 6`` with the suit's "holds one" and "holds two" bits (ranks A
    10 K Q J 9).  R5's Reading: ``f = min(a, t, k, q, j)``; pairs = 0 if f = 2,
    ``min(k-1, q-1)`` if f = 1, ``min(k, q)`` if f = 0.  tests/test_batch.py checks that
    these counts rebuild ``RuleSet.suit_f_value`` for the plain and trump rows.
    """
    table = np.zeros((1 << 12, 2), dtype=np.int64)
    for idx in range(1 << 12):
        lo, hi = idx & 63, idx >> 6
        if hi & ~lo:
            continue  # two copies without one: impossible pattern
        a, t, k, q, j = (((lo >> r) & 1) + ((hi >> r) & 1) for r in range(5))
        f = min(a, t, k, q, j)
        pairs = 0 if f == 2 else (min(k - 1, q - 1) if f == 1 else min(k, q))
        table[idx, 0] = f
        table[idx, 1] = pairs
    return table


def meld_bound(rules: RuleSet) -> int:
    """An upper bound of any hand's meld total under ``rules`` (histogram length - 1)."""
    kr = rules.kernel
    return int(N_SUITS * kr.suit_f_table.max()
               + sum(max(a, b) for a, b in zip(rules.fours, rules.eights))
               + max(max(rules.binokel), rules.grand_binokel) + 4 * rules.trump_nine)


# --- kernels ----------------------------------------------------------------------------

@njit
def _census_hand(mask, kr, census, tot4, v):
    """Fill ``v[0:N_SMALL]`` with one hand's census values (R5) and ``tot4`` with its
    meld totals per trump; return the best trump (lowest index among equal totals)."""
    lo = mask & LO
    hi = mask >> PLANE
    meld_all_trumps(mask, kr, tot4)
    best = 0
    for s in range(1, 4):
        if tot4[s] > tot4[best]:
            best = s
    pairs_total = 0
    fam_total = 0
    for s in range(4):
        idx = ((lo >> (6 * s)) & 63) | (((hi >> (6 * s)) & 63) << 6)
        f = census[idx, 0]
        p = census[idx, 1]
        v[FAMILY0 + s] = f
        v[PAIRS0 + s] = p
        pairs_total += p
        if f > 0:
            fam_total += 1
        nb = 6 * s + kr.nine_rank
        v[NINES0 + s] = ((lo >> nb) & 1) + ((hi >> nb) & 1)
    for r in range(6):
        fm = kr.fours_mask[r]
        lvl = 0
        if (lo & fm) == fm:
            lvl = 2 if (hi & fm) == fm else 1
        v[RANK0 + r] = lvl
    bm = kr.binokel_mask
    b = 0
    if (lo & bm) == bm:
        b = 2 if (hi & bm) == bm else 1
    v[BINOKEL] = b
    v[PAIRS_TOTAL] = pairs_total
    v[FAMILIES_TOTAL] = fam_total
    v[BEST_TRUMP] = best
    v[BEST_FAMILY] = v[FAMILY0 + best]
    v[BEST_PAIRS] = v[PAIRS0 + best]
    v[BEST_NINES] = v[NINES0 + best]
    return best


@njit
def _add3(count, sq, row, a, b, c):
    """Add three hands' values of one deal to ``count[row]`` and the per-deal squares.

    A value held by m of the three hands must add m to its count and m**2 to its square
    sum; giving each hand 1 + (number of other hands with the same value) does exactly
    that, without a case per pattern.
    """
    count[row, a] += 1
    count[row, b] += 1
    count[row, c] += 1
    sq[row, a] += 1 + (a == b) + (a == c)
    sq[row, b] += 1 + (b == a) + (b == c)
    sq[row, c] += 1 + (c == a) + (c == b)


@njit
def _mask_points(mask, kr):
    """Card points (R1) of a packed hand."""
    lo = mask & LO
    hi = mask >> PLANE
    pts = 0
    while lo:
        t = 0
        low = lo & -lo
        while (low >> t) != 1:
            t += 1
        pts += kr.card_points[t] * (1 + ((hi >> t) & 1))
        lo ^= low
    return pts


@njit
def meld_chunk(state, n_deals, kr, census, small15, sq15, hist15, hsq15, dealsq15,
               small18, hist18, tapp_hist):
    """Meld census of ``n_deals`` uniformly random deals (R2, R5), accumulated in place.

    Parameters
    ----------
    state : uint64[4]
        xoshiro256** state of this chunk (``rng.chunk_state``).
    kr : KernelRules
    census : int64[4096, 2]
        :func:`suit_census_table`.
    small15, sq15 : int64[N_SMALL, N_BINS]
        Census counts over the 15-card hands and per-deal squared counts.
    hist15, hsq15 : int64[5, H]
        Meld totals per trump (rows 0..3) and best (row 4): counts and per-deal squares.
    dealsq15 : int64[5]
        Sum over deals of (sum of the three hands' totals) squared, per row of hist15.
    small18 : int64[N_SMALL, N_BINS]; hist18 : int64[5, H]
        The same for forehand + Tapp (18 cards), one per deal.
    tapp_hist : int64[T]
        Card points of the Tapp (R1).
    """
    deck = physical_deck(kr)   # the variant's 48 or 40 cards (V5.1)
    masks = np.zeros(4, dtype=np.int64)
    vals = np.zeros((3, N_SMALL), dtype=np.int64)
    tots = np.zeros((3, 5), dtype=np.int64)
    v18 = np.zeros(N_SMALL, dtype=np.int64)
    t18 = np.zeros(5, dtype=np.int64)
    for _ in range(n_deals):
        deal_rules(state, deck, kr, masks)
        for seat in range(3):
            b = _census_hand(masks[seat], kr, census, tots[seat, 0:4], vals[seat])
            tots[seat, 4] = tots[seat, b]
        for row in range(N_SMALL):
            _add3(small15, sq15, row, vals[0, row], vals[1, row], vals[2, row])
        for row in range(5):
            _add3(hist15, hsq15, row, tots[0, row], tots[1, row], tots[2, row])
            s = tots[0, row] + tots[1, row] + tots[2, row]
            dealsq15[row] += s * s
        # forehand + Tapp: counts add, at most two copies in all (R1)
        lo1 = masks[0] & LO
        hi1 = masks[0] >> PLANE
        lo2 = masks[3] & LO
        hi2 = masks[3] >> PLANE
        m18 = (lo1 | lo2) | ((hi1 | hi2 | (lo1 & lo2)) << PLANE)
        b = _census_hand(m18, kr, census, t18[0:4], v18)
        t18[4] = t18[b]
        for row in range(N_SMALL):
            small18[row, v18[row]] += 1
        for row in range(5):
            hist18[row, t18[row]] += 1
        tapp_hist[_mask_points(masks[3], kr)] += 1


# --- played deals ---------------------------------------------------------------------

from analyzer.mechanics.bidding import DEFAULT_TRICK_ESTIMATE, rule_of_thumb_max_bid, run_auction  # noqa: E402
from analyzer.mechanics.exchange import (CONTRACT_DURCH, CONTRACT_OPEN_DURCH,  # noqa: E402
                                         CONTRACT_SURRENDER, fast_exchange)
from analyzer.mechanics.melds import discard_dissle, meld_total  # noqa: E402
from analyzer.mechanics.play import POLICY_HEURISTIC, beat_table, play_out  # noqa: E402
from analyzer.mechanics.bidding import (DEFAULT_PARTNER_ALLOWANCE, DEFAULT_DABB_ESTIMATE,
                                        DEFAULT_TRICK_VALUE)
from analyzer.mechanics.game import (RES_COLS,
                                     R_BID,
                                     R_BIDDER,
                                     R_CONTRACT,
                                     R_COUNTING,
                                     R_MELD,
                                     R_POINTS,
                                     R_SCORE,
                                     R_TRUMP)
from analyzer.search.partner_deals import rule_deal_duels, rule_deal_open
from analyzer.mechanics.sampling import deal_counts
from analyzer.mechanics.scoring import (DEAL_DURCH, DEAL_NORMAL, DEAL_OPEN_DURCH,  # noqa: E402
                                        DEAL_SURRENDER, score_kernel)

#: contract bins, every table (contract_h, team.contract): exchange.CONTRACT_* (play,
#: surrender / going out, Durch, open Durch: V2.7, V4.3, V4.6), then thrown in (V2.2, V6.2)
CONTRACT_THROWN_IN = 4
CONTRACT_NAMES = ("played with trump", "going out (V4.3, V5.4)", "Durch (V4.6)",
                  "open Durch (V4.6)", "thrown in (nobody bid)")

# rows of the per-bid table (deal_chunk's ``by_bid``)
BY_BID_KINDS = ("made", "failed", "surrender", "durch_won", "durch_lost")
MADE, FAILED, SURR, DURCH_WON, DURCH_LOST = range(5)


@njit
def deal_chunk(state, n_deals, kr, trick_estimate, policy, bid_win, bid_seat, contract_h,
               by_bid, points_seat, points_sol, points_def, score_bid, score_seat,
               meld_bid):
    """Bid, exchange, play and score ``n_deals`` random deals (R2-R8), accumulating.

    Parameters
    ----------
    state : uint64[4]
        The chunk's RNG state (dealing and the play policy's random choices).
    kr : KernelRules
    trick_estimate : int
        Card points the rule-of-thumb bidders add to their best meld (analyzer.mechanics.bidding).
    policy : int
        Card-play policy for all seats (analyzer.mechanics.play).
    bid_win : int64[K]
        Winning bids by step index ``(bid - bid_start) // bid_step``.
    bid_seat, contract_h : int64[3]
    by_bid : int64[5, K]
        Outcome kind (made, failed, surrender, Durch won, Durch lost) by bid index.
    points_seat : int64[3, P]; points_sol, points_def : int64[P]
        Card points histograms (R7), played trump contracts only.
    score_bid : int64[2, K]
        Sum and sum of squares of the soloist's score (R8/R4) by bid index.
    score_seat : int64[2, 3]
        Sum and sum of squares of each seat's score.
    meld_bid : int64[2, K]
        Sum and sum of squares of the soloist's meld total with the named trump.

    Decisions see only what the deciding player knows: bidders their 15-card mask, the
    exchange the soloist's 18 cards, the play policy its own hand and the cards played.
    """
    deck = physical_deck(kr)   # the variant's 48 or 40 cards (V5.1)
    masks = np.zeros(4, dtype=np.int64)
    hands = np.zeros((3, N_TYPES), dtype=np.uint8)
    tapp = np.zeros(N_TYPES, dtype=np.uint8)
    c18 = np.zeros(N_TYPES, dtype=np.uint8)
    max_bids = np.zeros(3, dtype=np.int64)
    D = kr.tapp_size
    disc = np.zeros(D, dtype=np.int64)
    pts = np.zeros(3, dtype=np.int64)
    trk = np.zeros(3, dtype=np.int64)
    cp = np.zeros(3, dtype=np.int64)
    mel = np.zeros(3, dtype=np.int64)
    sc = np.zeros(3, dtype=np.int64)
    for _ in range(n_deals):
        deal_rules(state, deck, kr, masks)
        for p in range(3):
            mask_counts(masks[p], hands[p])
            max_bids[p] = rule_of_thumb_max_bid(masks[p], kr, trick_estimate)
        mask_counts(masks[3], tapp)
        soloist, bid = run_auction(max_bids, kr)
        if soloist < 0:
            contract_h[CONTRACT_THROWN_IN] += 1   # V2.2: nobody bid, 0 for everybody
            continue
        for t in range(N_TYPES):
            c18[t] = hands[soloist, t] + tapp[t]
        trump, contract = fast_exchange(c18, bid, kr, disc)
        # the soloist keeps 18 - discard (R4); the discard never melds
        for t in range(N_TYPES):
            hands[soloist, t] = c18[t]
        disc_pts = 0
        for i in range(D):
            hands[soloist, disc[i]] -= 1
            disc_pts += kr.card_points[disc[i]]
        for p in range(3):
            pts[p] = 0
            trk[p] = 0
            mel[p] = 0
        k = (bid - kr.bid_start) // kr.bid_step
        if contract == CONTRACT_DURCH or contract == CONTRACT_OPEN_DURCH:
            play_out(hands, -1, soloist, soloist, policy, state, kr, pts, trk)
            score_kernel(DEAL_DURCH if contract == CONTRACT_DURCH else DEAL_OPEN_DURCH, bid,
                         soloist, pts, trk, mel, kr, sc)
            by_bid[DURCH_WON if sc[soloist] > 0 else DURCH_LOST, k] += 1
        else:
            for p in range(3):
                mel[p] = meld_total(counts_mask(hands[p]), trump, kr)
            mel[soloist] += discard_dissle(disc, D, trump, kr)   # V2.3
            if contract == CONTRACT_SURRENDER:
                score_kernel(DEAL_SURRENDER, bid, soloist, pts, trk, mel, kr, sc)
                by_bid[SURR, k] += 1
            else:
                # forehand leads the first trick (R6)
                play_out(hands, trump, 0, soloist, policy, state, kr, pts, trk)
                for p in range(3):
                    cp[p] = pts[p] + (disc_pts if p == soloist else 0)
                score_kernel(DEAL_NORMAL, bid, soloist, cp, trk, mel, kr, sc)
                by_bid[MADE if sc[soloist] > 0 else FAILED, k] += 1
                dsum = 0
                for p in range(3):
                    points_seat[p, cp[p]] += 1
                    if p != soloist:
                        dsum += cp[p]
                points_sol[cp[soloist]] += 1
                points_def[dsum] += 1
            meld_bid[0, k] += mel[soloist]
            meld_bid[1, k] += mel[soloist] * mel[soloist]
        bid_win[k] += 1
        bid_seat[soloist] += 1
        contract_h[contract] += 1
        score_bid[0, k] += sc[soloist]
        score_bid[1, k] += sc[soloist] * sc[soloist]
        for p in range(3):
            score_seat[0, p] += sc[p]
            score_seat[1, p] += sc[p] * sc[p]


def deal_policy(rules: RuleSet) -> dict:
    """The fast policies a ``deals`` run of ``rules`` uses (recorded in its manifest): the
    partners' rule bidders and team policy (V1 duels or V6.2 open bidding), or the
    three-player rule bidders, fast exchange and heuristic play."""
    if has_partners(rules):
        spec = team_spec(rules)
        if spec.open_auction:
            return {"bidding": "rule_of_thumb80 (meld + points per expected trick)",
                    "trick_value": DEFAULT_TRICK_VALUE,
                    "partner_allowance": DEFAULT_PARTNER_ALLOWANCE,
                    "auction": "V6.2 threshold auction", "play": "team heuristic"}
        return {"bidding": "kreuz_rule_value (meld + team model + Dabb allowance)",
                "trick_estimate": DEFAULT_DABB_ESTIMATE, "auction": "V1 chain of duels",
                "exchange": "kreuz_exchange + contract_for_bid", "play": "team heuristic"}
    return {"bidding": "rule_of_thumb", "trick_estimate": DEFAULT_TRICK_ESTIMATE,
            "exchange": "fast_exchange", "play": "heuristic"}


def _deal_rows(state, n_deals: int, rules: RuleSet) -> list:
    kr = rules.kernel
    nb = (meld_bound(rules) + DEFAULT_TRICK_ESTIMATE) // rules.bid_step + 2
    npts = 2 * N_SUITS * sum(rules.card_points) + rules.last_trick_bonus + 1
    bid_win = np.zeros(nb, np.int64)
    bid_seat = np.zeros(3, np.int64)
    contract_h = np.zeros(5, np.int64)
    by_bid = np.zeros((len(BY_BID_KINDS), nb), np.int64)
    points_seat = np.zeros((3, npts), np.int64)
    points_sol = np.zeros(npts, np.int64)
    points_def = np.zeros(npts, np.int64)
    score_bid = np.zeros((2, nb), np.int64)
    score_seat = np.zeros((2, 3), np.int64)
    meld_bid = np.zeros((2, nb), np.int64)
    deal_chunk(state, n_deals, kr, DEFAULT_TRICK_ESTIMATE, POLICY_HEURISTIC, bid_win,
               bid_seat, contract_h, by_bid, points_seat, points_sol, points_def, score_bid,
               score_seat, meld_bid)
    bids = rules.bid_start + rules.bid_step * np.arange(nb)
    rows: list = []

    won = np.flatnonzero(bid_win)     # the bids some deal was won at

    def by_bid_rows(name, counts, sq=None):
        bin_rows(name, bids[won], counts[won], counts[won] if sq is None else sq[won], rows)

    by_bid_rows("bid.win", bid_win)
    count_rows("bid.seat", bid_seat, None, rows)
    count_rows("contract", contract_h, None, rows)
    for j, kind in enumerate(BY_BID_KINDS):
        by_bid_rows(f"by_bid.{kind}", by_bid[j])
    for p in range(3):
        count_rows(f"points.seat.{p}", points_seat[p], None, rows)
    count_rows("points.soloist", points_sol, None, rows)
    count_rows("points.defenders", points_def, None, rows)
    by_bid_rows("sum.score.soloist.by_bid", score_bid[0], score_bid[1])
    by_bid_rows("sum.melds.soloist.by_bid", meld_bid[0], meld_bid[1])
    for p in range(3):
        rows.append((f"sum.score.seat.{p}", 0, int(score_seat[0, p]), int(score_seat[1, p])))
    return rows


# --- deals of partners (module doc: "Deals of partners") --------------------------------

#: team.by_bid kinds (the partners' name of a surrender is going out, V4.3)
PARTNERS_BY_BID_KINDS = ("made", "failed", "out", "durch_won", "durch_lost")


@njit
def partners_deal_chunk(state, n_deals, deck, tk, kr, open_auction, estimate, trick_value,
                        allowance, out):
    """Deal, bid, exchange, play and score ``n_deals`` random deals of a game of partners.

    Parameters
    ----------
    state : uint64[4]
        The chunk's RNG state (dealing and the team policy's random choices).
    deck : uint8[n]
        The game's deck as card types (rules.TeamSpec.deck; shuffled in place).
    tk, kr : TeamKernel, KernelRules
        The game's compiled rules (rules.team_spec).
    open_auction : bool
        True: the V6.2 auction with :func:`partner_deals.rule_deal_open`; False: V1's chain of
        duels with the Dabb, :func:`partner_deals.rule_deal_duels`.
    estimate : int
        The duel rule bidders' Dabb allowance (bidding.DEFAULT_DABB_ESTIMATE).
    trick_value, allowance : int
        The open-bidding rule bidders' points per expected trick and partner allowance
        (bidding.DEFAULT_TRICK_VALUE, DEFAULT_PARTNER_ALLOWANCE).
    out : int64[n_deals, RES_COLS]
        One result row per deal (game.py's columns; bidder -1 = thrown in).
    """
    hands = np.zeros((5, N_TYPES), dtype=np.uint8)
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(tk, beat)
    pol = np.full(4, POLICY_HEURISTIC, dtype=np.int64)
    res = np.zeros(RES_COLS, dtype=np.int64)
    for i in range(n_deals):
        deal_counts(state, deck, hands, tk.hand_size)
        if open_auction:
            rule_deal_open(hands[:4], trick_value, allowance, pol, state, tk, beat, cnt, res)
        else:
            rule_deal_duels(hands, estimate, pol, state, tk, kr, beat, cnt, res)
        for c in range(RES_COLS):
            out[i, c] = res[c]


def partners_deal_table(state, n_deals: int, rules) -> np.ndarray:
    """The result rows (int64[n_deals, RES_COLS]) of ``n_deals`` deals from ``state``."""
    spec = team_spec(rules)
    out = np.zeros((n_deals, RES_COLS), dtype=np.int64)
    partners_deal_chunk(state, n_deals, spec.deck.copy(), spec.tk, spec.kr, spec.open_auction,
                        DEFAULT_DABB_ESTIMATE, DEFAULT_TRICK_VALUE,
                        DEFAULT_PARTNER_ALLOWANCE, out)
    return out


def aggregate_partners_rows(res: np.ndarray) -> list:
    """The part rows ``(metric, bin, count, sq)`` of a chunk's result rows (module doc)."""
    rows: list = []
    bidder = res[:, R_BIDDER]
    bid_deal = bidder >= 0
    contract = np.where(bid_deal, res[:, R_CONTRACT], CONTRACT_THROWN_IN)
    hist_rows("team.contract", contract, rows)
    r = res[bid_deal]
    sol = r[:, R_BIDDER]
    bt = sol % 2
    idx = np.arange(r.shape[0])
    score_b = r[idx, R_SCORE + bt]
    score_o = r[idx, R_SCORE + 1 - bt]
    bid = r[:, R_BID]
    con = r[:, R_CONTRACT]
    hist_rows("team.bidder", sol, rows)
    hist_rows("team.bidding_team", bt, rows)
    hist_rows("team.trump", r[con <= CONTRACT_SURRENDER, R_TRUMP], rows)
    hist_rows("team.bid.win", bid, rows)
    play = con == 0
    durch = (con == CONTRACT_DURCH) | (con == CONTRACT_OPEN_DURCH)
    kinds = {"made": play & (score_b > 0), "failed": play & (score_b <= 0),
             "out": con == CONTRACT_SURRENDER, "durch_won": durch & (score_b > 0),
             "durch_lost": durch & (score_b <= 0)}
    for k in PARTNERS_BY_BID_KINDS:
        hist_rows(f"team.by_bid.{k}", bid[kinds[k]], rows)
    p = r[play]
    pb = bt[play]
    ip = np.arange(p.shape[0])
    hist_rows("team.melds.bidding", p[ip, R_MELD + pb], rows)
    hist_rows("team.melds.other", p[ip, R_MELD + 1 - pb], rows)
    for k in range(2):
        hist_rows(f"team.melds.team.{k}", p[:, R_MELD + k], rows)
    hist_rows("team.points.bidding", p[ip, R_POINTS + pb], rows)
    hist_rows("team.points.other", p[ip, R_POINTS + 1 - pb], rows)
    hist_rows("team.tricks.bidding", p[ip, R_COUNTING + pb], rows)
    hist_rows("team.score.bidding", score_b, rows)
    hist_rows("team.score.other", score_o, rows)
    for k in range(2):
        hist_rows(f"team.score.team.{k}", res[:, R_SCORE + k], rows)
    sum_rows("sum.team.score.bidding.by_bid", bid, score_b, rows)
    sum_rows("sum.team.score.other.by_bid", bid, score_o, rows)
    sum_rows("sum.team.melds.bidding.by_bid", p[:, R_BID], p[ip, R_MELD + pb], rows)
    return rows


def partners_deal_rows(state, n_deals: int, rules) -> list:
    """A partners' ``deals`` chunk: play ``n_deals`` deals and aggregate them (a part's rows)."""
    return aggregate_partners_rows(partners_deal_table(state, n_deals, rules))


# --- one chunk, run in a worker ---------------------------------------------------------


def run_chunk(what: str, seed: int, chunk: int, n_deals: int, rules: RuleSet) -> dict:
    """Aggregate one chunk; returns ``{"chunk", "n_deals", "rows"}`` with rows
    ``(metric, bin, count, sq)`` (only non-zero bins).  Pure function of its arguments."""
    state = chunk_state(seed, chunk)
    if what == "melds" and has_stock(rules):
        raise BinokelError(f"{rules.name} (V7): no meld census of a game with a stock: use --what deals")
    if what == "melds" and has_partners(rules):
        from analyzer.batch.table_census import table_meld_rows
        rows = table_meld_rows(state, n_deals, rules)
    elif what == "melds":
        rows = _meld_rows(state, n_deals, rules)
    elif what == "deals" and has_partners(rules):
        rows = partners_deal_rows(state, n_deals, rules)
    elif what == "deals" and has_stock(rules):
        rows = stock_deal_rows(seed, chunk, n_deals, rules)
    elif what == "deals":
        rows = _deal_rows(state, n_deals, rules)
    else:
        raise BinokelError(f"unknown --what {what!r}: use one of {', '.join(WHATS)}")
    return {"chunk": chunk, "n_deals": n_deals, "rows": rows}


_CENSUS = None


def _meld_rows(state, n_deals: int, rules: RuleSet) -> list:
    global _CENSUS
    if _CENSUS is None:
        _CENSUS = suit_census_table()
    kr = rules.kernel
    h = meld_bound(rules) + 1
    small15 = np.zeros((N_SMALL, N_BINS), np.int64)
    sq15 = np.zeros_like(small15)
    small18 = np.zeros_like(small15)
    hist15 = np.zeros((5, h), np.int64)
    hsq15 = np.zeros_like(hist15)
    hist18 = np.zeros_like(hist15)
    dealsq15 = np.zeros(5, np.int64)
    tapp = np.zeros(max(rules.card_points) * rules.tapp_size + 1, np.int64)
    meld_chunk(state, n_deals, kr, _CENSUS, small15, sq15, hist15, hsq15, dealsq15,
               small18, hist18, tapp)
    rows: list = []
    for i, name in enumerate(small_metric_names("h15")):
        count_rows(name, small15[i], sq15[i], rows)
    for i, name in enumerate(meld_hist_names("h15")):
        count_rows(name, hist15[i], hsq15[i], rows)
        rows.append((name + ":dealsq", 0, int(dealsq15[i]), 0))
    for i, name in enumerate(small_metric_names("h18")):
        count_rows(name, small18[i], None, rows)
    for i, name in enumerate(meld_hist_names("h18")):
        count_rows(name, hist18[i], None, rows)
    count_rows("tapp.points", tapp, None, rows)
    return rows


# --- run specification, manifest, parts -------------------------------------------------

@dataclass(frozen=True)
class RunSpec:
    """The parameters that fix a run's numbers: what, n, seed, chunk size, rules."""

    what: str
    n: int
    seed: int
    chunk_size: int
    rules: RuleSet = field(default=DEFAULT_RULES)

    def __post_init__(self) -> None:
        if self.what not in WHATS:
            raise BinokelError(f"unknown --what {self.what!r}: use one of {', '.join(WHATS)}")
        if int(self.n) < 1:
            raise BinokelError(f"-n must be at least 1, got {self.n}")
        if int(self.n) > MAX_DEALS:
            raise BinokelError(f"-n {_short(self.n)} is more than this tool runs ({MAX_DEALS:,} "
                               f"deals at most)")
        if int(self.chunk_size) < 1:
            raise BinokelError(f"--chunk-size must be at least 1, got {self.chunk_size}")
        if int(self.chunk_size) > MAX_DEALS:
            raise BinokelError(f"--chunk-size must be at most {MAX_DEALS:,}")
        if self.n_chunks > MAX_CHUNKS:
            raise BinokelError(f"-n {self.n:,} in chunks of {self.chunk_size:,} makes "
                               f"{self.n_chunks:,} parts, more than {MAX_CHUNKS:,}: use "
                               f"--chunk-size {-(-self.n // MAX_CHUNKS):,} or more")
        if int(self.seed) < 0:
            raise BinokelError(f"--seed must be a non-negative integer, got {self.seed}")
        SEED.check(int(self.seed), "--seed")
        if self.what == "melds" and has_stock(self.rules):
            raise BinokelError(f"--what melds: {self.rules.name} (V7) shows its melds one per "
                               "won trick: no meld census of dealt hands; use --what deals")

    @property
    def n_chunks(self) -> int:
        return -(-self.n // self.chunk_size)

    def chunk_len(self, i: int) -> int:
        return min(self.chunk_size, self.n - i * self.chunk_size)

    def key(self) -> dict:
        """The parameters two runs must share to be the same run."""
        from analyzer import __version__
        key = {"format": FORMAT, "what": self.what, "n": int(self.n), "seed": int(self.seed),
               "chunk_size": int(self.chunk_size), "version": __version__,
               "rules": stock_rules_dict(self.rules) if has_stock(self.rules)
               else self.rules.to_dict()}
        if has_stock(self.rules):
            key["policy"] = stock_deal_policy(self.rules)
        elif self.what == "deals":
            key["policy"] = deal_policy(self.rules)
        return key

    def manifest(self) -> dict:
        m = self.key()
        m["n_chunks"] = self.n_chunks
        m["created"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        return m


def _short(n) -> str:
    """A number as the user typed it, cut to 30 digits."""
    s = f"{int(n):,}"
    return s if len(s) <= 30 else s[:29] + "…"


def _jsonable(obj):
    return json.loads(json.dumps(obj))


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that it is either complete or absent: a temp file in
    the same folder, fsync, ``os.replace``, then fsync of the folder (the rename itself
    survives a crash)."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    try:
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:  # pragma: no cover - folders that cannot be opened (not POSIX)
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - e.g. file systems without directory fsync
        pass
    finally:
        os.close(fd)


# --- integrity: what a run folder must hold ------------------------------------------------
#
# Every part carries in its Parquet metadata the chunk index, the deal count, the seed,
# what was simulated, a digest of the run's identity (RunSpec.key(): n, chunk size,
# rules, version ...) and a SHA-256 of its own rows.  load_run checks each part against
# the manifest and refuses a folder with a damaged or foreign part, naming it; resuming
# (prepare_run) sets such parts aside as ``*.damaged`` and redoes their chunks.

KEY_FIELDS = ("format", "what", "n", "seed", "chunk_size", "rules", "version", "policy")
MANIFEST_FIELDS = {"what": str, "n": int, "seed": int, "chunk_size": int, "n_chunks": int,
                   "rules": dict, "format": int}
LOCK_NAME = ".lock"


def _digest(obj) -> str:
    import hashlib
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:32]


def run_identity(key: dict) -> str:
    """Digest of the parameters that fix a run's numbers (a manifest or RunSpec.key())."""
    return _digest({k: key[k] for k in KEY_FIELDS if k in key})


def _rows_digest(metric, bins, counts, sq) -> str:
    import hashlib
    h = hashlib.sha256()
    h.update("\n".join(metric).encode())
    for col in (bins, counts, sq):
        h.update(np.ascontiguousarray(col, dtype=np.int64).tobytes())
    return h.hexdigest()


def _read_manifest(path: Path) -> tuple[dict | None, str | None]:
    """(manifest, None) or (None, what is wrong with it), never an exception."""
    man_path = path / "manifest.json"
    try:
        text = man_path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, "manifest.json is missing"
    except IsADirectoryError:
        return None, "manifest.json is a folder"
    except (OSError, UnicodeDecodeError) as exc:
        return None, f"manifest.json is unreadable ({getattr(exc, 'strerror', None) or type(exc).__name__})"
    try:
        man = json.loads(text)
    except ValueError as exc:
        return None, f"manifest.json is not JSON ({str(exc)[:60]})"
    if not isinstance(man, dict):
        return None, f"manifest.json holds a {type(man).__name__}, not a run manifest"
    for k, typ in MANIFEST_FIELDS.items():
        if k not in man:
            return None, f"manifest.json lacks {k!r}"
        if not isinstance(man[k], typ) or isinstance(man[k], bool):
            return None, f"manifest.json: {k!r} is not a{'n' if typ is int else ''} {typ.__name__}"
    if man["format"] != FORMAT:
        return None, (f"manifest.json is format {man['format']}, this version reads format "
                      f"{FORMAT} (re-run the simulation)")
    if man["what"] not in WHATS:
        return None, f"manifest.json: unknown what {str(man['what'])[:20]!r}"
    if man["n"] < 1 or man["chunk_size"] < 1:
        return None, "manifest.json: n and chunk_size must be positive"
    expect = -(-man["n"] // man["chunk_size"])
    if man["n_chunks"] != expect:
        return None, (f"manifest.json says n_chunks {man['n_chunks']:,} but {man['n']:,} deals "
                      f"in chunks of {man['chunk_size']:,} make {expect:,} (edited?)")
    return man, None


def _chunk_len(man: dict, i: int) -> int:
    return min(man["chunk_size"], man["n"] - i * man["chunk_size"])


def read_part(path: Path, chunk: int, man: dict):
    """Read and check one part against the run's manifest.

    Returns ``(table, None)`` for a good part or ``(None, reason)``: unreadable bytes, a
    wrong chunk index (a part copied over another), a wrong deal count, another run's
    seed, rules or parameters, or rows that do not match their checksum.
    """
    import pyarrow.parquet as pq
    try:
        t = pq.read_table(path)
    except Exception as exc:  # pyarrow raises several types for damaged bytes
        return None, f"is unreadable: not a valid Parquet file ({type(exc).__name__}; damaged bytes?)"
    meta = {k.decode(errors="replace"): v.decode(errors="replace")
            for k, v in (t.schema.metadata or {}).items()}
    if meta.get("format") != str(FORMAT):
        return None, "has no integrity metadata (written by an older version)"
    if meta.get("chunk") != str(chunk):
        return None, f"holds chunk {meta.get('chunk', '?')[:12]}, not {chunk} (a copied part?)"
    if meta.get("seed") != str(man["seed"]):
        return None, f"was made with seed {meta.get('seed', '?')[:20]}, this run's is {man['seed']} (another run's part)"
    if meta.get("what") != man["what"]:
        return None, f"is a {meta.get('what', '?')[:10]!r} part in a {man['what']!r} run (another run's part)"
    if meta.get("rules") != _digest(man["rules"]):
        return None, "was made under other rules (another run's part)"
    if meta.get("run") != run_identity(man):
        return None, "belongs to a run with other parameters (n, chunk size or version)"
    if meta.get("n_deals") != str(_chunk_len(man, chunk)):
        return None, f"has {meta.get('n_deals', '?')[:20]} deals, chunk {chunk} has {_chunk_len(man, chunk):,}"
    try:
        cols = [t.column(c) for c in ("metric", "bin", "count", "sq")]
        digest = _rows_digest(cols[0].to_pylist(), *(c.to_numpy() for c in cols[1:]))
    except Exception as exc:
        return None, f"has unexpected columns ({type(exc).__name__})"
    if digest != meta.get("sha256"):
        return None, "does not match its checksum (damaged bytes)"
    return t, None


def _part_index(name: str) -> int | None:
    import re
    m = re.fullmatch(r"part-(\d{6,})\.parquet", name)
    return int(m.group(1)) if m else None


def _is_run_file(name: str) -> bool:
    """Whether a name in ``parts/`` is one a run writes or checks: a Parquet file (a part,
    or something posing as one: checked, and set aside when damaged or foreign) or a
    part's leftovers (``.tmp`` while writing, ``.damaged`` once set aside).  Anything else
    (a note, a README, ``.DS_Store``) is not part of the run: reported, left alone."""
    return name.endswith((".parquet", ".tmp", ".damaged"))


def check_parts(path: Path, man: dict) -> tuple[list[int], list[tuple[str, str]]]:
    """(good chunk indices, [(file name, what is wrong)]) of a run folder's parts/.

    Only Parquet files are judged (:func:`_is_run_file`); other files are not part of
    the run and are listed by :func:`foreign_files` instead."""
    parts = path / "parts"
    good, bad = [], []
    if not parts.is_dir():
        return good, bad
    for f in sorted(parts.iterdir()):
        if f.name.endswith((".tmp", ".damaged")) or not _is_run_file(f.name):
            continue
        i = _part_index(f.name)
        if i is None:
            bad.append((f.name, "is not a part of this run (unexpected file name)"))
        elif i >= man["n_chunks"]:
            bad.append((f.name, f"is beyond the run's {man['n_chunks']:,} chunks"))
        else:
            _, why = read_part(f, i, man)
            if why is None:
                good.append(i)
            else:
                bad.append((f.name, why))
    return good, bad


def foreign_files(path: Path) -> list[str]:
    """Files in a run folder that are not part of a run (a note, a README), as paths
    relative to the folder: never read, counted, moved or deleted, only reported."""
    out = []
    if not path.is_dir():
        return out
    for f in sorted(path.iterdir()):
        if f.name in ("manifest.json", "parts", LOCK_NAME) or f.name.startswith("manifest.json."):
            continue
        out.append(f.name)
    parts = path / "parts"
    if parts.is_dir():
        out += [f"parts/{f.name}" for f in sorted(parts.iterdir()) if not _is_run_file(f.name)]
    return out


def part_path(out: Path, chunk: int) -> Path:
    return out / "parts" / f"part-{chunk:06d}.parquet"


def write_part(out: Path, result: dict, spec: "RunSpec | None" = None) -> Path:
    """Write one chunk's rows as a Parquet part, atomically (temp file + os.replace),
    with its integrity metadata (see ``read_part``) when ``spec`` is given."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = result["rows"]
    metric = [r[0] for r in rows]
    cols = [np.array([r[j] for r in rows], dtype=np.int64) for j in (1, 2, 3)]
    meta = {"chunk": str(result["chunk"]), "n_deals": str(result["n_deals"])}
    if spec is not None:
        key = _jsonable(spec.key())
        meta.update({"format": str(FORMAT), "seed": str(spec.seed), "what": spec.what,
                     "rules": _digest(key["rules"]), "run": run_identity(key),
                     "sha256": _rows_digest(metric, *cols)})
    table = pa.table({
        "metric": pa.array(metric, pa.string()),
        "bin": pa.array(cols[0], pa.int64()),
        "count": pa.array(cols[1], pa.int64()),
        "sq": pa.array(cols[2], pa.int64()),
    }).replace_schema_metadata(meta)
    buf = pa.BufferOutputStream()
    pq.write_table(table, buf, compression="zstd")
    path = part_path(out, result["chunk"])
    _write_atomic(path, buf.getvalue().to_pybytes())
    return path


def _set_aside(path: Path) -> Path:
    """Rename a damaged or foreign part to ``NAME.damaged`` (never deleted: nothing lost)."""
    dest = path.with_name(path.name + ".damaged")
    k = 1
    while dest.exists():
        dest = path.with_name(f"{path.name}.{k}.damaged")
        k += 1
    os.replace(path, dest)
    return dest


_WHAT_WORDS = {"melds": "meld census", "deals": "played deals"}
_KEY_WORDS = {"format": "the file format", "what": "what is simulated (--what)",
              "n": "the number of deals (-n)", "seed": "the seed (--seed)",
              "chunk_size": "the chunk size (--chunk-size)", "rules": "the rules (--rules)",
              "version": "the program version", "policy": "the bidders' and players' policy"}


def _names(names: list[str], k: int = 3) -> str:
    more = f" and {len(names) - k} more" if len(names) > k else ""
    return ", ".join(names[:k]) + more


def describe_run(key: dict) -> str:
    """A run's parameters in words, e.g. "2,000 deals of meld census (binokel-48, seed 1,
    chunks of 250,000)", from a manifest or ``RunSpec.key()``; tolerant of missing or
    odd fields (an edited manifest)."""
    def num(v):
        return f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else str(v)[:20]
    rules = key.get("rules")
    name = rules.get("name", "?") if isinstance(rules, dict) else "?"
    what = _WHAT_WORDS.get(key.get("what"), str(key.get("what"))[:20])
    return (f"{num(key.get('n'))} deals of {what} ({str(name)[:30]}, seed {num(key.get('seed'))}, "
            f"chunks of {num(key.get('chunk_size'))})")


def mismatch_message(out, old: dict, key: dict) -> str:
    """One line saying in words how the run in ``out`` (its manifest ``old``) differs from
    the run asked for (``key``, :meth:`RunSpec.key`): never mixed, so another folder."""
    diff = [k for k in key if old.get(k) != key[k]]
    if ("what" in diff or "rules" in diff) and "policy" in diff:
        diff.remove("policy")     # the policy follows from --what and the game: implied
    said = []
    for k in diff:
        if k == "rules":
            ro = old.get("rules") if isinstance(old.get("rules"), dict) else {}
            rn = key["rules"]
            if ro.get("name") != rn.get("name"):
                said.append("the game (--rules)")
            else:    # same name, other constants: a registry edited between the runs
                fields = sorted(f for f in set(ro) | set(rn) if ro.get(f) != rn.get(f))
                said.append(f"the rules of {str(rn.get('name'))[:30]} (in {_names(fields)})")
        elif k == "version":
            said.append(f"the program version (that run: {str(old.get('version'))[:20]}, this "
                        f"program: {key['version']})")
        else:
            said.append(_KEY_WORDS.get(k, k))
    return (f"{out} holds a run of {describe_run(old)}; you asked for {describe_run(key)}. "
            f"They differ in {_names(said, 8)}, and runs are never mixed: use another --out "
            f"folder, or the run's own parameters to resume it")


def prepare_run(out: str | os.PathLike, spec: RunSpec, note: dict | None = None,
                notes: list | None = None) -> list[int]:
    """Create or check the run folder; return the chunk indices still to run.

    A part that is damaged or foreign (see :func:`read_part`) is renamed ``*.damaged``
    and its chunk is run again; a damaged or missing manifest is rewritten when every
    part in the folder shows (by its metadata) that it belongs to this very run.  Each
    such repair is appended to ``notes`` as one line.

    Raises BinokelError when ``out`` holds a run with other parameters (never mixed), is
    a file, or holds other files.
    """
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise BinokelError(f"--out {out} exists and is not a folder")
    parts = out / "parts"
    if parts.exists() and not parts.is_dir():
        raise BinokelError(f"{parts} is a file, not the folder of parts: move it away and "
                           f"run again")
    notes = notes if notes is not None else []
    man_path = out / "manifest.json"
    key = _jsonable(spec.key())
    man = spec.manifest()
    man.update(note or {})  # provenance only (e.g. the command), never compared
    man = _jsonable(man)
    old, problem = _read_manifest(out) if out.exists() else (None, "manifest.json is missing")
    if old is not None:
        if any(old.get(k) != key[k] for k in key):
            raise BinokelError(mismatch_message(out, old, key))
    elif out.exists():
        good, bad = check_parts(out, man)
        if not (man_path.exists() or good or bad):
            # nothing of a run here (no manifest, no part): a folder of other files
            # is not turned into a run folder
            others = foreign_files(out)
            if others:
                raise BinokelError(f"{out} is not empty and holds no run manifest "
                                   f"({problem}; it holds {_names(others)}); use another --out")
        else:
            if bad:
                raise BinokelError(f"{out}: {problem}, and parts/{bad[0][0]} {bad[0][1]}: "
                                   f"cannot tell whose run this is; use another --out")
            notes.append(f"{problem}: rewritten, since all {len(good)} parts belong to this run")
    for name in foreign_files(out):
        notes.append(f"{name} is not part of the run: left alone")
    parts.mkdir(parents=True, exist_ok=True)
    if old is None:
        if man_path.is_dir():
            raise BinokelError(f"{man_path} is a folder: move it away and run again")
        _write_atomic(man_path, json.dumps(man, indent=2).encode())
    for stale in parts.glob("*.tmp"):
        stale.unlink(missing_ok=True)  # a part interrupted while being written
    good, bad = check_parts(out, old or man)
    for name, why in bad:
        _set_aside(parts / name)
        notes.append(f"parts/{name} {why}: set aside as {name}.damaged; its chunk is run again")
    done = set(good)
    return [i for i in range(spec.n_chunks) if i not in done]


def _connect(scheduler: str, timeout: float):
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - dask is an optional extra
        raise BinokelError("--backend dask needs dask[distributed]: "
                           "pip install 'binokel-analyzer[dask]'") from None
    # a malformed address is refused before a Client exists: a Client that fails to
    # start prints a 10-line "Exception ignored in Client.__del__" traceback at exit
    from distributed.comm.addressing import parse_address, parse_host_port
    try:
        scheme, loc = parse_address(str(scheduler), strict=False)
        if scheme in ("tcp", "tls"):
            parse_host_port(loc)
    except (ValueError, TypeError) as exc:
        msg = " ".join(str(exc).split())[:120]
        raise BinokelError(f"--scheduler {str(scheduler)[:60]!r} is not a scheduler address "
                           f"({msg}); give e.g. tcp://host:8786") from None
    try:
        return Client(scheduler, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        msg = " ".join(str(exc).split())[:160]
        raise BinokelError(f"cannot reach dask scheduler {scheduler!r} ({msg})") from None


def simulate(out: str | os.PathLike, spec: RunSpec, jobs: int = -1, backend: str = "loky",
             scheduler: str | None = None, client=None, progress: bool = False,
             connect_timeout: float = 5.0, note: dict | None = None) -> "RunResult":
    """Run (or resume) the chunks of ``spec`` into the folder ``out``; return the result.

    Parameters
    ----------
    out : path
        Run folder: ``manifest.json`` and ``parts/part-NNNNNN.parquet``.
    spec : RunSpec
    jobs : int
        joblib workers (-1 = all cores; 1 runs in this process).  Never changes results.
    backend : {"loky", "dask"}
        ``"dask"`` sends the chunks to a Dask cluster through joblib's dask backend;
        give ``scheduler`` (address) or an existing distributed ``client``.
    progress : bool
        Show a rich progress bar (deals/s and ETA) on stderr.
    note : dict, optional
        Extra manifest fields for provenance (written once, never compared).

    Returns
    -------
    RunResult
        The sum of all parts (also when some existed before: resume).

    Each finished chunk is written before the next result is awaited, so an interrupt
    (Ctrl-C) loses at most the chunks in flight; calling again resumes.
    """
    out = Path(out)
    if backend not in ("loky", "dask"):
        raise BinokelError(f"unknown --backend {backend!r}: use loky or dask")
    if backend == "loky":
        resolve_jobs(jobs)
    own_client = None
    if backend == "dask" and client is None:
        if not scheduler:
            raise BinokelError("--backend dask needs --scheduler ADDRESS")
        client = own_client = _connect(scheduler, connect_timeout)
    notes: list = []
    try:
        with _write_errors(out, spec), _folder_lock(out):
            todo = prepare_run(out, spec, note, notes)
            if todo:
                _run_chunks(out, spec, todo, jobs, backend, client, progress)
    finally:
        if own_client is not None:
            own_client.close()
    res = load_run(out)
    res.notes = notes
    return res


def saved_chunks(out: Path) -> int:
    """How many part files a run folder holds (for messages; not a check)."""
    try:
        return sum(1 for f in (Path(out) / "parts").iterdir() if _part_index(f.name) is not None)
    except OSError:
        return 0


class _write_errors:
    """Turn an OSError while writing a run (read-only folder, missing path, full disk)
    into one BinokelError line saying what is saved and how to resume."""

    def __init__(self, out: Path, spec: RunSpec):
        self.out, self.spec = out, spec

    def __enter__(self):
        return self

    def __exit__(self, typ, exc, tb) -> bool:
        if exc is None or not isinstance(exc, OSError):
            return False
        why = exc.strerror or type(exc).__name__
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        k = saved_chunks(self.out)
        raise BinokelError(f"cannot write the run in {self.out}: {why}{where}; {k} of "
                           f"{self.spec.n_chunks} chunks are saved there; fix this (space, "
                           f"permissions, path) and run the same command again to resume") from None


class _folder_lock:
    """One writer per run folder: an exclusive ``filelock`` on ``OUT/.lock``, taken
    without waiting; a second ``simulate`` on the folder gets a one-line error."""

    def __init__(self, out: Path):
        self.out = out
        self._lock = None

    def __enter__(self):
        from filelock import FileLock, Timeout

        if self.out.exists() and not self.out.is_dir():
            raise BinokelError(f"--out {self.out} exists and is not a folder")
        self.out.mkdir(parents=True, exist_ok=True)
        self._lock = FileLock(str(self.out / LOCK_NAME), timeout=0)
        try:
            self._lock.acquire()
        except Timeout:
            raise BinokelError(f"{self.out} is being written by another binokel simulate "
                               f"(lock {self.out / LOCK_NAME}); wait for it to finish or use "
                               f"another --out") from None
        return self

    def __exit__(self, *exc) -> bool:
        if self._lock is not None:
            self._lock.release()
        return False


def _run_chunks(out, spec, todo, jobs, backend, client, progress) -> None:
    import joblib

    # compile (or load from the numba cache) once here, so workers only load the cache
    run_chunk(spec.what, spec.seed, 0, 1, spec.rules)
    tasks = (joblib.delayed(run_chunk)(spec.what, spec.seed, i, spec.chunk_len(i), spec.rules)
             for i in todo)
    total_deals = sum(spec.chunk_len(i) for i in todo)
    bar = _Progress(progress, total_deals, spec)
    with bar:
        if backend == "dask":
            with joblib.parallel_config(backend="dask", client=client,
                                        wait_for_workers_timeout=30):
                _consume(joblib.Parallel(n_jobs=-1, return_as="generator_unordered")(tasks),
                         out, bar, spec)
        else:
            _consume(parallel_map(run_chunk, [(spec.what, spec.seed, i, spec.chunk_len(i),
                                               spec.rules) for i in todo],
                                  jobs, len(todo), ordered=False), out, bar, spec)


def _consume(gen, out, bar, spec) -> None:
    for res in gen:
        write_part(out, res, spec)
        bar.advance(res["n_deals"])


class _Progress:
    """A rich progress bar (deals done, deals/s, ETA), or nothing."""

    def __init__(self, enabled: bool, total: int, spec: RunSpec):
        self.enabled = enabled
        self.total = total
        self.spec = spec
        self._p = None

    def __enter__(self):
        if self.enabled:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)

            class _Rate(TextColumn):
                def render(self, task):
                    speed = task.finished_speed or task.speed
                    from rich.text import Text
                    return Text(f"{speed:,.0f} deals/s" if speed else "… deals/s")

            self._p = Progress(TextColumn(f"{self.spec.what}"), BarColumn(),
                               MofNCompleteColumn(), _Rate(""), TimeElapsedColumn(),
                               TextColumn("ETA"), TimeRemainingColumn(),
                               console=Console(stderr=True), transient=False)
            self._p.__enter__()
            self._task = self._p.add_task("run", total=self.total)
        return self

    def advance(self, k: int) -> None:
        if self._p is not None:
            self._p.advance(self._task, k)

    def __exit__(self, *exc):
        if self._p is not None:
            self._p.__exit__(*exc)
        return False


# --- reading a run ----------------------------------------------------------------------

@dataclass
class RunResult:
    """A run read back: its manifest and the summed aggregates.

    ``table`` is a pandas DataFrame indexed by (metric, bin) with columns count, sq.
    ``chunks_done`` / ``n_chunks`` tell whether the run is complete; ``n_deals`` counts
    the deals in the finished chunks (the sample size of every estimate).
    """

    path: Path
    manifest: dict
    table: "object"
    n_deals: int
    chunks_done: int
    notes: list = field(default_factory=list)  # repairs made while resuming (simulate)

    @property
    def n_chunks(self) -> int:
        return int(self.manifest["n_chunks"])

    @property
    def complete(self) -> bool:
        return self.chunks_done == self.n_chunks

    @property
    def what(self) -> str:
        return self.manifest["what"]

    @property
    def teams(self) -> bool:
        """True for a run of a team game (its manifest's rules are a TeamRuleSet)."""
        return bool(self.manifest["rules"].get("teams", False))

    @property
    def stock(self) -> bool:
        """True for a run of a game with a stock (V7: its manifest's rules have one)."""
        return bool(self.manifest["rules"].get("stock", False))

    @property
    def rules(self) -> RuleSet:
        """The run's RuleSet rebuilt from its manifest: a TeamRuleSet (every team field
        kept) for a team game's run, else a RuleSet.  Raises BinokelError (one line) for a
        manifest whose rules do not make a RuleSet."""
        return rules_from_dict(self.manifest["rules"], where=f"{self.path}/manifest.json")

    def hist(self, metric: str) -> "object":
        """pandas Series bin -> count of one metric (empty if never hit)."""
        import pandas as pd
        try:
            return self.table.loc[metric, "count"]
        except KeyError:
            return pd.Series(dtype="int64")

    def counts(self, metric: str) -> tuple[np.ndarray, np.ndarray]:
        """(bins, counts) arrays of one metric, bins ascending."""
        s = self.hist(metric)
        return s.index.to_numpy(dtype=np.int64), s.to_numpy(dtype=np.int64)

    def cell(self, metric: str, b: int) -> tuple[int, int]:
        """(count, sq) of one bin (0, 0 when never hit)."""
        try:
            row = self.table.loc[(metric, b)]
        except KeyError:
            return 0, 0
        return int(row["count"]), int(row["sq"])

    def to_frame(self):
        return self.table.reset_index()

    def units_per_deal(self, metric: str) -> int:
        """How many counted units one deal adds to ``metric`` (3 hands for ``h15.*``; the
        seats in play for ``hand.*`` and the two sides for ``side.*``, the census of a
        table with partners, analyzer.batch.table_census)."""
        if metric.startswith("hand."):
            return int(self.manifest["rules"].get("players", 3))
        if metric.startswith("side."):
            return 2
        return 3 if metric.startswith("h15.") else 1

    def proportion(self, metric: str, b: int, complement: bool = False) -> "Estimate":
        """P(bin ``b`` of ``metric``) per hand (or per deal), with a 95% CI.

        ``complement=True`` gives P(not bin b), e.g. P(at least one) from bin 0.
        The deal is the sampling unit (three hands of one deal share a deck): the
        variance of the per-deal count X gives a design effect, and the interval is
        Wilson's score interval at the effective sample size.
        """
        m = self.units_per_deal(metric)
        n = self.n_deals
        c, sq = self.cell(metric, b)
        return _proportion(c, sq, n, m, complement)

    def mean(self, metric: str) -> "Estimate":
        """Mean value of a histogram metric per unit, with a 95% normal CI (deal = unit)."""
        bins, counts = self.counts(metric)
        m = self.units_per_deal(metric)
        n = self.n_deals
        if n == 0:
            return Estimate(float("nan"), float("nan"), float("nan"), float("nan"), 0)
        s1 = float(np.dot(bins.astype(float), counts))
        if m == 1:
            s2 = float(np.dot(bins.astype(float) ** 2, counts))
        else:
            s2 = float(self.cell(metric + ":dealsq", 0)[0])
        mean_d = s1 / n
        var_d = max(s2 / n - mean_d ** 2, 0.0) * n / max(n - 1, 1)
        se = math.sqrt(var_d / n) / m
        mu = mean_d / m
        return Estimate(mu, se, mu - 1.959964 * se, mu + 1.959964 * se, n * m)

    def sum_mean(self, metric: str, b: int, n_units: int) -> "Estimate":
        """Mean of a ``sum.*`` metric (count = sum, sq = sum of squares) over ``n_units``
        deals, with a 95% normal CI."""
        s1, s2 = self.cell(metric, b)
        return mean_from_sums(s1, s2, n_units)


def rules_from_dict(d: dict, where: str = "rules") -> RuleSet:
    """A RuleSet (or TeamRuleSet when ``d["teams"]`` is true) from ``RuleSet.to_dict()``
    output as JSON stores it (lists for tuples).  Unknown keys are dropped, so a run
    written before a rule field was removed still reads; missing ones take the default
    (a field added later).  Raises BinokelError naming ``where`` for values that do not
    make a RuleSet."""
    import dataclasses

    cls = RuleSet
    if isinstance(d, dict) and d.get("stock"):
        return stock_rules_from_dict(d, where)    # the registry's nested RuleSet (V7)
    if isinstance(d, dict) and d.get("teams"):
        cls = TeamRuleSet
    if not isinstance(d, dict):
        raise BinokelError(f"{where}: 'rules' is not a RuleSet's fields")
    known = {f.name for f in dataclasses.fields(cls)}
    kw = {k: v for k, v in d.items() if k in known}
    for k, v in kw.items():
        if isinstance(v, list):
            kw[k] = tuple(tuple(x) if isinstance(x, list) else x for x in v)
    try:
        return cls(**kw)
    except (TypeError, ValueError, BinokelError) as exc:
        msg = " ".join(str(exc).split())[:120]
        raise BinokelError(f"{where}: its rules do not make a {cls.__name__} ({msg})") from None


def mean_from_sums(s1: float, s2: float, n: int) -> "Estimate":
    """Mean, standard error and 95% CI from a sum and a sum of squares of n values."""
    if n <= 0:
        return Estimate(float("nan"), float("nan"), float("nan"), float("nan"), 0)
    mu = s1 / n
    var = max(s2 / n - mu * mu, 0.0) * n / max(n - 1, 1)
    se = math.sqrt(var / n)
    return Estimate(mu, se, mu - 1.959964 * se, mu + 1.959964 * se, n)


def wilson(k: int, n: int) -> "Estimate":
    """A plain binomial proportion k/n (one unit per deal) with Wilson's 95% interval."""
    return _proportion(k, k, n, 1, False)


@dataclass(frozen=True)
class Estimate:
    """A Monte Carlo estimate: value, standard error, 95% CI [lo, hi], sample size n."""

    value: float
    se: float
    lo: float
    hi: float
    n: int

    def __str__(self) -> str:
        return f"{self.value:.6g} [{self.lo:.6g}, {self.hi:.6g}] (n={self.n:,})"


def _wilson(p: float, n_eff: float, z: float = 1.959964) -> tuple[float, float]:
    if n_eff <= 0:
        return 0.0, 1.0
    den = 1 + z * z / n_eff
    centre = (p + z * z / (2 * n_eff)) / den
    half = z * math.sqrt(max(p * (1 - p) / n_eff + z * z / (4 * n_eff * n_eff), 0.0)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


def _proportion(c: int, sq: int, n: int, m: int, complement: bool) -> Estimate:
    """Estimate from count ``c`` and per-deal squares ``sq`` over ``n`` deals of ``m`` units."""
    if n == 0:
        return Estimate(float("nan"), float("nan"), 0.0, 1.0, 0)
    units = n * m
    p = c / units
    mean_x = c / n
    var_x = max(sq / n - mean_x ** 2, 0.0) * n / max(n - 1, 1)
    var_p = var_x / (m * m * n)
    binom = p * (1 - p) / units
    n_eff = units if var_p <= 0 or binom <= 0 else units * binom / var_p
    n_eff = min(n_eff, units * m)  # guard: never trust the design effect beyond m
    lo, hi = _wilson(p, n_eff)
    se = math.sqrt(var_p)
    if complement:
        p, lo, hi = 1 - p, 1 - hi, 1 - lo
    return Estimate(p, se, lo, hi, units)


def load_run(path: str | os.PathLike) -> RunResult:
    """Read a run folder written by :func:`simulate` (complete or not).

    Every part is checked against the manifest (:func:`read_part`: chunk index, deal
    count, seed, rules, run parameters, checksum) and the manifest against itself; parts
    are summed in chunk order.  Raises BinokelError, naming the file and what is wrong,
    for a folder without a valid manifest or with any damaged or foreign part (never
    counted); the same ``binokel simulate`` command redoes those chunks.
    """
    import pandas as pd

    path = Path(path)
    if not path.is_dir():
        raise BinokelError(f"{path}: no such run folder")
    manifest, problem = _read_manifest(path)
    if manifest is None:
        raise BinokelError(f"{path} is not a readable run folder ({problem})")
    parts = path / "parts"
    if parts.exists() and not parts.is_dir():
        raise BinokelError(f"{parts} is a file, not the folder of parts")
    frames, bad = [], []
    n_deals = 0
    if parts.is_dir():
        for f in sorted(parts.iterdir()):
            if f.name.endswith((".tmp", ".damaged")) or not _is_run_file(f.name):
                continue   # not part of the run (a note): neither counted nor refused
            i = _part_index(f.name)
            if i is None:
                bad.append((f.name, "is not a part of this run (unexpected file name)"))
                continue
            if i >= manifest["n_chunks"]:
                bad.append((f.name, f"is beyond the run's {manifest['n_chunks']:,} chunks"))
                continue
            t, why = read_part(f, i, manifest)
            if why is not None:
                bad.append((f.name, why))
                continue
            frames.append((i, t.to_pandas()))
            n_deals += _chunk_len(manifest, i)
    if bad:
        more = f" (and {len(bad) - 2} more)" if len(bad) > 2 else ""
        what = "; ".join(f"parts/{n} {w}" for n, w in bad[:2])
        cmd = manifest.get("command")
        redo = f"`{cmd}`" if isinstance(cmd, str) and len(cmd) < 300 else "the same binokel simulate command"
        raise BinokelError(f"{path}: {len(bad)} damaged or foreign part(s), not counted: "
                           f"{what}{more}; run {redo} again to set them aside and redo them")
    frames = [df for _, df in sorted(frames, key=lambda x: x[0])]
    if frames:
        df = pd.concat(frames, ignore_index=True)
        table = df.groupby(["metric", "bin"], sort=True)[["count", "sq"]].sum()
    else:
        idx = pd.MultiIndex.from_arrays([[], []], names=["metric", "bin"])
        table = pd.DataFrame({"count": [], "sq": []}, index=idx, dtype="int64")
    return RunResult(path=path, manifest=manifest, table=table, n_deals=n_deals,
                     chunks_done=len(frames))
