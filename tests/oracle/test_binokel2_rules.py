"""Every rule of ``binokel-2`` (docs/VARIANTS.md V7.1-V7.5) pinned on the plain-Python
reference tests/oracle/binokel2.py: hand-built positions for each rule, invariants of
random deals (cards conserved, stock drawn in order, legal moves only, scores add up),
what each player knows, the brute-force endgame and the bad-input checks (issue 26).
The kernels of the next session are checked against this reference."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st_

from tests.oracle import binokel2 as b
from tests.oracle.binokel2 import A, C, D, H, J, K, Q, S, SEVEN, T, tid

P = b.parse
FULL = [t for t in range(b.N_TYPES) for _ in range(2)]
# filler for hands and stock: tens and sevens first (they make no meld, V7.3)
_FILL_ORDER = sorted(FULL, key=lambda t: (b.rank_of(t) not in (T, SEVEN), t))


def start(h0, h1, turned, top=(), before=(0, 0)) -> b.State:
    """A fresh deal through :func:`b.deal` (V7.1): forehand holds ``h0``, the dealer
    ``h1`` (each filled up to 12 with tens, then sevens, ...), ``turned`` is turned and
    ``top`` lies on top of the stock."""
    pool = Counter(FULL)
    for t in [*h0, *h1, turned, *top]:
        pool[t] -= 1
        assert pool[t] >= 0, b.name(t)
    rest = [t for t in _FILL_ORDER if pool[t] > 0 and not pool.subtract([t])]
    hands = [list(h0), list(h1)]
    for h in hands:
        while len(h) < b.HAND:
            h.append(rest.pop(0))
    copies: Counter = Counter()

    def phys(t):
        copies[t] += 1
        return t * 2 + copies[t] - 1

    order = [phys(t) for t in hands[0]] + [phys(t) for t in hands[1]] + [phys(turned)]
    order += [phys(t) for t in [*top, *rest]]
    return b.deal(order, before)


def play(st: b.State, t: int) -> b.State:
    """The player to act plays a copy of type ``t`` (a shown copy first)."""
    seat = b.to_act(st)
    cards = sorted((c for c in st.hands[seat] if b.type_of(c) == t),
                   key=lambda c: (-st.shown.get(c, 0), c))
    return b.apply(st, ("play", cards[0]))


def trick(st: b.State, lead: int, second: int) -> b.State:
    return play(play(st, lead), second)


def meld(st: b.State, types) -> b.State:
    return b.apply(st, ("meld", b.meld_cards_for(st, b.to_act(st), types)))


def types_of(cards) -> list[int]:
    return sorted(b.type_of(c) for c in cards)


def deal_to_end(st: b.State, rng) -> b.State:
    return b.playout(st, rng, b.random_no_claim)


def endgame_after(rng, cards_left: int) -> b.State:
    """A random position with the stock gone and ``cards_left`` cards in each hand, at
    the start of a trick (random play, no claims)."""
    st = b.random_deal(rng)
    while not (st.tricks == b.TOTAL_TRICKS - cards_left and not st.trick):
        st = b.apply(st, b.random_no_claim(st, rng))
    return st


# ----------------------------------------------------------------------------- V7.1
def test_deal_gives_twelve_each_turns_the_next_card_and_stocks_the_rest_turned_last():
    st = b.deal(range(48))                                      # V7.1
    assert st.hands == [set(range(12)), set(range(12, 24))]
    assert st.turned == 24 and st.stock == list(range(25, 48)) + [24]
    assert st.trump == b.suit_of(b.type_of(24)) == H            # the turned card's suit
    assert len(st.stock) == 24 and b.to_act(st) == 0


def test_a_turned_seven_scores_ten_for_the_dealer_once():
    st = start([], [], tid(H, SEVEN))                           # V7.1
    assert st.melds == [0, 10] and st.turned in st.dissle_done
    # the turned 7 goes to the loser of trick 12 and scores nothing more when played
    end = deal_to_end(st, random.Random(4))
    dissles = [e for e in end.log if e[0].startswith("dissle")]
    assert [e[0] for e in dissles].count("dissle turned") == 1
    assert all(e[2] != st.turned for e in dissles if e[0] == "dissle played")


def test_a_turned_card_other_than_a_seven_scores_nothing():
    st = start([], [], tid(H, K))                               # V7.1
    assert st.melds == [0, 0] and not st.dissle_done


def test_the_low_card_of_binokel_2_is_the_seven():
    assert b.name(tid(S, SEVEN)) == "7S"                        # V1, V7.1
    with pytest.raises(ValueError, match=r"V7\.1"):
        P("9S")
    assert b.meld_patterns(H)[0].types == (tid(H, SEVEN),)     # the Dissle is the trump 7


# ----------------------------------------------------------------------------- V7.2
def test_forehand_the_non_dealer_leads_the_first_trick():
    assert b.to_act(start([], [], tid(C, T))) == 0              # V7.2, V1 seat 0


def test_no_duty_to_follow_or_trump_while_the_stock_lasts():
    # the dealer holds hearts and trumps (clubs) but may answer a heart with anything
    st = play(start(P("AH"), P("KH 10C QD"), tid(C, T)), tid(H, A))
    assert st.stock_phase
    legal = {b.type_of(c) for c in b.legal_plays(st)}           # V7.2
    assert legal == {b.type_of(c) for c in st.hands[1]} and tid(D, Q) in legal


@pytest.mark.parametrize("led, second, trump, winner", [
    (tid(H, A), tid(H, A), C, 0),     # identical copies: the first played wins
    (tid(H, K), tid(H, A), C, 1),     # same suit, higher
    (tid(H, A), tid(H, T), C, 0),     # same suit, lower
    (tid(H, A), tid(C, SEVEN), C, 1),  # a trump on a plain lead
    (tid(H, J), tid(D, A), C, 0),     # a plain card of another suit never wins
    (tid(C, K), tid(C, Q), C, 0),     # a lower trump on a trump lead
    (tid(C, K), tid(C, T), C, 1),     # a higher trump on a trump lead
])
def test_trick_winner_higher_of_the_led_suit_or_a_trump_else_the_first(led, second, trump,
                                                                          winner):
    assert b.trick_winner(led, second, trump) == winner        # V7.2, V7.4


def test_the_tricks_winner_draws_the_top_card_first_then_the_loser_and_leads_next():
    top = P("AD KD")
    st = trick(start(P("JH"), P("QH"), tid(C, T), top=top), tid(H, J), tid(H, Q))
    assert st.to_meld == 1                                      # the dealer won (Q > J)
    st = b.apply(st, ("pass",))
    draws = [e for e in st.log if e[0] == "draw"]
    assert [(s, b.type_of(c)) for _, s, c in draws] == [(1, top[0]), (0, top[1])]  # V7.2
    assert len(st.hands[0]) == len(st.hands[1]) == 12 and b.to_act(st) == 1


def test_the_turned_trump_is_the_last_card_drawn_by_the_loser_of_the_twelfth_trick():
    rng = random.Random(12)
    for _ in range(20):
        st = deal_to_end(b.random_deal(rng), rng)
        draws = [e for e in st.log if e[0] == "draw"]
        tricks = [e for e in st.log if e[0] == "trick"]
        assert len(draws) == 24 and draws[-1][2] == st.turned   # V7.2
        assert draws[-1][1] == 1 - tricks[11][1]               # the loser of trick 12


# ----------------------------------------------------------------------------- V7.3
def test_only_the_tricks_winner_may_show_a_meld_before_drawing():
    st = trick(start(P("AH KD QD"), P("7H KS QS"), tid(C, T)), tid(H, A), tid(H, SEVEN))
    assert st.to_meld == 0 and b.to_act(st) == 0               # V7.3
    assert {a[0] for a in b.legal_actions(st)} == {"meld", "pass"}
    loser_pair = [c for c in st.hands[1] if b.type_of(c) in P("KS QS")]
    with pytest.raises(ValueError, match=r"V7\.3: only the winner"):
        b.check_meld(st, 1, loser_pair)
    st = meld(st, P("KD QD"))
    assert st.melds == [20, 0] and st.to_meld is None          # shown, then both drew
    assert len(st.hands[0]) == 12 and len(st.stock) == 22


def test_one_meld_per_won_trick():
    st = trick(start(P("AH KD QD KH QH"), P("7H"), tid(C, T)), tid(H, A), tid(H, SEVEN))
    st = meld(st, P("KD QD"))
    with pytest.raises(ValueError, match=r"V7\.3: one meld per won trick"):   # V7.3
        b.apply(st, ("meld", b.meld_cards_for(st, 0, P("KH QH"))))


def test_shown_cards_stay_in_the_hand_and_stay_playable():
    st = trick(start(P("AH KD QD"), P("7H"), tid(C, T)), tid(H, A), tid(H, SEVEN))
    st = meld(st, P("KD QD"))
    shown = sorted(b.type_of(c) for c in st.shown)
    assert shown == P("KD QD") and all(c in st.hands[0] for c in st.shown)  # V7.3
    st = play(st, tid(D, K))                                   # played from the table
    assert [b.type_of(c) for c in st.shown] == [tid(D, Q)] and st.trick


def _win(st, lead=tid(H, A), low=tid(H, SEVEN)):
    """Forehand leads ``lead``, the dealer drops ``low``: forehand wins (V7.2)."""
    return trick(st, lead, low)


def test_a_card_may_join_a_later_meld_of_another_kind():
    st = _win(start(P("AH AH KH QH KC KS KD"), P("7H 7H"), tid(C, T)))
    st = meld(st, P("KH QH"))
    st = _win(st, tid(H, A))
    st = meld(st, P("KC KS KH KD"))                            # K♥ again, another kind
    assert st.melds == [20 + 80, 0]                            # V7.3


def test_a_card_never_joins_a_second_meld_of_its_own_kind():
    kings = P("KC KC KS KS KH KH KD KD")
    st = _win(start(P("AH AH") + kings, P("7H 7H"), tid(C, T)))
    st = meld(st, P("KC KS KH KD"))
    st = _win(st, tid(H, A))
    eight = [c for c in st.hands[0] if b.type_of(c) in kings]
    with pytest.raises(ValueError, match=r"V7\.3: .* never joins a second meld of its own"):
        b.check_meld(st, 0, eight)                            # four kings, then eight: no
    assert all(cards != tuple(sorted(eight)) for cards in b.legal_melds(st))


def test_a_binokel_cannot_grow_into_a_grand_binokel_but_other_copies_meld_again():
    st = _win(start(P("AH AH KS QS QS JD JD"), P("7H 7H"), tid(C, T)))
    st = meld(st, P("QS JD"))
    st = _win(st, tid(H, A))
    shown = [c for c in st.hands[0] if c in st.shown]
    with pytest.raises(ValueError, match=r"V7\.3"):
        b.check_meld(st, 0, shown + [c for c in st.hands[0] if b.type_of(c) == tid(S, K)])
    names = {b.pattern_of(types_of(m), C).name for m in b.legal_melds(st)}
    assert "grand binokel" in names and "double binokel" not in names   # fresh Q♠ J♦ + K♠
    st = meld(st, P("QS JD"))                                  # the other copies: allowed
    assert st.melds == [80, 0]


def test_the_k_and_q_of_a_shown_quint_major_never_count_as_a_pair():
    quint = [tid(C, r) for r in (A, T, K, Q, J)]
    st = _win(start(P("AH AH") + quint, P("7H 7H"), tid(C, T)))
    st = meld(st, quint)
    assert st.melds == [250, 0]                                # no 40 beside the 250
    st = _win(st, tid(H, A))
    with pytest.raises(ValueError, match=r"V7\.3: .*never count as a pair"):
        b.check_meld(st, 0, [c for c in st.hands[0] if b.type_of(c) in P("KC QC")])
    assert not any(b.pattern_of(types_of(m), C).kind == b.PAIR for m in b.legal_melds(st))


def test_a_trump_pair_shown_first_may_grow_into_a_quint_major():
    quint = [tid(C, r) for r in (A, T, K, Q, J)]
    st = _win(start(P("AH AH") + quint, P("7H 7H"), tid(C, T)))
    st = meld(st, P("KC QC"))
    st = _win(st, tid(H, A))
    st = meld(st, quint)                                       # V7.3 Reading
    assert st.melds == [40 + 250, 0]


def test_one_king_never_pairs_with_two_queens():
    st = _win(start(P("AH AH KD QD QD"), P("7H 7H"), tid(C, T)))
    st = meld(st, P("KD QD"))
    st = _win(st, tid(H, A))
    pairs = [m for m in b.legal_melds(st) if b.pattern_of(types_of(m), C).kind == b.PAIR]
    assert pairs == []                                         # V7.3: the K is spent
    king = [c for c in st.hands[0] if b.type_of(c) == tid(D, K)]
    fresh_q = [c for c in st.hands[0] if b.type_of(c) == tid(D, Q) and c not in st.shown]
    with pytest.raises(ValueError, match=r"V7\.3"):
        b.check_meld(st, 0, king + fresh_q)


def test_meld_values_are_those_of_v7_3():
    values = {p.name: p.value for p in b.meld_patterns(H)}
    assert values == {                                          # V7.3, trump hearts
        "Dissle": 10, "pair C": 20, "pair S": 20, "trump pair": 40, "pair D": 20,
        "quint major": 250, "four A": 100, "eight A": 1000, "four K": 80, "eight K": 800,
        "four Q": 60, "eight Q": 600, "four J": 40, "eight J": 400, "binokel": 40,
        "grand binokel": 80, "double binokel": 300}
    # tens, sevens and a plain family are no melds; grand binokel is K♠ Q♠ J♦
    assert b.pattern_of([tid(s, T) for s in range(4)], H) is None
    assert b.pattern_of([tid(s, SEVEN) for s in range(4)], H) is None
    assert b.pattern_of([tid(C, r) for r in (A, T, K, Q, J)], H) is None
    assert b.pattern_of(P("JD QS KS"), H).name == "grand binokel"


def test_a_shown_dissle_scores_ten_and_nothing_more_when_played():
    st = _win(start(P("AH 7C"), P("7H"), tid(C, T)))
    st = meld(st, [tid(C, SEVEN)])                             # V7.3 Reading: once per copy
    assert st.melds == [10, 0]
    st = play(st, tid(C, SEVEN))
    assert st.melds == [10, 0]


def test_an_unshown_trump_seven_scores_ten_for_whoever_plays_it_even_losing_the_trick():
    st = trick(start(P("AC"), P("7C"), tid(C, T)), tid(C, A), tid(C, SEVEN))
    assert st.to_meld == 0 and st.melds == [0, 10]             # V7.3: played, trick lost


def _pool_minus(*groups):
    pool = Counter(FULL)
    for g in groups:
        for t in g:
            pool[t] -= 1
            assert pool[t] >= 0, b.name(t)
    return [t for t in _FILL_ORDER if pool[t] > 0 and not pool.subtract([t])]


def late(h0, h1, turned, top):
    """Trick 12 about to be led by forehand: 22 cards in forehand's tricks, ``top`` the
    one face-down card left, the turned trump under it (V7.2)."""
    rest = _pool_minus(h0, h1, [turned, top])
    h0, h1 = list(h0), list(h1)
    while len(h0) < 12:
        h0.append(rest.pop(0))
    while len(h1) < 12:
        h1.append(rest.pop(0))
    return b.make_state(h0, h1, [top], turned, taken0=rest)


def endgame(h0, h1, turned, leader=0):
    """The stock gone, ``h0`` / ``h1`` left in the hands, every other card in forehand's
    tricks (V7.4); the turned trump's type ``turned`` lies among the played cards."""
    return b.make_state(h0, h1, [], turned, taken0=_pool_minus(h0, h1), leader=leader)


