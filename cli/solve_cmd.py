"""``binokel solve``: double-dummy analysis of a deal or a position (analyzer.search.solve)."""
from __future__ import annotations

import time

import click
import numpy as np

from analyzer import DEFAULT_RULES, Hand, play_deal
from analyzer.errors import BinokelError
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.sampling import deal_random, new_deck
from analyzer.search.best_discard import MAX_SECONDS, best_discard
from analyzer.search.solve import Solver, deal_table, make_position, parse_position_line
from analyzer.bounds import SEED

from .common import BadInput, echo_json, example_epilog, parse_hand, bounded
from .main import cli

SEATS = ("forehand", "middlehand", "rearhand")
TABLE_TRUMPS = "CSHDN"       # the rows of a deal's table; N = Durch
BEST_DISCARD_SECONDS = 60.0  # --best-discard's budget when --time-limit is not given
OUT_OF_TIME = 3              # exit status: the time limit ran out, the table is partial
PROGRESS_EVERY = 5.0         # seconds between --best-discard progress lines


def _position_dict(pos, solver) -> dict:
    t0 = time.perf_counter()
    moves = solver.move_values(pos)
    value = max(moves.values()) if pos.to_play == pos.soloist else min(moves.values())
    return {"trump": "N" if pos.trump < 0 else "CSHD"[pos.trump], "soloist": pos.soloist,
            "leader": pos.leader, "to_play": pos.to_play,
            "hands": [h.codes() for h in pos.hands], "trick": [c.code for c in pos.trick],
            "tricks_left": pos.tricks_left, "value": value,
            "moves": {c.code: v for c, v in sorted(moves.items(), key=lambda kv: -kv[1])},
            "seconds": round(time.perf_counter() - t0, 4)}


def _print_position(d: dict) -> None:
    tname = "Durch (no trump)" if d["trump"] == "N" else f"trump {d['trump']}"
    click.echo(f"{tname}, soloist seat {d['soloist']}, {d['tricks_left']} trick(s) left, "
               f"seat {d['leader']}" + (f" led {' '.join(d['trick'])}" if d["trick"] else "")
               + (f", seat {d['to_play']} to play" if d["trick"] else " to lead"))
    for i, h in enumerate(d["hands"]):
        click.echo(f"  {i} {SEATS[i]:<10} {h or '-'}")
    click.echo(f"value: the soloist takes {d['value']} more card points with best play (R7)")
    click.echo(f"{'card':<6}{'value':>6}")
    for c, v in d["moves"].items():
        click.echo(f"{c:<6}{v:>6}" + ("  best" if v == d["value"] else ""))
    click.echo(f"({d['seconds']:.3f} s)")


def _print_best(d: dict) -> None:
    for i, h in enumerate(d["hands"]):
        click.echo(f"  {i} {SEATS[i]:<10}{' (soloist)' if i == d['soloist'] else '':<11} {h}")
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
    ),
)
@click.option("--position", "position", default=None,
              help="One-line position: \"TRUMP SOLOIST LEADER HAND0 HAND1 HAND2 TRICK\" "
                   "(TRUMP C S H D or N; cards comma-separated, '-' for none).")
@click.option("--seed", type=bounded(SEED), default=None,
              help="Deal a random 15/15/15/3 deal from this seed (R2).")
@click.option("--hand", "hands", multiple=True,
              help="The hands of seats 0, 1, 2 (give --hand three times); the Tapp is the rest.")
@click.option("--soloist", type=click.IntRange(0, 2), default=0, show_default=True,
              help="Soloist seat.")
@click.option("--tricks-left", type=click.IntRange(1, 15), default=None,
              help="Play the deal by the heuristic until this many tricks are left, then "
                   "give every legal card's value (needs --trump).")
@click.option("--trump", "-t", default=None,
              help="Trump for --tricks-left (C S H D or N = Durch); the table has all.")
