"""``binokel play``: deal one random deal and play it out, trick by trick (R6-R8)."""
from __future__ import annotations

import click

from analyzer.mechanics.cards import current_notation, tapp_word
import numpy as np

from analyzer import Hand, Suit, melds, play_deal, score_deal
from analyzer.mechanics.cards import Card
from analyzer.search.partner_deals import play_partners_deal
from analyzer.errors import BinokelError
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.sampling import deal_rules, new_deck
from analyzer.bounds import SEED

from .common import (BadInput, bounded, cards_option, echo_json, example_epilog, has_stock,
                     rules_option_with_stock)
from .main import cli

SEAT_NAMES = ("forehand", "middlehand", "rearhand")


def _parse_seat(text: str) -> int | None:
    key = text.strip().lower()
    if key in ("none", "-", "no"):
        return None
    for i, name in enumerate(SEAT_NAMES):
        if key in (str(i), name, name[:2], name[0]):
            return i
    raise BadInput(f"--soloist: unknown seat {text!r}: use 0 1 2, forehand, middlehand, "
                   "rearhand or none")


@cli.command(
    "play",
    epilog=example_epilog(
        "binokel play --seed 7   # a whole deal: auction, exchange, play, score",
        "binokel play --seed 7 --policy random --trump H --soloist middlehand --bid 200",
        "binokel play --seed 3 --trump durch --soloist 0 --json",
        "binokel play --seed 7 --rules binokel-40",
        "binokel play --seed 7 --rules kreuz-48 --soloist 1 --trump H --bid 200",
        "binokel play --seed 2 --rules pinochle-80 --soloist 3 --bid 550 --json",
        "binokel play --seed 7 --rules binokel-2",
    ),
)
@click.option("--seed", type=bounded(SEED), default=0, show_default=True,
              help="Seed for the deal and the random policy.")
@click.option("--policy", type=click.Choice(["heuristic", "heuristic-v1", "random"]),
              default="heuristic", show_default=True,
              help="Play policy for all seats (team games: the team policy; heuristic-v1, "
                   "the first heuristic before issue 12's defence: three-player games).")
@click.option("--trump", "-t", default=None,
              help="Trump suit (C, S, H, D or ♣ ♠ ♥ ♦), or 'durch' (no trump, R4). With "
                   "--trump, --soloist or --bid the deal is played without auction or "
                   "exchange (the Dabb as the discard; default trump S, soloist 0); with none "
                   "of them, a whole deal as the simulations play it.")
@click.option("--soloist", default=None,
              help="Soloist seat: 0/forehand, 1/middlehand, 2/rearhand, or none "
                   "(default 0 when --trump or --bid is given). "
                   "Team games: 0-3 (partners 0+2, 1+3) or none.")
@click.option("--bid", type=int, default=None,
              help="Soloist's bid for the score (default: the opening bid, R3).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--record", "record", type=click.Path(dir_okay=False), default=None,
              help="Also write the deal as a deal record to FILE (docs/guide/records.md; "
                   "read it with `binokel hint --record FILE`).")