def test_melds_are_shown_after_the_twelfth_trick_before_the_last_draw():
    st = _win(late(P("AH KD QD"), P("7H"), tid(C, T), tid(S, A)))
    assert st.tricks == 12 and len(st.stock) == 2              # V7.3 Reading
    st = meld(st, P("KD QD"))
    assert st.melds == [20, 0] and not st.stock
    assert b.type_of(next(e for e in reversed(st.log) if e[0] == "draw")[2]) == tid(C, T)


def test_shown_cards_go_back_into_the_hands_when_the_stock_is_gone_and_melding_ends():
    st = _win(late(P("AH AH KD QD KH QH"), P("7H 7H"), tid(C, T), tid(S, A)))
    st = meld(st, P("KD QD"))
    assert st.shown == {} and {tid(D, K), tid(D, Q)} <= set(types_of(st.hands[0]))  # V7.4
    st = _win(st, tid(H, A))
    assert st.to_meld is None and all(a[0] in ("play", "claim") for a in b.legal_actions(st))
    with pytest.raises(ValueError, match=r"V7\.3: .*stock is gone"):
        b.check_meld(st, 0, [c for c in st.hands[0] if b.type_of(c) in P("KH QH")])


def test_after_the_stock_follow_suit_without_a_duty_to_beat():
    st = play(endgame(P("KH 7D AC"), P("AH 7H 10C"), tid(C, T)), tid(H, K))
    assert set(types_of(b.legal_plays(st))) == {tid(H, A), tid(H, SEVEN)}     # V7.4


