"""The fitted model of the advisor at a partners' table (V1 duels, V4, V5, V6.2), made by
analyzer.analyses.fit_opponents on the same path as the three-player fit: features against a
plain-Python reference, the offset model as a special case, each game's first decisions
legal, the shipped fits load and predict the team advisor on fresh hands, the look-ahead's
``advisor`` model and the team agent ``advisor-fit`` use them, ``fit-opponents --rules``
for a team game."""
from __future__ import annotations

import math

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.mechanics.bidding import check_turn
from analyzer.analyses.advice_grid import parse_auction_for
from analyzer.analyses.bid_model_fit import (ADVISOR_OFFSET, KIND_FIT, KIND_OFFSET,
                                             N_PARTNER_FEATURES, PARTNER_FEATURES, offset_values,
                                             partner_features, partner_model_value,
                                             partner_rule_value, prediction_error, rule_params)
from analyzer.analyses.fit_opponents import (advisor_decisions, fit_auctions,
                                             partner_advisor_decision, partner_hand)
from analyzer.analyses.lookahead import partners_model
from analyzer.analyses.tournament import _decide, run_tournament
from analyzer.fits import load_fit, read_fit_file
from analyzer.mechanics.rules import get_rules, team_spec
from analyzer.mechanics.bidding import PASS

FITS = load_fit("advisor")
from cli.main import cli

TEAM_GAMES = ("kreuz-48", "kreuz-40", "pinochle-80")


def _reference_features(counts, seat, rv):
    """Straight from the definition: suits are types 6s..6s+5, rank 0 = ace, 1 = ten; the
    longest suit, ties broken by more aces + tens."""
    suits = [[int(counts[6 * s + r]) for r in range(6)] for s in range(4)]
    aces = sum(s[0] for s in suits)
    tens = sum(s[1] for s in suits)
    longest, top = max(((sum(s), s[0] + s[1]) for s in suits))
    return [1.0, rv, aces, tens, longest, top] + [1.0 if seat == k else 0.0 for k in (1, 2, 3)]


@pytest.mark.parametrize("game", TEAM_GAMES)
def test_features_and_values_match_a_reference_and_nest_the_offset_model(game):
    """On random hands of the game's deck (V4.1, V5.1, V6.1): the kernel's features equal
    the reference; the offset kind is the rule of thumb + offset; the linear kind with
    coefficients (offset, 1, 0, ...) gives the same value, so the fit nests the old model."""
    spec = team_spec(get_rules(game))
    rv1, rv2 = rule_params(spec)
    tmp = np.zeros(4, dtype=np.int64)
    f = np.zeros(N_PARTNER_FEATURES)
    nest = np.zeros(N_PARTNER_FEATURES)
    nest[0], nest[1] = 37.0, 1.0
    for i in range(40):
        c = partner_hand(3, i, spec)
        assert c.sum() == spec.hand_size
        seat = i % 4
        rv, tr = partner_rule_value(c, spec.tk, spec.kr, rv1, rv2, tmp)
        partner_features(c, seat, rv, f)
        assert list(f) == _reference_features(c, seat, rv)
        v0, t0 = partner_model_value(c, seat, KIND_OFFSET, nest, 37.0, spec.tk, spec.kr, rv1, rv2, tmp, f)
        v1, t1 = partner_model_value(c, seat, KIND_FIT, nest, 0.0, spec.tk, spec.kr, rv1, rv2, tmp, f)
        assert v0 == v1 == rv + 37.0 and t0 == t1 == tr
        assert (tr == -1) == (spec.dabb_size > 0)


@pytest.mark.parametrize("game", TEAM_GAMES)
def test_each_first_decision_is_legal_and_the_seats_turn(game):
    """V1 / V6.2: seat 0 before the auction (not where its opening is forced, V5.2), seat
    k after the opening bid and k - 1 passes."""
    spec = team_spec(get_rules(game))
    auctions = fit_auctions(spec.rules)
    assert [s for s, _ in auctions] == ([1, 2, 3] if game == "kreuz-40" else [0, 1, 2, 3])
    for seat, calls in auctions:
        check_turn(parse_auction_for(calls, spec), seat)


@pytest.mark.parametrize("game", TEAM_GAMES)
def test_shipped_team_fit_loads_and_predicts_the_team_advisor(game):
    """Each team game ships a fit (data keyed by the RuleSet name) made on the team
    advisor; the stored held-out comparison chose the model the look-ahead uses; on 16
    fresh hands (a seed neither the fit nor its holdout used) the model's MAE against the
    advisor's maximum is within 4 combined SE of the stored held-out MAE."""
    spec = team_spec(get_rules(game))
    ship = FITS[game]
    assert ship["kind"] == "team" and ship["features"] == list(PARTNER_FEATURES)
    assert ship["rules"] == game and ship["converged"]
    assert ship["auctions"] == [list(a) for a in fit_auctions(spec.rules)]
    assert ship["offset"] == ADVISOR_OFFSET[bool(spec.open_auction)]
    assert ship["use"] == ("fit" if ship["holdout_mae"] <= ship["offset_holdout_mae"] else "offset")
    m = partners_model("advisor", spec)
    if ship["use"] == "fit":
        assert m.kind == KIND_FIT and m.coef == tuple(ship["coef"]) and m.scale == ship["scale"]
    else:
        assert m.kind == KIND_OFFSET and m.offset == ship["offset"]
    X, lo, hi, bid, first = advisor_decisions(16, ship["samples"], seed=777_001, rules=spec.rules)
    e = prediction_error(X @ np.array(ship["coef"]), lo, hi, bid, first, spec.step)
    assert e["mae"] <= ship["holdout_mae"] + 4 * math.hypot(e["mae_se"], ship["holdout_mae_se"]), e
    eo = prediction_error(offset_values(X, ship["offset"]), lo, hi, bid, first, spec.step)
    assert np.isfinite(eo["mae"]) and eo["hands"] == 16


