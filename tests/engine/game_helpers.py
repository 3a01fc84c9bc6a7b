"""Helpers the engine tests of every game share."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import chain
from typing import Any

import pytest

from engine import codec
from engine.cards import Card, parse_cards
from engine.errors import GameOverError, IllegalActionError, NotYourTurnError
from engine.events import Event
from engine.game import GameState
from engine.match import MatchOver


def card(text: str) -> Card:
    return Card.parse(text)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def names(events: Sequence[Event]) -> list[str]:
    """The events' class names, in order."""
    return [type(e).__name__ for e in events]


def fingerprint(state: GameState[Any, Any, Any]) -> tuple[Any, ...]:
    """Everything a refused action must leave unchanged, as JSON text: every seat's view and the spectator's, the
    version, the history's length and the zones."""
    views = tuple(codec.dumps(state.view(s)) for s in [*range(state.players), None])
    return views, state.version, len(state.history), codec.dumps(state.zones())


def act(state: GameState[Any, Any, Any], *actions: str) -> list[Event]:
    """Apply each action (by its text, read by the game) for whoever is to move; return all the events."""
    events: list[Event] = []
    for text in actions:
        seat = state.to_move
        assert seat is not None, "the match is over"
        events.extend(state.apply(seat, state.parse_action(text)))
    return events


@dataclass
class SelfPlayTally:
    """What a self-play test counts, to show that its games went where the checks look."""

    games: int = 0
    deals: int = 0
    actions: int = 0
    refusals: int = 0
    comebacks: int = 0
    shuffles: int = 0


def refuse_wrong(state: GameState[Any, Any, Any], seat: int, legal: Sequence[object], wrong: Iterable[object]) -> int:
    """Apply each of ``wrong`` that is not in ``legal`` for ``seat``: each must be refused (IllegalActionError) and
    change neither the state's version nor its history. Returns how many were refused (the self-play tests)."""
    version, length = state.version, len(state.history)
    refused = 0
    for action in wrong:
        if action in legal:
            continue
        try:
            state.apply(seat, action)
        except IllegalActionError:
            refused += 1
        else:
            raise AssertionError(f"{action} was accepted, legal: {legal}")
    assert (state.version, len(state.history)) == (version, length)
    return refused


def refuse_out_of_turn(state: GameState[Any, Any, Any], rng: Any, when_over: Callable[[], object]) -> int:
    """An action from a seat that is not to move must be refused: once the match is over, ``when_over()`` from any
    seat (GameOverError); while it goes on, a legal action from another seat (NotYourTurnError). The seat and the
    action are drawn from ``rng``. Returns 1, the refusals tried (the self-play tests count them)."""
    seat = state.to_move
    if seat is None:
        with pytest.raises(GameOverError):
            state.apply(rng.randrange(state.players), when_over())
    else:
        other = rng.choice([s for s in range(state.players) if s != seat])
        with pytest.raises(NotYourTurnError):
            state.apply(other, rng.choice(state.legal_actions()))
    return 1


def the_match_over(state: GameState[Any, Any, Any]) -> MatchOver:
    """The one MatchOver of a finished match's history, whose winners are the result's."""
    over = [e for e in state.history if isinstance(e, MatchOver)]
    assert len(over) == 1 and state.result is not None and state.result.winners == over[0].winners
    return over[0]


