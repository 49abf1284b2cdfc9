"""``binokel analyze --rules binokel-2``: a starting hand of a game with a stock (V7).

Called by analyze_cmd when the RuleSet has a stock (``common.has_stock``).  Parses the
stock options (``--seat forehand|dealer``, ``--turned``, ``--deals``, ``--play
heuristic|random``), runs :func:`analyzer.analyses.stock_analysis.analyze_stock_hand` and
prints its tables (or ``--json``).  Bad input is one line citing V7.x (exit 2).
"""
from __future__ import annotations

import click

from analyzer.errors import BinokelError

from .common import BadInput, echo_json
from .progress import Bar

DEFAULT_SAMPLES = 200
DEFAULT_DEALS = 10


def parse_stock_seat(seat, game) -> int:
    """``forehand``/``dealer`` (or 0/1) -> the seat index (V7: seat 0 the non-dealer)."""
    if seat is None:
        return 0
    names = game.table.seat_names
    s = str(seat).strip().lower()
    if s in names:
        return names.index(s)
    if s in ("0", "1"):
        return int(s)
    raise BadInput(f"--seat: V7: {game.name} has the seats {' and '.join(names)} (or 0, 1), "
                   f"not {str(seat)[:20]!r}")


def parse_turned(text, game):
    """One card of the game's deck -> its card type (V7.1), None when not given."""
    from types import SimpleNamespace

    from analyzer.mechanics.cards import parse_cards

    if text is None:
        return None
    deck = SimpleNamespace(low_card=game.deck.low_card, name=game.name)
    try:
        cards = parse_cards(text, deck)
    except BinokelError as exc:
        raise BadInput(f"--turned: {exc}") from None
    if len(cards) != 1:
        raise BadInput(f"--turned: V7.1: one card is turned, got {len(cards)}")
    return cards[0].id


def analyze_stock(hand, seat, turned, deals, samples, seed, jobs, play, as_json, game,
                  quiet: bool = False) -> None:
    """The stock analysis of ``hand`` (12 cards of ``game``) printed or as JSON."""
    from analyzer.analyses.stock_analysis import analyze_stock_hand, check_request

    from .stock_views import parse_stock_hand

    if hand is None:
        raise BadInput(f"give a HAND: V7.1: the {game.table.hand_size} cards dealt to you")
    types = parse_stock_hand(hand, game)
    s = parse_stock_seat(seat, game)
    t = parse_turned(turned, game)
    samples = DEFAULT_SAMPLES if samples is None else samples
    deals = DEFAULT_DEALS if deals is None else deals
    try:
        check_request(game, types, s, t, samples, deals, seed, play)   # before the bar
        with Bar("chunks of deals", quiet=quiet or as_json) as bar:
            res = analyze_stock_hand(game, types, s, t, samples, deals, seed, play, jobs,
                                     progress=bar.update)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    if as_json:
        echo_json(res.to_dict())
        return
    print_stock_analysis(res)


def _pm(x, fmt="{:.1f}") -> str:
    return f"{fmt.format(x.mean)} ± {(x.hi - x.lo) / 2:.1f}"


def print_stock_analysis(res) -> None:
    """The analysis as text tables."""
    e = click.echo
    e(f"{res.game}: hand {' '.join(res.hand)}   seat {res.seat_name}   turned "
      f"{res.turned or '(sampled per deal)'}   n = {res.samples}   seed {res.seed}   play {res.play}")
    e("The opponent's hand, the stock order and the turned card are dealt uniformly from the "
      "unseen cards (V7.1); both seats play the same policy.")
    e("")
    e("Points per deal (V7.4: melds + Dissles + card points + last trick), mean ± 95% CI")
    for label, x in (("own", res.own), ("opponent", res.opp), ("difference", res.diff),
                     ("own melds", res.melds), ("own card points", res.card_points)):
        e(f"  {label:<16} {_pm(x):>16}   (SE {x.se:.1f}, n {x.n})")
    e("")
    e("Melds shown by you (V7.3): share of deals with at least one [95% CI], mean shown per deal ± SE")
    for r in res.meld_rows:
        if r["p_shown"] == 0 and r["kind"].startswith("eight"):
            continue
        e(f"  {r['kind']:<40} {r['p_shown']:6.1%} [{r['p_lo']:.1%}, {r['p_hi']:.1%}]   "
          f"{r['mean']:.2f} ± {r['se']:.2f}")
    e("  (eights never shown are omitted; --json lists every kind)")
    e("")
    q = res.quantiles
    e("Own points: " + "  ".join(f"{int(round(p * 100))}% {v:.0f}" for p, v in q.items()))
    top = max(c for _, c in res.hist)
    for b, c in res.hist:
        e(f"  {b:>5}-{b + 24:<5} {'#' * max(1, round(30 * c / top)):<30} {c}")
    e("")
    e(f"P(reaching {res.target} within k deals) ± 95%, V7.5 ({res.method}):")
    e("  " + "  ".join(f"k={r['k']}: {r['p']:.1%} ± {1.96 * r['se']:.1%}" for r in res.reach))