@cards_option
@rules_option_with_stock
@click.pass_context
def play_command(ctx, seed, policy, trump, soloist, bid, as_json, rules, record=None):
    """Deal one random deal (15/15/15/3; 12/12/12/4 in binokel-40) and play all tricks;
    print every trick, the card points and the scores (R6-R8; the variant's duties,
    rounding and Durch values, V2, V5).

    Without --soloist, --trump and --bid: a whole deal as `binokel simulate --what deals`
    plays it: the rule-of-thumb bidders' auction (R3, V1, V2.2, V6.2), the buyer's
    exchange (discard, trump, going out or Durch, R4), the play and the score, printed as
    a deal record (docs/guide/records.md); a deal nobody bids for is thrown in.

    With any of them: that contract, without auction or exchange.  Play starts with
    forehand (in a Durch with the soloist); the soloist is taken to have put the Tapp
    cards back as the discard, so their points count for the soloist (R7) and the three
    card-point totals add up to 250.
    """
    if has_stock(rules):   # V7: no auction, no soloist, trump turned; a trick log with draws
        from .stock_views import explicit, play_stock

        extra = explicit(ctx, "trump", "soloist", "bid")
        if extra:
            raise BadInput(f"--{extra[0]}: {rules.name} has no auction and no soloist; trump "
                           "is the turned card (V7.1)")
        return play_stock(seed, policy, as_json, rules, record)
    if trump is None and soloist is None and bid is None:
        return _play_whole(seed, policy, as_json, rules, record)
    trump = "S" if trump is None else trump
    soloist = "0" if soloist is None else soloist
    if getattr(rules, "teams", False):
        return _play_team(seed, policy, trump, soloist, bid, as_json, rules, record)
    seat = _parse_seat(soloist)
    durch = trump.strip().lower() in ("durch", "none", "no")
    try:
        suit = None if durch else Suit.parse(trump)
    except BinokelError as exc:
        raise BadInput(f"--trump: {exc}") from None
    if durch and seat is None:
        raise BadInput("--trump durch needs a soloist (R4)")
    if durch and rules.durch_value <= 0:
        raise BadInput(f"--trump durch: {rules.name} has no Durch (V5.7)")
    if bid is None:
        bid = rules.bid_start
    if bid < rules.bid_start or (bid - rules.bid_start) % rules.bid_step:
        raise BadInput(f"--bid: {bid} is no valid bid ({rules.bid_start}, "
                       f"{rules.bid_start + rules.bid_step}, ... R3)")
    out = np.zeros(4, dtype=np.int64)
    deal_rules(chunk_state(seed, 0), new_deck(rules), rules.kernel, out)
    hands = [Hand.from_mask(int(m)) for m in out[:3]]
    tapp = Hand.from_mask(int(out[3]))
    rec = play_deal(hands, suit, policy=policy, seed=seed, soloist=seat, rules=rules)
    tapp_points = sum(rules.card_points[c.id % 6] for c in tapp.cards())
    meld_totals = [0, 0, 0] if durch else [melds(h, suit, rules).total for h in hands]
    card_points = list(rec.points)
    score = None
    if seat is not None:
        card_points[seat] += tapp_points
        score = score_deal(seat, bid, rec.points, rec.tricks_won, meld_totals,
                           discard_points=tapp_points, kind="durch" if durch else "normal",
                           rules=rules)
    if record:
        _write_record(record, rules, seed, policy, seat, None if durch else suit.index, bid)
    if as_json:
        d = rec.to_dict()
        d.update({"rules": rules.name, "seed": seed, "tapp": tapp.codes(rules.low_card),
                  "tapp_points": tapp_points,
                  "card_points": card_points, "melds": meld_totals, "bid": bid,
                  "scores": list(score.scores) if score else None})
        echo_json(d)
        return
    tname = "Durch (no trump)" if durch else f"trump {suit.symbol} {suit.value}"
    role = {seat: " (soloist)"} if seat is not None else {}
    click.echo(f"{rules.name}, seed {seed}, {tname}, policy {policy}")
    for i, h in enumerate(hands):
        click.echo(f"  {i} {SEAT_NAMES[i]:<10}{role.get(i, ''):<11} {h.show(rules.low_card)}")
    click.echo(f"  {tapp_word():<21} {tapp.show(rules.low_card)}  ({tapp_points} points"
               f"{', counted for the soloist' if seat is not None else ', out of play'})")
    click.echo("")
    w = 17 if current_notation() == "de" else 11  # "Schellen-König*<"
    click.echo(f"{'trick':>5}  {'leader':<10}  " + "  ".join(f"{n:<{w}}" for n in SEAT_NAMES)
               + f"  {'winner':<10}  {'points':>6}")
    for i, t in enumerate(rec.tricks, 1):
        cells = [""] * 3
        for k, c in enumerate(t.cards):
            p = t.seat_of(k)
            mark = "*" if k == 0 else ""
            mark += "<" if p == t.winner else ""
            shown = f"7{c.suit.symbol}" if rules.low_card == "7" and c.id % 6 == 5 else f"{c}"
            cells[p] = f"{shown}{mark}"
        click.echo(f"{i:>5}  {SEAT_NAMES[t.leader]:<10}  " + "  ".join(f"{x:<{w}}" for x in cells)
                   + f"  {SEAT_NAMES[t.winner]:<10}  {t.points:>6}")
    click.echo(f"(* led card, < winning card; the last trick's points include the last-trick "
               f"{rules.last_trick_bonus})")
    if len(rec.tricks) < rules.hand_size:
        click.echo(f"Durch lost: play ended after trick {len(rec.tricks)} (R4)")
    click.echo("")
    click.echo(f"{'seat':<22}{'tricks':>7}{'card pts':>10}{'melds':>7}{'score':>8}")
    for p in range(3):
        sc = f"{score.scores[p]:>8}" if score else f"{'':>8}"
        click.echo(f"{p} {SEAT_NAMES[p]:<10}{role.get(p, ''):<10}{rec.tricks_won[p]:>7}"
                   f"{card_points[p]:>10}{meld_totals[p]:>7}{sc}")
    click.echo(f"{'total':<22}{sum(rec.tricks_won):>7}{sum(card_points):>10}")
    if score:
        if durch:
            verdict = "made" if score.made else "lost"
            click.echo(f"Durch {verdict}: soloist {score.scores[seat]:+d} (R4)")
        else:
            verdict = "made" if score.made else "failed"
            click.echo(f"bid {bid}: soloist total {score.totals[seat]} (melds count only with "
                       f"a trick, R8): contract {verdict}, scores {score.scores[seat]:+d}")


