"""Double-dummy solver: the exact value of a Binokel card-play position (R6, R7; Durch R4).

A *position* is the three hands (all cards visible: double dummy), the trump suit (or
none: Durch), the soloist's seat, the seat leading the current trick and the cards
already in that trick.  Its *value* is the number of card points the soloist still
takes from here on (the cards of tricks won, the current trick's cards included; +10
for the last trick, R7) when the soloist maximizes it and the two defenders minimize it
together.  In a Durch (no trump, R4) play ends at the first trick a defender wins, so
the value is all remaining points exactly when the Durch can be made.  The discard
(R4) is not part of play and never part of a value.

Play duties come from the same kernels the simulations use
(:func:`analyzer.mechanics.play.legal_mask_duty`, :func:`~analyzer.mechanics.play.card_beats`,
:func:`~analyzer.mechanics.play.beat_table` over the compiled RuleSet), so every
variant's rules reach the solver without a line of its own.

Search (why it is fast)
-----------------------
- Alpha-beta over single card plays, fail-soft, one full window at the root, with
  principal variation search inside: after the first move, each move is first tested
  with a zero window against the best so far and searched again only when it beats it
  (an MTD(f) driver, :func:`dd_value_mtdf`, is kept: it beats this only with the exact
  value as its first guess).
- A transposition table probed and stored only at trick boundaries (two tricks left
  included), with 16-byte entries, four to a 64-byte bucket (one cache line).  The key
  is exact: :func:`set_hands` makes the hands its *basis*, and a node's key packs which
  basis cards each seat still holds (``pext``, one bit per card, at most 48) and the
  leader; every search position is a subset of the basis, so equal keys are equal
  positions.  The data word holds a lower and an upper bound of the *remaining* points
  (what was won before does not matter), the best lead, the cards left and the entry's
  generation: :func:`set_hands` and :func:`set_context` start a new one, so entries of
  other hands, trumps or soloists never match (the table is cleared when the counter
  reaches ``GEN_LIMIT``).  Replacement: an entry of an older generation first, else the
  one with the fewest cards left.  The searches of one basis (``dd_move_values``'
  children, ``best_discard``'s windows) share their entries.
- Table misses are the largest single cost (a random cache line per new node), so the
  parent does the boundary child's trivial cuts and table probe itself before calling
  it (:func:`_tt_cut`), and the second card of a trick prefetches the table lines of
  the third card's children, one node before they are read.
- One recursive call per trick: :func:`_lead` searches a trick-boundary node and the
  trick's second and third cards in its own body (:func:`_second` and :func:`_third` are
  inlined), and takes the workspace and the table as two raw pointers plus five
  integers.  Passing them as numba array structs cost 16 words of stack arguments per
  call: the pointers measured -16 % time at DD8 and DD10, the inlined trick -16 % more
  (same nodes, paired on the same positions).  ``_second`` and ``_third`` are inlined
  by numba (``inline="always"``: they call :func:`_lead`, and LLVM does not inline into a
  recursion); every helper below them by LLVM (``inline="llvm"``, analyzer/_jit.py),
  compiled once: numba's IR inlining of them made ``_lead`` take ~4x as long to compile
  (docs/performance-first-use.md), for the same machine code speed (DD10: same nodes,
  82 vs 89 positions per CPU-second, main vs this, load 12-16).
- A node budget (workspace slot ``W_LIMIT``, none by default): a search that reaches it
  sets ``W_ABORT`` and unwinds; its value and its table entries are then void.
- Identical copies are one move (a legal set is a mask of card types).  Cards of equal
  power but different points (A and 10 of a suit with nothing between them outside the
  hand) are *not* merged: in Binokel every rank has its own point value, so that
  collapse would not be exact.
- Bounds: the remaining points (plus the last-trick bonus) cap every value; the last
  trick is scored directly without search.
- Move ordering: the table's best lead first; leads of cards no other hand can beat or
  ruff before others; a follower whose side takes the trick plays its points onto it,
  otherwise its cheapest card; the second hand counts the trick as taken by the third
  seat's side when that seat can still overtake (-10% nodes at 10 tricks).  Tried and
  dropped: a history heuristic as tie-break (no fewer nodes).

Kernel state: the workspace ``w`` int64[W_SIZE] (hand planes ``lo``/``hi``, modified
during search and restored; the rule tables; bonus, Durch flag, table mask, node count,
key basis, generation; a 16-move buffer per ply) and the table ``tt`` int64[size, 2]
(key; bounds, best lead, cards left and generation packed in the second word, see
:func:`new_table`), read inside the search as flat int64 pointers (row r at 2r, 2r + 1).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from analyzer._jit import njit
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_TYPES, Card, CardError, Hand, Suit, parse_cards
from analyzer.kernels.bits import ctpop, cttz, pext
from analyzer.mechanics.play import beat_table, card_beats, legal_mask_duty
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet
from analyzer.mechanics.melds import melds

# workspace layout (one int64 array, so a search call passes two arrays, not seven)
W_LO, W_HI, W_BEAT, W_CP = 0, 3, 6, 30
W_BONUS, W_DURCH, W_MASK, W_NODES, W_TRUMP, W_SOLOIST, W_BLT = 54, 55, 57, 58, 59, 60, 61
W_LIMIT = 62   # node budget: a search stops once W_NODES reaches it (W_ABORT set)
W_ABORT = 63
NO_LIMIT = np.int64(1) << np.int64(62)
MAX_PLY = 48
MAX_MOVES = 16
W_MV = 64
W_TTV = W_MV + MAX_PLY * MAX_MOVES   # scratch: the value _tt_cut found
W_BAS = W_TTV + 1      # key basis: the hands' planes at set_hands (lo 0-2, hi 3-5)
W_SH = W_BAS + 6       # bit offset of each basis plane's part of the key
W_GEN = W_SH + 6       # generation of the table's entries (set_hands / set_context)
W_SIZE = W_GEN + 1
TT_MIN_N = 2   # the table holds nodes with at least this many tricks left (_lead stores every such node)
GEN_LIMIT = np.int64(1) << np.int64(32)   # past it the table is cleared (no old entry may match)
DEFAULT_TT_BITS = 20

_M1 = np.int64(-7046029254386353131)   # 0x9E3779B97F4A7C15 as int64
_B10 = np.int64(0x3FF)
_Z = np.int64(0)
_M = np.int64(-1)


@njit(_nrt=False)
def _take(w, seat, b):
    """Remove one copy of the type with bit ``b`` from ``seat`` (the second copy first)."""
    if w[W_HI + seat] & b:
        w[W_HI + seat] &= ~b
    else:
        w[W_LO + seat] &= ~b


@njit(_nrt=False)
def _give(w, seat, b):
    """Undo :func:`_take`."""
    if w[W_LO + seat] & b:
        w[W_HI + seat] |= b
    else:
        w[W_LO + seat] |= b


@njit(_nrt=False, inline="llvm")
def _beats(w, c, wcard):
    """:func:`analyzer.mechanics.play.card_beats` (R6) on the workspace's beat table, read
    in place (calling card_beats with a slice measured 7 % slower at DD8; tests check both agree)."""
    if (w[W_BEAT + wcard] >> c) & 1:
        return True
    t = w[W_TRUMP]
    return t >= 0 and c // 6 == t and wcard // 6 != t


@njit(_nrt=False, inline="llvm")
def _legal(w, seat, k, lsuit, wcard, lhigh):
    """Legal types of ``seat`` by the play kernel's :func:`legal_mask_duty` with the
    RuleSet's duties (R6; V5.6: beat the led suit's highest card ``lhigh`` even when
    the trick is trumped)."""
    h = w[W_LO + seat]
    if k == 0:
        return h
    # legal_mask_duty (relief 0) with the beat table read in place: the shared kernel
    # with a slice per call measured 7 % slower at DD8 (tests check both agree)
    f = h & (np.int64(63) << (np.int64(6) * lsuit))
    if f != 0:
        tgt = lhigh if w[W_BLT] != 0 else wcard
        b = f & w[W_BEAT + tgt]
        return b if b != 0 else f
    trump = w[W_TRUMP]
    if trump >= 0:
        t = h & (np.int64(63) << (np.int64(6) * trump))
        if t != 0:
            if wcard // 6 == trump:
                b = t & w[W_BEAT + wcard]
                return b if b != 0 else t
            return t
    return h


@njit(_nrt=False, inline="llvm")
def _order(w, ply, legal, seat, k, lsuit, wcard, wseat, first):
    """Write the moves of ``legal`` into the ply's move buffer, best-first; returns their
    number.  Each entry is ``score * 64 + type``, sorted descending (insertion sort, at
    most 15 moves).  ``first``: a type to try first (the table's best lead) or -1.
    """
    n = 0
    m = legal
    soloist = w[W_SOLOIST]
    trump = w[W_TRUMP]
    base = W_MV + ply * MAX_MOVES
    others = np.int64(0)
    if k == 0:
        for p in range(3):
            if p != seat:
                others |= w[W_LO + p]
    while m != 0:
        c = cttz(m)
        m &= m - 1
        pts = w[W_CP + c]
        if c == first:
            sc = 10000
        elif k == 0:
            # lead: a card nobody can beat in its suit (and, off trump, nobody can ruff
            # because each still holds the suit) is a likely trick: try those first
            s = c // 6
            top = (w[W_BEAT + c] & others) == 0
            if top and trump >= 0 and s != trump:
                sm = np.int64(63) << np.int64(6 * s)
                tm = np.int64(63) << np.int64(6 * trump)
                for p in range(3):
                    if p != seat and (w[W_LO + p] & sm) == 0 and (w[W_LO + p] & tm) != 0:
                        top = False
            if top:
                sc = 200 + pts
            else:
                sc = 100 - pts
                if seat != soloist:
                    # a defender leads low to the partner's winner of the suit
                    pa = 3 - seat - soloist
                    sm = np.int64(63) << np.int64(6 * s)
                    pm = w[W_LO + pa] & sm
                    so = w[W_LO + soloist]
                    if pm != 0 and (w[W_BEAT + cttz(pm)] & so) == 0 and (
                            (so & sm) != 0 or trump < 0
                            or (so & (np.int64(63) << np.int64(6 * trump))) == 0):
                        sc = 150 - pts
        else:
            beats = _beats(w, c, wcard)
            ws = seat if beats else wseat
            mine = (ws == soloist) == (seat == soloist)
            if k == 1:
                # second hand: the third seat still plays; the trick is my side's if the
                # third seat is my partner and can take it, or an opponent who cannot
                s3 = seat + 1 if seat < 2 else 0
                nwc = c if beats else wcard
                h3 = w[W_LO + s3]
                sm = np.int64(63) << np.int64(6 * lsuit)
                # can the third seat overtake? (bit tests only: this orders, never prunes)
                if (h3 & sm) != 0:
                    over = nwc // 6 == lsuit and (w[W_BEAT + nwc] & h3) != 0
                elif trump >= 0 and (h3 & (np.int64(63) << np.int64(6 * trump))) != 0:
                    over = nwc // 6 != trump or (w[W_BEAT + nwc] & h3) != 0
                else:
                    over = False
                if over:
                    mine = (s3 == soloist) == (seat == soloist)
            if mine:
                sc = 100 + pts     # my side takes the trick: load points on it
            else:
                sc = 100 - pts     # else give the least
        e = np.int64(sc) * 64 + c
        j = n
        while j > 0 and w[base + j - 1] < e:
            w[base + j] = w[base + j - 1]
            j -= 1
        w[base + j] = e
        n += 1
    return n


@njit(_nrt=False)
def _last_trick(w, leader):
    """Soloist's points of the last trick (every card forced), bonus included (R7)."""
    s1 = leader + 1 if leader < 2 else 0
    s2 = s1 + 1 if s1 < 2 else 0
    c0 = cttz(w[W_LO + leader])
    c1 = cttz(w[W_LO + s1])
    c2 = cttz(w[W_LO + s2])
    wc = c0
    ws = leader
    if _beats(w, c1, wc):
        wc = c1
        ws = s1
    if _beats(w, c2, wc):
        ws = s2
    if ws == w[W_SOLOIST]:
        return np.int64(w[W_CP + c0] + w[W_CP + c1] + w[W_CP + c2] + w[W_BONUS])
    return _Z


@njit(_nrt=False, inline="llvm")
def _two_left(w, leader):
    """Exact value with two tricks left at a trick boundary, by direct enumeration (no
    recursion: the last six plies are most of the nodes of a search)."""
    soloist = w[W_SOLOIST]
    s1 = leader + 1 if leader < 2 else 0
    s2 = s1 + 1 if s1 < 2 else 0
    m0 = w[W_LO + leader]
    best0 = _M if leader == soloist else np.int64(1 << 20)
    while m0 != 0:
        c0 = cttz(m0)
        m0 &= m0 - 1
        b0 = np.int64(1) << np.int64(c0)
        _take(w, leader, b0)
        ls = c0 // 6
        m1 = _legal(w, s1, 1, ls, c0, c0)
        best1 = _M if s1 == soloist else np.int64(1 << 20)
        while m1 != 0:
            c1 = cttz(m1)
            m1 &= m1 - 1
            b1 = np.int64(1) << np.int64(c1)
            _take(w, s1, b1)
            wc1 = c0
            ws1 = leader
            if _beats(w, c1, c0):
                wc1 = c1
                ws1 = s1
            lh1 = c1 if (w[W_BEAT + c0] >> np.int64(c1)) & 1 else c0
            m2 = _legal(w, s2, 2, ls, wc1, lh1)
            best2 = _M if s2 == soloist else np.int64(1 << 20)
            while m2 != 0:
                c2 = cttz(m2)
                m2 &= m2 - 1
                b2 = np.int64(1) << np.int64(c2)
                _take(w, s2, b2)
                ws = ws1
                if _beats(w, c2, wc1):
                    ws = s2
                if ws == soloist:
                    v = w[W_CP + c0] + w[W_CP + c1] + w[W_CP + c2] + _last_trick(w, ws)
                elif w[W_DURCH] != 0:
                    v = _Z
                else:
                    v = _last_trick(w, ws)
                _give(w, s2, b2)
                if s2 == soloist:
                    best2 = max(best2, v)
                else:
                    best2 = min(best2, v)
            _give(w, s1, b1)
            if s1 == soloist:
                best1 = max(best1, best2)
            else:
                best1 = min(best1, best2)
        _give(w, leader, b0)
        if leader == soloist:
            best0 = max(best0, best1)
        else:
            best0 = min(best0, best1)
    return best0


@njit(_nrt=False, inline="llvm")
def _sure_trump_points(w):
    """Card points that one seat surely wins with its run of top trumps: the strongest
    remaining trump, if one seat holds all its copies, wins every trick it is played to
    (no card beats it, R6), and so do the next ones while the same seat holds them.
    Returns (seat, points), seat -1 when there is none (or no trump)."""
    trump = w[W_TRUMP]
    if trump < 0:
        return -1, _Z
    sm = np.int64(63) << np.int64(6 * trump)
    r = (w[W_LO] | w[W_LO + 1] | w[W_LO + 2]) & sm
    owner = -1
    pts = _Z
    while r != 0:
        # the strongest remaining trump: nothing remaining beats it
        top = -1
        m = r
        while m != 0:
            c = cttz(m)
            m &= m - 1
            if (w[W_BEAT + c] & r) == 0:
                top = c
                break
        b = np.int64(1) << np.int64(top)
        holder = -1
        for p in range(3):
            if w[W_LO + p] & b:
                holder = p if holder == -1 else -2
        if holder < 0 or (owner >= 0 and holder != owner):
            break
        owner = holder
        n = 2 if w[W_HI + holder] & b else 1
        pts += n * w[W_CP + top]
        r &= ~b
    return owner, pts


@intrinsic
def _ptr(typingctx, arr):
    """The data pointer of an int64 array: kernels of the search take two pointers, not
    two array structs (16 words of arguments per recursive call)."""
    if not isinstance(arr, types.Array) or arr.dtype != types.int64:
        return None
    sig = types.CPointer(types.int64)(arr)

    def codegen(context, builder, signature, args):
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return sig, codegen


@intrinsic
def _prefetch(typingctx, p, i):
    """Hint the CPU to load the cache line of element ``i`` of ``p`` into the cache."""
    if not isinstance(p, types.CPointer) or i != types.int64:
        return None
    sig = types.void(p, types.int64)

    def codegen(context, builder, signature, args):
        ptr = builder.gep(args[0], [args[1]])
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]), "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


