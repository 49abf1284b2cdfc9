"""Plain-Python references for the variants, written straight from VARIANTS.md (V1-V5).

Nothing here reads a RuleSet or a kernel table: each variant's values are copied from
the rule text into :data:`TEXT`, and the counting / play / scoring / auction follow the
text literally.  The kernels are checked against these on random deals of each variant.

Cards are the project's type ints (``suit * 6 + rank``, suits C S H D, ranks A 10 K Q J,
then 5 = the low card: 9 in binokel-48, 7 in the grupp games, absent in binokel-40).
"""
from __future__ import annotations

import random

SUITS = "CSHD"
SYMBOLS = "♣♠♥♦"
A, T, K, Q, J, LOW = range(6)
S, D = 1, 3

# Values copied from the rule text, one entry per variant name.
TEXT = {
    "binokel-48": dict(  # R1-R10
        low=True, hand=15, dabb=3, family=(150, 100), double_family=(1500, 1000),
        pair=(40, 20), four={A: 100, K: 80, Q: 60, J: 40}, eight={A: 1000, K: 1000, Q: 1000, J: 1000},
        binokel=40, double_binokel=300, grand_binokel=None, low_trump=10, dissle_discard=False,
        beat_when_trumped=False, rounding=False, going_out=50, durch=1000, open_durch=None,
        durch_fail=1, forced_opening=True, target=1500),
    "grupp-3": dict(  # V2
        low=True, hand=15, dabb=3, family=(150, 100), double_family=(1500, 1500),   # V2.5
        pair=(40, 20), four={A: 100, K: 80, Q: 60, J: 40}, eight={A: 1000, K: 1000, Q: 1000, J: 1000},
        binokel=40, double_binokel=300, grand_binokel=80, low_trump=10, dissle_discard=True,  # V2.3
        beat_when_trumped=False, rounding=True, going_out=30, durch=1000, open_durch=1500,   # V2.4, V2.7
        durch_fail=2, forced_opening=False, target=1500),
    "binokel-40": dict(  # V5
        low=False, hand=12, dabb=4, family=(150, 100), double_family=(300, 200),   # V5.5 two families
        pair=(40, 20), four={A: 100, K: 80, Q: 60, J: 40}, eight={A: 200, K: 160, Q: 120, J: 80},
        binokel=40, double_binokel=300, grand_binokel=None, low_trump=0, dissle_discard=False,
        beat_when_trumped=True, rounding=True, going_out=40, durch=None, open_durch=None,   # V5.6, V5.4, V5.7
        durch_fail=1, forced_opening=True, target=1000),
}
TEXT["grupp-4"] = dict(TEXT["grupp-3"])   # V3: exactly grupp-3 among the three who play
TEXT["kreuz-48"] = dict(TEXT["grupp-3"], hand=11, dabb=4)   # V4.1 11 + 4; the melds as V2 (V4.4)
TEXT["kreuz-40"] = dict(TEXT["binokel-40"], hand=9)         # V5.1 9 + 4; the melds of V5.5
CARD_POINTS = (11, 10, 4, 3, 2, 0)         # V1
LAST_TRICK = 10                            # V1


def c(counts, suit: int, rank: int) -> int:
    return int(counts[suit * 6 + rank])


def random_hand(name: str, rng: random.Random, size: int | None = None) -> list[int]:
    """A random hand (24 counts) of ``size`` cards (default: the variant's hand) drawn
    from the variant's deck (two copies of each card, no low card in binokel-40)."""
    deck = [t for t in range(24) for _ in range(2) if TEXT[name]["low"] or t % 6 != LOW]
    counts = [0] * 24
    for t in rng.sample(deck, size or TEXT[name]["hand"]):
        counts[t] += 1
    return counts


def random_deal(name: str, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """Three hands and the Dabb of one random deal of the variant (24 counts each)."""
    v = TEXT[name]
    deck = [t for t in range(24) for _ in range(2) if v["low"] or t % 6 != LOW]
    rng.shuffle(deck)
    parts = []
    pos = 0
    for size in (v["hand"],) * 3 + (v["dabb"],):
        counts = [0] * 24
        for t in deck[pos:pos + size]:
            counts[t] += 1
        parts.append(counts)
        pos += size
    return parts[:3], parts[3]


# --------------------------------------------------------------------------- melds

def melds_total(name: str, counts, trump: int, discard=None) -> int:
    """The meld total of a hand with ``trump`` (R5 with V2.3, V2.5, V5.5)."""
    v = TEXT[name]
    total = 0
    for s in range(4):
        i = 0 if s == trump else 1
        held = [c(counts, s, r) for r in (A, T, K, Q, J)]
        fam = min(held)
        if fam == 2:
            total += v["double_family"][i]       # "double family": no pairs left over
        elif fam == 1:
            total += v["family"][i] + min(held[2] - 1, held[3] - 1) * v["pair"][i]
        else:
            total += min(held[2], held[3]) * v["pair"][i]
    for r in (A, K, Q, J):
        n = min(c(counts, s, r) for s in range(4))
        if n == 2:
            total += v["eight"][r]
        elif n == 1:
            total += v["four"][r]
    qs, jd, ks = c(counts, S, Q), c(counts, D, J), c(counts, S, K)
    if qs == 2 and jd == 2:
        total += v["double_binokel"]            # stands above grand binokel (V2.5 Reading)
    elif qs >= 1 and jd >= 1 and ks >= 1 and v["grand_binokel"]:
        total += v["grand_binokel"]              # V2.5: in place of the binokel's 40
    elif qs >= 1 and jd >= 1:
        total += v["binokel"]
    total += c(counts, trump, LOW) * v["low_trump"]
    if discard is not None and v["dissle_discard"]:
        total += c(discard, trump, LOW) * v["low_trump"]   # V2.3
    return total


# --------------------------------------------------------------------------- play

def beats(card: int, winner: int, trump: int | None) -> bool:
    """V1 / R6: same suit and strictly higher, or a trump on a non-trump."""
    if card // 6 == winner // 6:
        return card % 6 < winner % 6
    return trump is not None and card // 6 == trump and winner // 6 != trump


def trick_winner(trick: list[int], trump: int | None) -> int:
    w = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[w], trump):
            w = i
    return w


