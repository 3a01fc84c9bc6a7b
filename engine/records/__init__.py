"""Never lose a game: saves to resume a match, replays of finished ones, and statistics.

- :mod:`engine.records.record`: a match as a record (a :class:`Header` and the table's actions) and
  :func:`rebuild`, which plays the actions again to give the very same table;
- :mod:`engine.records.saves`: :func:`save_match` (atomic, after every action) and :func:`load_match` (a file that
  cannot be used is moved aside, with one sentence to tell);
- :mod:`engine.records.replays`: every finished match as JSON Lines (:func:`keep_replay`), checked again against
  the engine (:func:`check_replay`), listed (:func:`list_replays`);
- :mod:`engine.records.stats`: SQLite statistics (:func:`record_game`, :func:`summary`);
- :mod:`engine.records.paths`: where all of it lives (``$PARLOUR_DATA_DIR`` or the user data directory).

:func:`finish_match` does what the app does when a match ends: keep the replay, count the game, remove the save.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.records.paths import autosave_path, data_dir, host_save_path, host_saves, one_line, replays_dir
from engine.records.record import FORMAT, FormatError, Header, RecordError, rebuild
from engine.records.replays import ReplayError, check_replay, keep_replay, list_replays, verify_replay
from engine.records.saves import SaveProblem, load_match, remove_save, save_match, store_match
from engine.table import Table

_FROM_STATS = ("StatsError", "record_game", "summary")
"""Read from :mod:`engine.records.stats` when first asked for: it brings SQLite, which nothing needs until a match
ends or the statistics are shown (the app's start-up does not wait for it)."""


def __getattr__(name: str) -> object:
    if name in _FROM_STATS:
        from engine.records import stats

        return getattr(stats, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "FORMAT",
    "Finished",
    "FormatError",
    "Header",
    "RecordError",
    "ReplayError",
    "SaveProblem",
    "StatsError",
    "autosave_path",
    "check_replay",
    "data_dir",
    "finish_match",
    "host_save_path",
    "host_saves",
    "keep_replay",
    "list_replays",
    "load_match",
    "rebuild",
    "record_game",
    "remove_save",
    "replays_dir",
    "save_match",
    "store_match",
    "summary",
    "verify_replay",
]


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
