"""Benchmark workloads for ``binokel bench``: throughput, measured honestly.

Each workload is a function ``fn(n, seed)`` that does ``n`` units of work (deals), on
one core unless registered with ``cores=None`` (all cores), and may return a small dict of extra figures (JSON-able, e.g. a mean used as a
sanity check).  :func:`run_workload` calls it once as a warm-up (numba compiles or loads
its cache), then ``repeats`` times, each timed with ``time.perf_counter`` (wall) and
``time.process_time`` (CPU of this process), and reports the median rate.  A workload may
carry baselines (the same work in plain Python / NumPy), run with fewer units in the
same session; the speed-up is median rate / baseline rate.  Speed is only reported,
never asserted in tests.

Adding a workload (W2 random playout, heuristic play, simulate scaling...)
---------------------------------------------------------------------------
Create a module ``analyzer/bench/<topic>.py``; it is imported automatically by
:func:`workloads` (like ``cli/*_cmd.py``).  In it, define the function and register it::

    from analyzer.bench.registry import register

    def w2(n: int, seed: int) -> dict:
        ...  # n deals on one core, randomness from analyzer.mechanics.rng.chunk_state(seed, 0)
        return {"mean_points": ...}

    register("W2", w2, description="random playout: deal, play 15 tricks ...",
             deals=1_000_000, baselines={"python": (w2_python, 2_000)})

A workload that uses several cores passes ``cores=None`` (or its count) to
``register``: its rate per CPU-second of this process would be meaningless and is not
reported.  ``register`` raises on a duplicate name, so two modules cannot silently
shadow each other.  Keep the function's own set-up (tables, arrays) small or cached: the timed
call includes it.

W1, the meld census (issue 2), defined so other implementations can be compared: deal
a uniformly random 15/15/15/3 split of the 48 cards (R2), evaluate the meld totals
(R5) of the three hands for all four trumps (12 values), accumulate them.
"""
from __future__ import annotations

import importlib
import os
import pkgutil
import platform
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Callable, Mapping

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.cards import N_CARDS, N_RANKS, N_SUITS, N_TYPES
from analyzer.errors import BinokelError
from analyzer.mechanics.melds import meld_all_trumps_fast, meld_tables
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet, from_flat
from analyzer.mechanics.rng import word_bits  # noqa: E402
from analyzer.mechanics.sampling import new_deck, physical_deck  # noqa: E402
from analyzer.mechanics.sampling import (DEAL_BITS, DEAL_BOUNDS, DEAL_LIMIT, DEAL_STEPS, mask_of_cards,
                       shuffle_prefix_bits)


@dataclass(frozen=True)
class Workload:
    """A registered benchmark workload (see the module docstring)."""

    name: str
    fn: Callable[[int, int], "dict | None"]
    description: str
    deals: int = 1_000_000
    baselines: Mapping[str, tuple[Callable[[int, int], "dict | None"], int]] = field(
        default_factory=dict)   # name -> (fn, units per run)
    unit: str = "deals"
    cores: int | None = 1   # cores the workload uses; None = all (no per-CPU figure)
    variant_aware: bool = False   # fn (and its baselines) take ``rules=`` (binokel bench --rules)
    teams: bool = False           # a team-game workload: runs kreuz-48, kreuz-40, pinochle-80 only
    table_fn: Callable | None = None   # the same workload for a table the fn's kernel does not play
    stock: bool = False           # a stock-game workload (V7): runs binokel-2 only, fn takes rules=


_REGISTRY: dict[str, Workload] = {}
_DISCOVERED = False


