"""The app's stylesheets: the ``.tcss`` files in ``styles/``, and the ``CSS_PATH`` of each screen.

The app's own ``CSS_PATH`` is ``base.tcss`` (rules for every screen); each screen names, in its ``CSS_PATH``
(:func:`css_paths`), the files it and the dialogs it opens need, and Textual reads them when such a screen is first
shown. So a table's first frame does not pay for the menu's, the other games' or the lobby's rules. An app that
knows its first screen as it is made reads that screen's files with its own (:func:`first_css_path`, the app's
``css_path``): Textual would otherwise parse the whole stylesheet a second time when the screen is shown.

The shared screens' files are listed here (:data:`SHARED_STYLES`); each game's own come from its UI listing, handed
over by :mod:`tui.games` as it registers the game (:func:`add_styles`). :func:`style_order` (``STYLE_ORDER``) is
the shared files, then each registered game's, in the order the games were registered.

Textual keeps the files in the order they were first read, which depends on the order the screens were visited;
two rules of equal weight from two files would then resolve differently from one run to the next. So each file's
rules are written for the screens that read it (``TrashTableScreen #log``, not every ``#log``), and no two files give
one node the same property with equal weight: ``tests/tui/test_screen_styles.py`` styles every screen with the files
in several orders, and with every file read, and finds the same styles each time.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

import tui

__all__ = [
    "APP_STYLES",
    "SHARED_STYLES",
    "STYLE_ORDER",
    "StylePaths",
    "add_styles",
    "app_css_path",
    "css_paths",
    "first_css_path",
    "remove_styles",
    "style_order",
    "styles_dir",
]

SHARED_STYLES = (
    "base.tcss",
    "menu.tcss",
    "table.tcss",
    "dialogs.tcss",
    "settings.tcss",
    "lobby.tcss",
)
"""The stylesheets of the shared screens and dialogs, in the order a screen's are listed."""
_GAME_STYLES: dict[str, tuple[str, ...]] = {}
"""Each registered game's own stylesheets (:func:`add_styles`, from its UI listing), in the order registered."""
APP_STYLES = ("base.tcss",)
"""The stylesheets every app reads at start: rules for every screen."""
StylePaths = list[str | PurePath]
"""An app's or a screen's ``CSS_PATH`` (one of the forms Textual takes)."""


@cache
def styles_dir() -> Path:
    """The .tcss files: repo-root ``styles/`` in a source checkout, ``tui/styles/`` in an installed wheel."""
    package = Path(tui.__file__).resolve().parent
    for candidate in (package.parent / "styles", package / "styles"):
        if candidate.is_dir():
            return candidate
    return package / "styles"


def add_styles(game: str, names: tuple[str, ...]) -> None:
    """Make the stylesheets ``names`` (file names in ``styles/``, or paths) the game ``game``'s own, read after the
    shared ones (``tui.games`` calls this for each game it registers)."""
    _GAME_STYLES[game] = names


def remove_styles(game: str) -> None:
    """Forget the game ``game``'s stylesheets (its UI unregistered)."""
    _GAME_STYLES.pop(game, None)


def style_order() -> tuple[str, ...]:
    """Every stylesheet of the app: the shared ones, then each registered game's, in the order registered."""
    found = list(SHARED_STYLES)
    for names in _GAME_STYLES.values():
        found += [name for name in names if name not in found]
    return tuple(found)


if TYPE_CHECKING:
    STYLE_ORDER: tuple[str, ...]


def __getattr__(name: str) -> Any:
    """``STYLE_ORDER``: :func:`style_order` when it is read."""
    if name == "STYLE_ORDER":
        return style_order()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def css_paths(*names: str) -> StylePaths:
    """A screen's ``CSS_PATH``: the stylesheets ``names`` (each a shared one or a registered game's), in
    :func:`style_order`."""
    order = style_order()
    unknown = [name for name in names if name not in order]
    if unknown:
        raise ValueError(f"not a stylesheet of the app: {', '.join(unknown)}")
    return [str(styles_dir() / name) for name in order if name in names]


def app_css_path() -> StylePaths:
    """An app's ``CSS_PATH``: the stylesheets read before its first screen."""
    return css_paths(*APP_STYLES)


def first_css_path(screen: type[Any] | None) -> StylePaths:
    """What an app whose first screen is of the class ``screen`` reads at start (its ``css_path``): the app's own
    files, then that screen's ``CSS_PATH``. Textual reads a screen's files when it is first shown, and parses the
    whole stylesheet again if any was not read yet; read with the app's, they are parsed once."""
    found = app_css_path()
    for path in getattr(screen, "CSS_PATH", None) or ():
        if path not in found:
            found.append(path)
    return found
