"""The decisions before play, valued from the soloist's view: ``binokel hint --exchange``
(issue 27).

Input: the soloist's cards after taking the Dabb (``hand + Dabb``, R4), the winning bid
(R3) and the soloist's seat in play (who leads: forehand in a trump contract, R6; the
soloist in a Durch, R4).  Nothing else about the deal is an input, so the hint cannot
depend on the defenders' hands (tests/analyses/test_exchange_hint.py changes them in a
record and checks that the hint does not move).

Output (:class:`ExchangeHint`): a table of the soloist's options, each with its expected
deal score for the soloist (R8, R4) as mean, SE and n over the same worlds:

- the best ``k`` discards (the RuleSet's Dabb size of cards laid away, R4 / V5.3), each
  with its best trump (any of the four suits, R4), played;
- going out (surrender: R4, V2.4, V5.4) at the bid, where the game has it: priced by the
  RuleSet's scoring (:func:`analyzer.mechanics.scoring.score_kernel`, ``DEAL_SURRENDER``:
  minus the bid), the same in every world;
- Durch (R4) and open Durch (V2.7) where the game has them, with the discard that
  leaves the fewest cards that can lose.

Machinery reused, not rewritten: the candidates are the fast evaluator's shortlist
(:func:`analyzer.mechanics.exchange.exchange_shortlist`: the best ``k`` discards per trump
and the best Durch discard), and every candidate is played by
:func:`analyzer.mechanics.exchange.candidate_outcomes` -- the analyzer's own Monte Carlo
exchange: the unseen cards (not in hand, Dabb or discard) dealt uniformly to the two
defenders, heuristic play -- on the *same* worlds with the same play streams (common
random numbers).  So each option's difference to the best has a small paired SE, which
the table reports.

The auction (R3; V1, V6.2): given the record's calls, each world is weighted by the
likelihood of the other seats' calls given their hands in it
(:func:`exchange_world_weights`, which asks :func:`analyzer.analyses.hint_auction.
world_weights`: the model of ``binokel advise`` and of ``binokel hint``): the options'
means are weighted, their SE and the paired differences' SE at Kish's effective n, and
worlds of weight 0 are left out and counted.  Without calls, or with
``auction_weights=False``, the worlds are uniform and the numbers those of uniform
worlds, bit for bit.  The soloist's own calls say nothing it does not know: only the
other seats' calls weigh.

Games: every game with a Dabb (R4), the RuleSet says which: a lone soloist's (binokel-48,
grupp-3, grupp-4, binokel-40) as above; a game without a Dabb has no exchange (R4) and is
refused in one line.

A partners' table with a Dabb (kreuz-48 V4, kreuz-40 V5; asked of the RuleSet: a Dabb and
the partners' side rule, V1): the soloist takes the Dabb, lays away the Dabb's size of
cards (their points count for its team, V4.2, V5.3) and names trump; it may go out (V4.3,
V5.4) or, where the game has one, declare Durch or open Durch instead of trump (V4.6
"Durch as V2.7").  Nothing passes between the partners before the play: the partner's
hand stays hidden from the soloist, so the worlds deal every card the soloist does not
hold (partner's and opponents' hands alike, :func:`analyzer.mechanics.sampling.
deal_counts_fixed`) uniformly to the three other seats.  Candidates: the same shortlist
(the best ``k`` discards per trump by the side estimate's weights, ``kr.est_weights``),
the greedy exchange the simulations' soloist makes
(:func:`analyzer.mechanics.exchange.soloist_choice`) and the Durch discards of both;
each is played by :func:`side_option_outcomes` (the partners' heuristic at every seat,
:func:`analyzer.search.partner_deals._play_trump_contract` / ``_play_durch``) on the same
worlds and play streams.  The value is the soloist's *side's* deal score (V4.6, V5.7:
the RuleSet's :func:`analyzer.mechanics.scoring.score_sides`, ``score_sides_going_out``,
``score_sides_durch``: the partners' counterparts of ``score_kernel``).  The table also
marks the option the simulations' rule of thumb takes (:func:`rule_option`: the greedy
exchange and :func:`analyzer.mechanics.game.contract_for_bid`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer._jit import njit
from analyzer.bounds import AUCTION_BID, HINT_DISCARDS
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_TYPES, SUIT_LETTERS, card_code
from analyzer.mechanics.exchange import (CONTRACT_DURCH, CONTRACT_OPEN_DURCH, CONTRACT_SURRENDER,
                                         candidate_outcomes, exchange_shortlist, soloist_choice)
from analyzer.mechanics.game import R_SCORE, RES_COLS, contract_for_bid
from analyzer.mechanics.play import POLICY_HEURISTIC, beat_table
from analyzer.mechanics.record import in_play_seats
from analyzer.mechanics.rng import chunk_state, next_u64
from analyzer.mechanics.rules import get_rules, team_spec
from analyzer.mechanics.ruleset import SIDES_SOLO, RuleSet, get_game
from analyzer.mechanics.sampling import deal_counts_fixed, deal_masks, mask_counts
from analyzer.mechanics.exchange import unseen_cards
from analyzer.analyses.hint_auction import world_weights
from analyzer.analyses.weighted_stats import effective_sample_size, weighted_mean
from analyzer.mechanics.scoring import (DEAL_SURRENDER, score_kernel, score_sides_durch,
                                        score_sides_going_out)
from analyzer.search.partner_deals import _play_durch, _play_trump_contract

DEFAULT_K = 5
MAX_K = HINT_DISCARDS.hi   # discards in the table (each costs 4 candidates' play-outs)
DEFAULT_WORLDS = 200
MAX_WORLDS = 20_000    # ~4 x k + 1 heuristic play-outs per world

PLAY, OUT, DURCH, OPEN_DURCH = "play", "out", "durch", "open-durch"


@dataclass(frozen=True)
class Option:
    """One option: ``kind`` (play / out / durch / open-durch), ``discard`` (card types, ()
    for going out), ``trump`` (0..3, -1 none), the soloist's mean deal score and its SE
    over ``n`` worlds, and the paired difference to the best option with its SE."""

    kind: str
    discard: tuple
    trump: int
    mean: float
    se: float
    n: int
    diff: float          # mean - best mean (0 for the best)
    diff_se: float       # paired SE of that difference (same worlds)
    rule: bool = False   # the simulations' rule of thumb takes it (partners' tables)
    ess: float | None = None   # Kish's effective n of the auction weights (None: uniform)

    def label(self, low: str = "9") -> str:
        """``low``: the deck's low card (R1 "9", V1 "7"), so the label parses back."""
        if self.kind == OUT:
            return "go out"
        what = SUIT_LETTERS[self.trump] if self.kind == PLAY else self.kind
        return f"{what} discard {' '.join(card_code(t, low) for t in self.discard)}"