def register(name: str, fn: Callable[[int, int], "dict | None"], *, description: str,
             deals: int = 1_000_000, baselines: Mapping[str, Callable] | Callable | None = None,
             baseline_deals: int = 10_000, unit: str = "deals",
             cores: int | None = 1, variant_aware: bool = False,
             teams: bool = False, stock: bool = False) -> Workload:
    """Register a workload ``fn(n, seed)`` under ``name`` (unique).

    Parameters
    ----------
    name : str
        Short name used by ``binokel bench --workload``, e.g. ``"W2"``.
    fn : callable
        ``fn(n, seed)`` does ``n`` units of work on one core; may return a dict of
        extra JSON-able figures.
    description : str
        One sentence defining the workload exactly.
    deals : int
        Default units per timed run (aim for about half a second).
    baselines : mapping name -> callable or (callable, units), or one callable, optional
        The same workload in plain Python / NumPy, same calling convention; a slow one
        runs fewer units (rates are per unit, so they compare directly).
    baseline_deals : int
        Units per baseline run where a baseline gives none.
    cores : int or None
        Cores the workload uses (default 1; None = all).  The rate per CPU-second is
        reported only for single-core workloads (it counts this process's CPU time; a
        workload whose extra figures say ``"jobs": k`` with k > 1 counts as parallel too).
    stock : bool
        A workload of a game with a stock (V7): it runs only where the RuleSet has a stock
        part, and ``fn(n, seed, rules=...)`` gets that game's nested RuleSet.
    """
    if name in _REGISTRY:
        raise ValueError(f"benchmark workload {name!r} is already registered")
    if callable(baselines):
        baselines = {"baseline": baselines}
    base = {}
    for bname, spec in (baselines or {}).items():
        bfn, bn = spec if isinstance(spec, tuple) else (spec, baseline_deals)
        base[bname] = (bfn, int(bn))
    wl = Workload(name, fn, description, int(deals), base, unit, cores,
                  variant_aware or teams or stock, teams, None, stock)
    _REGISTRY[name] = wl
    return wl


def register_table_variant(name: str, fn: Callable) -> None:
    """Give workload ``name`` its run for the tables its own kernel does not play (four
    seats, partners, k copies: the team games), so ``binokel bench -w W2 --rules
    kreuz-48`` runs the same workload on that table (issue 24: W1, W2, W2H for every
    game).  ``fn(n, seed, rules=...)``; it runs where :func:`plays_specialised` is False."""
    wl = _REGISTRY[name]
    _REGISTRY[name] = Workload(wl.name, wl.fn, wl.description, wl.deals, wl.baselines, wl.unit,
                               wl.cores, True, wl.teams, fn)


def has_stock(rules) -> bool:
    """True for a game with a stock (V7; its nested RuleSet has a stock part)."""
    stock = getattr(rules, "stock", None)
    return bool(stock is not None and stock.size)


def cards_per_deal(rules) -> int:
    """Cards dealt per deal: the deck of ``rules`` (a flat or a nested RuleSet)."""
    n = getattr(rules, "n_cards", None)
    return int(n if n is not None else rules.deck.n_cards)


def runs_on(wl: Workload, rules) -> bool:
    """Whether workload ``wl`` runs under ``rules`` (None: binokel-48): a stock workload
    only on a game with a stock (V7), every other one never there."""
    if has_stock(rules) or wl.stock:
        return wl.stock and has_stock(rules)
    if rules is None or rules.name == DEFAULT_RULES.name:
        return not wl.teams
    if wl.table_fn is not None:
        return True
    return wl.variant_aware and wl.teams == (not plays_specialised(rules))


def refusal(name: str, rules) -> str:
    """The one-line reason workload ``name`` does not run under ``rules``; "" when it does.
    Names the workloads that do."""
    wls = workloads()
    if runs_on(wls[name], rules):
        return ""
    fit = ", ".join(k for k, w in wls.items() if runs_on(w, rules))
    if wls[name].stock or has_stock(rules):
        why = (" (a workload of a game with a stock, V7)" if wls[name].stock
               else " (a game with a stock, V7)")
    else:
        why = " (binokel-48 only)" if not wls[name].variant_aware else ""
    return f"workload {name} does not run {(rules or DEFAULT_RULES).name}{why}; use {fit}"


def plays_specialised(rules) -> bool:
    """True where the three-player kernels (three hands in play, two copies per type: lo/hi
    planes) play ``rules``' table; the W workloads' own functions need it."""
    kern = from_flat(rules).kernel
    return kern.n_play == 3 and kern.k == 2


