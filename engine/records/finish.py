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
    counted: bool = True
    """False when the statistics said a problem (the game may wait in their queue file, :mod:`engine.records.stats`)."""


def finish_match(
    table: Table, seat: int | None, save: Path | None = None, *, count: bool = True, wait: float | None = None
) -> Finished:
    """A finished match: keep its replay, count it for the person at ``seat`` (None, or ``count`` off: nobody's,
    as a LAN host's table of guests), then remove ``save`` (the match is safe elsewhere). Never raises for a disk
    problem: each is one sentence in ``problems``; the save stays when the replay could not be written.

    It writes files and may wait for the statistics' database (``wait`` seconds at most, see
    :func:`~engine.records.stats.record_game`): call it on a thread that holds no table host's lock and that no
    screen waits for (the app's :class:`~engine.records.saves.Keeper`)."""
    problems: list[str] = []
    try:
        replay: Path | None = keep_replay(table)
    except OSError as err:
        replay = None
        problems.append(f"The replay of this game could not be kept ({one_line(err.strerror or str(err))}).")
    counted = True
    if seat is not None and count:
        from engine.records.stats import record_game

        problem = record_game(table, seat, replay=replay, wait=wait)
        if problem is not None:
            problems.append(problem)
            counted = False
    if save is not None and replay is not None:
        remove_save(save)
    return Finished(replay, problems, counted)


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
