"""Batch runs (analyzer/batch/runs.py, `binokel simulate`): kernel vs a plain-Python reference,
--jobs independence, interrupt and resume, the dask backend, refusal of mixed runs, and
Monte Carlo vs exact probabilities (R2 deals, R5 melds, R1 card points).
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from tests.batch import default_sigint
from analyzer.batch.runs import (RunSpec, load_run, meld_hist_names, part_path, prepare_run,
                            run_chunk, simulate, small_metric_names, suit_census_table)
from analyzer.mechanics.cards import Hand, SUIT_LETTERS, mask_to_counts
from analyzer.errors import BinokelError
from analyzer.analyses.exact import exact_table
from analyzer.mechanics.melds import melds
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import DEFAULT_RULES
from analyzer.mechanics.sampling import deal_random, new_deck
from cli.main import cli

ROOT = Path(__file__).resolve().parents[2]


def test_suit_census_table_rebuilds_r5_type_f_values():
    """R5 Reading: the (family level, pairs) table reproduces RuleSet.suit_f_value."""
    census = suit_census_table()
    r = DEFAULT_RULES
    kr = r.kernel
    for idx in range(4096):
        lo, hi = idx & 63, idx >> 6
        if hi & ~lo:
            continue
        f, p = census[idx]
        for trump in (0, 1):
            fam = {0: 0, 1: r.family[trump], 2: r.double_family[trump]}[int(f)]
            assert fam + p * r.pair[trump] == kr.suit_f_table[trump, idx]


def _reference_rows(seed: int, chunk: int, n: int) -> Counter:
    """The meld census of the same deals computed with the named-meld API (R5)."""
    state = chunk_state(seed, chunk)
    deck = new_deck()
    masks = np.zeros(4, dtype=np.int64)
    rows: Counter = Counter()
    names15 = small_metric_names("h15")
    names18 = small_metric_names("h18")
    for _ in range(n):
        deal_random(state, deck, masks)
        hands = [Hand.from_mask(int(m)) for m in masks]
        for prefix, hand_list, names in (("h15", hands[:3], names15),
                                         ("h18", [hands[0] + hands[3]], names18)):
            for h in hand_list:
                c = list(h.counts)
                totals = [melds(h, s).total for s in SUIT_LETTERS]
                best = int(np.argmax(totals))  # first maximum = lowest suit index
                vals = []
                fams = []
                pairs = []
                for s in range(4):
                    a, t, k, q, j, nine = c[6 * s:6 * s + 6]
                    f = min(a, t, k, q, j)
                    fams.append(f)
                    pairs.append(0 if f == 2 else (min(k - 1, q - 1) if f == 1 else min(k, q)))
                vals += fams + pairs
                vals += [min(c[6 * s + r] for s in range(4)) for r in range(6)]
                vals += [min(c[6 * 1 + 3], c[6 * 3 + 4])]
                vals += [c[6 * s + 5] for s in range(4)]
                vals += [sum(pairs), sum(1 for f in fams if f), best, fams[best], pairs[best],
                         c[6 * best + 5]]
                for name, v in zip(names, vals):
                    rows[(name, v)] += 1
                for name, v in zip(meld_hist_names(prefix), totals + [totals[best]]):
                    rows[(name, v)] += 1
        pts = sum(DEFAULT_RULES.card_points[t % 6] * int(k)
                  for t, k in enumerate(mask_to_counts(int(masks[3]))))
        rows[("tapp.points", pts)] += 1
    return rows


def test_meld_kernel_matches_python_reference_deal_by_deal():
    """R2/R5: the census kernel's counts equal the named-meld API on the same 300 deals."""
    n = 300
    res = run_chunk("melds", 11, 3, n, DEFAULT_RULES)
    got = Counter({(m, b): c for m, b, c, sq in res["rows"] if not m.endswith(":dealsq")})
    assert got == _reference_rows(11, 3, n)
    # every h15 metric counts 3 hands per deal; h18 and the Tapp one per deal
    for name in small_metric_names("h15") + meld_hist_names("h15"):
        assert sum(c for (m, _), c in got.items() if m == name) == 3 * n
    assert sum(c for (m, _), c in got.items() if m == "tapp.points") == n


