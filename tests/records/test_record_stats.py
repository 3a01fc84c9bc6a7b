"""Statistics: counted per game, preset and opponent level, from the events; streaks, win rates and each game's own
figures; a schema version with migrations; two processes writing at once lose nothing."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from records_helpers import bot_match, play_out, writer

from engine.games.big2 import rules as big2
from engine.records import paths
from engine.records.stats import SCHEMA, StatsError, history, record_game, summary
from engine.registry import get_entry
from engine.table import Table


def series(game: str, players: int, bots: list[str], seeds: range, deals: int | None = None) -> list[Table]:
    return [play_out(bot_match(game, players, bots, deals=deals, seed=seed)) for seed in seeds]


def streaks(won: list[bool]) -> tuple[int, int]:
    current = best = 0
    for value in won:
        current = current + 1 if value else 0
        best = max(best, current)
    return current, best


def group(report: dict[str, Any], game: str, level: str) -> dict[str, Any]:
    groups = [g for g in report["groups"] if g["game"] == game and g["level"] == level]
    assert len(groups) == 1
    return groups[0]  # type: ignore[no-any-return]


def test_a_series_of_games_is_counted_with_win_rate_streaks_and_scores() -> None:
    tables = series("screw", 3, ["hard", "easy", "easy"], range(1, 15))
    won = []
    for table in tables:
        assert record_game(table, 0) is None
        won.append(0 in table.state.result.winners)  # type: ignore[union-attr]
    assert any(won) and not all(won)  # a series with wins and losses, or the streaks prove nothing
    report = summary()
    assert report["games"] == len(tables) and report["problem"] is None and report["schema"] == SCHEMA
    screw = group(report, "screw", "easy")
    current, best = streaks(won)
    scores = [t.state.result.scores[0] for t in tables]  # type: ignore[union-attr]
    assert screw["games"] == len(tables) and screw["wins"] == sum(won)
    assert screw["win_rate"] == round(sum(won) / len(won), 4)
    assert (screw["streak"], screw["best_streak"]) == (current, best)
    assert screw["mean_score"] == round(sum(scores) / len(scores), 3) and screw["best_score"] == max(scores)
    assert screw["title"] == "Screw Your Neighbor" and screw["preset"] == "screw"
    # The games, in order, for a chart of the win rate over time.
    assert [row["won"] for row in history("screw", "screw", "easy")] == won


def test_each_game_has_its_own_figures_from_the_events() -> None:
    games = {
        "chase": series("chase", 3, ["medium", "medium", "medium"], range(3)),
        "big2": series("big2", 4, ["easy"] * 4, range(2), deals=2),
        "trash": series("trash", 2, ["easy", "medium"], range(4)),
        "rank": series("rank", 3, ["easy", "easy", "easy"], range(3), deals=2),
    }
    for tables in games.values():
        for table in tables:
            assert record_game(table, 0) is None
    report = summary()
    assert [g["game"] for g in report["groups"]] == ["chase", "big2", "trash", "rank"]  # the registry's order

    def seat_zero(key: str) -> dict[str, Any]:
        """The game's own ``simulate`` figures for seat 0 over the series (its Figures class)."""
        figures = get_entry(key).game.figures()
        for table in games[key]:
            figures.add(table.state, list(range(table.state.players)))
        return figures.report()["seats"][0]  # type: ignore[no-any-return]

    chase = group(report, "chase", "medium")["figures"]
    assert chase["hands_paid"] == round(seat_zero("chase")["paid"] / 3, 3)
    trash = group(report, "trash", "medium")["figures"]
    assert trash["turns_to_complete"] == seat_zero("trash")["turns_to_complete"]
    rank = group(report, "rank", "easy")["figures"]
    assert rank["penalty_points"] == round(seat_zero("rank")["penalty_points"] / 3, 3)
    lost = [
        len(event.hands[0])
        for table in games["big2"]
        for event in table.state.history
        if isinstance(event, big2.DealOver) and event.winner != 0
    ]
    cards = group(report, "big2", "easy")["figures"]["cards_left_when_losing"]
    assert lost and cards == round(sum(lost) / len(lost), 3)


def test_groups_are_per_preset_and_opponent_level() -> None:
    tables = [
        play_out(bot_match("screw", 3, [None, "easy", "easy"], seed=1)),
        play_out(bot_match("chase", 3, [None, "easy", "easy"], seed=1)),
        play_out(bot_match("chase", 3, [None, "hard", "easy"], seed=2)),
        play_out(bot_match("chase", 3, [None, "hard", None], seed=3)),
    ]
    for table in tables:
        assert record_game(table, 0) is None
    keys = [(g["game"], g["preset"], g["level"], g["games"]) for g in summary()["groups"]]
    assert keys == [
        ("screw", "screw", "easy", 1),
        ("chase", "chase", "easy", 1),
        ("chase", "chase", "mixed", 1),
        ("chase", "chase", "people", 1),
    ]


def test_the_same_match_counts_once_and_an_unfinished_one_not_at_all() -> None:
    table = play_out(bot_match("screw", 3, [None, "easy", "easy"]))
    assert record_game(table, 0) is None and record_game(table, 0) is None
    assert summary()["games"] == 1
    with pytest.raises(Exception, match="only a finished match"):
        record_game(bot_match("screw", 3, [None, "easy", "easy"]), 0)


def test_no_statistics_file_is_no_games_and_creates_nothing() -> None:
    report = summary()
    assert report["games"] == 0 and report["groups"] == [] and not paths.stats_path().exists()


def test_the_schema_is_versioned_and_in_wal_mode() -> None:
    assert record_game(play_out(bot_match("screw", 3, [None, "easy", "easy"])), 0) is None
    with sqlite3.connect(paths.stats_path()) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_newer_schema_is_left_alone_with_one_sentence() -> None:
    path = paths.stats_path()
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE future (x)")
        conn.execute(f"PRAGMA user_version = {SCHEMA + 1}")
    before = path.read_bytes()
    problem = record_game(play_out(bot_match("screw", 3, [None, "easy", "easy"])), 0)
    assert problem == (
        f"The statistics in {path} were written by a newer version of Parlour (schema {SCHEMA + 1}, this one knows "
        f"{SCHEMA}), so they are left as they are."
    )
    with pytest.raises(StatsError, match="newer version of Parlour"):
        summary()
    assert path.read_bytes() == before and not path.with_name(path.name + ".bad").exists()


def test_a_file_that_is_not_a_database_is_moved_aside_and_a_new_one_started() -> None:
    path = paths.stats_path()
    path.parent.mkdir(parents=True)
    garbage = b"this is not a database " * 50
    path.write_bytes(garbage)
    problem = record_game(play_out(bot_match("screw", 3, [None, "easy", "easy"])), 0)
    assert problem == (
        f"The statistics file {path} could not be used (file is not a database), so it was moved to "
        "stats.sqlite3.bad and a new one was started."
    )
    assert path.with_name("stats.sqlite3.bad").read_bytes() == garbage
    assert summary()["games"] == 1


def test_two_processes_writing_at_once_lose_nothing() -> None:
    path = paths.stats_path()
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(2)
    out = context.Queue()
    writers = [context.Process(target=writer, args=(str(path), tag, 50, start, out)) for tag in ("one", "two")]
    for process in writers:
        process.start()
    results = dict(out.get(timeout=60) for _ in writers)
    for process in writers:
        process.join(30)
        assert process.exitcode == 0
    assert results == {"one": [], "two": []}
    report = summary(Path(path))
    assert report["games"] == 100
    assert sum(g["games"] for g in report["groups"]) == 100
