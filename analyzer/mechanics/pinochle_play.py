"""Card play of double-deck partnership Pinochle (V6.1, V6.4, V6.5) in numba.

Kernel representation (80-card encoding, cards.py): ``cnt`` = uint8[4, 24] per-seat
counts (0..4), and per seat a *presence* mask (bit t = holds a copy of t); legal sets
are type masks over the presence mask.  Seats 0..3 play in seat order (V6.1: clockwise
from the dealer's left, so seat 3 is the dealer); partners sit opposite, seat ``s`` with
``(s + 2) % 4``, team ``s % 2``.

Duties (V6.4), for a card added to a trick:
1. holding the led suit: play it; when **trump** was led, a trump strictly higher than
   every trump in the trick if one is held (on a plain lead: any card of the suit);
2. else holding trump: any trump (no duty to overtrump a plain lead already trumped);
3. else any card.
Trick winner: the first card that no later card beats (a higher card of its suit, or a
trump on a plain card), so of identical copies the first played wins (V6.4).
Counters (V6.5, from the PinochleKernel) go to the trick's winner, the last trick + 20.
A trick "counts" for V6.3 when it holds a card worth counter points.

Policies
--------
``POLICY_RANDOM`` (0): uniform among the distinct legal types.
``POLICY_TEAM`` (1): the partnership heuristic :func:`team_heuristic`.  It sees only its
own counts, the counts played so far (incl. the current trick), what each seat's plays
proved it does not hold (V6.4 inferences), the trick so far and the bidder's seat.
Partners cooperate: a seat loads counters onto a trick its partner wins safely, does not
overtake a partner's safe winner, and leads a suit its partner is known to ruff.
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.cards import COPIES80, DECK80_TYPES, N_TYPES
from analyzer.mechanics.play import _ctpop, _cttz, beat_table, card_beats, select_bit, suit_mask
from analyzer.mechanics.rng import bounded

POLICY_RANDOM = 0
POLICY_TEAM = 1
POLICY_NAMES80 = {"random": POLICY_RANDOM, "team": POLICY_TEAM}
N_SEATS80 = 4

# trick log columns: leader, 4 cards in play order, the 4 legal masks, winner, points
L_LEADER, L_CARD0, L_LEGAL0, L_WINNER, L_POINTS = 0, 1, 5, 9, 10
L_COLS = 11


def new_deck80() -> np.ndarray:
    """The 80 cards as type ints (uint8[80]), each of DECK80_TYPES four times (V6.1)."""
    return np.repeat(np.array(DECK80_TYPES, dtype=np.uint8), COPIES80)


@njit(_nrt=False)
def deal80(state, deck, cnt):
    """Deal ``deck`` (uint8[80] types, shuffled in place) 20/20/20/20 into ``cnt``.

    A partial Fisher-Yates shuffle of 60 steps: seats 0..2 take positions 0-19, 20-39,
    40-59, seat 3 the unshuffled rest, a uniformly random split (V6.1).
    """
    n = deck.shape[0]
    for i in range(n - 20):
        j = i + bounded(state, n - i)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
    for p in range(4):
        for t in range(N_TYPES):
            cnt[p, t] = 0
    for i in range(n):
        cnt[i // 20, deck[i]] += 1


@njit(_nrt=False)
def deal80_fixed(state, deck, cnt, seat, hand):
    """Deal the unseen cards ``deck`` (uint8[60], shuffled in place) to the three seats
    other than ``seat``, which gets ``hand`` (uint8[24]); uniform given ``hand``."""
    n = deck.shape[0]
    for i in range(n - 20):
        j = i + bounded(state, n - i)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
    for p in range(4):
        for t in range(N_TYPES):
            cnt[p, t] = hand[t] if p == seat else 0
    k = 0
    for p in range(4):
        if p == seat:
            continue
        for i in range(20):
            cnt[p, deck[k]] += 1
            k += 1


@njit(_nrt=False)
def legal80(hand, lead_suit, win_card, trump, beat):
    """Legal types (mask) for a follower whose presence mask is ``hand`` (V6.4).

    ``lead_suit``: suit of the led card; ``win_card``: type now winning the trick (on a
    trump lead, the highest trump); ``trump``: 0..3.
    """
    f = hand & suit_mask(lead_suit)
    if f != 0:
        if lead_suit == trump:
            b = f & beat[win_card]
            if b != 0:
                return b
        return f
    t = hand & suit_mask(trump)
    if t != 0:
        return t
    return hand


# --------------------------------------------------------------------------- heuristic

@njit(_nrt=False)
def _unseen_mask(own, played):
    """Types of which a copy may be in another hand (4 - own - played > 0)."""
    m = np.int64(0)
    for t in range(N_TYPES):
        if t % 6 != 5 and own[t] + played[t] < COPIES80:
            m |= np.int64(1) << np.int64(t)
    return m


@njit(_nrt=False)
def _holds_none(ab_p, unseen, s):
    return (unseen & suit_mask(s) & ~ab_p) == 0


@njit(_nrt=False)
def _may_ruff(ab_p, s, unseen, trump):
    """Seat with proven-absent types ``ab_p`` could trump a plain lead of suit ``s``."""
    if s == trump:
        return False
    return _holds_none(ab_p, unseen, s) and not _holds_none(ab_p, unseen, trump)


@njit(_nrt=False)
def _threat(p_ab, c, lead_suit, unseen, trump, beat):
    """A later seat with proven-absent types ``p_ab`` might beat card ``c``, which now
    wins a trick led in ``lead_suit`` (V6.4: it must follow if it can)."""
    s = c // 6
    stronger = (unseen & beat[c] & ~p_ab) != 0
    if s == lead_suit:
        if stronger:
            return True
        return s != trump and _may_ruff(p_ab, lead_suit, unseen, trump)
    # c is a trump on a plain lead: only a seat void in the led suit may overtrump
    return stronger and _holds_none(p_ab, unseen, lead_suit)


@njit(_nrt=False)
def _keep(c, unseen, trump, beat, rs):
    """Future value of keeping card ``c``: trumps are control, a plain master a trick."""
    master = (unseen & beat[c]) == 0
    if c // 6 == trump:
        return 10 + 2 * rs[c] + (6 if master else 0)
    return 16 if master else 0


@njit(_nrt=False)
def _suit_len(own, s):
    n = 0
    for r in range(5):
        n += own[6 * s + r]
    return n


@njit(_nrt=False)
def team_heuristic(seat, legal, k, lead_suit, win_card, win_seat, trick_pts,
                   own, played, ab, trump, bidder, beat, cp, rs):
    """Choose a card type from ``legal`` for ``seat`` from public information only.

    Parameters: ``own`` uint8[24] the seat's counts; ``played`` uint8[24] every card
    played so far (incl. the current trick); ``ab`` int64[4] per seat the types its
    plays proved it lacks (V6.4); ``k`` cards in the trick so far, with its
    ``lead_suit``, ``win_card``, ``win_seat``, ``trick_pts``; ``bidder`` seat (public
    after the auction).  No other hand enters.  Ties go to the lowest type.
    """
    unseen = _unseen_mask(own, played)
    partner = (seat + 2) % 4
    o1 = (seat + 1) % 4
    o3 = (seat + 3) % 4
    my_side_bid = bidder % 2 == seat % 2
    best = -1
    best_score = np.int64(-(1 << 60))
    m = legal
    if k == 0:
        opp_trumps = (not _holds_none(ab[o1], unseen, trump)) or (not _holds_none(ab[o3], unseen, trump))
        while m != 0:
            c = _cttz(m)
            m &= m - 1
            s = c // 6
            pts = cp[c]
            is_tr = s == trump
            master = (unseen & beat[c]) == 0
            ruffed = (not is_tr) and (_may_ruff(ab[o1], s, unseen, trump) or _may_ruff(ab[o3], s, unseen, trump))
            if master and not ruffed:
                if is_tr:
                    score = (4000 if my_side_bid else 2000) + pts if opp_trumps else 500 + pts
                else:
                    score = 3000 + 4 * pts
            else:
                score = 1000 - 8 * pts - 4 * _keep(c, unseen, trump, beat, rs)
                if not is_tr:
                    # lead to the partner's known void: the partner ruffs (V6.4 duty)
                    if _may_ruff(ab[partner], s, unseen, trump) and not ruffed:
                        score += 2000
                    score += 60 * _suit_len(own, s)
            if score > best_score:
                best_score = score
                best = c
        return best
    later1 = k <= 2          # seat + 1 (an opponent) plays after me
    partner_later = k == 1   # the partner plays after me
    # partner's card stays the winner: no later opponent may beat it
    partner_safe = False
    if win_seat == partner:
        partner_safe = True
        if later1 and _threat(ab[o1], win_card, lead_suit, unseen, trump, beat):
            partner_safe = False
    while m != 0:
        c = _cttz(m)
        m &= m - 1
        pts = cp[c]
        kp = _keep(c, unseen, trump, beat, rs)
        wins = card_beats(c, win_card, trump, beat)
        if partner_safe:
            # load counters, do not overtake (an overtaking card is worth its future)
            score = 4 * (pts - kp) - (400 if wins else 0)
        elif wins:
            safe = not (later1 and _threat(ab[o1], c, lead_suit, unseen, trump, beat))
            if safe:
                score = 100000 + 4 * (trick_pts + pts) - 4 * kp
            elif partner_later:
                # an unsafe winner before the partner: leave it to the partner, cheaply
                score = -4 * (pts + kp) - 200
            else:
                score = -4 * (pts + kp) - 50 + (rs[c] if trick_pts > 0 else 0)
        else:
            score = -4 * (pts + kp)
            if partner_later:
                score += 0
        score += _suit_len(own, c // 6)
        if score > best_score:
            best_score = score
            best = c
    return best


# --------------------------------------------------------------------------- core

@njit
def play80_core(cnt, trump, leader, bidder, policies, state, kp, beat, points,
                counting, tricks, log, forced, n_forced):
    """Play a whole 20-trick deal from ``cnt`` (uint8[4, 24], consumed) (V6.4, V6.5).

    ``policies`` int64[4]; ``kp`` the PinochleKernel; ``beat`` from :func:`analyzer.mechanics.play.beat_table`.  OUT (zeroed here):
    ``points`` int64[2] counters per team incl. the last trick, ``counting`` int64[2]
    tricks holding a counter won per team, ``tricks`` int64[2] tricks per team.
    ``log`` int64[20, L_COLS] or empty; ``forced`` the card types of the first
    ``n_forced`` plays (replay).  Returns the number of tricks (20).
    """
    cp = kp.card_points
    rs = kp.rank_strength
    n_tricks = 0
    for t in range(N_TYPES):
        n_tricks += cnt[0, t]
    pres = np.zeros(4, dtype=np.int64)
    for p in range(4):
        for t in range(N_TYPES):
            if cnt[p, t] > 0:
                pres[p] |= np.int64(1) << np.int64(t)
    played = np.zeros(N_TYPES, dtype=np.uint8)
    ab = np.zeros(4, dtype=np.int64)
    for i in range(2):
        points[i] = 0
        counting[i] = 0
        tricks[i] = 0
    do_log = log.shape[0] > 0
    ld = leader
    move = 0
    for trick in range(n_tricks):
        tp = 0
        wcard = -1
        wseat = -1
        lsuit = -1
        for k in range(4):
            seat = (ld + k) % 4
            h = pres[seat]
            if k == 0:
                legal = h
            else:
                legal = legal80(h, lsuit, wcard, trump, beat)
            if move < n_forced:
                c = forced[move]
            elif policies[seat] == POLICY_RANDOM:
                c = select_bit(legal, bounded(state, _ctpop(legal)))
            else:
                c = team_heuristic(seat, legal, k, lsuit, wcard, wseat, tp, cnt[seat],
                                   played, ab, trump, bidder, beat, cp, rs)
            s = c // 6
            if k > 0:
                # what this play proves (V6.4 duties), public
                nv = np.int64(0)
                if s != lsuit:
                    nv = suit_mask(lsuit)
                    if s != trump:
                        nv |= suit_mask(trump)
                elif lsuit == trump and (beat[wcard] >> np.int64(c)) & 1 == 0:
                    nv = beat[wcard]      # did not head the trump lead: no higher trump
                ab[seat] |= nv
            cnt[seat, c] -= 1
            if cnt[seat, c] == 0:
                pres[seat] &= ~(np.int64(1) << np.int64(c))
            played[c] += 1
            if k == 0:
                wcard = c
                wseat = seat
                lsuit = s
            elif card_beats(c, wcard, trump, beat):
                wcard = c
                wseat = seat
            tp += cp[c]
            if do_log:
                log[trick, L_CARD0 + k] = c
                log[trick, L_LEGAL0 + k] = legal
            move += 1
        has_counter = tp > 0
        if trick == n_tricks - 1:
            tp += kp.last_trick_bonus   # V6.5
        team = wseat % 2
        points[team] += tp
        tricks[team] += 1
        if has_counter:
            counting[team] += 1
        if do_log:
            log[trick, L_LEADER] = ld
            log[trick, L_WINNER] = wseat
            log[trick, L_POINTS] = tp
        ld = wseat
    return n_tricks


@njit
def play_out80(hands, trump, leader, bidder, policies, state, kp, points, counting, tricks):
    """Play one deal from ``hands`` (uint8[4, 24], not modified); see :func:`play80_core`."""
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kp, beat)
    cnt = hands.copy()
    return play80_core(cnt, trump, leader, bidder, policies, state, kp, beat, points,
                       counting, tricks, np.zeros((0, L_COLS), dtype=np.int64),
                       np.zeros(0, dtype=np.int64), 0)


@njit
def play_out80_logged(hands, trump, leader, bidder, policies, state, kp, points, counting,
                      tricks, log, forced, n_forced):
    """:func:`play_out80` writing the trick log and replaying ``forced`` plays first."""
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kp, beat)
    cnt = hands.copy()
    return play80_core(cnt, trump, leader, bidder, policies, state, kp, beat, points,
                       counting, tricks, log, forced, n_forced)
