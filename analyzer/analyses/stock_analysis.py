"""A starting hand of a stock game (``binokel-2``, V7): what it is worth per deal and how
soon it reaches the game's target (V7.5).

Input: the game (a RuleSet with a stock), the player's 12 card types, the seat
(0 forehand = non-dealer, 1 dealer, V7), optionally the turned card, the number of
samples ``n``, the deals ahead ``K`` for the target table, the policy both seats play
(``heuristic`` or ``random``), the seed and ``jobs``.  Output: :class:`StockAnalysis`
(expected own / opponent's points and their difference with n and 95% CI, meld kinds
shown with SE, the own points' distribution, P(reaching the target within k deals)).

Sampling (V7.1).  Sample ``i`` draws from ``numpy.random.default_rng((seed, 0, i))``:
a permutation of the physical cards the player does not hold (the turned card first
removed when it is given); the first 12 go to the opponent, then (without ``turned``)
one is turned, the rest is the stock, top first.  Then ``rng.integers(2**62)`` seeds the
policies' ``random.Random``.  Both seats play the same policy
(:mod:`analyzer.search.stock_registry`), which reads only what its player knows while the
stock lasts (:mod:`analyzer.search.stock_policies`).  Each sample depends only on
``(seed, i)``: the numbers are the same for any ``jobs``.

Reaching the target (V7.5), by resampling.  A game is a run of deals with the dealer
alternating (V7), so this player's seat alternates.  Deal 1 is this hand: its points
are drawn from the ``n`` own points of the samples above.  Deals 2..k get random hands:
``n`` further deals of uniformly random hands (sample ``i`` from
``default_rng((seed, 1, i))``, played by the same policy) give the per-deal points of a
player in each seat, and deal j draws from the seat the player has in deal j.
P(own total >= target after k deals) is the share of resampled paths (20,000, from
``default_rng((seed, 2))``) that reach it; its SE is the spread over 200 bootstrap
replicates of both samples (2,000 paths each), so it includes the sampling error of
the two point distributions.  Assumptions: deals are independent; later deals are
dealt at random; the points of a deal do not depend on the game score (no claim is
modelled: the policies play as at 0 : 0); only this player's total is followed (the
opponent may reach the target first: this is P(reaching it), not P(winning)).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from analyzer.analyses.stats import mean_ci, proportion_ci
from analyzer.bounds import SAMPLES_STOCK_ANALYZE, SEED, STOCK_DEALS_AHEAD
from analyzer.errors import BinokelError

#: the policies both seats may play in a stock hand analysis
PLAYS = ("heuristic", "random")
CHUNK = 25                # samples per parallel task (each ~0.1-0.2 s CPU a deal)
PATHS = 20_000            # resampled games for the point estimate of P(reach)
BOOT, BOOT_PATHS = 200, 2_000   # bootstrap replicates (and their paths) for its SE
HIST_WIDTH = 25           # points per bin of the own-points histogram
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def meld_kind(name: str) -> str:
    """The kind a meld pattern counts under (V7.3): a plain pair of any suit is "pair"."""
    return "pair" if name.startswith("pair ") else name


def meld_kinds(game) -> list[str]:
    """The meld kinds of the game (V7.3), in its meld table's order."""
    from analyzer.mechanics.stock_deal import rules_of

    out: list[str] = []
    for name in rules_of(game).pat_names[0]:
        k = meld_kind(name)
        if k not in out:
            out.append(k)
    return out


def check_hand(game, types, turned: int | None = None) -> None:
    """Raise BinokelError citing V7.1 unless ``types`` are the game's hand size of card
    types with at most the deck's copies each, and the turned card type (if any) still
    has a copy outside the hand."""
    n, copies = game.table.hand_size, game.deck.copies
    if len(types) != n:
        raise BinokelError(f"V7.1: a hand holds {n} cards in {game.name}, got {len(types)}")
    for t in set(types):
        if types.count(t) > copies:
            raise BinokelError(f"V7.1: {types.count(t)} copies of {_code(t)}; the deck holds "
                               f"{copies} of each card")
    if turned is not None and types.count(turned) >= copies:
        raise BinokelError(f"V7.1: the turned card {_code(turned)} cannot be turned: the hand "
                           f"holds all {copies} copies")


def _code(t: int) -> str:
    from analyzer.mechanics.stock_deal import card_name

    return card_name(2 * t)


def hand_cards(types) -> list[int]:
    """Physical cards of card types: copies assigned in order (2t, then 2t + 1)."""
    seen: dict = {}
    out = []
    for t in types:
        k = seen.get(t, 0)
        out.append(2 * t + k)
        seen[t] = k + 1
    return out


