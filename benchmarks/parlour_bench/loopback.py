"""A LAN host and its players on loopback, in one process: what ``benchmarks/bench.py`` measures LAN play with.

The host is a real :class:`~engine.lan.server.LanServer` on 127.0.0.1 on a free port, with a bare echo server
beside it, both on a thread and event loop of their own (:class:`LoopbackHost`); the players are protocol clients
(:class:`~engine.lan.client.LanClient`) on the caller's thread, four network players at each table, choosing
random legal actions. Host and clients share the process (and its interpreter lock), so what is measured here is a
floor: a host in a process of its own, with its players on other machines, does better.

A move's round trip is the time from sending ``act`` to reading the first message after it (the event of that
move). The functions here are synchronous (each runs its own event loop), so a caller needs no asyncio.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, TypeVar

from engine.lan.client import LanClient
from engine.lan.server import LanServer

T = TypeVar("T")

GAME = "big2"
MIN_MOVES = 3
"""Moves per table :func:`load` waits for, at least, whatever the time it was given."""
WAIT = 30.0
"""Seconds before a step that never answers is given up."""


class LoopbackHost:
    """A ``LanServer`` and an echo server on 127.0.0.1, free ports, on a thread and event loop of their own."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="parlour-bench-host", daemon=True)
        # No heartbeats, a player who goes is never replaced by a bot while the bench runs, and none of the caps a
        # host puts on one address (every player here comes from 127.0.0.1) nor on its tables.
        self.server = LanServer(
            seed=1,
            heartbeat=600.0,
            peer_timeout=1200.0,
            takeover_after=3600.0,
            resume_window=3600.0,
            max_connections=100_000,
            max_unwelcomed=100_000,
            max_unwelcomed_per_address=100_000,
            max_tables=100_000,
            tables_per_address=100_000,
        )
        self.echo: asyncio.base_events.Server | None = None
        self.port = 0
        self.echo_port = 0

    def _run(self, work: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(WAIT)

    def start(self) -> LoopbackHost:
        self.thread.start()
        self.port = self._run(self.server.start("127.0.0.1", 0))
        self.echo_port = self._run(self._start_echo())
        return self

    async def _start_echo(self) -> int:
        async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError, OSError):
                while line := await reader.readline():
                    writer.write(line)
                    await writer.drain()
            writer.close()

        self.echo = await asyncio.start_server(echo, "127.0.0.1", 0)
        return int(self.echo.sockets[0].getsockname()[1])

    def stop(self) -> None:
        if self.loop.is_closed():
            return
        with contextlib.suppress(Exception):
            self._run(self.server.close())
        if self.echo is not None:
            self.loop.call_soon_threadsafe(self.echo.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(WAIT)
        if not self.thread.is_alive():
            self.loop.close()

    def __enter__(self) -> LoopbackHost:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


# -- one table of four network players ----------------------------------------------------------------------------
async def _open_table(port: int, number: int, game: str = GAME) -> list[LanClient]:
    """Four players connected and seated at a new table, not started yet."""
    people = [await LanClient.connect("127.0.0.1", port, timeout=WAIT) for _ in range(4)]
    for seat, client in enumerate(people):
        await client.hello(f"T{number}P{seat}", timeout=WAIT)
    creator = people[0]
    await creator.send({"type": "create", "game": game, "players": 4})
    code = (await creator.expect("table", WAIT))["table"]["code"]
    for seat, client in enumerate(people[1:], start=1):
        await client.send({"type": "sit", "table": code, "seat": seat})
        await client.expect("table", WAIT)
        await client.send({"type": "ready"})
    while True:
        summary = (await creator.expect("table", WAIT))["table"]
        if all(s["status"] == "ready" for s in summary["seats"][1:]):
            return people


async def _seat(
    client: LanClient, rng: random.Random, think: float, rtts: list[float], enough: Callable[[], bool]
) -> None:
    """Play one seat: a random legal action at each prompt (after ``think``), each move's round trip noted."""
    sent: float | None = None
    while True:
        try:
            data = await client.recv(WAIT)
        except (ConnectionError, TimeoutError):
            return
        if sent is not None:
            rtts.append(time.perf_counter() - sent)
            sent = None
        kind = data["type"]
        if kind == "snapshot" and data["snapshot"]["legal"] and not data["snapshot"]["over"]:
            if think:
                await asyncio.sleep(think * rng.random() * 2)
            if enough():
                return
            snap = data["snapshot"]
            sent = time.perf_counter()
            await client.send({"type": "act", "action": rng.choice(snap["legal"]), "version": snap["version"]})
        elif kind == "event":
            event = data["event"]
            if event.get("type") == "RoundOver" and not event.get("last"):
                await client.send({"type": "next"})
            elif event.get("type") == "MatchOver":
                return


async def _play(
    people: Sequence[LanClient], seed: int, think: float, rtts: list[float], enough: Callable[[], bool]
) -> list[asyncio.Task[None]]:
    await people[0].send({"type": "start"})
    rng = random.Random(seed)
    return [asyncio.create_task(_seat(c, random.Random(rng.random()), think, rtts, enough)) for c in people]


async def _close(people: Sequence[LanClient], tasks: Sequence[asyncio.Task[None]]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*(c.close() for c in people), return_exceptions=True)


# -- the round trip -----------------------------------------------------------------------------------------------
async def _moves(port: int, count: int, seed: int) -> list[float]:
    """Round trips of ``count`` moves at a new table, one move after another."""
    rtts: list[float] = []
    people = await _open_table(port, seed)
    done = asyncio.Event()

    def enough() -> bool:
        if len(rtts) >= count:
            done.set()
        return done.is_set()

    tasks = await _play(people, seed, 0.0, rtts, enough)
    finished = asyncio.ensure_future(asyncio.wait(tasks))
    waiting = asyncio.ensure_future(done.wait())
    await asyncio.wait([finished, waiting], timeout=WAIT, return_when=asyncio.FIRST_COMPLETED)
    waiting.cancel()
    finished.cancel()
    await _close(people, tasks)
    return rtts[:count]


async def _echoes(port: int, count: int) -> list[float]:
    """Round trips of ``count`` lines the size of a move to the echo server."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    line = b'{"type":"act","action":{"type":"Big2Play","cards":["3D","3S"]},"version":12}\n'
    rtts = []
    try:
        for _ in range(count):
            sent = time.perf_counter()
            writer.write(line)
            await writer.drain()
            await asyncio.wait_for(reader.readline(), WAIT)
            rtts.append(time.perf_counter() - sent)
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()
    return rtts


def round_trips(rounds: int, moves: int) -> tuple[list[float], list[float]]:
    """A move's round trips and the echo's (seconds), ``moves`` of each per round, in alternating rounds (echo
    first), each round's moves at a new table of one fresh host."""
    with LoopbackHost() as host:

        async def measure() -> tuple[list[float], list[float]]:
            game: list[float] = []
            echo: list[float] = []
            for number in range(max(1, rounds)):
                echo += await _echoes(host.echo_port, moves)
                game += await _moves(host.port, moves, number + 1)
            return game, echo

        return asyncio.run(measure())


# -- many tables at once -----------------------------------------------------------------------------------------
async def _load(port: int, tables: int, seconds: float, think: float) -> list[float]:
    """Round trips of moves at ``tables`` tables playing at once, over ``seconds`` once every table has started."""
    opened = await asyncio.gather(*(_open_table(port, number) for number in range(tables)))
    rtts: list[float] = []
    stop = [False]
    tasks: list[asyncio.Task[None]] = []
    for number, people in enumerate(opened):
        tasks += await _play(people, number + 1, think, rtts, lambda: stop[0])
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    # at least a few moves per table, however short the time asked for (within WAIT)
    while loop.time() < until or (len(rtts) < MIN_MOVES * tables and loop.time() < until + WAIT):
        await asyncio.sleep(0.05)
    stop[0] = True
    measured = list(rtts)
    await asyncio.gather(*(_close(people, []) for people in opened))
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return measured


def load(tables: int, seconds: float, think: float) -> list[float]:
    """Round trips (seconds) of the moves made at ``tables`` tables of a fresh host playing at once, each player
    thinking a random 0 to ``2 * think`` seconds before each move, over ``seconds`` once every table has started
    (and until :data:`MIN_MOVES` moves per table, within :data:`WAIT`)."""
    with LoopbackHost() as host:
        return asyncio.run(_load(host.port, tables, seconds, think))
