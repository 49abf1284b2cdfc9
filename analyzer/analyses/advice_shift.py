"""How the bid advice moves when the defence is strong (issue 12: advice under PIMC play).

For a hand, seat and auction the advisor (:func:`analyzer.analyses.advice_samples.simulate_advice`)
runs twice on the *same* sampled deals (same seed: same opponents' hands, Tapps,
inference weights, exchanges and pass-branch auctions), once with the heuristic card
play at every seat and once with ``play`` (default ``pimc-defence``: PIMC defenders
against the heuristic soloist, analyzer.search.pimc.play_contract).  Per hand it reports
both recommended maximum bids (objective ``relative``, R3) and P(make) at the heuristic's
maximum under both plays, with the SE of their paired difference (weighted by the
inference weights, Kish's effective sample size as in the advisor).

Over a set of random hands (uniform 15-card hands; forehand before the auction and
middlehand after forehand's 150, alternately) it reports the mean change of the maximum
bid and of P(make) at the heuristic's maximum, with the standard error across hands (it
contains the Monte Carlo noise of each hand's estimate, so it is conservative).

``python -m analyzer.analyses.advice_shift --samples 500 --random 60 --seed 1`` prints
the figures docs/methods.md quotes (``--json`` for all of them).
"""
from __future__ import annotations

import math

import numpy as np

from analyzer.analyses.advice_samples import simulate_advice
from analyzer.analyses.objectives import recommended_max_bid
from analyzer.analyses.weighted_stats import weighted_mean
from analyzer.mechanics.bidding import validate_auction
from analyzer.mechanics.cards import N_TYPES, Hand
from analyzer.mechanics.play import POLICY_HEURISTIC
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet
from analyzer.search.pimc import resolve_play

SEATS = ("forehand", "middlehand", "rearhand")


def _sure_pass(b, rules):
    # a recommendation of "pass" counts as one step below the opening bid
    return rules.bid_start - rules.bid_step if b is None else int(b)


def advice_shift(hand, seat: int = 0, auction: str = "", samples: int = 500, seed: int = 0,
                 play: str = "pimc-defence", rules: RuleSet = DEFAULT_RULES,
                 n_jobs: int = 1) -> dict:
    """Heuristic vs ``play`` advice for one hand on the same sampled deals (module doc).

    Returns a dict: ``max_bid_heuristic``, ``max_bid_play`` (None = pass),
    ``p_make_heuristic`` / ``p_make_play`` at the heuristic's maximum (None when it
    passes), ``p_make_diff`` {mean, se} (paired), ``p_make_play_at_own`` (P(make) at the
    play's own maximum), ``ev_score_diff`` {mean, se} of the soloist's score at the
    heuristic's maximum, ``samples``, ``effective_samples``.
    """
    h = Hand.parse(hand, rules=rules)
    counts = h.counts_array().astype(np.uint8)
    state = validate_auction(auction, rules)
    policy = resolve_play(play, rules)
    runs = [simulate_advice(counts, seat, state, samples, seed, n_jobs, True, rules,
                            policy=p) for p in (POLICY_HEURISTIC, policy)]
    a, b = runs
    w = a["weight"]
    assert np.array_equal(w, b["weight"])   # same samples: only the play differs
    ess = float(w.sum() ** 2 / (w ** 2).sum())
    mb = [recommended_max_bid(r, seat, "relative", None, rules) for r in runs]
    out = {"hand": h.codes(), "seat": SEATS[seat], "auction": auction, "play": play,
           "samples": int(w.shape[0]), "effective_samples": ess,
           "max_bid_heuristic": mb[0], "max_bid_play": mb[1],
           "p_make_heuristic": None, "p_make_play": None, "p_make_diff": None,
           "ev_score_diff": None, "p_make_play_at_own": None}
    bids = a["bids"]
    if mb[1] is not None:
        k1 = int(np.searchsorted(bids, mb[1]))
        out["p_make_play_at_own"] = float((w * b["sol_made"][:, k1]).sum() / w.sum())
    if mb[0] is not None:
        k = int(np.searchsorted(bids, mb[0]))
        ma = a["sol_made"][:, k].astype(float)
        mbp = b["sol_made"][:, k].astype(float)
        out["p_make_heuristic"] = float((w * ma).sum() / w.sum())
        out["p_make_play"] = float((w * mbp).sum() / w.sum())
        d = weighted_mean(mbp - ma, w, ess)
        out["p_make_diff"] = {"mean": d.mean, "se": d.se}
        sd = weighted_mean((b["sol_scores"][:, k, seat] - a["sol_scores"][:, k, seat]).astype(float),
                    w, ess)
        out["ev_score_diff"] = {"mean": sd.mean, "se": sd.se}
    return out


