"""The pinned cases: which entry point of which game, with which arguments (issue 24, Keep).

Each :class:`Case` names one game, one kind of entry point and a short label; ``compute()``
runs it and returns a JSON-able payload (the command's own ``--json`` output, or the
library result the CLI prints), with wall-clock fields removed.  :func:`record` turns a
payload into a golden entry: the sha256 of its canonical JSON (every float by ``repr``, so
bit-identical or nothing) and a few readable headline numbers, so that a failing pin says
what moved and not only that something did.

Entry points run through the CLI (click's CliRunner, in this process) wherever a command
has ``--json``: the CLI is the contract users and scripts see, and it is the layer the
one-engine refactor keeps while the library's types move underneath.  Where a command has
no JSON (``simulate``) the library function it calls is used (``analyzer.simulate``).
"""
from __future__ import annotations

import hashlib
import json
import tempfile
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

GAMES = ("binokel-48", "grupp-3", "grupp-4", "binokel-40", "kreuz-48", "kreuz-40",
         "pinochle-80")
THREE_PLAYER = ("binokel-48", "grupp-3", "grupp-4", "binokel-40")
TEAM = ("kreuz-48", "kreuz-40", "pinochle-80")

# One hand per game for the per-hand entry points (the CLI tests' hands; binokel-48 the
# README's example 'average').
HANDS = {
    "binokel-48": "AS 10S KS 9S AH QH JH 9H KC QC 10C JD 9D QD 10D",
    "grupp-3": "AS AS 10S KS QS JS 7S KH QH AC AD 10D KD QD JD",
    "grupp-4": "AS AS 10S KS QS JS 7S KH QH AC AD 10D KD QD JD",
    "binokel-40": "AS AS 10S KS QS JS AH KH QH AC AD 10D",
    "kreuz-48": "AS AS 10S KS QS JS AC AH AD 10C KH",
    "kreuz-40": "AS AS 10S KS QS AC AH AD 10C",
    "pinochle-80": "AH 10H KH QH JH AH 10H KH QS JD AC AS 10C 10S 10D QC JC JS QD JH",
}

# Output fields that measure time, not the game: dropped before digesting (any key with
# "second" in it: seconds, seconds_per_deal, ...).
VOLATILE = {"elapsed", "elapsed_s", "wall", "wall_s", "cpu_s", "time_s", "machine"}


def _volatile(key) -> bool:
    return key in VOLATILE or "second" in str(key)

KINDS = ("advise", "analyze", "simulate", "tournament", "play", "melds", "meld_census",
         "solve", "duplicate", "fit")

# Top-level output fields that echo the command's own arguments: left out of the headline
# (they are in the digest and in the case's argv), so that it shows results.
ECHOED = {"rules", "seed", "samples", "seat", "hand", "auction", "objective", "groups",
          "deals", "iterations", "ridge", "damp", "horizon", "trick_estimate", "inference",
          "scores", "params", "agents", "features", "start", "policy", "baseline"}


@dataclass(frozen=True)
class Case:
    """One pinned computation: ``game``, ``kind`` (one of :data:`KINDS`), ``label``
    (unique within the game), ``argv`` (the CLI arguments, or a description for a
    library call) and ``fn`` (``argv -> payload``).  ``jobs`` marks CLI cases with a
    ``--jobs`` option: regen checks that ``--jobs 2`` gives the same payload."""

    game: str
    kind: str
    label: str
    argv: tuple
    fn: Callable = field(compare=False, repr=False)
    jobs: bool = False

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.label}"

    def compute(self, jobs: int = 1):
        argv = list(self.argv) + (["--jobs", str(jobs)] if self.jobs else [])
        return strip_volatile(self.fn(argv))


# --- payloads ---------------------------------------------------------------------------

def strip_volatile(obj):
    if isinstance(obj, dict):
        return {k: strip_volatile(v) for k, v in obj.items() if not _volatile(k)}
    if isinstance(obj, list):
        return [strip_volatile(v) for v in obj]
    return obj


