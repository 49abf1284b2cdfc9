"""Does the review see what the duplicate measures?  The check of issue 27: "a review of
deals where PIMC defends against the heuristic shows, summed per deal, the gain that
``binokel duplicate`` measures (within its SE)".

Run: ``python -m analyzer.analyses.review_check --deals 40 --seed 0 [--rules binokel-48]
[--samples 20] [--horizon 6] [--json]``.

Protocol, per deal, exactly as ``binokel duplicate --config defenders`` plays it
(:func:`analyzer.analyses.strength.duplicate_match`: the same deals from the seed, the
same auction and exchange, the same RNG streams): the deal is played once with the
heuristic at every seat (the baseline) and once with PIMC (``samples`` worlds, exact from
``horizon`` tricks left) for both defenders.  The baseline deal is written as a deal
record (:class:`analyzer.mechanics.record.Deal`, every hand known) and the heuristic
defenders' card decisions are reviewed (:func:`analyzer.analyses.review.review`, PIMC
with the same ``samples`` and ``horizon``; in hindsight, double dummy, once at most
``dd_max_tricks`` tricks are left).

Two figures, per deal, in card points of the soloist (R7, the discard included, R4):

(a) the duplicate's gain: the soloist's points with the heuristic defence minus with the
    PIMC defence (what ``binokel duplicate --config defenders`` prints, sign turned so
    that a better defence is a positive gain);
(b) the review's loss: the sum over the heuristic defenders' decisions of the points
    their side gave up against the best card -- from their view (PIMC, cross-fitted as
    ``binokel review`` reports it: the best chosen on one half of the worlds, the loss
    measured on the other, :func:`analyzer.analyses.stats.cross_fit_loss`) and, over the
    decisions with at most ``dd_max_tricks`` tricks left, in hindsight (double dummy);
(b') the same-world PIMC loss the review reported before cross-fitting: the best card
    chosen and measured on the same worlds -- it picks the best of several noisy means,
    so it leans high by the selection (the winner's curse), kept for comparison;
(c) the PIMC loss on held-out worlds: PIMC's best card as the review chose it (on all
    its worlds), the loss measured on another ``review_worlds`` worlds of the same view.
    Neither (b) nor (c) has the selection's lean.

Why they should agree: a defender's loss at a decision is what its side would have kept
with the best card and best play after it; summed over the deal it is the whole
shortfall of the heuristic defence against a defence that plays PIMC's card at each
turn, which is what the duplicate's other run does.  Where they need not: the review
values each decision against the best option *at that decision* with everyone playing
on as PIMC (or perfectly, in hindsight) -- losses of consecutive decisions overlap or
compensate, and the duplicate plays a whole other line (PIMC's own mistakes, the
heuristic soloist's replies to another line, a different deal state after the first
difference); the hindsight loss is against a defender who sees every card (larger than
anything a real defence can gain) and covers only the late tricks.  So (a), (b, PIMC) and
(c) should be of the same size, (b') larger by the selection, (b, hindsight) an upper
reference for the late tricks.

Printed: n, (a), (b), (b') and (c) as mean +- SE over the deals (sample SD / sqrt n), and
the paired differences (a) - (b), (a) - (b'), (a) - (c) with their SE and in SEs. The
three-hand games with an auction (the games ``binokel duplicate`` plays with a lone
soloist); a partners' table (V1) is refused.
"""
from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np

from analyzer.analyses.hint import hint, view_from_record
from analyzer.analyses.review import review
from analyzer.analyses.strength import _planes, _planes_mask, paired, trump_deals
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_TYPES, SUIT_LETTERS
from analyzer.mechanics.melds import meld_total
from analyzer.mechanics.play import POLICY_HEURISTIC
from analyzer.mechanics.record import Deal
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import get_rules
from analyzer.mechanics.ruleset import get_game
from analyzer.mechanics.trick import add_card
from analyzer.search.pimc import POLICY_PIMC, play_deal_policies, shown_counts
from analyzer.search.solve import Solver, set_context

MAX_CHECK_DEALS = 10_000


def _record(game, counts, soloist, bid, trump, disc, melds, log, kr) -> Deal:
    """The baseline run as a deal record: dealt hands, the Tapp, the discard (R4), the
    tricks from the play log (leader 0 first, as the duplicate plays, R6).  ``kr``: the
    game's compiled kernel (``game.kernel``: beat table, seat order)."""
    dcount = [0] * N_TYPES
    for t in disc:
        dcount[int(t)] += 1
    tricks = []
    leader = 0
    n = len(log) // 3
    for i in range(n):
        cards = tuple(int(c) for c in log[3 * i:3 * i + 3])
        ls = wc = ws = lh = -1
        seat = leader
        for c in cards:
            ls, wc, ws, lh = add_card(c, seat, ls, wc, ws, lh, trump, kr.beat)
            seat = int(kr.next_seat[seat])
        tricks.append((leader, cards))
        leader = int(ws)
    seats = game.table.seat_names
    hands = [None] * game.table.seats
    for p in range(3):
        hands[p] = tuple(int(x) for x in counts[p])
    return Deal(rules=game, seats=seats, hands=tuple(hands),
                dabb=tuple(int(x) for x in counts[3]), soloist=int(soloist), bid=int(bid),
                discard=tuple(dcount), contract=SUIT_LETTERS[int(trump)],
                melds=tuple(int(m) for m in melds), tricks=tuple(tricks))


