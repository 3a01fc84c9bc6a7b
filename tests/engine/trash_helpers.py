"""Helpers for the engine tests of Trash (RULES.md §2).

:func:`deal` starts a real match through the public scenario API: ``TrashGame.deck_for`` lays out a deck that deals
each seat the planned layout (slot 1 first) and puts the planned cards on top of the stock, and
``TrashGame.new_match(..., Scenario(decks=..., dealer=..., totals=...))`` deals it. Seat 0 plays first unless
``dealer`` says otherwise (the first player is the seat after the dealer). With *Match*, ``sizes`` are the
starting layout sizes (the scenario's totals). Cards a layout or the stock does not name come from the rest of the
deck in :func:`~engine.cards.standard_deck` order (Spades Ace first), so a test names every card it relies on.

The seeded random self-play is in ``test_trash_selfplay.py``.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from conformance import Plug, RoundWitness
from game_helpers import act as act
from game_helpers import card as card
from game_helpers import cards as cards
from game_helpers import cards_in as cards_in
from game_helpers import fingerprint as fingerprint
from game_helpers import names as names
from game_helpers import of_type as of_type

from engine.events import Event
from engine.game import Scenario
from engine.games.trash.rules import TrashGame, TrashState
from engine.registry import get_entry

_REGISTERED = get_entry("trash").game  # importing the registry registers Trash's classes with the codec
assert isinstance(_REGISTERED, TrashGame)
GAME: TrashGame = _REGISTERED
CYCLE = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC"
"""A layout that the Ace of the stock turns over in one chain: each slot holds the next slot's card (slot 10 the
Jack, picked up last and discarded as the layout is completed)."""
QUIET = "JS 5S 6S 7S 8S 9S 10S 5D 6D 7D"
"""A layout for a seat that only needs to be there (its first cards are never turned over in a short test)."""


def deal(
    layouts: Sequence[str],
    stock: str = "",
    variants: Sequence[str] = (),
    players: int | None = None,
    sizes: Sequence[int] | None = None,
    dealer: int | None = None,
    seed: int = 0,
) -> TrashState:
    """A match whose first deal gives seat i the layout ``layouts[i]`` (slot 1 first) with ``stock`` on top of the
    stock (its first card drawn first); seat 0 plays first unless ``dealer`` is given."""
    n = players if players is not None else len(layouts)
    chosen = n - 1 if dealer is None else dealer
    order = GAME.deck_for(n, chosen, [cards(text) for text in layouts], cards(stock), sizes=sizes)
    scenario = Scenario(decks=(order,), dealer=chosen, totals=tuple(sizes) if sizes is not None else None)
    return GAME.new_match(n, GAME.options(variants=variants), random.Random(seed), scenario)


def layout_text(state: TrashState, seat: int) -> list[str | None]:
    """Seat ``seat``'s layout as the view shows it: card texts, None where face down."""
    return [str(c) if c is not None else None for c in state.view(seat).layouts[seat]]


# ---------------------------------------------------------------------------------------------------------------
# The game's plug into the conformance harness: what each seat may see, from RULES.md (never from the engine's
# redaction); found by the harness as ``PLUG`` of ``<key>_helpers`` (conformance.PLUGS)
# ---------------------------------------------------------------------------------------------------------------
class TrashWitness(RoundWitness):
    """Trash (RULES.md §2): nothing is private to a seat, and the face-down cards and the stock's order are hidden
    from everybody. A card becomes known to all when it is drawn, turned over (picked up from a slot) or turned up
    and discarded when a layout is completed; a card placed, discarded or swapped out is one already known (the
    held card, or a King shown on a slot). A fresh deal forgets everything (a fresh shuffle)."""

    def learn(self, event: Event) -> None:
        from engine.games.trash import rules as trash

        if isinstance(event, trash.Drew | trash.PickedUp):
            self.show_all([event.card])
        elif isinstance(event, trash.Discarded) and event.reason is trash.DiscardReason.COMPLETED:
            self.show_all([event.card])


def _trash_event_leak(monkeypatch: Any) -> None:
    """Each deal also announces seat 0's face-down slot 1 card as if it had been placed there."""
    from engine.games.trash import rules as trash

    original = trash.TrashState.start_deal

    def leaky(self: trash.TrashState) -> list[Event]:
        events = original(self)
        return [*events, trash.Placed(seat=0, slot=1, card=self.layouts[0][0])]

    monkeypatch.setattr(trash.TrashState, "start_deal", leaky)


def _trash_view_leak(monkeypatch: Any) -> None:
    """Views show every layout card, face down or not."""
    from engine.games.trash import rules as trash

    original = trash.TrashState._view

    def leaky(self: trash.TrashState, seat: int | None) -> trash.TrashView:
        view = original(self, seat)
        return dataclasses.replace(view, layouts=tuple(tuple(layout) for layout in self.layouts))

    monkeypatch.setattr(trash.TrashState, "_view", leaky)


PLUG = Plug(
    TrashWitness,
    max_actions=150,
    chance_variants=("match",),
    leak_in_events=_trash_event_leak,
    leak_in_view=_trash_view_leak,
)
"""The game's plug into the conformance harness (:data:`conformance.PLUGS`)."""
