"""The double-dummy solver of any table (analyzer.search.solve_any) against plain minimax
(tests/oracle/solve_any.py): R6 duties, R7 last trick, V4.5 / V5.6 / V6.4 team duties,
the team Durch of V4.6's Reading; and the tuned three-player solver as its twin."""
from __future__ import annotations

import random

import numpy as np
import pytest

from analyzer.errors import BinokelError
from analyzer.mechanics.ruleset import GAMES, Table, get_game
from analyzer.mechanics.trick import sides_of
from analyzer.search.solve_any import (MAX_KEY_CARDS, TableSolver, ThreeSeatSolver,
                                       card_values, dd_solver, table_position, timed_value,
                                       tuned_fits)
from tests.oracle import solve_any as oracle
from tests.oracle.trick import legal_cards, winner_index

TEAM_GAMES = [n for n, g in GAMES.items() if g.table.sides == "partners"]
THREE_GAMES = [n for n, g in GAMES.items() if g.table.sides == "solo" and not g.stock.size]   # binokel-2: stock_solve


def _rules(game, soloist):
    kr = game.kernel
    side = np.zeros(kr.table_seats, dtype=np.int64)
    sides_of(kr.side_rule, kr.sits_out, soloist, side)
    return dict(play=game.play, next_seat=[int(x) for x in kr.next_seat],
                side=[int(x) for x in side], card_points=[int(x) for x in kr.card_points],
                last_trick=int(kr.last_trick_bonus))


def random_position(game, rnd: random.Random, n: int):
    """``n`` cards to each seat in play from the game's deck, a random trump (or a Durch
    where the game has one), soloist and leader, and 0 to n_play - 1 cards of the current
    trick played legally by the oracle's duties (partner relief included)."""
    kr = game.kernel
    deck = [t for t in range(24) for _ in range(int(kr.copies[t]))]
    rnd.shuffle(deck)
    in_play = [s for s in range(kr.table_seats) if not kr.sits_out[s]]
    hands = [[0] * 24 for _ in range(kr.table_seats)]
    for i, s in enumerate(in_play):
        for t in deck[i * n:(i + 1) * n]:
            hands[s][t] += 1
    trumps = [0, 1, 2, 3] + ([None] if kr.durch_value > 0 else [])
    trump = rnd.choice(trumps)
    soloist = rnd.choice(in_play)
    leader = rnd.choice(in_play)
    if trump is None and rnd.random() < 0.7:
        leader = soloist     # a Durch still standing: the soloist led every trick so far
    side = _rules(game, soloist)["side"]
    trick, seat = [], leader
    for _ in range(rnd.randrange(kr.n_play)):
        pw = bool(trick) and side[_seat_at(kr, leader, winner_index(trick, trump))] == side[seat]
        held = [t for t in range(24) if hands[seat][t]]
        c = rnd.choice(sorted(legal_cards(held, trick, trump, game.play, pw)))
        hands[seat][c] -= 1
        trick.append(c)
        seat = int(kr.next_seat[seat])
    return hands, trump, soloist, leader, trick


def _seat_at(kr, leader, i):
    s = leader
    for _ in range(i):
        s = int(kr.next_seat[s])
    return s


def _pos(game, hands, trump, soloist, leader, trick):
    return table_position(game, hands, "N" if trump is None else "CSHD"[trump], soloist,
                          leader, trick)


@pytest.mark.parametrize("name", TEAM_GAMES)
@pytest.mark.parametrize("n, count", [(2, 120), (3, 60)])
def test_team_values_equal_plain_minimax(name, n, count):
    # partners take points together (V1), the duties hold while the partner wins (V4.5)
    # or are relieved (V5.6), pinochle-80's four copies and trump-lead duty (V6.4), R7's
    # last trick, the team Durch ends at the first trick the soloist does not win (V4.6)
    game = GAMES[name]
    rnd = random.Random(f"{name}-{n}")
    solver = TableSolver(game, tt_bits=12)
    seen_trick = seen_durch = 0
    for _ in range(count):
        hands, trump, soloist, leader, trick = random_position(game, rnd, n)
        seen_trick += bool(trick)
        seen_durch += trump is None
        want = oracle.minimax(hands, trump, soloist, leader, trick, **_rules(game, soloist))
        assert solver.value(_pos(game, hands, trump, soloist, leader, trick)) == want
    assert seen_trick > count // 2
    assert (seen_durch > 0) == (game.scoring.durch > 0)


@pytest.mark.parametrize("name", TEAM_GAMES)
def test_team_card_values_equal_plain_minimax(name):
    # the value of every legal card, not only the best one (deal records read these)
    game = GAMES[name]
    rnd = random.Random(f"moves-{name}")
    solver = TableSolver(game, tt_bits=12)
    for _ in range(40):
        hands, trump, soloist, leader, trick = random_position(game, rnd, 3)
        want = oracle.move_values(hands, trump, soloist, leader, trick, **_rules(game, soloist))
        assert solver.move_values(_pos(game, hands, trump, soloist, leader, trick)) == want
        assert card_values(game, hands, "N" if trump is None else "CSHD"[trump], soloist,
                           leader, trick, solver=solver) == want


