"""``play`` and ``melds`` for a game with a stock (``--rules binokel-2``, V7): a trick log
with the melds shown and the draws, and the meld orders of 12 cards.  Called by
play_cmd / melds_cmd when the RuleSet has a stock part (``common.has_stock``)."""
from __future__ import annotations

from types import SimpleNamespace

import click

from analyzer.errors import BinokelError
from analyzer.mechanics.cards import SUITS, Card, Suit, parse_cards

from .common import BadInput, echo_json


def card_text(c: int) -> str:
    """Physical card -> its name in the current notation, rank 5 written as the 7 (V1)."""
    from analyzer.mechanics.cards import SUIT_NAMES_DE, current_notation

    t = c // 2
    if t % 6 != 5:
        return f"{Card(t)}"
    return f"{SUIT_NAMES_DE[t // 6]}-Sieben" if current_notation() == "de" else f"7{Card(t).suit.symbol}"


def card_code(c: int) -> str:
    from analyzer.mechanics.stock_deal import card_name

    return card_name(c)


def _cards(mask_or_list) -> list[int]:
    from analyzer.mechanics.stock_deal import cards_of

    return cards_of(mask_or_list) if isinstance(mask_or_list, int) else list(mask_or_list)


def explicit(ctx, *names) -> list[str]:
    """The options among ``names`` the user typed (not defaults)."""
    from click.core import ParameterSource

    return [n for n in names if ctx.get_parameter_source(n) == ParameterSource.COMMANDLINE]


# ---------------------------------------------------------------- play

def play_stock(seed: int, policy: str, as_json: bool, game, record: str | None = None) -> None:
    """One deal of ``game`` from ``seed``, played by ``policy`` for both seats (V7.1-V7.4);
    ``record``: also write it as a deal record to that file (docs/guide/records.md)."""
    from analyzer.search.stock_registry import POLICIES, record_deal

    if policy not in POLICIES:
        raise BadInput(f"--policy: {game.name} is played by heuristic or random here, "
                       f"not {policy!r}")
    try:
        src = f"binokel play --rules {game.name} --seed {seed} --policy {policy}"
        rec, deal = record_deal(game, seed, (policy, policy), source=src, with_deal=True)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    if record is not None:
        write_record(record, [rec])
    tricks = _tricks(deal)
    names = game.table.seat_names
    start = _start_hands(deal)
    pts = [deal.points(s) for s in (0, 1)]
    if as_json:
        echo_json({
            "rules": game.name, "seed": seed, "policy": policy,
            "trump": "CSHD"[deal.trump], "turned": card_code(deal.turned),
            "hands": [[card_code(c) for c in h] for h in start],
            "tricks": [{k: v for k, v in t.items() if not k.startswith("_") and k != "draws_text"}
                       for t in tricks], "melds": [deal.melds_points(s) for s in (0, 1)],
            "card_points": [pts[s] - deal.melds_points(s) for s in (0, 1)],
            "points": pts,
        })
        return
    turned = deal.turned
    t_note = " (the turned 7: 10 for the dealer, V7.1)" if any(
        e[0] == "dissle turned" for e in deal.log) else ""
    click.echo(f"{game.name}, seed {seed}, policy {policy}; turned {card_text(turned)}: "
               f"trump {SUITS[deal.trump].symbol}{t_note}")
    for s in (0, 1):
        click.echo(f"  {s} {names[s]:<9} " + " ".join(card_text(c) for c in start[s]))
    click.echo("")
    w = max([9] + [len(card_text(c)) + 2 for t in tricks for c in t["_phys"]])
    click.echo(f"{'trick':>5}  {names[0]:<{w}} {names[1]:<{w}} {'winner':<9} {'pts':>4}  "
               f"{'meld shown by the winner':<32} {'draws (winner, other)':<22} {'stock':>5}")
    for i, t in enumerate(tricks, 1):
        cells = ["", ""]
        for k, (seat, code) in enumerate(t["cards"]):
            cells[seat] = card_text(t["_phys"][k]) + ("*" if k == 0 else "") + (
                "<" if seat == t["winner"] else "")
        meld = "" if t["meld"] is None else (f"{t['meld']['name']} {t['meld']['value']}: "
                                             + " ".join(t["meld"]["cards_text"]))
        if t["dissle"]:
            meld = (meld + "; " if meld else "") + "Dissle played 10"
        draws = " / ".join(t["draws_text"])
        click.echo(f"{i:>5}  {cells[0]:<{w}} {cells[1]:<{w}} {names[t['winner']]:<9} {t['points']:>4}  "
                   f"{meld:<32} {draws:<22} {t['stock']:>5}")
        if t["stock"] == 0 and t["draws"]:
            click.echo("       the stock is gone: shown cards go back to the hands; follow suit, "
                       "else trump, no duty to beat (V7.4)")
    click.echo("(* led card, < winning card; the last trick's points include the last-trick 10, V7.4)")
    click.echo("")
    click.echo(f"{'seat':<12}{'melds':>7}{'card pts':>10}{'deal':>7}")
    for s in (0, 1):
        m = deal.melds_points(s)
        click.echo(f"{s} {names[s]:<10}{m:>7}{pts[s] - m:>10}{pts[s]:>7}")
    click.echo("(melds include the Dissles; card points include the last trick; V7.4)")


