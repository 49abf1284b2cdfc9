"""The soloist's exchange (R4): which 3 of 18 cards to discard (4 of 16 in binokel-40,
V5.3), which trump, whether to surrender (go out), whether to play Durch or open Durch
(V2.7) — decided only from what the soloist sees.

Variants: the number of discarded cards is ``kr.tapp_size``; the card-point model's
weights and s.d. are the variant's (``kr.est_weights``, ``kr.est_sigma``: refitted per
variant with :func:`fit_weights`); a discarded trump low card adds its Dissle value where
the variant says so (V2.3); the Durch values come from the rules (no Durch in V5.7).

Every function here takes the soloist's 18 cards (hand + Tapp, ``uint8[24]`` counts) and
nothing else about the deal: the opponents' hands are simply not among the inputs, so no
decision can depend on them (STRATEGY.md "What a player knows"; tested in
tests/test_exchange.py).

Fast evaluator (used inside kernels by the batch simulator and the tournament, and as the
shortlist for the analyzer's Monte Carlo exchange)
-----------------------------------------------------------------------------------
For every distinct discard (at most C(18,3) = 816 multisets of 3 cards) and every trump
suit the soloist's expected *total* is estimated as

    value = meld(kept 15, trump)                      (R5, exact)
          + points(discard)                           (R4/R7: the discard counts for the soloist)
          + est_card_points(kept 15, trump)           (linear model below)

``est_card_points`` is ``EST_WEIGHTS . features`` with the features of
:func:`estimate_features` (trump length and honours, side aces, tens guarded by an ace of
their suit, unguarded tens, side honour points, voids and singletons, squared trump length).
The weights were fitted by least squares (:func:`fit_weights`, 30,000 uniformly random
deals, soloist seat random, kept cards and trump drawn from this evaluator's top-4
shortlist) to the soloist's trick points in heuristic-policy play-outs (R7: incl. the last
trick, excl. the discard), first with the heuristic of commit c0c278a (R^2 = 0.62, residual
s.d. 22.7; ``EST_SIGMA`` was 23), refitted for issue 12's heuristic defence with
``fit_weights(30000, 0)``: R^2 0.679, residual s.d. 19.9 = ``EST_SIGMA``.  Roughly: a
trump is worth 16, a trump ace 16 + 19 more, a side ace 16, a ten 7-9, a void 9.  Refit
(and update the constants here and in rules.py) when the play policy changes.

Contract (R4, R8) at bid ``B`` with the best value ``V``: the total is modelled as normal
with mean ``V`` and s.d. ``EST_SIGMA``; the expected score of playing is
``E[T; T >= B] - loss_factor B P(T < B)`` (R8: -2 x bid).  The soloist surrenders when
that is below ``-B``.  Durch is chosen only when it is *sure*: some discard leaves a hand
in which every kept card is at least as high as every card of its suit the opponents can
hold (all higher cards are kept or discarded), so the soloist, leading every trick, wins
all 15 (R4, R6 without trump).

Monte Carlo exchange (the hand analyzer)
----------------------------------------
:func:`shortlist_candidates` keeps the fast evaluator's best few (discard, trump) pairs and
a Durch candidate when at most ``DURCH_MAX_LOSERS`` kept cards can lose;
:func:`candidate_outcomes` plays each on the same fresh deals of the 30 unseen cards
(heuristic policy, its own RNG stream); :func:`decide_contracts` takes the trump candidate
with the best mean total and, per bid, the best of play / surrender / Durch.
"""
from __future__ import annotations

import math

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.cards import N_RANKS, N_SUITS, N_TYPES, PLANE, mask_to_counts
from analyzer.mechanics.melds import discard_dissle, meld_all_trumps, meld_total
from analyzer.mechanics.play import POLICY_HEURISTIC, play_out
from analyzer.mechanics.rng import make_state, next_u64
from analyzer.mechanics.rules import DEFAULT_RULES
from analyzer.mechanics.scoring import rounded_points
from analyzer.mechanics.sampling import (counts_mask, deal_masks, deal_rules, mask_counts,
                                         new_deck, unseen_cards)

# contract codes returned by fast_exchange
CONTRACT_PLAY = 0
CONTRACT_SURRENDER = 1      # surrender = going out (V2.4, V5.4)
CONTRACT_DURCH = 2
CONTRACT_OPEN_DURCH = 3     # V2.7: the soloist's cards shown, chosen only when sure
MAX_DISCARD = 4             # the largest Dabb (V5.3): discard arrays have this many columns

FEATURE_NAMES = (
    "intercept",
    "trump_count",
    "trump_aces",
    "trump_tens",
    "trump_kqj",
    "side_aces",
    "side_tens_guarded",
    "side_tens_unguarded",
    "side_kqj_points",
    "side_voids",
    "side_singletons",
    "trump_count_sq",
)
N_FEATURES = len(FEATURE_NAMES)

# Policy parameters (not rule constants): weights of the card-point estimate, in the order
# of FEATURE_NAMES, and the residual s.d. of that estimate (see module docstring).
# binokel-48's (rules._W48 / RuleSet.est_sigma), refitted for issue 12's defence
EST_WEIGHTS = np.array([-59.20, 15.84, 19.15, 9.89, 0.92, 15.84, 7.30, 8.56, -0.07, 9.09, 1.00,
                        -0.08], dtype=np.float64)
EST_SIGMA = 19.9

@njit
def _suit_summary(counts, kr, out):
    """Per-suit summary of a count vector: out[s] = (n, aces, tens, kqj count, kqj points)."""
    for s in range(N_SUITS):
        base = s * N_RANKS
        n = 0
        kqj = 0
        kqj_pts = 0
        for r in range(N_RANKS):
            c = np.int64(counts[base + r])
            n += c
            if r >= 2 and r <= 4:
                kqj += c
                kqj_pts += c * kr.card_points[base + r]
        out[s, 0] = n
        out[s, 1] = counts[base]
        out[s, 2] = counts[base + 1]
        out[s, 3] = kqj
        out[s, 4] = kqj_pts


