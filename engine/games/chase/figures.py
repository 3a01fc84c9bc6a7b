"""Screw Your Neighbor and Chase the Ace in the statistics: a seat's counts from a finished match's history
(hands played, hands paid, lives paid) and its score from the events it saw (how many opponents it outlasted)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.events import Event
from engine.games.chase.rules import Eliminated, Paid
from engine.match import RoundStarted, final_totals


def count(history: Sequence[Event], seat: int) -> dict[str, int]:
    hands = paid = lives = 0
    for event in history:
        if isinstance(event, RoundStarted) and seat in event.seats:
            hands += 1
        elif isinstance(event, Paid) and event.seat == seat:
            paid += 1
            lives += event.amount
    return {"hands": hands, "hands_paid": paid, "lives_paid": lives}


def score(history: Sequence[Event], seat: int, options: Any) -> float:
    """How many opponents the seat outlasted: out in an earlier hand than the seat's (out from the start: hand 0,
    still in at the end: after the last hand)."""
    went_out: dict[int, int] = {}
    round_number = 0
    first: tuple[int, ...] | None = None
    for event in history:
        if isinstance(event, RoundStarted):
            round_number = event.round
            if first is None:
                first = event.seats
        elif isinstance(event, Eliminated):
            went_out[event.seat] = round_number
    players = len(final_totals(history))
    for other in range(players):
        if first is not None and other not in first:
            went_out[other] = 0
    out = [went_out.get(other, round_number + 1) for other in range(players)]
    return float(sum(1 for other in out if other < out[seat]))
