"""A deal of a stock game (``binokel-2``, docs/VARIANTS.md V7.1-V7.5) as numba kernels over
one int64 state vector: the deal, the trick with draws, melds shown one at a time by the
trick's winner, the Dissle, the end of the stock, the deal score and claims.

The rules come from the compiled :class:`analyzer.mechanics.ruleset.Kernel` (the stock
part, the meld table, the two duty sets) through :func:`stock_params`; nothing here reads
a game's name.  The trick itself is the one trick step (:mod:`analyzer.mechanics.trick`):
the stock phase uses the play part's duty ints (none in V7.2), the phase after it the stock
part's ``after`` ints (V7.4: follow, else trump, no beat duty).

Cards.  Because a shown card carries the meld kinds it has served in (V7.3), the two
copies of a type differ while the stock lasts; the kernels track *physical* cards
``type * 2 + copy`` (0..47), as the plain-Python reference tests/oracle/binokel2.py does,
and a hand is a 48-bit mask of physical cards.

The state vector (int64[:data:`STATE_LEN`]), by index: the two hands, the turned card and
trump, the leader, the card on the table (-1), the seat between its won trick and the draw
(``TO_MELD``, -1), tricks played, meld and Dissle points and card points per seat, the
last trick's winner, the Dissles scored (a mask of physical cards), the stock pointer, the
game scores before the deal, the winner and claimant of a claimed game, the last trick's
winner, whether that winner has shown its meld; then the kinds each physical card has
been shown in (48) and the stock in draw order (the turned card last).

Actions (one int each, :func:`apply_action`): a play ``ACT_PLAY + card``; a meld
``ACT_MELD + pattern * 64 + option`` is applied with its physical-card mask by
:func:`apply_meld`; a pass ``ACT_PASS``; a claim ``ACT_CLAIM``.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics import rng as _rng
from analyzer.mechanics import trick as tr

# ---------------------------------------------------------------- the state vector
H0, H1, TURNED, TRUMP, LEADER, TABLE, TO_MELD, TRICKS = range(8)
MELD0, MELD1, PTS0, PTS1, LAST, DISSLE_DONE, SPOS = range(8, 15)
BEFORE0, BEFORE1, WINNER, CLAIMED, LASTWIN, MELDED, SSIZE = range(15, 22)
SHOWN = 24                    # 48 entries: meld kinds shown per physical card (V7.3)
STOCK = SHOWN + 48            # stock cards in draw order, the turned card last (V7.2)
STATE_LEN = STOCK + 48

# meld kinds (bits, as the reference): V7.3 Reading's five lines
DISSLE_KIND, PAIR, QUINT, OF_A_KIND, BINOKEL = 1, 2, 4, 8, 16
KIND_NAMES = {DISSLE_KIND: "Dissle", PAIR: "pair", QUINT: "quint major",
              OF_A_KIND: "of a kind", BINOKEL: "binokel"}

# params vector (int64), built from the Kernel by stock_params
P_HAND, P_STOCK, P_TURNED_DISSLE, P_LAST_BONUS, P_TARGET, P_CLAIM = range(6)
P_FOLLOW, P_TRUMP, P_BEAT, P_OVERTRUMP = range(6, 10)          # while the stock lasts (V7.2)
P_AFTER_FOLLOW, P_AFTER_TRUMP, P_AFTER_BEAT, P_AFTER_OVERTRUMP = range(10, 14)   # V7.4
P_ONCE_PER_KIND, P_QUINT_ENDS_PAIR, P_DISSLE, P_LOW_RANK = range(14, 18)
P_POINTS = 24                 # 24 card points per type
P_LEN = P_POINTS + 24

#: most meld options :func:`legal_melds` lists at once
MAX_MELDS = 256
N_PATTERNS = 17


class StockRules(NamedTuple):
    """What the stock kernels read, compiled from one game's Kernel."""

    params: np.ndarray       # int64[P_LEN]
    beat: np.ndarray         # int64[24]: the trick step's stronger types of each type's suit
    pat_kind: np.ndarray     # int64[4, N_PATTERNS]: meld kind bit per trump and pattern (0 = none)
    pat_value: np.ndarray    # int64[4, N_PATTERNS]
    pat_need: np.ndarray     # int64[4, N_PATTERNS, 24]: copies of each type the meld uses
    pat_names: tuple         # [trump][pattern] -> the meld's name


