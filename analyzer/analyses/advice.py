"""The bid advisor (R3, R4, R8, R9): how high should this hand bid?

Method (docs/methods.md#bid-advice states it for users)
--------------------------------------------
For a 15-card hand in a given seat, with the auction so far, sample the 33 unseen cards
into the two opponents' hands and the Tapp uniformly (R2), then per sample:

1. **Soloist branch** - this hand takes the Tapp and makes the soloist's choices from its
   18 visible cards only (discard, trump and, per bid, play / surrender / Durch: the Monte
   Carlo exchange analyzer.mechanics.exchange.soloist_exchange, the same model as the hand
   analyzer's), and the deal is played and scored per R8/R4 for every bid of a grid
   (analyzer.search.deals.soloist_grid): P(make) and the expected score at each bid come
   from the same played deals and mean what ``binokel analyze`` means by them.
2. **Pass branch** - this hand passes now; the opponents finish the auction as
   rule-of-thumb bidders (analyzer.mechanics.bidding, maxima kept consistent with what they already
   said), the winner exchanges and the deal is played; this hand scores as a defender (or,
   as forehand left alone at the forced 150, as soloist).
3. **Inference** - each sample is weighted by the likelihood that the opponents' *sampled*
   hands bid as they actually did (a noisy rule-of-thumb bidder,
   analyzer.mechanics.bidding.evidence_likelihood).  Estimates are weighted means; their standard
   errors use Kish's effective sample size.

The objective per sample is ``own score - mean of the two opponents' scores`` ("relative",
the default: the game is a race), or ``own score`` ("own"), or, when game scores are
given, the estimated probability of winning the game after this deal ("win", R9).  The
recommended maximum bid is the last bid B, counting up from the next legal bid, with
``E[objective | soloist at B] >= E[objective | pass]`` (paired over the same samples; an exact
tie does not extend it, and the bid grid runs past every total the hand can make).

Only this hand, its seat, the auction and the scores enter; the other hands exist only as
samples (the advisor never sees a real deal's hidden cards).
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.analyses.advice_grid import ROWS_PAST, SMALL_P_MAKE, bid_grid, next_legal_bid, table_extent
from analyzer.analyses.advice_result import DEFAULT_SAMPLES, BidAdvice, advice_notes, row_views, table_row
from analyzer.analyses.lookahead import advise_lookahead, simulate_lookahead
from analyzer.analyses.objectives import OBJECTIVES, objective_values, recommended_max_bid
from analyzer.analyses.opponents import resolve_opponents
from analyzer.analyses.sample_rounds import sample_rounds
from analyzer.analyses.team_advice import advise_team
from analyzer.analyses.team_lookahead import advise_team_lookahead
from analyzer.analyses.weighted_stats import weighted_mean, weighted_proportion
from analyzer.mechanics.bidding import (DEFAULT_EVIDENCE_SCALE, DEFAULT_TRICK_ESTIMATE, FOREHAND, PASS, SEAT_NAMES,
                                        AuctionState, auction_continue, evidence_likelihood, parse_seat,
                                        rule_of_thumb_max_bid, rule_of_thumb_value, validate_auction)
from analyzer.mechanics.cards import N_TYPES, SUIT_LETTERS, SUITS, Hand
from analyzer.errors import BinokelError, clip_input
from analyzer.parallel import parallel_map, resolve_jobs
from analyzer.mechanics.play import POLICY_HEURISTIC
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet
from analyzer.mechanics.sampling import deal_masks, mask_counts, remaining_deck
from analyzer.search.deals import finish_deal, soloist_grid
from analyzer.search.pimc import pimc_args, play_name, resolve_play
from analyzer.bounds import (AUCTION_BID, GAME_SCORE, SAMPLES_ADVISE, SAMPLES_ADVISE_PIMC,
                             TEAM_PIMC_SAMPLES)

PIMC_SAMPLES = 500      # default with --play pimc / pimc-defence (~2 PIMC play-outs a sample)
PIMC_MAX_SAMPLES = SAMPLES_ADVISE_PIMC.hi   # analyzer.bounds: shared with the CLI and the API
MAX_SAMPLES = SAMPLES_ADVISE.hi   # bounds memory: samples x rounds x bids x 3 scores of int64
MAX_AUCTION_BID = AUCTION_BID.hi  # above any total 18 cards can reach (R5 + R7: a monster's ~2,200)
MAX_GAME_SCORE = GAME_SCORE.hi  # |game score| bound for --scores (a game ends at 1500, R9)


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
                   *pimc_args(policy))
    return out


# --------------------------------------------------------------------------- API


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


def _trump_shares(res: dict) -> tuple:
    """((suit letter, share), ...) of the soloist branch's named trump, inference-weighted,
    most chosen first (the exchange the table's numbers were made with)."""
    if "sol_trump" not in res:  # the look-ahead kernel does not record the trump
        return ()
    w = res["weight"]
    tr = res["sol_trump"]
    shares = [(SUIT_LETTERS[s], float((w * (tr == s)).sum() / w.sum())) for s in range(4)]
    return tuple(sorted(shares, key=lambda x: -x[1]))


def _explain(rows, pass_est, max_bid, next_bid, objective, forced_open, surrender,
             grid_end=None) -> str:
    table = row_views(rows)
    pct = objective == "win"
    f = (lambda v: f"{100 * v:.1f}%") if pct else (lambda v: f"{v:+.0f}")
    # name what the expectation is of: the sentence is read without the table's header
    what = {"win": "P(win game)", "own": "EV (own score)",
            "relative": "EV (own − opponents' mean)"}[objective]
    if max_bid is None:
        r = table[0]
        if forced_open:
            msg = (f"stop at the forced 150 (R3) and pass after: at 150 P(make) {100 * r.p_make:.0f}%, "
                   f"{what} {f(r.ev_objective)} against {f(pass_est.mean)} for passing")
            if surrender:
                msg += (f"; if you end up soloist there, surrendering (R4) costs you {surrender['bid']} "
                        f"and gives each opponent {surrender.get('bonus', 50)} + melds (about "
                        f"{surrender['opponent_mean']:.0f})")
            return msg + "."
        return (f"pass: at {next_bid} P(make) {100 * r.p_make:.0f}% [{100 * r.p_make_lo:.0f}-"
                f"{100 * r.p_make_hi:.0f}], {what} {f(r.ev_objective)}, below passing's {f(pass_est.mean)}.")
    r = next(r for r in table if r.bid == max_bid)
    head = (f"P(make) {100 * r.p_make:.0f}% [{100 * r.p_make_lo:.0f}-{100 * r.p_make_hi:.0f}], "
            f"{what} {f(r.ev_objective)}")
    if grid_end is not None and max_bid >= grid_end:
        # the grid reaches past every total the hand can make: what is left is a Durch
        # (R4, scored without the bid), so there is no last bid to name
        return (f"bid at least {max_bid}: {head} there, still above passing "
                f"({f(pass_est.mean)}); beyond this no played contract can make it, only a "
                f"Durch (R4), whose score does not depend on the bid.")
    return (f"bid up to {max_bid}: {head}; above that it falls below "
            f"passing ({f(pass_est.mean)}).")


def advise_bid(hand, seat="forehand", auction=(), scores=None, objective: str | None = None,
               samples: int | None = None, seed: int | None = 0, n_jobs: int = 1,
               inference: bool = True, rules: RuleSet = DEFAULT_RULES, lookahead: bool = False,
               opponents=None, *, play: str = "heuristic", progress=None) -> BidAdvice:
    """Recommend the maximum bid for a 15-card hand (R3), with P(make) and EV per bid.

    Parameters
    ----------
    hand : Hand or str
        The 15 cards (R2).
    seat : str or int
        ``forehand``/``middlehand``/``rearhand`` (or 0, 1, 2).
    auction : str or sequence
        The calls so far, e.g. ``"150 160 pass"`` (validated per R3); it must be this
        seat's turn.  Empty: before the auction (forehand will open 150).
    scores : sequence of 3 ints, optional
        Game scores before this deal, in seat order (forehand, middlehand, rearhand).
        Given scores switch the default objective to ``"win"`` (R9).
    objective : {"relative", "own", "win"}, optional
        ``relative`` (default): own deal score minus the mean of the opponents' scores.
    samples, seed, n_jobs :
        Monte Carlo size (None: ``DEFAULT_SAMPLES``, or ``PIMC_SAMPLES`` with PIMC play),
        seed (same seed -> same numbers for any ``n_jobs``), workers.
    inference : bool
        Weight samples by how likely the opponents' sampled hands made their calls.
    lookahead : bool
        Play the rest of the auction out for every maximum (analyzer.analyses.lookahead):
        returns a :class:`~analyzer.analyses.lookahead.LookaheadAdvice`.
    opponents : {"rule", "advisor"} or OpponentModel, optional
        How the opponents bid (analyzer.analyses.opponents).  Default: ``"rule"`` for the
        static advice, :func:`~analyzer.analyses.opponents.default_opponents` with look-ahead.
    play : {"heuristic", "pimc", "pimc-defence"}
        Card play of every sampled deal after the exchange (both branches): heuristic at
        every seat, PIMC at every seat, or PIMC defenders with the heuristic soloist
        (analyzer.search.pimc.play_contract).  Same samples, weights, exchanges and
        auctions; only the play differs.  PIMC: ~3-4 ms of CPU a play-out, at most
        ``PIMC_MAX_SAMPLES`` samples; not with ``lookahead`` / ``opponents``.
    progress : callable(done_chunks, planned_chunks) or None
        Called as chunks finish (the web page's progress bar; raising from it stops the run).

    Returns
    -------
    BidAdvice
        ``max_bid`` (None = pass / stop at the forced 150), ``table``, ``pass_value``,
        ``explanation``.  For a team game (``rules.teams``: kreuz-48, kreuz-40,
        pinochle-80) the team advisor answers instead (analyzer.analyses.team_advice,
        a :class:`TeamBidAdvice`; seats 0-3, objective team minus the other team), and
        with ``lookahead`` the team look-ahead (analyzer.analyses.team_lookahead, a
        :class:`TeamLookaheadAdvice`; ``opponents`` then models all three other seats).
    """
    policy = resolve_play(play, rules)
    if policy != POLICY_HEURISTIC and (lookahead or opponents not in (None, "rule")):
        raise BinokelError(f"--play {play_name(policy)} is not available with --lookahead or "
                           f"--opponents advisor: those play many more deals per sample")
    if getattr(rules, "teams", False) and samples is None and policy != POLICY_HEURISTIC:
        samples = TEAM_PIMC_SAMPLES     # a PIMC team deal costs 10-200 ms
    if samples is None:
        samples = DEFAULT_SAMPLES if policy == POLICY_HEURISTIC else PIMC_SAMPLES
    if getattr(rules, "teams", False):
        if opponents is not None and not lookahead:
            raise BinokelError(f"--opponents needs --lookahead in the team game {rules.name}: "
                               f"the static team advisor reads every seat as a rule-of-thumb bidder")
        if lookahead and (scores is not None or objective not in (None, "relative")):
            raise BinokelError("the team look-ahead has one objective, the team's score minus "
                               "the other team's: --scores / --objective win need the static "
                               "team advice (no --lookahead)")
        if lookahead:
            return advise_team_lookahead(hand, seat, auction, rules, samples,
                                         0 if seed is None else seed, inference, opponents,
                                         progress=progress)
        return advise_team(hand, seat, auction, rules, samples, 0 if seed is None else seed,
                           inference, progress=progress, scores=scores, objective=objective,
                           play=play)
    h = Hand.parse(hand, rules=rules)
    if len(h) != rules.hand_size:
        raise BinokelError(f"hand must have {rules.hand_size} cards, got {len(h)} (R2)")
    if isinstance(seat, str) and not seat.strip():
        raise BinokelError("seat is empty: use forehand, middlehand or rearhand (R2)")
    s = parse_seat(seat)
    state = auction if isinstance(auction, AuctionState) else validate_auction(auction, rules)
    if state.standing > MAX_AUCTION_BID:
        raise BinokelError(f"auction: the standing bid {state.standing} is above {MAX_AUCTION_BID}, "
                           f"more than any hand can total (R5, R7)")
    if scores is not None:
        try:
            scores = tuple(int(x) for x in scores)
        except (TypeError, ValueError):
            raise BinokelError(f"scores: need 3 whole numbers (forehand, middlehand, rearhand), "
                               f"got {clip_input(repr(scores))}") from None
        if len(scores) != 3:
            raise BinokelError(f"scores: need 3 game scores (forehand, middlehand, rearhand), got {len(scores)}")
        if max(scores) >= rules.target_score:
            raise BinokelError(f"scores: {max(scores)} already reaches {rules.target_score}, so the "
                               f"game is over (R9): there is no next deal to bid in")
        if min(scores) < -MAX_GAME_SCORE:
            raise BinokelError(f"scores: {min(scores)} is below -{MAX_GAME_SCORE:,}, not a game score")
    if objective is None:
        objective = "win" if scores is not None else "relative"
    if objective not in OBJECTIVES:
        raise BinokelError(f"unknown objective {objective!r}: use relative, own or win")
    if objective == "win" and scores is None:
        raise BinokelError("objective 'win' needs the game scores (--scores FH,MH,RH)")
    try:
        samples = int(samples)
    except (TypeError, ValueError):
        raise BinokelError(f"samples must be a whole number, got {clip_input(repr(samples))}") from None
    if not 1 <= samples <= MAX_SAMPLES:
        raise BinokelError(f"samples must be between 1 and {MAX_SAMPLES:,}, got {samples:,}")
    if policy != POLICY_HEURISTIC and samples > PIMC_MAX_SAMPLES:
        raise BinokelError(f"samples: at most {PIMC_MAX_SAMPLES:,} with --play {play_name(policy)} "
                           f"(~2 PIMC play-outs of ~3-4 ms each per sample), got {samples:,}")
    resolve_jobs(n_jobs)  # one-line error for a bad value before any work
    model = None
    if lookahead or opponents not in (None, "rule"):
        model = resolve_opponents(opponents, lookahead, rules)
    if lookahead:
        return advise_lookahead(h, s, state, scores, objective, samples, seed, n_jobs, inference,
                                rules, model, progress=progress)
    if model is not None:  # static advice with another opponent model: same kernel as look-ahead
        res = simulate_lookahead(h.counts_array().astype(np.uint8), s, state, samples, seed,
                                 n_jobs, inference, rules, model, progress=progress)
    else:
        res = simulate_advice(h.counts_array().astype(np.uint8), s, state, samples, seed, n_jobs,
                              inference, rules, progress=progress, policy=policy)
    table, pass_est, max_bid, ess = summarize_advice(res, s, objective, scores, rules)
    forced_open = s == FOREHAND and not state.calls and rules.forced_opening
    surrender = None
    if forced_open:
        r0 = table[0]
        sc = res["sol_scores"][:, 0, :]
        sur = res["sol_contract"][:, 0] == 1
        opp = (sc.sum(axis=1) - sc[:, s]) / 2.0
        surrender = dict(bid=int(r0["bid"]), p_chosen=float(sur.mean()),
                         bonus=int(rules.surrender_bonus),   # R4 50; V5.4 40
                         opponent_mean=float(opp[sur].mean()) if sur.any() else float(
                             rules.surrender_bonus))
    notes = advice_notes(state, s, int(res["weight"].shape[0]), ess, rules)
    expl = _explain(table, pass_est, max_bid, res["next_bid"], objective, forced_open, surrender,
                    grid_end=int(res["bids"][-1]))
    return BidAdvice(h, s, state, objective, int(res["weight"].shape[0]), ess, int(res["next_bid"]), max_bid, pass_est,
                     table, expl, forced_open, surrender, inference, scores, seed, notes,
                     rules.name, rules.low_card, _trump_shares(res), play_name(policy))
