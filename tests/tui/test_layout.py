"""The tables use the room they have. Each table is complete at its smallest size (every seat, your cards, the turn
line, the buttons and some of the log on screen, nothing cut) and a column or a row less is not, so the size below
which the screen asks for a larger window is the true one; on a larger terminal the cards grow and the log widens;
the rules pane sits beside the table when both fit (the table keeps 80 columns and the log its words), over it when
they do not."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from textual.errors import NoWidget
from textual.pilot import Pilot
from textual.widget import Widget
from tui_helpers import my_turn, wait_for

from tui.apps.parlour import ParlourApp, PlayConfig
from tui.screens.table import TableScreen
from tui.widgets.card import CardFace
from tui.widgets.event_log import EventLog
from tui.widgets.hand import HandStrip
from tui.widgets.room import TableRoom

ESSENTIALS: dict[str, tuple[str, ...]] = {
    "chase": ("#my-card", "#status", "#stay", "#trade", "#deck", ".seat", "#log"),
    "screw": ("#my-card", "#status", "#stay", "#trade", "#deck", ".seat", "#log"),
    "big2": (".b2seat", "#b2-play", "#b2-turn", "#b2-play-button", "#b2-pass-button", "#b2-hint-button", "#hand"),
    "trash": (".tr-layout", "#tr-piles", "#tr-turn", "#tr-stock", "#tr-discard", "#tr-status", "#log"),
    "rank": (".rkseat", "#rk-top", "#rk-piles", "#rk-turn", "#rk-play", "#rk-draw", "#rk-pass", "#rk-status", "#hand"),
}
"""What must be on screen, whole, for each table to be playable (and every table's log, at least 20x3)."""

SMALLEST: dict[str, tuple[int, int, int]] = {
    "screw": (10, 59, 21),
    "big2": (4, 64, 20),
    "trash": (4, 78, 20),
    "rank": (10, 64, 24),
}
"""For each table, with the players that need the most room: the smallest terminal it is complete at (measured)."""


def cut_off(screen: TableScreen, selectors: Iterable[str]) -> list[str]:
    """The essential widgets not wholly on screen (hidden, clipped by their container, or squashed)."""
    missing: list[str] = []
    for selector in (*selectors, "#log"):
        widgets = [widget for widget in screen.query(selector) if widget.display]
        if not widgets:
            missing.append(f"{selector}: none shown")
        for widget in widgets:
            reason = _not_whole(screen, widget)
            if reason:
                missing.append(f"{selector} ({widget.id}): {reason}")
    return missing


def _not_whole(screen: TableScreen, widget: Widget) -> str:
    try:
        geometry = screen.find_widget(widget)
    except NoWidget:
        return "not on screen"
    region, clip = geometry.region, geometry.clip
    if not clip.contains_region(region):
        return f"clipped: {region} outside {clip}"
    inner = widget.content_size
    if isinstance(widget, EventLog):
        return "" if inner.height >= 3 and inner.width >= 20 else f"a log of {inner}"
    if isinstance(widget, HandStrip):
        return "" if inner.height >= 5 else f"a hand of {inner}"
    if isinstance(widget, CardFace):
        return "" if region.height >= 7 else f"a card of {region}"
    return "" if inner.height >= 1 and inner.width >= 1 else f"squashed to {inner}"


async def _resize(pilot: Pilot, width: int, height: int) -> None:
    await pilot.resize_terminal(width, height)
    await pilot.pause()
    await pilot.pause()


@pytest.mark.parametrize("game", sorted(SMALLEST))
async def test_the_table_fits_its_room(game: str) -> None:
    players, width, height = SMALLEST[game]
    app = ParlourApp(start=PlayConfig(game=game, players=players, seed=7, difficulty="easy"), pace=0)
    async with app.run_test(size=(width, height)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, TableScreen)
        # The screen asks for a larger window below the smallest size that works, not above it.
        need_w, need_h = type(screen).MIN_SIZE
        assert need_w >= width and need_h >= height
        screen.MIN_SIZE = (0, 0)  # this test looks at the table itself below that size
        await _resize(pilot, width, height)
        assert cut_off(screen, ESSENTIALS[game]) == []
        await _resize(pilot, width - 1, height)
        assert cut_off(screen, ESSENTIALS[game]), f"{game} is still complete a column narrower"
        shorter = []  # a row less breaks the table at some width (a wide table frames its felt: a row more)
        for wide in (width, 160):
            await _resize(pilot, wide, height - 1)
            shorter.extend(cut_off(screen, ESSENTIALS[game]))
        assert shorter, f"{game} is still complete a row shorter"

        # Larger terminals: complete, the log wider each time, the room classed by its size.
        room, log = screen.query_one(TableRoom), screen.query_one(EventLog)
        widths: list[int] = []
        for size in ((80, 24), (120, 40), (160, 50)):
            await _resize(pilot, *size)
            assert cut_off(screen, ESSENTIALS[game]) == [], size
            widths.append(log.size.width)
        assert widths == sorted(set(widths))
        assert room.has_class("-wide", "-wider", "-tall", "-taller")
        if game == "big2":
            assert screen.query_one(HandStrip).fan().size == "huge"

        # The rules at 120x40: beside a complete table of 80 columns whose log wraps its words again.
        await _resize(pilot, 120, 40)
        await pilot.press("r")
        pane, main = screen.query_one("#rules-pane"), screen.query_one("#main")
        # (the pane is built when first opened, and laid out a refresh or two later: waited for, not assumed)
        assert await wait_for(pilot, lambda: main.size.width == 80 and pane.region.x >= main.region.right)
        assert main.display
        assert await wait_for(pilot, lambda: cut_off(screen, ESSENTIALS[game]) == [])
        assert log.virtual_size.width <= log.scrollable_content_region.width  # nothing cut, no sideways scroll
        # At 80x24 they cover the body, the table hidden behind; closed, the table is back whole.
        await _resize(pilot, 80, 24)
        assert await wait_for(pilot, lambda: not main.display and pane.region.width == 80)
        await pilot.press("r")
        assert await wait_for(pilot, lambda: main.display and cut_off(screen, ESSENTIALS[game]) == [])


async def test_big_two_cards_grow_with_the_room() -> None:
    """Mini faces at 80x24, 9x7 faces at 120x40, 11x9 at 160x50; with the rules beside the table at 160x50 the
    room is 120 columns: the hand keeps the faces its height allows, overlapped to fit."""
    app = ParlourApp(start=PlayConfig(game="big2", players=4, seed=3), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        screen = pilot.app.screen
        hand = screen.query_one(HandStrip)
        faces = []
        for size in ((80, 24), (120, 40), (160, 50)):
            await _resize(pilot, *size)
            faces.append((hand.fan().size, hand.fan().step))
        assert faces == [("mini", 4), ("large", 9), ("huge", 12)]
        await pilot.press("r")
        await pilot.pause()
        assert screen.query_one(TableRoom).room_size.width == 120
        fan = hand.fan()
        assert fan.size == "huge" and fan.step < 11  # overlapped, every card still there
        assert fan.count == len(hand.cards) == 13
        # A click on the part of a card that shows chooses that card, not the one under it.
        gutter = hand.styles.border.spacing.left + hand.styles.padding.left
        await pilot.click(HandStrip, offset=(gutter + 5 * fan.step + fan.step - 1, 4))
        await pilot.click(HandStrip, offset=(gutter + 12 * fan.step + fan.width - 1, 4))
        assert hand.selection == (hand.cards[5], hand.cards[12])
