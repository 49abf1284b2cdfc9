"""A fitted model of the team advisor's maximum bid (V1 duels, V4, V5, V6.2).

The team games' counterpart of analyzer.analyses.fit_opponents: the team look-ahead's
``advisor`` model of the other three seats (analyzer.analyses.team_lookahead) and the team
tournament agent ``advisor-fit`` (analyzer.analyses.team_tournament) need a fast stand-in
for the team advisor (analyzer.analyses.team_advice).  Before this module that stand-in was
the team rule of thumb + one constant offset per auction form
(:data:`TEAM_ADVISOR_OFFSET`).

Model: a seat's private maximum is ``m = x . beta + e``, ``e`` logistic with scale ``s``;
``x`` = :func:`team_features` of its hand and seat: 1, the team rule-of-thumb value
(team_game.kreuz_rule_value with a Dabb, team_bidding.rule_value80 in Pinochle), aces,
tens, the longest suit, aces + tens in it, and 0/1 for seats 1, 2, 3.  The rule value
enters as a feature, so ``beta = (offset, 1, 0, ...)`` is the old offset model: the fit
can only be as good or better on the hands it is fitted on, and :func:`team_holdout_error`
measures both on fresh hands.

Data: the team advisor exactly as the tournament's ``advisor`` agent asks it
(team_advice.sample_branches with the calls as evidence and the advisor partner's offset,
team_advice.summarize_team_advice) on random hands, each seat at its first call
(:func:`team_fit_auctions`: seat 0 before the auction, seat k after the opening bid and
k - 1 passes; with a forced opening, V5.2, seat 0 has no first decision and is left out).
A recommendation ``B`` says ``B <= m < B + step``, "pass" says ``m < next bid``, the top
of the advisor's bid grid says ``m >= B``: the same interval-censored logistic likelihood
as fit_opponents, through bid_model_fit.fit_interval_logistic, which does the fit.

``binokel fit-opponents --rules kreuz-48|kreuz-40|pinochle-80`` runs it and stores the
entry under the RuleSet's name in data/fits/advisor.json (``kind: "team"``).
"""
from __future__ import annotations

import math

import numpy as np

from analyzer._jit import njit
from analyzer.analyses.bid_model_fit import decision_rows, fit_interval_logistic
from analyzer.analyses.opponents import ADVISOR_FIT
from analyzer.analyses.team_advice import (ADVISOR_PARTNER_OFFSET, GRID80, bids_over_partner,
                                           parse_team_auction_for, sample_branches,
                                           summarize_team_advice)
from analyzer.errors import BinokelError
from analyzer.fits import load_fit
from analyzer.mechanics.bidding import DEFAULT_EVIDENCE_SCALE
from analyzer.mechanics.cards import N_RANKS, N_SUITS
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.team_bidding import (DEFAULT_PARTNER_ALLOWANCE, DEFAULT_TEAM_TRICK_ESTIMATE,
                                             DEFAULT_TRICK_VALUE, rule_value80)
from analyzer.mechanics.team_game import kreuz_rule_value
from analyzer.mechanics.sampling import deal_counts
from analyzer.mechanics.rules import TeamSpec, team_spec

#: Names of the team model's inputs, in coefficient order (:func:`team_features`).
TEAM_FEATURES = ("intercept", "rule_value", "aces", "tens", "longest_suit", "top_in_longest",
                 "seat1", "seat2", "seat3")
N_TEAM_FEATURES = len(TEAM_FEATURES)
#: model kinds: rule of thumb + offset (the old model), linear in :func:`team_features`
KIND_OFFSET, KIND_FIT = 0, 1
#: How far above the rule of thumb the team advisor (analyzer.analyses.team_advice) bids,
#: by auction form (True: V6.2 open bidding; False: V1 duels): the ``advisor`` model is the
#: rule of thumb + this offset.  Median of (advisor's recommended maximum - rule-of-thumb
#: value) over the opening hands the advisor bids, 80 random hands each, seed 99, 150
#: samples: pinochle-80 +60 (team_advice.ADVISOR_PARTNER_OFFSET); with the kreuz rule
#: of thumb of team_game.kreuz_rule_value (fitted team model + 50): kreuz-48 seat 0 -12
#: (quartiles -24, -4; the advisor bid 79 of 80), kreuz-48 seat 1 after 150 -18, kreuz-40
#: seat 1 after 150 +7 (script in the issue-14 note).
TEAM_ADVISOR_OFFSET = {True: 60, False: -12}
DEFAULT_TEAM_FIT_HANDS = 1000
#: the team tournament's advisor samples in the matches of docs/results.md (``--samples 100``)
DEFAULT_TEAM_FIT_SAMPLES = 100
DEFAULT_TEAM_HOLDOUT = 300
#: held-out hands use this offset on the seed (never the fit's hands)
TEAM_HOLDOUT_SEED_OFFSET = 1_000_003


