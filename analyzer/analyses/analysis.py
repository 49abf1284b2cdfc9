"""Hand analyzer: meld, card-point and score distributions of a hand as soloist (R2-R8).

Layers
------
- :func:`_soloist_chunk` (numba): one chunk of sampled deals; per deal the exchange (R4)
  decided from hand + Tapp only, the play-out with the heuristic policy (R6, R7) and the
  scores at every bid of a grid (R8, R4).
- :func:`simulate_soloist`: validates input, fixes the sampling plan, runs the chunks
  through joblib and returns plain per-deal numpy arrays (for the bid advisor and
  anything else that needs deal-level outcomes).
- :func:`analyze_hand`: summarises those arrays into an immutable :class:`HandAnalysis`
  holding pandas DataFrames and a text ``summary()``.

Sampling (R2)
-------------
The player's 15 cards are fixed.  With a known Tapp its 3 cards are fixed too and the other
30 cards are split 15/15 uniformly between the two opponents.  With an unknown Tapp, the Tapp
is one of the C(33, 3) = 5,456 equally likely 3-subsets of the 33 physical cards the player
does not hold; deal ``i`` uses subset ``order[i mod 5456]`` of one seeded random permutation
``order`` (each Tapp is used equally often over complete cycles, and never twice within
the first 5,456 deals: sampling without replacement, whose variance is never larger than
independent draws; intervals are computed as for independent draws, so they are slightly
conservative).  Enumerating all 5,456 Tapps exactly would cost 5,456 exchange decisions
and play-outs per run for a between-Tapp variance that is only one part of the total (the
opponents' hands and play add the rest), so it does not beat sampling at the default sizes.

Reproducibility
---------------
Deals are cut into chunks of ``CHUNK`` deals, fixed by ``samples`` alone.  Chunk ``i`` draws
its deals from ``analyzer.mechanics.rng.chunk_state(seed, i)`` and its exchange Monte Carlo from a
second, independent stream (SeedSequence spawn key ``(i, 1)``), so the numbers do not depend
on ``n_jobs``.

Games with partners
-------------------
Monte Carlo analysis of one hand as the soloist of a Binokel team game (V4, V5).

For an 11-card (``kreuz-48``) or 9-card (``kreuz-40``) hand in seat ``seat`` the unseen
cards are dealt uniformly to the three other hands and the Dabb (V4.1, V5.1; or the Dabb
is given).  Per sample this seat is the soloist: it takes the Dabb, exchanges and names
trump from its own cards only (analyzer.mechanics.exchange.soloist_choice), the
deal is played by the team policy and scored (V4.6, V5.7), and every contract the
soloist could choose is recorded (analyzer.search.partner_deals.dabb_outcomes): going
out (V4.3, V5.4) and a sure Durch (V4.6) beside the trump game.

The result gives the trump the exchange names (shares), the distributions of the team's
meld (both partners, counted with a team trick), its card points (the discard included,
before rounding), its total as scored when the bid is reached, and the other team's
score, each with mean, 95 % CI and quantiles; P(team total >= b) for bids from the
opening bid; and at one bid (``bid``) the soloist's contract shares and the team's
expected score and objective (team - other team) with CIs, the contract chosen per
sample as in play (analyzer.analyses.advice_samples.bid_outcome).  Pinochle
(``pinochle-80``, no Dabb) has its own analysis, :func:`analyze_pinochle_hand`;
:func:`analyze_team_hand` dispatches on the rules' Dabb size.

Monte Carlo analysis of one 20-card Pinochle hand (V6.3, V6.5, V6.6).

For a hand in the bidder's seat, the 60 unseen cards are dealt uniformly to the other
three seats (V6.1) and, for each trump, the deal is played by the team policy with this
hand leading (V6.2).  Per trump the result gives the distributions of the partner's
meld, the team's meld, the counters the team takes (V6.5, last trick included), the
team's total (counted melds + counters, V6.3/V6.6) and the other team's score, each with
its mean, 95 % CI and quantiles, and P(team total >= b) for bids from 500: the number a
bidder needs.  The hand's own meld is exact (no sampling).
"""
from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import numpy as np

from analyzer._jit import njit
from analyzer.analyses.advice import parse_hand_for, parse_seat_for
from analyzer.analyses.advice_samples import bid_outcome, soloist_contracts, unseen_deck
from analyzer.mechanics.cards import (N_SUITS, N_TYPES, SUIT_LETTERS, SUIT_SYMBOLS, Card, Hand,
                                      Hand80, card_code, suit_symbol, tapp_word)
from analyzer.errors import BinokelError
from analyzer.parallel import parallel_map, resolve_jobs
from analyzer.mechanics.exchange import (CONTRACT_DURCH, CONTRACT_OPEN_DURCH, CONTRACT_SURRENDER,
                                         EXCHANGE_SAMPLES, EXCHANGE_TOP, PER_TRUMP,
                                         candidate_outcomes, decide_contracts,
                                         shortlist_candidates, soloist_exchange)
from analyzer.mechanics.melds import class_meld_total, class_melds, meld_table
from analyzer.mechanics.play import POLICY_HEURISTIC, beat_table
from analyzer.search.pimc import pimc_args, play_name, play_policies, resolve_play
from analyzer.mechanics.rng import chunk_state, make_state, next_u64
from analyzer.mechanics.rules import (DEFAULT_RULES, PINOCHLE_80, RuleSet, TeamRuleSet, TeamSpec,
                                      get_rules, team_kernel, team_spec)
from analyzer.mechanics.sampling import deal_counts_fixed, deal_masks, mask_counts, unseen_cards
from analyzer.mechanics.scoring import rounded_points
from analyzer.mechanics.game import (O_COLS,
                                     O_DURCH_MADE,
                                     O_EST,
                                     O_LOSERS,
                                     O_OTHER,
                                     O_OUT_OTHER,
                                     O_TOTAL,
                                     RES_COLS,
                                     R_MELD,
                                     R_POINTS,
                                     R_SCORE,
                                     R_TRUMP)
from analyzer.search.partner_deals import dabb_outcomes, named_trump_contract
from analyzer.analyses.stats import histogram, mean_ci, proportion_ci, quantiles, reach_table, reach_text
from analyzer.bounds import ANALYZE_BID, SAMPLES_ANALYZE, SAMPLES_ANALYZE_PIMC, SEED
from analyzer.search.deals import soloist_play

if TYPE_CHECKING:  # pandas is imported lazily (see summarize)
    import pandas as pd

CHUNK = 128                 # deals per chunk (fixed: chunk boundaries never depend on n_jobs)
DEFAULT_SAMPLES = 10000     # deals scored by default (~8 s on one core, unknown Tapp)
PIMC_SAMPLES = 1024         # default with --play pimc / pimc-defence (PIMC: ~3-4 ms a deal)
PIMC_MAX_SAMPLES = SAMPLES_ANALYZE_PIMC.hi   # bound with PIMC (hours on one core beyond it)
MAX_SAMPLES = SAMPLES_ANALYZE.hi             # ~1 KB of per-deal arrays a deal (analyzer.bounds)
KNOWN_TAPP_SAMPLES = 2000   # fresh deals per candidate for the single known-Tapp decision
KNOWN_TAPP_TOP = 6
MAX_BID = ANALYZE_BID.hi    # top of the bid grid simulated (the tables stop much earlier)
N_TAPPS = math.comb(33, 3)  # 5,456 possible Tapps when the player's 15 cards are known

SEATS = {"forehand": 0, "middlehand": 1, "rearhand": 2}
SEAT_NAMES = ("forehand", "middlehand", "rearhand")
CONTRACT_NAMES = ("play", "surrender", "durch", "open durch")


# ------------------------------------------------------------------------------ kernels

