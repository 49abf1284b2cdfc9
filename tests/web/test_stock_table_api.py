"""The table for two's JSON API (issue 26, V7): the deal replayed from seed + moves, the
program's replies, what you may see, the 400s (one line citing V7.x), and hints computed
from your view only (two deals you cannot tell apart give the same hint)."""
from __future__ import annotations

import random

import numpy as np
import pytest
from starlette.testclient import TestClient

from analyzer.mechanics import stock_play as sp
from analyzer.mechanics.ruleset import get_game
from analyzer.mechanics.stock_deal import StockDeal
from analyzer.search.stock_policies import Heuristic
from web import stock_table as T
from web.app import CSP, create_app

GAME = get_game("binokel-2")


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(warm=False), base_url="http://127.0.0.1") as c:
        yield c


def post(client, op, **body):
    r = client.post(f"/api/table/{op}", json=body)
    return r.status_code, r.json()


def bad(client, op, *frags, **body):
    code, out = post(client, op, **body)
    assert code == 400, out
    assert "\n" not in out["error"]
    for f in frags:
        assert f in out["error"], out["error"]
    return out["error"]


def test_a_new_deal_shows_twelve_cards_the_turned_trump_and_a_full_stock(client):
    """V7.1: 12 cards each, the next turned (its suit trump), 23 + the turned in the stock."""
    code, v = post(client, "new", seed=5, seat="forehand")
    assert code == 200, v
    deal = StockDeal.from_seed(GAME, 5)
    assert [h["card"] for h in v["hand"]] == sorted(deal.hand(0), key=lambda c: T._sort_key(deal, c))
    assert v["stock"] == 24 and v["turned"]["card"] == deal.turned and v["turned"]["where"] == "stock"
    assert v["trump"] == "CSHD"[deal.trump] and v["to_act"] == "you" and v["phase"] == "play"
    assert v["opponent"]["count"] == 12 and v["opponent"]["known"] == []
    # no duty while the stock lasts (V7.2): every card may lead
    assert all(h["token"] for h in v["hand"]) and v["moves"] == ""
    code, v2 = post(client, "new", seat="forehand")      # no seed: the server picks one and shows it
    assert code == 200 and isinstance(v2["seed"], int) and v2["query"]["seed"] == v2["seed"]


def test_the_program_leads_when_you_deal_and_the_same_request_gives_the_same_moves(client):
    """V7.2: forehand leads the first trick; the program's choice is seeded by the table."""
    _, v = post(client, "new", seed=9, seat="dealer", policy="heuristic")
    assert v["seat"] == 1 and len(v["table"]) == 1 and v["table"][0]["seat"] == 0
    assert v["moves"].count(".") == 0 and v["moves"].startswith("p")
    tok = next(h["token"] for h in v["hand"] if h["token"])
    a = post(client, "act", **v["query"], action=tok)[1]
    b = post(client, "act", **v["query"], action=tok)[1]
    assert a["moves"] == b["moves"] and a["moves"].startswith(v["moves"] + "." + tok)
    # the state endpoint replays the address: the same table
    again = post(client, "state", **a["query"])[1]
    assert again == a


def _heuristic_moves(seed, me, until):
    """Tokens of a deal played by the heuristic for both seats until ``until(deal)`` holds
    at one of ``me``'s decisions (what a client would have sent)."""
    deal = StockDeal.from_seed(GAME, seed)
    h, rng, moves = Heuristic(GAME), random.Random(seed), []
    while not deal.over():
        if deal.to_act() == me and until(deal):
            return deal, moves
        a = h(deal, rng)
        deal.apply(a)
        moves.append(T.token(a))
    raise AssertionError("never reached")


