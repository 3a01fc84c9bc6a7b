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


def cards_in(obj: object) -> Iterator[Card]:
    """Every Card anywhere in ``obj``: dataclass fields, tuples, lists, sets, dicts (keys too). Views and events
    hold their cards as cards (never behind masks or keys), so this finds every card they name."""
    if isinstance(obj, Card):
        yield obj
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from cards_in(getattr(obj, f.name))
    elif isinstance(obj, tuple | list | set | frozenset):
        for item in obj:
            yield from cards_in(item)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield from cards_in(key)
            yield from cards_in(value)