@njit(_nrt=False, inline="llvm")
def _tt_key(w, leader):
    """Exact key of the trick-boundary node: which cards of the basis (the hands at
    :func:`set_hands`) each seat still holds, one bit per card (at most 48 bits: a deck
    of 48 cards), and the leader in the top two bits.  Every hand of a search is a subset
    of the basis, so equal keys mean equal positions."""
    k = pext(w[W_LO], w[W_BAS])
    k |= pext(w[W_LO + 1], w[W_BAS + 1]) << w[W_SH + 1]
    k |= pext(w[W_LO + 2], w[W_BAS + 2]) << w[W_SH + 2]
    k |= pext(w[W_HI], w[W_BAS + 3]) << w[W_SH + 3]
    k |= pext(w[W_HI + 1], w[W_BAS + 4]) << w[W_SH + 4]
    k |= pext(w[W_HI + 2], w[W_BAS + 5]) << w[W_SH + 5]
    return k | (leader << np.int64(62))


@njit(_nrt=False, inline="llvm")
def _tt_bucket(w, key):
    """First row of the key's bucket: four 16-byte entries, one 64-byte cache line."""
    return ((key * _M1) >> np.int64(28)) & w[W_MASK] & ~np.int64(3)


@njit(_nrt=False, inline="llvm")
def _tt_find(tt, b, key, gen):
    """The row of the bucket at ``b`` holding this key in this generation, or -1."""
    for r in range(b, b + 4):
        if tt[2 * r] == key and (tt[2 * r + 1] >> np.int64(31)) == gen:
            return r
    return -1


