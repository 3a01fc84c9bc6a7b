"""The Big Two table drawn at 80x24, 120x40 and 160x50 at the human's first turn of a fixed deal (mini faces, 9x7
faces and 11x9 faces, a card or two selected), with three players at 80x24 (17 cards), and with the rules pane
open beside the table at 160x50."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from tui_helpers import my_turn, wait_for

from tui.apps.parlour import ParlourApp, PlayConfig
from tui.games.big2.table import Big2TableScreen


async def _until_my_turn(pilot: Pilot) -> None:
    assert await wait_for(pilot, lambda: isinstance(pilot.app.screen, Big2TableScreen) and my_turn(pilot))
    await pilot.pause()


async def _select_two(pilot: Pilot) -> None:
    await _until_my_turn(pilot)
    await pilot.press("right", "space", "right", "right", "space")  # two cards raised: the status line explains
    await pilot.pause()


def _app(players: int = 4) -> ParlourApp:
    return ParlourApp(start=PlayConfig(game="big2", players=players, seed=3), pace=0)


def test_big2_table_80x24(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot) -> None:
        await _until_my_turn(pilot)
        await pilot.press("right", "space")  # one card selected: the status line explains it
        await pilot.pause()

    assert snap_compare(_app(), terminal_size=(80, 24), run_before=run_before)


def test_big2_table_120x40(snap_compare: Any) -> None:
    assert snap_compare(_app(), terminal_size=(120, 40), run_before=_select_two)


def test_big2_table_160x50(snap_compare: Any) -> None:
    assert snap_compare(_app(), terminal_size=(160, 50), run_before=_select_two)


def test_big2_table_160x50_with_rules(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot) -> None:
        await _until_my_turn(pilot)
        await pilot.press("r")
        await pilot.pause()

    assert snap_compare(_app(), terminal_size=(160, 50), run_before=run_before)


def test_big2_three_players_80x24(snap_compare: Any) -> None:
    """17 cards in hand must still fit at 80 columns."""
    assert snap_compare(_app(3), terminal_size=(80, 24), run_before=_until_my_turn)