@njit
def _soloist_chunk(hand15, tapps, seat, m, n_top, per_trump, fixed, fixed_disc, fixed_trump,
                   fixed_durch_disc, fixed_contract, bids, state_deal, state_x, kr, policy,
                   o_disc, o_trump, o_meld, o_dpts, o_cp, o_tricks, o_total, o_opp_cp,
                   o_opp_tricks, o_opp_meld, o_durch_ok, o_durch_made, o_est, o_contract,
                   o_score, pimc=None):
    """Simulate ``tapps.shape[0]`` deals with the player (seat ``seat``) as soloist.

    Per deal ``i``: Tapp ``tapps[i]`` (3 card types); exchange (R4) decided from hand +
    Tapp only - by the fixed decision when ``fixed`` (known Tapp, decided once outside),
    else by analyzer.mechanics.exchange.soloist_exchange (``m`` fresh deals from
    ``state_x``); then the two opponents' hands are dealt from ``state_deal`` and
    analyzer.search.deals.soloist_play plays the chosen trump contract with ``policy``
    (analyzer.search.pimc.play_contract: heuristic, or PIMC; forehand leads, R6), and the
    Durch candidate too if there is one (soloist leads).  The bid advisor's soloist branch
    (analyzer.search.deals.soloist_grid) runs the same two functions.  The exchange's
    own estimates always use the heuristic (they are the soloist's planning, not the
    deal's play).
    ``o_score[i, b]`` is the soloist's R8/R4 score at ``bids[b]`` under the contract chosen
    for that bid.  Opponent columns are in seat order after the soloist.  ``pimc``: the
    PIMC settings with a PIMC ``policy`` (analyzer.search.pimc.pimc_args); omitted for the
    heuristic, whose variant of this kernel then holds no PIMC code.
    """
    n = tapps.shape[0]
    nb = bids.shape[0]
    D = kr.tapp_size          # Dabb = discard size: 3, or 4 in binokel-40 (V5.3)
    counts18 = np.empty(N_TYPES, dtype=np.uint8)
    contract = np.empty(nb, dtype=np.int8)
    deck = np.empty(48, dtype=np.uint8)
    sizes = np.empty(2, dtype=np.int64)
    masks = np.empty(2, dtype=np.int64)
    hands = np.zeros((3, N_TYPES), dtype=np.uint8)
    trk = np.zeros(3, dtype=np.int64)
    cp3 = np.zeros(3, dtype=np.int64)
    md3 = np.zeros(3, dtype=np.int64)
    durch_tricks = np.zeros(3, dtype=np.int64)
    sc = np.empty((nb, 3), dtype=np.int64)
    play_state = np.empty(4, dtype=np.uint64)
    disc = np.empty(D, dtype=np.int64)
    ddisc = np.empty(D, dtype=np.int64)
    tapp_c = np.zeros(N_TYPES, dtype=np.uint8)
    opp1 = (seat + 1) % 3
    opp2 = (seat + 2) % 3
    for i in range(n):
        for t in range(N_TYPES):
            counts18[t] = hand15[t]
        for t in range(N_TYPES):
            tapp_c[t] = 0
        for q in range(D):
            counts18[tapps[i, q]] += 1
            tapp_c[tapps[i, q]] += 1
        # ---- the soloist's choices: inputs are hand + Tapp (and its own RNG stream) only
        # (R4); the same function as the bid advisor's (analyzer.search.deals.soloist_grid)
        est = np.nan
        if fixed:
            for q in range(D):
                disc[q] = fixed_disc[q]
                ddisc[q] = fixed_durch_disc[q]
            trump = fixed_trump
            has_durch = fixed_durch_disc[0] >= 0
            for b in range(nb):
                contract[b] = fixed_contract[b]
        else:
            for q in range(D):
                ddisc[q] = -1
            trump, has_durch, est = soloist_exchange(counts18, seat, bids, m, n_top, per_trump,
                                                     state_x, kr, disc, ddisc, contract)
        # ---- the deal's hidden cards: the 30 cards outside hand + Tapp, split 15/15 (R2;
        # 24 split 12/12 in binokel-40, V5.1)
        nd = unseen_cards(counts18, kr.copies, deck)
        sizes[0] = nd // 2
        sizes[1] = nd - nd // 2
        deal_masks(state_deal, deck[:nd], sizes, masks)
        mask_counts(masks[0], hands[opp1])
        mask_counts(masks[1], hands[opp2])
        for t in range(N_TYPES):
            hands[seat, t] = hand15[t]
        for q in range(4):
            play_state[q] = next_u64(state_deal)
        # ---- trump contract (R6, R7) and Durch candidate (R4) played, scored at every bid
        durch_made = soloist_play(hands, counts18, tapp_c, seat, trump, disc, has_durch, ddisc,
                                  contract, bids, play_state, policy, kr, cp3, trk, md3,
                                  durch_tricks, sc, pimc)
        dpts = 0
        for q in range(D):
            dpts += kr.card_points[disc[q]]
        for q in range(D):
            o_disc[i, q] = disc[q]
        o_trump[i] = trump
        o_meld[i] = md3[seat]
        o_dpts[i] = dpts
        o_cp[i] = cp3[seat]
        o_tricks[i] = trk[seat]
        # R8 on rounded card points where the variant rounds (V1)
        o_total[i] = rounded_points(cp3[seat], kr) + (md3[seat] if trk[seat] > 0 else 0)
        o_opp_cp[i, 0] = cp3[opp1]
        o_opp_cp[i, 1] = cp3[opp2]
        o_opp_tricks[i, 0] = trk[opp1]
        o_opp_tricks[i, 1] = trk[opp2]
        o_opp_meld[i, 0] = md3[opp1]
        o_opp_meld[i, 1] = md3[opp2]
        o_est[i] = est
        o_durch_ok[i] = has_durch
        o_durch_made[i] = durch_made
        for b in range(nb):
            o_contract[i, b] = contract[b]
            o_score[i, b] = sc[b, seat]
    return n


# ------------------------------------------------------------------------------ helpers

def parse_seat(seat) -> int:
    """Seat name (forehand, middlehand, rearhand; fh/mh/rh; German) or 0..2 -> 0..2 (R2)."""
    if isinstance(seat, (int, np.integer)) and not isinstance(seat, bool):
        if 0 <= int(seat) <= 2:
            return int(seat)
        raise BinokelError(f"unknown seat {seat!r}: use forehand, middlehand or rearhand (R2)")
    key = str(seat).strip().lower()
    aliases = {"fh": "forehand", "mh": "middlehand", "rh": "rearhand", "vorhand": "forehand",
               "mittelhand": "middlehand", "hinterhand": "rearhand"}
    key = aliases.get(key, key)
    if key not in SEATS:
        raise BinokelError(f"unknown seat {seat!r}: use forehand, middlehand or rearhand (R2)")
    return SEATS[key]


def _validate(hand, tapp, samples, rules: RuleSet):
    """Parse and check hand, Tapp and sample count; one-line BinokelError on bad input."""
    h = Hand.parse(hand, rules=rules)
    if len(h) != rules.hand_size:
        raise BinokelError(f"hand must have {rules.hand_size} cards in {rules.name}, got {len(h)}")
    t = None
    if tapp is not None:
        t = Hand.parse(tapp, rules=rules)
        if len(t) != rules.tapp_size:
            raise BinokelError(f"Tapp must have {rules.tapp_size} cards in {rules.name}, "
                               f"got {len(t)}")
        for card_id, (a, b) in enumerate(zip(h.counts, t.counts)):
            if a + b > 2:
                c = Card(card_id)
                raise BinokelError(
                    f"hand and Tapp hold {a + b} copies of {c} ({c.code}): the deck has only "
                    "two of each card (R1)")
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)):
        raise BinokelError(f"samples must be a whole number >= 1, got {samples!r}")
    if int(samples) < 1:
        raise BinokelError(f"samples must be >= 1, got {samples}")
    return h, t


