"""A hand of cards drawn as one widget: a row of small card faces, a cursor, selected cards raised.

One widget for the whole hand (not one per card): a 13-card hand redraws as a single render, in place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from textual import events
from textual.content import Content
from textual.message import Message
from textual.widget import Widget

from engine.cards import Card
from tui.widgets.card import RED

CARD_WIDTH = 4
"""Columns per card: ``┌──┐`` / ``│10│`` / ``└♥─┘``."""
SortOrder = Literal["rank", "suit"]


def small_face(card: Card) -> tuple[str, str, str]:
    """The three rows of a small card face.

    >>> small_face(Card.parse("10H"))
    ('┌──┐', '│10│', '└♥─┘')
    >>> small_face(Card.parse("9S"))
    ('┌──┐', '│ 9│', '└♠─┘')
    """
    rank = card.rank.text if card.suit is not None else "JK"
    suit = card.suit.symbol if card.suit is not None else "★"
    return "┌──┐", f"│{rank:>2}│", f"└{suit}─┘"


def faces_row(cards: Sequence[Card]) -> Content:
    """Small card faces side by side (three rows), suits coloured."""
    rows: list[list[Content]] = [[], [], []]
    for card in cards:
        top, middle, bottom = small_face(card)
        suit_style = f"bold {RED}" if card.is_red else "bold $text"
        rows[0].append(Content(top))
        rows[1].append(Content.assemble("│", (middle[1:3], suit_style), "│"))
        rows[2].append(Content.assemble("└", (bottom[1], suit_style), "─┘"))
    return Content("\n").join(Content("").join(row) for row in rows)


class HandStrip(Widget, can_focus=True):
    """Your cards in a row. ``←``/``→`` move the cursor (bound on the screen), a click toggles a card.

    Selected cards are drawn one row higher; hinted cards in the success colour; the cursor card in the accent
    colour with a ``▲`` under it.
    """

    DEFAULT_CSS: ClassVar[str] = """
    HandStrip {
        height: 5;
        width: 1fr;
    }
    """

    @dataclass
    class SelectionChanged(Message):
        """The selected cards changed (by key or click)."""

        strip: HandStrip
        selected: tuple[Card, ...]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: tuple[Card, ...] = ()
        """As shown, left to right."""
        self.selected: set[Card] = set()
        self.hinted: set[Card] = set()
        self.cursor = 0
        self.sort: SortOrder = "rank"
        self._keys: dict[SortOrder, Callable[[Card], tuple[int, int]]] = {}

    # -- contents ------------------------------------------------------------------------------------------------
    def set_order(self, by_rank: Callable[[Card], tuple[int, int]], by_suit: Callable[[Card], tuple[int, int]]) -> None:
        """The sort keys for the game in play (Big Two: 3 low ... 2 high, then the variant's suit order)."""
        self._keys = {"rank": by_rank, "suit": by_suit}

    def show(self, cards: Iterable[Card]) -> None:
        """Show these cards (sorted), keeping the selection of the cards still held."""
        ordered = self._sorted(cards)
        if ordered == self.cards:
            return
        under = self.cards[self.cursor] if 0 <= self.cursor < len(self.cards) else None
        self.cards = ordered
        held = set(ordered)
        changed = bool(self.selected - held)
        self.selected &= held
        self.hinted &= held
        if under in held:
            self.cursor = ordered.index(under)
        self.cursor = max(0, min(self.cursor, len(ordered) - 1))
        self.refresh()
        if changed:
            self._changed()

    def toggle_sort(self) -> SortOrder:
        self.sort = "suit" if self.sort == "rank" else "rank"
        under = self.cards[self.cursor] if self.cards else None
        self.cards = self._sorted(self.cards)
        if under is not None:
            self.cursor = self.cards.index(under)
        self.refresh()
        return self.sort

    def _sorted(self, cards: Iterable[Card]) -> tuple[Card, ...]:
        key = self._keys.get(self.sort)
        return tuple(sorted(cards, key=key)) if key else tuple(cards)

    @property
    def selection(self) -> tuple[Card, ...]:
        """The selected cards, in the order shown."""
        return tuple(card for card in self.cards if card in self.selected)

    # -- changing the selection ----------------------------------------------------------------------------------
    def move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)
            self.refresh()

    def move_to(self, card: Card) -> None:
        if card in self.cards:
            self.cursor = self.cards.index(card)
            self.refresh()

    def toggle(self, index: int | None = None) -> None:
        """Select or unselect the card at ``index`` (the cursor's card by default)."""
        if index is None:
            index = self.cursor
        if not 0 <= index < len(self.cards):
            return
        card = self.cards[index]
        self.cursor = index
        self.selected ^= {card}
        self.hinted.clear()
        self.refresh()
        self._changed()

    def select(self, cards: Sequence[Card], *, hint: bool = False) -> None:
        """Select exactly ``cards`` (the ones held); as a hint, they are highlighted too."""
        self.selected = {card for card in cards if card in self.cards}
        self.hinted = set(self.selected) if hint else set()
        if cards and cards[0] in self.cards:
            self.cursor = self.cards.index(cards[0])
        self.refresh()
        self._changed()

    def clear(self) -> None:
        self.select(())

    def index_at(self, x: int) -> int | None:
        """The card under column ``x`` of the widget, or None."""
        index = x // CARD_WIDTH
        return index if 0 <= x and index < len(self.cards) else None

    def on_click(self, event: events.Click) -> None:
        index = self.index_at(event.x)
        if index is not None:
            event.stop()
            self.toggle(index)

    def _changed(self) -> None:
        self.post_message(self.SelectionChanged(self, self.selection))

    # -- drawing -------------------------------------------------------------------------------------------------
    def render(self) -> Content:
        # Row 0 holds the tops of raised (selected) cards; rows 1-3 the rest; row 4 the cursor mark.
        rows: list[list[Content]] = [[], [], [], [], []]
        focused = self.has_focus
        for index, card in enumerate(self.cards):
            raised = card in self.selected
            face = small_face(card)
            suit_style = f"bold {RED}" if card.is_red else "bold $text"
            if card in self.hinted:
                frame = "bold $text-success"
            elif index == self.cursor:
                frame = "bold $text-accent" if focused else "$text-accent"
            elif raised:
                frame = "$text-primary"
            else:
                frame = "$text-muted"
            top = Content.styled(face[0], frame)
            middle = Content.assemble(("│", frame), (face[1][1:3], suit_style), ("│", frame))
            bottom = Content.assemble(("└", frame), (face[2][1], suit_style), ("─┘", frame))
            blank = Content(" " * CARD_WIDTH)
            column = [top, middle, bottom, blank] if raised else [blank, top, middle, bottom]
            for row, piece in zip(rows, column, strict=False):
                row.append(piece)
            mark = "▲" if index == self.cursor else " "
            rows[4].append(Content.styled(mark.center(CARD_WIDTH)[:CARD_WIDTH], "bold $text-accent"))
        if not self.cards:
            return Content.styled("(no cards)", "$text-muted")
        return Content("\n").join(Content("").join(row) for row in rows)
