"""The Screw/Chase table drawn at 80x24, 120x40 and 160x50 at the human's first turn of a fixed deal (five players,
and ten at 80x24), in a light theme, with the rules pane open (over the table at 80x24, beside it at 120x40 and
160x50); and the menu."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from tui_helpers import my_turn, wait_for

from tui.apps.parlour import ParlourApp, PlayConfig


async def _until_my_turn(pilot: Pilot) -> None:
    assert await wait_for(pilot, lambda: my_turn(pilot))
    await pilot.pause()


async def _with_rules(pilot: Pilot) -> None:
    await _until_my_turn(pilot)
    await pilot.press("r")
    await pilot.pause()


def _app(players: int = 5) -> ParlourApp:
    return ParlourApp(start=PlayConfig(game="chase", players=players, seed=7), pace=0)


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (160, 50)], ids=lambda size: f"{size[0]}x{size[1]}")
def test_table(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(_app(), terminal_size=size, run_before=_until_my_turn)


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (160, 50)], ids=lambda size: f"{size[0]}x{size[1]}")
def test_table_with_rules(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(_app(), terminal_size=size, run_before=_with_rules)


def test_table_ten_players_80x24(snap_compare: Any) -> None:
    app = ParlourApp(start=PlayConfig(game="screw", players=10, seed=7), pace=0)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_until_my_turn)


def test_table_light_theme_80x24(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot) -> None:
        pilot.app.theme = "textual-light"
        await _until_my_turn(pilot)

    assert snap_compare(_app(), terminal_size=(80, 24), run_before=run_before)


def test_menu_80x24(snap_compare: Any) -> None:
    assert snap_compare(ParlourApp(pace=0), terminal_size=(80, 24))
