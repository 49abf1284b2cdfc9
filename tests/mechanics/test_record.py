"""The deal record format (issue 27; docs/guide/records.md): round trips on played deals
of every game, one-line errors naming the line and the rule for bad records (R1-R8,
V1-V6), hidden hands."""
from __future__ import annotations

import pytest

from analyzer.mechanics.record import (RecordError, format_records, hide, parse_records)
from analyzer.search.record_play import play_record
from analyzer.mechanics.ruleset import GAMES

# binokel play --seed 3 --soloist 1 --trump H (R1-R8)
B48 = """\
# binokel play --seed 3 --soloist 1 --trump H
Game binokel-48
Seats forehand middlehand rearhand
Dealer rearhand
Hand 0 AC 10C KC QC JC 10S 10S QS 9S 10H QH 9H AD QD JD
Hand 1 AC 9C AS QS JS JS 9S AH 10H KH KH JH 9H 10D 9D
Hand 2 10C KC QC JC 9C AS KS AH QH JH AD 10D KD QD 9D
Dabb KS KD JD
Soloist 1
Bid 150
Discard KS KD JD
Contract H
Melds 210 10 40
Trick 1 0 AC 9C 10C
Trick 2 0 AD 9D KD
Trick 3 0 9S AS KS
Trick 4 1 AH JH 9H
Trick 5 1 9H QH 10H
Trick 6 0 JC AC 9C
Trick 7 1 JH AH QH
Trick 8 2 AS QS 9S
Trick 9 2 AD QD 10D
Trick 10 2 10D JD 10H
Trick 11 1 JS 9D 10S
Trick 12 0 10C KH JC
Trick 13 1 JS QC 10S
Trick 14 0 QC KH KC
Trick 15 1 QS QD KC
Points 76 120 54
Won 5 7 3
Score 286 -300 94
"""

# binokel play --seed 3 --soloist 1 --trump H --rules binokel-40, first tricks (V5)
B40 = """\
Game binokel-40
Seats forehand middlehand rearhand
Dealer rearhand
Hand 0 AC KC QC JC 10S JS AH KH QH JH 10D KD
Hand 1 10C KC QC JC 10S QS QS JS 10H QH KD JD
Hand 2 AC 10C AS AS KS AH 10H KH AD AD QD JD
Dabb KS JH 10D QD
Soloist 1
Bid 150
Discard KS JH 10D QD
Contract H
Trick 1 0 AC JC 10C
Trick 2 0 KC 10C AC
"""

# binokel play --seed 3 --soloist 1 --trump H --rules pinochle-80, first trick (V6)
P80 = """\
Game pinochle-80
Seats first second third dealer
Dealer dealer
Hand 0 QC QC JC AS 10S 10S KS KS QS QS JS 10H KH KH QH AD AD KD JD JD
Hand 1 AC 10C KC KC JC AS AS JS AH 10H 10H KH JH JH JH AD KD KD QD QD
Hand 2 AC AC 10C KC QC JC AS 10S KS KS QS JS AH AH AH KH QH AD 10D JD
Hand 3 AC 10C 10C KC QC JC 10S QS JS 10H QH QH JH 10D 10D 10D KD QD QD JD
Soloist 1
Bid 500
Contract H
Trick 1 1 AH QH 10H QH
"""

# one player's view: every hand hidden (what a kibitzer wrote down)
HIDDEN = """\
Game binokel-48
Seats Anna Bert Carl
Dealer Carl
Hand Anna ?
Hand Bert ?
Hand Carl ?
Dabb ?
Soloist Anna
Contract H
Trick 1 Anna AC 9H 10C
Trick 2 Bert KS AS 9S
"""

DURCH = """\
Game binokel-48
Seats forehand middlehand rearhand
Dealer rearhand
Hand 0 ?
Hand 1 ?
Hand 2 ?
Dabb ?
Soloist 0
Contract durch
Trick 1 0 AC 9C 10C
Trick 2 0 AS 9S AS
"""


def _edit(text: str, line: int, new: str) -> str:
    """``text`` with ``new``'s lines written over its lines from ``line`` on."""
    lines = text.splitlines()
    k = new.count("\n") + 1
    lines[line - 1:line - 1 + k] = new.split("\n")
    return "\n".join(lines) + "\n"


