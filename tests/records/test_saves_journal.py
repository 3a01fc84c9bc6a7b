"""A LAN host's journals (engine.records.saves.Journals): the set-up once, then one line per action, written and
synced on the journals' own thread; read back exactly, a last line cut short left out, anything else wrong moved
aside with one sentence; a whole-file save of before still loads."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from records_helpers import bot_match, picture, play_out

from engine.records import saves
from engine.records.saves import Journals, SaveProblem, journal_text, load_saved, save_match
from engine.table import Table


def started(game: str = "big2", actions: int = 20) -> Table:
    players = 2 if game == "trash" else 4
    return play_out(bot_match(game, players, [None] + ["easy"] * (players - 1)), limit=actions)


def sentence(problem: object) -> str:
    assert isinstance(problem, SaveProblem)
    assert "\n" not in problem.message and problem.message.endswith(".") and problem.message.count(". ") == 0
    return problem.message


@pytest.mark.parametrize("game", ["screw", "chase", "big2", "trash", "rank"])
def test_a_journal_written_move_by_move_is_read_back_exactly(game: str, tmp_path: Path) -> None:
    table = started(game, actions=0)
    path = tmp_path / "BCDF.jsonl"
    journals = Journals()
    journals.begin(path, table, {"people": ["Ann"]})
    saved = 0
    for _ in range(12):
        play_out(table, limit=len(table.actions) + 3)
        journals.append(path, table.actions[saved:])
        saved = len(table.actions)
    assert journals.close()
    found = load_saved(path)
    assert isinstance(found, tuple)
    again, extra = found
    assert picture(again) == picture(table) and extra == {"people": ["Ann"]}
    assert picture(play_out(again)) == picture(play_out(table)), "it plays on identically"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["BCDF.jsonl"]  # no temporary file left


def test_the_writes_and_syncs_are_the_journals_threads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced_on: list[str] = []
    real_sync = saves._sync

    def sync(handle: int) -> None:
        synced_on.append(threading.current_thread().name)
        real_sync(handle)

    monkeypatch.setattr(saves, "_sync", sync)
    table = started("screw", actions=2)
    path = tmp_path / "BCDF.jsonl"
    journals = Journals()
    journals.begin(path, table, {})
    play_out(table, limit=6)
    journals.append(path, table.actions[2:])
    assert journals.flush()
    assert synced_on and set(synced_on) == {"parlour-journals"}
    assert len(path.read_text(encoding="utf-8").splitlines()) == 1 + len(table.actions)


def test_a_last_line_cut_short_is_left_out(tmp_path: Path) -> None:
    table = started("big2", actions=10)
    path = tmp_path / "BCDF.jsonl"
    text = journal_text(table, {})
    lines = text.splitlines(keepends=True)
    for torn in (lines[-1][:7], lines[-1][:-1], '[0,{"ga\n'):
        path.write_text("".join(lines[:-1]) + torn, encoding="utf-8")
        found = load_saved(path)
        assert isinstance(found, tuple), found
        assert found[0].actions == table.actions[:-1], "the moves before it stand"


def test_a_later_set_up_line_wins(tmp_path: Path) -> None:
    table = started("screw", actions=3)
    path = tmp_path / "BCDF.jsonl"
    journals = Journals()
    journals.begin(path, table, {"people": ["Ann", "Bob"]})
    journals.setup(path, table, {"people": ["Ann", None]})
    play_out(table, limit=5)
    journals.append(path, table.actions[3:])
    assert journals.close()
    found = load_saved(path)
    assert isinstance(found, tuple) and found[1] == {"people": ["Ann", None]}
    assert found[0].actions == table.actions


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda lines: [lines[0], "not json\n", *lines[1:]], "its line 2 is not JSON"),
        (lambda lines: ['{"header": 1}\n', *lines[1:]], "it is not a saved game"),
        (lambda lines: [lines[0], '{"what": 1}\n', *lines[1:]], "is neither an action nor a set-up"),
        (lambda lines: [lines[0].replace('"journal":1', '"journal":9'), *lines[1:]], "journal format 9"),
        (lambda lines: [], "it is empty"),
    ],
    ids=["middle-line", "no-set-up", "stray-object", "other-format", "empty"],
)
def test_a_damaged_journal_is_moved_aside_with_one_sentence(damage: object, reason: str, tmp_path: Path) -> None:
    table = started("big2", actions=6)
    path = tmp_path / "BCDF.jsonl"
    lines = journal_text(table, {}).splitlines(keepends=True)
    text = "".join(damage(lines))  # type: ignore[operator]
    path.write_text(text, encoding="utf-8")
    message = sentence(load_saved(path))
    assert reason in message and "moved to BCDF.jsonl.bad" in message
    assert (tmp_path / "BCDF.jsonl.bad").read_text(encoding="utf-8") == text
    assert not path.exists()


def test_an_action_the_engine_refuses_is_a_damaged_journal(tmp_path: Path) -> None:
    table = started("big2", actions=6)
    path = tmp_path / "BCDF.jsonl"
    lines = journal_text(table, {}).splitlines(keepends=True)
    path.write_text("".join([*lines, lines[-1]]), encoding="utf-8")  # the last move twice: not its turn again
    assert "is refused" in sentence(load_saved(path))


def test_a_whole_file_save_of_before_still_loads(tmp_path: Path) -> None:
    table = started("rank", actions=15)
    path = tmp_path / "BCDF.json"
    save_match(path, table, {"people": ["Ann"]})
    found = load_saved(path)
    assert isinstance(found, tuple) and found[0].actions == table.actions and found[1] == {"people": ["Ann"]}


def test_begin_replaces_the_old_save_and_remove_removes(tmp_path: Path) -> None:
    table = started("screw", actions=4)
    old = tmp_path / "BCDF.json"
    save_match(old, table, {})
    path = tmp_path / "BCDF.jsonl"
    journals = Journals()
    journals.begin(path, table, {}, replaces=old)
    assert journals.flush()
    assert not old.exists() and json.loads(path.read_text(encoding="utf-8").splitlines()[0])["journal"] == 1
    journals.remove(path)
    journals.append(path, table.actions)  # (nothing should come after a remove, but it must not bring it back...)
    journals.remove(path)
    assert journals.close()
    assert list(tmp_path.iterdir()) == []


def test_a_journal_that_cannot_be_written_takes_no_more_lines(tmp_path: Path) -> None:
    table = started("screw", actions=2)
    where = tmp_path / "file"
    where.write_text("a file, not a directory", encoding="utf-8")
    journals = Journals()
    path = where / "BCDF.jsonl"
    journals.begin(path, table, {})
    journals.append(path, table.actions)
    assert journals.close()
    assert len(journals.problems) == 1 and journals.problems[0].startswith(f"The table could not be saved to {path}")


def test_host_saves_lists_journals_and_saves_of_before() -> None:
    from engine.records import paths

    table = started("screw", actions=2)
    journals = Journals()
    journals.begin(paths.host_dir() / "QRST.jsonl", table, {})
    assert journals.close()
    save_match(paths.host_dir() / "BCDF.json", table)
    (paths.host_dir() / "QRST.jsonl.bad").write_text("x")
    assert [p.name for p in paths.host_saves()] == ["BCDF.json", "QRST.jsonl"]
    assert all(isinstance(load_saved(p), tuple) for p in paths.host_saves())
