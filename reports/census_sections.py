"""The report sections of the meld census of a table with partners (``--what melds`` of
kreuz-48, kreuz-40, pinochle-80; analyzer.batch.table_census).

Reads ``hand.meld.*`` (one unit per hand, the seats in play a deal), ``hand.best_trump``,
``side.meld.best`` (one unit per side, two a deal) and ``dabb.points`` (one a deal) and
adds to a report Doc: the meld totals by trump and for the best trump, the partners'
best meld together (V1: seats s and s + 2 meld with one trump), the best trump's shares
and the card points laid aside.  The deal is the sampling unit (the hands of one deal share
a deck): every mean and share carries n and a 95% confidence interval.
"""
from __future__ import annotations

from pathlib import Path

from analyzer.batch.runs import RunResult
from analyzer.mechanics.cards import SUIT_LETTERS, SUIT_SYMBOLS
from analyzer.mechanics.rules import from_flat

from . import charts
from .cells import ci_cell, num, pct, quantile_cells


def table_census_sections(doc, run: RunResult, out: Path) -> None:
    """Append the census sections of ``run`` (a ``melds`` run of a partners game) to ``doc``."""
    game = from_flat(run.rules)
    t = game.table
    n = run.n_deals
    hands = n * t.in_play
    mates = " and ".join(f"{t.seat_names[s]} + {t.seat_names[s + 2]}" for s in (0, 1))
    doc.p(f"{game.name}: {t.in_play} hands of {t.hand_size} cards a deal"
          + (f" and a Dabb of {game.dabb.size}" if game.dabb.size else ", no Dabb")
          + f" ({game.section}); partners {mates} (V1). Each hand is melded with every trump "
            f"by the game's meld table. The hands of a deal share one deck, so the deal is "
            f"the sampling unit of every interval (n = {n:,} deals, {hands:,} hands).")

    doc.h2("Meld totals by trump and for the best trump")
    rows = []
    for j, s in enumerate(list(SUIT_LETTERS) + ["best"]):
        metric = f"hand.meld.{s}"
        e = run.mean(metric)
        bins, counts = run.counts(metric)
        share0 = counts[bins == 0].sum() / max(counts.sum(), 1)
        rows.append([f"{t.hand_size}-card hand", f"trump {SUIT_SYMBOLS[j]}" if s != "best"
                     else "best of the four trumps", num(e.value), f"± {num(1.959964 * e.se)}",
                     pct(share0, 1), *quantile_cells(bins, counts, (0.5, 0.9, 0.99))])
    e = run.mean("side.meld.best")
    bins, counts = run.counts("side.meld.best")
    rows.append(["partners together", "their best common trump", num(e.value),
                 f"± {num(1.959964 * e.se)}", pct(counts[bins == 0].sum() / max(counts.sum(), 1), 1),
                 *quantile_cells(bins, counts, (0.5, 0.9, 0.99))])
    doc.table(["hand", "meld with", "mean", "95% CI ±", "share 0", "median [95% CI]",
               "90th pct [95% CI]", "99th pct [95% CI]"], rows)
    bh, ch = run.counts("hand.meld.best")
    bs, cs = run.counts("side.meld.best")
    mh, ms = run.mean("hand.meld.best"), run.mean("side.meld.best")
    stem = charts.histogram(out, "team_best_meld", f"Best meld total over the four trumps ({game.name})",
                            [(f"{t.hand_size}-card hand", bh, ch), ("partners together", bs, cs)],
                            "meld total (points, bars 10 wide)", width=10,
                            marks=[(f"mean hand: {mh.value:.1f}", mh.value),
                                   (f"mean partners: {ms.value:.1f}", ms.value)])
    doc.img(stem, "Distribution of the best meld total of one hand and of two partners "
                  "melding with one trump; the x-axis stops at the 99.9th percentile.")

    doc.h2("The best trump (by meld total)")
    rows = []
    for j in range(len(SUIT_LETTERS)):
        e = run.proportion("hand.best_trump", j)
        rows.append([f"best trump is {SUIT_SYMBOLS[j]}", pct(e.value), ci_cell(e)])
    doc.table(["event", "share", "95% CI"], rows)
    doc.p("Ties between trumps go to the lower suit index (♣ ♠ ♥ ♦).")

    if game.dabb.size:
        doc.h2(f"Dabb card points ({game.dabb.size} cards)")
        bins, counts = run.counts("dabb.points")
        e = run.mean("dabb.points")
        stem = charts.histogram(out, "dabb_points", f"Card points of the {game.dabb.size}-card Dabb",
                                [("Monte Carlo", bins, counts)], "card points", width=1,
                                clip_quantile=1.0)
        doc.img(stem, "Card points laid aside in the Dabb (bars = Monte Carlo).")
        doc.p(f"Mean Dabb points {e.value:.3f} (95% CI {e.lo:.3f}–{e.hi:.3f}; n = {n:,} deals).")
