"""Statistics that cannot be written now are not lost (issue 26): a game the database refuses (locked by another
process beyond the wait, a directory that cannot be written) waits in ``stats-pending.jsonl`` beside it and is
counted by the next write that succeeds, once; a queued line that is not a game is skipped, the rest counted."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from records_helpers import bot_match, play_out

from engine.records import paths
from engine.records.stats import count_pending, pending_path, record_game, summary
from engine.table import Table


def finished(seed: int) -> Table:
    return play_out(bot_match("screw", 3, [None, "easy", "easy"], seed=seed))


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Another connection (as another process would) holding the database's write lock."""
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def games() -> int:
    return int(summary()["games"])


def leftovers(directory: Path) -> list[str]:
    return sorted(entry.name for entry in directory.iterdir() if "pending" in entry.name)


def test_a_game_the_locked_database_refuses_waits_and_is_counted_at_the_next_game() -> None:
    path = paths.stats_path()
    assert record_game(finished(1), 0) is None
    with locked(path):
        problem = record_game(finished(2), 0, wait=0.05)
        assert problem is not None
        assert problem.startswith(f"The statistics at {path} cannot be written now (database is locked)")
        assert problem.endswith("the game waits in stats-pending.jsonl and is counted at the next game.")
        assert pending_path(path) == path.with_name("stats-pending.jsonl")
        lines = [line for line in pending_path(path).read_text(encoding="utf-8").splitlines() if line]
        assert len(lines) == 1 and json.loads(lines[0])["seed"] == 2
        assert games() == 1  # (reading still works: the database is in WAL mode)
    assert record_game(finished(3), 0) is None
    assert games() == 3
    assert leftovers(path.parent) == []  # the queue was taken, counted and removed


def test_queued_games_are_counted_on_their_own_and_once() -> None:
    path = paths.stats_path()
    assert count_pending() is None  # nothing waits: nothing is even opened
    assert not path.exists()
    assert record_game(finished(1), 0) is None
    twice = finished(4)
    with locked(path):
        for _ in range(2):  # the same match refused twice: queued twice
            assert record_game(twice, 0, wait=0.05) is not None
        assert count_pending(wait=0.05) is not None  # still locked: they still wait
        assert pending_path(path).exists()
    assert count_pending() is None
    assert games() == 2  # the same match counts once
    assert leftovers(path.parent) == []


def test_a_damaged_or_strange_queued_line_is_skipped_and_the_rest_counted() -> None:
    path = paths.stats_path()
    assert record_game(finished(1), 0) is None
    with locked(path):
        assert record_game(finished(5), 0, wait=0.05) is not None
    queue = pending_path(path)
    good = next(line for line in queue.read_text(encoding="utf-8").splitlines() if line)
    row = json.loads(good)
    strange = [
        dict(row, seat="0"),
        dict(row, won=True),
        dict(row, counts="[1, 2]"),
        dict(row, kind="elsewhere"),
        {key: value for key, value in row.items() if key != "score"},
        [1, 2, 3],
    ]
    with queue.open("a", encoding="utf-8") as out:
        out.write('{"match": "cut short')  # a line a full disk cut short: the next one still reads
        for item in strange:
            out.write("\n" + json.dumps(dict(item, match="x", seed=99) if isinstance(item, dict) else item))
        out.write("\n")
    assert count_pending() is None
    assert games() == 2  # the good row; none of the strange ones
    assert leftovers(path.parent) == []


def test_a_queue_a_stopped_write_had_taken_is_counted_again() -> None:
    path = paths.stats_path()
    assert record_game(finished(1), 0) is None
    with locked(path):
        assert record_game(finished(6), 0, wait=0.05) is not None
    # As if a Parlour had taken the queue (renamed it) and been killed before it counted it.
    pending_path(path).rename(path.with_name("stats-pending.jsonl.123-456.taken"))
    assert record_game(finished(7), 0) is None
    assert games() == 3
    assert leftovers(path.parent) == []


def test_a_game_neither_counted_nor_queued_is_one_sentence(tmp_path: Path) -> None:
    # A data directory that cannot be written (as root, mode bits are not enough: its path is a file).
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("a file where the data directory should be")
    where = blocked / "stats.sqlite3"
    problem = record_game(finished(1), 0, path=where)
    assert problem is not None and problem.startswith(f"The game could not be counted in the statistics at {where}")
    assert "nor kept to count later" in problem and "\n" not in problem