@dataclass(frozen=True)
class ExchangeHint:
    rules: str
    soloist: int         # seat in play, 0 = forehand
    bid: int
    cards: tuple         # the soloist's counts after taking the Dabb
    options: tuple       # Option, best first
    worlds: int
    seed: int
    partners: bool = False   # a partners' table (V1): the side's score, three hidden hands
    ess: float | None = None   # Kish's effective n of the auction weights (None: uniform)
    dropped: int = 0           # worlds of auction weight 0 left out (R3)

    def to_dict(self) -> dict:
        low = _game(self.rules).deck.low_card
        rule = [o.label(low) for o in self.options if o.rule]
        return {
            "rules": self.rules, "soloist": self.soloist, "bid": self.bid,
            "cards": " ".join(card_code(t, low) for t in range(N_TYPES)
                              for _ in range(self.cards[t])),
            "worlds": self.worlds, "seed": self.seed, "partners": self.partners,
            # R3: the worlds weighted by the other seats' calls (effective n), or not
            "auction_weights": self.ess is not None,
            "effective_worlds": None if self.ess is None else round(self.ess, 1),
            "dropped_worlds": self.dropped,
            "score": "the soloist's side's deal score (V4.6, V5.7)" if self.partners
                     else "the soloist's deal score (R8, R4)",
            "best": self.options[0].label(low),
            "rule_choice": rule[0] if rule else None,
            "options": [{"option": o.label(low), "kind": o.kind,
                         "discard": [card_code(t, low) for t in o.discard],
                         "trump": SUIT_LETTERS[o.trump] if o.trump >= 0 else None,
                         "mean": o.mean, "se": o.se, "n": o.n,
                         "diff": o.diff, "diff_se": o.diff_se, "rule": o.rule,
                          "effective_n": None if o.ess is None else round(o.ess, 1)}
                        for o in self.options],
        }


def _game(rules):
    """The nested RuleSet (its compiled kernel says what the table has) of ``rules``, a
    nested RuleSet, the flat view of one (analyzer.mechanics.rules) or a game's name."""
    if isinstance(rules, str):
        return get_game(rules)
    return rules if isinstance(rules, RuleSet) else get_game(rules.name)


def check_exchange_game(rules) -> None:
    """Raise a one-line BinokelError unless ``rules`` has the soloist's exchange: a Dabb
    (R4; at a lone soloist's table or at a partners' one, V4.2, V5.3).  Asks the compiled
    RuleSet, never the game's name."""
    game = _game(rules)
    kr = game.kernel
    if kr.dabb_size <= 0:
        raise BinokelError(f"--exchange: {rules.name} has no Dabb, so no exchange before "
                           f"the play (R4; {rules.name}: {game.section})")


def has_partners(rules) -> bool:
    """Whether ``rules`` is a partners' table (V1: the side rule of its RuleSet)."""
    return _game(rules).kernel.side_rule != SIDES_SOLO


