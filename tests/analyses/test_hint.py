"""``hint`` (issue 27): each legal card valued from one player's view. With every hand
known it equals the solver's card values (``binokel solve``); with hidden hands its best
card is PIMC's choice on the same worlds; it does not change when the hidden hands are
replaced by another deal consistent with what the player knows (honesty)."""
from __future__ import annotations

import json
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from analyzer.analyses.hint import (hint, legal_cards, supported, view_from_record,
                                    world_values)
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_TYPES, card_code
from analyzer.mechanics.record import check_deal, hide
from analyzer.search.record_play import play_record
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import get_rules
from analyzer.mechanics.ruleset import GAMES
from analyzer.search.pimc import pimc_choose, sample_world
from analyzer.search.solve import (W_SIZE, init_workspace, new_table, set_context)
from tests.cli.test_cli import run

DEAL = play_record("binokel-48", seed=3, soloist=1, trump=2)   # binokel play --seed 3 ...


def _soloist_position(deal, max_left):
    """(trick, card) of the first decision of the soloist with at most max_left tricks."""
    for t in range(1, 16):
        for c in range(1, 4):
            if 16 - t <= max_left:
                v = view_from_record(deal, t, c)
                if v.seat == deal.soloist and len(legal_cards(v)) > 1:
                    return t, c
    raise AssertionError("no such position")


def test_with_every_hand_known_hint_equals_solve_card_values():
    t, c = _soloist_position(DEAL, 8)
    v = view_from_record(DEAL, t, c)
    h = hint(DEAL.rules, v, n_worlds=5, seed=1)
    hands = " ".join(",".join(card_code(x, "9") for x in range(N_TYPES) for _ in range(h_[x]))
                     or "-" for h_ in v.hands[:3])
    trick = ",".join(card_code(x, "9") for x in v.trick) or "-"
    line = f"{'CSHD'[v.trump]} {v.soloist} {v.leader} {hands} {trick}"
    r = run("solve", "--position", line, "--json")
    assert r.exit_code == 0, r.output
    moves = json.loads(r.stdout)["moves"]
    assert {card_code(x.card, "9"): x.dd for x in h.cards} == moves


def test_a_defenders_exact_values_are_the_points_the_soloist_does_not_take():
    v = view_from_record(DEAL, 12, 3)                      # seat 2, a defender, to play
    h = hint(DEAL.rules, v, n_worlds=5)
    totals = {x.card: x.dd for x in h.cards}
    # every card's exact value + the soloist's exact value after it = the points left (R7)
    from analyzer.analyses.hint import _dd_values
    sol_vals, _ = _dd_values(v, 10)
    assert len({totals[c] + sol_vals[c] for c in totals}) == 1


def _pimc_choice(view, n, horizon, seed):
    flat = get_rules(view.rules.name)
    kr = flat.kernel
    w = np.zeros(W_SIZE, dtype=np.int64)
    init_workspace(w, kr)
    tt = new_table(18)
    set_context(w, view.trump, view.soloist, (1 << 18) - 1)
    from analyzer.analyses.hint import _planes, _trick_state
    k, ls, wc, ws, lh, tp = _trick_state(view, view.rules.kernel.beat)
    lo, hi = _planes(view.own)
    acc = np.zeros(N_TYPES)
    disc = np.array(view.discard or (0,) * N_TYPES, dtype=np.int64)
    c = pimc_choose(w, tt, kr.rank_strength, kr, view.seat, view.soloist, view.trump,
                    view.leader, k, ls, wc, ws, lh, np.int64(tp), np.int64(lo), np.int64(hi),
                    np.array(view.played, dtype=np.int64), disc,
                    np.array(view.absent[:3], dtype=np.int64), np.zeros((3, N_TYPES), np.int64),
                    np.array(view.dabb_left, dtype=np.int64), n, horizon, chunk_state(seed, 0),
                    acc)
    return int(c), acc


@pytest.mark.parametrize("trick,card", [(8, 2), (12, 3), (6, 1)])
def test_with_hidden_hands_the_best_card_is_pimcs_choice_on_the_same_worlds(trick, card):
    v = view_from_record(hide(DEAL, view_from_record(DEAL, trick, card).seat), trick, card)
    assert v.hands is None
    h = hint(DEAL.rules, v, n_worlds=24, horizon=4, seed=5)
    best, acc = _pimc_choice(v, 24, 4, 5)
    assert h.best == best
    lg, vals, _, _ = world_values(v, 24, 4, 5)
    for c in lg:
        assert vals[:, c].mean() == pytest.approx(acc[c])
    assert all(x.n == 24 and x.points_se >= 0 for x in h.cards)


