"""Opponent models for bid inference and auction look-ahead (R3).

An opponent model says how a seat that cannot be seen bids: a *value* ``v`` computed from
its (sampled) 15 cards, and a private maximum ``m = v + e`` with logistic noise ``e`` of
scale ``s``.  It is a threshold bidder (analyzer.mechanics.bidding): it raises to ``b``
while ``b <= m`` and passes otherwise (R3).  Two uses:

- **Inference.** P(the calls it made | its cards) = sigma((v - lo)/s) - sigma((v - hi)/s),
  ``lo`` = highest voluntary bid it said, ``hi`` = bid it declined
  (:func:`analyzer.mechanics.bidding.evidence_likelihood`).
- **Look-ahead.** How it will call from now on: its maximum is drawn from the same noise,
  truncated to the interval its calls left open (:func:`sample_max`), so the continuation
  is the model's posterior given what it said.

Models (:data:`OPPONENT_MODELS`):

``rule``
    The rule-of-thumb bidder: ``v`` = best meld over the four trumps + a fixed 100 card
    points (analyzer.mechanics.bidding), ``s`` = 20.  How naive bots bid.
``advisor``
    A fast model of the bid advisor's own recommended maximum (analyzer.analyses.advice):
    ``v`` linear in a few hand features and the seat (:func:`hand_features`), ``s`` and the
    coefficients fitted by maximum likelihood to the advisor's recommendations on random
    hands (data/fits/advisor.json, analyzer.fits; refit with ``binokel fit-opponents``).  How a
    strong bidder bids: it also values aces, tens and long suits, not only melds.

Kernels take ``(kind, coef, scale, trick_estimate)``: ``kind`` 0 = rule (``coef``
unused), 1 = linear in the features.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer._jit import njit
from analyzer.errors import BinokelError
from analyzer.fits import load_fit
from analyzer.mechanics.bidding import DEFAULT_EVIDENCE_SCALE, DEFAULT_TRICK_ESTIMATE, rule_of_thumb_value
from analyzer.mechanics.cards import N_RANKS, N_SUITS, PLANE, Hand
from analyzer.mechanics.melds import meld_all_trumps
from analyzer.mechanics.rng import uniform01
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet

OPPONENT_MODELS = ("rule", "advisor")
#: the shipped fit file (analyzer.fits: data/fits/advisor.json) of the advisor models
ADVISOR_FIT = "advisor"
KIND_RULE, KIND_LINEAR = 0, 1

#: Names of the linear model's inputs, in coefficient order (:func:`hand_features`).
FEATURES = ("intercept", "best_meld", "aces", "tens", "longest_suit", "top_in_longest",
            "middlehand", "rearhand")
N_FEATURES = len(FEATURES)
#: Melds above this count as this much in the fit: beyond it the advisor's recommendation
#: is pinned by its bid grid, not by the meld (a double family is 1500).
MELD_CAP = 500


@njit
def hand_features(mask15, seat, kr, out):
    """The linear model's inputs for one packed hand (cards.py encoding) and seat (R2).

    ``out`` (float64[N_FEATURES]) gets: 1, best meld over the four trumps (R5, capped at
    :data:`MELD_CAP`), aces, tens, length of the longest suit, aces + tens in that suit,
    and 0/1 for middlehand and rearhand.
    """
    melds = np.empty(4, dtype=np.int64)
    meld_all_trumps(mask15, kr, melds)
    best = melds[0]
    for s in range(1, 4):
        if melds[s] > best:
            best = melds[s]
    if best > MELD_CAP:
        best = MELD_CAP
    lo = mask15 & ((np.int64(1) << PLANE) - 1)
    hi = mask15 >> PLANE
    aces = 0
    tens = 0
    longest = -1
    top_long = 0
    for s in range(N_SUITS):
        n = 0
        top = 0
        for r in range(N_RANKS):
            t = s * N_RANKS + r
            c = ((lo >> t) & 1) + ((hi >> t) & 1)
            n += c
            if r == 0:
                aces += c
                top += c
            elif r == 1:
                tens += c
                top += c
        if n > longest or (n == longest and top > top_long):
            longest = n
            top_long = top
    out[0] = 1.0
    out[1] = best
    out[2] = aces
    out[3] = tens
    out[4] = longest
    out[5] = top_long
    out[6] = 1.0 if seat == 1 else 0.0
    out[7] = 1.0 if seat == 2 else 0.0


@njit
def model_value(mask15, seat, kind, coef, trick_estimate, kr):
    """An opponent's value ``v`` under model ``kind`` (module docstring): its private
    maximum is ``v`` + logistic noise."""
    if kind == KIND_RULE:
        return np.float64(rule_of_thumb_value(mask15, kr, trick_estimate))
    f = np.empty(N_FEATURES, dtype=np.float64)
    hand_features(mask15, seat, kr, f)
    v = 0.0
    for i in range(N_FEATURES):
        v += coef[i] * f[i]
    return v


@njit
def _sigmoid(x):
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


@njit
def sample_max(value, lo, hi, scale, conditional, step, state):
    """Draw a seat's maximum bid ``m = value + e`` (logistic noise, scale ``scale``), as a
    bid value: the highest multiple of ``step`` at most ``m`` (the seat raises to ``b``
    iff ``b <= m``, R3).

    ``conditional``: draw ``e`` from the noise truncated to what the seat's calls allow,
    ``lo <= m < hi`` (``lo``/``hi`` <= 0: no bound), by inverting the CDF; otherwise draw
    it freely and only raise ``m`` to ``lo`` (the seat did say ``lo``).
    """
    if conditional:
        pl = 0.0 if lo <= 0 else _sigmoid((lo - value) / scale)
        ph = 1.0 if hi <= 0 else _sigmoid((hi - value) / scale)
    else:
        pl = 0.0
        ph = 1.0
    if ph - pl < 1e-12:
        # the calls pin the maximum to the edge of the model's range (numerically)
        m = np.float64(lo) if lo > 0 else np.float64(hi - 1)
    else:
        u = pl + (ph - pl) * uniform01(state)
        if u < 1e-300:
            u = 1e-300
        if u > 1.0 - 1e-16:
            u = 1.0 - 1e-16
        m = value + scale * math.log(u / (1.0 - u))
    if lo > 0 and m < lo:
        m = np.float64(lo)
    if hi > 0 and conditional and m >= hi:
        m = np.float64(hi - 1)
    b = math.floor(m / step) * step
    if b < 0:
        b = 0
    return np.int64(b)


# --------------------------------------------------------------------------- Python API


@dataclass(frozen=True)
class OpponentModel:
    """One opponent model, ready for the kernels (``kind``, ``coef``, ``scale``)."""

    name: str
    kind: int
    coef: tuple
    scale: float
    trick_estimate: int = DEFAULT_TRICK_ESTIMATE
    description: str = ""

    def kernel_args(self):
        """``(kind, coef float64[N_FEATURES], scale, trick_estimate)`` for the kernels."""
        coef = np.zeros(N_FEATURES, dtype=np.float64)
        if self.coef:
            coef[:] = np.asarray(self.coef, dtype=np.float64)
        return np.int64(self.kind), coef, float(self.scale), int(self.trick_estimate)

    def value(self, hand, seat: int, rules: RuleSet = DEFAULT_RULES) -> float:
        """The model's value ``v`` for a :class:`~analyzer.mechanics.cards.Hand` in a seat."""
        h = Hand.parse(hand)
        kind, coef, _, est = self.kernel_args()
        return float(model_value(np.int64(h.mask), int(seat), kind, coef, est, rules.kernel))