_SUITS = "CSHD"
_RANKS = ("A", "10", "K", "Q", "J", "7")


def stock_params(kern) -> StockRules:
    """:class:`StockRules` of a compiled Kernel with a stock (V7); refuses one without."""
    from analyzer.errors import BinokelError

    if not kern.stock_size:
        raise BinokelError("this game has no stock (V7.1)")
    p = np.zeros(P_LEN, dtype=np.int64)
    p[P_HAND], p[P_STOCK] = kern.hand_size, kern.stock_size
    p[P_TURNED_DISSLE], p[P_LAST_BONUS] = kern.turned_dissle, kern.last_trick_bonus
    p[P_TARGET], p[P_CLAIM] = kern.target_score, kern.claim
    p[P_FOLLOW], p[P_TRUMP], p[P_BEAT], p[P_OVERTRUMP] = (kern.follow, kern.trump_duty,
                                                          kern.beat_mode, kern.overtrump)
    p[P_AFTER_FOLLOW], p[P_AFTER_TRUMP] = kern.after_follow, kern.after_trump
    p[P_AFTER_BEAT], p[P_AFTER_OVERTRUMP] = kern.after_beat_mode, kern.after_overtrump
    p[P_ONCE_PER_KIND], p[P_QUINT_ENDS_PAIR] = kern.once_per_kind, kern.quint_ends_pair
    p[P_DISSLE], p[P_LOW_RANK] = kern.dissle_value, kern.low_rank
    p[P_POINTS:P_POINTS + 24] = kern.card_points
    kind = np.zeros((4, N_PATTERNS), dtype=np.int64)
    value = np.zeros((4, N_PATTERNS), dtype=np.int64)
    need = np.zeros((4, N_PATTERNS, 24), dtype=np.int64)
    names = []
    bq, bj = kern.binokel_q, kern.binokel_j
    bk = bq - 1                              # the K of the binokel queen's suit (K♠)
    for trump in range(4):
        rows = []                            # (name, kind, {type: copies}, value)
        rows.append(("Dissle", DISSLE_KIND, {trump * 6 + kern.low_rank: 1}, kern.dissle_value))
        for s in range(4):
            rows.append(("trump pair" if s == trump else f"pair {_SUITS[s]}", PAIR,
                         {s * 6 + 2: 1, s * 6 + 3: 1}, kern.pair[1 if s == trump else 0]))
        rows.append(("quint major", QUINT, {trump * 6 + r: 1 for r in range(5)}, kern.quint_value))
        for r in (0, 2, 3, 4):
            rows.append((f"four {_RANKS[r]}", OF_A_KIND, {s * 6 + r: 1 for s in range(4)},
                         kern.fours_value[r]))
            rows.append((f"eight {_RANKS[r]}", OF_A_KIND, {s * 6 + r: 2 for s in range(4)},
                         kern.eights_value[r]))
        rows.append(("binokel", BINOKEL, {bq: 1, bj: 1}, kern.binokel_single))
        rows.append(("grand binokel", BINOKEL, {bk: 1, bq: 1, bj: 1}, kern.grand_binokel_value))
        rows.append(("double binokel", BINOKEL, {bq: 2, bj: 2}, kern.binokel_double))
        assert len(rows) == N_PATTERNS
        tn = []
        for i, (nm, kd, cards, v) in enumerate(rows):
            if v <= 0:
                tn.append(nm)
                continue                     # the game has no such meld
            kind[trump, i], value[trump, i] = kd, v
            for t, c in cards.items():
                need[trump, i, t] = c
            tn.append(nm)
        names.append(tuple(tn))
    return StockRules(p, kern.beat, kind, value, need, tuple(names))


# ---------------------------------------------------------------- small helpers

@njit
def type_mask(h):
    """Plane 0 (types held) of a physical-card mask."""
    out = np.int64(0)
    for t in range(24):
        if (h >> np.int64(2 * t)) & 3:
            out |= np.int64(1) << np.int64(t)
    return out


@njit
def _stock_len(st):
    """Cards still in the stock (V7.2)."""
    return st[SSIZE] - st[SPOS]


stock_left = _stock_len


@njit
def to_act(st):
    """The seat whose decision comes next, or -1 once the deal (or the game) is over."""
    if st[WINNER] >= 0 or st[TRICKS] == 24:
        return -1
    if st[TO_MELD] >= 0:
        return st[TO_MELD]
    if st[TABLE] < 0:
        return st[LEADER]
    return 1 - st[LEADER]


