"""One RuleSet for every game, in named parts, and the one registry of the seven games
(docs/RULES.md R1-R10, docs/VARIANTS.md V1-V6; design: docs/design/engine.md).

A game is data.  :class:`RuleSet` holds one frozen part per concern of the rules:

======== ====================================================================
part     what it fixes
======== ====================================================================
deck     the low card, copies per card type (R1, V1, V5.1, V6.1)
table    seats at the table, seats in play, sides, seat names, who sits out, hand size
auction  chain of duels or open bidding, opening, step, who may pass, thrown in
dabb     the cards the soloist takes and discards (size; 0 = none)
melds    the meld table: named kinds and their (plain, trump) values (R5, V2.5, V5.5, V6.3)
play     the play duties: follow, trump, which card to beat, overtrump, partner relief
points   card points per rank, the last trick, rounding (R1, R7, V1, V6.5)
scoring  loss factor, going out, Durch, sitting out, when melds count (R4, R8, V2-V6)
end      the game's end (target score, R9)
fitted   policy data fitted per game (not a rule: it moves to data/fits/ later)
======== ====================================================================

Every field has one meaning in every game; where a game lacks a thing the field says so
with its "none" value (0 or ""), never by re-reading another field.  :meth:`RuleSet.compile`
turns a RuleSet into one :class:`Kernel` (a NamedTuple of plain ints and int64 arrays)
for every game; kernels read only that, never a game's name.

``GAMES`` is the one registry (name -> RuleSet, in the order of docs/VARIANTS.md);
``get_game(name)`` looks one up.  During the move to one engine (issue 24) the flat
``analyzer.mechanics.rules.RuleSet`` / ``TeamRuleSet`` objects that the
not-yet-ported modules read are *derived* from this registry (``rules.flat_view``); they
are transitional and go when the last module reads the parts (see docs/design/engine.md).

Where the two-hand game (``binokel-2``, V7) slots in: a ``stock`` form of the Dabb part
(the undealt cards, the turned trump, the draw order), an auction form ``"none"`` (trump
is turned, V7.1), a ``play`` part per phase (no duties while the stock lasts, then
follow/trump without a beat duty: ``beat = ""``), meld showing by a trick's winner one
at a time (a field of ``melds``), and ``end.claim`` (claim the game at 1000, V7.5).
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import NamedTuple

import numpy as np

from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_RANKS, N_SUITS, N_TYPES, type_id

# rank indices (cards.py): A=0, 10=1, K=2, Q=3, J=4, the low card (9 or 7)=5
_A, _T, _K, _Q, _J, _N = range(6)
_C, _S, _H, _D = range(4)

#: the values of ``Play.beat`` (which card a follower of the led suit must beat if able)
BEAT_WINNER, BEAT_LED_HIGH, BEAT_TRUMP_LEAD, BEAT_NONE = 0, 1, 2, 3
_BEAT_MODES = {"winner": BEAT_WINNER, "led-high": BEAT_LED_HIGH,
               "trump-lead": BEAT_TRUMP_LEAD, "": BEAT_NONE}
#: the values of ``Table.sides`` compiled to ``Kernel.side_rule``
SIDES_SOLO, SIDES_PARTNERS = 0, 1
_SIDES = {"solo": SIDES_SOLO, "partners": SIDES_PARTNERS}


# --------------------------------------------------------------------------- the parts

@dataclass(frozen=True)
class Deck:
    """The cards (R1, V1, V5.1, V6.1).  Card types are cards.py's ``suit * 6 + rank``."""

    low_card: str = "9"       # rank 5: "9" (R1), "7" (V1 grupp/kreuz), "" = none (V5.1, V6.1)
    copies: int = 2           # identical copies of each card type (R1: 2; V6.1: 4)

    @property
    def n_types(self) -> int:
        """Card types in the deck: 4 suits x (6 or 5) ranks."""
        return N_SUITS * (N_RANKS if self.low_card else N_RANKS - 1)

    @property
    def n_cards(self) -> int:
        return self.copies * self.n_types

    def in_deck(self, t: int) -> bool:
        """Whether card type ``t`` exists in this deck."""
        return bool(self.low_card) or t % N_RANKS != _N


