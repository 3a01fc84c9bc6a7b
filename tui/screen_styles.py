"""Each screen's stylesheets, read the first time a screen that needs them is shown.

Textual styles a widget by going through every rule of the app's stylesheet: all of it, for every widget mounted,
and again whenever the stylesheet changes. Reading all of Parlour's ``.tcss`` files at start made a table's first
frame pay for the menu's, the other games' and every dialog's rules. So the app reads only ``base.tcss`` (rules for
every screen); each screen class names the files it needs in its ``STYLE_FILES`` (file names in ``styles/``, a
class attribute its subclasses inherit), and the app (:class:`StylesOnDemand`) reads those the first time such a
screen is pushed or switched to, restyling only that screen; and half a second later the files of the dialogs it
may open (its ``SOON_STYLE_FILES``), restyling nothing.

Two rules keep this safe, and ``tests/tui/test_screen_styles.py`` holds the screens to them:

- Each file's rules style the screens that name it, and nothing else (a rule meant for one screen is written for
  it, ``TrashTableScreen #log``, not for every ``#log``). Then a file read later cannot change a screen already
  shown, and a screen looks exactly as it would with every file read.
- The files keep one order in the stylesheet (:data:`STYLE_ORDER`) however the screens were visited, so two rules
  of equal weight always resolve the same way.

Textual's own ``Screen.CSS_PATH`` would read a screen's files too, but it then parses the whole stylesheet again,
bypassing the parsed rules kept between runs (:mod:`tui.css_cache`), and restyles every widget of the app.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, partial
from pathlib import Path
from typing import Any

import tui

__all__ = ["APP_STYLES", "STYLE_ORDER", "StylesOnDemand", "app_css_path", "styles_dir"]

STYLE_ORDER = (
    "base.tcss",
    "menu.tcss",
    "table.tcss",
    "big2.tcss",
    "trash.tcss",
    "rank.tcss",
    "dialogs.tcss",
    "settings.tcss",
    "lobby.tcss",
)
"""Every stylesheet of the app, in the order they stand in its stylesheet once read."""
APP_STYLES = ("base.tcss",)
"""The stylesheets every app reads at start: rules for every screen."""
SOON = 0.5
"""Seconds after a screen is shown when the stylesheets of the dialogs it may open (its ``SOON_STYLE_FILES``) are
read: after its first frame, so that the first dialog opens without parsing them (a table's end-of-hand dialog
would otherwise parse its rules as the bots' last move is drawn)."""


@cache
def styles_dir() -> Path:
    """The .tcss files: repo-root ``styles/`` in a source checkout, ``tui/styles/`` in an installed wheel."""
    package = Path(tui.__file__).resolve().parent
    for candidate in (package.parent / "styles", package / "styles"):
        if candidate.is_dir():
            return candidate
    return package / "styles"


def app_css_path() -> list[Path]:
    """An app's ``CSS_PATH``: the stylesheets read before its first screen."""
    return [styles_dir() / name for name in APP_STYLES]


class StylesOnDemand:
    """Mixed into an :class:`~textual.app.App` (before it in the bases): a screen's ``STYLE_FILES`` are read the
    first time it is shown (Textual calls ``_load_screen_css`` as it pushes or switches to a screen)."""

    def _load_screen_css(self, screen: Any) -> None:
        self.read_styles(getattr(screen, "STYLE_FILES", ()), restyle=screen)
        later = [name for name in getattr(screen, "SOON_STYLE_FILES", ()) if not self._has_read(name)]
        if later:
            self.set_timer(SOON, partial(self.read_styles, later))  # type: ignore[attr-defined]
        super()._load_screen_css(screen)  # type: ignore[misc]

    def _has_read(self, name: str) -> bool:
        return bool(self.stylesheet.has_source(str(styles_dir() / name)))  # type: ignore[attr-defined]

    def read_styles(self, names: Iterable[str], restyle: Any = None) -> bool:
        """Read the stylesheets ``names`` not read yet, keeping :data:`STYLE_ORDER`; then restyle ``restyle`` (a
        node) and everything under it. True if any was read."""
        stylesheet = self.stylesheet  # type: ignore[attr-defined]
        folder = styles_dir()
        fresh = [name for name in names if not self._has_read(name)]
        if not fresh:
            return False
        unknown = [name for name in fresh if name not in STYLE_ORDER]
        if unknown:
            raise ValueError(f"not a stylesheet of the app: {', '.join(unknown)}")
        for name in fresh:
            stylesheet.read(folder / name)
        # Move the app's files, in their order, after everything else read so far (widgets' defaults, which weigh
        # less than any rule of a file whatever their place): the order two equal rules are resolved by.
        ours = {str(folder / name) for name in STYLE_ORDER}
        rank = {str(folder / name): index for index, name in enumerate(STYLE_ORDER)}
        source = stylesheet.source
        kept = sorted((key for key in source if key[0] in ours and key[1] == ""), key=lambda key: rank[key[0]])
        moved = [(key, source.pop(key)) for key in kept]
        source.update(moved)
        stylesheet.parse()  # (from the parsed rules kept, tui.css_cache); also forgets the old map of rules
        if restyle is not None:
            stylesheet.update(restyle)
        return True