def test_per_deal_squares_are_consistent():
    """sq >= count (a deal adds 0..3 hands to a bin) and sq <= 3 * count."""
    res = run_chunk("melds", 5, 0, 2000, DEFAULT_RULES)
    for m, b, c, sq in res["rows"]:
        if m.startswith("h15.") and not m.endswith(":dealsq"):
            assert c <= sq <= 3 * c, (m, b)


def _spec(n=24_000, chunk=3_000, seed=7):
    return RunSpec("melds", n, seed, chunk)


def test_results_do_not_depend_on_jobs(tmp_path):
    """Chunk seeds depend only on (seed, chunk): 1 worker and 2 loky workers agree."""
    spec = _spec()
    a = simulate(tmp_path / "a", spec, jobs=1)
    b = simulate(tmp_path / "b", spec, jobs=2)
    assert a.complete and b.complete and a.n_deals == spec.n
    assert a.table.equals(b.table)


def test_resume_after_lost_parts_equals_uninterrupted(tmp_path):
    spec = _spec()
    full = simulate(tmp_path / "full", spec, jobs=1)
    part = tmp_path / "part"
    simulate(part, spec, jobs=1)
    for i in (0, 3, 7):
        part_path(part, i).unlink()
    (part / "parts" / "part-000005.parquet.tmp").write_bytes(b"half-written")
    assert prepare_run(part, spec) == [0, 3, 7]
    partial = load_run(part)
    assert not partial.complete and partial.n_deals == spec.n - 3 * 3_000
    again = simulate(part, spec, jobs=1)
    assert again.table.equals(full.table)
    assert not list((part / "parts").glob("*.tmp"))


def _cli_cmd(out, n, chunk, jobs, seed=3):
    return [sys.executable, "-c", "from cli.main import main; main()", "simulate", "-n", str(n),
            "--out", str(out), "--seed", str(seed), "--chunk-size", str(chunk),
            "--jobs", str(jobs), "-q"]


def _wait_parts(out: Path, k: int, proc, timeout=60.0) -> None:
    t0 = time.time()
    while time.time() - t0 < timeout:
        if len(list((out / "parts").glob("part-*.parquet"))) >= k:
            return
        if proc.poll() is not None:
            pytest.fail(f"simulate ended early: {proc.returncode}")
        time.sleep(0.01)
    pytest.fail("no parts appeared")


@pytest.mark.parametrize("sig,jobs", [(signal.SIGKILL, 1), (signal.SIGINT, 2)])
def test_killed_run_resumes_to_the_uninterrupted_result(tmp_path, sig, jobs):
    """A `binokel simulate` killed mid-way (SIGKILL, or Ctrl-C to the process group)
    leaves readable parts; the same command again completes it, equal to one clean run."""
    # many small chunks, so the kill lands mid-way even on a fast idle machine
    n, chunk = 600_000, 3_000
    out = tmp_path / "killed"
    proc = subprocess.Popen(_cli_cmd(out, n, chunk, jobs), cwd=ROOT, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=default_sigint)
    _wait_parts(out, 2, proc)
    os.killpg(proc.pid, sig)
    _, err = proc.communicate(timeout=60)
    if sig == signal.SIGINT:
        assert proc.returncode == 130, err
        assert b"interrupted" in err
    done = load_run(out)  # every part present is complete and readable
    assert 2 <= done.chunks_done < done.n_chunks
    rerun = subprocess.run(_cli_cmd(out, n, chunk, jobs), cwd=ROOT, capture_output=True)
    assert rerun.returncode == 0, rerun.stderr
    clean = simulate(tmp_path / "clean", RunSpec("melds", n, 3, chunk), jobs=1)
    assert load_run(out).table.equals(clean.table)


def test_dask_backend_equals_local_run(tmp_path):
    """--backend dask on a LocalCluster gives the local run's numbers."""
    distributed = pytest.importorskip("distributed")
    spec = _spec(n=12_000)
    local = simulate(tmp_path / "local", spec, jobs=1)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        res = simulate(tmp_path / "dask", spec, backend="dask",
                       scheduler=cluster.scheduler_address)
    assert res.table.equals(local.table)


