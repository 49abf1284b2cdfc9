"""One answer per question (issue 25): ``analyze`` and ``advise`` mean the same by P(make)
and E[score] at a bid, because both run one model of the soloist's choices after the
auction (exchange, trump, going out, Durch: R4, V2.4, V2.7, V4.3, V5.4).

Three-player games: the analyzer's kernel and the advisor's soloist branch both run
analyzer.mechanics.exchange.soloist_exchange + analyzer.search.deals.soloist_play.
Team games with a Dabb: both run analyzer.search.partner_deals.dabb_outcomes and the
same contract rule (advice_samples.soloist_contracts).  The two commands draw their samples
differently (the analyzer stratifies the Tapp), so on their own samples they agree within
sampling error, checked here at every bid both tables show; on the *same* deal they give
the same numbers exactly (the first test).  pinochle-80's analysis answers another
question, P(team total >= b) per trump, and names it so (docs/VARIANTS.md V6).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from analyzer.analyses.advice import advise_bid
from analyzer.analyses.analysis import analyze_hand, analyze_team_hand
from analyzer.mechanics.cards import N_TYPES, Hand
from analyzer.mechanics.exchange import EXCHANGE_SAMPLES, EXCHANGE_TOP, PER_TRUMP, soloist_exchange
from analyzer.search.deals import soloist_grid, soloist_play
from analyzer.mechanics.play import POLICY_HEURISTIC
from analyzer.mechanics.rng import chunk_state, next_u64
from analyzer.mechanics.rules import get_rules

# the issue's hand: analyze said 93.5 % at 480 and 77.0 % at 500, advise 85.6 % and 56.4 %
ISSUE_HAND = "AC AS AS 10S KS QS JS 9S KH QH AD 10D KD QD JD"
HANDS = {
    "binokel-48": ISSUE_HAND,
    "grupp-3": ISSUE_HAND.replace("9S", "7S"),
    "grupp-4": ISSUE_HAND.replace("9S", "7S"),
    "binokel-40": "AS AS 10S KS QS JS AD 10D KD QD JD KH",
}
Z = 4.5     # per-bid tolerance in combined standard errors (fixed seeds: no flakiness)


def _close(a: float, b: float, se_a: float, se_b: float, floor: float) -> bool:
    return abs(a - b) <= Z * math.sqrt(se_a ** 2 + se_b ** 2) + floor


def test_soloist_grid_is_the_exchange_decision_then_the_play_on_the_same_deal():
    """Same deal, same random streams: the advisor's soloist branch equals the analyzer's
    two steps (soloist_exchange, then soloist_play from the next four draws)."""
    rules = get_rules("binokel-48")
    kr = rules.kernel
    hand = Hand.parse(ISSUE_HAND).counts_array().astype(np.uint8)
    rng = np.random.default_rng(4)
    bids = np.arange(150, 700, 10, dtype=np.int64)
    for trial in range(3):
        rest = [t for t in range(N_TYPES) for _ in range(2 - int(hand[t]))]
        rng.shuffle(rest)
        hands = np.zeros((3, N_TYPES), np.uint8)
        hands[0] = hand
        tapp = np.zeros(N_TYPES, np.uint8)
        for i, t in enumerate(rest):
            (hands[1] if i < 15 else hands[2] if i < 30 else tapp)[t] += 1
        st = chunk_state(trial, 0)
        sc, made, con = (np.empty((len(bids), 3), np.int64), np.empty(len(bids), np.uint8),
                         np.empty(len(bids), np.int8))
        soloist_grid(hands, tapp, 0, bids, POLICY_HEURISTIC, st.copy(), kr, sc, made, con)
        # the analyzer's steps, by hand
        s2 = st.copy()
        c18 = (hands[0] + tapp).astype(np.uint8)
        disc = np.empty(3, np.int64)
        ddisc = np.full(3, -1, np.int64)
        con2 = np.empty(len(bids), np.int8)
        trump, has_durch, _ = soloist_exchange(c18, 0, bids, EXCHANGE_SAMPLES, EXCHANGE_TOP,
                                               PER_TRUMP, s2, kr, disc, ddisc, con2)
        ps = np.array([next_u64(s2) for _ in range(4)], dtype=np.uint64)
        sc2 = np.empty((len(bids), 3), np.int64)
        z = [np.zeros(3, np.int64) for _ in range(4)]
        soloist_play(hands, c18, tapp, 0, trump, disc, has_durch, ddisc, con2, bids, ps,
                     POLICY_HEURISTIC, kr, *z, sc2)
        assert (con == con2).all()
        assert (sc == sc2).all()
        assert (made == (sc2[:, 0] > 0)).all()


@pytest.mark.parametrize("game", sorted(HANDS))
def test_analyze_and_advise_agree_on_p_make_e_score_and_going_out_at_every_bid(game):
    """R4/R8 (V2.4, V5.4 in the variants): P(make), E[score] and the share of going out
    at each bid are one quantity in both commands (before issue 25 the advisor's soloist
    went out on a normal approximation: 41.5 % at 500 against the analyzer's 10.4 %)."""
    rules = get_rules(game)
    hand = Hand.parse(HANDS[game], rules=rules)
    n = 400
    an = analyze_hand(hand, None, "forehand", samples=n, seed=11, rules=rules)
    ad = advise_bid(hand, seat="forehand", auction="", samples=n, seed=12, inference=False,
                    rules=rules)
    a_rows = {int(r.bid): r for r in an.bids.itertuples(index=False)}
    shared = [r for r in ad.rows if r["bid"] in a_rows]
    assert len(shared) >= 10, "the two tables overlap over the interesting bids"
    moved = 0
    for r in shared:
        a = a_rows[r["bid"]]
        p = (a.p_make + r["p_make"]) / 2
        se_p = math.sqrt(max(p * (1 - p), 0.25 / n) / n)
        assert _close(a.p_make, r["p_make"], se_p, se_p, 0.0), (game, r["bid"], a.p_make,
                                                                r["p_make"])
        se_b = (r["ev_score_hi"] - r["ev_score_lo"]) / (2 * 1.96)
        assert _close(a.e_score, r["ev_score"], a.e_score_se, se_b, 1.0), (
            game, r["bid"], a.e_score, r["ev_score"])
        s = (a.p_surrender + r["p_surrender"]) / 2
        se_s = math.sqrt(max(s * (1 - s), 0.25 / n) / n)
        assert _close(a.p_surrender, r["p_surrender"], se_s, se_s, 0.0), (
            game, r["bid"], a.p_surrender, r["p_surrender"])
        moved += 0.05 < a.p_make < 0.95
    assert moved >= 2, "the comparison covers bids where the contract is in doubt"


@pytest.mark.parametrize("game,hand,bids", [
    ("kreuz-48", "AH AH 10H KH QH JH AS 10S KC QC 7D", (150, 200, 250)),
    ("kreuz-40", "AH AH 10H KH QH JH AS 10S KC", (150, 180, 210)),
])
def test_team_analyze_and_advise_agree_on_p_make_at_a_bid(game, hand, bids):
    """V4.3, V4.6, V5.4: the team analysis's line at a bid (contract shares, P(make)) and
    the team advice's row at that bid come from the same soloist model."""
    rules = get_rules(game)
    n = 600
    adv = advise_bid(hand, 0, "", rules=rules, samples=n, seed=5, inference=False)
    rows = {r["bid"]: r for r in adv.rows}
    for b in bids:
        if b not in rows:
            continue
        at = analyze_team_hand(hand, rules, seat=0, samples=n, seed=6, bid=b).at_bid
        r = rows[b]
        p = (at["p_make"] + r["p_make"]) / 2
        se = math.sqrt(max(p * (1 - p), 0.25 / n) / n)
        assert _close(at["p_make"], r["p_make"], se, se, 0.0), (game, b, at, r)
        o = (at["p_out"] + r["p_out"]) / 2
        se = math.sqrt(max(o * (1 - o), 0.25 / n) / n)
        assert _close(at["p_out"], r["p_out"], se, se, 0.0), (game, b, at, r)