@njit
def deal_points(st, seat, params):
    """Points ``seat`` has made in this deal: melds and Dissles, card points of its tricks,
    the last trick (V7.3, V7.4)."""
    v = st[MELD0 + seat] + st[PTS0 + seat]
    if st[LAST] == seat:
        v += params[P_LAST_BONUS]
    return v


@njit
def may_claim(st, seat, params):
    """True when ``seat``'s claim would win the game: the game has claims and the game
    score before the deal + this deal's points reach the target (V7.5)."""
    return params[P_CLAIM] != 0 and st[BEFORE0 + seat] + deal_points(st, seat, params) >= params[P_TARGET]


# ---------------------------------------------------------------- the deal

@njit
def deal_order(order, before0, before1, params):
    """The state of a fresh deal of the 48 physical cards ``order`` (V7.1): order[0:12] to
    forehand (seat 0), order[12:24] to the dealer, order[24] turned as trump, order[25:]
    the stock top first, the turned card drawn last.  A turned low card (the Dissle)
    scores for the dealer at once.  The same order as the reference's ``deal``."""
    st = np.zeros(STATE_LEN, dtype=np.int64)
    n = params[P_HAND]
    for i in range(2 * n):
        st[H0 + i // n] |= np.int64(1) << np.int64(order[i])
    turned = order[2 * n]
    st[TURNED] = turned
    st[TRUMP] = (turned // 2) // 6
    size = params[P_STOCK]
    for i in range(size - 1):
        st[STOCK + i] = order[2 * n + 1 + i]
    st[STOCK + size - 1] = turned
    st[SSIZE] = size
    st[SPOS] = 0
    st[LEADER] = 0
    st[TABLE] = -1
    st[TO_MELD] = -1
    st[LAST] = -1
    st[WINNER] = -1
    st[CLAIMED] = -1
    st[LASTWIN] = -1
    st[BEFORE0] = before0
    st[BEFORE1] = before1
    if (turned // 2) % 6 == params[P_LOW_RANK] and params[P_TURNED_DISSLE] > 0:
        st[MELD1] += params[P_TURNED_DISSLE]
        st[DISSLE_DONE] |= np.int64(1) << np.int64(turned)
    return st


@njit
def shuffled_order(rs):
    """A uniform permutation of the 48 physical cards from the xoshiro state ``rs``."""
    order = np.arange(48, dtype=np.int64)
    for i in range(47, 0, -1):
        j = _rng.bounded(rs, i + 1)
        order[i], order[j] = order[j], order[i]
    return order


# ---------------------------------------------------------------- play

@njit
def legal_plays(st, params, beat):
    """Mask of the physical cards the player to act may play (V7.2, V7.4): any card while
    the stock lasts or when leading; after the stock the second card follows suit, else
    trumps, else anything, with no duty to beat (the stock part's ``after`` duties)."""
    seat = to_act(st)
    if seat < 0 or st[TO_MELD] >= 0:
        return np.int64(0)
    h = st[H0 + seat]
    if st[TABLE] < 0:
        return h
    led = st[TABLE] // 2
    trump = st[TRUMP]
    if _stock_len(st) > 0:
        fo, td, bm, ot = params[P_FOLLOW], params[P_TRUMP], params[P_BEAT], params[P_OVERTRUMP]
    else:
        fo, td, bm, ot = (params[P_AFTER_FOLLOW], params[P_AFTER_TRUMP], params[P_AFTER_BEAT],
                          params[P_AFTER_OVERTRUMP])
    types = tr.legal(type_mask(h), led // 6, led, led, trump, beat, fo, td, bm, ot, 0)
    out = np.int64(0)
    for t in range(24):
        if (types >> np.int64(t)) & 1:
            out |= h & (np.int64(3) << np.int64(2 * t))
    return out


@njit
def distinct_cards(st, mask):
    """``mask`` with one physical card per distinct (type, kinds shown): the second copy
    goes when it is shown in the same kinds as the first (identical for play)."""
    out = mask
    for t in range(24):
        a, b = 2 * t, 2 * t + 1
        if (mask >> np.int64(a)) & 1 and (mask >> np.int64(b)) & 1 and st[SHOWN + a] == st[SHOWN + b]:
            out &= ~(np.int64(1) << np.int64(b))
    return out


@njit
def _draw_both(st):
    """The trick's winner draws the top card, then the other (V7.2); when the stock is gone
    the shown cards go back into the hands (V7.4)."""
    w = st[TO_MELD]
    st[TO_MELD] = -1
    for s in (w, 1 - w):
        c = st[STOCK + st[SPOS]]
        st[SPOS] += 1
        st[H0 + s] |= np.int64(1) << np.int64(c)
    if _stock_len(st) == 0:
        for i in range(48):
            st[SHOWN + i] = 0


@njit
def play_card(st, card, params, beat):
    """The player to act plays physical ``card`` (legality is the caller's, :func:`legal_plays`).
    A trump low card not scored before scores its Dissle for its player (V7.3 Reading).
    The second card closes the trick (V7.2): its winner leads next, takes the card
    points, and, while the stock lasts, may meld before the draw (``TO_MELD``); the 24th
    trick earns the last-trick bonus (V7.4).  Returns the trick's winner or -1."""
    seat = to_act(st)
    bit = np.int64(1) << np.int64(card)
    st[H0 + seat] &= ~bit
    st[SHOWN + card] = 0
    t = card // 2
    if t == st[TRUMP] * 6 + params[P_LOW_RANK] and (st[DISSLE_DONE] & bit) == 0 and params[P_DISSLE] > 0:
        st[DISSLE_DONE] |= bit
        st[MELD0 + seat] += params[P_DISSLE]
    if st[TABLE] < 0:
        st[TABLE] = card
        return -1
    led = st[TABLE] // 2
    w = st[LEADER]
    if tr.beats(t, led, st[TRUMP], beat):
        w = seat
    st[PTS0 + w] += params[P_POINTS + led] + params[P_POINTS + t]
    st[TABLE] = -1
    st[TRICKS] += 1
    st[LEADER] = w
    st[LASTWIN] = w
    st[MELDED] = 0
    if _stock_len(st) > 0:
        st[TO_MELD] = w
    elif st[TRICKS] == 24:
        st[LAST] = w
    return w


# ---------------------------------------------------------------- melds

@njit
def _eligible(st, card, kind, params):
    """May ``card`` serve in a meld of ``kind``: never twice in one kind, and a K or Q shown
    in a quint major never in a pair (V7.3)."""
    m = st[SHOWN + card]
    if params[P_ONCE_PER_KIND] != 0 and (m & kind) != 0:
        return False
    if params[P_QUINT_ENDS_PAIR] != 0 and kind == PAIR and (m & QUINT) != 0:
        return False
    return True


@njit
def legal_melds(st, params, pat_kind, pat_need, out_mask, out_pat):
    """The melds the trick's winner may show now (V7.3), one per distinct outcome: for each
    pattern, each choice of eligible copies that differs in the (type, kinds shown) of the
    cards used.  Writes physical-card masks to ``out_mask`` and pattern indices to
    ``out_pat``; returns how many."""
    seat = st[TO_MELD]
    if seat < 0:
        return 0
    h = st[H0 + seat]
    trump = st[TRUMP]
    n = 0
    # per type of a pattern: the options (up to 2) as masks
    opts = np.zeros((24, 3), dtype=np.int64)
    nopt = np.zeros(24, dtype=np.int64)
    for p in range(N_PATTERNS):
        kind = pat_kind[trump, p]
        if kind == 0:
            continue
        ok = True
        ntypes = 0
        types = np.zeros(5, dtype=np.int64)
        for t in range(24):
            need = pat_need[trump, p, t]
            if need == 0:
                continue
            types[ntypes] = t
            ntypes += 1
            a, b = 2 * t, 2 * t + 1
            ea = False
            eb = False
            if (h >> np.int64(a)) & 1:
                ea = _eligible(st, a, kind, params)
            if (h >> np.int64(b)) & 1:
                eb = _eligible(st, b, kind, params)
            k = 0
            if need == 2:
                if ea and eb:
                    opts[t, 0] = (np.int64(1) << np.int64(a)) | (np.int64(1) << np.int64(b))
                    k = 1
            else:
                if ea:
                    opts[t, k] = np.int64(1) << np.int64(a)
                    k += 1
                if eb and not (ea and st[SHOWN + a] == st[SHOWN + b]):
                    opts[t, k] = np.int64(1) << np.int64(b)
                    k += 1
            nopt[t] = k
            if k == 0:
                ok = False
                break
        if not ok:
            continue
        # the product of the options
        idx = np.zeros(5, dtype=np.int64)
        while True:
            m = np.int64(0)
            for i in range(ntypes):
                m |= opts[types[i], idx[i]]
            if n < out_mask.shape[0]:
                out_mask[n] = m
                out_pat[n] = p
                n += 1
            i = 0
            while i < ntypes:
                idx[i] += 1
                if idx[i] < nopt[types[i]]:
                    break
                idx[i] = 0
                i += 1
            if i == ntypes:
                break
    return n


@njit
def apply_meld(st, mask, p, params, pat_kind, pat_value):
    """The trick's winner shows the cards ``mask`` as pattern ``p`` (legality is the
    caller's), then both draw (V7.3, V7.2)."""
    show_meld(st, mask, p, params, pat_kind, pat_value)
    _draw_both(st)


@njit
def show_meld(st, mask, p, params, pat_kind, pat_value):
    """The seat ``TO_MELD`` shows ``mask`` as pattern ``p`` without the draw (the meld
    orders of one hand, :func:`analyzer.search.stock_policies.meld_orders`).  A Dissle
    shown scores unless that copy scored before (turned or shown, V7.3 Reading)."""
    seat = st[TO_MELD]
    kind = pat_kind[st[TRUMP], p]
    for c in range(48):
        if (mask >> np.int64(c)) & 1:
            st[SHOWN + c] |= kind
    if kind == DISSLE_KIND:
        if (st[DISSLE_DONE] & mask) == 0:
            st[MELD0 + seat] += pat_value[st[TRUMP], p]
        st[DISSLE_DONE] |= mask
    else:
        st[MELD0 + seat] += pat_value[st[TRUMP], p]
    st[MELDED] = 1


@njit
def pass_meld(st):
    """The trick's winner shows nothing; both draw (V7.2)."""
    _draw_both(st)


@njit
def claim(st, seat, params):
    """``seat`` claims the game (V7.5 Reading): it wins at the target or more, else loses."""
    st[CLAIMED] = seat
    if st[BEFORE0 + seat] + deal_points(st, seat, params) >= params[P_TARGET]:
        st[WINNER] = seat
    else:
        st[WINNER] = 1 - seat


# ---------------------------------------------------------------- random playout

@njit
def random_step(st, rs, params, beat, pat_kind, pat_value, pat_need, claims, mbuf, pbuf):
    """One action of the random policy (uniform over the reference's distinct legal
    actions; with ``claims`` a winning claim is one of them).  Returns the action code:
    0 play, 1 meld, 2 pass, 3 claim."""
    seat = to_act(st)
    can_claim = claims != 0 and may_claim(st, seat, params)
    if st[TO_MELD] >= 0:
        n = legal_melds(st, params, pat_kind, pat_need, mbuf, pbuf)
        k = _rng.bounded(rs, n + 1 + (1 if can_claim else 0))
        if k < n:
            apply_meld(st, mbuf[k], pbuf[k], params, pat_kind, pat_value)
            return 1
        if k == n:
            pass_meld(st)
            return 2
        claim(st, seat, params)
        return 3
    m = distinct_cards(st, legal_plays(st, params, beat))
    cnt = 0
    for c in range(48):
        if (m >> np.int64(c)) & 1:
            cnt += 1
    k = _rng.bounded(rs, cnt + (1 if can_claim else 0))
    if k == cnt:
        claim(st, seat, params)
        return 3
    for c in range(48):
        if (m >> np.int64(c)) & 1:
            if k == 0:
                play_card(st, c, params, beat)
                return 0
            k -= 1
    return -1


@njit
def random_deals(n, rs, params, beat, pat_kind, pat_value, pat_need, out):
    """``n`` random deals played out by the random policy without claims; ``out[i]`` gets
    (forehand, dealer) deal points (V7.4).  A benchmark and a census kernel."""
    mbuf = np.zeros(MAX_MELDS, dtype=np.int64)
    pbuf = np.zeros(MAX_MELDS, dtype=np.int64)
    for i in range(n):
        st = deal_order(shuffled_order(rs), 0, 0, params)
        while to_act(st) >= 0:
            random_step(st, rs, params, beat, pat_kind, pat_value, pat_need, 0, mbuf, pbuf)
        out[i, 0] = deal_points(st, 0, params)
        out[i, 1] = deal_points(st, 1, params)
