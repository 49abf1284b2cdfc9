"""Duplicate matches of card-play policies: how many card points stronger play is worth.

Deal protocol (per deal, all from one seed): a uniformly random 15/15/15/3 deal (R2);
each seat's rule-of-thumb maximum bid (analyzer.mechanics.bidding) and an R3 auction
give soloist and bid; the fast exchange (analyzer.mechanics.exchange) chooses the
discard and the trump (R4).  Deals whose contract is not a trump game (surrender,
Durch) are skipped and counted.  Every seat shows its melds before play (R5).

Duplicate: the *same* deal, after the same exchange, is played once by the baseline
(the ``baseline`` heuristic at every seat) and once by each configuration (the
challenger ``policy`` -- PIMC, or the current heuristic against ``heuristic-v1`` --
for the soloist, for both defenders, or everywhere); the per-deal differences of the
soloist's card points (incl. the discard, R7) are paired, so the deal's luck cancels.  Reported per
configuration: mean difference, its standard error (sample SD / sqrt n), z = mean / SE,
and P(make) at the auction's bid (R8: card points + melds >= bid, with a trick) for both
sides of the pair, with the SE of the paired difference.  PIMC's random worlds use
a per-deal RNG stream, so the figures depend only on the seed.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from analyzer.errors import BinokelError
from analyzer.mechanics.bidding import DEFAULT_TRICK_ESTIMATE, rule_of_thumb_max_bid, run_auction
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.exchange import CONTRACT_PLAY, fast_exchange
from analyzer.mechanics.melds import meld_total
from analyzer.mechanics.play import POLICY_HEURISTIC, POLICY_NAMES, older_args, play_out_mixed
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet
from analyzer.mechanics.sampling import deal_rules, new_deck
from analyzer.search.pimc import (DEFAULT_HORIZON, DEFAULT_SAMPLES, POLICY_PIMC,
                                  compile_search_beside, play_deal_policies, shown_counts)
from analyzer.search.solve import Solver, set_context

CONFIGS = ("soloist", "defenders", "all")
POLICIES = ("pimc", "heuristic", "heuristic-lin", "heuristic-lin2")   # the challenger
BASELINES = ("heuristic", "heuristic-v1")
BIDS = (200, 250, 300)   # fixed bids for P(make), beside each deal's auction bid
MAX_DEALS = 100_000


@dataclass(frozen=True)
class PairedFigure:
    """Paired difference (configuration - baseline) over n deals."""

    n: int
    mean: float
    se: float

    @property
    def z(self) -> float:
        return self.mean / self.se if self.se > 0 else float("nan")

    def to_dict(self) -> dict:
        return {"n": self.n, "mean": self.mean, "se": self.se, "z": self.z}


def paired(diffs) -> PairedFigure:
    d = np.asarray(diffs, dtype=float)
    n = len(d)
    se = float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    return PairedFigure(n, float(d.mean()) if n else float("nan"), se)


def _policies(config: str, soloist: int, challenger: int = POLICY_PIMC,
              base: int = POLICY_HEURISTIC) -> np.ndarray:
    pol = np.full(3, base, dtype=np.int64)
    for p in range(3):
        if config == "all" or (config == "soloist") == (p == soloist):
            pol[p] = challenger
    return pol


def trump_deals(seed: int, kr, rules: RuleSet | None = None):
    """The duplicate protocol's deals (module docstring), endlessly, from ``seed``: yields
    ``(i, counts, soloist, bid, trump, hands, disc)`` for each trump game -- ``i`` the
    number of deals drawn so far (skipped ones included), ``counts`` int64[4, 24] the
    dealt hands and the Tapp (row 3, R2), ``hands`` int64[3, 24] the hands in play (the
    soloist's after taking the Tapp and discarding, R4), ``disc`` the discarded types
    (``kr.tapp_size`` of them: 3, or 4 in binokel-40, V5.3).  Deals without a trump game
    (surrender, Durch) are drawn and passed over.  ``rules``: the game's deck (default
    the 48 cards; sampling.deal_rules deals the 48-card deck exactly as deal_random)."""
    deck = new_deck(rules)
    masks = np.zeros(4, dtype=np.int64)
    st = chunk_state(seed, 0)
    i = 0
    while True:
        i += 1
        deal_rules(st, deck, kr, masks)
        counts = np.zeros((4, N_TYPES), dtype=np.int64)
        for p in range(4):
            m = int(masks[p])
            for t in range(N_TYPES):
                counts[p, t] = ((m >> t) & 1) + ((m >> (t + 24)) & 1)
        mb = np.array([rule_of_thumb_max_bid(masks[p], kr, DEFAULT_TRICK_ESTIMATE)
                       for p in range(3)], dtype=np.int64)
        soloist, bid = run_auction(mb, kr)
        c18 = (counts[soloist] + counts[3]).astype(np.uint8)
        disc = np.zeros(int(kr.tapp_size), dtype=np.int64)
        trump, contract = fast_exchange(c18, bid, kr, disc)
        if contract != CONTRACT_PLAY:
            continue
        hands = counts[:3].copy()
        hands[soloist] = c18
        for t in disc:
            hands[soloist, t] -= 1
        yield i, counts, soloist, bid, trump, hands, disc


def duplicate_match(n_deals: int, seed: int = 0, configs=CONFIGS,
                    samples: int = DEFAULT_SAMPLES, horizon: int = DEFAULT_HORIZON,
                    rules: RuleSet = DEFAULT_RULES, progress=None, use_melds: bool = True,
                    use_tapp: bool = True, policy: str = "pimc",
                    baseline: str = "heuristic") -> dict:
    """Play ``n_deals`` trump deals in duplicate (module docstring).

    Returns a dict: ``n`` deals played, ``skipped`` (no trump game), the baseline's mean
    card points and P(make) (at the auction bid and at :data:`BIDS`), ``bid_mean``, and
    per configuration ``card_points`` (a :class:`PairedFigure` dict), ``make`` (per bid:
    base, config and the paired difference) and ``seconds_per_deal``.
    ``use_melds`` / ``use_tapp`` False withhold the shown melds / the face-up Tapp from
    PIMC (to measure what that knowledge is worth).  ``policy``: the challenger,
    ``"pimc"``, ``"heuristic"`` (the current heuristic, whose defence uses the shown
    melds), ``"heuristic-lin"`` (the linear-scored defence, same inputs) or
    ``"heuristic-lin2"`` (its richer-feature variant); ``baseline``: ``"heuristic"`` or ``"heuristic-v1"`` (the first heuristic,
    kept to measure the improved defence).  PIMC plays against the current heuristic
    only, all runs (the baseline too) through :func:`analyzer.search.pimc.play_deal_policies`,
    whose heuristic seats read the shown melds as the kernel does; a heuristic challenger
    plays against another baseline, and both its runs play through
    :func:`analyzer.mechanics.play.play_out_mixed` (the kernel of every simulation).
    """
    if not 1 <= int(n_deals) <= MAX_DEALS:
        raise BinokelError(f"deals must be 1..{MAX_DEALS}, got {n_deals}")
    for c in configs:
        if c not in CONFIGS:
            raise BinokelError(f"unknown configuration {c!r}: use {', '.join(CONFIGS)}")
    if policy not in POLICIES:
        raise BinokelError(f"unknown policy {policy!r}: use {', '.join(POLICIES)}")
    if baseline not in BASELINES:
        raise BinokelError(f"unknown baseline {baseline!r}: use {', '.join(BASELINES)}")
    if policy == "pimc" and baseline != "heuristic":
        raise BinokelError("PIMC plays against the current heuristic: use baseline 'heuristic'")
    if policy == baseline:
        raise BinokelError(f"{policy} against itself measures nothing: use baseline "
                           f"'heuristic-v1'")
    base_pol = POLICY_NAMES[baseline]
    chal_pol = POLICY_PIMC if policy == "pimc" else POLICY_NAMES[policy]
    kr = rules.kernel
    if policy == "pimc":   # an empty cache: the PIMC search compiles beside this process
        compile_search_beside(kr)
    solver = Solver(rules) if policy == "pimc" else None   # 16 MiB table: PIMC only
    rs = np.ascontiguousarray(kr.rank_strength, dtype=np.int64)
    cp = kr.card_points
    pts = np.zeros(3, dtype=np.int64)
    trk = np.zeros(3, dtype=np.int64)
    log = np.zeros(0, dtype=np.int64)
    no_tapp = np.zeros(N_TYPES, dtype=np.int64)
    base_cp, base_make, bids = [], [], []
    res = {c: ([], []) for c in configs}
    secs = {c: 0.0 for c in configs}
    skipped = 0
    played = 0
    deals = trump_deals(seed, kr, rules)
    while played < n_deals:
        i, counts, soloist, bid, trump, hands, disc = next(deals)
        skipped = i - 1 - played
        played += 1
        dcount = np.zeros(N_TYPES, dtype=np.int64)
        for t in disc:
            dcount[t] += 1
        dpts = int(sum(int(cp[t]) for t in disc))
        melds = [int(meld_total(_planes_mask(hands[p]), trump, kr)) for p in range(3)]
        shown = np.array([shown_counts(hands[p], trump, rules) for p in range(3)], dtype=np.int64)
        if solver is not None:
            set_context(solver.w, trump, soloist, solver.tt_mask)
        hands8 = hands.astype(np.uint8)

        def play(pol, stream):
            if policy == "pimc":
                # every run of a PIMC match, the baseline too, through the same driver
                # (its heuristic seats play as play_out: shown melds read, R5)
                lo, hi = _planes(hands)
                play_deal_policies(lo, hi, dcount, counts[3].copy() if use_tapp else no_tapp,
                                   shown.copy() if use_melds else np.zeros_like(shown), trump,
                                   soloist, 0, pol, samples, horizon, chunk_state(seed, stream),
                                   solver.w, solver.tt, rs, kr, pts, trk, log)
            else:
                play_out_mixed(hands8, trump, 0, soloist, pol, chunk_state(seed, stream), kr,
                               pts, trk, *older_args(pol))
            card = int(pts[soloist]) + dpts
            # a total that does not count (no trick, R8) can make no bid: -1
            total = card + melds[soloist] if trk[soloist] > 0 else -1
            return card, [int(total >= b) for b in [bid] + list(BIDS)]

        b_card, b_make = play(np.full(3, base_pol, dtype=np.int64), 0)
        base_cp.append(b_card)
        base_make.append(b_make)
        bids.append(bid)
        for c in configs:
            t0 = time.perf_counter()
            card, make = play(_policies(c, soloist, chal_pol, base_pol), 1 + i)
            secs[c] += time.perf_counter() - t0
            res[c][0].append(card - b_card)
            res[c][1].append(make)
        if progress is not None:
            progress(played, n_deals)
    out = {"n": played, "skipped": skipped, "samples": samples, "horizon": horizon,
           "policy": policy, "baseline": baseline,
           "use_melds": use_melds, "use_tapp": use_tapp,
           "seed": seed, "base_card_points": float(np.mean(base_cp)),
           "configs": {}}
    bm = np.array(base_make, dtype=float)
    names = ["auction"] + [str(b) for b in BIDS]
    out["base_make"] = dict(zip(names, (float(x) for x in bm.mean(axis=0))))
    out["bid_mean"] = float(np.mean(bids))
    for c in configs:
        d, mk = res[c]
        mk = np.array(mk, dtype=float)
        out["configs"][c] = {
            "card_points": paired(d).to_dict(),
            "make": {nm: {"base": float(bm[:, j].mean()), "config": float(mk[:, j].mean()),
                          "diff": paired(mk[:, j] - bm[:, j]).to_dict()}
                     for j, nm in enumerate(names)},
            "seconds_per_deal": secs[c] / played,
        }
    return out


def _planes(hands) -> tuple[np.ndarray, np.ndarray]:
    lo = np.zeros(3, dtype=np.int64)
    hi = np.zeros(3, dtype=np.int64)
    for p in range(3):
        for t in range(N_TYPES):
            if hands[p, t] >= 1:
                lo[p] |= 1 << t
            if hands[p, t] >= 2:
                hi[p] |= 1 << t
    return lo, hi


def _planes_mask(row) -> np.int64:
    lo = 0
    hi = 0
    for t in range(N_TYPES):
        if row[t] >= 1:
            lo |= 1 << t
        if row[t] >= 2:
            hi |= 1 << t
    return np.int64(lo | (hi << 24))
