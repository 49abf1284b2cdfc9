"""``binokel tournament``: duplicate self-play games between bidding agents (R3, R4, R8, R9)."""
from __future__ import annotations

import click

from analyzer.mechanics.bidding import DEFAULT_TRICK_ESTIMATE
from analyzer.errors import BinokelError
from analyzer.search.pimc import resolve_play
from analyzer.analyses.agents import AGENT_KINDS
from analyzer.analyses.tournament import MAX_MATCH_DEALS, run_tournament
from analyzer.bounds import GROUPS, SAMPLES_ADVISE, SEED

from .common import (BadInput, bounded, echo_json, example_epilog, has_stock, jobs_option,
                     play_option, rules_option_with_stock)
from .main import cli
from .progress import Bar, quiet_option


@cli.command(
    "tournament",
    epilog=example_epilog(
        "binokel tournament --agents advisor,rule --groups 20 --seed 1",
        "binokel tournament --agents advisor,advisor --groups 10 --json",
        "binokel tournament --agents advisor,rule --groups 10 --play pimc-defence --jobs 2",
        "binokel tournament --rules pinochle-80 --groups 400 --samples 100 --jobs -1",
        "binokel tournament --rules kreuz-48 --deals 2000 --samples 100 --jobs 2",
        "binokel tournament --deals 300 --samples 100 --jobs 2",
        "binokel tournament --rules binokel-2 --agents pimc-fast,heuristic --deals 90 --jobs 2",
        "binokel tournament --rules binokel-2 --agents pimc-fast,heuristic --groups 12",
    ),
)
@click.option("--agents", default="advisor,rule", show_default=True,
              help="Two bidding agents, comma-separated: advisor, rule, advisor-la (look-ahead "
                   "advisor), advisor-fit (fitted model of the advisor); same twice = self-play. "
                   "--rules binokel-2: two policies of the stock game (default "
                   "pimc-fast,heuristic; pimc, greedy-melds, random; pimc-fast-N: N worlds).")
@click.option("--groups", "-g", default=None, type=bounded(GROUPS),
              help="Duplicate groups; each is 6 full games (all seatings) on one deal stream. "
                   "Team games: game pairs, each game played to the target twice with the "
                   "teams swapped.  [default: 40]")
@click.option("--deals", default=None, type=int,
              help="Instead of --groups: a duplicate match of N single deals "
                   f"(2-{MAX_MATCH_DEALS:,}), each played under every seating from zero scores "
                   "(partners: twice, the teams swapped); points per deal, paired z.")
@click.option("--samples", default=200, show_default=True, type=bounded(SAMPLES_ADVISE),
              help="The advisor agent's sampled deals per bidding decision (binokel-2: the "
                   "PIMC policies' worlds per decision, their own default unless given).")
@click.option("--objective", type=click.Choice(["relative", "own", "win"]), default="relative",
              show_default=True,
              help="The advisor agent's objective, as in binokel advise (win: P(win game) "
                   "from the scores, R9).")
@click.option("--trick-estimate", default=DEFAULT_TRICK_ESTIMATE, show_default=True,
              type=click.IntRange(0, 250),
              help="The rule-of-thumb agent's fixed card-point estimate.")
@click.option("--opponents", type=click.Choice(["rule", "advisor"]), default=None,
              help="The advisor-la agent's opponent model (default: advisor, the fitted model "
                   "of the advisor; team games: the team advisor's rule of thumb + offset, for "
                   "all three other seats).")
