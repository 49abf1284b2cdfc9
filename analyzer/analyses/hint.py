"""Which card now? The play advisor of ``binokel hint`` (issue 27).

One entry for every game: :func:`hint` takes a RuleSet and a :class:`View` (a position as
one player knows it) and values each legal card of that player:

- under PIMC (:mod:`analyzer.search.pimc`): ``n`` worlds dealt consistently with what the
  player knows (:func:`~analyzer.search.pimc.sample_world`: its own hand, every card
  played, the voids the play proved (R6), the face-up Dabb (R4), its discard when it is
  the soloist); in each world every legal card is valued exactly by the double-dummy
  solver once at most ``horizon`` tricks are left, else by a heuristic play-out (the same
  evaluation as :func:`~analyzer.search.pimc.pimc_choose`, on the same worlds: the best
  card here is PIMC's choice).  Each card gets the mean card points the player's side
  takes from here to the end and the soloist's deal score (R8), each with its standard
  error and n;
- with every hand known (a full record), the exact double-dummy value of each card
  (:func:`~analyzer.search.solve_any.card_values`, what ``binokel solve`` prints), when at most
  ``dd_max_tricks`` tricks are left.

The auction (R3; V1, V6.2): when the view holds the record's calls, every world is
weighted by the likelihood of the other seats' calls given their dealt hands there
(:mod:`.hint_auction`, the model of ``binokel advise --lookahead``); the means are then
weighted, their SE at Kish's effective n, the best card the argmax of the weighted means;
worlds of weight 0 are left out and counted.  Without calls, or with
``auction_weights=False``, the values are the uniform worlds', bit for bit.

Honest by construction: :func:`view_from_record` reads the record as the player saw it
(:func:`analyzer.mechanics.record.hide`) for everything PIMC uses; the other hands reach
only the double-dummy part, and only when the record holds them.

Every game (:func:`supported` asks the compiled RuleSet): three seats with a lone soloist,
any deck (binokel-40's 40 cards and 4-card Dabb draw their worlds with the exact sampler
:mod:`analyzer.mechanics.worlds`, as :func:`~analyzer.search.pimc.pimc_choose` does), and
the partners' games (V1: kreuz-48, kreuz-40, pinochle-80), whose worlds and values are
those of :func:`~analyzer.search.pimc.pimc_choose_partners` with the same ``horizon``
(:func:`~analyzer.search.pimc.partners_worlds`; value = the card points of the seat's side, partners together):
every world is solved exactly by the table solver once at most ``horizon`` tricks are
left (:func:`analyzer.search.solve_any.world_move_values`, one workspace and table reused
world after world), earlier played out by the partners' heuristic at every seat.  The
deal score there is the seat's side's (V4.6, V5.7, V6.6: ``score_sides``; it needs the
record's bid and that side's melds; a side with no trick yet counts one when it takes
points from here on).  A Durch (kreuz-48, V4.6 "as V2.7", R4) is valued with exact
worlds only (the solver ends play at the soloist's first lost trick; a defender's points
are what the soloist falls short of a made Durch; the score +value made, else
-loss factor x value); above the horizon it is refused in one line, since the play-outs
do not end at the first lost trick.  The double-dummy values come
from :func:`analyzer.search.solve_any.card_values` for every table (at most
:data:`~analyzer.search.solve_any.MAX_KEY_CARDS` cards in the hands).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from analyzer.bounds import HINT_EXACT_CARDS
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_TYPES, card_code
from analyzer.mechanics.record import DURCH, OPEN_DURCH, Deal, hide, in_play_seats, scoring_unit
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import get_rules, team_kernel
from analyzer.mechanics.play import beat_table
from analyzer.mechanics.ruleset import SIDES_PARTNERS, SIDES_SOLO, RuleSet
from analyzer.mechanics.scoring import (DEAL_NORMAL, score_kernel, score_sides,
                                        score_sides_durch)
from analyzer.mechanics.trick import add_card, duty_modes, legal, proves, relief_of, sides_of
from analyzer.analyses.hint_auction import has_auction, planes_counts, world_weights
from analyzer.analyses.weighted_stats import effective_sample_size, weighted_mean
from analyzer.search.pimc import partners_worlds, pimc_worlds
from analyzer.search.solve_any import MAX_KEY_CARDS, card_values, world_workspace
from analyzer.search.solve import W_SIZE, init_workspace, new_table, set_context

DEFAULT_WORLDS = 40
DEFAULT_HORIZON = None   # the table's: default_horizon (10 tricks at three seats, 8 at four)
DEFAULT_DD_MAX_TRICKS = 10   # exact double dummy with every hand known (~ms at 10 tricks)
_TT_BITS = 18
_PROGRESS_WORLDS = 1   # worlds per kernel call when a progress bar is shown (it counts worlds)


@dataclass(frozen=True)
class View:
    """A position as the seat to play knows it (all counts are 24-tuples of card types).

    ``seat`` to play; ``own`` its cards now; ``played`` every card played so far (the
    current trick included); ``trick`` the current trick's cards in play order, led by
    ``leader``; ``absent`` per seat the types its play proved it does not hold (R6);
    ``dabb`` the face-up Dabb (R4) and ``dabb_left`` its copies the soloist has not played;
    ``discard`` the soloist's discard when ``seat`` is the soloist, else None; ``sizes``
    cards per seat now; ``past_points``/``past_won`` card points (no discard) and tricks
    per seat so far; ``melds`` the soloist's melds if recorded; ``hands`` every seat's
    cards now when the record holds them all (for the double-dummy values), else None.
    """

    rules: RuleSet
    seat: int
    soloist: int
    trump: int
    bid: int | None
    own: tuple
    played: tuple
    trick: tuple
    leader: int
    absent: tuple
    dabb: tuple
    dabb_left: tuple
    discard: tuple | None
    sizes: tuple
    past_points: tuple
    past_won: tuple
    melds: int | None
    trick_no: int
    hands: tuple | None = None
    next_card: int | None = None     # the card the record shows played here, if any
    side_melds: int | None = None    # partners (V1): the melds of the seat's own side
    past_counting: tuple | None = None   # partners (V6.3): tricks holding a counter per side
    auction: tuple | None = None     # the record's calls ((table seat, call), ...; R3), if any
    played_by: tuple | None = None   # per table seat the card types it played so far (public)


@dataclass(frozen=True)
class CardValue:
    card: int
    points: float          # mean card points of the player's side from here to the end
    points_se: float
    score: float | None    # mean deal score (R8) of the soloist; at a partners' table (V1)
                           # of the seat's side (None: no bid or melds recorded)
    score_se: float | None
    n: int                 # worlds
    dd: int | None         # exact double-dummy card points of the player's side (every hand known)
    ess: float | None = None   # Kish's effective n of the auction weights (None: unweighted)


@dataclass(frozen=True)
class Hint:
    view: View
    cards: tuple           # CardValue, best first
    best: int              # PIMC's card
    worlds: int
    horizon: int
    exact_worlds: bool     # every world solved exactly (tricks left <= horizon)
    dd_note: str           # why there are no double-dummy values ("" when there are)
    samples: dict = field(default_factory=dict, compare=False)   # card -> side points per world
    weights: object = field(default=None, compare=False)   # per world auction weight, or None
    ess: float | None = None   # Kish's effective n of ``weights`` (None: uniform worlds)
    dropped: int = 0           # worlds of weight 0 (no explanation of the calls) left out

    def to_dict(self) -> dict:
        v, low = self.view, self.view.rules.deck.low_card
        return {"rules": v.rules.name, "seat": v.seat, "soloist": v.soloist,
                "trump": "N" if v.trump < 0 else "CSHD"[v.trump], "trick": v.trick_no,
                "leader": v.leader, "current_trick": [card_code(c, low) for c in v.trick],
                "hand": _codes(v.own, low), "best": card_code(self.best, low),
                "played_in_record": None if v.next_card is None else card_code(v.next_card, low),
                "worlds": self.worlds, "horizon": self.horizon,
                "exact_worlds": self.exact_worlds, "double_dummy": self.dd_note or "exact",
                # R3: the worlds weighted by the other seats' calls (effective n), or not
                "auction_weights": self.weights is not None,
                "effective_worlds": None if self.ess is None else round(self.ess, 1),
                "dropped_worlds": self.dropped,
                # whose deal score (R8): the soloist's, or the seat's side's at partners (V1)
                "score_of": "side" if _partners(v.rules) else "soloist",
                "cards": [{"card": card_code(c.card, low), "points": round(c.points, 3),
                           "points_se": round(c.points_se, 3),
                           "score": None if c.score is None else round(c.score, 3),
                           "score_se": None if c.score_se is None else round(c.score_se, 3),
                           "n": c.n, "effective_n": None if c.ess is None else round(c.ess, 1),
                           "dd": c.dd} for c in self.cards]}


def _codes(counts, low):
    return " ".join(card_code(t, low) for t in range(N_TYPES) for _ in range(counts[t]))


def supported(rules: RuleSet) -> None:
    """Raise BinokelError (one line) when ``hint`` cannot value play at this game's table:
    it knows three seats in play with a lone soloist (the three-player PIMC and solver,
    any deck) and four seats in two partnerships (V1: the team PIMC and the table
    solver).  Asked of the compiled RuleSet, never of the game's name."""
    k = rules.kernel
    if not ((k.n_play == 3 and k.side_rule == SIDES_SOLO)
            or (k.n_play == 4 and k.side_rule == SIDES_PARTNERS)):
        raise BinokelError(f"hint: {rules.name} has {k.n_play} seats in play; hint values "
                           "play for three seats with a lone soloist or four in two "
                           "partnerships (V1)")


