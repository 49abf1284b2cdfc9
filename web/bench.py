"""Time the web API's default advice against the command line doing the same.

``python -m web.bench [--repeats 7] [--samples 2000]`` starts a server on 127.0.0.1 (an
ephemeral port, stopped at the end), then alternates, ``repeats`` times each:

- ``binokel advise --example strong_spades --json`` as a fresh process (what a user
  typing the command waits for: start-up, kernel loading from numba's cache, the run);
- ``GET /api/advise?hand=...`` for the same hand, seat, samples and seed (what the page
  waits for: one warm worker process forked per question).

It prints the median and min/max wall seconds of each, their CPU seconds (the CLI
process's user + sys; the API worker's, from the ``X-Worker-CPU-Seconds`` header), the
ratio and the load average, and checks both answers agree.
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote


def _serve():
    import uvicorn

    from .app import create_app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning", access_log=False))
    t = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    t.start()
    while not server.started:
        time.sleep(0.02)
    return server, t, f"http://127.0.0.1:{sock.getsockname()[1]}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--samples", type=int, default=2000)
    args = ap.parse_args(argv)
    from analyzer.examples import example

    ex = example("strong_spades")
    root = Path(__file__).resolve().parent.parent
    server, thread, base = _serve()
    url = (f"{base}/api/advise?hand={quote(ex['hand'].replace(' ', ','), safe=',')}"
           f"&seat={ex['seat']}&samples={args.samples}&seed=0")
    cli = [sys.executable, "-m", "cli.main", "advise", "--example", "strong_spades", "-n",
           str(args.samples), "--seed", "0", "--json"]
    try:
        with urllib.request.urlopen(url, timeout=600) as r:     # warm-up (forkserver, kernels)
            api_answer = json.loads(r.read())
        subprocess.run(cli, cwd=root, check=True, capture_output=True)
        api_t, api_cpu, cli_t, cli_cpu = [], [], [], []
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            with urllib.request.urlopen(url, timeout=600) as r:
                r.read()
                api_cpu.append(float(r.headers["X-Worker-CPU-Seconds"]))
            api_t.append(time.perf_counter() - t0)
            before = os.times()
            t0 = time.perf_counter()
            out = subprocess.run(cli, cwd=root, check=True, capture_output=True, text=True).stdout
            cli_t.append(time.perf_counter() - t0)
            after = os.times()
            cli_cpu.append((after.children_user - before.children_user)
                           + (after.children_system - before.children_system))
        same = json.loads(out) == api_answer
    finally:
        server.should_exit = True
        thread.join(30)
    med_api, med_cli = statistics.median(api_t), statistics.median(cli_t)
    print(f"default advice (strong_spades, {args.samples} samples, seed 0), {args.repeats} runs each")
    print(f"  API  GET /api/advise : median {med_api:.3f} s  (min {min(api_t):.3f}, max {max(api_t):.3f}); "
          f"worker CPU {statistics.median(api_cpu):.3f} s")
    print(f"  CLI  binokel advise  : median {med_cli:.3f} s  (min {min(cli_t):.3f}, max {max(cli_t):.3f}); "
          f"CPU {statistics.median(cli_cpu):.3f} s")
    print(f"  API / CLI = {med_api / med_cli:.2f}; same answer: {same}; "
          f"load average {open('/proc/loadavg').read().split()[0] if os.path.exists('/proc/loadavg') else '?'}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
