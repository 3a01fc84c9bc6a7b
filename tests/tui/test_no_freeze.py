"""No write can stop play (issue 26): a full data directory, one that cannot be written, and a statistics database
locked by another process, one after the other in one match: the match plays to its end, each kind of failure is
said once in the status line (never a toast a move), the game waits in the statistics' queue and is counted once the
lock goes, and ``q`` quits.

Root ignores mode bits, so "read-only" is made the public way a test can: the data directory's path is a regular
file (every write there fails). "Full" is a save writer that fails as a full disk does (ENOSPC), given to the app's
keeper through its documented ``write`` parameter."""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from textual.widgets import Static
from tui_helpers import my_turn, table_of, wait_for

from engine.play.table_host import TableHost
from engine.records import paths
from engine.records.finish import Keeper
from engine.records.paths import write_atomically
from engine.records.saves import load_match
from engine.records.stats import pending_path, record_game, summary
from engine.table import Table
from tui.apps.parlour import ParlourApp, PlayConfig
from tui.dialogs.results import ResultsScreen
from tui.games.chase.reveal import RevealScreen

SCREW = PlayConfig(game="screw", players=3, seed=11, difficulty="easy")


class Disk:
    """Writes saves through to the real disk, or fails as a full one does."""

    def __init__(self) -> None:
        self.full = False
        self.refused = 0

    def write(self, path: Path, text: str) -> None:
        if self.full:
            self.refused += 1
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        write_atomically(path, text)


def one_finished_game() -> Table:
    table = Table.create("screw", players=3, seed=3, bots=[None, "easy", "easy"])
    while not table.state.is_over:
        seat = table.state.to_move
        assert seat is not None
        if table.seats[seat].is_bot:
            table.step_bot()
        else:
            table.submit(seat, table.state.legal_actions()[0])
    return table


def toasts(app: ParlourApp) -> int:
    return sum(len(screen.query("Toast")) for screen in app.screen_stack)


async def test_a_full_unwritable_and_locked_data_directory_never_stops_the_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    monkeypatch.setenv(paths.DATA_ENV, str(data))
    assert record_game(one_finished_game(), 0) is None  # a statistics database to lock later
    stats = paths.stats_path()
    disk = Disk()
    app = ParlourApp(start=SCREW, pace=0)
    app.keeper = Keeper(write=disk.write, retry_every=0.05)
    keeper = app.keeper
    moved = tmp_path / "data-moved"
    other: sqlite3.Connection | None = None
    mine = 0
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            table = table_of(pilot)
            for _ in range(3000):
                screen = app.screen
                if isinstance(screen, ResultsScreen):
                    break
                if isinstance(screen, RevealScreen):
                    await pilot.press("enter")
                elif my_turn(pilot):
                    await pilot.press("s")
                    mine += 1
                    assert keeper.flush(10)
                    if mine == 1:  # the disk fills up
                        disk.full = True
                    elif mine == 3:  # then the data directory cannot be written at all
                        assert disk.refused >= 1 and "save" in keeper.failing
                        assert table.problem is not None and "No space left on device" in table.problem
                        status = table.query_one("#status", Static)
                        assert await wait_for(pilot, lambda s=status: "could not be saved" in str(s.render()))
                        disk.full = False
                        data.rename(moved)
                        data.write_text("a file where the data directory was")
                    elif mine == 5:  # then it is back, but another process holds the statistics
                        assert "save" in keeper.failing  # (still the first sentence: nothing new was said)
                        data.unlink()
                        moved.rename(data)
                        other = sqlite3.connect(stats, isolation_level=None)
                        other.execute("BEGIN EXCLUSIVE")
                else:
                    await pilot.pause()
            assert isinstance(app.screen, ResultsScreen), "the match did not play to its end"
            assert mine >= 6
            assert keeper.flush(10)

            # Each kind said once, in the status line; no toast for any of it.
            saves = [p for p in keeper.problems if "could not be saved" in p]
            assert len(saves) == 1 and "No space left on device" in saves[0]
            counted = [p for p in keeper.problems if "statistics" in p]
            assert len(counted) == 1 and "database is locked" in counted[0] and "stats-pending.jsonl" in counted[0]
            assert keeper.failing == {"stats"}  # the saves worked again once the directory was back
            assert await wait_for(pilot, lambda: table.problem == counted[0])
            assert toasts(app) == 0

            # The replay is kept, the save gone (the match is safe), the game waits in the queue...
            assert not paths.autosave_path().exists()
            assert len(list(paths.replays_dir().glob("*.jsonl"))) == 1
            queued = [json.loads(line) for line in pending_path(stats).read_text().splitlines() if line]
            assert [row["seed"] for row in queued] == [11]
            # ... and is counted, once, when the lock goes.
            assert other is not None
            other.execute("ROLLBACK")
            other.close()
            other = None
            assert await wait_for(pilot, lambda: not pending_path(stats).exists() and "stats" not in keeper.failing)
            assert summary()["games"] == 2

            await pilot.press("q")
            assert await wait_for(pilot, lambda: not app.is_running)
    finally:
        if other is not None:
            other.close()


