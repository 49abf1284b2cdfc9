"""Whole deals after the auction with a play mode: R4 exchange, play, R8 scoring.

Kernels here glue the engines together for the bid advisors and the tournaments:

- :func:`finish_deal` - after the auction: the soloist takes the Tapp, exchanges (the
  fast exchange of analyzer/mechanics/exchange.py, which sees only the soloist's 18 cards), then
  surrender (R4), Durch (R4) or a played deal (R6, R7) scored per R8.
- :func:`soloist_outcomes` - the same deal scored for a whole grid of bids at once (the
  advisor's table): the exchange's discard and trump do not depend on the bid, only the
  contract (play / surrender / Durch) does, so each distinct contract is played once.
- :func:`soloist_grid` - the *advised or analyzed* hand as soloist, scored for a grid of
  bids: the Monte Carlo exchange (analyzer.mechanics.exchange.soloist_exchange) and
  :func:`soloist_play`, the same two functions the hand analyzer's kernel runs, so
  analyze and advise answer with one model of the soloist's choices (issue 25).
  :func:`finish_deal` / :func:`soloist_outcomes` model a *simulated* soloist (the
  opponents in the advisor's pass branch, tournaments, batch runs) with the fast exchange.

The play mode is handed in as a policy id (``policy``): the card play itself is
:func:`analyzer.search.pimc.play_contract`, the heuristic play-out (analyzer.mechanics.play)
or PIMC.  That is why these pipelines sit in the search layer, above the mechanics: the
mechanics never import the search.  The PIMC settings come as a last, optional argument
``pimc`` (analyzer.search.pimc.pimc_args): without it numba compiles the kernels'
heuristic variant, which holds no PIMC or solver code (first use compiles in a fraction
of the time); with it, the PIMC variant of the same body.

Hands are ``uint8[3, 24]`` counts per seat (0 = forehand, 1 = middlehand, 2 = rearhand),
the Tapp ``uint8[24]``.  Deal scores come back as ``int64[3]`` by seat.
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.exchange import (CONTRACT_DURCH, CONTRACT_OPEN_DURCH, CONTRACT_PLAY,
                                         CONTRACT_SURRENDER, EXCHANGE_SAMPLES, EXCHANGE_TOP,
                                         PER_TRUMP, exchange_shortlist, fast_exchange,
                                         soloist_exchange)
from analyzer.mechanics.game import contract_for_bid, counts_to_planes
from analyzer.mechanics.melds import discard_dissle, meld_total
from analyzer.mechanics.rng import next_u64
from analyzer.mechanics.scoring import (DEAL_DURCH, DEAL_NORMAL, DEAL_OPEN_DURCH,
                                        DEAL_SURRENDER, score_kernel)
from analyzer.search.pimc import play_contract


@njit
def _apply_discard(hands, counts18, soloist, disc, work):
    """work = hands with the soloist's row replaced by counts18 minus the discard (R4)."""
    for p in range(3):
        for t in range(N_TYPES):
            work[p, t] = hands[p, t]
    for t in range(N_TYPES):
        work[soloist, t] = counts18[t]
    for i in range(disc.shape[0]):   # the Dabb size: 3, or 4 in binokel-40 (V5.3)
        work[soloist, disc[i]] -= 1


@njit
def _melds_of(work, trump, soloist, disc, kr, melds):
    """Meld totals (R5) of the three hands after the exchange; the soloist's from its kept
    cards, plus a discarded trump low card where the variant counts it (V2.3; otherwise
    discarded cards never meld, R4)."""
    for p in range(3):
        melds[p] = meld_total(counts_to_planes(work[p]), trump, kr)
    melds[soloist] += discard_dissle(disc, disc.shape[0], trump, kr)


@njit
def _play_trump(work, tapp, trump, soloist, disc, disc_pts, policy, state, kr, cp, trk, melds,
                pimc):
    """Play a trump contract (forehand leads, R6): card points (soloist's incl. the
    discard, R7), tricks and melds per seat, ready for ``score_kernel``."""
    play_contract(work, trump, 0, soloist, policy, state, kr, cp, trk, tapp, disc, pimc)
    cp[soloist] += disc_pts
    _melds_of(work, trump, soloist, disc, kr, melds)


