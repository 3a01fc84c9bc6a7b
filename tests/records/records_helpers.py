"""Helpers the records tests share: seeded matches of every game, and what two tables are compared by."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from engine import codec
from engine.table import Table

MATCHES = [
    pytest.param("screw", 4, ["medium", "easy", "hard", "easy"], (), None, 11, id="screw-4"),
    pytest.param("chase", 5, ["easy"] * 5, ("high-card-pays",), None, 11, id="chase-high-card-pays-5"),
    pytest.param("big2", 4, ["easy", "medium", "easy", "medium"], ("taiwan",), 2, 11, id="big2-taiwan-4"),
    pytest.param("big2", 3, ["easy"] * 3, ("pagat-scoring",), 1, 11, id="big2-pagat-3"),
    pytest.param("trash", 2, ["medium", "easy"], (), None, 11, id="trash-2"),
    pytest.param("trash", 3, ["easy"] * 3, ("match", "last-turn"), None, 11, id="trash-match-last-turn-3"),
    pytest.param("rank", 4, ["easy", "medium", "easy", "easy"], (), 2, 11, id="rank-4"),
    pytest.param("rank", 5, ["easy"] * 5, (), 1, 14, id="rank-5-two-decks"),
]
"""(game, players, bots, variants, deals, seed): a match of every game, several of their variants."""


def bot_match(
    game: str,
    players: int,
    bots: Sequence[str | None],
    variants: Sequence[str] = (),
    deals: int | None = None,
    seed: int = 11,
) -> Table:
    """A table of ``game`` with the bots set up (nothing played yet)."""
    return Table.create(game, players=players, seed=seed, bots=bots, variants=variants, deals=deals)


def play_out(table: Table, limit: int | None = None) -> Table:
    """Play ``table`` on: each bot's own choice, a person's first legal action (until ``limit`` actions in all)."""
    while not table.state.is_over and (limit is None or len(table.actions) < limit):
        seat = table.state.to_move
        assert seat is not None
        if table.seats[seat].is_bot:
            table.step_bot()
        else:
            table.submit(seat, table.state.legal_actions()[0])
    return table


def picture(table: Table) -> dict[str, Any]:
    """Everything a table shows, as JSON text: every seat's view and a spectator's, the zones, the history, who
    moves and what may be done, the seats."""
    state = table.state
    return {
        "views": [codec.dumps(state.view(seat)) for seat in [*range(state.players), None]],
        "zones": codec.dumps({place: list(cards) for place, cards in state.zones().items()}),
        "history": [codec.dumps(event) for event in state.history],
        "to_move": state.to_move,
        "legal": [codec.dumps(action) for action in state.legal_actions()],
        "version": state.version,
        "result": state.result,
        "seats": [(seat.name, seat.level, type(seat.bot).__name__) for seat in table.seats],
        "options": codec.dumps(table.options),
        "actions": [(seat, codec.dumps(action)) for seat, action in table.actions],
        "bounds": list(table.bounds),
    }


def record_many(path: str, tag: str, games: int, start: Any) -> list[str]:
    """A writer process: count one finished match ``games`` times, each as a match of its own (its own start
    time), from the moment every writer has reached ``start`` (a Barrier), so they write at once (the first of
    them make the database together). Returns the problems met."""
    from pathlib import Path

    from engine.records.stats import record_game

    table = play_out(bot_match("screw", 3, ["easy"] * 3, seed=len(tag)))
    problems = []
    start.wait(60)
    for number in range(games):
        table.started_at = f"2024-01-01T00:00:00+00:00 {tag} {number}"
        problem = record_game(table, 0, path=Path(path))
        if problem is not None:
            problems.append(problem)
    return problems


def writer(path: str, tag: str, games: int, start: Any, out: Any) -> None:
    out.put((tag, record_many(path, tag, games, start)))


async def until(pilot: Any, condition: Callable[[], bool], tries: int = 3000) -> bool:
    """Let the app under ``pilot`` run until ``condition`` holds (True) or ``tries`` pauses of 10 ms have passed
    (False): what a thread of the app reads (the statistics screen's) is waited for with a bound, never a clock."""
    for _ in range(tries):
        if condition():
            return True
        await pilot.pause(0.01)
    return condition()
