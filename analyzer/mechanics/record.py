"""The deal record: one played (or half-played) deal as plain text, for every game
(issue 27; format in docs/guide/records.md).

In the spirit of bridge's PBN: one tagged line per fact, ``#`` comments, many deals per
file separated by blank lines.  A record names its game (``Game``), so every check below
reads that game's :class:`~analyzer.mechanics.ruleset.RuleSet` (deck, table, auction,
Dabb, duties, scoring) and the one trick step (:mod:`analyzer.mechanics.trick`) for legal
cards and trick winners; nothing here tests a game's name.

:func:`parse_records` reads a whole file or raises one :class:`RecordError` naming the
line and the rule broken (nothing of a bad file is half-read); :func:`format_records`
writes records back, so ``format_records(parse_records(text)) == text`` for any record the
writer wrote.  A hand, the Dabb or the discard may be ``?`` (hidden: what one player saw);
the checks then use what is known (copies in the deck, voids proven by the play, R6).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from analyzer.errors import BinokelError, RecordError, clip_input
from analyzer.mechanics.cards import N_TYPES, SUIT_LETTERS, CardError, Suit, card_code, parse_cards
from analyzer.mechanics.record_lines import fail, seat_index
from analyzer.mechanics.ruleset import RuleSet, get_game
from analyzer.mechanics.trick import add_card, legal, proves, relief_of, sides_of

#: the contract words besides a trump suit (R4; V2.7 the open Durch)
DURCH, OPEN_DURCH, OUT = "durch", "open-durch", "out"
#: tags in the order the writer writes them
TAGS = ("Game", "Source", "Seats", "Dealer", "Hand", "Dabb", "Auction", "Soloist", "Bid",
        "Discard", "Contract", "Melds", "Trick", "Points", "Won", "Score")
_REPEATED = ("Hand", "Trick")
PASS = 0


Counts = tuple  # 24 ints: copies of each card type (cards.py's type ints)


@dataclass(frozen=True)
class Deal:
    """One deal as a record holds it (docs/guide/records.md).

    ``hands``: per table seat the counts (24 ints) of the cards dealt, ``None`` when
    hidden or when the seat sits out (V3).  ``dabb``/``discard``: counts or ``None``
    (hidden, or the game has no Dabb).  ``auction``: ``(seat, bid)`` pairs in order, bid 0 =
    pass; ``None`` = not recorded.  ``contract``: a suit letter (C S H D), ``"durch"``,
    ``"open-durch"``, ``"out"`` (going out, R4) or ``None``.  ``tricks``: ``(leader,
    cards in play order)``; only the last may be short (a deal in progress).  ``melds``,
    ``points``, ``won``, ``score``: one value per scoring unit (each seat in play where
    the game has a soloist against the rest, each team where it has partners), ``None`` =
    not recorded.
    """

    rules: RuleSet
    seats: tuple[str, ...]
    hands: tuple
    dabb: Counts | None = None
    auction: tuple | None = None
    soloist: int | None = None
    bid: int | None = None
    discard: Counts | None = None
    contract: str | None = None
    melds: tuple | None = None
    tricks: tuple = ()
    points: tuple | None = None
    won: tuple | None = None
    score: tuple | None = None
    source: str = ""
    comments: tuple[str, ...] = field(default=(), compare=False)

    # ---- what the record implies

    @property
    def trump(self) -> int:
        """Trump suit 0..3, or -1 (a Durch or no contract: no trump)."""
        if self.contract and self.contract in SUIT_LETTERS:
            return SUIT_LETTERS.index(self.contract)
        return -1

    @property
    def in_play(self) -> tuple[int, ...]:
        return in_play_seats(self.rules)

    def units(self) -> int:
        """Scoring units: teams where the game has partners, else the seats in play."""
        return 2 if self.rules.table.sides == "partners" else self.rules.table.in_play

    def play_hands(self) -> list:
        """Counts per table seat held at the first lead (the soloist's after the exchange,
        R4), ``None`` where not known."""
        out = [None if h is None else list(h) for h in self.hands]
        s = self.soloist
        if s is not None and self.rules.dabb.size and out[s] is not None:
            if self.dabb is None or self.discard is None:
                out[s] = None
            else:
                out[s] = [a + b - c for a, b, c in zip(out[s], self.dabb, self.discard)]
        return out

    def complete(self) -> bool:
        """Every trick of the deal is in the record (a lost Durch ends early, R4)."""
        if self.contract == OUT:
            return True
        if not self.tricks or len(self.tricks[-1][1]) < self.rules.table.in_play:
            return False
        if len(self.tricks) == self.rules.table.hand_size:
            return True
        return self.contract in (DURCH, OPEN_DURCH) and self.winners()[-1] != self.soloist

    def winners(self) -> list[int]:
        """The winner of each complete trick (R6, the one trick step)."""
        k = self.rules.kernel
        out = []
        for leader, cards in self.tricks:
            if len(cards) < self.rules.table.in_play:
                break
            ls, wc, ws, lh = -1, -1, -1, -1
            seat = leader
            for c in cards:
                ls, wc, ws, lh = add_card(c, seat, ls, wc, ws, lh, self.trump, k.beat)
                seat = int(k.next_seat[seat])
            out.append(int(ws))
        return out


def in_play_seats(rules: RuleSet) -> tuple[int, ...]:
    """Table seats that play each deal, in seat order (V3: the dealer sits out)."""
    out = rules.kernel.sits_out
    return tuple(s for s in range(rules.table.seats) if not out[s])


def counts_of(cards) -> Counts:
    c = [0] * N_TYPES
    for x in cards:
        c[int(x)] += 1
    return tuple(c)


# --------------------------------------------------------------------------- writing

def _cards_text(counts, low: str) -> str:
    if counts is None:
        return "?"
    return " ".join(card_code(t, low) for t in range(N_TYPES) for _ in range(counts[t])) or "-"


def format_deal(deal) -> str:
    """The record text of one deal (no trailing blank line); a deal of a game with a
    stock is written by :mod:`analyzer.mechanics.stock_record` (V7)."""
    r = deal.rules
    if r.stock.size:
        from analyzer.mechanics.stock_record import format_stock

        return format_stock(deal)
    low = r.deck.low_card
    lines = [f"# {c}" if c else "#" for c in deal.comments]
    lines.append(f"Game {r.name}")
    if deal.source:
        lines.append(f"Source {deal.source}")
    lines.append("Seats " + " ".join(deal.seats))
    lines.append(f"Dealer {deal.seats[r.table.seats - 1]}")
    for s in deal.in_play:
        lines.append(f"Hand {s} {_cards_text(deal.hands[s], low)}")
    if r.dabb.size:
        lines.append(f"Dabb {_cards_text(deal.dabb, low)}")
    if deal.auction is not None:
        lines.append("Auction " + (" ".join(f"{s}:{'pass' if b == PASS else b}"
                                            for s, b in deal.auction) or "-"))
    if deal.soloist is not None:
        lines.append(f"Soloist {deal.soloist}")
    if deal.bid is not None:
        lines.append(f"Bid {deal.bid}")
    if r.dabb.size and deal.soloist is not None and (deal.discard is not None or deal.contract):
        lines.append(f"Discard {_cards_text(deal.discard, low)}")
    if deal.contract is not None:
        lines.append(f"Contract {deal.contract}")
    for tag, vals in (("Melds", deal.melds),):
        if vals is not None:
            lines.append(f"{tag} " + " ".join(str(v) for v in vals))
    for i, (leader, cards) in enumerate(deal.tricks, 1):
        lines.append(f"Trick {i} {leader} " + " ".join(card_code(c, low) for c in cards))
    for tag, vals in (("Points", deal.points), ("Won", deal.won), ("Score", deal.score)):
        if vals is not None:
            lines.append(f"{tag} " + " ".join(str(v) for v in vals))
    return "\n".join(lines)


def format_records(deals) -> str:
    """Record text of many deals: one block each, separated by a blank line."""
    return "\n\n".join(format_deal(d) for d in deals) + "\n"


# --------------------------------------------------------------------------- reading


def parse_records(text: str, where: str = "") -> list[Deal]:
    """Every deal of a record file, checked; raises :class:`RecordError` (one line:
    ``[where: ]line N: what is wrong (rule)``) on the first bad line: nothing is returned
    of a file with a bad record.  ``where``: the file's name for the message."""
    pre = f"{where}: " if where else ""
    deals: list[Deal] = []
    block: list[tuple[int, str]] = []
    lines = text.splitlines()
    for n, raw in enumerate(lines + [""], 1):
        if raw.strip() == "":
            if any(not t.lstrip().startswith("#") for _, t in block):
                deals.append(_parse_block(block, pre))
                block = []
            elif block and n <= len(lines):
                block.append((n, raw))   # comments before a blank line stay with the next deal
            continue
        block.append((n, raw))
    if not deals:
        raise RecordError(f"{pre}no deal in the record (a deal starts with a Game line)")
    return deals


