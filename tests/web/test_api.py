"""The JSON API under /api: same dicts as ``--json``, and every bad input a one-line 4xx."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from click.testing import CliRunner

from analyzer.analyses.advice import advise_bid
from analyzer.analyses.analysis import analyze_hand
from analyzer.mechanics.melds import meld_report
from cli.main import cli
from web.params import DEFAULT_SAMPLES_PIMC, MAX_BODY_BYTES, MAX_SAMPLES, MAX_SAMPLES_PIMC, json_safe

STRONG = "AS AS 10S KS QS JS 9S KH QH AC AD 10D KD QD JD"
AVERAGE = "AS 10S KS 9S AH QH JH 9H KC QC 10C JD 9D QD 10D"
ROOT = Path(__file__).resolve().parents[2]


def q(text: str) -> str:
    return quote(text.replace(" ", ","), safe=",")


def as_json(obj):
    """What a JSON round trip of the library's dict gives (strict JSON: NaN -> null)."""
    return json.loads(json.dumps(json_safe(obj)))


def assert_error(resp, status):
    code, body, headers = resp
    assert code == status, body
    assert headers.get("content-type", "").startswith("application/json")
    assert set(body) == {"error", "status"} and body["status"] == status
    assert "\n" not in body["error"] and "Traceback" not in body["error"] and body["error"]
    return body["error"]


# ----------------------------------------------------------------- answers equal the library's


def test_advise_get_returns_the_dict_advise_json_prints(server):
    code, body, headers = server.get(f"/api/advise?hand={q(AVERAGE)}&seat=mh&auction=150&samples=300&seed=4")
    assert code == 200, body
    assert float(headers["X-Worker-CPU-Seconds"]) > 0
    lib = advise_bid(AVERAGE, seat="middlehand", auction="150", samples=300, seed=4).to_dict()
    assert body == as_json(lib)
    assert body["auction"] == [150] and body["samples"] >= 300


def test_advise_post_json_body_gives_the_same_answer_as_get(server):
    _, got, _ = server.get(f"/api/advise?hand={q(STRONG)}&samples=200&seed=2&scores=900,1200,400")
    code, posted, _ = server.request("POST", "/api/advise", {"hand": STRONG, "samples": 200, "seed": 2,
                                                             "scores": [900, 1200, 400]})
    assert code == 200 and posted == got
    assert got["objective"] == "win" and got["scores"] == [900, 1200, 400]


def test_advise_cli_json_and_api_agree_field_for_field(server):
    res = CliRunner().invoke(cli, ["advise", STRONG, "-n", "200", "--seed", "1", "--json"])
    assert res.exit_code == 0, res.output
    _, body, _ = server.get(f"/api/advise?hand={q(STRONG)}&samples=200&seed=1")
    assert body == as_json(json.loads(res.output))


def test_melds_endpoint_equals_melds_json(server):
    for trump, args in ((None, []), ("S", ["--trump", "S"])):
        res = CliRunner().invoke(cli, ["melds", STRONG, "--json", *args])
        assert res.exit_code == 0, res.output
        path = f"/api/melds?hand={q(STRONG)}" + (f"&trump={trump}" if trump else "")
        code, body, _ = server.get(path)
        assert code == 200 and body == json.loads(res.output) == meld_report(STRONG, trump)


@pytest.mark.parametrize("tapp", [None, "10S AH 9D"])
def test_analyze_endpoint_equals_analyze_hand_to_dict(server, tapp):
    path = f"/api/analyze?hand={q(STRONG)}&samples=256&seed=3&bid=200" + (f"&tapp={q(tapp)}" if tapp else "")
    code, body, _ = server.get(path)
    assert code == 200, body
    lib = analyze_hand(STRONG, tapp, "forehand", 256, 3, 1, score_bid=200).to_dict()
    assert body == as_json(lib)
    assert (body["recommendation"] is None) == (tapp is None)