def _partners(rules: RuleSet) -> bool:
    return int(rules.kernel.side_rule) == SIDES_PARTNERS


def role(view: "View") -> str:
    """``soloist``, ``soloist's partner`` (V1) or ``defender``: the seat to play's role."""
    k = view.rules.kernel
    side = np.zeros(view.rules.table.seats, dtype=np.int64)
    sides_of(k.side_rule, k.sits_out, view.soloist, side)
    if view.seat == view.soloist:
        return "soloist"
    return "soloist's partner" if side[view.seat] == side[view.soloist] else "defender"


def view_from_record(deal: Deal, trick_no: int | None = None, card_no: int | None = None) -> View:
    """The position before card ``card_no`` (1-based) of trick ``trick_no`` of a record,
    as the seat to play there knows it (default: the first card the record does not hold).

    Raises BinokelError (one line) for a position the record does not reach, a hidden
    hand of the seat to play, or a deal without a soloist and a played contract.
    """
    r = deal.rules
    supported(r)
    if deal.soloist is None or deal.contract is None or deal.contract == "out":
        raise BinokelError("hint: the record has no soloist with a played contract (R4)")
    seats = in_play_seats(r)
    n_play = len(seats)
    flat = list(deal.tricks)
    if trick_no is None:
        if not flat:
            trick_no, card_no = 1, 1
        elif len(flat[-1][1]) < n_play:
            trick_no, card_no = len(flat), len(flat[-1][1]) + 1
        else:
            trick_no, card_no = len(flat) + 1, 1
        if trick_no > r.table.hand_size or deal.complete():
            raise BinokelError("hint: the record holds the whole deal: give --trick T "
                               "(and --card K) for a decision in it")
    card_no = 1 if card_no is None else card_no
    if not 1 <= card_no <= n_play:
        raise BinokelError(f"hint: --card {card_no}: a trick has cards 1-{n_play}")
    if not 1 <= trick_no <= r.table.hand_size:
        raise BinokelError(f"hint: --trick {trick_no}: a deal of {r.name} has tricks "
                           f"1-{r.table.hand_size}")
    have = sum(len(c) for _, c in flat)
    need = (trick_no - 1) * n_play + card_no - 1
    if need > have:
        raise BinokelError(f"hint: the record stops after {have} cards; trick {trick_no} "
                           f"card {card_no} needs {need}")
    k = r.kernel
    trump = deal.trump
    sol = deal.soloist
    side = np.zeros(r.table.seats, dtype=np.int64)
    sides_of(k.side_rule, k.sits_out, sol, side)
    full = deal.play_hands()
    hands = [None if h is None else list(h) for h in full]
    played = [0] * N_TYPES
    absent = [0] * r.table.seats
    played_by = [[0] * N_TYPES for _ in range(r.table.seats)]
    dabb_left = list(deal.dabb) if deal.dabb is not None else [0] * N_TYPES
    points = [0] * r.table.seats
    won = [0] * r.table.seats
    counting = [0, 0]            # partners (V6.3): tricks holding a counter per side
    leader = seats[0]
    if deal.contract in (DURCH, OPEN_DURCH) or r.play.first_lead == "bidder":
        leader = sol                                   # R4, V6.2
    trick: list[int] = []
    ls = wc = ws = lh = -1
    next_card = None
    t_no = 1
    count = 0
    for ld, cards in flat:
        for c in cards:
            if count == need:
                next_card = c
                break
            if not trick:
                leader = ld
            seat = _seats_played(leader, len(trick) + 1, k)[-1]
            rel = relief_of(seat, ws, side, k.partner_relief)
            if ls >= 0:
                absent[seat] |= int(proves(c, ls, wc, lh, trump, k.beat, k.follow, k.trump_duty,
                                           k.beat_mode, k.overtrump, rel))
            ls, wc, ws, lh = add_card(c, seat, ls, wc, ws, lh, trump, k.beat)
            played[c] += 1
            played_by[seat][c] += 1
            if hands[seat] is not None:
                hands[seat][c] -= 1
            if seat == sol and dabb_left[c] > 0:
                dabb_left[c] -= 1
            trick.append(c)
            count += 1
            if len(trick) == n_play:                    # R6, R7: the trick to its winner
                p = sum(int(k.card_points[x]) for x in trick)
                if t_no == r.table.hand_size:
                    p += r.points.last_trick
                points[int(ws)] += p
                won[int(ws)] += 1
                if p > (r.points.last_trick if t_no == r.table.hand_size else 0):
                    counting[int(side[int(ws)]) % 2] += 1
                leader, trick, ls, wc, ws, lh = int(ws), [], -1, -1, -1, -1
                t_no += 1
        if next_card is not None:
            break
    seat = leader
    for _ in trick:
        seat = int(k.next_seat[seat])
    if hands[seat] is None:
        raise BinokelError(f"hint: the hand of seat {seat}, to play trick {t_no} card "
                           f"{len(trick) + 1}, is hidden in the record")
    if deal.contract in (DURCH, OPEN_DURCH) and any(won[s] for s in seats if s != sol):
        raise BinokelError("hint: the Durch has ended: the soloist lost a trick (R4)")
    sizes = [0] * r.table.seats
    for s in seats:
        sizes[s] = r.table.hand_size - (t_no - 1) - (1 if s in _seats_played(leader, len(trick), k)
                                                    else 0)
    own = tuple(hands[seat])
    all_known = all(hands[s] is not None for s in seats)
    melds = None
    if deal.melds is not None:      # one value per scoring unit: a team at a partners' table
        melds = deal.melds[scoring_unit(deal, sol)]
    mine = hide(deal, seat)
    partners = _partners(r)
    side_melds = (deal.melds[scoring_unit(deal, seat)]
                  if partners and deal.melds is not None else None)
    return View(rules=r, seat=seat, soloist=sol, trump=trump, bid=deal.bid, own=own,
                played=tuple(played), trick=tuple(trick), leader=leader,
                absent=tuple(absent), dabb=tuple(deal.dabb) if deal.dabb else (0,) * N_TYPES,
                dabb_left=tuple(dabb_left),
                discard=tuple(mine.discard) if mine.discard is not None else None,
                sizes=tuple(sizes), past_points=tuple(points), past_won=tuple(won), melds=melds,
                trick_no=t_no, hands=tuple(None if h is None else tuple(h) for h in hands) if all_known
                else None,
                next_card=next_card, side_melds=side_melds,
                past_counting=tuple(counting) if partners else None,
                auction=tuple(deal.auction) if deal.auction else None,
                played_by=tuple(tuple(x) for x in played_by))


