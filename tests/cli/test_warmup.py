"""``binokel warmup`` (cli/warmup_cmd.py): every command's kernels compiled in one go, with
a line per stage saying what is happening and how long it took."""
from __future__ import annotations

from click.testing import CliRunner

from cli.main import cli


def test_warmup_compiles_every_stage_and_says_so():
    r = CliRunner().invoke(cli, ["warmup"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("compiling the numba kernels")
    for stage in ("melds", "play", "advise", "analyze (Tapp known)", "analyze (Tapp sampled)",
                  "simulate --what melds", "simulate --what deals", "tournament"):
        assert f"  {stage}" in r.output
    assert "every command starts without compiling now" in r.output
