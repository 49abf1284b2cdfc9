"""The replay view of the page (issue 27): ``GET /replay`` and its JSON API, a thin
adapter over :mod:`analyzer.analyses.replay`.

Every request carries the record text (a deal is ~1 kB), so the server keeps no state and
a shared link restores the view.  Routes (POST a JSON object; every error is one JSON
line ``{"error": ..., "status": 400}``, never a traceback):

- ``POST /api/replay/load`` ``{"record": TEXT, "deal": 1}``: the deal's steps (hands,
  trick on the table, points so far, the seat to play and its legal cards).
- ``POST /api/replay/hint`` ``{"record", "deal", "step", "worlds": 40, "seed": 0}``: every
  legal card of the seat to play valued (PIMC from its view, n and SE; exact double dummy
  with every hand in the record and few tricks left).
- ``POST /api/replay/line`` ``{"record", "deal", "step", "card", "worlds": 16, "seed": 0}``:
  the deal played out after ``card`` and after the record's card by the same method, each
  scored, and the difference.
- ``GET /api/replay/sample?game=NAME&seed=7``: the record ``binokel play --rules NAME
  --seed 7 --record FILE`` writes; ``GET /api/replay/games``: the games with records.

A record of a game with a stock (V7, asked of its RuleSet) is stepped by
:mod:`analyzer.analyses.stock_replay`: a step per decision (card, meld or none, claim),
values by ``stock_hint`` (PIMC while the stock lasts, exact after it), ``card`` of a line
any legal action's label, its own world caps; every answer carries ``"stock": true``.

Bounds: the body (:data:`MAX_BODY`), the record (:data:`MAX_RECORD`), the worlds
(:data:`MAX_WORLDS`, :data:`MAX_LINE_WORLDS`) and one computation at a time.
"""
from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse

from analyzer.bounds import SEED
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_TYPES, SUIT_LETTERS, card_code

from . import params as P

MAX_BODY = 64 * 1024          # a record of one deal is ~1 kB; a file of a few deals fits
MAX_RECORD = 48 * 1024
MAX_WORLDS = 400              # hint: ~1 ms per world at most on this machine's tables
DEFAULT_WORLDS = 40
MAX_LINE_WORLDS = 32          # a PIMC line runs one hint per decision (up to 80 of them)
DEFAULT_LINE_WORLDS = 16
MAX_SAMPLE_SEED = 10**9


def _games():
    """Every registered game: the record format holds them all (a game with a stock too,
    V7.2, stepped by analyzer.analyses.stock_replay)."""
    from analyzer.mechanics.ruleset import GAMES

    return list(GAMES.values())


def replays(rules) -> bool:
    """Does the replay view load, sample and step the deal records of ``rules``?  (The
    capability matrix asks; the sample route answers the same list.)"""
    return any(g.name == rules.name for g in _games())


def _stock(deal) -> bool:
    """Is ``deal`` of a game with a stock (V7)?  Asked of its RuleSet."""
    from analyzer.analyses.stock_replay import has_stock

    return has_stock(deal.rules)


async def _body(request: Request) -> dict:
    """The JSON object of a POST, its size held to MAX_BODY while it is read."""
    if request.scope.get("query_string"):
        raise P.BadRequest("POST takes its parameters in the JSON body, not the query string")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise P.BadRequest(f"request body too large (more than {MAX_BODY} bytes; a record "
                               f"of at most {MAX_RECORD} characters)", 413)
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise P.BadRequest(f"POST a JSON object with Content-Type application/json (got "
                           f"{ctype[:60] or 'none'!r})", 415)
    return dict(P.parse_json_body(bytes(body)))


def _int(obj: dict, name: str, lo: int, hi: int, default=None) -> int:
    v = obj.get(name, default)
    if v is None:
        raise P.BadRequest(f"{name}: missing (a whole number {lo}-{hi})")
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise P.BadRequest(f"{name}: {P.show(v)} is not a whole number {lo}-{hi}")
    return v


def _known(obj: dict, names) -> None:
    extra = sorted(set(obj) - set(names))
    if extra:
        raise P.BadRequest(f"unknown parameter {extra[0][:40]!r}: use {', '.join(names)}")