@pytest.mark.parametrize("name", THREE_GAMES)
def test_tuned_three_player_solver_equals_plain_minimax(name):
    # each three-player game's deck, duties (V5.6 led-high in binokel-40) and the dealer
    # who sits out in grupp-4 (V3), through the tuned kernel
    game = GAMES[name]
    rnd = random.Random(f"tuned-{name}")
    solver = dd_solver(game, tt_bits=12)
    assert isinstance(solver, ThreeSeatSolver)
    for _ in range(120):
        hands, trump, soloist, leader, trick = random_position(game, rnd, rnd.choice([2, 3, 4]))
        want = oracle.minimax(hands, trump, soloist, leader, trick, **_rules(game, soloist))
        assert solver.value(_pos(game, hands, trump, soloist, leader, trick)) == want


@pytest.mark.parametrize("name", THREE_GAMES)
def test_generic_solver_equals_the_tuned_twin_on_three_player_positions(name):
    # the tuned solver is the specialised twin: same values and card values, larger hands
    game = GAMES[name]
    rnd = random.Random(f"twin-{name}")
    generic = dd_solver(game, tt_bits=14, generic=True)
    tuned = dd_solver(game, tt_bits=14)
    assert isinstance(generic, TableSolver)
    for _ in range(25):
        pos = _pos(game, *random_position(game, rnd, rnd.choice([5, 6, 7])))
        assert generic.value(pos) == tuned.value(pos)
        assert generic.move_values(pos) == tuned.move_values(pos)


def test_the_kernel_is_chosen_by_the_table_not_the_name():
    # a three-player game made a partners game... is no longer the tuned kernel's table;
    # a renamed team game is still the table solver's
    assert all(tuned_fits(GAMES[n]) for n in THREE_GAMES)
    assert not any(tuned_fits(GAMES[n]) for n in TEAM_GAMES)
    renamed = get_game("kreuz-48").with_parts(name="binokel-48x")
    assert isinstance(dd_solver(renamed), TableSolver)
    four = get_game("kreuz-48").with_parts(table=Table(seats=4, in_play=4, sides="partners",
                                                       seat_names=("a", "b", "c", "d"),
                                                       hand_size=11))
    assert isinstance(dd_solver(four), TableSolver)


def test_a_whole_pinochle_deal_is_past_the_key_limit_with_the_limit_named():
    game = GAMES["pinochle-80"]
    deck = [t for t in range(24) for _ in range(int(game.kernel.copies[t]))]
    random.Random(5).shuffle(deck)
    hands = [[deck[16 * s:16 * s + 16].count(t) for t in range(24)] for s in range(4)]
    pos = _pos(game, hands, 0, 0, 0, [])
    with pytest.raises(BinokelError, match=f"at most {MAX_KEY_CARDS} cards .*15 tricks"):
        TableSolver(game, tt_bits=10).value(pos)


def test_positions_are_refused_in_one_line_where_the_rules_say_no():
    k40 = GAMES["kreuz-40"]
    four = ["AS", "KS", "QS", "JS"]
    with pytest.raises(BinokelError, match="no Durch"):          # V5.7: no Durch
        table_position(k40, four, "N", 0, 0)
    with pytest.raises(BinokelError, match="4 seats"):
        table_position(k40, four[:3], "S", 0, 0)
    with pytest.raises(BinokelError, match="no card in kreuz-40"):   # V5.1: no low card
        table_position(k40, ["9S", "KS", "QS", "JS"], "S", 0, 0)
    with pytest.raises(BinokelError, match="sits out"):          # V3: the dealer holds nothing
        table_position(GAMES["grupp-4"], ["AS", "KS", "QS", "JS"], "S", 0, 0)
    with pytest.raises(BinokelError, match="duties"):            # R6: follow suit
        table_position(k40, ["KH", "AS", "QS JS", "JH 10H"], "S", 0, 0, ["KS", "AH"])


def test_a_node_budget_stops_the_search_without_a_value():
    game = GAMES["kreuz-48"]
    rnd = random.Random(2)
    while True:
        hands, trump, soloist, leader, trick = random_position(game, rnd, 8)
        if trump is not None:
            break
    pos = _pos(game, hands, trump, soloist, leader, trick)
    solver = TableSolver(game, tt_bits=14)
    assert solver.value(pos, limit=1000) is None
    assert solver.nodes < 5000
    exact = solver.value(pos)
    assert solver.value(pos, limit=10**9) == exact
    assert timed_value(solver, pos, None) == exact
