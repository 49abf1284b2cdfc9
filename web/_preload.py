"""Imported once by the job forkserver (never by the server itself): load the kernels there,
so every job forked from it starts with them in memory instead of loading them again."""
try:
    from web.worker import warm_up

    warm_up()
except Exception:  # noqa: BLE001 - a failed warm-up only makes the first jobs slower
    pass
