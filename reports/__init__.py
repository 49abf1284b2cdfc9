"""Reports of batch runs: charts (reports/charts.py) and HTML + Markdown (reports/render.py)."""
from .render import SAMPLE_RUN, build_report

__all__ = ["SAMPLE_RUN", "build_report"]