@pytest.mark.parametrize("game", TEAM_GAMES)
def test_advisor_fit_agent_bids_the_models_value(game):
    """The team agent ``advisor-fit`` raises to the next bid iff it is at most the fitted
    value rounded down to the step (a threshold bidder, V1 / V6.2), and in Pinochle names
    its rule-of-thumb trump."""
    from analyzer.analyses.lookahead import fitted_partners_model as fitted_team_model

    spec = team_spec(get_rules(game))
    rv1, rv2 = rule_params(spec)
    model = fitted_team_model(spec)
    params = {"fit_model": model, "rv1": rv1, "rv2": rv2}
    tmp = np.zeros(4, dtype=np.int64)
    f = np.zeros(N_PARTNER_FEATURES)
    for i in range(30):
        seat, calls = fit_auctions(spec.rules)[i % len(fit_auctions(spec.rules))]
        c = partner_hand(11, i, spec)
        state = parse_auction_for(calls, spec)
        memo = {}
        call = _decide("advisor-fit", c, seat, state, params, None, spec, memo)
        v, tr = partner_model_value(c, seat, KIND_FIT, model.coef_array(), 0.0, spec.tk, spec.kr,
                                 rv1, rv2, tmp, f)
        nb = state.next_bid
        assert call == (nb if nb <= math.floor(v / spec.step) * spec.step else PASS)
        if spec.open_auction:
            assert memo[seat] == tr
    res = run_tournament("advisor-fit", "rule", deals=2, seed=1, samples=10, rules=spec.rules)
    assert res.agents == ("advisor-fit", "rule") and np.isfinite(res.diff)


def test_advisor_fit_plays_whole_team_games_through_the_tournament():
    """``tournament --rules TEAM --agents advisor-la,advisor-fit`` (before: refused)."""
    r = run_tournament("advisor-fit", "rule", groups=2, seed=2, samples=10,
                       rules=get_rules("kreuz-48"))
    assert r.games == 4 and np.isfinite(r.stats[0].win_rate)


def test_fit_opponents_cli_for_a_team_game(tmp_path):
    """``binokel fit-opponents --rules kreuz-40`` fits the team advisor, compares the fit
    with the offset model on held-out hands and writes a module the package can read."""
    out = tmp_path / "fit.json"
    r = CliRunner().invoke(cli, ["fit-opponents", "--rules", "kreuz-40", "--hands", "30",
                                 "--samples", "20", "--holdout", "12", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "rule_value" in r.output and "the old model (rule of thumb" in r.output
    fit = read_fit_file(out)["data"]["kreuz-40"]
    assert fit["kind"] == "team" and fit["hands"] == 30 and fit["holdout_hands"] == 12
    assert fit["command"] == ("binokel fit-opponents --rules kreuz-40 --hands 30 --samples 20 "
                              "--seed 0 --holdout 12")
    assert set(fit) >= {"coef", "coef_se", "scale", "offset_holdout_mae", "holdout_paired_diff", "use"}


@pytest.mark.parametrize("game", ("kreuz-48", "pinochle-80"))
def test_fit_data_is_the_tournament_advisors_decision(game):
    """The fit asks the team advisor exactly as the tournament's ``advisor`` agent does:
    on the same hands, seeds and calls, the agent bids the next bid iff the fit's row
    says the advisor's maximum reaches it."""
    spec = team_spec(get_rules(game))
    rv1, rv2 = rule_params(spec)
    from analyzer.analyses.advice_samples import ADVISOR_PARTNER_OFFSET
    params = {"samples": 30, "rv1": rv1, "rv2": rv2, "scale": 20.0, "partner_scale": None,
              "partner_offset": ADVISOR_PARTNER_OFFSET[spec.open_auction]}
    for i in range(6):
        seat, calls = fit_auctions(spec.rules)[i % len(fit_auctions(spec.rules))]
        c = partner_hand(5, i, spec)
        state = parse_auction_for(calls, spec)
        lo, hi, bid, nb = partner_advisor_decision(c, seat, state, 30, (5, i), spec)
        call = _decide("advisor", c.copy(), seat, state, params, ((5, i), 0), spec, {})
        assert (call == nb) == (bid >= nb), (i, bid, nb, call)