def sample_order(types, turned: int | None, seat: int, seed: int, i: int):
    """(order of the 48 physical cards for ``StockDeal.from_order``, policy seed) of
    sample ``i`` (module doc, V7.1): the hand at ``seat``, the rest uniform."""
    rng = np.random.default_rng((seed, 0, i))
    hand = hand_cards(types)
    held = set(hand)
    t_card = None
    if turned is not None:
        t_card = next(c for c in (2 * turned, 2 * turned + 1) if c not in held)
        held.add(t_card)
    rest = [c for c in range(48) if c not in held]
    perm = [rest[j] for j in rng.permutation(len(rest))]
    opp, tail = perm[:12], perm[12:]
    if t_card is not None:
        tail = [t_card] + tail
    order = (hand + opp if seat == 0 else opp + hand) + tail
    return order, int(rng.integers(2 ** 62))


def random_order(seed: int, i: int):
    """(order, policy seed) of random deal ``i`` for the later deals (module doc)."""
    rng = np.random.default_rng((seed, 1, i))
    return [int(c) for c in rng.permutation(48)], int(rng.integers(2 ** 62))


def play_order(game, order, policy_seed: int, play: str):
    """The deal of ``order`` played to its end by ``play`` at both seats (a StockDeal)."""
    from analyzer.mechanics.stock_deal import StockDeal
    from analyzer.search.stock_registry import policy_of

    deal = StockDeal.from_order(game, order)
    pols = [policy_of(play, game), policy_of(play, game)]
    rng = random.Random(policy_seed)
    while not deal.over():
        deal.apply(pols[deal.to_act()](deal, rng))
    return deal


def _deal_row(deal, seat: int, kinds: list[str]) -> list[int]:
    """own, opponent's, own melds (Dissles included), own card points, own Dissles
    scored, then the count of each meld kind shown by ``seat``."""
    own, opp = deal.points(seat), deal.points(1 - seat)
    melds = deal.melds_points(seat)
    shown = [0] * len(kinds)
    dissles = 0
    for e in deal.log:
        if e[0] == "meld" and e[1] == seat:
            shown[kinds.index(meld_kind(e[3]))] += 1
            dissles += e[3] == "Dissle"
        if e[0] in ("dissle turned", "dissle played") and e[1] == seat:
            dissles += 1
    return [own, opp, melds, own - melds, dissles] + shown


def _chunk(game, types, turned, seat, seed, play, lo, hi, kinds):
    """Rows of samples lo..hi-1 of this hand and of the random deals (both seats' points)."""
    mine, later = [], []
    for i in range(lo, hi):
        order, ps = sample_order(types, turned, seat, seed, i)
        mine.append(_deal_row(play_order(game, order, ps, play), seat, kinds))
        order, ps = random_order(seed, i)
        d = play_order(game, order, ps, play)
        later.append([d.points(0), d.points(1)])
    return mine, later


@dataclass
class StockAnalysis:
    """The analysis of one starting hand of a stock game (module doc)."""

    game: str
    hand: list             # card codes
    turned: str | None
    seat: int
    seat_name: str
    samples: int
    seed: int
    play: str
    target: int
    own: object            # stats.MeanCI
    opp: object
    diff: object
    melds: object
    card_points: object
    meld_rows: list        # {"kind", "p_shown", "p_lo", "p_hi", "p_se", "mean", "se", "n"}
    quantiles: dict        # probability -> own points
    hist: list             # (bin start, count), HIST_WIDTH wide
    reach: list            # {"k", "p", "se", "n_paths"}
    method: str = field(default="")

    def to_dict(self) -> dict:
        def m(x):
            return {"mean": x.mean, "ci_lo": x.lo, "ci_hi": x.hi, "se": x.se, "n": x.n}
        return {"rules": self.game, "hand": self.hand, "turned": self.turned,
                "seat": self.seat_name, "samples": self.samples, "seed": self.seed,
                "play": self.play, "target": self.target,
                "points": {"own": m(self.own), "opponent": m(self.opp), "difference": m(self.diff),
                           "own_melds": m(self.melds), "own_card_points": m(self.card_points)},
                "melds_shown": self.meld_rows,
                "own_points": {"quantiles": {f"q{int(round(p * 100)):02d}": v
                                             for p, v in self.quantiles.items()},
                               "histogram": [{"from": b, "to": b + HIST_WIDTH - 1, "count": c}
                                             for b, c in self.hist]},
                "reach_target": self.reach, "reach_method": self.method}


def reach_table(first: np.ndarray, later: np.ndarray, seat: int, deals: int, target: int,
                seed: int) -> list[dict]:
    """P(own total >= ``target`` after k deals), k = 1..``deals``, by resampling (module
    doc): ``first`` the own points of this hand, ``later[:, s]`` a random hand's points
    at seat ``s``; the seat alternates from ``seat``.  Each row: k, p, se, n_paths."""
    rng = np.random.default_rng((seed, 2))
    seats = [(seat + j) % 2 for j in range(deals)]

    def shares(f, lat, paths):
        tot = np.empty((paths, deals), dtype=np.int64)
        tot[:, 0] = f[rng.integers(len(f), size=paths)]
        for j in range(1, deals):
            col = lat[:, seats[j]]
            tot[:, j] = col[rng.integers(len(col), size=paths)]
        return (np.cumsum(tot, axis=1) >= target).mean(axis=0)

    p = shares(first, later, PATHS)
    boot = np.empty((BOOT, deals))
    for b in range(BOOT):
        f = first[rng.integers(len(first), size=len(first))]
        lat = later[rng.integers(len(later), size=len(later))]
        boot[b] = shares(f, lat, BOOT_PATHS)
    se = boot.std(axis=0, ddof=1) if BOOT > 1 else np.zeros(deals)
    return [{"k": k + 1, "p": float(p[k]), "se": float(se[k]), "n_paths": PATHS}
            for k in range(deals)]


