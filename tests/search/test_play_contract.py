"""``--play``: PIMC inside the analyses (analyzer.search.pimc.play_contract).

Only the card play may differ between ``--play heuristic`` and ``--play pimc*``: the same
sampled deals, weights, exchanges and auctions (R2-R4), the same scoring (R8).  PIMC
seats receive their information set only (R4-R6), and the numbers depend on the seed
alone, not on the workers.
"""
from __future__ import annotations

import ast
import inspect
import random

import numpy as np
import pytest

from analyzer.analyses.advice import advise_bid
from analyzer.analyses.advice_samples import simulate_advice
from analyzer.analyses.analysis import CHUNK, simulate_soloist
from analyzer.analyses.tournament import run_tournament
from analyzer.errors import BinokelError
from analyzer.mechanics.bidding import validate_auction
from analyzer.mechanics.cards import N_RANKS, N_SUITS, N_TYPES, Hand
from analyzer.mechanics.play import POLICY_HEURISTIC, POLICY_RANDOM, play_out
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import DEFAULT_RULES, get_rules
from analyzer.search import pimc
from analyzer.search.pimc import (PLAY_HORIZON, PLAY_PIMC, PLAY_PIMC_DEFENCE, PLAY_SAMPLES,
                                  pimc_args, play_contract, resolve_play, shown_counts)

KR = DEFAULT_RULES.kernel
AVERAGE = "AS 10S KS QS 9S AH KH QH 10C KC JC 9D QD JD 9H"


def _deal(rnd):
    deck = [t for t in range(N_TYPES) for _ in range(2)]
    rnd.shuffle(deck)
    hands = np.zeros((3, N_TYPES), dtype=np.uint8)
    for p in range(3):
        for t in deck[15 * p:15 * (p + 1)]:
            hands[p, t] += 1
    tapp = np.zeros(N_TYPES, dtype=np.uint8)
    for t in deck[45:]:
        tapp[t] += 1
    return hands, tapp, np.array(deck[45:], dtype=np.int64)


def test_heuristic_play_contract_is_play_out_exactly():
    # R6/R7: the heuristic and random modes are analyzer.mechanics.play.play_out, draw for draw
    rnd = random.Random(3)
    for i in range(40):
        hands, tapp, disc = _deal(rnd)
        trump = rnd.randrange(-1, 4)
        sol = rnd.randrange(3)
        for pol in (POLICY_HEURISTIC, POLICY_RANDOM):
            s1, s2 = chunk_state(i, 0), chunk_state(i, 0)
            p1, t1, p2, t2 = (np.zeros(3, dtype=np.int64) for _ in range(4))
            n1 = play_out(hands, trump, 0, sol, pol, s1, KR, p1, t1)
            n2 = play_contract(hands, trump, 0, sol, pol, s2, KR, p2, t2, tapp, disc)
            assert (n1, list(p1), list(t1), list(s1)) == (n2, list(p2), list(t2), list(s2))


def test_pimc_play_contract_keeps_the_callers_stream_and_plays_a_legal_deal():
    # the caller's RNG is not advanced (its next deal is the heuristic's); R7: all 250
    # card points (240 + 10 last trick) end in the tricks of a full trump deal
    rnd = random.Random(5)
    for i in range(6):
        hands, tapp, disc = _deal(rnd)
        st = chunk_state(i, 1)
        before = st.copy()
        pts = np.zeros(3, dtype=np.int64)
        trk = np.zeros(3, dtype=np.int64)
        mode = PLAY_PIMC if i % 2 else PLAY_PIMC_DEFENCE
        n = play_contract(hands, i % 4, 0, i % 3, mode, st, KR, pts, trk, tapp, disc,
                          *pimc_args(mode))
        assert list(st) == list(before)
        assert n == 15 and trk.sum() == 15
        dpts = sum(int(KR.card_points[t]) for t in disc)
        assert pts.sum() == 250 - dpts


def test_pimc_mode_without_its_settings_is_refused_not_played_as_heuristic():
    hands, tapp, disc = _deal(random.Random(1))
    pts, trk = np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)
    with pytest.raises(ValueError, match="needs its settings"):
        play_contract(hands, 0, 0, 0, PLAY_PIMC, chunk_state(0, 0), KR, pts, trk, tapp, disc)
    assert pimc_args(POLICY_HEURISTIC) == () and pimc_args(POLICY_RANDOM) == ()
    for mode in (PLAY_PIMC, PLAY_PIMC_DEFENCE):
        (cfg,) = pimc_args(mode)
        assert list(cfg) == [PLAY_SAMPLES, PLAY_HORIZON]


