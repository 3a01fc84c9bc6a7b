"""Seeded random self-play of Rank, three players, five-deal matches: 350 deals, checked after every action
(tests/engine/rank_helpers.py, :func:`self_play_deals`). Random play makes long deals (hundreds of actions with two
players, thousands with ten), so the 5,000 deals are split over the ``test_rank_selfplay_*`` files for xdist
(``--dist loadfile``) to run side by side; two-player deals are the cheapest, so most of them are."""

from __future__ import annotations

from rank_helpers import SelfPlayTally, self_play_deals


def test_three_player_matches() -> None:
    tally = SelfPlayTally()
    self_play_deals(70, seed=15, players=(3,), deals=5, tally=tally)
    assert tally.games == 70 and tally.deals == 350
    assert tally.comebacks and tally.shuffles
