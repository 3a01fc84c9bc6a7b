"""Running a LAN host for ``parlour host``: the server (and its SSH door) alone until a signal, or on a thread of
their own while the host's own player sits in the lobby in this process.

Every way a host cannot start (a port in use, an address it cannot bind, a bad SSH key file) is a
:class:`HostingError` with one sentence for a person.

The engine never starts the UI: what an SSH guest runs, and what a host that goes on in the background runs, are
command lines the UI puts in :class:`HostSettings` (``guest_command``, ``headless_command``).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hashlib
import importlib
import ipaddress
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import ParlourError
from engine.lan.server import LanServer
from engine.lan.tokens import GUEST_ENV, GUEST_KEY_ENV
from engine.records.paths import DATA_ENV, NotAFileError, data_dir, move_aside, open_appending, open_regular

if TYPE_CHECKING:
    from engine.lan.ssh import Command, SshGateway
    from engine.lan.web_gateway import WebGateway

WAIT = 10.0
"""The longest a start or a stop may take (seconds)."""


class HostingError(ParlourError):
    """The host cannot run: one sentence says why."""


@dataclass(frozen=True)
class HostSettings:
    bind: str = ""
    """The address to listen on ("": every address of this machine, IPv4 and IPv6)."""
    port: int = 7777
    name: str = "Parlour"
    password: str | None = None
    ssh_port: int | None = None
    ssh_password: str | None = None
    ssh_keys: Path | None = None
    web_port: int | None = None
    """Serve the game to browsers on this port (:mod:`engine.lan.web`; needs ``pip install 'parlour[web]'``)."""
    web_max_guests: int = 32
    """Browser sessions at once."""
    keep: Path | None = None
    """Where tables in play are saved and found again after a restart (None: nowhere)."""
    guest_command: tuple[str, ...] = ()
    """What an SSH guest runs (given by the UI: ``parlour join``), with two arguments added: this host's address on
    loopback (``127.0.0.1:PORT``) and ``--name=`` the guest's SSH user name. Needed with ``ssh_port``; with
    ``web_port`` each browser session runs it too, with this host's address only (its app asks the name)."""
    headless_command: tuple[str, ...] = ()
    """What a host that goes on in the background runs (given by the UI: ``parlour host --headless``), with the
    options of these settings added (:func:`background_command`). Needed by :func:`start_background` only."""


def _listen_error(err: OSError, what: str, bind: str, port: int, flag: str) -> HostingError:
    where = bind or "every address"
    if err.errno == errno.EADDRINUSE:
        return HostingError(f"{what} {port} is in use on {where}: choose another with {flag}")
    return HostingError(
        f"cannot listen on {join_address(bind, port) if bind else where}: {(err.strerror or str(err)).lower()}"
    )


def guest_command(program: Sequence[str], port: int, password: str | None) -> Command:
    """What an SSH guest runs: ``program`` (the UI's ``parlour join``) to this host on loopback, as the guest's SSH
    user name.

    Every guest runs as the host's own user, so each gets a data directory of its own, not the host's: a guest who
    logged in with a key, one for that key (its seat's token, replays and statistics are there the next time it
    logs in with it, ``PARLOUR_GUEST_KEY`` set to the key's fingerprint); a guest who logged in with the shared
    password has no identity of its own, shares one directory with the other such guests, and keeps no token
    (``PARLOUR_GUEST``: see :mod:`engine.lan.tokens`)."""

    def command(username: str, key_id: str | None) -> tuple[list[str], dict[str, str]]:
        env = {"PARLOUR_PASSWORD": password} if password is not None else {}
        env[GUEST_ENV] = "ssh"
        if key_id is not None:
            env[GUEST_KEY_ENV] = key_id
            slot = hashlib.sha256(key_id.encode()).hexdigest()[:32]
        else:
            slot = "password"
        env[DATA_ENV] = str(data_dir() / "guests" / slot)
        return [*program, f"127.0.0.1:{port}", f"--name={username}"], env

    return command


