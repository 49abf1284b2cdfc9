"""Start-up structure of the CLI (README, Performance: bid advice latency).

``binokel advise`` loads only what it uses: the command group imports a command's module
on use (cli.main.BinokelGroup), ``import analyzer`` leaves the analyses and the batch
runner to first use (analyzer.__getattr__), and the advice prints from its rows, not from
a pandas DataFrame. These tests pin the structure (which modules a process imports); the
time it saves is measured, not asserted.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# modules the advise command does not need; any one of them costs 0.05-0.8 s to import
NOT_FOR_ADVISE = ("pandas", "matplotlib", "pyarrow", "joblib", "dask", "rich",
                  "analyzer.batch.runs", "analyzer.analyses.analysis",
                  "analyzer.analyses.tournament",
                  "analyzer.analyses.exact", "analyzer.bench.registry", "reports", "web",
                  "scipy.linalg")


def _modules_after(code: str) -> set:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys, json\n"
                          "print(json.dumps(sorted(sys.modules)))"],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.splitlines()[-1]))


def test_advise_command_imports_neither_pandas_nor_other_commands_modules():
    mods = _modules_after(
        "from cli.main import cli\n"
        "cmd = cli.get_command(None, 'advise')\n"
        "assert cmd is not None and cmd.name == 'advise'\n"
        "import analyzer.analyses.lookahead, analyzer.analyses.advice_samples\n")
    assert "cli.advise_cmd" in mods
    assert not {m for m in mods if m.endswith("_cmd") and m != "cli.advise_cmd"}
    assert not [m for m in NOT_FOR_ADVISE if m in mods]


def test_every_command_module_follows_the_naming_rule():
    """cli/NAME_cmd.py defines the command NAME (underscores as dashes): the group finds a
    command by its module's name without importing the others."""
    from cli.main import cli, load_all_commands

    commands = load_all_commands()
    assert len(commands) >= 14
    for name, cmd in commands.items():
        assert cmd is not None and cmd.name == name
    assert set(cli.commands) == set(commands)


def test_lazy_package_attributes_are_the_modules_objects():
    import analyzer
    from analyzer.analyses.advice import advise_bid
    from analyzer.batch.runs import simulate

    assert analyzer.advise_bid is advise_bid and analyzer.simulate is simulate
    assert set(analyzer.__all__) <= set(dir(analyzer))
    for name in analyzer.__all__:
        assert getattr(analyzer, name) is not None


def test_warmup_writes_the_bytecode_even_when_python_would_not():
    """``binokel warmup`` byte-compiles the package (its first stage), so that a command
    started with PYTHONDONTWRITEBYTECODE set reads .pyc files instead of compiling every
    module from source; each .pyc records its source's mtime and size (a later edit makes
    Python recompile that module, never run a stale one)."""
    import importlib.util
    import os

    import analyzer.analyses.advice as advice
    import cli.advise_cmd as advise_cmd
    from cli.warmup_cmd import _byte_compile

    _byte_compile()
    for module in (advice, advise_cmd):
        pyc = importlib.util.cache_from_source(module.__file__)
        with open(pyc, "rb") as fh:
            header = fh.read(16)
        src = os.stat(module.__file__)
        assert int.from_bytes(header[8:12], "little") == int(src.st_mtime) & 0xFFFFFFFF
        assert int.from_bytes(header[12:16], "little") == src.st_size & 0xFFFFFFFF