@njit(_nrt=False, inline="llvm")
def _tt_victim(tt, b, gen):
    """The row of the bucket at ``b`` for a new entry: one of an older generation (or
    empty) if any, else the one with the fewest cards left (the cheapest subtree)."""
    j = b
    jn = np.int64(99)
    for r in range(b, b + 4):
        d = tt[2 * r + 1]
        if (d >> np.int64(31)) != gen:
            return r
        dn = (d >> np.int64(26)) & np.int64(31)
        if dn < jn:
            j = r
            jn = dn
    return j


@njit(_nrt=False, inline="llvm")
def _tt_cut(w, tt, leader, alpha, beta):
    """The table entry of the trick-boundary node (current hands, ``leader`` to lead)
    decides its search in (alpha, beta) (a bound outside the window, or exact): True,
    with the value in ``w[W_TTV]``.  The node's own probe, done by the parent to save
    the call."""
    if ctpop(w[W_LO + leader]) + ctpop(w[W_HI + leader]) < TT_MIN_N:
        return False
    key = _tt_key(w, leader)
    hit = _tt_find(tt, _tt_bucket(w, key), key, w[W_GEN])
    if hit < 0:
        return False
    e = tt[2 * hit + 1]
    lb = e & _B10
    ub = (e >> np.int64(10)) & _B10
    if lb >= beta or lb == ub:
        w[W_TTV] = lb
        return True
    if ub <= alpha:
        w[W_TTV] = ub
        return True
    return False


