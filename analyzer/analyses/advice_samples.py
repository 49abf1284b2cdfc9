"""The static bid advisor's sampled deals for every table (R3, R4, R8, R9; V1, V4-V6).

Both tables answer the same question on the same samples: per sampled deal, what this
seat scores **as the soloist / bidder at each bid of a grid** and **if it passes now**,
each sample weighted by how well the sampled hands explain the calls made so far
(inference; means are weighted, their standard errors use Kish's effective sample size).
The deals are drawn in seeded chunks and rounds (analyzer.analyses.sample_rounds), so the
same seed gives the same numbers for any number of workers.  Only this hand, its seat,
the public calls and the scores enter a kernel: the other hands exist only as samples.

The table decides the mechanism (the RuleSet's ``sides``; nothing here tests a game):

- **A lone soloist against two opponents** (R2-R9): the 33 unseen cards go to the two
  opponents and the Tapp; the soloist branch takes the Tapp and makes the soloist's
  choices (analyzer.search.deals.soloist_grid, scored at every bid); the pass branch lets
  the opponents finish the R3 auction as rule-of-thumb bidders (:func:`advise_samples`,
  :func:`simulate_advice`, :func:`summarize_advice`).
- **Partners** (V1: seats s and s + 2; the Binokel team games V4, V5 with a Dabb, and the
  80-card game V6 without): the unseen cards go to the three other hands (and the Dabb);
  the bidder branch plays once per trump (V6) or once after its exchange (V4.2, V5.3)
  and keeps the team's total, so the score at any bid follows without replaying; the
  pass branch finishes the chain of duels (V1) or the open bidding (V6.2) with
  rule-of-thumb bidders; the partner's calls are evidence too
  (:func:`partners_advise_samples`, :func:`sample_branches`,
  :func:`summarize_partners_advice`).  The objective is this team's deal score minus the
  other team's, or P(win game) from the two teams' totals
  (analyzer.analyses.objectives.side_win_probability).
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.analyses.advice_grid import bid_grid, next_legal_bid, sampled_bid_grid, table_extent
from analyzer.analyses.advice_result import table_row
from analyzer.analyses.objectives import objective_values, recommended_max_bid, side_objective_values
from analyzer.analyses.sample_rounds import MAX_ROUNDS, sample_rounds
from analyzer.analyses.weighted_stats import effective_sample_size, weighted_mean, weighted_proportion
from analyzer.errors import BinokelError
from analyzer.mechanics.bidding import (DEFAULT_EVIDENCE_SCALE, DEFAULT_TRICK_ESTIMATE,
                                        AuctionState, auction_continue, evidence_likelihood,
                                        rule_of_thumb_max_bid, rule_of_thumb_value)
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.exchange import CONTRACT_DURCH, CONTRACT_OPEN_DURCH, CONTRACT_SURRENDER
from analyzer.mechanics.play import POLICY_HEURISTIC, beat_table
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import RuleSet, TeamSpec
from analyzer.mechanics.sampling import deal_masks, mask_counts, remaining_deck
from analyzer.mechanics.bidding import (DEFAULT_PARTNER_ALLOWANCE, DEFAULT_DABB_ESTIMATE,
                                        DEFAULT_TRICK_VALUE, continue_open_auction,
                                        continue_duels, rule_of_thumb_by_tricks,
                                        rule_value_by_tricks)
from analyzer.mechanics.game import (O_COLS,
                                     O_DURCH_MADE,
                                     O_EST,
                                     O_LOSERS,
                                     O_OTHER,
                                     O_OUT_OTHER,
                                     O_TOTAL,
                                     R_SCORE,
                                     RES_COLS,
                                     contracts_for_bids,
                                     rule_value_by_model)
from analyzer.search.partner_deals import dabb_contract, dabb_outcomes, named_trump_contract
from analyzer.mechanics.sampling import deal_counts_fixed
from analyzer.search.pimc import play_policies
from analyzer.search.deals import finish_deal, soloist_grid
from analyzer.search.pimc import pimc_args

#: The partners' table draws rounds until the effective sample size is this share of the
#: samples (a lone soloist's advisor: analyzer.analyses.sample_rounds.ESS_FRACTION).
PARTNERS_ESS_FRACTION = 0.5


# --------------------------------------------------------------------------- a lone soloist (R2-R9)

@njit
def advise_samples(hand_counts, seat, deck, bids, auction_state, lo, hi, use_evidence,
                   evidence_scale, opp_trick_estimate, policy, state, kr,
                   sol_scores, sol_made, sol_contract, pass_scores, pass_soloist, pass_bid,
                   weight, sol_trump, pimc=None):
    """Monte Carlo core of the advisor: ``n = weight.shape[0]`` sampled deals.

    Parameters
    ----------
    hand_counts : uint8[24]
        The advised hand (15 cards).  The only cards the kernel knows.
    seat : int
        0, 1, 2 (R2).
    deck : uint8[33]
        The unseen physical cards (shuffled in place).
    bids : int64[K]
        Bid grid of the soloist branch.
    auction_state : int64[4]
        ``(stage, holder, to_move, standing)`` for the pass branch (analyzer.mechanics.bidding).
    lo, hi : int64[3]
        Bidding evidence per seat (see :func:`analyzer.mechanics.bidding.evidence_likelihood`).
    use_evidence : bool
        Weight samples by the evidence (inference) or not.
    evidence_scale : float
    opp_trick_estimate : int
        The opponents' rule-of-thumb trick estimate (their bidding model).
    policy : int
    state : uint64[4]
    kr : KernelRules
    sol_scores : int64[n, K, 3]; sol_made : uint8[n, K]; sol_contract : int8[n, K]
        OUT: soloist branch, scores by seat.
    pass_scores : int64[n, 3]; pass_soloist, pass_bid : int64[n]
        OUT: pass branch.
    weight : float64[n]
        OUT: inference weight of each sample.
    sol_trump : int8[n]
        OUT: the trump the soloist branch's exchange names (suit index, R4).
    pimc : None or int64[2]
        PIMC settings with a PIMC ``policy`` (analyzer.search.pimc.pimc_args); omitted for
        the heuristic, whose variant of this kernel then holds no PIMC code.
    """
    n = weight.shape[0]
    sizes = np.empty(3, dtype=np.int64)    # the two other hands and the Dabb (R2, V5.1)
    sizes[0] = kr.hand_size
    sizes[1] = kr.hand_size
    sizes[2] = kr.tapp_size
    masks = np.empty(3, dtype=np.int64)
    hands = np.empty((3, N_TYPES), dtype=np.uint8)
    tapp = np.empty(N_TYPES, dtype=np.uint8)
    maxb = np.empty(3, dtype=np.int64)
    out3 = np.empty(3, dtype=np.int64)
    K = bids.shape[0]
    for t in range(N_TYPES):
        hands[seat, t] = hand_counts[t]
    o1 = (seat + 1) % 3
    o2 = (seat + 2) % 3
    for i in range(n):
        deal_masks(state, deck, sizes, masks)
        mask_counts(masks[0], hands[o1])
        mask_counts(masks[1], hands[o2])
        mask_counts(masks[2], tapp)
        # inference: how well do the sampled hands explain the opponents' calls?
        w = 1.0
        v1 = rule_of_thumb_value(masks[0], kr, opp_trick_estimate)
        v2 = rule_of_thumb_value(masks[1], kr, opp_trick_estimate)
        if use_evidence:
            w *= evidence_likelihood(np.float64(v1), lo[o1], hi[o1], evidence_scale)
            w *= evidence_likelihood(np.float64(v2), lo[o2], hi[o2], evidence_scale)
        weight[i] = w
        # soloist branch
        sol_trump[i] = soloist_grid(hands, tapp, seat, bids, policy, state, kr,
                                    sol_scores[i], sol_made[i], sol_contract[i], pimc)
        # pass branch: opponents' maxima from their model, never below what they said
        m1 = rule_of_thumb_max_bid(masks[0], kr, opp_trick_estimate)
        m2 = rule_of_thumb_max_bid(masks[1], kr, opp_trick_estimate)
        if m1 < lo[o1]:
            m1 = lo[o1]
        if m2 < lo[o2]:
            m2 = lo[o2]
        maxb[seat] = 0
        maxb[o1] = m1
        maxb[o2] = m2
        sol, bid = auction_continue(maxb, kr, auction_state[0], auction_state[1],
                                    auction_state[2], auction_state[3])
        pass_soloist[i] = sol
        pass_bid[i] = bid
        if sol == seat:
            # forehand left alone at the forced opening (R3): soloist after all
            k = (bid - bids[0]) // kr.bid_step
            if 0 <= k < K and bids[k] == bid:
                for p in range(3):
                    pass_scores[i, p] = sol_scores[i, k, p]
                continue
        finish_deal(hands, tapp, sol, bid, policy, state, kr, out3, pimc)
        for p in range(3):
            pass_scores[i, p] = out3[p]


def _run_chunk(hand_counts, seat, bids, kstate, lo, hi, use_evidence, scale, opp_est, seed,
               chunk, n, rules, policy=POLICY_HEURISTIC):
    kr = rules.kernel
    K = bids.shape[0]
    deck = remaining_deck(hand_counts, rules)
    out = dict(
        sol_scores=np.empty((n, K, 3), dtype=np.int64),
        sol_made=np.empty((n, K), dtype=np.uint8),
        sol_contract=np.empty((n, K), dtype=np.int8),
        pass_scores=np.empty((n, 3), dtype=np.int64),
        pass_soloist=np.empty(n, dtype=np.int64),
        pass_bid=np.empty(n, dtype=np.int64),
        weight=np.empty(n, dtype=np.float64),
        sol_trump=np.empty(n, dtype=np.int8),
    )
    advise_samples(hand_counts, seat, deck, bids, kstate, lo, hi, use_evidence, float(scale),
                   int(opp_est), policy, chunk_state(seed, chunk), kr,
                   out["sol_scores"], out["sol_made"], out["sol_contract"], out["pass_scores"],
                   out["pass_soloist"], out["pass_bid"], out["weight"], out["sol_trump"],
                   *pimc_args(policy, kr))
    return out


def simulate_advice(hand_counts: np.ndarray, seat: int, state: AuctionState, samples: int,
                    seed, n_jobs: int, inference: bool, rules: RuleSet,
                    evidence_scale: float = DEFAULT_EVIDENCE_SCALE,
                    opp_trick_estimate: int = DEFAULT_TRICK_ESTIMATE, progress=None,
                    policy: int = POLICY_HEURISTIC):
    """Run the sampled deals (chunked, seeded per chunk: same numbers for any ``n_jobs``).

    With inference, when the weights leave fewer than ``samples * ESS_FRACTION`` effective
    samples (an auction the opponent model finds unlikely), further rounds of ``samples``
    deals are drawn, up to ``MAX_ROUNDS`` in all; chunk seeds continue the same sequence,
    so the result still depends only on the seed.  ``progress(done, planned)`` is called
    after each chunk; ``planned`` grows when a round is added.  ``policy``: the card play
    (analyzer.search.pimc.play_contract; only the play differs, never the deals, weights,
    exchange or auction).
    """
    nxt, kstate = next_legal_bid(state, seat, rules)
    bids = bid_grid(nxt, hand_counts, rules)
    lo = np.array(state.lo, dtype=np.int64)
    hi = np.array(state.hi, dtype=np.int64)
    ks = np.array(kstate, dtype=np.int64)
    res = sample_rounds(_run_chunk, lambda chunk, n: (hand_counts, seat, bids, ks, lo, hi, inference,
                                                      evidence_scale, opp_trick_estimate, seed,
                                                      chunk, n, rules, policy),
                        samples, n_jobs, inference, progress)
    res["bids"] = bids
    res["next_bid"] = nxt
    return res


def summarize_advice(res: dict, seat: int, objective: str, scores, rules: RuleSet):
    """Turn sampled deals into the table rows, the pass value and the recommended maximum
    bid."""
    w = res["weight"]
    ess = float(w.sum() ** 2 / (w ** 2).sum()) if np.isfinite(w).all() and w.sum() > 0 else 0.0
    if not np.isfinite(ess) or ess < 1.0:
        raise BinokelError("no sampled deal is consistent with the auction (the opponents' "
                           "calls are far above what their hands could bid): check the calls "
                           "(R3), or use --no-inference")
    bids = res["bids"]
    n, K = res["sol_made"].shape
    target = rules.target_score
    pass_obj = objective_values(res["pass_scores"], seat, objective, scores, res["pass_soloist"], target)
    pass_est = weighted_mean(pass_obj, w, ess)
    rows = []
    for k in range(K):
        sc = res["sol_scores"][:, k, :]
        obj = objective_values(sc, seat, objective, scores, np.full(n, seat), target)
        pm = weighted_proportion(res["sol_made"][:, k].astype(np.float64), w, ess)
        ev = weighted_mean(sc[:, seat].astype(np.float64), w, ess)
        eo = weighted_mean(obj, w, ess)
        d = weighted_mean(obj - pass_obj, w, ess)
        rows.append(table_row(bid=int(bids[k]), p_make=pm.mean, p_make_lo=pm.lo, p_make_hi=pm.hi,
                         ev_score=ev.mean, ev_score_lo=ev.lo, ev_score_hi=ev.hi,
                         ev_objective=eo.mean, ev_objective_lo=eo.lo, ev_objective_hi=eo.hi,
                         minus_pass=d.mean, minus_pass_lo=d.lo, minus_pass_hi=d.hi,
                         p_surrender=float((w * (res["sol_contract"][:, k] == 1)).sum() / w.sum()),
                         p_durch=float((w * (res["sol_contract"][:, k] >= 2)).sum() / w.sum())))
    max_bid = recommended_max_bid(res, seat, objective, scores, rules)
    last = (max_bid - int(bids[0])) // rules.bid_step if max_bid is not None else -1
    keep = table_extent([r["p_make"] for r in rows], last)
    return tuple(rows[:keep]), pass_est, max_bid, ess


# --------------------------------------------------------------------------- partners (V1, V4-V6)

#: how far above the rule of thumb an advisor partner bids, by auction form (V6.2 open
#: bidding / V1 duels): the advisor reads its partner's calls with this offset, since its
#: partner is an advisor too.  Pinochle: median of (advisor maximum - rule-of-thumb value)
#: over 80 opening hands that the advisor bids (seed 99, 150 samples): 60.
ADVISOR_PARTNER_OFFSET = {True: 60, False: 0}



@njit
def partners_workspace(tk):
    """The per-deal arrays of a partners' table kernel (V1), allocated once per chunk:
    ``hands`` uint8[5, 24] (four hands and the Dabb), ``cnt`` uint8[4, 24] and ``beat``
    int64[24] (the play's workspace and card order, analyzer.mechanics.play.beat_table),
    ``res`` int64[RES_COLS] (a played deal), ``tmp`` / ``maxb`` / ``trumps`` int64[4]
    (rule-of-thumb workspace, each seat's maximum and trump) and ``out`` int64[2] (an
    auction's bidder and bid)."""
    hands = np.zeros((5, N_TYPES), dtype=np.uint8)
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(tk, beat)
    res = np.zeros(RES_COLS, dtype=np.int64)
    tmp = np.zeros(4, dtype=np.int64)
    maxb = np.zeros(4, dtype=np.int64)
    trumps = np.zeros(4, dtype=np.int64)
    out = np.zeros(2, dtype=np.int64)
    return hands, cnt, beat, res, tmp, maxb, trumps, out


@njit
def partners_advise_samples(hand, seat, deck, ev_lo, ev_hi, use_evidence, scale, pscale, poffset, high,
                        holder, passed, next_ch, rv1, rv2, state, tk, kr, team_total,
                        other_score, pass_rel, weight, pass_own, pass_bidder, pol):
    """Monte Carlo core: ``n = weight.shape[0]`` samples (see the module docstring).

    ``hand`` uint8[24] (the only cards the kernel knows); ``deck`` uint8[n_unseen] the
    unseen cards; ``ev_lo``/``ev_hi`` int64[4] per seat the bidding evidence, read with
    the logistic ``scale`` for the opponents and ``pscale`` for the partner (0: the
    partner's calls are not used) and ``poffset`` added to the partner's modeled value
    (a partner that bids above the rule of thumb, e.g. another advisor); ``high``,
    ``holder``, ``passed`` (bit mask, V6.2) / ``next_ch`` (V1 duels) the auction state
    with ``seat`` to call; ``rv1``, ``rv2`` the rule-of-thumb parameters (V6.2: trick
    value, partner allowance; V1: the card-point estimate).  With a Dabb
    (``tk.dabb_size`` > 0) the bidder branch takes it, exchanges and names trump itself
    (one column); without, every trump is played (four columns).  OUT:
    ``team_total``/``other_score`` float64[n, 4] (the team's total, -1 when it won no
    trick; the other team's score); ``pass_rel`` float64[n]; ``weight`` float64[n].  With
    a Dabb the spare columns hold what the soloist's contract choice needs
    (analyzer.search.partner_deals.dabb_outcomes): ``other_score[:, 1]`` the other team's
    score if it goes out, ``team_total[:, 1:4]`` its estimate, Durch losers, Durch made.
    ``pass_own`` float64[n]: the team's own score in the pass branch (the other team's is
    ``pass_own - pass_rel``); ``pass_bidder`` int64[n]: who bid there (1 this team, 0 the
    other team, -1 thrown in), which the score-aware objective needs (V6.6: the bidding
    side is counted first at the game's end).  ``pol`` int64[4]: the seats' play policies
    (analyzer.search.pimc.play_policies: the team policy, or PIMC seats).
    """
    n = weight.shape[0]
    hs = tk.hand_size
    dabb = tk.dabb_size > 0
    hands, cnt, beat, res, tmp, maxb, trumps, out = partners_workspace(tk)
    oc = np.zeros(O_COLS, dtype=np.float64)
    team = seat % 2
    for i in range(n):
        deal_counts_fixed(state, deck, hands, seat, hand, hs)
        w = 1.0
        if use_evidence:
            for p in range(4):
                sc = pscale if p == (seat + 2) % 4 else scale
                if p != seat and sc > 0 and (ev_lo[p] > 0 or ev_hi[p] > 0):
                    if dabb:
                        v = rule_value_by_model(hands[p], kr, rv1, tmp)
                    else:
                        v, _t = rule_value_by_tricks(hands[p], tk, rv1, rv2, tmp)
                    if p == (seat + 2) % 4:
                        v += poffset
                    w *= evidence_likelihood(v, ev_lo[p], ev_hi[p], sc)
        weight[i] = w
        if dabb:
            # every contract of the soloist after its exchange (V4.3, V4.6, V5.4); the
            # advisor's table chooses among them per bid as the soloist would
            dabb_outcomes(hands, seat, pol, state, tk, kr, beat, cnt, res, oc)
            team_total[i, 0] = oc[O_TOTAL]
            other_score[i, 0] = oc[O_OTHER]
            other_score[i, 1] = oc[O_OUT_OTHER]
            team_total[i, 1] = oc[O_EST]
            team_total[i, 2] = oc[O_LOSERS]
            team_total[i, 3] = oc[O_DURCH_MADE]
            for p in range(4):
                maxb[p] = rule_value_by_model(hands[p], kr, rv1, tmp) // tk.bid_step * tk.bid_step
            maxb[seat] = 0
            continue_duels(maxb, high, holder, seat, next_ch, tk.min_bid, tk.bid_step,
                           tk.forced_opening, out)
            dabb_contract(hands, out[0], out[1], pol, state, tk, kr, beat, cnt, res)
            b = out[0]
        else:
            for t in range(4):
                named_trump_contract(hands[:4], seat, 0, t, pol, state, tk, beat, cnt, res)
                team_total[i, t] = res[R_SCORE + team]
                other_score[i, t] = res[R_SCORE + 1 - team]
            for p in range(4):
                mb, tr = rule_of_thumb_by_tricks(hands[p], tk, rv1, rv2, tmp)
                maxb[p] = mb
                trumps[p] = tr
            maxb[seat] = 0
            continue_open_auction(maxb, high, holder, passed, seat, tk.min_bid, tk.bid_step, out)
            b = out[0]
            named_trump_contract(hands[:4], b, out[1], trumps[b] if b >= 0 else 0, pol, state, tk,
                            beat, cnt, res)
        pass_rel[i] = res[R_SCORE + team] - res[R_SCORE + 1 - team]
        pass_own[i] = res[R_SCORE + team]
        pass_bidder[i] = -1 if b < 0 else (1 if b % 2 == team else 0)



def unseen_deck(counts, spec: TeamSpec) -> np.ndarray:
    """The cards of ``spec``'s deck not in the hand ``counts`` (24 ints), as card types."""
    full = np.bincount(spec.deck, minlength=N_TYPES)
    rest = full - np.asarray(counts, dtype=np.int64)
    if (rest < 0).any():
        raise BinokelError("the hand holds more copies of a card than the deck")
    return np.repeat(np.arange(N_TYPES, dtype=np.uint8), rest)



def auction_evidence(state, spec: TeamSpec):
    """Per seat (highest bid said, bid declined) as evidence on its hand; a forced
    opening says nothing (V5.2; analyzer.mechanics.bidding.AuctionState.lo / hi)."""
    return list(state.lo), list(state.hi)


def auction_args(state, spec: TeamSpec) -> tuple[int, int, int, int]:
    """(high, holder, passed mask, next challenger) for the kernel."""
    if spec.open_auction:
        return state.high, state.holder, state.passed_mask, 0
    return state.high, state.holder, 0, state.next_ch


def _branches_chunk(hand, seat, lo, hi, use, scale, pscale, poffset, high, holder, passed,
                    next_ch, rv1, rv2, spec, pol, seed, deck, chunk, n) -> dict:
    """One seeded chunk of :func:`partners_advise_samples` (``n`` deals; the deck is
    copied, the kernel shuffles it in place)."""
    out = dict(team_total=np.zeros((n, 4)), other=np.zeros((n, 4)), pass_rel=np.zeros(n),
               weight=np.zeros(n), pass_own=np.zeros(n), pass_bidder=np.zeros(n, dtype=np.int64))
    partners_advise_samples(hand, seat, deck.copy(), lo, hi, use, scale, pscale, poffset, high,
                            holder, passed, next_ch, rv1, rv2, chunk_state(seed, chunk), spec.tk,
                            spec.kr, out["team_total"], out["other"], out["pass_rel"],
                            out["weight"], out["pass_own"], out["pass_bidder"], pol)
    return out


def sample_branches(counts, seat: int, state, samples: int, seed, spec: TeamSpec,
                    use_evidence: bool = True, rv1: int | None = None, rv2: int | None = None,
                    scale: float = DEFAULT_EVIDENCE_SCALE, key: int = 0,
                    partner_scale: float | None = None, partner_offset: int = 0,
                    pol=None, progress=None) -> dict:
    """Run :func:`partners_advise_samples`; returns the raw per-sample arrays.

    ``pol``: the seats' play policies (default the team policy at every seat).

    ``partner_scale``: the logistic scale for the partner's calls (default ``scale``;
    0 = ignore them); ``partner_offset``: how far above the rule of thumb the partner
    bids (0: a rule-of-thumb partner).

    With the calls as evidence, rounds of ``samples`` more deals are drawn (each from its
    own seed) until the effective sample size reaches ``PARTNERS_ESS_FRACTION x samples``
    or ``MAX_ROUNDS`` rounds are done (analyzer.analyses.sample_rounds): strong evidence
    otherwise leaves a handful of samples carrying the estimate.  ``progress(done,
    planned)`` is called after each round.
    """
    n = int(samples)
    lo, hi = auction_evidence(state, spec)
    if rv1 is None:
        rv1 = DEFAULT_TRICK_VALUE if spec.open_auction else DEFAULT_DABB_ESTIMATE
    if rv2 is None:
        rv2 = DEFAULT_PARTNER_ALLOWANCE if spec.open_auction else 0
    use = bool(use_evidence) and any(lo[p] or hi[p] for p in range(4) if p != seat)
    hand = np.asarray(counts, dtype=np.uint8)
    deck = unseen_deck(counts, spec)
    fixed = (hand, seat, np.array(lo, dtype=np.int64), np.array(hi, dtype=np.int64), use,
             float(scale), float(scale if partner_scale is None else partner_scale),
             int(partner_offset), *auction_args(state, spec), int(rv1), int(rv2), spec,
             play_policies(1) if pol is None else pol, seed)
    # one chunk a round, each from its own seed (key x MAX_ROUNDS + round)
    res = sample_rounds(_branches_chunk, lambda chunk, m: (*fixed, deck, chunk, m), n, 1, use,
                        progress, chunk=n, ess_fraction=PARTNERS_ESS_FRACTION,
                        first=key * MAX_ROUNDS)
    team_total, other, weight = res["team_total"], res["other"], res["weight"]
    pass_rel, pass_own, pass_bidder = res["pass_rel"], res["pass_own"], res["pass_bidder"]
    if not np.isfinite(weight).all() or weight.sum() <= 0:
        weight = np.ones(len(weight))
    k = 1 if spec.dabb_size > 0 else 4
    raw = {"team_total": team_total[:, :k], "other": other[:, :k], "pass_rel": pass_rel,
           "weight": weight, "loss_factor": int(spec.tk.loss_factor),
           "pass_own": pass_own, "pass_bidder": pass_bidder,
           "target": int(spec.tk.target_score)}
    if spec.dabb_size > 0:
        # the soloist's contract choice after the exchange (V4.3, V4.6 Durch, V5.4)
        raw.update({"out_other": other[:, 1].copy(), "est": team_total[:, 1].copy(),
                    "losers": team_total[:, 2].copy(), "durch_made": team_total[:, 3] > 0.5,
                    "kr": spec.kr})
    return raw



def soloist_contracts(raw: dict, bids) -> np.ndarray | None:
    """int8[len(bids), n]: the contract the soloist of each sample chooses after its
    exchange at each bid (analyzer.mechanics.game.contracts_for_bids, from its
    own estimate, as in play); None without a Dabb (Pinochle always plays)."""
    if "est" not in raw:
        return None
    bids = np.asarray(bids, dtype=np.int64)
    con = np.empty((len(raw["est"]), len(bids)), dtype=np.int8)
    contracts_for_bids(raw["est"].astype(np.float64), raw["losers"].astype(np.int64),
                             bids, raw["kr"], con)
    return con.T



def bid_outcome(raw: dict, bid: int, con=None) -> tuple[np.ndarray, np.ndarray]:
    """Per (sample, trump column) at ``bid``: the relative objective (team - other team)
    and whether the team made its contract (:func:`bid_scores`)."""
    team, other, made = bid_scores(raw, bid, con)
    return team - other, made



def bid_scores(raw: dict, bid: int, con=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per (sample, trump column) at ``bid``: the team's deal score, the other team's, and
    whether the team made its contract.

    Playing: the team scores its total when it reaches the bid (V4.6, V5.7, V6.6), else
    -loss_factor x bid.  ``con`` (a row of :func:`soloist_contracts`): the soloist's
    choice per sample; going out (V4.3, V5.4) scores -bid against the other team's melds +
    bonus and is never made; a sure Durch (V4.6 "Durch as V2.7") scores +value or
    -durch_loss_factor x value against 0, the bid playing no part.
    """
    tt, oth = raw["team_total"], raw["other"]
    lf = float(raw.get("loss_factor", 1))
    made = tt >= bid
    team = np.where(made, tt, -lf * float(bid))
    if con is None:
        return team, oth, made
    kr = raw["kr"]
    value = np.where(con == CONTRACT_OPEN_DURCH, kr.open_durch_value, kr.durch_value)
    dm = raw["durch_made"]
    is_durch = (con == CONTRACT_DURCH) | (con == CONTRACT_OPEN_DURCH)
    is_out = con == CONTRACT_SURRENDER
    team0 = np.where(is_out, -float(bid),
                     np.where(is_durch, np.where(dm, value, -kr.durch_loss_factor * value),
                              team[:, 0]))
    other0 = np.where(is_out, raw["out_other"], np.where(is_durch, 0.0, oth[:, 0]))
    made0 = np.where(is_out, False, np.where(is_durch, dm, made[:, 0]))
    return (team0[:, None].astype(float), other0[:, None].astype(float), made0[:, None])



def pass_values(raw: dict, objective: str = "relative", scores=None) -> np.ndarray:
    """The pass branch's per-sample objective (:func:`side_objective_values`)."""
    if objective == "relative":
        return raw["pass_rel"]
    own = raw["pass_own"]
    return side_objective_values(raw, own, own - raw["pass_rel"], raw["pass_bidder"], objective,
                             scores)



def bid_values(raw: dict, bids: np.ndarray, objective: str = "relative",
               scores=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Weighted mean objective per (bid, trump column), and per bid the best column and
    its per-sample objective values (bidder branch; :func:`bid_scores`; ``objective``
    and ``scores`` as :func:`side_objective_values`)."""
    w = raw["weight"]
    sw = w.sum()
    con = soloist_contracts(raw, bids)
    ev = np.empty((len(bids), raw["team_total"].shape[1]))
    best_t = np.empty(len(bids), dtype=np.int64)
    per = np.empty((len(bids), raw["team_total"].shape[0]))
    for j, b in enumerate(bids):
        team, other, _made = bid_scores(raw, int(b), None if con is None else con[j])
        rel = side_objective_values(raw, team, other, 1, objective, scores)
        ev[j] = (w[:, None] * rel).sum(axis=0) / sw
        best_t[j] = int(np.argmax(ev[j]))
        per[j] = rel[:, best_t[j]]
    return ev, best_t, per



def summarize_partners_advice(raw: dict, next_bid: int, step: int, rows: int | None = None,
                          over_partner: bool = False, objective: str = "relative",
                          scores=None):
    """(max bid or None, table rows, pass estimate, ess) from :func:`sample_branches`.

    ``objective``: ``relative`` (team minus the other team's deal score) or ``win`` (the
    estimated P(win game), :func:`side_win_probability`, from ``scores`` = the game
    totals (this team, the other team) before the deal).

    ``rows``: at most this many table rows (None: :func:`analyzer.analyses.advice.table_extent`,
    the three-player tables' rule: past the recommended bid until P(make) is small).

    ``over_partner``: the standing bid is the partner's (:func:`bids_over_partner`); a bid then
    counts only while its paired gain over passing is significant (the lower end of its
    95 % CI above 0), not merely positive.  Why: outbidding the partner never moves the
    contract to the other team; it only swaps which partner plays, 10 points dearer.  Its
    true gain is small, while the estimate's noise (SE about 50 at 100 samples) is large, so
    acting on a positive mean picks mostly noise (measured in docs/methods.md: the
    team advisor's bids over its partner cost its team points in duplicate play).
    """
    w = raw["weight"]
    ess = effective_sample_size(w)
    bids = sampled_bid_grid(raw, next_bid, step)
    ev, best_t, per = bid_values(raw, bids, objective, scores)
    con = soloist_contracts(raw, bids)
    pv = pass_values(raw, objective, scores)
    pass_est = weighted_mean(pv, w, ess)
    named = raw["team_total"].shape[1] > 1
    out_rows = []
    max_bid = None
    run = True
    for j, b in enumerate(bids):
        t = int(best_t[j])
        made = bid_outcome(raw, int(b), None if con is None else con[j])[1][:, t]
        pm = weighted_proportion(made.astype(float), w, ess)
        e = weighted_mean(per[j], w, ess)
        d = weighted_mean(per[j] - pv, w, ess)
        if run and (d.lo > 0 if over_partner else e.mean >= pass_est.mean):
            max_bid = int(b)
        else:
            run = False
        out_rows.append({"bid": int(b), "trump": t if named else None, "p_make": pm.mean,
                         "p_make_lo": pm.lo, "p_make_hi": pm.hi, "ev": e.mean,
                         "ev_lo": e.lo, "ev_hi": e.hi, "ev_se": e.se, "minus_pass": d.mean,
                         "minus_pass_lo": d.lo, "minus_pass_hi": d.hi})
        if con is not None:
            # weighted shares of the soloist's choices after the exchange at this bid
            sw = w.sum()
            out_rows[-1]["p_out"] = float(w[con[j] == CONTRACT_SURRENDER].sum() / sw)
            out_rows[-1]["p_durch"] = float(
                w[(con[j] == CONTRACT_DURCH) | (con[j] == CONTRACT_OPEN_DURCH)].sum() / sw)
    last = -1 if max_bid is None else (max_bid - next_bid) // step
    keep = table_extent([r["p_make"] for r in out_rows], last)
    if rows is not None:
        keep = min(keep, rows)
    return max_bid, out_rows[:keep], pass_est, ess
