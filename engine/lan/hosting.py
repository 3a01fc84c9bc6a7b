"""Running a LAN host for ``parlour host``: the server (and its SSH door) alone until a signal, or on a thread of
their own while the host's own player sits in the lobby in this process.

Every way a host cannot start (a port in use, an address it cannot bind, a bad SSH key file) is a
:class:`HostingError` with one sentence for a person.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hashlib
import signal
import socket
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import ParlourError
from engine.lan.server import LanServer
from engine.lan.tokens import GUEST_ENV, GUEST_KEY_ENV
from engine.records.paths import DATA_ENV, data_dir

if TYPE_CHECKING:
    from engine.lan.ssh import SshGateway

WAIT = 10.0
"""The longest a start or a stop may take (seconds)."""


class HostingError(ParlourError):
    """The host cannot run: one sentence says why."""


@dataclass(frozen=True)
class HostSettings:
    bind: str = "0.0.0.0"
    port: int = 7777
    name: str = "Parlour"
    password: str | None = None
    ssh_port: int | None = None
    ssh_password: str | None = None
    ssh_keys: Path | None = None
    keep: Path | None = None
    """Where tables in play are saved and found again after a restart (None: nowhere)."""


def _listen_error(err: OSError, what: str, bind: str, port: int, flag: str) -> HostingError:
    if err.errno == errno.EADDRINUSE:
        return HostingError(f"{what} {port} is in use on {bind}: choose another with {flag}")
    return HostingError(f"cannot listen on {bind}:{port}: {(err.strerror or str(err)).lower()}")


def guest_command(port: int, password: str | None) -> Any:
    """What an SSH guest runs: ``parlour join`` to this host on loopback, as the guest's SSH user name.

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
        return [sys.executable, "-m", "tui", "join", f"127.0.0.1:{port}", f"--name={username}"], env

    return command


class Host:
    """A :class:`LanServer` and, with an SSH port, an :class:`~engine.lan.ssh.SshGateway` before it, on one loop."""

    def __init__(self, settings: HostSettings) -> None:
        self.settings = settings
        self.server = LanServer(name=settings.name, password=settings.password, keep=settings.keep)
        self.gateway: SshGateway | None = None
        self.port = 0
        self.ssh_port: int | None = None

    async def start(self) -> None:
        s = self.settings
        try:
            self.port = await self.server.start(s.bind, s.port)
        except OSError as err:
            raise _listen_error(err, "port", s.bind, s.port, "--port") from None
        if s.ssh_port is None:
            return
        from engine.lan.ssh import SshGateway, SshSettings

        try:
            ssh = SshSettings(
                bind=s.bind, port=s.ssh_port, password=s.ssh_password, authorized_keys=s.ssh_keys, host_key=None
            )
            self.gateway = SshGateway(ssh, guest_command(self.port, s.password))
            self.ssh_port = await self.gateway.start()
        except OSError as err:
            await self.server.close()
            raise _listen_error(err, "SSH port", s.bind, s.ssh_port, "--ssh-port") from None
        except ParlourError as err:
            await self.server.close()
            raise HostingError(str(err)) from None

    async def close(self) -> None:
        if self.gateway is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.gateway.close(), WAIT)
        await asyncio.wait_for(self.server.close(), WAIT)

    def where(self) -> list[str]:
        """Lines that tell others how to join."""
        lines = [f"Others join with: parlour join {address}:{self.port}" for address in addresses(self.settings.bind)]
        if self.ssh_port is not None:
            for address in addresses(self.settings.bind):
                lines.append(f"or over SSH: ssh -p {self.ssh_port} NAME@{address}")
        return lines


def addresses(bind: str) -> list[str]:
    """The addresses others may reach this machine at, for the bind address (all of them for 0.0.0.0)."""
    if bind not in ("0.0.0.0", "", "::"):
        return [bind]
    found: list[str] = []
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, family=socket.AF_INET):
            address = str(info[4][0])
            if not address.startswith("127.") and address not in found:
                found.append(address)
    return found or [socket.gethostname()]


def run_headless(settings: HostSettings) -> int:
    """``parlour host --headless``: serve until SIGINT (Ctrl+C) or SIGTERM, logging to stderr; 0 after a clean
    stop, 2 (after one sentence on stderr) when it cannot listen."""

    async def serve() -> int:
        host = Host(settings)
        try:
            await host.start()
        except HostingError as err:
            print(f"parlour: {err}", file=sys.stderr)
            return 2
        print(f"parlour: hosting on {settings.bind}:{host.port} (Ctrl+C stops)", file=sys.stderr, flush=True)
        for problem in host.server.problems:
            print(f"parlour: {problem}", file=sys.stderr, flush=True)
        offered = [table.code for table in host.server.tables.values()]
        if offered:
            print(f"parlour: tables in play again: {', '.join(offered)}", file=sys.stderr, flush=True)
        if host.ssh_port is not None:
            print(f"parlour: SSH on {settings.bind}:{host.ssh_port}", file=sys.stderr, flush=True)
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
    """A :class:`Host` on a thread and event loop of its own (the app runs on the main thread)."""

    def __init__(self, settings: HostSettings) -> None:
        self.host = Host(settings)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="parlour-host", daemon=True)

    def start(self) -> Host:
        """Start serving; HostingError (the thread stopped again) when it cannot."""
        self.thread.start()
        try:
            asyncio.run_coroutine_threadsafe(self.host.start(), self.loop).result(WAIT)
        except BaseException:
            self.stop()
            raise
        return self.host

    def stop(self) -> None:
        if self.loop.is_closed():
            return
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(self.host.close(), self.loop).result(WAIT)
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(self.loop.shutdown_default_executor(), self.loop).result(WAIT)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(WAIT)
        if not self.thread.is_alive():
            self.loop.close()
