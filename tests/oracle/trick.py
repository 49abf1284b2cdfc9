"""Plain-Python oracle of one trick (R6, V5.6, V6.4), written straight from the rules text.

Cards are card types (cards.py: type = suit * 6 + rank, rank 0 = A strongest, rank 5 the
low card); a hand is a collection of types (copies repeated or not: duties depend only on
which types are held).  The game's duties come from its RuleSet's ``play`` part
(analyzer.mechanics.ruleset.Play), read by field name; nothing here uses bit masks, the
compiled Kernel or the kernels' tables, so analyzer.mechanics.trick can be checked
against it.
"""
from __future__ import annotations


def suit(t: int) -> int:
    return t // 6


def rank(t: int) -> int:
    return t % 6


def is_trump(t: int, trump: int | None) -> bool:
    return trump is not None and suit(t) == trump


def stronger(a: int, b: int) -> bool:
    """R1/R6: ``a`` is of ``b``'s suit and of strictly higher rank (a lower rank index)."""
    return suit(a) == suit(b) and rank(a) < rank(b)


def beats(card: int, winner: int, trump: int | None) -> bool:
    """R6: "A card beats the currently winning card if it is of the same suit and of strictly
    higher rank, or if it is a trump and the winning card is not." """
    return stronger(card, winner) or (is_trump(card, trump) and not is_trump(winner, trump))


def winner_index(trick: list[int], trump: int | None) -> int:
    """R6: the card currently winning after each card; "the second copy never beats the
    first" (an equal card is not strictly higher)."""
    w = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[w], trump):
            w = i
    return w


def led_high(trick: list[int]) -> int:
    """V5.6: the highest card of the led suit in the trick (the first of equal copies)."""
    best = trick[0]
    for c in trick[1:]:
        if stronger(c, best):
            best = c
    return best


def legal_cards(hand, trick: list[int], trump: int | None, play, partner_winning: bool = False
                ) -> set[int]:
    """The card types of ``hand`` that may be added to ``trick`` (cards in play order).

    ``play``: the game's duties (fields follow, trump, beat, overtrump, partner_relief of
    the RuleSet's play part).  ``partner_winning``: the trick is won so far by a card of
    the player's partner (V5.6 partner relief).  ``trump`` None: a Durch (R4, no trump).
    """
    held = set(hand)
    if not trick:
        return held                      # R4: whoever leads may lead any card
    lead = suit(trick[0])
    win = trick[winner_index(trick, trump)]
    relieved = play.partner_relief and partner_winning   # V5.6: beat and trump duties lifted
    same = {c for c in held if suit(c) == lead}
    if same and play.follow:
        # R6.1: play the led suit; and beat ... if any card of that suit would
        if relieved:
            return same
        if play.beat == "winner":
            target = win                 # R6.1: the card currently winning the trick
        elif play.beat == "led-high":
            target = led_high(trick)     # V5.6: the led suit's highest, even when trumped
        elif play.beat == "trump-lead":
            target = led_high(trick) if lead == trump else None   # V6.4: on a trump lead only
        else:
            target = None
        if target is not None:
            winners = {c for c in same if beats(c, target, trump) and suit(c) == lead}
            if winners:
                return winners
        return same
    if same:                             # no duty to follow (V7.2): any card
        return held
    if relieved or not play.trump:
        return held
    trumps = {c for c in held if is_trump(c, trump)}
    if trumps:
        # R6.2: a trump; overtrump when a trump is winning and one can (R6 Reading: else
        # undertrump); V6.4: no duty to overtrump
        if play.overtrump and is_trump(win, trump):
            over = {c for c in trumps if beats(c, win, trump)}
            if over:
                return over
        return trumps
    return held                          # R6.3


def proven_absent(card: int, trick: list[int], trump: int | None, play, types,
                  partner_winning: bool = False) -> set[int]:
    """The types x in ``types`` the player cannot hold after adding ``card`` to ``trick``:
    those for which ``card`` would not be legal from the hand {card, x}.  (Duties only add
    obligations as a hand grows, so no larger hand holding x allows ``card`` either.)"""
    return {x for x in types
            if card not in legal_cards([card, x], trick, trump, play, partner_winning)}
