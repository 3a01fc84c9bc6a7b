"""The engine's figures for ``benchmarks/bench.py``: random games per second, Big Two move generation, bot decisions.

Games per second are measured two ways for every game key, in alternating rounds:

- the **engine loop**: the game's own state, ``legal_actions`` then ``apply`` of a uniformly random legal action,
  until the match is over (the reference: what the rules cost);
- the **table**: ``engine.simulate`` (a table made and run to its end, easy bots, the path ``parlour simulate``
  and the app's host take), so its ratio to the engine loop is what the table adds (views, events, records).

Games played in deals (Big Two, Rank) are measured one deal per game. Decision times are those of a bot that
has a choice (more than one legal action), its view and the legal actions included, as the host asks for them.
"""

from __future__ import annotations

import functools
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from engine.bots import decision_rng
from engine.game import GameEntry, GameState
from engine.games.big2.rules import ComboCache
from engine.registry import ENTRIES, bot_levels, get_entry, make_bot
from engine.simulate import simulate
from engine.table import match_options
from parlour_bench.measure import Row, alternate, failed, percentile, rate
from parlour_bench.movegen import fast_plays, naive_plays, play_games, random_hands, situations, time_calls

GAME_KEYS: tuple[str, ...] = tuple(entry.key for entry in ENTRIES)
"""Every game key the registry knows (each preset of a game that has several is its own key)."""

HARD_MEDIAN = 1.0
"""Seconds: the most a ``hard`` bot's median decision may take."""
HARD_P95 = 2.0
"""Seconds: the most a ``hard`` bot's decision may take at the 95th percentile."""


@functools.cache
def _setup(key: str) -> tuple[GameEntry, int, int | None, Any]:
    """The entry, the players (the game's default), the deals (1 for games played in deals) and the options (made
    once: the engine loop's clock counts the rules, not the look-up of the game)."""
    entry = get_entry(key)
    players = entry.game.default_players
    deals = 1 if hasattr(entry.game.options(entry.preset), "deals") else None
    return entry, players, deals, match_options(entry, None, (), deals)


def describe(key: str) -> str:
    """The game as the table names it: its key, players and (for games played in deals) one deal."""
    entry, players, deals, _ = _setup(key)
    return f"{entry.key}, {players} players" + (", 1 deal" if deals else "")


def random_game(key: str, seed: int) -> int:
    """One match through the engine alone: a uniformly random legal action until the end; its number of actions."""
    entry, players, _, options = _setup(key)
    state: GameState[Any, Any, Any] = entry.game.new_match(players, options, random.Random(seed), None)
    rng = random.Random(seed)
    steps = 0
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state.apply(seat, rng.choice(state.legal_actions()))
        steps += 1
    return steps


class _Counter:
    """Seeds that go on from round to round, so every round plays new deals."""

    def __init__(self, start: int) -> None:
        self.next = start

    def take(self, count: int = 1) -> int:
        first = self.next
        self.next += count
        return first


def engine_rate(key: str, seconds: float, seeds: _Counter | None = None) -> float:
    """Random games per second through the engine loop, over about ``seconds``."""
    counter = seeds if seeds is not None else _Counter(1)

    def one() -> int:
        random_game(key, counter.take())
        return 1

    return rate(one, seconds)


def table_rate(key: str, games: int, seed: int = 1) -> float:
    """Games per second of ``games`` matches of easy bots through the table (``engine.simulate``)."""
    _, players, deals, _ = _setup(key)
    start = time.perf_counter()
    simulate(key, players=players, games=games, seed=seed, bots=["easy"], deals=deals)
    return games / (time.perf_counter() - start)


def games_per_second(key: str, rounds: int, seconds: float) -> Row:
    """Table games/s against the engine loop's, in alternating rounds of about ``seconds`` each."""
    name = f"random games through the table ({describe(key)})"
    try:
        engine_seeds = _Counter(1)
        table_seeds = _Counter(1)
        # the number of table games a round plays: from a first game, then from the round before
        estimate = [table_rate(key, 1, seed=10**6)]

        def through_engine() -> float:
            return engine_rate(key, seconds, engine_seeds)

        def through_table() -> float:
            games = max(1, round(estimate[-1] * seconds))
            estimate.append(table_rate(key, games, seed=table_seeds.take()))
            return estimate[-1]

        engine_runs, table_runs = alternate([through_engine, through_table], rounds)
    except Exception as err:  # a broken game is one row's error, not the end of the bench
        return failed("engine", name, "games/s", err, "the engine loop")
    return Row(
        "engine",
        name,
        statistics.median(table_runs),
        "games/s",
        reference=statistics.median(engine_runs),
        reference_name="the engine loop (legal_actions + apply, random)",
        extra={"rounds": float(rounds)},
    )


def _situation_row(situation: str, table: Any, pool: list[int], hands: int, rounds: int) -> Row:
    """Legal plays per second from 13-card hands against ``table``: the engine's generator and the naive one, in
    alternating rounds on the same hands (each round new hands). Both must find the same plays.

    The engine's generator is far faster: each of its rounds repeats its work until it has run a tenth of a
    second, so its clock reads something."""
    name = f"Big Two legal plays, {situation} (13-card hands)"
    turn = [0]
    found: dict[str, set[int]] = {"naive": set(), "fast": set()}

    def chunk() -> list[int]:
        return pool[turn[0] * hands : (turn[0] + 1) * hands] or pool[:hands]

    def naive() -> float:
        seconds, count = time_calls(naive_plays, chunk(), table)
        found["naive"].add(count)
        return hands / seconds

    def fast() -> float:
        calls, spent, count = 0, 0.0, 0
        while spent < 0.1:
            seconds, count = time_calls(fast_plays(ComboCache()), chunk(), table)
            calls += hands
            spent += seconds
        found["fast"].add(count)
        turn[0] += 1
        return calls / spent

    return _against_naive(name, "hands/s", naive, fast, found, rounds, "the naive generator (every subset of the hand)")