def test_bad_input_is_one_line_400_citing_the_rule(client):
    _, v = post(client, "new", seed=5)
    held = {h["card"] for h in v["hand"]}
    foreign = next(c for c in range(48) if c not in held)
    bad(client, "act", "V7.2", "does not hold", seed=5, action=f"p{foreign}")
    bad(client, "act", "V7.2", "program's turn", seed=5, seat="dealer", action="p0")
    bad(client, "act", "V7.3", seed=5, action="x")                 # no trick won yet
    bad(client, "act", "V7.5", "claim below 1000", seed=5, action="c")
    bad(client, "state", "V7.5", "claim below 1000", seed=5, moves="c")
    bad(client, "state", "moves[1]", "no action", seed=5, moves="p1.zz")
    bad(client, "state", "at most 64", seed=5, moves=".".join(["x"] * 65))
    bad(client, "state", "seed", "at least 0", seed=-1)
    bad(client, "state", "seed", "at most", seed=2**53)
    bad(client, "state", "seed", "whole number", seed="7")
    bad(client, "state", "seed: missing", moves="p1")
    bad(client, "state", "rules", "V7.1", seed=1, rules="binokel-48")
    bad(client, "state", "seat", seed=1, seat="middlehand")
    bad(client, "state", "policy", seed=1, policy="oracle")
    bad(client, "state", "before", "at most 999", seed=1, before="1000,0")
    bad(client, "hint", "worlds", "at most 64", seed=1, worlds=65)
    bad(client, "state", "unknown parameter 'hand'", seed=1, hand="AS")
    r = client.get("/api/table/state?seed=1&seed=2")
    assert r.status_code == 400 and "twice" in r.json()["error"]
    # after the stock: follow suit, else trump (V7.4)
    deal, moves = _heuristic_moves(3, 1, lambda d: d.stock_left() == 0 and d.st[sp.TABLE] >= 0
                                   and len(d.legal_plays()) < len(d.hand(1)))
    legal = set(int(c) for c in T.cards_of(int(sp.legal_plays(deal.st, deal.r.params, deal.r.beat))))
    wrong = next(c for c in deal.hand(1) if c not in legal)
    err = bad(client, "act", "V7.4", "follow suit", seed=3, seat="dealer", moves=".".join(moves),
              action=f"p{wrong}")
    assert err.startswith("action:")
    # the page offers exactly the legal cards
    _, v = post(client, "state", seed=3, seat="dealer", moves=".".join(moves))
    assert {h["card"] for h in v["hand"] if h["token"]} == legal


def test_melds_are_offered_after_a_won_trick_and_a_claim_at_1000_wins(client):
    """V7.3: the winner of a trick may show one meld or pass; V7.5: a claim at 1000 wins."""
    deal, moves = _heuristic_moves(5, 0, lambda d: d.st[sp.TO_MELD] == 0 and d.legal_melds())
    _, v = post(client, "state", seed=5, moves=".".join(moves))
    assert v["phase"] == "meld" and not any(h["token"] for h in v["hand"])
    kinds = [a["kind"] for a in v["actions"]]
    assert kinds.count("meld") == len(deal.legal_melds()) and kinds[-1] == "pass"
    meld = v["actions"][0]
    _, after = post(client, "act", **v["query"], action=meld["token"])
    shown = [t["meld"] for t in after["log"] if t["meld"] and t["meld"]["seat"] == 0]
    assert shown and shown[-1]["value"] == int(meld["label"].split(":")[0].split()[-1])
    assert after["scores"][0]["melds"] >= shown[-1]["value"]
    # a claim: 990 before the deal, the first points reach 1000 (V7.5)
    _, v = post(client, "new", seed=5, before="990,0")
    for _ in range(60):
        claims = [a for a in v["actions"] if a["kind"] == "claim"]
        if claims or v["result"]:
            break
        tok = next((a["token"] for a in v["actions"] if a["kind"] != "claim"), None) or \
            next(h["token"] for h in v["hand"] if h["token"])
        code, v = post(client, "act", **v["query"], action=tok)
        assert code == 200, v
    assert claims, "no claim offered at 1000"
    _, end = post(client, "act", **v["query"], action="c")
    assert end["phase"] == "over" and end["result"]["winner"] == 0 and "claimed" in end["result"]["text"]
    assert end["result"]["game"][0] >= 1000


def _replayed(v):
    deal = StockDeal.from_seed(GAME, v["seed"])
    for tok in v["moves"].split(".") if v["moves"] else []:
        deal.apply(T.action_of(tok))
    return deal


