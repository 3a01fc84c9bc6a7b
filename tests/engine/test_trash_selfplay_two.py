"""Seeded random self-play of two-player Trash, one deal a game (the default and *Last turn*): 2,200 games, checked
after every action (tests/engine/trash_helpers.py, :func:`self_play_games`). The self-play is split over several
files so that xdist (``--dist loadfile``) runs them side by side."""

from __future__ import annotations

import pytest
from trash_helpers import SelfPlayTally, self_play_games


@pytest.mark.parametrize("variants", [(), ("last-turn",)], ids=["plain", "last-turn"])
def test_two_player_self_play(variants: tuple[str, ...]) -> None:
    tally = SelfPlayTally()
    self_play_games(1100, seed=2, players=2, variants=variants, tally=tally)
    assert tally.games == tally.deals == 1100
    assert tally.refusals > 10 * tally.games
