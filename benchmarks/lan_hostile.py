"""What hostile clients cost the players of a LAN host: round trips with and without them, in one run.

Run: ``.venv/bin/python benchmarks/lan_hostile.py [--tables 8] [--seconds 8] [--think 0.1]``

The host (``LanServer``, as ``parlour host`` makes it, without saving) runs in a process of its own. This process
plays ``--tables`` Big Two tables of 4 network players (each move after a random pause like a person's, mean
``--think`` seconds) for ``--seconds`` alone, then as long again while hostile clients, on the same host, do their
worst:

- a client that sends ``list`` as fast as it can and never reads (30 open tables make each answer about 20 KB);
- a client that sends ``ping`` as fast as it can (and reads the pongs);
- 300 sockets that connect and never say hello (16 from each of 19 addresses);
- a client that guesses the password in a loop (the host has one).

A move's round trip is the time from sending ``act`` to reading the first message after it. Prints the 50th and
99th percentile round trip of each phase and their ratio, the host's resident memory before and after the attack,
and what became of the attackers. Not a timed test: figures for ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import random
import statistics
import time
from multiprocessing.synchronize import Event as EventType
from typing import Any

from engine.lan import protocol as p
from engine.lan.client import LanClient

PASSWORD = "a password"


def _rss_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _host(ports: Any, asks: Any, stop: EventType) -> None:
    from engine.lan.server import LanServer

    async def serve() -> None:
        server = LanServer(seed=1, password=PASSWORD, heartbeat=60.0, peer_timeout=600.0)
        ports.put(await server.start("127.0.0.1", 0))
        while not stop.is_set():
            while not asks.empty():
                asks.get()
                ports.put(_rss_kib())
            await asyncio.sleep(0.02)
        await server.close()

    asyncio.run(serve())


async def _player(port: int, name: str, source: str = "127.0.0.1") -> LanClient:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=4 * p.MAX_LINE, local_addr=(source, 0))
    c = LanClient(reader, writer)
    await c.hello(name, password=PASSWORD, max_protocol=2)
    return c


async def _table(port: int, number: int, until: list[float], rtts: list[tuple[float, float]], think: float) -> None:
    """A table of four network players who play (moves timed) until ``until[0]`` (the loop's time)."""
    people = [await _player(port, f"T{number}P{seat}") for seat in range(4)]
    creator = people[0]
    await creator.send({"type": "create", "game": "big2", "players": 4})
    code = (await creator.expect("table", 30))["table"]["code"]
    for seat, c in enumerate(people[1:], start=1):
        await c.send({"type": "sit", "table": code, "seat": seat})
        await c.expect("table", 30)
        await c.send({"type": "ready"})
    while not all(s["status"] == "ready" for s in (await creator.expect("table", 30))["table"]["seats"][1:]):
        pass
    await creator.send({"type": "start"})
    loop = asyncio.get_running_loop()
    rng = random.Random(number)

    async def play(c: LanClient) -> None:
        sent: float | None = None
        while loop.time() < until[0]:
            try:
                data = await c.recv(30)
            except (ConnectionError, TimeoutError):
                return
            if sent is not None:
                rtts.append((sent, time.perf_counter() - sent))
                sent = None
            if data["type"] == "snapshot" and data["snapshot"]["legal"]:
                await asyncio.sleep(think * rng.random() * 2)
                sent = time.perf_counter()
                legal = data["snapshot"]["legal"]
                await c.send({"type": "act", "action": rng.choice(legal), "version": data["snapshot"]["version"]})
            elif data["type"] == "event" and data["event"].get("type") == "RoundOver":
                await c.send({"type": "next"})

    await asyncio.gather(*(play(c) for c in people))
    for c in people:
        await c.close()


async def _attack(port: int, stop: asyncio.Event, report: dict[str, Any]) -> None:
    # The attackers come from other addresses than the players' (127.0.0.1), as on a LAN.
    makers = [await _player(port, f"Maker{n}", "127.0.0.2") for n in range(30)]
    for maker in makers:
        await maker.send({"type": "create", "game": "rank", "players": 10})
    greedy = await _player(port, "Greedy", "127.0.0.3")
    greedy.pause_reading()
    pinger = await _player(port, "Pinger", "127.0.0.3")
    silent = []
    for n in range(300):
        with contextlib.suppress(OSError):
            silent.append(await asyncio.open_connection("127.0.0.1", port, local_addr=(f"127.0.1.{n // 16 + 1}", 0)))

    async def flood(c: LanClient, line: bytes, key: str) -> None:
        batch = line * 200
        sent = 0
        while not stop.is_set():
            try:
                await asyncio.wait_for(c.send_raw(batch), 1.0)
            except TimeoutError:
                continue  # the host reads it no faster than its limit: the socket is full
            except (ConnectionError, OSError):
                report[key] = f"dropped by the host after {sent} lines were sent"
                return
            sent += 200
            await asyncio.sleep(0)
        report[key] = f"still served after {sent} lines were sent" + ("" if c.closed else " (held back)")

    async def guess() -> None:
        tries = refused = 0
        while not stop.is_set():
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.4", 0))
            c = LanClient(reader, writer)
            await c.send({"type": "hello", "protocol": 1, "name": "Eve", "password": f"guess{tries}"})
            try:
                code = (await c.recv(5))["code"]
            except (ConnectionError, TimeoutError):
                code = "closed"
            tries += 1
            refused += code == p.SLOW_DOWN
            await c.close()
        report["guesser"] = f"{tries} guesses, {refused} of them refused as slow_down"

    await asyncio.gather(
        flood(greedy, p.line({"type": "list"}), "list flood (never reads)"),
        flood(pinger, p.line({"type": "ping"}), "ping flood"),
        guess(),
    )
    for _, writer in silent:
        writer.close()
    for c in (*makers, greedy, pinger):
        await c.close()


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


async def _run(port: int, args: argparse.Namespace, ports: Any, asks: Any) -> None:
    loop = asyncio.get_running_loop()
    start = loop.time()
    until = [start + 2 * args.seconds + 2]
    rtts: list[tuple[float, float]] = []
    tables = asyncio.gather(*(_table(port, n, until, rtts, args.think) for n in range(args.tables)))
    await asyncio.sleep(args.seconds)
    asks.put(1)
    before = await loop.run_in_executor(None, ports.get, True, 30)
    split = time.perf_counter()
    stop = asyncio.Event()
    report: dict[str, Any] = {}
    attack = asyncio.create_task(_attack(port, stop, report))
    await asyncio.sleep(args.seconds)
    asks.put(1)
    during = await loop.run_in_executor(None, ports.get, True, 30)
    stop.set()
    await attack
    await tables
    alone = [rtt for when, rtt in rtts if when < split]
    hostile = [rtt for when, rtt in rtts if when >= split]
    print(
        f"{args.tables} Big Two tables of 4 network players, {args.seconds:g} s alone, "
        f"then {args.seconds:g} s under attack"
    )
    for label, values in (("alone", alone), ("under attack", hostile)):
        print(
            f"{label:>13}: {len(values)} moves, round trip p50 {statistics.median(values) * 1000:.2f} ms, "
            f"p99 {_percentile(values, 0.99) * 1000:.2f} ms"
        )
    print(f"p99 ratio (under attack / alone): {_percentile(hostile, 0.99) / _percentile(alone, 0.99):.2f}x")
    print(f"host memory: {before / 1024:.1f} MiB before the attack, {during / 1024:.1f} MiB during it")
    for key, value in report.items():
        print(f"{key}: {value}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--think", type=float, default=0.1, help="mean seconds a player thinks before each move")
    args = parser.parse_args()
    ports: Any = multiprocessing.Queue()
    asks: Any = multiprocessing.Queue()
    stop = multiprocessing.Event()
    host = multiprocessing.Process(target=_host, args=(ports, asks, stop), daemon=True)
    host.start()
    port = ports.get(timeout=30)
    try:
        asyncio.run(_run(port, args, ports, asks))
    finally:
        stop.set()
        host.join(10)


if __name__ == "__main__":
    main()