@njit
def team_features(hand, seat, rv, out):
    """The team model's inputs (module docstring) for one hand (uint8[24] counts, cards.py
    type = suit x 6 + rank, rank 0 = ace, 1 = ten) in ``seat`` (0..3) with rule-of-thumb
    value ``rv``; ``out`` float64[N_TEAM_FEATURES]."""
    aces = 0
    tens = 0
    longest = -1
    top_long = 0
    for s in range(N_SUITS):
        n = 0
        top = 0
        for r in range(N_RANKS):
            c = np.int64(hand[s * N_RANKS + r])
            n += c
            if r <= 1:
                top += c
                if r == 0:
                    aces += c
                else:
                    tens += c
        if n > longest or (n == longest and top > top_long):
            longest = n
            top_long = top
    out[0] = 1.0
    out[1] = rv
    out[2] = aces
    out[3] = tens
    out[4] = longest
    out[5] = top_long
    out[6] = 1.0 if seat == 1 else 0.0
    out[7] = 1.0 if seat == 2 else 0.0
    out[8] = 1.0 if seat == 3 else 0.0


@njit
def team_rule_value(hand, tk, kr, rv1, rv2, tmp):
    """The team rule-of-thumb value of a hand and its trump (-1 with a Dabb, where the
    soloist names trump after the exchange): team_game.kreuz_rule_value (V4, V5) or
    team_bidding.rule_value80 (V6.2)."""
    if tk.dabb_size > 0:
        return np.float64(kreuz_rule_value(hand, kr, rv1, tmp)), np.int64(-1)
    v, tr = rule_value80(hand, tk, rv1, rv2, tmp)
    return np.float64(v), np.int64(tr)


@njit
def team_model_value(hand, seat, kind, coef, offset, tk, kr, rv1, rv2, tmp, f):
    """A seat's model value ``v`` (its private maximum is ``v`` + logistic noise) and its
    rule-of-thumb trump: rule of thumb + ``offset`` (``kind`` 0) or ``coef`` .
    :func:`team_features` (``kind`` 1).  ``tmp`` int64[4], ``f`` float64[N_TEAM_FEATURES]
    workspaces."""
    rv, tr = team_rule_value(hand, tk, kr, rv1, rv2, tmp)
    if kind == KIND_OFFSET:
        return rv + offset, tr
    team_features(hand, seat, rv, f)
    v = 0.0
    for i in range(f.shape[0]):
        v += coef[i] * f[i]
    return v, tr


def rule_params(spec: TeamSpec) -> tuple[int, int]:
    """The rule of thumb's parameters (rv1, rv2) as the tournament and the advisor use them."""
    if spec.open_auction:
        return int(DEFAULT_TRICK_VALUE), int(DEFAULT_PARTNER_ALLOWANCE)
    return int(DEFAULT_TEAM_TRICK_ESTIMATE), 0


def team_fit_auctions(spec: TeamSpec) -> tuple:
    """``((seat, calls), ...)``: each seat's first decision (module docstring)."""
    s = int(spec.start)
    out = [(k, " ".join([str(s)] + ["pass"] * (k - 1))) for k in (1, 2, 3)]
    if not spec.forced_opening or spec.open_auction:
        out.insert(0, (0, ""))
    return tuple(out)


def team_hand(seed: int, i: int, spec: TeamSpec) -> np.ndarray:
    """Hand i of the fit: one seat's hand of a uniformly random deal (V4.1, V5.1, V6.1)."""
    hands = np.zeros((5, 24), dtype=np.uint8)
    deal_counts(chunk_state((seed, i, 7), 0), spec.deck.copy(), hands, spec.hand_size)
    return hands[0].copy()


