"""``binokel review``: where were points lost? Every card decision of a deal record
valued from the player's view (PIMC) and in hindsight (double dummy; issue 27)."""
from __future__ import annotations

from pathlib import Path

import click

from analyzer.bounds import BID_REVIEW_DEFAULT, BID_REVIEW_SAMPLES, SEED

from .common import (BadInput, bounded, check_record_rules, echo_json, example_epilog, has_stock,
                     record_rules)
from .main import cli
from .progress import Bar, quiet_option


@cli.command(
    "review",
    epilog=example_epilog(
        "binokel play --seed 3 --soloist 1 --trump H --record deal.txt",
        "binokel review deal.txt",
        "binokel review deal.txt -n 100 --top 5 --json",
        "binokel review deal.txt --bid-samples 1000",
        "binokel review deal.txt --no-auction",
        "binokel review deal.txt --plot deal.png",
        "binokel play --rules binokel-2 --seed 3 --record deal2.txt",
        "binokel review deal2.txt --rules binokel-2 --from-trick 13",
    ),
)
@click.argument("record", type=click.Path(dir_okay=False), required=False)
@click.option("--deal", "deal_no", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which deal of the file (1 = the first).")
@click.option("-n", "--worlds", "worlds", type=click.IntRange(1, 10_000), default=None,
              help="PIMC worlds per decision, at least 2 (the loss is measured on the half "
                   "that did not choose the best) [default: 40; 4 in a game with a stock].")
@click.option("--horizon", type=click.IntRange(1, 15), default=None,
              help="Solve each world exactly once this many tricks or fewer are left "
                   "[default: the table's: 10 tricks at three seats, 8 at four, at most "
                   "32 cards in the hands].")
@click.option("--dd-max-tricks", type=click.IntRange(0, 15), default=10, show_default=True,
              help="Hindsight (double-dummy) values once this many tricks or fewer are left "
                   "(needs every hand in the record).")
@click.option("--exchange-worlds", "exchange_worlds", type=click.IntRange(2, 20_000),
              default=200, show_default=True,
              help="Worlds of the hidden hands for the soloist's exchange (as `binokel "
                   "hint --exchange -n`).")
@click.option("--bid-samples", "bid_samples", type=bounded(BID_REVIEW_SAMPLES),
              default=BID_REVIEW_DEFAULT, show_default=True,
              help="Sampled deals per call of the auction (the look-ahead of `binokel advise "
                   "--lookahead`; ~0.2 s a call warm at the default).")
@click.option("--auction-weights/--no-auction-weights", "auction_weights", default=None,
              help="Weight the card decisions' worlds by how likely the other seats' calls "
                   "were with their hands in them, and the exchange's worlds (R3; as `binokel "
                   "hint`) [default: on when "
                   "the record holds an auction].")
@click.option("--no-auction", "no_auction", is_flag=True,
              help="Do not review the calls of the auction.")
@click.option("--seed", type=bounded(SEED), default=0, show_default=True,
              help="Seed of the worlds (same seed, same review).")
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True,
              help="Decisions listed (the biggest losses first; --json lists all).")
@click.option("--from-trick", "from_trick", type=click.IntRange(min=1), default=1,
              show_default=True, help="Review the decisions of this trick and later only.")
@click.option("--json", "as_json", is_flag=True,
              help="Machine-readable output (with the value series trick by trick).")
@click.option("--plot", "plot", type=click.Path(dir_okay=False), default=None,
              metavar="FILE.png",
              help="Chart of the deal's value trick by trick for the soloist's side "
                   "(double dummy where every hand is known and --dd-max-tricks allows, "
                   "else PIMC from the soloist's view with its 95%% band), the decisions "
                   "that lost points marked by seat.")
@click.option("--rules", "rules", default=None, metavar="NAME", callback=record_rules,
              help="The game the record must be of (default: its Game line).")
