"""Rank in the statistics: a seat's counts from a finished match's history (deals, penalty points) and its score
from the events it saw (minus its penalty points: the fewest win)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.events import Event
from engine.games.rank.rules import DealOver
from engine.match import final_totals


def count(history: Sequence[Event], seat: int) -> dict[str, int]:
    deals = penalties = 0
    for event in history:
        if isinstance(event, DealOver):
            deals += 1
            penalties += event.loser == seat
    return {"deals": deals, "penalty_points": penalties}


def score(history: Sequence[Event], seat: int, options: Any) -> float:
    return float(-final_totals(history)[seat])