class LanHost:
    """A :class:`LanServer` and, with an SSH port, an :class:`~engine.lan.ssh.SshGateway` before it, on one loop."""

    def __init__(self, settings: HostSettings, *, owner: str | None = None) -> None:
        """``owner``: the name of the host's own player (``parlour host`` with its lobby), asked to let a player
        back into a seat when nobody at the table can be."""
        if settings.ssh_port is not None and not settings.guest_command:
            raise ValueError("an SSH port needs HostSettings.guest_command: what an SSH guest runs")
        if settings.web_port is not None and not settings.guest_command:
            raise ValueError("a web port needs HostSettings.guest_command: what a browser session runs")
        self.settings = settings
        self.server = LanServer(name=settings.name, password=settings.password, keep=settings.keep, owner=owner)
        self.gateway: SshGateway | None = None
        self.port = 0
        self.ssh_port: int | None = None
        self.web: WebGateway | None = None
        self.web_port: int | None = None

    async def start(self) -> None:
        s = self.settings
        if s.web_port is not None:  # (before anything listens: a missing optional dependency is one sentence)
            from engine.lan.web import check_available

            try:
                check_available()
            except ParlourError as err:
                raise HostingError(str(err)) from None
        try:
            self.port = await self.server.start(s.bind, s.port)
        except OSError as err:
            raise _listen_error(err, "port", s.bind, s.port, "--port") from None
        await self._start_ssh()
        await self._start_web()

    async def _start_web(self) -> None:
        s = self.settings
        if s.web_port is None:
            return
        from engine.lan.web import WebSettings, local_address, session_command, session_log
        from engine.lan.web_gateway import WebGateway

        try:
            session_log().parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            await self.close()
            why = (err.strerror or str(err)).lower()
            raise HostingError(f"cannot make the browser guests' directory {session_log().parent}: {why}") from None

        program, port, needs_password = s.guest_command, self.port, s.password is not None

        def command(session_id: str) -> str:
            return session_command(program, local_address(s.bind), port, needs_password, session_id)

        try:
            self.web = WebGateway(
                WebSettings(bind=s.bind, port=s.web_port, max_guests=s.web_max_guests, title=f"Parlour at {s.name}"),
                command,
            )
            self.web_port = await self.web.start()
        except OSError as err:
            await self.close()
            raise _listen_error(err, "web port", s.bind, s.web_port, "--web-port") from None
        except ValueError as err:
            await self.close()
            raise HostingError(str(err)) from None

    async def _start_ssh(self) -> None:
        s = self.settings
        if s.ssh_port is None:
            return
        from engine.lan.ssh import SshGateway, SshSettings

        try:
            ssh = SshSettings(
                bind=s.bind, port=s.ssh_port, password=s.ssh_password, authorized_keys=s.ssh_keys, host_key=None
            )
            self.gateway = SshGateway(ssh, guest_command(s.guest_command, self.port, s.password))
            self.ssh_port = await self.gateway.start()
        except OSError as err:
            await self.server.close()
            raise _listen_error(err, "SSH port", s.bind, s.ssh_port, "--ssh-port") from None
        except ParlourError as err:
            await self.server.close()
            raise HostingError(str(err)) from None

    async def close(self, *, end_tables: bool = False) -> None:
        """Stop serving: the tables in play stay kept (offered again at the next start) unless ``end_tables``."""
        if self.web is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.web.close(), WAIT)
        if self.gateway is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.gateway.close(), WAIT)
        await asyncio.wait_for(self.server.close(end_tables=end_tables), WAIT)

    def where(self) -> list[str]:
        """Lines that tell others how to join: one per address of this machine (:func:`addresses`)."""
        found = addresses(self.settings.bind)
        lines = [f"Others join with: parlour join {join_address(address, self.port)}" for address in found]
        if self.ssh_port is not None:
            for address in found:
                lines.append(f"or over SSH: ssh -p {self.ssh_port} NAME@{address.partition('%')[0]}")
        if self.web_port is not None:
            from engine.lan.web import web_address

            for address in found:
                if "%" not in address:  # (a browser takes no interface name in an address)
                    lines.append(f"or in a browser: {web_address(address, self.web_port)}")
        return lines


ANY_ADDRESS = ("0.0.0.0", "", "::")
"""Bind addresses that listen on every interface."""


def join_address(address: str, port: int) -> str:
    """``host:port``, an IPv6 address in brackets (``[fd00::2]:7777``)."""
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"


def interface_addresses() -> list[tuple[str, str, int]]:
    """Every (interface, address, family) of this machine, from psutil (the standard library has no portable way
    to list them); none when psutil cannot say."""
    try:
        psutil: Any = importlib.import_module("psutil")  # (it ships no type hints)
        found = psutil.net_if_addrs()
    except (ImportError, OSError, RuntimeError):
        return []
    return [
        (name, str(addr.address), int(addr.family))
        for name, entries in found.items()
        for addr in entries
        if addr.family in (socket.AF_INET, socket.AF_INET6)
    ]


