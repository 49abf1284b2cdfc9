"""``binokel simulate``: chunked batch runs (meld census or played deals), resumable."""
from __future__ import annotations

import shlex
import time
from pathlib import Path

import click

from analyzer.batch.runs import DEFAULT_CHUNK, WHATS, RunSpec, saved_chunks, simulate
from analyzer.batch.stock_runs import STOCK_CHUNK
from analyzer.bounds import CHUNK_SIZE, SEED
from analyzer.errors import BinokelError

from .common import (BadInput, Interrupted, bounded, example_epilog, has_stock, jobs_option,
                     rules_option_with_stock)
from .main import cli
from .progress import quiet_option, speaks


def _count(text: str) -> int:
    try:
        return int(str(text).replace("_", "").replace(",", ""))
    except ValueError:
        raise BadInput(f"-n: not a whole number: {text!r}") from None


def _canonical(spec: RunSpec, out: str) -> str:
    """The command that recreates this run (recorded in its manifest for provenance)."""
    return (f"binokel simulate -n {spec.n} --out {shlex.quote(str(out))} --seed {spec.seed} "
            f"--what {spec.what} --chunk-size {spec.chunk_size} --rules {spec.rules.name}")


def _write_records(path: str, rules, seed: int, n: int) -> int:
    """``n`` sample deal records: the deal of ``binokel play --seed seed+i`` with the
    soloist rotating over the seats in play and trump over the suits (R2-R8); in a game
    with a stock (V7) the deal ``binokel play --rules NAME --seed seed+i --policy
    heuristic`` plays (the heuristic at both seats: draws, melds, the endgame)."""
    from analyzer.mechanics.record import format_records, in_play_seats
    from analyzer.search.record_play import play_record
    from analyzer.mechanics.ruleset import get_game

    game = get_game(rules.name)
    if has_stock(game):
        from analyzer.search.stock_registry import record_deal

        deals = [record_deal(game, seed + i, ("heuristic", "heuristic"),
                             source=f"binokel play --rules {game.name} --seed {seed + i} "
                                    "--policy heuristic")
                 for i in range(n)]
    else:
        seats = in_play_seats(game)
        deals = [play_record(rules.name, seed=seed + i, soloist=seats[i % len(seats)],
                             trump=i % 4,
                             source=f"binokel play --rules {rules.name} --seed {seed + i} "
                                    f"--soloist {seats[i % len(seats)]} --trump {'CSHD'[i % 4]}")
                 for i in range(n)]
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(format_records(deals))
    except OSError as exc:
        raise BadInput(f"--records: cannot write {path}: {exc.strerror}") from None
    return n


@cli.command(
    "simulate",
    epilog=example_epilog(
        "binokel simulate -n 10_000_000 --out runs/census --seed 1",
        "binokel simulate -n 1_000_000 --what deals --out runs/deals --jobs 2",
        "binokel simulate -n 1_000_000 --out runs/census40 --rules binokel-40",
        "binokel simulate -n 1_000_000 --out runs/kreuz --rules kreuz-48 --jobs 2   # team game: deals",
        "binokel simulate -n 10_000 --out runs/two --rules binokel-2 --jobs 2   # stock game: deals",
        "binokel simulate -n 10_000_000 --out runs/big --backend dask --scheduler tcp://10.0.0.5:8786",
    ),
)
@click.option("-n", "n_text", default=None, metavar="N",
              help="Number of deals (underscores allowed: 10_000_000). Required.")
@click.option("--out", "out", default=None, type=click.Path(file_okay=False),
              help="Run folder (manifest.json + parts/). Re-running the same command resumes. "
                   "Required.")
@click.option("--seed", default=1, show_default=True, type=bounded(SEED),
              help="Seed of the run; chunk i uses chunk_state(seed, i).")
@click.option("--what", type=click.Choice(WHATS), default=None,
              help="melds: meld census of random deals; deals: bid, exchange and play each deal "
                   "(default melds; deals for the team games, which run deals only).")
