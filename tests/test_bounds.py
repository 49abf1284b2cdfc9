"""analyzer/bounds.py: one table of input bounds, said in words, for the library, the CLI
and the web API (issue 25: the CLI took --seed 99999999999999999999999, the API capped at
2^63-1)."""
from __future__ import annotations

import pytest

from analyzer import BinokelError
from analyzer import bounds as B


def test_a_bound_says_what_is_wrong_in_words():
    assert B.SEED.problem(0) is None and B.SEED.problem(2**63 - 1) is None
    assert B.SEED.problem(-1) == "must be at least 0, got -1"
    assert B.SAMPLES_ADVISE.problem(50_001) == ("must be at most 50,000 (bid advice keeps every "
                                                "sample's scores at every bid), got 50,001")
    with pytest.raises(BinokelError, match="^--seed must be at most 9,223,372,036,854,775,807"):
        B.SEED.check(2**63, "--seed")


def test_an_absurdly_long_number_is_described_not_printed():
    # Python refuses str() of an int of more than 4,300 digits: the message must not fail
    msg = B.SEED.problem(10 ** 5000)
    assert msg.endswith("got a number of about 5,001 digits")


def test_a_capped_bound_keeps_its_floor_and_says_the_new_reason():
    cap = B.SAMPLES_ADVISE.capped(20_000, "this server's cap")
    assert (cap.lo, cap.hi) == (1, 20_000) and 20_000 in cap and 20_001 not in cap
    assert cap.problem(20_001) == "must be at most 20,000 (this server's cap), got 20,001"


def test_the_library_reads_its_limits_from_the_table():
    from analyzer.analyses import advice, analysis, tournament
    from analyzer.batch import runs

    assert advice.MAX_SAMPLES == B.SAMPLES_ADVISE.hi and advice.PIMC_MAX_SAMPLES == B.SAMPLES_ADVISE_PIMC.hi
    assert advice.MAX_GAME_SCORE == B.GAME_SCORE.hi and advice.MAX_AUCTION_BID == B.AUCTION_BID.hi
    assert analysis.MAX_SAMPLES == B.SAMPLES_ANALYZE.hi and analysis.MAX_BID == B.ANALYZE_BID.hi
    assert tournament.MAX_GROUPS == B.GROUPS.hi and runs.MAX_DEALS == B.RUN_DEALS.hi


def test_analyze_hand_refuses_absurd_samples_before_allocating():
    """analyze -n 999999999999 died in a numpy MemoryError traceback (7 TiB array)."""
    from analyzer.analyses.analysis import analyze_hand

    with pytest.raises(BinokelError, match="samples must be at most 1,000,000"):
        analyze_hand("AS AS 10S KS QS JS 9S KH QH AC AD 10D KD QD JD", None, "forehand",
                     10 ** 12, 0, 1)
    with pytest.raises(BinokelError, match="seed must be at most"):
        analyze_hand("AS AS 10S KS QS JS 9S KH QH AC AD 10D KD QD JD", None, "forehand", 8, 2**64, 1)
