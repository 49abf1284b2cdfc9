"""The rows of a run's part (analyzer/batch/part_rows.py): every chunk kind writes its
histograms and sums through them; checked against plain counts of random values."""
from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np

from analyzer.batch.part_rows import count_rows, hist_rows, sum_rows


def test_hist_rows_count_each_value_once_per_deal_in_bin_order():
    rng = np.random.default_rng(1)
    values = rng.integers(-40, 40, size=500)
    rows: list = []
    hist_rows("m", values, rows)
    expect = sorted(Counter(int(v) for v in values).items())
    assert rows == [("m", b, c, c) for b, c in expect]
    empty: list = []
    hist_rows("m", np.zeros(0, dtype=np.int64), empty)
    assert empty == []


def test_sum_rows_add_values_and_squares_per_key():
    rng = np.random.default_rng(2)
    keys = rng.integers(0, 6, size=300) * 10
    values = rng.integers(-300, 300, size=300)
    s1, s2 = defaultdict(int), defaultdict(int)
    for k, v in zip(keys, values):
        s1[int(k)] += int(v)
        s2[int(k)] += int(v) * int(v)
    rows: list = []
    sum_rows("sum.m", keys, values, rows)
    assert rows == [("sum.m", k, s1[k], s2[k]) for k in sorted(s1)]


def test_count_rows_keep_the_non_zero_bins_and_their_squares():
    counts = np.array([0, 3, 0, 5, 1])
    rows: list = []
    count_rows("c", counts, None, rows)
    assert rows == [("c", 1, 3, 3), ("c", 3, 5, 5), ("c", 4, 1, 1)]
    rows = []
    count_rows("c", counts, counts * 7, rows)
    assert rows == [("c", 1, 3, 21), ("c", 3, 5, 35), ("c", 4, 1, 7)]
