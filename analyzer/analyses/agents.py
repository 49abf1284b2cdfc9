"""The bidding agents of the three-player tournaments (R3; analyzer.analyses.tournament).

- ``rule`` (:class:`RuleAgent`): the rule of thumb, best meld + a fixed card-point estimate.
- ``advisor`` (:class:`AdvisorAgent`): the static bid advisor (analyzer.analyses.advice)
  with a reduced sample count per decision.
- ``advisor-la`` (:class:`LookaheadAgent`): the look-ahead advisor
  (analyzer.analyses.lookahead) with a reduced sample count per decision.
- ``advisor-fit`` (:class:`ModelAgent`): bids like the fitted model of the advisor
  (analyzer.analyses.opponents, ``advisor``): its maximum is the model's value rounded
  down to the bid step, no noise.  A field of these is "an advisor-modelled field".

Every agent decides from its own hand, seat, the calls so far (and, objective "win", the
scores) only, as :class:`Agent` requires.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from analyzer.analyses.advice_samples import simulate_advice
from analyzer.analyses.lookahead import lookahead_max_bid, simulate_lookahead
from analyzer.analyses.objectives import recommended_max_bid
from analyzer.analyses.opponents import model_value, resolve_opponents
from analyzer.errors import BinokelError
from analyzer.mechanics.bidding import DEFAULT_TRICK_ESTIMATE, AuctionState, rule_of_thumb_max_bid
from analyzer.mechanics.game import counts_to_planes
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet

AGENT_KINDS = ("advisor", "rule", "advisor-la", "advisor-fit")


class Agent:
    """A bidding agent: a maximum bid from what its seat knows (hand, seat, calls, scores)."""

    name = "agent"

    def max_bid(self, hand_counts: np.ndarray, seat: int, state: AuctionState, scores,
                key: tuple) -> int:
        raise NotImplementedError


@dataclass
class RuleAgent(Agent):
    """Rule of thumb: best meld + a fixed card-point estimate (analyzer.mechanics.bidding)."""

    trick_estimate: int = DEFAULT_TRICK_ESTIMATE
    rules: RuleSet = DEFAULT_RULES
    name: str = "rule"

    def max_bid(self, hand_counts, seat, state, scores, key):
        return int(rule_of_thumb_max_bid(counts_to_planes(hand_counts), self.rules.kernel,
                                          int(self.trick_estimate)))


@dataclass
class AdvisorAgent(Agent):
    """The bid advisor with a reduced sample count per decision (same method as advise_bid).

    ``objective``: "relative" (default), "own", or "win" (uses the game scores, R9).
    Decisions are cached by (deal, seat, calls, scores-if-used), seeded by that key, so a
    decision met again in another seating of the same deal is the same decision.
    """

    samples: int = 200
    objective: str = "relative"
    inference: bool = True
    seed: int = 0
    rules: RuleSet = DEFAULT_RULES
    name: str = "advisor"
    _cache: dict = field(default_factory=dict, repr=False)

    def max_bid(self, hand_counts, seat, state, scores, key):
        objective = self.objective
        aware = objective == "win"
        calls = tuple(c for _, c in state.calls)
        ck = (key, seat, calls, tuple(scores) if aware else None)
        if ck in self._cache:
            return self._cache[ck]
        seed = [self.seed, *key, seat, len(calls), *(c // 10 for c in calls)]
        if aware:
            seed += [int(s) + 100000 for s in scores]
        res = simulate_advice(hand_counts, seat, state, self.samples, seed, 1, self.inference,
                              self.rules)
        mb = recommended_max_bid(res, seat, objective, tuple(scores) if aware else None,
                                 self.rules)
        out = 0 if mb is None else int(mb)
        self._cache[ck] = out
        return out


@dataclass
class LookaheadAgent(Agent):
    """The look-ahead advisor; decisions cached and seeded by (deal, seat, calls), as
    :class:`AdvisorAgent`'s."""

    samples: int = 200
    objective: str = "relative"
    inference: bool = True
    seed: int = 0
    opponents: str | None = None
    rules: RuleSet = DEFAULT_RULES
    name: str = "advisor-la"
    _cache: dict = field(default_factory=dict, repr=False)
    _model: object = field(default=None, repr=False)

    def max_bid(self, hand_counts, seat, state, scores, key):
        aware = self.objective == "win"
        calls = tuple(c for _, c in state.calls)
        ck = (key, seat, calls, tuple(scores) if aware else None)
        if ck in self._cache:
            return self._cache[ck]
        if self._model is None:
            self._model = resolve_opponents(self.opponents, True, self.rules)
        seed = [self.seed, *key, seat, len(calls), *(c // 10 for c in calls)]
        if aware:
            seed += [int(s) + 100000 for s in scores]
        res = simulate_lookahead(hand_counts, seat, state, self.samples, seed, 1, self.inference,
                                 self.rules, self._model)
        mb, _, _ = lookahead_max_bid(res, seat, self.objective,
                                     tuple(scores) if aware else None, self.rules)
        out = 0 if mb is None else int(mb)
        self._cache[ck] = out
        return out


@dataclass
class ModelAgent(Agent):
    """Bids up to the fitted advisor model's value, rounded down to the bid step (R3)."""

    rules: RuleSet = DEFAULT_RULES
    name: str = "advisor-fit"
    _args: tuple | None = field(default=None, repr=False)

    def max_bid(self, hand_counts, seat, state, scores, key):
        if self._args is None:
            self._args = resolve_opponents("advisor", True, self.rules).kernel_args()
        kind, coef, _, est = self._args
        v = model_value(counts_to_planes(np.asarray(hand_counts, dtype=np.uint8)), seat, kind,
                        coef, est, self.rules.kernel)
        step = self.rules.bid_step
        b = int(v // step) * step
        return b if b >= self.rules.bid_start else 0


def make_agent(kind: str, samples: int = 200, objective: str = "relative", seed: int = 0,
               trick_estimate: int = DEFAULT_TRICK_ESTIMATE, rules: RuleSet = DEFAULT_RULES,
               opponents: str | None = None) -> Agent:
    """One of :data:`AGENT_KINDS` (one-line error otherwise); ``opponents`` is the
    look-ahead agent's opponent model (None = its default)."""
    if kind in ("advisor-la", "advisor-fit"):
        if kind == "advisor-fit":
            return ModelAgent(rules=rules)
        return LookaheadAgent(samples=samples, objective=objective, seed=seed,
                              opponents=opponents, rules=rules)
    if kind == "rule":
        return RuleAgent(trick_estimate=trick_estimate, rules=rules)
    if kind == "advisor":
        return AdvisorAgent(samples=samples, objective=objective, seed=seed, rules=rules)
    raise BinokelError(f"unknown agent {kind!r}: use {', '.join(AGENT_KINDS)}")
