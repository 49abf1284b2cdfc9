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
    """A click group whose usage and input errors print as a single line."""

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


def _register() -> None:
    # each command lives in its own module ``cli/*_cmd.py``; importing it attaches it
    # to the group, so adding a command never touches this file
    import importlib
    import pkgutil

    from . import __path__ as pkg_path

    for info in sorted(pkgutil.iter_modules(pkg_path), key=lambda m: m.name):
        if info.name.endswith("_cmd"):
            importlib.import_module(f"{__package__}.{info.name}")


_register()


def main() -> None:
    cli.main(prog_name="binokel")


if __name__ == "__main__":
    # ``python -m cli.main``: this file runs as ``__main__``, but the commands attach to
    # the group of the module ``cli.main`` (they import it by that name), so run that one
    from cli.main import main as _main

    _main()
