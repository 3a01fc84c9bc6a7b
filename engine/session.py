"""A Session is all the UI knows of a table: what its seat sees, its legal actions, submit, and events.

:class:`LocalSession` is a table in this process; a network session (LAN play) implements the same protocol, so the
UI does not change between the two.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from engine.events import Event
from engine.game import Action
from engine.games import GameEntry
from engine.table import Table


class Session(Protocol):
    seat: int
    entry: GameEntry

    @property
    def names(self) -> tuple[str, ...]: ...

    @property
    def options(self) -> Any: ...

    def view(self) -> Any: ...

    def legal_actions(self) -> list[Action]: ...

    def submit(self, action: Action) -> None: ...

    def subscribe(self, callback: Callable[[Event], None]) -> Callable[[], None]: ...

    @property
    def is_my_turn(self) -> bool: ...

    @property
    def is_over(self) -> bool: ...

    def bot_pending(self) -> bool:
        """Is a computer player of *this* session to move (one the UI must let think)?"""
        ...

    def think(self) -> tuple[int, Action]: ...

    def play(self, seat: int, action: Action) -> None: ...


class LocalSession:
    """One seat at a :class:`Table` in this process; the table's bots move when the UI lets them."""

    def __init__(self, table: Table, seat: int) -> None:
        self.table = table
        self.seat = seat
        self.entry = table.entry

    @property
    def names(self) -> tuple[str, ...]:
        return self.table.names

    @property
    def options(self) -> Any:
        return self.table.options

    def view(self) -> Any:
        return self.table.state.view(self.seat)

    def legal_actions(self) -> list[Action]:
        return self.table.state.legal_actions() if self.is_my_turn else []

    def submit(self, action: Action) -> None:
        self.table.submit(self.seat, action)

    def subscribe(self, callback: Callable[[Event], None]) -> Callable[[], None]:
        return self.table.subscribe(self.seat, callback)

    @property
    def is_my_turn(self) -> bool:
        return self.table.state.to_move == self.seat

    @property
    def is_over(self) -> bool:
        return self.table.state.is_over

    def bot_pending(self) -> bool:
        return self.table.bot_to_move

    def think(self) -> tuple[int, Action]:
        """Safe to call off the UI thread: it reads the state and changes nothing."""
        return self.table.think()

    def play(self, seat: int, action: Action) -> None:
        """Apply a bot's chosen action (on the UI thread)."""
        self.table.submit(seat, action)
