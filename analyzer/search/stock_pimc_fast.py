"""A fast PIMC for the stock phase of a stock game (``binokel-2``, V7): the same idea as
:mod:`analyzer.search.stock_pimc` (worlds consistent with what the player to act knows,
every legal action tried in every world, the action with the best mean wins), with the
per-world rollouts in one numba kernel (:func:`rollout_values`) that plays a simple
greedy policy for both seats to the end of the deal, stock phase and endgame alike.

Why: :class:`~analyzer.search.stock_pimc.Pimc` solves every rollout's endgame exactly in
Python-driven steps (~26 CPU-s a deal); here a rollout is a few microseconds, so many more
worlds fit in the same time.  Once the stock is gone the decision itself is the exact
solver's (perfect information, V7.4), as for the heuristic.

What the player knows is made structural: :func:`public_view` keeps only what ``seat``
can see (its hand and the kinds shown, the opponent's shown cards and the turned card if
the opponent drew it, the cards played, the counts, the scores) and turns the rest into a
*sorted* pool of unseen cards; :func:`sample_worlds` deals that pool at random between the
opponent's hidden hand and the stock (the turned card kept last while it is in the stock),
from the view alone.  So two deals that differ only in the opponent's hidden cards or the
stock order give the same worlds and the same decision for the same ``rng``.

The value of an action in a world is own deal points minus the opponent's at the end of
the deal (V7.4); a claim in a rollout (V7.5) is worth +-1000.
"""
from __future__ import annotations

import random

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics import stock_play as sp
from analyzer.mechanics import trick as tr
from analyzer.mechanics.stock_deal import StockDeal, rules_of
from analyzer.search.stock_solve import EndgameSolver

#: worlds per decision by default (``pimc-fast``; ``pimc-fast-N`` for N)
DEFAULT_WORLDS = 32
#: value of a claim in a rollout: the game, far above any deal's points (V7.5)
CLAIM_VALUE = 1000

ACT_PLAY, ACT_MELD, ACT_PASS = 0, 1, 2


# ---------------------------------------------------------------- what the player knows

def public_view(deal: StockDeal, seat: int) -> tuple[np.ndarray, list[int], int, int]:
    """What ``seat`` knows of ``deal`` (V7): ``(view, pool, n_hidden, turned)``.

    ``view`` is the kernel state with the opponent's hidden cards removed from its hand
    and the face-down stock slots set to -1; ``pool`` the unseen cards (the opponent's
    hidden cards and the face-down stock) sorted, so their present places leave no trace;
    ``n_hidden`` how many the opponent holds unseen; ``turned`` the turned card while it
    is still at the bottom of the stock, else -1.  The turned card and the opponent's shown
    cards are public (face up)."""
    st = deal.st
    opp = 1 - seat
    turned = deal.turned
    keep = 0
    hidden = []
    for c in deal.hand(opp):
        if deal.shown(c) or c == turned:
            keep |= 1 << c
        else:
            hidden.append(c)
    pos, size = int(st[sp.SPOS]), int(st[sp.SSIZE])
    stock = [int(c) for c in st[sp.STOCK + pos:sp.STOCK + size]]
    in_stock = bool(stock) and stock[-1] == turned
    if in_stock:
        stock = stock[:-1]
    view = st.copy()
    view[sp.H0 + opp] = np.int64(keep)
    view[sp.STOCK + pos:sp.STOCK + size] = -1
    if in_stock:
        view[sp.STOCK + size - 1] = turned
    return view, sorted(hidden + stock), len(hidden), (turned if in_stock else -1)


def sample_worlds(view: np.ndarray, pool: list[int], n_hidden: int, seat: int, n: int,
                  rng: random.Random) -> np.ndarray:
    """``n`` full states consistent with a :func:`public_view` (int64[n, STATE_LEN]): the
    pool shuffled by ``rng``, its first ``n_hidden`` cards to the opponent's hand, the rest
    into the stock in that order (the turned card, if still there, stays last, V7.2)."""
    opp = 1 - seat
    pos = int(view[sp.SPOS])
    out = np.repeat(view[None, :], n, axis=0)
    for i in range(n):
        p = list(pool)
        rng.shuffle(p)
        h = int(view[sp.H0 + opp])
        for c in p[:n_hidden]:
            h |= 1 << c
        out[i, sp.H0 + opp] = np.int64(h)
        for k, c in enumerate(p[n_hidden:]):
            out[i, sp.STOCK + pos + k] = c
    return out


# ---------------------------------------------------------------- the rollout kernel

