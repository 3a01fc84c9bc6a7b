"""Trash in the statistics: a seat's counts from a finished match's history (deals, deals won, completions and
the turns they took) and its score from the events it saw (its total; in a match, fewer cards left is better)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.events import Event
from engine.games.trash.rules import Completed, DealOver
from engine.match import final_totals


def count(history: Sequence[Event], seat: int) -> dict[str, int]:
    deals = won = completed = turns = 0
    for event in history:
        if isinstance(event, DealOver):
            deals += 1
            won += seat in event.winners
        elif isinstance(event, Completed) and event.seat == seat:
            completed += 1
            turns += event.turn
    return {"deals": deals, "deals_won": won, "completed": completed, "turns": turns}


def score(history: Sequence[Event], seat: int, options: Any) -> float:
    total = final_totals(history)[seat]
    return float(-total if getattr(options, "match", False) else total)
