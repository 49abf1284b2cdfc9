"""The bid advisor (R3, R4, R8, R9): how high should this hand bid?

Method (README "Methods" states it for users)
--------------------------------------------
For a 15-card hand in a given seat, with the auction so far, sample the 33 unseen cards
into the two opponents' hands and the Tapp uniformly (R2), then per sample:

1. **Soloist branch** - this hand takes the Tapp and makes the soloist's choices from its
   18 visible cards only (discard, trump and, per bid, play / surrender / Durch: the Monte
   Carlo exchange analyzer.mechanics.exchange.soloist_exchange, the same model as the hand
   analyzer's), and the deal is played and scored per R8/R4 for every bid of a grid
   (analyzer.mechanics.game.soloist_grid): P(make) and the expected score at each bid come
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

import math
from dataclasses import dataclass, field
from functools import cached_property
from types import SimpleNamespace

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.bidding import (DEFAULT_EVIDENCE_SCALE, DEFAULT_TRICK_ESTIMATE, FOREHAND, PASS, SEAT_NAMES,
                      AuctionState, auction_continue, evidence_likelihood, parse_seat,
                      rule_of_thumb_max_bid, rule_of_thumb_value, validate_auction)
from analyzer.mechanics.cards import N_TYPES, SUIT_LETTERS, SUITS, Hand
from analyzer.errors import BinokelError
from analyzer.parallel import parallel_map, resolve_jobs
from analyzer.mechanics.game import finish_deal, soloist_grid
from analyzer.mechanics.play import POLICY_HEURISTIC
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet
from analyzer.mechanics.sampling import deal_masks, mask_counts, remaining_deck
from analyzer.search.pimc import pimc_args, play_name, resolve_play
from analyzer.analyses.stats import z_value

OBJECTIVES = ("relative", "own", "win")
DEFAULT_SAMPLES = 2000
PIMC_SAMPLES = 500      # default with --play pimc / pimc-defence (~2 PIMC play-outs a sample)
PIMC_MAX_SAMPLES = 5000
GRID_SIZE = 60          # at least bids next..next+590; longer for hands that can total more
CHUNK = 500
ESS_FRACTION = 0.25     # below this effective share, draw more rounds (inference)
MAX_ROUNDS = 8
MAX_SAMPLES = 50_000    # bounds memory: samples x rounds x bids x 3 scores of int64
FEW_SAMPLES = 200       # below this (effective) many, the summary warns about its intervals
MAX_AUCTION_BID = 3000  # above any total 18 cards can reach (R5 + R7: a monster's ~2,200)
MAX_GAME_SCORE = 100_000  # |game score| bound for --scores (a game ends at 1500, R9)


def _clip(text: str, width: int = 60) -> str:
    """Echo at most ``width`` characters of user input in a message."""
    return text if len(text) <= width else text[:width - 1] + "…"


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


# --------------------------------------------------------------------------- objectives


def win_probability(totals: np.ndarray, soloist: np.ndarray, player: int,
                    target: int) -> np.ndarray:
    """Estimated P(``player`` wins the game) after a deal, per sample (R9).

    ``totals``: float[n, 3] game scores after the deal; ``soloist``: int[n] (-1 = none).
    If the deal ended the game (R9) the value is 1 or 0.  Otherwise a race model:
    ``P(i wins) = softmax(totals_i / tau)`` with ``tau = 150 * sqrt(deals_left)`` and
    ``deals_left = max(1, (target - leader) / 150)`` (150 points: a typical deal's swing),
    so a lead counts for more the closer the leader is to the target.
    """
    totals = np.asarray(totals, dtype=np.float64)
    n = totals.shape[0]
    reached = totals >= target
    idx = np.arange(n)
    sol = np.asarray(soloist, dtype=np.int64)
    sol_reached = (sol >= 0) & reached[idx, np.clip(sol, 0, 2)]
    opp = reached.copy()
    opp[idx[sol >= 0], sol[sol >= 0]] = False
    n_opp = opp.sum(axis=1)
    masked = np.where(opp, totals, -np.inf)
    best = masked.argmax(axis=1)
    top = masked.max(axis=1)
    tie = (n_opp >= 2) & ((masked == top[:, None]).sum(axis=1) >= 2)
    winner = np.full(n, -1, dtype=np.int64)
    winner[n_opp >= 1] = best[n_opp >= 1]
    winner[tie] = -1
    winner[sol_reached] = sol[sol_reached]
    race = race_probability(totals, player, target, RACE_SWING)
    return np.where(winner >= 0, (winner == player).astype(np.float64), race)


#: A typical deal's swing in the 1500-point three-player game (the race model's scale).
RACE_SWING = 150.0


def race_probability(totals: np.ndarray, player: int, target: int, swing: float) -> np.ndarray:
    """The race model of an unfinished game: P(``player`` wins) per row of ``totals``
    (float[n, k], each side's game total) = ``softmax(totals / tau)[player]`` with
    ``tau = swing * sqrt(deals_left)``, ``deals_left = max(1, (target - leader) / swing)``:
    a lead counts for more the closer the leader is to the target.  Shared by the
    three-player objective (:func:`win_probability`) and the team games'
    (analyzer.analyses.team_advice.team_win_probability)."""
    leader = totals.max(axis=1)
    deals_left = np.maximum(1.0, (target - leader) / swing)
    tau = swing * np.sqrt(deals_left)
    z = totals / tau[:, None]
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e[:, player] / e.sum(axis=1)


def _objective(scores: np.ndarray, seat: int, objective: str, game_scores, soloist, target):
    """Per-sample objective from deal scores by seat (float[n, 3])."""
    own = scores[:, seat].astype(np.float64)
    if objective == "own":
        return own
    if objective == "relative":
        others = scores.sum(axis=1) - scores[:, seat]
        return own - others / 2.0
    totals = scores.astype(np.float64) + np.asarray(game_scores, dtype=np.float64)[None, :]
    return win_probability(totals, soloist, seat, target)


# --------------------------------------------------------------------------- statistics


@dataclass(frozen=True)
class Estimate:
    """A (weighted) Monte Carlo mean with its 95 % interval; ``n`` = effective sample size."""

    mean: float
    lo: float
    hi: float
    se: float
    n: float

    def to_dict(self) -> dict:
        return {"mean": self.mean, "lo": self.lo, "hi": self.hi, "se": self.se, "n_eff": self.n}


def _wmean(x: np.ndarray, w: np.ndarray, ess: float) -> Estimate:
    sw = w.sum()
    m = float((w * x).sum() / sw)
    var = float((w * (x - m) ** 2).sum() / sw)
    se = math.sqrt(var / max(ess - 1.0, 1.0))
    h = z_value() * se
    return Estimate(m, m - h, m + h, se, ess)


def _wprop(flags: np.ndarray, w: np.ndarray, ess: float) -> Estimate:
    """Weighted proportion with a Wilson interval at the effective sample size."""
    p = float((w * flags).sum() / w.sum())
    z = z_value()
    n = max(ess, 1.0)
    z2 = z * z
    den = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / den
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half),
                    math.sqrt(p * (1 - p) / n), ess)


# --------------------------------------------------------------------------- API


@dataclass
class BidAdvice:
    """Result of :func:`advise_bid`.

    ``rows`` (one dict per bid, :func:`table_row`): ``bid``, ``p_make`` (+ ``_lo``/``_hi``),
    ``ev_score`` (own deal score if soloist at that bid, + CI), ``ev_objective`` (+ CI),
    ``minus_pass`` (paired objective difference to passing, + CI); ``table``: the same rows
    as a pandas DataFrame.
    """

    hand: Hand
    seat: int
    auction: AuctionState
    objective: str
    samples: int
    ess: float
    next_bid: int
    max_bid: int | None
    pass_value: Estimate
    rows: tuple         # of dicts (table_row), the bid table; ``table`` is its DataFrame
    explanation: str
    forced_open: bool
    surrender: dict | None
    inference: bool
    scores: tuple | None
    seed: int | None
    notes: tuple = ()   # what was assumed and what to distrust (printed, and in the JSON)
    rules: str = "binokel-48"   # the variant advised for (docs/VARIANTS.md)
    low_card: str = "9"
    trumps: tuple = ()  # ((suit letter, weighted share), ...) the soloist's exchange names, most first
    play: str = "heuristic"   # card play after the exchange (--play)

    @cached_property
    def table(self):
        """``rows`` as a pandas DataFrame (built on first use: importing pandas costs about
        0.4 s, a fifth of a whole ``binokel advise``, which prints from ``rows``)."""
        import pandas as pd

        return pd.DataFrame(list(self.rows))

    def summary(self) -> str:
        lines = [f"rules: {self.rules}   hand: {self.hand.show(self.low_card)}   seat: "
                 f"{SEAT_NAMES[self.seat]}   auction: {self.auction.describe()}"]
        obj = {"relative": "own score - mean of opponents' scores", "own": "own score",
               "win": "P(win game)"}[self.objective]
        lines.append(f"objective: {obj}   samples: {self.samples} (effective {self.ess:.0f})"
                     + ("" if self.play == "heuristic" else f"   play: {self.play}"))
        fmt_obj = (lambda e: f"{100 * e.mean:5.1f}% [{100 * e.lo:.1f}-{100 * e.hi:.1f}]") if self.objective == "win" \
            else (lambda e: f"{e.mean:+7.1f} [{e.lo:+.0f}, {e.hi:+.0f}]")
        lines.append(f"{'bid':>7}  {'P(make)':>17}  {'E[score]':>20}  {'E[objective]':>22}  vs pass"
                     f"  surr./Durch")
        rows = _row_views(self.rows)
        # runs of identical rows (a sure contract: same deals made at every bid) print once
        shown = []
        for r in rows:
            if shown and (round(r.p_make, 4), round(r.ev_score, 1), round(r.p_surrender, 3),
                          round(r.p_durch, 3)) == (
                    round(shown[-1][1].p_make, 4), round(shown[-1][1].ev_score, 1),
                    round(shown[-1][1].p_surrender, 3), round(shown[-1][1].p_durch, 3)):
                shown[-1] = (shown[-1][0], r, shown[-1][2])
                continue
            shown.append((r.bid, r, r))
        for first, last, r in shown:
            label = f"{first}" if first == last.bid else f"{first}-{last.bid}"
            lines.append(
                f"{label:>7}  {100 * r.p_make:5.1f}% [{100 * r.p_make_lo:4.1f}-{100 * r.p_make_hi:4.1f}]"
                f"  {r.ev_score:+7.1f} [{r.ev_score_lo:+5.0f},{r.ev_score_hi:+5.0f}]"
                f"  {fmt_obj(Estimate(r.ev_objective, r.ev_objective_lo, r.ev_objective_hi, 0, 0)):>22}"
                f"  {'+' if r.minus_pass >= 0 else '-':>7}"
                f"  {100 * r.p_surrender:4.0f}% /{100 * r.p_durch:3.0f}%")
        lines.append(f"pass: E[objective] {fmt_obj(self.pass_value)}")
        if self.trumps:
            shares = ", ".join(f"{SUITS[SUIT_LETTERS.index(t)].symbol} {100 * p:.0f}%"
                               for t, p in self.trumps if p >= 0.005)
            lines.append(f"exchange as soloist (from hand + Tapp, R4): trump {shares} of the "
                         f"samples; surr./Durch = how often it surrenders or plays Durch at "
                         f"that bid")
        if self.surrender and self.surrender["p_chosen"] == 0:
            lines.append(f"surrender at {self.surrender['bid']} (R4) would score -{self.surrender['bid']} "
                         f"for you and {self.surrender.get('bonus', 50)} + melds for each opponent; the exchange "
                         "never chose it here")
        elif self.surrender:
            s = self.surrender
            lines.append(f"surrender at {s['bid']} (R4): you score {-s['bid']}, each opponent "
                         f"{s.get('bonus', 50)} + melds "
                         f"(mean {s['opponent_mean']:.0f}); chosen by the exchange in {100 * s['p_chosen']:.0f}% "
                         f"of samples")
        lines += [f"note: {n}" for n in self.notes]
        lines.append(self.explanation)
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {
            "rules": self.rules,
            "hand": self.hand.codes(self.low_card),
            "seat": SEAT_NAMES[self.seat],
            "auction": [("pass" if c == PASS else c) for _, c in self.auction.calls],
            "objective": self.objective,
            "scores": list(self.scores) if self.scores else None,
            "samples": self.samples,
            "effective_samples": self.ess,
            "inference": self.inference,
            "seed": self.seed,
            "next_bid": self.next_bid,
            "max_bid": self.max_bid,
            "pass_value": self.pass_value.to_dict(),
            "table": [dict(r) for r in self.rows],
            "forced_open": self.forced_open,
            "surrender": self.surrender,
            "explanation": self.explanation,
            "notes": list(self.notes),
            "trumps": [{"trump": t, "share": p} for t, p in self.trumps],
            "play": self.play,
        }


def _next_bid(state: AuctionState, seat: int, rules: RuleSet) -> tuple[int, tuple[int, int, int, int]]:
    """The lowest bid this seat could say next, and the kernel auction state to pass from."""
    start, step = rules.bid_start, rules.bid_step
    if not state.calls and rules.forced_opening:
        # nothing said yet: forehand opens (forced); the others' first possible raise is 160
        return (start if seat == FOREHAND else start + step), (0, 0, 1, start)
    if not state.calls and seat != FOREHAND:
        # V2.2: forehand may still pass; assume it opens (its call is not known yet)
        return start + step, (0, 0, 1, start)
    if state.finished:
        end = ("all three passed: the deal is thrown in" if state.thrown_in
               else f"{SEAT_NAMES[state.soloist]} is soloist at {state.standing}")
        raise BinokelError(f"the auction is over ({end}): nothing left to bid "
                           f"({'R3' if rules.forced_opening else 'V2.2'})")
    if state.to_move != seat:
        said = _clip(' '.join('pass' if c == PASS else str(c) for _, c in state.calls))
        hint = ""
        if seat == 2 and state.stage == 0:
            hint = ("; rearhand calls once forehand or middlehand has passed (e.g. '150 pass' "
                    "or '150 160 pass'); with no auction at all it assumes forehand opened 150 "
                    "and nothing else is known")
        raise BinokelError(f"after '{said}' it is {SEAT_NAMES[state.to_move]}'s call, not "
                           f"{SEAT_NAMES[seat]}'s (R3){hint}")
    return state.standing + step, state.kernel_state()


def total_bound(hand_counts: np.ndarray, rules: RuleSet) -> int:
    """An upper bound of the soloist's total (R8) for this hand: all card points of the
    deal (R7) plus the best meld (R5) of the hand with any Tapp (melds never shrink when
    cards are added, so the 18 cards bound every 15 kept).  Above it only a Durch (R4,
    scored without the bid) can still be made."""
    from itertools import combinations_with_replacement

    from analyzer.mechanics.cards import PLANE
    from analyzer.mechanics.melds import meld_table

    counts = np.asarray(hand_counts, dtype=np.int64)
    free = [t for t in range(N_TYPES) for _ in range(2 - int(counts[t]))]
    combos = np.array(sorted(set(combinations_with_replacement(sorted(set(free)), rules.tapp_size))),
                      dtype=np.int64)
    c = np.repeat(counts[None, :], len(combos), axis=0)
    for j in range(combos.shape[1]):
        np.add.at(c, (np.arange(len(combos)), combos[:, j]), 1)
    c = c[(c <= 2).all(axis=1)]
    bits = np.int64(1) << np.arange(N_TYPES, dtype=np.int64)
    masks = ((c >= 1) * bits).sum(axis=1) | (((c >= 2) * bits).sum(axis=1) << PLANE)
    card_points = 2 * sum(rules.card_points) * 4 + rules.last_trick_bonus
    return int(card_points + meld_table(masks, rules).max())


def bid_grid(next_bid: int, hand_counts: np.ndarray, rules: RuleSet) -> np.ndarray:
    """The advisor's bids: from ``next_bid`` in steps of 10 (R3), at least GRID_SIZE of
    them and on to one step past :func:`total_bound`, where P(make) can no longer come
    from a played contract (item: the grid never ends while the hand still makes)."""
    step = rules.bid_step
    k = max(GRID_SIZE, (total_bound(hand_counts, rules) - next_bid) // step + 2)
    return next_bid + step * np.arange(k, dtype=np.int64)


def sample_rounds(run_chunk, chunk_args, samples: int, n_jobs: int, inference: bool,
                  progress=None) -> dict:
    """Draw ``samples`` deals in chunks of CHUNK through ``run_chunk(*chunk_args(chunk, n))``
    (chunk = the chunk's index in the seed sequence, n = its deals) and concatenate the
    returned dicts of arrays (each has a ``weight`` array).

    With ``inference``, while the weights leave fewer than ``samples * ESS_FRACTION``
    effective samples, further rounds of ``samples`` deals are drawn, up to MAX_ROUNDS in
    all; chunk indices continue the same sequence, so the result depends only on the seed
    and never on ``n_jobs``.  ``progress(done, planned)`` is called after each chunk;
    ``planned`` grows when a round is added.
    """
    sizes = [min(CHUNK, samples - i) for i in range(0, samples, CHUNK)]
    parts = []
    for rnd in range(MAX_ROUNDS):
        base = rnd * len(sizes)
        args = [chunk_args(base + c, n) for c, n in enumerate(sizes)]
        planned = (rnd + 1) * len(sizes)
        # threads: each chunk is one nogil kernel call (analyzer.parallel.parallel_map)
        for part in parallel_map(run_chunk, args, n_jobs, len(args), threads=True):
            parts.append(part)
            if progress is not None:
                progress(len(parts), planned)
        w = np.concatenate([p["weight"] for p in parts])
        if not inference or w.sum() ** 2 / (w ** 2).sum() >= ESS_FRACTION * samples:
            break
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


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
    nxt, kstate = _next_bid(state, seat, rules)
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


def recommended_max_bid(res: dict, seat: int, objective: str, scores, rules: RuleSet):
    """The last bid, counting up from the next legal one, whose weighted mean objective
    as soloist beats passing's (paired over the same samples), stopping at the first bid
    that is worse; exact ties neither stop nor extend it.  None = pass."""
    w = res["weight"]
    n, K = res["sol_made"].shape
    target = rules.target_score
    pass_obj = _objective(res["pass_scores"], seat, objective, scores, res["pass_soloist"], target)
    sol = np.full(n, seat)
    best = None
    sw = w.sum()
    for k in range(K):
        obj = _objective(res["sol_scores"][:, k, :], seat, objective, scores, sol, target)
        d = float((w * (obj - pass_obj)).sum()) / sw
        if d < 0:
            break
        if d > 0:
            # an exact tie (e.g. P(win game) 0 either way) is no reason to bid on: it
            # neither stops the count nor extends the recommendation
            best = int(res["bids"][k])
    return best


def table_row(**figures) -> dict:
    """One row of a bid table: ``bid`` a Python int, every other figure a Python float.

    These are the types (and values) a pandas DataFrame of the rows hands back from
    ``itertuples`` / ``to_dict(orient="records")``, so the text and the JSON printed from
    the rows are the ones printed from the DataFrame before (also ``round()``, which
    rounds a numpy float differently from a Python float)."""
    return {k: (int(v) if k == "bid" else float(v)) for k, v in figures.items()}


def _row_views(rows) -> list:
    """The rows with attribute access (``r.p_make``), as ``DataFrame.itertuples`` gave."""
    return [SimpleNamespace(**r) for r in rows]


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
    pass_obj = _objective(res["pass_scores"], seat, objective, scores, res["pass_soloist"], target)
    pass_est = _wmean(pass_obj, w, ess)
    rows = []
    for k in range(K):
        sc = res["sol_scores"][:, k, :]
        obj = _objective(sc, seat, objective, scores, np.full(n, seat), target)
        pm = _wprop(res["sol_made"][:, k].astype(np.float64), w, ess)
        ev = _wmean(sc[:, seat].astype(np.float64), w, ess)
        eo = _wmean(obj, w, ess)
        d = _wmean(obj - pass_obj, w, ess)
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


#: A bid table may end once P(make) is below this (the contract is then all but lost).
SMALL_P_MAKE = 0.01
#: ... or this many bids past the recommended one (each already worth less than passing).
ROWS_PAST = 8


def table_extent(p_make, last: int) -> int:
    """How many rows of a bid table (rows = bids from the next legal one) to show, the one
    rule of every advice table (three-player and team, text and JSON): past the
    recommended bid (row ``last``; -1 = pass) up to and including the first bid where
    P(make) is small (``SMALL_P_MAKE``), or ``ROWS_PAST`` bids past the recommendation,
    which already fall below passing; never fewer than 3 rows, and always the
    recommended bid and the one after it (the explanation quotes them, also where
    P(make) is already negligible there, as in score-aware advice near R9).  ``p_make``: P(make) per row of the grid."""
    k = len(p_make)
    keep = max(3, next((i + 1 for i, p in enumerate(p_make) if p < SMALL_P_MAKE), k))
    keep = min(keep, max(last, 0) + ROWS_PAST + 1)
    keep = max(keep, last + 2)
    return min(keep, k)


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
    table = _row_views(rows)
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


def advice_notes(state: AuctionState, seat: int, n_drawn: int, ess: float, rules: RuleSet) -> tuple:
    """What the advice assumed and what to distrust (BidAdvice.notes)."""
    notes = []
    if not state.calls and seat != FOREHAND:
        notes.append(f"no calls given: assumed forehand opened {rules.bid_start} (R3) and nothing "
                     f"else is known about the others' calls; give --auction for better advice")
    if n_drawn < FEW_SAMPLES:
        notes.append(f"only {n_drawn} sampled deals: the intervals are rough (a Wilson interval "
                     f"for P(make), normal ones for the means); use --samples {DEFAULT_SAMPLES} or more")
    elif ess < FEW_SAMPLES:
        notes.append(f"only {ess:.0f} effective samples fit the auction (inference weights); "
                     f"raise --samples for tighter intervals")
    return tuple(notes)


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
    if samples is None:
        samples = DEFAULT_SAMPLES if policy == POLICY_HEURISTIC else PIMC_SAMPLES
    if getattr(rules, "teams", False):
        from analyzer.analyses.team_advice import advise_team

        if opponents is not None and not lookahead:
            raise BinokelError(f"--opponents needs --lookahead in the team game {rules.name}: "
                               f"the static team advisor reads every seat as a rule-of-thumb bidder")
        if lookahead and (scores is not None or objective not in (None, "relative")):
            raise BinokelError("the team look-ahead has one objective, the team's score minus "
                               "the other team's: --scores / --objective win need the static "
                               "team advice (no --lookahead)")
        if lookahead:
            from analyzer.analyses.team_lookahead import advise_team_lookahead

            return advise_team_lookahead(hand, seat, auction, rules, samples,
                                         0 if seed is None else seed, inference, opponents,
                                         progress=progress)
        return advise_team(hand, seat, auction, rules, samples, 0 if seed is None else seed,
                           inference, progress=progress, scores=scores, objective=objective)
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
                               f"got {_clip(repr(scores))}") from None
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
        raise BinokelError(f"samples must be a whole number, got {_clip(repr(samples))}") from None
    if not 1 <= samples <= MAX_SAMPLES:
        raise BinokelError(f"samples must be between 1 and {MAX_SAMPLES:,}, got {samples:,}")
    if policy != POLICY_HEURISTIC and samples > PIMC_MAX_SAMPLES:
        raise BinokelError(f"samples: at most {PIMC_MAX_SAMPLES:,} with --play {play_name(policy)} "
                           f"(~2 PIMC play-outs of ~3-4 ms each per sample), got {samples:,}")
    resolve_jobs(n_jobs)  # one-line error for a bad value before any work
    model = None
    if lookahead or opponents not in (None, "rule"):
        from analyzer.analyses.opponents import resolve_opponents

        model = resolve_opponents(opponents, lookahead, rules)
    if lookahead:
        from analyzer.analyses.lookahead import advise_lookahead

        return advise_lookahead(h, s, state, scores, objective, samples, seed, n_jobs, inference,
                                rules, model, progress=progress)
    if model is not None:  # static advice with another opponent model: same kernel as look-ahead
        from analyzer.analyses.lookahead import simulate_lookahead

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