BAD = [
    # (case, record, line, replacement, expected message)
    ("hand size R2", B48, 5, "Hand 0 AC 10C KC QC JC 10S 10S QS 9S 10H QH 9H AD QD",
     "line 5: Hand: seat 0 holds 14 cards; binokel-48 deals 15 (R2)"),
    ("more copies than the deck R1", B48, 5,
     "Hand 0 AC 10C KC QC JC 10S 10S QS 9S 10H QH 9H AD QD AC",
     "line 6: Hand: 3 copies of AC dealt; the deck has 2 (R1)"),
    ("a seven in a deck of nines V1", B48, 5,
     "Hand 0 AC 10C KC QC JC 10S 10S QS 7S 10H QH 9H AD QD JD",
     "line 5: Hand: '7S' is no card in binokel-48: its deck has nines, not sevens (V1)"),
    ("Dabb size R2", B48, 8, "Dabb KS KD",
     "line 8: Dabb: 2 cards; the Dabb of binokel-48 holds 3 (R2)"),
    ("discard from neither hand nor Dabb R4", B48, 11, "Discard KS KD QC",
     "line 11: Discard: QC is neither in the soloist's hand nor in the Dabb (R4)"),
    ("the auction makes the soloist R3", B48, 9,
     "Auction 0:150 1:160 0:pass 2:170 1:pass\nSoloist 1",
     "line 9: Auction: the auction makes seat 2 the soloist, not seat 1 (R3)"),
    ("a raise of exactly one step R3", B48, 9, "Auction 0:150 1:150 0:pass 2:pass\nSoloist 1",
     "line 9: Auction: illegal auction: call 2 by middlehand must be pass or 160: holding at "
     "150 is not allowed in binokel-48 (R3)"),
    ("the duels fix who calls R3", B48, 9, "Auction 0:150 2:160 0:pass 1:pass\nSoloist 1",
     "line 9: Auction: call 2 is seat 1's turn, not seat 2's (R3)"),
    ("bid off the steps R3", B48, 10, "Bid 155",
     "line 10: Bid: 155 is no bid of binokel-48 (150, 160, ... R3)"),
    ("illegal card under the duties R6", B48, 14, "Trick 1 0 AC AS 10C",
     "line 14: Trick 1: seat 1 may not play AS: the duties (R6) allow AC 9C"),
    ("a card played twice", B48, 15, "Trick 2 0 AC 9D KD",
     "line 15: Trick 2: seat 0 plays AC, which it does not hold (or played already)"),
    ("the winner leads R6", B48, 16, "Trick 3 1 9S AS KS",
     "line 16: Trick 3: seat 1 leads, but seat 0 must: the winner of the last trick leads (R6)"),
    ("forehand leads first R6", B48, 14, "Trick 1 1 9C 10C AC",
     "line 14: Trick 1: seat 1 leads, but seat 0 must: forehand leads the first trick (R6)"),
    ("tricks in order", B48, 15, "Trick 3 0 AD 9D KD",
     "line 15: Trick: trick 3 where trick 2 comes next (tricks in order)"),
    ("a short trick mid-deal R6", B48, 14, "Trick 1 0 AC 9C",
     "line 14: Trick 1: 2 cards; every seat in play adds one, 3 (R6)"),
    ("card points R7", B48, 29, "Points 76 120 55",
     "line 29: Points: 76 120 55, but the tricks give 76 120 54 (R7)"),
    ("tricks won R6", B48, 30, "Won 5 6 4",
     "line 30: Won: 5 6 4, but the tricks give 5 7 3 (R6)"),
    ("the score R8", B48, 31, "Score 286 -300 95",
     "line 31: Score: 286 -300 95, but the deal scores 286 -300 94 (R8)"),
    ("values per scoring unit R8", B48, 31, "Score 286 -300",
     "line 31: Score: 2 values for the 3 seats in play of binokel-48 (one per scoring unit, R8)"),
    ("going out plays no card R4", B48, 12, "Contract out",
     "line 14: Trick: the soloist went out, so no card is played (R4)"),
    ("unknown tag", B48, 13, "Meld 210 10 40",
     "line 13: unknown tag 'Meld': use one of Game, Source, Seats"),
    ("a second line of a tag", B48, 13, "Contract S",
     "line 13: a second Contract line (the first is line 12)"),
    ("tags out of order", B48, 9, "Melds 210 10 40",
     "line 10: Bid comes before Melds"),
    ("dealer is the last seat R2", B48, 4, "Dealer forehand",
     "line 4: Dealer: seats are numbered from the dealer's left, so the dealer is the last "
     "seat, rearhand (R2)"),
    ("seat count R2", B48, 3, "Seats a b",
     "line 3: Seats: 2 names for the 3 seats of binokel-48 (R2)"),
    ("unknown game", B48, 2, "Game skat",
     "line 2: Game: unknown rules 'skat': use one of binokel-48"),
    ("no Durch in the 40-card game V5.7", B40, 11, "Contract durch",
     "line 11: Contract: binokel-40 has no Durch (V1, V5 drop R4's Durch)"),
    ("beat the led suit even when trumped V5.6", B40, 13, "Trick 2 0 KC QC AC",
     "line 13: Trick 2: seat 1 may not play QC: the duties (V5.6) allow 10C"),
    ("highest trump on a trump lead V6.4", P80, 11, "Trick 1 1 AH AC 10H QH",
     "line 11: Trick 1: seat 2 may not play AC: the duties (V6.4) allow"),
    ("the high bidder leads V6.2", P80, 11, "Trick 1 0 AD AD 10D JD",
     "line 11: Trick 1: seat 0 leads, but seat 1 must: the high bidder leads the first "
     "trick (V6.2)"),
    ("hidden seat plays a suit it showed out of R6", HIDDEN, 11, "Trick 2 Bert QC AS 9S",
     "line 11: Trick 2: seat 1 plays QC, which its earlier play proved it does not hold (R6)"),
    ("hidden seat plays a third copy R1", HIDDEN, 10, "Trick 1 Anna AC 9H AC\nTrick 2 Bert KS AC 9S",
     "line 11: Trick 2: seat 2 plays AC, but all 2 copies of the deck are elsewhere "
     "(a card played twice, R1)"),
    ("Durch ends with the first lost trick R4", DURCH, 11, "Trick 2 0 KS AS 9S\nTrick 3 1 AH 9H 10H",
     "line 12: Trick 3: the Durch ended with trick 2, the first the soloist did not win (R4)"),
]


