"""Messages the UI passes between its parts.

Screens never import the app: they post one of these, and it bubbles up to :class:`tui.apps.parlour.ParlourApp`.
"""

from __future__ import annotations

from dataclasses import dataclass

import rich.repr
from textual.message import Message


@dataclass(frozen=True)
class PlayConfig:
    """A table to open: which game, how many players, the rules, the opponents' level and your name."""

    game: str = "screw"
    players: int = 5
    seed: int | None = None
    preset: str | None = None
    variants: tuple[str, ...] = ()
    difficulty: str = "medium"
    name: str = "You"
    from_settings: tuple[str, ...] = ()
    """Fields the command line left open (``players``, ``difficulty``): your settings' defaults for the game fill
    them in when the app starts."""


class StartGame(Message):
    """Open a table for ``config`` (by default ``PlayConfig()``) in place of the current screen."""

    def __init__(self, config: PlayConfig | None = None, *, chosen: bool = False) -> None:
        """``chosen``: the player chose ``config`` at the menu, which opens on it next time."""
        super().__init__()
        self.config = config if config is not None else PlayConfig()
        self.chosen = chosen

    def __rich_repr__(self) -> rich.repr.Result:
        yield "config", self.config


class ResumeMatch(Message):
    """Go on with the match left unfinished (the one the menu offers to resume)."""


class PlayAgain(Message):
    """The same table setup with a new seed."""


class MainMenu(Message):
    """Back to the main menu."""


class TakeBack(Message):
    """Take your latest move back (a table in this process against computer players): the table screen asks this of
    the app once the session says it may; the app opens the table again as it was at that decision."""