def test_after_the_stock_unable_to_follow_trump_without_a_duty_to_overtrump():
    st = play(endgame(P("AH QC JD"), P("7C KC 7D"), tid(C, T)), tid(H, A))
    assert set(types_of(b.legal_plays(st))) == {tid(C, SEVEN), tid(C, K)}     # V7.4


def test_after_the_stock_with_neither_suit_nor_trump_any_card():
    st = play(endgame(P("AH QC"), P("7D AS"), tid(C, T)), tid(H, A))
    assert set(types_of(b.legal_plays(st))) == {tid(D, SEVEN), tid(S, A)}     # V7.4
    with pytest.raises(ValueError, match=r"V7\.4"):
        play(play(endgame(P("AH QC"), P("7H AS"), tid(C, T)), tid(H, A)), tid(S, A))


def test_after_the_stock_the_leader_may_lead_any_card():
    st = endgame(P("AH QC 7D"), P("7H AS KS"), tid(C, T))
    assert set(types_of(b.legal_plays(st))) == set(P("AH QC 7D"))            # V7.4


def test_the_last_trick_scores_ten_and_card_points_are_those_of_v1():
    st = endgame(P("AH"), P("7H"), tid(C, T))
    before = b.deal_points(st, 0)
    assert before == 240 - 11                                   # all other card points
    st = trick(st, tid(H, A), tid(H, SEVEN))
    assert b.final_points(st) == (250, 0) and st.last_trick_seat == 0          # V7.4
    assert b.card_points([tid(s, r) * 2 for s in range(4) for r in range(6)]) == 120


