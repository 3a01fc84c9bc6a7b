"""Helpers for the engine tests of Trash (RULES.md §2).

:func:`deal` starts a real match through the public scenario API: ``TrashGame.deck_for`` lays out a deck that deals
each seat the planned layout (slot 1 first) and puts the planned cards on top of the stock, and
``TrashGame.new_match(..., Scenario(decks=..., dealer=..., totals=...))`` deals it. Seat 0 plays first unless
``dealer`` says otherwise (the first player is the seat after the dealer). With *Match*, ``sizes`` are the
starting layout sizes (the scenario's totals). Cards a layout or the stock does not name come from the rest of the
deck in :func:`~engine.cards.standard_deck` order (Spades Ace first), so a test names every card it relies on.

:func:`self_play_games` is the seeded random self-play behind the ``test_trash_selfplay_*`` files.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from conformance import Plug, RoundWitness
from game_helpers import act as act
from game_helpers import cards_in as cards_in
from game_helpers import of_type as of_type
from game_helpers import physical_cards

from engine import codec
from engine.cards import Card, is_conserved, parse_cards
from engine.errors import IllegalActionError
from engine.events import Event
from engine.game import Scenario
from engine.games.trash.rules import (
    Completed,
    DealOver,
    DealStarted,
    Draw,
    Keep,
    PlaceKing,
    Swap,
    TrashAction,
    TrashGame,
    TrashState,
)
from engine.match import MatchOver
from engine.registry import get_entry

_REGISTERED = get_entry("trash").game  # importing the registry registers Trash's classes with the codec
assert isinstance(_REGISTERED, TrashGame)
GAME: TrashGame = _REGISTERED
CYCLE = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC"
"""A layout that the Ace of the stock turns over in one chain: each slot holds the next slot's card (slot 10 the
Jack, picked up last and discarded as the layout is completed)."""
QUIET = "JS 5S 6S 7S 8S 9S 10S 5D 6D 7D"
"""A layout for a seat that only needs to be there (its first cards are never turned over in a short test)."""


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def card(text: str) -> Card:
    return Card.parse(text)


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


def fingerprint(state: TrashState) -> tuple[Any, ...]:
    """Everything a refused action must leave unchanged, as JSON text."""
    views = tuple(codec.dumps(state.view(s)) for s in [*range(state.players), None])
    return views, state.version, len(state.history), codec.dumps(state.zones())


def layout_text(state: TrashState, seat: int) -> list[str | None]:
    """Seat ``seat``'s layout as the view shows it: card texts, None where face down."""
    return [str(c) if c is not None else None for c in state.view(seat).layouts[seat]]


def names(events: Sequence[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


# ---------------------------------------------------------------------------------------------------------------
# Seeded self-play with invariants
# ---------------------------------------------------------------------------------------------------------------
WRONG: tuple[TrashAction, ...] = (
    Draw("stock"),
    Draw("discard"),
    *(PlaceKing(slot) for slot in range(1, 11)),
    Swap(),
    Keep(),
)
"""Every well-formed action: at each step those not legal must be refused."""


@dataclass
class SelfPlayTally:
    games: int = 0
    actions: int = 0
    refusals: int = 0
    deals: int = 0
    shuffles: int = 0


def self_play_games(
    count: int,
    seed: int,
    players: int,
    variants: Sequence[str],
    tally: SelfPlayTally,
    max_actions: int = 5000,
    worn: bool = False,
) -> None:
    """Play ``count`` seeded random games and check after every action: every card exactly once (a multiset), the
    exact legal set accepted (every other well-formed action refused without a change, now and then), every game
    ends, and every deal's winners are exactly the seats that completed, all face up.

    ``worn``: each game starts as if many turns had been played, all but one to three stock cards on the discard
    pile, so the stock runs out and is reshuffled (random play rarely empties a full stock in one deal)."""
    options = GAME.options(variants=variants)

    rng = random.Random(seed)
    for _ in range(count):
        state = GAME.new_match(players, options, random.Random(rng.getrandbits(32)))
        if worn:
            keep = rng.randrange(1, 4)
            state.discard, state.stock = state.stock[:-keep], state.stock[-keep:]
        assert is_conserved(state.zones().values(), state.full_deck())
        # The engine moves card objects and never makes new ones, so after every action the very same objects must
        # be somewhere, each exactly once: a stronger check than the multiset (two copies are told apart), and far
        # cheaper than hashing cards. A new deal deals new objects: the check starts again from its deal.
        physical = physical_cards(state)
        completed: list[int] = []
        steps = 0
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            legal = state.legal_actions()
            assert legal, "a seat to move with nothing to do"
            if steps % 7 == 0:
                version, length = state.version, len(state.history)
                for wrong in WRONG:
                    if wrong in legal:
                        continue
                    try:
                        state.apply(seat, wrong)
                    except IllegalActionError:
                        tally.refusals += 1
                    else:
                        raise AssertionError(f"{wrong} was accepted, legal: {legal}")
                assert (state.version, len(state.history)) == (version, length)
            events = state.apply(seat, rng.choice(legal))
            steps += 1
            assert steps < max_actions, "the game did not end"
            now = physical_cards(state)
            if any(isinstance(e, DealStarted) for e in events):
                assert is_conserved(state.zones().values(), state.full_deck()), "cards not conserved"
                physical = now
            assert now == physical, "cards not conserved"
            for event in events:
                assert event.audience is None, "every Trash event is public"
                if isinstance(event, Completed):
                    completed.append(event.seat)
                elif isinstance(event, DealOver):
                    assert tuple(completed) == event.winners and event.winners, (completed, event)
                    tally.deals += 1
                    completed = []
                elif type(event).__name__ == "StockShuffled":
                    tally.shuffles += 1
            for winner in completed:  # this deal's completers so far (Last turn: the deal goes on)
                assert all(state.face_up[winner]), "a seat completed with a face-down card"
        over = [e for e in state.history if isinstance(e, MatchOver)]
        assert len(over) == 1 and state.result is not None and state.result.winners == over[0].winners
        last_deal = [e for e in state.history if isinstance(e, DealOver)][-1]
        assert set(over[0].winners) <= set(last_deal.winners)
        for winner in last_deal.winners:
            assert all(state.face_up[winner]), "a winner of the last deal has a face-down card"
        tally.games += 1
        tally.actions += steps


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
