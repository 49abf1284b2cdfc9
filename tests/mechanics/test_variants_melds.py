"""Melds per variant (V2.3, V2.5, V5.5) and the variant's deck (V1, V5.1): kernels vs the
plain-Python reference of tests/oracle/variants.py on random hands of each variant."""
from __future__ import annotations

import random

import numpy as np
import pytest

from analyzer import BinokelError, Hand, melds, meld_table, parse_cards
from analyzer.mechanics.cards import counts_to_mask
from analyzer.mechanics.melds import discard_dissle, meld_total
from analyzer.mechanics.rules import RULE_NAMES, get_rules
from tests.oracle import variants as ref

VARIANT_NAMES = ("binokel-48", "grupp-3", "grupp-4", "binokel-40")


def test_registry_lists_the_variants_of_variants_md():
    # the three-player games of this file, then the team games (analyzer/mechanics/rules.py)
    assert RULE_NAMES == VARIANT_NAMES + ("kreuz-48", "kreuz-40", "pinochle-80")
    assert get_rules("GRUPP-3").name == "grupp-3"
    assert get_rules(None).name == "binokel-48"


def test_unknown_variant_is_one_line_listing_the_names():
    with pytest.raises(BinokelError) as exc:
        get_rules("skat")
    msg = str(exc.value)
    assert "\n" not in msg and all(n in msg for n in VARIANT_NAMES)


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_kernel_melds_agree_with_the_reference_on_random_hands(name):
    """R5 / V2.5 / V5.5: meld_table and meld_total equal the text's count, every trump."""
    rules = get_rules(name)
    rng = random.Random(hash(name) % 1000)
    hands = [ref.random_hand(name, rng) for _ in range(400)]
    # rich hands too: 24 cards make doubles, eights and grand binokel common
    hands += [ref.random_hand(name, rng, 22) for _ in range(400)]
    masks = np.array([counts_to_mask(h) for h in hands], dtype=np.int64)
    table = meld_table(masks, rules)
    for h, row, m in zip(hands, table, masks):
        want = [ref.melds_total(name, h, s) for s in range(4)]
        assert list(row) == want
        assert [meld_total(np.int64(m), s, rules.kernel) for s in range(4)] == want
        assert [melds(Hand(tuple(h)), "CSHD"[s], rules).total for s in range(4)] == want


def test_v2_5_grand_binokel_80_in_place_of_binokel_and_double_family_1500():
    g = get_rules("grupp-3")
    m = melds("KS QS JD AH AH 10H 10H KH KH QH QH JH JH 7C AC", "C", g)
    names = [x.name for x in m.melds]
    assert "grand binokel" in names and "binokel" not in names
    assert m.binokel == 80
    assert m.families_pairs == 1500 + 20   # plain double family 1500 (V2.5) + pair K♠ Q♠
    # double binokel 300 stands above grand binokel (V2.5 Reading)
    assert melds("KS QS QS JD JD", "C", g).binokel == 300
    # binokel-48 has no grand binokel (R5)
    assert melds("KS QS JD", "C").binokel == 40


def test_v2_3_dissle_melds_from_the_discard_only_in_grupp():
    g = get_rules("grupp-3")
    kept = "AS KS QS"
    assert melds(kept, "S", g, discard="7S 7S AH").nines == 20
    assert melds(kept, "H", g, discard="7S 7S AH").nines == 0   # only the trump 7
    assert melds(kept, "S", get_rules("binokel-48"), discard="9S").nines == 0   # R4
    kr = g.kernel
    disc = np.array([5 + 6, 5 + 6, 0], dtype=np.int64)          # 7♠ 7♠ A♣
    assert discard_dissle(disc, 3, 1, kr) == 20
    assert discard_dissle(disc, 3, 0, kr) == 0
    assert discard_dissle(disc, 3, 1, get_rules("binokel-48").kernel) == 0


def test_v5_5_eights_and_double_families_count_as_two():
    b = get_rules("binokel-40")
    eight_aces = "AC AC AS AS AH AH AD AD"
    assert melds(eight_aces, "C", b).fours == 200
    assert melds("KC KC KS KS KH KH KD KD", "C", b).fours == 160
    assert melds("AH AH 10H 10H KH KH QH QH JH JH", "H", b).families_pairs == 300
    assert melds("AH AH 10H 10H KH KH QH QH JH JH", "C", b).families_pairs == 200
    assert melds(eight_aces, "C").fours == 1000   # R5 in binokel-48


def test_v1_the_low_card_follows_the_deck_and_errors_name_the_variant():
    assert parse_cards("7S", get_rules("grupp-3"))[0] == parse_cards("9S")[0]
    for text, name in (("7S", "binokel-48"), ("9S", "grupp-3"), ("9S", "binokel-40"),
                       ("7S", "binokel-40")):
        with pytest.raises(BinokelError) as exc:
            parse_cards(text, get_rules(name))
        assert name in str(exc.value) and "\n" not in str(exc.value)
    h = Hand.parse("7S 7S AS", rules=get_rules("grupp-4"))
    assert h.codes("7") == "AS 7S 7S"


def test_v5_1_forty_card_deck_has_twenty_types():
    b = get_rules("binokel-40")
    assert b.n_cards == 40 and int(b.kernel.copies.sum()) == 40
    assert get_rules("grupp-3").n_cards == 48
    assert b.hand_size * 3 + b.tapp_size == 40
