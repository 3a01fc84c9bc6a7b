"""Events in plain words, as the event log shows them.

``describe(event, names, me)`` is pure: it reads only the event (as the seat ``me`` received it, maybe redacted),
the seat names and, when given, the table's options. ``None`` means the event is not worth a line.

>>> from engine.games.chase import Stayed
>>> describe(Stayed(seat=1), ("You", "Ana"), me=0)
'Ana stayed'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import Card
from engine.events import Event
from engine.games.chase import (
    CardDealt,
    DealerMoved,
    DeckSwapped,
    Eliminated,
    HandStarted,
    HandVoid,
    KingShown,
    MatchOver,
    PackCut,
    Paid,
    Revealed,
    Stayed,
    Traded,
)


def card_text(card: Card | None) -> str:
    return card.pretty() if card is not None else "?"


def who(seat: int, names: Sequence[str], me: int | None, *, start: bool = False) -> str:
    """A seat's name, or "you"/"You" for the seat watching."""
    if seat == me:
        return "You" if start else "you"
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def whose(seat: int, names: Sequence[str], me: int | None, *, start: bool = False) -> str:
    if seat == me:
        return "Your" if start else "your"
    return who(seat, names, me) + "'s"


def lives_left_text(lives_left: int, options: Any = None) -> str:
    """What is left after paying: "2 left", "now on honour" or "out"."""
    if lives_left <= 0:
        return "out"
    if options is not None and getattr(options, "on_honour", False):
        if lives_left == 1:
            return "now on honour"
        return f"{lives_left - 1} left"
    return f"{lives_left} left"


def describe(event: Event, names: Sequence[str], me: int | None, options: Any = None) -> str | None:
    """One line of plain words for ``event`` as seat ``me`` sees it, or None when it needs no line."""
    if isinstance(event, HandStarted):
        dealer = "you deal" if event.dealer == me else f"{who(event.dealer, names, me)} deals"
        return f"Hand {event.hand} — {dealer}"
    if isinstance(event, CardDealt):
        if event.card is None or event.seat != me:
            return None
        return f"You were dealt {card_text(event.card)}"
    if isinstance(event, KingShown):
        holder = whose(event.seat, names, me, start=True)
        if event.blocked is None:
            return f"{holder} {card_text(event.card)} is turned face up"
        return f"{holder} {card_text(event.card)} blocked {whose(event.blocked, names, me)} trade"
    if isinstance(event, Stayed):
        return f"{who(event.seat, names, me, start=True)} stayed"
    if isinstance(event, Traded):
        actor = who(event.seat, names, me, start=True)
        target = who(event.target, names, me)
        if event.gave is None or event.got is None:
            return f"{actor} traded with {target}"
        if event.seat == me:
            return f"You traded with {target}: you gave {card_text(event.gave)} and got {card_text(event.got)}"
        if event.target == me:
            return f"{actor} traded with you: you gave {card_text(event.got)} and got {card_text(event.gave)}"
        return f"{actor} traded with {target}: {actor} gave {card_text(event.gave)} and got {card_text(event.got)}"
    if isinstance(event, DeckSwapped):
        if event.seat == me and event.gave is not None and event.got is not None:
            return f"You swapped with the deck: you gave {card_text(event.gave)} and got {card_text(event.got)}"
        if event.seat == me:
            return "You swapped with the deck"
        return f"{who(event.seat, names, me)} (dealer) swapped with the deck"
    if isinstance(event, PackCut):
        if event.seat == me:
            return f"You cut the pack: {card_text(event.got)}"
        return f"{who(event.seat, names, me)} (dealer) cut the pack: {card_text(event.got)}"
    if isinstance(event, Revealed):
        shown = ", ".join(f"{who(seat, names, me)} {card_text(card)}" for seat, card in event.cards)
        return f"Cards up: {shown}"
    if isinstance(event, Paid):
        verb = "pay" if event.seat == me else "pays"
        left = lives_left_text(event.lives_left, options)
        return (
            f"{who(event.seat, names, me, start=True)} {verb} {event.amount} "
            f"({event.reason}: {card_text(event.card)}) — {left}"
        )
    if isinstance(event, HandVoid):
        return "Everyone still in would be out: nobody pays and the hand is dealt again"
    if isinstance(event, Eliminated):
        return "You are out" if event.seat == me else f"{who(event.seat, names, me)} is out"
    if isinstance(event, DealerMoved):
        return None  # the next HandStarted says who deals
    if isinstance(event, MatchOver):
        winner = "You win the match" if event.winner == me else f"{who(event.winner, names, me)} wins the match"
        if event.pot and getattr(options, "preset", None) == "chase":
            winner += f" and the pot of {event.pot}"
        return winner
    return None
