"""PIMC card play: perfect-information Monte Carlo (as GIB in bridge, Kermit in Skat).

At each decision the player deals the cards it cannot see many times, each time
consistently with what it knows, solves every such *world* with all hands open, and
plays the card with the best mean value (soloist: the most card points for the
soloist; a defender: the fewest).  A world is solved exactly by the double-dummy solver
(:mod:`analyzer.search.solve`) once at most ``horizon`` tricks remain; earlier, each
legal card is followed by a heuristic play-out (:func:`analyzer.mechanics.play._heuristic`
at every seat) in that world.

What the player knows -- the *information set*, the only inputs of :func:`pimc_choose`
(there is no argument through which another hand could reach it):

- its own hand; all cards played so far, the current trick included (R6);
- for each seat the card types its plays proved it does not hold (R6: a void in the
  led suit, and in trump when it did not trump; no card beating the trick's winner when
  it followed or trumped without beating it): :func:`proven_absent`;
- the melds every seat showed before the first lead (R5), less the cards it has played
  since: those cards are still in that hand (:func:`shown_counts`);
- the face-up Tapp (R4): the Tapp cards the soloist has not played are in the soloist's
  hand or in the discard, never with a defender;
- the soloist also knows its discard (R4); a defender deals 3 cards to the discard too.

World sampling.  The 24-type, two-copy deck with its 3-card Tapp (R1, R2: binokel-48,
grupp-3, grupp-4) keeps :func:`sample_world` (the golden pins): shown cards go to their
owner; the other unseen copies go one by one (Tapp copies first, since they have the
fewest places) to a random place allowed for them with room, with probability
proportional to the room left; a dead end restarts (at most 64 times).  This is the usual
PIMC approximation of a uniform draw: exact where only the hand sizes are known (tested),
biased once plays have proved voids (marginals up to 0.15 off, issue 24's report).  Every
other deck (binokel-40: 20 types, a 4-card Dabb, V5.1, V5.3) draws exactly uniform worlds
from the same information set (:func:`exact_setup` / :func:`exact_world` on
analyzer.mechanics.worlds).  At a partners' table (V1: V4-V6) :func:`pimc_choose_partners`
decides with the same sampler, play-outs by the partners' heuristic
(analyzer.mechanics.play.heuristic_partners) and the value of the seat's side, inside
:func:`play_deal_partners` (a deal with a policy per seat on the one trick step);
:func:`resolve_play` accepts every game.

Play policies have one id space for every table: 0 random and 1 the table's heuristic
(analyzer.mechanics.play), :data:`POLICY_PIMC` (2), 3-5 the older three-player
heuristics (play.py), :data:`POLICY_PIMC_DEFENCE` (6, partners' tables).  A PIMC seat of
a partners' table carries its worlds per decision in the bits above 8
(:func:`pimc_policy`).
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.errors import BinokelError
from analyzer.kernels.bits import ctpop, cttz, select_bit
from analyzer.mechanics.cards import N_RANKS, N_SUITS, N_TYPES
from analyzer.mechanics.play import (POLICY_HEURISTIC, POLICY_HEURISTIC_LIN,
                                     POLICY_HEURISTIC_LIN2, POLICY_HEURISTIC_V1, POLICY_RANDOM,
                                     _heuristic, _heuristic_lin, _heuristic_lin2,
                                     _heuristic_melds, _heuristic_v1, _random_pick, card_beats,
                                     legal_mask_duty, play_out, proven_absent)
from analyzer.mechanics.play import beat_table, heuristic_partners
from analyzer.mechanics.playout import L_CARD0, L_LEADER, L_LEGAL0, L_POINTS, L_WINNER
from analyzer.mechanics.playout import SIDES_OF_PARTNERS
from analyzer.mechanics.rng import bounded, derived_state
from analyzer.mechanics.rules import DEFAULT_RULES
from analyzer.mechanics.trick import add_card, close_trick, duty_modes, proves, relief_of
from analyzer.mechanics.trick import legal as step_legal
from analyzer.mechanics.worlds import draw_world, sample_setup
from analyzer.search.solve_any import world_move_values
from analyzer.search.solve import (W_BEAT, W_CP, W_HI, W_LO, W_SIZE, dd_move_values,
                                   init_workspace, set_context, set_hands)

POLICY_PIMC = 2
#: PIMC where the seat defends (not on the bidder's side, V1), else the partners'
#: heuristic: one policy array serves every soloist (``POLICY_PIMC_DEFENCE | worlds << 8``)
POLICY_PIMC_DEFENCE = 6
DEFAULT_SAMPLES = 20
DEFAULT_HORIZON = 6

# Play modes of whole deals (the ``policy`` argument of analyzer.search.deals.finish_deal /
# soloist_outcomes and the analyzer's chunks): 0/1 as analyzer.mechanics.play (random /
# heuristic at every seat); PIMC at every seat; PIMC for the two defenders with the
# heuristic soloist (the "strong defence" the advice is checked against).
PLAY_PIMC = POLICY_PIMC
PLAY_PIMC_DEFENCE = 3
PLAY_NAMES = {"heuristic": POLICY_HEURISTIC, "pimc": PLAY_PIMC, "pimc-defence": PLAY_PIMC_DEFENCE}
# PIMC inside the analyses: 20 worlds per decision, exact search over the last 4 tricks.
# Measured (duplicate, PIMC defenders, n = 150): horizon 4 took as many points as 6 or 8
# (-13.0 +- 1.7 vs -12.5 +- 1.6 / -13.5 +- 1.6) at a quarter of horizon 6's time.
PLAY_SAMPLES = 20
PLAY_HORIZON = 4
PLAY_TT_BITS = 14      # 16k entries (512 KiB) per deal: a 4-trick search never fills it
_SLOT_DISCARD = 3
_MAX_TRIES = 64


@njit(_nrt=False)
def _add(lo, hi, p, t):
    b = np.int64(1) << np.int64(t)
    if lo[p] & b:
        hi[p] |= b
    else:
        lo[p] |= b


@njit(_nrt=False)
def _remove(lo, hi, p, t):
    b = np.int64(1) << np.int64(t)
    if hi[p] & b:
        hi[p] &= ~b
    else:
        lo[p] &= ~b


@njit(_nrt=False)
def _count(lo, hi, p, t):
    return ((lo[p] >> np.int64(t)) & 1) + ((hi[p] >> np.int64(t)) & 1)


@njit
def sample_world(state, seat, soloist, own_lo, own_hi, played, discard, sizes, absent, shown,
                 tapp_left, wlo, whi, cards, allowed):
    """Deal the cards ``seat`` cannot see into a world consistent with its information.

    Inputs are the information set (module docstring): own planes; ``played`` int64[24]
    copies played so far (current trick included); ``discard`` int64[24] the soloist's
    discard (seat == soloist) or zeros; ``sizes`` int64[3] cards in each hand now;
    ``absent`` int64[3] proven-absent type masks; ``shown`` int64[3, 24] shown meld cards
    not played since; ``tapp_left`` int64[24] Tapp copies the soloist has not played.
    OUT: ``wlo``/``whi`` int64[4] planes of seats 0-2 and the discard (slot 3; a
    defender's guess).  ``cards``/``allowed``: int64[48] scratch.  Returns True on
    success (False: no consistent world was found).
    """
    cap = np.zeros(4, dtype=np.int64)
    for q in range(3):
        if q != seat:
            cap[q] = sizes[q]
    defender = seat != soloist
    if defender:
        cap[_SLOT_DISCARD] = 3
    for attempt in range(_MAX_TRIES):
        for q in range(4):
            wlo[q] = 0
            whi[q] = 0
        room = cap.copy()
        wlo[seat] = own_lo
        whi[seat] = own_hi
        n = 0
        ok = True
        for t in range(N_TYPES):
            u = 2 - ((own_lo >> np.int64(t)) & 1) - ((own_hi >> np.int64(t)) & 1) - played[t] - discard[t]
            # shown meld cards: their owner still holds them (R5)
            for q in range(3):
                if q != seat and u > 0:
                    m = min(shown[q, t], u)
                    for _ in range(m):
                        _add(wlo, whi, q, t)
                        room[q] -= 1
                    u -= m
            # Tapp copies: with the soloist or in the discard (R4), never a defender's
            ntapp = 0
            if defender and soloist != seat:
                ntapp = max(0, min(tapp_left[t] - shown[soloist, t], u))
            for i in range(u):
                al = np.int64(0)
                for q in range(3):
                    if q != seat and ((absent[q] >> np.int64(t)) & 1) == 0:
                        al |= np.int64(1) << np.int64(q)
                if defender:
                    al |= np.int64(1) << np.int64(_SLOT_DISCARD)
                if i < ntapp:
                    al &= (np.int64(1) << np.int64(soloist)) | (np.int64(1) << np.int64(_SLOT_DISCARD))
                cards[n] = t
                allowed[n] = al
                n += 1
        for q in range(4):
            if room[q] < 0:
                ok = False
        if not ok:
            return False
        # most constrained first: a random order within the number of allowed places
        order_key = np.empty(n, dtype=np.int64)
        for i in range(n):
            order_key[i] = ctpop(allowed[i]) * 1000000 + bounded(state, 1000000)
        idx = np.argsort(order_key)
        for j in range(n):
            i = idx[j]
            tot = 0
            for q in range(4):
                if (allowed[i] >> np.int64(q)) & 1:
                    tot += room[q]
            if tot <= 0:
                ok = False
                break
            r = bounded(state, tot)
            for q in range(4):
                if (allowed[i] >> np.int64(q)) & 1:
                    if r < room[q]:
                        _add(wlo, whi, q, cards[i])
                        room[q] -= 1
                        break
                    r -= room[q]
        if ok:
            return True
    return False


@njit
def exact_setup(seat, soloist, own_lo, own_hi, played, discard, sizes, absent, shown,
                tapp_left, copies, dabb_size):
    """The exact sampler's groups and table (analyzer.mechanics.worlds.sample_setup) for
    a three-seat table from the information set of :func:`sample_world`: places 0-2 the
    seats, 3 the discard (hidden from a defender, which knows the Tapp face up, R4).
    Returns the setup of analyzer.mechanics.worlds.sample_setup ``(g_type, act, sp, wt,
    nsp, room_c, tab)``."""
    defender = seat != soloist
    unseen = np.zeros(N_TYPES, dtype=np.int64)
    for t in range(N_TYPES):
        unseen[t] = (copies[t] - ((own_lo >> np.int64(t)) & 1) - ((own_hi >> np.int64(t)) & 1)
                     - played[t] - discard[t])
    sh = np.zeros((4, N_TYPES), dtype=np.int64)
    ab = np.zeros(4, dtype=np.int64)
    room = np.zeros(4, dtype=np.int64)
    places = np.int64(0)
    for q in range(3):
        if q != seat:
            for t in range(N_TYPES):
                sh[q, t] = shown[q, t]
            ab[q] = absent[q]
            room[q] = sizes[q]
            places |= np.int64(1) << np.int64(q)
    pub = np.zeros(N_TYPES, dtype=np.int64)
    pub_places = np.int64(0)
    if defender:
        room[_SLOT_DISCARD] = dabb_size
        places |= np.int64(1) << np.int64(_SLOT_DISCARD)
        pub_places = (np.int64(1) << np.int64(soloist)) | (np.int64(1) << np.int64(_SLOT_DISCARD))
        for t in range(N_TYPES):
            pub[t] = tapp_left[t]
    return sample_setup(unseen, sh, pub, ab, places, pub_places, room)


@njit
def exact_world(state, seat, own_lo, own_hi, g_type, act, sp, wt, nsp, room_c, tab, wcnt,
                wlo, whi):
    """One exactly uniform world (analyzer.mechanics.worlds.draw_world) as the planes
    ``wlo``/``whi`` int64[4] of :func:`sample_world` (slot 3: the discard)."""
    for q in range(4):
        for t in range(N_TYPES):
            wcnt[q, t] = 0
    if not draw_world(state, g_type, act, sp, wt, nsp, room_c, tab, wcnt):
        return False
    for q in range(4):
        wlo[q] = 0
        whi[q] = 0
        for t in range(N_TYPES):
            b = np.int64(1) << np.int64(t)
            if wcnt[q, t] >= 1:
                wlo[q] |= b
            if wcnt[q, t] >= 2:
                whi[q] |= b
    wlo[seat] = own_lo
    whi[seat] = own_hi
    return True


@njit
def _rollout(w, rs, kr, leader, k, lsuit, wcard, wseat, lhigh, tp, soloist, trump):
    """Heuristic play-out of the workspace's world from a (possibly mid-trick) node to the
    end: the soloist's card points from the node on (current trick included; R4, R7).

    Every seat plays :func:`~analyzer.mechanics.play._heuristic`; the play-out is an
    evaluation of one world, so its seats take the cards out of all hands as known.
    """
    beat = w[W_BEAT:W_BEAT + N_TYPES]
    cp = w[W_CP:W_CP + N_TYPES]
    lo = w[W_LO:W_LO + 3]
    hi = w[W_HI:W_HI + 3]
    # out of every hand: played or discarded (types with 1 / 2 copies out)
    klo = np.int64(0)
    khi = np.int64(0)
    for t in range(N_TYPES):
        n = 0
        for p in range(3):
            n += ((lo[p] >> np.int64(t)) & 1) + ((hi[p] >> np.int64(t)) & 1)
        if n <= 1:
            klo |= np.int64(1) << np.int64(t)
        if n == 0:
            khi |= np.int64(1) << np.int64(t)
    ab0 = np.int64(0)
    ab1 = np.int64(0)
    ab2 = np.int64(0)
    total = np.int64(0)
    ld = leader
    kk = k
    ls = lsuit
    wc = wcard
    ws = wseat
    lh = lhigh
    blt = kr.beat_led_trumped
    pts = tp
    while True:
        seat = (ld + kk) % 3
        h = lo[seat]
        if h == 0:
            break
        legal = h if kk == 0 else legal_mask_duty(h, ls, wc, lh, trump, beat, blt, 0)
        c = _heuristic(seat, legal, kk, ls, wc, ws, pts, ld, lo[seat], hi[seat], klo, khi,
                       ab0, ab1, ab2, trump, soloist, beat, cp, rs)
        if kk > 0:
            nv = proven_absent(c, ls, wc, lh, trump, beat, blt)
            if seat == 0:
                ab0 |= nv
            elif seat == 1:
                ab1 |= nv
            else:
                ab2 |= nv
        b = np.int64(1) << np.int64(c)
        if hi[seat] & b:
            hi[seat] &= ~b
        else:
            lo[seat] &= ~b
        if klo & b:
            khi |= b
        else:
            klo |= b
        if kk == 0:
            wc = c
            ws = seat
            ls = c // 6
            lh = c
        else:
            if (beat[lh] >> np.int64(c)) & 1:
                lh = c
            if card_beats(c, wc, trump, beat):
                wc = c
                ws = seat
        pts += cp[c]
        kk += 1
        if kk == 3:
            if lo[seat] == 0:
                pts += kr.last_trick_bonus
            if ws == soloist:
                total += pts
            elif trump < 0:
                break   # R4: a Durch ends at the first defender trick
            ld = ws
            kk = 0
            pts = 0
    return total


@njit
def _rollout_after(w, rs, kr, seat, c, leader, k, lsuit, wcard, wseat, lhigh, tp, soloist,
                   trump):
    """:func:`_rollout` after ``seat`` plays ``c`` into the current trick."""
    b = np.int64(1) << np.int64(c)
    if w[W_HI + seat] & b:
        w[W_HI + seat] &= ~b
    else:
        w[W_LO + seat] &= ~b
    beat = w[W_BEAT:W_BEAT + N_TYPES]
    ntp = tp + w[W_CP + c]
    if k == 0:
        return _rollout(w, rs, kr, leader, 1, c // 6, c, seat, c, ntp, soloist, trump)
    nwc = wcard
    nws = wseat
    if card_beats(c, wcard, trump, beat):
        nwc = c
        nws = seat
    nlh = c if (beat[lhigh] >> np.int64(c)) & 1 else lhigh
    if k < 2:
        return _rollout(w, rs, kr, leader, k + 1, lsuit, nwc, nws, nlh, ntp, soloist, trump)
    if w[W_LO + seat] == 0:
        ntp += kr.last_trick_bonus
    if nws == soloist:
        return ntp + _rollout(w, rs, kr, nws, 0, -1, -1, -1, -1, 0, soloist, trump)
    if trump < 0:
        return np.int64(0)
    return _rollout(w, rs, kr, nws, 0, -1, -1, -1, -1, 0, soloist, trump)


@njit
def pimc_worlds(w, tt, rs, kr, seat, soloist, trump, leader, k, lsuit, wcard, wseat, lhigh, tp,
                own_lo, own_hi, legal, played, discard, absent, shown, tapp_left, n_samples,
                horizon, state, vals, disc_lo, disc_hi, world_lo, world_hi):
    """The worlds of a PIMC decision and every legal card's value in each: the whole world
    loop of :func:`pimc_choose` and of ``binokel hint`` (analyzer.analyses.hint) in one
    kernel call.

    Inputs as :func:`pimc_choose` (``legal``: the card types to value, a mask).  Draws up
    to ``n_samples`` worlds from ``state`` (a sampler dead end skips one) and writes, for
    world ``i`` in draw order: ``vals[i, c]`` (float64[n_samples, 24], other entries left
    as they are) the soloist's card points from here on after card ``c`` of ``legal``,
    exact double dummy (:func:`~analyzer.search.solve.dd_move_values`) once at most
    ``horizon`` tricks are left, else a heuristic play-out; ``disc_lo[i]``/``disc_hi[i]``
    the world's discard planes (place 3; zero where the seat knows its own discard);
    ``world_lo[i]``/``world_hi[i]`` (int64[n_samples, 3], or 0 rows: not written) the
    world's hands of seats 0-2 now (``binokel hint`` weights the worlds by the auction
    with them, analyzer.analyses.hint_auction).  Returns the number of worlds drawn."""
    r = ctpop(own_lo) + ctpop(own_hi)
    sizes = np.empty(3, dtype=np.int64)
    for i in range(3):
        q = (leader + i) % 3
        sizes[q] = r - 1 if i < k else r
    wlo = np.zeros(4, dtype=np.int64)
    whi = np.zeros(4, dtype=np.int64)
    cards = np.zeros(48, dtype=np.int64)
    allowed = np.zeros(48, dtype=np.int64)
    out = np.empty(N_TYPES, dtype=np.int64)
    # the deck of R1/R2 (24 types x 2, a 3-card Tapp) keeps its sampler (the golden pins);
    # any other deck (binokel-40: 20 types, a 4-card Dabb) draws exactly uniform worlds
    exact = kr.tapp_size != 3
    for t in range(N_TYPES):
        if kr.copies[t] != 2:
            exact = True
    g_type = np.zeros(0, dtype=np.int64)
    act = np.zeros(1, dtype=np.int64)
    sp = np.zeros((0, 1, 1), dtype=np.int64)
    wt = np.zeros((0, 1), dtype=np.float64)
    nsp = g_type
    room_c = act
    tab = np.zeros((1, 1), dtype=np.float64)
    wcnt = np.zeros((4, N_TYPES), dtype=np.int64)
    if exact:
        g_type, act, sp, wt, nsp, room_c, tab = exact_setup(
            seat, soloist, own_lo, own_hi, played, discard, sizes, absent, shown, tapp_left,
            kr.copies, kr.tapp_size)
    done = 0
    for _ in range(n_samples):
        if exact:
            if not exact_world(state, seat, own_lo, own_hi, g_type, act, sp, wt, nsp, room_c,
                               tab, wcnt, wlo, whi):
                continue
        elif not sample_world(state, seat, soloist, own_lo, own_hi, played, discard, sizes,
                              absent, shown, tapp_left, wlo, whi, cards, allowed):
            continue
        # the world's hands become the table's key basis (a new generation)
        set_hands(w, wlo, whi)
        if r <= horizon:
            dd_move_values(w, tt, leader, k, lsuit, wcard, wseat, lhigh, tp, out)
            m = legal
            while m != 0:
                c = cttz(m)
                m &= m - 1
                vals[done, c] = out[c]
        else:
            m = legal
            while m != 0:
                c = cttz(m)
                m &= m - 1
                for p in range(3):
                    w[W_LO + p] = wlo[p]
                    w[W_HI + p] = whi[p]
                vals[done, c] = _rollout_after(w, rs, kr, seat, c, leader, k, lsuit, wcard,
                                               wseat, lhigh, tp, soloist, trump)
        disc_lo[done] = wlo[_SLOT_DISCARD]
        disc_hi[done] = whi[_SLOT_DISCARD]
        if world_lo.shape[0] > 0:
            for p in range(3):
                world_lo[done, p] = wlo[p]
                world_hi[done, p] = whi[p]
        done += 1
    return done


@njit
def pimc_choose(w, tt, rs, kr, seat, soloist, trump, leader, k, lsuit, wcard, wseat, lhigh, tp,
                own_lo, own_hi, played, discard, absent, shown, tapp_left, n_samples, horizon,
                state, acc):
    """PIMC choice of a card type for ``seat`` from its information set only.

    ``w``/``tt``: a solver workspace and table (:mod:`analyzer.search.solve`; context set
    for this trump and soloist), used for the sampled worlds.  Trick state: ``leader``,
    ``k`` cards, ``lsuit``, ``wcard``/``wseat``, ``lhigh`` (strongest led-suit card),
    ``tp`` points.  Information set: see
    :func:`sample_world`.  ``n_samples`` worlds (:func:`pimc_worlds`); exact solving when
    at most ``horizon`` tricks remain, else heuristic play-outs.  ``acc``: float64[24]
    scratch (mean value per card, written).  Ties go to the lowest card type.
    """
    beat = w[W_BEAT:W_BEAT + N_TYPES]
    legal = own_lo if k == 0 else legal_mask_duty(own_lo, lsuit, wcard, lhigh, trump, beat,
                                                  kr.beat_led_trumped, 0)
    for t in range(N_TYPES):
        acc[t] = 0.0
    if ctpop(legal) == 1:
        return cttz(legal)
    vals = np.zeros((n_samples, N_TYPES), dtype=np.float64)
    dlo = np.empty(n_samples, dtype=np.int64)
    dhi = np.empty(n_samples, dtype=np.int64)
    done = pimc_worlds(w, tt, rs, kr, seat, soloist, trump, leader, k, lsuit, wcard, wseat,
                       lhigh, tp, own_lo, own_hi, legal, played, discard, absent, shown,
                       tapp_left, n_samples, horizon, state, vals, dlo, dhi,
                       np.zeros((0, 3), dtype=np.int64), np.zeros((0, 3), dtype=np.int64))
    for i in range(done):
        m = legal
        while m != 0:
            c = cttz(m)
            m &= m - 1
            acc[c] += vals[i, c]
    return best_mean(acc, legal, done, seat == soloist)


@njit(inline="llvm")
def best_mean(acc, legal, done, maximize):
    """PIMC's choice after ``done`` worlds: ``acc[c]`` (summed over the worlds) becomes the
    mean of each legal card type ``c``, and the card with the highest mean (``maximize``)
    or the lowest wins; ties go to the lowest type.  No world (``done`` 0): the lowest
    legal type.  Shared by the three-player and the partners' PIMC."""
    if done == 0:
        return cttz(legal)
    best = -1
    bv = 0.0
    m = legal
    while m != 0:
        c = cttz(m)
        m &= m - 1
        acc[c] /= done
        if best < 0 or (acc[c] > bv if maximize else acc[c] < bv):
            best = c
            bv = acc[c]
    return best


