"""Every LAN game kept on the client's side (issue 25): what this player's seat saw of each match, and its count in
the statistics.

:class:`LanRecords` follows a :class:`~engine.lan.remote_session.NetworkSession` from the moment the app has it: at each
``started`` (the host's message, with the table's code and the match's id) it subscribes to the seat's events, which
reach it on the connection's thread, redacted for the seat, whether the table's screen is open or the player is
looking at the lobby. When the ``MatchOver`` comes, a thread of its own keeps the record and counts the match
(:func:`engine.records.finish.finish_seen`: a spectator's record is kept, not counted), so neither the connection's
thread nor the screen waits for a disk or for another process's hold on the statistics. A problem is one warning
notice, never a crash.

A ``started`` again for the same table (a connection that came back, a host restarted with its tables: the session
delivers each event once) goes on with the same record, under the match id the host gives now; a ``left`` ends it
(a player who left before the end has no record of that match: a bot finished it).
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from textual.app import App

from engine.errors import ParlourError
from engine.events import Event
from engine.lan.remote_session import NetworkSession
from engine.match import MatchOver
from engine.records.finish import Finished, finish_seen
from engine.records.record import SeenHeader
from engine.records.seen import SeenRecord

log = logging.getLogger("parlour.records")

WRITE_WAIT = 5.0
"""How long closing waits for a record still being written (seconds)."""


@dataclass
class _Following:
    """One table's match, followed from its ``started``."""

    code: str
    header: SeenHeader
    events: list[Event] = field(default_factory=list)
    stop: Callable[[], None] | None = None
    over: bool = False


class LanRecords:
    """Keeps what ``conn``'s seat sees of each match (see the module). ``warn`` is told each problem in one
    sentence, from a thread of its own; ``directory`` and ``stats`` default to the user's replays and statistics."""

    def __init__(
        self,
        conn: NetworkSession,
        warn: Callable[[str], None],
        *,
        directory: Path | None = None,
        stats: Path | None = None,
    ) -> None:
        self.conn = conn
        self.warn = warn
        self.directory = directory
        self.stats = stats
        self._lock = threading.Lock()
        """Guards what is followed and the writers; never held while writing or while calling the session."""
        self._following: _Following | None = None
        self._writers: list[threading.Thread] = []
        self.kept: list[Finished] = []
        """What each finished match's keeping did (the record's path, the problems), in order."""
        self._stop_watching = conn.watch(self._heard)

    # -- on the connection's thread --------------------------------------------------------------------------------
    def _heard(self, data: dict[str, Any]) -> None:
        kind = data.get("type")
        if kind == "started":
            self._started(data)
        elif kind == "left":
            self._end()

    def _started(self, data: dict[str, Any]) -> None:
        code = str(data.get("table") or "")
        match = data.get("match") if isinstance(data.get("match"), str) else None
        with self._lock:
            following = self._following
        if following is not None and following.code == code:
            if match is not None and match != following.header.match:  # the host restarted: its new replay's id
                with self._lock:
                    following.header = _with_match(following.header, match)
            return
        self._end()
        try:
            info = self.conn.info
            summary = self.conn.table or {}
            listed = summary.get("variants")
            variants = [str(v) for v in listed] if isinstance(listed, list) else []
            header = SeenHeader.of(
                info,
                host=str(self.conn.welcome.get("host") or "?"),
                table=code,
                match=match,
                variants=variants,
                started_at=datetime.datetime.now(datetime.UTC).isoformat(),
            )
        except ParlourError as err:  # the table's game is unknown here: nothing to keep
            log.warning("table %s is not followed for its record: %s", code, err)
            return
        following = _Following(code, header)
        with self._lock:
            self._following = following
        following.stop = self.conn.subscribe(lambda update: self._got(following, update.events))

    def _got(self, following: _Following, events: tuple[Event, ...]) -> None:
        with self._lock:
            if following.over:
                return
            following.events.extend(events)
            if not any(isinstance(event, MatchOver) for event in events):
                return
            following.over = True
            record = SeenRecord(following.header, list(following.events), datetime.datetime.now(datetime.UTC))
            writer = threading.Thread(target=self._keep, args=(record,), name="parlour-lan-record")
            self._writers = [thread for thread in self._writers if thread.is_alive()] + [writer]
        writer.start()

    def _end(self) -> None:
        with self._lock:
            following, self._following = self._following, None
        if following is not None and following.stop is not None:
            following.stop()

    # -- on a thread of its own ----------------------------------------------------------------------------------------
    def _keep(self, record: SeenRecord) -> None:
        try:
            done = finish_seen(record, self.directory, self.stats)
        except Exception as err:  # a bug: one notice and the log, never the app
            log.exception("the record of table %s could not be kept", record.header.table)
            done = Finished(None, [f"This game could not be kept ({type(err).__name__})."])
        with self._lock:
            self.kept.append(done)
        if done.problems:
            self.warn(" ".join(done.problems))

    # -- the app's side ------------------------------------------------------------------------------------------------
    def wait(self, timeout: float = WRITE_WAIT) -> bool:
        """Wait (bounded) for the records being written; whether they all were."""
        with self._lock:
            writers = list(self._writers)
        deadline = time.monotonic() + timeout
        for writer in writers:
            writer.join(max(0.0, deadline - time.monotonic()))
        return not any(writer.is_alive() for writer in writers)

    def close(self, timeout: float = WRITE_WAIT) -> None:
        """Stop following, and give a record being written the time to be written (the app is ending)."""
        self._stop_watching()
        self._end()
        self.wait(timeout)


def _with_match(header: SeenHeader, match: str) -> SeenHeader:
    return replace(header, match=match)


def keep_lan_records(app: App[Any], conn: NetworkSession) -> LanRecords:
    """The LAN app's records of ``conn``: a problem is one warning notice in ``app``."""

    def warn(text: str) -> None:
        with contextlib.suppress(RuntimeError):  # the app has ended: nobody to tell
            app.call_from_thread(app.notify, text, title="Not kept", severity="warning", markup=False)

    return LanRecords(conn, warn)
