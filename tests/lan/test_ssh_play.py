"""Play over SSH end to end: a :class:`~engine.lan.lan_host.LanHost` on 127.0.0.1 with its SSH door, a creator over the
network (Cleo, a thread answering her turns) and a guest with nothing but an SSH client on a pty (ann, an asyncssh
client). ann's ``parlour join`` runs as a child of the host; she sits from the lobby with Enter and plays a hand with
keys; when she hangs up, her child goes, and closing the host leaves nothing behind. A guest who logs in with a key
(bea) has its fingerprint in her client's PARLOUR_GUEST_KEY. Every wait is bounded."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from lan_helpers import WAIT

from engine.errors import ParlourError
from engine.events import Event
from engine.games.chase.rules import Stayed, Traded
from engine.lan.lan_host import HostSettings, LanHost
from engine.lan.remote_session import NetworkSession
from engine.match import RoundOver
from engine.session import Update
from tui.cli import guest_command

SSH_PASSWORD = "pw"

HAND = 60.0
"""The longest the hand may take, from the start to its RoundOver (seconds); it takes a few."""

SIT_AGAIN = 5.0
"""Seconds between Enters in the lobby while ann's seat is still free (see the test)."""

GONE = 10.0
"""The longest the guest's child may outlive the guest's connection (the gateway needs about 2 s at most)."""


class Creator(threading.Thread):
    """Cleo, the table's creator, played by a thread: a random legal action on each of her turns, ``next`` after
    every round; every event she sees is kept."""

    def __init__(self, session: NetworkSession, seed: int) -> None:
        super().__init__(name="ssh-play-creator", daemon=True)
        self.session = session
        self.rng = random.Random(seed)
        self.rounds = 0
        self.stop = threading.Event()
        self.failed: BaseException | None = None
        self._lock = threading.Lock()
        self._events: list[Event] = []

    @property
    def events(self) -> list[Event]:
        with self._lock:
            return list(self._events)

    def seen(self, update: Update) -> None:
        with self._lock:
            for event in update.events:
                self._events.append(event)
                if isinstance(event, RoundOver) and not event.last:
                    self.rounds += 1

    def run(self) -> None:
        answered = 0
        try:
            self.session.wait_started(WAIT)
            self.session.subscribe(self.seen)
            deadline = time.monotonic() + 2 * HAND
            while not self.stop.is_set() and time.monotonic() < deadline:
                with self._lock:
                    rounds = self.rounds
                if answered < rounds:
                    answered += 1
                    self.session.ready()
                snap = self.session.snapshot()
                if snap.over:
                    return
                if snap.legal:
                    try:
                        self.session.submit(self.rng.choice(snap.legal))
                    except ParlourError:
                        pass  # overtaken (a stale snapshot): look again
                else:
                    self.stop.wait(0.05)  # not her turn: look again in a moment, without hammering the host
        except BaseException as err:  # reported by the test
            self.failed = err