@click.option("--seed", default=0, show_default=True, type=bounded(SEED), help="Random seed.")
@jobs_option()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@play_option
@quiet_option
@rules_option_with_stock
@click.pass_context
def tournament_command(ctx, agents, groups, deals, samples, objective, trick_estimate, opponents,
                       seed, jobs, as_json, play, quiet, rules):
    """Play duplicate games between two bidding agents and compare them (any variant:
    with four at the table, V3, each agent holds two chairs and the dealer sits out).

    Every deal stream is played six times with the agents rotated over the three chairs,
    so the cards' luck cancels. Reports points per deal and game win rate (R9) per agent
    with standard errors, and the paired difference with its z.

    The two-hand game (--rules binokel-2, V7) has no auction: the agents are two card-play
    policies.  --deals N plays N single deals twice each, the seats swapped (the mean
    difference of deal points with SE and z); --groups G plays G pairs of whole games to
    1000 on one stream of deals, the dealer alternating, claims ending a game (V7.5): the
    win rate with its SE.
    """
    if has_stock(rules):   # V7: no auction: two card-play policies
        return _stock(ctx, agents, groups, deals, samples, seed, jobs, as_json, rules, quiet)
    kinds = [a.strip() for a in agents.split(",") if a.strip()]
    if len(kinds) != 2:
        raise BadInput(f"--agents: give two agents separated by a comma, got {agents!r}")
    for k in kinds:
        if k not in AGENT_KINDS:
            raise BadInput(f"--agents: unknown agent {k!r}: use {', '.join(AGENT_KINDS)}")
    if deals is not None:
        if groups is not None:
            raise BadInput("--deals and --groups exclude each other: give one of them")
        if not 2 <= deals <= MAX_MATCH_DEALS:
            raise BadInput(f"--deals must be between 2 (standard errors need two) and "
                           f"{MAX_MATCH_DEALS:,}, got {deals}")
        if objective == "win":
            raise BadInput("--objective win reads the game scores: it needs whole games "
                           "(--groups), not --deals")
    elif groups is None:
        groups = 40
    if deals is None and groups < 2:
        raise BadInput(f"--groups must be at least 2 (standard errors need two), got {groups}")
    if samples < 1:
        raise BadInput(f"--samples must be at least 1, got {samples}")
    try:
        resolve_play(play, rules)   # a one-line error before any progress bar starts
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    # progress goes to stderr so that piped stdout holds only the results (cli.progress)
    bar = Bar("deals" if deals is not None else "groups",
              deals if deals is not None else groups, quiet=quiet or as_json)
    progress = bar.advance
    try:
        res = run_tournament(kinds[0], kinds[1], groups=groups, seed=seed, samples=samples,
                             objective=objective, trick_estimate=trick_estimate, n_jobs=jobs,
                             progress=progress, rules=rules, opponents=opponents, play=play,
                             deals=deals)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    finally:
        bar.close()
    if as_json:
        echo_json(res.to_dict())
        return
    click.echo(res.summary())


def _stock(ctx, agents, groups, deals, samples, seed, jobs, as_json, rules, quiet=False):
    """``tournament --rules binokel-2`` (cli.stock_match_views)."""
    from .stock_match_views import duplicate_deals, duplicate_games, refuse_options
    from .stock_views import explicit

    refuse_options(ctx, rules, {
        "objective": "has no auction: the agents are card-play policies (V7.1)",
        "trick_estimate": "has no auction: the agents are card-play policies (V7.1)",
        "opponents": "has no auction: the agents are card-play policies (V7.1)",
        "play": "is played by the agents themselves (policies of the stock game, V7)"})
    if not explicit(ctx, "agents"):
        agents = "pimc-fast,heuristic"
    kinds = [a.strip() for a in agents.split(",") if a.strip()]
    if len(kinds) != 2:
        raise BadInput(f"--agents: give two policies separated by a comma, got {agents!r}")
    worlds = samples if explicit(ctx, "samples") else None
    if deals is not None and groups is not None:
        raise BadInput("--deals and --groups exclude each other: give one of them")
    if deals is not None:
        return duplicate_deals(rules, kinds[0], kinds[1], deals, seed, worlds, jobs, as_json,
                               "tournament", quiet)
    return duplicate_games(rules, kinds[0], kinds[1], 40 if groups is None else groups, seed,
                           worlds, jobs, as_json, quiet)
