"""Helpers the engine tests of every game share."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
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
