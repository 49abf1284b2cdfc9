"""Duplicate self-play tournaments between bidding agents (R3, R4, R8, R9).

A *match* between two agents A and B is a series of duplicate game groups.  Group g has
one fixed stream of deals (deal k's cards and the card-play random numbers depend only on
(seed, g, k)).  The group plays six full games on that stream, one per seating of the
agents on the three chairs: A B B, B A B, B B A, B A A, A B A, A A B, so every agent sits
in every chair with every company and the cards' luck cancels in the comparison.  Within
a game the deal rotates (deal k's forehand is chair (g + k) mod 3, R2), every deal is
bid (R3), exchanged (R4, analyzer.mechanics.exchange), played (heuristic policy) and scored (R8),
and the game ends per R9 at the target (1500).

Agents only decide the bidding, at each of their turns, from their own hand, seat, the
calls so far and the game scores (:meth:`Agent.max_bid`): the deal's other hands are never
passed to them.  Exchange and card play are the same engines for everybody.

Statistics: a group is the independent unit.  Per group, each agent's points per deal is
the mean deal score over the (chair, deal) places it held; the match's figure is the mean
over groups with its standard error, and the difference A - B is a paired (duplicate)
difference with its own standard error and z.  Win rates are wins per chair held (1/3 for
equal agents).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer.analyses.advice import MAX_SAMPLES
from analyzer.analyses.agents import AGENT_KINDS, Agent, make_agent
from analyzer.analyses.opponents import get_opponent_model
from analyzer.mechanics.bidding import DEFAULT_TRICK_ESTIMATE, threshold_auction, validate_auction
from analyzer.mechanics.cards import mask_to_counts
from analyzer.errors import BinokelError
from analyzer.parallel import parallel_map, resolve_jobs
from analyzer.mechanics.game import game_winner
from analyzer.mechanics.play import POLICY_HEURISTIC
from analyzer.search.deals import finish_deal
from analyzer.search.pimc import pimc_args, play_name, resolve_play
from analyzer.mechanics.rng import make_state
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet
from analyzer.mechanics.sampling import deal_rules, new_deck
from analyzer.bounds import GROUPS

MAX_GROUPS = GROUPS.hi          # 600,000 full games: hours of CPU (analyzer.bounds)
MAX_TRICK_ESTIMATE = 250        # the rule of thumb's card points: a deal holds 250 (R7)

SEATINGS = ((0, 1, 1), (1, 0, 1), (1, 1, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1))
# V3 (four at the table): each agent holds two chairs; every agent sits in every chair
# three times and next to / opposite the other in every arrangement
SEATINGS4 = ((0, 1, 0, 1), (1, 0, 1, 0), (0, 0, 1, 1), (1, 1, 0, 0), (0, 1, 1, 0), (1, 0, 0, 1))
MAX_DEALS = 60          # safety cap per game (R9 ends real games long before)
def _deal(seed: int, group: int, k: int, rules: RuleSet = DEFAULT_RULES):
    st = make_state(np.random.SeedSequence([seed, group, k]))
    out = np.zeros(4, dtype=np.int64)
    deal_rules(st, new_deck(rules), rules.kernel, out)
    hands = np.stack([mask_to_counts(int(out[p])) for p in range(3)]).astype(np.uint8)
    tapp = mask_to_counts(int(out[3])).astype(np.uint8)
    play_state = make_state(np.random.SeedSequence([seed, group, k, 1]))
    return hands, tapp, play_state


def run_auction_agents(hands, agents_by_seat, scores_by_seat, key, rules: RuleSet):
    """R3 auction with each seat's agent asked at its turns; returns (soloist, bid, calls).

    An agent's maximum is fixed at its first turn (later calls only confirm it), so each
    agent is a threshold bidder given what it had seen by then.
    """
    def ask(p, calls):
        return agents_by_seat[p].max_bid(hands[p], p, validate_auction(calls, rules),
                                         scores_by_seat, key)

    return threshold_auction(ask, rules)


def play_group(agents: tuple[Agent, Agent], seed: int, group: int, rules: RuleSet = DEFAULT_RULES,
               policy: int = POLICY_HEURISTIC, max_deals: int = MAX_DEALS):
    """Six duplicate games (all seatings) on deal stream ``group``; returns per-game records.

    ``max_deals = 1``: the match of single deals (``run_tournament(deals=...)``): each
    seating plays only the stream's first deal from zero scores; the record's
    ``winner_agent`` is then -1 (no game is decided by one deal).

    ``policy``: the card play of the table's deals after the exchange
    (analyzer.search.pimc.play_contract: heuristic, or PIMC); the agents' own bidding
    simulations keep the heuristic.

    With four at the table (V3) the dealer's chair sits out each deal and scores
    ``sitting_out_points``; the three chairs to its right play seats 0, 1, 2.
    """
    kr = rules.kernel
    play_args = pimc_args(policy)   # () for the heuristic: finish_deal's variant without PIMC
    n_chairs = rules.table_seats
    games = []
    stream: dict[int, tuple] = {}
    for si, seating in enumerate(SEATINGS if n_chairs == 3 else SEATINGS4):
        totals = np.zeros(n_chairs, dtype=np.int64)
        rows = []
        winner = -1
        for k in range(max_deals):
            if k not in stream:
                stream[k] = _deal(seed, group, k, rules)
            hands, tapp, play_state = stream[k]
            fh = (group + k) % n_chairs
            chair_of_seat = [(fh + s) % n_chairs for s in range(3)]
            if n_chairs > 3:
                out_chair = (fh + 3) % n_chairs   # the dealer sits out (V3)
                totals[out_chair] += rules.sitting_out_points
                rows.append((k, out_chair, seating[out_chair], -1, rules.sitting_out_points,
                             0, 0, -1, 0))
            agents_by_seat = [agents[seating[c]] for c in chair_of_seat]
            scores_by_seat = [int(totals[c]) for c in chair_of_seat]
            sol, bid, calls = run_auction_agents(hands, agents_by_seat, scores_by_seat,
                                                 (group, k), rules)
            out = np.zeros(3, dtype=np.int64)
            contract, trump, made = finish_deal(hands, tapp, sol, bid, policy,
                                                play_state.copy(), kr, out, *play_args)
            for s in range(3):
                totals[chair_of_seat[s]] += out[s]
                rows.append((k, chair_of_seat[s], seating[chair_of_seat[s]], s, int(out[s]),
                             int(s == sol), bid, int(contract), int(made)))
            winner = int(game_winner(totals, chair_of_seat[sol] if sol >= 0 else -1,
                                     kr.target_score))
            if winner >= 0:
                break
        if max_deals == 1:          # a single deal decides no game
            games.append(dict(seating=seating, rows=rows, winner_chair=-1, winner_agent=-1,
                              deals=1, totals=totals.tolist()))
            continue
        if winner < 0:  # cap reached (never seen in practice): highest total wins
            winner = int(np.argmax(totals))
        games.append(dict(seating=seating, rows=rows, winner_chair=winner,
                          winner_agent=seating[winner], deals=k + 1, totals=totals.tolist()))
    return games


@dataclass
class AgentStats:
    name: str
    points_per_deal: float
    points_se: float
    win_rate: float
    win_se: float
    soloist_rate: float
    made_rate: float
    mean_winning_bid: float

    def to_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class TournamentResult:
    """Per-agent figures with standard errors (groups are the independent units)."""

    agents: tuple[str, str]
    groups: int
    games: int
    deals: int
    seed: int
    stats: list[AgentStats]
    diff: float
    diff_se: float
    z: float
    win_diff: float
    win_diff_se: float
    params: dict

    def to_dict(self) -> dict:
        return dict(agents=list(self.agents), groups=self.groups, games=self.games,
                    deals=self.deals, seed=self.seed, stats=[s.to_dict() for s in self.stats],
                    points_per_deal_diff=self.diff, points_per_deal_diff_se=self.diff_se,
                    z=self.z if math.isfinite(self.z) else None, win_rate_diff=self.win_diff, win_rate_diff_se=self.win_diff_se,
                    params=self.params)

    def summary(self) -> str:
        a, b = self.agents
        single = self.params.get("match") == "deals"
        unit = (f"{self.groups} deals x 6 seatings = {self.deals} deals played" if single else
                f"{self.groups} groups x 6 seatings = {self.games} games, {self.deals} deals")
        lines = [f"duplicate tournament ({self.params.get('rules', 'binokel-48')}): {a} (agent 1) "
                 f"vs {b} (agent 2), {unit}, seed {self.seed}"
                 + ("" if self.params.get("play", "heuristic") == "heuristic"
                    else f", play {self.params['play']}")]
        lines.append(f"{'agent':<10} {'points/deal':>18} {'game win rate':>20} {'soloist':>8} "
                     f"{'made':>6} {'mean bid':>9}")
        for i, s in enumerate(self.stats):
            win = (f"{100 * s.win_rate:8.1f}% ± {100 * s.win_se:4.1f}%" if math.isfinite(s.win_rate)
                   else f"{'-':>18}")
            lines.append(f"{str(i + 1) + ' ' + s.name:<10} {s.points_per_deal:8.1f} ± {s.points_se:5.1f}   "
                         f"{win}   {100 * s.soloist_rate:6.1f}% "
                         f"{100 * s.made_rate:5.1f}% {s.mean_winning_bid:9.1f}")
        z = (f"z = {self.z:+.2f}" if math.isfinite(self.z)
             else "identical play in every seating: no spread")
        if single:
            lines.append(f"points per deal, agent 1 - agent 2: {self.diff:+.1f} ± "
                         f"{self.diff_se:.1f} ({z}); single deals: no game win rate")
            return "\n".join(lines)
        lines.append(f"points per deal, agent 1 - agent 2: {self.diff:+.1f} ± {self.diff_se:.1f} "
                     f"({z}); win rate difference {100 * self.win_diff:+.1f} ± "
                     f"{100 * self.win_diff_se:.1f} points")
        return "\n".join(lines)


def _se(x: np.ndarray) -> float:
    return float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else float("nan")


def summarize(agents_names, groups_out, seed, params) -> TournamentResult:
    G = len(groups_out)
    ppd = np.zeros((G, 2))
    win = np.zeros((G, 2))
    sol = np.zeros(2)
    made = np.zeros(2)
    places = np.zeros(2)
    bids = [[], []]
    n_games = n_deals = 0
    for g, games in enumerate(groups_out):
        s = np.zeros(2)
        c = np.zeros(2)
        wins = np.zeros(2)
        chairs = np.zeros(2)
        for game in games:
            n_games += 1
            n_deals += game["deals"]
            for (k, chair, agent, seat, score, is_sol, bid, contract, mk) in game["rows"]:
                s[agent] += score
                c[agent] += 1
                if is_sol:
                    sol[agent] += 1
                    made[agent] += mk
                    bids[agent].append(bid)
            if game["winner_agent"] >= 0:
                wins[game["winner_agent"]] += 1
            for a in game["seating"]:
                chairs[a] += 1
        places += c
        ppd[g] = s / c
        win[g] = wins / chairs
    if params.get("match") == "deals":
        win[:] = np.nan                # one deal decides no game (R9)
    stats = []
    for a in range(2):
        stats.append(AgentStats(agents_names[a], float(ppd[:, a].mean()), _se(ppd[:, a]),
                                float(win[:, a].mean()), _se(win[:, a]),
                                float(sol[a] / places[a]), float(made[a] / max(sol[a], 1)),
                                float(np.mean(bids[a])) if bids[a] else float("nan")))
    d = ppd[:, 0] - ppd[:, 1]
    dse = _se(d)
    wd = win[:, 0] - win[:, 1]
    return TournamentResult(tuple(agents_names), G, n_games, n_deals, seed, stats,
                            float(d.mean()), dse, float(d.mean() / dse) if dse > 0 else float("nan"),
                            float(wd.mean()), _se(wd), params)


def _groups_chunk(kinds, params, seed, groups, rules):
    agents = tuple(make_agent(k, samples=params["samples"], objective=params["objective"],
                              seed=seed, trick_estimate=params["trick_estimate"], rules=rules,
                              opponents=params.get("opponents"))
                   for k in kinds)
    policy = resolve_play(params.get("play", "heuristic"), rules)
    max_deals = 1 if params.get("match") == "deals" else MAX_DEALS
    return [play_group(agents, seed, g, rules, policy, max_deals) for g in groups]


def run_tournament(agent1: str = "advisor", agent2: str = "rule", groups: int = 50, seed: int = 0,
                   samples: int = 200, objective: str = "relative",
                   trick_estimate: int = DEFAULT_TRICK_ESTIMATE, n_jobs: int = 1,
                   progress=None, rules: RuleSet = DEFAULT_RULES,
                   opponents: str | None = None, play: str = "heuristic",
                   deals: int | None = None) -> TournamentResult:
    """Play a duplicate match (see module docstring) and summarize it.

    Parameters
    ----------
    agent1, agent2 : {"advisor", "rule", "advisor-la", "advisor-fit"}
        The two bidding agents (the same kind twice = self-play): ``advisor-la`` is the
        look-ahead advisor, ``advisor-fit`` the fitted model of the advisor
        (analyzer.analyses.agents).
    groups : int
        Duplicate groups; each is 6 full games (R9) on one deal stream.
    seed : int
        Same seed -> same result for any ``n_jobs``.
    samples : int
        The advisor's samples per bidding decision.
    objective : {"relative", "own", "win"}
        The advisor agent's objective ("win": estimated P(win game) from the scores, R9).
    trick_estimate : int
        The rule-of-thumb agent's fixed card-point estimate.
    n_jobs : int
        joblib workers (groups are distributed; results do not depend on it).
    progress : callable, optional
        Called with the number of finished groups.
    opponents : {"rule", "advisor"}, optional
        The look-ahead agent's opponent model (None = its default).
    play : {"heuristic", "pimc", "pimc-defence"}
        Card play of the table's deals after the exchange (PIMC at every seat, or PIMC
        defenders against the heuristic soloist; ~3-4 ms of CPU a deal).  The agents' bidding
        simulations keep the heuristic.  Same deals and seeds either way.

    For a team game (``rules.teams``) the duplicate team match of
    analyzer.analyses.team_tournament is played instead: ``groups`` game pairs, each game
    played to the target twice with the teams' seats swapped; agents ``advisor``, ``rule``,
    ``advisor-la`` (the team look-ahead, ``opponents`` its model of the other seats) and
    ``advisor-fit`` (the fitted model of the team advisor, analyzer.analyses.fit_opponents).
    ``deals`` (team games only, instead of ``groups``): a duplicate match of ``deals``
    single deals, each played twice with the same cards in the same seats and the teams
    swapped (``run_team_tournament(..., games=False)``; the deal pair is the unit, no game
    win rate, the objective is relative).
    """
    policy = resolve_play(play, rules)
    if getattr(rules, "teams", False):
        from analyzer.analyses.team_tournament import run_team_tournament

        if opponents is not None and "advisor-la" not in (agent1, agent2):
            raise BinokelError("--opponents is the advisor-la agent's model: give advisor-la "
                               "as one of the agents")

        if objective not in ("relative", "win"):
            raise BinokelError("a team game's advisor objective is relative (the team's score "
                               "minus the other team's, V1) or win (P(win game) from the scores)")
        if deals is not None:
            # a duplicate match of single deals, each twice with the teams swapped
            return run_team_tournament(agent1, agent2, deals=deals, seed=seed, samples=samples,
                                       n_jobs=n_jobs, progress=progress, rules=rules,
                                       games=False, la_model=opponents, objective=objective,
                                       play=play)
        # a group of a team match: one duplicate game pair, each game to the target
        return run_team_tournament(agent1, agent2, deals=groups, seed=seed, samples=samples,
                                   n_jobs=n_jobs, progress=progress, rules=rules, games=True,
                                   la_model=opponents, objective=objective, play=play)
    match = "games"
    if deals is not None:
        # the match of single deals: each deal under all six seatings from zero scores
        if objective == "win":
            raise BinokelError("objective win reads the game scores: it needs whole games "
                               "(groups), not deals")
        if not 2 <= deals <= MAX_GROUPS:
            raise BinokelError(f"deals must be between 2 (standard errors need two) and "
                               f"{MAX_GROUPS:,}, got {deals:,}")
        groups, match = deals, "deals"
    for k in (agent1, agent2):
        if k not in AGENT_KINDS:
            raise BinokelError(f"unknown agent {k!r}: use {', '.join(AGENT_KINDS)}")
    if opponents is not None:
        get_opponent_model(opponents, rules)  # a one-line error before any game is played
    if groups < 2:
        raise BinokelError(f"groups must be at least 2 (standard errors need two), got {groups}")
    if groups > MAX_GROUPS:
        raise BinokelError(f"groups must be at most {MAX_GROUPS:,}, got {groups:,}")
    if not 1 <= samples <= MAX_SAMPLES:
        raise BinokelError(f"samples must be between 1 and {MAX_SAMPLES:,}, got {samples:,}")
    if not 0 <= trick_estimate <= MAX_TRICK_ESTIMATE:
        raise BinokelError(f"trick estimate must be between 0 and {MAX_TRICK_ESTIMATE} card "
                           f"points (a deal has 250, R7), got {trick_estimate}")
    if objective not in ("relative", "own", "win"):
        raise BinokelError(f"unknown objective {objective!r}: use relative, own or win")
    params = dict(samples=int(samples), objective=objective,
                  trick_estimate=int(trick_estimate), rules=rules.name, opponents=opponents,
                  play=play_name(policy))
    if match == "deals":
        params["match"] = "deals"     # only then: the pinned whole-game params stay as they were
    kinds = (agent1, agent2)
    workers = resolve_jobs(n_jobs)
    step = 2 if workers != 1 else 1
    batches = [list(range(i, min(i + step * 2, groups))) for i in range(0, groups, step * 2)]
    out = []
    for b, res in zip(batches, parallel_map(_groups_chunk, [(kinds, params, seed, b, rules)
                                                            for b in batches],
                                            workers, len(batches))):
        out.extend(res)
        if progress:
            progress(len(b))
    names = (f"{agent1}", f"{agent2}")
    return summarize(names, out, seed, dict(params, agent1=agent1, agent2=agent2))