def _stream(seed_entropy: int, key: tuple[int, ...]) -> np.ndarray:
    """A kernel RNG state for an auxiliary stream of the run (spawn key ``key``)."""
    return make_state(np.random.SeedSequence(seed_entropy, spawn_key=key))


def _resolve_seed(seed) -> int:
    if seed is None:
        return int(np.random.SeedSequence().entropy)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or int(seed) < 0:
        raise BinokelError(f"seed must be a non-negative whole number, got {seed!r}")
    return SEED.check(int(seed), "seed")


def tapp_table(hand: Hand, rules: RuleSet = DEFAULT_RULES) -> np.ndarray:
    """All equally likely Tapps (Dabbs) for ``hand`` as card types.

    binokel-48: C(33,3) = 5,456 rows of 3; binokel-40: C(28,4) = 20,475 rows of 4 (V5.1).
    Rows are the subsets of the physical cards not in the hand (R2: every such subset
    is equally likely), so a type appears twice in a row when both its copies are in it.
    """
    copies = rules.kernel.copies
    phys = [t * 2 + c for t in range(N_TYPES) for c in range(int(copies[t]) - hand.counts[t])]
    rows = np.array(list(itertools.combinations(phys, rules.tapp_size)), dtype=np.int64) // 2
    return rows


def bid_grid(rules: RuleSet, max_bid: int = MAX_BID) -> np.ndarray:
    """Bids ``bid_start, bid_start + bid_step, ... <= max_bid`` (R3)."""
    return np.arange(rules.bid_start, max_bid + 1, rules.bid_step, dtype=np.int64)


def _total_bound(h: Hand, t: Hand | None, rules: RuleSet) -> int:
    """An upper bound of the soloist's total (R8): best meld of all 18 cards + all 250
    card points (melds never grow when cards are removed, so the kept 15 meld no more).
    Bids above it can never be made, so the bid grid stops one step above it."""
    if t is not None:
        masks = np.array([(h + t).mask], dtype=np.int64)
    else:
        tab = tapp_table(h, rules)
        c = np.tile(np.array(h.counts, dtype=np.int64), (len(tab), 1))
        for q in range(rules.tapp_size):
            np.add.at(c, (np.arange(len(tab)), tab[:, q]), 1)
        bits = np.int64(1) << np.arange(N_TYPES, dtype=np.int64)
        lo = ((c >= 1) * bits).sum(axis=1)
        hi = ((c >= 2) * bits).sum(axis=1)
        masks = lo | (hi << np.int64(24))
    best = int(meld_table(masks, rules).max()) + rules.tapp_size * rules.trump_nine  # V2.3
    cap = best + 2 * N_SUITS * sum(rules.card_points) + rules.last_trick_bonus
    step = rules.bid_step
    return rules.bid_start + ((max(cap - rules.bid_start, 0) + step - 1) // step + 1) * step


def _decide_known(h: Hand, t: Hand, seat: int, bids, m: int, n_top: int, per_trump: int,
                  state, kr):
    """Monte Carlo exchange decision for a known Tapp (R4): candidates and their outcomes."""
    counts18 = (h + t).counts_array()
    cap = n_top + 1
    cand_disc = np.empty((cap, kr.tapp_size), dtype=np.int64)
    cand_trump = np.empty(cap, dtype=np.int64)
    cand_value = np.empty(cap, dtype=np.float64)
    nc = shortlist_candidates(counts18, kr, n_top, per_trump, cand_disc, cand_trump,
                              cand_value)
    c_total = np.empty((cap, m), dtype=np.int64)
    c_tricks = np.empty((cap, m), dtype=np.int64)
    candidate_outcomes(counts18, seat, cand_disc, cand_trump, nc, m, state, kr, c_total,
                       c_tricks)
    contract = np.empty(len(bids), dtype=np.int8)
    e_out = np.empty((len(bids), 3), dtype=np.float64)
    sure = bool(nc > 0 and cand_trump[nc - 1] < 0 and cand_value[nc - 1] == 0.0)
    best, durch = decide_contracts(cand_trump, nc, c_total, c_tricks, m, bids, kr, contract,
                                   e_out, sure)
    return dict(n=nc, disc=cand_disc[:nc].copy(), trump=cand_trump[:nc].copy(),
                value=cand_value[:nc].copy(), total=c_total[:nc].copy(),
                tricks=c_tricks[:nc].copy(), best=int(best), durch=int(durch),
                contract=contract, e=e_out)


def _run_chunk(args):
    (hand15, tapps, seat, m, n_top, per_trump, fixed, fd, ft, fdd, fc, bids, st_deal, st_x,
     rules, policy) = args
    kr = rules.kernel
    n = tapps.shape[0]
    nb = bids.shape[0]
    out = dict(
        discard=np.empty((n, kr.tapp_size), np.int64), trump=np.empty(n, np.int64),
        meld=np.empty(n, np.int64), discard_points=np.empty(n, np.int64),
        card_points=np.empty(n, np.int64), tricks=np.empty(n, np.int64),
        total=np.empty(n, np.int64), opp_card_points=np.empty((n, 2), np.int64),
        opp_tricks=np.empty((n, 2), np.int64), opp_meld=np.empty((n, 2), np.int64),
        durch_considered=np.empty(n, np.bool_), durch_made=np.empty(n, np.int8),
        est_total=np.empty(n, np.float64), contract=np.empty((n, nb), np.int8),
        score=np.empty((n, nb), np.int32),
    )
    _soloist_chunk(hand15, tapps, seat, m, n_top, per_trump, fixed, fd, ft, fdd, fc, bids,
                   st_deal, st_x, kr, policy, out["discard"], out["trump"], out["meld"],
                   out["discard_points"], out["card_points"], out["tricks"], out["total"],
                   out["opp_card_points"], out["opp_tricks"], out["opp_meld"],
                   out["durch_considered"], out["durch_made"], out["est_total"],
                   out["contract"], out["score"], *pimc_args(policy, kr))
    out["tapp"] = tapps
    return out


# ------------------------------------------------------------------------------ core API

def simulate_soloist(hand, tapp=None, seat="forehand", samples: int | None = None,
                     seed: int | None = 0, n_jobs: int = 1, rules: RuleSet = DEFAULT_RULES,
                     *, exchange_samples: int = EXCHANGE_SAMPLES,
                     exchange_top: int = EXCHANGE_TOP,
                     known_tapp_samples: int = KNOWN_TAPP_SAMPLES,
                     known_tapp_top: int = KNOWN_TAPP_TOP, max_bid: int = MAX_BID,
                     play: str = "heuristic",
                     progress: Callable[[int, int], None] | None = None) -> dict:
    """Per-deal outcomes of ``hand`` played as soloist from ``seat`` (R2-R8).

    Parameters
    ----------
    hand : Hand or str
        The player's 15 cards.
    tapp : Hand, str or None
        The 3 Tapp cards if known; else every deal samples the Tapp (module docstring, games with partners).
    seat : str or int
        forehand / middlehand / rearhand (or 0, 1, 2), R2.  Forehand leads (R6).
    samples : int or None
        Deals to score (>= 1); None: ``DEFAULT_SAMPLES``, or ``PIMC_SAMPLES`` with PIMC.
    seed : int or None
        Root seed; None draws one (returned in the result, so a run can be repeated).
    n_jobs : int
        joblib workers; the output does not depend on it.
    rules : RuleSet
    exchange_samples, exchange_top
        Fresh deals per candidate and trump candidates per per-deal exchange decision
        (unknown Tapp).
    known_tapp_samples, known_tapp_top
        The same for the single decision made when the Tapp is known.
    max_bid : int
        Top of the bid grid.
    play : {"heuristic", "pimc", "pimc-defence"}
        How the deals are played after the exchange (analyzer.search.pimc.play_contract):
        the heuristic at every seat, PIMC at every seat, or PIMC defenders against the
        heuristic soloist.  Only the play differs: the same deals, the same exchange
        decisions (their own estimates stay heuristic), the same scoring.  PIMC costs
        ~3-4 ms of CPU a deal against ~3 us; at most ``PIMC_MAX_SAMPLES`` deals.
    progress : callable(done, total) or None
        Called after each chunk.

    Returns
    -------
    dict of numpy arrays, one row per deal ``i`` (n = samples):

    - ``tapp`` int64[n, 3]: Tapp card types; ``discard`` int64[n, 3]: discarded types.
    - ``trump`` int64[n]: trump of the chosen trump contract (0..3 = C S H D).
    - ``meld`` int64[n]: soloist's meld of the kept 15 with that trump (R5, before the
      trick condition); ``discard_points``; ``card_points`` (tricks + last trick + discard,
      R7); ``tricks``; ``total`` = card points + meld if >= 1 trick (R8).
    - ``opp_card_points``, ``opp_tricks``, ``opp_meld`` int64[n, 2]: the two opponents
      (seats ``seat+1``, ``seat+2`` mod 3) in the same contract.
    - ``durch_considered`` bool[n]; ``durch_made`` int8[n] (-1 = no Durch candidate, else
      whether the heuristic Durch play-out on this deal won all 15 tricks, R4).
    - ``est_total`` float64[n]: the exchange Monte Carlo's estimate of the chosen total
      (fresh deals; NaN with a known Tapp, see ``known_tapp``).
    - ``bids`` int64[nb]; ``contract`` int8[n, nb]: 0 play / 1 surrender / 2 Durch chosen
      at each bid from hand + Tapp only; ``score`` int64[n, nb]: soloist's score (R8, R4).
    - ``known_tapp``: None or the known-Tapp decision (candidates' discards, trumps, fast
      values, per-fresh-deal totals and tricks, chosen rows, per-bid contracts).
    - ``seat``, ``seed``, ``samples``, ``chunk_size``.
    """
    policy = resolve_play(play, rules)
    if samples is None:
        samples = DEFAULT_SAMPLES if policy == POLICY_HEURISTIC else PIMC_SAMPLES
    h, t = _validate(hand, tapp, samples, rules)
    seat_i = parse_seat(seat)
    samples = int(samples)
    SAMPLES_ANALYZE.check(samples, "samples")   # before any array of n rows is allocated
    if policy != POLICY_HEURISTIC and samples > PIMC_MAX_SAMPLES:
        raise BinokelError(f"samples: at most {PIMC_MAX_SAMPLES:,} with --play "
                           f"{play_name(policy)} (PIMC plays ~3-4 ms a deal), got {samples:,}")
    seed_v = _resolve_seed(seed)
    resolve_jobs(n_jobs)
    kr = rules.kernel
    bids = bid_grid(rules, min(int(max_bid), _total_bound(h, t, rules)))
    if t is not None:
        tapps_all = np.tile(np.array([c.id for c in t.cards()], dtype=np.int64), (samples, 1))
        known = _decide_known(h, t, seat_i, bids, int(known_tapp_samples), int(known_tapp_top),
                              PER_TRUMP, _stream(seed_v, (0, 2)), kr)
        fixed = True
        fd = known["disc"][known["best"]].copy()
        ft = int(known["trump"][known["best"]])
        fdd = (known["disc"][known["durch"]].copy() if known["durch"] >= 0
               else np.full(rules.tapp_size, -1, dtype=np.int64))
        fc = known["contract"].copy()
    else:
        table = tapp_table(h, rules)
        order = np.random.Generator(np.random.PCG64(
            np.random.SeedSequence(seed_v, spawn_key=(0, 3)))).permutation(len(table))
        tapps_all = table[order[np.arange(samples) % len(table)]]
        known = None
        fixed = False
        fd = np.zeros(rules.tapp_size, dtype=np.int64)
        ft = 0
        fdd = np.full(rules.tapp_size, -1, dtype=np.int64)
        fc = np.zeros(len(bids), dtype=np.int8)
    hand15 = h.counts_array()
    n_chunks = (samples + CHUNK - 1) // CHUNK
    tasks = []
    for i in range(n_chunks):
        lo, hi = i * CHUNK, min(samples, (i + 1) * CHUNK)
        tasks.append((hand15, np.ascontiguousarray(tapps_all[lo:hi]), seat_i,
                      int(exchange_samples), int(exchange_top), PER_TRUMP, fixed, fd, ft, fdd,
                      fc, bids, chunk_state(seed_v, i), _stream(seed_v, (i, 1)), rules,
                      policy))
    parts = []
    for k, part in enumerate(parallel_map(_run_chunk, [(task,) for task in tasks], n_jobs,
                                          n_chunks)):
        parts.append(part)
        if progress is not None:
            progress(k + 1, n_chunks)
    res = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
    res.update(bids=bids, known_tapp=known, seat=seat_i, seed=seed_v, samples=samples,
               chunk_size=CHUNK, hand=h, tapp_known=t, play=play_name(policy))
    return res


# ------------------------------------------------------------------------------ results

PLOT_FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}


