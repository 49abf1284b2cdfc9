"""Pinochle card play (V6.4), counters (V6.5) and the partners' heuristic's information
(V6.1, analyzer.mechanics.play.heuristic_partners in analyzer.search.pimc.play_deal_partners):
the kernels against the plain-Python reference on random deals."""
from __future__ import annotations

import numpy as np
import pytest

from analyzer.mechanics.play import POLICY_HEURISTIC, POLICY_RANDOM
from analyzer.mechanics.playout import L_CARD0, L_COLS, L_LEADER, L_LEGAL0, L_POINTS, L_WINNER
from analyzer.mechanics.rules import PINOCHLE_80, PINOCHLE_80_B, team_kernel, team_spec
from analyzer.mechanics.sampling import deal_counts
from analyzer.search.pimc import play_deal_partners_logged
from analyzer.mechanics.rng import chunk_state
from tests.oracle import pinochle as ref


def _deals(seed, n):
    st_ = chunk_state(seed, 0)
    deck = team_spec(PINOCHLE_80).deck.copy()
    cnt = np.zeros((4, 24), dtype=np.uint8)
    for _ in range(n):
        deal_counts(st_, deck, cnt, 20)
        yield cnt.copy()


def _play_logged(hands, trump, leader, bidder, policy, seed, rules=PINOCHLE_80,
                 forced=None):
    log = np.zeros((20, L_COLS), dtype=np.int64)
    pts = np.zeros(2, dtype=np.int64)
    cnt = np.zeros(2, dtype=np.int64)
    tr = np.zeros(2, dtype=np.int64)
    f = np.zeros(0, dtype=np.int64) if forced is None else np.asarray(forced, dtype=np.int64)
    play_deal_partners_logged(hands, trump, leader, bidder, np.full(4, policy, dtype=np.int64),
                              chunk_state(seed, 1), team_kernel(rules), np.zeros(24, dtype=np.uint8),
                              pts, cnt, tr, log, f, len(f))
    return log, pts, cnt, tr


def _replay_with_reference(hands, log, trump, leader, option):
    """Walk the kernel's log through the reference rules; return team points, counting
    tricks, trick counts as the reference computes them."""
    h = [[int(x) for x in hands[p]] for p in range(4)]
    pts, counting, tricks = [0, 0], [0, 0], [0, 0]
    ld = leader
    for trick in range(20):
        assert log[trick, L_LEADER] == ld
        cards = []
        for k in range(4):
            seat = (ld + k) % 4
            legal = ref.legal(h[seat], cards, trump)
            mask = sum(1 << t for t in legal)
            assert log[trick, L_LEGAL0 + k] == mask, (trick, k)
            c = int(log[trick, L_CARD0 + k])
            assert c in legal
            h[seat][c] -= 1
            cards.append(c)
        w = (ld + ref.winner_index(cards, trump)) % 4
        assert log[trick, L_WINNER] == w
        p = ref.trick_points(cards, option) + (ref.LAST_TRICK if trick == 19 else 0)
        assert log[trick, L_POINTS] == p
        pts[w % 2] += p
        tricks[w % 2] += 1
        counting[w % 2] += ref.trick_points(cards, option) > 0
        ld = w
    assert all(sum(x) == 0 for x in h)
    return pts, counting, tricks


