"""Binokel team games kreuz-48 (V4) and kreuz-40 (V5): dealing, the chain of duels for
four (V1), play duties (V4.5 = R6, V5.6 with the partner relief), exchange, melds,
rounding and scoring (V1, V4.3, V4.6, V5.7) - kernels against tests/oracle/teams.py."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

from analyzer.mechanics.play import beat_table
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import DEFAULT_RULES, get_rules, team_kernel
from analyzer.mechanics.scoring import (round_card_points, score_sides, score_sides_durch,
                                        score_sides_going_out)
from analyzer.mechanics.exchange import (CONTRACT_DURCH, CONTRACT_OPEN_DURCH, CONTRACT_PLAY,
                                         CONTRACT_SURRENDER)
from analyzer.mechanics.exchange import NO_DURCH, durch_discard, soloist_choice
from analyzer.mechanics.game import (RES_COLS,
                                     R_BIDDER,
                                     R_CONTRACT,
                                     R_MELD,
                                     R_POINTS,
                                     R_SCORE,
                                     R_TRUMP)
from analyzer.search.partner_deals import dabb_contract
from analyzer.mechanics.trick import DUTY_R6, DUTY_V56
from analyzer.mechanics.playout import (L_CARD0, L_COLS, L_LEADER, L_LEGAL0, L_POINTS, L_WINNER,
                                        play_durch_partners_logged)
from analyzer.mechanics.play import POLICY_RANDOM, POLICY_HEURISTIC
from analyzer.mechanics.sampling import deal_counts
from analyzer.search.pimc import play_deal_partners_logged
from tests.oracle import teams as ref

# the registered team RuleSets: 48 cards with sevens (the low card is rank 5), 40 cards
K48 = get_rules("kreuz-48")
K40 = get_rules("kreuz-40")
TK48 = team_kernel(K48)
TK40 = team_kernel(K40)
DECK48 = np.repeat(np.arange(24, dtype=np.uint8), 2)
DECK40 = np.repeat(np.array([t for t in range(24) if t % 6 != 5], dtype=np.uint8), 2)


def _deals(deck, hand_size, seed, n):
    s = chunk_state(seed, 0)
    cnt = np.zeros((5, 24), dtype=np.uint8)
    d = deck.copy()
    for _ in range(n):
        deal_counts(s, d, cnt, hand_size)
        yield cnt.copy()


def test_v4_1_v5_1_deal_11_plus_4_and_9_plus_4():
    for deck, h in ((DECK48, 11), (DECK40, 9)):
        for cnt in _deals(deck, h, 1, 20):
            assert list(cnt[:4].sum(axis=1)) == [h] * 4 and cnt[4].sum() == 4
            assert (cnt.sum(axis=0) == np.bincount(deck, minlength=24)).all()


# ---------------------------------------------------------------- play duties

def _replay(hands, log, trump, leader, duty, relief, n_tricks, last_bonus=10):
    h = [[int(x) for x in hands[p]] for p in range(4)]
    pts = [0, 0]
    ld = leader
    for trick in range(n_tricks):
        assert log[trick, L_LEADER] == ld
        cards = []
        for k in range(4):
            seat = (ld + k) % 4
            pw = bool(cards) and (ld + ref.winner_index(cards, trump)) % 4 == (seat + 2) % 4
            legal = ref.legal(h[seat], cards, trump, duty, pw, relief)
            assert log[trick, L_LEGAL0 + k] == sum(1 << t for t in legal), (trick, k)
            c = int(log[trick, L_CARD0 + k])
            h[seat][c] -= 1
            cards.append(c)
        w = (ld + ref.winner_index(cards, trump)) % 4
        assert log[trick, L_WINNER] == w
        p = sum(DEFAULT_RULES.card_points[ref.rank(c)] for c in cards) + (last_bonus if trick == n_tricks - 1 else 0)
        assert log[trick, L_POINTS] == p
        pts[w % 2] += p
        ld = w
    return pts


@pytest.mark.parametrize("game", ["kreuz-48", "kreuz-40"])
@pytest.mark.parametrize("policy", [POLICY_RANDOM, POLICY_HEURISTIC])
def test_v4_5_v5_6_kernel_duties_match_reference(game, policy):
    tk, deck, h, duty, relief = ((TK48, DECK48, 11, "R6", False) if game == "kreuz-48"
                                 else (TK40, DECK40, 9, "V5.6", True))
    for i, cnt in enumerate(_deals(deck, h, 7 + policy, 40)):
        hands = cnt[:4].copy()
        log = np.zeros((h, L_COLS), dtype=np.int64)
        pts = np.zeros(2, dtype=np.int64)
        z = np.zeros(2, dtype=np.int64)
        trump = i % 4
        play_deal_partners_logged(hands, trump, 0, i % 4, np.full(4, policy, dtype=np.int64),
                         chunk_state(i, 3), tk, np.zeros(24, dtype=np.uint8), pts, z,
                         np.zeros(2, dtype=np.int64), log, np.zeros(0, dtype=np.int64), 0)
        assert list(pts) == _replay(hands, log, trump, 0, duty, relief, h)


def test_v5_6_partner_relief_lifts_beat_and_trump_duties():
    # seat 2 (partner of 0) to play; 0 led A♥ winning, 1 played J♥; seat 2 holds K♥ 10♥
    hand = [0] * 24
    hand[13] = hand[14] = 1           # 10♥, K♥
    assert ref.legal(hand, [12, 16], 0, "V5.6", partner_winning=True, relief=True) == {13, 14}
    # void in hearts with trumps: free choice under relief, trump without it
    hand2 = [0] * 24
    hand2[0] = hand2[20] = 1          # A♣ (trump clubs), Q♦
    assert ref.legal(hand2, [12, 16], 0, "V5.6", True, True) == {0, 20}
    assert ref.legal(hand2, [12, 16], 0, "V5.6", True, False) == {0}


def test_v5_6_beat_the_led_suit_even_when_trumped():
    hand = [0] * 24
    hand[12] = hand[16] = 1            # A♥, J♥
    trick = [14, 3]                    # K♥ led, Q♣ ruffs (clubs trump)
    assert ref.legal(hand, trick, 0, "V5.6") == {12}
    assert ref.legal(hand, trick, 0, "R6") == {12, 16}   # R6: trumped, any heart


# ---------------------------------------------------------------- scoring, rounding, exchange

@given(st.integers(0, 1), st.integers(15, 40).map(lambda x: x * 10),
       st.tuples(st.integers(0, 600), st.integers(0, 600)), st.integers(0, 250),
       st.tuples(st.integers(0, 3), st.integers(0, 3)))
def test_v4_6_v5_7_score_kernel_matches_reference(sol_team, bid, melds, p0, tricks):
    points = (p0, 250 - p0)
    out = np.zeros(2, dtype=np.int64)
    # kreuz-48: rounded to 10 (V1), -2 x bid (V4.6), melds with any team trick
    score_sides(sol_team, bid, np.array(melds), np.array(points), np.array(tricks),
                np.zeros(2, dtype=np.int64), TK48, out)
    assert tuple(out) == ref.score(sol_team, bid, melds, points, tricks)


def test_v1_rounding_per_team_nearest_10_five_up_keeps_250():
    assert [round_card_points(x, 10) for x in (124, 125, 126, 0, 250)] == [120, 130, 130, 0, 250]
    assert round_card_points(125, 10) + round_card_points(125, 10) == 260   # the reading: per team
    assert round_card_points(123, 0) == 123


def test_v4_3_going_out_scores_minus_bid_and_melds_plus_30():
    out = np.zeros(2, dtype=np.int64)
    score_sides_going_out(1, 200, 90, 30, out)
    assert tuple(out) == (120, -200)


def test_v4_2_exchange_discards_4_and_discard_points_count_for_the_team():
    beat = np.empty(24, dtype=np.int64)
    beat_table(TK48, beat)
    res = np.zeros(RES_COLS, dtype=np.int64)
    cnt = np.zeros((4, 24), dtype=np.uint8)
    for i, hands in enumerate(_deals(DECK48, 11, 3, 30)):
        dabb_contract(hands, i % 4, 150, np.full(4, POLICY_HEURISTIC, dtype=np.int64),
                       chunk_state(i, 1), TK48, K48.kernel, beat, cnt, res)
        assert res[R_CONTRACT] == CONTRACT_PLAY             # 150 is no bid to go out at
        assert res[R_POINTS] + res[R_POINTS + 1] == 250     # tricks 240 + last 10, discard incl.
        assert res[R_BIDDER] == i % 4
        assert res[R_MELD] >= 0 and res[R_MELD + 1] >= 0


def test_v4_v5_v6_team_rulesets_are_registered_with_their_facts():
    k48, k40, pin = get_rules("kreuz-48"), get_rules("kreuz-40"), get_rules("pinochle-80")
    assert (k48.players, k48.hand_size, k48.tapp_size, k48.n_cards) == (4, 11, 4, 48)
    assert (k40.players, k40.hand_size, k40.tapp_size, k40.n_cards) == (4, 9, 4, 40)
    assert (pin.players, pin.hand_size, pin.tapp_size, pin.n_cards) == (4, 20, 0, 80)
    assert TK48.duty == DUTY_R6 and TK48.partner_relief == 0 and TK48.forced_opening == 0
    assert TK40.duty == DUTY_V56 and TK40.partner_relief == 1 and TK40.forced_opening == 1
    assert team_kernel(pin).duty == 2 and pin.target_score == 3550
    assert k48.round_to == 10 and k40.round_to == 10          # V1 rounding per team
    assert k48.surrender_bonus == 30 and k40.surrender_bonus == 40   # V4.3, V5.4
    assert k48.target_score == 1500 and k40.target_score == 1000     # V4.6, V5.7


# ---------------------------------------------------------------- Durch (V4.6 -> V2.7, R4)

def _counts(codes):
    from analyzer.mechanics.cards import Hand
    return np.array(Hand.parse(codes, rules=K48).counts, dtype=np.uint8)


def _replay_durch(hands, log, soloist, won):
    """Reference replay of a team Durch: no trump, the soloist leads, R6 duties for
    everybody (V4.5: the partner too), play stops at the first trick the soloist loses."""
    h = [list(map(int, hands[p])) for p in range(4)]
    n = 0
    for trick in range(int(hands[soloist].sum())):
        cards = []
        assert log[trick, L_LEADER] == soloist
        for k in range(4):
            seat = (soloist + k) % 4
            legal = ref.legal(h[seat], cards, -1, "R6")
            assert log[trick, L_LEGAL0 + k] == sum(1 << t for t in legal), (trick, k)
            c = int(log[trick, L_CARD0 + k])
            if seat == (soloist + 2) % 4:
                # the partner plays along: it takes the trick only when every legal card does
                takes = [t for t in legal if ref.beats(t, cards[ref.winner_index(cards, -1)], -1)]
                assert c not in takes or len(takes) == len(legal)
            h[seat][c] -= 1
            cards.append(c)
        w = (soloist + ref.winner_index(cards, -1)) % 4
        assert log[trick, L_WINNER] == w
        if w != soloist:
            break
        n += 1
    assert n == won
    return n


def test_v4_6_durch_partner_must_beat_the_soloist_when_it_can_and_the_durch_fails():
    # R6 duties hold for the partner (V4.5): soloist 0 leads K♥ on trick 2, partner 2's
    # only heart is A♥, so it must take the trick: the Durch ends after one trick
    hands = np.stack([_counts(c) for c in ("AC KH", "7C 7S", "AH 7H", "7D JD")])
    log = np.zeros((2, L_COLS), dtype=np.int64)
    won = play_durch_partners_logged(hands, 0, TK48, np.zeros(24, dtype=np.uint8), log)
    assert won == 1 and log[1, L_WINNER] == 2
    assert _replay_durch(hands, log, 0, won) == 1


def test_v4_6_durch_partner_plays_under_the_soloist_when_it_may():
    # the soloist leads A♥ (no stronger card unseen); partner 2's hearts 10♥ J♥ cannot beat
    # it, so it plays along and the soloist keeps both tricks
    hands = np.stack([_counts(c) for c in ("AH AC", "7H 7C", "10H JH", "QH KC")])
    log = np.zeros((2, L_COLS), dtype=np.int64)
    won = play_durch_partners_logged(hands, 0, TK48, np.zeros(24, dtype=np.uint8), log)
    assert won == 2
    _replay_durch(hands, log, 0, won)


def test_v4_6_durch_kernel_matches_reference_on_random_deals():
    for i, cnt in enumerate(_deals(DECK48, 11, 17, 40)):
        sol = i % 4
        log = np.zeros((11, L_COLS), dtype=np.int64)
        won = play_durch_partners_logged(cnt[:4].copy(), sol, TK48, np.zeros(24, dtype=np.uint8), log)
        _replay_durch(cnt[:4], log, sol, won)


def _sure_durch_deal():
    sol = "AC AC 10C 10C AS AS 10S 10S AH AH 10H"
    dabb = "10H AD AD 10D"
    rest = [t for t in range(24) for _ in range(2)]
    for t in np.flatnonzero(_counts(sol) + _counts(dabb)):
        for _ in range((_counts(sol) + _counts(dabb))[t]):
            rest.remove(int(t))
    hands = np.zeros((5, 24), dtype=np.uint8)
    hands[0] = _counts(sol)
    hands[4] = _counts(dabb)
    for j, t in enumerate(rest):
        hands[1 + j // 11, t] += 1
    return hands


def test_v4_6_sure_durch_is_declared_open_and_wins_every_trick_for_the_team():
    hands = _sure_durch_deal()
    ddisc = np.zeros(24, dtype=np.uint8)
    full = hands[0] + hands[4]
    assert durch_discard(full, TK48, K48.kernel, ddisc) == 0 and ddisc.sum() == 4
    beat = np.empty(24, dtype=np.int64)
    beat_table(TK48, beat)
    res = np.zeros(RES_COLS, dtype=np.int64)
    dabb_contract(hands, 0, 150, np.full(4, POLICY_HEURISTIC, dtype=np.int64), chunk_state(1, 1),
                   TK48, K48.kernel, beat, np.zeros((4, 24), dtype=np.uint8), res)
    # V2.7: a sure Durch is declared open (1500 > 1000); the team scores it, the others 0
    assert res[R_CONTRACT] == CONTRACT_OPEN_DURCH and res[R_TRUMP] == -1
    assert (res[R_SCORE], res[R_SCORE + 1]) == (1500, 0)
    assert res[R_MELD] == 0 and res[R_MELD + 1] == 0          # R4: no melds in a Durch


def test_v4_6_team_durch_scores_value_or_minus_twice_value_bid_plays_no_part():
    out = np.zeros(2, dtype=np.int64)
    score_sides_durch(1, True, 1000, 2, out)
    assert tuple(out) == (0, 1000)
    score_sides_durch(0, False, 1500, 2, out)
    assert tuple(out) == (-3000, 0)                            # V2.7: -2 x value


def test_v5_7_kreuz_40_has_no_durch():
    full = np.zeros(24, dtype=np.uint8)
    for t in (0, 1, 6, 7, 12, 13, 18):
        full[t] = 2
    assert durch_discard(full, TK40, K40.kernel, np.zeros(24, dtype=np.uint8)) == NO_DURCH
    beat = np.empty(24, dtype=np.int64)
    beat_table(TK40, beat)
    res = np.zeros(RES_COLS, dtype=np.int64)
    for i, hands in enumerate(_deals(DECK40, 9, 5, 60)):
        dabb_contract(hands, i % 4, 150 + 10 * (i % 20), np.full(4, POLICY_HEURISTIC, dtype=np.int64),
                       chunk_state(i, 1), TK40, K40.kernel, beat, np.zeros((4, 24), dtype=np.uint8), res)
        assert res[R_CONTRACT] not in (CONTRACT_DURCH, CONTRACT_OPEN_DURCH)


# ---------------------------------------------------------------- going out (V4.3, V5.4)

@pytest.mark.parametrize("game", ["kreuz-48", "kreuz-40"])
def test_v4_3_v5_4_soloist_goes_out_at_a_hopeless_bid_and_plays_at_the_opening_bid(game):
    rules, tk, deck, h = ((K48, TK48, DECK48, 11) if game == "kreuz-48" else (K40, TK40, DECK40, 9))
    beat = np.empty(24, dtype=np.int64)
    beat_table(tk, beat)
    res = np.zeros(RES_COLS, dtype=np.int64)
    cnt = np.zeros((4, 24), dtype=np.uint8)
    pol = np.full(4, POLICY_HEURISTIC, dtype=np.int64)
    outs = 0
    for i, hands in enumerate(_deals(deck, h, 9, 40)):
        dabb_contract(hands, i % 4, 150, pol, chunk_state(i, 1), tk, rules.kernel, beat, cnt, res)
        assert res[R_CONTRACT] in (CONTRACT_PLAY, CONTRACT_OPEN_DURCH)
        dabb_contract(hands, i % 4, 600, pol, chunk_state(i, 1), tk, rules.kernel, beat, cnt, res)
        if res[R_CONTRACT] == CONTRACT_SURRENDER:
            outs += 1
            t = (i % 4) % 2
            # V4.3 / V5.4: the soloist's team -bid; the other team its melds + the bonus
            assert res[R_SCORE + t] == -600
            assert res[R_SCORE + 1 - t] == res[R_MELD + 1 - t] + rules.surrender_bonus
            assert res[R_MELD + t] == 0
    assert outs >= 30          # 600 is far above what almost any team can reach


def test_v4_3_going_out_decision_uses_only_the_soloists_cards_and_the_dabb():
    kr = K48.kernel
    for i, hands in enumerate(_deals(DECK48, 11, 21, 30)):
        sol = i % 4
        others = [p for p in range(4) if p != sol]
        swapped = hands.copy()
        # give the other three seats each other's cards: nothing the soloist sees changes
        swapped[others[0]], swapped[others[1]], swapped[others[2]] = (
            hands[others[1]], hands[others[2]], hands[others[0]])
        got = []
        for hs in (hands, swapped):
            k, d, dd = (np.zeros(24, dtype=np.uint8) for _ in range(3))
            tr, est, losers = soloist_choice(hs, sol, TK48, kr, k, d, dd)
            got.append((tr, est, losers, tuple(d), tuple(dd)))
        assert got[0] == got[1]
