"""High Card in words: each event as its log and its replays say it, and the menu's one line of its rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.events import Event
from engine.match import MatchOver, RoundStarted
from sixth_game.rules import Dealt, DealWon, HighCardOptions, Shown
from tui.words import count, who, winner_sentence
from tui.words.faces import card_text


def _does(seat: int, names: Sequence[str], me: int | None, verb: str) -> str:
    """``You show``, ``Ben shows``."""
    return f"You {verb}" if seat == me else f"{who(seat, names, me)} {verb}s"


def describe(event: Event, names: Sequence[str], me: int | None, options: Any = None) -> str | None:
    if isinstance(event, RoundStarted):
        dealer = "nobody deals" if event.dealer is None else _does(event.dealer, names, me, "deal")
        return f"Deal {event.round}: {dealer}"
    if isinstance(event, Dealt):
        if event.card is None:
            return None
        return f"You are dealt the {card_text(event.card)}" if event.seat == me else None
    if isinstance(event, Shown):
        return f"{_does(event.seat, names, me, 'show')} the {card_text(event.card)}"
    if isinstance(event, DealWon):
        return f"{_does(event.seat, names, me, 'take')} the deal with the {card_text(event.card)}"
    if isinstance(event, MatchOver):
        return f"{winner_sentence(event.winners, names, me)} the match"
    return None


def summary(options: HighCardOptions, players: int) -> str:
    deals = count(options.deals, "deal")
    return f"one card each, the highest rank takes the deal, a tie goes to the card shown first; {deals}"
