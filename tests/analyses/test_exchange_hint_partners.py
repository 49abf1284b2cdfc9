"""``binokel hint --exchange`` and ``review``'s exchange at the partners' tables with a Dabb
(kreuz-48 V4, kreuz-40 V5; analyzer.analyses.exchange_hint.side_option_scores, issue 27):
the soloist's discard, trump, going out and Durch valued for its side from its own view."""
from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from analyzer.analyses.exchange_hint import (DURCH, OPEN_DURCH, OUT, PLAY, exchange_hint,
                                             exchange_view_from_record, option_scores,
                                             rule_option, side_option_outcomes)
from analyzer.analyses.review import review, review_exchange
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_TYPES, SUIT_LETTERS
from analyzer.mechanics.exchange import soloist_choice
from analyzer.mechanics.game import R_COUNTING, R_MELD, R_POINTS, RES_COLS
from analyzer.mechanics.play import POLICY_HEURISTIC, beat_table
from analyzer.mechanics.record import check_deal
from analyzer.mechanics.rng import chunk_state, next_u64
from analyzer.mechanics.rules import get_rules, team_spec
from analyzer.mechanics.ruleset import get_game
from analyzer.mechanics.sampling import deal_counts_fixed
from analyzer.search.partner_deals import _play_trump_contract
from analyzer.search.record_play import play_record

WORLDS = 40
GAMES = ["kreuz-48", "kreuz-40"]


def _cards(game, seed=1):
    """A random hand with the Dabb taken (V4.1-V4.2: 11 + 4; V5.1: 9 + 4)."""
    spec = team_spec(get_rules(game))
    deck = spec.deck.copy()
    np.random.default_rng(seed).shuffle(deck)
    return tuple(int(c) for c in np.bincount(deck[:spec.hand_size + spec.dabb_size],
                                             minlength=N_TYPES))


def _counts(types):
    c = [0] * N_TYPES
    for t in types:
        c[t] += 1
    return tuple(c)


@pytest.mark.parametrize("game", GAMES)
def test_the_options_are_the_tables_V4_2_V4_3_V4_6_V5_3_V5_4_V5_7(game):
    g = get_game(game)
    cards = _cards(game)
    h = exchange_hint(g, cards, 200, 1, 3, WORLDS, 5)
    kinds = [o.kind for o in h.options]
    assert h.partners and kinds.count(OUT) == 1                    # V4.3, V5.4: going out
    has_durch = g.kernel.durch_value > 0                           # V4.6 Durch; V5.7 none
    assert kinds.count(DURCH) == kinds.count(OPEN_DURCH) == (1 if has_durch else 0)
    for o in h.options:
        if o.kind != OUT:
            assert len(o.discard) == 4                             # V4.2, V5.3: the Dabb's size
            assert np.all(np.bincount(o.discard, minlength=N_TYPES) <= np.array(cards))
        assert (0 <= o.trump <= 3) == (o.kind == PLAY)             # a Durch has no trump (R4)
        assert o.n == WORLDS and o.se >= 0 and o.diff_se >= 0
    means = [o.mean for o in h.options]
    assert means == sorted(means, reverse=True) and h.options[0].diff == 0.0
    out = next(o for o in h.options if o.kind == OUT)
    assert out.mean == -200 and out.se == 0.0                      # V4.3 / V5.4: the side -bid
    for o in h.options:
        if o.kind in (DURCH, OPEN_DURCH):                          # V2.7: +v made, -2v failed
            v = g.kernel.durch_value if o.kind == DURCH else g.kernel.open_durch_value
            assert -2 * v <= o.mean <= v


@pytest.mark.parametrize("game", GAMES)
def test_the_greedy_soloists_choice_is_among_the_options_and_marked(game):
    g = get_game(game)
    spec = team_spec(get_rules(game))
    cards = _cards(game, seed=4)
    hands5 = np.zeros((5, N_TYPES), dtype=np.uint8)
    hands5[2] = cards
    kept, disc, ddisc = (np.zeros(N_TYPES, dtype=np.uint8) for _ in range(3))
    trump, _est, _losers = soloist_choice(hands5, 2, spec.tk, spec.kr, kept, disc, ddisc)
    greedy = tuple(t for t in range(N_TYPES) for _ in range(int(disc[t])))
    rows, _ = option_scores(g, cards, 150, 2, 2, WORLDS, 3)
    assert (PLAY, greedy, int(trump)) in [r[:3] for r in rows]
    for bid in (150, 400):
        h = exchange_hint(g, cards, bid, 2, 2, WORLDS, 3)
        marked = [o for o in h.options if o.rule]
        assert len(marked) == 1
        assert (marked[0].kind, marked[0].discard, marked[0].trump) == rule_option(g, cards, bid)
        assert h.to_dict()["rule_choice"] == marked[0].label(g.deck.low_card)