def test_play_parameter_is_the_clis_play_option_with_its_own_sample_caps(server):
    # play= as --play (analyzer.search.pimc.play_contract): same library call, same dict
    code, body, _ = server.get(f"/api/analyze?hand={q(STRONG)}&tapp={q('10S AH 9D')}&samples=24&seed=3"
                               "&play=pimc-defence")
    assert code == 200, body
    lib = analyze_hand(STRONG, "10S AH 9D", "forehand", 24, 3, 1, play="pimc-defence").to_dict()
    assert body == as_json(lib) and body["play"] == "pimc-defence"
    code, body, _ = server.request("POST", "/api/advise", {"hand": STRONG, "samples": 12, "seed": 2,
                                                           "play": "PIMC"})
    assert code == 200, body
    assert body == as_json(advise_bid(STRONG, samples=12, seed=2, play="pimc").to_dict())
    assert body["play"] == "pimc"
    info = server.get("/api/info")[1]
    assert info["plays"] == ["heuristic", "pimc", "pimc-defence"]
    assert info["max_samples_pimc"] == MAX_SAMPLES_PIMC
    assert all(MAX_SAMPLES_PIMC[k] < MAX_SAMPLES[k] for k in MAX_SAMPLES)
    assert info["default_samples_pimc"] == DEFAULT_SAMPLES_PIMC


def test_rules_parameter_selects_the_variant_as_rules_does_on_the_cli(server):
    from analyzer.mechanics.rules import RULE_NAMES, get_rules

    grupp = STRONG.replace("9S", "7S")
    code, body, _ = server.get(f"/api/advise?hand={q(grupp)}&rules=grupp-3&samples=200&seed=2")
    assert code == 200, body
    lib = advise_bid(grupp, samples=200, seed=2, rules=get_rules("grupp-3")).to_dict()
    assert body == as_json(lib)
    code, body, _ = server.get(f"/api/melds?hand={q(grupp)}&rules=grupp-3")
    assert code == 200 and body == as_json(meld_report(grupp, rules=get_rules("grupp-3")))
    info = server.get("/api/info")[1]["rules"]
    assert [r["name"] for r in info] == list(RULE_NAMES)          # every game (issue 24)
    assert {"binokel-48", "grupp-3", "grupp-4", "binokel-40"} <= {r["name"] for r in info}
    assert {r["name"]: (r["low_card"], r["hand_size"], r["tapp_size"]) for r in info}["binokel-40"] == ("", 12, 4)
    assert server.get("/api/auction?rules=grupp-3")[1]["legal"] == ["pass", "150"]   # no forced opening
    assert server.get("/api/cards?text=9S,7S&rules=grupp-3")[0] == 400
    assert server.get("/api/cards?text=7S,AS&rules=grupp-3")[1]["cards"] == ["AS", "7S"]


KREUZ = "AS AS 10S KS QS JS AC AH AD 10C KH"
PIN = "AH 10H KH QH JH AH 10H KH QS JD AC AS 10C 10S 10D QC JC JS QD JH"


def test_partners_games_answer_with_their_seats_auction_form_and_the_team_analyses(server):
    """V1: the advice and analysis of a partners game are the CLI's team library calls."""
    from analyzer.analyses.analysis import analyze_team_hand
    from analyzer.mechanics.melds import class_meld_report
    from analyzer.mechanics.rules import get_rules

    kreuz, pin = get_rules("kreuz-48"), get_rules("pinochle-80")
    info = {r["name"]: r for r in server.get("/api/info")[1]["rules"]}
    k = info["kreuz-48"]
    assert [s["name"] for s in k["seats"]] == ["forehand", "middlehand", "rearhand", "dealer"]
    assert k["teams"] == [["forehand", "rearhand"], ["middlehand", "dealer"]]
    assert (k["copies"], k["hand_size"], k["tapp_size"], k["low_card"]) == (2, 11, 4, "7")
    p = info["pinochle-80"]
    assert (p["copies"], p["hand_size"], p["tapp_size"], p["auction_form"]) == (4, 20, 0, "open")
    assert p["seats"][1] == {"index": 1, "name": "second", "short": "2nd", "param": "1", "side": 1,
                             "partner": "dealer"}
    assert info["binokel-48"]["teams"] is None and info["binokel-48"]["seats"][2]["param"] == "rh"
    # duels (V1): raise exactly +10, the partner duels too; open bidding (V6.2): jumps
    a = server.get("/api/auction?auction=150,160&rules=kreuz-48")[1]
    assert (a["to_move"], a["legal"], a["jumps"]) == ("forehand", ["pass", "170"], False)
    a = server.get("/api/auction?auction=500,pass,550&rules=pinochle-80")[1]
    assert [c["seat"] for c in a["calls"]] == ["first", "second", "third"]
    assert (a["to_move"], a["legal"], a["jumps"]) == ("dealer", ["pass", "560"], True)
    code, body, _ = server.get(f"/api/advise?hand={q(KREUZ)}&rules=kreuz-48&seat=middlehand"
                               "&auction=150&samples=60&seed=3")
    assert code == 200, body
    lib = advise_bid(KREUZ, seat=1, auction="150", samples=60, seed=3, rules=kreuz).to_dict()
    assert body == as_json(lib) and body["seat"] == 1 and body["team"] == 1
    code, body, _ = server.get(f"/api/analyze?hand={q(KREUZ)}&rules=kreuz-48&seat=3&samples=40&bid=200")
    assert code == 200, body
    assert body == as_json(analyze_team_hand(KREUZ, kreuz, seat=3, samples=40, bid=200).to_dict())
    code, body, _ = server.get(f"/api/melds?hand={q(PIN)}&rules=pinochle-80")
    assert code == 200 and body == as_json(class_meld_report(PIN, None, pin))


