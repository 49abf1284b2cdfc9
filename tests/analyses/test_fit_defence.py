"""Fit of the heuristic-lin defence (analyzer/analyses/fit_defence.py, play.DEFENCE_LIN)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.oracle import play as ref
from analyzer import BinokelError
from analyzer.analyses import fit_defence as fd
from analyzer.mechanics.play import (older_args, DEFENCE_LIN, DEFENCE_LIN2, LIN2_CTX, LIN2_F,
                                     LIN_F, LOG_CARD0, LOG_COLS, POLICY_HEURISTIC,
                                     POLICY_HEURISTIC_LIN, POLICY_HEURISTIC_LIN2, beat_table,
                                     play_out_logged)
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import DEFAULT_RULES, get_rules
from analyzer.search.pimc import shown_counts

KR = DEFAULT_RULES.kernel


def _beat():
    beat = np.empty(24, dtype=np.int64)
    beat_table(KR, beat)
    return beat


def _run(hands, trump, soloist, W, forced=None, n_forced=0, rec=1):
    """fit_defence._play with recording buffers: (points, decisions, phis, cards, ctxs,
    nls, moves, seq)."""
    W = np.ascontiguousarray(W, dtype=np.float64)
    fs = fd._fs_of(W)
    phis = np.zeros((fd._MAX_DEC, 24, W.shape[1]))
    cards = np.zeros((fd._MAX_DEC, 24), dtype=np.int64)
    ctxs, nls, moves = (np.zeros(fd._MAX_DEC, dtype=np.int64) for _ in range(3))
    seq = np.zeros(45, dtype=np.int64)
    f = np.zeros(45, dtype=np.int64) if forced is None else np.asarray(forced, dtype=np.int64)
    pts, nd = fd._play(hands, trump, soloist, W, KR, _beat(), f, n_forced, rec, phis, cards,
                       ctxs, nls, moves, seq, fs)
    return pts, nd, phis, cards, ctxs, nls, moves, seq


def _legal_sequence(hands, trump, cards, leader=0):
    """Does the sequence of plays follow R6 from ``hands``? (reference rules)"""
    hands = [list(map(int, h)) for h in hands]
    ld, trick = leader, []
    for c in cards:
        seat = (ld + len(trick)) % 3
        if c not in ref.legal_cards(hands[seat], trick, trump):
            return False
        hands[seat][c] -= 1
        trick.append(c)
        if len(trick) == 3:
            ld = (ld + ref.trick_winner(trick, trump)) % 3
            trick = []
    return True


def _seats(hands, trump, seq):
    """Seat of each of the 45 plays (leader 0, R6 trick winners)."""
    out, ld = [], 0
    for t in range(15):
        trick = [int(c) for c in seq[3 * t:3 * t + 3]]
        out += [(ld + k) % 3 for k in range(3)]
        ld = (ld + ref.trick_winner(trick, trump)) % 3
    return out


@pytest.fixture(scope="module")
def deals():
    return fd.draw_deals(60, 3)


@pytest.mark.parametrize("W, policy", [(DEFENCE_LIN, POLICY_HEURISTIC_LIN),
                                       (fd.initial_weights(), POLICY_HEURISTIC),
                                       (DEFENCE_LIN2, POLICY_HEURISTIC_LIN2),
                                       (fd.initial_weights("lin2"), POLICY_HEURISTIC),
                                       (fd.initial_weights("lin2", "lin"), POLICY_HEURISTIC_LIN)])
def test_fit_plays_the_policy_card_for_card(deals, W, policy):
    """The fit's player with the shipped weights is policy heuristic-lin (heuristic-lin2
    with DEFENCE_LIN2), and policy 0 (feature 0 = _defend's choice) is the current
    heuristic; lin2 started from heuristic-lin plays heuristic-lin: the same 45 cards as
    the kernel (play_out_logged; shown melds R5, soloist heuristic-v1) on every deal."""
    H, TR, SO = deals
    for i in range(len(SO)):
        log = np.zeros((15, LOG_COLS), dtype=np.int64)
        pts = np.zeros(3, dtype=np.int64)
        trk = np.zeros(3, dtype=np.int64)
        pols = np.full(3, policy, dtype=np.int64)
        play_out_logged(H[i], TR[i], 0, SO[i], pols, chunk_state(0, 0), KR, pts, trk, log,
                        np.zeros(0, dtype=np.int64), 0, *older_args(pols))
        p, *_, seq = _run(H[i], TR[i], SO[i], W, rec=0)
        assert list(seq) == list(log[:, LOG_CARD0:LOG_CARD0 + 3].reshape(-1))
        assert p == pts[SO[i]]


@pytest.mark.parametrize("W", [DEFENCE_LIN, DEFENCE_LIN2])
def test_features_are_public(deals, W):
    """Replacing the other two hands by cards consistent with the public information
    (same plays so far, every earlier play still legal under R6, the same melds shown
    before the first lead R5) leaves a defender's feature rows and context unchanged:
    the hidden cards reach the fit only through the roll-out labels."""
    H, TR, SO = deals
    rng = np.random.default_rng(11)
    checked = 0
    for i in range(20):
        hands, trump, so = H[i], int(TR[i]), int(SO[i])
        _, nd, phis, cards, ctxs, nls, moves, seq = _run(hands, trump, so, W)
        seats = _seats(hands, trump, seq)
        for d in rng.choice(nd, size=min(nd, 4), replace=False):
            m = int(moves[d])
            me = seats[m]
            others = [p for p in range(3) if p != me]
            shown = {p: shown_counts(hands[p], trump) for p in others}
            left = {p: hands[p].astype(int).copy() for p in others}
            kept = {p: shown[p].copy() for p in others}
            for j in range(m):
                if seats[j] in left:
                    left[seats[j]][seq[j]] -= 1
                    kept[seats[j]][seq[j]] = max(0, kept[seats[j]][seq[j]] - 1)
            free = {p: left[p] - np.minimum(left[p], kept[p]) for p in others}
            pool = [t for p in others for t in range(24) for _ in range(free[p][t])]
            n0 = int(free[others[0]].sum())
            for _ in range(40):
                perm = rng.permutation(pool)
                alt = hands.copy()
                for p, part in ((others[0], perm[:n0]), (others[1], perm[n0:])):
                    alt[p] = hands[p] - free[p].astype(np.uint8)
                    for t in part:
                        alt[p, t] += 1
                if np.array_equal(alt, hands):
                    continue
                if not _legal_sequence(alt, trump, seq[:m]):
                    continue
                if any(not np.array_equal(shown_counts(alt[p], trump), shown[p]) for p in others):
                    continue
                _, nd2, phis2, cards2, ctxs2, nls2, moves2, _ = _run(alt, trump, so, W, seq, m)
                # the first recorded decision of the replay is the one at move m
                assert nd2 >= 1 and moves2[0] == m and nls2[0] == nls[d] and ctxs2[0] == ctxs[d]
                n = int(nls[d])
                assert list(cards2[0, :n]) == list(cards[d, :n])
                assert np.array_equal(phis2[0, :n], phis[d, :n])
                checked += 1
                break
    assert checked >= 20


def test_ridge_fit_recovers_known_weights():
    """Synthetic rows Y = X . W[ctx] + a per-decision offset + noise: the centred ridge
    fit returns W (the offset cancels within a decision); a context with too few rows
    keeps zero weights."""
    rng = np.random.default_rng(5)
    W = rng.normal(size=(fd.N_CTX, LIN_F))
    X, Y, C, G = [], [], [], []
    for g in range(6000):
        n = int(rng.integers(2, 7))
        ctx = int(rng.integers(0, 4))             # context 4 never occurs
        x = rng.normal(size=(n, LIN_F))
        X.append(x)
        Y.append(x @ W[ctx] + rng.normal() * 50 + rng.normal(size=n) * 0.01)
        C += [ctx] * n
        G += [g] * n
    X, Y = np.concatenate(X), np.concatenate(Y)
    fit = fd.ridge_fit(X, Y, np.array(C), np.array(G), ridge=1e-6)
    assert np.abs(fit[:4] - W[:4]).max() < 1e-2
    assert np.all(fit[4] == 0.0)
    # a strong penalty shrinks the weights towards zero
    shrunk = fd.ridge_fit(X, Y, np.array(C), np.array(G), ridge=1e7)
    assert np.abs(shrunk[:4]).max() < 0.5 * np.abs(W[:4]).max()


def test_same_seed_same_weights():
    a = fd.fit_defence(80, 5, 1)
    b = fd.fit_defence(80, 5, 1)
    c = fd.fit_defence(80, 6, 1)
    assert np.array_equal(a["weights"], b["weights"]) and a["rows"] == b["rows"]
    assert not np.array_equal(a["weights"], c["weights"])


def test_iterations_use_fresh_deals_in_order():
    """Iteration j labels deals j*deals .. (j+1)*deals-1: the first round of a 2-round
    fit is the 1-round fit, and the second round is the fit on the next deals' labels
    under the first round's weights."""
    two = fd.fit_defence(60, 9, 2)
    one = fd.fit_defence(60, 9, 1)
    assert np.array_equal(two["history"][0], one["weights"])
    H, TR, SO = fd.draw_deals(60, 9, start=60)
    X, Y, C, G = fd.collect((H, TR, SO), one["weights"])
    assert np.array_equal(two["weights"], fd.ridge_fit(X, Y, C, G, 10.0))


def test_small_fit_gives_a_legal_policy_that_plays(deals):
    """A few hundred deals: the fitted defence plays every deal legally (R6, reference
    rules) to the end, the soloist's points within 0..250 (R7), and it plays otherwise
    than policy 0 somewhere (the fit moved the weights off _defend)."""
    fit = fd.fit_defence(300, 13, 1)
    W = fit["weights"]
    assert W.shape == (fd.N_CTX, LIN_F) and np.isfinite(W).all()
    assert fit["rows"][0] > 300 and fit["decisions"][0] > 300
    H, TR, SO = deals
    differ = 0
    for i in range(len(SO)):
        p, *_, seq = _run(H[i], TR[i], SO[i], W, rec=0)
        p0, *_, seq0 = _run(H[i], TR[i], SO[i], fd.initial_weights(), rec=0)
        assert _legal_sequence(H[i], int(TR[i]), seq)
        assert sorted(seq) == sorted(t for s in range(3) for t in range(24)
                                     for _ in range(int(H[i][s, t])))
        assert 0 <= p <= 250
        differ += list(seq) != list(seq0)
    assert differ >= 5
    assert fd.evaluate((H, TR, SO), W).shape == (len(SO),)


def test_shipped_weights_are_the_fit_files_bit_for_bit(tmp_path):
    """play.py's DEFENCE_LIN / DEFENCE_LIN2 are data/fits/defence_lin(2).json; writing them
    back with write_weights (3 decimals) gives the same rows, and the files name the
    command that regenerates them."""
    from analyzer.fits import fit_path, read_fit_file

    for features, W in (("lin", DEFENCE_LIN), ("lin2", DEFENCE_LIN2)):
        shipped = read_fit_file(fit_path(fd.WEIGHT_FILES[features][0]))
        assert shipped["command"].startswith("binokel fit-defence")
        assert shipped["generated_by"] == "analyzer.analyses.fit_defence.write_weights"
        A = np.array(shipped["data"], dtype=np.float64)
        assert A.shape == W.shape and (A.view(np.int64) == W.view(np.int64)).all()
        again = read_fit_file(fd.write_weights(W, tmp_path / f"{features}.json", features,
                                               shipped["command"]))
        assert again == shipped


def test_lin2_small_fit_legal_and_damped(deals):
    """The lin2 feature set: a small fit has LIN2_CTX x LIN2_F finite weights, plays every
    deal legally (R6, reference rules); damp 0.5 from heuristic-lin keeps half of
    heuristic-lin's weights on the first 18 features and the new ones at half the fit."""
    full = fd.fit_defence(120, 13, 1, features="lin2", start="lin")
    half = fd.fit_defence(120, 13, 1, features="lin2", start="lin", damp=0.5)
    W0 = fd.initial_weights("lin2", "lin")
    assert full["weights"].shape == (LIN2_CTX, LIN2_F) and np.isfinite(full["weights"]).all()
    assert np.allclose(half["weights"], 0.5 * full["weights"] + 0.5 * W0)
    H, TR, SO = deals
    for i in range(len(SO)):
        p, *_, seq = _run(H[i], TR[i], SO[i], full["weights"], rec=0)
        assert _legal_sequence(H[i], int(TR[i]), seq) and 0 <= p <= 250


def test_bad_inputs_raise_one_clear_error():
    with pytest.raises(BinokelError, match="deals"):
        fd.fit_defence(0)
    with pytest.raises(BinokelError, match="iterations"):
        fd.fit_defence(10, iterations=0)
    with pytest.raises(BinokelError, match="ridge"):
        fd.fit_defence(10, ridge=0.0)
    with pytest.raises(BinokelError, match="damp"):
        fd.fit_defence(10, damp=0.0)
    with pytest.raises(BinokelError, match="feature set"):
        fd.fit_defence(10, features="lin3")
    with pytest.raises(BinokelError, match="start"):
        fd.fit_defence(10, start="pimc")
    # V1: a partners' table fits its own defence; a lone soloist's set there is refused
    with pytest.raises(BinokelError, match="partners"):
        fd.fit_defence(10, rules=get_rules("kreuz-48"), features="lin")
    with pytest.raises(BinokelError, match="lone soloist"):
        fd.fit_defence(10, rules=get_rules("kreuz-48"), start="lin")
    with pytest.raises(BinokelError, match="holdout"):
        fd.fit_defence(10, holdout=-1)