# ----------------------------------------------------------------------------- V7.5
def test_a_claim_at_1000_or_more_wins_and_ends_the_game():
    st = _win(start(P("AH QC QS QH QD"), P("7H"), tid(C, T), before=(950, 0)))
    st = meld(st, P("QC QS QH QD"))                            # 950 + 11 + 60 = 1021
    assert ("claim",) in b.legal_actions(st) and b.check_claim(st, 0) == 1021
    st = b.apply(st, ("claim",))
    assert st.winner == 0 and b.to_act(st) is None and b.legal_actions(st) == []  # V7.5
    with pytest.raises(ValueError, match=r"V7\.5: the game has been claimed"):
        b.apply(st, ("play", next(iter(st.hands[0]))))


def test_a_claim_below_1000_loses_the_game():
    st = _win(start(P("AH KD QD"), P("7H"), tid(C, T), before=(900, 0)))
    st = meld(st, P("KD QD"))                                  # 900 + 11 + 20 = 931
    assert ("claim",) not in b.legal_actions(st)              # the program never does it
    assert ("claim",) in b.legal_actions(st, losing_claims=True)
    st = b.apply(st, ("claim",))
    assert st.claimed_by == 0 and st.winner == 1               # V7.5 Reading


def test_a_claim_counts_card_points_taken_so_far_and_not_the_rest():
    st = start(P("AH"), P("10H"), tid(C, T), before=(980, 0))
    assert ("claim",) not in b.legal_actions(st)              # 980: nothing taken yet
    st = trick(st, tid(H, A), tid(H, T))                       # 980 + 21 = 1001
    assert b.deal_points(st, 0) == 21 and ("claim",) in b.legal_actions(st)   # V7.5


