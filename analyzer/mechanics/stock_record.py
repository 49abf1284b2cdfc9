"""The deal record of a game with a stock (``binokel-2``, docs/VARIANTS.md V7; the format:
docs/guide/records.md, "Games with a stock").

:mod:`analyzer.mechanics.record` reads a block's ``Game`` line and, when that RuleSet has
a stock (never by the game's name), hands the block to :func:`parse_block` here; its
writer hands a :class:`StockRecord` to :func:`format_stock`.  One parser, one file format.

What a stock deal adds to the tags: ``Before`` (the game score of each seat before the
deal, V7.5), ``Turned`` (the face-up trump card, V7.1), ``Stock`` (the 23 face-down cards,
top first, or ``?``), and moves in order: ``Trick N S C1 C2``, ``Meld S NAME VALUE: CARDS``
or ``Meld S -`` (the winner's meld or none, V7.3), ``Draw S:CARD S:CARD`` (only when the
stock is hidden: what one player saw of the draws, V7.2), ``Claim S`` (V7.5), ``Points``.

Cards are card types as everywhere; a card shown in a meld carries the kinds it was shown
in while the stock lasts (``KS/p``: the K♠ shown in a pair; letters d p q k b for Dissle,
pair, quint major, of a kind, binokel, V7.3), because the two copies then differ: the
other player sees which copy is played from the table.  Of two copies that do not differ
the first dealt is played (the engine's convention, ``stock_play.distinct_cards``).

Checking replays the record through the kernels (:class:`~analyzer.mechanics.stock_deal
.StockDeal`): a record with hidden cards is replayed in *one* world consistent with it
(:func:`world_order`: every card a hidden seat plays or shows is placed in its hand or
draws before it appears), so every rule is checked on the cards the record shows; the
world depends only on what the record shows.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from analyzer.errors import BinokelError, clip_input
from analyzer.mechanics import stock_play as sp
from analyzer.mechanics.cards import N_TYPES, CardError, card_code, parse_cards
from analyzer.mechanics.record_lines import fail, seat_index

#: kinds shown (stock_play's bits) <-> the letters of a shown card's suffix
KIND_LETTERS = ((sp.DISSLE_KIND, "d"), (sp.PAIR, "p"), (sp.QUINT, "q"), (sp.OF_A_KIND, "k"),
                (sp.BINOKEL, "b"))
#: tags of a stock record, in the order the writer writes them (moves repeat)
STOCK_TAGS = ("Game", "Source", "Seats", "Dealer", "Before", "Hand", "Turned", "Stock",
              "Trick", "Meld", "Draw", "Claim", "Points")
_MOVES = ("Trick", "Meld", "Draw")


@dataclass(frozen=True)
class StockRecord:
    """One deal of a stock game as a record holds it.

    ``hands``: per seat the counts (24 ints) dealt, or ``None`` (hidden).  ``turned``: the
    turned card's type.  ``stock``: the 23 face-down types top first, or ``None``.
    ``before``: the game score per seat before the deal (V7.5).  ``moves``, in order:
    ``("trick", leader, ((type, kinds), ...))`` (one or two cards; kinds = the meld kinds
    the card was shown in, 0 for a card from the hand), ``("meld", seat, name, value,
    ((type, kinds), ...))``, ``("pass", seat)``, ``("draw", ((seat, type|None), ...))``
    (only with a hidden stock).  ``claim``: the claimant or ``None``; ``points``: deal
    points per seat (V7.4) or ``None``.  ``lines``: the line of each move, for messages."""

    rules: object
    seats: tuple
    hands: tuple
    turned: int
    stock: tuple | None = None
    before: tuple = (0, 0)
    moves: tuple = ()
    claim: int | None = None
    points: tuple | None = None
    source: str = ""
    comments: tuple = field(default=(), compare=False)
    lines: dict = field(default_factory=dict, compare=False, repr=False)

    def stock_draws(self) -> int:
        """Draw pairs in a deal: the stock and the turned card, two a trick (V7.2); the
        second card of the last pair is the turned card."""
        return self.rules.stock.size // 2

    def complete(self) -> bool:
        """The deal is over: claimed, or the 24th trick is in the record (V7.4, V7.5)."""
        if self.claim is not None:
            return True
        tricks = [m for m in self.moves if m[0] == "trick"]
        return len(tricks) == 2 * self.rules.table.hand_size and len(tricks[-1][2]) == 2


def kinds_text(kinds: int) -> str:
    return "".join(ch for bit, ch in KIND_LETTERS if kinds & bit)


def token(t: int, kinds: int) -> str:
    """A card as the record writes it: ``KS``, or ``KS/p`` when shown in a pair."""
    return card_code(t, "7") + ("/" + kinds_text(kinds) if kinds else "")


# ----------------------------------------------------------------------------- writing

def _cards_text(counts) -> str:
    if counts is None:
        return "?"
    return " ".join(card_code(t, "7") for t in range(N_TYPES) for _ in range(counts[t]))


def format_stock(rec: StockRecord) -> str:
    """The record text of one stock deal (no trailing newline)."""
    r = rec.rules
    lines = [f"# {c}" if c else "#" for c in rec.comments]
    lines.append(f"Game {r.name}")
    if rec.source:
        lines.append(f"Source {rec.source}")
    lines.append("Seats " + " ".join(rec.seats))
    lines.append(f"Dealer {rec.seats[-1]}")
    if tuple(rec.before) != (0, 0):
        lines.append("Before " + " ".join(str(x) for x in rec.before))
    for s, h in enumerate(rec.hands):
        lines.append(f"Hand {s} {_cards_text(h)}")
    lines.append(f"Turned {card_code(rec.turned, '7')}")
    lines.append("Stock " + ("?" if rec.stock is None else
                             " ".join(card_code(t, "7") for t in rec.stock)))
    n = 0
    for m in rec.moves:
        if m[0] == "trick":
            n += 1
            lines.append(f"Trick {n} {m[1]} " + " ".join(token(t, k) for t, k in m[2]))
        elif m[0] == "meld":
            lines.append(f"Meld {m[1]} {m[2]} {m[3]}: " + " ".join(token(t, k) for t, k in m[4]))
        elif m[0] == "pass":
            lines.append(f"Meld {m[1]} -")
        elif m[0] == "draw":
            lines.append("Draw " + " ".join(f"{s}:{'?' if t is None else card_code(t, '7')}"
                                            for s, t in m[1]))
    if rec.claim is not None:
        lines.append(f"Claim {rec.claim}")
    if rec.points is not None:
        lines.append("Points " + " ".join(str(x) for x in rec.points))
    return "\n".join(lines)


# ----------------------------------------------------------------------------- reading

class _Deck:
    def __init__(self, rules):
        self.low_card, self.name = rules.deck.low_card, rules.name


def _types(text: str, rules, n: int, tag: str, pre: str) -> list[int]:
    try:
        return [c.id for c in parse_cards(text, _Deck(rules))]
    except CardError as exc:
        fail(n, f"{tag}: {exc}", pre)


def _token(tok: str, rules, n: int, tag: str, pre: str) -> tuple[int, int]:
    """``KS`` or ``KS/pk`` -> (type, kinds)."""
    card, _, suf = tok.partition("/")
    (t,) = _types(card, rules, n, tag, pre) or [None]
    kinds = 0
    for ch in suf.lower():
        bits = [b for b, c in KIND_LETTERS if c == ch]
        if not bits:
            fail(n, f"{tag}: {clip_input(tok)!r}: a shown card's kinds are letters of "
                    "d p q k b (Dissle, pair, quint major, of a kind, binokel; V7.3)", pre)
        kinds |= bits[0]
    return t, kinds


def parse_block(tagged, rules, comments, pre: str) -> StockRecord:
    """A :class:`StockRecord` from the tagged lines ``(line, tag, rest)`` of one block
    (the Game line first, read by record.py), checked by replaying it (:func:`replay`)."""
    seats = tuple(rules.table.seat_names)
    hands: list = [None, None]
    have = [False, False]
    turned = None
    stock: list | None = None
    have_stock = False
    before = (0, 0)
    moves: list = []
    mlines: list[int] = []
    claim = None
    points = None
    source = ""
    last = 0
    seen: dict[str, int] = {}
    lines: dict[str, int] = {}
    for n, tag, rest in tagged[1:]:
        if tag not in STOCK_TAGS:
            fail(n, f"unknown tag {clip_input(tag)!r} in a deal of {rules.name}: use one of "
                    f"{', '.join(STOCK_TAGS)} (a game with a stock, V7)", pre)
        order = STOCK_TAGS.index(tag)
        if tag in _MOVES:
            order = STOCK_TAGS.index("Trick")
        if order < last:
            fail(n, f"{tag} comes after {STOCK_TAGS[last]} (tags in the order "
                    f"{', '.join(STOCK_TAGS)}; Trick, Meld and Draw as they happen)", pre)
        last = order
        if tag in seen and tag not in _MOVES + ("Hand",):
            fail(n, f"a second {tag} line (the first is line {seen[tag]})", pre)
        seen.setdefault(tag, n)
        lines.setdefault(tag, n)
        if tag == "Source":
            source = rest
        elif tag == "Seats":
            names = tuple(rest.split())
            if len(names) != 2:
                fail(n, f"Seats: {len(names)} names for the 2 seats of {rules.name} (V7)", pre)
            if len({x.lower() for x in names}) != 2 or any(x.isdigit() for x in names):
                fail(n, "Seats: the names must differ and not be seat numbers", pre)
            seats = names
        elif tag == "Dealer":
            if seat_index(rest, seats, n, pre, "V7") != 1:
                fail(n, f"Dealer: forehand (seat 0) is the non-dealer, so the dealer is seat 1, "
                        f"{seats[1]} (V7)", pre)
        elif tag == "Before":
            try:
                before = tuple(int(x) for x in rest.split())
            except ValueError:
                before = ()
            if len(before) != 2 or min(before) < 0:
                fail(n, "Before: the game score of each seat before the deal, two whole "
                        "numbers >= 0 (V7.5)", pre)
        elif tag == "Hand":
            who, _, cards = rest.partition(" ")
            s = seat_index(who, seats, n, pre, "V7")
            if have[s]:
                fail(n, f"Hand: a second hand for seat {s}", pre)
            have[s] = True
            lines[f"Hand {s}"] = n
            if cards.strip() != "?":
                ts = _types(cards, rules, n, "Hand", pre)
                if len(ts) != rules.table.hand_size:
                    fail(n, f"Hand: seat {s} holds {len(ts)} cards; {rules.name} deals "
                            f"{rules.table.hand_size} (V7.1)", pre)
                hands[s] = tuple(ts.count(t) for t in range(N_TYPES))
        elif tag == "Turned":
            ts = _types(rest, rules, n, "Turned", pre)
            if len(ts) != 1:
                fail(n, "Turned: one card is turned face up as trump (V7.1)", pre)
            turned = ts[0]
        elif tag == "Stock":
            have_stock = True
            if rest.strip() != "?":
                stock = _types(rest, rules, n, "Stock", pre)
                size = rules.stock.size - 1
                if len(stock) != size:
                    fail(n, f"Stock: {len(stock)} cards; the stock holds {size} face down "
                            "besides the turned card (V7.1)", pre)
        elif tag == "Trick":
            parts = rest.split()
            k = sum(1 for m in moves if m[0] == "trick") + 1
            if len(parts) < 3 or len(parts) > 4:
                fail(n, "Trick: write the trick's number, its leader and its cards (one or "
                        "two, V7.2)", pre)
            if not parts[0].isdigit() or int(parts[0]) != k:
                fail(n, f"Trick: trick {clip_input(parts[0])} where trick {k} comes next "
                        "(tricks in order)", pre)
            if moves and moves[-1][0] == "trick" and len(moves[-1][2]) < 2:
                fail(n, f"Trick: trick {k - 1} has one card; each trick is one card from "
                        "each player (V7.2)", pre)
            cards = tuple(_token(x, rules, n, "Trick", pre) for x in parts[2:])
            moves.append(("trick", seat_index(parts[1], seats, n, pre, "V7"), cards))
            mlines.append(n)
        elif tag == "Meld":
            who, _, what = rest.partition(" ")
            s = seat_index(who, seats, n, pre, "V7")
            if what.strip() == "-":
                moves.append(("pass", s))
            else:
                head, sep, cards = what.partition(":")
                words = head.split()
                if not sep or len(words) < 2 or not words[-1].isdigit():
                    fail(n, "Meld: write `Meld SEAT NAME VALUE: CARDS` or `Meld SEAT -` for "
                            "none (V7.3)", pre)
                toks = tuple(_token(x, rules, n, "Meld", pre) for x in cards.split())
                moves.append(("meld", s, " ".join(words[:-1]), int(words[-1]), toks))
            mlines.append(n)
        elif tag == "Draw":
            ds = []
            for tok in rest.split():
                who, sep, c = tok.partition(":")
                if not sep:
                    fail(n, f"Draw: write each draw as seat:card or seat:?, not "
                            f"{clip_input(tok)!r}", pre)
                ds.append((seat_index(who, seats, n, pre, "V7"),
                           None if c == "?" else _types(c, rules, n, "Draw", pre)[0]))
            if len(ds) != 2:
                fail(n, "Draw: after a trick both players draw one card, the winner first "
                        "(V7.2)", pre)
            moves.append(("draw", tuple(ds)))
            mlines.append(n)
        elif tag == "Claim":
            claim = seat_index(rest, seats, n, pre, "V7")
        elif tag == "Points":
            try:
                points = tuple(int(x) for x in rest.split())
            except ValueError:
                points = ()
            if len(points) != 2:
                fail(n, "Points: the deal points of each seat, two whole numbers (V7.4)", pre)
    end = tagged[-1][0]
    for s in (0, 1):
        if not have[s]:
            fail(end, f"no Hand line for seat {s} (write `Hand {s} ?` for a hidden hand)", pre)
    if turned is None:
        fail(end, "no Turned line: the turned trump card is seen by both players (V7.1)", pre)
    if not have_stock:
        fail(end, "no Stock line (write `Stock ?` when it was not seen)", pre)
    lines["moves"] = tuple(mlines)
    rec = StockRecord(rules=rules, seats=seats, hands=tuple(hands), turned=turned,
                      stock=None if stock is None else tuple(stock), before=before,
                      moves=tuple(moves), claim=claim, points=points, source=source,
                      comments=tuple(comments), lines=lines)
    replay(rec, pre=pre)
    return rec


# ----------------------------------------------------------------------------- the world

def _trick_winner(leader: int, a: int, b: int, trump: int, beat) -> int:
    from analyzer.mechanics.trick import beats

    return 1 - leader if beats(b, a, trump, beat) else leader


def world_order(rec: StockRecord, pre: str = "") -> np.ndarray:
    """The 48 physical cards in deal order (``stock_play.deal_order``) of one deal
    consistent with the record; a hidden card is placed where the record needs it (a card
    a hidden seat plays or shows comes from its hand as dealt or a draw before it), the
    rest in card order.  Raises RecordError when no deal fits (V7.1)."""
    from analyzer.mechanics.stock_deal import rules_of

    r = rules_of(rec.rules)
    n_hand = rec.rules.table.hand_size
    n_stock = rec.rules.stock.size - 1
    lines = rec.lines.get("moves", ())
    trump = rec.turned // 6
    left = [2] * N_TYPES                  # copies not yet placed
    where = {}                            # slot -> type; slots ("h", s, i), ("s", pos)

    def take(t, line, what):
        if left[t] <= 0:
            fail(line, f"{what}: {card_code(t, '7')}, but both copies of the deck are "
                       "elsewhere (a card dealt or played twice, V7.1)", pre)
        left[t] -= 1

    for s in (0, 1):
        if rec.hands[s] is not None:
            i = 0
            for t in range(N_TYPES):
                for _ in range(rec.hands[s][t]):
                    take(t, rec.lines.get(f"Hand {s}", 0), "Hand")
                    where[("h", s, i)] = t
                    i += 1
    take(rec.turned, rec.lines.get("Turned", 0), "Turned")
    if rec.stock is not None:
        for i, t in enumerate(rec.stock):
            take(t, rec.lines.get("Stock", 0), "Stock")
            where[("s", i)] = t
    # the draws (who draws which stock position) and the reveals of hidden cards
    known = [[0] * N_TYPES for _ in (0, 1)]       # known cards held, per seat
    shown = [[0] * N_TYPES for _ in (0, 1)]       # of those, shown (while the stock lasts)
    for s in (0, 1):
        if rec.hands[s] is not None:
            known[s] = list(rec.hands[s])
    free: list[list] = [[] for _ in (0, 1)]       # unknown slots per seat: (time, slot)
    for s in (0, 1):
        if rec.hands[s] is None:
            free[s] = [(0, ("h", s, i)) for i in range(n_hand)]
    trick = 0
    leader = 0
    stock_gone = False
    pending = None           # (winner) of the last trick, its draws not yet seen
    reveals = []             # (time, seat, type, line)

    def draws_of(k, w):
        """Stock positions drawn after trick k (1-based) by the winner and the other."""
        a, b = 2 * (k - 1), 2 * (k - 1) + 1
        return ((w, a), (1 - w, b if b < n_stock else -1))     # -1: the turned card

    def do_draw(k, w, given=None):
        nonlocal stock_gone
        for j, (s, pos) in enumerate(draws_of(k, w)):
            if pos < 0:
                t = rec.turned
            elif rec.stock is not None:
                t = rec.stock[pos]
            else:
                t = None if given is None else given[j][1]
                if t is not None:
                    take(t, given_line, "Draw")
                    where[("s", pos)] = t
            if t is None:
                free[s].append((k, ("s", pos)))
            else:
                known[s][t] += 1
        if 2 * k >= n_stock + 1:
            stock_gone = True
            for s in (0, 1):
                shown[s] = [0] * N_TYPES

    given_line = 0
    for mi, m in enumerate(rec.moves):
        line = lines[mi] if mi < len(lines) else 0
        if m[0] == "trick":
            if pending is not None:
                do_draw(trick, pending)
                pending = None
            trick += 1
            seat = m[1]
            for t, kinds in m[2]:
                if kinds:
                    if shown[seat][t] > 0:
                        shown[seat][t] -= 1
                        known[seat][t] -= 1
                elif known[seat][t] - shown[seat][t] > 0:
                    known[seat][t] -= 1
                elif rec.hands[seat] is None or any(sl[1][0] == "s" for sl in free[seat]):
                    reveals.append((trick, seat, t, line))
                seat = 1 - seat
            if len(m[2]) == 2:
                leader = _trick_winner(m[1], m[2][0][0], m[2][1][0], trump, r.beat)
                if not stock_gone:
                    pending = leader
        elif m[0] == "meld":
            seat = m[1]
            for t, kinds in m[4]:
                if kinds and shown[seat][t] > 0:
                    continue
                if known[seat][t] - shown[seat][t] > 0:
                    shown[seat][t] += 1
                elif rec.hands[seat] is None or any(sl[1][0] == "s" for sl in free[seat]):
                    reveals.append((trick, seat, t, line))
                    known[seat][t] += 1
                    shown[seat][t] += 1
        elif m[0] == "pass":
            pass
        elif m[0] == "draw":
            if pending is None:
                fail(line, "Draw: both draw right after a trick's meld decision, while the "
                           "stock lasts (V7.2)", pre)
            given_line = line
            w = pending
            if [s for s, _ in m[1]] != [w, 1 - w]:
                fail(line, f"Draw: the winner of trick {trick}, seat {w}, draws first (V7.2)",
                     pre)
            if rec.stock is not None:
                for j, (s, pos) in enumerate(draws_of(trick, w)):
                    t = rec.turned if pos < 0 else rec.stock[pos]
                    if m[1][j][1] is not None and m[1][j][1] != t:
                        fail(line, f"Draw: seat {s} draws {card_code(t, '7')} from the stock, "
                                   f"not {card_code(m[1][j][1], '7')} (V7.2)", pre)
            elif draws_of(trick, w)[1][1] < 0 and m[1][1][1] not in (None, rec.turned):
                fail(line, f"Draw: the last card drawn is the turned "
                           f"{card_code(rec.turned, '7')} (V7.2)", pre)
            do_draw(trick, w, m[1])
            pending = None
    # place each revealed card in the earliest unknown slot before it appears
    for time, seat, t, line in sorted(reveals, key=lambda x: (x[0], x[3])):
        take(t, line, f"seat {seat} shows or plays")
        cands = sorted(x for x in free[seat] if x[0] < time)
        if not cands:
            fail(line, f"seat {seat} plays or shows {card_code(t, '7')}, which it cannot hold: "
                       "more unseen cards than its hand and draws so far (V7.1, V7.2)", pre)
        slot = cands[0]
        free[seat].remove(slot)
        where[slot[1]] = t
    # the rest in card order: hands first, then the stock
    rest = [t for t in range(N_TYPES) for _ in range(left[t])]
    slots = [("h", s, i) for s in (0, 1) for i in range(n_hand)] + \
            [("s", i) for i in range(n_stock)]
    for sl in slots:
        if sl not in where:
            where[sl] = rest.pop(0)
    # physical copies: the first placed gets copy 0
    used = [0] * N_TYPES

    def phys(t):
        c = 2 * t + used[t]
        used[t] += 1
        return c

    order = [phys(where[("h", s, i)]) for s in (0, 1) for i in range(n_hand)]
    order.append(phys(rec.turned))
    order += [phys(where[("s", i)]) for i in range(n_stock)]
    return np.array(order, dtype=np.int64)


# ----------------------------------------------------------------------------- replaying

def _meld_key(deal, mask) -> tuple:
    return tuple(sorted((c // 2, deal.shown(c)) for c in range(48) if (mask >> c) & 1))


def _pick(deal, seat: int, t: int, kinds: int) -> int | None:
    """The physical card of type ``t`` shown in ``kinds`` that ``seat`` holds (the first
    copy of two alike), or None."""
    for c in (2 * t, 2 * t + 1):
        if (int(deal.st[sp.H0 + seat]) >> c) & 1 and deal.shown(c) == kinds:
            return c
    return None


def replay(rec: StockRecord, upto: int | None = None, pre: str = "", on_decision=None):
    """The deal of the record stepped through the kernels (every rule checked) up to move
    ``upto`` (an index into ``moves``; None: all, with the claim and the points checked).
    ``on_decision(deal, action, move_index)`` is called before each decision is applied.
    Returns the :class:`~analyzer.mechanics.stock_deal.StockDeal`."""
    from analyzer.mechanics.stock_deal import StockDeal

    order = world_order(rec, pre)
    deal = StockDeal.from_order(rec.rules, order, rec.before)
    lines = rec.lines.get("moves", ())
    k = 0
    moves = rec.moves if upto is None else rec.moves[:upto]
    last_line = 0

    def act(a, line, mi):
        if on_decision is not None:
            on_decision(deal, a, mi)
        try:
            deal.apply(a)
        except BinokelError as exc:
            fail(line, str(exc), pre)

    for mi, m in enumerate(moves):
        line = lines[mi] if mi < len(lines) else 0
        last_line = line
        if m[0] == "trick":
            k += 1
            if deal.over():
                fail(line, f"Trick {k}: the deal is over (V7.4, V7.5)", pre)
            if deal.st[sp.TO_MELD] >= 0:           # no Meld line: the winner showed none
                act(("pass",), line, None)
            if m[1] != deal.to_act():
                why = "forehand leads the first trick" if k == 1 else \
                    "the winner of the last trick leads"
                fail(line, f"Trick {k}: seat {m[1]} leads, but seat {deal.to_act()} must: "
                           f"{why} (V7.2)", pre)
            for t, kinds in m[2]:
                seat = deal.to_act()
                c = _pick(deal, seat, t, kinds)
                if c is None:
                    have = [x for x in deal.hand(seat) if x // 2 == t]
                    if have and kinds:
                        fail(line, f"Trick {k}: seat {seat} has no {card_code(t, '7')} shown as "
                                   f"{kinds_text(kinds)} (V7.3)", pre)
                    if have:
                        fail(line, f"Trick {k}: seat {seat}'s {card_code(t, '7')} is shown "
                                   f"({token(t, deal.shown(have[0]))}): write it so (V7.3)", pre)
                    fail(line, f"Trick {k}: seat {seat} plays {card_code(t, '7')}, which it "
                               "does not hold (V7.1, V7.2)", pre)
                act(("play", c), line, mi)
        elif m[0] in ("meld", "pass"):
            seat = m[1]
            w = int(deal.st[sp.TO_MELD])
            if w < 0:
                if k and deal.stock_left() == 0:
                    fail(line, "Meld: the stock is gone, nothing more is melded (V7.3, V7.4)",
                         pre)
                if k and mi and rec.moves[mi - 1][0] in ("meld", "pass"):
                    fail(line, f"Meld: a second meld after trick {k}: one meld per won trick "
                               "(V7.3)", pre)
                fail(line, "Meld: a meld is shown only by a trick's winner, right after the "
                           "trick (V7.3)", pre)
            if seat != w:
                fail(line, f"Meld: seat {seat} lost trick {k}; only the winner, seat {w}, may "
                           "show a meld (V7.3)", pre)
            if m[0] == "pass":
                act(("pass",), line, mi)
                continue
            want = tuple(sorted(m[4]))
            opts = [(mk, p) for mk, p in deal.legal_melds() if _meld_key(deal, mk) == want
                    and deal.meld_name(p) == m[2]]
            if not opts:
                cards = " ".join(token(t, x) for t, x in m[4])
                names = {deal.meld_name(p) for mk, p in deal.legal_melds()
                         if _meld_key(deal, mk) == want}
                hint = f" (these cards make: {', '.join(sorted(names))})" if names else ""
                fail(line, f"Meld: seat {seat} may not show {cards} as {m[2]!r}: not in its "
                           f"hand, not that meld, or a card already shown in that kind"
                           f"{hint} (V7.3)", pre)
            mk, p = opts[0]
            if deal.meld_value(p) != m[3]:
                fail(line, f"Meld: {m[2]} is worth {deal.meld_value(p)}, not {m[3]} (V7.3)", pre)
            act(("meld", mk, p), line, mi)
        elif m[0] == "draw":
            pass                                     # checked by world_order (V7.2)
    if upto is not None:
        return deal
    if rec.claim is not None:
        line = rec.lines.get("Claim", last_line)
        if deal.over():
            fail(line, "Claim: the deal is over (V7.5)", pre)
        if rec.claim != deal.to_act():
            fail(line, f"Claim: seat {rec.claim} claims, but it is seat {deal.to_act()}'s "
                       "turn; a claim is made at one's own decision (V7.5)", pre)
        if not deal.may_claim(rec.claim):
            tot = deal.points(rec.claim) + rec.before[rec.claim]
            fail(line, f"Claim: seat {rec.claim} has {tot} of "
                       f"{int(deal.r.params[sp.P_TARGET])}: a claim below it loses the game "
                       "(V7.5)", pre)
        if on_decision is not None:
            on_decision(deal, ("claim",), len(rec.moves))
        deal.apply(("claim",))
    if rec.points is not None:
        line = rec.lines.get("Points", last_line)
        if not deal.over():
            fail(line, "Points: the deal is not over (24 tricks or a claim, V7.4, V7.5)", pre)
        pts = (deal.points(0), deal.points(1))
        if tuple(rec.points) != pts:
            fail(line, f"Points: {rec.points[0]} {rec.points[1]}, but the deal gives "
                       f"{pts[0]} {pts[1]} (melds, Dissles, card points, last trick; V7.4)", pre)
    return deal


# ----------------------------------------------------------------------------- making

class Recorder:
    """Steps a :class:`StockDeal` and notes each action as a record move (with the kinds
    each card was shown in before it): what ``play --record`` writes."""

    def __init__(self, deal):
        self.deal = deal
        self.start = [deal.hand(0), deal.hand(1)]
        self.stock = [int(c) for c in deal.st[sp.STOCK:sp.STOCK + int(deal.st[sp.SSIZE]) - 1]]
        self.moves: list = []
        self.claim = None

    def apply(self, a) -> None:
        d = self.deal
        seat = d.to_act()
        if a[0] == "play":
            c = int(a[1])
            item = (c // 2, d.shown(c))
            if d.st[sp.TABLE] < 0:
                self.moves.append(("trick", seat, (item,)))
            else:
                ld, cards = self.moves[-1][1], self.moves[-1][2]
                self.moves[-1] = ("trick", ld, cards + (item,))
        elif a[0] == "meld":
            mask, p = int(a[1]), int(a[2])
            self.moves.append(("meld", seat, d.meld_name(p), d.meld_value(p),
                               tuple(sorted((c // 2, d.shown(c)) for c in range(48)
                                            if (mask >> c) & 1))))
        elif a[0] == "pass":
            self.moves.append(("pass", seat))
        elif a[0] == "claim":
            self.claim = seat
        d.apply(a)

    def record(self, seats=None, source: str = "", before=(0, 0)) -> StockRecord:
        d = self.deal
        g = d.game
        counts = [tuple(sum(1 for c in h if c // 2 == t) for t in range(N_TYPES))
                  for h in self.start]
        return StockRecord(rules=g, seats=tuple(seats or g.table.seat_names),
                           hands=tuple(counts), turned=d.turned // 2,
                           stock=tuple(c // 2 for c in self.stock), before=tuple(before),
                           moves=tuple(self.moves), claim=self.claim,
                           points=(d.points(0), d.points(1)) if d.over() else None,
                           source=source)


def actions(rec: StockRecord) -> list:
    """Every action of the record (the StockDeal tuples, implied passes included), in
    order, as the replay applies them."""
    out = []
    replay(rec, on_decision=lambda deal, a, mi: out.append(a))
    return out


def hide(rec: StockRecord, seat: int) -> StockRecord:
    """The record as ``seat`` saw it: the other hand and the stock hidden, a ``Draw`` line
    after each meld decision while the stock lasted with ``seat``'s own draws and the
    turned card (seen by both, V7.1); everything played and shown stays.  A record that
    hides the stock already only loses the other hand."""
    hands = tuple(h if s == seat else None for s, h in enumerate(rec.hands))
    if rec.stock is None:            # the other seat's draws hidden too (but the turned card)
        last = rec.stock_draws()
        moves, k = [], 0
        for m in rec.moves:
            if m[0] == "draw":
                k += 1
                m = ("draw", tuple((s, t if s == seat or (k == last and j == 1) else None)
                                   for j, (s, t) in enumerate(m[1])))
            moves.append(m)
        return replace(rec, hands=hands, moves=tuple(moves), lines={})
    from analyzer.mechanics.stock_deal import StockDeal

    deal = StockDeal.from_order(rec.rules, world_order(rec), rec.before)
    rc = Recorder(deal)
    for a in actions(rec):
        rc.apply(a)
    draws = [e for e in deal.log if e[0] == "draw"]
    moves = []
    k = 0
    for m in rc.moves:
        moves.append(m)
        if m[0] in ("meld", "pass"):
            pair = draws[2 * k:2 * k + 2]
            k += 1
            moves.append(("draw", tuple((e[1], e[2] // 2 if e[1] == seat or e[2] == deal.turned
                                         else None) for e in pair)))
    return replace(rec, hands=hands, stock=None, moves=tuple(moves), lines={})


__all__ = ["StockRecord", "format_stock", "parse_block", "replay", "world_order", "Recorder",
           "hide", "token", "actions"]
