"""Bid advice that looks ahead in the auction of a team game (V1 duels, V4, V5, V6.2).

The team advisor (analyzer.analyses.team_advice) compares "our seat bids B and becomes
the bidder at B" with "pass now" on every sampled deal.  In a team game the question a
bidder faces is the three-player look-ahead's (analyzer.analyses.lookahead) with a
partner: **if I bid up to M (raise while the next bid is at most M, then pass), what
happens to my team?**  Passing, or stopping at M, may leave the contract to the partner
(good: the team still plays it, perhaps at a lower price) or to an opponent; a duel with
the partner (the chain of duels, V1, sets partners against each other too) only pushes
the team's own price.

Method (docs/methods.md#team-lookahead states it for users)
--------------------------------------------
Per sampled deal (the unseen cards split uniformly into the three other hands and, in the
Binokel team games, the Dabb, V4.1, V5.1, V6.1):

1. **The other seats' maxima.** Each other seat's value ``v`` comes from its sampled hand
   under the chosen model (:data:`TEAM_MODELS`; the partner may have its own model): the
   rule of thumb of analyzer.mechanics.team_bidding, plus an offset for the advisor model.
   The sample is weighted by the likelihood of the calls that seat already made (the
   partner's included), and its maximum for the rest of the auction is drawn from the
   model's logistic noise truncated to what those calls allow
   (analyzer.analyses.opponents.sample_max): so every seat calls from now on as its model
   says it then must.
2. **The auction, for every M.** For "pass now" and for each M of the bid grid the auction
   is finished with threshold bidders (:func:`plan_team_auctions`: the chain of duels,
   analyzer.mechanics.team_bidding.continue_duels, or the open V6.2 auction,
   continue_auction80): who becomes the bidder, and at which bid.
3. **The deal.** Each seat that becomes the bidder under some plan plays the deal once
   (the exchange and the play do not depend on the bid, V4.2, V5.3; the partners'
   heuristic of analyzer.mechanics.play, team_game.kreuz_outcomes): its team's total and the
   other team's score are kept, so the score at any bid follows (made if the total
   reaches the bid, else -loss x bid, V4.6, V5.7, V6.6); with a Dabb the soloist's
   contract at the plan's price (play, going out V4.3 / V5.4, a sure Durch V4.6) is the
   one it chooses from its own cards and that price (game.contract_for_bid).  In Pinochle this seat plays every trump and, as in the team
   advisor, names per bid the trump with the best mean; another bidder names its
   rule-of-thumb trump.

The objective is relative: this team's deal score minus the other team's.  ``V(M)`` is its
weighted mean; the recommendation is the M with the highest ``V`` ("pass" when no M beats
passing).  Where no sampled auction reaches the bids between two plans (exactly equal
``V``), the plan extends only as far as the static rule (bidder at B at least as good as
passing) allows.  Only this hand, its seat and the public calls enter the kernel: the other
hands exist only as samples.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from analyzer._jit import njit
from analyzer.analyses.weighted_stats import Estimate, effective_sample_size, weighted_mean, weighted_proportion
from analyzer.analyses.opponents import sample_max
from analyzer.analyses.team_fit import (KIND_FIT, KIND_OFFSET, N_TEAM_FEATURES, TEAM_ADVISOR_OFFSET,
                                        team_fit_entry,
                                        team_model_value)
from analyzer.analyses.team_advice import (ESS_FRACTION, GRID80, MAX_ROUNDS, _auction_args,
                                           _evidence, team_request, unseen_deck)
from analyzer.errors import BinokelError
from analyzer.mechanics.bidding import DEFAULT_EVIDENCE_SCALE, evidence_likelihood
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.play import POLICY_HEURISTIC, beat_table
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.team_bidding import (DEFAULT_PARTNER_ALLOWANCE, DEFAULT_TEAM_TRICK_ESTIMATE,
                                             DEFAULT_TRICK_VALUE, continue_auction80,
                                             continue_duels)
from analyzer.mechanics.exchange import CONTRACT_DURCH, CONTRACT_OPEN_DURCH, CONTRACT_SURRENDER
from analyzer.mechanics.game import contract_for_bid
from analyzer.mechanics.team_game import (O_COLS, O_DURCH_MADE, O_EST, O_LOSERS, O_OTHER,
                                          O_OUT_OTHER, O_TOTAL, R_SCORE, RES_COLS,
                                          kreuz_outcomes, play_contract80)
from analyzer.mechanics.sampling import deal_counts_fixed
from analyzer.mechanics.rules import TeamSpec, team_spec

#: the team look-ahead's models of how the other three seats bid
TEAM_MODELS = ("rule", "advisor")
DEFAULT_TEAM_LA_SAMPLES = 1000


@dataclass(frozen=True)
class TeamModel:
    """A bidding model for the seats of a team game, with logistic noise of scale
    ``scale``: the rule of thumb + ``offset`` (``kind`` 0; the team advisor's inference
    model when ``offset`` is 0) or linear in analyzer.analyses.team_fit's features with
    ``coef`` (``kind`` 1, the fitted model of the team advisor)."""

    name: str
    offset: int
    scale: float
    description: str
    kind: int = KIND_OFFSET
    coef: tuple = ()

    def coef_array(self) -> np.ndarray:
        c = np.zeros(N_TEAM_FEATURES, dtype=np.float64)
        if self.coef:
            c[:] = np.asarray(self.coef, dtype=np.float64)
        return c


def offset_team_model(spec: TeamSpec, scale: float = DEFAULT_EVIDENCE_SCALE) -> TeamModel:
    """The team advisor as the rule of thumb + :data:`TEAM_ADVISOR_OFFSET` (session 2's
    model; kept as the fallback where no fit is stored or the fit is not better)."""
    off = TEAM_ADVISOR_OFFSET[bool(spec.open_auction)]
    return TeamModel("advisor", int(off), float(scale),
                     f"team advisor model: rule of thumb {off:+d}, noise scale {scale:g}")


def fitted_team_model(spec: TeamSpec) -> TeamModel | None:
    """The fitted model of the team advisor (analyzer.analyses.team_fit) for the game, or
    None where none is stored."""
    fit = team_fit_entry(spec)
    if fit is None:
        return None
    return TeamModel("advisor", 0, float(fit["scale"]),
                     f"fitted team advisor model ({fit['hands']} hands, noise scale "
                     f"{fit['scale']:.0f})", KIND_FIT, tuple(float(c) for c in fit["coef"]))


def team_model(name, spec: TeamSpec, scale: float = DEFAULT_EVIDENCE_SCALE) -> TeamModel:
    """``'rule'`` or ``'advisor'`` for ``spec``'s game (a TeamModel passes through);
    one-line BinokelError otherwise.  ``advisor`` is the fitted model where one is stored
    and it predicted the advisor better on held-out hands than the offset model (the
    stored ``use``), else the offset model."""
    if isinstance(name, TeamModel):
        return name
    key = str(name).strip().lower()
    if key == "rule":
        return TeamModel("rule", 0, float(scale), f"rule of thumb, noise scale {scale:g}")
    if key == "advisor":
        fit = team_fit_entry(spec)
        if fit is not None and fit.get("use", "fit") == "fit":
            return fitted_team_model(spec)
        return offset_team_model(spec, scale)
    raise BinokelError(f"unknown model {name!r} for a team game: use {' or '.join(TEAM_MODELS)}")


# --------------------------------------------------------------------------- kernels

@njit(_nrt=False)
def plan_team_auctions(maxb, seat, bids, high, holder, passed, next_ch, open_auction, tk,
                       sol_out, bid_out, out):
    """Finish the auction from its state once per plan of ``seat``: pass now (index 0) or
    bid up to ``bids[j - 1]`` (index j); the other seats bid up to ``maxb[p]``.

    The state: standing ``high`` by ``holder`` (-1: none), ``seat`` to call; V6.2
    (``open_auction``): ``passed`` bit mask; V1 duels: ``next_ch`` the next seat to enter.
    ``sol_out``/``bid_out`` (int64[K + 1]) <- the bidder (-1: thrown in) and its bid.
    ``maxb[seat]`` is overwritten; ``out`` int64[2] is a workspace."""
    for j in range(bids.shape[0] + 1):
        maxb[seat] = 0 if j == 0 else bids[j - 1]
        if open_auction != 0:
            continue_auction80(maxb, high, holder, passed, seat, tk.min_bid, tk.bid_step, out)
        else:
            continue_duels(maxb, high, holder, seat, next_ch, tk.min_bid, tk.bid_step,
                           tk.forced_opening, out)
        sol_out[j] = out[0]
        bid_out[j] = out[1]


@njit
def bidder_outcomes(hands5, sol, trump, pol, state, tk, kr, beat, cnt, res, out):
    """Play the deal won by ``sol`` once; ``out`` float64[O_COLS] gets what its score at
    any bid follows from (analyzer.mechanics.team_game.kreuz_outcomes): the bidding team's
    total when playing (-1 when it cannot make any bid: no trick in a Binokel team game,
    V4.6), the other team's score then, and with a Dabb the other team's score if the
    soloist goes out (V4.3, V5.4), the soloist's own estimate and Durch losers (its
    contract at a bid, game.contract_for_bid) and whether its sure Durch is made.
    ``trump`` is used without a Dabb (Pinochle, V6.2, where the bidder always plays); with
    one the soloist exchanges and names trump (V4.2, V5.3)."""
    for k in range(O_COLS):
        out[k] = 0.0
    if tk.dabb_size > 0:
        kreuz_outcomes(hands5, sol, pol, state, tk, kr, beat, cnt, res, out)
    else:
        st = sol % 2
        play_contract80(hands5[:4], sol, 0, trump, pol, state, tk, beat, cnt, res)
        out[O_TOTAL] = res[R_SCORE + st]
        out[O_OTHER] = res[R_SCORE + 1 - st]


@njit
def contracts_at(est, losers, prices, kr, out):
    """``out[i]`` = the contract a soloist with estimate ``est[i]`` and ``losers[i]`` Durch
    losers chooses at ``prices[i]`` (game.contract_for_bid, as team_game.kreuz_contract)."""
    for i in range(est.shape[0]):
        out[i] = contract_for_bid(est[i], np.int64(losers[i]), prices[i], kr)


@njit
def team_lookahead_samples(hand, seat, deck, bids, ev_lo, ev_hi, use_evidence, scales,
                           kinds, coefs, offsets, high, holder, passed, next_ch, open_auction,
                           rv1, rv2, state, tk, kr, own, seats, la_sol, la_bid, weight):
    """Monte Carlo core of the team look-ahead: ``n = weight.shape[0]`` sampled deals.

    ``hand`` uint8[24]: the advised hand, the only cards the kernel knows; ``seat`` 0..3,
    whose call it is; ``deck`` the unseen cards (shuffled in place); ``bids`` int64[K] the
    maxima to try; ``ev_lo``/``ev_hi`` int64[4] per seat its bidding evidence (highest bid
    said, bid declined; 0 = none); ``scales``/``offsets`` per seat the model's noise scale
    and offset over the rule of thumb (``rv1``, ``rv2``: V6.2 trick value and partner
    allowance; V1: the card-point estimate); the auction state as in
    :func:`plan_team_auctions`.  OUT: ``own`` float64[n, T, O_COLS]: this seat as bidder
    (:func:`bidder_outcomes`; T = 4 trumps in Pinochle, 1 with a Dabb); ``seats``
    float64[n, 4, O_COLS]: the same for each seat that becomes the bidder under some plan
    (its rule-of-thumb trump; 0 where unused); ``la_sol``/``la_bid`` int64[n, K + 1] each
    plan's bidder and bid; ``weight`` the inference weight.
    """
    n = weight.shape[0]
    K = bids.shape[0]
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
    pol = np.full(4, POLICY_HEURISTIC, dtype=np.int64)
    out2 = np.zeros(2, dtype=np.int64)
    feat = np.zeros(coefs.shape[1], dtype=np.float64)
    T = own.shape[1]
    for i in range(n):
        deal_counts_fixed(state, deck, hands, seat, hand, hs)
        w = 1.0
        for p in range(4):
            if p == seat:
                continue
            v, tr = team_model_value(hands[p], p, kinds[p], coefs[p], offsets[p], tk, kr, rv1,
                                     rv2, tmp, feat)
            if not dabb:
                trumps[p] = tr
            if use_evidence and (ev_lo[p] > 0 or ev_hi[p] > 0):
                w *= evidence_likelihood(v, ev_lo[p], ev_hi[p], scales[p])
            maxb[p] = sample_max(v, ev_lo[p], ev_hi[p], scales[p], use_evidence,
                                 tk.bid_step, state)
        weight[i] = w
        plan_team_auctions(maxb, seat, bids, high, holder, passed, next_ch, open_auction, tk,
                           la_sol[i], la_bid[i], out2)
        for t in range(T):
            bidder_outcomes(hands, seat, t, pol, state, tk, kr, beat, cnt, res, own[i, t])
        for p in range(4):
            for k in range(O_COLS):
                seats[i, p, k] = 0.0
            if p == seat:
                continue
            need = False
            for j in range(K + 1):
                if la_sol[i, j] == p:
                    need = True
                    break
            if need:
                bidder_outcomes(hands, p, trumps[p], pol, state, tk, kr, beat, cnt, res,
                                seats[i, p])


# --------------------------------------------------------------------------- Python side

def simulate_team_lookahead(counts, seat: int, state, samples: int, seed, spec: TeamSpec,
                            model: TeamModel, partner: TeamModel, use_evidence: bool = True,
                            key: int = 0, grid: int = GRID80) -> dict:
    """Run :func:`team_lookahead_samples` (rounds of ``samples`` deals, each from its own
    seed, until the effective sample size reaches ``ESS_FRACTION x samples`` or
    ``MAX_ROUNDS`` rounds are done, as in team_advice.sample_branches).  Returns the
    kernel's arrays concatenated, plus ``bids``, ``next_bid``, ``loss_factor``."""
    n = int(samples)
    lo, hi = _evidence(state, spec)
    high, holder, passed, next_ch = _auction_args(state, spec)
    nb = state.next_bid(spec.rules) if spec.open_auction else state.next_bid(spec.start, spec.step)
    bids = nb + spec.step * np.arange(int(grid), dtype=np.int64)
    rv1 = DEFAULT_TRICK_VALUE if spec.open_auction else DEFAULT_TEAM_TRICK_ESTIMATE
    rv2 = DEFAULT_PARTNER_ALLOWANCE if spec.open_auction else 0
    partner_seat = (seat + 2) % 4
    scales = np.array([partner.scale if p == partner_seat else model.scale for p in range(4)])
    offsets = np.array([partner.offset if p == partner_seat else model.offset for p in range(4)],
                       dtype=np.float64)
    kinds = np.array([partner.kind if p == partner_seat else model.kind for p in range(4)],
                     dtype=np.int64)
    coefs = np.stack([(partner if p == partner_seat else model).coef_array() for p in range(4)])
    T = 1 if spec.dabb_size > 0 else 4
    K = bids.shape[0]
    use = bool(use_evidence) and any(lo[p] or hi[p] for p in range(4) if p != seat)
    parts = []
    hand = np.asarray(counts, dtype=np.uint8)
    for r in range(MAX_ROUNDS if use else 1):
        part = dict(own=np.zeros((n, T, O_COLS)), seats=np.zeros((n, 4, O_COLS)),
                    la_sol=np.zeros((n, K + 1), dtype=np.int64),
                    la_bid=np.zeros((n, K + 1), dtype=np.int64), weight=np.zeros(n))
        team_lookahead_samples(hand, int(seat), unseen_deck(counts, spec), bids,
                               np.array(lo, dtype=np.int64), np.array(hi, dtype=np.int64),
                               bool(use_evidence), scales, kinds, coefs, offsets, int(high), int(holder),
                               int(passed), int(next_ch), int(spec.open_auction), int(rv1),
                               int(rv2), chunk_state(seed, key * MAX_ROUNDS + r), spec.tk,
                               spec.kr, part["own"], part["seats"], part["la_sol"],
                               part["la_bid"], part["weight"])
        parts.append(part)
        w = np.concatenate([q["weight"] for q in parts])
        if not use or (w.sum() > 0 and np.isfinite(w).all() and effective_sample_size(w) >= ESS_FRACTION * n):
            break
    out = {k: np.concatenate([q[k] for q in parts]) for k in parts[0]}
    out.update(bids=bids, next_bid=int(nb), loss_factor=int(spec.tk.loss_factor),
               dabb=spec.dabb_size > 0, kr=spec.kr)
    return out


