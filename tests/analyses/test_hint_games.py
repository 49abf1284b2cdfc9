"""``hint`` (issue 27) in the games beyond binokel-48: binokel-40 (three hands, a 40-card
deck and a 4-card Dabb, V1) and the partners' games kreuz-48 and pinochle-80 (V1: the
soloist's side counts together).  With every hand known its double-dummy values are
``binokel solve --rules NAME``'s; with hidden hands its best card is PIMC's choice on the
same worlds; it does not change when the hidden hands are dealt otherwise (honesty)."""
from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from analyzer.analyses.hint import (_planes, _trick_state, hint, legal_cards,
                                    view_from_record, world_values)
from analyzer.mechanics.cards import N_TYPES, card_code
from analyzer.mechanics.play import beat_table
from analyzer.mechanics.record import check_deal, hide
from analyzer.search.record_play import play_record
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import get_rules, team_kernel
from analyzer.mechanics.ruleset import GAMES, SIDES_PARTNERS
from analyzer.mechanics.trick import duty_modes
from analyzer.search.pimc import pimc_choose_partners
from analyzer.mechanics.worlds import draw_world, sample_setup
from analyzer.search.pimc import pimc_choose
from analyzer.search.solve import W_SIZE, init_workspace, new_table, set_context
from analyzer.search.solve_any import card_values, world_workspace
from tests.cli.test_cli import run

GAMES_NOW = ["binokel-40", "kreuz-48", "pinochle-80"]


def _deal(name):
    return play_record(name, seed=1, trump=0)       # binokel play --rules NAME --seed 1


def _late(deal, side_of_soloist=None, max_left=3):
    """(trick, card) of the first decision with at most ``max_left`` tricks left and two
    legal cards (of the soloist's side when ``side_of_soloist``, else of the other)."""
    r = deal.rules
    n = r.table.hand_size
    for t in range(n - max_left + 1, n + 1):
        for c in range(1, r.kernel.n_play + 1):
            v = view_from_record(deal, t, c)
            own_side = (v.seat % 2 == v.soloist % 2 if r.kernel.side_rule == SIDES_PARTNERS
                        else v.seat == v.soloist)
            if len(legal_cards(v)) > 1 and (side_of_soloist is None
                                            or own_side == side_of_soloist):
                return t, c
    raise AssertionError("no such position")


def _position_line(v):
    """``binokel solve --position``'s line of a view with every hand known."""
    r = v.rules
    low = r.deck.low_card
    hands = [",".join(card_code(x, low) for x in range(N_TYPES) for _ in range(v.hands[s][x]))
             or "-" for s in range(r.table.seats) if not r.kernel.sits_out[s]]
    trick = ",".join(card_code(x, low) for x in v.trick) or "-"
    return f"{'CSHD'[v.trump]} {v.soloist} {v.leader} {' '.join(hands)} {trick}"


@pytest.mark.parametrize("name", GAMES_NOW)
def test_with_every_hand_known_hint_equals_solve_card_values(name):
    deal = _deal(name)
    t, c = _late(deal, side_of_soloist=True)
    v = view_from_record(deal, t, c)
    h = hint(deal.rules, v, n_worlds=3, seed=1)
    assert h.dd_note == ""
    low = deal.rules.deck.low_card
    r = run("solve", "--rules", name, "--position", _position_line(v), "--json")
    assert r.exit_code == 0, r.output
    moves = json.loads(r.stdout)["moves"]
    assert {card_code(x.card, low): x.dd for x in h.cards} == moves
    hands = [hd or (0,) * N_TYPES for hd in v.hands]
    assert {x.card: x.dd for x in h.cards} == card_values(
        deal.rules, hands, "CSHD"[v.trump], v.soloist, v.leader, v.trick)


@pytest.mark.parametrize("name", GAMES_NOW)
def test_the_other_sides_exact_values_are_the_points_the_soloists_side_does_not_take(name):
    deal = _deal(name)
    t, c = _late(deal, side_of_soloist=False)
    v = view_from_record(deal, t, c)
    h = hint(deal.rules, v, n_worlds=3, seed=1)
    hands = [hd or (0,) * N_TYPES for hd in v.hands]
    sol = card_values(deal.rules, hands, "CSHD"[v.trump], v.soloist, v.leader, v.trick)
    # each card's value + the soloist's side's after it = the points still to take (R7)
    assert len({x.dd + sol[x.card] for x in h.cards}) == 1


