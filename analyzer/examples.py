"""Built-in example hands shipped in ``data/examples.json`` (used by README and tests)."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from analyzer.errors import BinokelError

# analyzer/data is the package's copy of the top-level data/ folder (a link in the
# repository, real files in an installed wheel): one path for both
DATA_DIR = Path(__file__).parent / "data"
_CANDIDATES = (DATA_DIR / "examples.json",)


@lru_cache(maxsize=1)
def examples() -> dict:
    """All examples: name -> {"hand", "tapp", "seat", "note"}."""
    for path in _CANDIDATES:
        if path.exists():
            data = json.loads(path.read_text(encoding="utf-8"))
            return {k: v for k, v in data.items() if not k.startswith("_")}
    raise BinokelError(f"{_CANDIDATES[0]} not found: reinstall the package (pip install .)")


def example(name: str) -> dict:
    """One example by name; a one-line error lists the valid names."""
    ex = examples()
    if name not in ex:
        raise BinokelError(f"unknown example {name!r}: choose one of {', '.join(sorted(ex))}")
    return ex[name]
