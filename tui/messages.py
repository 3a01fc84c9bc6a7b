"""Messages the UI passes between its parts.

Screens never import the app: they post one of these, and it bubbles up to :class:`tui.app.ParlourApp`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from textual.message import Message

from engine.events import Event


@dataclass
class EngineEvent(Message):
    """An engine event reached the screen; posted from whatever thread the session called back on."""

    event: Event


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


@dataclass
class StartGame(Message):
    """Open a table for ``config`` in place of the current screen."""

    config: PlayConfig = field(default_factory=PlayConfig)


class PlayAgain(Message):
    """The same table setup with a new seed."""


class MainMenu(Message):
    """Back to the main menu."""
