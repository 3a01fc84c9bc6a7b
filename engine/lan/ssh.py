"""Play over SSH: ``parlour host --ssh-port 2222`` lets a guest with nothing but an SSH client join as NAME with
``ssh -p 2222 NAME@HOST``.

Each SSH session that asks for a terminal and a shell gets a child process of its own (the full-screen client,
``parlour join``, which the caller names through ``command``) on a new pseudo-terminal, and this module only pumps
bytes between the pty and the SSH channel. Running one app per guest, instead of drawing many screens from one
process, keeps a guest's app exactly the app a local player runs: its own terminal size, its own keys, and a crash
ends one guest's session, not the host.

The gateway never listens without a way to authenticate (a password, an authorized_keys file or both), never runs
anything but the given command (exec requests, subsystems, scp, port, agent and X11 forwarding are refused), and ends
every child it started: when the guest goes, when the child exits, when the guest has pressed no key for
``idle_timeout`` seconds, and when the gateway closes. Its limits, each a field of :class:`SshSettings`: failed
logins per address (``max_failed_logins`` in ``failed_login_window`` seconds, then each attempt from that address
waits ``failed_login_delay`` seconds and is refused), guests at once (``max_guests``; past it a guest is told the
host is full), and seconds to log in (``login_timeout``). The guest's SSH user name is their player name: a user
name that cannot be one is refused before any password is asked.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import hmac
import logging
import os
import signal
import struct
import sys
import termios
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncssh

from engine.errors import ParlourError
from engine.lan.secrets_input import SECRET_ENVIRONMENT
from engine.lan.tokens import GUEST_ENV, GUEST_KEY_ENV  # (where a command hands a guest's identity to its child)
from engine.names import name_problem
from engine.records.paths import data_dir

log = logging.getLogger("parlour.ssh")

Command = Callable[[str, str | None], tuple[list[str], dict[str, str]]]
"""``command(username, key_id) -> (argv, extra environment)`` of the child process a guest's session runs.
``key_id`` is the SHA256 fingerprint (``SHA256:...``) of the public key the guest logged in with, or None when
they logged in with the password."""


HOST_KEY_FILE = "ssh_host_key"
"""The host key's file name in Parlour's data directory."""

NEEDS_PASSWORD = "This Parlour host needs a password."
"""Said to every client before it logs in (when the host has a password), and again to one that gives none."""

EMPTY_PASSWORD_TRIES = 3
"""Empty passwords one connection may give (each answered with :data:`NEEDS_PASSWORD`) before it is closed."""

DEFAULT_TERM = "xterm-256color"
"""``TERM`` for a client that asked for a pty without naming its terminal type."""

DEFAULT_SIZE = (80, 24)
"""Columns and rows for a client that asked for a pty without giving its size."""

HANGUP_GRACE = 1.0
"""Seconds a child has after SIGHUP before SIGTERM, and again after SIGTERM before SIGKILL (about 2 s in all)."""

READ_CHUNK = 65536
"""Bytes read from a pty at a time."""

INPUT_LIMIT = 256 * 1024
"""Bytes of a guest's input held for a child that is not reading before the channel stops reading."""

TRACKED_ADDRESSES = 4096
"""Peer addresses whose failed logins are remembered at once; past it the one that failed longest ago is forgotten."""

# Dropped from the host's environment: each describes the host's own terminal, session, agent or display, or is one
# of its secrets, not the guest's.
_HOST_ONLY_VARIABLES = (
    "COLUMNS",
    "LINES",
    "COLORTERM",
    "TERM_PROGRAM",
    "TERM_PROGRAM_VERSION",
    "SSH_AUTH_SOCK",
    "SSH_AGENT_PID",
    "SSH_CONNECTION",
    "SSH_CLIENT",
    "SSH_TTY",
    "DISPLAY",
    "XAUTHORITY",
    GUEST_ENV,
    GUEST_KEY_ENV,
    *SECRET_ENVIRONMENT,
)

