"""The table for two (issue 26): one deal of a game with a stock (V7) against the program,
with hints on request.  Routes ``/table`` (the page, web/static/table2.*) and
``/api/table/{new,state,act,hint}``.

Where the state lives.  The server holds nothing per player: a table is its ``rules``,
``seed`` (the deal, :meth:`StockDeal.from_seed`), ``seat`` (yours: the game's seat name
or index), ``policy`` (the program's, :data:`analyzer.search.stock_registry.POLICIES`),
``before`` (both game scores before the deal, V7.5) and ``moves``: every decision so far,
both seats', as tokens joined by ``.`` (:func:`token`): ``p<card>`` plays a physical card
(``type * 2 + copy``), ``m<pattern>-<mask hex>`` shows a meld, ``x`` passes the meld,
``c`` claims (V7.2-V7.5).  Every request replays ``moves`` through the checked
:meth:`StockDeal.apply` (an illegal one is HTTP 400 naming its rule), then lets the program
act until it is your turn; the program's choices are seeded by ``(seed, move number)``, so
the same request always gives the same answer and the page's URL restores the table.  A
hand-edited URL can only turn the program's past moves into other legal ones.

What you see (:func:`view`): your cards, the turned trump while it lies under the stock,
the stock count, the opponent's card count and shown melds (its whole hand once the stock
is gone: every other card has been seen, V7.4), the trick on the table, the scores, a log
in which the opponent's draws stay face down.

Hints (:func:`hint`) are computed from :func:`view_deal`: the deal stripped to your view,
the opponent's hidden cards and the face-down stock replaced by one canonical arrangement
of the cards you have not seen, the past draws wiped.  Two deals that look the same to you
give the same hint, whatever the opponent holds (tests/web/test_stock_table_api.py swaps
hidden cards to check it).  While the stock lasts the hint is PIMC
(:meth:`analyzer.search.stock_pimc.Pimc.action_values`: worlds sampled from your view,
heuristic to the end of the stock, exact after it) with n and SE; once the stock is gone it
is the exact solver's value (:class:`analyzer.search.stock_solve.EndgameSolver`).  A value
is your deal points minus the opponent's at the end of the deal.
"""
from __future__ import annotations

import asyncio
import random
import re
import secrets
import threading
from typing import Annotated

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from analyzer.bounds import SEED, Bound
from analyzer.errors import BinokelError
from analyzer.mechanics import stock_play as sp
from analyzer.mechanics.ruleset import GAMES, get_game
from analyzer.mechanics.stock_deal import StockDeal, card_name, cards_of
from analyzer.search.stock_pimc import Pimc, unseen
from analyzer.search.stock_registry import POLICIES, policy_of

from . import params as P

#: a deal has 24 tricks (48 plays), 12 meld decisions and at most one claim (V7.2-V7.5)
MAX_MOVES = 64
MAX_MOVES_TEXT = MAX_MOVES * 16
#: a game score before the deal: a player at 1000 has won already (V7.5)
BEFORE = Bound(0, 999, "a player at 1000 has won the game, V7.5")
#: a seed the page's JavaScript holds exactly (a double's 53 bits), within analyzer.bounds' SEED
TABLE_SEED = SEED.capped(2**53 - 1, "the page keeps seeds below 2**53")
#: worlds of a hint: PIMC plays every action on in each (~0.5 s a world early in the deal)
HINT_WORLDS = Bound(1, 64, "each world plays every action to the end of the deal")
DEFAULT_HINT_WORLDS = 8
SYMBOLS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
KIND_WORDS = {sp.DISSLE_KIND: "Dissle", sp.PAIR: "pair", sp.QUINT: "quint",
              sp.OF_A_KIND: "of a kind", sp.BINOKEL: "binokel"}
# the solver's tables are shared: one decision at a time (a local page, one player)
_LOCK = threading.Lock()
_POLICY_CACHE: dict = {}


