"""Charts of batch runs (matplotlib, Agg): each chart is written as PNG and SVG.

Every function takes plain numbers (no run objects), draws one figure, saves
``<out>/<stem>.png`` and ``<out>/<stem>.svg`` and returns ``stem``.  Estimates are drawn
with their 95% confidence intervals; exact values (analyzer/analyses/exact.py), where given, as
black markers on top, so a reader sees at a glance whether they agree.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

COLOR = "#3b6ea5"
COLOR2 = "#d1813c"
COLOR3 = "#5a9e5a"


def _save(fig, out: Path, stem: str) -> str:
    out.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(out / f"{stem}.png", dpi=110)
    fig.savefig(out / f"{stem}.svg")
    plt.close(fig)
    return stem


def frequency_bars(out: Path, stem: str, title: str, labels: Sequence[str],
                   est: Sequence[float], lo: Sequence[float], hi: Sequence[float],
                   exact: Sequence[float | None] = (), n_label: str = "") -> str:
    """Horizontal bars of probabilities (log scale) with 95% CI whiskers and exact marks."""
    k = len(labels)
    fig, ax = plt.subplots(figsize=(8.0, 0.36 * k + 1.4))
    y = np.arange(k)[::-1]
    est = np.asarray(est, float)
    err = np.vstack([est - np.asarray(lo, float), np.asarray(hi, float) - est])
    shown = list(lo) + list(est) + [e for e in exact if e is not None]
    floor = max(min([v for v in shown if v > 0] or [1e-7]) / 3, 1e-9)
    ax.barh(y, np.maximum(est, floor), color=COLOR, alpha=0.85, label="Monte Carlo")
    ax.errorbar(np.maximum(est, floor), y, xerr=np.clip(err, 0, None), fmt="none",
                ecolor="black", elinewidth=1, capsize=3, label="95% CI")
    if exact:
        ex = [(yy, e) for yy, e in zip(y, exact) if e is not None and e > 0]
        if ex:
            ax.plot([e for _, e in ex], [yy for yy, _ in ex], "D", color="black",
                    markersize=4.5, label="exact")
    ax.set_xscale("log")
    ax.set_xlim(left=floor)
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=8.5)
    ax.set_xlabel("probability (log scale)" + (f" — {n_label}" if n_label else ""))
    ax.set_title(title, fontsize=11, pad=22)
    ax.grid(axis="x", which="major", alpha=0.3)
    ax.legend(fontsize=8, loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=3, frameon=False,
              borderaxespad=0.2)
    return _save(fig, out, stem)


def histogram(out: Path, stem: str, title: str, series: Sequence[tuple[str, np.ndarray, np.ndarray]],
              xlabel: str, width: float = 10.0, exact: dict[int, float] | None = None,
              clip_quantile: float = 0.999, marks: Sequence[tuple[str, float]] = ()) -> str:
    """Relative frequencies of one or more integer-valued distributions.

    ``series``: (label, bins, counts).  Values are grouped into bars ``width`` wide; the
    x-axis is cut at the ``clip_quantile`` of the first series (the rare tail is in the
    tables).  ``exact`` (value -> probability) is drawn as black dots, ``marks`` as
    dashed vertical lines (e.g. means).
    """
    fig, ax = plt.subplots(figsize=(8.0, 3.8))
    colors = (COLOR, COLOR2, COLOR3, "#8c6bb1")
    hi_x = 0.0
    lo_x = -width          # negative values (a team's score) widen the axis to the left
    nser = len(series)
    for j, (label, bins, counts) in enumerate(series):
        bins = np.asarray(bins, np.int64)
        counts = np.asarray(counts, float)
        total = counts.sum()
        if total == 0:
            continue
        grp = (bins // width).astype(np.int64)
        keys, inv = np.unique(grp, return_inverse=True)
        sums = np.bincount(inv, weights=counts)
        x = keys * width
        bw = width * 0.9 / nser
        ax.bar(x + j * bw - (nser - 1) * bw / 2, sums / total, width=bw, color=colors[j % 4],
               alpha=0.85, label=f"{label} (n={int(total):,})")
        cdf = np.cumsum(counts[np.argsort(bins)]) / total
        q = np.sort(bins)[min(np.searchsorted(cdf, clip_quantile), len(bins) - 1)]
        hi_x = max(hi_x, float(q) + width)
        lo_x = min(lo_x, float(x.min()) - width)
    if exact:
        ev = np.array(sorted(exact))
        ep = np.array([float(exact[v]) for v in ev])
        grp = (ev // width).astype(np.int64)
        keys, inv = np.unique(grp, return_inverse=True)
        ax.plot(keys * width, np.bincount(inv, weights=ep), "o", color="black",
                markersize=3.5, label="exact")
    styles = ("--", ":", "-.")
    for j, (label, v) in enumerate(marks):
        ax.axvline(v, color="black", linestyle=styles[j % 3], linewidth=1, label=label)
    if hi_x > 0:
        ax.set_xlim(lo_x, hi_x)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share")
    ax.set_title(title, fontsize=11)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    return _save(fig, out, stem)


def rate_by_bid(out: Path, stem: str, title: str, bids: Sequence[int], est: Sequence[float],
                lo: Sequence[float], hi: Sequence[float], counts: Sequence[int],
                ylabel: str = "P(make)") -> str:
    """A rate by bid value with 95% CI whiskers; the number of deals per bid below."""
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(8.0, 5.2), sharex=True,
                                  gridspec_kw={"height_ratios": [3, 1.3]})
    bids = np.asarray(bids, float)
    est = np.asarray(est, float)
    err = np.vstack([est - np.asarray(lo, float), np.asarray(hi, float) - est])
    ax.errorbar(bids, est, yerr=np.clip(err, 0, None), fmt="o-", color=COLOR, ecolor="black",
                capsize=3, markersize=4, linewidth=1.2)
    ax.set_ylabel(ylabel + " (95% CI)")
    ax.set_ylim(min(0.5, float(np.nanmin(lo)) - 0.02) if len(lo) else 0, 1.01)
    ax.grid(alpha=0.3)
    ax.set_title(title, fontsize=11)
    ax2.bar(bids, counts, width=8, color=COLOR2)
    ax2.set_yscale("log")
    ax2.set_ylabel("deals")
    ax2.set_xlabel("winning bid")
    ax2.grid(axis="y", alpha=0.3)
    return _save(fig, out, stem)


def mean_by_bid(out: Path, stem: str, title: str, bids: Sequence[int],
                series: Sequence[tuple[str, Sequence[float], Sequence[float]]],
                ylabel: str, diagonal: bool = False) -> str:
    """Means by bid: series (label, mean, half-width of the 95% CI)."""
    fig, ax = plt.subplots(figsize=(8.0, 3.8))
    colors = (COLOR, COLOR2, COLOR3)
    for j, (label, m, h) in enumerate(series):
        ax.errorbar(bids, m, yerr=h, fmt="o-", color=colors[j % 3], capsize=3, markersize=3.5,
                    linewidth=1.1, label=label)
    if diagonal:
        ax.plot(bids, bids, ":", color="gray", label="bid")
    ax.axhline(0, color="black", linewidth=0.7)
    ax.set_xlabel("winning bid")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=11)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return _save(fig, out, stem)


def deal_value(path: Path, title: str, tricks: Sequence[int], values: Sequence[float],
               ses: Sequence[float], marks: Sequence[tuple[float, float, float, str]] = (),
               ylabel: str = "card points of the soloist's side") -> Path:
    """A deal's value trick by trick (``binokel review --plot``), written to ``path`` (PNG).

    ``tricks``/``values``/``ses``: the value before each trick and after the last, with
    its standard error (0 where exact); drawn as a line with a band of +- 1.96 SE (95%).
    ``marks``: (x, y, loss, label) -- a decision that lost ``loss`` points, a marker whose
    area grows with the loss, labelled (e.g. by seat).  Returns ``path``.
    """
    fig, ax = plt.subplots(figsize=(8.0, 3.8))
    x = np.asarray(tricks, float)
    v = np.asarray(values, float)
    se = np.nan_to_num(np.asarray(ses, float))
    ax.plot(x, v, "o-", color=COLOR, markersize=3.5, linewidth=1.3, label="value")
    if se.any():
        ax.fill_between(x, v - 1.96 * se, v + 1.96 * se, color=COLOR, alpha=0.2,
                        label="95% CI (PIMC)")
    if marks:
        top = max(m[2] for m in marks) or 1.0
        ax.scatter([m[0] for m in marks], [m[1] for m in marks],
                   s=[30 + 300 * m[2] / top for m in marks], color=COLOR2, alpha=0.6,
                   edgecolors="black", linewidths=0.6, label="points lost", zorder=3)
        for mx, my, loss, lab in marks:
            ax.annotate(f"{lab} -{loss:.0f}", (mx, my), fontsize=7.5, xytext=(4, 6),
                        textcoords="offset points")
    ax.set_xlabel("trick (the value before it; the last point: the result)")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=11)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110, format="png")
    plt.close(fig)
    return path
