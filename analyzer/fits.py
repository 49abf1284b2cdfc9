"""Generated fits shipped as data: ``data/fits/NAME.json``, loaded by name.

Fitted numbers (the opponent models of the bid advisors, the weights of the linear
defences) are outputs of commands, not code: each file records the command that
regenerates it (``command``), the function that wrote it (``generated_by``), what it is
(``about``) and the numbers (``data``).  analyzer/data is the package's copy of the
top-level data/ folder (a link in the repository, real files in an installed wheel), so
the same path works in a checkout and after ``pip install .``.

JSON keeps every float exactly (``repr`` round-trips a float64), so a fit read from its
file is bit for bit the number the fit wrote.
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from functools import lru_cache
from pathlib import Path

import numpy as np

from analyzer.errors import BinokelError

FITS_DIR = Path(__file__).parent / "data" / "fits"
#: the keys of a fit file, in the order they are written
FIELDS = ("about", "generated_by", "command", "data")


def fit_path(name: str) -> Path:
    """The shipped file of the fit ``name`` (``data/fits/NAME.json``)."""
    return FITS_DIR / f"{name}.json"


def read_fit_file(path) -> dict:
    """A fit file as a dict with :data:`FIELDS`; one-line error when it is missing or not
    a fit file."""
    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BinokelError(f"{path} not found: reinstall the package (pip install .)") from None
    except (OSError, ValueError) as exc:
        raise BinokelError(f"{path}: not a readable fit file ({exc})") from None
    if not isinstance(doc, dict) or any(k not in doc for k in FIELDS):
        raise BinokelError(f"{path}: not a fit file (needs the keys {', '.join(FIELDS)})")
    return doc


def _compact_rows(text: str) -> str:
    """JSON from ``json.dumps(..., indent=1)`` with every list of plain values (numbers,
    true/false/null) on one line: a weight matrix reads as rows.  Only lists the indenting
    spread over lines are joined (a JSON string never holds a raw newline)."""
    return re.sub(r'\[\n\s*([^\[\]{}"]*?)\n\s*\]',
                  lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]", text)


@lru_cache(maxsize=None)
def _load(name: str) -> dict:
    return read_fit_file(fit_path(name))


def load_fit(name: str):
    """The ``data`` of the shipped fit ``name`` (read once per process)."""
    return _load(name)["data"]


def shipped_weights(name: str, shape: tuple) -> np.ndarray:
    """The shipped fit ``name`` as a float64 array of ``shape`` (a weight matrix of the
    kernels); one-line error when the file holds another shape (a fit of another
    feature set)."""
    w = np.array(load_fit(name), dtype=np.float64)
    if w.shape != tuple(shape):
        raise BinokelError(f"{fit_path(name)}: weights of shape {w.shape}, this version needs "
                           f"{tuple(shape)}: regenerate it ({_load(name)['command']})")
    return w


def write_fit_file(path, data, *, about: str, generated_by: str, command: str) -> Path:
    """Write a fit file atomically (a temporary file in the same folder, then a rename):
    a reader never sees half a file.  Returns the path."""
    path = Path(path)
    doc = {"about": about, "generated_by": generated_by, "command": command, "data": data}
    text = _compact_rows(json.dumps(doc, indent=1)) + "\n"
    fd, tmp = tempfile.mkstemp(dir=str(path.parent), prefix=f".{path.stem}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    if path.resolve().parent == FITS_DIR.resolve():
        _load.cache_clear()     # a fit rewritten in place is read afresh
    return path