@njit
def finish_deal(hands, tapp, soloist, bid, policy, state, kr, out, pimc=None):
    """Play a deal from the end of the auction to its R8/R4 scores.

    Parameters
    ----------
    hands : uint8[3, 24]
        The three 15-card hands before the exchange (not modified).
    tapp : uint8[24]
        The 3 Tapp cards.
    soloist, bid : int
        Result of the auction (R3); soloist -1 = thrown in (V2.2): all scores 0.
    policy : int
        Card-play mode: POLICY_RANDOM / POLICY_HEURISTIC (analyzer.mechanics.play) or
        PLAY_PIMC / PLAY_PIMC_DEFENCE (analyzer.search.pimc.play_contract: only the card
        play differs, the exchange and the scoring are the same).
    state : uint64[4]
        RNG state.
    kr : KernelRules
    out : int64[3]
        OUT: deal scores by seat (R8, R4; analyzer.mechanics.scoring.score_kernel).
    pimc : None or int64[2]
        PIMC settings (analyzer.search.pimc.pimc_args) with a PIMC ``policy``; omitted for
        the heuristic, so this kernel's heuristic variant holds no PIMC code.

    Returns
    -------
    (int, int, int)
        ``(contract, trump, made)``: contract per analyzer.mechanics.exchange (0 play, 1 surrender,
        2 Durch), trump (-1 in Durch), made = 1 if the soloist scored positively.
    """
    if soloist < 0:
        # V2.2: all three passed, the deal is thrown in: 0 for everybody, nothing played
        for p in range(3):
            out[p] = 0
        return -1, -1, 0
    c18 = np.empty(N_TYPES, dtype=np.uint8)
    for t in range(N_TYPES):
        c18[t] = hands[soloist, t] + tapp[t]
    disc = np.empty(kr.tapp_size, dtype=np.int64)
    trump, contract = fast_exchange(c18, bid, kr, disc)
    work = np.empty((3, N_TYPES), dtype=np.uint8)
    _apply_discard(hands, c18, soloist, disc, work)
    cp = np.zeros(3, dtype=np.int64)
    trk = np.zeros(3, dtype=np.int64)
    melds = np.zeros(3, dtype=np.int64)
    if contract == CONTRACT_SURRENDER:
        _melds_of(work, trump, soloist, disc, kr, melds)
        score_kernel(DEAL_SURRENDER, bid, soloist, cp, trk, melds, kr, out)
    elif contract == CONTRACT_DURCH or contract == CONTRACT_OPEN_DURCH:
        # R4: the soloist leads a Durch
        play_contract(work, -1, soloist, soloist, policy, state, kr, cp, trk, tapp, disc, pimc)
        score_kernel(DEAL_DURCH if contract == CONTRACT_DURCH else DEAL_OPEN_DURCH, bid,
                     soloist, cp, trk, melds, kr, out)
    else:
        dp = 0
        for q in range(kr.tapp_size):
            dp += kr.card_points[disc[q]]
        _play_trump(work, tapp, trump, soloist, disc, dp, policy, state, kr, cp, trk, melds,
                    pimc)
        score_kernel(DEAL_NORMAL, bid, soloist, cp, trk, melds, kr, out)
    return contract, trump, 1 if out[soloist] > 0 else 0


