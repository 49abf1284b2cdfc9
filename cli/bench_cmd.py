"""``binokel bench``: throughput of the registered workloads (analyzer.bench.registry)."""
from __future__ import annotations

import click

from analyzer.bench.registry import (cards_per_deal, machine_info, refusal, run_workload, runs_on,
                                     workloads)
from analyzer.bounds import BENCH_DEALS, BENCH_REPEATS, SEED

from .common import BadInput, bounded, echo_json, example_epilog, rules_option_with_stock
from .main import cli
from .progress import Bar, quiet_option


def _rate(x: float) -> str:
    if x >= 1e6:
        return f"{x / 1e6:.2f} M/s"
    if x >= 1e3:
        return f"{x / 1e3:.1f} k/s"
    if x >= 10:
        return f"{x:.1f} /s"
    return f"{x:.3g} /s"      # slow workloads (a PIMC deal: ~0.1 /s) keep three digits


def _num(x: float) -> str:
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3f}"


@cli.command(
    "bench",
    epilog=example_epilog(
        "binokel bench",
        "binokel bench --workload W1 --deals 5000000 --repeats 7 --json",
        "binokel bench --list",
        "binokel bench --rules binokel-2 --workload B2H --workload B2PF",
    ),
)
@click.option("--workload", "-w", "names", multiple=True,
              help="Workload to run (repeatable); default: all registered.")
@click.option("--deals", type=bounded(BENCH_DEALS), default=None,
              help="Deals per timed run (default: the workload's own, about 0.5-1 s).")
@click.option("--repeats", type=bounded(BENCH_REPEATS), default=5, show_default=True,
              help="Timed runs after the warm-up; the median is reported.")
@click.option("--baseline-deals", type=bounded(BENCH_DEALS), default=None,
              help="Deals per baseline run (default: each baseline's own, fewer).")
@click.option("--no-baseline", is_flag=True, help="Skip the plain Python/NumPy baselines.")
@click.option("--seed", type=bounded(SEED), default=0, show_default=True, help="Random seed.")
@click.option("--list", "list_only", is_flag=True, help="List the workloads and exit.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@quiet_option
@rules_option_with_stock
def bench_command(names, deals, repeats, baseline_deals, no_baseline, seed, list_only, as_json,
                  quiet, rules):
    """Measure deals per second (per core for W1), median of several runs after a warm-up.

    W1 (meld census): deal a uniformly random 15/15/15/3 split of the 48 cards, evaluate
    the meld totals of all three hands for all four trumps (12 values), accumulate them.
    Each workload's plain Python/NumPy baseline runs in the same session (fewer deals)
    and the speed-up is printed.  Other workloads register themselves in
    analyzer/bench/*.py; the two-hand game's (--rules binokel-2, V7) are B2R, B2H, B2E12,
    B2E8, B2P and B2PF (analyzer/bench/stock.py).
    """
    wls = workloads()
    if list_only:
        if as_json:
            echo_json({name: wl.description for name, wl in wls.items()})
        else:
            for name, wl in wls.items():
                click.echo(f"{name}: {wl.description}")
        return
    for name in names:
        if name not in wls:
            raise BadInput(f"unknown workload {name!r}: choose one of {', '.join(wls)}")
    selected = list(dict.fromkeys(names)) or [n for n, w in wls.items() if runs_on(w, rules)]
    for name in selected:
        why = refusal(name, rules)
        if why:
            raise BadInput(why)
    results = []
    with Bar("workloads", len(selected), quiet=quiet or as_json) as bar:
        for name in selected:
            results.append(run_workload(name, deals=deals, repeats=repeats, seed=seed,
                                        baseline=not no_baseline, baseline_deals=baseline_deals,
                                        rules=rules))
            bar.advance()
    info = machine_info()
    if as_json:
        echo_json({"machine": info, "results": results})
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"binokel bench ({rules.name}, {cards_per_deal(rules)} cards a deal): "
                        f"{info['cpu']}, {info['cores']} cores",
                  title_justify="left")
    for col in ("workload", "cores", "deals/s (median)", "runs min-max", "per CPU-s",
                "cards/CPU-s", "baseline", "baseline deals/s", "speed-up"):
        table.add_column(col, justify="left" if col in ("workload", "baseline") else "right",
                         no_wrap=True)
    for r in results:
        bases = r["baselines"] or [None]
        for i, b in enumerate(bases):
            first = i == 0
            table.add_row(
                r["workload"] if first else "",
                ("all" if r["cores"] is None else str(r["cores"])) if first else "",
                _rate(r["deals_per_s"]) if first else "",
                f"{_rate(min(r['runs']))}-{_rate(max(r['runs']))}" if first else "",
                (_rate(r["cpu_deals_per_s"]) if r["cpu_deals_per_s"] else "-") if first else "",
                (_rate(r["cpu_deals_per_s"] * r["cards_per_deal"]) if r["cpu_deals_per_s"]
                 else "-") if first else "",
                b["name"] if b else "-",
                _rate(b["deals_per_s"]) if b else "-",
                f"{b['speedup']:,.0f}x" if b else "-",
            )
    Console(width=140, soft_wrap=True).print(table)
    for r in results:
        base = "; ".join(f"{b['name']} baseline: {b['deals']:,} deals" for b in r["baselines"])
        click.echo(f"{r['workload']}: {r['description']}.  {r['repeats']} runs of "
                   f"{r['deals']:,} deals after a warm-up{'; ' + base if base else ''}.  "
                   f"Load average {r['loadavg'][0]:.2f} before, {r['loadavg'][1]:.2f} after "
                   "(per CPU-s = deals per CPU-second of this process, robust to other jobs).")
        pooled = r.get("pooled") or {}
        if pooled:
            parts = []
            for key, d in pooled.items():
                lo, hi = d["median_ci95"]
                parts.append(f"{key} median {_num(d['median'])} (95% CI {_num(lo)}-{_num(hi)}), "
                             f"p90 {_num(d['p90'])}, mean {_num(d['mean'])}")
            n = next(iter(pooled.values()))["n"]
            click.echo(f"{r['workload']} per {r['unit'].rstrip('s')}, pooled over all {n:,} of "
                       f"the {r['repeats']} runs: " + "; ".join(parts) + ".")
