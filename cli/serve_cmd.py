"""``binokel serve``: the local web page (card picker, advice, melds, analysis)."""
from __future__ import annotations

import errno
import socket

import click

from analyzer.bounds import SERVE_WORKERS

from .common import BadInput, bounded, example_epilog
from .main import cli


@cli.command(
    "serve",
    epilog=example_epilog(
        "binokel serve --open",
        "binokel serve --host 0.0.0.0 --port 8080   # reachable from a phone on this network",
    ),
)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 makes the page reachable from other devices on the network.")
@click.option("--port", "-p", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="TCP port (0: any free port).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default browser.")
@click.option("--workers", default=None, type=bounded(SERVE_WORKERS),
              help="Questions computed at once (default: the number of cores); more wait in a queue.")
def serve_command(host, port, open_browser, workers):
    """Serve the web page and its JSON API (under /api) until Ctrl-C.

    Everything the page needs ships with the package: it works offline.  Each question
    runs in a worker process (progress, cancel); sample counts are capped per request.
    """
    import uvicorn

    from web.app import LOCAL_HOSTS, create_app

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        why = "already in use" if exc.errno == errno.EADDRINUSE else (exc.strerror or str(exc))
        raise BadInput(f"--host/--port: cannot listen on {host}:{port}: {why}") from None
    port = sock.getsockname()[1]
    local = host in LOCAL_HOSTS
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{port}/"
    click.echo(f"binokel: serving on {url} (Ctrl-C to stop)", err=True)
    if not local:
        click.echo("binokel: listening on the network: anyone who can reach this address can "
                   "use the page and run simulations on this machine", err=True)
    if open_browser:
        import threading
        import webbrowser

        threading.Timer(0.8, webbrowser.open, args=(url,)).start()
    app = create_app(local_only=local, max_running=workers)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False,
                                           timeout_graceful_shutdown=5))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
