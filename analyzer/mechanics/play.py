"""Card play (R6, R7): legal cards, trick winners and whole-deal playouts in numba.

Kernel representation (encoding in cards.py): a seat's hand is two int64 bit planes
``lo`` (holds >= 1 copy of type t, bit t) and ``hi`` (holds both copies).  A *legal set*
is a 24-bit mask of card types, so the random policy is "popcount, then select the k-th
set bit".  A trick is at most three card types in play order; the current winner is the
first card that no later card beat (R6: a card beats the winner only when it is of the
same suit and strictly higher, or a trump on a non-trump), so of two identical copies the
first played always stays ahead.

Rank order comes from ``KernelRules.rank_strength`` through :func:`beat_table`
(``beat[t]`` = mask of the types of t's suit that are strictly stronger than t).

Seats play in seat order: after seat s comes seat ``(s + 1) % 3`` (R2: forehand,
middlehand, rearhand).

Policies
--------
``POLICY_RANDOM``: uniformly random among the distinct legal card types (issue 3's W2).
``POLICY_HEURISTIC_V1``: the first heuristic (:func:`_heuristic_v1`) at every seat.
``POLICY_HEURISTIC_LIN``: as ``POLICY_HEURISTIC`` but the defenders play
:func:`_defend_lin` (a linear score of public features, fitted by policy iteration).
``POLICY_HEURISTIC_LIN2``: the same with :func:`_defend_lin2` (richer public features).
``POLICY_HEURISTIC``: the rule-based soloist-vs-two-defenders policy of
:func:`_heuristic`.  Its inputs are only what the deciding seat can know: its own hand,
the cards played so far (incl. the current trick), what the plays proved under R6 (voids;
no card beating the trick's winner after following or undertrumping), the seats'
roles, and, for the soloist only, the three cards not in any hand (the discard, R4).
Melds shown before the first lead (R5) and the face-up Tapp (R4) are *not* used.
"Unseen" below means: a copy neither in the own hand nor played (nor discarded, for the
soloist); a *master* is a card with no stronger unseen card of its suit.

- Leads: cash safe masters (no opponent known void in the suit while trumps are out);
  the soloist first pulls trumps with master trumps, then cashes side masters, then
  keeps drawing trumps with low ones while opponents may hold trumps; otherwise lead the
  cheapest card (points + future value) from the longest side suit.  Defenders lead a
  suit the soloist has shown void in (forcing a trump out of it) before anything else,
  and a suit the partner can ruff.
- Following, the legal set (R6) either all wins or all loses the trick so far.  Winning
  as last or before the partner (or safely: no stronger unseen card and no ruff
  threat from the next seat): take most points minus future value (a ten before an ace
  master, the cheapest sufficient trump).  Winning unsafely: the soloist plays its
  cheapest winner; a defender plays high so the soloist must spend a high card.
- Losing: if the partner wins the trick (safely), load points on it (tens before master
  aces, trumps only as a last resort); otherwise give the least points and value.
- Every seat plays for itself when there is no soloist (W2's heuristic variant).

Weights were set by paired duels on the same deals (``analyzer.bench.play.policy_duel``).

The play kernels allocate nothing and are compiled without reference counting
(``_nrt=False``): otherwise every call of ``_heuristic``/``legal_mask``/``card_beats``
increfs and decrefs the tables it is passed, atomically (W2H: 1.98 -> 1.84 us per deal,
same plays).
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.fits import shipped_weights
from analyzer.kernels.bits import ctpop, cttz, select_bit
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.rng import bounded, chunk_state

POLICY_RANDOM = 0
POLICY_HEURISTIC = 1
# 2 is analyzer.search.pimc.POLICY_PIMC, 6 its POLICY_PIMC_DEFENCE (one id space for every
# table; at a partners' table POLICY_HEURISTIC is heuristic_partners)
POLICY_HEURISTIC_V1 = 3
POLICY_HEURISTIC_LIN = 4
POLICY_HEURISTIC_LIN2 = 5
POLICY_NAMES = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC,
                "heuristic-v1": POLICY_HEURISTIC_V1, "heuristic-lin": POLICY_HEURISTIC_LIN,
                "heuristic-lin2": POLICY_HEURISTIC_LIN2}

N_SEATS = 3
LO24 = np.int64((1 << N_TYPES) - 1)
# trick log columns (play_out_logged): leader, 3 cards in play order, the 3 legal masks
# the players chose from, winner seat, trick points (incl. the last-trick bonus, R7)
LOG_LEADER, LOG_CARD0, LOG_LEGAL0, LOG_WINNER, LOG_POINTS = 0, 1, 4, 7, 8
LOG_COLS = 9


@njit
def suit_mask(s):
    """Lo-plane mask of the six types of suit ``s`` (encoding: type = suit * 6 + rank)."""
    return np.int64(63) << np.int64(6 * s)


@njit(_nrt=False)
def beat_table(kr, out):
    """``out[t]`` = mask of the types of t's suit strictly stronger than t (R6).

    Built from ``kr.rank_strength`` so a variant's rank order reaches every kernel.
    """
    for t in range(N_TYPES):
        m = np.int64(0)
        s = t // 6
        for u in range(6 * s, 6 * s + 6):
            if kr.rank_strength[u] > kr.rank_strength[t]:
                m |= np.int64(1) << np.int64(u)
        out[t] = m


@njit(_nrt=False)
def legal_mask(hand_lo, lead_suit, win_card, trump, beat):
    """Legal card types (mask) for a follower holding types ``hand_lo`` (R6).

    ``lead_suit``: suit of the led card; ``win_card``: the type currently winning the
    trick; ``trump``: 0..3 or -1 (Durch, no trump duty).  Obligations in R6's order:
    1. holding the led suit: play it, and a card that beats the winner if one does (when
       the trick is already trumped on a plain lead, no led-suit card beats: any of them);
    2. else holding trump: a trump, an overtrump if the winner is a trump and one beats
       it, else any trump (undertrump, R6 Reading);
    3. else any card.
    The leader (no card in the trick) may play any card held: ``hand_lo`` itself.
    """
    f = hand_lo & suit_mask(lead_suit)
    if f != 0:
        b = f & beat[win_card]
        return b if b != 0 else f
    if trump >= 0:
        t = hand_lo & suit_mask(trump)
        if t != 0:
            if win_card // 6 == trump:
                b = t & beat[win_card]
                return b if b != 0 else t
            return t
    return hand_lo


@njit(_nrt=False)
def proven_absent(c, lsuit, wcard, lhigh, trump, beat, blt):
    """Types a follower is proven not to hold after adding ``c`` to a trick led in
    ``lsuit``, won so far by ``wcard``, strongest led-suit card ``lhigh`` (R6 duties,
    read backwards; ``blt`` = ``KernelRules.beat_led_trumped``, V5.6).

    Not following proves a void in the led suit, and, when it was no trump, no trump
    either; trumping without beating a winning trump proves no higher trump; following
    without beating a led-suit winner proves no card that beats it (under V5.6 also
    when the trick was trumped: no card beating ``lhigh``).  Used by the heuristic's
    card counting (:func:`_play_core`) and by PIMC's world sampler (analyzer.search.pimc).
    """
    s = c // 6
    nv = np.int64(0)
    if s != lsuit:
        nv = suit_mask(lsuit)
        if trump >= 0 and s != trump:
            nv |= suit_mask(trump)
        elif trump >= 0 and wcard // 6 == trump and (beat[wcard] >> np.int64(c)) & 1 == 0:
            nv |= beat[wcard]
    elif wcard // 6 == lsuit and (beat[wcard] >> np.int64(c)) & 1 == 0:
        nv = beat[wcard]
    elif blt != 0 and (beat[lhigh] >> np.int64(c)) & 1 == 0:
        nv = beat[lhigh]
    return nv


@njit(_nrt=False)
def legal_mask_duty(hand_lo, lead_suit, win_card, led_high, trump, beat, beat_led_trumped,
                    relief):
    """Legal card types under the variant's play duties (R6, V5.6), from compiled flags.

    As :func:`legal_mask`, plus:

    - ``led_high``: the strongest card of the led suit in the trick (it is ``win_card``
      unless the trick is already trumped).
    - ``beat_led_trumped`` (``KernelRules.beat_led_trumped``): 1 = V5.6, a follower must
      beat ``led_high`` if it can even when the trick is already trumped; 0 = R6 (the
      duty is to beat the trick's winner, which no led-suit card can once it is trumped).
    - ``relief``: the hook for partner relief in team games (V5.6, ``kreuz-40``): 1 =
      the beat and trump duties are lifted (the caller's partner is winning the trick),
      following suit stays; 0 = no relief (every three-player game).

    With ``beat_led_trumped = relief = 0`` it is exactly :func:`legal_mask` (tested).
    """
    f = hand_lo & suit_mask(lead_suit)
    if f != 0:
        if relief != 0:
            return f
        tgt = led_high if beat_led_trumped != 0 else win_card
        b = f & beat[tgt]
        return b if b != 0 else f
    if relief != 0:
        return hand_lo
    if trump >= 0:
        t = hand_lo & suit_mask(trump)
        if t != 0:
            if win_card // 6 == trump:
                b = t & beat[win_card]
                return b if b != 0 else t
            return t
    return hand_lo


@njit(_nrt=False)
def card_beats(card, win_card, trump, beat):
    """True when ``card`` beats the current winner ``win_card`` (R6).

    Same suit and strictly stronger, or a trump on a non-trump.  An identical copy is not
    strictly stronger, so the first played copy keeps the trick.
    """
    if (beat[win_card] >> np.int64(card)) & 1:
        return True
    return trump >= 0 and card // 6 == trump and win_card // 6 != trump


@njit
def _count_in(lo, hi, m):
    """Number of cards (copies) of a two-plane multiset within type mask ``m``."""
    return ctpop(lo & m) + ctpop(hi & m)


# --------------------------------------------------------------------------- heuristic

@njit
def _holds_none(ab_p, unseen, s):
    """Seat p surely holds no card of suit ``s``: every unseen card of ``s`` is among the
    types p was proven not to hold (``ab_p``; a shown void, or the suit exhausted)."""
    return (unseen & suit_mask(s) & ~ab_p) == 0


@njit
def _pick3(p, a0, a1, a2):
    if p == 0:
        return a0
    if p == 1:
        return a1
    return a2


@njit
def _keep(c, st, beat_c, unseen, trump):
    """Future value of still holding card ``c`` (card-point units).

    Trumps are control: 10 + 2 x rank strength, +6 for the master trump.  A plain master
    (no stronger copy unseen) is a likely future trick: 16 (tuned by paired duels).
    Other cards: 0, so their choice goes by card points alone.
    """
    s = c // 6
    if trump >= 0 and s == trump:
        v = 10 + 2 * st
        if (unseen & beat_c) == 0:
            v += 6
        return v
    if (unseen & beat_c) == 0:
        return 16
    return 0


@njit
def _suit_len(olo, ohi, s):
    m = suit_mask(s)
    return ctpop(olo & m) + ctpop(ohi & m)


@njit
def _may_ruff(ab_p, s, unseen, trump):
    """A seat with proven-absent types ``ab_p`` could trump a plain card of suit ``s``:
    it surely holds none of ``s`` and may hold an unseen trump."""
    if trump < 0 or s == trump:
        return False
    if _holds_none(ab_p, unseen, trump):
        return False
    return _holds_none(ab_p, unseen, s)


@njit
def _safe_vs(c, beat_c, ab_p, lead_suit, unseen, trump):
    """Card ``c`` (winning the trick now) probably stays winning against the seat with
    proven-absent types ``ab_p`` (it may hold no unseen stronger card, and no ruff)."""
    s = c // 6
    if trump >= 0 and s == trump and lead_suit != trump:
        # ruffed a plain lead: p can overtrump only when it is void in the led suit too
        if (unseen & beat_c & ~ab_p) == 0:
            return True
        return not _holds_none(ab_p, unseen, lead_suit)
    if (unseen & beat_c & ~ab_p) != 0:
        return False
    return not _may_ruff(ab_p, s, unseen, trump)


@njit(_nrt=False)
def _heuristic_v1(seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
                  olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs):
    """The first heuristic (policy ``heuristic-v1``): every seat, soloist or defender.

    Kept unchanged so that the improved defence (:func:`_defend`) can be measured
    against it in duplicate; the default heuristic still plays this for the soloist and
    in games without a soloist.  Choose a card type from ``legal`` for ``seat`` using
    public information only.

    Parameters (all plain ints / the shared tables; no other seat's hand):
    olo, ohi : own hand planes.  klo, khi : cards known to be elsewhere and out of play
    (all cards played so far incl. the current trick; for the soloist also the discard).
    ab0, ab1, ab2 : per seat, the types that seat was proven by its plays not to hold
    (R6 inferences: a void in the led suit, and in trump when it did not trump; no card
    beating the trick's winner when it followed or trumped without beating it).
    k : cards already in the trick; lead_suit, win_card, win_seat, trick_pts, leader
    describe it.  soloist : -1 when every seat plays for itself.

    Returns the chosen card type.  Ties go to the lowest type index (deterministic).
    """
    # types with at least one copy that may sit in another hand
    known2 = ohi | khi | (olo & klo)
    unseen = LO24 & ~known2
    partner = -1
    if soloist >= 0 and seat != soloist:
        partner = 3 - seat - soloist
    best = -1
    best_score = np.int64(-(1 << 60))
    m = legal
    if k == 0:
        # ---- lead (R6: any card)
        pull = False
        for p in range(3):
            if p != seat and p != partner and trump >= 0:
                pull = pull or not _holds_none(_pick3(p, ab0, ab1, ab2), unseen, trump)
        while m != 0:
            c = cttz(m)
            m &= m - 1
            s = c // 6
            pts = cp[c]
            is_tr = trump >= 0 and s == trump
            master = (unseen & beat[c]) == 0
            ruff = False
            if not is_tr:
                for p in range(3):
                    if p != seat and p != partner and _may_ruff(_pick3(p, ab0, ab1, ab2), s, unseen, trump):
                        ruff = True

            score = np.int64(0)
            if master and not ruff:
                if is_tr:
                    # pull trumps while opponents may hold some; soloist most of all
                    if pull:
                        score = 4000 + (400 if partner < 0 else -2500) + pts
                    else:
                        score = 1000 + pts
                else:
                    score = 3000 + 4 * pts
            else:
                # lead low where a stronger card is still out: cheapest, least valuable
                score = 1000 - 8 * pts - 4 * _keep(c, rs[c], beat[c], unseen, trump)
                if partner >= 0 and not is_tr:
                    # defenders: partner void and may ruff while the soloist must follow
                    ab_pa = _pick3(partner, ab0, ab1, ab2)
                    ab_so = _pick3(soloist, ab0, ab1, ab2)
                    if _may_ruff(ab_pa, s, unseen, trump) and not _may_ruff(ab_so, s, unseen, trump):
                        score += 200
                    if _may_ruff(ab_so, s, unseen, trump):
                        # force the soloist to spend a trump (even before cashing masters)
                        score += 3000
                if partner < 0 and is_tr and pull:
                    # the soloist draws trumps with a low trump too (after cashing masters)
                    score += 2600
                if not is_tr:
                    # lead from long side suits: the others are short there (they must
                    # ruff or throw), and short suits are kept to become void and ruff.
                    # Weights measured by paired duels (soloist 60, defenders 300)
                    score += (60 if partner < 0 else 300) * _suit_len(olo, ohi, s)
                else:
                    score += _suit_len(olo, ohi, s)
            if score > best_score:
                best_score = score
                best = c
        return best
    nxt = (seat + 1) % 3
    ab_nxt = _pick3(nxt, ab0, ab1, ab2)
    last = k == 2
    wins = card_beats(cttz(legal), win_card, trump, beat)  # R6: legal set all win or all lose
    if wins:
        # which winner: team trick for sure if last, or if the next seat is the partner
        for_sure = last or (nxt == partner)
        while m != 0:
            c = cttz(m)
            m &= m - 1
            pts = cp[c]
            kp = _keep(c, rs[c], beat[c], unseen, trump)
            if for_sure or _safe_vs(c, beat[c], ab_nxt, lead_suit, unseen, trump):
                score = 4 * (trick_pts + pts - kp) + 100000
            elif partner >= 0:
                # a defender before the soloist: play high, so beating it costs the
                # soloist a high card (measured +0.3 for the defenders)
                score = 4 * (rs[c] * 4 - pts)
            else:
                score = -4 * (pts + kp)
            score -= _suit_len(olo, ohi, c // 6)
            if score > best_score:
                best_score = score
                best = c
        return best
    # losing the trick now: does my side win it anyway?
    team_wins = False
    if partner >= 0 and win_seat == partner:
        team_wins = last or _safe_vs(win_card, beat[win_card], ab_nxt, lead_suit, unseen, trump)
    elif partner >= 0 and nxt == partner and not last:
        # partner must ruff a plain lead if void in it and holding trump
        team_wins = (trump >= 0 and lead_suit != trump and win_card // 6 != trump
                     and _may_ruff(_pick3(partner, ab0, ab1, ab2), lead_suit, unseen, trump))
    while m != 0:
        c = cttz(m)
        m &= m - 1
        pts = cp[c]
        kp = _keep(c, rs[c], beat[c], unseen, trump)
        if team_wins:
            score = 4 * (pts - kp)
        else:
            score = -4 * (pts + kp)
        # the soloist throws from short suits (towards a void), defenders from long ones
        # (they keep short suits less useful; measured +0.3 for the defenders)
        if partner >= 0:
            score += 6 * _suit_len(olo, ohi, c // 6)
        else:
            score -= _suit_len(olo, ohi, c // 6)
        if score > best_score:
            best_score = score
            best = c
    return best


# --------------------------------------------------------------------------- defence

# Weights of the defenders' card choice (:func:`_defend`), in the score units of
# :func:`_heuristic_v1` (card points x 4, plus rule bonuses).  Data, not code: fitted by
# coordinate search on paired duplicate deals against ``heuristic-v1`` (20,000 trump
# deals after auction and the refitted fast exchange, seed 7; docs/methods.md#card-play), starting from heuristic-v1's own constants.
D_TRUMP_PULL = 0     # lead a master trump while the soloist may hold trumps (+ points)
D_CASH = 1           # lead a safe plain master (no ruff threat)
D_CASH_PTS = 2       # ... per card point
D_LOW_PTS = 3        # lead low: minus per card point
D_LOW_KEEP = 4       # lead low: minus per unit of future value (_keep_d)
D_PART_RUFF = 5      # lead low: the partner may ruff, the soloist must follow
D_SOLO_RUFF = 6      # lead low: the soloist may ruff (force a trump out of it)
D_SOLO_HIGHER = 7    # lead low: the soloist showed (R5) a stronger card of the suit
D_PART_HIGHER = 8    # lead low: the partner showed a stronger card (the soloist did not)
D_SOLO_NEXT = 9      # lead low: the soloist plays second (lead through it)
D_LEN = 10           # lead low: per own card of the suit
D_UNSEEN_LEN = 11    # lead low: per unseen card of the suit
D_TRUMP_LOW = 12     # lead low: a trump
D_WIN_KEEP = 13      # sure winner: minus per unit of future value
D_UNSAFE_RS = 14     # unsure winner before the soloist: per rank strength (play high)
D_UNSAFE_PTS = 15    # ... minus per card point
D_UNSAFE_KEEP = 16   # ... minus per unit of future value
D_SMEAR_PTS = 17     # losing to the partner's sure trick: per card point
D_SMEAR_KEEP = 18    # ... minus per unit of future value
D_LOSE_KEEP = 19     # losing to the soloist: minus per unit of future value (and 4 x points)
D_K_TRUMP = 20       # _keep_d: a trump
D_K_TRUMP_RS = 21    # ... per rank strength
D_K_TRUMP_TOP = 22   # ... the master trump
D_K_MASTER = 23      # _keep_d: a plain master
D_LOSE_LEN = 24      # losing: per own card of the suit (throw from long suits)
D_K_MASTER_RS = 25   # _keep_d: a plain master, per rank strength (keep the ace, give the ten)
D_K_PLAIN_RS = 26    # _keep_d: another plain card, per rank strength
DEFENCE_WEIGHTS = np.array([
    1125, 3750, 0, 2, 4, 200, 3000, -12, 0, 0, 300, -4, 0,   # leads
    10, 8, 4, 0, 2, 5, 4,                                     # following
    10, 4, 6, 0, 6, 1, 0,                                     # future value, throws
], dtype=np.int64)
# heuristic-v1's values, for comparison: 1500 (= 4000 - 2500), 3000, 4, 8, 4, 200, 3000,
# -, -, -, 300, -, - | 4, 16, 4, 0, 4, 4, 4 | 10, 2, 6, 16, 6, -, -


@njit
def _keep_d(wt, c, st, beat_c, unseen, trump):
    """Future value of still holding ``c`` for a defender (weights ``wt``; cf. _keep)."""
    if trump >= 0 and c // 6 == trump:
        v = wt[D_K_TRUMP] + wt[D_K_TRUMP_RS] * st
        if (unseen & beat_c) == 0:
            v += wt[D_K_TRUMP_TOP]
        return v
    if (unseen & beat_c) == 0:
        return wt[D_K_MASTER] + wt[D_K_MASTER_RS] * st
    return wt[D_K_PLAIN_RS] * st


@njit(_nrt=False)
def _defend(seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
            olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp):
    """A defender's card (``seat`` != ``soloist`` >= 0) from public information only.

    Inputs as :func:`_heuristic_v1`, plus ``kso`` / ``ksp``: the types the soloist / the
    partner showed as melds before the first lead (R5) and still hold (shown and not
    played since).  The rules are heuristic-v1's (cash safe masters, lead low from long
    suits, force the soloist to ruff, win cheaply or high before the soloist, load points
    on the partner's sure trick) with the weights :data:`DEFENCE_WEIGHTS`; what changed
    is measured in docs/methods.md#card-play.  Ties: lowest type index.
    """
    wt = DEFENCE_WEIGHTS
    known2 = ohi | khi | (olo & klo)
    unseen = LO24 & ~known2
    partner = 3 - seat - soloist
    ab_pa = _pick3(partner, ab0, ab1, ab2)
    ab_so = _pick3(soloist, ab0, ab1, ab2)
    best = -1
    best_score = np.int64(-(1 << 60))
    m = legal
    if k == 0:
        # ---- lead (R6: any card)
        pull = trump >= 0 and not _holds_none(ab_so, unseen, trump)
        so_next = (seat + 1) % 3 == soloist
        while m != 0:
            c = cttz(m)
            m &= m - 1
            s = c // 6
            pts = cp[c]
            is_tr = trump >= 0 and s == trump
            ruff = (not is_tr) and _may_ruff(ab_so, s, unseen, trump)
            if (unseen & beat[c]) == 0 and not ruff:
                if is_tr:
                    score = (wt[D_TRUMP_PULL] if pull else 1000) + pts
                else:
                    score = wt[D_CASH] + wt[D_CASH_PTS] * pts
            else:
                score = (1000 - wt[D_LOW_PTS] * pts
                         - wt[D_LOW_KEEP] * _keep_d(wt, c, rs[c], beat[c], unseen, trump))
                if is_tr:
                    score += wt[D_TRUMP_LOW] + _suit_len(olo, ohi, s)
                else:
                    if ruff:
                        score += wt[D_SOLO_RUFF]
                    elif _may_ruff(ab_pa, s, unseen, trump):
                        score += wt[D_PART_RUFF]
                    so_hi = (kso & beat[c] & unseen) != 0
                    if so_hi:
                        score += wt[D_SOLO_HIGHER]
                    elif (ksp & beat[c] & unseen) != 0:
                        score += wt[D_PART_HIGHER]
                    if so_next:
                        score += wt[D_SOLO_NEXT]
                    score += (wt[D_LEN] * _suit_len(olo, ohi, s)
                              + wt[D_UNSEEN_LEN] * ctpop(unseen & suit_mask(s)))
            if score > best_score:
                best_score = score
                best = c
        return best
    nxt = (seat + 1) % 3
    ab_nxt = _pick3(nxt, ab0, ab1, ab2)
    last = k == 2
    if card_beats(cttz(legal), win_card, trump, beat):   # R6: all win or all lose
        for_sure = last or nxt == partner
        while m != 0:
            c = cttz(m)
            m &= m - 1
            pts = cp[c]
            kp = _keep_d(wt, c, rs[c], beat[c], unseen, trump)
            if for_sure or _safe_vs(c, beat[c], ab_nxt, lead_suit, unseen, trump):
                score = 4 * (trick_pts + pts) - wt[D_WIN_KEEP] * kp + 100000
            else:
                # before the soloist: play high, so beating it costs the soloist a high card
                score = wt[D_UNSAFE_RS] * rs[c] - wt[D_UNSAFE_PTS] * pts - wt[D_UNSAFE_KEEP] * kp
            score -= _suit_len(olo, ohi, c // 6)
            if score > best_score:
                best_score = score
                best = c
        return best
    # losing the trick now: does the partner win it anyway?
    team_wins = False
    if win_seat == partner:
        team_wins = last or _safe_vs(win_card, beat[win_card], ab_nxt, lead_suit, unseen, trump)
    elif nxt == partner and not last:
        # the partner must ruff a plain lead if void in it and holding trump
        team_wins = (trump >= 0 and lead_suit != trump and win_card // 6 != trump
                     and _may_ruff(ab_pa, lead_suit, unseen, trump))
    while m != 0:
        c = cttz(m)
        m &= m - 1
        pts = cp[c]
        kp = _keep_d(wt, c, rs[c], beat[c], unseen, trump)
        if team_wins:
            score = wt[D_SMEAR_PTS] * pts - wt[D_SMEAR_KEEP] * kp
        else:
            score = -4 * pts - wt[D_LOSE_KEEP] * kp
        score += wt[D_LOSE_LEN] * _suit_len(olo, ohi, c // 6)
        if score > best_score:
            best_score = score
            best = c
    return best


# --------------------------------------------------------------------------- defence-lin

# The defence of policy ``heuristic-lin`` (:func:`_defend_lin`): per legal card a linear
# score of the features below, in one of five decision contexts; the card with the
# lowest predicted soloist card points is played.  Fitted by approximate policy
# iteration (docs/methods.md#card-play): deals after auction and fast
# exchange (seed 7) are played with the current defence; at every defender decision
# with a choice each legal card is played and the deal finished with the same policies
# in the true deal (a roll-out: the label, soloist card points); a ridge regression
# (lambda 10) of those labels, centred per decision, on the features gives the next
# weights.  The hidden cards enter only the labels, averaged over by the regression;
# the features are the defender's information (own hand, played cards, R6 proofs,
# shown melds R5).  The rows are data (data/fits/defence_lin.json, which names the command
# that regenerates it: analyzer.analyses.fit_defence, rounded to 3 decimals).
LIN_F = 18
LIN_CTX_LEAD, LIN_CTX_WIN_SURE, LIN_CTX_WIN_UNSURE, LIN_CTX_LOSE_TEAM, LIN_CTX_LOSE = 0, 1, 2, 3, 4
# features (per legal card c):  0 c is _defend's choice; 1 card points; 2 trump; 3 rank
# strength; 4 master (no stronger unseen copy); 5 own cards of c's suit; 6 unseen cards
# of the suit; 7 the soloist may ruff the suit (plain c); 8 the partner may ruff it;
# 9 the soloist showed (R5) a stronger unplayed card of the suit; 10 the partner did;
# 11 card points, 5 or fewer tricks left; 12 master, late; 13 trump, late; 14 _defend's
# future value (_keep_d); 15 singleton; 16 card points when the soloist plays next;
# 17 card points of a master.  Rows: lead, winning surely (last, or the partner after),
# winning before the soloist, losing to the partner's (probably) safe trick, losing.
DEFENCE_LIN = shipped_weights("defence_lin", (5, LIN_F))


@njit(_nrt=False)
def _lin_setup(seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
               olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp):
    """The per-decision part of :func:`_defend_lin` (inputs as :func:`_defend`): returns
    ``(ctx, dflt, unseen, ab_so, ab_pa, late, so_next)`` -- the decision context (a row of
    :data:`DEFENCE_LIN`), :func:`_defend`'s choice, the unseen types, the soloist's and
    the partner's proven absences, 1.0 when 5 or fewer tricks are left, 1.0 when the
    soloist plays next.  Shared with the fit (analyzer.analyses.fit_defence), so the
    fitted features are the played ones."""
    dflt = _defend(seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
                   olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp)
    known2 = ohi | khi | (olo & klo)
    unseen = LO24 & ~known2
    partner = 3 - seat - soloist
    ab_pa = _pick3(partner, ab0, ab1, ab2)
    ab_so = _pick3(soloist, ab0, ab1, ab2)
    late = 1.0 if ctpop(olo) + ctpop(ohi) <= 5 else 0.0
    nxt = (seat + 1) % 3
    ab_nxt = _pick3(nxt, ab0, ab1, ab2)
    ctx = LIN_CTX_LEAD
    if k > 0:
        if card_beats(cttz(legal), win_card, trump, beat):   # R6: all win or all lose
            ctx = LIN_CTX_WIN_SURE if (k == 2 or nxt == partner) else LIN_CTX_WIN_UNSURE
        else:
            tw = False
            if win_seat == partner:
                tw = k == 2 or _safe_vs(win_card, beat[win_card], ab_nxt, lead_suit, unseen, trump)
            elif nxt == partner and k < 2:
                tw = (trump >= 0 and lead_suit != trump and win_card // 6 != trump
                      and _may_ruff(ab_pa, lead_suit, unseen, trump))
                if not tw and win_card // 6 == lead_suit:
                    # the partner (last) showed a led-suit card beating the winner: R6 makes it beat
                    tw = (ksp & beat[win_card] & unseen) != 0
            ctx = LIN_CTX_LOSE_TEAM if tw else LIN_CTX_LOSE
    so_next = 1.0 if nxt == soloist else 0.0
    return ctx, dflt, unseen, ab_so, ab_pa, late, so_next


@njit(_nrt=False)
def _lin_features(c, dflt, unseen, ab_so, ab_pa, late, so_next, olo, ohi, trump, beat, cp, rs,
                  kso, ksp):
    """The :data:`LIN_F` features of legal card ``c`` (list above :data:`DEFENCE_LIN`) as a
    tuple of floats; the other inputs from :func:`_lin_setup`.  Public information only:
    the own hand, unseen types, proven absences, shown melds (R5), _defend's choice."""
    s = c // 6
    pts = float(cp[c])
    is_tr = 1.0 if (trump >= 0 and s == trump) else 0.0
    master = 1.0 if (unseen & beat[c]) == 0 else 0.0
    sl = _suit_len(olo, ohi, s)
    ruff_so = 0.0
    ruff_pa = 0.0
    if is_tr == 0.0:
        if _may_ruff(ab_so, s, unseen, trump):
            ruff_so = 1.0
        if _may_ruff(ab_pa, s, unseen, trump):
            ruff_pa = 1.0
    return (1.0 if c == dflt else 0.0, pts, is_tr, float(rs[c]), master, float(sl),
            float(ctpop(unseen & suit_mask(s))), ruff_so, ruff_pa,
            1.0 if (kso & beat[c] & unseen) != 0 else 0.0,
            1.0 if (ksp & beat[c] & unseen) != 0 else 0.0,
            late * pts, late * master, late * is_tr,
            float(_keep_d(DEFENCE_WEIGHTS, c, rs[c], beat[c], unseen, trump)),
            1.0 if sl == 1 else 0.0, so_next * pts, master * pts)


@njit(_nrt=False)
def _lin_score(w, f, so_next):
    """``w . f`` for one row ``w`` of the weights and the features ``f`` of
    :func:`_lin_features`, summed in the order of the shipped policy (the products
    w16 * f16 + w17 * f17 are computed as (w16 * so_next + w17 * master) * points, and
    zero features add an exact zero), so the choices are those the weights were
    measured with, bit for bit."""
    v = (w[0] * f[0] + w[1] * f[1] + w[2] * f[2] + w[3] * f[3]
         + w[4] * f[4] + w[5] * f[5] + w[6] * f[6])
    v += w[7] * f[7]
    v += w[8] * f[8]
    v += w[9] * f[9]
    v += w[10] * f[10]
    v += w[11] * f[11] + w[12] * f[12] + w[13] * f[13]
    v += w[14] * f[14]
    v += w[15] * f[15]
    v += (w[16] * so_next + w[17] * f[4]) * f[1]
    return v


@njit(_nrt=False)
def _defend_lin_w(W, seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
                  olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp):
    """:func:`_defend_lin` with the weights ``W`` (float64[5, LIN_F]) as an argument (the
    fit plays the policy being fitted, analyzer.analyses.fit_defence)."""
    ctx, dflt, unseen, ab_so, ab_pa, late, so_next = _lin_setup(
        seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
        olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp)
    w = W[ctx]
    best = -1
    bs = 0.0
    m = legal
    while m != 0:
        c = cttz(m)
        m &= m - 1
        f = _lin_features(c, dflt, unseen, ab_so, ab_pa, late, so_next, olo, ohi, trump,
                          beat, cp, rs, kso, ksp)
        v = _lin_score(w, f, so_next)
        if best < 0 or v < bs:
            best = c
            bs = v
    return best


@njit(_nrt=False)
def _defend_lin(seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
                olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp):
    """A defender's card under policy ``heuristic-lin`` (inputs as :func:`_defend`): the
    legal card with the lowest linear score :data:`DEFENCE_LIN` of public features
    (:func:`_lin_features`).  Ties: lowest type index."""
    return _defend_lin_w(DEFENCE_LIN, seat, legal, k, lead_suit, win_card, win_seat, trick_pts,
                         leader, olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs,
                         kso, ksp)


@njit(_nrt=False)
def _heuristic_lin(seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
                   olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp):
    """Policy ``heuristic-lin``: :func:`_defend_lin` for a defender, else
    :func:`_heuristic_v1` (the soloist plays as under the default heuristic)."""
    if soloist >= 0 and seat != soloist:
        return _defend_lin(seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
                           olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp)
    return _heuristic_v1(seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
                         olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs)


# --------------------------------------------------------------------------- defence-lin2

# The defence of policy ``heuristic-lin2`` (:func:`_defend_lin2`): as heuristic-lin
# (a linear score per legal card, the lowest predicted soloist card points played) with
# richer public features and six contexts (the lead split by who plays second).  The
# features: heuristic-lin's 18 (:func:`_lin_features`) and 15 more, per legal card c:
# 18 the soloist surely holds no card of c's suit (plain c; R6 proofs, or the suit is out);
# 19 the partner surely holds none; 20 trump x unseen trump types; 21 trump x the soloist
# surely holds no trump; 22 card points x points already in the trick / 10; 23 card
# points x the partner still plays after me in this trick; 24 rank strength x the same;
# 25 c is my lowest card of its suit; 26 my highest; 27 unseen types stronger than c;
# 28 card points of the unseen types of c's suit / 10; 29 trump x my trump count;
# 30 master x the soloist plays next; 31 card points x the soloist may ruff c's suit;
# 32 card points x the soloist already played to this trick.  Rows: lead with the
# soloist second, lead with the partner second, then heuristic-lin's four following
# contexts.  Fitted by the same policy iteration (analyzer.analyses.fit_defence); the rows
# are data (data/fits/defence_lin2.json, with the command that regenerates them).
LIN2_F = 33
LIN2_CTX = 6
DEFENCE_LIN2 = shipped_weights("defence_lin2", (LIN2_CTX, LIN2_F))


@njit(_nrt=False)
def _lin2_setup(seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
                olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp):
    """The per-decision part of :func:`_defend_lin2`: :func:`_lin_setup`'s values (the
    context renumbered to :data:`LIN2_CTX` rows) and ``extra`` = (the partner still plays
    after me, trick points so far, unseen trump types, the soloist surely holds no trump,
    my trump count, the soloist already played to this trick).  Public information only."""
    ctx, dflt, unseen, ab_so, ab_pa, late, so_next = _lin_setup(
        seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
        olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp)
    partner = 3 - seat - soloist
    nxt = (seat + 1) % 3
    ctx2 = ctx + 1
    if ctx == LIN_CTX_LEAD and so_next == 0.0:
        ctx2 = 0 + 1
    elif ctx == LIN_CTX_LEAD:
        ctx2 = 0
    pa_after = 1.0 if (k == 0 or (k == 1 and nxt == partner)) else 0.0
    so_played = 1.0 if (k == 2 or (k == 1 and leader == soloist)) else 0.0
    n_tr = 0.0
    so_no_tr = 0.0
    own_tr = 0.0
    if trump >= 0:
        n_tr = float(ctpop(unseen & suit_mask(trump)))
        so_no_tr = 1.0 if _holds_none(ab_so, unseen, trump) else 0.0
        own_tr = float(_suit_len(olo, ohi, trump))
    extra = (pa_after, float(trick_pts), n_tr, so_no_tr, own_tr, so_played)
    return ctx2, dflt, unseen, ab_so, ab_pa, late, so_next, extra


@njit(_nrt=False)
def _lin2_features(c, dflt, unseen, ab_so, ab_pa, late, so_next, extra, olo, ohi, trump,
                   beat, cp, rs, kso, ksp):
    """The :data:`LIN2_F` features of legal card ``c`` (list above :data:`DEFENCE_LIN2`):
    :func:`_lin_features`'s 18, then 15 more from the same public inputs."""
    f = _lin_features(c, dflt, unseen, ab_so, ab_pa, late, so_next, olo, ohi, trump, beat,
                      cp, rs, kso, ksp)
    pa_after, tpts, n_tr, so_no_tr, own_tr, so_played = extra
    s = c // 6
    sm = suit_mask(s)
    pts = f[1]
    is_tr = f[2]
    so_void = 0.0
    pa_void = 0.0
    if is_tr == 0.0:
        if _holds_none(ab_so, unseen, s):
            so_void = 1.0
        if _holds_none(ab_pa, unseen, s):
            pa_void = 1.0
    weaker = sm & ~beat[c] & ~(np.int64(1) << np.int64(c))
    own = olo & sm
    upts = 0
    um = unseen & sm
    while um != 0:
        t = cttz(um)
        um &= um - 1
        upts += cp[t]
    return f + (so_void, pa_void, is_tr * n_tr, is_tr * so_no_tr, pts * tpts * 0.1,
                pts * pa_after, f[3] * pa_after,
                1.0 if (own & weaker) == 0 else 0.0, 1.0 if (own & beat[c]) == 0 else 0.0,
                float(ctpop(unseen & beat[c])), upts * 0.1, is_tr * own_tr,
                f[4] * so_next, pts * f[7], pts * so_played)


@njit(_nrt=False)
def _lin2_score(w, f):
    """``w . f`` (weights row ``w``, features ``f`` of :func:`_lin2_features`), summed
    in feature order (written out: a loop over the tuple indexes it at run time, 2x
    slower)."""
    v = w[0] * f[0]
    v += w[1] * f[1]
    v += w[2] * f[2]
    v += w[3] * f[3]
    v += w[4] * f[4]
    v += w[5] * f[5]
    v += w[6] * f[6]
    v += w[7] * f[7]
    v += w[8] * f[8]
    v += w[9] * f[9]
    v += w[10] * f[10]
    v += w[11] * f[11]
    v += w[12] * f[12]
    v += w[13] * f[13]
    v += w[14] * f[14]
    v += w[15] * f[15]
    v += w[16] * f[16]
    v += w[17] * f[17]
    v += w[18] * f[18]
    v += w[19] * f[19]
    v += w[20] * f[20]
    v += w[21] * f[21]
    v += w[22] * f[22]
    v += w[23] * f[23]
    v += w[24] * f[24]
    v += w[25] * f[25]
    v += w[26] * f[26]
    v += w[27] * f[27]
    v += w[28] * f[28]
    v += w[29] * f[29]
    v += w[30] * f[30]
    v += w[31] * f[31]
    v += w[32] * f[32]
    return v


@njit(_nrt=False)
def _defend_lin2_w(W, seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
                   olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp):
    """:func:`_defend_lin2` with the weights ``W`` (float64[LIN2_CTX, LIN2_F]) as an
    argument (the fit plays the same loop, analyzer.analyses.fit_defence)."""
    ctx, dflt, unseen, ab_so, ab_pa, late, so_next, extra = _lin2_setup(
        seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
        olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp)
    w = W[ctx]
    best = -1
    bs = 0.0
    m = legal
    while m != 0:
        c = cttz(m)
        m &= m - 1
        f = _lin2_features(c, dflt, unseen, ab_so, ab_pa, late, so_next, extra, olo, ohi,
                           trump, beat, cp, rs, kso, ksp)
        v = _lin2_score(w, f)
        if best < 0 or v < bs:
            best = c
            bs = v
    return best


@njit(_nrt=False)
def _defend_lin2(seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
                 olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp):
    """A defender's card under policy ``heuristic-lin2``: the legal card with the lowest
    linear score :data:`DEFENCE_LIN2` of public features (:func:`_lin2_features`).  Ties:
    lowest type index."""
    return _defend_lin2_w(DEFENCE_LIN2, seat, legal, k, lead_suit, win_card, win_seat,
                          trick_pts, leader, olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist,
                          beat, cp, rs, kso, ksp)


@njit(_nrt=False)
def _heuristic_lin2(seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
                    olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp):
    """Policy ``heuristic-lin2``: :func:`_defend_lin2` for a defender, else
    :func:`_heuristic_v1` (the soloist plays as under the default heuristic)."""
    if soloist >= 0 and seat != soloist:
        return _defend_lin2(seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
                            olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs,
                            kso, ksp)
    return _heuristic_v1(seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
                         olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs)


@njit(_nrt=False)
def _heuristic_melds(seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
                     olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp):
    """The heuristic (policy ``heuristic``): :func:`_defend` for a defender, else
    :func:`_heuristic_v1`.  ``kso``/``ksp``: see :func:`_defend` (unused otherwise)."""
    if soloist >= 0 and seat != soloist:
        return _defend(seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
                       olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp)
    return _heuristic_v1(seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
                         olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs)


@njit(_nrt=False)
def _heuristic(seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
               olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs):
    """:func:`_heuristic_melds` without the shown melds (callers that do not track
    them, e.g. PIMC's play-outs): the same rules with ``kso = ksp = 0``."""
    return _heuristic_melds(seat, legal, k, lead_suit, win_card, win_seat, trick_pts, leader,
                            olo, ohi, klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs,
                            np.int64(0), np.int64(0))


# --------------------------------------------------------------------------- partners' heuristic
# A table of partners (V1: seats 0..3, partners opposite, side seat % 2) with hands as
# uint8[24] counts of the card types (any copies per type: V4.1, V5.1, V6.1).

@njit(_nrt=False)
def unseen_counts_mask(own, played, copies):
    """Types of which a copy may be in another hand: ``copies - own - played > 0`` per type
    (``own``, ``played``: uint8[24] counts; ``copies``: the deck's copies per type)."""
    m = np.int64(0)
    for t in range(N_TYPES):
        if own[t] + played[t] < copies[t]:
            m |= np.int64(1) << np.int64(t)
    return m


@njit(_nrt=False)
def _threat(p_ab, c, lead_suit, unseen, trump, beat):
    """A later seat with proven-absent types ``p_ab`` might beat card ``c``, which now
    wins a trick led in ``lead_suit`` (V6.4: it must follow if it can)."""
    s = c // 6
    stronger = (unseen & beat[c] & ~p_ab) != 0
    if s == lead_suit:
        if stronger:
            return True
        return s != trump and _may_ruff(p_ab, lead_suit, unseen, trump)
    # c is a trump on a plain lead: only a seat void in the led suit may overtrump
    return stronger and _holds_none(p_ab, unseen, lead_suit)


@njit(_nrt=False)
def _suit_len_counts(own, s):
    """Cards of suit ``s`` in the counts ``own``, ranks 0..4 (the low rank is not counted:
    the weights of :func:`heuristic_partners` were set so)."""
    n = 0
    for r in range(5):
        n += own[6 * s + r]
    return n


@njit(_nrt=False)
def heuristic_partners(seat, legal, k, lead_suit, win_card, win_seat, trick_pts,
                       own, played, ab, trump, bidder, beat, cp, rs, copies):
    """Choose a card type from ``legal`` for ``seat`` at a partners' table (V1) from
    public information only; ``trump`` 0..3.

    Parameters: ``own`` uint8[24] the seat's counts; ``played`` uint8[24] the cards it
    knows are out of the other hands (played so far incl. the current trick, and for the
    soloist its discard); ``ab`` int64[4] per seat the types its plays proved it lacks;
    ``copies`` the deck's copies per type; ``k`` cards in the trick so far, with its
    ``lead_suit``, ``win_card``, ``win_seat``, ``trick_pts``; ``bidder`` seat (public
    after the auction).  No other hand enters.  Ties go to the lowest type.  The future
    value of a card is :func:`_keep`'s (trumps are control, a plain master a trick).
    """
    unseen = unseen_counts_mask(own, played, copies)
    partner = (seat + 2) % 4
    o1 = (seat + 1) % 4
    o3 = (seat + 3) % 4
    my_side_bid = bidder % 2 == seat % 2
    best = -1
    best_score = np.int64(-(1 << 60))
    m = legal
    if k == 0:
        opp_trumps = (not _holds_none(ab[o1], unseen, trump)
                      or not _holds_none(ab[o3], unseen, trump))
        while m != 0:
            c = cttz(m)
            m &= m - 1
            s = c // 6
            pts = cp[c]
            is_tr = s == trump
            master = (unseen & beat[c]) == 0
            ruffed = (not is_tr) and (_may_ruff(ab[o1], s, unseen, trump)
                                      or _may_ruff(ab[o3], s, unseen, trump))
            if master and not ruffed:
                if is_tr:
                    score = (4000 if my_side_bid else 2000) + pts if opp_trumps else 500 + pts
                else:
                    score = 3000 + 4 * pts
            else:
                score = 1000 - 8 * pts - 4 * _keep(c, rs[c], beat[c], unseen, trump)
                if not is_tr:
                    # lead to the partner's known void: the partner ruffs (V6.4 duty)
                    if _may_ruff(ab[partner], s, unseen, trump) and not ruffed:
                        score += 2000
                    score += 60 * _suit_len_counts(own, s)
            if score > best_score:
                best_score = score
                best = c
        return best
    later1 = k <= 2          # seat + 1 (an opponent) plays after me
    partner_later = k == 1   # the partner plays after me
    # partner's card stays the winner: no later opponent may beat it
    partner_safe = False
    if win_seat == partner:
        partner_safe = True
        if later1 and _threat(ab[o1], win_card, lead_suit, unseen, trump, beat):
            partner_safe = False
    while m != 0:
        c = cttz(m)
        m &= m - 1
        pts = cp[c]
        kp = _keep(c, rs[c], beat[c], unseen, trump)
        wins = card_beats(c, win_card, trump, beat)
        if partner_safe:
            # load counters, do not overtake (an overtaking card is worth its future)
            score = 4 * (pts - kp) - (400 if wins else 0)
        elif wins:
            safe = not (later1 and _threat(ab[o1], c, lead_suit, unseen, trump, beat))
            if safe:
                score = 100000 + 4 * (trick_pts + pts) - 4 * kp
            elif partner_later:
                # an unsafe winner before the partner: leave it to the partner, cheaply
                score = -4 * (pts + kp) - 200
            else:
                score = -4 * (pts + kp) - 50 + (rs[c] if trick_pts > 0 else 0)
        else:
            score = -4 * (pts + kp)
        score += _suit_len_counts(own, c // 6)
        if score > best_score:
            best_score = score
            best = c
    return best


@njit(_nrt=False)
def shown_planes(lo, hi, trump, kr):
    """The cards a hand shows for its melds with ``trump`` before the first lead (R5).

    ``lo``/``hi``: the hand's planes.  Returns the shown cards' planes ``(slo, shi)``
    (types shown at least once / twice): per suit the family's A-10-K-Q-J f times and
    the pairs' K and Q (R5 type F reading: f = min count; pairs min(k, q), or
    min(k - 1, q - 1) beside one family); per rank with a type-Q value, the copies held in
    every suit; the binokel cards (type B; and the grand binokel's where the variant has
    one, V2.5); every trump nine where it melds (type D).  A card serving several melds is
    shown once.  Same as ``analyzer.search.pimc.shown_counts`` (tested).
    """
    slo = np.int64(0)
    shi = np.int64(0)
    for s in range(4):
        f = 2
        for r in range(5):
            b = np.int64(1) << np.int64(6 * s + r)
            f = min(f, (1 if lo & b else 0) + (1 if hi & b else 0))
        bk = np.int64(1) << np.int64(6 * s + 2)
        bq = np.int64(1) << np.int64(6 * s + 3)
        nk = (1 if lo & bk else 0) + (1 if hi & bk else 0)
        nq = (1 if lo & bq else 0) + (1 if hi & bq else 0)
        pairs = 0 if f == 2 else (min(nk - 1, nq - 1) if f == 1 else min(nk, nq))
        fam = np.int64(31) << np.int64(6 * s)
        if f >= 1:
            slo |= fam
        if f >= 2:
            shi |= fam
        if f + pairs >= 1:
            slo |= bk | bq
        if f + pairs >= 2:
            shi |= bk | bq
    for r in range(6):
        if kr.fours_value[r] != 0:
            fm = kr.fours_mask[r]
            if (lo & fm) == fm:
                slo |= fm
            if (hi & fm) == fm:
                shi |= fm
    for j in range(2):
        bm = np.int64(kr.binokel_mask)
        if j == 1:
            bm = np.int64(kr.grand_binokel_mask) if kr.grand_binokel_value > 0 else np.int64(0)
        if bm != 0 and (lo & bm) == bm:
            slo |= bm
            if (hi & bm) == bm:
                shi |= bm
    if trump >= 0 and kr.trump_nine_value > 0:
        b9 = np.int64(1) << np.int64(6 * trump + kr.nine_rank)
        slo |= lo & b9
        shi |= hi & b9
    return slo, shi


# --------------------------------------------------------------------------- core

@njit(_nrt=False)
def _random_pick(legal, state):
    """Uniform among the distinct legal types: the k-th set bit, k uniform in [0, n)
    (one draw even when n = 1: a branch-free loop is faster than skipping it)."""
    return select_bit(legal, bounded(state, ctpop(legal)))


@njit(_nrt=False)
def _random_core(lo, hi, trump, leader, soloist, state, kr, beat, points, tricks):
    """All seats random (the W2 policy): the lean loop of :func:`_play_core`.

    Same card choices and RNG use as ``_play_core`` with ``POLICY_RANDOM`` for every
    seat (tested), written with selects instead of branches where the outcome is
    random (legal set, removing a copy, trick winner): mispredicted branches were the
    main cost of a random playout.
    """
    n_tricks = kr.hand_size
    bonus = kr.last_trick_bonus
    cp = kr.card_points  # hoisted: an attribute read per card costs a refcount pair
    tm = np.int64(0)
    if trump >= 0:
        tm = suit_mask(trump)
    ld = leader
    bl = kr.beat_led_trumped
    for trick in range(n_tricks):
        tp = 0
        wcard = -1
        wseat = -1
        lsuit = -1
        lhigh = -1
        for k in range(3):
            seat = ld + k
            if seat >= 3:
                seat -= 3
            h = lo[seat]
            if k == 0:
                legal = h
            else:
                # legal_mask_duty() as selects, R6 order: led suit (beating the winner,
                # or the led suit's highest card under V5.6, if possible), else trump
                # (overtrumping a trump winner if possible), else any
                bw = beat[wcard]
                f = h & suit_mask(lsuit)
                bf = f & beat[lhigh if bl != 0 else wcard]
                t = h & tm
                bt = t & bw
                tset = bt if bt != 0 else t
                tset = tset if (trump >= 0 and wcard // 6 == trump) else t
                legal = tset if t != 0 else h
                fset = bf if bf != 0 else f
                legal = fset if f != 0 else legal
            c = select_bit(legal, bounded(state, ctpop(legal)))
            b = np.int64(1) << np.int64(c)
            hh = hi[seat]
            lo[seat] = lo[seat] & ~(b & ~hh)   # one copy: from hi if two were held
            hi[seat] = hh & ~b
            if k == 0:
                wcard = c
                wseat = seat
                lsuit = c // 6
                lhigh = c
            else:
                up = ((beat[lhigh] >> np.int64(c)) & 1) == 1   # c beats the led suit's highest
                lhigh = c if up else lhigh
                wins = ((beat[wcard] >> np.int64(c)) & 1) == 1
                wins = wins or (trump >= 0 and c // 6 == trump and wcard // 6 != trump)
                wcard = c if wins else wcard
                wseat = seat if wins else wseat
            tp += cp[c]
        if trick == n_tricks - 1:
            tp += bonus  # R7
        points[wseat] += tp
        tricks[wseat] += 1
        ld = wseat
        if trump < 0 and soloist >= 0 and wseat != soloist:
            return trick + 1  # R4
    return n_tricks


@njit
def _drop_copy(slo, shi, b):
    """Two-plane multiset less one copy of the type with bit ``b`` (if it holds any)."""
    if shi & b:
        return slo, shi & ~b
    return slo & ~b, shi


#: the older play policies: the kernels compile them only where a caller passes
#: :func:`older_args` (they are baselines and fitting experiments, not the default play)
OLDER_POLICIES = (POLICY_HEURISTIC_V1, POLICY_HEURISTIC_LIN, POLICY_HEURISTIC_LIN2)


def older_args(policies) -> tuple:
    """The trailing arguments of :func:`_play_core` and its callers (``play_out_mixed``,
    ``play_out_logged``, ``_play_in``) for the seats' ``policies``: ``()`` when every seat
    plays random or the heuristic (the kernels' variant without the older policies),
    ``(np.int64(1),)`` when one plays heuristic-v1, -lin or -lin2.  Call as
    ``kernel(..., *older_args(policies))``, as :func:`analyzer.search.pimc.pimc_args`."""
    if any(int(p) in OLDER_POLICIES for p in np.atleast_1d(policies)):
        return (np.int64(1),)
    return ()


@njit(_nrt=False)
def _older_pick(policy, seat, legal, k, lsuit, wcard, wseat, tp, ld, lo, hi, klo, khi, ab0, ab1,
                ab2, trump, soloist, beat, cp, rs, kso, ksp):
    """One seat's card under ``policy``, the older policies included (:func:`_play_core`
    with ``older``): heuristic-v1, heuristic-lin, heuristic-lin2, else the heuristic."""
    if policy == POLICY_HEURISTIC_V1:
        return _heuristic_v1(seat, legal, k, lsuit, wcard, wseat, tp, ld, lo, hi, klo, khi,
                             ab0, ab1, ab2, trump, soloist, beat, cp, rs)
    if policy == POLICY_HEURISTIC_LIN:
        return _heuristic_lin(seat, legal, k, lsuit, wcard, wseat, tp, ld, lo, hi, klo, khi,
                              ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp)
    if policy == POLICY_HEURISTIC_LIN2:
        return _heuristic_lin2(seat, legal, k, lsuit, wcard, wseat, tp, ld, lo, hi, klo, khi,
                               ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp)
    return _heuristic_melds(seat, legal, k, lsuit, wcard, wseat, tp, ld, lo, hi, klo, khi,
                            ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp)


@njit(_nrt=False)
def _play_core(lo, hi, dlo, dhi, trump, leader, soloist, policies, state, kr, beat,
               points, tricks, log, forced, n_forced, older=None):
    """Play a deal from hand planes ``lo``/``hi`` (int64[3], consumed).

    ``dlo``/``dhi``: the discard planes, known to the soloist only.  ``policies``:
    int64[3].  ``log``: int64[15, LOG_COLS] or an empty array (no log).  ``forced``:
    card types of the first ``n_forced`` plays (replay; taken as given).
    Adds to ``points``/``tricks`` (callers zero them).  Returns the tricks played.
    ``older``: omitted, the seats play random or the heuristic and numba compiles no other
    policy (``older is None`` is decided at compile time: the first use of a command
    compiles a third less); ``older_args(policies)`` where a seat plays an older policy
    (heuristic-v1, -lin, -lin2).
    """
    if older is None:
        for p in range(3):
            if policies[p] >= POLICY_HEURISTIC_V1:
                raise ValueError("an older play policy needs older_args(policies)")
    n_tricks = kr.hand_size
    cp = kr.card_points   # hoisted (see _random_core)
    rs = kr.rank_strength
    plo = np.int64(0)
    phi = np.int64(0)
    # per seat: types proven absent by its plays (R6 inferences, public)
    ab0 = np.int64(0)
    ab1 = np.int64(0)
    ab2 = np.int64(0)
    # per seat: cards shown as melds before the first lead (R5) and not played since;
    # a Durch shows none (melds do not count there), nor a game without a soloist
    sl0 = np.int64(0)
    sh0 = np.int64(0)
    sl1 = np.int64(0)
    sh1 = np.int64(0)
    sl2 = np.int64(0)
    sh2 = np.int64(0)
    if trump >= 0 and soloist >= 0:
        sl0, sh0 = shown_planes(lo[0], hi[0], trump, kr)
        sl1, sh1 = shown_planes(lo[1], hi[1], trump, kr)
        sl2, sh2 = shown_planes(lo[2], hi[2], trump, kr)
    ld = leader
    move = 0
    do_log = log.shape[0] > 0
    bl = kr.beat_led_trumped
    for trick in range(n_tricks):
        tp = 0
        wcard = -1
        wseat = -1
        lsuit = -1
        lhigh = -1
        for k in range(3):
            seat = (ld + k) % 3
            h = lo[seat]
            if k == 0:
                legal = h
            else:
                legal = legal_mask_duty(h, lsuit, wcard, lhigh, trump, beat, bl, 0)
            if move < n_forced:
                c = forced[move]
            elif policies[seat] == POLICY_RANDOM:
                c = _random_pick(legal, state)
            else:
                if seat == soloist:
                    klo = plo | dlo
                    khi = phi | dhi | (plo & dlo)
                else:
                    klo = plo
                    khi = phi
                kso = _pick3(soloist, sl0, sl1, sl2) if soloist >= 0 else np.int64(0)
                ksp = np.int64(0)
                if soloist >= 0 and seat != soloist:
                    ksp = _pick3(3 - seat - soloist, sl0, sl1, sl2)
                if older is None:
                    c = _heuristic_melds(seat, legal, k, lsuit, wcard, wseat, tp, ld,
                                         lo[seat], hi[seat], klo, khi, ab0, ab1, ab2, trump,
                                         soloist, beat, cp, rs, kso, ksp)
                else:
                    c = _older_pick(policies[seat], seat, legal, k, lsuit, wcard, wseat, tp, ld,
                                    lo[seat], hi[seat], klo, khi, ab0, ab1, ab2, trump,
                                    soloist, beat, cp, rs, kso, ksp)
            s = c // 6
            if k > 0:
                # what this play proves about the hand (R6 obligations)
                nv = proven_absent(c, lsuit, wcard, lhigh, trump, beat, bl)
                if seat == 0:
                    ab0 |= nv
                elif seat == 1:
                    ab1 |= nv
                else:
                    ab2 |= nv
            b = np.int64(1) << np.int64(c)
            if hi[seat] & b:
                hi[seat] &= ~b
            else:
                lo[seat] &= ~b
            if plo & b:
                phi |= b
            else:
                plo |= b
            # a shown copy played: one shown copy fewer (as pimc.play_deal_policies)
            if seat == 0:
                sl0, sh0 = _drop_copy(sl0, sh0, b)
            elif seat == 1:
                sl1, sh1 = _drop_copy(sl1, sh1, b)
            else:
                sl2, sh2 = _drop_copy(sl2, sh2, b)
            if k == 0:
                wcard = c
                wseat = seat
                lsuit = s
                lhigh = c
            else:
                if (beat[lhigh] >> np.int64(c)) & 1:
                    lhigh = c
                if card_beats(c, wcard, trump, beat):
                    wcard = c
                    wseat = seat
            tp += cp[c]
            if do_log:
                log[trick, LOG_CARD0 + k] = c
                log[trick, LOG_LEGAL0 + k] = legal
            move += 1
        if trick == n_tricks - 1:
            tp += kr.last_trick_bonus  # R7
        points[wseat] += tp
        tricks[wseat] += 1
        if do_log:
            log[trick, LOG_LEADER] = ld
            log[trick, LOG_WINNER] = wseat
            log[trick, LOG_POINTS] = tp
        ld = wseat
        if trump < 0 and soloist >= 0 and wseat != soloist:
            return trick + 1  # R4: a Durch ends at the first opponent trick
    return n_tricks


@njit(_nrt=False)
def _setup(hands, soloist, lo, hi):
    """Counts uint8[3, 24] -> planes; returns the discard planes (types in no hand)."""
    for p in range(3):
        lo[p] = 0
        hi[p] = 0
        for t in range(N_TYPES):
            c = hands[p, t]
            b = np.int64(1) << np.int64(t)
            if c >= 1:
                lo[p] |= b
            if c >= 2:
                hi[p] |= b
    # per type, cards not in any hand = 2 - sum of counts
    dlo = np.int64(0)
    dhi = np.int64(0)
    if soloist >= 0:
        for t in range(N_TYPES):
            n = 2 - (hands[0, t] + hands[1, t] + hands[2, t])
            b = np.int64(1) << np.int64(t)
            if n >= 1:
                dlo |= b
            if n >= 2:
                dhi |= b
    return dlo, dhi


@njit
def play_out_logged(hands, trump, leader, soloist, policies, state, kr, points, tricks,
                    log, forced, n_forced, older=None):
    """:func:`play_out_mixed` writing a trick log and optionally replaying forced plays.

    ``log``: int64[15, LOG_COLS] (columns: leader, cards 0-2 in play order, legal masks
    0-2, winner, points incl. the last-trick bonus); rows beyond the return value are
    left untouched.  ``forced``: int64 card types of the first ``n_forced`` plays (used
    to replay a recorded deal up to a decision).
    """
    lo = np.empty(3, dtype=np.int64)
    hi = np.empty(3, dtype=np.int64)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kr, beat)
    dlo, dhi = _setup(hands, soloist, lo, hi)
    for p in range(3):
        points[p] = 0
        tricks[p] = 0
    return _play_core(lo, hi, dlo, dhi, trump, leader, soloist, policies, state, kr, beat,
                      points, tricks, log, forced, n_forced, older)


# play_out's workspace (one allocation per play-out): lo, hi planes, beat table, policies
_WS_POL = 6 + N_TYPES
_WS_SIZE = _WS_POL + 3


@njit(_nrt=False)
def _play_in(hands, trump, leader, soloist, state, kr, points, tricks, ws, older=None):
    """:func:`play_out_mixed` in the workspace ``ws`` (int64[_WS_SIZE]) whose last three
    entries the caller set to the seats' policies.

    One workspace instead of five allocations and two nested calls (each increfing the
    KernelRules arrays): a fresh deal plus heuristic play-out took 2.96 us, now 2.50 us.
    """
    lo = ws[0:3]
    hi = ws[3:6]
    beat = ws[6:_WS_POL]
    pol = ws[_WS_POL:_WS_SIZE]
    beat_table(kr, beat)
    for p in range(3):
        points[p] = 0
        tricks[p] = 0
    if pol[0] == POLICY_RANDOM and pol[1] == POLICY_RANDOM and pol[2] == POLICY_RANDOM:
        _setup(hands, -1, lo, hi)
        return _random_core(lo, hi, trump, leader, soloist, state, kr, beat, points, tricks)
    dlo, dhi = _setup(hands, soloist, lo, hi)
    return _play_core(lo, hi, dlo, dhi, trump, leader, soloist, pol, state, kr, beat, points,
                      tricks, ws[0:0].reshape((0, LOG_COLS)), ws[0:0], 0, older)


@njit
def play_out_mixed(hands, trump, leader, soloist, policies, state, kr, points, tricks,
                   older=None):
    """:func:`play_out` with one policy per seat (``policies``: int64[3]; ``older``:
    :func:`older_args` of them)."""
    ws = np.empty(_WS_SIZE, dtype=np.int64)
    for p in range(3):
        ws[_WS_POL + p] = policies[p]
    return _play_in(hands, trump, leader, soloist, state, kr, points, tricks, ws, older)


@njit
def play_out(hands, trump, leader, soloist, policy, state, kr, points, tricks):
    """Play one deal from the given hands (R6, R7; Durch end R4).

    Parameters
    ----------
    hands : uint8[3, 24]
        Card counts per seat (not modified), ``kr.hand_size`` (15) cards each.
    trump : int
        0..3 suit index, or -1 for Durch (no trump; play ends at the first trick won by a
        seat other than the soloist, R4).
    leader : int
        Seat (0..2) that leads the first trick.
    soloist : int
        Seat of the soloist (the other two are partners), or -1 (no soloist: each seat
        plays for itself, as in W2).  With a soloist, the heuristic soloist knows the
        cards in no hand (the discard, R4).
    policy : int
        POLICY_RANDOM or POLICY_HEURISTIC (same for all seats).
    state : uint64[4]
        RNG state (analyzer.mechanics.rng), advanced in place.
    kr : KernelRules
    points : int64[3]
        OUT: card points in tricks won incl. the last-trick bonus (R7), no discard.
    tricks : int64[3]
        OUT: tricks won per seat.

    Returns
    -------
    int
        Number of tricks played (15, or fewer in a failed Durch).
    """
    ws = np.empty(_WS_SIZE, dtype=np.int64)
    for p in range(3):
        ws[_WS_POL + p] = policy
    return _play_in(hands, trump, leader, soloist, state, kr, points, tricks, ws)


# --------------------------------------------------------------------------- Python API

from dataclasses import dataclass  # noqa: E402

from analyzer.mechanics.cards import Card, CardError, Hand, Suit, parse_cards  # noqa: E402
from analyzer.errors import BinokelError  # noqa: E402
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet  # noqa: E402


def _trump_index(trump) -> int:
    """Suit / str / None (Durch) -> 0..3 or -1."""
    if trump is None:
        return -1
    return Suit.parse(trump).index


def _beat_array(rules: RuleSet) -> np.ndarray:
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(rules.kernel, beat)
    return beat


def trick_winner(trick, trump, rules: RuleSet = DEFAULT_RULES) -> int:
    """Index (0-based, play order) of the card that wins ``trick`` (R6).

    Parameters
    ----------
    trick : list of Card (or card text), 1 to 3 cards in play order
    trump : Suit, str, or None for Durch (no trump)

    The winner is the first card no later card beats: same suit and strictly higher, or a
    trump on a non-trump; an identical copy played later never wins (R6, R10).
    """
    cards = parse_cards(trick, rules)
    if not 1 <= len(cards) <= 3:
        raise BinokelError(f"a trick has 1 to 3 cards, got {len(cards)}")
    counts = [0] * N_TYPES
    for c in cards:
        counts[c.id] += 1
        if counts[c.id] > 2:
            raise CardError(f"three copies of {c} in one trick: the deck has two (R1)")
    t = _trump_index(trump)
    beat = _beat_array(rules)
    w = 0
    for i in range(1, len(cards)):
        if card_beats(cards[i].id, cards[w].id, t, beat):
            w = i
    return w


def legal_cards(hand, trick, trump, rules: RuleSet = DEFAULT_RULES) -> set[Card]:
    """The cards of ``hand`` that may be added to ``trick`` (R6).

    Parameters
    ----------
    hand : Hand or card text
        The player's cards.
    trick : list of Card (or card text)
        Cards played to the current trick so far, in order (0 to 2 cards).
    trump : Suit, str, or None for Durch (no trump, so no trump duty; R4)
    rules : RuleSet
        The variant's deck and duties (V5.6: beat the led suit even when trumped).

    Returns
    -------
    set of Card
        The distinct legal card types (copies are identical).
    """
    h = Hand.parse(hand, rules=rules)
    cards = parse_cards(trick, rules)
    if len(cards) > 2:
        raise BinokelError(f"a trick to add to has 0 to 2 cards, got {len(cards)}")
    if len(h) == 0:
        raise BinokelError("the hand is empty: nothing to play")
    for c in cards:
        if h.counts[c.id] + sum(1 for x in cards if x == c) > 2:
            raise CardError(f"{c} appears more than twice in hand and trick: the deck has two (R1)")
    t = _trump_index(trump)
    lo = np.int64(h.mask & int(LO24))
    if not cards:
        mask = int(lo)
    else:
        beat = _beat_array(rules)
        w = cards[trick_winner(cards, trump, rules)].id
        led = [c.id for c in cards if c.id // 6 == cards[0].id // 6]
        high = min(led, key=lambda x: x % 6)      # strongest card of the led suit (V5.6)
        mask = int(legal_mask_duty(lo, cards[0].id // 6, w, high, t, beat,
                                   rules.kernel.beat_led_trumped, 0))
    return {Card(i) for i in range(N_TYPES) if (mask >> i) & 1}


@dataclass(frozen=True)
class Trick:
    """One played trick: leader seat, cards in play order, winner seat, points (R7)."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int     # card points incl. the last-trick bonus on the 15th trick

    def seat_of(self, i: int) -> int:
        """Seat that played ``cards[i]``."""
        return (self.leader + i) % 3


@dataclass(frozen=True)
class DealRecord:
    """Every trick of one played deal and the card points per seat (R6, R7).

    ``points`` are trick points (incl. the last-trick bonus), without any discard.
    ``trump`` is None in a Durch; ``soloist`` None when nobody is soloist.
    """

    hands: tuple[Hand, Hand, Hand]
    trump: Suit | None
    leader: int
    soloist: int | None
    policy: str
    tricks: tuple[Trick, ...]
    points: tuple[int, int, int]
    tricks_won: tuple[int, int, int]

    def to_dict(self) -> dict:
        return {
            "hands": [h.codes() for h in self.hands],
            "trump": self.trump.value if self.trump is not None else None,
            "leader": self.leader,
            "soloist": self.soloist,
            "policy": self.policy,
            "tricks": [{"leader": t.leader, "cards": [c.code for c in t.cards],
                        "winner": t.winner, "points": t.points} for t in self.tricks],
            "points": list(self.points),
            "tricks_won": list(self.tricks_won),
        }


def _validate_hands(hands, rules: RuleSet) -> tuple[Hand, Hand, Hand]:
    if len(hands) != 3:
        raise BinokelError(f"give three hands (seats 0, 1, 2), got {len(hands)}")
    hs = tuple(Hand.parse(h, rules=rules) for h in hands)
    for i, h in enumerate(hs):
        if len(h) != rules.hand_size:
            raise CardError(f"hand of seat {i} has {len(h)} cards; play needs {rules.hand_size} "
                            f"in {rules.name} (R2)")
    for t in range(N_TYPES):
        n = sum(h.counts[t] for h in hs)
        if n > 2:
            raise CardError(f"{n} copies of {Card(t)} in the three hands: the deck has two (R1)")
    return hs


def play_deal(hands, trump, leader: int | None = None, policy: str = "heuristic",
              seed: int | None = None, soloist: int | None = None,
              rules: RuleSet = DEFAULT_RULES) -> DealRecord:
    """Play one deal with a policy and return the full record (R6, R7; Durch R4).

    Parameters
    ----------
    hands : three Hands (or card texts) of 15 cards, seats 0, 1, 2
    trump : Suit / str, or None for Durch (needs a soloist, who leads; R4)
    leader : seat leading the first trick (default: 0, forehand; in Durch the soloist)
    policy : ``"heuristic"``, ``"heuristic-v1"`` (the first heuristic), ``"heuristic-lin"``
        (the linear-scored defence, :func:`_defend_lin`), ``"heuristic-lin2"`` (its richer
        variant, :func:`_defend_lin2`) or ``"random"`` (all seats)
    seed : RNG seed (the random policy; same seed, same deal)
    soloist : soloist seat, or None (every seat plays for itself)

    Returns
    -------
    DealRecord
        Every trick (leader, cards, winner, points) and points / tricks per seat.  Runs
        the same kernel as the simulations (:func:`play_out_logged`).
    """
    hs = _validate_hands(hands, rules)
    t = _trump_index(trump)
    if policy not in POLICY_NAMES:
        raise BinokelError(f"unknown policy {policy!r}: use {', '.join(POLICY_NAMES)}")
    if soloist is not None and soloist not in (0, 1, 2):
        raise BinokelError(f"soloist must be seat 0, 1 or 2, got {soloist!r}")
    if t < 0 and soloist is None:
        raise BinokelError("a Durch (no trump) needs a soloist (R4)")
    if leader is None:
        leader = soloist if t < 0 else 0
    if leader not in (0, 1, 2):
        raise BinokelError(f"leader must be seat 0, 1 or 2, got {leader!r}")
    counts = np.array([h.counts for h in hs], dtype=np.uint8)
    pol = np.full(3, POLICY_NAMES[policy], dtype=np.int64)
    log = np.zeros((rules.hand_size, LOG_COLS), dtype=np.int64)
    pts = np.zeros(3, dtype=np.int64)
    won = np.zeros(3, dtype=np.int64)
    n = play_out_logged(counts, t, leader, -1 if soloist is None else soloist, pol,
                        chunk_state(seed, 0), rules.kernel, pts, won, log,
                        np.zeros(0, dtype=np.int64), 0, *older_args(pol))
    tricks = tuple(
        Trick(int(row[LOG_LEADER]), tuple(Card(int(c)) for c in row[LOG_CARD0:LOG_CARD0 + 3]),
              int(row[LOG_WINNER]), int(row[LOG_POINTS]))
        for row in log[:n]
    )
    return DealRecord(hs, None if t < 0 else Suit.parse(trump), int(leader), soloist, policy,
                      tricks, tuple(int(x) for x in pts), tuple(int(x) for x in won))