def stock_games() -> list[str]:
    """The registered games with a stock (the RuleSet's stock part, V7.1): the ones this
    table deals."""
    return [name for name, g in GAMES.items() if serves(g)]


def serves(rules) -> bool:
    """True when the table deals ``rules`` (a RuleSet or its flat view): the registered
    game has a stock part (V7.1)."""
    game = GAMES.get(rules.name)
    return game is not None and getattr(game, "stock", None) is not None and bool(game.stock.size)


# ---------------------------------------------------------------- the request

Name = Annotated[str, StringConstraints(max_length=P.MAX_NAME)]


class TableRequest(BaseModel):
    """One table request (every endpoint; ``action`` for act, ``worlds`` for hint)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    rules: Name | None = None
    seed: Annotated[int, Field(ge=TABLE_SEED.lo, le=TABLE_SEED.hi), TABLE_SEED] | None = None
    seat: Name | None = None
    policy: Name | None = None
    before: Name | None = None
    moves: Annotated[str, StringConstraints(max_length=MAX_MOVES_TEXT)] | None = None
    action: Name | None = None
    worlds: Annotated[int, Field(ge=HINT_WORLDS.lo, le=HINT_WORLDS.hi), HINT_WORLDS] | None = None


FIELDS = tuple(TableRequest.model_fields)


def parse_request(raw: P.Params | dict) -> TableRequest:
    """The request's fields, checked by the schema: BadRequest with one line otherwise."""
    text = getattr(raw, "text", False)
    try:
        return (TableRequest.model_validate_strings(dict(raw)) if text
                else TableRequest.model_validate(dict(raw)))
    except ValidationError as exc:
        extra = [e for e in exc.errors(include_url=False) if e["type"] == "extra_forbidden"]
        if extra:
            raise P.BadRequest(f"unknown parameter {str(extra[0]['loc'][0])[:40]!r} for the table: "
                               f"use {', '.join(FIELDS)}") from None
        raise P.BadRequest(P.one_line("table", TableRequest, exc, text)) from None


class Table:
    """A request read: ``game`` (the RuleSet), ``me`` (your seat), ``policy`` (its name),
    ``before``, ``seed``, ``moves`` (tokens)."""

    def __init__(self, req: TableRequest, *, need_seed: bool):
        names = stock_games()
        name = (req.rules or "").strip() or (names[0] if names else "")
        if name not in names:
            raise P.BadRequest(f"rules: the table deals the games with a stock (V7.1): "
                               f"{', '.join(names) or 'none registered'}; not {name[:40]!r}")
        self.game = get_game(name)
        seats = list(self.game.table.seat_names[:2])
        s = (req.seat or seats[0]).strip().lower()
        if s in seats:
            self.me = seats.index(s)
        elif s in ("0", "1"):
            self.me = int(s)
        else:
            raise P.BadRequest(f"seat: {s[:40]!r} is no seat of {name}: use {' or '.join(seats)} "
                               "(0 leads the first trick, 1 deals; V7.2)")
        self.policy = (req.policy or "heuristic").strip()
        if self.policy not in POLICIES:
            raise P.BadRequest(f"policy: unknown {self.policy[:40]!r}: use {', '.join(POLICIES)}")
        if req.seed is None and need_seed:
            raise P.BadRequest("seed: missing (the deal is replayed from its seed, V7.1)")
        self.seed = req.seed if req.seed is not None else secrets.randbelow(1_000_000)
        self.before = parse_before(req.before)
        self.moves = parse_moves(req.moves or "")

    def query(self, moves: list[str]) -> dict:
        """The table's parameters as the page's URL holds them."""
        q = {"rules": self.game.name, "seed": self.seed, "seat": self.game.table.seat_names[self.me],
             "policy": self.policy}
        if any(self.before):
            q["before"] = f"{self.before[0]},{self.before[1]}"
        if moves:
            q["moves"] = ".".join(moves)
        return q


