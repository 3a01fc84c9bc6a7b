"""The LAN figures for ``benchmarks/bench.py``: a move's round trip over loopback, and how many tables one host serves.

The host and its players run in this process (:mod:`parlour_bench.loopback`): a real ``LanServer`` on 127.0.0.1 on a
thread of its own, four network players at each Big Two table choosing random legal actions. They share this
process and its interpreter lock, so the figures are a floor.

- **Round trip**: from sending ``act`` to reading the first message after it (the event of that move), one table,
  moves one after another. Its reference, in alternating rounds: a line sent to an echo server on the host's
  event loop and read back, the same trip with no game in it.
- **Concurrent tables**: tables started 1, 2, 4, ... at once, each player thinking a random 0 to 1 s before each
  move; the figure is the most tables at which the 95th percentile round trip stayed within :data:`LIMIT`. The
  ladder stops at the first step over it, at its top, or when its time is spent.
"""

from __future__ import annotations

import resource
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from parlour_bench.loopback import load, round_trips
from parlour_bench.measure import Row, failed, percentile

LIMIT = 0.1
"""Seconds: the 95th percentile round trip a host must keep for its tables to count as served."""
THINK = 0.5
"""Seconds a player thinks before a move, on average (uniformly 0 to twice this) in the concurrent-tables figure."""


def round_trip(rounds: int, moves: int) -> tuple[list[float], list[float]]:
    """A move's round trips and the echo's (seconds), ``moves`` of each per round, in alternating rounds."""
    return round_trips(rounds, moves)


def round_trip_row(rounds: int, moves: int) -> Row:
    """A move's median round trip against the echo's, the 95th percentiles of both in ``extra``."""
    name = "LAN move round trip over loopback (one Big Two table, 4 network players)"
    try:
        game, echo = round_trip(rounds, moves)
        if not game:
            raise RuntimeError("no move was answered")
    except Exception as err:
        return failed("lan", name, "ms", err, "a line echoed over loopback")
    return Row(
        "lan",
        name,
        statistics.median(game) * 1000,
        "ms",
        reference=statistics.median(echo) * 1000,
        reference_name="a line echoed over loopback (no game)",
        extra={
            "p95_ms": percentile(game, 0.95) * 1000,
            "reference_p95_ms": percentile(echo, 0.95) * 1000,
            "moves": float(len(game)),
        },
    )


# -- concurrent tables ----------------------------------------------------------------------------------------------
def most_tables() -> int:
    """The most tables the open-file limit allows: each player is two sockets in this process, plus some spare."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return max(1, (soft - 64) // 8) if soft != resource.RLIM_INFINITY else 1 << 20


@dataclass
class Load:
    """One step of the ladder: how many tables played at once, and their moves' round trips (seconds)."""

    tables: int
    p95: float
    median: float
    moves: int


def concurrent_tables(steps: Sequence[int], seconds: float, budget: float, think: float = THINK) -> list[Load]:
    """Each step of the ladder in turn, on a fresh host, until one is over :data:`LIMIT` or ``budget`` seconds
    have gone (the step under way finishes)."""
    started = time.perf_counter()
    loads: list[Load] = []
    for tables in steps:
        if loads and time.perf_counter() - started > budget:
            break
        rtts = load(tables, seconds, think)
        if not rtts:
            raise RuntimeError(f"no move was answered with {tables} tables")
        loads.append(Load(tables, percentile(rtts, 0.95), statistics.median(rtts), len(rtts)))
        if loads[-1].p95 > LIMIT:
            break
    return loads


def concurrent_row(steps: Sequence[int], seconds: float, budget: float, think: float = THINK) -> Row:
    """The most tables of the ladder served within :data:`LIMIT` (0: not even the first step), the 95th
    percentile round trip there beside it and every step's in ``extra``."""
    name = f"LAN tables one host serves (4 network players each, thinking 0-{2 * think:g} s a move)"
    limit = f"95th percentile round trip at most {LIMIT * 1000:.0f} ms"
    try:
        loads = concurrent_tables(steps, seconds, budget, think)
    except Exception as err:
        return failed("lan", name, "tables", err)
    served = [step for step in loads if step.p95 <= LIMIT]
    best = served[-1] if served else None
    extra: dict[str, float] = {}
    if best is not None:
        extra["p95_ms"] = best.p95 * 1000
    extra |= {f"p95_ms_at_{step.tables}_tables": step.p95 * 1000 for step in loads}
    extra["moves_at_the_largest_step"] = float(loads[-1].moves)
    extra["stopped_over_the_limit"] = 1.0 if loads[-1].p95 > LIMIT else 0.0  # else at the top, or out of time
    return Row(
        "lan",
        name,
        float(best.tables) if best else 0.0,
        "tables",
        limit=limit,
        passed=best is not None,
        extra=extra,
    )
