"""``hint`` and ``review`` of a game with a stock (binokel-2, docs/VARIANTS.md V7; issue 27):
exact after the stock (V7.4), PIMC's choice while it lasts, nothing but the player's view.
PIMC worlds are few: these pin what is computed, not how good it is."""
from __future__ import annotations

import random

import numpy as np
import pytest

from analyzer.analyses.stock_hint import (_label, decisions, prefix, stock_hint, stock_review,
                                          value_actions, view_deal)
from analyzer.errors import BinokelError
from analyzer.mechanics import stock_play as sp
from analyzer.mechanics.ruleset import get_game
from analyzer.mechanics.stock_record import StockRecord, replay, world_order
from analyzer.search.stock_pimc import Pimc
from analyzer.search.stock_registry import record_deal
from analyzer.search.stock_solve import EndgameSolver

G = get_game("binokel-2")


@pytest.fixture(scope="module")
def recs():
    return [record_deal(G, s, ("heuristic", "random")) for s in (3, 5)]


def _cut(rec, ph, t, k) -> StockRecord:
    return prefix(rec, ph, t, k)


def test_after_the_stock_each_card_is_its_exact_value_V7_4(recs):
    """Own points to the end = EndgameSolver.card_values; n is "exact", SE 0."""
    checked = 0
    for rec in recs:
        for ph, t, k, seat, _, _ in decisions(rec):
            if t < 13 or ph != "play" or t % 3:
                continue
            h = stock_hint(rec, t, k, worlds=2)
            deal = view_deal(rec, ph, t, k, seat)
            want = EndgameSolver(deal.r).card_values(deal)
            got = {v.action[1]: v.own for v in h.values}
            assert got == {c: float(v) for c, v in want.items()}
            assert h.exact and all(v.n == "exact" and v.own_se == 0 for v in h.values)
            checked += 1
    assert checked >= 4


def test_the_best_action_is_pimcs_choice_on_the_same_worlds_V7_2_V7_3(recs):
    """Mid-stock, a play and a meld decision: hint's best = Pimc(seed) on the same view."""
    rec = recs[0]
    picks = [d for d in decisions(rec) if d[1] <= 6 and d[4][0] != "claim"]
    tried = 0
    for ph, t, k, seat, _, _ in picks:
        deal = view_deal(rec, ph, t, k, seat)
        if len(deal.legal_actions(claims=False)) < 2 or deal.may_claim(seat):
            continue
        h = stock_hint(rec, t, None if ph == "meld" else k, ph == "meld", worlds=3, seed=11)
        a = Pimc(G, worlds=3, seed=11)(deal.copy(), random.Random(0))
        assert h.best == _label(deal, a)
        assert all(v.n == 3 and v.diff_se >= 0 for v in h.values)
        assert {v.label for v in h.values} == {_label(deal, x)
                                               for x in deal.legal_actions(claims=False)}
        tried += 1
        if tried == 2:
            break
    assert tried == 2


