"""The UI's one registration per game: the table screen that plays it; and one package per game
(:mod:`tui.games.chase`, :mod:`tui.games.big2`, :mod:`tui.games.trash`, :mod:`tui.games.rank`), each with its
table screen, its words and its own dialogs and seats.

Adding a game to the UI is one line in :data:`TABLE_SCREENS`: the game's key and a function that imports its
:class:`TableScreen` subclass (which names the same ``GAME_KEY``). The import happens when a table of that game
is first opened, so starting Parlour loads only the screen it shows first. Nothing else in ``tui/`` matches on a
game's key.

This module imports a game's package only when its table is first opened. A game's package never imports another
game's (in ``tui`` or in ``engine``), nor :mod:`tui.apps` (a test reads the imports: ``tests/test_imports.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.errors import ParlourError
from engine.game import GameEntry
from engine.registry import ENTRIES, listing

if TYPE_CHECKING:
    from tui.screens.table import TableScreen


def _chase_table() -> type[TableScreen]:
    from tui.games.chase.table import ChaseTableScreen

    return ChaseTableScreen


def _big2_table() -> type[TableScreen]:
    from tui.games.big2.table import Big2TableScreen

    return Big2TableScreen


def _trash_table() -> type[TableScreen]:
    from tui.games.trash.table import TrashTableScreen

    return TrashTableScreen


def _rank_table() -> type[TableScreen]:
    from tui.games.rank.table import RankTableScreen

    return RankTableScreen


TABLE_SCREENS: dict[str, Callable[[], type[TableScreen]]] = {
    "chase": _chase_table,
    "big2": _big2_table,
    "trash": _trash_table,
    "rank": _rank_table,
}
"""Each game's key (``GameEntry.game.key``) and the function that imports its table screen."""


def screen_class(entry: GameEntry) -> type[TableScreen]:
    """The table screen for ``entry``'s game; ParlourError when the UI has none yet."""
    load = TABLE_SCREENS.get(entry.game.key)
    if load is None:
        raise ParlourError(f"{entry.title} cannot be played at this screen yet")
    screen = load()
    assert screen.GAME_KEY == entry.game.key, f"{screen.__name__} plays {screen.GAME_KEY}, not {entry.game.key}"
    return screen


def table_entries() -> list[GameEntry]:
    """The registry entries this UI can seat you at."""
    return [entry for entry in ENTRIES if listing(entry).key in TABLE_SCREENS]
