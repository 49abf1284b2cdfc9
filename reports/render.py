"""The report of a batch run: tables and charts, written as HTML and Markdown.

:func:`build_report` reads a run folder (analyzer.batch.runs.load_run), computes every
estimate with its 95% confidence interval (the deal is the sampling unit), puts exact
combinatorial values beside the Monte Carlo ones where they exist (analyzer.analyses.exact), draws
the charts (reports/charts.py) and writes ``report.html``, ``report.md`` and the charts
(PNG + SVG) into one folder.  The document is a list of blocks rendered twice, so the
HTML and the Markdown always say the same thing.

A ``deals`` run of a game with partners (V1: kreuz-48, kreuz-40, pinochle-80) gets its
own sections, :func:`team_deal_sections`: it reads the ``team.*`` metrics of
analyzer.batch.runs (partners_deal_rows, one unit per deal) and adds to the :class:`Doc` contract
shares, P(make) by winning bid, team melds, card points and scores per team (bidding /
other team and team 0 = seats 0 + 2 / team 1 = seats 1 + 3, V1).  Every estimate states its n and a 95% confidence interval:
Wilson's interval for shares, the normal interval of the mean for means (the deal is the
unit; each deal adds at most one value to a metric).
"""
from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from analyzer.batch.runs import (CONTRACT_NAMES, CONTRACT_THROWN_IN, Estimate, RunResult,
                                 load_run, mean_from_sums, wilson)
from analyzer.mechanics.cards import SUIT_LETTERS, SUIT_SYMBOLS
from analyzer.errors import BinokelError
from analyzer.analyses.exact import exact_table
from analyzer.examples import DATA_DIR

from . import charts
from .cells import MIN_DEALS_PLOTTED, PCT_HEADERS, ci_cell, num, pct, quantile_cells
from .census_sections import table_census_sections
from .stock_sections import stock_sections

SAMPLE_RUN = DATA_DIR / "sample_run"  # shipped as package data (works after pip install .)

# (label, metric suffix, bin, complement) of the headline meld events (R5)
EVENTS = [
    ("binokel Q♠ J♦ (exactly one)", "binokel", 1, False),
    ("double binokel", "binokel", 2, False),
    ("four aces (not eight)", "rank.A", 1, False),
    ("eight aces", "rank.A", 2, False),
    ("four kings (not eight)", "rank.K", 1, False),
    ("four queens (not eight)", "rank.Q", 1, False),
    ("four jacks (not eight)", "rank.J", 1, False),
    *[(f"family in {SUIT_SYMBOLS[i]} (single)", f"family.{s}", 1, False)
      for i, s in enumerate(SUIT_LETTERS)],
    ("double family in ♠", "family.S", 2, False),
    ("at least one family", "families_total", 0, True),
    ("K-Q pair counted in ♥ (≥ 1)", "pairs.H", 0, True),
    ("two K-Q pairs counted in ♥", "pairs.H", 2, False),
    ("no K-Q pair at all", "pairs_total", 0, False),
    ("exactly three K-Q pairs", "pairs_total", 3, False),
    ("both nines of ♦ (trump nines 20)", "nines.D", 2, False),
    ("no nine of ♦", "nines.D", 0, False),
]


@dataclass
class Doc:
    """Blocks of a report: ('h1'|'h2'|'p', text), ('table', headers, rows), ('img', stem, caption)."""

    blocks: list = field(default_factory=list)
    charts: list = field(default_factory=list)
    progress: object = None     # progress(charts so far), called as each chart is written

    def h1(self, t): self.blocks.append(("h1", t))
    def h2(self, t): self.blocks.append(("h2", t))
    def p(self, t): self.blocks.append(("p", t))
    def table(self, headers, rows): self.blocks.append(("table", headers, rows))

    def img(self, stem, caption):
        self.blocks.append(("img", stem, caption))
        self.charts.append(stem)
        if self.progress is not None:
            self.progress(len(self.charts))


def _params(doc: Doc, run: RunResult) -> None:
    m = run.manifest
    rows = [["run folder", str(run.path)], ["what", m["what"]],
            ["deals (finished chunks)", f"{run.n_deals:,}"],
            ["chunks", f"{run.chunks_done} of {run.n_chunks}"
             + ("" if run.complete else " — PARTIAL RUN, estimates use the finished chunks")],
            ["N asked", f"{m['n']:,}"], ["seed", str(m["seed"])],
            ["chunk size", f"{m['chunk_size']:,}"], ["package version", m.get("version", "?")],
            ["created (UTC)", m.get("created", "?")]]
    if "command" in m:
        rows.append(["command", m["command"]])
    if "policy" in m:
        rows.append(["policies", ", ".join(f"{k}={v}" for k, v in m["policy"].items())])
    doc.h2("Run parameters")
    doc.table(["parameter", "value"], rows)


