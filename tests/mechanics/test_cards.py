"""Card model (analyzer/cards.py, RULES.md R1): notations, errors, encoding, Hand."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, strategies as st

import analyzer as bk
from analyzer.mechanics.cards import (FULL_DECK, N_TYPES, PLANE, Card, CardError, Hand, Rank, Suit,
                            counts_to_mask, mask_to_counts, parse_cards)
from analyzer.errors import BinokelError


def codes(text) -> list[str]:
    return [c.code for c in parse_cards(text)]


# ------------------------------------------------------------ notations (R1)

def test_R1_brief_notations():
    """`AS 10S TS A♠ 10♦ q♠ Q♠` from the issue, all accepted."""
    assert codes("AS 10S TS A♠ 10♦ q♠ Q♠") == ["AS", "10S", "10S", "AS", "10D", "QS", "QS"]


@pytest.mark.parametrize("text", ["as 10s ts", "AS 10S TS", "As 10s Ts", "aS 10S tS"])
def test_R1_any_case(text):
    assert codes(text) == ["AS", "10S", "10S"]


@pytest.mark.parametrize("text", ["AS,KH", "AS, KH", "AS ,KH", " AS   KH ", "AS,,KH",
                                  "AS\tKH", "AS\nKH", "AS;KH"])
def test_R1_spaces_and_commas_separate(text):
    assert codes(text) == ["AS", "KH"]


def test_R1_every_rank_and_suit_letter_and_symbol():
    for r, rank in enumerate(("A", "10", "K", "Q", "J", "9")):
        for s, (letter, symbol) in enumerate(zip("CSHD", "♣♠♥♦")):
            want = Card(s * 6 + r)
            assert parse_cards(rank + letter) == [want]
            assert parse_cards(rank + symbol) == [want]
            assert parse_cards(rank.lower() + letter.lower()) == [want]


def test_R1_german_wuerttemberg_names():
    """Eichel = ♣, Schippen/Laub = ♠, Herz = ♥, Schellen = ♦; Ober = Q, Unter = J."""
    assert codes("Eichel-Ass Schippen-Ober Herz-Zehn Schellen-Unter") == ["AC", "QS", "10H", "JD"]
    assert codes("Herz Ober, Laub Unter") == ["QH", "JS"]
    assert codes("eichel-könig schellen-neun") == ["KC", "9D"]


def test_R1_suit_first_symbol_notation():
    assert codes("♠A ♦10") == ["AS", "10D"]


def test_parse_cards_accepts_cards_and_string_lists():
    assert codes([Card.of("S", "A"), "KH QH"]) == ["AS", "KH", "QH"]
    with pytest.raises(CardError):
        parse_cards([42])


def test_parse_cards_empty_text_is_no_cards():
    assert parse_cards("") == [] and parse_cards(" , ") == []


# ------------------------------------------------------------ errors (R1)

@pytest.mark.parametrize("text", ["XS", "1S", "AX", "11H", "A", "S", "10", "AS KZ", "Herz-Foo",
                                  "🂡", "A♠♠"])
def test_unknown_token_is_one_line_card_error(text):
    with pytest.raises(CardError) as exc:
        parse_cards(text)
    msg = str(exc.value)
    assert "\n" not in msg and "bad card token" in msg
    assert isinstance(exc.value, BinokelError)


def test_R1_a_third_copy_is_rejected():
    with pytest.raises(CardError, match="only two of each card"):
        Hand.parse("AS AS AS")
    with pytest.raises(CardError, match="only two"):
        Hand.parse("AS A♠ as")


def test_hand_size_is_checked():
    with pytest.raises(CardError, match="must have 15 cards, got 2"):
        Hand.parse("AS KS", size=15)
    assert len(Hand.parse("AS KS", size=2)) == 2


def test_hand_counts_validated():
    with pytest.raises(CardError):
        Hand((0,) * 23)
    with pytest.raises(CardError):
        Hand((3,) + (0,) * 23)


def test_suit_parse():
    assert Suit.parse("s") is Suit.SPADES and Suit.parse("♦") is Suit.DIAMONDS
    assert Suit.parse("Eichel") is Suit.CLUBS and Suit.parse(Suit.HEARTS) is Suit.HEARTS
    with pytest.raises(BinokelError, match="unknown suit"):
        Suit.parse("X")


# ------------------------------------------------------------ encoding

def test_encoding_type_is_suit_times_6_plus_rank():
    """cards.py: type = suit * 6 + rank, suits C S H D, ranks A 10 K Q J 9 (R1 order)."""
    assert [s.index for s in Suit] == [0, 1, 2, 3]
    assert [r.index for r in Rank] == [0, 1, 2, 3, 4, 5]
    card = Card.of("H", "J")
    assert card.id == 2 * 6 + 4 and card.suit is Suit.HEARTS and card.rank is Rank.JACK
    assert card.code == "JH" and str(card) == "J♥" and repr(card) == "Card(JH)"
    with pytest.raises(ValueError):
        Card(24)


def test_mask_two_planes():
    h = Hand.parse("AC 10S 10S")
    assert h.mask == (1 << 0) | (1 << 7) | (1 << (7 + PLANE))
    assert Hand.from_mask(h.mask) == h


@given(st.lists(st.integers(0, 2), min_size=N_TYPES, max_size=N_TYPES))
def test_mask_roundtrip(counts):
    mask = counts_to_mask(counts)
    assert mask_to_counts(mask).tolist() == counts
    assert Hand.from_mask(mask).counts == tuple(counts)
    lo, hi = mask & ((1 << PLANE) - 1), mask >> PLANE
    assert hi & ~lo == 0            # "holds two" implies "holds one"


# ------------------------------------------------------------ Hand

def test_hand_is_an_immutable_multiset():
    h = Hand.parse("QS AS QS")
    assert h == Hand.parse("AS QS QS") and hash(h) == hash(Hand.parse("Q♠ Q♠ A♠"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        h.counts = (0,) * 24
    assert len(h) == 3 and h.count(Card.of("S", "Q")) == 2
    assert Card.of("S", "A") in h and Card.of("H", "A") not in h


def test_hand_str_is_readable_and_codes_roundtrip():
    h = Hand.parse("9D AS KH AS 10S QH")
    assert str(h) == "♠ A A 10  ♥ K Q  ♦ 9"
    assert h.codes() == "AS AS 10S KH QH 9D"
    assert Hand.parse(h.codes()) == h
    assert str(Hand((0,) * 24)) == "(empty)"
    assert repr(h) == "Hand('AS AS 10S KH QH 9D')"


def test_hand_str_parses_back():
    """str(hand) groups by suit; the codes (not the grouping) are the parseable form."""
    h = Hand.parse("AS 10S KH 9D 9D")
    assert Hand.parse(h.codes()) == h


def test_hand_add_sub():
    a, b = Hand.parse("AS KH"), Hand.parse("AS QD")
    assert a + b == Hand.parse("AS AS KH QD")
    assert (a + b) - b == a
    with pytest.raises(CardError):
        a + a + a
    with pytest.raises(CardError, match="cannot remove"):
        a - b


def test_R1_full_deck_is_48_cards_240_points(rules):
    assert len(FULL_DECK) == 48 and set(FULL_DECK.counts) == {2}
    assert sum(rules.card_points[c.rank.index] for c in FULL_DECK) == 240


def test_counts_array_and_cards_order():
    h = Hand.parse("9D AS AS")
    assert h.counts_array().dtype == np.uint8 and int(h.counts_array().sum()) == 3
    assert [c.code for c in h.cards()] == ["AS", "AS", "9D"]
    assert [c.code for c in h] == ["AS", "AS", "9D"]


def test_api_exports():
    for name in ("parse_cards", "Card", "Hand", "Suit", "Rank", "melds", "meld_table",
                 "RuleSet", "DEFAULT_RULES", "BinokelError"):
        assert hasattr(bk, name)


# ------------------------------------------------------------ property: random text

@given(st.text(max_size=60))
def test_parse_cards_random_text_only_raises_binokel_error(text):
    try:
        cards = parse_cards(text)
    except BinokelError as exc:
        assert "\n" not in str(exc)
    else:
        assert all(isinstance(c, Card) for c in cards)


CARDISH = st.text(alphabet="AaTtKkQqJj91089 ,;♠♣♥♦SCHDsched-", max_size=40)


@given(CARDISH)
def test_hand_parse_cardish_text_only_raises_binokel_error(text):
    try:
        h = Hand.parse(text)
    except BinokelError as exc:
        assert "\n" not in str(exc)
    else:
        assert len(h) == len(parse_cards(text))
