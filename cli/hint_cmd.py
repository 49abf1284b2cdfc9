"""``binokel hint``: which card now? Each legal card valued from one player's view
(analyzer.analyses.hint; the deal record format: docs/guide/records.md; issue 27)."""
from __future__ import annotations

import click

from analyzer.bounds import SEED

from .common import (BadInput, bounded, check_record_rules, echo_json, example_epilog,
                     has_stock, record_rules)
from .main import cli


@cli.command(
    "hint",
    epilog=example_epilog(
        "binokel play --seed 3 --soloist 1 --trump H --record deal.txt",
        "binokel hint --record deal.txt --trick 8 --card 2",
        "binokel hint --record deal.txt --trick 12 --card 3 -n 100 --json",
        "binokel play --rules binokel-2 --seed 3 --record deal2.txt",
        "binokel hint --record deal2.txt --rules binokel-2 --trick 2 --meld",
    ),
)
@click.option("--record", "record", required=True, type=click.Path(dir_okay=False),
              help="A deal record file (docs/guide/records.md; `binokel play --record FILE` "
                   "writes one). Hidden hands (`?`) are fine except the hand of the seat to play.")
@click.option("--deal", "deal_no", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which deal of the file (1 = the first).")
@click.option("--trick", "trick_no", type=click.IntRange(min=1), default=None,
              help="The trick of the decision (default: the first card the record does not "
                   "hold; give --trick to go back to a card the record holds).")
@click.option("--card", "card_no", type=click.IntRange(min=1), default=None,
              help="Which card of that trick, 1 = the lead (default 1 with --trick).")
@click.option("--meld", "meld", is_flag=True,
              help="A game with a stock (V7.3): the meld decision after trick --trick.")
@click.option("-n", "--worlds", "worlds", type=click.IntRange(1, 10_000), default=None,
              help="PIMC worlds dealt consistently with the player's view [default: 40; "
                   "12 in a game with a stock].")
@click.option("--horizon", type=click.IntRange(1, 15), default=4, show_default=True,
              help="Solve each world exactly once this many tricks or fewer are left; "
                   "earlier, a heuristic play-out values each card in each world.")
@click.option("--dd-max-tricks", type=click.IntRange(0, 15), default=10, show_default=True,
              help="With every hand in the record: the exact double-dummy value of each "
                   "card once this many tricks or fewer are left.")
@click.option("--seed", type=bounded(SEED), default=0, show_default=True,
              help="Seed of the worlds (same seed, same worlds).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--rules", "rules", default=None, metavar="NAME", callback=record_rules,
              help="The game the record must be of (default: its Game line).")
def hint_command(record, deal_no, trick_no, card_no, meld, worlds, horizon, dd_max_tricks,
                 seed, as_json, rules=None):
    """Value every legal card of the seat to play, from that player's view only.

    The position is read from a deal record: the cards played before card --card of trick
    --trick. The player knows its own hand, every card played, the voids the play proved
    (R6), the face-up Dabb (R4) and, as the soloist, its discard; PIMC deals the unseen
    cards consistently into N worlds and values each card in each: the card points the
    player's side takes from here to the end and the soloist's deal score (R8; needs the
    record's Bid and Melds), each as mean ± SE over the n worlds. The best card is PIMC's
    choice. When the record holds every hand, DD gives each card's exact double-dummy card
    points as well (what `binokel solve --rules NAME` gives). Every game: at a partners'
    table (V1) the values are the side's (partners together), the worlds and play-outs
    those of the team PIMC.  A game with a stock (binokel-2, V7): every card, meld, pass
    and claim, own minus opponent's points and own points to the end of the deal (PIMC
    while the stock lasts, exact after it); --meld asks the meld decision after a trick.
    """
    from analyzer.analyses.hint import hint, role, view_from_record
    from analyzer.errors import BinokelError
    from analyzer.mechanics.record import read_records

    if card_no is not None and trick_no is None:
        raise BadInput("--card goes with --trick")
    if card_no is not None and meld:
        raise BadInput("--meld and --card: a meld decision comes after the trick's cards (V7.3)")
    try:
        deals = read_records(record)
        if deal_no > len(deals):
            raise BadInput(f"--deal {deal_no}: {record} holds {len(deals)} deal(s)")
        deal = deals[deal_no - 1]
        check_record_rules(deal, rules)
        if has_stock(deal.rules):     # V7: melds, draws, claims; analyses.stock_hint
            from .stock_advice import hint_stock, unused_options

            unused_options()

            return hint_stock(deal, trick_no, card_no, meld, worlds, seed, as_json)
        if meld:
            raise BadInput(f"--meld: {deal.rules.name} shows its melds before the play, not "
                           "after a trick (R5)")
        view = view_from_record(deal, trick_no, card_no)
        worlds = 40 if worlds is None else worlds
        h = hint(deal.rules, view, worlds, horizon, seed, dd_max_tricks)
    except BadInput:
        raise
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    d = h.to_dict()
    if as_json:
        echo_json(d)
        return
    who = role(view)
    click.echo(f"{d['rules']}, trump {d['trump']}, soloist seat {d['soloist']}: trick "
               f"{d['trick']}, seat {d['seat']} ({who}) to play"
               + (f" after {' '.join(d['current_trick'])}" if d["current_trick"] else " (lead)"))
    click.echo(f"  hand {d['hand']}")
    how = ("every world solved exactly" if d["exact_worlds"] else
           f"heuristic play-outs (exact from {d['horizon']} tricks left)" if d["horizon"] else
           "heuristic play-outs to the end")
    click.echo(f"PIMC: {d['worlds']} worlds consistent with seat {d['seat']}'s view, {how}")
    click.echo(f"{'card':<6}{'points ± SE':>16}{'soloist score ± SE':>22}{'DD':>6}")
    for c in d["cards"]:
        sc = "" if c["score"] is None else f"{c['score']:.1f} ± {c['score_se']:.1f}"
        dd = "" if c["dd"] is None else str(c["dd"])
        marks = ("  best" if c["card"] == d["best"] else "") + \
                ("  played" if c["card"] == d["played_in_record"] else "")
        click.echo(f"{c['card']:<6}{c['points']:>9.1f} ± {c['points_se']:<4.1f}{sc:>22}{dd:>6}"
                   f"{marks}")
    click.echo(f"(points: card points of the player's side from here to the end, R7; n = "
               f"{d['worlds']} per card; DD: {d['double_dummy']})")