def plot_format(path) -> str:
    """The matplotlib format for a plot file, from its extension; BinokelError otherwise
    (a .pdf named file must not receive PNG bytes)."""
    suffix = Path(path).suffix.lower()
    if suffix not in PLOT_FORMATS:
        raise BinokelError(f"plot file {str(path)[:80]!r}: unknown type {suffix or '(none)'!r}; "
                           f"name it .png, .svg or .pdf")
    return PLOT_FORMATS[suffix]


def pct_ci(p: float, lo: float, hi: float) -> str:
    """A proportion and its 95% interval as percentages, the one format of every command:
    ``81.3% [79.6-83.0]``."""
    return f"{100 * p:5.1f}% [{100 * lo:.1f}-{100 * hi:.1f}]"


HIST_BIN = {"meld": 20, "card_points": 10, "total": 20, "score": 20}
QUANTILE_PROBS = (0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95)
NEGLIGIBLE = 0.001  # the bid table stops after the first bid with P(make) below this


def _cards_code(types, low: str = "9") -> str:
    """Card types as ASCII codes in the game's spelling (rank 5 = its low card, V1)."""
    return " ".join(card_code(int(x), low) for x in sorted(types))


def _trump_name(t: int) -> str:
    return "Durch" if t < 0 else SUIT_LETTERS[t]


