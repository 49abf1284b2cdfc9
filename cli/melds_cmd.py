"""``binokel melds``: the R5 meld breakdown of a hand for each trump."""
from __future__ import annotations

import click

from analyzer import Suit, melds
from analyzer.mechanics.cards import SUITS
from analyzer.mechanics.melds import meld_report
from analyzer.errors import BinokelError
from analyzer.examples import example

from .common import (BadInput, cards_option, echo_json, example_epilog, has_stock, parse_hand,
                     rules_option_with_stock)
from .main import cli


@cli.command(
    "melds",
    epilog=example_epilog(
        "binokel melds 'AS AS 10S KS QS JS 9S KH QH AC AD 10D KD QD JD'",
        "binokel melds --example strong_spades --trump S --json",
        "binokel melds --rules grupp-3 'KS QS JD 7S 7S AH AH 10H 10H KH KH QH QH JH JH'",
        "binokel melds --rules binokel-2 --trump H 'AH 10H KH QH JH 7H KS QS JD AC AS AD'",
    ),
)
@click.argument("hand", required=False)
@click.option("--trump", "-t", help="Only this trump suit (C, S, H, D or ♣ ♠ ♥ ♦).")
@click.option("--example", "example_name", help="Use a built-in example hand from data/examples.json.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@cards_option
@rules_option_with_stock
def melds_command(hand, trump, example_name, as_json, rules):
    """Show the melds (R5) of a HAND (15 cards; 12 in binokel-40) for each trump.

    Melds are shown per type: F families and pairs, Q fours/eights, B binokel (grand
    binokel in the grupp games, V2.5), D trump nines (the Dissle, trump 7, V2.5).
    """
    if hand is None and example_name is None:
        raise BadInput("give a HAND (15 cards) or --example NAME")
    if hand is not None and example_name is not None:
        raise BadInput("give either a HAND or --example, not both")
    if example_name is not None:
        hand = example(example_name)["hand"]
    if has_stock(rules):   # V7.3: melds shown one per won trick: the orders and their worth
        from .stock_views import melds_stock

        return melds_stock(hand, trump, as_json, rules)
    if getattr(rules, "copies", 2) == 4:
        return _pinochle_melds(hand, trump, as_json, rules)
    h = parse_hand(hand, size=rules.hand_size, rules=rules)
    try:
        suits = [Suit.parse(trump)] if trump is not None else list(SUITS)
    except BinokelError as exc:
        raise BadInput(f"--trump: {exc}") from None
    results = [melds(h, s, rules) for s in suits]
    best = max(results, key=lambda m: (m.total, -m.trump.index))
    if as_json:
        echo_json(meld_report(h, suits[0] if trump else None, rules))  # the web API's /api/melds too
        return
    click.echo(f"hand: {h.show(rules.low_card)}  ({rules.name})")
    for m in results:
        named = ", ".join(str(x) for x in m.melds) or "no melds"
        click.echo(
            f"trump {m.trump.symbol} {m.trump.value}: {m.total:5d}  "
            f"(F {m.families_pairs}, Q {m.fours}, B {m.binokel}, D {m.nines})  {named}"
        )
    if len(results) > 1:
        click.echo(f"best trump by meld: {best.trump.symbol} {best.trump.value} ({best.total})")


def _pinochle_melds(hand, trump, as_json, rules):
    """``--rules pinochle-80``: V6.3 classes A, B, C of a 20-card hand per trump."""
    from analyzer.mechanics.cards import Hand80
    from analyzer.mechanics.melds import class_meld_report

    try:
        rep = class_meld_report(hand, trump, rules)
        h = Hand80.parse(hand, size=rules.hand_size)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    rows = rep["by_trump"]
    if as_json:
        echo_json(rep)
        return
    click.echo(f"hand: {h}  ({rules.name})")
    for r in rows:
        s = Suit.parse(r["trump"])
        named = ", ".join(f"{m['name']} {m['points']}" for m in r["melds"]) or "no melds"
        click.echo(f"trump {s.symbol} {s.value}: {r['total']:5d}  {named}")
    if len(rows) > 1:
        top = max(rows, key=lambda r: r["total"])      # max keeps the first of equals
        best = Suit.parse(top["trump"])
        click.echo(f"best trump by meld: {best.symbol} {best.value} ({top['total']})")
