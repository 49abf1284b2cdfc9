"""Duplicate team tournaments (V4, V5, V6): advisor team against rule-of-thumb team.

Deal ``d`` of a match (its cards depend only on (seed, d)) is played twice with the same
cards in the same seats: once with team X (the first agent) in seats 0 + 2 and team Y in
seats 1 + 3, once with the teams swapped, so each team holds each set of hands once and
the cards' luck cancels.  Each deal is bid (V6.2, or V1's chain of duels), the contract
played (a Dabb game: the soloist takes the Dabb and exchanges, V4.2, V5.3) by the team
policy for everybody, and scored (V4.6, V5.7, V6.6).

Agents decide only the auction (and, in Pinochle, the trump), from their own hand, seat
and the calls so far; the deal's other hands are never passed to them:

- ``rule``: the rule of thumb (analyzer.mechanics.team_bidding): Pinochle bots' "meld +
  20 per expected trick" (+ a partner allowance), or for the Binokel team games the best
  meld + a fixed card-point estimate; minimum raises; its rule-of-thumb trump;
- ``advisor-fit``: the fitted model of the team advisor's maximum bid
  (analyzer.analyses.team_fit, the look-ahead's ``advisor`` model without its noise): bid
  the next bid while it is at most the model's value rounded down to the step; in
  Pinochle its rule-of-thumb trump.  A field of it is the "advisor-modelled field";
- ``advisor-la``: the team look-ahead (:mod:`analyzer.analyses.team_lookahead`) at every
  turn: bid the next bid while the recommended plan reaches it, else pass; in Pinochle
  the trump its own-seat table names for that bid.  Its model of the other seats:
  ``la_model`` (default ``advisor``);
- ``advisor``: :mod:`analyzer.analyses.team_advice` at every turn (fresh samples, the
  calls so far as evidence, the partner's included): bid the next bid while its expected
  objective is at least the pass value, else pass; in Pinochle the trump its table names
  for the final bid.  In a Dabb game both agents' soloists exchange and name trump with
  the same exchange policy (analyzer.mechanics.team_game.kreuz_exchange).

Statistics: a deal (both arrangements) is the independent unit.  Per deal, each team's
points = its mean deal score over the two arrangements; the difference X - Y is paired,
with its standard error and z = mean / SE.

Whole games (``games=True``, the CLI's ``tournament --rules kreuz-48 --groups N``): a
game pair is game ``g`` played twice to the target score with the teams' seats swapped
(:func:`play_team_game`; the deal rotates, deal k's cards are the same in both games).
The pair is the unit: per team its points per deal over the pair's deals, paired as
above, and team X's share of the two games won, with its SE and z against 1/2, as the
three-player tournament reports them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer.analyses.team_advice import (ADVISOR_PARTNER_OFFSET, bids_over_partner,
                                           parse_team_auction_for, sample_branches,
                                           summarize_team_advice)
from analyzer.analyses.team_fit import team_model_value
from analyzer.analyses.team_lookahead import fitted_team_model, team_lookahead_decision, team_model
from analyzer.errors import BinokelError
from analyzer.mechanics.bidding import DEFAULT_EVIDENCE_SCALE
from analyzer.mechanics.play import beat_table
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.scoring import sides_game_winner
from analyzer.mechanics.team_bidding import (DEFAULT_PARTNER_ALLOWANCE, DEFAULT_TEAM_TRICK_ESTIMATE,
                                             DEFAULT_TRICK_VALUE, PASS, rule_of_thumb80)
from analyzer.mechanics.team_game import R_SCORE, RES_COLS, kreuz_contract, kreuz_rule_value, play_contract80
from analyzer.mechanics.sampling import deal_counts
from analyzer.search.pimc import play_name, play_policies, resolve_play
from analyzer.mechanics.rules import PINOCHLE_80, TeamSpec, team_spec

AGENTS80 = ("advisor", "rule", "advisor-la", "advisor-fit")
MAX_DEALS80 = 100_000


def deal_hands(seed: int, d: int, spec: TeamSpec) -> np.ndarray:
    """The hands (uint8[5, 24]: four seats and the Dabb) of deal ``d`` of a match."""
    hands = np.zeros((5, 24), dtype=np.uint8)
    deal_counts(chunk_state((seed, d), 0), spec.deck.copy(), hands, spec.hand_size)
    return hands


def _next_bid(state, spec):
    return state.next_bid(spec.rules) if spec.open_auction else state.next_bid(spec.start, spec.step)


def _decide(kind, counts, seat, state, params, key, spec, memo, game=(0, 0)):
    """One call: the next bid or PASS; ``memo[seat]`` keeps the Pinochle trump choice.
    ``game``: the game totals by seat parity (seats 0+2, seats 1+3) before this deal,
    which the advisor with objective ``win`` reads (its own team first)."""
    nb = _next_bid(state, spec)
    if kind == "rule":
        tmp = np.zeros(4, dtype=np.int64)
        if spec.open_auction:
            mb, trump = rule_of_thumb80(counts, spec.tk, params["rv1"], params["rv2"], tmp)
            memo[seat] = int(trump)
        else:
            mb = kreuz_rule_value(counts, spec.kr, params["rv1"], tmp) // spec.step * spec.step
        return nb if nb <= mb else PASS
    if kind == "advisor-fit":
        m = params["fit_model"]
        v, trump = team_model_value(counts, seat, m.kind, m.coef_array(), float(m.offset), spec.tk,
                                    spec.kr, params["rv1"], params["rv2"],
                                    np.zeros(4, dtype=np.int64), np.zeros(len(m.coef_array())))
        if spec.open_auction:
            memo[seat] = int(trump)
        return nb if nb <= math.floor(v / spec.step) * spec.step else PASS
    if kind == "advisor-la":
        bid_on, trump = team_lookahead_decision(counts, seat, state, params["samples"], key[0],
                                                key[1], spec, params.get("la_model") or "advisor")
        if trump is not None:
            memo[seat] = trump
        return nb if bid_on else PASS
    raw = sample_branches(counts, seat, state, params["samples"], key[0], spec, True,
                          params["rv1"], params["rv2"], scale=params.get("scale", DEFAULT_EVIDENCE_SCALE),
                          key=key[1], partner_scale=params.get("partner_scale"),
                          partner_offset=params["partner_offset"])
    objective = params.get("objective", "relative")
    scores = (game[seat % 2], game[1 - seat % 2]) if objective == "win" else None
    max_bid, rows, _pass, _ess = summarize_team_advice(raw, nb, spec.step, rows=1,
                                                       over_partner=bids_over_partner(state, seat, spec),
                                                       objective=objective, scores=scores)
    if rows[0]["trump"] is not None:
        memo[seat] = int(rows[0]["trump"])
    return nb if max_bid is not None else PASS


def play_arrangement(hands: np.ndarray, kinds_by_seat, params, seed, d, arr,
                     spec: TeamSpec, game=(0, 0)) -> tuple[int, int, int, int]:
    """One deal with the given agent kind per seat: (score team 0, team 1, bidder, bid).
    ``game``: the game totals by seat parity before the deal (public: every seat sees
    the score sheet)."""
    calls: list[int] = []
    state = parse_team_auction_for(calls, spec)
    memo: dict[int, int] = {}
    while not state.over:
        seat = state.to_move
        if spec.forced_opening and not calls:
            call = spec.start              # forehand's forced opening (V5.2)
        else:
            call = _decide(kinds_by_seat[seat], hands[seat].copy(), seat, state, params,
                           ((seed, d, arr, len(calls)), 0), spec, memo, game)
        calls.append(call)
        state = parse_team_auction_for(calls, spec)
    res = np.zeros(RES_COLS, dtype=np.int64)
    beat = np.empty(24, dtype=np.int64)
    beat_table(spec.tk, beat)
    pol = play_policies(params.get("play", 1))      # the table's card play (--play)
    cnt = np.zeros((4, 24), dtype=np.uint8)
    rng = chunk_state((seed, d, arr), 1)
    if spec.open_auction:
        b = state.high_seat
        play_contract80(hands[:4], b, state.high, memo.get(b, 0) if b >= 0 else 0, pol, rng,
                        spec.tk, beat, cnt, res)
    else:
        b = state.holder
        kreuz_contract(hands, b, state.high, pol, rng, spec.tk, spec.kr, beat, cnt, res)
    return int(res[R_SCORE]), int(res[R_SCORE + 1]), int(b), int(state.high)


MAX_GAME_DEALS = 60     # safety cap per game (real games end long before: see play_team_game)


def play_team_game(kinds, params, seed, g, arr, spec: TeamSpec) -> dict:
    """One whole team game to the target (V4.6 1500, V5.7 1000, V6.6 3550), agent kinds
    ``kinds`` = (team X, team Y); returns its record.

    Deal ``k`` of game ``g`` has the cards of match deal ``g * MAX_GAME_DEALS + k`` (so
    both arrangements of a game pair see the same deal stream).  The deal rotates, so the
    seats move by one each deal and the teams swap seat parity: team X holds seats 0 + 2
    in deal ``k`` when ``k + arr`` is even (``arr`` = 1 starts the other way round).
    After each completed deal (a thrown-in, going-out or Durch deal included, R9) the game
    ends when a team has reached the target: the bidding side is counted first, so it wins
    when both have (V6.6; **Reading** for the Binokel team games: R9 with the two teams as
    its players, the soloist's team first, which V6.6 states for Pinochle).  Record: the
    winner (0 = X, 1 = Y), the deals played, the final totals (X, Y) and per deal the
    scores (X, Y), the bidder's team (0 = X, 1 = Y, -1 thrown in) and the bid.
    """
    target = int(spec.tk.target_score)
    totals = [0, 0]
    deals = []
    winner = -1
    for k in range(MAX_GAME_DEALS):
        d = g * MAX_GAME_DEALS + k
        hands = deal_hands(seed, d, spec)
        x_team = (k + arr) % 2            # the seat parity team X holds in this deal
        by_seat = [kinds[0] if p % 2 == x_team else kinds[1] for p in range(4)]
        parity = (totals[0], totals[1]) if x_team == 0 else (totals[1], totals[0])
        s0, s1, b, bid = play_arrangement(hands, by_seat, params, seed, d, arr, spec, parity)
        sc = (s0, s1)
        xy = (sc[x_team], sc[1 - x_team])
        totals[0] += xy[0]
        totals[1] += xy[1]
        bid_xy = -1 if b < 0 else (0 if b % 2 == x_team else 1)
        deals.append((xy[0], xy[1], bid_xy, bid))
        winner = sides_game_winner(totals, bid_xy, target)
        if winner >= 0:
            break
    if winner < 0:                        # the cap (not seen in practice): higher total wins
        winner = 0 if totals[0] >= totals[1] else 1
    return {"winner": winner, "deals": len(deals), "totals": tuple(totals), "rows": deals}


def play_game_pair(kinds, params, seed, g, spec: TeamSpec) -> dict:
    """Game ``g`` twice, the teams' seats swapped (duplicate); per team X / Y its mean
    score per deal over both games, its wins, and the contract facts of the deals."""
    games = [play_team_game(kinds, params, seed, g, arr, spec) for arr in (0, 1)]
    n = sum(gm["deals"] for gm in games)
    rows = [r for gm in games for r in gm["rows"]]
    return {"x": sum(r[0] for r in rows) / n, "y": sum(r[1] for r in rows) / n,
            "x_bids": sum(r[2] == 0 for r in rows), "y_bids": sum(r[2] == 1 for r in rows),
            "x_made": sum(r[2] == 0 and r[0] >= 0 for r in rows),
            "y_made": sum(r[2] == 1 and r[1] >= 0 for r in rows),
            "thrown": sum(r[2] < 0 for r in rows), "deals": n,
            "x_wins": sum(gm["winner"] == 0 for gm in games)}


def play_deal_pair(kinds, params, seed, d, spec: TeamSpec) -> dict:
    """Deal ``d`` in both arrangements; per team X/Y its mean score and contract facts."""
    hands = deal_hands(seed, d, spec)
    x_pts, y_pts, x_bids, y_bids, x_made, y_made, thrown = 0, 0, 0, 0, 0, 0, 0
    for arr in (0, 1):
        x_team = arr        # arrangement 0: X in seats 0+2; 1: X in seats 1+3
        by_seat = [kinds[0] if p % 2 == x_team else kinds[1] for p in range(4)]
        s0, s1, b, bid = play_arrangement(hands, by_seat, params, seed, d, arr, spec)
        sc = (s0, s1)
        x_pts += sc[x_team]
        y_pts += sc[1 - x_team]
        if b < 0:
            thrown += 1
        elif b % 2 == x_team:
            x_bids += 1
            x_made += sc[x_team] >= 0
        else:
            y_bids += 1
            y_made += sc[1 - x_team] >= 0
    return {"x": x_pts / 2.0, "y": y_pts / 2.0, "x_bids": x_bids, "y_bids": y_bids,
            "x_made": x_made, "y_made": y_made, "thrown": thrown}


@dataclass
class TeamTournamentResult:
    """Summary of :func:`run_team_tournament` (points per deal with SE, paired z)."""

    game: str
    agents: tuple[str, str]
    deals: int
    seed: int
    samples: int
    x_mean: float
    x_se: float
    y_mean: float
    y_se: float
    diff_mean: float
    diff_se: float
    z: float
    contracts: dict
    games: int = 0               # whole games played (2 per game pair); 0 = a match of deals
    deals_played: int = 0        # deals in those games
    x_win_rate: float = float("nan")   # team X's share of the games won
    win_se: float = float("nan")
    win_z: float = float("nan")        # (win rate - 1/2) / SE
    target: int = 0                    # the game's target score (V4.6, V5.7, V6.6)
    objective: str = "relative"        # the advisor agent's objective (relative or win)
    play: str = "heuristic"            # card play of the table's deals (--play, issue 24)

    def summary(self) -> str:
        a, b = self.agents
        c = self.contracts
        head = (f"{self.game} duplicate match: {a} team vs {b} team, {self.deals} deals x 2 "
                f"arrangements (seed {self.seed}, advisor samples {self.samples}"
                + ("" if self.play == "heuristic" else f", play {self.play}") + ")")
        if self.games:
            head = (f"{self.game} duplicate match: {a} team vs {b} team, {self.games // 2} game "
                    f"pairs = {self.games} whole games to {self.target}, "
                    f"{self.deals_played} deals (seed {self.seed}, advisor samples {self.samples}"
                    + (", advisor objective P(win game)" if self.objective == "win" else "")
                    + ("" if self.play == "heuristic" else f", play {self.play}") + ")")
        lines = [
            head,
            f"{a:>8} team: {self.x_mean:+8.1f} points per deal ({_se_text(self.x_se)}); "
            f"contracts {c['x_bids']}, made {c['x_made']}",
            f"{b:>8} team: {self.y_mean:+8.1f} points per deal ({_se_text(self.y_se)}); "
            f"contracts {c['y_bids']}, made {c['y_made']}",
            f"thrown in: {c['thrown']} of {self.deals_played or 2 * self.deals}",
            f"difference {a} - {b}: {self.diff_mean:+.1f} per deal ({_se_text(self.diff_se)}), "
            + z_text(self.z, self.deals, "deal pairs"),
        ]
        if self.games:
            lines.append(f"game win rate of the {a} team: {100 * self.x_win_rate:.1f}% "
                         f"({_se_text(100 * self.win_se, '%')}), "
                         + z_text(self.win_z, self.games // 2, "game pairs", " against 50%"))
        return "\n".join(lines)


    def to_dict(self) -> dict:
        return {"rules": self.game, "agents": list(self.agents), "deals": self.deals, "seed": self.seed,
                "samples": self.samples, "x_mean": self.x_mean, "x_se": _finite(self.x_se),
                "y_mean": self.y_mean, "y_se": _finite(self.y_se), "diff_mean": self.diff_mean,
                "diff_se": _finite(self.diff_se), "z": _finite(self.z), "contracts": self.contracts,
                "games": self.games, "deals_played": self.deals_played,
                "x_win_rate": _finite(self.x_win_rate), "win_se": _finite(self.win_se),
                "win_z": _finite(self.win_z), "objective": self.objective,
                **({} if self.play == "heuristic" else {"play": self.play})}


def _se_text(se: float, unit: str = "") -> str:
    """``SE 3.1`` or, from a single pair, ``SE not estimable`` (never nan)."""
    return f"SE {se:.1f}{unit}" if math.isfinite(se) else "SE not estimable"


def z_text(z: float, pairs: int, unit: str, against: str = "") -> str:
    """``z = +1.23`` (with ``against``), or why z is not estimable: with fewer than two
    pairs there is no spread to estimate, and when every pair gave the same result (e.g.
    each game pair split 1 : 1, as two arrangements of the same cards often do) the
    standard error is 0.  Never prints nan."""
    if math.isfinite(z):
        return f"z = {z:+.2f}{against}"
    if pairs < 2:
        return f"z not estimable: {pairs} {unit}, a standard error needs two or more"
    return (f"z not estimable: all {pairs} {unit} gave the same result (standard error 0); "
            f"play more")


def _finite(v: float):
    return v if math.isfinite(v) else None


def _chunk(kinds, params, seed, ds, rules, games=False):
    spec = team_spec(rules)
    one = play_game_pair if games else play_deal_pair
    return [one(kinds, params, seed, d, spec) for d in ds]


def run_team_tournament(agent1: str = "advisor", agent2: str = "rule", deals: int = 200,
                        seed: int = 0, samples: int = 100, n_jobs: int = 1, progress=None,
                        rules=PINOCHLE_80, rv1: int | None = None,
                        rv2: int | None = None,
                        evidence_scale: float = DEFAULT_EVIDENCE_SCALE,
                        partner_scale: float | None = None,
                        partner_offset: int | None = None,
                        games: bool = False,
                        la_model: str | None = None,
                        objective: str = "relative",
                        play: str = "heuristic") -> TeamTournamentResult:
    """Play a duplicate team match (module docstring); same seed, same result for any
    ``n_jobs``.  Raises BinokelError on bad parameters.

    ``games``: ``deals`` is then the number of duplicate game pairs, each game played to
    the target (:func:`play_team_game`); points per deal are taken over the games' deals
    (a game pair is the unit) and the result adds the game win rate with SE and z.
    ``objective``: the ``advisor`` agent's, ``relative`` (team minus the other team) or
    ``win`` (P(win game) from the game totals before each deal; whole games only).
    ``play``: the table's card play, heuristic (the team policy), pimc or pimc-defence
    (analyzer.search.pimc.play_policies); the agents' bidding simulations keep
    the team policy.
    """
    code = resolve_play(play, rules)
    if objective not in ("relative", "win"):
        raise BinokelError(f"objective {objective!r} is not one of a team game's: relative or win")
    if objective == "win" and not games:
        raise BinokelError("objective win reads the game scores: it needs whole games")
    if objective == "win" and "advisor" not in (agent1, agent2):
        raise BinokelError("objective win is the advisor agent's: give advisor as one of the agents")
    for k in (agent1, agent2):
        if k not in AGENTS80:
            raise BinokelError(f"unknown agent {k!r} for a team game: use {', '.join(AGENTS80)}")
    if not 2 <= deals <= MAX_DEALS80:
        raise BinokelError(f"{'game pairs' if games else 'deals'} must be between 2 and "
                           f"{MAX_DEALS80}, got {deals}")
    if not 1 <= samples <= 10_000:
        raise BinokelError(f"samples must be between 1 and 10000, got {samples}")
    spec = team_spec(rules)
    if rv1 is None:
        rv1 = DEFAULT_TRICK_VALUE if spec.open_auction else DEFAULT_TEAM_TRICK_ESTIMATE
    if rv2 is None:
        rv2 = DEFAULT_PARTNER_ALLOWANCE if spec.open_auction else 0
    params = {"samples": int(samples), "rv1": int(rv1), "rv2": int(rv2),
              "scale": float(evidence_scale), "partner_scale": partner_scale,
              "partner_offset": int(ADVISOR_PARTNER_OFFSET[spec.open_auction]
                                    if partner_offset is None else partner_offset),
              "la_model": la_model, "objective": objective, "play": code}
    if la_model is not None:
        team_model(la_model, spec)      # a one-line error before any deal is played
    if "advisor-fit" in (agent1, agent2):
        params["fit_model"] = fitted_team_model(spec)
        if params["fit_model"] is None:
            raise BinokelError(f"no fitted team advisor model for {spec.name}: fit one with "
                               f"'binokel fit-opponents --rules {spec.name}'")
    kinds = (agent1, agent2)
    size = 2 if games else 10
    batches = [list(range(i, min(i + size, deals))) for i in range(0, deals, size)]
    out: list[dict] = []
    if n_jobs == 1:
        for b in batches:
            out.extend(_chunk(kinds, params, seed, b, rules, games))
            if progress:
                progress(len(b))
    else:
        import joblib
        par = joblib.Parallel(n_jobs=n_jobs, return_as="generator")
        for b, res in zip(batches, par(joblib.delayed(_chunk)(kinds, params, seed, b, rules, games)
                                       for b in batches)):
            out.extend(res)
            if progress:
                progress(len(b))
    x = np.array([r["x"] for r in out])
    y = np.array([r["y"] for r in out])
    diff = x - y
    n = len(out)

    def se(v):
        return float(v.std(ddof=1) / math.sqrt(n))

    contracts = {k: int(sum(r[k] for r in out)) for k in ("x_bids", "y_bids", "x_made", "y_made", "thrown")}
    dse = se(diff)
    extra = {}
    if games:
        wins = np.array([r["x_wins"] / 2.0 for r in out])
        wse = se(wins)
        extra = {"games": 2 * n, "target": int(spec.tk.target_score), "deals_played": int(sum(r["deals"] for r in out)),
                 "x_win_rate": float(wins.mean()), "win_se": wse,
                 "win_z": float((wins.mean() - 0.5) / wse) if wse > 0 else float("nan")}
    return TeamTournamentResult(spec.name, (agent1, agent2), n, int(seed), int(samples), float(x.mean()), se(x),
                                float(y.mean()), se(y), float(diff.mean()), dse,
                                float(diff.mean() / dse) if dse > 0 else float("nan"), contracts,
                                **extra, objective=objective, play=play_name(code))