@dataclass(frozen=True)
class Table:
    """Who sits and who plays with whom (R2, V1, V3, V4.1, V6.1)."""

    seats: int = 3                    # players at the table (R2: 3; V3, V4, V6: 4)
    in_play: int = 3                  # seats that play each deal (V3: 3 of 4, the dealer sits out)
    sides: str = "solo"               # "solo": the soloist against the rest (R8); "partners": seats s and s+2 (V1)
    seat_names: tuple[str, ...] = ("forehand", "middlehand", "rearhand")   # seat 0 first (R2, V1)
    sits_out: str = ""                # "dealer": the dealer (the last seat) sits out each deal (V3); "" = nobody
    hand_size: int = 15               # cards dealt to each seat in play (R2: 15; V4.1 11, V5.1 12/9, V6.1 20)


@dataclass(frozen=True)
class Auction:
    """How the soloist (the bidding side) is found (R3, V1, V2.2, V6.2)."""

    form: str = "duels"               # "duels": a chain of duels in seat order (R3, V1); "open": bids in turn (V6.2)
    opening: int = 150                # the first bid (R3: 150); the lowest bid (V6.2: 500)
    step: int = 10                    # a raise (R3: exactly 10; V6.2: any multiple of 10, jumps)
    forced_opening: bool = True       # forehand must open (R3, V5.2); False: forehand may pass, "weg" (V2.2)
    thrown_in: bool = False           # all pass: the deal is thrown in, 0 each (V2.2, V6.2)


@dataclass(frozen=True)
class Dabb:
    """The Dabb (R2's Tapp): the soloist takes it and discards as many (R4)."""

    size: int = 3                     # cards in the Dabb (R2: 3; V4.1, V5.1: 4); 0 = none (V6.1)


@dataclass(frozen=True)
class Stock:
    """The stock of a game without a Dabb (V7.1, V7.2, V7.4): the undealt cards, drawn
    after each trick; its "none" values (size 0) leave every other game as it was."""

    size: int = 0                     # cards left after the deal, the turned trump included (V7.1: 24); 0 = no stock
    turned_trump: bool = False        # the first undealt card is turned: its suit is trump, it is drawn last (V7.1, V7.2)
    turned_dissle: int = 0            # points for the dealer when the turned card is the low card (V7.1: 10)
    winner_draws_first: bool = False  # after each trick the winner draws, then the other (V7.2)
    after: "Play | None" = None       # the play duties once the stock is gone (V7.4); None = no stock


@dataclass(frozen=True)
class Melds:
    """The meld table: named kinds, their values as (plain, trump) or per rank
    (R5, V2.3, V2.5, V5.5, V6.3).  A value 0 means the game has no such meld."""

    family: tuple[int, int] = (100, 150)            # A-10-K-Q-J of one suit (R5 F); V6.3: the trump flush only
    double_family: tuple[int, int] = (1000, 1500)   # both copies of a family (R5 F; V2.5 1500; V5.5/V6.3 two families)
    pair: tuple[int, int] = (20, 40)                # K-Q of a suit outside a family (R5 F; V6.3 marriage, royal)
    fours: tuple[int, ...] = (100, 0, 80, 60, 40, 0)        # one of rank r in every suit, A 10 K Q J low (R5 Q; V6.3 around)
    eights: tuple[int, ...] = (1000, 0, 1000, 1000, 1000, 0)  # two of rank r in every suit, replaces the fours (R5 Q; V5.5; V6.3)
    binokel_cards: tuple[tuple[int, int], ...] = ((_S, _Q), (_D, _J))  # (suit, rank) of the binokel Q♠ + J♦ (R5 B, V6.3 C)
    binokel: tuple[int, int] = (40, 300)            # binokel, double binokel (R5 B; V6.3 C pinochle)
    grand_binokel: int = 0                          # K♠ + the binokel in place of its 40 (V2.5: 80); 0 = none
    dissle: int = 10                                # per trump low card held (R5 D); 0 = none (V5.5)
    dissle_in_discard: bool = False                 # the trump low card melds from the discard too (V2.3)
    names: tuple[tuple[str, str], ...] = ()         # display names of the kinds in this game (kind, name)
    quint: int = 0                                  # A-10-K-Q-J of trump, the quint major (V7.3: 250); 0 = none
    shown: str = "before-play"                      # "before-play": all at once (R5); "by-trick-winner": one per won trick, before the draw (V7.3)
    once_per_kind: bool = False                     # a card never joins a second meld of its own kind (V7.3)
    quint_ends_pair: bool = False                   # a K or Q shown in a quint major never counts in a pair later (V7.3)

    def name_of(self, kind: str) -> str:
        """The game's word for meld kind ``kind`` (a field name above)."""
        return dict(self.names).get(kind, kind.replace("_", " "))