def check_bid(rules, bid: int) -> None:
    """The bid must be one the auction can reach (R3: the opening bid, then raises of one
    step)."""
    kr = _game(rules).kernel
    if bid < kr.bid_start or (bid - kr.bid_start) % kr.bid_step or bid > AUCTION_BID.hi:
        raise BinokelError(f"--bid {bid}: a winning bid in {rules.name} is {kr.bid_start} "
                           f"or more, in steps of {kr.bid_step}, at most {AUCTION_BID.hi} (R3)")


def _score_play(total, tricks, bid, kr):
    """R8: +total with a trick and total >= bid, else -loss_factor x bid (vectorised)."""
    return np.where((tricks > 0) & (total >= bid), total, -kr.loss_factor * bid).astype(float)


def _score_durch(tricks, value, kr):
    """R4 / V2.7: +value with every trick, else -durch_loss_factor x value."""
    return np.where(tricks == kr.hand_size, value, -kr.durch_loss_factor * value).astype(float)


def going_out_score(rules, bid: int) -> int:
    """The soloist's score for going out at ``bid``, from the RuleSet's scoring (R4)."""
    rules = get_rules(rules)
    out = np.zeros(3, dtype=np.int64)
    z = np.zeros(3, dtype=np.int64)
    score_kernel(DEAL_SURRENDER, bid, 0, z, z, z, rules.kernel, out)
    return int(out[0])


def exchange_hint(rules, cards, bid: int, soloist: int = 0, k: int = DEFAULT_K,
                  worlds: int = DEFAULT_WORLDS, seed: int = 0, auction=None,
                  auction_weights: bool | None = None) -> ExchangeHint:
    """The soloist's options before play, valued over ``worlds`` common worlds.

    ``cards``: 24 counts, the soloist's hand with the Dabb taken (hand_size + Dabb size
    cards, R4); ``bid``: the winning bid (R3); ``soloist``: seat in play 0..2 (a table
    seat 0..3 at a partners' table); ``k``: how many discards to list (1..MAX_K);
    ``seed``: the worlds' seed (same seed, same numbers).  ``auction``: the record's calls
    ``((table seat, call), ...)`` or None; with calls and ``auction_weights`` not False
    the worlds are weighted by the other seats' calls (module docstring; the options'
    ``n`` the worlds kept, ``ess`` their effective n, ``dropped`` the worlds of weight 0).
    Returns an :class:`ExchangeHint` with the options best first.  Raises a one-line
    BinokelError for a game without the exchange, a wrong number of cards or a bad bid,
    or when no world explains the calls.
    """
    partners = has_partners(rules)
    rule = rule_option(rules, cards, bid) if partners else None
    use_w = uses_auction(rules, auction, auction_weights)
    got = {} if use_w else None
    rows, ri = option_scores(rules, cards, bid, soloist, k, worlds, seed, rule, got)
    wts = ess = None
    dropped = 0
    if use_w:
        rows, wts, ess, dropped = weigh_rows(rules, auction, got, rows)
    mean = _mean if wts is None else (lambda x: float((wts * x).sum() / wts.sum()))
    rules = get_rules(rules)
    # the table: each of the best k discards with its best trump, then going out and
    # Durch (the best discard of each kind), and the rule of thumb's option wherever it is
    scored = []            # (kind, discard, trump, scores[worlds])
    best_per_discard: dict[tuple, tuple] = {}
    best_per_kind: dict[str, tuple] = {}
    for kind, d, t, s in rows:
        if kind == PLAY and (d not in best_per_discard
                             or mean(s) > mean(best_per_discard[d][3])):
            best_per_discard[d] = (PLAY, d, t, s)
        if kind != PLAY and (kind not in best_per_kind
                             or mean(s) > mean(best_per_kind[kind][3])):
            best_per_kind[kind] = (kind, d, t, s)
    plays = sorted(best_per_discard.values(), key=lambda o: -mean(o[3]))[:k]
    scored.extend(plays)
    scored.extend(best_per_kind.values())
    rule_key = None if ri is None else rows[ri][:3]
    if rule_key is not None and all(o[:3] != rule_key for o in scored):
        scored.append(rows[ri])
    scored.sort(key=lambda o: -mean(o[3]))
    best = scored[0][3]
    opts = []
    for kind, d, t, s in scored:
        diff = s - best
        if wts is None:
            opts.append(Option(kind, d, t, float(s.mean()), _se(s), worlds,
                               float(diff.mean()), _se(diff), (kind, d, t) == rule_key))
        else:
            m, se = _wmean_se(s, wts, ess)
            dm, dse = _wmean_se(diff, wts, ess)
            opts.append(Option(kind, d, t, m, se, len(wts), dm, dse, (kind, d, t) == rule_key,
                               ess))
    counts = np.asarray(cards, dtype=np.uint8)
    return ExchangeHint(rules.name, soloist, int(bid), tuple(int(c) for c in counts),
                        tuple(opts), worlds, seed, partners, ess, dropped)


