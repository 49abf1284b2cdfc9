"""docs/VARIANTS.md states every game by stable section numbers (V1-V7) and every name
the registry lists as not built yet has its section there, marked so (issue 26)."""
from __future__ import annotations

import re
from pathlib import Path

from analyzer.mechanics.rules import NOT_BUILT

ROOT = Path(__file__).resolve().parent.parent
TEXT = (ROOT / "docs" / "VARIANTS.md").read_text(encoding="utf-8")


def _section(head: str) -> str:
    start = TEXT.index(f"## {head}.")
    nxt = TEXT.find("\n## ", start + 1)
    return TEXT[start:nxt if nxt > 0 else None]


def test_variants_document_has_sections_v1_to_v7_in_order():
    assert re.findall(r"^## (V\d+)\. ", TEXT, flags=re.M) == [f"V{i}" for i in range(1, 8)]


def test_every_not_built_game_has_a_section_marked_not_built_yet():
    for name in NOT_BUILT:
        heads = [h for h in re.findall(r"^## V\d+\. .*$", TEXT, flags=re.M) if f"`{name}`" in h]
        assert len(heads) == 1 and heads[0].endswith("not built yet"), (name, heads)


def test_v7_has_items_1_to_5_and_states_the_claim_reading():
    v7 = _section("V7")
    assert re.findall(r"^(\d)\. ", v7, flags=re.M) == ["1", "2", "3", "4", "5"]
    words = " ".join(v7.split())   # the document wraps its lines
    assert "A claim ends the game" in words and "a claim below 1000 loses it" in words
