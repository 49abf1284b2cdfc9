"""Monte Carlo analysis of one hand as the soloist of a Binokel team game (V4, V5).

For an 11-card (``kreuz-48``) or 9-card (``kreuz-40``) hand in seat ``seat`` the unseen
cards are dealt uniformly to the three other hands and the Dabb (V4.1, V5.1; or the Dabb
is given).  Per sample this seat is the soloist: it takes the Dabb, exchanges and names
trump from its own cards only (analyzer.mechanics.team_game.kreuz_soloist_choice), the
deal is played by the team policy and scored (V4.6, V5.7), and every contract the
soloist could choose is recorded (analyzer.mechanics.team_game.kreuz_outcomes): going
out (V4.3, V5.4) and a sure Durch (V4.6) beside the trump game.

The result gives the trump the exchange names (shares), the distributions of the team's
meld (both partners, counted with a team trick), its card points (the discard included,
before rounding), its total as scored when the bid is reached, and the other team's
score, each with mean, 95 % CI and quantiles; P(team total >= b) for bids from the
opening bid; and at one bid (``bid``) the soloist's contract shares and the team's
expected score and objective (team - other team) with CIs, the contract chosen per
sample as in play (analyzer.analyses.team_advice.bid_outcome).  Pinochle
(``pinochle-80``, no Dabb) has its own analysis, analyzer.analyses.pinochle_analysis;
:func:`analyze_team_hand` dispatches on the rules' Dabb size.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer._jit import njit
from analyzer.analyses.pinochle_analysis import _dist, analyze_pinochle_hand
from analyzer.analyses.stats import mean_ci, proportion_ci, reach_table, reach_text
from analyzer.analyses.team_advice import (bid_outcome, parse_team_hand, parse_team_seat, soloist_contracts,
                                           unseen_deck)
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_TYPES, Hand, suit_symbol
from analyzer.mechanics.exchange import CONTRACT_DURCH, CONTRACT_OPEN_DURCH, CONTRACT_SURRENDER
from analyzer.mechanics.play import beat_table
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.team_game import (O_COLS, O_DURCH_MADE, O_EST, O_LOSERS, O_OTHER,
                                          O_OUT_OTHER, O_TOTAL, R_MELD, R_POINTS, R_TRUMP,
                                          RES_COLS, kreuz_outcomes)
from analyzer.mechanics.team_play import deal_team_fixed, play_policies
from analyzer.search.pimc import play_name, resolve_play
from analyzer.mechanics.rules import TeamSpec, get_rules, team_spec

MAX_SAMPLES = 200_000
#: default samples with --play pimc / pimc-defence (a PIMC team deal takes 10-200 ms)
TEAM_PIMC_SAMPLES = 100
A_TRUMP, A_MELD, A_POINTS, A_TOTAL, A_OTHER, A_OUT_OTHER, A_EST, A_LOSERS, A_DURCH = range(9)
A_COLS = 9


@njit
def analyze_kreuz_samples(hand, seat, deck, dabb, fixed_dabb, state, tk, kr, out, pol):
    """``out`` float64[n, A_COLS] per sample (module docstring): this hand in ``seat`` is
    the soloist; ``deck`` the unseen cards (without ``dabb`` when ``fixed_dabb``); ``pol``
    int64[4] the seats' play policies (analyzer.mechanics.team_play.play_policies)."""
    n = out.shape[0]
    hands = np.zeros((5, N_TYPES), dtype=np.uint8)
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(tk, beat)
    res = np.zeros(RES_COLS, dtype=np.int64)
    oc = np.zeros(O_COLS, dtype=np.float64)
    team = seat % 2
    for i in range(n):
        deal_team_fixed(state, deck, hands, seat, hand, tk.hand_size)
        if fixed_dabb:
            for t in range(N_TYPES):
                hands[4, t] = dabb[t]
        kreuz_outcomes(hands, seat, pol, state, tk, kr, beat, cnt, res, oc)
        out[i, A_TRUMP] = res[R_TRUMP]
        out[i, A_MELD] = res[R_MELD + team]
        out[i, A_POINTS] = res[R_POINTS + team]
        out[i, A_TOTAL] = oc[O_TOTAL]
        out[i, A_OTHER] = oc[O_OTHER]
        out[i, A_OUT_OTHER] = oc[O_OUT_OTHER]
        out[i, A_EST] = oc[O_EST]
        out[i, A_LOSERS] = oc[O_LOSERS]
        out[i, A_DURCH] = oc[O_DURCH_MADE]