@dataclass(frozen=True)
class HandAnalysis:
    """Result of :func:`analyze_hand` (immutable; the DataFrames are the figures).

    Attributes
    ----------
    hand, tapp : str
        Cards as ASCII codes (``tapp`` None if it was unknown and sampled).
    seat : str
    samples, seed, chunk_size : int
    score_bid : int
        The bid at which the ``score`` distribution is taken.
    distributions : DataFrame
        One row per quantity (meld, card_points, total, score): n, mean with 95 % CI and
        SE, sd, min, quantiles, max.
    histograms : DataFrame
        Long form: quantity, bin_lo, bin_hi (half-open), count, share.
    trumps : DataFrame
        Per trump C S H D: how often chosen (share with Wilson CI), mean meld, mean total
        (95 % CI) over the deals where it was chosen.
    bids : DataFrame
        Per bid from the opening bid up to the first bid where P(make) is negligible:
        P(total >= bid with a trick) with Wilson CI, expected soloist score with 95 % CI
        (contract chosen per bid: play, surrender or Durch), share of surrender and Durch.
    candidates : DataFrame or None
        Known Tapp only: the shortlisted exchanges, best first, with their Monte Carlo value
        (mean total on fresh deals, 95 % CI) and the paired difference to the best.
    deals : DataFrame
        Per-deal scalars (Tapp, discard, trump, meld, card points, tricks, total, score at
        ``score_bid``, contract at ``score_bid``).
    """

    hand: str
    tapp: str | None
    seat: str
    samples: int
    seed: int
    chunk_size: int
    score_bid: int
    distributions: pd.DataFrame
    histograms: pd.DataFrame
    trumps: pd.DataFrame
    bids: pd.DataFrame
    candidates: pd.DataFrame | None
    deals: pd.DataFrame = field(repr=False)
    rules_name: str = DEFAULT_RULES.name
    play: str = "heuristic"

    # ---- presentation ------------------------------------------------------------
    @property
    def recommendation(self) -> dict | None:
        """Known Tapp: the recommended exchange (first row of ``candidates``)."""
        if self.candidates is None:
            return None
        row = self.candidates.iloc[0]
        return {k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()}

    def summary(self) -> str:
        """A plain-text report of the main figures (every estimate with n and 95 % CI)."""
        lines = [f"hand {self.hand}   {tapp_word()} {self.tapp or '(unknown: sampled)'}   "
                 f"seat {self.seat}   n = {self.samples}   seed {self.seed}"
                 + ("" if self.play == "heuristic" else f"   play {self.play}")]
        if self.candidates is not None:
            lines.append("exchange (R4), Monte Carlo on fresh deals, best first:")
            for _, r in self.candidates.iterrows():
                if r["trump"] == "Durch":
                    lines.append(f"  Durch   discard {r['discard']:<12} P(all tricks) "
                                 f"{r['p_all_tricks']:.3f} [{r['p_lo']:.3f}, {r['p_hi']:.3f}]")
                else:
                    lines.append(
                        f"  {r['trump']:<5}  discard {r['discard']:<12} mean total "
                        f"{r['mean_total']:7.1f} [{r['total_lo']:.1f}, {r['total_hi']:.1f}]  "
                        f"vs best {r['diff_vs_best']:+7.1f}")
        lines.append("distributions (mean [95% CI]; quantiles 5/25/50/75/95 %):")
        for q, r in self.distributions.iterrows():
            label = q if q != "score" else f"score@{self.score_bid}"
            lines.append(
                f"  {label:<12} {r['mean']:7.1f} [{r['ci_lo']:.1f}, {r['ci_hi']:.1f}]   "
                f"{r['q05']:.0f} / {r['q25']:.0f} / {r['q50']:.0f} / {r['q75']:.0f} / "
                f"{r['q95']:.0f}")
        lines.append("trump chosen: " + ", ".join(
            f"{r['trump']} {r['share']:.1%}" for _, r in self.trumps.iterrows() if r["chosen"]))
        lines.append("bid  P(make) [95% CI]      E[score] [95% CI]        surrender  Durch")
        for _, r in self.bids.iterrows():
            lines.append(
                f"{int(r['bid']):4d}  {pct_ci(r['p_make'], r['p_make_lo'], r['p_make_hi'])}"
                f"  {r['e_score']:8.1f} [{r['e_score_lo']:.1f}, "
                f"{r['e_score_hi']:.1f}]  {100 * r['p_surrender']:8.1f}%  {100 * r['p_durch']:.1f}%")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """JSON-ready dict (tables as lists of records; per-deal rows left out)."""
        def rec(df):
            if df is None:
                return None
            return json.loads(df.reset_index().to_json(orient="records")) \
                if df.index.name else json.loads(df.to_json(orient="records"))
        return {
            "hand": self.hand, "tapp": self.tapp, "seat": self.seat, "samples": self.samples,
            "seed": self.seed, "chunk_size": self.chunk_size, "score_bid": self.score_bid,
            "rules": self.rules_name, "play": self.play,
            "recommendation": self.recommendation,
            "candidates": rec(self.candidates),
            "distributions": rec(self.distributions),
            "trumps": rec(self.trumps),
            "bids": rec(self.bids),
            "histograms": rec(self.histograms),
        }

    def tables(self) -> dict[str, pd.DataFrame]:
        out = {"distributions": self.distributions.reset_index(), "histograms": self.histograms,
               "trumps": self.trumps, "bids": self.bids, "deals": self.deals}
        if self.candidates is not None:
            out["candidates"] = self.candidates
        return out

    def to_csv(self, directory) -> list[Path]:
        """Write every table as ``<directory>/<name>.csv`` (atomically); returns the paths."""
        d = Path(directory)
        try:
            d.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BinokelError(f"cannot create output directory {str(d)!r}: "
                               f"{exc.strerror or exc}") from None
        paths = []
        for name, df in self.tables().items():
            path = d / f"{name}.csv"
            _atomic_write(path, df.to_csv(index=False))
            paths.append(path)
        return paths

    def plot(self, path) -> Path:
        """The four distributions and the bid curves as one figure (matplotlib, Agg), in
        the format the file name says: ``.png``, ``.svg`` or ``.pdf`` (else BinokelError)."""
        fmt = plot_format(path)
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        path = Path(path)
        fig, axes = plt.subplots(2, 3, figsize=(13, 7))
        names = ["meld", "card_points", "total", "score"]
        titles = {"meld": "meld (kept 15, chosen trump)", "card_points": "card points (incl. discard)",
                  "total": "total (R8)", "score": f"soloist score at bid {self.score_bid}"}
        for ax, q in zip(axes.flat, names):
            h = self.histograms[self.histograms["quantity"] == q]
            ax.bar(h["bin_lo"], h["share"], width=(h["bin_hi"] - h["bin_lo"]) * 0.9,
                   align="edge", color="#4c72b0")
            med = self.distributions.loc[q, "q50"]
            ax.axvline(med, color="#c44e52", lw=1, label=f"median {med:.0f}")
            ax.set_title(titles[q])
            ax.set_ylabel("share of deals")
            ax.legend(fontsize=8)
        ax = axes.flat[4]
        b = self.bids
        ax.plot(b["bid"], b["p_make"], marker=".", color="#4c72b0")
        ax.fill_between(b["bid"], b["p_make_lo"], b["p_make_hi"], alpha=0.3, color="#4c72b0")
        ax.set_title("P(total >= bid, with a trick)")
        ax.set_xlabel("bid")
        ax.set_ylim(0, 1.02)
        ax = axes.flat[5]
        ax.plot(b["bid"], b["e_score"], marker=".", color="#55a868")
        ax.fill_between(b["bid"], b["e_score_lo"], b["e_score_hi"], alpha=0.3, color="#55a868")
        ax.axhline(0, color="grey", lw=0.5)
        ax.set_title("expected soloist score (95% CI)")
        ax.set_xlabel("bid")
        fig.suptitle(f"{self.hand}  Tapp {self.tapp or 'sampled'}  {self.seat}  n={self.samples}",
                     fontsize=10)
        fig.tight_layout()
        tmp = path.with_name(path.name + ".tmp")
        try:
            fig.savefig(tmp, format=fmt, dpi=100)
            tmp.replace(path)
        except OSError as exc:
            raise BinokelError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
        finally:
            plt.close(fig)
        return path


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        raise BinokelError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None


def _dist_row(x) -> dict:
    ci = mean_ci(x)
    q = quantiles(x, QUANTILE_PROBS)
    a = np.asarray(x, dtype=np.float64)
    row = {"n": ci.n, "mean": ci.mean, "se": ci.se, "ci_lo": ci.lo, "ci_hi": ci.hi,
           "sd": float(a.std(ddof=1)) if a.size > 1 else float("nan"),
           "min": float(a.min()), "max": float(a.max())}
    for p, v in q.items():
        row[f"q{int(round(p * 100)):02d}"] = v
    return row