def test_job_reports_progress_and_returns_the_same_result(server):
    code, view, _ = server.request("POST", "/api/jobs/advise", {"hand": STRONG, "samples": 1500, "seed": 9})
    assert code == 202 and view["state"] in ("queued", "running") and len(view["id"]) == 16
    done = server.wait_job(view["id"])
    assert done["state"] == "done" and done["done"] == done["total"] == 3      # 3 chunks of 500
    assert done["cpu_s"] > 0 and done["elapsed_s"] > 0
    _, direct, _ = server.get(f"/api/advise?hand={q(STRONG)}&samples=1500&seed=9")
    assert done["result"] == direct


def test_cancel_stops_a_long_job_and_the_server_answers_meanwhile(server):
    code, view, _ = server.request("POST", "/api/jobs/analyze",
                                   {"hand": AVERAGE, "samples": MAX_SAMPLES["analyze"], "seed": 1})
    assert code == 202
    # while it computes in its worker process, other requests are answered
    assert server.get("/api/info")[0] == 200
    assert server.get(f"/api/melds?hand={q(STRONG)}")[0] == 200
    assert server.get(f"/api/jobs/{view['id']}")[1]["state"] in ("queued", "running")
    code, cancelled, _ = server.request("DELETE", f"/api/jobs/{view['id']}")
    assert code == 200
    final = server.wait_job(view["id"], timeout=20)
    assert final["state"] == "cancelled" and "result" not in final
    assert_error(server.get(f"/api/jobs/{'0' * 16}"), 404)


def test_too_many_unfinished_jobs_are_refused_with_429(server):
    jobs = server.app.state.jobs
    old = jobs.max_jobs
    jobs.max_jobs = 1
    try:
        code, first, _ = server.request("POST", "/api/jobs/analyze", {"hand": AVERAGE, "samples": 50000})
        assert code == 202
        msg = assert_error(server.request("POST", "/api/jobs/advise", {"hand": STRONG}), 429)
        assert "too many" in msg
    finally:
        jobs.max_jobs = old
        server.request("DELETE", f"/api/jobs/{first['id']}")
    assert server.wait_job(first["id"], timeout=20)["state"] == "cancelled"


def test_cards_and_auction_helpers_use_the_library_parser_and_r3(server):
    code, body, _ = server.get("/api/cards?text=" + quote("Herz-Ober, schellen unter 10♠"))
    assert code == 200 and body["cards"] == ["10S", "QH", "JD"] and body["count"] == 3
    code, body, _ = server.get("/api/auction?auction=150,160")
    assert code == 200
    assert body["to_move"] == "forehand" and body["legal"] == ["pass", "170"] and not body["finished"]
    assert server.get("/api/auction")[1]["legal"] == ["150"]          # forehand must open (R3)
    done = server.get("/api/auction?auction=150,pass,pass")[1]
    assert done["finished"] and done["soloist"] == "forehand" and done["legal"] == []


def test_info_states_the_caps(server):
    code, body, _ = server.get("/api/info")
    assert code == 200 and body["max_samples"] == MAX_SAMPLES
    assert body["examples"]["strong_spades"]["hand"] == STRONG


def test_page_and_assets_are_served_from_the_package(server):
    code, html, headers = server.get("/")
    assert code == 200 and "Binokel advisor" in html
    assert "default-src 'self'" in headers["content-security-policy"]
    for asset in ("/static/app.js", "/static/style.css", "/static/vendor/chart.umd.min.js"):
        code, text, _ = server.get(asset)
        assert code == 200 and len(text) > 1000, asset
    assert "http" not in html.replace("http-equiv", "")       # no CDN, nothing from the network


# ----------------------------------------------------------------- every bad input: one 4xx line

