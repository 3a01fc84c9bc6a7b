"""How long the Big Two ``hard`` bot takes to decide, on this machine.

Run: ``.venv/bin/python benchmarks/big2_decision_time.py [--deals 20] [--seed 1] [--players 4]``

Plays ``hard`` against ``medium`` bots (one-deal games, ``hard`` in seat 0) and times every decision of ``hard`` that
had a choice (more than one legal action), then prints the count, the median, the 95th percentile and the slowest,
as wall-clock time (what a player waits) and as this process's CPU time (what the machine's load does not change).
``benchmarks/big2_strength.py`` gives the same figures along with the win rate.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine.table import Table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    args = parser.parse_args()
    wall: list[float] = []
    cpu: list[float] = []
    bots = ["hard"] + ["medium"] * (args.players - 1)
    for index in range(args.deals):
        table = Table.create("big2", args.players, seed=args.seed * 1000 + index, bots=bots, deals=1)
        state = table.state
        while not state.is_over:
            seat = state.to_move
            choice = len(state.legal_actions()) > 1
            start, start_cpu = time.perf_counter(), time.process_time()
            table.step_bot()
            if seat == 0 and choice:
                wall.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
    print(f"hard decisions with a choice: {len(wall)}")
    for name, times in (("wall clock", wall), ("CPU", cpu)):
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(
            f"{name}: median {statistics.median(times) * 1000:.0f} ms, 95th percentile {p95 * 1000:.0f} ms, "
            f"slowest {times[-1] * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