def _hist_rows(name, x, width) -> list[dict]:
    edges, counts = histogram(x, width)
    n = max(1, len(x))
    return [{"quantity": name, "bin_lo": float(edges[i]), "bin_hi": float(edges[i + 1]),
             "count": int(counts[i]), "share": counts[i] / n} for i in range(len(counts))]


def summarize(sim: dict, score_bid: int | None = None,
              rules: RuleSet = DEFAULT_RULES) -> HandAnalysis:
    """Turn :func:`simulate_soloist`'s per-deal arrays into a :class:`HandAnalysis`."""
    import pandas as pd  # lazy: keeps ``import analyzer`` (and every CLI command) light

    bids = sim["bids"]
    n = sim["samples"]
    sb = rules.bid_start if score_bid is None else int(score_bid)
    if sb not in set(bids.tolist()):
        raise BinokelError(f"score bid {sb} is not on the bid grid {bids[0]}, "
                           f"{bids[0] + rules.bid_step}, ... {bids[-1]} (R3)")
    jb = int(np.searchsorted(bids, sb))
    score = sim["score"][:, jb]
    data = {"meld": sim["meld"], "card_points": sim["card_points"], "total": sim["total"],
            "score": score}
    dist = pd.DataFrame([_dist_row(v) for v in data.values()],
                        index=pd.Index(list(data), name="quantity"))
    hist = pd.DataFrame([r for k, v in data.items() for r in _hist_rows(k, v, HIST_BIN[k])])
    trows = []
    for s in range(N_SUITS):
        sel = sim["trump"] == s
        k = int(sel.sum())
        pc = proportion_ci(k, n)
        tc = mean_ci(sim["total"][sel])
        trows.append({"trump": SUIT_LETTERS[s], "symbol": SUIT_SYMBOLS[s], "chosen": k,
                      "share": pc.p, "share_lo": pc.lo, "share_hi": pc.hi,
                      "mean_meld": float(sim["meld"][sel].mean()) if k else float("nan"),
                      "mean_total": tc.mean, "total_lo": tc.lo, "total_hi": tc.hi})
    trumps = pd.DataFrame(trows)
    brows = []
    for j, b in enumerate(bids):
        # P(make), one definition for analyze and advise (docs/methods.md#bid-advice): the contract
        # the exchange picks at this bid succeeds - played with a trick and total >= bid
        # (R8) or a Durch won (R4); a surrender is not made.  That is: its score is > 0.
        k = int((sim["score"][:, j] > 0).sum())
        pc = proportion_ci(k, n)
        ec = mean_ci(sim["score"][:, j])
        con = sim["contract"][:, j]
        brows.append({"bid": int(b), "n": n, "p_make": pc.p, "p_make_lo": pc.lo,
                      "p_make_hi": pc.hi, "e_score": ec.mean, "e_score_lo": ec.lo,
                      "e_score_hi": ec.hi, "e_score_se": ec.se,
                      "p_surrender": float((con == CONTRACT_SURRENDER).mean()),
                      "p_durch": float(((con == CONTRACT_DURCH) | (con == CONTRACT_OPEN_DURCH)).mean())})
        if pc.p < NEGLIGIBLE:
            break
    bids_df = pd.DataFrame(brows)
    cands = None
    known = sim.get("known_tapp")
    if known is not None:
        rows = []
        best = known["best"]
        for j in range(known["n"]):
            tr = int(known["trump"][j])
            tot = known["total"][j]
            m = tot.shape[0]
            row = {"trump": _trump_name(tr),
                   "discard": _cards_code(known["disc"][j], rules.low_card),
                   "fast_value": float(known["value"][j]), "n": m}
            if tr >= 0:
                ci = mean_ci(tot)
                d = mean_ci(tot - known["total"][best])
                row.update(mean_total=ci.mean, total_lo=ci.lo, total_hi=ci.hi,
                           diff_vs_best=d.mean, diff_lo=d.lo, diff_hi=d.hi,
                           p_all_tricks=float("nan"), p_lo=float("nan"), p_hi=float("nan"))
            else:
                pc = proportion_ci(int((known["tricks"][j] == rules.hand_size).sum()), m)
                row.update(mean_total=float("nan"), total_lo=float("nan"),
                           total_hi=float("nan"), diff_vs_best=float("nan"),
                           diff_lo=float("nan"), diff_hi=float("nan"), p_all_tricks=pc.p,
                           p_lo=pc.lo, p_hi=pc.hi)
            row["recommended"] = j == best
            rows.append(row)
        cands = pd.DataFrame(rows)
        order = np.argsort(-cands["mean_total"].fillna(-np.inf).to_numpy(), kind="stable")
        cands = cands.iloc[order].reset_index(drop=True)
        cands.insert(0, "rank", np.arange(1, len(cands) + 1))
    deals = pd.DataFrame({
        "tapp": [_cards_code(r, rules.low_card) for r in sim["tapp"]],
        "discard": [_cards_code(r, rules.low_card) for r in sim["discard"]],
        "trump": [SUIT_LETTERS[t] for t in sim["trump"]],
        "meld": sim["meld"], "discard_points": sim["discard_points"],
        "card_points": sim["card_points"], "tricks": sim["tricks"], "total": sim["total"],
        "durch_made": sim["durch_made"],
        f"contract_{sb}": [CONTRACT_NAMES[c] for c in sim["contract"][:, jb]],
        f"score_{sb}": score,
    })
    return HandAnalysis(
        hand=sim["hand"].codes(rules.low_card), tapp=None if sim["tapp_known"] is None
        else sim["tapp_known"].codes(rules.low_card), seat=SEAT_NAMES[sim["seat"]], samples=n,
        seed=sim["seed"], chunk_size=sim["chunk_size"], score_bid=sb, distributions=dist,
        histograms=hist, trumps=trumps, bids=bids_df, candidates=cands, deals=deals,
        rules_name=rules.name, play=sim.get("play", "heuristic"))


def analyze_hand(hand, tapp=None, seat="forehand", samples: int | None = None,
                 seed: int | None = 0, n_jobs: int = 1, rules: RuleSet = DEFAULT_RULES,
                 *, score_bid: int | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 **sim_options) -> HandAnalysis:
    """Meld, card-point and score distributions of ``hand`` played as soloist (R2-R8).

    Parameters
    ----------
    hand : Hand or str
        The player's 15 cards, e.g. ``"AS AS 10S KS QS JS 9S KH QH AC AD 10D KD QD JD"``.
    tapp : Hand, str or None
        The 3 Tapp cards if known (R4: turned face up); else sampled per deal.
    seat : "forehand" | "middlehand" | "rearhand" (or 0, 1, 2)
        The player's seat (R2); forehand leads the first trick (R6).
    samples : int or None
        Deals simulated (>= 1); None: the default for ``play`` (``DEFAULT_SAMPLES``, or
        ``PIMC_SAMPLES`` with PIMC).
    seed : int or None
        Root seed (same seed -> same numbers for any ``n_jobs``).
    n_jobs : int
        joblib workers.
    rules : RuleSet
    score_bid : int or None
        Bid for the soloist-score distribution (default: the opening bid, R3).
    progress : callable(done_chunks, total_chunks) or None
    **sim_options
        Passed to :func:`simulate_soloist` (``exchange_samples``, ``exchange_top``,
        ``known_tapp_samples``, ``known_tapp_top``, ``max_bid``, ``play``: heuristic, pimc
        or pimc-defence).

    Returns
    -------
    HandAnalysis
        Immutable; pandas DataFrames ``distributions``, ``histograms``, ``trumps``,
        ``bids``, ``candidates`` (known Tapp), ``deals``; ``summary()`` for text.

    Examples
    --------
    >>> r = analyze_hand("AS AS 10S KS QS JS 9S KH QH AC AD 10D KD QD JD",
    ...                  tapp="10S AH 9D", samples=200, seed=1)
    >>> r.recommendation["trump"] in {"C", "S", "H", "D", "Durch"}
    True
    """
    sim = simulate_soloist(hand, tapp, seat, samples, seed, n_jobs, rules,
                           progress=progress, **sim_options)
    return summarize(sim, score_bid, rules)


