"""Plain-Python reference of the world sampler (analyzer.mechanics.worlds): the exact
distribution of the hidden cards given one player's knowledge, by brute force over the
*physical* cards (R2: the deck is shuffled uniformly, so every assignment of the hidden
physical cards to the places with the right room is equally likely; the knowledge
keeps those consistent with it, R4-R6).

Knowledge: ``unseen[t]`` hidden copies of type t, ``public[t]`` of them face-up (R4: only
to ``pub_places``), ``shown[p][t]`` copies place p showed and still holds (R5: p holds at
least that many), ``absent[p]`` types place p is proven not to hold (R6), ``room[p]``
cards each place takes (0 for a place without hidden cards).  Small cases only (every
place for every card: P ** cards).
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product


def world_distribution(unseen, public, shown, absent, room, pub_places):
    """{world: probability (Fraction)}, a world = tuple over places of tuples of (type,
    copies) sorted, for every consistent assignment of the hidden physical cards."""
    cards = []                         # (type, face-up?)
    for t, u in enumerate(unseen):
        pub = min(public[t], u)
        cards += [(t, True)] * pub + [(t, False)] * (u - pub)
    n_places = len(room)
    count = Counter()
    for assign in product(range(n_places), repeat=len(cards)):
        filled = [0] * n_places
        held = [Counter() for _ in range(n_places)]
        ok = True
        for (t, up), p in zip(cards, assign):
            if up and not (pub_places >> p) & 1:
                ok = False
                break
            if (absent[p] >> t) & 1:
                ok = False
                break
            filled[p] += 1
            held[p][t] += 1
        if not ok or filled != list(room):
            continue
        if any(held[p][t] < shown[p][t] for p in range(n_places) for t in range(len(unseen))):
            continue
        count[tuple(tuple(sorted(h.items())) for h in held)] += 1
    total = sum(count.values())
    return {w: Fraction(c, total) for w, c in count.items()}