def _seats_played(leader, n, k):
    out = []
    s = leader
    for _ in range(n):
        out.append(s)
        s = int(k.next_seat[s])
    return out


def _planes(counts) -> tuple[int, int]:
    lo = sum(1 << t for t in range(N_TYPES) if counts[t] >= 1)
    hi = sum(1 << t for t in range(N_TYPES) if counts[t] >= 2)
    return lo, hi


def _trick_state(view: View, beat):
    ls = wc = ws = lh = -1
    seat = view.leader
    k = view.rules.kernel
    for c in view.trick:
        ls, wc, ws, lh = add_card(c, seat, ls, wc, ws, lh, view.trump, beat)
        seat = int(k.next_seat[seat])
    tp = sum(int(k.card_points[c]) for c in view.trick)
    return len(view.trick), int(ls), int(wc), int(ws), int(lh), tp


def legal_cards(view: View) -> list[int]:
    """The legal card types of the seat to play (R6 and the game's duties)."""
    k = view.rules.kernel
    kk, ls, wc, ws, lh, _ = _trick_state(view, k.beat)
    side = np.zeros(view.rules.table.seats, dtype=np.int64)
    sides_of(k.side_rule, k.sits_out, view.soloist, side)
    lo, _ = _planes(view.own)
    m = int(legal(np.int64(lo), ls, wc, lh, view.trump, k.beat, k.follow, k.trump_duty,
                  k.beat_mode, k.overtrump, relief_of(view.seat, ws, side, k.partner_relief)))
    return [t for t in range(N_TYPES) if (m >> t) & 1]


