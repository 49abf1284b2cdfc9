"""Batch runs of the games of partners (analyzer/batch/runs.py, "Deals of partners";
`binokel simulate --rules kreuz-48`): the chunk kernel against a plain-Python replay of its deals (auction V1 / V6.2, melds V6.3,
scores V4.6 / V5.7 / V6.6), the aggregates against a plain count of the rows, the same
numbers for any --jobs, the manifest round trip of the TeamRuleSet, part integrity, the
report's team sections and the one-line errors."""
from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.batch.runs import (RunSpec, aggregate_partners_rows, load_run, part_path,
                                 partners_deal_chunk, partners_deal_table, run_chunk, simulate)
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import get_rules, team_spec
from analyzer.mechanics.bidding import (DEFAULT_DABB_ESTIMATE, DEFAULT_PARTNER_ALLOWANCE,
                                        DEFAULT_TRICK_VALUE)
from analyzer.mechanics.game import (R_BID,
                                     R_BIDDER,
                                     R_CONTRACT,
                                     R_COUNTING,
                                     R_MELD,
                                     R_POINTS,
                                     R_SCORE,
                                     R_TRUMP,
                                     rule_maxima_by_tricks,
                                     rule_value_by_model)
from analyzer.mechanics.sampling import deal_counts
from cli.main import cli
from tests.oracle import pinochle as rp
from tests.oracle import teams as rt
from tests.batch.test_runs_integrity import _one_line_error

GAMES = ("kreuz-48", "kreuz-40", "pinochle-80")


def _hands_of_deal(rules, seed, k):
    """Deal ``k`` of chunk 0's hands: the kernel draws dealing and the play policy's choices
    from one state and shuffles one deck in place, so run the first ``k`` deals with the
    same state and deck, then deal once more."""
    spec = team_spec(rules)
    st = chunk_state(seed, 0)
    deck = spec.deck.copy()
    partners_deal_chunk(st, k, deck, spec.tk, spec.kr, spec.open_auction,
                        DEFAULT_DABB_ESTIMATE, DEFAULT_TRICK_VALUE,
                        DEFAULT_PARTNER_ALLOWANCE, np.zeros((k, 12), dtype=np.int64))
    hands = np.zeros((5, N_TYPES), dtype=np.uint8)
    deal_counts(st, deck, hands, spec.hand_size)
    return hands


def test_team_chunk_rows_follow_the_rules_on_random_deals():
    """V1 duels / V6.2 auction, V6.3 melds, V4.6 / V5.7 / V6.6 scores: every row of a chunk
    agrees with a plain-Python replay from its dealt hands (30 deals per game)."""
    for name in GAMES:
        rules = get_rules(name)
        spec = team_spec(rules)
        n = 30
        table = partners_deal_table(chunk_state(5, 0), n, rules)
        for k in range(n):
            _check_row(name, spec, spec.tk, _hands_of_deal(rules, 5, k), table[k])