@njit(_nrt=False)
def _shown_mask(shown, p):
    """Types seat ``p`` showed as melds (R5) and has not played since: ``shown[p] > 0`` as
    a type mask (the ``kso``/``ksp`` input of analyzer.mechanics.play._heuristic_melds)."""
    m = np.int64(0)
    for t in range(N_TYPES):
        if shown[p, t] > 0:
            m |= np.int64(1) << np.int64(t)
    return m


@njit
def play_deal_policies(hands_lo, hands_hi, discard, tapp, shown, trump, soloist, leader,
                       policies, n_samples, horizon, state, w, tt, rs, kr, points, tricks, log):
    """Play one deal (R6, R7; Durch end R4) with a policy per seat: random, heuristic
    (the default heuristic, :func:`~analyzer.mechanics.play._heuristic_melds`, with the same
    inputs as in ``_play_core``: a defender reads the soloist's and its partner's shown,
    unplayed meld cards, R5), heuristic-lin / heuristic-lin2 (POLICY_HEURISTIC_LIN / _LIN2, the
    same inputs),
    heuristic-v1 (POLICY_HEURISTIC_V1, no melds) or PIMC
    (:func:`pimc_choose`).  So heuristic seats here play card for card as
    :func:`~analyzer.mechanics.play.play_out` would (tested).

    ``hands_lo``/``hands_hi`` int64[3]: the hands after the exchange (consumed);
    ``discard`` int64[24]: the soloist's discard; ``tapp`` int64[24]: the face-up Tapp;
    ``shown`` int64[3, 24]: meld cards each seat showed (R5; zeros in a Durch), consumed.
    The driver keeps the true hands; each PIMC seat receives only its information set.
    OUT: ``points``/``tricks`` int64[3] (trick points incl. the last-trick bonus; no
    discard); ``log`` int64[45] the cards in play order (or a shorter array: the first
    ones).  Returns the number of tricks played.
    """
    beat = w[W_BEAT:W_BEAT + N_TYPES]
    cp = w[W_CP:W_CP + N_TYPES]
    lo = hands_lo
    hi = hands_hi
    played = np.zeros(N_TYPES, dtype=np.int64)
    tapp_left = tapp.copy()
    nodisc = np.zeros(N_TYPES, dtype=np.int64)
    absent = np.zeros(3, dtype=np.int64)
    acc = np.zeros(N_TYPES, dtype=np.float64)
    plo = np.int64(0)
    phi = np.int64(0)
    dlo = np.int64(0)
    dhi = np.int64(0)
    for t in range(N_TYPES):
        if discard[t] >= 1:
            dlo |= np.int64(1) << np.int64(t)
        if discard[t] >= 2:
            dhi |= np.int64(1) << np.int64(t)
    for p in range(3):
        points[p] = 0
        tricks[p] = 0
    n_tricks = ctpop(lo[leader]) + ctpop(hi[leader])
    blt = kr.beat_led_trumped
    ld = leader
    for trick in range(n_tricks):
        tp = 0
        wc = -1
        ws = -1
        ls = -1
        lh = -1
        for k in range(3):
            seat = (ld + k) % 3
            pol = policies[seat]
            if pol == POLICY_PIMC:
                c = pimc_choose(w, tt, rs, kr, seat, soloist, trump, ld, k, ls, wc, ws, lh, tp,
                                lo[seat], hi[seat], played,
                                discard if seat == soloist else nodisc, absent, shown,
                                tapp_left, n_samples, horizon, state, acc)
            else:
                legal = lo[seat] if k == 0 else legal_mask_duty(lo[seat], ls, wc, lh, trump, beat,
                                                                blt, 0)
                if pol == POLICY_RANDOM:
                    c = _random_pick(legal, state)
                else:
                    if seat == soloist:
                        klo = plo | dlo
                        khi = phi | dhi | (plo & dlo)
                    else:
                        klo = plo
                        khi = phi
                    if pol == POLICY_HEURISTIC_V1:
                        c = _heuristic_v1(seat, legal, k, ls, wc, ws, tp, ld, lo[seat],
                                          hi[seat], klo, khi, absent[0], absent[1], absent[2],
                                          trump, soloist, beat, cp, rs)
                    else:
                        kso = _shown_mask(shown, soloist) if soloist >= 0 else np.int64(0)
                        ksp = np.int64(0)
                        if soloist >= 0 and seat != soloist:
                            ksp = _shown_mask(shown, 3 - seat - soloist)
                        if pol == POLICY_HEURISTIC_LIN:
                            c = _heuristic_lin(seat, legal, k, ls, wc, ws, tp, ld, lo[seat],
                                               hi[seat], klo, khi, absent[0], absent[1],
                                               absent[2], trump, soloist, beat, cp, rs, kso, ksp)
                        elif pol == POLICY_HEURISTIC_LIN2:
                            c = _heuristic_lin2(seat, legal, k, ls, wc, ws, tp, ld, lo[seat],
                                                hi[seat], klo, khi, absent[0], absent[1],
                                                absent[2], trump, soloist, beat, cp, rs, kso,
                                                ksp)
                        else:
                            c = _heuristic_melds(seat, legal, k, ls, wc, ws, tp, ld, lo[seat],
                                                 hi[seat], klo, khi, absent[0], absent[1],
                                                 absent[2], trump, soloist, beat, cp, rs, kso,
                                                 ksp)
            if k > 0:
                absent[seat] |= proven_absent(c, ls, wc, lh, trump, beat, blt)
            b = np.int64(1) << np.int64(c)
            if hi[seat] & b:
                hi[seat] &= ~b
            else:
                lo[seat] &= ~b
            if plo & b:
                phi |= b
            else:
                plo |= b
            n_played = 3 * trick + k
            if n_played < log.shape[0]:
                log[n_played] = c
            played[c] += 1
            if shown[seat, c] > 0:
                shown[seat, c] -= 1
            if seat == soloist and tapp_left[c] > 0:
                tapp_left[c] -= 1
            if k == 0:
                wc = c
                ws = seat
                ls = c // 6
                lh = c
            else:
                if (beat[lh] >> np.int64(c)) & 1:
                    lh = c
                if card_beats(c, wc, trump, beat):
                    wc = c
                    ws = seat
            tp += cp[c]
        if trick == n_tricks - 1:
            tp += kr.last_trick_bonus  # R7
        points[ws] += tp
        tricks[ws] += 1
        ld = ws
        if trump < 0 and ws != soloist:
            return trick + 1  # R4
    return n_tricks


