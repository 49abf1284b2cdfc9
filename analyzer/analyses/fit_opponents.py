"""Fit the ``advisor`` opponent model to the bid advisor's own output (R3).

The model (analyzer.analyses.opponents): a seat's private maximum is ``m = x . beta + e``,
``x`` = :func:`~analyzer.analyses.opponents.hand_features` of its 15 cards and seat, ``e``
logistic with scale ``s``.  The advisor is asked for its recommended maximum (the
tournament's advisor agent: :func:`~analyzer.analyses.advice_samples.simulate_advice` +
:func:`~analyzer.analyses.objectives.recommended_max_bid`, objective "relative", inference on)
on random hands at each seat's first call: forehand before the auction, middlehand after
``150``, rearhand after ``150 pass`` (the variant's opening bid, :func:`fit_auctions`).
Hands are dealt from the variant's deck with its hand size (R2; V2.1, V5.1), so each
three-player variant gets its own fit, stored as data under its RuleSet name; the team
games (kreuz-48, kreuz-40, pinochle-80) are fitted to the team advisor by
analyzer.analyses.team_fit (same likelihood, team features).  A recommendation ``B`` says ``B <= m < B + step``;
"pass" says ``m < next bid``; the top of the bid grid says ``m >= B``.  ``beta`` and ``s``
maximize the likelihood of these intervals (interval-censored logistic regression, the
same likelihood the inference uses for real calls), and standard errors come from the
inverse of the observed information (numerical Hessian): analyzer.analyses.bid_model_fit,
shared with the team fit.

``binokel fit-opponents [--rules NAME]`` runs it and rewrites that variant's entry in
data/fits/advisor.json (analyzer.fits).  Fit quality: :func:`holdout_error` (the MAE of the
model's maximum bid against the advisor's on fresh hands), stored with the fit.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from analyzer.analyses.advice_samples import simulate_advice
from analyzer.analyses.bid_model_fit import decision_rows, fit_interval_logistic
from analyzer.analyses.objectives import recommended_max_bid
from analyzer.analyses.opponents import ADVISOR_FIT, FEATURES, N_FEATURES, hand_features
from analyzer.analyses.team_fit import fit_team_advisor_model
from analyzer.errors import BinokelError
from analyzer.fits import fit_path, write_fit_file
from analyzer.mechanics.cards import mask_to_counts
from analyzer.mechanics.bidding import validate_auction
from analyzer.mechanics.rng import make_state
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet, team_spec
from analyzer.mechanics.sampling import deal_rules, new_deck

#: Each seat's first call in the fit for binokel-48 (module docstring; :func:`fit_auctions`).
FIT_AUCTIONS = ("", "150", "150 pass")
#: the shipped advisor fits (analyzer.fits), one entry per RuleSet name
FIT_FILE = fit_path(ADVISOR_FIT)
DEFAULT_FIT_HANDS = 3000
DEFAULT_FIT_SAMPLES = 200
DEFAULT_HOLDOUT_HANDS = 200
MAX_FIT_HANDS = 100_000
#: Held-out hands are drawn with this offset added to the fit's seed (never the fit's hands).
HOLDOUT_SEED_OFFSET = 1_000_003


def fit_auctions(rules: RuleSet = DEFAULT_RULES) -> tuple:
    """Each seat's first call: forehand before the auction, middlehand after the opening
    bid, rearhand after ``opening pass`` (R3; the variant's ``bid_start``).  The opening
    is a legal call in every three-player variant: forced in R3/V5.2, voluntary in V2.2."""
    b = int(rules.bid_start)
    return ("", f"{b}", f"{b} pass")


def check_fittable(rules: RuleSet) -> None:
    """Every game in the registry can be fitted: the three-player ones here, the team
    games (``rules.teams``) by analyzer.analyses.team_fit.  Kept as the CLI's hook for a
    one-line error should a game without an advisor ever be added."""
    if getattr(rules, "teams", False):
        team_spec(rules)        # BinokelError (one line) for a team game without a spec


def is_team(rules) -> bool:
    return bool(getattr(rules, "teams", False))


def _hand(seed: int, i: int, rules: RuleSet = DEFAULT_RULES) -> np.ndarray:
    """Hand i of the fit: forehand's hand of a uniformly random deal of the variant's deck
    (R2: 15 of 48; V5.1: 12 of 40), as a packed mask.  For binokel-48 these are the same
    hands as before variants existed (deal_rules = deal_random on 48 cards)."""
    st = make_state(np.random.SeedSequence([seed, i, 7]))
    out = np.zeros(4, dtype=np.int64)
    deal_rules(st, new_deck(rules), rules.kernel, out)
    return int(out[0])


def advisor_decision(mask: int, seat: int, samples: int, seed, rules: RuleSet):
    """The advisor agent's recommended maximum for one hand at its first call: ``(lo, hi)``
    bounds of its private maximum (``-inf``/``inf`` = none) and the bid (0 = pass)."""
    counts = mask_to_counts(mask).astype(np.uint8)
    state = validate_auction(fit_auctions(rules)[seat], rules)
    res = simulate_advice(counts, seat, state, samples, seed, 1, True, rules)
    mb = recommended_max_bid(res, seat, "relative", None, rules)
    top = int(res["bids"][-1])
    if mb is None:
        return -math.inf, float(res["next_bid"]), 0
    hi = math.inf if mb >= top else float(mb + rules.bid_step)
    return float(mb), hi, int(mb)


def _decisions_chunk(seed, idx, samples, rules):
    rows = []
    for i in idx:
        mask = _hand(seed, i, rules)
        seat = i % 3
        lo, hi, bid = advisor_decision(mask, seat, samples, [seed, i], rules)
        f = np.empty(N_FEATURES, dtype=np.float64)
        hand_features(np.int64(mask), seat, rules.kernel, f)
        rows.append((f, lo, hi, bid))
    return rows


def advisor_decisions(n_hands: int, samples: int = DEFAULT_FIT_SAMPLES, seed: int = 0,
                      rules: RuleSet = DEFAULT_RULES, n_jobs: int = 1, progress=None):
    """The advisor's decisions on ``n_hands`` random hands (seat = hand index mod 3).

    Returns ``(X float[n, N_FEATURES], lo float[n], hi float[n], bid int[n])``; hand i and
    its advice depend only on ``(seed, i)``, so any ``n_jobs`` gives the same rows.
    """
    rows = decision_rows(_decisions_chunk, n_hands, 25, seed, samples, rules, n_jobs, progress)
    X = np.array([r[0] for r in rows])
    lo = np.array([r[1] for r in rows])
    hi = np.array([r[2] for r in rows])
    bid = np.array([r[3] for r in rows], dtype=np.int64)
    return X, lo, hi, bid


def model_max_bids(X: np.ndarray, coef, lo: np.ndarray, hi: np.ndarray, bid: np.ndarray,
                   rules: RuleSet = DEFAULT_RULES):
    """The fitted model's maximum bid next to the advisor's, on one bid scale, for rows
    of :func:`advisor_decisions` (each seat's first call, :func:`fit_auctions`).

    The model's maximum is ``x . beta`` rounded down to the bid step (how ``advisor-fit``
    bids).  Either side's "pass" is put at the bid below the seat's first possible bid
    (forehand: the opening; the others: the bid after it), and where the advisor took the
    top of its bid grid the model is capped there (the advisor says nothing above it).
    Returns ``(model float[n], advisor float[n], first float[n])``.
    """
    step = float(rules.bid_step)
    later = X[:, FEATURES.index("middlehand")] + X[:, FEATURES.index("rearhand")] > 0
    first = np.where(later, rules.bid_start + step, float(rules.bid_start))
    adv = np.where(bid > 0, bid.astype(np.float64), first - step)
    m = np.floor((X @ np.asarray(coef, dtype=np.float64)) / step) * step
    m = np.where(m < first, first - step, m)
    m = np.where(np.isinf(hi), np.minimum(m, lo), m)
    return m, adv, first


def holdout_error(coef, n_hands: int = DEFAULT_HOLDOUT_HANDS,
                  samples: int = DEFAULT_FIT_SAMPLES, seed: int = 0,
                  rules: RuleSet = DEFAULT_RULES, n_jobs: int = 1) -> dict:
    """How well ``coef`` predicts the advisor on ``n_hands`` fresh hands (seed offset by
    :data:`HOLDOUT_SEED_OFFSET`, so none of the fit's hands): the mean absolute error of
    the model's maximum bid against the advisor's (:func:`model_max_bids`), its SE, and
    how often both agree on bidding at all.  Returns dict ``holdout_hands``,
    ``holdout_mae``, ``holdout_mae_se``, ``holdout_pass_agree``."""
    X, lo, hi, bid = advisor_decisions(int(n_hands), int(samples),
                                       int(seed) + HOLDOUT_SEED_OFFSET, rules, n_jobs)
    return prediction_error(X, coef, lo, hi, bid, rules)


def prediction_error(X, coef, lo, hi, bid, rules: RuleSet = DEFAULT_RULES) -> dict:
    """:func:`holdout_error`'s figures for given decision rows."""
    m, adv, first = model_max_bids(X, coef, lo, hi, bid, rules)
    err = np.abs(m - adv)
    n = len(err)
    return dict(holdout_hands=int(n), holdout_mae=float(err.mean()),
                holdout_mae_se=float(err.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan"),
                holdout_pass_agree=float(((m >= first) == (bid > 0)).mean()))


def fit_advisor_model(n_hands: int = DEFAULT_FIT_HANDS, samples: int = DEFAULT_FIT_SAMPLES,
                      seed: int = 0, rules: RuleSet = DEFAULT_RULES, n_jobs: int = 1,
                      progress=None, holdout: int = 0) -> dict:
    """Ask the advisor on ``n_hands`` random hands of ``rules``' deck and fit the model:
    the entry that data/fits/advisor.json stores for ``rules.name``.
    ``holdout`` > 0 adds :func:`holdout_error` on that many fresh hands.  A team game
    goes to analyzer.analyses.team_fit.fit_team_advisor_model."""
    check_fittable(rules)
    if is_team(rules):
        return fit_team_advisor_model(n_hands, samples, seed, rules, n_jobs, progress, holdout)
    if not 20 <= int(n_hands) <= MAX_FIT_HANDS:
        raise BinokelError(f"hands must be between 20 and {MAX_FIT_HANDS}, got {n_hands}")
    if int(samples) < 1:
        raise BinokelError(f"samples must be at least 1, got {samples}")
    if not 0 <= int(holdout) <= MAX_FIT_HANDS:
        raise BinokelError(f"holdout must be between 0 and {MAX_FIT_HANDS}, got {holdout}")
    X, lo, hi, bid = advisor_decisions(int(n_hands), int(samples), int(seed), rules, n_jobs,
                                       progress)
    fit = fit_interval_logistic(X, lo, hi)
    auctions = fit_auctions(rules)
    opt = "" if rules.name == DEFAULT_RULES.name else f" --rules {rules.name}"
    hopt = f" --holdout {holdout}" if holdout else ""
    fit.update(features=list(FEATURES), hands=int(n_hands), samples=int(samples), seed=int(seed),
               rules=rules.name, auctions=list(auctions),
               pass_share=float((bid == 0).mean()), mean_bid=float(bid[bid > 0].mean()) if (bid > 0).any() else None,
               command=f"binokel fit-opponents{opt} --hands {n_hands} "
                       f"--samples {samples} --seed {seed}{hopt}")
    if holdout:
        fit.update(holdout_error(fit["coef"], int(holdout), int(samples), int(seed), rules, n_jobs))
    return fit


def write_advisor_fits(fits: dict, path: Path = FIT_FILE) -> Path:
    """Write the advisor fits (rules name -> fit, each with the ``command`` that reproduces
    it) as the fit file the package reads (analyzer.fits; the shipped one is
    data/fits/advisor.json), atomically."""
    return write_fit_file(
        path, fits,
        about=("Fitted model of the bid advisor's recommended maximum, one entry per RuleSet "
               "name (analyzer.analyses.opponents for the three-player games, "
               "analyzer.analyses.team_fit for the team games, kind 'team'); each entry's "
               "'command' reproduces that entry.  GENERATED: do not edit by hand."),
        generated_by="analyzer.analyses.fit_opponents.write_advisor_fits",
        command="binokel fit-opponents --rules NAME (each entry's own 'command' gives its options)")
