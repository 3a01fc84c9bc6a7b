"""Messages the UI passes between its parts."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from engine.events import Event


@dataclass
class EngineEvent(Message):
    """An engine event reached the screen; posted from whatever thread the session called back on."""

    event: Event