def parse_before(text: str | None) -> tuple[int, int]:
    """``"a,b"``: the two game scores before the deal (seat 0, seat 1; V7.5)."""
    if not text or not text.strip():
        return (0, 0)
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(re.fullmatch(r"\d{1,4}", p) for p in parts):
        raise P.BadRequest(f"before: give the two game scores before the deal as '300,450', "
                           f"not {text[:40]!r} (V7.5)")
    vals = tuple(int(p) for p in parts)
    for v in vals:
        msg = BEFORE.problem(v)
        if msg:
            raise P.BadRequest(f"before: a game score {msg}")
    return vals


_TOKEN = re.compile(r"p(\d{1,2})|m(\d{1,3})-([0-9a-f]{1,12})|x|c")


def parse_moves(text: str) -> list[str]:
    """The moves as tokens (module docstring); at most MAX_MOVES."""
    toks = [t for t in text.strip().split(".")] if text.strip() else []
    if len(toks) > MAX_MOVES:
        raise P.BadRequest(f"moves: {len(toks)} moves; a deal has at most {MAX_MOVES} decisions "
                           "(24 tricks, 12 melds, a claim; V7.2-V7.5)")
    for i, t in enumerate(toks):
        if not _TOKEN.fullmatch(t):
            raise P.BadRequest(f"moves[{i}]: {t[:20]!r} is no action: p<card> plays, m<meld>-<cards> "
                               "shows a meld, x passes, c claims (V7.2-V7.5)")
    return toks


def token(action: tuple) -> str:
    """An action tuple of :class:`StockDeal` -> its token."""
    if action[0] == "play":
        return f"p{int(action[1])}"
    if action[0] == "meld":
        return f"m{int(action[2])}-{int(action[1]):x}"
    return {"pass": "x", "claim": "c"}[action[0]]


def action_of(tok: str) -> tuple:
    m = _TOKEN.fullmatch(tok)
    if m.group(1) is not None:
        return ("play", int(m.group(1)))
    if m.group(2) is not None:
        return ("meld", int(m.group(3), 16), int(m.group(2)))
    return ("pass",) if tok == "x" else ("claim",)


# ---------------------------------------------------------------- replay and the program

def apply_checked(deal: StockDeal, tok: str, where: str) -> None:
    """Apply one token, refusing (BadRequest naming the rule) what the deal does not allow;
    a claim below the target is refused too (V7.5: it would lose the game)."""
    if deal.over():
        raise P.BadRequest(f"{where}: V7.5: the deal is over")
    act = action_of(tok)
    if act[0] == "play" and act[1] > 47:
        raise P.BadRequest(f"{where}: V7.1: no card {act[1]} (cards are 0-47)")
    if act[0] == "claim" and not deal.may_claim():
        seat = deal.to_act()
        have = int(deal.st[sp.BEFORE0 + seat]) + deal.points(seat)
        target = int(deal.r.params[sp.P_TARGET])
        raise P.BadRequest(f"{where}: V7.5: a claim below {target} loses the game; "
                           f"{deal.game.table.seat_names[seat]} has {have}, the table refuses it")
    try:
        deal.apply(act)
    except BinokelError as exc:
        raise P.BadRequest(f"{where}: {exc}") from None


def _policy(table: Table):
    key = (table.game.name, table.policy)
    if key not in _POLICY_CACHE:
        _POLICY_CACHE[key] = policy_of(table.policy, table.game)
    return _POLICY_CACHE[key]


def _rng(seed: int, step: int, what: str) -> random.Random:
    """The random stream of one decision: the same request, the same choice."""
    return random.Random(f"{what}:{seed}:{step}")


def program_moves(table: Table, deal: StockDeal, moves: list[str]) -> None:
    """The program acts (its policy) until it is your turn or the deal is over."""
    pol = _policy(table)
    while not deal.over() and deal.to_act() != table.me and len(moves) < MAX_MOVES:
        rng = _rng(table.seed, len(moves), "program")
        if isinstance(pol, Pimc):
            pol.rng = rng
        act = pol(deal, rng)
        deal.apply(act)
        moves.append(token(act))


