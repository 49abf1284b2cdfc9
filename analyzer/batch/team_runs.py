"""Played deals of the team games in chunks (``binokel simulate --rules kreuz-48 --what deals``).

The team game's counterpart of :func:`analyzer.batch.runs.deal_chunk`, run by the same
engine (analyzer.batch.runs: chunks seeded by ``rng.chunk_state(seed, i)``, FORMAT 2
Parquet parts, manifest, resume, joblib / Dask).  Every deal is dealt (V4.1 11 + 4,
V5.1 9 + 4, V6.1 20 + 0), bid by four rule-of-thumb bidders, exchanged, played by the
team policy at every seat and scored, by the team game's own whole-deal kernels
(analyzer.mechanics.team_game.kreuz_rule_deal: V1's chain of duels, the exchange and the
contract choice V4.2-V4.6 / V5.3-V5.7; rule_deal80: the V6.2 auction, V6.3-V6.6).

:func:`team_deal_chunk` writes one row per deal (the team game's result row, ``RES_COLS``
columns: scores, melds, card points and tricks per team, bidder seat, bid, trump,
contract); :func:`team_deal_rows` turns a chunk's rows into the aggregates of a part (one
unit per deal, so ``sq`` = ``count`` for histograms).  Seats 0 + 2 are team 0, 1 + 3
team 1 (V1); seat 0 is forehand.  The metrics:

- ``team.contract``: 0 played with trump, 1 going out (V4.3, V5.4), 2 Durch, 3 open Durch
  (V4.6), 4 thrown in (nobody bid: V6.2 all pass; V4.2 after V2.2 in kreuz-48);
- ``team.bidder`` (seat 0..3), ``team.bidding_team`` (0 / 1), ``team.trump`` (suit index,
  trump contracts and going out);
- ``team.bid.win`` (bin = winning bid); ``team.by_bid.<kind>`` (bin = bid) for kind
  ``made``, ``failed``, ``out``, ``durch_won``, ``durch_lost``; a played contract is made
  when the bidding team scores more than 0 (V4.6 / V5.7: total >= bid with a trick; V6.6:
  melds + counters >= bid with a counting trick);
- played trump contracts only: ``team.melds.bidding`` / ``team.melds.other`` /
  ``team.melds.team.<k>`` (the partners' melds with the named trump, V4.4 / V6.3, before
  the trick condition), ``team.points.bidding`` / ``team.points.other`` (card points, the
  discard counted for the soloist's team, V4.2; counters in Pinochle, V6.5),
  ``team.tricks.bidding`` (tricks won, V4.6; counting tricks in Pinochle, V6.3);
- ``team.score.bidding`` / ``team.score.other`` (every deal that was bid) and
  ``team.score.team.<k>`` (every deal, 0 when thrown in): the deal's score per team;
- ``sum.team.score.bidding.by_bid``, ``sum.team.score.other.by_bid`` (count = sum,
  sq = sum of squares of the score, bin = bid) and ``sum.team.melds.bidding.by_bid``
  (played contracts).

Decisions see only what the deciding player knows (bidders their own hand, the soloist
its hand and the Dabb, the partners' heuristic its hand and the cards played: team_game and
play.heuristic_partners say how, and their tests replace the hidden cards).
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.exchange import (CONTRACT_DURCH, CONTRACT_OPEN_DURCH,
                                         CONTRACT_SURRENDER)
from analyzer.mechanics.play import POLICY_HEURISTIC, beat_table
from analyzer.mechanics.team_bidding import (DEFAULT_PARTNER_ALLOWANCE,
                                             DEFAULT_TEAM_TRICK_ESTIMATE, DEFAULT_TRICK_VALUE)
from analyzer.mechanics.team_game import (RES_COLS, R_BID, R_BIDDER, R_CONTRACT, R_COUNTING,
                                          R_MELD, R_POINTS, R_SCORE, R_TRUMP, kreuz_rule_deal,
                                          rule_deal80)
from analyzer.mechanics.sampling import deal_counts
from analyzer.mechanics.rules import team_spec

#: team.contract bins: exchange.CONTRACT_* (0 play, 1 going out, 2 Durch, 3 open Durch), 4 thrown in
CONTRACT_THROWN_IN = 4
CONTRACT_NAMES = ("played with trump", "going out (V4.3, V5.4)", "Durch (V4.6)",
                  "open Durch (V4.6)", "thrown in (nobody bid)")
#: team.by_bid kinds
TEAM_BY_BID_KINDS = ("made", "failed", "out", "durch_won", "durch_lost")


@njit
def team_deal_chunk(state, n_deals, deck, tk, kr, open_auction, estimate, trick_value,
                    allowance, out):
    """Deal, bid, exchange, play and score ``n_deals`` random deals of a team game.

    Parameters
    ----------
    state : uint64[4]
        The chunk's RNG state (dealing and the team policy's random choices).
    deck : uint8[n]
        The game's deck as card types (rules.TeamSpec.deck; shuffled in place).
    tk, kr : TeamKernel, KernelRules
        The game's compiled rules (rules.team_spec).
    open_auction : bool
        True: the V6.2 auction with :func:`team_game.rule_deal80`; False: V1's chain of
        duels with the Dabb, :func:`team_game.kreuz_rule_deal`.
    estimate : int
        The kreuz rule bidders' Dabb allowance (team_bidding.DEFAULT_TEAM_TRICK_ESTIMATE).
    trick_value, allowance : int
        The Pinochle rule bidders' points per expected trick and partner allowance
        (team_bidding.DEFAULT_TRICK_VALUE, DEFAULT_PARTNER_ALLOWANCE).
    out : int64[n_deals, RES_COLS]
        One result row per deal (team_game's columns; bidder -1 = thrown in).
    """
    hands = np.zeros((5, N_TYPES), dtype=np.uint8)
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(tk, beat)
    pol = np.full(4, POLICY_HEURISTIC, dtype=np.int64)
    res = np.zeros(RES_COLS, dtype=np.int64)
    for i in range(n_deals):
        deal_counts(state, deck, hands, tk.hand_size)
        if open_auction:
            rule_deal80(hands[:4], trick_value, allowance, pol, state, tk, beat, cnt, res)
        else:
            kreuz_rule_deal(hands, estimate, pol, state, tk, kr, beat, cnt, res)
        for c in range(RES_COLS):
            out[i, c] = res[c]


def team_deal_policy(rules) -> dict:
    """The rule policies a team ``deals`` run uses (recorded in its manifest)."""
    spec = team_spec(rules)
    if spec.open_auction:
        return {"bidding": "rule_of_thumb80 (meld + points per expected trick)",
                "trick_value": DEFAULT_TRICK_VALUE, "partner_allowance": DEFAULT_PARTNER_ALLOWANCE,
                "auction": "V6.2 threshold auction", "play": "team heuristic"}
    return {"bidding": "kreuz_rule_value (meld + team model + Dabb allowance)",
            "trick_estimate": DEFAULT_TEAM_TRICK_ESTIMATE, "auction": "V1 chain of duels",
            "exchange": "kreuz_exchange + contract_for_bid", "play": "team heuristic"}


def team_deal_table(state, n_deals: int, rules) -> np.ndarray:
    """The result rows (int64[n_deals, RES_COLS]) of ``n_deals`` deals from ``state``."""
    spec = team_spec(rules)
    out = np.zeros((n_deals, RES_COLS), dtype=np.int64)
    team_deal_chunk(state, n_deals, spec.deck.copy(), spec.tk, spec.kr, spec.open_auction,
                    DEFAULT_TEAM_TRICK_ESTIMATE, DEFAULT_TRICK_VALUE, DEFAULT_PARTNER_ALLOWANCE,
                    out)
    return out


def _hist(name: str, values: np.ndarray, rows: list) -> None:
    """One histogram metric (one unit per deal: sq = count)."""
    if values.size == 0:
        return
    bins, counts = np.unique(values, return_counts=True)
    rows.extend((name, int(b), int(c), int(c)) for b, c in zip(bins, counts))


def _sums_by(name: str, keys: np.ndarray, values: np.ndarray, rows: list) -> None:
    """Sum and sum of squares of ``values`` per key (bin = key): a ``sum.*`` metric."""
    if keys.size == 0:
        return
    ks, inv = np.unique(keys, return_inverse=True)
    v = values.astype(np.int64)
    s1 = np.zeros(ks.size, dtype=np.int64)
    np.add.at(s1, inv, v)
    s2 = np.zeros(ks.size, dtype=np.int64)
    np.add.at(s2, inv, v * v)
    rows.extend((name, int(k), int(a), int(b)) for k, a, b in zip(ks, s1, s2))


def aggregate_team_rows(res: np.ndarray) -> list:
    """The part rows ``(metric, bin, count, sq)`` of a chunk's result rows (module doc)."""
    rows: list = []
    bidder = res[:, R_BIDDER]
    bid_deal = bidder >= 0
    contract = np.where(bid_deal, res[:, R_CONTRACT], CONTRACT_THROWN_IN)
    _hist("team.contract", contract, rows)
    r = res[bid_deal]
    sol = r[:, R_BIDDER]
    bt = sol % 2
    idx = np.arange(r.shape[0])
    score_b = r[idx, R_SCORE + bt]
    score_o = r[idx, R_SCORE + 1 - bt]
    bid = r[:, R_BID]
    con = r[:, R_CONTRACT]
    _hist("team.bidder", sol, rows)
    _hist("team.bidding_team", bt, rows)
    _hist("team.trump", r[con <= CONTRACT_SURRENDER, R_TRUMP], rows)
    _hist("team.bid.win", bid, rows)
    play = con == 0
    durch = (con == CONTRACT_DURCH) | (con == CONTRACT_OPEN_DURCH)
    kinds = {"made": play & (score_b > 0), "failed": play & (score_b <= 0),
             "out": con == CONTRACT_SURRENDER, "durch_won": durch & (score_b > 0),
             "durch_lost": durch & (score_b <= 0)}
    for k in TEAM_BY_BID_KINDS:
        _hist(f"team.by_bid.{k}", bid[kinds[k]], rows)
    p = r[play]
    pb = bt[play]
    ip = np.arange(p.shape[0])
    _hist("team.melds.bidding", p[ip, R_MELD + pb], rows)
    _hist("team.melds.other", p[ip, R_MELD + 1 - pb], rows)
    for k in range(2):
        _hist(f"team.melds.team.{k}", p[:, R_MELD + k], rows)
    _hist("team.points.bidding", p[ip, R_POINTS + pb], rows)
    _hist("team.points.other", p[ip, R_POINTS + 1 - pb], rows)
    _hist("team.tricks.bidding", p[ip, R_COUNTING + pb], rows)
    _hist("team.score.bidding", score_b, rows)
    _hist("team.score.other", score_o, rows)
    for k in range(2):
        _hist(f"team.score.team.{k}", res[:, R_SCORE + k], rows)
    _sums_by("sum.team.score.bidding.by_bid", bid, score_b, rows)
    _sums_by("sum.team.score.other.by_bid", bid, score_o, rows)
    _sums_by("sum.team.melds.bidding.by_bid", p[:, R_BID], p[ip, R_MELD + pb], rows)
    return rows


def team_deal_rows(state, n_deals: int, rules) -> list:
    """A team ``deals`` chunk: play ``n_deals`` deals and aggregate them (a part's rows)."""
    return aggregate_team_rows(team_deal_table(state, n_deals, rules))
