"""Request parameters of the web API: one schema per endpoint, size and depth caps.

Input: one request's parameters, either the query string (GET: every value is text) or
a JSON object (POST).  Output: the keyword arguments of the library call the CLI makes
for the same question (``advise_bid``, ``analyze_hand``, ``meld_report``), validated
*before* any work starts.  Every problem raises :class:`BadRequest`, whose message is the
one line the API returns (HTTP 4xx) and the page shows; the card, seat and auction checks
are the library's own (their messages cite R1-R3).

Why pydantic (v2) for the schemas: its strict mode refuses what a hand-written coercion
let through (``{"samples": true}`` ran one sample, ``{"seat": ["mh"]}`` was read as "mh"),
``extra="forbid"`` names unknown keys at any depth, a discriminated union gives one error
for "which form is this value" instead of one per member, its errors are records (type,
location, input) that :func:`one_line` words plainly, and each schema yields a JSON
schema (``/api/info`` serves them).  The query string goes through the very same models
with ``model_validate_strings`` (text read by the schema's types), so GET and POST cannot
drift apart.  Bounds come from :mod:`analyzer.bounds`, as the CLI's do.

Before any parsing, a JSON body is held to :data:`MAX_BODY_BYTES` and to
:data:`MAX_JSON_DEPTH` levels of nesting by a small iterative scan
(:func:`json_depth`), so no input reaches ``json.loads``' recursion (a 5,000-level
array was a RecursionError and an HTTP 500).
"""
from __future__ import annotations

import json
import math
from typing import Annotated, Literal, Union, get_args
from urllib.parse import parse_qsl

from pydantic import (BaseModel, ConfigDict, Discriminator, Field, StringConstraints, Tag,
                      ValidationError)

from analyzer.analyses.advice_result import DEFAULT_SAMPLES as ADVISE_DEFAULT
from analyzer.analyses.objectives import OBJECTIVES
from analyzer.analyses.advice import PIMC_SAMPLES as ADVISE_PIMC_DEFAULT
from analyzer.analyses.analysis import PIMC_SAMPLES as ANALYZE_PIMC_DEFAULT
from analyzer.analyses.analysis import bid_grid
from analyzer.bounds import AUCTION_BID, GAME_SCORE, SAMPLES_ADVISE, SAMPLES_ANALYZE, SEED, Bound, show_int
from analyzer.errors import BinokelError
from analyzer.mechanics.bidding import PASS, SEAT_NAMES, validate_auction
from analyzer.mechanics.cards import Hand, Suit
from analyzer.mechanics.rules import DEFAULT_RULES, VARIANTS, get_rules
from analyzer.search.pimc import PLAY_NAMES, play_name, resolve_play

from . import games

# One request must not hold the machine: at the default sizes an answer takes about two
# seconds on one core; the caps allow ~10x that (advice may draw up to 8 rounds when the
# auction is unlikely, so its cap is lower per sample).
MAX_SAMPLES = {"advise": 20_000, "analyze": 50_000}
DEFAULT_SAMPLES = {"advise": ADVISE_DEFAULT, "analyze": 10_000}
# play=pimc / pimc-defence: PIMC plays a deal in ~3-4 ms of CPU against ~3 us for the
# heuristic (docs/performance.md), so it has its own defaults (the library's) and caps
# that keep a request well inside the job time limit (600 s) even on a loaded core:
# analyze ~1-2 play-outs a deal, 10,000 deals ~ 70 s; advice ~2 play-outs a sample and up
# to 8 rounds when the auction is unlikely, 1,000 samples ~ 15 s a round, ~ 2 min at most.
MAX_SAMPLES_PIMC = {"advise": 1_000, "analyze": 10_000}
DEFAULT_SAMPLES_PIMC = {"advise": ADVISE_PIMC_DEFAULT, "analyze": ANALYZE_PIMC_DEFAULT}
PLAYS = tuple(PLAY_NAMES)          # heuristic, pimc, pimc-defence (``--play``)
MAX_BODY_BYTES = 16 * 1024        # a full request is < 1 KiB; anything bigger is refused (413)
MAX_QUERY_BYTES = 4 * 1024
MAX_JSON_DEPTH = 4                # the deepest request is 2 levels ({"scores": [...]})
MAX_SEED = SEED.hi
MAX_TEXT = 600                    # characters of card text (48 German card names fit)
MAX_NAME = 40                     # characters of a name (seat, rules, play, trump)
MAX_CALLS = 100                   # calls in an auction list (a real one has < 40)


