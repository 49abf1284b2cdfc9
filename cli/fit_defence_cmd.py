"""``binokel fit-defence``: regenerate the heuristic-lin defence's weights (play.DEFENCE_LIN,
data/fits/defence_lin.json), or heuristic-lin2's (play.DEFENCE_LIN2, defence_lin2.json,
``--features lin2``), by approximate policy iteration (analyzer.analyses.fit_defence)."""
from __future__ import annotations

from pathlib import Path

import click

from analyzer.analyses.fit_defence import (DEFAULT_DEALS, DEFAULT_ITERATIONS, DEFAULT_RIDGE,
                                           DEFAULT_SEED, FEATURE_SETS, MAX_DEALS, MAX_ITERATIONS,
                                           STARTS, WEIGHT_FILES, check_rules, defence_table,
                                           fit_defence, rounded_weights, write_weights)
from analyzer.errors import BinokelError
from analyzer.bounds import SEED

from analyzer.mechanics.rules import DEFAULT_RULES

from .common import BadInput, echo_json, example_epilog, bounded, jobs_option, rules_option
from .main import cli
from .progress import Bar, quiet_option


@cli.command(
    "fit-defence",
    epilog=example_epilog(
        "binokel fit-defence                                  # the shipped DEFENCE_LIN",
        "binokel fit-defence --deals 4000 --seed 7 --iterations 2 --out /tmp/lin.json",
        "binokel fit-defence --deals 300 --iterations 1 --json",
        "binokel fit-defence --features lin2 --start lin --iterations 6   # DEFENCE_LIN2",
        "binokel fit-defence --rules binokel-40 --deals 2000 --out /tmp/lin40.json",
        "binokel fit-defence --rules kreuz-48 --deals 200 --iterations 1   # partners (V1)",
    ),
)
@click.option("--deals", type=click.IntRange(1, MAX_DEALS), default=DEFAULT_DEALS,
              show_default=True, help="Fresh trump deals per iteration (duplicate protocol).")
@click.option("--seed", type=bounded(SEED), default=DEFAULT_SEED, show_default=True,
              help="Seed of the deal stream.")
@click.option("--iterations", type=click.IntRange(1, MAX_ITERATIONS),
              default=DEFAULT_ITERATIONS, show_default=True,
              help="Policy-iteration rounds from the current defence (_defend).")
@click.option("--ridge", type=click.FloatRange(min=0, min_open=True, max=1e9),
              default=DEFAULT_RIDGE, show_default=True, help="Ridge penalty lambda of each fit.")
@click.option("--features", type=click.Choice(list(FEATURE_SETS)), default=None,
              help="Feature set: lin (heuristic-lin, DEFENCE_LIN) or lin2 (heuristic-lin2, "
                   "DEFENCE_LIN2) against a lone soloist; partners at a partners' table (V1) "
                   "[default: lin; partners there].")
@click.option("--start", type=click.Choice(STARTS), default="defend", show_default=True,
              help="Policy 0: the current defence (_defend; the team policy for partners) or "
                   "heuristic-lin's weights.")
@click.option("--holdout", type=click.IntRange(0, MAX_DEALS), default=None,
              help="Fresh deals (after the fit's) on which the fitted defence is compared "
                   "with policy 0, paired: mean difference with SE and 95% CI; 0 = none "
                   "[default: 0; 200 at a partners' table].")
