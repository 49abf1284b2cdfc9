"""The one trick step (analyzer.mechanics.trick) for all seven games, card for card:
(a) against the plain-Python oracle of R6, V5.6 and V6.4 (tests/oracle/trick.py), on random
deals and random partial tricks, and on whole random playouts; (b) against the two engines
of today: play.py's legal_mask_duty / card_beats / proven_absent (three-player games) and
the TeamKernel's duty int through trick.duty_modes (partners' loops)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from analyzer.mechanics import play as p3
from analyzer.mechanics import trick as tr
from analyzer.mechanics.rules import VARIANTS, team_kernel
from analyzer.mechanics.ruleset import GAMES, Play
from tests.oracle import trick as oracle

SEVEN = tuple(n for n in GAMES if not GAMES[n].stock.size)   # binokel-2: test_stock_play


def _deal(game, rng):
    """Random hands (lists of types) for the seats in play, the table's seat list, sides."""
    kern = game.kernel
    deck = np.repeat(np.arange(24), kern.copies)
    rng.shuffle(deck)
    seats = [s for s in range(kern.table_seats) if not kern.sits_out[s]]
    n = kern.hand_size
    hands = {s: sorted(int(c) for c in deck[i * n:(i + 1) * n]) for i, s in enumerate(seats)}
    return hands, seats


def _trump(game, rng):
    """A suit, or a Durch (None) where the game has one (R4, V2.7, V4.6)."""
    if game.scoring.durch and rng.random() < 0.2:
        return None
    return int(rng.integers(4))


def _side(game, soloist):
    side = np.empty(game.kernel.table_seats, dtype=np.int64)
    tr.sides_of(game.kernel.side_rule, game.kernel.sits_out, soloist, side)
    return side


def _duties(kern):
    return kern.follow, kern.trump_duty, kern.beat_mode, kern.overtrump


def _kernel_legal(kern, hand, trick, trump, relief):
    t = -1 if trump is None else trump
    lsuit, wcard, wseat, lhigh = -1, -1, -1, -1
    for i, c in enumerate(trick):
        lsuit, wcard, wseat, lhigh = tr.add_card(c, i, lsuit, wcard, wseat, lhigh, t, kern.beat)
    h = sum(1 << c for c in set(hand))
    return tr.legal(np.int64(h), lsuit, wcard, lhigh, t, kern.beat, *_duties(kern), relief), (
        lsuit, wcard, wseat, lhigh)


def _mask(types):
    return sum(1 << c for c in set(types))


def _random_position(name, seed):
    """A random deal of game ``name`` and a random partial trick (each card legal for the
    seat that played it, chosen by the oracle), the next seat to play and its relief."""
    game = GAMES[name]
    rng = np.random.default_rng(seed)
    hands, seats = _deal(game, rng)
    trump = _trump(game, rng)
    soloist = int(rng.choice(seats))
    side = _side(game, soloist)
    # play a few random tricks first, so hands are of every length
    leader = int(rng.choice(seats))
    order = lambda ld: seats[seats.index(ld):] + seats[:seats.index(ld)]   # noqa: E731
    for _ in range(int(rng.integers(0, game.table.hand_size))):
        trick, who = [], []
        for s in order(leader):
            pw = bool(who) and side[who[oracle.winner_index(trick, trump)]] == side[s]
            c = int(rng.choice(sorted(oracle.legal_cards(hands[s], trick, trump, game.play, pw))))
            hands[s].remove(c)
            trick.append(c)
            who.append(s)
        leader = who[oracle.winner_index(trick, trump)]
    n_in = int(rng.integers(0, len(seats)))
    trick, who = [], []
    for s in order(leader)[:n_in]:
        pw = bool(who) and side[who[oracle.winner_index(trick, trump)]] == side[s]
        c = int(rng.choice(sorted(oracle.legal_cards(hands[s], trick, trump, game.play, pw))))
        hands[s].remove(c)
        trick.append(c)
        who.append(s)
    seat = order(leader)[n_in]
    pw = bool(who) and side[who[oracle.winner_index(trick, trump)]] == side[seat]
    return game, hands[seat], trick, who, seat, trump, side, pw


@pytest.mark.parametrize("name", SEVEN)
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_legal_cards_winner_and_proofs_agree_with_the_oracle(name, seed):
    """R6 (V5.6, V6.4 where the game has them): legal set, winner, what the play proves."""
    game, hand, trick, who, seat, trump, side, pw = _random_position(name, seed)
    kern = game.kernel
    relief = tr.relief_of(seat, who[oracle.winner_index(trick, trump)] if trick else -1, side,
                          kern.partner_relief)
    assert bool(relief) == (bool(game.play.partner_relief) and pw)
    got, (lsuit, wcard, wseat, lhigh) = _kernel_legal(kern, hand, trick, trump, relief)
    want = oracle.legal_cards(hand, trick, trump, game.play, pw)
    assert got == _mask(want)
    if trick:
        assert wcard == trick[oracle.winner_index(trick, trump)] and lhigh == oracle.led_high(trick)
        assert wseat == oracle.winner_index(trick, trump)
        deck = [t for t in range(24) if kern.copies[t]]
        t = -1 if trump is None else trump
        for c in want:
            nv = tr.proves(c, lsuit, wcard, lhigh, t, kern.beat, *_duties(kern), relief)
            # types outside the deck (binokel-40's low card) prove nothing either way
            assert nv & _mask(deck) == _mask(oracle.proven_absent(c, trick, trump, game.play,
                                                                  deck, pw)), c


