"""What the bid advisor answers: :class:`BidAdvice` (its bid table, the pass value, the
recommendation and its notes), for every table (a lone soloist, R3-R9, or partners, V1),
shared by the static advice (analyzer.analyses.advice) and the look-ahead
(analyzer.analyses.lookahead)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from types import SimpleNamespace

from analyzer.analyses.weighted_stats import Estimate
from analyzer.mechanics.bidding import FOREHAND, PASS, SEAT_NAMES, AuctionState
from analyzer.mechanics.cards import SUIT_LETTERS, SUITS, Hand, suit_symbol
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
    """Result of :func:`advise_bid`, for every table.

    ``rows`` (one dict per bid): at a lone soloist's table (:func:`table_row`) ``bid``,
    ``p_make`` (+ ``_lo``/``_hi``), ``ev_score`` (own deal score if soloist at that bid,
    + CI), ``ev_objective`` (+ CI), ``minus_pass`` (paired objective difference to
    passing, + CI); at a partners' table (``partners``, V1; seats 0-3) ``bid``, ``trump``
    (the suit the bidder names, None where it names it after seeing the Dabb), ``p_make``,
    ``ev`` (E[objective]: team minus the other team, or P(win game)), ``minus_pass``,
    each + CI, and with a Dabb ``p_out`` / ``p_durch`` (the soloist goes out, V4.3, V5.4 /
    plays a sure Durch, V4.6).  ``table``: the same rows as a pandas DataFrame.
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
    partners: bool = False    # a partners' table (V1): the rows, summary and JSON of one
    over_partner: bool = False   # the partner holds the bid: a bid must beat passing significantly

    @cached_property
    def table(self):
        """``rows`` as a pandas DataFrame (built on first use: importing pandas costs about
        0.4 s, a fifth of a whole ``binokel advise``, which prints from ``rows``)."""
        import pandas as pd

        return pd.DataFrame(list(self.rows))

    def summary(self) -> str:
        if self.partners:
            return self._partners_summary()
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
        if self.partners:
            return self._partners_dict()
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

    def _partners_summary(self) -> str:
        """The table of a partners game (V1): seats 0-3, the trump named per bid, team scores."""
        team = self.seat % 2
        win = self.objective == "win"
        if win:
            obj = (f"P(win game) from the scores {self.scores[0]} (team {team}) : "
                   f"{self.scores[1]} (team {1 - team}), in percent")
        else:
            obj = "team score - other team's score"

        def fmt(v, d=1):
            # percentage points for P(win), card points otherwise
            return f"{100 * v:+.{d}f}" if win else f"{v:+.{d}f}"
        shown = self.hand.show(self.low_card) if isinstance(self.hand, Hand) \
            else str(self.hand)        # the low card as the deck names it (7 in kreuz-48)
        lines = [f"{self.rules}   hand: {shown}",
                 f"seat: {self.seat} (team {team}: seats {team}+{team + 2})"
                 f"   auction: {self.auction.describe()}",
                 f"objective: {obj}   samples: {self.samples} "
                 f"(effective {self.ess:.0f})"
                 + ("" if self.play == "heuristic" else f"   play {self.play}"),
                 f"pass: E = {fmt(self.pass_value.mean)} [{fmt(self.pass_value.lo, 0)}, "
                 f"{fmt(self.pass_value.hi, 0)}]",
                 f"{'bid':>9} {'trump':>5}  {'P(make)':>17}  {'E[objective]':>22}  {'vs pass':>20}"
                 + ("  out  Durch" if self.rows and "p_out" in self.rows[0] else "")]
        # runs of identical rows (a sure contract: the same deals made at every bid) print
        # once, as the three-player table does
        shown = []
        for r in self.rows:
            key = (r["trump"], round(r["p_make"], 4), round(r["ev"], 1),
                   round(r.get("p_out", 0.0), 3), round(r.get("p_durch", 0.0), 3))
            if shown and shown[-1][2] == key:
                shown[-1] = (shown[-1][0], r["bid"], key, shown[-1][3])
            else:
                shown.append((r["bid"], r["bid"], key, r))
        for first, last, _key, r in shown:
            tr = "Dabb" if r["trump"] is None else suit_symbol(r["trump"])
            label = f"{first}" if first == last else f"{first}-{last}"
            lines.append(
                f"{label:>9} {tr:>5}  "
                f"{100 * r['p_make']:5.1f}% [{100 * r['p_make_lo']:4.1f}-{100 * r['p_make_hi']:5.1f}]  "
                f"{fmt(r['ev']):>8} [{fmt(r['ev_lo'], 0):>6}, {fmt(r['ev_hi'], 0):>6}]  "
                f"{fmt(r['minus_pass']):>7} [{fmt(r['minus_pass_lo'], 0):>5}, "
                f"{fmt(r['minus_pass_hi'], 0):>5}]"
                + (f"  {100 * r['p_out']:3.0f}%  {100 * r['p_durch']:4.1f}%" if "p_out" in r else ""))
        if self.rows and "p_out" in self.rows[0]:
            lines.append("out / Durch: share of samples in which the soloist, after seeing the "
                         "Dabb, goes out (V4.3, V5.4) / plays a sure Durch (V4.6) at that bid")
        if self.over_partner:
            lines.append("your partner holds the bid: bid over it only where the gain over "
                         "passing is significant (vs pass CI above 0)")
        if self.max_bid is None:
            why = "is not significantly better than" if self.over_partner else "is worth less than"
            lines.append(f"advice: pass (bidding {self.next_bid} {why} passing)")
        else:
            lines.append(f"advice: bid up to {self.max_bid}"
                         + (f" (next bid {self.next_bid})" if self.max_bid > self.next_bid else ""))
        return "\n".join(lines)

    def _partners_dict(self) -> dict:
        return {"rules": self.rules, "hand": self.hand.codes(self.low_card), "seat": self.seat,
                "team": self.seat % 2, "auction": list(self.auction.bids),
                "samples": self.samples, "effective_samples": self.ess,
                "next_bid": self.next_bid, "max_bid": self.max_bid,
                "pass_value": self.pass_value.to_dict(), "over_partner": self.over_partner,
                "objective": self.objective,
                "scores": None if self.scores is None else list(self.scores),
                "table": self.rows,
                **({} if self.play == "heuristic" else {"play": self.play})}


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
