"""Documentation tools (``python -m docs.examples``); the pages are Markdown beside it."""
