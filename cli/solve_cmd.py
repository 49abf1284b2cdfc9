"""``binokel solve``: double-dummy analysis of a deal or a position (analyzer.search.solve)."""
from __future__ import annotations

import time

import click
import numpy as np

from analyzer import Hand, play_deal
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import card_code, parse_cards
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.ruleset import SIDES_PARTNERS
from analyzer.mechanics.sampling import deal_rules, new_deck
from analyzer.search.partner_deals import play_partners_deal
from analyzer.search.best_discard import MAX_SECONDS, best_discard
from analyzer.search.solve import Solver, deal_table
from analyzer.search.solve_any import (MAX_KEY_CARDS, dd_solver, deal_rows, game_of,
                                       parse_table_position, table_position, tuned_fits)
from analyzer.bounds import SEED

from analyzer.mechanics.rules import get_rules

from .common import (BadInput, bounded, cards_option, echo_json, example_epilog, has_stock,
                     parse_hand, rules_option_with_stock)
from .main import cli
from .progress import quiet_option, speaks

TABLE_TRUMPS = "CSHDN"       # the rows of a deal's table; N = Durch (where the game has one)
BEST_DISCARD_SECONDS = 60.0  # --best-discard's budget when --time-limit is not given
OUT_OF_TIME = 3              # exit status: the time limit ran out, the table is partial
PROGRESS_EVERY = 5.0         # seconds between --best-discard progress lines


def _position_dict(pos, solver, game) -> dict:
    """The position, its value and each legal card's (card codes in the game's deck)."""
    t0 = time.perf_counter()
    moves = solver.move_values(pos)
    kr = game.kernel
    maxing = (pos.to_play % 2 == pos.soloist % 2 if kr.side_rule == SIDES_PARTNERS
              else pos.to_play == pos.soloist)
    value = max(moves.values()) if maxing else min(moves.values())
    low = game.deck.low_card
    return {"trump": "N" if pos.trump < 0 else "CSHD"[pos.trump],
            "soloist": pos.soloist, "leader": pos.leader, "to_play": pos.to_play,
            "hands": [Hand(tuple(min(x, 2) for x in h)).codes(low) if max(h) <= 2 else
                      " ".join(card_code(t, low) for t in range(len(h)) for _ in range(h[t]))
                      for h in pos.hands],
            "trick": [card_code(t, low) for t in pos.trick],
            "tricks_left": pos.tricks_left, "value": value,
            "moves": {card_code(t, low): v for t, v in sorted(moves.items(), key=lambda kv: -kv[1])},
            "seconds": round(time.perf_counter() - t0, 4)}


def _who(game) -> str:
    """Whose points a value counts: the soloist, or the soloist's side (partners, V1)."""
    return ("the soloist's side (partners together, V1)"
            if game.kernel.side_rule == SIDES_PARTNERS else "the soloist")


def _seat_label(game, i: int) -> str:
    out = " (sits out)" if game.kernel.sits_out[i] else ""
    return f"{game.table.seat_names[i]}{out}"


def _print_position(d: dict, game) -> None:
    tname = "Durch (no trump)" if d["trump"] == "N" else f"trump {d['trump']}"
    click.echo(f"{tname}, soloist seat {d['soloist']}, {d['tricks_left']} trick(s) left, "
               f"seat {d['leader']}" + (f" led {' '.join(d['trick'])}" if d["trick"] else "")
               + (f", seat {d['to_play']} to play" if d["trick"] else " to lead"))
    for i, h in enumerate(d["hands"]):
        click.echo(f"  {i} {_seat_label(game, i):<10} {h or '-'}")
    click.echo(f"value: {_who(game)} takes {d['value']} more card points with best play (R7)")
    click.echo(f"{'card':<6}{'value':>6}")
    for c, v in d["moves"].items():
        click.echo(f"{c:<6}{v:>6}" + ("  best" if v == d["value"] else ""))
    click.echo(f"({d['seconds']:.3f} s)")


