"""Worlds consistent with one player's knowledge, drawn exactly uniformly, for any game
(PIMC's world sampler; R2, R4, R5, R6, V4.1, V5.1, V6.1; issue 24).

A player at the table knows its own hand, every card played so far, what the play proved
(trick.proves: voids and "holds no card beating X"), the melds shown before play (R5:
the shown cards stay in their owner's hand until played), the face-up Tapp / Dabb (R4:
its cards are with the soloist or in the discard), the soloist its own discard, and how
many cards each hand and the hidden discard hold.  Everything else is hidden.

The hidden cards are described as *groups*, one per card type: its ``u`` hidden copies,
the places they may go to (hands not proven void of the type, the hidden discard), how
many of them are face-up Tapp / Dabb cards (those go only to the soloist or the
discard), and per place the copies it showed in its melds and still holds (at least
that many stay there).  Places have a *room* (the cards still to deal into them).  A
*world* is an allocation of every type's copies to places that fills every room exactly.

How it samples (constrained dealing by exact counting, no rejection): the deck was
shuffled uniformly, so each consistent allocation ``n[t, p]`` has probability
proportional to the number of physical card deals that produce it (for a type without
face-up copies ``prod_t u_t! / prod_p n[t, p]!``; with them, summed over the ways to
split ``n[t, p]`` into face-up and other copies), among the allocations consistent with
the knowledge: a uniform deal conditioned on the event.  :func:`world_table` counts, by
dynamic programming over the types, the weighted number of ways to complete every vector
of rooms left; :func:`draw_world` then deals the types one by one, each split drawn with
probability (its weight x the ways to complete the rest) / (the ways from here).  The
product of these conditionals is exactly the target distribution, so the draw is
unbiased; the only deviation is float64 rounding of the counts (relative 1e-16).
The DP's state is the rooms left in every place but the largest (whose room follows from
the cards left), at most 12 x 12 x 12 states (kreuz-48) and 21 x 21 (pinochle-80).

What is *not* used (a bias towards less knowledge, as every PIMC player): inferences
from the other players' choices (their bids, discards and which legal card they chose),
and what a meld *not* shown says (a hand that showed one binokel holds no second one).

Kernels only: numba, plain arrays; no game name.  The plain-Python reference is
tests/oracle/worlds.py (exact enumeration).
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.rng import uniform01

MAX_PLACES = 6


@njit(_nrt=False)
def _fact(n):
    f = 1.0
    for i in range(2, n + 1):
        f *= i
    return f


@njit
def _splits(u, npub, allowed, pubmask, mins, n_places):
    """Every way to put one type's ``u`` hidden copies into the places: int64[m, P]
    totals per place and float64[m] weights.  ``npub`` of the copies are face-up cards
    that go only to ``pubmask``'s places, the others to ``allowed``'s; place p must end
    with at least ``mins[p]`` copies (shown melds).  A total's weight sums, over the ways
    to split it into public and other copies, 1 / prod(a_p!) x 1 / prod(b_p!): the
    number of physical deals giving it, up to the constant u_pub! (u - u_pub)!."""
    base = u + 1
    cap = 1
    for _ in range(n_places):
        cap *= base
    out = np.zeros((cap, n_places), dtype=np.int64)
    wt = np.zeros(cap, dtype=np.float64)
    m = 0
    cur = np.zeros(n_places, dtype=np.int64)
    a = np.zeros(n_places, dtype=np.int64)
    pcap = 1
    for _ in range(n_places):
        pcap *= npub + 1
    for code in range(cap):
        x = code
        s = 0
        ok = True
        for p in range(n_places):
            v = x % base
            x //= base
            cur[p] = v
            s += v
            if v < mins[p] or (v > 0 and ((allowed | pubmask) >> np.int64(p)) & 1 == 0):
                ok = False
        if not ok or s != u:
            continue
        w = 0.0
        for pc in range(pcap):
            y = pc
            sa = 0
            good = True
            for p in range(n_places):
                v = y % (npub + 1)
                y //= npub + 1
                a[p] = v
                sa += v
                if v > cur[p] or (v > 0 and ((pubmask >> np.int64(p)) & 1) == 0):
                    good = False
                elif cur[p] - v > 0 and ((allowed >> np.int64(p)) & 1) == 0:
                    good = False
            if not good or sa != npub:
                continue
            f = 1.0
            for p in range(n_places):
                f /= _fact(a[p]) * _fact(cur[p] - a[p])
            w += f
        if w <= 0.0:
            continue
        for p in range(n_places):
            out[m, p] = cur[p]
        wt[m] = w
        m += 1
    return out[:m], wt[:m]


@njit
def _layout(room, n_places):
    """(implicit place = the one with the most room, strides of the others, states)."""
    imp = 0
    for p in range(n_places):
        if room[p] > room[imp]:
            imp = p
    stride = np.zeros(n_places, dtype=np.int64)
    s = 1
    for p in range(n_places):
        if p == imp:
            continue
        stride[p] = s
        s *= room[p] + 1
    return imp, stride, s


@njit
def group_splits(g_n, g_pub, g_allowed, g_pubmask, g_min, n_places):
    """Every group's splits (:func:`_splits`), padded: ``(sp int64[G, M, P], wt
    float64[G, M], nsp int64[G])``."""
    n_groups = g_n.shape[0]
    m = 1
    for g in range(n_groups):
        c = 1
        for _ in range(n_places):
            c *= g_n[g] + 1
        m = max(m, c)
    sp = np.zeros((n_groups, m, n_places), dtype=np.int64)
    wt = np.zeros((n_groups, m), dtype=np.float64)
    nsp = np.zeros(n_groups, dtype=np.int64)
    mx = 0
    for g in range(n_groups):
        a, w = _splits(g_n[g], g_pub[g], g_allowed[g], g_pubmask[g], g_min[g], n_places)
        nsp[g] = a.shape[0]
        mx = max(mx, a.shape[0])
        for j in range(a.shape[0]):
            wt[g, j] = w[j]
            for p in range(n_places):
                sp[g, j, p] = a[j, p]
    return sp[:, :max(mx, 1)].copy(), wt[:, :max(mx, 1)].copy(), nsp


@njit
def world_table(g_n, sp, wt, nsp, room):
    """The DP table of the module docstring: ``tab[g, s]`` = weighted ways to deal groups
    g.. into the rooms left encoded by state ``s``; groups of ``g_n`` copies with their
    splits (:func:`group_splits`), ``room`` int64[P].  Returns float64[G + 1, S]
    (``tab[0, full rooms] == 0``: no consistent world)."""
    n_groups = g_n.shape[0]
    n_places = room.shape[0]
    imp, stride, n_states = _layout(room, n_places)
    tab = np.zeros((n_groups + 1, n_states), dtype=np.float64)
    left = np.zeros(n_groups + 1, dtype=np.int64)      # copies in groups g..
    for g in range(n_groups - 1, -1, -1):
        left[g] = left[g + 1] + g_n[g]
    tab[n_groups, 0] = 1.0
    rem = np.zeros(n_places, dtype=np.int64)
    for g in range(n_groups - 1, -1, -1):
        for s in range(n_states):
            x = s
            tot = 0
            for p in range(n_places):
                if p == imp:
                    continue
                rem[p] = x % (room[p] + 1)
                x //= room[p] + 1
                tot += rem[p]
            ri = left[g] - tot
            if ri < 0 or ri > room[imp]:
                continue
            rem[imp] = ri
            acc = 0.0
            for j in range(nsp[g]):
                ok = True
                t = s
                for p in range(n_places):
                    if sp[g, j, p] > rem[p]:
                        ok = False
                        break
                    if p != imp:
                        t -= sp[g, j, p] * stride[p]
                if ok:
                    acc += wt[g, j] * tab[g + 1, t]
            tab[g, s] = acc
    return tab


@njit
def full_state(room):
    """The table state of the rooms ``room`` (nothing dealt yet)."""
    imp, stride, _ = _layout(room, room.shape[0])
    s = 0
    for p in range(room.shape[0]):
        if p != imp:
            s += room[p] * stride[p]
    return s


@njit
def draw_world(state, g_type, act, sp, wt, nsp, room, tab, out):
    """Draw one world (module docstring) from a :func:`sample_setup`: adds each group's
    copies of type ``g_type[g]`` to ``out[act[p], type]`` (int64[places, 24], the caller
    zeroes it; ``act`` maps the setup's places with room to the caller's).  Returns False
    when no consistent world exists."""
    n_groups = g_type.shape[0]
    n_places = room.shape[0]
    imp, stride, _ = _layout(room, n_places)
    s = full_state(room)
    if tab[0, s] <= 0.0:
        return False
    rem = room.copy()
    for g in range(n_groups):
        tot = 0.0
        for j in range(nsp[g]):
            ok = True
            t = s
            for p in range(n_places):
                if sp[g, j, p] > rem[p]:
                    ok = False
                    break
                if p != imp:
                    t -= sp[g, j, p] * stride[p]
            if ok:
                tot += wt[g, j] * tab[g + 1, t]
        r = uniform01(state) * tot
        pick = -1
        last = -1
        for j in range(nsp[g]):
            ok = True
            t = s
            for p in range(n_places):
                if sp[g, j, p] > rem[p]:
                    ok = False
                    break
                if p != imp:
                    t -= sp[g, j, p] * stride[p]
            if not ok:
                continue
            v = wt[g, j] * tab[g + 1, t]
            if v <= 0.0:
                continue
            last = j
            if r < v:
                pick = j
                break
            r -= v
        if pick < 0:
            pick = last                   # float rounding at the very end of the range
        if pick < 0:
            return False
        for p in range(n_places):
            c = sp[g, pick, p]
            if c > 0:
                out[act[p], g_type[g]] += c
                rem[p] -= c
                if p != imp:
                    s -= c * stride[p]
    return True


@njit
def knowledge_groups(unseen, shown, public, absent, places, pub_places):
    """The groups of the module docstring from one player's knowledge, one per type
    with hidden copies.

    ``unseen`` int64[24]: copies the player cannot see (deck - own hand - played - its own
    known discard); ``shown`` int64[P, 24]: shown meld copies still in place p's hand (R5:
    p holds at least that many); ``public`` int64[24]: face-up Tapp / Dabb copies (R4)
    not played, which may go only to ``pub_places``; ``absent`` int64[P]: per place the
    types its plays proved it lacks (trick.proves); ``places`` the mask of the places that
    take hidden cards.  Returns ``(g_n, g_type, g_pub, g_allowed, g_pubmask, g_min)``.
    """
    n_places = shown.shape[0]
    nt = unseen.shape[0]
    g_n = np.zeros(nt, dtype=np.int64)
    g_type = np.zeros(nt, dtype=np.int64)
    g_pub = np.zeros(nt, dtype=np.int64)
    g_allowed = np.zeros(nt, dtype=np.int64)
    g_pubmask = np.zeros(nt, dtype=np.int64)
    g_min = np.zeros((nt, n_places), dtype=np.int64)
    n = 0
    for t in range(nt):
        u = unseen[t]
        if u <= 0:
            continue
        al = np.int64(0)
        for p in range(n_places):
            if (places >> np.int64(p)) & 1 and ((absent[p] >> np.int64(t)) & 1) == 0:
                al |= np.int64(1) << np.int64(p)
            g_min[n, p] = min(shown[p, t], u) if (places >> np.int64(p)) & 1 else 0
        g_n[n] = u
        g_type[n] = t
        g_pub[n] = max(np.int64(0), min(public[t], u))
        g_allowed[n] = al
        g_pubmask[n] = al & pub_places
        n += 1
    return g_n[:n], g_type[:n], g_pub[:n], g_allowed[:n], g_pubmask[:n], g_min[:n]


@njit
def sample_setup(unseen, shown, public, absent, places, pub_places, room):
    """Everything :func:`draw_world` needs, computed once per decision: ``(g_type, act,
    sp, wt, nsp, room_c, tab)``.  The places with room are kept (``act``: their indices
    among the caller's, ``room_c`` their rooms), the groups' splits enumerated once
    (:func:`group_splits`) and counted (:func:`world_table`).  Arguments as
    :func:`knowledge_groups`, with ``room`` int64[P] the cards each place takes."""
    n = 0
    for p in range(room.shape[0]):
        if room[p] > 0:
            n += 1
    act = np.zeros(max(n, 1), dtype=np.int64)
    room_c = np.zeros(max(n, 1), dtype=np.int64)
    k = 0
    for p in range(room.shape[0]):
        if room[p] > 0:
            act[k] = p
            room_c[k] = room[p]
            k += 1
    g_n, g_type, g_pub, g_allowed, g_pubmask, g_min = knowledge_groups(
        unseen, shown, public, absent, places, pub_places)
    n_groups = g_n.shape[0]
    ca = np.zeros(n_groups, dtype=np.int64)
    cp = np.zeros(n_groups, dtype=np.int64)
    cm = np.zeros((n_groups, room_c.shape[0]), dtype=np.int64)
    for g in range(n_groups):
        for i in range(k):
            b = np.int64(1) << np.int64(act[i])
            if g_allowed[g] & b:
                ca[g] |= np.int64(1) << np.int64(i)
            if g_pubmask[g] & b:
                cp[g] |= np.int64(1) << np.int64(i)
            cm[g, i] = g_min[g, act[i]]
    sp, wt, nsp = group_splits(g_n, g_pub, ca, cp, cm, room_c.shape[0])
    tab = world_table(g_n, sp, wt, nsp, room_c)
    return g_type, act, sp, wt, nsp, room_c, tab
