"""Is the installed Textual the one Parlour was checked against?

Two things of Parlour's lean on what Textual does not make public, and each is used only where the installed Textual
is one of :data:`CHECKED_TEXTUAL` (with any other, Textual's own public behaviour is used instead):
:class:`tui.terminal.driver.QuickExitDriver` (Textual's key parser) and :class:`tui.widgets.key_footer.KeyFooter`
(greying a footer key in place). ``tests/test_no_patches.py`` lists both in its allow list.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

__all__ = ["CHECKED_TEXTUAL", "checked_in", "textual_checked"]

CHECKED_TEXTUAL = ("8.2.8",)
"""The Textual releases whose private names used here were read and tested (pyproject.toml pins one of them)."""


@cache
def textual_checked() -> bool:
    """Is the installed Textual one of :data:`CHECKED_TEXTUAL`? (:func:`checked_in` the folder that holds it.)"""
    import textual

    return checked_in(Path(textual.__file__).resolve().parent.parent)


def checked_in(folder: Path) -> bool:
    """Does ``folder`` (where Textual is installed) hold the metadata of one of :data:`CHECKED_TEXTUAL`?

    Read from the name of that metadata, ``textual-VERSION.dist-info`` (as installers name it): one look at a
    directory, where ``textual.__version__`` (``importlib.metadata``) would cost the start-up several milliseconds.
    Anything else (no such directory, two of them, another version) is not checked."""
    try:
        found = [
            entry.name
            for entry in os.scandir(folder)
            if entry.name.startswith("textual-") and entry.name.endswith(".dist-info")
        ]
    except OSError:
        return False
    return len(found) == 1 and found[0] in {f"textual-{version}.dist-info" for version in CHECKED_TEXTUAL}
