"""Melds (RULES.md R5): every rule and combination, and the kernels against the reference.

The reference is tests/oracle/melds.py, written from R5's text alone.  The fast kernels
(``meld_all_trumps`` over KernelRules, ``meld_all_trumps_fast`` over MeldTables, both
behind ``meld_table``/``meld_totals``) must agree with it on >= 100,000 random hands,
half of them biased toward rich melds.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import analyzer as bk
from analyzer._jit import njit
from analyzer.bench.registry import numpy_meld_totals, python_meld_totals
from analyzer.mechanics.cards import FULL_DECK, PLANE, Suit
from analyzer.mechanics.melds import (meld_all_trumps, meld_all_trumps_fast, meld_table, meld_tables,
                            meld_total, meld_totals, trump_free_meld)
from analyzer.mechanics.rules import RuleSet
from tests.oracle.melds import counts_from_codes, melds_reference, totals_reference

SUITS = "CSHD"


def api(codes: str, trump: str) -> bk.Melds:
    return bk.melds(bk.Hand.parse(codes), trump)


def kernel_totals(codes: str) -> list[int]:
    return meld_table([bk.Hand.parse(codes).mask])[0].tolist()


def check(codes: str, trump: str, F: int, Q: int = 0, B: int = 0, D: int = 0,
          names: list[str] | None = None) -> None:
    """The API, both kernels and the reference all give these R5 values."""
    m = api(codes, trump)
    assert (m.families_pairs, m.fours, m.binokel, m.nines) == (F, Q, B, D)
    assert m.total == F + Q + B + D
    assert kernel_totals(codes)[SUITS.index(trump)] == m.total
    mask = np.array([bk.Hand.parse(codes).mask], dtype=np.int64)
    assert meld_totals(mask, bk.DEFAULT_RULES.kernel)[0, SUITS.index(trump)] == m.total
    ref = melds_reference(counts_from_codes(codes), trump)
    assert (ref["F"], ref["Q"], ref["B"], ref["D"]) == (F, Q, B, D)
    if names is not None:
        assert [str(x) for x in m.melds] == names


# ----------------------------------------------------------------- type F (R5)

def test_R5_family_trump_150_plain_100():
    hand = "AS 10S KS QS JS"
    check(hand, "S", F=150, B=0, names=["trump family ♠ 150"])
    check(hand, "H", F=100, names=["family ♠ 100"])


def test_R5_family_plus_separate_extra_pair():
    """A second K and Q beside a family form a pair (family 150 + pair 40 in trump)."""
    hand = "AS 10S KS KS QS QS JS"
    check(hand, "S", F=190, names=["trump family ♠ 150", "trump pair ♠ 40"])
    check(hand, "C", F=120, names=["family ♠ 100", "pair ♠ 20"])


def test_R5_family_cards_cannot_also_form_a_pair():
    """The K and Q used in a family cannot form a pair: a lone extra K or Q adds nothing."""
    check("AS 10S KS QS JS KS", "S", F=150)
    check("AS 10S KS QS JS QS", "D", F=100)


def test_R5_double_family_without_pairs():
    """Both copies of A-10-K-Q-J: 1500 trump / 1000 plain, and no pairs on top."""
    hand = "AH AH 10H 10H KH KH QH QH JH JH"
    check(hand, "H", F=1500, names=["trump double family ♥ 1500"])
    check(hand, "S", F=1000, names=["double family ♥ 1000"])


def test_R5_double_family_with_both_nines_adds_trump_nines_only():
    hand = "AH AH 10H 10H KH KH QH QH JH JH 9H 9H"
    check(hand, "H", F=1500, D=20)
    check(hand, "C", F=1000, D=0)


def test_R5_pairs_without_family():
    check("KD QD", "D", F=40, names=["trump pair ♦ 40"])
    check("KD QD", "S", F=20, names=["pair ♦ 20"])
    check("KD KD QD QD", "D", F=80, names=["trump pair ♦ 40", "trump pair ♦ 40"])
    check("KD KD QD", "C", F=20)           # a second pair needs a second K and Q
    check("KD KD", "D", F=0)


def test_R5_family_missing_one_rank_is_only_a_pair():
    check("AC 10C KC QC", "C", F=40)        # no jack: no family, the K-Q pair remains
    check("AC 10C KC QC 9C 9C", "H", F=20)   # nines are no part of a family


def test_R5_two_copies_of_all_but_one_rank_is_one_family_and_a_pair():
    """f = min(counts) = 1: one family; pairs from the remaining K and Q only."""
    check("AC AC 10C 10C KC KC QC QC JC", "C", F=190)   # second J missing
    check("AC AC 10C 10C KC KC QC JC JC", "C", F=150)   # second Q missing: no pair


def test_R5_several_families_in_different_suits():
    hand = "AS 10S KS QS JS AH 10H KH QH JH AD 10D KD QD JD"
    check(hand, "S", F=150 + 100 + 100, B=40)
    check(hand, "C", F=300, B=40)
    m = api(hand, "H")
    assert sorted(x.name for x in m.melds if x.kind == "F") == [
        "family ♠", "family ♦", "trump family ♥"]


def test_R5_trump_changes_only_the_trump_suits_values():
    hand = "AC 10C KC QC JC KH QH KD QD"
    totals = {s: api(hand, s).families_pairs for s in SUITS}
    assert totals == {"C": 150 + 20 + 20, "S": 100 + 20 + 20, "H": 100 + 40 + 20,
                      "D": 100 + 20 + 40}


# ----------------------------------------------------------------- type Q (R5)

def test_R5_four_of_a_kind_values():
    check("AC AS AH AD", "S", F=0, Q=100, names=["four aces 100"])
    m = api("KC KS KH KD", "C")
    assert (m.fours, m.families_pairs) == (80, 0)
    assert api("QC QS QH QD", "H").fours == 60
    assert api("JC JS JH JD", "D").fours == 40


def test_R5_seven_aces_are_a_four_eight_aces_are_1000_instead():
    seven = "AC AC AS AS AH AH AD"
    check(seven, "S", F=0, Q=100, names=["four aces 100"])
    eight = seven + " AD"
    check(eight, "S", F=0, Q=1000, names=["eight aces 1000"])


@pytest.mark.parametrize("rank,word", [("K", "kings"), ("Q", "queens"), ("J", "jacks")])
def test_R5_eight_of_a_kind_instead_of_four(rank, word):
    eight = " ".join(f"{rank}{s} {rank}{s}" for s in SUITS)
    m = api(eight, "C")
    assert m.fours == 1000
    assert [x.name for x in m.melds if x.kind == "Q"] == [f"eight {word}"]


def test_R5_tens_and_nines_give_no_four():
    check("10C 10S 10H 10D", "S", F=0, Q=0)
    check("10C 10C 10S 10S 10H 10H 10D 10D", "S", F=0, Q=0)
    check("9C 9S 9H 9D", "H", F=0, Q=0, D=10)   # only the trump nine counts (type D)
    check("9C 9C 9S 9S 9H 9H 9D 9D", "D", F=0, Q=0, D=20)


def test_R5_four_needs_one_of_each_suit():
    check("AC AC AS AS AH AH", "S", F=0, Q=0)


# ----------------------------------------------------------------- type B (R5)

def test_R5_binokel_queen_of_spades_and_jack_of_diamonds():
    check("QS JD", "C", F=0, B=40, names=["binokel 40"])


def test_R5_three_binokel_cards_are_one_binokel_four_are_300():
    check("QS QS JD", "C", F=0, B=40)
    check("QS JD JD", "C", F=0, B=40)
    check("QS QS JD JD", "C", F=0, B=300, names=["double binokel 300"])


def test_R5_binokel_does_not_depend_on_trump():
    for hand in ("QS JD", "QS QS JD JD", "QS QS JD"):
        assert len({api(hand, s).binokel for s in SUITS}) == 1


def test_R5_wrong_queen_or_jack_is_no_binokel():
    check("QD JS", "C", F=0, B=0)
    check("QS QS", "C", F=0, B=0)


# ----------------------------------------------------------------- type D (R5)

def test_R5_trump_nines_ten_each():
    check("9S", "S", F=0, D=10, names=["trump nine ♠ 10"])
    check("9S 9S", "S", F=0, D=20)
    check("9S 9S", "H", F=0, D=0)           # a plain nine is nothing


# ----------------------------------------------------------------- combinations (R5)

def test_R5_procession_is_240_by_its_parts():
    """A K-Q pair in every suit, no family: 4 kings 80 + 4 queens 60 + trump pair 40
    + three plain pairs 60 = 240, for every trump."""
    hand = "KC QC KS QS KH QH KD QD"
    for s in SUITS:
        m = api(hand, s)
        assert (m.families_pairs, m.fours, m.binokel, m.nines) == (100, 140, 0, 0)
        assert m.total == 240
    assert kernel_totals(hand) == [240] * 4


def test_R5_procession_with_binokel_jack_adds_binokel():
    assert api("KC QC KS QS KH QH KD QD JD", "S").total == 240 + 40


def test_R5_one_card_serves_in_several_types():
    """Q♠ counts in the trump family, four queens and binokel at once."""
    hand = "AS 10S KS QS JS QC QH QD JD"
    m = api(hand, "S")
    assert (m.families_pairs, m.fours, m.binokel) == (150, 60, 40)
    assert m.total == 250


def test_R5_never_twice_within_one_type():
    """One K-Q cannot make two pairs; one set of four aces cannot make two fours."""
    check("KH QH", "H", F=40)
    check("AC AS AH AD AD", "C", F=0, Q=100)


def test_R5_richest_patterns_add_up():
    """Double family in trump + eight jacks' worth is impossible in 15 cards, but
    the kernels take any multiset: everything at once for a sanity sum."""
    counts = [2] * 24   # the whole deck
    ref = melds_reference(counts, "S")
    assert ref["F"] == 1500 + 3 * 1000
    assert ref["Q"] == 4 * 1000
    assert ref["B"] == 300 and ref["D"] == 20
    assert meld_table([FULL_DECK.mask])[0, 1] == ref["total"]
    assert bk.melds(FULL_DECK, "S").total == ref["total"]


def test_R5_empty_hand_has_no_melds():
    m = bk.melds(bk.Hand((0,) * 24), "C")
    assert m.total == 0 and m.melds == ()
    assert meld_table([0]).tolist() == [[0, 0, 0, 0]]


def test_melds_accepts_suit_enum_symbol_and_lower_case():
    hand = "AS 10S KS QS JS 9S"
    totals = {api(hand, t).total for t in ("S", "s", "♠", Suit.SPADES, "spades")}
    assert totals == {160}


def test_melds_rejects_unknown_trump():
    with pytest.raises(bk.BinokelError):
        bk.melds(bk.Hand.parse("AS"), "X")


def test_melds_to_dict_and_str():
    m = api("AS 10S KS QS JS QH JD", "S")
    d = m.to_dict()
    assert d["total"] == m.total == 190 and d["trump"] == "S"
    assert {x["type"] for x in d["melds"]} == {"F", "B"}
    assert str(m) == "trump ♠: trump family ♠ 150, binokel 40 = 190"


def test_R5_builtin_example_strong_spades(rules):
    """README's example: 270 0 40 10 320 with spades trump."""
    from analyzer.examples import example
    m = bk.melds(bk.Hand.parse(example("strong_spades")["hand"], size=15), "S")
    assert (m.families_pairs, m.fours, m.binokel, m.nines, m.total) == (270, 0, 40, 10, 320)