def test_unreachable_scheduler_is_one_line_exit_2(tmp_path):
    r = CliRunner().invoke(cli, ["simulate", "-n", "10", "--out", str(tmp_path / "x"),
                                 "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9",
                                 "--connect-timeout", "1"])
    assert r.exit_code == 2
    assert "cannot reach dask scheduler" in r.output


def test_refuses_to_mix_runs_with_other_parameters(tmp_path):
    out = tmp_path / "run"
    simulate(out, _spec(n=3_000), jobs=1)
    with pytest.raises(BinokelError, match="differ in the seed"):
        prepare_run(out, _spec(n=3_000, seed=8))
    r = CliRunner().invoke(cli, ["simulate", "-n", "6000", "--out", str(out), "--seed", "7",
                                 "--chunk-size", "3000", "-q"])
    assert r.exit_code == 2 and "you asked for 6,000 deals" in r.output and "\n" == r.output[-1]
    assert r.output.count("\n") == 1
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "file.txt").write_text("x")
    with pytest.raises(BinokelError, match="not empty"):
        prepare_run(tmp_path / "junk", _spec())


@pytest.mark.parametrize("args,msg", [
    (["-n", "0"], "at least 1"),
    (["-n", "abc"], "not a whole number"),
    (["-n", "10", "--jobs", "0"], "--jobs"),
    (["-n", "10", "--backend", "dask"], "--scheduler"),
])
def test_simulate_bad_input_exit_2(tmp_path, args, msg):
    r = CliRunner().invoke(cli, ["simulate", "--out", str(tmp_path / "o"), *args])
    assert r.exit_code == 2, r.output
    assert msg in r.output and r.output.startswith("binokel: error:")


def test_simulate_cli_writes_manifest_and_parts(tmp_path):
    out = tmp_path / "cli"
    r = CliRunner().invoke(cli, ["simulate", "-n", "5_000", "--out", str(out), "--seed", "4",
                                 "--chunk-size", "2000", "--jobs", "1", "-q"])
    assert r.exit_code == 0, r.output
    man = json.loads((out / "manifest.json").read_text())
    assert man["n"] == 5000 and man["n_chunks"] == 3 and man["seed"] == 4
    assert man["rules"] == json.loads(json.dumps(DEFAULT_RULES.to_dict()))
    assert load_run(out).n_deals == 5000
    assert "Example" in CliRunner().invoke(cli, ["simulate", "--help"]).output


def test_monte_carlo_agrees_with_exact_probabilities(tmp_path):
    """R5 census from 200,000 random deals vs exact combinatorics: the exact values fall
    inside the estimates' 95% CIs about as often as they should (at most 12% outside),
    and every one within 4.5 SE."""
    res = simulate(tmp_path / "mc", RunSpec("melds", 200_000, 2026, 50_000), jobs=1)
    exact = {**exact_table(15), **exact_table(18)}
    inside = outside = 0
    for (metric, b), p in exact.items():
        p = float(p)
        if p < 1e-4:
            continue  # too rare for 200k deals to say much; covered by the big runs
        est = res.proportion(metric, b)
        if est.lo <= p <= est.hi:
            inside += 1
        else:
            outside += 1
        assert abs(est.value - p) <= 4.5 * est.se, (metric, b, est, p)
    assert inside + outside > 80
    assert outside <= 0.12 * (inside + outside)
    # the headline events, each within 3 SE (a 99.7% interval: six fixed checks must
    # not fail by chance one seed in five, as six 95% intervals would)
    for metric, b in [("h15.binokel", 1), ("h15.binokel", 2), ("h15.rank.A", 1),
                      ("h15.family.S", 1), ("h18.binokel", 1), ("h18.family.C", 1)]:
        est = res.proportion(metric, b)
        assert abs(est.value - float(exact[(metric, b)])) <= 3 * est.se, (metric, b, est)
    tapp = res.mean("tapp.points")
    assert tapp.lo <= 15.0 <= tapp.hi