@njit
def soloist_outcomes(hands, tapp, soloist, bids, policy, state, kr, scores, made, contracts,
                     pimc=None):
    """One deal scored for every bid of a grid, the soloist fixed (the advisor's table).

    The exchange (analyzer.mechanics.exchange) picks discard and trump independently of the bid;
    only the contract depends on it (:func:`contract_for_bid`).  The trump contract and the
    Durch are each played at most once (same RNG draws for every bid), so along the grid
    the soloist's total is one number and "made at B" can only switch from 1 to 0 as B
    rises, except where the contract itself changes (surrender = not made).

    Parameters
    ----------
    hands, tapp, soloist, policy, state, kr, pimc : as :func:`finish_deal`
    bids : int64[K]
        Increasing bids.
    scores : int64[K, 3]
        OUT: deal scores by seat at each bid.
    made : uint8[K]
        OUT: 1 where the soloist made the contract.
    contracts : int8[K]
        OUT: contract at each bid.

    Returns
    -------
    int
        The trump the exchange names (suit index; used wherever the contract is not a
        Durch).
    """
    K = bids.shape[0]
    D = kr.tapp_size
    c18 = np.empty(N_TYPES, dtype=np.uint8)
    for t in range(N_TYPES):
        c18[t] = hands[soloist, t] + tapp[t]
    disc = np.empty((4, D), dtype=np.int64)
    tr = np.empty(4, dtype=np.int64)
    val = np.empty(4, dtype=np.float64)
    ddisc = np.empty(D, dtype=np.int64)
    losers = exchange_shortlist(c18, kr, kr.est_weights, 1, disc, tr, val, ddisc)
    best = 0
    for i in range(1, 4):
        if val[i] > val[best]:
            best = i
    trump = tr[best]
    work = np.empty((3, N_TYPES), dtype=np.uint8)
    # per contract kind: card points, tricks, melds, filled lazily (each played once)
    cp = np.zeros((4, 3), dtype=np.int64)
    trk = np.zeros((4, 3), dtype=np.int64)
    melds = np.zeros((4, 3), dtype=np.int64)
    have = np.zeros(4, dtype=np.bool_)
    out = np.empty(3, dtype=np.int64)
    for k in range(K):
        bid = bids[k]
        c = contract_for_bid(val[best], losers, bid, kr)
        contracts[k] = c
        if not have[c]:
            if c == CONTRACT_DURCH or c == CONTRACT_OPEN_DURCH:
                _apply_discard(hands, c18, soloist, ddisc, work)
                play_contract(work, -1, soloist, soloist, policy, state, kr, cp[c], trk[c], tapp,
                              ddisc, pimc)
            else:
                _apply_discard(hands, c18, soloist, disc[best], work)
                if c == CONTRACT_PLAY:
                    dp = 0
                    for q in range(D):
                        dp += kr.card_points[disc[best, q]]
                    _play_trump(work, tapp, trump, soloist, disc[best], dp, policy, state, kr,
                                cp[c], trk[c], melds[c], pimc)
                else:
                    _melds_of(work, trump, soloist, disc[best], kr, melds[c])
            have[c] = True
        kind = DEAL_NORMAL if c == CONTRACT_PLAY else (
            DEAL_SURRENDER if c == CONTRACT_SURRENDER else (
                DEAL_DURCH if c == CONTRACT_DURCH else DEAL_OPEN_DURCH))
        score_kernel(kind, bid, soloist, cp[c], trk[c], melds[c], kr, out)
        for p in range(3):
            scores[k, p] = out[p]
        made[k] = 1 if out[soloist] > 0 else 0
    return trump


