"""Saves: written atomically after every action, resumed exactly; a file that cannot be used is moved aside (never
deleted) with one sentence; a long match saves well within a frame."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from records_helpers import bot_match, picture, play_out

from engine import codec
from engine.records import paths
from engine.records.saves import SaveProblem, dumps_match, load_match, save_match, store_match
from engine.table import Table


def started(game: str = "big2", actions: int = 20) -> Table:
    """A match of ``game`` with a person in seat 0, ``actions`` actions in."""
    players = 2 if game == "trash" else 4
    return play_out(bot_match(game, players, [None] + ["easy"] * (players - 1)), limit=actions)


def only_sentence(problem: object) -> str:
    assert isinstance(problem, SaveProblem)
    message = problem.message
    assert "\n" not in message and message.endswith(".") and message.count(". ") == 0, message
    return message


@pytest.mark.parametrize("game", ["screw", "chase", "big2", "trash", "rank"])
def test_a_saved_match_is_resumed_exactly(game: str, tmp_path: Path) -> None:
    table = started(game)
    path = tmp_path / "autosave.json"
    save_match(path, table)
    resumed = load_match(path)
    assert isinstance(resumed, Table)
    assert picture(resumed) == picture(table)
    # It plays on identically: the same bots, the same seed for what is to come.
    assert picture(play_out(resumed)) == picture(play_out(table))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["autosave.json"]  # no temporary file left


def test_each_save_holds_every_action_so_far_and_the_cache_follows(tmp_path: Path) -> None:
    table = started("rank", actions=0)
    path = tmp_path / "autosave.json"
    for _ in range(30):
        play_out(table, limit=len(table.actions) + 1)
        save_match(path, table)
        data = json.loads(path.read_text(encoding="utf-8"))
        assert len(data["actions"]) == len(table.actions)
    assert dumps_match(table) == path.read_text(encoding="utf-8")
    fresh = load_match(path)
    assert isinstance(fresh, Table) and dumps_match(fresh) == dumps_match(table)


def test_the_data_directory_is_the_tests_own() -> None:
    """tests/conftest.py points $PARLOUR_DATA_DIR at a directory of each test's own: nothing reaches the real one."""
    where = paths.data_dir()
    assert "parlour-data" in where.parts and str(where) == os.environ[paths.DATA_ENV]
    assert paths.autosave_path() == where / "autosave.json"
    assert paths.host_save_path("ngqc") == where / "host" / "NGQC.json"
    assert paths.replays_dir() == where / "replays" and paths.stats_path() == where / "stats.sqlite3"


@pytest.mark.parametrize("code", ["../etc", "", "AB/C", "a" * 40, 7])
def test_a_host_save_is_named_by_letters_only(code: object) -> None:
    with pytest.raises(Exception, match="a table code is a few letters"):
        paths.host_save_path(code)  # type: ignore[arg-type]


def test_host_saves_lists_the_tables(tmp_path: Path) -> None:
    for code in ("QRST", "BCDF"):
        save_match(paths.host_save_path(code), started("screw", 2))
    (paths.host_dir() / "notes.txt").write_text("x")
    assert [p.name for p in paths.host_saves()] == ["BCDF.json", "QRST.json"]
    assert all(isinstance(load_match(p), Table) for p in paths.host_saves())


def test_no_save_is_nothing_to_resume(tmp_path: Path) -> None:
    assert load_match(tmp_path / "autosave.json") is None


