"""``parlour simulate --jobs N``: several processes give the same JSON as one, timing aside, for every game.

The figures are added up in match order whoever played each match, so the means and rates are the same numbers,
not nearly the same: the comparisons below are exact.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.errors import OptionError
from engine.registry import ENTRIES
from engine.simulate import TIMING_FIELDS, _chunks, simulate
from tui.cli import main


def _json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(args) == 0
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    for field in TIMING_FIELDS:
        assert field in report
        del report[field]
    return report


RUNS = {
    # Every game key (each preset of Screw Your Neighbor / Chase the Ace), with rotation, mixed line-ups and
    # random bots, so the line-up shift and the per-game figures are merged the way one process does it.
    "screw": ["--players", "4", "--games", "7", "--bots", "easy,medium,easy,medium", "--rotate"],
    "chase": ["--players", "3", "--games", "7", "--bots", "easy"],
    "big2": ["--players", "4", "--games", "5", "--bots", "easy,medium,easy,easy", "--deals", "1", "--rotate"],
    # three players with Last turn: shared wins (thirds) are added in the same order, so even floats agree
    "trash": ["--players", "3", "--games", "9", "--bots", "easy", "--variant", "last-turn", "--rotate"],
    "rank": ["--players", "3", "--games", "4", "--bots", "easy", "--deals", "1"],
}


def test_every_game_key_is_covered() -> None:
    assert set(RUNS) == {entry.key for entry in ENTRIES}


@pytest.mark.parametrize("game", list(RUNS))
def test_two_jobs_give_the_json_of_one(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", game, "--seed", "5", "--json", *RUNS[game]]
    one = _json([*args, "--jobs", "1"], capsys)
    two = _json([*args, "--jobs", "2"], capsys)
    assert two == one
    assert sum(seat["wins"] for seat in one["seats"]) == pytest.approx(one["games"])  # the run did play


def test_the_default_is_one_process_and_gives_the_same_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "chase", "--players", "3", "--games", "3", "--seed", "2", "--json"]
    assert _json(args, capsys) == _json([*args, "--jobs", "1"], capsys)


def test_more_jobs_than_games() -> None:
    """Three processes asked for two matches: the pieces are whole matches, and the report is the same."""
    report = simulate("screw", players=3, games=2, seed=4, bots=["easy"], jobs=3)
    alone = simulate("screw", players=3, games=2, seed=4, bots=["easy"])
    assert report == alone | {field: report[field] for field in TIMING_FIELDS}


def test_the_pieces_cover_every_match_once_in_order() -> None:
    for games, jobs in [(1, 2), (7, 2), (100, 2), (101, 3), (5, 8)]:
        pieces = _chunks(games, jobs)
        assert [index for start, stop in pieces for index in range(start, stop)] == list(range(games))
        assert all(stop > start for start, stop in pieces)


def test_progress_counts_every_match_across_jobs() -> None:
    calls: list[tuple[int, int]] = []
    simulate("chase", players=3, games=6, seed=1, bots=["easy"], jobs=2, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (6, 6)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
    assert all(total == 6 for _, total in calls)


@pytest.mark.parametrize("jobs", ["0", "-2", "two"])
def test_a_bad_job_count_is_one_sentence(jobs: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "chase", "--players", "3", "--games", "2", "--jobs", jobs])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("parlour simulate: error: argument --jobs:")


@pytest.mark.parametrize("jobs", [0, -1, True, 1.5])
def test_the_api_refuses_a_bad_job_count(jobs: Any) -> None:
    with pytest.raises(OptionError, match="--jobs must be a whole number from 1"):
        simulate("chase", players=3, games=2, jobs=jobs)


def test_a_bad_level_is_refused_before_any_process_starts() -> None:
    with pytest.raises(OptionError, match="unknown difficulty"):
        simulate("chase", players=3, games=4, bots=["easy", "genius", "easy"], jobs=2)