@njit
def _meld_types(h, trump, pat_kind, pat_need):
    """Types of the hand ``h`` (physical mask) that complete some meld pattern of the
    trump (V7.3), the Dissle aside: cards worth keeping while the stock lasts."""
    cnt = np.zeros(24, dtype=np.int64)
    for t in range(24):
        cnt[t] = ((h >> np.int64(2 * t)) & 1) + ((h >> np.int64(2 * t + 1)) & 1)
    out = np.int64(0)
    for p in range(sp.N_PATTERNS):
        k = pat_kind[trump, p]
        if k == 0 or k == sp.DISSLE_KIND:
            continue
        ok = True
        for t in range(24):
            if pat_need[trump, p, t] > cnt[t]:
                ok = False
                break
        if ok:
            for t in range(24):
                if pat_need[trump, p, t] > 0:
                    out |= np.int64(1) << np.int64(t)
    return out


@njit
def _meld_gain(st, mask, p, pat_kind, pat_value):
    """What showing ``mask`` as pattern ``p`` scores now: a Dissle scored before (turned,
    shown or played) gains nothing (V7.3 Reading)."""
    if pat_kind[st[sp.TRUMP], p] == sp.DISSLE_KIND and (st[sp.DISSLE_DONE] & mask) != 0:
        return 0
    return pat_value[st[sp.TRUMP], p]


@njit
def _best_meld(st, params, pat_kind, pat_value, pat_need, mbuf, pbuf):
    """Index into ``mbuf``/``pbuf`` of the legal meld scoring most now, -1 if none scores."""
    n = sp.legal_melds(st, params, pat_kind, pat_need, mbuf, pbuf)
    best, bv = -1, 0
    for i in range(n):
        g = _meld_gain(st, mbuf[i], pbuf[i], pat_kind, pat_value)
        if g > bv:
            best, bv = i, g
    return best


@njit
def _keep(t, trump, params, mtypes):
    """How much a player wants to keep type ``t``: its points, a trump, an ace, a card of
    a meld it holds (the heuristic's rule of thumb, analyzer.search.stock_policies)."""
    v = params[sp.P_POINTS + t]
    if t // 6 == trump:
        v += 40
    if t % 6 == 0:
        v += 15
    if (mtypes >> np.int64(t)) & 1:
        v += 30
    return v


