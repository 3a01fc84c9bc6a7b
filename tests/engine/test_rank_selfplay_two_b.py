"""Seeded random self-play of Rank, two players, one-deal matches: 300 deals, checked after every action
(tests/engine/rank_helpers.py, :func:`self_play_deals`). Random play makes long deals (hundreds of actions with two
players, thousands with ten), so the 1,255 deals (5,000 once the engine is faster) are split over the
``test_rank_selfplay_*`` files for xdist (``--dist loadfile``) to run side by side."""

from __future__ import annotations

from rank_helpers import SelfPlayTally, self_play_deals


def test_two_player_single_deals_again() -> None:
    tally = SelfPlayTally()
    self_play_deals(300, seed=12, players=(2,), deals=1, tally=tally)
    assert tally.games == 300 and tally.deals == 300
    assert tally.comebacks and tally.shuffles