def rule_model(trick_estimate: int = DEFAULT_TRICK_ESTIMATE,
               scale: float = DEFAULT_EVIDENCE_SCALE) -> OpponentModel:
    """The rule-of-thumb bidder with logistic noise (today's inference model)."""
    return OpponentModel("rule", KIND_RULE, (), float(scale), int(trick_estimate),
                         f"rule of thumb: best meld + {trick_estimate}, noise scale {scale:g}")


def advisor_model(rules: RuleSet = DEFAULT_RULES) -> OpponentModel:
    """The fitted model of the advisor's maximum bid for these rules (data/fits/advisor.json).

    Raises BinokelError (one line) when no fit exists for the variant.
    """
    fit = load_fit(ADVISOR_FIT).get(rules.name)
    if fit is not None and fit.get("kind") == "team":
        raise BinokelError(f"{rules.name} is a team game: its advisor model is the team look-ahead's "
                           "(analyzer.analyses.lookahead.partners_model)")
    if fit is None:
        raise BinokelError(f"no fitted advisor model for rules {rules.name!r}: fit one with "
                           f"'binokel fit-opponents --rules {rules.name}' or use --opponents rule")
    if tuple(fit["features"]) != FEATURES:
        raise BinokelError("the stored advisor fit has other features than this version: refit "
                           "it with 'binokel fit-opponents'")
    return OpponentModel("advisor", KIND_LINEAR, tuple(float(c) for c in fit["coef"]),
                         float(fit["scale"]), DEFAULT_TRICK_ESTIMATE,
                         f"fitted advisor model ({fit['hands']} hands, noise scale "
                         f"{fit['scale']:.0f})")


def has_advisor_fit(rules: RuleSet = DEFAULT_RULES) -> bool:
    fit = load_fit(ADVISOR_FIT).get(rules.name)
    return fit is not None and fit.get("kind") != "team"


def get_opponent_model(name, rules: RuleSet = DEFAULT_RULES) -> OpponentModel:
    """``'rule'`` or ``'advisor'`` (an :class:`OpponentModel` passes through); one-line
    error otherwise."""
    if isinstance(name, OpponentModel):
        return name
    key = str(name).strip().lower()
    if key == "rule":
        return rule_model()
    if key == "advisor":
        return advisor_model(rules)
    raise BinokelError(f"unknown opponent model {name!r}: use {' or '.join(OPPONENT_MODELS)}")


def default_opponents(rules: RuleSet = DEFAULT_RULES) -> str:
    """The look-ahead advisor's default opponent model: ``"advisor"`` where a fit exists
    for the variant, else ``"rule"`` (docs/methods.md#opponents says why)."""
    return "advisor" if has_advisor_fit(rules) else "rule"


def resolve_opponents(name, lookahead: bool, rules: RuleSet = DEFAULT_RULES) -> OpponentModel:
    """The model for ``advise_bid(opponents=name, lookahead=...)``; ``None`` = the default
    (``rule`` for static advice, :func:`default_opponents` with look-ahead)."""
    if name is None:
        name = default_opponents(rules) if lookahead else "rule"
    return get_opponent_model(name, rules)
