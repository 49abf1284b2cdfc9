"""Benchmark workloads of the double-dummy solver (analyzer.search.solve).

DD8, DD10, DD12, DD15, exactly: deal a uniformly random 15/15/15/3 split (R2), draw a
trump suit uniformly and a soloist seat uniformly, forehand (seat 0) leads, play
``15 - K`` tricks with uniformly random legal cards (R6), then solve the position at the
trick boundary exactly (soloist's remaining card points, R7).  Unit: positions.  Every
position is solved from an empty transposition table (its keys carry a fresh
generation), so no position profits from another.  Extra figures: the median / p90 /
mean wall and CPU (``time.process_time``) milliseconds per position, mean and median
nodes, and the machine's load average, because the machine may be shared.  Each
position's CPU ms, wall ms and nodes also go to the harness (``per_unit``), which
reports their distribution over all positions of all repeats (``pooled``: median with
its 95% CI, p90, mean, each repeat's median): the figure to quote, since the repeats
solve different positions and one repeat's 100 positions leave its median uncertain.

Baseline: the same alpha-beta with a trick-boundary table in plain Python (dicts and
ints), run on a few positions of the same kind.
"""
from __future__ import annotations

import os
import random
import statistics
import time

import numpy as np

from analyzer._jit import njit
from analyzer.bench.registry import register, register_table_variant
from analyzer.mechanics.cards import N_TYPES
from analyzer.kernels.bits import ctpop, select_bit
from analyzer.mechanics.play import beat_table, card_beats, legal_mask_duty
from analyzer.mechanics.rng import bounded, chunk_state
from analyzer.mechanics.rules import DEFAULT_RULES
from analyzer.mechanics.sampling import deal_random
from analyzer.errors import BinokelError
from analyzer.mechanics.trick import add_card, legal as trick_legal, sides_of
from analyzer.search.solve import (W_NODES, Solver, dd_value, set_context,
                                   set_hands)
from analyzer.search.solve_any import (C_NODES, TableSolver, dd_solver, game_of, search_root,
                                       table_position)


@njit
def random_positions(state, n, tricks_left, kr, lo, hi, meta):
    """``n`` positions reached by random legal play (module docstring).

    OUT: ``lo``/``hi`` int64[n, 3] hand planes, ``meta`` int64[n, 3] = trump, soloist,
    leader of the next trick.
    """
    deck = new_deck_nb()
    masks = np.zeros(4, dtype=np.int64)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kr, beat)
    l = np.zeros(3, dtype=np.int64)
    h = np.zeros(3, dtype=np.int64)
    lo24 = np.int64((1 << N_TYPES) - 1)
    for i in range(n):
        deal_random(state, deck, masks)
        for p in range(3):
            l[p] = masks[p] & lo24
            h[p] = masks[p] >> np.int64(N_TYPES)
        trump = bounded(state, 4)
        soloist = bounded(state, 3)
        ld = 0
        for _ in range(kr.hand_size - tricks_left):
            wc = -1
            ws = -1
            ls = -1
            lh = -1
            for k in range(3):
                seat = (ld + k) % 3
                legal = l[seat] if k == 0 else legal_mask_duty(l[seat], ls, wc, lh, trump, beat,
                                                               kr.beat_led_trumped, 0)
                c = select_bit(legal, bounded(state, ctpop(legal)))
                b = np.int64(1) << np.int64(c)
                if h[seat] & b:
                    h[seat] &= ~b
                else:
                    l[seat] &= ~b
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
            ld = ws
        for p in range(3):
            lo[i, p] = l[p]
            hi[i, p] = h[p]
        meta[i, 0] = trump
        meta[i, 1] = soloist
        meta[i, 2] = ld


@njit
def new_deck_nb():
    d = np.empty(48, dtype=np.uint8)
    for i in range(48):
        d[i] = i
    return d


def make_positions(n: int, tricks_left: int, seed: int, rules=DEFAULT_RULES):
    lo = np.zeros((n, 3), dtype=np.int64)
    hi = np.zeros((n, 3), dtype=np.int64)
    meta = np.zeros((n, 3), dtype=np.int64)
    random_positions(chunk_state(seed, 0), n, tricks_left, rules.kernel, lo, hi, meta)
    return lo, hi, meta


_SOLVER: list = []


def _solver() -> Solver:
    if not _SOLVER:
        _SOLVER.append(Solver())
    return _SOLVER[0]