# A child started with start_new_session is a session leader but has no controlling terminal: an inherited pty fd
# does not make it one, and without one the kernel sends SIGWINCH (a resize) and SIGHUP (a hang-up) to nobody.
# This shim claims the pty on fd 0 as the controlling terminal and then becomes the real command. It runs in the
# child after the fork, so the gateway needs neither ``preexec_fn`` (unsafe with threads, which the host has) nor
# a fork of its own.
_CONTROLLING_TTY_SHIM = (
    "import fcntl, os, sys, termios\n"
    "fcntl.ioctl(0, termios.TIOCSCTTY, 0)\n"
    "try:\n"
    "    os.execvp(sys.argv[1], sys.argv[1:])\n"
    "except OSError as error:\n"
    "    sys.stderr.write(f'Parlour could not start {sys.argv[1]}: {error.strerror}\\r\\n')\n"
    "    sys.exit(127)\n"
)


def default_host_key_path() -> Path:
    """Where the host's SSH key lives unless told otherwise: Parlour's data directory (``$PARLOUR_DATA_DIR`` when
    set, see :func:`engine.records.paths.data_dir`), so the key (and with it what guests' ``known_hosts``
    remember) survives from one ``parlour host`` to the next."""
    return data_dir() / HOST_KEY_FILE