def _other_world(rec, ph, t, k, seat, seed) -> StockRecord:
    """``rec`` cut at the decision, with the cards ``seat`` has not seen there (the
    opponent's hidden hand and the face-down stock) dealt anew among their places."""
    cut = _cut(rec, ph, t, k)
    order = world_order(cut)
    deal = replay(cut)
    opp = 1 - seat
    unseen = [c for c in deal.hand(opp) if not deal.shown(c) and c != deal.turned]
    pos = int(deal.st[sp.SPOS])
    unseen += [int(c) for c in deal.st[sp.STOCK + pos:sp.STOCK + int(deal.st[sp.SSIZE]) - 1]]
    places = [i for i, c in enumerate(order) if int(c) in unseen]
    assert len(places) == len(unseen)
    cards = [int(order[i]) for i in places]
    random.Random(seed).shuffle(cards)
    new = order.copy()
    for i, c in zip(places, cards):
        new[i] = c
    n = G.table.hand_size
    counts = [tuple(sum(1 for c in new[s * n:(s + 1) * n] if c // 2 == x) for x in range(24))
              for s in (0, 1)]
    other = StockRecord(rules=G, seats=rec.seats, hands=tuple(counts), turned=int(new[2 * n]) // 2,
                        stock=tuple(int(c) // 2 for c in new[2 * n + 1:]), moves=cut.moves)
    assert other != cut
    replay(other)                      # a consistent deal: it replays
    return other, cut


@pytest.mark.parametrize("which", ["play", "meld", "reply"])
def test_the_hint_reads_nothing_the_player_cannot_see(recs, which):
    """Another opponent's hand and stock order, consistent with the player's view, give
    the same output to the last digit."""
    rec = recs[1]
    ds = [d for d in decisions(rec) if 2 <= d[1] <= 8 and d[4][0] != "claim"]
    ph, t, k, seat, _, _ = next(d for d in ds if (d[0], d[2]) == {
        "play": ("play", 1), "meld": ("meld", 0), "reply": ("play", 2)}[which])
    other, cut = _other_world(rec, ph, t, k, seat, seed=5)
    a = stock_hint(cut, worlds=2, seed=3).to_dict()
    b = stock_hint(other, worlds=2, seed=3).to_dict()
    assert a == b and a["seat"] == seat and a["worlds"] == 2


def test_a_claim_that_wins_is_listed_and_best_V7_5():
    rec = record_deal(G, 2, ("heuristic", "heuristic"), before=(990, 0))
    assert rec.claim == 0
    ph, t, k, seat, a, _ = decisions(rec)[-1]
    assert a == ("claim",) and seat == 0
    h = stock_hint(rec, t, None if ph == "meld" else k, ph == "meld", worlds=2)
    assert h.best == "claim" == h.played and any(v.wins_game for v in h.values)


def test_bad_positions_are_one_line(recs):
    rec = recs[0]
    with pytest.raises(BinokelError, match="over"):
        stock_hint(rec)
    with pytest.raises(BinokelError, match="no a meld decision|no .*meld decision"):
        stock_hint(rec, 15, meld=True)
    with pytest.raises(BinokelError, match="worlds"):
        value_actions(view_deal(rec, "play", 2, 1, decisions(rec)[2][3]), 10 ** 6, 0)


def test_review_after_the_stock_is_exact_and_never_negative_V7_4(recs):
    rec = recs[0]
    rv = stock_review(rec, worlds=2, from_trick=15)
    assert rv.decisions and all(x["exact"] and x["loss"] >= 0 and x["loss_se"] == 0
                                for x in rv.decisions)
    losses = [x["loss"] for x in rv.decisions]
    assert losses == sorted(losses, reverse=True)
    for x in rv.decisions:                       # the loss is the exact values' difference
        deal = view_deal(rec, "play", x["trick"], x["card"], x["seat"])
        vals = {v.label: v.diff for v in value_actions(deal, 2, 0)[0]}
        assert x["loss"] == max(vals.values()) - vals[x["played"]]
    per = rv.per_seat
    assert sum(v["exact_loss"] for v in per.values()) == sum(losses)


def test_review_while_the_stock_lasts_is_pimc_with_a_paired_se(recs):
    rec = recs[1]
    cut = _cut(rec, "play", 2, 1)                 # the first trick and its meld decision
    rv = stock_review(cut, worlds=2, seed=1)
    assert rv.decisions and all(not x["exact"] and x["n"] == 2 for x in rv.decisions)
    assert all(x["loss"] >= 0 for x in rv.decisions)         # against the best mean
    for s, v in rv.per_seat.items():
        mine = [x for x in rv.decisions if x["seat"] == int(s)]
        assert v["decisions"] == len(mine)
        assert np.isclose(v["loss_se"], np.sqrt(sum(x["loss_se"] ** 2 for x in mine)))
