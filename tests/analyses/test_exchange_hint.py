"""``binokel hint --exchange``'s library (analyzer.analyses.exchange_hint, issue 27): the
soloist's options before play (R4, V2.7, V5.3), valued on common worlds."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from analyzer.analyses.exchange_hint import (DURCH, OPEN_DURCH, OUT, PLAY, exchange_hint,
                                             exchange_view_from_record, going_out_score)
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import Hand
from analyzer.mechanics.exchange import candidate_outcomes
from analyzer.search.record_play import play_record
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import get_rules
from analyzer.mechanics.ruleset import get_game

HAND48 = "AH AH 10H KH QH JH AS 10S KS AC 10C AD QD 9D 9C JS JH 9H"
WORLDS = 24


def _hint(game, bid=300, k=3, seed=5):
    g = get_game(game)
    rng = np.random.default_rng(7)
    flat = get_rules(g.name)
    deck = [t for t in range(24) for _ in range(int(flat.kernel.copies[t]))]
    n = flat.kernel.hand_size + flat.kernel.tapp_size
    cards = np.bincount(rng.choice(deck, n, replace=False), minlength=24)
    return g, tuple(int(c) for c in cards), exchange_hint(g, cards, bid, 0, k, WORLDS, seed)


@pytest.mark.parametrize("game", ["binokel-48", "grupp-3", "binokel-40"])
def test_the_option_set_is_complete_and_legal_R4_V2_7_V5_3(game):
    g, cards, h = _hint(game)
    kr = g.kernel
    plays = [o for o in h.options if o.kind == PLAY]
    assert len(plays) == 3 and len({o.discard for o in plays}) == 3      # k distinct discards
    for o in plays:
        assert len(o.discard) == kr.dabb_size and 0 <= o.trump <= 3       # R4 / V5.3
        used = np.bincount(o.discard, minlength=24)
        assert np.all(used <= np.array(cards))                           # laid away from the 18
    kinds = [o.kind for o in h.options]
    assert kinds.count(OUT) == (1 if kr.going_out_bonus else 0)          # R4, V2.4, V5.4
    assert kinds.count(DURCH) == (1 if kr.durch_value else 0)            # R4; none in V5.7
    assert kinds.count(OPEN_DURCH) == (1 if kr.open_durch_value else 0)  # V2.7
    assert all(o.n == WORLDS and o.se >= 0 and o.diff_se >= 0 for o in h.options)
    means = [o.mean for o in h.options]
    assert means == sorted(means, reverse=True) and h.options[0].diff == 0.0
    assert all(o.diff == pytest.approx(o.mean - means[0]) for o in h.options)


@pytest.mark.parametrize("game,score", [("binokel-48", -300), ("grupp-3", -300)])
def test_going_out_is_priced_by_the_rulesets_scoring_R4(game, score):
    _, _, h = _hint(game)
    out = [o for o in h.options if o.kind == OUT][0]
    assert out.mean == score == going_out_score(get_game(game), 300) and out.se == 0.0


def test_the_best_option_agrees_with_a_plain_loop_over_the_same_worlds_R8():
    g, cards, h = _hint("binokel-48", bid=200)
    best = next(o for o in h.options if o.kind == PLAY)
    kr = get_rules(g.name).kernel
    total = np.empty((1, WORLDS), dtype=np.int64)
    tricks = np.empty((1, WORLDS), dtype=np.int64)
    # the same seed, one candidate: the same deals and play streams (common random numbers)
    candidate_outcomes(np.array(cards, dtype=np.uint8), 0, np.array([best.discard]),
                       np.array([best.trump]), 1, WORLDS, chunk_state(5, 0), kr, total, tricks)
    scores = []
    for i in range(WORLDS):         # R8 from the rules text
        made = tricks[0, i] > 0 and total[0, i] >= 200
        scores.append(total[0, i] if made else -2 * 200)
    assert best.mean == pytest.approx(sum(scores) / WORLDS)
    assert best.se == pytest.approx(np.std(scores, ddof=1) / np.sqrt(WORLDS))


def test_same_seed_same_numbers():
    assert _hint("binokel-48")[2] == _hint("binokel-48")[2]


def test_the_hint_ignores_the_defenders_actual_hands_in_the_record():
    deal = play_record("binokel-48", seed=3, soloist=1, trump=2)
    defenders = [s for s in range(3) if s != deal.soloist]
    pool = [t for s in defenders for t in range(24) for _ in range(deal.hands[s][t])]
    rng = np.random.default_rng(1)
    rng.shuffle(pool)
    hands = list(deal.hands)
    half = len(pool) // 2
    for s, part in zip(defenders, (pool[:half], pool[half:])):
        hands[s] = tuple(int(c) for c in np.bincount(part, minlength=24))
    assert hands != list(deal.hands)
    other = dataclasses.replace(deal, hands=tuple(hands), tricks=())
    a, b = exchange_view_from_record(deal), exchange_view_from_record(other)
    assert a == b and a[1] == deal.bid and a[2] == 1
    g = deal.rules
    assert exchange_hint(g, a[0], a[1], a[2], 2, 8, 0) == exchange_hint(g, b[0], b[1], b[2], 2, 8, 0)


def test_a_record_with_a_sitting_out_dealer_gives_the_seat_in_play_V3():
    deal = play_record("grupp-4", seed=2, soloist=2, trump=0)
    cards, bid, seat = exchange_view_from_record(deal)
    assert seat == 2 and sum(cards) == 18 and bid == deal.bid


@pytest.mark.parametrize("game,cards,bid,frag", [
    ("binokel-48", HAND48.rsplit(" ", 1)[0], 300, "holds 18 cards"),
    ("binokel-48", HAND48, 140, "150 or more"),
    ("binokel-48", HAND48, 305, "steps of 10"),
    ("pinochle-80", HAND48, 300, "has no Dabb"),
    ("kreuz-48", HAND48, 300, "holds 15 cards"),      # V4.1-V4.2: 11 + 4
])
def test_bad_input_is_one_line(game, cards, bid, frag):
    counts = Hand.parse(cards).counts
    with pytest.raises(BinokelError, match=frag.replace("(", r"\(").replace(")", r"\)")):
        exchange_hint(get_game(game), counts, bid, 0, 3, 4, 0)


def test_a_record_seen_by_a_defender_does_not_reach_the_exchange_R4():
    from analyzer.mechanics.record import hide

    deal = play_record("binokel-48", seed=3, soloist=1, trump=2)
    with pytest.raises(BinokelError, match="hides the soloist's hand"):
        exchange_view_from_record(hide(deal, 0))
