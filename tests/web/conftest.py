"""A real server on 127.0.0.1 (an ephemeral port) for the API and page tests, and a
headless Debian Chromium driven by Playwright.  Both stop by themselves at the end."""
from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
import urllib.error
import urllib.request

import pytest

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class Server:
    def __init__(self, app, sock):
        import uvicorn

        self.app = app
        self.port = sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self._server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]}, daemon=True)

    def start(self):
        self._thread.start()
        deadline = time.monotonic() + 60
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("test server did not start")
            time.sleep(0.02)

    def stop(self):
        self._server.should_exit = True
        self._thread.join(30)

    def request(self, method, path, body=None, headers=None, raw=None):
        """(status, decoded JSON or text, headers) without raising on 4xx."""
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        h = dict(headers or {})
        if body is not None and "Content-Type" not in h:
            h["Content-Type"] = "application/json"
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=h)
        try:
            with urllib.request.urlopen(req, timeout=600) as r:
                status, text, hdrs = r.status, r.read().decode(), r.headers
        except urllib.error.HTTPError as e:
            status, text, hdrs = e.code, e.read().decode(), e.headers
        try:
            return status, json.loads(text), hdrs
        except ValueError:
            return status, text, hdrs

    def get(self, path):
        return self.request("GET", path)

    def wait_job(self, job_id, timeout=120):
        deadline = time.monotonic() + timeout
        while True:
            status, view, _ = self.get(f"/api/jobs/{job_id}")
            assert status == 200, view
            if view["state"] in ("done", "error", "cancelled"):
                return view
            assert time.monotonic() < deadline, f"job {job_id} still {view['state']}"
            time.sleep(0.05)


@pytest.fixture(scope="session")
def server():
    from web.app import create_app

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))      # loopback only, any free port
    srv = Server(create_app(max_running=2), sock)
    srv.start()
    # the first question waits for the forkserver to load (on a fresh machine: compile)
    # every kernel; do it here, once, so no test's own timeout includes it
    status, body, _ = srv.get("/api/advise?hand=AS,AS,10S,KS,QS,JS,9S,KH,QH,AC,AD,10D,KD,QD,JD&samples=1")
    assert status == 200, body
    yield srv
    srv.stop()
    sock.close()


def chromium_path() -> str:
    path = os.environ.get("BINOKEL_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(path):
        raise RuntimeError("the page tests need Debian's chromium: apt-get install -y chromium "
                           "(.ci/run installs it), or set BINOKEL_CHROMIUM")
    return path


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        yield b
        b.close()


@pytest.fixture()
def page(browser, server):
    # bypass_csp: Playwright evaluates its wait predicates as strings (CSP has no unsafe-eval);
    # the policy itself is checked in test_api, and no request may leave the server (below)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    pg = ctx.new_page()
    pg.js_errors = []      # exceptions in the page's script: none is ever expected
    pg.on("pageerror", lambda e: pg.js_errors.append(str(e)))
    # the page must load nothing from the network: every request goes to our server
    pg.foreign = []
    pg.on("request", lambda r: None if r.url.startswith(server.base) or r.url.startswith("data:")
          else pg.foreign.append(r.url))
    yield pg
    ctx.close()
    assert pg.js_errors == []
    assert pg.foreign == []