def workloads() -> dict[str, Workload]:
    """All registered workloads, in registration order (imports ``analyzer/bench/*.py``)."""
    global _DISCOVERED
    if not _DISCOVERED:
        _DISCOVERED = True
        from analyzer import bench as bench_pkg
        for info in sorted(pkgutil.iter_modules(bench_pkg.__path__), key=lambda m: m.name):
            if info.name != "registry":
                importlib.import_module(f"{bench_pkg.__name__}.{info.name}")
    return dict(_REGISTRY)


def _time_call(fn, n: int, seed: int) -> tuple[float, float, dict | None]:
    c0 = time.process_time()
    t0 = time.perf_counter()
    extra = fn(n, seed)
    wall = time.perf_counter() - t0
    cpu = time.process_time() - c0
    return wall, cpu, extra


def _median_ci95(xs: list) -> list:
    """Distribution-free 95% confidence interval of the median: the order statistics
    at ranks floor((n - 1.96 sqrt(n)) / 2) and ceil(1 + (n + 1.96 sqrt(n)) / 2), counted
    from 1 (normal approximation of the binomial; clipped to the sample)."""
    import math

    n = len(xs)
    ys = sorted(xs)
    z = 1.96 * math.sqrt(n)
    lo = max(0, math.floor((n - z) / 2) - 1)
    hi = min(n - 1, math.ceil(1 + (n + z) / 2) - 1)
    return [ys[lo], ys[hi]]


def pool_per_unit(parts: list) -> dict:
    """Pool per-unit samples of several timed runs (each a dict name -> list, one value
    per unit) into one distribution per name: ``n``, ``median``, ``median_ci95``,
    ``p90``, ``mean`` and each run's own ``run_medians``.

    Why pooled, and why each unit once: the repeats draw *different* units (seed + r),
    and for a per-unit figure with a long tail (a solver's time per position) the
    run-to-run spread comes mostly from which units were drawn, not from the clock.
    Pooling the runs' distinct units shrinks that sampling error (the CI shows what is
    left); a per-unit minimum over repeats of the *same* units would only remove the
    clock's noise (a few percent) and keep one run's sampling error.
    """
    out: dict = {}
    for key in parts[0]:
        runs = [list(map(float, p[key])) for p in parts]
        xs = [x for r in runs for x in r]
        if not xs:
            continue
        q = statistics.quantiles(xs, n=10, method="inclusive") if len(xs) >= 2 else [xs[0]] * 9
        out[key] = {"n": len(xs), "median": statistics.median(xs), "median_ci95": _median_ci95(xs),
                    "p90": q[8], "mean": statistics.mean(xs),
                    "run_medians": [statistics.median(r) for r in runs if r]}
    return out