def canonical(obj) -> str:
    """Canonical JSON: sorted keys, no spaces; Python's json writes floats by repr, so two
    payloads have the same text exactly when their floats are bit-identical."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=True)


def digest(obj) -> str:
    return hashlib.sha256(canonical(obj).encode()).hexdigest()


def cli_json(argv: list):
    """Run ``binokel ARGV --json`` in this process; the parsed JSON (exit 0 asserted)."""
    from click.testing import CliRunner

    from cli.main import cli

    res = CliRunner().invoke(cli, argv + ["--json"], catch_exceptions=False)
    if res.exit_code != 0:
        raise AssertionError(f"binokel {' '.join(argv)} exited {res.exit_code}: {res.output}")
    return json.loads(res.stdout)


def simulate_table(argv: list):
    """``binokel simulate`` through the library call it makes (``analyzer.simulate``): the
    run's summed aggregate table (metric, bin, count, sq) and n_deals.  ``argv`` =
    ``[rules, what, n, seed, chunk_size]`` (+ ``--jobs J`` from :meth:`Case.compute`)."""
    import analyzer as A
    from analyzer.mechanics.rules import get_rules

    rules, what, n, seed, chunk = argv[:5]
    jobs = int(argv[6]) if len(argv) > 5 else 1
    with tempfile.TemporaryDirectory() as tmp:
        r = A.simulate(f"{tmp}/run", A.RunSpec(what, int(n), int(seed), int(chunk),
                                                get_rules(rules)), jobs=jobs)
        t = r.table.reset_index()
        rows = [[str(m), int(b) if isinstance(b, (int, np.integer)) else str(b), int(c), int(s)]
                for m, b, c, s in zip(t.iloc[:, 0], t.iloc[:, 1], t["count"], t["sq"])]
        return {"n_deals": int(r.n_deals), "rows": rows}


def _deck_codes(rules) -> list[str]:
    """The game's physical deck as card codes (ranks A 10 K Q J + the low card, four
    suits, ``copies`` of each), written out here so the census does not depend on the
    project's dealing code (the play logs pin that)."""
    ranks = ["A", "10", "K", "Q", "J"] + ([rules.low_card] if rules.low_card else [])
    copies = getattr(rules, "copies", None) or 2
    return [r + s for s in "CSHD" for r in ranks for _ in range(copies)]


def meld_census(argv: list):
    """Meld values of ``n`` hands dealt by numpy's PCG64 from ``seed`` (each a random
    ``hand_size`` subset of the deck), per trump C S H D, as ``binokel melds --json``
    computes them (meld_report; pinochle-80: V6.3 classes).  ``argv`` = ``[rules, n,
    seed]``.  Payload: the totals (n x 4) and the per-hand meld breakdown counts."""
    from analyzer.mechanics.rules import get_rules

    name, n, seed = argv[0], int(argv[1]), int(argv[2])
    rules = get_rules(name)
    deck = _deck_codes(rules)
    rng = np.random.default_rng(seed)
    totals, named = [], {}
    for _ in range(n):
        idx = rng.choice(len(deck), size=rules.hand_size, replace=False)
        hand = " ".join(deck[i] for i in sorted(idx))
        row = []
        for trump, kinds in _melds_of(hand, rules):
            row.append(trump)
            for k in kinds:
                named[k] = named.get(k, 0) + 1
        totals.append(row)
    return {"totals": totals, "named": dict(sorted(named.items()))}


def _melds_of(hand: str, rules):
    """(total, [meld names]) per trump C S H D, the functions ``binokel melds`` calls."""
    from analyzer.mechanics.cards import SUITS, Hand

    if (getattr(rules, "copies", None) or 2) == 4:
        from analyzer.mechanics.cards import Hand80
        from analyzer.mechanics.melds import class_melds

        h = Hand80.parse(hand, size=rules.hand_size)
        out = []
        for s in SUITS:
            ms = class_melds(h, s.index, rules)
            out.append((sum(m.points for m in ms), [f"{m.name}x{m.times}" for m in ms]))
        return out
    from analyzer import melds

    h = Hand.parse(hand, rules=rules)
    out = []
    for s in SUITS:
        m = melds(h, s, rules)
        out.append((m.total, [str(x) for x in m.melds]))
    return out


# --- headlines: a few readable numbers per kind -----------------------------------------

def _first(rows, keys, k=3):
    return [[r.get(x) for x in keys] for r in rows[:k]]