def _deal(obj: dict):
    from analyzer.analyses.replay import load

    text = obj.get("record")
    if not isinstance(text, str) or not text.strip():
        raise P.BadRequest("record: missing (the text of a deal record, docs/guide/records.md)")
    if len(text) > MAX_RECORD:
        raise P.BadRequest(f"record too large ({len(text)} characters; at most {MAX_RECORD})", 413)
    deal_no = _int(obj, "deal", 1, 10_000, 1)
    try:
        return load(text, deal_no, MAX_RECORD)
    except BinokelError as exc:
        raise P.BadRequest(str(exc)) from None


def _code(deal, c):
    return None if c is None else card_code(c, deal.rules.deck.low_card)


def _hand(deal, counts):
    if counts is None:
        return None
    return [_code(deal, t) for t in range(N_TYPES) for _ in range(counts[t])]


def _units(deal) -> list[str]:
    """A name for each scoring unit: the team's seats (partners, V1) or the seat."""
    names = deal.seats
    if deal.rules.table.sides == "partners":
        return [f"{names[u]} + {names[u + 2]}" for u in range(2)]
    return [names[s] for s in deal.in_play]


def load_view(deal, n_deals: int, deal_no: int) -> dict:
    from analyzer.analyses.replay import outcome, steps

    st = steps(deal)
    rows = []
    for s in st:
        rows.append({
            "index": s.index, "trick": s.trick_no, "card": s.card_no, "to_play": s.to_play,
            "hands": [_hand(deal, h) for h in s.hands],
            "table": [[q, _code(deal, c)] for q, c in s.trick],
            "last": None if s.last is None else {
                "leader": s.last[0], "cards": [[q, _code(deal, c)] for q, c in s.last[1]],
                "winner": s.last[2]},
            "points": list(s.points), "won": list(s.won),
            "legal": [_code(deal, c) for c in s.legal], "next": _code(deal, s.next_card)})
    r = deal.rules
    return {
        "game": r.name, "deals": n_deals, "deal": deal_no, "seats": list(deal.seats),
        "in_play": list(deal.in_play), "units": _units(deal),
        "unit_of_seat": [None if s not in deal.in_play else
                         (s % 2 if r.table.sides == "partners" else deal.in_play.index(s))
                         for s in range(r.table.seats)],
        "soloist": deal.soloist, "contract": deal.contract, "bid": deal.bid,
        "melds": None if deal.melds is None else list(deal.melds),
        "dabb": _hand(deal, deal.dabb), "discard": _hand(deal, deal.discard),
        "hand_size": r.table.hand_size, "complete": deal.complete(),
        "all_hands": all(deal.hands[s] is not None for s in deal.in_play),
        "outcome": _outcome(deal, outcome(deal)) if deal.complete() and deal.contract != "out"
        else None,
        "source": deal.source, "steps": rows}


def stock_load_view(rec, n_deals: int, deal_no: int) -> dict:
    """The steps of a record of a game with a stock (V7; analyses.stock_replay.steps) as
    the page reads them: ``stock: true``, a step per decision (a card, the winner's meld
    or none, a claim) with both hands (tokens: ``KS/p`` shown in a pair, V7.3), the
    turned trump and the stock left (V7.1, V7.2), the melds shown and the draws."""
    from analyzer.analyses.stock_replay import steps
    from analyzer.mechanics.stock_record import token

    rows = []
    for s in steps(rec):
        rows.append({
            "index": s.index, "phase": s.phase, "trick": s.trick_no, "card": s.card_no,
            "to_play": s.to_play, "hands": [None if h is None else list(h) for h in s.hands],
            "table": [list(x) for x in s.trick],
            "last": None if s.last is None else {
                "leader": s.last[0], "cards": [list(x) for x in s.last[1]],
                "winner": s.last[2]},
            "melds": [{"seat": q, "name": n, "value": v, "cards": list(c)}
                      for q, n, v, c in s.melds],
            "draws": [list(x) for x in s.draws],
            "points": list(s.points), "won": list(s.won), "stock_left": s.stock_left,
            "turned": s.turned, "legal": list(s.legal), "next": s.next})
    r = rec.rules
    last = rows[-1]
    return {
        "game": r.name, "stock": True, "deals": n_deals, "deal": deal_no,
        "seats": list(rec.seats), "in_play": [0, 1], "units": list(rec.seats),
        "unit_of_seat": [0, 1], "soloist": None, "contract": None, "bid": None,
        "melds": None, "dabb": None, "discard": None, "hand_size": r.table.hand_size,
        "turned": token(rec.turned, 0), "trump": token(rec.turned, 0)[-1],
        "before": list(rec.before), "complete": rec.complete(),
        "all_hands": all(h is not None for h in rec.hands),
        "stock_known": rec.stock is not None,
        "outcome": {"points": last["points"], "won": last["won"],
                    "game": [b + p for b, p in zip(rec.before, last["points"])],
                    "claim": rec.claim} if rec.complete() else None,
        "source": rec.source, "steps": rows}