def test_either_player_may_claim_at_its_own_decision():
    st = play(start(P("AH"), [], tid(C, T), before=(0, 1000)), tid(H, A))
    assert b.to_act(st) == 1 and ("claim",) in b.legal_actions(st)            # V7.5 Reading


def _finished() -> b.State:
    """A finished deal: forehand 250, the dealer 0 (V7.4)."""
    return trick(endgame(P("AH"), P("7H"), tid(C, T)), tid(H, A), tid(H, SEVEN))


@pytest.mark.parametrize("scores, winner, after", [
    ([800, 900], 0, [1050, 900]),      # forehand passes 1000: wins
    ([750, 1000], None, [1000, 1000]),  # level at 1000: another deal
    ([700, 0], None, [950, 0]),        # nobody at 1000
])
def test_a_deal_without_claim_is_added_and_the_higher_total_at_1000_wins(scores, winner,
                                                                        after):
    game = b.Game(scores=list(scores), dealer=1)               # player 0 is forehand
    b.finish_deal(game, _finished())
    assert (game.winner, game.scores) == (winner, after)       # V7.5 Reading
    if winner is None:
        assert game.dealer == 0                                # the dealer alternates


def test_the_dealer_alternates_and_sits_in_seat_1():
    game = b.Game(dealer=1)
    st = b.start_deal(game, range(48))
    assert (b.seat_player(1, 0), b.seat_player(1, 1)) == (0, 1)   # V1, V7.5
    b.finish_deal(game, _finished())
    assert game.dealer == 0 and (b.seat_player(0, 0), b.seat_player(0, 1)) == (1, 0)
    game.scores = [600, 300]
    assert b.start_deal(game, range(48)).before == (300, 600)  # forehand is player 1 now
    assert st.before == (0, 0)


