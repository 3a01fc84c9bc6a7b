"""A load figure for the LAN host: N concurrent 4-player tables of network bot clients over loopback.

Run: ``.venv/bin/python benchmarks/lan_load.py [--tables 100] [--moves 60] [--game big2] [--think 0.5]``

The host (``LanServer``) runs in a process of its own; this process runs 4 x N protocol clients (asyncio) that sit
at N tables, every seat a network player, and play random legal actions until each table has made ``--moves``
moves (or its match is over): flat out, or (``--think``) after a random pause like a person's. A move's round trip
is the time from sending ``act`` to reading the first message that follows it (the event of that move). Prints
moves/s, the 50th and 99th percentile round trip, the host process's memory (resident set, now and at its peak)
and its CPU time. Not a timed test: a figure to watch.

Flat out, every table always has a move in flight and the figure is the host's throughput (round trips are then
mostly queueing); with ``--think 0.5`` the load is like people's and the round trip is the one a player feels.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import resource
import statistics
import time
from multiprocessing.synchronize import Event as EventType
from typing import Any

from engine.lan.client import LanClient


def _memory() -> dict[str, int]:
    """This process's resident set size now and at its peak, in KiB (Linux /proc)."""
    out = {}
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    out[key] = int(value.split()[0])
    except OSError:
        pass
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out["cpu_ms"] = int((usage.ru_utime + usage.ru_stime) * 1000)
    return out


def _host(ports: Any, stop: EventType) -> None:
    from engine.lan.server import LanServer

    async def serve() -> None:
        server = LanServer(seed=1, heartbeat=60.0, peer_timeout=600.0)
        ports.put(await server.start("127.0.0.1", 0))
        while not stop.is_set():
            await asyncio.sleep(0.05)
        ports.put(_memory())
        await server.close()

    asyncio.run(serve())


async def _table(
    port: int, number: int, game: str, moves: int, rtts: list[float], seed: int, think: float = 0.0
) -> int:
    people = [await LanClient.connect("127.0.0.1", port) for _ in range(4)]
    for seat, c in enumerate(people):
        await c.hello(f"T{number}P{seat}")
    creator = people[0]
    await creator.send({"type": "create", "game": game, "players": 4})
    code = (await creator.expect("table", 30))["table"]["code"]
    for seat, c in enumerate(people[1:], start=1):
        await c.send({"type": "sit", "table": code, "seat": seat})
        await c.expect("table", 30)
        await c.send({"type": "ready"})
    while True:
        summary = (await creator.expect("table", 30))["table"]
        if all(s["status"] == "ready" for s in summary["seats"][1:]):
            break
    await creator.send({"type": "start"})
    made = [0]
    done = asyncio.Event()
    rng = random.Random(seed)

    async def play(c: LanClient) -> None:
        sent: float | None = None
        while not done.is_set():
            try:
                data = await c.recv(60)
            except (ConnectionError, TimeoutError):
                return
            if sent is not None:
                rtts.append(time.perf_counter() - sent)
                sent = None
            if data["type"] == "snapshot" and data["snapshot"]["legal"]:
                if made[0] >= moves:
                    done.set()
                    return
                made[0] += 1
                if think:
                    await asyncio.sleep(think * rng.random() * 2)
                sent = time.perf_counter()
                await c.send({"type": "act", "action": rng.choice(data["snapshot"]["legal"])})
            elif data["type"] == "event":
                event = data["event"]
                if event.get("type") == "RoundOver" and not event.get("last"):
                    await c.send({"type": "next"})
                elif event.get("type") == "MatchOver":
                    done.set()
                    return

    tasks = [asyncio.create_task(play(c)) for c in people]
    await done.wait()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for c in people:
        await c.close()
    return made[0]


async def _run(port: int, args: argparse.Namespace) -> tuple[int, float, list[float]]:
    rtts: list[float] = []
    start = time.perf_counter()
    made = await asyncio.gather(
        *(_table(port, n, args.game, args.moves, rtts, args.seed + n, args.think) for n in range(args.tables))
    )
    return sum(made), time.perf_counter() - start, rtts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=60, help="moves per table")
    parser.add_argument("--game", default="big2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a player thinks before each move (0: flat out)"
    )
    args = parser.parse_args()
    ports: Any = multiprocessing.Queue()
    stop = multiprocessing.Event()
    host = multiprocessing.Process(target=_host, args=(ports, stop), daemon=True)
    host.start()
    port = ports.get(timeout=30)
    try:
        moves, elapsed, rtts = asyncio.run(_run(port, args))
    finally:
        stop.set()
        memory = ports.get(timeout=30)
        host.join(10)
    rtts.sort()
    p99 = rtts[min(len(rtts) - 1, int(0.99 * len(rtts)))] if rtts else float("nan")
    print(f"{args.tables} tables of 4 network players ({args.game}), {moves} moves in {elapsed:.1f} s")
    print(f"moves/s {moves / elapsed:.0f} (set-up included)")
    if rtts:
        print(f"round trip of a move: p50 {statistics.median(rtts) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms")
    print(
        f"host memory: {memory.get('VmRSS', 0) / 1024:.0f} MiB resident, peak {memory.get('VmHWM', 0) / 1024:.0f} MiB"
    )
    print(f"host CPU time: {memory.get('cpu_ms', 0) / 1000:.1f} s in {elapsed:.1f} s (the clients share this machine)")


if __name__ == "__main__":
    main()