def addresses(bind: str, interfaces: list[tuple[str, str, int]] | None = None) -> list[str]:
    """The addresses others may reach this host at: the bind address itself when it is one; for every interface
    each address of this machine it listens on (``0.0.0.0``: the IPv4 ones, ``::``: the IPv6 ones, ``""``: both),
    IPv4 first, the loopback ones last, IPv6 link-local ones (``fe80::``, named with their interface:
    ``fe80::1%eth0``) only when there is nothing else but loopback. Never ``0.0.0.0`` nor a name (a name may
    resolve to loopback only: a bind name is given as the addresses it resolves to, which the host listens on).
    ``interfaces``: (name, address, family) triples instead of this machine's."""
    if bind not in ANY_ADDRESS:
        return _resolved(bind)
    interfaces = interface_addresses() if interfaces is None else interfaces
    wide, link_local, loopback = [], [], []
    for name, raw, family in interfaces:
        text = raw.partition("%")[0]
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if (family == socket.AF_INET6 and bind == "0.0.0.0") or (family == socket.AF_INET and bind == "::"):
            continue  # 0.0.0.0 listens on IPv4 only, :: on IPv6 only (asyncio sets IPV6_V6ONLY); "" on both
        if address.is_loopback:
            loopback.append(str(address))
        elif address.is_link_local and address.version == 6:
            link_local.append(f"{address}%{name}")
        elif not address.is_unspecified:
            wide.append(str(address))
    ordered = [*_ipv4_first(wide), *(link_local if not wide else []), *_ipv4_first(loopback)]
    if not ordered:
        ordered = ["127.0.0.1"] if bind != "::" else ["::1"]
    return list(dict.fromkeys(ordered))


def _resolved(bind: str) -> list[str]:
    """The addresses a bind address or name stands for (a server bound to a name listens on each of them), loopback
    last; ``bind`` itself when it is an address, or when it does not resolve (the host cannot listen there then)."""
    try:
        ipaddress.ip_address(bind.partition("%")[0])
    except ValueError:
        pass
    else:
        return [bind]
    try:
        found = socket.getaddrinfo(bind, None, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError):
        return [bind]
    wide: list[str] = []
    loopback: list[str] = []
    for *_, address in found:
        text = str(address[0])
        (loopback if ipaddress.ip_address(text.partition("%")[0]).is_loopback else wide).append(text)
    ordered = [*_ipv4_first(wide), *_ipv4_first(loopback)]
    return list(dict.fromkeys(ordered)) or [bind]


def _ipv4_first(found: list[str]) -> list[str]:
    return [a for a in found if ":" not in a] + [a for a in found if ":" in a]


