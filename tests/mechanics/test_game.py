"""Whole deals after the auction (R4 exchange, R6 play, R8 scoring) and R9's game end."""
from __future__ import annotations

import numpy as np
import pytest

from analyzer import DEFAULT_RULES, Hand, melds
from analyzer.mechanics.cards import SUITS, mask_to_counts
from analyzer.mechanics.exchange import (CONTRACT_DURCH, CONTRACT_PLAY, CONTRACT_SURRENDER, EST_WEIGHTS,
                               exchange_shortlist, fast_exchange)
from analyzer.mechanics.game import NO_WINNER, contract_for_bid, game_winner
from analyzer.search.deals import finish_deal, soloist_outcomes
from analyzer.mechanics.play import POLICY_HEURISTIC, play_out
from analyzer.mechanics.rng import make_state
from analyzer.mechanics.sampling import deal_random, new_deck

KR = DEFAULT_RULES.kernel
BIDS = np.arange(150, 600, 10, dtype=np.int64)
PTS = (11, 10, 4, 3, 2, 0)


def random_deals(n, seed):
    st = make_state(np.random.SeedSequence(seed))
    deck = new_deck()
    out = np.empty(4, dtype=np.int64)
    for _ in range(n):
        deal_random(st, deck, out)
        hands = np.stack([mask_to_counts(int(out[p])) for p in range(3)]).astype(np.uint8)
        yield hands, mask_to_counts(int(out[3])).astype(np.uint8)


def reference_finish(hands, tapp, soloist, bid, state):
    """R4 + R8 written out in Python over the public pieces (melds() API, play_out)."""
    c18 = (hands[soloist] + tapp).astype(np.uint8)
    disc = np.zeros(3, dtype=np.int64)
    trump, contract = fast_exchange(c18, bid, KR, disc)
    work = hands.copy()
    work[soloist] = c18
    for t in disc:
        work[soloist, t] -= 1
    assert work[soloist].sum() == 15
    meld = [melds(Hand.from_mask(_mask(work[p])), SUITS[trump]).total if trump >= 0 else 0
            for p in range(3)]
    if contract == CONTRACT_SURRENDER:                      # R4
        return [-bid if p == soloist else 50 + meld[p] for p in range(3)]
    pts = np.zeros(3, dtype=np.int64)
    trk = np.zeros(3, dtype=np.int64)
    if contract == CONTRACT_DURCH:                          # R4: soloist leads, all 15 tricks
        play_out(work, -1, soloist, soloist, POLICY_HEURISTIC, state, KR, pts, trk)
        return [(1000 if trk[soloist] == 15 else -1000) if p == soloist else 0 for p in range(3)]
    play_out(work, trump, 0, soloist, POLICY_HEURISTIC, state, KR, pts, trk)   # R6: FH leads
    out = []
    for p in range(3):
        total = int(pts[p]) + (sum(PTS[t % 6] for t in disc) if p == soloist else 0)  # R7
        if trk[p] > 0:
            total += meld[p]                                # R8: melds only with a trick
        if p == soloist:
            out.append(total if trk[p] > 0 and total >= bid else -2 * bid)
        else:
            out.append(total if trk[p] > 0 else 0)
    return out


def _mask(counts):
    lo = sum(1 << t for t in range(24) if counts[t] >= 1)
    hi = sum(1 << t for t in range(24) if counts[t] >= 2)
    return lo | (hi << 24)


def test_r8_finish_deal_matches_python_reference():
    """R4/R7/R8: exchange, discard points to the soloist, melds of the kept 15, scores."""
    rng = np.random.default_rng(3)
    for i, (hands, tapp) in enumerate(random_deals(300, 11)):
        soloist = int(rng.integers(3))
        bid = int(rng.choice([150, 180, 220, 260, 300]))
        s1 = make_state(np.random.SeedSequence([5, i]))
        s2 = s1.copy()
        out = np.zeros(3, dtype=np.int64)
        contract, trump, made = finish_deal(hands, tapp, soloist, bid, POLICY_HEURISTIC, s1, KR, out)
        assert list(out) == reference_finish(hands, tapp, soloist, bid, s2)
        assert made == (1 if out[soloist] > 0 else 0)


