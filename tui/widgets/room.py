"""The table's share of the screen, and the size classes every table is laid out by.

A table is laid out for the room it has, not for the terminal: with the rules pane open beside it, a 160-column
terminal leaves the table 120 columns, and the table must look as it does on a 120-column terminal (the screen's
own breakpoint classes, ``-narrow``/``-wide``, only say where the rules pane goes). So every table puts its widgets
in a :class:`TableRoom`, which sets size classes on itself whenever its size changes and tells the screen (so cards
drawn in code can take the size that fits):

- ``-wide`` from :data:`WIDE` columns, ``-wider`` from :data:`WIDER` (a ``-wider`` room is ``-wide`` too);
- ``-tall`` from :data:`TALL` rows, ``-taller`` from :data:`TALLER`.

At 80x24 a room has none of them (80 columns, 22 rows); at 120x40, ``-wide -tall``; at 160x50, all four.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.containers import Vertical
from textual.geometry import Size
from textual.message import Message

WIDE = 110
WIDER = 150
TALL = 38
"""Rows from which a room is tall: 120x40 and larger terminals (a tall layout of every table fits in 38 rows)."""
TALLER = 46
"""Rows from which a room is taller: 160x50 and larger."""


def room_classes(size: Size) -> dict[str, bool]:
    """The size classes of a room of ``size``.

    >>> sorted(name for name, on in room_classes(Size(120, 38)).items() if on)
    ['-tall', '-wide']
    >>> sorted(name for name, on in room_classes(Size(80, 22)).items() if on)
    []
    """
    width, height = size
    return {
        "-wide": width >= WIDE,
        "-wider": width >= WIDER,
        "-tall": height >= TALL,
        "-taller": height >= TALLER,
    }


class TableRoom(Vertical):
    """The container of a table's widgets: it fills the space the rules pane leaves and is classed by its size."""

    DEFAULT_CSS = """
    TableRoom {
        width: 1fr;
        height: 1fr;
    }
    """

    @dataclass
    class Resized(Message):
        """The room changed size (the terminal, or the rules pane opened or closed beside it)."""

        room: TableRoom
        size: Size

    CHROME_ROWS = 2
    """Rows of the screen that are not the room's: the title bar and the footer."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.room_size = Size(0, 0)
        # The classes for the room the table will most likely have (the whole terminal but the title bar and the
        # footer), set before any widget is mounted: styled once with them, the widgets need no second styling
        # when the first layout gives the room its size (which corrects them if the guess was wrong).
        try:
            width, height = self.app.size
        except RuntimeError:  # no app running (a widget made outside one)
            return
        if width and height:
            self.update_classes(room_classes(Size(width, height - self.CHROME_ROWS)), update=False)

    def on_resize(self, event: events.Resize) -> None:
        size = event.size
        if size == self.room_size or not size.width or not size.height:
            return
        self.room_size = size
        self.set_classes_for(size)
        self.post_message(self.Resized(self, size))

    def set_classes_for(self, size: Size) -> None:
        classes = room_classes(size)
        current = {name: self.has_class(name) for name in classes}
        if classes != current:
            self.update_classes(classes)  # one restyle for every class that changed
