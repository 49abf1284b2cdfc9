"""Duplicate self-play tournaments between two bidding agents, for every auction game
(R3, R4, R8, R9; partners V1, V4.6, V5.7, V6.2, V6.6).

Two matches, on every table:

- **whole games** (``groups``): a *unit* is one stream of deals played once per
  arrangement of the agents at the table, every game to the target (R9);
- **single deals** (``deals``): a unit is one deal played once per arrangement from zero
  scores; no game is decided, so there is no game win rate.

The arrangements make the cards' luck cancel.  Three hands in play (a lone soloist
against the others, R3): the six seatings of the agents on the three chairs, A B B,
B A B, B B A, B A A, A B A, A A B (with four at the table, V3, each agent holds two
chairs: :data:`SEATINGS4`), so every agent sits in every chair with every company;
within a game the deal rotates (deal k's forehand is chair (g + k) mod chairs, R2), and
with four at the table the dealer's chair sits out.  Partners (V1: seats 0 + 2 against
1 + 3): two arrangements, agent A's team in seats 0 + 2 and then in seats 1 + 3 with the
same cards in the same seats (whole games: game ``g`` played twice with the teams'
seats swapped, :func:`play_partners_game`).

Every deal is bid (R3; partners V1's chain of duels or V6.2's open bidding), the Dabb
taken and exchanged (R4, V4.2, V5.3), played (the heuristic, or ``play`` pimc /
pimc-defence) and scored (R8, V4.6, V5.7, V6.6).

Agents (:data:`analyzer.analyses.agents.AGENT_KINDS`: ``advisor``, ``rule``,
``advisor-la``, ``advisor-fit``) decide only the auction (and, in open bidding, the
trump), at each of their turns, from their own hand, seat, the calls so far and the
game scores: the deal's other hands are never passed to them.  Three chairs: the
:class:`analyzer.analyses.agents.Agent` objects; partners: :func:`_decide` (the team
advice, look-ahead and fitted model of the same names).

Statistics: a unit is independent.  Per unit, each agent's points per deal is the mean
deal score over the places it held; the match's figure is the mean over units with its
standard error, and the difference A - B is paired (duplicate) with its SE and z.  Game
win rates are wins per game seat held (1/3 for equal agents at three chairs, 1/2 for
partners, where z is taken against 1/2).  Units are seeded by (seed, unit) only, so the
same seed gives the same numbers for any ``n_jobs``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer.analyses.advice import MAX_SAMPLES
from analyzer.analyses.agents import AGENT_KINDS, Agent, make_agent
from analyzer.analyses.opponents import get_opponent_model
from analyzer.analyses.advice_samples import (ADVISOR_PARTNER_OFFSET, sample_branches,
                                              summarize_partners_advice)
from analyzer.analyses.advice_grid import bids_over_partner, parse_auction_for
from analyzer.analyses.bid_model_fit import partner_model_value
from analyzer.analyses.lookahead import (fitted_partners_model, partners_lookahead_decision,
                                         partners_model)
from analyzer.bounds import GROUPS
from analyzer.errors import BinokelError
from analyzer.mechanics.bidding import (DEFAULT_EVIDENCE_SCALE, DEFAULT_TRICK_ESTIMATE,
                                        threshold_auction, validate_auction)
from analyzer.mechanics.cards import mask_to_counts
from analyzer.mechanics.game import game_winner
from analyzer.mechanics.play import POLICY_HEURISTIC, beat_table
from analyzer.mechanics.rng import chunk_state, make_state
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet, TeamSpec, has_partners, team_spec
from analyzer.mechanics.sampling import deal_rules, new_deck
from analyzer.mechanics.scoring import sides_game_winner
from analyzer.mechanics.bidding import (DEFAULT_PARTNER_ALLOWANCE, DEFAULT_DABB_ESTIMATE,
                                        DEFAULT_TRICK_VALUE, PASS, rule_of_thumb_by_tricks)
from analyzer.mechanics.game import R_SCORE, RES_COLS, rule_value_by_model
from analyzer.search.partner_deals import dabb_contract, named_trump_contract
from analyzer.mechanics.sampling import deal_counts
from analyzer.search.pimc import play_policies
from analyzer.parallel import parallel_map, resolve_jobs
from analyzer.search.deals import finish_deal
from analyzer.search.pimc import pimc_args, play_name, resolve_play

MAX_GROUPS = GROUPS.hi          # 600,000 full games: hours of CPU (analyzer.bounds)
MAX_MATCH_DEALS = 100_000       # single deals of one match (the CLI's --deals bound)
MAX_TRICK_ESTIMATE = 250        # the rule of thumb's card points: a deal holds 250 (R7)
MAX_GAME_DEALS = 60             # safety cap per game (R9 ends real games long before)

SEATINGS = ((0, 1, 1), (1, 0, 1), (1, 1, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1))
# V3 (four at the table): each agent holds two chairs; every agent sits in every chair
# three times and next to / opposite the other in every arrangement
SEATINGS4 = ((0, 1, 0, 1), (1, 0, 1, 0), (0, 0, 1, 1), (1, 1, 0, 0), (0, 1, 1, 0), (1, 0, 0, 1))


# --------------------------------------------------------------------------- three chairs

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
               policy: int = POLICY_HEURISTIC, max_deals: int = MAX_GAME_DEALS):
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
    play_args = pimc_args(policy, kr)   # () for the heuristic: finish_deal's variant without PIMC
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


def group_unit(games: list[dict]) -> dict:
    """The unit record (:func:`summarize`) of one group of :func:`play_group`: per agent
    the summed deal scores and places held, game wins and game seats held, contracts
    won, made, and the winning bids."""
    u = _unit()
    for game in games:
        u["games"] += 1
        u["deals"] += game["deals"]
        for (k, chair, agent, seat, score, is_sol, bid, contract, mk) in game["rows"]:
            u["score"][agent] += score
            u["places"][agent] += 1
            if is_sol:
                u["contracts"][agent] += 1
                u["made"][agent] += mk
                u["bids"][agent].append(bid)
        if game["winner_agent"] >= 0:
            u["wins"][game["winner_agent"]] += 1
        for a in game["seating"]:
            u["held"][a] += 1
    return u


# --------------------------------------------------------------------------- partners

def deal_hands(seed: int, d: int, spec: TeamSpec) -> np.ndarray:
    """The hands (uint8[5, 24]: four seats and the Dabb) of deal ``d`` of a partners' match."""
    hands = np.zeros((5, 24), dtype=np.uint8)
    deal_counts(chunk_state((seed, d), 0), spec.deck.copy(), hands, spec.hand_size)
    return hands


