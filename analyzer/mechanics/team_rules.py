"""The rule constants of double-deck partnership Pinochle (``pinochle-80``, V6), as data.

One frozen :class:`PinochleRules` holds every number of V6 as a named field; kernels
receive the plain arrays and ints of :meth:`PinochleRules.compile` (a
:class:`TeamKernel`) and never hold a rule number of their own.  Card types and the
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


class TeamKernel(NamedTuple):
    """Plain ints and arrays for the Pinochle kernels (built by PinochleRules.compile)."""

    card_points: np.ndarray      # int64[24]: counter points per card type (V6.5)
    rank_strength: np.ndarray    # int64[24]: higher beats lower within a suit (V1, V6.4)
    copies: np.ndarray           # int64[24]: copies of each type in the deck (4; 0 = the 9s)
    duty: int                    # play duties: 0 = R6, 1 = V5.6, 2 = V6.4 (team_play)
    partner_relief: int          # 1: beat/trump duties lifted while the partner wins (V5.6)
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
    last_trick_bonus: int        # 20 (V6.5); 10 in the Binokel games (V1)
    hand_size: int               # 20 (V6.1); 11 kreuz-48 (V4.1), 9 kreuz-40 (V5.1)
    min_bid: int                 # 500 (V6.2); the opening bid 150 in the Binokel games (V1)
    bid_step: int                # 10 (V6.2, V1)
    target_score: int            # 3550 (V6.6); 1500 (V4.6), 1000 (V5.7)
    dabb_size: int               # 0 (V6.1); 4 (V4.1, V5.1): the soloist takes it, discards as many
    forced_opening: int          # 1: forehand must open (V5.2); 0: may pass (V4.2 after V2.2)
    going_out_bonus: int         # the other team's bonus when the soloist goes out (V4.3 30, V5.4 40)
    round_to: int                # team card points rounded to the nearest round_to, 5 up (V1); 0 = no
    loss_factor: int             # failed contract: -loss_factor x bid (2: V4.6, R8; 1: V6.6)
    dissle_value: int            # per trump low card melded from the discard (V2.3: 10); 0 = none
    low_rank: int                # rank index of the low card (5: the 7 or 9)
    bidder_leads: int            # 1: the high bidder leads the first trick (V6.2); 0: forehand (V4.5)


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
    def kernel(self) -> TeamKernel:
        return self.compile()

    def compile(self) -> TeamKernel:
        cp = np.array([self.card_points[t % N_RANKS] for t in range(N_TYPES)], dtype=np.int64)
        strength = np.array([N_RANKS - 1 - (t % N_RANKS) for t in range(N_TYPES)], dtype=np.int64)
        (qs, qr), (js, jr) = self.pinochle_cards
        return TeamKernel(
            card_points=cp,
            rank_strength=strength,
            copies=np.array([0 if t % N_RANKS == _N else self.copies for t in range(N_TYPES)],
                            dtype=np.int64),
            duty=2,
            partner_relief=0,
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
            dabb_size=0,
            forced_opening=0,
            going_out_bonus=0,
            round_to=0,
            loss_factor=1,
            dissle_value=0,
            low_rank=_N,
            bidder_leads=1,
        )

    def __hash__(self) -> int:
        return hash(tuple(sorted((k, str(v)) for k, v in self.to_dict().items())))


PINOCHLE_RULES = PinochleRules()
PINOCHLE_RULES_B = PinochleRules(name="pinochle-80b", counters="b")


def kreuz_kernel(rules, hand_size: int, dabb_size: int, duty: int, partner_relief: bool,
                 round_to: int, forced_opening: bool, dissle_in_discard: bool) -> TeamKernel:
    """The TeamKernel of a four-handed Binokel team game (V4 ``kreuz-48``, V5 ``kreuz-40``)
    from the RuleSet ``rules`` whose deck, card points, meld values and scoring constants
    it shares, and the team game's own facts (hand + Dabb, duty table, rounding, ...).

    The melds of these games are the RuleSet's (analyzer.mechanics.melds, per player).
    """
    kr = rules.kernel
    copies = np.array([2 if (t % N_RANKS != _N or getattr(rules, "low_card", "9") != "")
                       else 0 for t in range(N_TYPES)], dtype=np.int64)
    zeros6 = np.zeros(6, dtype=np.int64)
    return TeamKernel(
        card_points=kr.card_points, rank_strength=kr.rank_strength, copies=copies,
        duty=int(duty), partner_relief=int(bool(partner_relief)),
        flush=0, royal_marriage=0, marriage=0, around=zeros6, double_around=zeros6,
        pinochle_q=0, pinochle_j=0, pinochle_single=0, pinochle_double=0,
        meld_needs_counter=0, last_trick_bonus=int(rules.last_trick_bonus),
        hand_size=int(hand_size), min_bid=int(rules.bid_start), bid_step=int(rules.bid_step),
        target_score=int(rules.target_score), dabb_size=int(dabb_size),
        forced_opening=int(bool(forced_opening)), going_out_bonus=int(rules.surrender_bonus),
        round_to=int(round_to), loss_factor=int(rules.loss_factor),
        dissle_value=int(rules.trump_nine) if dissle_in_discard else 0, low_rank=_N,
        bidder_leads=0)


# --------------------------------------------------------------------------- team games

from analyzer.mechanics.cards import COPIES80, DECK80_TYPES  # noqa: E402


@dataclass(frozen=True)
class TeamSpec:
    """Everything the team analyses need about one team game, compiled once: the
    TeamKernel, the KernelRules whose melds a 2-copy game uses (analyzer.mechanics.melds),
    the deck as card types, and the auction's form (V6.2 open bidding, or V1's chain of
    duels).  Built by :func:`team_spec` from the game's rules; nothing here tests a name.
    """

    name: str
    tk: TeamKernel
    kr: object                   # KernelRules of the meld RuleSet (2-copy decks)
    deck: np.ndarray             # uint8[n]: the card types of the deck, each copy once
    copies: int                  # copies per type (2 or 4)
    hand_size: int
    dabb_size: int
    open_auction: bool           # True: V6.2 (any multiple of the step >= min); False: V1 duels
    start: int                   # lowest / opening bid
    step: int
    forced_opening: bool
    rules: object                # the rules object it was built from

    @property
    def n_cards(self) -> int:
        return int(self.deck.shape[0])


def team_spec(rules, *, hand_size: int | None = None, dabb_size: int | None = None,
              duty: int | None = None, partner_relief: bool | None = None) -> TeamSpec:
    """The :class:`TeamSpec` of ``rules``: a :class:`PinochleRules`, or a Binokel RuleSet of
    a team game (its fields ``hand_size``, ``tapp_size`` (the Dabb), ``round_to``,
    ``forced_opening``, ``dissle_in_discard``, ``beat_led_when_trumped`` and
    ``partner_relief`` where the RuleSet has them; keyword overrides win)."""
    if isinstance(rules, PinochleRules):
        tk = team_kernel(rules)
        deck = np.repeat(np.array(DECK80_TYPES, dtype=np.uint8), COPIES80)
        from analyzer.mechanics.rules import DEFAULT_RULES
        return TeamSpec(rules.name, tk, DEFAULT_RULES.kernel, deck, COPIES80, rules.hand_size, 0,
                        True, rules.min_bid, rules.bid_step, False, rules)
    hs = int(hand_size if hand_size is not None else rules.hand_size)
    ds = int(dabb_size if dabb_size is not None else rules.tapp_size)
    beat_led = bool(getattr(rules, "beat_led_when_trumped", False))
    d = duty if duty is not None else (1 if beat_led else 0)
    relief = partner_relief if partner_relief is not None else bool(getattr(rules, "partner_relief", False))
    forced = bool(getattr(rules, "forced_opening", True))
    tk = kreuz_kernel(rules, hs, ds, d, relief, int(getattr(rules, "round_to", 0)), forced,
                      bool(getattr(rules, "dissle_in_discard", False)))
    types = [t for t in range(N_TYPES) if tk.copies[t] > 0]
    deck = np.repeat(np.array(types, dtype=np.uint8), 2)
    if 4 * hs + ds != deck.shape[0]:
        raise BinokelError(f"{rules.name}: 4 hands of {hs} + a Dabb of {ds} do not make the "
                           f"{deck.shape[0]}-card deck")
    return TeamSpec(rules.name, tk, rules.kernel, deck, 2, hs, ds, False, int(rules.bid_start),
                    int(rules.bid_step), forced, rules)


def team_kernel(rules) -> TeamKernel:
    """The compiled :class:`TeamKernel` of a team game's rules (cached per rules object)."""
    k = _TK_CACHE.get(rules)
    if k is None:
        k = rules.compile() if isinstance(rules, PinochleRules) else team_spec(rules).tk
        _TK_CACHE[rules] = k
    return k


_TK_CACHE: dict = {}
