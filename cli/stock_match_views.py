"""``duplicate`` and ``tournament`` for a game with a stock (``--rules binokel-2``, V7):
two policies of the stock game's registry in a duplicate match of single deals, or in
whole games to the target (V7.5).  Called by duplicate_cmd / tournament_cmd when the
RuleSet has a stock part (``common.has_stock``); the library is
analyzer.analyses.stock_match."""
from __future__ import annotations

import click

from analyzer.errors import BinokelError

from .common import BadInput, echo_json
from .progress import Bar
from .stock_views import explicit


def refuse_options(ctx, rules, why: dict) -> None:
    """One line for the first option the user typed that the stock game has no use for;
    ``why`` maps an option's parameter name to the reason (citing V7.x)."""
    typed = explicit(ctx, *why)
    if typed:
        name = typed[0]
        opt = next(p.opts[0] for p in ctx.command.params if p.name == name)
        raise BadInput(f"{opt}: {rules.name} {why[name]}")


def _who(name: str, worlds) -> str:
    if worlds is not None and name in ("pimc", "pimc-fast"):
        return f"{name} ({worlds} worlds)"
    return name


def duplicate_deals(rules, a: str, b: str, deals: int, seed: int, worlds, jobs, as_json: bool,
                    title: str, quiet: bool = False) -> None:
    """A duplicate match of single deals (``stock_match.duplicate_match``): prints n, the
    mean difference per deal, its SE and z (V7.4's deal points; CPU seconds per deal in
    ``--json``)."""
    from analyzer.analyses.stock_match import duplicate_match

    try:
        with Bar("deals", deals, quiet=quiet or as_json) as bar:
            res = duplicate_match(rules, a, b, deals, seed, jobs=jobs, worlds=worlds,
                                  progress=bar.advance)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    if as_json:
        echo_json({"command": title, "mode": "deals", **res.to_dict()})
        return
    click.echo(f"{rules.name} {title}: {_who(a, worlds)} against {_who(b, worlds)}, "
               f"{res.n} deals in duplicate (each dealt twice, the seats swapped, V7.1; "
               f"seed {seed})")
    click.echo(f"{a} minus {b}: {res.mean:+.1f} deal points per deal (SE {res.se:.1f}, "
               f"z = {res.z:.2f}, n = {res.n})")
    click.echo(f"deal points per play: {a} {res.a_points:.1f}, {b} {res.b_points:.1f} "
               f"(melds, Dissles, card points and the last trick, V7.4)")


def duplicate_games(rules, a: str, b: str, groups: int, seed: int, worlds, jobs,
                    as_json: bool, quiet: bool = False) -> None:
    """Whole games to the target in duplicate pairs (``stock_match.game_match``): A's win
    rate with its SE over the pairs (V7.5).  The CPU time is in ``--json`` only (the text
    is the same for the same seed, so the guide's examples cannot go stale)."""
    from analyzer.analyses.stock_match import game_match
    from analyzer.mechanics import stock_play as sp
    from analyzer.mechanics.stock_deal import rules_of

    try:
        with Bar("game pairs", groups, quiet=quiet or as_json) as bar:
            res = game_match(rules, a, b, groups, seed, jobs=jobs, worlds=worlds,
                             progress=bar.advance)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    if as_json:
        echo_json({"command": "tournament", "mode": "games", **res.to_dict()})
        return
    target = int(rules_of(rules).params[sp.P_TARGET])
    click.echo(f"{rules.name} tournament: {_who(a, worlds)} against {_who(b, worlds)}, "
               f"{res.groups} game pairs to {target} (each pair on one stream of deals, "
               f"{a} first forehand in one game and first dealer in the other; the dealer "
               f"alternates; claims end a game, V7.5; seed {seed})")
    click.echo(f"{a} wins {100 * res.win_rate:.1f}% of {2 * res.groups} games (SE "
               f"{100 * res.win_se:.1f}% over the {res.groups} pairs, z against 50% = "
               f"{res.z:.2f})")
    click.echo(f"{res.deals_per_game:.1f} deals a game; {res.claims} of {2 * res.groups} "
               f"games ended by a claim")
    click.echo(f"final scores, {a} minus {b}: {res.points_diff:+.0f} per pair (SE "
               f"{res.points_se:.0f})")