@njit
def shown_counts_kernel(counts, trump, kr, out):
    """Kernel of :func:`shown_counts`: copies of each type a hand shows for its melds (R5)
    with ``trump`` (-1: none shown, as in a Durch).  ``counts``: 24 counts; OUT ``out``
    int64[24]."""
    for t in range(N_TYPES):
        out[t] = 0
    if trump < 0:
        return
    for s in range(N_SUITS):
        f = np.int64(2)
        for r in range(5):
            f = min(f, np.int64(counts[s * N_RANKS + r]))
        k = np.int64(counts[s * N_RANKS + 2])
        q = np.int64(counts[s * N_RANKS + 3])
        if f == 2:
            pairs = np.int64(0)
        elif f == 1:
            pairs = min(k - 1, q - 1)
        else:
            pairs = min(k, q)
        for r in range(5):
            out[s * N_RANKS + r] = max(out[s * N_RANKS + r], f)
        for r in (2, 3):
            out[s * N_RANKS + r] = max(out[s * N_RANKS + r], f + pairs)
    for r in range(N_RANKS):
        if kr.fours_value[r] != 0:
            m = kr.fours_mask[r]
            n = np.int64(2)
            mm = m
            while mm != 0:
                t = cttz(mm)
                mm &= mm - 1
                n = min(n, np.int64(counts[t]))
            mm = m
            while mm != 0:
                t = cttz(mm)
                mm &= mm - 1
                out[t] = max(out[t], n)
    for mk in (kr.binokel_mask, kr.grand_binokel_mask if kr.grand_binokel_value > 0 else 0):
        if mk == 0:
            continue
        n = np.int64(2)
        mm = np.int64(mk)
        while mm != 0:
            t = cttz(mm)
            mm &= mm - 1
            n = min(n, np.int64(counts[t]))
        mm = np.int64(mk)
        while mm != 0:
            t = cttz(mm)
            mm &= mm - 1
            out[t] = max(out[t], n)
    if kr.trump_nine_value > 0:
        t9 = trump * N_RANKS + kr.nine_rank
        out[t9] = max(out[t9], np.int64(counts[t9]))


