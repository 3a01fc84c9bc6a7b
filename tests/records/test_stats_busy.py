"""The statistics screen never waits for a locked database (issue 26, point 1).

Another connection (as another process would) holds the database in an exclusive transaction: in WAL mode with
``locking_mode = EXCLUSIVE`` (the file as Parlour keeps it), or in the rollback journal mode a file copied from
elsewhere may be in. The screen reads on a thread of its own, waits half a second at most, says the statistics
are busy, answers keys meanwhile, and shows them as soon as the lock is let go."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from records_helpers import bot_match, play_out, until
from textual.widgets import DataTable, Static

from engine.records.paths import stats_path
from engine.records.stats import StatsBusy, history, record_game, summary
from tui.apps.parlour import ParlourApp
from tui.screens.menu import MenuScreen
from tui.screens.stats import BUSY, READ_WAIT, StatsScreen


@contextmanager
def held(path: Path, mode: str) -> Iterator[None]:
    """The statistics at ``path`` held by another connection in an exclusive write transaction."""
    if mode == "delete":
        setup = sqlite3.connect(path, isolation_level=None)
        setup.execute("PRAGMA journal_mode = DELETE").fetchall()
        setup.close()
    other = sqlite3.connect(path, isolation_level=None)
    try:
        if mode == "wal":
            other.execute("PRAGMA locking_mode = EXCLUSIVE").fetchall()
        other.execute("BEGIN EXCLUSIVE")
        other.execute("UPDATE games SET won = won")
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


MODES = [pytest.param("wal", id="wal-exclusive"), pytest.param("delete", id="rollback-journal")]


def counted() -> None:
    for seed in (1, 2):
        assert record_game(play_out(bot_match("screw", 3, [None, "easy", "easy"], seed=seed)), 0) is None


@pytest.mark.parametrize("mode", MODES)
def test_a_read_of_held_statistics_is_said_busy_after_its_wait(mode: str) -> None:
    counted()
    assert READ_WAIT <= 0.5  # (how long the screen's reads wait, at most)
    with held(stats_path(), mode):
        with pytest.raises(StatsBusy, match=r"is busy \(another program is writing it\)"):
            summary(wait=READ_WAIT)
        with pytest.raises(StatsBusy):
            history("screw", "standard", "easy", wait=READ_WAIT)
    assert summary(wait=READ_WAIT)["games"] == 2


@pytest.mark.parametrize("mode", MODES)
async def test_the_statistics_screen_says_busy_answers_keys_and_shows_them_when_free(mode: str) -> None:
    counted()
    app = ParlourApp(pace=0)
    async with app.run_test(size=(110, 40)) as pilot:
        assert await until(pilot, lambda: isinstance(app.screen, MenuScreen))
        with held(stats_path(), mode):
            await pilot.press("t")
            screen = app.screen
            assert isinstance(screen, StatsScreen)
            note = screen.query_one("#stats-note", Static)
            assert await until(pilot, lambda: str(note.render()) == BUSY)
            assert screen.reading and screen.query_one(DataTable).row_count == 0
            await pilot.press("ctrl+p")  # a key while the database is held: answered at once (the palette)
            assert await until(pilot, lambda: app.screen is not screen)
            await pilot.press("escape")
            assert await until(pilot, lambda: app.screen is screen)
        assert await until(pilot, lambda: not screen.reading and screen.charted == 0)
        assert screen.query_one(DataTable).row_count == 1
        assert str(note.render()) == ""
        await pilot.press("escape")
        assert await until(pilot, lambda: isinstance(app.screen, MenuScreen))
