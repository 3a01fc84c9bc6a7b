"""Seeded random self-play of Trash from worn stocks (all but one to three stock cards already on the discard pile)
so that the stock runs out and is reshuffled again and again: 1,240 games over every player count and variant set,
checked after every action (:func:`trash_helpers.self_play_games`)."""

from __future__ import annotations

import pytest
from trash_helpers import SelfPlayTally, self_play_games


@pytest.mark.parametrize(
    ("players", "variants", "count"),
    [(2, (), 400), (3, ("last-turn",), 400), (4, (), 400), (2, ("match", "last-turn"), 20), (3, ("match",), 20)],
)
def test_worn_stock_self_play(players: int, variants: tuple[str, ...], count: int) -> None:
    tally = SelfPlayTally()
    self_play_games(count, seed=players + 7, players=players, variants=variants, tally=tally, worn=True)
    assert tally.games == count and tally.shuffles > count // 2
