"""Seeded random self-play of Trash for three and four players (two decks), one deal a game: 1,600 games, checked
after every action (:func:`trash_helpers.self_play_games`)."""

from __future__ import annotations

import pytest
from trash_helpers import SelfPlayTally, self_play_games


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("variants", [(), ("last-turn",)], ids=["plain", "last-turn"])
def test_three_and_four_player_self_play(players: int, variants: tuple[str, ...]) -> None:
    tally = SelfPlayTally()
    self_play_games(400, seed=players * 10 + len(variants), players=players, variants=variants, tally=tally)
    assert tally.games == tally.deals == 400
