"""Fit the ``advisor`` opponent model to the bid advisor's own output (R3; V1, V4, V5,
V6.2 at a partners' table).

The model: a seat's private maximum is ``m = x . beta + e``, ``e`` logistic with scale
``s``.  The advisor is asked for its recommended maximum on random hands, each at its
seat's first call (:func:`fit_auctions`: the first seat before the auction, seat k after
the opening bid and k - 1 passes), exactly as the tournament's advisor agent asks it.
The RuleSet's table decides who the advisor and the features are (:func:`fit_table`):

- a lone soloist (R8; binokel-48, grupp-3/4, binokel-40): ``x`` =
  analyzer.analyses.opponents.hand_features of the hand (dealt from the variant's deck
  with its hand size, R2, V2.1, V5.1) and seat; the advisor is
  :func:`~analyzer.analyses.advice_samples.simulate_advice` +
  :func:`~analyzer.analyses.objectives.recommended_max_bid` (objective "relative",
  inference on);
- partners (V1; kreuz-48, kreuz-40, pinochle-80): ``x`` =
  analyzer.analyses.bid_model_fit.partner_features (with the partners' rule of thumb);
  the advisor is advice_samples.sample_branches + summarize_partners_advice with the calls as
  evidence and the advisor partner's offset.  Seat 0 has no first decision where its
  opening is forced (V5.2).  The older rule-of-thumb + offset model
  (bid_model_fit.ADVISOR_OFFSET) is measured beside the fit on the held-out hands, and the
  entry's ``use`` says which one the look-ahead's ``advisor`` model then is.

A recommendation ``B`` says ``B <= m < B + step``; "pass" says ``m < next bid``; the top
of the bid grid says ``m >= B``.  ``beta`` and ``s`` maximize the likelihood of these
intervals (interval-censored logistic regression, the same likelihood the inference uses
for real calls) with standard errors from the observed information:
analyzer.analyses.bid_model_fit.

``binokel fit-opponents [--rules NAME]`` runs it and rewrites that game's entry in
data/fits/advisor.json (analyzer.fits): generated data, one entry per RuleSet name.  Fit
quality: the MAE of the model's maximum bid against the advisor's on fresh hands
(bid_model_fit.prediction_error), stored with the fit.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analyzer.analyses.advice_samples import simulate_advice
from analyzer.analyses.bid_model_fit import (ADVISOR_OFFSET, N_PARTNER_FEATURES, PARTNER_FEATURES,
                                             decision_rows, fit_seat_model, offset_values,
                                             paired_error_difference, partner_features,
                                             partner_rule_value, prediction_error, rule_params)
from analyzer.analyses.objectives import recommended_max_bid
from analyzer.analyses.opponents import ADVISOR_FIT, FEATURES, N_FEATURES, hand_features
from analyzer.analyses.advice_samples import (ADVISOR_PARTNER_OFFSET, sample_branches,
                                              summarize_partners_advice)
from analyzer.analyses.advice_grid import SAMPLED_GRID_SIZE, bids_over_partner, parse_auction_for
from analyzer.errors import BinokelError
from analyzer.fits import fit_path, write_fit_file
from analyzer.mechanics.bidding import DEFAULT_EVIDENCE_SCALE, validate_auction
from analyzer.mechanics.cards import mask_to_counts
from analyzer.mechanics.rng import chunk_state, make_state
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet, team_spec
from analyzer.mechanics.sampling import deal_rules, new_deck
from analyzer.mechanics.sampling import deal_counts

#: Each seat's first call in the fit for binokel-48 (module docstring; :func:`fit_auctions`).
FIT_AUCTIONS = ("", "150", "150 pass")
#: the shipped advisor fits (analyzer.fits), one entry per RuleSet name
FIT_FILE = fit_path(ADVISOR_FIT)
DEFAULT_FIT_HANDS = 3000
DEFAULT_FIT_SAMPLES = 200
DEFAULT_HOLDOUT_HANDS = 200
#: at a partners' table: fewer hands (its advisor is slower), the team matches' advisor
#: samples (``--samples 100`` in docs/results.md), a larger holdout (two models compared)
DEFAULT_PARTNER_FIT_HANDS = 1000
DEFAULT_PARTNER_FIT_SAMPLES = 100
DEFAULT_PARTNER_HOLDOUT = 300
MAX_FIT_HANDS = 100_000
#: Held-out hands are drawn with this offset added to the fit's seed (never the fit's hands).
HOLDOUT_SEED_OFFSET = 1_000_003
#: hands per batch of decisions (rows depend on (seed, hand) only, not on the batches)
_BATCH = 10


def fit_auctions(rules: RuleSet = DEFAULT_RULES) -> tuple:
    """``((seat, calls), ...)``: each seat's first call (R3, V1, V6.2): the first seat
    before the auction, seat k after the opening bid (the RuleSet's ``bid_start``) and
    k - 1 passes.  Hand i of the fit decides at entry ``i mod len``.  The opening is a
    legal call in every game: forced in R3/V5.2, voluntary in V2.2 and V6.2.  At a
    partners' table with a forced opening in duels (V5.2) the first seat has no decision
    and is left out; the lone soloist's advisor still names a maximum there."""
    b = str(int(rules.bid_start))
    out = [(k, " ".join([b] + ["pass"] * (k - 1))) for k in range(1, fit_table(rules).seats)]
    if not fit_table(rules).forced_first_left_out(rules):
        out.insert(0, (0, ""))
    return tuple(out)


def _hand(seed: int, i: int, rules: RuleSet = DEFAULT_RULES) -> np.ndarray:
    """Hand i of the fit at a lone soloist's table: forehand's hand of a uniformly random
    deal of the variant's deck (R2: 15 of 48; V5.1: 12 of 40), as a packed mask.  For
    binokel-48 these are the same hands as before variants existed (deal_rules =
    deal_random on 48 cards)."""
    st = make_state(np.random.SeedSequence([seed, i, 7]))
    out = np.zeros(4, dtype=np.int64)
    deal_rules(st, new_deck(rules), rules.kernel, out)
    return int(out[0])


def partner_hand(seed: int, i: int, spec) -> np.ndarray:
    """Hand i of the fit at a partners' table: one seat's hand (uint8[24] counts) of a
    uniformly random deal (V4.1, V5.1, V6.1)."""
    hands = np.zeros((5, 24), dtype=np.uint8)
    deal_counts(chunk_state((seed, i, 7), 0), spec.deck.copy(), hands, spec.hand_size)
    return hands[0].copy()


def advisor_decision(mask: int, seat: int, samples: int, seed, rules: RuleSet):
    """The lone soloist table's advisor agent's recommended maximum for one hand at its
    first call: ``(lo, hi)`` bounds of its private maximum (``-inf``/``inf`` = none), the
    bid (0 = pass) and the seat's next bid."""
    counts = mask_to_counts(mask).astype(np.uint8)
    state = validate_auction(fit_auctions(rules)[seat][1], rules)
    res = simulate_advice(counts, seat, state, samples, seed, 1, True, rules)
    mb = recommended_max_bid(res, seat, "relative", None, rules)
    top = int(res["bids"][-1])
    nb = int(res["next_bid"])
    if mb is None:
        return -math.inf, float(nb), 0, nb
    hi = math.inf if mb >= top else float(mb + rules.bid_step)
    return float(mb), hi, int(mb), nb


def partner_advisor_decision(counts, seat: int, state, samples: int, seed, spec):
    """The partners' advisor agent (as the team tournament's ``advisor``) at this call:
    ``(lo, hi)`` bounds of its private maximum (``-inf``/``inf`` = none), the bid (0 =
    pass) and the seat's next bid (V1 duels or V6.2 open bidding)."""
    rv1, rv2 = rule_params(spec)
    raw = sample_branches(counts, seat, state, samples, seed, spec, True, rv1, rv2,
                          scale=DEFAULT_EVIDENCE_SCALE,
                          partner_offset=int(ADVISOR_PARTNER_OFFSET[spec.open_auction]))
    nb = state.next_bid
    mb = summarize_partners_advice(raw, nb, spec.step, rows=0,
                               over_partner=bids_over_partner(state, seat, spec))[0]
    top = nb + spec.step * (SAMPLED_GRID_SIZE - 1)
    if mb is None:
        return -math.inf, float(nb), 0, nb
    hi = math.inf if mb >= top else float(mb + spec.step)
    return float(mb), hi, int(mb), nb


def _solo_row(seed, i, seat, calls, samples, rules):
    """One decision row at a lone soloist's table: (features, lo, hi, bid, next bid)."""
    mask = _hand(seed, i, rules)
    lo, hi, bid, nb = advisor_decision(mask, seat, samples, [seed, i], rules)
    f = np.empty(N_FEATURES, dtype=np.float64)
    hand_features(np.int64(mask), seat, rules.kernel, f)
    return f, lo, hi, bid, nb


def _partner_row(seed, i, seat, calls, samples, rules):
    """One decision row at a partners' table: (features, lo, hi, bid, next bid)."""
    spec = team_spec(rules)
    counts = partner_hand(seed, i, spec)
    state = parse_auction_for(calls, spec)
    lo, hi, bid, nb = partner_advisor_decision(counts, seat, state, samples, (seed, i), spec)
    rv1, rv2 = rule_params(spec)
    rv = partner_rule_value(counts, spec.tk, spec.kr, rv1, rv2, np.zeros(4, dtype=np.int64))[0]
    f = np.empty(N_PARTNER_FEATURES, dtype=np.float64)
    partner_features(counts, seat, rv, f)
    return f, lo, hi, bid, nb


@dataclass(frozen=True)
class FitTable:
    """What the fit needs of a table (:func:`fit_table`): the seats at it, the model's
    feature names and seat columns, how one decision row is made, the defaults, and the
    older offset model compared with the fit (partners only)."""

    seats: int
    features: tuple
    seat_columns: dict           # seat -> its indicator column (seat 0: the intercept)
    row: object                  # (seed, i, seat, calls, samples, rules) -> row
    defaults: tuple              # (hands, samples, holdout)
    kind: dict                   # extra entry keys before the features ({"kind": "team"})
    has_offset_model: bool
    pairs_in_entry: bool         # the entry's auctions as [seat, calls] (else the calls)
    forced_opener_decides: bool  # the advisor names a maximum for a forced opener (R3, V5.2)

    def forced_first_left_out(self, rules) -> bool:
        """The first seat has no decision of its own to fit: its opening is forced in a
        chain of duels (V5.2) and this table's advisor names no maximum for it."""
        return (not self.forced_opener_decides and bool(rules.forced_opening)
                and not bool(rules.open_bidding))

    def offset(self, rules):
        """The older rule-of-thumb offset model's offset for the auction form, or None."""
        return int(ADVISOR_OFFSET[bool(rules.open_bidding)]) if self.has_offset_model else None


_SOLO = FitTable(3, FEATURES, {1: FEATURES.index("middlehand"), 2: FEATURES.index("rearhand")},
                 _solo_row, (DEFAULT_FIT_HANDS, DEFAULT_FIT_SAMPLES, DEFAULT_HOLDOUT_HANDS),
                 {}, False, False, True)
_PARTNERS = FitTable(4, PARTNER_FEATURES, {k: PARTNER_FEATURES.index(f"seat{k}") for k in (1, 2, 3)},
                     _partner_row,
                     (DEFAULT_PARTNER_FIT_HANDS, DEFAULT_PARTNER_FIT_SAMPLES,
                      DEFAULT_PARTNER_HOLDOUT),
                     {"kind": "team"}, True, True, False)


def fit_table(rules: RuleSet) -> FitTable:
    """The :class:`FitTable` of the RuleSet's table: a lone soloist (R8) or partners (V1,
    ``rules.teams``).  BinokelError (one line) for a partners' game without a compiled
    team spec."""
    if getattr(rules, "teams", False):
        team_spec(rules)
        return _PARTNERS
    return _SOLO


def fit_defaults(rules: RuleSet) -> tuple:
    """``(hands, samples, holdout)`` defaults of ``binokel fit-opponents`` for the game
    (a one-line BinokelError where its table cannot be fitted: the CLI's check)."""
    return fit_table(rules).defaults


def _decisions_chunk(seed, idx, samples, rules):
    table = fit_table(rules)
    auctions = fit_auctions(rules)
    rows = []
    for i in idx:
        seat, calls = auctions[i % len(auctions)]
        rows.append(table.row(seed, i, seat, calls, samples, rules))
    return rows


def advisor_decisions(n_hands: int, samples: int = DEFAULT_FIT_SAMPLES, seed: int = 0,
                      rules: RuleSet = DEFAULT_RULES, n_jobs: int = 1, progress=None):
    """The advisor's decisions on ``n_hands`` random hands (hand i at the first call
    ``i mod len(fit_auctions)``).

    Returns ``(X float[n, features], lo float[n], hi float[n], bid int[n], first int[n] =
    the seat's next bid)``; hand i and its advice depend only on ``(seed, i)``, so any
    ``n_jobs`` gives the same rows.
    """
    rows = decision_rows(_decisions_chunk, n_hands, _BATCH, seed, samples, rules, n_jobs,
                         progress)
    X = np.array([r[0] for r in rows])
    lo = np.array([r[1] for r in rows])
    hi = np.array([r[2] for r in rows])
    bid = np.array([r[3] for r in rows], dtype=np.int64)
    first = np.array([r[4] for r in rows], dtype=np.int64)
    return X, lo, hi, bid, first


def fit_advisor_model(n_hands: int = DEFAULT_FIT_HANDS, samples: int = DEFAULT_FIT_SAMPLES,
                      seed: int = 0, rules: RuleSet = DEFAULT_RULES, n_jobs: int = 1,
                      progress=None, holdout: int = 0) -> dict:
    """Ask the advisor on ``n_hands`` random hands of ``rules``' deck and fit the model
    (module docstring): the entry that data/fits/advisor.json stores for ``rules.name``.
    ``holdout`` > 0 measures the model on that many fresh hands (seed offset by
    :data:`HOLDOUT_SEED_OFFSET`): ``holdout_hands``, ``holdout_mae``, ``holdout_mae_se``,
    ``holdout_pass_agree``; at a partners' table the same for the older offset model on
    the same rows, the paired difference, and ``use`` ("fit" unless the offset model's
    held-out MAE is lower)."""
    table = fit_table(rules)
    if not 20 <= int(n_hands) <= MAX_FIT_HANDS:
        raise BinokelError(f"hands must be between 20 and {MAX_FIT_HANDS}, got {n_hands}")
    if int(samples) < 1:
        raise BinokelError(f"samples must be at least 1, got {samples}")
    if not 0 <= int(holdout) <= MAX_FIT_HANDS:
        raise BinokelError(f"holdout must be between 0 and {MAX_FIT_HANDS}, got {holdout}")
    X, lo, hi, bid, _ = advisor_decisions(int(n_hands), int(samples), int(seed), rules, n_jobs,
                                          progress)
    auctions = fit_auctions(rules)
    fit = fit_seat_model(X, lo, hi, table.seat_columns, [s for s, _ in auctions])
    off = table.offset(rules)
    opt = "" if rules.name == DEFAULT_RULES.name else f" --rules {rules.name}"
    hopt = f" --holdout {holdout}" if holdout else ""
    fit.update(table.kind)
    fit.update(features=list(table.features), hands=int(n_hands), samples=int(samples),
               seed=int(seed), rules=rules.name,
               auctions=[list(a) if table.pairs_in_entry else a[1] for a in auctions],
               pass_share=float((bid == 0).mean()),
               mean_bid=float(bid[bid > 0].mean()) if (bid > 0).any() else None)
    if off is not None:
        fit.update(offset=off, use="fit")
    fit["command"] = (f"binokel fit-opponents{opt} --hands {n_hands} "
                      f"--samples {samples} --seed {seed}{hopt}")
    if holdout:
        Xh, loh, hih, bidh, firsth = advisor_decisions(int(holdout), int(samples),
                                                       int(seed) + HOLDOUT_SEED_OFFSET, rules,
                                                       n_jobs)
        step = int(rules.bid_step)
        vf = Xh @ np.asarray(fit["coef"], dtype=np.float64)
        ef = prediction_error(vf, loh, hih, bidh, firsth, step)
        fit.update(holdout_hands=ef["hands"], holdout_mae=ef["mae"],
                   holdout_mae_se=ef["mae_se"], holdout_pass_agree=ef["pass_agree"])
        if off is not None:
            vo = offset_values(Xh, off)
            eo = prediction_error(vo, loh, hih, bidh, firsth, step)
            fit.update(offset_holdout_mae=eo["mae"], offset_holdout_mae_se=eo["mae_se"],
                       offset_holdout_pass_agree=eo["pass_agree"],
                       holdout_paired_diff=paired_error_difference(vf, vo, loh, hih, bidh,
                                                                   firsth, step))
            fit["use"] = "fit" if ef["mae"] <= eo["mae"] else "offset"
    return fit


def write_advisor_fits(fits: dict, path: Path = FIT_FILE) -> Path:
    """Write the advisor fits (rules name -> fit, each with the ``command`` that reproduces
    it) as the fit file the package reads (analyzer.fits; the shipped one is
    data/fits/advisor.json), atomically."""
    return write_fit_file(
        path, fits,
        about=("Fitted model of the bid advisor's recommended maximum, one entry per RuleSet "
               "name (analyzer.analyses.opponents.hand_features for the three-player games, "
               "analyzer.analyses.bid_model_fit.partner_features for the games with partners, "
               "kind 'team'); each entry's "
               "'command' reproduces that entry.  GENERATED: do not edit by hand."),
        generated_by="analyzer.analyses.fit_opponents.write_advisor_fits",
        command="binokel fit-opponents --rules NAME (each entry's own 'command' gives its options)")
