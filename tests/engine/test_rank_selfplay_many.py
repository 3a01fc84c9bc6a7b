"""Seeded random self-play of Rank, five to ten players (two decks), two-deal matches: 150 deals, checked after
every action (tests/engine/rank_helpers.py, :func:`self_play_deals`). Random play makes long deals (hundreds of
actions with two players, thousands with ten), so the 5,000 deals are split over the ``test_rank_selfplay_*`` files
for xdist (``--dist loadfile``) to run side by side; two-player deals are the cheapest, so most of them are."""

from __future__ import annotations

from rank_helpers import SelfPlayTally, self_play_deals


def test_two_deck_matches() -> None:
    tally = SelfPlayTally()
    self_play_deals(75, seed=17, players=(5, 6, 7, 8, 9, 10), deals=2, tally=tally)
    assert tally.games == 75 and tally.deals == 150
    assert tally.comebacks and tally.shuffles
