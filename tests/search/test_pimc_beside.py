"""The PIMC search compiled beside a cold command (analyzer.search.pimc.compile_search_beside,
issue 28): the helper compiles :func:`pimc_choose` for :func:`pimc_choose_types`, which
must be exactly the argument types a PIMC command asks for (else the helper's work is
lost and the command compiles the search itself), and the same advice with the helper on
or off.  Uses the project's numba cache (warm in a test run: milliseconds)."""
from __future__ import annotations

from analyzer import _compile_beside
from analyzer.analyses.advice import advise_bid
from analyzer.mechanics.rules import DEFAULT_RULES
from analyzer.search import pimc

HAND = "AS AS 10S 10S KS QS JS AH 10H KC QC JD 9D 9C 9H"


def test_the_helper_compiles_pimc_choose_for_the_types_a_pimc_command_asks_for(monkeypatch):
    monkeypatch.setenv("BINOKEL_COMPILE_BESIDE", "0")   # this process compiles (or loads) it
    advise_bid(HAND, "middlehand", "150", samples=4, seed=3, play="pimc")
    want = pimc.pimc_choose_types(DEFAULT_RULES.kernel)
    assert want in [tuple(s) for s in pimc.pimc_choose.signatures]
    # cached now: asking for the helper starts nothing (a warm command starts no process)
    monkeypatch.setenv("BINOKEL_COMPILE_BESIDE", "1")
    assert _compile_beside.is_cached(pimc.pimc_choose, want)
    assert _compile_beside.start([(pimc.pimc_choose, want)]) is None


def test_pimc_advice_is_the_same_with_the_helper_switched_on_or_off(monkeypatch):
    got = []
    for flag in ("0", "1"):
        monkeypatch.setenv("BINOKEL_COMPILE_BESIDE", flag)
        pimc._BESIDE_ASKED.clear()
        adv = advise_bid(HAND, "middlehand", "150", samples=4, seed=5, play="pimc-defence")
        got.append((adv.max_bid, [tuple(sorted(vars(r).items())) if hasattr(r, "__dict__")
                                  else repr(r) for r in adv.table]))
    assert got[0] == got[1]


def test_duplicate_asks_for_the_same_pimc_choose_types(monkeypatch):
    # duplicate (analyses.strength) calls play_deal_policies itself: the helper it starts
    # must compile the pimc_choose its matches ask for
    from analyzer.analyses.strength import duplicate_match

    monkeypatch.setenv("BINOKEL_COMPILE_BESIDE", "0")
    duplicate_match(1, seed=2, samples=2)
    assert pimc.pimc_choose_types(DEFAULT_RULES.kernel) in [
        tuple(s) for s in pimc.pimc_choose.signatures]