@njit(_nrt=False, inline="llvm")
def _rewindow(v, alpha, beta, maxing):
    """The window of the full re-search after a zero-window search returned ``v`` inside
    (alpha, beta): the side to move found a better move; only its exact value is open."""
    if maxing:
        return v - 1, beta
    return alpha, v + 1


@njit(_nrt=False, inline="llvm")
def _better(v, best, alpha, beta, maxing):
    """Fold a move's value into the node's (best, alpha, beta); returns them and whether
    ``v`` is the new best."""
    if maxing:
        if v > best:
            return v, max(alpha, v), beta, True
    elif v < best:
        return v, alpha, min(beta, v), True
    return best, alpha, beta, False


@njit(_nrt=False, inline="llvm")
def _over_budget(w):
    """Count a node; True when the search has reached its node budget (``W_LIMIT``): it
    sets ``W_ABORT``, and the search's value and every table entry it stored are void
    (the caller clears the table, Solver.search)."""
    w[W_NODES] += 1
    if w[W_NODES] >= w[W_LIMIT]:
        w[W_ABORT] = 1
        return True
    return False


@njit(_nrt=False, inline="llvm")
def _pvs_windows(i, alpha, beta, maxing):
    """Principal variation search: the window of move ``i``'s first search (zero-width
    against the best so far after the first move) and whether a re-search may follow."""
    retry = i > 0 and beta - alpha > 1
    wa = alpha
    wb = beta
    if retry:
        if maxing:
            wb = alpha + 1
        else:
            wa = beta - 1
    return wa, wb, retry


@njit(_nrt=False, inline="always")
def _third(w, tt, leader, lsuit, wcard, wseat, lhigh, tp, rem, ply, alpha, beta):
    """Fail-soft value of a node whose trick holds two cards: the third card completes
    it, and each child is a trick boundary (decided by its table entry or a bound, else
    searched by :func:`_lead`).  Inlined into its parent, :func:`_second`."""
    if _over_budget(w):
        return _Z
    bonus = w[W_BONUS]
    soloist = w[W_SOLOIST]
    seat = leader + 2
    if seat >= 3:
        seat -= 3
    legal = _legal(w, seat, 2, lsuit, wcard, lhigh)
    nm = _order(w, ply, legal, seat, 2, lsuit, wcard, wseat, -1)
    maxing = seat == soloist
    best = _M if maxing else np.int64(1 << 20)
    base = W_MV + ply * MAX_MOVES
    for i in range(nm):
        c = w[base + i] & 63
        b = np.int64(1) << c
        _take(w, seat, b)
        nl = seat if _beats(w, c, wcard) else wseat
        pts = w[W_CP + c]
        # the next trick's value is offset by this trick's points when the soloist won it
        off = _Z
        if nl == soloist:
            off = tp + pts
            if w[W_LO + seat] == 0:
                off += bonus  # R7: the last trick
        if nl != soloist and w[W_DURCH] != 0:
            v = _Z   # R4: a Durch ends at the first defender trick
        else:
            wa, wb, retry = _pvs_windows(i, alpha, beta, maxing)
            while True:
                if wb - off <= 0:
                    v = off   # the next trick's node would fail high at once (value >= 0)
                elif rem - pts + bonus <= wa - off:
                    v = off + rem - pts + bonus   # ... or fail low at once (all that is left)
                elif _tt_cut(w, tt, nl, wa - off, wb - off):
                    v = off + w[W_TTV]   # its table entry decides it: skip the call
                else:
                    v = off + _lead(w, tt, np.int64(nl), np.int64(rem - pts), np.int64(ply + 1),
                                    np.int64(wa - off), np.int64(wb - off))
                if not retry or not (alpha < v < beta):
                    break
                retry = False
                wa, wb = _rewindow(v, alpha, beta, maxing)
        _give(w, seat, b)
        best, alpha, beta, _ = _better(v, best, alpha, beta, maxing)
        if alpha >= beta:
            break
    return best


@njit(_nrt=False, inline="always")
def _second(w, tt, leader, lsuit, wcard, lhigh, tp, rem, ply, alpha, beta):
    """Fail-soft value of a node whose trick holds the lead only (the winner so far is
    the leader); children are :func:`_third` nodes.  Inlined into :func:`_lead`."""
    if _over_budget(w):
        return _Z
    soloist = w[W_SOLOIST]
    seat = leader + 1 if leader < 2 else 0
    s3 = seat + 1 if seat < 2 else 0
    legal = _legal(w, seat, 1, lsuit, wcard, lhigh)
    nm = _order(w, ply, legal, seat, 1, lsuit, wcard, leader, -1)
    maxing = seat == soloist
    best = _M if maxing else np.int64(1 << 20)
    base = W_MV + ply * MAX_MOVES
    for i in range(nm):
        c = w[base + i] & 63
        b = np.int64(1) << c
        _take(w, seat, b)
        nlh = c if (w[W_BEAT + lhigh] >> c) & 1 else lhigh
        if _beats(w, c, wcard):
            nwc = c
            nws = seat
        else:
            nwc = wcard
            nws = leader
        pts = w[W_CP + c]
        if w[W_LO + seat] != 0 and ctpop(w[W_LO + seat]) + ctpop(w[W_HI + seat]) >= TT_MIN_N:
            # the third card's children are trick-boundary nodes whose table rows are
            # most likely not in the cache: ask for them now, a node before they are read
            m3 = _legal(w, s3, 2, lsuit, nwc, nlh)
            while m3 != 0:
                r = cttz(m3)
                m3 &= m3 - 1
                br = np.int64(1) << r
                _take(w, s3, br)
                wn = s3 if _beats(w, r, nwc) else nws
                _prefetch(tt, 2 * _tt_bucket(w, _tt_key(w, wn)))
                _give(w, s3, br)
        wa, wb, retry = _pvs_windows(i, alpha, beta, maxing)
        while True:
            v = _third(w, tt, leader, lsuit, nwc, nws, nlh, tp + pts, rem - pts, ply + 1, wa, wb)
            if not retry or not (alpha < v < beta):
                break
            retry = False
            wa, wb = _rewindow(v, alpha, beta, maxing)
        _give(w, seat, b)
        best, alpha, beta, _ = _better(v, best, alpha, beta, maxing)
        if alpha >= beta:
            break
    return best


