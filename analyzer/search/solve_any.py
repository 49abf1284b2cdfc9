"""Double-dummy solver for any table on the one trick step (R6, R7, R4; V4.5, V4.6,
V5.6, V6.4; issue 24).

A *position* is every seat's hand (all cards open: double dummy; a seat that sits out
holds nothing), the trump suit (or none: a Durch, R4), the soloist, the leader of the
current trick and the trick's cards.  Its *value* is the card points the soloist's
**side** takes from here on: partners together (V1), the soloist alone in a
three-player game; the current trick's cards included, + the last-trick bonus (R7).
The soloist's side maximizes, the other side minimizes.  In a Durch (where the game has
one, ``scoring.durch`` > 0) play ends at the first trick the soloist does not win
himself, his partner's included (R4; V4.6 Reading), and that trick credits nothing: the
Durch is made exactly when the value is every remaining point.

Everything the rules say comes from the compiled :class:`analyzer.mechanics.ruleset.Kernel`
and the trick step (:func:`analyzer.mechanics.trick.legal`, :func:`~analyzer.mechanics.trick.add_card`):
seat order ``next_seat`` (a seat that sits out is skipped), sides
(:func:`~analyzer.mechanics.trick.sides_of`), partner relief (V5.6), the beat modes of
R6.1 / V5.6 / V6.4, k bit planes per hand (4 copies in pinochle-80).  No game's name.

Search: fail-soft alpha-beta over single cards with principal variation search (after
the first card, a zero window against the best so far, searched again only when it
beats it: -30 % nodes at 7 tricks left in kreuz-48, kreuz-40 and pinochle-80); the last
trick is scored without search (one card each); identical copies are one move (a legal
set is a mask of types); a transposition table probed and stored at trick boundaries
only, keyed exactly by the cards each seat still holds and the leader: at the root each
seat's copies of each type get a unary field of the key (one bit per card held at the
root, so at most :data:`MAX_KEY_CARDS` cards), and playing a copy clears that field's
highest set bit.  Entries hold a lower and an upper bound of the *remaining* points,
the best lead and a generation (each root search starts a new one).  Bounds: 0 and the
remaining points (+ the bonus).  Ordering: the table's best lead first, leads by points;
a follower takes the trick with points when the other side wins it, adds points to its
own side's trick, else plays its cheapest card.  A node budget (``C_LIMIT``) stops a
search, whose value is then void (``C_ABORT``).

The three-player games keep the tuned solver (:mod:`analyzer.search.solve`, same values,
tested on random positions); :func:`dd_solver` picks the kernel by asking the RuleSet.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from analyzer._jit import njit
from analyzer.errors import BinokelError
from analyzer.kernels.bits import cttz
from analyzer.mechanics.cards import (N_RANKS, N_TYPES, Card, CardError, Hand, Suit, card_code,
                                      parse_cards)
from analyzer.mechanics.rules import from_flat, get_rules
from analyzer.mechanics.ruleset import SIDES_SOLO, RuleSet as Game, get_game
from analyzer.mechanics.trick import add_card, legal, sides_of
from analyzer.search.solve import Position, Solver

# context array layout (one int64 array: the search passes few arguments)
C_TRUMP, C_SOLOIST, C_DURCH, C_BONUS, C_NPLAY = 0, 1, 2, 3, 4
C_FOLLOW, C_TDUTY, C_BMODE, C_OVER, C_RELIEF = 5, 6, 7, 8, 9
C_KEY, C_GEN, C_MASK, C_NODES, C_LBIT, C_REM, C_LEFT, C_LIMIT, C_ABORT = range(10, 19)
C_PVS = 19                  # 1: principal variation search (0: plain alpha-beta)
C_SIZE = 20
MAX_KEY_CARDS = 60          # cards in the hands at the root: one key bit each, + 2 for the leader
MAX_PLY = MAX_KEY_CARDS + 4
NO_LIMIT = np.int64(1) << np.int64(62)
GEN_LIMIT = np.int64(1) << np.int64(26)
BIG = np.int64(1) << np.int64(20)
DEFAULT_TT_BITS = 20
_M1 = np.int64(-7046029254386353131)   # 0x9E3779B97F4A7C15 as int64
_F12 = np.int64(0xFFF)
_Z = np.int64(0)
_M = np.int64(-1)


@njit(_nrt=False)
def _probe(tt, c, key):
    """Row of ``key``'s entry of this generation, or -1."""
    base = ((key * _M1) >> np.int64(24)) & c[C_MASK] & ~np.int64(3)
    for e in range(base, base + 4):
        if tt[e, 0] == key and (tt[e, 1] >> np.int64(36)) == c[C_GEN]:
            return e
    return np.int64(-1)


