"""Console examples that cannot go stale (issue 28), in the manner of cog.

Every fenced block marked ``console`` in README.md and docs/**/*.md is run: each line
``$ COMMAND`` (continued by a trailing backslash) is executed by bash from the
repository root, with ``binokel`` meaning ``python -m cli.main`` of this checkout, and the
lines below it, up to the next ``$`` line or the end of the block, are its output
(stdout; stderr too when the command exits non-zero, as an error example does).  Blocks
marked ``bash`` or ``text`` are shown, never run.

The capability matrix (``cli.capabilities.markdown``) sits between the markers
``<!-- capabilities -->`` and ``<!-- /capabilities -->`` and is regenerated the same way.

    python -m docs.examples --check     # exit 1 and a diff when any output differs
    python -m docs.examples --update    # rewrite the outputs in place
    python -m docs.examples --list      # the examples and where they are
    python -m docs.examples --update docs/guide/advise.md   # one file only

tests/test_docs.py runs ``--check``'s comparison for each example; keep examples small
(``-n 200``, a short deal) so that all of them stay within about a minute on a warm
numba cache.
"""
from __future__ import annotations

import argparse
import difflib
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the files whose console blocks are examples
SOURCES = ("README.md", "docs")
#: the files that are not the project's prose (the rules documents are quoted, never run)
SKIP = ("docs/RULES.md", "docs/VARIANTS.md")
FENCE = re.compile(r"^```console\n(.*?)^```\n", re.M | re.S)
MATRIX = re.compile(r"(<!-- capabilities(?: prefix=(\S+))? -->\n)(.*?)(<!-- /capabilities -->)",
                    re.S)
TIMEOUT = 600


@dataclass(frozen=True)
class Example:
    """One ``$ command`` of a console block and the output written under it."""

    path: str          # relative to the repository root
    line: int          # 1-based line of the ``$`` in that file
    command: str       # the command as written (continuation lines joined by newlines)
    output: str        # the output as written

    @property
    def id(self) -> str:
        return f"{self.path}:{self.line}"


def doc_files() -> list[Path]:
    """README.md and every Markdown file under docs/ (the rules documents excluded)."""
    files = [ROOT / "README.md"]
    files += sorted(p for p in (ROOT / "docs").rglob("*.md")
                    if p.relative_to(ROOT).as_posix() not in SKIP)
    return files


def _split(body: str) -> list[tuple[int, str, str]]:
    """(line offset, command, output) of each ``$`` line of a console block's body."""
    lines = body.splitlines()
    out, i = [], 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            i += 1
            continue
        start, cmd = i, [lines[i][2:]]
        while cmd[-1].endswith("\\") and i + 1 < len(lines):
            i += 1
            cmd.append(lines[i])
        i += 1
        j = i
        while j < len(lines) and not lines[j].startswith("$ "):
            j += 1
        out.append((start, "\n".join(cmd), "\n".join(lines[i:j])))
        i = j
    return out


def examples(files: list[Path] | None = None) -> list[Example]:
    """Every example of the documentation, in file order."""
    found = []
    for path in files or doc_files():
        text = path.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            first = text.count("\n", 0, m.start(1)) + 1
            for off, cmd, output in _split(m.group(1)):
                found.append(Example(path.relative_to(ROOT).as_posix(), first + off, cmd, output))
    return found


def run(command: str) -> str:
    """The output of one example's command, as the documentation shows it."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    script = f'binokel() {{ "{sys.executable}" -m cli.main "$@"; }}\n{command}\n'
    r = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    text = r.stdout if r.returncode == 0 else r.stdout + r.stderr
    return "\n".join(line.rstrip() for line in text.rstrip("\n").splitlines())


def matrix_blocks(text: str):
    """(match, wanted table) of each capability matrix in ``text``."""
    from cli.capabilities import markdown

    for m in MATRIX.finditer(text):
        yield m, markdown(link_prefix=m.group(2) or "docs/reference/cli.md") + "\n"


def check_matrices(files: list[Path] | None = None) -> list[str]:
    """The files whose capability matrix differs from the registry's and the CLI's."""
    return [p.relative_to(ROOT).as_posix() for p in files or doc_files()
            if any(m.group(3) != want for m, want in matrix_blocks(p.read_text(encoding="utf-8")))]


def update(files: list[Path] | None = None) -> int:
    """Rewrite every example's output and every matrix in place; the number changed."""
    changed = 0
    for path in files or doc_files():
        text = path.read_text(encoding="utf-8")
        new = text
        for m, want in reversed(list(matrix_blocks(new))):
            new = new[:m.start(3)] + want + new[m.end(3):]
        rebuilt, pos = [], 0
        for m in FENCE.finditer(new):
            rebuilt.append(new[pos:m.start(1)])
            parts = []
            for _, cmd, _old in _split(m.group(1)):
                out = run(cmd)
                parts.append("$ " + cmd + ("\n" + out if out else ""))
            rebuilt.append("\n".join(parts) + "\n")
            pos = m.end(1)
        rebuilt.append(new[pos:])
        new = "".join(rebuilt)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed += 1
    return changed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m docs.examples", description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--check", action="store_true", help="compare; exit 1 on any difference")
    g.add_argument("--update", action="store_true", help="rewrite outputs and matrices in place")
    g.add_argument("--list", action="store_true", help="list the examples")
    ap.add_argument("files", nargs="*", type=Path,
                    help="only these Markdown files (default: README.md and docs/)")
    args = ap.parse_args(argv)
    files = [f.resolve() for f in args.files] or None
    if args.list:
        for ex in examples(files):
            print(f"{ex.id}: {ex.command.splitlines()[0]}")
        return 0
    if args.update:
        print(f"{update(files)} file(s) rewritten")
        return 0
    bad = 0
    for path in check_matrices(files):
        print(f"{path}: the capability matrix is out of date")
        bad += 1
    for ex in examples(files):
        got = run(ex.command)
        if got != ex.output:
            bad += 1
            print(f"{ex.id}: output differs for $ {ex.command}")
            sys.stdout.writelines(difflib.unified_diff(
                (ex.output + "\n").splitlines(True), (got + "\n").splitlines(True),
                "documented", "now"))
    print("all examples current" if not bad else f"{bad} out of date: python -m docs.examples --update")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