def _mean(x: np.ndarray) -> float:
    return x.mean()


def _wmean_se(x: np.ndarray, w: np.ndarray, ess: float) -> tuple[float, float]:
    """The weighted mean of ``x`` and its SE at Kish's effective n ``ess``
    (analyzer.analyses.weighted_stats.weighted_mean; 0 for a single effective world, as
    :func:`_se` gives for one world)."""
    x = np.asarray(x, dtype=np.float64)
    if len(x) and (x == x[0]).all():     # the same in every world (going out): exact
        return float(x[0]), 0.0
    e = weighted_mean(x, w, ess)
    return e.mean, (e.se if ess > 1.0 else 0.0)


def uses_auction(rules, auction, auction_weights: bool | None) -> bool:
    """Whether the exchange's worlds are weighted by the auction: the game has one (R3;
    V7.1: binokel-2 has none), ``auction`` holds calls, and ``auction_weights`` is not
    False (None: on)."""
    return (auction_weights is not False and auction is not None and len(auction) > 0
            and _game(rules).auction.form != "none")


def exchange_world_weights(rules, auction, soloist: int, hands: np.ndarray) -> np.ndarray:
    """The auction likelihood of each exchange world (float64[n]): the product over the
    table seats other than the soloist of the likelihood of their calls given their
    dealt hands (:func:`analyzer.analyses.hint_auction.world_weights`, R3).  ``auction``:
    ``((table seat, call), ...)``; ``soloist``: its table seat; ``hands``
    int[n, table seats, 24]: each seat's hand in the world before any card is played (the
    defenders' -- at a partners' table the three other seats' -- as dealt; the soloist's
    row is its own cards and is not read: its own calls are no evidence to it).  At the
    exchange nothing is played and the Dabb is in the soloist's hand, so the view handed
    to ``world_weights`` has no played cards, no Dabb and no discard to add."""
    from types import SimpleNamespace

    game = _game(rules)
    z = np.zeros(N_TYPES, dtype=np.int64)
    view = SimpleNamespace(rules=game, auction=tuple(auction), seat=int(soloist),
                           soloist=int(soloist),
                           played_by=np.zeros((game.table.seats, N_TYPES), dtype=np.int64),
                           dabb=z, discard=z)
    return world_weights(view, hands, np.zeros((len(hands), N_TYPES), dtype=np.int64))


def weigh_rows(rules, auction, got: dict, rows: list):
    """The auction weights of :func:`option_scores`' worlds (``got`` its per-world
    hands) and its rows restricted to the worlds of positive weight.  Returns ``(rows,
    weights, ess, dropped)``; a one-line BinokelError when every weight is 0 (R3)."""
    wts = exchange_world_weights(rules, auction, got["soloist"], got["hands"])
    keep = np.isfinite(wts) & (wts > 0)
    dropped = int(len(wts) - keep.sum())
    if not keep.any():
        raise BinokelError(f"--exchange: none of the {len(wts)} worlds explains the auction "
                           "(every weight 0, R3): try --no-auction-weights")
    rows = [(kind, d, t, s[keep]) for kind, d, t, s in rows]
    wts = wts[keep]
    return rows, wts, effective_sample_size(wts), dropped


@njit
def exchange_worlds(counts18, soloist, m, state, kr, out_hands, out_play):
    """The worlds :func:`analyzer.mechanics.exchange.candidate_outcomes` deals from the
    same ``state`` (uint64[4], advanced the same way): ``out_hands[i, q]`` (uint8[m, 3,
    24]) each seat in play's hand in world ``i``, the soloist's its ``counts18`` (hand +
    Dabb, R4), the two defenders' the unseen cards dealt as that kernel deals them (the
    same draws: the deal, then the world's play stream's four words, which the play-outs
    use); ``out_play`` uint64[m or 0, 4]: when it has ``m`` rows, world ``i``'s play
    stream.  tests/analyses/test_exchange_weights.py replays each world's play-out from
    these and checks it against the kernel's."""
    deck = np.empty(48, dtype=np.uint8)
    nd = unseen_cards(counts18, kr.copies, deck)
    deck = deck[:nd]
    sizes = np.empty(2, dtype=np.int64)
    sizes[0] = nd // 2
    sizes[1] = nd - nd // 2
    masks = np.empty(2, dtype=np.int64)
    opp1 = (soloist + 1) % 3
    opp2 = (soloist + 2) % 3
    for i in range(m):
        deal_masks(state, deck, sizes, masks)
        mask_counts(masks[0], out_hands[i, opp1])
        mask_counts(masks[1], out_hands[i, opp2])
        for t in range(N_TYPES):
            out_hands[i, soloist, t] = counts18[t]
        for q in range(4):
            w = next_u64(state)
            if out_play.shape[0] > i:
                out_play[i, q] = w