def test_heuristic_play_step_compiles_without_pimc_or_solver_code():
    # the compile-time split: without the PIMC settings numba prunes the PIMC branch
    # before typing, so the heuristic variant links play_out and nothing of PIMC / the
    # double-dummy solver.  A fresh, uncached copy is compiled here to read its LLVM IR.
    import numba
    from numba import types

    fresh = numba.njit(cache=False, nogil=True, error_model="numpy")(play_contract.py_func)
    hands, tapp, disc = _deal(random.Random(2))
    pts, trk = np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)
    fresh(hands, 0, 0, 0, POLICY_HEURISTIC, chunk_state(0, 0), KR, pts, trk, tapp, disc)
    (sig,) = fresh.signatures
    assert isinstance(sig[-1], types.Omitted)   # called without the PIMC settings
    ir = fresh.inspect_llvm(sig)
    assert "play_out" in ir
    for name in ("play_deal_policies", "pimc_choose", "sample_world", "dd_move_values",
                 "_rollout"):
        assert name not in ir, name


PIPELINE_PLAY_CALLS = ("play_contract", "_play_trump", "finish_deal", "soloist_outcomes",
                       "soloist_play", "soloist_grid")


@pytest.mark.parametrize("kernel", ["analyzer.search.deals.finish_deal",
                                    "analyzer.search.deals.soloist_outcomes",
                                    "analyzer.search.deals._play_trump",
                                    "analyzer.search.deals.soloist_play",
                                    "analyzer.search.deals.soloist_grid",
                                    "analyzer.analyses.advice_samples.advise_samples",
                                    "analyzer.analyses.analysis._soloist_chunk"])
def test_every_pipeline_kernel_forwards_the_pimc_settings_to_its_play_step(kernel):
    # structural: a pipeline kernel called without ``pimc`` passes None down to
    # play_contract (so its heuristic variant holds no PIMC code), and with it, the
    # settings reach every play-out of the deal (trump contract and Durch alike)
    import importlib

    mod, name = kernel.rsplit(".", 1)
    fn = getattr(importlib.import_module(mod), name)
    params = list(inspect.signature(fn.py_func).parameters.values())
    assert params[-1].name == "pimc"
    calls = [c for n in PIPELINE_PLAY_CALLS for c in _play_calls(fn, n)]
    assert calls
    for c in calls:
        assert ast.unparse(c.args[-1]) == "pimc", ast.unparse(c)


def _play_calls(fn, name):
    tree = ast.parse(inspect.getsource(fn.py_func))
    return [c for c in ast.walk(tree) if isinstance(c, ast.Call)
            and getattr(c.func, "id", None) == name]


def test_pimc_seats_get_only_their_information_set():
    # structural (R4-R6): in the deal driver the PIMC decision receives the seat's own
    # hand planes (lo[seat], hi[seat]), never the lo / hi arrays of all hands, and the
    # discard only when it is the soloist's
    calls = _play_calls(pimc.play_deal_policies, "pimc_choose")
    assert len(calls) == 1
    args = [ast.unparse(a) for a in calls[0].args]
    names = list(inspect.signature(pimc.pimc_choose.py_func).parameters)
    got = dict(zip(names, args))
    assert got["own_lo"] == "lo[seat]" and got["own_hi"] == "hi[seat]"
    assert got["discard"] == "discard if seat == soloist else nodisc"
    assert "lo" not in args and "hi" not in args and "hands_lo" not in args
    # play_contract reaches PIMC only through that driver
    assert not _play_calls(play_contract, "pimc_choose")
    assert len(_play_calls(play_contract, "play_deal_policies")) == 1


def _ref_shown(counts, trump, rules):
    # R5 written out: the cards a hand shows for its melds (the family A-10-K-Q-J, pairs
    # K-Q, four/eight of a kind, binokel Q♠+J♦, grand binokel K♠+Q♠+J♦ (V2.5), trump nines)
    out = [0] * N_TYPES
    if trump < 0:
        return out
    tid = lambda s, r: s * N_RANKS + r  # noqa: E731
    for s in range(N_SUITS):
        a, t, k, q, j = (counts[tid(s, r)] for r in range(5))
        f = min(a, t, k, q, j)
        pairs = 0 if f == 2 else (min(k - 1, q - 1) if f == 1 else min(k, q))
        for r in range(5):
            out[tid(s, r)] = max(out[tid(s, r)], f)
        for r in (2, 3):
            out[tid(s, r)] = max(out[tid(s, r)], f + pairs)
    for r in range(N_RANKS):
        if rules.fours[r]:
            n = min(counts[tid(s, r)] for s in range(N_SUITS))
            for s in range(N_SUITS):
                out[tid(s, r)] = max(out[tid(s, r)], n)
    groups = [list(rules.binokel_cards)]
    if rules.kernel.grand_binokel_value:
        groups.append(list(rules.binokel_cards) + [(1, 2)])   # + K♠
    for g in groups:
        n = min(counts[tid(s, r)] for s, r in g)
        for s, r in g:
            out[tid(s, r)] = max(out[tid(s, r)], n)
    if rules.trump_nine:
        out[tid(trump, 5)] = max(out[tid(trump, 5)], counts[tid(trump, 5)])
    return out


