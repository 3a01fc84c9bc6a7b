"""Files as a hostile or unlucky user leaves them (issue 26, points 3 and 4).

Point 3: only regular files are read, each under a size cap. A FIFO, a directory or a device in place of a save, a
LAN journal, the settings, a replay or the statistics gets one sentence and is moved aside (a replay: refused), and
is never waited on: each reader runs on a thread the test joins with a bound, so a reader that blocked on a FIFO
fails the test instead of hanging it. A replay is read a line at a time, each line capped.

Point 4: what is read is checked as a stranger's input: names as typed names are (no control or escape
characters), a header's game, preset and variants against the registry, each statistics row against the schema (a
damaged row is said and left out, the rest shown), and a statistics file of a schema this version does not know is
moved aside like any file that cannot be used.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from records_helpers import bot_match, play_out, until
from textual.widgets import DataTable, Static

from engine.records.paths import (
    NotAFileError,
    TooLargeError,
    autosave_path,
    host_dir,
    read_regular,
    replays_dir,
    stats_path,
)
from engine.records.record import Header, RecordError, SeenHeader
from engine.records.replays import (
    MAX_LINE,
    ReplayCursor,
    ReplayError,
    is_seen_file,
    keep_replay,
    list_replays,
    replay_info,
    verify_replay,
)
from engine.records.saves import MAX_BYTES, SaveProblem, load_match, load_saved, save_match
from engine.records.stats import SCHEMA, history, record_game, summary
from engine.table import Table
from tui.apps.parlour import ParlourApp
from tui.apps.replay import ReplayApp
from tui.cli import main
from tui.screens.menu import MenuScreen
from tui.screens.replay import ReplayScreen, printable
from tui.screens.stats import StatsScreen
from tui.settings import file as tui_settings

T = TypeVar("T")

BOUND = 60.0
"""Seconds a reader is given before the test calls it stuck (it takes milliseconds; a blocked one never ends)."""

HOSTILE = "Ann\x1b]0;owned\x07\x1b[2J"
"""A name that would set the terminal's title and clear the screen if it reached the terminal."""


def bounded(call: Callable[[], T]) -> T:
    """``call()`` on a thread of its own, joined with a bound: a reader that blocks fails the test, never hangs it."""
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(("value", call()))
        except BaseException as err:  # (handed back to the test's thread)
            out.append(("error", err))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(BOUND)
    assert not thread.is_alive(), "the reader is stuck (it waits on what is not a regular file)"
    kind, value = out[0]
    if kind == "error":
        raise value
    return value  # type: ignore[no-any-return]