# ----------------------------------------------------- kernels vs reference (R5)

def _counts_from_types(types: np.ndarray) -> np.ndarray:
    """(n, k) card types -> (n, 24) counts."""
    return np.eye(24, dtype=np.int64)[types].sum(axis=1)


def random_hands(n: int, seed: int = 7) -> np.ndarray:
    """(n, 24) counts: half uniform 15-card hands, half biased toward rich melds.

    The biased half: a quarter are 15-card hands drawn without replacement with card
    weights favouring one or two suits, the ranks A K Q J and the binokel cards
    (Gumbel top-k); a quarter are arbitrary multisets (any size) where both copies of
    a card are likely, so double families, eights and double binokel are common.
    """
    rng = np.random.default_rng(seed)
    n_uniform = n // 2
    n_weighted = n // 4
    n_multi = n - n_uniform - n_weighted
    decks = rng.permuted(np.broadcast_to(np.arange(48), (n_uniform, 48)), axis=1)
    uniform = _counts_from_types(decks[:, :15] // 2)

    cards = np.arange(48)
    types = cards // 2
    suit_w = np.where(rng.random((n_weighted, 4)) < 0.35, 12.0, 1.0)
    rank_w = np.array([4.0, 1.5, 5.0, 5.0, 3.0, 1.5])
    w = suit_w[:, types // 6] * rank_w[types % 6]
    binokel = np.isin(types, [1 * 6 + 3, 3 * 6 + 4])
    w = w * np.where(binokel, 6.0, 1.0)
    keys = np.log(w) - np.log(-np.log(rng.random((n_weighted, 48))))
    top = np.argpartition(-keys, 15, axis=1)[:, :15]
    weighted = _counts_from_types(top // 2)

    p2 = rng.uniform(0.3, 0.95, (n_multi, 1))
    u = rng.random((n_multi, 24))
    multi = np.where(u < p2, 2, np.where(u < p2 + (1 - p2) / 2, 1, 0))
    return np.concatenate([uniform, weighted, multi]).astype(np.int64)


def masks_of(counts: np.ndarray) -> np.ndarray:
    """(n, 24) counts -> packed two-plane masks (vectorised, the cards.py encoding)."""
    bits = np.int64(1) << np.arange(24, dtype=np.int64)
    lo = ((counts >= 1) * bits).sum(axis=1)
    hi = ((counts >= 2) * bits).sum(axis=1)
    return (lo | (hi << PLANE)).astype(np.int64)


@pytest.fixture(scope="module")
def sample():
    counts = random_hands(100_000)
    ref = np.array([totals_reference(c) for c in counts.tolist()], dtype=np.int64)
    return counts, masks_of(counts), ref


def test_R5_sample_is_rich(sample):
    """The biased half really exercises every R5 pattern (guards the generator)."""
    counts, _, _ = sample
    c = counts.reshape(-1, 4, 6)
    fam = c[:, :, :5].min(axis=2)
    assert (fam == 2).any(axis=1).sum() > 1000                 # double families
    assert ((fam == 1) & (c[:, :, 2:4].min(axis=2) == 2)).any(axis=1).sum() > 1000  # + pair
    for r in (0, 2, 3, 4):
        assert (c[:, :, r].min(axis=1) == 2).sum() > 500       # eights of A K Q J
        assert (c[:, :, r].min(axis=1) == 1).sum() > 500       # fours
    assert ((c[:, 1, 3] == 2) & (c[:, 3, 4] == 2)).sum() > 1000  # double binokel
    assert ((c[:, 1, 3] >= 1) & (c[:, 3, 4] >= 1) & ((c[:, 1, 3] < 2) | (c[:, 3, 4] < 2))).sum() > 1000
    assert (c[:, :, 5] == 2).any(axis=1).sum() > 1000          # two nines of a suit


def test_R5_kernels_agree_with_reference_on_100k_hands(sample, kr):
    counts, masks, ref = sample
    assert len(masks) >= 100_000
    assert np.array_equal(meld_table(masks), ref)               # MeldTables kernel
    assert np.array_equal(meld_totals(masks, kr), ref)          # KernelRules kernel


@njit
def _per_trump_totals(masks, kr):
    out = np.empty((masks.shape[0], 4), dtype=np.int64)
    for i in range(masks.shape[0]):
        for s in range(4):
            out[i, s] = meld_total(masks[i], s, kr)
    return out


@njit
def _fast_rows(masks, mt):
    out = np.empty((masks.shape[0], 4), dtype=np.int64)
    row = np.empty(4, dtype=np.int64)
    for i in range(masks.shape[0]):
        meld_all_trumps_fast(masks[i], mt, row)
        out[i] = row
    return out


def test_R5_single_trump_kernel_agrees_with_reference(sample, kr):
    _, masks, ref = sample
    assert np.array_equal(_per_trump_totals(masks, kr), ref)
    assert np.array_equal(_fast_rows(masks, meld_tables()), ref)


def test_R5_trump_free_part_is_types_Q_and_B(sample, kr):
    counts, masks, _ = sample
    from tests.oracle.melds import trump_free_melds
    got = [trump_free_meld(int(m), kr) for m in masks[:3000]]
    want = [sum(v for _, _, v in trump_free_melds(c)) for c in counts[:3000].tolist()]
    assert got == want


def test_R5_api_melds_agrees_with_reference(sample):
    """The named breakdown of ``melds()`` equals the reference's, meld by meld."""
    counts, _, ref = sample
    idx = np.r_[0:1500, 50_000:51_000, 75_000:76_000]
    for i in idx:
        hand = bk.Hand(tuple(int(x) for x in counts[i]))
        for s in SUITS:
            m = bk.melds(hand, s)
            r = melds_reference(counts[i].tolist(), s)
            assert (m.families_pairs, m.fours, m.binokel, m.nines, m.total) == (
                r["F"], r["Q"], r["B"], r["D"], r["total"])
            assert Counter((x.kind, x.name, x.value) for x in m.melds) == Counter(r["named"])
        assert [bk.melds(hand, s).total for s in SUITS] == ref[i].tolist()


def test_R5_bench_baselines_compute_the_same_melds(sample):
    """The W1 baselines (NumPy, plain Python) count R5 exactly like the kernels."""
    counts, _, ref = sample
    assert np.array_equal(numpy_meld_totals(counts), ref)
    sub = counts[::50]
    assert [python_meld_totals(c) for c in sub.tolist()] == ref[::50].tolist()


def test_R5_kernels_follow_a_changed_ruleset(sample):
    """No meld value is buried in kernel code: a variant RuleSet changes every path."""
    counts, masks, _ = sample
    variant = RuleSet(name="test-variant", family=(110, 170), double_family=(900, 1400),
                      pair=(25, 45), fours=(90, 0, 70, 50, 30, 0),
                      eights=(800, 0, 700, 600, 500, 0), binokel=(35, 250), trump_nine=15)
    want = numpy_meld_totals(counts, variant)
    assert not np.array_equal(want, numpy_meld_totals(counts))
    assert np.array_equal(meld_table(masks, variant), want)
    assert np.array_equal(meld_totals(masks, variant.kernel), want)
    sub = counts[::100]
    assert [python_meld_totals(c, variant) for c in sub.tolist()] == want[::100].tolist()
    hand = bk.Hand(tuple(int(x) for x in counts[60_000]))
    assert [bk.melds(hand, s, variant).total for s in SUITS] == want[60_000].tolist()


def test_meld_table_accepts_lists_and_hand_masks():
    hands = [bk.Hand.parse("KC QC KS QS KH QH KD QD"), bk.Hand.parse("QS JD")]
    assert meld_table([h.mask for h in hands]).tolist() == [[240] * 4, [40] * 4]
    assert meld_table(np.zeros(0, dtype=np.int64)).shape == (0, 4)
