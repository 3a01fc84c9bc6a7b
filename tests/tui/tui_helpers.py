"""Helpers for the TUI tests: bounded waiting, never an open-ended loop."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot

from tui.screens.table import TableScreen


async def wait_for(pilot: Pilot, condition: Callable[[], bool], tries: int = 300) -> bool:
    """Let the app run until ``condition`` holds (True) or ``tries`` pauses have passed (False)."""
    for _ in range(tries):
        if condition():
            return True
        await pilot.pause()
    return condition()


def table_of(pilot: Pilot) -> TableScreen:
    """The table screen, whether or not a dialog is open over it."""
    for screen in reversed(pilot.app.screen_stack):
        if isinstance(screen, TableScreen):
            return screen
    raise AssertionError(f"no table screen in {pilot.app.screen_stack}")


def my_turn(pilot: Pilot) -> bool:
    screen = pilot.app.screen
    return isinstance(screen, TableScreen) and screen.session.is_my_turn and not screen._bot_busy