@pytest.mark.parametrize("name", ["binokel-48", "grupp-3"])
def test_shown_counts_kernel_equals_plain_r5_reading(name):
    rules = get_rules(name)
    rnd = random.Random(7)
    for _ in range(400):
        hands, _, _ = _deal(rnd)
        if rnd.random() < 0.3:   # force melds: a family, a double binokel
            s = rnd.randrange(4)
            for r in range(5):
                hands[0, s * N_RANKS + r] = rnd.choice([1, 2])
            hands[0, 1 * N_RANKS + 3] = hands[0, 3 * N_RANKS + 4] = 2
        trump = rnd.randrange(-1, 4)
        for p in range(3):
            c = [int(x) for x in hands[p]]
            assert list(shown_counts(c, trump, rules)) == _ref_shown(c, trump, rules)


def test_analyze_pimc_changes_only_the_play():
    # same Tapps, exchanges (discard, trump, contract per bid) and melds; card points differ
    base = simulate_soloist(AVERAGE, seat="middlehand", samples=96, seed=4)
    for play in ("pimc-defence", "pimc"):
        alt = simulate_soloist(AVERAGE, seat="middlehand", samples=96, seed=4, play=play)
        assert alt["play"] == play
        for key in ("tapp", "discard", "trump", "meld", "discard_points", "contract",
                    "durch_considered", "est_total"):
            np.testing.assert_array_equal(base[key], alt[key], err_msg=key)
        assert (base["card_points"] != alt["card_points"]).any()


def test_pimc_defence_takes_points_from_the_heuristic_soloist():
    # duplicate on the analyzer's own deals (R7 card points, paired): strong defence costs
    # the soloist points, by more than 3 SE (measured -10 points per deal at n = 256)
    base = simulate_soloist(AVERAGE, seat="middlehand", samples=160, seed=6)
    alt = simulate_soloist(AVERAGE, seat="middlehand", samples=160, seed=6, play="pimc-defence")
    d = (alt["card_points"] - base["card_points"]).astype(float)
    se = d.std(ddof=1) / np.sqrt(len(d))
    assert d.mean() < -3 * se


def test_advise_pimc_keeps_samples_weights_exchange_and_auction():
    h = Hand.parse(AVERAGE).counts_array().astype(np.uint8)
    st = validate_auction("150", DEFAULT_RULES)
    a = simulate_advice(h, 1, st, 24, 2, 1, True, DEFAULT_RULES)
    b = simulate_advice(h, 1, st, 24, 2, 1, True, DEFAULT_RULES, policy=PLAY_PIMC_DEFENCE)
    for key in ("weight", "sol_contract", "sol_trump", "pass_soloist", "pass_bid"):
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)
    assert (a["sol_scores"] != b["sol_scores"]).any()
    adv = advise_bid(AVERAGE, "middlehand", "150", samples=24, seed=2, play="pimc-defence")
    assert adv.play == "pimc-defence" and adv.to_dict()["play"] == "pimc-defence"


def test_pimc_numbers_do_not_depend_on_workers():
    one = simulate_soloist(AVERAGE, samples=CHUNK + 8, seed=9, play="pimc")
    two = simulate_soloist(AVERAGE, samples=CHUNK + 8, seed=9, play="pimc", n_jobs=2)
    for key in ("card_points", "score", "tricks", "opp_card_points"):
        np.testing.assert_array_equal(one[key], two[key], err_msg=key)
    t1 = run_tournament("rule", "rule", groups=5, seed=2, play="pimc-defence")
    t2 = run_tournament("rule", "rule", groups=5, seed=2, play="pimc-defence", n_jobs=2)
    assert t1.to_dict() == t2.to_dict()
    assert t1.params["play"] == "pimc-defence"


def test_play_names_and_refusals_are_one_line_and_every_game_has_pimc():
    assert resolve_play("heuristic") == POLICY_HEURISTIC
    assert resolve_play("PIMC") == PLAY_PIMC
    assert resolve_play("pimc-defence") == PLAY_PIMC_DEFENCE
    with pytest.raises(BinokelError, match="unknown play"):
        resolve_play("oracle")
    for name in ("binokel-40", "kreuz-48", "kreuz-40", "pinochle-80"):   # issue 24
        assert resolve_play("pimc", get_rules(name)) == PLAY_PIMC
        assert resolve_play("pimc-defence", get_rules(name)) == PLAY_PIMC_DEFENCE
    assert resolve_play("heuristic", get_rules("binokel-40")) == POLICY_HEURISTIC
    with pytest.raises(BinokelError, match="not available with --lookahead"):
        advise_bid(AVERAGE, "middlehand", "150", samples=10, play="pimc", lookahead=True)
    with pytest.raises(BinokelError, match="at most 5,000"):
        advise_bid(AVERAGE, samples=5001, play="pimc")
    with pytest.raises(BinokelError, match="at most 20,000"):
        simulate_soloist(AVERAGE, samples=20001, play="pimc")