@njit(_nrt=False, inline="llvm")
def _features_all_trumps(summ, F):
    """Fill ``F[0:N_FEATURES, t]`` (float64) for every trump t from a per-suit summary.

    A side-suit feature of trump t is the all-suit total minus suit t's own share: one
    pass over the suits serves all four trumps (integers, so the values are exact).
    """
    tot_a = 0
    tot_g = 0
    tot_u = 0
    tot_p = 0
    tot_v = 0
    tot_s = 0
    for s in range(N_SUITS):
        a = summ[s, 1]
        te = summ[s, 2]
        g = te if te < a else a       # tens guarded by an ace of their suit
        tot_a += a
        tot_g += g
        tot_u += te - g
        tot_p += summ[s, 4]
        if summ[s, 0] == 0:
            tot_v += 1
        elif summ[s, 0] == 1:
            tot_s += 1
    for t in range(N_SUITS):
        n = summ[t, 0]
        a = summ[t, 1]
        te = summ[t, 2]
        g = te if te < a else a
        F[0, t] = 1.0
        F[1, t] = n
        F[2, t] = a
        F[3, t] = te
        F[4, t] = summ[t, 3]
        F[5, t] = tot_a - a
        F[6, t] = tot_g - g
        F[7, t] = tot_u - (te - g)
        F[8, t] = tot_p - summ[t, 4]
        F[9, t] = tot_v - (1 if n == 0 else 0)
        F[10, t] = tot_s - (1 if n == 1 else 0)
        F[11, t] = n * n


@njit
def estimate_features(counts, trump, kr, out):
    """Features of the card-point estimate for kept cards ``counts`` and ``trump`` (0..3).

    Parameters
    ----------
    counts : uint8[24]
        The kept cards (normally 15).
    trump : int
        Suit index 0..3.
    kr : KernelRules
    out : float64[N_FEATURES]
        Written in the order of ``FEATURE_NAMES``.
    """
    summ = np.empty((N_SUITS, 5), dtype=np.int64)
    _suit_summary(counts, kr, summ)
    F = np.empty((N_FEATURES, N_SUITS), dtype=np.float64)
    _features_all_trumps(summ, F)
    for q in range(N_FEATURES):
        out[q] = F[q, trump]


@njit(_nrt=False, inline="llvm")
def _dot(w, f):
    acc = 0.0
    for i in range(f.shape[0]):
        acc += w[i] * f[i]
    return acc


@njit
def estimate_card_points(counts, trump, kr):
    """Estimated trick points (incl. last-trick bonus, excl. discard) of a soloist keeping
    ``counts`` with ``trump`` under heuristic play (R7).  See the module docstring."""
    f = np.empty(N_FEATURES, dtype=np.float64)
    estimate_features(counts, trump, kr, f)
    return _dot(EST_WEIGHTS, f)


@njit
def durch_losers(kept, seen):
    """Number of kept cards that an opponent could beat in a no-trump deal (R4, R6).

    A kept card of rank r is safe when every card of a strictly higher rank of its suit is
    in ``seen`` (the soloist's 18 cards: kept + discard), i.e. no opponent can hold one.
    With 0 losers the soloist, leading every trick, wins all 15: a sure Durch.
    """
    losers = 0
    for s in range(N_SUITS):
        base = s * N_RANKS
        for r in range(N_RANKS):
            if kept[base + r] == 0:
                continue
            for h in range(r):
                if seen[base + h] < 2:
                    losers += kept[base + r]
                    break
    return losers


@njit(_nrt=False, inline="llvm")
def _remove_type(mask, t):
    """Remove one copy of type ``t`` from a packed mask (the caller knows it is held)."""
    b = np.int64(1) << np.int64(t)
    hb = b << PLANE
    if mask & hb:
        return mask & ~hb
    return mask & ~b


@njit
def _summary_deltas(kr, out):
    """``out[t]``: what one card of type ``t`` adds to its suit's row of a per-suit summary
    (see _suit_summary): n, aces, tens, kqj count, kqj points."""
    for t in range(N_TYPES):
        r = t % N_RANKS
        kqj = 1 if r >= 2 and r <= 4 else 0
        out[t, 0] = 1
        out[t, 1] = 1 if r == 0 else 0
        out[t, 2] = 1 if r == 1 else 0
        out[t, 3] = kqj
        out[t, 4] = kqj * kr.card_points[t]


@njit(_nrt=False, inline="llvm")
def _summary_add(summ, delta, t, sign):
    """Add (``sign`` = 1) or remove (-1) one card of type ``t`` in a per-suit summary."""
    s = t // N_RANKS
    for q in range(5):
        summ[s, q] += sign * delta[t, q]


@njit
def _slots(counts18, slots):
    """Card types of ``counts18`` listed with repetition (sorted); returns how many."""
    n = 0
    for t in range(N_TYPES):
        for _ in range(counts18[t]):
            slots[n] = t
            n += 1
    return n


@njit
def _normal_cdf(z):
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


@njit
def expected_play_score(value, bid, sigma, loss_factor):
    """E[score] of playing at ``bid`` if the total is Normal(value, sigma) (R8: a failed
    contract scores ``-loss_factor * bid``)."""
    if sigma <= 0.0:
        return value if value >= bid else -loss_factor * bid
    z = (bid - value) / sigma
    p_make = 1.0 - _normal_cdf(z)
    dens = math.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi)
    return value * p_make + sigma * dens - loss_factor * bid * (1.0 - p_make)