def _ints(rest: str, n: int, tag: str, pre: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in rest.split())
    except ValueError:
        fail(n, f"{tag}: whole numbers expected, got {clip_input(rest)!r}", pre)


def _cards(rest: str, rules: RuleSet, n: int, tag: str, pre: str):
    """Counts of a card list, or None for ``?``; cards outside the deck fail (R1, V1)."""
    rest = rest.strip()
    if rest == "?":
        return None
    if rest in ("-", ""):
        return tuple([0] * N_TYPES)
    try:
        cards = parse_cards(rest, _DeckView(rules))
    except CardError as exc:
        fail(n, f"{tag}: {exc}", pre)
    return counts_of(c.id for c in cards)


class _DeckView:
    """What cards.parse_cards reads of a game: its low card and name."""

    def __init__(self, rules: RuleSet):
        self.low_card, self.name = rules.deck.low_card, rules.name


def _stock_tags() -> tuple:
    from analyzer.mechanics.stock_record import STOCK_TAGS

    return STOCK_TAGS


def _parse_block(block, pre: str) -> Deal:
    comments = []
    tagged: list[tuple[int, str, str]] = []
    for n, raw in block:
        s = raw.strip()
        if s.startswith("#"):
            if tagged:
                continue       # a comment inside a deal is read and dropped
            comments.append(s[1:].strip())
            continue
        tag, _, rest = s.partition(" ")
        if tag not in TAGS and tag not in _stock_tags():
            fail(n, f"unknown tag {clip_input(tag)!r}: use one of {', '.join(TAGS)}", pre)
        tagged.append((n, tag, rest.strip()))
    n0, tag0, name = tagged[0]
    if tag0 != "Game":
        fail(n0, "a deal starts with its Game line (the rules' name, `binokel rules`)", pre)
    try:
        rules = get_game(name)
    except BinokelError as exc:
        fail(n0, f"Game: {exc}", pre)
    if rules.stock.size:         # a stock (V7): moves, melds and draws of its own
        from analyzer.mechanics.stock_record import parse_block

        return parse_block(tagged, rules, comments, pre)
    for n, tag, _ in tagged:
        if tag not in TAGS:
            fail(n, f"unknown tag {clip_input(tag)!r}: use one of {', '.join(TAGS)}", pre)
    seen: dict[str, int] = {}
    last_order = -1
    for n, tag, _ in tagged:
        if tag in seen and tag not in _REPEATED:
            fail(n, f"a second {tag} line (the first is line {seen[tag]})", pre)
        order = TAGS.index(tag)
        if order < last_order:
            fail(n, f"{tag} comes before {TAGS[last_order]} (tags in the order "
                     f"{', '.join(TAGS)})", pre)
        last_order = order
        seen.setdefault(tag, n)
    t = rules.table
    seats = t.seat_names
    hands: list = [None] * t.seats
    have_hand = [False] * t.seats
    vals: dict = {}
    tricks = []
    trick_lines = []
    lines_of: dict[str, int] = {}
    for n, tag, rest in tagged[1:]:
        lines_of.setdefault(tag, n)
        if tag == "Source":
            vals["source"] = rest
        elif tag == "Seats":
            names = tuple(rest.split())
            if len(names) != t.seats:
                fail(n, f"Seats: {len(names)} names for the {t.seats} seats of {rules.name} (R2)", pre)
            if len(set(x.lower() for x in names)) != len(names) or any(x.isdigit() for x in names):
                fail(n, "Seats: the names must differ and not be seat numbers", pre)
            seats = names
        elif tag == "Dealer":
            if seat_index(rest, seats, n, pre, "R2") != t.seats - 1:
                fail(n, f"Dealer: seats are numbered from the dealer's left, so the dealer is "
                         f"the last seat, {seats[-1]} (R2)", pre)
        elif tag == "Hand":
            who, _, cards = rest.partition(" ")
            s = seat_index(who, seats, n, pre, "R2")
            if s not in in_play_seats(rules):
                fail(n, f"Hand: seat {s} sits out each deal and holds no cards (V3)", pre)
            if have_hand[s]:
                fail(n, f"Hand: a second hand for seat {s}", pre)
            have_hand[s] = True
            lines_of[f"Hand {s}"] = n
            hands[s] = _cards(cards, rules, n, "Hand", pre)
            if hands[s] is not None and sum(hands[s]) != t.hand_size:
                fail(n, f"Hand: seat {s} holds {sum(hands[s])} cards; {rules.name} deals "
                         f"{t.hand_size} (R2)", pre)
        elif tag == "Dabb":
            if not rules.dabb.size:
                fail(n, f"Dabb: {rules.name} has no Dabb", pre)
            vals["dabb"] = _cards(rest, rules, n, "Dabb", pre)
            if vals["dabb"] is not None and sum(vals["dabb"]) != rules.dabb.size:
                fail(n, f"Dabb: {sum(vals['dabb'])} cards; the Dabb of {rules.name} holds "
                         f"{rules.dabb.size} (R2)", pre)
        elif tag == "Auction":
            vals["auction"] = _parse_auction(rest, rules, seats, n, pre)
        elif tag == "Soloist":
            vals["soloist"] = seat_index(rest, seats, n, pre, "R2")
            if vals["soloist"] not in in_play_seats(rules):
                fail(n, f"Soloist: seat {vals['soloist']} sits out this deal (V3)", pre)
        elif tag == "Bid":
            b = _ints(rest, n, "Bid", pre)
            a = rules.auction
            if len(b) != 1 or b[0] < a.opening or (b[0] - a.opening) % a.step:
                fail(n, f"Bid: {clip_input(rest)} is no bid of {rules.name} ({a.opening}, "
                         f"{a.opening + a.step}, ... R3)", pre)
            vals["bid"] = b[0]
        elif tag == "Discard":
            if not rules.dabb.size:
                fail(n, f"Discard: {rules.name} has no Dabb, so no discard (R4)", pre)
            vals["discard"] = _cards(rest, rules, n, "Discard", pre)
            if vals["discard"] is not None and sum(vals["discard"]) != rules.dabb.size:
                fail(n, f"Discard: {sum(vals['discard'])} cards; the soloist discards as many "
                         f"as the Dabb holds, {rules.dabb.size} (R4)", pre)
        elif tag == "Contract":
            vals["contract"] = _parse_contract(rest, rules, n, pre)
        elif tag in ("Melds", "Points", "Won", "Score"):
            vals[{"Melds": "melds", "Points": "points", "Won": "won", "Score": "score"}[tag]] = \
                _ints(rest, n, tag, pre)
        elif tag == "Trick":
            parts = rest.split(None, 2)
            if len(parts) < 3:
                fail(n, "Trick: write the trick's number, its leader and the cards in play order",
                      pre)
            if not parts[0].isdigit() or int(parts[0]) != len(tricks) + 1:
                fail(n, f"Trick: trick {clip_input(parts[0])} where trick {len(tricks) + 1} "
                         "comes next (tricks in order)", pre)
            leader = seat_index(parts[1], seats, n, pre, "R2")
            try:
                cards = [c.id for c in parse_cards(parts[2], _DeckView(rules))]
            except CardError as exc:
                fail(n, f"Trick: {exc}", pre)
            tricks.append((leader, tuple(cards)))
            trick_lines.append(n)
    for s in in_play_seats(rules):
        if not have_hand[s]:
            fail(tagged[-1][0], f"no Hand line for seat {s} (write `Hand {s} ?` for a hidden "
                                 "hand)", pre)
    if rules.dabb.size and "dabb" not in vals:
        fail(tagged[-1][0], "no Dabb line (write `Dabb ?` when it was not seen)", pre)
    deal = Deal(rules=rules, seats=seats, hands=tuple(hands), dabb=vals.get("dabb"),
                auction=vals.get("auction"), soloist=vals.get("soloist"), bid=vals.get("bid"),
                discard=vals.get("discard"), contract=vals.get("contract"),
                melds=vals.get("melds"), tricks=tuple(tricks), points=vals.get("points"),
                won=vals.get("won"), score=vals.get("score"), source=vals.get("source", ""),
                comments=tuple(comments))
    check_deal(deal, lines_of, trick_lines, pre)
    return deal


