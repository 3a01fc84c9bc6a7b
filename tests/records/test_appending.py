"""Every file Parlour appends to is opened through one helper (issue 26, point 3):
:func:`engine.records.paths.open_appending` refuses a FIFO, a directory or a device in a file's place with one
clause, without ever waiting on it, and its callers move the thing aside (the statistics' queue) or say the write
failed (a LAN host's journal). Each writer runs on a thread the test joins with a bound, so one that blocks on a
FIFO fails the test instead of hanging it."""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path

import pytest
from records_helpers import bot_match, play_out
from test_hostile_files import ODD, bounded, make_odd

from engine.records.paths import NotAFileError, host_dir, open_appending, stats_path
from engine.records.saves import Journals
from engine.records.stats import TAKEN_SUFFIX, count_pending, pending_path, record_game, summary
from engine.table import Table

ROOT = Path(__file__).resolve().parents[2]


def finished(seed: int) -> Table:
    return play_out(bot_match("screw", 3, [None, "easy", "easy"], seed=seed))


@pytest.mark.parametrize(("kind", "words"), ODD)
def test_open_appending_refuses_what_is_not_a_file(kind: str, words: str) -> None:
    path = stats_path().parent / "appended"
    make_odd(path, kind)
    with pytest.raises(NotAFileError, match=words):
        bounded(lambda: os.close(open_appending(path)))
    assert os.path.lexists(path)  # (left where it is: the caller decides)


def test_open_appending_makes_and_appends_to_a_regular_file() -> None:
    path = stats_path().parent / "appended"
    path.parent.mkdir(parents=True, exist_ok=True)
    with pytest.raises(FileNotFoundError):
        open_appending(path, create=False)
    for text in (b"one\n", b"two\n"):
        handle = open_appending(path)
        try:
            os.write(handle, text)
            assert os.get_blocking(handle)
        finally:
            os.close(handle)
    assert path.read_bytes() == b"one\ntwo\n"


def test_a_fifo_in_place_of_the_statistics_queue_is_moved_aside_and_the_game_queued() -> None:
    path = stats_path()
    assert record_game(finished(1), 0) is None
    pending = pending_path(path)
    os.mkfifo(pending)
    other = sqlite3.connect(path, isolation_level=None)  # another process, as it were, holding the write lock
    try:
        other.execute("BEGIN EXCLUSIVE")
        problem = bounded(lambda: record_game(finished(2), 0, wait=0.05))
        other.execute("ROLLBACK")
    finally:
        other.close()
    assert problem is not None and "\n" not in problem
    assert "the game waits in stats-pending.jsonl" in problem
    assert "moved to stats-pending.jsonl.bad (it is a FIFO (a named pipe), not a file)" in problem
    assert pending.is_file() and pending.with_name(pending.name + ".bad").is_fifo()
    assert count_pending() is None
    assert summary()["games"] == 2  # the game kept through the FIFO is counted


def test_a_taken_queue_that_is_not_a_file_is_moved_aside_never_deleted() -> None:
    path = stats_path()
    assert record_game(finished(1), 0) is None
    taken = pending_path(path).with_name(f"{pending_path(path).name}.1-2{TAKEN_SUFFIX}")
    os.mkfifo(taken)
    assert bounded(lambda: count_pending()) is None
    assert not os.path.lexists(taken)
    assert taken.with_name(taken.name + ".bad").is_fifo()  # moved aside, as every file Parlour cannot use
    assert summary()["games"] == 1


def test_a_journal_replaced_by_a_fifo_is_said_and_never_waited_on() -> None:
    table = bot_match("screw", 3, [None, "easy", "easy"], seed=4)
    path = host_dir() / "NGQC.jsonl"
    journals = Journals(sync_every=0.01, linger=0.0)
    journals.begin(path, table, {})
    assert journals.flush()
    path.unlink()
    os.mkfifo(path)
    seat = table.state.to_move
    action = table.state.legal_actions()[0]
    table.submit(seat, action)
    journals.append(path, [(seat, action)])
    assert bounded(lambda: journals.flush(30.0)), "the journals' thread waits on the FIFO"
    assert journals.problems == [f"The table could not be saved to {path} (it is a FIFO (a named pipe), not a file)."]
    journals.close()


APPENDING = re.compile(r"O_APPEND|\bopen\([^)]*['\"]a[b+]?['\"]")


def test_every_file_appended_to_is_opened_through_open_appending() -> None:
    found = []
    for package in ("engine", "tui"):
        for source in sorted((ROOT / package).rglob("*.py")):
            if source == ROOT / "engine" / "records" / "paths.py":
                continue
            for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), start=1):
                if APPENDING.search(line):
                    found.append(f"{source.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []
