"""What runs in a job's worker process: the library call and its messages to the server.

Each job is one child process (forked from a warm forkserver, see :mod:`web.jobs`), so the
server's event loop never runs a kernel, a cancelled job is simply terminated, and a
crash in one job cannot take the server down.  Messages on the pipe:
``("progress", done, total)``, then ``("result", dict, cpu_seconds)`` or
``("error", status, line)``.
The result dicts are exactly what ``--json`` prints (``BidAdvice.to_dict()``,
``HandAnalysis.to_dict()``, ``meld_report``).
"""
from __future__ import annotations


def compute(kind: str, kwargs: dict, progress=None) -> dict:
    """Run one question through the library (the CLI's calls) and return its JSON dict.

    ``kwargs`` as :mod:`web.params` builds them; ``rules`` is a registered variant name."""
    from analyzer.mechanics.rules import get_rules
    from analyzer.mechanics.ruleset import get_game

    kw = dict(kwargs)
    rules = get_rules(kw.pop("rules", None))
    game = get_game(rules.name)
    if kind == "advise":    # one entry for every game (partners: the team advisor)
        from analyzer.analyses.advice import advise_bid
        return advise_bid(progress=progress, rules=rules, **kw).to_dict()
    if kind == "analyze" and game.table.sides == "partners":
        # the hand as soloist of a partners game, as binokel analyze runs it (V1, V4-V6)
        from analyzer.analyses.analysis import analyze_team_hand
        out = analyze_team_hand(kw["hand"], rules, seat=kw["seat"], dabb=kw["tapp"],
                                samples=kw["samples"], seed=kw["seed"], bid=kw["score_bid"],
                                play=kw.get("play", "heuristic"))   # PIMC too (issue 24)
        if progress is not None:
            progress(1, 1)
        return out.to_dict()
    if kind == "analyze":
        from analyzer.analyses.analysis import analyze_hand
        return analyze_hand(kw.pop("hand"), kw.pop("tapp"), kw.pop("seat"), kw.pop("samples"),
                            kw.pop("seed"), 1, rules, progress=progress, **kw).to_dict()
    if kind == "melds" and game.deck.copies > 2:
        # the 80-card deck's melds by V6.3's classes (as binokel melds --json prints them)
        from analyzer.mechanics.melds import class_meld_report
        return class_meld_report(kw["hand"], kw.get("trump"), rules)
    if kind == "melds":
        from analyzer.mechanics.melds import meld_report
        return meld_report(rules=rules, **kw)
    raise ValueError(f"unknown job kind {kind!r}")


def run_job(kind: str, kwargs: dict, conn) -> None:
    """Process entry point: compute and send the outcome; never raises."""
    import signal

    from analyzer.errors import BinokelError

    # Ctrl-C in the terminal reaches the whole process group: the server stops its jobs
    # itself (terminate), so a worker must not die with a KeyboardInterrupt traceback
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    from .params import json_safe

    def progress(done, total):
        conn.send(("progress", int(done), int(total)))

    try:
        out = json_safe(compute(kind, kwargs, progress))
    except BinokelError as exc:
        conn.send(("error", 400, " ".join(str(exc).split())))
    except MemoryError:
        conn.send(("error", 503, "out of memory: ask for fewer samples"))
    except Exception as exc:  # a bug, not bad input: one line, never a traceback to the page
        conn.send(("error", 500, f"internal error: {type(exc).__name__}: {' '.join(str(exc).split())[:200]}"))
    else:
        import resource

        ru = resource.getrusage(resource.RUSAGE_SELF)   # this worker's whole life, fork included
        conn.send(("result", out, ru.ru_utime + ru.ru_stime))
    finally:
        conn.close()


def warm_up() -> None:
    """Load every kernel the page uses (from numba's disk cache, or compile it once)."""
    hand = "AS AS 10S KS QS JS 9S KH QH AC AD 10D KD QD JD"
    compute("melds", dict(hand=hand, trump=None))
    compute("advise", dict(hand=hand, seat="forehand", auction="", scores=None, objective=None,
                           samples=4, seed=0, inference=True))
    compute("advise", dict(hand=hand, seat="middlehand", auction="150", scores=[0, 0, 0],
                           objective="win", samples=4, seed=0, inference=True))
    compute("analyze", dict(hand=hand, tapp=None, seat="forehand", samples=4, seed=0, score_bid=None))
    compute("analyze", dict(hand=hand, tapp="10S AH 9D", seat="forehand", samples=4, seed=0,
                            score_bid=None))