def _parse_auction(rest, rules, seats, n, pre):
    calls = []
    if rest.strip() == "-":
        return ()
    for tok in rest.split():
        who, sep, call = tok.partition(":")
        if not sep:
            fail(n, f"Auction: write each call as seat:bid or seat:pass, not {clip_input(tok)!r}",
                  pre)
        s = seat_index(who, seats, n, pre, "R2")
        if s not in in_play_seats(rules):
            fail(n, f"Auction: seat {s} sits out this deal and does not bid (V3)", pre)
        if call.lower() in ("pass", "p", "-"):
            calls.append((s, PASS))
            continue
        if not call.isdigit():
            fail(n, f"Auction: cannot read call {clip_input(tok)!r}: a bid value or pass (R3)", pre)
        calls.append((s, int(call)))
    return tuple(calls)


def _parse_contract(rest, rules, n, pre):
    key = rest.strip().lower()
    s = rules.scoring
    if key == DURCH:
        if not s.durch:
            fail(n, f"Contract: {rules.name} has no Durch ({rules.section} drop R4's Durch)", pre)
        return DURCH
    if key == OPEN_DURCH:
        if not s.open_durch:
            fail(n, f"Contract: {rules.name} has no open Durch (V2.7 is not in {rules.section})", pre)
        return OPEN_DURCH
    if key == OUT:
        if not s.going_out_bonus:
            fail(n, f"Contract: {rules.name} has no going out ({rules.section} drop R4's surrender)",
                  pre)
        return OUT
    try:
        return Suit.parse(rest).value
    except BinokelError:
        fail(n, f"Contract: {clip_input(rest)!r}: use a trump suit (C S H D), durch, "
                 "open-durch or out (R4)", pre)