def test_a_claim_decides_the_game_for_the_player_in_that_seat():
    game = b.Game(scores=[0, 990], dealer=0)                   # player 1 is forehand
    st = b.start_deal(game, range(48))
    st = b.apply(st, ("claim",))                               # 990: below 1000, loses
    b.finish_deal(game, st)
    assert game.winner == 0


def test_random_games_end_with_a_winner_at_or_above_1000():
    rng = random.Random(7)
    for _ in range(3):
        game, deals = b.play_game(rng)
        assert game.winner is not None and len(deals) == game.deals
        last = deals[-1]
        if last.winner is None:                                # V7.5 Reading: deal end
            assert game.scores[game.winner] >= b.TARGET > 0
            assert game.scores[game.winner] > game.scores[1 - game.winner]
        else:                                                  # a claim decided it
            assert game.winner == b.seat_player(game.dealer, last.winner)


# ----------------------------------------------------------------------------- knowledge
@given(seed=st_.integers(0, 2**31), steps=st_.integers(0, 70), seat=st_.integers(0, 1))
def test_a_sampled_world_keeps_everything_the_player_knows(seed, steps, seat):
    rng = random.Random(seed)
    st = b.random_deal(rng)
    for _ in range(steps):
        if b.to_act(st) is None:
            break
        st = b.apply(st, b.random_no_claim(st, rng))
    world = b.sample_world(st, seat, rng)
    b.check_state(world)
    assert b.observation(world, seat) == b.observation(st, seat)
    opp = 1 - seat
    assert {c for c in st.hands[opp] if c in st.shown} <= world.hands[opp]  # still held


def test_sampled_worlds_vary_the_hidden_cards_during_the_stock():
    st = _win(start(P("AH KD QD"), P("7H"), tid(C, T)))
    st = meld(st, P("KD QD"))
    rng = random.Random(3)
    hands = {frozenset(b.sample_world(st, 1, rng).hands[0]) for _ in range(20)}
    assert len(hands) > 1
    assert all({c for c in st.hands[0] if c in st.shown} <= h for h in hands)


def test_the_turned_trump_is_known_to_be_with_whoever_drew_it():
    rng = random.Random(9)
    st = b.random_deal(rng)
    while st.stock:
        st = b.apply(st, b.random_no_claim(st, rng))
    loser_of_trick_12 = 1 - [e for e in st.log if e[0] == "trick"][11][1]
    assert st.turned in st.hands[loser_of_trick_12]
    assert b.observation(st, 1 - loser_of_trick_12)[3] == loser_of_trick_12  # V7.2: face up


def test_once_the_stock_is_gone_the_world_is_the_position_itself():
    st = endgame_after(random.Random(5), 6)
    world = b.sample_world(st, 0, random.Random(1))
    assert world.hands == st.hands and world.stock == []       # V7.4: perfect information


# ----------------------------------------------------------------------------- endgame
def test_endgame_brute_force_on_hand_built_positions():
    st = endgame(P("AS 10S"), P("KS 7S"), tid(S, SEVEN))
    assert b.endgame_value(st, 0) == 11 + 14 + 10
    # leading the ace is wrong: lead the 7, let the ace of diamonds win, take 10H at the end
    st = endgame(P("AH 7D"), P("10H AD"), tid(C, T))
    assert b.endgame_value(st, 0) == 21 + 10
    assert types_of(b.endgame_best_plays(st)) == [tid(D, SEVEN)]
    assert b.endgame_value(st, 1) == 11


def _open_points(st: b.State) -> int:
    trump7 = tid(st.trump, SEVEN)
    cards = [*st.hands[0], *st.hands[1], *st.trick]
    return (b.card_points(cards) + b.LAST_TRICK
            + b.DISSLE * sum(1 for c in cards if b.type_of(c) == trump7
                             and c not in st.dissle_done and c not in st.trick))


@given(seed=st_.integers(0, 2**31), left=st_.integers(1, 4))
def test_endgame_values_of_the_two_players_add_up_to_the_points_still_open(seed, left):
    st = endgame_after(random.Random(seed), left)
    v0, v1 = b.endgame_value(st, 0), b.endgame_value(st, 1)
    assert v0 + v1 == _open_points(st) and min(v0, v1) >= 0


