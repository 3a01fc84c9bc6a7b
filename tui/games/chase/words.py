"""Screw Your Neighbor / Chase the Ace in plain words: the event log's lines and the seats' "what it did".

The engine's events and views carry data (seats, cards, codes); the words a player reads are made here.
``describe(event, names, me)`` is pure: it reads only the event (as the seat ``me`` received it, maybe redacted),
the seat names and, when given, the table's options and the pot. ``None`` means the event is not worth a line.

>>> from engine.games.chase.rules import Stayed
>>> describe(Stayed(seat=1), ("You", "Ana"), me=0)
'Ana stayed'
>>> from engine.match import RoundStarted
>>> describe(RoundStarted(round=2, dealer=0, seats=(1, 0)), ("You", "Ana"), me=0)
'Hand 2 — you deal'
>>> acted_text(Acted.TRADED_WITH)
'was traded with'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import Card
from engine.events import Event
from engine.games.chase.rules import (
    Acted,
    CardDealt,
    DeckSwapped,
    Eliminated,
    HandVoid,
    KingShown,
    PackCut,
    Paid,
    PayReason,
    Revealed,
    Stayed,
    Traded,
)
from engine.match import MatchOver, RoundOver, RoundStarted
from tui.words import and_list, count_of, who, whose, winner_sentence
from tui.words.faces import card_text

ACTED_TEXT: dict[Acted, str] = {
    Acted.STAYED: "stayed",
    Acted.TRADED: "traded",
    Acted.TRADED_WITH: "was traded with",
    Acted.BLOCKED: "blocked",
    Acted.SHOWED_KING: "showed a King",
    Acted.SWAPPED: "swapped with the deck",
    Acted.CUT: "cut the pack",
}
"""What a seat did this hand, as its seat box says it (``ChaseView.acted``)."""

__all__ = [
    "ACTED_TEXT",
    "PAY_REASON_TEXT",
    "acted_text",
    "and_list",
    "count_of",
    "describe",
    "face",
    "lives_left_text",
    "who",
    "whose",
    "winner_sentence",
]

PAY_REASON_TEXT: dict[PayReason, str] = {
    PayReason.LOWEST: "the lowest card pays",
    PayReason.HIGHEST: "the highest card pays",
    PayReason.ACE: "an Ace pays 2",
}


def acted_text(acted: Acted | None) -> str | None:
    """The words for what a seat did this hand (None: nothing yet)."""
    return ACTED_TEXT[acted] if acted is not None else None


def face(card: Card | None) -> str:
    return card_text(card) if card is not None else "?"


def lives_left_text(lives_left: int, options: Any = None) -> str:
    """What is left after paying: "2 left", "now on honour" or "out"."""
    if lives_left <= 0:
        return "out"
    if options is not None and getattr(options, "on_honour", False):
        if lives_left == 1:
            return "now on honour"
        return f"{lives_left - 1} left"
    return f"{lives_left} left"


def describe(
    event: Event, names: Sequence[str], me: int | None, options: Any = None, *, pot: int | None = None
) -> str | None:
    """One line of plain words for ``event`` as seat ``me`` sees it, or None when it needs no line.

    ``pot`` (the view's pot) lets the end of a Chase the Ace match say what the winner takes."""
    if isinstance(event, RoundStarted):
        if event.dealer is None:
            return f"Hand {event.round}"
        dealer = "you deal" if event.dealer == me else f"{who(event.dealer, names, me)} deals"
        return f"Hand {event.round} — {dealer}"
    if isinstance(event, CardDealt):
        if event.card is None or event.seat != me:
            return None
        return f"You were dealt {face(event.card)}"
    if isinstance(event, KingShown):
        holder = whose(event.seat, names, me, start=True)
        if event.blocked is None:
            return f"{holder} {face(event.card)} is turned face up"
        return f"{holder} {face(event.card)} blocked {whose(event.blocked, names, me)} trade"
    if isinstance(event, Stayed):
        return f"{who(event.seat, names, me, start=True)} stayed"
    if isinstance(event, Traded):
        actor = who(event.seat, names, me, start=True)
        target = who(event.target, names, me)
        if event.gave is None or event.got is None:
            return f"{actor} traded with {target}"
        if event.seat == me:
            return f"You traded with {target}: you gave {face(event.gave)} and got {face(event.got)}"
        if event.target == me:
            return f"{actor} traded with you: you gave {face(event.got)} and got {face(event.gave)}"
        return f"{actor} traded with {target}: {actor} gave {face(event.gave)} and got {face(event.got)}"
    if isinstance(event, DeckSwapped):
        if event.seat == me and event.gave is not None and event.got is not None:
            return f"You swapped with the deck: you gave {face(event.gave)} and got {face(event.got)}"
        if event.seat == me:
            return "You swapped with the deck"
        return f"{who(event.seat, names, me)} (dealer) swapped with the deck"
    if isinstance(event, PackCut):
        if event.seat == me:
            return f"You cut the pack: {face(event.got)}"
        return f"{who(event.seat, names, me)} (dealer) cut the pack: {face(event.got)}"
    if isinstance(event, Revealed):
        shown = ", ".join(f"{who(seat, names, me)} {face(card)}" for seat, card in event.cards)
        return f"Cards up: {shown}"
    if isinstance(event, Paid):
        verb = "pay" if event.seat == me else "pays"
        left = lives_left_text(event.lives_left, options)
        return (
            f"{who(event.seat, names, me, start=True)} {verb} {event.amount} "
            f"({PAY_REASON_TEXT[event.reason]}: {face(event.card)}) — {left}"
        )
    if isinstance(event, HandVoid):
        return "Everyone still in would be out: nobody pays and the hand is dealt again"
    if isinstance(event, Eliminated):
        return "You are out" if event.seat == me else f"{who(event.seat, names, me)} is out"
    if isinstance(event, RoundOver):
        return None  # the Paid, Eliminated and HandVoid lines before it say how the hand went
    if isinstance(event, MatchOver):
        if not event.winners:
            return "Nobody wins the match"
        if len(event.winners) > 1:
            return "Shared win: " + ", ".join(who(seat, names, me) for seat in event.winners)
        winner = event.winners[0]
        line = "You win the match" if winner == me else f"{who(winner, names, me)} wins the match"
        if pot and getattr(options, "preset", None) == "chase":
            line += f" and the pot of {pot}"
        return line
    return None
