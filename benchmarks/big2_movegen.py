"""Big Two legal-move generation: the engine's generator against a naive one that tries every subset of the hand.

Run: ``.venv/bin/python benchmarks/big2_movegen.py [--hands 200] [--games 20]``

Both generators run in the same process, one after the other, on the same hands and the same games, so their
ratio means something on a noisy machine; the absolute figures do not. The generators and the workloads live in
:mod:`parlour_bench.movegen` (``benchmarks/bench.py`` measures the same, interleaved, with its other figures).
"""

from __future__ import annotations

import argparse

from parlour_bench.movegen import fast_plays, naive_plays, play_games, random_hands, situations, time_calls

from engine.games.big2.rules import ComboCache


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=200, help="13-card hands per situation")
    parser.add_argument("--games", type=int, default=20, help="whole random games per generator")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    hands = random_hands(args.hands, args.seed)
    print(f"{'situation':<20}{'naive calls/s':>15}{'fast calls/s':>15}{'ratio':>10}   plays found (same for both)")
    for name, table in situations().items():
        naive_seconds, naive_found = time_calls(naive_plays, hands, table)
        fast_seconds, fast_found = time_calls(fast_plays(ComboCache()), hands, table)
        assert naive_found == fast_found, (name, naive_found, fast_found)
        print(
            f"{name:<20}{len(hands) / naive_seconds:>15.1f}{len(hands) / fast_seconds:>15.1f}"
            f"{naive_seconds / fast_seconds:>9.0f}x   {fast_found}"
        )
    naive_seconds, naive_moves = play_games(lambda: naive_plays, args.games, args.seed)
    fast_seconds, fast_moves = play_games(lambda: fast_plays(ComboCache()), args.games, args.seed)
    assert naive_moves == fast_moves, "the two generators must produce the same games"
    print(
        f"{'whole games':<20}{args.games / naive_seconds:>15.2f}{args.games / fast_seconds:>15.1f}"
        f"{naive_seconds / fast_seconds:>9.0f}x   games/s ({fast_moves} plays)"
    )


if __name__ == "__main__":
    main()