@quiet_option
def review_command(record, deal_no, worlds, horizon, dd_max_tricks, exchange_worlds, bid_samples,
                   auction_weights, no_auction, seed, top, from_trick, as_json, plot=None,
                   rules=None, quiet=False):
    """Every card decision of a recorded deal (a card played where another was legal, R6)
    valued against the best card from that player's view: PIMC over N worlds consistent with
    what the player knew (as `binokel hint`), the loss in card points of the player's side
    with its paired SE, cross-fitted (the best card chosen on half the worlds, the loss
    measured on the other half and vice versa, so that noise between equal cards averages 0
    rather than counting as a loss); and, where the record holds every hand, in hindsight
    (the exact double-dummy loss in the true deal). Points lost per decision, biggest first,
    and per seat. Decisions of a hidden hand are skipped. The soloist's exchange (discard,
    trump, going out, Durch; R4) is valued as `binokel hint --exchange` values it, from the
    soloist's view on --exchange-worlds common worlds, the option played against the best,
    cross-fitted, in deal score (R8; at a partners' table, kreuz-48 and kreuz-40, the
    soloist's side's, V4.6, V5.7); a game without a Dabb says so. Every call of the
    auction (R3; V1, V6.2) of a hand the record holds is valued from its caller's view (its
    hand and the calls before it) as `binokel advise --lookahead` values the plans "pass
    now" and "bid on up to M" on --bid-samples sampled deals: the loss of the call taken
    against the best plan, cross-fitted, with its SE, in the caller's deal score (R8; at a
    partners' table the team's minus the other team's); the forced opening is no
    decision. A game with a stock (binokel-2, V7): every play and meld decision, the
    loss in own minus opponent's points (PIMC while the stock lasts, exact after it). --plot
    FILE.png and --json: the deal's value before each trick and the result (card points of
    the soloist's side, R7).
    """
    from analyzer.analyses.review import review, value_series
    from analyzer.errors import BinokelError
    from analyzer.mechanics.record import read_records

    if record is None:
        raise BadInput("nothing to review: give a deal RECORD file (`binokel play --record "
                       "FILE` writes one)")
    if plot is not None:
        _check_plot_path(plot)
    try:
        deals = read_records(record)
        if deal_no > len(deals):
            raise BadInput(f"--deal {deal_no}: {record} holds {len(deals)} deal(s)")
        deal = deals[deal_no - 1]
        check_record_rules(deal, rules)
        if has_stock(deal.rules):     # V7: melds, draws, claims; analyses.stock_hint
            from .stock_advice import review_stock, unused_options

            unused_options()
            if auction_weights:
                raise BadInput(f"--auction-weights: {deal.rules.name} has no auction: trump "
                               "is turned up (V7.1)")
            if plot is not None:
                raise BadInput("--plot: the value chart is of the games with an auction; a "
                               "game with a stock (V7) is reviewed by its own table")

            return review_stock(deal, worlds, seed, top, from_trick, as_json)
        n = 40 if worlds is None else worlds
        with Bar("cards reviewed", quiet=quiet or as_json) as bar:
            rv = review(deal.rules, deal, n, horizon, seed, dd_max_tricks, from_trick,
                        exchange_worlds=exchange_worlds,
                        auction_samples=0 if no_auction else bid_samples, progress=bar.update,
                        auction_weights=auction_weights)
        series = series_note = None
        if plot is not None or as_json:
            try:
                series = value_series(deal.rules, deal, n, horizon, seed, dd_max_tricks,
                                      auction_weights)
            except BinokelError as exc:
                if plot is not None:
                    raise
                series_note = str(exc).replace("review: ", "", 1)
    except BadInput:
        raise
    except BinokelError as exc:
        raise BadInput(str(exc).replace("hint: ", "review: ", 1)) from None
    d = rv.to_dict()
    d["series"] = None if series is None else [p.to_dict() for p in series]
    if series_note:
        d["series_note"] = series_note
    if plot is not None:
        _write_plot(plot, deal, rv, series)
    if as_json:
        echo_json(d)
        return
    if plot is not None:
        click.echo(f"wrote {plot}", err=True)
    click.echo(f"{d['rules']}: {len(d['decisions'])} card decisions reviewed, PIMC "
               f"{d['worlds']} worlds each ("
               + (f"exact from {d['horizon']} tricks left)" if d["horizon"] else
                  "heuristic play-outs to the end)"))
    if d["auction_weights"]:
        click.echo("card decisions: worlds weighted by the other seats' calls (R3); the "
                   "effective n of each decision is in --json")
    if d["decisions_note"]:
        click.echo(f"card decisions: {d['decisions_note']}")
    x = d["exchange"]
    if x is not None:
        click.echo(f"exchange (seat {x['seat']}, the soloist, R4): played {x['played']}, best "
                   f"{x['best']}: loss {x['loss']:.1f} ± {x['loss_se']:.1f} "
                   f"{x['unit'][:-1]}; {x['options']} options on n = {x['n']} common worlds"
                   + (f", weighted by the other seats' calls (R3): effective n "
                      f"{x['effective_n']:.1f}" if x["effective_n"] is not None else "")
                   + ", cross-fitted)")
    else:
        click.echo(f"exchange: {d['exchange_note']}")
    _echo_auction(d)
    click.echo(f"{'trick':>5} {'card':>4} {'seat':>4}  {'played':<6} {'PIMC best':<9} "
               f"{'loss ± SE':>13}  {'DD best':<7} {'DD loss':>7}")
    for x in d["decisions"][:top]:
        click.echo(f"{x['trick']:>5} {x['card']:>4} {x['seat']:>4}  {x['played']:<6} "
                   f"{x['best']:<9} {x['loss']:>6.1f} ± {x['loss_se']:<4.1f}  "
                   f"{x['dd_best'] or '':<7} {'' if x['dd_loss'] is None else x['dd_loss']:>7}")
    click.echo("")
    click.echo(f"{'seat':>4} {'decisions':>9} {'PIMC loss ± SE':>16} {'DD loss':>8} "
               f"{'exchange ± SE':>16} {'auction ± SE':>18}")
    for s, v in d["per_seat"].items():
        dd = "" if v["dd_loss"] is None else f"{v['dd_loss']} ({v['dd_decisions']})"
        ex = ("" if v["exchange_loss"] is None
              else f"{v['exchange_loss']:.1f} ± {v['exchange_loss_se']:.1f}")
        au = ("" if v["auction_loss"] is None else
              f"{v['auction_loss']:.1f} ± {v['auction_loss_se']:.1f} ({v['auction_calls']})")
        click.echo(f"{s:>4} {v['decisions']:>9} {v['loss']:>8.1f} ± {v['loss_se']:<5.1f} {dd:>8} "
                   f"{ex:>16} {au:>18}")
    click.echo("(loss: card points of the seat's side lost against the best card, R7; "
               "exchange: the soloist's (side's) deal score lost against the best option, "
               "R8, V4.6, V5.7; "
               "auction: deal score lost against the best call over the calls in brackets "
               f"(R8; partners: the team's minus the other team's); n = {d['worlds']} worlds "
               "per decision; DD loss over the decisions in brackets, every hand known)")


