"""Bid advice that looks ahead in the auction (R3, R4, R8, R9).

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

from dataclasses import dataclass

import numpy as np

from analyzer._jit import njit
from analyzer.analyses.advice_grid import bid_grid, next_legal_bid
from analyzer.analyses.advice_result import BidAdvice, advice_notes, row_views, table_row
from analyzer.analyses.objectives import objective_values, recommended_max_bid
from analyzer.analyses.sample_rounds import sample_rounds
from analyzer.analyses.weighted_stats import Estimate, weighted_mean, weighted_proportion
from analyzer.analyses.opponents import OpponentModel, model_value, sample_max
from analyzer.errors import BinokelError
from analyzer.mechanics.bidding import FOREHAND, SEAT_NAMES, AuctionState, auction_continue, evidence_likelihood
from analyzer.mechanics.cards import N_TYPES
from analyzer.search.deals import finish_deal, soloist_grid, soloist_outcomes
from analyzer.mechanics.play import POLICY_HEURISTIC
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import RuleSet
from analyzer.mechanics.sampling import deal_masks, mask_counts, remaining_deck


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

    As in analyzer.analyses.advice.simulate_advice, further rounds are drawn while the
    inference weights leave fewer than ``samples * ESS_FRACTION`` effective samples.
    Returns the kernel's arrays concatenated, plus ``bids``, ``opp_bids``, ``next_bid``,
    and the pass-branch keys of the static advisor (``pass_scores``, ``pass_soloist``,
    ``pass_bid``) so that analyzer.analyses.advice.summarize_advice reads it too.
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
    best = float(V.max())
    tol = 1e-9 * (1.0 + abs(best))
    tied = np.flatnonzero(V >= best - tol)
    if tied[0] == 0 and V[0] >= best - tol:
        j = 0
    else:
        cap = static_break_even(res, seat, objective, scores, rules)
        ok = tied[tied <= cap]
        j = int(ok.max()) if ok.size else int(tied.min())
    forced_open = (rules.forced_opening and seat == FOREHAND
                   and int(res["next_bid"]) == rules.bid_start)
    if j == 0 or (forced_open and j == 1):
        return None, j, V
    return int(res["bids"][j - 1]), j, V


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

    def summary(self) -> str:
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
        d = super().to_dict()
        d.update(lookahead=True, opponents=self.opponents,
                 p_soloist=self.p_soloist.to_dict() if self.p_soloist else None,
                 static_max_bid=self.static_max_bid)
        return d


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
    # show the grid up to a few rows past the plan, or until P(soloist) is negligible
    # and the static P(make) has fallen away
    last = max(j_best - 1, 0)
    keep = last + 1
    for j in range(last + 1, K):
        keep = j + 1
        if j >= last + 4 and (rows[j]["p_make"] < 0.01 or j >= last + 8):
            break
    keep = max(keep, min(3, K))
    return tuple(rows[:keep]), ess


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