def bidder_rel(o: np.ndarray, price, res: dict) -> tuple[np.ndarray, np.ndarray]:
    """The bidding team's deal score minus the other team's, and whether its contract is
    made, at ``price`` (broadcast against ``o[..., 0]``) from :func:`bidder_outcomes`'
    columns ``o`` (as team_advice.bid_outcome).  Playing: the total if it reaches the
    price, else -loss_factor x price (V4.6, V5.7, V6.6).  With a Dabb the soloist's
    contract at that price (:func:`contracts_at`): going out (V4.3, V5.4) scores -price
    against the other team's melds + bonus and is never made; a sure Durch (V4.6 "Durch
    as V2.7") scores +value or -durch_loss_factor x value against 0."""
    price = np.broadcast_to(np.asarray(price, dtype=np.float64), o.shape[:-1])
    tt, oth = o[..., O_TOTAL], o[..., O_OTHER]
    lf = float(res["loss_factor"])
    made = tt >= price
    rel = np.where(made, tt, -lf * price) - oth
    if not res["dabb"]:
        return rel, made
    kr = res["kr"]
    con = np.empty(price.size, dtype=np.int64)
    contracts_at(np.ascontiguousarray(o[..., O_EST], dtype=np.float64).ravel(),
                 np.ascontiguousarray(o[..., O_LOSERS], dtype=np.float64).ravel(),
                 np.ascontiguousarray(price, dtype=np.int64).ravel(), kr, con)
    con = con.reshape(price.shape)
    value = np.where(con == CONTRACT_OPEN_DURCH, kr.open_durch_value, kr.durch_value).astype(float)
    dm = o[..., O_DURCH_MADE] > 0
    is_durch = (con == CONTRACT_DURCH) | (con == CONTRACT_OPEN_DURCH)
    is_out = con == CONTRACT_SURRENDER
    rel = np.where(is_out, -price - o[..., O_OUT_OTHER],
                   np.where(is_durch, np.where(dm, value, -kr.durch_loss_factor * value), rel))
    made = np.where(is_out, False, np.where(is_durch, dm, made))
    return rel, made


