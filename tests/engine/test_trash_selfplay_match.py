"""Seeded random self-play of Trash *Match* (alone and with *Last turn*) for 2 to 4 players: every match is played
down to a one-card layout, deal after deal, checked after every action (:func:`trash_helpers.self_play_games`).
A match is some 15 deals, so there are fewer games here than in the one-deal files: 120 matches, some 1,800
deals."""

from __future__ import annotations

import pytest
from trash_helpers import SelfPlayTally, self_play_games


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variants", [("match",), ("match", "last-turn")], ids=["match", "match+last-turn"])
def test_match_self_play(players: int, variants: tuple[str, ...]) -> None:
    tally = SelfPlayTally()
    self_play_games(20, seed=players * 100 + len(variants), players=players, variants=variants, tally=tally)
    assert tally.games == 20 and tally.deals > 20 * 5
