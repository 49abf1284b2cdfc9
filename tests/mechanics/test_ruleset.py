"""The nested RuleSet (analyzer.mechanics.ruleset): one registry of the seven games in named
parts, one compiled Kernel for every game, and the transitional flat views derived from it
(analyzer.mechanics.rules.flat_view) that must stay the objects of main 02bdea3."""
from __future__ import annotations

import dataclasses
import inspect
import json
from pathlib import Path

import numpy as np
import pytest

from analyzer.errors import BinokelError
from analyzer.mechanics import ruleset as rs
from analyzer.mechanics.rules import (PINOCHLE_80_B, RULE_NAMES, VARIANTS, RuleSet as FlatRuleSet,
                                      TeamRuleSet, flat_view, from_flat, get_rules, team_kernel)
from analyzer.mechanics.ruleset import GAMES, PARTS, Play, Table, get_game

PINNED = Path(__file__).parent / "data" / "flat_rulesets_02bdea3.json"
SEVEN = ("binokel-48", "grupp-3", "grupp-4", "binokel-40", "kreuz-48", "kreuz-40", "pinochle-80")


def test_one_registry_holds_the_eight_games_in_docs_order_and_flat_views_of_seven():
    assert tuple(GAMES) == SEVEN + ("binokel-2",) and RULE_NAMES == SEVEN
    assert all(get_rules(n) is VARIANTS[n] for n in SEVEN)     # the flat index is derived
    assert get_game("Grupp-3") is GAMES["grupp-3"]
    # V7: the stock game has no flat view; the old modules refuse it in one line
    with pytest.raises(BinokelError, match="binokel-2 is a game with a stock \\(V7\\)"):
        get_rules("binokel-2")


def test_binokel2_parts_state_v7_as_data():
    g = GAMES["binokel-2"]
    k = g.kernel
    assert (k.table_seats, k.n_play, k.hand_size, k.dabb_size, k.stock_size) == (2, 2, 12, 0, 24)  # V7.1
    assert (k.follow, k.trump_duty, k.beat_mode) == (0, 0, rs.BEAT_NONE)        # V7.2: no duty
    assert (k.after_follow, k.after_trump, k.after_beat_mode, k.after_overtrump) == (
        1, 1, rs.BEAT_NONE, 0)                                                 # V7.4
    assert (k.turned_dissle, k.quint_value, k.melds_by_trick, k.once_per_kind,
            k.quint_ends_pair) == (10, 250, 1, 1, 1)                           # V7.1, V7.3
    assert (k.target_score, k.claim, k.last_trick_bonus, k.round_to) == (1000, 1, 10, 0)  # V7.4-V7.5
    assert g.auction.form == "none" and g.table.sides == "solo"


def test_the_stock_fields_are_none_in_the_seven_other_games():
    for n in SEVEN:
        k = GAMES[n].kernel
        assert (k.stock_size, k.turned_dissle, k.quint_value, k.melds_by_trick, k.claim) == (
            0, 0, 0, 0, 0)


@pytest.mark.parametrize("name", SEVEN + ("pinochle-80-b",))
def test_flat_views_are_the_rulesets_of_02bdea3_field_for_field(name):
    """Pin before moving code: every flat field the unported modules read is unchanged."""
    pinned = json.loads(PINNED.read_text())[name]
    view = PINOCHLE_80_B if name == "pinochle-80-b" else VARIANTS[name]
    assert type(view).__name__ == pinned["class"]
    assert json.loads(json.dumps(view.to_dict())) == pinned["fields"]


@pytest.mark.parametrize("name", SEVEN)
def test_from_flat_inverts_flat_view(name):
    assert from_flat(flat_view(GAMES[name])) == GAMES[name]


def test_a_replaced_flat_ruleset_maps_to_its_parts():
    """A flat RuleSet built with dataclasses.replace (as callers and tests do) keeps its
    meaning in the parts: V5.6's beat duty on a 48-card game."""
    r = dataclasses.replace(VARIANTS["binokel-48"], beat_led_when_trumped=True)
    g = from_flat(r)
    assert g.play.beat == "led-high" and g.kernel.beat_mode == rs.BEAT_LED_HIGH
    assert g.deck == GAMES["binokel-48"].deck


def test_every_field_of_every_part_has_its_one_line_comment():
    for part in (rs.Deck, rs.Table, rs.Auction, rs.Dabb, rs.Stock, rs.Melds, rs.Play,
                 rs.CardPoints, rs.Scoring, rs.GameEnd):
        src = inspect.getsource(part).splitlines()
        for f in dataclasses.fields(part):
            line = next(s for s in src if s.strip().startswith(f"{f.name}:"))
            assert "#" in line, f"{part.__name__}.{f.name} has no comment"
    assert tuple(GAMES["binokel-48"].parts()) == PARTS


