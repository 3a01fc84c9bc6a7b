"""Sessions on a :class:`~engine.play.table_host.TableHost`: one seat each.

:class:`LocalSession` is a seat at a host in this process. :class:`CodecSession` wraps any session so that every
message to and from it crosses as JSON text through :mod:`engine.codec`, exactly as over the network: the contract
tests run against both, and the network session must pass the same ones.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine import codec
from engine.errors import CodecError, ParlourError, error_for
from engine.game import Action, GameEntry
from engine.hints import Hint
from engine.registry import get_entry
from engine.session import Session, Snapshot, TableInfo, Update

if TYPE_CHECKING:
    from engine.play.table_host import TableHost


class LocalSession:
    """One seat at a host in this process. It can only act for its own seat."""

    def __init__(self, host: TableHost, seat: int | None) -> None:
        self._host = host
        self._seat = host.table.state.check_seat(seat, spectator=True)
        """Checked once here (SeatError for anything that is not a seat or None): every call passes it on."""
        self._info = host.info(seat)
        self._unsubscribers: list[Callable[[], None]] = []
        self._closed = False

    @property
    def info(self) -> TableInfo:
        return self._info

    @property
    def seat(self) -> int | None:
        return self._seat

    @property
    def entry(self) -> GameEntry:
        return self._host.entry

    def snapshot(self) -> Snapshot:
        return self._host.snapshot(self._seat)

    def submit(self, action: Action) -> None:
        if self._closed:
            raise ParlourError("this session has left the table")
        self._host.submit(self._seat, action)

    def subscribe(self, callback: Callable[[Update], None]) -> Callable[[], None]:
        stop = self._host.subscribe_updates(self._seat, callback)
        self._unsubscribers.append(stop)
        return stop

    def hint(self) -> Hint | None:
        return self._host.hint(self._seat)

    def ready(self) -> None:
        self._host.ready(self._seat)

    def last_round_end(self) -> int | None:
        return self._host.last_round_end()

    def hurry(self) -> None:
        """The bots play to the end of the round without their pace (a table in this process only: over the LAN,
        other people's tables keep theirs)."""
        self._host.hurry()

    def takeback_refusal(self) -> str | None:
        """Why this seat may not take a move back now, in one sentence (None: it may)."""
        if self._closed:
            return "This session has left the table."
        return self._host.takeback_refusal(self._seat)

    def take_back(self) -> int:
        """Go back to this seat's latest decision, exactly as it was (a table in this process against computer
        players only); the version now. Every subscription ends: subscribe again to follow the table from there.
        ParlourError, in one sentence, when it may not."""
        if self._closed:
            raise ParlourError("this session has left the table")
        version = self._host.take_back(self._seat)
        self._unsubscribers.clear()  # (the host has ended them)
        return version

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for stop in self._unsubscribers:
            stop()
        self._unsubscribers.clear()
        self._host.disconnect(self._seat)


def _wire(value: Any) -> Any:
    """``value`` sent as JSON text and read back, as a network peer would get it."""
    return codec.loads(codec.dumps(value))


class CodecSession:
    """A session whose every message goes through the codec as JSON text (views, events, actions, errors)."""

    def __init__(self, inner: Session) -> None:
        self._inner = inner
        info = _wire(inner.info)
        if not isinstance(info, TableInfo):
            raise CodecError("the table information did not come through")
        self._info = info
        self.lines = 0
        """How many JSON lines crossed (for tests)."""

    @property
    def info(self) -> TableInfo:
        return self._info

    @property
    def entry(self) -> GameEntry:
        return get_entry(self._info.key)

    def _through(self, value: Any) -> Any:
        self.lines += 1
        return _wire(value)

    def snapshot(self) -> Snapshot:
        snap = self._through(self._inner.snapshot())
        if not isinstance(snap, Snapshot):
            raise CodecError("the snapshot did not come through")
        return snap

    def submit(self, action: Action) -> None:
        sent = self._through(action)
        try:
            self._inner.submit(sent)
        except ParlourError as err:
            # The error as the protocol answers it, and read back on this side.
            reply = json.loads(json.dumps({"type": "error", "code": err.code, "message": str(err)}))
            raise error_for(reply["code"], reply["message"]) from None

    def subscribe(self, callback: Callable[[Update], None]) -> Callable[[], None]:
        def received(update: Update) -> None:
            sent = self._through(update)
            if not isinstance(sent, Update):
                raise CodecError("an update did not come through")
            callback(sent)

        return self._inner.subscribe(received)

    def hint(self) -> Hint | None:
        hint = self._inner.hint()
        if hint is None:
            return None
        sent = self._through(hint)
        if not isinstance(sent, Hint):
            raise CodecError("the hint did not come through")
        return sent

    def ready(self) -> None:
        self._inner.ready()

    def last_round_end(self) -> int | None:
        return self._inner.last_round_end()

    def close(self) -> None:
        self._inner.close()