class Screen:
    """Everything a pty session wrote, read continuously (a full-screen app writes a lot, and a session whose
    output nobody reads stalls)."""

    def __init__(self, process: asyncssh.SSHClientProcess[bytes]) -> None:
        self.output = bytearray()
        self.task = asyncio.get_running_loop().create_task(self._read(process))

    async def _read(self, process: asyncssh.SSHClientProcess[bytes]) -> None:
        with contextlib.suppress(asyncssh.Error, ConnectionError):
            while chunk := await process.stdout.read(65536):
                self.output += chunk

    @property
    def text(self) -> str:
        return bytes(self.output).decode(errors="replace")

    def why(self) -> str:
        """The end of what the screen shows, without the terminal's control sequences (for a failure's message)."""
        plain = re.sub(r"\x1b\[[0-9;?<>=$]*[A-Za-z~]|\x1b\][^\x07]*\x07|\x1b[=>78]", "", self.text)
        lines = [line.rstrip() for line in plain.replace("\r", "\n").split("\n")]
        return "the guest's screen ends: " + " | ".join(line for line in lines if line.strip())[-1500:]

    async def close(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(self.task, WAIT)


async def guest_started(name: str, screen: Screen) -> list[int]:
    """Wait for the gateway's child process for ``name``: the pids as that look found them (a second look could
    find the process already ended, and say nothing of why)."""
    seen: list[int] = []

    def started() -> bool:
        seen[:] = guest_pids(name)
        return bool(seen)

    await until(started, 3 * WAIT, "the guest's child process", screen.why)
    return seen


def guest_pids(name: str) -> list[int]:
    """The children of this process that run ``parlour join ... --name=NAME`` (the gateway's children for a guest;
    a zombie's command line is empty, so only a child not yet ended counts)."""
    me, found = os.getpid(), []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_bytes()
            ppid = int(stat.rsplit(b")", 1)[1].split()[1])
            if ppid != me:
                continue
            args = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile, or not ours to read
        if b"join" in args and f"--name={name}".encode() in args:
            found.append(int(entry))
    return found


async def until(
    check: Callable[[], bool],
    timeout: float,
    what: str,
    why: Callable[[], str] = str,
    *,
    every: Callable[[], Any] | None = None,
    interval: float = 0.5,
) -> None:
    """Wait (bounded) until ``check()`` holds, calling ``every()`` each ``interval`` seconds meanwhile (a key to
    send); on a timeout the assertion says what was awaited and ``why()`` (what the guest's screen shows...)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    nudge = loop.time() + interval
    while not check():
        now = loop.time()
        if now > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}: {why()}")
        if every is not None and now >= nudge:
            every()
            nudge = now + interval
        await asyncio.sleep(0.05)  # (a poll's pause: the condition is what is waited for)


def seat_one(cleo: NetworkSession | None) -> dict[str, Any] | None:
    summary = cleo.table if cleo is not None else None
    return summary["seats"][1] if summary is not None else None


async def test_a_guest_over_ssh_plays_a_hand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The gateway's host key in Parlour's data directory (LanHost passes host_key=None): a temporary one.
    monkeypatch.setenv("PARLOUR_DATA_DIR", str(tmp_path / "data"))
    before = asyncio.all_tasks()
    settings = HostSettings(
        bind="127.0.0.1",
        port=0,
        name="Parlour Test",
        ssh_port=0,
        ssh_password=SSH_PASSWORD,
        guest_command=guest_command(),
    )
    host = LanHost(settings)
    await asyncio.wait_for(host.start(), WAIT)
    assert host.port > 0 and host.ssh_port
    assert (tmp_path / "data" / "ssh_host_key").is_file()
    gateway = host.gateway
    assert gateway is not None
    cleo: NetworkSession | None = None
    player: Creator | None = None
    conn: asyncssh.SSHClientConnection | None = None
    screen: Screen | None = None
    try:
        session: NetworkSession = await asyncio.to_thread(NetworkSession.connect, "127.0.0.1", host.port, "Cleo")
        cleo = session
        code = await asyncio.to_thread(session.create, "screw", 2, bots=[None, None])
        player = Creator(session, seed=3)

        conn = await asyncio.wait_for(
            asyncssh.connect(
                "127.0.0.1", host.ssh_port, username="ann", password=SSH_PASSWORD, known_hosts=None, client_keys=None
            ),
            WAIT,
        )
        process = await asyncio.wait_for(
            conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None), WAIT
        )
        screen = Screen(process)
        pids = await guest_started("ann", screen)
        assert len(pids) == 1, pids
        assert b"PARLOUR_GUEST_KEY=" not in Path(f"/proc/{pids[0]}/environ").read_bytes()  # a password login

        # The lobby lists the table (its code on ann's screen: the app is up and reading keys), with the focus on
        # the tables list: Enter sits ann at the first free seat and says ready. One Enter, and another only if
        # the seat is still free a good while later: a second Enter while the first is on its way makes the app
        # sit her again, which the host does not answer (the app waits its whole timeout before saying ready).
        await until(lambda: code in screen.text, 3 * WAIT, f"table {code} on the guest's screen", screen.why)

        def seat_taken() -> bool:
            seat = seat_one(cleo)
            return seat is not None and seat["name"] == "ann"

        def enter_again() -> None:
            seat = seat_one(cleo)
            if seat is not None and seat["status"] == "open":
                process.stdin.write(b"\r")

        process.stdin.write(b"\r")
        await until(seat_taken, 3 * WAIT, "ann seated", screen.why, every=enter_again, interval=SIT_AGAIN)

        def ready() -> bool:
            seat = seat_one(cleo)
            return seat is not None and seat["name"] == "ann" and seat["status"] == "ready"

        await until(ready, 2 * WAIT, "ann ready", lambda: f"seat 1: {seat_one(cleo)}; {screen.why()}")
        await until(lambda: "Tables" in screen.text, 3 * WAIT, "the lobby on the guest's screen", screen.why)

        await asyncio.to_thread(session.start)
        player.start()

        def played() -> bool:
            events = player.events
            return any(isinstance(e, Stayed | Traded) and e.seat == 1 for e in events) and any(
                isinstance(e, RoundOver) for e in events
            )

        keys = iter(range(1_000_000))

        def press() -> None:
            # "s" on ann's turn (nothing at anyone else's), and now and then Enter for a dialog.
            process.stdin.write(b"\r" if next(keys) % 5 == 4 else b"s")

        await until(
            lambda: played() or player.failed is not None or not player.is_alive(),
            HAND,
            "a hand played",
            lambda: f"Cleo saw {player.events}; {screen.why()}",
            every=press,
            interval=0.3,
        )
        assert player.failed is None, player.failed
        events = player.events
        assert any(isinstance(e, Stayed | Traded) and e.seat == 1 for e in events), events
        assert any(isinstance(e, RoundOver) for e in events), events

        # ann hangs up: her child is ended (and reaped) by the gateway.
        conn.close()
        await asyncio.wait_for(conn.wait_closed(), WAIT)
        await until(lambda: not guest_pids("ann") and not os.path.exists(f"/proc/{pids[0]}"), GONE, "the child gone")
        await until(lambda: gateway.sessions == 0, 3 * WAIT, "the session gone")
    finally:
        if player is not None and player.ident is not None:
            player.stop.set()
            await asyncio.to_thread(player.join, WAIT)
        if conn is not None:
            conn.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(conn.wait_closed(), WAIT)
        if screen is not None:
            await screen.close()
        if cleo is not None:
            await asyncio.to_thread(cleo.close)
        await asyncio.wait_for(host.close(), 3 * WAIT)
    assert not gateway._tasks and gateway.sessions == 0
    current = asyncio.current_task()
    await until(
        lambda: not {t for t in asyncio.all_tasks() - before if t is not current and not t.done()},
        WAIT,
        "every task of the host and the gateway finished",
    )
    assert not guest_pids("ann")


async def test_a_guest_who_logs_in_with_a_key_has_it_named_to_their_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARLOUR_DATA_DIR", str(tmp_path / "data"))
    key = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(key.export_public_key())
    host = LanHost(
        HostSettings(
            bind="127.0.0.1", port=0, name="Parlour Test", ssh_port=0, ssh_keys=keys, guest_command=guest_command()
        )
    )
    await asyncio.wait_for(host.start(), WAIT)
    assert host.ssh_port
    conn: asyncssh.SSHClientConnection | None = None
    screen: Screen | None = None
    try:
        conn = await asyncio.wait_for(
            asyncssh.connect(
                "127.0.0.1", host.ssh_port, username="bea", password=None, known_hosts=None, client_keys=[key]
            ),
            WAIT,
        )
        process = await asyncio.wait_for(
            conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None), WAIT
        )
        screen = Screen(process)
        pid = (await guest_started("bea", screen))[0]
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        assert f"PARLOUR_GUEST_KEY={key.get_fingerprint('sha256')}".encode() in environ
        conn.close()
        await asyncio.wait_for(conn.wait_closed(), WAIT)
        await until(lambda: not guest_pids("bea") and not os.path.exists(f"/proc/{pid}"), GONE, "the child gone")
    finally:
        if conn is not None:
            conn.close()
        if screen is not None:
            await screen.close()
        await asyncio.wait_for(host.close(), 3 * WAIT)


async def test_a_guest_whose_client_crashed_is_back_in_the_seat_with_the_same_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bea logs in with her key and sits; her ``parlour join`` dies (SIGKILL) in the middle of the match; she logs in
    again with the same key and is in her seat at once: her client kept the seat's token in the data directory the
    gateway gives that key (a name alone would open nothing)."""
    monkeypatch.setenv("PARLOUR_DATA_DIR", str(tmp_path / "data"))
    key = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(key.export_public_key())
    host = LanHost(
        HostSettings(
            bind="127.0.0.1", port=0, name="Parlour Test", ssh_port=0, ssh_keys=keys, guest_command=guest_command()
        )
    )
    await asyncio.wait_for(host.start(), WAIT)
    assert host.ssh_port
    cleo: NetworkSession | None = None
    conns: list[asyncssh.SSHClientConnection] = []
    screens: list[Screen] = []

    async def log_in() -> tuple[asyncssh.SSHClientProcess[bytes], Screen]:
        assert host.ssh_port
        conn = await asyncio.wait_for(
            asyncssh.connect(
                "127.0.0.1", host.ssh_port, username="bea", password=None, known_hosts=None, client_keys=[key]
            ),
            WAIT,
        )
        conns.append(conn)
        process = await asyncio.wait_for(
            conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None), WAIT
        )
        screen = Screen(process)
        screens.append(screen)
        return process, screen

    try:
        session: NetworkSession = await asyncio.to_thread(NetworkSession.connect, "127.0.0.1", host.port, "Cleo")
        cleo = session
        code = await asyncio.to_thread(session.create, "screw", 2, bots=[None, None])
        process, screen = await log_in()
        await until(lambda: code in screen.text, 3 * WAIT, f"table {code} on the guest's screen", screen.why)

        def seat(status: str) -> Callable[[], bool]:
            def check() -> bool:
                found = seat_one(cleo)
                return found is not None and found["name"] == "bea" and found["status"] == status

            return check

        def enter_again() -> None:
            found = seat_one(cleo)
            if found is not None and found["status"] == "open":
                process.stdin.write(b"\r")

        process.stdin.write(b"\r")
        await until(seat("ready"), 3 * WAIT, "bea seated and ready", screen.why, every=enter_again, interval=SIT_AGAIN)
        await asyncio.to_thread(session.start)
        await until(seat("connected"), 3 * WAIT, "bea playing", screen.why)
        tokens = list((tmp_path / "data" / "guests").glob("*/tokens/*.json"))
        assert len(tokens) == 1, "the seat's token, kept in the data directory of bea's key"

        (pid,) = guest_pids("bea")
        os.kill(pid, 9)  # her client crashes
        await until(seat("away"), 3 * WAIT, "bea away", screen.why)
        await until(lambda: not guest_pids("bea"), GONE, "the dead client reaped")

        process, screen = await log_in()
        await until(seat("connected"), 3 * WAIT, "bea back in her seat", screen.why)
        await until(lambda: "Your card" in screen.text, 3 * WAIT, "her table (not the lobby) on her screen", screen.why)
    finally:
        if cleo is not None:
            cleo.close()
        for conn in conns:
            conn.close()
        for screen in screens:
            await screen.close()
        await asyncio.wait_for(host.close(), 3 * WAIT)
