"""What the LAN tests share: a server on 127.0.0.1 (port 0), clients that say hello, and a table set up through the
protocol itself (create, sit, ready, start). Every wait is bounded."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

from engine.lan.client import LanClient
from engine.lan.server import LanServer
from engine.registry import get_entry

WAIT = 10.0
"""The longest any single wait may take (seconds)."""


@asynccontextmanager
async def running(**options: Any) -> AsyncIterator[LanServer]:
    """A server on 127.0.0.1 and a free port, closed (bounded) at the end."""
    server = LanServer(seed=options.pop("seed", 1), **options)
    await server.start("127.0.0.1", 0)
    try:
        yield server
    finally:
        await asyncio.wait_for(server.close(), WAIT)


async def client(server: LanServer, name: str, **hello: Any) -> LanClient:
    c = await LanClient.connect("127.0.0.1", server.port)
    await c.hello(name, **hello)
    return c


def players_for(key: str) -> int:
    """Four players where the game allows; Rank three: its random matches grow long with every player (thousands
    of moves over the sockets at four), and its two-deck games are the engine tests' (5 to 10 players)."""
    game = get_entry(key).game
    return 3 if game.key == "rank" else min(max(game.min_players, 4), game.max_players)


async def start_table(
    server: LanServer,
    people: Sequence[LanClient],
    key: str,
    *,
    bots: Sequence[str | None] | None = None,
    spectators: Sequence[LanClient] = (),
    variants: Sequence[str] = (),
    level: str = "easy",
    hints: bool = False,
) -> str:
    """A table of ``key`` with ``people`` in seats 0, 1, ... (the first creates it) and bots of ``level`` elsewhere,
    with hints if ``hints``; started. Its code."""
    players = players_for(key)
    levels = list(bots) if bots is not None else [None] * len(people) + [level] * (players - len(people))
    creator = people[0]
    await creator.send(
        {"type": "create", "game": key, "players": players, "bots": levels, "variants": list(variants), "hints": hints}
    )
    summary = (await creator.expect("table", WAIT))["table"]
    code = str(summary["code"])
    for seat, person in enumerate(people[1:], start=1):
        await person.send({"type": "sit", "table": code, "seat": seat})
        await person.expect("table", WAIT)
        await person.send({"type": "ready"})
    for watcher in spectators:
        await watcher.send({"type": "spectate", "table": code})
        await watcher.expect("table", WAIT)
    while not all_ready(summary):  # the creator sees every other person ready
        summary = (await creator.expect("table", WAIT))["table"]
    await creator.send({"type": "start"})
    while summary["state"] != "playing":
        summary = (await creator.expect("table", WAIT))["table"]
    return code


def all_ready(summary: dict[str, Any]) -> bool:
    return all(seat["status"] in ("ready", "bot") for seat in summary["seats"][1:])


async def play_to_the_end(
    people: Sequence[LanClient], seed: int, *, timeout: float = 3 * WAIT, as_text: float = 0.3
) -> list[list[dict[str, Any]]]:
    """Every person plays random legal actions until the match is over; the messages each read."""
    return list(
        await asyncio.gather(
            *(c.play(random.Random(seed + n), timeout=timeout, as_text=as_text) for n, c in enumerate(people))
        )
    )


async def watch_to_the_end(watcher: LanClient, timeout: float = 3 * WAIT) -> list[dict[str, Any]]:
    """A spectator's messages until the match is over."""
    seen: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        data = await watcher.recv(max(0.0, deadline - loop.time()))
        seen.append(data)
        if data["type"] == "event" and data["event"].get("type") == "MatchOver":
            return seen


async def until(check: Callable[[], bool], timeout: float = WAIT) -> None:
    """Wait (bounded) until ``check()`` holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.01)  # (a poll's pause: the condition is what is waited for)


async def closed(c: LanClient, timeout: float = WAIT) -> list[dict[str, Any]]:
    """Everything ``c`` reads until the host closes the connection (bounded)."""
    seen: list[dict[str, Any]] = []
    try:
        while True:
            seen.append(await c.recv(timeout))
    except ConnectionError:
        return seen


def rng(seed: int) -> random.Random:
    return random.Random(seed)


class ServerThread:
    """A server on 127.0.0.1 (a free port) running on its own thread and event loop, for synchronous tests (a
    :class:`~engine.lan.remote_session.NetworkSession` connects to it). ``stop()`` is bounded."""

    def __init__(self, **options: Any) -> None:
        self.server = LanServer(seed=options.pop("seed", 1), **options)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="lan-test-server", daemon=True)
        self.thread.start()
        self.port = self.call(self.server.start("127.0.0.1", 0))

    def call(self, coroutine: Any, timeout: float = WAIT) -> Any:
        """Run ``coroutine`` on the server's loop and wait (bounded) for its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self) -> None:
        if self.loop.is_closed():
            return
        try:
            self.call(self.server.close(), WAIT)
            self.call(self.loop.shutdown_default_executor(), WAIT)  # the threads that worked out hints
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(WAIT)
            assert not self.thread.is_alive(), "the server's thread did not stop"
            self.loop.close()
