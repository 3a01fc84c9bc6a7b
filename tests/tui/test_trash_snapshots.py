"""The Trash table drawn at 80x24 (two players, a King to place; four players, three layouts across), 120x40 and
160x50 (four players: larger cards, the piles as faces), fixed seeds."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from tui_helpers import my_turn, wait_for

from engine.games.trash.rules import TrashPhase
from tui.apps.parlour import ParlourApp, PlayConfig
from tui.games.trash.table import TrashTableScreen


async def _until_my_turn(pilot: Pilot) -> None:
    assert await wait_for(pilot, lambda: isinstance(pilot.app.screen, TrashTableScreen) and my_turn(pilot))
    await pilot.pause()


def _app(players: int) -> ParlourApp:
    return ParlourApp(start=PlayConfig(game="trash", players=players, seed=7, difficulty="easy"), pace=0)


def test_trash_table_80x24(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot) -> None:
        await _until_my_turn(pilot)
        await pilot.press("s")  # seed 7: a King, to be placed (the face-down slots are offered)
        screen = pilot.app.screen
        assert isinstance(screen, TrashTableScreen)
        assert await wait_for(pilot, lambda: my_turn(pilot) and screen.view.phase is TrashPhase.KING)
        await pilot.pause()

    assert snap_compare(_app(2), terminal_size=(80, 24), run_before=run_before)


def test_trash_table_80x24_four_players(snap_compare: Any) -> None:
    assert snap_compare(_app(4), terminal_size=(80, 24), run_before=_until_my_turn)


def test_trash_table_120x40_four_players(snap_compare: Any) -> None:
    assert snap_compare(_app(4), terminal_size=(120, 40), run_before=_until_my_turn)


def test_trash_table_160x50_four_players(snap_compare: Any) -> None:
    assert snap_compare(_app(4), terminal_size=(160, 50), run_before=_until_my_turn)
