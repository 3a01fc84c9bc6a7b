"""Trash events in plain words, as the event log and the end-of-deal dialog show them.

The engine's events carry data (a seat, a slot, a card, a reason); the words are made here. One move makes a chain
of events, each its own step; :class:`TrashNarrator` joins a card put on a slot with the card turned up there into
one line ("You put the 7♥ on slot 7 and turn up the Q♣"), so the log reads like the table.

>>> from engine.cards import Card
>>> from engine.games.trash.rules import Drew
>>> describe_trash(Drew(seat=1, source="stock", card=Card.parse("7H")), ("You", "Ben"), me=0)
'Ben draws the 7♥ from the stock'
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card
from engine.events import Event
from engine.games.trash.rules import (
    Completed,
    DealOver,
    DealStarted,
    Discarded,
    DiscardReason,
    Drew,
    FinalRound,
    KingPlaced,
    KingReplaced,
    PickedUp,
    Placed,
    StockShuffled,
)
from engine.match import MatchOver, RoundOver, RoundStarted
from tui.words import and_list, who
from tui.words.faces import card_text

SLOT_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
"""A slot's label, as the card grid shows it: the Ace's slot is "A"."""

SOURCE_WORDS = {
    "stock": "from the stock",
    "discard": "from the discard pile",
    "slot": "turned up from the layout",
    "king": "swapped out of the layout",
}
"""Where a held card came from (``TrashView.held_from``), in words."""


def slot_label(slot: int) -> str:
    """ "A" for slot 1, else the number."""
    return SLOT_LABELS[slot - 1] if 1 <= slot <= len(SLOT_LABELS) else str(slot)


def verb(seat: int, me: int | None, plain: str, third: str) -> str:
    """The verb as the actor needs it: "you put", "Ben puts"."""
    return plain if seat == me else third


def sizes_text(sizes: Sequence[int], names: Sequence[str], me: int | None) -> str:
    """Each seat's layout size: "you 9, Ben 10" (you first)."""
    order = sorted(range(len(sizes)), key=lambda seat: (seat != me, seat))
    return ", ".join(f"{who(seat, names, me)} {sizes[seat]}" for seat in order)


def you_first(seats: Sequence[int], me: int | None) -> list[int]:
    """``seats`` with yours first, then by seat."""
    return sorted(seats, key=lambda seat: (seat != me, seat))


def winners_text(winners: Sequence[int], names: Sequence[str], me: int | None) -> str:
    """ "You", "Ben", "You and Ben" (you first)."""
    return and_list([who(seat, names, me, start=i == 0) for i, seat in enumerate(you_first(winners, me))])


def discard_words(event: Discarded, names: Sequence[str], me: int | None) -> str:
    """Why a card went on the discard pile."""
    card = card_text(event.card)
    if event.reason is DiscardReason.NO_SLOT:
        return f"The {card} has no slot: discarded"
    if event.reason is DiscardReason.TAKEN:
        return f"The {card}'s slot is already face up: discarded"
    if event.reason is DiscardReason.DECLINED:
        actor = who(event.seat, names, me, start=True)
        return f"{actor} {verb(event.seat, me, 'keep', 'keeps')} the King: the {card} is discarded"
    if event.reason is DiscardReason.COMPLETED:
        return f"The {card} turned up last goes on the discard pile"
    if event.reason is DiscardReason.NO_ROOM:
        return f"The {card} could only replace a King, and no face-down slot is left for it: discarded"
    return f"The {card} is discarded"