@dataclass
class TeamHandAnalysis:
    """Result of :func:`analyze_team_hand` for a Dabb game (module docstring)."""

    game: str
    hand: object
    seat: int
    dabb: object
    samples: int
    bid: int
    trump_shares: list[float]
    dists: dict
    p_reach: list[dict]
    at_bid: dict
    play: str = "heuristic"    # how the deals were played (--play; PIMC seats, issue 24)

    def summary(self) -> str:
        tr = "  ".join(f"{suit_symbol(t)} {100 * p:.0f}%" for t, p in enumerate(self.trump_shares))
        d = self.dabb.show(self.low_card()) if self.dabb is not None else "sampled"
        lines = [f"{self.game}   hand: {self.hand.show(self.low_card())}   seat {self.seat} "
                 f"(team {self.seat % 2}) as soloist   Dabb: {d}",
                 f"{self.samples} sampled deals; the soloist exchanges from its own cards "
                 f"(V4.2, V5.3); trump named: {tr}"
                 + ("" if self.play == "heuristic" else f"; play {self.play}")]
        for key, label in (("team_meld", "team meld"), ("team_points", "team card points"),
                           ("team_total", "team total"), ("other_score", "other team")):
            x = self.dists[key]
            lines.append(f"   {label:<17} mean {x['mean']:7.1f} [{x['lo']:.1f}, {x['hi']:.1f}]"
                         f"  10/50/90%: {x['q10']:.0f} / {x['median']:.0f} / {x['q90']:.0f}")
        lines.append(f"   P(total >= bid)   {reach_text(self.p_reach)}")
        a = self.at_bid
        lines.append(f"at bid {self.bid}: play {100 * a['p_play']:.1f}%, go out "
                     f"{100 * a['p_out']:.1f}% (V4.3, V5.4), sure Durch {100 * a['p_durch']:.1f}% "
                     f"(V4.6); made {100 * a['p_make']:.1f}% [{100 * a['p_make_lo']:.1f}-"
                     f"{100 * a['p_make_hi']:.1f}]; team score {a['score']:+.1f} "
                     f"[{a['score_lo']:+.0f}, {a['score_hi']:+.0f}], objective "
                     f"{a['objective']:+.1f} [{a['objective_lo']:+.0f}, {a['objective_hi']:+.0f}]")
        return "\n".join(lines)

    def low_card(self) -> str:
        return get_rules(self.game).low_card

    def to_dict(self) -> dict:
        low = self.low_card()
        return {"rules": self.game, "hand": self.hand.codes(low), "seat": self.seat,
                "team": self.seat % 2,
                "dabb": self.dabb.codes(low) if self.dabb is not None else None,
                "samples": self.samples, "bid": self.bid, "trump_shares": self.trump_shares,
                **self.dists, "p_reach": self.p_reach, "at_bid": self.at_bid,
                **({} if self.play == "heuristic" else {"play": self.play})}


