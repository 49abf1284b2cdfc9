"""Request parameters of the web API: parsing, validation and the caps on request size.

Input: the raw name -> value pairs of one request (query string or JSON body; values are
text, numbers, booleans or lists of those).  Output: the keyword arguments of the library
call the CLI makes for the same question (``advise_bid``, ``analyze_hand``,
``meld_report``), validated *before* any work starts.  Every problem raises
:class:`BadRequest`, whose message is the one line the API returns (HTTP 4xx) and the page
shows; the card, seat and auction checks are the library's own (their messages cite R1-R3).
"""
from __future__ import annotations

import math
from urllib.parse import parse_qsl

from analyzer.analyses.advice_result import DEFAULT_SAMPLES as ADVISE_DEFAULT
from analyzer.analyses.objectives import OBJECTIVES
from analyzer.analyses.advice import PIMC_SAMPLES as ADVISE_PIMC_DEFAULT
from analyzer.analyses.analysis import PIMC_SAMPLES as ANALYZE_PIMC_DEFAULT
from analyzer.analyses.analysis import bid_grid, parse_seat
from analyzer.errors import BinokelError
from analyzer.mechanics.bidding import PASS, SEAT_NAMES, validate_auction
from analyzer.mechanics.cards import Hand, Suit
from analyzer.mechanics.rules import DEFAULT_RULES, VARIANTS, get_rules
from analyzer.search.pimc import PLAY_NAMES, play_name, resolve_play

# One request must not hold the machine: at the default sizes an answer takes about two
# seconds on one core; the caps allow ~10x that (advice may draw up to 8 rounds when the
# auction is unlikely, so its cap is lower per sample).
MAX_SAMPLES = {"advise": 20_000, "analyze": 50_000}
DEFAULT_SAMPLES = {"advise": ADVISE_DEFAULT, "analyze": 10_000}
# play=pimc / pimc-defence: PIMC plays a deal in ~3-4 ms of CPU against ~3 us for the
# heuristic (README, Performance), so it has its own defaults (the library's) and caps
# that keep a request well inside the job time limit (600 s) even on a loaded core:
# analyze ~1-2 play-outs a deal, 10,000 deals ~ 70 s; advice ~2 play-outs a sample and up
# to 8 rounds when the auction is unlikely, 1,000 samples ~ 15 s a round, ~ 2 min at most.
MAX_SAMPLES_PIMC = {"advise": 1_000, "analyze": 10_000}
DEFAULT_SAMPLES_PIMC = {"advise": ADVISE_PIMC_DEFAULT, "analyze": ANALYZE_PIMC_DEFAULT}
PLAYS = tuple(PLAY_NAMES)          # heuristic, pimc, pimc-defence (``--play``)
MAX_BODY_BYTES = 16 * 1024        # a full request is < 1 KiB; anything bigger is refused (413)
MAX_QUERY_BYTES = 4 * 1024
MAX_SEED = 2**63 - 1
MAX_TEXT = 600                    # characters of card text (48 German card names fit)

# parameters each endpoint accepts (anything else is an error, never silently ignored)
FIELDS = {
    "advise": ("hand", "seat", "auction", "scores", "objective", "samples", "seed", "inference", "rules",
               "play"),
    "analyze": ("hand", "tapp", "seat", "samples", "seed", "bid", "rules", "play"),
    "melds": ("hand", "trump", "rules"),
    "cards": ("text", "rules"),
    "auction": ("auction", "rules"),
}


class BadRequest(Exception):
    """One-line client error; ``status`` is the HTTP status (400, 404, 413, 415, 429)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(" ".join(str(message).split()))
        self.status = status


def parse_query(raw: bytes | str) -> dict[str, str]:
    """Parse a query string strictly: bad escapes/UTF-8, ``a&b`` or repeated names -> 400."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_QUERY_BYTES:
            raise BadRequest(f"query string too long ({len(raw)} bytes; at most {MAX_QUERY_BYTES})", 414)
        try:
            raw = raw.decode("ascii")
        except UnicodeDecodeError:
            raise BadRequest("malformed query string: raw non-ASCII bytes (percent-encode them)") from None
    if not raw:
        return {}
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
    return out