class BadRequest(Exception):
    """One-line client error; ``status`` is the HTTP status (400, 404, 413, 415, 429)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(" ".join(str(message).split()))
        self.status = status


# --- the schemas ------------------------------------------------------------------------

def _int(bound: Bound):
    """A whole number within ``bound`` (the Bound rides along for the error's words)."""
    return Annotated[int, Field(ge=bound.lo, le=bound.hi), bound]


def _form(value) -> str | None:
    """Which form a value with several accepted forms has: the discriminator's tag."""
    if isinstance(value, str):
        return "as text"
    if isinstance(value, list):
        return "as a list"
    if isinstance(value, dict):
        return "by seat"
    return None


Text = Annotated[str, StringConstraints(max_length=MAX_TEXT)]
Name = Annotated[str, StringConstraints(max_length=MAX_NAME)]
Seed = _int(SEED)
GameScore = _int(GAME_SCORE)
Bid = _int(AUCTION_BID)
def _call_form(value) -> str | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return "a bid"
    return "a pass" if isinstance(value, str) else None


Call = Annotated[Union[Annotated[Bid, Tag("a bid")], Annotated[Literal["pass"], Tag("a pass")]],
                 Discriminator(_call_form, custom_error_type="call_form",
                               custom_error_message='a call is a bid like 150 or "pass"')]


class _Schema(BaseModel):
    # strict: JSON types are taken as they are (no true -> 1, no "5" -> 5, no [x] -> "x");
    # forbid: a misspelt or unknown name is an error, never silently ignored
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class ScoresBySeat(_Schema):
    """Game scores before this deal (R9), by seat name."""

    forehand: GameScore
    middlehand: GameScore
    rearhand: GameScore


Auction = Annotated[
    Union[Annotated[Text, Tag("as text")],
          Annotated[list[Call], Field(max_length=MAX_CALLS), Tag("as a list")]],
    Discriminator(_form, custom_error_type="auction_form",
                  custom_error_message='give the calls as text "150 160 pass" or a list [150, 160, "pass"]')]
Scores = Annotated[
    Union[Annotated[Text, Tag("as text")],
          Annotated[list[GameScore], Field(min_length=2, max_length=3), Tag("as a list")],
          Annotated[ScoresBySeat, Tag("by seat")]],
    Discriminator(_form, custom_error_type="scores_form",
                  custom_error_message='give three game scores as text "900,1200,400", a list '
                                       '[900, 1200, 400] or {"forehand": 900, "middlehand": 1200, '
                                       '"rearhand": 400}')]


def _sample_count(kind: str):
    """1..the server's cap per request (within analyzer.bounds' own)."""
    return _int(SAMPLES_ADVISE.capped(MAX_SAMPLES["advise"], "this server's cap per request") if kind == "advise"
                else SAMPLES_ANALYZE.capped(MAX_SAMPLES["analyze"], "this server's cap per request"))


class AdviseRequest(_Schema):
    """``/api/advise``, ``/api/jobs/advise``: ``binokel advise``'s arguments."""

    hand: Text
    seat: Name | None = None
    auction: Auction | None = None
    scores: Scores | None = None
    objective: Literal["relative", "own", "win"] | None = None
    samples: _sample_count("advise") | None = None
    seed: Seed | None = None
    inference: bool | None = None
    rules: Name | None = None
    play: Name | None = None


class AnalyzeRequest(_Schema):
    """``/api/analyze``, ``/api/jobs/analyze``: ``binokel analyze``'s arguments."""

    hand: Text
    tapp: Text | None = None
    seat: Name | None = None
    samples: _sample_count("analyze") | None = None
    seed: Seed | None = None
    bid: Bid | None = None
    rules: Name | None = None
    play: Name | None = None


class MeldsRequest(_Schema):
    """``/api/melds``: ``binokel melds --json``'s arguments."""

    hand: Text
    trump: Name | None = None
    rules: Name | None = None


class CardsRequest(_Schema):
    """``/api/cards``: card text to parse (any count)."""

    text: Text = ""
    rules: Name | None = None


class AuctionRequest(_Schema):
    """``/api/auction``: the calls so far."""

    auction: Auction | None = None
    rules: Name | None = None


SCHEMAS: dict[str, type[_Schema]] = {"advise": AdviseRequest, "analyze": AnalyzeRequest,
                                     "melds": MeldsRequest, "cards": CardsRequest,
                                     "auction": AuctionRequest}
# parameters each endpoint accepts (anything else is an error, never silently ignored)
FIELDS = {kind: tuple(model.model_fields) for kind, model in SCHEMAS.items()}
_NESTED = {"scores": ScoresBySeat}


def json_schemas() -> dict:
    """Each endpoint's JSON schema (what ``/api/info`` serves)."""
    return {kind: model.model_json_schema() for kind, model in SCHEMAS.items()}


# --- reading a request --------------------------------------------------------------------

class Params(dict):
    """A request's raw parameters; ``text`` is True for a query string (every value is
    text, read by the schema's types) and False for a JSON body (types as they are)."""

    def __init__(self, data: dict, text: bool):
        super().__init__(data)
        self.text = text


def parse_query(raw: bytes | str) -> Params:
    """Parse a query string strictly: bad escapes/UTF-8, ``a&b`` or repeated names -> 400.

    An empty value (``seed=``) means "not given", as an HTML form sends it."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_QUERY_BYTES:
            raise BadRequest(f"query string too long ({len(raw)} bytes; at most {MAX_QUERY_BYTES})", 414)
        try:
            raw = raw.decode("ascii")
        except UnicodeDecodeError:
            raise BadRequest("malformed query string: raw non-ASCII bytes (percent-encode them)") from None
    if not raw:
        return Params({}, text=True)
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True, errors="strict")
    except UnicodeDecodeError:
        raise BadRequest("malformed query string: a %-escape is not valid UTF-8") from None
    except ValueError as exc:
        raise BadRequest(f"malformed query string: {exc}") from None
    out: dict[str, str] = {}
    for k, v in pairs:
        if k in out:
            raise BadRequest(f"malformed query string: parameter {k!r} given twice")
        out[k] = v
    return Params({k: v for k, v in out.items() if v.strip() != ""}, text=True)


def json_depth(body: bytes, limit: int) -> int:
    """Nesting depth of the arrays and objects in JSON text, scanning iteratively (no
    recursion, one pass) and stopping as soon as ``limit`` is passed; brackets inside
    strings do not count.  Returns the depth (``limit + 1`` when it stopped early)."""
    depth = deepest = 0
    in_string = escaped = False
    for b in body:
        if in_string:
            if escaped:
                escaped = False
            elif b == 0x5C:          # backslash
                escaped = True
            elif b == 0x22:          # closing quote
                in_string = False
        elif b == 0x22:
            in_string = True
        elif b in (0x5B, 0x7B):      # [ {
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif b in (0x5D, 0x7D):      # ] }
            depth -= 1
    return deepest


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _unique_keys(pairs: list) -> dict:
    out = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"key {k[:40]!r} given twice")
        out[k] = v
    return out


def parse_json_body(body: bytes) -> Params:
    """A POST body -> its parameters: at most MAX_BODY_BYTES (checked by the caller while
    reading) and MAX_JSON_DEPTH levels deep (checked here, before parsing), strict JSON
    (no NaN/Infinity, no key twice), an object at the top."""
    if json_depth(body, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        raise BadRequest(f"JSON nested more than {MAX_JSON_DEPTH} levels deep: a request is an "
                         'object of names and values like {"hand": "AS 10S ...", "samples": 2000}')
    try:
        obj = json.loads(body.decode("utf-8"), parse_constant=_no_constant,
                         object_pairs_hook=_unique_keys)
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadRequest(f"body is not valid JSON: {str(exc).splitlines()[0][:120]}") from None
    if not isinstance(obj, dict):
        raise BadRequest("JSON body must be an object like {\"hand\": \"AS 10S ...\"}")
    return Params({k: v for k, v in obj.items() if v is not None}, text=False)


# --- one line per refusal -----------------------------------------------------------------

def show(value) -> str:
    """A request value in a message: its type said in words, long text clipped."""
    if isinstance(value, bool):
        return f"{'true' if value else 'false'} (a yes/no value)"
    if value is None:
        return "null"
    if isinstance(value, int):
        return show_int(value)
    if isinstance(value, float):
        return f"{value!r} (a number with a fraction)" if math.isfinite(value) else repr(value)
    if isinstance(value, str):
        return repr(value[:40] + ("..." if len(value) > 40 else ""))
    if isinstance(value, list):
        return f"a list ({len(value)} item{'s' if len(value) != 1 else ''})"
    if isinstance(value, dict):
        keys = ", ".join(repr(str(k)[:20]) for k in list(value)[:3])
        return f"an object (keys {keys}{', ...' if len(value) > 3 else ''})" if value else "an empty object"
    return type(value).__name__


def _where(loc: tuple) -> str:
    """``('scores', 'as a list', 1)`` -> ``scores[1]``; the union's form tags (which
    hold a space) are left out."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif " " in part:
            continue
        else:
            out += f".{part}" if out else part
    return out


