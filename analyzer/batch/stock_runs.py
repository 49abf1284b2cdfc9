"""Played deals of a game with a stock (``binokel simulate --rules binokel-2``, V7).

The stock game's counterpart of :func:`analyzer.batch.runs.deal_chunk`, run by the same
engine (analyzer.batch.runs: chunks, FORMAT 2 Parquet parts written atomically, manifest,
run digest, resume, damaged or foreign parts detected, joblib / Dask, progress).  Chunk
``i`` draws every deal's order from ``rng.chunk_state(seed, i)``
(:func:`analyzer.mechanics.stock_play.shuffled_order`, one after the other) and seeds the
policies of its deal ``j`` with ``random.Random(f"{seed}:{i}:{j}")``; so a run's numbers
depend on (seed, n, chunk size) only, never on --jobs.  Every deal is dealt (V7.1),
played to its end by the heuristic policy at both seats (analyzer.search.stock_policies:
each seat reads only what it knows while the stock lasts, V7; the exact solver after
it, V7.4) from a game score of 0 : 0, and scored (V7.4).

The metrics (one unit per deal, so ``sq`` = ``count``), per seat ``s`` (0 forehand,
1 dealer, V7):

- ``stock.points.seat.<s>``: the deal's points (melds + Dissles + card points + last
  trick, V7.4), an exact-value histogram; ``stock.diff``: forehand's minus the dealer's;
- ``stock.melds.seat.<s>``: meld points shown, Dissles included (V7.3);
- ``stock.cards.seat.<s>``: card points of the tricks taken, the last trick's 10 included;
- ``stock.shown.<kind>.seat.<s>``: how many melds of that kind the seat showed (bin =
  count; ``<kind>`` the meld table's names, a plain pair of any suit is ``pair``, spaces
  written ``_``);
- ``stock.dissle.seat.<s>``: Dissles the seat scored (turned, shown or played, V7.3);
- ``stock.last``: the seat that won the last trick (-1: the deal ended by a claim);
- ``stock.claim``: the seat that claimed the game (V7.5), -1 none.
"""
from __future__ import annotations

import json
import random

import numpy as np

from analyzer.batch.part_rows import hist_rows as _hist
from analyzer.errors import BinokelError

#: deals per chunk by default: a heuristic deal costs ~0.1-0.2 s of CPU (the exact endgame)
STOCK_CHUNK = 200
SEATS = (0, 1)


def has_stock(rules) -> bool:
    """True for a RuleSet with a stock (V7); the run engine asks this, never the name."""
    stock = getattr(rules, "stock", None)
    return bool(stock is not None and getattr(stock, "size", 0))


def stock_rules_dict(game) -> dict:
    """The manifest's record of a stock game's rules: its name, ``stock: true`` and every
    part's fields (``RuleSet.describe_parts``, as JSON stores it)."""
    parts = json.loads(json.dumps(game.describe_parts(), default=str))
    return {"name": game.name, "stock": True, "section": game.section, "parts": parts}


def stock_rules_from_dict(d: dict, where: str = "rules"):
    """The registered stock game a manifest names, if its parts are this version's; a
    one-line BinokelError otherwise (another version's rules are never silently used)."""
    from analyzer.mechanics.ruleset import get_game

    try:
        game = get_game(str(d.get("name")))
    except BinokelError as exc:
        raise BinokelError(f"{where}: {exc}") from None
    if not has_stock(game) or stock_rules_dict(game)["parts"] != d.get("parts"):
        raise BinokelError(f"{where}: the run was made under other {game.name} rules than this "
                           "version's (its parts differ)")
    return game


def stock_deal_policy(game) -> dict:
    """The policies a stock ``deals`` run uses (recorded in its manifest)."""
    return {"play": "heuristic at both seats (stock_policies.Heuristic; exact endgame, V7.4)",
            "deal": "uniform (V7.1)", "game score": "0 : 0"}


def meld_slug(kind: str) -> str:
    return kind.replace(" ", "_")


def stock_deal_table(seed: int, chunk: int, n_deals: int, game) -> np.ndarray:
    """One row per deal of chunk ``chunk``: points, melds, card points, Dissles per seat,
    last-trick seat, claimant, then the count shown per meld kind and seat."""
    from analyzer.analyses.stock_analysis import meld_kind, meld_kinds
    from analyzer.mechanics import stock_play as sp
    from analyzer.mechanics.rng import chunk_state
    from analyzer.mechanics.stock_deal import StockDeal
    from analyzer.search.stock_policies import Heuristic

    kinds = meld_kinds(game)
    state = chunk_state(seed, chunk)
    pol = Heuristic(game)
    out = np.zeros((n_deals, 10 + 2 * len(kinds)), dtype=np.int64)
    for j in range(n_deals):
        deal = StockDeal.from_order(game, sp.shuffled_order(state))
        rng = random.Random(f"{seed}:{chunk}:{j}")
        while not deal.over():
            deal.apply(pol(deal, rng))
        row = out[j]
        for s in SEATS:
            row[s] = deal.points(s)
            row[2 + s] = deal.melds_points(s)
            row[4 + s] = deal.points(s) - deal.melds_points(s)
        row[8] = -1
        for e in deal.log:
            if e[0] == "meld":
                row[10 + 2 * kinds.index(meld_kind(e[3])) + e[1]] += 1
                row[6 + e[1]] += e[3] == "Dissle"
            elif e[0] in ("dissle turned", "dissle played"):
                row[6 + e[1]] += 1
            elif e[0] == "claim":
                row[8] = e[1]
        row[9] = int(deal.st[sp.LASTWIN]) if row[8] < 0 else -1
    return out


def stock_deal_rows(seed: int, chunk: int, n_deals: int, game) -> list:
    """A stock ``deals`` chunk: play ``n_deals`` deals and aggregate them (a part's rows,
    the metrics of the module doc)."""
    from analyzer.analyses.stock_analysis import meld_kinds

    t = stock_deal_table(seed, chunk, n_deals, game)
    rows: list = []
    for s in SEATS:
        _hist(f"stock.points.seat.{s}", t[:, s], rows)
        _hist(f"stock.melds.seat.{s}", t[:, 2 + s], rows)
        _hist(f"stock.cards.seat.{s}", t[:, 4 + s], rows)
        _hist(f"stock.dissle.seat.{s}", t[:, 6 + s], rows)
        for k, kind in enumerate(meld_kinds(game)):
            _hist(f"stock.shown.{meld_slug(kind)}.seat.{s}", t[:, 10 + 2 * k + s], rows)
    _hist("stock.diff", t[:, 0] - t[:, 1], rows)
    _hist("stock.claim", t[:, 8], rows)
    _hist("stock.last", t[:, 9], rows)
    return rows