def test_endgame_best_play_reaches_the_value_against_every_reply():
    st = endgame_after(random.Random(11), 4)
    me = b.to_act(st)
    value = b.endgame_value(st, me)
    card = b.endgame_best_plays(st)[0]
    after = b.apply(st, ("play", card))
    gained = b.deal_points(after, me) - b.deal_points(st, me)
    assert gained + b.endgame_value(after, me) == value
    with pytest.raises(ValueError, match=r"V7\.4"):
        b.endgame_value(b.random_deal(random.Random(1)), 0)


# ----------------------------------------------------------------------------- invariants
def _duty_ok(hand_types, led, card, trump, stock_phase) -> bool:
    """V7.2 / V7.4 restated: free while the stock lasts; after it follow, else trump."""
    if stock_phase or led is None:
        return True
    if any(b.suit_of(t) == b.suit_of(led) for t in hand_types):
        return b.suit_of(card) == b.suit_of(led)
    if any(b.suit_of(t) == trump for t in hand_types):
        return b.suit_of(card) == trump
    return True


@given(seed=st_.integers(0, 2**31))
def test_random_deals_keep_every_rule(seed):
    rng = random.Random(seed)
    st = b.random_deal(rng)
    stock_order = list(st.stock)
    while b.to_act(st) is not None:
        b.check_state(st)                                      # cards conserved, counts
        action = b.random_no_claim(st, rng)
        if action[0] == "play":
            seat, card = b.to_act(st), action[1]
            led = b.type_of(st.trick[0]) if st.trick else None
            assert card in st.hands[seat]
            assert _duty_ok([b.type_of(c) for c in st.hands[seat]], led, b.type_of(card),
                            st.trump, st.stock_phase)
        st = b.apply(st, action)
    draws = [e for e in st.log if e[0] == "draw"]
    assert [c for _, _, c in draws] == stock_order             # V7.2: in order, turned last
    tricks = [e[1] for e in st.log if e[0] == "trick"]
    assert [s for _, s, _ in draws[0::2]] == tricks[:12]      # the winner draws first
    assert b.card_points(st.taken[0] + st.taken[1]) == 240 and st.last_trick_seat in (0, 1)
    assert sum(b.final_points(st)) == 250 + sum(st.melds)      # V7.4
    melds = [e for e in st.log if e[0] == "meld"]
    dissles = [e for e in st.log if e[0] in ("dissle turned", "dissle played")]
    assert sum(e[4] for e in melds) + 10 * len(dissles) == sum(st.melds)
    assert len(dissles) + sum(1 for e in melds if e[3] == "Dissle") == 2   # once per copy
    for seat in (0, 1):
        assert len(st.hands[seat]) == 0 and b.to_act(st) is None


# ----------------------------------------------------------------------------- bad input
def test_impossible_cards_are_refused_naming_v7_1():
    with pytest.raises(ValueError, match=r"V7\.1: 3 copies of KH; the deck holds two"):
        b.check_cards(P("KH KH KH"))
    with pytest.raises(ValueError, match=r"V7\.1: 24 is no card"):
        b.check_cards([24])
    with pytest.raises(ValueError, match=r"V7\.1"):
        b.make_state(P("AS AS AS"), [], [], tid(C, T))
    with pytest.raises(ValueError, match=r"V7\.1"):
        b.deal(list(range(47)) + [0])
    with pytest.raises(ValueError, match=r"V7\.1: the turned trump KH is nowhere"):
        b.make_state(P("AS"), P("AH"), [], tid(H, K))


def test_a_meld_whose_cards_are_not_in_the_hand_is_refused():
    st = _win(start(P("AH KD"), P("7H QD"), tid(C, T)))
    qd = next(c for c in st.hands[1] if b.type_of(c) == tid(D, Q))
    kd = next(c for c in st.hands[0] if b.type_of(c) == tid(D, K))
    with pytest.raises(ValueError, match=r"V7\.3: the meld's QD is not in seat 0's hand"):
        b.check_meld(st, 0, [kd, qd])
    with pytest.raises(ValueError, match=r"V7\.3: the meld's QD is not in seat 0's hand"):
        b.meld_cards_for(st, 0, P("KD QD"))
    with pytest.raises(ValueError, match=r"V7\.3: .* is no meld"):
        b.check_meld(st, 0, [kd])


def test_a_meld_by_the_loser_or_before_any_trick_is_refused():
    st = start(P("KD QD"), P("KS QS"), tid(C, T))
    pair = tuple(c for c in st.hands[0] if b.type_of(c) in P("KD QD"))
    with pytest.raises(ValueError, match=r"V7\.3: only the winner"):
        b.apply(st, ("meld", pair))
    with pytest.raises(ValueError, match=r"V7\.3: nothing to pass"):
        b.apply(st, ("pass",))