def test_r4_contract_for_bid_equals_fast_exchange():
    """R4: the per-bid contract used for the advisor's table is fast_exchange's."""
    disc = np.zeros((4, 3), dtype=np.int64)
    tr = np.zeros(4, dtype=np.int64)
    val = np.zeros(4, dtype=np.float64)
    dd = np.zeros(3, dtype=np.int64)
    d3 = np.zeros(3, dtype=np.int64)
    for hands, tapp in random_deals(60, 12):
        c18 = (hands[0] + tapp).astype(np.uint8)
        losers = exchange_shortlist(c18, KR, EST_WEIGHTS, 1, disc, tr, val, dd)
        best = int(np.argmax(val))
        for bid in range(150, 500, 30):
            _, c = fast_exchange(c18, bid, KR, d3)
            assert contract_for_bid(val[best], losers, bid, KR) == c


def test_r8_soloist_outcomes_equal_finish_deal_at_every_bid_and_make_is_monotone():
    """R8: one played deal scored for a bid grid equals finishing the deal at each bid;
    'made' never switches back on as the bid rises (P(make) cannot rise with the bid)."""
    K = BIDS.shape[0]
    for i, (hands, tapp) in enumerate(random_deals(80, 13)):
        soloist = i % 3
        st = make_state(np.random.SeedSequence([6, i]))
        scores = np.zeros((K, 3), dtype=np.int64)
        made = np.zeros(K, dtype=np.uint8)
        contracts = np.zeros(K, dtype=np.int8)
        soloist_outcomes(hands, tapp, soloist, BIDS, POLICY_HEURISTIC, st.copy(), KR, scores,
                         made, contracts)
        assert all(made[k] >= made[k + 1] for k in range(K - 1))
        for k in range(0, K, 7):
            out = np.zeros(3, dtype=np.int64)
            c, _, m = finish_deal(hands, tapp, soloist, int(BIDS[k]), POLICY_HEURISTIC, st.copy(),
                                  KR, out)
            assert c == contracts[k] and m == made[k]
            assert list(out) == list(scores[k])


def test_r4_sure_durch_scores_plus_1000_and_opponents_nothing():
    """R4: a hand of top cards only goes Durch, leads, wins all 15: +1000, opponents 0."""
    hand = Hand.parse("AC AC 10C 10C KC KC AS AS 10S 10S KS KS AH AH 10H")
    tapp = Hand.parse("9D 9D JD")
    rest = Hand.parse(" ".join(c.code for c in _full_deck())) - hand - tapp
    cards = rest.cards()
    hands = np.zeros((3, 24), dtype=np.uint8)
    hands[1] = hand.counts_array()
    hands[0] = Hand.from_cards(cards[:15]).counts_array()
    hands[2] = Hand.from_cards(cards[15:]).counts_array()
    out = np.zeros(3, dtype=np.int64)
    c, trump, made = finish_deal(hands, tapp.counts_array().astype(np.uint8), 1, 200,
                                 POLICY_HEURISTIC, make_state(np.random.SeedSequence(1)), KR, out)
    assert c == CONTRACT_DURCH and trump == -1 and made == 1
    assert list(out) == [0, 1000, 0]


def _full_deck():
    from analyzer.mechanics.cards import FULL_DECK
    return FULL_DECK.cards() if hasattr(FULL_DECK, "cards") else list(FULL_DECK)


@pytest.mark.parametrize("totals, soloist, winner", [
    ((1490, 1400, 1300), 0, NO_WINNER),        # nobody reached 1500: play on
    ((1500, 1600, 1300), 0, 0),                 # soloist reached: soloist wins even if lower
    ((1400, 1550, 1300), 0, 1),                 # only one opponent reached: that opponent
    ((1400, 1550, 1520), 0, 1),                 # both opponents: the higher total
    ((1400, 1550, 1550), 0, NO_WINNER),         # both opponents tied: another deal
    ((1600, 1550, 1700), 1, 1),                 # soloist among several: soloist
])
def test_r9_game_winner(totals, soloist, winner):
    """R9: the game ends after a deal when someone has >= 1500; who wins."""
    assert game_winner(np.array(totals, dtype=np.int64), soloist, 1500) == winner