@njit
def play_contract(hands, trump, leader, soloist, policy, state, kr, points, tricks, tapp, disc,
                  pimc=None):
    """Play a contract after the exchange with a whole-deal play mode (R6, R7; Durch R4).

    ``pimc`` omitted (or None): the heuristic pipelines' play step, exactly
    :func:`analyzer.mechanics.play.play_out` with ``policy`` POLICY_RANDOM /
    POLICY_HEURISTIC (same choices, same RNG draws).  numba removes the ``pimc is None``
    branch's other side before typing (dead-branch pruning on the argument's type), so a
    kernel compiled without ``pimc`` contains no PIMC or solver code; a PIMC mode without
    ``pimc`` raises rather than silently playing the heuristic.

    ``pimc`` int64[2] = (worlds per decision, exact-search horizon in tricks), from
    :func:`pimc_args`, with :data:`PLAY_PIMC` / :data:`PLAY_PIMC_DEFENCE`:
    :func:`play_deal_policies` with PIMC at every seat / at the two defenders (soloist
    heuristic).  Each PIMC seat gets its information set only: the melds every seat shows
    before play (R5; none in a Durch), the face-up Tapp (R4), for the soloist its discard.
    PIMC's worlds come from a stream derived from ``state`` without advancing it, so the
    caller's next draws (its next deal) are the same as with the heuristic.

    ``hands`` uint8[3, 24]: the hands after the exchange (not modified); ``tapp``: 24
    counts of the Tapp; ``disc``: int64[D] the discarded card types.  OUT ``points`` /
    ``tricks`` int64[3] as ``play_out``.  Returns the tricks played.
    """
    if pimc is None:
        if policy != POLICY_RANDOM and policy != POLICY_HEURISTIC:
            raise ValueError("play_contract: a PIMC play mode needs its settings (pimc_args)")
        return play_out(hands, trump, leader, soloist, policy, state, kr, points, tricks)
    if policy == POLICY_RANDOM or policy == POLICY_HEURISTIC:
        return play_out(hands, trump, leader, soloist, policy, state, kr, points, tricks)
    lo = np.zeros(3, dtype=np.int64)
    hi = np.zeros(3, dtype=np.int64)
    shown = np.zeros((3, N_TYPES), dtype=np.int64)
    for p in range(3):
        for t in range(N_TYPES):
            c = hands[p, t]
            b = np.int64(1) << np.int64(t)
            if c >= 1:
                lo[p] |= b
            if c >= 2:
                hi[p] |= b
        shown_counts_kernel(hands[p], trump, kr, shown[p])
    dcount = np.zeros(N_TYPES, dtype=np.int64)
    for i in range(disc.shape[0]):
        dcount[disc[i]] += 1
    tp = np.zeros(N_TYPES, dtype=np.int64)
    for t in range(N_TYPES):
        tp[t] = tapp[t]
    pol = np.full(3, POLICY_PIMC, dtype=np.int64)
    if policy == PLAY_PIMC_DEFENCE:
        pol[soloist] = POLICY_HEURISTIC
    w = np.zeros(W_SIZE, dtype=np.int64)
    init_workspace(w, kr)
    tt = np.zeros((1 << PLAY_TT_BITS, 2), dtype=np.int64)
    set_context(w, trump, soloist, np.int64((1 << PLAY_TT_BITS) - 1))
    ps = np.empty(4, dtype=np.uint64)
    derived_state(state, ps)
    log = np.zeros(0, dtype=np.int64)
    return play_deal_policies(lo, hi, dcount, tp, shown, trump, soloist, leader, pol,
                              pimc[0], pimc[1], ps, w, tt, kr.rank_strength, kr, points,
                              tricks, log)


