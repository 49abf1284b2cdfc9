"""The team bid advisor for double-deck partnership Pinochle (V6.2, V6.6).

Method
------
For a 20-card hand in seat ``seat`` (0..3) with the auction so far, sample the 60 unseen
cards into the three other hands uniformly (V6.1), then per sample:

1. **Bidder branch** - this seat wins the auction, names each trump in turn, leads, and
   the deal is played by the partners' heuristic (analyzer.mechanics.play) and scored
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
from analyzer.analyses.advice_grid import table_extent
from analyzer.analyses.objectives import race_probability
from analyzer.analyses.weighted_stats import Estimate, effective_sample_size, weighted_mean, weighted_proportion
from analyzer.errors import BinokelError
from analyzer.mechanics.bidding import DEFAULT_EVIDENCE_SCALE, evidence_likelihood
from analyzer.mechanics.cards import COPIES80, N_TYPES, Card, Hand, Hand80, suit_symbol
from analyzer.mechanics.team_bidding import (DEFAULT_PARTNER_ALLOWANCE, DEFAULT_TEAM_TRICK_ESTIMATE,
                                             DEFAULT_TRICK_VALUE, PASS, DuelAuction, TeamAuction,
                                             check_turn, continue_auction80,
                                             continue_duels, parse_calls, parse_team_auction,
                                             rule_of_thumb80, rule_value80, validate_duel_auction)
from analyzer.mechanics.exchange import (CONTRACT_DURCH, CONTRACT_OPEN_DURCH, CONTRACT_PLAY,
                                         CONTRACT_SURRENDER)
from analyzer.mechanics.team_game import (O_COLS, O_DURCH_MADE, O_EST, O_LOSERS, O_OTHER,
                                          O_OUT_OTHER, O_TOTAL, R_SCORE, RES_COLS,
                                          kreuz_contract, kreuz_contracts_for_bids,
                                          kreuz_outcomes, kreuz_rule_value, play_contract80)
from analyzer.mechanics.sampling import deal_counts_fixed
from analyzer.search.pimc import play_name, play_policies, resolve_play
from analyzer.mechanics.rules import PINOCHLE_80, TeamRuleSet, TeamSpec, get_rules, team_spec
from analyzer.mechanics.play import beat_table
from analyzer.mechanics.rng import chunk_state

DEFAULT_SAMPLES80 = 400
MAX_SAMPLES80 = 200_000
GRID80 = 40           # bids next .. next + 390
ESS_FRACTION = 0.5    # draw more rounds until the effective sample size is this share
MAX_ROUNDS = 8
#: how far above the rule of thumb an advisor partner bids, by auction form (V6.2 open
#: bidding / V1 duels): the advisor reads its partner's calls with this offset, since its
#: partner is an advisor too.  Pinochle: median of (advisor maximum - rule-of-thumb value)
#: over 80 opening hands that the advisor bids (seed 99, 150 samples): 60.
ADVISOR_PARTNER_OFFSET = {True: 60, False: 0}


@njit
def team_advise_samples(hand, seat, deck, ev_lo, ev_hi, use_evidence, scale, pscale, poffset, high,
                        holder, passed, next_ch, rv1, rv2, state, tk, kr, team_total,
                        other_score, pass_rel, weight, pass_own, pass_bidder, pol):
    """Monte Carlo core: ``n = weight.shape[0]`` samples (see the module docstring).

    ``hand`` uint8[24] (the only cards the kernel knows); ``deck`` uint8[n_unseen] the
    unseen cards; ``ev_lo``/``ev_hi`` int64[4] per seat the bidding evidence, read with
    the logistic ``scale`` for the opponents and ``pscale`` for the partner (0: the
    partner's calls are not used) and ``poffset`` added to the partner's modeled value
    (a partner that bids above the rule of thumb, e.g. another advisor); ``high``,
    ``holder``, ``passed`` (bit mask, V6.2) / ``next_ch`` (V1 duels) the auction state
    with ``seat`` to call; ``rv1``, ``rv2`` the rule-of-thumb parameters (V6.2: trick
    value, partner allowance; V1: the card-point estimate).  With a Dabb
    (``tk.dabb_size`` > 0) the bidder branch takes it, exchanges and names trump itself
    (one column); without, every trump is played (four columns).  OUT:
    ``team_total``/``other_score`` float64[n, 4] (the team's total, -1 when it won no
    trick; the other team's score); ``pass_rel`` float64[n]; ``weight`` float64[n].  With
    a Dabb the spare columns hold what the soloist's contract choice needs
    (analyzer.mechanics.team_game.kreuz_outcomes): ``other_score[:, 1]`` the other team's
    score if it goes out, ``team_total[:, 1:4]`` its estimate, Durch losers, Durch made.
    ``pass_own`` float64[n]: the team's own score in the pass branch (the other team's is
    ``pass_own - pass_rel``); ``pass_bidder`` int64[n]: who bid there (1 this team, 0 the
    other team, -1 thrown in), which the score-aware objective needs (V6.6: the bidding
    side is counted first at the game's end).  ``pol`` int64[4]: the seats' play policies
    (analyzer.search.pimc.play_policies: the partners' heuristic, or PIMC seats).
    """
    n = weight.shape[0]
    hs = tk.hand_size
    dabb = tk.dabb_size > 0
    hands = np.zeros((5, N_TYPES), dtype=np.uint8)
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(tk, beat)
    res = np.zeros(RES_COLS, dtype=np.int64)
    tmp = np.zeros(4, dtype=np.int64)
    maxb = np.zeros(4, dtype=np.int64)
    trumps = np.zeros(4, dtype=np.int64)
    out = np.zeros(2, dtype=np.int64)
    oc = np.zeros(O_COLS, dtype=np.float64)
    team = seat % 2
    for i in range(n):
        deal_counts_fixed(state, deck, hands, seat, hand, hs)
        w = 1.0
        if use_evidence:
            for p in range(4):
                sc = pscale if p == (seat + 2) % 4 else scale
                if p != seat and sc > 0 and (ev_lo[p] > 0 or ev_hi[p] > 0):
                    if dabb:
                        v = kreuz_rule_value(hands[p], kr, rv1, tmp)
                    else:
                        v, _t = rule_value80(hands[p], tk, rv1, rv2, tmp)
                    if p == (seat + 2) % 4:
                        v += poffset
                    w *= evidence_likelihood(v, ev_lo[p], ev_hi[p], sc)
        weight[i] = w
        if dabb:
            # every contract of the soloist after its exchange (V4.3, V4.6, V5.4); the
            # advisor's table chooses among them per bid as the soloist would
            kreuz_outcomes(hands, seat, pol, state, tk, kr, beat, cnt, res, oc)
            team_total[i, 0] = oc[O_TOTAL]
            other_score[i, 0] = oc[O_OTHER]
            other_score[i, 1] = oc[O_OUT_OTHER]
            team_total[i, 1] = oc[O_EST]
            team_total[i, 2] = oc[O_LOSERS]
            team_total[i, 3] = oc[O_DURCH_MADE]
            for p in range(4):
                maxb[p] = kreuz_rule_value(hands[p], kr, rv1, tmp) // tk.bid_step * tk.bid_step
            maxb[seat] = 0
            continue_duels(maxb, high, holder, seat, next_ch, tk.min_bid, tk.bid_step,
                           tk.forced_opening, out)
            kreuz_contract(hands, out[0], out[1], pol, state, tk, kr, beat, cnt, res)
            b = out[0]
        else:
            for t in range(4):
                play_contract80(hands[:4], seat, 0, t, pol, state, tk, beat, cnt, res)
                team_total[i, t] = res[R_SCORE + team]
                other_score[i, t] = res[R_SCORE + 1 - team]
            for p in range(4):
                mb, tr = rule_of_thumb80(hands[p], tk, rv1, rv2, tmp)
                maxb[p] = mb
                trumps[p] = tr
            maxb[seat] = 0
            continue_auction80(maxb, high, holder, passed, seat, tk.min_bid, tk.bid_step, out)
            b = out[0]
            play_contract80(hands[:4], b, out[1], trumps[b] if b >= 0 else 0, pol, state, tk,
                            beat, cnt, res)
        pass_rel[i] = res[R_SCORE + team] - res[R_SCORE + 1 - team]
        pass_own[i] = res[R_SCORE + team]
        pass_bidder[i] = -1 if b < 0 else (1 if b % 2 == team else 0)


def unseen_deck(counts, spec: TeamSpec) -> np.ndarray:
    """The cards of ``spec``'s deck not in the hand ``counts`` (24 ints), as card types."""
    full = np.bincount(spec.deck, minlength=N_TYPES)
    rest = full - np.asarray(counts, dtype=np.int64)
    if (rest < 0).any():
        raise BinokelError("the hand holds more copies of a card than the deck")
    return np.repeat(np.arange(N_TYPES, dtype=np.uint8), rest)


def parse_team_hand(hand, spec: TeamSpec):
    """A validated hand of ``spec``'s game (a Hand80, or a Hand of the 48/40-card deck)
    with its counts; one-line BinokelError on a fifth copy, a card not in the deck or the
    wrong size."""
    if spec.copies == COPIES80:
        h = Hand80.parse(hand, size=spec.hand_size)
        return h, np.array(h.counts, dtype=np.uint8)
    try:
        h = Hand.parse(hand, rules=spec.rules)
    except TypeError:       # a Hand.parse without deck awareness
        h = Hand.parse(hand)
    counts = np.array(h.counts, dtype=np.uint8)
    for t in range(N_TYPES):
        if counts[t] and spec.tk.copies[t] == 0:
            raise BinokelError(f"{Card(t)} is not in the {spec.n_cards}-card deck of {spec.name}")
    if len(h) != spec.hand_size:
        raise BinokelError(f"a hand must have {spec.hand_size} cards in {spec.name}, got {len(h)}")
    return h, counts


def parse_team_auction_for(auction, spec: TeamSpec):
    """The auction text/list validated by the game's form: V6.2 or the V1 duels."""
    if isinstance(auction, (TeamAuction, DuelAuction)):
        return auction
    if spec.open_auction:
        return parse_team_auction(auction, spec.rules)
    calls = parse_calls(auction)
    return validate_duel_auction(calls, spec.start, spec.step, spec.forced_opening)


def _evidence(state, spec: TeamSpec):
    if spec.open_auction:
        return state.evidence(spec.rules)
    lo, hi = state.evidence(spec.start, spec.step)
    if spec.forced_opening and state.seats and state.seats[0] == 0 and lo[0] == spec.start:
        # the forced opening says nothing about forehand's hand (V5.2)
        if not any(s == 0 and c != PASS for s, c in zip(state.seats[1:], state.calls[1:])):
            lo[0] = 0
    return lo, hi


def _auction_args(state, spec: TeamSpec) -> tuple[int, int, int, int]:
    """(high, holder, passed mask, next challenger) for the kernel."""
    if spec.open_auction:
        return state.high, state.high_seat, state.passed_mask, 0
    return state.high, state.holder, 0, state.next_ch


def sample_branches(counts, seat: int, state, samples: int, seed, spec: TeamSpec,
                    use_evidence: bool = True, rv1: int | None = None, rv2: int | None = None,
                    scale: float = DEFAULT_EVIDENCE_SCALE, key: int = 0,
                    partner_scale: float | None = None, partner_offset: int = 0,
                    pol=None) -> dict:
    """Run :func:`team_advise_samples`; returns the raw per-sample arrays.

    ``pol``: the seats' play policies (default the team policy at every seat).

    ``partner_scale``: the logistic scale for the partner's calls (default ``scale``;
    0 = ignore them); ``partner_offset``: how far above the rule of thumb the partner
    bids (0: a rule-of-thumb partner).

    With the calls as evidence, rounds of ``samples`` more deals are drawn (each from its
    own seed) until the effective sample size reaches ``ESS_FRACTION x samples`` or
    ``MAX_ROUNDS`` rounds are done: strong evidence otherwise leaves a handful of samples
    carrying the estimate.
    """
    n = int(samples)
    lo, hi = _evidence(state, spec)
    if rv1 is None:
        rv1 = DEFAULT_TRICK_VALUE if spec.open_auction else DEFAULT_TEAM_TRICK_ESTIMATE
    if rv2 is None:
        rv2 = DEFAULT_PARTNER_ALLOWANCE if spec.open_auction else 0
    high, holder, passed, next_ch = _auction_args(state, spec)
    parts = []
    use = bool(use_evidence) and any(lo[p] or hi[p] for p in range(4) if p != seat)
    for r in range(MAX_ROUNDS if use else 1):
        team_total = np.zeros((n, 4))
        other = np.zeros((n, 4))
        pass_rel = np.zeros(n)
        weight = np.zeros(n)
        pass_own = np.zeros(n)
        pass_bidder = np.zeros(n, dtype=np.int64)
        team_advise_samples(np.asarray(counts, dtype=np.uint8), seat, unseen_deck(counts, spec),
                            np.array(lo, dtype=np.int64), np.array(hi, dtype=np.int64),
                            use, float(scale), float(scale if partner_scale is None else partner_scale),
                            int(partner_offset), high, holder, passed, next_ch,
                            int(rv1), int(rv2), chunk_state(seed, key * MAX_ROUNDS + r), spec.tk,
                            spec.kr, team_total, other, pass_rel, weight, pass_own, pass_bidder,
                            play_policies(1) if pol is None else pol)
        parts.append((team_total, other, pass_rel, weight, pass_own, pass_bidder))
        w = np.concatenate([q[3] for q in parts])
        if w.sum() > 0 and np.isfinite(w).all() and effective_sample_size(w) >= ESS_FRACTION * n:
            break
    team_total = np.concatenate([q[0] for q in parts])
    other = np.concatenate([q[1] for q in parts])
    pass_rel = np.concatenate([q[2] for q in parts])
    weight = np.concatenate([q[3] for q in parts])
    pass_own = np.concatenate([q[4] for q in parts])
    pass_bidder = np.concatenate([q[5] for q in parts])
    if not np.isfinite(weight).all() or weight.sum() <= 0:
        weight = np.ones(len(weight))
    k = 1 if spec.dabb_size > 0 else 4
    raw = {"team_total": team_total[:, :k], "other": other[:, :k], "pass_rel": pass_rel,
           "weight": weight, "loss_factor": int(spec.tk.loss_factor),
           "pass_own": pass_own, "pass_bidder": pass_bidder,
           "target": int(spec.tk.target_score)}
    if spec.dabb_size > 0:
        # the soloist's contract choice after the exchange (V4.3, V4.6 Durch, V5.4)
        raw.update({"out_other": other[:, 1].copy(), "est": team_total[:, 1].copy(),
                    "losers": team_total[:, 2].copy(), "durch_made": team_total[:, 3] > 0.5,
                    "kr": spec.kr})
    return raw


def soloist_contracts(raw: dict, bids) -> np.ndarray | None:
    """int8[len(bids), n]: the contract the soloist of each sample chooses after its
    exchange at each bid (analyzer.mechanics.team_game.kreuz_contracts_for_bids, from its
    own estimate, as in play); None without a Dabb (Pinochle always plays)."""
    if "est" not in raw:
        return None
    bids = np.asarray(bids, dtype=np.int64)
    con = np.empty((len(raw["est"]), len(bids)), dtype=np.int8)
    kreuz_contracts_for_bids(raw["est"].astype(np.float64), raw["losers"].astype(np.int64),
                             bids, raw["kr"], con)
    return con.T


def bid_outcome(raw: dict, bid: int, con=None) -> tuple[np.ndarray, np.ndarray]:
    """Per (sample, trump column) at ``bid``: the relative objective (team - other team)
    and whether the team made its contract (:func:`bid_scores`)."""
    team, other, made = bid_scores(raw, bid, con)
    return team - other, made


def bid_scores(raw: dict, bid: int, con=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per (sample, trump column) at ``bid``: the team's deal score, the other team's, and
    whether the team made its contract.

    Playing: the team scores its total when it reaches the bid (V4.6, V5.7, V6.6), else
    -loss_factor x bid.  ``con`` (a row of :func:`soloist_contracts`): the soloist's
    choice per sample; going out (V4.3, V5.4) scores -bid against the other team's melds +
    bonus and is never made; a sure Durch (V4.6 "Durch as V2.7") scores +value or
    -durch_loss_factor x value against 0, the bid playing no part.
    """
    tt, oth = raw["team_total"], raw["other"]
    lf = float(raw.get("loss_factor", 1))
    made = tt >= bid
    team = np.where(made, tt, -lf * float(bid))
    if con is None:
        return team, oth, made
    kr = raw["kr"]
    value = np.where(con == CONTRACT_OPEN_DURCH, kr.open_durch_value, kr.durch_value)
    dm = raw["durch_made"]
    is_durch = (con == CONTRACT_DURCH) | (con == CONTRACT_OPEN_DURCH)
    is_out = con == CONTRACT_SURRENDER
    team0 = np.where(is_out, -float(bid),
                     np.where(is_durch, np.where(dm, value, -kr.durch_loss_factor * value),
                              team[:, 0]))
    other0 = np.where(is_out, raw["out_other"], np.where(is_durch, 0.0, oth[:, 0]))
    made0 = np.where(is_out, False, np.where(is_durch, dm, made[:, 0]))
    return (team0[:, None].astype(float), other0[:, None].astype(float), made0[:, None])


#: Score-aware objective: a typical deal's swing, as a share of the game's target (the
#: three-player game's 150 of 1500, analyzer.analyses.objectives.win_probability).
SWING_SHARE = 0.1


def team_win_probability(own, other, bidder, target: int) -> np.ndarray:
    """Estimated P(this team wins the game) from the game totals after a deal.

    ``own`` / ``other``: the two teams' totals after the deal (arrays); ``bidder``: who
    bid in that deal (1 this team, 0 the other, -1 thrown in).  If the deal ended the
    game the value is 1 or 0: the bidding team wins if it reached ``target`` (V6.6, and
    the same reading of R9 for the Binokel team games, V4.6), else a team that reached
    it; both with nobody bidding counts 1/2.  Otherwise the three-player game's race
    model with two sides (:func:`analyzer.analyses.objectives.race_probability`, swing
    ``SWING_SHARE * target``), so a lead counts for more the closer the leader is to the
    target.
    """
    own = np.asarray(own, dtype=np.float64)
    other = np.asarray(other, dtype=np.float64)
    own, other = np.broadcast_arrays(own, other)
    shape = own.shape
    bidder = np.broadcast_to(np.asarray(bidder), shape)
    totals = np.stack([own.ravel(), other.ravel()], axis=1)
    p = race_probability(totals, 0, target, SWING_SHARE * float(target)).reshape(shape)
    us, them = own >= target, other >= target
    p = np.where(us | them, np.where(us & them, 0.5, us.astype(np.float64)), p)
    p = np.where((bidder == 1) & us, 1.0, p)
    p = np.where((bidder == 0) & them, 0.0, p)
    return p


def _objective_values(raw: dict, team, other, bidder, objective: str, scores):
    """The per-sample objective from deal scores: ``relative`` team - other team, or
    ``win`` :func:`team_win_probability` from the game ``scores`` (this team, the other)
    before the deal plus the deal's."""
    if objective == "relative":
        return team - other
    return team_win_probability(scores[0] + team, scores[1] + other, bidder, raw["target"])


def pass_values(raw: dict, objective: str = "relative", scores=None) -> np.ndarray:
    """The pass branch's per-sample objective (:func:`_objective_values`)."""
    if objective == "relative":
        return raw["pass_rel"]
    own = raw["pass_own"]
    return _objective_values(raw, own, own - raw["pass_rel"], raw["pass_bidder"], objective,
                             scores)


def bid_values(raw: dict, bids: np.ndarray, objective: str = "relative",
               scores=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Weighted mean objective per (bid, trump column), and per bid the best column and
    its per-sample objective values (bidder branch; :func:`bid_scores`; ``objective``
    and ``scores`` as :func:`_objective_values`)."""
    w = raw["weight"]
    sw = w.sum()
    con = soloist_contracts(raw, bids)
    ev = np.empty((len(bids), raw["team_total"].shape[1]))
    best_t = np.empty(len(bids), dtype=np.int64)
    per = np.empty((len(bids), raw["team_total"].shape[0]))
    for j, b in enumerate(bids):
        team, other, _made = bid_scores(raw, int(b), None if con is None else con[j])
        rel = _objective_values(raw, team, other, 1, objective, scores)
        ev[j] = (w[:, None] * rel).sum(axis=0) / sw
        best_t[j] = int(np.argmax(ev[j]))
        per[j] = rel[:, best_t[j]]
    return ev, best_t, per


@dataclass
class TeamBidAdvice:
    """Result of :func:`advise_team`: the bid table (one row per bid: the trump named, or
    None where the bidder names it after seeing the Dabb; P(make), E[objective] with 95 %
    CIs, the paired difference to passing), the pass value and the recommended maximum
    bid (None = pass)."""

    game: str
    hand: object
    seat: int
    auction: object
    samples: int
    ess: float
    next_bid: int
    max_bid: int | None
    pass_value: Estimate
    rows: list[dict]
    over_partner: bool = False   # the partner holds the bid: a bid must beat passing significantly
    objective: str = "relative"  # or "win": P(win game) from the scores
    scores: tuple | None = None  # game totals before the deal: (this team, the other team)
    play: str = "heuristic"      # card play of the sampled deals (--play, issue 24)

    def summary(self) -> str:
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
        shown = self.hand.show(get_rules(self.game).low_card) if isinstance(self.hand, Hand) \
            else str(self.hand)        # the low card as the deck names it (7 in kreuz-48)
        lines = [f"{self.game}   hand: {shown}",
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

    def to_dict(self) -> dict:
        from analyzer.mechanics.rules import get_rules
        low = get_rules(self.game).low_card      # 7 in kreuz-48 (V1)
        return {"rules": self.game, "hand": self.hand.codes(low), "seat": self.seat,
                "team": self.seat % 2, "auction": list(self.auction.calls),
                "samples": self.samples, "effective_samples": self.ess,
                "next_bid": self.next_bid, "max_bid": self.max_bid,
                "pass_value": self.pass_value.to_dict(), "over_partner": self.over_partner,
                "objective": self.objective,
                "scores": None if self.scores is None else list(self.scores),
                "table": self.rows,
                **({} if self.play == "heuristic" else {"play": self.play})}


def summarize_team_advice(raw: dict, next_bid: int, step: int, rows: int | None = None,
                          over_partner: bool = False, objective: str = "relative",
                          scores=None):
    """(max bid or None, table rows, pass estimate, ess) from :func:`sample_branches`.

    ``objective``: ``relative`` (team minus the other team's deal score) or ``win`` (the
    estimated P(win game), :func:`team_win_probability`, from ``scores`` = the game
    totals (this team, the other team) before the deal).

    ``rows``: at most this many table rows (None: :func:`analyzer.analyses.advice.table_extent`,
    the three-player tables' rule: past the recommended bid until P(make) is small).

    ``over_partner``: the standing bid is the partner's (:func:`bids_over_partner`); a bid then
    counts only while its paired gain over passing is significant (the lower end of its
    95 % CI above 0), not merely positive.  Why: outbidding the partner never moves the
    contract to the other team; it only swaps which partner plays, 10 points dearer.  Its
    true gain is small, while the estimate's noise (SE about 50 at 100 samples) is large, so
    acting on a positive mean picks mostly noise (measured in docs/methods.md: the
    team advisor's bids over its partner cost its team points in duplicate play).
    """
    w = raw["weight"]
    ess = effective_sample_size(w)
    bids = team_bid_grid(raw, next_bid, step)
    ev, best_t, per = bid_values(raw, bids, objective, scores)
    con = soloist_contracts(raw, bids)
    pv = pass_values(raw, objective, scores)
    pass_est = weighted_mean(pv, w, ess)
    named = raw["team_total"].shape[1] > 1
    out_rows = []
    max_bid = None
    run = True
    for j, b in enumerate(bids):
        t = int(best_t[j])
        made = bid_outcome(raw, int(b), None if con is None else con[j])[1][:, t]
        pm = weighted_proportion(made.astype(float), w, ess)
        e = weighted_mean(per[j], w, ess)
        d = weighted_mean(per[j] - pv, w, ess)
        if run and (d.lo > 0 if over_partner else e.mean >= pass_est.mean):
            max_bid = int(b)
        else:
            run = False
        out_rows.append({"bid": int(b), "trump": t if named else None, "p_make": pm.mean,
                         "p_make_lo": pm.lo, "p_make_hi": pm.hi, "ev": e.mean,
                         "ev_lo": e.lo, "ev_hi": e.hi, "ev_se": e.se, "minus_pass": d.mean,
                         "minus_pass_lo": d.lo, "minus_pass_hi": d.hi})
        if con is not None:
            # weighted shares of the soloist's choices after the exchange at this bid
            sw = w.sum()
            out_rows[-1]["p_out"] = float(w[con[j] == CONTRACT_SURRENDER].sum() / sw)
            out_rows[-1]["p_durch"] = float(
                w[(con[j] == CONTRACT_DURCH) | (con[j] == CONTRACT_OPEN_DURCH)].sum() / sw)
    last = -1 if max_bid is None else (max_bid - next_bid) // step
    keep = table_extent([r["p_make"] for r in out_rows], last)
    if rows is not None:
        keep = min(keep, rows)
    return max_bid, out_rows[:keep], pass_est, ess


def team_bid_grid(raw: dict, next_bid: int, step: int) -> np.ndarray:
    """The team advisor's bids: from ``next_bid`` in steps of ``step``, at least GRID80 of
    them and on to one step past the highest team total any sample reached, above which
    no played contract is made (going out and a failed game score -bid, a Durch its fixed
    value): the recommendation can then never be cut off by the grid's end."""
    top = float(np.max(raw["team_total"][:, :1] if "est" in raw else raw["team_total"]))
    k = max(GRID80, int((top - next_bid) // step) + 2)
    return next_bid + step * np.arange(k, dtype=np.int64)


def bids_over_partner(state, seat: int, spec: TeamSpec) -> bool:
    """True when ``seat`` would bid over its own partner in a chain of duels (V1: seat 0
    against seat 1, the survivor against seat 2, then seat 3, so partners duel too): the
    standing bid is held by the partner (``seat + 2``).  The open Pinochle auction (V6.2)
    keeps the plain rule (:func:`summarize_team_advice`)."""
    if spec.open_auction:
        return False
    return state.holder >= 0 and state.holder % 2 == seat % 2 and state.holder != seat


def parse_team_seat(seat) -> int:
    """A seat of a team game as an int 0..3 (V1); BinokelError (one line) otherwise."""
    try:
        s = int(str(seat).strip())
    except (TypeError, ValueError):
        raise BinokelError(f"seat {seat!r} must be a number 0-3 (four players, V1)") from None
    if not 0 <= s <= 3:
        raise BinokelError(f"seat {s} is outside 0-3 (four players, V1)")
    return s


def team_request(hand, seat, auction, samples, rules):
    """Validate one team-advice request (static or look-ahead).

    Returns ``(spec, hand, counts, seat, state)``: the compiled game, the parsed hand and
    its counts, the seat as an int 0..3, the auction state (it must be ``seat``'s turn).
    Raises BinokelError (one line) on a bad hand, seat, auction or sample count.
    """
    spec = rules if isinstance(rules, TeamSpec) else team_spec(rules)
    h, counts = parse_team_hand(hand, spec)
    seat = parse_team_seat(seat)
    state = parse_team_auction_for(auction, spec)
    check_turn(state, seat)
    if not 1 <= int(samples) <= MAX_SAMPLES80:
        raise BinokelError(f"samples must be between 1 and {MAX_SAMPLES80}, got {samples}")
    return spec, h, counts, seat, state


def parse_team_scores(scores, objective, spec: TeamSpec):
    """(objective, scores) of a team request: ``scores`` = the two teams' game totals before
    this deal, this seat's team first (text "1200,900" or a pair), or None; ``objective``
    None (``win`` with scores, else ``relative``), ``relative`` or ``win`` (needs scores).
    Raises BinokelError (one line) on anything else."""
    if objective not in (None, "relative", "win"):
        raise BinokelError(f"objective {objective!r} is not one of a team game's: relative "
                           f"(team minus the other team) or win (P(win game) from the scores)")
    if scores is None:
        if objective == "win":
            raise BinokelError("objective win needs the game scores: give the two teams' "
                               "totals, your team first, e.g. 1200,900")
        return "relative", None
    if isinstance(scores, str):
        parts = [t for t in scores.replace(",", " ").split()]
        try:
            vals = [int(t) for t in parts]
        except ValueError:
            raise BinokelError(f"scores {scores!r}: give two integers, your team's game total "
                               f"first, e.g. 1200,900") from None
    else:
        vals = [int(v) for v in scores]
    if len(vals) != 2:
        raise BinokelError(f"scores: a team game has two totals (your team, the other team), "
                           f"got {len(vals)}")
    target = int(spec.tk.target_score)
    for v in vals:
        if not -10 * target <= v < target:
            raise BinokelError(f"score {v} is outside {-10 * target}..{target - 1}: at "
                               f"{target} the game is over (V4.6, V5.7, V6.6)")
    return (objective or "win"), (vals[0], vals[1])


def advise_team(hand, seat: int = 0, auction="", rules=PINOCHLE_80,
                samples: int = DEFAULT_SAMPLES80, seed: int = 0, use_evidence: bool = True,
                rows: int | None = None, progress=None, scores=None,
                objective: str | None = None, play: str = "heuristic") -> TeamBidAdvice:
    """Bid advice for a hand of a team game in ``seat`` (0..3) after ``auction``.

    ``scores``: the game totals before this deal, this seat's team first; with them the
    objective defaults to ``win`` (P(win game), :func:`team_win_probability`), else it is
    ``relative`` (:func:`summarize_team_advice`).

    ``rules``: the game (pinochle-80 or a Binokel team RuleSet; see
    analyzer.mechanics.rules.team_spec).  ``auction``: the calls so far from seat 0
    (text such as ``"500 p 520"`` or a list); it must be ``seat``'s turn.  Raises
    BinokelError (one line) on bad input.
    """
    code = resolve_play(play, rules)       # ``play``: heuristic, pimc, pimc-defence (issue 24)
    spec, h, counts, seat, state = team_request(hand, seat, auction, samples, rules)
    objective, scores = parse_team_scores(scores, objective, spec)
    raw = sample_branches(counts, seat, state, samples, seed, spec, use_evidence,
                          pol=play_policies(code))
    if progress is not None:
        progress(1, 1)
    nb = state.next_bid(spec.rules) if spec.open_auction else state.next_bid(spec.start, spec.step)
    op = bids_over_partner(state, seat, spec)
    max_bid, table, pass_est, ess = summarize_team_advice(raw, nb, spec.step, rows, op,
                                                          objective, scores)
    return TeamBidAdvice(spec.name, h, seat, state, int(samples), ess, nb, max_bid, pass_est,
                         table, op, objective, scores, play_name(code))


def advise_pinochle(hand, seat: int = 0, auction="", samples: int = DEFAULT_SAMPLES80,
                    seed: int = 0, use_evidence: bool = True,
                    rules: TeamRuleSet = PINOCHLE_80, rows: int | None = None) -> TeamBidAdvice:
    """:func:`advise_team` for ``pinochle-80``."""
    return advise_team(hand, seat, auction, rules, samples, seed, use_evidence, rows)