@njit
def exchange_shortlist(counts18, kr, weights, per_trump, out_disc, out_trump, out_value,
                       out_durch_disc):
    """Best ``per_trump`` discards for each trump by the fast value, plus the best Durch discard.

    Parameters
    ----------
    counts18 : uint8[24]
        Soloist's hand + Tapp (18 cards).  Nothing else about the deal is an input (R4).
    kr : KernelRules
    weights : float64[N_FEATURES]
        Card-point estimate weights (normally ``EST_WEIGHTS``).
    per_trump : int
        How many discards to keep per trump (``out_*`` must hold ``4 * per_trump`` rows).
    out_disc : int64[4 * per_trump, 3]
        Row ``trump * per_trump + i``: the i-th best discard for that trump (card types).
    out_trump : int64[4 * per_trump]
    out_value : float64[4 * per_trump]
        Estimated total (meld + discard points + card-point estimate); -inf where unused.
    out_durch_disc : int64[3]
        Discard with the fewest Durch losers (ties: most discard points, first found).

    Returns
    -------
    int
        Fewest Durch losers over all discards (0 = a sure Durch is available).
    """
    K = per_trump
    for i in range(4 * K):
        out_value[i] = -np.inf
        out_trump[i] = i // K
        for q in range(out_disc.shape[1]):
            out_disc[i, q] = -1
    slots = np.empty(24 * 2, dtype=np.int64)
    n = _slots(counts18, slots)
    # everything below is updated incrementally per discard: summary, mask, Durch losers
    summ = np.empty((N_SUITS, 5), dtype=np.int64)
    _suit_summary(counts18, kr, summ)
    delta = np.empty((N_TYPES, 5), dtype=np.int64)
    _summary_deltas(kr, delta)
    mask18 = counts_mask(counts18)
    loser = np.zeros(N_TYPES, dtype=np.int64)
    total_losers = 0
    for s in range(N_SUITS):
        base = s * N_RANKS
        for r in range(N_RANKS):
            for h in range(r):
                if counts18[base + h] < 2:
                    loser[base + r] = 1
                    break
            total_losers += loser[base + r] * counts18[base + r]
    feats = np.empty((N_FEATURES, N_SUITS), dtype=np.float64)
    vals = np.empty(N_SUITS, dtype=np.float64)
    meld4 = np.empty(N_SUITS, dtype=np.int64)
    if kr.tapp_size == 4:
        return _enumerate_discards4(slots, n, mask18, summ, delta, loser, total_losers, kr,
                                    weights, K, feats, vals, meld4, out_disc, out_value,
                                    out_durch_disc)
    return _enumerate_discards(slots, n, mask18, summ, delta, loser, total_losers, kr,
                               weights, K, feats, vals, meld4, out_disc, out_value,
                               out_durch_disc)


