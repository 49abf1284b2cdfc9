"""``binokel advise``: how high should this hand bid? (R3, R4, R8, R9)."""
from __future__ import annotations

import click

from analyzer.analyses.advice import PIMC_SAMPLES, advise_bid
from analyzer.analyses.advice_result import DEFAULT_SAMPLES
from analyzer.analyses.opponents import OPPONENT_MODELS
from analyzer.errors import BinokelError
from analyzer.examples import example
from analyzer.bounds import SAMPLES_ADVISE, SEED

from .common import (BadInput, bounded, cards_option, echo_json, example_epilog, jobs_option, parse_hand,
                     play_option, rules_option)
from .main import cli
from .progress import Bar, quiet_option


def _parse_scores(text: str | None):
    if text is None:
        return None
    parts = [p for p in text.replace(";", ",").split(",") if p.strip()]
    try:
        vals = tuple(int(p) for p in parts)
    except ValueError:
        raise BadInput(f"--scores: cannot read {text!r}: give three integers FH,MH,RH like 900,1200,400") from None
    if len(vals) != 3:
        raise BadInput(f"--scores: need three game scores (forehand, middlehand, rearhand), got {len(vals)}")
    return vals


@cli.command(
    "advise",
    epilog=example_epilog(
        "binokel advise --example strong_spades",
        "binokel advise 'AS 10S KS 9S AH QH JH 9H KC QC 10C JD 9D QD 10D' --seat rearhand \\",
        "    --auction '150 160 pass' --scores 900,1200,400 --json",
        "binokel advise --rules kreuz-48 'AS AS 10S KS QS JS AC AH AD 10C KH' --seat 2 \\",
        "    --auction '150 160 pass'",
        "binokel advise --rules pinochle-80 --seat 2 --auction '500 pass' \\",
        "    'AH 10H KH QH JH AH 10H KH QS JD AC AS 10C 10S 10D QC JC JS QD JH'",
        "binokel advise --example average --seat middlehand --auction 150 --lookahead",
        "binokel advise --rules kreuz-48 'AS AS 10S KS QS JS AC AH AD 10C KH' --seat 1 \\",
        "    --auction 150 --lookahead",
        "binokel advise --example strong_spades --play pimc-defence --jobs 2",
    ),
)
@click.argument("hand", required=False)
@click.option("--seat", "-s", default=None,
              help="forehand, middlehand or rearhand (R2); default forehand, or the example's seat. "
                   "Team games (kreuz-48, kreuz-40, pinochle-80): 0-3, partners 0+2 and 1+3.")
@click.option("--auction", "-a", default="", help="Calls so far, e.g. '150 160 pass' (validated per R3).")
@click.option("--scores", default=None, help="Game scores before this deal, FH,MH,RH (R9): advice then maximizes P(win game). "
              "Team games: two totals, your team first (e.g. 1200,900; V4.6, V6.6).")
@click.option("--objective", type=click.Choice(["relative", "own", "win"]), default=None,
              help="relative: own minus mean of opponents' deal scores (default); own: own score; "
                   "win: P(win game), default when --scores is given.")
@click.option("--example", "example_name", help="Use a built-in example hand from data/examples.json.")
@click.option("-n", "--samples", default=None, type=bounded(SAMPLES_ADVISE),
              help=f"Sampled deals [default: {DEFAULT_SAMPLES}; {PIMC_SAMPLES} with --play pimc "
                   f"or pimc-defence].")
@click.option("--seed", default=0, show_default=True, type=bounded(SEED), help="Random seed (same seed, same numbers).")
@jobs_option(default=-1, workers="Threads of this one process, each running chunks of the "
             "sampled deals (three-player games; a team game's advice runs in one thread)")
@cards_option
@click.option("--no-inference", is_flag=True, help="Do not weight samples by the opponents' calls.")
@click.option("--lookahead/--no-lookahead", default=False, show_default=True,
              help="Play the rest of the auction out for every maximum bid: the price you buy "
                   "it at, P(you become soloist), and what passing leaves to the opponents "
                   "(team games: to the partner or the opponents).")
@click.option("--opponents", type=click.Choice(list(OPPONENT_MODELS)), default=None,
              help="How the opponents bid: rule (rule of thumb) or advisor (fitted model of this "
                   "advisor). Default: rule without look-ahead, advisor with it. Team games "
                   "(with --lookahead): the model of all three other seats, advisor = the team "
                   "advisor's rule of thumb + offset.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@play_option
@quiet_option
@rules_option
def advise_command(hand, seat, auction, scores, objective, example_name, samples, seed, jobs,
                   no_inference, lookahead, opponents, as_json, play, quiet, rules):
    """Recommend the maximum bid for a HAND (15 cards; 12 in binokel-40) with P(make) and
    EV per bid (R3; in the grupp games forehand may pass, V2.2).

    Each bid is compared with passing on the same sampled deals; the recommendation is the
    last bid worth saying. Opponents' calls in --auction weight the samples (inference).
    """
    if hand is None and example_name is None:
        raise BadInput("give a HAND (15 cards) or --example NAME")
    if hand is not None and example_name is not None:
        raise BadInput("give either a HAND or --example, not both")
    if seat is not None and not seat.strip():
        raise BadInput("--seat is empty: use forehand, middlehand or rearhand (R2)")
    if example_name is not None:
        ex = example(example_name)
        hand = ex["hand"]
        seat = seat or ex.get("seat") or "forehand"
    if getattr(rules, "teams", False):
        if samples is None and play == "heuristic":
            samples = DEFAULT_SAMPLES
        return _advise_team(hand, seat, auction, scores, objective, samples, seed,
                            no_inference, as_json, rules, lookahead, opponents, play,
                            quiet or as_json)
    seat = seat or "forehand"
    h = parse_hand(hand, size=rules.hand_size, rules=rules)
    if samples is not None and samples < 1:
        raise BadInput(f"--samples must be at least 1, got {samples}")
    try:
        with Bar("sampled deals (chunks)", quiet=quiet or as_json) as bar:
            adv = advise_bid(h, seat=seat, auction=auction, scores=_parse_scores(scores),
                             objective=objective, samples=samples, seed=seed, n_jobs=jobs,
                             inference=not no_inference, rules=rules, lookahead=lookahead,
                             opponents=opponents, play=play, progress=bar.update)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    if as_json:
        echo_json(adv.to_dict())
        return
    click.echo(adv.summary())


def _advise_team(hand, seat, auction, scores, objective, samples, seed, no_inference, as_json,
                 rules, lookahead=False, opponents=None, play="heuristic", quiet=True):
    """``--rules kreuz-48 / kreuz-40 / pinochle-80``: the team advisor (seats 0-3)."""
    try:
        with Bar("sampled deals (chunks)", quiet=quiet) as bar:
            adv = advise_bid(hand, seat=seat if seat is not None else "0", auction=auction,
                             samples=samples, seed=seed, inference=not no_inference,
                             rules=rules, lookahead=lookahead, opponents=opponents,
                             scores=scores, objective=objective, play=play,
                             progress=bar.update)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    if as_json:
        echo_json(adv.to_dict())
        return
    click.echo(adv.summary())