def _shortlist(counts, kr, k: int):
    """The shortlist of both tables (R4, V4.2, V5.3): the best ``k`` discards for each
    trump by the fast value, as (sorted discard types, trump) pairs, and the best Durch
    discard's sorted types."""
    D = kr.tapp_size
    disc = np.empty((4 * k, D), dtype=np.int64)
    tr = np.empty(4 * k, dtype=np.int64)
    val = np.empty(4 * k, dtype=np.float64)
    ddisc = np.empty(D, dtype=np.int64)
    exchange_shortlist(counts, kr, kr.est_weights, k, disc, tr, val, ddisc)
    cands = [(tuple(sorted(int(x) for x in disc[i])), int(tr[i]))
             for i in range(4 * k) if val[i] > -np.inf]
    return cands, tuple(sorted(int(x) for x in ddisc))


def option_scores(rules, cards, bid: int, soloist: int = 0, k: int = DEFAULT_K,
                  worlds: int = DEFAULT_WORLDS, seed: int = 0, played=None, got=None):
    """Every candidate option of the soloist's exchange and its deal score per world.

    Inputs as :func:`exchange_hint`; ``played``: optionally one more option ``(kind,
    discard, trump)`` (``kind`` one of PLAY, OUT, DURCH, OPEN_DURCH; ``discard`` card types,
    Dabb-size many; ``trump`` 0..3 or -1) -- the option a record shows the soloist took --
    valued on the same worlds (its play-outs use the worlds' own play streams, so adding
    it changes no other option's numbers).  Returns ``(rows, index)``: ``rows`` a list of
    ``(kind, discard (sorted tuple), trump, float64[worlds] scores)`` in the order: the
    shortlist's (discard, trump) candidates (the best ``k`` discards per trump, R4), going
    out (where the game has it), Durch and open Durch (with the best Durch discard), then
    ``played`` when it is none of these; ``index`` is ``played``'s row (None without it).
    ``got``: optionally a dict that receives the worlds (what the auction weights read,
    :func:`exchange_world_weights`): ``got["hands"]`` int64[worlds, table seats, 24] each
    seat's hand in each world before play, ``got["soloist"]`` the soloist's table seat;
    no number changes.
    """
    check_exchange_game(rules)
    check_bid(rules, int(bid))
    if has_partners(rules):
        return side_option_scores(rules, cards, bid, soloist, k, worlds, seed, played, got)
    rules = get_rules(rules)      # the flat view: the exchange kernels' KernelRules
    kr = rules.kernel
    counts = _check_request(rules, cards, k, worlds)
    if not 0 <= soloist <= 2:
        raise BinokelError(f"seat {soloist}: the soloist is seat 0, 1 or 2 in play (R2)")
    bid = int(bid)
    D = kr.tapp_size
    cands, ddisc_t = _shortlist(counts, kr, k)
    n_play = len(cands)
    has_durch = kr.durch_value > 0
    if has_durch:
        cands.append((ddisc_t, -1))
    extra = None
    if played is not None:
        kind, pd, pt = played[0], tuple(sorted(int(x) for x in played[1])), int(played[2])
        if kind != OUT:
            if len(pd) != D or any(counts[t] < pd.count(t) for t in set(pd)):
                raise BinokelError(f"the discard must be {D} of the soloist's cards (R4)")
            key = (pd, -1 if kind in (DURCH, OPEN_DURCH) else pt)
            if key not in cands:
                cands.append(key)
            extra = cands.index(key)
    n_cand = len(cands)
    cand_disc = np.array([c[0] for c in cands], dtype=np.int64).reshape(n_cand, D)
    cand_trump = np.array([c[1] for c in cands], dtype=np.int64)
    total = np.empty((n_cand, worlds), dtype=np.int64)
    tricks = np.empty((n_cand, worlds), dtype=np.int64)
    candidate_outcomes(counts, soloist, cand_disc, cand_trump, n_cand, worlds,
                       chunk_state(seed, 0), kr, total, tricks)
    if got is not None:     # the same worlds again, from the same seed (no play-outs)
        h3 = np.zeros((worlds, 3, N_TYPES), dtype=np.uint8)
        exchange_worlds(counts, soloist, worlds, chunk_state(seed, 0), kr, h3,
                        np.zeros((0, 4), dtype=np.uint64))
        seats = in_play_seats(_game(rules))     # seats in play -> table seats (R2)
        tab = np.zeros((worlds, _game(rules).table.seats, N_TYPES), dtype=np.int64)
        for q, p in enumerate(seats):
            tab[:, p] = h3[:, q]
        got["hands"], got["soloist"] = tab, seats[soloist]
    # per-world scores of each option (same worlds for all: common random numbers)
    rows = [(PLAY, cands[j][0], cands[j][1], _score_play(total[j], tricks[j], bid, kr))
            for j in range(n_play)]
    if _game(rules).kernel.going_out_bonus > 0:      # R4; 0 = no going out (V6.6)
        rows.append((OUT, (), -1, np.full(worlds, float(going_out_score(rules, bid)))))
    if has_durch:
        rows.append((DURCH, ddisc_t, -1, _score_durch(tricks[n_play], kr.durch_value, kr)))
        if kr.open_durch_value > 0:
            rows.append((OPEN_DURCH, ddisc_t, -1,
                         _score_durch(tricks[n_play], kr.open_durch_value, kr)))
    index = None
    if played is not None:
        if kind == OUT:
            hit = [i for i, r in enumerate(rows) if r[0] == OUT]
            if not hit:
                raise BinokelError(f"{rules.name} has no going out (R4)")
            index = hit[0]
        else:
            want = (kind, key[0], key[1])
            hit = [i for i, r in enumerate(rows) if (r[0], r[1], r[2]) == want]
            if hit:
                index = hit[0]
            else:
                if kind == PLAY:
                    s = _score_play(total[extra], tricks[extra], bid, kr)
                elif kind == OPEN_DURCH and kr.open_durch_value > 0:
                    s = _score_durch(tricks[extra], kr.open_durch_value, kr)
                elif kind == DURCH and has_durch:
                    s = _score_durch(tricks[extra], kr.durch_value, kr)
                else:
                    raise BinokelError(f"{rules.name} has no {kind} (R4, V2.7)")
                rows.append((kind, key[0], key[1], s))
                index = len(rows) - 1
    return rows, index