def _decide(kind, counts, seat, state, params, key, spec, memo, game=(0, 0)):
    """One partner seat's call: the next bid or PASS; ``memo[seat]`` keeps the open
    bidding's trump choice (V6.2).  ``kind`` is an agent of ``AGENT_KINDS``:

    - ``rule``: the rule of thumb (analyzer.mechanics.bidding): open bidding "meld +
      20 per expected trick" (+ a partner allowance), the duels (V1) the best meld + a
      fixed card-point estimate; minimum raises; its rule-of-thumb trump;
    - ``advisor-fit``: the fitted model of the team advisor's maximum bid
      (analyzer.analyses.bid_model_fit, no noise): bid the next bid while it is at most the
      model's value rounded down to the step;
    - ``advisor-la``: the team look-ahead (analyzer.analyses.lookahead): bid the next
      bid while the recommended plan reaches it; its model of the other seats
      ``params["la_model"]`` (default ``advisor``);
    - ``advisor``: the team advice (analyzer.analyses.advice_samples; fresh samples, the calls
      so far as evidence): bid the next bid while its expected objective is at least the
      pass value.  In a Dabb game every soloist exchanges and names trump with the same
      exchange policy (analyzer.mechanics.exchange.greedy_exchange).

    ``game``: the game totals by seat parity (seats 0+2, seats 1+3) before this deal,
    which the advisor with objective ``win`` reads (its own team first)."""
    nb = state.next_bid
    if kind == "rule":
        tmp = np.zeros(4, dtype=np.int64)
        if spec.open_auction:
            mb, trump = rule_of_thumb_by_tricks(counts, spec.tk, params["rv1"], params["rv2"], tmp)
            memo[seat] = int(trump)
        else:
            mb = rule_value_by_model(counts, spec.kr, params["rv1"], tmp) // spec.step * spec.step
        return nb if nb <= mb else PASS
    if kind == "advisor-fit":
        m = params["fit_model"]
        v, trump = partner_model_value(counts, seat, m.kind, m.coef_array(), float(m.offset), spec.tk,
                                    spec.kr, params["rv1"], params["rv2"],
                                    np.zeros(4, dtype=np.int64), np.zeros(len(m.coef_array())))
        if spec.open_auction:
            memo[seat] = int(trump)
        return nb if nb <= math.floor(v / spec.step) * spec.step else PASS
    if kind == "advisor-la":
        bid_on, trump = partners_lookahead_decision(counts, seat, state, params["samples"], key[0],
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
    max_bid, rows, _pass, _ess = summarize_partners_advice(raw, nb, spec.step, rows=1,
                                                       over_partner=bids_over_partner(state, seat, spec),
                                                       objective=objective, scores=scores)
    if rows[0]["trump"] is not None:
        memo[seat] = int(rows[0]["trump"])
    return nb if max_bid is not None else PASS


def play_arrangement(hands: np.ndarray, kinds_by_seat, params, seed, d, arr,
                     spec: TeamSpec, game=(0, 0)) -> tuple[int, int, int, int]:
    """One partners' deal with the given agent kind per seat: (score of seats 0 + 2,
    of seats 1 + 3, bidder, bid).  ``game``: the game totals by seat parity before the
    deal (public: every seat sees the score sheet)."""
    calls: list[int] = []
    state = parse_auction_for(calls, spec)
    memo: dict[int, int] = {}
    while not state.finished:
        seat = state.to_move
        if spec.forced_opening and not calls:
            call = spec.start              # forehand's forced opening (V5.2)
        else:
            call = _decide(kinds_by_seat[seat], hands[seat].copy(), seat, state, params,
                           ((seed, d, arr, len(calls)), 0), spec, memo, game)
        calls.append(call)
        state = parse_auction_for(calls, spec)
    res = np.zeros(RES_COLS, dtype=np.int64)
    beat = np.empty(24, dtype=np.int64)
    beat_table(spec.tk, beat)
    pol = play_policies(params.get("play", 1))      # the table's card play (--play)
    cnt = np.zeros((4, 24), dtype=np.uint8)
    rng = chunk_state((seed, d, arr), 1)
    if spec.open_auction:
        b = state.holder
        named_trump_contract(hands[:4], b, state.high, memo.get(b, 0) if b >= 0 else 0, pol, rng,
                        spec.tk, beat, cnt, res)
    else:
        b = state.holder
        dabb_contract(hands, b, state.high, pol, rng, spec.tk, spec.kr, beat, cnt, res)
    return int(res[R_SCORE]), int(res[R_SCORE + 1]), int(b), int(state.high)


def play_partners_game(kinds, params, seed, g, arr, spec: TeamSpec) -> dict:
    """One whole game of partners to the target (V4.6 1500, V5.7 1000, V6.6 3550), agent
    kinds ``kinds`` = (team X, team Y); returns its record.

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


def _partner_rows(u: dict, rows) -> None:
    """Add deal rows ``(score X, score Y, bidder's team or -1, bid)`` to unit ``u``."""
    for r in rows:
        u["deals"] += 1
        for a in (0, 1):
            u["score"][a] += r[a]
            u["places"][a] += 1
        if r[2] < 0:
            u["thrown"] += 1
        else:
            a = r[2]
            u["contracts"][a] += 1
            u["made"][a] += r[a] >= 0
            u["bids"][a].append(r[3])


def play_game_pair(kinds, params, seed, g, spec: TeamSpec) -> dict:
    """Game ``g`` twice, the teams' seats swapped (duplicate): the unit record
    (:func:`summarize`) of the pair's games and deals."""
    u = _unit()
    for arr in (0, 1):
        gm = play_partners_game(kinds, params, seed, g, arr, spec)
        u["games"] += 1
        _partner_rows(u, gm["rows"])
        u["wins"][gm["winner"]] += 1
        for a in (0, 1):
            u["held"][a] += 1
    return u


def play_deal_pair(kinds, params, seed, d, spec: TeamSpec) -> dict:
    """Deal ``d`` in both arrangements (team X in seats 0 + 2, then 1 + 3): the unit
    record (:func:`summarize`; no game, so no wins)."""
    hands = deal_hands(seed, d, spec)
    u = _unit()
    for arr in (0, 1):
        x_team = arr        # arrangement 0: X in seats 0+2; 1: X in seats 1+3
        by_seat = [kinds[0] if p % 2 == x_team else kinds[1] for p in range(4)]
        s0, s1, b, bid = play_arrangement(hands, by_seat, params, seed, d, arr, spec)
        sc = (s0, s1)
        _partner_rows(u, [(sc[x_team], sc[1 - x_team],
                           -1 if b < 0 else (0 if b % 2 == x_team else 1), bid)])
    return u


def _partner_params(samples, la_model, objective, code, spec: TeamSpec) -> dict:
    """The partner agents' settings: the rule bidders' defaults (V1 duels: a fixed
    card-point estimate; V6.2: points per expected trick + a partner allowance) and the
    advisor's evidence scale and partner offset (analyzer.analyses.advice_samples)."""
    return {"samples": int(samples),
            "rv1": DEFAULT_TRICK_VALUE if spec.open_auction else DEFAULT_DABB_ESTIMATE,
            "rv2": DEFAULT_PARTNER_ALLOWANCE if spec.open_auction else 0,
            "scale": float(DEFAULT_EVIDENCE_SCALE), "partner_scale": None,
            "partner_offset": int(ADVISOR_PARTNER_OFFSET[spec.open_auction]),
            "la_model": la_model, "objective": objective, "play": code}


# --------------------------------------------------------------------------- statistics

def _unit() -> dict:
    """An empty unit record: per agent (index 0 = agent 1) the summed deal scores and the
    places (deals) they were taken over, game wins and game seats held, contracts won,
    made, the winning bids; and the unit's games, deals played and thrown-in deals."""
    return {"score": [0, 0], "places": [0, 0], "wins": [0, 0], "held": [0, 0],
            "contracts": [0, 0], "made": [0, 0], "bids": [[], []],
            "games": 0, "deals": 0, "thrown": 0}


@dataclass
class AgentStats:
    """One agent's (one side's) row: points per deal and game win rate with SE, its
    contracts (auctions won) and how many were made, over ``places`` deals held."""

    name: str
    points_per_deal: float
    points_se: float
    win_rate: float
    win_se: float
    contracts: int
    made: int
    places: int
    mean_winning_bid: float

    @property
    def soloist_rate(self) -> float:
        return float(self.contracts / self.places)

    @property
    def made_rate(self) -> float:
        return float(self.made / max(self.contracts, 1))

    def to_dict(self) -> dict:
        return dict(name=self.name, points_per_deal=self.points_per_deal,
                    points_se=self.points_se, win_rate=self.win_rate, win_se=self.win_se,
                    soloist_rate=self.soloist_rate, made_rate=self.made_rate,
                    mean_winning_bid=self.mean_winning_bid)


def _se(x: np.ndarray) -> float:
    return float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else float("nan")


def _se_text(se: float, unit: str = "") -> str:
    """``SE 3.1`` or, from a single pair, ``SE not estimable`` (never nan)."""
    return f"SE {se:.1f}{unit}" if math.isfinite(se) else "SE not estimable"


def z_text(z: float, pairs: int, unit: str, against: str = "") -> str:
    """``z = +1.23`` (with ``against``), or why z is not estimable: with fewer than two
    units there is no spread to estimate, and when every unit gave the same result (e.g.
    each game pair split 1 : 1, as two arrangements of the same cards often do, or
    identical agents) the standard error is 0.  Never prints nan."""
    if math.isfinite(z):
        return f"z = {z:+.2f}{against}"
    if pairs < 2:
        return f"z not estimable: {pairs} {unit}, a standard error needs two or more"
    return (f"z not estimable: all {pairs} {unit} gave the same result (standard error 0); "
            f"play more")


def _finite(v: float):
    return v if math.isfinite(v) else None


@dataclass
class TournamentResult:
    """A duplicate match's summary, for every table (units are the independent samples).

    ``stats``: one row per agent (side); ``diff``, ``diff_se``, ``z``: agent 1 - agent 2
    in points per deal, paired; ``win_diff``, ``win_diff_se``: the game win rates'
    difference, and ``win_z`` agent 1's win rate against 1/2 (partners); ``groups``: the
    units (groups, game pairs, or deals of a match of single deals); ``games``, ``deals``:
    the games and deals played; ``thrown``: deals nobody bid; ``target``: the game's
    target score; ``partners``: the table (V1) the text and JSON are laid out for.
    """

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
    win_z: float = float("nan")
    thrown: int = 0
    target: int = 0
    partners: bool = False

    @property
    def single_deals(self) -> bool:
        return self.params.get("match") == "deals"

    @property
    def contracts(self) -> dict:
        """Contracts won and made per side (X = agent 1), and deals thrown in."""
        x, y = self.stats
        return {"x_bids": x.contracts, "y_bids": y.contracts, "x_made": x.made,
                "y_made": y.made, "thrown": self.thrown}

    def to_dict(self) -> dict:
        if self.partners:
            return self._partners_dict()
        return dict(agents=list(self.agents), groups=self.groups, games=self.games,
                    deals=self.deals, seed=self.seed, stats=[s.to_dict() for s in self.stats],
                    points_per_deal_diff=self.diff, points_per_deal_diff_se=self.diff_se,
                    z=_finite(self.z), win_rate_diff=self.win_diff,
                    win_rate_diff_se=self.win_diff_se, params=self.params)

    def _partners_dict(self) -> dict:
        x, y = self.stats
        p = self.params
        games = 0 if self.single_deals else self.games
        return {"rules": p["rules"], "agents": list(self.agents), "deals": self.groups,
                "seed": self.seed, "samples": p["samples"], "x_mean": x.points_per_deal,
                "x_se": _finite(x.points_se), "y_mean": y.points_per_deal,
                "y_se": _finite(y.points_se), "diff_mean": self.diff,
                "diff_se": _finite(self.diff_se), "z": _finite(self.z),
                "contracts": self.contracts, "games": games,
                "deals_played": self.deals if games else 0,
                "x_win_rate": _finite(x.win_rate), "win_se": _finite(x.win_se),
                "win_z": _finite(self.win_z), "objective": p["objective"],
                **({} if p["play"] == "heuristic" else {"play": p["play"]})}

    def summary(self) -> str:
        return self._partners_summary() if self.partners else self._chairs_summary()

    def _chairs_summary(self) -> str:
        a, b = self.agents
        single = self.single_deals
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
        z = z_text(self.z, self.groups, "deals" if single else "groups")
        if single:
            lines.append(f"points per deal, agent 1 - agent 2: {self.diff:+.1f} ± "
                         f"{self.diff_se:.1f} ({z}); single deals: no game win rate")
            return "\n".join(lines)
        lines.append(f"points per deal, agent 1 - agent 2: {self.diff:+.1f} ± {self.diff_se:.1f} "
                     f"({z}); win rate difference {100 * self.win_diff:+.1f} ± "
                     f"{100 * self.win_diff_se:.1f} points")
        return "\n".join(lines)

    def _partners_summary(self) -> str:
        a, b = self.agents
        x, y = self.stats
        c = self.contracts
        p = self.params
        play = "" if p["play"] == "heuristic" else f", play {p['play']}"
        if self.single_deals:
            head = (f"{p['rules']} duplicate match: {a} team vs {b} team, {self.groups} deals x 2 "
                    f"arrangements (seed {self.seed}, advisor samples {p['samples']}{play})")
        else:
            head = (f"{p['rules']} duplicate match: {a} team vs {b} team, {self.groups} game "
                    f"pairs = {self.games} whole games to {self.target}, "
                    f"{self.deals} deals (seed {self.seed}, advisor samples {p['samples']}"
                    + (", advisor objective P(win game)" if p["objective"] == "win" else "")
                    + f"{play})")
        lines = [
            head,
            f"{a:>8} team: {x.points_per_deal:+8.1f} points per deal ({_se_text(x.points_se)}); "
            f"contracts {c['x_bids']}, made {c['x_made']}",
            f"{b:>8} team: {y.points_per_deal:+8.1f} points per deal ({_se_text(y.points_se)}); "
            f"contracts {c['y_bids']}, made {c['y_made']}",
            f"thrown in: {c['thrown']} of {self.deals}",
            f"difference {a} - {b}: {self.diff:+.1f} per deal ({_se_text(self.diff_se)}), "
            + z_text(self.z, self.groups, "deal pairs"),
        ]
        if not self.single_deals:
            lines.append(f"game win rate of the {a} team: {100 * x.win_rate:.1f}% "
                         f"({_se_text(100 * x.win_se, '%')}), "
                         + z_text(self.win_z, self.groups, "game pairs", " against 50%"))
        return "\n".join(lines)


def summarize(agents_names, units: list[dict], seed, params, partners: bool = False,
              target: int = 0) -> TournamentResult:
    """The match's figures from its unit records (:func:`_unit`), for every table."""
    G = len(units)
    ppd = np.zeros((G, 2))
    win = np.zeros((G, 2))
    for g, u in enumerate(units):
        ppd[g] = np.array(u["score"], dtype=float) / np.array(u["places"], dtype=float)
        win[g] = np.array(u["wins"], dtype=float) / np.array(u["held"], dtype=float) \
            if u["games"] else np.nan
    if params.get("match") == "deals":
        win[:] = np.nan                # one deal decides no game (R9)
    tot = {k: [sum(u[k][a] for u in units) for a in (0, 1)]
           for k in ("contracts", "made", "places")}
    stats = []
    for a in range(2):
        bids = [b for u in units for b in u["bids"][a]]
        stats.append(AgentStats(agents_names[a], float(ppd[:, a].mean()), _se(ppd[:, a]),
                                float(win[:, a].mean()), _se(win[:, a]),
                                int(tot["contracts"][a]), int(tot["made"][a]),
                                int(tot["places"][a]),
                                float(np.mean(bids)) if bids else float("nan")))
    d = ppd[:, 0] - ppd[:, 1]
    dse = _se(d)
    wd = win[:, 0] - win[:, 1]
    wse = stats[0].win_se
    win_z = (float((stats[0].win_rate - 0.5) / wse) if partners and wse > 0
             else float("nan"))
    return TournamentResult(tuple(agents_names), G, sum(u["games"] for u in units),
                            sum(u["deals"] for u in units), seed, stats,
                            float(d.mean()), dse, float(d.mean() / dse) if dse > 0 else float("nan"),
                            float(wd.mean()), _se(wd), params, win_z=win_z,
                            thrown=sum(u["thrown"] for u in units), target=target,
                            partners=partners)


# --------------------------------------------------------------------------- the match

def _units_chunk(kinds, params, seed, units, rules):
    """The unit records of ``units`` (each seeded by (seed, unit) only)."""
    single = params.get("match") == "deals"
    if has_partners(rules):
        spec = team_spec(rules)
        one = play_deal_pair if single else play_game_pair
        return [one(kinds, params["partners"], seed, d, spec) for d in units]
    agents = tuple(make_agent(k, samples=params["samples"], objective=params["objective"],
                              seed=seed, trick_estimate=params["trick_estimate"], rules=rules,
                              opponents=params.get("opponents"))
                   for k in kinds)
    policy = resolve_play(params.get("play", "heuristic"), rules)
    max_deals = 1 if single else MAX_GAME_DEALS
    return [group_unit(play_group(agents, seed, g, rules, policy, max_deals)) for g in units]


def _check(agent1, agent2, groups, deals, samples, objective, trick_estimate, opponents,
           rules) -> None:
    """One-line BinokelErrors for bad parameters, before any deal is played."""
    partners = has_partners(rules)
    for k in (agent1, agent2):
        if k not in AGENT_KINDS:
            raise BinokelError(f"unknown agent {k!r}: use {', '.join(AGENT_KINDS)}")
    objectives = ("relative", "win") if partners else ("relative", "own", "win")
    if objective not in objectives:
        raise BinokelError(
            "a team game's advisor objective is relative (the team's score minus the other "
            "team's, V1) or win (P(win game) from the scores)" if partners else
            f"unknown objective {objective!r}: use relative, own or win")
    if deals is not None:
        if objective == "win":
            raise BinokelError("objective win reads the game scores: it needs whole games "
                               "(groups), not deals")
        if not 2 <= deals <= MAX_MATCH_DEALS:
            raise BinokelError(f"deals must be between 2 (standard errors need two) and "
                               f"{MAX_MATCH_DEALS:,}, got {deals:,}")
    else:
        if groups < 2:
            raise BinokelError(f"groups must be at least 2 (standard errors need two), got {groups}")
        if groups > MAX_GROUPS:
            raise BinokelError(f"groups must be at most {MAX_GROUPS:,}, got {groups:,}")
    if objective == "win" and partners and "advisor" not in (agent1, agent2):
        raise BinokelError("objective win is the advisor agent's: give advisor as one of the agents")
    if not 1 <= samples <= MAX_SAMPLES:
        raise BinokelError(f"samples must be between 1 and {MAX_SAMPLES:,}, got {samples:,}")
    if not 0 <= trick_estimate <= MAX_TRICK_ESTIMATE:
        raise BinokelError(f"trick estimate must be between 0 and {MAX_TRICK_ESTIMATE} card "
                           f"points (a deal has 250, R7), got {trick_estimate}")
    if opponents is not None:
        if partners:
            if "advisor-la" not in (agent1, agent2):
                raise BinokelError("--opponents is the advisor-la agent's model: give "
                                   "advisor-la as one of the agents")
            partners_model(opponents, team_spec(rules))
        else:
            get_opponent_model(opponents, rules)


def run_tournament(agent1: str = "advisor", agent2: str = "rule", groups: int = 50, seed: int = 0,
                   samples: int = 200, objective: str = "relative",
                   trick_estimate: int = DEFAULT_TRICK_ESTIMATE, n_jobs: int = 1,
                   progress=None, rules: RuleSet = DEFAULT_RULES,
                   opponents: str | None = None, play: str = "heuristic",
                   deals: int | None = None) -> TournamentResult:
    """Play a duplicate match (see module docstring) on any auction game's table and
    summarize it.  Raises BinokelError (one line) on bad parameters.

    Parameters
    ----------
    agent1, agent2 : {"advisor", "rule", "advisor-la", "advisor-fit"}
        The two bidding agents (the same kind twice = self-play): ``advisor-la`` is the
        look-ahead advisor, ``advisor-fit`` the fitted model of the advisor
        (analyzer.analyses.agents; partners: :func:`_decide`).
    groups : int
        Units of whole games: three chairs, 6 full games (R9) on one deal stream;
        partners, a game pair (each game to the target, the teams' seats swapped).
    deals : int, optional
        Instead of ``groups``: a match of ``deals`` single deals, each played under every
        arrangement from zero scores (no game win rate; objective not ``win``).
    seed : int
        Same seed -> same result for any ``n_jobs``.
    samples : int
        The advisor's samples per bidding decision.
    objective : {"relative", "own", "win"}
        The advisor agent's objective ("win": estimated P(win game) from the scores, R9;
        partners: relative or win).
    trick_estimate : int
        The three-chair rule-of-thumb agent's fixed card-point estimate (the partners'
        rule bidders keep their games' defaults, analyzer.mechanics.bidding).
    n_jobs : int
        joblib workers (units are distributed; results do not depend on it).
    progress : callable, optional
        Called with the number of finished units.
    opponents : {"rule", "advisor"}, optional
        The look-ahead agent's model of the other seats (None = its default).
    play : {"heuristic", "pimc", "pimc-defence"}
        Card play of the table's deals after the exchange (PIMC at every seat, or PIMC
        defenders against the heuristic soloist).  The agents' bidding simulations keep
        the heuristic.  Same deals and seeds either way.
    """
    code = resolve_play(play, rules)
    _check(agent1, agent2, groups, deals, samples, objective, trick_estimate, opponents, rules)
    partners = has_partners(rules)
    n_units = groups if deals is None else deals
    if partners:
        spec = team_spec(rules)
        pp = _partner_params(samples, opponents, objective, code, spec)
        if "advisor-fit" in (agent1, agent2):
            pp["fit_model"] = fitted_partners_model(spec)
            if pp["fit_model"] is None:
                raise BinokelError(f"no fitted team advisor model for {spec.name}: fit one with "
                                   f"'binokel fit-opponents --rules {spec.name}'")
        params = dict(rules=spec.name, samples=int(samples), objective=objective,
                      play=play_name(code), partners=pp)
        target = int(spec.tk.target_score)
    else:
        params = dict(samples=int(samples), objective=objective,
                      trick_estimate=int(trick_estimate), rules=rules.name, opponents=opponents,
                      play=play_name(code))
        target = int(rules.kernel.target_score)
    if deals is not None:
        params["match"] = "deals"     # only then: the pinned whole-game params stay as they were
    kinds = (agent1, agent2)
    workers = resolve_jobs(n_jobs)
    # chunks of units: a few whole games, or ten single deals; the numbers never depend
    # on them (each unit is seeded by (seed, unit))
    size = 10 if deals is not None and partners else (4 if workers != 1 else 2)
    batches = [list(range(i, min(i + size, n_units))) for i in range(0, n_units, size)]
    out: list[dict] = []
    for b, res in zip(batches, parallel_map(_units_chunk, [(kinds, params, seed, b, rules)
                                                           for b in batches],
                                            workers, len(batches))):
        out.extend(res)
        if progress:
            progress(len(b))
    if partners:
        params.pop("partners")
        return summarize(kinds, out, int(seed), params, partners=True, target=target)
    return summarize((f"{agent1}", f"{agent2}"), out, seed,
                     dict(params, agent1=agent1, agent2=agent2), target=target)
