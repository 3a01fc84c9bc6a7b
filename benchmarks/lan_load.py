"""A load figure for the LAN host: N concurrent 4-player tables of network bot clients over loopback.

Run: ``.venv/bin/python benchmarks/lan_load.py [--tables 100] [--moves 60] [--game big2] [--think 0.5]
[--only keep|no-keep] [--rounds 3]``

The host is ``parlour host --headless`` itself, in a process of its own, as a person runs it: once saving its
tables (the default: each table's journal in ``host/`` of a temporary data directory, ``$PARLOUR_DATA_DIR``), and with
``--no-keep``, in turn (``--rounds`` runs of each), and the ratio of the two medians. This process runs 4 x N protocol
clients (asyncio) that sit at N tables, every seat a network player (each table's four from a loopback address of
their own, as from a machine of their own: the host's limits per address hold for them as for people), and play
random legal actions until each table has made ``--moves`` moves (or its match is over): flat out, or
(``--think``) after a random pause like a person's. A move's round trip is the time from sending ``act`` to
reading the first message that follows it (the event of that move). Prints, for each run, moves/s, the 50th and
99th percentile round trip, the host process's memory (resident set at the end and at its peak) and its CPU time,
and with saving on, how many journal bytes it wrote. Not a timed test: a figure to watch (``docs/performance.md``).

Flat out, every table always has a move in flight and the figure is the host's throughput (round trips are then
mostly queueing); with ``--think 0.5`` the load is like people's and the round trip is the one a player feels.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from engine.lan import protocol as p
from engine.lan.client import LanClient

ROOT = Path(__file__).resolve().parent.parent
HANDSHAKES = 8
"""Clients connecting at once."""


def _address(table: int) -> str:
    """The loopback address table ``table``'s players connect from: one per table, as at a LAN party, where each
    machine is its own address (the host caps the tables made from one address at 32, and the connections from
    one address that have not said hello yet at 16)."""
    return f"127.0.{1 + table // 250}.{1 + table % 250}"


def _memory(pid: int) -> dict[str, int]:
    """Process ``pid``'s resident set size now and at its peak (KiB) and its CPU time so far (ms), from Linux /proc."""
    out: dict[str, int] = {}
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    out[key] = int(value.split()[0])
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rpartition(")")[2].split()
        ticks = os.sysconf("SC_CLK_TCK")
        out["cpu_ms"] = (int(fields[11]) + int(fields[12])) * 1000 // ticks  # utime + stime
    except (OSError, ValueError, IndexError):
        pass
    return out


def _start_host(data: Path, keep: bool) -> tuple[subprocess.Popen[bytes], int]:
    """``parlour host --headless`` on 127.0.0.1 and a free port, its data directory ``data``; and that port."""
    args = [sys.executable, "-m", "tui", "host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--name", "Bench"]
    if not keep:
        args.append("--no-keep")
    env = {**os.environ, "PARLOUR_DATA_DIR": str(data), "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    deadline = time.monotonic() + 60
    seen = b""
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        seen += line
        found = re.search(rb"hosting on 127\.0\.0\.1:(\d+)", line)
        if found:
            return proc, int(found.group(1))
    proc.kill()
    raise SystemExit(f"the host did not start: {seen.decode(errors='replace')}")


def _stop_host(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()


async def _table(
    port: int,
    number: int,
    game: str,
    moves: int,
    rtts: list[float],
    seed: int,
    gate: asyncio.Semaphore,
    think: float = 0.0,
) -> int:
    people: list[LanClient] = []
    for seat in range(4):
        async with gate:  # (a few handshakes at a time, as people arrive)
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(_address(number), 0), limit=p.HOST_LINE + 1
            )
            c = LanClient(reader, writer)
            await c.hello(f"T{number}P{seat}")
        people.append(c)
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
    gate = asyncio.Semaphore(HANDSHAKES)
    start = time.perf_counter()
    made = await asyncio.gather(
        *(_table(port, n, args.game, args.moves, rtts, args.seed + n, gate, args.think) for n in range(args.tables))
    )
    return sum(made), time.perf_counter() - start, rtts


@dataclass
class Figures:
    moves: int
    elapsed: float
    rtts: list[float]
    memory: dict[str, int]
    written: int

    @property
    def rate(self) -> float:
        return self.moves / self.elapsed


def _measure(args: argparse.Namespace, keep: bool) -> Figures:
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as data:
        proc, port = _start_host(Path(data), keep)
        try:
            moves, elapsed, rtts = asyncio.run(_run(port, args))
            memory = _memory(proc.pid)
        finally:
            _stop_host(proc)
        written = sum(path.stat().st_size for path in (Path(data) / "host").glob("*")) if keep else 0
    return Figures(moves, elapsed, sorted(rtts), memory, written)


def _report(label: str, args: argparse.Namespace, f: Figures) -> None:
    p99 = f.rtts[min(len(f.rtts) - 1, int(0.99 * len(f.rtts)))] if f.rtts else float("nan")
    print(f"{label}: {args.tables} tables of 4 network players ({args.game}), {f.moves} moves in {f.elapsed:.1f} s")
    print(f"  moves/s {f.rate:.0f} (set-up included)")
    if f.rtts:
        print(f"  round trip of a move: p50 {statistics.median(f.rtts) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms")
    resident, peak = f.memory.get("VmRSS", 0) / 1024, f.memory.get("VmHWM", 0) / 1024
    print(f"  host memory: {resident:.0f} MiB resident, peak {peak:.0f} MiB")
    cpu = f.memory.get("cpu_ms", 0) / 1000
    print(f"  host CPU time: {cpu:.1f} s in {f.elapsed:.1f} s (the clients share this machine)")
    if f.written:
        print(f"  saves kept at the end: {f.written / 1024:.0f} KiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=60, help="moves per table")
    parser.add_argument("--game", default="big2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a player thinks before each move (0: flat out)"
    )
    parser.add_argument("--only", choices=["keep", "no-keep"], help="measure one way only")
    parser.add_argument(
        "--rounds", type=int, default=3, help="runs of each way, taken in turn (the median of each is compared)"
    )
    args = parser.parse_args()
    ways = [(label, keep) for label, keep in (("saving on", True), ("--no-keep", False))]
    if args.only is not None:
        ways = [(label, keep) for label, keep in ways if args.only == ("keep" if keep else "no-keep")]
    rates: dict[str, list[float]] = {label: [] for label, _ in ways}
    for number in range(1, args.rounds + 1):
        for label, keep in ways:
            figures = _measure(args, keep)
            rates[label].append(figures.rate)
            _report(f"{label} (run {number})", args, figures)
    for label, found in rates.items():
        print(f"{label}: median {statistics.median(found):.0f} moves/s over {len(found)} runs")
    if len(rates) == 2:
        on, off = statistics.median(rates["saving on"]), statistics.median(rates["--no-keep"])
        print(f"saving on makes {on / off:.0%} of the moves a second --no-keep makes (a cost of {1 - on / off:.0%})")


if __name__ == "__main__":
    main()
