"""Benchmark workloads of ``binokel simulate`` (registered with analyzer.bench.registry).

S1 and S2 time the whole meld-census run (``simulate --what melds``: deal, census of
R5 melds for the three hands and forehand + Tapp, Parquet parts, manifest) into a
temporary folder, with one worker (S1) and with one worker per core (S2).  The rates
are deals per wall-clock second of the whole run; S2 / S1 is the scaling from one core
to all cores.  The loky worker pool is started by the warm-up call, so the timed runs
measure the steady state of a long run, not process start-up.
SD times played deals (``--what deals``) on all cores; SD1 the same on one core (a rate
per CPU-second), and TSD the team games' played deals on one core (``binokel bench
--rules kreuz-48 -w TSD``: four rule bidders, exchange, team play, team scores;
analyzer.batch.runs.partners_deal_rows), so the two chunk kernels compare per CPU-second.
"""
from __future__ import annotations

import os
import tempfile

from analyzer.batch.runs import DEFAULT_CHUNK, RunSpec, simulate
from analyzer.bench.registry import register
from analyzer.mechanics.rules import DEFAULT_RULES, PINOCHLE_80


def _run(what: str, n: int, seed: int, jobs: int, rules=None) -> dict:
    chunk = DEFAULT_CHUNK[what]
    if jobs != 1:
        # at least two chunks per worker so every core gets work
        chunk = max(1, min(chunk, -(-n // (2 * (os.cpu_count() or 1)))))
    with tempfile.TemporaryDirectory(prefix="binokel-bench-") as tmp:
        res = simulate(os.path.join(tmp, "run"),
                       RunSpec(what, n, seed, chunk, rules or DEFAULT_RULES), jobs=jobs)
        return {"jobs": jobs if jobs > 0 else os.cpu_count(), "chunks": res.n_chunks,
                "chunk_size": chunk}


def s1(n: int, seed: int) -> dict:
    return _run("melds", n, seed, 1)


def s2(n: int, seed: int) -> dict:
    return _run("melds", n, seed, -1)


def sd(n: int, seed: int) -> dict:
    return _run("deals", n, seed, -1)


def sd1(n: int, seed: int, rules=None) -> dict:
    return _run("deals", n, seed, 1, rules)


def tsd(n: int, seed: int, rules=None) -> dict:
    return _run("deals", n, seed, 1, rules or PINOCHLE_80)


register("S1", s1, deals=1_000_000,
         description="simulate --what melds on ONE core: meld census of n random deals "
                     "(3 hands + forehand/Tapp 18 cards, R5), Parquet parts, manifest")
register("S2", s2, deals=2_000_000,
         description="simulate --what melds on ALL cores (--jobs -1): the same run; "
                     "S2/S1 = scaling from 1 core to all")
register("SD", sd, deals=40_000,
         description="simulate --what deals on ALL cores: rule-of-thumb auction (R3), fast "
                     "exchange (R4), heuristic play (R6, R7), scoring (R8)")
register("SD1", sd1, deals=20_000, variant_aware=True,
         description="simulate --what deals on ONE core: SD's run in this process (rate per "
                     "CPU-second); compare TSD")
register("TSD", tsd, deals=10_000, teams=True,
         description="team games simulate --what deals on ONE core: four rule-of-thumb bidders "
                     "(V1 duels or V6.2), exchange and contract (Dabb games), team-policy play, "
                     "team scores, Parquet parts (analyzer.batch.runs, partners); compare SD1")
