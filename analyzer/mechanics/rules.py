"""Every rule constant of the game, in one frozen RuleSet (docs/RULES.md R1-R9).

Kernels never hold a rule number of their own: they receive the arrays made by
:meth:`RuleSet.compile`.  Later variants (classic 3-hand with sevens and rounding,
Kreuzbinokel, double-deck Pinochle) are new RuleSet instances, not new kernels.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np

from analyzer.mechanics.cards import N_RANKS, N_SUITS, N_TYPES, type_id

# rank indices (see cards.py): A=0, 10=1, K=2, Q=3, J=4, 9=5
_A, _T, _K, _Q, _J, _N = range(6)
_C, _S, _H, _D = range(4)


class KernelRules(NamedTuple):
    """Plain ints and arrays handed to numba kernels (built by RuleSet.compile)."""

    card_points: np.ndarray      # int64[24]: card points of each card type (R1)
    rank_strength: np.ndarray    # int64[24]: higher beats lower within a suit (R6)
    suit_f_table: np.ndarray     # int64[2, 4096]: type-F value of one suit, [0]=plain [1]=trump, index = lo6 | hi6 << 6 (R5)
    fours_mask: np.ndarray       # int64[6]: lo-plane mask of one card of rank r in every suit
    fours_value: np.ndarray      # int64[6]: type-Q value of four of rank r (0 = no meld) (R5)
    eights_value: np.ndarray     # int64[6]: type-Q value of all eight of rank r (R5)
    binokel_mask: int            # lo-plane mask of the binokel cards (Q♠, J♦) (R5)
    binokel_single: int          # 40 (R5)
    binokel_double: int          # 300 (R5)
    nine_rank: int               # rank index of the Dissle card (R5 type D)
    trump_nine_value: int        # 10 per trump nine held (R5)
    last_trick_bonus: int        # 10 (R1/R7)
    hand_size: int               # 15 (R2)
    tapp_size: int               # 3 (R2)
    bid_start: int               # 150 (R3)
    bid_step: int                # 10 (R3)
    surrender_bonus: int         # 50 for each opponent (R4)
    durch_value: int             # 1000 (R4)
    target_score: int            # 1500 (R9)
    loss_factor: int             # 2: a failed contract scores -loss_factor x bid (R8)


@dataclass(frozen=True)
class RuleSet:
    """The rule constants of one variant.  Default: RULES.md (3 players, 48 cards).

    Meld values follow R5's table; ``family`` etc. are (plain, trump) pairs.
    """

    name: str = "binokel-48"
    card_points: tuple[int, ...] = (11, 10, 4, 3, 2, 0)        # A 10 K Q J 9 (R1)
    last_trick_bonus: int = 10                                 # R1, R7
    hand_size: int = 15                                        # R2
    tapp_size: int = 3                                         # R2
    family: tuple[int, int] = (100, 150)                       # R5 type F (plain, trump)
    double_family: tuple[int, int] = (1000, 1500)              # R5 type F
    pair: tuple[int, int] = (20, 40)                           # R5 type F, K-Q
    fours: tuple[int, ...] = (100, 0, 80, 60, 40, 0)           # R5 type Q per rank A 10 K Q J 9
    eights: tuple[int, ...] = (1000, 0, 1000, 1000, 1000, 0)   # R5 type Q, all eight copies
    binokel_cards: tuple[tuple[int, int], ...] = ((_S, _Q), (_D, _J))  # R5 type B: Q♠ + J♦
    binokel: tuple[int, int] = (40, 300)                       # R5 type B (single, double)
    trump_nine: int = 10                                       # R5 type D, per trump 9
    bid_start: int = 150                                       # R3: forehand's forced opening
    bid_step: int = 10                                         # R3: exact raise
    surrender_bonus: int = 50                                  # R4: each opponent's gift
    durch_value: int = 1000                                    # R4: Durch win / loss
    target_score: int = 1500                                   # R9: game end
    loss_factor: int = 2                                       # R8: failed contract -2 x bid

    def to_dict(self) -> dict:
        return asdict(self)

    @cached_property
    def kernel(self) -> KernelRules:
        """The compiled arrays (cached)."""
        return self.compile()

    def suit_f_value(self, counts5: tuple[int, int, int, int, int], trump: bool) -> int:
        """Type-F value of one suit from counts (a, t, k, q, j) per R5's Reading."""
        a, t, k, q, j = counts5
        f = min(a, t, k, q, j)
        i = 1 if trump else 0
        if f == 2:
            return self.double_family[i]
        if f == 1:
            return self.family[i] + min(k - 1, q - 1) * self.pair[i]
        return min(k, q) * self.pair[i]

    def compile(self) -> KernelRules:
        cp = np.array([self.card_points[t % N_RANKS] for t in range(N_TYPES)], dtype=np.int64)
        strength = np.array([N_RANKS - 1 - (t % N_RANKS) for t in range(N_TYPES)], dtype=np.int64)
        table = np.zeros((2, 1 << 12), dtype=np.int64)
        for idx in range(1 << 12):
            lo, hi = idx & 63, idx >> 6
            counts = [((lo >> r) & 1) + ((hi >> r) & 1) for r in range(N_RANKS)]
            if any((hi >> r) & 1 and not (lo >> r) & 1 for r in range(N_RANKS)):
                continue  # impossible pattern (two copies without one)
            c5 = (counts[_A], counts[_T], counts[_K], counts[_Q], counts[_J])
            table[0, idx] = self.suit_f_value(c5, False)
            table[1, idx] = self.suit_f_value(c5, True)
        fmask = np.array([sum(1 << type_id(s, r) for s in range(N_SUITS)) for r in range(N_RANKS)],
                         dtype=np.int64)
        bmask = sum(1 << type_id(s, r) for s, r in self.binokel_cards)
        return KernelRules(
            card_points=cp,
            rank_strength=strength,
            suit_f_table=table,
            fours_mask=fmask,
            fours_value=np.array(self.fours, dtype=np.int64),
            eights_value=np.array(self.eights, dtype=np.int64),
            binokel_mask=int(bmask),
            binokel_single=int(self.binokel[0]),
            binokel_double=int(self.binokel[1]),
            nine_rank=_N,
            trump_nine_value=int(self.trump_nine),
            last_trick_bonus=int(self.last_trick_bonus),
            hand_size=int(self.hand_size),
            tapp_size=int(self.tapp_size),
            bid_start=int(self.bid_start),
            bid_step=int(self.bid_step),
            surrender_bonus=int(self.surrender_bonus),
            durch_value=int(self.durch_value),
            target_score=int(self.target_score),
            loss_factor=int(self.loss_factor),
        )

    def __hash__(self) -> int:  # cached_property needs a __dict__; keep dataclass hashable
        return hash(tuple(sorted((k, str(v)) for k, v in self.to_dict().items())))


DEFAULT_RULES = RuleSet()
