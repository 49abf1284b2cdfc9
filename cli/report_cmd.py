"""``binokel report``: charts and an HTML + Markdown report of a batch run."""
from __future__ import annotations

from pathlib import Path

import click

from .common import BadInput, example_epilog
from .main import cli
from .progress import Bar, quiet_option


def _game_name(ctx, param, value):
    """``--rules NAME``: a registered game's name (every game, a stock game too, V7)."""
    if value is None:
        return None
    from analyzer.errors import BinokelError
    from analyzer.mechanics.ruleset import get_game

    try:
        return get_game(value).name
    except BinokelError as exc:
        raise BadInput(f"--rules: {exc}") from None


@cli.command(
    "report",
    epilog=example_epilog(
        "binokel report --sample              # the shipped sample run (data/sample_run)",
        "binokel report runs/census --out reports/census",
    ),
)
@click.argument("run", required=False, type=click.Path(file_okay=False))
@click.option("--out", "out", type=click.Path(file_okay=False), default=None,
              help="Report folder (default reports/<run name>).")
@click.option("--sample", is_flag=True, help="Report on the shipped sample run data/sample_run.")
@click.option("--rules", "rules_name", default=None, metavar="NAME", callback=_game_name,
              help="Check that RUN was made under this rules variant (default: the run's own).")
@quiet_option
def report_command(run, out, sample, rules_name, quiet):
    """Write charts (PNG + SVG) and report.html / report.md for the run folder RUN.

    Meld runs: meld frequencies with 95% CIs beside exact probabilities, best-meld and
    Tapp-point distributions. Deal runs: winning bids, P(make) by bid, surrender and Durch
    rates, card points and scores by seat; for a team game (kreuz-48, kreuz-40, pinochle-80)
    contract shares, P(make) by bid, team melds, card points and scores per team; for a game
    with a stock (binokel-2, V7) points per seat, the melds shown and point distributions.
    --sample reports on the shipped sample run instead of RUN.
    """
    from reports import SAMPLE_RUN, build_report

    if run is not None and sample:
        raise BadInput("give either RUN or --sample, not both")
    if run is None and not sample:
        raise BadInput("nothing to report: give a RUN folder (`binokel simulate -n N --out RUN` "
                       "makes one) or --sample for the shipped sample run")
    run_path = Path(run) if run is not None else SAMPLE_RUN
    if not run_path.is_dir():
        raise BadInput(f"{run_path}: no such run folder")
    if rules_name is not None:
        import json

        from analyzer.errors import BinokelError
        from analyzer.mechanics.rules import get_rules
        from analyzer.batch.stock_runs import has_stock, stock_rules_dict
        from analyzer.mechanics.ruleset import get_game
        try:
            game = get_game(rules_name)
            want_rules = game if has_stock(game) else get_rules(rules_name)
            have_rules = json.loads((run_path / "manifest.json").read_text()).get("rules", {})
            if not isinstance(have_rules, dict):
                raise ValueError("rules")
        except BinokelError as exc:
            raise BadInput(f"--rules: {exc}") from None
        except (OSError, ValueError, AttributeError):
            raise BadInput(f"{run_path}: no readable manifest.json (not a run folder)") from None
        want, have = want_rules.name, have_rules.get("name", "binokel-48")
        if have != want:
            raise BadInput(f"{run_path} holds a {have} run, not {want}: its report names its own rules")
        # same name, other fields (a TeamRuleSet's team fields included): another version's
        # rules.  Fields only one side has (added or removed since) are not compared.
        now = json.loads(json.dumps(stock_rules_dict(want_rules) if has_stock(want_rules)
                                    else want_rules.to_dict()))
        differ = sorted(k for k in set(now) & set(have_rules) if now[k] != have_rules[k])
        if differ:
            raise BadInput(f"{run_path} was made under other {want} rules than this version's "
                           f"(fields {', '.join(differ[:4])}{' ...' if len(differ) > 4 else ''} "
                           "differ); report it without --rules to use its own")
    out_path = Path(out) if out is not None else Path("reports") / run_path.name
    with Bar("charts written", quiet=quiet) as bar:
        res = build_report(run_path, out_path, progress=bar.update)
    click.echo(f"report: {res['html']}")
    click.echo(f"markdown: {res['markdown']}")
    click.echo("charts: " + ", ".join(p.name for p in res["charts"]) + " (+ .svg)")
