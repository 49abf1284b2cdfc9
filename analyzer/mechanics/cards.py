"""Card model: encoding for the kernels and validated objects for the API (R1, V1).

Encoding (the one place it is stated): a card *type* is the int ``suit * 6 + rank``
with suits C=0, S=1, H=2, D=3 and ranks A=0, 10=1, K=2, Q=3, J=4, 5 = the low card
(so rank order is index order, high to low).  Each of the 24 types exists in two
identical copies.  Rank 5 is the 9 in binokel-48 and the 7 in the grupp games (V1: a 7
plays exactly the part of the 9); the 40-card deck of binokel-40 (V5.1) has no low card,
so its deck is the 20 types of ranks 0-4 (``RuleSet.in_deck``) and rank-5 types never
occur.  Which word names rank 5, and whether it exists, is the variant's ``low_card``:
parsing follows the variant's deck (``7S`` is a card in grupp-3, not in binokel-48).
A *hand* is one int64 holding two 24-bit planes: bits 0..23 = "holds at least one
copy of type t", bits 24..47 = "holds both copies of type t".  Copies are
interchangeable everywhere, so the two planes are the whole truth about a hand.
Kernels that need per-type counts use ``uint8[24]`` arrays (0, 1 or 2).
A *physical card* (used only when dealing) is ``type * 2 + copy`` in 0..47.

80-card deck (``pinochle-80``, V6.1): the same type ints, the 9s (rank 5) absent, and
**four** identical copies of each of the 20 other types.  Two bit planes cannot hold a
count of 0..4, so there a hand is a ``uint8[24]`` of per-type counts (0..4; always 0 at
the 9s), and kernels keep beside it one int64 *presence* mask (bit t = "holds at least
one copy of t"), which is all legal-move masks need.  When dealing, the deck is a
``uint8[80]`` of type ints (each of :data:`DECK80_TYPES` four times; copies need no id
of their own).  :class:`Hand80` is the validated API object.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Iterable

import numpy as np

from analyzer.errors import BinokelError

N_SUITS = 4
N_RANKS = 6
N_TYPES = 24
N_CARDS = 48
PLANE = 24  # bit offset of the "holds two" plane
LO_MASK = (1 << N_TYPES) - 1


class Suit(str, Enum):
    """A suit; the value is its one-letter code, ``.index`` its kernel number."""

    CLUBS = "C"
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"

    @property
    def index(self) -> int:
        return _SUIT_ORDER.index(self.value)

    @property
    def symbol(self) -> str:
        """The suit as printed: ♣ ♠ ♥ ♦, or Eichel Schippen Herz Schellen under
        ``card_notation("de")``."""
        return (SUIT_NAMES_DE if _NOTATION[0] == "de" else SUIT_SYMBOLS)[self.index]

    @classmethod
    def parse(cls, text: "str | Suit") -> "Suit":
        """Parse ``'S'``, ``'s'``, ``'♠'``, ``'spades'``, ``'Schippen'`` ... into a Suit."""
        if isinstance(text, Suit):
            return text
        key = str(text).strip().lower()
        if key in _SUIT_WORDS:
            return cls(_SUIT_WORDS[key])
        raise BinokelError(f"unknown suit {text!r}: use one of C, S, H, D (or ♣ ♠ ♥ ♦)")


class Rank(str, Enum):
    """A rank, high to low; ``.index`` is its kernel number (R1)."""

    ACE = "A"
    TEN = "10"
    KING = "K"
    QUEEN = "Q"
    JACK = "J"
    NINE = "9"

    @property
    def index(self) -> int:
        return _RANK_ORDER.index(self.value)


_SUIT_ORDER = ("C", "S", "H", "D")
_RANK_ORDER = ("A", "10", "K", "Q", "J", "9")
SUIT_LETTERS = _SUIT_ORDER
SUIT_SYMBOLS = ("♣", "♠", "♥", "♦")
RANK_NAMES = _RANK_ORDER
SUITS = tuple(Suit(s) for s in _SUIT_ORDER)
RANKS = tuple(Rank(r) for r in _RANK_ORDER)

_SUIT_WORDS = {
    "c": "C", "♣": "C", "♧": "C", "clubs": "C", "club": "C", "eichel": "C", "acorns": "C",
    "s": "S", "♠": "S", "♤": "S", "spades": "S", "spade": "S", "schippen": "S",
    "schippe": "S", "laub": "S", "grün": "S", "gruen": "S", "leaves": "S",
    "h": "H", "♥": "H", "♡": "H", "hearts": "H", "heart": "H", "herz": "H", "rot": "H",
    "d": "D", "♦": "D", "♢": "D", "diamonds": "D", "diamond": "D", "schellen": "D",
    "schelle": "D", "bells": "D",
}
_RANK_WORDS = {
    "a": "A", "ace": "A", "ass": "A", "as": "A", "sau": "A", "daus": "A",
    "10": "10", "t": "10", "ten": "10", "zehn": "10", "zehner": "10",
    "k": "K", "king": "K", "könig": "K", "koenig": "K",
    "q": "Q", "queen": "Q", "o": "Q", "ober": "Q",
    "j": "J", "jack": "J", "u": "J", "unter": "J",
    "9": "9", "n": "9", "nine": "9", "neun": "9", "neuner": "9",
    "7": "7", "seven": "7", "sieben": "7", "siebener": "7",
}
# the low card's words: rank index 5 is a 9 or a 7 depending on the variant (V1)
_LOW_RANKS = ("9", "7")


def low_code(low: str) -> str:
    """Display code of rank 5 in a deck whose low card is ``low`` ("9", "7"; "" -> "9")."""
    return low or "9"


def card_code(t: int, low: str = "9") -> str:
    """ASCII code of card type ``t`` (e.g. ``10S``) with rank 5 written as the deck's low
    card ``low`` ("9", or "7" in the grupp and kreuz games, V1), parseable back in that
    game: the one spelling of every machine-readable card (JSON, CSV)."""
    r = t % N_RANKS
    name = low_code(low) if r == 5 else RANK_NAMES[r]
    return name + SUIT_LETTERS[t // N_RANKS]


def type_id(suit: int, rank: int) -> int:
    """Kernel card type of (suit index, rank index)."""
    return suit * N_RANKS + rank


def suit_of(t: int) -> int:
    return t // N_RANKS


def rank_of(t: int) -> int:
    return t % N_RANKS


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card type (copies are identical).  ``Card.id`` is the kernel type int."""

    id: int

    def __post_init__(self) -> None:
        if not (0 <= self.id < N_TYPES):
            raise ValueError(f"card id {self.id} out of range 0..23")

    @classmethod
    def of(cls, suit: "Suit | str", rank: "Rank | str") -> "Card":
        s = Suit.parse(suit) if not isinstance(suit, Suit) else suit
        r = rank if isinstance(rank, Rank) else Rank(str(rank).upper())
        return cls(type_id(s.index, r.index))

    @property
    def suit(self) -> Suit:
        return SUITS[suit_of(self.id)]

    @property
    def rank(self) -> Rank:
        return RANKS[rank_of(self.id)]

    @property
    def code(self) -> str:
        """ASCII code such as ``10S``."""
        return RANK_NAMES[rank_of(self.id)] + SUIT_LETTERS[suit_of(self.id)]

    def __str__(self) -> str:
        if _NOTATION[0] == "de":
            return f"{SUIT_NAMES_DE[suit_of(self.id)]}-{RANK_NAMES_DE[rank_of(self.id)]}"
        return RANK_NAMES[rank_of(self.id)] + SUIT_SYMBOLS[suit_of(self.id)]

    def __repr__(self) -> str:
        return f"Card({self.code})"