def duration(seconds: float) -> str:
    """``seconds`` as a person says it: "30 minutes", "1 minute", "90 seconds", "0.5 seconds".

    >>> duration(1800), duration(60), duration(90), duration(0.5), duration(7200)
    ('30 minutes', '1 minute', '90 seconds', '0.5 seconds', '2 hours')
    """
    for unit, size in (("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            count = int(seconds // size)
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{seconds:g} second{'s' if seconds != 1 else ''}"


@dataclass(frozen=True)
class SshSettings:
    """How the gateway listens and whom it lets in. At least one of ``password`` and ``authorized_keys``."""

    bind: str = "0.0.0.0"
    port: int = 2222
    password: str | None = None
    """Guests log in with this password (keyboard-interactive prompts for it too), or ..."""
    authorized_keys: Path | None = None
    """... with a key listed in this OpenSSH ``authorized_keys`` file."""
    host_key: Path | None = None
    """The server's private key; ``None``: :func:`default_host_key_path`. Made on first use."""
    max_guests: int = 32
    """Sessions running a guest's child at once; past it a guest is told the host is full and no child starts."""
    idle_timeout: float = 1800.0
    """Seconds without a key from a guest before they are told so and their session (and child) ends."""
    login_timeout: float = 60.0
    """Seconds a connection has to log in before it is closed."""
    max_failed_logins: int = 5
    """Wrong passwords from one address within ``failed_login_window`` seconds before it is refused ..."""
    failed_login_window: float = 60.0
    failed_login_delay: float = 3.0
    """... each later attempt from it (on any connection) waiting this many seconds before the refusal."""


class FailedLogins:
    """Failed logins per peer address: an address with ``limit`` failures in the last ``window`` seconds is
    blocked until the oldest of them is that old. At most ``tracked`` addresses are remembered (the one that failed
    longest ago is forgotten first), and an address whose last failure is older than the window is forgotten.

    >>> now = [0.0]
    >>> logins = FailedLogins(limit=2, window=60.0, clock=lambda: now[0])
    >>> logins.failed("10.0.0.9"); logins.failed("10.0.0.9"); logins.blocked("10.0.0.9")
    True
    >>> now[0] = 61.0
    >>> logins.blocked("10.0.0.9"), len(logins)
    (False, 0)
    """

    def __init__(
        self, limit: int, window: float, tracked: int = TRACKED_ADDRESSES, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.window = window
        self.tracked = tracked
        self._clock = clock
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()  # by last failure, oldest first

    def __len__(self) -> int:
        """Addresses remembered now."""
        self._forget_old(self._clock())
        return len(self._failures)

    def blocked(self, address: str) -> bool:
        now = self._clock()
        self._forget_old(now)
        times = self._failures.get(address)
        return times is not None and len(times) >= self.limit and now - times[0] < self.window

    def failed(self, address: str) -> None:
        now = self._clock()
        self._forget_old(now)
        times = self._failures.pop(address, None)
        if times is None:
            times = deque(maxlen=self.limit)
        times.append(now)
        self._failures[address] = times
        while len(self._failures) > self.tracked:
            self._failures.popitem(last=False)

    def succeeded(self, address: str) -> None:
        self._failures.pop(address, None)

    def _forget_old(self, now: float) -> None:
        while self._failures:
            times = next(iter(self._failures.values()))
            if now - times[-1] < self.window:
                return
            self._failures.popitem(last=False)


def load_host_key(path: Path) -> asyncssh.SSHKey:
    """The host key in ``path``, made (ed25519, mode 0o600) the first time. A key is made once and then reused, or
    every guest's SSH client would warn that the host's identity changed."""
    if path.exists():
        return _read_host_key(path)
    key = asyncssh.generate_private_key("ssh-ed25519")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another host made it between the check and now: use theirs
        return _read_host_key(path)
    except OSError as error:
        raise ParlourError(f"Could not create the SSH host key file {path}: {error.strerror}.") from None
    try:
        with os.fdopen(fd, "wb") as file:
            os.fchmod(file.fileno(), 0o600)  # whatever the umask
            file.write(key.export_private_key())
    except OSError as error:
        raise ParlourError(f"Could not write the SSH host key file {path}: {error.strerror}.") from None
    log.info("made a new SSH host key in %s", path)
    return key


def _read_host_key(path: Path) -> asyncssh.SSHKey:
    try:
        return asyncssh.read_private_key(path)
    except (OSError, ValueError, asyncssh.KeyImportError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error) or type(error).__name__
        raise ParlourError(
            f"The SSH host key file {path} could not be read ({reason}): fix or remove it, and a new key is made."
        ) from None


def _read_authorized_keys(path: Path) -> asyncssh.SSHAuthorizedKeys:
    try:
        return asyncssh.read_authorized_keys(str(path))
    except (OSError, ValueError, asyncssh.KeyImportError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error) or type(error).__name__
        raise ParlourError(f"The authorized_keys file {path} could not be read ({reason}).") from None


def _set_window_size(fd: int, columns: int, rows: int) -> None:
    """Tell the pty its size; when the pty has a foreground process group the kernel sends it SIGWINCH."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def _signal_group(pgid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)


class SshGateway:
    """An SSH server whose sessions each run ``command(username, key_id)`` on a pty of their own.

    ``start`` listens; ``close`` ends every session (children hung up, then killed if they linger, and reaped),
    closes every connection and the listener, and leaves no task behind.
    """

    def __init__(self, settings: SshSettings, command: Command) -> None:
        if not settings.password and settings.authorized_keys is None:
            # Never open by default: without a password or keys anyone on the network would play as anyone.
            raise ParlourError("Play over SSH needs a password or an authorized_keys file; neither was given.")
        for name in ("max_guests", "max_failed_logins"):
            if getattr(settings, name) < 1:
                raise ParlourError(f"The SSH setting {name} is at least 1, not {getattr(settings, name)}.")
        for name in ("idle_timeout", "login_timeout", "failed_login_window"):
            if not getattr(settings, name) > 0:
                raise ParlourError(
                    f"The SSH setting {name} is a number of seconds above 0, not {getattr(settings, name)}."
                )
        if not settings.failed_login_delay >= 0:
            raise ParlourError(
                f"The SSH setting failed_login_delay is 0 or more seconds, not {settings.failed_login_delay}."
            )
        self.settings = settings
        self._command = command
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._authorized: asyncssh.SSHAuthorizedKeys | None = None
        self._connections: set[asyncssh.SSHServerConnection] = set()
        self._sessions: set[_GuestSession] = set()
        self._guests: set[_GuestSession] = set()  # sessions whose child runs (or is being started)
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False
        self._closed = asyncio.Event()  # set by close: a refusal being delayed is made at once
        self.failed_logins = FailedLogins(settings.max_failed_logins, settings.failed_login_window)

    @property
    def sessions(self) -> int:
        """SSH sessions (channels) open now, with or without a child."""
        return len(self._sessions)

    @property
    def guests(self) -> int:
        """Sessions running a guest's child now (at most ``settings.max_guests``)."""
        return len(self._guests)

    @property
    def port(self) -> int:
        """The port listened on (0 before ``start``)."""
        return self._acceptor.get_port() if self._acceptor is not None else 0

    async def start(self) -> int:
        """Listen; returns the bound port (useful with port 0). ParlourError for an unusable host key or
        authorized_keys file, OSError if the port cannot be bound."""
        if self._acceptor is not None:
            return self.port
        settings = self.settings
        host_key = load_host_key(settings.host_key or default_host_key_path())
        self._authorized = _read_authorized_keys(settings.authorized_keys) if settings.authorized_keys else None
        self._closing = False
        self._closed = asyncio.Event()
        self._acceptor = await asyncssh.listen(
            settings.bind,
            settings.port,
            server_factory=lambda: _GuestServer(self),
            server_host_keys=[host_key],
            # The keys are checked by _GuestServer.validate_public_key, not by asyncssh, so that the gateway knows
            # which key a guest logged in with (their identity for getting back to their seat).
            public_key_auth=self._authorized is not None,
            password_auth=bool(settings.password),
            kbdint_auth=bool(settings.password),
            host_based_auth=False,
            gss_host=None,  # no GSSAPI/Kerberos: only the configured methods are offered
            login_timeout=settings.login_timeout,
            line_editor=False,  # the app reads raw keys; asyncssh's line editor would echo and buffer them
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            keepalive_interval=30,  # a guest whose network vanished is noticed, and their child ended
            keepalive_count_max=3,
        )
        log.info("SSH gateway listening on %s port %d", settings.bind, self.port)
        return self.port

    async def close(self) -> None:
        """Stop listening, end every session and its child, close every connection; wait for all of it."""
        self._closing = True
        self._closed.set()
        acceptor, self._acceptor = self._acceptor, None
        if acceptor is not None:
            acceptor.close()  # no new connections; its wait_closed() comes last (see below)
        await asyncio.gather(*(session.stop() for session in list(self._sessions)))
        connections = list(self._connections)
        for connection in connections:
            connection.close()
        await asyncio.gather(*(connection.wait_closed() for connection in connections))
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
        if acceptor is not None:
            # From Python 3.12.1 a server's wait_closed() also waits for every connection it accepted (before, it
            # returned at once): asked only now that this gateway has ended them all, it returns on every version.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(acceptor.wait_closed(), 2.0)
        log.info("SSH gateway closed")

    # -- for the connection and session objects -------------------------------------------------------------------
    def _spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``coro`` as a task that ``close`` waits for."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _check_password(self, password: str) -> bool:
        expected = self.settings.password
        return expected is not None and expected != "" and hmac.compare_digest(password.encode(), expected.encode())

    def _banner(self) -> str:
        """What every client is told before it logs in: how this host lets guests in."""
        if self.settings.password and self._authorized is not None:
            return "This Parlour host needs a password, or an SSH key it knows.\r\n"
        if self.settings.password:
            return NEEDS_PASSWORD + "\r\n"
        return "This Parlour host lets in only the SSH keys it knows.\r\n"


_Challenge = bool | tuple[str, str, str, tuple[tuple[str, bool], ...]]
"""A keyboard-interactive answer: True (in), False (refused), or (name, instruction, language, prompts) to ask."""


class _GuestServer(asyncssh.SSHServer):
    """One SSH connection: authentication, and a :class:`_GuestSession` for each session channel."""

    def __init__(self, gateway: SshGateway) -> None:
        self._gateway = gateway
        self._conn: asyncssh.SSHServerConnection | None = None
        self._peer = "?"
        self._address = "?"  # the peer's IP address: what failed logins are counted by
        self._username = ""
        self._key_id: str | None = None  # the key last accepted in this login; cleared by a password attempt
        self._empty_passwords = 0

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername")
        self._peer = f"{peer[0]}:{peer[1]}" if peer else "?"
        self._address = str(peer[0]) if peer else "?"
        if self._gateway._closing:
            conn.close()
            return
        self._gateway._connections.add(conn)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._conn is not None:
            self._gateway._connections.discard(self._conn)
        log.info("SSH connection from %s closed%s", self._peer, f" ({exc})" if exc else "")

    async def begin_auth(self, username: str) -> bool:
        await self._refuse_if_blocked()
        problem = name_problem(username)
        if problem is not None:
            log.info("SSH user name from %s refused: %s", self._peer, problem)
            raise asyncssh.IllegalUserName(
                f"Your SSH user name is your player name at Parlour's tables, and {problem}: "
                f"connect as NAME@HOST with a NAME that can be one."
            )
        self._username = username
        if self._conn is not None:
            self._conn.send_auth_banner(self._gateway._banner())
        return True  # always authenticate: nobody gets in without a password or a key

    def auth_completed(self) -> None:
        self._gateway.failed_logins.succeeded(self._address)
        how = f"key {self._key_id}" if self._key_id else "the password"
        log.info("%s logged in over SSH from %s with %s", self._username, self._peer, how)

    # -- keys ------------------------------------------------------------------------------------------------------
    def public_key_auth_supported(self) -> bool:
        return self._gateway._authorized is not None

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        authorized = self._gateway._authorized
        ok = authorized is not None and authorized.validate(key, self._address, self._address) is not None
        # asyncssh asks for the key offered and then for the signed request: a login by key always ends with the
        # key it was made with accepted here last.
        self._key_id = key.get_fingerprint("sha256") if ok else None
        return ok

    # -- the password, asked for directly or by keyboard-interactive ------------------------------------------------
    def password_auth_supported(self) -> bool:
        return bool(self._gateway.settings.password)

    async def validate_password(self, username: str, password: str) -> bool:
        self._key_id = None  # a key offered earlier in this login is not the one it is made with
        if not password:
            self._no_password()
            if self._conn is not None:
                self._conn.send_auth_banner(NEEDS_PASSWORD + "\r\n")
            return False
        return await self._check(username, password)

    def kbdint_auth_supported(self) -> bool:
        return bool(self._gateway.settings.password)

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> _Challenge:
        return "", "", "", (("Password: ", False),)

    async def validate_kbdint_response(self, username: str, responses: Sequence[str]) -> _Challenge:
        self._key_id = None
        if len(responses) != 1:
            return False
        if not responses[0]:
            self._no_password()
            return "", NEEDS_PASSWORD, "", (("Password: ", False),)  # asked again, saying why
        return await self._check(username, responses[0])

    def _no_password(self) -> None:
        """An empty password is no wrong one (it is not counted as a failed login): the client is told the host
        needs one, a few times, and then its connection is closed with the same words."""
        self._empty_passwords += 1
        log.info("no SSH password from %s (%s)", self._username, self._peer)
        if self._empty_passwords > EMPTY_PASSWORD_TRIES:
            raise asyncssh.PermissionDenied(NEEDS_PASSWORD)

    async def _check(self, username: str, password: str) -> bool:
        await self._refuse_if_blocked()
        if self._gateway._check_password(password):
            return True
        self._gateway.failed_logins.failed(self._address)
        log.info("wrong SSH password for %s from %s", username, self._peer)
        return False

    async def _refuse_if_blocked(self) -> None:
        """From an address with too many failed logins lately: wait, then close the connection saying why."""
        logins = self._gateway.failed_logins
        if not logins.blocked(self._address):
            return
        log.info("SSH login from %s refused: too many failed logins", self._peer)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._gateway._closed.wait(), self._gateway.settings.failed_login_delay)
        raise asyncssh.PermissionDenied(
            f"Too many failed logins from your address: try again in {duration(logins.window)}."
        )

    def session_requested(self) -> tuple[asyncssh.SSHServerChannel[bytes], _GuestSession] | bool:
        if self._conn is None or self._gateway._closing:
            return False
        channel = self._conn.create_server_channel(encoding=None)
        return channel, _GuestSession(self._gateway, self._username, self._key_id, self._peer)


class _GuestSession(asyncssh.SSHServerSession[bytes]):
    """One SSH session: a shell on a pty runs the guest's child; anything else gets one line on how to connect."""

    def __init__(self, gateway: SshGateway, username: str, key_id: str | None, peer: str) -> None:
        self._gateway = gateway
        self._username = username
        self._key_id = key_id
        self._peer = peer
        self._exec = False
        self._last_input = 0.0  # loop time of the guest's last key (or of the child's start)
        self._idle_timer: asyncio.TimerHandle | None = None
        self._idle_out = False  # the session is being ended for want of keys
        self._chan: asyncssh.SSHServerChannel[bytes] | None = None
        self._term_type: str | None = None
        self._size = DEFAULT_SIZE
        self._shell = False
        self._master: int | None = None
        self._proc: asyncio.subprocess.Process | None = None
        self._reading = False  # the pty master is watched for output
        self._paused = False  # the channel asked us to stop writing
        self._to_child = bytearray()
        self._input_paused = False
        self._channel_open = False
        self._run_task: asyncio.Task[None] | None = None
        self._started = asyncio.Event()  # set once the child exists, or could not be started
        self._stopping: asyncio.Task[None] | None = None

    # -- asyncssh callbacks --------------------------------------------------------------------------------------
    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self._chan = chan
        self._channel_open = True
        self._gateway._sessions.add(self)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: object) -> bool:
        # The client's terminal modes are not copied: the app puts its terminal in raw mode itself.
        self._term_type = term_type or DEFAULT_TERM
        columns, rows = term_size[0], term_size[1]
        if columns > 0 and rows > 0:
            self._size = (columns, rows)
        return True

    def shell_requested(self) -> bool:
        self._shell = True
        return True

    def exec_requested(self, command: str) -> bool:
        # Accepted only to answer with how to connect (an ssh client would otherwise say only that the request
        # failed); the command itself is never run. scp arrives here too.
        log.info("%s from %s asked to run a command; refused", self._username, self._peer)
        self._exec = True
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False  # no sftp or anything else

    def session_started(self) -> None:
        chan = self._chan
        assert chan is not None
        gateway = self._gateway
        if self._exec or not (self._shell and self._term_type is not None) or gateway._closing:
            sockname = chan.get_extra_info("sockname")
            host, port = (sockname[0], sockname[1]) if sockname else ("HOST", gateway.port)
            why = "Parlour runs no commands" if self._exec else "Parlour needs a terminal"
            message = f"{why}: connect with ssh -t -p {port} {self._username}@{host}\r\n"
            chan.write_stderr(message.encode())
            chan.exit(1)
            return
        limit = gateway.settings.max_guests
        if len(gateway._guests) >= limit:
            log.info("%s from %s turned away: %d guests already", self._username, self._peer, limit)
            chan.write_stderr(f"This Parlour host is full ({limit} guests): try again later.\r\n".encode())
            chan.exit(1)
            return
        gateway._guests.add(self)
        self._run_task = gateway._spawn(self._run())

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if self._master is None:
            return
        self._last_input = asyncio.get_running_loop().time()
        self._to_child += data
        self._flush_input()

    def eof_received(self) -> bool:
        return True  # a terminal app ends on a key or a hang-up, not on EOF: stay half open

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if width <= 0 or height <= 0:
            return
        self._size = (width, height)
        if self._master is not None:
            with contextlib.suppress(OSError):
                _set_window_size(self._master, width, height)

    def pause_writing(self) -> None:
        self._paused = True
        self._watch_output(False)

    def resume_writing(self) -> None:
        self._paused = False
        self._watch_output(True)

    def connection_lost(self, exc: Exception | None) -> None:
        self._channel_open = False
        self._gateway._sessions.discard(self)
        if self._run_task is not None and not self._run_task.done():
            log.info("%s from %s went; ending their session", self._username, self._peer)
            self._gateway._spawn(self.stop())

    # -- the child ---------------------------------------------------------------------------------------------
    async def _run(self) -> None:
        """Start the child on a new pty, pump its output until it exits, then report its status and close."""
        chan = self._chan
        assert chan is not None
        try:
            status = await self._start_child()
        except Exception as error:  # one guest's failure (say, a command that raises) must not reach the host
            log.warning("could not run the session of %s: %s", self._username, error, exc_info=True)
            if self._channel_open:
                chan.write_stderr(b"Parlour could not start your session.\r\n")
            status = 1
        finally:
            self._started.set()  # whatever happened, nobody waits for a child that will never exist
            self._release()
            self._gateway._guests.discard(self)
        log.info("%s's SSH session ended (status %s)", self._username, status)
        if not self._channel_open:
            return
        if self._idle_out:  # after the child's last output, which may well clear the screen
            idle = duration(self._gateway.settings.idle_timeout)
            chan.write_stderr(f"\r\nParlour ended your session: no key pressed in {idle}.\r\n".encode())
        if status >= 0:
            chan.exit(status)
        elif -status in {int(s) for s in signal.Signals}:  # killed: tell the client by which signal, as sshd does
            chan.exit_with_signal(signal.Signals(-status).name.removeprefix("SIG"))
        else:
            chan.exit(128 - status)

    async def _start_child(self) -> int:
        argv, extra = self._gateway._command(self._username, self._key_id)
        env = {k: v for k, v in os.environ.items() if k not in _HOST_ONLY_VARIABLES}
        assert self._chan is not None
        for key, value in self._chan.get_environment().items():  # what the guest's client sent (SendEnv)
            if key in ("LANG", "COLORTERM") or key.startswith("LC_"):
                env[key] = value
        env.update(extra)
        env["TERM"] = self._term_type or DEFAULT_TERM
        master, slave = os.openpty()
        self._master = master
        try:
            _set_window_size(master, *self._size)
            self._proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                _CONTROLLING_TTY_SHIM,
                *argv,
                stdin=slave,
                stdout=slave,
                stderr=slave,
                start_new_session=True,
                env=env,
            )
        finally:
            os.close(slave)  # the child has its own; the master sees EIO once every holder of the slave is gone
        self._started.set()
        log.info("started the app of %s (pid %d)", self._username, self._proc.pid)
        os.set_blocking(master, False)
        self._watch_output(not self._paused)
        self._last_input = asyncio.get_running_loop().time()
        self._watch_idle()
        status = await self._proc.wait()
        self._read_output(drain=True)  # what it wrote just before exiting
        return status

    async def stop(self) -> None:
        """End the child: SIGHUP to its process group, SIGTERM after a moment, SIGKILL after about 2 s; then wait
        until it is reaped and the session's task has finished."""
        if self._stopping is None:
            self._stopping = asyncio.get_running_loop().create_task(self._hang_up())
        await asyncio.shield(self._stopping)
        if self._run_task is not None:
            await asyncio.gather(self._run_task, return_exceptions=True)

    async def _hang_up(self) -> None:
        if self._run_task is None:  # no child (not a shell, or not started yet): just close the channel
            if self._channel_open and self._chan is not None:
                self._chan.close()
            return
        await self._started.wait()  # a child being started is ended once it exists
        proc = self._proc
        if proc is None:
            return
        for signum in (signal.SIGHUP, signal.SIGTERM, signal.SIGKILL):
            if proc.returncode is not None:
                break
            _signal_group(proc.pid, signum)
            if signum == signal.SIGHUP:
                _signal_group(proc.pid, signal.SIGCONT)  # a stopped child could not act on the hang-up
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(proc.wait(), HANGUP_GRACE if signum != signal.SIGKILL else None)

    def _watch_idle(self) -> None:
        """End the session once the guest has pressed no key for ``idle_timeout`` seconds: checked when that time
        since the last key comes, and put off again by every key meanwhile."""
        self._idle_timer = None
        if self._master is None or self._stopping is not None:
            return
        loop = asyncio.get_running_loop()
        deadline = self._last_input + self._gateway.settings.idle_timeout
        if loop.time() < deadline:
            self._idle_timer = loop.call_at(deadline, self._watch_idle)
            return
        log.info("%s from %s pressed no key for a while; ending their session", self._username, self._peer)
        self._idle_out = True
        self._gateway._spawn(self.stop())

    # -- the pty -----------------------------------------------------------------------------------------------
    def _watch_output(self, on: bool) -> None:
        if self._master is None or on == self._reading:
            return
        loop = asyncio.get_running_loop()
        if on:
            loop.add_reader(self._master, self._read_output)
        else:
            loop.remove_reader(self._master)
        self._reading = on

    def _read_output(self, drain: bool = False) -> None:
        """Move what the child wrote to the channel: one read when the loop says it is readable, or everything
        there is when the child has exited."""
        while self._master is not None:
            try:
                data = os.read(self._master, READ_CHUNK)
            except BlockingIOError:
                return
            except OSError:  # EIO: no process holds the slave any more
                self._watch_output(False)
                return
            if not data:
                self._watch_output(False)
                return
            if self._channel_open and self._chan is not None:
                with contextlib.suppress(OSError):  # the channel closed under us: the output has nowhere to go
                    self._chan.write(data)
            if not drain:
                return

    def _flush_input(self) -> None:
        """Write the guest's keys to the pty without blocking; what the pty does not take waits for it."""
        master = self._master
        if master is None:
            self._to_child.clear()
            return
        loop = asyncio.get_running_loop()
        while self._to_child:
            try:
                written = os.write(master, self._to_child)
            except BlockingIOError:
                break
            except OSError as error:
                if error.errno not in (errno.EIO, errno.EBADF):
                    log.debug("writing to the pty of %s failed: %s", self._username, error)
                self._to_child.clear()
                break
            del self._to_child[:written]
        loop.remove_writer(master)
        if self._to_child:
            loop.add_writer(master, self._flush_input)
        pause = len(self._to_child) > INPUT_LIMIT
        if pause != self._input_paused and self._chan is not None and self._channel_open:
            self._input_paused = pause
            if pause:
                self._chan.pause_reading()
            else:
                self._chan.resume_reading()

    def _release(self) -> None:
        """Stop watching the pty and the guest's keys, and close the master."""
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None
        master, self._master = self._master, None
        if master is None:
            return
        loop = asyncio.get_running_loop()
        if self._reading:
            loop.remove_reader(master)
            self._reading = False
        loop.remove_writer(master)
        self._to_child.clear()
        os.close(master)