def _check_request(rules, cards, k: int, worlds: int) -> np.ndarray:
    """The soloist's cards (hand + Dabb, R4) as uint8[24] counts, with the table's size
    ``k`` and the worlds checked; one-line BinokelError otherwise.  ``rules``: the flat
    view (its kernel's hand and Dabb sizes and copies)."""
    kr = rules.kernel
    counts = np.asarray(cards, dtype=np.int64)
    need = kr.hand_size + kr.tapp_size
    if counts.shape != (N_TYPES,) or int(counts.sum()) != need:
        raise BinokelError(f"--hand: the soloist holds {need} cards after taking the Dabb in "
                           f"{rules.name} ({kr.hand_size} + {kr.tapp_size}, R4), got "
                           f"{int(counts.sum())}")
    if np.any(counts < 0) or np.any(counts > kr.copies):
        raise BinokelError(f"--hand: more copies of a card than {rules.name}'s deck has (R1)")
    if not 1 <= k <= MAX_K:
        raise BinokelError(f"--top {k}: list 1 to {MAX_K} discards")
    if not 1 <= worlds <= MAX_WORLDS:
        raise BinokelError(f"-n {worlds}: 1 to {MAX_WORLDS} worlds")
    return counts.astype(np.uint8)


# --------------------------------------------------------------------------- partners' tables
# (a Dabb and two sides of partners: V4.2-V4.6, V5.3-V5.7; module docstring)

@njit
def side_option_outcomes(full, sol, bid, deck, cand_disc, cand_trump, m, state, tk, kr,
                         out_score, out_made, out_deals):
    """Play every candidate exchange of the soloist ``sol`` (table seat 0..3) on ``m``
    worlds of the three hidden hands (V4.2-V4.6, V5.3-V5.7).

    ``full`` uint8[24]: the soloist's hand with the Dabb taken; ``deck`` uint8[n]: the card
    types it does not hold, each copy once (shuffled in place); ``cand_disc`` uint8[c, 24]:
    each candidate's discard as counts; ``cand_trump`` int64[c]: its trump 0..3, or -1 for
    a Durch (no trump, the soloist leads, R4).  Each world deals ``deck`` uniformly to the
    three other seats (:func:`deal_counts_fixed`: ``tk.hand_size`` each, nothing is left
    for the Dabb, which is in the soloist's hand), then draws one play stream that every
    candidate replays (common random numbers); every seat plays the partners' heuristic.
    Writes ``out_score[j, i]``: the soloist's side's deal score of trump candidate ``j``
    in world ``i`` (V4.6, V5.7: :func:`analyzer.mechanics.scoring.score_sides`, the bid
    ``bid``); ``out_made[j, i]``: 1 when Durch candidate ``j`` wins every trick (V4.6 "Durch
    as V2.7"), else 0; ``out_deals`` uint8[m or 0, 4, 24] (an output only): when it has
    ``m`` rows, each seat's hand in world ``i`` (what the auction weights read; 0 rows:
    not kept).  Only ``full`` is read of the soloist's side: the partner's hand is
    dealt, never given."""
    hands5 = np.zeros((5, N_TYPES), dtype=np.uint8)
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(tk, beat)
    res = np.zeros(RES_COLS, dtype=np.int64)
    pol = np.full(4, POLICY_HEURISTIC, dtype=np.int64)
    kept = np.zeros(N_TYPES, dtype=np.uint8)
    play_state = np.empty(4, dtype=np.uint64)
    team = sol % 2
    n_cand = cand_trump.shape[0]
    for i in range(m):
        deal_counts_fixed(state, deck, hands5, sol, full, tk.hand_size)
        if out_deals.shape[0] > i:
            for q in range(4):
                for t in range(N_TYPES):
                    out_deals[i, q, t] = hands5[q, t]
        for q in range(4):
            play_state[q] = next_u64(state)
        for j in range(n_cand):
            for t in range(N_TYPES):
                kept[t] = full[t] - cand_disc[j, t]
            if cand_trump[j] >= 0:
                st = play_state.copy()
                _play_trump_contract(hands5, sol, bid, cand_trump[j], kept, cand_disc[j], pol,
                                     st, tk, kr, beat, cnt, res)
                out_score[j, i] = res[R_SCORE + team]
                out_made[j, i] = 0
            else:
                out_score[j, i] = 0
                out_made[j, i] = 1 if _play_durch(hands5, sol, kept, cand_disc[j], tk, kr,
                                                  beat, cnt) else 0