def _print_best(d: dict, game) -> None:
    for i, h in enumerate(d["hands"]):
        click.echo(f"  {i} {game.table.seat_names[i]:<10}{' (soloist)' if i == d['soloist'] else '':<11} {h}")
    b = d["best"]
    click.echo(f"Tapp: {d['tapp']}")
    click.echo(f"best discard {b['discard']}, trump {b['trump']}: play {b['play']} + discard "
               f"{b['discard_points']} + melds {b['melds'] if b['play'] > 0 else 0} = total "
               f"{b['total']}" + ("" if b["play"] > 0 else " (no trick: melds do not count, R8)"))
    click.echo(f"  keeps {b['kept']}")
    how = (f"{d['solved']} solved, {d['refuted']} refuted by a zero-window search, "
           f"{d['pruned']} pruned by the bound melds + all card points")
    if d["exact"]:
        click.echo(f"exact: the best of all {d['candidates']} candidates (discard x trump "
                   f"{d['trumps']}; {how}" + (f", {d['untested']} untested within the bound"
                                              if d["untested"] else "") + ")")
    else:
        click.echo(f"NOT proven best: the best of the {d['solved'] + d['refuted']} candidates "
                   f"searched within the budget ({how}), ranked by the {d['ranking']}; "
                   f"{d['untested']} untested, whose bound reaches {d['untested_bound']}")
    click.echo(f"(double dummy: every hand open, forehand leads; {d['seconds']:.1f} s)")


@cli.command(
    "solve",
    epilog=example_epilog(
        "binokel solve --seed 7 --tricks-left 8 --trump H",
        "binokel solve --position \"S 0 1 AS,10H KD QS,JC 9C\" --json",
        "binokel solve --seed 7 --time-limit 120     # a whole deal: a minute or more",
        "binokel solve --seed 7 --best-discard --time-limit 30",
        "binokel solve --rules kreuz-40 --seed 3 --tricks-left 6 --trump S",
        "binokel solve --rules pinochle-80 --seed 2 --tricks-left 8 --trump H --soloist 1",
        "binokel solve --rules binokel-2 --seed 3 --tricks-left 6   # the endgame (V7.4)",
    ),
)
@click.option("--position", "position", default=None,
              help="One-line position: \"TRUMP SOLOIST LEADER HAND0 HAND1 HAND2 TRICK\" "
                   "(one HAND per seat in play: four in the team games; TRUMP C S H D or N; "
                   "cards comma-separated, '-' for none).")
@click.option("--seed", type=bounded(SEED), default=None,
              help="Deal a random deal of the game from this seed (R2; the deal "
                   "`binokel play --seed` shows in the team games).")
@click.option("--hand", "hands", multiple=True,
              help="The hands of the seats in play (give --hand once per seat: three, four "
                   "in the team games); the Tapp/Dabb is the rest.")
@click.option("--soloist", type=click.IntRange(0, 3), default=0, show_default=True,
              help="Soloist seat (a seat in play).")
@click.option("--tricks-left", type=click.IntRange(1, 20), default=None,
              help="Play the deal by the heuristic until this many tricks are left, then "
                   "give every legal card's value (needs --trump).")
@click.option("--trump", "-t", default=None,
              help="Trump for --tricks-left (C S H D or N = Durch); the table has all.")
@click.option("--best-discard", "best", is_flag=True,
              help="The soloist's best discard and trump for the Tapp: exact total "
                   "(discard + play + melds), or the best of the candidates examined "
                   "within the budget, said which (three-player games with a Dabb).")
@click.option("--tapp", default=None,
              help="The Tapp's cards for --best-discard when the hands are not a whole "
                   "deal (smaller hands); by default the cards in no hand.")
@click.option("--time-limit", "--max-seconds", "max_seconds",
              type=click.FloatRange(0, MAX_SECONDS, min_open=True), default=None,
              metavar="SECONDS",
              help="Time budget. A whole deal: none by default; when it runs out, the rows "
                   "solved are printed, the others marked 'not solved', one line says so on "
                   "stderr and the exit status is 3. --best-discard: 60 s by default; the "
                   "best of the candidates examined, said whether it is proven best.")