def review_check(n_deals: int, seed: int = 0, rules_name: str = "binokel-48",
                 samples: int = 20, horizon: int = 6, review_worlds: int | None = None,
                 review_horizon: int | None = None, dd_max_tricks: int = 10,
                 progress=None) -> dict:
    """Play, record and review ``n_deals`` deals (module docstring).  Returns a dict:
    ``rules``, ``n``, ``seed``, ``samples``, ``horizon``, ``review_worlds``,
    ``review_horizon``, ``dd_max_tricks``; ``duplicate_gain``,
    ``review_loss_pimc`` (cross-fitted), ``review_loss_same_world``,
    ``review_loss_held_out``, ``review_loss_dd`` ({n, mean, se}: per-deal figures (a),
    (b), (b'), (c), (b) in hindsight), ``dd_decisions`` / ``decisions`` (reviewed
    decisions with / in all), ``diff_pimc``, ``diff_same_world``, ``diff_held_out`` and
    ``diff_dd`` (the paired (a) - (b), (b'), (c), (b) in hindsight: {n, mean, se, z}),
    ``per_deal``: per deal (gain, PIMC loss, same-world loss, held-out loss, DD loss,
    decisions).  Raises BinokelError on bad input (one line)."""
    if not 1 <= int(n_deals) <= MAX_CHECK_DEALS:
        raise BinokelError(f"deals must be 1..{MAX_CHECK_DEALS}, got {n_deals}")
    game = get_game(rules_name)
    flat = get_rules(game.name)
    if getattr(flat, "teams", False) or game.table.in_play != 3:
        raise BinokelError(f"{game.name}: the check plays binokel duplicate's lone-soloist "
                           f"games (three hands in play); a partners' table (V1) is not "
                           f"checked here")
    if getattr(game, "stock", None) and getattr(game.stock, "size", 0):
        raise BinokelError(f"{game.name} has a stock and no auction (V7)")
    rw = samples if review_worlds is None else review_worlds
    rh = horizon if review_horizon is None else review_horizon
    kr = flat.kernel
    solver = Solver(flat)
    rs = np.ascontiguousarray(kr.rank_strength, dtype=np.int64)
    pts = np.zeros(3, dtype=np.int64)
    trk = np.zeros(3, dtype=np.int64)
    rows = []
    deals = trump_deals(seed, kr, flat)
    n_cards = 3 * game.table.hand_size
    while len(rows) < n_deals:
        i, counts, soloist, bid, trump, hands, disc = next(deals)
        dcount = np.zeros(N_TYPES, dtype=np.int64)
        for t in disc:
            dcount[t] += 1
        dpts = int(sum(int(kr.card_points[t]) for t in disc))
        melds = [int(meld_total(_planes_mask(hands[p]), trump, kr)) for p in range(3)]
        shown = np.array([shown_counts(hands[p], trump, flat) for p in range(3)],
                         dtype=np.int64)
        set_context(solver.w, trump, soloist, solver.tt_mask)

        def play(pol, stream, log):
            # as strength.duplicate_match plays a PIMC match (use_melds, use_tapp)
            lo, hi = _planes(hands)
            play_deal_policies(lo, hi, dcount, counts[3].copy(), shown.copy(), trump,
                               soloist, 0, pol, samples, horizon, chunk_state(seed, stream),
                               solver.w, solver.tt, rs, kr, pts, trk, log)
            return int(pts[soloist]) + dpts

        log = np.zeros(n_cards, dtype=np.int64)
        base = play(np.full(3, POLICY_HEURISTIC, dtype=np.int64), 0, log)
        pol = np.full(3, POLICY_HEURISTIC, dtype=np.int64)
        for p in range(3):
            if p != soloist:
                pol[p] = POLICY_PIMC
        chal = play(pol, 1 + i, np.zeros(0, dtype=np.int64))
        deal = _record(game, counts, soloist, bid, trump, disc, melds, log, game.kernel)
        defenders = tuple(p for p in range(3) if p != soloist)
        rv = review(game, deal, rw, rh, seed * 100_003 + i, dd_max_tricks, seats=defenders)
        loss = sum(d.loss for d in rv.decisions)
        same = sum(d.same_world_loss for d in rv.decisions)
        dd = [d.dd_loss for d in rv.decisions if d.dd_loss is not None]
        held = 0.0
        for j, d in enumerate(rv.decisions):      # (c): the same choice, other worlds
            h = hint(game, view_from_record(deal, d.trick, d.card_no), rw, rh,
                     seed * 100_003 + i + 7_919 * (j + 1), 0)
            held += float((h.samples[d.best] - h.samples[d.played]).mean())
        rows.append({"deal": i, "soloist": int(soloist), "bid": int(bid),
                     "base": base, "pimc_defence": chal, "gain": base - chal,
                     "loss_pimc": round(loss, 3), "loss_same_world": round(same, 3),
                     "loss_held_out": round(held, 3),
                     "loss_dd": int(sum(dd)),
                     "decisions": len(rv.decisions), "dd_decisions": len(dd)})
        if progress is not None:
            progress(len(rows), n_deals)
    gain = [r["gain"] for r in rows]
    lp = [r["loss_pimc"] for r in rows]
    ls = [r["loss_same_world"] for r in rows]
    lh = [r["loss_held_out"] for r in rows]
    ld = [r["loss_dd"] for r in rows]

    def fig(x):
        f = paired(x)
        return {"n": f.n, "mean": f.mean, "se": f.se}

    return {"rules": game.name, "n": len(rows), "seed": seed, "samples": samples,
            "horizon": horizon, "review_worlds": rw, "review_horizon": rh,
            "dd_max_tricks": dd_max_tricks,
            "duplicate_gain": fig(gain), "review_loss_pimc": fig(lp),
            "review_loss_same_world": fig(ls), "review_loss_held_out": fig(lh),
            "review_loss_dd": fig(ld),
            "decisions": sum(r["decisions"] for r in rows),
            "dd_decisions": sum(r["dd_decisions"] for r in rows),
            "diff_pimc": paired(np.subtract(gain, lp)).to_dict(),
            "diff_same_world": paired(np.subtract(gain, ls)).to_dict(),
            "diff_held_out": paired(np.subtract(gain, lh)).to_dict(),
            "diff_dd": paired(np.subtract(gain, ld)).to_dict(),
            "per_deal": rows}


