"""Playing cards drawn as faces, at every size a table uses, and the colour rules for card text.

One drawing for every table: :func:`face_lines` gives the rows of a face (or a back) of any size from 4x3 up,
:func:`face_rows` colours them (the frame in a colour of the caller's choosing, the rank and suit in the suit's
colour), and :func:`faces_row` lays faces side by side, overlapped like a fanned hand when the room is short.

The named sizes (:data:`FACE_SIZES`): ``mini`` (4x3, rank inside, suit in the bottom edge: a 13-card hand in 52
columns), ``medium`` (7x5), ``large`` (9x7), ``huge`` (11x9). :class:`CardFace` is one card drawn large, at the
size its screen chooses (:data:`BIG_SIZES`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from rich.text import Text
from textual.content import Content
from textual.widgets import Static

from engine.cards import Card
from tui.words.faces import card_style, card_text, current, suit_class, suit_symbol

RED = "$text-error"
"""The theme's error text colour: a red tuned to read on the theme's background, dark or light."""

FaceSize = Literal["mini", "medium", "large", "huge"]
FACE_SIZES: dict[FaceSize, tuple[int, int]] = {"mini": (4, 3), "medium": (7, 5), "large": (9, 7), "huge": (11, 9)}
"""Columns and rows of each named face size, borders included."""

BigSize = Literal["normal", "big", "bigger"]
BIG_SIZES: dict[BigSize, tuple[int, int]] = {"normal": (11, 7), "big": (15, 11), "bigger": (19, 13)}
"""The sizes of :class:`CardFace` (one card drawn large: your card at the Screw/Chase table)."""

FRAME = frozenset("┌┐└┘─│╔╗╚╝═║")
BACK = "░"


def card_markup(card: Card | None) -> Content:
    """A card's short text, red for hearts and diamonds, theme text colour for spades and clubs."""
    if card is None:
        return Content.styled("?", "$text-muted")
    return Content.styled(card_text(card), card_style(card))


def mini_lines(card: Card) -> list[str]:
    """The three rows of a mini face: the rank inside, the suit in the bottom edge.

    >>> mini_lines(Card.parse("10H"))
    ['┌──┐', '│10│', '└♥─┘']
    >>> mini_lines(Card.parse("9S"))
    ['┌──┐', '│ 9│', '└♠─┘']
    """
    rank = card.rank.text if card.suit is not None else "JK"
    return ["┌──┐", f"│{rank:>2}│", f"└{suit_symbol(card.suit)}─┘"]


def face_lines(card: Card | None, width: int = 11, height: int = 7) -> list[str]:
    """The rows of a card face ``width`` columns by ``height`` rows (a face-down back when ``card`` is None): the
    rank and suit in the top-left and bottom-right corners, the card in the middle when there is room.

    >>> print("\\n".join(face_lines(Card.parse("10H"))))
    ┌─────────┐
    │10       │
    │♥        │
    │    ♥    │
    │        ♥│
    │       10│
    └─────────┘
    >>> print("\\n".join(face_lines(Card.parse("QS"), 7, 5)))
    ┌─────┐
    │Q    │
    │  ♠  │
    │    Q│
    └─────┘
    """
    inner, rows = max(2, width - 2), max(1, height - 2)
    top, bottom = "┌" + "─" * inner + "┐", "└" + "─" * inner + "┘"
    if card is None:
        return [top] + ["│" + BACK * inner + "│" for _ in range(rows)] + [bottom]
    rank = card.rank.text if card.suit is not None else "JK"
    suit = suit_symbol(card.suit)
    if rows >= 5:
        middle = [""] * (rows - 4)
        centre = card_text(card) if rows >= 7 and len(card_text(card)) <= inner - 2 else suit
        mid = (rows - 4) // 2
        middle[mid] = centre
        if rows >= 9 and inner >= 11:  # room for pips around the middle, as on a printed card
            middle[mid - 2] = middle[mid + 2] = f"{suit}{' ' * (inner // 2 - 1)}{suit}"
        body = [rank.ljust(inner), suit.ljust(inner), *(m.center(inner) for m in middle)]
        body += [suit.rjust(inner), rank.rjust(inner)]
    elif rows >= 3:
        body = [rank.ljust(inner), *([""] * (rows - 3)), suit.center(inner), rank.rjust(inner)]
        body = [row.center(inner) if not row.strip() else row for row in body]
    else:
        body = [(rank + suit).center(inner)[:inner]] + [""] * (rows - 1)
    return [top] + ["│" + row.ljust(inner)[:inner] + "│" for row in body] + [bottom]


def sized_lines(card: Card | None, size: FaceSize) -> list[str]:
    """The rows of ``card`` at a named size (a mini back is a large-face back shrunk: ``░░``)."""
    if size == "mini":
        return mini_lines(card) if card is not None else ["┌──┐", "│░░│", "└──┘"]
    width, height = FACE_SIZES[size]
    return face_lines(card, width, height)