def write_record(path: str, deals) -> None:
    """Write deal records to ``path`` atomically (a temporary file renamed: nothing
    half-written); one line on an unwritable path."""
    import os
    import tempfile

    from analyzer.mechanics.record import format_records

    text = format_records(deals)
    try:
        folder = os.path.dirname(os.path.abspath(path))
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".record-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        raise BadInput(f"--record: cannot write {path}: {exc.strerror}") from None


def _start_hands(deal):
    """The hands as dealt: the cards held at the start (from the log)."""
    hands = [set(deal.hand(0)), set(deal.hand(1))]
    for e in reversed(deal.log):
        if e[0] == "play":
            hands[e[1]].add(e[2])
        elif e[0] == "draw":
            hands[e[1]].discard(e[2])
    return [sorted(h, key=lambda c: (c // 2 // 6, c // 2 % 6, c)) for h in hands]


def _tricks(deal) -> list[dict]:
    """The log as tricks: cards (seat, code), winner, card points (the last trick's with
    its bonus), the meld the winner showed, the draws, the stock left after them."""
    from analyzer.mechanics import stock_play as sp

    pts = deal.r.params[sp.P_POINTS:sp.P_POINTS + 24]
    out: list[dict] = []
    stock = int(deal.r.params[sp.P_STOCK])
    for e in deal.log:
        if e[0] == "play":
            if not out or len(out[-1]["cards"]) == 2:
                out.append({"cards": [], "_phys": [], "winner": None, "points": 0, "meld": None,
                            "draws": [], "draws_text": [], "dissle": False, "stock": stock})
            out[-1]["cards"].append((e[1], card_code(e[2])))
            out[-1]["_phys"].append(e[2])
            out[-1]["points"] += int(pts[e[2] // 2])
        elif e[0] == "dissle played":
            out[-1]["dissle"] = True
        elif e[0] == "trick":
            out[-1]["winner"] = e[1]
        elif e[0] == "meld":
            cards = _cards(e[2])
            out[-1]["meld"] = {"name": e[3], "value": int(e[4]),
                               "cards": [card_code(c) for c in cards],
                               "cards_text": [card_text(c) for c in cards]}
        elif e[0] == "draw":
            stock -= 1
            out[-1]["draws"].append(card_code(e[2]))
            out[-1]["draws_text"].append(card_text(e[2]))
            out[-1]["stock"] = stock
    if out and out[-1]["winner"] is not None and deal.st[sp.LAST] >= 0:
        out[-1]["points"] += int(deal.r.params[sp.P_LAST_BONUS])
    return out


# ---------------------------------------------------------------- melds

def parse_stock_hand(text: str, game) -> list[int]:
    """12 card types of ``game``'s deck (V7.1): one line naming the problem otherwise."""
    deck = SimpleNamespace(low_card=game.deck.low_card, name=game.name)
    try:
        cards = parse_cards(text, deck)
    except BinokelError as exc:
        raise BadInput(f"hand: {exc}") from None
    types = [c.id for c in cards]
    for t in set(types):
        if types.count(t) > game.deck.copies:
            raise BadInput(f"hand: V7.1: {types.count(t)} copies of {card_code(2 * t)}; the deck "
                           f"holds {game.deck.copies} of each card")
    n = game.table.hand_size
    if len(types) != n:
        raise BadInput(f"hand: V7.1: a hand holds {n} cards in {game.name}, got {len(types)}")
    return types


def melds_stock(hand: str, trump, as_json: bool, game) -> None:
    """What 12 cards can meld in ``game`` (V7.3): per trump, the best order of melds shown
    one per won trick and what it is worth, and every meld that may come first with the
    best total of an order starting with it (order matters: a trump pair before its
    quint, a four blocks its eight)."""
    from analyzer.mechanics.stock_deal import rules_of
    from analyzer.search.stock_policies import first_meld_table, probe_state

    types = parse_stock_hand(hand, game)
    if trump:
        try:
            suits = [Suit.parse(trump).index]
        except BinokelError as exc:
            raise BadInput(f"--trump: {exc}") from None
    else:
        suits = [0, 1, 2, 3]
    r = rules_of(game)
    rows = []
    for s in suits:
        st = probe_state(game, types, s)
        table = first_meld_table(st, 0, r)
        best = table[0][3] if table else (0, ())
        rows.append({
            "trump": "CSHD"[s], "best_total": int(best[0]),
            "best_order": [{"meld": r.pat_names[s][p], "value": int(r.pat_value[s, p]),
                            "cards": [card_code(c) for c in _cards(m)]} for m, p in best[1]],
            "first_melds": [{"meld": r.pat_names[s][p], "value": int(v),
                             "cards": [card_code(c) for c in _cards(m)],
                             "best_total": int(tot[0])} for m, p, v, tot in table],
        })
    if as_json:
        echo_json({"rules": game.name, "hand": [card_code(2 * t) for t in sorted(types)],
                   "by_trump": rows})
        return
    text = " ".join(card_text(2 * t) for t in sorted(types, key=lambda t: (t // 6, t % 6)))
    click.echo(f"hand: {text}  ({game.name}: one meld per won trick, V7.3)")
    for row in rows:
        click.echo("")
        click.echo(f"trump {SUITS['CSHD'.index(row['trump'])].symbol}: best order worth "
                   f"{row['best_total']}")
        if not row["best_order"]:
            click.echo("  no meld")
            continue
        for i, m in enumerate(row["best_order"], 1):
            click.echo(f"  {i}. {m['meld']:<16} {m['value']:>5}  {' '.join(m['cards'])}")
        click.echo("  shown first         now  best total after it")
        for m in row["first_melds"]:
            click.echo(f"  {m['meld'] + ' ' + ' '.join(m['cards']):<28} {m['value']:>5}  {m['best_total']:>5}")


# ---------------------------------------------------------------- solve

def solve_stock(game, seed, tricks_left, as_json: bool, typed: list[str]) -> None:
    """``solve --rules GAME --seed N [--tricks-left K]`` for a game with a stock: the exact
    endgame (V7.4) of the seeded deal played by the heuristic (``play --seed N``) until the
    stock is gone, every legal card of the player to act valued
    (analyzer.analyses.stock_endgame).  ``typed``: the other solve options the user gave,
    as typed (``--trump``), refused in one line (they describe auction games: a soloist, a Dabb, open hands
    from the deal)."""
    from analyzer.analyses.stock_endgame import endgame_of_seed, solve_endgame

    if typed:
        raise BadInput(f"{', '.join(typed)}: not for "
                       f"{game.name} (no auction, no Dabb, V7); solve takes --seed N "
                       "[--tricks-left K]: the exact endgame once the stock is gone (V7.4); "
                       "for a deal you played: binokel hint RECORD")
    if seed is None:
        raise BadInput(f"nothing to solve: give --seed N (the deal `binokel play --rules "
                       f"{game.name} --seed N` shows, played to the stock's end, V7.4)")
    try:
        sol = solve_endgame(endgame_of_seed(game, seed, tricks_left), seed=seed)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    if as_json:
        echo_json(sol.to_dict())
        return
    names = game.table.seat_names
    click.echo(f"{game.name}, seed {seed}: the stock is gone, both hands are known (V7.4); "
               f"trump {sol.trump}, {sol.tricks_left} trick(s) left")
    for s in (0, 1):
        mark = "  to play" if s == sol.to_act else ""
        click.echo(f"  {s} {names[s]:<9} {sol.points[s]:>4} points so far   "
                   f"{sol.hands[s] or '-'}{mark}")
    if sol.table:
        click.echo(f"  on the table: {sol.table}")
    click.echo(f"exact values for seat {sol.to_act} ({names[sol.to_act]}), best play on both "
               "sides: points it still makes")
    click.echo("(tricks, last trick, Dissles); diff = its points minus the opponent's from here")
    click.echo(f"{'card':<6}{'points':>7}{'diff':>7}")
    for c, own, d in sol.values:
        click.echo(f"{c:<6}{own:>7}{d:>+7}" + ("  best" if c == sol.best else ""))
