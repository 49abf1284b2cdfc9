"""The auction's evidence on the worlds of ``binokel hint`` and ``binokel review`` (R3; V1,
V6.2; issue 27).

A hint's PIMC worlds are dealt uniformly among the deals consistent with what the seat
to play saw in the play (:mod:`analyzer.search.pimc`, :func:`~analyzer.search.pimc.partners_worlds`).  The auction
says more: a seat that bid high holds strength.  :func:`world_weights` gives every world
the likelihood of the OTHER seats' calls given their hands in that world, with the model
and likelihood of ``binokel advise --lookahead`` and of the auction's review
(:mod:`.bid_review`): the default opponent model of the look-ahead
(:func:`analyzer.analyses.opponents.resolve_opponents`; at a partners' table the team
look-ahead's :func:`~analyzer.analyses.lookahead.partners_model`, its partner the same
model), each seat's value of its dealt hand, and
:func:`analyzer.mechanics.bidding.evidence_likelihood` of the highest bid it said and the
bid it declined (a forced opening says nothing, R3, V5.2).

Only what the player could know enters: the calls (public), the cards each seat played
(public), the face-up Dabb (R4) and, through the world, the rest.  A seat's dealt hand in
a world is its cards now plus the cards it played; the soloist's also plus its discard
less the Dabb it took up (R4; its discard is the world's unless the seat to play is the
soloist and knows it).
"""
from __future__ import annotations

import numpy as np

from analyzer.mechanics.bidding import evidence_likelihood
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.record import in_play_seats
from analyzer.mechanics.rules import get_rules
from analyzer.mechanics.sampling import counts_mask

from .advice_grid import parse_auction_for, partners_spec
from .advice_samples import auction_evidence
from .bid_model_fit import partner_model_value, rule_params
from .lookahead import default_partners_model, partners_model
from .opponents import model_value, resolve_opponents


def has_auction(view) -> bool:
    """True when the view holds calls of an auction to weight by (a game with an auction
    whose record holds it; V7.1: binokel-2 has none)."""
    return (view.rules.auction.form != "none" and view.auction is not None
            and len(view.auction) > 0)


def dealt_hands(view, hands: np.ndarray, disc: np.ndarray) -> np.ndarray:
    """Per world the hand each table seat was dealt (int64[n, seats, 24]): ``hands``
    (int[n, seats, 24]) its cards now in the world, plus the cards it played
    (``view.played_by``), and for the soloist with a Dabb (R4) plus the discard
    (``disc`` int[n, 24], the world's; the seat's own when it is the soloist) less the
    face-up Dabb.  At a table with a seat sitting out (R2) only the seats in play, 0-2."""
    out = np.asarray(hands, dtype=np.int64).copy()
    # the three-seat worlds hold seats 0-2; a seat that sits the deal out (grupp-4's
    # dealer, R2) has neither cards nor calls
    out += np.asarray(view.played_by, dtype=np.int64)[None, :out.shape[1], :]
    if view.rules.dabb.size:
        d = (np.asarray(view.discard, dtype=np.int64)[None, :] if view.seat == view.soloist
             else np.asarray(disc, dtype=np.int64))
        out[:, view.soloist, :] += d - np.asarray(view.dabb, dtype=np.int64)[None, :]
    return out


def world_weights(view, hands: np.ndarray, disc: np.ndarray) -> np.ndarray:
    """The auction likelihood of each world (float64[n]; module docstring): the product,
    over the table seats other than ``view.seat`` that showed evidence, of
    ``evidence_likelihood(value of its dealt hand, highest bid said, bid declined)``.
    ``hands``/``disc`` as :func:`dealt_hands`.  A product may underflow to 0, and a world
    whose soloist's dealt hand would lack a card of the face-up Dabb (the partners'
    worlds are dealt without it, R4, V4.2) weighs 0: the caller drops such worlds and
    says how many."""
    rules = view.rules
    flat = get_rules(rules.name)
    dealt = dealt_hands(view, hands, disc)
    n = dealt.shape[0]
    calls = [c for _, c in view.auction]
    spec = partners_spec(flat)
    w = np.ones(n, dtype=np.float64)
    # a world whose soloist cannot have taken up the face-up Dabb (the partners' sampler
    # does not place its cards, R4): no deal explains it, weight 0
    w[(dealt < 0).any(axis=(1, 2))] = 0.0
    dealt = np.maximum(dealt, 0)
    if spec is None:
        state = parse_auction_for(calls, flat)
        kind, coef, scale, est = resolve_opponents(None, True, flat).kernel_args()
        seats = in_play_seats(rules)
        for q, p in enumerate(seats):
            if p == view.seat or not (state.lo[q] or state.hi[q]):
                continue
            for i in range(n):
                v = model_value(counts_mask(dealt[i, p].astype(np.uint8)), q, kind, coef, est,
                                flat.kernel)
                w[i] *= evidence_likelihood(np.float64(v), state.lo[q], state.hi[q], scale)
        return w
    state = parse_auction_for(calls, spec)
    lo, hi = auction_evidence(state, spec)
    model = partners_model(default_partners_model(spec), spec)
    rv1, rv2 = rule_params(spec)
    coef = model.coef_array()
    tmp = np.zeros(4, dtype=np.int64)
    feat = np.zeros(len(coef), dtype=np.float64)
    for p in range(4):
        if p == view.seat or not (lo[p] > 0 or hi[p] > 0):
            continue
        for i in range(n):
            v, _tr = partner_model_value(dealt[i, p].astype(np.uint8), p, model.kind, coef,
                                         model.offset, spec.tk, spec.kr, rv1, rv2, tmp, feat)
            w[i] *= evidence_likelihood(np.float64(v), lo[p], hi[p], model.scale)
    return w


def planes_counts(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Planes (int64[..., ]) -> counts int64[..., 24] (a copy per set plane)."""
    bits = np.arange(N_TYPES, dtype=np.int64)
    return ((np.asarray(lo)[..., None] >> bits) & 1) + ((np.asarray(hi)[..., None] >> bits) & 1)


__all__ = ["has_auction", "dealt_hands", "world_weights", "planes_counts"]
