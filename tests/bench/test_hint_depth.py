"""analyzer.bench.hint_depth: the hint's cost by tricks left (issue 27)."""
import pytest

from analyzer.bench.hint_depth import depth_times
from analyzer.errors import BinokelError


def test_depth_times_times_each_position_at_the_tricks_left_asked():
    d = depth_times("kreuz-40", 3, 2)
    assert d["n"] == 2 == len(d["cpu_s"]) and d["tricks_left"] == 3
    assert 0 < d["median"] <= d["max"] and d["mean"] > 0


def test_depth_times_refuses_more_tricks_than_a_hand_holds_V5():
    with pytest.raises(BinokelError, match="--tricks-left 1..9"):
        depth_times("kreuz-40", 10, 1)
