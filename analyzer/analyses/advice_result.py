"""What the bid advisor answers: :class:`BidAdvice` (its bid table, the pass value, the
recommendation and its notes), shared by the static advice (analyzer.analyses.advice) and
the look-ahead (analyzer.analyses.lookahead)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from types import SimpleNamespace

from analyzer.analyses.weighted_stats import Estimate
from analyzer.mechanics.bidding import FOREHAND, PASS, SEAT_NAMES, AuctionState
from analyzer.mechanics.cards import SUIT_LETTERS, SUITS, Hand
from analyzer.mechanics.rules import RuleSet

DEFAULT_SAMPLES = 2000
FEW_SAMPLES = 200       # below this (effective) many, the summary warns about its intervals


def table_row(**figures) -> dict:
    """One row of a bid table: ``bid`` a Python int, every other figure a Python float.

    These are the types (and values) a pandas DataFrame of the rows hands back from
    ``itertuples`` / ``to_dict(orient="records")``, so the text and the JSON printed from
    the rows are the ones printed from the DataFrame before (also ``round()``, which
    rounds a numpy float differently from a Python float)."""
    return {k: (int(v) if k == "bid" else float(v)) for k, v in figures.items()}


def row_views(rows) -> list:
    """The rows with attribute access (``r.p_make``), as ``DataFrame.itertuples`` gave."""
    return [SimpleNamespace(**r) for r in rows]


@dataclass
class BidAdvice:
    """Result of :func:`advise_bid`.

    ``rows`` (one dict per bid, :func:`table_row`): ``bid``, ``p_make`` (+ ``_lo``/``_hi``),
    ``ev_score`` (own deal score if soloist at that bid, + CI), ``ev_objective`` (+ CI),
    ``minus_pass`` (paired objective difference to passing, + CI); ``table``: the same rows
    as a pandas DataFrame.
    """

    hand: Hand
    seat: int
    auction: AuctionState
    objective: str
    samples: int
    ess: float
    next_bid: int
    max_bid: int | None
    pass_value: Estimate
    rows: tuple         # of dicts (table_row), the bid table; ``table`` is its DataFrame
    explanation: str
    forced_open: bool
    surrender: dict | None
    inference: bool
    scores: tuple | None
    seed: int | None
    notes: tuple = ()   # what was assumed and what to distrust (printed, and in the JSON)
    rules: str = "binokel-48"   # the variant advised for (docs/VARIANTS.md)
    low_card: str = "9"
    trumps: tuple = ()  # ((suit letter, weighted share), ...) the soloist's exchange names, most first
    play: str = "heuristic"   # card play after the exchange (--play)

    @cached_property
    def table(self):
        """``rows`` as a pandas DataFrame (built on first use: importing pandas costs about
        0.4 s, a fifth of a whole ``binokel advise``, which prints from ``rows``)."""
        import pandas as pd

        return pd.DataFrame(list(self.rows))

    def summary(self) -> str:
        lines = [f"rules: {self.rules}   hand: {self.hand.show(self.low_card)}   seat: "
                 f"{SEAT_NAMES[self.seat]}   auction: {self.auction.describe()}"]
        obj = {"relative": "own score - mean of opponents' scores", "own": "own score",
               "win": "P(win game)"}[self.objective]
        lines.append(f"objective: {obj}   samples: {self.samples} (effective {self.ess:.0f})"
                     + ("" if self.play == "heuristic" else f"   play: {self.play}"))
        fmt_obj = (lambda e: f"{100 * e.mean:5.1f}% [{100 * e.lo:.1f}-{100 * e.hi:.1f}]") if self.objective == "win" \
            else (lambda e: f"{e.mean:+7.1f} [{e.lo:+.0f}, {e.hi:+.0f}]")
        lines.append(f"{'bid':>7}  {'P(make)':>17}  {'E[score]':>20}  {'E[objective]':>22}  vs pass"
                     f"  surr./Durch")
        rows = row_views(self.rows)
        # runs of identical rows (a sure contract: same deals made at every bid) print once
        shown = []
        for r in rows:
            if shown and (round(r.p_make, 4), round(r.ev_score, 1), round(r.p_surrender, 3),
                          round(r.p_durch, 3)) == (
                    round(shown[-1][1].p_make, 4), round(shown[-1][1].ev_score, 1),
                    round(shown[-1][1].p_surrender, 3), round(shown[-1][1].p_durch, 3)):
                shown[-1] = (shown[-1][0], r, shown[-1][2])
                continue
            shown.append((r.bid, r, r))
        for first, last, r in shown:
            label = f"{first}" if first == last.bid else f"{first}-{last.bid}"
            lines.append(
                f"{label:>7}  {100 * r.p_make:5.1f}% [{100 * r.p_make_lo:4.1f}-{100 * r.p_make_hi:4.1f}]"
                f"  {r.ev_score:+7.1f} [{r.ev_score_lo:+5.0f},{r.ev_score_hi:+5.0f}]"
                f"  {fmt_obj(Estimate(r.ev_objective, r.ev_objective_lo, r.ev_objective_hi, 0, 0)):>22}"
                f"  {'+' if r.minus_pass >= 0 else '-':>7}"
                f"  {100 * r.p_surrender:4.0f}% /{100 * r.p_durch:3.0f}%")
        lines.append(f"pass: E[objective] {fmt_obj(self.pass_value)}")
        if self.trumps:
            shares = ", ".join(f"{SUITS[SUIT_LETTERS.index(t)].symbol} {100 * p:.0f}%"
                               for t, p in self.trumps if p >= 0.005)
            lines.append(f"exchange as soloist (from hand + Tapp, R4): trump {shares} of the "
                         f"samples; surr./Durch = how often it surrenders or plays Durch at "
                         f"that bid")
        if self.surrender and self.surrender["p_chosen"] == 0:
            lines.append(f"surrender at {self.surrender['bid']} (R4) would score -{self.surrender['bid']} "
                         f"for you and {self.surrender.get('bonus', 50)} + melds for each opponent; the exchange "
                         "never chose it here")
        elif self.surrender:
            s = self.surrender
            lines.append(f"surrender at {s['bid']} (R4): you score {-s['bid']}, each opponent "
                         f"{s.get('bonus', 50)} + melds "
                         f"(mean {s['opponent_mean']:.0f}); chosen by the exchange in {100 * s['p_chosen']:.0f}% "
                         f"of samples")
        lines += [f"note: {n}" for n in self.notes]
        lines.append(self.explanation)
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {
            "rules": self.rules,
            "hand": self.hand.codes(self.low_card),
            "seat": SEAT_NAMES[self.seat],
            "auction": [("pass" if c == PASS else c) for _, c in self.auction.calls],
            "objective": self.objective,
            "scores": list(self.scores) if self.scores else None,
            "samples": self.samples,
            "effective_samples": self.ess,
            "inference": self.inference,
            "seed": self.seed,
            "next_bid": self.next_bid,
            "max_bid": self.max_bid,
            "pass_value": self.pass_value.to_dict(),
            "table": [dict(r) for r in self.rows],
            "forced_open": self.forced_open,
            "surrender": self.surrender,
            "explanation": self.explanation,
            "notes": list(self.notes),
            "trumps": [{"trump": t, "share": p} for t, p in self.trumps],
            "play": self.play,
        }


def advice_notes(state: AuctionState, seat: int, n_drawn: int, ess: float, rules: RuleSet) -> tuple:
    """What the advice assumed and what to distrust (BidAdvice.notes)."""
    notes = []
    if not state.calls and seat != FOREHAND:
        notes.append(f"no calls given: assumed forehand opened {rules.bid_start} (R3) and nothing "
                     f"else is known about the others' calls; give --auction for better advice")
    if n_drawn < FEW_SAMPLES:
        notes.append(f"only {n_drawn} sampled deals: the intervals are rough (a Wilson interval "
                     f"for P(make), normal ones for the means); use --samples {DEFAULT_SAMPLES} or more")
    elif ess < FEW_SAMPLES:
        notes.append(f"only {ess:.0f} effective samples fit the auction (inference weights); "
                     f"raise --samples for tighter intervals")
    return tuple(notes)