class CardError(BinokelError):
    """Bad card input; the message is one line naming the problem."""


_SPLIT = re.compile(r"[\s,;]+")
_SYMBOL_SUITS = "♣♧♠♤♥♡♦♢"
_GERMAN_SUITS = ("eichel", "schippen", "schippe", "laub", "grün", "gruen", "herz",
                 "schellen", "schelle", "rot")


def _deck_card(raw: str, suit: str, rank: str, low: str, variant: str) -> Card:
    """Card of (suit letter, rank word) if the variant's deck has it (V1, V5.1)."""
    if rank in _LOW_RANKS:
        if low == "":
            raise CardError(f"{raw!r} is no card in {variant}: its 40-card deck has A 10 K Q J "
                            "only, no low card (V5.1)")
        if rank != low:
            word = {"9": "nines", "7": "sevens"}
            raise CardError(f"{raw!r} is no card in {variant}: its deck has {word[low]}, "
                            f"not {word[rank]} (V1)")
        rank = "9"  # rank index 5 is the low card of the deck
    return Card.of(Suit(suit), Rank(rank))


def _parse_token(tok: str, deck_low: str = "9", variant: str = "binokel-48") -> Card:
    raw = tok
    t = tok.strip()
    low = t.lower()
    # German / long form: "Herz-Ober", "Eichel Ass", "schellenunter"
    for word in sorted(_GERMAN_SUITS + ("clubs", "spades", "hearts", "diamonds"), key=len, reverse=True):
        if low.startswith(word):
            rest = low[len(word):].lstrip("-_ .")
            if rest in _RANK_WORDS:
                return _deck_card(raw, _SUIT_WORDS[word], _RANK_WORDS[rest], deck_low, variant)
            break
    # short form: rank then suit letter or symbol ("10S", "TS", "q♠", "A♦")
    if len(t) >= 2:
        rank_part, suit_part = t[:-1], t[-1]
        if suit_part.lower() in _SUIT_WORDS and rank_part.lower() in _RANK_WORDS and len(rank_part) <= 2:
            return _deck_card(raw, _SUIT_WORDS[suit_part.lower()], _RANK_WORDS[rank_part.lower()],
                              deck_low, variant)
        # suit first: "♠A", "S10"
        suit_part, rank_part = t[0], t[1:]
        if suit_part in _SYMBOL_SUITS and rank_part.lower() in _RANK_WORDS and len(rank_part) <= 2:
            return _deck_card(raw, _SUIT_WORDS[suit_part], _RANK_WORDS[rank_part.lower()], low,
                              variant)
    ranks = "A 10 K Q J" + (f" {deck_low}" if deck_low else "")
    raise CardError(
        f"bad card token {raw!r}: expected a rank ({ranks}, or T for 10) followed by a "
        "suit (C S H D or ♣ ♠ ♥ ♦), e.g. 10S or Q♠"
    )


