"""Big Two legal-move generation: the engine's generator against a naive one that tries every subset of the hand.

Both generators run on the same hands and the same whole games, so their ratio means something on a noisy machine.
``benchmarks/bench.py`` and ``benchmarks/big2_movegen.py`` use this module; the naive generator lives only here, as the
reference the engine's generator is measured against (it finds exactly the same plays, far more slowly).

>>> hand = random_hands(1, seed=1)[0]
>>> table = situations()["vs pair"]
>>> sorted(c.mask for c in naive_plays(hand, table)) == sorted(c.mask for c in fast_plays()(hand, table, 0))
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from engine.games.big2.rules import DEFAULT_OPTIONS, Combo, ComboCache, bits, classify_mask, legal_plays

Generator = Callable[[int, Combo | None, int], list[Combo]]
"""A legal-play generator: (hand mask, the play on the table or None, a card the play must include) -> plays."""


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


def fast_plays(cache: ComboCache | None = None) -> Generator:
    """The engine's generator (:func:`engine.games.big2.rules.legal_plays`) with a cache of its own."""
    held = cache if cache is not None else ComboCache()

    def generate(hand: int, table: Combo | None, must_include: int = 0) -> list[Combo]:
        return legal_plays(hand, table, DEFAULT_OPTIONS, must_include, held)

    return generate


def random_hands(count: int, seed: int) -> list[int]:
    """``count`` random 13-card hands, as card masks."""
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
    """Seconds to generate the plays of every hand once against ``table``, and how many plays were found."""
    start = time.perf_counter()
    found = 0
    for hand in hands:
        found += len(generate(hand, table, 0))
    return time.perf_counter() - start, found


def play_games(make_generator: Callable[[], Generator], games: int, seed: int) -> tuple[float, int]:
    """Whole random 4-player games (a random legal play, or a pass one time in four); returns seconds and plays.

    The same seed gives the same games with either generator (the plays are sorted before the random choice)."""
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
