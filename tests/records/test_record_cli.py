"""``parlour replays``, ``parlour replay FILE --check`` and ``parlour stats``: their output, exit status, and one
sentence (never a traceback) for whatever is wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from records_helpers import bot_match, play_out

from engine.records import finish_match, paths
from engine.table import Table
from tui.cli import main


def finished(game: str, seed: int) -> Table:
    players = 2 if game == "trash" else 3
    deals = 1 if game in ("big2", "rank") else None
    return play_out(bot_match(game, players, [None] + ["easy"] * (players - 1), seed=seed, deals=deals))


def keep(*games: tuple[str, int]) -> list[Path]:
    kept = []
    for game, seed in games:
        done = finish_match(finished(game, seed), 0)
        assert done.problems == [] and done.replay is not None
        kept.append(done.replay)
    return kept


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_replays_lists_the_kept_games_newest_first(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "replays")
    assert (code, err) == (0, "")
    assert out == f"No games kept yet: each finished game is kept in {paths.replays_dir()}.\n"
    kept = keep(("screw", 1), ("big2", 2), ("trash", 3))
    code, out, err = run(capsys, "replays")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"3 games kept in {paths.replays_dir()}, newest first:"
    assert lines[1].split() == ["date", "game", "players", "result", "file"]
    assert [line.split()[-1] for line in lines[2:]] == [path.name for path in reversed(kept)]
    assert "Trash" in lines[2] and "You, Ben" in lines[2] and " won " in lines[2]
    assert "Screw Your Neighbor" in lines[4] and "You, Ben, Cleo" in lines[4]


@pytest.mark.parametrize("game", ["screw", "chase", "big2", "trash", "rank"])
def test_replay_check_says_identical(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    table = finished(game, 4)
    (path,) = keep((game, 4))
    code, out, err = run(capsys, "replay", str(path), "--check")
    assert (code, err) == (0, "")
    assert out == f"identical: {len(table.actions)} actions, {len(table.state.history)} events\n"
    # A kept game's name alone is enough (what `parlour replays` shows).
    assert run(capsys, "replay", path.name, "--check")[:2] == (0, out)


def test_replay_check_with_an_edited_event_says_the_first_difference(capsys: pytest.CaptureFixture[str]) -> None:
    (path,) = keep(("rank", 6))
    lines = path.read_text(encoding="utf-8").splitlines()
    step = json.loads(lines[1 + 12])
    step["events"][-1]["seat"] = step["events"][-1].get("seat", 0) + 1
    lines[1 + 12] = json.dumps(step)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path), "--check")
    assert (code, err) == (1, "")
    assert out.startswith("different: Action 12 (seat ") and out.count("\n") == 1 and " but found " in out


@pytest.mark.parametrize(
    ("content", "words"),
    [("garbage\n", "is not JSON, so the file is not a replay."), ("", "is empty, so it is not a replay.")],
)
def test_replay_check_of_a_file_that_is_no_replay_is_one_sentence(
    content: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path), "--check")
    assert (code, out) == (2, "")
    assert err.startswith("parlour: ") and err.endswith(words + "\n") and err.count("\n") == 1


def test_replay_of_a_missing_file_and_the_viewer_without_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(capsys, "replay", str(tmp_path / "nothing.jsonl"), "--check")
    assert (code, out, err) == (2, "", f"parlour: there is no replay {tmp_path / 'nothing.jsonl'}\n")
    (path,) = keep(("screw", 2))
    monkeypatch.setattr("tui.cli.terminal_problem", lambda: "standard input is not a terminal")
    code, out, err = run(capsys, "replay", str(path))
    assert (code, out) == (2, "")
    assert "needs a terminal" in err and err.count("\n") == 1
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("not json\n", encoding="utf-8")
    code, out, err = run(capsys, "replay", str(garbage))
    assert (code, out) == (2, "") and err.startswith("parlour: ") and "not JSON" in err and err.count("\n") == 1


@pytest.mark.parametrize("args", [["replay"], ["replay", "a", "b"], ["replays", "x"], ["stats", "--csv"]])
def test_wrong_arguments_are_one_sentence_and_status_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "error: " in err and "Traceback" not in err
    assert len([line for line in err.splitlines() if "error: " in line]) == 1


def test_stats_prints_the_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "stats")
    assert (code, err) == (0, "")
    assert out == f"No games counted yet: each finished game is counted in {paths.stats_path()}.\n"
    keep(("screw", 1), ("screw", 2), ("big2", 3), ("rank", 4))
    code, out, err = run(capsys, "stats")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split()[:4] == ["game", "opponents", "games", "wins"]
    assert lines[1].startswith("Screw Your Neighbor  easy") and lines[1].split()[4] == "2"
    assert "cards left when losing" in lines[2] and "penalty points" in lines[3]
    code, out, err = run(capsys, "stats", "--json")
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert report["games"] == 4 and [g["game"] for g in report["groups"]] == ["screw", "big2", "rank"]


def test_stats_of_a_newer_schema_is_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    path = paths.stats_path()
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 99")
    code, out, err = run(capsys, "stats")
    assert (code, out) == (1, "")
    assert err.startswith("parlour: The statistics in ") and err.endswith("so they are left as they are.\n")