def _echo_auction(d: dict) -> None:
    """The auction's block: one line per reviewed call (analysis.bid_review)."""
    calls = d["auction"]
    if not calls:
        click.echo(f"auction: {d['auction_note']}")
        return
    click.echo(f"auction (R3, V1, V6.2; each call against the best plan, pass or bid on up to a limit, "
               f"from the caller's view: {d['auction_samples']} sampled deals a call, "
               f"cross-fitted; loss in {calls[0]['unit']}):")
    click.echo(f"{'call':>5} {'seat':>4}  {'called':<6} {'best':<14} {'loss ± SE':>15} "
               f"{'n':>6}")
    for c in calls:
        best = str(c["best"]) + ("" if c["best_limit"] is None else f" (to {c['best_limit']})")
        click.echo(f"{c['call_no']:>5} {c['seat']:>4}  {c['call']!s:<6} {best:<14} "
                   f"{c['loss']:>7.1f} ± {c['loss_se']:<5.1f} {c['n']:>6}")
    if d["auction_note"]:
        click.echo(f"  ({d['auction_note']})")


def _check_plot_path(path: str) -> None:
    """--plot: a .png file in a folder that exists (one line, exit 2, before any work)."""
    import os

    p = Path(path)
    if p.suffix.lower() != ".png":
        raise BadInput(f"--plot {path}: the chart is written as PNG: give a FILE.png")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise BadInput(f"--plot {path}: the folder {parent} does not exist")
    if p.is_dir() or not os.access(parent, os.W_OK):
        raise BadInput(f"--plot {path}: cannot write there")


def _write_plot(path: str, deal, rv, series) -> None:
    """The value chart (reports.charts.deal_value): a decision that lost at least a
    point (in hindsight where known, else PIMC) is marked at its place in its trick."""
    from reports.charts import deal_value

    n_play = len(deal.in_play)
    xs = [p.trick for p in series]
    vs = [p.value for p in series]
    marks = []
    for d in rv.decisions:
        loss = d.dd_loss if d.dd_loss is not None else d.loss
        if loss < 1:
            continue
        x = d.trick + (d.card_no - 1) / n_play
        i = d.trick - 1
        y = vs[i] + (vs[i + 1] - vs[i]) * (x - d.trick)
        marks.append((x, y, float(loss), f"seat {d.seat}"))
    title = (f"{deal.rules.name}: the deal's value for the soloist's side "
             f"(seat {deal.soloist}, {deal.contract})")
    try:
        deal_value(Path(path), title, xs, vs, [p.se for p in series],
                   marks)
    except OSError as exc:
        raise BadInput(f"--plot {path}: cannot write: {exc.strerror or exc}") from None