def _bound_of(model: type[BaseModel], loc: tuple) -> Bound | None:
    """The analyzer.bounds Bound behind a field (for "must be at most ..." in words)."""
    names = [p for p in loc if isinstance(p, str) and " " not in p]
    if not names:
        return None
    field = model.model_fields.get(names[0])
    if len(names) > 1 and names[0] in _NESTED:
        field = _NESTED[names[0]].model_fields.get(names[1])
    if field is None:
        return None
    found = [m for m in field.metadata if isinstance(m, Bound)]
    if not found:   # Optional[...] / unions keep the metadata on the inner type
        stack = list(get_args(field.annotation))
        while stack and not found:
            a = stack.pop()
            found = [m for m in getattr(a, "__metadata__", ()) if isinstance(m, Bound)]
            stack.extend(get_args(a))
    if not found and names[0] == "auction":
        return AUCTION_BID
    if not found and names[0] == "scores":
        return GAME_SCORE
    return found[0] if found else None


def one_line(kind: str, model: type[BaseModel], exc: ValidationError, text: bool) -> str:
    """The first problem of a failed validation as one plain line, named by its field.

    Unknown names come first (a misspelt name explains the other errors)."""
    errors = sorted(exc.errors(include_url=False), key=lambda e: e["type"] != "extra_forbidden")
    e = errors[0]
    loc, typ, value = tuple(e["loc"]), e["type"], e.get("input")
    where = _where(loc)
    if typ == "extra_forbidden":
        if len(loc) == 1:
            return f"unknown parameter {str(loc[0])[:40]!r} for {kind}: use {', '.join(FIELDS[kind])}"
        parent = _where(loc[:-1])
        sub = _NESTED.get(parent)
        use = f": use {', '.join(sub.model_fields)}" if sub else ""
        return f"{parent}: unknown key {str(loc[-1])[:40]!r}{use}"
    if typ == "missing":
        if len(loc) == 1 and loc[0] == "hand":
            return "hand: missing (give the hand's cards, e.g. hand=AS,10S,KS...)"
        return f"{where}: missing"
    if typ in ("int_type", "int_parsing", "int_from_float"):
        return f"{where}: {show(value)} is not a whole number"
    if typ in ("string_type", "string_unicode"):
        return f"{where}: expected text, got {show(value)}"
    if typ in ("bool_type", "bool_parsing"):
        use = "1 or 0" if text else "true or false"
        return f"{where}: {show(value)} is not a yes/no value (use {use})"
    if typ in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        bound = _bound_of(model, loc)
        if text and isinstance(value, str):      # a query string's digits, read as a number
            try:
                value = int(value.strip().replace("_", ""))
            except ValueError:
                pass
        if bound is not None and isinstance(value, int):
            return f"{where}: {bound.problem(value)}"
        return f"{where}: {show(value)} is out of range"
    if typ == "string_too_long":
        return f"{where}: too long ({len(value):,} characters; at most {e['ctx']['max_length']:,})"
    if typ in ("too_short", "too_long"):
        n = len(value) if isinstance(value, list) else "?"
        want = e["ctx"].get("min_length") if typ == "too_short" else e["ctx"].get("max_length")
        if loc[:1] == ("scores",):
            return f"scores: need three game scores (forehand, middlehand, rearhand), got {n}"
        return f"{where}: {'at least' if typ == 'too_short' else 'at most'} {want} items, got {n}"
    if typ == "literal_error":
        if loc[:1] == ("auction",):
            return f"{where}: {show(value)} is not a call (a bid like 150, or \"pass\")"
        return f"{where}: unknown {show(value)}: use {e['ctx']['expected']}"
    if typ in ("auction_form", "scores_form", "call_form"):
        return f"{where}: {e['msg']}, not {show(value)}"
    if typ in ("model_type", "dict_type", "list_type"):
        return f"{where}: {show(value)} is not the expected form"
    return f"{where}: {e['msg']}"