def test_you_never_see_the_hidden_cards(client):
    """V7.2: the opponent's hand and draws stay face down while the stock lasts (its shown
    cards and the turned trump excepted); once the stock is gone every card is known (V7.4)."""
    _, v = post(client, "new", seed=21)
    while True:
        deal = _replayed(v)
        opp = deal.hand(1)
        known = [c["card"] for c in v["opponent"]["known"]]
        if v["stock"]:
            assert set(known) == {c for c in opp if deal.shown(c) or c == deal.turned}
        else:
            assert sorted(known) == sorted(opp)
        draws = [e for e in deal.log if e[0] == "draw"]
        shown = [d for t in v["log"] for d in t["draws"]]
        assert [d["seat"] for d in shown] == [e[1] for e in draws]
        for d, e in zip(shown, draws):
            hidden = e[1] == 1 and e[2] != deal.turned
            assert (d["card"] is None) == hidden
        if v["phase"] == "over":
            break
        tok = next((a["token"] for a in v["actions"] if a["kind"] == "pass"), None) or \
            next(h["token"] for h in v["hand"] if h["token"])
        v = post(client, "act", **v["query"], action=tok)[1]
    assert v["result"]["points"] == [deal.points(0), deal.points(1)]
    assert sum(s["cards"] for s in v["scores"]) == 250          # V7.4: card points + last trick


def _swapped(seed):
    """Two deals equal but for one of the dealer's cards and one deep stock card swapped:
    forehand cannot tell them apart at its first decision."""
    from analyzer.mechanics.rng import chunk_state

    order = sp.shuffled_order(chunk_state(seed, 0)).copy()
    other = order.copy()
    other[12], other[25 + 20] = order[25 + 20], order[12]      # dealer's first card <-> stock card 21
    return StockDeal.from_order(GAME, order), StockDeal.from_order(GAME, other)


def test_a_hint_uses_only_what_you_see(client):
    """Decisions use only what the player could know: the hint is computed from the deal
    stripped to your view; swapping a hidden card of the opponent with a face-down stock
    card changes the deal, not the view, not the hint."""
    a, b = _swapped(13)
    assert a.hand(1) != b.hand(1)
    va, vb = T.view_deal(a, 0), T.view_deal(b, 0)
    assert np.array_equal(va.st, vb.st) and va.log == vb.log
    table = T.Table(T.parse_request({"seed": 13, "seat": "forehand"}), need_seed=True)
    ha = T.hint(table, a, [], 3)
    hb = T.hint(table, b, [], 3)
    assert ha == hb and not ha["exact"]
    assert len(ha["actions"]) == len(a.legal_plays())
    assert all(r["n"] == 3 and r["se"] is not None for r in ha["actions"])
    # after a trick in which neither swapped card moved, still the same view and hint
    lead = next(c for c in a.hand(0))
    reply = next(c for c in a.hand(1) if c in b.hand(1))
    for d in (a, b):
        d.apply(("play", lead))
        d.apply(("play", reply))
        assert d.winner() < 0 and d.st[sp.TO_MELD] == 0      # forehand won (seed 13): it passes
        d.apply(("pass",))
    assert a.to_act() == 0 and not np.array_equal(a.st, b.st)
    assert np.array_equal(T.view_deal(a, 0).st, T.view_deal(b, 0).st)
    assert T.hint(table, a, ["p"] * 3, 2) == T.hint(table, b, ["p"] * 3, 2)


def test_the_hint_api_gives_pimc_with_n_and_se_then_exact_values(client):
    code, h = post(client, "hint", seed=5, worlds=2)
    assert code == 200, h
    assert not h["exact"] and h["worlds"] == 2 and "PIMC" in h["method"]
    assert all(r["n"] == 2 and r["se"] is not None for r in h["actions"])
    assert sum(r["best"] for r in h["actions"]) >= 1
    deal, moves = _heuristic_moves(5, 0, lambda d: d.stock_left() == 0)
    code, h = post(client, "hint", seed=5, moves=".".join(moves))
    assert code == 200, h
    assert h["exact"] and "V7.4" in h["method"]
    vals = Heuristic(GAME).solver.card_values(deal)
    by_tok = {r["token"]: r["mean"] for r in h["actions"]}
    assert set(by_tok) == {f"p{c}" for c in vals}
    # the exact value is own minus opponent at the end: the best card is the solver's best
    best_tok = max(by_tok, key=by_tok.get)
    assert vals[int(best_tok[1:])] == max(vals.values())


def test_the_page_is_served_with_its_policy_and_the_info_names_the_stock_games(client):
    r = client.get("/table")
    assert r.status_code == 200 and r.headers["content-security-policy"] == CSP
    assert "table2.js" in r.text
    info = client.get("/api/table/info").json()
    assert [g["name"] for g in info["games"]] == T.stock_games() and "binokel-2" in T.stock_games()
    assert "heuristic" in info["policies"] and "pimc" in info["policies"]
