"""Helpers the engine tests of every game share."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from engine.cards import Card
from engine.events import Event
from engine.game import GameState


def act(state: GameState[Any, Any, Any], *actions: str) -> list[Event]:
    """Apply each action (by its text, read by the game) for whoever is to move; return all the events."""
    events: list[Event] = []
    for text in actions:
        seat = state.to_move
        assert seat is not None, "the match is over"
        events.extend(state.apply(seat, state.parse_action(text)))
    return events


def of_type(events: Sequence[Event], kind: type[Event]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def walk(value: Any) -> Iterator[Any]:
    """``value`` and everything inside it: dataclass fields, tuples, lists, sets, dicts (keys too)."""
    yield value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from walk(getattr(value, f.name))
    elif isinstance(value, tuple | list | set | frozenset):
        for item in value:
            yield from walk(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from walk(key)
            yield from walk(item)


def cards_in(obj: object) -> Iterator[Card]:
    """Every Card anywhere in ``obj``. Views and events hold their cards as cards (never behind masks or keys), so
    this finds every card they name."""
    return (value for value in walk(obj) if isinstance(value, Card))


def snapshot(state: Any) -> tuple[dict[str, Any], list[Event], Any]:
    """Everything in the state, to compare before and after a refused action: a deep copy of every field but the
    RNG object and the history, a shallow copy of the history (its events are frozen: a deep copy of a long
    history was most of a self-play test's time), plus the RNG's internal state."""
    fields = {k: v for k, v in vars(state).items() if k not in ("rng", "history")}
    # Cards are immutable values: the copy keeps the state's own (rebuilding each card was the rest of the cost).
    kept: dict[int, Any] = {id(c): c for zone in state.zones().values() for c in zone}
    return copy.deepcopy(fields, kept), list(state.history), state.rng.getstate()


def card_ids(cards: Iterable[Card]) -> frozenset[int]:
    """The identities of the card objects ``cards`` holds, for :func:`is_one_deck`."""
    return frozenset(map(id, cards))


def is_one_deck(cards: Sequence[Card], ids: frozenset[int]) -> bool:
    """Is each of ``cards`` one of the card objects whose identities are ``ids`` (:func:`card_ids` of a deck),
    none of them twice? A game moves its deck's card objects and never makes new ones, so for a deck of distinct
    cards this is stronger than comparing the cards' values, and much cheaper than hashing them."""
    found = set(map(id, cards))
    return len(found) == len(cards) and found <= ids
