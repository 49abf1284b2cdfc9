"""Bounds on what a user can ask for: one table read by the library, the CLI's option types
(``cli.common.bounded``) and the web API's schemas (``web.params``).

Why one table: the same question must be answerable (or refused, with the same limit) on
the command line and on the page.  Each bound says why it is where it is; a bound is
checked before any work starts, so an absurd number is one line, never a memory error or
hours of CPU.  This module imports nothing of the package (every layer may read it).

Input: an integer.  Output: :meth:`Bound.problem` says in words what is wrong with it
(``None`` if it lies within the bound); :meth:`Bound.check` raises ``BinokelError``.
"""
from __future__ import annotations

from dataclasses import dataclass


def show_int(v: int) -> str:
    """An integer for a message: grouped digits, or its length when it is absurdly long
    (Python refuses to print an int of more than 4,300 digits)."""
    if abs(v) < 10 ** 30:
        return f"{v:,}"
    return f"a number of about {int(abs(v).bit_length() * 0.30103) + 1:,} digits"


@dataclass(frozen=True)
class Bound:
    """The closed range ``lo..hi`` of one integer input, and why ``hi`` is where it is."""

    lo: int
    hi: int
    why: str = ""

    def __contains__(self, v: int) -> bool:
        return self.lo <= v <= self.hi

    def problem(self, v: int) -> str | None:
        """What is wrong with ``v`` in words ("must be at least 1, got 0"), or None."""
        if v < self.lo:
            return f"must be at least {show_int(self.lo)}, got {show_int(v)}"
        if v > self.hi:
            why = f" ({self.why})" if self.why else ""
            return f"must be at most {show_int(self.hi)}{why}, got {show_int(v)}"
        return None

    def check(self, v: int, name: str) -> int:
        """``v`` if it lies within the bound, else BinokelError "NAME must be ..."."""
        from analyzer.errors import BinokelError

        msg = self.problem(v)
        if msg is not None:
            raise BinokelError(f"{name} {msg}")
        return v

    def capped(self, hi: int, why: str) -> "Bound":
        """The same bound with a lower top (e.g. a server's cap per request)."""
        return Bound(self.lo, min(self.hi, hi), why)


# Seeds feed numpy's SeedSequence (any size would do), but they are also stored in run
# manifests, Parquet metadata and JSON answers that other programs read as 64-bit ints.
SEED = Bound(0, 2**63 - 1, "seeds are 64-bit integers")

# Bid advice keeps samples x rounds (up to 8) x bids x 3 scores of int64: 50,000 samples
# are ~1 GB at the worst; PIMC plays ~3-4 ms a deal, so 5,000 samples are minutes of CPU.
SAMPLES_ADVISE = Bound(1, 50_000, "bid advice keeps every sample's scores at every bid")
SAMPLES_ADVISE_PIMC = Bound(1, 5_000, "PIMC plays ~3-4 ms a deal")
# Hand analysis keeps ~1 KB of per-deal arrays (score and contract at each bid): 1,000,000
# deals are ~1 GB; with PIMC, 20,000 deals are over an hour on one core.
SAMPLES_ANALYZE = Bound(1, 1_000_000, "hand analysis keeps every deal's score at every bid")
SAMPLES_ANALYZE_PIMC = Bound(1, 20_000, "PIMC plays ~3-4 ms a deal")

# Game scores before this deal (R9: a game ends at 1,500): far beyond any real game, and
# small enough that score arithmetic never leaves int64.
GAME_SCORE = Bound(-100_000, 100_000, "a game ends at 1,500, R9")
# A bid in an auction: above any total 18 cards can reach (R5 + R7: a monster's ~2,200).
AUCTION_BID = Bound(0, 3_000, "above any total a hand and Tapp can reach, R5 and R7")
# `hint --exchange`: each discard listed plays four (discard, trump) candidates per world.
HINT_DISCARDS = Bound(1, 12, "each discard listed plays four candidates in every world")
# `hint` / `review` default horizon (not a bound, read by the CLI without importing the
# kernels): every world solved exactly once 10 or fewer tricks are left (issue 27); a
# hint there costs ~0.5 CPU-s with 40 worlds (docs/performance.md#hint).
HINT_HORIZON = 10

# `review`'s auction part: sampled deals per call of the look-ahead (each keeps its scores
# for every plan, ~100 x 3 int64, over up to 8 rounds): 10,000 are ~200 MB and ~5 s of CPU
# a call; the default reviews a whole binokel-48 auction in a few seconds warm (~0.2 s a
# call, docs/guide/records.md).
BID_REVIEW_SAMPLES = Bound(2, 10_000, "each sample plays the deal once per plan's buyer")
BID_REVIEW_DEFAULT = 400

# The top of the bid grid a hand analysis simulates (its tables stop much earlier).
ANALYZE_BID = Bound(0, 1_000, "the analysis simulates bids up to 1,000")

# Tournament groups (6 games each): 100,000 groups are hours of CPU.
GROUPS = Bound(2, 100_000, "100,000 groups are hours of CPU; standard errors need two")
# Deals of a batch run: 10^12 deals are ~28 CPU-hours of meld census; beyond it a request
# is a typo.  The chunk size is bounded by the same number.
RUN_DEALS = Bound(1, 10**12, "10^12 deals are ~28 CPU-hours of meld census")
CHUNK_SIZE = Bound(1, 10**12, "a chunk cannot hold more deals than a run")

# A two-hand (stock, V7) hand analysis plays two deals per sample (this hand and a random
# one for the later deals) at ~0.1-0.2 s of CPU each with the heuristic's exact endgame:
# 20,000 samples are about two CPU-hours.
SAMPLES_STOCK_ANALYZE = Bound(1, 20_000, "each sample plays two deals of ~0.1-0.2 s CPU")
# Deals ahead for P(reaching the target within k deals), V7.5.
STOCK_DEALS_AHEAD = Bound(1, 30, "a game to 1,000 is over within a few deals")

# `binokel bench`: deals per timed run.  The fastest workload (W1, the meld census) deals
# ~10 M deals/s a core, so 10^9 deals are ~100 s a run (times --repeats, plus a warm-up);
# the slower workloads (a played deal, a PIMC decision) take far longer: beyond is a typo.
BENCH_DEALS = Bound(1, 10**9, "10^9 deals are ~100 s a run of the fastest workload, W1")
# The median of more than 100 timed runs is no steadier; each run repeats the whole work.
BENCH_REPEATS = Bound(1, 100, "the median of 100 timed runs is as steady as it gets")
# `binokel serve --workers`: each is a process computing one question at a time (~100 MB
# with numba's kernels loaded); more than 64 on one machine only queue for the cores.
SERVE_WORKERS = Bound(1, 64, "each worker is a process computing one question")

# Default samples of a partners' table with --play pimc / pimc-defence (advise and analyze
# share it): a PIMC team deal takes 10-200 ms, so 100 deals answer within a minute.
TEAM_PIMC_SAMPLES = 100
