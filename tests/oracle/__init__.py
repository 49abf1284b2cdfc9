"""Plain-Python oracles written straight from the rules text (docs/RULES.md, docs/VARIANTS.md).

One module per concern; none of them reads a RuleSet, a kernel table or a bit mask, so
the fast kernels are checked against them on random deals:

- :mod:`tests.oracle.melds` - the R5 meld counter (binokel-48), card codes
- :mod:`tests.oracle.play` - play duties, trick winner and card points (R6, R7), replay
- :mod:`tests.oracle.variants` - melds, play, scoring and auction of the variants (V1-V5)
- :mod:`tests.oracle.teams` - the four-handed Binokel team games (V1, V4, V5)
- :mod:`tests.oracle.pinochle` - double-deck partnership Pinochle (V6)
- :mod:`tests.oracle.solve` - double-dummy minimax without pruning (R4, R6, R7)
- :mod:`tests.oracle.binokel2` - the two-hand game with a stock (V7), brute-force endgame
"""