def analyze_team_hand(hand, rules, seat=0, dabb=None, samples: int = 2000, seed: int = 0,
                      bid: int | None = None, play: str = "heuristic"):
    """Analysis of ``hand`` as the soloist of a team game (module docstring).

    ``dabb``: the Dabb's cards if known (else sampled); ``bid``: the bid for the contract
    and score line (default the opening bid).  For a game without a Dabb (pinochle-80)
    the result is :func:`analyzer.analyses.pinochle_analysis.analyze_pinochle_hand`'s.
    ``play``: heuristic (the team policy), pimc (PIMC at every seat) or pimc-defence (PIMC
    for the other team; analyzer.mechanics.team_play.team_pimc_choose).
    Raises BinokelError (one line) on bad input.
    """
    spec: TeamSpec = team_spec(rules)
    code = resolve_play(play, rules)
    pol = play_policies(code)
    if spec.dabb_size == 0:
        if dabb:
            raise BinokelError(f"--tapp: {spec.name} has no Dabb (V6.1)")
        return analyze_pinochle_hand(hand, samples=samples, seed=seed, rules=spec.rules, play=play)
    h, counts = parse_team_hand(hand, spec)
    s = parse_team_seat(seat)
    if not 2 <= int(samples) <= MAX_SAMPLES:
        raise BinokelError(f"samples must be between 2 and {MAX_SAMPLES}, got {samples}")
    bid = spec.start if bid is None else int(bid)
    if bid < spec.start or (bid - spec.start) % spec.step or bid > 10 * spec.rules.deal_points + 5000:
        raise BinokelError(f"--bid: {bid} is no valid bid ({spec.start}, {spec.start + spec.step}, "
                           "... V1)")
    d = None
    dc = np.zeros(N_TYPES, dtype=np.uint8)
    if dabb:
        d = Hand.parse(dabb, rules=spec.rules)
        if len(d) != spec.dabb_size:
            raise BinokelError(f"--tapp: the Dabb has {spec.dabb_size} cards in {spec.name}, "
                               f"got {len(d)}")
        dc = np.array(d.counts, dtype=np.uint8)
        both = counts.astype(np.int64) + dc
        if (both > spec.copies).any() or any(dc[t] and spec.tk.copies[t] == 0 for t in range(N_TYPES)):
            raise BinokelError("--tapp overlaps the hand: more copies of a card than the deck has")
    deck = unseen_deck(counts.astype(np.int64) + dc, spec)
    out = np.zeros((int(samples), A_COLS))
    analyze_kreuz_samples(counts, s, deck, dc, d is not None, chunk_state(seed, 0),
                          spec.tk, spec.kr, out, pol)
    n = len(out)
    shares = [float((out[:, A_TRUMP] == t).sum() / n) for t in range(4)]
    total = out[:, A_TOTAL]
    dists = {"team_meld": _dist(out[:, A_MELD]), "team_points": _dist(out[:, A_POINTS]),
             "team_total": _dist(total), "other_score": _dist(out[:, A_OTHER])}
    reach = reach_table(total, spec.start, spec.step)
    raw = {"team_total": total[:, None], "other": out[:, A_OTHER][:, None],
           "weight": np.ones(n), "loss_factor": int(spec.tk.loss_factor),
           "out_other": out[:, A_OUT_OTHER], "est": out[:, A_EST], "losers": out[:, A_LOSERS],
           "durch_made": out[:, A_DURCH] > 0.5, "kr": spec.kr}
    con = soloist_contracts(raw, [bid])[0]
    rel, made = bid_outcome(raw, bid, con)
    score = rel[:, 0] + out[:, A_OTHER]
    is_out = con == CONTRACT_SURRENDER
    is_durch = (con == CONTRACT_DURCH) | (con == CONTRACT_OPEN_DURCH)
    score = np.where(is_out, rel[:, 0] + out[:, A_OUT_OTHER], np.where(is_durch, rel[:, 0], score))
    pm = proportion_ci(int(made[:, 0].sum()), n)
    sc, ob = mean_ci(score), mean_ci(rel[:, 0])
    at_bid = {"p_play": float((~is_out & ~is_durch).mean()), "p_out": float(is_out.mean()),
              "p_durch": float(is_durch.mean()), "p_make": pm.p, "p_make_lo": pm.lo,
              "p_make_hi": pm.hi, "score": sc.mean, "score_lo": sc.lo, "score_hi": sc.hi,
              "score_se": sc.se, "objective": ob.mean, "objective_lo": ob.lo,
              "objective_hi": ob.hi, "objective_se": ob.se}
    return TeamHandAnalysis(spec.name, h, s, d, n, bid, shares, dists, reach, at_bid,
                            play_name(code))
