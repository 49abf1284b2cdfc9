"""``hint`` and ``review`` of a deal record of a game with a stock (``binokel-2``, V7):
the views of :mod:`analyzer.analyses.stock_hint`.  Called by hint_cmd / review_cmd when the
record's RuleSet has a stock (``common.has_stock``)."""
from __future__ import annotations

import click

from analyzer.errors import BinokelError

from .common import BadInput, echo_json

#: worlds per decision when -n is not given (a play-out ends in an exact 12-card solve)
HINT_WORLDS, REVIEW_WORLDS = 12, 4


def unused_options() -> None:
    """A note on stderr for --horizon / --dd-max-tricks typed with a stock game's record:
    its play-outs run to the stock's end and are exact after it (V7.4), so they do not
    apply (said, not silently dropped)."""
    from .stock_views import explicit

    given = explicit(click.get_current_context(), "horizon", "dd_max_tricks")
    if given:
        names = ", ".join("--" + g.replace("_", "-") for g in given)
        click.echo(f"note: {names} not used in a game with a stock: PIMC play-outs to the "
                   "stock's end, exact after it (V7.4)", err=True)


def _fmt(v, se, exact) -> str:
    if v is None:
        return ""
    return f"{v:.1f}" if exact else f"{v:.1f} ± {se:.1f}"


def hint_stock(rec, trick, card, meld, worlds, seed, as_json) -> None:
    """Every legal action of the decision asked for, from the player's view (V7)."""
    from analyzer.analyses.stock_hint import stock_hint

    if meld and trick is None:
        raise BadInput("--meld goes with --trick: the meld decision after that trick (V7.3)")
    if meld and card is not None:
        raise BadInput("--meld and --card: a meld decision comes after the trick's two cards")
    try:
        h = stock_hint(rec, trick, card, meld, HINT_WORLDS if worlds is None else worlds, seed)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    d = h.to_dict()
    if as_json:
        echo_json(d)
        return
    what = (f"the meld decision after trick {d['trick']} (it won the trick, V7.3)"
            if d["phase"] == "meld" else
            f"trick {d['trick']}, " + (f"reply to {d['table']}" if d["table"] else "lead"))
    click.echo(f"{d['rules']}: seat {d['seat']} to act, {what}; stock {d['stock_left']} "
               f"cards; points so far {d['points'][0]} to {d['points'][1]}")
    click.echo(f"  hand {' '.join(d['hand'])}")
    if d["opponent_shown"]:
        click.echo(f"  opponent shows {' '.join(d['opponent_shown'])}")
    if d["exact"]:
        click.echo("the stock is gone: both hands are known, every card valued exactly (V7.4)")
    else:
        click.echo(f"PIMC: {d['worlds']} worlds consistent with seat {d['seat']}'s view "
                   "(heuristic to the stock's end, exact after it)")
    w = max([8] + [len(a["action"]) for a in d["actions"]])
    pm = "" if d["exact"] else " ± SE"
    click.echo(f"{'action':<{w}}  {'own - opp' + pm:>16}  {'own' + pm:>14}")
    for a in d["actions"]:
        marks = ("  best" if a["action"] == d["best"] else "") + \
                ("  played" if a["action"] == d["played_in_record"] else "")
        if a["wins_game"]:
            click.echo(f"{a['action']:<{w}}  {'wins the game (V7.5)':>32}{marks}")
            continue
        click.echo(f"{a['action']:<{w}}  {_fmt(a['diff'], a['diff_se'], d['exact']):>16}  "
                   f"{_fmt(a['own'], a['own_se'], d['exact']):>14}{marks}")
    n = "exact" if d["exact"] else f"n = {d['worlds']} worlds per action"
    m = d["best_margin"]
    if m is not None and not d["exact"]:
        noisy = ("within 2 SE: these worlds do not tell them apart" if m["within_noise"] else
                 "on the worlds that chose it, so on the high side")
        click.echo(f"best by {m['margin']:.1f} ± {m['se']:.1f} over {m['over']} (paired, "
                   f"n = {m['n']}; {noisy})")
    click.echo(f"(points from here to the end of the deal: melds, Dissles, card points, last "
               f"trick, V7.3-V7.4; {n})")


def review_stock(rec, worlds, seed, top, from_trick, as_json) -> None:
    """Every decision of the record valued against the best from its player's view (V7)."""
    from analyzer.analyses.stock_hint import stock_review

    try:
        rv = stock_review(rec, REVIEW_WORLDS if worlds is None else worlds, seed, from_trick)
    except BinokelError as exc:
        raise BadInput(str(exc).replace("hint: ", "review: ", 1)) from None
    d = rv.to_dict()
    # the game's RuleSet has no auction (V7.1): the review says so, as the others' do
    from analyzer.analyses.bid_review import review_auction

    d["auction"], d["auction_note"] = [], review_auction(rec)[1]
    if as_json:
        echo_json(d)
        return
    click.echo(f"{d['rules']}: {len(d['decisions'])} decisions reviewed (plays and melds), "
               f"PIMC {d['worlds']} worlds each while the stock lasts, exact after it (V7.4)")
    click.echo(f"auction: {d['auction_note']}")
    click.echo(f"{'trick':>5} {'card':>4} {'seat':>4}  {'played':<28} {'best':<28} "
               f"{'loss ± SE':>13}")
    for x in d["decisions"][:top]:
        card = "meld" if x["phase"] == "meld" else str(x["card"])
        loss = f"{x['loss']:.1f}" + ("  exact" if x["exact"] else f" ± {x['loss_se']:.1f}")
        click.echo(f"{x['trick']:>5} {card:>4} {x['seat']:>4}  {x['played']:<28} "
                   f"{x['best']:<28} {loss:>13}")
    click.echo("")
    click.echo(f"{'seat':>4} {'decisions':>9} {'PIMC loss ± SE':>16} {'exact loss':>12}")
    for s, v in d["per_seat"].items():
        click.echo(f"{s:>4} {v['decisions']:>9} {v['pimc_loss']:>8.1f} ± {v['loss_se']:<5.1f} "
                   f"{v['exact_loss']:>7.0f} ({v['exact_decisions']})")
    click.echo(f"(loss: own minus opponent's points to the end of the deal given up against "
               f"the best action; PIMC n = {d['worlds']} worlds per decision, cross-fitted: "
               "the best chosen on half the worlds, the loss measured on the other half, so "
               "equal actions cost 0 on average and a loss may be negative; paired SE; "
               "exact decisions in brackets)")
