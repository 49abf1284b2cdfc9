"""Tournament agents of the look-ahead advisor and the fitted advisor model (R3).

- ``advisor-la`` (:class:`LookaheadAgent`): the look-ahead advisor
  (analyzer.analyses.lookahead) with a reduced sample count per decision.
- ``advisor-fit`` (:class:`ModelAgent`): bids like the fitted model of the advisor
  (analyzer.analyses.opponents, ``advisor``): its maximum is the model's value rounded
  down to the bid step, no noise.  A field of these is "an advisor-modelled field".

Both decide from their own hand, seat, the calls so far (and, objective "win", the
scores) only, as :class:`analyzer.analyses.tournament.Agent` requires.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from analyzer.analyses.lookahead import lookahead_max_bid, simulate_lookahead
from analyzer.analyses.opponents import model_value, resolve_opponents
from analyzer.analyses.tournament import Agent
from analyzer.mechanics.game import counts_to_planes
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet


@dataclass
class LookaheadAgent(Agent):
    """The look-ahead advisor; decisions cached and seeded by (deal, seat, calls), as
    :class:`~analyzer.analyses.tournament.AdvisorAgent`'s."""

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
