"""A hand of cards drawn as one widget: a row of small card faces, a cursor, selected cards raised.

One widget for the whole hand (not one per card): a 13-card hand redraws as a single render, in place. A hand
wider than the strip (Rank's can grow past 20 cards) shows a window of it that follows the cursor, with ``‹`` and
``›`` at the edges saying there is more; a hand that fits is drawn exactly as before.
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
from tui.faces import card_style, suit_symbol

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
    suit = suit_symbol(card.suit)
    return "┌──┐", f"│{rank:>2}│", f"└{suit}─┘"


def faces_row(cards: Sequence[Card]) -> Content:
    """Small card faces side by side (three rows), suits coloured."""
    rows: list[list[Content]] = [[], [], []]
    for card in cards:
        top, middle, bottom = small_face(card)
        suit_style = card_style(card)
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

    def __init__(self, *, id: str | None = None, single: bool = False) -> None:
        """``single``: one card is chosen at a time, the cursor's (a game played a card at a time, Rank): the
        arrows move it and a click chooses the card clicked, instead of toggling cards in and out."""
        super().__init__(id=id)
        self.single = single
        self.cards: tuple[Card, ...] = ()
        """As shown, left to right."""
        self.selected: set[Card] = set()
        self.hinted: set[Card] = set()
        self.playable: set[Card] = set()
        """Cards drawn in the success colour: what may be played now (empty: no marks)."""
        self.cursor = 0
        self.first = 0
        """The first card shown when the hand is wider than the strip."""
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
        if self.single and ordered:
            chosen = {ordered[self.cursor]}
            changed = changed or chosen != self.selected
            self.selected = chosen
        self.refresh()
        if changed:
            self._changed()

    def mark_playable(self, cards: Iterable[Card]) -> None:
        """Draw these cards as playable now (none: no marks)."""
        playable = set(cards)
        if playable != self.playable:
            self.playable = playable
            self.refresh()

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
            self._follow_cursor()
            self.refresh()

    def move_to(self, card: Card) -> None:
        if card in self.cards:
            self.cursor = self.cards.index(card)
            self._follow_cursor()
            self.refresh()

    def _follow_cursor(self) -> None:
        """In single mode the cursor's card is the one chosen."""
        if self.single and self.cards:
            card = self.cards[self.cursor]
            if self.selected != {card}:
                self.selected = {card}
                self._changed()

    def toggle(self, index: int | None = None) -> None:
        """Select or unselect the card at ``index`` (the cursor's card by default)."""
        if index is None:
            index = self.cursor
        if not 0 <= index < len(self.cards):
            return
        card = self.cards[index]
        self.cursor = index
        if self.single:
            self.hinted.clear()
            self._follow_cursor()
            self.refresh()
            return
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

    # -- the window shown when the hand is wider than the strip -------------------------------------------------
    def _window(self) -> tuple[int, int, bool]:
        """(first card shown, cards shown, scrolled): every card when they fit (or before the first layout)."""
        width = self.content_size.width
        count = len(self.cards)
        if width <= 0 or count * CARD_WIDTH <= width:
            return 0, count, False
        room = max(1, (width - 2) // CARD_WIDTH)  # a column at each edge for the ‹ › marks
        first = min(self.first, count - room)
        if self.cursor < first:
            first = self.cursor
        elif self.cursor >= first + room:
            first = self.cursor - room + 1
        self.first = max(0, first)
        return self.first, room, True

    def index_at(self, x: int) -> int | None:
        """The card under column ``x`` of the widget, or None."""
        first, room, scrolled = self._window()
        if scrolled:
            x -= 1
        index = x // CARD_WIDTH
        return first + index if 0 <= x and index < room and first + index < len(self.cards) else None

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
        first, room, scrolled = self._window()
        for index, card in enumerate(self.cards[first : first + room], start=first):
            raised = card in self.selected
            face = small_face(card)
            suit_style = card_style(card)
            if card in self.hinted:
                frame = "bold $text-success"
            elif index == self.cursor:
                frame = "bold $text-accent" if focused else "$text-accent"
            elif raised:
                frame = "$text-primary"
            elif card in self.playable:
                frame = "$text-success"
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
        if scrolled:
            before, after = first, len(self.cards) - first - room
            for number, row in enumerate(rows):
                left = "‹" if before and number == 2 else " "
                right = "›" if after and number == 2 else " "
                row.insert(0, Content.styled(left, "bold $text-accent"))
                row.append(Content.styled(right, "bold $text-accent"))
        return Content("\n").join(Content("").join(row) for row in rows)
