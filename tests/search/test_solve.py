"""Double-dummy solver (analyzer.search.solve) against plain minimax (R4, R6, R7)."""
from __future__ import annotations

import random

import pytest

from analyzer.errors import BinokelError
from analyzer.mechanics.cards import Card, Hand
from analyzer.search.solve import Solver, make_position, solve_position
from tests.oracle.play import legal_cards
from analyzer.mechanics.rules import get_rules
from tests.oracle import variants as oracle_variants
from tests.oracle.solve import minimax, move_values

SUITS = "CSHD"


def _random_position(rnd: random.Random, n: int):
    """A position with ``n`` cards in the leader's hand before the trick: random deal of
    the 48 cards, random trump (or None = Durch), soloist, leader, and 0-2 cards of the
    current trick played legally (R6)."""
    deck = [t for t in range(24) for _ in range(2)]
    rnd.shuffle(deck)
    trump = rnd.choice([None, 0, 1, 2, 3])
    soloist = rnd.randrange(3)
    leader = rnd.randrange(3)
    if trump is None and rnd.random() < 0.7:
        leader = soloist   # a Durch still running: the soloist has won every trick
    hands = [[0] * 24 for _ in range(3)]
    for p in range(3):
        for c in deck[p * n:(p + 1) * n]:
            hands[p][c] += 1
    trick = []
    for i in range(rnd.randrange(3)):
        seat = (leader + i) % 3
        c = rnd.choice(sorted(legal_cards(hands[seat], trick, trump)))
        hands[seat][c] -= 1
        trick.append(c)
    return hands, trump, soloist, leader, trick


def _pos(hands, trump, soloist, leader, trick):
    return make_position([Hand(tuple(h)) for h in hands], None if trump is None else SUITS[trump],
                         soloist, leader, [Card(c) for c in trick])


@pytest.mark.parametrize("n, count", [(3, 1500), (4, 700), (5, 150), (6, 20)])
def test_solver_value_equals_plain_minimax(n, count):
    # thousands of small positions, trumps and Durch, tricks in progress: R6 duties,
    # R7 points and last-trick bonus, R4 Durch end, all as plain minimax says
    rnd = random.Random(1000 + n)
    solver = Solver(tt_bits=16)
    seen_durch = seen_trick = 0
    for _ in range(count):
        hands, trump, soloist, leader, trick = _random_position(rnd, n)
        seen_durch += trump is None
        seen_trick += bool(trick)
        assert solver.value(_pos(hands, trump, soloist, leader, trick)) == \
            minimax(hands, trump, soloist, leader, trick)
    assert seen_durch > count // 10 and seen_trick > count // 2


def test_solver_move_values_equal_plain_minimax():
    # the value of every legal card, not only the best one
    rnd = random.Random(7)
    solver = Solver(tt_bits=16)
    for _ in range(300):
        n = rnd.choice([3, 4])
        hands, trump, soloist, leader, trick = _random_position(rnd, n)
        got = solver.move_values(_pos(hands, trump, soloist, leader, trick))
        ref = move_values(hands, trump, soloist, leader, trick)
        assert {c.id: v for c, v in got.items()} == ref


def test_solver_table_reused_across_positions_changes_no_value():
    # one Solver (shared table) and a fresh Solver per position agree
    rnd = random.Random(3)
    shared = Solver(tt_bits=12)   # small table: collisions are exercised too
    for _ in range(200):
        hands, trump, soloist, leader, trick = _random_position(rnd, 4)
        pos = _pos(hands, trump, soloist, leader, trick)
        assert shared.value(pos) == Solver(tt_bits=10).value(pos)


def test_issue_example_position_value():
    # S trump, soloist seat 0, seat 1 led 9C; seat 2 must beat with JC (R6 1.), seat 0
    # void in clubs must trump with AS (R6 2.): 0 + 2 + 11 = 13 for the soloist; last
    # trick 10H, KD, QS (seat 2 trumps) goes to the defence with the +10 (R7)
    res = solve_position(["AS,10H", "KD", "QS,JC"], "S", 0, 1, "9C")
    assert res == {"value": 13, "to_play": 2, "moves": {"JC": 13}}


