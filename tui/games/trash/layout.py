"""A Trash layout as a grid of cards: slots 1–5 over 6–10, face-down backs with their slot's label, face-up cards,
Kings marked (a King on a slot can still be swapped out, so it must stand out from the cards that are there to
stay).

One widget draws a whole layout (a click is mapped to its slot from where it falls), and draws again only when
something it shows has changed. Four sizes: ``small`` (one line a card: the other players at 80 columns),
``medium`` (three lines), ``large`` (five lines) and ``xl`` (seven lines: your own layout on a large terminal); the
screen picks them for the room it has (:func:`panel_width` says how wide a layout is at each).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

from textual import events
from textual.content import Content
from textual.geometry import Offset, Size
from textual.message import Message
from textual.widget import Widget

from engine.cards import Card, Rank
from tui.games.trash.words import slot_label
from tui.widgets.quiet import set_border
from tui.widgets.seats import seat_title
from tui.words.faces import card_style, card_text

CardSize = Literal["small", "medium", "large", "xl"]
SLOTS = 10
COLUMNS = 5
SIZE_WIDTH: dict[CardSize, int] = {"small": 4, "medium": 6, "large": 9, "xl": 11}
"""The columns a card takes, border included (the grid puts one column of gap between cards)."""
SIZE_HEIGHT: dict[CardSize, int] = {"small": 1, "medium": 3, "large": 5, "xl": 7}


def panel_width(size: CardSize) -> int:
    """The columns a layout panel takes with cards of ``size``: five cards, four gaps, its border and padding
    (none for small cards, so three other players' layouts fit in 80 columns).

    >>> [panel_width(size) for size in SIZE_WIDTH]
    [26, 38, 53, 63]
    """
    padding = 0 if size == "small" else 2
    return COLUMNS * SIZE_WIDTH[size] + COLUMNS - 1 + 2 + padding


def panel_height(size: CardSize) -> int:
    """The rows a layout panel of ten slots takes: two rows of cards and its border."""
    return 2 * SIZE_HEIGHT[size] + 2


def is_king(card: Card | None) -> bool:
    return card is not None and card.rank is Rank.KING


def card_lines(slot: int, card: Card | None, size: CardSize) -> list[str]:
    """The rows of the card on ``slot`` at ``size`` (``card`` None: face down).

    >>> card_lines(1, None, "medium")
    ['┌─A──┐', '│░░░░│', '└────┘']
    >>> card_lines(10, Card.parse("KS"), "medium")
    ['╔═10═╗', '║ K♠ ║', '╚═K══╝']
    >>> card_lines(7, Card.parse("7H"), "small")
    [' 7♥ ']
    """
    label = slot_label(slot)
    king = is_king(card)
    if size == "small":
        if card is None:
            return [f"{label:^3} "]
        return [f"{card_text(card):>3}" + ("ᴷ" if king else " ")]
    inner = SIZE_WIDTH[size] - 2
    h, tl, tr, bl, br, v = ("═", "╔", "╗", "╚", "╝", "║") if king else ("─", "┌", "┐", "└", "┘", "│")
    top = tl + (h + label).ljust(inner, h) + tr
    bottom = bl + ("K".center(inner, h) if king else h * inner) + br
    rows = SIZE_HEIGHT[size] - 2
    if card is None:
        middle = ["░" * inner for _ in range(rows)]
    elif rows == 1:
        middle = [card_text(card).center(inner)]
    else:
        face = card_text(card)
        middle = [face.ljust(inner), *("".center(inner) for _ in range(rows - 2)), face.rjust(inner)]
        if rows >= 5:
            middle[rows // 2] = face.center(inner)
    return [top, *(v + row + v for row in middle), bottom]


def card_content(slot: int, card: Card | None, size: CardSize) -> Content:
    """:func:`card_lines` with colour: the suit's colour for a face-up card, a King in the warning colour, a back
    muted with its label bright (so you can tell which slot a back is)."""
    lines = card_lines(slot, card, size)
    if card is None:
        label = slot_label(slot)
        if size == "small":
            return Content.styled(lines[0], "bold $text-muted")
        top = lines[0]
        start = top.index(label)
        head = Content.assemble(
            (top[:start], "$text-muted"), (label, "bold $text"), (top[start + len(label) :], "$text-muted")
        )
        rest = Content.styled("\n".join(lines[1:]), "$text-muted")
        return head + Content("\n") + rest
    if is_king(card):
        return Content.styled("\n".join(lines), "bold $text-warning")
    colour = card_style(card)
    return Content.styled("\n".join(lines), colour)


class LayoutPanel(Widget):
    """A seat's layout with its name (border title) and its size and turns (border subtitle): its cards drawn in
    rows of five, one column apart, by this one widget (twenty card widgets were a sixth of a Trash table's
    start-up). A click on a card posts :class:`LayoutPanel.Clicked` with its slot (the screen decides what it means).

    The slots offered to click (face down while a King is to be placed) have the accent behind them, brighter
    under the mouse; the slot that changed last has the success colour behind it."""

    DEFAULT_CSS: ClassVar[str] = """
    LayoutPanel { height: auto; }
    """
    PICK = "on $accent 25%"
    PICK_HOVER = "on $accent 50%"
    FRESH = "on $success 20%"

    class Clicked(Message):
        def __init__(self, seat: int, slot: int) -> None:
            super().__init__()
            self.seat = seat
            self.slot = slot

    def __init__(self, seat: int, size: CardSize, *, mine: bool = False) -> None:
        classes = "tr-layout" + (" -mine" if mine else "") + f" -{size}"  # styled with its size from the start
        super().__init__(id=f"layout-{seat}", classes=classes)
        self.seat = seat
        self.card_size: CardSize = size
        self.mine = mine
        self.layout_cards: tuple[Card | None, ...] = (None,) * SLOTS
        """The card on each slot shown (None: face down); as many as the layout's size."""
        self.picking = False
        self.fresh: int | None = None
        self._hover: int | None = None
        self._lines: list[Content] | None = None
        """The drawing, kept until something it shows changes."""

    # -- what is shown ---------------------------------------------------------------------------------------------
    def set_size(self, size: CardSize) -> None:
        """Cards of ``size`` from now on (the screen picks it for the room there is)."""
        self.update_classes({f"-{self.card_size}": False, f"-{size}": True})
        self.card_size = size
        self._changed(layout=True)

    def show(
        self,
        layout: Sequence[Card | None],
        name: str,
        *,
        to_move: bool,
        picking: bool = False,
        fresh: int | None = None,
        subtitle: str = "",
        clock: int | None = None,
    ) -> None:
        """Draw ``layout`` (slot i+1 at index i; its length is the layout's size: other slots are not drawn).

        ``picking``: the face-down slots are offered to click (a King is to be placed); ``fresh``: the slot that
        changed last (drawn brighter while a chain plays); ``clock``: the seconds left on the seat's turn clock."""
        self.set_class(to_move, "-to-move")
        set_border(self, seat_title(name, to_move, clock), Content(subtitle))
        cards = tuple(layout)
        if (cards, picking, fresh) != (self.layout_cards, self.picking, self.fresh):
            resized = len(cards) != len(self.layout_cards)
            self.layout_cards, self.picking, self.fresh = cards, picking, fresh
            self._changed(layout=resized)

    def card(self, slot: int) -> Card | None:
        """The card shown on ``slot`` (None: face down, or not in the layout)."""
        return self.layout_cards[slot - 1] if 1 <= slot <= len(self.layout_cards) else None

    def shows(self, slot: int) -> bool:
        """Is ``slot`` part of the layout shown?"""
        return 1 <= slot <= len(self.layout_cards)

    def offered(self, slot: int) -> bool:
        """Is ``slot`` offered to click (face down while you place a King)?"""
        return self.picking and self.shows(slot) and self.card(slot) is None

    def slot_offset(self, slot: int) -> Offset:
        """Where ``slot``'s card is in this widget (from its top left corner, border included): what to click."""
        row, column = divmod(slot - 1, COLUMNS)
        left, top = self.styles.gutter.left, self.styles.gutter.top
        return Offset(left + column * (SIZE_WIDTH[self.card_size] + 1), top + row * SIZE_HEIGHT[self.card_size])

    def _changed(self, *, layout: bool) -> None:
        self._lines = None
        self.refresh(layout=layout)

    # -- drawing ---------------------------------------------------------------------------------------------------
    def _rows(self) -> int:
        return max(1, -(-len(self.layout_cards) // COLUMNS))

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return COLUMNS * SIZE_WIDTH[self.card_size] + COLUMNS - 1  # five cards wide however many: panel_width()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self._rows() * SIZE_HEIGHT[self.card_size]

    def _background(self, slot: int, card: Card | None) -> str | None:
        """What is behind a card: an offered slot under the mouse, else the slot that changed last, else an offered
        slot (the order the card widgets' stylesheet gave them)."""
        offered = self.picking and card is None
        if offered and slot == self._hover:
            return self.PICK_HOVER
        if slot == self.fresh:
            return self.FRESH
        return self.PICK if offered else None

    def _draw(self) -> list[Content]:
        size = self.card_size
        height = SIZE_HEIGHT[size]
        lines: list[Content] = []
        for row in range(self._rows()):
            faces: list[list[Content]] = []
            for column in range(COLUMNS):
                slot = row * COLUMNS + column + 1
                if slot > len(self.layout_cards):
                    break
                card = self.layout_cards[slot - 1]
                face = card_content(slot, card, size).split("\n")
                background = self._background(slot, card)
                faces.append([line.stylize_before(background) for line in face] if background else face)
            for line in range(height):
                lines.append(Content(" ").join(face[line] for face in faces))
        return lines

    def render(self) -> Content:
        if self._lines is None:
            self._lines = self._draw()
        return Content("\n").join(self._lines)

    # -- the mouse -------------------------------------------------------------------------------------------------
    def slot_at(self, offset: Offset) -> int | None:
        """The slot whose card is at ``offset`` within the cards (not the border), or None."""
        x, y = offset
        width, height = SIZE_WIDTH[self.card_size] + 1, SIZE_HEIGHT[self.card_size]
        if x < 0 or y < 0 or x % width == width - 1 or x // width >= COLUMNS:
            return None
        slot = y // height * COLUMNS + x // width + 1
        return slot if slot <= len(self.layout_cards) else None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        slot = self.slot_at(offset) if offset is not None else None
        if slot is not None:  # a click on a card is the layout's; one on its border or a gap goes on, as it did
            event.stop()
            self.post_message(self.Clicked(self.seat, slot))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        offset = event.get_content_offset(self)
        self._set_hover(self.slot_at(offset) if offset is not None else None)

    def on_leave(self, event: events.Leave) -> None:
        self._set_hover(None)

    def _set_hover(self, slot: int | None) -> None:
        if slot != self._hover:
            before, self._hover = self._hover, slot
            if self.picking and (self.offered(before or 0) or self.offered(slot or 0)):
                self._changed(layout=False)