@njit(_nrt=False)
def _enumerate_discards(slots, n, mask18, summ, delta, loser, total_losers, kr, weights, K,
                        feats, vals, meld4, out_disc, out_value, out_durch_disc):
    """The discard loop of :func:`exchange_shortlist` (its scratch arrays passed in).

    Compiled without reference counting: in a kernel that has it, inlined helpers taking
    an array (the summary update, the meld) incref and decref it atomically, several
    times per discard (fast_exchange in a kernel loop: 44 us with them, 31 us without;
    27 us with the four trumps' sums side by side; 21 us with ``summ``, the 18 cards'
    per-suit summary, updated per loop level card by card and restored on the way out).
    """
    cp = kr.card_points
    best_losers = 1 << 30
    best_dpts = -1
    # V2.3: a discarded trump low card still melds for the soloist (0 where it does not)
    dv = kr.dissle_in_discard * kr.trump_nine_value
    lowr = kr.nine_rank
    for i in range(n):
        if i > 0 and slots[i] == slots[i - 1]:
            continue
        a = slots[i]
        _summary_add(summ, delta, a, -1)
        mask_a = _remove_type(mask18, a)
        for j in range(i + 1, n):
            if j > i + 1 and slots[j] == slots[j - 1]:
                continue
            b = slots[j]
            _summary_add(summ, delta, b, -1)
            mask_b = _remove_type(mask_a, b)
            for k in range(j + 1, n):
                if k > j + 1 and slots[k] == slots[k - 1]:
                    continue
                c = slots[k]
                dpts = cp[a] + cp[b] + cp[c]
                meld_all_trumps(_remove_type(mask_b, c), kr, meld4)
                _summary_add(summ, delta, c, -1)
                _features_all_trumps(summ, feats)
                _summary_add(summ, delta, c, 1)
                # the four trumps' sums side by side, each in feature order exactly as
                # _dot: four independent chains of additions that the CPU overlaps
                acc0 = 0.0
                acc1 = 0.0
                acc2 = 0.0
                acc3 = 0.0
                for q in range(N_FEATURES):
                    wq = weights[q]
                    acc0 += wq * feats[q, 0]
                    acc1 += wq * feats[q, 1]
                    acc2 += wq * feats[q, 2]
                    acc3 += wq * feats[q, 3]
                if dv != 0:
                    for x in (a, b, c):
                        if x % N_RANKS == lowr:
                            meld4[x // N_RANKS] += dv
                vals[0] = meld4[0] + dpts + acc0
                vals[1] = meld4[1] + dpts + acc1
                vals[2] = meld4[2] + dpts + acc2
                vals[3] = meld4[3] + dpts + acc3
                for t in range(N_SUITS):
                    v = vals[t]
                    # insert into trump t's sorted top-K list
                    base = t * K
                    if v > out_value[base + K - 1]:
                        pos = K - 1
                        while pos > 0 and out_value[base + pos - 1] < v:
                            out_value[base + pos] = out_value[base + pos - 1]
                            out_disc[base + pos, 0] = out_disc[base + pos - 1, 0]
                            out_disc[base + pos, 1] = out_disc[base + pos - 1, 1]
                            out_disc[base + pos, 2] = out_disc[base + pos - 1, 2]
                            pos -= 1
                        out_value[base + pos] = v
                        out_disc[base + pos, 0] = a
                        out_disc[base + pos, 1] = b
                        out_disc[base + pos, 2] = c
                losers = total_losers - loser[a] - loser[b] - loser[c]
                if losers < best_losers or (losers == best_losers and dpts > best_dpts):
                    best_losers = losers
                    best_dpts = dpts
                    out_durch_disc[0] = a
                    out_durch_disc[1] = b
                    out_durch_disc[2] = c
            _summary_add(summ, delta, b, 1)
        _summary_add(summ, delta, a, 1)
    return best_losers


@njit(_nrt=False)
def _enumerate_discards4(slots, n, mask18, summ, delta, loser, total_losers, kr, weights, K,
                         feats, vals, meld4, out_disc, out_value, out_durch_disc):
    """:func:`_enumerate_discards` for a 4-card discard (binokel-40: 16 cards, V5.3).

    The same value per (discard, trump), with one more loop level; at most C(16, 4) =
    1,820 distinct discards.
    """
    cp = kr.card_points
    best_losers = 1 << 30
    best_dpts = -1
    dv = kr.dissle_in_discard * kr.trump_nine_value
    lowr = kr.nine_rank
    for i in range(n):
        if i > 0 and slots[i] == slots[i - 1]:
            continue
        a = slots[i]
        _summary_add(summ, delta, a, -1)
        mask_a = _remove_type(mask18, a)
        for j in range(i + 1, n):
            if j > i + 1 and slots[j] == slots[j - 1]:
                continue
            b = slots[j]
            _summary_add(summ, delta, b, -1)
            mask_b = _remove_type(mask_a, b)
            for k in range(j + 1, n):
                if k > j + 1 and slots[k] == slots[k - 1]:
                    continue
                c = slots[k]
                _summary_add(summ, delta, c, -1)
                mask_c = _remove_type(mask_b, c)
                for l in range(k + 1, n):
                    if l > k + 1 and slots[l] == slots[l - 1]:
                        continue
                    d = slots[l]
                    dpts = cp[a] + cp[b] + cp[c] + cp[d]
                    meld_all_trumps(_remove_type(mask_c, d), kr, meld4)
                    _summary_add(summ, delta, d, -1)
                    _features_all_trumps(summ, feats)
                    _summary_add(summ, delta, d, 1)
                    acc0 = 0.0
                    acc1 = 0.0
                    acc2 = 0.0
                    acc3 = 0.0
                    for q in range(N_FEATURES):
                        wq = weights[q]
                        acc0 += wq * feats[q, 0]
                        acc1 += wq * feats[q, 1]
                        acc2 += wq * feats[q, 2]
                        acc3 += wq * feats[q, 3]
                    if dv != 0:
                        for x in (a, b, c, d):
                            if x % N_RANKS == lowr:
                                meld4[x // N_RANKS] += dv
                    vals[0] = meld4[0] + dpts + acc0
                    vals[1] = meld4[1] + dpts + acc1
                    vals[2] = meld4[2] + dpts + acc2
                    vals[3] = meld4[3] + dpts + acc3
                    for t in range(N_SUITS):
                        v = vals[t]
                        base = t * K
                        if v > out_value[base + K - 1]:
                            pos = K - 1
                            while pos > 0 and out_value[base + pos - 1] < v:
                                out_value[base + pos] = out_value[base + pos - 1]
                                for q in range(4):
                                    out_disc[base + pos, q] = out_disc[base + pos - 1, q]
                                pos -= 1
                            out_value[base + pos] = v
                            out_disc[base + pos, 0] = a
                            out_disc[base + pos, 1] = b
                            out_disc[base + pos, 2] = c
                            out_disc[base + pos, 3] = d
                    losers = total_losers - loser[a] - loser[b] - loser[c] - loser[d]
                    if losers < best_losers or (losers == best_losers and dpts > best_dpts):
                        best_losers = losers
                        best_dpts = dpts
                        out_durch_disc[0] = a
                        out_durch_disc[1] = b
                        out_durch_disc[2] = c
                        out_durch_disc[3] = d
                _summary_add(summ, delta, c, 1)
            _summary_add(summ, delta, b, 1)
        _summary_add(summ, delta, a, 1)
    return best_losers


@njit
def sure_durch_contract(kr):
    """The contract a *sure* Durch is declared as (R4, V2.7): open Durch where the variant
    has it and values it higher (showing the cards cannot lose a sure Durch), else Durch;
    -1 where the variant has no Durch (V5.7)."""
    if kr.open_durch_value > kr.durch_value:
        return CONTRACT_OPEN_DURCH
    if kr.durch_value > 0:
        return CONTRACT_DURCH
    return -1


@njit
def durch_contract_value(contract, kr):
    """What a made Durch contract scores (R4, V2.7)."""
    return kr.open_durch_value if contract == CONTRACT_OPEN_DURCH else kr.durch_value


@njit
def fast_exchange(counts18, bid, kr, discard_out):
    """Soloist's exchange from what it sees only: its 18 cards (hand + Tapp), R4.

    Parameters
    ----------
    counts18 : uint8[24]
        Hand + Tapp counts (18 cards).  Not modified.
    bid : int
        The soloist's bid (R3); decides surrender (R4, R8).
    kr : KernelRules
    discard_out : int64[>= kr.tapp_size]
        Written: the discarded card types (a type repeats if both copies go).

    Returns
    -------
    (int, int)
        ``(trump, contract)``: trump 0..3 (-1 with Durch); contract 0 = play,
        1 = surrender (trump still named: the opponents' melds use it, R4), 2 = Durch,
        3 = open Durch (V2.7).

    Notes
    -----
    Best (discard, trump) by the fast value of the module docstring; Durch only when sure
    (:func:`durch_losers` = 0) and worth more than playing; surrender when the expected
    score of playing (normal model, ``EST_SIGMA``) is below ``-bid``.
    """
    K = 1
    D = kr.tapp_size
    disc = np.empty((4 * K, D), dtype=np.int64)
    tr = np.empty(4 * K, dtype=np.int64)
    val = np.empty(4 * K, dtype=np.float64)
    ddisc = np.empty(D, dtype=np.int64)
    losers = exchange_shortlist(counts18, kr, kr.est_weights, K, disc, tr, val, ddisc)
    best = 0
    for i in range(1, 4 * K):
        if val[i] > val[best]:
            best = i
    e_play = expected_play_score(val[best], np.float64(bid), kr.est_sigma,
                                 np.float64(kr.loss_factor))
    dk = sure_durch_contract(kr)
    if losers == 0 and dk >= 0 and durch_contract_value(dk, kr) > e_play:
        for q in range(D):
            discard_out[q] = ddisc[q]
        return -1, dk
    for q in range(D):
        discard_out[q] = disc[best, q]
    if e_play < -np.float64(bid):
        return tr[best], CONTRACT_SURRENDER
    return tr[best], CONTRACT_PLAY


# --------------------------------------------------------------------------------------
# Monte Carlo choice among a shortlist (the analyzer's exchange, R4)
# --------------------------------------------------------------------------------------

DURCH_MAX_LOSERS = 1  # a Durch is worth simulating when at most this many cards can lose


@njit
def shortlist_candidates(counts18, kr, n_top, per_trump, cand_disc, cand_trump, cand_value):
    """The ``n_top`` best (discard, trump) pairs by the fast value, plus a Durch candidate.

    Parameters
    ----------
    counts18 : uint8[24]
        Soloist's hand + Tapp; nothing else about the deal (R4).
    n_top : int
        Trump candidates to return (at most ``4 * per_trump``).
    per_trump : int
        Discards considered per trump before the global cut.
    cand_disc : int64[n_top + 1, >= D], cand_trump : int64[n_top + 1], cand_value : float64[n_top + 1]
        OUT (D = ``kr.tapp_size`` discarded cards).  Rows 0..n-1: trump candidates, best
        first.  If the variant has a Durch and one is plausible
        (:func:`durch_losers` <= ``DURCH_MAX_LOSERS`` for its best discard) one more row
        with trump -1 and value ``-(losers)``.

    Returns
    -------
    int
        Number of rows written.
    """
    K = per_trump
    D = kr.tapp_size
    disc = np.empty((4 * K, D), dtype=np.int64)
    tr = np.empty(4 * K, dtype=np.int64)
    val = np.empty(4 * K, dtype=np.float64)
    ddisc = np.empty(D, dtype=np.int64)
    losers = exchange_shortlist(counts18, kr, kr.est_weights, K, disc, tr, val, ddisc)
    used = np.zeros(4 * K, dtype=np.bool_)
    n = 0
    for _ in range(min(n_top, 4 * K)):
        best = -1
        for i in range(4 * K):
            if not used[i] and val[i] > -np.inf and (best < 0 or val[i] > val[best]):
                best = i
        if best < 0:
            break
        used[best] = True
        for q in range(D):
            cand_disc[n, q] = disc[best, q]
        cand_trump[n] = tr[best]
        cand_value[n] = val[best]
        n += 1
    if losers <= DURCH_MAX_LOSERS and sure_durch_contract(kr) >= 0:
        for q in range(D):
            cand_disc[n, q] = ddisc[q]
        cand_trump[n] = -1
        cand_value[n] = -np.float64(losers)
        n += 1
    return n


@njit
def candidate_outcomes(counts18, soloist, cand_disc, cand_trump, n_cand, m, state, kr,
                       out_total, out_tricks):
    """Play every candidate exchange on ``m`` fresh deals of the unseen cards (R4, R6-R8).

    The soloist sees only its 18 cards, so the 30 unseen cards (24 in binokel-40) are dealt
    evenly to the two
    opponents uniformly at random from ``state`` (its own RNG stream: these deals are never
    the ones used for scoring).  All candidates play the *same* fresh deals (common random
    numbers: their differences are estimated far more precisely than their levels).

    Parameters
    ----------
    counts18 : uint8[24]
        Hand + Tapp.
    soloist : int
        The soloist's seat 0..2; forehand (seat 0) leads, or the soloist in a Durch (R6, R4).
    cand_disc, cand_trump, n_cand
        As written by :func:`shortlist_candidates` (trump -1 = Durch).
    m : int
        Fresh deals.
    state : uint64[4]
        RNG state, advanced.
    out_total : int64[>= n_cand, >= m]
        OUT: soloist's total = card points incl. discard (rounded where the variant
        rounds, V1) + meld (R5 and a discarded Dissle, V2.3; only with a trick, R8).
    out_tricks : int64[>= n_cand, >= m]
        OUT: tricks won by the soloist (a Durch is made iff 15, R4).
    """
    n_types = N_TYPES
    D = kr.tapp_size
    deck = np.empty(48, dtype=np.uint8)
    nd = unseen_cards(counts18, kr.copies, deck)
    deck = deck[:nd]
    sizes = np.empty(2, dtype=np.int64)
    sizes[0] = nd // 2
    sizes[1] = nd - nd // 2
    masks = np.empty(2, dtype=np.int64)
    hands = np.zeros((3, N_TYPES), dtype=np.uint8)
    pts = np.zeros(3, dtype=np.int64)
    trk = np.zeros(3, dtype=np.int64)
    play_state = np.empty(4, dtype=np.uint64)
    opp1 = (soloist + 1) % 3
    opp2 = (soloist + 2) % 3
    for i in range(m):
        deal_masks(state, deck, sizes, masks)
        mask_counts(masks[0], hands[opp1])
        mask_counts(masks[1], hands[opp2])
        # one play stream per fresh deal, shared by all candidates (common random numbers)
        for q in range(4):
            play_state[q] = next_u64(state)
        for j in range(n_cand):
            st = play_state.copy()
            dpts = 0
            for t in range(n_types):
                hands[soloist, t] = counts18[t]
            for q in range(D):
                hands[soloist, cand_disc[j, q]] -= 1
                dpts += kr.card_points[cand_disc[j, q]]
            trump = cand_trump[j]
            leader = soloist if trump < 0 else 0
            play_out(hands, trump, leader, soloist, POLICY_HEURISTIC, st, kr, pts, trk)
            total = rounded_points(pts[soloist] + dpts, kr)      # V1
            if trump >= 0 and trk[soloist] > 0:
                total += (meld_total(counts_mask(hands[soloist]), trump, kr)
                          + discard_dissle(cand_disc[j], D, trump, kr))   # V2.3
            out_total[j, i] = total
            out_tricks[j, i] = trk[soloist]
    return m


@njit
def decide_contracts(cand_trump, n_cand, out_total, out_tricks, m, bids, kr, contract_out,
                     e_out, durch_sure=False):
    """Choose the exchange and, for every bid, the contract, from candidate outcomes.

    The trump candidate with the highest mean total is *the* exchange (one choice for all
    bids, so one play-out per scored deal).  At each bid B (R3 grid in ``bids``) the soloist
    then takes the best of: playing it (mean of +total if a trick and total >= B, else
    -loss_factor x B, R8), surrendering (-B, R4), or the Durch candidate if any
    (p x value - durch_loss_factor x value x (1 - p), p = share of fresh deals with all
    tricks, R4, V2.7; ``durch_sure``: no kept card can lose, so an open Durch is declared
    where the variant values it higher, V2.7).

    Parameters
    ----------
    out_total, out_tricks, m
        From :func:`candidate_outcomes`.
    bids : int64[nb]
    contract_out : int8[nb]
        OUT: CONTRACT_PLAY / CONTRACT_SURRENDER / CONTRACT_DURCH per bid.
    e_out : float64[nb, 3]
        OUT: estimated expected score of play, surrender, Durch (NaN: no Durch candidate).

    Returns
    -------
    (int, int)
        Row of the chosen trump candidate (-1 if none) and row of the Durch candidate (-1).
    """
    best = -1
    best_mean = -np.inf
    durch = -1
    for j in range(n_cand):
        if cand_trump[j] < 0:
            durch = j
            continue
        acc = 0.0
        for i in range(m):
            acc += out_total[j, i]
        mean = acc / m
        if mean > best_mean:
            best_mean = mean
            best = j
    p_durch = 0.0
    if durch >= 0:
        k = 0
        for i in range(m):
            if out_tricks[durch, i] == kr.hand_size:
                k += 1
        p_durch = k / m
    for b in range(bids.shape[0]):
        bid = bids[b]
        e_play = -np.inf
        if best >= 0:
            acc = 0.0
            for i in range(m):
                tot = out_total[best, i]
                if out_tricks[best, i] > 0 and tot >= bid:
                    acc += tot
                else:
                    acc -= kr.loss_factor * bid
            e_play = acc / m
        e_sur = -np.float64(bid)
        e_dur = np.nan
        choice = CONTRACT_PLAY
        top = e_play
        if e_sur > top:
            top = e_sur
            choice = CONTRACT_SURRENDER
        if durch >= 0:
            # R4 / V2.7: made +value, failed -durch_loss_factor x value; an open Durch
            # (worth more where the variant has it) only when sure (durch_sure)
            dk = CONTRACT_OPEN_DURCH if (durch_sure and kr.open_durch_value > kr.durch_value) \
                else CONTRACT_DURCH
            v = np.float64(durch_contract_value(dk, kr))
            e_dur = v * p_durch - kr.durch_loss_factor * v * (1.0 - p_durch)
            if v > 0 and e_dur > top:
                top = e_dur
                choice = dk
        contract_out[b] = choice
        e_out[b, 0] = e_play
        e_out[b, 1] = e_sur
        e_out[b, 2] = e_dur
    return best, durch


#: The Monte Carlo exchange's size, the one setting of every "soloist's choices" answer
#: (analyze, advise, the report and the page: :func:`soloist_exchange`).
EXCHANGE_SAMPLES = 24       # fresh deals per candidate for each per-deal exchange decision
EXCHANGE_TOP = 4            # trump candidates simulated per decision (plus Durch if plausible)
PER_TRUMP = 2               # discards per trump kept by the fast evaluator before the cut


@njit
def soloist_exchange(counts18, soloist, bids, m, n_top, per_trump, state, kr, disc_out,
                     durch_disc_out, contract_out):
    """The soloist's choices after the auction, from its 18 cards only (R4, V2.7): the
    exchange (discard and trump) and, for every bid of ``bids``, the contract (play,
    surrender, Durch or open Durch).

    This is the one model of those choices behind every number quoted at a bid (hand
    analysis and bid advice alike): :func:`shortlist_candidates` (the fast evaluator's
    ``n_top`` best (discard, trump) pairs plus a plausible Durch), :func:`candidate_outcomes`
    (each played on the same ``m`` fresh deals of the unseen cards drawn from ``state``,
    heuristic play) and :func:`decide_contracts` (best mean total; per bid the best
    expected score of play, surrender or Durch).  Why Monte Carlo and not the fast
    evaluator's normal model (:func:`fast_exchange`): the going-out threshold is where the
    value lies (STRATEGY.md), and the normal model, with its card-point s.d. over all
    hands, gave up contracts the play makes (issue 25: 41.5 % surrender at 500 where the
    play makes 77 %); the simulated players of a whole game (tournament, batch runs, the
    advisor's pass branch) keep the fast one for speed.

    Parameters
    ----------
    counts18 : uint8[24]
        Hand + Tapp (nothing else about the deal, R4).
    soloist : int
        Seat 0..2 (forehand leads a trump contract, the soloist a Durch: R6, R4).
    bids : int64[nb]
    m, n_top, per_trump : int
        ``EXCHANGE_SAMPLES``, ``EXCHANGE_TOP``, ``PER_TRUMP`` unless a caller says otherwise.
    state : uint64[4]
        The decision's own RNG stream (advanced).
    disc_out, durch_disc_out : int64[D]
        OUT: the trump contract's discard; the Durch candidate's (unchanged when none).
    contract_out : int8[nb]
        OUT: CONTRACT_PLAY / SURRENDER / DURCH / OPEN_DURCH per bid.

    Returns
    -------
    (int, bool, float)
        Trump of the trump contract (0..3), whether a Durch candidate exists, and the
        Monte Carlo mean total of the chosen trump contract.
    """
    D = kr.tapp_size
    cap = n_top + 1
    mm = m if m > 0 else 1
    cand_disc = np.empty((cap, D), dtype=np.int64)
    cand_trump = np.empty(cap, dtype=np.int64)
    cand_value = np.empty(cap, dtype=np.float64)
    c_total = np.empty((cap, mm), dtype=np.int64)
    c_tricks = np.empty((cap, mm), dtype=np.int64)
    e_out = np.empty((bids.shape[0], 3), dtype=np.float64)
    nc = shortlist_candidates(counts18, kr, n_top, per_trump, cand_disc, cand_trump, cand_value)
    candidate_outcomes(counts18, soloist, cand_disc, cand_trump, nc, m, state, kr, c_total,
                       c_tricks)
    # a sure Durch (no kept card can lose: value -0) may be declared open (V2.7)
    durch_sure = nc > 0 and cand_trump[nc - 1] < 0 and cand_value[nc - 1] == 0.0
    best, durch = decide_contracts(cand_trump, nc, c_total, c_tricks, m, bids, kr,
                                   contract_out, e_out, durch_sure)
    for q in range(D):
        disc_out[q] = cand_disc[best, q]
    acc = 0.0
    for j in range(m):
        acc += c_total[best, j]
    if durch >= 0:
        for q in range(D):
            durch_disc_out[q] = cand_disc[durch, q]
    return cand_trump[best], durch >= 0, acc / mm


def fit_weights(n: int = 30000, seed: int = 0, rules=None):
    """Refit the card-point estimate by least squares on heuristic play-outs (R7).

    Deals ``n`` uniformly random deals (R2); the soloist (random seat) keeps one of the
    evaluator's top-4 (discard, trump) candidates at random, the deal is played with the
    heuristic policy, and the soloist's trick points (incl. last trick, excl. discard) are
    regressed on :func:`estimate_features`.

    Returns
    -------
    (weights float64[N_FEATURES], residual_sd float, r2 float)
    """
    rules = rules or DEFAULT_RULES
    kr = rules.kernel
    rng = np.random.default_rng(seed)
    st = make_state(np.random.SeedSequence(seed))
    deck = new_deck(rules)
    out = np.empty(4, dtype=np.int64)
    X = np.empty((n, N_FEATURES))
    y = np.empty(n)
    cd = np.empty((5, kr.tapp_size), dtype=np.int64)
    ct = np.empty(5, dtype=np.int64)
    cv = np.empty(5)
    f = np.empty(N_FEATURES)
    pts = np.zeros(3, dtype=np.int64)
    trk = np.zeros(3, dtype=np.int64)
    for i in range(n):
        deal_rules(st, deck, kr, out)
        seat = int(rng.integers(3))
        hands = np.stack([mask_to_counts(out[p]) for p in range(3)])
        c18 = hands[seat] + mask_to_counts(out[3])
        nc = shortlist_candidates(c18, kr, 4, 2, cd, ct, cv)
        ntr = sum(1 for j in range(nc) if ct[j] >= 0)
        j = int(rng.integers(ntr))
        kept = c18.copy()
        for t in cd[j]:
            kept[t] -= 1
        hands[seat] = kept
        play_out(hands, int(ct[j]), 0, seat, POLICY_HEURISTIC, st, kr, pts, trk)
        estimate_features(kept, int(ct[j]), kr, f)
        X[i] = f
        y[i] = pts[seat]
    return least_squares_fit(X, y)


def least_squares_fit(X: np.ndarray, y: np.ndarray):
    """Least squares of targets ``y`` (float64[n]) on features ``X`` (float64[n, k]): the
    weights, the residual s.d. (n - k degrees of freedom) and R^2 (the fits of the
    soloist's estimates: :func:`fit_weights`, partner_deals.fit_side_weights)."""
    w, *_ = np.linalg.lstsq(X, y, rcond=None)
    res = y - X @ w
    dof = max(1, X.shape[0] - X.shape[1])
    return w, float(np.sqrt((res ** 2).sum() / dof)), float(1.0 - res.var() / y.var())


# --------------------------------------------------------------------------- a partners' table (V4.2, V5.3)
# The soloist of a four-seat game with a Dabb exchanges greedily, one card at a time per
# trump (its partner's cards are unknown and the discard counts for the side), and
# estimates its side's total with a side model (fitted by partner_deals.fit_side_weights).

@njit(_nrt=False)
def _keep_value(hand, c, trump, tk):
    """Why a soloist keeps card ``c`` (policy, not rule): trumps are tricks and control,
    aces tricks, a ten beside its ace a likely trick."""
    r = c % 6
    v = 0
    if c // 6 == trump:
        v += 40 + 3 * tk.rank_strength[c]
    if r == 0:
        v += 25
    elif r == 1 and hand[c - 1] > 0:
        v += 10
    return v


@njit
def greedy_exchange(hand, tk, kr, discard):
    """The soloist's exchange (V4.2, V5.3): from ``hand`` (uint8[24], hand + Dabb, modified
    to the kept cards) discard ``tk.dabb_size`` cards into ``discard`` and name trump.

    Policy (documented in docs/methods.md#team-advisor): for each trump, discard greedily the card whose loss
    (meld lost with that trump - its card points, which count for the team + the value of
    keeping it) is least; then name the trump whose kept meld + 10 per trump + the discard
    points is highest.  The trump low card melds from the discard where the RuleSet says
    so (V2.3).  Returns the trump.
    """
    cp = tk.card_points
    best_t = 0
    best_v = np.int64(-(1 << 40))
    cur = hand.copy()
    dis = np.zeros(N_TYPES, dtype=np.uint8)
    best_dis = np.zeros(N_TYPES, dtype=np.uint8)
    for t in range(4):
        for i in range(N_TYPES):
            cur[i] = hand[i]
            dis[i] = 0
        dpts = 0
        for _d in range(tk.dabb_size):
            m0 = meld_total(counts_mask(cur), t, kr)
            bc = -1
            bcost = np.int64(1 << 40)
            for c in range(N_TYPES):
                if cur[c] == 0:
                    continue
                cur[c] -= 1
                loss = m0 - meld_total(counts_mask(cur), t, kr)
                cur[c] += 1
                if c // 6 == t and c % 6 == tk.low_rank:
                    loss -= tk.dissle_value
                cost = loss - cp[c] + _keep_value(cur, c, t, tk)
                if cost < bcost:
                    bcost = cost
                    bc = c
            cur[bc] -= 1
            dis[bc] += 1
            dpts += cp[bc]
        ntr = 0
        for r in range(6):
            ntr += cur[6 * t + r]
        v = meld_total(counts_mask(cur), t, kr) + 10 * ntr + dpts
        if v > best_v:
            best_v = v
            best_t = t
            for i in range(N_TYPES):
                best_dis[i] = dis[i]
    for i in range(N_TYPES):
        discard[i] = best_dis[i]
        hand[i] -= best_dis[i]
    return best_t


@njit
def side_estimate(kept, trump, discard, tk, kr):
    """The soloist's estimate of its team's total after the exchange (V4.6, V5.7), from
    its own cards only: its melds with ``trump`` (incl. a discarded trump low card, V2.3)
    + the discard's points (they count for the team, V4.2) + ``kr.est_weights`` . the
    features of :func:`analyzer.mechanics.exchange.estimate_features` of its kept cards,
    a model of what the team adds in tricks and in the partner's melds (fitted per game
    by :func:`fit_side_weights`; residual s.d. ``kr.est_sigma``)."""
    f = np.empty(N_FEATURES, dtype=np.float64)
    estimate_features(kept, trump, kr, f)
    v = np.float64(meld_total(counts_mask(kept), trump, kr))
    v += discard[6 * trump + tk.low_rank] * tk.dissle_value
    for t in range(N_TYPES):
        v += discard[t] * tk.card_points[t]
    for q in range(N_FEATURES):
        v += kr.est_weights[q] * f[q]
    return v


NO_DURCH = 99       # Durch losers where the game has no Durch (V5.7): never sure


@njit
def durch_discard(full, tk, kr, ddisc):
    """The soloist's Durch discard (V4.6 "Durch as V2.7", R4): from ``full`` (hand + Dabb,
    uint8[24], not modified) discard ``tk.dabb_size`` cards into ``ddisc`` (uint8[24]),
    losers first (:func:`analyzer.mechanics.exchange.durch_losers`: a kept card is safe
    when every stronger card of its suit is among the soloist's own cards, discard
    included), then the lowest cards.  Returns the losers left among the kept cards
    (0 = a sure Durch: the soloist, leading every trick, wins them all); ``NO_DURCH``
    where the game has no Durch (V5.7)."""
    for t in range(N_TYPES):
        ddisc[t] = 0
    if sure_durch_contract(kr) < 0:
        return NO_DURCH
    kept = full.copy()
    for _d in range(tk.dabb_size):
        bc = -1
        bl = NO_DURCH
        for c in range(N_TYPES):
            if kept[c] == 0:
                continue
            kept[c] -= 1
            lo = durch_losers(kept, full)
            kept[c] += 1
            if bc < 0 or lo < bl or (lo == bl and tk.rank_strength[c] < tk.rank_strength[bc]):
                bl = lo
                bc = c
        kept[bc] -= 1
        ddisc[bc] += 1
    return durch_losers(kept, full)


@njit
def soloist_choice(hands5, sol, tk, kr, kept, discard, ddisc):
    """The soloist's exchange and what it knows after it (V4.2, V5.3): ``kept`` (uint8[24])
    = its kept cards, ``discard`` its trump-game discard, ``ddisc`` its Durch discard.
    Only row ``sol`` and the Dabb (row 4) of ``hands5`` are read.  Returns (trump, the
    estimated team total :func:`side_estimate`, Durch losers :func:`durch_discard`).
    """
    full = np.zeros(N_TYPES, dtype=np.uint8)
    for t in range(N_TYPES):
        full[t] = hands5[sol, t] + hands5[4, t]
    losers = durch_discard(full, tk, kr, ddisc)
    for t in range(N_TYPES):
        kept[t] = full[t]
    trump = greedy_exchange(kept, tk, kr, discard)
    return trump, side_estimate(kept, trump, discard, tk, kr), losers
