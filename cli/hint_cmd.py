"""``binokel hint``: which card now? Each legal card valued from one player's view
(analyzer.analyses.hint; the deal record format: docs/guide/records.md; issue 27)."""
from __future__ import annotations

import click

from analyzer.bounds import AUCTION_BID, HINT_DISCARDS, SEED

from .common import (BadInput, bounded, check_record_rules, echo_json, example_epilog, has_stock,
                     parse_hand, record_rules)
from .main import cli
from .progress import Bar, quiet_option


@cli.command(
    "hint",
    epilog=example_epilog(
        "binokel play --seed 3 --soloist 1 --trump H --record deal.txt",
        "binokel hint --record deal.txt --trick 8 --card 2",
        "binokel hint --record deal.txt --trick 12 --card 3 -n 100 --json",
        "binokel play --rules binokel-2 --seed 3 --record deal2.txt",
        "binokel hint --record deal2.txt --rules binokel-2 --trick 2 --meld",
        "binokel hint --record deal.txt --exchange",
        'binokel hint --exchange --hand "AH AH 10H KH QH JH AS 10S KS AC 10C AD QD 9D 9C JS '
        'JH 9H" --bid 300',
        'binokel hint --exchange --rules kreuz-48 --hand "AC 10C QC JC 10S KS 7S AH AH 10H KH '
        'QH JH AD KD" --bid 200 --seat 1',
    ),
)
@click.option("--record", "record", default=None, type=click.Path(dir_okay=False),
              help="A deal record file (docs/guide/records.md; `binokel play --record FILE` "
                   "writes one). Hidden hands (`?`) are fine except the hand of the seat to play.")
@click.option("--exchange", "exchange", is_flag=True,
              help="The decisions before play (R4): the best discards each with its best "
                   "trump, going out and Durch, valued for the soloist on common worlds. "
                   "From --record (the soloist's hand, Dabb and bid) or --hand and --bid.")
@click.option("--hand", "hand", default=None, metavar="CARDS",
              help="With --exchange and no --record: the soloist's cards after taking the "
                   "Dabb (hand + Dabb, R4).")
@click.option("--bid", "bid", type=bounded(AUCTION_BID), default=None,
              help="With --hand: the winning bid (R3).")
@click.option("--seat", "seat", default="forehand", show_default=True,
              help="With --hand: the soloist's seat (forehand leads a trump contract, R6); "
                   "0-3 at a partners' table (V1).")
@click.option("--top", "top", type=bounded(HINT_DISCARDS), default=5,
              show_default=True, help="With --exchange: how many discards to list.")
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
                   "12 in a game with a stock; 200 worlds of the defenders' hands with "
                   "--exchange].")
@click.option("--horizon", type=click.IntRange(1, 15), default=None,
              help="Solve each world exactly once this many tricks or fewer are left; "
                   "earlier, a heuristic play-out values each card in each world "
                   "[default: the table's: 10 tricks at three seats, 8 at four, at most "
                   "32 cards in the hands].")
@click.option("--dd-max-tricks", type=click.IntRange(0, 15), default=10, show_default=True,
              help="With every hand in the record: the exact double-dummy value of each "
                   "card once this many tricks or fewer are left.")
@click.option("--seed", type=bounded(SEED), default=0, show_default=True,
              help="Seed of the worlds (same seed, same worlds).")
@click.option("--auction-weights/--no-auction-weights", "auction_weights", default=None,
              help="Weight each world by how likely the other seats' calls were with their "
                   "hands in it (R3; the model of `binokel advise`); with --exchange the worlds "
                   "of the hidden hands before play [default: on when the record holds an "
                   "auction].")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--rules", "rules", default=None, metavar="NAME", callback=record_rules,
              help="The game the record must be of (default: its Game line); with "
                   "--exchange --hand, the game (default binokel-48).")
