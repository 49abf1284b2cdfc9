"""Deal records of the deals ``binokel play`` plays (issue 27; the format:
analyzer.mechanics.record, docs/guide/records.md).

:func:`play_record` deals and plays one deal exactly as ``binokel play`` does (the same
seeded functions: :func:`analyzer.mechanics.play.play_deal` for the three-player games,
:func:`analyzer.search.partner_deals.play_partners_deal` for the team games) and returns it as
a :class:`~analyzer.mechanics.record.Deal`.  As in ``play`` with a contract given there is
no auction and no exchange: the soloist's discard is the Dabb as dealt (R4).

:func:`full_record` plays a whole deal as the simulations (``simulate --what deals``) do:
the rule-of-thumb bidders' auction (:func:`threshold_calls`, R3, V1, V2.2, V6.2), the
buyer's exchange (R4), the play and the score, with every call, the discard and the
contract in the record (``binokel play --seed N`` without a contract, ``simulate
--records``).
"""
from __future__ import annotations

import numpy as np

from analyzer.errors import BinokelError
from analyzer.mechanics.cards import SUIT_LETTERS, N_TYPES, Hand
from analyzer.search.partner_deals import play_partners_deal
from analyzer.mechanics.bidding import PASS, validate_auction
from analyzer.mechanics.record import DURCH, OPEN_DURCH, OUT, Deal, counts_of, in_play_seats
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import get_rules
from analyzer.mechanics.ruleset import get_game
from analyzer.mechanics.sampling import deal_rules, new_deck


def _counts(h) -> tuple:
    """24 counts of a Hand or a counts row."""
    return tuple(int(x) for x in getattr(h, "counts", h))


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



# --------------------------------------------------------------------------- whole deals

def threshold_calls(maxb, rules) -> list[tuple[int, int]]:
    """The calls of an auction of threshold bidders (the simulations' bidding model,
    analyzer.mechanics.bidding: a seat raises by the minimum while the next bid is at most
    its maximum ``maxb[seat]``, else passes; a forced opening is said regardless, R3, V5.2),
    stepped through the one validator :func:`~analyzer.mechanics.bidding.validate_auction`
    for the RuleSet's auction form (a chain of duels, R3, V1, V2.2; open bidding, V6.2).
    ``maxb`` per seat in play (calling order).  Returns ``(seat in play, call)`` pairs; the
    same soloist and bid as the simulations' kernels (run_auction, continue_duels,
    threshold_open_auction: tested)."""
    a = rules.auction
    calls: list[int] = []
    st = validate_auction(calls, rules)
    while not st.finished:
        nxt = st.next_bid
        if a.forced_opening and not calls and a.form != "open":
            calls.append(a.opening)               # R3: forehand must open
        else:
            calls.append(nxt if nxt <= int(maxb[st.to_move]) else PASS)
        st = validate_auction(calls, rules)
    return list(st.calls)


def _deal_of(calls, seats_in_play, g, **kw) -> Deal:
    """The Deal with its auction in table seats (``calls``: seat in play, call)."""
    return Deal(rules=g, seats=g.table.seat_names,
                auction=tuple((seats_in_play[q], c) for q, c in calls), **kw)


def full_record(game, seed: int = 0, policy: str = "heuristic", source: str = "") -> Deal:
    """One whole simulated deal of ``game`` (a name or RuleSet with an auction) as the
    simulations play it (``binokel simulate --what deals``; issue 27), as a record.

    The deal is ``binokel play --seed SEED``'s (``chunk_state(seed, 0)``); each seat's
    maximum bid is the simulations' rule of thumb (three seats: ``rule_of_thumb_max_bid``
    with DEFAULT_TRICK_ESTIMATE; a chain of duels of partners: ``rule_value_by_model`` with
    DEFAULT_DABB_ESTIMATE; open bidding: ``rule_maxima_by_tricks``, which also names the
    trump, V6.2); the calls are those of :func:`threshold_calls` (R3, V1, V2.2, V6.2).  The
    buyer exchanges as the simulations' soloist does: three seats ``fast_exchange`` (R4:
    the discard, trump, going out, Durch or open Durch, V2.7), partners with a Dabb
    ``soloist_choice`` + ``contract_for_bid`` (V4.2-V4.6, V5.3-V5.7); then the cards are
    played by ``policy`` (``heuristic``, ``random``; three seats also the older heuristics)
    from ``chunk_state(seed, 1)``, and scored (R7, R8; R4 going out and Durch).  A deal
    every seat passed is thrown in: the auction and a score of 0 for every unit, nothing
    played (V2.2, V6.2).  Raises BinokelError for a game without an auction (V7) or an
    unknown policy.  The score equals the simulation kernel's (search.deals.finish_deal,
    partner_deals.rule_deal_duels / rule_deal_open) on the same deal and play stream.
    """
    g = get_game(game)
    if g.stock.size:
        raise BinokelError(f"{g.name} has no auction: trump is turned up (V7.1)")
    flat = get_rules(g.name)
    if g.table.sides == "partners":
        return _full_partners(g, flat, seed, policy, source)
    return _full_solo(g, flat, seed, policy, source)