def _dd(tricks_left: int):
    def run(n: int, seed: int) -> dict:
        s = _solver()
        lo, hi, meta = make_positions(n, tricks_left, seed)
        walls, cpus, nodes = [], [], []
        vals = 0
        for i in range(n):
            set_context(s.w, int(meta[i, 0]), int(meta[i, 1]), s.tt_mask)
            # set_hands starts a new generation of the table: no old entry matches
            set_hands(s.w, lo[i], hi[i])
            n0 = int(s.w[W_NODES])
            c0 = time.process_time()
            t0 = time.perf_counter()
            vals += int(dd_value(s.w, s.tt, int(meta[i, 2]), 0, -1, -1, -1, -1, 0))
            walls.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
            nodes.append(int(s.w[W_NODES]) - n0)
        q = statistics.quantiles(walls, n=10) if n >= 10 else [max(walls)] * 9
        return {"tricks_left": tricks_left, "median_ms": 1e3 * statistics.median(walls),
                "p90_ms": 1e3 * q[8], "mean_ms": 1e3 * statistics.mean(walls),
                "cpu_median_ms": 1e3 * statistics.median(cpus),
                "cpu_mean_ms": 1e3 * statistics.mean(cpus),
                "mean_nodes": statistics.mean(nodes), "median_nodes": statistics.median(nodes),
                "mean_value": vals / n, "loadavg": list(os.getloadavg()),
                # pooled over all repeats by the harness (registry.pool_per_unit)
                "per_unit": {"cpu_ms": [1e3 * x for x in cpus],
                             "wall_ms": [1e3 * x for x in walls], "nodes": nodes}}
    return run


# --------------------------------------------------------------------------- baseline

def python_solve(lo, hi, trump, soloist, leader, rules=DEFAULT_RULES) -> int:
    """The solver's algorithm in plain Python: fail-soft alpha-beta, bounds table at trick
    boundaries (a dict), same move ordering idea (points onto the own side's trick).
    R6 duties only (the baseline of the binokel-48 workloads)."""
    kr = rules.kernel
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kr, beat)
    beat = [int(x) for x in beat]
    cp = [int(x) for x in kr.card_points]
    bonus = int(kr.last_trick_bonus)
    durch = trump < 0
    L = [int(x) for x in lo]
    H = [int(x) for x in hi]
    tt: dict = {}

    def wins(c, wc):
        if (beat[wc] >> c) & 1:
            return True
        return trump >= 0 and c // 6 == trump and wc // 6 != trump

    def legal(seat, k, ls, wc):
        h = L[seat]
        if k == 0:
            return h
        f = h & (63 << (6 * ls))
        if f:
            b = f & beat[wc]
            return b or f
        if trump >= 0:
            t = h & (63 << (6 * trump))
            if t:
                if wc // 6 == trump:
                    return (t & beat[wc]) or t
                return t
        return h

    def rem_points():
        return sum(cp[c] for p in range(3) for m in (L[p], H[p]) for c in range(24) if (m >> c) & 1)

    def ab(ld, k, ls, wc, ws, tp, rem, alpha, beta):
        key = None
        if k == 0:
            if L[ld] == 0:
                return 0
            total = rem + bonus
            if total <= alpha:
                return total
            if beta <= 0:
                return 0
            key = (L[0], L[1], L[2], H[0], H[1], H[2], ld)
            lb, ub = tt.get(key, (0, total))
            if lb >= beta:
                return lb
            if ub <= alpha:
                return ub
            if lb == ub:
                return lb
            alpha, beta = max(alpha, lb), min(beta, ub)
        a0, b0 = alpha, beta
        seat = (ld + k) % 3
        m = legal(seat, k, ls, wc)
        moves = [c for c in range(24) if (m >> c) & 1]
        if k > 0:
            def score(c):
                w2 = seat if wins(c, wc) else ws
                return cp[c] if (w2 == soloist) == (seat == soloist) else -cp[c]
            moves.sort(key=score, reverse=True)
        maxing = seat == soloist
        best = -1 if maxing else 1 << 20
        for c in moves:
            b = 1 << c
            if H[seat] & b:
                H[seat] &= ~b
            else:
                L[seat] &= ~b
            if k == 0:
                nwc, nws, nls = c, seat, c // 6
            elif wins(c, wc):
                nwc, nws, nls = c, seat, ls
            else:
                nwc, nws, nls = wc, ws, ls
            ntp = tp + cp[c]
            if k == 2:
                if L[seat] == 0:
                    ntp += bonus
                if nws == soloist:
                    v = ntp + ab(nws, 0, -1, -1, -1, 0, rem - cp[c], alpha - ntp, beta - ntp)
                elif durch:
                    v = 0
                else:
                    v = ab(nws, 0, -1, -1, -1, 0, rem - cp[c], alpha, beta)
            else:
                v = ab(ld, k + 1, nls, nwc, nws, ntp, rem - cp[c], alpha, beta)
            if L[seat] & b:
                H[seat] |= b
            else:
                L[seat] |= b
            if maxing:
                if v > best:
                    best = v
                    alpha = max(alpha, best)
            else:
                if v < best:
                    best = v
                    beta = min(beta, best)
            if alpha >= beta:
                break
        if key is not None:
            lb, ub = tt.get(key, (0, rem + bonus))
            if best <= a0:
                ub = min(ub, best)
            elif best >= b0:
                lb = max(lb, best)
            else:
                lb = ub = best
            tt[key] = (lb, ub)
        return best

    rem = rem_points()
    return ab(leader, 0, -1, -1, -1, 0, rem, -1, rem + bonus + 1)


