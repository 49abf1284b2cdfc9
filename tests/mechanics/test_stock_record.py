"""The deal record of a game with a stock (binokel-2, docs/VARIANTS.md V7; issue 27):
written by ``play --record``, read back and written again byte for byte, hidden views,
and one-line errors naming the line and the rule (V7.1-V7.5)."""
from __future__ import annotations

import pytest

from analyzer.mechanics.record import RecordError, format_records, hide, parse_records
from analyzer.mechanics.ruleset import get_game
from analyzer.mechanics.stock_record import StockRecord, replay
from analyzer.search.stock_registry import play_deal, record_deal

G = get_game("binokel-2")


@pytest.fixture(scope="module")
def records():
    """Simulated deals: random play (melds, passes, claims at random) and the heuristic."""
    out = [record_deal(G, s, ("random", "random")) for s in range(180)]
    out += [record_deal(G, s, ("heuristic", "heuristic")) for s in range(8)]
    out += [record_deal(G, s, ("heuristic", "random"), before=(900, 850)) for s in range(8)]
    return out


@pytest.fixture(scope="module")
def text(records):
    return format_records(records)


def test_simulated_deals_round_trip_byte_for_byte_V7(records, text):
    back = parse_records(text)
    assert back == records
    assert format_records(back) == text


def test_the_record_holds_the_deal_played_V7_4(records):
    for s in range(6):
        rec = record_deal(G, s, ("random", "random"))
        d = play_deal(G, s, ("random", "random"))
        assert rec.points == (d.points(0), d.points(1))
        assert rec.claim == (next((e[1] for e in d.log if e[0] == "claim"), None))
        assert _public(replay(rec)) == _public(d)