@click.option("--damp", type=click.FloatRange(0, 1, min_open=True), default=1.0,
              show_default=True,
              help="Each round keeps damp x the new fit + (1 - damp) x the previous weights.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the weights as a fit file (the format of data/fits/defence_lin.json) "
                   "to this file; --out data/fits/defence_lin.json replaces the shipped one.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@rules_option
@jobs_option()
@quiet_option
def fit_defence_command(deals, seed, iterations, ridge, features, start, damp, holdout, out,
                        as_json, rules, jobs, quiet):
    """Fit the weights of the heuristic-lin defence (play.DEFENCE_LIN), or with
    --features lin2 those of heuristic-lin2 (play.DEFENCE_LIN2).

    Plays --deals trump deals per iteration with the current defence, labels every legal
    card of every defender decision by a roll-out in the true deal (the soloist's card
    points), fits a ridge regression per decision context and repeats with the new
    weights. Prints the weights (one row per context, 3 decimals) and their largest
    difference to the shipped ones (data/fits/defence_lin.json or defence_lin2.json, read
    by play.py), which are rewritten only when --out names them. The defaults reproduce
    the shipped weights (binokel-48 only).  --rules fits the defence of another game with
    a lone soloist (its deals, duties and melds; the diff is still to the shipped
    binokel-48 weights), or at a partners' table (kreuz-48, kreuz-40, pinochle-80; V1)
    the partners' linear defence against the bidder's side (--features partners, from
    the team policy; labels are the bidding side's trick points; no shipped weights, so
    no diff), with a held-out comparison against the team policy (--holdout).
    """
    if out is not None:
        if out.exists() and out.is_dir():
            raise BadInput(f"--out: {out} is a folder, give a file name")
        if not out.parent.is_dir():
            raise BadInput(f"--out: folder {out.parent} does not exist")
    try:
        features = check_rules(rules, features, start)   # one line before any progress bar
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    if holdout is None:
        holdout = defence_table(rules).holdout
    bar = Bar("deals", deals * iterations, quiet=quiet or as_json)
    try:
        fit = fit_defence(deals, seed, iterations, ridge, rules=rules, progress=bar.advance,
                          features=features, start=start, damp=damp, n_jobs=jobs,
                          holdout=holdout)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    finally:
        bar.close()
    import numpy as np

    from analyzer.mechanics.play import DEFENCE_LIN, DEFENCE_LIN2

    name = WEIGHT_FILES[features][1]
    shipped = {"DEFENCE_LIN": DEFENCE_LIN, "DEFENCE_LIN2": DEFENCE_LIN2}.get(name)
    rows = rounded_weights(fit["weights"])
    diff = None if shipped is None else float(np.abs(np.asarray(rows) - shipped).max())
    command = (f"binokel fit-defence --deals {deals} --seed {seed} --iterations {iterations} "
               f"--ridge {ridge:g} --features {features} --start {start} --damp {damp:g}"
               + ("" if rules.name == DEFAULT_RULES.name else f" --rules {rules.name}")
               + (f" --holdout {holdout}" if holdout else ""))
    if out is not None:
        try:
            write_weights(fit["weights"], out, features, command)
        except OSError as exc:
            raise BadInput(f"--out: cannot write {out}: {exc.strerror or exc}") from None
    if as_json:
        echo_json({**({} if rules.name == DEFAULT_RULES.name else {"rules": rules.name}),
                   "deals": deals, "seed": seed, "iterations": iterations, "ridge": ridge,
                   "features": features, "start": start, "damp": damp,
                   "rows": fit["rows"], "decisions": fit["decisions"],
                   "weights": rows,
                   "max_abs_diff_shipped": diff, "out": str(out) if out else None,
                   **({"holdout": fit["holdout"]} if holdout else {})})
        return
    shipped_note = ("no shipped weights" if diff is None
                    else f"max |diff| to the shipped {name} (3 decimals): {diff:.3f}")
    click.echo(f"# {command}: {sum(fit['rows'])} labelled rows, "
               f"{sum(fit['decisions'])} decisions; {shipped_note}")
    for row in rows:
        click.echo("[" + ", ".join(f"{v:.3f}" for v in row) + "]")
    if holdout:
        h = fit["holdout"]
        lo, hi = h["diff_ci"]
        click.echo(f"# held out: n = {h['n']} deals, {h['label']} per deal: policy 0 "
                   f"{h['start_mean']:.2f}, fitted {h['fit_mean']:.2f}; fitted - policy 0 "
                   f"{h['diff_mean']:+.2f} ± {h['diff_se']:.2f} SE (95% CI {lo:+.2f} .. "
                   f"{hi:+.2f}; below 0: the fitted defence concedes fewer)")