def world_values(view: View, n_worlds: int, horizon: int, seed: int, progress=None,
                 worlds_out: dict | None = None):
    """Per world, the soloist's card points from here on after each legal card, as PIMC
    computes them (:func:`~analyzer.search.pimc.pimc_worlds`, the world loop of
    :func:`~analyzer.search.pimc.pimc_choose`: the same RNG stream, so the same worlds),
    and per world the discard's card points.  Returns (legal cards, values
    float64[worlds, 24], discard points int64[worlds], exact).

    At a partners' table (V1) the worlds and play-outs are those of
    :func:`~analyzer.search.pimc.pimc_choose_partners` (:func:`_team_world_values`),
    the values again the soloist's side's card points.  ``progress(done, n_worlds)``:
    called as the worlds are valued (three-hand tables; the command line's bar).
    ``worlds_out``: a dict that receives, when given, ``hands`` (int64[worlds, seats, 24]:
    each world's cards per table seat now) and ``disc`` (int64[worlds, 24]: the world's
    discard), what the auction weights read (:mod:`.hint_auction`); no value changes."""
    if _partners(view.rules):
        return _team_world_values(view, n_worlds, horizon, seed, worlds_out)
    flat = get_rules(view.rules.name)
    kr = flat.kernel
    w = np.zeros(W_SIZE, dtype=np.int64)
    init_workspace(w, kr)
    tt = new_table(_TT_BITS)
    set_context(w, view.trump, view.soloist, (1 << _TT_BITS) - 1)
    kk, ls, wc, ws, lh, tp = _trick_state(view, view.rules.kernel.beat)
    own_lo, own_hi = _planes(view.own)
    lg = legal_cards(view)
    r = sum(view.own)
    played = np.array(view.played, dtype=np.int64)
    disc = np.array(view.discard if view.discard is not None else (0,) * N_TYPES, dtype=np.int64)
    absent = np.array(view.absent[:3], dtype=np.int64)
    shown = np.zeros((3, N_TYPES), dtype=np.int64)
    tapp_left = np.array(view.dabb_left, dtype=np.int64)
    vals = np.zeros((n_worlds, N_TYPES), dtype=np.float64)
    d_lo = np.zeros(n_worlds, dtype=np.int64)
    d_hi = np.zeros(n_worlds, dtype=np.int64)
    rows = n_worlds if worlds_out is not None else 0
    w_lo = np.zeros((rows, 3), dtype=np.int64)
    w_hi = np.zeros((rows, 3), dtype=np.int64)
    # the world loop in kernel calls (pimc_choose's, on one RNG stream: the same worlds in
    # one call or in pieces); pieces of _PROGRESS_WORLDS tries only to move a progress bar
    # (still one dispatcher call per world instead of three)
    state = chunk_state(seed, 0)
    legal = np.int64(sum(1 << c for c in lg))
    step = n_worlds if progress is None else _PROGRESS_WORLDS
    n = tried = 0
    while tried < n_worlds:
        if progress is not None and tried:
            progress(tried, n_worlds)
        m = min(step, n_worlds - tried)
        n += pimc_worlds(w, tt, kr.rank_strength, kr, view.seat, view.soloist, view.trump,
                         view.leader, kk, ls, wc, ws, lh, np.int64(tp), np.int64(own_lo),
                         np.int64(own_hi), legal, played, disc, absent, shown, tapp_left, m,
                         horizon, state, vals[n:], d_lo[n:], d_hi[n:], w_lo[n:], w_hi[n:])
        tried += m
    if progress is not None:
        progress(n_worlds, n_worlds)
    cp = np.asarray(view.rules.kernel.card_points, dtype=np.int64)
    if view.discard is not None:
        dpts = np.full(n, int(np.dot(cp, np.array(view.discard, dtype=np.int64))), dtype=np.int64)
    else:
        bits = np.arange(N_TYPES, dtype=np.int64)
        cnt = ((d_lo[:n, None] >> bits) & 1) + ((d_hi[:n, None] >> bits) & 1)
        dpts = (cnt * cp).sum(axis=1).astype(np.int64)
    if worlds_out is not None:
        worlds_out["hands"] = planes_counts(w_lo[:n], w_hi[:n])
        worlds_out["disc"] = planes_counts(d_lo[:n], d_hi[:n])
    return lg, vals[:n], dpts, r <= horizon


