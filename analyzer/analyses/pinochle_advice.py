"""The team bid advisor for double-deck partnership Pinochle (V6.2, V6.6).

Method
------
For a 20-card hand in seat ``seat`` (0..3) with the auction so far, sample the 60 unseen
cards into the three other hands uniformly (V6.1), then per sample:

1. **Bidder branch** - this seat wins the auction, names each trump in turn, leads, and
   the deal is played by the team policy (analyzer.mechanics.team_play) and scored
   (V6.6).  The team's total (counted melds + counters) and the other team's score are
   kept per trump, so the score at any bid ``b`` follows without replaying: the team
   scores its total if it reaches ``b``, else ``-b``.  Trump is then named per bid as the
   suit with the best mean objective (the bidder knows the bid but not the other hands).
2. **Pass branch** - this seat passes now; the others finish the auction as rule-of-thumb
   bidders (their sampled hands; analyzer.mechanics.team_bidding), the winner names its
   rule-of-thumb trump and the deal is played; all four passing throws it in (0 : 0).
3. **Inference** - each sample is weighted by the likelihood that the three other seats'
   sampled hands called as they did, the partner's calls included (a noisy rule-of-thumb
   bidder, :func:`analyzer.mechanics.bidding.evidence_likelihood`); means are weighted,
   their standard errors use Kish's effective sample size.

The objective is relative: this team's deal score minus the other team's.  The
recommended maximum bid is the last bid B, counting up from the next legal bid, with
``E[objective | bidder at B] >= E[objective | pass]``.  Only this hand, its seat and the
public calls enter the kernel: the other hands exist only as samples.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer._jit import njit
from analyzer.analyses.advice import Estimate, _wmean, _wprop
from analyzer.errors import BinokelError
from analyzer.mechanics.bidding import DEFAULT_EVIDENCE_SCALE, evidence_likelihood
from analyzer.mechanics.cards import N_TYPES, Hand80, FULL_DECK80
from analyzer.mechanics.team_bidding import (DEFAULT_PARTNER_ALLOWANCE, DEFAULT_TRICK_VALUE,
                                                 TeamAuction, check_turn, continue_auction80,
                                                 parse_team_auction, rule_of_thumb80, rule_value80)
from analyzer.mechanics.team_game import R_SCORE, RES_COLS, play_contract80
from analyzer.mechanics.team_play import POLICY_TEAM, deal80_fixed
from analyzer.mechanics.team_rules import PINOCHLE_RULES, PinochleRules
from analyzer.mechanics.play import beat_table
from analyzer.mechanics.rng import chunk_state

DEFAULT_SAMPLES80 = 400
MAX_SAMPLES80 = 200_000
GRID80 = 40           # bids next .. next + 390


@njit
def advise80_samples(hand, seat, deck, ev_lo, ev_hi, use_evidence, scale, high, high_seat,
                     passed, trick_value, allowance, state, kp, team_total, other_score,
                     pass_rel, weight):
    """Monte Carlo core: ``n = weight.shape[0]`` samples (see the module docstring).

    ``hand`` uint8[24] (the only cards the kernel knows); ``deck`` uint8[60] the unseen
    cards; ``ev_lo``/``ev_hi`` int64[4] per seat the bidding evidence; ``high``,
    ``high_seat``, ``passed`` (bit mask) the auction state with ``seat`` to call.
    OUT: ``team_total``/``other_score`` float64[n, 4] per trump (bidder branch);
    ``pass_rel`` float64[n]; ``weight`` float64[n].
    """
    n = weight.shape[0]
    hands = np.zeros((4, N_TYPES), dtype=np.uint8)
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kp, beat)
    res = np.zeros(RES_COLS, dtype=np.int64)
    tmp = np.zeros(4, dtype=np.int64)
    maxb = np.zeros(4, dtype=np.int64)
    trumps = np.zeros(4, dtype=np.int64)
    out = np.zeros(2, dtype=np.int64)
    pol = np.full(4, POLICY_TEAM, dtype=np.int64)
    team = seat % 2
    for i in range(n):
        deal80_fixed(state, deck, hands, seat, hand)
        w = 1.0
        if use_evidence:
            for p in range(4):
                if p != seat and (ev_lo[p] > 0 or ev_hi[p] > 0):
                    v, _t = rule_value80(hands[p], kp, trick_value, allowance, tmp)
                    w *= evidence_likelihood(v, ev_lo[p], ev_hi[p], scale)
        weight[i] = w
        for t in range(4):
            play_contract80(hands, seat, 0, t, pol, state, kp, beat, cnt, res)
            team_total[i, t] = res[R_SCORE + team]
            other_score[i, t] = res[R_SCORE + 1 - team]
        for p in range(4):
            mb, tr = rule_of_thumb80(hands[p], kp, trick_value, allowance, tmp)
            maxb[p] = mb
            trumps[p] = tr
        maxb[seat] = 0
        continue_auction80(maxb, high, high_seat, passed, seat, kp.min_bid, kp.bid_step, out)
        b = out[0]
        play_contract80(hands, b, out[1], trumps[b] if b >= 0 else 0, pol, state, kp, beat,
                        cnt, res)
        pass_rel[i] = res[R_SCORE + team] - res[R_SCORE + 1 - team]


def unseen_deck(hand: Hand80) -> np.ndarray:
    """The 60 cards not in ``hand`` as type ints (uint8[60])."""
    rest = FULL_DECK80 - hand
    return np.repeat(np.arange(N_TYPES, dtype=np.uint8), np.array(rest.counts, dtype=np.int64))


def sample_branches(hand: Hand80, seat: int, state: TeamAuction, samples: int, seed: int,
                    use_evidence: bool = True, rules: PinochleRules = PINOCHLE_RULES,
                    trick_value: int = DEFAULT_TRICK_VALUE,
                    allowance: int = DEFAULT_PARTNER_ALLOWANCE,
                    scale: float = DEFAULT_EVIDENCE_SCALE, key: int = 0) -> dict:
    """Run :func:`advise80_samples`; returns the raw per-sample arrays."""
    n = int(samples)
    team_total = np.zeros((n, 4))
    other = np.zeros((n, 4))
    pass_rel = np.zeros(n)
    weight = np.zeros(n)
    lo, hi = state.evidence(rules)
    advise80_samples(hand.counts_array(), seat, unseen_deck(hand), np.array(lo, dtype=np.int64),
                     np.array(hi, dtype=np.int64), bool(use_evidence), float(scale), state.high,
                     state.high_seat, state.passed_mask, int(trick_value), int(allowance),
                     chunk_state(seed, key), rules.kernel, team_total, other, pass_rel, weight)
    if not np.isfinite(weight).all() or weight.sum() <= 0:
        weight = np.ones(n)
    return {"team_total": team_total, "other": other, "pass_rel": pass_rel, "weight": weight}


def _ess(w: np.ndarray) -> float:
    return float(w.sum() ** 2 / (w * w).sum())


def bid_values(raw: dict, bids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Weighted mean objective per (bid, trump), and per bid the best trump and its
    per-sample objective values (bidder branch)."""
    tt, oth, w = raw["team_total"], raw["other"], raw["weight"]
    sw = w.sum()
    ev = np.empty((len(bids), 4))
    best_t = np.empty(len(bids), dtype=np.int64)
    per = np.empty((len(bids), tt.shape[0]))
    for j, b in enumerate(bids):
        score = np.where(tt >= b, tt, -float(b))
        rel = score - oth
        ev[j] = (w[:, None] * rel).sum(axis=0) / sw
        best_t[j] = int(np.argmax(ev[j]))
        per[j] = rel[:, best_t[j]]
    return ev, best_t, per