def _rules(doc: Doc, run: RunResult) -> None:
    doc.h2("Rules (RuleSet of the run)")
    doc.table(["field", "value"],
              [[k, json.dumps(v)] for k, v in run.manifest["rules"].items()])


def _meld_sections(doc: Doc, run: RunResult, out: Path) -> None:
    rules = run.rules
    # the census names its hands h15 (a seat) and h18 (forehand + Tapp) in every variant;
    # their sizes are the variant's (12 and 16 in binokel-40, V5.1)
    exact = {**exact_table(rules.hand_size, rules, prefix="h15"),
             **exact_table(rules.hand_size + rules.tapp_size, rules, prefix="h18")}
    doc.p("Every estimate is a share of hands with a 95% confidence interval. The three "
          "15-card hands of a deal share one deck, so the deal is the sampling unit (the "
          "interval uses the per-deal variance, Wilson's score interval at the effective "
          "sample size). Exact values are combinatorial (hypergeometric over the 24 card "
          "types with two copies each; analyzer/analyses/exact.py).")
    for prefix, what, units in (("h15", "15-card hand (each seat)", 3 * run.n_deals),
                                ("h18", "soloist's 18 cards (forehand + Tapp, all kept)",
                                 run.n_deals)):
        doc.h2(f"Meld frequencies: {what}")
        rows, labels, est, lo, hi, ex = [], [], [], [], [], []
        inside = 0
        for label, suffix, b, comp in EVENTS:
            metric = f"{prefix}.{suffix}"
            e = run.proportion(metric, b, complement=comp)
            x = exact.get((metric, b))
            xv = None
            if x is not None:
                xv = float(1 - x) if comp else float(x)
            ok = "" if xv is None else ("yes" if e.lo <= xv <= e.hi else "no")
            inside += ok == "yes"
            z = "" if xv is None or not e.se else f"{(e.value - xv) / e.se:+.2f}"
            rows.append([label, pct(xv) if xv is not None else "–", pct(e.value), ci_cell(e),
                         z, ok])
            labels.append(label)
            est.append(e.value)
            lo.append(e.lo)
            hi.append(e.hi)
            ex.append(xv)
        doc.table(["event (R5)", "exact", "Monte Carlo", "95% CI", "z", "exact in CI"], rows)
        doc.p(f"{inside} of {len(rows)} exact values lie inside the 95% interval "
              f"(about 95% are expected to). n = {units:,} hands.")
        stem = charts.frequency_bars(out, f"melds_{prefix}", f"Meld frequencies — {what}",
                                     labels, est, lo, hi, ex, n_label=f"n = {units:,} hands")
        doc.img(stem, f"Meld frequencies per {what}: bars = Monte Carlo with 95% CI, "
                      "diamonds = exact.")

    doc.h2("Meld totals (R5) by trump and for the best trump")
    rows = []
    for prefix, what in (("h15", "15 cards"), ("h18", "18 cards")):
        for j, s in enumerate(list(SUIT_LETTERS) + ["best"]):
            e = run.mean(f"{prefix}.meld.{s}")
            name = f"trump {SUIT_SYMBOLS[j]}" if s != "best" else "best of the four trumps"
            bins, counts = run.counts(f"{prefix}.meld.{s}")
            share0 = counts[bins == 0].sum() / max(counts.sum(), 1)
            rows.append([what, name, num(e.value), f"± {num(1.959964 * e.se)}",
                         pct(share0, 1), *quantile_cells(bins, counts, (0.5, 0.9, 0.99))])
    doc.table(["hand", "meld with", "mean", "95% CI ±", "share 0", "median [95% CI]",
               "90th pct [95% CI]", "99th pct [95% CI]"], rows)
    b15, c15 = run.counts("h15.meld.best")
    b18, c18 = run.counts("h18.meld.best")
    m15, m18 = run.mean("h15.meld.best"), run.mean("h18.meld.best")
    stem = charts.histogram(out, "best_meld", "Best meld total over the four trumps (R5)",
                            [("15-card hand", b15, c15), ("18 cards: hand + Tapp", b18, c18)],
                            "meld total (points, bars 10 wide)", width=10,
                            marks=[(f"mean 15: {m15.value:.1f}", m15.value),
                                   (f"mean 18: {m18.value:.1f}", m18.value)])
    doc.img(stem, "Distribution of the best meld total (max over trumps) of a 15-card hand "
                  "and of forehand's 18 cards (hand + Tapp, as if all were kept); the x-axis "
                  "stops at the 99.9th percentile.")

    doc.h2("The best trump (by meld total)")
    rows = []
    for prefix, what in (("h15", "15 cards"), ("h18", "18 cards")):
        for j, s in enumerate(SUIT_LETTERS):
            e = run.proportion(f"{prefix}.best_trump", j)
            rows.append([what, f"best trump is {SUIT_SYMBOLS[j]}", pct(e.value), ci_cell(e)])
        for label, metric, b, comp in (
                ("trump family (single)", "best_trump.family", 1, False),
                ("trump pair(s)", "best_trump.pairs", 0, True),
                ("one trump nine", "best_trump.nines", 1, False),
                ("both trump nines", "best_trump.nines", 2, False)):
            e = run.proportion(f"{prefix}.{metric}", b, complement=comp)
            rows.append([what, label, pct(e.value), ci_cell(e)])
    doc.table(["hand", "event", "share", "95% CI"], rows)
    doc.p("Ties between trumps go to the lower suit index (♣ ♠ ♥ ♦), which favours ♣ "
          "among equal melds, e.g. hands without any trump-dependent meld.")

    doc.h2("Tapp card points (R1)")
    bins, counts = run.counts("tapp.points")
    e = run.mean("tapp.points")
    xd = {b: float(p) for (m, b), p in exact.items() if m == "tapp.points"}
    stem = charts.histogram(out, "tapp_points", "Card points of the 3-card Tapp",
                            [("Monte Carlo", bins, counts)], "card points", width=1,
                            exact=xd, clip_quantile=1.0)
    doc.img(stem, "Card points in the Tapp: bars = Monte Carlo, dots = exact distribution.")
    doc.p(f"Mean Tapp points {e.value:.3f} (95% CI {e.lo:.3f}–{e.hi:.3f}); exact mean "
          f"{sum(b * p for b, p in xd.items()):.3f} (= 3 × 240 / 48).")