def replay(table: Table, action: str | None = None) -> tuple[StockDeal, list[str]]:
    """The deal after ``table.moves`` (each checked), your ``action`` if given, and the
    program's replies."""
    deal = StockDeal.from_seed(table.game, table.seed, table.before)
    moves: list[str] = []
    for i, tok in enumerate(table.moves):
        apply_checked(deal, tok, f"moves[{i}]")
        moves.append(tok)
    if action is not None:
        if not _TOKEN.fullmatch(action):
            raise P.BadRequest(f"action: {action[:20]!r} is no action: p<card>, m<meld>-<cards>, "
                               "x (pass) or c (claim) (V7.2-V7.5)")
        if not deal.over() and deal.to_act() != table.me:
            who = table.game.table.seat_names[deal.to_act()]
            raise P.BadRequest(f"action: V7.2: it is the program's turn ({who}), not yours")
        apply_checked(deal, action, "action")
        moves.append(action)
    program_moves(table, deal, moves)
    return deal, moves


# ---------------------------------------------------------------- what you see

def card_text(c: int) -> str:
    """Physical card -> rank and suit symbol (``10♥``)."""
    code = card_name(c)
    return code[:-1] + SYMBOLS[code[-1]]


def _card(deal: StockDeal, c: int) -> dict:
    kinds = deal.shown(c)
    return {"card": c, "code": card_name(c), "text": card_text(c), "suit": card_name(c)[-1],
            "shown": [w for k, w in KIND_WORDS.items() if kinds & k]}