def of_type(events: Sequence[Event], kind: type[Event]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def walk(value: Any) -> Iterator[Any]:
    """``value`` and everything inside it: dataclass fields, tuples, lists, sets, dicts (keys too)."""
    yield value
    for part in _inside(value):
        yield from walk(part)


def cards_in(obj: object) -> Iterator[Card]:
    """Every Card anywhere in ``obj``. Views and events hold their cards as cards (never behind masks or keys), so
    this finds every card they name. (What :func:`walk` finds, gathered without a generator at each level; a card's
    own fields, a rank and a suit, hold no card.)"""
    found: list[Card] = []
    _gather_cards(obj, found)
    return iter(found)


def _gather_cards(value: Any, found: list[Card]) -> None:
    if isinstance(value, Card):
        found.append(value)
        return
    for part in _inside(value):
        _gather_cards(part, found)


_LEAVES: set[type] = {int, bool, float, str, bytes, type(None)}
"""Types with nothing inside for :func:`walk` (more are added as they are met: enums, classes...)."""
_FIELDS: dict[type, tuple[str, ...]] = {}
"""The field names of each dataclass met (by :func:`_inside` and :func:`_copy`)."""


def _field_names(value: Any) -> tuple[str, ...] | None:
    """The field names of ``value`` if it is a dataclass instance (not a class), or an object whose class lists
    them in ``STATE_FIELDS`` (Big Two's compiled ``MoveCore``), else None; once per type."""
    kind = type(value)
    names = _FIELDS.get(kind)
    if names is None and dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(value))
    if names is None and not isinstance(value, type) and isinstance(getattr(kind, "STATE_FIELDS", None), tuple):
        names = _FIELDS[kind] = kind.STATE_FIELDS
    return names


def _inside(value: Any) -> Sequence[Any] | set[Any] | frozenset[Any]:
    """What :func:`walk` goes into: a dataclass's fields, a container's items, a dict's keys and values."""
    kind = type(value)
    if kind in _LEAVES:
        return ()
    names = _field_names(value)
    if names is not None:
        return [getattr(value, name) for name in names]
    if isinstance(value, tuple | list | set | frozenset):
        return value
    if isinstance(value, dict):
        return [part for pair in value.items() for part in pair]
    _LEAVES.add(kind)  # neither a dataclass instance nor a container: nor is any other value of its type
    return ()


def snapshot(state: Any) -> tuple[dict[str, Any], list[Event], Any]:
    """Everything in the state, to compare before and after a refused action: a deep copy of every field but the
    RNG object and the history (:func:`_copy`), a shallow copy of the history (its events are frozen: a deep copy
    of a long history was most of a self-play test's time), plus the RNG's internal state."""
    fields = {k: _copy(v) for k, v in vars(state).items() if k not in ("rng", "history")}
    return fields, list(state.history), state.rng.getstate()


_KEPT: set[type] = {int, bool, float, str, bytes, type(None), Card}
"""What cannot change, so a copy may keep it: numbers, text, cards (frozen), and (added when met) enum classes."""


def _copy(value: Any) -> Any:
    """A deep copy for :func:`snapshot`, to compare with ``==``: containers are copied, what cannot change is kept
    (``copy.deepcopy`` rebuilt every card, most of the cost), a dataclass becomes its class and its fields."""
    kind = type(value)
    if kind in _KEPT:
        return value
    if kind is tuple:
        if _KEPT.issuperset(map(type, value)):
            return value  # a tuple of what cannot change cannot change
        return tuple(map(_copy, value))
    if kind is list:
        return list(map(_copy, value))
    if kind is dict:
        return {_copy(k): _copy(v) for k, v in value.items()}
    if kind is set or kind is frozenset:
        return kind(map(_copy, value))
    names = _field_names(value)
    if names is not None:
        return kind, tuple(_copy(getattr(value, name)) for name in names)
    if isinstance(value, Enum):
        _KEPT.add(kind)
        return value
    return copy.deepcopy(value)


def physical_cards(state: GameState[Any, Any, Any]) -> list[int]:
    """The identities of every card object in the state's zones, sorted. Within a deal a game moves its card
    objects and never makes new ones, so this must not change from one action to the next: a stronger check than
    the multiset (two copies of a card are told apart), and far cheaper than hashing cards."""
    return sorted(map(id, chain.from_iterable(state.zones().values())))


def card_ids(cards: Iterable[Card]) -> frozenset[int]:
    """The identities of the card objects ``cards`` holds, for :func:`is_one_deck`."""
    return frozenset(map(id, cards))


def is_one_deck(cards: Sequence[Card], ids: frozenset[int]) -> bool:
    """Is each of ``cards`` one of the card objects whose identities are ``ids`` (:func:`card_ids` of a deck),
    none of them twice? A game moves its deck's card objects and never makes new ones, so for a deck of distinct
    cards this is stronger than comparing the cards' values, and much cheaper than hashing them."""
    found = set(map(id, cards))
    return len(found) == len(cards) and found <= ids
