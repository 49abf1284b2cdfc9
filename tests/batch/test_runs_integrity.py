"""Run folders (analyzer/batch/runs.py, cli/simulate_cmd.py): bounded requests, every
part checked against the manifest, damaged chunks redone, one writer per folder, write
errors answered in one line."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from analyzer import BinokelError
from analyzer.batch.runs import MAX_CHUNKS, MAX_DEALS, RunSpec
from cli.main import cli


def _one_line_error(r, fragment):
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("binokel: error:"), r.output
    assert fragment in lines[0], lines[0]


def test_absurd_n_is_refused_before_anything_is_written(tmp_path):
    """-n 99999999999999999999999999 wrote a manifest, then spun at 100% CPU."""
    out = tmp_path / "run"
    r = CliRunner().invoke(cli, ["simulate", "-n", "99999999999999999999999999", "--out",
                                 str(out), "-q"])
    _one_line_error(r, f"{MAX_DEALS:,} deals at most")
    assert not out.exists()


def test_too_many_chunks_names_the_chunk_size_that_fits():
    with pytest.raises(BinokelError, match="--chunk-size 1,000,000 or more"):
        RunSpec("melds", MAX_DEALS, 1, 1000)
    assert RunSpec("melds", MAX_DEALS, 1, MAX_DEALS // MAX_CHUNKS).n_chunks == MAX_CHUNKS