def _deal_sections(doc: Doc, run: RunResult, out: Path) -> None:
    n = run.n_deals
    pol = run.manifest.get("policy", {})
    doc.p("Each deal is bid by three rule-of-thumb bidders (best meld + "
          f"{pol.get('trick_estimate', '?')} points, R3), exchanged by the soloist's fast "
          "exchange (discard, trump, surrender or Durch from its 18 cards only, R4), played "
          "by the heuristic card-play policy (R6, R7) and scored (R8, R4). Every estimate "
          "has a 95% confidence interval; the deal is the unit.")
    doc.h2("Contracts")
    rows = []
    for j, name in enumerate(("played with trump", "surrender (R4)", "Durch (R4)")):
        e = wilson(run.cell("contract", j)[0], n)
        rows.append([name, f"{run.cell('contract', j)[0]:,}", pct(e.value), ci_cell(e)])
    for j, name in enumerate(("forehand", "middlehand", "rearhand")):
        e = wilson(run.cell("bid.seat", j)[0], n)
        rows.append([f"soloist is {name}", f"{run.cell('bid.seat', j)[0]:,}", pct(e.value),
                     ci_cell(e)])
    dw = sum(run.hist("by_bid.durch_won"))
    dl = sum(run.hist("by_bid.durch_lost"))
    e = wilson(int(dw), int(dw + dl)) if dw + dl else None
    rows.append(["Durch won (of Durch deals)", f"{int(dw):,} of {int(dw + dl):,}",
                 pct(e.value) if e else "–", ci_cell(e) if e else "–"])
    doc.table(["", "deals", "share", "95% CI"], rows)

    doc.h2("Outcome by winning bid")
    bids, nb = run.counts("bid.win")
    rows, est, lo, hi, sm, sh, mm, mh = [], [], [], [], [], [], [], []
    for b, k in zip(bids, nb):
        made = run.cell("by_bid.made", b)[0]
        failed = run.cell("by_bid.failed", b)[0]
        surr = run.cell("by_bid.surrender", b)[0]
        dwon = run.cell("by_bid.durch_won", b)[0]
        dlost = run.cell("by_bid.durch_lost", b)[0]
        pm = wilson(made + dwon, int(k))
        sc = run.sum_mean("sum.score.soloist.by_bid", b, int(k))
        me = run.sum_mean("sum.melds.soloist.by_bid", b, int(k) - dwon - dlost)
        est.append(pm.value)
        lo.append(pm.lo)
        hi.append(pm.hi)
        sm.append(sc.value)
        sh.append(1.959964 * sc.se if sc.se == sc.se else 0)
        mm.append(me.value)
        mh.append(1.959964 * me.se if me.se == me.se else 0)
        rows.append([str(b), f"{k:,}", pct(k / n, 2), f"{made:,}", f"{failed:,}", f"{surr:,}",
                     f"{dwon}/{dlost}", pct(pm.value, 1), ci_cell(pm),
                     f"{num(sc.value, 1)} ± {num(1.959964 * sc.se, 1)}"])
    doc.table(["bid", "deals", "share", "made", "failed", "surrender", "Durch won/lost",
               "P(make)", "95% CI", "soloist score (mean ± 95%)"], rows)
    doc.p("P(make) = the soloist's contract fulfilled: a played deal with at least one trick "
          "and total ≥ bid (R8), or a Durch with all 15 tricks (R4); a surrender counts as "
          "not made. These are simulated games: every soloist is a simulated player who "
          "exchanges and decides to go out with the fast evaluator (normal model of its "
          "total), over all hands that won the auction at that bid. `binokel analyze` and "
          "`advise` answer another question, P(make) of one given hand at a bid, with the "
          "Monte Carlo exchange (each candidate played on fresh deals), which goes out "
          "less often.")
    keep = np.asarray(nb) >= MIN_DEALS_PLOTTED
    sel = lambda xs: [x for x, k in zip(xs, keep) if k]  # noqa: E731
    stem = charts.rate_by_bid(out, "p_make_by_bid", "P(make) by winning bid (soloist)",
                              sel(bids), sel(est), sel(lo), sel(hi), sel(nb))
    doc.img(stem, "P(make) by winning bid with 95% CIs (top) and the number of deals won at "
                  f"each bid (bottom, log scale); bids won in fewer than {MIN_DEALS_PLOTTED} "
                  "deals are in the table only.")
    stem = charts.mean_by_bid(out, "score_by_bid", "Soloist's mean score and meld by bid",
                              sel(bids), [("score (R8/R4)", sel(sm), sel(sh)),
                                          ("meld kept, named trump", sel(mm), sel(mh))],
                              "points", diagonal=True)
    doc.img(stem, "The soloist's mean deal score and mean meld (95% CI) by winning bid; the "
                  "dotted line is the bid itself.")

    doc.h2("Card points (R7, played deals)")
    rows = []
    series = []
    for name, metric in (("soloist (incl. discard)", "points.soloist"),
                         ("both defenders together", "points.defenders"),
                         ("forehand", "points.seat.0"), ("middlehand", "points.seat.1"),
                         ("rearhand", "points.seat.2")):
        b, c = run.counts(metric)
        e = mean_from_sums(float(np.dot(b, c)), float(np.dot(b.astype(float) ** 2, c)),
                           int(c.sum()))
        rows.append([name, f"{int(c.sum()):,}", num(e.value), f"± {num(1.959964 * e.se)}",
                     *quantile_cells(b, c, (0.1, 0.5, 0.9))])
        if metric in ("points.soloist", "points.defenders"):
            series.append((name, b, c))
    doc.table(["who", "deals", "mean", "95% CI ±", *PCT_HEADERS], rows)
    stem = charts.histogram(out, "card_points", "Card points per played deal (R7)", series,
                            "card points (bars 10 wide)", width=10, clip_quantile=1.0)
    doc.img(stem, "Card points of the soloist (incl. discard) and of the two defenders "
                  "together; each deal's points sum to 250.")
    rows = []
    for p, name in enumerate(("forehand", "middlehand", "rearhand")):
        s1, s2 = run.cell(f"sum.score.seat.{p}", 0)
        e = mean_from_sums(s1, s2, n)
        rows.append([name, num(e.value), f"± {num(1.959964 * e.se)}"])
    doc.h2("Mean deal score by seat (R8/R4)")
    doc.table(["seat", "mean score per deal", "95% CI ±"], rows)