def run_headless(settings: HostSettings) -> int:
    """``parlour host --headless``: serve until SIGINT (Ctrl+C) or SIGTERM, logging to stderr; 0 after a clean
    stop, 2 (after one sentence on stderr) when it cannot listen."""

    async def serve() -> int:
        host = LanHost(settings)
        try:
            await host.start()
        except HostingError as err:
            print(f"parlour: {err}", file=sys.stderr)
            return 2
        found = ", ".join(join_address(address, host.port) for address in addresses(settings.bind))
        print(f"parlour: hosting on {found} (Ctrl+C stops)", file=sys.stderr, flush=True)
        for line in host.where():
            print(f"parlour: {line}", file=sys.stderr, flush=True)
        for problem in host.server.problems:
            print(f"parlour: {problem}", file=sys.stderr, flush=True)
        offered = [table.code for table in host.server.tables.values()]
        if offered:
            print(f"parlour: tables in play again: {', '.join(offered)}", file=sys.stderr, flush=True)
        if host.ssh_port is not None:
            print(f"parlour: SSH on port {host.ssh_port}", file=sys.stderr, flush=True)
        if host.web_port is not None:
            print(f"parlour: browsers on port {host.web_port}", file=sys.stderr, flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        await stop.wait()
        print("parlour: stopping", file=sys.stderr, flush=True)
        await host.close()
        return 0

    return asyncio.run(serve())


class HostThread:
    """A :class:`LanHost` on a thread and event loop of its own (the app runs on the main thread)."""

    def __init__(self, settings: HostSettings) -> None:
        self.host = LanHost(settings, owner=settings.name)  # (the app on the main thread is its own player's)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="parlour-host", daemon=True)

    def start(self) -> LanHost:
        """Start serving; HostingError (the thread stopped again) when it cannot."""
        self.thread.start()
        try:
            asyncio.run_coroutine_threadsafe(self.host.start(), self.loop).result(WAIT)
        except BaseException:
            self.stop()
            raise
        return self.host

    def tables_in_play(self) -> list[str]:
        """The codes of the tables in play at this host (asked on its loop; none once it has stopped)."""

        async def ask() -> list[str]:
            return self.host.server.tables_in_play()

        if self.loop.is_closed() or not self.thread.is_alive():
            return []
        try:
            return asyncio.run_coroutine_threadsafe(ask(), self.loop).result(WAIT)
        except Exception:
            return []

    @property
    def keeps_tables(self) -> bool:
        """Whether tables in play are kept when this host stops (not with ``--no-keep``)."""
        return self.host.settings.keep is not None

    def stop(self, *, end_tables: bool = False) -> None:
        """Stop the host (bounded): its tables in play are kept for the next start, unless ``end_tables``."""
        if self.loop.is_closed():
            return
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(self.host.close(end_tables=end_tables), self.loop).result(WAIT)
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(self.loop.shutdown_default_executor(), self.loop).result(WAIT)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(WAIT)
        if not self.thread.is_alive():
            self.loop.close()


# -- a host that goes on in the background -------------------------------------------------------------------------
HOST_PASSWORD_ENV = "PARLOUR_HOST_PASSWORD"
SSH_PASSWORD_ENV = "PARLOUR_SSH_PASSWORD"
"""How a background host is given its passwords: never on its command line, where ``ps`` shows them to all."""


@dataclass(frozen=True)
class BackgroundHost:
    """A ``parlour host --headless`` started detached: its process id and the log it writes."""

    pid: int
    log: Path


def background_command(settings: HostSettings, port: int) -> tuple[list[str], dict[str, str]]:
    """The command line and environment of ``parlour host --headless`` (``settings.headless_command``) serving as
    ``settings`` say, on ``port`` (the one bound), with the passwords in the environment only."""
    if not settings.headless_command:
        raise ValueError("a host in the background needs HostSettings.headless_command: what it runs")
    command = [*settings.headless_command, "--bind", settings.bind, "--port", str(port)]
    command += ["--name", settings.name]
    env = {key: value for key, value in os.environ.items() if key not in (HOST_PASSWORD_ENV, SSH_PASSWORD_ENV)}
    if settings.password is not None:
        env[HOST_PASSWORD_ENV] = settings.password
    if settings.keep is None:
        command.append("--no-keep")
    if settings.ssh_port is not None:
        command += ["--ssh-port", str(settings.ssh_port)]
        if settings.ssh_password is not None:
            env[SSH_PASSWORD_ENV] = settings.ssh_password
        if settings.ssh_keys is not None:
            command += ["--ssh-keys", str(settings.ssh_keys)]
    if settings.web_port is not None:
        command += ["--web-port", str(settings.web_port)]
    return command, env


def start_background(settings: HostSettings, port: int, log: Path, wait: float = WAIT) -> BackgroundHost:
    """Start ``parlour host --headless`` detached from this process and its terminal (a session of its own), its
    output appended to ``log``, and wait (bounded) until it serves; HostingError with one sentence when it does
    not (its log says why)."""
    command, env = background_command(settings, port)
    try:
        log.parent.mkdir(parents=True, exist_ok=True)
        try:
            handle = open_appending(log)
        except NotAFileError:  # (a FIFO there would hang this screen: it goes aside, a new log is started)
            move_aside(log)
            handle = open_appending(log)
        start = os.fstat(handle).st_size
        with os.fdopen(handle, "ab") as out:
            proc = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=out,
                env=env,
                start_new_session=True,
                close_fds=True,
            )
    except OSError as err:
        raise HostingError(f"the background host could not be started: {(err.strerror or str(err)).lower()}") from None
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            with open_regular(log) as seen:
                seen.seek(start)
                if b"parlour: hosting on " in seen.read():
                    return BackgroundHost(proc.pid, log)
        try:
            proc.wait(0.05)  # (a bounded wait for either: it serves, or it has stopped)
        except subprocess.TimeoutExpired:
            continue
        raise HostingError(f"the background host stopped at once (its log, {log}, says why)")
    raise HostingError(f"the background host did not start in {wait:.0f} s (its log is {log})")
