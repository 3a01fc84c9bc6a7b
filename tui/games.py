"""The UI's one registration per game: the table screen that plays it.

Adding a game to the UI is one line in :data:`TABLE_SCREENS` (a :class:`SessionScreen` subclass naming its
``GAME_KEY``). Nothing else in ``tui/`` matches on a game's key.
"""

from __future__ import annotations

from engine.errors import ParlourError
from engine.game import GameEntry
from engine.registry import ENTRIES
from tui.screens.big2_table import Big2TableScreen
from tui.screens.rank_table import RankTableScreen
from tui.screens.session_screen import SessionScreen
from tui.screens.table import TableScreen
from tui.screens.trash_table import TrashTableScreen

TABLE_SCREENS: tuple[type[SessionScreen], ...] = (TableScreen, Big2TableScreen, TrashTableScreen, RankTableScreen)


def screen_class(entry: GameEntry) -> type[SessionScreen]:
    """The table screen for ``entry``'s game; ParlourError when the UI has none yet."""
    for screen in TABLE_SCREENS:
        if screen.GAME_KEY == entry.game.key:
            return screen
    raise ParlourError(f"{entry.title} cannot be played at this screen yet")


def table_entries() -> list[GameEntry]:
    """The registry entries this UI can seat you at."""
    keys = {screen.GAME_KEY for screen in TABLE_SCREENS}
    return [entry for entry in ENTRIES if entry.game.key in keys]