def _left_points(view: View) -> int:
    """Card points not yet taken: the cards in the hands, the current trick and the
    discard (a world's discard is subtracted per world), without the last-trick bonus."""
    k = view.rules.kernel
    return (sum(int(k.card_points[t]) * int(k.copies[t]) for t in range(N_TYPES))
            - sum(int(k.card_points[t]) * view.played[t] for t in range(N_TYPES))
            + sum(int(k.card_points[t]) for t in view.trick))


def _team_world_values(view: View, n_worlds: int, horizon: int, seed: int,
                       worlds_out: dict | None = None):
    """:func:`world_values` at a partners' table (V1): pimc_choose_partners's worlds (the
    same seed, the same worlds) and values (:func:`~analyzer.search.pimc.partners_world_row`):
    every world solved exactly once at most ``horizon`` tricks are left (the solver's
    workspace and table reused world after world), else team-policy play-outs.  Values
    are returned for the soloist's side; a Durch (R4, V4.6) only with exact worlds."""
    r = view.rules
    kp = team_kernel(get_rules(r.name))
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kp, beat)
    bm, ot = duty_modes(kp.duty)
    left = sum(view.own)                       # tricks left, the current one included
    exact = 0 < horizon and left <= horizon
    if view.trump < 0 and not exact:
        raise BinokelError(f"hint: a Durch at a partners' table is not valued with {left} "
                           f"tricks left (exact worlds from --horizon {horizon}): the team "
                           "play-outs do not end at the soloist's first lost trick (R4, V4.6)")
    if exact and left * 4 > MAX_KEY_CARDS:
        raise BinokelError(f"hint: --horizon {horizon}: the solver keys at most "
                           f"{MAX_KEY_CARDS} cards ({MAX_KEY_CARDS // 4} tricks at four seats)")
    ls = wc = ws = lh = -1
    seat = view.leader
    for c in view.trick:
        ls, wc, ws, lh = add_card(c, seat, ls, wc, ws, lh, view.trump, beat)
        seat = (seat + 1) % 4
    tp = sum(int(kp.card_points[c]) for c in view.trick)
    lg = legal_cards(view)
    mask = sum(1 << c for c in lg)
    own = np.array(view.own, dtype=np.uint8)
    known = np.array(view.discard if (view.discard is not None and view.seat == view.soloist)
                     else (0,) * N_TYPES, dtype=np.uint8)
    vals = np.zeros((n_worlds, N_TYPES), dtype=np.float64)
    disc = np.zeros(n_worlds, dtype=np.int64)
    dd = world_workspace(r, view.trump, view.soloist, _TT_BITS) if exact else None
    hands = np.zeros((n_worlds if worlds_out is not None else 0, 5, N_TYPES), dtype=np.uint8)
    n = partners_worlds(view.seat, np.int64(mask), len(view.trick), view.leader, ls, wc, ws,
                          lh, np.int64(tp), own, np.array(view.played, dtype=np.uint8),
                          np.array(view.absent[:4], dtype=np.int64), view.trump, view.soloist,
                          known, n_worlds, chunk_state(seed, 0), kp, beat, bm, ot,
                          kp.partner_relief, vals, disc, exact, dd, hands,
                          np.array(view.dabb_left, dtype=np.int64))
    vals, disc = vals[:n], disc[:n]
    if worlds_out is not None:
        worlds_out["hands"] = hands[:n, :4].astype(np.int64)
        worlds_out["disc"] = hands[:n, 4].astype(np.int64)
    side = np.zeros(r.table.seats, dtype=np.int64)
    sides_of(r.kernel.side_rule, r.kernel.sits_out, view.soloist, side)
    sol_side = side[view.seat] == side[view.soloist]
    if not sol_side:     # to the soloist's side: the rest of the points left (R7)
        total = (_left_points(view) + r.points.last_trick - disc).astype(np.float64)
        for c in lg:
            vals[:, c] = total - vals[:, c]
    return lg, vals, disc, exact


