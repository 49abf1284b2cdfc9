"""The bid advisor (R3, R4, R8, R9; V1, V4-V6): how high should this hand bid?

One entry for every game, :func:`advise_bid`: it reads the hand, seat, auction and
scores as the game's rules state them (:func:`parse_hand_for`, :func:`parse_seat_for`,
analyzer.analyses.advice_grid.parse_auction_for, :func:`parse_scores_for`), runs the
static advice (analyzer.analyses.advice_samples) or the look-ahead
(analyzer.analyses.lookahead) for the table the RuleSet describes, and answers one
result type, :class:`~analyzer.analyses.advice_result.BidAdvice` (rows per side: a lone
soloist's table, or partners with the team's objective).

Method at a lone soloist's table (docs/methods.md#bid-advice states it for users;
the partners' table: analyzer.analyses.advice_samples and docs/methods.md)
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

from analyzer.analyses.advice_grid import bids_over_partner, parse_auction_for, partners_spec
from analyzer.analyses.advice_result import DEFAULT_SAMPLES, BidAdvice, advice_notes, row_views
from analyzer.analyses.advice_samples import (sample_branches, simulate_advice, summarize_advice,
                                              summarize_partners_advice)
from analyzer.analyses.lookahead import (advise_lookahead, advise_partners_lookahead,
                                         default_partners_model, partners_model,
                                         simulate_lookahead)
from analyzer.analyses.objectives import OBJECTIVES
from analyzer.analyses.opponents import resolve_opponents
from analyzer.bounds import (AUCTION_BID, GAME_SCORE, SAMPLES_ADVISE, SAMPLES_ADVISE_PIMC,
                             TEAM_PIMC_SAMPLES)
from analyzer.errors import BinokelError, clip_input
from analyzer.mechanics.bidding import FOREHAND, parse_seat
from analyzer.mechanics.cards import COPIES80, N_TYPES, SUIT_LETTERS, Card, Hand, Hand80
from analyzer.mechanics.play import POLICY_HEURISTIC
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet
from analyzer.mechanics.bidding import check_turn
from analyzer.search.pimc import play_policies
from analyzer.parallel import resolve_jobs
from analyzer.search.pimc import play_name, resolve_play

PIMC_SAMPLES = 500      # default with --play pimc / pimc-defence (~2 PIMC play-outs a sample)
PIMC_MAX_SAMPLES = SAMPLES_ADVISE_PIMC.hi   # analyzer.bounds: shared with the CLI and the API
MAX_SAMPLES = SAMPLES_ADVISE.hi   # bounds memory: samples x rounds x bids x 3 scores of int64
MAX_AUCTION_BID = AUCTION_BID.hi  # above any total 18 cards can reach (R5 + R7: a monster's ~2,200)
MAX_GAME_SCORE = GAME_SCORE.hi  # |game score| bound for --scores (a game ends at 1500, R9)
#: the partners' table keeps a few numbers a sample (its bid grid is read off the totals)
MAX_PARTNERS_SAMPLES = 200_000


def parse_hand_for(hand, rules):
    """A validated hand of the game of ``rules`` (a RuleSet, or a partners game's TeamSpec)
    with its card counts: ``(Hand or Hand80, uint8[24])``.  One-line BinokelError on a
    card the deck lacks, a copy too many or the wrong size (R2; V1, V4.1, V5.1, V6.1)."""
    spec = partners_spec(rules)
    if spec is None:
        h = Hand.parse(hand, rules=rules)
        if len(h) != rules.hand_size:
            raise BinokelError(f"hand must have {rules.hand_size} cards, got {len(h)} (R2)")
        return h, h.counts_array().astype(np.uint8)
    if spec.copies == COPIES80:
        h = Hand80.parse(hand, size=spec.hand_size)
        return h, np.array(h.counts, dtype=np.uint8)
    try:
        h = Hand.parse(hand, rules=spec.rules)
    except TypeError:       # a Hand.parse without deck awareness
        h = Hand.parse(hand)
    counts = np.array(h.counts, dtype=np.uint8)
    for t in range(N_TYPES):
        if counts[t] and spec.tk.copies[t] == 0:
            raise BinokelError(f"{Card(t)} is not in the {spec.n_cards}-card deck of {spec.name}")
    if len(h) != spec.hand_size:
        raise BinokelError(f"a hand must have {spec.hand_size} cards in {spec.name}, got {len(h)}")
    return h, counts


def parse_seat_for(seat, rules) -> int:
    """The seat as an int: ``forehand``/``middlehand``/``rearhand`` or 0-2 at a lone
    soloist's table (R2), 0-3 at a partners' table (V1).  One-line BinokelError otherwise."""
    if partners_spec(rules) is None:
        if isinstance(seat, str) and not seat.strip():
            raise BinokelError("seat is empty: use forehand, middlehand or rearhand (R2)")
        return parse_seat(seat)
    try:
        s = int(str(seat).strip())
    except (TypeError, ValueError):
        raise BinokelError(f"seat {seat!r} must be a number 0-3 (four players, V1)") from None
    if not 0 <= s <= 3:
        raise BinokelError(f"seat {s} is outside 0-3 (four players, V1)")
    return s


def parse_scores_for(scores, objective, rules):
    """``(objective, scores)`` of an advice request, checked by the table's rules.

    A lone soloist's table (R9): ``scores`` the three game scores before this deal in
    seat order, or None; ``objective`` None (``win`` with scores, else ``relative``),
    ``relative``, ``own`` or ``win`` (needs scores).  A partners' table (V1): ``scores``
    the two teams' totals, this seat's team first (text "1200,900" or a pair); objective
    ``relative`` or ``win``.  One-line BinokelError on anything else."""
    spec = partners_spec(rules)
    if spec is not None:
        return _partners_scores(scores, objective, spec)
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
    return objective, scores


def _partners_scores(scores, objective, spec):
    """:func:`parse_scores_for` at a partners' table (V4.6, V5.7, V6.6)."""
    if objective not in (None, "relative", "win"):
        raise BinokelError(f"objective {objective!r} is not one of a team game's: relative "
                           f"(team minus the other team) or win (P(win game) from the scores)")
    if scores is None:
        if objective == "win":
            raise BinokelError("objective win needs the game scores: give the two teams' "
                               "totals, your team first, e.g. 1200,900")
        return "relative", None
    if isinstance(scores, str):
        parts = [t for t in scores.replace(",", " ").split()]
        try:
            vals = [int(t) for t in parts]
        except ValueError:
            raise BinokelError(f"scores {scores!r}: give two integers, your team's game total "
                               f"first, e.g. 1200,900") from None
    else:
        vals = [int(v) for v in scores]
    if len(vals) != 2:
        raise BinokelError(f"scores: a team game has two totals (your team, the other team), "
                           f"got {len(vals)}")
    target = int(spec.tk.target_score)
    for v in vals:
        if not -10 * target <= v < target:
            raise BinokelError(f"score {v} is outside {-10 * target}..{target - 1}: at "
                               f"{target} the game is over (V4.6, V5.7, V6.6)")
    return (objective or "win"), (vals[0], vals[1])


def parse_samples(samples, policy: int, rules) -> int:
    """The sample count as an int within the table's bound (and the PIMC bound with PIMC
    play); one-line BinokelError otherwise."""
    try:
        samples = int(samples)
    except (TypeError, ValueError):
        raise BinokelError(f"samples must be a whole number, got {clip_input(repr(samples))}") from None
    top = MAX_SAMPLES if partners_spec(rules) is None else MAX_PARTNERS_SAMPLES
    if not 1 <= samples <= top:
        raise BinokelError(f"samples must be between 1 and {top:,}, got {samples:,}")
    if policy != POLICY_HEURISTIC and samples > PIMC_MAX_SAMPLES:
        raise BinokelError(f"samples: at most {PIMC_MAX_SAMPLES:,} with --play {play_name(policy)} "
                           f"(~2 PIMC play-outs of ~3-4 ms each per sample), got {samples:,}")
    return samples


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
    """Recommend the maximum bid for a hand (R3; V1, V6.2), with P(make) and EV per bid.

    Parameters
    ----------
    hand : Hand or str
        The hand (15 cards in binokel-48, R2; the game's hand size, V1-V6).
    seat : str or int
        ``forehand``/``middlehand``/``rearhand`` (or 0, 1, 2); 0-3 at a partners' table (V1).
    auction : str or sequence
        The calls so far, e.g. ``"150 160 pass"`` (validated per R3, V1 or V6.2); it must
        be this seat's turn.  Empty: before the auction (forehand will open 150).
    scores : sequence of 3 ints, optional
        Game scores before this deal, in seat order (forehand, middlehand, rearhand); at
        a partners' table the two teams' totals, this seat's team first.
        Given scores switch the default objective to ``"win"`` (R9).
    objective : {"relative", "own", "win"}, optional
        ``relative`` (default): own deal score minus the mean of the opponents' scores
        (partners: the team's minus the other team's; no ``own``).
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
        ``explanation``; with ``lookahead`` a
        :class:`~analyzer.analyses.lookahead.LookaheadAdvice`.  At a partners' table
        (``rules.teams``, V1) ``partners`` is set: seats 0-3, rows per bid with the trump
        named, the team's objective, and with ``lookahead`` ``opponents`` models all
        three other seats.
    """
    policy = resolve_play(play, rules)
    if policy != POLICY_HEURISTIC and (lookahead or opponents not in (None, "rule")):
        raise BinokelError(f"--play {play_name(policy)} is not available with --lookahead or "
                           f"--opponents advisor: those play many more deals per sample")
    spec = partners_spec(rules)
    if spec is not None and samples is None and policy != POLICY_HEURISTIC:
        samples = TEAM_PIMC_SAMPLES     # a PIMC deal of partners costs 10-200 ms
    if samples is None:
        samples = DEFAULT_SAMPLES if policy == POLICY_HEURISTIC else PIMC_SAMPLES
    if spec is not None:
        return _advise_partners(spec, hand, seat, auction, scores, objective, samples,
                                0 if seed is None else seed, inference, lookahead, opponents,
                                policy, progress)
    h, counts = parse_hand_for(hand, rules)
    s = parse_seat_for(seat, rules)
    state = parse_auction_for(auction, rules)
    if state.standing > MAX_AUCTION_BID:
        raise BinokelError(f"auction: the standing bid {state.standing} is above {MAX_AUCTION_BID}, "
                           f"more than any hand can total (R5, R7)")
    objective, scores = parse_scores_for(scores, objective, rules)
    samples = parse_samples(samples, policy, rules)
    resolve_jobs(n_jobs)  # one-line error for a bad value before any work
    model = None
    if lookahead or opponents not in (None, "rule"):
        model = resolve_opponents(opponents, lookahead, rules)
    if lookahead:
        return advise_lookahead(h, s, state, scores, objective, samples, seed, n_jobs, inference,
                                rules, model, progress=progress)
    if model is not None:  # static advice with another opponent model: same kernel as look-ahead
        res = simulate_lookahead(counts, s, state, samples, seed, n_jobs, inference, rules, model,
                                 progress=progress)
    else:
        res = simulate_advice(counts, s, state, samples, seed, n_jobs, inference, rules,
                              progress=progress, policy=policy)
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


def _advise_partners(spec, hand, seat, auction, scores, objective, samples, seed: int,
                     inference: bool, lookahead: bool, opponents, policy: int,
                     progress=None) -> BidAdvice:
    """:func:`advise_bid` at a partners' table (V1; seats 0-3): the static advice
    (analyzer.analyses.advice_samples.sample_branches; the objective the team's score
    minus the other team's, or P(win game) from the two teams' totals) or the look-ahead
    (analyzer.analyses.lookahead.advise_partners_lookahead, whose ``opponents`` model all
    three other seats)."""
    if opponents is not None and not lookahead:
        raise BinokelError(f"--opponents needs --lookahead in the team game {spec.name}: "
                           f"the static team advisor reads every seat as a rule-of-thumb bidder")
    if lookahead and (scores is not None or objective not in (None, "relative")):
        raise BinokelError("the team look-ahead has one objective, the team's score minus "
                           "the other team's: --scores / --objective win need the static "
                           "team advice (no --lookahead)")
    h, counts = parse_hand_for(hand, spec)
    seat = parse_seat_for(seat, spec)
    state = parse_auction_for(auction, spec)
    check_turn(state, seat)
    samples = parse_samples(samples, policy, spec)
    if lookahead:
        model = partners_model(default_partners_model(spec) if opponents is None else opponents,
                               spec)
        return advise_partners_lookahead(h, counts, seat, state, spec, samples, seed, inference,
                                         model, model, progress=progress)
    objective, scores = parse_scores_for(scores, objective, spec)
    raw = sample_branches(counts, seat, state, samples, seed, spec, inference,
                          pol=play_policies(policy), progress=progress)
    nb = state.next_bid
    op = bids_over_partner(state, seat, spec)
    max_bid, table, pass_est, ess = summarize_partners_advice(raw, nb, spec.step, None, op,
                                                              objective, scores)
    return BidAdvice(h, seat, state, objective, samples, ess, nb, max_bid, pass_est, table, "",
                     False, None, inference, scores, seed, (), spec.name, spec.rules.low_card,
                     play=play_name(policy), partners=True, over_partner=op)