@pytest.mark.parametrize("name", SEVEN)
def test_whole_random_playouts_follow_the_oracle_card_for_card(name):
    """Every card of 40 random deals: legal sets, winners and side points (R6, R7, V1)."""
    game = GAMES[name]
    kern = game.kernel
    rng = np.random.default_rng(2024)
    for _ in range(40):
        hands, seats = _deal(game, rng)
        dealt = sum(int(kern.card_points[c]) for s in seats for c in hands[s])
        trump = _trump(game, rng)
        t = -1 if trump is None else trump
        soloist = int(rng.choice(seats))
        side = _side(game, soloist)
        pts, tks, cnt = (np.zeros(kern.table_seats, dtype=np.int64) for _ in range(3))
        want_pts = np.zeros(kern.table_seats, dtype=np.int64)
        ld = int(rng.choice(seats))
        for n in range(kern.hand_size):
            lsuit, wcard, wseat, lhigh, tpts = -1, -1, -1, -1, 0
            trick, who, s = [], [], ld
            for _ in range(kern.n_play):
                relief = tr.relief_of(s, wseat, side, kern.partner_relief)
                legal = tr.legal(np.int64(_mask(hands[s])), lsuit, wcard, lhigh, t, kern.beat,
                                 *_duties(kern), relief)
                pw = bool(trick) and side[who[oracle.winner_index(trick, trump)]] == side[s]
                assert legal == _mask(oracle.legal_cards(hands[s], trick, trump, game.play, pw))
                c = int(rng.choice([x for x in range(24) if (legal >> x) & 1]))
                hands[s].remove(c)
                lsuit, wcard, wseat, lhigh = tr.add_card(c, s, lsuit, wcard, wseat, lhigh, t,
                                                         kern.beat)
                tpts += kern.card_points[c]
                trick.append(c)
                who.append(s)
                s = kern.next_seat[s]
            assert wseat == who[oracle.winner_index(trick, trump)]
            last = n == kern.hand_size - 1
            tr.close_trick(wseat, tpts, last, kern.last_trick_bonus, side, pts, tks, cnt)
            want_pts[side[wseat]] += sum(game.points.ranks[c % 6] for c in trick) + (
                game.points.last_trick if last else 0)
            ld = wseat
        assert np.array_equal(pts, want_pts)
        # R7 / V6.5: the card points of the hands dealt plus the last trick, all credited
        assert pts.sum() == dealt + kern.last_trick_bonus
        assert tks.sum() == kern.hand_size


@pytest.mark.parametrize("name", ("binokel-48", "grupp-3", "grupp-4", "binokel-40"))
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_three_player_step_agrees_with_play_py(name, seed):
    """(b) play.legal_mask_duty, card_beats and proven_absent on the same positions."""
    game, hand, trick, who, seat, trump, side, pw = _random_position(name, seed)
    kern, kr = game.kernel, VARIANTS[name].kernel
    beat_old = np.empty(24, dtype=np.int64)
    p3.beat_table(kr, beat_old)
    assert np.array_equal(beat_old, kern.beat)
    got, (lsuit, wcard, wseat, lhigh) = _kernel_legal(kern, hand, trick, trump, 0)
    t = -1 if trump is None else trump
    if not trick:
        return
    old = p3.legal_mask_duty(np.int64(_mask(hand)), lsuit, wcard, lhigh, t, beat_old,
                             kr.beat_led_trumped, 0)
    assert got == old
    for c in range(24):
        if kern.copies[c]:
            assert tr.beats(c, wcard, t, kern.beat) == p3.card_beats(c, wcard, t, beat_old)
    for c in [x for x in range(24) if (got >> x) & 1]:
        assert tr.proves(c, lsuit, wcard, lhigh, t, kern.beat, *_duties(kern), 0) == \
            p3.proven_absent(c, lsuit, wcard, lhigh, t, beat_old, kr.beat_led_trumped)


@pytest.mark.parametrize("name", ("kreuz-48", "kreuz-40", "pinochle-80"))
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_team_duty_int_gives_the_games_duties(name, seed):
    """(b) The partners' loops pass ``trick.duty_modes(TeamKernel.duty)`` (R6 / V5.6 /
    V6.4) and the TeamKernel's partner relief: the same legal cards as the game's
    compiled duties, NO_TRUMP for a Durch as no trump."""
    game, hand, trick, who, seat, trump, side, pw = _random_position(name, seed)
    kern, tk = game.kernel, team_kernel(VARIANTS[name])
    if not trick:
        return
    t = tr.NO_TRUMP if trump is None else trump
    lsuit, wcard, wseat, lhigh = -1, -1, -1, -1
    for i, c in enumerate(trick):
        lsuit, wcard, wseat, lhigh = tr.add_card(c, who[i], lsuit, wcard, wseat, lhigh, t, kern.beat)
    relief = tr.relief_of(seat, wseat, side, kern.partner_relief)
    assert relief == (tk.partner_relief != 0 and wseat == (seat + 2) % 4)
    h = np.int64(_mask(hand))
    got = tr.legal(h, lsuit, wcard, lhigh, t, kern.beat, *_duties(kern), relief)
    bm, ot = tr.duty_modes(tk.duty)
    rel_tk = tr.relief_of(seat, wseat, side, tk.partner_relief)
    assert got == tr.legal(h, lsuit, wcard, lhigh, t, kern.beat, 1, 1, bm, ot, rel_tk)


def test_a_game_without_duties_lets_every_card_go():
    """The play part can state no duties at all (V7.2 while the stock lasts)."""
    free = Play(follow=False, trump=False, beat="")
    assert oracle.legal_cards([0, 7, 13], [1], 2, free) == {0, 7, 13}
    assert tr.legal(np.int64(1 | 1 << 7 | 1 << 13), 0, 1, 1, 2, GAMES["grupp-3"].kernel.beat,
                    0, 0, 3, 0, 0) == 1 | 1 << 7 | 1 << 13