def make_odd(path: Path, kind: str) -> None:
    """Put something that is not a regular file at ``path``: a FIFO with no writer, a directory, or a device (a
    symbolic link to /dev/zero, which never ends)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    else:
        path.symlink_to("/dev/zero")


ODD = [
    pytest.param("fifo", "FIFO", id="fifo"),
    pytest.param("directory", "directory", id="directory"),
    pytest.param("device", "device", id="device"),
]


def finished_table(names: tuple[str, ...] = ("Ann", "Ben", "Cy")) -> Table:
    table = Table.create("screw", players=3, seed=5, bots=[None, "easy", "easy"], names=names)
    return play_out(table)


# -- point 3: only regular files are read, with a size cap -----------------------------------------------------------
@pytest.mark.parametrize(("kind", "words"), ODD)
def test_a_save_that_is_not_a_file_is_moved_aside_unread(kind: str, words: str) -> None:
    path = autosave_path()
    make_odd(path, kind)
    found = bounded(lambda: load_match(path))
    assert isinstance(found, SaveProblem) and found.aside is not None
    assert words in found.message and found.message.count(".") >= 1 and "\n" not in found.message
    assert not os.path.lexists(path) and os.path.lexists(found.aside)
    assert bounded(lambda: load_match(path)) is None  # the next start has nothing to offer, and does not wait


@pytest.mark.parametrize(("kind", "words"), ODD)
def test_settings_that_are_not_a_file_are_moved_aside_unread(kind: str, words: str) -> None:
    path = tui_settings.settings_path()
    make_odd(path, kind)
    settings, problem = bounded(lambda: tui_settings.load(path))
    assert settings == tui_settings.Settings() and problem is not None and words in problem
    assert not os.path.lexists(path) and os.path.lexists(path.with_name(path.name + ".bad"))


def test_a_lan_journal_that_is_a_fifo_is_moved_aside_unread() -> None:
    path = host_dir() / "NGQC.jsonl"
    make_odd(path, "fifo")
    found = bounded(lambda: load_saved(path))
    assert isinstance(found, SaveProblem) and "FIFO" in found.message
    assert not os.path.lexists(path)


def test_a_save_larger_than_the_cap_is_moved_aside_unread() -> None:
    path = autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        file.truncate(MAX_BYTES + 1)  # sparse: nothing is written, nothing would be read
    with pytest.raises(TooLargeError):
        read_regular(path, MAX_BYTES)
    found = load_match(path)
    assert isinstance(found, SaveProblem) and "larger than 64 MB" in found.message
    assert not path.exists()


def test_read_regular_says_what_sits_there() -> None:
    where = autosave_path().parent
    make_odd(where / "pipe", "fifo")
    with pytest.raises(NotAFileError, match=r"^it is a FIFO \(a named pipe\), not a file$"):
        bounded(lambda: read_regular(where / "pipe", 100))
    (where / "small").write_bytes(b"12345")
    assert read_regular(where / "small", 5) == b"12345"
    with pytest.raises(TooLargeError):
        read_regular(where / "small", 4)


@pytest.mark.parametrize(("kind", "words"), ODD)
def test_a_replay_that_is_not_a_file_is_refused_in_one_sentence(kind: str, words: str) -> None:
    path = replays_dir() / "2026-01-01-000000-screw-5.jsonl"
    make_odd(path, kind)
    with pytest.raises(ReplayError) as caught:
        bounded(lambda: verify_replay(path))
    assert words in str(caught.value) and str(caught.value).endswith(".")
    with pytest.raises(ReplayError):
        bounded(lambda: ReplayCursor.open(path))
    info = bounded(lambda: replay_info(path))
    assert info.problem is not None and words in info.problem
    assert bounded(lambda: is_seen_file(path)) is False
    kept = keep_replay(finished_table())
    listed = bounded(lambda: list_replays())
    assert [info.path for info in listed] == [kept]  # what is not a file is not listed as a game


def test_a_replay_without_a_newline_is_refused_a_line_at_a_time() -> None:
    """A file of zeros and no newline, six times the line cap: refused once a line's cap is read, the memory it
    took a small multiple of the cap rather than the file's size."""
    path = replays_dir() / "no-newline.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        file.truncate(6 * MAX_LINE)
    tracemalloc.start()
    try:
        with pytest.raises(ReplayError, match=r"Line 1 of .* is far too long for a replay"):
            verify_replay(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 3 * MAX_LINE < 6 * MAX_LINE
    # A good header, then a line with no end: refused at that line.
    good = keep_replay(finished_table())
    head = good.read_bytes().split(b"\n", 1)[0] + b"\n"
    with path.open("wb") as file:
        file.write(head)
        file.truncate(len(head) + 2 * MAX_LINE)
    with pytest.raises(ReplayError, match=r"Line 2 of .* is far too long"):
        verify_replay(path)


@pytest.mark.parametrize("companion", ["", "-wal"])
def test_statistics_that_are_not_a_file_are_moved_aside_and_begun_again(companion: str) -> None:
    path = stats_path()
    make_odd(path.with_name(path.name + companion), "fifo")
    if companion:
        record_game(finished_table(), 0, path=path.with_name("other.sqlite3"))
        path.with_name("other.sqlite3").rename(path)
    report = bounded(lambda: summary())
    assert report["problem"] is not None and "FIFO" in report["problem"] and "moved to" in report["problem"]
    assert os.path.lexists(path.with_name(path.name + ".bad" + companion))
    assert record_game(finished_table(), 0) is None
    again = summary()
    assert again["problem"] is None and again["games"] == 1


# -- point 4: everything read from a file is checked as a stranger's input --------------------------------------------
def test_a_save_whose_name_holds_escape_codes_is_moved_aside() -> None:
    table = Table.create("screw", players=3, seed=4, bots=[None, "easy", "easy"], names=[HOSTILE, "Ben", "Cy"])
    table.run()
    path = autosave_path()
    save_match(path, table)
    found = load_match(path)
    assert isinstance(found, SaveProblem) and "control characters" in found.message
    assert "\x1b" not in found.message and not path.exists()


def test_a_replay_whose_name_holds_escape_codes_never_reaches_the_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    good = keep_replay(finished_table())
    bad = keep_replay(finished_table(names=(HOSTILE, "Ben", "Cy")))
    infos = {info.path: info for info in list_replays()}
    assert infos[good].problem is None and infos[good].players == ("Ann", "Ben", "Cy")
    problem = infos[bad].problem
    assert problem is not None and "control characters" in problem
    assert infos[bad].players == ()
    assert main(["replays"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "Ann, Ben, Cy" in out
    with pytest.raises(ReplayError, match="control characters") as caught:
        verify_replay(bad)
    assert "\x1b" not in str(caught.value)
    with pytest.raises(ReplayError):
        ReplayCursor.open(bad)


def chase_header() -> dict[str, Any]:
    table = Table.create("chase", players=3, seed=9, bots=[None, "easy", "hard"], variants=["high-card-pays"])
    return Header.of(table).to_data()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"variants": ["no-such-rule"]}, "its variant 'no-such-rule' is not one of"),
        ({"variants": ["high-card-pays", "high-card-pays"]}, "names a variant twice"),
        ({"variants": ["on-honour"]}, "cannot be played together"),
        ({"preset": "nonsense"}, "its preset 'nonsense' is not one of"),
        ({"preset": "screw"}, "not the one its options were made from"),
        ({"preset": 3}, "its preset 3 is not one of"),
        ({"names": ["Ann", HOSTILE, "Cy"]}, "control characters"),
        ({"names": ["Ann", "", "Cy"]}, "at least one character"),
        ({"names": ["Ann", "\u202eevil", "Cy"]}, "control characters"),
    ],
)
def test_a_header_is_checked_against_the_registry_and_the_name_rules(change: dict[str, Any], words: str) -> None:
    data = chase_header() | change
    with pytest.raises(RecordError) as caught:
        Header.from_data(data)
    assert words in str(caught.value) and "\x1b" not in str(caught.value)
    assert Header.from_data(chase_header()).variants == ("high-card-pays",)