def _sort_key(deal: StockDeal, c: int):
    t = c // 2
    # trump first, then the suits in their order; high cards first
    return ((t // 6) != deal.trump, t // 6, t % 6, c)


def _meld_label(deal: StockDeal, mask: int, p: int) -> str:
    return f"{deal.meld_name(p)} {deal.meld_value(p)}: " + " ".join(card_text(c) for c in cards_of(mask))


def _legal_reps(deal: StockDeal) -> dict[int, int]:
    """Each legal physical card of the player to act -> the one the actions list (of two
    identical copies, the first)."""
    if deal.over() or deal.st[sp.TO_MELD] >= 0:
        return {}
    mask = int(sp.legal_plays(deal.st, deal.r.params, deal.r.beat))
    reps = deal.legal_plays()
    out = {}
    for c in cards_of(mask):
        out[c] = next((r for r in reps if r // 2 == c // 2 and deal.shown(r) == deal.shown(c)), c)
    return out


def _label(deal: StockDeal, act: tuple, me: int) -> str:
    if act[0] == "play":
        return card_text(act[1])
    if act[0] == "meld":
        return _meld_label(deal, act[1], act[2])
    if act[0] == "pass":
        return "show no meld"
    have = int(deal.st[sp.BEFORE0 + me]) + deal.points(me)
    return f"claim the game ({have})"


def _log(deal: StockDeal, me: int, names) -> list[dict]:
    """The tricks as you saw them: cards, winner, points, meld, your draw (the opponent's
    stays face down unless it was the turned trump, V7.1)."""
    pts = deal.r.params[sp.P_POINTS:sp.P_POINTS + 24]
    out: list[dict] = []
    for e in deal.log:
        if e[0] == "play":
            if not out or out[-1]["winner"] is not None:
                out.append({"n": len(out) + 1, "cards": [], "winner": None, "points": 0,
                            "meld": None, "draws": [], "notes": []})
            out[-1]["cards"].append({"seat": e[1], "who": names[e[1]], **_card(deal, e[2])})
            out[-1]["points"] += int(pts[e[2] // 2])
        elif e[0] == "trick":
            out[-1]["winner"] = e[1]
        elif e[0] == "meld":
            out[-1]["meld"] = {"seat": e[1], "name": e[3], "value": int(e[4]),
                               "cards": [card_text(c) for c in cards_of(e[2])]}
        elif e[0] == "dissle played":
            out[-1]["notes"].append(f"{names[e[1]]} played the Dissle: 10 (V7.3)")
        elif e[0] == "draw":
            seen = e[1] == me or e[2] == deal.turned
            out[-1]["draws"].append({"seat": e[1], "card": card_text(e[2]) if seen else None})
        elif e[0] == "claim":
            if not out:
                out.append({"n": 1, "cards": [], "winner": None, "points": 0, "meld": None,
                            "draws": [], "notes": []})
            out[-1]["notes"].append(f"{names[e[1]]} claimed the game at {e[2]} (V7.5)")
    if out and out[-1]["winner"] is not None and deal.st[sp.LAST] >= 0 and deal.st[sp.TRICKS] == 24:
        out[-1]["points"] += int(deal.r.params[sp.P_LAST_BONUS])
        out[-1]["notes"].append(f"last trick: 10 for {names[int(deal.st[sp.LAST])]} (V7.4)")
    return out


def _result(deal: StockDeal, me: int, names, before) -> dict | None:
    if not deal.over():
        return None
    pts = [deal.points(s) for s in (0, 1)]
    game = [before[s] + pts[s] for s in (0, 1)]
    target = int(deal.r.params[sp.P_TARGET])
    w = deal.winner()
    if w >= 0:
        claimant = int(deal.st[sp.CLAIMED])
        text = (f"{'You' if claimant == me else 'The program'} claimed the game at "
                f"{game[claimant]}: {'you win' if w == me else 'the program wins'} the game (V7.5)")
    elif max(game) >= target and game[0] != game[1]:
        gw = 0 if game[0] > game[1] else 1
        text = f"{'You win' if gw == me else 'The program wins'} the game, {game[gw]} to {game[1 - gw]} (V7.5)"
    else:
        dw = None if pts[0] == pts[1] else (0 if pts[0] > pts[1] else 1)
        hi, lo = max(pts), min(pts)
        text = ("The deal is level" if dw is None else
                f"{'You win' if dw == me else 'The program wins'} the deal") + \
               f", {hi} to {lo}; the game goes on (V7.4, V7.5)"
    return {"points": pts, "game": game, "winner": w, "text": text}


def view(table: Table, deal: StockDeal, moves: list[str]) -> dict:
    """The table as you see it (module docstring): JSON-ready."""
    me, opp = table.me, 1 - table.me
    names = list(table.game.table.seat_names[:2])
    to_act = deal.to_act()
    stock = deal.stock_left()
    turned_in_stock = stock > 0 and int(deal.st[sp.STOCK + deal.st[sp.SSIZE] - 1]) == deal.turned
    phase = "over" if to_act < 0 else ("meld" if deal.st[sp.TO_MELD] >= 0 else "play")
    reps = _legal_reps(deal) if to_act == me else {}
    hand = []
    for c in sorted(deal.hand(me), key=lambda c: _sort_key(deal, c)):
        row = _card(deal, c)
        row["token"] = f"p{reps[c]}" if c in reps else None
        hand.append(row)
    opp_hand = deal.hand(opp)
    known = opp_hand if stock == 0 else [c for c in opp_hand if deal.shown(c) or c == deal.turned]
    actions = []
    if to_act == me:
        for a in deal.legal_actions(claims=True):
            if a[0] == "play":
                continue             # the cards in the hand carry their tokens
            actions.append({"token": token(a), "kind": a[0], "label": _label(deal, a, me)})
    table_cards = []
    if deal.st[sp.TABLE] >= 0:
        leader = int(deal.st[sp.LEADER])
        table_cards = [{"seat": leader, "who": names[leader], **_card(deal, int(deal.st[sp.TABLE]))}]
    log = _log(deal, me, names)
    last = next((t for t in reversed(log) if t["winner"] is not None), None)
    scores = []
    for s in (0, 1):
        m = deal.melds_points(s)
        scores.append({"seat": s, "name": names[s], "you": s == me, "melds": m,
                       "cards": deal.points(s) - m, "deal": deal.points(s),
                       "game": table.before[s] + deal.points(s)})
    return {
        "rules": table.game.name, "seed": table.seed, "seat": me, "seats": names,
        "policy": table.policy, "before": list(table.before), "moves": ".".join(moves),
        "n_moves": len(moves), "query": table.query(moves),
        "trump": "CSHD"[deal.trump], "trump_symbol": SYMBOLS["CSHD"[deal.trump]],
        "turned": {**_card(deal, deal.turned),
                   "where": "stock" if turned_in_stock else "drawn"},
        "stock": stock, "phase": phase,
        "to_act": None if to_act < 0 else ("you" if to_act == me else "program"),
        "hand": hand, "actions": actions,
        "opponent": {"seat": opp, "name": names[opp], "count": len(opp_hand),
                     "known": [_card(deal, c) for c in sorted(known, key=lambda c: _sort_key(deal, c))],
                     "all_known": stock == 0},
        "table": table_cards, "last_trick": last["cards"] if last else [],
        "last_winner": last["winner"] if last else None,
        "scores": scores, "log": log, "result": _result(deal, me, names, table.before),
        "target": int(deal.r.params[sp.P_TARGET]),
    }


# ---------------------------------------------------------------- hints

def view_deal(deal: StockDeal, seat: int) -> StockDeal:
    """The deal as ``seat`` sees it: the opponent's hidden cards and the face-down stock
    replaced by one canonical arrangement of the cards ``seat`` has not seen (sorted:
    the opponent gets the lowest), the turned card kept at the bottom while it is there,
    the shown cards kept, the past draws wiped from the state and the opponent's draws
    from the log.  Two deals ``seat`` cannot tell apart give equal views."""
    v = deal.copy()
    st = v.st
    opp = 1 - seat
    hidden, stock, turned = unseen(deal, seat)
    pool = sorted(hidden + stock)
    keep = 0
    for c in deal.hand(opp):
        if c not in hidden:
            keep |= 1 << c
    for c in pool[:len(hidden)]:
        keep |= 1 << c
    st[sp.H0 + opp] = np.int64(keep)
    pos = int(st[sp.SPOS])
    for i, c in enumerate(pool[len(hidden):] + ([turned] if turned >= 0 else [])):
        st[sp.STOCK + pos + i] = c
    st[sp.STOCK:sp.STOCK + pos] = -1
    v.log = [e for e in deal.log if not (e[0] == "draw" and e[1] == opp and e[2] != deal.turned)]
    return v


def hint(table: Table, deal: StockDeal, moves: list[str], worlds: int) -> dict:
    """The value of each of your legal actions, from :func:`view_deal` only: PIMC while
    the stock lasts (``worlds`` worlds, n and SE), exact once it is gone (V7.4)."""
    me = table.me
    if deal.over() or deal.to_act() != me:
        raise P.BadRequest("hint: V7.5: the deal is over" if deal.over()
                           else "hint: V7.2: it is the program's turn")
    seen = view_deal(deal, me)
    exact = seen.stock_left() == 0
    pimc = _hint_pimc(table.game)
    rows = []
    if exact:
        solver = pimc.h.solver
        vals = solver.card_values(seen)
        a, b = solver.values(seen)
        own, other = seen.points(me), seen.points(1 - me)
        for c, v in vals.items():
            rows.append({"token": f"p{c}", "kind": "play", "label": card_text(c),
                         "mean": float(own + v - (other + a + b - v)), "se": 0.0, "n": 1})
        method = "exact: both hands are known once the stock is gone (V7.4)"
    else:
        pimc.rng = _rng(table.seed, len(moves), "hint")
        for a, mean, se, n in pimc.action_values(seen, worlds=worlds):
            rows.append({"token": token(a), "kind": a[0], "label": _label(seen, a, me),
                         "mean": mean, "se": se if n > 1 else None, "n": n})
        method = (f"PIMC over {worlds} worlds dealt from what you have seen (heuristic to the "
                  "end of the stock, exact after it; V7.2-V7.4)")
    if seen.may_claim(me):
        rows.append({"token": "c", "kind": "claim", "label": _label(seen, ("claim",), me),
                     "mean": None, "se": None, "n": 0, "note": "wins the game now (V7.5)"})
    best = max((r["mean"] for r in rows if r["mean"] is not None), default=None)
    for r in rows:
        r["best"] = r["mean"] is not None and best is not None and r["mean"] >= best - 1e-9
    return {"method": method, "exact": exact, "worlds": None if exact else worlds,
            "value": "your deal points minus the program's at the end of the deal",
            "n_moves": len(moves), "actions": rows}


def _hint_pimc(game) -> Pimc:
    key = (game.name, "hint")
    if key not in _POLICY_CACHE:
        _POLICY_CACHE[key] = Pimc(game)
    return _POLICY_CACHE[key]


# ---------------------------------------------------------------- the endpoints

def answer(op: str, raw) -> dict:
    """One API call (``new``, ``state``, ``act``, ``hint``) on its parameters: the JSON."""
    req = parse_request(raw)
    if op == "new":
        if req.moves or req.action:
            raise P.BadRequest("new: a new deal takes no moves or action (use /api/table/state)")
    if op != "act" and req.action is not None:
        raise P.BadRequest(f"{op}: takes no action (use /api/table/act)")
    if op == "act" and req.action is None:
        raise P.BadRequest("action: missing (the token of one of your legal actions)")
    if op != "hint" and req.worlds is not None:
        raise P.BadRequest(f"{op}: worlds is a parameter of the hint")
    table = Table(req, need_seed=op != "new")
    with _LOCK:
        deal, moves = replay(table, req.action if op == "act" else None)
        if op == "hint":
            return hint(table, deal, moves, req.worlds or DEFAULT_HINT_WORLDS)
        return view(table, deal, moves)


def info() -> dict:
    """What the page offers: the games, seats, policies, bounds."""
    return {"games": [{"name": n, "seats": list(get_game(n).table.seat_names[:2])} for n in stock_games()],
            "policies": POLICIES, "default_policy": "heuristic", "max_moves": MAX_MOVES,
            "hint_worlds": {"default": DEFAULT_HINT_WORLDS, "max": HINT_WORLDS.hi},
            "before_max": BEFORE.hi, "max_seed": TABLE_SEED.hi}


def routes(raw_params, handler, static, csp: str) -> list:
    """The table's routes, for web.app: ``raw_params(request)`` reads a request's
    parameters (query string or JSON), ``handler`` turns BadRequest into its 4xx line,
    ``static`` is the page's folder and ``csp`` its Content-Security-Policy."""
    from starlette.responses import FileResponse, JSONResponse
    from starlette.routing import Route

    async def page(request):
        return FileResponse(static / "table2.html", headers={"Content-Security-Policy": csp,
                                                             "Cache-Control": "no-cache"})

    def api(op):
        async def route(request):
            raw = await raw_params(request)
            return JSONResponse(P.json_safe(await asyncio.to_thread(answer, op, raw)))
        return handler(route)

    async def table_info(request):
        if request.scope.get("query_string"):
            raise P.BadRequest("table info takes no parameters")
        return JSONResponse(info())

    return [Route("/table", page),
            Route("/api/table/info", handler(table_info), methods=["GET"]),
            *[Route(f"/api/table/{op}", api(op), methods=["GET", "POST"])
              for op in ("new", "state", "act", "hint")]]
