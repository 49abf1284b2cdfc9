"""Binokel analyzer: Monte Carlo strategy analysis and bid advice (rules: docs/RULES.md).

Public API (see docs/guide and the API reference, docs/reference/api.md):

- :func:`parse_cards`, :class:`Card`, :class:`Hand`, :class:`Suit`, :class:`Rank`
- :class:`RuleSet`, ``DEFAULT_RULES``
- :func:`melds`, :func:`meld_table`
"""
from analyzer.mechanics.cards import Card, CardError, Hand, Rank, Suit, parse_cards
from analyzer.errors import BinokelError
from analyzer.mechanics.melds import Meld, Melds, meld_table, melds
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet
from analyzer.mechanics.play import DealRecord, Trick, legal_cards, play_deal, trick_winner
from analyzer.mechanics.scoring import DealScore, score_deal
from analyzer.mechanics.bidding import AuctionState, parse_auction, validate_auction

__version__ = "0.1.0"

# The analyses and the batch runner load on first use (PEP 562 module ``__getattr__``):
# ``from analyzer import advise_bid`` works as before, but importing the package (which
# every ``analyzer.*`` import does first) no longer imports all of them. Each CLI command
# needs one or two; importing all cost ~0.2 s of a ~2 s ``binokel advise``.
_LAZY = {
    "HandAnalysis": "analyzer.analyses.analysis",
    "analyze_hand": "analyzer.analyses.analysis",
    "simulate_soloist": "analyzer.analyses.analysis",
    "BidAdvice": "analyzer.analyses.advice",
    "advise_bid": "analyzer.analyses.advice",
    "TournamentResult": "analyzer.analyses.tournament",
    "run_tournament": "analyzer.analyses.tournament",
    "RunResult": "analyzer.batch.runs",
    "RunSpec": "analyzer.batch.runs",
    "load_run": "analyzer.batch.runs",
    "simulate": "analyzer.batch.runs",
    "exact_table": "analyzer.analyses.exact",
    "named_probabilities": "analyzer.analyses.exact",
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'analyzer' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "BinokelError", "Card", "CardError", "DEFAULT_RULES", "Hand", "Meld", "Melds", "Rank",
    "RuleSet", "Suit", "meld_table", "melds", "parse_cards", "__version__",
]
__all__ += ["DealRecord", "Trick", "legal_cards", "play_deal", "trick_winner"]
__all__ += ["DealScore", "score_deal"]
__all__ += ["HandAnalysis", "analyze_hand", "simulate_soloist"]
__all__ += ["AuctionState", "BidAdvice", "TournamentResult", "advise_bid", "parse_auction",
            "run_tournament", "validate_auction"]
__all__ += ["RunResult", "RunSpec", "exact_table", "load_run", "named_probabilities", "simulate"]