# --------------------------------------------------------------------------- partners' tables
# Hands as uint8[4, 24] counts of the card types (any copies per type), seats 0..3 in seat
# order, partners opposite (V1: side seat % 2); duties and points from the TeamKernel
# ``kp`` (analyzer.mechanics.rules), the trick step of analyzer.mechanics.trick.

@njit
def rollout_partners(cnt, pres, seat, first, ld, k, lsuit, wcard, wseat, best_led, tp, played,
                     ab, trump, bidder, kp, beat, bm, ot, pr, me):
    """Play one world out from the trick in progress after ``seat`` plays ``first``,
    every seat by :func:`analyzer.mechanics.play.heuristic_partners` (the world's hands as
    its own, ``played`` and ``ab`` the public record, both updated here); returns the card
    points (incl. the last trick) that side ``me`` takes from the current trick on (V1:
    seat % 2)."""
    cp = kp.card_points
    rs = kp.rank_strength
    copies = kp.copies
    side = SIDES_OF_PARTNERS
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
        c = heuristic_partners(s, lg, kk, lsuit, wcard, wseat, tp, cnt[s], played, ab, trump,
                               bidder, beat, cp, rs, copies)
    return pts[me]


@njit
def world_setup_partners(seat, k, ld, own, played, ab, bidder, known_disc, kp, dabb_up):
    """The world sampler's tables (analyzer.mechanics.worlds.sample_setup) for ``seat`` at a
    partners' table from its knowledge only: its hand ``own``, the cards ``played``, the
    proofs ``ab``, its own discard ``known_disc`` if it is the bidder (else zeros: the Dabb
    of ``kp.dabb_size`` cards is then a hidden place, V4.1, V5.1); hand sizes follow from
    the trick in progress (``ld`` leader, ``k`` cards played to it).  ``dabb_up``
    int64[24]: the face-up Dabb's copies the bidder has not played (R4: everyone saw the
    Dabb the bidder took up; V4.2, V5.3), which lie in the bidder's hand or its discard;
    zeros when not known (the tournament's PIMC seats, whose numbers are pinned)."""
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
    pub_places = np.int64(0)
    if seat != bidder and kp.dabb_size > 0:
        pub_places = (np.int64(1) << np.int64(bidder)) | (np.int64(1) << np.int64(4))
        for t in range(N_TYPES):
            public[t] = min(dabb_up[t], max(unseen[t], 0))
    return sample_setup(unseen, shown, public, absent, places, pub_places, room)


