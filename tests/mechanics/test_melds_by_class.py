"""Melds by V6.3's classes of hands counted per card type (analyzer.mechanics.melds) and the
80-card hand (V6.1): kernel vs the plain-Python reference."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

from analyzer.errors import BinokelError
from analyzer.mechanics.cards import DECK80_TYPES, FULL_DECK80, Hand80
from analyzer.mechanics.melds import (class_meld_total, class_melds, meld_all_trumps_counts,
                                      meld_total_counts)
from analyzer.mechanics.sampling import deal_counts
from analyzer.mechanics.rules import PINOCHLE_80, team_kernel, team_spec
from analyzer.mechanics.rng import chunk_state
from tests.oracle import pinochle as ref

KP = team_kernel(PINOCHLE_80)


def total(text, trump):
    return class_meld_total(text, trump)


# ---------------------------------------------------------------- V6.1 deck and hands

def test_v6_1_deck_has_four_copies_of_twenty_types():
    assert len(DECK80_TYPES) == 20
    assert len(FULL_DECK80) == 80
    deck = team_spec(PINOCHLE_80).deck
    assert sorted(np.bincount(deck, minlength=24)[list(DECK80_TYPES)]) == [4] * 20
    assert all(t % 6 != 5 for t in DECK80_TYPES)


def test_v6_1_fifth_copy_is_a_one_line_error():
    with pytest.raises(BinokelError, match="only four of each card"):
        Hand80.parse("AS AS AS AS AS")


def test_v6_1_nine_is_not_in_the_80_card_deck():
    with pytest.raises(BinokelError, match="no nines"):
        Hand80.parse("9S")


def test_v6_1_wrong_hand_size_is_an_error():
    with pytest.raises(BinokelError, match="must have 20 cards"):
        Hand80.parse("AS KS", size=20)


def test_v6_1_deal_is_20_cards_each_and_the_whole_deck():
    cnt = np.zeros((4, 24), dtype=np.uint8)
    deal_counts(chunk_state(3, 0), team_spec(PINOCHLE_80).deck.copy(), cnt, 20)
    assert list(cnt.sum(axis=1)) == [20] * 4
    assert list(cnt.sum(axis=0)) == list(FULL_DECK80.counts)


def test_v6_1_deal_is_uniform_per_seat(chi2_pvalue):
    # the seat of one fixed physical card (deck position 0, an A♣) is uniform over 4 seats
    st_ = chunk_state(11, 0)
    deck = team_spec(PINOCHLE_80).deck.copy()
    cnt = np.zeros((4, 24), dtype=np.uint8)
    seats = np.zeros(4)
    for _ in range(4000):
        deal_counts(st_, deck, cnt, 20)
        seats += cnt[:, 0]       # copies of A♣ per seat: 4 copies spread over 4 seats
    assert seats.sum() == 16000
    assert chi2_pvalue(seats) > 1e-4


# ---------------------------------------------------------------- V6.3 named examples

def test_v6_3_class_a_trump_flush_is_150_and_two_flushes_300():
    assert total("AH 10H KH QH JH", 2) == 150
    assert total("AH 10H KH QH JH AH 10H KH QH JH", 2) == 300


def test_v6_3_class_a_royal_marriage_outside_the_flush():
    # flush + one more trump K-Q: 150 + 40; a plain K-Q: 20
    assert total("AH 10H KH QH JH KH QH", 2) == 190
    assert total("KH QH", 2) == 40
    assert total("KH QH", 0) == 20


def test_v6_3_class_a_flush_only_in_trump():
    assert total("AH 10H KH QH JH", 0) == 20   # plain: only the marriage


def test_v6_3_class_b_arounds_single_double_triple_quadruple():
    aces = "AC AS AH AD"
    assert total(aces, 0) == 100
    assert total(aces + " " + aces, 0) == 1000
    assert total(" ".join([aces] * 3), 0) == 1100
    assert total(" ".join([aces] * 4), 0) == 2000
    assert total("KC KS KH KD", 0) == 80      # kings around; no queens, no marriage
    assert total("QC QS QH QD", 1) == 60      # queens around; the pinochle needs J♦ too
    assert total("JC JS JH JD", 1) == 40


def test_v6_3_tens_form_no_around():
    assert total("10C 10S 10H 10D", 0) == 0


def test_v6_3_class_c_pinochle_single_double_triple_quadruple():
    assert total("QS JD", 0) == 40
    assert total("QS JD QS JD", 0) == 300
    assert total("QS JD QS JD QS JD", 0) == 340
    assert total("QS JD QS JD QS JD QS JD", 0) == 600


def test_v6_3_one_card_in_several_classes():
    # Q♠ serves in the spade marriage (A), the queens around (B) and the pinochle (C)
    hand = "KS QS QC QH QD JD"
    assert total(hand, 0) == 20 + 60 + 40
    names = {m.name for m in class_melds(hand, 0)}
    assert {"marriage ♠", "queens around", "pinochle Q♠ J♦"} <= names


def test_v6_3_breakdown_adds_up_to_the_kernel(np_rng):
    deck = team_spec(PINOCHLE_80).deck.copy()
    cnt = np.zeros((4, 24), dtype=np.uint8)
    st_ = chunk_state(5, 0)
    for _ in range(50):
        deal_counts(st_, deck, cnt, 20)
        h = Hand80(tuple(int(x) for x in cnt[0]))
        for trump in range(4):
            assert sum(m.points for m in class_melds(h, trump)) == class_meld_total(h, trump)


# ---------------------------------------------------------------- kernel vs reference

counts80 = st.lists(st.integers(0, 4), min_size=20, max_size=20).map(
    lambda xs: [xs[DECK80_TYPES.index(t)] if t in DECK80_TYPES else 0 for t in range(24)])


@given(counts80, st.integers(0, 3))
def test_v6_3_kernel_matches_reference_on_any_counts(counts, trump):
    c = np.array(counts, dtype=np.uint8)
    assert meld_total_counts(c, trump, KP) == ref.melds(counts, trump)


def test_v6_3_kernel_matches_reference_on_random_deals():
    cnt = np.zeros((4, 24), dtype=np.uint8)
    out = np.zeros(4, dtype=np.int64)
    st_ = chunk_state(7, 0)
    deck = team_spec(PINOCHLE_80).deck.copy()
    for _ in range(300):
        deal_counts(st_, deck, cnt, 20)
        for p in range(4):
            meld_all_trumps_counts(cnt[p], KP, out)
            assert list(out) == [ref.melds([int(x) for x in cnt[p]], s) for s in range(4)]