def _types(counts) -> tuple:
    """Card types of a count vector, with repetition, sorted (an option's discard)."""
    return tuple(t for t in range(N_TYPES) for _ in range(int(counts[t])))


def rule_option(rules, cards, bid: int) -> tuple:
    """The option the simulations' soloist at a partners' table takes (``binokel analyze``,
    ``advise``; analyzer.search.partner_deals.dabb_contract): the greedy exchange
    (:func:`analyzer.mechanics.exchange.soloist_choice`) and the contract
    :func:`analyzer.mechanics.game.contract_for_bid` picks at ``bid`` from its side
    estimate (a sure Durch, going out, or play).  From ``cards`` (hand + Dabb) only.
    Returns ``(kind, discard types, trump)`` as :func:`option_scores` rows name them."""
    spec = team_spec(get_rules(rules))
    hands5 = np.zeros((5, N_TYPES), dtype=np.uint8)
    hands5[0] = np.asarray(cards, dtype=np.uint8)      # the Dabb is in ``cards`` already
    kept = np.zeros(N_TYPES, dtype=np.uint8)
    disc = np.zeros(N_TYPES, dtype=np.uint8)
    ddisc = np.zeros(N_TYPES, dtype=np.uint8)
    trump, est, losers = soloist_choice(hands5, 0, spec.tk, spec.kr, kept, disc, ddisc)
    contract = contract_for_bid(est, losers, int(bid), spec.kr)
    if contract == CONTRACT_SURRENDER:
        return (OUT, (), -1)
    if contract in (CONTRACT_DURCH, CONTRACT_OPEN_DURCH):
        return (DURCH if contract == CONTRACT_DURCH else OPEN_DURCH, _types(ddisc), -1)
    return (PLAY, _types(disc), int(trump))


