"""Built-in example hands shipped in ``data/examples.json`` (used by README and tests)."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from analyzer.errors import BinokelError

_CANDIDATES = (
    Path(__file__).resolve().parent.parent / "data" / "examples.json",
    Path(__file__).resolve().parent / "data" / "examples.json",
)


@lru_cache(maxsize=1)
def examples() -> dict:
    """All examples: name -> {"hand", "tapp", "seat", "note"}."""
    for path in _CANDIDATES:
        if path.exists():
            data = json.loads(path.read_text(encoding="utf-8"))
            return {k: v for k, v in data.items() if not k.startswith("_")}
    raise BinokelError("data/examples.json not found: reinstall the package from its source tree")


def example(name: str) -> dict:
    """One example by name; a one-line error lists the valid names."""
    ex = examples()
    if name not in ex:
        raise BinokelError(f"unknown example {name!r}: choose one of {', '.join(sorted(ex))}")
    return ex[name]
