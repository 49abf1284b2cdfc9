"""A non-editable install works (issue 9, item 14): ``pip install .`` into a fresh virtual
environment ships the example hands, the sample runs, the generated fits (data/fits) and
the rules document as package data, and ``binokel advise --example`` and ``binokel
report`` run from it, with ``analyzer`` imported from the environment, never from this
checkout."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_SKIP = shutil.ignore_patterns(".git", "__pycache__", "build", "dist", "*.egg-info",
                               ".hypothesis", ".pytest_cache", "runs", ".venv", ".lock",
                               "site")  # site: the built documentation (mkdocs)


def _run(cmd, cwd, env, timeout=900):
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, f"{cmd}: {r.stdout[-2000:]} {r.stderr[-2000:]}"
    return r.stdout


def test_non_editable_install_runs_advise_example_and_report(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, symlinks=True, ignore=_SKIP)
    for generated in src.joinpath("reports").iterdir():
        if generated.is_dir() and generated.name not in ("templates",):
            shutil.rmtree(generated)
    venv = tmp_path / "venv"
    # system site-packages: numpy, numba ... are reused, so nothing large is downloaded
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                   check=True, timeout=300)
    py = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR")}
    _run([str(py), "-m", "pip", "install", "-q", str(src)], tmp_path, env)
    work = tmp_path / "elsewhere"  # not the checkout: nothing importable by accident
    work.mkdir()
    where = _run([str(py), "-c", "import analyzer, cli, reports; "
                  "print(analyzer.__file__); print(cli.__file__); print(reports.__file__)"],
                 work, env).split()
    site = _run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                work, env).strip()
    for f in where:
        assert Path(f).resolve().is_relative_to(Path(site).resolve()), (f, site)
        assert not Path(f).resolve().is_relative_to(ROOT)
    pkg = Path(where[0]).parent
    assert (pkg / "data" / "examples.json").is_file()
    assert (pkg / "data" / "sample_run" / "manifest.json").is_file()
    assert (pkg / "docs" / "RULES.md").is_file()
    # the generated fits are data files read by name (analyzer.fits)
    for fit in ("advisor", "defence_lin", "defence_lin2"):
        assert (pkg / "data" / "fits" / f"{fit}.json").is_file(), fit
    _run([str(py), "-c", "from analyzer.fits import load_fit; "
          "from analyzer.mechanics.play import DEFENCE_LIN2; "
          "assert load_fit('advisor')['binokel-48']['coef'] and DEFENCE_LIN2.shape == (6, 33)"],
         work, env)
    binokel = str(venv / "bin" / "binokel")
    out = _run([binokel, "advise", "--example", "strong_spades", "-n", "100"], work, env)
    assert "bid up to" in out
    out = _run([binokel, "report", "--sample", "--out", str(work / "rep")], work, env)
    assert (work / "rep" / "report.html").is_file() and "report:" in out