def check_request(game, types, seat, turned, samples, deals, seed, play) -> None:
    """Raise BinokelError (one line) for a request :func:`analyze_stock_hand` refuses: a
    bad hand or turned card (V7.1), seat (V7), policy or bound; before any work starts."""
    check_hand(game, list(types), turned)
    if seat not in (0, 1):
        raise BinokelError(f"V7: the seat is 0 (forehand) or 1 (dealer), got {seat!r}")
    if play not in PLAYS:
        raise BinokelError(f"--play: {game.name} is analysed with {' or '.join(PLAYS)}, "
                           f"not {play!r}")
    SAMPLES_STOCK_ANALYZE.check(int(samples), "--samples")
    STOCK_DEALS_AHEAD.check(int(deals), "--deals")
    SEED.check(int(seed), "--seed")


def analyze_stock_hand(game, types, seat: int = 0, turned: int | None = None,
                       samples: int = 200, deals: int = 10, seed: int = 0,
                       play: str = "heuristic", jobs: int = 1, progress=None) -> StockAnalysis:
    """Analyse a starting hand of a stock game (module doc).

    ``types``: the hand's card types; ``turned``: a card type or None (sampled);
    ``seat``: 0 forehand, 1 dealer (V7); ``progress(done, total)`` after each chunk.
    Raises BinokelError (one line) for a bad hand (V7.1), seat, policy or bound.
    """
    from analyzer.mechanics.stock_deal import card_name
    from analyzer.parallel import parallel_map

    check_request(game, types, seat, turned, samples, deals, seed, play)
    kinds = meld_kinds(game)
    types = list(types)
    bounds = [(lo, min(lo + CHUNK, samples)) for lo in range(0, samples, CHUNK)]
    args = [(game, types, turned, seat, seed, play, lo, hi, kinds) for lo, hi in bounds]
    mine, later = [], []
    for k, (a, b) in enumerate(parallel_map(_chunk, args, jobs, len(args))):
        mine += a
        later += b
        if progress is not None:
            progress(k + 1, len(args))
    rows = np.array(mine, dtype=np.int64)
    lat = np.array(later, dtype=np.int64)
    own, opp = rows[:, 0], rows[:, 1]
    n = len(own)
    meld_rows = []
    for j, kind in enumerate(kinds):
        c = rows[:, 5 + j]
        pc = proportion_ci(int((c > 0).sum()), n)
        mc = mean_ci(c.astype(float))
        meld_rows.append({"kind": kind, "p_shown": pc.p, "p_lo": pc.lo, "p_hi": pc.hi,
                          "p_se": float(np.sqrt(pc.p * (1 - pc.p) / n)),
                          "mean": mc.mean, "se": mc.se, "n": n})
    d = rows[:, 4]
    pc = proportion_ci(int((d > 0).sum()), n)
    meld_rows.append({"kind": "Dissle scored (turned, shown or played)", "p_shown": pc.p,
                      "p_lo": pc.lo, "p_hi": pc.hi,
                      "p_se": float(np.sqrt(pc.p * (1 - pc.p) / n)),
                      "mean": float(d.mean()), "se": mean_ci(d.astype(float)).se, "n": n})
    qs = {p: float(np.quantile(own, p)) for p in QUANTILES}
    lo = (int(own.min()) // HIST_WIDTH) * HIST_WIDTH
    edges = np.arange(lo, int(own.max()) + HIST_WIDTH + 1, HIST_WIDTH)
    counts, _ = np.histogram(own, bins=edges)
    hist = [(int(b), int(c)) for b, c in zip(edges[:-1], counts) if c]
    target = int(game.end.target)
    reach = reach_table(own, lat, seat, int(deals), target, seed)
    method = (f"resampling: deal 1 from this hand's {n} sampled deals, deals 2..k from "
              f"{len(lat)} deals of random hands at the alternating seat; assumes independent "
              f"deals and no claim; the opponent may reach {target} first (V7.5)")
    return StockAnalysis(
        game=game.name, hand=[card_name(c) for c in hand_cards(types)],
        turned=None if turned is None else _code(turned), seat=seat,
        seat_name=game.table.seat_names[seat], samples=n, seed=int(seed), play=play,
        target=target, own=mean_ci(own.astype(float)), opp=mean_ci(opp.astype(float)),
        diff=mean_ci((own - opp).astype(float)), melds=mean_ci(rows[:, 2].astype(float)),
        card_points=mean_ci(rows[:, 3].astype(float)), meld_rows=meld_rows, quantiles=qs,
        hist=hist, reach=reach, method=method)
