"""A hand of cards drawn as one widget: a row of card faces, a cursor, selected cards raised.

One widget for the whole hand (not one per card): a 13-card hand redraws as a single render, in place. The faces
are as large as the strip's height allows (mini 4x3 faces in a 7-row strip, up to 11x9 faces in a 13-row one; the
screen's CSS gives the strip its height for the room there is), overlapped like a fanned hand when the row is
wider than the strip. A hand too long even for that (Rank's can grow past 20 cards) is drawn with mini faces and
shows a window of it that follows the cursor, with ``‹`` and ``›`` at the edges saying there is more.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

import rich.repr
from textual import events
from textual.content import Content
from textual.message import Message
from textual.widget import Widget

from engine.cards import Card
from tui.widgets.card import FACE_SIZES, FaceSize, faces_row, fan_step, mini_lines, sized_lines, style_row

__all__ = ["CARD_WIDTH", "HAND_SIZES", "Fan", "HandStrip", "SortOrder", "faces_row", "small_face"]

CARD_WIDTH = 4
"""Columns per mini card: ``┌──┐`` / ``│10│`` / ``└♥─┘`` (the hand at 80x24)."""
HAND_SIZES: tuple[FaceSize, ...] = ("huge", "large", "medium", "mini")
"""The face sizes a hand may take, largest first."""
SortOrder = Literal["rank", "suit"]


def small_face(card: Card) -> tuple[str, str, str]:
    """The three rows of a mini card face.

    >>> small_face(Card.parse("10H"))
    ('┌──┐', '│10│', '└♥─┘')
    """
    top, middle, bottom = mini_lines(card)
    return top, middle, bottom


@dataclass(frozen=True)
class Fan:
    """How a hand is laid out in its strip: the face size, the columns from one card to the next, and the window
    of cards shown (all of them unless ``scrolled``)."""

    size: FaceSize
    step: int
    first: int
    count: int
    scrolled: bool

    @property
    def width(self) -> int:
        return FACE_SIZES[self.size][0]

    @property
    def height(self) -> int:
        return FACE_SIZES[self.size][1]


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

    class SelectionChanged(Message):
        """The selected cards changed (by key or click)."""

        def __init__(self, strip: HandStrip, selected: tuple[Card, ...]) -> None:
            super().__init__()
            self.strip = strip
            self.selected = selected

        def __rich_repr__(self) -> rich.repr.Result:
            yield "selected", self.selected

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

    # -- the layout: face size, overlap, and the window shown when the hand is wider than the strip ---------------
    def fan(self) -> Fan:
        """The layout of the hand in the strip as it is now sized (mini faces edge to edge before the first
        layout)."""
        width, height = self.content_size
        count = len(self.cards)
        if width <= 0 or height <= 0:
            return Fan("mini", CARD_WIDTH, 0, count, False)
        for size in HAND_SIZES:
            face_width, face_height = FACE_SIZES[size]
            if face_height + 2 > height:  # a row for raised cards, a row for the cursor
                continue
            if size == "mini":
                break
            step = fan_step(count, face_width, width)
            if step is not None:
                return Fan(size, step, 0, count, False)
        if count * CARD_WIDTH <= width:
            return Fan("mini", CARD_WIDTH, 0, count, False)
        room = max(1, (width - 2) // CARD_WIDTH)  # a column at each edge for the ‹ › marks
        first = min(self.first, count - room)
        if self.cursor < first:
            first = self.cursor
        elif self.cursor >= first + room:
            first = self.cursor - room + 1
        self.first = max(0, first)
        return Fan("mini", CARD_WIDTH, self.first, room, True)

    def index_at(self, x: int) -> int | None:
        """The card under column ``x`` of the strip's content, or None (where cards overlap, the card on top)."""
        fan = self.fan()
        if fan.scrolled:
            x -= 1
        if x < 0:
            return None
        shown = min(fan.count, len(self.cards) - fan.first)
        index = min(x // fan.step, shown - 1)
        if index < 0 or x >= index * fan.step + fan.width:
            return None
        return fan.first + index

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        index = self.index_at(offset.x) if offset is not None else None
        if index is not None:
            event.stop()
            self.toggle(index)

    def _changed(self) -> None:
        self.post_message(self.SelectionChanged(self, self.selection))

    # -- drawing -------------------------------------------------------------------------------------------------
    def render(self) -> Content:
        if not self.cards:
            return Content.styled("(no cards)", "$text-muted")
        # Row 0 holds the tops of raised (selected) cards; then the faces; the last row the cursor mark.
        fan = self.fan()
        height = fan.height
        rows: list[list[Content]] = [[] for _ in range(height + 2)]
        focused = self.has_focus
        shown = self.cards[fan.first : fan.first + fan.count]
        for index, card in enumerate(shown, start=fan.first):
            last = index == fan.first + len(shown) - 1
            columns = fan.width if last else min(fan.step, fan.width)
            gap = 0 if last else max(0, fan.step - fan.width)
            raised = card in self.selected
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
            face = [style_row(line[:columns], card, frame) for line in sized_lines(card, fan.size)]
            blank = Content(" " * columns)
            column = [*face, blank] if raised else [blank, *face]
            for row, piece in zip(rows, column, strict=False):
                row.append(piece + Content(" " * gap) if gap else piece)
            mark = "▲" if index == self.cursor else " "
            rows[-1].append(Content.styled(mark.center(columns + gap)[: columns + gap], "bold $text-accent"))
        if fan.scrolled:
            before, after = fan.first, len(self.cards) - fan.first - fan.count
            middle = (height + 1) // 2
            for number, row in enumerate(rows):
                left = "‹" if before and number == middle else " "
                right = "›" if after and number == middle else " "
                row.insert(0, Content.styled(left, "bold $text-accent"))
                row.append(Content.styled(right, "bold $text-accent"))
        return Content("\n").join(Content("").join(row) for row in rows)