@quiet_option
def hint_command(record, exchange, hand, bid, seat, top, deal_no, trick_no, card_no, meld,
                 worlds, horizon, dd_max_tricks, seed, auction_weights, as_json, rules=None,
                 quiet=False):
    """Value every legal card of the seat to play, from that player's view only.

    The position is read from a deal record: the cards played before card --card of trick
    --trick. The player knows its own hand, every card played, the voids the play proved
    (R6), the face-up Dabb (R4) and, as the soloist, its discard; PIMC deals the unseen
    cards consistently into N worlds and values each card in each: the card points the
    player's side takes from here to the end and the soloist's deal score (R8; needs the
    record's Bid and Melds), each as mean ± SE over the n worlds. With the record's
    auction each world is weighted by how likely the other seats' calls were with their
    hands in it (R3, as `binokel advise` weights its samples; the effective n is shown;
    --no-auction-weights: uniform). The best card is PIMC's choice on those worlds. When the record holds every hand, DD gives each card's exact double-dummy card
    points as well (what `binokel solve --rules NAME` gives). Every game: at a partners'
    table (V1) the values are the side's (partners together), the worlds and play-outs
    those of the team PIMC.  A game with a stock (binokel-2, V7): every card, meld, pass
    and claim, own minus opponent's points and own points to the end of the deal (PIMC
    while the stock lasts, exact after it); --meld asks the meld decision after a trick.

    --exchange: the soloist's decisions before play (R4, V2.7): the best --top discards
    each with its best trump, going out and Durch where the game has them, each with the
    soloist's expected deal score (R8) as mean ± SE over -n worlds of the defenders'
    hands (the unseen cards dealt uniformly; the same worlds for every option, so the
    difference to the best has a small paired SE), played out by the heuristic. At a
    partners' table with a Dabb (kreuz-48, kreuz-40: V4.2-V4.6, V5.3-V5.7) the same for
    the soloist's side's deal score, the partner's hand hidden like the opponents'; `rule`
    marks the option the simulations' soloist takes. With --record and its Auction line
    the worlds are weighted by how likely the other seats' calls were with their hands
    (R3, as for the card play; the effective n is shown; --no-auction-weights: uniform).
    """
    given = {p for p in ("horizon", "dd_max_tricks", "seat", "top", "meld", "trick_no",
                         "card_no") if _given(p)}
    if exchange:
        if record and "seat" in given:
            raise BadInput("--exchange --record: the record's Auction names the soloist's "
                           "seat; --seat goes with --hand (R3)")
        extra = given & {"horizon", "dd_max_tricks"}
        if extra:
            raise BadInput(f"--exchange: {_flag(sorted(extra)[0])} does not apply to the "
                           "decisions before play (R4)")
        return _exchange(record, hand, bid, seat, top, deal_no, trick_no, card_no, meld,
                         worlds, seed, as_json, rules, auction_weights)
    if record is None:
        raise BadInput("--record FILE is needed (or --exchange with --hand and --bid)")
    if hand is not None or bid is not None or given & {"seat", "top"}:
        raise BadInput("--hand, --bid, --seat and --top go with --exchange")
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
            if auction_weights:
                raise BadInput(f"--auction-weights: {deal.rules.name} has no auction: trump "
                               "is turned up (V7.1)")

            return hint_stock(deal, trick_no, card_no, meld, worlds, seed, as_json)
        if meld:
            raise BadInput(f"--meld: {deal.rules.name} shows its melds before the play, not "
                           "after a trick (R5)")
        view = view_from_record(deal, trick_no, card_no)
        worlds = 40 if worlds is None else worlds
        with Bar("worlds", worlds, quiet=quiet or as_json) as bar:
            h = hint(deal.rules, view, worlds, horizon, seed, dd_max_tricks,
                     progress=bar.update, auction_weights=auction_weights)
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
    if d["auction_weights"]:
        click.echo(f"  weighted by the other seats' calls (R3): effective n "
                   f"{d['effective_worlds']:.1f} of {d['worlds']}"
                   + (f"; {d['dropped_worlds']} world(s) of weight 0 left out"
                      if d["dropped_worlds"] else ""))
    elif view.auction and auction_weights is False:
        click.echo("  uniform worlds (--no-auction-weights): the calls are not used")
    score_head = "side score ± SE" if d["score_of"] == "side" else "soloist score ± SE"
    click.echo(f"{'card':<6}{'points ± SE':>16}{score_head:>22}{'DD':>6}")
    for c in d["cards"]:
        sc = "" if c["score"] is None else f"{c['score']:.1f} ± {c['score_se']:.1f}"
        dd = "" if c["dd"] is None else str(c["dd"])
        marks = ("  best" if c["card"] == d["best"] else "") + \
                ("  played" if c["card"] == d["played_in_record"] else "")
        click.echo(f"{c['card']:<6}{c['points']:>9.1f} ± {c['points_se']:<4.1f}{sc:>22}{dd:>6}"
                   f"{marks}")
    n_text = (f"n = {d['worlds']} per card, effective {d['effective_worlds']:.1f}"
              if d["auction_weights"] else f"n = {d['worlds']} per card")
    click.echo(f"(points: card points of the player's side from here to the end, R7; "
               f"{n_text}; DD: {d['double_dummy']})")


def _given(param: str) -> bool:
    """Whether the user gave option ``param`` (not its default)."""
    src = click.get_current_context().get_parameter_source(param)
    return src is not None and src.name not in ("DEFAULT", "DEFAULT_MAP")


def _flag(param: str) -> str:
    return {"trick_no": "--trick", "card_no": "--card"}.get(param, "--" + param.replace("_", "-"))