def _reference_deals(seed: int, chunk: int, n: int) -> tuple[Counter, Counter]:
    """The deals census recomputed deal by deal from the engines' public pieces: R3
    auction, R4 exchange, R6/R7 play, R8/R4 scoring through the Python score_deal."""
    from analyzer.mechanics.bidding import DEFAULT_TRICK_ESTIMATE, rule_of_thumb_max_bid, run_auction
    from analyzer.mechanics.exchange import CONTRACT_DURCH, CONTRACT_SURRENDER, fast_exchange
    from analyzer.mechanics.play import POLICY_HEURISTIC, play_out
    from analyzer.mechanics.scoring import score_deal

    kr = DEFAULT_RULES.kernel
    state = chunk_state(seed, chunk)
    deck = new_deck()
    masks = np.zeros(4, dtype=np.int64)
    counts: Counter = Counter()
    sums: Counter = Counter()
    for _ in range(n):
        deal_random(state, deck, masks)
        hands = np.array([mask_to_counts(int(m)) for m in masks[:3]], dtype=np.uint8)
        tapp = mask_to_counts(int(masks[3]))
        maxb = np.array([rule_of_thumb_max_bid(int(m), kr, DEFAULT_TRICK_ESTIMATE)
                         for m in masks[:3]], dtype=np.int64)
        sol, bid = run_auction(maxb, kr)
        c18 = (hands[sol] + tapp).astype(np.uint8)
        disc = np.zeros(3, dtype=np.int64)
        trump, contract = fast_exchange(c18, bid, kr, disc)
        hands[sol] = c18
        for d in disc:
            hands[sol, d] -= 1
        assert hands.sum(axis=1).tolist() == [15, 15, 15]
        disc_pts = sum(DEFAULT_RULES.card_points[int(d) % 6] for d in disc)
        pts = np.zeros(3, dtype=np.int64)
        trk = np.zeros(3, dtype=np.int64)
        counts[("contract", contract)] += 1
        counts[("bid.win", bid)] += 1
        counts[("bid.seat", sol)] += 1
        if contract == CONTRACT_DURCH:
            play_out(hands, -1, sol, sol, POLICY_HEURISTIC, state, kr, pts, trk)
            s = score_deal(sol, bid, pts, trk, (0, 0, 0), kind="durch")
            counts[("by_bid.durch_won" if s.made else "by_bid.durch_lost", bid)] += 1
        else:
            mel = [melds(Hand(tuple(int(x) for x in hands[p])), SUIT_LETTERS[trump]).total
                   for p in range(3)]
            if contract == CONTRACT_SURRENDER:
                s = score_deal(sol, bid, (0, 0, 0), (0, 0, 0), mel, kind="surrender")
                counts[("by_bid.surrender", bid)] += 1
            else:
                play_out(hands, trump, 0, sol, POLICY_HEURISTIC, state, kr, pts, trk)
                s = score_deal(sol, bid, pts, trk, mel, discard_points=disc_pts)
                counts[("by_bid.made" if s.made else "by_bid.failed", bid)] += 1
                cp = [int(pts[p]) + (disc_pts if p == sol else 0) for p in range(3)]
                assert sum(cp) == 250  # R7
                for p in range(3):
                    counts[(f"points.seat.{p}", cp[p])] += 1
                counts[("points.soloist", cp[sol])] += 1
                counts[("points.defenders", 250 - cp[sol])] += 1
            sums[("sum.melds.soloist.by_bid", bid)] += mel[sol]
        sums[("sum.score.soloist.by_bid", bid)] += s.scores[sol]
        for p in range(3):
            sums[(f"sum.score.seat.{p}", 0)] += s.scores[p]
    return counts, sums


def test_deal_kernel_matches_engine_pieces_deal_by_deal():
    """R3-R8: the deals kernel's aggregates equal the same 150 deals run step by step
    through the auction, exchange, play and the Python score_deal."""
    n = 150
    res = run_chunk("deals", 21, 2, n, DEFAULT_RULES)
    counts = Counter({(m, b): c for m, b, c, sq in res["rows"]
                      if not m.startswith("sum.") and c})
    sums = Counter({(m, b): c for m, b, c, sq in res["rows"] if m.startswith("sum.") and c})
    ref_counts, ref_sums = _reference_deals(21, 2, n)
    assert counts == ref_counts
    assert sums == Counter({k: v for k, v in ref_sums.items() if v})
    assert sum(c for (m, _), c in counts.items() if m == "bid.win") == n