def headline(kind: str, p) -> dict:
    """A few numbers of payload ``p`` that say what moved when a digest fails."""
    if kind == "meld_census":
        t = np.array(p["totals"], dtype=np.int64)
        return {"hands": len(t), "sum": int(t.sum()), "best_sum": int(t.max(axis=1).sum()),
                "max": int(t.max())}
    if kind == "simulate":
        return {"n_deals": p["n_deals"], "rows": len(p["rows"]),
                "count_sum": sum(r[2] for r in p["rows"]), "sq_sum": sum(r[3] for r in p["rows"])}
    return _generic_headline(p)


def _generic_headline(p) -> dict:
    """Up to 12 numbers found breadth-first (echoed arguments left out), keyed by path."""
    out: dict = {}
    queue = ([(k, v) for k, v in p.items() if k not in ECHOED] if isinstance(p, dict)
             else [("", p)])
    while queue and len(out) < 12:
        path, v = queue.pop(0)
        if isinstance(v, bool) or v is None or isinstance(v, str):
            continue
        if isinstance(v, (int, float)):
            out[path or "."] = v
        elif isinstance(v, dict):
            queue += [(f"{path}.{k}" if path else k, x) for k, x in v.items()]
        elif isinstance(v, list):
            queue += [(f"{path}[{i}]", x) for i, x in enumerate(v[:3])]
    return out


def record(case: Case, payload) -> dict:
    return {"argv": list(case.argv), "sha256": digest(payload),
            "headline": headline(case.kind, payload)}


# --- the case list ----------------------------------------------------------------------

# Seats and auctions per game for the advice with calls before: a three-player middlehand
# after forehand's 150 (R3); a team seat after two calls (V6.2 open bidding in pinochle-80,
# V1 duels in the Kreuz games).
_SEAT = {g: "middlehand" for g in THREE_PLAYER} | {"kreuz-48": "1", "kreuz-40": "1",
                                                     "pinochle-80": "1"}
_CALLS = {g: "150" for g in THREE_PLAYER} | {"kreuz-48": "150", "kreuz-40": "150",
                                              "pinochle-80": "500"}
_SCORES = {g: "300,500,200" for g in THREE_PLAYER} | {t: "600,450" for t in TEAM}
_PIMC_PLAY = ("binokel-48", "grupp-3", "grupp-4")   # --play pimc: refused in binokel-40, team games
_SOLVE = ("binokel-48",)           # solve, duplicate, fit-defence: no --rules option today
_DURCH = ("binokel-48", "grupp-3", "grupp-4", "kreuz-48")   # games with a Durch (V5.7: not 40)


