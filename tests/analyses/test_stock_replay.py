"""analyses.stock_replay (issue 27, the replay view of a game with a stock, V7): a step
before every decision of the record (cards, the winner's meld or none, a claim), what each
step shows (the turned trump while it lies under the stock, V7.1; the draws, V7.2; the
melds and the kinds a card was shown in, V7.3; deal points, V7.4), values equal to
stock_hint's, lines played on the true cards, and the refusals (one line, a rule)."""
from __future__ import annotations

import pytest

from analyzer.analyses.stock_hint import decisions, stock_hint
from analyzer.analyses.stock_replay import has_stock, line_at, sample, steps, values_at
from analyzer.errors import BinokelError
from analyzer.mechanics.record import format_records, parse_records
from analyzer.mechanics.ruleset import GAMES
from analyzer.mechanics.stock_record import hide
from analyzer.search.stock_registry import record_deal

GAME = next(g for g in GAMES.values() if has_stock(g))
REC = sample(GAME, 7)
STEPS = steps(REC)


def test_only_the_game_with_a_stock_is_stepped_here():
    assert [g.name for g in GAMES.values() if has_stock(g)] == [GAME.name]


def test_one_step_per_decision_and_one_after_the_last_V7_2():
    ds = decisions(REC)
    assert len(STEPS) == len(ds) + 1
    assert [s.next for s in STEPS[:-1]] == [d[5] for d in ds]
    assert [s.to_play for s in STEPS[:-1]] == [d[3] for d in ds]
    assert STEPS[-1].phase == "over" and STEPS[-1].to_play is None
    assert STEPS[-1].points == tuple(REC.points)          # V7.4
    assert sum(STEPS[-1].won) == 2 * GAME.table.hand_size


def test_the_turned_trump_lies_under_the_stock_until_drawn_V7_1_V7_2():
    first = STEPS[0]
    assert first.stock_left == GAME.stock.size and first.turned is not None
    assert first.hands[0] is not None and len(first.hands[0]) == GAME.table.hand_size
    gone = next(s for s in STEPS if s.stock_left == 0)
    assert gone.turned is None
    # after every meld decision while the stock lasts both draw, the winner first (V7.2)
    for s, nxt in zip(STEPS, STEPS[1:]):
        if s.phase == "meld":
            assert [q for q, _ in nxt.draws] == [s.to_play, 1 - s.to_play]
            assert nxt.stock_left == s.stock_left - 2


def test_meld_steps_offer_the_winners_melds_and_pass_V7_3():
    melds = [s for s in STEPS if s.phase == "meld"]
    assert melds and all("pass" in s.legal for s in melds)
    assert all(s.to_play == s.last[2] for s in melds)     # the trick's winner
    shown = [s for s in STEPS if s.melds]
    assert shown and shown[-1].melds[-1][2] > 0
    # a card shown in a meld carries its kinds in the hand while the stock lasts
    s = next(s for s in STEPS if s.melds and s.stock_left)
    assert any("/" in c for h in s.hands for c in h)


def test_values_are_stock_hints_values():
    s = next(s for s in STEPS if s.stock_left == 0 and len(s.legal) > 1)
    h = values_at(REC, s.index)
    want = stock_hint(REC, s.trick_no, s.card_no, False)
    assert h.exact and h.to_dict() == want.to_dict()
    assert h.played == s.next


def test_a_line_with_the_records_own_action_changes_nothing_exact_V7_4():
    s = next(s for s in STEPS if s.stock_left == 0 and s.phase == "play" and len(s.legal) > 1)
    same = line_at(REC, s.index, s.next)
    assert same["method"] == "exact" and same["diff"]["points"] == (0, 0)
    other = next(c for c in s.legal if c != s.next)
    alt = line_at(REC, s.index, other)
    assert alt["alt"]["events"][0][3] == other and alt["played"]["events"][0][3] == s.next
    assert alt["diff"]["points"] == tuple(
        a - p for a, p in zip(alt["alt"]["outcome"]["points"], alt["played"]["outcome"]["points"]))
    # each line runs to the end of the deal: 24 tricks (V7.2, V7.4)
    assert alt["alt"]["first_trick"] + len(alt["alt"]["winners"]) - 1 == 2 * GAME.table.hand_size


def test_a_line_in_the_stock_phase_is_pimc_from_each_players_view():
    s = next(s for s in STEPS if s.phase == "meld" and s.stock_left == 2)   # the last meld
    line = line_at(REC, s.index, "pass", worlds=2, seed=1)
    assert line["method"] == "pimc" and line["worlds"] == 2
    assert line["alt"]["events"][0][2] == "pass"
    assert line == line_at(REC, s.index, "pass", worlds=2, seed=1)    # same seed, same line


def test_a_claim_is_the_last_decision_V7_5():
    rec = record_deal(GAME, 3, before=(990, 0))
    st = steps(rec)
    assert rec.claim is not None and st[-2].next == "claim" and "claim" in st[-2].legal
    assert st[-1].phase == "over"


def test_a_hidden_hand_is_not_shown_and_plays_no_line():
    rec = hide(REC, 0)
    st = steps(rec)
    assert all(s.hands[1] is None and s.hands[0] is not None for s in st)
    assert all(c is None for s in st for q, c in s.draws if q == 1 and s.stock_left)
    assert next(s for s in st if s.to_play == 1).legal == ()
    with pytest.raises(BinokelError, match="hides the hand of seat 1"):
        line_at(rec, 0, st[0].next)
    # a record's round trip keeps the steps
    assert steps(parse_records(format_records([REC]))[0]) == STEPS


@pytest.mark.parametrize("call,message", [
    (lambda: values_at(REC, len(STEPS) - 1), r"the deal is over.*\(V7\.4, V7\.5\)"),
    (lambda: values_at(REC, len(STEPS)), "the record has steps 0-"),
    (lambda: line_at(REC, 0, "AS/x"), r"is no legal action of seat 0.*\(V7\.2-V7\.5\)"),
    (lambda: line_at(REC, 0, STEPS[0].next, worlds=33), "worlds: 33; use 1 to 32"),
])
def test_bad_requests_are_one_line(call, message):
    with pytest.raises(BinokelError, match=message) as exc:
        call()
    assert "\n" not in str(exc.value)
