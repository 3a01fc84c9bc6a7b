"""A Session is all a player's screen knows of a table: one seat's updates (its events pushed together with the
snapshot that follows them), submit, and the rest of what a seat may ask.

The same :class:`Session` protocol is met by a seat at a host in this process (:mod:`engine.play.local_sessions`)
and, over the LAN, by a network connection: the UI has one code path for both. A session can only ever act for its
own seat and only ever receives what that seat may see.

A screen draws from the :class:`Update` it is showing, never from a snapshot it pulls on its own: an update's
snapshot shows every event delivered so far and nothing whose events are still to come, so the table drawn and its
log always agree, however fast the bots move on another thread.

>>> from engine.play.table_host import TableHost
>>> from engine.table import Table
>>> host = TableHost(Table.create("screw", players=3, seed=4, bots=[None, "easy", "easy"]), autostart=False)
>>> session = host.connect(0)
>>> updates = []
>>> stop = session.subscribe(updates.append)
>>> first = updates[0]  # the history so far, with the snapshot that shows exactly it
>>> type(first.events[0]).__name__, first.snapshot.seat, first.snapshot.version
('RoundStarted', 0, 0)
>>> host.close()
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine import codec
from engine.events import Event
from engine.game import Action, GameEntry
from engine.hints import Hint


@dataclass(frozen=True)
class Snapshot:
    """One seat's whole picture of the table at one moment."""

    version: int
    """How many actions the table has applied: a later snapshot has a higher number."""
    seat: int | None
    view: Any
    """The game's view for this seat (a spectator's view for ``None``)."""
    legal: tuple[Any, ...]
    """What this seat may do now (empty when it is not this seat's turn)."""
    to_move: int | None
    over: bool


@dataclass(frozen=True)
class TableInfo:
    """What a session knows about its table from the start: the game, the rules in force and who sits where."""

    key: str
    """The game's registry key (``screw``, ``chase``, ``big2``...)."""
    options: Any
    names: tuple[str, ...]
    bots: tuple[str | None, ...]
    """Each seat's computer player level, or None for a person."""
    seed: int | None
    """None for every session, in this process or over the network: the seed would tell every card to come. The
    table and its replay keep it."""
    seat: int | None
    """The seat this session plays (None: a spectator)."""
    hints: bool = True
    """Whether this session may ask for hints: a seat at a table in this process, or at a LAN table whose creator
    allowed them; never a spectator."""


@dataclass(frozen=True)
class Update:
    """What a seat is sent each time its table moves: the events of one batch as that seat may see them, and the
    seat's snapshot taken at the moment right after them (under the host's lock, with the events).

    A session's first update carries the history so far with the snapshot that shows exactly it; then comes one per
    action the table applies, even one that shows the seat no event (``events`` empty: its snapshot still moved on).
    A remote session may put several actions' events in one update (those that came before one snapshot)."""

    events: tuple[Event, ...]
    snapshot: Snapshot


codec.register("table", Snapshot, TableInfo, Update)


class Session(Protocol):
    """One seat at a table, wherever the table runs."""

    @property
    def info(self) -> TableInfo: ...

    @property
    def entry(self) -> GameEntry: ...

    def snapshot(self) -> Snapshot:
        """The seat's view, its legal actions and the version, all taken at one moment: for programs and tests. A
        screen draws from the updates it is sent instead (a snapshot pulled on its own may already show a move whose
        events have not reached the screen yet)."""
        ...

    def submit(self, action: Action) -> None:
        """Play ``action`` for this session's seat; a rejection raises the typed ParlourError and changes nothing."""
        ...

    def subscribe(self, callback: Callable[[Update], None]) -> Callable[[], None]:
        """Send ``callback`` this seat's updates in order, possibly from another thread: first the history so far
        with the snapshot that shows exactly it, then each batch of events with the snapshot that follows them (see
        :class:`Update`). Returns the function that stops them."""
        ...

    def hint(self) -> Hint | None:
        """What the game's hint level would play now for this seat, and why (None: not this seat's turn, or the game
        gives no hints). May take a second. A session whose ``info.hints`` is false refuses with a ParlourError."""
        ...

    def ready(self) -> None:
        """This seat has seen the end of the round: the host may go on (its bots wait for every person)."""
        ...

    def last_round_end(self) -> int | None:
        """The table's version right after the action that ended its latest round that was not the match's last
        (None: no such round has ended). A screen that opens on a table at that very version shows that round's
        end, which its person has not seen; at a later version the round's end was seen and the next round is
        on, so the screen opens on the table as it is."""
        ...

    def close(self) -> None:
        """Leave the table: no more events; a seat's bots no longer wait for it."""
        ...


class Lobby(Protocol):
    """A player's side of a LAN host's lobby (what the lobby screen talks to; the network session is one). Each
    call waits for the host's answer and raises a ParlourError with a sentence when the host refuses."""

    welcome: dict[str, Any]
    """The host's ``welcome``: the player's ``name``, the ``host``'s name..."""

    @property
    def table(self) -> dict[str, Any] | None:
        """The summary of this player's table as the host last sent it (None: at no table)."""

    def tables(self) -> list[dict[str, Any]]: ...

    def create(
        self,
        game: str,
        players: int,
        *,
        bots: Sequence[str | None] = (),
        seat: int | None = 0,
        preset: str | None = None,
        variants: Sequence[str] = (),
        level: str | None = None,
        clock: float | None = None,
        hints: bool = False,
    ) -> str: ...

    def sit(self, table: str, seat: int, *, ready: bool = True) -> None: ...

    def spectate(self, table: str) -> None: ...

    def stand(self) -> None: ...

    def declare_ready(self) -> None: ...

    def fill(self, level: str) -> None: ...

    def start(self) -> None: ...

    def chat(self, text: str) -> None: ...

    def leave(self) -> None: ...

    def watch(self, callback: Callable[[dict[str, Any]], None]) -> Callable[[], None]: ...
