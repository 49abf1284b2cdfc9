"""``binokel duplicate`` (cli/duplicate_cmd.py, analyzer/analyses/strength.py)."""
from __future__ import annotations

import json

from click.testing import CliRunner

from analyzer.fits import read_fit_file
from cli.main import cli


def _run(*args):
    return CliRunner().invoke(cli, list(args))


def test_duplicate_json_reports_paired_figures_with_n_and_se():
    r = _run("duplicate", "--deals", "4", "--samples", "2", "--horizon", "2",
             "--config", "defenders", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    cfg = d["configs"]["defenders"]
    assert d["n"] == 4 and cfg["card_points"]["n"] == 4
    assert cfg["card_points"]["se"] is None or cfg["card_points"]["se"] >= 0
    assert set(cfg["make"]) == {"auction", "200", "250", "300"}
    for m in cfg["make"].values():
        assert 0 <= m["base"] <= 1 and 0 <= m["config"] <= 1


def test_duplicate_same_seed_same_numbers():
    a = _run("duplicate", "--deals", "2", "--samples", "2", "--horizon", "2", "--seed", "5",
             "--config", "soloist", "--json")
    b = _run("duplicate", "--deals", "2", "--samples", "2", "--horizon", "2", "--seed", "5",
             "--config", "soloist", "--json")
    da, db = json.loads(a.output), json.loads(b.output)
    for d in (da, db):
        d["configs"]["soloist"].pop("seconds_per_deal")
    assert da == db


def test_duplicate_bounds_its_inputs():
    r = _run("duplicate", "--deals", "0")
    assert r.exit_code == 2 and "--deals" in r.output and r.output.count("\n") == 1
    r = _run("duplicate", "--samples", "5000")
    assert r.exit_code == 2 and "--samples" in r.output


def test_duplicate_heuristic_against_heuristic_v1():
    """--policy heuristic: the current heuristic against heuristic-v1 (the default
    baseline for it); a PIMC match against heuristic-v1 is one clear line, exit 1."""
    r = _run("duplicate", "--deals", "30", "--policy", "heuristic", "--config", "defenders",
             "--seed", "2", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["baseline"] == "heuristic-v1" and d["configs"]["defenders"]["card_points"]["n"] == 30
    r = _run("duplicate", "--deals", "30", "--policy", "heuristic", "--config", "defenders")
    assert r.exit_code == 0 and "heuristic minus heuristic-v1" in r.output
    r = _run("duplicate", "--deals", "3", "--baseline", "heuristic-v1")
    assert r.exit_code != 0 and "PIMC plays against the current heuristic" in r.output
    assert "Traceback" not in r.output


def test_fit_defence_command_writes_a_fit_file_and_bounds_its_inputs(tmp_path):
    """``binokel fit-defence`` (cli/fit_defence_cmd.py): the DEFENCE_LIN weights, also
    written to --out as a fit file (analyzer.fits) that records the command; bad input is
    one line with exit status 2."""
    out = tmp_path / "lin.json"
    r = _run("fit-defence", "--deals", "20", "--iterations", "1", "--out", str(out), "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert len(d["weights"]) == 5 and all(len(row) == 18 for row in d["weights"])
    doc = read_fit_file(out)
    assert doc["data"] == d["weights"] and "--deals 20 --seed 7 --iterations 1" in doc["command"]
    # --features lin2: heuristic-lin2's weights (6 contexts x 33 features, DEFENCE_LIN2)
    out2 = tmp_path / "lin2.json"
    r = _run("fit-defence", "--deals", "20", "--iterations", "2", "--features", "lin2",
             "--start", "lin", "--damp", "0.5", "--out", str(out2), "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert len(d["weights"]) == 6 and all(len(row) == 33 for row in d["weights"])
    assert d["features"] == "lin2" and d["start"] == "lin" and d["damp"] == 0.5
    doc = read_fit_file(out2)
    assert doc["data"] == d["weights"] and "--features lin2 --start lin" in doc["command"]
    assert "DEFENCE_LIN2" in doc["about"]
    for bad in (["--deals", "0"], ["--iterations", "0"], ["--ridge", "0"],
                ["--features", "lin3"], ["--start", "pimc"], ["--damp", "0"],
                ["--out", str(tmp_path / "no" / "x.py")]):
        r = _run("fit-defence", *bad)
        assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output


def test_duplicate_and_fit_defence_take_every_game():
    # issue 24: --rules on both; a partners' game (V1) plays PIMC for a side against the
    # team policy, the 40-card game (V5) through the three-hand match
    for game, cfg in (("pinochle-80", "defenders"), ("binokel-40", "soloist")):
        r = _run("duplicate", "--rules", game, "--deals", "2", "--samples", "2", "--horizon", "2",
                 "--config", cfg, "--json")
        assert r.exit_code == 0, r.output
        d = json.loads(r.output)
        assert d["n"] == 2 and d["configs"][cfg]["card_points"]["n"] == 2
    r = _run("fit-defence", "--rules", "grupp-3", "--deals", "3", "--iterations", "1", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["rules"] == "grupp-3"


def test_impossible_duplicate_and_fit_requests_for_partners_are_one_line():
    r = _run("duplicate", "--rules", "kreuz-48", "--deals", "2", "--policy", "heuristic-lin")
    assert r.exit_code == 2 and "partners (V1)" in r.output and len(r.output.strip().splitlines()) == 1
    # V1: the partners' table has its own defence; a lone soloist's feature set is refused
    r = _run("fit-defence", "--rules", "kreuz-40", "--deals", "3", "--features", "lin")
    assert r.exit_code == 2 and "partners" in r.output and "(V1)" in r.output
    assert len(r.output.strip().splitlines()) == 1
