"""The rows of a run's part (analyzer.batch.runs): ``(metric, bin, count, sq)``.

Every chunk kind (the meld census, the three-player deals, the deals of partners, the
stock game's deals) turns its aggregates into rows here, so one code path writes them:

- :func:`count_rows`: a counts array indexed by bin (the kernels' histograms), non-zero
  bins only;
- :func:`hist_rows`: an exact-value histogram of one value per deal (``sq`` = ``count``,
  one unit per deal);
- :func:`sum_rows`: sums and sums of squares of a value per key (a ``sum.*`` metric:
  ``count`` = the sum, ``sq`` = the sum of squares, bin = the key).

Rows come in increasing bin order.
"""
from __future__ import annotations

import numpy as np


def bin_rows(name: str, bins, counts, sq, out: list) -> None:
    """Append ``(name, bin, count, sq)`` for each bin (ints), in the given order."""
    out.extend((name, int(b), int(c), int(s)) for b, c, s in zip(bins, counts, sq))


def count_rows(name: str, counts: np.ndarray, sq: np.ndarray | None, out: list) -> None:
    """Rows of the non-zero bins of ``counts`` (bin = index); ``sq`` None: one unit per
    deal, so ``sq`` = ``count``."""
    nz = np.flatnonzero(counts)
    bin_rows(name, nz, counts[nz], counts[nz] if sq is None else sq[nz], out)


def hist_rows(name: str, values, out: list) -> None:
    """An exact-value histogram of ``values`` (one per deal: ``sq`` = ``count``)."""
    values = np.asarray(values, dtype=np.int64)
    if values.size == 0:
        return
    bins, counts = np.unique(values, return_counts=True)
    bin_rows(name, bins, counts, counts, out)


def sum_rows(name: str, keys: np.ndarray, values: np.ndarray, out: list) -> None:
    """Sum and sum of squares of ``values`` per key (bin = key): a ``sum.*`` metric."""
    if keys.size == 0:
        return
    ks, inv = np.unique(keys, return_inverse=True)
    v = values.astype(np.int64)
    s1 = np.zeros(ks.size, dtype=np.int64)
    np.add.at(s1, inv, v)
    s2 = np.zeros(ks.size, dtype=np.int64)
    np.add.at(s2, inv, v * v)
    bin_rows(name, ks, s1, s2, out)