@njit(_nrt=False)
def world_position(wc, ab, played, cnt, pres, ab2, pl):
    """Copy a drawn world ``wc`` (int64[5, 24] counts) into a play-out's workspace: the four
    hands ``cnt`` (uint8[4, 24]) with their presence masks ``pres``, fresh copies of the
    public record (``ab2`` of the proofs ``ab``, ``pl`` of ``played``)."""
    for q in range(4):
        pres[q] = 0
        ab2[q] = ab[q]
        for t in range(N_TYPES):
            cnt[q, t] = wc[q, t]
            if wc[q, t] > 0:
                pres[q] |= np.int64(1) << np.int64(t)
    for t in range(N_TYPES):
        pl[t] = played[t]


@njit
def partners_world_row(wc, seat, legal, k, ld, lsuit, wcard, wseat, best_led, tp, played, ab,
                       trump, bidder, kp, beat, bm, ot, pr, exact, dd, dv, cnt, pres, ab2, pl,
                       row):
    """One drawn world ``wc`` (int64[5, 24]: the four hands now, the Dabb) of a partners'
    decision: ``row[c]`` = the card points the side of ``seat`` (V1: seat % 2) takes from
    the current trick on (R7, the last trick included) after each legal card ``c``.

    ``exact`` (and a workspace ``dd`` of :func:`analyzer.search.solve_any.world_workspace`):
    the double-dummy value of the world (:func:`~analyzer.search.solve_any.world_move_values`,
    both sides playing best; a Durch ends at the soloist's first lost trick, R4, V4.6), for
    the other side than the soloist's the rest of the points (+ the bonus) -- in a Durch,
    the points the soloist falls short of a made Durch.  Else a play-out with the partners'
    heuristic at every seat (:func:`rollout_partners`).  ``dv`` int64[24], ``cnt``,
    ``pres``, ``ab2``, ``pl``: the caller's scratch (no allocation per world)."""
    if dd is not None:        # (pruned when compiled without a workspace)
        if exact:
            world_move_values(wc, dd[0], dd[1], dd[2], dd[3], dd[4], dd[5], dd[6], dd[7], dd[8],
                              seat, k, lsuit, wcard, wseat, best_led, tp, legal, dv)
            total = tp + kp.last_trick_bonus
            for q in range(4):
                for t in range(N_TYPES):
                    total += kp.card_points[t] * wc[q, t]
            m = legal
            while m != 0:
                c = cttz(m)
                m &= m - 1
                row[c] = dv[c] if seat % 2 == bidder % 2 else total - dv[c]
            return
    me = seat % 2
    m = legal
    while m != 0:
        c = cttz(m)
        m &= m - 1
        world_position(wc, ab, played, cnt, pres, ab2, pl)
        row[c] = rollout_partners(cnt, pres, seat, c, ld, k, lsuit, wcard, wseat, best_led, tp,
                                  pl, ab2, trump, bidder, kp, beat, bm, ot, pr, me)


