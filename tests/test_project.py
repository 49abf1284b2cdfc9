"""Project-level promises: the rules document lives in the repository (docs/RULES.md, R1-R10,
cited by code and messages) and nothing points outside the repository."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_rules_document_has_every_cited_section_r1_to_r10():
    text = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    heads = re.findall(r"^## (R\d+)\. ", text, flags=re.M)
    assert heads == [f"R{i}" for i in range(1, 11)]


def test_every_rule_section_cited_in_the_code_exists_in_the_rules_document():
    text = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    have = set(re.findall(r"^## (R\d+)\. ", text, flags=re.M))
    cited = set()
    for folder in ("analyzer", "cli"):
        for path in (ROOT / folder).rglob("*.py"):
            cited |= set(re.findall(r"\b(R\d+)\b", path.read_text(encoding="utf-8")))
    assert cited and cited <= have, sorted(cited - have)


def test_nothing_points_outside_the_repository():
    """README, code and messages cite docs/RULES.md, never ../shared (not in a clone)."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    bad = []
    for name in tracked:
        if not name.endswith((".py", ".md", ".toml", ".json", ".html", ".txt")):
            continue
        if name == "tests/test_project.py":
            continue
        text = (ROOT / name).read_text(encoding="utf-8", errors="replace")
        if "../shared" in text or "shared/RULES" in text or "shared/VARIANTS" in text:
            bad.append(name)
    assert not bad


def test_python_m_cli_main_runs_the_commands():
    """``python -m cli.main`` (this file as __main__) must see the registered commands."""
    r = subprocess.run([sys.executable, "-m", "cli.main", "melds", "--example", "weak"],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "best trump by meld" in r.stdout


def test_error_citing_a_rule_points_to_the_rules_document():
    r = subprocess.run([sys.executable, "-m", "cli.main", "advise", "--example", "strong_spades",
                        "--auction", "150 170"], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 2
    line = r.stderr.strip()
    assert "\n" not in line and "(R3)" in line and "docs/RULES.md" in line