def _mean_se(x: np.ndarray, w: np.ndarray | None = None,
             ess: float | None = None) -> tuple[float, float]:
    """Mean and SE of ``x``; with weights ``w`` the weighted mean and its SE at Kish's
    effective n ``ess`` (analyzer.analyses.weighted_stats.weighted_mean)."""
    if w is not None:
        e = weighted_mean(np.asarray(x, dtype=np.float64), w, ess)
        return e.mean, (e.se if ess > 1.0 else float("nan"))
    n = len(x)
    if n == 0:
        return float("nan"), float("nan")
    m = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    return m, se


def default_horizon(rules: RuleSet) -> int:
    """Tricks left from which every world is solved exactly by default: the most at which
    the hands of the seats in play hold at most ``HINT_EXACT_CARDS`` (32) cards -- 10
    tricks at a three-player table (R6: 30 cards), 8 at a partners' table (V1: 32
    cards).  The solver's cost grows with the cards left, not the tricks: at four seats
    10 tricks left cost a hint 17-43 s at p90 (docs/performance.md#hint)."""
    return HINT_EXACT_CARDS // len(in_play_seats(rules))


def resolve_horizon(rules: RuleSet, horizon: int | None) -> int:
    """``horizon``, or the table's :func:`default_horizon` when it is None."""
    return default_horizon(rules) if horizon is None else int(horizon)


