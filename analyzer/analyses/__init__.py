"""Analyses built on the mechanics: Monte Carlo hand analysis, bid advice, exact
probabilities, duplicate tournaments, and the statistics they report."""