@njit
def greedy_card(st, params, beat, pat_kind, pat_value, pat_need, mbuf, pbuf):
    """The rollout policy's card for the player to act (legal by :func:`sp.legal_plays`):
    second to a trick worth 10 or more, or with a meld waiting while the stock lasts, take
    it with the cheapest winning card; otherwise play the card it least wants to keep."""
    seat = sp.to_act(st)
    legal = sp.legal_plays(st, params, beat)
    trump = st[sp.TRUMP]
    stock = sp.stock_left(st) > 0
    mt = np.int64(0)
    if stock:
        mt = _meld_types(st[sp.H0 + seat], trump, pat_kind, pat_need)
    table = st[sp.TABLE]
    if table >= 0:
        led = table // 2
        want = params[sp.P_POINTS + led] >= 10
        if stock and not want:
            st[sp.TO_MELD] = seat          # would a won trick let me meld? (restored below)
            want = _best_meld(st, params, pat_kind, pat_value, pat_need, mbuf, pbuf) >= 0
            st[sp.TO_MELD] = -1
        if want:
            best, bk = -1, 1 << 30
            for c in range(48):
                if (legal >> np.int64(c)) & 1 and tr.beats(c // 2, led, trump, beat):
                    k = _keep(c // 2, trump, params, mt)
                    if k < bk:
                        best, bk = c, k
            if best >= 0:
                return best
    best, bk = -1, 1 << 30
    for c in range(48):
        if (legal >> np.int64(c)) & 1:
            k = _keep(c // 2, trump, params, mt)
            if k < bk:
                best, bk = c, k
    return best


@njit
def greedy_finish(st, seat, params, beat, pat_kind, pat_value, pat_need, mbuf, pbuf):
    """Play the deal in ``st`` to its end with the greedy policy for both seats (claim as
    soon as it wins, V7.5; show the meld scoring most now, V7.3; :func:`greedy_card`);
    returns ``seat``'s deal points minus the opponent's, or +-CLAIM_VALUE after a claim."""
    while True:
        s = sp.to_act(st)
        if s < 0:
            break
        if sp.may_claim(st, s, params):
            sp.claim(st, s, params)
            break
        if st[sp.TO_MELD] >= 0:
            i = _best_meld(st, params, pat_kind, pat_value, pat_need, mbuf, pbuf)
            if i >= 0:
                sp.apply_meld(st, mbuf[i], pbuf[i], params, pat_kind, pat_value)
            else:
                sp.pass_meld(st)
            continue
        sp.play_card(st, greedy_card(st, params, beat, pat_kind, pat_value, pat_need, mbuf,
                                     pbuf), params, beat)
    w = st[sp.WINNER]
    if w >= 0:
        return CLAIM_VALUE if w == seat else -CLAIM_VALUE
    return sp.deal_points(st, seat, params) - sp.deal_points(st, 1 - seat, params)


@njit(cache=True)
def rollout_values(worlds, seat, kinds, args, pats, params, beat, pat_kind, pat_value,
                   pat_need, out):
    """``out[a, w]``: the value for ``seat`` of action ``a`` (``kinds[a]``: ACT_PLAY of card
    ``args[a]``, ACT_MELD of mask ``args[a]`` as pattern ``pats[a]``, ACT_PASS) in world
    ``worlds[w]`` (a full state), the deal then played out by :func:`greedy_finish`."""
    mbuf = np.zeros(sp.MAX_MELDS, dtype=np.int64)
    pbuf = np.zeros(sp.MAX_MELDS, dtype=np.int64)
    for a in range(kinds.shape[0]):
        for w in range(worlds.shape[0]):
            st = worlds[w].copy()
            if kinds[a] == ACT_PLAY:
                sp.play_card(st, args[a], params, beat)
            elif kinds[a] == ACT_MELD:
                sp.apply_meld(st, args[a], pats[a], params, pat_kind, pat_value)
            else:
                sp.pass_meld(st)
            out[a, w] = greedy_finish(st, seat, params, beat, pat_kind, pat_value, pat_need,
                                      mbuf, pbuf)


@njit(cache=True)
def greedy_deals(n, rs, params, beat, pat_kind, pat_value, pat_need, out):
    """``n`` random deals played out by the rollout policy (both seats, claims as in the
    rollouts); ``out[i]`` gets (forehand, dealer) deal points.  A benchmark kernel."""
    mbuf = np.zeros(sp.MAX_MELDS, dtype=np.int64)
    pbuf = np.zeros(sp.MAX_MELDS, dtype=np.int64)
    for i in range(n):
        st = sp.deal_order(sp.shuffled_order(rs), 0, 0, params)
        greedy_finish(st, 0, params, beat, pat_kind, pat_value, pat_need, mbuf, pbuf)
        out[i, 0] = sp.deal_points(st, 0, params)
        out[i, 1] = sp.deal_points(st, 1, params)


# ---------------------------------------------------------------- the policy

def _encode(actions) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    kinds = np.zeros(len(actions), dtype=np.int64)
    args = np.zeros(len(actions), dtype=np.int64)
    pats = np.zeros(len(actions), dtype=np.int64)
    for i, a in enumerate(actions):
        if a[0] == "play":
            kinds[i], args[i] = ACT_PLAY, a[1]
        elif a[0] == "meld":
            kinds[i], args[i], pats[i] = ACT_MELD, a[1], a[2]
        else:
            kinds[i] = ACT_PASS
    return kinds, args, pats


class PimcFast:
    """PIMC while the stock lasts with numba greedy rollouts (module docstring); the exact
    solver once the stock is gone (V7.4); claims as soon as a claim wins (V7.5).
    ``worlds`` per decision; the worlds come from the ``rng`` the policy is called with."""

    def __init__(self, game, worlds: int = DEFAULT_WORLDS):
        self.game = game
        self.worlds = int(worlds)
        self.r = rules_of(game)
        self.solver = EndgameSolver(self.r)
        self.stats = {"decisions": 0, "rollouts": 0}

    def action_values(self, deal: StockDeal, rng: random.Random, worlds: int | None = None):
        """[(action, mean, se, n)] for every legal action of the player to act (no claims),
        over the same ``worlds`` sampled from :func:`public_view`."""
        seat = deal.to_act()
        n = self.worlds if worlds is None else int(worlds)
        acts = deal.legal_actions(claims=False)
        view, pool, nh, _ = public_view(deal, seat)
        ws = sample_worlds(view, pool, nh, seat, n, rng)
        kinds, args, pats = _encode(acts)
        out = np.zeros((len(acts), n), dtype=np.int64)
        r = self.r
        rollout_values(ws, seat, kinds, args, pats, r.params, r.beat, r.pat_kind, r.pat_value,
                       r.pat_need, out)
        self.stats["rollouts"] += out.size
        res = []
        for i, a in enumerate(acts):
            v = out[i].astype(float)
            se = float(v.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
            res.append((a, float(v.mean()), se, n))
        return res

    def __call__(self, deal: StockDeal, rng: random.Random):
        seat = deal.to_act()
        if deal.may_claim(seat):
            return ("claim",)
        if deal.stock_left() == 0 and deal.st[sp.TO_MELD] < 0:
            return ("play", self.solver.best_play(deal))
        acts = deal.legal_actions(claims=False)
        if len(acts) == 1:
            return acts[0]
        self.stats["decisions"] += 1
        vals = self.action_values(deal, rng)
        best = max(v for _, v, _, _ in vals)
        return next(a for a, v, _, _ in vals if v == best)     # the first of equal means