@njit
def partners_worlds(seat, legal, k, ld, lsuit, wcard, wseat, best_led, tp, own, played, ab,
                      trump, bidder, known_disc, n_worlds, state, kp, beat, bm, ot, pr,
                      vals, disc, exact, dd, hands_out, dabb_up):
    """The worlds of :func:`pimc_choose_partners` with their values kept (what ``binokel
    hint`` shows at a partners' table, V1; issue 27).  Per world, the card points the side of ``seat`` (V1: seat % 2) takes from the
    current trick on after each legal card (``vals`` float64[n_worlds, 24], written), and
    the discard's card points in that world (``disc`` int64[n_worlds]: the known discard
    of the bidder, else the world's).  Arguments as pimc_choose_partners; ``exact``: solve
    every world exactly with the workspace ``dd``
    (:func:`analyzer.search.solve_any.world_workspace`, reused for every world);
    ``hands_out`` (uint8[n_worlds, 5, 24], or 0 rows: not written) the world's cards per
    place now (seats 0-3, the discard 4), which the auction weights read
    (analyzer.analyses.hint_auction); ``dabb_up`` int64[24] the face-up Dabb's copies the
    bidder has not played (R4: in its hand or discard in every world).  Returns the number
    of worlds drawn (rows written)."""
    g_type, act, sp, wt, nsp, room_c, tab = world_setup_partners(seat, k, ld, own, played, ab,
                                                                 bidder, known_disc, kp, dabb_up)
    wc = np.zeros((5, N_TYPES), dtype=np.int64)
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    pres = np.zeros(4, dtype=np.int64)
    pl = np.zeros(N_TYPES, dtype=np.uint8)
    ab2 = np.zeros(4, dtype=np.int64)
    dv = np.zeros(N_TYPES, dtype=np.int64)
    row = np.zeros(N_TYPES, dtype=np.float64)
    cp = kp.card_points
    done = 0
    for _ in range(n_worlds):
        for q in range(5):
            for t in range(N_TYPES):
                wc[q, t] = 0
        if not draw_world(state, g_type, act, sp, wt, nsp, room_c, tab, wc):
            continue
        for t in range(N_TYPES):
            wc[seat, t] = own[t]
        d = 0
        for t in range(N_TYPES):
            d += cp[t] * (known_disc[t] if seat == bidder else wc[4, t])
        disc[done] = d
        if hands_out.shape[0] > 0:
            for q in range(5):
                for t in range(N_TYPES):
                    hands_out[done, q, t] = wc[q, t]
        for t in range(N_TYPES):
            row[t] = 0.0
        partners_world_row(wc, seat, legal, k, ld, lsuit, wcard, wseat, best_led, tp, played,
                           ab, trump, bidder, kp, beat, bm, ot, pr, exact, dd, dv, cnt, pres,
                           ab2, pl, row)
        for t in range(N_TYPES):
            vals[done, t] = row[t]
        done += 1
    return done


@njit
def pimc_choose_partners(seat, legal, k, ld, lsuit, wcard, wseat, best_led, tp, own, played,
                         ab, trump, bidder, known_disc, n_worlds, state, kp, beat, bm, ot, pr, acc,
                         horizon=0, dd=None, dabb_up=None):
    """PIMC choice of a card type for ``seat`` at a partners' table from its knowledge only.

    Knowledge (the only inputs): ``own`` uint8[24] its hand; ``played`` uint8[24] every
    card played so far (the current trick's included); ``ab`` int64[4] what each seat's
    plays proved (trick.proves); ``known_disc`` uint8[24] its own discard if it is the
    bidder (zeros otherwise: the discard, ``kp.dabb_size`` cards, is then a hidden place);
    the trick in progress (``ld`` leader, ``k`` cards, ``lsuit``, ``wcard``/``wseat``,
    ``best_led``, ``tp``) and the bidder.  Hand sizes follow from the trick.
    ``n_worlds`` worlds from analyzer.mechanics.worlds (exactly uniform among the
    consistent deals); each legal card is valued in each world by
    :func:`partners_world_row`: exactly by the double-dummy solver once at most
    ``horizon`` tricks are left and a workspace ``dd``
    (:func:`analyzer.search.solve_any.world_workspace`) is given, else by a play-out with
    :func:`analyzer.mechanics.play.heuristic_partners` at every seat; value = the card
    points the seat's side (V1) takes from this trick on, averaged; the best mean wins,
    ties to the lowest type.  The default (``horizon`` 0, no workspace) plays every world
    out: the tournament's PIMC seats and the golden pins.
    ``acc`` float64[24] (written: the mean per legal card).
    """
    for t in range(N_TYPES):
        acc[t] = 0.0
    if ctpop(legal) == 1:
        return cttz(legal)
    up = np.zeros(N_TYPES, dtype=np.int64)
    if dabb_up is not None:
        for t in range(N_TYPES):
            up[t] = dabb_up[t]
    left = 0
    for t in range(N_TYPES):
        left += own[t]
    exact = False
    if dd is not None:
        exact = left <= horizon
    vals = np.zeros((n_worlds, N_TYPES), dtype=np.float64)
    disc = np.zeros(n_worlds, dtype=np.int64)
    done = partners_worlds(seat, legal, k, ld, lsuit, wcard, wseat, best_led, tp, own, played,
                           ab, trump, bidder, known_disc, n_worlds, state, kp, beat, bm, ot, pr,
                           vals, disc, exact, dd, np.zeros((0, 5, N_TYPES), dtype=np.uint8), up)
    for i in range(done):                 # world by world: the sums of the rows in order
        m = legal
        while m != 0:
            c = cttz(m)
            m &= m - 1
            acc[c] += vals[i, c]
    return best_mean(acc, legal, done, True)