BAD = [
    ("unknown card", f"/api/advise?hand={q(STRONG.replace('AC', 'XC'))}", "bad card token 'XC'"),
    ("third copy", f"/api/advise?hand={q('AS ' + STRONG[3:].replace('AC', 'AS'))}", "3 copies of A♠"),
    ("wrong count", f"/api/advise?hand={q(STRONG[:-3])}", "must have 15 cards, got 14"),
    ("no hand", "/api/advise", "hand: missing"),
    ("illegal auction", f"/api/advise?hand={q(STRONG)}&seat=rh&auction=150,170", "jumps are not allowed"),
    ("auction over", f"/api/advise?hand={q(STRONG)}&seat=mh&auction=150,pass,pass", "over"),
    ("not this seat's turn", f"/api/advise?hand={q(STRONG)}&seat=mh&auction=150,160", "it is forehand's call"),
    ("absurd samples", f"/api/advise?hand={q(STRONG)}&samples=1000000000",
     "samples: must be at most 20,000 (this server's cap per request), got 1,000,000,000"),
    ("zero samples", f"/api/analyze?hand={q(STRONG)}&samples=0", "samples: must be at least 1, got 0"),
    ("samples not a number", f"/api/advise?hand={q(STRONG)}&samples=lots", "not a whole number"),
    ("negative seed", f"/api/advise?hand={q(STRONG)}&seed=-1", "seed"),
    ("bad seat", f"/api/advise?hand={q(STRONG)}&seat=dealer", "unknown seat"),
    ("bad objective", f"/api/advise?hand={q(STRONG)}&objective=money", "objective"),
    ("win without scores", f"/api/advise?hand={q(STRONG)}&objective=win", "needs the game scores"),
    ("two scores", f"/api/advise?hand={q(STRONG)}&scores=1,2", "three game scores"),
    ("bad inference flag", f"/api/advise?hand={q(STRONG)}&inference=maybe", "yes/no"),
    ("unknown parameter", f"/api/advise?hand={q(STRONG)}&smaples=10", "unknown parameter 'smaples'"),
    ("bad escape", "/api/advise?hand=%ff", "malformed query string"),
    ("repeated name", f"/api/advise?hand={q(STRONG)}&hand={q(STRONG)}", "given twice"),
    ("no name=value", f"/api/advise?hand={q(STRONG)}&&x", "malformed query string"),
    ("tapp overlaps", f"/api/analyze?hand={q(STRONG)}&tapp=AS,9S,9S", "overlaps the hand"),
    ("tapp size", f"/api/analyze?hand={q(STRONG)}&tapp=9H", "must have 3 cards"),
    ("bid off the grid", f"/api/analyze?hand={q(STRONG)}&bid=155", "not a legal bid"),
    ("bad trump", f"/api/melds?hand={q(STRONG)}&trump=Z", "unknown suit"),
    ("cards text", "/api/cards?text=AS,QQ", "bad card token"),
    ("unknown rules", f"/api/advise?hand={q(STRONG)}&rules=skat", "unknown rules 'skat'"),
    ("nine in grupp", f"/api/melds?hand={q(STRONG)}&rules=grupp-3", "no card in grupp-3"),
    ("hand size of the variant", f"/api/advise?hand={q(STRONG.replace('9S', 'KH'))}&rules=binokel-40",
     "must have 12 cards, got 15"),
    ("illegal auction helper", "/api/auction?auction=160", "R3"),
    ("unknown play", f"/api/analyze?hand={q(STRONG)}&play=fast", "play: unknown play 'fast'"),
    ("PIMC advice above its cap", f"/api/advise?hand={q(STRONG)}&play=pimc&samples=1001",
     "samples: must be at most 1,000 (this server's cap per request with play=pimc), got 1,001"),
    ("PIMC analysis above its cap", f"/api/analyze?hand={q(STRONG)}&play=pimc-defence&samples=10001",
     "samples: must be at most 10,000 (this server's cap per request with play=pimc-defence)"),
    # partners games (V1): their own seats, objectives, scores, Dabb and auction form
    ("seat not at the table", f"/api/advise?hand={q(KREUZ)}&rules=kreuz-48&seat=hinterhand",
     "seat: unknown seat 'hinterhand' in kreuz-48: use forehand, middlehand, rearhand, dealer or 0-3 (V1)"),
    ("own score in a partners game", f"/api/advise?hand={q(KREUZ)}&rules=kreuz-48&objective=own",
     "objective: 'own' is not an objective of a partners game"),
    ("three scores in a partners game", f"/api/advise?hand={q(KREUZ)}&rules=kreuz-48&scores=1,2,3",
     "a team game has two totals (your team, the other team), got 3"),
    ("Dabb in a game without one", f"/api/analyze?hand={q(PIN)}&rules=pinochle-80&tapp=AS",
     "tapp: pinochle-80 has no Dabb (V1, V6)"),
    ("open bid below the minimum", "/api/auction?auction=450&rules=pinochle-80",
     "bid 450 is below the minimum bid 500 (V6.2)"),
    ("team duel raise of 20", "/api/auction?auction=150,170&rules=kreuz-40", "must be pass or 160: jumps are not allowed"),
    ("team bid off the grid", f"/api/analyze?hand={q(KREUZ)}&rules=kreuz-48&bid=155",
     "bid: 155 is not a legal bid (150, 160, ... V1)"),
]


