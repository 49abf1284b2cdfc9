"""Plain-Python oracles written straight from docs/RULES.md and docs/VARIANTS.md, one module per concern."""
