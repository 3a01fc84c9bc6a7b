"""A spectator's screen (issue 25, point 5), at every game's table: the table as the public sees it, every seat
shown, no hand panel, no move buttons, no move, hint or hand key in the footer or the command palette, and leaving
asks nothing. A seated player's screen keeps all of them. The spectator of a LAN table is in test_lan_pilot.py."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Button
from tui_helpers import TableApp, plain_screen, table_screen, wait_for

from engine.play.table_host import TableHost
from tui.dialogs.confirm import ConfirmScreen
from tui.screens.table import TableScreen
from tui.widgets.hand import HandStrip

GAMES = [("screw", 3), ("big2", 4), ("trash", 4), ("rank", 3)]
NAMES = ("Ann", "Ben", "Cleo", "Dan")
SHARED_KEYS = {"r", "m", "q", "question_mark"}
"""The keys a spectator's footer shows: the rules, back to the lobby, quit, the keys panel."""


def people_table(game: str, players: int) -> TableHost:
    """People only and nothing moving by itself: the table stands at a move a player would be offered."""
    return TableHost.create(game, players, seed=11, bots=[None] * players, names=NAMES[:players], autostart=False)


async def opened(pilot: Pilot) -> TableScreen:
    assert await wait_for(pilot, lambda: any(isinstance(s, TableScreen) for s in pilot.app.screen_stack))
    screen = table_screen(pilot)
    assert await wait_for(pilot, lambda: screen.snapshot is not None)
    await pilot.pause(0.05)
    return screen


def footer_keys(screen: TableScreen) -> set[str]:
    return {key for key, b in screen.active_bindings.items() if b.binding.show and screen.app.screen is screen}


def visible_buttons(screen: TableScreen) -> list[str]:
    return [str(b.label) for b in screen.query(Button) if b.display and all(a.display for a in b.ancestors_with_self)]


def palette_titles(screen: TableScreen) -> list[str]:
    return [command.title for command in screen.commands()]


@pytest.mark.parametrize(("game", "players"), GAMES)
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_spectator_sees_the_public_table_and_no_moves(game: str, players: int, size: tuple[int, int]) -> None:
    host = people_table(game, players)
    app = TableApp(host.connect(None))
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot)
        assert screen.watching and screen.has_class("-watching")
        text = plain_screen(app)
        for name in NAMES[:players]:
            assert name in text, f"{name}'s seat is not shown to a spectator"
        assert "Watching" not in text and "Your card" not in text and "Your turn" not in text
        for hand in screen.query(HandStrip):
            assert not hand.display, "a spectator has a hand panel"
        assert visible_buttons(screen) == []
        assert footer_keys(screen) <= SHARED_KEYS, footer_keys(screen)
        assert palette_titles(screen) == []
        # A move's key does nothing, and says nothing.
        before = plain_screen(app)
        version = host.snapshot(None).version
        for key in ("enter", "p", "x", "h", "s", "d", "t", "w", "1", "o", "space"):
            await pilot.press(key)
        await pilot.pause(0.05)
        assert screen.refusal is None
        assert host.snapshot(None).version == version
        assert app.screen is screen and plain_screen(app) == before


@pytest.mark.parametrize(("game", "players"), GAMES)
async def test_a_player_keeps_their_hand_and_moves(game: str, players: int) -> None:
    host = people_table(game, players)
    to_move = host.snapshot(None).to_move
    assert to_move is not None
    app = TableApp(host.connect(to_move))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await opened(pilot)
        assert not screen.watching and not screen.has_class("-watching")
        assert visible_buttons(screen), "a player's move buttons are gone"
        assert footer_keys(screen) - SHARED_KEYS, "a player's footer offers no move"
        assert palette_titles(screen)
        for hand in screen.query(HandStrip):
            assert hand.display


@pytest.mark.parametrize(("game", "players"), GAMES)
async def test_a_spectator_leaves_without_a_question(game: str, players: int) -> None:
    host = people_table(game, players)
    app = TableApp(host.connect(None))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await opened(pilot)
        assert screen.in_progress
        await pilot.press("m")
        assert await wait_for(pilot, lambda: app.left == ["lobby"])
        assert not any(isinstance(s, ConfirmScreen) for s in app.screen_stack)


async def test_a_player_is_still_asked_before_leaving() -> None:
    host = people_table("big2", 4)
    app = TableApp(host.connect(0))
    async with app.run_test(size=(100, 30)) as pilot:
        await opened(pilot)
        await pilot.press("m")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert app.left == []