def own_values(res: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """This seat as bidder at every bid of the grid: ``(trump column per bid, rel[n, K],
    made[n, K])``, the trump being the column with the best weighted mean (Pinochle; one
    column with a Dabb, where the exchange names trump)."""
    own, w, bids = res["own"], res["weight"], res["bids"]
    K = bids.shape[0]
    best = np.zeros(K, dtype=np.int64)
    rel = np.empty((own.shape[0], K))
    made = np.empty((own.shape[0], K), dtype=bool)
    for k, b in enumerate(bids):
        r, m = bidder_rel(own, float(b), res)
        best[k] = int(np.argmax((w[:, None] * r).sum(axis=0)))
        rel[:, k] = r[:, best[k]]
        made[:, k] = m[:, best[k]]
    return best, rel, made


def team_plan_values(res: dict, seat: int, with_made: bool = False):
    """Per-sample objective (this team's deal score minus the other's) of every plan:
    float[n, K + 1] (column 0 = pass now, column j = bid up to ``bids[j - 1]``); with
    ``with_made`` also bool[n, K + 1]: this seat is the bidder and makes its contract."""
    best = own_values(res)[0]
    bids = res["bids"]
    step = int(bids[1] - bids[0]) if bids.shape[0] > 1 else 10
    n, J = res["la_sol"].shape
    rows = np.arange(n)
    team = seat % 2
    out = np.zeros((n, J))
    made_out = np.zeros((n, J), dtype=bool)
    for j in range(J):
        sol = res["la_sol"][:, j]
        price = res["la_bid"][:, j].astype(np.float64)
        mine = sol == seat
        if mine.any():
            k = np.clip(((price - bids[0]) // step).astype(np.int64), 0, bids.shape[0] - 1)
            rel, made = bidder_rel(res["own"][rows, best[k]], price, res)
            out[mine, j] = rel[mine]
            made_out[mine, j] = made[mine]
        other = (sol >= 0) & ~mine
        if other.any():
            p = np.where(other, sol, 0)
            rel, _m = bidder_rel(res["seats"][rows, p], price, res)
            rel = np.where(p % 2 == team, rel, -rel)
            out[other, j] = rel[other]
    return (out, made_out) if with_made else out


def choose_plan(V: np.ndarray, static_cap: int, forced_open: bool) -> tuple[int | None, int]:
    """The recommended plan index ``j`` (0 = pass now) from the plan values ``V``
    (float[K + 1]) and the static break-even index ``static_cap`` (module docstring; the
    same rule as analyzer.analyses.lookahead.lookahead_max_bid).  Returns ``(j or None
    for "pass", j)``; a forced opening (V5.2) with no plan beyond it is "pass"."""
    best = float(V.max())
    tol = 1e-9 * (1.0 + abs(best))
    tied = np.flatnonzero(V >= best - tol)
    if V[0] >= best - tol:
        j = 0
    else:
        ok = tied[tied <= static_cap]
        j = int(ok.max()) if ok.size else int(tied.min())
    if j == 0 or (forced_open and j == 1):
        return None, j
    return j, j


def static_cap(rel_own: np.ndarray, pass_obj: np.ndarray, w: np.ndarray) -> int:
    """Index j (>= 1) of the last bid, counting up from the next bid, with E[objective |
    this seat the bidder at it] >= E[objective | pass now]; 0 = none."""
    pv = float((w * pass_obj).sum() / w.sum())
    ev = (w[:, None] * rel_own).sum(axis=0) / w.sum()
    j = 0
    for k in range(ev.shape[0]):
        if ev[k] >= pv:
            j = k + 1
        else:
            break
    return j


@dataclass
class TeamLookaheadAdvice:
    """Result of :func:`advise_team_lookahead`.

    ``rows`` (one per maximum M): ``bid`` (= M), ``value`` (+ ``_lo``/``_hi``: E[objective]
    bidding up to M), ``minus_pass`` (+ CI, paired), ``p_soloist`` (+ CI: P(this seat
    becomes the bidder)), ``p_team`` (P(this seat or the partner)), ``mean_price`` (mean
    bid this seat buys it at), ``p_make_if_soloist``, ``p_make`` (static: P(make) as bidder
    at M), and, under the recommended plan, ``p_buy_at`` / ``p_buy_by`` (P(this seat
    becomes the bidder at exactly / at most this bid)).  ``pass_outcome``: under "pass now"
    P(partner / opponent is the bidder / thrown in).
    """

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
    explanation: str
    opponents: str
    partner: str
    model_description: str
    plan_index: int
    p_soloist: Estimate
    static_max_bid: int | None
    pass_outcome: dict = field(default_factory=dict)
    forced_open: bool = False

    def summary(self) -> str:
        team = self.seat % 2
        lines = [f"{self.game}   hand: {self.hand}",
                 f"seat: {self.seat} (team {team}: seats {team}+{team + 2})"
                 f"   auction: {self.auction.describe()}",
                 f"objective: team score - other team's score   samples: {self.samples} "
                 f"(effective {self.ess:.0f})",
                 f"look-ahead: the auction is played out for every maximum; opponents: "
                 f"{self.opponents}, partner: {self.partner} ({self.model_description})",
                 f"{'up to':>7}  {'E[objective]':>22}  {'vs pass':>8}  {'P(you)':>6}  "
                 f"{'P(team)':>7}  {'price':>6}  {'P(make)':>7}  {'buy at':>6}  {'by':>5}"]
        runs = []
        for r in self.rows:
            key = (round(r["value"], 6), round(r["p_soloist"], 6), round(r["p_buy_at"], 6),
                   round(r["p_team"], 6))
            if runs and runs[-1][0] == key:
                runs[-1][2] = r["bid"]
                continue
            runs.append([key, r, r["bid"]])
        for _, r, last in runs:
            label = f"{r['bid']}" if last == r["bid"] else f"{r['bid']}-{last}"
            mark = " <" if self.max_bid is not None and r["bid"] <= self.max_bid <= last else ""
            price = f"{r['mean_price']:6.0f}" if r["p_soloist"] > 0 else "     -"
            pm = f"{100 * r['p_make_if_soloist']:6.0f}%" if r["p_soloist"] > 0 else "      -"
            val = f"{r['value']:+7.1f} [{r['value_lo']:+.0f}, {r['value_hi']:+.0f}]"
            lines.append(f"{label:>7}  {val:>22}  {r['minus_pass']:+8.1f}  "
                         f"{100 * r['p_soloist']:5.0f}%  {100 * r['p_team']:6.0f}%  {price}  {pm}  "
                         f"{100 * r['p_buy_at']:5.0f}%  {100 * r['p_buy_by']:4.0f}%{mark}")
        pv = self.pass_value
        po = self.pass_outcome
        lines.append(f"pass now: E[objective] {pv.mean:+.1f} [{pv.lo:+.0f}, {pv.hi:+.0f}]; "
                     f"partner bidder {100 * po['partner']:.0f}%, opponent {100 * po['opponent']:.0f}%, "
                     f"thrown in {100 * po['thrown_in']:.0f}%")
        lines.append("(up to: bid up to this and stop; P(you) / P(team): you / you or your partner "
                     "become the bidder; price: mean bid you buy it at; P(make): when you are the "
                     "bidder; buy at / by: under the recommended plan, P(you become the bidder at "
                     "exactly / at most this bid))")
        if self.static_max_bid != self.max_bid:
            st = "pass" if self.static_max_bid is None else f"up to {self.static_max_bid}"
            lines.append(f"note: the static team advisor's rule on the same samples says {st}")
        lines.append(self.explanation)
        return "\n".join(lines)

    def to_dict(self) -> dict:
        from analyzer.mechanics.rules import get_rules
        return {"rules": self.game, "hand": self.hand.codes(get_rules(self.game).low_card),
                "seat": self.seat,
                "team": self.seat % 2, "auction": list(self.auction.calls),
                "samples": self.samples, "effective_samples": self.ess,
                "next_bid": self.next_bid, "max_bid": self.max_bid, "lookahead": True,
                "opponents": self.opponents, "partner": self.partner,
                "pass_value": self.pass_value.to_dict(), "pass_outcome": self.pass_outcome,
                "p_soloist": self.p_soloist.to_dict(), "static_max_bid": self.static_max_bid,
                "explanation": self.explanation, "table": self.rows}


def _rows(res, seat, vals, made_plan, j_best, own_made, best_t, rows_shown):
    w = res["weight"]
    sw = w.sum()
    ess = effective_sample_size(w)
    bids = res["bids"]
    K = bids.shape[0]
    pass_obj = vals[:, 0]
    mine_plan = res["la_sol"][:, j_best] == seat
    bid_plan = res["la_bid"][:, j_best]
    T = res["own"].shape[1]
    out = []
    for j in range(1, K + 1):
        b = int(bids[j - 1])
        sol = res["la_sol"][:, j]
        v = weighted_mean(vals[:, j], w, ess)
        d = weighted_mean(vals[:, j] - pass_obj, w, ess)
        mine = sol == seat
        ps = weighted_proportion(mine.astype(np.float64), w, ess)
        wm = float((w * mine).sum())
        out.append(dict(
            bid=b, value=v.mean, value_lo=v.lo, value_hi=v.hi, value_se=v.se,
            minus_pass=d.mean, minus_pass_lo=d.lo, minus_pass_hi=d.hi,
            p_soloist=ps.mean, p_soloist_lo=ps.lo, p_soloist_hi=ps.hi,
            p_team=float((w * ((sol >= 0) & (sol % 2 == seat % 2))).sum() / sw),
            p_make_if_soloist=float((w * made_plan[:, j]).sum() / wm) if wm > 0 else float("nan"),
            mean_price=float((w * mine * res["la_bid"][:, j]).sum() / wm) if wm > 0 else float("nan"),
            p_make=float((w * own_made[:, j - 1]).sum() / sw),
            trump=None if T == 1 else int(best_t[j - 1]),
            p_buy_at=float((w * (mine_plan & (bid_plan == b))).sum() / sw),
            p_buy_by=float((w * (mine_plan & (bid_plan <= b))).sum() / sw)))
    # the grid up to a few rows past the plan, or until the static P(make) has fallen away
    last = max(j_best - 1, 0)
    keep = last + 1
    for j in range(last + 1, K):
        keep = j + 1
        if j >= last + 4 and (out[j]["p_make"] < 0.01 or j >= last + 8):
            break
    keep = max(keep, min(3, K), min(rows_shown, K) if rows_shown else 0)
    return out[:keep], ess


def _explain(rows, pass_est, max_bid, forced_open, p_sol, V, pass_outcome):
    po = (f" Passing now leaves it to your partner in {100 * pass_outcome['partner']:.0f}% of "
          f"deals, to an opponent in {100 * pass_outcome['opponent']:.0f}%.")
    if max_bid is None:
        first = 2 if forced_open else 1
        if len(V) <= first:
            return "pass: there is no bid left on the grid." + po
        k = first - 1 + int(np.argmax(V[first:]))
        r = rows[min(k, len(rows) - 1)]
        head = "stop at the forced opening and pass after" if forced_open else "pass"
        return (f"{head}: the best plan that bids on (up to {r['bid']}) is worth EV "
                f"{r['value']:+.0f} for your team, passing {pass_est.mean:+.0f}; bidding on would "
                f"make you the bidder in {100 * r['p_soloist']:.0f}% of deals." + po)
    r = next(x for x in rows if x["bid"] == max_bid)
    msg = (f"bid up to {max_bid}: you become the bidder in {100 * p_sol.mean:.0f}% of deals "
           f"[{100 * p_sol.lo:.0f}-{100 * p_sol.hi:.0f}], your team in {100 * r['p_team']:.0f}%")
    if p_sol.mean > 0:
        half = next((x for x in rows if x["p_buy_by"] >= p_sol.mean / 2), None)
        if half is not None and half["bid"] < max_bid:
            msg += f"; you buy it at {half['bid']} or less in {100 * half['p_buy_by']:.0f}%"
        if r["p_soloist"] > 0:
            msg += f"; as the bidder you make it in {100 * r['p_make_if_soloist']:.0f}%"
    if p_sol.mean < 0.05:
        msg += " (this pushes the price: whoever buys it must make a higher bid)"
    return msg + f"; EV {r['value']:+.0f} for your team against {pass_est.mean:+.0f} for passing now." + po


def advise_team_lookahead(hand, seat=0, auction="", rules=None, samples: int = DEFAULT_TEAM_LA_SAMPLES,
                          seed: int = 0, use_evidence: bool = True, opponents=None, partner=None,
                          rows: int = 0, progress=None) -> TeamLookaheadAdvice:
    """The team look-ahead advice for a hand of a team game in ``seat`` (0..3) after
    ``auction`` (module docstring).

    ``opponents`` / ``partner``: ``"rule"`` or ``"advisor"`` (:data:`TEAM_MODELS`; default
    :func:`default_team_model`; the partner defaults to the opponents' model).  ``rows``:
    show at least this many table rows.  Raises BinokelError (one line) on bad input.
    """
    spec, h, counts, seat, state = team_request(hand, seat, auction, samples, rules)
    model = team_model(default_team_model(spec) if opponents is None else opponents, spec)
    pmodel = model if partner is None else team_model(partner, spec)
    res = simulate_team_lookahead(counts, seat, state, samples, seed, spec, model, pmodel,
                                  use_evidence)
    if progress is not None:
        progress(1, 1)
    w = res["weight"]
    if not np.isfinite(w).all() or w.sum() <= 0:
        raise BinokelError("no sampled deal is consistent with the auction: check the calls (V1)")
    vals, made_plan = team_plan_values(res, seat, with_made=True)
    V = (w[:, None] * vals).sum(axis=0) / w.sum()
    best_t, rel_own, own_made = own_values(res)
    cap = static_cap(rel_own, vals[:, 0], w)
    forced_open = bool(spec.forced_opening and not spec.open_auction and seat == 0
                       and not state.calls)
    max_j, j_best = choose_plan(V, cap, forced_open)
    bids = res["bids"]
    max_bid = None if max_j is None else int(bids[max_j - 1])
    table, ess = _rows(res, seat, vals, made_plan, j_best, own_made, best_t, rows)
    pass_est = weighted_mean(vals[:, 0], w, ess)
    p_sol = weighted_proportion((res["la_sol"][:, j_best] == seat).astype(np.float64), w, ess)
    s0 = res["la_sol"][:, 0]
    sw = w.sum()
    pass_outcome = {"partner": float((w * (s0 == (seat + 2) % 4)).sum() / sw),
                    "opponent": float((w * ((s0 >= 0) & (s0 % 2 != seat % 2))).sum() / sw),
                    "thrown_in": float((w * (s0 < 0)).sum() / sw),
                    "you": float((w * (s0 == seat)).sum() / sw)}
    static_bid = int(bids[cap - 1]) if cap and not (forced_open and cap == 1) else None
    expl = _explain(table, pass_est, max_bid, forced_open, p_sol, V, pass_outcome)
    return TeamLookaheadAdvice(spec.name, h, seat, state, int(w.shape[0]), ess, int(res["next_bid"]),
                               max_bid, pass_est, table, expl, model.name, pmodel.name,
                               model.description if pmodel is model else
                               f"{model.description}; partner {pmodel.description}",
                               j_best, p_sol, static_bid, pass_outcome, forced_open)


def default_team_model(spec: TeamSpec) -> str:
    """The team look-ahead's default model of the other seats (docs/methods.md#team-lookahead says why)."""
    return "advisor"


def team_lookahead_decision(counts, seat: int, state, samples: int, seed, key: int,
                            spec: TeamSpec, model, partner=None) -> tuple[bool, int | None]:
    """For the tournament agent ``advisor-la``: ``(bid the next bid?, the trump this seat
    names if it buys at that bid; None with a Dabb)``, from the agent's own hand
    ``counts``, its seat and the calls so far (``state``); the other hands are samples."""
    m = team_model(model, spec)
    pm = m if partner is None else team_model(partner, spec)
    res = simulate_team_lookahead(counts, seat, state, samples, seed, spec, m, pm, True, key)
    w = res["weight"]
    if not np.isfinite(w).all() or w.sum() <= 0:
        w = res["weight"] = np.ones(len(w))
    vals = team_plan_values(res, seat)
    V = (w[:, None] * vals).sum(axis=0) / w.sum()
    best_t, rel_own, _made = own_values(res)
    cap = static_cap(rel_own, vals[:, 0], w)
    forced_open = bool(spec.forced_opening and not spec.open_auction and seat == 0
                       and not state.calls)
    max_j, _j = choose_plan(V, cap, forced_open)
    trump = None if res["own"].shape[1] == 1 else int(best_t[0])
    return max_j is not None, trump
