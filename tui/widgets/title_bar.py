"""The title bar at the top of every screen: what Textual's Header shows, drawn by one widget.

Textual's Header is four widgets (the icon, the title, the clock's room and itself), a tenth of a table's widgets at
start-up, and it sets its title from an async watcher queued on the app or the screen: when a screen is switched
away before that queue is worked off (a quick "play again", or quitting right after), the queued call found the
header's children gone and the app stopped with an error. This bar draws the same line itself: the command
palette's icon on the left (a click opens the palette), the app's title and the screen's subtitle in the middle,
and the clock's room on the right; it is drawn again whenever a title changes.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.content import Content
from textual.widget import Widget


class TitleBar(Widget):
    DEFAULT_CSS: ClassVar[str] = """
    TitleBar {
        dock: top;
        width: 100%;
        height: 1;
        background: $panel;
        color: $foreground;
    }
    """

    ICON = "⭘"
    ICON_WIDTH = 8
    """The icon's columns (Header's: the icon after one column of padding)."""
    CLOCK_WIDTH = 10
    """The columns kept on the right, where Header keeps room for a clock."""
    ICON_HOVER = "on $foreground 10%"

    def __init__(self) -> None:
        super().__init__()
        self._on_icon = False

    def on_mount(self) -> None:
        for owner in (self.app, self.screen):
            for name in ("title", "sub_title"):
                self.watch(owner, name, self._title_changed, init=False)

    def _title_changed(self) -> None:
        self.refresh()

    def format_title(self) -> Content:
        """The app's title and the screen's subtitle (or the app's), as Header formats them."""
        screen, app = self.screen, self.app
        title = screen.title if screen.title is not None else app.title
        sub_title = screen.sub_title if screen.sub_title is not None else app.sub_title
        return app.format_title(title, sub_title)

    def render(self) -> Content:
        width = self.size.width
        room = max(0, width - self.ICON_WIDTH - self.CLOCK_WIDTH)
        title = self.format_title()
        if title.cell_length > room:
            title = title.truncate(room, ellipsis=True)
        left = (room - title.cell_length) // 2
        icon = Content(" " + self.ICON).pad_right(self.ICON_WIDTH - 2)
        if self._on_icon and self.app.ENABLE_COMMAND_PALETTE:
            icon = icon.stylize(self.ICON_HOVER)
        middle = Content(" " * left) + title + Content(" " * (room - left - title.cell_length))
        return (icon + middle).pad_right(self.CLOCK_WIDTH).truncate(width)

    def _over_icon(self, x: int) -> bool:
        return 0 <= x < self.ICON_WIDTH

    def on_mouse_move(self, event: events.MouseMove) -> None:
        on_icon = self._over_icon(event.x)
        if on_icon != self._on_icon:
            self._on_icon = on_icon
            self.tooltip = "Open the command palette" if on_icon and self.app.ENABLE_COMMAND_PALETTE else None
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self._on_icon:
            self._on_icon = False
            self.tooltip = None
            self.refresh()

    async def on_click(self, event: events.Click) -> None:
        if self._over_icon(event.x) and self.app.ENABLE_COMMAND_PALETTE:
            event.stop()
            await self.run_action("app.command_palette")