@njit(_nrt=False)
def _lead(w, tt, leader, rem, ply, alpha, beta):
    """Fail-soft alpha-beta value of a trick-boundary node: the soloist's card points
    from here on, ``leader`` to lead, ``rem`` card points still in the three hands.
    Returns v with: v <= alpha => true value <= v; v >= beta => true value >= v; else v
    is exact.  The whole trick is searched in this call (its second and third cards by
    the inlined :func:`_second` and :func:`_third`): one recursive call per trick, with
    two pointers and five integers as arguments.

    Every recursive call passes exact int64 scalars: numba's cache mis-links a recursive
    call whose argument types need a cast (numba issue 6713: segfault on cache load).
    """
    if _over_budget(w):
        return _Z
    bonus = w[W_BONUS]
    soloist = w[W_SOLOIST]
    n = ctpop(w[W_LO + leader]) + ctpop(w[W_HI + leader])
    if n == 0:
        return _Z
    if n == 1:
        return _last_trick(w, leader)
    total = rem + bonus
    if total <= alpha:
        return total
    if beta <= 0:
        return _Z
    first = -1
    key = _tt_key(w, leader)
    idx = _tt_bucket(w, key)
    hit = _tt_find(tt, idx, key, w[W_GEN])
    if hit >= 0:
        e = tt[2 * hit + 1]
        lb = e & _B10
        ub = (e >> np.int64(10)) & _B10
        first = ((e >> np.int64(20)) & np.int64(63)) - 1
        if lb >= beta:
            return lb
        if ub <= alpha:
            return ub
        if lb == ub:
            return lb
        if lb > alpha:
            alpha = lb
        if ub < beta:
            beta = ub
    if n == 2:
        best = _two_left(w, leader)
        j = hit
        if j < 0:
            j = _tt_victim(tt, idx, w[W_GEN])
            tt[2 * j] = key
        tt[2 * j + 1] = best | (best << np.int64(10)) | (n << np.int64(26)) | (w[W_GEN] << np.int64(31))
        return best
    # sure-trick bounds: a seat's run of top trumps takes at least their points (after
    # the table: most nodes end there; with two tricks left the enumeration is cheaper)
    owner, sure = _sure_trump_points(w)
    if owner >= 0:
        if owner == soloist:
            if sure >= beta:
                return sure
        elif total - sure <= alpha:
            return total - sure
    a0 = alpha
    b0 = beta
    seat = leader
    legal = w[W_LO + seat]
    nm = _order(w, ply, legal, seat, 0, -1, -1, -1, first)
    maxing = seat == soloist
    best = _M if maxing else np.int64(1 << 20)
    bestc = -1
    base = W_MV + ply * MAX_MOVES
    for i in range(nm):
        c = w[base + i] & 63
        b = np.int64(1) << c
        _take(w, seat, b)
        pts = w[W_CP + c]
        wa, wb, retry = _pvs_windows(i, alpha, beta, maxing)
        while True:
            v = _second(w, tt, leader, c // 6, c, c, pts, rem - pts, ply + 1, wa, wb)
            if not retry or not (alpha < v < beta):
                break
            retry = False
            wa, wb = _rewindow(v, alpha, beta, maxing)
        _give(w, seat, b)
        best, alpha, beta, improved = _better(v, best, alpha, beta, maxing)
        if improved:
            bestc = c
        if alpha >= beta:
            break
    gen = w[W_GEN]
    j = _tt_find(tt, idx, key, gen)
    if j >= 0:
        e = tt[2 * j + 1]
        lb = e & _B10
        ub = (e >> np.int64(10)) & _B10
    else:
        j = _tt_victim(tt, idx, gen)
        tt[2 * j] = key
        lb = _Z
        ub = total
    if best <= a0:
        if best < ub:
            ub = best
    elif best >= b0:
        if best > lb:
            lb = best
    else:
        lb = best
        ub = best
    tt[2 * j + 1] = lb | (ub << np.int64(10)) | (np.int64(bestc + 1) << np.int64(20)) | (n << np.int64(26)) | (gen << np.int64(31))
    return best


@njit(_nrt=False)
def _ab(w, tt, leader, k, lsuit, wcard, wseat, lhigh, tp, rem, ply, alpha, beta):
    """Fail-soft alpha-beta value of any node (the search's root): ``leader`` led the
    current trick, ``k`` cards (0..2) are in it, ``lsuit`` the led suit,
    ``wcard``/``wseat`` its current winner, ``lhigh`` its strongest led-suit card (V5.6
    duty), ``tp`` its points so far; ``rem`` the card points still in the three hands."""
    if k == 0:
        return _lead(w, tt, np.int64(leader), np.int64(rem), np.int64(ply), np.int64(alpha),
                     np.int64(beta))
    if k == 1:
        return _second(w, tt, leader, lsuit, wcard, lhigh, tp, rem, ply, alpha, beta)
    return _third(w, tt, leader, lsuit, wcard, wseat, lhigh, tp, rem, ply, alpha, beta)


@njit(_nrt=False)
def _hand_points(w):
    s = _Z
    for p in range(6):
        m = w[p]
        while m != 0:
            c = cttz(m)
            m &= m - 1
            s += w[W_CP + c]
    return s


@njit(_nrt=False)
def init_workspace(w, kr):
    """Fill the rule tables of a workspace (int64[W_SIZE]) from the compiled RuleSet."""
    beat_table(kr, w[W_BEAT:W_BEAT + N_TYPES])
    for t in range(N_TYPES):
        w[W_CP + t] = kr.card_points[t]
    w[W_BONUS] = kr.last_trick_bonus
    w[W_BLT] = kr.beat_led_trumped
    w[W_LIMIT] = NO_LIMIT
    w[W_ABORT] = 0


@njit(_nrt=False)
def set_context(w, trump, soloist, tt_mask):
    """Prepare workspace ``w`` for solving with this trump (-1 = Durch, R4) and soloist."""
    w[W_TRUMP] = trump
    w[W_SOLOIST] = soloist
    w[W_DURCH] = 1 if trump < 0 else 0
    w[W_MASK] = tt_mask
    w[W_GEN] += 1   # entries of another context never match


@njit(_nrt=False)
def set_hands(w, lo, hi):
    """Copy the three hands' planes (int64[3] each) into the workspace; they become the
    basis of the table's keys (:func:`_tt_key`), so every search must start from these
    hands or a subset of them (a later :func:`set_hands` starts a new generation)."""
    sh = _Z
    for p in range(3):
        w[W_LO + p] = lo[p]
        w[W_HI + p] = hi[p]
        w[W_BAS + p] = lo[p]
        w[W_BAS + 3 + p] = hi[p]
    for q in range(6):
        w[W_SH + q] = sh
        sh += ctpop(w[W_BAS + q])
    w[W_GEN] += 1


@njit(_nrt=False, inline="always")
def _fresh(w, tt):
    """Clear the table when the generation counter reaches its limit (entries carry 33
    bits of it): an entry of a generation long ago must never match a new key."""
    if w[W_GEN] >= GEN_LIMIT:
        for r in range(tt.shape[0]):
            tt[r, 0] = 0
            tt[r, 1] = 0
        w[W_GEN] = 1


@njit(_nrt=False)
def dd_window(w, tt, leader, k, lsuit, wcard, wseat, lhigh, tp, alpha, beta):
    """One fail-soft alpha-beta search of the workspace's position in (alpha, beta)."""
    _fresh(w, tt)
    rem = _hand_points(w)
    return _ab(_ptr(w), _ptr(tt), np.int64(leader), np.int64(k), np.int64(lsuit), np.int64(wcard),
               np.int64(wseat), np.int64(lhigh), np.int64(tp), np.int64(rem), _Z, np.int64(alpha), np.int64(beta))


@njit(_nrt=False)
def dd_value(w, tt, leader, k, lsuit, wcard, wseat, lhigh, tp):
    """Exact value of the workspace's position (hands by :func:`set_hands`, trump and
    soloist by :func:`set_context`): the soloist's card points from here on.

    ``k`` cards are in the current trick, led by ``leader`` in suit ``lsuit``, won so
    far by ``wcard`` of ``wseat``, worth ``tp``.  One full-window alpha-beta search
    (measured faster than an MTD(f) driver here: see :func:`dd_value_mtdf`).
    """
    _fresh(w, tt)
    rem = _hand_points(w)
    return _ab(_ptr(w), _ptr(tt), np.int64(leader), np.int64(k), np.int64(lsuit), np.int64(wcard),
               np.int64(wseat), np.int64(lhigh), np.int64(tp), np.int64(rem), _Z, _M,
               np.int64(rem + tp + w[W_BONUS] + 1))


@njit(_nrt=False)
def dd_value_mtdf(w, tt, leader, k, lsuit, wcard, wseat, lhigh, tp, guess):
    """:func:`dd_value` by MTD(f): zero-window searches from ``guess`` until the lower
    and upper bounds meet."""
    _fresh(w, tt)
    rem = _hand_points(w)
    lower = _Z
    upper = rem + tp + w[W_BONUS]
    g = min(max(np.int64(guess), lower), upper)
    while lower < upper:
        beta = g + 1 if g == lower else g
        g = _ab(_ptr(w), _ptr(tt), np.int64(leader), np.int64(k), np.int64(lsuit), np.int64(wcard),
                np.int64(wseat), np.int64(lhigh), np.int64(tp), np.int64(rem), _Z, np.int64(beta - 1),
                np.int64(beta))
        if g < beta:
            upper = g
        else:
            lower = g
    return g


@njit(_nrt=False)
def dd_move_values(w, tt, leader, k, lsuit, wcard, wseat, lhigh, tp, out):
    """Exact value after every legal card of the seat to play: ``out[t]`` for the legal
    types t (others -1).  Returns the legal mask.  Value = the soloist's card points
    from this position on (the card played and the current trick included)."""
    seat = (leader + k) % 3
    legal = _legal(w, seat, k, lsuit, wcard, lhigh)
    for t in range(N_TYPES):
        out[t] = -1
    bonus = w[W_BONUS]
    m = legal
    while m != 0:
        c = cttz(m)
        m &= m - 1
        b = np.int64(1) << np.int64(c)
        _take(w, seat, b)
        if k == 0:
            nwc = c
            nws = seat
            nls = c // 6
            nlh = c
        else:
            nls = lsuit
            nlh = c if (w[W_BEAT + lhigh] >> np.int64(c)) & 1 else lhigh
            if _beats(w, c, wcard):
                nwc = c
                nws = seat
            else:
                nwc = wcard
                nws = wseat
        ntp = tp + w[W_CP + c]
        if k == 2:
            if w[W_LO + seat] == 0:
                ntp += bonus
            if nws == w[W_SOLOIST]:
                v = ntp + dd_value(w, tt, nws, 0, -1, -1, -1, -1, 0)
            elif w[W_DURCH] != 0:
                v = _Z
            else:
                v = dd_value(w, tt, nws, 0, -1, -1, -1, -1, 0)
        else:
            v = dd_value(w, tt, leader, k + 1, nls, nwc, nws, nlh, ntp)
        _give(w, seat, b)
        out[c] = v
    return legal


# --------------------------------------------------------------------------- Python API


def new_table(bits: int) -> np.ndarray:
    """An empty transposition table of ``2**bits`` entries (int64[2**bits, 2]: key, data),
    its rows aligned so that each bucket of four entries is one 64-byte cache line."""
    n = 1 << bits
    raw = np.zeros(2 * n + 8, dtype=np.int64)
    off = (-raw.ctypes.data % 64) // 8
    return raw[off:off + 2 * n].reshape(n, 2)


class TimedSearch:
    """Kernel searches of one :class:`Solver` under one time budget.

    ``max_seconds`` (None = unbounded) is turned into a node budget (``W_LIMIT``) for each
    search at the node rate measured on this machine now, never assumed: the first search
    measures it on its first 2 M nodes, then starts again with the budget; a search
    stopped while more than a tenth of the budget is left starts again at the rate it
    measured.  A stopped search's value and table entries are void (the table is
    cleared).  Calling it returns the search's value, or None when the budget ran out.
    Used by :func:`deal_table` and :func:`analyzer.search.best_discard.best_discard`.
    """

    def __init__(self, solver: "Solver", max_seconds: float | None, t0: float | None = None):
        import time

        self._clock = time.perf_counter
        self.solver = solver
        self.max_seconds = None if max_seconds is None else float(max_seconds)
        start = self._clock() if t0 is None else t0
        self.deadline = None if max_seconds is None else start + float(max_seconds)
        self.rate = 0.0   # nodes per second of this machine now

    def expired(self) -> bool:
        """True once the budget's deadline has passed."""
        return self.deadline is not None and self._clock() >= self.deadline

    def _run(self, fn, args, limit):
        s = self.solver
        s.w[W_LIMIT] = NO_LIMIT if limit is None else s.w[W_NODES] + max(int(limit), 1000)
        s.w[W_ABORT] = 0
        n0, c0 = int(s.w[W_NODES]), self._clock()
        r = int(fn(s.w, s.tt, *args))
        dt = self._clock() - c0
        if dt > 0.05:
            self.rate = max((int(s.w[W_NODES]) - n0) / dt, 1e4)
        s.w[W_LIMIT] = NO_LIMIT
        if s.w[W_ABORT]:
            s.w[W_ABORT] = 0
            s.clear()   # the stopped search's table entries are void
            return None
        return r

    def __call__(self, fn, *args):
        """``fn(w, tt, *args)`` (a kernel search of this module) within the budget."""
        if self.deadline is None:
            return self._run(fn, args, None)
        if self.rate == 0.0:
            r = self._run(fn, args, 2_000_000)
            if r is not None:
                return r
        while True:
            r = self._run(fn, args, (self.deadline - self._clock()) * self.rate)
            # stopped early because the rate (re-measured by that run) was too low: again
            if r is not None or self.deadline - self._clock() < 0.1 * self.max_seconds:
                return r


class Solver:
    """Double-dummy solver bound to one RuleSet, owning its transposition table.

    ``tt_bits``: log2 of the table entries (2**20 entries = 16 MiB).  Reusing one Solver
    for many positions reuses the table: entries are keyed by the remaining cards, the
    leader, the trump and the soloist, so they stay exact across positions.
    """

    def __init__(self, rules: RuleSet = DEFAULT_RULES, tt_bits: int = DEFAULT_TT_BITS):
        if not 10 <= int(tt_bits) <= 26:
            raise BinokelError(f"tt_bits must be 10..26, got {tt_bits!r}")
        self.rules = rules
        self.w = np.zeros(W_SIZE, dtype=np.int64)
        init_workspace(self.w, rules.kernel)
        self.tt = new_table(int(tt_bits))
        self.tt_mask = (1 << int(tt_bits)) - 1

    def clear(self) -> None:
        """Forget every table entry."""
        self.tt[:] = 0

    @property
    def nodes(self) -> int:
        """Nodes searched since the Solver was made."""
        return int(self.w[W_NODES])

    def _load(self, pos: "Position") -> tuple:
        set_context(self.w, pos.trump, pos.soloist, self.tt_mask)
        lo, hi = pos.planes()
        set_hands(self.w, lo, hi)
        return (pos.leader,) + pos.trick_state(self.w[W_BEAT:W_BEAT + N_TYPES], self.w[W_CP:W_CP + N_TYPES])

    def value(self, pos: "Position") -> int:
        """The position's exact value (soloist's card points from here on)."""
        args = self._load(pos)
        return int(dd_value(self.w, self.tt, *args))

    def move_values(self, pos: "Position") -> dict[Card, int]:
        """Exact value after each legal card of the seat to play (soloist's points from
        the position on, the current trick included)."""
        args = self._load(pos)
        out = np.empty(N_TYPES, dtype=np.int64)
        legal = dd_move_values(self.w, self.tt, *args, out)
        return {Card(t): int(out[t]) for t in range(N_TYPES) if (int(legal) >> t) & 1}


@dataclass(frozen=True)
class Position:
    """A card-play position (validated): hands of seats 0-2, trump index (-1 = Durch),
    soloist seat, leader of the current trick and its cards in play order."""

    hands: tuple[Hand, Hand, Hand]
    trump: int
    soloist: int
    leader: int
    trick: tuple[Card, ...] = ()

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % 3

    @property
    def tricks_left(self) -> int:
        """Tricks still to finish, the current one included."""
        return len(self.hands[self.leader]) + (1 if self.trick else 0)

    def planes(self) -> tuple[np.ndarray, np.ndarray]:
        lo = np.zeros(3, dtype=np.int64)
        hi = np.zeros(3, dtype=np.int64)
        for p, h in enumerate(self.hands):
            m = h.mask
            lo[p] = m & ((1 << N_TYPES) - 1)
            hi[p] = m >> N_TYPES
        return lo, hi

    def trick_state(self, beat, cp) -> tuple:
        """(k, led suit, winning card, winning seat, strongest led-suit card, trick
        points) for the kernels."""
        k = len(self.trick)
        if k == 0:
            return 0, -1, -1, -1, -1, np.int64(0)
        w = 0
        hi = 0
        for i in range(1, k):
            if card_beats(self.trick[i].id, self.trick[w].id, self.trump, beat):
                w = i
            if (int(beat[self.trick[hi].id]) >> self.trick[i].id) & 1:
                hi = i
        tp = sum(int(cp[c.id]) for c in self.trick)
        return (k, self.trick[0].id // 6, self.trick[w].id, (self.leader + w) % 3,
                self.trick[hi].id, np.int64(tp))


def make_position(hands, trump, soloist: int, leader: int, trick=(),
                  rules: RuleSet = DEFAULT_RULES) -> Position:
    """Validate and build a :class:`Position` (R1 copies, R6 duties of the trick's cards).

    ``hands``: three Hands or card texts (seats 0, 1, 2), holding the cards *not yet
    played*; ``trump``: a suit (Suit / 'S' ...) or None / 'N' for Durch (no trump, R4);
    ``trick``: the cards already played to the current trick, the leader's first.
    Raises :class:`BinokelError` with a one-line message on inconsistent input.
    """
    hs = tuple(Hand.parse(h) for h in hands)
    if len(hs) != 3:
        raise BinokelError(f"give three hands (seats 0, 1, 2), got {len(hs)}")
    if trump is None or (isinstance(trump, str) and trump.strip().upper() in ("N", "NONE", "DURCH")):
        t = -1
    else:
        t = Suit.parse(trump).index
    for name, v in (("soloist", soloist), ("leader", leader)):
        if v not in (0, 1, 2):
            raise BinokelError(f"{name} must be seat 0, 1 or 2, got {v!r}")
    cards = tuple(parse_cards(trick)) if not isinstance(trick, tuple) or any(
        not isinstance(c, Card) for c in trick) else trick
    if len(cards) > 2:
        raise BinokelError(f"the current trick holds 0 to 2 cards before the next play, got {len(cards)}")
    for ty in range(N_TYPES):
        n = sum(h.counts[ty] for h in hs) + sum(1 for c in cards if c.id == ty)
        if n > 2:
            raise CardError(f"{n} copies of {Card(ty)} in hands and trick: the deck has two (R1)")
    n0 = len(hs[leader])
    sizes = []
    for i in range(3):
        seat = (leader + i) % 3
        sizes.append(len(hs[seat]) + (1 if i < len(cards) else 0))
    if len(set(sizes)) != 1 or sizes[0] == 0:
        raise BinokelError(
            "hand sizes do not fit the trick: seats that played to the current trick hold one "
            f"card fewer (sizes {[len(h) for h in hs]}, leader {leader}, {len(cards)} card(s) in the trick)")
    if sizes[0] > rules.hand_size:
        raise BinokelError(f"hands hold at most {rules.hand_size} cards (R2), got {sizes[0]}")
    del n0
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(rules.kernel, beat)
    # the trick's cards must have been legal for their players (R6)
    for i in range(1, len(cards)):
        seat = (leader + i) % 3
        w = 0
        hi = 0
        for j in range(1, i):
            if card_beats(cards[j].id, cards[w].id, t, beat):
                w = j
            if (int(beat[cards[hi].id]) >> cards[j].id) & 1:
                hi = j
        held = hs[seat].mask & ((1 << N_TYPES) - 1) | (1 << cards[i].id)
        legal = int(legal_mask_duty(np.int64(held), cards[0].id // 6, cards[w].id,
                                    cards[hi].id, t, beat, rules.kernel.beat_led_trumped, 0))
        if not (legal >> cards[i].id) & 1:
            raise BinokelError(f"{cards[i].code} by seat {seat} breaks R6 with that hand "
                               "(it had to follow suit, beat or trump)")
    return Position(hs, t, int(soloist), int(leader), cards)


def solve_position(hands, trump, soloist: int, leader: int, trick=(),
                   rules: RuleSet = DEFAULT_RULES, solver: Solver | None = None) -> dict:
    """Double-dummy value of a position and of each legal card (see the module docstring).

    Returns ``{"value": int, "to_play": seat, "moves": {card code: value}}``; values are
    the soloist's card points from the position on (current trick included, R7).
    """
    pos = make_position(hands, trump, soloist, leader, trick, rules)
    s = solver or Solver(rules)
    mv = s.move_values(pos)
    v = s.value(pos)
    return {"value": v, "to_play": pos.to_play, "moves": {c.code: x for c, x in mv.items()}}


def parse_position_line(text: str, rules: RuleSet = DEFAULT_RULES) -> Position:
    """Parse ``"TRUMP SOLOIST LEADER HAND0 HAND1 HAND2 TRICK"`` into a :class:`Position`.

    TRUMP: C S H D, or N (no trump: Durch, R4); seats 0-2; hands and the current trick
    as comma-separated cards (``AS,10H,9D``), ``-`` for none; the trick starts with
    LEADER's card.  Example: ``S 0 1 AS,10H KD QS,JC 9C``.
    """
    parts = str(text).split()
    if len(parts) != 7:
        raise BinokelError(
            f"a position line has 7 fields (TRUMP SOLOIST LEADER HAND0 HAND1 HAND2 TRICK, '-' "
            f"for none), got {len(parts)}: e.g. 'S 0 1 AS,10H KD QS,JC 9C'")
    trump, sol, ld = parts[0], parts[1], parts[2]
    if trump.upper() == "N":
        trump = None
    seats = []
    for name, v in (("SOLOIST", sol), ("LEADER", ld)):
        if v not in ("0", "1", "2"):
            raise BinokelError(f"position line: {name} must be a seat 0, 1 or 2, got {v!r}")
        seats.append(int(v))
    hands = [Hand(tuple([0] * N_TYPES)) if p == "-" else Hand.parse(p) for p in parts[3:6]]
    trick = () if parts[6] == "-" else tuple(parse_cards(parts[6]))
    return make_position(hands, trump, seats[0], seats[1], trick, rules)


def deal_table(hands, soloist: int = 0, rules: RuleSet = DEFAULT_RULES,
               solver: Solver | None = None, trumps: str = "CSHDN",
               max_seconds: float | None = None, progress=None) -> list[dict]:
    """Double-dummy table of a deal, like bridge's DD table (R4-R7).

    ``hands``: three hands of ``rules.hand_size`` cards (seats 0-2); the 3 cards in no
    hand are the Tapp, taken as the soloist's discard (picking up the Tapp and putting
    the same cards back is a legal exchange, R4), so their points count for the soloist.
    For each trump in ``trumps`` (``N`` = Durch): forehand leads (in a Durch the
    soloist, R4); ``play`` = the soloist's exact trick points, ``card_points`` = play +
    discard, ``melds`` = the soloist's melds (R5; none in a Durch), ``total`` = card
    points + melds (R8: melds count only with a trick; a won trick of 0 card points is
    not told apart from none), and for a Durch ``made``.

    ``max_seconds``: a time budget for the whole table (None = none; :class:`TimedSearch`).
    When it runs out, the row being solved and every later one come back as
    ``{"trump": t, "solved": False}`` (no figure is guessed); solved rows have no
    ``solved`` key.  ``progress(done, total, row, seconds)``: called after each row with
    the rows done, the rows in all, the row (or the unsolved marker) and the seconds so far.
    """
    hs = [Hand.parse(h) for h in hands]
    if len(hs) != 3 or any(len(h) != rules.hand_size for h in hs):
        raise BinokelError(f"a deal needs three hands of {rules.hand_size} cards (R2)")
    counts = [sum(h.counts[t] for h in hs) for t in range(N_TYPES)]
    if max(counts) > 2:
        raise CardError("a card appears more than twice in the three hands: the deck has two (R1)")
    tapp = Hand(tuple((2 if rules.in_deck(t) else 0) - c for t, c in enumerate(counts)))
    cp = rules.kernel.card_points
    disc = sum(int(cp[c.id]) for c in tapp.cards())
    s = solver or Solver(rules)
    t0 = time.perf_counter()
    search = TimedSearch(s, max_seconds, t0)
    rows = []
    for t in trumps:
        durch = t == "N"
        leader = soloist if durch else 0
        name = "N" if durch else t
        if rows and "solved" in rows[-1]:
            v = None   # the budget ran out on an earlier row: none of the later ones
        else:
            pos = make_position(hs, None if durch else t, soloist, leader, (), rules)
            v = search(dd_value, *s._load(pos))
        if v is None:
            row = {"trump": name, "solved": False}
        else:
            m = 0 if durch else melds(hs[soloist], Suit.parse(t), rules).total
            row = {"trump": name, "play": v, "card_points": v + disc,
                   "melds": m, "total": v + disc + (m if v > 0 else 0)}
            if durch:
                row["made"] = v == 240 - disc + int(rules.last_trick_bonus)
        rows.append(row)
        if progress is not None:
            progress(len(rows), len(trumps), row, time.perf_counter() - t0)
    return rows
