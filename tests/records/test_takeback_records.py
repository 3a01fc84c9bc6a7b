"""A match with takebacks (issue 31, point 2) is marked so in its save, its replay and the statistics (a group of
its own); records written before takebacks read as matches without any."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.records.record import Header, RecordError
from engine.records.replays import keep_replay, list_replays, load_replay, verify_replay
from engine.records.saves import dumps_match, loads_match
from engine.records.stats import record_game, summary
from engine.table import Table


def played(seed: int, takebacks: int) -> Table:
    """A Screw Your Neighbor match against easy bots, your move always the first offered, with ``takebacks`` moves
    taken back (and made again) along the way."""
    table = Table.create("screw", players=3, seed=seed, bots=[None, "easy", "easy"])
    taken = 0
    table.run()
    while not table.state.is_over:
        table.submit(0, table.state.legal_actions()[0])
        table.run()
        if taken < takebacks and not table.state.is_over:
            table.take_back(0)
            taken += 1
            table.run()
    assert table.takebacks == takebacks
    return table


def test_the_replay_says_how_many_moves_were_taken_back(tmp_path: Path) -> None:
    table = played(3, 2)
    path = keep_replay(table, tmp_path)
    header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert header["takebacks"] == 2
    assert verify_replay(path).difference is None  # the line played is a whole match of its own
    assert load_replay(path)[0].takebacks == 2
    assert list_replays(tmp_path)[0].takebacks == 2


def test_a_replay_without_takebacks_is_written_and_read_as_before(tmp_path: Path) -> None:
    path = keep_replay(played(3, 0), tmp_path)
    header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert "takebacks" not in header  # the file is what an older Parlour wrote and reads
    assert load_replay(path)[0].takebacks == 0
    assert list_replays(tmp_path)[0].takebacks == 0


@pytest.mark.parametrize("value", [-1, "2", 1.5, True, None, 10**12])
def test_a_header_with_a_number_of_takebacks_that_is_none_is_refused(value: object) -> None:
    data = Header.of(played(3, 0)).to_data() | {"takebacks": value}
    with pytest.raises(RecordError, match="takebacks"):
        Header.from_data(data)


def test_a_save_after_a_takeback_holds_the_line_played_now_and_the_mark() -> None:
    table = Table.create("big2", players=4, seed=5, bots=[None, "easy", "easy", "easy"])
    table.run()
    for _ in range(4):
        table.submit(0, table.state.legal_actions()[-1])
        table.run()
    dumps_match(table)  # (its actions encoded and kept for the next save)
    table.take_back(0)
    table.take_back(0)
    table.run()
    for _ in range(4):  # past the length saved before, on another line of play
        table.submit(0, table.state.legal_actions()[0])
        table.run()
    again = loads_match(dumps_match(table))
    assert again.actions == table.actions
    assert again.takebacks == 2
    assert again.state.history == table.state.history


def test_the_statistics_count_a_match_with_takebacks_apart(tmp_path: Path) -> None:
    stats = tmp_path / "stats.sqlite3"
    ordinary, taken = played(3, 0), played(4, 1)
    assert record_game(ordinary, 0, path=stats) is None
    assert record_game(taken, 0, path=stats) is None
    groups = summary(stats)["groups"]
    assert [(group["kind"], group["opponents"], group["games"]) for group in groups] == [
        ("local", "easy", 1),
        ("takebacks", "easy, with takebacks", 1),
    ]
    assert groups[0]["wins"] == int(0 in ordinary.state.result.winners)  # type: ignore[union-attr]
    assert groups[1]["wins"] == int(0 in taken.state.result.winners)  # type: ignore[union-attr]


def test_parlour_replays_and_stats_say_with_takebacks(capsys: pytest.CaptureFixture[str]) -> None:
    from engine.records import finish_match
    from tui.cli import main

    for table in (played(3, 0), played(4, 2)):
        done = finish_match(table, 0)
        assert done.problems == [] and done.replay is not None
    assert main(["replays"]) == 0
    lines = capsys.readouterr().out.splitlines()[2:]
    assert len(lines) == 2
    assert sum("with takebacks (2)" in line for line in lines) == 1
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "Screw Your Neighbor  easy  " in out and "easy, with takebacks" in out