@pytest.mark.parametrize("policy", [POLICY_RANDOM, POLICY_HEURISTIC])
def test_v6_4_kernel_plays_match_reference_duties_and_winners(policy):
    for i, hands in enumerate(_deals(21 + policy, 60)):
        trump, leader = i % 4, (i // 4) % 4
        log, pts, cnt, tr = _play_logged(hands, trump, leader, leader, policy, i)
        rp, rc, rt = _replay_with_reference(hands, log, trump, leader, "a")
        assert list(pts) == rp and list(cnt) == rc and list(tr) == rt


def test_v6_5_counters_sum_to_500_with_option_a_and_b():
    for rules in (PINOCHLE_80, PINOCHLE_80_B):
        assert rules.deal_points == 500
        for i, hands in enumerate(_deals(31, 30)):
            log, pts, cnt, tr = _play_logged(hands, i % 4, 0, 0, POLICY_HEURISTIC, i, rules)
            assert pts.sum() == 500
            assert tr.sum() == 20
            _replay_with_reference(hands, log, i % 4, 0, rules.counters)


def test_v6_5_option_b_scores_queens_and_halves_kings():
    kb = team_kernel(PINOCHLE_80_B).card_points
    ka = team_kernel(PINOCHLE_80).card_points
    assert list(ka[:5]) == [10, 10, 10, 0, 0]
    assert list(kb[:5]) == [10, 10, 5, 5, 0]


def test_v6_4_trump_lead_must_be_headed():
    # spades trump; A♠ Q♠ in hand, trick: K♠ led -> must play A♠ (higher than the K)
    hand = [0] * 24
    hand[6] = 1   # A♠
    hand[9] = 1   # Q♠
    assert ref.legal(hand, [8], 1) == {6}
    _check_kernel_legal(hand, [8], 1, {6})


def test_v6_4_no_overtrump_duty_on_a_plain_lead():
    # hearts led, seat void in hearts: any trump, even under the trump already played
    hand = [0] * 24
    hand[6] = 1   # A♠
    hand[10] = 1  # J♠
    hand[0] = 1   # A♣
    trick = [14, 8]   # K♥ led, K♠ ruffed
    assert ref.legal(hand, trick, 1) == {6, 10}
    _check_kernel_legal(hand, trick, 1, {6, 10})


def test_v6_4_plain_lead_no_duty_to_head():
    hand = [0] * 24
    hand[12] = 1  # A♥
    hand[16] = 1  # J♥
    assert ref.legal(hand, [14], 1) == {12, 16}
    _check_kernel_legal(hand, [14], 1, {12, 16})


def test_v6_4_first_of_identical_copies_wins():
    assert ref.winner_index([12, 12, 13, 14], 1) == 0
    from analyzer.mechanics.play import beat_table, card_beats
    beat = np.empty(24, dtype=np.int64)
    beat_table(team_kernel(PINOCHLE_80), beat)
    assert not card_beats(12, 12, 1, beat)


def _check_kernel_legal(hand, trick, trump, expected):
    from analyzer.mechanics.play import beat_table
    from analyzer.mechanics.trick import add_card, duty_modes, legal
    tk = team_kernel(PINOCHLE_80)
    beat = np.empty(24, dtype=np.int64)
    beat_table(tk, beat)
    lsuit, win, wseat, lhigh = -1, -1, -1, -1
    for i, c in enumerate(trick):
        lsuit, win, wseat, lhigh = add_card(c, i, lsuit, win, wseat, lhigh, trump, beat)
    pres = sum(1 << t for t in range(24) if hand[t])
    bm, ot = duty_modes(tk.duty)
    m = legal(pres, lsuit, win, lhigh, trump, beat, 1, 1, bm, ot, 0)
    assert {t for t in range(24) if (m >> t) & 1} == expected


# ---------------------------------------------------------------- public information only

def test_v6_team_policy_decisions_use_public_information_only():
    """Replacing the three other hands by any cards consistent with what was played and
    proved (V6.4 inferences) changes no decision of the team policy."""
    rng = np.random.default_rng(4)
    checked = 0
    for i, hands in enumerate(_deals(41, 12)):
        trump, leader = i % 4, i % 4
        log, *_ = _play_logged(hands, trump, leader, leader, POLICY_HEURISTIC, i)
        plays = [(int(log[t, L_LEADER] + k) % 4, int(log[t, L_CARD0 + k]), t, k)
                 for t in range(20) for k in range(4)]
        for move in range(5, 80, 7):
            seat = plays[move][0]
            # cards each seat still holds, and what its plays proved it lacks
            remaining = [[int(x) for x in hands[p]] for p in range(4)]
            absent = [set() for _ in range(4)]
            trick_cards = []
            for (s, c, t, k) in plays[:move]:
                if k == 0:
                    trick_cards = []
                if k > 0:
                    led = trick_cards[0] // 6
                    if c // 6 != led:
                        absent[s] |= {x for x in range(24) if x // 6 == led}
                        if c // 6 != trump:
                            absent[s] |= {x for x in range(24) if x // 6 == trump}
                    elif led == trump:
                        top = trick_cards[ref.winner_index(trick_cards, trump)]
                        if not ref.beats(c, top, trump):
                            absent[s] |= {x for x in range(24) if x // 6 == trump and x % 6 < top % 6}
                trick_cards.append(c)
                remaining[s][c] -= 1
            others = [p for p in range(4) if p != seat]
            pool = [t for p in others for t in range(24) for _ in range(remaining[p][t])]
            for _ in range(200):
                rng.shuffle(pool)
                new = {}
                pos = 0
                ok = True
                for p in others:
                    n = sum(remaining[p])
                    part = pool[pos:pos + n]
                    pos += n
                    if any(t in absent[p] for t in part):
                        ok = False
                        break
                    new[p] = part
                if ok:
                    break
            else:
                continue
            alt = hands.copy()
            for p in others:
                played_p = [c for (s, c, *_r) in plays[:move] if s == p]
                alt[p, :] = np.bincount(np.array(new[p] + played_p, dtype=np.int64), minlength=24)
            forced = [c for (_s, c, *_r) in plays[:move]]
            log2, *_ = _play_logged(alt, trump, leader, leader, POLICY_HEURISTIC, i, forced=forced)
            t, k = plays[move][2], plays[move][3]
            assert log2[t, L_CARD0 + k] == log[t, L_CARD0 + k], (i, move)
            checked += 1
    assert checked >= 40


def test_v4_team_policy_in_a_dabb_game_uses_public_information_only():
    """kreuz-48 (R6 duties, 11 cards, the bidder knows its discard): replacing what the
    deciding seat cannot see (the other hands, and the discard unless it is the bidder)
    by other cards consistent with the plays changes no decision."""
    from analyzer.mechanics.rules import get_rules

    tk = team_kernel(get_rules("kreuz-48"))
    rng = np.random.default_rng(9)
    deck = np.repeat(np.arange(24, dtype=np.uint8), 2)
    st_ = chunk_state(77, 0)
    cnt5 = np.zeros((5, 24), dtype=np.uint8)
    checked = 0
    for i in range(12):
        deal_counts(st_, deck, cnt5, 11)
        hands = cnt5[:4].copy()
        discard = cnt5[4].copy()          # stands in for the bidder's discard
        trump, bidder = i % 4, (i + 1) % 4

        def run(h, d, forced=()):
            log = np.zeros((11, L_COLS), dtype=np.int64)
            z2 = np.zeros(2, dtype=np.int64)
            f = np.asarray(forced, dtype=np.int64)
            play_deal_partners_logged(h, trump, 0, bidder, np.full(4, POLICY_HEURISTIC, dtype=np.int64),
                             chunk_state(i, 1), tk, d, z2, z2.copy(), z2.copy(), log, f, len(f))
            return log

        log = run(hands, discard)
        plays = [(int(log[t, L_LEADER] + k) % 4, int(log[t, L_CARD0 + k]), t, k)
                 for t in range(11) for k in range(4)]
        for move in range(3, 44, 5):
            seat = plays[move][0]
            remaining = [[int(x) for x in hands[p]] for p in range(4)]
            absent = [set() for _ in range(4)]
            trick_cards = []
            for (s, c, t, k) in plays[:move]:
                if k == 0:
                    trick_cards = []
                else:
                    led = trick_cards[0] // 6
                    top = trick_cards[ref.winner_index(trick_cards, trump)]
                    if c // 6 != led:
                        absent[s] |= {x for x in range(24) if x // 6 == led}
                        if c // 6 != trump:
                            absent[s] |= {x for x in range(24) if x // 6 == trump}
                        elif top // 6 == trump and not ref.beats(c, top, trump):
                            absent[s] |= {x for x in range(24) if x // 6 == trump and x % 6 < top % 6}
                    elif top // 6 == led and not ref.beats(c, top, trump):
                        absent[s] |= {x for x in range(24) if x // 6 == led and x % 6 < top % 6}
                trick_cards.append(c)
                remaining[s][c] -= 1
            others = [p for p in range(4) if p != seat]
            pool = [t for p in others for t in range(24) for _ in range(remaining[p][t])]
            hide_discard = seat != bidder
            if hide_discard:
                pool += [t for t in range(24) for _ in range(int(discard[t]))]
            for _ in range(300):
                rng.shuffle(pool)
                new, pos, ok = {}, 0, True
                for p in others:
                    n = sum(remaining[p])
                    part = pool[pos:pos + n]
                    pos += n
                    if any(t in absent[p] for t in part):
                        ok = False
                        break
                    new[p] = part
                if ok:
                    break
            else:
                continue
            alt = hands.copy()
            for p in others:
                played_p = [c for (s, c, *_r) in plays[:move] if s == p]
                alt[p, :] = np.bincount(np.array(new[p] + played_p, dtype=np.int64), minlength=24)
            d2 = (np.bincount(np.array(pool[pos:], dtype=np.int64), minlength=24).astype(np.uint8)
                  if hide_discard else discard)
            log2 = run(alt, d2, [c for (_s, c, *_r) in plays[:move]])
            t, k = plays[move][2], plays[move][3]
            assert log2[t, L_CARD0 + k] == log[t, L_CARD0 + k], (i, move)
            checked += 1
    assert checked >= 40
