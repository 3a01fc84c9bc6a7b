"""The LAN lobby drawn at 80x24, 120x40 and 160x50: three tables at the host, yours open with a person, a bot and a
free seat, a few lines of chat. The host is a stand-in that answers at once with fixed summaries, so the pictures
do not depend on a network, a clock or a table code drawn at random."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable
from tui_helpers import wait_for

from tui.apps.lan import LanApp
from tui.screens.lobby import LobbyScreen


def _seat(seat: int, name: str | None, status: str, bot: str | None = None) -> dict[str, Any]:
    return {"seat": seat, "name": name, "bot": bot, "status": status}


MINE: dict[str, Any] = {
    "code": "NGQC",
    "game": "big2",
    "title": "Big Two",
    "players": 4,
    "preset": None,
    "variants": ["pagat-scoring"],
    "level": "medium",
    "clock": 30.0,
    "state": "open",
    "creator": "Ann",
    "seats": [
        _seat(0, "Ann", "waiting"),
        _seat(1, "Ben", "ready"),
        _seat(2, None, "bot", "medium"),
        _seat(3, None, "open"),
    ],
    "spectators": 1,
}

TABLES: list[dict[str, Any]] = [
    MINE,
    {
        **MINE,
        "code": "KXTR",
        "game": "screw",
        "title": "Screw Your Neighbor",
        "players": 5,
        "variants": [],
        "state": "playing",
        "creator": "Cleo",
        "seats": [_seat(n, f"P{n}", "connected") for n in range(5)],
    },
    {
        **MINE,
        "code": "BWAM",
        "game": "rank",
        "title": "Rank",
        "players": 6,
        "variants": [],
        "clock": None,
        "creator": "Dev",
        "seats": [_seat(0, "Dev", "waiting"), *(_seat(n, None, "open") for n in range(1, 6))],
    },
]


class StandInHost:
    """What the lobby screen asks of a connection (:class:`engine.session.Lobby`), answered from fixed data."""

    def __init__(self) -> None:
        self.welcome: dict[str, Any] = {"name": "Ann", "host": "Den"}

    @property
    def table(self) -> dict[str, Any] | None:
        return MINE

    def tables(self) -> list[dict[str, Any]]:
        return TABLES

    def watch(self, callback: Callable[[dict[str, Any]], None]) -> Callable[[], None]:
        return lambda: None

    def close(self) -> None:
        pass


async def _lobby_ready(pilot: Pilot) -> None:
    app = pilot.app
    assert isinstance(app, LanApp)
    lobby = app.lobby
    assert await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
    tables = lobby.query_one("#tables", DataTable)
    assert await wait_for(pilot, lambda: tables.row_count == len(TABLES))
    for name, text in (("Ben", "Ready when you are"), ("Ann", "Filling the last seat with a bot?")):
        lobby.heard({"type": "chat", "name": name, "text": text})
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (160, 50)], ids=lambda size: f"{size[0]}x{size[1]}")
def test_lobby(snap_compare: Any, size: tuple[int, int]) -> None:
    app = LanApp(StandInHost())  # type: ignore[arg-type]  # the stand-in answers what the lobby asks
    assert snap_compare(app, terminal_size=size, run_before=_lobby_ready)