def _side_score_by_the_rules(res, team, bid, round_to):
    """V4.6 / V5.7 from the text: the side's card points rounded to the nearest 10, 5 up
    (V1), plus both partners' melds with a team trick; +total when a trick was won and the
    total reaches the bid, else -2 x bid."""
    pts = int(res[R_POINTS + team])
    if round_to:
        pts = (pts + round_to // 2) // round_to * round_to
    tricks = int(res[R_COUNTING + team])      # _play_trump_contract leaves the tricks here
    total = pts + (int(res[R_MELD + team]) if tricks > 0 else 0)
    return total if tricks > 0 and total >= bid else -2 * bid


@pytest.mark.parametrize("game", GAMES)
def test_each_trump_option_scores_the_rules_side_score_on_the_same_worlds_V4_6_V5_7(game):
    """The kernel against a plain loop: the same worlds (deal_counts_fixed on the same
    stream), the same play stream per world for every option, V4.6's score from the text."""
    spec = team_spec(get_rules(game))
    tk, kr = spec.tk, spec.kr
    cards = np.array(_cards(game, seed=2), dtype=np.uint8)
    sol, bid, m = 3, 160, 12
    rows, _ = option_scores(get_game(game), tuple(cards), bid, sol, 1, m, 8)
    plays = [r for r in rows if r[0] == PLAY][:3]
    deck = np.repeat(np.arange(N_TYPES, dtype=np.uint8),
                     np.asarray(kr.copies, dtype=np.int64) - cards.astype(np.int64))
    state = chunk_state(8, 0)
    hands5 = np.zeros((5, N_TYPES), dtype=np.uint8)
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(tk, beat)
    res = np.zeros(RES_COLS, dtype=np.int64)
    pol = np.full(4, POLICY_HEURISTIC, dtype=np.int64)
    want = np.zeros((len(plays), m))
    for i in range(m):
        deal_counts_fixed(state, deck, hands5, sol, cards, spec.hand_size)
        assert hands5[4].sum() == 0 and all(hands5[p].sum() == spec.hand_size
                                            for p in range(4) if p != sol)
        assert np.all(hands5[:4].sum(axis=0) == np.asarray(kr.copies))  # one deck (V4.1, V5.1)
        ps = np.array([next_u64(state) for _ in range(4)], dtype=np.uint64)
        for j, (_, d, t, _s) in enumerate(plays):
            disc = np.array(_counts(d), dtype=np.uint8)
            _play_trump_contract(hands5, sol, bid, t, cards - disc, disc, pol, ps.copy(), tk, kr,
                                 beat, cnt, res)
            want[j, i] = _side_score_by_the_rules(res, sol % 2, bid, tk.round_to)
    for j, r in enumerate(plays):
        assert np.array_equal(r[3], want[j])


def test_the_hint_ignores_the_partners_and_opponents_hands_in_the_record_V1():
    """Honesty: the soloist knows its hand, the Dabb and the bid; the three other hands
    (its partner's included: nothing passes between partners before the play) may be
    anything consistent with that, and the hint stays the same."""
    deal = play_record("kreuz-48", seed=3, soloist=1, trump=2)
    others = [s for s in range(4) if s != deal.soloist]
    pool = [t for s in others for t in range(N_TYPES) for _ in range(deal.hands[s][t])]
    base = exchange_view_from_record(deal)
    assert base[2] == 1 and base[1] == deal.bid and sum(base[0]) == 15
    h0 = exchange_hint(deal.rules, *base, k=2, worlds=16, seed=0)
    for k in range(2):
        random.Random(k).shuffle(pool)
        hands = list(deal.hands)
        for n, s in enumerate(others):
            hands[s] = _counts(pool[11 * n:11 * (n + 1)])
        other = replace(deal, hands=tuple(hands), tricks=(), points=None, won=None, score=None)
        check_deal(other)
        assert other.hands != deal.hands
        view = exchange_view_from_record(other)
        assert view == base
        assert exchange_hint(other.rules, *view, k=2, worlds=16, seed=0) == h0


def test_same_seed_same_numbers():
    g = get_game("kreuz-40")
    assert exchange_hint(g, _cards("kreuz-40"), 170, 0, 2, 16, 4) == \
        exchange_hint(g, _cards("kreuz-40"), 170, 0, 2, 16, 4)


def _before_play(deal, contract, discard):
    d = replace(deal, contract=contract, discard=tuple(discard), tricks=(), points=None,
                won=None, score=None, melds=None)
    check_deal(d)
    return d


@pytest.fixture(scope="module", params=GAMES)
def best_record(request):
    """A deal whose record shows the best trump option of the exchange (chosen on other
    worlds than the review's)."""
    deal = play_record(request.param, seed=11, soloist=1, trump=0)
    cards, bid, seat = exchange_view_from_record(deal)
    rows, _ = option_scores(deal.rules, cards, bid, seat, worlds=300, seed=77)
    kind, disc, trump, _ = max((r for r in rows if r[0] == PLAY), key=lambda r: r[3].mean())
    return _before_play(deal, SUIT_LETTERS[trump], _counts(disc)), cards, disc, trump


def test_review_the_best_exchange_costs_about_nothing_V4_2(best_record):
    deal = best_record[0]
    x = review_exchange(deal.rules, deal, 100, seed=5)
    assert x.n == 100 and x.options >= 5 and "side's" in x.unit
    assert x.loss < 3 * x.loss_se + 1.0


def test_review_a_planted_trump_of_the_shortest_suit_shows_a_positive_loss_V4_2(best_record):
    deal, cards, disc, trump = best_record
    left = np.array(cards) - np.array(_counts(disc))
    per_suit = [int(left[s * 6:(s + 1) * 6].sum()) for s in range(4)]
    short = min(range(4), key=lambda s: (per_suit[s], s))
    assert short != trump
    bad = _before_play(deal, SUIT_LETTERS[short], _counts(disc))
    rv = review(bad.rules, bad, n_worlds=2, exchange_worlds=100, seed=5)
    x = rv.exchange
    assert x.played.startswith(f"{SUIT_LETTERS[short]} discard")
    assert x.loss > 3 * x.loss_se and x.loss > 0
    assert rv.per_seat()[bad.soloist]["exchange_loss"] == round(x.loss, 3)
    assert rv.to_dict()["exchange"]["unit"] == "side's deal score (V4.6, V5.7)"


def test_review_a_planted_going_out_costs_the_side_the_bid_and_more_V4_3_V5_4(best_record):
    deal, cards, disc, trump = best_record
    out = _before_play(deal, "out", _counts(disc))
    x = review_exchange(out.rules, out, 100, seed=5)
    assert x.played == "go out" and x.loss > 3 * x.loss_se and x.loss > deal.bid


def test_review_a_planted_durch_of_a_weak_hand_loses_V4_6(best_record):
    deal, cards, disc, trump = best_record
    bad = _before_play(deal, "durch", _counts(disc))
    if deal.rules.kernel.durch_value == 0:                   # V5.7: kreuz-40 has no Durch
        with pytest.raises(BinokelError, match="no durch"):
            review_exchange(bad.rules, bad, 20, seed=5)
        return
    x = review_exchange(bad.rules, bad, 100, seed=5)
    assert x.played.startswith("durch") and x.loss > 3 * x.loss_se and x.loss > 500


def _short():
    """A kreuz-48 hand with the Dabb taken, one card missing."""
    c = list(_cards("kreuz-48"))
    c[next(t for t in range(N_TYPES) if c[t])] -= 1
    return tuple(c)


@pytest.mark.parametrize("args,frag", [
    (dict(cards=_short()), "holds 15 cards"),                  # V4.1-V4.2: 11 + 4
    (dict(soloist=4), "seat 4"),
    (dict(bid=155), "steps of 10"),
    (dict(k=0), "--top 0"),
    (dict(worlds=0), "-n 0"),
])
def test_bad_input_is_one_line(args, frag):
    kw = dict(rules=get_game("kreuz-48"), cards=_cards("kreuz-48"), bid=200, soloist=0, k=2,
              worlds=4, seed=0)
    kw.update(args)
    with pytest.raises(BinokelError, match=frag) as e:
        exchange_hint(**kw)
    assert "\n" not in str(e.value)


def test_the_kernel_reads_only_the_soloists_cards():
    """The kernel's only hand input is ``full``: the partner's and opponents' cards come
    from the worlds it deals (V1: nothing passes between partners before the play)."""
    import inspect

    params = list(inspect.signature(side_option_outcomes.py_func).parameters)
    assert params[:2] == ["full", "sol"] and "hands" not in " ".join(params)
