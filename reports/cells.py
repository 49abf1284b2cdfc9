"""The text of a report's table cells: percentages, intervals, numbers, quantiles.

Shared by the report of every run kind (reports.render, reports.census_sections), so a
share, an interval or a percentile reads the same in every table.
"""
from __future__ import annotations

import math

from analyzer.analyses.stats import quantile_ci_counts

#: bins with fewer deals are not plotted (their estimates are too rough to draw)
MIN_DEALS_PLOTTED = 20
#: the percentile columns of a report's distribution tables (:func:`quantile_cells`)
PCT_HEADERS = ("10th pct [95% CI]", "median [95% CI]", "90th pct [95% CI]")


def pct(x: float, digits: int = 3) -> str:
    """A probability as a percentage in fixed notation with about four significant
    digits (at most ``digits`` decimals for values of 1 % and more), without trailing
    zeros: 0.0083 -> ``0.83%``, 0.5 -> ``50%``, 0.12345 -> ``12.345%``."""
    if x != x:
        return "–"
    if x == 0:
        return "0%"
    v = 100 * x
    if abs(v) >= 1:
        text = f"{v:.{digits}f}"
    else:
        dec = min(max(digits, 3 - math.floor(math.log10(abs(v)))), 12)
        text = f"{v:.{dec}f}"
    # trailing zeros claim digits nobody measured (0.0083 printed as "0.8300%"): drop them
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"{text}%"


def ci_cell(e) -> str:
    """An estimate's 95% interval as ``[lo%, hi%]`` (:func:`pct` of each end)."""
    return f"[{pct(e.lo)}, {pct(e.hi)}]"


def num(x: float, d: int = 2) -> str:
    """``x`` with thousands separators and ``d`` decimals; a dash for NaN."""
    return "–" if x != x else f"{x:,.{d}f}"


def quantile_cells(bins, counts, probs) -> list[str]:
    """Table cells "value [lo, hi]": each quantile with its distribution-free 95% interval
    (:func:`analyzer.analyses.stats.quantile_ci_counts`), so percentile columns carry their
    uncertainty like every mean and share in a report."""
    cells = []
    for p in probs:
        q = quantile_ci_counts(bins, counts, p)
        cells.append("–" if q.n == 0 else f"{q.value:.0f} [{q.lo:.0f}, {q.hi:.0f}]")
    return cells