def _stock_hint(rec, step, worlds, seed) -> dict:
    from analyzer.analyses.stock_replay import values_at

    d = values_at(rec, step, worlds, seed).to_dict()
    d.update({"step": step, "to_play": d["seat"], "stock": True})
    return d


def _stock_line(rec, step, action, worlds, seed) -> dict:
    from analyzer.analyses.stock_replay import line_at

    d = line_at(rec, step, action, worlds, seed)
    for key in ("alt", "played"):
        if d[key] is not None:
            d[key] = {"events": [list(e) for e in d[key]["events"]],
                      "winners": list(d[key]["winners"]),
                      "first_trick": d[key]["first_trick"],
                      "outcome": {k: (list(v) if isinstance(v, tuple) else v)
                                  for k, v in d[key]["outcome"].items()}}
    if d["diff"] is not None:
        d["diff"] = {"points": list(d["diff"]["points"])}
    d["units"] = list(rec.seats)
    d["stock"] = True
    return d


def _outcome(deal, o: dict) -> dict:
    return {"points": list(o["points"]), "won": list(o["won"]),
            "score": None if o["score"] is None else list(o["score"])}


def _step(obj, deal) -> int:
    if _stock(deal):
        from analyzer.analyses.stock_hint import decisions

        try:
            n = len(decisions(deal))
        except BinokelError as exc:
            raise P.BadRequest(str(exc)) from None
    else:
        n = sum(len(c) for _, c in deal.tricks)
    return _int(obj, "step", 0, n)


async def _run(request: Request, fn, *args):
    """``fn(*args)`` in a thread, one replay computation at a time per app (CPU-bound: a
    queue keeps the server answering), BinokelError -> its one-line 400."""
    busy = getattr(request.app.state, "replay_busy", None)
    if busy is None:
        busy = request.app.state.replay_busy = asyncio.Semaphore(1)
    async with busy:
        try:
            return await asyncio.to_thread(fn, *args)
        except BinokelError as exc:
            raise P.BadRequest(str(exc)) from None


async def api_load(request: Request):
    obj = await _body(request)
    _known(obj, ("record", "deal"))
    deal, n = _deal(obj)
    view = stock_load_view if _stock(deal) else load_view
    return JSONResponse(P.json_safe(await _run(request, view, deal, n, obj.get("deal", 1))))


def _hint(deal, step, worlds, seed) -> dict:
    from analyzer.analyses.hint import role
    from analyzer.analyses.replay import values_at

    h = values_at(deal, step, worlds, seed)
    d = h.to_dict()
    d.update({"step": step, "role": role(h.view), "to_play": h.view.seat})
    return d


async def api_hint(request: Request):
    obj = await _body(request)
    _known(obj, ("record", "deal", "step", "worlds", "seed"))
    deal, _ = _deal(obj)
    step = _step(obj, deal)
    if _stock(deal):
        from analyzer.analyses import stock_replay as SR

        worlds = _int(obj, "worlds", 1, SR.MAX_WORLDS, SR.DEFAULT_WORLDS)
        fn = _stock_hint
    else:
        worlds = _int(obj, "worlds", 1, MAX_WORLDS, DEFAULT_WORLDS)
        fn = _hint
    seed = _int(obj, "seed", 0, SEED.hi, 0)
    return JSONResponse(P.json_safe(await _run(request, fn, deal, step, worlds, seed)))


def _card_type(deal, code) -> int:
    if not isinstance(code, str):
        raise P.BadRequest(f"card: {P.show(code)} is not a card code like 10S")
    low = deal.rules.deck.low_card
    for t in range(N_TYPES):
        if deal.rules.deck.in_deck(t) and card_code(t, low) == code.strip().upper():
            return t
    raise P.BadRequest(f"card: {P.show(code)} is no card of {deal.rules.name} (R1, V1)")