def _duty_rule(rules: RuleSet) -> str:
    """The rule section that states the game's play duties (R6 and the sections that
    change it: V5.6 beat the led suit / partner relief, V6.4 no overtrump)."""
    p = rules.play
    if p.beat == "trump-lead" or not p.overtrump:
        return "V6.4"
    if p.beat == "led-high" or p.partner_relief:
        return "V5.6"
    return "R6"


def check_deal(deal: Deal, lines_of: dict | None = None, trick_lines=None, pre: str = "") -> None:
    """Raise :class:`RecordError` when the record breaks a rule of its game.

    ``lines_of``: tag -> line number and ``trick_lines``: line of each trick, for the
    message (0 when the deal was not read from text).
    """
    r, k = deal.rules, deal.rules.kernel
    lines_of = lines_of or {}
    trick_lines = trick_lines or [0] * len(deal.tricks)

    def ln(tag):
        return lines_of.get(tag, 0)

    copies = [int(x) for x in k.copies]
    # R1: no more copies of a card than the deck has, over hands, Dabb and discard
    seen = [0] * N_TYPES
    parts = [(f"Hand {s}", h) for s, h in enumerate(deal.hands)] + [("Dabb", deal.dabb)]
    for tag, h in parts:
        if h is None:
            continue
        for c in range(N_TYPES):
            seen[c] += h[c]
            if seen[c] > copies[c]:
                fail(ln(tag), f"{tag.split()[0]}: {seen[c]} copies of "
                               f"{card_code(c, r.deck.low_card)} dealt; the deck has {copies[c]} (R1)",
                      pre)
    sol = deal.soloist
    if deal.contract in (DURCH, OPEN_DURCH, OUT) and sol is None:
        fail(ln("Contract"), f"Contract: {deal.contract} needs a Soloist line (R4)", pre)
    if deal.bid is not None and sol is None:
        fail(ln("Bid"), "Bid: a bid needs a Soloist line (R3)", pre)
    if deal.auction and r.auction.form == "duels" and r.table.in_play == 3:
        _check_duels(deal, ln("Auction"), pre)
    if deal.auction:
        bids = [(s, b) for s, b in deal.auction if b != PASS]
        a = r.auction
        last = 0
        for s, b in bids:
            if b < a.opening or (b - a.opening) % a.step or b <= last:
                fail(ln("Auction"), f"Auction: bid {b} of seat {s} is no raise (the bids are "
                                     f"{a.opening}, {a.opening + a.step}, ... each above the last, R3)",
                      pre)
            last = b
        if bids and sol is not None and bids[-1][0] != sol:
            fail(ln("Soloist"), f"Soloist: seat {sol}, but seat {bids[-1][0]} bid highest (R3)", pre)
        if bids and deal.bid is not None and deal.bid < bids[-1][1]:
            fail(ln("Bid"), f"Bid: {deal.bid} is below the auction's highest bid {bids[-1][1]} (R3)",
                  pre)
    if deal.discard is not None and sol is not None and deal.hands[sol] is not None \
            and deal.dabb is not None:
        for c in range(N_TYPES):
            if deal.discard[c] > deal.hands[sol][c] + deal.dabb[c]:
                fail(ln("Discard"), f"Discard: {card_code(c, r.deck.low_card)} is neither in the "
                                     "soloist's hand nor in the Dabb (R4)", pre)
    for tag, vals in (("Melds", deal.melds), ("Points", deal.points), ("Won", deal.won),
                      ("Score", deal.score)):
        if vals is not None and len(vals) != deal.units():
            unit = "teams" if r.table.sides == "partners" else "seats in play"
            fail(ln(tag), f"{tag}: {len(vals)} values for the {deal.units()} {unit} of "
                           f"{r.name} (one per scoring unit, R8)", pre)
    if deal.contract == OUT and deal.tricks:
        fail(trick_lines[0], "Trick: the soloist went out, so no card is played (R4)", pre)
    _check_play(deal, trick_lines, pre, ln)