def validate(kind: str, raw: Params | dict):
    """The request's parameters checked against ``kind``'s schema: the model, or
    BadRequest with one line."""
    model = SCHEMAS[kind]
    text = getattr(raw, "text", False)
    try:
        return model.model_validate_strings(dict(raw)) if text else model.model_validate(dict(raw))
    except ValidationError as exc:
        raise BadRequest(one_line(kind, model, exc, text)) from None


def page_rule_names() -> list[str]:
    """The games the page and the API serve: every game of the registry (issue 24)."""
    return list(VARIANTS)


def _rules(req):
    """The variant (``rules=grupp-3``; default binokel-48) from the library's registry."""
    try:
        rules = get_rules((req.rules or "").strip() or None)
    except BinokelError as exc:
        raise BadRequest(f"rules: {exc}") from None
    return rules


def _codes(h: Hand, rules) -> str:
    """Card codes in the variant's notation (rank 5 is the 9, or the 7 in the grupp games)."""
    return h.codes(low=rules.low_card or "9")


def rules_info() -> list[dict]:
    """Each registered game as the page needs it: ``binokel rules``' row, deck, sizes, seats,
    sides and auction form, asked of the registry (web.games.page_info)."""
    return [games.page_info(VARIANTS[n]) for n in page_rule_names()]


