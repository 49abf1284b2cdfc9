"""The replay library (issue 27, the page's /replay): the steps of a record reproduce its
trick log (R6) and points (R7); the values at a step are hint's and, with every hand
known, the solver's (double dummy); a line after another card is played on the true
cards to the end and scored (R8, V1); a game with a stock is loaded but stepped by
analyses.stock_replay (V7.2; tests/analyses/test_stock_replay.py)."""
from __future__ import annotations

import pytest

from analyzer.analyses.hint import hint, view_from_record
from analyzer.analyses.replay import line_at, load, outcome, steps, values_at
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import card_code
from analyzer.mechanics.record import RecordError, format_records, in_play_seats
from analyzer.search.record_play import play_record
from analyzer.mechanics.ruleset import GAMES
from analyzer.search.solve_any import card_values

RECORDED = [g for g in GAMES.values() if not (g.stock is not None and g.stock.size)]


def _deal(game, seed=7):
    soloist = in_play_seats(game)[0]
    return play_record(game, seed=seed, soloist=soloist, trump=1)


@pytest.mark.parametrize("game", RECORDED, ids=lambda g: g.name)
def test_steps_reproduce_the_records_trick_log_and_points(game):
    """R6: each trick led by the last winner, the record's cards in order; R7: the
    points so far add up to the record's Points less the discard (R4)."""
    deal = _deal(game)
    st = steps(deal)
    cards = [c for _, cs in deal.tricks for c in cs]
    assert len(st) == len(cards) + 1
    assert [s.next_card for s in st[:-1]] == cards
    assert st[-1].to_play is None and st[-1].legal == ()
    # the trick on the table: the record's trick up to the step, seats in play order
    n_play = len(in_play_seats(game))
    for s in st[:-1]:
        leader, tcards = deal.tricks[s.trick_no - 1]
        assert [c for _, c in s.trick] == list(tcards[:s.card_no - 1])
        nxt = game.kernel.next_seat          # the next seat in play (V3: the dealer sits out)
        assert s.to_play == (int(nxt[s.trick[-1][0]]) if s.trick else leader)
        assert s.next_card in s.legal                       # the record's card is legal (R6)
        assert sum(s.hands[s.to_play]) == game.table.hand_size - s.trick_no + 1
    winners = deal.winners()
    for t in range(1, len(deal.tricks)):
        s = st[t * n_play]
        assert s.last[2] == winners[t - 1] and s.trick == ()
    out = outcome(deal)
    assert out["points"] == deal.points and out["won"] == deal.won and out["score"] == deal.score


@pytest.mark.parametrize("game", RECORDED, ids=lambda g: g.name)
def test_values_at_a_step_are_hints_values_for_that_players_view(game):
    deal = _deal(game)
    idx = len(steps(deal)) - 2 * len(in_play_seats(game)) - 1
    got = values_at(deal, idx, worlds=6, seed=3)
    t, c = idx // len(in_play_seats(game)) + 1, idx % len(in_play_seats(game)) + 1
    want = hint(game, view_from_record(deal, t, c), 6, seed=3)
    assert got.to_dict() == want.to_dict()
    assert all(x.n == 6 for x in got.cards)


def test_with_every_hand_known_the_values_are_the_solvers_double_dummy_values():
    deal = _deal(GAMES["binokel-48"])
    st = steps(deal)
    s = next(s for s in st[-13:] if s.to_play == deal.soloist and len(s.legal) > 1)
    h = values_at(deal, s.index, worlds=4)
    trick = tuple(c for _, c in s.trick)
    leader = s.trick[0][0] if s.trick else s.to_play
    dd = card_values(deal.rules, s.hands, "CSHD"[deal.trump], deal.soloist, leader, trick)
    assert {x.card: x.dd for x in h.cards} == dd


def test_a_line_after_the_card_played_is_the_same_either_way_and_another_card_changes_it():
    """Both lines are played out by the same method from the true cards: the record's
    card gives a zero difference; another card a line that starts with it, and the
    difference is the two lines' outcomes (R7, R8)."""
    deal = _deal(GAMES["binokel-48"])
    st = steps(deal)
    s = next(s for s in st[-12:] if len(s.legal) > 1)
    same = line_at(deal, s.index, s.next_card)
    assert same["method"] == "dd" and same["diff"]["points"] == (0, 0, 0)
    other = next(c for c in s.legal if c != s.next_card)
    line = line_at(deal, s.index, other)
    assert line["alt"]["cards"][0] == (s.trick_no, s.to_play, other)
    assert line["played"]["cards"][0][2] == s.next_card
    n_left = len(deal.tricks) * 3 - s.index
    assert len(line["alt"]["cards"]) == n_left == len(line["played"]["cards"])
    a, p = line["alt"]["outcome"], line["played"]["outcome"]
    assert sum(a["points"]) == sum(p["points"])             # every card point taken once
    assert line["diff"]["points"] == tuple(x - y for x, y in zip(a["points"], p["points"]))
    assert line["diff"]["score"] == tuple(x - y for x, y in zip(a["score"], p["score"]))


def test_a_pimc_line_at_a_partners_table_plays_the_deal_out():
    deal = _deal(GAMES["kreuz-48"])
    st = steps(deal)
    s = next(s for s in st[4:] if len(s.legal) > 1)
    line = line_at(deal, s.index, s.legal[0], worlds=4, dd_max_tricks=0)
    assert line["method"] == "pimc"
    assert len(line["alt"]["outcome"]["points"]) == 2        # two teams (V1)
    assert line["alt"]["outcome"]["score"] is not None


def test_bad_steps_and_cards_are_one_line_errors():
    deal = _deal(GAMES["binokel-48"])
    n = len(steps(deal))
    with pytest.raises(BinokelError, match=r"step 99: the record has steps 0-45"):
        values_at(deal, 99)
    with pytest.raises(BinokelError, match="the deal is over"):
        values_at(deal, n - 1)
    s = steps(deal)[3]
    bad = next(c for c in range(24) if c not in s.legal)
    with pytest.raises(BinokelError, match=rf"may not play {card_code(bad, '9')}.*\(R6\)"):
        line_at(deal, 3, bad)


def test_load_reads_a_stock_record_that_only_stock_replay_steps_and_passes_line_errors():
    from analyzer.analyses.stock_replay import sample

    stock = next(g for g in GAMES.values() if g.stock is not None and g.stock.size)
    rec, n = load(format_records([sample(stock, 1)]))
    assert n == 1 and rec.rules is stock
    with pytest.raises(BinokelError, match=r"has a stock.*stock_replay \(V7\.2\)"):
        steps(rec)
    with pytest.raises(RecordError, match=r"no Turned line.*\(V7\.1\)"):
        load(f"Game {stock.name}\nHand 0 ?\nHand 1 ?\n")
    text = format_records([_deal(GAMES["grupp-3"])])
    deal, n = load(text)
    assert n == 1 and deal.rules.name == "grupp-3"
    with pytest.raises(RecordError, match=r"^line 2: unknown tag 'Bogus'"):
        load("Game binokel-48\nBogus 1\n")
    with pytest.raises(BinokelError, match="record too large"):
        load(text, max_chars=100)
    with pytest.raises(BinokelError, match=r"deal 2: the record holds 1 deal"):
        load(text, 2)


def test_a_line_needs_every_hand():
    from analyzer.mechanics.record import hide

    deal = hide(_deal(GAMES["binokel-48"]), 0)
    s = steps(deal)[0]
    assert s.hands[1] is None and s.legal
    with pytest.raises(BinokelError, match="hides the hand of seat 1"):
        line_at(deal, 0, s.legal[0])
