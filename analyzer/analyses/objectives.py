"""What the bid advisors maximise (R8, R9) and the bid rule that follows from it.

The objective per sampled deal is ``own score - mean of the two opponents' scores``
("relative", the default: the game is a race), ``own score`` ("own"), or with game scores
the estimated probability of winning the game after the deal ("win", R9; the race model
:func:`race_probability`, shared with the partners' table:
:func:`side_win_probability`).  :func:`recommended_max_bid`
turns the paired objectives of the soloist and pass branches into the advised maximum.
"""
from __future__ import annotations

import numpy as np

from analyzer.mechanics.rules import RuleSet

OBJECTIVES = ("relative", "own", "win")


def win_probability(totals: np.ndarray, soloist: np.ndarray, player: int,
                    target: int) -> np.ndarray:
    """Estimated P(``player`` wins the game) after a deal, per sample (R9).

    ``totals``: float[n, 3] game scores after the deal; ``soloist``: int[n] (-1 = none).
    If the deal ended the game (R9) the value is 1 or 0.  Otherwise a race model:
    ``P(i wins) = softmax(totals_i / tau)`` with ``tau = 150 * sqrt(deals_left)`` and
    ``deals_left = max(1, (target - leader) / 150)`` (150 points: a typical deal's swing),
    so a lead counts for more the closer the leader is to the target.
    """
    totals = np.asarray(totals, dtype=np.float64)
    n = totals.shape[0]
    reached = totals >= target
    idx = np.arange(n)
    sol = np.asarray(soloist, dtype=np.int64)
    sol_reached = (sol >= 0) & reached[idx, np.clip(sol, 0, 2)]
    opp = reached.copy()
    opp[idx[sol >= 0], sol[sol >= 0]] = False
    n_opp = opp.sum(axis=1)
    masked = np.where(opp, totals, -np.inf)
    best = masked.argmax(axis=1)
    top = masked.max(axis=1)
    tie = (n_opp >= 2) & ((masked == top[:, None]).sum(axis=1) >= 2)
    winner = np.full(n, -1, dtype=np.int64)
    winner[n_opp >= 1] = best[n_opp >= 1]
    winner[tie] = -1
    winner[sol_reached] = sol[sol_reached]
    race = race_probability(totals, player, target, RACE_SWING)
    return np.where(winner >= 0, (winner == player).astype(np.float64), race)


#: A typical deal's swing in the 1500-point three-player game (the race model's scale).
RACE_SWING = 150.0


def race_probability(totals: np.ndarray, player: int, target: int, swing: float) -> np.ndarray:
    """The race model of an unfinished game: P(``player`` wins) per row of ``totals``
    (float[n, k], each side's game total) = ``softmax(totals / tau)[player]`` with
    ``tau = swing * sqrt(deals_left)``, ``deals_left = max(1, (target - leader) / swing)``:
    a lead counts for more the closer the leader is to the target.  Shared by the
    three-player objective (:func:`win_probability`) and the team games'
    :func:`side_win_probability`."""
    leader = totals.max(axis=1)
    deals_left = np.maximum(1.0, (target - leader) / swing)
    tau = swing * np.sqrt(deals_left)
    z = totals / tau[:, None]
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e[:, player] / e.sum(axis=1)


def objective_values(scores: np.ndarray, seat: int, objective: str, game_scores, soloist, target):
    """Per-sample objective from deal scores by seat (float[n, 3])."""
    own = scores[:, seat].astype(np.float64)
    if objective == "own":
        return own
    if objective == "relative":
        others = scores.sum(axis=1) - scores[:, seat]
        return own - others / 2.0
    totals = scores.astype(np.float64) + np.asarray(game_scores, dtype=np.float64)[None, :]
    return win_probability(totals, soloist, seat, target)


def recommended_max_bid(res: dict, seat: int, objective: str, scores, rules: RuleSet):
    """The last bid, counting up from the next legal one, whose weighted mean objective
    as soloist beats passing's (paired over the same samples), stopping at the first bid
    that is worse; exact ties neither stop nor extend it.  None = pass."""
    w = res["weight"]
    n, K = res["sol_made"].shape
    target = rules.target_score
    pass_obj = objective_values(res["pass_scores"], seat, objective, scores, res["pass_soloist"], target)
    sol = np.full(n, seat)
    best = None
    sw = w.sum()
    for k in range(K):
        obj = objective_values(res["sol_scores"][:, k, :], seat, objective, scores, sol, target)
        d = float((w * (obj - pass_obj)).sum()) / sw
        if d < 0:
            break
        if d > 0:
            # an exact tie (e.g. P(win game) 0 either way) is no reason to bid on: it
            # neither stops the count nor extends the recommendation
            best = int(res["bids"][k])
    return best


#: Score-aware objective: a typical deal's swing, as a share of the game's target (the
#: three-player game's 150 of 1500, :func:`win_probability`).
SWING_SHARE = 0.1


def side_win_probability(own, other, bidder, target: int) -> np.ndarray:
    """Estimated P(this side wins the game) from the game totals after a deal, at a table
    of two sides of partners (V1).

    ``own`` / ``other``: the two teams' totals after the deal (arrays); ``bidder``: who
    bid in that deal (1 this team, 0 the other, -1 thrown in).  If the deal ended the
    game the value is 1 or 0: the bidding team wins if it reached ``target`` (V6.6, and
    the same reading of R9 for the Binokel team games, V4.6), else a team that reached
    it; both with nobody bidding counts 1/2.  Otherwise the three-player game's race
    model with two sides (:func:`race_probability`, swing
    ``SWING_SHARE * target``), so a lead counts for more the closer the leader is to the
    target.
    """
    own = np.asarray(own, dtype=np.float64)
    other = np.asarray(other, dtype=np.float64)
    own, other = np.broadcast_arrays(own, other)
    shape = own.shape
    bidder = np.broadcast_to(np.asarray(bidder), shape)
    totals = np.stack([own.ravel(), other.ravel()], axis=1)
    p = race_probability(totals, 0, target, SWING_SHARE * float(target)).reshape(shape)
    us, them = own >= target, other >= target
    p = np.where(us | them, np.where(us & them, 0.5, us.astype(np.float64)), p)
    p = np.where((bidder == 1) & us, 1.0, p)
    p = np.where((bidder == 0) & them, 0.0, p)
    return p


def side_objective_values(raw: dict, team, other, bidder, objective: str, scores):
    """The per-sample objective from deal scores: ``relative`` team - other team, or
    ``win`` :func:`side_win_probability` from the game ``scores`` (this team, the other)
    before the deal plus the deal's."""
    if objective == "relative":
        return team - other
    return side_win_probability(scores[0] + team, scores[1] + other, bidder, raw["target"])