def _play_whole(seed, policy, as_json, rules, record) -> None:
    """A whole deal as the simulations play it (analyzer.search.record_play.full_record):
    auction, exchange, play and score, printed as its deal record (or ``--json``)."""
    from analyzer.mechanics.cards import card_code
    from analyzer.mechanics.record import format_deal, format_records
    from analyzer.search.record_play import full_record

    src = f"binokel play --rules {rules.name} --seed {seed} --policy {policy}"
    try:
        deal = full_record(rules.name, seed=seed, policy=policy, source=src)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    if record:
        try:
            with open(record, "w", encoding="utf-8") as f:
                f.write(format_records([deal]))
        except OSError as exc:
            raise BadInput(f"--record: cannot write {record}: {exc.strerror}") from None
    low = deal.rules.deck.low_card

    def codes(counts):
        return None if counts is None else [card_code(t, low) for t in range(len(counts))
                                            for _ in range(counts[t])]

    if as_json:
        echo_json({"rules": rules.name, "seed": seed, "policy": policy,
                   "hands": [codes(h) for h in deal.hands], "dabb": codes(deal.dabb),
                   "auction": [[s, c] for s, c in deal.auction], "soloist": deal.soloist,
                   "bid": deal.bid, "discard": codes(deal.discard), "contract": deal.contract,
                   "melds": deal.melds,
                   "tricks": [{"leader": ld, "cards": [card_code(c, low) for c in cards]}
                              for ld, cards in deal.tricks],
                   "card_points": deal.points, "tricks_won": deal.won, "scores": deal.score,
                   "record": format_deal(deal)})
        return
    click.echo(f"# {rules.name}, seed {seed}, policy {policy}: a whole deal as `binokel "
               "simulate --what deals` plays it (auction, exchange, play, score)")
    click.echo(format_deal(deal))


def _write_record(path, rules, seed, policy, seat, trump, bid) -> None:
    """The played deal as a deal record (analyzer.search.record_play: the same seeded
    functions as this command, so the record holds exactly the deal printed)."""
    from analyzer.mechanics.record import format_records
    from analyzer.search.record_play import play_record

    src = (f"binokel play --rules {rules.name} --seed {seed} --policy {policy} --soloist "
           f"{'none' if seat is None else seat} --trump "
           f"{'durch' if trump is None else Suit.parse('CSHD'[trump]).value} --bid {bid}")
    try:
        deal = play_record(rules.name, seed=seed, policy=policy, soloist=seat, trump=trump,
                           bid=bid, source=src)
        with open(path, "w", encoding="utf-8") as f:
            f.write(format_records([deal]))
    except OSError as exc:
        raise BadInput(f"--record: cannot write {path}: {exc.strerror}") from None


