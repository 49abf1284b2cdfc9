"""The report sections of a team game's ``deals`` run (kreuz-48, kreuz-40, pinochle-80).

Reads the ``team.*`` metrics of analyzer.batch.team_runs (one unit per deal) and adds to
a report :class:`~reports.render.Doc`: contract shares, P(make) by winning bid, team
melds, card points and scores per team (bidding / other team and team 0 = seats 0 + 2 /
team 1 = seats 1 + 3, V1).  Every estimate states its n and a 95% confidence interval:
Wilson's interval for shares, the normal interval of the mean for means (the deal is the
unit; each deal adds at most one value to a metric).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from analyzer.batch.runs import Estimate, RunResult, mean_from_sums, wilson
from analyzer.batch.team_runs import CONTRACT_NAMES, CONTRACT_THROWN_IN
from analyzer.mechanics.cards import SUIT_SYMBOLS

from . import charts
from .cells import MIN_DEALS_PLOTTED, PCT_HEADERS, ci_cell, num, pct, quantile_cells

Z95 = 1.959964


def _dist(run: RunResult, metric: str) -> tuple[Estimate, np.ndarray, np.ndarray]:
    """Mean (95% CI) of a one-per-deal histogram over the deals it counts, and its bins."""
    b, c = run.counts(metric)
    e = mean_from_sums(float(np.dot(b.astype(float), c)),
                       float(np.dot(b.astype(float) ** 2, c)), int(c.sum()))
    return e, b, c


def _at_least(b: np.ndarray, c: np.ndarray, x: int) -> Estimate:
    return wilson(int(c[b >= x].sum()), int(c.sum()))


def team_sections(doc, run: RunResult, out: Path) -> None:
    """Append the team sections of ``run`` (a team ``deals`` run) to ``doc``."""
    rules = run.rules
    n = run.n_deals
    pol = run.manifest.get("policy", {})
    dabb = rules.tapp_size > 0
    doc.p(f"Each deal of {rules.name} ({rules.section}) is dealt {rules.hand_size} cards a "
          f"seat{f' + a Dabb of {rules.tapp_size}' if dabb else ''}, bid by four "
          f"rule-of-thumb bidders ({pol.get('bidding', '?')}; {pol.get('auction', '?')}), "
          + ("exchanged by the soloist, who then plays, goes out or plays a Durch "
             "(V4.2-V4.6, V5.3-V5.7), " if dabb else "")
          + "played by the team policy at every seat and scored per team. Seats 0 and 2 "
          "are team 0, seats 1 and 3 team 1 (V1); seat 0 is forehand. Shares have Wilson's "
          "95% interval, means the normal 95% interval; n is given for each, the deal is "
          "the unit.")

    doc.h2("Contracts")
    rows = []
    for j, name in enumerate(CONTRACT_NAMES):
        if not dabb and j not in (0, CONTRACT_THROWN_IN):
            continue
        if j == 2 and rules.durch_value == 0:
            continue
        if j == 3 and rules.open_durch_value == 0:
            continue
        k = run.cell("team.contract", j)[0]
        e = wilson(k, n)
        rows.append([name, f"{k:,} of {n:,}", pct(e.value), ci_cell(e)])
    nbid = int(sum(run.hist("team.bidder")))
    for t in range(2):
        k = run.cell("team.bidding_team", t)[0]
        e = wilson(k, nbid)
        rows.append([f"team {t} (seats {t} + {t + 2}) bids", f"{k:,} of {nbid:,}", pct(e.value),
                     ci_cell(e)])
    for s in range(4):
        k = run.cell("team.bidder", s)[0]
        e = wilson(k, nbid)
        rows.append([f"seat {s}{' (forehand)' if s == 0 else ''} bids", f"{k:,} of {nbid:,}",
                     pct(e.value), ci_cell(e)])
    ntr = int(sum(run.hist("team.trump")))
    for s in range(4):
        k = run.cell("team.trump", s)[0]
        e = wilson(k, ntr)
        rows.append([f"trump {SUIT_SYMBOLS[s]}", f"{k:,} of {ntr:,}", pct(e.value), ci_cell(e)])
    dw = int(sum(run.hist("team.by_bid.durch_won")))
    dl = int(sum(run.hist("team.by_bid.durch_lost")))
    if dw + dl:
        e = wilson(dw, dw + dl)
        rows.append(["Durch won (of Durch deals)", f"{dw:,} of {dw + dl:,}", pct(e.value), ci_cell(e)])
    doc.table(["", "deals", "share", "95% CI"], rows)

    doc.h2("Outcome by winning bid")
    bids, nb = run.counts("team.bid.win")
    rows, est, lo, hi = [], [], [], []
    series = {"bidding team's score": ([], []), "other team's score": ([], []),
              "bidding team's melds (played)": ([], [])}
    for b, k in zip(bids, nb):
        made, failed, out_, dwon, dlost = (run.cell(f"team.by_bid.{kind}", b)[0] for kind in
                                           ("made", "failed", "out", "durch_won", "durch_lost"))
        pm = wilson(made + dwon, int(k))
        sb = run.sum_mean("sum.team.score.bidding.by_bid", b, int(k))
        so = run.sum_mean("sum.team.score.other.by_bid", b, int(k))
        me = run.sum_mean("sum.team.melds.bidding.by_bid", b, made + failed)
        est.append(pm.value)
        lo.append(pm.lo)
        hi.append(pm.hi)
        for key, e in zip(series, (sb, so, me)):
            series[key][0].append(e.value)
            series[key][1].append(Z95 * e.se if e.se == e.se else 0.0)
        row = [str(b), f"{k:,}", pct(k / n, 2), f"{made:,}", f"{failed:,}"]
        if dabb:
            row += [f"{out_:,}", f"{dwon}/{dlost}"]
        row += [pct(pm.value, 1), ci_cell(pm), f"{num(sb.value, 1)} ± {num(Z95 * sb.se, 1)}",
                f"{num(so.value, 1)} ± {num(Z95 * so.se, 1)}"]
        rows.append(row)
    if len(bids):
        tot = {kind: int(sum(run.hist(f"team.by_bid.{kind}"))) for kind in
               ("made", "failed", "out", "durch_won", "durch_lost")}
        kk = int(nb.sum())
        pm = wilson(tot["made"] + tot["durch_won"], kk)
        sums = [run.table.loc[m] if m in run.table.index.get_level_values(0) else None
                for m in ("sum.team.score.bidding.by_bid", "sum.team.score.other.by_bid")]
        sb, so = (mean_from_sums(float(t["count"].sum()), float(t["sq"].sum()), kk)
                  if t is not None else mean_from_sums(0.0, 0.0, 0) for t in sums)
        row = ["all bids", f"{kk:,}", pct(kk / n, 2), f"{tot['made']:,}", f"{tot['failed']:,}"]
        if dabb:
            row += [f"{tot['out']:,}", f"{tot['durch_won']}/{tot['durch_lost']}"]
        row += [pct(pm.value, 1), ci_cell(pm), f"{num(sb.value, 1)} ± {num(Z95 * sb.se, 1)}",
                f"{num(so.value, 1)} ± {num(Z95 * so.se, 1)}"]
        rows.append(row)
    head = ["bid", "deals", "share", "made", "failed"]
    if dabb:
        head += ["gone out", "Durch won/lost"]
    head += ["P(make)", "95% CI", "bidding team score (mean ± 95%)",
             "other team score (mean ± 95%)"]
    doc.table(head, rows)
    doc.p("P(make) = the bidding team's contract fulfilled: a played deal scored above 0 "
          + ("(total ≥ bid with at least one trick, V4.6 / V5.7) or a Durch with every trick "
             "(V4.6); going out counts as not made." if dabb else
             "(melds + counters ≥ bid with a counting trick, V6.6)."))
    keep = np.asarray(nb) >= MIN_DEALS_PLOTTED
    sel = lambda xs: [x for x, kk in zip(xs, keep) if kk]  # noqa: E731
    if keep.any():
        stem = charts.rate_by_bid(out, "team_p_make_by_bid", "P(make) by winning bid (bidding team)",
                                  sel(bids), sel(est), sel(lo), sel(hi), sel(nb))
        doc.img(stem, "P(make) by winning bid with 95% CIs (top) and the number of deals won "
                      f"at each bid (bottom, log scale); bids won in fewer than "
                      f"{MIN_DEALS_PLOTTED} deals are in the table only.")
        stem = charts.mean_by_bid(out, "team_score_by_bid", "Team scores and melds by winning bid",
                                  sel(bids), [(k, sel(v[0]), sel(v[1])) for k, v in series.items()],
                                  "points", diagonal=True)
        doc.img(stem, "Mean deal score of the bidding and the other team, and the bidding "
                      "team's melds in played deals (95% CIs), by winning bid; the dotted line "
                      "is the bid.")

    doc.h2("Team melds (played deals)")
    n_played = int(sum(run.hist("team.melds.bidding")))
    step = 100 if rules.bid_start >= 500 else 50
    thresholds = [step, 2 * step, 4 * step]
    rows, ser = [], []
    for name, metric in (("bidding team", "team.melds.bidding"), ("other team", "team.melds.other"),
                         ("team 0 (seats 0 + 2)", "team.melds.team.0"),
                         ("team 1 (seats 1 + 3)", "team.melds.team.1")):
        e, b, c = _dist(run, metric)
        share0 = wilson(int(c[b == 0].sum()), int(c.sum()))
        rows.append([name, f"{int(c.sum()):,}", num(e.value), f"± {num(Z95 * e.se)}",
                     pct(share0.value, 1),
                     *[pct(_at_least(b, c, x).value, 1) for x in thresholds],
                     *quantile_cells(b, c, (0.1, 0.5, 0.9))])
        if metric in ("team.melds.bidding", "team.melds.other"):
            ser.append((name, b, c))
    doc.table(["team", "deals", "mean", "95% CI ±", "share 0",
               *[f"P(≥ {x})" for x in thresholds], *PCT_HEADERS], rows)
    doc.p("Team melds = both partners' melds with the named trump "
          + ("(the soloist's kept cards and a trump low card of its discard, V4.4, V2.3)"
             if dabb else "(V6.3)")
          + ", as laid down, before the rule that a team without a "
          + ("trick" if dabb else "counting trick") + " scores no melds. The shares "
          f"(share 0, P(≥ x)) are over n = {n_played:,} played deals; their 95% intervals are "
          f"at most ± {pct(Z95 * 0.5 / np.sqrt(max(n_played, 1)), 1)}.")
    stem = charts.histogram(out, "team_melds", "Team melds per played deal", ser,
                            "team melds (points, bars 10 wide)", width=10)
    doc.img(stem, "Melds of the bidding team and of the other team in played deals; the "
                  "x-axis stops at the 99.9th percentile.")

    doc.h2("Card points and tricks (played deals)")
    rows, ser = [], []
    for name, metric in (("bidding team" + (" (incl. the discard)" if dabb else ""),
                          "team.points.bidding"), ("other team", "team.points.other")):
        e, b, c = _dist(run, metric)
        rows.append([name, f"{int(c.sum()):,}", num(e.value), f"± {num(Z95 * e.se)}",
                     *quantile_cells(b, c, (0.1, 0.5, 0.9))])
        ser.append((name, b, c))
    e, b, c = _dist(run, "team.tricks.bidding")
    rows.append([("tricks" if dabb else "counting tricks") + " of the bidding team",
                 f"{int(c.sum()):,}", num(e.value), f"± {num(Z95 * e.se)}",
                 *quantile_cells(b, c, (0.1, 0.5, 0.9))])
    doc.table(["", "deals", "mean", "95% CI ±", *PCT_HEADERS], rows)
    e0 = wilson(int(c[b == 0].sum()), int(c.sum()))
    doc.p(f"The bidding team took no {'trick' if dabb else 'counting trick'} in "
          f"{pct(e0.value)} of played deals {ci_cell(e0)} (n = {int(c.sum()):,}). Card points "
          f"of a deal sum to {rules.deal_points}.")
    stem = charts.histogram(out, "team_card_points", "Card points per played deal", ser,
                            "card points (bars 10 wide)", width=10, clip_quantile=1.0)
    doc.img(stem, "Card points of the bidding team and of the other team in played deals.")

    doc.h2("Scores per team")
    rows, ser = [], []
    for name, metric, units in (("team 0 (seats 0 + 2), every deal", "team.score.team.0", n),
                                ("team 1 (seats 1 + 3), every deal", "team.score.team.1", n),
                                ("bidding team, deals bid", "team.score.bidding", nbid),
                                ("other team, deals bid", "team.score.other", nbid)):
        e, b, c = _dist(run, metric)
        neg = wilson(int(c[b < 0].sum()), int(c.sum()))
        rows.append([name, f"{int(c.sum()):,}", num(e.value, 1), f"± {num(Z95 * e.se, 1)}",
                     pct(neg.value, 1), ci_cell(neg),
                     *quantile_cells(b, c, (0.1, 0.5, 0.9))])
        if metric in ("team.score.bidding", "team.score.other"):
            ser.append((name.split(",")[0], b, c))
    doc.table(["team", "deals", "mean score", "95% CI ±", "P(score < 0)", "95% CI",
               *PCT_HEADERS], rows)
    doc.p("A deal's score per team: "
          + ("V4.6 / V5.7 (melds + rounded card points when made, −2 × bid when failed; "
             "going out −bid and the other team its melds + the bonus; a Durch ±)" if dabb
             else "V6.6 (melds + counters when made, −bid when set)")
          + "; thrown-in deals score 0 for both teams.")
    stem = charts.histogram(out, "team_scores", "Deal score per team (deals bid)", ser,
                            "deal score (points, bars 20 wide)", width=20)
    doc.img(stem, "Scores of the bidding team and of the other team per deal bid; the x-axis "
                  "stops at the 99.9th percentile on the right.")
