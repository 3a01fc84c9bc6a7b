"""Bots against bots, headless: the figures behind ``parlour simulate``.

>>> report = simulate("screw", players=3, games=2, seed=1, bots=["easy", "medium", "hard"])
>>> report["games"], [s["bot"] for s in report["seats"]], sum(s["wins"] for s in report["seats"])
(2, ['easy', 'medium', 'hard'], 2)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, is_dataclass
from typing import Any

from engine.errors import OptionError
from engine.registry import get_entry
from engine.table import Table, check_seed, match_options


def seat_bots(bots: Sequence[str], players: int) -> list[str]:
    """One difficulty per seat: a single name is used for every seat, otherwise there must be one per seat."""
    names = [b.strip().lower() for b in bots if isinstance(b, str) and b.strip()]
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise OptionError(f"--bots names {len(names)} bots for {players} players: give one, or one per seat")
    return names


def simulate(
    game: str,
    players: int,
    games: int,
    seed: int = 0,
    bots: Sequence[str] = ("medium",),
    preset: str | None = None,
    variants: Sequence[str] = (),
    deals: int | None = None,
    rotate: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` matches between bots and report per-seat wins and scores (and game-specific stats).

    With ``rotate``, match ``i`` seats the bots turned ``i`` places round the table, so each bot plays every seat
    equally often; the per-seat figures are then per *line-up position* (the order of ``bots``).

    ``progress``, if given, is called as ``progress(done, games)`` after each match, so a caller can show how far
    a long run has got (the CLI's progress bar) without this module knowing anything about terminals.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise OptionError("--games must be at least 1")
    check_seed(seed)
    entry = get_entry(game)
    entry.game.check_players(players)
    levels = seat_bots(bots, players)
    options = match_options(entry, preset, variants, deals)
    wins = [0.0] * players
    score_sums = [0.0] * players
    figures = entry.game.figures()
    started = time.perf_counter()
    for index in range(games):
        shift = index % players if rotate else 0
        # Seat s holds line-up position (s - shift): position p sits at seat (p + shift).
        lineup = [levels[(seat - shift) % players] for seat in range(players)]
        table = Table.create(
            entry.key,
            players,
            seed=seed * 1_000_003 + index,
            bots=lineup,
            preset=preset,
            variants=variants,
            deals=deals,
        )
        table.run()
        result = table.state.result
        assert result is not None
        position = [(seat - shift) % players for seat in range(players)]
        for seat in result.winners:
            wins[position[seat]] += 1 / len(result.winners)  # a shared win is shared
        for seat, score in enumerate(result.scores):
            score_sums[position[seat]] += score
        figures.add(table.state, position)
        if progress is not None:
            progress(index + 1, games)
    seconds = time.perf_counter() - started
    seats = [
        {
            "seat": seat,
            "bot": levels[seat],
            "wins": int(wins[seat]) if wins[seat].is_integer() else round(wins[seat], 4),
            "win_rate": round(wins[seat] / games, 4),
            "mean_score": round(score_sums[seat] / games, 4),
        }
        for seat in range(players)
    ]
    stats: dict[str, Any] = {"rotated": rotate} | figures.report()
    return {
        "game": entry.key,
        "options": asdict(options) if is_dataclass(options) and not isinstance(options, type) else str(options),
        "players": players,
        "games": games,
        "seed": seed,
        "bots": levels,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds > 0 else None,
        "seats": seats,
        "stats": stats,
    }


TIMING_FIELDS = ("seconds", "games_per_second")