def hint(rules: RuleSet, view: View, n_worlds: int = DEFAULT_WORLDS,
         horizon: int | None = DEFAULT_HORIZON, seed: int = 0,
         dd_max_tricks: int = DEFAULT_DD_MAX_TRICKS, progress=None,
         auction_weights: bool | None = None) -> Hint:
    """Value every legal card of the seat to play in ``view`` (module docstring).

    ``rules`` must be the view's game (a RuleSet); ``n_worlds`` PIMC worlds (seeded by
    ``seed``: the same seed, the same worlds); exact solving of each world once at most
    ``horizon`` tricks are left (None: :func:`default_horizon`); double-dummy values when
    every hand is known and at most ``dd_max_tricks`` tricks are left.  ``progress(done, n_worlds)``: as the worlds are
    valued (:func:`world_values`); it changes no number.  ``auction_weights`` (None: on
    when the view holds an auction, :func:`~analyzer.analyses.hint_auction.has_auction`):
    weight each world by the likelihood of the other seats' calls given their hands there
    (R3; :func:`~analyzer.analyses.hint_auction.world_weights`, the model of ``binokel
    advise``): the means are weighted, their SE at Kish's effective n, the best card the
    argmax of the weighted means; worlds of weight 0 (the product underflowed: no
    explanation of the calls) are left out and counted in ``Hint.dropped``.  Off, or with
    no auction, the values are those of uniform worlds, bit for bit.
    """
    if rules.name != view.rules.name:
        raise BinokelError(f"hint: the position is of {view.rules.name}, not {rules.name}")
    supported(rules)
    horizon = resolve_horizon(rules, horizon)
    if not 1 <= n_worlds <= 10_000:
        raise BinokelError(f"hint: worlds must be 1-10,000, got {n_worlds}")
    use_w = has_auction(view) and (auction_weights is None or bool(auction_weights))
    got: dict | None = {} if use_w else None
    lg, vals, dpts, exact = world_values(view, n_worlds, horizon, seed, progress, got)
    if len(vals) == 0:
        raise BinokelError("hint: no world is consistent with this view (R1, R6)")
    wts = None
    ess = None
    dropped = 0
    if use_w:
        wts = world_weights(view, got["hands"], got["disc"])
        keep = np.isfinite(wts) & (wts > 0)
        dropped = int(len(wts) - keep.sum())
        if not keep.any():
            raise BinokelError(f"hint: none of the {len(wts)} worlds explains the auction "
                               "(every weight 0, R3): try --no-auction-weights")
        vals, dpts, wts = vals[keep], dpts[keep], wts[keep]
        ess = effective_sample_size(wts)
    k = rules.kernel
    flat = get_rules(rules.name)
    sol = view.soloist
    side = np.zeros(rules.table.seats, dtype=np.int64)
    sides_of(k.side_rule, k.sits_out, sol, side)
    mine = bool(side[view.seat] == side[sol])      # the soloist or its partner (V1)
    # the defenders' side takes the rest: the points in the hands and the trick now
    left_points = (sum(int(k.card_points[t]) * (rules.deck.copies if rules.deck.in_deck(t) else 0)
                       for t in range(N_TYPES))
                   - sum(int(k.card_points[t]) * view.played[t] for t in range(N_TYPES))
                   + sum(int(k.card_points[t]) for t in view.trick))
    total_left = left_points + rules.points.last_trick - dpts      # per world
    durch = view.trump < 0
    out = []
    samples = {}
    dd = _dd_values(view, dd_max_tricks)
    dd_note = dd[1]
    partners = _partners(rules)
    for c in lg:
        sv = vals[:, c]
        if mine:
            pts = sv
        elif not durch or partners:
            # a partners' Durch (V4.6): the defenders' value is the points the soloist
            # falls short of a made Durch (0: made), what they play for
            pts = total_left - sv
        else:
            pts = np.zeros_like(sv)
        pm, pse = _mean_se(pts, wts, ess)
        sm = sse = None
        if partners:
            sc = _side_scores(view, flat, sv, dpts, total_left)
            if sc is not None:
                sm, sse = _mean_se(sc, wts, ess)
        elif view.bid is not None and view.melds is not None and not durch:
            sc = np.array([_soloist_score(view, flat, float(sv[i]), int(dpts[i]))
                           for i in range(len(sv))], dtype=np.float64)
            sm, sse = _mean_se(sc, wts, ess)
        d = None
        if dd[0] is not None:
            v = dd[0][c]
            d = v if mine else int(left_points + rules.points.last_trick
                                   - sum(int(k.card_points[t]) * (view.discard or _disc_of(view))[t]
                                         for t in range(N_TYPES)) - v)
        out.append(CardValue(c, pm, pse, sm, sse, len(sv), d, ess))
        samples[c] = np.asarray(pts, dtype=np.float64)
    if wts is None:
        means = {c: float(vals[:, c].mean()) for c in lg}
    else:   # the weighted means: PIMC's rule on the auction-weighted worlds
        means = {c: float((wts * vals[:, c]).sum() / wts.sum()) for c in lg}
    best = lg[0]
    if _partners(rules):
        # pimc_choose_partners: the best mean of the seat's own side, ties to the lowest type
        if wts is None:
            own_means = {c: float(samples[c].sum()) / len(samples[c]) for c in lg}
        else:
            own_means = {c: float((wts * samples[c]).sum() / wts.sum()) for c in lg}
        for c in lg:
            if own_means[c] > own_means[best]:
                best = c
    else:
        for c in lg:
            better = means[c] > means[best] if mine else means[c] < means[best]
            if better:
                best = c
    if len(lg) == 1:
        best = lg[0]
    order = sorted(out, key=lambda x: (-(x.points), x.card))
    return Hint(view, tuple(order), best, len(vals), horizon, exact, dd_note, samples, wts, ess,
                dropped)