def normalize_body(obj) -> dict[str, str]:
    """A JSON body (an object of text / numbers / booleans / lists) -> name -> text."""
    if not isinstance(obj, dict):
        raise BadRequest("JSON body must be an object like {\"hand\": \"AS 10S ...\"}")
    out = {}
    for k, v in obj.items():
        if v is None:
            continue
        if isinstance(v, bool):
            out[k] = "1" if v else "0"
        elif isinstance(v, (int, float, str)):
            out[k] = str(v)
        elif isinstance(v, list) and all(isinstance(x, (int, str)) and not isinstance(x, bool) for x in v):
            out[k] = ",".join(str(x) for x in v)
        else:
            raise BadRequest(f"{k}: expected text, a number or a list, got {type(v).__name__}")
    return out


def _check_names(kind: str, raw: dict[str, str]) -> None:
    unknown = sorted(set(raw) - set(FIELDS[kind]))
    if unknown:
        raise BadRequest(f"unknown parameter {unknown[0]!r} for {kind}: use {', '.join(FIELDS[kind])}")


def _int(raw, name, default, lo, hi, hint=""):
    text = raw.get(name, "").strip()
    if text == "":
        return default
    try:
        v = int(text.replace("_", ""))
    except ValueError:
        raise BadRequest(f"{name}: {text[:40]!r} is not a whole number") from None
    if not lo <= v <= hi:
        raise BadRequest(f"{name}: {v} is out of range {lo}..{hi}{hint}")
    return v


def page_rule_names() -> list[str]:
    """The variants the page and the API serve: the three-player games of the registry.

    The team games (kreuz-*, pinochle-80: four seats, 80-card hands) have no picker,
    seat list or auction buttons here yet, so they are refused rather than answered
    with three-player numbers."""
    return [n for n, r in VARIANTS.items() if not getattr(r, "teams", False)]


def _rules(raw):
    """The variant (``rules=grupp-3``; default binokel-48) from the library's registry."""
    try:
        rules = get_rules(raw.get("rules", "").strip() or None)
    except BinokelError as exc:
        raise BadRequest(f"rules: {exc}") from None
    if getattr(rules, "teams", False):
        raise BadRequest(f"rules: {rules.name} is a team game, which this page does not serve "
                         f"yet (served: {', '.join(page_rule_names())}); use the command line, "
                         f"e.g. binokel advise --rules {rules.name}")
    return rules


def _codes(h: Hand, rules) -> str:
    """Card codes in the variant's notation (rank 5 is the 9, or the 7 in the grupp games)."""
    return h.codes(low=rules.low_card or "9")


def rules_info() -> list[dict]:
    """Each registered variant as the page needs it: deck, sizes, and ``binokel rules``' row."""
    return [dict(r.describe(), low_card=r.low_card, hand_size=r.hand_size, tapp_size=r.tapp_size)
            for r in (VARIANTS[n] for n in page_rule_names())]


def _cards(raw, name, size, what, rules=DEFAULT_RULES):
    text = raw.get(name, "").strip()
    if not text:
        raise BadRequest(f"{what}: missing (give {size} cards, e.g. {name}=AS,10S,KS...)")
    if len(text) > MAX_TEXT:
        raise BadRequest(f"{what}: card text too long ({len(text)} characters)")
    try:
        h = Hand.parse(text, rules=rules)
    except BinokelError as exc:
        raise BadRequest(f"{what}: {exc}") from None
    if size is not None and len(h) != size:
        raise BadRequest(f"{what}: must have {size} cards, got {len(h)}")
    return h


def _seat(raw):
    try:
        return SEAT_NAMES[parse_seat(raw.get("seat", "").strip() or "forehand")]
    except BinokelError as exc:
        raise BadRequest(f"seat: {exc}") from None


def _play(raw, rules) -> str:
    """The card play after the exchange (``play=``, as ``--play``; default heuristic)."""
    text = raw.get("play", "").strip().lower() or "heuristic"
    try:
        return play_name(resolve_play(text[:40], rules))
    except BinokelError as exc:
        raise BadRequest(f"play: {exc}".replace("--play ", "play=")) from None


def _samples(raw, kind, play="heuristic"):
    if play == "heuristic":
        cap = MAX_SAMPLES[kind]
        return _int(raw, "samples", DEFAULT_SAMPLES[kind], 1, cap,
                    f" (this server answers at most {cap:,} samples per request)")
    cap = MAX_SAMPLES_PIMC[kind]
    return _int(raw, "samples", DEFAULT_SAMPLES_PIMC[kind], 1, cap,
                f" (this server answers at most {cap:,} samples per request with play={play})")


def _bool(raw, name, default):
    text = raw.get(name, "").strip().lower()
    if text == "":
        return default
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise BadRequest(f"{name}: {text[:20]!r} is not a yes/no value (use 1 or 0)")