@dataclass
class TeamBidAdvice:
    """Result of :func:`advise_pinochle`: the bid table (one row per bid: trump named,
    P(make), E[objective] with 95 % CIs, the paired difference to passing), the pass
    value and the recommended maximum bid (None = pass)."""

    hand: Hand80
    seat: int
    auction: TeamAuction
    samples: int
    ess: float
    next_bid: int
    max_bid: int | None
    pass_value: Estimate
    rows: list[dict]

    def summary(self) -> str:
        from analyzer.mechanics.cards import SUIT_SYMBOLS
        lines = [f"hand: {self.hand}",
                 f"seat: {self.seat} (team {self.seat % 2}: seats {self.seat % 2}+{self.seat % 2 + 2})"
                 f"   auction: {self.auction.describe()}",
                 f"objective: team score - other team's score   samples: {self.samples} "
                 f"(effective {self.ess:.0f})",
                 f"pass: E = {self.pass_value.mean:+.1f} [{self.pass_value.lo:+.0f}, {self.pass_value.hi:+.0f}]",
                 f"{'bid':>6} {'trump':>5}  {'P(make)':>17}  {'E[objective]':>22}  {'vs pass':>20}"]
        for r in self.rows:
            lines.append(
                f"{r['bid']:>6} {SUIT_SYMBOLS[r['trump']]:>5}  "
                f"{100 * r['p_make']:5.1f}% [{100 * r['p_make_lo']:4.1f}-{100 * r['p_make_hi']:5.1f}]  "
                f"{r['ev']:+8.1f} [{r['ev_lo']:+6.0f}, {r['ev_hi']:+6.0f}]  "
                f"{r['minus_pass']:+7.1f} [{r['minus_pass_lo']:+5.0f}, {r['minus_pass_hi']:+5.0f}]")
        if self.max_bid is None:
            lines.append(f"advice: pass (bidding {self.next_bid} is worth less than passing)")
        else:
            lines.append(f"advice: bid up to {self.max_bid}"
                         + (f" (next bid {self.next_bid})" if self.max_bid > self.next_bid else ""))
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"hand": self.hand.codes(), "seat": self.seat, "team": self.seat % 2,
                "auction": list(self.auction.calls), "samples": self.samples,
                "effective_samples": self.ess, "next_bid": self.next_bid,
                "max_bid": self.max_bid, "pass_value": self.pass_value.to_dict(),
                "table": self.rows}


