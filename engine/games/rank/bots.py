"""Bots for Rank.

Suits never matter in Rank, so every choice is about ranks: which normal play, whether to spend an Ace or a Joker
or draw when stuck, which rank a Joker names, and whether to add the follow-up.

- ``medium`` keeps its hand flexible: of its normal plays it makes the one that leaves it the most cards that could
  answer the pile when it comes back round (a card of the same rank or two away); it saves Aces and Jokers while
  it has a normal play (an Ace that is a normal play is played last), and spends them once it is stuck rather than
  drawing; it names a Joker's rank so that it can add a follow-up card (and the best-connected one); it always
  adds the follow-up; and when the player before it has just played their last card it knocks them back in with
  any play it has, an Ace or a Joker included.
- ``hard`` plays ``medium``'s game with one change that matters most: it keeps its Aces and Jokers for the finish
  (stuck with more than two cards it draws instead), since an Ace is the best last card there is. Near the end of
  a deal (two cards or fewer in its hand, an exit pending, or a player about to go out) it searches: flat Monte
  Carlo over deals sampled consistently with its view (the other hands, the stock and the pile under its top dealt
  at random from the cards it has not seen), each playout a few dozen moves of that policy for itself and
  ``medium`` for the others, scored by whether it lost the deal (or, cut short, by how its card count compares).
  The playouts are few, so its own policy's choice keeps a head start and is overruled only by a clear margin.
  Equal ranks are one choice (suits never matter), and a Joker's rank is chosen among ``medium``'s few best. The
  number of playouts is fixed, so a seeded match is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, Rank
from engine.game import Game
from engine.games.rank.rules import (
    DRAW,
    PASS,
    RANKS,
    DealOver,
    Name,
    Play,
    RankAction,
    RankOptions,
    RankPhase,
    RankState,
    RankView,
    is_normal,
    neighbours,
    sample_state,
)


def _step(rank: Rank, by: int) -> Rank:
    return Rank((int(rank) - 1 + by) % 13 + 1)


def answers(rank: Rank) -> frozenset[Rank]:
    """Ranks that are likely to be normal plays when the pile comes back after the next player answers ``rank``
    (the next player plays one step away; one more step brings it back to ``rank`` or two away)."""
    return frozenset((rank, _step(rank, 2), _step(rank, -2)))


def flexibility(hand: Sequence[Card], played: Card) -> float:
    """How well the hand left after playing ``played`` can answer the pile later: cards of the same rank or two
    away count; Aces and Jokers (escapes) are worth keeping too."""
    left = list(hand)
    left.remove(played)
    rank = played.rank
    near = answers(rank)
    score = sum(1.0 for card in left if card.rank in near)
    score += sum(0.5 for card in left if card.rank in (Rank.ACE, Rank.JOKER))
    return score


def best_name(view: RankView) -> tuple[Rank, Card | None]:
    """The rank to name for a Joker: one that lets this seat add a follow-up (the best-connected one), else the
    rank whose answers this hand holds most of."""
    hand = [card for card in view.hand if card.rank is not Rank.JOKER]
    best: tuple[float, int, Rank, Card | None] | None = None
    for rank in RANKS:
        follows = [card for card in hand if is_normal(card, rank)]
        if follows:
            card = max(follows, key=lambda c: (flexibility(hand, c), -int(c.rank is Rank.ACE)))
            value = 10.0 + flexibility(hand, card) - (2.0 if card.rank is Rank.ACE else 0.0)
        else:
            card = None
            value = sum(1.0 for c in hand if c.rank in neighbours(rank))
        key = (value, -int(rank), rank, card)
        if best is None or key[:2] > best[:2]:
            best = key
    assert best is not None
    return best[2], best[3]


def _plays(legal: Sequence[RankAction]) -> list[Play]:
    return [a for a in legal if isinstance(a, Play)]


def medium_choice(view: RankView, legal: Sequence[RankAction]) -> RankAction:
    """``medium``'s choice (also the policy of ``hard``'s playouts)."""
    if len(legal) == 1:
        return legal[0]
    if any(isinstance(a, Name) for a in legal):
        return Name(best_name(view)[0])
    plays = _plays(legal)
    hand = list(view.hand)
    if view.phase is RankPhase.FOLLOW:
        if plays:
            return max(plays, key=lambda p: (flexibility(hand, p.card), -int(p.card.rank is Rank.ACE)))
        return PASS
    normal = [p for p in plays if is_normal(p.card, view.rank)]
    if normal:
        return max(normal, key=lambda p: (-int(p.card.rank is Rank.ACE), flexibility(hand, p.card)))
    escapes = [p for p in plays if p.card.rank in (Rank.ACE, Rank.JOKER)]
    if escapes:
        # Stuck: an escape gets rid of a card (a Joker perhaps two) where a draw adds one. A Joker first when it
        # brings a follow-up along, else an Ace (the Joker is the more useful card to keep).
        jokers = [p for p in escapes if p.card.rank is Rank.JOKER]
        aces = [p for p in escapes if p.card.rank is Rank.ACE]
        if jokers and best_name(view)[1] is not None:
            return jokers[0]
        return aces[0] if aces else jokers[0]
    if DRAW in legal:
        return DRAW
    return legal[0]


KEEP_ESCAPES_ABOVE = 2
"""``hard`` keeps its Aces and Jokers while it holds more cards than this (it draws instead when stuck)."""


def keeper_choice(view: RankView, legal: Sequence[RankAction]) -> RankAction:
    """``hard``'s own policy: ``medium``'s, except that an Ace or a Joker is kept for the finish. Stuck with more
    than ``KEEP_ESCAPES_ABOVE`` cards, it draws rather than spend one, unless it must knock a player back in or a
    Joker brings a follow-up along. An Ace is the best last card there is: the next player needs a King, a 2, an
    Ace or a Joker to answer it, and a player who cannot answer confirms the exit. (Measured against three
    ``medium``, this alone loses fewer deals than ``medium`` does.)"""
    if view.phase is RankPhase.PLAY and DRAW in legal and view.pending is None and len(view.hand) > KEEP_ESCAPES_ABOVE:
        plays = _plays(legal)
        if plays and not any(is_normal(p.card, view.rank) for p in plays):
            jokers = [p for p in plays if p.card.rank is Rank.JOKER]
            if not (jokers and best_name(view)[1] is not None):
                return DRAW
    return medium_choice(view, legal)


class MediumRankBot:
    """``medium``: a flexible hand, escapes saved for when it is stuck, Jokers named to fit (see the module)."""

    difficulty = "medium"

    def __init__(self, game: Game[RankOptions, RankView, RankAction]) -> None:
        self.game = game

    def choose(self, view: RankView, legal: Sequence[RankAction], rng: random.Random) -> RankAction:
        return medium_choice(view, legal)


@dataclass(frozen=True)
class RankSearch:
    """What ``hard``'s endgame search found: each candidate's share of playouts it came out of well (1: the deal
    not lost; a playout cut short counts the share of the others holding more cards), over ``rounds`` sampled
    deals; the policy's own choice (which has a head start); and the index of the one chosen."""

    picks: tuple[RankAction, ...]
    shares: tuple[float, ...]
    rounds: int
    preferred: RankAction
    best: int


