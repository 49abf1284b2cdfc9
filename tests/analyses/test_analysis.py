"""Tests of the hand analyzer (issue 4): sampling validity against exact enumeration,
reproducibility across n_jobs, the exchange seeing only hand + Tapp (R4), invariants."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analyzer import DEFAULT_RULES, BinokelError, Hand
from analyzer.analyses.analysis import (CHUNK, N_TAPPS, HandAnalysis, _soloist_chunk, analyze_hand,
                               bid_grid, simulate_soloist, tapp_table)
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.exchange import counts_mask
from analyzer.mechanics.play import POLICY_HEURISTIC
from analyzer.mechanics.melds import meld_total
from analyzer.mechanics.rng import chunk_state, make_state
from analyzer.analyses.stats import mean_ci, proportion_ci

KR = DEFAULT_RULES.kernel
STRONG = "AS AS 10S KS QS JS 9S KH QH AC AD 10D KD QD JD"
AVERAGE = "AS 10S KS 9S AH QH JH 9H KC QC 10C JD 9D QD 10D"
WEAK = "9S 9S JS 9H 9H JH JC 9C 9C JC QD 9D 9D KH 10C"


def _meld18(hand: Hand, tapps: np.ndarray, trump: int) -> np.ndarray:
    """Fixed rule for the validity test: meld (R5) of all 18 cards (hand + Tapp), one trump."""
    base = np.array(hand.counts, dtype=np.int64)
    out = np.empty(len(tapps), dtype=np.int64)
    for i, row in enumerate(tapps):
        c = base.copy()
        for t in row:
            c[t] += 1
        out[i] = meld_total(counts_mask(c.astype(np.uint8)), trump, KR)
    return out


def test_tapp_table_is_all_3_subsets_R2():
    """R2: the unknown Tapp is one of C(33,3) = 5,456 equally likely physical 3-subsets."""
    h = Hand.parse(STRONG)
    tab = tapp_table(h)
    assert tab.shape == (N_TAPPS, 3) == (5456, 3)
    # every type appears in proportion to its unseen copies: (2 - held) * C(32, 2) rows
    counts = np.bincount(tab.ravel(), minlength=N_TYPES)
    expect = np.array([(2 - c) * 496 for c in h.counts])
    assert np.array_equal(counts, expect)


def test_sampled_meld_distribution_matches_exact_enumeration_R2_R5():
    """Validity: the meld of hand + Tapp (spades trump) over the sampled Tapps agrees with
    the exact distribution over all 5,456 Tapps within the 95 % intervals."""
    h = Hand.parse(AVERAGE)
    exact = _meld18(h, tapp_table(h), trump=1)
    mu = exact.mean()
    sim = simulate_soloist(h, None, "forehand", 1500, seed=7, exchange_samples=4,
                           exchange_top=1)
    sampled = _meld18(h, sim["tapp"], trump=1)
    ci = mean_ci(sampled)
    # sampling without replacement: the iid interval is conservative
    assert ci.lo <= mu <= ci.hi, (mu, ci)
    for thr in (40, 80, 120):
        p_exact = (exact >= thr).mean()
        pc = proportion_ci(int((sampled >= thr).sum()), len(sampled))
        assert pc.lo <= p_exact <= pc.hi, (thr, p_exact, pc)


def test_identical_output_for_one_and_two_jobs():
    """Chunks are seeded by index (analyzer.mechanics.rng.chunk_state), so n_jobs changes nothing."""
    n = 2 * CHUNK + 17
    a = simulate_soloist(AVERAGE, None, "middlehand", n, seed=3, n_jobs=1, exchange_samples=6)
    b = simulate_soloist(AVERAGE, None, "middlehand", n, seed=3, n_jobs=2, exchange_samples=6)
    for key in ("tapp", "discard", "trump", "meld", "card_points", "tricks", "total",
                "contract", "score", "opp_card_points", "durch_made"):
        assert np.array_equal(a[key], b[key]), key
    c = simulate_soloist(AVERAGE, None, "middlehand", n, seed=4, n_jobs=1, exchange_samples=6)
    assert not np.array_equal(a["card_points"], c["card_points"])


def _run_chunk_states(hand, tapps, st_deal, st_x, m=8):
    n = tapps.shape[0]
    bids = bid_grid(DEFAULT_RULES)
    nb = len(bids)
    o = dict(disc=np.empty((n, 3), np.int64), trump=np.empty(n, np.int64),
             meld=np.empty(n, np.int64), dpts=np.empty(n, np.int64),
             cp=np.empty(n, np.int64), tricks=np.empty(n, np.int64),
             total=np.empty(n, np.int64), opp_cp=np.empty((n, 2), np.int64),
             opp_tr=np.empty((n, 2), np.int64), opp_meld=np.empty((n, 2), np.int64),
             dok=np.empty(n, np.bool_), dmade=np.empty(n, np.int8), est=np.empty(n),
             contract=np.empty((n, nb), np.int8), score=np.empty((n, nb), np.int64))
    _soloist_chunk(Hand.parse(hand).counts_array(), tapps, 0, m, 4, 2, False,
                   np.zeros(3, np.int64), 0, np.full(3, -1, np.int64), np.zeros(nb, np.int8),
                   bids, st_deal, st_x, KR, POLICY_HEURISTIC, o["disc"], o["trump"], o["meld"],
                   o["dpts"],
                   o["cp"], o["tricks"], o["total"], o["opp_cp"], o["opp_tr"], o["opp_meld"],
                   o["dok"], o["dmade"], o["est"], o["contract"], o["score"])
    return o


def test_exchange_decision_ignores_hidden_hands_R4():
    """R4: the exchange is decided from hand + Tapp only.  Same Tapps and exchange stream,
    different hidden opponents' hands (another deal stream): identical discards, trumps,
    contracts and estimates, while the played outcomes differ."""
    h = Hand.parse(AVERAGE)
    tapps = np.ascontiguousarray(tapp_table(h)[::400][:12])
    x_seed = np.random.SeedSequence(99)
    a = _run_chunk_states(AVERAGE, tapps, chunk_state(1, 0), make_state(x_seed))
    b = _run_chunk_states(AVERAGE, tapps, chunk_state(2, 0), make_state(x_seed))
    for key in ("disc", "trump", "contract", "est", "dok"):
        assert np.array_equal(a[key], b[key]), key
    assert not np.array_equal(a["opp_cp"], b["opp_cp"])  # the hidden hands did change


def test_exchange_functions_take_no_hidden_cards_R4():
    """R4 (structural): the exchange kernels' card input is the soloist's 18 cards only."""
    import inspect
    from analyzer.mechanics.exchange import (candidate_outcomes, decide_contracts, fast_exchange,
                                   shortlist_candidates)
    assert list(inspect.signature(shortlist_candidates.py_func).parameters)[0] == "counts18"
    params = list(inspect.signature(candidate_outcomes.py_func).parameters)
    assert params[:2] == ["counts18", "soloist"]
    assert not any("hand" in p for p in params)
    assert not any("hand" in p for p in inspect.signature(decide_contracts.py_func).parameters)
    assert "hands" not in inspect.signature(fast_exchange.py_func).parameters


def test_per_deal_invariants_R7_R8():
    """R7: the three seats' card points sum to 250; R8: total = card points + meld with a
    trick; scores follow R8/R4 per bid and contract."""
    sim = simulate_soloist(STRONG, None, "rearhand", 300, seed=5, exchange_samples=6)
    assert np.all(sim["card_points"] + sim["opp_card_points"].sum(1) == 250)
    assert np.all(sim["tricks"] + sim["opp_tricks"].sum(1) == 15)
    expect_total = sim["card_points"] + np.where(sim["tricks"] > 0, sim["meld"], 0)
    assert np.array_equal(sim["total"], expect_total)
    bids = sim["bids"]
    for j in (0, 5, 20):
        b = bids[j]
        con = sim["contract"][:, j]
        play = con == 0
        made = (sim["tricks"] > 0) & (sim["total"] >= b)
        exp = np.where(made, sim["total"], -2 * b)
        assert np.array_equal(sim["score"][play, j], exp[play])
        assert np.all(sim["score"][con == 1, j] == -b)
        dur = con == 2
        assert np.all(np.abs(sim["score"][dur, j]) == 1000)
    # discards come from hand + Tapp
    h = np.array(Hand.parse(STRONG).counts)
    for i in range(50):
        c = h.copy()
        for t in sim["tapp"][i]:
            c[t] += 1
        for t in sim["discard"][i]:
            c[t] -= 1
        assert c.min() >= 0 and c.sum() == 15


def test_known_tapp_result_and_candidates():
    r = analyze_hand(STRONG, tapp="10S AH 9D", seat="forehand", samples=200, seed=2,
                     known_tapp_samples=300)
    assert isinstance(r, HandAnalysis)
    c = r.candidates
    assert c is not None and len(c) >= 2
    assert bool(c.iloc[0]["recommended"])
    assert c.iloc[0]["mean_total"] >= c["mean_total"].max() - 1e-9
    # every deal uses the recommended exchange (decided once from hand + Tapp)
    assert r.deals["discard"].nunique() == 1
    assert r.deals["discard"].iloc[0] == c.iloc[0]["discard"]
    assert set(r.deals["tapp"]) == {"10S AH 9D"}
    with pytest.raises(Exception):
        r.samples = 5  # frozen


def test_result_tables_and_outputs(tmp_path):
    r = analyze_hand(WEAK, samples=150, seed=1, exchange_samples=6)
    assert list(r.distributions.index) == ["meld", "card_points", "total", "score"]
    for col in ("n", "mean", "ci_lo", "ci_hi", "q05", "q50", "q95"):
        assert col in r.distributions.columns
    assert r.trumps["chosen"].sum() == 150
    b = r.bids
    assert b["bid"].iloc[0] == 150 and (b["bid"].diff().dropna() == 10).all()
    assert (b["p_make_lo"] <= b["p_make"]).all() and (b["p_make"] <= b["p_make_hi"]).all()
    assert b["p_make"].iloc[-1] < 0.001 or b["bid"].iloc[-1] == 1000
    assert r.histograms.groupby("quantity")["count"].sum().eq(150).all()
    d = r.to_dict()
    import json
    json.dumps(d)
    paths = r.to_csv(tmp_path / "out")
    assert {p.name for p in paths} >= {"bids.csv", "trumps.csv", "distributions.csv"}
    assert pd.read_csv(tmp_path / "out" / "bids.csv").shape[0] == len(b)
    png = r.plot(tmp_path / "d.png")
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert "P(make)" in r.summary()


@pytest.mark.parametrize("kwargs, msg", [
    (dict(hand=STRONG, tapp="AS 10S KS"), "copies"),
    (dict(hand=STRONG + " 9C"), "15 cards"),
    (dict(hand=STRONG, tapp="9C 9C"), "Tapp must have 3"),
    (dict(hand=STRONG, seat="dealer"), "unknown seat"),
    (dict(hand=STRONG, samples=0), "samples"),
])
def test_bad_input_one_line_errors(kwargs, msg):
    with pytest.raises(BinokelError, match=msg) as exc:
        analyze_hand(**kwargs)
    assert "\n" not in str(exc.value)


# ---- CLI ------------------------------------------------------------------------------

from click.testing import CliRunner  # noqa: E402

from cli.main import cli  # noqa: E402


def _run(args):
    return CliRunner().invoke(cli, args, catch_exceptions=False)


def test_cli_analyze_help_has_example():
    r = _run(["analyze", "--help"])
    assert r.exit_code == 0 and "Example:" in r.output and "--tapp" in r.output


def test_cli_analyze_json_csv_plot(tmp_path):
    import json
    r = _run(["analyze", "--example", "weak", "-n", "64", "--seed", "2", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["samples"] == 64 and d["bids"][0]["bid"] == 150
    png = tmp_path / "a.png"
    r = _run(["analyze", STRONG, "--tapp", "10S AH 9D", "-n", "64", "--csv", str(tmp_path / "c"),
              "--plot", str(png)])
    assert r.exit_code == 0, r.output
    assert "Exchange" in r.output and "Per bid" in r.output
    assert (tmp_path / "c" / "candidates.csv").exists() and png.exists()


def test_cli_analyze_jobs_do_not_change_output():
    a = _run(["analyze", "--example", "average", "-n", "300", "--seed", "5", "--json",
              "--jobs", "1"])
    b = _run(["analyze", "--example", "average", "-n", "300", "--seed", "5", "--json",
              "--jobs", "2"])
    assert a.exit_code == 0 and a.output == b.output


@pytest.mark.parametrize("args, msg", [
    (["analyze", STRONG, "--tapp", "AS 10S KS"], "copies"),
    (["analyze", "AS KS"], "15 cards"),
    (["analyze", STRONG, "--tapp", "AS"], "3 cards"),
    (["analyze", STRONG, "--seat", "dealer"], "unknown seat"),
    (["analyze", STRONG, "-n", "0"], "at least 1"),
    (["analyze", STRONG, "--plot", "/nonexistent/dir/x.png"], "does not exist"),
    (["analyze", STRONG, "--csv", "/proc/nope"], "--csv"),
    (["analyze"], "give a HAND"),
])
def test_cli_analyze_bad_input_exit_2(args, msg):
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2
    lines = [ln for ln in r.output.strip().splitlines() if ln]
    assert len(lines) == 1 and lines[0].startswith("binokel: error:") and msg in lines[0], r.output
