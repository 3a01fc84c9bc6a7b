"""Big Two in the statistics: a seat's counts from a finished match's history (deals, deals lost, cards left when
losing) and its score from the events it saw (its final total)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.events import Event
from engine.games.big2.rules import DealOver
from engine.match import final_totals


def count(history: Sequence[Event], seat: int) -> dict[str, int]:
    deals = lost = cards = 0
    for event in history:
        if isinstance(event, DealOver):
            deals += 1
            loss = event.losses[seat] if seat < len(event.losses) else None
            if event.winner != seat and loss is not None:
                lost += 1
                cards += loss.cards
    return {"deals": deals, "deals_lost": lost, "cards_left": cards}


def score(history: Sequence[Event], seat: int, options: Any) -> float:
    return float(final_totals(history)[seat])