def run_workload(name: str, deals: int | None = None, repeats: int = 5, seed: int = 0,
                 baseline: bool = True, baseline_deals: int | None = None,
                 rules: RuleSet | None = None) -> dict:
    """Time one workload: warm-up, then ``repeats`` runs; the median rate per core.

    Returns
    -------
    dict
        ``workload``, ``description``, ``deals`` (per run), ``repeats``,
        ``deals_per_s`` (median of the wall-clock rates), ``runs`` (each run's rate),
        ``cores`` (None = all), ``cpu_deals_per_s`` (single-core workloads: median rate
        per CPU-second of this process, robust when other jobs share the machine;
        else None), ``extra`` (the workload's own figures from the
        last run), ``pooled`` (a workload whose extra carries ``per_unit``, a dict of
        per-unit samples such as each position's CPU ms: their distribution over all
        units of all runs, see :func:`pool_per_unit`; else None), ``baselines`` (name, deals, deals_per_s, cpu_deals_per_s, speedup =
        median wall rate / baseline wall rate, cpu_speedup = the same per CPU-second)
        and ``loadavg``
        (1-minute load before and after); ``rules`` (the variant's name),
        ``cards_per_deal`` and ``cards_per_s`` (dealt cards per second: the figure that
        compares variants with different decks, issue 10).

    ``rules``: run a variant-aware workload (W1, W2, W2H) under that RuleSet.
    """
    wls = workloads()
    if name not in wls:
        raise BinokelError(f"unknown workload {name!r}: choose one of {', '.join(wls)}")
    if repeats < 1:
        raise BinokelError("--repeats must be at least 1")
    why = refusal(name, rules)
    if why:
        raise BinokelError(why)
    wl = wls[name]
    if (wl.table_fn is not None and rules is not None and not has_stock(rules)
            and not plays_specialised(rules)):
        # the workload on this table: same definition, the table's kernel (no baselines:
        # they are written for three hands)
        wl = Workload(wl.name, wl.table_fn, wl.description, wl.deals, {}, wl.unit, wl.cores,
                      True, True)

    if rules is not None and rules.name != DEFAULT_RULES.name:
        import functools
        wl = Workload(wl.name, functools.partial(wl.fn, rules=rules), wl.description, wl.deals,
                      {k: (functools.partial(f, rules=rules), bn)
                       for k, (f, bn) in wl.baselines.items()},
                      wl.unit, wl.cores, True, wl.teams, None, wl.stock)
    rules = rules or DEFAULT_RULES
    n = int(deals if deals is not None else wl.deals)
    if n < 1:
        raise BinokelError("--deals must be at least 1")
    load_before = os.getloadavg()[0]
    _time_call(wl.fn, max(1, min(n, 10_000)), seed + 10_000)   # warm-up: compile / load
    rates, cpu_rates, extra, per_unit = [], [], None, []
    for r in range(repeats):
        wall, cpu, extra = _time_call(wl.fn, n, seed + r)
        rates.append(n / wall)
        cpu_rates.append(n / cpu if cpu > 0 else float("nan"))
        if isinstance(extra, dict) and "per_unit" in extra:
            extra = dict(extra)
            per_unit.append(extra.pop("per_unit"))
    median = statistics.median(rates)
    jobs = (extra or {}).get("jobs", 1) if isinstance(extra, dict) else 1
    single = wl.cores == 1 and (not isinstance(jobs, int) or jobs == 1)
    base_out = []
    if baseline:
        for bname, (bfn, bn) in wl.baselines.items():
            bn = int(baseline_deals if baseline_deals is not None else bn)
            if bn < 1:
                raise BinokelError("--baseline-deals must be at least 1")
            _time_call(bfn, max(1, min(bn, 1_000)), seed + 10_000)   # warm-up
            wall, cpu, bextra = _time_call(bfn, bn, seed)
            brate = bn / wall
            bcpu = bn / cpu if cpu > 0 else float("nan")
            cpu_median = statistics.median(cpu_rates)
            base_out.append({"name": bname, "deals": bn, "deals_per_s": brate,
                             "cpu_deals_per_s": bcpu, "speedup": median / brate,
                             "cpu_speedup": cpu_median / bcpu, "extra": bextra})
    return {
        "workload": wl.name,
        "description": wl.description,
        "unit": wl.unit,
        "deals": n,
        "repeats": repeats,
        "deals_per_s": median,
        "runs": rates,
        "cores": wl.cores if single or wl.cores != 1 else jobs,
        "cpu_deals_per_s": statistics.median(cpu_rates) if single else None,
        "extra": extra,
        "pooled": pool_per_unit(per_unit) if per_unit else None,
        "baselines": base_out,
        "loadavg": [load_before, os.getloadavg()[0]],
        "rules": rules.name,
        "cards_per_deal": cards_per_deal(rules),
        "cards_per_s": median * cards_per_deal(rules),
    }


def machine_info() -> dict:
    """CPU model, core count and software versions, for the benchmark report."""
    import numba

    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": model, "cores": os.cpu_count(), "python": platform.python_version(),
            "numpy": np.__version__, "numba": numba.__version__}


# --------------------------------------------------------------------------- W1


@njit
def w1_kernel(state, n, mt, acc):
    """W1 on one core: ``n`` random deals, meld totals of the 3 hands x 4 trumps.

    Adds each total to ``acc[seat, trump]`` (int64[3, 4]).  Dealing: the body of
    :func:`analyzer.mechanics.sampling.deal_random` written in place (R2; see its performance
    note); melds: :func:`analyzer.mechanics.melds.meld_all_trumps_fast` (R5).
    """
    deck = np.empty(N_CARDS, dtype=np.uint8)
    for i in range(N_CARDS):
        deck[i] = i
    masks = np.zeros(4, dtype=np.int64)
    row = np.zeros(N_SUITS, dtype=np.int64)
    b0, b1, b2, b3, b4 = DEAL_BOUNDS
    for _ in range(n):
        # = deal_random(state, deck, masks)
        shuffle_prefix_bits(state, deck, DEAL_STEPS, np.uint64(DEAL_BITS), np.uint64(DEAL_LIMIT))
        masks[3] = mask_of_cards(deck, b0, b1)
        masks[0] = mask_of_cards(deck, b1, b2)
        masks[1] = mask_of_cards(deck, b2, b3)
        masks[2] = mask_of_cards(deck, b3, b4)
        for h in range(3):
            meld_all_trumps_fast(masks[h], mt, row)
            for s in range(N_SUITS):
                acc[h, s] += row[s]


