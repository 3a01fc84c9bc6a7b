"""``benchmarks/big2_strength.py``: any level against three of any other, over duplicate deals, and the records of
runs over consecutive deals joined into the figures of one run. Tiny runs of the quick levels only; nothing here
asserts how fast anything is."""

from __future__ import annotations

import pytest
from big2_reference import REFERENCE
from big2_strength import join, play, play_deal


def test_a_deal_is_played_once_with_the_measured_bot_in_each_seat() -> None:
    games = play_deal(3, players=4, seed=1, settings={}, level="medium", against=REFERENCE)
    assert len(games) == 4
    for share, score, times in games:
        assert share in (0.0, 1.0)  # one player goes out first: no ties
        assert (score > 0) == (share == 1.0)  # the winner gains what the others lose
        assert times and all(wall >= 0 and cpu >= 0 for wall, cpu in times)


def test_the_figures_are_seeded_and_parts_join_into_one_run() -> None:
    whole = play(16, 4, seed=2, level="medium", against=REFERENCE)
    first = play(8, 4, seed=2, level="medium", against=REFERENCE)
    second = play(8, 4, seed=2, level="medium", against=REFERENCE, first_deal=2)
    joined = join([second, first])
    assert joined["outcomes"] == whole["outcomes"]
    for key in ("games", "deals", "win_rate", "interval", "mean_score", "decisions"):
        assert joined[key] == whole[key], key
    assert len(joined["cpu_times"]) == len(joined["times"]) == whole["decisions"]
    assert whole["level"] == "medium" and whole["against"] == REFERENCE and whole["games"] == 16
    low, high = whole["interval"]
    assert low <= whole["win_rate"] <= high


def test_only_parts_of_one_run_join() -> None:
    first = play(8, 4, seed=2, level="medium", against=REFERENCE)
    other_level = play(8, 4, seed=2, level="easy", against=REFERENCE, first_deal=2)
    with pytest.raises(ValueError, match="differ"):
        join([first, other_level])
    gap = play(8, 4, seed=2, level="medium", against=REFERENCE, first_deal=3)
    with pytest.raises(ValueError, match="follow on"):
        join([first, gap])


def test_the_levels_differ_on_the_same_deals() -> None:
    """The same deals, other levels: ``easy`` against three of the reference wins less than the reference does
    against three ``easy`` (over 12 deals the gap is wide)."""
    weak = play(48, 4, seed=3, level="easy", against=REFERENCE)
    strong = play(48, 4, seed=3, level=REFERENCE, against="easy")
    assert weak["win_rate"] < strong["win_rate"]
