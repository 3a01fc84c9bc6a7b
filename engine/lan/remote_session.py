"""A :class:`~engine.session.Session` whose seat is at a LAN host, across a real TCP connection.

:class:`NetworkSession` is used from synchronous code (the UI, tests): its connection runs on a daemon thread with
its own asyncio loop, and every public method is synchronous and thread-safe. A request waits (bounded) for the
host's answer: ``submit`` sends ``act``, ``snapshot`` and then a ``ping``, so the host's ``pong`` says the action was
taken (or the ``error`` before it says why not) and its events have come. Anything that goes wrong on the wire is a
:class:`~engine.errors.ParlourError` with a sentence for a person.

Subscribers get :class:`~engine.session.Update` objects, in order, on the connection's thread. The events that come
are kept until a snapshot that shows them arrives (the host sends every snapshot after the event lines it shows):
a prompt, the snapshot after ``started``, or the answer to a ``snapshot`` the session asks for itself when events
came and no snapshot followed them (at most one such request at a time). Each update holds the events kept with the
snapshot that showed them. A ``clock`` message heard while events are kept is told to watchers after the update that
delivers them, so the order of what a screen is told stays the host's.

>>> NetworkSession.connect("127.0.0.1", 1, "Ann", timeout=2.0)
Traceback (most recent call last):
...
engine.errors.ParlourError: cannot reach the host at 127.0.0.1:1 (connection refused)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import codec
from engine.errors import InvalidActionError, ParlourError, echo, error_for
from engine.events import Event
from engine.game import Action, GameEntry
from engine.hints import Hint
from engine.lan import protocol as p
from engine.match import RoundOver
from engine.registry import get_entry
from engine.session import Snapshot, TableInfo, Update

log = logging.getLogger(__name__)

TIMEOUT = 10.0
"""How long a request waits for the host's answer (seconds)."""