@click.option("--best-discard", "best", is_flag=True,
              help="The soloist's best discard and trump for the Tapp: exact total "
                   "(discard + play + melds), or the best of the candidates examined "
                   "within the budget, said which.")
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
def solve_command(position, seed, hands, soloist, tricks_left, trump, best, tapp, max_seconds,
                  max_candidates, as_json):
    """Double-dummy analysis (all hands open, best play on both sides).

    For a deal: per trump and Durch, the soloist's exact card points from play (forehand
    leads; in a Durch the soloist), the Tapp counted as the discard (R4, R7), melds (R5)
    and total; a full deal takes seconds to minutes per row (see README, Performance).
    For a position (--position, or a deal with --tricks-left): the value (the soloist's
    card points from the position on, current trick included) and each legal card's.
    With --best-discard: the soloist's best discard and trump for the Tapp (R4), exact
    when the search finishes within the budget, else the best of the candidates
    examined (ranked by the fast exchange estimate), and the output says which.
    """
    rules = DEFAULT_RULES
    if position is None and seed is None and not hands:
        raise BadInput("nothing to solve: give --seed N (a random deal), --hand three times, "
                       "or --position LINE (see binokel solve --help)")
    solver = Solver(rules)
    if position is not None:
        if seed is not None or hands or tricks_left is not None:
            raise BadInput("--position stands alone: no --seed, --hand or --tricks-left with it")
        try:
            pos = parse_position_line(position, rules)
        except BinokelError as exc:
            raise BadInput(f"--position: {exc}") from None
        d = _position_dict(pos, solver)
        echo_json(d) if as_json else _print_position(d)
        return
    if hands and seed is not None:
        raise BadInput("give either --seed or three --hand, not both")
    if max_seconds is not None and tricks_left is not None:
        raise BadInput("--time-limit is for a whole deal or --best-discard: a position "
                       "(--tricks-left) is solved without one")
    if (tapp is not None or max_candidates is not None) and not best:
        raise BadInput("--tapp and --max-candidates go with --best-discard")
    if best and tricks_left is not None:
        raise BadInput("--best-discard is for a whole deal: no --tricks-left with it")
    if best and tapp is not None and not hands:
        raise BadInput("--tapp goes with three --hand (a --seed deal has its own Tapp)")
    if hands:
        if len(hands) != 3:
            raise BadInput(f"give --hand three times (seats 0, 1, 2), got {len(hands)}")
        size = None if tapp is not None else rules.hand_size
        hs = [parse_hand(h, size, f"--hand {i}") for i, h in enumerate(hands)]
    else:
        out = np.zeros(4, dtype=np.int64)
        deal_random(chunk_state(seed, 0), new_deck(), out)
        hs = [Hand.from_mask(int(m)) for m in out[:3]]
    if tricks_left is not None:
        if trump is None:
            raise BadInput("--tricks-left needs --trump (C, S, H, D or N)")
        durch = trump.strip().upper() == "N"
        try:
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
            pos = make_position([Hand.from_cards(c) for c in cur], None if durch else trump,
                                soloist, leader, (), rules)
        except BinokelError as exc:
            raise BadInput(str(exc)) from None
        d = _position_dict(pos, solver)
        echo_json(d) if as_json else _print_position(d)
        return
    if best:
        if trump is not None and trump.strip().upper() not in ("C", "S", "H", "D"):
            raise BadInput(f"--trump with --best-discard: one of C S H D, got {trump!r} "
                           "(Durch is not a discard candidate)")
        if max_seconds is None:
            max_seconds = BEST_DISCARD_SECONDS
        try:
            res = best_discard(hs, soloist, tapp, rules, trumps=trump or "CSHD",
                               max_seconds=max_seconds, max_candidates=max_candidates,
                               solver=solver,
                               progress=None if as_json else _discard_progress(max_seconds))
        except BinokelError as exc:
            raise BadInput(str(exc)) from None
        res["max_seconds"] = max_seconds
        res["max_candidates"] = max_candidates
        echo_json(res) if as_json else _print_best(res)
        return
    t0 = time.perf_counter()
    if not as_json:
        click.echo(f"solving {len(TABLE_TRUMPS)} contracts double dummy ("
                   f"{' '.join(TABLE_TRUMPS)}; N = Durch): a whole deal takes seconds to "
                   f"minutes each" + ("" if max_seconds else "; --time-limit SECONDS bounds it"),
                   err=True)
    try:
        rows = deal_table(hs, soloist, rules, solver, TABLE_TRUMPS, max_seconds=max_seconds,
                          progress=None if as_json else _table_progress)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    secs = time.perf_counter() - t0
    missing = [r["trump"] for r in rows if "solved" in r]
    if as_json:
        echo_json({"hands": [h.codes() for h in hs], "soloist": soloist, "rows": rows,
                   "complete": not missing, "time_limit": max_seconds,
                   "seconds": round(secs, 3)})
        return _out_of_time(missing, rows, max_seconds)
    for i, h in enumerate(hs):
        click.echo(f"  {i} {SEATS[i]:<10}{' (soloist)' if i == soloist else '':<11} {h}")
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
