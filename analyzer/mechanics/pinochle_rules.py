"""The rule constants of double-deck partnership Pinochle (``pinochle-80``, V6), as data.

One frozen :class:`PinochleRules` holds every number of V6 as a named field; kernels
receive the plain arrays and ints of :meth:`PinochleRules.compile` (a
:class:`PinochleKernel`) and never hold a rule number of their own.  Card types and the
80-card hand encoding are those of ``cards.py`` (types ``suit * 6 + rank``, the 9s absent,
counts 0..4 per type).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np

from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_RANKS, N_TYPES, type_id

# rank indices (cards.py): A=0, 10=1, K=2, Q=3, J=4 (9=5 is absent); suits C S H D
_A, _T, _K, _Q, _J, _N = range(6)
_C, _S, _H, _D = range(4)

#: V6.5 counter options: card points per rank A 10 K Q J 9
COUNTER_OPTIONS = {
    "a": (10, 10, 10, 0, 0, 0),   # V6.5 a): A, 10, K = 10 each (default, Reading)
    "b": (10, 10, 5, 5, 0, 0),    # V6.5 b): A, 10 = 10; K, Q = 5
}


class PinochleKernel(NamedTuple):
    """Plain ints and arrays for the Pinochle kernels (built by PinochleRules.compile)."""

    card_points: np.ndarray      # int64[24]: counter points per card type (V6.5)
    rank_strength: np.ndarray    # int64[24]: higher beats lower within a suit (V1, V6.4)
    flush: int                   # 150 per trump flush (V6.3 class A)
    royal_marriage: int          # 40 per trump K-Q outside the flushes (V6.3 class A)
    marriage: int                # 20 per plain K-Q (V6.3 class A)
    around: np.ndarray           # int64[6]: single around per rank, 0 = no meld (V6.3 B)
    double_around: np.ndarray    # int64[6]: double around per rank (V6.3 B)
    pinochle_q: int              # type of the pinochle queen, Q♠ (V6.3 C)
    pinochle_j: int              # type of the pinochle jack, J♦ (V6.3 C)
    pinochle_single: int         # 40 (V6.3 C)
    pinochle_double: int         # 300 (V6.3 C)
    meld_needs_counter: int      # 1: a side's melds count only with a counting trick (V6.3)
    last_trick_bonus: int        # 20 (V6.5)
    hand_size: int               # 20 (V6.1)
    min_bid: int                 # 500 (V6.2)
    bid_step: int                # 10 (V6.2)
    target_score: int            # 3550 (V6.6)


@dataclass(frozen=True)
class PinochleRules:
    """Double-deck partnership Pinochle (V6).  Defaults are VARIANTS.md V6 as read there.

    Repeated melds follow V6.3: ``k`` flushes score ``k * flush``; an around or pinochle
    held ``m`` times scores ``(m // 2) * double + (m % 2) * single``.
    """

    name: str = "pinochle-80"
    n_seats: int = 4                                  # V6.1: partners opposite, 0+2 vs 1+3
    copies: int = 4                                   # V6.1: four copies of each type
    hand_size: int = 20                               # V6.1: 20 each, no widow
    counters: str = "a"                               # V6.5: option 'a' (default) or 'b'
    last_trick_bonus: int = 20                        # V6.5: last trick
    flush: int = 150                                  # V6.3 A: trump A-10-K-Q-J, each
    royal_marriage: int = 40                          # V6.3 A: trump K-Q not in a flush
    marriage: int = 20                                # V6.3 A: plain K-Q
    around: tuple[int, ...] = (100, 0, 80, 60, 40, 0)             # V6.3 B per rank A 10 K Q J 9
    double_around: tuple[int, ...] = (1000, 0, 800, 600, 400, 0)  # V6.3 B, two of each suit
    pinochle_cards: tuple[tuple[int, int], ...] = ((_S, _Q), (_D, _J))  # V6.3 C: Q♠ + J♦
    pinochle: tuple[int, int] = (40, 300)             # V6.3 C (single, double)
    meld_needs_counter_trick: bool = True             # V6.3: melds need a trick with a counter
    min_bid: int = 500                                # V6.2: lowest bid
    bid_step: int = 10                                # V6.2: bids are multiples of this
    target_score: int = 3550                          # V6.6: game end

    def __post_init__(self) -> None:
        if self.counters not in COUNTER_OPTIONS:
            raise BinokelError(f"unknown counter option {self.counters!r}: use 'a' or 'b' (V6.5)")

    @property
    def card_points(self) -> tuple[int, ...]:
        """Counter points per rank A 10 K Q J 9 (V6.5)."""
        return COUNTER_OPTIONS[self.counters]

    @property
    def deal_points(self) -> int:
        """Counters in a deal: 4 copies x 4 suits x the rank values + last trick (500)."""
        return self.copies * 4 * sum(self.card_points) + self.last_trick_bonus

    def to_dict(self) -> dict:
        return asdict(self)

    @cached_property
    def kernel(self) -> PinochleKernel:
        return self.compile()

    def compile(self) -> PinochleKernel:
        cp = np.array([self.card_points[t % N_RANKS] for t in range(N_TYPES)], dtype=np.int64)
        strength = np.array([N_RANKS - 1 - (t % N_RANKS) for t in range(N_TYPES)], dtype=np.int64)
        (qs, qr), (js, jr) = self.pinochle_cards
        return PinochleKernel(
            card_points=cp,
            rank_strength=strength,
            flush=int(self.flush),
            royal_marriage=int(self.royal_marriage),
            marriage=int(self.marriage),
            around=np.array(self.around, dtype=np.int64),
            double_around=np.array(self.double_around, dtype=np.int64),
            pinochle_q=int(type_id(qs, qr)),
            pinochle_j=int(type_id(js, jr)),
            pinochle_single=int(self.pinochle[0]),
            pinochle_double=int(self.pinochle[1]),
            meld_needs_counter=int(self.meld_needs_counter_trick),
            last_trick_bonus=int(self.last_trick_bonus),
            hand_size=int(self.hand_size),
            min_bid=int(self.min_bid),
            bid_step=int(self.bid_step),
            target_score=int(self.target_score),
        )

    def __hash__(self) -> int:
        return hash(tuple(sorted((k, str(v)) for k, v in self.to_dict().items())))


PINOCHLE_RULES = PinochleRules()
PINOCHLE_RULES_B = PinochleRules(name="pinochle-80b", counters="b")
