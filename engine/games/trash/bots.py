"""Bots for Trash.

Trash has three choices: where to draw from, where a King goes, and whether to swap a King off its slot for the
pip card that belongs there. Everything else is the chain, which plays itself.

- ``medium`` takes a placeable discard, puts a King on the slot whose rank is most used up (the most copies face
  up on the table or in the discard pile), and leaves a King where it is unless the swap is forced (a card taken
  from the discard pile must be placed).
- ``hard`` counts every card it has seen: a rank's *chance to come* is its copies still unseen, less the copies the
  other players will keep for themselves (a player whose own slot of that rank is still open places such a card
  instead of discarding it). A King goes where that chance is smallest, so the slots left open are the likeliest
  to be filled; a swap is always taken (it turns one more card face up and the chain goes on); and the draw
  comes from the discard pile whenever its top can be placed.

Measured (seat-rotated two-player games): most of ``hard``'s edge over ``medium`` is the swap. Where a King goes
barely matters once the draw and the swap are right: rollouts over sampled deals to choose the King's slot won
about as often as the same player without them, at far greater cost, so ``hard`` does not do them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from engine.game import Game
from engine.games.trash.rules import (
    DISCARD,
    KEEP,
    SWAP,
    PlaceKing,
    TrashAction,
    TrashOptions,
    TrashView,
    deck_of,
    is_king,
    slot_of,
)


def seen_of(view: TrashView) -> Counter[int]:
    """How many cards of each slot rank (1..10) are face up on any layout, in the discard pile or held."""
    shown = [c for layout in view.layouts for c in layout if c is not None] + list(view.discard)
    if view.held is not None:
        shown.append(view.held)
    counts: Counter[int] = Counter()
    for card in shown:
        slot = slot_of(card)
        if slot is not None:
            counts[slot] += 1
    return counts


def copies_of(view: TrashView, rank: int) -> int:
    """Copies of the slot rank ``rank`` in the game's deck(s)."""
    return sum(1 for card in deck_of(view.players) if slot_of(card) == rank)


def _kings(legal: Sequence[TrashAction]) -> list[PlaceKing]:
    return [a for a in legal if isinstance(a, PlaceKing)]


class MediumTrashBot:
    """``medium``: takes a placeable discard; a King goes on the most used-up rank's slot; no voluntary swap."""

    difficulty = "medium"

    def __init__(self, game: Game[TrashOptions, TrashView, TrashAction]) -> None:
        self.game = game

    def choose(self, view: TrashView, legal: Sequence[TrashAction], rng: random.Random) -> TrashAction:
        if DISCARD in legal:
            return DISCARD
        kings = _kings(legal)
        if kings:
            seen = seen_of(view)
            return max(kings, key=lambda a: (seen[a.slot], -a.slot))
        if KEEP in legal:
            return KEEP
        return legal[0]


class HardTrashBot:
    """``hard``: counts the cards it has seen and plays for the likeliest completion (see the module docstring)."""

    difficulty = "hard"
    rivalry = 0.5
    """How much a copy counts as gone when another player still needs that rank (they keep it when they get it)."""

    def __init__(self, game: Game[TrashOptions, TrashView, TrashAction]) -> None:
        self.game = game

    def chance_to_come(self, view: TrashView, rank: int) -> float:
        """The copies of ``rank`` still unseen, less the ones other players will keep for themselves."""
        unseen = copies_of(view, rank) - seen_of(view)[rank]
        me = view.to_move
        rivals = 0
        for seat, layout in enumerate(view.layouts):
            if seat == me or rank > len(layout):
                continue
            card = layout[rank - 1]
            if card is None or is_king(card):
                rivals += 1
        return max(0.0, unseen - self.rivalry * rivals)

    def choose(self, view: TrashView, legal: Sequence[TrashAction], rng: random.Random) -> TrashAction:
        if SWAP in legal:
            return SWAP
        kings = _kings(legal)
        if kings:
            return min(kings, key=lambda a: (self.chance_to_come(view, a.slot), a.slot))
        if DISCARD in legal:
            return DISCARD  # a sure step (and one card fewer for the next player) beats a blind draw
        return legal[0]
