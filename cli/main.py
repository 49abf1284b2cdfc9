"""The ``binokel`` command group.

Every error caused by input (bad card, unknown option, illegal auction...) is printed as
one line ``binokel: error: ...`` with exit status 2: never a traceback.
"""
from __future__ import annotations

import re
import sys

import click

from analyzer import BinokelError, __version__

from .common import Interrupted


RULES_DOC = "docs/RULES.md"
VARIANTS_DOC = "docs/VARIANTS.md"
_CITES_RULE = re.compile(r"\b[RV]\d+(\.\d+)*\b")
_CITES_VARIANT = re.compile(r"\bV\d+(\.\d+)*\b")


def one_line(message: str) -> str:
    """An error message as one line; a message citing a rule section (R3, V5.6) points
    to the project's rules document where those sections are written out (R sections:
    docs/RULES.md, V sections of the variants: docs/VARIANTS.md)."""
    msg = " ".join(str(message).split())
    if _CITES_RULE.search(msg) and RULES_DOC not in msg and VARIANTS_DOC not in msg:
        doc = VARIANTS_DOC if _CITES_VARIANT.search(msg) else RULES_DOC
        msg += f" (rules: {doc})"
    return msg


class BinokelGroup(click.Group):
    """A click group whose usage and input errors print as a single line.

    Its commands load on use (click's "lazy group" pattern): each command lives in its
    own module ``cli/NAME_cmd.py`` (``fit_opponents_cmd`` -> ``fit-opponents``) and that
    module, with the analyzer modules it needs, is imported only when the command runs or
    a listing (``binokel --help``) asks for it. Importing every command's modules for
    every command cost ~0.3-0.5 s of a 2 s ``binokel advise`` (pandas, the batch runner,
    the tournament, the bench, ...). Adding a command never touches this file.
    """

    def _modules(self) -> dict:
        """{command name: module name} of every ``cli/*_cmd.py``."""
        import pkgutil

        from . import __path__ as pkg_path

        return {info.name[:-len("_cmd")].replace("_", "-"): f"{__package__}.{info.name}"
                for info in pkgutil.iter_modules(pkg_path) if info.name.endswith("_cmd")}

    def list_commands(self, ctx) -> list:
        return sorted(set(self._modules()) | set(self.commands))

    def get_command(self, ctx, cmd_name):
        if cmd_name not in self.commands:
            module = self._modules().get(cmd_name)
            if module is not None:
                import importlib

                importlib.import_module(module)  # its ``@cli.command`` adds it to the group
        return self.commands.get(cmd_name)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if args is None:
            args = sys.argv[1:]
        if not list(args):
            args = ["--help"]  # bare ``binokel``: the whole help, not a one-line usage error
        try:
            rv = super().main(args=args, prog_name=prog_name, complete_var=complete_var,
                              standalone_mode=False, **extra)
        except click.exceptions.Abort:
            click.echo("binokel: interrupted", err=True)
            sys.exit(130)
        except Interrupted as exc:
            click.echo(f"binokel: interrupted: {one_line(str(exc))}", err=True)
            sys.exit(130)
        except click.ClickException as exc:
            click.echo(f"binokel: error: {one_line(exc.format_message())}", err=True)
            sys.exit(exc.exit_code if exc.exit_code else 2)
        except BinokelError as exc:
            click.echo(f"binokel: error: {one_line(str(exc))}", err=True)
            sys.exit(2)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        if isinstance(rv, int) and standalone_mode:
            sys.exit(rv)
        return rv


@click.group(cls=BinokelGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="binokel")
def cli() -> None:
    """Binokel analyzer: melds, simulated deals and bid advice (3 players, 48 cards).

    Cards are written like AS 10S TS A♠ q♠ (rank then suit C S H D or ♣ ♠ ♥ ♦),
    separated by spaces or commas; German names such as Herz-Ober also work.
    """


def load_all_commands() -> dict:
    """Import every command module (the group loads them on use): {name: command}."""
    return {name: cli.get_command(None, name) for name in cli.list_commands(None)}


def main() -> None:
    """The ``binokel`` console script: run the command, then exit (see :func:`leave`).

    On a terminal, a line on stderr says so while numba compiles (cli.compile_notice).
    """
    from .compile_notice import install

    install()
    try:
        cli.main(prog_name="binokel")
    except SystemExit as exc:
        leave(exc.code)
    leave(0)


def _exit_status(code) -> int:
    """``sys.exit``'s rule: None is 0, an int is itself, anything else is printed, then 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def leave(code) -> None:
    """Exit with ``code`` without the interpreter's teardown when nothing needs it.

    Why: once numba's registry is loaded, freeing the interpreter's objects at exit takes
    0.2-0.4 s on this machine, a sixth of ``binokel advise``'s answer time (docs/performance.md;
    issue 14's 2 s target), and frees memory the OS reclaims anyway.  So after
    the command, the atexit handlers run, logging and both streams are flushed, and the
    process ends with ``os._exit``.  Only when no worker pool may need its teardown
    (joblib / loky / dask never imported) and only the main thread is left; otherwise the
    normal ``sys.exit``.  Output files are unaffected: every command writes them in
    ``with`` blocks and renames atomically before it returns.
    """
    import threading

    status = _exit_status(code)
    if any(m in sys.modules for m in ("joblib", "loky", "dask", "distributed")) or \
            threading.active_count() > 1:
        sys.exit(status)
    import atexit
    import os

    atexit._run_exitfuncs()  # what the normal exit would run (numba's, logging's, ...)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, ValueError, OSError):
        # a closed pipe (``binokel ... | head``): the normal exit would fail the same way
        status = status or 1
    os._exit(status)


if __name__ == "__main__":
    # ``python -m cli.main``: this file runs as ``__main__``, but the commands attach to
    # the group of the module ``cli.main`` (they import it by that name), so run that one
    from cli.main import main as _main

    _main()