def _dd_python(tricks_left: int):
    def run(n: int, seed: int) -> dict:
        lo, hi, meta = make_positions(n, tricks_left, seed)
        walls = []
        vals = 0
        for i in range(n):
            t0 = time.perf_counter()
            vals += python_solve(lo[i], hi[i], int(meta[i, 0]), int(meta[i, 1]), int(meta[i, 2]))
            walls.append(time.perf_counter() - t0)
        return {"tricks_left": tricks_left, "median_ms": 1e3 * statistics.median(walls),
                "mean_value": vals / n}
    return run


_DESC = ("double-dummy solve of a position with {k} tricks left, reached from a random deal "
         "(random trump and soloist, seat 0 leads) by random legal play; fresh table per "
         "position; extra: median/p90 ms per position (wall and CPU), nodes; pooled: the same over "
         "all positions of all repeats")
# --------------------------------------------------------------------------- every game

def table_positions(n: int, tricks_left: int, seed: int, rules) -> list:
    r"""``n`` positions of the game ``rules`` with ``tricks_left`` tricks left, reached as
    DD8's are (module docstring) on the game's own table: its deck (copies, low card),
    hand size and seats in play (a seat that sits out holds nothing, V3), a uniform trump
    and soloist among the seats in play, the first lead by the game's rule (forehand, or
    the bidder: V6.2), then uniformly random legal cards under its duties (the one trick
    step, partner relief included).  Drawn with ``random.Random`` from (seed, tricks_left).
    Returns :class:`analyzer.search.solve_any.TablePosition`\ s."""
    game = game_of(rules)
    kr = game.kernel
    if not 1 <= tricks_left <= kr.hand_size:
        raise BinokelError(f"{game.name} deals {kr.hand_size} tricks: no position with "
                           f"{tricks_left} tricks left")
    rnd = random.Random(f"{seed}-{tricks_left}-{game.name}")
    in_play = [q for q in range(kr.table_seats) if not kr.sits_out[q]]
    deck = [t for t in range(N_TYPES) for _ in range(int(kr.copies[t]))]
    side = np.zeros(kr.table_seats, dtype=np.int64)
    out = []
    for _ in range(n):
        rnd.shuffle(deck)
        hands = [[0] * N_TYPES for _ in range(kr.table_seats)]
        for i, q in enumerate(in_play):
            for t in deck[i * kr.hand_size:(i + 1) * kr.hand_size]:
                hands[q][t] += 1
        trump = rnd.randrange(4)
        soloist = rnd.choice(in_play)
        sides_of(kr.side_rule, kr.sits_out, soloist, side)
        ld = soloist if kr.bidder_leads else in_play[0]
        for _ in range(kr.hand_size - tricks_left):
            ls, wc, ws, lh, tp = -1, -1, -1, -1, 0
            seat = ld
            for _ in range(kr.n_play):
                pres = sum(1 << t for t in range(N_TYPES) if hands[seat][t])
                relief = int(ls >= 0 and kr.partner_relief and side[ws] == side[seat])
                lg = int(trick_legal(np.int64(pres), ls, wc, lh, trump, kr.beat, kr.follow,
                                     kr.trump_duty, kr.beat_mode, kr.overtrump, relief))
                cards = [t for t in range(N_TYPES) if (lg >> t) & 1]
                c = cards[rnd.randrange(len(cards))]
                hands[seat][c] -= 1
                ls, wc, ws, lh = (int(x) for x in add_card(c, seat, ls, wc, ws, lh, trump, kr.beat))
                seat = int(kr.next_seat[seat])
            ld = ws
        out.append(table_position(game, hands, trump, soloist, ld, ()))
    return out


