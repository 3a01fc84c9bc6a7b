"""The match layer (engine/match.py): rounds, totals, limits, last standing, who wins, dealer rotation; and the
marker events every registered game publishes."""

from __future__ import annotations

import pytest

from engine import codec
from engine.events import Event
from engine.game import Scenario
from engine.match import MatchOver, MatchProgress, MatchRule, RoundOver, RoundStarted
from engine.registry import GAMES
from engine.table import Table


def play_round(progress: MatchProgress, deltas: tuple[int, ...], winners: tuple[int, ...] = ()) -> list[Event]:
    seats = tuple(s for s in range(progress.players) if progress.active[s])
    started = progress.start_round(seats)
    assert isinstance(started, RoundStarted) and started.seats == seats
    return progress.end_round(winners, deltas)


def kinds(events: list[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


# ---------------------------------------------------------------------------------------------------------------
# MatchRule
# ---------------------------------------------------------------------------------------------------------------
def test_a_fixed_number_of_rounds() -> None:
    progress = MatchProgress.starting(3, MatchRule(rounds=3))
    for number in (1, 2):
        events = play_round(progress, (1, 0, -1))
        assert kinds(events) == ["RoundOver"]
        assert events[0].round == number and not events[0].last and not progress.over
    events = play_round(progress, (1, 0, -1))
    assert kinds(events) == ["RoundOver", "MatchOver"]
    assert events[0].last and progress.over
    assert events[1].winners == (0,) and events[1].totals == (3, 0, -3)


def test_a_low_limit_ends_the_match_early() -> None:
    rule = MatchRule(rounds=10, low_limit=-10)
    progress = MatchProgress.starting(4, rule)
    assert kinds(play_round(progress, (9, -9, 0, 0), (0,))) == ["RoundOver"]
    events = play_round(progress, (1, -1, 0, 0), (0,))  # -10: the limit is reached, not passed
    assert kinds(events) == ["RoundOver", "MatchOver"] and events[-1].winners == (0,)
    assert progress.round == 2


def test_a_high_limit_ends_the_match() -> None:
    progress = MatchProgress.starting(2, MatchRule(high_limit=5))
    assert kinds(play_round(progress, (4, 0))) == ["RoundOver"]
    assert kinds(play_round(progress, (1, 0))) == ["RoundOver", "MatchOver"]


def test_last_standing_wins() -> None:
    rule = MatchRule(last_standing=True)
    progress = MatchProgress.starting(3, rule, dealer=0, totals=(2, 1, 1))
    events = play_round(progress, (0, -1, 0))
    assert kinds(events) == ["RoundOver"] and progress.active == [True, False, True]
    events = play_round(progress, (0, 0, -1))
    assert kinds(events) == ["RoundOver", "MatchOver"]
    assert events[-1].winners == (0,) and events[-1].totals == (2, 0, 0)


def test_last_standing_with_nobody_left_falls_back_to_the_best_total() -> None:
    rule = MatchRule(last_standing=True)
    assert rule.winners((0, -1, 0)) == (0, 2)
    assert rule.is_over(1, (0, 0, 0)) and rule.is_over(1, (1, 0, 0)) and not rule.is_over(1, (1, 1, 0))


def test_lower_total_wins() -> None:
    progress = MatchProgress.starting(3, MatchRule(rounds=1, lower_wins=True))
    events = play_round(progress, (2, 1, 3))
    assert events[-1].winners == (1,)


@pytest.mark.parametrize("lower", [False, True])
def test_ties_share_the_win(lower: bool) -> None:
    progress = MatchProgress.starting(4, MatchRule(rounds=1, lower_wins=lower))
    deltas = (1, 5, 1, 5)
    events = play_round(progress, deltas)
    assert events[-1].winners == ((0, 2) if lower else (1, 3))


def test_the_dealer_moves_on_and_skips_seats_that_are_out() -> None:
    progress = MatchProgress.starting(4, MatchRule(last_standing=True), dealer=0, totals=(1, 1, 1, 1))
    play_round(progress, (0, -1, 0, 0))  # seat 1 is out
    assert progress.dealer == 2  # seat 1 skipped
    started = progress.start_round((3, 0, 2))
    assert started.dealer == 2 and started.round == 2
    progress.end_round((), (0, 0, 0, -1))  # seat 3 out too
    assert progress.dealer == 0
    assert progress.next_seat(0) == 2 and progress.next_seat(2) == 0


def test_a_seat_out_from_the_start_is_skipped() -> None:
    progress = MatchProgress.starting(3, MatchRule(last_standing=True), dealer=2, totals=(0, 2, 2))
    assert progress.active == [False, True, True]
    play_round(progress, (0, 0, 0))
    assert progress.dealer == 1


def test_a_round_played_again_keeps_its_number_and_dealer() -> None:
    progress = MatchProgress.starting(2, MatchRule(last_standing=True), dealer=1, totals=(1, 1))
    progress.start_round((0, 1))
    events = progress.end_round((), (0, 0), replay=True)
    assert kinds(events) == ["RoundOver"] and events[0].replay and not events[0].last
    assert progress.dealer == 1
    again = progress.start_round((0, 1), again=True)
    assert again.round == 1
    assert progress.start_round((0, 1)).round == 2


def test_a_replayed_round_never_ends_the_match() -> None:
    progress = MatchProgress.starting(2, MatchRule(rounds=1))
    progress.start_round((0, 1))
    events = progress.end_round((), (0, 0), replay=True)
    assert kinds(events) == ["RoundOver"] and not progress.over


def test_copy_is_independent() -> None:
    progress = MatchProgress.starting(3, MatchRule(rounds=2))
    copy = progress.copy()
    play_round(progress, (1, 2, 3))
    assert copy.totals == [0, 0, 0] and copy.round == 0 and copy.dealer == 0
    assert progress.totals == [1, 2, 3]


def test_wrong_lengths_are_refused() -> None:
    with pytest.raises(ValueError):
        MatchProgress.starting(3, MatchRule(), totals=(1, 2))
    progress = MatchProgress.starting(3, MatchRule())
    progress.start_round((0, 1, 2))
    with pytest.raises(ValueError):
        progress.end_round((), (1, 2))


def test_markers_round_trip_through_the_codec() -> None:
    for event in (
        RoundStarted(round=1, dealer=None, seats=(0, 2)),
        RoundOver(round=3, winners=(), deltas=(0, -1), totals=(2, 0), last=True, replay=False),
        MatchOver(winners=(0, 1), totals=(4, 4)),
    ):
        assert codec.loads(codec.dumps(event)) == event
        assert codec.encode(event)["game"] == "match"


# ---------------------------------------------------------------------------------------------------------------
# Every game publishes the markers
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", [g.key for g in GAMES])
def test_every_game_publishes_round_and_match_markers(game: str) -> None:
    g = next(x for x in GAMES if x.key == game)
    players = g.min_players + 1 if g.max_players > g.min_players else g.min_players
    deals = 2 if hasattr(g.options(), "deals") else None
    totals = None if deals else (2,) * players
    table = Table.create(
        game,
        players=players,
        seed=6,
        bots=["easy"] * players,
        deals=deals,
        scenario=Scenario(totals=totals) if totals else None,
    )
    table.run()
    state = table.state
    history = state.history
    assert state.is_over
    started = [e for e in history if isinstance(e, RoundStarted)]
    over = [e for e in history if isinstance(e, RoundOver)]
    ends = [e for e in history if isinstance(e, MatchOver)]
    assert isinstance(history[0], RoundStarted) and history[0].round == 1
    assert len(ends) == 1 and history[-1] is ends[0], "MatchOver ends the match, once"
    assert len(started) == len(over), "each round opens and closes"
    assert over[-1].last and not any(e.last for e in over[:-1])
    assert isinstance(history[-2], RoundOver) and history[-2] is over[-1]
    assert ends[0].totals == over[-1].totals
    assert ends[0].winners == state.result.winners
    # Round markers alternate, a round opening only after the last one closed.
    sequence = [e for e in history if isinstance(e, RoundStarted | RoundOver)]
    assert all(isinstance(e, RoundStarted if i % 2 == 0 else RoundOver) for i, e in enumerate(sequence))
    # Totals add up, from the starting ones.
    running = [over[0].totals[s] - over[0].deltas[s] for s in range(players)]
    assert running == (list(totals) if totals else [0] * players)
    for o in over:
        running = [t + d for t, d in zip(running, o.deltas, strict=True)]
        assert tuple(running) == o.totals
    numbers = [e.round for e in started]
    assert numbers == sorted(numbers) and numbers[-1] == sum(1 for o in over if not o.replay)
    if deals:
        assert len([o for o in over if not o.replay]) == deals