def _line(deal, step, card, worlds, seed) -> dict:
    from analyzer.analyses.replay import line_at

    d = line_at(deal, step, card, worlds, seed)
    for key in ("alt", "played"):
        if d[key] is not None:
            d[key] = {"cards": [[t, q, _code(deal, c)] for t, q, c in d[key]["cards"]],
                      "winners": list(d[key]["winners"]),
                      "outcome": _outcome(deal, d[key]["outcome"])}
    d["card"] = _code(deal, d["card"])
    if d["diff"] is not None:
        d["diff"] = {"points": list(d["diff"]["points"]),
                     "score": None if d["diff"]["score"] is None else list(d["diff"]["score"])}
    d["units"] = _units(deal)
    return d


async def api_line(request: Request):
    obj = await _body(request)
    _known(obj, ("record", "deal", "step", "card", "worlds", "seed"))
    deal, _ = _deal(obj)
    step = _step(obj, deal)
    if _stock(deal):
        from analyzer.analyses import stock_replay as SR

        card = obj.get("card")
        if not isinstance(card, str) or not card.strip() or len(card) > 200:
            raise P.BadRequest(f"card: {P.show(card)} is not an action of the step: a card "
                               "like KS or KS/p, pass, claim or a meld's label (V7.2-V7.5)")
        worlds = _int(obj, "worlds", 1, SR.MAX_LINE_WORLDS, SR.DEFAULT_LINE_WORLDS)
        fn = _stock_line
    else:
        card = _card_type(deal, obj.get("card"))
        worlds = _int(obj, "worlds", 1, MAX_LINE_WORLDS, DEFAULT_LINE_WORLDS)
        fn = _line
    seed = _int(obj, "seed", 0, SEED.hi, 0)
    return JSONResponse(P.json_safe(await _run(request, fn, deal, step, card, worlds, seed)))


def _sample(game, seed) -> str:
    from analyzer.mechanics.record import format_records, in_play_seats
    from analyzer.search.record_play import play_record

    g = next((x for x in _games() if x.name == game), None)
    if g is None:
        raise P.BadRequest(f"game: {P.show(game)} is no game: use one of "
                           + ", ".join(x.name for x in _games()))
    from analyzer.analyses.stock_replay import has_stock, sample
    if has_stock(g):
        return format_records([sample(g, seed)])
    sol = in_play_seats(g)[0]
    trump = SUIT_LETTERS.index("S")
    deal = play_record(g, seed=seed, soloist=sol, trump=trump,
                       source=f"binokel play --rules {g.name} --seed {seed} --record FILE")
    return format_records([deal])


async def api_sample(request: Request):
    q = P.parse_query(request.scope.get("query_string", b""))
    _known(q, ("game", "seed"))
    seed = q.get("seed", "7")
    if not str(seed).isdigit() or int(seed) > MAX_SAMPLE_SEED:
        raise P.BadRequest(f"seed: {P.show(seed)} is not a whole number 0-{MAX_SAMPLE_SEED}")
    text = await _run(request, _sample, q.get("game", _games()[0].name), int(seed))
    return JSONResponse({"record": text})


async def api_games(request: Request):
    from analyzer.analyses import stock_replay as SR

    return JSONResponse({"games": [g.name for g in _games()], "max_worlds": MAX_WORLDS,
                         "default_worlds": DEFAULT_WORLDS, "max_line_worlds": MAX_LINE_WORLDS,
                         "default_line_worlds": DEFAULT_LINE_WORLDS, "max_record": MAX_RECORD,
                         "stock": {"games": [g.name for g in _games() if SR.has_stock(g)],
                                   "max_worlds": SR.MAX_WORLDS,
                                   "default_worlds": SR.DEFAULT_WORLDS,
                                   "max_line_worlds": SR.MAX_LINE_WORLDS,
                                   "default_line_worlds": SR.DEFAULT_LINE_WORLDS}})


def routes(handler, static, csp: str) -> list:
    """The replay routes, each API route wrapped by the app's ``handler`` (BadRequest ->
    its line); the page is ``static``/replay.html under the app's policy ``csp``."""
    from starlette.routing import Route

    async def page(request: Request):
        return FileResponse(static / "replay.html", headers={"Content-Security-Policy": csp,
                                                             "Cache-Control": "no-cache"})

    return [Route("/replay", page),
            Route("/api/replay/load", handler(api_load), methods=["POST"]),
            Route("/api/replay/hint", handler(api_hint), methods=["POST"]),
            Route("/api/replay/line", handler(api_line), methods=["POST"]),
            Route("/api/replay/sample", handler(api_sample), methods=["GET"]),
            Route("/api/replay/games", handler(api_games), methods=["GET"])]
