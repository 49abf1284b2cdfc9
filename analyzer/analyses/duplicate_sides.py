"""Duplicate matches of card play at a partners' table (kreuz-48, kreuz-40, pinochle-80;
V1, V4, V5, V6; issue 24): how many card points PIMC is worth against the team policy.

Deal protocol (per deal, all from one seed): a uniformly random deal (V4.1 11 + 4, V5.1
9 + 4, V6.1 20 each); four rule-of-thumb bidders and the game's auction (the chain of
duels, V1, or open bidding, V6.2) give the soloist and the bid; in a Dabb game the
soloist exchanges and chooses its contract from its own cards (V4.2, V5.3).  Deals with
no trump game (all passed, going out, Durch) are skipped and counted.

Duplicate: the *same* deal is played once with the team policy at every seat (the
baseline, analyzer.mechanics.play.heuristic_partners) and once per configuration with
PIMC (analyzer.search.pimc.pimc_choose_partners) for the soloist's side (the soloist
and its partner), for the defending side, or for everyone.  The exchange and trump do
not depend on the play, so only the play differs.  The soloist side's card points (incl.
the discard, V4.2; rounded as scored, V1) are paired per deal; reported per
configuration: the mean difference, its standard error (sample SD / sqrt n), z, and
P(make) at the auction's bid (the contract scores > 0, V4.6, V5.7, V6.6; the bid decides
the contract, so no other bids are read) for both sides of the pair.  PIMC's worlds come from a stream derived from each run's state, so the
figures depend only on the seed.  The result has the keys of
:func:`analyzer.analyses.strength.duplicate_match`.
"""
from __future__ import annotations

import time

import numpy as np

from analyzer.analyses.strength import CONFIGS, MAX_DEALS, paired
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.exchange import CONTRACT_PLAY
from analyzer.mechanics.play import POLICY_HEURISTIC, beat_table
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.bidding import (DEFAULT_DABB_ESTIMATE, DEFAULT_PARTNER_ALLOWANCE,
                                        DEFAULT_TRICK_VALUE)
from analyzer.mechanics.game import RES_COLS, R_BID, R_BIDDER, R_CONTRACT, R_POINTS, R_SCORE
from analyzer.search.partner_deals import rule_deal_duels, rule_deal_open
from analyzer.mechanics.sampling import deal_counts
from analyzer.search.pimc import pimc_policy
from analyzer.mechanics.rules import team_spec

def side_policies(config: str, soloist: int, worlds: int) -> np.ndarray:
    """int64[4] seat policies: PIMC (``worlds`` per decision) for the seats of ``config``
    (``soloist``: the soloist's side, seats ``soloist`` and ``soloist + 2``; ``defenders``:
    the other side; ``all``), the team policy elsewhere."""
    pol = np.full(4, POLICY_HEURISTIC, dtype=np.int64)
    for p in range(4):
        own = p % 2 == soloist % 2
        if config == "all" or (config == "soloist") == own:
            pol[p] = pimc_policy(worlds)
    return pol


def duplicate_sides(n_deals: int, seed: int = 0, configs=CONFIGS, samples: int = 20,
                    rules=None, progress=None) -> dict:
    """Play ``n_deals`` trump deals of a partners' game in duplicate (module docstring).

    ``samples``: PIMC worlds per decision.  Returns the dict of
    :func:`analyzer.analyses.strength.duplicate_match` (``n``, ``skipped``,
    ``base_card_points``, ``base_make``, ``bid_mean``, ``configs``: per configuration
    ``card_points`` {n, mean, se, z}, ``make`` per bid and ``seconds_per_deal``), the
    horizon 0 (no exact search at a four-hand table).
    """
    if not 1 <= int(n_deals) <= MAX_DEALS:
        raise BinokelError(f"deals must be 1..{MAX_DEALS}, got {n_deals}")
    for c in configs:
        if c not in CONFIGS:
            raise BinokelError(f"unknown configuration {c!r}: use {', '.join(CONFIGS)}")
    if not 1 <= int(samples) <= 1000:
        raise BinokelError(f"samples must be 1..1000, got {samples}")
    spec = team_spec(rules)
    tk, kr = spec.tk, spec.kr
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(tk, beat)
    hands = np.zeros((5, N_TYPES), dtype=np.uint8)
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    res = np.zeros(RES_COLS, dtype=np.int64)
    deck = spec.deck.copy()
    st = chunk_state(seed, 0)
    dabb = spec.dabb_size > 0

    def play(pol, stream):
        """(soloist, bid, its side's card points, contract, the side's score) of one run."""
        ps = chunk_state(seed, stream)
        if dabb:
            rule_deal_duels(hands, DEFAULT_DABB_ESTIMATE, pol, ps, tk, kr, beat, cnt, res)
        else:
            rule_deal_open(hands[:4], DEFAULT_TRICK_VALUE, DEFAULT_PARTNER_ALLOWANCE, pol, ps, tk,
                        beat, cnt, res)
        sol = int(res[R_BIDDER])
        side = sol % 2 if sol >= 0 else 0
        return (sol, int(res[R_BID]), int(res[R_POINTS + side]), int(res[R_CONTRACT]),
                int(res[R_SCORE + side]))

    base_cp, base_make, bids = [], [], []
    res_c = {c: ([], []) for c in configs}
    secs = {c: 0.0 for c in configs}
    drawn = 0
    played = 0
    base_pol = np.full(4, POLICY_HEURISTIC, dtype=np.int64)
    while played < n_deals:
        deal_counts(st, deck, hands, spec.hand_size)
        drawn += 1
        sol, bid, b_card, contract, b_score = play(base_pol, 0)
        if sol < 0 or contract != CONTRACT_PLAY:
            continue
        played += 1
        base_cp.append(b_card)
        base_make.append([int(b_score > 0)])
        bids.append(bid)
        for c in configs:
            t0 = time.perf_counter()
            s2, bid2, card, _c2, score = play(side_policies(c, sol, samples), 1 + drawn)
            secs[c] += time.perf_counter() - t0
            if s2 != sol or bid2 != bid:
                raise BinokelError("the auction moved with the play policy")   # never: bidding reads cards only
            res_c[c][0].append(card - b_card)
            res_c[c][1].append([int(score > 0)])
        if progress is not None:
            progress(played, n_deals)
    out = {"rules": spec.name, "n": played, "skipped": drawn - played, "samples": int(samples),
           "horizon": 0, "policy": "pimc", "baseline": "heuristic", "use_melds": False,
           "use_tapp": False, "seed": seed, "base_card_points": float(np.mean(base_cp)),
           "configs": {}}
    bm = np.array(base_make, dtype=float)
    names = ["auction"]
    out["base_make"] = dict(zip(names, (float(x) for x in bm.mean(axis=0))))
    out["bid_mean"] = float(np.mean(bids))
    for c in configs:
        d, mk = res_c[c]
        mk = np.array(mk, dtype=float)
        out["configs"][c] = {
            "card_points": paired(d).to_dict(),
            "make": {nm: {"base": float(bm[:, j].mean()), "config": float(mk[:, j].mean()),
                          "diff": paired(mk[:, j] - bm[:, j]).to_dict()}
                     for j, nm in enumerate(names)},
            "seconds_per_deal": secs[c] / played,
        }
    return out