def cases_of(game: str) -> list[Case]:
    """Every pinned case of ``game`` (small sizes: regression guards, not statistics)."""
    r = ["--rules", game]
    hand = HANDS[game]
    three = game in THREE_PLAYER
    c: list[Case] = []

    def add(kind, label, argv, fn=cli_json, jobs=False):
        c.append(Case(game, kind, label, tuple(argv), fn, jobs))

    # advice tables (R3, V2.2, V6.2): plain, after calls, with game scores, look-ahead
    add("advise", "open-n200", ["advise", *r, hand, "--seat", "0" if not three else "forehand",
                                "-n", "200", "--seed", "1"], jobs=True)
    add("advise", "after-calls-n200", ["advise", *r, hand, "--seat", _SEAT[game], "--auction",
                                       _CALLS[game], "-n", "200", "--seed", "2"], jobs=True)
    add("advise", "scores-n200", ["advise", *r, hand, "--seat", _SEAT[game], "--auction",
                                  _CALLS[game], "--scores", _SCORES[game], "-n", "200",
                                  "--seed", "3"], jobs=True)
    add("advise", "lookahead-n60", ["advise", *r, hand, "--seat", _SEAT[game], "--auction",
                                    _CALLS[game], "--lookahead", "-n", "60", "--seed", "4"],
        jobs=True)
    if game in _PIMC_PLAY:
        add("advise", "pimc-n8", ["advise", *r, hand, "--seat", _SEAT[game], "--auction",
                                  _CALLS[game], "--play", "pimc", "-n", "8", "--seed", "6"],
            jobs=True)
        add("advise", "pimc-defence-n12", ["advise", *r, hand, "--seat", _SEAT[game],
                                           "--auction", _CALLS[game], "--play", "pimc-defence",
                                           "-n", "12", "--seed", "5"], jobs=True)
    # analysis summaries (R4-R8 / V-sections of the game)
    add("analyze", "n300", ["analyze", *r, hand, "-n", "300", "--seed", "1"], jobs=True)
    if game in _PIMC_PLAY:
        add("analyze", "pimc-n16", ["analyze", *r, hand, "-n", "16", "--seed", "2", "--play",
                                    "pimc"], jobs=True)
        add("analyze", "pimc-defence-n16", ["analyze", *r, hand, "-n", "16", "--seed", "3",
                                            "--play", "pimc-defence"], jobs=True)
    # simulate summaries: the deal runs and the meld census of every game (a partners
    # table's census: analyzer.batch.table_census, issue 24)
    add("simulate", "deals-n400", [game, "deals", 400, 11, 200], simulate_table, jobs=True)
    add("simulate", "melds-n4000", [game, "melds", 4000, 11, 2000], simulate_table, jobs=True)
    # tournaments: whole games (--groups); team games also the single-deal match (--deals)
    add("tournament", "groups2-n20", ["tournament", *r, "--groups", "2", "--samples", "20",
                                      "--seed", "3"], jobs=True)
    # the look-ahead advisor against the fitted model of the advisor (shipped fits)
    add("tournament", "la-vs-fit-groups2-n10", ["tournament", *r, "--agents",
                                                "advisor-la,advisor-fit", "--groups", "2",
                                                "--samples", "10", "--seed", "5"], jobs=True)
    if not three:
        add("tournament", "deals8-n20", ["tournament", *r, "--deals", "8", "--samples", "20",
                                         "--seed", "3"], jobs=True)
    # trick logs of seeded deals (R6-R8): every policy, a trump and a Durch / no soloist
    # (pinned before `play --seed` alone played a whole deal with its auction, issue 27:
    # the old default contract, soloist 0 with trump S, now named; the same numbers)
    add("play", "seed7-heuristic", ["play", *r, "--seed", "7", "--soloist", "0", "--trump", "S"])
    add("play", "seed8-random-H", ["play", *r, "--seed", "8", "--policy", "random", "--trump",
                                   "H", "--soloist", "1"])
    if three:
        add("play", "seed9-heuristic-v1-C", ["play", *r, "--seed", "9", "--policy",
                                             "heuristic-v1", "--trump", "C", "--soloist", "2"])
    if game in _DURCH:
        add("play", "seed11-durch", ["play", *r, "--seed", "11", "--trump", "durch",
                                     "--soloist", "1" if three else "3"])
    add("play", "seed10-no-soloist", ["play", *r, "--seed", "10", "--soloist", "none"])
    # melds (R5 / V2.5 / V6.3): the example hand, and a census of seeded hands
    add("melds", "hand", ["melds", *r, hand])
    add("meld_census", "n300-seed1", [game, 300, 1], meld_census)
    if game in _SOLVE:
        add("solve", "seed7-tricks-left6-H", ["solve", "--seed", "7", "--tricks-left", "6",
                                              "--trump", "H"])
        add("solve", "seed8-tricks-left5-C-soloist1", ["solve", "--seed", "8", "--tricks-left",
                                                       "5", "--trump", "C", "--soloist", "1"])
        add("solve", "position", ["solve", "--position", "S 0 1 AS,10H KD QS,JC 9C"])
        add("solve", "position-durch", ["solve", "--position",
                                         "N 0 0 AS,10S,KH KD,QS,AH JC,9C,10H -"])
        add("duplicate", "pimc-n6", ["duplicate", "--deals", "6", "--seed", "1", "--samples",
                                     "4", "--horizon", "3"])
        add("duplicate", "heuristic-n40", ["duplicate", "--deals", "40", "--seed", "2",
                                           "--policy", "heuristic"])
        add("duplicate", "heuristic-lin-defenders-n40", ["duplicate", "--deals", "40",
                                                         "--seed", "3", "--policy",
                                                         "heuristic-lin", "--config",
                                                         "defenders"])
        # the defence fit's own play loop (fit_defence._play) and its least squares; the
        # weights are printed to 3 decimals
        add("fit", "defence-n20-it1", ["fit-defence", "--deals", "20", "--iterations", "1"])
    return c


def all_cases(games=GAMES, kinds=KINDS) -> list[Case]:
    return [x for g in games for x in cases_of(g) if x.kind in kinds]
