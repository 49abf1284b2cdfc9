"""Play, scoring, auction, dealing and exchange per variant (V1, V2.2-V2.7, V3, V5.1-V5.7):
the kernels against tests/oracle/variants.py (written from VARIANTS.md) on random
deals of each variant."""
from __future__ import annotations

import random

import numpy as np
import pytest

from analyzer import BinokelError, legal_cards, parse_cards, score_deal, trick_winner
from analyzer.mechanics.bidding import run_auction, simulate_auction, validate_auction
from analyzer.mechanics.cards import counts_to_mask, mask_to_counts
from analyzer.mechanics.exchange import (CONTRACT_DURCH, CONTRACT_OPEN_DURCH, fast_exchange,
                                         sure_durch_contract)
from analyzer.mechanics.game import game_winner
from analyzer.search.deals import finish_deal
from analyzer.mechanics.play import (older_args, LOG_CARD0, LOG_COLS, LOG_LEADER, LOG_LEGAL0, LOG_POINTS,
                                     LOG_WINNER, POLICY_HEURISTIC, POLICY_RANDOM,
                                     legal_mask, legal_mask_duty, play_out, play_out_logged)
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import get_rules
from analyzer.mechanics.sampling import deal_random, deal_rules, new_deck
from analyzer.mechanics.scoring import (DEAL_DURCH, DEAL_NORMAL, DEAL_OPEN_DURCH,
                                        DEAL_SURRENDER, DEAL_THROWN_IN, score_kernel)
from tests.oracle import variants as ref

NAMES = ("binokel-48", "grupp-3", "grupp-4", "binokel-40")


def _deal(rules, state):
    out = np.zeros(4, dtype=np.int64)
    deal_rules(state, new_deck(rules), rules.kernel, out)
    return np.array([mask_to_counts(m) for m in out[:3]]), mask_to_counts(out[3])


# ------------------------------------------------------------------ dealing (V2.1, V5.1)

def test_deal_rules_is_deal_random_for_the_48_card_deck():
    """binokel-48 unchanged: the variant-aware deal draws exactly what deal_random draws."""
    r = get_rules("binokel-48")
    s1, s2 = chunk_state(4, 0), chunk_state(4, 0)
    a, b = np.zeros(4, np.int64), np.zeros(4, np.int64)
    d1, d2 = new_deck(), new_deck(r)
    for _ in range(300):
        deal_random(s1, d1, a)
        deal_rules(s2, d2, r.kernel, b)
        assert list(a) == list(b)


def test_v5_1_forty_card_deals_are_12_12_12_4_without_low_cards():
    r = get_rules("binokel-40")
    st = chunk_state(2, 0)
    seen = np.zeros(24, dtype=np.int64)
    for _ in range(500):
        hands, dabb = _deal(r, st)
        assert [int(h.sum()) for h in hands] == [12, 12, 12] and int(dabb.sum()) == 4
        total = hands.sum(axis=0) + dabb
        assert all(total[t] == (0 if t % 6 == 5 else 2) for t in range(24))
        seen += hands[0]
    # every card of the 40 reaches seat 0 about equally often (uniform deal)
    frac = seen[[t for t in range(24) if t % 6 != 5]] / 500
    assert np.all(np.abs(frac - 12 / 40 * 2 * 0.5 * 2) < 0.12)


# ------------------------------------------------------------------ play (R6, V5.6)

def test_v5_6_beat_the_led_suit_even_when_the_trick_is_trumped():
    b40, b48 = get_rules("binokel-40"), get_rules("binokel-48")
    # hearts led K, spades (trump) played: binokel-40 must still beat the K of hearts
    assert legal_cards("AH JH 10S", "KH JS", "S", b40) == set(parse_cards("AH"))
    assert legal_cards("AH JH 10S", "KH JS", "S", b48) == set(parse_cards("AH JH"))
    # without a higher heart: any heart
    assert legal_cards("QH JH 10S", "KH JS", "S", b40) == set(parse_cards("QH JH"))
    # void in the led suit: trump and overtrump as R6
    assert legal_cards("10S QS AC", "KH JS", "S", b40) == set(parse_cards("10S QS"))
    assert trick_winner("KH AH JS", "S", b40) == 2


