"""``binokel fit-opponents``: refit the ``advisor`` opponent model to the advisor's output (R3)."""
from __future__ import annotations

from pathlib import Path

import click

from analyzer.analyses.fit_opponents import (DEFAULT_FIT_HANDS, DEFAULT_FIT_SAMPLES,
                                             DEFAULT_HOLDOUT_HANDS, DEFAULT_PARTNER_FIT_HANDS,
                                             DEFAULT_PARTNER_FIT_SAMPLES, DEFAULT_PARTNER_HOLDOUT,
                                             FIT_FILE, MAX_FIT_HANDS, fit_advisor_model,
                                             fit_defaults, write_advisor_fits)
from analyzer.analyses.opponents import ADVISOR_FIT, FEATURES
from analyzer.errors import BinokelError
from analyzer.bounds import SEED
from analyzer.fits import load_fit

from .common import BadInput, echo_json, example_epilog, jobs_option, rules_option, bounded
from .main import cli
from .progress import Bar, quiet_option


@cli.command(
    "fit-opponents",
    epilog=example_epilog(
        "binokel fit-opponents                      # refit and rewrite the shipped model",
        "binokel fit-opponents --rules binokel-40   # the same for one variant",
        "binokel fit-opponents --rules kreuz-48 --hands 600 --samples 100   # a team game",
        "binokel fit-opponents --hands 300 --holdout 50 --out /tmp/fit.py --json",
    ),
)
@click.option("--hands", default=None, type=click.IntRange(20, MAX_FIT_HANDS),
              help=f"Random hands the advisor is asked about [default: {DEFAULT_FIT_HANDS}; "
                   f"team games {DEFAULT_PARTNER_FIT_HANDS}].")
@click.option("--samples", default=None, type=click.IntRange(1, 100_000),
              help=f"The advisor's sampled deals per hand [default: {DEFAULT_FIT_SAMPLES} = the "
                   f"tournament's advisor agent; team games {DEFAULT_PARTNER_FIT_SAMPLES}].")
@click.option("--seed", default=0, show_default=True, type=bounded(SEED), help="Random seed.")
@click.option("--holdout", default=None, type=click.IntRange(0, MAX_FIT_HANDS),
              help=f"Fresh hands to measure the fit on (MAE of the model's maximum bid against "
                   f"the advisor's); 0 = none [default: {DEFAULT_HOLDOUT_HANDS}; team games "
                   f"{DEFAULT_PARTNER_HOLDOUT}].")
@rules_option
@jobs_option()
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Fit file to write (default: the package's data/fits/advisor.json).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@quiet_option
def fit_opponents_command(hands, samples, seed, holdout, rules, jobs, out, as_json, quiet):
    """Fit the fast model of the advisor's maximum bid used by --opponents advisor.

    Asks the advisor (as the tournament's advisor agent: --samples deals per decision,
    objective relative) for its maximum on --hands random hands at each seat's first call,
    fits an interval-censored logistic regression on hand features, and stores the
    coefficients for the rules' name (--rules: any three-player variant; hands dealt from
    its deck, its opening bid). For a team game (kreuz-48, kreuz-40, pinochle-80) the
    team advisor is asked instead (team features incl. the team rule of thumb) and the
    held-out line compares the fit with the old rule-of-thumb + offset model; use
    --samples 100 there (the team matches' advisor). Rerun it whenever the advisor changes.
    """
    try:
        d_hands, d_samples, d_holdout = fit_defaults(rules)
    except BinokelError as exc:
        raise BadInput(f"--rules: {exc}") from None
    hands = d_hands if hands is None else hands
    samples = d_samples if samples is None else samples
    holdout = d_holdout if holdout is None else holdout
    target = Path(out) if out is not None else FIT_FILE
    if target.exists() and target.is_dir():
        raise BadInput(f"--out: {target} is a folder, give a file name")
    if not target.parent.is_dir():
        raise BadInput(f"--out: folder {target.parent} does not exist")
    bar = Bar("hands", hands, quiet=quiet or as_json)
    try:
        fit = fit_advisor_model(hands, samples, seed, rules, jobs, bar.advance, holdout)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    finally:
        bar.close()
    fits = {}
    if out is None:
        fits = dict(load_fit(ADVISOR_FIT))
    fits[rules.name] = fit
    try:
        path = write_advisor_fits(fits, target)
    except OSError as exc:
        raise BadInput(f"--out: cannot write {target}: {exc.strerror or exc}") from None
    if as_json:
        echo_json(dict(fit, path=str(path)))
        return
    click.echo(f"advisor model for {rules.name}: {hands} hands x {samples} samples, seed {seed} "
               f"-> {path}")
    for name, c, se in zip(fit.get("features", FEATURES), fit["coef"], fit["coef_se"]):
        click.echo(f"  {name:<16} {c:+9.3f} ± {se:.3f}")
    click.echo(f"  noise scale      {fit['scale']:9.2f} ± {fit['scale_se']:.2f}   "
               f"(passes: {100 * fit['pass_share']:.0f}% of hands)")
    if holdout:
        click.echo(f"  held out: {fit['holdout_hands']} fresh hands, MAE of the maximum bid "
                   f"{fit['holdout_mae']:.1f} ± {fit['holdout_mae_se']:.1f}, bid/pass agree "
                   f"{100 * fit['holdout_pass_agree']:.0f}%")
        if "offset_holdout_mae" in fit:      # a partners' table: the older model beside it
            d, dse = fit["holdout_paired_diff"]
            click.echo(f"  the old model (rule of thumb {fit['offset']:+d}) on the same hands: MAE "
                       f"{fit['offset_holdout_mae']:.1f} ± {fit['offset_holdout_mae_se']:.1f}, "
                       f"bid/pass agree {100 * fit['offset_holdout_pass_agree']:.0f}%; "
                       f"fit - old {d:+.1f} ± {dse:.1f}; the look-ahead's advisor model: "
                       f"the {'fit' if fit['use'] == 'fit' else 'old model'}")
