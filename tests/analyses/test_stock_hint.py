"""``hint`` and ``review`` of a game with a stock (binokel-2, docs/VARIANTS.md V7; issue 27):
exact after the stock (V7.4), PIMC's choice while it lasts, nothing but the player's view.
PIMC worlds are few: these pin what is computed, not how good it is."""
from __future__ import annotations

import random

import numpy as np
import pytest

from analyzer.analyses.stock_hint import (ActionValue, _label, best_margin, cross_fit_loss,
                                          decisions, prefix, stock_hint, stock_review,
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
    for x in rv.decisions:             # cross-fitted on the same worlds' values
        deal = view_deal(cut, x["phase"], x["trick"], x["card"], x["seat"])
        vals = value_actions(deal, 2, 1 + next(
            i for i, d in enumerate(decisions(cut)) if d[:4] == (x["phase"], x["trick"],
                                                                 x["card"], x["seat"])))[0]
        vals = [v for v in vals if not v.wins_game]
        p = next(j for j, v in enumerate(vals) if v.label == x["played"])
        want = cross_fit_loss(np.column_stack([v.diffs for v in vals]), p)
        assert (x["loss"], x["loss_se"], x["n"]) == want
    for s, v in rv.per_seat.items():
        mine = [x for x in rv.decisions if x["seat"] == int(s)]
        assert v["decisions"] == len(mine)
        assert np.isclose(v["loss_se"], np.sqrt(sum(x["loss_se"] ** 2 for x in mine)))


# ------------------------------------------------- the review's loss: no winner's curse

def _in_sample_loss(table, played):
    """The old estimate: the best chosen and measured on the same worlds."""
    m = np.asarray(table, dtype=float).mean(axis=0)
    return float(m.max() - m[played])


def _noise_tables(rng, reps, n, actions):
    """Value tables of actions equal in distribution: a per-world effect shared by every
    action (paired worlds) plus independent noise, the spread of a deal's diff points."""
    world = rng.normal(0, 150, size=(reps, n, 1))
    return world + rng.normal(0, 100, size=(reps, n, actions))


def test_cross_fitted_loss_of_equal_actions_is_zero_on_average_the_old_is_not():
    """Two actions equal in distribution, 4 worlds: over many decisions the cross-fitted
    loss averages 0 within 2 SE; the same-worlds loss is clearly positive (winner's curse)."""
    rng = np.random.default_rng(7)
    tables = _noise_tables(rng, 4000, 4, 2)
    new = np.array([cross_fit_loss(t, 0)[0] for t in tables])
    old = np.array([_in_sample_loss(t, 0) for t in tables])
    se = new.std(ddof=1) / np.sqrt(len(new))
    assert abs(new.mean()) < 2 * se
    assert old.mean() > 10 * old.std(ddof=1) / np.sqrt(len(old)) and old.min() >= 0


def test_a_deals_review_of_pure_noise_totals_zero_on_average_not_hundreds():
    """A 'deal' of 30 decisions among 8 equal actions with 4 worlds each (a review's
    default): the old per-seat total is hundreds of points of pure noise, the cross-fitted
    total is 0 within 2 SE over many deals, and each deal's total has its SE."""
    rng = np.random.default_rng(11)
    deals, per_deal = 300, 30
    tables = _noise_tables(rng, deals * per_deal, 4, 8).reshape(deals, per_deal, 4, 8)
    played = rng.integers(0, 8, size=(deals, per_deal))
    new = np.array([[cross_fit_loss(t, p)[0] for t, p in zip(ts, ps)]
                    for ts, ps in zip(tables, played)]).sum(axis=1)
    old = np.array([[_in_sample_loss(t, p) for t, p in zip(ts, ps)]
                    for ts, ps in zip(tables, played)]).sum(axis=1)
    assert abs(new.mean()) < 2 * new.std(ddof=1) / np.sqrt(deals)
    assert old.mean() > 1000          # 30 decisions x ~100 points of selected noise each


def test_cross_fitted_loss_finds_a_real_loss_and_its_paired_se():
    """One action truly better by 50 points: with many worlds the loss of a worse play is
    ~50 (within 3 SE); playing the best loses ~0; the SE is that of the per-world
    differences (here the best is the same on both halves)."""
    rng = np.random.default_rng(3)
    n = 400
    t = _noise_tables(rng, 1, n, 3)[0]
    t[:, 1] += 50
    loss, se, k = cross_fit_loss(t, 0)
    assert k == n and abs(loss - 50) < 3 * se
    d = t[:, 1] - t[:, 0]
    assert np.isclose(se, d.std(ddof=1) / np.sqrt(n))
    assert cross_fit_loss(t, 1)[0] == 0.0
    with pytest.raises(BinokelError, match="at least 2"):
        cross_fit_loss(t[:1], 0)


def test_pimc_values_of_one_action_on_two_world_sets_lose_zero_within_se(recs):
    """Real PIMC values: an action compared with itself on independent worlds (equal in
    distribution by construction, V7.2): the cross-fitted loss is within 2.5 SE of 0."""
    rec = recs[0]
    for ph, t, k, seat, _, _ in decisions(rec):
        if t < 11 or ph != "play":
            continue
        deal = view_deal(rec, ph, t, k, seat)
        if len(deal.legal_actions(claims=False)) >= 2 and not deal.may_claim(seat):
            break
    cols = []
    for seed in (1, 2):
        pts = Pimc(G, worlds=16, seed=seed).action_points(deal.copy())
        a, own, opp = pts[0]
        cols.append((own - opp).astype(float))
    loss, se, n = cross_fit_loss(np.column_stack(cols), 0)
    assert n == 16 and se > 0 and abs(loss) < 2.5 * se
    assert _in_sample_loss(np.column_stack(cols), 0) >= 0


def test_the_hint_states_its_best_margin_and_whether_it_is_noise():
    def av(label, diffs):
        d = np.asarray(diffs, dtype=float)
        return ActionValue(("play", 0), label, float(d.mean()), 0.0, 0.0, 0.0, len(d), d)

    close = best_margin([av("a", [10, 0, 20, 5]), av("b", [0, 10, 0, 30])])
    assert close["over"] == "a" and close["n"] == 4 and close["within_noise"]
    assert close["margin"] == 1.25 and close["se"] > close["margin"]
    far = best_margin([av("a", [100, 110, 90, 105]), av("b", [0, 10, -5, 0])])
    assert far["margin"] == 100.0 and not far["within_noise"] and far["se"] > 0
    assert best_margin([av("a", [1, 2])]) is None