def test_legal_mask_duty_without_flags_is_legal_mask():
    rng = random.Random(5)
    r = get_rules("binokel-48")
    beat = np.empty(24, np.int64)
    from analyzer.mechanics.play import beat_table
    beat_table(r.kernel, beat)
    for _ in range(3000):
        hand = rng.getrandbits(24)
        led = rng.randrange(4)
        win = rng.randrange(24)
        high = rng.randrange(24)
        trump = rng.randrange(-1, 4)
        assert legal_mask(hand, led, win, trump, beat) == legal_mask_duty(
            hand, led, win, high, trump, beat, 0, 0)


def test_relief_hook_keeps_only_the_duty_to_follow():
    """The team-game hook (partner winning, V5.6 kreuz-40): follow suit, nothing more."""
    beat = np.empty(24, np.int64)
    from analyzer.mechanics.play import beat_table
    beat_table(get_rules("binokel-40").kernel, beat)
    hand = (1 << 12) | (1 << 15) | (1 << 6)        # A♥, Q♥, A♠
    assert legal_mask_duty(hand, 2, 14, 14, 1, beat, 1, 1) == (1 << 12) | (1 << 15)
    assert legal_mask_duty((1 << 6) | (1 << 0), 2, 14, 14, 1, beat, 1, 1) == (1 << 6) | 1


