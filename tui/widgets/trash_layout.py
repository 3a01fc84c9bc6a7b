"""A Trash layout as a grid of cards: slots 1–5 over 6–10, face-down backs with their slot's label, face-up cards,
Kings marked (a King on a slot can still be swapped out, so it must stand out from the cards that are there to
stay).

Each slot is its own small widget so a click names its slot without any arithmetic on offsets, and only a slot
that changed is drawn again. Four sizes: ``small`` (one line a card: the other players at 80 columns),
``medium`` (three lines), ``large`` (five lines) and ``xl`` (seven lines: your own layout on a large terminal); the
screen picks them for the room it has (:func:`panel_width` says how wide a layout is at each).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

from textual import events
from textual.app import ComposeResult
from textual.containers import Grid, Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from engine.cards import Card, Rank
from tui.describe_trash import slot_label
from tui.faces import card_style, card_text
from tui.widgets.quiet import set_border, set_text
from tui.widgets.seats import seat_title

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


class SlotCard(Static):
    """One slot of a layout. A click posts :class:`SlotCard.Clicked` (the screen decides what it means)."""

    class Clicked(Message):
        def __init__(self, seat: int, slot: int) -> None:
            super().__init__()
            self.seat = seat
            self.slot = slot

    def __init__(self, seat: int, slot: int, size: CardSize) -> None:
        # Face down, as every slot is dealt: the first show() of a face-down card then changes no class (a class
        # change after the mount is a restyle).
        super().__init__(id=f"slot-{seat}-{slot}", classes="tr-slot -down")
        self.seat = seat
        self.slot = slot
        self.card_size: CardSize = size
        self._shown: tuple[Card | None, CardSize] | None = None

    @property
    def card(self) -> Card | None:
        return self._shown[0] if self._shown is not None else None

    def show(self, card: Card | None, size: CardSize) -> None:
        """Draw ``card`` (None: face down) at ``size``; nothing is drawn again when nothing changed."""
        key = (card, size)
        if key == self._shown:
            return
        self._shown = key
        self.card_size = size
        self.update_classes({"-down": card is None, "-king": is_king(card)})  # one restyle, and only if changed
        set_text(self, card_content(self.slot, card, size))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.seat, self.slot))


class LayoutPanel(Vertical):
    """A seat's layout with its name (border title) and its size and turns (border subtitle)."""

    DEFAULT_CSS: ClassVar[str] = """
    LayoutPanel { height: auto; }
    LayoutPanel > Grid { height: auto; grid-size: 5; grid-gutter: 0 1; }
    """

    def __init__(self, seat: int, size: CardSize, *, mine: bool = False) -> None:
        classes = "tr-layout" + (" -mine" if mine else "") + f" -{size}"  # styled with its size from the start
        super().__init__(id=f"layout-{seat}", classes=classes)
        self.seat = seat
        self.card_size: CardSize = size
        self.mine = mine

    def compose(self) -> ComposeResult:
        with Grid(classes="tr-grid"):
            for slot in range(1, SLOTS + 1):
                yield SlotCard(self.seat, slot, self.card_size)

    def set_size(self, size: CardSize) -> None:
        """Cards of ``size`` from now on (the screen picks it for the room there is)."""
        self.update_classes({f"-{self.card_size}": False, f"-{size}": True})
        self.card_size = size
        grid = self.query_one(Grid)
        grid.styles.grid_size_columns = COLUMNS
        grid.styles.grid_columns = str(SIZE_WIDTH[size])
        grid.styles.grid_rows = str(SIZE_HEIGHT[size])

    def on_mount(self) -> None:
        self.set_size(self.card_size)

    def show(
        self,
        layout: Sequence[Card | None],
        name: str,
        *,
        to_move: bool,
        picking: bool = False,
        fresh: int | None = None,
        subtitle: str = "",
    ) -> None:
        """Draw ``layout`` (slot i+1 at index i; its length is the layout's size: other slots are hidden).

        ``picking``: the face-down slots are offered to click (a King is to be placed); ``fresh``: the slot that
        changed last (drawn brighter while a chain plays)."""
        self.set_class(to_move, "-to-move")
        set_border(self, seat_title(name, to_move), Content(subtitle))
        for card_widget in self.query(SlotCard):
            slot = card_widget.slot
            shown = slot <= len(layout)
            card_widget.display = shown
            if not shown:
                continue
            card = layout[slot - 1]
            card_widget.show(card, self.card_size)
            card_widget.set_class(picking and card is None, "-pick")
            card_widget.set_class(fresh == slot, "-fresh")

    def slot_card(self, slot: int) -> SlotCard:
        return self.query_one(f"#slot-{self.seat}-{slot}", SlotCard)