def test_a_play_before_the_winner_has_melded_or_passed_is_refused():
    st = _win(start(P("AH KD QD"), P("7H"), tid(C, T)))
    with pytest.raises(ValueError, match=r"V7\.3: seat 0 won the trick"):
        b.apply(st, ("play", next(iter(st.hands[0]))))


def test_a_claim_below_1000_is_refused_as_input_but_legal_in_the_game():
    st = start([], [], tid(C, T), before=(999, 0))
    with pytest.raises(ValueError, match=r"V7\.5: seat 0 has 999 points; a claim below 1000"):
        b.check_claim(st, 0)
    assert b.apply(st, ("claim",)).winner == 1                 # V7.5 Reading: it loses


def test_a_draw_from_an_empty_stock_is_refused():
    st = endgame(P("AH"), P("7H"), tid(C, T))
    with pytest.raises(ValueError, match=r"V7\.2: no card to draw"):
        b.draw(st, 0)


@pytest.mark.parametrize("counts, message", [
    ((12, 12, 23, 0, 0), r"V7\.1: 12 \+ 12 in hand, 23 in the stock, 0 played make 47"),
    ((12, 12, 22, 0, 2), r"V7\.2: a trick is one card from each player"),
    ((13, 13, 20, 2, 0), r"V7\.2: after 1 trick the stock holds 22 cards, not 20"),
    ((13, 11, 22, 2, 0), r"V7\.2: after 1 trick the hands hold 12 and 12 cards, not 13 and 11"),
    ((6, 4, 0, 38, 0), r"V7\.2: after 19 tricks the hands hold 5 and 5 cards, not 6 and 4"),
    ((6, 5, 0, 36, 1), r"V7\.2: after 18 tricks the hands hold 5 and 6 cards, not 6 and 5"),
])
def test_a_position_whose_card_count_does_not_add_up_is_refused(counts, message):
    with pytest.raises(ValueError, match=message):
        b.check_counts(*counts)


def test_card_counts_of_real_moments_of_a_deal_pass():
    for counts in ((12, 12, 24, 0, 0), (11, 12, 24, 0, 1), (12, 12, 2, 22, 0),
                   (12, 12, 20, 4, 0), (5, 5, 0, 38, 0), (4, 5, 0, 38, 1), (5, 6, 0, 36, 1)):
        b.check_counts(*counts)                                # no error
    b.check_counts(6, 5, 0, 36, 1, leader=1)


def test_a_position_with_a_card_twice_is_refused():
    st = b.random_deal(random.Random(2))
    st.hands[0].add(next(iter(st.hands[1])))
    with pytest.raises(ValueError, match=r"V7\.1"):
        b.check_state(st)


def test_an_illegal_action_changes_nothing():
    st = play(endgame(P("AH QC"), P("7H AS"), tid(C, T)), tid(H, A))
    snapshot = st.clone()
    for action in (("play", next(c for c in st.hands[1] if b.type_of(c) == tid(S, A))),
                   ("meld", ()), ("pass",)):
        with pytest.raises(ValueError):
            b.apply(st, action)
        assert st == snapshot                                  # nothing half-applied


# ----------------------------------------------------------------------------- meld orders
def test_best_meld_order_shows_the_trump_pair_before_its_quint_major():
    quint = P("AC 10C KC QC JC")
    assert b.best_meld_order(quint, C) == (290, ("trump pair", "quint major"))   # V7.3


def test_best_meld_order_shows_eight_kings_at_once_not_a_four_first():
    hand = P("KC KC KS KS KH KH KD KD QS JD QC 7C")
    total, names = b.best_meld_order(hand, C)
    assert total == 10 + 40 + 20 + 800 + 80 and "eight K" in names   # V7.3
    assert "four K" not in names


def test_the_oracle_uses_the_projects_card_encoding():
    from analyzer.mechanics.cards import Card, parse_cards
    from analyzer.mechanics.rules import get_rules
    assert [c.id for c in parse_cards("AC 10S KH QD JS 7H", get_rules("grupp-3"))] == P(
        "AC 10S KH QD JS 7H")                                  # rank 5 is the 7 (V1)
    assert (b.K_S, b.Q_S, b.J_D) == tuple(Card.of(s, r).id for s, r in
                                          (("S", "K"), ("S", "Q"), ("D", "J")))
