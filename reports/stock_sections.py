"""The report sections of a ``deals`` run of a game with a stock (binokel-2, V7).

Reads the ``stock.*`` metrics of analyzer.batch.stock_runs (one unit per deal) and adds
to a report :class:`~reports.render.Doc`: points per deal by seat (melds, card points,
last trick, Dissles, claims; V7.3-V7.5), the melds each seat showed (V7.3) with a chart,
and the distributions of deal points and meld points per seat with charts.  Chosen by
reports.render because the run's RuleSet has a stock (``RunResult.stock``), never by the
game's name.  Every estimate states n and a 95% interval (Wilson for shares, normal for
means; the deal is the unit).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from analyzer.batch.runs import Estimate, RunResult, mean_from_sums, wilson
from analyzer.batch.stock_runs import SEATS, meld_slug

from . import charts
from .cells import MIN_DEALS_PLOTTED, PCT_HEADERS, ci_cell, num, pct, quantile_cells

Z95 = 1.959964


def _mean(run: RunResult, metric: str) -> Estimate:
    """Mean (95% CI) of a one-per-deal histogram metric over the deals it counts."""
    b, c = run.counts(metric)
    return mean_from_sums(float(np.dot(b.astype(float), c)),
                          float(np.dot(b.astype(float) ** 2, c)), int(c.sum()))


def _pm(e: Estimate, d: int = 1) -> str:
    return f"{num(e.value, d)} ± {num(Z95 * e.se, d)}"


def stock_sections(doc, run: RunResult, out: Path) -> None:
    """Append the sections of ``run`` (a stock game's ``deals`` run) to ``doc``."""
    from analyzer.analyses.stock_analysis import meld_kinds

    game = run.rules
    names = game.table.seat_names
    n = run.n_deals
    doc.p(f"Each deal of {game.name} ({game.section}) is dealt {game.table.hand_size} cards a "
          f"seat, a turned trump and a stock of {game.stock.size - 1} + the turned card "
          "(V7.1), played to its end by the run's policy at both seats (melds shown one per "
          "won trick while the stock lasts, V7.3; the exact endgame after it, V7.4) from a "
          f"game score of 0 : 0, and scored (V7.4). Seat 0 is forehand (the non-dealer), seat "
          f"1 the dealer. n = {n:,} deals; means have the normal 95% interval, shares "
          "Wilson's; the deal is the unit.")

    doc.h2("Points per deal by seat (V7.4)")
    rows = []
    for s in SEATS:
        last = wilson(run.cell("stock.last", s)[0], n)
        rows.append([f"{s} {names[s]}", _pm(_mean(run, f"stock.points.seat.{s}")),
                     _pm(_mean(run, f"stock.melds.seat.{s}")),
                     _pm(_mean(run, f"stock.cards.seat.{s}")),
                     _pm(_mean(run, f"stock.dissle.seat.{s}"), 3),
                     f"{pct(last.value, 1)} {ci_cell(last)}",
                     f"{run.cell('stock.claim', s)[0]:,}"])
    doc.table(["seat", "points", "melds (Dissles incl.)", "card points + last trick",
               "Dissles scored", "won the last trick", "claims (V7.5)"], rows)
    d = _mean(run, "stock.diff")
    doc.p(f"Forehand minus dealer: {_pm(d)} points a deal (n = {d.n:,}). Claims are made only "
          "at 1000 (V7.5); from 0 : 0 a deal rarely gets there.")

    doc.h2("Melds shown (V7.3)")
    kinds = meld_kinds(game)
    rows, labels, est, lo, hi = [], [], [], [], []
    for kind in kinds:
        row = [kind]
        for s in SEATS:
            m = f"stock.shown.{meld_slug(kind)}.seat.{s}"
            none = run.cell(m, 0)[0]
            got = int(sum(run.hist(m))) - none
            e = wilson(got, n)
            mean = _mean(run, m)
            row += [f"{pct(e.value, 2)} {ci_cell(e)}", _pm(mean, 3)]
        tot = [run.cell(f"stock.shown.{meld_slug(kind)}.seat.{s}", 0)[0] for s in SEATS]
        row.append("never shown" if all(t == n for t in tot) else "")
        rows.append(row)
        e_any = wilson(sum(n - t for t in tot), 2 * n)
        if e_any.value > 0:
            labels.append(kind)
            est.append(e_any.value)
            lo.append(e_any.lo)
            hi.append(e_any.hi)
    head = ["kind"]
    for s in SEATS:
        head += [f"{names[s]}: deals with one or more [95% CI]", f"{names[s]}: shown per deal ± 95%"]
    doc.table(head + [""], rows)
    if labels and n >= MIN_DEALS_PLOTTED:
        stem = charts.frequency_bars(out, "stock_melds", "Melds shown per seat and deal (V7.3)",
                                     labels, est, lo, hi, n_label=f"{2 * n:,} seat-deals")
        doc.img(stem, "Share of seat-deals in which the meld kind was shown at least once, "
                      "95% CI (both seats pooled: the two seats of a deal count as two units).")
    elif labels:
        doc.p(f"(no chart below {MIN_DEALS_PLOTTED} deals)")

    doc.h2("Point distributions (V7.4)")
    probs = (0.1, 0.5, 0.9)
    rows = []
    for what, label in (("points", "deal points"), ("melds", "meld points"),
                        ("cards", "card points")):
        for s in SEATS:
            b, c = run.counts(f"stock.{what}.seat.{s}")
            rows.append([f"{label}, {names[s]}", f"{int(c.sum()):,}",
                         _pm(_mean(run, f"stock.{what}.seat.{s}")),
                         *quantile_cells(b, c, probs),
                         f"{int(b.min()) if len(b) else 0}", f"{int(b.max()) if len(b) else 0}"])
    doc.table(["quantity", "n", "mean ± 95%", *PCT_HEADERS, "min", "max"], rows)
    for what, label, width in (("points", "deal points", 25.0), ("melds", "meld points", 20.0)):
        series = [(names[s], *run.counts(f"stock.{what}.seat.{s}")) for s in SEATS]
        marks = [(f"mean {names[s]}", _mean(run, f"stock.{what}.seat.{s}").value) for s in SEATS]
        stem = charts.histogram(out, f"stock_dist_{what}", f"{label.capitalize()} per deal by seat "
                                f"(V7.4), n = {n:,}", series, label, width=width, marks=marks)
        doc.img(stem, f"Distribution of {label} per deal, forehand and dealer, "
                      f"{int(width)}-point bars; dashed lines the means.")
