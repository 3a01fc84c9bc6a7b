"""The LAN host's server: asyncio, newline-delimited JSON over TCP (see :mod:`engine.lan.protocol`).

The host is authoritative. Every line is read into a typed message before anything touches a table; every refusal
is answered with an ``error`` and changes nothing. Each table is a :class:`~engine.play.table_host.TableHost` (its
bots on a thread of their own); a player's connection reaches it through its seat's
:class:`~engine.play.local_sessions.LocalSession`, and the seat's updates (its redacted events with the snapshot
taken right after them) come back to the event loop through the connection's :class:`SeatFeed`, so a connection
only ever receives its own seat's view and redacted events (a spectator: the public ones). An update's event lines
go out first, then, if the seat must act and has not been asked at that version, its snapshot as the prompt; the
answer to a ``snapshot`` request is the snapshot of the last update sent, once every update made before it has gone
out. So every ``snapshot`` a connection is sent comes after every event line it shows.

Faults: each connection has a bounded outgoing queue and a drain timeout (a client that stops reading is dropped,
its table goes on); a silent peer is pinged and then dropped; a dropped player may come back with its token within
``resume_window`` seconds and gets a full snapshot; after ``takeover_after`` seconds away a bot of the table's level
plays its seat until it returns. :meth:`LanServer.close` ends every connection itself (it never relies on
``Server.wait_closed()``, whose behaviour differs across Python versions).

A table may have a turn clock (``create``'s ``clock``, off by default): when a person's seat must act, a timer of
that many seconds starts for that seat and version; if the table is still there when it runs out, a bot of the
table's level makes that one move (:meth:`TableHost.play_once`) and the seat stays the person's. At the end of a
round the clock also counts a person who has not said ``next`` in time as ready, so one idle person cannot hold the
table. The timers live on the event loop and are keyed on the moment they were set for: a move in time, a leave or
a bot taking the seat over makes them stale, and :meth:`LanServer.close` cancels them all.

With ``keep`` (a directory: ``parlour host`` gives it ``host/`` in the user data directory) every table in play is
kept in a journal, ``CODE.jsonl`` (:class:`engine.records.saves.Journals`): its set-up (the match's header and the
seats' people with their resume tokens) written once as it starts, then one line per action applied, appended and
synced by a thread of its own, never on the event loop nor under the table's lock; a set-up line again when who
is a person there changes. The journal goes when the match is over or its last person leaves. A host started again
with the same directory offers those tables again (a journal cut short mid-line by a crash is read without that
line; a whole-file ``CODE.json`` of an earlier version is read too): each is in play under its old code, its
people ``away`` until they come back with their token (a client that was waiting to resume does so by itself, and
``parlour join`` keeps it on disk: :mod:`engine.lan.tokens`), or are let back in by someone at the table (a name
alone never opens a seat in play: :meth:`LanServer.welcome`). A save that cannot be used is
moved aside (never deleted) and said in one sentence (:attr:`LanServer.problems`). A host that stops while it
keeps tables in play says ``bye`` with ``restarting`` to every connection (``shutting_down`` otherwise). A running
host claims its directory (:func:`engine.records.paths.claim_tables_dir`): a second host started meanwhile with
the same one keeps its tables in ``host-2/`` instead, and never takes or overwrites the first's live journals.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hmac
import json
import logging
import math
import random
import secrets
import socket
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import codec
from engine.errors import ParlourError, echo
from engine.events import Event
from engine.lan import protocol as p
from engine.match import MatchOver, RoundOver
from engine.names import name_key
from engine.play.local_sessions import LocalSession
from engine.play.table_host import TableHost
from engine.records.paths import TablesClaim, claim_tables_dir, move_aside, one_line
from engine.records.saves import JOURNAL_SUFFIX, Journals, SaveProblem, load_saved, remove_save
from engine.registry import check_level, difficulties, get_entry
from engine.session import Snapshot, Update
from engine.table import MAX_SEED

log = logging.getLogger("parlour.lan")

CODE_LETTERS = "BCDFGHJKLMNPQRSTVWXZ"
"""Table codes are four of these letters (no vowels: no words, no 0/O or 1/I confusion)."""


@dataclass(eq=False)
class Player:
    """A person at the host: lasts across connections (resume by token) until it leaves or its time runs out."""

    name: str
    token: str
    conn: Connection | None = None
    table: LobbyTable | None = None
    seat: int | None = None
    session: LocalSession | None = None
    stop_events: Callable[[], None] | None = None
    feed: SeatFeed | None = None
    """The seat's updates on their way to this player's connection (None: not at a game)."""
    prompted: int = -1
    """The version of the last snapshot sent because this seat had to act."""
    away_since: float | None = None
    timers: list[asyncio.TimerHandle] = field(default_factory=list)
    created: list[float] = field(default_factory=list)
    """When this player made its tables of the last minute (a cap on how fast one makes tables)."""
    allowance: float = math.inf
    """The pace its last connection left it at, and when (:meth:`Connection._carry_pace`; inf: none yet)."""
    paced: float = 0.0
    hint: tuple[tuple[str, int | None, int], bytes] | None = None
    """The last hint worked out for this player: for which match, seat and version, and its ``hint`` line."""
    hint_asks: int = 0
    """``hint`` messages waiting for the hint being worked out (one at a time per player)."""

    def send(self, data: dict[str, Any]) -> None:
        if self.conn is not None:
            self.conn.send(data)

    def send_line(self, line: bytes) -> None:
        if self.conn is not None:
            self.conn.send_line(line)


@dataclass(eq=False)
class SeatFeed:
    """One seat's updates on their way from the host's lock to a connection: added on whichever thread applied the
    move, sent on the event loop in the order they came (:meth:`LanServer._pump`)."""

    session: LocalSession
    updates: deque[Update] = field(default_factory=deque)
    """Made under the host's lock, not sent yet (``append`` and ``popleft`` are safe across threads)."""
    first: Snapshot | None = None
    """The snapshot that shows the history sent on joining, until it has gone out (the first pump sends it)."""
    snapshot: Snapshot | None = None
    """The snapshot of the last update sent: it shows every event line sent so far, and nothing more."""
    seq: int = 0
    """The number of the next event in the seat's stream (``seq``, version 2)."""


@dataclass(eq=False)
class SeatSlot:
    player: Player | None = None
    bot: str | None = None
    ready: bool = False
    taken_over: bool = False
    """A bot plays this person's seat while the person is away."""


@dataclass(eq=False)
class LobbyTable:
    code: str
    key: str
    title: str
    preset: str | None
    variants: tuple[str, ...]
    level: str
    seats: list[SeatSlot]
    creator: Player
    address: str = "?"
    """The address its creator made it from (a cap on the tables of one address)."""
    spectators: list[Player] = field(default_factory=list)
    host: TableHost | None = None
    over: bool = False
    clock: float | None = None
    """Seconds a person has for each move (None: no clock, the table waits as long as it takes)."""
    hints: bool = False
    """Whether its players may ask for hints (``create``'s ``hints``, off unless its creator allows them)."""
    turn: tuple[int, int] | None = None
    """The (seat, version) the turn clock runs for (None: none runs), kept after it ran out so it is not set again."""
    turn_timer: asyncio.TimerHandle | None = None
    turn_deadline: float = 0.0
    """When the turn clock runs out, in the event loop's time."""
    round_timer: asyncio.TimerHandle | None = None
    rounds: int = 0
    """How many end-of-round waits have begun: an end-of-round timer is for the wait it was set in, no later one."""
    stop_watching: Callable[[], None] | None = None
    """Ends the server's subscription to the host's events (the clock, the end of the match)."""
    match: str = field(default_factory=lambda: secrets.token_hex(8))
    """This match's identity (sent in ``started``): a client's record of what it saw names the host's record."""

    @property
    def state(self) -> str:
        return "over" if self.over else "playing" if self.host is not None else "open"

    def people(self) -> list[Player]:
        """Everybody at the table: seated players and spectators."""
        seated = [slot.player for slot in self.seats if slot.player is not None]
        return [*seated, *self.spectators]

    def clocked(self, seat: int) -> bool:
        """Whether the turn clock runs for ``seat``: a person's (connected or away), not one a bot has taken."""
        slot = self.seats[seat]
        return self.clock is not None and slot.player is not None and slot.bot is None and not slot.taken_over

    def stop_clock(self) -> None:
        """No timer of this table fires any more (the table is gone, or the host is stopping)."""
        for timer in (self.turn_timer, self.round_timer):
            if timer is not None:
                timer.cancel()
        self.turn_timer = self.round_timer = None
        self.turn = None
        if self.stop_watching is not None:
            self.stop_watching()
            self.stop_watching = None

    def summary(self) -> dict[str, Any]:
        seats = []
        for number, slot in enumerate(self.seats):
            if slot.bot is not None:
                status = "bot"
            elif slot.player is None:
                status = "open"
            elif self.host is None:
                status = "ready" if slot.ready else "waiting"
            elif slot.taken_over:
                status = "replaced"
            else:
                status = "connected" if slot.player.conn is not None else "away"
            seats.append(
                {
                    "seat": number,
                    "name": slot.player.name if slot.player is not None else None,
                    "bot": slot.bot,
                    "status": status,
                }
            )
        return {
            "code": self.code,
            "game": self.key,
            "title": self.title,
            "players": len(self.seats),
            "preset": self.preset,
            "variants": list(self.variants),
            "level": self.level,
            "clock": self.clock,
            "hints": self.hints,
            "state": self.state,
            "creator": self.creator.name,
            "seats": seats,
            "spectators": len(self.spectators),
        }


