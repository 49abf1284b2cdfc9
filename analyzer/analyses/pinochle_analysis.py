"""Monte Carlo analysis of one 20-card Pinochle hand (V6.3, V6.5, V6.6).

For a hand in the bidder's seat, the 60 unseen cards are dealt uniformly to the other
three seats (V6.1) and, for each trump, the deal is played by the team policy with this
hand leading (V6.2).  Per trump the result gives the distributions of the partner's
meld, the team's meld, the counters the team takes (V6.5, last trick included), the
team's total (counted melds + counters, V6.3/V6.6) and the other team's score, each with
its mean, 95 % CI and quantiles, and P(team total >= b) for bids from 500: the number a
bidder needs.  The hand's own meld is exact (no sampling).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer._jit import njit
from analyzer.analyses.team_advice import unseen_deck
from analyzer.analyses.stats import mean_ci, reach_table, reach_text
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_TYPES, Hand80, suit_symbol
from analyzer.mechanics.team_game import R_MELD, R_POINTS, R_SCORE, RES_COLS, play_contract80
from analyzer.mechanics.melds import class_meld_total, class_melds
from analyzer.mechanics.team_play import deal80_fixed, play_policies
from analyzer.search.pimc import play_name, resolve_play
from analyzer.mechanics.rules import PINOCHLE_80, TeamRuleSet, team_spec, team_kernel
from analyzer.mechanics.play import beat_table
from analyzer.mechanics.rng import chunk_state

MAX_SAMPLES = 200_000


@njit
def analyze80_samples(hand, deck, state, kp, out, pol):
    """``out`` float64[n, 4, 4]: per sample and trump (team meld, team counters, team
    total as scored at bid 0, other team's score); this hand in seat 0, leading; ``pol``
    the seats' play policies (analyzer.mechanics.team_play.play_policies)."""
    n = out.shape[0]
    hands = np.zeros((4, N_TYPES), dtype=np.uint8)
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kp, beat)
    res = np.zeros(RES_COLS, dtype=np.int64)
    for i in range(n):
        deal80_fixed(state, deck, hands, 0, hand)
        for t in range(4):
            play_contract80(hands, 0, 0, t, pol, state, kp, beat, cnt, res)
            out[i, t, 0] = res[R_MELD]
            out[i, t, 1] = res[R_POINTS]
            out[i, t, 2] = res[R_SCORE]
            out[i, t, 3] = res[R_SCORE + 1]


def _dist(x: np.ndarray) -> dict:
    ci = mean_ci(x)
    q = np.quantile(x, [0.1, 0.5, 0.9])
    return {"mean": ci.mean, "lo": ci.lo, "hi": ci.hi, "se": ci.se, "n": ci.n,
            "q10": float(q[0]), "median": float(q[1]), "q90": float(q[2])}


@dataclass
class PinochleHandAnalysis:
    """Per trump: own meld (exact), distributions (mean, CI, quantiles) of partner meld,
    team meld, team counters, team total, other team; P(total >= bid) with Wilson CIs."""

    hand: Hand80
    samples: int
    trumps: list[dict]
    play: str = "heuristic"    # how the deals were played (--play; PIMC seats, issue 24)

    def summary(self) -> str:
        lines = [f"hand: {self.hand}   ({self.samples} sampled deals per trump, this hand "
                 "bidding and leading)"
                 + ("" if self.play == "heuristic" else f"; play {self.play}")]
        for r in self.trumps:
            s = suit_symbol(r["trump"])
            melds = ", ".join(f"{m['name']} {m['points']}" for m in r["own_melds"]) or "none"
            lines.append(f"trump {s}: own meld {r['own_meld']} ({melds})")
            for key, label in (("partner_meld", "partner meld"), ("team_counters", "team counters"),
                               ("team_total", "team total"), ("other_score", "other team")):
                d = r[key]
                lines.append(f"   {label:<14} mean {d['mean']:7.1f} [{d['lo']:.1f}, {d['hi']:.1f}]"
                             f"  10/50/90%: {d['q10']:.0f} / {d['median']:.0f} / {d['q90']:.0f}")
            lines.append(f"   P(total >= bid)  {reach_text(r['p_reach'])}")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"hand": self.hand.codes(), "samples": self.samples, "trumps": self.trumps,
                **({} if self.play == "heuristic" else {"play": self.play})}


def analyze_pinochle_hand(hand, samples: int = 2000, seed: int = 0,
                          rules: TeamRuleSet = PINOCHLE_80,
                          play: str = "heuristic") -> PinochleHandAnalysis:
    """Meld and counter distributions of a 20-card hand (module docstring); ``play``:
    heuristic, pimc or pimc-defence (analyzer.mechanics.team_play.play_policies)."""
    code = resolve_play(play, rules)
    h = Hand80.parse(hand, size=rules.hand_size)
    if not 2 <= int(samples) <= MAX_SAMPLES:
        raise BinokelError(f"samples must be between 2 and {MAX_SAMPLES}, got {samples}")
    out = np.zeros((int(samples), 4, 4))
    analyze80_samples(h.counts_array(), unseen_deck(h.counts, team_spec(rules)), chunk_state(seed, 0),
                      team_kernel(rules), out, play_policies(code))
    trumps = []
    for t in range(4):
        own = class_meld_total(h, t, rules)
        team_total = out[:, t, 2]
        reach = reach_table(team_total, rules.bid_start, 2 * rules.bid_step)
        trumps.append({
            "trump": t, "own_meld": own,
            "own_melds": [{"class": m.cls, "name": m.name, "points": m.points}
                          for m in class_melds(h, t, rules)],
            "partner_meld": _dist(out[:, t, 0] - own), "team_meld": _dist(out[:, t, 0]),
            "team_counters": _dist(out[:, t, 1]), "team_total": _dist(team_total),
            "other_score": _dist(out[:, t, 3]), "p_reach": reach})
    return PinochleHandAnalysis(h, int(samples), trumps, play_name(code))