def style_row(row: str, card: Card | None, frame: str) -> Content:
    """One row of a face, coloured: the frame in ``frame``, the rank and suit in the suit's colour, a back muted."""
    ink = card_style(card) if card is not None else "$text-muted"
    parts: list[tuple[str, str]] = []
    for char in row:
        style = frame if char in FRAME else ink
        if parts and parts[-1][1] == style:
            parts[-1] = (parts[-1][0] + char, style)
        else:
            parts.append((char, style))
    return Content.assemble(*parts)


def face_rows(card: Card | None, size: FaceSize, frame: str = "$text-muted") -> list[Content]:
    """The rows of ``card`` at ``size``, coloured (see :func:`style_row`)."""
    return [style_row(row, card, frame) for row in sized_lines(card, size)]


def empty_face(size: FaceSize = "medium") -> list[Content]:
    """Where a card would be, for an empty pile or an empty hand: a faint outline."""
    width, height = FACE_SIZES[size]
    inner = width - 2
    rows = ["╭" + "─" * inner + "╮", *("│" + " " * inner + "│" for _ in range(height - 2)), "╰" + "─" * inner + "╯"]
    return [Content.styled(row, "$text-disabled") for row in rows]


def fan_step(count: int, width: int, room: int, *, least: int = 4) -> int | None:
    """Columns from one card to the next for ``count`` faces ``width`` wide in ``room`` columns: a column of gap
    when there is room, edge to edge, else overlapped like a fanned hand (at least ``least`` columns of each card
    show: its rank and suit). None when even that does not fit.

    >>> fan_step(13, 9, 200), fan_step(13, 9, 117), fan_step(13, 9, 80), fan_step(13, 9, 50)
    (10, 9, 5, None)
    """
    if count <= 1:
        return width if width <= room else None
    if count * (width + 1) - 1 <= room:
        return width + 1
    if count * width <= room:
        return width
    step = (room - width) // (count - 1)
    return step if step >= least else None


def faces_row(cards: Sequence[Card], size: FaceSize = "mini", *, step: int | None = None) -> Content:
    """Faces side by side at ``size`` (``step`` columns apart: less than a face's width overlaps them, the card on
    the right over the one on its left), suits coloured."""
    if not cards:
        return Content("")
    width, height = FACE_SIZES[size]
    step = width if step is None else step
    rows: list[list[Content]] = [[] for _ in range(height)]
    for index, card in enumerate(cards):
        last = index == len(cards) - 1
        shown = width if last else min(step, width)
        for row, line in zip(rows, sized_lines(card, size), strict=True):
            row.append(style_row(line[:shown], card, "$text-muted"))
            if not last and step > width:
                row.append(Content(" " * (step - width)))
    return Content("\n").join(Content("").join(row) for row in rows)


def faces_fitting(cards: Sequence[Card], room: int, largest: FaceSize = "huge") -> Content | None:
    """``cards`` as faces in ``room`` columns, at the largest size up to ``largest`` that fits (overlapped if need
    be); None when not even mini faces fit (the caller writes the cards as text)."""
    order: list[FaceSize] = ["huge", "large", "medium", "mini"]
    for size in order[order.index(largest) :]:
        if size == "mini":  # edge to edge, as in a hand at 80 columns: a mini shows too little to overlap
            step: int | None = 4 if len(cards) * 4 <= room else None
        else:
            step = fan_step(len(cards), FACE_SIZES[size][0], room)
        if step is not None:
            return faces_row(cards, size, step=step)
    return None


class CardFace(Static):
    """One card, drawn large. Red or black by suit (through CSS classes, so the theme decides the shades); its size
    is one of :data:`BIG_SIZES`, set by its screen for the room there is."""

    def __init__(self, card: Card | None = None, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._card: Card | None = None
        self._shown = False
        self._faces = current()
        self.size_name: BigSize = "normal"
        self.show(card)

    @property
    def card(self) -> Card | None:
        return self._card

    def resize_to(self, size: BigSize) -> None:
        """Draw the card at ``size`` from now on (the widget's own width and height follow)."""
        if size == self.size_name:
            return
        self.size_name = size
        width, height = BIG_SIZES[size]
        self.styles.width = width
        self.styles.height = height
        self._shown = False
        self.show(self._card)

    def show(self, card: Card | None) -> None:
        if self._shown and card == self._card and self._faces == current():
            return
        self._faces = current()
        self._card, self._shown = card, True
        colour = suit_class(card)
        for name in ("-red", "-black", "-diamonds", "-clubs"):
            self.set_class(card is not None and name == colour, name)
        self.set_class(card is None, "-back")
        width, height = BIG_SIZES[self.size_name]
        self.update(Text("\n".join(face_lines(card, width, height))))
