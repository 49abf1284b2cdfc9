"""Scoring of a Pinochle deal and the game end (V6.3 last bullet, V6.6).

Teams: 0 = seats 0 + 2, 1 = seats 1 + 3.  A team's melds are its two players' melds
(each hand melds on its own, V6.3) and count only when the team won a trick holding a
counter (V6.3).  The bidding team scores melds + counters when that reaches the bid,
else -bid; the other team always scores its (counted) melds + counters (V6.6).  A deal
all four passed is thrown in: 0 for both.  Game to 3550: the bidding team's result is
counted first, so when both teams reach the target after a deal, the bidding team wins.
"""
from __future__ import annotations

from dataclasses import dataclass

from analyzer._jit import njit
from analyzer.mechanics.team_rules import PINOCHLE_RULES, TeamRuleSet


@njit(_nrt=False)
def score80(bid_team, bid, melds, points, counting, needs_counter, out):
    """Deal scores per team into ``out`` int64[2] (V6.6).

    ``melds`` int64[2] team melds, ``points`` int64[2] counters won (incl. last trick),
    ``counting`` int64[2] tricks holding a counter won; ``bid_team`` -1 = thrown in.
    """
    for team in range(2):
        if bid_team < 0:
            out[team] = 0
            continue
        m = melds[team]
        if needs_counter != 0 and counting[team] == 0:
            m = 0
        tot = m + points[team]
        if team == bid_team and tot < bid:
            out[team] = -bid
        else:
            out[team] = tot


@dataclass(frozen=True)
class TeamDealScore:
    """A scored deal: per team the counted melds, counters and the deal score (V6.6)."""

    bid_team: int
    bid: int
    melds_counted: tuple[int, int]
    counters: tuple[int, int]
    scores: tuple[int, int]
    made: bool


def score_team_deal(bid_team: int, bid: int, melds, counters, counting,
                    rules: TeamRuleSet = PINOCHLE_RULES) -> TeamDealScore:
    """Python API of :func:`score80` with the breakdown."""
    import numpy as np

    out = np.zeros(2, dtype=np.int64)
    score80(int(bid_team), int(bid), np.asarray(melds, dtype=np.int64),
            np.asarray(counters, dtype=np.int64), np.asarray(counting, dtype=np.int64),
            int(rules.meld_needs_counter_trick), out)
    mc = tuple(int(melds[t]) if (counting[t] > 0 or not rules.meld_needs_counter_trick) else 0
               for t in range(2))
    made = bid_team >= 0 and out[bid_team] >= 0 and mc[bid_team] + int(counters[bid_team]) >= bid
    return TeamDealScore(int(bid_team), int(bid), mc, (int(counters[0]), int(counters[1])),
                         (int(out[0]), int(out[1])), bool(made))


def team_game_winner(totals, bid_team: int, target: int = PINOCHLE_RULES.target_score) -> int:
    """Winner after a completed deal (V6.6): the bidding team first, then the other;
    -1 while neither has reached ``target``."""
    if bid_team >= 0 and totals[bid_team] >= target:
        return bid_team
    for team in range(2):
        if totals[team] >= target:
            return team
    return -1


# --------------------------------------------------------------------------- Binokel teams

@njit(_nrt=False)
def round_points(points, r):
    """Card points rounded to the nearest ``r``, 5 up (V1); unchanged for r = 0."""
    if r <= 0:
        return points
    return (points + r // 2) // r * r


@njit(_nrt=False)
def score_kreuz(sol_team, bid, melds, points, tricks, round_to, loss_factor, out):
    """Deal scores of a Binokel team game into ``out`` int64[2] (V4.6, V5.7, V1).

    ``points`` int64[2]: card points per team, the discard already in the soloist
    team's; they are rounded per team (V1).  ``melds`` int64[2]: both partners' melds;
    they count only with a team trick (``tricks`` int64[2]).  The soloist team scores
    +total if total >= bid (and it won a trick), else -loss_factor x bid; the other team
    its total with a trick, else 0.  ``sol_team`` -1: thrown in, 0 : 0.
    """
    for team in range(2):
        if sol_team < 0:
            out[team] = 0
            continue
        tot = round_points(points[team], round_to)
        if tricks[team] > 0:
            tot += melds[team]
        if team == sol_team:
            out[team] = tot if (tricks[team] > 0 and tot >= bid) else -loss_factor * bid
        else:
            out[team] = tot if tricks[team] > 0 else 0


@njit(_nrt=False)
def score_going_out(sol_team, bid, other_melds, bonus, out):
    """Going out (V4.3, V5.4): the soloist's team -bid; the other team its melds (both
    partners', with the named trump) + one ``bonus``; no trick needed, nothing played."""
    out[sol_team] = -bid
    out[1 - sol_team] = other_melds + bonus


@njit(_nrt=False)
def score_team_durch(sol_team, made, value, loss_factor, out):
    """A Durch of a Binokel team game (V4.6 "Durch as V2.7", R4): the soloist's team
    +``value`` when the soloist won every trick (``made``), else -``loss_factor`` x
    ``value`` (V2.7: -2 x); the other team 0; no melds for anyone; the bid plays no part."""
    out[sol_team] = value if made else -loss_factor * value
    out[1 - sol_team] = 0