def describe_trash(event: Event, names: Sequence[str], me: int | None, options: object = None) -> str | None:
    """One line of plain words for a Trash ``event`` as seat ``me`` sees it, or None when it needs no line."""
    if isinstance(event, RoundStarted):
        return None  # DealStarted, right after it, says who starts
    if isinstance(event, DealStarted):
        first = "you start" if event.first == me else f"{who(event.first, names, me)} starts"
        line = f"Deal {event.deal} — {first}"
        if any(size != 10 for size in event.sizes):
            line += f" (layouts: {sizes_text(event.sizes, names, me)})"
        return line
    if isinstance(event, StockShuffled):
        return f"The stock ran out: the discard pile but its top card is shuffled into a new stock of {event.cards}"
    if isinstance(event, Drew):
        actor = who(event.seat, names, me, start=True)
        if event.source == "discard":
            return f"{actor} {verb(event.seat, me, 'take', 'takes')} the {card_text(event.card)} from the discard pile"
        return f"{actor} {verb(event.seat, me, 'draw', 'draws')} the {card_text(event.card)} from the stock"
    if isinstance(event, Placed | KingPlaced):
        actor = who(event.seat, names, me, start=True)
        card = card_text(event.card)
        return f"{actor} {verb(event.seat, me, 'put', 'puts')} the {card} on slot {slot_label(event.slot)}"
    if isinstance(event, PickedUp):
        actor = who(event.seat, names, me, start=True)
        turn = verb(event.seat, me, "turn", "turns")
        return f"{actor} {turn} up the {card_text(event.card)} on slot {slot_label(event.slot)}"
    if isinstance(event, KingReplaced):
        actor = who(event.seat, names, me, start=True)
        return (
            f"{actor} {verb(event.seat, me, 'put', 'puts')} the {card_text(event.card)} on slot "
            f"{slot_label(event.slot)} in place of the {card_text(event.king)}, which must move"
        )
    if isinstance(event, Discarded):
        return discard_words(event, names, me)
    if isinstance(event, Completed):
        actor = who(event.seat, names, me, start=True)
        layout = "your" if event.seat == me else "their"
        turns = f"{event.turn} turn{'s' if event.turn != 1 else ''}"
        return f"{actor} {verb(event.seat, me, 'complete', 'completes')} {layout} layout in {turns}!"
    if isinstance(event, FinalRound):
        if event.seat == me:
            return "Last turn: everyone else plays once more"
        return f"Last turn: everyone but {who(event.seat, names, me)} plays once more"
    if isinstance(event, DealOver):
        if not event.winners:
            line = "Nobody completes the deal"
        else:
            text = winners_text(event.winners, names, me)
            one = len(event.winners) == 1 and event.winners[0] != me
            line = f"{text} {'wins' if one else 'win'} the deal"
        if event.next_sizes is not None:
            line += f" — next deal: {sizes_text(event.next_sizes, names, me)} cards"
        return line
    if isinstance(event, RoundOver):
        return None  # the DealOver before it has the line
    if isinstance(event, MatchOver):
        if not event.winners:
            return "Nobody wins the match"
        text = winners_text(event.winners, names, me)
        one = len(event.winners) == 1 and event.winners[0] != me
        return f"{text} {'wins' if one else 'win'} the match"
    return None


class TrashNarrator:
    """The log's lines for a stream of Trash events: a card put on a face-down slot and the card turned up there
    make one line. ``feed`` gives the lines to write now; a placement waits for its turn-up (the next event).

    >>> from engine.cards import Card
    >>> n = TrashNarrator(("You", "Ben"), me=0)
    >>> n.feed(Placed(seat=0, slot=7, card=Card.parse("7H")))
    []
    >>> n.feed(PickedUp(seat=0, slot=7, card=Card.parse("QC")))
    ['You put the 7♥ on slot 7 and turn up the Q♣']
    """

    def __init__(self, names: Sequence[str], me: int | None) -> None:
        self.names = names
        self.me = me
        self._placed: Placed | KingPlaced | None = None

    def feed(self, event: Event) -> list[str]:
        """The lines ``event`` completes (maybe none, maybe the held-back placement and this event's own)."""
        lines: list[str] = []
        placed = self._placed
        self._placed = None
        if placed is not None:
            if isinstance(event, PickedUp) and event.seat == placed.seat and event.slot == placed.slot:
                who_puts = describe_trash(placed, self.names, self.me)
                turn = verb(event.seat, self.me, "turn", "turns")
                return [f"{who_puts} and {turn} up the {card_text(event.card)}"]
            lines.extend(self.flush_line(placed))
        if isinstance(event, Placed | KingPlaced):
            self._placed = event
            return lines
        line = describe_trash(event, self.names, self.me)
        if line is not None:
            lines.append(line)
        return lines

    def flush(self) -> list[str]:
        """The held-back placement's line, when no turn-up follows (the queue ran dry)."""
        placed, self._placed = self._placed, None
        return self.flush_line(placed) if placed is not None else []

    def flush_line(self, placed: Placed | KingPlaced) -> list[str]:
        line = describe_trash(placed, self.names, self.me)
        return [line] if line is not None else []

    @property
    def pending(self) -> bool:
        return self._placed is not None


def card_words(card: Card | None) -> str:
    """ "the 7♥", or "nothing"."""
    return f"the {card_text(card)}" if card is not None else "nothing"
