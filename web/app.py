"""The web page and its JSON API (Starlette): a thin adapter over the library.

Routes (every answer under ``/api`` is JSON; every error is ``{"error": "one line",
"status": N}`` with a 4xx status for bad input, never a traceback):

- ``GET /``: the page (``web/static``: HTML, JS, CSS, Chart.js; nothing from the network).
- ``GET|POST /api/advise``, ``/api/analyze``, ``/api/melds``: the answer, the same dict
  ``binokel advise|analyze|melds --json`` prints.  GET takes the query string, POST a JSON
  object with the same names.
- ``POST /api/jobs/advise``, ``/api/jobs/analyze`` (202: ``{"id", "state", ...}``),
  ``GET /api/jobs/ID`` (progress ``done``/``total``; ``result`` when done),
  ``DELETE /api/jobs/ID`` (cancel): what the page uses, for progress and cancel.
- ``GET /api/cards?text=...`` (parse card text, any count), ``GET /api/auction?auction=...``
  (R3 state and the legal next calls), ``GET /api/info`` (caps, defaults, examples).
- ``GET /table``, ``/api/table/...``: the table for two (a game with a stock, V7):
  web/stock_table.py.
- ``GET /replay``, ``/api/replay/...``: step through a deal record, value the legal cards,
  try another card (issue 27): web/replay.py.
"""
from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from . import params as P
from . import stock_table
from .jobs import JobManager, start_forkserver
from .replay import routes as replay_routes

STATIC = Path(__file__).resolve().parent / "static"
LOCAL_HOSTS = ["127.0.0.1", "localhost", "[::1]", "::1"]
# the page loads only its own files: this also proves it works offline
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'")


def error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": " ".join(str(message).split()), "status": status}, status_code=status)