def build_report(run_path: str | Path, out: str | Path, progress=None) -> dict:
    """Write ``report.html``, ``report.md`` and charts (PNG + SVG) for a run folder.

    Returns ``{"html", "markdown", "charts": [png paths]}``.  Raises BinokelError when the
    run folder is unreadable or holds no finished chunk.  ``progress(k)``: called after
    each chart with the number written so far (the command line's progress).
    """
    run = load_run(run_path)
    if run.n_deals == 0:
        raise BinokelError(f"{run_path} holds no finished chunk yet; run binokel simulate first")
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BinokelError(f"cannot create --out {out}: {exc.strerror}") from None
    doc = Doc(progress=progress)
    variant = run.manifest.get("rules", {}).get("name", "binokel-48")
    title = f"Binokel batch run: {run.path.name} ({variant}, {run.what}, {run.n_deals:,} deals)"
    doc.h1(title)
    _params(doc, run)
    if run.stock:     # the run's RuleSet has a stock (V7)
        stock_sections(doc, run, out)
    elif run.teams and run.what == "melds":
        table_census_sections(doc, run, out)
    elif run.teams:
        team_deal_sections(doc, run, out)
    elif run.what == "melds":
        _meld_sections(doc, run, out)
    else:
        _deal_sections(doc, run, out)
    _rules(doc, run)
    md = _markdown(doc)
    (out / "report.md").write_text(md, encoding="utf-8")
    (out / "report.html").write_text(_html(doc, title), encoding="utf-8")
    return {"html": out / "report.html", "markdown": out / "report.md",
            "charts": [out / f"{s}.png" for s in doc.charts]}