@pytest.mark.parametrize("what,path,needle", BAD, ids=[b[0] for b in BAD])
def test_bad_query_is_a_one_line_400_and_the_server_keeps_serving(server, what, path, needle):
    msg = assert_error(server.get(path), 400)
    assert needle in msg, msg
    assert server.get("/api/info")[0] == 200


def test_same_errors_through_the_job_api(server):
    # checked before any work: the job is never created
    assert "3 copies" in assert_error(server.request("POST", "/api/jobs/advise", {"hand": "AS AS AS"}), 400)
    # found by the library in the worker (whose turn it is): the job ends in that error
    code, view, _ = server.request("POST", "/api/jobs/advise",
                                   {"hand": STRONG, "seat": "mh", "auction": "150 160"})
    assert code == 202
    end = server.wait_job(view["id"])
    assert end["state"] == "error" and end["status"] == 400 and "forehand's call" in end["error"]
    assert_error(server.request("POST", "/api/jobs/solve", {"hand": STRONG}), 404)


def test_oversized_body_is_refused_with_413(server):
    body = {"hand": "AS " * (MAX_BODY_BYTES // 3)}
    assert "too large" in assert_error(server.request("POST", "/api/advise", body), 413)


def test_oversized_chunked_body_without_length_is_refused_with_413(server):
    # no Content-Length: the server stops reading once the cap is passed
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
        s.sendall(b"POST /api/advise HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
        chunk = b"x" * 4096
        # just past the cap and no further: bytes sent after the server has answered and
        # closed would make its kernel reset the connection, discarding the reply unread
        try:
            for _ in range(MAX_BODY_BYTES // len(chunk) + 1):
                s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        except OSError:
            pass       # the server may answer and close before we finish sending
        reply = b""
        try:
            while chunk := s.recv(65536):
                reply += chunk
        except ConnectionResetError:
            pass       # what arrived before a reset is kept and checked below
    head, _, rest = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), head
    assert b"too large" in rest


@pytest.mark.parametrize("raw,ctype,status,needle", [
    (b"{not json", "application/json", 400, "not valid JSON"),
    (b"[1, 2]", "application/json", 400, "must be an object"),
    (b'{"hand": {"a": 1}}', "application/json", 400, "expected text"),
    (b"hand=AS", "application/x-www-form-urlencoded", 415, "Content-Type application/json"),
    (b"\xff\xfe", "application/json", 400, "not valid JSON"),
])
def test_malformed_bodies_are_4xx(server, raw, ctype, status, needle):
    msg = assert_error(server.request("POST", "/api/advise", raw=raw, headers={"Content-Type": ctype}), status)
    assert needle in msg


def test_unknown_endpoint_method_and_host_are_refused(server):
    assert_error(server.get("/api/solve"), 404)
    assert_error(server.request("PUT", "/api/advise", {"hand": STRONG}), 405)
    assert_error(server.request("POST", f"/api/advise?hand={q(STRONG)}", {"seed": 1}), 400)
    # a page elsewhere cannot reach the loopback server through a rebound DNS name
    assert "refused" in assert_error(server.request("GET", "/api/info", headers={"Host": "evil.example"}), 400)
    assert_error(server.request("GET", "/", headers={"Host": "evil.example:80"}), 400)
    assert server.request("GET", "/api/info", headers={"Host": "localhost"})[0] == 200


def test_serve_command_starts_answers_and_stops():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", "--port", str(port)], cwd=ROOT,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()
        assert f"serving on http://127.0.0.1:{port}/" in line
        import urllib.request
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=5) as r:
                    assert json.loads(r.read())["max_samples"] == MAX_SAMPLES
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
    finally:
        proc.terminate()
        proc.wait(30)


def test_serve_command_port_in_use_is_one_line_error():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        res = CliRunner().invoke(cli, ["serve", "--port", str(port)])
    assert res.exit_code == 2
    assert "already in use" in res.output and len(res.output.strip().splitlines()) == 1