@dataclass(frozen=True)
class Play:
    """The play duties for a card added to a trick, and the first lead (R6, V5.6, V6.4)."""

    follow: bool = True               # a follower holding the led suit must play it (R6.1)
    trump: bool = True                # without the led suit, a follower holding trump must trump (R6.2)
    beat: str = "winner"              # the card a follower of the led suit must beat if able: "winner" (R6.1),
    #                                   "led-high" (the led suit's highest even when trumped, V5.6),
    #                                   "trump-lead" (the highest trump, on a trump lead only, V6.4), "" = none
    overtrump: bool = True            # trumping a trick a trump wins: beat it if able (R6.2, V5.6); False (V6.4)
    partner_relief: bool = False      # beat and trump duties lifted while the partner wins the trick (V5.6)
    first_lead: str = "forehand"      # who leads the first trick: "forehand" (R6, V4.5), "bidder" (V6.2)


@dataclass(frozen=True)
class CardPoints:
    """Card points (R1, R7, V1, V6.5)."""

    ranks: tuple[int, ...] = (11, 10, 4, 3, 2, 0)   # per rank A 10 K Q J low (R1; V6.5 counters)
    last_trick: int = 10                            # bonus for the last trick (R7; V6.5: 20)
    round_to: int = 0                               # round per scoring unit to the nearest round_to, 5 up (V1); 0 = no


@dataclass(frozen=True)
class Scoring:
    """Scoring a deal (R4, R8, V2.4, V2.7, V3, V4.6, V5.7, V6.6)."""

    loss_factor: int = 2              # a failed contract scores -loss_factor x bid (R8: 2; V6.6: 1)
    going_out_bonus: int = 50         # each opponent's (side's) gift when the soloist goes out (R4 50, V2.4 30, V5.4 40); 0 = no going out
    durch: int = 1000                 # a Durch's value (R4); 0 = no Durch (V5.7, V6)
    open_durch: int = 0               # an open Durch's value (V2.7: 1500); 0 = none
    durch_loss_factor: int = 1        # a failed Durch scores -durch_loss_factor x its value (R4: 1; V2.7: 2)
    sitting_out: int = 0              # points per deal of the seat that sits out (V3: 200)
    melds_need: str = "trick"         # melds count only with a trick won by the scoring unit (R8, V1);
    #                                   "counter-trick": a trick holding a card worth points (V6.3)


@dataclass(frozen=True)
class GameEnd:
    """When the game ends (R9, V4.6, V5.7, V6.6, V7.5)."""

    target: int = 1500                # a completed deal ends the game when a unit reaches it (R9)
    claim: bool = False               # a player reaching the target during a deal may claim the game (V7.5)


@dataclass(frozen=True)
class Fitted:
    """Policy data fitted per game (not a rule; exchange.fit_weights / partner_deals.fit_side_weights).

    Transitional here: generated fits become data files (issue 24, docs/design/engine.md).
    """

    est_weights: tuple[float, ...] = (-59.20, 15.84, 19.15, 9.89, 0.92, 15.84, 7.30, 8.56,
                                      -0.07, 9.09, 1.00, -0.08)   # the fast exchange's card-point model
    est_sigma: float = 19.9                                     # its residual s.d.


#: the parts of a RuleSet, in the order ``binokel rules`` prints them
PARTS = ("deck", "table", "auction", "dabb", "stock", "melds", "play", "points", "scoring",
         "end", "fitted")


# --------------------------------------------------------------------------- the kernel struct