def _consistent_other_deal(deal, view, seed):
    """Another deal the player cannot tell from ``deal`` at ``view``: the unseen cards
    dealt again by the PIMC sampler (voids, Dabb), the record cut at the position."""
    own_lo = sum(1 << t for t in range(N_TYPES) if view.own[t] >= 1)
    own_hi = sum(1 << t for t in range(N_TYPES) if view.own[t] >= 2)
    wlo = np.zeros(4, np.int64)
    whi = np.zeros(4, np.int64)
    r = sum(view.own)
    sizes = np.array([r - 1 if (s - view.leader) % 3 < len(view.trick) else r
                      for s in range(3)], np.int64)
    ok = sample_world(chunk_state(seed, 0), view.seat, view.soloist, np.int64(own_lo),
                      np.int64(own_hi), np.array(view.played, np.int64),
                      np.array(view.discard or (0,) * N_TYPES, np.int64), sizes,
                      np.array(view.absent[:3], np.int64), np.zeros((3, N_TYPES), np.int64),
                      np.array(view.dabb_left, np.int64), wlo, whi, np.zeros(48, np.int64),
                      np.zeros(48, np.int64))
    assert ok
    played_by = [[0] * N_TYPES for _ in range(3)]
    cards_before = (view.trick_no - 1) * 3 + len(view.trick)
    tricks, n = [], 0
    for ld, cs in deal.tricks:
        keep = []
        for i, c in enumerate(cs):
            if n == cards_before:
                break
            played_by[(ld + i) % 3][c] += 1
            keep.append(c)
            n += 1
        if keep:
            tricks.append((ld, tuple(keep)))
    cnt = [[((int(wlo[s]) >> t) & 1) + ((int(whi[s]) >> t) & 1) for t in range(N_TYPES)]
           for s in range(4)]
    hands = []
    for s in range(3):
        h = [cnt[s][t] + played_by[s][t] for t in range(N_TYPES)]
        if s == deal.soloist:
            disc = deal.discard if view.seat == s else tuple(cnt[3])
            h = [h[t] + disc[t] - deal.dabb[t] for t in range(N_TYPES)]
        hands.append(tuple(h))
    hands[view.seat] = deal.hands[view.seat]
    other = replace(deal, hands=tuple(hands),
                    discard=deal.discard if view.seat == deal.soloist else tuple(cnt[3]),
                    tricks=tuple(tricks), points=None, won=None, score=None)
    check_deal(other)                       # a legal deal: the same play was possible (R6)
    return other


@pytest.mark.parametrize("trick,card", [(8, 2), (12, 3)])
def test_hint_is_unchanged_when_the_hidden_hands_are_dealt_otherwise(trick, card):
    v = view_from_record(DEAL, trick, card)
    other = _consistent_other_deal(DEAL, v, seed=11)
    assert [other.hands[s] != DEAL.hands[s] for s in range(3) if s != v.seat] != [False, False]
    def shown(deal, full):
        d = hint(DEAL.rules, view_from_record(deal if full else hide(deal, v.seat), trick, card),
                 16, seed=2).to_dict()
        d.pop("played_in_record")          # the record's next card: after the decision
        if full:                           # the double-dummy column reads every hand
            d.pop("double_dummy")
            for c in d["cards"]:
                c.pop("dd")
        return d

    hidden = shown(DEAL, False)
    assert shown(other, False) == hidden
    hidden.pop("double_dummy")
    for c in hidden["cards"]:
        c.pop("dd")
    assert shown(DEAL, True) == hidden and shown(other, True) == hidden


def test_a_table_hint_does_not_know_is_refused_in_one_line():
    r = GAMES["binokel-48"]
    # a table of two seats in play (no PIMC for it): supported asks only the kernel
    fake = SimpleNamespace(name=r.name, kernel=r.kernel._replace(n_play=2))
    with pytest.raises(BinokelError, match="hint: binokel-48 has 2 seats in play") as err:
        supported(fake)
    assert "\n" not in str(err.value)


def test_a_hidden_hand_to_play_is_refused():
    with pytest.raises(BinokelError, match="hand of seat 1, to play .* is hidden"):
        view_from_record(hide(DEAL, 0), 1, 2)
