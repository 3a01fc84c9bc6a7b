"""The UI's games: one package per game (:mod:`tui.games.chase`, :mod:`tui.games.big2`, :mod:`tui.games.trash`,
:mod:`tui.games.rank`), each with its table screen, its words and its own dialogs and seats, and each registered
once, by the one :class:`UiListing` in its ``__init__.py`` (``UI_LISTING``).

A game's UI listing says where its table screen is, the words of its log and of its replays, the one-line summary
of its rules under the menu's form and its stylesheets. This module finds the listings by walking its own packages
(:mod:`pkgutil`) and :func:`register` adds a game's from elsewhere (a plug-in, a test); :func:`unregister` takes it
away again. Everything the UI does per game goes through these listings: nothing else in ``tui/`` lists the games
or matches on a game's key (``tests/test_game_keys.py`` reads the source).

A listing names its modules as ``module:name`` strings, and each is imported when first needed (a table screen when
a table of that game is first opened), so starting Parlour loads only the screen it shows first. A game's package
never imports another game's (in ``tui`` or in ``engine``), nor :mod:`tui.apps` (``tests/test_imports.py``).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.errors import ParlourError
from engine.events import Event
from engine.game import GameEntry
from engine.registry import entries, listing
from tui.terminal import screen_styles

if TYPE_CHECKING:
    from tui.screens.table import TableScreen

__all__ = [
    "Describer",
    "UiListing",
    "describer",
    "register",
    "screen_class",
    "summary_of",
    "table_entries",
    "ui_listing",
    "ui_listings",
    "unregister",
]

Describer = Callable[[Event, Sequence[str], int | None, Any], str | None]
"""A game's words for an event: the event, the seats' names, the seat reading (None: a spectator) and the
table's options; None for an event its log does not show."""


@dataclass(frozen=True)
class UiListing:
    """A game as the UI knows it: each part named as ``module:name``, imported when first needed."""

    key: str
    """The game's key (its engine listing's and its spec's ``key``)."""
    table: str
    """``module:Class`` of its :class:`~tui.screens.table.TableScreen` subclass (which names the same
    ``GAME_KEY``)."""
    words: str
    """``module:function``, a :data:`Describer`: the words of its log, which its replays use too."""
    summary: str | None = None
    """``module:function`` that sums up the rules in force in one line under the menu's form, from the options and
    the number of players (None: the preset's description)."""
    styles: tuple[str, ...] = ()
    """Its own stylesheets: file names in ``styles/``, or paths (a game from elsewhere), read after the shared ones
    by each screen that names them (:func:`tui.terminal.screen_styles.css_paths`)."""


_LISTINGS: dict[str, UiListing] = {}


def _named(path: str) -> Any:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def register(ui: UiListing) -> None:
    """Make the game of ``ui`` playable at this screen (its engine listing registered with
    :func:`engine.registry.register`, unless it is one of the engine's own); ParlourError if it is there already."""
    if ui.key in _LISTINGS:
        raise ParlourError(f"the UI of the game {ui.key!r} is registered already")
    _LISTINGS[ui.key] = ui
    screen_styles.add_styles(ui.key, ui.styles)


def unregister(key: str) -> None:
    """Take the UI of the game ``key`` away again (nothing if it is not registered)."""
    if _LISTINGS.pop(key, None) is not None:
        screen_styles.remove_styles(key)


def _discover() -> None:
    """Register the listing (``UI_LISTING``) of each package under :mod:`tui.games`."""
    for found in pkgutil.iter_modules(__path__, __name__ + "."):
        if found.ispkg:
            ui = getattr(importlib.import_module(found.name), "UI_LISTING", None)
            if isinstance(ui, UiListing):
                register(ui)


def ui_listings() -> tuple[UiListing, ...]:
    """Every registered game's UI listing, in the order registered."""
    return tuple(_LISTINGS.values())


def ui_listing(game: str) -> UiListing | None:
    """The UI listing of the game whose key is ``game`` (None: the UI has none)."""
    return _LISTINGS.get(game)


def screen_class(entry: GameEntry) -> type[TableScreen]:
    """The table screen for ``entry``'s game; ParlourError when the UI has none yet."""
    ui = _LISTINGS.get(listing(entry).key)
    if ui is None:
        raise ParlourError(f"{entry.title} cannot be played at this screen yet")
    screen: type[TableScreen] = _named(ui.table)
    assert screen.GAME_KEY == ui.key, f"{screen.__name__} plays {screen.GAME_KEY}, not {ui.key}"
    return screen


def table_entries() -> list[GameEntry]:
    """The registry entries this UI can seat you at."""
    return [entry for entry in entries() if listing(entry).key in _LISTINGS]


def describer(entry_key: str, options: Any) -> Callable[[Event, Sequence[str], int | None], str | None]:
    """The words of the log of the game of the entry ``entry_key`` under ``options``, as its UI listing names them
    (a game the UI has no listing for: each event by its name, ``Round started``)."""
    ui = _LISTINGS.get(listing(entry_key).key)
    if ui is None:
        return _plain_words
    words: Describer = _named(ui.words)
    return lambda event, names, me: words(event, names, me, options)


def _plain_words(event: Event, names: Sequence[str], me: int | None) -> str:
    name = type(event).__name__
    spaced = "".join(f" {letter.lower()}" if letter.isupper() else letter for letter in name).strip()
    return spaced[:1].upper() + spaced[1:]


def summary_of(game: str) -> Callable[[Any, int], str] | None:
    """The menu's summary of the rules in force for the game whose key is ``game`` (None: it has none)."""
    ui = _LISTINGS.get(game)
    if ui is None or ui.summary is None:
        return None
    summary: Callable[[Any, int], str] = _named(ui.summary)
    return summary


_discover()