class HardRankBot:
    """``hard``: flat Monte Carlo over sampled deals with ``medium`` playouts (see the module docstring)."""

    difficulty = "hard"
    playouts = 48
    """Playouts per decision, shared among the candidates (fixed: a seeded match is reproducible)."""
    horizon = 40
    """Moves a playout looks ahead. A Rank deal runs to hundreds of moves (draws mostly): a playout stops after
    this many and scores the hand sizes then (the seat with the most cards is the likeliest to be left with them)."""
    names = 3
    """How many of ``medium``'s best Joker ranks are compared."""
    prior = 0.3
    """The head start of the policy's own choice, as a share of the playouts per candidate."""

    def __init__(self, game: Game[RankOptions, RankView, RankAction]) -> None:
        self.game = game

    def candidates(self, view: RankView, legal: Sequence[RankAction]) -> list[RankAction]:
        """One action per distinct choice: plays of equal rank are the same choice; a few Joker ranks."""
        picks: list[RankAction] = []
        seen: set[Rank] = set()
        if any(isinstance(a, Name) for a in legal):
            hand = [card for card in view.hand if card.rank is not Rank.JOKER]
            ranked = sorted(
                RANKS,
                key=lambda r: (
                    -(
                        10.0 + max(flexibility(hand, c) for c in hand if is_normal(c, r))
                        if any(is_normal(c, r) for c in hand)
                        else sum(1.0 for c in hand if c.rank in neighbours(r))
                    )
                ),
            )
            first = Name(best_name(view)[0])
            return [first, *[Name(r) for r in ranked if Name(r) != first][: self.names - 1]]
        for action in legal:
            if isinstance(action, Play):
                if action.card.rank in seen:
                    continue
                seen.add(action.card.rank)
            picks.append(action)
        return picks

    def endgame(self, view: RankView) -> bool:
        """Where the search pays: this seat close to going out, an exit pending, or a player about to go out."""
        assert view.seat is not None
        others = [n for seat, n in enumerate(view.counts) if seat != view.seat and n]
        return len(view.hand) <= 2 or view.pending is not None or (bool(others) and min(others) <= 1)

    def choose(self, view: RankView, legal: Sequence[RankAction], rng: random.Random) -> RankAction:
        if len(legal) == 1 or view.seat is None:
            return legal[0]
        if not self.endgame(view):
            return keeper_choice(view, legal)
        picks = self.candidates(view, legal)
        if len(picks) == 1:
            return picks[0]
        found = self.search(view, legal, picks, rng)
        return found.picks[found.best]

    def search(
        self, view: RankView, legal: Sequence[RankAction], picks: Sequence[RankAction], rng: random.Random
    ) -> RankSearch:
        """The playouts of each of ``picks`` (from :meth:`candidates`) and the one chosen: what :meth:`choose`
        does in the endgame, its figures kept."""
        assert view.seat is not None
        scores = [0.0] * len(picks)
        rounds = max(1, self.playouts // len(picks))
        for _ in range(rounds):
            base = sample_state(view, rng)
            seed = rng.getrandbits(64)
            for index, action in enumerate(picks):
                scores[index] += self._playout(base, view.seat, action, seed)
        # The playouts are few and noisy: the policy's own choice stands unless they clearly prefer another.
        preferred = keeper_choice(view, legal)
        played = list(scores)
        for index, action in enumerate(picks):
            if action == preferred or (
                isinstance(action, Play) and isinstance(preferred, Play) and action.card.rank is preferred.card.rank
            ):
                scores[index] += self.prior * rounds
        best = max(range(len(picks)), key=lambda i: scores[i])
        return RankSearch(tuple(picks), tuple(score / rounds for score in played), rounds, preferred, best)

    def _playout(self, base: RankState, seat: int, action: RankAction, seed: int) -> float:
        """Play ``action`` in a copy of ``base``, then ``horizon`` moves of ``medium`` everywhere: 1 if this seat did
        not lose the deal, 0 if it did; cut short, the share of the other players holding more cards than this one
        (ties half). The same draws for every candidate: common random numbers."""
        state = base.clone()
        state.rng = random.Random(seed)
        deal = state.deal
        state.apply(seat, action)
        steps = 0
        while state.to_move is not None and state.deal == deal and steps < self.horizon:
            mover = state.to_move
            policy = keeper_choice if mover == seat else medium_choice
            state.apply(mover, policy(state.view(mover), state.legal_actions()))
            steps += 1
        if state.deal == deal and state.to_move is not None:  # cut short: fewer cards than the others is better
            mine = len(state.hands[seat])
            others = [len(hand) for other, hand in enumerate(state.hands) if other != seat and hand]
            if not others:
                return 0.0 if mine else 1.0
            return sum(1.0 if n > mine else 0.5 if n == mine else 0.0 for n in others) / len(others)
        over = next(e for e in reversed(state.history) if isinstance(e, DealOver))
        return 0.0 if over.loser == seat else 1.0