def _check_duels(deal: Deal, line: int, pre: str) -> None:
    """R3 (V2.2): a chain of duels among three seats in play fixes who calls when; the
    record's seats must be those (bidding.validate_auction reads the game's opening,
    step and forced opening)."""
    from analyzer.mechanics.bidding import validate_auction
    from analyzer.mechanics.rules import get_rules

    try:
        st = validate_auction([b for _, b in deal.auction], get_rules(deal.rules.name))
    except BinokelError as exc:
        fail(line, f"Auction: {exc}", pre)
    seats = in_play_seats(deal.rules)
    for i, ((s, _), (q, _)) in enumerate(zip(deal.auction, st.calls), 1):
        if s != seats[q]:
            fail(line, f"Auction: call {i} is seat {seats[q]}'s turn, not seat {s}'s (R3)", pre)
    if st.finished and st.soloist is not None and deal.soloist is not None \
            and seats[st.soloist] != deal.soloist:
        fail(line, f"Auction: the auction makes seat {seats[st.soloist]} the soloist, not "
                    f"seat {deal.soloist} (R3)", pre)


def _check_play(deal: Deal, trick_lines, pre, ln) -> None:
    r, k = deal.rules, deal.rules.kernel
    low = r.deck.low_card
    trump = deal.trump
    sol = -1 if deal.soloist is None else deal.soloist
    side = np.zeros(r.table.seats, dtype=np.int64)
    sides_of(k.side_rule, k.sits_out, sol, side)
    hands = deal.play_hands()
    copies = [int(x) for x in k.copies]
    # cards whose place is known (known hands, Dabb, discard): a hidden seat holds none more
    known_out = [0] * N_TYPES
    for h in hands:
        if h is not None:
            for c in range(N_TYPES):
                known_out[c] += h[c]
    if deal.soloist is not None and r.dabb.size and deal.discard is not None:
        for c in range(N_TYPES):
            known_out[c] += deal.discard[c]
    elif deal.dabb is not None and deal.soloist is None:
        for c in range(N_TYPES):
            known_out[c] += deal.dabb[c]
    played_hidden = [0] * N_TYPES
    void = [0] * r.table.seats              # types a hidden seat was proven not to hold (R6)
    durch = deal.contract in (DURCH, OPEN_DURCH)
    n_play = r.table.in_play
    if deal.tricks and len(deal.tricks) > r.table.hand_size:
        fail(trick_lines[r.table.hand_size], f"Trick: {len(deal.tricks)} tricks; a deal of "
                                             f"{r.name} has {r.table.hand_size} (R2)", pre)
    leader_should = in_play_seats(r)[0]
    if durch or (r.play.first_lead == "bidder" and deal.soloist is not None):
        leader_should = sol
    rule = _duty_rule(r)
    for i, (leader, cards) in enumerate(deal.tricks):
        n = trick_lines[i]
        if leader != leader_should:
            why = ("the winner of the last trick leads (R6)" if i else
                   "in a Durch the soloist leads (R4)" if durch else
                   "the high bidder leads the first trick (V6.2)"
                   if r.play.first_lead == "bidder" and deal.soloist is not None
                   else "forehand leads the first trick (R6)")
            fail(n, f"Trick {i + 1}: seat {leader} leads, but seat {leader_should} must: {why}", pre)
        if len(cards) > n_play or (len(cards) < n_play and i + 1 < len(deal.tricks)):
            fail(n, f"Trick {i + 1}: {len(cards)} cards; every seat in play adds one, "
                     f"{n_play} (R6)", pre)
        if len(cards) < n_play and (deal.points or deal.won or deal.score):
            fail(n, f"Trick {i + 1}: {len(cards)} cards in a finished deal; every seat in "
                     f"play adds one, {n_play} (R6)", pre)
        ls, wc, ws, lh = -1, -1, -1, -1
        seat = leader
        for c in cards:
            name = card_code(c, low)
            h = hands[seat]
            if h is not None:
                if h[c] <= 0:
                    fail(n, f"Trick {i + 1}: seat {seat} plays {name}, which it does not hold "
                             "(or played already)", pre)
                lo = sum(1 << t for t in range(N_TYPES) if h[t] > 0)
                rel = relief_of(seat, ws, side, k.partner_relief)
                ok = legal(np.int64(lo), ls, wc, lh, trump, k.beat, k.follow, k.trump_duty,
                           k.beat_mode, k.overtrump, rel)
                if not (int(ok) >> c) & 1:
                    fail(n, f"Trick {i + 1}: seat {seat} may not play {name}: the duties "
                             f"({rule}) allow " + " ".join(card_code(t, low) for t in range(N_TYPES)
                                                          if (int(ok) >> t) & 1), pre)
                h[c] -= 1
            else:
                played_hidden[c] += 1
                if known_out[c] + played_hidden[c] > copies[c]:
                    fail(n, f"Trick {i + 1}: seat {seat} plays {name}, but all {copies[c]} "
                             "copies of the deck are elsewhere (a card played twice, R1)", pre)
                if (void[seat] >> c) & 1:
                    fail(n, f"Trick {i + 1}: seat {seat} plays {name}, which its earlier play "
                             f"proved it does not hold ({rule})", pre)
                if ls >= 0:
                    rel = relief_of(seat, ws, side, k.partner_relief)
                    void[seat] |= int(proves(c, ls, wc, lh, trump, k.beat, k.follow, k.trump_duty,
                                             k.beat_mode, k.overtrump, rel))
            ls, wc, ws, lh = add_card(c, seat, ls, wc, ws, lh, trump, k.beat)
            seat = int(k.next_seat[seat])
        leader_should = int(ws)
        if durch and len(cards) == n_play and ws != sol and i + 1 < len(deal.tricks):
            fail(trick_lines[i + 1], f"Trick {i + 2}: the Durch ended with trick {i + 1}, the "
                                     "first the soloist did not win (R4)", pre)
    if deal.won is not None and deal.complete():         # winners need no hidden card
        won = [0] * deal.units()
        for w in deal.winners():
            won[scoring_unit(deal, w)] += 1
        if list(deal.won) != won:
            fail(ln("Won"), f"Won: {' '.join(map(str, deal.won))}, but the tricks give "
                             f"{' '.join(map(str, won))} (R6)", pre)
    if deal.points is not None and deal.complete() and not durch and deal.contract != OUT:
        pts = _card_points(deal)
        if pts is not None and list(deal.points) != pts:
            fail(ln("Points"), f"Points: {' '.join(map(str, deal.points))}, but the tricks "
                                f"give {' '.join(map(str, pts))} (R7)", pre)
    _check_score(deal, ln("Score"), pre)