def _play_team(seed, policy, trump, soloist, bid, as_json, rules, record=None):
    """``--rules`` of a team game: one deal of four hands (V1; analyzer.mechanics.game
    .play_partners_deal), trick by trick, with points, melds and scores per team."""
    key = soloist.strip().lower()
    if key in ("none", "-", "no"):
        seat = None
    elif key in ("0", "1", "2", "3"):
        seat = int(key)
    else:
        raise BadInput(f"--soloist: unknown seat {soloist!r}: use 0-3 (four players, V1) or none")
    durch = trump.strip().lower() in ("durch", "none", "no")
    try:
        suit = None if durch else Suit.parse(trump).index
        rec = play_partners_deal(rules, seed=seed, soloist=seat, trump=suit, bid=bid, policy=policy)
    except BinokelError as exc:
        raise BadInput(f"{exc}") from None
    if record:
        _write_record(record, rules, seed, policy, seat, suit, rec["bid"])
    low = rules.low_card

    def show(h):
        return h.show(low) if isinstance(h, Hand) else str(h)

    def codes(h):
        return h.codes(low) if isinstance(h, Hand) else h.codes()

    def card(c):
        return f"7{Card(c).suit.symbol}" if low == "7" and c % 6 == 5 else f"{Card(c)}"

    if as_json:
        d = dict(rec)
        d["hands"] = [codes(h) for h in rec["hands"]]
        d["dabb"] = codes(rec["dabb"]) if rules.tapp_size else None
        d["tricks"] = [{**t, "cards": [Card(c).code if c is not None else None for c in t["cards"]]}
                       for t in rec["tricks"]]
        if low == "7":
            d["tricks"] = [{**t, "cards": [c.replace("9", "7") if c else c for c in t["cards"]]}
                           for t in d["tricks"]]
        echo_json(d)
        return
    tname = "Durch (no trump)" if durch else f"trump {Suit.parse(trump).symbol}"
    click.echo(f"{rules.name}, seed {seed}, {tname}, policy {policy}, bid {rec['bid']}")
    for p, h in enumerate(rec["hands"]):
        role = " (soloist)" if p == seat else (" (partner)" if seat is not None and p == (seat + 2) % 4 else "")
        click.echo(f"  seat {p} team {p % 2}{role:<11} {show(h)}")
    if rules.tapp_size:
        click.echo(f"  {tapp_word():<22} {show(rec['dabb'])}  (taken as the soloist's discard: "
                   "its points count for the soloist's team)")
    click.echo("")
    w = 17 if current_notation() == "de" else 7
    click.echo(f"{'trick':>5}  {'leader':>6}  " + "  ".join(f"{'seat ' + str(p):<{w}}" for p in range(4))
               + f"  {'winner':>6}  {'points':>6}")
    for i, t in enumerate(rec["tricks"], 1):
        cells = []
        for p in range(4):
            c = t["cards"][p]
            mark = ("*" if p == t["leader"] else "") + ("<" if p == t["winner"] else "")
            cells.append(f"{card(c)}{mark}")
        click.echo(f"{i:>5}  {t['leader']:>6}  " + "  ".join(f"{x:<{w}}" for x in cells)
                   + f"  {t['winner']:>6}  {t['points']:>6}")
    click.echo(f"(* led card, < winning card; the last trick's points include the last-trick "
               f"{rules.last_trick_bonus})")
    if durch and not rec["durch_made"]:
        click.echo(f"Durch lost: play ended after trick {len(rec['tricks'])} (V4.6, R4)")
    click.echo("")
    click.echo(f"{'team':<14}{'tricks':>7}{'card pts':>10}{'melds':>7}{'score':>8}")
    for tm in range(2):
        sc = f"{rec['scores'][tm]:>8}" if rec["scores"] else f"{'':>8}"
        click.echo(f"{tm} (seats {tm}+{tm + 2}) {rec['tricks_won'][tm]:>7}{rec['points'][tm]:>10}"
                   f"{rec['melds'][tm]:>7}{sc}")
    if rec["scores"] and seat is not None:
        t = seat % 2
        click.echo(f"soloist's team {t}: {rec['scores'][t]:+d}"
                   + (" (Durch, V4.6)" if durch else f" at bid {rec['bid']} (V4.6, V5.7, V6.6)"))
