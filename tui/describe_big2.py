"""Big Two events in plain words, as the event log shows them.

>>> from engine.games.big2 import Passed
>>> describe_big2(Passed(seat=2), ("You", "Ana", "Ben"), me=0)
'Ben passes'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import Card
from engine.events import Event
from engine.games.big2 import DealOver, DealStarted, HandDealt, MatchOver, Passed, Played, RoundWon
from tui.describe import who


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(card.pretty() for card in cards)


def and_list(words: Sequence[str]) -> str:
    """ "Ana", "Ana and Ben", "Ana, Ben and Cleo"."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def left_text(left: int) -> str:
    if left == 0:
        return "out of cards!"
    if left == 1:
        return "1 card left!"
    return f"{left} left"


def signed(points: int) -> str:
    """+12, −4, 0 (a real minus sign)."""
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"−{-points}"
    return "0"


def describe_big2(event: Event, names: Sequence[str], me: int | None, options: Any = None) -> str | None:
    """One line of plain words for a Big Two ``event`` as seat ``me`` sees it, or None when it needs no line."""
    if isinstance(event, DealStarted):
        card = event.lead_card.pretty()
        if event.leader == me:
            return f"Deal {event.deal} — you hold the {card} and lead"
        return f"Deal {event.deal} — {who(event.leader, names, me)} holds the {card} and leads"
    if isinstance(event, HandDealt):
        return None  # your hand is on the table; the others' are only counts
    if isinstance(event, Played):
        actor = who(event.seat, names, me, start=True)
        verb = "play" if event.seat == me else "plays"
        what = event.description
        if event.kind != "single":
            what += f" ({cards_text(event.cards)})"
        return f"{actor} {verb} {what} — {left_text(event.left)}"
    if isinstance(event, Passed):
        return "You pass" if event.seat == me else f"{who(event.seat, names, me)} passes"
    if isinstance(event, RoundWon):
        if event.seat == me:
            return "You win the round and lead"
        return f"{who(event.seat, names, me)} wins the round and leads"
    if isinstance(event, DealOver):
        gain = event.deltas[event.winner]
        if event.winner == me:
            return f"You win the deal: {signed(gain)}"
        return f"{who(event.winner, names, me)} wins the deal: {signed(gain)}"
    if isinstance(event, MatchOver):
        winners = [who(seat, names, me, start=i == 0) for i, seat in enumerate(event.winners)]
        best = signed(event.totals[event.winners[0]]) if event.winners else "0"
        verb = "win" if len(winners) > 1 or (event.winners and event.winners[0] == me) else "wins"
        return f"{and_list(winners)} {verb} the match with {best}"
    return None
