"""Matches of two policies in a stock game (``binokel-2``, V7): single deals in duplicate,
and whole games to the target in duplicate pairs.

- :func:`duplicate_match`: each deal is played twice from one seed, the policies swapping
  seats (forehand / dealer, V7.1); a deal's score is policy A's deal points minus policy
  B's over both plays (V7.4), so the cards' luck cancels.  The deals start at 0 : 0, so no
  claim is possible below the target (V7.5).  Reported with n, the mean, its standard
  error and z = mean / SE.
- :func:`game_match`: a group is a pair of whole games on one stream of deals: A is the
  first forehand in one game and the first dealer in the other; the dealer alternates,
  scores carry from deal to deal, a claim ends the game (won at the target or more, lost
  below: the policies claim only when it wins) and after a deal a player at the target or
  more with the higher total wins, level totals play another deal (V7.5).  Reported: A's
  win rate over the games with its SE over the groups (the pair is the unit), the deals
  per game, the claims.

Reproducible for any ``jobs``: every play draws from its own seed (the deal's order and
the policies' ``random.Random``), the deals are split into fixed chunks that do not depend
on ``jobs``, and a policy keeps no state from one play to the next that changes a
decision (PIMC's world generator is reseeded per play).
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import asdict, dataclass, field
from functools import lru_cache

import numpy as np

from analyzer.bounds import Bound
from analyzer.errors import BinokelError
from analyzer.mechanics import stock_play as sp
from analyzer.mechanics.stock_deal import StockDeal, rules_of
from analyzer.parallel import parallel_map
from analyzer.search.stock_registry import POLICIES, policy_of

#: deals of a duplicate match (each played twice): ~0.1-1 s of CPU a play
STOCK_DEALS = Bound(2, 100_000, "a deal is 0.1-1 s of CPU a play; standard errors need two")
#: game pairs of a game match (about four deals a game)
STOCK_GROUPS = Bound(2, 20_000, "a game pair is about eight deals; standard errors need two")
#: PIMC worlds per decision
STOCK_WORLDS = Bound(2, 1_000, "each world plays every legal action to the end of the deal")
#: deals after which a game that has not ended is given up (level totals forever: V7.5)
MAX_DEALS_PER_GAME = 60
#: deals (or groups) per task handed to a worker: fixed, so the chunks never depend on jobs
CHUNK = 4


def check_policy(name: str, game) -> str:
    """``name`` if it is a policy of the stock game, else a one-line BinokelError."""
    try:
        policy_of(name, game)
    except BinokelError:
        raise BinokelError(f"unknown policy {name!r} for {game.name}: use "
                           f"{', '.join(POLICIES)} (or pimc-N, pimc-fast-N: N worlds)") from None
    return name


@lru_cache(maxsize=16)
def _policy(game_name: str, name: str, worlds: int | None):
    """One policy object per process (the endgame solver's table is 32 MB: built once)."""
    from analyzer.mechanics.ruleset import GAMES

    return policy_of(name, GAMES[game_name], worlds=worlds)


def deal_seed(seed: int, i: int) -> int:
    """The seed of deal ``i`` of a match with ``seed``: independent streams per (seed, i)."""
    a, b = np.random.SeedSequence([int(seed), int(i)]).generate_state(2, dtype=np.uint32)
    return int((int(a) << 31) ^ int(b))


def play_one(game, seed: int, pols, before=(0, 0)) -> StockDeal:
    """The deal of ``seed`` played to its end (or a claim, V7.5) by ``pols`` (seat 0 =
    forehand, seat 1 = dealer), from the game scores ``before``; every policy's own
    random state restarts from ``seed`` (reproducible whatever was played before)."""
    deal = StockDeal.from_seed(game, seed, before)
    rng = random.Random(seed)
    for p in pols:
        if hasattr(p, "reseed"):
            p.reseed(seed)
    while not deal.over():
        deal.apply(pols[deal.to_act()](deal, rng))
    return deal


# ---------------------------------------------------------------- single deals

def _deal_chunk(game_name: str, a: str, b: str, worlds, seeds) -> list[tuple]:
    """Each seed played twice (A forehand, then A dealer): per deal (A minus B over both
    plays, A's points, B's points, CPU seconds)."""
    from analyzer.mechanics.ruleset import GAMES

    game = GAMES[game_name]
    pa, pb = _policy(game_name, a, worlds), _policy(game_name, b, worlds)
    out = []
    for s in seeds:
        t = time.process_time()
        d1 = play_one(game, s, (pa, pb))
        d2 = play_one(game, s, (pb, pa))
        ap, bp = d1.points(0) + d2.points(1), d1.points(1) + d2.points(0)
        out.append((ap - bp, ap, bp, time.process_time() - t))
    return out


def mean_se(xs) -> tuple[float, float]:
    """Mean and its standard error (sample SD / sqrt n); SE is NaN below two values."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


@dataclass(frozen=True)
class DuplicateResult:
    """A duplicate match of single deals: A's minus B's deal points per deal (both plays)."""

    rules: str
    a: str
    b: str
    seed: int
    worlds: int | None
    n: int                   # deals, each played twice
    mean: float              # A minus B per deal (both plays)
    se: float
    a_points: float          # A's mean deal points per play
    b_points: float
    cpu_per_deal: float      # CPU seconds per deal (both plays), summed over the workers
    diffs: tuple = field(repr=False)

    @property
    def z(self) -> float:
        return self.mean / self.se if self.se > 0 else float("nan")

    def to_dict(self) -> dict:
        d = asdict(self)
        d["z"] = self.z
        d["diffs"] = list(self.diffs)
        return d


def duplicate_match(game, a: str, b: str, deals: int, seed: int = 0, jobs=1,
                    worlds: int | None = None, progress=None) -> DuplicateResult:
    """``deals`` deals (seeds :func:`deal_seed`), each played with A as forehand and then
    as dealer against B (V7.1); ``worlds`` overrides the PIMC policies' worlds per
    decision; ``progress(k)`` after each chunk of ``k`` deals."""
    STOCK_DEALS.check(deals, "--deals")
    if worlds is not None:
        STOCK_WORLDS.check(worlds, "--samples")
    check_policy(a, game), check_policy(b, game)
    seeds = [deal_seed(seed, i) for i in range(deals)]
    chunks = [seeds[i:i + CHUNK] for i in range(0, deals, CHUNK)]
    rows = []
    for part in parallel_map(_deal_chunk, [(game.name, a, b, worlds, c) for c in chunks],
                             jobs, len(chunks)):
        rows.extend(part)
        if progress is not None:
            progress(len(part))
    diffs = [r[0] for r in rows]
    m, se = mean_se(diffs)
    return DuplicateResult(game.name, a, b, int(seed), worlds, deals, m, se,
                           sum(r[1] for r in rows) / (2 * deals),
                           sum(r[2] for r in rows) / (2 * deals),
                           sum(r[3] for r in rows) / deals, tuple(diffs))


# ---------------------------------------------------------------- whole games

def play_game(game, seed: int, pols) -> dict:
    """One game to the target (V7.5) between players 0 and 1 (``pols[p]``); player 0 is
    forehand (the non-dealer) of the first deal, the dealer alternates; deal ``k`` is
    dealt from ``deal_seed(seed, k)``.  Returns the winner (player), the final scores, the
    deals played, whether a claim ended it."""
    r = rules_of(game)
    target = int(r.params[sp.P_TARGET])
    score = [0, 0]
    for k in range(MAX_DEALS_PER_GAME):
        fore = k % 2                           # the player in seat 0 (forehand) this deal
        seats = (fore, 1 - fore)
        d = play_one(game, deal_seed(seed, k), (pols[seats[0]], pols[seats[1]]),
                     before=(score[seats[0]], score[seats[1]]))
        if d.winner() >= 0:                    # a claim ended the game (V7.5)
            for s in (0, 1):
                score[seats[s]] += d.points(s)
            return {"winner": seats[d.winner()], "scores": score, "deals": k + 1, "claim": True}
        for s in (0, 1):
            score[seats[s]] += d.points(s)
        if max(score) >= target and score[0] != score[1]:
            return {"winner": int(score[1] > score[0]), "scores": score, "deals": k + 1,
                    "claim": False}
    raise BinokelError(f"V7.5: a game of {game.name} was still level after "
                       f"{MAX_DEALS_PER_GAME} deals (seed {seed})")


def _game_chunk(game_name: str, a: str, b: str, worlds, seeds) -> list[tuple]:
    """Each seed's game pair: A as player 0 (first forehand), then as player 1 (first
    dealer), on the same deals; per group (A's wins 0-2, deals, claims, A's points minus
    B's over both games, CPU seconds)."""
    from analyzer.mechanics.ruleset import GAMES

    game = GAMES[game_name]
    pa, pb = _policy(game_name, a, worlds), _policy(game_name, b, worlds)
    out = []
    for s in seeds:
        t = time.process_time()
        g1 = play_game(game, s, (pa, pb))
        g2 = play_game(game, s, (pb, pa))
        wins = int(g1["winner"] == 0) + int(g2["winner"] == 1)
        pts = (g1["scores"][0] - g1["scores"][1]) + (g2["scores"][1] - g2["scores"][0])
        out.append((wins, g1["deals"] + g2["deals"], int(g1["claim"]) + int(g2["claim"]), pts,
                    time.process_time() - t))
    return out


@dataclass(frozen=True)
class GameResult:
    """A match of whole games in duplicate pairs (V7.5)."""

    rules: str
    a: str
    b: str
    seed: int
    worlds: int | None
    groups: int              # game pairs
    win_rate: float          # A's share of the 2 * groups games
    win_se: float            # over the groups (a pair's two games are one unit)
    deals_per_game: float
    claims: int              # games a claim ended
    points_diff: float       # A's minus B's final scores per group (both games)
    points_se: float
    cpu_per_group: float

    @property
    def z(self) -> float:
        return (self.win_rate - 0.5) / self.win_se if self.win_se > 0 else float("nan")

    def to_dict(self) -> dict:
        d = asdict(self)
        d["z"] = self.z
        return d


def game_match(game, a: str, b: str, groups: int, seed: int = 0, jobs=1,
               worlds: int | None = None, progress=None) -> GameResult:
    """``groups`` game pairs (module docstring); group ``g`` plays from
    ``deal_seed(seed, g)``'s deal stream.  ``progress(k)`` after each chunk of groups."""
    STOCK_GROUPS.check(groups, "--groups")
    if worlds is not None:
        STOCK_WORLDS.check(worlds, "--samples")
    check_policy(a, game), check_policy(b, game)
    seeds = [deal_seed(seed, 1_000_000_000 + g) for g in range(groups)]
    chunks = [seeds[i:i + CHUNK] for i in range(0, groups, CHUNK)]
    rows = []
    for part in parallel_map(_game_chunk, [(game.name, a, b, worlds, c) for c in chunks],
                             jobs, len(chunks)):
        rows.extend(part)
        if progress is not None:
            progress(len(part))
    w, wse = mean_se([r[0] / 2 for r in rows])
    p, pse = mean_se([r[3] for r in rows])
    return GameResult(game.name, a, b, int(seed), worlds, groups, w, wse,
                      sum(r[1] for r in rows) / (2 * groups), sum(r[2] for r in rows), p, pse,
                      sum(r[4] for r in rows) / groups)