def _cards(text, name, size, what, rules=DEFAULT_RULES):
    text = (text or "").strip()
    if not text:
        raise BadRequest(f"{what}: missing (give {size} cards, e.g. {name}=AS,10S,KS...)")
    try:
        h = Hand.parse(text, rules=rules)
    except BinokelError as exc:
        raise BadRequest(f"{what}: {exc}") from None
    if size is not None and len(h) != size:
        raise BadRequest(f"{what}: must have {size} cards, got {len(h)}")
    return h


def _seat(req, rules=DEFAULT_RULES):
    """The seat as the game's library call reads it (web.games.library_seat)."""
    return games.library_seat(req.seat, rules, BadRequest)


def _play(req, rules) -> str:
    """The card play after the exchange (``play=``, as ``--play``; default heuristic)."""
    text = (req.play or "").strip().lower() or "heuristic"
    try:
        return play_name(resolve_play(text, rules))
    except BinokelError as exc:
        raise BadRequest(f"play: {exc}".replace("--play ", "play=")) from None


def _samples(req, kind, play="heuristic"):
    """The schema bounds samples by the heuristic cap; PIMC plays have lower ones."""
    if play == "heuristic":
        return DEFAULT_SAMPLES[kind] if req.samples is None else req.samples
    cap = Bound(1, MAX_SAMPLES_PIMC[kind], f"this server's cap per request with play={play}")
    if req.samples is not None and (problem := cap.problem(req.samples)) is not None:
        raise BadRequest(f"samples: {problem}")
    return DEFAULT_SAMPLES_PIMC[kind] if req.samples is None else req.samples