class Kernel(NamedTuple):
    """Everything a kernel needs of one game, as plain ints and int64 arrays (one type for
    every game; built by :meth:`RuleSet.compile`).  Grouped as the RuleSet's parts."""

    # deck (R1, V1, V6.1)
    k: int                       # copies per card type = bit planes per hand (2; 4 in pinochle-80)
    copies: np.ndarray           # int64[24]: copies of each type in the deck (k, or 0 = not in the deck)
    n_cards: int                 # cards in the deck
    low_rank: int                # rank index of the low card (5), the Dissle's rank
    rank_strength: np.ndarray    # int64[24]: higher beats lower within a suit (R6)
    beat: np.ndarray             # int64[24]: types of t's suit strictly stronger than t (R6)
    # table (R2, V1, V3)
    table_seats: int             # players at the table
    n_play: int                  # seats in play each deal
    hand_size: int               # cards per seat in play
    side_rule: int               # SIDES_SOLO: side = (seat != soloist); SIDES_PARTNERS: side = seat % 2
    next_seat: np.ndarray        # int64[table_seats]: who plays after seat s (-1: s sits out)
    partner: np.ndarray          # int64[table_seats]: s's fixed partner, -1 = none (DDS's partner[])
    sits_out: np.ndarray         # int64[table_seats]: 1 = the seat sits out each deal (V3)
    # auction (R3, V2.2, V6.2)
    open_auction: int            # 1: open bidding (V6.2); 0: a chain of duels (R3, V1)
    bid_start: int               # the opening / lowest bid
    bid_step: int                # the raise unit
    forced_opening: int          # 1: forehand must open (R3)
    thrown_in: int               # 1: all pass = thrown in (V2.2, V6.2)
    # dabb (R2, R4)
    dabb_size: int               # cards in the Dabb; 0 = none
    # melds (R5, V2.3, V2.5, V5.5, V6.3)
    family: np.ndarray           # int64[2]: (plain, trump)
    double_family: np.ndarray    # int64[2]
    pair: np.ndarray             # int64[2]
    suit_f_table: np.ndarray     # int64[2, 4096]: type-F value of one suit from its two planes (k = 2 decks)
    fours_mask: np.ndarray       # int64[6]: plane-0 mask of rank r in every suit
    fours_value: np.ndarray      # int64[6]
    eights_value: np.ndarray     # int64[6]
    binokel_q: int               # type of the binokel queen (Q♠)
    binokel_j: int               # type of the binokel jack (J♦)
    binokel_mask: int            # plane-0 mask of the two
    binokel_single: int
    binokel_double: int
    grand_binokel_mask: int      # K♠ + the binokel
    grand_binokel_value: int     # 0 = no such meld
    dissle_value: int            # per trump low card; 0 = none
    dissle_in_discard: int       # 1: the trump low card melds from the discard (V2.3)
    # play duties (R6, V5.6, V6.4)
    follow: int                  # 1: follow suit
    trump_duty: int              # 1: trump when void in the led suit
    beat_mode: int               # BEAT_WINNER, BEAT_LED_HIGH, BEAT_TRUMP_LEAD, BEAT_NONE
    overtrump: int               # 1: overtrump a trump winner if able
    partner_relief: int          # 1: beat/trump duties lifted while the partner wins (V5.6)
    bidder_leads: int            # 1: the high bidder leads the first trick (V6.2)
    # card points (R1, R7, V1)
    card_points: np.ndarray      # int64[24]
    last_trick_bonus: int
    round_to: int                # 0 = no rounding
    # scoring (R4, R8, V2-V6)
    loss_factor: int
    going_out_bonus: int         # 0 = no going out
    durch_value: int             # 0 = no Durch
    open_durch_value: int        # 0 = no open Durch
    durch_loss_factor: int
    sitting_out_points: int
    meld_needs_counter: int      # 1: melds need a trick holding a counter (V6.3); 0: any trick
    # game end (R9)
    target_score: int
    # fitted policy data (not a rule)
    est_weights: np.ndarray      # float64[12]
    est_sigma: float
    # stock games (V7; 0 = none, every other game)
    stock_size: int = 0          # cards left after the deal, the turned trump included (V7.1)
    turned_dissle: int = 0       # the dealer's points for a turned low card (V7.1)
    quint_value: int = 0         # the trump quint major (V7.3)
    melds_by_trick: int = 0      # 1: one meld per won trick while the stock lasts (V7.3)
    once_per_kind: int = 0       # 1: a card serves once per meld kind (V7.3)
    quint_ends_pair: int = 0     # 1: a quint's K/Q never pair later (V7.3)
    after_follow: int = 0        # duties once the stock is gone (V7.4): follow suit
    after_trump: int = 0         #   else trump
    after_beat_mode: int = 0     #   beat mode (BEAT_NONE in V7.4)
    after_overtrump: int = 0     #   overtrump
    claim: int = 0               # 1: the target may be claimed during a deal (V7.5)


