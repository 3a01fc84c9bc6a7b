"""The Parlour app: the main menu, or straight to a table for a given configuration.

The app is the only part of the UI that sets up tables: it builds a host for the table (which runs the computer
players) and gives the screen a session for your seat. Screens ask for a new game, a replay of the setup or the
menu by posting messages (:mod:`tui.messages`), so no screen imports the app.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

from textual.app import App, CSSPathType, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

import tui
from engine.errors import ParlourError
from engine.lan.host import TableHost
from engine.registry import get_entry
from tui.games import screen_class
from tui.messages import MainMenu, PlayAgain, PlayConfig, StartGame
from tui.screens.menu import MenuScreen
from tui.screens.session_screen import SessionScreen

__all__ = ["ParlourApp", "PlayConfig", "styles_dir"]

SWITCH_INTERVAL = 0.0005
"""Seconds a thread may run before Python offers the interpreter to another (the default is 0.005)."""
STYLE_FILES = ("base.tcss", "menu.tcss", "table.tcss", "big2.tcss", "trash.tcss", "rank.tcss", "dialogs.tcss")


def styles_dir() -> Path:
    """The .tcss files: repo-root ``styles/`` in a source checkout, ``tui/styles/`` in an installed wheel."""
    package = Path(tui.__file__).resolve().parent
    for candidate in (package.parent / "styles", package / "styles"):
        if candidate.is_dir():
            return candidate
    return package / "styles"


def new_seed() -> int:
    return secrets.randbelow(1_000_000)


class ParlourApp(App[None]):
    TITLE = "Parlour"
    CSS_PATH: ClassVar[CSSPathType | None] = [styles_dir() / name for name in STYLE_FILES]
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit", "Quit", show=False, priority=True)]

    def __init__(self, start: PlayConfig | None = None, pace: float = 0.6) -> None:
        super().__init__()
        self.start_config = start
        self.pace = pace
        self.config: PlayConfig | None = None
        """The configuration of the table in play (its seed filled in)."""
        self.host: TableHost | None = None
        """The host of the table in play: it runs the computer players."""

    def on_mount(self) -> None:
        # The computer players think in a child process (bot_process below), but a hint is worked out on a thread
        # of this one. Python hands the interpreter between threads every 5 ms by default, so each step of the UI
        # could wait that long behind it; a shorter interval keeps the screen responsive meanwhile.
        sys.setswitchinterval(SWITCH_INTERVAL)
        if self.start_config is not None:
            self.start_game(self.start_config)
        else:
            self.push_screen(MenuScreen())

    def on_unmount(self) -> None:
        self._close_table()

    async def action_quit(self) -> None:
        self._close_table()  # the bots stop at once; a decision in progress is dropped
        self.exit()

    def start_game(self, config: PlayConfig) -> SessionScreen | None:
        """Open a table for ``config`` (a random seed if it has none) in place of the current screen.

        A configuration the table cannot be set up for is reported, and the main menu shown instead.
        """
        seed = config.seed if config.seed is not None else new_seed()
        players = config.players
        try:
            entry = get_entry(config.game)
            screen_type = screen_class(entry)
            host = TableHost.create(
                config.game,
                players=players,
                seed=seed,
                bots=[None] + [config.difficulty] * (players - 1),
                names=[config.name],
                preset=config.preset,
                variants=config.variants,
                pace=self.pace,
                bot_process=True,  # a thinking bot never slows this process (keys, drawing, quitting)
            )
        except ParlourError as err:
            self.notify(str(err), severity="error", timeout=8, markup=False)
            self._show_screen(MenuScreen())
            return None
        self._close_table()
        self.config = replace(config, seed=seed)
        self.host = host
        screen = screen_type(host.connect(0))
        self._show_screen(screen)
        return screen

    def _close_table(self) -> None:
        if self.host is not None:
            self.host.close()
            self.host = None

    def play_again(self) -> None:
        """The same table setup with a new seed."""
        base = self.config or self.start_config or PlayConfig()
        self.start_game(replace(base, seed=None))

    def main_menu(self) -> None:
        self._close_table()
        base = self.config or self.start_config or PlayConfig()
        self._show_screen(MenuScreen(base.game, base.players, base.difficulty, base.name))

    def on_start_game(self, message: StartGame) -> None:
        message.stop()
        self.start_game(message.config)

    def on_play_again(self, message: PlayAgain) -> None:
        message.stop()
        self.play_again()

    def on_main_menu(self, message: MainMenu) -> None:
        message.stop()
        self.main_menu()

    def _show_screen(self, screen: Screen[None]) -> None:
        # Close any dialogs above the current screen, then swap it (the default screen stays at the bottom).
        while len(self.screen_stack) > 2:
            self.pop_screen()
        if len(self.screen_stack) > 1:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if isinstance(screen, SessionScreen):
            yield from screen.commands()
            yield SystemCommand("Toggle rules", "Show or hide the rules pane (r)", screen.action_toggle_rules)
        yield SystemCommand("New game", "Back to the main menu to start a new game", self.main_menu)
