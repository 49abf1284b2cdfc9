"""A deal of a stock game (V7) as a Python object over the numba kernels of
:mod:`analyzer.mechanics.stock_play`: what the policies, the solver's callers and the
commands step.  Every move goes through the kernels; this module only lists and names.

Actions are tuples (the reference's, tests/oracle/binokel2.py, with physical cards):

- ``("play", card)``: a physical card (``type * 2 + copy``) of the player to act;
- ``("meld", mask, pattern)``: the trick's winner shows the cards of ``mask`` (physical
  bits) as meld ``pattern`` (an index of the game's meld table for the trump), then both
  draw (V7.3, V7.2);
- ``("pass",)``: the winner shows nothing; both draw;
- ``("claim",)``: the player to act claims the game (V7.5).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from analyzer.errors import BinokelError
from analyzer.mechanics import stock_play as sp

SUITS = "CSHD"
RANKS = ("A", "10", "K", "Q", "J", "7")


def card_name(card: int) -> str:
    """Physical card -> its code (``10S``, ``7H``)."""
    t = card // 2
    return RANKS[t % 6] + SUITS[t // 6]


def cards_of(mask: int) -> list[int]:
    return [c for c in range(48) if (int(mask) >> c) & 1]


@lru_cache(maxsize=None)
def rules_of(game) -> sp.StockRules:
    """The compiled stock tables of a RuleSet with a stock (V7)."""
    return sp.stock_params(game.kernel)


class StockDeal:
    """One deal in progress: ``st`` the kernel state, ``game`` the RuleSet, ``log`` the
    actions and draws so far as tuples (for trick logs)."""

    def __init__(self, game, st: np.ndarray, log=None):
        self.game = game
        self.r = rules_of(game)
        self.st = st
        self.log = [] if log is None else log

    # ---- construction
    @classmethod
    def from_order(cls, game, order, before=(0, 0)) -> "StockDeal":
        r = rules_of(game)
        order = np.asarray(order, dtype=np.int64)
        if sorted(order.tolist()) != list(range(48)):
            raise BinokelError("V7.1: a deal needs each of the 48 cards exactly once")
        st = sp.deal_order(order, int(before[0]), int(before[1]), r.params)
        d = cls(game, st)
        if st[sp.MELD1]:
            d.log.append(("dissle turned", 1, int(st[sp.TURNED])))
        return d

    @classmethod
    def from_seed(cls, game, seed: int, before=(0, 0)) -> "StockDeal":
        from analyzer.mechanics.rng import chunk_state

        return cls.from_order(game, sp.shuffled_order(chunk_state(seed, 0)), before)

    def copy(self) -> "StockDeal":
        return StockDeal(self.game, self.st.copy(), list(self.log))

    # ---- reading
    @property
    def trump(self) -> int:
        return int(self.st[sp.TRUMP])

    @property
    def turned(self) -> int:
        return int(self.st[sp.TURNED])

    def to_act(self) -> int:
        return int(sp.to_act(self.st))

    def over(self) -> bool:
        return self.to_act() < 0

    def stock_left(self) -> int:
        return int(sp.stock_left(self.st))

    def hand(self, seat: int) -> list[int]:
        return cards_of(self.st[sp.H0 + seat])

    def shown(self, card: int) -> int:
        return int(self.st[sp.SHOWN + card])

    def points(self, seat: int) -> int:
        return int(sp.deal_points(self.st, seat, self.r.params))

    def melds_points(self, seat: int) -> int:
        return int(self.st[sp.MELD0 + seat])

    def winner(self) -> int:
        return int(self.st[sp.WINNER])

    def meld_name(self, pattern: int) -> str:
        return self.r.pat_names[self.trump][pattern]

    def meld_value(self, pattern: int) -> int:
        return int(self.r.pat_value[self.trump, pattern])

    # ---- the legal actions
    def legal_plays(self) -> list[int]:
        m = sp.distinct_cards(self.st, sp.legal_plays(self.st, self.r.params, self.r.beat))
        return cards_of(m)

    def legal_melds(self) -> list[tuple[int, int]]:
        mb = np.zeros(sp.MAX_MELDS, dtype=np.int64)
        pb = np.zeros(sp.MAX_MELDS, dtype=np.int64)
        n = sp.legal_melds(self.st, self.r.params, self.r.pat_kind, self.r.pat_need, mb, pb)
        return [(int(mb[i]), int(pb[i])) for i in range(n)]

    def may_claim(self, seat: int | None = None) -> bool:
        seat = self.to_act() if seat is None else seat
        return bool(sp.may_claim(self.st, seat, self.r.params))

    def legal_actions(self, claims: bool = True) -> list[tuple]:
        seat = self.to_act()
        if seat < 0:
            return []
        if self.st[sp.TO_MELD] >= 0:
            acts = [("meld", m, p) for m, p in self.legal_melds()] + [("pass",)]
        else:
            acts = [("play", c) for c in self.legal_plays()]
        if claims and self.may_claim(seat):
            acts.append(("claim",))
        return acts

    # ---- stepping (checked: an illegal action changes nothing and names its rule)
    def apply(self, action: tuple) -> None:
        seat = self.to_act()
        if seat < 0:
            raise BinokelError("V7.5: the deal is over")
        kind = action[0]
        st, r = self.st, self.r
        if kind == "claim":
            sp.claim(st, seat, r.params)
            self.log.append(("claim", seat, self.points(seat) + int(st[sp.BEFORE0 + seat])))
            return
        if kind in ("meld", "pass"):
            if st[sp.TO_MELD] < 0:
                raise BinokelError("V7.3: only the winner of a trick may show a meld, before "
                                   "drawing, while the stock lasts")
            pos = int(st[sp.SPOS])
            if kind == "meld":
                mask, p = int(action[1]), int(action[2])
                if (mask, p) not in self.legal_melds():
                    raise BinokelError(f"V7.3: {' '.join(card_name(c) for c in cards_of(mask))}"
                                       f" is no meld seat {seat} may show now")
                self.log.append(("meld", seat, mask, self.meld_name(p), self.meld_value(p)))
                sp.apply_meld(st, np.int64(mask), p, r.params, r.pat_kind, r.pat_value)
            else:
                self.log.append(("pass", seat))
                sp.pass_meld(st)
            w = seat
            self.log.append(("draw", w, int(st[sp.STOCK + pos])))
            self.log.append(("draw", 1 - w, int(st[sp.STOCK + pos + 1])))
            return
        if kind != "play":
            raise BinokelError(f"unknown action {action!r}")
        if st[sp.TO_MELD] >= 0:
            raise BinokelError(f"V7.3: seat {seat} won the trick: show a meld or pass, then draw")
        card = int(action[1])
        legal = int(sp.legal_plays(st, r.params, r.beat))
        if not (legal >> card) & 1:
            if not (int(st[sp.H0 + seat]) >> card) & 1:
                raise BinokelError(f"V7.2: seat {seat} does not hold {card_name(card)}")
            raise BinokelError(f"V7.4: {card_name(card)} breaks the duty to follow suit, "
                               "else to trump")
        before = int(st[sp.MELD0 + seat])
        self.log.append(("play", seat, card))
        w = sp.play_card(st, card, r.params, r.beat)
        if st[sp.MELD0 + seat] != before:
            self.log.append(("dissle played", seat, card))
        if w >= 0:
            self.log.append(("trick", int(w)))
