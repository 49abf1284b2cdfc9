"""What the page needs to know about a game, asked of the one registry (issue 24).

Input: a registered game (its flat view, :func:`analyzer.mechanics.rules.get_rules`, and
its parts, :func:`analyzer.mechanics.ruleset.get_game`).  Output: the seats the page
offers (the game's own names, who sits with whom), its auction form and where an auction
stands, the seat and scores as the library's advice and analysis read them.  Nothing
here tests a game's name or family: the table's ``sides`` (a lone soloist against the
rest, R8, or fixed partners, V1), ``seats``/``in_play``/``seat_names``, the auction's
``form`` (a chain of duels, R3/V1, or open bidding, V6.2), the Dabb's size and the deck's
copies decide.  A problem is raised as ``bad(line)`` (web.params passes its
:class:`~web.params.BadRequest`): one line, the rule cited.
"""
from __future__ import annotations

from analyzer.analyses.analysis import parse_seat
from analyzer.analyses.advice import parse_scores_for
from analyzer.analyses.advice_grid import parse_auction_for
from analyzer.errors import BinokelError
from analyzer.mechanics.bidding import SEAT_NAMES
from analyzer.mechanics.ruleset import get_game
from analyzer.mechanics.rules import team_spec
from analyzer.search.pimc import PLAY_NAMES, resolve_play

# the seat names' short forms on the auction chips (R2, V1, V6.1); any other name shows whole
SHORT = {"forehand": "FH", "middlehand": "MH", "rearhand": "RH", "dealer": "D",
         "first": "1st", "second": "2nd", "third": "3rd"}


def partners(game) -> bool:
    """True when the game's sides are fixed partners (V1: seats s and s + 2)."""
    return game.table.sides == "partners"


def auction_rule(game) -> str:
    """The section that states the game's auction (R3 duels, V1 team duels, V6.2 open)."""
    if game.auction.form == "open":
        return "V6.2"
    return "V1" if partners(game) else "R3"


def seat_rows(game) -> list[dict]:
    """The seats the advice and analysis answer for: the seats in play (the dealer who sits
    out, V3, has no hand), each with its name, short name, the value the API takes, its
    side and its partner's name (None for a lone soloist's table)."""
    t = game.table
    names = t.seat_names[:t.in_play]
    rows = []
    for i, name in enumerate(names):
        mate = names[(i + 2) % len(names)] if partners(game) else None
        rows.append({"index": i, "name": name, "short": SHORT.get(name, name),
                     "param": SHORT.get(name, name).lower() if not partners(game) else str(i),
                     "side": i % 2 if partners(game) else None, "partner": mate})
    return rows


def plays(rules) -> list[str]:
    """The card plays (``play=``) the game accepts: those ``resolve_play`` (the check every
    request runs) lets through."""
    out = []
    for name in PLAY_NAMES:
        try:
            resolve_play(name, rules)
        except BinokelError:
            continue
        out.append(name)
    return out


def page_info(rules) -> dict:
    """One game as the page draws it: the parts it asks about, by their registry names."""
    game = get_game(rules.name)
    t, a = game.table, game.auction
    rows = seat_rows(game)
    sides = None
    if partners(game):
        sides = [[r["name"] for r in rows if r["side"] == s] for s in (0, 1)]
    return dict(rules.describe(), low_card=game.deck.low_card, copies=game.deck.copies,
                hand_size=t.hand_size, tapp_size=game.dabb.size, seats=rows,
                table_seats=t.seats, in_play=t.in_play, sides=t.sides, teams=sides,
                auction_form=a.form, opening=a.opening, step=a.step,
                forced_opening=a.forced_opening, auction_rule=auction_rule(game),
                objectives=["relative", "win"] if partners(game) else ["relative", "own", "win"],
                score_units=2 if partners(game) else 3, plays=plays(rules))


def library_seat(text: str, rules, bad):
    """The seat as the library reads it: a three-player seat name (R2; its German and short
    forms too) or, for partners, the seat's index 0..seats-1 (V1), from its name or number."""
    game = get_game(rules.name)
    text = (text or "").strip()
    if not partners(game):
        try:
            return SEAT_NAMES[parse_seat(text or "forehand")]
        except BinokelError as exc:
            raise bad(f"seat: {exc}") from None
    rows = seat_rows(game)
    key = text.lower() or "0"
    for r in rows:
        if key in (r["name"], r["param"], r["short"].lower()):
            return r["index"]
    raise bad(f"seat: unknown seat {text[:40]!r} in {game.name}: use "
              f"{', '.join(r['name'] for r in rows)} or 0-{len(rows) - 1} ({auction_rule(game)})")


def _team_state(text: str, rules):
    """The library's auction state of a partners game (V1 duels or V6.2 open bidding)."""
    return parse_auction_for(text, team_spec(rules))


def team_auction_info(text: str, rules, bad) -> dict:
    """Where a partners game's auction stands (V1 duels or V6.2 open bidding) and which
    calls are legal next, each checked by the library's own validation."""
    game = get_game(rules.name)
    names = [r["name"] for r in seat_rows(game)]
    try:
        st = _team_state(text, rules)
    except BinokelError as exc:
        raise bad(f"auction: {exc}") from None
    calls = ["pass" if c == 0 else str(c) for c in st.bids]
    nxt = game.auction.opening if st.high == 0 else st.high + game.auction.step
    legal = []
    if not st.finished:
        for cand in ("pass", str(nxt)):
            try:
                _team_state(" ".join(calls + [cand]), rules)
                legal.append(cand)
            except BinokelError:
                pass
    return {
        "auction": calls,
        "calls": [{"seat": names[s], "call": "pass" if c == 0 else c} for s, c in st.calls],
        "finished": st.finished,
        "to_move": None if st.finished else names[st.to_move],
        "standing": st.high if st.high else None,
        "soloist": None if st.soloist is None else names[st.soloist],
        "legal": legal,
        # open bidding (V6.2): any multiple of the step above the standing bid
        "jumps": game.auction.form == "open" and not st.finished and str(nxt) in legal,
        "step": game.auction.step,
    }


def check_team_scores(scores, objective, rules, bad):
    """(objective, scores) of a partners game: two totals, the asking seat's team first
    (V4.6, V5.7, V6.6), checked by the library's own rule."""
    if objective == "own":
        raise bad("objective: 'own' is not an objective of a partners game: use relative "
                  "(team minus the other team) or win (P(win game), needs scores) (V1)")
    try:
        return parse_scores_for(scores, objective, team_spec(rules))
    except BinokelError as exc:
        line = str(exc)
        raise bad(line if line.startswith(("score", "objective")) else f"scores: {line}") from None
