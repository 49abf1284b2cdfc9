"""Card play of the four-handed team games (V1, V4.5, V5.6, V6.4) in numba.

Kernel representation: ``cnt`` = uint8[4, 24] per-seat counts of the card types of
cards.py (0..2 in the 48- and 40-card decks, 0..4 in the 80-card deck), and per seat a
*presence* mask (bit t = holds a copy of t); legal sets are type masks over it.  Seats
0..3 play in seat order; partners sit opposite, seat ``s`` with ``(s + 2) % 4``, team
``s % 2``.  Everything a variant changes comes from its compiled :class:`TeamKernel`
(analyzer.mechanics.rules: card points, rank order, copies per type, the duty
table); kernels never see a variant's name.

Duties (``kp.duty``), for a card added to a trick:

- ``DUTY_R6`` (``kreuz-48``, V4.5): R6 - follow suit and beat the trick's winning card if
  a card of the led suit can; else trump, overtrump if the trick is trumped and one can,
  else undertrump; else free.  The duties hold while the partner wins the trick.
- ``DUTY_V56`` (``kreuz-40``, V5.6): follow suit and beat the highest card of the led suit
  even when the trick is already trumped; without it, trump and beat the highest trump
  if possible; else free.  With ``kp.partner_relief`` the beat and trump duties are lifted
  while the partner is winning the trick (following suit stays).
- ``DUTY_V64`` (``pinochle-80``, V6.4): follow suit; on a trump lead a trump strictly
  higher than every trump in the trick if one is held; without the led suit any trump
  (no overtrump duty on a plain lead); else free.

The play loops (:func:`play_team_core`, :func:`play_team_durch`) run on the one trick
step of analyzer.mechanics.trick, as every game will (issue 24); :func:`legal_team` and
:func:`legal80` stay as this engine's duty tables, cross-checked against ``trick.legal``
(tests/mechanics/test_trick.py), until this module goes.

Trick winner (all games): the first card that no later card beats (a higher card of its
suit, or a trump on a plain card), so of identical copies the first played wins.
Card points go to the trick's winner, the last trick + ``kp.last_trick_bonus``.  A trick
"counts" for V6.3 when it holds a card worth points.
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.cards import COPIES80, DECK80_TYPES, N_TYPES
from analyzer.kernels.bits import ctpop, cttz, select_bit
from analyzer.mechanics.play import beat_table, card_beats, suit_mask

from analyzer.mechanics.rng import bounded, next_u64
from analyzer.mechanics.ruleset import BEAT_LED_HIGH, BEAT_TRUMP_LEAD, BEAT_WINNER, SIDES_PARTNERS
from analyzer.mechanics.sampling import shuffle_prefix
from analyzer.mechanics.trick import add_card, close_trick, proves, relief_of, sides_of
from analyzer.mechanics.trick import legal as step_legal
from analyzer.mechanics.worlds import draw_world, sample_setup

DUTY_R6, DUTY_V56, DUTY_V64 = 0, 1, 2

POLICY_RANDOM = 0
POLICY_TEAM = 1
#: PIMC (analyzer.mechanics.worlds + team-policy play-outs, :func:`team_pimc_choose`); a
#: seat's policy int is ``POLICY_PIMC | worlds << 8`` (:func:`pimc_policy`)
POLICY_PIMC = 2
#: PIMC where the seat defends (not on the bidder's side, V1), else the team policy: one
#: policy array serves every soloist (``POLICY_PIMC_DEFENCE | worlds << 8``)
POLICY_PIMC_DEFENCE = 3
#: worlds per PIMC decision in the analyses (as the three-player games' PLAY_SAMPLES)
PLAY_WORLDS = 20
POLICY_NAMES80 = {"random": POLICY_RANDOM, "team": POLICY_TEAM}
N_SEATS80 = 4

# trick log columns: leader, 4 cards in play order, the 4 legal masks, winner, points
L_LEADER, L_CARD0, L_LEGAL0, L_WINNER, L_POINTS = 0, 1, 5, 9, 10
L_COLS = 11


def pimc_policy(worlds: int) -> int:
    """The policy int of a PIMC seat with ``worlds`` worlds per decision (1..10**6)."""
    return POLICY_PIMC | (int(worlds) << 8)


def play_policies(play: int, worlds: int = PLAY_WORLDS) -> np.ndarray:
    """int64[4] seat policies of a whole-deal play mode (analyzer.search.pimc's codes:
    1 heuristic, 2 pimc = PIMC at every seat, 3 pimc-defence = PIMC for the side that
    does not hold the contract, the team policy for the soloist's side)."""
    if play == 2:
        return np.full(4, pimc_policy(worlds), dtype=np.int64)
    if play == 3:
        return np.full(4, POLICY_PIMC_DEFENCE | (int(worlds) << 8), dtype=np.int64)
    return np.full(4, POLICY_TEAM, dtype=np.int64)


def new_deck80() -> np.ndarray:
    """The 80 cards as type ints (uint8[80]), each of DECK80_TYPES four times (V6.1)."""
    return np.repeat(np.array(DECK80_TYPES, dtype=np.uint8), COPIES80)


@njit(_nrt=False)
def deal_team(state, deck, cnt, hand_size):
    """Deal ``deck`` (uint8[n] card types, shuffled in place) into ``cnt``.

    Seats 0..3 get ``hand_size`` cards each (rows 0-3), the rest is the Dabb (row 4, when
    ``cnt`` has five rows; V4.1, V5.1: 11 + 4 and 9 + 4; V6.1: 20 + 0).  A partial
    Fisher-Yates shuffle (analyzer.mechanics.sampling.shuffle_prefix, exact batched
    draws): seats 0-2 and the Dabb take the first positions, seat 3 the unshuffled rest,
    a uniformly random split.
    """
    n = deck.shape[0]
    shuffle_prefix(state, deck, n - hand_size)
    for p in range(cnt.shape[0]):
        for t in range(N_TYPES):
            cnt[p, t] = 0
    h3 = 3 * hand_size
    dabb_end = n - hand_size
    for i in range(n):
        if i < h3:
            cnt[i // hand_size, deck[i]] += 1
        elif i < dabb_end:
            cnt[4, deck[i]] += 1
        else:
            cnt[3, deck[i]] += 1


@njit(_nrt=False)
def deal80(state, deck, cnt):
    """The 80-card deal of V6.1: 20/20/20/20 into ``cnt`` (uint8[4, 24])."""
    deal_team(state, deck, cnt, 20)


@njit(_nrt=False)
def deal_team_fixed(state, deck, cnt, seat, hand, hand_size):
    """Deal the unseen cards ``deck`` (shuffled in place): ``hand_size`` to each seat other
    than ``seat``, which gets ``hand`` (uint8[24]); the rest to the Dabb (row 4, when
    ``cnt`` has five rows).  Uniform given ``hand``."""
    n = deck.shape[0]
    shuffle_prefix(state, deck, n - 1)
    for p in range(cnt.shape[0]):
        for t in range(N_TYPES):
            cnt[p, t] = hand[t] if p == seat else 0
    k = 0
    for p in range(4):
        if p == seat:
            continue
        for i in range(hand_size):
            cnt[p, deck[k]] += 1
            k += 1
    while k < n:
        cnt[4, deck[k]] += 1
        k += 1


@njit(_nrt=False)
def deal80_fixed(state, deck, cnt, seat, hand):
    """:func:`deal_team_fixed` for the 80-card deal (no Dabb)."""
    deal_team_fixed(state, deck, cnt, seat, hand, 20)


@njit(_nrt=False)
def legal80(hand, lead_suit, win_card, trump, beat):
    """Legal types (mask) under V6.4 for a follower with presence mask ``hand``.

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


@njit(_nrt=False)
def legal_team(hand, lead_suit, win_card, best_led, trump, beat, duty, relief):
    """Legal types (mask) for a follower with presence mask ``hand`` under ``duty``.

    ``win_card``: type now winning the trick; ``best_led``: the highest card of the led
    suit in the trick; ``relief``: the partner is winning and the variant lifts the beat
    and trump duties then (V5.6).  See the module docstring for the three duty tables.
    """
    if duty == DUTY_V64:
        return legal80(hand, lead_suit, win_card, trump, beat)
    f = hand & suit_mask(lead_suit)
    if f != 0:
        if relief:
            return f
        if duty == DUTY_V56:
            b = f & beat[best_led]          # beat the led suit's best even when trumped
        elif win_card // 6 == lead_suit:
            b = f & beat[win_card]          # R6: beat the winner if a led-suit card can
        else:
            b = np.int64(0)                 # R6: trick trumped, no led-suit card beats
        return b if b != 0 else f
    if relief:
        return hand
    t = hand & suit_mask(trump)
    if t != 0:
        if win_card // 6 == trump:
            b = t & beat[win_card]          # overtrump if possible (R6, V5.6)
            if b != 0:
                return b
        return t
    return hand


# --------------------------------------------------------------------------- heuristic

@njit(_nrt=False)
def _unseen_mask(own, played, copies):
    """Types of which a copy may be in another hand (copies - own - known > 0)."""
    m = np.int64(0)
    for t in range(N_TYPES):
        if own[t] + played[t] < copies[t]:
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
                   own, played, ab, trump, bidder, beat, cp, rs, copies):
    """Choose a card type from ``legal`` for ``seat`` from public information only.

    Parameters: ``own`` uint8[24] the seat's counts; ``played`` uint8[24] the cards it
    knows are out of the other hands (played so far incl. the current trick, and for the
    soloist its discard); ``ab`` int64[4] per seat the types its plays proved it lacks;
    ``copies`` the deck's copies per type; ``k`` cards in the trick so far, with its
    ``lead_suit``, ``win_card``, ``win_seat``, ``trick_pts``; ``bidder`` seat (public
    after the auction).  No other hand enters.  Ties go to the lowest type.
    """
    unseen = _unseen_mask(own, played, copies)
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
            c = cttz(m)
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
        c = cttz(m)
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


# --------------------------------------------------------------------------- PIMC

@njit
def _team_rollout(cnt, pres, seat, first, ld, k, lsuit, wcard, wseat, best_led, tp, played,
                  ab, trump, bidder, kp, beat, bm, ot, pr, me):
    """Play one world out from the trick in progress after ``seat`` plays ``first``,
    every seat by :func:`team_heuristic` (the world's hands as its own, ``played`` and
    ``ab`` the public record, both updated here); returns the card points (incl. the
    last trick) that side ``me`` takes from the current trick on (V1: seat % 2)."""
    cp = kp.card_points
    rs = kp.rank_strength
    copies = kp.copies
    side = _SIDES4
    pts = np.zeros(2, dtype=np.int64)
    trk = np.zeros(2, dtype=np.int64)
    cnt_side = np.zeros(2, dtype=np.int64)
    kk = k
    s = seat
    c = first
    while True:
        # play c by s
        rel = relief_of(s, wseat, side, pr)
        if kk > 0:
            ab[s] |= proves(c, lsuit, wcard, best_led, trump, beat, 1, 1, bm, ot, rel)
        cnt[s, c] -= 1
        if cnt[s, c] == 0:
            pres[s] &= ~(np.int64(1) << np.int64(c))
        played[c] += 1
        lsuit, wcard, wseat, best_led = add_card(c, s, lsuit, wcard, wseat, best_led, trump, beat)
        tp += cp[c]
        kk += 1
        if kk == 4:
            last = pres[0] == 0 and pres[1] == 0 and pres[2] == 0 and pres[3] == 0
            close_trick(wseat, tp, last, kp.last_trick_bonus, side, pts, trk, cnt_side)
            if last:
                break
            ld = wseat
            kk = 0
            tp = 0
            lsuit = -1
            wcard = -1
            wseat = -1
            best_led = -1
        s = (ld + kk) % 4
        rel = relief_of(s, wseat, side, pr)
        lg = step_legal(pres[s], lsuit, wcard, best_led, trump, beat, 1, 1, bm, ot, rel)
        c = team_heuristic(s, lg, kk, lsuit, wcard, wseat, tp, cnt[s], played, ab, trump,
                           bidder, beat, cp, rs, copies)
    return pts[me]


@njit
def team_pimc_choose(seat, legal, k, ld, lsuit, wcard, wseat, best_led, tp, own, played, ab,
                     trump, bidder, known_disc, n_worlds, state, kp, beat, bm, ot, pr, acc):
    """PIMC choice of a card type for ``seat`` at a partners' table from its knowledge only.

    Knowledge (the only inputs): ``own`` uint8[24] its hand; ``played`` uint8[24] every
    card played so far (the current trick's included); ``ab`` int64[4] what each seat's
    plays proved (trick.proves); ``known_disc`` uint8[24] its own discard if it is the
    bidder (zeros otherwise: the discard, ``kp.dabb_size`` cards, is then a hidden place);
    the trick in progress (``ld`` leader, ``k`` cards, ``lsuit``, ``wcard``/``wseat``,
    ``best_led``, ``tp``) and the bidder.  Hand sizes follow from the trick.
    ``n_worlds`` worlds from analyzer.mechanics.worlds (exactly uniform among the
    consistent deals); each legal card is followed in each world by a play-out with
    :func:`team_heuristic` at every seat; value = the card points the seat's side (V1)
    takes from this trick on, averaged; the best mean wins, ties to the lowest type.
    ``acc`` float64[24] (written: the mean per legal card).
    """
    for t in range(N_TYPES):
        acc[t] = 0.0
    if ctpop(legal) == 1:
        return cttz(legal)
    r = 0
    for t in range(N_TYPES):
        r += own[t]
    room = np.zeros(5, dtype=np.int64)
    places = np.int64(0)
    for i in range(4):
        q = (ld + i) % 4
        if q == seat:
            continue
        room[q] = r - 1 if i < k else r
        places |= np.int64(1) << np.int64(q)
    if seat != bidder and kp.dabb_size > 0:
        room[4] = kp.dabb_size
        places |= np.int64(1) << np.int64(4)
    unseen = np.zeros(N_TYPES, dtype=np.int64)
    for t in range(N_TYPES):
        unseen[t] = kp.copies[t] - own[t] - played[t] - known_disc[t]
    absent = np.zeros(5, dtype=np.int64)
    for q in range(4):
        absent[q] = ab[q]
    shown = np.zeros((5, N_TYPES), dtype=np.int64)
    public = np.zeros(N_TYPES, dtype=np.int64)
    g_type, act, sp, wt, nsp, room_c, tab = sample_setup(
        unseen, shown, public, absent, places, np.int64(0), room)
    wc = np.zeros((5, N_TYPES), dtype=np.int64)
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    pres = np.zeros(4, dtype=np.int64)
    pl = np.zeros(N_TYPES, dtype=np.uint8)
    ab2 = np.zeros(4, dtype=np.int64)
    me = seat % 2
    done = 0
    for _ in range(n_worlds):
        for q in range(5):
            for t in range(N_TYPES):
                wc[q, t] = 0
        if not draw_world(state, g_type, act, sp, wt, nsp, room_c, tab, wc):
            continue
        done += 1
        for t in range(N_TYPES):
            wc[seat, t] = own[t]
        m = legal
        while m != 0:
            c = cttz(m)
            m &= m - 1
            for q in range(4):
                pres[q] = 0
                ab2[q] = ab[q]
                for t in range(N_TYPES):
                    cnt[q, t] = wc[q, t]
                    if wc[q, t] > 0:
                        pres[q] |= np.int64(1) << np.int64(t)
            for t in range(N_TYPES):
                pl[t] = played[t]
            acc[c] += _team_rollout(cnt, pres, seat, c, ld, k, lsuit, wcard, wseat, best_led,
                                    tp, pl, ab2, trump, bidder, kp, beat, bm, ot, pr, me)
    if done == 0:
        return cttz(legal)
    best = -1
    bv = 0.0
    m = legal
    while m != 0:
        c = cttz(m)
        m &= m - 1
        acc[c] /= done
        if best < 0 or acc[c] > bv:
            best = c
            bv = acc[c]
    return best


@njit(_nrt=False)
def _derived_state(state, out):
    """A PIMC stream derived from ``state`` without advancing it (splitmix64's finalizer
    per word), so the deal's own draws are those of a run without PIMC."""
    for q in range(4):
        x = state[q] + np.uint64(0x9E3779B97F4A7C15) * np.uint64(q + 1)
        x ^= x >> np.uint64(30)
        x *= np.uint64(0xBF58476D1CE4E5B9)
        x ^= x >> np.uint64(27)
        x *= np.uint64(0x94D049BB133111EB)
        x ^= x >> np.uint64(31)
        out[q] = x
    if out[0] == 0 and out[1] == 0 and out[2] == 0 and out[3] == 0:
        out[0] = np.uint64(1)
    next_u64(out)


# --------------------------------------------------------------------------- core

#: the side of each seat at a partners' table, ``trick.sides_of(SIDES_PARTNERS, ...)``: a
#: global array is a compile-time constant to numba, so the loops allocate nothing for it
_SIDES4 = np.empty(4, dtype=np.int64)
sides_of(SIDES_PARTNERS, np.zeros(4, dtype=np.int64), -1, _SIDES4)


@njit(_nrt=False)
def _duty_of(duty):
    """``(beat_mode, overtrump)`` of the trick step (analyzer.mechanics.trick) for a
    TeamKernel ``duty``: R6 beat the winner and overtrump, V5.6 beat the led suit's
    highest and overtrump, V6.4 head a trump lead only, no overtrump.  Transitional: goes
    when callers pass the one compiled Kernel (ruleset.Kernel.beat_mode / overtrump)."""
    if duty == DUTY_V64:
        return BEAT_TRUMP_LEAD, 0
    if duty == DUTY_V56:
        return BEAT_LED_HIGH, 1
    return BEAT_WINNER, 1


@njit
def play_team_core(cnt, trump, leader, bidder, policies, state, kp, beat, discard, points,
                   counting, tricks, log, forced, n_forced):
    """Play a whole deal from ``cnt`` (uint8[4, 24], consumed) under ``kp``'s duties.

    ``policies`` int64[4]; ``kp`` the TeamKernel; ``beat`` from
    :func:`analyzer.mechanics.play.beat_table`; ``discard`` uint8[24] the bidder's
    discard (known to the bidder only; zeros without a Dabb).  OUT (zeroed here):
    ``points`` int64[2] card points per team incl. the last trick (no discard),
    ``counting`` int64[2] tricks holding a card worth points won per team, ``tricks``
    int64[2] tricks per team.  ``log`` int64[n_tricks, L_COLS] or empty; ``forced`` the
    card types of the first ``n_forced`` plays (replay).  Returns the number of tricks.

    Every trick runs on the one trick step of analyzer.mechanics.trick (legal cards,
    proofs, winner, points to the side ``seat % 2``), as every game's playout does.
    """
    cp = kp.card_points
    rs = kp.rank_strength
    copies = kp.copies
    bm, ot = _duty_of(kp.duty)
    pr = kp.partner_relief
    side = _SIDES4                  # V1: partners opposite (a constant: no allocation per deal)
    n_tricks = 0
    for t in range(N_TYPES):
        n_tricks += cnt[0, t]
    pres = np.zeros(4, dtype=np.int64)
    for p in range(4):
        for t in range(N_TYPES):
            if cnt[p, t] > 0:
                pres[p] |= np.int64(1) << np.int64(t)
    played = np.zeros(N_TYPES, dtype=np.uint8)
    known_b = discard.copy()      # what the bidder knows is out: played + its discard
    ab = np.zeros(4, dtype=np.int64)
    for i in range(2):
        points[i] = 0
        counting[i] = 0
        tricks[i] = 0
    do_log = log.shape[0] > 0
    ld = leader
    move = 0
    ps = np.zeros(4, dtype=np.uint64)      # PIMC's stream (derived at its first decision)
    have_ps = False
    no_disc = np.zeros(N_TYPES, dtype=np.uint8)
    acc = np.zeros(N_TYPES, dtype=np.float64)
    for trick in range(n_tricks):
        tp = 0
        wcard = -1
        wseat = -1
        lsuit = -1
        best_led = -1
        for k in range(4):
            seat = (ld + k) % 4
            rel = relief_of(seat, wseat, side, pr)
            legal = step_legal(pres[seat], lsuit, wcard, best_led, trump, beat, 1, 1, bm, ot, rel)
            if move < n_forced:
                c = forced[move]
            elif policies[seat] == POLICY_RANDOM:
                c = select_bit(legal, bounded(state, ctpop(legal)))
            elif ((policies[seat] & 255) == POLICY_PIMC
                  or ((policies[seat] & 255) == POLICY_PIMC_DEFENCE and seat % 2 != bidder % 2)):
                if not have_ps:
                    _derived_state(state, ps)
                    have_ps = True
                c = team_pimc_choose(seat, legal, k, ld, lsuit, wcard, wseat, best_led, tp,
                                     cnt[seat], played, ab, trump, bidder,
                                     discard if seat == bidder else no_disc,
                                     policies[seat] >> 8, ps, kp, beat, bm, ot, pr, acc)
            else:
                c = team_heuristic(seat, legal, k, lsuit, wcard, wseat, tp, cnt[seat],
                                   known_b if seat == bidder else played, ab, trump, bidder,
                                   beat, cp, rs, copies)
            if k > 0:
                # what this play proves under the duties (public)
                ab[seat] |= proves(c, lsuit, wcard, best_led, trump, beat, 1, 1, bm, ot, rel)
            cnt[seat, c] -= 1
            if cnt[seat, c] == 0:
                pres[seat] &= ~(np.int64(1) << np.int64(c))
            played[c] += 1
            known_b[c] += 1
            lsuit, wcard, wseat, best_led = add_card(c, seat, lsuit, wcard, wseat, best_led,
                                                     trump, beat)
            tp += cp[c]
            if do_log:
                log[trick, L_CARD0 + k] = c
                log[trick, L_LEGAL0 + k] = legal
            move += 1
        tp = close_trick(wseat, tp, trick == n_tricks - 1, kp.last_trick_bonus, side, points,
                         tricks, counting)
        if do_log:
            log[trick, L_LEADER] = ld
            log[trick, L_WINNER] = wseat
            log[trick, L_POINTS] = tp
        ld = wseat
    return n_tricks


@njit
def play80_core(cnt, trump, leader, bidder, policies, state, kp, beat, points,
                counting, tricks, log, forced, n_forced):
    """:func:`play_team_core` without a discard (the 80-card game has no Dabb)."""
    return play_team_core(cnt, trump, leader, bidder, policies, state, kp, beat,
                          np.zeros(N_TYPES, dtype=np.uint8), points, counting, tricks, log,
                          forced, n_forced)


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


@njit
def play_team_logged(hands, trump, leader, bidder, policies, state, kp, discard, points,
                     counting, tricks, log, forced, n_forced):
    """:func:`play_team_core` from ``hands`` (not modified) with a trick log and replay."""
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kp, beat)
    cnt = hands.copy()
    return play_team_core(cnt, trump, leader, bidder, policies, state, kp, beat, discard,
                          points, counting, tricks, log, forced, n_forced)


# --------------------------------------------------------------------------- Durch

#: the trump argument of a Durch (R4: no trump): a suit index no card has, so
#: ``suit_mask(NO_TRUMP)`` holds no type and no card is ever a trump
NO_TRUMP = 4


@njit(_nrt=False)
def _lowest(m, rs):
    """The type of mask ``m`` with the lowest rank strength (ties: the lowest type)."""
    best = -1
    while m != 0:
        c = cttz(m)
        m &= m - 1
        if best < 0 or rs[c] < rs[best]:
            best = c
    return best


@njit
def play_team_durch(cnt, soloist, kp, beat, discard, log):
    """Play a Durch of a Binokel team game (V4.6 "Durch as V2.7", R4) from ``cnt``
    (uint8[4, 24], consumed); returns the tricks the soloist won before the first trick
    it did not win (a made Durch = all ``kp.hand_size`` tricks).

    Rules: no trump (R4); the soloist leads the first trick and, while the Durch stands,
    every trick; the duties are the game's (``kp.duty``, V4.5: R6, and they hold while the
    partner is winning the trick: a partner holding a led-suit card that beats the
    soloist's must play one).  **Reading** (V4.6): the soloist must win every trick
    himself, so the first trick the partner or an opponent wins ends play at once and the
    Durch has failed.

    Policies (public information only; deterministic): the soloist leads a card no unseen
    card can beat (its discard counts as seen), else the one with the fewest unseen
    stronger types (ties: the lowest type); the partner plays a legal card that does not
    take the trick if it has one, the lowest; an opponent takes the trick if a legal card
    can, else plays its lowest legal card.  ``log`` int64[n, L_COLS] or empty: the tricks
    played (leader, cards, legal masks, winner, points).
    """
    rs = kp.rank_strength
    copies = kp.copies
    cp = kp.card_points
    n_tricks = 0
    for t in range(N_TYPES):
        n_tricks += cnt[soloist, t]
    pres = np.zeros(4, dtype=np.int64)
    for p in range(4):
        for t in range(N_TYPES):
            if cnt[p, t] > 0:
                pres[p] |= np.int64(1) << np.int64(t)
    known = discard.copy()          # what the soloist knows is out: its discard + played
    partner = (soloist + 2) % 4
    bm, ot = _duty_of(kp.duty)
    side = _SIDES4
    do_log = log.shape[0] > 0
    won = 0
    for trick in range(n_tricks):
        wcard = -1
        wseat = -1
        lsuit = -1
        best_led = -1
        tp = 0
        for k in range(4):
            seat = (soloist + k) % 4
            h = pres[seat]
            if k == 0:
                legal = h
                unseen = _unseen_mask(cnt[soloist], known, copies)
                c = -1
                nbest = 99
                m = legal
                while m != 0:
                    q = cttz(m)
                    m &= m - 1
                    nq = ctpop(unseen & beat[q])
                    if nq < nbest:
                        nbest = nq
                        c = q
            else:
                rel = relief_of(seat, wseat, side, kp.partner_relief)
                legal = step_legal(h, lsuit, wcard, best_led, NO_TRUMP, beat, 1, 1, bm, ot, rel)
                takes = legal & beat[wcard]
                if seat == partner:
                    c = _lowest(legal & ~takes, rs) if (legal & ~takes) != 0 else _lowest(legal, rs)
                else:
                    c = _lowest(takes, rs) if takes != 0 else _lowest(legal, rs)
            cnt[seat, c] -= 1
            if cnt[seat, c] == 0:
                pres[seat] &= ~(np.int64(1) << np.int64(c))
            known[c] += 1
            lsuit, wcard, wseat, best_led = add_card(c, seat, lsuit, wcard, wseat, best_led,
                                                     NO_TRUMP, beat)
            tp += cp[c]
            if do_log:
                log[trick, L_CARD0 + k] = c
                log[trick, L_LEGAL0 + k] = legal
        if do_log:
            log[trick, L_LEADER] = soloist
            log[trick, L_WINNER] = wseat
            log[trick, L_POINTS] = tp
        if wseat != soloist:
            break                   # V4.6 Reading / R4: the first trick lost ends the Durch
        won += 1
    return won


@njit
def play_team_durch_logged(hands, soloist, kp, discard, log):
    """:func:`play_team_durch` from ``hands`` (not modified) with a trick log."""
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kp, beat)
    cnt = hands.copy()
    return play_team_durch(cnt, soloist, kp, beat, discard, log)