async def test_a_save_that_fails_mid_match_is_offered_at_the_next_move(tmp_path: Path) -> None:
    """A save that failed is not the end of saving: the next move writes the whole match again."""
    disk = Disk()
    app = ParlourApp(start=SCREW, pace=0)
    app.keeper = Keeper(write=disk.write)
    keeper = app.keeper
    async with app.run_test(size=(100, 30)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        disk.full = True
        await pilot.press("s")
        assert await wait_for(pilot, lambda: keeper.flush(0) and "save" in keeper.failing)
        disk.full = False
        assert await wait_for(pilot, lambda: my_turn(pilot) or isinstance(app.screen, RevealScreen))
        if isinstance(app.screen, RevealScreen):
            await pilot.press("enter")
        assert await wait_for(pilot, lambda: my_turn(pilot))
        await pilot.press("s")
        assert await wait_for(pilot, lambda: keeper.flush(0) and "save" not in keeper.failing)
        saved = load_match(paths.autosave_path())
        assert isinstance(saved, Table)
        assert sum(seat == 0 for seat, _ in saved.actions) == 2  # both your moves, the one that failed too
        await pilot.press("q")  # (the match is on: it asks)
        await pilot.press("y")
        assert await wait_for(pilot, lambda: not app.is_running)


def test_a_warning_that_waits_for_the_table_never_holds_the_bots(tmp_path: Path) -> None:
    """The shape of the freeze: whoever is told of a failed write (the screen) needs the host's lock before it can
    answer. Told from the keeper's thread, it gets the lock at once; the bots play the match to its end."""
    host = TableHost.create("screw", 3, seed=11, bots=[None, "easy", "easy"], pace=0, autostart=False)
    answered = threading.Event()
    heard: list[str] = []

    def tell(sentence: str) -> None:  # as a screen would: it draws the table (the lock) before going on
        heard.append(sentence)
        done = threading.Event()

        def draw() -> None:
            host.snapshot(0)
            done.set()

        threading.Thread(target=draw, daemon=True).start()
        if done.wait(10):
            answered.set()

    disk = Disk()
    disk.full = True
    keeper = Keeper(tell, write=disk.write)
    save = tmp_path / "autosave.json"
    host.subscribe(None, lambda event: keeper.save(save, host.table), replay=False)
    session = host.connect(0)
    host.start()
    deadline = time.monotonic() + 60
    while not host.table.state.is_over and time.monotonic() < deadline:
        assert host.wait_idle(10), "the bots stopped"
        snap = host.snapshot(0)
        if snap.legal:
            session.submit(snap.legal[0])
        else:
            session.ready()  # the end of a round: read
    assert host.table.state.is_over, "the match did not end in time"
    assert keeper.flush(10)
    assert answered.wait(10), "the warning was never answered"
    assert len(heard) == 1 and "No space left on device" in heard[0]
    host.close()