@njit
def soloist_play(hands, counts18, tapp, soloist, trump, disc, has_durch, durch_disc, contracts,
                 bids, play_state, policy, kr, cp, trk, melds, durch_trk, scores, pimc=None):
    """Play the soloist's chosen exchange on one deal and score it at every bid (R4-R8).

    The trump contract (forehand leads, R6) is always played and, when the exchange has a
    Durch candidate, the Durch too (the soloist leads, R4), each from its own copy of
    ``play_state``: the outcome of a contract never depends on which others were played.
    ``scores[k]`` is then the deal's R8/R4 score by seat under ``contracts[k]``.

    Parameters
    ----------
    hands : uint8[3, 24]
        The three hands before the exchange (not modified).
    counts18 : uint8[24]
        The soloist's hand + Tapp.
    tapp : uint8[24]
        The Tapp (public, R4: the play may know it).
    trump, disc, has_durch, durch_disc, contracts
        From :func:`analyzer.mechanics.exchange.soloist_exchange` (or a fixed decision).
    bids : int64[K]
    play_state : uint64[4]
        The play's RNG state (not advanced: each contract plays a copy).
    cp, trk, melds : int64[3]
        OUT: the trump contract's card points (the soloist's incl. the discard, not
        rounded), tricks and melds (R5; a discarded Dissle, V2.3) by seat.
    durch_trk : int64[3]
        OUT: the Durch's tricks by seat (zeros without a Durch candidate).
    scores : int64[K, 3]
        OUT: deal scores by seat at each bid.

    Returns
    -------
    int
        -1 without a Durch candidate, else 1 if the Durch won every trick (R4), 0 if not.
    """
    D = kr.tapp_size
    work = np.empty((3, N_TYPES), dtype=np.uint8)
    _apply_discard(hands, counts18, soloist, disc, work)
    dp = 0
    for q in range(D):
        dp += kr.card_points[disc[q]]
    for p in range(3):
        cp[p] = 0
        trk[p] = 0
        durch_trk[p] = 0
    _play_trump(work, tapp, trump, soloist, disc, dp, policy, play_state.copy(), kr, cp, trk,
                melds, pimc)
    durch_made = -1
    dcp = np.zeros(3, dtype=np.int64)
    if has_durch:
        _apply_discard(hands, counts18, soloist, durch_disc, work)
        play_contract(work, -1, soloist, soloist, policy, play_state.copy(), kr, dcp, durch_trk,
                      tapp, durch_disc, pimc)
        durch_made = 1 if durch_trk[soloist] == kr.hand_size else 0
    out = np.empty(3, dtype=np.int64)
    for k in range(bids.shape[0]):
        c = contracts[k]
        if c == CONTRACT_DURCH or c == CONTRACT_OPEN_DURCH:
            score_kernel(DEAL_DURCH if c == CONTRACT_DURCH else DEAL_OPEN_DURCH, bids[k],
                         soloist, cp, durch_trk, melds, kr, out)
        elif c == CONTRACT_SURRENDER:
            score_kernel(DEAL_SURRENDER, bids[k], soloist, cp, trk, melds, kr, out)
        else:
            score_kernel(DEAL_NORMAL, bids[k], soloist, cp, trk, melds, kr, out)
        for p in range(3):
            scores[k, p] = out[p]
    return durch_made


@njit
def soloist_grid(hands, tapp, soloist, bids, policy, state, kr, scores, made, contracts,
                 pimc=None):
    """The advised hand as soloist on one deal, scored for every bid of a grid: the one
    model of the soloist's choices (analyzer.mechanics.exchange.soloist_exchange, its
    Monte Carlo drawn from ``state``) played by :func:`soloist_play` (its play stream: four
    draws of ``state`` after the decision).  The hand analyzer's kernel runs the same two
    functions, so P(make) and E[score] at a bid mean one thing in analyze and advise.

    Same arguments and outputs as :func:`soloist_outcomes` (which models a *simulated*
    soloist with the fast exchange); returns the trump of the trump contract.
    """
    D = kr.tapp_size
    K = bids.shape[0]
    c18 = np.empty(N_TYPES, dtype=np.uint8)
    for t in range(N_TYPES):
        c18[t] = hands[soloist, t] + tapp[t]
    disc = np.empty(D, dtype=np.int64)
    ddisc = np.full(D, -1, dtype=np.int64)
    trump, has_durch, _est = soloist_exchange(c18, soloist, bids, EXCHANGE_SAMPLES, EXCHANGE_TOP,
                                              PER_TRUMP, state, kr, disc, ddisc, contracts)
    play_state = np.empty(4, dtype=np.uint64)
    for q in range(4):
        play_state[q] = next_u64(state)
    cp = np.zeros(3, dtype=np.int64)
    trk = np.zeros(3, dtype=np.int64)
    melds = np.zeros(3, dtype=np.int64)
    dtrk = np.zeros(3, dtype=np.int64)
    soloist_play(hands, c18, tapp, soloist, trump, disc, has_durch, ddisc, contracts, bids,
                 play_state, policy, kr, cp, trk, melds, dtrk, scores, pimc)
    for k in range(K):
        made[k] = 1 if scores[k, soloist] > 0 else 0
    return trump