def _pimc_choice(v, n, seed):
    """PIMC's own choice (pimc_choose, pimc_choose_partners) from the view's knowledge."""
    r = v.rules
    if r.kernel.side_rule == SIDES_PARTNERS:
        kp = team_kernel(get_rules(r.name))
        beat = np.empty(N_TYPES, dtype=np.int64)
        beat_table(kp, beat)
        bm, ot = duty_modes(kp.duty)
        k, ls, wc, ws, lh, tp = _trick_state(v, beat)
        acc = np.zeros(N_TYPES)
        known = v.discard if v.seat == v.soloist and v.discard else (0,) * N_TYPES
        c = pimc_choose_partners(v.seat, np.int64(sum(1 << x for x in legal_cards(v))), k,
                             v.leader, ls, wc, ws, lh, tp, np.array(v.own, np.uint8),
                             np.array(v.played, np.uint8), np.array(v.absent[:4], np.int64),
                             v.trump, v.soloist, np.array(known, np.uint8), n,
                             chunk_state(seed, 0), kp, beat, bm, ot, kp.partner_relief, acc,
                             4, world_workspace(r, v.trump, v.soloist),   # hint: horizon 4
                             np.array(v.dabb_left, np.int64))             # the face-up Dabb, R4
        return int(c), acc
    flat = get_rules(r.name)
    kr = flat.kernel
    w = np.zeros(W_SIZE, dtype=np.int64)
    init_workspace(w, kr)
    tt = new_table(18)
    set_context(w, v.trump, v.soloist, (1 << 18) - 1)
    k, ls, wc, ws, lh, tp = _trick_state(v, r.kernel.beat)
    lo, hi = _planes(v.own)
    acc = np.zeros(N_TYPES)
    c = pimc_choose(w, tt, kr.rank_strength, kr, v.seat, v.soloist, v.trump, v.leader, k, ls,
                    wc, ws, lh, np.int64(tp), np.int64(lo), np.int64(hi),
                    np.array(v.played, np.int64),
                    np.array(v.discard or (0,) * N_TYPES, np.int64),
                    np.array(v.absent[:3], np.int64), np.zeros((3, N_TYPES), np.int64),
                    np.array(v.dabb_left, np.int64), n, 4, chunk_state(seed, 0), acc)
    return int(c), acc


@pytest.mark.parametrize("name", GAMES_NOW)
@pytest.mark.parametrize("own_side", [True, False])
def test_with_hidden_hands_the_best_card_is_pimcs_choice_on_the_same_worlds(name, own_side):
    deal = _deal(name)
    t, c = _late(deal, side_of_soloist=own_side, max_left=5)
    v = view_from_record(hide(deal, view_from_record(deal, t, c).seat), t, c)
    assert v.hands is None
    h = hint(deal.rules, v, n_worlds=12, horizon=4, seed=5)   # pimc_choose below: horizon 4
    best, acc = _pimc_choice(v, 12, 5)
    assert h.best == best
    assert all(x.n == 12 and x.points_se >= 0 and x.dd is None for x in h.cards)
    if deal.rules.kernel.side_rule == SIDES_PARTNERS:   # the seat's side's mean per card
        for x in h.cards:
            assert x.points == pytest.approx(acc[x.card])
    else:                                               # the soloist's mean per card
        lg, vals, _, _ = world_values(v, 12, 4, 5)
        for x in lg:
            assert vals[:, x].mean() == pytest.approx(acc[x])