def _deck_of(rules) -> tuple[str, str]:
    """(low card, variant name) of a RuleSet-like object; None = binokel-48."""
    if rules is None:
        return "9", "binokel-48"
    return getattr(rules, "low_card", "9"), getattr(rules, "name", "binokel-48")


def parse_cards(text: "str | Iterable[str | Card]", rules=None) -> list[Card]:
    """Parse cards separated by spaces and/or commas into a list of :class:`Card`.

    Accepts ``AS 10S TS A♠ 10♦ q♠ Q♠`` (any case) and the German Württemberg names
    ``Herz-Ober``, ``Eichel-Ass``, ``Schellen-Unter`` (R1).  Raises :class:`CardError`
    with a one-line message on the first bad token.  Copies are not checked here;
    :class:`Hand` checks them.  ``rules`` (a RuleSet; default binokel-48) fixes the deck:
    the low card is ``9``, ``7`` or absent, and a card outside the deck is an error
    naming the variant (V1, V5.1).
    """
    low, variant = _deck_of(rules)
    if isinstance(text, str):
        tokens = [tok for tok in _SPLIT.split(text.strip()) if tok]
        # "Herz Ober" written with a space: join a German suit word with the next token
        merged: list[str] = []
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            if tok.lower() in _GERMAN_SUITS and i + 1 < len(tokens):
                merged.append(tok + "-" + tokens[i + 1])
                i += 2
                continue
            merged.append(tok)
            i += 1
        return [_parse_token(tok, low, variant) for tok in merged]
    out: list[Card] = []
    for item in text:
        if isinstance(item, Card):
            if low == "" and item.id % N_RANKS == 5:
                raise CardError(f"{item.code} is no card in {variant}: its 40-card deck has "
                                "A 10 K Q J only, no low card (V5.1)")
            out.append(item)
        elif isinstance(item, str):
            out.extend(parse_cards(item, rules))
        else:
            raise CardError(f"bad card {item!r}: expected a Card or a card string")
    return out


def counts_to_mask(counts) -> int:
    """uint8[24] counts (0..2) -> packed two-plane int (see module docstring)."""
    lo = 0
    hi = 0
    for t in range(N_TYPES):
        c = int(counts[t])
        if c >= 1:
            lo |= 1 << t
        if c >= 2:
            hi |= 1 << t
    return lo | (hi << PLANE)


