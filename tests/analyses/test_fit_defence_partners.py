"""``fit-defence`` at a partners' table (V1: the defenders are the two partners opposite
the bidder's side): the deal stream is the rule-of-thumb game's (V4.1-V4.2, V5.1-V5.3,
V6.1-V6.2), policy 0 plays exactly the team policy under each game's duties (V4.5 R6,
V5.6 with partner relief, V6.4), the card features read only public facts and match a
reference, the numbers do not depend on the workers, and the CLI reports n and SE."""
from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.analyses import fit_defence as fd
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.play import beat_table
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import get_rules, team_spec
from analyzer.mechanics.playout import L_COLS
from analyzer.mechanics.play import POLICY_HEURISTIC
from analyzer.search.pimc import play_deal_partners_logged
from cli.main import cli

#: one game per family, with the rule section of its play duties
GAMES = (("kreuz-48", "V4.5"), ("kreuz-40", "V5.6"), ("pinochle-80", "V6.4"))


@pytest.mark.parametrize("game,section", GAMES)
def test_deals_are_the_rule_of_thumb_games_trump_deals(game, section):
    """V4.1/V5.1/V6.1 deal, V1/V6.2 auction, V4.2/V5.3 exchange: every seat holds a
    hand of the game's size, the hands and the bidder's discard are the whole deck, the
    bidder leads where the game says so (V6.2) and seat 0 otherwise (V4.5)."""
    rules = get_rules(game)
    spec = team_spec(rules)
    H, TR, LD, BI, DI = fd.draw_deals(12, 5, rules=rules)
    deck = np.bincount(spec.deck, minlength=N_TYPES)
    for i in range(12):
        assert all(int(H[i, p].sum()) == spec.hand_size for p in range(4))
        assert np.array_equal(H[i].sum(axis=0).astype(int) + DI[i].astype(int), deck)
        assert int(DI[i].sum()) == spec.dabb_size
        assert 0 <= TR[i] < 4 and 0 <= BI[i] < 4
        assert LD[i] == (BI[i] if spec.tk.bidder_leads else 0)
    # the stream: deals 4.. of the same seed are the same deals
    H2 = fd.draw_deals(8, 5, start=4, rules=rules)[0]
    assert np.array_equal(H2, H[4:])


@pytest.mark.parametrize("game,section", GAMES)
def test_policy_zero_plays_exactly_the_team_policy(game, section):
    """Start ``defend`` (-1000 on "the team policy's card") plays every deal as the team
    game does (pimc.play_deal_partners_logged with the team policy at every seat, the same
    duties, section cited): the bidding side's trick points agree deal by deal."""
    rules = get_rules(game)
    spec = team_spec(rules)
    deals = fd.draw_deals(10, 11, rules=rules)
    got = fd.evaluate(deals, fd.initial_weights("partners"), rules)
    H, TR, LD, BI, DI = deals
    pol = np.full(4, POLICY_HEURISTIC, dtype=np.int64)
    for i in range(10):
        pts = np.zeros(2, dtype=np.int64)
        play_deal_partners_logged(H[i], TR[i], LD[i], BI[i], pol, chunk_state(0, 0), spec.tk, DI[i], pts,
                         np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64),
                         np.zeros((0, L_COLS), dtype=np.int64), np.zeros(0, dtype=np.int64), 0)
        assert got[i] == pts[BI[i] % 2], (section, i)


def _reference_features(c, heur, k, wcard, tp, own, played, copies, trump, beat, cp, rs):
    """fd.PARTNER_FEATURES straight from their definitions (``beat[x]``: the types of x's
    suit that beat x, R6)."""
    s = c // 6
    if k == 0:
        wins = 0.0
    elif c // 6 == wcard // 6:
        wins = float((int(beat[wcard]) >> c) & 1)
    else:
        wins = float(s == trump)
    unseen = [t for t in range(N_TYPES) if own[t] + played[t] < copies[t]]
    master = not any((int(beat[c]) >> t) & 1 for t in unseen)
    return [float(c == heur), float(cp[c]), float(s == trump), wins, wins * (tp + cp[c]),
            float(master), float(rs[c]), float(sum(own[6 * s:6 * s + 6])),
            wins if k == 1 else 0.0]


