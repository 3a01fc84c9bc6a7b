"""The app of ``parlour replay FILE``: one kept game, played back (:class:`tui.screens.replay.ReplayScreen`), or
what one seat saw of a LAN game, stepped through (:class:`tui.screens.replay.SeenReplayScreen`)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from engine.records.replays import ReplayCursor
from engine.records.seen import SeenCursor
from tui.apps.notices import KeepsNotices
from tui.screens.replay import ReplayScreen, SeenReplayScreen
from tui.settings.in_app import KeepsSettings
from tui.terminal.screen_styles import StylePaths, app_css_path, first_css_path


class ReplayApp(KeepsSettings, KeepsNotices, App[None]):
    TITLE = "Parlour"
    CSS_PATH: ClassVar[StylePaths] = app_css_path()  # and each screen's own, when shown
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit", "Quit", show=False, priority=True)]

    def __init__(self, cursor: ReplayCursor | SeenCursor) -> None:
        super().__init__(css_path=first_css_path(ReplayScreen))
        self.load_settings()
        self.cursor = cursor

    def on_mount(self) -> None:
        self.apply_loaded_settings()
        cursor = self.cursor
        self.push_screen(SeenReplayScreen(cursor) if isinstance(cursor, SeenCursor) else ReplayScreen(cursor))