def _full_solo(g, flat, seed, policy, source) -> Deal:
    from analyzer.mechanics.bidding import DEFAULT_TRICK_ESTIMATE, rule_of_thumb_max_bid
    from analyzer.mechanics.exchange import (CONTRACT_DURCH, CONTRACT_OPEN_DURCH,
                                             CONTRACT_SURRENDER, fast_exchange)
    from analyzer.mechanics.game import counts_to_planes
    from analyzer.mechanics.melds import discard_dissle, meld_total
    from analyzer.mechanics.play import (LOG_CARD0, LOG_COLS, LOG_LEADER, POLICY_NAMES,
                                         older_args, play_out_logged)
    from analyzer.mechanics.scoring import score_deal

    if policy not in POLICY_NAMES:
        raise BinokelError(f"unknown policy {policy!r}: use {', '.join(POLICY_NAMES)}")
    kr = flat.kernel
    seats = in_play_seats(g)
    out = np.zeros(4, dtype=np.int64)
    deal_rules(chunk_state(seed, 0), new_deck(flat), kr, out)
    hands = np.array([Hand.from_mask(int(m)).counts for m in out[:3]], dtype=np.uint8)
    tapp = np.array(Hand.from_mask(int(out[3])).counts, dtype=np.uint8)
    maxb = np.array([rule_of_thumb_max_bid(np.int64(m), kr, DEFAULT_TRICK_ESTIMATE)
                     for m in out[:3]], dtype=np.int64)
    calls = threshold_calls(maxb, g)
    st = validate_auction([c for _, c in calls], g)
    tab = [None] * g.table.seats
    for i, s in enumerate(seats):
        tab[s] = _counts(hands[i])
    base = dict(hands=tuple(tab), dabb=_counts(tapp), source=source)
    if st.soloist is None:                       # V2.2: all passed, thrown in, 0 each
        return _deal_of(calls, seats, g, score=(0,) * len(seats), **base)
    sol, bid = st.soloist, st.standing
    c18 = (hands[sol] + tapp).astype(np.uint8)
    disc = np.zeros(kr.tapp_size, dtype=np.int64)
    trump, contract = (int(x) for x in fast_exchange(c18, bid, kr, disc))
    work = hands.copy()
    work[sol] = c18
    for t in disc:
        work[sol, t] -= 1
    discard = counts_of(disc)
    dp = sum(int(kr.card_points[t]) for t in disc)
    base.update(soloist=seats[sol], bid=bid, discard=discard)
    if contract in (CONTRACT_DURCH, CONTRACT_OPEN_DURCH):
        trump = -1
    melds = None
    if trump >= 0:
        melds = [int(meld_total(counts_to_planes(work[p]), trump, kr)) for p in range(3)]
        melds[sol] += int(discard_dissle(disc, disc.shape[0], trump, kr))    # V2.3
    if contract == CONTRACT_SURRENDER:         # R4: going out, no card is played
        sc = score_deal(sol, bid, (0, 0, 0), (0, 0, 0), melds, discard_points=dp,
                        kind="surrender", rules=flat)
        return _deal_of(calls, seats, g, contract=OUT, melds=tuple(melds),
                        score=tuple(sc.scores), **base)
    pol = np.full(3, POLICY_NAMES[policy], dtype=np.int64)
    log = np.zeros((flat.hand_size, LOG_COLS), dtype=np.int64)
    pts = np.zeros(3, dtype=np.int64)
    won = np.zeros(3, dtype=np.int64)
    leader = sol if trump < 0 else 0           # R4: the soloist leads a Durch; else R6
    n = play_out_logged(work, trump, leader, sol, pol, chunk_state(seed, 1), kr, pts, won,
                        log, np.zeros(0, dtype=np.int64), 0, *older_args(pol))
    tricks = tuple((int(r[LOG_LEADER]), tuple(int(c) for c in r[LOG_CARD0:LOG_CARD0 + 3]))
                   for r in log[:n])
    kind = {CONTRACT_DURCH: "durch", CONTRACT_OPEN_DURCH: "open_durch"}.get(contract, "normal")
    sc = score_deal(sol, bid, tuple(int(x) for x in pts), tuple(int(x) for x in won),
                    melds if melds is not None else (0, 0, 0), discard_points=dp, kind=kind,
                    rules=flat)
    points = [int(x) for x in pts]
    points[sol] += dp                           # R4, R7: the discard counts for the soloist
    word = {"durch": DURCH, "open_durch": OPEN_DURCH}.get(kind) or SUIT_LETTERS[trump]
    return _deal_of(calls, seats, g, contract=word,
                    melds=None if melds is None else tuple(melds), tricks=tricks,
                    points=tuple(points), won=tuple(int(x) for x in won),
                    score=tuple(sc.scores), **base)