def save_text(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "autosave.json"
    save_match(path, started())
    return path, path.read_text(encoding="utf-8")


def test_a_truncated_save_is_moved_aside_with_one_sentence(tmp_path: Path) -> None:
    path, text = save_text(tmp_path)
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    message = only_sentence(load_match(path))
    assert message == (
        f"The saved game {path} could not be resumed (it is cut short or is not JSON), "
        "so it was moved to autosave.json.bad."
    )
    assert not path.exists() and (tmp_path / "autosave.json.bad").read_text(encoding="utf-8") == text[: len(text) // 2]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"\x00\xff\xfe garbage \x80", "it is not UTF-8 text"),
        (b"hello, world", "it is cut short or is not JSON"),
        (b"", "it is cut short or is not JSON"),
        (b"[1, 2, 3]", "it is not a saved game"),
        (b'{"header": {}, "actions": {}}', "it is not a saved game"),
        (b'{"header": 5, "actions": []}', "its header is not a JSON object"),
        (b'{"header": {"format": "1"}, "actions": []}', "record format '1'"),
        (b'{"a": NaN}', "it is cut short or is not JSON"),
    ],
)
def test_a_garbage_save_is_moved_aside_never_deleted(tmp_path: Path, content: bytes, reason: str) -> None:
    path = tmp_path / "autosave.json"
    path.write_bytes(content)
    message = only_sentence(load_match(path))
    assert reason in message and "moved to autosave.json.bad" in message
    assert (tmp_path / "autosave.json.bad").read_bytes() == content


def test_another_format_is_refused_and_moved_aside_after_the_last_one(tmp_path: Path) -> None:
    path, text = save_text(tmp_path)
    data = json.loads(text)
    data["header"]["format"] = 99
    (tmp_path / "autosave.json.bad").write_text("an older bad save")
    path.write_text(json.dumps(data), encoding="utf-8")
    problem = load_match(path)
    message = only_sentence(problem)
    assert "another version of Parlour (record format 99, this version reads format 1)" in message
    assert isinstance(problem, SaveProblem) and problem.aside == tmp_path / "autosave.json.bad-2"
    assert (tmp_path / "autosave.json.bad").read_text() == "an older bad save"  # never overwritten


def test_actions_that_no_longer_replay_are_refused(tmp_path: Path) -> None:
    path, text = save_text(tmp_path)
    data = json.loads(text)
    data["actions"][5] = data["actions"][4]
    path.write_text(json.dumps(data), encoding="utf-8")
    message = only_sentence(load_match(path))
    assert "(action 6 (seat" in message and "is refused" in message and "autosave.json.bad" in message


def test_an_action_that_cannot_be_read_is_refused(tmp_path: Path) -> None:
    path, text = save_text(tmp_path)
    data = json.loads(text)
    data["actions"][2] = [1, {"game": "big2", "type": "Nonsense"}]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert "an action cannot be read" in only_sentence(load_match(path))


def test_a_failed_save_leaves_the_previous_one_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = started()
    path = tmp_path / "autosave.json"
    save_match(path, table)
    before = path.read_bytes()
    play_out(table, limit=len(table.actions) + 3)

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    assert store_match(path, table) == f"The game could not be saved to {path} (No space left on device)."
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["autosave.json"]


def test_a_save_that_cannot_be_read_or_moved_is_said_so(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    path.mkdir()
    problem = load_match(path)
    assert "it is a directory" in only_sentence(problem)


def test_a_long_match_saves_only_its_new_action_each_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """3,000 actions of Rank: each save after an action encodes only that action, and writes the file whole (how
    long it takes is the benchmarks' matter, not a test's)."""
    table = play_out(bot_match("rank", 4, ["easy"] * 4, deals=10, seed=3), limit=2_990)
    path = tmp_path / "autosave.json"
    save_match(path, table)  # the first save encodes every action so far
    encoded: list[object] = []
    dumps = codec.dumps

    def counted(value: Any) -> str:
        encoded.append(value)
        return dumps(value)

    monkeypatch.setattr(codec, "dumps", counted)
    while len(table.actions) < 3_000:
        play_out(table, limit=len(table.actions) + 1)
        before = len(encoded)
        save_match(path, table)
        assert encoded[before:] == [table.actions[-1][1]], "a save encodes the new action, and nothing else"
    assert len(table.actions) == 3_000
    assert len(json.loads(path.read_text(encoding="utf-8"))["actions"]) == 3_000
