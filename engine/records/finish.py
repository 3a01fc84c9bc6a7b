"""What the app does when a match ends: keep the replay, count the game, remove the save (:func:`finish_match`);
and what a LAN client does when the match at its seat ends (:func:`finish_seen`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.records.paths import one_line
from engine.records.replays import keep_replay
from engine.records.saves import remove_save
from engine.records.seen import SeenRecord, keep_seen
from engine.table import Table

__all__ = ["Finished", "finish_match", "finish_seen"]


@dataclass(frozen=True)
class Finished:
    """What :func:`finish_match` did: the replay kept (None if it could not be written) and one sentence per
    problem, for the player."""

    replay: Path | None
    problems: list[str] = field(default_factory=list)


def finish_match(table: Table, seat: int | None, save: Path | None = None) -> Finished:
    """A finished match: keep its replay, count it for the person at ``seat`` (None: nobody's, as a LAN host's
    table of guests), then remove ``save`` (the match is safe elsewhere). Never raises for a disk problem: each is
    one sentence in ``problems``; the save stays when the replay could not be written."""
    problems: list[str] = []
    try:
        replay: Path | None = keep_replay(table)
    except OSError as err:
        replay = None
        problems.append(f"The replay of this game could not be kept ({one_line(err.strerror or str(err))}).")
    if seat is not None:
        from engine.records.stats import record_game

        problem = record_game(table, seat, replay=replay)
        if problem is not None:
            problems.append(problem)
    if save is not None and replay is not None:
        remove_save(save)
    return Finished(replay, problems)


def finish_seen(record: SeenRecord, directory: Path | None = None, stats: Path | None = None) -> Finished:
    """A LAN match seen to its end at a seat: keep what the seat saw (in ``directory``, default the replays) and,
    for a player (not a spectator), count the match in the statistics (at ``stats``, default the user's). Never
    raises for a disk problem: each is one sentence in ``problems``."""
    problems: list[str] = []
    try:
        replay: Path | None = keep_seen(record, directory)
    except OSError as err:
        replay = None
        problems.append(f"The replay of this game could not be kept ({one_line(err.strerror or str(err))}).")
    if record.header.seat is not None:
        from engine.records.stats import record_game

        problem = record_game(record, replay=replay, path=stats)
        if problem is not None:
            problems.append(problem)
    return Finished(replay, problems)
