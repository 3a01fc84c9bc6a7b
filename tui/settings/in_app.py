"""Your settings in a running app: loaded when it is made, applied when it is mounted, kept when the theme changes.

Apart from the settings dialog (:mod:`tui.dialogs.settings`, with its form widgets), which is loaded the first time
it opens: an app starts without it.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from textual.app import App

from tui.settings.file import Settings, load, settings_path, store
from tui.words.faces import current, set_faces

__all__ = ["KeepsSettings", "app_settings", "apply_settings", "is_settings_screen"]


def is_settings_screen(screen: object) -> bool:
    """Is ``screen`` the settings dialog? (Without loading its module: when it is not loaded, no screen is.)"""
    module = sys.modules.get("tui.dialogs.settings")
    return module is not None and isinstance(screen, module.SettingsScreen)


def app_settings(app: App[Any]) -> Settings:
    """The settings the app runs with (the defaults for an app that keeps none)."""
    settings = getattr(app, "settings", None)
    return settings if isinstance(settings, Settings) else Settings()


def apply_settings(app: App[Any], settings: Settings) -> None:
    """Make ``settings`` the app's from now on: theme, card faces, pace; a table on screen redraws to show them.

    An app started with a pace of its own (``ParlourApp(pace=0)`` in the tests) keeps it: the caller chose it.
    The app's :attr:`settings` is set first, so the theme watcher sees nothing new to save.
    """
    faces_before = current()
    if hasattr(app, "settings"):
        app.settings = settings
    set_faces(plain=settings.faces == "letters", four_colour=settings.four_colour)
    if not getattr(app, "pace_fixed", False):
        app.pace = settings.bot_pace  # type: ignore[attr-defined]
        app.chain_pace = settings.chain_pace  # type: ignore[attr-defined]
        host = getattr(app, "host", None)
        if host is not None:
            host.pace = settings.bot_pace  # the host reads it before each computer player's move
    theme_changed = settings.theme in app.available_themes and app.theme != settings.theme
    if theme_changed:
        app.theme = settings.theme
    if current() != faces_before and app.is_running:
        from tui.screens.table import TableScreen

        for screen in app.screen_stack:
            if isinstance(screen, TableScreen) and screen.snapshot is not None and screen.idle():
                screen.redraw()
            for widget in screen.walk_children():
                widget.refresh()
        if not theme_changed:
            app.theme_changed_signal.publish(app.current_theme)  # the log recolours its cards (EventLog)


class KeepsSettings:
    """Mixed into both apps: your settings loaded when the app is made (:meth:`load_settings`), applied when it is
    mounted (:meth:`apply_loaded_settings`, which also says once what was wrong with their file), and a theme
    chosen anywhere (the settings dialog, or Textual's own theme picker, ctrl+p) kept for the next run."""

    settings: Settings
    settings_path: Path
    settings_problem: str | None

    def load_settings(self: Any) -> None:
        self.settings_path = settings_path()
        self.settings, self.settings_problem = load(self.settings_path, self.available_themes)

    def apply_loaded_settings(self: Any) -> None:
        apply_settings(self, self.settings)
        if self.settings_problem is not None:
            self.notify(self.settings_problem, title="Settings", severity="warning", timeout=12, markup=False)
            self.settings_problem = None

    def watch_theme(self: Any, theme: str) -> None:
        if theme == self.settings.theme:
            return
        self.settings = replace(self.settings, theme=theme)
        problem = store(self.settings, self.settings_path)
        if problem is not None:
            self.notify(problem, severity="error", timeout=10, markup=False)
