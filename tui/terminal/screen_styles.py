"""The app's stylesheets: the ``.tcss`` files in ``styles/``, and the ``CSS_PATH`` of each screen.

The app's own ``CSS_PATH`` is ``base.tcss`` (rules for every screen); each screen names, in its ``CSS_PATH``
(:func:`css_paths`), the files it and the dialogs it opens need, and Textual reads them when such a screen is first
shown. So a table's first frame does not pay for the menu's, the other games' or the lobby's rules. An app that
knows its first screen as it is made reads that screen's files with its own (:func:`first_css_path`, the app's
``css_path``): Textual would otherwise parse the whole stylesheet a second time when the screen is shown.

Textual keeps the files in the order they were first read, which depends on the order the screens were visited;
two rules of equal weight from two files would then resolve differently from one run to the next. So each file's
rules are written for the screens that read it (``TrashTableScreen #log``, not every ``#log``), and no two files give
one node the same property with equal weight: ``tests/tui/test_screen_styles.py`` styles every screen with the files
in several orders, and with every file read, and finds the same styles each time.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path, PurePath
from typing import Any

import tui

__all__ = ["APP_STYLES", "STYLE_ORDER", "StylePaths", "app_css_path", "css_paths", "first_css_path", "styles_dir"]

STYLE_ORDER = (
    "base.tcss",
    "menu.tcss",
    "table.tcss",
    "chase.tcss",
    "big2.tcss",
    "trash.tcss",
    "rank.tcss",
    "dialogs.tcss",
    "settings.tcss",
    "lobby.tcss",
)
"""Every stylesheet of the app (a screen's own are listed in this order)."""
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


def css_paths(*names: str) -> StylePaths:
    """A screen's ``CSS_PATH``: the stylesheets ``names`` (file names in ``styles/``), in :data:`STYLE_ORDER`."""
    unknown = [name for name in names if name not in STYLE_ORDER]
    if unknown:
        raise ValueError(f"not a stylesheet of the app: {', '.join(unknown)}")
    return [str(styles_dir() / name) for name in STYLE_ORDER if name in names]


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