def team_advisor_decision(counts, seat: int, state, samples: int, seed, spec: TeamSpec):
    """The team tournament's advisor agent's recommended maximum at this call:
    ``(lo, hi, bid)`` bounds of its private maximum (``-inf``/``inf`` = none) and the bid
    (0 = pass)."""
    rv1, rv2 = rule_params(spec)
    raw = sample_branches(counts, seat, state, samples, seed, spec, True, rv1, rv2,
                          scale=DEFAULT_EVIDENCE_SCALE,
                          partner_offset=int(ADVISOR_PARTNER_OFFSET[spec.open_auction]))
    nb = state.next_bid(spec.rules) if spec.open_auction else state.next_bid(spec.start, spec.step)
    mb = summarize_team_advice(raw, nb, spec.step, rows=0,
                               over_partner=bids_over_partner(state, seat, spec))[0]
    top = nb + spec.step * (GRID80 - 1)
    if mb is None:
        return -math.inf, float(nb), 0, nb
    hi = math.inf if mb >= top else float(mb + spec.step)
    return float(mb), hi, int(mb), nb


def _team_chunk(seed, idx, samples, rules):
    spec = team_spec(rules)
    auctions = team_fit_auctions(spec)
    tmp = np.zeros(4, dtype=np.int64)
    rv1, rv2 = rule_params(spec)
    rows = []
    for i in idx:
        seat, calls = auctions[i % len(auctions)]
        counts = team_hand(seed, i, spec)
        state = parse_team_auction_for(calls, spec)
        lo, hi, bid, nb = team_advisor_decision(counts, seat, state, samples, (seed, i), spec)
        rv = team_rule_value(counts, spec.tk, spec.kr, rv1, rv2, tmp)[0]
        f = np.empty(N_TEAM_FEATURES, dtype=np.float64)
        team_features(counts, seat, rv, f)
        rows.append((f, lo, hi, bid, nb))
    return rows


def team_advisor_decisions(n_hands: int, samples: int = DEFAULT_TEAM_FIT_SAMPLES, seed: int = 0,
                           rules=None, n_jobs: int = 1, progress=None):
    """The team advisor's decisions on ``n_hands`` random hands (hand i at first decision
    ``i mod len(team_fit_auctions)``).  Returns ``(X float[n, N_TEAM_FEATURES], lo, hi,
    bid int[n], first int[n] = the seat's next bid)``; row i depends only on (seed, i), so
    any ``n_jobs`` gives the same rows."""
    rows = decision_rows(_team_chunk, n_hands, 10, seed, samples, rules, n_jobs, progress)
    X = np.array([r[0] for r in rows])
    lo = np.array([r[1] for r in rows])
    hi = np.array([r[2] for r in rows])
    bid = np.array([r[3] for r in rows], dtype=np.int64)
    first = np.array([r[4] for r in rows], dtype=np.int64)
    return X, lo, hi, bid, first


def team_model_max_bids(v, lo, hi, bid, first, step):
    """A model's maximum bid next to the advisor's on one scale (as
    fit_opponents.model_max_bids): the model's ``v`` rounded down to the step (how
    ``advisor-fit`` bids), either side's pass put at ``first - step``, the model capped
    where the advisor took the top of its grid.  Returns ``(model, advisor)``."""
    first = first.astype(np.float64)
    adv = np.where(bid > 0, bid.astype(np.float64), first - step)
    m = np.floor(np.asarray(v, dtype=np.float64) / step) * step
    m = np.where(m < first, first - step, m)
    m = np.where(np.isinf(hi), np.minimum(m, lo), m)
    return m, adv


