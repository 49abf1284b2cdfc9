"""``binokel rules`` and the shared ``--rules NAME`` option (issue 10; V1-V5)."""
from __future__ import annotations

import json

from tests.cli.test_cli import assert_one_line_error, run

GRUPP_HAND = "KS QS JD 7S 7S AH AH 10H 10H KH KH QH QH JH JH"


def test_rules_lists_every_registered_variant():
    res = run("rules", "--json")
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output)
    assert [r["name"] for r in rows] == ["binokel-48", "grupp-3", "grupp-4", "binokel-40",
                                         "kreuz-48", "kreuz-40", "pinochle-80", "binokel-2"]
    assert (rows[7]["hand_dabb"], rows[7]["players"]) == ("12 + stock", "2")     # V7.1
    teams = {r["name"]: (r["deck"], r["hand_dabb"], r["players"]) for r in rows[4:7]}
    assert teams == {"kreuz-48": ("48, with sevens", "11 + 4", "4"),
                     "kreuz-40": ("40", "9 + 4", "4"), "pinochle-80": ("80", "20 + 0", "4")}
    b40 = rows[3]
    assert (b40["deck"], b40["hand_dabb"], b40["players"]) == ("40", "12 + 4", "3")
    assert rows[2]["players"].startswith("4 at the table")


def test_rules_name_prints_the_constants():
    res = run("rules", "grupp-3", "--json")
    data = json.loads(res.output)
    c = data["constants"]
    assert (c["surrender_bonus"], c["round_to"], c["open_durch_value"], c["low_card"]) == (
        30, 10, 1500, "7")
    assert data["parts"]["scoring"]["going_out_bonus"] == 30          # V2.4, the nested part
    text = run("rules", "binokel-40").output                            # printed part by part
    assert "  play\n" in text and "'led-high'" in text and "target               1000" in text


def test_unknown_rules_name_is_one_line_listing_the_names():
    assert_one_line_error(run("rules", "skat"), "skat", "binokel-48", "grupp-3", "binokel-40")
    assert_one_line_error(run("melds", "--rules", "skat", GRUPP_HAND), "--rules", "grupp-4")


def test_melds_follow_the_variant_deck_and_values():
    res = run("melds", "--rules", "grupp-3", "--trump", "S", "--json", GRUPP_HAND)
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["rules"] == "grupp-3"
    assert data["best_total"] == 1500 + 40 + 80 + 20   # V2.5 double family, grand binokel, 2 Dissle
    # a 7 is no card in binokel-48, a 9 none in grupp-3, and 12 cards in binokel-40
    assert_one_line_error(run("melds", GRUPP_HAND), "7S", "binokel-48")
    assert_one_line_error(run("melds", "--rules", "grupp-3", GRUPP_HAND.replace("7S", "9S")),
                          "9S", "grupp-3")
    assert_one_line_error(run("melds", "--rules", "binokel-40", "AS KS QS"), "12 cards",
                          "binokel-40")
