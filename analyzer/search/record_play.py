"""Deal records of the deals ``binokel play`` plays (issue 27; the format:
analyzer.mechanics.record, docs/guide/records.md).

:func:`play_record` deals and plays one deal exactly as ``binokel play`` does (the same
seeded functions: :func:`analyzer.mechanics.play.play_deal` for the three-player games,
:func:`analyzer.search.partner_deals.play_partners_deal` for the team games) and returns it as
a :class:`~analyzer.mechanics.record.Deal`.  As in ``play`` there is no auction and no
exchange: the soloist's discard is the Dabb as dealt (R4).
"""
from __future__ import annotations

import numpy as np

from analyzer.errors import BinokelError
from analyzer.mechanics.cards import SUIT_LETTERS, N_TYPES, Hand
from analyzer.search.partner_deals import play_partners_deal
from analyzer.mechanics.record import DURCH, Deal, in_play_seats
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import get_rules
from analyzer.mechanics.ruleset import get_game
from analyzer.mechanics.sampling import deal_rules, new_deck


def _counts(h) -> tuple:
    return tuple(int(x) for x in h.counts)


def play_record(game, seed: int = 0, policy: str = "heuristic", soloist: int | None = 0,
                trump: int | None = 0, bid: int | None = None, source: str = "") -> Deal:
    """One deal of ``game`` (a name or RuleSet) played as ``binokel play --seed SEED``:
    ``trump`` 0..3 or None (a Durch), ``soloist`` a seat in play or None, ``bid`` default
    the opening bid.  Raises BinokelError on bad input."""
    g = get_game(game)
    flat = get_rules(g.name)
    seats = g.table.seat_names
    if getattr(flat, "teams", False):
        rec = play_partners_deal(flat, seed=seed, soloist=soloist, trump=trump, bid=bid, policy=policy)
        tricks = tuple((t["leader"], tuple(t["cards"][(t["leader"] + j) % 4] for j in range(4)))
                       for t in rec["tricks"])
        has_dabb = g.dabb.size > 0
        sol = rec["soloist"]
        return Deal(rules=g, seats=seats, hands=tuple(_counts(h) for h in rec["hands"]),
                    dabb=_counts(rec["dabb"]) if has_dabb else None, soloist=sol,
                    bid=rec["bid"] if sol is not None else None,
                    discard=_counts(rec["dabb"]) if has_dabb and sol is not None else None,
                    contract=DURCH if rec["trump"] is None else SUIT_LETTERS[rec["trump"]],
                    melds=None if rec["trump"] is None else tuple(rec["melds"]),
                    tricks=tricks, points=tuple(rec["points"]), won=tuple(rec["tricks_won"]),
                    score=tuple(rec["scores"]) if rec["scores"] is not None else None,
                    source=source)
    from analyzer import melds, play_deal, score_deal
    if soloist is not None and soloist not in in_play_seats(g):
        raise BinokelError(f"soloist seat {soloist} is not in play (R2, V3)")
    if trump is None and soloist is None:
        raise BinokelError("a Durch needs a soloist (R4)")
    out = np.zeros(4, dtype=np.int64)
    deal_rules(chunk_state(seed, 0), new_deck(flat), flat.kernel, out)
    hands = [Hand.from_mask(int(m)) for m in out[:3]]
    tapp = Hand.from_mask(int(out[3]))
    suit = None if trump is None else SUIT_LETTERS[trump]
    rec = play_deal(hands, suit, policy=policy, seed=seed, soloist=soloist, rules=flat)
    tapp_points = sum(flat.card_points[c.id % 6] for c in tapp.cards())
    meld_totals = [0, 0, 0] if suit is None else [melds(h, suit, flat).total for h in hands]
    points = list(rec.points)
    score = None
    bid = flat.bid_start if bid is None else int(bid)
    if soloist is not None:
        points[soloist] += tapp_points
        score = score_deal(soloist, bid, rec.points, rec.tricks_won, meld_totals,
                           discard_points=tapp_points, kind="normal" if suit else "durch",
                           rules=flat)
    tab = [None] * g.table.seats
    for i, s in enumerate(in_play_seats(g)):
        tab[s] = _counts(hands[i])
    return Deal(rules=g, seats=seats, hands=tuple(tab), dabb=_counts(tapp), soloist=soloist,
                bid=bid if soloist is not None else None,
                discard=_counts(tapp) if soloist is not None else None,
                contract=DURCH if suit is None else suit,
                melds=None if suit is None else tuple(meld_totals),
                tricks=tuple((t.leader, tuple(c.id for c in t.cards)) for t in rec.tricks),
                points=tuple(points), won=tuple(rec.tricks_won),
                score=tuple(score.scores) if score else None, source=source)


assert N_TYPES == 24