def _auction_text(req) -> str:
    """The calls as the library reads them: text as given, a list joined by spaces."""
    a = req.auction
    if a is None:
        return ""
    if isinstance(a, list):
        return " ".join(str(c) for c in a)
    return a.replace(",", " ").strip()


def auction_info(raw: Params | dict) -> dict:
    """Where an auction stands (R3) and which calls are legal next: the page's buttons.

    Output: ``calls`` (seat, call), ``to_move``, ``finished``, ``soloist``, ``standing``
    and ``legal`` (the calls that keep the sequence legal, checked by
    ``validate_auction`` itself, so the page can only build R3 sequences).
    """
    req = validate("auction", raw)
    rules = _rules(req)
    text = _auction_text(req)
    if games.partners(games.get_game(rules.name)):
        return games.team_auction_info(text, rules, BadRequest)
    try:
        st = validate_auction(text, rules)
    except BinokelError as exc:
        raise BadRequest(f"auction: {exc}") from None
    calls = ["pass" if c == PASS else str(c) for _, c in st.calls]
    legal = []
    if not st.finished:
        for cand in ("pass", str(st.standing + rules.bid_step)):
            try:
                validate_auction(" ".join(calls + [cand]), rules)
                legal.append(cand)
            except BinokelError:
                pass
    return {
        "auction": calls,
        "calls": [{"seat": SEAT_NAMES[s], "call": "pass" if c == PASS else c} for s, c in st.calls],
        "finished": st.finished,
        "to_move": None if st.finished else SEAT_NAMES[st.to_move],
        "standing": st.standing if st.calls else None,
        "soloist": None if st.soloist is None else SEAT_NAMES[st.soloist],
        "legal": legal,
    }


def cards_info(raw: Params | dict) -> dict:
    """Parse card text with the CLI's parser (any count): codes and the grouped display."""
    req = validate("cards", raw)
    rules = _rules(req)
    try:
        h = Hand.parse(req.text, rules=rules)
    except BinokelError as exc:
        raise BadRequest(f"cards: {exc}") from None
    return {"cards": _codes(h, rules).split(), "count": len(h), "display": str(h)}


def _scores(req, units: int = 3) -> list[int] | None:
    """Game scores FH, MH, RH (``units`` 3), or the two teams' totals, the asking seat's
    team first (``units`` 2, V4.6, V6.6), from any of the schema's forms."""
    s = req.scores
    if s is None:
        return None
    if units == 2:
        if isinstance(s, ScoresBySeat):
            raise BadRequest("scores: a partners game takes two totals, your team first, "
                             "e.g. 1200,900 (V1), not scores by seat")
        text = s if isinstance(s, str) else ",".join(str(v) for v in s)
        parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p]
        try:
            vals = [int(p) for p in parts]
        except ValueError:
            raise BadRequest(f"scores: cannot read {text[:40]!r}: give two integers, your team's "
                             f"total first, like 1200,900") from None
        return vals or None
    if isinstance(s, ScoresBySeat):
        return [s.forehand, s.middlehand, s.rearhand]
    if isinstance(s, list):
        if len(s) != 3:
            raise BadRequest(f"scores: need three game scores (forehand, middlehand, rearhand), got {len(s)}")
        return list(s)
    text = s.strip()
    if not text:
        return None
    parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p]
    try:
        scores = [int(p) for p in parts]
    except ValueError:
        raise BadRequest(f"scores: cannot read {text[:40]!r}: give three integers FH,MH,RH like 900,1200,400") from None
    if len(scores) != 3:
        raise BadRequest(f"scores: need three game scores (forehand, middlehand, rearhand), got {len(scores)}")
    for v in scores:
        if (problem := GAME_SCORE.problem(v)) is not None:
            raise BadRequest(f"scores: a game score {problem}")
    return scores