def _check_score(deal: Deal, line: int, pre: str) -> None:
    """R8 (R4 going out and Durch, V1 rounding, V2.7): the score of a complete deal where
    a soloist plays against the rest, recomputed by scoring.score_deal from the tricks,
    the melds, the bid and the discard (team scores are read as written)."""
    from analyzer.mechanics.rules import get_rules
    from analyzer.mechanics.scoring import score_deal

    r = deal.rules
    if (deal.score is None or deal.soloist is None or deal.bid is None or deal.contract is None
            or r.table.sides != "solo" or not deal.complete()):
        return
    kind = {DURCH: "durch", OPEN_DURCH: "open_durch", OUT: "surrender"}.get(deal.contract,
                                                                          "normal")
    if kind != "durch" and kind != "open_durch" and deal.melds is None:
        return
    if kind == "normal" and deal.discard is None:
        return
    k = r.kernel
    units = deal.units()
    pts = [0] * units
    won = [0] * units
    for i, ((_, cards), w) in enumerate(zip(deal.tricks, deal.winners())):
        p = sum(int(k.card_points[c]) for c in cards)
        if i + 1 == r.table.hand_size:
            p += r.points.last_trick
        pts[scoring_unit(deal, w)] += p
        won[scoring_unit(deal, w)] += 1
    disc = 0 if deal.discard is None else sum(int(k.card_points[c]) * deal.discard[c]
                                              for c in range(N_TYPES))
    melds = deal.melds if deal.melds is not None else (0,) * units
    sc = score_deal(scoring_unit(deal, deal.soloist), deal.bid, pts, won, melds, discard_points=disc,
                    kind=kind, rules=get_rules(r.name)).scores
    if list(deal.score) != list(sc):
        fail(line, f"Score: {' '.join(map(str, deal.score))}, but the deal scores "
                    f"{' '.join(map(str, sc))} (R8)", pre)