def _check_row(name, spec, tk, hands, row):
    sol, bid, trump, contract = (int(row[c]) for c in (R_BIDDER, R_BID, R_TRUMP, R_CONTRACT))
    h = [[int(x) for x in hands[p]] for p in range(4)]
    if spec.open_auction:
        maxb = np.zeros(4, dtype=np.int64)
        trumps = np.zeros(4, dtype=np.int64)
        rule_maxima_by_tricks(hands[:4].copy(), tk, DEFAULT_TRICK_VALUE, DEFAULT_PARTNER_ALLOWANCE,
                      maxb, trumps)
        assert (sol, bid) == rp.auction([int(x) for x in maxb], spec.start, spec.step), name
        if sol < 0:      # V6.2: all pass, thrown in, nothing scored
            assert not row[R_SCORE:R_SCORE + 2].any()
            return
        assert trump == trumps[sol]
        melds = [rp.melds(h[t], trump) + rp.melds(h[t + 2], trump) for t in range(2)]
        assert melds == [int(row[R_MELD]), int(row[R_MELD + 1])], name
        pts = [int(row[R_POINTS]), int(row[R_POINTS + 1])]
        assert sum(pts) == rules_points(spec)
        want = rp.score(sol % 2, bid, melds, pts, [int(row[R_COUNTING]), int(row[R_COUNTING + 1])])
        assert want == (int(row[R_SCORE]), int(row[R_SCORE + 1])), name
        return
    tmp = np.zeros(4, dtype=np.int64)
    maxb = [int(rule_value_by_model(hands[p], spec.kr, DEFAULT_DABB_ESTIMATE, tmp))
            // spec.step * spec.step for p in range(4)]
    assert (sol, bid) == rt.duel_auction(maxb, spec.start, spec.step, spec.forced_opening), name
    if sol < 0:
        return
    if contract == 0:
        pts = [int(row[R_POINTS]), int(row[R_POINTS + 1])]
        assert sum(pts) == rules_points(spec)
        tricks = [int(row[R_COUNTING]), int(row[R_COUNTING + 1])]
        assert sum(tricks) == spec.hand_size
        want = rt.score(sol % 2, bid, [int(row[R_MELD]), int(row[R_MELD + 1])], pts, tricks,
                        rounding=spec.tk.round_to > 0)
        assert want == (int(row[R_SCORE]), int(row[R_SCORE + 1])), name
    elif contract == 1:     # going out (V4.3, V5.4): -bid; the others their melds + the bonus
        team = sol % 2
        assert int(row[R_SCORE + team]) == -bid
        assert int(row[R_SCORE + 1 - team]) == int(row[R_MELD + 1 - team]) + tk.going_out_bonus


def rules_points(spec):
    return int(spec.rules.deal_points)


def _plain_aggregate(table) -> Counter:
    """The part rows counted one deal at a time in plain Python (module doc of runs, "Deals of partners")."""
    c: Counter = Counter()
    for row in table.tolist():
        sol, bid, trump, con = row[R_BIDDER], row[R_BID], row[R_TRUMP], row[R_CONTRACT]
        if sol < 0:
            c[("team.contract", 4)] += 1
            for k in range(2):
                c[(f"team.score.team.{k}", row[R_SCORE + k])] += 1
            continue
        t = sol % 2
        sb, so = row[R_SCORE + t], row[R_SCORE + 1 - t]
        c[("team.contract", con)] += 1
        c[("team.bidder", sol)] += 1
        c[("team.bidding_team", t)] += 1
        if con <= 1:
            c[("team.trump", trump)] += 1
        c[("team.bid.win", bid)] += 1
        kind = ("made" if sb > 0 else "failed") if con == 0 else (
            "out" if con == 1 else ("durch_won" if sb > 0 else "durch_lost"))
        c[(f"team.by_bid.{kind}", bid)] += 1
        if con == 0:
            c[("team.melds.bidding", row[R_MELD + t])] += 1
            c[("team.melds.other", row[R_MELD + 1 - t])] += 1
            for k in range(2):
                c[(f"team.melds.team.{k}", row[R_MELD + k])] += 1
            c[("team.points.bidding", row[R_POINTS + t])] += 1
            c[("team.points.other", row[R_POINTS + 1 - t])] += 1
            c[("team.tricks.bidding", row[R_COUNTING + t])] += 1
            c[("sum.team.melds.bidding.by_bid", bid, "s")] += row[R_MELD + t]
            c[("sum.team.melds.bidding.by_bid", bid, "q")] += row[R_MELD + t] ** 2
        c[("team.score.bidding", sb)] += 1
        c[("team.score.other", so)] += 1
        for k in range(2):
            c[(f"team.score.team.{k}", row[R_SCORE + k])] += 1
        for who, v in (("bidding", sb), ("other", so)):
            c[(f"sum.team.score.{who}.by_bid", bid, "s")] += v
            c[(f"sum.team.score.{who}.by_bid", bid, "q")] += v * v
    return c


def test_team_aggregates_equal_a_plain_count_of_the_rows():
    for name in GAMES:
        table = partners_deal_table(chunk_state(2, 1), 300, get_rules(name))
        got: Counter = Counter()
        for metric, b, count, sq in aggregate_partners_rows(table):
            if metric.startswith("sum."):
                got[(metric, b, "s")] += count
                got[(metric, b, "q")] += sq
            else:
                assert sq == count      # one unit per deal
                got[(metric, b)] += count
        want = _plain_aggregate(table)
        assert {k: v for k, v in got.items() if v} == {k: v for k, v in want.items() if v}, name


def test_team_run_same_numbers_for_any_jobs_and_round_trips_the_team_rules(tmp_path):
    """Reproducible: --jobs 1 and --jobs 2 give the same table; the manifest keeps every
    TeamRuleSet field (RunResult.rules is the registered kreuz-40, teams included)."""
    rules = get_rules("kreuz-40")
    spec = RunSpec("deals", 900, 3, 300, rules)
    a = simulate(tmp_path / "a", spec, jobs=1)
    b = simulate(tmp_path / "b", spec, jobs=2)
    assert a.table.equals(b.table)
    assert a.n_deals == 900 and a.teams
    assert type(a.rules).__name__ == "TeamRuleSet" and a.rules == rules
    assert a.rules.partner_relief and a.rules.teams
    assert a.manifest["policy"]["auction"] == "V1 chain of duels"
    assert int(a.hist("team.contract").sum()) == 900
    # a chunk is a pure function of (seed, chunk): run_chunk agrees with the part
    rows = run_chunk("deals", 3, 1, 300, rules)["rows"]
    assert rows == aggregate_partners_rows(partners_deal_table(chunk_state(3, 1), 300, rules))


def test_team_run_on_the_dask_backend_equals_the_local_run(tmp_path):
    """Scale-out through joblib's Dask backend: a pinochle-80 run on a LocalCluster gives
    the local run's table, deal for deal (chunks are pure functions of seed and index)."""
    distributed = pytest.importorskip("distributed")
    spec = RunSpec("deals", 600, 4, 200, get_rules("pinochle-80"))
    local = simulate(tmp_path / "local", spec, jobs=1)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        res = simulate(tmp_path / "dask", spec, backend="dask",
                       scheduler=cluster.scheduler_address)
    assert res.n_deals == 600 and res.teams
    assert res.table.equals(local.table)


def test_team_run_parts_are_checked_and_foreign_game_parts_refused(tmp_path):
    """FORMAT 2 integrity for team runs: a kreuz-48 part copied into a pinochle-80 run is
    another game's part (never counted); resume sets it aside and redoes the chunk."""
    sp = RunSpec("deals", 200, 1, 100, get_rules("pinochle-80"))
    sk = RunSpec("deals", 200, 1, 100, get_rules("kreuz-48"))
    simulate(tmp_path / "p", sp, jobs=1)
    simulate(tmp_path / "k", sk, jobs=1)
    good = load_run(tmp_path / "p").table
    part_path(tmp_path / "p", 1).write_bytes(part_path(tmp_path / "k", 1).read_bytes())
    with pytest.raises(BinokelError, match="other rules"):
        load_run(tmp_path / "p")
    res = simulate(tmp_path / "p", sp, jobs=1)
    assert any("set aside" in line for line in res.notes)
    assert res.table.equals(good)
    # a kreuz-48 run cannot resume in the pinochle folder (rules differ, named)
    with pytest.raises(BinokelError, match=r"pinochle-80.*kreuz-48.*differ in the game \(--rules\)"):
        simulate(tmp_path / "p", RunSpec("deals", 200, 1, 100, get_rules("kreuz-48")), jobs=1)


def test_simulate_and_report_a_team_game_from_the_cli(tmp_path):
    """`binokel simulate --rules pinochle-80` runs deals (the default for team games) and
    `binokel report` writes the team sections with n and CIs; bad input is one line."""
    out = tmp_path / "run"
    r = CliRunner().invoke(cli, ["simulate", "-n", "400", "--out", str(out), "--rules",
                                 "pinochle-80", "--jobs", "1", "-q", "--chunk-size", "200"])
    assert r.exit_code == 0, r.output
    assert "deals, pinochle-80" in r.output
    rep = tmp_path / "rep"
    r = CliRunner().invoke(cli, ["report", str(out), "--out", str(rep), "--rules", "pinochle-80"])
    assert r.exit_code == 0, r.output
    md = (rep / "report.md").read_text()
    for heading in ("## Contracts", "## Outcome by winning bid", "## Team melds (played deals)",
                    "## Scores per team", "thrown in (nobody bid)", "95% CI",
                    "median [95% CI]", "90th pct [95% CI]"):
        assert heading in md
    assert "Durch" not in md.split("## Rules")[0]     # V6: no Durch, no going out
    assert (rep / "team_scores.png").exists() and (rep / "team_p_make_by_bid.svg").exists()
    # the meld census of a team game runs too (analyzer.batch.table_census, issue 24)
    r = CliRunner().invoke(cli, ["simulate", "-n", "10", "--out", str(tmp_path / "m"),
                                 "--rules", "kreuz-48", "--what", "melds", "-q"])
    assert r.exit_code == 0 and "(melds, kreuz-48" in r.output, r.output
    # one-line errors: the wrong game, edited team fields
    _one_line_error(CliRunner().invoke(cli, ["report", str(out), "--out", str(rep), "--rules",
                                             "kreuz-48"]), "holds a pinochle-80 run, not kreuz-48")
    man = json.loads((out / "manifest.json").read_text())
    man["rules"]["meld_needs_counter_trick"] = False
    (out / "manifest.json").write_text(json.dumps(man))
    _one_line_error(CliRunner().invoke(cli, ["report", str(out), "--out", str(rep), "--rules",
                                             "pinochle-80"]), "meld_needs_counter_trick")
