"""Plain-Python reference (oracle) for ``binokel-2``, written straight from docs/VARIANTS.md
V7 (with V1 and the deck of V2.1), to check the future kernels, solver and commands.

Nothing here reads a RuleSet or a kernel table: the values are copied from the rule text,
and the deal, the stock, the melds, the two play phases, the scoring and the claims
follow the text and its **Readings** literally.  Speed does not matter; clarity does.

Cards.  A card *type* is the project's kernel int ``suit * 6 + rank`` (suits C S H D =
0..3; ranks A 10 K Q J 7 = 0..5: rank 5 is the low card, the 7 in binokel-2, V1), so a
type compares directly with the kernels' arrays.  Because a shown card carries the meld
kinds it has served in (V7.3), the two copies of a type are not interchangeable while the
stock lasts; the oracle therefore tracks *physical* cards ``type * 2 + copy`` (0..47), as
analyzer/mechanics/cards.py does when dealing.  Legal moves are listed once per distinct
(type, kinds shown) so that identical copies are not counted twice.

Seats (V1): seat 0 is forehand (the non-dealer), seat 1 the dealer.  A deal is a
:class:`State`; :func:`legal_actions` / :func:`apply` step it.  Actions are tuples:

- ``("play", card)``: a physical card from the hand of the player to act (V7.2, V7.4);
- ``("meld", cards)``: the trick's winner shows one meld, a tuple of physical cards (V7.3);
- ``("pass",)``: the trick's winner shows nothing; both players then draw (V7.2);
- ``("claim",)``: the player to act claims the game (V7.5; below 1000 it loses it).

Bad input raises :class:`ValueError` with one line naming the rule (``V7.x``): the checks
(``check_*``) are the list the next session's CLI will turn into exit 2.
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

# ----------------------------------------------------------------------------- the text
SUITS = "CSHD"
RANKS = ("A", "10", "K", "Q", "J", "7")          # V1: the 7 is binokel-2's low card
A, T, K, Q, J, SEVEN = range(6)
C, S, H, D = range(4)
POINTS = (11, 10, 4, 3, 2, 0)                    # V1 card points
N_TYPES, N_CARDS = 24, 48                        # V2.1: two copies of 24 types
HAND = 12                                        # V7.1
STOCK = N_CARDS - 2 * HAND                       # 24 cards to draw, the turned trump last (V7.1)
STOCK_TRICKS = STOCK // 2                        # 12 tricks while the stock lasts (V7.2)
TOTAL_TRICKS = N_CARDS // 2                      # 24 tricks in a deal
LAST_TRICK = 10                                  # V7.4
DISSLE = 10                                      # V7.1, V7.3: the trump 7
TARGET = 1000                                    # V7.5

# meld kinds (V7.3 Reading: the five lines of the value list); a bit each
DISSLE_KIND, PAIR, QUINT, OF_A_KIND, BINOKEL = 1, 2, 4, 8, 16
KIND_NAMES = {DISSLE_KIND: "Dissle", PAIR: "pair", QUINT: "quint major",
              OF_A_KIND: "of a kind", BINOKEL: "binokel"}
FOUR_VALUE = {J: 40, Q: 60, K: 80, A: 100}       # V7.3
EIGHT_VALUE = {J: 400, Q: 600, K: 800, A: 1000}  # V7.3


def type_of(card: int) -> int:
    """Physical card (0..47) -> card type (0..23)."""
    return card // 2


def suit_of(t: int) -> int:
    return t // 6


def rank_of(t: int) -> int:
    return t % 6


def tid(suit: int, rank: int) -> int:
    return suit * 6 + rank


def name(t: int) -> str:
    """Card type -> its code, e.g. ``10S``, ``7H``."""
    return RANKS[rank_of(t)] + SUITS[suit_of(t)]


def parse(text: str) -> list[int]:
    """``"AS 10S 7H"`` -> card types (test helper; A 10 K Q J 7 and C S H D only)."""
    out = []
    for tok in text.split():
        r, s = tok[:-1].upper(), tok[-1].upper()
        if r not in RANKS or s not in SUITS:
            raise ValueError(f"V7.1: {tok!r} is no card of the 48-card deck (A 10 K Q J 7)")
        out.append(tid(SUITS.index(s), RANKS.index(r)))
    return out


K_S, Q_S, J_D = tid(S, K), tid(S, Q), tid(D, J)


@dataclass(frozen=True)
class MeldPattern:
    """One meld of V7.3: ``types`` lists the card types (a type twice = both copies)."""

    name: str
    kind: int
    types: tuple[int, ...]
    value: int


def meld_patterns(trump: int) -> tuple[MeldPattern, ...]:
    """Every meld of V7.3 with its value under ``trump`` (a suit 0..3)."""
    out = [MeldPattern("Dissle", DISSLE_KIND, (tid(trump, SEVEN),), DISSLE)]
    for s in range(4):
        out.append(MeldPattern("trump pair" if s == trump else f"pair {SUITS[s]}", PAIR,
                               (tid(s, K), tid(s, Q)), 40 if s == trump else 20))
    out.append(MeldPattern("quint major", QUINT, tuple(tid(trump, r) for r in (A, T, K, Q, J)),
                           250))
    for r in (A, K, Q, J):   # tens and sevens never meld of a kind
        out.append(MeldPattern(f"four {RANKS[r]}", OF_A_KIND, tuple(tid(s, r) for s in range(4)),
                               FOUR_VALUE[r]))
        out.append(MeldPattern(f"eight {RANKS[r]}", OF_A_KIND,
                               tuple(tid(s, r) for s in range(4) for _ in range(2)), EIGHT_VALUE[r]))
    out.append(MeldPattern("binokel", BINOKEL, (Q_S, J_D), 40))
    out.append(MeldPattern("grand binokel", BINOKEL, (K_S, Q_S, J_D), 80))
    out.append(MeldPattern("double binokel", BINOKEL, (Q_S, Q_S, J_D, J_D), 300))
    return tuple(out)


def pattern_of(types, trump: int) -> MeldPattern | None:
    """The V7.3 meld whose cards are exactly ``types`` (any order), or None."""
    key = tuple(sorted(types))
    for p in meld_patterns(trump):
        if tuple(sorted(p.types)) == key:
            return p
    return None


def trick_winner(led: int, second: int, trump: int) -> int:
    """0 if the led card (type) wins, 1 if the second does (V7.2, V7.4): the second wins
    only when it is of the led suit and strictly higher, or a trump on a plain lead; so of
    identical copies the first played wins."""
    if suit_of(second) == suit_of(led):
        return 1 if rank_of(second) < rank_of(led) else 0
    return 1 if suit_of(second) == trump else 0


# ----------------------------------------------------------------------------- the state
@dataclass
class State:
    """One deal of binokel-2 (V7.1-V7.5), seats 0 = forehand, 1 = dealer.

    ``hands``: physical cards held, shown ones included; ``shown``: physical card -> the
    bit set of meld kinds it has been shown in (only while the stock lasts, V7.3/V7.4);
    ``stock``: cards still to draw, top first, the turned trump ``turned`` last (V7.2);
    ``trick``: the cards on the table, leader's first; ``to_meld``: the seat that won the
    last trick and has not yet shown/passed and drawn (V7.3); ``melds``: meld and Dissle
    points scored this deal per seat; ``taken``: cards in tricks won; ``before``: game
    scores before this deal (for claims, V7.5); ``winner``: the game's winner once a claim
    ended it; ``log``: every action and draw, for tests and trick logs.
    """

    turned: int
    hands: list[set[int]]
    stock: list[int]
    before: tuple[int, int] = (0, 0)
    shown: dict[int, int] = field(default_factory=dict)
    leader: int = 0
    trick: list[int] = field(default_factory=list)
    to_meld: int | None = None
    last_winner: int | None = None
    melded_after_trick: bool = False
    melds: list[int] = field(default_factory=lambda: [0, 0])
    taken: list[list[int]] = field(default_factory=lambda: [[], []])
    tricks: int = 0
    dissle_done: set[int] = field(default_factory=set)
    last_trick_seat: int | None = None
    claimed_by: int | None = None
    winner: int | None = None
    log: list[tuple] = field(default_factory=list)

    @property
    def trump(self) -> int:
        return suit_of(type_of(self.turned))

    @property
    def stock_phase(self) -> bool:
        """True while the stock lasts (V7.2): no duties, melds allowed."""
        return bool(self.stock)

    def clone(self) -> "State":
        return State(self.turned, [set(h) for h in self.hands], list(self.stock), self.before,
                     dict(self.shown), self.leader, list(self.trick), self.to_meld,
                     self.last_winner, self.melded_after_trick, list(self.melds),
                     [list(t) for t in self.taken], self.tricks, set(self.dissle_done),
                     self.last_trick_seat, self.claimed_by, self.winner, list(self.log))


def deal(order, before=(0, 0)) -> State:
    """Deal the 48 physical cards ``order`` (a permutation of 0..47) as V7.1 says.

    ``order[0:12]`` go to forehand (seat 0), ``order[12:24]`` to the dealer (seat 1)
    (**Reading**: a shuffled deck makes the packet order immaterial), ``order[24]`` is
    turned as trump and ``order[25:]`` is the stock, top first, the turned card drawn
    last.  A turned 7 scores 10 for the dealer at once (V7.1).  ``before``: the game
    scores of (forehand, dealer) before this deal.
    """
    order = list(order)
    if sorted(order) != list(range(N_CARDS)):
        raise ValueError("V7.1: a deal needs each of the 48 cards exactly once")
    st = State(turned=order[24], hands=[set(order[:12]), set(order[12:24])],
               stock=order[25:] + [order[24]], before=tuple(before))
    if rank_of(type_of(st.turned)) == SEVEN:     # the turned Dissle (V7.1)
        st.melds[1] += DISSLE
        st.dissle_done.add(st.turned)
        st.log.append(("dissle turned", 1, st.turned))
    return st


def make_state(hand0, hand1, stock, turned, taken0=(), taken1=(), trick=(), leader=0,
               before=(0, 0), dissle_done=(), melds=(0, 0)) -> State:
    """A position from card *types* (what a user types), physical copies assigned in
    order: ``stock`` top first with the turned trump ``turned`` *not* in it (it is put
    last while the stock lasts; with an empty ``stock`` pass the turned card's type in
    the hand or tricks where it lies and ``turned`` its type).  ``dissle_done``: trump-7
    types already scored (shown or played; a turned 7 counts as scored by itself);
    ``melds``: meld points scored so far in the deal.  Raises ValueError naming V7.1/V7.2
    if the cards or counts are impossible (:func:`check_state`)."""
    check_cards([*hand0, *hand1, *stock, *taken0, *taken1, *trick]
                + ([turned] if stock else []))
    used: dict[int, int] = {}

    def phys(t: int) -> int:
        used[t] = used.get(t, 0) + 1
        return t * 2 + used[t] - 1

    turned_card = phys(turned) if stock else None
    hands = [{phys(t) for t in hand0}, {phys(t) for t in hand1}]
    st_stock = [phys(t) for t in stock]
    taken = [[phys(t) for t in taken0], [phys(t) for t in taken1]]
    table = [phys(t) for t in trick]
    if turned_card is None:     # stock gone: the turned card is whichever copy is out
        turned_card = next((c for c in (*hands[0], *hands[1], *taken[0], *taken[1], *table)
                            if type_of(c) == turned), None)
        if turned_card is None:
            raise ValueError(f"V7.1: the turned trump {name(turned)} is nowhere in the position")
    st = State(turned=turned_card, hands=hands,
               stock=st_stock + ([turned_card] if stock else []), before=tuple(before),
               leader=leader, trick=table, taken=taken,
               tricks=(len(taken[0]) + len(taken[1])) // 2, melds=list(melds))
    if rank_of(turned) == SEVEN:
        st.dissle_done.add(turned_card)     # V7.1: scored for the dealer at the deal
    for t in dissle_done:
        st.dissle_done.add(t * 2 if t * 2 not in st.dissle_done else t * 2 + 1)
    check_state(st)
    return st


def random_deal(rng: random.Random, before=(0, 0)) -> State:
    order = list(range(N_CARDS))
    rng.shuffle(order)
    return deal(order, before)


def deal_over(st: State) -> bool:
    return st.winner is not None or st.tricks == TOTAL_TRICKS


def to_act(st: State) -> int | None:
    """The seat whose decision comes next, or None once the deal or game is over."""
    if deal_over(st):
        return None
    if st.to_meld is not None:
        return st.to_meld
    return st.leader if not st.trick else 1 - st.leader


def card_points(cards) -> int:
    return sum(POINTS[rank_of(type_of(c))] for c in cards)


def deal_points(st: State, seat: int) -> int:
    """Points ``seat`` has made in this deal so far: melds and Dissles shown or scored,
    card points of the tricks taken, the last trick (V7.3-V7.5)."""
    return (st.melds[seat] + card_points(st.taken[seat])
            + (LAST_TRICK if st.last_trick_seat == seat else 0))


# ----------------------------------------------------------------------------- play
def _play_key(st: State, card: int):
    return (type_of(card), st.shown.get(card, 0))


def legal_plays(st: State) -> list[int]:
    """Physical cards the player to act may play, one per distinct (type, kinds shown).

    While the stock lasts any card (V7.2).  Afterwards the second card must follow suit,
    or, unable, trump, or, unable, anything; no duty to beat (V7.4).  The leader is free.
    """
    seat = to_act(st)
    if seat is None or st.to_meld is not None:
        return []
    hand = sorted(st.hands[seat])
    if st.trick and not st.stock_phase:
        led = suit_of(type_of(st.trick[0]))
        follow = [c for c in hand if suit_of(type_of(c)) == led]
        trumps = [c for c in hand if suit_of(type_of(c)) == st.trump]
        hand = follow or trumps or hand
    seen, out = set(), []
    for c in hand:
        key = _play_key(st, c)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def _is_legal_play(st: State, card: int) -> bool:
    key = _play_key(st, card)
    return card in st.hands[to_act(st)] and any(_play_key(st, c) == key for c in legal_plays(st))


def draw(st: State, seat: int) -> int:
    """``seat`` draws the top card of the stock (V7.2); an empty stock is an error."""
    if not st.stock:
        raise ValueError("V7.2: no card to draw: the stock is gone (V7.4 play follows)")
    card = st.stock.pop(0)
    st.hands[seat].add(card)
    st.log.append(("draw", seat, card))
    return card


def _draw_both(st: State) -> None:
    """The trick's winner draws, then the other (V7.2); once the stock is gone the shown
    cards go back into the hands (V7.4)."""
    w = st.to_meld
    st.to_meld = None
    draw(st, w)
    draw(st, 1 - w)
    if not st.stock:
        st.shown.clear()


def _play(st: State, card: int) -> None:
    seat = to_act(st)
    if not _is_legal_play(st, card):
        if card not in st.hands[seat]:
            raise ValueError(f"V7.2: seat {seat} does not hold {name(type_of(card))}")
        raise ValueError(f"V7.4: {name(type_of(card))} breaks the duty to follow suit, "
                         "else to trump")
    st.hands[seat].discard(card)
    st.shown.pop(card, None)
    st.log.append(("play", seat, card))
    t = type_of(card)
    if t == tid(st.trump, SEVEN) and card not in st.dissle_done:   # V7.3 Reading: played
        st.dissle_done.add(card)
        st.melds[seat] += DISSLE
        st.log.append(("dissle played", seat, card))
    st.trick.append(card)
    if len(st.trick) < 2:
        return
    led, second = (type_of(c) for c in st.trick)
    w = (st.leader + trick_winner(led, second, st.trump)) % 2
    st.taken[w].extend(st.trick)
    st.trick = []
    st.tricks += 1
    st.leader = w
    st.last_winner = w
    st.melded_after_trick = False
    st.log.append(("trick", w))
    if st.stock_phase:
        st.to_meld = w            # V7.3: the winner may meld, then both draw
    elif st.tricks == TOTAL_TRICKS:
        st.last_trick_seat = w    # V7.4: last trick 10


# ----------------------------------------------------------------------------- melds
def _eligible(st: State, card: int, pattern: MeldPattern) -> bool:
    """May ``card`` serve in ``pattern``?  Never twice in one kind; a K or Q shown in a
    quint major never in a pair (V7.3)."""
    mask = st.shown.get(card, 0)
    if mask & pattern.kind:
        return False
    return not (pattern.kind == PAIR and mask & QUINT)


def legal_melds(st: State) -> list[tuple[int, ...]]:
    """The melds the trick's winner may show now (V7.3), one per distinct outcome: for
    each meld of :func:`meld_patterns`, each choice of eligible copies that differs in the
    (type, kinds shown) of the cards it uses."""
    seat = st.to_meld
    if seat is None:
        return []
    out = []
    for p in meld_patterns(st.trump):
        options = []
        for t in sorted(set(p.types)):
            need = p.types.count(t)
            have = sorted(c for c in st.hands[seat] if type_of(c) == t and _eligible(st, c, p))
            options.append(list(itertools.combinations(have, need)))
        seen = set()
        for combo in itertools.product(*options):
            cards = tuple(c for part in combo for c in part)
            key = tuple(sorted(_play_key(st, c) for c in cards))
            if key not in seen:
                seen.add(key)
                out.append(cards)
    return out


def check_meld(st: State, seat: int, cards) -> MeldPattern:
    """Raise ValueError (one line, naming V7.3) unless ``seat`` may show the physical
    ``cards`` as one meld now; return its pattern.  Checks, in order: the trick's
    loser (or no trick won yet), a second meld for one trick, the stock gone, cards not
    in the hand, cards that make no meld, a card already shown in this kind."""
    cards = tuple(cards)
    if st.trick or st.last_winner is None or seat != st.last_winner:
        raise ValueError(f"V7.3: only the winner of a trick may show a meld; seat {seat} "
                         "did not win the last trick")
    if st.melded_after_trick:
        raise ValueError(f"V7.3: one meld per won trick; seat {seat} has shown one already")
    if st.to_meld is None:
        raise ValueError("V7.3: melds are shown while the stock lasts, before drawing"
                         + (" (the stock is gone, V7.4)" if not st.stock_phase else ""))
    for c in cards:
        if not 0 <= c < N_CARDS:
            raise ValueError(f"V7.1: card {c} is not one of the 48 cards")
    if len(set(cards)) != len(cards):
        raise ValueError("V7.3: a meld uses each card once")
    missing = [c for c in cards if c not in st.hands[seat]]
    if missing:
        raise ValueError(f"V7.3: the meld's {name(type_of(missing[0]))} is not in seat "
                         f"{seat}'s hand")
    p = pattern_of([type_of(c) for c in cards], st.trump)
    if p is None:
        raise ValueError("V7.3: " + " ".join(name(type_of(c)) for c in cards) + " is no meld")
    for c in cards:
        if not _eligible(st, c, p):
            if p.kind == PAIR and st.shown.get(c, 0) & QUINT:
                raise ValueError(f"V7.3: {name(type_of(c))} was shown in a quint major; "
                                 "the K and Q of a shown family never count as a pair")
            raise ValueError(f"V7.3: {name(type_of(c))} has been shown in a "
                             f"{KIND_NAMES[p.kind]} already; a card never joins a second "
                             "meld of its own kind")
    return p


def meld_cards_for(st: State, seat: int, types) -> tuple[int, ...]:
    """The physical cards for a meld given as card *types* (what a user types): eligible
    copies, those already shown first (showing them again reveals nothing new; with two
    copies either eligible choice leaves the same melds possible later except that a
    pair's K or Q is best extended to a quint major, which preferring the copy with more
    kinds shown does).  Raises ValueError naming V7.3 as :func:`check_meld` does."""
    p = pattern_of(types, st.trump) if st.to_meld is not None else None
    chosen: list[int] = []
    for t in types:
        pool = sorted((c for c in st.hands[seat] if type_of(c) == t and c not in chosen),
                      key=lambda c: (p is not None and not _eligible(st, c, p),
                                     -bin(st.shown.get(c, 0)).count("1"), c))
        chosen.append(pool[0] if pool else t * 2)   # not held: check_meld names it
    check_meld(st, seat, chosen)
    return tuple(chosen)


def _meld(st: State, cards) -> None:
    seat = st.to_meld if st.to_meld is not None else to_act(st)
    p = check_meld(st, seat, cards)
    for c in cards:
        st.shown[c] = st.shown.get(c, 0) | p.kind
    if p.kind == DISSLE_KIND:       # V7.3 Reading: the Dissle counts once per copy
        c = cards[0]
        st.melds[seat] += 0 if c in st.dissle_done else DISSLE
        st.dissle_done.add(c)
    else:
        st.melds[seat] += p.value
    st.melded_after_trick = True
    st.log.append(("meld", seat, tuple(cards), p.name, p.value))
    _draw_both(st)


def best_meld_order(types, trump: int) -> tuple[int, tuple[str, ...]]:
    """The most a fixed hand of card ``types`` can meld when it shows one meld per won
    trick and keeps its cards (V7.3), and one order that reaches it: (total, meld names
    in the order shown).  Order matters: a trump pair shown before its quint major adds
    40, after it nothing; a four shown first blocks the eight.  Exhaustive search over
    every order (plain recursion with a table on the shown state); the Dissle counts as a
    meld here.  Ignores that cards leave and arrive while the stock lasts: what the
    ``melds`` command will print for 12 cards."""
    check_cards(types)
    seen: dict[int, int] = {}
    cards = []
    for t in types:
        seen[t] = seen.get(t, 0) + 1
        cards.append(t * 2 + seen[t] - 1)
    probe = State(turned=tid(trump, T) * 2, hands=[set(cards), set()], stock=[])
    probe.to_meld = 0
    memo: dict[tuple, tuple[int, tuple[str, ...]]] = {}

    def search() -> tuple[int, tuple[str, ...]]:
        key = tuple(sorted(_play_key(probe, c) for c in cards))
        if key in memo:
            return memo[key]
        best = (0, ())
        for m in legal_melds(probe):
            pat = pattern_of([type_of(c) for c in m], trump)
            old = {c: probe.shown.get(c, 0) for c in m}
            for c in m:
                probe.shown[c] = old[c] | pat.kind
            value, names = search()
            for c in m:
                probe.shown[c] = old[c]
            if pat.value + value > best[0]:
                best = (pat.value + value, (pat.name,) + names)
        memo[key] = best
        return best

    return search()


# ----------------------------------------------------------------------------- claims
def check_claim(st: State, seat: int) -> int:
    """Strict input (V7.5 Reading): a claim below 1000 is refused as bad input with one
    line; returns the claimant's total otherwise.  :func:`apply` itself accepts such a
    claim: it is a legal action that loses the game."""
    total = st.before[seat] + deal_points(st, seat)
    if total < TARGET:
        raise ValueError(f"V7.5: seat {seat} has {total} points; a claim below {TARGET} "
                         "loses the game")
    return total


def _claim(st: State, seat: int) -> None:
    total = st.before[seat] + deal_points(st, seat)
    st.claimed_by = seat
    st.winner = seat if total >= TARGET else 1 - seat   # V7.5 Reading: a claim ends the game
    st.log.append(("claim", seat, total))


# ----------------------------------------------------------------------------- stepping
def legal_actions(st: State, losing_claims: bool = False) -> list[tuple]:
    """Every action of the player to act: plays, or (after a won trick while the stock
    lasts) melds and pass; plus a claim when it wins (with ``losing_claims`` also one
    that loses, V7.5 Reading)."""
    seat = to_act(st)
    if seat is None:
        return []
    if st.to_meld is not None:
        acts = [("meld", m) for m in legal_melds(st)] + [("pass",)]
    else:
        acts = [("play", c) for c in legal_plays(st)]
    if losing_claims or st.before[seat] + deal_points(st, seat) >= TARGET:
        acts.append(("claim",))
    return acts


def apply(st: State, action: tuple) -> State:
    """The state after ``action`` by the player to act (a new State; ``st`` is kept).
    An illegal action raises ValueError naming its rule and changes nothing."""
    new = st.clone()
    seat = to_act(new)
    if seat is None:
        raise ValueError("V7.5: the deal is over" if st.winner is None
                         else "V7.5: the game has been claimed")
    kind = action[0]
    if kind == "claim":
        _claim(new, seat)
    elif kind == "meld":
        _meld(new, action[1])
    elif kind == "pass":
        if new.to_meld is None:
            raise ValueError("V7.3: nothing to pass: no won trick awaits a meld")
        new.log.append(("pass", seat))
        _draw_both(new)
    elif kind == "play":
        if new.to_meld is not None:
            raise ValueError(f"V7.3: seat {seat} won the trick: show a meld or pass, then draw")
        _play(new, action[1])
    else:
        raise ValueError(f"unknown action {action!r}")
    return new


def final_points(st: State) -> tuple[int, int]:
    """(forehand, dealer) points of a finished deal (V7.4): melds + Dissles + card points
    + last trick."""
    if st.tricks != TOTAL_TRICKS:
        raise ValueError("V7.4: the deal is not finished")
    return deal_points(st, 0), deal_points(st, 1)


def random_action(st: State, rng: random.Random) -> tuple:
    """The random policy: uniform over :func:`legal_actions` (winning claims only)."""
    return rng.choice(legal_actions(st))


def random_no_claim(st: State, rng: random.Random) -> tuple:
    """The random policy without claims: plays whole deals (V7.4 scoring)."""
    return rng.choice([a for a in legal_actions(st) if a[0] != "claim"])


def playout(st: State, rng: random.Random, policy=random_action) -> State:
    """Play ``st`` to the end of the deal (or a claim) with ``policy(state, rng)``."""
    while to_act(st) is not None:
        st = apply(st, policy(st, rng))
    return st


# ----------------------------------------------------------------------------- the game
@dataclass
class Game:
    """A game of V7.5 between players 0 and 1: ``scores`` per player; ``dealer`` the
    player who deals next (alternating); ``winner`` once decided; ``deals`` played."""

    scores: list[int] = field(default_factory=lambda: [0, 0])
    dealer: int = 1
    winner: int | None = None
    deals: int = 0


def seat_player(dealer: int, seat: int) -> int:
    """Player at ``seat`` of a deal dealt by ``dealer``: seat 1 is the dealer (V1)."""
    return dealer if seat == 1 else 1 - dealer


def start_deal(game: Game, order) -> State:
    """The next deal of ``game`` from the shuffled ``order`` (V7.1, V7.5)."""
    d = game.dealer
    return deal(order, before=(game.scores[seat_player(d, 0)], game.scores[seat_player(d, 1)]))


def finish_deal(game: Game, st: State) -> None:
    """Book a finished (or claimed) deal into ``game`` (V7.5 and its Reading): a claim
    decides the game; otherwise both deal totals are added, and if a player has 1000 or
    more the higher total wins (level: another deal).  The dealer alternates."""
    d = game.dealer
    game.deals += 1
    if st.winner is not None:
        game.winner = seat_player(d, st.winner)
        return
    for seat, pts in enumerate(final_points(st)):
        game.scores[seat_player(d, seat)] += pts
    hi = max(game.scores)
    if hi >= TARGET and game.scores[0] != game.scores[1]:
        game.winner = game.scores.index(hi)
    game.dealer = 1 - d


def play_game(rng: random.Random, policy=random_action, first_dealer: int = 1,
              max_deals: int = 100) -> tuple[Game, list[State]]:
    """A whole game with ``policy`` for both players; returns the game and its deals."""
    game = Game(dealer=first_dealer)
    deals = []
    while game.winner is None and game.deals < max_deals:
        order = list(range(N_CARDS))
        rng.shuffle(order)
        st = playout(start_deal(game, order), rng, policy)
        deals.append(st)
        finish_deal(game, st)
    return game, deals


# ----------------------------------------------------------------------------- knowledge
def observation(st: State, seat: int) -> tuple:
    """Everything ``seat`` knows, as a comparable value: its own hand (type and kinds
    shown per card), the turned trump, whether it is still in the stock or which seat
    drew it, the opponent's shown cards, the public log with every card the opponent drew
    face down hidden, the cards on the table, the stock count, and the scores (V7.1-V7.5).
    Two states with equal observations are one information set for ``seat``."""
    opp = 1 - seat
    public_log = []
    for entry in st.log:
        if entry[0] == "draw" and entry[1] == opp and entry[2] != st.turned:
            public_log.append(("draw", opp, None))
        elif entry[0] in ("play", "draw", "dissle turned", "dissle played"):
            public_log.append((entry[0], entry[1], type_of(entry[2])))
        elif entry[0] == "meld":
            public_log.append(("meld", entry[1], tuple(sorted(type_of(c) for c in entry[2])),
                               entry[3]))
        else:
            public_log.append(entry)
    own = tuple(sorted(_play_key(st, c) for c in st.hands[seat]))
    opp_shown = tuple(sorted(_play_key(st, c) for c in st.hands[opp] if c in st.shown))
    turned_with = None if st.turned in st.stock else (
        seat if st.turned in st.hands[seat] else opp if st.turned in st.hands[opp] else "played")
    return (seat, own, type_of(st.turned), turned_with, opp_shown, tuple(public_log),
            tuple(type_of(c) for c in st.trick), len(st.stock), len(st.hands[opp]),
            tuple(st.melds), st.before, st.leader, st.to_meld)


def unseen_cards(st: State, seat: int) -> list[int]:
    """Physical cards ``seat`` cannot see: the opponent's unshown cards (the turned trump
    excepted once drawn) and the face-down stock."""
    opp = 1 - seat
    return sorted(c for c in st.hands[opp] | set(st.stock)
                  if c not in st.shown and c != st.turned)


def sample_world(st: State, seat: int, rng: random.Random) -> State:
    """A full deal consistent with what ``seat`` knows (:func:`observation`): the
    unseen cards dealt at random between the opponent's hidden hand and the face-down
    stock, in a random stock order; shown cards stay with their owner, the turned trump
    stays at the bottom of the stock or with whoever drew it (V7.2, V7.3).  Once the stock
    is gone the result is ``st`` itself (perfect information, V7.4)."""
    opp = 1 - seat
    pool = unseen_cards(st, seat)
    rng.shuffle(pool)
    world = st.clone()
    n_opp = sum(1 for c in st.hands[opp] if c not in st.shown and c != st.turned)
    kept = {c for c in st.hands[opp] if c in st.shown or c == st.turned}
    world.hands[opp] = kept | set(pool[:n_opp])
    rest = pool[n_opp:]
    world.stock = rest + ([st.turned] if st.turned in st.stock else [])
    return world


# ----------------------------------------------------------------------------- endgame
def endgame_value(st: State, seat: int) -> int:
    """Brute force: the points ``seat`` still makes in the deal (card points of the tricks
    it wins from now, the cards already on the table included, the last trick, Dissles
    played) when both play perfectly, ``seat`` maximising and the other minimising.
    Only for positions with the stock gone (perfect information, V7.4); claims are not
    searched (a claim depends on the game score, not on the play).  Plain recursion over
    every legal card, no table: exponential, for small positions."""
    if st.stock_phase or st.to_meld is not None:
        raise ValueError("V7.4: the exact endgame starts once the stock is gone")
    base = deal_points(st, seat)
    return _endgame(st, seat) - base


def _endgame(st: State, seat: int) -> int:
    if st.tricks == TOTAL_TRICKS:
        return deal_points(st, seat)
    mover = to_act(st)
    vals = [_endgame(apply(st, ("play", c)), seat) for c in legal_plays(st)]
    return max(vals) if mover == seat else min(vals)


def endgame_best_plays(st: State) -> list[int]:
    """The cards (one per type) with which the player to act reaches
    :func:`endgame_value` for itself."""
    seat = to_act(st)
    best = endgame_value(st, seat)
    base = deal_points(st, seat)
    return [c for c in legal_plays(st)
            if _endgame(apply(st, ("play", c)), seat) - base == best]


# ----------------------------------------------------------------------------- bad input
def check_cards(types) -> None:
    """Raise ValueError (V7.1) if ``types`` holds a card outside the 48-card deck or more
    copies of a card than the deck holds (two)."""
    counts = [0] * N_TYPES
    for t in types:
        if not isinstance(t, int) or not 0 <= t < N_TYPES:
            raise ValueError(f"V7.1: {t!r} is no card of the 48-card deck")
        counts[t] += 1
        if counts[t] > 2:
            raise ValueError(f"V7.1: {counts[t]} copies of {name(t)}; the deck holds two of "
                             "each card")


def _tricks(n: int) -> str:
    return f"{n} trick" + ("" if n == 1 else "s")


def check_counts(hand0: int, hand1: int, stock: int, played: int, table: int,
                 leader: int = 0) -> None:
    """Raise ValueError (V7.1, V7.2) unless card counts fit one moment of a deal:
    ``played`` cards in complete tricks, ``table`` (0 or 1) on the table played by
    ``leader``, ``stock`` still to draw, 48 in all, 12 each while the stock lasts (11 for
    a leader who has led), and equal hands after it."""
    total = hand0 + hand1 + stock + played + table
    if total != N_CARDS:
        raise ValueError(f"V7.1: {hand0} + {hand1} in hand, {stock} in the stock, "
                         f"{played + table} played make {total} cards, not 48")
    if played % 2 or table not in (0, 1):
        raise ValueError("V7.2: a trick is one card from each player")
    tricks = played // 2
    want_stock = max(STOCK - 2 * tricks, 0)
    if stock != want_stock:
        raise ValueError(f"V7.2: after {_tricks(tricks)} the stock holds {want_stock} cards, "
                         f"not {stock}")
    size = HAND if stock else HAND - (tricks - STOCK_TRICKS)
    hands = [size, size]
    hands[leader] -= table
    if [hand0, hand1] != hands:
        raise ValueError(f"V7.2: after {_tricks(tricks)} the hands hold {hands[0]} and "
                         f"{hands[1]} cards, not {hand0} and {hand1}")


def check_state(st: State) -> None:
    """Raise ValueError naming the rule unless ``st`` is a consistent moment of a deal:
    each physical card exactly once (V7.1), the counts of :func:`check_counts`, the
    turned trump last in the stock while it lasts (V7.2), shown cards in their owner's
    hand and only while the stock lasts (V7.3, V7.4)."""
    where = [*st.hands[0], *st.hands[1], *st.stock, *st.trick, *st.taken[0], *st.taken[1]]
    check_cards([type_of(c) if isinstance(c, int) and 0 <= c < N_CARDS else c for c in where])
    if sorted(where) != list(range(N_CARDS)):
        raise ValueError("V7.1: the position does not hold each of the 48 cards once")
    played = len(st.taken[0]) + len(st.taken[1])
    # between a won trick and its draws (V7.3) count as if both had drawn
    pending = 2 if st.to_meld is not None else 0
    check_counts(len(st.hands[0]) + pending // 2, len(st.hands[1]) + pending // 2,
                 len(st.stock) - pending, played, len(st.trick), st.leader)
    if st.stock and st.stock[-1] != st.turned:
        raise ValueError("V7.2: the turned trump is the last card of the stock")
    for c in st.shown:
        if not st.stock:
            raise ValueError("V7.4: nothing stays shown once the stock is gone")
        if not any(c in h for h in st.hands):
            raise ValueError(f"V7.3: shown {name(type_of(c))} is in no hand")
