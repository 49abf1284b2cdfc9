"""Duplicate matches at a partners' table (analyzer.analyses.duplicate_sides; V1 sides,
V4-V6): PIMC goes to the configured side, the soloist's partner counts with the
soloist, the same deals are paired and the same seed gives the same figures."""
from __future__ import annotations

import pytest

from analyzer.analyses.duplicate_sides import duplicate_sides, side_policies
from analyzer.errors import BinokelError
from analyzer.mechanics.rules import get_rules
from analyzer.mechanics.play import POLICY_HEURISTIC
from analyzer.search.pimc import POLICY_PIMC


def test_pimc_goes_to_the_configured_side_and_the_partner_is_on_the_soloists():
    def pimc_seats(config, soloist):
        return [p for p, x in enumerate(side_policies(config, soloist, 5)) if int(x) & 255 == POLICY_PIMC]
    assert pimc_seats("soloist", 1) == [1, 3]        # V1: partners sit opposite
    assert pimc_seats("defenders", 1) == [0, 2]
    assert pimc_seats("all", 2) == [0, 1, 2, 3]
    assert all(int(x) == POLICY_HEURISTIC for p, x in enumerate(side_policies("soloist", 0, 5)) if p % 2)


def test_duplicate_of_a_team_game_pairs_the_deals_and_repeats_with_the_seed():
    rules = get_rules("kreuz-40")
    a = duplicate_sides(3, seed=4, configs=("defenders",), samples=2, rules=rules)
    b = duplicate_sides(3, seed=4, configs=("defenders",), samples=2, rules=rules)
    assert a["n"] == 3 and a["configs"]["defenders"]["card_points"]["n"] == 3
    assert a["configs"]["defenders"]["card_points"] == b["configs"]["defenders"]["card_points"]
    assert a["base_card_points"] == b["base_card_points"] and a["rules"] == "kreuz-40"


def test_bad_duplicate_requests_are_one_line_errors():
    with pytest.raises(BinokelError, match="configuration"):
        duplicate_sides(2, configs=("partner",), rules=get_rules("pinochle-80"))
    with pytest.raises(BinokelError, match="deals must be"):
        duplicate_sides(0, rules=get_rules("pinochle-80"))
