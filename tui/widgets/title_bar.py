"""The title bar at the top of every screen: Textual's Header, with its title set at once.

Textual's Header sets its title from an async watcher queued on the app or the screen; when a screen is switched
away before that queue is worked off (a quick "play again", or quitting right after), the queued call finds the
header's children gone and the app stops with an error. This header sets the title synchronously and copes with
a header that has already been taken down.
"""

from __future__ import annotations

from textual.events import Mount
from textual.widgets import Header
from textual.widgets._header import HeaderTitle  # Textual is pinned: this private name is stable for us


class TitleBar(Header):
    def _on_mount(self, event: Mount) -> None:
        event.prevent_default()  # replaces Header._on_mount (and Widget's, which only sets up scrollbars)

        def set_title() -> None:
            for title in self.query(HeaderTitle):
                title.update(self.format_title())

        self.watch(self.app, "title", set_title)
        self.watch(self.app, "sub_title", set_title)
        self.watch(self.screen, "title", set_title)
        self.watch(self.screen, "sub_title", set_title)