@njit
def w1_kernel_rules(state, n, mt, kr, acc):
    """W1 for any variant's deck: :func:`w1_kernel` dealing with
    :func:`analyzer.mechanics.sampling.deal_rules` (sizes from the rules, V2.1, V5.1)."""
    deck = physical_deck(kr)
    masks = np.zeros(4, dtype=np.int64)
    row = np.zeros(N_SUITS, dtype=np.int64)
    # deal_rules written in place with its sizes hoisted out of the loop (as w1_kernel
    # does for binokel-48: numba does not inline the call; same draws, tested)
    nc = deck.shape[0]
    hs = kr.hand_size
    tp = kr.tapp_size
    bits = np.uint64(word_bits(nc))
    limit = np.uint64(1) << (bits - np.uint64(10))
    steps = nc - hs
    b1, b2, b3 = tp, tp + hs, tp + 2 * hs
    for _ in range(n):
        shuffle_prefix_bits(state, deck, steps, bits, limit)
        masks[3] = mask_of_cards(deck, 0, b1)
        masks[0] = mask_of_cards(deck, b1, b2)
        masks[1] = mask_of_cards(deck, b2, b3)
        masks[2] = mask_of_cards(deck, b3, nc)
        for h in range(3):
            meld_all_trumps_fast(masks[h], mt, row)
            for s in range(N_SUITS):
                acc[h, s] += row[s]


def w1(n: int, seed: int = 0, rules: RuleSet = DEFAULT_RULES) -> dict:
    """Run W1 for ``n`` deals; returns the mean of the 12 meld totals (sanity figure).

    binokel-48 runs the constant-folded deal of :func:`w1_kernel`; other variants the
    rules-driven :func:`w1_kernel_rules` (the same draws for the 48-card deck, tested).
    """
    acc = np.zeros((3, N_SUITS), dtype=np.int64)
    if rules == DEFAULT_RULES:
        w1_kernel(chunk_state(seed, 0), int(n), meld_tables(rules), acc)
    else:
        w1_kernel_rules(chunk_state(seed, 0), int(n), meld_tables(rules), rules.kernel, acc)
    return {"mean_meld": float(acc.sum()) / (12 * n), "sum": acc.tolist()}


def numpy_meld_totals(counts: np.ndarray, rules: RuleSet = DEFAULT_RULES) -> np.ndarray:
    """R5 meld totals, vectorised in NumPy: int counts (n, 24) -> int64 (n, 4 trumps).

    The W1 baseline's meld step, written from R5 with array operations on the RuleSet's
    values (no kernel tables); tests check it against the kernel.
    """
    c = np.asarray(counts, dtype=np.int64).reshape(-1, N_SUITS, N_RANKS)   # [hand, suit, rank]
    a, t, k, q, j, nine = (c[:, :, r] for r in range(N_RANKS))
    fam = np.minimum(np.minimum(np.minimum(a, t), np.minimum(k, q)), j)
    pairs = np.where(fam == 1, np.minimum(k, q) - 1, np.where(fam == 0, np.minimum(k, q), 0))

    def f_value(i):   # i = 0 plain, 1 trump
        return (np.where(fam == 2, rules.double_family[i], 0)
                + np.where(fam == 1, rules.family[i], 0) + pairs * rules.pair[i])

    plain, trump = f_value(0), f_value(1)
    common = plain.sum(axis=1)
    per_rank_min = c.min(axis=1)                                   # [hand, rank]
    fours = np.asarray(rules.fours, dtype=np.int64)
    eights = np.asarray(rules.eights, dtype=np.int64)
    scored = fours != 0
    common = common + ((per_rank_min == 1) * fours * scored).sum(axis=1)
    common = common + ((per_rank_min == 2) * eights * scored).sum(axis=1)
    b = np.minimum(*(c[:, s, r] for s, r in rules.binokel_cards))
    common = common + np.where(b == 2, rules.binokel[1], np.where(b == 1, rules.binokel[0], 0))
    return common[:, None] - plain + trump + nine * rules.trump_nine


