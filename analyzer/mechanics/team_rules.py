"""The team games' flat RuleSets (V1, V4, V5, V6) and their compiled kernel data (transitional).

``kreuz-48``, ``kreuz-40`` and ``pinochle-80`` are :class:`TeamRuleSet` views
(analyzer.mechanics.rules.flat_view) of the games of the one registry,
analyzer.mechanics.ruleset.GAMES (``get_rules("pinochle-80")``).  ``TeamKernel`` and
``TeamSpec`` go when the team modules read ``ruleset.Kernel`` (issue 24).  Kernels receive
the plain arrays and ints of a :class:`TeamKernel` (:func:`team_kernel`) and never hold a
rule number of their own, nor see a variant's name.  Card types and the 80-card hand
encoding are those of ``cards.py`` (types ``suit * 6 + rank``; counts 0..4 per type).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_TYPES, type_id
from analyzer.mechanics.rules import TeamRuleSet, VARIANTS, flat_view  # noqa: F401 (re-exported)
from analyzer.mechanics.ruleset import COUNTERS, GAMES

# rank indices (cards.py): A=0, 10=1, K=2, Q=3, J=4 (9=5 is absent); suits C S H D
_A, _T, _K, _Q, _J, _N = range(6)
_C, _S, _H, _D = range(4)

#: V6.5 counter options: card points per rank A 10 K Q J 9 (ruleset.COUNTERS)
COUNTER_OPTIONS = COUNTERS


class TeamKernel(NamedTuple):
    """Plain ints and arrays for the Pinochle kernels (built by team_kernel)."""

    card_points: np.ndarray      # int64[24]: counter points per card type (V6.5)
    rank_strength: np.ndarray    # int64[24]: higher beats lower within a suit (V1, V6.4)
    copies: np.ndarray           # int64[24]: copies of each type in the deck (4; 0 = the 9s)
    duty: int                    # play duties: 0 = R6, 1 = V5.6, 2 = V6.4 (team_play)
    partner_relief: int          # 1: beat/trump duties lifted while the partner wins (V5.6)
    # the meld table, named as ruleset.Kernel's (melds.meld_total_counts reads either)
    family: np.ndarray           # int64[2]: (plain, trump) family; V6.3 A: 150 per trump flush
    pair: np.ndarray             # int64[2]: (plain, trump) K-Q; V6.3 A: marriage 20, royal 40
    fours_value: np.ndarray      # int64[6]: one of rank r in every suit, 0 = no meld (V6.3 B around)
    eights_value: np.ndarray     # int64[6]: two of rank r in every suit (V6.3 B double around)
    binokel_q: int               # type of the binokel (pinochle) queen, Q♠ (V6.3 C)
    binokel_j: int               # type of the binokel (pinochle) jack, J♦ (V6.3 C)
    binokel_single: int          # 40 (V6.3 C)
    binokel_double: int          # 300 (V6.3 C)
    meld_needs_counter: int      # 1: a side's melds count only with a counting trick (V6.3)
    last_trick_bonus: int        # 20 (V6.5); 10 in the Binokel games (V1)
    hand_size: int               # 20 (V6.1); 11 kreuz-48 (V4.1), 9 kreuz-40 (V5.1)
    min_bid: int                 # 500 (V6.2); the opening bid 150 in the Binokel games (V1)
    bid_step: int                # 10 (V6.2, V1)
    target_score: int            # 3550 (V6.6); 1500 (V4.6), 1000 (V5.7)
    dabb_size: int               # 0 (V6.1); 4 (V4.1, V5.1): the soloist takes it, discards as many
    forced_opening: int          # 1: forehand must open (V5.2); 0: may pass (V4.2 after V2.2)
    going_out_bonus: int         # the other team's bonus when the soloist goes out (V4.3 30, V5.4 40)
    round_to: int                # team card points rounded to the nearest round_to, 5 up (V1); 0 = no
    loss_factor: int             # failed contract: -loss_factor x bid (2: V4.6, R8; 1: V6.6)
    dissle_value: int            # per trump low card melded from the discard (V2.3: 10); 0 = none
    low_rank: int                # rank index of the low card (5: the 7 or 9)
    bidder_leads: int            # 1: the high bidder leads the first trick (V6.2); 0: forehand (V4.5)


# --------------------------------------------------------------------------- team games

# the flat views of the one registry (analyzer.mechanics.ruleset.GAMES), transitional
KREUZ_48 = VARIANTS["kreuz-48"]
KREUZ_40 = VARIANTS["kreuz-40"]
PINOCHLE_80 = VARIANTS["pinochle-80"]
#: V6.5 option b as a RuleSet option (not a separate game name)
PINOCHLE_80_B = flat_view(GAMES["pinochle-80"].with_parts(
    points=replace(GAMES["pinochle-80"].points, ranks=COUNTERS["b"])))


def _team_kernel_of(rules) -> TeamKernel:
    """Compile a :class:`TeamRuleSet` (team_rulesets) into the TeamKernel (V4, V5, V6)."""
    kr = rules.kernel
    (qs, qr), (js, jr) = rules.binokel_cards
    duty = 2 if rules.trump_lead_duty else (1 if rules.beat_led_when_trumped else 0)
    copies = np.array([rules.copies if rules.in_deck(t) else 0 for t in range(N_TYPES)],
                      dtype=np.int64)
    return TeamKernel(
        card_points=kr.card_points, rank_strength=kr.rank_strength, copies=copies,
        duty=duty, partner_relief=int(rules.partner_relief),
        family=np.array(rules.family, dtype=np.int64), pair=np.array(rules.pair, dtype=np.int64),
        fours_value=np.array(rules.fours, dtype=np.int64),
        eights_value=np.array(rules.eights, dtype=np.int64),
        binokel_q=int(type_id(qs, qr)), binokel_j=int(type_id(js, jr)),
        binokel_single=int(rules.binokel[0]), binokel_double=int(rules.binokel[1]),
        meld_needs_counter=int(rules.meld_needs_counter_trick),
        last_trick_bonus=int(rules.last_trick_bonus), hand_size=int(rules.hand_size),
        min_bid=int(rules.bid_start), bid_step=int(rules.bid_step),
        target_score=int(rules.target_score), dabb_size=int(rules.tapp_size),
        forced_opening=int(rules.forced_opening), going_out_bonus=int(rules.surrender_bonus),
        round_to=int(rules.round_to), loss_factor=int(rules.loss_factor),
        dissle_value=int(rules.trump_nine) if rules.dissle_in_discard else 0, low_rank=_N,
        bidder_leads=int(rules.bidder_leads))


@dataclass(frozen=True)
class TeamSpec:
    """Everything the team analyses need about one team game, compiled once: the
    TeamKernel, the KernelRules whose melds a 2-copy game uses (analyzer.mechanics.melds),
    the deck as card types, and the auction's form (V6.2 open bidding, or V1's chain of
    duels).  Built by :func:`team_spec` from the game's rules; nothing here tests a name.
    """

    name: str
    tk: TeamKernel
    kr: object                   # KernelRules of the meld RuleSet (2-copy decks)
    deck: np.ndarray             # uint8[n]: the card types of the deck, each copy once
    copies: int                  # copies per type (2 or 4)
    hand_size: int
    dabb_size: int
    open_auction: bool           # True: V6.2 (any multiple of the step >= min); False: V1 duels
    start: int                   # lowest / opening bid
    step: int
    forced_opening: bool
    rules: object                # the rules object it was built from

    @property
    def n_cards(self) -> int:
        return int(self.deck.shape[0])


def team_spec(rules) -> TeamSpec:
    """The :class:`TeamSpec` of a team game's :class:`TeamRuleSet` (cached).

    Raises BinokelError for the rules of a game without teams (V1).
    """
    if not getattr(rules, "teams", False):
        raise BinokelError(f"{rules.name} is not a team game: use kreuz-48, kreuz-40 or pinochle-80")
    spec = _SPEC_CACHE.get(rules)
    if spec is None:
        tk = _team_kernel_of(rules)
        types = [t for t in range(N_TYPES) if tk.copies[t] > 0]
        deck = np.repeat(np.array(types, dtype=np.uint8), rules.copies)
        if 4 * rules.hand_size + rules.tapp_size != deck.shape[0]:
            raise BinokelError(f"{rules.name}: 4 hands of {rules.hand_size} + a Dabb of "
                               f"{rules.tapp_size} do not make the {deck.shape[0]}-card deck")
        spec = TeamSpec(rules.name, tk, rules.kernel, deck, int(rules.copies),
                        int(rules.hand_size), int(rules.tapp_size), bool(rules.open_bidding),
                        int(rules.bid_start), int(rules.bid_step), bool(rules.forced_opening),
                        rules)
        _SPEC_CACHE[rules] = spec
    return spec


_SPEC_CACHE: dict = {}


def team_kernel(rules) -> TeamKernel:
    """The compiled :class:`TeamKernel` of a team game's rules."""
    return team_spec(rules).tk


PINOCHLE_RULES = PINOCHLE_80      # the names the Pinochle modules use
PINOCHLE_RULES_B = PINOCHLE_80_B