def side_option_scores(rules, cards, bid: int, soloist: int = 0, k: int = DEFAULT_K,
                       worlds: int = DEFAULT_WORLDS, seed: int = 0, played=None, got=None):
    """:func:`option_scores` at a partners' table with a Dabb (V4.2-V4.6, V5.3-V5.7): the
    same inputs (``soloist`` a table seat 0..3; forehand, seat 0, leads a trump contract,
    V4.5, the soloist a Durch) and the same ``(rows, index)``, each row's scores the
    soloist's side's deal score per world.  Candidates: the shortlist's best ``k``
    discards per trump, the greedy exchange's (discard, trump) and Durch discard
    (:func:`rule_option`), the shortlist's Durch discard, then ``played``.  Going out
    (V4.3, V5.4) scores the side -bid in every world (the RuleSet's
    ``score_sides_going_out``); Durch and open Durch (V4.6 "Durch as V2.7") where the
    game has them, scored by ``score_sides_durch``."""
    rules = get_rules(rules)
    spec = team_spec(rules)
    tk, kr = spec.tk, spec.kr
    counts = _check_request(rules, cards, k, worlds)
    seats = _game(rules).table.seats
    if not 0 <= soloist < seats:
        raise BinokelError(f"seat {soloist}: the soloist is a seat 0-{seats - 1} (four "
                           "players, V1)")
    bid = int(bid)
    D = kr.tapp_size
    cands, ddisc_t = _shortlist(counts, kr, k)
    has_durch = kr.durch_value > 0
    # the greedy exchange (the simulations' soloist) and its Durch discard: always valued
    full = np.zeros((5, N_TYPES), dtype=np.uint8)
    full[0] = counts
    g_kept, g_disc, g_ddisc = (np.zeros(N_TYPES, dtype=np.uint8) for _ in range(3))
    g_trump, _est, _losers = soloist_choice(full, 0, tk, kr, g_kept, g_disc, g_ddisc)
    extra = [(_types(g_disc), int(g_trump))]
    if has_durch:
        extra += [(ddisc_t, -1), (_types(g_ddisc), -1)]
    if played is not None:
        kind, pd, pt = played[0], tuple(sorted(int(x) for x in played[1])), int(played[2])
        if kind in (DURCH, OPEN_DURCH) and not has_durch:
            raise BinokelError(f"{rules.name} has no {kind} (V5.7)")
        if kind != OUT:
            if len(pd) != D or any(counts[t] < pd.count(t) for t in set(pd)):
                raise BinokelError(f"the discard must be {D} of the soloist's cards (V4.2, V5.3)")
            if kind == PLAY and not 0 <= pt <= 3:
                raise BinokelError(f"trump {pt}: a suit 0-3 (R4)")
            extra.append((pd, -1 if kind in (DURCH, OPEN_DURCH) else pt))
    for c in extra:
        if c not in cands:
            cands.append(c)
    n_cand = len(cands)
    cand_disc = np.zeros((n_cand, N_TYPES), dtype=np.uint8)
    for j, (d, _t) in enumerate(cands):
        for t in d:
            cand_disc[j, t] += 1
    cand_trump = np.array([c[1] for c in cands], dtype=np.int64)
    copies = np.asarray(kr.copies, dtype=np.int64)
    deck = np.repeat(np.arange(N_TYPES, dtype=np.uint8), copies - counts.astype(np.int64))
    score = np.empty((n_cand, worlds), dtype=np.int64)
    made = np.empty((n_cand, worlds), dtype=np.int64)
    hands = np.zeros((worlds if got is not None else 0, 4, N_TYPES), dtype=np.uint8)
    side_option_outcomes(counts, soloist, bid, deck, cand_disc, cand_trump, worlds,
                         chunk_state(seed, 0), tk, kr, score, made, hands)
    if got is not None:
        got["hands"], got["soloist"] = hands.astype(np.int64), soloist
    team = soloist % 2
    rows = [(PLAY, cands[j][0], cands[j][1], score[j].astype(float))
            for j in range(n_cand) if cands[j][1] >= 0]
    out = np.zeros(2, dtype=np.int64)
    if tk.going_out_bonus > 0:          # V4.3, V5.4: the side -bid, whatever the worlds
        score_sides_going_out(team, bid, 0, tk.going_out_bonus, out)
        rows.append((OUT, (), -1, np.full(worlds, float(out[team]))))
    durch_kinds = [(DURCH, kr.durch_value)] if has_durch else []
    if has_durch and kr.open_durch_value > 0:
        durch_kinds.append((OPEN_DURCH, kr.open_durch_value))
    for kind_d, value in durch_kinds:
        score_sides_durch(team, True, value, kr.durch_loss_factor, out)
        win = float(out[team])
        score_sides_durch(team, False, value, kr.durch_loss_factor, out)
        lose = float(out[team])
        rows.extend((kind_d, cands[j][0], -1, np.where(made[j] == 1, win, lose))
                    for j in range(n_cand) if cands[j][1] < 0)
    index = None
    if played is not None:
        want = (OUT, (), -1) if kind == OUT else \
            (kind, pd, -1 if kind in (DURCH, OPEN_DURCH) else pt)
        hit = [i for i, r in enumerate(rows) if r[:3] == want]
        if not hit:
            raise BinokelError(f"{rules.name} has no {kind} (V4.3, V4.6, V5.4, V5.7)")
        index = hit[0]
    return rows, index


def _se(x: np.ndarray) -> float:
    """Standard error of the mean (0 for one world)."""
    return float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else 0.0


def exchange_view_from_record(deal):
    """(cards, bid, seat in play) of the soloist at the exchange, from the record as the
    soloist saw it (:func:`analyzer.mechanics.record.hide`: the defenders' hands never
    reach the hint).  One-line BinokelError when the record does not reach the exchange."""
    from analyzer.mechanics.record import hide, in_play_seats

    if deal.soloist is None or deal.bid is None:
        raise BinokelError("--exchange: the record has no soloist and bid yet (R3: an "
                           "Auction line with a winning bid)")
    seen = hide(deal, deal.soloist)
    hand = seen.hands[deal.soloist]
    if hand is None or seen.dabb is None:
        raise BinokelError("--exchange: the record hides the soloist's hand or the Dabb "
                           "(R4: the soloist takes the Dabb into hand)")
    cards = tuple(a + b for a, b in zip(hand, seen.dabb))
    return cards, int(deal.bid), in_play_seats(deal.rules).index(deal.soloist)