def scoring_unit(deal: Deal, seat: int) -> int:
    """Scoring unit of a seat: its team (partners) or its place among the seats in play."""
    if deal.rules.table.sides == "partners":
        return seat % 2
    return deal.in_play.index(seat)


def _card_points(deal: Deal):
    """Card points per scoring unit from the tricks (R7: the last trick's bonus; the
    discard counts for the soloist, R4), or None when the discard is hidden."""
    r, k = deal.rules, deal.rules.kernel
    pts = [0] * deal.units()
    for i, ((_, cards), w) in enumerate(zip(deal.tricks, deal.winners())):
        p = sum(int(k.card_points[c]) for c in cards)
        if i + 1 == r.table.hand_size:
            p += r.points.last_trick
        pts[scoring_unit(deal, w)] += p
    if deal.soloist is not None and r.dabb.size:
        if deal.discard is None:
            return None
        pts[scoring_unit(deal, deal.soloist)] += sum(int(k.card_points[c]) * deal.discard[c]
                                              for c in range(N_TYPES))
    return pts


def read_records(path: str) -> list[Deal]:
    """Every deal of the record file ``path`` (one-line RecordError on a bad one)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise RecordError(f"{path}: cannot read the record file: {exc.strerror}") from None
    return parse_records(text, where=str(path))


def hide(deal: Deal, seat: int) -> Deal:
    """The record as ``seat`` saw it: the other hands hidden; the Dabb stays (it is shown
    to everybody, R4); the discard hidden unless ``seat`` is the soloist (laid away face
    down, R4).  A stock game's: :func:`analyzer.mechanics.stock_record.hide` (V7)."""
    if deal.rules.stock.size:
        from analyzer.mechanics.stock_record import hide as hide_stock

        return hide_stock(deal, seat)
    hands = tuple(h if s == seat else None for s, h in enumerate(deal.hands))
    return replace(deal, hands=hands,
                   discard=deal.discard if deal.soloist == seat else None)


__all__ = ["Deal", "RecordError", "parse_records", "format_records", "format_deal",
           "read_records", "check_deal", "hide", "in_play_seats", "counts_of", "scoring_unit"]
