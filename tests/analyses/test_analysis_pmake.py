"""One P(make) (analyzer/analyses/analysis.py and advice.py, R4, R8): the contract the
exchange picks at the bid succeeds; a surrender is not made; printed as a percentage."""
from __future__ import annotations

import numpy as np

from analyzer.analyses.analysis import analyze_hand, simulate_soloist, summarize
from analyzer.examples import example

WEAK = example("weak")["hand"]


def test_analyze_p_make_counts_surrender_as_not_made_r4():
    """analyze said P(make) 18.5% at 630 for a hand that surrenders every time there."""
    sim = simulate_soloist(WEAK, None, "forehand", 300, 0, 1)
    res = summarize(sim)
    for j, row in res.bids.iterrows():
        score = sim["score"][:, j]
        contract = sim["contract"][:, j]
        assert row.p_make == (score > 0).mean()
        if (contract == 1).all():          # surrender at every sample: never made
            assert row.p_make == 0.0
    sur = np.array([(sim["contract"][:, j] == 1).mean() for j in range(len(res.bids))])
    assert sur.max() > 0, "the weak hand surrenders at some bid"


def test_analyze_prints_p_make_as_a_percentage_like_advise():
    res = analyze_hand(WEAK, None, "forehand", samples=100, seed=0)
    line = next(x for x in res.summary().splitlines() if x.startswith(" 150"))
    assert "%" in line.split("]")[0]