@pytest.mark.parametrize("game,section", GAMES)
def test_card_features_match_a_reference_and_read_only_public_facts(game, section):
    """On random positions the kernel's features equal the reference; its inputs are the
    defender's own hand, the cards played, the trick so far and the team policy's choice
    (no other hand is an argument), so a defender decides on what it could know."""
    rules = get_rules(game)
    tk = team_spec(rules).tk
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(tk, beat)
    rng = np.random.default_rng(3)
    f = np.zeros(fd.PARTNER_F)
    types = [t for t in range(N_TYPES) if tk.copies[t] > 0]
    for _ in range(200):
        own = np.zeros(N_TYPES, dtype=np.uint8)
        played = np.zeros(N_TYPES, dtype=np.uint8)
        for t in types:
            a = int(rng.integers(0, tk.copies[t] + 1))
            own[t] = a
            played[t] = int(rng.integers(0, tk.copies[t] - a + 1))
        held = [t for t in types if own[t] > 0]
        if not held:
            continue
        c, heur = int(rng.choice(held)), int(rng.choice(held))
        k = int(rng.integers(0, 4))
        wcard = int(rng.choice(types)) if k else -1
        tp = int(rng.integers(0, 60))
        trump = int(rng.integers(0, 4))
        unseen = np.int64(0)
        for t in range(N_TYPES):
            if own[t] + played[t] < tk.copies[t]:
                unseen |= np.int64(1) << np.int64(t)
        fd._partner_features(c, heur, k, wcard, tp, own, unseen, trump, beat, tk.card_points,
                             tk.rank_strength, f)
        ref = _reference_features(c, heur, k, wcard, tp, own, played, tk.copies, trump, beat,
                                  tk.card_points, tk.rank_strength)
        assert list(f) == ref, (section, c, k, wcard)


def test_same_seed_same_numbers_for_any_jobs(monkeypatch):
    """The rows of a deal depend on the deal only: chunks of 2 deals on 1 or 2 workers
    give the same weights and the same held-out comparison (V1)."""
    rules = get_rules("kreuz-40")
    monkeypatch.setattr(fd, "_CHUNK", 2)
    one = fd.fit_defence(5, 3, 1, rules=rules, n_jobs=1, holdout=6)
    two = fd.fit_defence(5, 3, 1, rules=rules, n_jobs=2, holdout=6)
    assert np.array_equal(one["weights"], two["weights"]) and one["rows"] == two["rows"]
    assert one["holdout"] == two["holdout"]
    h = one["holdout"]
    assert h["n"] == 6 and np.isfinite(h["diff_se"])
    assert h["diff_ci"][0] <= h["diff_mean"] <= h["diff_ci"][1]


@pytest.mark.parametrize("game,section", GAMES)
def test_cli_fits_the_partners_defence_with_n_and_se(game, section, tmp_path):
    """``binokel fit-defence --rules GAME`` fits the partners' defence (3 contexts x 9
    features), writes a fit file and reports the held-out comparison with n and SE;
    a lone soloist's feature set or start is one line, exit 2."""
    out = tmp_path / "w.json"
    r = CliRunner().invoke(cli, ["fit-defence", "--rules", game, "--deals", "2", "--iterations",
                                 "1", "--holdout", "4", "--out", str(out), "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["rules"] == game and d["features"] == "partners"
    assert len(d["weights"]) == fd.PARTNER_CTX and all(len(w) == fd.PARTNER_F for w in d["weights"])
    assert d["holdout"]["n"] == 4 and "diff_se" in d["holdout"] and d["max_abs_diff_shipped"] is None
    r = CliRunner().invoke(cli, ["fit-defence", "--rules", game, "--deals", "2", "--iterations",
                                 "1", "--holdout", "3"])
    assert r.exit_code == 0, r.output
    assert "n = 3 deals" in r.output and "SE" in r.output and "95% CI" in r.output
    for bad in (["--features", "lin2"], ["--start", "lin"]):
        r = CliRunner().invoke(cli, ["fit-defence", "--rules", game, "--deals", "2"] + bad)
        assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
        assert "Traceback" not in r.output