# the compiled Kernel against the kernels of today: flat name -> Kernel name
_KR_NAMES = {
    "card_points": "card_points", "rank_strength": "rank_strength", "suit_f_table": "suit_f_table",
    "fours_mask": "fours_mask", "fours_value": "fours_value", "eights_value": "eights_value",
    "binokel_mask": "binokel_mask", "binokel_single": "binokel_single",
    "binokel_double": "binokel_double", "nine_rank": "low_rank",
    "trump_nine_value": "dissle_value", "last_trick_bonus": "last_trick_bonus",
    "hand_size": "hand_size", "tapp_size": "dabb_size", "bid_start": "bid_start",
    "bid_step": "bid_step", "surrender_bonus": "going_out_bonus", "durch_value": "durch_value",
    "target_score": "target_score", "loss_factor": "loss_factor", "copies": "copies",
    "n_cards": "n_cards", "grand_binokel_mask": "grand_binokel_mask",
    "grand_binokel_value": "grand_binokel_value", "dissle_in_discard": "dissle_in_discard",
    "forced_opening": "forced_opening", "round_to": "round_to",
    "open_durch_value": "open_durch_value", "durch_loss_factor": "durch_loss_factor",
    "sitting_out_points": "sitting_out_points", "table_seats": "table_seats",
    "est_weights": "est_weights", "est_sigma": "est_sigma",
}
_TK_NAMES = {
    "card_points": "card_points", "rank_strength": "rank_strength", "copies": "copies",
    "partner_relief": "partner_relief", "family": "family", "pair": "pair",
    "fours_value": "fours_value", "eights_value": "eights_value", "binokel_q": "binokel_q",
    "binokel_j": "binokel_j", "binokel_single": "binokel_single",
    "binokel_double": "binokel_double",
    "meld_needs_counter": "meld_needs_counter", "last_trick_bonus": "last_trick_bonus",
    "hand_size": "hand_size", "min_bid": "bid_start", "bid_step": "bid_step",
    "target_score": "target_score", "dabb_size": "dabb_size",
    "forced_opening": "forced_opening", "going_out_bonus": "going_out_bonus",
    "round_to": "round_to", "loss_factor": "loss_factor", "low_rank": "low_rank",
    "bidder_leads": "bidder_leads",
}


@pytest.mark.parametrize("name", ("binokel-48", "grupp-3", "grupp-4", "binokel-40"))
def test_kernel_holds_every_value_of_the_three_player_kernelrules(name):
    old, new = VARIANTS[name].kernel, GAMES[name].kernel
    assert set(_KR_NAMES) | {"beat_led_trumped"} == set(old._fields)
    for a, b in _KR_NAMES.items():
        assert np.array_equal(np.asarray(getattr(old, a)), np.asarray(getattr(new, b))), a
    assert new.beat_mode == (rs.BEAT_LED_HIGH if old.beat_led_trumped else rs.BEAT_WINNER)


@pytest.mark.parametrize("name", ("kreuz-48", "kreuz-40", "pinochle-80"))
def test_kernel_holds_every_value_of_the_teamkernel(name):
    old, new = team_kernel(VARIANTS[name]), GAMES[name].kernel
    assert set(_TK_NAMES) | {"duty", "dissle_value"} == set(old._fields)
    for a, b in _TK_NAMES.items():
        assert np.array_equal(np.asarray(getattr(old, a)), np.asarray(getattr(new, b))), a
    # the team kernel counts the Dissle only from the discard's game (V2.3)
    assert old.dissle_value == (new.dissle_value if new.dissle_in_discard else 0)
    # duty 0 = R6, 1 = V5.6, 2 = V6.4 (trick.DUTY_*) as the play part's beat mode
    assert old.duty == {rs.BEAT_WINNER: 0, rs.BEAT_LED_HIGH: 1, rs.BEAT_TRUMP_LEAD: 2}[new.beat_mode]
    assert new.overtrump == (0 if old.duty == 2 else 1)         # V6.4: no overtrump duty


def test_seat_relations_are_arrays_per_table():
    """R2 seat order, V3 (the dealer, the last seat, sits out), V1 (partners opposite)."""
    k48, g4, kz = (GAMES[n].kernel for n in ("binokel-48", "grupp-4", "kreuz-48"))
    assert list(k48.next_seat) == [1, 2, 0] and list(k48.partner) == [-1, -1, -1]
    assert list(g4.next_seat) == [1, 2, 0, -1] and list(g4.sits_out) == [0, 0, 0, 1]
    assert (g4.table_seats, g4.n_play) == (4, 3)
    assert list(kz.next_seat) == [1, 2, 3, 0] and list(kz.partner) == [2, 3, 0, 1]
    assert kz.side_rule == rs.SIDES_PARTNERS and k48.side_rule == rs.SIDES_SOLO
    assert [GAMES[n].kernel.k for n in SEVEN] == [2, 2, 2, 2, 2, 2, 4]


def test_parts_that_do_not_make_the_deck_are_refused_in_one_line():
    g = GAMES["binokel-48"]
    with pytest.raises(BinokelError, match="3 hands of 14 \\+ a Dabb of 3 do not make the 48"):
        g.with_parts(table=Table(hand_size=14))
    with pytest.raises(BinokelError, match="play.beat must be one of"):
        g.with_parts(play=Play(beat="highest"))
    with pytest.raises(BinokelError, match="partners .* need four seats"):
        g.with_parts(table=Table(sides="partners"))


def test_flat_classes_stay_the_transitional_ones():
    assert isinstance(VARIANTS["kreuz-40"], TeamRuleSet)
    assert type(VARIANTS["grupp-4"]) is FlatRuleSet
    assert FlatRuleSet() == VARIANTS["binokel-48"]          # the flat defaults are binokel-48


def test_get_rules_gives_the_flat_view_of_a_nested_ruleset():
    assert get_rules(GAMES["grupp-3"]) is VARIANTS["grupp-3"]
    g = GAMES["binokel-48"].with_parts(play=Play(beat="led-high"))      # V5.6 on 48 cards
    assert get_rules(g).beat_led_when_trumped and get_rules(g).name == "binokel-48"
    with pytest.raises(BinokelError, match="unknown rules 'skat'.*binokel-48"):
        get_rules("skat")
