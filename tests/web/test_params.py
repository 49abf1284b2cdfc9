"""web/params.py: one strict schema per endpoint (pydantic), caps on size and depth
before parsing, every refusal one plain line with a 4xx status (issue 25).

These run the ASGI app in-process (Starlette's TestClient) with a job manager that
records the question instead of starting a worker: what is tested is the input layer,
in milliseconds a request, so the fuzz tests can send hundreds of requests.
"""
from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from starlette.testclient import TestClient

from analyzer.bounds import SEED
from web import params as P
from web.jobs import Job, JobManager

STRONG = "AS AS 10S KS QS JS 9S KH QH AC AD 10D KD QD JD"


class RecordingJobs(JobManager):
    """A job manager that answers every question at once with what it was asked."""

    def submit(self, kind, kwargs):
        job = Job(f"{len(self._jobs):016d}", kind, kwargs, state="done", result={"asked": kind})
        job.finished_event.set()
        with self._lock:
            self._jobs[job.id] = job
        return job


@pytest.fixture(scope="module")
def client():
    from web.app import create_app

    app = create_app(warm=False)
    # the loopback-only guard reads the Host header: ask as the page on this machine does
    with TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False) as c:
        app.state.jobs.shutdown()
        app.state.jobs = RecordingJobs(max_running=1)
        yield c


def one_line_4xx(resp, status=None):
    """The response is a refusal: 4xx, JSON {"error", "status"}, the error one line."""
    assert 400 <= resp.status_code < 500, (resp.status_code, resp.text[:300])
    if status is not None:
        assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) == {"error", "status"} and body["status"] == resp.status_code
    msg = body["error"]
    assert msg and "\n" not in msg and "Traceback" not in msg and len(msg) < 400, msg
    return msg


def never_5xx(resp):
    """An answer (2xx) or a one-line refusal (4xx); never a server error."""
    assert resp.status_code < 500, (resp.status_code, resp.text[:300])
    if resp.status_code >= 400:
        one_line_4xx(resp)


def post(client, path, obj=None, raw=None):
    data = raw if raw is not None else json.dumps(obj).encode()
    return client.post(path, content=data, headers={"Content-Type": "application/json"})


# ----------------------------------------------------------------- the defects of issue 25


def test_a_5000_level_nested_array_is_a_400_not_a_500(client):
    """It was HTTP 500 (RecursionError in json.loads, a traceback in the server log)."""
    for body in (b"[" * 5000 + b"]" * 5000, b'{"hand": ' + b"[" * 5000 + b"]" * 5000 + b"}",
                 b"[" * 8000):
        msg = one_line_4xx(post(client, "/api/advise", raw=body), 400)
        assert f"nested more than {P.MAX_JSON_DEPTH} levels" in msg


def test_brackets_inside_strings_do_not_count_as_depth():
    assert P.json_depth(b'{"hand": "[[[[[[[[[[ \\" {{{{{{"}', 4) == 1
    assert P.json_depth(b'{"a": [[[[1]]]]}', 4) == 5


def test_a_boolean_is_not_a_number(client):
    """{"samples": true} ran one sample and recommended a bid from it."""
    msg = one_line_4xx(post(client, "/api/advise", {"hand": STRONG, "samples": True}), 400)
    assert msg == "samples: true (a yes/no value) is not a whole number"
    msg = one_line_4xx(post(client, "/api/analyze", {"hand": STRONG, "seed": False}), 400)
    assert msg.startswith("seed: false (a yes/no value) is not a whole number")


def test_text_and_fractions_are_not_numbers_in_json(client):
    assert "samples: '200' is not a whole number" in one_line_4xx(
        post(client, "/api/advise", {"hand": STRONG, "samples": "200"}))
    assert "samples: 2.5 (a number with a fraction) is not a whole number" in one_line_4xx(
        post(client, "/api/advise", {"hand": STRONG, "samples": 2.5}))


def test_a_list_is_not_text(client):
    """{"seat": ["mh"]} was read as seat mh."""
    msg = one_line_4xx(post(client, "/api/advise", {"hand": STRONG, "seat": ["mh"]}), 400)
    assert msg == "seat: expected text, got a list (1 item)"
    msg = one_line_4xx(post(client, "/api/melds", {"hand": STRONG.split()}), 400)
    assert msg == "hand: expected text, got a list (15 items)"