def test_durch_ends_at_first_defender_trick():
    # R4: the soloist (seat 0) leads in a Durch; once a defender wins a trick nothing more
    # is counted, even the soloist's sure later tricks
    # soloist: AC 9H; defenders: 10C/AH and KC/QH.  Leading AC wins (11+10+4=25), then
    # 9H loses to AH: the Durch fails, value 25.  Leading 9H loses at once: 0.
    res = solve_position(["AC,9H", "10C,AH", "KC,QH"], None, 0, 0)
    assert res["moves"] == {"AC": 25, "9H": 0}
    assert res["value"] == 25
    # with trump hearts the same cards are an ordinary game: losing 9H first and then
    # taking the last trick with AC over 10C gives 25 + 10 (R7) = 35
    res = solve_position(["AC,9H", "10C,AH", "KC,QH"], "H", 0, 0)
    assert res["moves"] == {"AC": 25, "9H": 35}


@pytest.mark.parametrize("args, msg", [
    ((["AS,10H", "KD", "QS,AS"], "S", 0, 1, "AS"), "copies"),
    ((["AS,10H", "KD,9D", "QS,JC"], "S", 0, 1, "9C"), "hand sizes"),
    ((["AS,10H", "KD", "QS,JC"], "S", 3, 1, "9C"), "soloist"),
    ((["AS,10H", "KD", "QS,JC"], "X", 0, 1, "9C"), "suit"),
    ((["AS,10H", "KD", "9C"], "S", 0, 1, "QC,AS"), "R6"),
])
def test_make_position_rejects_inconsistent_input_in_one_line(args, msg):
    with pytest.raises(BinokelError, match=msg) as exc:
        make_position(*args)
    assert "\n" not in str(exc.value)


def test_solver_takes_v5_6_duty_from_the_ruleset():
    # binokel-40 (V5.6): a follower must beat the led suit's highest card even when the
    # trick is already trumped; the solver gets that duty from the compiled RuleSet only
    rules = get_rules("binokel-40")
    solver = Solver(rules, tt_bits=14)

    def legal(hand, trick, trump):
        held = {t for t in range(24) if hand[t] > 0}
        return oracle_variants.legal("binokel-40", held, list(trick), trump)

    rnd = random.Random(40)
    differs = 0
    for _ in range(400):
        n = rnd.choice([3, 4])
        deck = [t for t in range(24) if t % 6 != 5 for _ in range(2)]   # no nines (V5)
        rnd.shuffle(deck)
        trump = rnd.randrange(4)
        soloist, leader = rnd.randrange(3), rnd.randrange(3)
        hands = [[deck[p * n:(p + 1) * n].count(t) for t in range(24)] for p in range(3)]
        trick = []
        for i in range(rnd.randrange(3)):
            seat = (leader + i) % 3
            c = rnd.choice(sorted(legal(hands[seat], trick, trump)))
            hands[seat][c] -= 1
            trick.append(c)
        pos = make_position([Hand(tuple(h)) for h in hands], SUITS[trump], soloist, leader,
                            [Card(c) for c in trick], rules)
        want = minimax(hands, trump, soloist, leader, trick, legal=legal)
        assert solver.value(pos) == want
        differs += want != minimax(hands, trump, soloist, leader, trick)
    assert differs > 0   # the duty matters in some of these positions


def test_timed_search_without_a_budget_gives_the_solver_value():
    from analyzer.search.solve import TimedSearch, dd_value

    rnd = random.Random(11)
    s = Solver()
    search = TimedSearch(s, None)
    for _ in range(20):
        hands, trump, soloist, leader, trick = _random_position(rnd, 4)
        pos = _pos(hands, trump, soloist, leader, trick)
        assert search(dd_value, *s._load(pos)) == minimax(hands, trump, soloist, leader, trick)


def test_deal_table_out_of_time_marks_the_rest_unsolved_and_reports_each_row():
    from analyzer.mechanics.rng import chunk_state
    from analyzer.mechanics.sampling import deal_random, new_deck
    import numpy as np

    from analyzer.search.solve import deal_table

    out = np.zeros(4, dtype=np.int64)
    deal_random(chunk_state(7, 0), new_deck(), out)
    hands = [Hand.from_mask(int(m)) for m in out[:3]]
    seen = []
    rows = deal_table(hands, 0, max_seconds=0.01,
                      progress=lambda done, total, row, secs: seen.append((done, total, row)))
    assert [r["trump"] for r in rows] == list("CSHDN")
    assert [d for d, _, _ in seen] == [1, 2, 3, 4, 5] and {t for _, t, _ in seen} == {5}
    first_unsolved = next(i for i, r in enumerate(rows) if "solved" in r)
    # once the budget ran out, no later row is solved and none carries a figure
    assert all(r == {"trump": r["trump"], "solved": False} for r in rows[first_unsolved:])
