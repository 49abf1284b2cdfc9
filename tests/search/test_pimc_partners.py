"""PIMC seats at a partners' table (analyzer.search.pimc.pimc_choose_partners; V1
sides, V4.5 / V5.6 / V6.4 duties): legal cards only, a decision that reads no hidden
hand; PIMC-defence leaves the bidder's side to the partners' heuristic."""
from __future__ import annotations

import random

import numpy as np
import pytest

from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import get_rules, team_spec
from analyzer.mechanics.play import POLICY_HEURISTIC
from analyzer.mechanics.playout import L_CARD0, L_COLS, L_LEGAL0
from analyzer.mechanics.sampling import deal_counts
from analyzer.search.pimc import (POLICY_PIMC_DEFENCE, pimc_policy, play_deal_partners_logged,
                                  play_policies)

TEAM_GAMES = ("kreuz-48", "kreuz-40", "pinochle-80")


def _play(spec, hands4, discard, pol, seed, forced=()):
    log = np.zeros((spec.hand_size, L_COLS), dtype=np.int64)
    pts = np.zeros(2, dtype=np.int64)
    f = np.asarray(forced, dtype=np.int64)
    play_deal_partners_logged(hands4.copy(), 0, 0, 0, np.asarray(pol, dtype=np.int64), chunk_state(seed, 1),
                     spec.tk, discard.copy(), pts, np.zeros(2, dtype=np.int64),
                     np.zeros(2, dtype=np.int64), log, f, len(f))
    return log, pts


def _deal(spec, seed):
    hands = np.zeros((5, 24), dtype=np.uint8)
    deal_counts(chunk_state(seed, 0), spec.deck.copy(), hands, spec.hand_size)
    return hands


@pytest.mark.parametrize("name", TEAM_GAMES)
def test_pimc_seats_play_legal_cards_and_every_point_is_credited(name):
    spec = team_spec(get_rules(name))
    hands = _deal(spec, 3)
    log, pts = _play(spec, hands[:4], hands[4], [pimc_policy(3)] * 4, 3)
    for row in log:
        for j in range(4):
            assert (int(row[L_LEGAL0 + j]) >> int(row[L_CARD0 + j])) & 1     # R6 / V6.4 duties
    deck_points = int((hands[:4].astype(np.int64).sum(axis=0) * spec.tk.card_points).sum())
    assert int(pts.sum()) == deck_points + spec.tk.last_trick_bonus         # R7 / V6.5


@pytest.mark.parametrize("name", TEAM_GAMES)
def test_pimc_defence_leaves_the_bidders_side_to_the_team_policy(name):
    # bidder 0: seats 0 and 2 play the team policy, so with the defence's cards forced to
    # what it played under pimc-defence, the bidder's side plays as under the team policy
    spec = team_spec(get_rules(name))
    hands = _deal(spec, 5)
    log_d, _ = _play(spec, hands[:4], hands[4], play_policies(3, 3), 5)
    assert int(play_policies(3, 3)[0]) & 255 == POLICY_PIMC_DEFENCE
    team_log, _ = _play(spec, hands[:4], hands[4], [POLICY_HEURISTIC] * 4, 5)
    # the first trick's lead (seat 0, the bidder's side) is the team policy's
    assert log_d[0, L_CARD0] == team_log[0, L_CARD0]


@pytest.mark.parametrize("name", TEAM_GAMES)
def test_pimc_decision_unchanged_when_hidden_hands_are_replaced_consistently(name):
    # seat 0 leads (forced), seat 1 (PIMC, not the bidder) decides: it knows its hand and
    # the led card only.  Re-deal everything else it cannot see (seat 0's rest, seats 2
    # and 3, the bidder's discard): the decision must not change.
    spec = team_spec(get_rules(name))
    rnd = random.Random(name)
    for rep in range(4):
        hands = _deal(spec, 20 + rep)
        lead = next(t for t in range(24) if hands[0, t] > 0)
        pool = []
        for q, row in ((0, hands[0]), (2, hands[2]), (3, hands[3]), (4, hands[4])):
            for t in range(24):
                pool += [t] * (int(row[t]) - (1 if (q == 0 and t == lead) else 0))
        rnd.shuffle(pool)
        other = hands.copy()
        other[[0, 2, 3, 4]] = 0
        other[0, lead] = 1
        sizes = {0: spec.hand_size - 1, 2: spec.hand_size, 3: spec.hand_size, 4: spec.dabb_size}
        i = 0
        for q in (0, 2, 3, 4):
            for _ in range(sizes[q]):
                other[q, pool[i]] += 1
                i += 1
        pol = [POLICY_HEURISTIC, pimc_policy(6), POLICY_HEURISTIC, POLICY_HEURISTIC]
        a, _ = _play(spec, hands[:4], hands[4], pol, 40 + rep, forced=[lead])
        b, _ = _play(spec, other[:4], other[4], pol, 40 + rep, forced=[lead])
        assert a[0, L_CARD0 + 1] == b[0, L_CARD0 + 1]
