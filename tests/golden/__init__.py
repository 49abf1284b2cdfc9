"""Golden files: every game's numbers at every entry point, pinned before the one-engine
refactor (issue 24, "Keep": pin before moving code; step 1 of the refactor's safe order).

Pinned from commit 02bdea3 (main before issue 24), for all seven games (binokel-48,
grupp-3, grupp-4, binokel-40, kreuz-48, kreuz-40, pinochle-80); the cases are listed in
tests/golden/cases.py, the numbers live in tests/golden/<game>.json:

- ``advise``: bid-advice tables (P(make), EV per bid, pass value) from the opening seat,
  after calls (``--seat/--auction``, team seats 0-3 for the team games), with game scores
  (``--scores``), with ``--lookahead``; ``--play pimc`` and ``pimc-defence`` where the
  game has them (binokel-48, grupp-3, grupp-4).
- ``analyze``: the analysis summary of a hand as soloist; ``--play pimc`` and
  ``pimc-defence`` where the game has them today (binokel-48, grupp-3, grupp-4).
- ``simulate``: the summed aggregate table of a small deal run (every game) and of a meld
  census run (the three-player games), i.e. every number ``binokel report`` draws from.
- ``tournament``: ``--groups`` (whole games) for every game, advisor against the rule of
  thumb and the look-ahead advisor against the fitted model of the advisor (the shipped
  fits); ``--deals`` (the single-deal duplicate match) for the team games.
- ``play``: trick logs of seeded deals (every policy the game has, a trump, a Durch or no
  soloist).
- ``melds``: the meld breakdown of the game's example hand; ``meld_census``: meld totals
  per trump of 300 hands dealt by numpy from a seed (independent of the project's dealing
  code), evaluated by the functions ``binokel melds`` calls.
- ``solve`` (DD values of positions: seeded deals played to a few tricks left, one-line
  positions with a trump and a Durch), ``duplicate`` (PIMC, the heuristic, the linear
  defence) and ``fit`` (``fit-defence``, one small policy-iteration round): binokel-48
  only, the only game these commands take today.

Each entry stores the sha256 of the payload's canonical JSON (floats by repr: bit-identical
or a failure) and a few headline numbers, so that a failing pin says what moved.

The rule through the engine refactor: the four three-player games (binokel-48, grupp-3,
grupp-4, binokel-40) stay bit-identical, their golden files are never regenerated.  A team
game's file (kreuz-48, kreuz-40, pinochle-80) may be regenerated only where a shared
mechanism deliberately replaces a team-only one, and the commit that does so says which
mechanism and why (and the team tournaments are re-measured, issue 24).  A change of the
output *format* (not the numbers) updates the case's payload function in cases.py, never
the golden file.

Regenerated once, deliberately, outside the engine refactor (issue 25, commit "golden:
advise and tournament re-pinned"): the advisor's soloist branch now makes the analyzer's
Monte Carlo exchange decisions (analyzer.search.deals.soloist_grid), so ``analyze`` and
``advise`` give one P(make) per bid; and every advice table reaches past the recommended
bid (advice_grid.table_extent).  The ``advise`` and ``tournament`` entries moved
(``python -m tests.golden.regen --only advise --only tournament``), and the ``analyze``
entries of the games with sevens only in their card names (the 7 was printed ``9S`` in
JSON; checked by diffing the two outputs) and of the team games in the longer
P(total >= bid) table (``--only analyze``); every other entry of every game is still
02bdea3's.
"""