def w1_numpy(n: int, seed: int = 0, rules: RuleSet = DEFAULT_RULES, batch: int = 20_000) -> dict:
    """W1 in plain NumPy (the baseline): batches of shuffled decks, vectorised melds.

    Each batch: ``Generator.permuted`` shuffles ``batch`` decks (exactly uniform), one
    ``bincount`` turns the three hands into counts, :func:`numpy_meld_totals` melds them.
    """
    rng = np.random.default_rng(seed)
    hand = rules.hand_size
    total = np.zeros((3, N_SUITS), dtype=np.int64)
    done = 0
    while done < n:
        b = min(batch, n - done)
        phys = new_deck(rules)
        decks = rng.permuted(np.broadcast_to(phys.astype(np.int64), (b, phys.size)), axis=1)
        types = decks[:, :3 * hand] // 2
        rows = np.repeat(np.arange(3 * b), hand)
        counts = np.bincount(rows * N_TYPES + types.reshape(-1), minlength=3 * b * N_TYPES)
        totals = numpy_meld_totals(counts.reshape(3 * b, N_TYPES), rules)
        total += totals.reshape(b, 3, N_SUITS).sum(axis=0)
        done += b
    return {"mean_meld": float(total.sum()) / (12 * n)}


def python_meld_totals(counts, rules: RuleSet = DEFAULT_RULES) -> list[int]:
    """R5 meld totals of one hand in plain Python: 24 counts -> [C, S, H, D] totals."""
    common = 0
    plain = [0] * N_SUITS
    trump = [0] * N_SUITS
    for s in range(N_SUITS):
        a, t, k, q, j = counts[s * N_RANKS:s * N_RANKS + 5]
        f = min(a, t, k, q, j)
        for i, out in ((0, plain), (1, trump)):
            if f == 2:
                out[s] = rules.double_family[i]
            elif f == 1:
                out[s] = rules.family[i] + (min(k, q) - 1) * rules.pair[i]
            else:
                out[s] = min(k, q) * rules.pair[i]
        common += plain[s]
    for r in range(N_RANKS):
        if rules.fours[r]:
            m = min(counts[s * N_RANKS + r] for s in range(N_SUITS))
            common += rules.eights[r] if m == 2 else rules.fours[r] if m == 1 else 0
    b = min(counts[s * N_RANKS + r] for s, r in rules.binokel_cards)
    common += rules.binokel[1] if b == 2 else rules.binokel[0] if b == 1 else 0
    return [common - plain[s] + trump[s] + counts[s * N_RANKS + 5] * rules.trump_nine
            for s in range(N_SUITS)]


def w1_python(n: int, seed: int = 0, rules: RuleSet = DEFAULT_RULES) -> dict:
    """W1 in plain Python (``random.shuffle``, per-hand loops): the slowest baseline."""
    rnd = random.Random(seed)
    deck = [int(c) for c in new_deck(rules)]
    hand = rules.hand_size
    total = 0
    for _ in range(n):
        rnd.shuffle(deck)
        for h in range(3):
            counts = [0] * N_TYPES
            for card in deck[h * hand:(h + 1) * hand]:
                counts[card >> 1] += 1
            total += sum(python_meld_totals(counts, rules))
    return {"mean_meld": total / (12 * n)}


register(
    "W1", w1,
    description=("meld census: deal a uniformly random 15/15/15/3 split of the 48 cards, "
                 "evaluate the meld totals of all three hands for all four trumps "
                 "(12 values), accumulate them"),
    deals=5_000_000,
    baselines={"numpy": (w1_numpy, 500_000), "python": (w1_python, 20_000)},
    variant_aware=True,
)