def _against_naive(
    name: str,
    unit: str,
    naive: Callable[[], float],
    fast: Callable[[], float],
    found: dict[str, set[int]],
    rounds: int,
    reference_name: str,
) -> Row:
    """The row of ``fast`` against ``naive`` (each a rate), in alternating rounds; an error row if they did not
    find the same things (``found``: what each one counted, by ``naive`` and ``fast``) or one of them failed."""
    try:
        naive_runs, fast_runs = alternate([naive, fast], rounds)
        if found["naive"] != found["fast"]:
            raise RuntimeError("the two generators did not agree on what they found")
    except Exception as err:
        return failed("engine", name, unit, err, "the naive generator")
    return Row(
        "engine",
        name,
        statistics.median(fast_runs),
        unit,
        reference=statistics.median(naive_runs),
        reference_name=reference_name,
    )


def movegen_rows(rounds: int, hands: int, games: int, seed: int = 1) -> list[Row]:
    """Big Two legal plays per second from 13-card hands in four situations, and whole random 4-player games per
    second, the engine's generator against the naive one (every subset of the hand), in alternating rounds."""
    pool = random_hands(hands * max(1, rounds), seed)
    rows = [_situation_row(situation, table, pool, hands, rounds) for situation, table in situations().items()]
    name = "Big Two random games, move generation alone (4 players)"
    moves: dict[str, set[int]] = {"naive": set(), "fast": set()}
    game_seed = [seed]

    def naive_games() -> float:
        seconds, made = play_games(lambda: naive_plays, games, game_seed[0])
        moves["naive"].add(made)
        return games / seconds

    def fast_games() -> float:
        seconds, made = play_games(lambda: fast_plays(ComboCache()), games, game_seed[0])
        moves["fast"].add(made)
        game_seed[0] += 1
        return games / seconds

    rows.append(
        _against_naive(
            name, "games/s", naive_games, fast_games, moves, rounds, "the same games with the naive generator"
        )
    )
    return rows


SAMPLED = 0.3
"""The share of seat 0's decisions with a choice that the measured bot makes (and is timed on); ``medium`` makes
the others. Samples then come from every stage of a match and from several matches, not only from the first
moves of the first one, however short the time given."""


def decision_times(key: str, level: str, samples: int, seconds: float, seed: int = 1) -> list[float]:
    """Seconds of decisions with a choice made by a ``level`` bot at seat 0 of ``key`` (its default players, one
    deal for games played in deals; ``medium`` bots elsewhere), until ``samples`` decisions were timed or
    ``seconds`` have passed (at least one decision, whatever the time). Each decision is timed as the host makes
    it: the legal actions, the seat's view, the choice."""
    entry, players, _, options = _setup(key)
    bot = make_bot(entry.game, level)
    other = make_bot(entry.game, "medium")
    sampler = random.Random(seed)
    times: list[float] = []
    started = time.perf_counter()

    def more() -> bool:
        return len(times) < samples and (not times or time.perf_counter() - started < seconds)

    game = 0
    while more():
        table_seed = seed * 1000 + game
        game += 1
        state: GameState[Any, Any, Any] = entry.game.new_match(players, options, random.Random(table_seed), None)
        while not state.is_over and more():
            seat = state.to_move
            assert seat is not None
            rng = decision_rng(table_seed, seat, state.version)
            before = time.perf_counter()
            legal = state.legal_actions()
            timed = seat == 0 and len(legal) > 1 and sampler.random() < SAMPLED
            choice = (bot if timed else other).choose(state.view(seat), legal, rng)
            if timed:
                times.append(time.perf_counter() - before)
            state.apply(seat, choice)
    return times


def decision_row(key: str, level: str, samples: int, seconds: float) -> Row:
    """A bot's median decision time, its 95th percentile beside it; ``hard`` checked against its limits."""
    name = f"{level} bot decision ({describe(key)})"
    try:
        times = decision_times(key, level, samples, seconds)
    except Exception as err:
        return failed("bots", name, "ms", err)
    median, p95 = statistics.median(times), percentile(times, 0.95)
    row = Row(
        "bots",
        name,
        median * 1000,
        "ms",
        extra={"p95_ms": p95 * 1000, "slowest_ms": max(times) * 1000, "decisions": float(len(times))},
    )
    if level == "hard":
        row.limit = f"median at most {HARD_MEDIAN * 1000:.0f} ms, 95th percentile at most {HARD_P95 * 1000:.0f} ms"
        row.passed = median <= HARD_MEDIAN and p95 <= HARD_P95
    return row


def levels(key: str) -> tuple[str, ...]:
    """The bot levels of the game behind ``key``, weakest first."""
    return tuple(bot_levels(get_entry(key).game))


def engine_rows(
    rounds: int, seconds: float, keys: Sequence[str] = GAME_KEYS, report: Callable[[str], None] | None = None
) -> list[Row]:
    """Games per second through the engine and the table for every game key."""
    rows = []
    for key in keys:
        if report is not None:
            report(f"random games of {key}")
        rows.append(games_per_second(key, rounds, seconds))
    return rows