def _disc_of(view: View):
    """The soloist's discard from the full hands (every hand known): the deck less the
    hands now, the cards played and... only used with every hand known."""
    k = view.rules.kernel
    rest = [int(k.copies[t]) - view.played[t] - sum(h[t] for h in view.hands if h is not None)
            for t in range(N_TYPES)]
    return rest


def _side_scores(view: View, flat, sv: np.ndarray, dpts: np.ndarray, total_left: np.ndarray):
    """Per world, the deal score of the side of the seat to play at a partners' table
    (V1 team scores: V4.6 / V5.7 with a Dabb, V6.6 without; a Durch V4.6 "as V2.7", R4),
    from ``sv`` the soloist's side's card points from here on, ``dpts`` the discard's
    points (the soloist's side's, V4.6), ``total_left`` the points still to take.  None
    where the view lacks what the score needs: the bid, or that side's melds.

    A side that has won no trick yet counts one (a counting trick where the game says
    so, V6.3) when it takes points from here on -- the reading of the three-player hint:
    a trick worth nothing is not seen by the values."""
    if view.bid is None:
        return None
    k = view.rules.kernel
    side = np.zeros(view.rules.table.seats, dtype=np.int64)
    sides_of(k.side_rule, k.sits_out, view.soloist, side)
    su, me = int(side[view.soloist]), int(side[view.seat])
    out = np.zeros(2, dtype=np.int64)
    res = np.empty(len(sv), dtype=np.float64)
    if view.trump < 0:
        for i in range(len(sv)):
            made = bool(sv[i] >= total_left[i])      # every point left: no trick lost (R4)
            score_sides_durch(su, made, int(k.durch_value), int(k.durch_loss_factor), out)
            res[i] = out[me]
        return res
    melds = view.side_melds
    if melds is None:
        return None
    tk = team_kernel(flat)
    past_pts = [0, 0]
    past_won = [0, 0]
    for q in range(view.rules.table.seats):
        past_pts[int(side[q])] += view.past_points[q]
        past_won[int(side[q])] += view.past_won[q]
    past_cnt = list(view.past_counting) if view.past_counting is not None else past_won
    p = np.zeros(2, dtype=np.int64)
    won = np.zeros(2, dtype=np.int64)
    cnt = np.zeros(2, dtype=np.int64)
    m = np.zeros(2, dtype=np.int64)
    m[me] = melds
    for i in range(len(sv)):
        fut = (float(sv[i]), float(total_left[i] - sv[i]))       # (soloist's side, other)
        for u in range(2):
            f = fut[0] if u == su else fut[1]
            p[u] = past_pts[u] + int(round(f)) + (int(dpts[i]) if u == su and view.rules.dabb.size
                                                  else 0)
            won[u] = past_won[u] + (1 if f > 0 else 0)
            cnt[u] = past_cnt[u] + (1 if f > 0 else 0)
        score_sides(su, int(view.bid), m, p, won, cnt, tk, out)
        res[i] = out[me]
    return res


def _soloist_score(view: View, flat, future: float, discard_points: int) -> int:
    """The soloist's R8 score when it takes ``future`` more card points."""
    s = view.soloist
    cp = np.zeros(3, dtype=np.int64)
    tr = np.zeros(3, dtype=np.int64)
    md = np.zeros(3, dtype=np.int64)
    cp[s] = view.past_points[s] + discard_points + int(future)
    tr[s] = view.past_won[s] + (1 if future > 0 else 0)
    md[s] = view.melds
    out = np.zeros(3, dtype=np.int64)
    score_kernel(DEAL_NORMAL, int(view.bid), int(s), cp, tr, md, flat.kernel, out)
    return int(out[s])


def _dd_values(view: View, dd_max_tricks: int):
    """(values per card type or None, note): the soloist's exact card points after each
    legal card with every hand open (``binokel solve``'s move values)."""
    if view.hands is None:
        return None, "not every hand is in the record"
    tricks_left = sum(view.hands[view.leader]) + (1 if view.trick else 0)
    if tricks_left > dd_max_tricks:
        return None, (f"{tricks_left} tricks left: above --dd-max-tricks {dd_max_tricks} "
                      "(a whole deal takes seconds to minutes)")
    hands = [h if h is not None else (0,) * N_TYPES for h in view.hands]
    if sum(map(sum, hands)) > MAX_KEY_CARDS:
        return None, (f"{sum(map(sum, hands))} cards in the hands: the solver keys at most "
                      f"{MAX_KEY_CARDS}")
    mv = card_values(view.rules, hands, None if view.trump < 0 else "CSHD"[view.trump],
                     view.soloist, view.leader, tuple(view.trick))
    return dict(mv), ""


__all__ = ["View", "Hint", "CardValue", "hint", "view_from_record", "legal_cards",
           "world_values", "supported", "role"]