class Connection:
    """One TCP connection: its reader loop, its writer task and its bounded outgoing queue."""

    def __init__(self, server: LanServer, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.server = server
        self.reader = reader
        self.writer = writer
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(maxsize=server.queue_limit)
        self.queued = 0
        """Bytes in :attr:`queue` not yet handed to the transport (bounded by the server's ``queue_bytes``)."""
        self.protocol = p.OLDEST_PROTOCOL
        """The version agreed in the handshake."""
        self.welcomed = False
        """The handshake is over: this connection is a player's (until then it counts among the unwelcomed)."""
        self.ask: _Ask | None = None
        """Its request to be let back into a seat, while it waits for the answer."""
        self.player: Player | None = None
        self.closing = False
        self.errors = 0
        self.last_heard = time.monotonic()
        self.sent_lines = 0
        self.queued_lines = 0
        """Lines queued for this connection so far (what its requests cost, in lines: see :meth:`_serve`)."""
        self._writer_task: asyncio.Task[None] | None = None
        peer = writer.get_extra_info("peername")
        where = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        where = where.removeprefix("::ffff:") if "." in where else where  # (IPv4 on a dual-stack socket)
        self.address = where
        """The peer's address without its port: what limits per address count."""
        port = peer[1] if isinstance(peer, tuple) and len(peer) >= 2 else None
        self.peer = "?" if port is None else f"[{where}]:{port}" if ":" in where else f"{where}:{port}"
        self.opened = time.monotonic()
        self.allowance = float(server.line_burst)
        """Lines this connection may send before it is held back (a token bucket)."""
        self.paced = self.opened
        self.lines = 0

    # -- out --------------------------------------------------------------------------------------------------
    def send(self, data: dict[str, Any]) -> None:
        self.send_line(p.line(data))

    def send_line(self, line: bytes) -> None:
        """Queue one line made already (with its newline)."""
        if self.closing:
            return
        if self.queued + len(line) > self.server.queue_bytes:
            log.warning("%s: %d bytes wait to be sent to it (it does not read): dropped", self.peer, self.queued)
            self.abort()
            return
        try:
            self.queue.put_nowait(line)
        except asyncio.QueueFull:
            log.warning("%s: its outgoing queue is full (it does not read): dropped", self.peer)
            self.abort()
            return
        self.queued += len(line)
        self.queued_lines += 1

    async def _write(self) -> None:
        try:
            while True:
                item: bytes | None = await self.queue.get()
                lines: list[bytes] = []
                while item is not None:  # every line queued, up to the end (None) if it is there
                    lines.append(item)
                    if self.queue.empty():
                        break
                    item = self.queue.get_nowait()
                self.queued -= sum(len(b) for b in lines)
                if lines:
                    # One write, not writelines: the socket transport's writelines of CPython 3.12 and 3.13 before
                    # the fix of gh-127655 (3.12.1 and 3.13.0 among them) never pauses the protocol, so drain() would
                    # not wait for a client that does not read, and its buffer would grow without bound.
                    self.writer.write(b"".join(lines))
                    self.sent_lines += len(lines)
                    await asyncio.wait_for(self.writer.drain(), self.server.drain_timeout)
                if item is None:
                    self.writer.close()
                    return
        except (TimeoutError, ConnectionError, OSError):
            log.info("%s: could not be written to in time: dropped", self.peer)
            self.abort()

    def finish(self, data: dict[str, Any] | None = None) -> None:
        """Send ``data`` (if any), then close once the queue is written out."""
        if self.closing:
            return
        if data is not None:
            self.send(data)
        self.closing = True
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.abort()

    def abort(self) -> None:
        """Drop the connection now, whatever is still queued."""
        self.closing = True
        transport = self.writer.transport
        if not transport.is_closing():
            transport.abort()
        self.reader.feed_eof()
        writer = self._writer_task
        if writer is not None and writer is not asyncio.current_task():
            writer.cancel()  # it may wait on an empty queue: nothing more will be written

    # -- in ---------------------------------------------------------------------------------------------------
    async def run(self) -> None:
        self._writer_task = asyncio.create_task(self._write())
        try:
            await self._serve()
        finally:
            if not self.closing:
                self.finish()
            if self._writer_task is not None:
                try:
                    await asyncio.wait_for(asyncio.shield(self._writer_task), self.server.drain_timeout)
                except (TimeoutError, asyncio.CancelledError):
                    self.abort()
                    self._writer_task.cancel()
            self.abort()

    async def _pace(self) -> None:
        """Hold a connection to ``lines_per_second`` (past a burst of ``line_burst``), and let the others have the
        loop now and then: lines already buffered are read without waiting, so a client that floods would otherwise
        keep the host to itself."""
        server = self.server
        now = time.monotonic()
        self.allowance = min(server.line_burst, self.allowance + (now - self.paced) * server.lines_per_second)
        self.paced = now
        self.allowance -= 1
        if self.allowance < 0:
            await asyncio.sleep(-self.allowance / server.lines_per_second)
        else:
            self.lines += 1
            if self.lines % YIELD_EVERY == 0:
                await asyncio.sleep(0)

    async def _carry_pace(self, player: Player) -> None:
        """Take over the pace ``player``'s last connection left it at (see :meth:`_pace`), waiting first if it was
        behind: a client that resumes in a loop, each time sent the match so far, gets it no faster than lines."""
        server = self.server
        old = player.conn
        allowance, paced = (old.allowance, old.paced) if old is not None else (player.allowance, player.paced)
        now = time.monotonic()
        allowance = min(server.line_burst, allowance + (now - paced) * server.lines_per_second)
        if allowance < 0:
            await asyncio.sleep(-allowance / server.lines_per_second)
            allowance = 0.0
        self.allowance, self.paced = allowance, time.monotonic()

    async def _read_line(self, timeout: float) -> bytes | None:
        """The next line (None at the end of the stream); TimeoutError when nothing came in ``timeout``."""
        try:
            raw = await asyncio.wait_for(self.reader.readline(), timeout)
        except ValueError:  # longer than the stream's limit (MAX_LINE)
            raise p.ProtocolError(p.LINE_TOO_LONG, f"a line is at most {p.MAX_LINE} bytes") from None
        except TimeoutError:  # (an OSError too: let it through to the heartbeat)
            raise
        except (ConnectionError, OSError):
            return None
        if not raw or not raw.endswith(b"\n"):
            return None
        if p.content_length(raw) > p.MAX_LINE:  # (the reader's limit lets a line end in \r\n)
            raise p.ProtocolError(p.LINE_TOO_LONG, f"a line is at most {p.MAX_LINE} bytes")
        self.last_heard = time.monotonic()
        return raw

    async def _serve(self) -> None:
        server = self.server
        # The handshake: the first line is a hello, or the connection ends with an error.
        first: str | None = None
        try:
            raw = await self._read_line(server.hello_timeout)
            if raw is None:
                return
            message = p.parse_line(raw)
            first = message.TYPE
            if not isinstance(message, p.Hello):
                raise p.ProtocolError(p.HELLO_FIRST, "the first message must be a hello")
            back = server.tokens.get(message.token) if message.token is not None else None
            if back is not None:  # a player coming back goes on at the pace its last connection left it
                await self._carry_pace(back)
            queued = self.queued_lines
            player = server.welcome(self, message)
            if player is None:  # asking the table to let it back in: the answer decides
                player = await server.wait_let_in(self)
            self.allowance -= max(0, self.queued_lines - queued - 1)  # (a resume sends the match so far)
            self.player = player
        except TimeoutError:
            self.finish(p.error(p.TIMEOUT, "no hello in time"))
            return
        except p.ProtocolError as err:
            if err.code in (p.BAD_PASSWORD, p.SLOW_DOWN):
                # A guesser waits for each answer (and counts among its address's connections meanwhile).
                await asyncio.sleep(server.password_delay)
            self.finish(p.error(err.code, err.message, err.reply_to or first))
            return
        # Then any message, each answered or refused; a silent peer is pinged, then dropped.
        while not self.closing:
            try:
                raw = await self._read_line(server.heartbeat)
            except TimeoutError:
                if time.monotonic() - self.last_heard >= server.peer_timeout:
                    log.info("%s: silent for %.0f s: dropped", self.peer, server.peer_timeout)
                    self.finish(p.error(p.TIMEOUT, "nothing heard from you for too long"))
                    return
                self.send({"type": "ping"})
                continue
            except p.ProtocolError as err:
                self.finish(p.error(err.code, err.message))
                return
            if raw is None:
                return
            await self._pace()
            reply_to: str | None = None
            queued = self.queued_lines
            try:
                message = p.parse_line(raw)
                reply_to = message.TYPE
                server.handle(self, message)
            except p.ProtocolError as err:
                refusal = p.error(err.code, err.message, err.reply_to or reply_to)
            except ParlourError as err:  # the engine's refusal (an action, a table's settings), with its own code
                refusal = p.error(err.code, str(err), reply_to)
            except Exception:  # a bug: keep it in the log, tell the client something short, never a traceback
                log.exception("%s: a %s message failed", self.peer, reply_to)
                refusal = p.error("error", "the host could not do that", reply_to)
            else:
                self.errors = 0
                # A line answered with many (a spectate sends the match so far) counts as that many against the
                # connection's pace: asking for a long history in a loop gets it no faster than lines would come.
                self.allowance -= max(0, self.queued_lines - queued - 1)
                continue
            self.errors += 1
            if self.errors >= p.MAX_ERRORS:  # (answering the line as any refusal does: its type, when readable)
                goodbye = f"{p.MAX_ERRORS} rejected lines in a row: goodbye"
                self.finish(p.error(p.TOO_MANY_ERRORS, goodbye, refusal.get("reply_to")))
                return
            self.send(refusal)


class LanServer:
    """The host: its connections, players (by name and token) and tables (by code)."""

    def __init__(
        self,
        *,
        name: str = "Parlour",
        password: str | None = None,
        heartbeat: float = 15.0,
        peer_timeout: float = 45.0,
        hello_timeout: float = 10.0,
        drain_timeout: float = 10.0,
        queue_limit: int = 0,
        queue_bytes: int = 4 * 1024 * 1024,
        resume_window: float = 120.0,
        takeover_after: float = 60.0,
        pace: float = 0.0,
        seed: int | None = None,
        max_connections: int = 512,
        max_unwelcomed: int = 128,
        max_unwelcomed_per_address: int = 16,
        max_tables: int = 1000,
        tables_per_address: int = 32,
        tables_per_minute: int = 10,
        password_tries: int = 5,
        password_window: float = 60.0,
        ask_timeout: float = 60.0,
        ask_cooldown: float = 30.0,
        password_delay: float = 1.0,
        lines_per_second: float = 1000.0,
        line_burst: float = 2000.0,
        owner: str | None = None,
        keep: Path | None = None,
    ) -> None:
        self.name = name
        self.password = password
        self.heartbeat = heartbeat
        self.peer_timeout = peer_timeout
        self.hello_timeout = hello_timeout
        self.drain_timeout = drain_timeout
        self.queue_limit = queue_limit
        """The most messages queued for one connection (0: no count, only :attr:`queue_bytes`)."""
        self.queue_bytes = queue_bytes
        """The most bytes queued for one connection: a client that does not read is dropped past it."""
        self.resume_window = resume_window
        self.takeover_after = takeover_after
        self.pace = pace
        self.max_connections = max_connections
        """The most players' connections (welcomed ones)."""
        self.max_unwelcomed = max_unwelcomed
        """The most connections that have not been welcomed yet (counted apart: they never lock players out)."""
        self.max_unwelcomed_per_address = max_unwelcomed_per_address
        self.max_tables = max_tables
        self.tables_per_address = tables_per_address
        """The most tables not over whose creator came from one address."""
        self.tables_per_minute = tables_per_minute
        """The most tables one player may make in a minute."""
        self.password_tries = password_tries
        self.password_window = password_window
        """``password_tries`` wrong passwords from one address within this many seconds: it must wait the rest."""
        self.ask_timeout = ask_timeout
        """How long a person asking by name to be let back into a seat waits for an answer."""
        self.ask_cooldown = ask_cooldown
        """Seconds an address that was refused must wait before it asks to be let into a seat again (each request
        opens a dialog over someone's table)."""
        self.password_delay = password_delay
        """Seconds before a wrong password (or slow_down) is answered."""
        self.lines_per_second = lines_per_second
        self.line_burst = line_burst
        """A connection may send ``line_burst`` lines at once, then ``lines_per_second``: past that it waits."""
        self.owner = owner
        """The name of the host's own player (``parlour host``), asked when nobody at a table can be."""
        # Table codes, seeds and tokens are secret: a seed tells every card to come. A seed given (tests, the
        # protocol's example session) makes the codes and seeds repeatable instead.
        self.rng: random.Random = random.Random(seed) if seed is not None else secrets.SystemRandom()
        self.connections: set[Connection] = set()
        self.unwelcomed: set[Connection] = set()
        self.players: dict[str, Player] = {}
        """By :func:`~engine.names.name_key` (names that look alike are one name)."""
        self._failures: dict[str, list[float]] = {}
        """Wrong passwords (their times) per address, within the last ``password_window`` seconds."""
        self._asks: dict[str, _Ask] = {}
        """Requests to be let back into a seat, by request id."""
        self._refused: dict[str, float] = {}
        """When a request to be let back into a seat was last refused, per address (newest last)."""
        self._tables_line: bytes | None = None
        """The ``tables`` message as last made (None: a table changed since)."""
        self._tables_made = 0.0
        self.tokens: dict[str, Player] = {}
        self.tables: dict[str, LobbyTable] = {}
        self._server: asyncio.base_events.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._encoded: dict[int, tuple[Event, str]] = {}
        self._hints: set[asyncio.Future[None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing = False
        """close() has begun: no turn clock is set or fires any more."""
        self.port = 0
        self.keep = keep
        """Where tables in play are saved after every move and found again at the next start (None: nowhere)."""
        self._journals = Journals() if keep is not None else None
        """Writes and syncs the kept tables' journals on a thread of its own."""
        self._claim: TablesClaim | None = None
        """:attr:`keep` claimed while the host runs: a second host with the same directory keeps its own apart."""
        self.problems: list[str] = []
        """One sentence for each saved table that could not be offered again at the start (moved aside)."""
        self.prepared_host: Callable[[LobbyTable], TableHost | None] | None = None
        """Tests: called when a table starts, may return a host made beforehand (its own table, seed and bots) to
        play instead of a new one. A prepared host starts its bots as its ``autostart`` says."""

    # -- running ----------------------------------------------------------------------------------------------
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen on ``host``:``port`` (0: any free port); the bound port. OSError if the port is in use."""
        self._loop = asyncio.get_running_loop()
        # The reader's limit counts the line's ending too: a line of MAX_LINE bytes may end in \r\n.
        if host == "" and socket.has_dualstack_ipv6():
            # Every address, IPv4 and IPv6, on one socket and so one port (asyncio's own sockets for "" would be
            # two, each with its own port when any free one is asked for).
            listening = socket.create_server(("", port), family=socket.AF_INET6, dualstack_ipv6=True)
            self._server = await asyncio.start_server(self._accept, sock=listening, limit=p.MAX_LINE + 1)
        else:
            self._server = await asyncio.start_server(self._accept, host or "0.0.0.0", port, limit=p.MAX_LINE + 1)
        sockets = self._server.sockets
        self.port = int(sockets[0].getsockname()[1]) if sockets else port
        log.info("listening on %s port %d", host or "every address", self.port)
        if self.keep is not None and self._claim is None:
            asked, self._claim = self.keep, claim_tables_dir(self.keep)
            self.keep = self._claim.path
            if self.keep != asked:
                log.info("another host keeps its tables in %s: this one keeps them in %s", asked, self.keep)
        self._restore_all()
        return self.port

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Connection(self, reader, writer)
        if self._closing:
            writer.close()
            return
        if len(self.connections) - len(self.unwelcomed) >= self.max_connections:
            log.warning("%s: refused, %d players connected already", conn.peer, self.max_connections)
            writer.write(p.line(p.error(p.HOST_FULL, "this host is full: try again later")))
            writer.close()
            return
        from_there = [c for c in self.unwelcomed if c.address == conn.address]
        if len(from_there) >= self.max_unwelcomed_per_address:
            log.info("%s: refused, %d connections from there have not said hello", conn.peer, len(from_there))
            writer.write(p.line(p.error(p.HOST_FULL, "too many connections from your address: try again later")))
            writer.close()
            return
        if len(self.unwelcomed) >= self.max_unwelcomed:
            # The oldest silent connection makes room: it has had the longest to say hello.
            oldest = min(self.unwelcomed, key=lambda c: c.opened)
            log.info("%s: dropped, it had not said hello and the host is busy", oldest.peer)
            self.unwelcomed.discard(oldest)
            oldest.finish(p.error(p.TIMEOUT, "no hello in time"))
        self.unwelcomed.add(conn)
        self.connections.add(conn)
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        log.info("%s: connected", conn.peer)
        try:
            await conn.run()
        except Exception:
            log.exception("%s: the connection failed", conn.peer)
            conn.abort()
        finally:
            self.connections.discard(conn)
            self.unwelcomed.discard(conn)
            if task is not None:
                self._tasks.discard(task)
            self._gone(conn)
            log.info("%s: closed", conn.peer)

    def saved(self, timeout: float = 10.0) -> bool:
        """Wait (blocking, bounded) until every move applied so far is in the journals and synced; True when so (and
        when nothing is kept). For tests and benchmarks; the host itself never waits for its journals."""
        return self._journals is None or self._journals.flush(timeout)

    def tables_in_play(self) -> list[str]:
        """The codes of the tables whose match has started and is not over."""
        return [code for code, table in self.tables.items() if table.host is not None and not table.over]

    def kept_tables(self) -> list[str]:
        """The codes of the tables in play that this host keeps (offered again when it starts next)."""
        return [] if self._journals is None else self.tables_in_play()

    async def close(self, timeout: float = 2.0, *, end_tables: bool = False) -> None:
        """Stop listening, say bye to every connection, stop every table; bounded by ``timeout`` (and the journals'
        last writes by ``timeout`` more).

        The tables in play stay kept (their journals whole on disk, offered again at the next start) and every
        connection is told ``restarting``; with ``end_tables``, or when nothing is kept, ``shutting_down``, and
        ``end_tables`` also forgets every kept table."""
        kept = [] if end_tables else self.kept_tables()
        if end_tables:
            for table in self.tables.values():
                self._forget(table)
        self._closing = True
        for ask in self._asks.values():
            if not ask.done.done():
                ask.done.set_result(None)  # (void: its connection is told so as it closes)
        for table in self.tables.values():
            table.stop_clock()
        if self._server is not None:
            self._server.close()
        if kept:
            bye = {"type": "bye", "reason": p.RESTARTING, "message": "the host is restarting: your table is kept"}
        else:
            bye = {"type": "bye", "reason": p.SHUTTING_DOWN, "message": "the host is stopping"}
        for conn in list(self.connections):
            conn.finish(bye)
        tasks = list(self._tasks)
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=timeout)
            for conn in list(self.connections):
                conn.abort()
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.wait(pending, timeout=timeout)
        for player in self.players.values():
            for timer in player.timers:
                timer.cancel()
        for hint in list(self._hints):
            hint.cancel()
        for table in self.tables.values():
            table.stop_clock()  # (again: a table made while the connections were being closed)
            if table.host is not None:
                table.host.close()
        self.tables.clear()
        if self._journals is not None:  # every move applied so far written and synced, off the loop
            journals = self._journals
            if not await asyncio.get_running_loop().run_in_executor(None, journals.close, timeout):
                log.warning("the tables' last moves could not all be saved in %.0f s", timeout)
        if self._claim is not None:  # (once the journals are written: the next host may take them)
            self._claim.release()
            self._claim = None

    # -- the handshake ----------------------------------------------------------------------------------------
    def welcome(self, conn: Connection, hello: p.Hello) -> Player | None:
        """Welcome ``conn`` as a new player or back as an earlier one; ProtocolError to refuse it. None: the hello
        asks the table to let it back into a seat, and :meth:`wait_let_in` waits for the answer."""
        version = hello.speaks(p.OLDEST_PROTOCOL, p.PROTOCOL)
        if version is None:
            spoken = f"{hello.protocol}" if hello.max_protocol is None else f"{hello.protocol} to {hello.max_protocol}"
            raise p.ProtocolError(
                p.PROTOCOL_VERSION, f"this host speaks protocol {p.OLDEST_PROTOCOL} to {p.PROTOCOL}, not {spoken}"
            )
        conn.protocol = version
        if len(self.connections) - len(self.unwelcomed) >= self.max_connections:
            raise p.ProtocolError(p.HOST_FULL, "this host is full: try again later")
        self._check_password(conn, hello.password)
        if hello.token is not None:
            player = self.tokens.get(hello.token)
            if player is None:
                raise p.ProtocolError(p.BAD_TOKEN, "that token is unknown here or its time ran out")
            self._resume(conn, player, hello.seen)
            return player
        name = p.player_name(hello.name)
        kept = self.players.get(name_key(name))
        if kept is not None and kept.conn is None and not _holds_cards(kept):
            self._expire(kept)  # away, with nothing of theirs to keep secret: the name is free again
            kept = None
        if kept is not None:
            if kept.conn is None and hello.ask and conn.protocol >= 2:
                self._ask(conn, kept, name)
                return None
            if kept.conn is None:
                raise p.ProtocolError(
                    p.NAME_TAKEN,
                    f"{kept.name} is away from a seat in play here: come back with your token, or ask the table to "
                    "let you back in",
                )
            raise p.ProtocolError(p.NAME_TAKEN, f"someone here is already called {kept.name}")
        player = Player(name=name, token=secrets.token_urlsafe(18), conn=conn)
        self.players[name_key(name)] = player
        self.tokens[player.token] = player
        self._welcomed(conn)
        conn.send(self._welcome_data(player, resumed=False))
        log.info("%s: welcome %s", conn.peer, name)
        return player

    def _welcomed(self, conn: Connection) -> None:
        conn.welcomed = True
        self.unwelcomed.discard(conn)

    def _check_password(self, conn: Connection, password: str | None) -> None:
        """Refuse a missing or wrong password, and any try from an address that made too many wrong ones lately."""
        if self.password is None:
            return
        now = time.monotonic()
        tries = [t for t in self._failures.get(conn.address, ()) if now - t < self.password_window]
        if len(tries) >= self.password_tries:
            wait = math.ceil(self.password_window - (now - tries[0]))
            raise p.ProtocolError(p.SLOW_DOWN, f"too many wrong passwords from your address: try again in {wait} s")
        if password is None:
            raise p.ProtocolError(p.BAD_PASSWORD, "this host needs a password")
        if hmac.compare_digest(password.encode("utf-8"), self.password.encode("utf-8")):
            return
        tries.append(now)
        self._failures.pop(conn.address, None)
        self._failures[conn.address] = tries  # (newest last: the oldest address goes first below)
        while len(self._failures) > MAX_ADDRESSES:
            del self._failures[next(iter(self._failures))]
        raise p.ProtocolError(p.BAD_PASSWORD, "wrong password")

    # -- let back in by name ----------------------------------------------------------------------------------
    def _ask(self, conn: Connection, kept: Player, name: str) -> None:
        """``conn`` gave the name of ``kept``, away from a seat in play, without its token: ask someone at the table
        (its creator, else the host's own player, else another person seated there; never a mere watcher, since
        anybody may watch) whether it is them."""
        table = kept.table
        assert table is not None and kept.seat is not None
        if any(ask.player is kept for ask in self._asks.values()):
            raise p.ProtocolError(p.REFUSED, f"someone is already asking to be let back in as {kept.name}")
        refused = self._refused.get(conn.address)
        if refused is not None and time.monotonic() - refused < self.ask_cooldown:
            wait = math.ceil(self.ask_cooldown - (time.monotonic() - refused))
            raise p.ProtocolError(p.SLOW_DOWN, f"you were refused a moment ago: try again in {wait} s")
        asked = self._who_decides(table, kept)
        if asked is None:
            raise p.ProtocolError(
                p.REFUSED,
                "nobody at the table can let you back in now: come back with your token, or try again later",
            )
        loop = asyncio.get_running_loop()
        done: asyncio.Future[bool | None] = loop.create_future()
        ask = _Ask(request=secrets.token_urlsafe(9), conn=conn, player=kept, asked=asked, done=done)
        self._asks[ask.request] = ask
        conn.ask = ask
        self._welcomed(conn)  # (it said hello: it is no silent connection, and waits its answer's time)
        conn.send(
            {
                "type": "waiting",
                "table": table.code,
                "seat": kept.seat,
                "asked": asked.name,
                "message": f"{asked.name} is asked whether to let you back into seat {kept.seat + 1} at {table.code}",
            }
        )
        asked.send(
            {
                "type": "asking",
                "request": ask.request,
                "table": table.code,
                "seat": kept.seat,
                "name": name,
                "address": conn.address,
                "timeout": self.ask_timeout,
            }
        )
        log.info("%s asks to be let back in as %s; %s is asked", conn.peer, kept.name, asked.name)

    def _who_decides(self, table: LobbyTable, kept: Player) -> Player | None:
        def can(person: Player | None) -> bool:
            return (
                person is not None
                and person is not kept
                and person.conn is not None
                and person.conn.protocol >= 2
                and person.table is table
            )

        owner = self.players.get(name_key(self.owner)) if self.owner is not None else None
        if can(table.creator):
            return table.creator
        if owner is not None and owner is not kept and owner.conn is not None and owner.conn.protocol >= 2:
            return owner  # (the host's own player, wherever it is)
        # A player seated there, never a watcher: anybody may watch a table, and a stranger watching would let a
        # friend who gives a player's name into that player's seat.
        return next((slot.player for slot in table.seats if can(slot.player)), None)

    async def wait_let_in(self, conn: Connection) -> Player:
        """Wait (at most ``ask_timeout``) for the answer to ``conn``'s request; its player, or ProtocolError."""
        ask = conn.ask
        assert ask is not None
        try:
            try:
                allowed = await asyncio.wait_for(asyncio.shield(ask.done), self.ask_timeout)
            except TimeoutError:
                raise p.ProtocolError(p.REFUSED, f"{ask.asked.name} did not answer in time") from None
            kept = ask.player
            if allowed is None:
                raise p.ProtocolError(p.REFUSED, f"{kept.name} came back with their token, or the host is stopping")
            if not allowed:
                self._refused.pop(conn.address, None)
                self._refused[conn.address] = time.monotonic()
                while len(self._refused) > MAX_ADDRESSES:
                    del self._refused[next(iter(self._refused))]
                raise p.ProtocolError(p.REFUSED, f"{ask.asked.name} did not let you back in")
            if kept.conn is not None or self.tokens.get(kept.token) is not kept or not _holds_cards(kept):
                raise p.ProtocolError(p.REFUSED, f"the seat of {kept.name} is no longer waiting for them")
            # A new token: whoever held the old one (lost, or copied) cannot use it any more.
            del self.tokens[kept.token]
            kept.token = secrets.token_urlsafe(18)
            self.tokens[kept.token] = kept
            log.info("%s: let back in as %s by %s", conn.peer, kept.name, ask.asked.name)
            self._resume(conn, kept, None)
            if kept.table is not None:
                self._save(kept.table)  # (its token has changed)
            return kept
        finally:
            self._asks.pop(ask.request, None)
            conn.ask = None

    def _on_let_in(self, player: Player, message: p.LetIn) -> None:
        ask = self._asks.get(message.request)
        if ask is None or ask.asked is not player or ask.done.done():
            raise p.ProtocolError(p.BAD_FIELD, f"no request {echo(message.request, 20)} waits for your answer")
        ask.done.set_result(message.allow)

    def _welcome_data(self, player: Player, *, resumed: bool) -> dict[str, Any]:
        return {
            "type": "welcome",
            "protocol": player.conn.protocol if player.conn is not None else p.OLDEST_PROTOCOL,
            "name": player.name,
            "token": player.token,
            "host": self.name,
            "resumed": resumed,
            "resume_window": self.resume_window,
            "heartbeat": self.heartbeat,
            "table": player.table.code if player.table is not None else None,
        }

    def _resume(self, conn: Connection, player: Player, seen: int | None) -> None:
        """``conn`` is ``player``'s now (it had its token, or was let back in); ``seen``: how many of the match's
        events the client has already (version 2), so only the rest is sent."""
        self._welcomed(conn)
        for ask in list(self._asks.values()):
            if ask.player is player and not ask.done.done():
                ask.done.set_result(None)  # it is back with its token: nobody is let in in its place
        old = player.conn
        if old is not None and old is not conn:
            old.player = None
            old.finish({"type": "bye", "reason": "replaced", "message": "you connected again elsewhere"})
        for timer in player.timers:
            timer.cancel()
        player.timers.clear()
        player.conn = conn
        player.away_since = None
        conn.send(self._welcome_data(player, resumed=True))
        log.info("%s: %s is back", conn.peer, player.name)
        table = player.table
        if table is None:
            return
        conn.send({"type": "table", "table": table.summary()})
        if table.host is not None:
            if player.seat is not None:
                slot = table.seats[player.seat]
                if slot.taken_over:
                    table.host.seat_bot(player.seat, None)
                    slot.taken_over = False
                    self._set_clock(table)
            self._attach(player, seen=seen)
        self._broadcast_table(table, but=player)  # (it had the summary first)

    def _gone(self, conn: Connection) -> None:
        """A connection ended: its player is away (resumable) until its time runs out."""
        player = conn.player
        if player is None or player.conn is not conn:
            return
        player.conn = None
        player.allowance, player.paced = conn.allowance, conn.paced
        player.away_since = time.monotonic()
        self._detach(player)
        loop = asyncio.get_running_loop()
        player.timers.append(loop.call_later(self.resume_window, self._expire, player))
        table = player.table
        if table is not None and table.host is not None and player.seat is not None and not table.over:
            player.timers.append(loop.call_later(self.takeover_after, self._take_over, player))
        if table is not None:
            self._broadcast_table(table)

    def _expire(self, player: Player) -> None:
        """An away player is forgotten: its time ran out, or its name is wanted and it holds no seat in play."""
        if player.conn is not None:
            return
        log.info("%s is forgotten (away)", player.name)
        for timer in player.timers:
            timer.cancel()
        player.timers.clear()
        self._leave(player)
        self._forget_player(player)

    def _forget_player(self, player: Player) -> None:
        """Its name and token are free (only if they are still its own: another player may have the name now)."""
        if self.players.get(name_key(player.name)) is player:
            del self.players[name_key(player.name)]
        if self.tokens.get(player.token) is player:
            del self.tokens[player.token]

    def _take_over(self, player: Player) -> None:
        table = player.table
        if player.conn is not None or table is None or table.host is None or player.seat is None or table.over:
            return
        slot = table.seats[player.seat]
        if not slot.taken_over:
            table.host.seat_bot(player.seat, table.level)
            slot.taken_over = True
            self._set_clock(table)  # the bot plays the seat: no clock for it
            log.info("a %s bot plays for %s at %s", table.level, player.name, table.code)
            self._broadcast_table(table)

    # -- messages ---------------------------------------------------------------------------------------------
    def handle(self, conn: Connection, message: p.Message) -> None:
        player = conn.player
        assert player is not None
        log.debug("%s: %s", player.name, message)
        handler = getattr(self, f"_on_{message.TYPE}")
        handler(player, message)

    def _on_hello(self, player: Player, message: p.Hello) -> None:
        raise p.ProtocolError(p.HELLO_FIRST, "you have already said hello")

    def _on_ping(self, player: Player, message: p.Ping) -> None:
        player.send({"type": "pong"})

    def _on_pong(self, player: Player, message: p.Pong) -> None:
        pass  # hearing it was the point

    def _on_bye(self, player: Player, message: p.Bye) -> None:
        conn = player.conn
        self._leave(player)
        self._forget_player(player)
        if conn is not None:
            conn.player = None
            conn.finish({"type": "bye", "reason": "bye", "message": "goodbye"})
        player.conn = None

    def _on_list(self, player: Player, message: p.ListTables) -> None:
        # Made once for every asker until a table changes (a client asking in a loop costs the host little).
        now = time.monotonic()
        if self._tables_line is None or now - self._tables_made > LIST_FRESH:
            self._tables_line = p.line({"type": "tables", "tables": [t.summary() for t in self.tables.values()]})
            self._tables_made = now
        player.send_line(self._tables_line)

    def _new_code(self) -> str:
        for _ in range(1000):
            code = "".join(self.rng.choice(CODE_LETTERS) for _ in range(4))
            if code not in self.tables:
                return code
        raise ParlourError("this host has too many tables")

    def _on_create(self, player: Player, message: p.Create) -> None:
        if player.table is not None:
            raise p.ProtocolError(p.ALREADY_AT_TABLE, f"you are at table {player.table.code}: leave it first")
        self._may_make_table(player)
        entry = get_entry(message.game)
        game = entry.game
        game.check_players(message.players)
        game.options(message.preset or entry.preset, message.variants)  # OptionError for a bad set-up
        if len(message.bots) > message.players:
            raise p.ProtocolError(p.BAD_FIELD, f"{len(message.bots)} bots for {message.players} seats")
        bots = [*message.bots, *[None] * (message.players - len(message.bots))]
        for level in [*bots, message.level]:
            if level is not None:
                check_level(game, level)
        if message.seat is not None:
            if message.seat >= message.players:
                raise p.ProtocolError("bad_seat", f"seat {message.seat} is not at a {message.players}-seat table")
            if bots[message.seat] is not None:
                raise p.ProtocolError(p.SEAT_TAKEN, f"seat {message.seat} is a computer player's")
        table = LobbyTable(
            code=self._new_code(),
            key=entry.key,
            title=entry.title,
            preset=message.preset,
            variants=message.variants,
            level=check_level(game, message.level) if message.level else difficulties(game)[0],
            seats=[SeatSlot(bot=level.strip().lower() if level else None) for level in bots],
            creator=player,
            address=player.conn.address if player.conn is not None else "?",
            clock=message.clock,
            hints=message.hints,
        )
        player.created.append(time.monotonic())
        self.tables[table.code] = table
        player.table = table
        if message.seat is None:
            table.spectators.append(player)
        else:
            player.seat = message.seat
            table.seats[message.seat].player = player
        log.info("%s made table %s (%s, %d seats)", player.name, table.code, entry.key, message.players)
        self._broadcast_table(table)

    def _may_make_table(self, player: Player) -> None:
        """Refuse a new table past the host's caps: in all, per address, per player and minute."""
        if len(self.tables) >= self.max_tables:
            raise p.ProtocolError(p.TOO_MANY_TABLES, f"this host has {len(self.tables)} tables, as many as it takes")
        address = player.conn.address if player.conn is not None else "?"
        mine = sum(1 for table in self.tables.values() if table.address == address and not table.over)
        if mine >= self.tables_per_address:
            raise p.ProtocolError(p.TOO_MANY_TABLES, f"{mine} tables made from your address are open or in play")
        now = time.monotonic()
        player.created[:] = [t for t in player.created if now - t < 60.0]
        if len(player.created) >= self.tables_per_minute:
            made = len(player.created)
            raise p.ProtocolError(p.TOO_MANY_TABLES, f"you made {made} tables in a minute: wait a little")

    def _table(self, code: str) -> LobbyTable:
        table = self.tables.get(code)
        if table is None:
            raise p.ProtocolError(p.UNKNOWN_TABLE, f"no table has the code {code}")
        return table

    def _my_table(self, player: Player) -> LobbyTable:
        if player.table is None:
            raise p.ProtocolError(p.NOT_AT_TABLE, "you are not at a table")
        return player.table

    def _on_sit(self, player: Player, message: p.Sit) -> None:
        table = self._table(message.table)
        if player.table is not None and player.table is not table:
            raise p.ProtocolError(p.ALREADY_AT_TABLE, f"you are at table {player.table.code}: leave it first")
        if table.host is not None:
            raise p.ProtocolError(p.ALREADY_STARTED, "the game at that table has started: spectate it instead")
        if message.seat >= len(table.seats):
            raise p.ProtocolError("bad_seat", f"table {table.code} has {len(table.seats)} seats")
        slot = table.seats[message.seat]
        if slot.player is player:
            player.send({"type": "table", "table": table.summary()})  # already there: the answer a sit waits for
            return
        if slot.player is not None or slot.bot is not None:
            raise p.ProtocolError(p.SEAT_TAKEN, f"seat {message.seat} is taken")
        self._unseat(player)
        if player in table.spectators:
            table.spectators.remove(player)
        slot.player, slot.ready = player, False
        player.table, player.seat = table, message.seat
        self._broadcast_table(table)

    def _unseat(self, player: Player) -> None:
        table = player.table
        if table is not None and player.seat is not None:
            slot = table.seats[player.seat]
            slot.player, slot.ready = None, False
        player.seat = None

    def _on_stand(self, player: Player, message: p.Stand) -> None:
        table = self._my_table(player)
        if player.seat is None:
            raise p.ProtocolError(p.NOT_AT_TABLE, "you are not seated")
        if table.host is not None:
            raise p.ProtocolError(p.ALREADY_STARTED, "the game has started: leave the table instead")
        self._unseat(player)
        table.spectators.append(player)
        self._broadcast_table(table)

    def _on_spectate(self, player: Player, message: p.Spectate) -> None:
        table = self._table(message.table)
        if player.table is table:
            if player.seat is None:
                player.send({"type": "table", "table": table.summary()})  # already watching: the answer it waits for
                return
            if table.host is not None:  # (no standing up once the game has started: leaving gives the seat a bot)
                raise p.ProtocolError(p.ALREADY_AT_TABLE, "you are seated here and the game has started")
            raise p.ProtocolError(p.ALREADY_AT_TABLE, "you are seated here: stand first")
        if player.table is not None:
            raise p.ProtocolError(p.ALREADY_AT_TABLE, f"you are at table {player.table.code}: leave it first")
        table.spectators.append(player)
        player.table, player.seat = table, None
        self._broadcast_table(table)  # (the summary it waits for, with everybody's news)
        if table.host is not None:
            self._attach(player)

    def _on_leave(self, player: Player, message: p.Leave) -> None:
        self._my_table(player)
        self._leave(player)
        player.send({"type": "left"})

    def _leave(self, player: Player) -> None:
        """``player`` leaves its table: in the lobby its seat is free again; in a game a bot takes it over."""
        table = player.table
        if table is None:
            return
        self._detach(player)
        for timer in player.timers:
            timer.cancel()
        player.timers.clear()
        if player in table.spectators:
            table.spectators.remove(player)
        if player.seat is not None:
            slot = table.seats[player.seat]
            if table.host is not None and not table.over:
                table.host.seat_bot(player.seat, table.level)
                slot.bot, slot.player, slot.taken_over = table.level, None, False
                self._set_clock(table)  # a bot's seat now: a clock running for it is stale
            else:
                slot.player, slot.ready = None, False
        player.table, player.seat = None, None
        remaining = table.people()
        if not remaining:
            table.stop_clock()
            if table.host is not None:
                table.host.close()
            del self.tables[table.code]
            self._tables_line = None
            self._forget(table)
            return
        if table.creator is player:
            table.creator = remaining[0]
        self._save(table)  # who is a person there has changed
        self._broadcast_table(table)

    def _on_fill(self, player: Player, message: p.Fill) -> None:
        table = self._my_table(player)
        if table.creator is not player:
            raise p.ProtocolError(p.NOT_CREATOR, "only the table's creator may fill seats with bots")
        if table.host is not None:
            raise p.ProtocolError(p.ALREADY_STARTED, "the game has started")
        level = check_level(get_entry(table.key).game, message.level)
        for slot in table.seats:
            if slot.player is None and slot.bot is None:
                slot.bot = level
        self._broadcast_table(table)

    def _on_ready(self, player: Player, message: p.Ready) -> None:
        table = self._my_table(player)
        if player.seat is None:
            raise p.ProtocolError(p.NOT_AT_TABLE, "you are not seated")
        if table.host is not None:
            assert player.session is not None
            player.session.ready()
            return
        table.seats[player.seat].ready = True
        self._broadcast_table(table)

    def _on_start(self, player: Player, message: p.Start) -> None:
        table = self._my_table(player)
        if table.creator is not player:
            raise p.ProtocolError(p.NOT_CREATOR, "only the table's creator may start it")
        if table.host is not None:
            raise p.ProtocolError(p.ALREADY_STARTED, "the game has started")
        for number, slot in enumerate(table.seats):
            if slot.player is None and slot.bot is None:
                raise p.ProtocolError(p.CANNOT_START, f"seat {number} is free: fill it with a bot or wait")
            if slot.player is not None and slot.player is not player and not slot.ready:
                raise p.ProtocolError(p.CANNOT_START, f"{slot.player.name} is not ready")
        prepared = self.prepared_host(table) if self.prepared_host is not None else None
        table.host = prepared or TableHost.create(
            table.key,
            len(table.seats),
            seed=self.rng.randrange(MAX_SEED),
            bots=[slot.bot for slot in table.seats],
            names=[slot.player.name if slot.player else self._bot_name(table, n) for n, slot in enumerate(table.seats)],
            preset=table.preset,
            variants=table.variants,
            pace=self.pace,
            autostart=False,  # the bots move once every person here has the deal (see below), never before
        )
        table.match = f"{self.rng.getrandbits(64):016x}"
        log.info("table %s started", table.code)
        self._keep_table(table)
        self._watch(table)
        self._broadcast_table(table)
        for person in table.people():
            if person.conn is not None:
                self._attach(person)
        if prepared is None:
            table.host.start()
        self._set_clock(table)

    @staticmethod
    def _bot_name(table: LobbyTable, seat: int) -> str:
        taken = {name_key(slot.player.name) for slot in table.seats if slot.player is not None}
        for name in ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Juno"):
            if name_key(name) not in taken:
                taken.add(name_key(name))
                if seat == 0:
                    return name
                seat -= 1
        return f"Bot {seat + 1}"

    def _on_chat(self, player: Player, message: p.Chat) -> None:
        table = self._my_table(player)
        for person in table.people():
            person.send({"type": "chat", "table": table.code, "name": player.name, "text": message.text})

    def _on_act(self, player: Player, message: p.Act) -> None:
        table = self._my_table(player)
        if table.host is None or player.session is None:
            raise p.ProtocolError(p.NOT_STARTED, "the game at your table has not started")
        if player.seat is None:
            raise p.ProtocolError("not_your_turn", "a spectator cannot play")
        now = table.host.table.state.version
        if message.version is not None and message.version != now:
            if player.conn is None or player.conn.protocol < 2:
                raise p.ProtocolError("not_your_turn", f"that answers version {message.version}; the table is at {now}")
            if message.version > now:
                raise p.ProtocolError(p.BAD_FIELD, f"version {message.version} is ahead of the table's ({now})")
            raise p.ProtocolError(p.STALE, f"the table has moved on since version {message.version} (now {now})")
        action = message.action if isinstance(message.action, str) else codec.decode(message.action)
        player.session.submit(action)

    def _on_snapshot(self, player: Player, message: p.Look) -> None:
        self._my_table(player)
        feed = player.feed
        if player.session is None or feed is None:
            raise p.ProtocolError(p.NOT_STARTED, "the game at your table has not started")
        # Every update made so far goes out first: the answer is the last one's snapshot, which shows every event
        # line sent and nothing more.
        self._pump(player, feed)
        if feed.snapshot is not None:
            self._send_snapshot(player, feed.snapshot, True)

    def _on_hint(self, player: Player, message: p.Hint) -> None:
        table = self._my_table(player)
        session = player.session
        host = table.host
        if session is None or host is None:
            raise p.ProtocolError(p.NOT_STARTED, "the game at your table has not started")
        if player.seat is None:
            raise p.ProtocolError(p.NO_HINTS, "a spectator gets no hints")
        if not table.hints:
            raise p.ProtocolError(p.NO_HINTS, "this table was made without hints: its creator did not allow them")
        # A hint is the same for a seat at a version (the game's hint bot draws on the table's seed, the seat and the
        # version), so a client asking again and again costs one hint a version and one worked out at a time.
        key = (table.match, player.seat, host.table.state.version)
        if player.hint is not None and player.hint[0] == key:
            player.send_line(player.hint[1])
            return
        player.hint_asks += 1
        if player.hint_asks > 1:
            return  # answered with the hint being worked out
        loop = asyncio.get_running_loop()

        async def answer() -> None:  # a hint may take a second: worked out on a thread, the loop goes on
            try:
                hint = await loop.run_in_executor(None, session.hint)
            except ParlourError:
                hint = None
            except Exception:
                log.exception("a hint failed")
                hint = None
            line = p.line(
                {
                    "type": "hint",
                    "table": table.code,
                    "hint": None if hint is None else codec.encode(hint),
                    "action": None if hint is None else codec.encode(hint.action),
                    "text": None if hint is None else str(hint.action),
                    "reason": None if hint is None else hint.reason,
                }
            )
            if key == (table.match, player.seat, host.table.state.version):  # (the table did not move meanwhile)
                player.hint = (key, line)
            asks, player.hint_asks = player.hint_asks, 0
            for _ in range(asks):
                player.send_line(line)

        task = asyncio.ensure_future(answer())
        self._hints.add(task)
        task.add_done_callback(self._hints.discard)

    def _on_next(self, player: Player, message: p.Next) -> None:
        table = self._my_table(player)
        if table.host is None or player.session is None:
            raise p.ProtocolError(p.NOT_STARTED, "the game at your table has not started")
        player.session.ready()

    # -- a game's events to the connections ---------------------------------------------------------------------
    def _attach(self, player: Player, seen: int | None = None) -> None:
        """Connect ``player`` to its table's host: the table's information, the seat's events (the history first,
        less the first ``seen`` a resuming client says it has) and a full snapshot."""
        table = player.table
        assert table is not None and table.host is not None and self._loop is not None
        self._detach(player)
        session = table.host.connect(player.seat)
        player.session = session
        player.prompted = -1
        loop = self._loop
        feed = player.feed = SeatFeed(session)

        def got(update: Update) -> None:  # under the host's lock, on the thread that applied the move (or this one)
            feed.updates.append(update)
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is listening any more
                loop.call_soon_threadsafe(self._pump, player, feed)

        # The first update (the history with the snapshot that shows exactly it) is handed over before subscribe
        # returns; the later ones come after it in the feed, so they go out after the history and its snapshot.
        player.stop_events = session.subscribe(got)
        first = feed.updates.popleft()
        history = first.events
        skip = seen if seen is not None and seen <= len(history) else 0
        # Never the seed: with it, a client could deal every card still to come.
        info = dataclasses.replace(session.info, seed=None, hints=table.hints and player.seat is not None)
        started: dict[str, Any] = {"type": "started", "table": table.code, "info": codec.encode(info)}
        started["match"] = table.match
        numbered = player.conn is not None and player.conn.protocol >= 2
        if numbered:
            started["from"] = skip
        player.send(started)
        version = first.snapshot.version
        for seq, event in enumerate(history[skip:], start=skip):
            player.send_line(self._event_line(table.code, event, version, seq if numbered else None))
        if not table.over and any(isinstance(event, MatchOver) for event in history):
            table.over = True  # (it ended while nobody was connected to be sent its end)
            self._broadcast_table(table)
        feed.seq = len(history)
        feed.first = feed.snapshot = first.snapshot
        if table.turn is not None and table.turn_timer is not None:
            self._send_clock(table, [player])
        # The snapshot goes out from the loop, as the later updates do (after what the caller sends next: its
        # table's clock, at a start).
        loop.call_soon(self._pump, player, feed)

    def _detach(self, player: Player) -> None:
        if player.stop_events is not None:
            player.stop_events()
            player.stop_events = None
        player.feed = None
        if player.session is not None:
            player.session.close()
            player.session = None

    def _pump(self, player: Player, feed: SeatFeed) -> None:
        """Send what ``feed`` holds, in order: the snapshot of joining, then each update (on the event loop)."""
        if player.feed is not feed or player.session is not feed.session:
            return  # the player left, or came back with another connection: its new feed sends
        if feed.first is not None:
            first, feed.first = feed.first, None
            self._send_snapshot(player, first, True)
        while feed.updates:
            self._send_update(player, feed, feed.updates.popleft())

    def _send_update(self, player: Player, feed: SeatFeed, update: Update) -> None:
        """The update's event lines, then (if the seat must act and has not been asked at that version) its
        snapshot: a prompt never goes out before the events it shows."""
        table = player.table
        snap = update.snapshot
        if update.events:
            numbered = player.conn is not None and player.conn.protocol >= 2
            code = table.code if table is not None else None
            for event in update.events:
                player.send_line(self._event_line(code, event, snap.version, feed.seq if numbered else None))
                feed.seq += 1
                if isinstance(event, MatchOver) and table is not None and not table.over:
                    table.over = True
                    self._broadcast_table(table)
        feed.snapshot = snap
        self._send_snapshot(player, snap, False)

    def _event_line(self, code: str | None, event: Event, version: int, seq: int | None = None) -> bytes:
        """The ``event`` message for ``event``: a public event reaches every seat as the same object, so its JSON is
        made once (the cache holds the event itself, so an id is never reused while it is in there)."""
        key = id(event)
        cached = self._encoded.get(key)
        if cached is None or cached[0] is not event:
            if len(self._encoded) >= 4096:
                self._encoded.clear()
            cached = self._encoded[key] = (event, codec.dumps(event))
        head = f'{{"type":"event","table":{json.dumps(code)},"version":{version:d}'
        if seq is not None:
            head += f',"seq":{seq:d}'
        return f'{head},"event":{cached[1]}}}\n'.encode()

    def _send_snapshot(self, player: Player, snap: Snapshot, always: bool) -> None:
        """The seat's snapshot ``snap`` (an update's): when it must act (once per version), or ``always`` (on
        joining or coming back, or asked for)."""
        table = player.table
        if table is None or table.host is None:
            return
        if always or (snap.legal and snap.version != player.prompted):
            message: dict[str, Any] = {
                "type": "snapshot",
                "table": table.code,
                "snapshot": codec.encode(snap),
                "texts": [str(action) for action in snap.legal],
            }
            if snap.legal:
                player.prompted = snap.version
                if table.clock is not None and player.seat is not None:
                    message["clock"] = self._time_left(table, player.seat, snap.version)
            player.send(message)

    # -- the turn clock ---------------------------------------------------------------------------------------------
    def _watch(self, table: LobbyTable) -> None:
        """Follow the host's events on the event loop, whoever is connected (the seat to move may be away): each one
        may make another seat the one to move (the clock), a ``RoundOver`` starts the end-of-round wait, the
        ``MatchOver`` ends the match (:meth:`_match_over`)."""
        assert table.host is not None and self._loop is not None
        loop = self._loop

        def seen(event: Event) -> None:  # on the bot thread (or this one), under the host's lock
            round_over = isinstance(event, RoundOver) and not event.last
            match_over = isinstance(event, MatchOver)
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is listening any more
                loop.call_soon_threadsafe(self._table_news, table, round_over, match_over)

        table.stop_watching = table.host.subscribe(None, seen, replay=False)

    def _table_news(self, table: LobbyTable, round_over: bool, match_over: bool) -> None:
        if self._closing or self.tables.get(table.code) is not table:
            return
        if match_over:
            self._match_over(table)
        if table.clock is None:
            return
        if round_over:
            table.rounds += 1
            if table.round_timer is not None:
                table.round_timer.cancel()
            loop = asyncio.get_running_loop()
            table.round_timer = loop.call_later(table.clock, self._round_clock_ran_out, table, table.rounds)
        self._set_clock(table)

    def _set_clock(self, table: LobbyTable) -> None:
        """Start the turn clock for the seat to move now if it is a person's and none runs for this moment yet;
        stop one that runs for another moment (the move was made, the seat became a bot's)."""
        if self._closing or table.clock is None or table.host is None or self.tables.get(table.code) is not table:
            return
        seat, version = table.host.position
        turn = (seat, version) if seat is not None and not table.over and table.clocked(seat) else None
        if turn == table.turn:
            return  # the same moment: its clock runs on (or has run out), never starts again
        if table.turn_timer is not None:
            table.turn_timer.cancel()
            table.turn_timer = None
        table.turn = turn
        if turn is not None:
            loop = asyncio.get_running_loop()
            table.turn_deadline = loop.time() + table.clock
            table.turn_timer = loop.call_later(table.clock, self._turn_clock_ran_out, table, *turn)
            self._send_clock(table, table.people())

    def _send_clock(self, table: LobbyTable, people: list[Player], *, ran_out: bool = False) -> None:
        """Tell ``people`` (those speaking version 2) how long the seat to move has left, or that its time ran out."""
        if table.turn is None:
            return
        seat, version = table.turn
        left = 0.0 if ran_out else round(max(0.0, table.turn_deadline - asyncio.get_running_loop().time()), 3)
        message: dict[str, Any] = {"type": "clock", "table": table.code, "seat": seat, "version": version}
        message["seconds"] = left
        if ran_out:
            message["ran_out"] = True
        for person in people:
            if person.conn is not None and person.conn.protocol >= 2:
                person.send(message)

    def _time_left(self, table: LobbyTable, seat: int, version: int) -> float:
        """The seconds ``seat`` has left to act at ``version``: what a prompt carries so a client can count down."""
        assert table.clock is not None
        self._set_clock(table)
        if table.turn != (seat, version):
            return table.clock  # a snapshot of a moment that has passed: its clock no longer matters
        return round(max(0.0, table.turn_deadline - asyncio.get_running_loop().time()), 3)

    def _turn_clock_ran_out(self, table: LobbyTable, seat: int, version: int) -> None:
        if table.turn != (seat, version):
            return
        table.turn_timer = None  # (table.turn stays: this moment's clock has run out)
        host = table.host
        if self._closing or self.tables.get(table.code) is not table or host is None or table.over:
            return
        if not table.clocked(seat) or host.position != (seat, version):
            return
        log.info("table %s: seat %d's clock ran out, a %s bot moves for it", table.code, seat, table.level)
        self._send_clock(table, table.people(), ran_out=True)
        host.play_once(seat, version, table.level)

    def _round_clock_ran_out(self, table: LobbyTable, rounds: int) -> None:
        """The end of a round has waited ``clock`` seconds: everybody who has not said ``next`` is ready."""
        if table.rounds != rounds:
            return
        table.round_timer = None
        host = table.host
        if self._closing or self.tables.get(table.code) is not table or host is None:
            return
        for seat in host.waiting_for:
            host.ready(seat)

    def _match_over(self, table: LobbyTable) -> None:
        """On the event loop, once per match: the ``MatchOver`` of ``table`` has been applied."""
        from engine.records.seen import keep_host_replay_soon

        self._forget(table)  # nothing left to offer again
        if table.host is not None and self.keep is not None:  # the full replay, written off the loop (not --no-keep)
            keep_host_replay_soon(table.host.table, code=table.code, match=table.match, host=self.name)

    def _broadcast_table(self, table: LobbyTable, *, but: Player | None = None) -> None:
        self._tables_line = None  # (every change of a table is broadcast: the list is made again)
        summary = table.summary()
        for person in table.people():
            if person is not but:
                person.send({"type": "table", "table": summary})

    # -- tables kept across a restart -------------------------------------------------------------------------
    def _kept_path(self, table: LobbyTable) -> Path | None:
        return None if self.keep is None else self.keep / f"{table.code}{JOURNAL_SUFFIX}"

    @staticmethod
    def _kept_data(table: LobbyTable) -> dict[str, Any]:
        """What a save holds beside the match's record: the lobby's set-up and each seat's person (None: a bot)."""
        return {
            "code": table.code,
            "preset": table.preset,
            "variants": list(table.variants),
            "level": table.level,
            "clock": table.clock,
            "hints": table.hints,
            "creator": table.creator.name,
            "people": [
                None if slot.player is None else {"name": slot.player.name, "token": slot.player.token}
                for slot in table.seats
            ],
        }

    def _keep_table(self, table: LobbyTable, replaces: Path | None = None) -> None:
        """Begin ``table``'s journal (before its bots start: no move is made meanwhile), then append each action as
        it is applied; the journal goes when the match is over (:meth:`_match_over`). The writing and syncing is the
        journals' thread's: here, and on the thread that applied a move, under the host's lock, it is only queued.
        ``replaces``: the save it was offered again from."""
        host, path = table.host, self._kept_path(table)
        if self._journals is None or host is None or path is None:
            return
        journals = self._journals
        saved = [len(host.table.actions)]
        journals.begin(path, host.table, self._kept_data(table), replaces=replaces)

        def on_event(event: Event) -> None:  # under the host's lock, on the thread that applied the move
            actions = host.table.actions
            count = len(actions)
            if count != saved[0]:
                journals.append(path, actions[saved[0] : count])
                saved[0] = count

        host.subscribe(None, on_event, replay=False)

    def _save(self, table: LobbyTable) -> None:
        """Who is a person at ``table`` changed: its journal says so in a set-up line."""
        path = self._kept_path(table)
        if self._journals is None or path is None or table.host is None or self._closing:
            return
        if table.over or table.code not in self.tables:
            return
        self._journals.setup(path, table.host.table, self._kept_data(table))

    def _forget(self, table: LobbyTable) -> None:
        """``table`` is over or abandoned: its journal goes (not while the host stops: it is offered again)."""
        path = self._kept_path(table)
        if self._journals is not None and path is not None and not self._closing:
            self._journals.remove(path)

    def _restore_all(self) -> None:
        """Offer again every table saved in :attr:`keep` (a host started after a stop, a crash or a reboot)."""
        if self.keep is None:
            return
        try:
            found_paths = [path for path in self.keep.iterdir() if _is_code(path.stem)]
        except FileNotFoundError:
            return
        except OSError as err:
            self.problems.append(f"The saved tables in {self.keep} could not be read ({err.strerror or err}).")
            return
        # A journal (CODE.jsonl), or a whole-file save of an earlier version (CODE.json); both when a host stopped
        # while it turned the one into the other: the journal is then the newer, whole, and the old save goes.
        journals = {path.stem for path in found_paths if path.suffix == JOURNAL_SUFFIX}
        paths: list[Path] = []
        for path in sorted(found_paths):
            if path.suffix == ".json" and path.stem in journals:
                remove_save(path)
            elif path.suffix in (".json", JOURNAL_SUFFIX):
                paths.append(path)
        for path in paths:
            found = load_saved(path)
            if found is None:
                continue
            if isinstance(found, SaveProblem):
                self.problems.append(found.message)
                continue
            try:
                self._restore(path, *found)
            except (ParlourError, ValueError, TypeError, KeyError) as err:
                reason = one_line(str(err))
                try:
                    aside = move_aside(path)
                except OSError:
                    self.problems.append(f"The saved table {path} could not be offered again ({reason}).")
                else:
                    moved = f"so it was moved to {aside.name}"
                    self.problems.append(f"The saved table {path} could not be offered again ({reason}), {moved}.")
        for problem in self.problems:
            log.warning("%s", problem)

    def _restore(self, path: Path, table: Any, extra: dict[str, Any]) -> None:
        code = path.stem
        if table.state.is_over or code in self.tables:
            remove_save(path)
            return
        people = extra.get("people")
        if not isinstance(people, list) or len(people) != len(table.seats):
            raise ValueError("its seats do not match its match")
        entry = table.entry
        preset, variants, clock = extra.get("preset"), extra.get("variants", []), extra.get("clock")
        if preset is not None and not isinstance(preset, str):
            raise ValueError("its preset is not a name")
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise ValueError("its house rules are not a list of names")
        if clock is not None and (isinstance(clock, bool) or not isinstance(clock, int | float) or clock <= 0):
            raise ValueError("its clock is not a number of seconds")
        hints = extra.get("hints", False)  # (a save from before hints: none)
        if not isinstance(hints, bool):
            raise ValueError("its hints are not true or false")
        level = check_level(entry.game, str(extra.get("level")))
        slots: list[SeatSlot] = []
        players: list[Player] = []
        for seat, person in enumerate(people):
            if person is None:
                bot = table.seats[seat].level
                if bot is None:
                    raise ValueError(f"seat {seat} has neither a person nor a computer player")
                slots.append(SeatSlot(bot=bot))
                continue
            if not isinstance(person, dict) or not isinstance(person.get("token"), str):
                raise ValueError(f"seat {seat}'s person is not a name and a token")
            name = p.player_name(person.get("name"))
            if name_key(name) in self.players or person["token"] in self.tokens:
                raise ValueError(f"{name} is at another table")
            player = Player(name=name, token=person["token"], seat=seat, away_since=time.monotonic())
            players.append(player)
            slots.append(SeatSlot(player=player))
        if not players:
            remove_save(path)  # nobody to offer it to
            return
        creator = next((pl for pl in players if pl.name == extra.get("creator")), players[0])
        lobby = LobbyTable(
            code=code,
            key=entry.key,
            title=entry.title,
            preset=preset,
            variants=tuple(variants),
            level=level,
            seats=slots,
            creator=creator,
            clock=None if clock is None else float(clock),
            hints=hints,
        )
        host = TableHost(table, pace=self.pace)
        for player in players:
            assert player.seat is not None
            if table.seats[player.seat].is_bot:
                host.seat_bot(player.seat, None)  # it was taken over while its person was away: theirs again
            player.table = lobby
            self.players[name_key(player.name)] = player
            self.tokens[player.token] = player
        host.hold([player.seat for player in players if player.seat is not None])
        lobby.host = host
        self.tables[code] = lobby
        log.info("table %s is offered again (%s, %d moves in)", code, entry.key, len(table.actions))
        self._keep_table(lobby, replaces=path)  # begun anew: a line cut short when the host stopped is gone
        self._watch(lobby)
        host.start()
        self._set_clock(lobby)
        loop = asyncio.get_running_loop()
        for player in players:
            player.timers.append(loop.call_later(self.resume_window, self._expire, player))
            player.timers.append(loop.call_later(self.takeover_after, self._take_over, player))


def _is_code(text: str) -> bool:
    return len(text) == 4 and all(letter in CODE_LETTERS for letter in text)


YIELD_EVERY = 16
"""A connection lets the others have the event loop after this many lines read without waiting."""
LIST_FRESH = 1.0
"""The longest a ``tables`` answer is reused, in seconds, even if no change was seen."""
MAX_ADDRESSES = 4096
"""The most addresses whose wrong passwords are remembered (the oldest are forgotten first)."""


def _holds_cards(player: Player) -> bool:
    """Whether ``player`` has a seat in a match in play: a seat whose cards only its player may see."""
    table = player.table
    return table is not None and table.host is not None and player.seat is not None and not table.over


@dataclass(eq=False)
class _Ask:
    """A connection that gave the name of a player away from a seat in play, waiting to be let back in."""

    request: str
    conn: Connection
    player: Player
    asked: Player
    done: asyncio.Future[bool | None]
    """The answer: True, False, or None when the request is void (the player came back, the host stops)."""