def random_hands(n: int, seed: int, rules: RuleSet = DEFAULT_RULES) -> list[tuple[str, int, str]]:
    """``n`` uniform random hands (R2) with seat and auction: forehand before the auction
    and middlehand after forehand's opening bid, alternately."""
    rng = np.random.default_rng(seed)
    deck = [t for t in range(N_TYPES) for _ in range(2)]
    out = []
    for i in range(n):
        cards = rng.choice(len(deck), size=rules.hand_size, replace=False)
        counts = [0] * N_TYPES
        for c in cards:
            counts[deck[c]] += 1
        hand = Hand(tuple(counts))
        seat = i % 2
        out.append((hand.codes(), seat, "" if seat == 0 else str(rules.bid_start)))
    return out


def summarize_shifts(rows: list[dict], rules: RuleSet = DEFAULT_RULES) -> dict:
    """Mean changes over hands (SE across hands): maximum bid (pass = one step below the
    opening), share of hands whose maximum fell / rose, P(make) at the heuristic's
    maximum (hands where it bids)."""
    dmax = np.array([_sure_pass(r["max_bid_play"], rules) - _sure_pass(r["max_bid_heuristic"], rules)
                     for r in rows], dtype=float)
    pm = np.array([r["p_make_diff"]["mean"] for r in rows if r["p_make_diff"] is not None])
    ph = np.array([r["p_make_heuristic"] for r in rows if r["p_make_diff"] is not None])
    pp = np.array([r["p_make_play"] for r in rows if r["p_make_diff"] is not None])

    def mse(x):
        return {"mean": float(x.mean()) if len(x) else float("nan"),
                "se": float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else float("nan"),
                "n": int(len(x))}
    return {"hands": len(rows), "max_bid_change": mse(dmax),
            "fell": int((dmax < 0).sum()), "rose": int((dmax > 0).sum()),
            "same": int((dmax == 0).sum()),
            "p_make_at_heuristic_max": {"heuristic": mse(ph), "play": mse(pp), "diff": mse(pm)}}


def main(argv=None) -> None:
    import argparse
    import json

    from analyzer.examples import example

    ap = argparse.ArgumentParser(prog="python -m analyzer.analyses.advice_shift",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=500)
    ap.add_argument("--random", type=int, default=0, help="random hands besides the examples")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--play", default="pimc-defence")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    ex = []
    for name in ("strong_spades", "average", "weak"):
        e = example(name)
        ex.append((name, e["hand"], SEATS.index(e.get("seat") or "forehand"), ""))
    ex.append(("average mh after 150", example("average")["hand"], 1, "150"))
    res = {"examples": {}, "random": []}
    for name, hand, seat, auction in ex:
        res["examples"][name] = advice_shift(hand, seat, auction, args.samples, args.seed,
                                             args.play, n_jobs=args.jobs)
    for hand, seat, auction in random_hands(args.random, args.seed):
        res["random"].append(advice_shift(hand, seat, auction, args.samples, args.seed,
                                          args.play, n_jobs=args.jobs))
    if res["random"]:
        res["random_summary"] = summarize_shifts(res["random"])
    if args.json:
        print(json.dumps(res, indent=1))
        return
    for name, r in res["examples"].items():
        pd_ = r["p_make_diff"]
        print(f"{name:<22} max bid {r['max_bid_heuristic']} -> {r['max_bid_play']}; P(make) at "
              f"{r['max_bid_heuristic']}: {r['p_make_heuristic']} -> {r['p_make_play']}"
              + (f" (diff {pd_['mean']:+.3f} +- {pd_['se']:.3f})" if pd_ else "")
              + f"; n = {r['samples']} (effective {r['effective_samples']:.0f})")
    if res["random"]:
        print(json.dumps(res["random_summary"]))


if __name__ == "__main__":
    main()