def _auction_text(raw) -> str:
    text = raw.get("auction", "").replace(",", " ").strip()
    if len(text) > MAX_TEXT:
        raise BadRequest("auction: too long")
    return text


def auction_info(raw: dict[str, str]) -> dict:
    """Where an auction stands (R3) and which calls are legal next: the page's buttons.

    Output: ``calls`` (seat, call), ``to_move``, ``finished``, ``soloist``, ``standing``
    and ``legal`` (the calls that keep the sequence legal, checked by
    ``validate_auction`` itself, so the page can only build R3 sequences).
    """
    _check_names("auction", raw)
    rules = _rules(raw)
    text = _auction_text(raw)
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


def cards_info(raw: dict[str, str]) -> dict:
    """Parse card text with the CLI's parser (any count): codes and the grouped display."""
    _check_names("cards", raw)
    rules = _rules(raw)
    text = raw.get("text", "")
    if len(text) > MAX_TEXT:
        raise BadRequest(f"text: card text too long ({len(text)} characters)")
    try:
        h = Hand.parse(text, rules=rules)
    except BinokelError as exc:
        raise BadRequest(f"cards: {exc}") from None
    return {"cards": _codes(h, rules).split(), "count": len(h), "display": str(h)}


def advise_args(raw: dict[str, str]) -> dict:
    """Keyword arguments for ``advise_bid`` (as ``binokel advise`` passes them)."""
    _check_names("advise", raw)
    rules = _rules(raw)
    hand = _cards(raw, "hand", rules.hand_size, "hand", rules)
    seat = _seat(raw)
    auction = _auction_text(raw)
    try:
        validate_auction(auction, rules)
    except BinokelError as exc:
        raise BadRequest(f"auction: {exc}") from None
    scores = None
    text = raw.get("scores", "").strip()
    if text:
        parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p]
        try:
            scores = [int(p) for p in parts]
        except ValueError:
            raise BadRequest(f"scores: cannot read {text[:40]!r}: give three integers FH,MH,RH like 900,1200,400") from None
        if len(scores) != 3:
            raise BadRequest(f"scores: need three game scores (forehand, middlehand, rearhand), got {len(scores)}")
        if any(abs(s) > 100_000 for s in scores):
            raise BadRequest("scores: game scores must lie within -100000..100000")
    objective = raw.get("objective", "").strip().lower() or None
    if objective is not None and objective not in OBJECTIVES:
        raise BadRequest(f"objective: unknown {objective!r}: use {', '.join(OBJECTIVES)}")
    if objective == "win" and scores is None:
        raise BadRequest("objective: 'win' needs the game scores (scores=FH,MH,RH)")
    play = _play(raw, rules)
    return dict(hand=_codes(hand, rules), seat=seat, auction=auction, scores=scores, objective=objective,
                samples=_samples(raw, "advise", play), seed=_int(raw, "seed", 0, 0, MAX_SEED),
                inference=_bool(raw, "inference", True), rules=rules.name, play=play)


def analyze_args(raw: dict[str, str]) -> dict:
    """Keyword arguments for ``analyze_hand`` (as ``binokel analyze`` passes them)."""
    _check_names("analyze", raw)
    rules = _rules(raw)
    hand = _cards(raw, "hand", rules.hand_size, "hand", rules)
    tapp = None
    if raw.get("tapp", "").strip():
        tapp = _cards(raw, "tapp", rules.tapp_size, "tapp", rules)
        try:
            hand + tapp
        except BinokelError as exc:
            raise BadRequest(f"tapp overlaps the hand: {exc}") from None
    grid = bid_grid(rules)
    bid = _int(raw, "bid", None, int(grid[0]), int(grid[-1]))
    if bid is not None and bid not in set(grid.tolist()):
        raise BadRequest(f"bid: {bid} is not a legal bid ({grid[0]}, {grid[0] + rules.bid_step}, ...; R3)")
    play = _play(raw, rules)
    return dict(hand=_codes(hand, rules), tapp=_codes(tapp, rules) if tapp else None, seat=_seat(raw),
                samples=_samples(raw, "analyze", play), seed=_int(raw, "seed", 0, 0, MAX_SEED),
                score_bid=bid, rules=rules.name, play=play)


def melds_args(raw: dict[str, str]) -> dict:
    """Keyword arguments for ``meld_report`` (as ``binokel melds --json``)."""
    _check_names("melds", raw)
    rules = _rules(raw)
    hand = _cards(raw, "hand", rules.hand_size, "hand", rules)
    trump = raw.get("trump", "").strip() or None
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
