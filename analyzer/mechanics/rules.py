"""Every rule constant of a game, in one frozen RuleSet per variant (docs/RULES.md R1-R9,
docs/VARIANTS.md V1-V5).

A variant is data: each difference between the games of docs/VARIANTS.md is a named
field below with a one-line comment, and :meth:`RuleSet.compile` turns a RuleSet into
the plain ints and arrays of :class:`KernelRules` that the numba kernels read.  Kernels
never test a variant's name; a new variant is a new RuleSet in :data:`VARIANTS`, not a
new kernel.  ``get_rules("grupp-3")`` looks one up by name.

Registered variants (docs/VARIANTS.md):

- ``binokel-48``: R1-R10, 48 cards with nines, forced opening, Durch +-1000.
- ``grupp-3`` (V2): sevens for nines, forehand may pass ("weg"), Dissle counted from the
  discard, grand binokel, double family 1500, going out +30, rounding, Durch 1000 /
  open Durch 1500, a failed Durch -2x.
- ``grupp-4`` (V3): ``grupp-3`` with four at the table; the dealer sits out for +200.
- ``binokel-40`` (V5): 40 cards (no low card), 12 + 4, eights and double families as two
  fours / two families, beat the led suit even when trumped (V5.6), going out +40,
  rounding, no Durch, game to 1000.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from typing import NamedTuple

import numpy as np

from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_RANKS, N_SUITS, N_TYPES, type_id

# rank indices (see cards.py): A=0, 10=1, K=2, Q=3, J=4, low card (9 or 7)=5
_A, _T, _K, _Q, _J, _N = range(6)
_C, _S, _H, _D = range(4)

# The fast exchange's card-point model (analyzer.mechanics.exchange), fitted per variant
# by exchange.fit_weights(30000, 0, rules): a policy parameter that depends on the deck,
# hand size and play duties, so it lives with the variant.  Refitted for issue 12's
# heuristic defence (analyzer.mechanics.play._defend keeps the soloist to fewer card
# points): binokel-48 R^2 0.679, residual s.d. 19.9; grupp-3 0.668, 20.1; binokel-40
# 0.678, 22.9.  Before, with heuristic-v1: binokel-48 had the weights of commit c0c278a
# (-66.34, 15.55, 19.52, 9.06, 0.88, 14.94, 9.79, 6.03, 0.14, 3.84, 0.73, 0.21; s.d. 23;
# a refit on heuristic-v1 gives -68.85, 18.13, 19.68, 9.49, 1.08, 15.45, 8.51, 5.60,
# -0.03, 4.74, 1.91, -0.12, s.d. 21.1), grupp-3 (-68.90, 18.13, 19.70, ...; s.d. 21.1),
# binokel-40 (-73.64, 27.27, 22.01, ...; s.d. 24.4).
_W48 = (-59.20, 15.84, 19.15, 9.89, 0.92, 15.84, 7.30, 8.56, -0.07, 9.09, 1.00, -0.08)
_WGRUPP = (-55.85, 14.68, 19.34, 9.92, 1.00, 15.37, 7.67, 8.83, -0.06, 9.09, -0.02, 0.02)
_W40 = (-86.55, 27.00, 21.62, 6.79, -1.40, 17.18, 8.50, 6.84, 0.28, 13.92, 1.77, -0.52)


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
    trump_nine_value: int        # 10 per trump nine held (R5); 0 = no type D (V5.5)
    last_trick_bonus: int        # 10 (R1/R7)
    hand_size: int               # 15 (R2); 12 in binokel-40 (V5.1)
    tapp_size: int               # 3 (R2) = cards discarded (R4); 4 in binokel-40 (V5.3)
    bid_start: int               # 150 (R3)
    bid_step: int                # 10 (R3)
    surrender_bonus: int         # 50 for each opponent (R4); 30 (V2.4), 40 (V5.4)
    durch_value: int             # 1000 (R4); 0 = no Durch (V5.7)
    target_score: int            # 1500 (R9); 1000 (V5.7)
    loss_factor: int             # 2: a failed contract scores -loss_factor x bid (R8)
    copies: np.ndarray           # int64[24]: copies of each type in the deck (2, or 0 = not in the deck, V5.1)
    n_cards: int                 # cards in the deck (48 or 40)
    grand_binokel_mask: int      # lo-plane mask K♠ + Q♠ + J♦ (V2.5)
    grand_binokel_value: int     # 80 in type B in place of 40 (V2.5); 0 = no such meld
    dissle_in_discard: int       # 1: trump low cards in the discard meld for the soloist (V2.3)
    forced_opening: int          # 1: forehand must open (R3, V5.2); 0: may pass, "weg" (V2.2)
    round_to: int                # card points rounded to the nearest round_to, 5 up (V1); 0 = no rounding
    beat_led_trumped: int        # 1: beat the led suit's highest card even when trumped (V5.6)
    open_durch_value: int        # open Durch value (V2.7); 0 = no open Durch
    durch_loss_factor: int       # a failed Durch scores -durch_loss_factor x its value (R4: 1, V2.7: 2)
    sitting_out_points: int      # points per deal of the seat that sits out (V3: 200)
    table_seats: int             # players at the table (3, or 4 with the dealer sitting out, V3)
    est_weights: np.ndarray      # float64[12]: the fast exchange's card-point model (policy, fitted per variant)
    est_sigma: float             # residual s.d. of that model


@dataclass(frozen=True)
class RuleSet:
    """The rule constants of one variant.  Default: RULES.md (3 players, 48 cards).

    Meld values follow R5's table; ``family`` etc. are (plain, trump) pairs.  Rank index
    5 of the card encoding (cards.py) is "the low card": ``low_card`` names it ("9" or
    "7"), or is "" when the deck has no low card (binokel-40: 20 types, 40 cards).
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
    seed: str = "000, 002"                                     # the rule sheets the variant comes from
    low_card: str = "9"                                        # V1: rank 5 is the 9, the 7, or absent ("")
    players: int = 3                                           # V1: active players in a deal
    table_seats: int = 3                                       # V3: 4 = the dealer sits out each deal
    grand_binokel: int = 0                                     # V2.5: K♠ + Q♠ + J♦ in type B (0 = no such meld)
    dissle_in_discard: bool = False                            # V2.3: the trump low card melds from the discard
    forced_opening: bool = True                                # R3 / V5.2 forced 150; False = "weg" (V2.2)
    thrown_in: bool = False                                    # V2.2: all three pass -> deal thrown in, 0 each
    round_to: int = 0                                          # V1: round card points to the nearest 10, 5 up (0 = no)
    beat_led_when_trumped: bool = False                        # V5.6: beat the led suit even when already trumped
    open_durch_value: int = 0                                  # V2.7: open Durch (cards shown) value; 0 = none
    durch_loss_factor: int = 1                                 # R4: failed Durch -1 x value; V2.7: -2 x
    sitting_out_points: int = 0                                # V3: the sitting-out dealer's points per deal
    est_weights: tuple[float, ...] = _W48                      # policy: fast exchange card-point model (fit_weights)
    est_sigma: float = 19.9                                    # policy: its residual s.d. (fit_weights)
    section: str = "R1-R10"                                    # where the variant is stated (docs)

    def to_dict(self) -> dict:
        return asdict(self)

    @cached_property
    def kernel(self) -> KernelRules:
        """The compiled arrays (cached)."""
        return self.compile()

    # ---- derived facts used at the API edge

    @property
    def has_low_card(self) -> bool:
        return self.low_card != ""

    @property
    def n_cards(self) -> int:
        """Cards in the deck: 2 copies x 4 suits x (6 or 5) ranks."""
        return 2 * N_SUITS * (N_RANKS if self.has_low_card else N_RANKS - 1)

    @property
    def deck_text(self) -> str:
        if self.has_low_card:
            word = {"9": "nines", "7": "sevens"}.get(self.low_card, self.low_card)
            return f"{self.n_cards}, with {word}"
        return f"{self.n_cards}"

    def in_deck(self, type_id_: int) -> bool:
        """Whether card type ``type_id_`` (cards.py encoding) exists in this deck."""
        return self.has_low_card or type_id_ % N_RANKS != _N

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
        copies = np.array([2 if self.in_deck(t) else 0 for t in range(N_TYPES)], dtype=np.int64)
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
            copies=copies,
            n_cards=int(copies.sum()),
            grand_binokel_mask=int(bmask | (1 << type_id(_S, _K))),
            grand_binokel_value=int(self.grand_binokel),
            dissle_in_discard=int(bool(self.dissle_in_discard)),
            forced_opening=int(bool(self.forced_opening)),
            round_to=int(self.round_to),
            beat_led_trumped=int(bool(self.beat_led_when_trumped)),
            open_durch_value=int(self.open_durch_value),
            durch_loss_factor=int(self.durch_loss_factor),
            sitting_out_points=int(self.sitting_out_points),
            table_seats=int(self.table_seats),
            est_weights=np.array(self.est_weights, dtype=np.float64),
            est_sigma=float(self.est_sigma),
        )

    def round_points(self, points: int) -> int:
        """Card points as scored (V1): nearest ``round_to``, 5 up; unchanged without rounding."""
        r = self.round_to
        return int(points) if r <= 0 else (int(points) + r // 2) // r * r

    def __hash__(self) -> int:  # cached_property needs a __dict__; keep dataclass hashable
        return hash(tuple(sorted((k, str(v)) for k, v in self.to_dict().items())))

    def describe(self) -> dict:
        """The summary row of ``binokel rules``: name, seed, players, deck, hand + Dabb."""
        players = (f"{self.table_seats} at the table, {self.players} play"
                   if self.table_seats > self.players else str(self.players))
        return {"name": self.name, "seed": self.seed, "players": players, "deck": self.deck_text,
                "hand_dabb": f"{self.hand_size} + {self.tapp_size}", "section": self.section}


DEFAULT_RULES = RuleSet()

# V2: the classic three-hand game after Grupp 1994 (seed 001)
GRUPP_3 = replace(
    DEFAULT_RULES,
    name="grupp-3", seed="001", section="V1, V2", low_card="7",
    double_family=(1500, 1500),       # V2.5: 1500 whether trump or not
    grand_binokel=80,                 # V2.5: K♠ Q♠ J♦ 80 in place of the binokel's 40
    dissle_in_discard=True,           # V2.3
    forced_opening=False, thrown_in=True,   # V2.2 "weg"; all pass -> thrown in
    surrender_bonus=30,               # V2.4
    round_to=10,                      # V2.6 / V1
    durch_value=1000, open_durch_value=1500, durch_loss_factor=2,   # V2.7
    est_weights=_WGRUPP, est_sigma=20.1,   # fit_weights (policy)
)
# V3: grupp-3 with four at the table, the dealer sits out for +200 a deal
GRUPP_4 = replace(GRUPP_3, name="grupp-4", section="V1, V2, V3", table_seats=4,
                  sitting_out_points=200)
# V5: the modern 40-card game (seeds 000 §08, 001)
BINOKEL_40 = replace(
    DEFAULT_RULES,
    name="binokel-40", seed="000, 001", section="V1, V5", low_card="",
    card_points=(11, 10, 4, 3, 2, 0),
    hand_size=12, tapp_size=4,        # V5.1, V5.3
    double_family=(200, 300),         # V5.5: two families
    eights=(200, 0, 160, 120, 80, 0),  # V5.5: two fours
    trump_nine=0,                     # V5.5: no type D
    surrender_bonus=40,               # V5.4
    round_to=10,                      # V5.7 / V1
    beat_led_when_trumped=True,       # V5.6
    durch_value=0,                    # V5.7: no Durch
    target_score=1000,                # V5.7
    est_weights=_W40, est_sigma=22.9,      # fit_weights (policy)
)

#: name -> RuleSet, in the order of docs/VARIANTS.md
VARIANTS: dict[str, RuleSet] = {r.name: r for r in (DEFAULT_RULES, GRUPP_3, GRUPP_4, BINOKEL_40)}
#: the registered variant names (the ``--rules`` values)
RULE_NAMES: tuple[str, ...] = tuple(VARIANTS)
# stated in docs/VARIANTS.md but not built yet (teams and two-hand games)
NOT_BUILT = ("binokel-2",)


def get_rules(name: "str | RuleSet | None" = None) -> RuleSet:
    """The RuleSet registered as ``name`` (None: binokel-48); a RuleSet passes through.

    Raises :class:`BinokelError` (one line listing the names) for an unknown name.
    """
    if name is None:
        return DEFAULT_RULES
    if isinstance(name, RuleSet):
        return name
    key = str(name).strip().lower()
    if key in VARIANTS:
        return VARIANTS[key]
    extra = f" ({', '.join(NOT_BUILT)} are described but not built yet)" if key in NOT_BUILT else ""
    raise BinokelError(f"unknown rules {name!r}{extra}: use one of {', '.join(RULE_NAMES)}")


def register(rules: RuleSet) -> RuleSet:
    """Add a RuleSet to the registry (for variants built elsewhere, e.g. team games)."""
    global RULE_NAMES
    VARIANTS[rules.name] = rules
    RULE_NAMES = tuple(VARIANTS)
    return rules
