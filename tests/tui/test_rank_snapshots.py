"""The Rank table drawn at 80x24 (four, six and ten players: two rows of seats one line each), 120x40 (four
players) and 160x50 (ten players), fixed seeds, at your first turn."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from tui_helpers import my_turn, wait_for

from tui.apps.parlour import ParlourApp, PlayConfig
from tui.games.rank.table import RankTableScreen


async def _until_my_turn(pilot: Pilot) -> None:
    assert await wait_for(pilot, lambda: isinstance(pilot.app.screen, RankTableScreen) and my_turn(pilot))
    await pilot.pause()


def _app(players: int, seed: int = 5) -> ParlourApp:
    return ParlourApp(start=PlayConfig(game="rank", players=players, seed=seed, difficulty="easy"), pace=0)


def test_rank_table_80x24_four_players(snap_compare: Any) -> None:
    assert snap_compare(_app(4), terminal_size=(80, 24), run_before=_until_my_turn)


def test_rank_table_80x24_six_players(snap_compare: Any) -> None:
    assert snap_compare(_app(6), terminal_size=(80, 24), run_before=_until_my_turn)


def test_rank_table_80x24_ten_players(snap_compare: Any) -> None:
    assert snap_compare(_app(10), terminal_size=(80, 24), run_before=_until_my_turn)


def test_rank_table_120x40_four_players(snap_compare: Any) -> None:
    assert snap_compare(_app(4), terminal_size=(120, 40), run_before=_until_my_turn)


def test_rank_table_160x50_ten_players(snap_compare: Any) -> None:
    assert snap_compare(_app(10), terminal_size=(160, 50), run_before=_until_my_turn)