@click.option("--max-candidates", type=click.IntRange(min=1), default=None,
              help="--best-discard: search at most this many candidates (discard x trump).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@quiet_option
@cards_option
@rules_option_with_stock
def solve_command(position, seed, hands, soloist, tricks_left, trump, best, tapp, max_seconds,
                  max_candidates, as_json, quiet, rules):
    """Double-dummy analysis (all hands open, best play on both sides).

    For a deal: per trump and Durch (where the game has one), the soloist's exact card
    points from play (the game's first lead: forehand, or the bidder in pinochle-80; in
    a Durch the soloist), the Tapp/Dabb counted as the discard (R4, R7, V4.2); in the
    three-player games also melds (R5) and total.  A full deal takes seconds to minutes
    per row (see docs/performance.md).  The team games count the soloist's side
    (partners together, V1); their whole deals are solved only up to the solver's key
    limit (60 cards in the hands: a pinochle-80 deal of 20 tricks is refused in one
    line, exit 2; use --tricks-left or --position), and --time-limit bounds the rest.
    For a position (--position, or a deal with --tricks-left): the value (the soloist's
    or its side's card points from the position on, current trick included) and each
    legal card's.  With --best-discard (three-player games): the soloist's best discard
    and trump for the Tapp (R4), exact when the search finishes within the budget, else
    the best of the candidates examined (ranked by the fast exchange estimate), and the
    output says which.

    A game with a stock (binokel-2, V7): the exact endgame once the stock is gone (V7.4),
    of the --seed deal played by the heuristic (`play --seed`), at --tricks-left.
    """
    if has_stock(rules):
        from .stock_views import explicit, solve_stock

        ctx = click.get_current_context()
        flags = {p.name: p.opts[0] for p in ctx.command.params}
        typed = explicit(ctx, "position", "hands", "soloist", "trump", "best", "tapp",
                         "max_seconds", "max_candidates")
        return solve_stock(rules, seed, tricks_left, as_json, [flags[t] for t in typed])
    # progress lines (rows as they are solved, an estimate of the rest) on a terminal only
    talk = not as_json and speaks(quiet)
    game = game_of(rules)
    kr = game.kernel
    in_play = [q for q in range(kr.table_seats) if not kr.sits_out[q]]
    tuned = tuned_fits(game)
    if position is None and seed is None and not hands:
        raise BadInput("nothing to solve: give --seed N (a random deal), --hand once per seat, "
                       "or --position LINE (see binokel solve --help)")
    if soloist not in in_play:
        raise BadInput(f"--soloist: {game.name} plays seats {', '.join(map(str, in_play))}, "
                       f"got {soloist}")
    if position is not None:
        if seed is not None or hands or tricks_left is not None:
            raise BadInput("--position stands alone: no --seed, --hand or --tricks-left with it")
        try:
            pos = parse_table_position(position, game)
        except BinokelError as exc:
            raise BadInput(f"--position: {exc}") from None
        return _solve_position(pos, game, as_json)
    if hands and seed is not None:
        raise BadInput(f"give either --seed or {len(in_play)} --hand, not both")
    if max_seconds is not None and tricks_left is not None:
        raise BadInput("--time-limit is for a whole deal or --best-discard: a position "
                       "(--tricks-left) is solved without one")
    if (tapp is not None or max_candidates is not None) and not best:
        raise BadInput("--tapp and --max-candidates go with --best-discard")
    if best and tricks_left is not None:
        raise BadInput("--best-discard is for a whole deal: no --tricks-left with it")
    if best and tapp is not None and not hands:
        raise BadInput("--tapp goes with three --hand (a --seed deal has its own Tapp)")
    if best and game.dabb.size == 0:
        raise BadInput(f"--best-discard: {game.name} has no Dabb ({game.section}): nothing to discard")
    if best and not tuned:
        raise BadInput(f"--best-discard: out of reach in {game.name}: every discard x trump of "
                       f"its Dabb of {game.dabb.size} needs a whole deal of {len(in_play)} "
                       "seats solved; the discard search runs for the three-player games "
                       "(use --seed N --time-limit S for the table of the deal as dealt)")
    if tricks_left is not None and tricks_left > kr.hand_size:
        raise BadInput(f"--tricks-left: {game.name} deals {kr.hand_size} tricks, got {tricks_left}")
    if hands:
        if len(hands) != len(in_play):
            raise BadInput(f"give --hand {len(in_play)} times (seats "
                           f"{', '.join(map(str, in_play))}), got {len(hands)}")
        size = None if tapp is not None else kr.hand_size
        hs = [parse_hand(h, size, f"--hand {i}", rules=rules) if kr.k == 2 else
              _parse_hand_counts(h, size, f"--hand {i}", game) for i, h in zip(in_play, hands)]
    elif tuned:
        out = np.zeros(4, dtype=np.int64)
        deal_rules(chunk_state(seed, 0), new_deck(rules), rules.kernel, out)
        hs = [Hand.from_mask(int(m)) for m in out[:3]]
    else:
        hs = None   # the team deal of this seed: _team_deal
    if tricks_left is not None:
        if trump is None:
            raise BadInput("--tricks-left needs --trump (C, S, H, D or N)")
        durch = trump.strip().upper() == "N"
        if durch and kr.durch_value <= 0:
            raise BadInput(f"--trump N: {game.name} has no Durch ({game.section})")
        try:
            if tuned:
                pos = _tuned_tricks_left(hs, durch, trump, soloist, tricks_left, rules, game)
            else:
                if hs is not None:
                    raise BadInput(f"--tricks-left in {game.name} plays the deal of a --seed "
                                   "(its heuristic record); for your own hands give --position")
                pos = _team_tricks_left(seed, None if durch else trump, soloist, tricks_left,
                                        rules, game)
        except BinokelError as exc:
            raise BadInput(str(exc)) from None
        return _solve_position(pos, game, as_json)
    if best:
        if trump is not None and trump.strip().upper() not in ("C", "S", "H", "D"):
            raise BadInput(f"--trump with --best-discard: one of C S H D, got {trump!r} "
                           "(Durch is not a discard candidate)")
        if max_seconds is None:
            max_seconds = BEST_DISCARD_SECONDS
        if talk:
            click.echo(f"best discard: each candidate discard solved double dummy, the best "
                       f"estimate first, for at most {max_seconds:g} s (--time-limit "
                       f"SECONDS); a line every {PROGRESS_EVERY:g} s", err=True)
        try:
            res = best_discard(hs, soloist, tapp, rules, trumps=trump or "CSHD",
                               max_seconds=max_seconds, max_candidates=max_candidates,
                               solver=Solver(rules),
                               progress=_discard_progress(max_seconds) if talk else None)
        except BinokelError as exc:
            raise BadInput(str(exc)) from None
        res["max_seconds"] = max_seconds
        res["max_candidates"] = max_candidates
        echo_json(res) if as_json else _print_best(res, game)
        return
    trumps = "".join(t for t in TABLE_TRUMPS if t != "N" or kr.durch_value > 0)
    if not tuned:
        return _team_table(seed, hs, soloist, rules, game, trumps, max_seconds, as_json, talk)
    t0 = time.perf_counter()
    if talk:
        click.echo(f"solving {len(trumps)} contracts double dummy ("
                   f"{' '.join(trumps)}" + ("; N = Durch" if "N" in trumps else "")
                   + "): a whole deal takes seconds to "
                   f"minutes each" + ("" if max_seconds else "; --time-limit SECONDS bounds it"),
                   err=True)
    try:
        rows = deal_table(hs, soloist, rules, Solver(rules), trumps, max_seconds=max_seconds,
                          progress=_table_progress if talk else None)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    secs = time.perf_counter() - t0
    missing = [r["trump"] for r in rows if "solved" in r]
    low = game.deck.low_card
    if as_json:
        echo_json({"hands": [h.codes(low) for h in hs], "soloist": soloist, "rows": rows,
                   "complete": not missing, "time_limit": max_seconds,
                   "seconds": round(secs, 3)})
        return _out_of_time(missing, rows, max_seconds)
    for i, h in enumerate(hs):
        click.echo(f"  {i} {game.table.seat_names[i]:<10}{' (soloist)' if i == soloist else '':<11} "
                   f"{h.show(low) if low != '9' else h}")
    click.echo(f"{'trump':<7}{'play':>6}{'card pts':>10}{'melds':>7}{'total':>7}")
    for r in rows:
        if "solved" in r:
            click.echo(f"{r['trump']:<7}  not solved (time limit)")
            continue
        extra = ("  made" if r["made"] else "  lost") if r["trump"] == "N" else ""
        click.echo(f"{r['trump']:<7}{r['play']:>6}{r['card_points']:>10}{r['melds']:>7}"
                   f"{r['total']:>7}{extra}")
    click.echo(f"(double dummy: every hand open; Tapp counted as the discard; {secs:.1f} s)")
    return _out_of_time(missing, rows, max_seconds)


def _parse_hand_counts(text, size, what, game) -> tuple:
    """24 counts of a hand of a deck with more than two copies (V6.1)."""
    try:
        cards = parse_cards(text, rules=get_rules(game))
    except BinokelError as exc:
        raise BadInput(f"{what}: {exc}") from None
    if size is not None and len(cards) != size:
        raise BadInput(f"{what}: must have {size} cards in {game.name}, got {len(cards)}")
    counts = [0] * 24
    for c in cards:
        counts[c.id] += 1
    return tuple(counts)


def _counts(h) -> tuple:
    return tuple(h.counts) if hasattr(h, "counts") else tuple(h)


def _solve_position(pos, game, as_json) -> None:
    d = _position_dict(pos, dd_solver(game), game)
    echo_json(d) if as_json else _print_position(d, game)


def _tuned_tricks_left(hs, durch, trump, soloist, tricks_left, rules, game):
    """The three-player position after the heuristic's play of the deal (R6)."""
    rec = play_deal(hs, None if durch else trump, soloist=soloist, rules=rules)
    played = rules.hand_size - tricks_left
    if len(rec.tricks) < played:
        raise BadInput(f"the heuristic's Durch ended after trick {len(rec.tricks)}: "
                       f"no position with {tricks_left} tricks left")
    cur = [list(h.cards()) for h in hs]
    for t in rec.tricks[:played]:
        for k, c in enumerate(t.cards):
            cur[t.seat_of(k)].remove(c)
    leader = rec.tricks[played].leader if played < len(rec.tricks) else rec.tricks[-1].winner
    hands = [_counts(Hand.from_cards(c)) for c in cur]
    hands += [(0,) * 24] * (game.kernel.table_seats - 3)
    return table_position(game, hands, None if durch else trump, soloist, leader, ())


def _team_deal(seed, soloist, trump, rules):
    """The deal of ``seed`` and its heuristic record (the ``binokel play`` deal)."""
    t = None if trump is None else "CSHD".index(trump.strip().upper())
    return play_partners_deal(rules, seed, soloist, t)


def _team_tricks_left(seed, trump, soloist, tricks_left, rules, game):
    """The position of the team deal of ``seed`` after its heuristic record's first
    tricks (V4.5, V5.6, V6.4 duties), ``tricks_left`` tricks before the end."""
    if trump is not None and trump.strip().upper() not in ("C", "S", "H", "D"):
        raise BadInput(f"--trump: one of C S H D or N, got {trump!r}")
    rec = _team_deal(seed, soloist, trump, rules)
    played = game.kernel.hand_size - tricks_left
    if len(rec["tricks"]) < played:
        raise BadInput(f"the heuristic's Durch ended after trick {len(rec['tricks'])}: "
                       f"no position with {tricks_left} tricks left")
    counts = [list(_counts(h)) for h in rec["hands"]]
    for t in rec["tricks"][:played]:
        for seat, c in enumerate(t["cards"]):
            counts[seat][c] -= 1
    leader = (rec["tricks"][played]["leader"] if played < len(rec["tricks"])
              else rec["tricks"][-1]["winner"])
    return table_position(game, counts, trump, soloist, leader, ())


def _team_table(seed, hs, soloist, rules, game, trumps, max_seconds, as_json, talk=False):
    """The DD table of a whole deal at a table the tuned kernel does not play."""
    kr = game.kernel
    counts = ([list(_counts(h)) for h in _team_deal(seed, soloist, "C", rules)["hands"]]
              if hs is None else [list(_counts(h)) for h in hs])
    cards = sum(sum(h) for h in counts)
    if cards > MAX_KEY_CARDS:
        raise BadInput(f"a whole deal of {game.name} ({kr.hand_size} tricks, {cards} cards in "
                       f"the hands) is out of the solver's reach: at most {MAX_KEY_CARDS} cards "
                       f"= {MAX_KEY_CARDS // kr.n_play} tricks left; use --tricks-left K "
                       "--trump T, or --position")
    t0 = time.perf_counter()
    if talk:
        click.echo(f"solving {len(trumps)} contracts double dummy ({' '.join(trumps)}"
                   + ("; N = Durch" if "N" in trumps else "") + "): a whole deal of "
                   f"{game.name} may take minutes each"
                   + ("" if max_seconds else "; --time-limit SECONDS bounds it"), err=True)
    try:
        rows = deal_rows(game, counts, soloist, trumps=trumps, max_seconds=max_seconds,
                         progress=_team_progress if talk else None)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    secs = time.perf_counter() - t0
    missing = [r["trump"] for r in rows if "solved" in r]
    low = game.deck.low_card
    codes = [" ".join(card_code(t, low) for t in range(24) for _ in range(h[t])) for h in counts]
    if as_json:
        echo_json({"hands": codes, "soloist": soloist, "rows": rows, "complete": not missing,
                   "time_limit": max_seconds, "seconds": round(secs, 3)})
        return _out_of_time(missing, rows, max_seconds)
    for i, h in enumerate(codes):
        mark = " (soloist)" if i == soloist else " (partner)" if kr.partner[soloist] == i else ""
        click.echo(f"  {i} {game.table.seat_names[i]:<10}{mark:<11} {h}")
    click.echo(f"{'trump':<7}{'play':>6}{'card pts':>10}")
    for r in rows:
        if "solved" in r:
            click.echo(f"{r['trump']:<7}  not solved (time limit)")
            continue
        extra = ("  made" if r["made"] else "  lost") if r["trump"] == "N" else ""
        click.echo(f"{r['trump']:<7}{r['play']:>6}{r['card_points']:>10}{extra}")
    click.echo(f"(double dummy: every hand open; points of {_who(game)}"
               + ("; Dabb counted as the discard" if game.dabb.size else "")
               + f"; melds: binokel melds --rules {game.name}; {secs:.1f} s)")
    return _out_of_time(missing, rows, max_seconds)


def _team_progress(done: int, total: int, row: dict, seconds: float) -> None:
    what = "not solved" if "solved" in row else f"card points {row['card_points']}"
    click.echo(f"  {row['trump']}: {what} ({done}/{total}, {seconds:.1f} s)", err=True)


def _out_of_time(missing: list, rows: list, max_seconds) -> int:
    """Exit status of a deal table: 0 when complete; else one line on stderr naming the
    rows solved and not, and :data:`OUT_OF_TIME` (the rows printed are exact, the table
    is not whole: a script must not take it for one)."""
    if not missing:
        return 0
    done = [r["trump"] for r in rows if "solved" not in r]
    click.echo(f"binokel: time limit of {max_seconds:g} s reached: solved "
               f"{' '.join(done) or 'none'}, not solved {' '.join(missing)}", err=True)
    return OUT_OF_TIME


def _table_progress(done: int, total: int, row: dict, seconds: float) -> None:
    """stderr line after each row of the deal table: the row, time so far, an estimate
    of the rest (the mean time of a row so far times the rows left)."""
    what = "not solved" if "solved" in row else f"total {row['total']}"
    left = total - done
    eta = f"; about {seconds / done * left:.0f} s left" if left and "solved" not in row else ""
    click.echo(f"  {row['trump']}: {what} ({done}/{total}, {seconds:.1f} s{eta})", err=True)


def _discard_progress(max_seconds: float):
    """A best_discard progress callback that prints at most one stderr line every
    :data:`PROGRESS_EVERY` seconds: candidates examined, the best total so far, the time
    used of the budget."""
    last = [time.perf_counter()]

    def progress(examined: int, total: int, best, seconds: float) -> None:
        now = time.perf_counter()
        if now - last[0] < PROGRESS_EVERY:
            return
        last[0] = now
        best_text = f", best total so far {best['total']}" if best else ""
        click.echo(f"  {examined}/{total} candidates examined{best_text} "
                   f"({seconds:.0f} of at most {max_seconds:g} s)", err=True)

    return progress