def team_prediction_error(v, lo, hi, bid, first, step) -> dict:
    """MAE of the model's maximum bid against the advisor's, its SE, and how often both
    agree on bidding at all, for model values ``v`` on decision rows."""
    m, adv = team_model_max_bids(v, lo, hi, bid, first, step)
    err = np.abs(m - adv)
    n = len(err)
    return dict(mae=float(err.mean()),
                mae_se=float(err.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan"),
                pass_agree=float(((m >= first) == (bid > 0)).mean()), hands=int(n))


def offset_values(X, offset: float):
    """The old model's values: rule of thumb + ``offset`` (:data:`TEAM_ADVISOR_OFFSET`)."""
    return X[:, TEAM_FEATURES.index("rule_value")] + float(offset)


def fit_team_advisor_model(n_hands: int = DEFAULT_TEAM_FIT_HANDS,
                           samples: int = DEFAULT_TEAM_FIT_SAMPLES, seed: int = 0, rules=None,
                           n_jobs: int = 1, progress=None, holdout: int = DEFAULT_TEAM_HOLDOUT) -> dict:
    """Ask the team advisor on ``n_hands`` random hands and fit the model (module
    docstring): the entry data/fits/advisor.json stores for the game.  ``holdout`` > 0 measures
    the fitted model and the old offset model on that many fresh hands (the same rows
    for both); ``use`` says which one the look-ahead's ``advisor`` model then is
    ("fit" unless the offset model's held-out MAE is lower)."""
    spec = team_spec(rules)
    if not 20 <= int(n_hands) <= 100_000:
        raise BinokelError(f"hands must be between 20 and 100000, got {n_hands}")
    if int(samples) < 1:
        raise BinokelError(f"samples must be at least 1, got {samples}")
    X, lo, hi, bid, first = team_advisor_decisions(int(n_hands), int(samples), int(seed),
                                                   rules, n_jobs, progress)
    fit = _fit(X, lo, hi, spec)
    off = int(TEAM_ADVISOR_OFFSET[bool(spec.open_auction)])
    hopt = f" --holdout {holdout}" if holdout else ""
    fit.update(kind="team", features=list(TEAM_FEATURES), hands=int(n_hands),
               samples=int(samples), seed=int(seed), rules=spec.name,
               auctions=[list(a) for a in team_fit_auctions(spec)],
               pass_share=float((bid == 0).mean()),
               mean_bid=float(bid[bid > 0].mean()) if (bid > 0).any() else None,
               offset=off, use="fit",
               command=f"binokel fit-opponents --rules {spec.name} --hands {n_hands} "
                       f"--samples {samples} --seed {seed}{hopt}")
    if holdout:
        Xh, loh, hih, bidh, firsth = team_advisor_decisions(int(holdout), int(samples),
                                                            int(seed) + TEAM_HOLDOUT_SEED_OFFSET,
                                                            rules, n_jobs)
        ef = team_prediction_error(Xh @ np.asarray(fit["coef"]), loh, hih, bidh, firsth, spec.step)
        eo = team_prediction_error(offset_values(Xh, off), loh, hih, bidh, firsth, spec.step)
        fit.update(holdout_hands=ef["hands"], holdout_mae=ef["mae"], holdout_mae_se=ef["mae_se"],
                   holdout_pass_agree=ef["pass_agree"], offset_holdout_mae=eo["mae"],
                   offset_holdout_mae_se=eo["mae_se"], offset_holdout_pass_agree=eo["pass_agree"],
                   holdout_paired_diff=_paired(Xh, fit["coef"], off, loh, hih, bidh, firsth,
                                               spec.step))
        fit["use"] = "fit" if ef["mae"] <= eo["mae"] else "offset"
    return fit


def _fit(X, lo, hi, spec: TeamSpec) -> dict:
    """bid_model_fit.fit_interval_logistic on the team features.  Where seat 0 has no first
    decision (a forced opening, V5.2) the intercept and the three seat columns are
    collinear: the first seat's column is left out (coefficient 0, SE 0), so seat 0 is
    modelled like seat 1 there."""
    seats = [s for s, _ in team_fit_auctions(spec)]
    keep = list(range(N_TEAM_FEATURES))
    if 0 not in seats:
        keep.remove(TEAM_FEATURES.index(f"seat{min(seats)}"))
    fit = fit_interval_logistic(X[:, keep], lo, hi)
    coef = [0.0] * N_TEAM_FEATURES
    se = [0.0] * N_TEAM_FEATURES
    for k, c, e in zip(keep, fit["coef"], fit["coef_se"]):
        coef[k], se[k] = c, e
    fit.update(coef=coef, coef_se=se)
    return fit


def _paired(X, coef, off, lo, hi, bid, first, step):
    """Paired difference of absolute errors (fit - offset) on the same held-out rows:
    (mean, SE)."""
    mf, adv = team_model_max_bids(X @ np.asarray(coef), lo, hi, bid, first, step)
    mo, _ = team_model_max_bids(offset_values(X, off), lo, hi, bid, first, step)
    d = np.abs(mf - adv) - np.abs(mo - adv)
    return [float(d.mean()), float(d.std(ddof=1) / math.sqrt(len(d))) if len(d) > 1 else float("nan")]


def team_fit_entry(spec: TeamSpec):
    """The stored team fit for the game, or None."""
    fit = load_fit(ADVISOR_FIT).get(spec.name)
    if fit is None or fit.get("kind") != "team":
        return None
    if tuple(fit["features"]) != TEAM_FEATURES:
        raise BinokelError(f"the stored team advisor fit for {spec.name} has other features than "
                           f"this version: refit it with 'binokel fit-opponents --rules {spec.name}'")
    return fit