def test_unknown_keys_are_refused_by_name_at_any_depth(client):
    msg = one_line_4xx(post(client, "/api/advise", {"hand": STRONG, "smaples": 10}))
    assert msg.startswith("unknown parameter 'smaples' for advise: use hand, seat, auction")
    msg = one_line_4xx(post(client, "/api/advise", {"hand": STRONG, "scores": {
        "forehand": 900, "middlehand": 1200, "rearhand": 400, "dealer": 0}}))
    assert msg == "scores: unknown key 'dealer': use forehand, middlehand, rearhand"


def test_messages_name_types_in_plain_words(client):
    """It read "expected text, a number or a list, got list"."""
    cases = [({"hand": {"a": 1}}, "hand: expected text, got an object (keys 'a')"),
             ({"hand": STRONG, "scores": 5}, 'scores: give three game scores as text "900,1200,400"'),
             ({"hand": STRONG, "auction": [150, "pas"]}, "auction[1]: 'pas' is not a call"),
             ({"hand": STRONG, "auction": [150, None]}, 'auction[1]: a call is a bid like 150 or "pass", not null'),
             ({"hand": STRONG, "scores": [900, 1200]}, "scores: need three game scores"),
             ({"hand": STRONG, "objective": "money"}, "objective: unknown 'money': use 'relative', 'own' or 'win'"),
             ({"hand": STRONG, "inference": "no"}, "inference: 'no' is not a yes/no value (use true or false)")]
    for obj, expected in cases:
        msg = one_line_4xx(post(client, "/api/advise", obj))
        assert msg.startswith(expected), msg
        assert " got list" not in msg and " got dict" not in msg and "Input should" not in msg


def test_strict_json_refuses_nan_and_a_key_given_twice(client):
    assert "NaN is not a JSON number" in one_line_4xx(
        post(client, "/api/advise", raw=b'{"hand": "AS", "samples": NaN}'))
    assert "key 'seed' given twice" in one_line_4xx(
        post(client, "/api/advise", raw=b'{"hand": "AS", "seed": 1, "seed": 2}'))


def test_the_api_refuses_a_seed_in_the_clis_words(client):
    from click.testing import CliRunner

    from cli.main import cli

    api = one_line_4xx(client.get(f"/api/advise?hand=AS&seed={SEED.hi + 1}"))
    r = CliRunner().invoke(cli, ["advise", "--example", "weak", "--seed", str(SEED.hi + 1)])
    assert r.exit_code == 2
    words = f"must be at most {SEED.hi:,} (seeds are 64-bit integers), got {SEED.hi + 1:,}"
    assert api == f"seed: {words}" and words in r.output


def test_query_string_and_json_body_go_through_one_schema():
    """GET reads the same models from text: the same question gives the same arguments."""
    q = P.parse_query(urlencode({"hand": STRONG, "seat": "mh", "auction": "150", "samples": "300",
                                 "seed": "4", "inference": "0", "scores": "900,1200,400"}))
    j = P.parse_json_body(json.dumps({"hand": STRONG, "seat": "mh", "auction": [150], "samples": 300,
                                      "seed": 4, "inference": False,
                                      "scores": {"forehand": 900, "middlehand": 1200,
                                                 "rearhand": 400}}).encode())
    assert P.advise_args(q) == P.advise_args(j)
    assert P.advise_args(q)["scores"] == [900, 1200, 400] and P.advise_args(q)["inference"] is False


def test_the_page_asks_with_typed_json_and_gets_the_answer(client):
    # what web/static/app.js sends: numbers as JSON numbers, inference as a boolean,
    # scores and the auction as text
    r = post(client, "/api/jobs/advise", {"hand": STRONG, "seat": "rh", "auction": "150,160",
                                          "scores": "900,1200,400", "samples": 2000, "seed": 9223372036854775807,
                                          "inference": False, "rules": "binokel-48"})
    assert r.status_code == 202, r.text
    assert r.json()["result"] == {"asked": "advise"}


