"""Big Two legal-move generation: the engine's generator against a naive one that tries every subset of the hand.

Run: ``.venv/bin/python benchmarks/big2_movegen.py [--hands 200] [--games 20]``

Both generators run in the same process, one after the other, on the same hands and the same games, so their
ratio means something on a noisy machine; the absolute figures do not. The naive generator lives only here.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from engine.games.big2 import DEFAULT_OPTIONS, Combo, ComboCache, bits, classify_mask, legal_plays

Generator = Callable[[int, Combo | None, int], list[Combo]]


def naive_plays(hand: int, table: Combo | None, must_include: int = 0) -> list[Combo]:
    """Every subset of the hand, classified, kept when it may be played."""
    values = bits(hand)
    out = []
    for subset in range(1, 1 << len(values)):
        mask = 0
        for i, v in enumerate(values):
            if subset >> i & 1:
                mask |= 1 << v
        combo = classify_mask(mask, DEFAULT_OPTIONS)
        if combo is None or (must_include and not mask & must_include):
            continue
        if table is None or combo.beats(table):
            out.append(combo)
    return out


def fast_plays(cache: ComboCache) -> Generator:
    def generate(hand: int, table: Combo | None, must_include: int = 0) -> list[Combo]:
        return legal_plays(hand, table, DEFAULT_OPTIONS, must_include, cache)

    return generate


def random_hands(count: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        cards = rng.sample(range(52), 13)
        mask = 0
        for v in cards:
            mask |= 1 << v
        hands.append(mask)
    return hands


def situations() -> dict[str, Combo | None]:
    """A play on the table for each situation (mid-strength, so some plays beat it and some do not)."""
    single = classify_mask(1 << (6 * 4 + 1), DEFAULT_OPTIONS)  # the 9♦
    pair = classify_mask((1 << (4 * 4)) | (1 << (4 * 4 + 2)), DEFAULT_OPTIONS)  # a pair of 7s
    five = classify_mask(sum(1 << (r * 4 + (r % 3)) for r in range(2, 7)), DEFAULT_OPTIONS)  # a straight 5..9
    assert single and pair and five and five.kind == "straight"
    return {"leading": None, "vs single": single, "vs pair": pair, "vs five-card hand": five}


def time_calls(generate: Generator, hands: list[int], table: Combo | None) -> tuple[float, int]:
    start = time.perf_counter()
    found = 0
    for hand in hands:
        found += len(generate(hand, table, 0))
    return time.perf_counter() - start, found


def play_games(make_generator: Callable[[], Generator], games: int, seed: int) -> tuple[float, int]:
    """Whole random 4-player games (a random legal play, or a pass one time in four); returns seconds and plays."""
    rng = random.Random(seed)
    start = time.perf_counter()
    moves = 0
    for _ in range(games):
        generate = make_generator()  # a fresh cache per game: nothing carried over from the previous game
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sum(1 << v for v in deck[i * 13 : (i + 1) * 13]) for i in range(4)]
        lead = 1 << 1  # the 3♦ (rank 0, suit index 1 in the seed's order)
        turn = next(s for s in range(4) if hands[s] & lead)
        table: Combo | None = None
        table_seat = turn
        passes = 0
        must = lead
        while True:
            # The same order from both generators, so the same random choices give the same game.
            plays = sorted(generate(hands[turn], table, must), key=lambda c: (c.size, c.key, c.mask))
            if table is not None and (not plays or rng.random() < 0.25):
                passes += 1
                if passes == 3:
                    table, passes, turn = None, 0, table_seat
                    continue
            else:
                combo = rng.choice(plays)
                hands[turn] &= ~combo.mask
                moves += 1
                must = 0
                table, table_seat, passes = combo, turn, 0
                if not hands[turn]:
                    break
            turn = (turn + 1) % 4
    return time.perf_counter() - start, moves


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