def mask_to_counts(mask: int) -> np.ndarray:
    """Packed two-plane int -> uint8[24] counts."""
    mask = int(mask)
    out = np.zeros(N_TYPES, dtype=np.uint8)
    for t in range(N_TYPES):
        out[t] = ((mask >> t) & 1) + ((mask >> (t + PLANE)) & 1)
    return out


class _Cards:
    """What :class:`Hand` and :class:`Hand80` share: a multiset of cards stored as
    ``counts``, a 24-tuple of copies per card type (the encoding above), validated on
    construction; set operations, listing and printing.  A subclass names its deck's
    limit (``MAX_COPIES`` and the sentence ``DECK_LIMIT`` of its error) and may refuse
    more types (:meth:`_check_type`)."""

    __slots__ = ()
    MAX_COPIES = 2
    DECK_LIMIT = "the deck has only two of each card (R1)"

    def _check_counts(self) -> None:
        if len(self.counts) != N_TYPES:
            raise CardError(f"a hand needs 24 type counts, got {len(self.counts)}")
        for t, c in enumerate(self.counts):
            self._check_type(t, c)

    def _check_type(self, t: int, c: int) -> None:
        if c < 0 or c > self.MAX_COPIES:
            card = Card(t)
            raise CardError(f"{c} copies of {card} ({card.code}): {self.DECK_LIMIT}")

    @classmethod
    def from_cards(cls, cards: Iterable[Card]):
        counts = [0] * N_TYPES
        for card in cards:
            counts[card.id] += 1
        return cls(tuple(counts))

    @staticmethod
    def _sized(hand, size: int | None):
        if size is not None and len(hand) != size:
            raise CardError(f"a hand must have {size} cards, got {len(hand)}")
        return hand

    def counts_array(self) -> np.ndarray:
        """The kernel form: uint8[24] counts."""
        return np.array(self.counts, dtype=np.uint8)

    def cards(self) -> list[Card]:
        """Cards high to low within suits C, S, H, D; duplicates repeated."""
        return [Card(t) for t in range(N_TYPES) for _ in range(self.counts[t])]

    def __len__(self) -> int:
        return sum(self.counts)

    def __iter__(self):
        return iter(self.cards())

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and self.counts[card.id] > 0

    def count(self, card: Card) -> int:
        return self.counts[card.id]

    def __add__(self, other):
        return type(self).from_cards(self.cards() + other.cards())

    def __sub__(self, other):
        counts = list(self.counts)
        for t, c in enumerate(other.counts):
            if c > counts[t]:
                raise CardError(f"cannot remove {Card(t)}: the hand holds only {counts[t]}")
            counts[t] -= c
        return type(self)(tuple(counts))

    def __str__(self) -> str:
        return self.show()

    def codes(self, low: str = "9") -> str:
        """Space-separated ASCII codes, parseable by :func:`parse_cards`.

        ``low``: the word of rank 5 in the variant ("9", or "7" in the grupp games, V1).
        """
        return " ".join(card_code(c.id, low) for c in self.cards())

    def show(self, low: str = "9") -> str:
        """The cards grouped by suit in the current notation, rank 5 written as the
        variant's low card ``low`` (V1)."""
        de = _NOTATION[0] == "de"
        names = RANK_NAMES_DE if de else RANK_NAMES
        if low not in ("", "9"):
            lc = low_code(low)
            names = names[:5] + (({"7": "Sieben"}.get(lc, lc) if de else lc),)
        parts = []
        for s in range(N_SUITS):
            cards = [names[r] for r in range(N_RANKS) for _ in range(self.counts[type_id(s, r)])]
            if cards:
                parts.append((SUIT_NAMES_DE[s] + ":" if de else SUIT_SYMBOLS[s]) + " "
                             + " ".join(cards))
        return "  ".join(parts) if parts else "(empty)"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.codes()!r})"


