"""``binokel fit-opponents``: refit the ``advisor`` opponent model to the advisor's output (R3)."""
from __future__ import annotations

from pathlib import Path

import click

from analyzer.analyses.fit_opponents import (DEFAULT_FIT_HANDS, DEFAULT_FIT_SAMPLES,
                                             DEFAULT_HOLDOUT_HANDS, FIT_MODULE, MAX_FIT_HANDS,
                                             check_fittable, fit_advisor_model, write_fit_module)
from analyzer.analyses.opponents import FEATURES
from analyzer.errors import BinokelError
from .common import BadInput, echo_json, example_epilog, jobs_option, rules_option
from .main import cli


@cli.command(
    "fit-opponents",
    epilog=example_epilog(
        "binokel fit-opponents                      # refit and rewrite the shipped model",
        "binokel fit-opponents --rules binokel-40   # the same for one variant",
        "binokel fit-opponents --hands 300 --holdout 50 --out /tmp/fit.py --json",
    ),
)
@click.option("--hands", default=DEFAULT_FIT_HANDS, show_default=True,
              type=click.IntRange(20, MAX_FIT_HANDS), help="Random hands the advisor is asked about.")
@click.option("--samples", default=DEFAULT_FIT_SAMPLES, show_default=True,
              type=click.IntRange(1, 100_000),
              help="The advisor's sampled deals per hand (200 = the tournament's advisor agent).")
@click.option("--seed", default=0, show_default=True, type=click.IntRange(min=0), help="Random seed.")
@click.option("--holdout", default=DEFAULT_HOLDOUT_HANDS, show_default=True,
              type=click.IntRange(0, MAX_FIT_HANDS),
              help="Fresh hands to measure the fit on (MAE of the model's maximum bid "
                   "against the advisor's); 0 = none.")
@rules_option
@jobs_option()
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Module to write (default: the package's analyzer/analyses/advisor_fit.py).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def fit_opponents_command(hands, samples, seed, holdout, rules, jobs, out, as_json):
    """Fit the fast model of the advisor's maximum bid used by --opponents advisor.

    Asks the advisor (as the tournament's advisor agent: --samples deals per decision,
    objective relative) for its maximum on --hands random hands at each seat's first call,
    fits an interval-censored logistic regression on hand features, and stores the
    coefficients for the rules' name (--rules: any three-player variant; hands dealt from
    its deck, its opening bid). Rerun it whenever the advisor changes.
    """
    try:
        check_fittable(rules)
    except BinokelError as exc:
        raise BadInput(f"--rules: {exc}") from None
    target = Path(out) if out is not None else FIT_MODULE
    if target.exists() and target.is_dir():
        raise BadInput(f"--out: {target} is a folder, give a file name")
    if not target.parent.is_dir():
        raise BadInput(f"--out: folder {target.parent} does not exist")
    bar = None
    progress = None
    if not as_json:
        from rich.console import Console
        from rich.progress import Progress

        bar = Progress(transient=True, console=Console(stderr=True))
        task = bar.add_task("hands", total=hands)
        progress = lambda k: bar.update(task, advance=k)  # noqa: E731
        bar.start()
    try:
        fit = fit_advisor_model(hands, samples, seed, rules, jobs, progress, holdout)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    finally:
        if bar is not None:
            bar.stop()
    fits = {}
    if out is None:
        from analyzer.analyses.advisor_fit import FITS

        fits = dict(FITS)
    fits[rules.name] = fit
    try:
        path = write_fit_module(fits, target)
    except OSError as exc:
        raise BadInput(f"--out: cannot write {target}: {exc.strerror or exc}") from None
    if as_json:
        echo_json(dict(fit, path=str(path)))
        return
    click.echo(f"advisor model for {rules.name}: {hands} hands x {samples} samples, seed {seed} "
               f"-> {path}")
    for name, c, se in zip(FEATURES, fit["coef"], fit["coef_se"]):
        click.echo(f"  {name:<16} {c:+9.3f} ± {se:.3f}")
    click.echo(f"  noise scale      {fit['scale']:9.2f} ± {fit['scale_se']:.2f}   "
               f"(passes: {100 * fit['pass_share']:.0f}% of hands)")
    if holdout:
        click.echo(f"  held out: {fit['holdout_hands']} fresh hands, MAE of the maximum bid "
                   f"{fit['holdout_mae']:.1f} ± {fit['holdout_mae_se']:.1f}, bid/pass agree "
                   f"{100 * fit['holdout_pass_agree']:.0f}%")
