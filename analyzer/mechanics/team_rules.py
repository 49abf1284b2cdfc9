"""The team games as RuleSets (V1, V4, V5, V6) and their compiled kernel data.

``kreuz-48``, ``kreuz-40`` and ``pinochle-80`` are :class:`TeamRuleSet` instances (a
RuleSet with the fields team games add, each with a one-line comment) registered in the
one registry of analyzer.mechanics.rules (``get_rules("pinochle-80")``).  Kernels receive
the plain arrays and ints of a :class:`TeamKernel` (:func:`team_kernel`) and never hold a
rule number of their own, nor see a variant's name.  Card types and the 80-card hand
encoding are those of ``cards.py`` (types ``suit * 6 + rank``; counts 0..4 per type).
"""
from __future__ import annotations

from dataclasses import dataclass
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
    """Plain ints and arrays for the Pinochle kernels (built by team_kernel)."""

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


# --------------------------------------------------------------------------- team games

from analyzer.mechanics.cards import COPIES80, DECK80_TYPES  # noqa: E402

from analyzer.mechanics.rules import (BINOKEL_40, DEFAULT_RULES as _BINOKEL_48, GRUPP_3,  # noqa: E402
                                      RuleSet, register)


@dataclass(frozen=True)
class TeamRuleSet(RuleSet):
    """A RuleSet of a four-handed team game (V1: partners opposite, 0 + 2 against 1 + 3).

    Every field of :class:`~analyzer.mechanics.rules.RuleSet` keeps its meaning (the
    Pinochle melds map onto them: ``family`` = trump flush, ``pair`` = (marriage, royal
    marriage), ``fours`` / ``eights`` = single / double arounds, ``binokel`` = the
    pinochle Q♠ J♦); the fields below are what team games add.
    """

    teams: bool = True                     # V1: two teams, partners opposite (0+2, 1+3)
    copies: int = 2                        # V6.1: copies of each card type (4: the 80-card deck)
    partner_relief: bool = False           # V5.6: beat/trump duties lifted while the partner wins (kreuz-40)
    trump_lead_duty: bool = False          # V6.4: head only a trump lead; no overtrump duty on a plain lead
    open_bidding: bool = False             # V6.2: bids in turn, any multiple of bid_step from bid_start, jumps
    meld_needs_counter_trick: bool = False  # V6.3: melds count only with a trick holding a counter
    bidder_leads: bool = False             # V6.2: the high bidder leads the first trick (else forehand, V4.5)

    @property
    def n_cards(self) -> int:
        """Cards in the deck: copies x 4 suits x (6 or 5) ranks."""
        return self.copies * 4 * (N_RANKS if self.has_low_card else N_RANKS - 1)

    @property
    def counters(self) -> str:
        """The V6.5 counter option of a Pinochle RuleSet ('a' or 'b'), else ''."""
        for k, v in COUNTER_OPTIONS.items():
            if tuple(self.card_points) == v:
                return k
        return ""

    @property
    def deal_points(self) -> int:
        """Card points of a deal: copies x 4 suits x the rank values + the last trick."""
        return self.copies * 4 * sum(self.card_points) + self.last_trick_bonus

    def __hash__(self) -> int:
        return hash(tuple(sorted((k, str(v)) for k, v in self.to_dict().items())))


# V4: Kreuzbinokel with sevens, two teams, 11 + 4 (seed 001)
KREUZ_48 = TeamRuleSet(**{**GRUPP_3.to_dict(), "name": "kreuz-48", "section": "V1, V2, V4",
                          "players": 4, "table_seats": 4,
                          "hand_size": 11, "tapp_size": 4,       # V4.1; the rest as V2 (V4.2-V4.6)
                          # policy: the soloist's team estimate (team_game.fit_team_weights(
                          # KREUZ_48, 20000, 0): R^2 0.23; partners' melds are unseen)
                          "est_weights": (75.66, 19.47, 15.42, 10.92, -1.2, 10.23, 1.47, 2.78,
                                          -1.21, 11.62, 4.1, -0.84), "est_sigma": 49.2})
# V5: the modern 40-card team game, 9 + 4, partner relief (seeds 000, 001)
KREUZ_40 = TeamRuleSet(**{**BINOKEL_40.to_dict(), "name": "kreuz-40", "section": "V1, V5",
                          "players": 4, "table_seats": 4,
                          "hand_size": 9, "tapp_size": 4,        # V5.1
                          "partner_relief": True,                # V5.6
                          # policy: fit_team_weights(KREUZ_40, 20000, 0): R^2 0.29
                          "est_weights": (50.42, 26.99, 18.4, 9.87, -1.28, 10.83, 2.43, -0.7,
                                          -0.64, 15.24, 3.86, -1.62), "est_sigma": 46.1})