@jobs_option(default=-1)
@click.option("--chunk-size", type=bounded(CHUNK_SIZE), default=None,
              help=f"Deals per chunk (default melds {DEFAULT_CHUNK['melds']:,}, "
                   f"deals {DEFAULT_CHUNK['deals']:,}). Part of the run's identity.")
@click.option("--backend", type=click.Choice(["loky", "dask"]), default="loky", show_default=True,
              help="loky: processes on this machine; dask: a Dask cluster (needs --scheduler).")
@click.option("--scheduler", default=None, help="Dask scheduler address, e.g. tcp://host:8786.")
@click.option("--connect-timeout", default=5.0, show_default=True, type=click.FloatRange(min=0.1),
              help="Seconds to wait for the dask scheduler.")
@quiet_option
@click.option("--records", "records", type=click.Path(dir_okay=False), default=None,
              help="Also write sample deal records to FILE (docs/guide/records.md): "
                   "--records-n deals played as `binokel play --seed SEED+i` plays them "
                   "(heuristic play, the soloist and trump rotating; no auction or exchange; "
                   "a game with a stock: the heuristic at both seats, draws and melds, V7), "
                   "not the run's own deals.")
@click.option("--records-n", "records_n", type=click.IntRange(1, 100_000), default=100,
              show_default=True, help="Deals in the --records file (at most -n).")
@rules_option_with_stock
def simulate_command(n_text, out, seed, what, jobs, chunk_size, backend, scheduler,
                     connect_timeout, quiet, rules, records=None, records_n=100):
    """Simulate N random deals in chunks and store per-chunk aggregates as Parquet parts.

    Every chunk's random numbers depend only on (seed, chunk index), so the results do
    not depend on --jobs, the backend or interruptions. Ctrl-C keeps every finished chunk;
    running the same command again skips them. A folder holding a run with other
    parameters is refused. Summarise a run with `binokel report OUT`. The team games
    (--rules kreuz-48, kreuz-40, pinochle-80) simulate played deals: four rule-of-thumb
    bidders, the exchange and contract, team play and team scores. binokel-2 (V7)
    simulates played deals: the heuristic at both seats, melds shown, points per seat
    (chunks of 200 deals by default: a deal takes ~0.1-0.2 s of CPU).
    """
    missing = [opt for opt, v in (("-n DEALS", n_text), ("--out FOLDER", out)) if v is None]
    if missing:
        raise BadInput(f"nothing to simulate: give {' and '.join(missing)} (e.g. binokel "
                       "simulate -n 1_000_000 --out runs/census)")
    team = bool(getattr(rules, "teams", False))
    stock = has_stock(rules)
    what = what or ("deals" if team or stock else "melds")
    n = _count(n_text)
    if n < 1:
        raise BadInput(f"-n must be at least 1, got {n}")
    if backend == "dask" and not scheduler:
        raise BadInput("--backend dask needs --scheduler ADDRESS")
    if scheduler and backend != "dask":
        raise BadInput("--scheduler needs --backend dask")
    default_chunk = STOCK_CHUNK if stock else DEFAULT_CHUNK[what]
    try:
        spec = RunSpec(what=what, n=n, seed=seed, chunk_size=chunk_size or default_chunk,
                       rules=rules)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    t0 = time.perf_counter()
    try:
        res = simulate(out, spec, jobs=jobs, backend=backend, scheduler=scheduler,
                       progress=speaks(quiet), connect_timeout=connect_timeout,
                       note={"command": _canonical(spec, out)})
    except KeyboardInterrupt:
        done = saved_chunks(Path(out))
        raise Interrupted(f"{out}: {done} of {spec.n_chunks} chunks saved; "
                          "run the same command again to resume") from None
    dt = time.perf_counter() - t0
    if records:
        k = _write_records(records, rules, seed, min(n, records_n))
        click.echo(f"{records}: {k:,} sample deal records", err=True)
    for line in res.notes:
        click.echo(f"{out}: {line}", err=True)
    click.echo(f"{out}: {res.n_deals:,} deals in {res.chunks_done} chunks "
               f"({spec.what}, {rules.name}, seed {seed}); {dt:.1f} s this call")
    click.echo(f"next: binokel report {out}")
