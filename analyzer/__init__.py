"""Binokel analyzer: Monte Carlo strategy analysis and bid advice (rules: docs/RULES.md).

Public API (see README):

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

__version__ = "0.1.0"

__all__ = [
    "BinokelError", "Card", "CardError", "DEFAULT_RULES", "Hand", "Meld", "Melds", "Rank",
    "RuleSet", "Suit", "meld_table", "melds", "parse_cards", "__version__",
]
__all__ += ["DealRecord", "Trick", "legal_cards", "play_deal", "trick_winner"]
__all__ += ["DealScore", "score_deal"]
from analyzer.analyses.analysis import HandAnalysis, analyze_hand, simulate_soloist  # noqa: E402
__all__ += ["HandAnalysis", "analyze_hand", "simulate_soloist"]
from analyzer.analyses.advice import BidAdvice, advise_bid  # noqa: E402
from analyzer.mechanics.bidding import AuctionState, parse_auction, validate_auction  # noqa: E402
from analyzer.analyses.tournament import TournamentResult, run_tournament  # noqa: E402
__all__ += ["AuctionState", "BidAdvice", "TournamentResult", "advise_bid", "parse_auction",
            "run_tournament", "validate_auction"]
from analyzer.batch.runs import RunResult, RunSpec, load_run, simulate  # noqa: E402
from analyzer.analyses.exact import exact_table, named_probabilities  # noqa: E402
__all__ += ["RunResult", "RunSpec", "exact_table", "load_run", "named_probabilities", "simulate"]
# the team games (kreuz-48, kreuz-40, pinochle-80) register their RuleSets on import
from analyzer.mechanics import team_rules as _team_rules  # noqa: E402,F401
from analyzer.analyses.team_advice import TeamBidAdvice, advise_team  # noqa: E402
from analyzer.analyses.team_tournament import TeamTournamentResult, run_team_tournament  # noqa: E402
__all__ += ["TeamBidAdvice", "TeamTournamentResult", "advise_team", "run_team_tournament"]
