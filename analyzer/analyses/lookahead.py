"""Bid advice that looks ahead in the auction (R3, R4, R8, R9; V1, V4-V6), for every table.

A lone soloist's table is described below (:func:`advise_lookahead`).  At a partners'
table (V1: seats s and s + 2) the same question is asked of the team: passing, or
stopping at M, may leave the contract to the partner (good: the team still plays it,
perhaps at a lower price) or to an opponent, and a duel with the partner (V1's chain of
duels sets partners against each other too) only pushes the team's own price.  There the
other three seats' maxima come from :class:`PartnersModel` (the rule of thumb of
analyzer.mechanics.bidding plus an offset, or the fitted advisor model; the partner
may have its own), the auction is finished per plan by the game's form
(:func:`plan_partner_auctions`: the chain of duels or the open V6.2 auction), each seat
that becomes the bidder plays the deal once (:func:`bidder_outcomes`: the score at any
price follows, V4.6, V5.7, V6.6; with a Dabb the soloist's contract at that price, V4.3,
V4.6, V5.4), and the objective is the team's deal score minus the other team's
(:func:`advise_partners_lookahead`; docs/methods.md#team-lookahead).  Both tables share
the plan rule (:func:`choose_plan`), the table's extent
(analyzer.analyses.advice_grid.plan_table_extent), the seeded rounds
(analyzer.analyses.sample_rounds) and the result type (:class:`LookaheadAdvice`).  The
partners' models sit here, beside their look-ahead; they read the partners' bid-model
inputs of analyzer.analyses.bid_model_fit.

The static advisor (analyzer.analyses.advice) compares "soloist at B" with "pass now" on
every sampled deal, as if saying B always bought the contract at B.  But you play at B
only in the deals where the opponents stop below B (the deals where they are weaker), you
often buy it for less than your maximum, and when you stop, the opponent who outbids you
plays at a higher bid.  This module answers the question a bidder actually faces:

    "If I bid up to M (raise while the next bid is at most M, then pass), what happens?"

Method (docs/methods.md#lookahead states it for users)
--------------------------------------------
Per sampled deal (the 33 unseen cards split uniformly into the two opponents' hands and
the Tapp, R2):

1. **Opponents' maxima.** Each opponent's value ``v`` comes from its sampled hand under
   the chosen opponent model (analyzer.analyses.opponents).  The sample is weighted by the
   likelihood of the calls the opponent already made (inference), and its maximum for the
   rest of the auction is drawn from the model's noise truncated to what those calls
   allow: so every opponent calls from now on as the model says it then must.
2. **The auction, for every M.** For "pass now" and for each M of the bid grid, the R3
   auction is finished (analyzer.mechanics.bidding.auction_continue) with this hand
   bidding up to M: who becomes soloist, and at which bid.
3. **The deal.** Each seat that becomes soloist for some M exchanges (R4) and the deal is
   played once for that seat, scored at every bid of a grid (discard and trump do not
   depend on the bid): this hand with the analyzer's Monte Carlo exchange
   (analyzer.search.deals.soloist_grid), an opponent with the fast one
   (analyzer.search.deals.soloist_outcomes).
   So each M's outcome is a played, scored deal at the price the auction ended at.

``V(M)`` = weighted mean objective over the deals (objective as in advice.py: relative,
own, or P(win game) with scores).  The recommended maximum is the M with the highest
``V(M)``; "pass" when no M beats passing.  ``V(M) - V(M')`` for ``M' < M`` differs only on
the deals where the auction reaches M, so comparing ``V`` is comparing "raise, then keep
to the plan" with "pass there" on exactly the deals where the question arises.  Where no
sampled deal reaches a bid (a run of exactly equal ``V``), the plan extends over the run
only as far as the static rule (soloist at B at least as good as passing) allows.

Only this hand, its seat, the auction and the scores enter; other hands are samples.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from analyzer._jit import njit
from analyzer.analyses.advice_grid import SAMPLED_GRID_SIZE, bid_grid, next_legal_bid, plan_table_extent
from analyzer.analyses.advice_result import BidAdvice, advice_notes, row_views, table_row
from analyzer.analyses.advice_samples import (PARTNERS_ESS_FRACTION, auction_args,
                                              auction_evidence, partners_workspace, unseen_deck)
from analyzer.analyses.objectives import objective_values, recommended_max_bid
from analyzer.analyses.opponents import OpponentModel, model_value, sample_max
from analyzer.analyses.sample_rounds import MAX_ROUNDS, sample_rounds
from analyzer.analyses.bid_model_fit import (KIND_FIT, KIND_OFFSET, N_PARTNER_FEATURES,
                                             ADVISOR_OFFSET, partner_fit_entry,
                                             partner_model_value)
from analyzer.analyses.weighted_stats import Estimate, effective_sample_size, weighted_mean, weighted_proportion
from analyzer.errors import BinokelError
from analyzer.mechanics.bidding import (DEFAULT_EVIDENCE_SCALE, FOREHAND, SEAT_NAMES,
                                        AuctionState, auction_continue, evidence_likelihood)
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.exchange import CONTRACT_DURCH, CONTRACT_OPEN_DURCH, CONTRACT_SURRENDER
from analyzer.mechanics.game import contract_for_bid
from analyzer.mechanics.play import POLICY_HEURISTIC
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import RuleSet, TeamSpec
from analyzer.mechanics.sampling import deal_masks, mask_counts, remaining_deck
from analyzer.mechanics.bidding import (DEFAULT_PARTNER_ALLOWANCE, DEFAULT_DABB_ESTIMATE,
                                        DEFAULT_TRICK_VALUE, continue_open_auction, continue_duels)
from analyzer.mechanics.game import (O_COLS,
                                     O_DURCH_MADE,
                                     O_EST,
                                     O_LOSERS,
                                     O_OTHER,
                                     O_OUT_OTHER,
                                     O_TOTAL,
                                     R_SCORE)
from analyzer.search.partner_deals import dabb_outcomes, named_trump_contract
from analyzer.mechanics.sampling import deal_counts_fixed
from analyzer.search.deals import finish_deal, soloist_grid, soloist_outcomes


@njit
def _copy_or_play(hands, tapp, sol, bid, grid, grid_scores, policy, state, kr, dst):
    """dst = the scores of soloist ``sol`` at ``bid``: from its grid when the bid is on it,
    else played on its own (a duel between the opponents beyond the grid)."""
    k = (bid - grid[0]) // kr.bid_step
    if 0 <= k < grid.shape[0] and grid[k] == bid:
        for p in range(3):
            dst[p] = grid_scores[k, p]
    else:
        out = np.empty(3, dtype=np.int64)
        finish_deal(hands, tapp, sol, bid, policy, state, kr, out)
        for p in range(3):
            dst[p] = out[p]


@njit
def plan_auctions(maxb, seat, bids, auction_state, kr, sol_out, bid_out):
    """Finish the R3 auction from ``auction_state`` once per plan of this seat: pass now
    (index 0) or bid up to ``bids[j - 1]`` (index j); the other seats bid up to
    ``maxb[seat']``.  ``sol_out``/``bid_out`` (int64[K + 1]) get the soloist and final bid
    (analyzer.mechanics.bidding.auction_continue).  ``maxb[seat]`` is overwritten."""
    for j in range(bids.shape[0] + 1):
        maxb[seat] = 0 if j == 0 else bids[j - 1]
        sol, bid = auction_continue(maxb, kr, auction_state[0], auction_state[1],
                                    auction_state[2], auction_state[3])
        sol_out[j] = sol
        bid_out[j] = bid


@njit
def lookahead_samples(hand_counts, seat, deck, bids, opp_bids, auction_state, lo, hi,
                      use_evidence, kind, coef, scale, trick_estimate, policy, state, kr,
                      sol_scores, sol_made, sol_contract, la_scores, la_sol, la_bid, weight):
    """Monte Carlo core of the look-ahead advisor: ``n = weight.shape[0]`` sampled deals.

    Parameters
    ----------
    hand_counts : uint8[24]
        The advised hand.  The only cards the kernel knows.
    seat : int
        0, 1, 2 (R2); it is this seat's call.
    deck : uint8[33]
        The unseen physical cards (shuffled in place).
    bids : int64[K]
        This hand's maxima to try: the next legal bid upward in steps (R3).
    opp_bids : int64[KO]
        Bid grid on which an opponent's deal is scored (from the standing bid up).
    auction_state : int64[4]
        ``(stage, holder, to_move, standing)`` (analyzer.mechanics.bidding).
    lo, hi : int64[3]
        Bidding evidence per seat (highest bid said, bid declined; 0 = none).
    use_evidence : bool
        Weight by the evidence and draw the opponents' maxima conditional on it.
    kind, coef, scale, trick_estimate :
        The opponent model (analyzer.analyses.opponents.OpponentModel.kernel_args).
    policy : int; state : uint64[4]; kr : KernelRules
    sol_scores : int64[n, K, 3]; sol_made : uint8[n, K]; sol_contract : int8[n, K]
        OUT: this hand as soloist at each bid of ``bids`` (the static table).
    la_scores : int64[n, K + 1, 3]
        OUT: deal scores by seat when this hand passes now (index 0) or bids up to
        ``bids[j - 1]`` (index j).
    la_sol, la_bid : int64[n, K + 1]
        OUT: soloist seat (-1: no soloist) and final bid of each of those auctions.
    weight : float64[n]
        OUT: inference weight.
    """
    n = weight.shape[0]
    K = bids.shape[0]
    sizes = np.array([kr.hand_size, kr.hand_size, kr.tapp_size], dtype=np.int64)
    masks = np.empty(3, dtype=np.int64)
    hands = np.empty((3, N_TYPES), dtype=np.uint8)
    tapp = np.empty(N_TYPES, dtype=np.uint8)
    maxb = np.zeros(3, dtype=np.int64)
    KO = opp_bids.shape[0]
    o_scores = np.empty((KO, 3), dtype=np.int64)
    o_made = np.empty(KO, dtype=np.uint8)
    o_contract = np.empty(KO, dtype=np.int8)
    for t in range(N_TYPES):
        hands[seat, t] = hand_counts[t]
    opp = np.array([(seat + 1) % 3, (seat + 2) % 3], dtype=np.int64)
    for i in range(n):
        deal_masks(state, deck, sizes, masks)
        mask_counts(masks[0], hands[opp[0]])
        mask_counts(masks[1], hands[opp[1]])
        mask_counts(masks[2], tapp)
        w = 1.0
        for j in range(2):
            o = opp[j]
            v = model_value(masks[j], o, kind, coef, trick_estimate, kr)
            if use_evidence:
                w *= evidence_likelihood(v, lo[o], hi[o], scale)
            maxb[o] = sample_max(v, lo[o], hi[o], scale, use_evidence, kr.bid_step, state)
        weight[i] = w
        # this hand's choices as soloist: the one model of analyze and advise (soloist_grid);
        # the opponents, simulated players, keep the fast exchange (soloist_outcomes)
        soloist_grid(hands, tapp, seat, bids, policy, state, kr, sol_scores[i],
                     sol_made[i], sol_contract[i])
        need0 = False
        need1 = False
        plan_auctions(maxb, seat, bids, auction_state, kr, la_sol[i], la_bid[i])
        for j in range(K + 1):
            sol = la_sol[i, j]
            bid = la_bid[i, j]
            if sol == seat:
                _copy_or_play(hands, tapp, sol, bid, bids, sol_scores[i], policy, state, kr,
                              la_scores[i, j])
            elif sol == opp[0]:
                need0 = True
            elif sol == opp[1]:
                need1 = True
            else:  # no soloist (a thrown-in deal): nobody scores
                for p in range(3):
                    la_scores[i, j, p] = 0
        for j in range(2):
            if (j == 0 and not need0) or (j == 1 and not need1):
                continue
            o = opp[j]
            soloist_outcomes(hands, tapp, o, opp_bids, policy, state, kr, o_scores, o_made,
                             o_contract)
            for jj in range(K + 1):
                if la_sol[i, jj] == o:
                    _copy_or_play(hands, tapp, o, la_bid[i, jj], opp_bids, o_scores, policy,
                                  state, kr, la_scores[i, jj])


def _run_chunk(hand_counts, seat, bids, opp_bids, kstate, lo, hi, use_evidence, model_args,
               seed, chunk, n, rules):
    kr = rules.kernel
    K = bids.shape[0]
    deck = remaining_deck(hand_counts, rules)
    kind, coef, scale, est = model_args
    out = dict(
        sol_scores=np.empty((n, K, 3), dtype=np.int64),
        sol_made=np.empty((n, K), dtype=np.uint8),
        sol_contract=np.empty((n, K), dtype=np.int8),
        la_scores=np.empty((n, K + 1, 3), dtype=np.int64),
        la_sol=np.empty((n, K + 1), dtype=np.int64),
        la_bid=np.empty((n, K + 1), dtype=np.int64),
        weight=np.empty(n, dtype=np.float64),
    )
    lookahead_samples(hand_counts, seat, deck, bids, opp_bids, kstate, lo, hi, use_evidence,
                      kind, coef, scale, est, POLICY_HEURISTIC, chunk_state(seed, chunk), kr,
                      out["sol_scores"], out["sol_made"], out["sol_contract"], out["la_scores"],
                      out["la_sol"], out["la_bid"], out["weight"])
    return out


def simulate_lookahead(hand_counts: np.ndarray, seat: int, state: AuctionState, samples: int,
                       seed, n_jobs: int, inference: bool, rules: RuleSet,
                       model: OpponentModel, progress=None) -> dict:
    """Run the sampled deals (chunked, seeded per chunk: same numbers for any ``n_jobs``).

    As in analyzer.analyses.advice_samples.simulate_advice, further rounds are drawn while the
    inference weights leave fewer than ``samples * ESS_FRACTION`` effective samples.
    Returns the kernel's arrays concatenated, plus ``bids``, ``opp_bids``, ``next_bid``,
    and the pass-branch keys of the static advisor (``pass_scores``, ``pass_soloist``,
    ``pass_bid``) so that analyzer.analyses.advice_samples.summarize_advice reads it too.
    ``progress(done, planned)`` is called after each chunk (as in simulate_advice).
    """
    nxt, kstate = next_legal_bid(state, seat, rules)
    step = rules.bid_step
    bids = bid_grid(nxt, hand_counts, rules)
    standing = int(kstate[3])
    opp_bids = standing + step * np.arange(bids.shape[0] + 2, dtype=np.int64)
    lo = np.array(state.lo, dtype=np.int64)
    hi = np.array(state.hi, dtype=np.int64)
    ks = np.array(kstate, dtype=np.int64)
    margs = model.kernel_args()
    res = sample_rounds(_run_chunk, lambda chunk, n: (hand_counts, seat, bids, opp_bids, ks, lo, hi,
                                                      bool(inference), margs, seed, chunk, n, rules),
                        samples, n_jobs, inference, progress)
    res.update(bids=bids, opp_bids=opp_bids, next_bid=nxt,
               pass_scores=res["la_scores"][:, 0, :], pass_soloist=res["la_sol"][:, 0],
               pass_bid=res["la_bid"][:, 0])
    return res


# --------------------------------------------------------------------------- decision


def plan_values(res: dict, seat: int, objective: str, scores, rules: RuleSet) -> np.ndarray:
    """Per-sample objective of every plan: float[n, K + 1] (column 0 = pass now, column j
    = bid up to ``bids[j - 1]``)."""
    n, J = res["la_sol"].shape
    target = rules.target_score
    out = np.empty((n, J))
    for j in range(J):
        sol = res["la_sol"][:, j]
        out[:, j] = objective_values(res["la_scores"][:, j, :], seat, objective, scores, sol, target)
    return out


def static_break_even(res: dict, seat: int, objective: str, scores, rules: RuleSet):
    """Index j (>= 1) of the last bid with E[objective | soloist at it] >= E[objective |
    pass now], counting up from the next bid (the static advisor's rule); 0 = none."""
    mb = recommended_max_bid(res, seat, objective, scores, rules)
    if mb is None:
        return 0
    return int((mb - int(res["bids"][0])) // rules.bid_step) + 1


def lookahead_max_bid(res: dict, seat: int, objective: str, scores, rules: RuleSet,
                      values: np.ndarray | None = None):
    """The recommended plan: ``(max_bid or None, j, V)``; ``V`` = weighted mean of each
    plan's objective (float[K + 1]).

    ``j`` = the plan with the highest ``V`` (0 = pass now).  Plans with exactly equal ``V``
    (no sampled auction reaches the bids between them) form a run; the plan is the highest
    of the run not above the static break-even bid, else the lowest of the run.
    """
    w = res["weight"]
    vals = plan_values(res, seat, objective, scores, rules) if values is None else values
    V = (w[:, None] * vals).sum(axis=0) / w.sum()
    forced_open = (rules.forced_opening and seat == FOREHAND
                   and int(res["next_bid"]) == rules.bid_start)
    max_j, j = choose_plan(V, lambda: static_break_even(res, seat, objective, scores, rules),
                           forced_open)
    return (None if max_j is None else int(res["bids"][max_j - 1])), j, V


@dataclass
class LookaheadAdvice(BidAdvice):
    """:class:`~analyzer.analyses.advice_result.BidAdvice` of the look-ahead advisor.

    ``rows`` / ``table`` (one row per maximum M): ``bid`` (= M), ``value`` (+ ``_lo``/``_hi``: E[objective]
    when bidding up to M), ``minus_pass`` (+ CI, paired), ``p_soloist`` (+ CI: P(you become
    soloist) bidding up to M), ``p_make_if_soloist``, ``mean_price`` (mean final bid when
    you are soloist), ``p_make`` (static: P(make) as soloist at M), and, under the
    recommended plan, ``p_buy_at`` (P(soloist at exactly this bid)) and ``p_buy_by`` (at
    this bid or less).
    """

    opponents: str = "rule"
    opponents_description: str = ""
    plan_index: int = 0
    p_soloist: Estimate | None = None
    static_max_bid: int | None = None
    partner: str = ""             # partners (V1): the partner's model
    pass_outcome: dict = field(default_factory=dict)   # partners: who bids if you pass now

    def summary(self) -> str:
        if self.partners:
            return self._partners_summary()
        lines = [f"rules: {self.rules}   hand: {self.hand.show(self.low_card)}   seat: "
                 f"{SEAT_NAMES[self.seat]}   auction: {self.auction.describe()}"]
        obj = {"relative": "own score - mean of opponents' scores", "own": "own score",
               "win": "P(win game)"}[self.objective]
        lines.append(f"objective: {obj}   samples: {self.samples} (effective {self.ess:.0f})")
        lines.append(f"look-ahead: the auction is played out for every maximum; opponents: "
                     f"{self.opponents_description}")
        pct = self.objective == "win"
        fv = (lambda m, a, b: f"{100 * m:5.1f}% [{100 * a:.1f}-{100 * b:.1f}]") if pct else \
            (lambda m, a, b: f"{m:+7.1f} [{a:+.0f}, {b:+.0f}]")
        lines.append(f"{'up to':>7}  {'E[objective]':>22}  {'vs pass':>8}  {'P(soloist)':>10}  "
                     f"{'price':>6}  {'P(make)':>7}  {'buy at':>6}  {'by':>5}")
        # consecutive maxima with the same outcome on every deal (your turns come every
        # other bid in a duel, R3) print as one row "170-180"
        runs = []
        for r in row_views(self.rows):
            key = (round(r.value, 6), round(r.p_soloist, 6), round(r.p_buy_at, 6))
            if runs and runs[-1][0] == key:
                runs[-1][2] = r.bid
                continue
            runs.append([key, r, r.bid])
        for _, r, last in runs:
            label = f"{r.bid}" if last == r.bid else f"{r.bid}-{last}"
            mark = " <" if self.max_bid is not None and r.bid <= self.max_bid <= last else ""
            diff = f"{100 * r.minus_pass:+7.1f}%" if pct else f"{r.minus_pass:+8.1f}"
            price = f"{r.mean_price:6.0f}" if r.p_soloist > 0 else "     -"
            pm = f"{100 * r.p_make_if_soloist:6.0f}%" if r.p_soloist > 0 else "      -"
            lines.append(f"{label:>7}  {fv(r.value, r.value_lo, r.value_hi):>22}  {diff:>8}  "
                         f"{100 * r.p_soloist:9.0f}%  {price}  {pm}  {100 * r.p_buy_at:5.0f}%  "
                         f"{100 * r.p_buy_by:4.0f}%{mark}")
        lines.append(f"pass now: E[objective] {fv(self.pass_value.mean, self.pass_value.lo, self.pass_value.hi)}")
        lines.append("(up to: bid up to this and stop; price: mean bid you buy it at; P(make): when you are "
                     "soloist; buy at / by: under the recommended plan, P(you become soloist at exactly / "
                     "at most this bid))")
        lines += [f"note: {n}" for n in self.notes]
        lines.append(self.explanation)
        return "\n".join(lines)

    def to_dict(self) -> dict:
        if self.partners:
            return self._partners_dict()
        d = super().to_dict()
        d.update(lookahead=True, opponents=self.opponents,
                 p_soloist=self.p_soloist.to_dict() if self.p_soloist else None,
                 static_max_bid=self.static_max_bid)
        return d


    def _partners_summary(self) -> str:
        """The look-ahead table of a partners game (V1): P(you) and P(team) per maximum."""
        team = self.seat % 2
        lines = [f"{self.rules}   hand: {self.hand}",
                 f"seat: {self.seat} (team {team}: seats {team}+{team + 2})"
                 f"   auction: {self.auction.describe()}",
                 f"objective: team score - other team's score   samples: {self.samples} "
                 f"(effective {self.ess:.0f})",
                 f"look-ahead: the auction is played out for every maximum; opponents: "
                 f"{self.opponents}, partner: {self.partner} ({self.opponents_description})",
                 f"{'up to':>7}  {'E[objective]':>22}  {'vs pass':>8}  {'P(you)':>6}  "
                 f"{'P(team)':>7}  {'price':>6}  {'P(make)':>7}  {'buy at':>6}  {'by':>5}"]
        runs = []
        for r in self.rows:
            key = (round(r["value"], 6), round(r["p_soloist"], 6), round(r["p_buy_at"], 6),
                   round(r["p_team"], 6))
            if runs and runs[-1][0] == key:
                runs[-1][2] = r["bid"]
                continue
            runs.append([key, r, r["bid"]])
        for _, r, last in runs:
            label = f"{r['bid']}" if last == r["bid"] else f"{r['bid']}-{last}"
            mark = " <" if self.max_bid is not None and r["bid"] <= self.max_bid <= last else ""
            price = f"{r['mean_price']:6.0f}" if r["p_soloist"] > 0 else "     -"
            pm = f"{100 * r['p_make_if_soloist']:6.0f}%" if r["p_soloist"] > 0 else "      -"
            val = f"{r['value']:+7.1f} [{r['value_lo']:+.0f}, {r['value_hi']:+.0f}]"
            lines.append(f"{label:>7}  {val:>22}  {r['minus_pass']:+8.1f}  "
                         f"{100 * r['p_soloist']:5.0f}%  {100 * r['p_team']:6.0f}%  {price}  {pm}  "
                         f"{100 * r['p_buy_at']:5.0f}%  {100 * r['p_buy_by']:4.0f}%{mark}")
        pv = self.pass_value
        po = self.pass_outcome
        lines.append(f"pass now: E[objective] {pv.mean:+.1f} [{pv.lo:+.0f}, {pv.hi:+.0f}]; "
                     f"partner bidder {100 * po['partner']:.0f}%, opponent {100 * po['opponent']:.0f}%, "
                     f"thrown in {100 * po['thrown_in']:.0f}%")
        lines.append("(up to: bid up to this and stop; P(you) / P(team): you / you or your partner "
                     "become the bidder; price: mean bid you buy it at; P(make): when you are the "
                     "bidder; buy at / by: under the recommended plan, P(you become the bidder at "
                     "exactly / at most this bid))")
        if self.static_max_bid != self.max_bid:
            st = "pass" if self.static_max_bid is None else f"up to {self.static_max_bid}"
            lines.append(f"note: the static team advisor's rule on the same samples says {st}")
        lines.append(self.explanation)
        return "\n".join(lines)


    def _partners_dict(self) -> dict:
        return {"rules": self.rules, "hand": self.hand.codes(self.low_card),
                "seat": self.seat,
                "team": self.seat % 2, "auction": list(self.auction.bids),
                "samples": self.samples, "effective_samples": self.ess,
                "next_bid": self.next_bid, "max_bid": self.max_bid, "lookahead": True,
                "opponents": self.opponents, "partner": self.partner,
                "pass_value": self.pass_value.to_dict(), "pass_outcome": self.pass_outcome,
                "p_soloist": self.p_soloist.to_dict(), "static_max_bid": self.static_max_bid,
                "explanation": self.explanation, "table": self.rows}


def _lookahead_table(res, seat, objective, scores, rules, vals, j_best):
    w = res["weight"]
    sw = w.sum()
    ess = float(sw ** 2 / (w ** 2).sum())
    bids = res["bids"]
    K = bids.shape[0]
    pass_obj = vals[:, 0]
    sol_plan = res["la_sol"][:, j_best]
    bid_plan = res["la_bid"][:, j_best]
    mine_plan = sol_plan == seat
    rows = []
    for j in range(1, K + 1):
        b = int(bids[j - 1])
        v = weighted_mean(vals[:, j], w, ess)
        d = weighted_mean(vals[:, j] - pass_obj, w, ess)
        mine = res["la_sol"][:, j] == seat
        ps = weighted_proportion(mine.astype(np.float64), w, ess)
        wm = (w * mine).sum()
        made = mine & (res["la_scores"][:, j, seat] > 0)
        rows.append(table_row(
            bid=b, value=v.mean, value_lo=v.lo, value_hi=v.hi,
            minus_pass=d.mean, minus_pass_lo=d.lo, minus_pass_hi=d.hi,
            p_soloist=ps.mean, p_soloist_lo=ps.lo, p_soloist_hi=ps.hi,
            p_make_if_soloist=float((w * made).sum() / wm) if wm > 0 else float("nan"),
            mean_price=float((w * mine * res["la_bid"][:, j]).sum() / wm) if wm > 0 else float("nan"),
            p_make=float((w * res["sol_made"][:, j - 1]).sum() / sw),
            p_buy_at=float((w * (mine_plan & (bid_plan == b))).sum() / sw),
            p_buy_by=float((w * (mine_plan & (bid_plan <= b))).sum() / sw),
        ))
    # show the grid up to a few rows past the plan, or until the static P(make) has fallen away
    return tuple(rows[:plan_table_extent([r["p_make"] for r in rows], j_best)]), ess


def _explain(rows, pass_est, max_bid, next_bid, objective, forced_open, p_sol, j_best, V):
    table = row_views(rows)
    pct = objective == "win"
    f = (lambda v: f"{100 * v:.1f}%") if pct else (lambda v: f"{v:+.0f}")
    what = "P(win game)" if pct else "EV"
    if max_bid is None:
        # the best plan that bids on (beyond the forced opening, which is passing's twin)
        first = 2 if forced_open else 1
        if len(V) <= first:
            return "pass: there is no bid left on the grid."
        k = first - 1 + int(np.argmax(V[first:]))
        r = table[min(k, len(table) - 1)]
        head = "stop at the forced 150 (R3) and pass after" if forced_open else "pass"
        return (f"{head}: the best plan that bids on (up to {int(r.bid)}) is worth {what} "
                f"{f(r.value)}, passing {f(pass_est.mean)}; bidding on would make you soloist in "
                f"{100 * r.p_soloist:.0f}% of deals.")
    r = next(r for r in table if r.bid == max_bid)
    # the median price: the lowest bid by which half of your purchases have happened
    buys = [r for r in table if r.p_buy_at > 0]
    msg = (f"bid up to {max_bid}: you become soloist in {100 * p_sol.mean:.0f}% of deals "
           f"[{100 * p_sol.lo:.0f}-{100 * p_sol.hi:.0f}]")
    if len(buys) and p_sol.mean > 0:
        half = next(r for r in table if r.p_buy_by >= p_sol.mean / 2)
        if int(half.bid) < max_bid:
            msg += f", at {int(half.bid)} or less in {100 * half.p_buy_by:.0f}%"
        if r.p_soloist > 0:
            msg += f"; as soloist you make it in {100 * r.p_make_if_soloist:.0f}%"
    if p_sol.mean < 0.05:
        msg += (" (this pushes the price: the opponent who buys it must make a higher bid, "
                "R8)")
    return msg + f"; {what} {f(r.value)} against {f(pass_est.mean)} for passing now."


def advise_lookahead(h, s: int, state: AuctionState, scores, objective: str, samples: int,
                     seed, n_jobs: int, inference: bool, rules: RuleSet,
                     model: OpponentModel, progress=None) -> LookaheadAdvice:
    """The look-ahead advice for validated inputs (called by advice.advise_bid)."""
    res = simulate_lookahead(h.counts_array().astype(np.uint8), s, state, samples, seed,
                             n_jobs, inference, rules, model, progress=progress)
    w = res["weight"]
    if not np.isfinite(w).all() or w.sum() <= 0:
        raise BinokelError("no sampled deal is consistent with the auction: check the calls (R3)")
    vals = plan_values(res, s, objective, scores, rules)
    max_bid, j_best, V = lookahead_max_bid(res, s, objective, scores, rules, vals)
    table, ess = _lookahead_table(res, s, objective, scores, rules, vals, j_best)
    pass_est = weighted_mean(vals[:, 0], w, ess)
    p_sol = weighted_proportion((res["la_sol"][:, j_best] == s).astype(np.float64), w, ess)
    forced_open = s == FOREHAND and not state.calls and rules.forced_opening
    expl = _explain(table, pass_est, max_bid, res["next_bid"], objective, forced_open, p_sol,
                    j_best, V)
    static = static_break_even(res, s, objective, scores, rules)
    static_bid = int(res["bids"][static - 1]) if static else None
    return LookaheadAdvice(h, s, state, objective, int(w.shape[0]), ess, int(res["next_bid"]),
                           max_bid, pass_est, table, expl, forced_open, None, inference, scores,
                           seed, advice_notes(state, s, int(w.shape[0]), ess, rules),
                           rules.name, rules.low_card, opponents=model.name, opponents_description=model.description,
                           plan_index=j_best, p_soloist=p_sol, static_max_bid=static_bid)


# --------------------------------------------------------------------------- partners (V1, V4-V6)

#: the team look-ahead's models of how the other three seats bid
PARTNERS_MODELS = ("rule", "advisor")



@dataclass(frozen=True)
class PartnersModel:
    """A bidding model for the seats of a team game, with logistic noise of scale
    ``scale``: the rule of thumb + ``offset`` (``kind`` 0; the team advisor's inference
    model when ``offset`` is 0) or linear in analyzer.analyses.bid_model_fit's partner features with
    ``coef`` (``kind`` 1, the fitted model of the team advisor)."""

    name: str
    offset: int
    scale: float
    description: str
    kind: int = KIND_OFFSET
    coef: tuple = ()

    def coef_array(self) -> np.ndarray:
        c = np.zeros(N_PARTNER_FEATURES, dtype=np.float64)
        if self.coef:
            c[:] = np.asarray(self.coef, dtype=np.float64)
        return c



def offset_partners_model(spec: TeamSpec, scale: float = DEFAULT_EVIDENCE_SCALE) -> PartnersModel:
    """The team advisor as the rule of thumb + :data:`ADVISOR_OFFSET` (session 2's
    model; kept as the fallback where no fit is stored or the fit is not better)."""
    off = ADVISOR_OFFSET[bool(spec.open_auction)]
    return PartnersModel("advisor", int(off), float(scale),
                     f"team advisor model: rule of thumb {off:+d}, noise scale {scale:g}")



def fitted_partners_model(spec: TeamSpec) -> PartnersModel | None:
    """The fitted model of the team advisor (analyzer.analyses.fit_opponents) for the game, or
    None where none is stored."""
    fit = partner_fit_entry(spec)
    if fit is None:
        return None
    return PartnersModel("advisor", 0, float(fit["scale"]),
                     f"fitted team advisor model ({fit['hands']} hands, noise scale "
                     f"{fit['scale']:.0f})", KIND_FIT, tuple(float(c) for c in fit["coef"]))



def partners_model(name, spec: TeamSpec, scale: float = DEFAULT_EVIDENCE_SCALE) -> PartnersModel:
    """``'rule'`` or ``'advisor'`` for ``spec``'s game (a PartnersModel passes through);
    one-line BinokelError otherwise.  ``advisor`` is the fitted model where one is stored
    and it predicted the advisor better on held-out hands than the offset model (the
    stored ``use``), else the offset model."""
    if isinstance(name, PartnersModel):
        return name
    key = str(name).strip().lower()
    if key == "rule":
        return PartnersModel("rule", 0, float(scale), f"rule of thumb, noise scale {scale:g}")
    if key == "advisor":
        fit = partner_fit_entry(spec)
        if fit is not None and fit.get("use", "fit") == "fit":
            return fitted_partners_model(spec)
        return offset_partners_model(spec, scale)
    raise BinokelError(f"unknown model {name!r} for a team game: use {' or '.join(PARTNERS_MODELS)}")



def default_partners_model(spec: TeamSpec) -> str:
    """The team look-ahead's default model of the other seats (docs/methods.md#team-lookahead says why)."""
    return "advisor"



@njit(_nrt=False)
def plan_partner_auctions(maxb, seat, bids, high, holder, passed, next_ch, open_auction, tk,
                       sol_out, bid_out, out):
    """Finish the auction from its state once per plan of ``seat``: pass now (index 0) or
    bid up to ``bids[j - 1]`` (index j); the other seats bid up to ``maxb[p]``.

    The state: standing ``high`` by ``holder`` (-1: none), ``seat`` to call; V6.2
    (``open_auction``): ``passed`` bit mask; V1 duels: ``next_ch`` the next seat to enter.
    ``sol_out``/``bid_out`` (int64[K + 1]) <- the bidder (-1: thrown in) and its bid.
    ``maxb[seat]`` is overwritten; ``out`` int64[2] is a workspace."""
    for j in range(bids.shape[0] + 1):
        maxb[seat] = 0 if j == 0 else bids[j - 1]
        if open_auction != 0:
            continue_open_auction(maxb, high, holder, passed, seat, tk.min_bid, tk.bid_step, out)
        else:
            continue_duels(maxb, high, holder, seat, next_ch, tk.min_bid, tk.bid_step,
                           tk.forced_opening, out)
        sol_out[j] = out[0]
        bid_out[j] = out[1]



@njit
def bidder_outcomes(hands5, sol, trump, pol, state, tk, kr, beat, cnt, res, out):
    """Play the deal won by ``sol`` once; ``out`` float64[O_COLS] gets what its score at
    any bid follows from (analyzer.search.partner_deals.dabb_outcomes): the bidding team's
    total when playing (-1 when it cannot make any bid: no trick in a Binokel team game,
    V4.6), the other team's score then, and with a Dabb the other team's score if the
    soloist goes out (V4.3, V5.4), the soloist's own estimate and Durch losers (its
    contract at a bid, game.contract_for_bid) and whether its sure Durch is made.
    ``trump`` is used without a Dabb (Pinochle, V6.2, where the bidder always plays); with
    one the soloist exchanges and names trump (V4.2, V5.3)."""
    for k in range(O_COLS):
        out[k] = 0.0
    if tk.dabb_size > 0:
        dabb_outcomes(hands5, sol, pol, state, tk, kr, beat, cnt, res, out)
    else:
        st = sol % 2
        named_trump_contract(hands5[:4], sol, 0, trump, pol, state, tk, beat, cnt, res)
        out[O_TOTAL] = res[R_SCORE + st]
        out[O_OTHER] = res[R_SCORE + 1 - st]



@njit
def contracts_at(est, losers, prices, kr, out):
    """``out[i]`` = the contract a soloist with estimate ``est[i]`` and ``losers[i]`` Durch
    losers chooses at ``prices[i]`` (game.contract_for_bid, as partner_deals.dabb_contract)."""
    for i in range(est.shape[0]):
        out[i] = contract_for_bid(est[i], np.int64(losers[i]), prices[i], kr)



@njit
def partners_lookahead_samples(hand, seat, deck, bids, ev_lo, ev_hi, use_evidence, scales,
                           kinds, coefs, offsets, high, holder, passed, next_ch, open_auction,
                           rv1, rv2, state, tk, kr, own, seats, la_sol, la_bid, weight):
    """Monte Carlo core of the team look-ahead: ``n = weight.shape[0]`` sampled deals.

    ``hand`` uint8[24]: the advised hand, the only cards the kernel knows; ``seat`` 0..3,
    whose call it is; ``deck`` the unseen cards (shuffled in place); ``bids`` int64[K] the
    maxima to try; ``ev_lo``/``ev_hi`` int64[4] per seat its bidding evidence (highest bid
    said, bid declined; 0 = none); ``scales``/``offsets`` per seat the model's noise scale
    and offset over the rule of thumb (``rv1``, ``rv2``: V6.2 trick value and partner
    allowance; V1: the card-point estimate); the auction state as in
    :func:`plan_partner_auctions`.  OUT: ``own`` float64[n, T, O_COLS]: this seat as bidder
    (:func:`bidder_outcomes`; T = 4 trumps in Pinochle, 1 with a Dabb); ``seats``
    float64[n, 4, O_COLS]: the same for each seat that becomes the bidder under some plan
    (its rule-of-thumb trump; 0 where unused); ``la_sol``/``la_bid`` int64[n, K + 1] each
    plan's bidder and bid; ``weight`` the inference weight.
    """
    n = weight.shape[0]
    K = bids.shape[0]
    hs = tk.hand_size
    dabb = tk.dabb_size > 0
    hands, cnt, beat, res, tmp, maxb, trumps, out2 = partners_workspace(tk)
    pol = np.full(4, POLICY_HEURISTIC, dtype=np.int64)
    feat = np.zeros(coefs.shape[1], dtype=np.float64)
    T = own.shape[1]
    for i in range(n):
        deal_counts_fixed(state, deck, hands, seat, hand, hs)
        w = 1.0
        for p in range(4):
            if p == seat:
                continue
            v, tr = partner_model_value(hands[p], p, kinds[p], coefs[p], offsets[p], tk, kr, rv1,
                                     rv2, tmp, feat)
            if not dabb:
                trumps[p] = tr
            if use_evidence and (ev_lo[p] > 0 or ev_hi[p] > 0):
                w *= evidence_likelihood(v, ev_lo[p], ev_hi[p], scales[p])
            maxb[p] = sample_max(v, ev_lo[p], ev_hi[p], scales[p], use_evidence,
                                 tk.bid_step, state)
        weight[i] = w
        plan_partner_auctions(maxb, seat, bids, high, holder, passed, next_ch, open_auction, tk,
                           la_sol[i], la_bid[i], out2)
        for t in range(T):
            bidder_outcomes(hands, seat, t, pol, state, tk, kr, beat, cnt, res, own[i, t])
        for p in range(4):
            for k in range(O_COLS):
                seats[i, p, k] = 0.0
            if p == seat:
                continue
            need = False
            for j in range(K + 1):
                if la_sol[i, j] == p:
                    need = True
                    break
            if need:
                bidder_outcomes(hands, p, trumps[p], pol, state, tk, kr, beat, cnt, res,
                                seats[i, p])



def _partners_chunk(hand, seat, bids, lo, hi, use_evidence, scales, kinds, coefs, offsets, high,
                    holder, passed, next_ch, open_auction, rv1, rv2, spec, seed, deck, chunk,
                    n) -> dict:
    """One seeded chunk of :func:`partners_lookahead_samples` (``n`` deals; the deck is
    copied, the kernel shuffles it in place)."""
    T = 1 if spec.dabb_size > 0 else 4
    K = bids.shape[0]
    part = dict(own=np.zeros((n, T, O_COLS)), seats=np.zeros((n, 4, O_COLS)),
                la_sol=np.zeros((n, K + 1), dtype=np.int64),
                la_bid=np.zeros((n, K + 1), dtype=np.int64), weight=np.zeros(n))
    partners_lookahead_samples(hand, seat, deck.copy(), bids, lo, hi, use_evidence, scales, kinds,
                               coefs, offsets, high, holder, passed, next_ch, open_auction, rv1,
                               rv2, chunk_state(seed, chunk), spec.tk, spec.kr, part["own"],
                               part["seats"], part["la_sol"], part["la_bid"], part["weight"])
    return part


def simulate_partners_lookahead(counts, seat: int, state, samples: int, seed, spec: TeamSpec,
                            model: PartnersModel, partner: PartnersModel, use_evidence: bool = True,
                            key: int = 0, grid: int = SAMPLED_GRID_SIZE, progress=None) -> dict:
    """Run :func:`partners_lookahead_samples` (rounds of ``samples`` deals, each from its own
    seed, until the effective sample size reaches ``PARTNERS_ESS_FRACTION x samples`` or
    ``MAX_ROUNDS`` rounds are done, as in advice_samples.sample_branches).  Returns the
    kernel's arrays concatenated, plus ``bids``, ``next_bid``, ``loss_factor``."""
    n = int(samples)
    lo, hi = auction_evidence(state, spec)
    high, holder, passed, next_ch = auction_args(state, spec)
    nb = state.next_bid
    bids = nb + spec.step * np.arange(int(grid), dtype=np.int64)
    rv1 = DEFAULT_TRICK_VALUE if spec.open_auction else DEFAULT_DABB_ESTIMATE
    rv2 = DEFAULT_PARTNER_ALLOWANCE if spec.open_auction else 0
    partner_seat = (seat + 2) % 4
    scales = np.array([partner.scale if p == partner_seat else model.scale for p in range(4)])
    offsets = np.array([partner.offset if p == partner_seat else model.offset for p in range(4)],
                       dtype=np.float64)
    kinds = np.array([partner.kind if p == partner_seat else model.kind for p in range(4)],
                     dtype=np.int64)
    coefs = np.stack([(partner if p == partner_seat else model).coef_array() for p in range(4)])
    use = bool(use_evidence) and any(lo[p] or hi[p] for p in range(4) if p != seat)
    fixed = (np.asarray(counts, dtype=np.uint8), int(seat), bids, np.array(lo, dtype=np.int64),
             np.array(hi, dtype=np.int64), bool(use_evidence), scales, kinds, coefs, offsets,
             int(high), int(holder), int(passed), int(next_ch), int(spec.open_auction), int(rv1),
             int(rv2), spec, seed, unseen_deck(counts, spec))
    # one chunk a round, each from its own seed (key x MAX_ROUNDS + round), as the static
    # partners' advice (analyzer.analyses.advice_samples.sample_branches)
    out = sample_rounds(_partners_chunk, lambda chunk, m: (*fixed, chunk, m), n, 1, use,
                        progress, chunk=n, ess_fraction=PARTNERS_ESS_FRACTION,
                        first=key * MAX_ROUNDS)
    out.update(bids=bids, next_bid=int(nb), loss_factor=int(spec.tk.loss_factor),
               dabb=spec.dabb_size > 0, kr=spec.kr)
    return out


def bidder_rel(o: np.ndarray, price, res: dict) -> tuple[np.ndarray, np.ndarray]:
    """The bidding team's deal score minus the other team's, and whether its contract is
    made, at ``price`` (broadcast against ``o[..., 0]``) from :func:`bidder_outcomes`'
    columns ``o`` (as advice_samples.bid_outcome).  Playing: the total if it reaches the
    price, else -loss_factor x price (V4.6, V5.7, V6.6).  With a Dabb the soloist's
    contract at that price (:func:`contracts_at`): going out (V4.3, V5.4) scores -price
    against the other team's melds + bonus and is never made; a sure Durch (V4.6 "Durch
    as V2.7") scores +value or -durch_loss_factor x value against 0."""
    price = np.broadcast_to(np.asarray(price, dtype=np.float64), o.shape[:-1])
    tt, oth = o[..., O_TOTAL], o[..., O_OTHER]
    lf = float(res["loss_factor"])
    made = tt >= price
    rel = np.where(made, tt, -lf * price) - oth
    if not res["dabb"]:
        return rel, made
    kr = res["kr"]
    con = np.empty(price.size, dtype=np.int64)
    contracts_at(np.ascontiguousarray(o[..., O_EST], dtype=np.float64).ravel(),
                 np.ascontiguousarray(o[..., O_LOSERS], dtype=np.float64).ravel(),
                 np.ascontiguousarray(price, dtype=np.int64).ravel(), kr, con)
    con = con.reshape(price.shape)
    value = np.where(con == CONTRACT_OPEN_DURCH, kr.open_durch_value, kr.durch_value).astype(float)
    dm = o[..., O_DURCH_MADE] > 0
    is_durch = (con == CONTRACT_DURCH) | (con == CONTRACT_OPEN_DURCH)
    is_out = con == CONTRACT_SURRENDER
    rel = np.where(is_out, -price - o[..., O_OUT_OTHER],
                   np.where(is_durch, np.where(dm, value, -kr.durch_loss_factor * value), rel))
    made = np.where(is_out, False, np.where(is_durch, dm, made))
    return rel, made



def own_values(res: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """This seat as bidder at every bid of the grid: ``(trump column per bid, rel[n, K],
    made[n, K])``, the trump being the column with the best weighted mean (Pinochle; one
    column with a Dabb, where the exchange names trump)."""
    own, w, bids = res["own"], res["weight"], res["bids"]
    K = bids.shape[0]
    best = np.zeros(K, dtype=np.int64)
    rel = np.empty((own.shape[0], K))
    made = np.empty((own.shape[0], K), dtype=bool)
    for k, b in enumerate(bids):
        r, m = bidder_rel(own, float(b), res)
        best[k] = int(np.argmax((w[:, None] * r).sum(axis=0)))
        rel[:, k] = r[:, best[k]]
        made[:, k] = m[:, best[k]]
    return best, rel, made



def partners_plan_values(res: dict, seat: int, with_made: bool = False, floor: int = 0):
    """Per-sample objective (this team's deal score minus the other's) of every plan:
    float[n, K + 1] (column 0 = pass now, column j = bid up to ``bids[j - 1]``); with
    ``with_made`` also bool[n, K + 1]: this seat is the bidder and makes its contract.
    ``floor``: where this seat buys the contract it pays at least this (a jump bid said
    now, V6.2: ``binokel review`` values a jump so; 0 = the auction's price)."""
    best = own_values(res)[0]
    bids = res["bids"]
    step = int(bids[1] - bids[0]) if bids.shape[0] > 1 else 10
    n, J = res["la_sol"].shape
    rows = np.arange(n)
    team = seat % 2
    out = np.zeros((n, J))
    made_out = np.zeros((n, J), dtype=bool)
    for j in range(J):
        sol = res["la_sol"][:, j]
        price = res["la_bid"][:, j].astype(np.float64)
        mine = sol == seat
        if mine.any():
            price = np.where(mine, np.maximum(price, float(floor)), price)
            k = np.clip(((price - bids[0]) // step).astype(np.int64), 0, bids.shape[0] - 1)
            rel, made = bidder_rel(res["own"][rows, best[k]], price, res)
            out[mine, j] = rel[mine]
            made_out[mine, j] = made[mine]
        other = (sol >= 0) & ~mine
        if other.any():
            p = np.where(other, sol, 0)
            rel, _m = bidder_rel(res["seats"][rows, p], price, res)
            rel = np.where(p % 2 == team, rel, -rel)
            out[other, j] = rel[other]
    return (out, made_out) if with_made else out



def choose_plan(V: np.ndarray, static_cap, forced_open: bool) -> tuple[int | None, int]:
    """The recommended plan index ``j`` (0 = pass now) from the plan values ``V``
    (float[K + 1]), the one rule of every table's look-ahead (module docstring): the plan
    with the highest ``V``; among exactly equal ``V`` (no sampled auction reaches the bids
    between them) the highest not above the static break-even index ``static_cap`` (an
    int, or a function giving it, asked only where such a tie needs it), else the lowest.
    Returns ``(j or None for "pass", j)``; a forced opening (R3, V5.2) with no plan beyond
    it is "pass"."""
    best = float(V.max())
    tol = 1e-9 * (1.0 + abs(best))
    tied = np.flatnonzero(V >= best - tol)
    if V[0] >= best - tol:
        j = 0
    else:
        cap = static_cap() if callable(static_cap) else static_cap
        ok = tied[tied <= cap]
        j = int(ok.max()) if ok.size else int(tied.min())
    if j == 0 or (forced_open and j == 1):
        return None, j
    return j, j



def static_cap(rel_own: np.ndarray, pass_obj: np.ndarray, w: np.ndarray) -> int:
    """Index j (>= 1) of the last bid, counting up from the next bid, with E[objective |
    this seat the bidder at it] >= E[objective | pass now]; 0 = none."""
    pv = float((w * pass_obj).sum() / w.sum())
    ev = (w[:, None] * rel_own).sum(axis=0) / w.sum()
    j = 0
    for k in range(ev.shape[0]):
        if ev[k] >= pv:
            j = k + 1
        else:
            break
    return j



def _partners_table(res, seat, vals, made_plan, j_best, own_made, best_t):
    w = res["weight"]
    sw = w.sum()
    ess = effective_sample_size(w)
    bids = res["bids"]
    K = bids.shape[0]
    pass_obj = vals[:, 0]
    mine_plan = res["la_sol"][:, j_best] == seat
    bid_plan = res["la_bid"][:, j_best]
    T = res["own"].shape[1]
    out = []
    for j in range(1, K + 1):
        b = int(bids[j - 1])
        sol = res["la_sol"][:, j]
        v = weighted_mean(vals[:, j], w, ess)
        d = weighted_mean(vals[:, j] - pass_obj, w, ess)
        mine = sol == seat
        ps = weighted_proportion(mine.astype(np.float64), w, ess)
        wm = float((w * mine).sum())
        out.append(dict(
            bid=b, value=v.mean, value_lo=v.lo, value_hi=v.hi, value_se=v.se,
            minus_pass=d.mean, minus_pass_lo=d.lo, minus_pass_hi=d.hi,
            p_soloist=ps.mean, p_soloist_lo=ps.lo, p_soloist_hi=ps.hi,
            p_team=float((w * ((sol >= 0) & (sol % 2 == seat % 2))).sum() / sw),
            p_make_if_soloist=float((w * made_plan[:, j]).sum() / wm) if wm > 0 else float("nan"),
            mean_price=float((w * mine * res["la_bid"][:, j]).sum() / wm) if wm > 0 else float("nan"),
            p_make=float((w * own_made[:, j - 1]).sum() / sw),
            trump=None if T == 1 else int(best_t[j - 1]),
            p_buy_at=float((w * (mine_plan & (bid_plan == b))).sum() / sw),
            p_buy_by=float((w * (mine_plan & (bid_plan <= b))).sum() / sw)))
    # the grid up to a few rows past the plan, or until the static P(make) has fallen away
    return out[:plan_table_extent([r["p_make"] for r in out], j_best)], ess


def _explain_partners(rows, pass_est, max_bid, forced_open, p_sol, V, pass_outcome):
    po = (f" Passing now leaves it to your partner in {100 * pass_outcome['partner']:.0f}% of "
          f"deals, to an opponent in {100 * pass_outcome['opponent']:.0f}%.")
    if max_bid is None:
        first = 2 if forced_open else 1
        if len(V) <= first:
            return "pass: there is no bid left on the grid." + po
        k = first - 1 + int(np.argmax(V[first:]))
        r = rows[min(k, len(rows) - 1)]
        head = "stop at the forced opening and pass after" if forced_open else "pass"
        return (f"{head}: the best plan that bids on (up to {r['bid']}) is worth EV "
                f"{r['value']:+.0f} for your team, passing {pass_est.mean:+.0f}; bidding on would "
                f"make you the bidder in {100 * r['p_soloist']:.0f}% of deals." + po)
    r = next(x for x in rows if x["bid"] == max_bid)
    msg = (f"bid up to {max_bid}: you become the bidder in {100 * p_sol.mean:.0f}% of deals "
           f"[{100 * p_sol.lo:.0f}-{100 * p_sol.hi:.0f}], your team in {100 * r['p_team']:.0f}%")
    if p_sol.mean > 0:
        half = next((x for x in rows if x["p_buy_by"] >= p_sol.mean / 2), None)
        if half is not None and half["bid"] < max_bid:
            msg += f"; you buy it at {half['bid']} or less in {100 * half['p_buy_by']:.0f}%"
        if r["p_soloist"] > 0:
            msg += f"; as the bidder you make it in {100 * r['p_make_if_soloist']:.0f}%"
    if p_sol.mean < 0.05:
        msg += " (this pushes the price: whoever buys it must make a higher bid)"
    return msg + f"; EV {r['value']:+.0f} for your team against {pass_est.mean:+.0f} for passing now." + po


def _partners_plan(res: dict, seat: int, state, spec: TeamSpec, with_made: bool = False):
    """The plan decision at a partners' table from the sampled deals ``res``:
    ``(plan values (with ``with_made``: and made), V, own_values(res), static cap,
    forced opening, choose_plan's (max index or None, index))``."""
    w = res["weight"]
    got = partners_plan_values(res, seat, with_made=with_made)
    vals = got[0] if with_made else got
    V = (w[:, None] * vals).sum(axis=0) / w.sum()
    own = own_values(res)
    cap = static_cap(own[1], vals[:, 0], w)
    # V5.2: forehand's forced opening in the duels (the open auction has none)
    forced_open = bool(spec.forced_opening and not spec.open_auction and seat == 0
                       and not state.calls)
    return got, V, own, cap, forced_open, choose_plan(V, cap, forced_open)


def advise_partners_lookahead(h, counts, seat: int, state, spec: TeamSpec, samples: int, seed,
                              use_evidence: bool, model: PartnersModel, pmodel: PartnersModel,
                              progress=None) -> LookaheadAdvice:
    """The look-ahead advice at a partners' table (V1) for validated inputs (called by
    advice.advise_bid): ``h`` the hand, ``counts`` its card counts, ``seat`` 0..3 whose
    call it is after ``state``; ``model`` / ``pmodel`` how the opponents / the partner bid
    (:func:`partners_model`)."""
    res = simulate_partners_lookahead(counts, seat, state, samples, seed, spec, model, pmodel,
                                      use_evidence, progress=progress)
    w = res["weight"]
    if not np.isfinite(w).all() or w.sum() <= 0:
        raise BinokelError("no sampled deal is consistent with the auction: check the calls (V1)")
    (vals, made_plan), V, (best_t, _rel, own_made), cap, forced_open, (max_j, j_best) = \
        _partners_plan(res, seat, state, spec, with_made=True)
    bids = res["bids"]
    max_bid = None if max_j is None else int(bids[max_j - 1])
    table, ess = _partners_table(res, seat, vals, made_plan, j_best, own_made, best_t)
    pass_est = weighted_mean(vals[:, 0], w, ess)
    p_sol = weighted_proportion((res["la_sol"][:, j_best] == seat).astype(np.float64), w, ess)
    s0 = res["la_sol"][:, 0]
    sw = w.sum()
    pass_outcome = {"partner": float((w * (s0 == (seat + 2) % 4)).sum() / sw),
                    "opponent": float((w * ((s0 >= 0) & (s0 % 2 != seat % 2))).sum() / sw),
                    "thrown_in": float((w * (s0 < 0)).sum() / sw),
                    "you": float((w * (s0 == seat)).sum() / sw)}
    static_bid = int(bids[cap - 1]) if cap and not (forced_open and cap == 1) else None
    expl = _explain_partners(table, pass_est, max_bid, forced_open, p_sol, V, pass_outcome)
    return LookaheadAdvice(h, seat, state, "relative", int(w.shape[0]), ess, int(res["next_bid"]),
                           max_bid, pass_est, table, expl, forced_open, None, bool(use_evidence),
                           None, seed, (), spec.name, spec.rules.low_card, partners=True,
                           opponents=model.name, opponents_description=(
                               model.description if pmodel is model else
                               f"{model.description}; partner {pmodel.description}"),
                           plan_index=j_best, p_soloist=p_sol, static_max_bid=static_bid,
                           partner=pmodel.name, pass_outcome=pass_outcome)


def partners_lookahead_decision(counts, seat: int, state, samples: int, seed, key: int,
                            spec: TeamSpec, model, partner=None) -> tuple[bool, int | None]:
    """For the tournament agent ``advisor-la``: ``(bid the next bid?, the trump this seat
    names if it buys at that bid; None with a Dabb)``, from the agent's own hand
    ``counts``, its seat and the calls so far (``state``); the other hands are samples."""
    m = partners_model(model, spec)
    pm = m if partner is None else partners_model(partner, spec)
    res = simulate_partners_lookahead(counts, seat, state, samples, seed, spec, m, pm, True, key)
    w = res["weight"]
    if not np.isfinite(w).all() or w.sum() <= 0:
        res["weight"] = np.ones(len(w))
    _vals, _V, (best_t, _rel, _made), _cap, _fo, (max_j, _j) = _partners_plan(res, seat, state, spec)
    trump = None if res["own"].shape[1] == 1 else int(best_t[0])
    return max_j is not None, trump