@pytest.mark.parametrize("case,text,line,new,expected", BAD, ids=[b[0] for b in BAD])
def test_bad_record_fails_in_one_line_naming_line_and_rule(case, text, line, new, expected):
    with pytest.raises(RecordError) as err:
        parse_records(_edit(text, line, new), where="deals.txt")
    msg = str(err.value)
    assert "\n" not in msg
    assert msg.startswith("deals.txt: " + expected), msg


def test_the_sample_records_are_valid():
    for text in (B48, B40, P80, HIDDEN, DURCH):
        assert len(parse_records(text)) == 1


def test_a_bad_deal_anywhere_rejects_the_whole_file():
    bad = _edit(B48, 10, "Bid 155")
    with pytest.raises(RecordError, match="line 42: Bid"):
        parse_records(B48 + "\n" + bad)


def test_a_hand_for_the_seat_that_sits_out_is_refused_V3():
    text = (B48.replace("binokel-48", "grupp-4").replace("rearhand\nDealer rearhand",
                                                          "rearhand dealer\nDealer dealer")
            .replace("9", "7").replace("Dabb KS", "Hand 3 ?\nDabb KS"))
    with pytest.raises(RecordError, match=r"line 8: Hand: seat 3 sits out each deal .*\(V3\)"):
        parse_records(text)


def test_round_trip_is_identical_and_keeps_comments():
    deals = parse_records(B48 + "\n" + B40)
    assert format_records(deals) == B48 + "\n" + B40
    assert deals[0].comments == ("binokel play --seed 3 --soloist 1 --trump H",)


def test_seats_are_read_by_name_and_written_by_number():
    deal = parse_records(HIDDEN)[0]
    assert deal.seats == ("Anna", "Bert", "Carl") and deal.soloist == 0
    text = format_records([deal])
    assert "Hand 0 ?" in text and "Trick 2 1 KS AS 9S" in text
    assert parse_records(text) == [deal]


def test_a_hidden_view_of_a_deal_is_a_valid_record():
    deal = parse_records(B48)[0]
    for seat in range(3):
        view = hide(deal, seat)
        back = parse_records(format_records([view]))[0]
        assert back == view
        assert [h is not None for h in back.hands] == [s == seat for s in range(3)]
        assert (back.discard is not None) == (seat == deal.soloist)   # laid away face down, R4


def _deals(game, n):
    r = GAMES[game]
    seats = [s for s in range(r.table.seats) if not r.kernel.sits_out[s]]
    out = []
    for i in range(n):
        soloist = None if i % 7 == 6 else seats[i % len(seats)]
        durch = soloist is not None and i % 5 == 4 and r.scoring.durch > 0
        out.append(play_record(game, seed=i, policy="random" if i % 2 else "heuristic",
                               soloist=soloist, trump=None if durch else i % 4, bid=None))
    return out


# the games record_play.play_record plays (an auction, a soloist); a game with a stock is
# recorded by stock_registry.record_deal (tests/mechanics/test_stock_record.py, V7)
RECORD_GAMES = [g for g, r in GAMES.items() if not r.stock.size]


@pytest.mark.parametrize("game", RECORD_GAMES)
def test_record_import_export_is_identical_on_1000_played_deals(game):
    deals = _deals(game, 1000)
    text = format_records(deals)
    back = parse_records(text)
    assert back == deals
    assert format_records(back) == text
    assert len(text.split("\n\n")) == 1000


def test_an_auction_reads_and_writes_back_R3():
    text = B48.replace("Soloist 1\nBid 150", "Auction 0:150 1:160 0:pass 2:pass\nSoloist 1\nBid 160"
                       ).replace("Score 286 -300 94", "Score 286 -320 94")
    (deal,) = parse_records(text)
    assert deal.auction == ((0, 150), (1, 160), (0, 0), (2, 0)) and deal.bid == 160
    assert format_records([deal]) == text
