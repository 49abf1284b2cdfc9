"""``hint`` at the partners' tables (V1: kreuz-48, kreuz-40, pinochle-80) with every world
solved exactly once at most ``horizon`` tricks are left (issue 27).

- each sampled world's values are the table solver's (analyzer.search.solve_any.card_values,
  R6, R7; a Durch ends at the soloist's first lost trick, R4, V4.6), for the seat's side;
- the best card is pimc_choose_partners's choice on the same worlds with the same horizon;
  its default (no horizon) is unchanged;
- the hint does not change when the hidden hands are dealt otherwise (honesty);
- the deal score of the seat's side (V4.6, V5.7, V6.6) and a Durch's (V4.6 "as V2.7").
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from analyzer.analyses.hint import _trick_state, hint, legal_cards, view_from_record
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.play import beat_table
from analyzer.mechanics.record import hide
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import get_rules, team_kernel
from analyzer.mechanics.trick import duty_modes
from analyzer.mechanics.worlds import draw_world
from analyzer.search.pimc import pimc_choose_partners, world_setup_partners
from analyzer.search.record_play import play_record
from analyzer.search.solve_any import card_values, world_workspace
from tests.analyses.test_hint_games import _other_deal

PARTNERS = ["kreuz-48", "kreuz-40", "pinochle-80"]


def _hidden_view(deal, t, c):
    """The position before card ``c`` of trick ``t`` as the seat to play saw it."""
    seat = view_from_record(deal, t, c).seat
    return view_from_record(hide(deal, seat), t, c)


def _positions(deal, lefts, many=False):
    """(trick, card) of decisions with two or more legal cards, one per tricks-left value
    in ``lefts`` (the first card of the trick that has a choice)."""
    n = deal.rules.table.hand_size
    out = []
    for left in lefts:
        t = n - left + 1
        for c in range(1, 5):
            if len(legal_cards(view_from_record(deal, t, c))) > 1:
                out.append((t, c))
                break
    assert out
    return out


def _knowledge(v):
    kp = team_kernel(get_rules(v.rules.name))
    known = v.discard if v.seat == v.soloist and v.discard else (0,) * N_TYPES
    return (kp, np.array(v.own, np.uint8), np.array(v.played, np.uint8),
            np.array(v.absent[:4], np.int64), np.array(known, np.uint8))


def _worlds(v, n, seed):
    """The worlds pimc_choose_partners (and so the hint) draws: the same sampler tables
    from the seat's knowledge, the same stream, the seat's own hand put in."""
    kp, own, played, ab, known = _knowledge(v)
    setup = world_setup_partners(v.seat, len(v.trick), v.leader, own, played, ab, v.soloist,
                                 known, kp, np.array(v.dabb_left, np.int64))
    state = chunk_state(seed, 0)
    out = []
    for _ in range(n):
        wc = np.zeros((5, N_TYPES), np.int64)
        if draw_world(state, *setup, wc):
            wc[v.seat] = v.own
            out.append(wc)
    return out


def _pimc(v, n, seed, horizon=None):
    """pimc_choose_partners's card from the view's knowledge (``horizon`` None: its
    default, every world played out; else with a solver workspace)."""
    kp, own, played, ab, known = _knowledge(v)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kp, beat)
    bm, ot = duty_modes(kp.duty)
    k, ls, wc, ws, lh, tp = _trick_state(v, beat)
    acc = np.zeros(N_TYPES)
    args = (v.seat, np.int64(sum(1 << x for x in legal_cards(v))), k, v.leader, ls, wc, ws, lh,
            tp, own, played, ab, v.trump, v.soloist, known, n, chunk_state(seed, 0), kp, beat,
            bm, ot, kp.partner_relief, acc)
    up = np.array(v.dabb_left, np.int64)      # the face-up Dabb (R4), as the hint knows it
    if horizon is None:
        c = pimc_choose_partners(*args, dabb_up=up)
    else:
        c = pimc_choose_partners(*args, horizon, world_workspace(v.rules, v.trump, v.soloist),
                                 up)
    return int(c), acc


def _seat_side(v, sol_values, wc):
    """Values of the soloist's side -> the seat's side (R7: the other side takes the
    rest of the points in the hands and the trick, + the last trick's bonus)."""
    if v.seat % 2 == v.soloist % 2:
        return sol_values
    k = v.rules.kernel
    total = (sum(int(k.card_points[t]) * int(wc[q, t]) for q in range(4) for t in range(N_TYPES))
             + sum(int(k.card_points[t]) for t in v.trick) + v.rules.points.last_trick)
    return {c: total - x for c, x in sol_values.items()}


@pytest.mark.parametrize("name", PARTNERS)
def test_r6_r7_each_exact_world_is_the_table_solvers_value(name):
    deal = play_record(name, seed=3, soloist=1, trump=2)
    for t, c in _positions(deal, (5, 3)):
        v = _hidden_view(deal, t, c)
        h = hint(deal.rules, v, n_worlds=4, seed=7)
        assert h.exact_worlds and h.horizon == 8   # the table's default: 32 cards at four seats
        worlds = _worlds(v, 4, 7)
        assert len(worlds) == h.worlds == 4
        for i, wc in enumerate(worlds):
            sol = card_values(deal.rules, [tuple(int(x) for x in wc[q]) for q in range(4)],
                              "CSHD"[v.trump], v.soloist, v.leader, v.trick)
            want = _seat_side(v, sol, wc)
            assert {x: float(h.samples[x][i]) for x in want} == pytest.approx(want)


@pytest.mark.parametrize("name", PARTNERS)
def test_v1_the_best_card_is_pimc_choose_partners_choice_with_the_same_horizon(name):
    deal = play_record(name, seed=4, soloist=2, trump=1)
    n = deal.rules.table.hand_size
    for t, c in _positions(deal, (n, 7, 6, 4, 2)):
        v = _hidden_view(deal, t, c)
        for horizon in (0, 6):           # 0: every world played out; 6: exact from 6 left
            h = hint(deal.rules, v, n_worlds=6, horizon=horizon, seed=3)
            best, acc = _pimc(v, 6, 3, horizon)
            assert h.best == best
            assert h.exact_worlds == (0 < horizon and sum(v.own) <= horizon)
            for x in h.cards:            # the seat's side's mean per card, the same worlds
                assert x.points == pytest.approx(acc[x.card]) and x.n == 6
            if horizon == 0:             # the default (the tournament's PIMC) is horizon 0
                assert _pimc(v, 6, 3) == (best, pytest.approx(acc))


@pytest.mark.parametrize("name", PARTNERS)
def test_the_exact_hint_is_unchanged_when_the_hidden_hands_are_dealt_otherwise(name):
    deal = play_record(name, seed=5, soloist=0, trump=3)
    t, c = _positions(deal, (6,))[0]
    v = view_from_record(deal, t, c)
    other = _other_deal(deal, v, seed=13)
    assert any(other.hands[s] != deal.hands[s] for s in range(4) if s != v.seat)

    def shown(d):
        h = hint(deal.rules, view_from_record(hide(replace(d, melds=None), v.seat), t, c), 5,
                 seed=2)
        assert h.exact_worlds
        out = h.to_dict()
        out.pop("played_in_record")      # the record's next card: after the decision
        return out

    assert shown(other) == shown(deal)


@pytest.mark.parametrize("name", PARTNERS)
def test_v46_v57_v66_the_last_card_scores_the_sides_deal_as_the_record(name):
    """At the last card of the deal every world is the deal itself: the hint's score for
    the seat's side is the recorded deal's score of that side (V4.6, V5.7, V6.6)."""
    for seed, sol in ((1, 0), (2, 1), (3, 3)):
        deal = play_record(name, seed=seed, soloist=sol, trump=seed % 4)
        n = deal.rules.table.hand_size
        v = _hidden_view(deal, n, 4)
        h = hint(deal.rules, v, n_worlds=2, seed=1)
        (x,) = h.cards
        assert x.score == deal.score[v.seat % 2] and x.score_se == 0.0


def test_r4_v46_a_durch_is_valued_exactly_within_the_horizon_and_refused_above():
    deal = play_record("kreuz-48", seed=2, soloist=1, trump=None)   # the Durch lives to trick 6
    flat = get_rules("kreuz-48")
    value, loss = int(flat.kernel.durch_value), int(flat.kernel.durch_loss_factor)
    t, c = 6, 1
    v = _hidden_view(deal, t, c)
    assert v.seat == v.soloist and v.trump < 0
    h = hint(deal.rules, v, n_worlds=5, seed=4)
    assert h.exact_worlds
    worlds = _worlds(v, 5, 4)
    k = deal.rules.kernel
    for x in h.cards:
        made = []
        for i, wc in enumerate(worlds):
            sol = card_values(deal.rules, [tuple(int(y) for y in wc[q]) for q in range(4)], None,
                              v.soloist, v.leader, v.trick)
            assert h.samples[x.card][i] == sol[x.card]
            every = (sum(int(k.card_points[y]) * int(wc[q, y]) for q in range(4)
                         for y in range(N_TYPES)) + deal.rules.points.last_trick)
            made.append(sol[x.card] == every)        # every point left: no trick lost (R4)
        want = [value if m else -loss * value for m in made]
        assert x.score == pytest.approx(np.mean(want))
    early = _hidden_view(deal, 1, 2)
    with pytest.raises(BinokelError) as err:
        hint(deal.rules, early, n_worlds=2, seed=1)
    msg = str(err.value)
    assert "\n" not in msg and "not valued with 11 tricks left" in msg and "(R4, V4.6)" in msg
    assert hint(deal.rules, early, n_worlds=2, horizon=11, seed=1).exact_worlds


def test_default_horizon_is_at_most_32_cards_in_the_hands_V1():
    # ten tricks at the three-seat tables (R6: 30 cards), eight at four seats (V1: 32)
    from analyzer.analyses.hint import default_horizon
    from analyzer.mechanics.ruleset import get_game

    assert {g: default_horizon(get_game(g)) for g in ("binokel-48", "grupp-4", "binokel-40",
                                                      *PARTNERS)} == {
        "binokel-48": 10, "grupp-4": 10, "binokel-40": 10,
        "kreuz-48": 8, "kreuz-40": 8, "pinochle-80": 8}


@pytest.mark.parametrize("name", ["kreuz-48", "kreuz-40"])
def test_r4_a_defenders_worlds_put_the_face_up_dabb_in_the_bidders_hand_or_discard(name):
    # R4, V4.2, V5.3: everyone saw the Dabb the bidder took up; its copies the bidder has
    # not played lie in the bidder's hand or its discard in every world a defender draws
    deal = play_record(name, seed=3, soloist=1, trump=2)
    v = next(v for v in (_hidden_view(deal, 3, c) for c in range(1, 5)) if v.seat != v.soloist)
    assert sum(v.dabb_left) > 0
    for wc in _worlds(v, 30, 5):
        for t in range(N_TYPES):
            assert wc[v.soloist, t] + wc[4, t] >= v.dabb_left[t]
