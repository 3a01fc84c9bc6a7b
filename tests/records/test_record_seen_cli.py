"""A LAN seat's record at the command line and in the viewer: ``parlour replays`` lists it, ``parlour replay FILE``
steps through it, ``--check`` checks it (exit 0, 1 with the first difference, 2 for a file that is no record), and
``parlour stats`` shows its opponents apart from local games."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from records_helpers import bot_match, play_out, until
from test_record_seen import host_replay, lines_of, seen_of, write_lines
from textual.widgets import DataTable, Static

from engine.match import MatchOver
from engine.records import finish_match, paths
from engine.records.finish import finish_seen
from engine.records.seen import SeenCursor, keep_seen
from engine.records.stats import history, record_game, summary
from engine.table import Table
from tui.apps.parlour import ParlourApp
from tui.apps.replay import ReplayApp
from tui.cli import main
from tui.screens.replay import SeenReplayScreen
from tui.screens.stats import StatsScreen, rate_chart, running_rates
from tui.words.faces import card_text


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def finished() -> Table:
    return play_out(bot_match("big2", 3, ["easy"] * 3, deals=1, seed=4))


def test_check_against_the_hosts_replay_and_on_its_own(capsys: pytest.CaptureFixture[str]) -> None:
    table = finished()
    record = seen_of(table, 1)
    mine = keep_seen(record)
    code, out, err = run(capsys, "replay", mine.name, "--check")  # a name that `parlour replays` lists
    assert (code, err) == (0, "")
    assert out.startswith(f"checked on its own: the host's replay is not here; {len(record.events)} events of Big")
    kept = host_replay(table, paths.replays_dir())
    code, out, err = run(capsys, "replay", str(mine), "--check")
    assert (code, err) == (0, "")
    shows = f"as the host's replay {kept.name} shows them to Ben (seat 1)"
    assert out == f"identical: {len(record.events)} events, {shows}\n"
    lines = lines_of(mine)
    index = next(i for i, line in enumerate(lines) if i and line["event"]["type"] == "Played")
    lines[index]["event"]["left"] += 1
    write_lines(mine, lines)
    code, out, err = run(capsys, "replay", str(mine), "--check")
    assert (code, err) == (1, "")
    assert out.startswith(f"different: Event {index} (Played): expected left ")


def test_a_record_that_is_no_record_is_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    mine = keep_seen(seen_of(finished(), 0))
    lines = lines_of(mine)
    lines[0]["seat"] = "Ann"
    write_lines(mine, lines)
    for args in (["--check"], []):
        code, out, err = run(capsys, "replay", str(mine), *args)
        assert (code, out) == (2, "")
        assert err.startswith("parlour: ") and "is not the record of a LAN game" in err and err.count("\n") == 1


def test_replays_lists_it_and_stats_show_its_opponents(capsys: pytest.CaptureFixture[str]) -> None:
    table = finished()
    assert finish_match(play_out(bot_match("big2", 3, [None, "easy", "easy"], deals=1, seed=4)), 0).problems == []
    table.seats[2].level = None  # Cleo is a person
    done = finish_seen(seen_of(table, 0))
    assert done.problems == [] and done.replay is not None
    code, out, err = run(capsys, "replays")
    assert (code, err) == (0, "")
    line = next(line for line in out.splitlines() if done.replay.name in line)
    assert "as Ana (seat 0) saw it at Parlour, table NGQC" in line
    code, out, err = run(capsys, "stats")
    assert (code, err) == (0, "")
    rows = out.splitlines()[1:]
    assert len(rows) == 2 and rows[0].split()[2] == "easy"
    assert "LAN: people: Cleo; bots: easy" in rows[1]
    code, out, err = run(capsys, "stats", "--json")
    groups = json.loads(out)["groups"]
    assert [(g["kind"], g["level"]) for g in groups] == [("local", "easy"), ("lan", "people: Cleo; bots: easy")]


async def test_the_viewer_steps_through_what_the_seat_saw() -> None:
    table = finished()
    record = seen_of(table, 0)
    cursor = SeenCursor.open(keep_seen(record))
    app = ReplayApp(cursor)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SeenReplayScreen)
        assert cursor.position == 0 and "Before the first event" in screen.move_text
        # Three events in: the deal opened, the lead said, and Ana's own hand shown to her alone.
        for _ in range(3):
            await pilot.press("right")
        assert cursor.position == 3
        dealt = record.events[2]
        mine = [card_text(card) for card in getattr(dealt, "cards")]  # noqa: B009 (a game's own event)
        assert all(text in screen.move_text for text in mine)
        assert "Shown to you alone" in screen.table_text and all(text in screen.table_text for text in mine)
        # Nobody else's cards are in the record, so none can be shown: the other seats' deals name none.
        others = [e for e in table.state.history if type(e).__name__ == "HandDealt" and e.audience != {0}]
        hidden = {card_text(card) for e in others for card in getattr(e, "cards")}  # noqa: B009
        before_play = screen.table_text
        assert not any(f" {text}" in before_play.split("Shown to you alone")[1] for text in hidden - set(mine))
        await pilot.press("end")
        assert cursor.position == cursor.total and isinstance(record.events[-1], MatchOver)
        assert "Totals after the last round" in screen.table_text
        await pilot.press("left")
        assert cursor.position == cursor.total - 1
        await pilot.press("home")
        assert cursor.position == 0
        await pilot.press("escape")
        await pilot.pause()
    assert not app.is_running


def test_parlour_replay_opens_the_viewer_only_with_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    mine = keep_seen(seen_of(finished(), 0))
    code, out, err = run(capsys, "replay", str(mine))
    assert code == 2 and out == "" and err.count("\n") == 1  # no terminal under pytest: one sentence


def test_a_path_that_is_no_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "replay", str(tmp_path / "nothing.jsonl"), "--check")
    assert (code, out) == (2, "") and err.startswith("parlour: there is no replay")


async def test_the_statistics_screen_shows_a_lan_row_apart_with_its_own_charts() -> None:
    local = play_out(bot_match("big2", 3, [None, "easy", "easy"], deals=1, seed=4))
    assert record_game(local, 0) is None
    for seed in (5, 6):
        lan = play_out(bot_match("big2", 3, ["easy"] * 3, deals=1, seed=seed))
        assert record_game(seen_of(lan, 0, match=f"m{seed}")) is None
    app = ParlourApp(pace=0)
    async with app.run_test(size=(120, 40)) as pilot:
        app.show_stats()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        assert await until(pilot, lambda: not screen.reading and screen.charted == 0)
        table = screen.query_one(DataTable)
        rows = [[str(cell) for cell in table.get_row_at(n)] for n in range(table.row_count)]
        assert [(row[1], row[2]) for row in rows] == [("easy", "1"), ("LAN: bots: easy x2", "2")]
        await pilot.press("down")
        assert await until(pilot, lambda: screen.charted == 1)
        lan_group = summary()["groups"][1]
        games = history("big2", lan_group["preset"], lan_group["level"], kind="lan")
        assert len(games) == 2
        assert str(screen.query_one("#stats-rate", Static).render()) == rate_chart(running_rates(games))
        assert "against LAN: bots: easy x2: 2 games" in str(screen.query_one("#stats-detail", Static).render())


@pytest.mark.parametrize(
    ("kind", "words"),
    [("fifo", "a FIFO (a named pipe)"), ("directory", "a directory"), ("device", "a device")],
)
def test_a_replay_that_is_not_a_file_is_said_as_what_it_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str, words: str
) -> None:
    path = tmp_path / "odd.jsonl"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    else:
        path.symlink_to("/dev/zero")
    for check in ((), ("--check",)):
        code, out, err = run(capsys, "replay", str(path), *check)
        assert (code, out) == (2, "") and err == f"parlour: {path} is not a replay: it is {words}, not a file\n"
