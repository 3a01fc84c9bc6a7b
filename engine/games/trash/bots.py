"""Bots for Trash.

Trash has three choices: where to draw from, where a King goes, and whether to swap a King off its slot for the
pip card that belongs there. Everything else is the chain, which plays itself.

- ``medium`` takes a placeable discard, puts a King on the slot whose rank is most used up (the most copies face
  up on the table or in the discard pile), and swaps a King off its slot for the card it drew (from the stock, or
  the discard pile, where the swap is forced), but not for a card turned up along the chain: that one it
  discards, leaving the King where it is, and the turn ends.
- ``hard`` counts every card it has seen: a rank's *chance to come* is its copies still unseen, less the copies the
  other players will keep for themselves (a player whose own slot of that rank is still open places such a card
  instead of discarding it). A King goes where that chance is smallest (no better than anywhere else, see below,
  but the reason its hint gives is a plain one); a swap is always taken (it turns one more card face up and the
  chain goes on); and the draw comes from the discard pile whenever its top can be placed.

Where a King goes does not matter once the swap is always taken: a card is of use to a player when its slot does
not hold its own card yet, face down or under a King, and putting a King on a face-down slot leaves that set as it
was (a card of the King's slot swaps it on to another face-down slot, one step as placing it would have been).
``hard``'s King placed on a random slot instead won 50.0% of 4,000 seat-rotated two-player games against ``hard``
itself. Taking a placeable discard is a sure step where the stock is a blind draw, and a swap is a step where
keeping the King ends the turn, so with those two ``hard`` plays for its own layout as well as it can; what
``medium`` gives up is the swap mid-chain (see docs/performance.md for the figures).
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
    """``medium``: takes a placeable discard; a King goes on the most used-up rank's slot; swaps a King off for the
    card it drew, never for one turned up along the chain."""

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
        if SWAP in legal:
            return KEEP if KEEP in legal and view.held_from == "slot" else SWAP
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
