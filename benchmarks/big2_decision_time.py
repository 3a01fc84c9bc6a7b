"""How long the Big Two ``hard`` bot takes to decide, on this machine.

Run: ``.venv/bin/python benchmarks/big2_decision_time.py [--deals 20] [--seed 1]``

Plays ``hard`` against three ``medium`` bots and times every decision of ``hard`` that had a choice (more than one
legal action), then prints the count, the median, the 95th percentile and the slowest.
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
    args = parser.parse_args()
    times: list[float] = []
    for index in range(args.deals):
        table = Table.create(
            "big2", 4, seed=args.seed * 1000 + index, bots=["hard", "medium", "medium", "medium"], deals=1
        )
        state = table.state
        while not state.is_over:
            seat = state.to_move
            choice = len(state.legal_actions()) > 1
            start = time.perf_counter()
            table.step_bot()
            if seat == 0 and choice:
                times.append(time.perf_counter() - start)
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(f"hard decisions with a choice: {len(times)}")
    print(
        f"median {statistics.median(times) * 1000:.0f} ms, 95th percentile {p95 * 1000:.0f} ms, "
        f"slowest {times[-1] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