# V6: double-deck partnership Pinochle (seed 003)
PINOCHLE_80 = TeamRuleSet(**{
    **_BINOKEL_48.to_dict(), "name": "pinochle-80", "seed": "003", "section": "V1, V6",
    "low_card": "", "copies": 4, "players": 4, "table_seats": 4,    # V6.1
    "hand_size": 20, "tapp_size": 0,                                # V6.1: no widow
    "card_points": COUNTER_OPTIONS["a"], "last_trick_bonus": 20,    # V6.5 a), last trick 20
    "family": (0, 150), "double_family": (0, 300),                  # V6.3 A: trump flush 150 each
    "pair": (20, 40),                                               # V6.3 A: marriage 20, royal 40
    "fours": (100, 0, 80, 60, 40, 0),                               # V6.3 B: arounds
    "eights": (1000, 0, 800, 600, 400, 0),                          # V6.3 B: double arounds
    "binokel": (40, 300),                                           # V6.3 C: pinochle, double
    "trump_nine": 0, "grand_binokel": 0,                            # no low card, no such meld
    "bid_start": 500, "bid_step": 10, "open_bidding": True,         # V6.2
    "forced_opening": False, "thrown_in": True,                     # V6.2: all pass = thrown in
    "surrender_bonus": 0, "durch_value": 0, "round_to": 0,          # not in V6
    "loss_factor": 1, "target_score": 3550,                         # V6.6
    "trump_lead_duty": True,                                        # V6.4
    "meld_needs_counter_trick": True, "bidder_leads": True,         # V6.3, V6.2
})
#: V6.5 option b as a RuleSet option (not a separate game name)
PINOCHLE_80_B = TeamRuleSet(**{**PINOCHLE_80.to_dict(), "card_points": COUNTER_OPTIONS["b"]})

for _r in (KREUZ_48, KREUZ_40, PINOCHLE_80):
    register(_r)


def _team_kernel_of(rules) -> TeamKernel:
    """Compile a :class:`TeamRuleSet` (team_rulesets) into the TeamKernel (V4, V5, V6)."""
    kr = rules.kernel
    (qs, qr), (js, jr) = rules.binokel_cards
    duty = 2 if rules.trump_lead_duty else (1 if rules.beat_led_when_trumped else 0)
    copies = np.array([rules.copies if rules.in_deck(t) else 0 for t in range(N_TYPES)],
                      dtype=np.int64)
    return TeamKernel(
        card_points=kr.card_points, rank_strength=kr.rank_strength, copies=copies,
        duty=duty, partner_relief=int(rules.partner_relief),
        flush=int(rules.family[1]), royal_marriage=int(rules.pair[1]),
        marriage=int(rules.pair[0]), around=np.array(rules.fours, dtype=np.int64),
        double_around=np.array(rules.eights, dtype=np.int64),
        pinochle_q=int(type_id(qs, qr)), pinochle_j=int(type_id(js, jr)),
        pinochle_single=int(rules.binokel[0]), pinochle_double=int(rules.binokel[1]),
        meld_needs_counter=int(rules.meld_needs_counter_trick),
        last_trick_bonus=int(rules.last_trick_bonus), hand_size=int(rules.hand_size),
        min_bid=int(rules.bid_start), bid_step=int(rules.bid_step),
        target_score=int(rules.target_score), dabb_size=int(rules.tapp_size),
        forced_opening=int(rules.forced_opening), going_out_bonus=int(rules.surrender_bonus),
        round_to=int(rules.round_to), loss_factor=int(rules.loss_factor),
        dissle_value=int(rules.trump_nine) if rules.dissle_in_discard else 0, low_rank=_N,
        bidder_leads=int(rules.bidder_leads))


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


def team_spec(rules) -> TeamSpec:
    """The :class:`TeamSpec` of a team game's :class:`TeamRuleSet` (cached).

    Raises BinokelError for the rules of a game without teams (V1).
    """
    if not getattr(rules, "teams", False):
        raise BinokelError(f"{rules.name} is not a team game: use kreuz-48, kreuz-40 or pinochle-80")
    spec = _SPEC_CACHE.get(rules)
    if spec is None:
        tk = _team_kernel_of(rules)
        types = [t for t in range(N_TYPES) if tk.copies[t] > 0]
        deck = np.repeat(np.array(types, dtype=np.uint8), rules.copies)
        if 4 * rules.hand_size + rules.tapp_size != deck.shape[0]:
            raise BinokelError(f"{rules.name}: 4 hands of {rules.hand_size} + a Dabb of "
                               f"{rules.tapp_size} do not make the {deck.shape[0]}-card deck")
        spec = TeamSpec(rules.name, tk, rules.kernel, deck, int(rules.copies),
                        int(rules.hand_size), int(rules.tapp_size), bool(rules.open_bidding),
                        int(rules.bid_start), int(rules.bid_step), bool(rules.forced_opening),
                        rules)
        _SPEC_CACHE[rules] = spec
    return spec


_SPEC_CACHE: dict = {}


def team_kernel(rules) -> TeamKernel:
    """The compiled :class:`TeamKernel` of a team game's rules."""
    return team_spec(rules).tk


PINOCHLE_RULES = PINOCHLE_80      # the names the Pinochle modules use
PINOCHLE_RULES_B = PINOCHLE_80_B
