"""The documentation cannot go stale (issue 28): README is a short tutorial, its
capability matrix is the one the registry and the CLI give, CI runs exactly README's
test command, and every console example in README.md and docs/ prints what it shows
(``python -m docs.examples``)."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from docs.examples import ROOT, check_matrices, doc_files, examples, run

README = ROOT / "README.md"


def test_readme_is_at_most_250_lines_and_holds_no_history():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    # history (sessions, superseded builds, commit hashes) lives in CHANGELOG.md
    assert not re.search(r"\bsession\b", text, flags=re.I)
    assert not re.search(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b", text)


def test_ci_runs_exactly_the_test_command_of_readme():
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"^```bash\n(.*?)^```", text, flags=re.M | re.S)
    test_cmd = [b.strip() for b in blocks if "pytest" in b]
    assert len(test_cmd) == 1
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip().splitlines()
    assert "\n".join(ci[-2:]).replace("\\\n  ", "") == test_cmd[0]
    assert "mkdocs build --strict" in test_cmd[0]  # the site builds with warnings as errors


def test_capability_matrix_in_readme_and_docs_is_current():
    """Regenerate with ``python -m docs.examples --update`` when this fails."""
    with_matrix = [p for p in doc_files() if "<!-- capabilities" in p.read_text(encoding="utf-8")]
    assert README in with_matrix
    assert check_matrices(with_matrix) == []


def test_capability_matrix_lists_a_newly_registered_game_without_code_change(monkeypatch):
    """The matrix asks the registry: a game registered under a new name gets a column,
    and the commands answer for it by their options (no game name in cli/capabilities)."""
    from analyzer.mechanics import rules as rules_mod
    from analyzer.mechanics import ruleset
    from cli.capabilities import YES, capabilities

    # one registry (ruleset.GAMES); rules.VARIANTS holds its flat views during issue 24's port
    game = replace(ruleset.get_game("grupp-3"), name="test-game")
    monkeypatch.setitem(ruleset.GAMES, "test-game", game)
    monkeypatch.setitem(rules_mod.VARIANTS, "test-game", rules_mod.flat_view(game))
    caps = capabilities()
    assert caps["melds"]["test-game"].mark == YES          # has --rules
    from cli.capabilities import PROBES
    from cli.main import load_all_commands

    # a command without --rules (and without a probe of its own) serves the default game only
    plain = [n for n, c in load_all_commands().items()
             if c is not None and n in caps and n not in PROBES and n != "warmup"
             and not any("--rules" in getattr(p, "opts", ()) for p in c.params)]
    for n in plain:
        assert caps[n]["test-game"].mark != YES, n
    source = (ROOT / "cli" / "capabilities.py").read_text(encoding="utf-8")
    for name in rules_mod.VARIANTS:
        assert name not in source


def test_capability_matrix_marks_pimc_where_the_library_refuses_it():
    import analyzer  # noqa: F401  (registers every game)
    from analyzer.errors import BinokelError
    from analyzer.mechanics.rules import VARIANTS
    from analyzer.search.pimc import resolve_play
    from cli.capabilities import capabilities

    caps = capabilities()
    for name, rules in VARIANTS.items():
        try:
            resolve_play("pimc", rules)
            refused = False
        except BinokelError:
            refused = True
        assert ("heuristic play only" in caps["advise"][name].note) == refused, name


def test_every_guide_page_covers_every_registered_game():
    """Issue 28: the guide is by task, each page for every game (no chapter per game
    family); a game that lacks a capability gets a line saying so. A newly registered
    game fails here until each page names it."""
    import analyzer  # noqa: F401  (registers every game)
    from analyzer.mechanics.rules import VARIANTS

    assert len(VARIANTS) >= 7
    missing = {}
    for page in sorted((ROOT / "docs" / "guide").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        lacking = [name for name in VARIANTS if name not in text]
        if lacking:
            missing[page.name] = lacking
    assert not missing


EXAMPLES = examples()


def test_documentation_has_console_examples_in_readme_and_the_guide():
    where = {Path(ex.path).parts[0] for ex in EXAMPLES}
    assert {"README.md", "docs"} <= where


@pytest.mark.parametrize("example", EXAMPLES, ids=[ex.id for ex in EXAMPLES])
def test_console_example_prints_what_the_documentation_shows(example):
    """Regenerate with ``python -m docs.examples --update`` when this fails."""
    assert run(example.command) == example.output