def _fmt(f: dict) -> str:
    return f"{f['mean']:+7.2f} ± {f['se']:.2f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m analyzer.analyses.review_check",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rules", default="binokel-48")
    ap.add_argument("--samples", type=int, default=20, help="PIMC worlds per decision")
    ap.add_argument("--horizon", type=int, default=6, help="exact from this many tricks left")
    ap.add_argument("--review-worlds", type=int, default=None)
    ap.add_argument("--dd-max-tricks", type=int, default=10)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if not 1 <= a.samples <= 1000 or not 0 <= a.horizon <= 12 or not 0 <= a.dd_max_tricks <= 15:
        print("review_check: error: --samples 1..1000, --horizon 0..12, --dd-max-tricks "
              "0..15", file=sys.stderr)
        return 2

    def progress(done, total):
        if not a.json:
            print(f"  {done}/{total} deals", file=sys.stderr, flush=True)

    try:
        out = review_check(a.deals, a.seed, a.rules, a.samples, a.horizon, a.review_worlds,
                           None, a.dd_max_tricks, progress)
    except (BinokelError, KeyError, ValueError) as exc:
        print(f"review_check: error: {str(exc).strip(chr(39))}", file=sys.stderr)
        return 2
    if a.json:
        print(json.dumps(out, indent=1))
        return 0
    n = out["n"]
    print(f"{out['rules']}: {n} trump deals (seed {a.seed}), heuristic defence vs PIMC "
          f"defence ({a.samples} worlds, exact from {a.horizon} tricks left)")
    print(f"(a) duplicate gain of the PIMC defence, soloist's points: "
          f"{_fmt(out['duplicate_gain'])}  (n={n})")
    print(f"(b) review loss of the heuristic defenders, PIMC:         "
          f"{_fmt(out['review_loss_pimc'])}  (n={n}, {out['decisions']} decisions, "
          f"{out['review_worlds']} worlds each, cross-fitted)")
    print(f"(b') the same on the worlds that chose the best (old):    "
          f"{_fmt(out['review_loss_same_world'])}  (n={n})")
    print(f"(c) review loss, PIMC on held-out worlds:                 "
          f"{_fmt(out['review_loss_held_out'])}  (n={n})")
    print(f"    review loss in hindsight (<= {a.dd_max_tricks} tricks left): "
          f"{_fmt(out['review_loss_dd'])}  ({out['dd_decisions']} decisions)")
    for k, lab in (("diff_pimc", "(a)-(b) PIMC"), ("diff_same_world", "(a)-(b') same world"),
                   ("diff_held_out", "(a)-(c) held out"),
                   ("diff_dd", "(a)-(b) hindsight")):
        d = out[k]
        z = d["z"]
        print(f"{lab:<20} {d['mean']:+7.2f} ± {d['se']:.2f}  = "
              f"{'nan' if math.isnan(z) else f'{z:+.1f}'} SE (paired, n={d['n']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
