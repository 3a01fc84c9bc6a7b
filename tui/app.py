"""The Parlour app: the main menu, or straight to a table for a given configuration."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar

from textual.app import App, CSSPathType, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

import tui
from engine.errors import ParlourError
from engine.games import get_entry
from engine.session import LocalSession
from engine.table import Table
from tui.screens.big2_table import Big2TableScreen
from tui.screens.menu import MenuScreen
from tui.screens.session_screen import SessionScreen
from tui.screens.table import TableScreen

TABLE_GAMES = frozenset({"chase", "big2"})
"""Games (by ``Game.key``) this UI has a table screen for."""
STYLE_FILES = ("base.tcss", "menu.tcss", "table.tcss", "big2.tcss", "dialogs.tcss")


def styles_dir() -> Path:
    """The .tcss files: repo-root ``styles/`` in a source checkout, ``tui/styles/`` in an installed wheel."""
    package = Path(tui.__file__).resolve().parent
    for candidate in (package.parent / "styles", package / "styles"):
        if candidate.is_dir():
            return candidate
    return package / "styles"


@dataclass(frozen=True)
class PlayConfig:
    game: str = "screw"
    players: int = 5
    seed: int | None = None
    preset: str | None = None
    variants: tuple[str, ...] = ()
    difficulty: str = "medium"
    name: str = "You"


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

    def on_mount(self) -> None:
        if self.start_config is not None:
            self.start_game(self.start_config)
        else:
            self.push_screen(MenuScreen())

    def start_game(self, config: PlayConfig) -> SessionScreen | None:
        """Open a table for ``config`` (a random seed if it has none) in place of the current screen.

        A configuration the table cannot be set up for is reported, and the main menu shown instead.
        """
        seed = config.seed if config.seed is not None else new_seed()
        players = config.players
        try:
            entry = get_entry(config.game)
            if entry.game.key not in TABLE_GAMES:
                raise ParlourError(f"{entry.title} cannot be played at this screen yet")
            table = Table.create(
                config.game,
                players=players,
                seed=seed,
                bots=[None] + [config.difficulty] * (players - 1),
                names=[config.name],
                preset=config.preset,
                variants=config.variants,
            )
        except ParlourError as err:
            self.notify(str(err), severity="error", timeout=8)
            self._show_screen(MenuScreen())
            return None
        self.config = replace(config, seed=seed)
        session = LocalSession(table, seat=0)
        screen: SessionScreen
        if entry.game.key == "big2":
            screen = Big2TableScreen(session, seed=seed, pace=self.pace)
        else:
            screen = TableScreen(session, seed=seed, pace=self.pace)
        self._show_screen(screen)
        return screen

    def play_again(self) -> None:
        """The same table setup with a new seed."""
        base = self.config or self.start_config or PlayConfig()
        self.start_game(replace(base, seed=None))

    def main_menu(self) -> None:
        base = self.config or self.start_config or PlayConfig()
        self._show_screen(MenuScreen(base.game, base.players, base.difficulty, base.name))

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
        if isinstance(screen, TableScreen):
            yield SystemCommand("Stay", "Keep your card (s)", screen.action_stay)
            yield SystemCommand("Trade", "Trade cards with the player to your left (t)", screen.action_trade)
            yield SystemCommand(screen.deck_label, "Dealer only (d)", screen.action_deck)
        if isinstance(screen, Big2TableScreen):
            yield SystemCommand("Play", "Play the selected cards (Enter)", screen.action_play)
            yield SystemCommand("Pass", "Pass this turn (x)", screen.action_pass_turn)
            yield SystemCommand("Hint", "Select what the hard computer player would play (h)", screen.action_hint)
            yield SystemCommand("Sort hand", "By rank or by suit (o)", screen.action_sort)
        if isinstance(screen, SessionScreen):
            yield SystemCommand("Toggle rules", "Show or hide the rules pane (r)", screen.action_toggle_rules)
        yield SystemCommand("New game", "Back to the main menu to start a new game", self.main_menu)