# --------------------------------------------------------------------------- the RuleSet

@dataclass(frozen=True)
class RuleSet:
    """The rules of one game, in named parts (see the module docstring).

    Build a variant of a registered game with :meth:`with_parts`, e.g.
    ``get_game("binokel-48").with_parts(play=Play(beat="led-high"))``.
    """

    name: str = "binokel-48"
    sheet: str = "000, 002"           # the rule sheets the game comes from
    section: str = "R1-R10"           # where docs/ state it
    deck: Deck = Deck()
    table: Table = Table()
    auction: Auction = Auction()
    dabb: Dabb = Dabb()
    stock: Stock = Stock()
    melds: Melds = Melds()
    play: Play = Play()
    points: CardPoints = CardPoints()
    scoring: Scoring = Scoring()
    end: GameEnd = GameEnd()
    fitted: Fitted = Fitted()

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        """Raise BinokelError (one line) when the parts contradict each other."""
        t, d = self.table, self.deck
        if t.in_play * t.hand_size + self.dabb.size + self.stock.size != d.n_cards:
            stock = f" + a stock of {self.stock.size}" if self.stock.size else ""
            raise BinokelError(f"{self.name}: {t.in_play} hands of {t.hand_size} + a Dabb of "
                               f"{self.dabb.size}{stock} do not make the {d.n_cards}-card deck")
        if self.stock.size and self.stock.after is None:
            raise BinokelError(f"{self.name}: a stock needs the duties once it is gone (stock.after)")
        if t.sides not in _SIDES:
            raise BinokelError(f"{self.name}: sides must be one of {', '.join(_SIDES)}")
        if self.play.beat not in _BEAT_MODES:
            raise BinokelError(f"{self.name}: play.beat must be one of "
                               f"{', '.join(repr(b) for b in _BEAT_MODES)}")
        if self.auction.form not in ("duels", "open", "none"):
            raise BinokelError(f"{self.name}: auction.form must be 'duels', 'open' or 'none'")
        if len(t.seat_names) != t.seats:
            raise BinokelError(f"{self.name}: {len(t.seat_names)} seat names for {t.seats} seats")
        if t.sides == "partners" and t.in_play != 4:
            raise BinokelError(f"{self.name}: partners (seats s and s+2) need four seats in play")

    def with_parts(self, **parts) -> "RuleSet":
        """A copy with some parts (or name/sheet/section) replaced."""
        return replace(self, **parts)

    def parts(self) -> dict:
        """part name -> part object, in :data:`PARTS` order."""
        return {p: getattr(self, p) for p in PARTS}

    def describe_parts(self) -> dict:
        """part name -> {field: value}: what ``binokel rules NAME`` prints."""
        return {p: {f.name: getattr(obj, f.name) for f in fields(obj)}
                for p, obj in self.parts().items()}

    @cached_property
    def kernel(self) -> Kernel:
        """The compiled :class:`Kernel` (cached)."""
        return self.compile()

    def __hash__(self) -> int:   # cached_property needs a __dict__; keep it hashable
        return hash((self.name, *self.parts().values()))

    # ---- compile

    def suit_f_value(self, counts5, trump: bool) -> int:
        """Type-F value of one suit from counts (a, t, k, q, j) per R5's Reading."""
        a, t, k, q, j = counts5
        f = min(a, t, k, q, j)
        i = 1 if trump else 0
        m = self.melds
        if f == 2:
            return m.double_family[i]
        if f == 1:
            return m.family[i] + min(k - 1, q - 1) * m.pair[i]
        return min(k, q) * m.pair[i]

    def compile(self) -> Kernel:
        """The one :class:`Kernel` of this game: plain ints and arrays for numba."""
        d, t, a, m, p, cp, s = (self.deck, self.table, self.auction, self.melds, self.play,
                                self.points, self.scoring)
        i64 = np.int64
        copies = np.array([d.copies if d.in_deck(x) else 0 for x in range(N_TYPES)], dtype=i64)
        strength = np.array([N_RANKS - 1 - (x % N_RANKS) for x in range(N_TYPES)], dtype=i64)
        beat = np.zeros(N_TYPES, dtype=i64)
        for x in range(N_TYPES):
            for u in range(N_RANKS * (x // N_RANKS), N_RANKS * (x // N_RANKS) + N_RANKS):
                if strength[u] > strength[x]:
                    beat[x] |= 1 << u
        table = np.zeros((2, 1 << 12), dtype=i64)
        for idx in range(1 << 12):
            lo, hi = idx & 63, idx >> 6
            if hi & ~lo:
                continue  # impossible pattern (two copies without one)
            c = [((lo >> r) & 1) + ((hi >> r) & 1) for r in range(N_RANKS)]
            c5 = (c[_A], c[_T], c[_K], c[_Q], c[_J])
            table[0, idx] = self.suit_f_value(c5, False)
            table[1, idx] = self.suit_f_value(c5, True)
        fmask = np.array([sum(1 << type_id(x, r) for x in range(N_SUITS)) for r in range(N_RANKS)],
                         dtype=i64)
        (qs, qr), (js, jr) = m.binokel_cards
        bq, bj = type_id(qs, qr), type_id(js, jr)
        bmask = (1 << bq) | (1 << bj)
        n = t.seats
        out = [1 if (t.sits_out == "dealer" and q == n - 1) else 0 for q in range(n)]
        play_seats = [q for q in range(n) if not out[q]]
        nxt = [-1] * n
        for i, q in enumerate(play_seats):
            nxt[q] = play_seats[(i + 1) % len(play_seats)]
        partner = [(q + 2) % n if t.sides == "partners" else -1 for q in range(n)]
        return Kernel(
            k=int(d.copies), copies=copies, n_cards=int(copies.sum()), low_rank=_N,
            rank_strength=strength, beat=beat,
            table_seats=int(n), n_play=int(t.in_play), hand_size=int(t.hand_size),
            side_rule=_SIDES[t.sides], next_seat=np.array(nxt, dtype=i64),
            partner=np.array(partner, dtype=i64), sits_out=np.array(out, dtype=i64),
            open_auction=int(a.form == "open"), bid_start=int(a.opening), bid_step=int(a.step),
            forced_opening=int(a.forced_opening), thrown_in=int(a.thrown_in),
            dabb_size=int(self.dabb.size),
            family=np.array(m.family, dtype=i64), double_family=np.array(m.double_family, dtype=i64),
            pair=np.array(m.pair, dtype=i64), suit_f_table=table, fours_mask=fmask,
            fours_value=np.array(m.fours, dtype=i64), eights_value=np.array(m.eights, dtype=i64),
            binokel_q=int(bq), binokel_j=int(bj), binokel_mask=int(bmask),
            binokel_single=int(m.binokel[0]), binokel_double=int(m.binokel[1]),
            grand_binokel_mask=int(bmask | (1 << type_id(_S, _K))),
            grand_binokel_value=int(m.grand_binokel), dissle_value=int(m.dissle),
            dissle_in_discard=int(m.dissle_in_discard),
            follow=int(p.follow), trump_duty=int(p.trump), beat_mode=_BEAT_MODES[p.beat],
            overtrump=int(p.overtrump), partner_relief=int(p.partner_relief),
            bidder_leads=int(p.first_lead == "bidder"),
            card_points=np.array([cp.ranks[x % N_RANKS] for x in range(N_TYPES)], dtype=i64),
            last_trick_bonus=int(cp.last_trick), round_to=int(cp.round_to),
            loss_factor=int(s.loss_factor), going_out_bonus=int(s.going_out_bonus),
            durch_value=int(s.durch), open_durch_value=int(s.open_durch),
            durch_loss_factor=int(s.durch_loss_factor), sitting_out_points=int(s.sitting_out),
            meld_needs_counter=int(s.melds_need == "counter-trick"),
            target_score=int(self.end.target),
            est_weights=np.array(self.fitted.est_weights, dtype=np.float64),
            est_sigma=float(self.fitted.est_sigma),
            **self._stock_kernel(),
        )

    def _stock_kernel(self) -> dict:
        """The Kernel fields of a stock game (V7); {} (the defaults, 0) for every other."""
        st, m, g = self.stock, self.melds, self.end
        if not st.size:
            return {}
        after = st.after
        return dict(stock_size=int(st.size), turned_dissle=int(st.turned_dissle),
                    quint_value=int(m.quint), melds_by_trick=int(m.shown == "by-trick-winner"),
                    once_per_kind=int(m.once_per_kind), quint_ends_pair=int(m.quint_ends_pair),
                    after_follow=int(after.follow), after_trump=int(after.trump),
                    after_beat_mode=_BEAT_MODES[after.beat], after_overtrump=int(after.overtrump),
                    claim=int(g.claim))


# --------------------------------------------------------------------------- the seven games

_SEATS3 = ("forehand", "middlehand", "rearhand")
_SEATS4 = ("forehand", "middlehand", "rearhand", "dealer")   # V1: the dealer is the last seat
_PINOCHLE_NAMES = (("family", "trump flush"), ("double_family", "double flush"),
                   ("pair", "marriage / royal marriage"), ("fours", "around"),
                   ("eights", "double around"), ("binokel", "pinochle"))

# R1-R10: the default game
BINOKEL_48 = RuleSet()

# V2: the classic three-hand game after Grupp 1994 (sheet 001)
GRUPP_3 = RuleSet(
    name="grupp-3", sheet="001", section="V1, V2",
    deck=Deck(low_card="7"),                                             # V2.1
    auction=Auction(forced_opening=False, thrown_in=True),               # V2.2 "weg"
    melds=Melds(double_family=(1500, 1500), grand_binokel=80,            # V2.5
                dissle_in_discard=True),                                 # V2.3
    points=CardPoints(round_to=10),                                      # V2.6 / V1
    scoring=Scoring(going_out_bonus=30,                                  # V2.4
                    open_durch=1500, durch_loss_factor=2),               # V2.7
    fitted=Fitted((-55.85, 14.68, 19.34, 9.92, 1.00, 15.37, 7.67, 8.83, -0.06, 9.09, -0.02,
                   0.02), 20.1),
)

# V3: grupp-3 with four at the table; the dealer sits out for +200 a deal
GRUPP_4 = GRUPP_3.with_parts(
    name="grupp-4", section="V1, V2, V3",
    table=Table(seats=4, in_play=3, seat_names=_SEATS4, sits_out="dealer"),
    scoring=replace(GRUPP_3.scoring, sitting_out=200),
)

# V5: the modern 40-card game, three players (sheets 000 §08, 001)
BINOKEL_40 = RuleSet(
    name="binokel-40", sheet="000, 001", section="V1, V5",
    deck=Deck(low_card=""),                                              # V5.1
    table=Table(hand_size=12), dabb=Dabb(4),                             # V5.1, V5.3
    melds=Melds(double_family=(200, 300), eights=(200, 0, 160, 120, 80, 0),   # V5.5
                dissle=0),
    play=Play(beat="led-high"),                                          # V5.6
    points=CardPoints(round_to=10),                                      # V5.7 / V1
    scoring=Scoring(going_out_bonus=40, durch=0),                        # V5.4, V5.7
    end=GameEnd(1000),                                                   # V5.7
    fitted=Fitted((-86.55, 27.00, 21.62, 6.79, -1.40, 17.18, 8.50, 6.84, 0.28, 13.92, 1.77,
                   -0.52), 22.9),
)

_TEAM_TABLE = Table(seats=4, in_play=4, sides="partners", seat_names=_SEATS4)   # V1

# V4: Kreuzbinokel with sevens, two teams, 11 + 4 (sheet 001)
KREUZ_48 = GRUPP_3.with_parts(
    name="kreuz-48", section="V1, V2, V4",
    table=replace(_TEAM_TABLE, hand_size=11), dabb=Dabb(4),             # V4.1; the rest as V2
    # policy: the soloist's team estimate (partner_deals.fit_side_weights(KREUZ_48, 20000, 0))
    fitted=Fitted((75.66, 19.47, 15.42, 10.92, -1.2, 10.23, 1.47, 2.78, -1.21, 11.62, 4.1,
                   -0.84), 49.2),
)

# V5: the modern 40-card team game, 9 + 4, partner relief (sheets 000, 001)
KREUZ_40 = BINOKEL_40.with_parts(
    name="kreuz-40",
    table=replace(_TEAM_TABLE, hand_size=9),                             # V5.1
    play=Play(beat="led-high", partner_relief=True),                     # V5.6
    fitted=Fitted((50.42, 26.99, 18.4, 9.87, -1.28, 10.83, 2.43, -0.7, -0.64, 15.24, 3.86,
                   -1.62), 46.1),
)

#: V6.5's counter options (card points per rank A 10 K Q J low)
COUNTERS = {"a": (10, 10, 10, 0, 0, 0), "b": (10, 10, 5, 5, 0, 0)}

# V6: double-deck partnership Pinochle (sheet 003)
PINOCHLE_80 = RuleSet(
    name="pinochle-80", sheet="003", section="V1, V6",
    deck=Deck(low_card="", copies=4),                                    # V6.1
    table=replace(_TEAM_TABLE, hand_size=20,
                  seat_names=("first", "second", "third", "dealer")),    # V6.1: from the dealer's left
    auction=Auction(form="open", opening=500, forced_opening=False, thrown_in=True),   # V6.2
    dabb=Dabb(0),                                                        # V6.1: no widow
    melds=Melds(family=(0, 150), double_family=(0, 300),                 # V6.3 A: trump flush
                eights=(1000, 0, 800, 600, 400, 0),                      # V6.3 B: double around
                dissle=0, names=_PINOCHLE_NAMES),
    play=Play(beat="trump-lead", overtrump=False, first_lead="bidder"),  # V6.4, V6.2
    points=CardPoints(ranks=COUNTERS["a"], last_trick=20),               # V6.5 a)
    scoring=Scoring(loss_factor=1, going_out_bonus=0, durch=0,           # V6.6; no going out, no Durch
                    melds_need="counter-trick"),                         # V6.3
    end=GameEnd(3550),                                                   # V6.6
)

# V7: two-hand Binokel with a stock (sheet 001, Altenburg rules)
BINOKEL_2 = RuleSet(
    name="binokel-2", sheet="001", section="V1, V7",
    deck=Deck(low_card="7"),                                             # V7.1: the deck of V2.1
    table=Table(seats=2, in_play=2, seat_names=("forehand", "dealer"),   # V7 / V1: seat 1 deals
                hand_size=12),                                           # V7.1; each seat its own side
    auction=Auction(form="none"),                                        # V7.1: trump is turned, no auction
    dabb=Dabb(0),                                                        # V7: no Dabb
    stock=Stock(size=24, turned_trump=True, turned_dissle=10,           # V7.1
                winner_draws_first=True,                                 # V7.2
                after=Play(beat="", overtrump=False)),                   # V7.4: follow, else trump, no beat
    melds=Melds(family=(0, 0), double_family=(0, 0),                     # V7.3 Reading: families do not score
                eights=(1000, 0, 800, 600, 400, 0),                      # V7.3: eight of a kind
                grand_binokel=80,                                        # V7.3
                quint=250, shown="by-trick-winner",                      # V7.3
                once_per_kind=True, quint_ends_pair=True),               # V7.3
    play=Play(follow=False, trump=False, beat="", overtrump=False),      # V7.2: no duty while the stock lasts
    scoring=Scoring(going_out_bonus=0, durch=0),                         # V7.4: no contract, no going out
    end=GameEnd(1000, claim=True),                                       # V7.5
)

#: name -> RuleSet: the one registry, in the order of docs/VARIANTS.md
GAMES: dict[str, RuleSet] = {g.name: g for g in (BINOKEL_48, GRUPP_3, GRUPP_4, BINOKEL_40,
                                                   KREUZ_48, KREUZ_40, PINOCHLE_80, BINOKEL_2)}
#: stated in docs/VARIANTS.md but not built yet
NOT_BUILT: tuple[str, ...] = ()


def get_game(name: "str | RuleSet | None" = None) -> RuleSet:
    """The registered RuleSet ``name`` (None: binokel-48); a RuleSet passes through.

    Raises :class:`BinokelError` (one line listing the names) for an unknown name.
    """
    if name is None:
        return BINOKEL_48
    if isinstance(name, RuleSet):
        return name
    key = str(name).strip().lower()
    if key in GAMES:
        return GAMES[key]
    extra = f" ({', '.join(NOT_BUILT)} is described but not built yet)" if key in NOT_BUILT else ""
    raise BinokelError(f"unknown rules {name!r}{extra}: use one of {', '.join(GAMES)}")
