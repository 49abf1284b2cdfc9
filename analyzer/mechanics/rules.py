"""Flat views of the games' rules for the modules not yet ported to the nested RuleSet
(transitional, issue 24; docs/design/engine.md).

The single source of every game's rules is the nested RuleSet of
:mod:`analyzer.mechanics.ruleset` (named parts: deck, table, auction, Dabb, melds, play,
card points, scoring, game end) and its one registry ``GAMES``.  This module derives from
it, for every registered game, the flat :class:`RuleSet` (three-player games) or
:class:`TeamRuleSet` (partners) that today's modules read, with the compiled
:class:`KernelRules` of the three-player kernels (:func:`flat_view`; :func:`from_flat`
goes back).  ``VARIANTS`` / ``get_rules`` index these views; nothing here defines a game.

What removes this module: once every kernel reads ``ruleset.Kernel`` and every module the
parts (``rules.table.seats``, not ``rules.table_seats``), ``get_rules`` returns the nested
RuleSet and the flat classes, ``KernelRules`` and ``TeamKernel`` go.
Until then a flat RuleSet stays a plain frozen dataclass, so ``dataclasses.replace`` on
it keeps working for the callers (and tests) that build ad-hoc variants.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from typing import NamedTuple

import numpy as np

from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_RANKS, N_SUITS, N_TYPES, type_id
from analyzer.mechanics.ruleset import (BEAT_LED_HIGH, BEAT_TRUMP_LEAD, BEAT_WINNER, COUNTERS,
                                        GAMES, Auction, CardPoints, Dabb, Deck, Fitted, GameEnd,
                                        Melds, Play, Scoring, Table, get_game)
from analyzer.mechanics.ruleset import NOT_BUILT  # noqa: F401 (re-exported for its readers)
from analyzer.mechanics.trick import DUTY_R6, DUTY_V56, DUTY_V64
from analyzer.mechanics.ruleset import RuleSet as Game

# rank indices (see cards.py): A=0, 10=1, K=2, Q=3, J=4, low card (9 or 7)=5
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


class TeamKernel(NamedTuple):
    """Plain ints and arrays for the kernels of the games with partners (built by
    :func:`team_kernel` from the one compiled ``ruleset.Kernel``, field for field)."""

    card_points: np.ndarray      # int64[24]: counter points per card type (V6.5)
    rank_strength: np.ndarray    # int64[24]: higher beats lower within a suit (V1, V6.4)
    copies: np.ndarray           # int64[24]: copies of each type in the deck (4; 0 = the 9s)
    duty: int                    # play duties: trick.DUTY_R6 / DUTY_V56 / DUTY_V64 (R6, V5.6, V6.4)
    partner_relief: int          # 1: beat/trump duties lifted while the partner wins (V5.6)
    # the meld table, named as ruleset.Kernel's (melds.meld_total_counts reads either)
    family: np.ndarray           # int64[2]: (plain, trump) family; V6.3 A: 150 per trump flush
    pair: np.ndarray             # int64[2]: (plain, trump) K-Q; V6.3 A: marriage 20, royal 40
    fours_value: np.ndarray      # int64[6]: one of rank r in every suit, 0 = no meld (V6.3 B around)
    eights_value: np.ndarray     # int64[6]: two of rank r in every suit (V6.3 B double around)
    binokel_q: int               # type of the binokel (pinochle) queen, Q♠ (V6.3 C)
    binokel_j: int               # type of the binokel (pinochle) jack, J♦ (V6.3 C)
    binokel_single: int          # 40 (V6.3 C)
    binokel_double: int          # 300 (V6.3 C)
    meld_needs_counter: int      # 1: a side's melds count only with a counting trick (V6.3)
    last_trick_bonus: int        # 20 (V6.5); 10 in the Binokel games (V1)
    hand_size: int               # 20 (V6.1); 11 kreuz-48 (V4.1), 9 kreuz-40 (V5.1)
    min_bid: int                 # 500 (V6.2); the opening bid 150 in the Binokel games (V1)
    bid_step: int                # 10 (V6.2, V1)
    target_score: int            # 3550 (V6.6); 1500 (V4.6), 1000 (V5.7)
    dabb_size: int               # 0 (V6.1); 4 (V4.1, V5.1): the soloist takes it, discards as many
    forced_opening: int          # 1: forehand must open (V5.2); 0: may pass (V4.2 after V2.2)
    going_out_bonus: int         # the other side's bonus when the soloist goes out (V4.3 30, V5.4 40); 0 = none
    round_to: int                # team card points rounded to the nearest round_to, 5 up (V1); 0 = no
    loss_factor: int             # failed contract: -loss_factor x bid (2: V4.6, R8; 1: V6.6)
    dissle_value: int            # per trump low card melded from the discard (V2.3: 10); 0 = none there
    low_rank: int                # rank index of the low card (5: the 7 or 9)
    bidder_leads: int            # 1: the high bidder leads the first trick (V6.2); 0: forehand (V4.5)


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
    est_weights: tuple[float, ...] = Fitted().est_weights      # policy: fast exchange card-point model (fit_weights)
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


@dataclass(frozen=True)
class TeamRuleSet(RuleSet):
    """A flat RuleSet of a four-handed team game (V1: partners opposite, 0 + 2 against 1 + 3).

    Transitional, like :class:`RuleSet`: the fields below are what the team modules read
    (the partners' kernels of play, game, bidding, melds, scoring); each is derived from a part of the nested RuleSet
    (:func:`flat_view`).  The Pinochle melds are the meld table's kinds under their
    Binokel names (``Melds.names`` gives the Pinochle words): ``family`` = the A-10-K-Q-J
    of a suit (only the trump flush scores, V6.3), ``pair`` = (marriage, royal marriage),
    ``fours`` / ``eights`` = single / double arounds, ``binokel`` = the pinochle Q♠ J♦.
    The kernels read the compiled ``ruleset.Kernel`` (:func:`team_kernel`), not these fields.
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
        for k, v in COUNTERS.items():
            if tuple(self.card_points) == v:
                return k
        return ""

    @property
    def deal_points(self) -> int:
        """Card points of a deal: copies x 4 suits x the rank values + the last trick."""
        return self.copies * 4 * sum(self.card_points) + self.last_trick_bonus

    def __hash__(self) -> int:
        return hash(tuple(sorted((k, str(v)) for k, v in self.to_dict().items())))


# --------------------------------------------------------------------------- views

def flat_view(game: Game) -> RuleSet:
    """The flat (transitional) RuleSet of the nested RuleSet ``game`` (analyzer.mechanics.ruleset).

    A :class:`TeamRuleSet` when the game has partners (V1), else a :class:`RuleSet`.  Each
    flat field is one field of a part; :func:`from_flat` is the inverse (tested on every
    registered game).
    """
    d, t, a, m, p, cp, s = (game.deck, game.table, game.auction, game.melds, game.play,
                            game.points, game.scoring)
    flat = dict(
        name=game.name, card_points=tuple(cp.ranks), last_trick_bonus=cp.last_trick,
        hand_size=t.hand_size, tapp_size=game.dabb.size, family=tuple(m.family),
        double_family=tuple(m.double_family), pair=tuple(m.pair), fours=tuple(m.fours),
        eights=tuple(m.eights), binokel_cards=tuple(m.binokel_cards), binokel=tuple(m.binokel),
        trump_nine=m.dissle, bid_start=a.opening, bid_step=a.step,
        surrender_bonus=s.going_out_bonus, durch_value=s.durch, target_score=game.end.target,
        loss_factor=s.loss_factor, seed=game.sheet, low_card=d.low_card, players=t.in_play,
        table_seats=t.seats, grand_binokel=m.grand_binokel,
        dissle_in_discard=m.dissle_in_discard, forced_opening=a.forced_opening,
        thrown_in=a.thrown_in, round_to=cp.round_to,
        beat_led_when_trumped=p.beat == "led-high", open_durch_value=s.open_durch,
        durch_loss_factor=s.durch_loss_factor, sitting_out_points=s.sitting_out,
        est_weights=tuple(game.fitted.est_weights), est_sigma=game.fitted.est_sigma,
        section=game.section)
    if t.sides != "partners":
        return RuleSet(**flat)
    return TeamRuleSet(**flat, copies=d.copies, partner_relief=p.partner_relief,
                       trump_lead_duty=p.beat == "trump-lead", open_bidding=a.form == "open",
                       meld_needs_counter_trick=s.melds_need == "counter-trick",
                       bidder_leads=p.first_lead == "bidder")


def from_flat(r: RuleSet) -> Game:
    """The nested RuleSet of a flat one (also of a ``dataclasses.replace``-d flat RuleSet, so
    the new kernels accept what the not-yet-ported modules pass around)."""
    teams = bool(getattr(r, "teams", False))
    if isinstance(r, Game):
        return r
    reg = GAMES.get(r.name)
    names = reg.melds.names if reg is not None else ()
    seat_names = (reg.table.seat_names if reg is not None and reg.table.seats == r.table_seats
                  else ("forehand", "middlehand", "rearhand", "dealer")[:r.table_seats])
    trump_lead = bool(getattr(r, "trump_lead_duty", False))
    return Game(
        name=r.name, sheet=r.seed, section=r.section,
        deck=Deck(low_card=r.low_card, copies=int(getattr(r, "copies", 2))),
        table=Table(seats=r.table_seats, in_play=r.players,
                    sides="partners" if teams else "solo", seat_names=tuple(seat_names),
                    sits_out="dealer" if r.table_seats > r.players else "",
                    hand_size=r.hand_size),
        auction=Auction(form="open" if getattr(r, "open_bidding", False) else "duels",
                        opening=r.bid_start, step=r.bid_step,
                        forced_opening=bool(r.forced_opening), thrown_in=bool(r.thrown_in)),
        dabb=Dabb(r.tapp_size),
        melds=Melds(family=tuple(r.family), double_family=tuple(r.double_family),
                    pair=tuple(r.pair), fours=tuple(r.fours), eights=tuple(r.eights),
                    binokel_cards=tuple(tuple(c) for c in r.binokel_cards),
                    binokel=tuple(r.binokel), grand_binokel=r.grand_binokel,
                    dissle=r.trump_nine, dissle_in_discard=bool(r.dissle_in_discard),
                    names=names),
        play=Play(beat="trump-lead" if trump_lead else
                  ("led-high" if r.beat_led_when_trumped else "winner"),
                  overtrump=not trump_lead,
                  partner_relief=bool(getattr(r, "partner_relief", False)),
                  first_lead="bidder" if getattr(r, "bidder_leads", False) else "forehand"),
        points=CardPoints(ranks=tuple(r.card_points), last_trick=r.last_trick_bonus,
                          round_to=r.round_to),
        scoring=Scoring(loss_factor=r.loss_factor, going_out_bonus=r.surrender_bonus,
                        durch=r.durch_value, open_durch=r.open_durch_value,
                        durch_loss_factor=r.durch_loss_factor, sitting_out=r.sitting_out_points,
                        melds_need="counter-trick" if getattr(r, "meld_needs_counter_trick",
                                                              False) else "trick"),
        end=GameEnd(r.target_score),
        fitted=Fitted(tuple(r.est_weights), r.est_sigma),
    )


#: name -> flat RuleSet view of every game of the one registry (analyzer.mechanics.ruleset.GAMES)
#: (a game with a stock, V7, has no flat view: only the new kernels play it)
VARIANTS: dict[str, RuleSet] = {name: flat_view(g) for name, g in GAMES.items()
                                if not g.stock.size}
DEFAULT_RULES = VARIANTS["binokel-48"]
GRUPP_3 = VARIANTS["grupp-3"]
GRUPP_4 = VARIANTS["grupp-4"]
BINOKEL_40 = VARIANTS["binokel-40"]
#: the registered variant names (the ``--rules`` values)
RULE_NAMES: tuple[str, ...] = tuple(VARIANTS)


_GAME_KERNELS: dict = {}


def game_kernel(rules: "RuleSet | Game"):
    """The one compiled :class:`analyzer.mechanics.ruleset.Kernel` of a flat (or nested)
    RuleSet: ``from_flat(rules).kernel``, built once per RuleSet, then cached."""
    kernel = _GAME_KERNELS.get(rules)
    if kernel is None:
        kernel = _GAME_KERNELS[rules] = from_flat(rules).kernel
    return kernel


def get_rules(name: "str | RuleSet | Game | None" = None) -> RuleSet:
    """The flat view of the game registered as ``name`` (None: binokel-48); a flat RuleSet
    passes through, a nested one (analyzer.mechanics.ruleset) gets its view.

    Raises :class:`BinokelError` (one line listing the names) for an unknown name
    (ruleset.get_game).
    """
    if isinstance(name, RuleSet):
        return name
    game = get_game(name)
    if game.stock.size:
        raise BinokelError(f"{game.name} is a game with a stock ({game.section.split(', ')[-1]}); "
                           "this command does not play it yet")
    return VARIANTS[game.name] if GAMES.get(game.name) is game else flat_view(game)


# --------------------------------------------------------------------------- games with partners

KREUZ_48 = VARIANTS["kreuz-48"]
KREUZ_40 = VARIANTS["kreuz-40"]
PINOCHLE_80 = VARIANTS["pinochle-80"]
#: V6.5 option b as a RuleSet option (not a separate game name)
PINOCHLE_80_B = flat_view(GAMES["pinochle-80"].with_parts(
    points=replace(GAMES["pinochle-80"].points, ranks=COUNTERS["b"])))

#: TeamKernel.duty of the play part's beat mode (R6, V5.6, V6.4; trick.duty_modes reads it back)
_DUTY_OF_BEAT = {BEAT_WINNER: DUTY_R6, BEAT_LED_HIGH: DUTY_V56, BEAT_TRUMP_LEAD: DUTY_V64}


def _team_kernel_of(rules) -> TeamKernel:
    """The :class:`TeamKernel` of a game with partners: the one compiled ``ruleset.Kernel``
    (:func:`game_kernel`) under the names the partner kernels read (V4, V5, V6)."""
    k = game_kernel(rules)
    return TeamKernel(
        card_points=k.card_points, rank_strength=k.rank_strength, copies=k.copies,
        duty=_DUTY_OF_BEAT[k.beat_mode], partner_relief=int(k.partner_relief),
        family=k.family, pair=k.pair, fours_value=k.fours_value, eights_value=k.eights_value,
        binokel_q=int(k.binokel_q), binokel_j=int(k.binokel_j),
        binokel_single=int(k.binokel_single), binokel_double=int(k.binokel_double),
        meld_needs_counter=int(k.meld_needs_counter), last_trick_bonus=int(k.last_trick_bonus),
        hand_size=int(k.hand_size), min_bid=int(k.bid_start), bid_step=int(k.bid_step),
        target_score=int(k.target_score), dabb_size=int(k.dabb_size),
        forced_opening=int(k.forced_opening), going_out_bonus=int(k.going_out_bonus),
        round_to=int(k.round_to), loss_factor=int(k.loss_factor),
        dissle_value=int(k.dissle_value) if k.dissle_in_discard else 0, low_rank=int(k.low_rank),
        bidder_leads=int(k.bidder_leads))


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


def has_partners(rules) -> bool:
    """True when the table is two sides of partners (V1: seats 0 + 2 against 1 + 3), as
    the flat RuleSet says; False for a lone soloist against the others (R3)."""
    return bool(getattr(rules, "teams", False))


def team_spec(rules) -> TeamSpec:
    """The :class:`TeamSpec` of the flat RuleSet of a game with partners (cached).

    Raises BinokelError (one line) for the rules of a game without partners (V1).
    """
    if not getattr(rules, "teams", False):
        raise BinokelError(f"{rules.name} is not a team game: use kreuz-48, kreuz-40 or pinochle-80")
    spec = _SPEC_CACHE.get(rules)
    if spec is None:
        tk = _team_kernel_of(rules)
        types = [t for t in range(N_TYPES) if tk.copies[t] > 0]
        deck = np.repeat(np.array(types, dtype=np.uint8), rules.copies)
        spec = TeamSpec(rules.name, tk, rules.kernel, deck, int(rules.copies),
                        int(rules.hand_size), int(rules.tapp_size), bool(rules.open_bidding),
                        int(rules.bid_start), int(rules.bid_step), bool(rules.forced_opening),
                        rules)
        _SPEC_CACHE[rules] = spec
    return spec


_SPEC_CACHE: dict = {}


def team_kernel(rules) -> TeamKernel:
    """The compiled :class:`TeamKernel` of the flat RuleSet of a game with partners."""
    return team_spec(rules).tk
