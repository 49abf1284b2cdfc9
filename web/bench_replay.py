"""Time the replay view's hint endpoint warm (issue 27).

``python -m web.bench_replay [--game binokel-48] [--seed 7] [--positions 6] [--repeats 5]
[--worlds 40]`` starts a server on 127.0.0.1 (an ephemeral port, stopped at the end),
loads the record ``binokel play --rules GAME --seed SEED --record FILE`` writes, asks
``POST /api/replay/hint`` once at every position (the warm-up: kernels loaded from
numba's cache), then ``repeats`` times at each of ``positions`` steps spread over the
deal, and prints the median and min/max wall milliseconds per position and over all,
with the load average (the machine may be shared).  Early positions value by PIMC
(``worlds`` worlds), late ones, with every hand in the record, also exactly (double dummy).
A game with a stock (``--game binokel-2``, V7): PIMC while the stock lasts, exact after.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import time
import urllib.request

from .bench import _serve


def _post(base: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.loads(r.read())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="binokel-48")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--worlds", type=int, default=40)
    args = ap.parse_args(argv)
    server, thread, base = _serve()
    try:
        with urllib.request.urlopen(f"{base}/api/replay/sample?game={args.game}&seed={args.seed}",
                                    timeout=600) as r:
            text = json.loads(r.read())["record"]
        d = _post(base, "/api/replay/load", {"record": text})
        decisions = [s["index"] for s in d["steps"] if len(s["legal"]) > 1]
        k = max(1, len(decisions) // args.positions)
        picks = decisions[::k][:args.positions]
        for i in picks:                                    # warm-up
            _post(base, "/api/replay/hint", {"record": text, "step": i, "worlds": args.worlds})
        rows, every = [], []
        for i in picks:
            ms = []
            for _ in range(args.repeats):
                t0 = time.perf_counter()
                h = _post(base, "/api/replay/hint", {"record": text, "step": i,
                                                     "worlds": args.worlds})
                ms.append(1000 * (time.perf_counter() - t0))
            every += ms
            # a game with a stock (V7) answers actions, exact once the stock is gone
            acts = h["actions"] if h.get("stock") else h["cards"]
            exact = h["exact"] if h.get("stock") else h["double_dummy"] == "exact"
            rows.append((i, h["trick"], len(acts), exact, ms))
    finally:
        server.should_exit = True
        thread.join(30)
    print(f"POST /api/replay/hint warm, {args.game} seed {args.seed}, {args.worlds} worlds, "
          f"{args.repeats} runs per position")
    for i, trick, n, dd, ms in rows:
        print(f"  step {i:>3} (trick {trick:>2}, {n} legal actions{', exact' if dd else ''}): "
              f"median {statistics.median(ms):7.1f} ms  (min {min(ms):.1f}, max {max(ms):.1f})")
    load = open("/proc/loadavg").read().split()[0] if os.path.exists("/proc/loadavg") else "?"
    print(f"  all positions: median {statistics.median(every):.1f} ms over {len(every)} requests; "
          f"load average {load}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