def advise_args(raw: Params | dict) -> dict:
    """Keyword arguments for ``advise_bid`` (as ``binokel advise`` passes them)."""
    req = validate("advise", raw)
    rules = _rules(req)
    hand = _cards(req.hand, "hand", rules.hand_size, "hand", rules)
    seat = _seat(req, rules)
    auction = _auction_text(req)
    game = games.get_game(rules.name)
    objective = req.objective
    if games.partners(game):
        games.team_auction_info(auction, rules, BadRequest)
        scores = _scores(req, 2)
        objective, scores = games.check_team_scores(scores, objective, rules, BadRequest)
        scores = None if scores is None else list(scores)
    else:
        try:
            validate_auction(auction, rules)
        except BinokelError as exc:
            raise BadRequest(f"auction: {exc}") from None
        scores = _scores(req)
        if objective == "win" and scores is None:
            raise BadRequest("objective: 'win' needs the game scores (scores=FH,MH,RH)")
    play = _play(req, rules)
    return dict(hand=_codes(hand, rules), seat=seat, auction=auction, scores=scores, objective=objective,
                samples=_samples(req, "advise", play), seed=req.seed or 0,
                inference=True if req.inference is None else req.inference, rules=rules.name, play=play)


def analyze_args(raw: Params | dict) -> dict:
    """Keyword arguments for ``analyze_hand`` (as ``binokel analyze`` passes them)."""
    req = validate("analyze", raw)
    rules = _rules(req)
    hand = _cards(req.hand, "hand", rules.hand_size, "hand", rules)
    game = games.get_game(rules.name)
    tapp = None
    if (req.tapp or "").strip():
        if not game.dabb.size:
            raise BadRequest(f"tapp: {rules.name} has no Dabb ({rules.section}): leave tapp out")
        tapp = _cards(req.tapp, "tapp", rules.tapp_size, "tapp", rules)
        try:
            hand + tapp
        except BinokelError as exc:
            raise BadRequest(f"tapp overlaps the hand: {exc}") from None
    bid = req.bid
    if games.partners(game):
        a = game.auction
        if bid is not None and (bid < a.opening or (bid - a.opening) % a.step):
            raise BadRequest(f"bid: {bid} is not a legal bid ({a.opening}, {a.opening + a.step}, ... "
                             f"{games.auction_rule(game)})")
        grid = None
    else:
        grid = bid_grid(rules)
    if grid is not None and bid is not None and bid not in set(grid.tolist()):
        raise BadRequest(f"bid: {bid} is not a legal bid ({grid[0]}, {grid[0] + rules.bid_step}, ... "
                         f"up to {grid[-1]}; R3)")
    play = _play(req, rules)
    samples = _samples(req, "analyze", play)
    if games.partners(game) and samples < 2:
        raise BadRequest("samples: a partners game's analysis needs at least 2 sampled deals")
    return dict(hand=_codes(hand, rules), tapp=_codes(tapp, rules) if tapp else None, seat=_seat(req, rules),
                samples=samples, seed=req.seed or 0, score_bid=bid, rules=rules.name, play=play)


def melds_args(raw: Params | dict) -> dict:
    """Keyword arguments for ``meld_report`` (as ``binokel melds --json``)."""
    req = validate("melds", raw)
    rules = _rules(req)
    hand = _cards(req.hand, "hand", rules.hand_size, "hand", rules)
    trump = (req.trump or "").strip() or None
    if trump is not None:
        try:
            trump = Suit.parse(trump).value
        except BinokelError as exc:
            raise BadRequest(f"trump: {exc}") from None
    return dict(hand=_codes(hand, rules), trump=trump, rules=rules.name)


ARGS = {"advise": advise_args, "analyze": analyze_args, "melds": melds_args}


def json_safe(obj):
    """Numbers JSON can carry: NaN/inf -> None, numpy scalars -> Python (strict JSON out)."""
    if isinstance(obj, dict):
        return {str(k): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if hasattr(obj, "item") and callable(obj.item):   # numpy scalar
        return json_safe(obj.item())
    return obj
