"""Deal and game rules the whole-deal pipelines share: R4's contract for a bid, R9's end
of the game.

- :func:`contract_for_bid` - the contract the fast exchange picks at a bid (R4).
- :func:`game_winner` - R9's end-of-game test.

The deal pipelines themselves (exchange, play with a play mode, score: ``finish_deal``,
``soloist_outcomes``) live in analyzer.search.deals, above the search: a play mode id may
name PIMC, whose kernels are the solver's, and the mechanics never import the search.

Hands are ``uint8[3, 24]`` counts per seat (0 = forehand, 1 = middlehand, 2 = rearhand).
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.exchange import (CONTRACT_PLAY, CONTRACT_SURRENDER, durch_contract_value,
                                         expected_play_score, sure_durch_contract)
from analyzer.mechanics.sampling import counts_mask

NO_WINNER = -1


#: uint8[24] counts -> packed mask (cards.py encoding); the kernel of analyzer.mechanics.sampling.
counts_to_planes = counts_mask


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