def seen_header() -> dict[str, Any]:
    table = Table.create("screw", players=3, seed=5, bots=[None, "easy", "easy"], names=["Ann", "Ben", "Cy"])
    header = SeenHeader(
        game="screw",
        preset=table.preset,
        variants=(),
        options=table.options,
        names=table.names,
        levels=(None, "easy", "easy"),
        seat=0,
        host="Parlour",
        table="NGQC",
        match="3fa2",
        started_at=table.started_at,
    )
    return header.to_data()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"host": HOSTILE}, "its host's name"),
        ({"table": "NG\x1b[2JQC"}, "is not a table's code"),
        ({"match": "m\x1b[2J"}, "is not a match's identity"),
        ({"names": ["Ann", HOSTILE, "Cy"]}, "control characters"),
        ({"variants": ["taiwan"]}, "its variant 'taiwan' is not one of"),
    ],
)
def test_a_seats_record_header_is_checked_as_well(change: dict[str, Any], words: str) -> None:
    assert SeenHeader.from_data(seen_header()).host == "Parlour"
    with pytest.raises(RecordError) as caught:
        SeenHeader.from_data(seen_header() | change)
    assert words in str(caught.value)


def damage_statistics() -> list[int]:
    """Two good games counted, then four rows a stranger wrote: their ids."""
    for seed in (1, 2):
        assert record_game(play_out(bot_match("big2", 2, [None, "easy"], deals=1, seed=seed)), 0) is None
    conn = sqlite3.connect(stats_path())
    try:
        good = conn.execute("SELECT * FROM games ORDER BY id LIMIT 1").fetchone()
        columns = [row[1] for row in conn.execute("PRAGMA table_info(games)")]
        changes = [
            {"counts": "[1, 2]"},
            {"counts": "not json"},
            {"game": "poker"},
            {"level": "easy\x1b[2J"},
        ]
        ids = []
        for number, change in enumerate(changes):
            row = dict(zip(columns, good, strict=True)) | change | {"id": None, "match": f"damaged {number}"}
            cursor = conn.execute(
                f"INSERT INTO games ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", list(row.values())
            )
            assert cursor.lastrowid is not None
            ids.append(cursor.lastrowid)
        conn.commit()
    finally:
        conn.close()
    return ids