@dataclass(frozen=True, slots=True, repr=False)   # repr: _Cards.__repr__ (parseable codes)
class Hand(_Cards):
    """A multiset of cards with at most two copies of each of the 24 types (R1).

    ``counts`` is a 24-tuple of 0/1/2 indexed by card type.  Build one with
    :meth:`Hand.parse` or :meth:`Hand.from_cards`.  ``str(hand)`` groups by suit.
    """

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        self._check_counts()

    @classmethod
    def parse(cls, text: "str | Iterable[str | Card] | Hand", size: int | None = None,
              rules=None) -> "Hand":
        """Parse text into a Hand; with ``size`` also require that many cards.

        ``rules``: the variant whose deck the cards must come from (default binokel-48).
        """
        if isinstance(text, Hand):
            hand = text
            if rules is not None and not getattr(rules, "has_low_card", True):
                parse_cards(hand.cards(), rules)   # a Hand with rank-5 cards: not this deck
        else:
            hand = cls.from_cards(parse_cards(text, rules))
        return cls._sized(hand, size)

    @classmethod
    def from_mask(cls, mask: int) -> "Hand":
        return cls(tuple(int(c) for c in mask_to_counts(mask)))

    @property
    def mask(self) -> int:
        """Packed two-plane int for the kernels."""
        return counts_to_mask(self.counts)


FULL_DECK = Hand(tuple([2] * N_TYPES))


# --------------------------------------------------------------------------- 80 cards

COPIES80 = 4            # V6.1: four copies of each card type
N_CARDS80 = 80          # V6.1: 20 types x 4
NINE_RANK = 5           # rank index of the 9: absent from the 80-card deck
DECK80_TYPES = tuple(t for t in range(N_TYPES) if t % N_RANKS != NINE_RANK)


@dataclass(frozen=True, slots=True, repr=False)
class Hand80(_Cards):
    """A multiset of cards of the 80-card deck: at most four copies of each of the 20
    types A 10 K Q J (V6.1), no 9s.

    ``counts`` is a 24-tuple indexed by the type int of this module (0 at the 9s).
    Build one with :meth:`Hand80.parse`; a fifth copy or a 9 is a :class:`CardError`.
    """

    counts: tuple[int, ...]
    MAX_COPIES = COPIES80
    DECK_LIMIT = "the 80-card deck has only four of each card (V6.1)"

    def __post_init__(self) -> None:
        self._check_counts()

    def _check_type(self, t: int, c: int) -> None:
        if c and t % N_RANKS == NINE_RANK:
            card = Card(t)
            raise CardError(f"{card} ({card.code}): the 80-card deck has no nines (V6.1)")
        _Cards._check_type(self, t, c)   # (no bare super(): slots dataclasses are rebuilt)

    @classmethod
    def parse(cls, text: "str | Iterable[str | Card] | Hand80", size: int | None = None) -> "Hand80":
        """Parse text into a Hand80; with ``size`` also require that many cards."""
        hand = text if isinstance(text, Hand80) else cls.from_cards(parse_cards(text))
        return cls._sized(hand, size)

    @property
    def presence(self) -> int:
        """The kernels' presence mask (bit t = at least one copy of t)."""
        return sum(1 << t for t in range(N_TYPES) if self.counts[t])


FULL_DECK80 = Hand80(tuple(0 if t % N_RANKS == NINE_RANK else COPIES80 for t in range(N_TYPES)))

# --- output notation ------------------------------------------------------------------
# Input accepts both notations always (parse_cards); output is English symbols (A♠) unless
# a command runs under ``card_notation("de")`` (``--cards de``): Württemberg names (R1),
# e.g. ``Schippen-Ass``, hands as ``Schippen: Ass Zehn Ober``, the Tapp called "Dabb".
SUIT_NAMES_DE = ("Eichel", "Schippen", "Herz", "Schellen")
RANK_NAMES_DE = ("Ass", "Zehn", "König", "Ober", "Unter", "Neun")
NOTATIONS = ("en", "de")
_NOTATION = ["en"]


def suit_symbol(s: int) -> str:
    """How suit index ``s`` is printed in the current notation: ♣ ♠ ♥ ♦, or Eichel
    Schippen Herz Schellen under ``card_notation("de")`` (``--cards de``)."""
    return SUITS[s].symbol


def tapp_word() -> str:
    """What the three extra cards are called in the current notation (R2)."""
    return "Dabb" if _NOTATION[0] == "de" else "Tapp"


def current_notation() -> str:
    return _NOTATION[0]


class card_notation:
    """Context manager: print cards in ``name`` ("en" or "de") inside the block."""

    def __init__(self, name: str = "en"):
        if name not in NOTATIONS:
            raise BinokelError(f"unknown card notation {name!r}: use en or de")
        self.name = name

    def __enter__(self):
        self._old = _NOTATION[0]
        _NOTATION[0] = self.name
        return self

    def __exit__(self, *exc) -> bool:
        _NOTATION[0] = self._old
        return False
