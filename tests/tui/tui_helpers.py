"""Helpers for the TUI tests: bounded waiting, never an open-ended loop."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.app import App
from textual.pilot import Pilot

from engine.play.table_host import TableHost
from engine.session import Session
from tui.apps.navigation import Navigation
from tui.apps.notices import KeepsNotices
from tui.apps.parlour import ParlourApp
from tui.games import screen_class
from tui.games.chase.table import ChaseTableScreen
from tui.messages import MainMenu
from tui.screens.table import TableScreen
from tui.terminal.screen_styles import StylePaths, app_css_path


async def wait_for(pilot: Pilot, condition: Callable[[], bool], tries: int = 600) -> bool:
    """Let the app run until ``condition`` holds (True) or ``tries`` pauses have passed (False).

    The bots move on the host's own thread, so each pause also gives them a moment (bounded: ``tries`` × 10 ms at
    most of sleeping, plus the app's own work)."""
    for _ in range(tries):
        if condition():
            return True
        await pilot.pause(0.01)
    return condition()


def table_screen(pilot: Pilot) -> TableScreen:
    """The table screen, whether or not a dialog is open over it."""
    for screen in reversed(pilot.app.screen_stack):
        if isinstance(screen, TableScreen):
            return screen
    raise AssertionError(f"no table screen in {pilot.app.screen_stack}")


def table_of(pilot: Pilot) -> ChaseTableScreen:
    screen = table_screen(pilot)
    assert isinstance(screen, ChaseTableScreen)
    return screen


def my_turn(pilot: Pilot) -> bool:
    """The player's table is showing, drawn from the latest snapshot, and it is the player's move."""
    screen = pilot.app.screen
    if not isinstance(screen, TableScreen) or not screen.idle() or screen.snapshot is None:
        return False
    latest = screen.session.snapshot()
    return screen.my_turn and latest.version == screen.snapshot.version


async def settled(pilot: Pilot) -> bool:
    """Wait until the screen showing has finished mounting: its header has drawn the title. Leaving a test sooner,
    right after a screen was switched, tears the app down while the header still has its title to set."""

    def titled() -> bool:
        bars = pilot.app.screen.query("TitleBar")
        return bool(bars) and bars.first().is_mounted and pilot.app.title in str(bars.first().render())

    return await wait_for(pilot, titled)


class TableApp(Navigation, KeepsNotices, App[None]):
    """The smallest app around one table screen for ``session`` (a seat's or a spectator's), its chains unpaced;
    ``left`` records where the table asked to go (``m`` posts MainMenu)."""

    CSS_PATH: ClassVar[StylePaths] = app_css_path()
    MENU_LABEL = "Lobby"
    chain_pace = 0.0

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.left: list[str] = []

    def on_mount(self) -> None:
        self.push_screen(screen_class(self.session.entry)(self.session))

    def on_main_menu(self, message: MainMenu) -> None:
        message.stop()
        self.left.append("lobby")


def plain_screen(app: App[None]) -> str:
    """What the screen shows, as text (from the SVG screenshot: spaces come out as no-break spaces)."""
    return app.export_screenshot().replace("&#160;", " ").replace("\xa0", " ")


class ScriptedApp(ParlourApp):
    """The app with the menu as its first screen, and over it the table ``host`` runs (your seat 0), drawn by its
    game's table screen: a stacked deal or a chosen pace, from the menu as a player would have it."""

    def __init__(self, host: TableHost) -> None:
        super().__init__(pace=0)
        self.scripted = host

    def _first_screen(self) -> None:
        super()._first_screen()
        self.host = self.scripted
        self.push_screen(screen_class(self.scripted.table.entry)(self.scripted.connect(0)))