def test_a_damaged_statistics_row_is_said_and_left_out(capsys: pytest.CaptureFixture[str]) -> None:
    ids = damage_statistics()
    report = summary()
    assert report["games"] == 2 and report["skipped"] == 4
    assert [group["games"] for group in report["groups"]] == [2]
    problem = report["problem"]
    assert problem is not None and problem.startswith("4 rows of the statistics")
    assert f"row {ids[0]}: its counts are not a JSON object" in problem and problem.endswith("the rest are shown.")
    group = report["groups"][0]
    assert len(history(group["game"], group["preset"], group["level"])) == 2
    assert main(["stats"]) == 0
    shown = capsys.readouterr()
    assert "4 rows" in shown.err and "unexpected error" not in shown.err + shown.out
    assert "\x1b" not in shown.out + shown.err and "easy" in shown.out
    assert main(["stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["skipped"] == 4


async def test_the_statistics_screen_shows_the_rows_that_can_be_read() -> None:
    damage_statistics()
    app = ParlourApp(pace=0)
    async with app.run_test(size=(110, 40)) as pilot:
        await pilot.pause()
        app.show_stats()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        assert await until(pilot, lambda: not screen.reading)
        assert screen.query_one(DataTable).row_count == 1
        assert "4 rows" in str(screen.query_one("#stats-note", Static).render())


def unknown_schema(path: Path, version: int, table: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    try:
        conn.execute(table)
        conn.execute(f"PRAGMA user_version = {version}")
        conn.commit()
    finally:
        conn.close()


@pytest.mark.parametrize(
    ("version", "table", "words"),
    [
        pytest.param(0, "CREATE TABLE games (x INTEGER)", "already exists", id="tables-at-version-0"),
        pytest.param(-3, "CREATE TABLE notes (x INTEGER)", "version -3", id="below-zero"),
        pytest.param(SCHEMA, "CREATE TABLE games (id INTEGER, won INTEGER)", "it has no", id="columns-missing"),
    ],
)
def test_statistics_of_an_unknown_older_schema_are_moved_aside(version: int, table: str, words: str) -> None:
    path = stats_path()
    unknown_schema(path, version, table)
    report = summary()
    assert (
        report["problem"] is not None
        and words in report["problem"]
        and "moved to stats.sqlite3.bad" in report["problem"]
    )
    assert path.with_name("stats.sqlite3.bad").exists()
    assert record_game(finished_table(), 0) is None
    again = summary()
    assert again["problem"] is None and again["games"] == 1


# -- the app and the replay viewer -------------------------------------------------------------------------------------
async def test_the_app_starts_past_fifos_in_place_of_its_files() -> None:
    make_odd(autosave_path(), "fifo")
    make_odd(tui_settings.settings_path(), "fifo")
    app = ParlourApp(pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(200):  # (bounded: the menu is up within a few frames)
            if isinstance(app.screen, MenuScreen):
                break
            await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert not os.path.lexists(autosave_path()) and not os.path.lexists(tui_settings.settings_path())
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert not app.is_running


def test_printable_writes_control_characters_out() -> None:
    assert printable(HOSTILE) == "Ann\\x1b]0;owned\\x07\\x1b[2J"
    assert printable("Ann") == "Ann" and printable("\u202e") == "\\u202e"


async def test_the_replay_viewer_never_sends_a_name_to_the_terminal_raw() -> None:
    """A cursor made in memory (a file with such a name is refused before it gets here): what the viewer shows
    holds each control character written out."""
    table = finished_table()
    header = Header.of(table)
    hostile = Header(**(vars(header) | {"names": (HOSTILE, "Ben", "Cy")}))
    cursor = ReplayCursor(hostile, table.actions)
    app = ReplayApp(cursor)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert "Ann\\x1b" in screen.table_text  # the deal: every hand shown, the name written out
        for _ in range(cursor.total):
            shown = screen.move_text + screen.table_text
            assert "\x1b" not in shown and "\x07" not in shown
            await pilot.press("right")
        assert cursor.position == cursor.total
