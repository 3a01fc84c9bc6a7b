"""Frozen events with their audience.

An event names who may see it in full (``audience``; ``None`` means every seat and every spectator). A seat outside
the audience receives the event's :meth:`Event.redacted` form instead, which hides the cards it may not see, or
nothing at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class Event:
    audience: frozenset[int] | None = None

    def redacted(self) -> Event | None:
        """What a seat outside the audience learns from this event (by default, nothing)."""
        return None

    def for_seat(self, seat: int | None) -> Event | None:
        """This event as ``seat`` may see it; ``seat=None`` is a spectator who sees only public events."""
        if self.audience is None or (seat is not None and seat in self.audience):
            return self
        return self.redacted()

    @property
    def is_public(self) -> bool:
        return self.audience is None


def frozen(cls: type[T], **fields: object) -> T:
    """An instance of the frozen dataclass ``cls`` with ``fields``, made without its ``__init__``, which sets each
    field through ``object.__setattr__``: slow at the pace of simulated matches. Nothing is filled in or checked,
    so the caller gives every field (an event's ``audience`` too)."""
    made: T = object.__new__(cls)
    made.__dict__.update(fields)
    return made