def _md_cell(x) -> str:
    return str(x).replace("|", "\\|")


def _markdown(doc: Doc) -> str:
    lines: list[str] = []
    for blk in doc.blocks:
        kind = blk[0]
        if kind == "h1":
            lines += [f"# {blk[1]}", ""]
        elif kind == "h2":
            lines += [f"## {blk[1]}", ""]
        elif kind == "p":
            lines += [blk[1], ""]
        elif kind == "table":
            headers, rows = blk[1], blk[2]
            lines.append("| " + " | ".join(_md_cell(h) for h in headers) + " |")
            lines.append("|" + "---|" * len(headers))
            lines += ["| " + " | ".join(_md_cell(c) for c in r) + " |" for r in rows]
            lines.append("")
        elif kind == "img":
            lines += [f"![{blk[2]}]({blk[1]}.png)", "", f"*{blk[2]}* ([SVG]({blk[1]}.svg))", ""]
    return "\n".join(lines)


_CSS = """body{font-family:system-ui,sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;
color:#222}table{border-collapse:collapse;margin:0.6em 0 1.2em;font-size:0.9em}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:left}th{background:#f0f3f7}
td:not(:first-child){font-variant-numeric:tabular-nums}figure{margin:1em 0}
figcaption{font-size:0.85em;color:#555}img{max-width:100%}h2{margin-top:1.6em}"""


def _html(doc: Doc, title: str) -> str:
    e = html.escape
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{e(title)}</title>"
             f"<style>{_CSS}</style></head><body>"]
    for blk in doc.blocks:
        kind = blk[0]
        if kind in ("h1", "h2"):
            parts.append(f"<{kind}>{e(blk[1])}</{kind}>")
        elif kind == "p":
            parts.append(f"<p>{e(blk[1])}</p>")
        elif kind == "table":
            head = "".join(f"<th>{e(str(h))}</th>" for h in blk[1])
            body = "".join("<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in r) + "</tr>"
                           for r in blk[2])
            parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        elif kind == "img":
            parts.append(f"<figure><img src='{e(blk[1])}.png' alt='{e(blk[2])}'>"
                         f"<figcaption>{e(blk[2])} (<a href='{e(blk[1])}.svg'>SVG</a>)"
                         "</figcaption></figure>")
    parts.append("</body></html>")
    return "\n".join(parts)


# --------------------------------------------------------------------------- games with partners

Z95 = 1.959964


def _team_dist(run: RunResult, metric: str) -> tuple[Estimate, np.ndarray, np.ndarray]:
    """Mean (95% CI) of a one-per-deal histogram over the deals it counts, and its bins."""
    b, c = run.counts(metric)
    e = mean_from_sums(float(np.dot(b.astype(float), c)),
                       float(np.dot(b.astype(float) ** 2, c)), int(c.sum()))
    return e, b, c


def _team_at_least(b: np.ndarray, c: np.ndarray, x: int) -> Estimate:
    return wilson(int(c[b >= x].sum()), int(c.sum()))


def team_deal_sections(doc, run: RunResult, out: Path) -> None:
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
        e, b, c = _team_dist(run, metric)
        share0 = wilson(int(c[b == 0].sum()), int(c.sum()))
        rows.append([name, f"{int(c.sum()):,}", num(e.value), f"± {num(Z95 * e.se)}",
                     pct(share0.value, 1),
                     *[pct(_team_at_least(b, c, x).value, 1) for x in thresholds],
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
        e, b, c = _team_dist(run, metric)
        rows.append([name, f"{int(c.sum()):,}", num(e.value), f"± {num(Z95 * e.se)}",
                     *quantile_cells(b, c, (0.1, 0.5, 0.9))])
        ser.append((name, b, c))
    e, b, c = _team_dist(run, "team.tricks.bidding")
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
        e, b, c = _team_dist(run, metric)
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