def summarize_team_advice(raw: dict, next_bid: int, rules: PinochleRules, rows: int = 20):
    """(max bid or None, table rows, pass estimate, ess) from :func:`sample_branches`."""
    w = raw["weight"]
    ess = _ess(w)
    bids = next_bid + rules.bid_step * np.arange(GRID80)
    ev, best_t, per = bid_values(raw, bids)
    pass_est = _wmean(raw["pass_rel"], w, ess)
    out_rows = []
    max_bid = None
    run = True
    for j, b in enumerate(bids):
        t = int(best_t[j])
        made = raw["team_total"][:, t] >= b
        pm = _wprop(made.astype(float), w, ess)
        e = _wmean(per[j], w, ess)
        d = _wmean(per[j] - raw["pass_rel"], w, ess)
        if run and e.mean >= pass_est.mean:
            max_bid = int(b)
        else:
            run = False
        if j < rows:
            out_rows.append({"bid": int(b), "trump": t, "p_make": pm.mean, "p_make_lo": pm.lo,
                             "p_make_hi": pm.hi, "ev": e.mean, "ev_lo": e.lo, "ev_hi": e.hi,
                             "ev_se": e.se, "minus_pass": d.mean, "minus_pass_lo": d.lo,
                             "minus_pass_hi": d.hi})
    return max_bid, out_rows, pass_est, ess


def advise_pinochle(hand, seat: int = 0, auction="", samples: int = DEFAULT_SAMPLES80,
                    seed: int = 0, use_evidence: bool = True,
                    rules: PinochleRules = PINOCHLE_RULES, rows: int = 20) -> TeamBidAdvice:
    """Bid advice for a 20-card Pinochle hand in ``seat`` (0..3) after ``auction``.

    ``auction``: the calls so far from seat 0 (text such as ``"500 p 520"`` or a list);
    it must be ``seat``'s turn.  Raises BinokelError (one line) on bad input.
    """
    h = Hand80.parse(hand, size=rules.hand_size)
    try:
        seat = int(seat)
    except (TypeError, ValueError):
        raise BinokelError(f"seat {seat!r} must be a number 0-3 (four players, V1)") from None
    if not 0 <= seat <= 3:
        raise BinokelError(f"seat {seat} is outside 0-3 (four players, V1)")
    state = auction if isinstance(auction, TeamAuction) else parse_team_auction(auction, rules)
    check_turn(state, seat)
    if not 1 <= int(samples) <= MAX_SAMPLES80:
        raise BinokelError(f"samples must be between 1 and {MAX_SAMPLES80}, got {samples}")
    raw = sample_branches(h, seat, state, samples, seed, use_evidence, rules)
    nb = state.next_bid(rules)
    max_bid, table, pass_est, ess = summarize_team_advice(raw, nb, rules, rows)
    return TeamBidAdvice(h, seat, state, int(samples), ess, nb, max_bid, pass_est, table)
