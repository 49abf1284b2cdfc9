"""Generated fits are data files (analyzer.fits): every shipped data/fits/*.json names the
command that regenerates it, round-trips its floats bit for bit, and a missing or damaged
file is one clear line, never a traceback."""
from __future__ import annotations

import json

import numpy as np
import pytest

from analyzer.errors import BinokelError
from analyzer.fits import FIELDS, FITS_DIR, fit_path, load_fit, read_fit_file, shipped_weights, write_fit_file


def test_every_shipped_fit_names_its_command_and_generator():
    names = sorted(p.stem for p in FITS_DIR.glob("*.json"))
    assert {"advisor", "defence_lin", "defence_lin2"} <= set(names)
    for name in names:
        doc = read_fit_file(fit_path(name))
        assert list(doc) == list(FIELDS)
        assert doc["command"].startswith("binokel ") and doc["generated_by"].startswith("analyzer.")
        assert load_fit(name) == doc["data"]


def test_written_floats_read_back_bit_for_bit(tmp_path):
    rng = np.random.default_rng(0)
    w = rng.normal(0, 1e3, (4, 7))
    path = write_fit_file(tmp_path / "w.json", w.tolist(), about="a", generated_by="analyzer.x",
                          command="binokel x")
    back = np.array(read_fit_file(path)["data"], dtype=np.float64)
    assert (back.view(np.int64) == w.view(np.int64)).all()
    assert not list(tmp_path.glob(".w.*.tmp"))     # written through a renamed temporary file


def test_missing_or_foreign_fit_file_is_one_line(tmp_path):
    with pytest.raises(BinokelError, match="not found") as e:
        read_fit_file(tmp_path / "nope.json")
    assert "\n" not in str(e.value)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"data": [1, 2]}))
    with pytest.raises(BinokelError, match="not a fit file"):
        read_fit_file(bad)
    bad.write_text("{ not json")
    with pytest.raises(BinokelError, match="not a readable fit file"):
        read_fit_file(bad)


def test_weights_of_another_shape_are_refused_with_the_regenerating_command():
    with pytest.raises(BinokelError, match="binokel fit-defence"):
        shipped_weights("defence_lin", (5, 19))
    assert shipped_weights("defence_lin", (5, 18)).dtype == np.float64
