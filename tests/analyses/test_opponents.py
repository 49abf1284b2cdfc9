"""Opponent models (R3): hand features against a plain-Python reference, the truncated
noise of the continuation, the rule model = rule of thumb, the model registry's errors."""
from __future__ import annotations

import math

import numpy as np
import pytest

from analyzer import BinokelError, Hand, melds
from analyzer.analyses.opponents import (FEATURES, KIND_RULE, MELD_CAP, N_FEATURES, default_opponents,
                                         get_opponent_model, hand_features, model_value,
                                         resolve_opponents, sample_max)
from analyzer.mechanics.bidding import rule_of_thumb_value
from analyzer.mechanics.cards import mask_to_counts
from analyzer.mechanics.rng import make_state
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet
from analyzer.mechanics.sampling import deal_random, new_deck

KR = DEFAULT_RULES.kernel


def _random_hands(n, seed):
    st = make_state(np.random.SeedSequence(seed))
    out = np.zeros(4, dtype=np.int64)
    for _ in range(n):
        deal_random(st, new_deck(), out)
        yield int(out[0])


def _reference_features(mask, seat):
    """Straight from the definition: counts by suit and rank (cards.py: type = suit*6 + rank,
    A = rank 0, 10 = rank 1), best meld over the four trumps from the melds API (R5)."""
    counts = mask_to_counts(mask).reshape(4, 6)
    hand = Hand.parse(" ".join(
        f"{'A 10 K Q J 9'.split()[r]}{'CSHD'[s]}" for s in range(4) for r in range(6)
        for _ in range(int(counts[s, r]))))
    best = max(melds(hand, trump).total for trump in "CSHD")
    lengths = counts.sum(axis=1)
    tops = counts[:, 0] + counts[:, 1]
    order = sorted(range(4), key=lambda s: (lengths[s], tops[s]), reverse=True)
    s0 = order[0]
    return [1.0, min(best, MELD_CAP), counts[:, 0].sum(), counts[:, 1].sum(), lengths[s0],
            tops[s0], float(seat == 1), float(seat == 2)]


def test_hand_features_match_plain_python_reference():
    """The kernel's features equal a reference written from their definition (R5 melds)."""
    f = np.empty(N_FEATURES)
    for i, mask in enumerate(_random_hands(150, 5)):
        hand_features(np.int64(mask), i % 3, KR, f)
        assert f.tolist() == pytest.approx(_reference_features(mask, i % 3)), mask
    assert len(FEATURES) == N_FEATURES


def test_rule_model_is_the_rule_of_thumb_value():
    coef = np.zeros(N_FEATURES)
    for mask in _random_hands(50, 6):
        assert model_value(np.int64(mask), 1, KIND_RULE, coef, 100, KR) == rule_of_thumb_value(
            np.int64(mask), KR, 100)


def test_advisor_model_is_linear_in_the_features():
    m = get_opponent_model("advisor")
    kind, coef, _, est = m.kernel_args()
    f = np.empty(N_FEATURES)
    for i, mask in enumerate(_random_hands(30, 7)):
        hand_features(np.int64(mask), i % 3, KR, f)
        assert model_value(np.int64(mask), i % 3, kind, coef, est, KR) == pytest.approx(f @ coef)


@pytest.mark.parametrize("lo, hi", [(180, 0), (0, 200), (170, 210), (0, 0)])
def test_continuation_maximum_is_the_model_noise_given_the_calls(lo, hi):
    """R3 evidence: a seat that said lo has max >= lo, one that declined hi has max < hi; the
    draw follows the logistic noise truncated to that interval (checked at one cut, 4 SE)."""
    v, s, n = 195.0, 20.0, 4000
    st = make_state(np.random.SeedSequence(8))
    draws = np.array([sample_max(v, lo, hi, s, True, 10, st) for _ in range(n)])
    assert (draws % 10 == 0).all()
    if lo > 0:
        assert draws.min() >= lo
    if hi > 0:
        assert draws.max() < hi
    F = lambda x: 1.0 / (1.0 + math.exp(-(x - v) / s))  # noqa: E731
    a = F(lo) if lo > 0 else 0.0
    b = F(hi) if hi > 0 else 1.0
    cut = 190  # P(max >= 190) = P(m >= 190) under the truncated law
    p = (b - max(F(cut), a)) / (b - a)
    obs = (draws >= cut).mean()
    assert abs(obs - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-9


def test_unconditional_draw_keeps_what_the_seat_already_said():
    st = make_state(np.random.SeedSequence(9))
    draws = [sample_max(150.0, 200, 0, 20.0, False, 10, st) for _ in range(500)]
    assert min(draws) == 200          # raised to lo when the free draw falls below it


def test_model_registry_errors_and_defaults():
    with pytest.raises(BinokelError, match="unknown opponent model"):
        get_opponent_model("oracle")
    with pytest.raises(BinokelError, match="no fitted advisor model"):
        get_opponent_model("advisor", RuleSet(name="not-fitted"))
    assert default_opponents(DEFAULT_RULES) == "advisor"
    assert default_opponents(RuleSet(name="not-fitted")) == "rule"
    assert resolve_opponents(None, False).name == "rule"
    assert resolve_opponents(None, True).name == "advisor"