# --------------------------------------------------------------------------- sides of partners
# (games with partners, V1; see the module docstring's "Games with partners")

TEAM_MAX_SAMPLES = 200_000
A_TRUMP, A_MELD, A_POINTS, A_TOTAL, A_OTHER, A_OUT_OTHER, A_EST, A_LOSERS, A_DURCH = range(9)
A_COLS = 9


@njit
def analyze_kreuz_samples(hand, seat, deck, dabb, fixed_dabb, state, tk, kr, out, pol):
    """``out`` float64[n, A_COLS] per sample (module docstring, games with partners): this hand in ``seat`` is
    the soloist; ``deck`` the unseen cards (without ``dabb`` when ``fixed_dabb``); ``pol``
    int64[4] the seats' play policies (analyzer.search.pimc.play_policies)."""
    n = out.shape[0]
    hands = np.zeros((5, N_TYPES), dtype=np.uint8)
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(tk, beat)
    res = np.zeros(RES_COLS, dtype=np.int64)
    oc = np.zeros(O_COLS, dtype=np.float64)
    team = seat % 2
    for i in range(n):
        deal_counts_fixed(state, deck, hands, seat, hand, tk.hand_size)
        if fixed_dabb:
            for t in range(N_TYPES):
                hands[4, t] = dabb[t]
        dabb_outcomes(hands, seat, pol, state, tk, kr, beat, cnt, res, oc)
        out[i, A_TRUMP] = res[R_TRUMP]
        out[i, A_MELD] = res[R_MELD + team]
        out[i, A_POINTS] = res[R_POINTS + team]
        out[i, A_TOTAL] = oc[O_TOTAL]
        out[i, A_OTHER] = oc[O_OTHER]
        out[i, A_OUT_OTHER] = oc[O_OUT_OTHER]
        out[i, A_EST] = oc[O_EST]
        out[i, A_LOSERS] = oc[O_LOSERS]
        out[i, A_DURCH] = oc[O_DURCH_MADE]


@dataclass
class TeamHandAnalysis:
    """Result of :func:`analyze_team_hand` for a Dabb game (module docstring, games with partners)."""

    game: str
    hand: object
    seat: int
    dabb: object
    samples: int
    bid: int
    trump_shares: list[float]
    dists: dict
    p_reach: list[dict]
    at_bid: dict
    play: str = "heuristic"    # how the deals were played (--play; PIMC seats, issue 24)

    def summary(self) -> str:
        tr = "  ".join(f"{suit_symbol(t)} {100 * p:.0f}%" for t, p in enumerate(self.trump_shares))
        d = self.dabb.show(self.low_card()) if self.dabb is not None else "sampled"
        lines = [f"{self.game}   hand: {self.hand.show(self.low_card())}   seat {self.seat} "
                 f"(team {self.seat % 2}) as soloist   Dabb: {d}",
                 f"{self.samples} sampled deals; the soloist exchanges from its own cards "
                 f"(V4.2, V5.3); trump named: {tr}"
                 + ("" if self.play == "heuristic" else f"; play {self.play}")]
        for key, label in (("team_meld", "team meld"), ("team_points", "team card points"),
                           ("team_total", "team total"), ("other_score", "other team")):
            x = self.dists[key]
            lines.append(f"   {label:<17} mean {x['mean']:7.1f} [{x['lo']:.1f}, {x['hi']:.1f}]"
                         f"  10/50/90%: {x['q10']:.0f} / {x['median']:.0f} / {x['q90']:.0f}")
        lines.append(f"   P(total >= bid)   {reach_text(self.p_reach)}")
        a = self.at_bid
        lines.append(f"at bid {self.bid}: play {100 * a['p_play']:.1f}%, go out "
                     f"{100 * a['p_out']:.1f}% (V4.3, V5.4), sure Durch {100 * a['p_durch']:.1f}% "
                     f"(V4.6); made {100 * a['p_make']:.1f}% [{100 * a['p_make_lo']:.1f}-"
                     f"{100 * a['p_make_hi']:.1f}]; team score {a['score']:+.1f} "
                     f"[{a['score_lo']:+.0f}, {a['score_hi']:+.0f}], objective "
                     f"{a['objective']:+.1f} [{a['objective_lo']:+.0f}, {a['objective_hi']:+.0f}]")
        return "\n".join(lines)

    def low_card(self) -> str:
        return get_rules(self.game).low_card

    def to_dict(self) -> dict:
        low = self.low_card()
        return {"rules": self.game, "hand": self.hand.codes(low), "seat": self.seat,
                "team": self.seat % 2,
                "dabb": self.dabb.codes(low) if self.dabb is not None else None,
                "samples": self.samples, "bid": self.bid, "trump_shares": self.trump_shares,
                **self.dists, "p_reach": self.p_reach, "at_bid": self.at_bid,
                **({} if self.play == "heuristic" else {"play": self.play})}


# samples per kernel call of a partners' hand analysis, for its progress (a PIMC sample
# takes 10-200 ms: 25 of them are seconds); the numbers do not depend on it
TEAM_PROGRESS_EVERY = 25


