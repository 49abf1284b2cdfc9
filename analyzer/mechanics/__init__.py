"""Game mechanics: cards, rule sets, melds, card play, scoring, auction, exchange and deals
(docs/RULES.md R1-R10).  Everything above this layer calls these kernels."""
