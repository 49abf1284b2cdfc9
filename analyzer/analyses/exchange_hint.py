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
the table reports.  The worlds are uniform: no auction weighting (the PIMC worlds of
:mod:`.hint_worlds` have none to offer at the exchange).

Games: every game with a Dabb and a lone soloist (binokel-48, grupp-3, grupp-4,
binokel-40); a game without a Dabb has no exchange (R4) and a partners' table (V1) is
refused in one line (its exchange is :mod:`.team_analysis`'s).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer.bounds import AUCTION_BID, HINT_DISCARDS
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_TYPES, SUIT_LETTERS, card_code
from analyzer.mechanics.exchange import candidate_outcomes, exchange_shortlist
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import get_rules
from analyzer.mechanics.ruleset import SIDES_SOLO, RuleSet, get_game
from analyzer.mechanics.scoring import DEAL_SURRENDER, score_kernel

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

    def label(self) -> str:
        if self.kind == OUT:
            return "go out"
        what = SUIT_LETTERS[self.trump] if self.kind == PLAY else self.kind
        return f"{what} discard {' '.join(card_code(t) for t in self.discard)}"


@dataclass(frozen=True)
class ExchangeHint:
    rules: str
    soloist: int         # seat in play, 0 = forehand
    bid: int
    cards: tuple         # the soloist's counts after taking the Dabb
    options: tuple       # Option, best first
    worlds: int
    seed: int

    def to_dict(self) -> dict:
        return {
            "rules": self.rules, "soloist": self.soloist, "bid": self.bid,
            "cards": " ".join(card_code(t) for t in range(N_TYPES)
                              for _ in range(self.cards[t])),
            "worlds": self.worlds, "seed": self.seed,
            "best": self.options[0].label(),
            "options": [{"option": o.label(), "kind": o.kind,
                         "discard": [card_code(t) for t in o.discard],
                         "trump": SUIT_LETTERS[o.trump] if o.trump >= 0 else None,
                         "mean": o.mean, "se": o.se, "n": o.n,
                         "diff": o.diff, "diff_se": o.diff_se} for o in self.options],
        }


def _game(rules):
    """The nested RuleSet (its compiled kernel says what the table has) of ``rules``, a
    nested RuleSet or the flat view of one (analyzer.mechanics.rules)."""
    return rules if isinstance(rules, RuleSet) else get_game(rules.name)


def check_exchange_game(rules) -> None:
    """Raise a one-line BinokelError unless ``rules`` has the soloist's exchange: a Dabb
    (R4) and a lone soloist against the rest (not a partners' table, V1).  Asks the
    compiled RuleSet, never the game's name."""
    game = _game(rules)
    kr = game.kernel
    if kr.dabb_size <= 0:
        raise BinokelError(f"--exchange: {rules.name} has no Dabb, so no exchange before "
                           f"the play (R4; {rules.name}: {game.section})")
    if kr.side_rule != SIDES_SOLO:
        raise BinokelError(f"--exchange: {rules.name} is a partners' table (V1); its "
                           "exchange is `binokel analyze --rules {0}`'s".format(rules.name))


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
                  worlds: int = DEFAULT_WORLDS, seed: int = 0) -> ExchangeHint:
    """The soloist's options before play, valued over ``worlds`` common worlds.

    ``cards``: 24 counts, the soloist's hand with the Dabb taken (hand_size + Dabb size
    cards, R4); ``bid``: the winning bid (R3); ``soloist``: seat in play 0..2; ``k``: how
    many discards to list (1..MAX_K); ``seed``: the worlds' seed (same seed, same numbers).
    Returns an :class:`ExchangeHint` with the options best first.  Raises a one-line
    BinokelError for a game without the exchange, a wrong number of cards or a bad bid.
    """
    rows, _ = option_scores(rules, cards, bid, soloist, k, worlds, seed)
    rules = get_rules(rules)
    # the table: each of the best k discards with its best trump, then going out and Durch
    scored = []            # (kind, discard, trump, scores[worlds])
    best_per_discard: dict[tuple, tuple] = {}
    for kind, d, t, s in rows:
        if kind == PLAY and (d not in best_per_discard
                             or s.mean() > best_per_discard[d][3].mean()):
            best_per_discard[d] = (PLAY, d, t, s)
    plays = sorted(best_per_discard.values(), key=lambda o: -o[3].mean())[:k]
    scored.extend(plays)
    scored.extend(r for r in rows if r[0] != PLAY)
    scored.sort(key=lambda o: -o[3].mean())
    best = scored[0][3]
    opts = []
    for kind, d, t, s in scored:
        diff = s - best
        opts.append(Option(kind, d, t, float(s.mean()), _se(s), worlds,
                           float(diff.mean()), _se(diff)))
    counts = np.asarray(cards, dtype=np.uint8)
    return ExchangeHint(rules.name, soloist, int(bid), tuple(int(c) for c in counts),
                        tuple(opts), worlds, seed)


def option_scores(rules, cards, bid: int, soloist: int = 0, k: int = DEFAULT_K,
                  worlds: int = DEFAULT_WORLDS, seed: int = 0, played=None):
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
    """
    check_exchange_game(rules)
    check_bid(rules, int(bid))
    rules = get_rules(rules)      # the flat view: the exchange kernels' KernelRules
    kr = rules.kernel
    counts = np.asarray(cards, dtype=np.uint8)
    need = kr.hand_size + kr.tapp_size
    if counts.shape != (N_TYPES,) or int(counts.sum()) != need:
        raise BinokelError(f"--hand: the soloist holds {need} cards after taking the Dabb in "
                           f"{rules.name} ({kr.hand_size} + {kr.tapp_size}, R4), got "
                           f"{int(counts.sum())}")
    if np.any(counts.astype(np.int64) > kr.copies):
        raise BinokelError(f"--hand: more copies of a card than {rules.name}'s deck has (R1)")
    if not 1 <= k <= MAX_K:
        raise BinokelError(f"--top {k}: list 1 to {MAX_K} discards")
    if not 1 <= worlds <= MAX_WORLDS:
        raise BinokelError(f"-n {worlds}: 1 to {MAX_WORLDS} worlds")
    if not 0 <= soloist <= 2:
        raise BinokelError(f"seat {soloist}: the soloist is seat 0, 1 or 2 in play (R2)")
    bid = int(bid)
    D = kr.tapp_size
    # the shortlist: the best k discards for each trump (fast value) + the best Durch discard
    disc = np.empty((4 * k, D), dtype=np.int64)
    tr = np.empty(4 * k, dtype=np.int64)
    val = np.empty(4 * k, dtype=np.float64)
    ddisc = np.empty(D, dtype=np.int64)
    exchange_shortlist(counts, kr, kr.est_weights, k, disc, tr, val, ddisc)
    cands = [(tuple(sorted(int(x) for x in disc[i])), int(tr[i]))
             for i in range(4 * k) if val[i] > -np.inf]
    n_play = len(cands)
    has_durch = kr.durch_value > 0
    ddisc_t = tuple(sorted(int(x) for x in ddisc))
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