def _other_deal(deal, v, seed):
    """Another deal the player at ``v`` cannot tell from ``deal``: the cards it cannot
    see dealt again, exactly uniformly (analyzer.mechanics.worlds), to the hidden seats
    (what their play proved kept, R6) and, unless it is the soloist, the discard (the
    face-up Dabb's copies the soloist has not played with the soloist or in the
    discard, R4); the record cut at the position."""
    r = deal.rules
    kr = r.kernel
    seats = [s for s in range(r.table.seats) if not kr.sits_out[s]]
    slot = r.table.seats                      # the discard's place
    has_dabb = r.dabb.size > 0
    known = v.discard if (v.seat == v.soloist and v.discard) else (0,) * N_TYPES
    unseen = np.array([int(kr.copies[t]) - v.own[t] - v.played[t] - known[t]
                       for t in range(N_TYPES)], np.int64)
    room = np.zeros(slot + 1, np.int64)
    places = 0
    for s in seats:
        if s != v.seat:
            room[s] = v.sizes[s]
            places |= 1 << s
    pub = np.zeros(N_TYPES, np.int64)
    pub_places = 0
    if has_dabb and v.seat != v.soloist:
        room[slot] = r.dabb.size
        places |= 1 << slot
        pub = np.array(v.dabb_left, np.int64)
        pub_places = (1 << v.soloist) | (1 << slot)
    absent = np.zeros(slot + 1, np.int64)
    absent[:r.table.seats] = v.absent
    setup = sample_setup(unseen, np.zeros((slot + 1, N_TYPES), np.int64), pub, absent,
                         np.int64(places), np.int64(pub_places), room)
    wc = np.zeros((slot + 1, N_TYPES), np.int64)
    assert draw_world(chunk_state(seed, 0), *setup, wc)
    played_by = [[0] * N_TYPES for _ in range(r.table.seats)]
    cut = (v.trick_no - 1) * kr.n_play + len(v.trick)
    tricks, n = [], 0
    for ld, cs in deal.tricks:
        keep, s = [], ld
        for x in cs:
            if n == cut:
                break
            played_by[s][x] += 1
            keep.append(x)
            s = int(kr.next_seat[s])
            n += 1
        if keep:
            tricks.append((ld, tuple(keep)))
    hands = list(deal.hands)
    disc = deal.discard
    if has_dabb and v.seat != v.soloist:
        disc = tuple(int(x) for x in wc[slot])
    for s in seats:
        if s == v.seat:
            continue
        h = [int(wc[s, t]) + played_by[s][t] for t in range(N_TYPES)]
        if has_dabb and s == deal.soloist:
            h = [h[t] + disc[t] - deal.dabb[t] for t in range(N_TYPES)]
        hands[s] = tuple(h)
    other = replace(deal, hands=tuple(hands), discard=disc, tricks=tuple(tricks), melds=None,
                    points=None, won=None, score=None)
    check_deal(other)                       # a legal deal: the same play was possible (R6)
    return other


@pytest.mark.parametrize("name", GAMES_NOW)
def test_hint_is_unchanged_when_the_hidden_hands_are_dealt_otherwise(name):
    deal = _deal(name)
    t, c = _late(deal, max_left=4)
    v = view_from_record(deal, t, c)
    other = _other_deal(deal, v, seed=11)
    assert any(other.hands[s] != deal.hands[s] for s in range(len(deal.hands)) if s != v.seat)

    def shown(d):
        out = hint(deal.rules, view_from_record(hide(replace(d, melds=None), v.seat), t, c),
                   8, seed=2).to_dict()
        out.pop("played_in_record")         # the record's next card: after the decision
        return out

    assert shown(other) == shown(deal)


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_of_three_or_four_in_play_is_supported_and_a_stock_game_refused(name):
    from analyzer.analyses.hint import supported
    from analyzer.errors import BinokelError
    r = GAMES[name]
    if r.stock.size:   # binokel-2 (V7): two seats, a stock: valued by analyses.stock_hint instead
        with pytest.raises(BinokelError, match=f"hint: {name} has 2 seats in play") as err:
            supported(r)
        assert "\n" not in str(err.value)
    else:
        supported(r)


@pytest.mark.parametrize("name", ["kreuz-48", "pinochle-80"])
def test_v1_a_partners_hint_reads_the_soloists_team_melds_for_every_soloist_seat(name):
    """V1: a partners' record holds one Melds value per team; the view reads the soloist's
    team's (seat 2 and 3 are teams 0 and 1), for every soloist seat."""
    for sol in range(4):
        deal = play_record(name, seed=2, soloist=sol, trump=1)
        view = view_from_record(deal, 2, 1)
        assert view.melds == deal.melds[sol % 2]
