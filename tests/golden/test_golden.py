"""Every game's numbers at every entry point equal the golden files (issue 24; see
tests/golden/__init__.py for what is pinned, from which commit, and when a file may be
regenerated).  One test per (game, entry point, case); a failure shows the headline
numbers that moved beside the digest."""
from __future__ import annotations

import pytest

from tests.golden.cases import all_cases, digest, headline
from tests.golden.regen import load

CASES = all_cases()


@pytest.fixture(scope="module")
def golden():
    cache: dict = {}

    def get(game):
        if game not in cache:
            cache[game] = load(game).get("cases", {})
        return cache[game]
    return get


def test_every_case_has_a_golden_entry_and_no_entry_is_orphaned(golden):
    for game in {c.game for c in CASES}:
        keys = {c.key for c in CASES if c.game == game}
        assert set(golden(game)) == keys, game


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.game}-{c.kind}-{c.label}")
def test_numbers_are_unchanged_since_the_pin(case, golden):
    pinned = golden(case.game)[case.key]
    assert list(case.argv) == pinned["argv"], "the case's arguments changed: regenerate?"
    payload = case.compute(jobs=1)
    # headline first: a failure then names the numbers that moved
    assert headline(case.kind, payload) == pinned["headline"]
    assert digest(payload) == pinned["sha256"]