def _public(deal):
    """A deal's state with each physical card read as its type (the record's cards are
    types: of two copies it cannot say which was dealt where, V7.1)."""
    from analyzer.mechanics import stock_play as sp

    st = deal.st
    scal = [int(st[i]) for i in range(sp.SHOWN) if i not in (sp.H0, sp.H1, sp.TURNED,
                                                              sp.DISSLE_DONE, sp.TABLE)]
    return (scal, sorted(c // 2 for c in deal.hand(0)), sorted(c // 2 for c in deal.hand(1)),
            deal.turned // 2, int(st[sp.TABLE]) // 2,
            [int(c) // 2 for c in st[sp.STOCK:sp.STOCK + int(st[sp.SSIZE])]])


def test_melds_claims_and_shown_cards_occur_in_the_sample_V7_3_V7_5(records, text):
    """The sample exercises what the format adds: melds, a card played from the shown
    cards (its kinds written), claims from a game score before the deal."""
    assert "Meld 0 -" in text or "Meld 1 -" in text
    assert any(m[0] == "meld" for r in records for m in r.moves)
    assert any(k for r in records for m in r.moves if m[0] == "trick" for _, k in m[2])
    assert any(r.claim is not None for r in records)
    assert "Before 900 850" in text and "Claim" in text


def test_a_players_view_reads_back_and_replays_to_the_same_points_V7_2(records):
    for rec in records[:40]:
        for seat in (0, 1):
            v = hide(rec, seat)
            assert v.hands[1 - seat] is None and v.stock is None
            t = format_records([v])
            assert "Draw" in t and f"Hand {1 - seat} ?" in t and "Stock ?" in t
            (back,) = parse_records(t)
            assert format_records([back]) == t
            assert replay(back).points(0) == rec.points[0]


def _lines(text):
    return text.splitlines()


def _edit(text, start, new):
    """``text`` with the first line starting with ``start`` replaced by ``new``."""
    lines = _lines(text)
    i = next(i for i, x in enumerate(lines) if x.startswith(start))
    lines[i] = new
    return "\n".join(lines) + "\n", i + 1


def _one_line_error(text, *frags):
    with pytest.raises(RecordError) as err:
        parse_records(text)
    msg = str(err.value)
    assert "\n" not in msg
    for f in frags:
        assert f in msg, msg
    return msg


@pytest.fixture(scope="module")
def one():
    rec = record_deal(G, 3, ("heuristic", "heuristic"))
    return rec, format_records([rec])


def test_card_counts_are_checked_V7_1(one):
    _, t = one
    lines = _lines(t)
    hand = next(x for x in lines if x.startswith("Hand 0"))
    bad, n = _edit(t, "Hand 0", hand.rsplit(" ", 1)[0])
    _one_line_error(bad, f"line {n}", "11 cards", "V7.1")
    stock = next(x for x in lines if x.startswith("Stock"))
    bad, n = _edit(t, "Stock", stock.rsplit(" ", 1)[0])
    _one_line_error(bad, f"line {n}", "22 cards", "V7.1")
    bad, n = _edit(t, "Turned", "Turned " + hand.split()[2])    # a third copy of a card
    _one_line_error(bad, "copies", "V7.1")


def test_a_meld_shown_by_the_loser_is_refused_V7_3(one):
    rec, t = one
    lines = _lines(t)
    i = next(i for i, x in enumerate(lines) if x.startswith("Meld"))
    seat = int(lines[i].split()[1])
    lines[i] = f"Meld {1 - seat} -"
    _one_line_error("\n".join(lines) + "\n", f"line {i + 1}", "only the winner", "V7.3")


def test_two_melds_after_one_trick_are_refused_V7_3(one):
    _, t = one
    lines = _lines(t)
    i = next(i for i, x in enumerate(lines) if x.startswith("Meld"))
    lines.insert(i + 1, lines[i])
    _one_line_error("\n".join(lines) + "\n", f"line {i + 2}", "one meld per won trick", "V7.3")


def test_a_meld_not_in_hand_is_refused_V7_3(one):
    rec, t = one
    lines = _lines(t)
    i = next(i for i, x in enumerate(lines) if x.startswith("Meld") and ":" in x)
    seat = lines[i].split()[1]
    lines[i] = f"Meld {seat} eight A 1000: AC AC AS AS AH AH AD AD"
    _one_line_error("\n".join(lines) + "\n", f"line {i + 1}", "may not show", "V7.3")


def test_a_meld_after_the_stock_is_refused_V7_3(one):
    _, t = one
    lines = _lines(t)
    i = next(i for i, x in enumerate(lines) if x.startswith("Trick 14 "))
    lines.insert(i, "Meld 0 -")
    _one_line_error("\n".join(lines) + "\n", f"line {i + 1}", "V7.3")


def _not_following(rec):
    """(trick number, a card the second player holds that breaks V7.4) or None."""
    from analyzer.mechanics import stock_play as sp
    from analyzer.mechanics.stock_record import replay as rp

    state = {}

    def note(deal, a, mi):
        if state or a[0] != "play" or deal.stock_left() or deal.st[sp.TABLE] < 0:
            return
        legal = {c // 2 for c in deal.legal_plays()}
        other = [c for c in deal.hand(deal.to_act()) if c // 2 not in legal]
        if other:
            state["x"] = (int(deal.st[sp.TRICKS]) + 1, other[0] // 2)

    rp(rec, on_decision=note)
    return state.get("x")


def test_not_following_after_the_stock_is_refused_V7_4(records):
    from analyzer.mechanics.cards import card_code

    for rec in records:
        hit = _not_following(rec)
        if hit and not rec.claim:
            break
    k, t = hit
    text = format_records([rec])
    lines = _lines(text)
    i = next(i for i, x in enumerate(lines) if x.startswith(f"Trick {k} "))
    parts = lines[i].split()
    parts[-1] = card_code(t, "7")
    lines[i] = " ".join(parts)
    _one_line_error("\n".join(lines) + "\n", f"line {i + 1}", "V7.4")


def test_a_claim_below_1000_is_refused_V7_5(one):
    _, t = one
    last = next(x for x in _lines(t) if x.startswith("Trick 24 "))
    lines = [x for x in _lines(t) if not x.startswith(("Trick 24 ", "Points"))]
    lines.append(f"Claim {last.split()[2]}")      # the leader of the last trick, at its turn
    _one_line_error("\n".join(lines) + "\n", f"line {len(lines)}", "below", "V7.5")


def test_wrong_points_and_wrong_leader_are_refused_V7_2_V7_4(one):
    rec, t = one
    bad, n = _edit(t, "Points", f"Points {rec.points[0] + 1} {rec.points[1]}")
    _one_line_error(bad, f"line {n}", "V7.4")
    lines = _lines(t)
    i = next(i for i, x in enumerate(lines) if x.startswith("Trick 1 "))
    lines[i] = lines[i].replace("Trick 1 0", "Trick 1 1")
    _one_line_error("\n".join(lines) + "\n", f"line {i + 1}", "forehand leads", "V7.2")


def test_a_bad_deal_among_good_ones_reads_nothing(records):
    good = format_records(records[:3])
    bad = good + "\nGame binokel-2\nHand 0 ?\n"
    _one_line_error(bad, "line", "Hand")


def test_a_hidden_view_may_stop_mid_deal_and_a_partial_record_replays(one):
    rec, _ = one
    cut = StockRecord(rules=rec.rules, seats=rec.seats, hands=rec.hands, turned=rec.turned,
                      stock=rec.stock, moves=rec.moves[:5])
    t = format_records([hide(cut, 0)])
    (back,) = parse_records(t)
    assert not back.complete() and back.points is None
    d = replay(back)
    assert not d.over() and d.to_act() in (0, 1)


def test_a_hidden_seat_cannot_play_more_unseen_cards_than_it_held_V7_1(one):
    """A hidden hand plays a card whose both copies the record placed elsewhere."""
    rec, _ = one
    v = format_records([hide(rec, 0)])
    lines = _lines(v)
    own = next(x for x in lines if x.startswith("Hand 0")).split()[2:]
    i = next(i for i, x in enumerate(lines) if x.startswith("Trick 1 "))
    parts = lines[i].split()
    parts[-1] = next(c for c in own if own.count(c) == 2)     # both copies in seat 0's hand
    lines[i] = " ".join(parts)
    del lines[i + 1:]
    _one_line_error("\n".join(lines) + "\n", f"line {i + 1}", "both copies", "V7.1")


def test_a_view_of_a_view_hides_the_other_seats_draws_V7_2(one):
    """A record that shows both players' draws with the stock hidden, seen by one seat:
    the other's draws go hidden, the turned card (seen by both) stays."""
    rec, _ = one
    v0 = hide(rec, 0)
    both = StockRecord(rules=rec.rules, seats=rec.seats, hands=rec.hands, turned=rec.turned,
                       stock=None, moves=tuple(
                           ("draw", tuple((s, u if t is None else t)
                                          for (s, t), (_, u) in zip(m[1], n[1])))
                           if m[0] == "draw" else m
                           for m, n in zip(v0.moves, hide(rec, 1).moves)))
    assert all(t is not None for m in both.moves if m[0] == "draw" for _, t in m[1])
    assert format_records([both]) != format_records([v0])
    assert hide(both, 0).moves == v0.moves