def test_info_serves_each_endpoints_json_schema(client):
    schemas = client.get("/api/info").json()["schemas"]
    assert set(schemas) == {"advise", "analyze", "melds", "cards", "auction"}
    adv = schemas["advise"]
    assert adv["additionalProperties"] is False and adv["required"] == ["hand"]
    seed = next(s for s in adv["properties"]["seed"]["anyOf"] if s.get("type") == "integer")
    assert (seed["minimum"], seed["maximum"]) == (0, SEED.hi)


# ----------------------------------------------------------------- fuzz: never a 5xx

ENDPOINTS = [("POST", "/api/advise"), ("POST", "/api/analyze"), ("POST", "/api/melds"),
             ("POST", "/api/cards"), ("POST", "/api/auction"), ("POST", "/api/jobs/advise"),
             ("POST", "/api/jobs/analyze"), ("POST", "/api/info"), ("POST", "/api/jobs/nope")]
GET_ENDPOINTS = ["/api/advise", "/api/analyze", "/api/melds", "/api/cards", "/api/auction",
                 "/api/info", "/api/jobs/0000000000000000", "/api/nope"]
NAMES = sorted({n for fields in P.FIELDS.values() for n in fields} | {"forehand", "x", ""})

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=-2**70, max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30)
    | st.sampled_from([STRONG, "150 160 pass", "mh", "pimc", "grupp-3", "900,1200,400", "S", "win"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.sampled_from(NAMES) | st.text(max_size=6),
                                                                 inner, max_size=4),
    max_leaves=12)
bodies = st.dictionaries(st.sampled_from(NAMES) | st.text(max_size=10), json_values, max_size=6)
FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(endpoint=st.sampled_from(ENDPOINTS), body=json_values | bodies)
def test_fuzz_json_bodies_never_get_a_5xx(client, endpoint, body):
    never_5xx(client.request(endpoint[0], endpoint[1], content=json.dumps(body).encode(),
                             headers={"Content-Type": "application/json"}))


@FUZZ
@given(endpoint=st.sampled_from(ENDPOINTS),
       raw=st.binary(max_size=200) | st.builds(lambda n, c: c * n, st.integers(0, 20_000),
                                               st.sampled_from([b"[", b"{", b'{"a":', b"[1,", b'"', b"\\"])))
def test_fuzz_raw_bytes_deep_nesting_and_large_bodies_never_get_a_5xx(client, endpoint, raw):
    never_5xx(client.request(endpoint[0], endpoint[1], content=raw,
                             headers={"Content-Type": "application/json"}))


@FUZZ
@given(path=st.sampled_from(GET_ENDPOINTS),
       query=st.dictionaries(st.sampled_from(NAMES) | st.text(max_size=6),
                             st.text(max_size=40) | st.integers().map(str)
                             | st.sampled_from([STRONG, "1e9", "true", "-0", "1_0", "150,pass", "99" * 30]),
                             max_size=5))
def test_fuzz_query_strings_never_get_a_5xx(client, path, query):
    never_5xx(client.get(f"{path}?{urlencode(query)}" if query else path))


@FUZZ
@given(method=st.sampled_from(["GET", "DELETE"]), job_id=st.text(min_size=1, max_size=60))
def test_fuzz_job_ids_never_get_a_5xx(client, method, job_id):
    from urllib.parse import quote

    never_5xx(client.request(method, f"/api/jobs/{quote(job_id, safe='')}"))


def test_large_values_inside_the_size_cap_are_refused_in_one_line(client):
    long_text = "AS " * 1000      # 3,000 characters, under the body cap, over the text cap
    assert "hand: too long (3,000 characters; at most 600)" in one_line_4xx(
        post(client, "/api/advise", {"hand": long_text}))
    calls = [150 + 10 * i for i in range(P.MAX_CALLS + 1)]
    assert "auction: at most 100 items" in one_line_4xx(post(client, "/api/advise", {"hand": STRONG, "auction": calls}))
    assert "9" * 5000 and "not valid JSON" in one_line_4xx(
        post(client, "/api/advise", raw=b'{"hand": "AS", "seed": ' + b"9" * 5000 + b"}"))
    assert one_line_4xx(post(client, "/api/advise", raw=b"{" + b'"a": 1,' * 3000 + b'"b": 2}'), 413)