@njit
def play_deal_partners(cnt, trump, leader, bidder, policies, state, kp, beat, discard, points,
                       counting, tricks, log, forced, n_forced):
    """Play a whole deal at a partners' table from ``cnt`` (uint8[4, 24], consumed) under
    ``kp``'s duties, a policy per seat (R6, R7, V1, V4.5, V5.6, V6.4).

    ``policies`` int64[4] in the one id space (module docstring): POLICY_RANDOM,
    :data:`POLICY_PIMC` / :data:`POLICY_PIMC_DEFENCE` ``| worlds << 8``
    (:func:`pimc_choose_partners`), anything else the partners' heuristic
    (analyzer.mechanics.play.heuristic_partners); ``kp`` the TeamKernel; ``beat`` from
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
    bm, ot = duty_modes(kp.duty)
    pr = kp.partner_relief
    side = SIDES_OF_PARTNERS        # V1: partners opposite (a constant: no allocation per deal)
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
                    derived_state(state, ps)
                    have_ps = True
                c = pimc_choose_partners(seat, legal, k, ld, lsuit, wcard, wseat, best_led, tp,
                                         cnt[seat], played, ab, trump, bidder,
                                         discard if seat == bidder else no_disc,
                                         policies[seat] >> 8, ps, kp, beat, bm, ot, pr, acc)
            else:
                c = heuristic_partners(seat, legal, k, lsuit, wcard, wseat, tp, cnt[seat],
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
def play_deal_partners_logged(hands, trump, leader, bidder, policies, state, kp, discard, points,
                              counting, tricks, log, forced, n_forced):
    """:func:`play_deal_partners` from ``hands`` (not modified) with a trick log and replay."""
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kp, beat)
    cnt = hands.copy()
    return play_deal_partners(cnt, trump, leader, bidder, policies, state, kp, beat, discard,
                              points, counting, tricks, log, forced, n_forced)


# --------------------------------------------------------------------------- Python side


def shown_counts(counts, trump: int, rules=None) -> np.ndarray:
    """Copies of each card type a hand shows for its melds with ``trump`` (R5).

    Family (A-10-K-Q-J) level f shows f copies of those five; pairs add K and Q copies;
    four / eight of a kind one / two copies of the rank in every suit; binokel its cards;
    each trump nine.  A card shown for several melds is shown once (the hand holds at
    least the largest count any meld needs).  ``counts``: 24 counts.  Returns int64[24].
    """
    rules = rules or DEFAULT_RULES
    out = np.zeros(N_TYPES, dtype=np.int64)
    shown_counts_kernel(np.asarray([int(x) for x in counts], dtype=np.int64), int(trump),
                        rules.kernel, out)
    return out


def pimc_choose_types(kr) -> tuple:
    """The argument types :func:`play_deal_policies` calls :func:`pimc_choose` with, for a
    game whose KernelRules are ``kr`` (what a PIMC command compiles it for: solver
    workspace and table, RNG-free integer trick state, int64 information-set arrays, the
    uint64 RNG state, the float64 scratch).  tests/search/test_pimc_beside.py pins that a
    PIMC command asks for exactly these."""
    import numba
    from numba import types

    i1, i2 = types.int64[::1], types.int64[:, ::1]
    return ((i1, i2, i1, numba.typeof(kr)) + (types.int64,) * 12 + (i1, i1, i1, i2, i1)
            + (types.int64, types.int64, types.uint64[::1], types.float64[::1]))


#: KernelRules types whose PIMC search was already handed to :func:`compile_search_beside`
_BESIDE_ASKED: set = set()


def compile_search_beside(kr) -> None:
    """On an empty numba cache, compile the PIMC search (:func:`pimc_choose` with the
    world sampler and the double-dummy solver below it: ~40% of a PIMC command's first-use
    compile time) in a helper process while this one compiles the rest of the command's
    kernels (analyzer._compile_beside; issue 28).  Nothing is started when it is cached
    already, more than once per process and game, or with ``BINOKEL_COMPILE_BESIDE=0``.
    The results are the same either way (the same kernel, loaded or compiled)."""
    from analyzer import _compile_beside

    try:
        args = pimc_choose_types(kr)
    except Exception:   # a KernelRules numba cannot type: the kernel call will say so
        return
    if args in _BESIDE_ASKED:
        return
    _BESIDE_ASKED.add(args)
    _compile_beside.start([(pimc_choose, args)])


def pimc_args(policy: int, kr=None) -> tuple:
    """The trailing arguments a pipeline kernel (deals.finish_deal / soloist_outcomes,
    advice_samples.advise_samples, analysis._soloist_chunk, :func:`play_contract`) takes for play
    mode ``policy``: ``()`` for the heuristic (and random) play, so the kernel's heuristic
    variant runs, compiled without any PIMC or solver code; ``(int64[2],)`` = (worlds per
    decision :data:`PLAY_SAMPLES`, exact horizon :data:`PLAY_HORIZON`) for the PIMC modes,
    which compiles (once, cached) the kernel's PIMC variant.  Call as
    ``kernel(..., *pimc_args(policy))``.  ``kr``: the game's KernelRules; given, a PIMC
    mode first starts the compilation of the PIMC search beside this process on an empty
    cache (:func:`compile_search_beside`)."""
    if int(policy) in (POLICY_RANDOM, POLICY_HEURISTIC):
        return ()
    if kr is not None:
        compile_search_beside(kr)
    return (np.array([PLAY_SAMPLES, PLAY_HORIZON], dtype=np.int64),)


def resolve_play(play, rules=None) -> int:
    """``--play`` name (``heuristic``, ``pimc``, ``pimc-defence``) or code -> the play mode
    for :func:`play_contract` (and :func:`play_policies` of the partners' tables); one-line
    :class:`~analyzer.errors.BinokelError` for an unknown name.

    Every game has both PIMC modes (issue 24): the world sampler of
    analyzer.mechanics.worlds deals any deck (k copies per type, any Dabb, three or four
    hands) exactly uniformly from the player's knowledge; the 24 x 2 deck with its
    3-card Tapp (R1, R2) keeps :func:`sample_world`.  ``rules``: a game with a stock (V7)
    is refused anything but ``heuristic`` (its policies are stock_registry's).
    """
    stock = getattr(rules, "stock", None)
    if stock is not None and getattr(stock, "size", 0) and str(play).strip().lower() != "heuristic":
        # a game with a stock (V7) has its own policies (analyzer.search.stock_registry)
        raise BinokelError(f"--play {str(play)[:40]}: {rules.name} (V7) is played by heuristic "
                           "or random in its analyses, not by this PIMC")
    if isinstance(play, (int, np.integer)) and not isinstance(play, bool):
        code = int(play)
        if code not in PLAY_NAMES.values():
            raise BinokelError(f"unknown play mode {code}: use {', '.join(PLAY_NAMES)}")
    else:
        name = str(play).strip().lower()
        if name not in PLAY_NAMES:
            raise BinokelError(f"unknown play {str(play)[:40]!r}: use {', '.join(PLAY_NAMES)}")
        code = PLAY_NAMES[name]
    return code


def play_name(code: int) -> str:
    """Play mode code -> its ``--play`` name."""
    for k, v in PLAY_NAMES.items():
        if v == code:
            return k
    return "random" if code == POLICY_RANDOM else str(code)


def pimc_policy(worlds: int) -> int:
    """The seat policy of a PIMC seat at a partners' table with ``worlds`` worlds per
    decision (1..10**6): :data:`POLICY_PIMC` ``| worlds << 8``."""
    return POLICY_PIMC | (int(worlds) << 8)


def play_policies(play: int, worlds: int = PLAY_SAMPLES) -> np.ndarray:
    """int64[4] seat policies of :func:`play_deal_partners` for a whole-deal play mode
    (:data:`PLAY_NAMES`: heuristic = the partners' heuristic at every seat; pimc = PIMC at
    every seat; pimc-defence = PIMC for the side that does not hold the contract, the
    heuristic for the soloist's side)."""
    if play == PLAY_PIMC:
        return np.full(4, pimc_policy(worlds), dtype=np.int64)
    if play == PLAY_PIMC_DEFENCE:
        return np.full(4, POLICY_PIMC_DEFENCE | (int(worlds) << 8), dtype=np.int64)
    return np.full(4, POLICY_HEURISTIC, dtype=np.int64)
