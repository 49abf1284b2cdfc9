"""analyzer.bench.paired: two builds alternate round by round; ratios are paired per round
and the warm-up round is not counted (the bench runs are faked: the pairing is pinned)."""
from __future__ import annotations

import pytest

from analyzer.bench import paired as pb


def test_rounds_alternate_and_ratios_are_paired_per_round(monkeypatch):
    calls = []

    def fake_bench(tree, args):
        calls.append("new" if tree == pb.ROOT else "base")
        k = len(calls)
        rate = 100.0 * k                       # every run a different load
        return {("binokel-48", "W2"): rate * (1.1 if tree == pb.ROOT else 1.0)}

    monkeypatch.setattr(pb, "_bench", fake_bench)
    rows = pb.paired("HEAD", 3, ["-w", "W2"])
    # warm-up + 3 rounds, the order flipping every round
    assert calls == ["base", "new", "new", "base", "base", "new", "new", "base"]
    (row,) = rows
    assert row["n"] == 3 and row["workload"] == "W2"
    # round 1: new ran 3rd (330), base 4th (400); round 2: base 5th, new 6th; ...
    assert row["ratio_min"] == pytest.approx(330 / 400)
    assert row["ratio_max"] == pytest.approx(660 / 500)


def test_rounds_are_bounded():
    with pytest.raises(SystemExit):
        pb.main(["--base", "HEAD", "--rounds", "0", "--", "-w", "W2"])