def _exchange(record, hand, bid, seat, top, deal_no, trick_no, card_no, meld, worlds, seed,
              as_json, rules, auction_weights=None):
    """``hint --exchange``: the table of analyzer.analyses.exchange_hint; with a record's
    Auction line its worlds weighted by the other seats' calls (R3) unless
    ``auction_weights`` is False."""
    from analyzer.analyses.analysis import parse_seat
    from analyzer.analyses.advice import parse_seat_for
    from analyzer.analyses.exchange_hint import (DEFAULT_WORLDS, check_exchange_game,
                                                 exchange_hint, exchange_view_from_record,
                                                 has_partners, uses_auction)
    from analyzer.errors import BinokelError
    from analyzer.mechanics.record import read_records
    from analyzer.mechanics.rules import get_rules

    if trick_no is not None or card_no is not None or meld:
        raise BadInput("--exchange is the decision before the play: no --trick, --card or "
                       "--meld (R4)")
    worlds = DEFAULT_WORLDS if worlds is None else worlds
    auction = None
    try:
        if record is not None:
            if hand is not None or bid is not None:
                raise BadInput("--exchange: give --record or --hand and --bid, not both")
            deals = read_records(record)
            if deal_no > len(deals):
                raise BadInput(f"--deal {deal_no}: {record} holds {len(deals)} deal(s)")
            deal = deals[deal_no - 1]
            check_record_rules(deal, rules)
            check_exchange_game(deal.rules)
            cards, bid, soloist = exchange_view_from_record(deal)
            game = deal.rules
            auction = deal.auction
            if auction_weights and not uses_auction(game, auction, True):
                raise BadInput("--auction-weights: the record has no Auction line to weight "
                               "the worlds by (R3)")
        else:
            if hand is None or bid is None:
                raise BadInput("--exchange needs --record FILE, or --hand and --bid")
            if auction_weights:
                raise BadInput("--auction-weights: --hand and --bid hold no auction; give "
                               "--record FILE with an Auction line (R3)")
            from analyzer.mechanics.ruleset import get_game

            game = rules if rules is not None else get_game(None)
            check_exchange_game(game)
            cards = parse_hand(hand, None, "--hand", get_rules(game)).counts
            if has_partners(game):       # V1: table seats 0-3, forehand (0) by default
                soloist = parse_seat_for(seat, get_rules(game)) if _given("seat") else 0
            else:
                soloist = parse_seat(seat)
        h = exchange_hint(game, cards, bid, soloist, top, worlds, seed, auction,
                          auction_weights)
    except BadInput:
        raise
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    d = h.to_dict()
    if as_json:
        echo_json(d)
        return
    click.echo(f"{d['rules']}: soloist seat {d['soloist']} at bid {d['bid']}, holding "
               f"{d['cards']}")
    if d["partners"]:
        click.echo(f"{d['worlds']} worlds of the partner's and the opponents' hands (the "
                   f"unseen cards dealt uniformly, seed {d['seed']}), the same for every "
                   "option; the partners' heuristic plays")
    else:
        click.echo(f"{d['worlds']} worlds of the defenders' hands (the unseen cards dealt "
                   f"uniformly, seed {d['seed']}), the same for every option; heuristic play")
    if d["auction_weights"]:
        click.echo(f"  weighted by the other seats' calls (R3): effective n "
                   f"{d['effective_worlds']:.1f} of {d['options'][0]['n']}"
                   + (f"; {d['dropped_worlds']} world(s) of weight 0 left out"
                      if d["dropped_worlds"] else ""))
    elif auction is not None and len(auction) and auction_weights is False:
        click.echo("  uniform worlds (--no-auction-weights): the calls are not used")
    click.echo(f"{'option':<34}{'score ± SE':>16}{'vs best ± SE':>18}")
    for o in d["options"]:
        vs = "best" if o["option"] == d["best"] else f"{o['diff']:.1f} ± {o['diff_se']:.1f}"
        click.echo(f"{o['option']:<34}{o['mean']:>9.1f} ± {o['se']:<4.1f}{vs:>18}"
                   + ("  rule" if o["rule"] else ""))
    what = ("the soloist's side's deal score, V4.6 / V5.7" if d["partners"] else
            "the soloist's deal score, R8 / R4")
    n_text = (f"n = {d['options'][0]['n']} per option, effective {d['effective_worlds']:.1f}"
              if d["auction_weights"] else f"n = {d['worlds']} per option")
    click.echo(f"(score: {what}; {n_text}; vs best: paired difference "
               "on the same worlds" + ("; rule: the option the simulations' soloist takes"
                                       if d["rule_choice"] else "") + ")")
