"""MkDocs hook (mkdocs.yml ``hooks``): every page of docs/design/ is in the navigation.

Design notes are added by whoever writes them (docs/design/engine.md, binokel2.md, ...);
listing each in mkdocs.yml by hand would make a missing or forgotten entry a strict-mode
warning or an orphan page, so the hook appends the ones the nav does not name yet, by
file name, under "Design"."""
from __future__ import annotations

from pathlib import Path


def _names(items) -> set:
    found = set()
    for item in items or []:
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            for value in item.values():
                found |= _names(value) if isinstance(value, list) else {value}
    return found


def _title(page: Path) -> str:
    """The page's first ``# heading``, else its file name."""
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return page.stem.replace("-", " ").replace("_", " ").capitalize()


def on_config(config, **kwargs):
    design = Path(config["docs_dir"]) / "design"
    nav = config.get("nav") or []
    listed = _names(nav)
    for section in nav:
        if isinstance(section, dict) and "Design" in section:
            for page in sorted(design.glob("*.md")):
                rel = f"design/{page.name}"
                if rel not in listed:
                    section["Design"].append({_title(page): rel})
    return config
