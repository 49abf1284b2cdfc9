"""``binokel analyze``: meld, card-point and score distributions of a hand as soloist."""
from __future__ import annotations

import os
from pathlib import Path

import click

from analyzer.mechanics.cards import Suit, tapp_word

from analyzer.analyses.analysis import (DEFAULT_SAMPLES, PIMC_SAMPLES, analyze_hand,
                                        parse_seat)
from analyzer.errors import BinokelError
from analyzer.search.pimc import resolve_play
from analyzer.examples import example
from analyzer.analyses.analysis import pct_ci, plot_format
from analyzer.bounds import AUCTION_BID, SAMPLES_ANALYZE, SEED, STOCK_DEALS_AHEAD, TEAM_PIMC_SAMPLES
from analyzer.search.pimc import PLAY_NAMES

from .common import (BadInput, bounded, cards_option, console_width, echo_json, example_epilog,
                     has_stock, jobs_option, parse_hand, rules_option_with_stock)
from .main import cli
from .progress import Bar, quiet_option



def _check_writable_file(path: str, what: str) -> Path:
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise BadInput(f"{what}: {path!r} is a directory")
    if not parent.is_dir():
        raise BadInput(f"{what}: directory {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK):
        raise BadInput(f"{what}: cannot write to directory {str(parent)!r}")
    return p


def _check_writable_dir(path: str, what: str) -> Path:
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise BadInput(f"{what}: {path!r} exists and is not a directory")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInput(f"{what}: cannot create {path!r}: {exc.strerror or exc}") from None
    if not os.access(p, os.W_OK):
        raise BadInput(f"{what}: cannot write to {path!r}")
    return p


def _bid_rows(bids):
    """The rows worth printing: where P(make) or the contract mix is still moving."""
    keep = []
    rows = list(bids.itertuples(index=False))
    for i, r in enumerate(rows):
        moving = 0.005 < r.p_make < 0.995 or 0 < r.p_surrender < 1 or r.p_durch > 0
        if i == 0 or i == len(rows) - 1 or moving:
            keep.append(r)
    if len(keep) > 30:  # thin a long middle stretch, keep both ends
        step = (len(keep) + 29) // 30
        keep = keep[:1] + keep[1:-1:step] + keep[-1:]
    return keep


def _pm(mean, lo, hi, fmt="{:.1f}"):
    """Mean with the half-width of its (symmetric) 95 % interval: '592.2 ± 1.6'."""
    return fmt.format(mean) + " ± " + "{:.1f}".format((hi - lo) / 2)


def _print_rich(res) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    con = Console(**console_width())
    con.print(f"[bold]hand[/bold] {res.hand}   [bold]{tapp_word()}[/bold] "
              f"{res.tapp or escape('(unknown: sampled per deal)')}   [bold]seat[/bold] "
              f"{res.seat}   n = {res.samples}   seed {res.seed}"
              + ("" if res.play == "heuristic" else f"   play {res.play}"))
    if res.candidates is not None:
        t = Table(title="Exchange (R4): Monte Carlo on fresh deals, best first", title_justify="left")
        for col in ("#", "trump", "discard", "fast est.", "mean total ± 95% CI",
                    "vs best ± 95% CI", "P(all tricks) [95% CI]"):
            t.add_column(escape(col), justify="right" if col not in ("discard", "trump") else "left")
        for r in res.candidates.itertuples(index=False):
            if r.trump == "Durch":
                t.add_row(str(r.rank), "Durch", r.discard, "", "", "",
                          escape(f"{r.p_all_tricks:.3f} [{r.p_lo:.3f}, {r.p_hi:.3f}]"))
            else:
                t.add_row(str(r.rank) + (" *" if r.recommended else ""), r.trump, r.discard,
                          f"{r.fast_value:.0f}",
                          _pm(r.mean_total, r.total_lo, r.total_hi),
                          _pm(r.diff_vs_best, r.diff_lo, r.diff_hi, "{:+.1f}"), "")
        con.print(t)
    t = Table(title="Distributions (mean ± 95% CI; quantiles)", title_justify="left")
    for col in ("quantity", "mean", "sd", "5%", "25%", "50%", "75%", "95%", "min", "max"):
        t.add_column(col, justify="left" if col == "quantity" else "right")
    labels = {"meld": "meld", "card_points": "card points", "total": "total",
              "score": f"score at {res.score_bid}"}
    for q, r in res.distributions.iterrows():
        t.add_row(labels[q], _pm(r["mean"], r["ci_lo"], r["ci_hi"]),
                  f"{r['sd']:.1f}", *(f"{r[c]:.0f}" for c in ("q05", "q25", "q50", "q75", "q95",
                                                               "min", "max")))
    con.print(t)
    t = Table(title="Trump chosen", title_justify="left")
    for col in ("trump", "chosen", "share [95% CI]", "mean meld", "mean total ± 95% CI"):
        t.add_column(escape(col), justify="left" if col == "trump" else "right")
    for r in res.trumps.itertuples(index=False):
        if r.chosen == 0:
            t.add_row(f"{Suit.parse(r.trump).symbol} {r.trump}", "0", "", "", "")
            continue
        t.add_row(f"{Suit.parse(r.trump).symbol} {r.trump}", str(r.chosen),
                  escape(f"{r.share:.1%} [{r.share_lo:.1%}, {r.share_hi:.1%}]"),
                  f"{r.mean_meld:.1f}", _pm(r.mean_total, r.total_lo, r.total_hi))
    con.print(t)
    t = Table(title="Per bid (R8, R4): P(make) = the contract chosen at that bid succeeds "
                    "(surrender = not made), and the expected soloist score",
              title_justify="left")
    for col in ("bid", "P(make) [95% CI]", "E[score] ± 95% CI", "surrender", "Durch"):
        t.add_column(escape(col), justify="right")
    for r in _bid_rows(res.bids):
        t.add_row(str(r.bid), escape(pct_ci(r.p_make, r.p_make_lo, r.p_make_hi)),
                  _pm(r.e_score, r.e_score_lo, r.e_score_hi),
                  f"{r.p_surrender:.1%}", f"{r.p_durch:.1%}")
    con.print(t)
    con.print("[dim]surrender / Durch: share of deals in which that contract is best at the "
              "bid, decided from hand + Tapp only (R4).  Rows where nothing changes are "
              "omitted; --json or --csv give all.[/dim]")


@cli.command(
    "analyze",
    epilog=example_epilog(
        "binokel analyze --example strong_spades",
        "binokel analyze 'AS AS 10S KS QS JS 9S KH QH AC AD 10D KD QD JD' --tapp '10S AH 9D'",
        "binokel analyze --example average -n 20000 --jobs 2 --plot average.png",
        "binokel analyze --example weak --json > weak.json",
        "binokel analyze --rules binokel-40 'AS AS 10S KS QS JS AH KH QH AC AD 10D'",
        "binokel analyze --rules kreuz-48 --seat 1 --bid 250 'AS AS 10S KS QS JS AC AH AD 10C KH'",
        "binokel analyze --rules binokel-2 --seat dealer --deals 10 'AH 10H KH QH JH 7H KS QS JD AC AS AD'",
    ),
)
@click.argument("hand", required=False)
@click.option("--tapp", "-t", default=None, help="The 3 Tapp cards, if known (else sampled).")
@click.option("--turned", default=None, metavar="CARD",
              help="binokel-2 (V7.1): the turned trump card, if known (else sampled per deal).")
@click.option("--deals", "deals_ahead", default=None, type=bounded(STOCK_DEALS_AHEAD),
              help="binokel-2 (V7.5): P(reaching the target) within 1..K deals [default 10].")
@click.option("--seat", "-s", default=None,
              help="forehand, middlehand or rearhand (R2); default forehand, or the example's seat. "
                   "Team games: 0-3. binokel-2: forehand or dealer (V7).")
@click.option("-n", "--samples", default=None, type=bounded(SAMPLES_ANALYZE),
              help=f"Sampled deals [default: {DEFAULT_SAMPLES}; {PIMC_SAMPLES} with --play pimc "
                   f"or pimc-defence ({TEAM_PIMC_SAMPLES} in a team game); binokel-2: 200, at most 20,000].")
@click.option("--seed", default=0, show_default=True, type=bounded(SEED),
              help="Random seed (same seed, same numbers, for any --jobs).")
@jobs_option()
@cards_option
@click.option("--bid", "score_bid", default=None, type=bounded(AUCTION_BID),
              help="Bid for the soloist-score distribution (default: the opening bid 150).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (stdout).")
@click.option("--csv", "csv_dir", default=None, metavar="DIR",
              help="Write the tables as CSV files into DIR.")
@click.option("--plot", "plot_file", default=None, metavar="FILE",
              help="Write a figure of the distributions: FILE.png, .svg or .pdf.")
@click.option("--example", "example_name", help="Use a built-in example hand from data/examples.json.")
@click.option("--play", "play", type=click.Choice(list(PLAY_NAMES) + ["random"]),
              default="heuristic", show_default=True,
              help="Card play after the exchange: heuristic at every seat; pimc = PIMC (sampled "
                   "worlds + exact search of the last tricks) at every seat; pimc-defence = PIMC "
                   "defenders, heuristic soloist (PIMC ~3-4 ms a deal, lower default --samples). "
                   "binokel-2: heuristic or random at both seats.")
@quiet_option
@rules_option_with_stock
@click.pass_context
def analyze_command(ctx, hand, tapp, turned, deals_ahead, seat, samples, seed, jobs, score_bid,
                    as_json, csv_dir, plot_file, example_name, play, quiet, rules):
    """Distributions of meld, card points, total and score for a HAND as soloist
    (15 cards; 12 in binokel-40, whose Tapp/Dabb has 4).

    Every sampled deal deals the unknown cards uniformly (R2); the exchange (R4: discard,
    trump, surrender or Durch) is chosen from hand + Tapp only; the deal is played out with
    the heuristic policy (or PIMC: --play) and scored (R8).  Every estimate carries a 95%
    interval.

    binokel-2 (V7): 12 cards; the expected points per deal (own, opponent's, difference),
    the melds shown, the own points' distribution and P(reaching 1000 within k deals)
    (resampling: this hand for deal 1, random hands for the later deals).
    """
    if has_stock(rules):
        from .stock_analyze_view import analyze_stock
        from .stock_views import explicit

        given = explicit(ctx, "tapp", "score_bid", "csv_dir", "plot_file", "example_name")
        if given:
            opt = {"tapp": "--tapp", "score_bid": "--bid", "csv_dir": "--csv",
                   "plot_file": "--plot", "example_name": "--example"}[given[0]]
            raise BadInput(f"{opt}: V7: {rules.name} has no auction, Dabb or example hands; "
                           "give HAND, --seat, --turned, --deals, -n, --play")
        return analyze_stock(hand, seat, turned, deals_ahead, samples, seed, jobs, play,
                             as_json, rules, quiet)
    if turned is not None or deals_ahead is not None:
        raise BadInput(f"{'--turned' if turned is not None else '--deals'}: only a game with a "
                       f"stock (V7: binokel-2) has a turned card and a game over deals here, "
                       f"not {rules.name}")
    if play == "random":
        raise BadInput(f"--play random: {rules.name} is played by heuristic, pimc or pimc-defence")
    if seat is not None and not seat.strip():
        raise BadInput("--seat is empty: use forehand, middlehand or rearhand (R2)")
    if hand is None and example_name is None:
        raise BadInput("give a HAND (15 cards) or --example NAME")
    if hand is not None and example_name is not None:
        raise BadInput("give either a HAND or --example, not both")
    if example_name is not None:
        try:
            ex = example(example_name)
        except BinokelError as exc:
            raise BadInput(str(exc)) from None
        hand = ex["hand"]
        if tapp is None:
            tapp = ex.get("tapp")
        seat = seat or ex.get("seat")
    if getattr(rules, "teams", False):
        if samples is None:
            samples = DEFAULT_SAMPLES if play == "heuristic" else TEAM_PIMC_SAMPLES
        return _analyze_team(hand, tapp, seat, samples, seed, score_bid, as_json, rules, play,
                             quiet)
    try:
        resolve_play(play, rules)   # a one-line error before any progress bar starts
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    if samples is None:
        samples = DEFAULT_SAMPLES if play == "heuristic" else PIMC_SAMPLES
    seat = seat or "forehand"
    h = parse_hand(hand, size=rules.hand_size, rules=rules)
    if tapp is not None and not tapp.strip():
        raise BadInput(f"--tapp is empty: give the {rules.tapp_size} Tapp cards, or leave --tapp "
                       "out to sample them")
    t = parse_hand(tapp, size=rules.tapp_size, what="--tapp", rules=rules) if tapp else None
    try:
        parse_seat(seat)
    except BinokelError as exc:
        raise BadInput(f"--seat: {exc}") from None
    if samples < 1:
        raise BadInput(f"--samples must be at least 1, got {samples}")
    if as_json and csv_dir:
        raise BadInput("give either --json or --csv, not both")
    if plot_file:
        try:
            plot_format(plot_file)
        except BinokelError as exc:
            raise BadInput(f"--plot: {exc}") from None
    plot_path = _check_writable_file(plot_file, "--plot") if plot_file else None
    csv_path = _check_writable_dir(csv_dir, "--csv") if csv_dir else None

    if t is not None:
        try:
            h + t  # hand and Tapp together: at most two copies of a card (R1), checked before any work
        except BinokelError as exc:
            raise BadInput(f"--tapp overlaps the hand: {exc}") from None
    try:
        with Bar("chunks of deals", quiet=quiet or as_json) as bar:
            res = analyze_hand(h, t, seat, samples, seed, jobs, score_bid=score_bid,
                               progress=bar.update, rules=rules, play=play)
        if plot_path is not None:
            res.plot(plot_path)
        if csv_path is not None:
            res.to_csv(csv_path)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    if as_json:
        echo_json(res.to_dict())
        return
    _print_rich(res)
    if csv_path is not None:
        click.echo(f"tables written to {csv_path}/")
    if plot_path is not None:
        click.echo(f"plot written to {plot_path}")


def _analyze_team(hand, tapp, seat, samples, seed, score_bid, as_json, rules, play,
                  quiet=False):
    """``--rules`` of a team game: the hand as soloist of a Dabb game (kreuz-48,
    kreuz-40: exchange, contract, team distributions) or the meld and counter
    distributions of a 20-card Pinochle hand (analyzer.analyses.analysis)."""
    from analyzer.analyses.analysis import analyze_team_hand

    if tapp is not None and not tapp.strip():
        raise BadInput("--tapp is empty: give the Dabb's cards, or leave --tapp out to sample them")
    try:
        with Bar("samples", samples, quiet=quiet or as_json) as bar:
            res = analyze_team_hand(hand, rules, seat=0 if seat is None else seat, dabb=tapp,
                                    samples=samples, seed=seed, bid=score_bid, play=play,
                                    progress=bar.update)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    if as_json:
        echo_json(res.to_dict())
        return
    click.echo(res.summary())
