"""The exact endgame of a stock game once the stock is gone (V7.4): both hands are known
to both players, so the rest of the deal is a two-seat game of perfect information.

:func:`solve_types` is alpha-beta with a transposition table (numba).  A position at a
trick's start is the subset of each seat's endgame hand still held (12 bits each, the
hand's cards sorted by type, so of two identical copies the lower index is played first
and equal positions share one key) and the leader: a 25-bit key.  The table keeps a lower
and an upper bound per key; a generation number in the stored key makes a fresh solve
without clearing the table.

The value is seat 0's card points from here (the card on the table included) plus the
last trick (V7.4); the two seats' values add up to the points left, so one number solves
both.  The Dissles still to come are fixed (each trump 7 in a hand is played by its
holder, V7.3 Reading) and :func:`endgame_value` adds them, as the reference's
brute-force ``endgame_value`` (tests/oracle/binokel2.py) counts them.
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.errors import BinokelError
from analyzer.mechanics import stock_play as sp
from analyzer.mechanics import trick as tr

TT_BITS = 20
_NONE_HI = 10_000


def new_table(bits: int = TT_BITS) -> np.ndarray:
    """A transposition table: int64[4, 2**bits] (stored key, lower bound, upper bound, the
    best leader card's index, a move-ordering hint)."""
    t = np.zeros((4, 1 << bits), dtype=np.int64)
    t[0, :] = -1
    return t


@njit
def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit
def _types_of(sub, ts, n):
    m = np.int64(0)
    for i in range(n):
        if (sub >> i) & 1:
            m |= np.int64(1) << np.int64(ts[i])
    return m


@njit
def _ab(sub0, sub1, leader, alpha, beta, t0, t1, n0, n1, trump, pts, beat, fo, td, bm, ot,
        bonus, tt, gen, stats, ords):
    if sub0 == 0 and sub1 == 0:
        return 0
    stats[0] += 1
    key = sub0 | (sub1 << 12) | (leader << 24)
    full = key | (gen << 25)
    size = tt.shape[1]
    h = ((key * 2654435761) >> 7) & (size - 1)
    if tt[0, h] == full:
        lo = tt[1, h]
        hi = tt[2, h]
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
    hint = -1
    if tt[0, h] == full:
        hint = tt[3, h]
    a0 = alpha
    b0 = beta
    last = _popcount(sub0) + _popcount(sub1) == 2
    if leader == 0:
        lsub, fsub, lt, ft, nl, nf = sub0, sub1, t0, t1, n0, n1
    else:
        lsub, fsub, lt, ft, nl, nf = sub1, sub0, t1, t0, n1, n0
    fmask = _types_of(fsub, ft, nf)
    maximizing = leader == 0
    best = -1 if maximizing else _NONE_HI
    best_i = -1
    lord = ords[0 + leader]          # the leader's cards, most valuable first
    ford = ords[3 - leader]          # the follower's, cheapest first (2 + follower)
    for k in range(nl + 1):
        # the table's best card first, then the static order
        if k == 0:
            i = hint
            if i < 0:
                continue
        else:
            i = lord[k - 1]
            if i == hint:
                continue
        if not (lsub >> i) & 1:
            continue
        if i > 0 and lt[i - 1] == lt[i] and (lsub >> (i - 1)) & 1:
            continue
        c = lt[i]
        legal = tr.legal(fmask, c // 6, c, c, trump, beat, fo, td, bm, ot, 0)
        fbest = _NONE_HI if maximizing else -1
        for kk in range(2 * nf):
            j = ford[kk % nf]
            if not (fsub >> j) & 1:
                continue
            if j > 0 and ft[j - 1] == ft[j] and (fsub >> (j - 1)) & 1:
                continue
            d = ft[j]
            if not (legal >> d) & 1:
                continue
            wins = tr.beats(d, c, trump, beat)
            if wins != (kk < nf):    # winning replies in the first pass, the rest in the second
                continue
            winner = leader
            if wins:
                winner = 1 - leader
            p = pts[c] + pts[d]
            if last:
                p += bonus
            off = p if winner == 0 else 0
            ln = lsub & ~(1 << i)
            fn = fsub & ~(1 << j)
            if leader == 0:
                s0, s1 = ln, fn
            else:
                s0, s1 = fn, ln
            if maximizing:          # the follower (seat 1) minimises
                lo_w = max(alpha, best)
                hi_w = min(beta, fbest)
                v = off + _ab(s0, s1, winner, lo_w - off, hi_w - off, t0, t1, n0, n1, trump,
                              pts, beat, fo, td, bm, ot, bonus, tt, gen, stats, ords)
                if v < fbest:
                    fbest = v
                if fbest <= lo_w:
                    break
            else:                   # the follower (seat 0) maximises
                lo_w = max(alpha, fbest)
                hi_w = min(beta, best)
                v = off + _ab(s0, s1, winner, lo_w - off, hi_w - off, t0, t1, n0, n1, trump,
                              pts, beat, fo, td, bm, ot, bonus, tt, gen, stats, ords)
                if v > fbest:
                    fbest = v
                if fbest >= hi_w:
                    break
        if maximizing:
            if fbest > best:
                best = fbest
                best_i = i
            if best >= beta:
                break
        else:
            if fbest < best:
                best = fbest
                best_i = i
            if best <= alpha:
                break
    tt[0, h] = full
    tt[3, h] = best_i
    if best <= a0:
        tt[1, h] = -_NONE_HI
        tt[2, h] = best
    elif best >= b0:
        tt[1, h] = best
        tt[2, h] = _NONE_HI
    else:
        tt[1, h] = best
        tt[2, h] = best
    return best


@njit
def _orders(t0, t1, n0, n1, trump, params):
    """Move orders (indices into the sorted hands): rows 0/1 seat 0/1's cards most
    valuable first (points, trumps), rows 2/3 the same cheapest first."""
    ords = np.zeros((4, 12), dtype=np.int64)
    for seat in range(2):
        ts = t0 if seat == 0 else t1
        n = n0 if seat == 0 else n1
        key = np.zeros(12, dtype=np.int64)
        for i in range(n):
            c = ts[i]
            key[i] = params[sp.P_POINTS + c] * 4 + (30 if c // 6 == trump else 0) - (c % 6)
        idx = np.argsort(key[:n])
        for i in range(n):
            ords[2 + seat, i] = idx[i]
            ords[seat, i] = idx[n - 1 - i]
    return ords


@njit
def solve_types(t0, t1, n0, n1, leader, table, trump, params, beat, tt, gen, stats, out):
    """Seat 0's points from here with perfect play by both (card points of the tricks it
    wins, the card on the table included, and the last trick; V7.4).

    ``t0``/``t1``: each seat's card types sorted (``n0``/``n1`` of them), ``leader`` the
    trick's leader, ``table`` the type it has led (-1 at a trick's start).  With a card
    on the table ``out[d]`` gets the value after the follower plays type ``d`` (-1 for
    an illegal type); at a trick's start ``out[c]`` the value after the leader plays
    ``c``.  ``stats[0]`` counts the positions searched."""
    fo, td = params[sp.P_AFTER_FOLLOW], params[sp.P_AFTER_TRUMP]
    bm, ot = params[sp.P_AFTER_BEAT], params[sp.P_AFTER_OVERTRUMP]
    bonus = params[sp.P_LAST_BONUS]
    pts = params[sp.P_POINTS:sp.P_POINTS + 24]
    full0 = (np.int64(1) << n0) - 1
    full1 = (np.int64(1) << n1) - 1
    ords = _orders(t0, t1, n0, n1, trump, params)
    for x in range(24):
        out[x] = -1
    if table < 0:
        # the leader's cards one by one, each with a full window (exact values per card)
        lt = t0 if leader == 0 else t1
        nl = n0 if leader == 0 else n1
        best = -1 if leader == 0 else _NONE_HI
        for i in range(nl):
            if i > 0 and lt[i - 1] == lt[i]:
                continue
            c = lt[i]
            # value after leading c = the follower's best reply
            fsub = full1 if leader == 0 else full0
            ft = t1 if leader == 0 else t0
            nf = n1 if leader == 0 else n0
            fmask = _types_of(fsub, ft, nf)
            legal = tr.legal(fmask, c // 6, c, c, trump, beat, fo, td, bm, ot, 0)
            fb = _NONE_HI if leader == 0 else -1
            last = n0 + n1 == 2
            for j in range(nf):
                if j > 0 and ft[j - 1] == ft[j]:
                    continue
                d = ft[j]
                if not (legal >> d) & 1:
                    continue
                w = leader
                if tr.beats(d, c, trump, beat):
                    w = 1 - leader
                p = pts[c] + pts[d] + (bonus if last else 0)
                off = p if w == 0 else 0
                ln = (full0 if leader == 0 else full1) & ~(np.int64(1) << i)
                fn = fsub & ~(np.int64(1) << j)
                s0, s1 = (ln, fn) if leader == 0 else (fn, ln)
                v = off + _ab(s0, s1, w, -1, _NONE_HI, t0, t1, n0, n1, trump, pts, beat,
                              fo, td, bm, ot, bonus, tt, gen, stats, ords)
                if (leader == 0 and v < fb) or (leader == 1 and v > fb):
                    fb = v
            out[c] = fb
            if (leader == 0 and fb > best) or (leader == 1 and fb < best):
                best = fb
        return best
    # a card on the table: the follower chooses
    f = 1 - leader
    ft = t0 if f == 0 else t1
    nf = n0 if f == 0 else n1
    fmask = _types_of((np.int64(1) << nf) - 1, ft, nf)
    legal = tr.legal(fmask, table // 6, table, table, trump, beat, fo, td, bm, ot, 0)
    last = n0 + n1 == 1
    best = -1 if f == 0 else _NONE_HI
    for j in range(nf):
        if j > 0 and ft[j - 1] == ft[j]:
            continue
        d = ft[j]
        if not (legal >> d) & 1:
            continue
        w = leader
        if tr.beats(d, table, trump, beat):
            w = f
        p = pts[table] + pts[d] + (bonus if last else 0)
        off = p if w == 0 else 0
        fn = ((np.int64(1) << nf) - 1) & ~(np.int64(1) << j)
        s0 = fn if f == 0 else full0
        s1 = fn if f == 1 else full1
        v = off + _ab(s0, s1, w, -1, _NONE_HI, t0, t1, n0, n1, trump, pts, beat, fo, td, bm,
                      ot, bonus, tt, gen, stats, ords)
        out[d] = v
        if (f == 0 and v > best) or (f == 1 and v < best):
            best = v
    return best


@njit
def value_types(t0, t1, n0, n1, leader, trump, params, beat, tt, gen, stats):
    """Seat 0's points from a trick's start (:func:`solve_types` without the per-card
    values: one alpha-beta search from the root)."""
    return _ab((np.int64(1) << n0) - 1, (np.int64(1) << n1) - 1, leader, -1, _NONE_HI, t0, t1,
               n0, n1, trump, params[sp.P_POINTS:sp.P_POINTS + 24], beat,
               params[sp.P_AFTER_FOLLOW], params[sp.P_AFTER_TRUMP], params[sp.P_AFTER_BEAT],
               params[sp.P_AFTER_OVERTRUMP], params[sp.P_LAST_BONUS], tt, gen, stats,
               _orders(t0, t1, n0, n1, trump, params))


class EndgameSolver:
    """Solves the endgame positions of one stock game; keeps one transposition table."""

    def __init__(self, rules, bits: int = TT_BITS):
        self.r = rules
        self.tt = new_table(bits)
        self.gen = 0
        self.stats = np.zeros(1, dtype=np.int64)

    def _run(self, deal, per_card: bool = True):
        st = deal.st
        if deal.stock_left() or st[sp.TO_MELD] >= 0:
            raise BinokelError("V7.4: the exact endgame starts once the stock is gone")
        self.gen += 1
        t = [np.array(sorted(c // 2 for c in deal.hand(s)), dtype=np.int64) for s in (0, 1)]
        table = int(st[sp.TABLE])
        out = np.zeros(24, dtype=np.int64)
        if not per_card and table < 0:     # the value only: one alpha-beta from the root
            v0 = value_types(t[0], t[1], len(t[0]), len(t[1]), int(st[sp.LEADER]), deal.trump,
                             self.r.params, self.r.beat, self.tt, self.gen, self.stats)
        else:
            v0 = solve_types(t[0], t[1], len(t[0]), len(t[1]), int(st[sp.LEADER]),
                             table // 2 if table >= 0 else -1, deal.trump, self.r.params,
                             self.r.beat, self.tt, self.gen, self.stats, out)
        pts = self.r.params[sp.P_POINTS:sp.P_POINTS + 24]
        left = int(sum(pts[c // 2] for s in (0, 1) for c in deal.hand(s)))
        left += int(pts[table // 2]) if table >= 0 else 0
        left += int(self.r.params[sp.P_LAST_BONUS])
        return int(v0), left, out

    def _dissles(self, deal, seat) -> int:
        st, p = deal.st, self.r.params
        low = deal.trump * 6 + int(p[sp.P_LOW_RANK])
        return sum(int(p[sp.P_DISSLE]) for c in deal.hand(seat)
                   if c // 2 == low and not (int(st[sp.DISSLE_DONE]) >> c) & 1)

    def value(self, deal, seat: int) -> int:
        """The points ``seat`` still makes with perfect play (V7.4): card points of the
        tricks it wins from now, the last trick, the Dissles it will play."""
        v0, left, _ = self._run(deal, per_card=False)
        return (v0 if seat == 0 else left - v0) + self._dissles(deal, seat)

    def values(self, deal) -> tuple[int, int]:
        """(seat 0, seat 1): the points each still makes with perfect play (one search)."""
        v0, left, _ = self._run(deal, per_card=False)
        return v0 + self._dissles(deal, 0), left - v0 + self._dissles(deal, 1)

    def card_values(self, deal) -> dict[int, int]:
        """Physical card (one per type) of the player to act -> the points that player
        still makes after playing it, with perfect play afterwards."""
        seat = deal.to_act()
        v0, left, out = self._run(deal)
        res = {}
        dis = self._dissles(deal, seat)
        for c in deal.legal_plays():
            v = int(out[c // 2])
            res[c] = (v if seat == 0 else left - v) + dis
        return res

    def best_play(self, deal) -> int:
        vals = self.card_values(deal)
        return max(vals, key=lambda c: (vals[c], -c))