def _full_partners(g, flat, seed, policy, source) -> Deal:
    from analyzer.mechanics.bidding import (DEFAULT_DABB_ESTIMATE, DEFAULT_PARTNER_ALLOWANCE,
                                            DEFAULT_TRICK_VALUE, max_bid_of_value)
    from analyzer.mechanics.exchange import (CONTRACT_DURCH, CONTRACT_OPEN_DURCH,
                                             CONTRACT_SURRENDER, durch_contract_value,
                                             soloist_choice)
    from analyzer.mechanics.game import contract_for_bid, rule_maxima_by_tricks, rule_value_by_model
    from analyzer.mechanics.melds import side_melds, side_melds_counts
    from analyzer.mechanics.play import POLICY_HEURISTIC, POLICY_RANDOM
    from analyzer.mechanics.playout import L_CARD0, L_COLS, L_LEADER, play_durch_partners_logged
    from analyzer.mechanics.rules import team_spec
    from analyzer.mechanics.sampling import deal_counts
    from analyzer.mechanics.scoring import score_sides, score_sides_durch, score_sides_going_out
    from analyzer.search.pimc import play_deal_partners_logged

    pols = {"heuristic": POLICY_HEURISTIC, "random": POLICY_RANDOM}
    if policy not in pols:
        raise BinokelError(f"unknown policy {policy!r}: use heuristic or random")
    spec = team_spec(flat)
    tk, kr = spec.tk, spec.kr
    hands = np.zeros((5, N_TYPES), dtype=np.uint8)
    deal_counts(chunk_state(seed, 0), spec.deck.copy(), hands, spec.hand_size)
    has_dabb = g.dabb.size > 0
    maxb = np.zeros(4, dtype=np.int64)
    trumps = np.zeros(4, dtype=np.int64)
    if g.auction.form == "open":               # V6.2: the bidder names its rule's trump
        rule_maxima_by_tricks(hands[:4], tk, DEFAULT_TRICK_VALUE, DEFAULT_PARTNER_ALLOWANCE,
                              maxb, trumps)
    else:                                      # V1: a chain of duels, the Dabb allowance
        tmp = np.zeros(4, dtype=np.int64)
        for p in range(4):
            maxb[p] = max_bid_of_value(rule_value_by_model(hands[p], kr, DEFAULT_DABB_ESTIMATE,
                                                           tmp), tk.min_bid, tk.bid_step)
    calls = threshold_calls(maxb, g)
    st = validate_auction([c for _, c in calls], g)
    seats = tuple(range(4))
    base = dict(hands=tuple(_counts(hands[p]) for p in range(4)),
                dabb=_counts(hands[4]) if has_dabb else None, source=source)
    if st.soloist is None:                      # V2.2, V6.2: thrown in, 0 for both teams
        return _deal_of(calls, seats, g, score=(0, 0), **base)
    sol, bid = st.soloist, st.standing
    team = sol % 2
    cnt = hands[:4].copy()
    discard = np.zeros(N_TYPES, dtype=np.uint8)
    m = np.zeros(2, dtype=np.int64)
    out = np.zeros(2, dtype=np.int64)
    log = np.zeros((spec.hand_size, L_COLS), dtype=np.int64)
    base.update(soloist=sol, bid=bid)
    contract = -1
    if has_dabb:
        kept = np.zeros(N_TYPES, dtype=np.uint8)
        ddisc = np.zeros(N_TYPES, dtype=np.uint8)
        trump, est, losers = soloist_choice(hands, sol, tk, kr, kept, discard, ddisc)
        trump = int(trump)
        contract = int(contract_for_bid(est, losers, bid, kr))
        if contract in (CONTRACT_DURCH, CONTRACT_OPEN_DURCH):   # V4.6: the soloist leads
            cnt[sol] = hands[sol] + hands[4] - ddisc
            won = int(play_durch_partners_logged(cnt, sol, tk, ddisc, log))
            made = won == spec.hand_size        # R4: every trick, else it ends at the first lost
            n = min(won + 1, spec.hand_size)
            score_sides_durch(team, made, durch_contract_value(contract, kr),
                              kr.durch_loss_factor, out)
            return _deal_of(calls, seats, g, discard=_counts(ddisc),
                            contract=DURCH if contract == CONTRACT_DURCH else OPEN_DURCH,
                            tricks=_partner_tricks(log, n, L_LEADER, L_CARD0),
                            won=_team_won(log, n), score=(int(out[0]), int(out[1])), **base)
        cnt[sol] = kept
        side_melds(cnt, trump, discard, sol, tk, kr, m)
        base["discard"] = _counts(discard)
        if contract == CONTRACT_SURRENDER:      # V4.3, V5.4: no meld for the soloist's team
            m[team] = 0
            score_sides_going_out(team, bid, m[1 - team], tk.going_out_bonus, out)
            return _deal_of(calls, seats, g, contract=OUT, melds=(int(m[0]), int(m[1])),
                            score=(int(out[0]), int(out[1])), **base)
    else:
        trump = int(trumps[sol])
        side_melds_counts(cnt, trump, tk, m)
    leader = sol if tk.bidder_leads != 0 else 0    # V6.2: the high bidder leads; else V4.5
    pts = np.zeros(2, dtype=np.int64)
    counting = np.zeros(2, dtype=np.int64)
    tricks = np.zeros(2, dtype=np.int64)
    pol = np.full(4, pols[policy], dtype=np.int64)
    n = int(play_deal_partners_logged(cnt, trump, leader, sol, pol, chunk_state(seed, 1), tk,
                                      discard, pts, counting, tricks, log,
                                      np.zeros(0, dtype=np.int64), 0))
    pts[team] += int((discard.astype(np.int64) * tk.card_points).sum())   # V4.2
    score_sides(team, bid, m, pts, tricks, counting, tk, out)
    return _deal_of(calls, seats, g, contract=SUIT_LETTERS[trump], melds=(int(m[0]), int(m[1])),
                    tricks=_partner_tricks(log, n, L_LEADER, L_CARD0),
                    points=(int(pts[0]), int(pts[1])), won=(int(tricks[0]), int(tricks[1])),
                    score=(int(out[0]), int(out[1])), **base)


def _partner_tricks(log, n, lead_col, card0):
    return tuple((int(log[k, lead_col]), tuple(int(c) for c in log[k, card0:card0 + 4]))
                 for k in range(n))


def _trick_winners(log, n):
    from analyzer.mechanics.playout import L_WINNER

    return [int(log[k, L_WINNER]) for k in range(n)]


def _team_won(log, n):
    won = [0, 0]
    for w in _trick_winners(log, n):
        won[w % 2] += 1
    return tuple(won)