def _replay_against_reference(name, hands, trump, leader, log, n):
    """Every logged legal set / winner / trick points equal the reference's (R6, V5.6)."""
    h = [list(map(int, x)) for x in hands]
    ld = leader
    for i in range(n):
        row = log[i]
        assert row[LOG_LEADER] == ld
        trick = []
        for k in range(3):
            seat = (ld + k) % 3
            held = {t for t in range(24) if h[seat][t] > 0}
            want = ref.legal(name, held, trick, None if trump < 0 else trump)
            assert row[LOG_LEGAL0 + k] == sum(1 << t for t in want)
            c = int(row[LOG_CARD0 + k])
            assert c in want
            h[seat][c] -= 1
            trick.append(c)
        w = (ld + ref.trick_winner(trick, None if trump < 0 else trump)) % 3
        assert row[LOG_WINNER] == w
        pts = sum(ref.CARD_POINTS[c % 6] for c in trick)
        last = sum(h[0]) == 0 and sum(h[1]) == 0 and sum(h[2]) == 0
        assert row[LOG_POINTS] == pts + (ref.LAST_TRICK if last else 0)
        ld = w


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("policy", [POLICY_RANDOM, POLICY_HEURISTIC])
def test_kernel_play_agrees_with_the_reference_on_random_deals(name, policy):
    """Legal cards, trick winners and trick points of whole play-outs equal the text's
    (R6; V5.6 in binokel-40), all trumps and Durch, 150 deals per variant and policy."""
    r = get_rules(name)
    kr = r.kernel
    st = chunk_state(30 + policy, 0)
    pols = np.full(3, policy, dtype=np.int64)
    for i in range(150):
        hands, _ = _deal(r, st)
        trump = i % 5 - 1
        soloist = i % 3
        leader = soloist if trump < 0 else (i // 5) % 3
        log = np.zeros((kr.hand_size, LOG_COLS), dtype=np.int64)
        pts, won = np.zeros(3, np.int64), np.zeros(3, np.int64)
        n = play_out_logged(hands, trump, leader, soloist, pols, st, kr, pts, won, log,
                            np.zeros(0, dtype=np.int64), 0, *older_args(pols))
        _replay_against_reference(name, hands, trump, leader, log, n)
        if trump >= 0:
            assert n == kr.hand_size and won.sum() == kr.hand_size


def test_v5_6_lean_random_core_equals_general_core():
    """binokel-40's all-random fast path makes the same plays as the general loop."""
    r = get_rules("binokel-40")
    kr = r.kernel
    st = chunk_state(9, 0)
    for i in range(300):
        hands, _ = _deal(r, st)
        s1, s2 = st.copy(), st.copy()
        p1, t1, p2, t2 = (np.zeros(3, dtype=np.int64) for _ in range(4))
        play_out(hands, i % 4, 0, -1, POLICY_RANDOM, s1, kr, p1, t1)
        log = np.zeros((kr.hand_size, LOG_COLS), dtype=np.int64)
        play_out_logged(hands, i % 4, 0, -1, np.zeros(3, np.int64), s2, kr, p2, t2, log,
                        np.zeros(0, dtype=np.int64), 0)
        assert list(p1) == list(p2) and np.array_equal(s1, s2)
        st = s1


# ------------------------------------------------------------------ scoring

@pytest.mark.parametrize("name", NAMES)
def test_kernel_scores_agree_with_the_reference(name):
    """R8 with rounding (V1), going out (V2.4 +30, V5.4 +40) and Durch values (V2.7)."""
    r = get_rules(name)
    rng = random.Random(7)
    kinds = [("normal", DEAL_NORMAL), ("going_out", DEAL_SURRENDER)]
    if r.durch_value:
        kinds.append(("durch", DEAL_DURCH))
    if r.open_durch_value:
        kinds.append(("open_durch", DEAL_OPEN_DURCH))
    out = np.zeros(3, np.int64)
    for _ in range(3000):
        soloist = rng.randrange(3)
        bid = 150 + 10 * rng.randrange(30)
        cut = sorted(rng.sample(range(251), 2))
        cp = [cut[0], cut[1] - cut[0], 250 - cut[1]]
        tricks = [rng.randrange(0, 6) for _ in range(3)]
        if rng.random() < 0.2:
            tricks[soloist] = r.hand_size
        melds = [rng.choice([0, 20, 40, 100, 150, 240, 1500]) for _ in range(3)]
        text_kind, kind = rng.choice(kinds)
        score_kernel(kind, bid, soloist, np.array(cp), np.array(tricks), np.array(melds),
                     r.kernel, out)
        assert list(out) == ref.score(name, text_kind, soloist, bid, cp, tricks, melds)


def test_v1_rounding_moves_the_bids_edge():
    """grupp-3 rounds 145 card points to 150, 144 to 140 (V1: nearest 10, 5 up)."""
    g = get_rules("grupp-3")
    made = score_deal(0, 150, (145, 60, 45), (5, 5, 5), (0, 0, 0), rules=g)
    assert made.scores[0] == 150 and made.made
    lost = score_deal(0, 150, (144, 61, 45), (5, 5, 5), (0, 0, 0), rules=g)
    assert lost.scores[0] == -300 and lost.totals[1] == 60
    assert score_deal(0, 150, (145, 60, 45), (5, 5, 5), (0, 0, 0)).scores[0] == -300  # R8


def test_v2_7_open_durch_and_failed_durch_twice_its_value():
    g = get_rules("grupp-3")
    won = score_deal(1, 150, (0, 250, 0), (0, 15, 0), kind="open_durch", rules=g)
    assert won.scores == (0, 1500, 0)
    assert score_deal(1, 150, (10, 0, 0), (1, 0, 0), kind="open_durch", rules=g).scores[1] == -3000
    assert score_deal(1, 150, (10, 0, 0), (1, 0, 0), kind="durch", rules=g).scores[1] == -2000
    assert score_deal(1, 150, (10, 0, 0), (1, 0, 0), kind="durch").scores[1] == -1000   # R4
    with pytest.raises(BinokelError, match="V5.7"):
        score_deal(1, 150, kind="durch", rules=get_rules("binokel-40"))


def test_v2_4_v5_4_going_out_bonus():
    for name, bonus in (("grupp-3", 30), ("binokel-40", 40), ("binokel-48", 50)):
        s = score_deal(0, 200, melds=(100, 40, 0), kind="surrender", rules=get_rules(name))
        assert s.scores == (-200, 40 + bonus, bonus)


def test_v2_7_a_sure_durch_is_declared_open_where_it_is_worth_more():
    assert sure_durch_contract(get_rules("grupp-3").kernel) == CONTRACT_OPEN_DURCH
    assert sure_durch_contract(get_rules("binokel-48").kernel) == CONTRACT_DURCH
    assert sure_durch_contract(get_rules("binokel-40").kernel) == -1
    # the 18 cards: both aces and tens of clubs, spades, hearts, plus A♦ A♦ 10♦ 10♦ ...
    g = get_rules("grupp-3")
    c18 = np.zeros(24, np.uint8)
    for s in range(4):
        c18[s * 6 + 0] = 2
        c18[s * 6 + 1] = 2
    c18[2] = 2   # K♣ K♣ (safe: both aces and tens of clubs held) -> 18 cards
    disc = np.zeros(3, np.int64)
    trump, contract = fast_exchange(c18, 150, g.kernel, disc)
    assert (trump, contract) == (-1, CONTRACT_OPEN_DURCH)
    # binokel-48: eight aces (1000) make playing worth more than Durch; never an open Durch
    trump, contract = fast_exchange(c18, 150, get_rules("binokel-48").kernel, disc)
    assert contract != CONTRACT_OPEN_DURCH
    c16 = c18.copy()
    c16[2] = 0
    d4 = np.zeros(4, np.int64)
    trump, contract = fast_exchange(c16, 150, get_rules("binokel-40").kernel, d4)
    assert trump >= 0 and contract not in (CONTRACT_DURCH, CONTRACT_OPEN_DURCH)   # V5.7
    assert all(d % 6 != 5 for d in d4)


# ------------------------------------------------------------------ auction (R3, V2.2)

@pytest.mark.parametrize("name", NAMES)
def test_kernel_and_python_auctions_agree_with_the_reference(name):
    r = get_rules(name)
    rng = random.Random(11)
    for _ in range(3000):
        mb = [rng.choice([0, 0, 150, 160, 170, 200, 250]) for _ in range(3)]
        sol, bid, calls = ref.auction(name, mb)
        ks, kb = run_auction(np.array(mb, dtype=np.int64), r.kernel)
        ps, pb, pcalls = simulate_auction(mb, r)
        assert (ks, kb) == ((-1, 0) if sol is None else (sol, bid))
        assert (ps, pb, pcalls) == (ks, kb, calls)
        st = validate_auction(pcalls, r)
        assert st.finished and st.thrown_in == (sol is None)
        assert st.soloist == sol


def test_v2_2_weg_and_thrown_in_deals():
    g = get_rules("grupp-3")
    st = validate_auction("pass pass pass", g)
    assert st.finished and st.thrown_in and st.soloist is None
    st = validate_auction("pass 150 160 pass", g)     # mh opened, rh raised, mh passed
    assert st.finished and st.soloist == 2 and st.standing == 160
    st = validate_auction("pass pass 150", g)          # rearhand opens after two passes
    assert st.finished and st.soloist == 2
    with pytest.raises(BinokelError, match="V2.2"):
        validate_auction("pass 160", g)                 # the first bid is 150
    with pytest.raises(BinokelError, match="R3"):
        validate_auction("pass", get_rules("binokel-40"))   # V5.2: forced opening
    hands = np.zeros((3, 24), np.uint8)
    out = np.ones(3, np.int64)
    res = finish_deal(hands, np.zeros(24, np.uint8), -1, 0, POLICY_HEURISTIC,
                      chunk_state(0, 0), g.kernel, out)
    assert list(out) == [0, 0, 0] and res[0] == -1


# ------------------------------------------------------------------ exchange (V2.3, V5.3)

@pytest.mark.parametrize("name", NAMES)
def test_fast_exchange_discards_the_dabb_size_from_the_soloists_cards(name):
    r = get_rules(name)
    kr = r.kernel
    st = chunk_state(13, 0)
    for _ in range(40):
        hands, dabb = _deal(r, st)
        c18 = (hands[0] + dabb).astype(np.uint8)
        disc = np.full(kr.tapp_size, -1, np.int64)
        trump, contract = fast_exchange(c18, 150, kr, disc)
        kept = c18.astype(np.int64).copy()
        for d in disc:
            assert d >= 0
            kept[d] -= 1
        assert kept.min() >= 0 and kept.sum() == kr.hand_size


def test_v2_3_dissle_in_the_discard_counts_in_the_deal_score():
    """A grupp soloist who discards the trump 7 still melds its 10 (V2.3); in binokel-48
    discarded cards never meld (R4)."""
    from analyzer.search.deals import _melds_of
    work = np.zeros((3, 24), np.uint8)
    work[0, 0] = 1                           # A♣ kept
    disc = np.array([6 + 5, 6 + 5, 0], np.int64)   # 7♠ 7♠ A♣ discarded
    for name, want in (("grupp-3", 20), ("grupp-4", 20), ("binokel-48", 0)):
        m = np.zeros(3, np.int64)
        _melds_of(work, 1, 0, disc, get_rules(name).kernel, m)
        assert m[0] == want
    m = np.zeros(3, np.int64)
    _melds_of(work, 2, 0, disc, get_rules("grupp-3").kernel, m)
    assert m[0] == 0                          # only the trump 7 is the Dissle


# ------------------------------------------------------------------ game end (R9, V3, V5.7)

def test_v3_game_end_among_four_and_v5_7_target_1000():
    assert game_winner(np.array([1490, 1510, 200, 1600]), 3, 1500) == 3
    assert game_winner(np.array([1490, 1510, 200, 1600]), 0, 1500) == 3
    assert game_winner(np.array([1600, 1510, 200, 1600]), 2, 1500) == -1    # tie: deal on
    assert get_rules("binokel-40").kernel.target_score == 1000
    assert get_rules("grupp-4").kernel.sitting_out_points == 200