@njit(_nrt=False)
def _store(tt, c, key, row, lower, upper, best):
    """Store bounds of ``key`` (in its row if found, else over an entry of an older
    generation, else the one with the fewest cards left)."""
    if row < 0:
        base = ((key * _M1) >> np.int64(24)) & c[C_MASK] & ~np.int64(3)
        row = base
        few = np.int64(1 << 30)
        for e in range(base, base + 4):
            if (tt[e, 1] >> np.int64(36)) != c[C_GEN]:
                row = e
                break
            left = (tt[e, 1] >> np.int64(29)) & np.int64(127)
            if left < few:
                few = left
                row = e
    tt[row, 0] = key
    tt[row, 1] = (lower | (upper << np.int64(12)) | ((best + 1) << np.int64(24))
                  | (c[C_LEFT] << np.int64(29)) | (c[C_GEN] << np.int64(36)))


@njit(_nrt=False)
def _search(h, c, side, nxt, beat, cp, off, mv, tt, seat, ply, ncards, lsuit, wcard, wseat,
            lhigh, tp, alpha, beta, only):
    """Value (module docstring) of the node where ``seat`` plays the ``ncards``-th card of
    the trick (``lsuit``, ``wcard``, ``wseat``, ``lhigh``, points ``tp`` so far); fail-soft
    within (``alpha``, ``beta``).  ``only`` >= 0: try that card type alone (no table)."""
    c[C_NODES] += 1
    soloist = c[C_SOLOIST]
    row = np.int64(-1)
    key = np.int64(0)
    lower = np.int64(0)
    upper = np.int64(0)
    hint = np.int64(-1)
    boundary = ncards == 0 and only < 0
    if boundary:
        if h[seat, 0] == 0:
            return np.int64(0)
        if c[C_NODES] >= c[C_LIMIT]:
            c[C_ABORT] = 1
        if c[C_ABORT] != 0:
            return np.int64(0)
        upper = c[C_REM] + c[C_BONUS]
        if c[C_LEFT] == c[C_NPLAY]:
            # the last trick: one card each, no choice (R7: its points + the bonus)
            q = seat
            ls = _M
            wc = _M
            ws = _M
            lh = _M
            for _ in range(c[C_NPLAY]):
                ls, wc, ws, lh = add_card(cttz(h[q, 0]), q, ls, wc, ws, lh, c[C_TRUMP], beat)
                q = nxt[q]
            if c[C_DURCH] != 0:
                return upper if ws == soloist else _Z
            return upper if side[ws] == side[soloist] else _Z
        if upper <= alpha:
            return upper
        if beta <= 0:
            return np.int64(0)
        key = c[C_KEY] | (np.int64(seat) << c[C_LBIT])
        row = _probe(tt, c, key)
        if row >= 0:
            d = tt[row, 1]
            lower = d & _F12
            upper = (d >> np.int64(12)) & _F12
            hint = ((d >> np.int64(24)) & np.int64(31)) - 1
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
            if lower > alpha:
                alpha = lower
            if upper < beta:
                beta = upper
    a0 = alpha
    b0 = beta
    maxing = side[seat] == side[soloist]
    trump = c[C_TRUMP]
    relief = 0
    if lsuit >= 0 and c[C_RELIEF] != 0 and side[wseat] == side[seat]:
        relief = 1
    lg = legal(h[seat, 0], lsuit, wcard, lhigh, trump, beat, c[C_FOLLOW], c[C_TDUTY],
               c[C_BMODE], c[C_OVER], relief)
    if only >= 0:
        lg &= np.int64(1) << np.int64(only)
    # order: moves in mv[ply, 0:n], scores in mv[ply, 24:24 + n], best first
    n = 0
    for t in range(N_TYPES):
        if (lg >> np.int64(t)) & 1:
            if t == hint:
                s = np.int64(1000)
            elif lsuit < 0:
                s = cp[t] * 4 + (N_RANKS - t % N_RANKS)
            else:
                takes = ((beat[wcard] >> np.int64(t)) & 1) != 0 or (
                    t // 6 == trump and wcard // 6 != trump)
                if side[wseat] == side[seat]:
                    s = cp[t] - (50 if takes else 0)
                elif takes:
                    s = 100 + cp[t]
                else:
                    s = -cp[t]
            i = n
            while i > 0 and mv[ply, 24 + i - 1] < s:
                mv[ply, i] = mv[ply, i - 1]
                mv[ply, 24 + i] = mv[ply, 24 + i - 1]
                i -= 1
            mv[ply, i] = t
            mv[ply, 24 + i] = s
            n += 1
    best = np.int64(-1) if maxing else BIG
    bestc = np.int64(-1)
    k = h.shape[1]
    for i in range(n):
        t = mv[ply, i]
        b = np.int64(1) << np.int64(t)
        j = k - 1
        while (h[seat, j] & b) == 0:
            j -= 1
        h[seat, j] &= ~b
        kb = np.int64(1) << (off[seat, t] + j)
        c[C_KEY] -= kb
        c[C_REM] -= cp[t]
        c[C_LEFT] -= 1
        nls, nwc, nws, nlh = add_card(t, seat, lsuit, wcard, wseat, lhigh, trump, beat)
        ntp = tp + cp[t]
        nply = np.int64(ply + 1)
        last = ncards + 1 == c[C_NPLAY]
        if last and h[nws, 0] == 0:
            ntp += c[C_BONUS]
        wa = alpha
        wb = beta
        if i > 0 and c[C_PVS] != 0:
            if maxing:
                wb = alpha + 1
            else:
                wa = beta - 1
        while True:
            if last:
                if c[C_DURCH] != 0 and nws != soloist:
                    v = _Z
                elif c[C_DURCH] != 0 or side[nws] == side[soloist]:
                    v = ntp + _search(h, c, side, nxt, beat, cp, off, mv, tt, nws, nply, _Z,
                                      _M, _M, _M, _M, _Z, wa - ntp, wb - ntp, _M)
                else:
                    v = _search(h, c, side, nxt, beat, cp, off, mv, tt, nws, nply, _Z,
                                _M, _M, _M, _M, _Z, wa, wb, _M)
            else:
                v = _search(h, c, side, nxt, beat, cp, off, mv, tt, nxt[seat], nply,
                            ncards + 1, nls, nwc, nws, nlh, ntp, wa, wb, _M)
            if c[C_ABORT] != 0 or (wa == alpha and wb == beta) or v <= alpha or v >= beta:
                break
            if (maxing and wa != alpha) or (not maxing and wb != beta):
                break     # the one re-search is done: its value stands
            if maxing:
                wa = v
                wb = beta
            else:
                wa = alpha
                wb = v
        h[seat, j] |= b
        c[C_KEY] += kb
        c[C_REM] += cp[t]
        c[C_LEFT] += 1
        if c[C_ABORT] != 0:
            return np.int64(0)
        if maxing:
            if v > best:
                best = v
                bestc = t
                if best > alpha:
                    alpha = best
        else:
            if v < best:
                best = v
                bestc = t
                if best < beta:
                    beta = best
        if alpha >= beta:
            break
    if boundary:
        if best <= a0:
            upper = best
        elif best >= b0:
            lower = best
        else:
            lower = best
            upper = best
        _store(tt, c, key, row, lower, upper, bestc)
    return best


@njit(_nrt=False)
def _new_generation(c, tt):
    c[C_GEN] += 1
    if c[C_GEN] >= GEN_LIMIT:
        tt[:, :] = 0
        c[C_GEN] = 1


@njit(_nrt=False)
def search_root(h, c, side, nxt, beat, cp, off, mv, tt, seat, ncards, lsuit, wcard, wseat,
                lhigh, tp, only):
    """A root search in a new table generation with the full window (``only``: one card)."""
    c[C_ABORT] = 0
    return _search(h, c, side, nxt, beat, cp, off, mv, tt, np.int64(seat), _Z,
                   np.int64(ncards), np.int64(lsuit), np.int64(wcard), np.int64(wseat),
                   np.int64(lhigh), np.int64(tp), _M, BIG, np.int64(only))


@njit(_nrt=False)
def world_move_values(cnt, c, side, nxt, beat, cp, h, off, mv, tt, seat, ncards, lsuit, wcard,
                      wseat, lhigh, tp, legal, out):
    """The exact value (module docstring: the soloist's side's card points from the current
    trick on, R7; a Durch ends at the soloist's first lost trick, R4, V4.6) after each
    legal card type of ``seat`` in one world: ``cnt`` (any int array [>= seats, 24]) the
    cards each seat holds now, the trick in progress (``ncards`` cards, ``lsuit``,
    ``wcard``, ``wseat``, ``lhigh``, ``tp`` points).  ``out[t]`` is written for each type
    of the mask ``legal``; the others are left alone.

    The workspace is the caller's, reused world after world (no allocation here): ``c``
    the context (trump, soloist, bonus, duties set once, :func:`world_workspace`), ``h``
    int64[seats, k] and ``off`` int64[seats, 24] overwritten, ``mv`` and the table ``tt``
    (a new generation per world: a key means the cards left of *this* world's root)."""
    seats = h.shape[0]
    k = h.shape[1]
    for s in range(seats):
        for j in range(k):
            h[s, j] = 0
    bit = np.int64(0)
    rem = np.int64(0)
    for s in range(seats):
        for t in range(N_TYPES):
            n = np.int64(cnt[s, t])
            for j in range(n):
                h[s, j] |= np.int64(1) << np.int64(t)
            off[s, t] = bit
            bit += n
            rem += cp[t] * n
    c[C_KEY] = (np.int64(1) << bit) - 1
    c[C_LBIT] = bit
    c[C_REM] = rem
    c[C_LEFT] = bit
    c[C_ABORT] = 0
    _new_generation(c, tt)
    m = np.int64(legal)
    while m != 0:
        t = cttz(m)
        m &= m - 1
        out[t] = _search(h, c, side, nxt, beat, cp, off, mv, tt, np.int64(seat), _Z,
                         np.int64(ncards), np.int64(lsuit), np.int64(wcard), np.int64(wseat),
                         np.int64(lhigh), np.int64(tp), _M, BIG, np.int64(t))
    return bit


# --------------------------------------------------------------------------- Python API

def game_of(rules) -> Game:
    """The nested RuleSet of a name, a nested RuleSet or a flat view."""
    if isinstance(rules, Game):
        return rules
    if rules is None or isinstance(rules, str):
        return get_game(rules)
    return from_flat(rules)


def new_table(bits: int) -> np.ndarray:
    """An empty table of ``2**bits`` entries (int64[2**bits, 2]: key, data)."""
    return np.zeros((1 << int(bits), 2), dtype=np.int64)


@dataclass(frozen=True)
class TablePosition:
    """A validated card-play position at any table: ``hands[s]`` = 24 type counts of
    seat s (every seat at the table), ``trump`` 0..3 or -1 (Durch), ``soloist``,
    ``leader`` of the current trick, ``trick`` = its card types in play order."""

    hands: tuple[tuple[int, ...], ...]
    trump: int
    soloist: int
    leader: int
    trick: tuple[int, ...] = ()
    next_seat: tuple[int, ...] = ()

    def seat_at(self, i: int) -> int:
        """The seat that plays the ``i``-th card of the current trick."""
        s = self.leader
        for _ in range(i):
            s = self.next_seat[s]
        return s

    @property
    def to_play(self) -> int:
        return self.seat_at(len(self.trick))

    @property
    def tricks_left(self) -> int:
        """Tricks still to finish, the current one included."""
        return sum(self.hands[self.leader]) + (1 if self.trick else 0)


def _trick_state(trick, leader, nxt, trump, beat, cp):
    ls, wc, ws, lh = -1, -1, -1, -1
    s = leader
    for t in trick:
        ls, wc, ws, lh = add_card(int(t), s, ls, wc, ws, lh, trump, beat)
        s = int(nxt[s])
    return int(ls), int(wc), int(ws), int(lh), sum(int(cp[t]) for t in trick), s


def table_position(rules, hands, trump, soloist: int, leader: int, trick=()) -> TablePosition:
    """Validate and build a :class:`TablePosition` of the game ``rules``.

    ``hands``: one hand per seat at the table (Hands, card texts or 24-count lists; a
    seat that sits out (V3) gives an empty one); ``trump``: a suit, or None / 'N' for a
    Durch (R4; refused where the game has none); ``trick``: the current trick's cards,
    the leader's first.  One-line :class:`BinokelError` on inconsistent input.
    """
    g = game_of(rules)
    kr = g.kernel
    seats = kr.table_seats
    names = g.table.seat_names
    if len(hands) != seats:
        raise BinokelError(f"{g.name} has {seats} seats ({', '.join(names)}): give {seats} "
                           f"hands, got {len(hands)}")
    counts = []
    for s, hd in enumerate(hands):
        if isinstance(hd, str):
            cs = [0] * N_TYPES
            for card in ([] if hd.strip() in ("", "-") else parse_cards(hd, rules=_low_of(g))):
                cs[card.id] += 1
        elif hasattr(hd, "counts"):
            cs = list(hd.counts)
        else:
            cs = [int(x) for x in hd]
        if len(cs) != N_TYPES:
            raise BinokelError(f"a hand needs {N_TYPES} type counts, got {len(cs)}")
        counts.append(tuple(cs))
    if trump is None or (isinstance(trump, str) and trump.strip().upper() in ("N", "NONE", "DURCH")):
        if kr.durch_value <= 0:
            raise BinokelError(f"{g.name} has no Durch ({g.section}): give a trump suit C S H D")
        t = -1
    elif isinstance(trump, (int, np.integer)) and not isinstance(trump, bool):
        if not 0 <= int(trump) <= 3:
            raise BinokelError(f"trump must be a suit 0..3 or Durch, got {trump!r}")
        t = int(trump)
    else:
        t = Suit.parse(trump).index
    for name, v in (("soloist", soloist), ("leader", leader)):
        if not (isinstance(v, (int, np.integer)) and 0 <= v < seats) or kr.sits_out[v]:
            play = [str(q) for q in range(seats) if not kr.sits_out[q]]
            raise BinokelError(f"{name} must be a seat in play ({', '.join(play)}), got {v!r}")
    if isinstance(trick, str) or any(isinstance(x, str) for x in trick):
        trick = parse_cards(trick, rules=_low_of(g))
    cards = [c.id if isinstance(c, Card) else int(c) for c in trick]
    n_play = kr.n_play
    if len(cards) >= n_play:
        raise BinokelError(f"the current trick holds 0 to {n_play - 1} cards before the next "
                           f"play, got {len(cards)}")
    for ty in range(N_TYPES):
        n = sum(h[ty] for h in counts) + cards.count(ty)
        if n > int(kr.copies[ty]):
            if kr.copies[ty] == 0:
                raise CardError(f"{card_code(ty, g.deck.low_card)} is no card in {g.name} ({g.section})")
            raise CardError(f"{n} copies of {card_code(ty, g.deck.low_card)} in hands and trick: "
                            f"the deck of {g.name} has {int(kr.copies[ty])} (R1)")
    nxt = tuple(int(x) for x in kr.next_seat)
    for s in range(seats):
        if kr.sits_out[s] and sum(counts[s]):
            raise BinokelError(f"seat {s} ({names[s]}) sits out (V3): its hand must be empty")
    sizes, s = [], leader
    for i in range(n_play):
        sizes.append(sum(counts[s]) + (1 if i < len(cards) else 0))
        s = nxt[s]
    if len(set(sizes)) != 1 or sizes[0] == 0:
        raise BinokelError(
            "hand sizes do not fit the trick: seats that played to the current trick hold one "
            f"card fewer (sizes {[sum(h) for h in counts]}, leader {leader}, {len(cards)} "
            "card(s) in the trick)")
    if sizes[0] > kr.hand_size:
        raise BinokelError(f"hands hold at most {kr.hand_size} cards in {g.name}, got {sizes[0]}")
    side = np.zeros(seats, dtype=np.int64)
    sides_of(kr.side_rule, kr.sits_out, soloist, side)
    beat = kr.beat
    ls, wc, ws, lh = -1, -1, -1, -1
    s = leader
    for i, ty in enumerate(cards):
        if i > 0:
            relief = int(kr.partner_relief and side[ws] == side[s])
            held = sum(1 << x for x in range(N_TYPES) if counts[s][x]) | (1 << ty)
            lg = int(legal(np.int64(held), ls, wc, lh, t, beat, kr.follow, kr.trump_duty,
                           kr.beat_mode, kr.overtrump, relief))
            if not (lg >> ty) & 1:
                raise BinokelError(f"{card_code(ty, g.deck.low_card)} by seat {s} breaks the play "
                                   f"duties with that hand (R6; {g.section})")
        ls, wc, ws, lh = add_card(ty, s, ls, wc, ws, lh, t, beat)
        s = nxt[s]
    return TablePosition(tuple(counts), t, int(soloist), int(leader), tuple(cards), nxt)


def _low_of(g: Game):
    """A RuleSet-like object for cards.parse_cards (its low card and name)."""
    class _D:
        low_card = g.deck.low_card
        name = g.name
    return _D


class TableSolver:
    """Double-dummy solver of any table (module docstring), bound to one game, owning its
    transposition table (``tt_bits``: log2 of its entries; 2**20 = 16 MiB)."""

    def __init__(self, rules=None, tt_bits: int = DEFAULT_TT_BITS):
        if not 10 <= int(tt_bits) <= 26:
            raise BinokelError(f"tt_bits must be 10..26, got {tt_bits!r}")
        self.game = game_of(rules)
        kr = self.game.kernel
        self.kr = kr
        self.tt = new_table(int(tt_bits))
        self.c = np.zeros(C_SIZE, dtype=np.int64)
        self.c[C_MASK] = (1 << int(tt_bits)) - 1
        self.c[C_LIMIT] = NO_LIMIT
        self.c[C_PVS] = 1
        for slot, v in ((C_NPLAY, kr.n_play), (C_FOLLOW, kr.follow), (C_TDUTY, kr.trump_duty),
                        (C_BMODE, kr.beat_mode), (C_OVER, kr.overtrump),
                        (C_RELIEF, kr.partner_relief)):
            self.c[slot] = int(v)
        self.mv = np.zeros((MAX_PLY + 1, 2 * N_TYPES), dtype=np.int64)
        self.nxt = np.asarray(kr.next_seat, dtype=np.int64)
        self.beat = np.asarray(kr.beat, dtype=np.int64)
        self.cp = np.asarray(kr.card_points, dtype=np.int64)

    @property
    def nodes(self) -> int:
        """Nodes searched since the solver was made."""
        return int(self.c[C_NODES])

    def clear(self) -> None:
        """Forget every table entry."""
        self.tt[:] = 0

    def _load(self, pos: TablePosition, fresh: bool = True):
        kr = self.kr
        seats = kr.table_seats
        k = int(kr.k)
        h = np.zeros((seats, k), dtype=np.int64)
        off = np.zeros((seats, N_TYPES), dtype=np.int64)
        bit = 0
        for s in range(seats):
            for t in range(N_TYPES):
                n = pos.hands[s][t]
                for j in range(n):
                    h[s, j] |= 1 << t
                off[s, t] = bit
                bit += n
        if bit > MAX_KEY_CARDS:
            raise BinokelError(f"at most {MAX_KEY_CARDS} cards in the hands "
                               f"({MAX_KEY_CARDS // kr.n_play} tricks left in {self.game.name}), "
                               f"got {bit}")
        c = self.c
        c[C_KEY] = (1 << bit) - 1
        c[C_LBIT] = bit
        c[C_TRUMP] = pos.trump
        c[C_DURCH] = 1 if pos.trump < 0 else 0
        c[C_SOLOIST] = pos.soloist
        c[C_BONUS] = int(kr.last_trick_bonus)
        c[C_REM] = sum(int(self.cp[t]) * pos.hands[s][t] for s in range(seats) for t in range(N_TYPES))
        c[C_LEFT] = bit
        side = np.zeros(seats, dtype=np.int64)
        sides_of(kr.side_rule, kr.sits_out, pos.soloist, side)
        ls, wc, ws, lh, tp, seat = _trick_state(pos.trick, pos.leader, self.nxt, pos.trump,
                                                self.beat, self.cp)
        if fresh:
            _new_generation(c, self.tt)
        return (h, c, side, self.nxt, self.beat, self.cp, off, self.mv, self.tt, seat,
                len(pos.trick), ls, wc, ws, lh, tp)

    def _run(self, args, only: int = -1, limit=None) -> "int | None":
        self.c[C_LIMIT] = NO_LIMIT if limit is None else self.c[C_NODES] + max(int(limit), 1000)
        v = int(search_root(*args, only))
        self.c[C_LIMIT] = NO_LIMIT
        if self.c[C_ABORT]:
            # a stopped search stores nothing on its way out: its entries are those of
            # subtrees searched to the end, exact, and a retry (fresh=False) reuses them
            self.c[C_ABORT] = 0
            return None
        return v

    def value(self, pos: TablePosition, limit=None, fresh: bool = True) -> "int | None":
        """The position's exact value; None when the node budget ``limit`` ran out.
        ``fresh=False``: keep the table's entries of the last search (a retry of the
        same position after a stopped search)."""
        return self._run(self._load(pos, fresh), -1, limit)

    def move_values(self, pos: TablePosition) -> dict[int, int]:
        """Exact value after each legal card type of the seat to play."""
        args = self._load(pos)
        h, c, side = args[0], args[1], args[2]
        seat, ls, wc, ws, lh = args[9], args[11], args[12], args[13], args[14]
        kr = self.kr
        relief = int(ls >= 0 and kr.partner_relief and side[ws] == side[seat])
        lg = int(legal(h[seat, 0], ls, wc, lh, pos.trump, self.beat, kr.follow, kr.trump_duty,
                       kr.beat_mode, kr.overtrump, relief))
        out = {}
        for t in range(N_TYPES):
            if (lg >> t) & 1:
                out[t] = int(search_root(*args, t))
        return out


class ThreeSeatSolver:
    """The tuned three-player solver (:class:`analyzer.search.solve.Solver`) behind the
    :class:`TableSolver` interface: same positions, same values, faster."""

    def __init__(self, rules=None, tt_bits: int = DEFAULT_TT_BITS):
        self.game = game_of(rules)
        self.kr = self.game.kernel
        self.flat = get_rules(self.game)
        self.solver = Solver(self.flat, tt_bits)

    @property
    def nodes(self) -> int:
        return self.solver.nodes

    def clear(self) -> None:
        self.solver.clear()

    def position(self, pos: TablePosition):
        hs = tuple(Hand(tuple(pos.hands[s])) for s in range(3))
        return Position(hs, pos.trump, pos.soloist, pos.leader, tuple(Card(t) for t in pos.trick))

    def value(self, pos: TablePosition, limit=None) -> int:
        return self.solver.value(self.position(pos))

    def move_values(self, pos: TablePosition) -> dict[int, int]:
        return {c.id: v for c, v in self.solver.move_values(self.position(pos)).items()}


def tuned_fits(rules) -> bool:
    """Whether the tuned three-player kernel plays this game's table: three seats in play,
    0, 1, 2 in that order (a seat that sits out after them), a lone soloist, two copies
    per type.  Asked of the RuleSet, never of its name."""
    kr = game_of(rules).kernel
    return (kr.k == 2 and kr.n_play == 3 and kr.side_rule == SIDES_SOLO
            and list(kr.next_seat[:3]) == [1, 2, 0] and not any(kr.sits_out[:3]))


def dd_solver(rules=None, tt_bits: int = DEFAULT_TT_BITS, generic: bool = False):
    """The double-dummy solver for the game ``rules`` (name, nested or flat RuleSet):
    the tuned three-player kernel where :func:`tuned_fits`, else :class:`TableSolver`
    (``generic=True``: always the table solver).  Both take :class:`TablePosition`\\ s."""
    if not generic and tuned_fits(rules):
        return ThreeSeatSolver(rules, tt_bits)
    return TableSolver(rules, tt_bits)


def world_workspace(rules, trump: int, soloist: int, tt_bits: int = 16):
    """A reusable workspace of :func:`world_move_values` for the game ``rules`` (any table)
    with ``trump`` (-1: a Durch, R4) and the ``soloist``: the tuple (c, side, nxt, beat, cp,
    h, off, mv, tt), allocated once for every world of a decision.  ``tt_bits``: log2 of
    the table's entries (2**16 = 1 MiB: a world of 10 tricks is a few thousand entries)."""
    if not 10 <= int(tt_bits) <= 26:
        raise BinokelError(f"tt_bits must be 10..26, got {tt_bits!r}")
    kr = game_of(rules).kernel
    seats = int(kr.table_seats)
    c = np.zeros(C_SIZE, dtype=np.int64)
    c[C_MASK] = (1 << int(tt_bits)) - 1
    c[C_LIMIT] = NO_LIMIT
    c[C_PVS] = 1
    for slot, v in ((C_NPLAY, kr.n_play), (C_FOLLOW, kr.follow), (C_TDUTY, kr.trump_duty),
                    (C_BMODE, kr.beat_mode), (C_OVER, kr.overtrump),
                    (C_RELIEF, kr.partner_relief), (C_BONUS, kr.last_trick_bonus)):
        c[slot] = int(v)
    c[C_TRUMP] = int(trump)
    c[C_DURCH] = 1 if trump < 0 else 0
    c[C_SOLOIST] = int(soloist)
    side = np.zeros(seats, dtype=np.int64)
    sides_of(kr.side_rule, kr.sits_out, int(soloist), side)
    return (c, side, np.asarray(kr.next_seat, dtype=np.int64), np.asarray(kr.beat, dtype=np.int64),
            np.asarray(kr.card_points, dtype=np.int64), np.zeros((seats, int(kr.k)), dtype=np.int64),
            np.zeros((seats, N_TYPES), dtype=np.int64),
            np.zeros((MAX_PLY + 1, 2 * N_TYPES), dtype=np.int64), new_table(int(tt_bits)))


def card_values(rules, hands, trump, soloist: int, leader: int, trick=(),
                solver=None) -> dict[int, int]:
    """The double-dummy value of each legal card of the seat to play: card type -> the
    card points the soloist's side takes from the position on with best play after that
    card (the current trick included; R7).  ``hands``, ``trump``... as
    :func:`table_position`; ``solver``: one from :func:`dd_solver` to reuse its table."""
    pos = table_position(rules, hands, trump, soloist, leader, trick)
    return (solver or dd_solver(rules)).move_values(pos)


def timed_value(solver, pos: TablePosition, deadline: "float | None") -> "int | None":
    """``solver.value(pos)`` within a wall-clock ``deadline`` (perf_counter; None = none):
    the table solver runs on node budgets at the node rate it measures on this machine;
    None when the time ran out (the tuned solver has its own, see solve.TimedSearch)."""
    if deadline is None or not isinstance(solver, TableSolver):
        return solver.value(pos)
    budget = 200_000
    fresh = True
    while True:
        left = deadline - time.perf_counter()
        if left <= 0:
            return None
        n0, t0 = solver.nodes, time.perf_counter()
        v = solver.value(pos, limit=budget, fresh=fresh)
        if v is not None:
            return v
        fresh = False     # the retry reuses the stopped search's exact entries
        dt = time.perf_counter() - t0
        rate = (solver.nodes - n0) / max(dt, 1e-6)
        left = deadline - time.perf_counter()
        if left <= 0.02 or left <= 0.1 * dt:
            return None
        budget = max(int(rate * left), 1000)


def parse_table_position(text: str, rules=None) -> TablePosition:
    """Parse ``"TRUMP SOLOIST LEADER HAND... TRICK"`` into a :class:`TablePosition` of the
    game ``rules``: one HAND per seat in play, in seat order (a seat that sits out, V3, is
    left out); cards of the game's deck (its low card, V1), comma-separated, ``-`` for
    none; TRUMP C S H D, or N (a Durch, where the game has one); the TRICK starts with
    LEADER's card.  Example (three seats): ``S 0 1 AS,10H KD QS,JC 9C``."""
    g = game_of(rules)
    kr = g.kernel
    in_play = [q for q in range(kr.table_seats) if not kr.sits_out[q]]
    n = 3 + len(in_play) + 1
    parts = str(text).split()
    if len(parts) != n:
        hands = " ".join(f"HAND{q}" for q in in_play)
        raise BinokelError(
            f"a position line of {g.name} has {n} fields (TRUMP SOLOIST LEADER {hands} TRICK, "
            f"'-' for none), got {len(parts)}" + (
                ": e.g. 'S 0 1 AS,10H KD QS,JC 9C'" if n == 7 else ""))
    seats = []
    for name, v in (("SOLOIST", parts[1]), ("LEADER", parts[2])):
        if not v.isdigit() or int(v) not in in_play:
            raise BinokelError(f"position line: {name} must be a seat in play "
                               f"({', '.join(map(str, in_play))}), got {v!r}")
        seats.append(int(v))
    hands = [""] * kr.table_seats
    for q, p in zip(in_play, parts[3:3 + len(in_play)]):
        hands[q] = "" if p == "-" else p.replace(",", " ")
    trick = () if parts[-1] == "-" else parts[-1].replace(",", " ")
    return table_position(g, hands, parts[0], seats[0], seats[1], trick)


def deal_rows(rules, hands, soloist: int, solver=None, trumps: str = "CSHDN",
              max_seconds: "float | None" = None, progress=None) -> list[dict]:
    """Double-dummy table of a whole deal at any table (R4-R7, V4.2, V6.2).

    ``hands``: one 24-count hand per seat at the table (a seat that sits out: empty) of
    the game's hand size; the cards in no hand are the Dabb, taken as the soloist's
    discard (their points count for the soloist's side, R4, V4.2).  For each trump in
    ``trumps`` (``N`` = Durch, only where the game has one; else skipped): the first
    lead by the game's rule (forehand, or the bidder = the soloist, V6.2; the soloist in
    a Durch, R4); ``play`` = the card points the soloist's side takes, ``card_points`` =
    play + the Dabb's points, and for a Durch ``made``.  ``max_seconds``: a budget for the
    whole table; rows not reached are ``{"trump": t, "solved": False}``.
    """
    g = game_of(rules)
    kr = g.kernel
    in_play = [q for q in range(kr.table_seats) if not kr.sits_out[q]]
    counts = [tuple(int(x) for x in h) for h in hands]
    if any(sum(counts[q]) != kr.hand_size for q in in_play):
        raise BinokelError(f"a deal of {g.name} needs {len(in_play)} hands of {kr.hand_size} "
                           f"cards, got {[sum(counts[q]) for q in in_play]}")
    cp = kr.card_points
    dabb = sum(int(cp[t]) * (int(kr.copies[t]) - sum(h[t] for h in counts)) for t in range(N_TYPES))
    s = solver or dd_solver(g)
    t0 = time.perf_counter()
    deadline = None if max_seconds is None else t0 + float(max_seconds)
    rows = []
    todo = [t for t in trumps if t != "N" or kr.durch_value > 0]
    for t in todo:
        durch = t == "N"
        leader = soloist if (durch or kr.bidder_leads) else in_play[0]
        if rows and "solved" in rows[-1]:
            v = None
        else:
            pos = table_position(g, counts, None if durch else t, soloist, leader, ())
            v = timed_value(s, pos, deadline)
        if v is None:
            row = {"trump": t, "solved": False}
        else:
            row = {"trump": t, "play": v, "card_points": v + dabb}
            if durch:
                total = int(sum(int(cp[x]) * int(kr.copies[x]) for x in range(N_TYPES)))
                row["made"] = v == total - dabb + int(kr.last_trick_bonus)
        rows.append(row)
        if progress is not None:
            progress(len(rows), len(todo), row, time.perf_counter() - t0)
    return rows