class HostRefusal(ParlourError):
    """The host refused a request with a code of the protocol's own (``reason``: ``name_taken``, ``bad_token``...);
    the engine's codes are raised as the engine's errors."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass
class _Call:
    """One request in flight: it ends at a message of type ``until`` (or at any error, unless ``until`` is pong)."""

    until: str
    done: threading.Event = field(default_factory=threading.Event)
    reply: dict[str, Any] | None = None
    errors: list[dict[str, Any]] = field(default_factory=list)
    snapshots: list[Snapshot] = field(default_factory=list)


class NetworkSession:
    """One seat (or a spectator) at a table of a :class:`~engine.lan.server.LanServer`, over TCP."""

    def __init__(self, timeout: float = TIMEOUT) -> None:
        """Not connected yet: use :meth:`connect`, :meth:`join_table` or :meth:`open_table`."""
        self.timeout = timeout
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run_loop, name="parlour-net", daemon=True)
        self._writer: asyncio.StreamWriter | None = None
        self._reader_task: asyncio.Task[None] | None = None
        self._resume_task: asyncio.Task[None] | None = None
        self._calls = threading.Lock()
        """One request at a time: its answers are the next ones."""
        self._state = threading.Condition(threading.RLock())
        self._call: _Call | None = None
        self._events: list[Event] = []
        """The events delivered to subscribers so far (a new subscriber's first update holds them)."""
        self._kept: deque[tuple[int, Event] | dict[str, Any]] = deque()
        """What came and waits for a snapshot that shows it: events (with their version) and the ``clock`` messages
        heard among them."""
        self._round_end: int | None = None
        """The version of the latest ``RoundOver`` (not the match's last) heard: :meth:`last_round_end`."""
        self._received_events = 0
        """How many events of the match this session has received, delivered or kept (a resume's ``seen``)."""
        self._shown: Snapshot | None = None
        """The snapshot of the last update delivered."""
        self._asking = False
        """A ``snapshot`` request of the session's own is on its way (:meth:`_ask`)."""
        self._ask_soon = False
        self._subscribers: list[Callable[[Update], None]] = []
        self._delivering = threading.RLock()
        """Held while updates go to the subscribers (the first one of a new subscriber, or a new one): never while
        waiting for the host, so a callback may hand an update to another thread that is asking the host something."""
        self._subscribers_lock = threading.Lock()
        self._info: TableInfo | None = None
        self._started = False
        self._awaiting_first = False
        self._last_error: str | None = None
        """``started`` and the snapshot after it have come: the session can play."""
        self._table: dict[str, Any] | None = None
        self._lost: str | None = None
        """Why the connection is gone (None: it is up)."""
        self._closed = False
        self.welcome: dict[str, Any] = {}
        self.code: str | None = None
        """The table's code once at a table."""
        self._listeners: list[Callable[[dict[str, Any]], None]] = []
        self._on_waiting: Callable[[dict[str, Any]], None] | None = None
        self._last_started: dict[str, Any] | None = None
        """The host's last ``started`` for the table this session is at (None: at none, or not started)."""
        self._last_clock: tuple[dict[str, Any], float] | None = None
        """The host's last ``clock`` for that table that started one, and when it came (``time.monotonic``): a watcher
        that comes later (the app of a player back in its seat as it connected) is told it."""
        self._address: tuple[str, int] | None = None
        self._skip = 0
        """Events of a resumed table's history that this session had already delivered (a version 1 host, or one
        that did not know what the session had, sends them all again)."""
        self._resuming = False
        """A ``hello`` with the token went out: the ``started`` that follows says where the events resume."""
        self.on_welcome: Callable[[dict[str, Any]], object] | None = None
        """Called (on the connection's thread) with each ``welcome``: the first and every resume's (whose token may
        be new), so the caller can keep the token."""
        self._said_bye = False
        """The host said goodbye (shutting down, replaced): no coming back."""
        self.resume = True
        """Come back with the token when the connection drops (within the host's ``resume_window``)."""

    # -- making one -------------------------------------------------------------------------------------------
    @classmethod
    def connect(
        cls,
        host: str,
        port: int,
        name: str,
        *,
        password: str | None = None,
        timeout: float = TIMEOUT,
        token: str | None = None,
        ask: Callable[[dict[str, Any]], None] | None = None,
        ask_timeout: float = 90.0,
    ) -> NetworkSession:
        """Connect and say hello (with ``token``: come back as that player); ParlourError when the host cannot be
        reached or refuses. With ``ask``, a name that is of a player away from a seat in play asks the table to let
        this session back into it: ``ask`` is called with the host's ``waiting`` message, and the answer may take
        up to ``ask_timeout`` seconds."""
        session = cls(timeout)
        session._thread.start()
        try:
            session._run(session._open(host, port), timeout)
            hello = p.Hello(
                protocol=p.OLDEST_PROTOCOL,
                max_protocol=p.PROTOCOL,
                name=name,
                password=password,
                token=token,
                ask=True if ask is not None else None,
            )
            session._on_waiting = ask
            call = session._request(
                [p.to_data(hello)], "welcome", "hello", timeout=ask_timeout if ask is not None else None
            )
            assert call.reply is not None
            session._welcome(call.reply)
        except BaseException:
            session.close()
            raise
        return session

    def _welcome(self, data: dict[str, Any]) -> None:
        self.welcome = data
        if self.on_welcome is not None:
            _tell_one(self.on_welcome, data, "welcome")

    @property
    def protocol(self) -> int:
        """The protocol version the host and this session agreed on."""
        version = self.welcome.get("protocol")
        return version if isinstance(version, int) and not isinstance(version, bool) else p.OLDEST_PROTOCOL

    def let_in(self, request: str, allow: bool) -> None:
        """Answer the host's ``asking`` (``request``): let the person back into the seat, or not."""
        self._request([{"type": "let_in", "request": request, "allow": allow}, {"type": "ping"}], "pong", "let_in")

    @classmethod
    def join_table(
        cls,
        host: str,
        port: int,
        name: str,
        table: str,
        seat: int | None,
        *,
        password: str | None = None,
        timeout: float = TIMEOUT,
        start_timeout: float | None = None,
    ) -> NetworkSession:
        """A session at ``seat`` of the table ``table`` (None: watch it), once its game has started (waiting up to
        ``start_timeout`` seconds, by default ``timeout``, for its creator to start it)."""
        session = cls.connect(host, port, name, password=password, timeout=timeout)
        try:
            if seat is None:
                session.spectate(table)
            else:
                session.sit(table, seat)
            session.wait_started(start_timeout if start_timeout is not None else timeout)
        except BaseException:
            session.close()
            raise
        return session

    @classmethod
    def open_table(
        cls,
        host: str,
        port: int,
        name: str,
        game: str,
        players: int,
        *,
        bots: Sequence[str | None] = (),
        seat: int | None = 0,
        preset: str | None = None,
        variants: Sequence[str] = (),
        password: str | None = None,
        timeout: float = TIMEOUT,
    ) -> NetworkSession:
        """Create a table whose other seats are all bots, start it and play ``seat`` (None: watch)."""
        session = cls.connect(host, port, name, password=password, timeout=timeout)
        try:
            session.create(game, players, bots=bots, seat=seat, preset=preset, variants=variants)
            session.start()
            session.wait_started(timeout)
        except BaseException:
            session.close()
            raise
        return session

    # -- the lobby ----------------------------------------------------------------------------------------------
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
    ) -> str:
        """Make a table (this player its creator, at ``seat``); its code. ``clock``: seconds per turn (None: no
        turn clock); ``hints``: its players may ask for hints."""
        message = {
            "type": "create",
            "game": game,
            "players": players,
            "bots": list(bots),
            "seat": seat,
            "preset": preset,
            "variants": list(variants),
            "level": level,
        }
        if clock is not None:
            message["clock"] = clock
        if hints:
            message["hints"] = True
        return self._table_code(self._request([message], "table", "create"))

    def sit(self, table: str, seat: int, *, ready: bool = True) -> None:
        """Take ``seat`` at the table ``table`` (and say ready: the creator may start)."""
        self._table_code(self._request([{"type": "sit", "table": table, "seat": seat}], "table", "sit"))
        if ready:
            self._request([{"type": "ready"}], "table", "ready")

    def spectate(self, table: str) -> None:
        self._table_code(self._request([{"type": "spectate", "table": table}], "table", "spectate"))

    def start(self) -> None:
        """Start the table (its creator only)."""
        self._request([{"type": "start"}, {"type": "ping"}], "pong", "start")

    def wait_started(self, timeout: float | None = None) -> None:
        """Wait (bounded) until the game has started and its first snapshot came; ParlourError otherwise."""
        wait = self.timeout if timeout is None else timeout
        with self._state:
            if not self._state.wait_for(lambda: self._started or self._lost is not None, wait):
                raise ParlourError(f"the game did not start within {wait:g} seconds")
            if not self._started:
                raise ParlourError(f"the connection to the host is gone: {self._lost}")

    def tables(self) -> list[dict[str, Any]]:
        """The host's tables, as the protocol's table summaries."""
        call = self._request([{"type": "list"}], "tables", "list")
        assert call.reply is not None
        tables = call.reply.get("tables")
        return [t for t in tables if isinstance(t, dict)] if isinstance(tables, list) else []

    @property
    def table(self) -> dict[str, Any] | None:
        """The summary of this player's table as the host last sent it (None: at no table)."""
        with self._state:
            return self._table

    def stand(self) -> None:
        """Leave the seat and watch the table (before its start)."""
        self._request([{"type": "stand"}], "table", "stand")

    def declare_ready(self) -> None:
        """Before the start: this player is ready (the creator may start)."""
        self._request([{"type": "ready"}], "table", "ready")

    def fill(self, level: str) -> None:
        """The creator fills every free seat with a bot of ``level``."""
        self._request([{"type": "fill", "level": level}], "table", "fill")

    def chat(self, text: str) -> None:
        """Say ``text`` to everybody at this player's table."""
        self._request([{"type": "chat", "text": text}, {"type": "ping"}], "pong", "chat")

    def leave(self) -> None:
        """Leave the table (in a game, a bot of the table's level takes the seat); the connection stays, for the
        lobby. The session is ready for another table."""
        self._request([{"type": "leave"}], "left", "leave")
        self._forget_table()

    def _forget_table(self) -> None:
        with self._subscribers_lock:
            self._subscribers.clear()
        with self._state:
            self._info, self._started, self._awaiting_first = None, False, False
            self._forget_events()
            self._table, self.code, self._skip = None, None, 0
            self._last_started = self._last_clock = None

    def watch(self, callback: Callable[[dict[str, Any]], None]) -> Callable[[], None]:
        """Call ``callback`` (on the connection's thread) with each lobby message from the host: ``table``,
        ``chat``, ``started``, ``left``, ``bye``, ``clock`` (a table's turn clock started or ran out, as the host
        sent it) and ``asking`` (someone asks to be let back into a seat: answer with :meth:`let_in`);
        ``{"type": "lost", "reason": ..., "final": bool}`` when the connection drops (``final``: it will not come
        back) and ``{"type": "resumed"}`` when it is back.

        A session already at a table whose game has started (it came back to its seat as it connected) tells a new
        watcher that table's last ``started`` at once, so nothing that follows a ``started`` misses it; then the
        turn clock that runs there, if one does, with the seconds it has left now."""
        with self._subscribers_lock:
            self._listeners.append(callback)
        with self._state:
            started, clock = self._last_started, self._last_clock
        if started is not None:
            _tell_one(callback, started, "lobby")
            if clock is not None:
                data, heard = clock
                left = float(data.get("seconds", 0.0)) - (time.monotonic() - heard)
                _tell_one(callback, {**data, "seconds": round(max(0.0, left), 3)}, "lobby")

        def stop() -> None:
            with self._subscribers_lock, contextlib.suppress(ValueError):
                self._listeners.remove(callback)

        return stop

    def _tell(self, data: dict[str, Any]) -> None:
        with self._subscribers_lock:
            listeners = list(self._listeners)
        for callback in listeners:
            _tell_one(callback, data, "lobby")

    def _table_code(self, call: _Call) -> str:
        assert call.reply is not None
        code = call.reply.get("table", {}).get("code") if isinstance(call.reply.get("table"), dict) else None
        if not isinstance(code, str):
            raise ParlourError("the host sent a table without a code")
        self.code = code
        return code

    # -- the Session ------------------------------------------------------------------------------------------
    @property
    def info(self) -> TableInfo:
        with self._state:
            if self._info is None:
                raise ParlourError("the game at this table has not started")
            return self._info

    @property
    def seat(self) -> int | None:
        return self.info.seat

    @property
    def entry(self) -> GameEntry:
        return get_entry(self.info.key)

    def snapshot(self) -> Snapshot:
        # (The host sends it after every event it shows: those have been delivered by the time it is read.)
        call = self._request([{"type": "snapshot"}, {"type": "ping"}], "pong", "snapshot")
        if not call.snapshots:
            raise ParlourError("the host sent no snapshot")
        return call.snapshots[-1]

    def submit(self, action: Action) -> None:
        if isinstance(action, str) and not 1 <= len(action) <= 200:
            raise InvalidActionError(f"not an action: {echo(action, 40)}")
        try:
            data = action if isinstance(action, str) else codec.encode(action)
            p.line({"type": "act", "action": data})  # it must be something JSON can carry
        except (ValueError, TypeError, RecursionError, ParlourError) as err:
            raise InvalidActionError(f"not an action: {echo(action, 40)}") from err
        # The snapshot asked for after it comes after the action's events: they are delivered before this returns,
        # as at a host in this process.
        self._request([{"type": "act", "action": data}, {"type": "snapshot"}, {"type": "ping"}], "pong", "act")

    def subscribe(self, callback: Callable[[Update], None]) -> Callable[[], None]:
        with self._delivering:
            with self._state:
                shown = self._shown
                first = Update(tuple(self._events), shown) if shown is not None else None
            if first is not None:  # (else the first update comes with the first snapshot)
                callback(first)
            with self._subscribers_lock:
                self._subscribers.append(callback)

        def stop() -> None:
            with self._subscribers_lock, contextlib.suppress(ValueError):
                self._subscribers.remove(callback)

        return stop

    def hint(self) -> Hint | None:
        """The host's hint for this seat, with its reason (None for a spectator, who never gets one; ParlourError
        when the table was made without hints)."""
        if self.info.seat is None:
            return None
        with self._state:
            lost = self._lost
        if lost is not None:  # (a host gone is the news, whatever the table allowed)
            raise ParlourError(f"the connection to the host is gone: {lost}")
        if not self.info.hints:
            raise ParlourError("this table was made without hints: its creator did not allow them")
        call = self._request([{"type": "hint"}], "hint", "hint")
        assert call.reply is not None
        data = call.reply.get("hint")
        if data is None:
            return None
        try:
            hint = codec.decode(data)
        except Exception as err:
            raise ParlourError("the host sent a hint that does not decode") from err
        if not isinstance(hint, Hint):
            raise ParlourError("the host sent something else than a hint")
        return hint

    def ready(self) -> None:
        self._request([{"type": "next"}, {"type": "ping"}], "pong", "next")

    def last_round_end(self) -> int | None:
        """From the versions the host's events carry: that of the latest round's end heard (a resume's history
        skipped as already had included: it was heard the first time)."""
        with self._state:
            return self._round_end

    def sync(self) -> None:
        """Wait (bounded) until every message the host sent before now has been handled: at a game, every event of
        what happened before the host read this request delivered to the subscribers, with a snapshot that shows it
        (a ``snapshot`` and a ``ping``: the host answers in order, its snapshot after the events it shows)."""
        with self._state:
            playing = self._info is not None
        messages: list[dict[str, Any]] = [{"type": "snapshot"}] if playing else []
        self._request([*messages, {"type": "ping"}], "pong", "ping")

    def close(self) -> None:
        """Say bye (bounded) and stop the connection's thread; harmless twice."""
        with self._state:
            if self._closed:
                return
            self._closed = True
            up = self._lost is None and self._writer is not None
        with self._subscribers_lock:
            self._subscribers.clear()
            self._listeners.clear()
        if up and self._thread.is_alive():
            with contextlib.suppress(ParlourError):
                self._request([{"type": "bye"}], "bye", "bye", closing=True, timeout=min(self.timeout, 2.0))
        if self._thread.is_alive():
            with contextlib.suppress(RuntimeError, TimeoutError, ParlourError):
                self._run(self._shutdown(), 2.0)
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(2.0)
        if not self._thread.is_alive() and not self._loop.is_closed():
            self._loop.close()

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def connected(self) -> bool:
        """The connection is up."""
        with self._state:
            return self._lost is None and self._writer is not None

    # -- requests ---------------------------------------------------------------------------------------------
    def _request(
        self,
        messages: list[dict[str, Any]],
        until: str,
        what: str,
        *,
        closing: bool = False,
        timeout: float | None = None,
    ) -> _Call:
        """Send ``messages`` and wait (bounded) for a message of type ``until``; the typed ParlourError of the
        host's ``error`` for them."""
        if threading.current_thread() is self._thread:
            raise ParlourError("a session cannot wait for the host from its own event callback")
        wait = self.timeout if timeout is None else timeout
        if not self._calls.acquire(timeout=wait):
            raise ParlourError(f"another request to the host did not end within {wait:g} seconds")
        try:
            with self._state:
                if self._closed and not closing:
                    raise ParlourError("this session has left the table")
                if self._lost is not None:
                    raise ParlourError(f"the connection to the host is gone: {self._lost}")
                call = self._call = _Call(until)
            try:
                lines = b"".join(p.line(m) for m in messages)
                self._run(self._send(lines), wait)
                if not call.done.wait(wait):
                    # A late answer would be taken for the next request's: the connection is given up.
                    reason = f"the host did not answer {what} within {wait:g} seconds"
                    self._lose(reason)
                    with contextlib.suppress(RuntimeError):
                        self._loop.call_soon_threadsafe(self._hang_up)
                    raise ParlourError(reason)
            finally:
                with self._state:
                    self._call = None
            if call.errors:
                first = call.errors[0]
                code, message = str(first.get("code")), str(first.get("message", "refused"))[:300]
                error = error_for(code, message)
                raise error if error.code == code else HostRefusal(message, code)
            if call.reply is None:
                with self._state:
                    lost = self._lost or "closed"
                raise ParlourError(f"the connection to the host is gone: {lost}")
            return call
        finally:
            self._calls.release()

    def _run(self, coroutine: Any, timeout: float) -> Any:
        """Run ``coroutine`` on the connection's loop and wait (bounded) for it; ParlourError for a wire problem."""
        try:
            future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        except RuntimeError as err:
            coroutine.close()
            raise ParlourError("the connection to the host is closed") from err
        try:
            return future.result(timeout)
        except TimeoutError as err:
            future.cancel()
            raise ParlourError(f"the host did not answer within {timeout:g} seconds") from err
        except ParlourError:
            raise
        except (OSError, ConnectionError) as err:
            raise ParlourError(f"the connection to the host failed ({_reason(err)})") from err

    # -- the connection's thread --------------------------------------------------------------------------------
    def _run_loop(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_forever()
        finally:
            with contextlib.suppress(Exception):
                tasks = asyncio.all_tasks(self._loop)
                for task in tasks:
                    task.cancel()
                if tasks:
                    self._loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))

    async def _open(self, host: str, port: int) -> None:
        try:
            reader, writer = await asyncio.open_connection(host, port, limit=p.HOST_LINE + 1)
        except OSError as err:
            raise ParlourError(f"cannot reach the host at {host}:{port} ({_reason(err)})") from err
        self._address = (host, port)
        self._writer = writer
        self._reader_task = asyncio.create_task(self._read(reader))

    async def _send(self, data: bytes) -> None:
        writer = self._writer
        if writer is None or writer.is_closing():
            raise ParlourError("the connection to the host is closed")
        writer.write(data)
        await writer.drain()

    def _hang_up(self) -> None:
        if self._writer is not None and not self._writer.is_closing():
            self._writer.close()

    async def _shutdown(self) -> None:
        writer = self._writer
        if writer is not None and not writer.is_closing():
            writer.close()
        if writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer.wait_closed(), 1.0)
        for task in (self._reader_task, self._resume_task):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def _read(self, reader: asyncio.StreamReader) -> None:
        reason = "the host closed the connection"
        try:
            while True:
                raw = await reader.readline()
                if not raw:
                    if self._last_error is not None:  # the host said why before it closed (a timeout, too many errors)
                        reason = f"the host closed the connection: {self._last_error[:120]}"
                    break
                if not raw.endswith(b"\n"):
                    reason = "the host sent a line that does not end"
                    break
                data = p.parse_host_line(raw)
                if data["type"] == "ping":
                    if self._writer is not None:
                        self._writer.write(p.line({"type": "pong"}))
                    continue
                if data["type"] == "bye":
                    reason = f"the host said goodbye ({str(data.get('message', data.get('reason')))[:120]})"
                    # A host that restarts offers its tables again: this player comes back with its token.
                    self._said_bye = data.get("reason") != p.RESTARTING
                    self._received(data)
                    break
                self._received(data)
        except asyncio.CancelledError:
            reason = "the session was closed"
            raise
        except p.ProtocolError as err:
            reason = f"the host sent something unreadable ({err.message})"
        except (OSError, ValueError) as err:
            reason = f"the connection failed ({_reason(err)})"
        except Exception as err:  # a bug on this side: the session ends with a sentence, not a traceback
            reason = f"a message from the host could not be read ({type(err).__name__})"
        finally:
            self._lose(reason)
            comes_back = self._may_resume()
            if comes_back:
                self._resume_task = asyncio.get_running_loop().create_task(self._come_back())
            self._tell({"type": "lost", "reason": reason, "final": not comes_back})

    def _may_resume(self) -> bool:
        return (
            self.resume
            and not self._closed
            and not self._said_bye
            and self._address is not None
            and isinstance(self.welcome.get("token"), str)
        )

    async def _come_back(self) -> None:
        """Reconnect with the token, a little later each time, until the host's resume window has passed."""
        assert self._address is not None
        loop = asyncio.get_running_loop()
        window = self.welcome.get("resume_window")
        deadline = loop.time() + (float(window) if isinstance(window, int | float) else 120.0)
        delay = 0.1
        hello: dict[str, Any] = {"type": "hello", "protocol": p.OLDEST_PROTOCOL, "max_protocol": p.PROTOCOL}
        hello["name"] = self.welcome.get("name", "?")
        why = "the host did not take this player back in time"
        while not self._closed and loop.time() < deadline:
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)
            hello["token"] = self.welcome["token"]
            with self._state:
                if self._started:
                    hello["seen"] = self._received_events
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection(*self._address, limit=p.HOST_LINE + 1), 5.0
                )
            except (OSError, TimeoutError):
                continue
            try:
                writer.write(p.line(hello))
                raw = await asyncio.wait_for(reader.readline(), 5.0)
                data = p.parse_host_line(raw) if raw.endswith(b"\n") else None
            except (OSError, TimeoutError, p.ProtocolError):
                writer.close()
                continue
            if data is None or data["type"] != "welcome":
                writer.close()
                if data is not None and data["type"] == "error":
                    why = f"the host refused to take this player back: {str(data.get('message'))[:120]}"
                    break
                continue
            with self._state:
                if self._closed:
                    writer.close()
                    return
                self._writer, self._lost, self._last_error = writer, None, None
                self._resuming = self._started
                self._said_bye = False
            self._welcome(data)
            self._reader_task = loop.create_task(self._read(reader))
            self._tell({"type": "resumed"})
            return
        self._tell({"type": "lost", "reason": why, "final": True})

    def _lose(self, reason: str) -> None:
        with self._state:
            if self._lost is None:
                self._lost = reason
            call = self._call
            self._state.notify_all()
        if call is not None:
            call.done.set()

    def _received(self, data: dict[str, Any]) -> None:
        """One message from the host, on the connection's thread."""
        kind = data["type"]
        if kind == "event":
            self._event(data)
        elif kind == "started":
            info = codec.decode(data.get("info"))
            if not isinstance(info, TableInfo):
                raise ValueError("the table's information did not come through")
            with self._state:
                if self._resuming:
                    # The events from ``from`` on follow (a version 1 host sends them all): skip those received.
                    first = data.get("from", 0)
                    have = self._received_events
                    from_ok = isinstance(first, int) and not isinstance(first, bool) and 0 <= first <= have
                    self._skip = have - first if from_ok else have
                    self._resuming = False
                else:
                    self._forget_events()
                    self._last_clock = None
                self._info = info
                self._last_started = data
                self.code = str(data.get("table")) if data.get("table") else self.code
                self._awaiting_first = not self._started
        elif kind == "snapshot":
            snap = self._decode_snapshot(data)
            self._deliver(snap)
            with self._state:
                if self._awaiting_first:
                    self._awaiting_first = False
                    self._started = True
                    self._state.notify_all()
        elif kind == "waiting":
            waiting = self._on_waiting
            if waiting is not None:
                _tell_one(waiting, data, "waiting")
        elif kind == "error":
            self._last_error = str(data.get("message", data.get("code")))
        elif kind == "table":
            with self._state:
                table = data.get("table")
                self._table = table if isinstance(table, dict) else None
        elif kind == "left":
            with self._state:
                self._table = None
                self._last_started = self._last_clock = None
        elif kind == "clock":
            with self._state:
                ran_out = data.get("ran_out") is True
                seconds = data.get("seconds")
                usable = isinstance(seconds, int | float) and not isinstance(seconds, bool) and math.isfinite(seconds)
                self._last_clock = None if ran_out or not usable else (data, time.monotonic())
        if kind == "clock" and self._keep_told(data):
            pass  # told after the update of the events it came after
        elif kind in ("table", "chat", "started", "left", "bye", "clock", "asking"):
            self._tell(data)
        with self._state:
            call = self._call
        if call is None:
            return
        if kind == "snapshot":
            call.snapshots.append(snap)
        if kind == "error":
            call.errors.append(data)
            if call.until != "pong":
                call.done.set()
        elif kind == call.until:
            call.reply = data
            call.done.set()

    def _event(self, data: dict[str, Any]) -> None:
        event = codec.decode(data.get("event"))
        if not isinstance(event, Event):
            raise ValueError("an event did not come through")
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 0:
            raise ValueError("an event came without its version")
        with self._state:
            if self._skip:
                self._skip -= 1
                return
            self._kept.append((version, event))
            self._received_events += 1
            if isinstance(event, RoundOver) and not event.last:
                self._round_end = version
            if self._ask_soon:
                return
            self._ask_soon = True
        # Once the lines already read have been handled (a prompt right behind these events makes asking needless).
        asyncio.get_running_loop().call_soon(self._maybe_ask)

    def _keep_told(self, data: dict[str, Any]) -> bool:
        """Keep a message to tell after the events kept now (True), or not when none are kept (False)."""
        with self._state:
            if not any(isinstance(item, tuple) for item in self._kept):
                return False
            self._kept.append(data)
            return True

    def _deliver(self, snap: Snapshot) -> None:
        """A snapshot came: the events kept that it shows, with it, to the subscribers as one update (none when it
        shows nothing new); then the messages heard among those events, in their place."""
        with self._delivering:
            with self._state:
                events: list[Event] = []
                before: list[dict[str, Any]] = []
                after: list[dict[str, Any]] = []
                kept = self._kept
                while kept:
                    item = kept[0]
                    if isinstance(item, tuple):
                        if item[0] > snap.version:
                            break  # (a host that sent this snapshot too early: it waits for one that shows it)
                        events.append(item[1])
                        before.extend(after)  # a message between two events shown: told before the update
                        after.clear()
                    else:
                        after.append(item)
                    kept.popleft()
                shown = self._shown
                if not events and shown is not None and shown.version == snap.version:
                    fresh = None  # nothing new: the subscribers have this moment already
                else:
                    self._events.extend(events)
                    self._shown = snap
                    fresh = Update(tuple(events), snap)
            for data in before:
                self._tell(data)
            if fresh is not None:
                with self._subscribers_lock:
                    subscribers = list(self._subscribers)
                for callback in subscribers:
                    try:
                        callback(fresh)
                    except Exception:  # a subscriber's bug must not end the connection
                        log.exception("an update callback failed")
            for data in after:
                self._tell(data)

    def _forget_events(self) -> None:
        """A new table, or none: nothing of the last one's events stays (under ``_state``)."""
        self._events.clear()
        self._kept.clear()
        self._received_events = 0
        self._shown = None

    def _maybe_ask(self) -> None:
        """On the connection's thread, once the lines read so far are handled: events are kept that no snapshot
        showed, so ask the host for one (on a thread of its own: a request waits for its answer), unless a request
        of the session's own is on its way already."""
        with self._state:
            self._ask_soon = False
            wanted = any(isinstance(item, tuple) for item in self._kept)
            if not wanted or self._asking or self._closed or self._lost is not None or self._info is None:
                return
            self._asking = True
            mark = self._received_events
        threading.Thread(target=self._ask, args=(mark,), name="parlour-net-ask", daemon=True).start()

    def _ask(self, mark: int) -> None:
        try:
            self._request([{"type": "snapshot"}, {"type": "ping"}], "pong", "snapshot")
        except ParlourError:
            pass  # the connection is gone or the table left: nothing to deliver any more
        finally:
            with self._state:
                self._asking = False
                # Events that came after the answer was made: ask again (only for new ones, so a host that never
                # shows them is not asked for ever).
                again = self._received_events > mark and any(isinstance(item, tuple) for item in self._kept)
            if again:
                with contextlib.suppress(RuntimeError):
                    self._loop.call_soon_threadsafe(self._maybe_ask)

    def _decode_snapshot(self, data: dict[str, Any]) -> Snapshot:
        try:
            snap = codec.decode(data.get("snapshot"))
        except ParlourError as err:
            raise ValueError(f"the host sent a snapshot that does not decode ({err})") from err
        if not isinstance(snap, Snapshot):
            raise ValueError("the host sent a snapshot that does not decode")
        return snap


def _tell_one(callback: Callable[[dict[str, Any]], object], data: dict[str, Any], what: str) -> None:
    """Call a caller's callback with a host message: its bug is logged, and must not end the connection."""
    try:
        callback(data)
    except Exception:
        log.exception("a %s callback failed", what)


def _reason(err: BaseException) -> str:
    number = getattr(err, "errno", None)
    if isinstance(number, int) and number > 0:
        return os.strerror(number).lower()
    text = getattr(err, "strerror", None) or str(err) or type(err).__name__
    return str(text).lower()