def _dd_any(tricks_left: int):
    """DDk for every game: binokel-48 without ``rules`` (the positions and kernel calls
    of :func:`_dd`, unchanged), any game with ``rules``: its own positions
    (:func:`table_positions`), solved by the kernel :func:`dd_solver` picks (the tuned
    three-player kernel called as :func:`_dd` calls it, or the table solver's root search);
    only the kernel call is timed."""
    plain = _dd(tricks_left)

    def run(n: int, seed: int, rules=None) -> dict:
        if rules is None:
            return dict(plain(n, seed), kernel="tuned")
        s = dd_solver(rules)
        walls, cpus, nodes = [], [], []
        vals = 0
        for pos in table_positions(n, tricks_left, seed, rules):
            if isinstance(s, TableSolver):
                args = s._load(pos) + (-1,)
                fn, c = search_root, s.c
                slot = C_NODES
            else:
                w = s.solver.w
                set_context(w, pos.trump, pos.soloist, s.solver.tt_mask)
                lo = np.array([sum(1 << t for t in range(N_TYPES) if pos.hands[q][t] >= 1)
                               for q in range(3)], dtype=np.int64)
                hi = np.array([sum(1 << t for t in range(N_TYPES) if pos.hands[q][t] >= 2)
                               for q in range(3)], dtype=np.int64)
                set_hands(w, lo, hi)
                args = (w, s.solver.tt, pos.leader, 0, -1, -1, -1, -1, 0)
                fn, c = dd_value, w
                slot = W_NODES
            n0 = int(c[slot])
            c0 = time.process_time()
            t0 = time.perf_counter()
            vals += int(fn(*args))
            walls.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
            nodes.append(int(c[slot]) - n0)
        q = statistics.quantiles(walls, n=10) if n >= 10 else [max(walls)] * 9
        return {"tricks_left": tricks_left, "median_ms": 1e3 * statistics.median(walls),
                "p90_ms": 1e3 * q[8], "mean_ms": 1e3 * statistics.mean(walls),
                "cpu_median_ms": 1e3 * statistics.median(cpus),
                "cpu_mean_ms": 1e3 * statistics.mean(cpus),
                "mean_nodes": statistics.mean(nodes), "median_nodes": statistics.median(nodes),
                "mean_value": vals / n, "loadavg": list(os.getloadavg()),
                "kernel": "table" if isinstance(s, TableSolver) else "tuned",
                "per_unit": {"cpu_ms": [1e3 * x for x in cpus],
                             "wall_ms": [1e3 * x for x in walls], "nodes": nodes}}
    return run


def _dd_python_any(tricks_left: int):
    """The plain-Python baseline: binokel-48's positions without ``rules``; with ``rules``
    (a three-player game) the game's own positions (:func:`table_positions`) solved by
    :func:`python_solve` under its rules."""
    base = _dd_python(tricks_left)

    def run(n: int, seed: int, rules=None) -> dict:
        if rules is None:
            return base(n, seed)
        walls, vals = [], 0
        for pos in table_positions(n, tricks_left, seed, rules):
            lo = np.array([sum(1 << t for t in range(N_TYPES) if pos.hands[q][t] >= 1)
                           for q in range(3)], dtype=np.int64)
            hi = np.array([sum(1 << t for t in range(N_TYPES) if pos.hands[q][t] >= 2)
                           for q in range(3)], dtype=np.int64)
            t0 = time.perf_counter()
            vals += python_solve(lo, hi, pos.trump, pos.soloist, pos.leader, rules)
            walls.append(time.perf_counter() - t0)
        return {"tricks_left": tricks_left, "median_ms": 1e3 * statistics.median(walls),
                "mean_value": vals / n}
    return run


_DESC_ANY = (" (--rules NAME: that game's deck, table and duties; seats that sit out hold "
             "nothing; three-player games on the tuned kernel, the others on the table solver "
             "without a plain-Python baseline)")
register("DD8", _dd_any(8), description=_DESC.format(k=8) + _DESC_ANY, deals=400,
         unit="positions", baselines={"python": (_dd_python_any(8), 4)}, variant_aware=True)
register("DD10", _dd_any(10), description=_DESC.format(k=10) + _DESC_ANY, deals=100,
         unit="positions", baselines={"python": (_dd_python_any(10), 1)}, variant_aware=True)
# the four-seat tables (partners, k copies): the same workload on the table solver
register_table_variant("DD8", _dd_any(8))
register_table_variant("DD10", _dd_any(10))
register("DD12", _dd(12), description=_DESC.format(k=12), deals=10, unit="positions")
register("DD15", _dd(15), description=_DESC.format(k=15) + " (a whole deal)", deals=3,
         unit="positions")