def analyze_team_hand(hand, rules, seat=0, dabb=None, samples: int = 2000, seed: int = 0,
                      bid: int | None = None, play: str = "heuristic", progress=None):
    """Analysis of ``hand`` as the soloist of a team game (module docstring, games with partners).

    ``dabb``: the Dabb's cards if known (else sampled); ``bid``: the bid for the contract
    and score line (default the opening bid).  For a game without a Dabb (pinochle-80)
    the result is :func:`analyze_pinochle_hand`'s.
    ``play``: heuristic (the team policy), pimc (PIMC at every seat) or pimc-defence (PIMC
    for the other team; analyzer.search.pimc.pimc_choose_partners).
    ``progress(done, samples)``: called as the samples are played (in pieces of
    :data:`TEAM_PROGRESS_EVERY`; the RNG stream runs on from piece to piece, so the numbers
    are those of one call).
    Raises BinokelError (one line) on bad input.
    """
    spec: TeamSpec = team_spec(rules)
    code = resolve_play(play, rules)
    pol = play_policies(code)
    if spec.dabb_size == 0:
        if dabb:
            raise BinokelError(f"--tapp: {spec.name} has no Dabb (V6.1)")
        return analyze_pinochle_hand(hand, samples=samples, seed=seed, rules=spec.rules, play=play,
                                     progress=progress)
    h, counts = parse_hand_for(hand, spec)
    s = parse_seat_for(seat, spec)
    if not 2 <= int(samples) <= TEAM_MAX_SAMPLES:
        raise BinokelError(f"samples must be between 2 and {TEAM_MAX_SAMPLES}, got {samples}")
    bid = spec.start if bid is None else int(bid)
    if bid < spec.start or (bid - spec.start) % spec.step or bid > 10 * spec.rules.deal_points + 5000:
        raise BinokelError(f"--bid: {bid} is no valid bid ({spec.start}, {spec.start + spec.step}, "
                           "... V1)")
    d = None
    dc = np.zeros(N_TYPES, dtype=np.uint8)
    if dabb:
        d = Hand.parse(dabb, rules=spec.rules)
        if len(d) != spec.dabb_size:
            raise BinokelError(f"--tapp: the Dabb has {spec.dabb_size} cards in {spec.name}, "
                               f"got {len(d)}")
        dc = np.array(d.counts, dtype=np.uint8)
        both = counts.astype(np.int64) + dc
        if (both > spec.copies).any() or any(dc[t] and spec.tk.copies[t] == 0 for t in range(N_TYPES)):
            raise BinokelError("--tapp overlaps the hand: more copies of a card than the deck has")
    deck = unseen_deck(counts.astype(np.int64) + dc, spec)
    out = np.zeros((int(samples), A_COLS))
    state = chunk_state(seed, 0)
    for a in range(0, len(out), TEAM_PROGRESS_EVERY):
        # one stream of random numbers: the state runs on from piece to piece
        analyze_kreuz_samples(counts, s, deck, dc, d is not None, state, spec.tk, spec.kr,
                              out[a:a + TEAM_PROGRESS_EVERY], pol)
        if progress is not None:
            progress(min(a + TEAM_PROGRESS_EVERY, len(out)), len(out))
    n = len(out)
    shares = [float((out[:, A_TRUMP] == t).sum() / n) for t in range(4)]
    total = out[:, A_TOTAL]
    dists = {"team_meld": _team_dist(out[:, A_MELD]), "team_points": _team_dist(out[:, A_POINTS]),
             "team_total": _team_dist(total), "other_score": _team_dist(out[:, A_OTHER])}
    reach = reach_table(total, spec.start, spec.step)
    raw = {"team_total": total[:, None], "other": out[:, A_OTHER][:, None],
           "weight": np.ones(n), "loss_factor": int(spec.tk.loss_factor),
           "out_other": out[:, A_OUT_OTHER], "est": out[:, A_EST], "losers": out[:, A_LOSERS],
           "durch_made": out[:, A_DURCH] > 0.5, "kr": spec.kr}
    con = soloist_contracts(raw, [bid])[0]
    rel, made = bid_outcome(raw, bid, con)
    score = rel[:, 0] + out[:, A_OTHER]
    is_out = con == CONTRACT_SURRENDER
    is_durch = (con == CONTRACT_DURCH) | (con == CONTRACT_OPEN_DURCH)
    score = np.where(is_out, rel[:, 0] + out[:, A_OUT_OTHER], np.where(is_durch, rel[:, 0], score))
    pm = proportion_ci(int(made[:, 0].sum()), n)
    sc, ob = mean_ci(score), mean_ci(rel[:, 0])
    at_bid = {"p_play": float((~is_out & ~is_durch).mean()), "p_out": float(is_out.mean()),
              "p_durch": float(is_durch.mean()), "p_make": pm.p, "p_make_lo": pm.lo,
              "p_make_hi": pm.hi, "score": sc.mean, "score_lo": sc.lo, "score_hi": sc.hi,
              "score_se": sc.se, "objective": ob.mean, "objective_lo": ob.lo,
              "objective_hi": ob.hi, "objective_se": ob.se}
    return TeamHandAnalysis(spec.name, h, s, d, n, bid, shares, dists, reach, at_bid,
                            play_name(code))

@njit
def analyze80_samples(hand, deck, state, kp, out, pol):
    """``out`` float64[n, 4, 4]: per sample and trump (team meld, team counters, team
    total as scored at bid 0, other team's score); this hand in seat 0, leading; ``pol``
    the seats' play policies (analyzer.search.pimc.play_policies)."""
    n = out.shape[0]
    hands = np.zeros((4, N_TYPES), dtype=np.uint8)
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kp, beat)
    res = np.zeros(RES_COLS, dtype=np.int64)
    for i in range(n):
        deal_counts_fixed(state, deck, hands, 0, hand, kp.hand_size)
        for t in range(4):
            named_trump_contract(hands, 0, 0, t, pol, state, kp, beat, cnt, res)
            out[i, t, 0] = res[R_MELD]
            out[i, t, 1] = res[R_POINTS]
            out[i, t, 2] = res[R_SCORE]
            out[i, t, 3] = res[R_SCORE + 1]


def _team_dist(x: np.ndarray) -> dict:
    ci = mean_ci(x)
    q = np.quantile(x, [0.1, 0.5, 0.9])
    return {"mean": ci.mean, "lo": ci.lo, "hi": ci.hi, "se": ci.se, "n": ci.n,
            "q10": float(q[0]), "median": float(q[1]), "q90": float(q[2])}


@dataclass
class PinochleHandAnalysis:
    """Per trump: own meld (exact), distributions (mean, CI, quantiles) of partner meld,
    team meld, team counters, team total, other team; P(total >= bid) with Wilson CIs."""

    hand: Hand80
    samples: int
    trumps: list[dict]
    play: str = "heuristic"    # how the deals were played (--play; PIMC seats, issue 24)

    def summary(self) -> str:
        lines = [f"hand: {self.hand}   ({self.samples} sampled deals per trump, this hand "
                 "bidding and leading)"
                 + ("" if self.play == "heuristic" else f"; play {self.play}")]
        for r in self.trumps:
            s = suit_symbol(r["trump"])
            melds = ", ".join(f"{m['name']} {m['points']}" for m in r["own_melds"]) or "none"
            lines.append(f"trump {s}: own meld {r['own_meld']} ({melds})")
            for key, label in (("partner_meld", "partner meld"), ("team_counters", "team counters"),
                               ("team_total", "team total"), ("other_score", "other team")):
                d = r[key]
                lines.append(f"   {label:<14} mean {d['mean']:7.1f} [{d['lo']:.1f}, {d['hi']:.1f}]"
                             f"  10/50/90%: {d['q10']:.0f} / {d['median']:.0f} / {d['q90']:.0f}")
            lines.append(f"   P(total >= bid)  {reach_text(r['p_reach'])}")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"hand": self.hand.codes(), "samples": self.samples, "trumps": self.trumps,
                **({} if self.play == "heuristic" else {"play": self.play})}


def analyze_pinochle_hand(hand, samples: int = 2000, seed: int = 0,
                          rules: TeamRuleSet = PINOCHLE_80,
                          play: str = "heuristic", progress=None) -> PinochleHandAnalysis:
    """Meld and counter distributions of a 20-card hand (module docstring, games with partners); ``play``:
    heuristic, pimc or pimc-defence (analyzer.search.pimc.play_policies)."""
    code = resolve_play(play, rules)
    h = Hand80.parse(hand, size=rules.hand_size)
    if not 2 <= int(samples) <= TEAM_MAX_SAMPLES:
        raise BinokelError(f"samples must be between 2 and {TEAM_MAX_SAMPLES}, got {samples}")
    out = np.zeros((int(samples), 4, 4))
    deck, state, kp, pol = (unseen_deck(h.counts, team_spec(rules)), chunk_state(seed, 0),
                            team_kernel(rules), play_policies(code))
    for a in range(0, len(out), TEAM_PROGRESS_EVERY):
        # one stream of random numbers, as analyze_team_hand's
        analyze80_samples(h.counts_array(), deck, state, kp, out[a:a + TEAM_PROGRESS_EVERY], pol)
        if progress is not None:
            progress(min(a + TEAM_PROGRESS_EVERY, len(out)), len(out))
    trumps = []
    for t in range(4):
        own = class_meld_total(h, t, rules)
        team_total = out[:, t, 2]
        reach = reach_table(team_total, rules.bid_start, 2 * rules.bid_step)
        trumps.append({
            "trump": t, "own_meld": own,
            "own_melds": [{"class": m.cls, "name": m.name, "points": m.points}
                          for m in class_melds(h, t, rules)],
            "partner_meld": _team_dist(out[:, t, 0] - own), "team_meld": _team_dist(out[:, t, 0]),
            "team_counters": _team_dist(out[:, t, 1]), "team_total": _team_dist(team_total),
            "other_score": _team_dist(out[:, t, 3]), "p_reach": reach})
    return PinochleHandAnalysis(h, int(samples), trumps, play_name(code))