def legal(name: str, hand_types: set[int], trick: list[int], trump: int | None) -> set[int]:
    """Legal card types to add to ``trick`` (R6; V5.6 in binokel-40)."""
    if not trick:
        return set(hand_types)
    led = trick[0] // 6
    win = trick[trick_winner(trick, trump)]
    follow = {x for x in hand_types if x // 6 == led}
    if follow:
        if TEXT[name]["beat_when_trumped"]:
            # V5.6: beat the highest card of the led suit, even when already trumped
            high = min((x for x in trick if x // 6 == led), key=lambda x: x % 6)
            better = {x for x in follow if x % 6 < high % 6}
        else:
            better = {x for x in follow if beats(x, win, trump)}
        return better or follow
    if trump is not None:
        trumps = {x for x in hand_types if x // 6 == trump}
        if trumps:
            if win // 6 == trump:
                over = {x for x in trumps if x % 6 < win % 6}
                return over or trumps
            return trumps
    return set(hand_types)


# --------------------------------------------------------------------------- scoring

def rounded(name: str, points: int) -> int:
    """V1: to the nearest 10, 5 up, where the variant rounds."""
    if not TEXT[name]["rounding"]:
        return points
    return (points // 10) * 10 + (10 if points % 10 >= 5 else 0)


def score(name: str, kind: str, soloist: int, bid: int, card_points, tricks, melds) -> list[int]:
    """Deal scores (R8 with V2.4/V2.6/V2.7, V5.4/V5.7).  ``card_points`` include the
    soloist's discard and the last trick; kind: normal, going_out, durch, open_durch."""
    v = TEXT[name]
    if kind == "going_out":
        return [-bid if p == soloist else melds[p] + v["going_out"] for p in range(3)]
    if kind in ("durch", "open_durch"):
        value = v["durch"] if kind == "durch" else v["open_durch"]
        out = [0, 0, 0]
        out[soloist] = value if tricks[soloist] == v["hand"] else -v["durch_fail"] * value
        return out
    out = []
    for p in range(3):
        total = rounded(name, card_points[p]) + (melds[p] if tricks[p] > 0 else 0)
        if p == soloist:
            out.append(total if tricks[p] > 0 and total >= bid else -2 * bid)
        else:
            out.append(total if tricks[p] > 0 else 0)
    return out


# --------------------------------------------------------------------------- auction

def auction(name: str, maxima: list[int]) -> tuple[int | None, int, list[int]]:
    """Chain-of-duels auction (R3; V2.2 "weg") of three threshold bidders.

    A seat says the next bid (150 first, then +10) while it is at most its maximum, else
    passes (final).  Returns ``(soloist or None if thrown in, bid, calls)``; calls use 0
    for a pass.
    """
    forced = TEXT[name]["forced_opening"]
    calls: list[int] = []
    standing = None
    holder = None
    if forced:
        calls.append(150)
        standing, holder = 150, 0
        survivor = 0
        rival = 1
    else:
        # V2.2 Reading: forehand may pass ("weg") or open at 150
        if maxima[0] >= 150:
            calls.append(150)
            standing, holder, survivor, rival = 150, 0, 0, 1
        else:
            calls.append(0)
            survivor, rival = None, 1
    # duel 1 (forehand vs middlehand), then duel 2 (survivor vs rearhand)
    for duel in (1, 2):
        if duel == 2:
            rival = 2
        if survivor is None:
            # no bid stands: the rival opens at 150 or passes
            if maxima[rival] >= 150:
                calls.append(150)
                standing, holder, survivor = 150, rival, rival
                if duel == 1:
                    continue
                return holder, standing, calls
            calls.append(0)
            if duel == 2:
                return None, 0, calls         # all three passed: thrown in
            continue
        to_move, other = rival, survivor
        while True:
            nxt = standing + 10
            if nxt <= maxima[to_move]:
                calls.append(nxt)
                standing, holder = nxt, to_move
                to_move, other = other, to_move
            else:
                calls.append(0)
                survivor = other
                break
    return holder, standing, calls
