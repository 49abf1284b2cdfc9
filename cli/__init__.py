"""Click commands of ``binokel``: thin adapters over the :mod:`analyzer` API."""