class LoopbackHostOnly:
    """ASGI middleware: refuse a request whose Host header is not a loopback name (400,
    one JSON line).  A server bound to 127.0.0.1 is then out of reach of a web page
    elsewhere that rebinds its own DNS name to 127.0.0.1."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            name = host.rsplit(":", 1)[0] if not host.startswith("[") else host.split("]")[0] + "]"
            if name not in LOCAL_HOSTS:
                await error(f"Host {host[:60]!r} refused: this server answers only to 127.0.0.1 "
                            "or localhost (binokel serve --host to listen elsewhere)", 400)(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def _raw_params(request: Request) -> P.Params:
    """The request's parameters: the strict query string (GET) or a JSON object (POST),
    the body held to its size cap while it is read and to its depth cap before parsing."""
    if request.method == "GET":
        return P.parse_query(request.scope.get("query_string", b""))
    if request.scope.get("query_string"):
        raise P.BadRequest("POST takes its parameters in the JSON body, not the query string")
    length = request.headers.get("content-length")
    if length is not None:
        try:
            n = int(length)
        except ValueError:
            raise P.BadRequest("bad Content-Length header") from None
        if n > P.MAX_BODY_BYTES:
            raise P.BadRequest(f"request body too large ({n} bytes; at most {P.MAX_BODY_BYTES})", 413)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > P.MAX_BODY_BYTES:   # chunked upload without a length: stop reading
            raise P.BadRequest(f"request body too large (more than {P.MAX_BODY_BYTES} bytes)", 413)
    if not body:
        return P.Params({}, text=False)
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise P.BadRequest(f"POST a JSON object with Content-Type application/json (got {ctype[:60] or 'none'!r})", 415)
    return P.parse_json_body(bytes(body))


def _handler(fn):
    """Route wrapper: BadRequest -> its 4xx JSON line."""
    async def route(request: Request):
        try:
            return await fn(request)
        except P.BadRequest as exc:
            return error(str(exc), exc.status)
    return route


async def _wait(request: Request, job) -> JSONResponse:
    """Wait for a job without blocking the loop; cancel it if the client goes away."""
    while not job.finished_event.is_set():
        await asyncio.sleep(0.01)
        if await request.is_disconnected():
            request.app.state.jobs.cancel(job.id)
            break
    await asyncio.to_thread(job.finished_event.wait, 10)
    if job.state == "done":
        # the worker's CPU time, for benchmarks (web/bench.py); the body stays the --json dict
        return JSONResponse(job.result, headers={"X-Worker-CPU-Seconds": f"{job.cpu_s:.3f}"})
    return error(job.error or job.state, job.status if job.status >= 400 else 500)


def answer(kind: str):
    async def route(request: Request):
        raw = await _raw_params(request)
        kwargs = P.ARGS[kind](raw)
        if kind == "melds":          # pure Python, milliseconds: no worker needed
            from .worker import compute
            return JSONResponse(P.json_safe(compute("melds", kwargs)))
        job = request.app.state.jobs.submit(kind, kwargs)
        return await _wait(request, job)
    return _handler(route)


async def job_submit(request: Request):
    kind = request.path_params["kind"]
    if kind not in ("advise", "analyze"):
        raise P.BadRequest(f"no job kind {kind[:40]!r}: use advise or analyze", 404)
    kwargs = P.ARGS[kind](await _raw_params(request))
    job = request.app.state.jobs.submit(kind, kwargs)
    return JSONResponse(job.view(), status_code=202)


async def job_view(request: Request):
    jobs = request.app.state.jobs
    if request.method == "DELETE":
        return JSONResponse(jobs.cancel(request.path_params["id"]).view())
    return JSONResponse(jobs.get(request.path_params["id"]).view())


async def cards(request: Request):
    return JSONResponse(P.cards_info(await _raw_params(request)))


async def auction(request: Request):
    return JSONResponse(P.auction_info(await _raw_params(request)))


async def info(request: Request):
    from analyzer import __version__
    from analyzer.examples import examples

    if request.scope.get("query_string"):
        raise P.BadRequest("info takes no parameters")
    try:
        ex = examples()
    except Exception:  # noqa: BLE001 - examples are optional for the page
        ex = {}
    return JSONResponse({
        "version": __version__,
        "max_samples": P.MAX_SAMPLES,
        "default_samples": P.DEFAULT_SAMPLES,
        "plays": list(P.PLAYS),
        "max_samples_pimc": P.MAX_SAMPLES_PIMC,
        "default_samples_pimc": P.DEFAULT_SAMPLES_PIMC,
        "max_body_bytes": P.MAX_BODY_BYTES,
        "objectives": list(P.OBJECTIVES),
        "seats": ["forehand", "middlehand", "rearhand"],
        "examples": {k: {"hand": v["hand"], "tapp": v.get("tapp"), "seat": v.get("seat")}
                     for k, v in ex.items()},
        "max_running_jobs": request.app.state.jobs.max_running,
        "rules": P.rules_info(),
        "schemas": P.json_schemas(),
    })


async def index(request: Request):
    return FileResponse(STATIC / "index.html", headers={"Content-Security-Policy": CSP,
                                                        "Cache-Control": "no-cache"})


async def api_not_found(request: Request):
    for route in request.app.routes:   # a known endpoint asked with another method: 405
        if isinstance(route, Route) and route.path != "/api/{rest:path}" and \
                route.path_regex.match(request.url.path):
            return error(f"method {request.method} not allowed for {request.url.path[:80]}: use "
                         f"{', '.join(sorted(route.methods - {'HEAD'}))}", 405)
    return error(f"no API endpoint {request.url.path[:80]!r}: see /api/info and docs/guide/web.md", 404)


async def http_error(request: Request, exc: HTTPException):
    msg = {404: "not found", 405: f"method {request.method} not allowed here"}.get(exc.status_code,
                                                                                     str(exc.detail))
    return error(f"{msg}: {request.url.path[:80]}", exc.status_code)


async def server_error(request: Request, exc: Exception):
    # a bug, not bad input; the page still gets one JSON line and the server keeps serving
    return error(f"internal error: {type(exc).__name__}", 500)


def create_app(*, local_only: bool = True, max_running: int | None = None,
               warm: bool = True) -> Starlette:
    """The ASGI app.  ``local_only`` refuses requests whose Host is not this machine's
    loopback name (a web page elsewhere cannot drive a server bound to 127.0.0.1 through
    DNS rebinding); ``max_running`` caps concurrent worker processes."""
    @asynccontextmanager
    async def lifespan(app):
        app.state.jobs = JobManager(max_running=max_running)
        if warm:
            await asyncio.to_thread(start_forkserver)
        try:
            yield
        finally:
            app.state.jobs.shutdown()

    routes = [
        Route("/", index),
        Route("/api/advise", answer("advise"), methods=["GET", "POST"]),
        Route("/api/analyze", answer("analyze"), methods=["GET", "POST"]),
        Route("/api/melds", answer("melds"), methods=["GET", "POST"]),
        Route("/api/jobs/{kind}", _handler(job_submit), methods=["POST"]),
        Route("/api/jobs/{id}", _handler(job_view), methods=["GET", "DELETE"]),
        Route("/api/cards", _handler(cards), methods=["GET", "POST"]),
        Route("/api/auction", _handler(auction), methods=["GET", "POST"]),
        Route("/api/info", _handler(info), methods=["GET"]),
        *stock_table.routes(_raw_params, _handler, STATIC, CSP),     # the table for two (V7, issue 26)
        *replay_routes(_handler, STATIC, CSP),     # /replay and /api/replay/* (web/replay.py)
        Route("/api/{rest:path}", api_not_found, methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = []
    if local_only:
        middleware.append(Middleware(LoopbackHostOnly))
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                     exception_handlers={HTTPException: http_error, Exception: server_error})
