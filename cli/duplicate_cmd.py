"""``binokel duplicate``: PIMC (or the heuristic) against a heuristic on the same deals
(analyzer.analyses.strength)."""
from __future__ import annotations

import sys

import click

from analyzer.analyses.strength import BASELINES, CONFIGS, MAX_DEALS, POLICIES, duplicate_match
from analyzer.bounds import SEED
from analyzer.errors import BinokelError
from analyzer.mechanics.rules import DEFAULT_RULES

from .common import (BadInput, bounded, echo_json, example_epilog, has_stock, jobs_option,
                     rules_option_with_stock)
from .main import cli
from .progress import Bar, quiet_option
from .stock_views import explicit


@cli.command(
    "duplicate",
    epilog=example_epilog(
        "binokel duplicate --deals 200",
        "binokel duplicate --deals 500 --config defenders --samples 40 --horizon 8 --json",
        "binokel duplicate --deals 3000 --policy heuristic --baseline heuristic-v1",
        "binokel duplicate --deals 3000 --policy heuristic-lin --config defenders",
        "binokel duplicate --rules kreuz-48 --deals 300 --config defenders --json",
        "binokel duplicate --rules binokel-2 --policy pimc-fast --against heuristic --deals 90",
    ),
)
@click.option("--deals", type=click.IntRange(1, MAX_DEALS), default=200, show_default=True,
              help="Trump deals to play in duplicate.")
@click.option("--seed", type=bounded(SEED), default=0, show_default=True, help="Random seed.")
@click.option("--config", "configs", multiple=True, type=click.Choice(CONFIGS),
              help="Who plays the challenger policy (repeatable; default all three: "
                   "soloist, defenders, all).")
@click.option("--policy", default=None, metavar="NAME",
              help="The challenger: pimc (default), heuristic, heuristic-lin (the "
                   "linear-scored defence) or heuristic-lin2 (its richer-feature variant), "
                   "the heuristics against heuristic-v1 by default.  --rules binokel-2: a "
                   "policy of the stock game (pimc-fast (default), pimc, heuristic, "
                   "greedy-melds, random; pimc-fast-N, pimc-N: N worlds).")
@click.option("--against", default=None, metavar="NAME",
              help="--rules binokel-2: the other policy (default heuristic); each deal is "
                   "played twice, the seats swapped (V7.1).")
@click.option("--baseline", type=click.Choice(BASELINES), default=None,
              help="The other seats' and the baseline's heuristic [default: heuristic for "
                   "PIMC, heuristic-v1 for the heuristic].")
@click.option("--samples", type=click.IntRange(1, 1000), default=20, show_default=True,
              help="PIMC worlds per decision (binokel-2: the PIMC policies' own default "
                   "unless given).")
@click.option("--horizon", type=click.IntRange(0, 12), default=6, show_default=True,
              help="Solve worlds exactly when at most this many tricks are left (else "
                   "heuristic play-outs).")
@jobs_option()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@quiet_option
@rules_option_with_stock
@click.pass_context
def duplicate_command(ctx, deals, seed, configs, policy, against, baseline, samples, horizon,
                      jobs, as_json, quiet, rules):
    """Play the same deals with a baseline heuristic everywhere and with the challenger
    (PIMC, or the current heuristic against heuristic-v1) for the soloist, the defenders
    or everyone; paired differences of the soloist's card points (R7) and P(make) (R8),
    with standard errors and z.  In a partners' game (--rules kreuz-48, kreuz-40,
    pinochle-80) the soloist's side is the soloist and its partner (V1), PIMC plays
    against the team policy and the worlds' play-outs replace the exact search (no
    --horizon).  In the two-hand game (--rules binokel-2, V7) --policy plays --against
    on the same deals, each dealt twice with the seats swapped: the mean difference of
    deal points per deal with its SE and z (--jobs workers).
    """
    if has_stock(rules):   # V7: no auction, no soloist: two policies on the same deals
        from .stock_match_views import duplicate_deals, refuse_options

        refuse_options(ctx, rules, {
            "configs": "has no soloist and no defenders: --policy plays one seat, --against "
                       "the other, then the seats swap (V7.1)",
            "baseline": "plays --policy against --against (a policy of the stock game, V7)",
            "horizon": "is solved exactly once the stock is gone, by every policy (V7.4)"})
        worlds = samples if explicit(ctx, "samples") else None
        return duplicate_deals(rules, policy or "pimc-fast", against or "heuristic", deals,
                               seed, worlds, jobs, as_json, "duplicate", quiet)
    for name, value in (("against", against), ("jobs", None if jobs == 1 else jobs)):
        if value is not None:
            raise BadInput(f"--{name}: only for a game with a stock (--rules binokel-2, V7); "
                           f"this match plays --policy against --baseline in one process")
    policy = policy or "pimc"
    if policy not in POLICIES:
        raise BadInput(f"--policy: {policy!r} is not one of {', '.join(POLICIES)}")
    if baseline is None:
        baseline = "heuristic" if policy == "pimc" else "heuristic-v1"
    partners = getattr(rules, "teams", False)
    bar = Bar("deals", deals, quiet=quiet or as_json)
    progress = bar.update
    try:
        if partners:
            if policy != "pimc" or baseline != "heuristic":
                raise BinokelError(f"{rules.name} is played by partners (V1): its challenger is "
                                   f"pimc against the team policy (--policy pimc, no --baseline); "
                                   f"the heuristic-lin defences are the three-hand games'")
            from analyzer.analyses.duplicate_sides import duplicate_sides

            out = duplicate_sides(deals, seed, tuple(configs) or CONFIGS, samples, rules,
                                  progress=progress)
        else:
            out = duplicate_match(deals, seed, tuple(configs) or CONFIGS, samples, horizon,
                                  rules=rules, progress=progress, policy=policy,
                                  baseline=baseline)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    finally:
        bar.close()
    if as_json:
        echo_json(out)
        return
    who = "PIMC" if policy == "pimc" else policy
    click.echo(f"{out['n']} trump deals in duplicate (seed {seed}, {out['skipped']} deals without "
               f"a trump game skipped)"
               + ((f"; PIMC {samples} worlds, team-policy play-outs" if partners else
                   f"; PIMC {samples} worlds, exact from {horizon} tricks left")
                  if policy == "pimc" else f"; challenger: {policy}")
               + ("" if rules.name == DEFAULT_RULES.name else f" ({rules.name})"))
    base = "the team policy" if partners else baseline
    whose = "the soloist's side" if partners else "soloist"
    click.echo(f"baseline ({base} everywhere): {whose} {out['base_card_points']:.1f} card "
               f"points, mean auction bid {out['bid_mean']:.0f}")
    click.echo(f"{who + ' plays':<15}{'soloist pts':>12}{'SE':>6}{'z':>7}"
               f"{'P(make) bid':>14}" + ("" if partners else f"{'@250':>14}") + f"{'s/deal':>8}")
    for c, r in out["configs"].items():
        cpf = r["card_points"]
        ma = r["make"]["auction"]
        m250 = r["make"].get("250")
        click.echo(f"{c:<15}{cpf['mean']:>+12.1f}{cpf['se']:>6.1f}{cpf['z']:>7.1f}"
                   f"{ma['base']:>7.3f}->{ma['config']:.3f}"
                   + ("" if m250 is None else f"{m250['base']:>7.3f}->{m250['config']:.3f}")
                   + f"{r['seconds_per_deal']:>8.3f}")
    click.echo(f"(soloist pts: paired mean difference of {whose}'s card points, {who} minus "
               f"{base}, per deal)")
    sys.stdout.flush()
