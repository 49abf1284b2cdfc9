"""Deal and game rules the whole-deal pipelines share: the contract for a bid (R4), the end
of the game (R9), and the rules and result columns of the four-seat partners' tables
(V1, V4-V6).

- :func:`contract_for_bid` - the contract the fast exchange picks at a bid (R4); the
  soloist of a partners' table chooses by the same rule
  (analyzer.search.partner_deals.dabb_contract).
- :func:`game_winner` - R9's end-of-game test.
- Partners' tables: the rule-of-thumb values of each auction form
  (:func:`rule_value_by_model`, V1's chain of duels with a Dabb;
  :func:`rule_maxima_by_tricks`, V6.2's open bidding), :func:`contracts_for_bids` (the
  contract at every bid of a grid) and the result columns ``R_*`` / ``O_*``.

The deal pipelines that play cards with a play policy (three players: ``finish_deal``,
``soloist_outcomes`` in analyzer.search.deals; partners: analyzer.search.partner_deals)
live above, in the search layer: a play policy id may name PIMC, whose kernels are the
search's, and the mechanics never import the search.

Result rows of the partners' kernels (int64[RES_COLS]): scores of side 0 and 1, side
melds, card points, counters (or tricks), then the bidder seat, bid, trump and contract
(play, going out, Durch, open Durch: the CONTRACT_* codes of analyzer.mechanics.exchange;
a game without a Dabb always plays).
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.bidding import rule_of_thumb_by_tricks
from analyzer.mechanics.exchange import (CONTRACT_PLAY, CONTRACT_SURRENDER, N_FEATURES,
                                         durch_contract_value, estimate_features,
                                         expected_play_score, sure_durch_contract)
from analyzer.mechanics.melds import meld_total
from analyzer.mechanics.sampling import counts_mask

NO_WINNER = -1


#: uint8[24] counts -> packed mask (cards.py encoding); the kernel of analyzer.mechanics.sampling.
counts_to_planes = counts_mask

R_SCORE, R_MELD, R_POINTS, R_COUNTING, R_BIDDER, R_BID, R_TRUMP = 0, 2, 4, 6, 8, 9, 10
R_CONTRACT = 11     # the soloist's contract after the exchange (exchange.CONTRACT_*; 0 = play)
RES_COLS = 12


@njit
def contract_for_bid(best_value, durch_losers, bid, kr):
    """The contract :func:`~analyzer.mechanics.exchange.fast_exchange` picks at ``bid`` (R4).

    Given the exchange's best estimated total and its fewest Durch losers (both independent
    of the bid), the contract is: Durch when sure and worth more than playing, surrender
    when playing is expected to score below ``-bid``, else play.  Tested equal to
    ``fast_exchange`` for every bid of the advisor's grid.
    """
    e_play = expected_play_score(best_value, np.float64(bid), kr.est_sigma,
                                 np.float64(kr.loss_factor))
    dk = sure_durch_contract(kr)
    if durch_losers == 0 and dk >= 0 and durch_contract_value(dk, kr) > e_play:
        return dk
    if e_play < -np.float64(bid):
        return CONTRACT_SURRENDER
    return CONTRACT_PLAY


@njit
def game_winner(totals, soloist, target):
    """R9: the winner after a completed deal, or -1 if the game goes on.

    ``totals`` are the game scores after the deal.  If the soloist reached the target the
    soloist wins; if only one opponent reached it, that opponent; if both opponents (and
    not the soloist), the higher total, and on a tie another deal is played (-1).
    ``soloist`` may be -1 (no soloist: then the highest unique total at the target wins).
    """
    n = totals.shape[0]   # 3, or 4 at a grupp-4 table (V3: R9's rule among the four)
    reached = 0
    for p in range(n):
        if totals[p] >= target:
            reached += 1
    if reached == 0:
        return NO_WINNER
    if soloist >= 0 and totals[soloist] >= target:
        return soloist
    best = -1
    tie = False
    for p in range(n):
        if totals[p] >= target and p != soloist:
            if best < 0 or totals[p] > totals[best]:
                best = p
                tie = False
            elif totals[p] == totals[best]:
                tie = True
    if tie:
        return NO_WINNER
    return best


# --------------------------------------------------------------------------- partners' tables (V1, V4-V6)


@njit
def rule_maxima_by_tricks(hands, kp, trick_value, allowance, maxb, trumps):
    """Rule-of-thumb maximum bid and trump of each seat (int64[4] each)."""
    tmp = np.zeros(4, dtype=np.int64)
    for p in range(4):
        mb, tr = rule_of_thumb_by_tricks(hands[p], kp, trick_value, allowance, tmp)
        maxb[p] = mb
        trumps[p] = tr


# columns of dabb_outcomes' output (the advisor's bidder branch, one sample)
O_TOTAL, O_OTHER, O_OUT_OTHER, O_EST, O_LOSERS, O_DURCH_MADE = range(6)
O_COLS = 6


@njit
def contracts_for_bids(est, losers, bids, kr, out):
    """``out[i, j]`` = the contract the soloist of sample ``i`` (estimate ``est[i]``,
    Durch losers ``losers[i]``) chooses at ``bids[j]``
    (analyzer.mechanics.game.contract_for_bid, as :func:`dabb_contract` does)."""
    for i in range(est.shape[0]):
        for j in range(bids.shape[0]):
            out[i, j] = contract_for_bid(est[i], int(losers[i]), bids[j], kr)


@njit
def rule_value_by_model(hand, kr, estimate, tmp):
    """Rule-of-thumb value of an 11/9-card hand before the Dabb (a policy): over the four
    trumps the best of (its meld with that trump + the soloist's team model of
    :func:`side_estimate` on these cards, ``kr.est_weights`` . features: what the team
    adds in tricks and partner melds), + ``estimate``, an allowance for what the Dabb and
    the exchange add (bidding.DEFAULT_DABB_ESTIMATE).  Returns an int."""
    f = np.empty(N_FEATURES, dtype=np.float64)
    best = -1e18
    for t in range(4):
        estimate_features(hand, t, kr, f)
        v = np.float64(meld_total(counts_mask(hand), t, kr))
        for q in range(N_FEATURES):
            v += kr.est_weights[q] * f[q]
        if v > best:
            best = v
    return np.int64(np.floor(best)) + estimate


