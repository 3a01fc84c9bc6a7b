"""The race of a bot against the screen is gone (issue 28, point 3): a table is drawn only from a snapshot whose
events its log has told, however fast the bots move on the host's thread.

A person's table of a host whose bots move with pace 0 (so that after every move of the person the bots move
while the screen is still taking in that move's events), shown by a Pilot app, in this process and over a real
socket. The screen is the game's own table, watched: each event it takes in is counted (``handle``), and each time
it draws a snapshot (``render_snapshot``) that count is compared with the events the seat may see of the host's
history up to the snapshot's version (``Table.bounds``). The table never shows a move before that move's events
reached its log (the count is at least that many, whenever it draws); and a drawing from a new snapshot
(``redraw``) shows every event it has taken in (exactly that many: no event the snapshot does not show). The
protocol's side of the same guarantee is tests/lan/test_update_order.py.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from textual.app import App
from textual.screen import ModalScreen
from tui_helpers import wait_for

from engine.events import Event
from engine.game import Scenario
from engine.lan.remote_session import NetworkSession
from engine.play.table_host import TableHost
from engine.session import Session, Snapshot
from engine.table import Table
from tui.apps.navigation import Navigation
from tui.apps.notices import KeepsNotices
from tui.dialogs.results import ResultsScreen
from tui.games import screen_class
from tui.screens.table import TableScreen
from tui.terminal.screen_styles import StylePaths, app_css_path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lan"))
from lan_helpers import WAIT, ServerThread

GAMES = [pytest.param("big2", 4, id="big2"), pytest.param("screw", 3, id="screw")]


def seen_by(table: Table, seat: int | None, version: int) -> int:
    """How many events ``seat`` may see of the table's first ``version`` actions (and the deal before them)."""
    return sum(1 for event in table.state.history[: table.bounds[version]] if event.for_seat(seat) is not None)


class Watching(TableScreen):
    """Put before a game's table screen (:func:`watched`): counts the events it takes in and checks each drawing
    against :attr:`truth`, the host's table."""

    truth: ClassVar[Table]

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.taken_in = 0
        self.drawn: list[int] = []
        """The version of each new snapshot drawn."""
        self.problems: list[str] = []

    def handle(self, event: Event) -> None:
        self.taken_in += 1
        super().handle(event)

    def render_snapshot(self, snapshot: Snapshot) -> None:
        told = seen_by(self.truth, self.me, snapshot.version)
        if self.taken_in < told:
            self.problems.append(
                f"version {snapshot.version} drawn with {self.taken_in} events in the log, of {told} it shows"
            )
        super().render_snapshot(snapshot)

    def redraw(self) -> None:
        before = self.snapshot
        super().redraw()
        snap = self.snapshot
        if snap is None or snap is before:
            return
        self.drawn.append(snap.version)
        told = seen_by(self.truth, self.me, snap.version)
        if self.taken_in != told:
            self.problems.append(f"version {snap.version} drawn after {self.taken_in} events, it shows {told}")


def watched(base: type[TableScreen], table: Table) -> type[Watching]:
    """The game's table screen ``base``, watched against ``table``."""

    class Watched(Watching, base):  # type: ignore[valid-type, misc]
        truth = table

    return Watched


class WatchedApp(Navigation, KeepsNotices, App[None]):
    """:class:`tui_helpers.TableApp` around a watched table screen (Textual runs every ``on_mount`` along the MRO,
    so it is not a subclass of that app: its own would push the plain screen too)."""

    CSS_PATH: ClassVar[StylePaths] = app_css_path()
    MENU_LABEL = "Lobby"
    chain_pace = 0.0

    def __init__(self, session: Session, table: Table) -> None:
        super().__init__()
        self.session = session
        self.table = table

    def on_mount(self) -> None:
        self.push_screen(watched(screen_class(self.session.entry), self.table)(self.session))


@pytest.fixture
def servers() -> Iterator[list[ServerThread]]:
    made: list[ServerThread] = []
    yield made
    for server in made:
        server.stop()


def session_for(kind: str, host: TableHost, servers: list[ServerThread]) -> Session:
    """Seat 0's session at ``host``: in this process, or across a LanServer on 127.0.0.1 that plays ``host``."""
    if kind == "local":
        return host.connect(0)
    server = ServerThread()
    servers.append(server)
    server.server.prepared_host = lambda _table: host
    seats = host.table.seats
    return NetworkSession.open_table(
        "127.0.0.1", server.port, "Ann", host.entry.key, len(seats), bots=[s.level for s in seats], timeout=WAIT
    )


@pytest.mark.parametrize("kind", ["local", "network"])
@pytest.mark.parametrize(("game", "players"), GAMES)
async def test_the_table_never_shows_a_move_before_its_events(
    game: str, players: int, kind: str, servers: list[ServerThread]
) -> None:
    deals: dict[str, Any] = {"deals": 1, "scenario": Scenario()} if game == "big2" else {}
    table = Table.create(game, players=players, seed=28, bots=[None] + ["medium"] * (players - 1), **deals)
    host = TableHost(table, pace=0.0)
    session = session_for(kind, host, servers)
    rng = random.Random(28)
    try:
        app = WatchedApp(session, table)
        async with app.run_test(size=(100, 30)) as pilot:
            assert await wait_for(pilot, lambda: any(isinstance(s, Watching) for s in app.screen_stack))
            screen = next(s for s in app.screen_stack if isinstance(s, Watching))
            moves = 0
            for _ in range(4000):
                assert not screen.problems, screen.problems[:3]
                if screen.snapshot is not None and screen.snapshot.over:
                    break  # (drawn as the match ended, just before the results open)
                top = app.screen
                if isinstance(top, ModalScreen) and not isinstance(top, ResultsScreen):
                    await pilot.press("enter")  # the end of a round: on to the next
                elif top is screen and screen.my_turn:
                    assert screen.submit(rng.choice(screen.legal)) is None
                    moves += 1
                await pilot.pause()
            assert not screen.problems, screen.problems[:3]
            assert not host.errors, host.errors
            assert table.state.is_over and screen.snapshot is not None and screen.snapshot.over
            assert moves > 3 and len(screen.drawn) > moves, "too few drawings to have raced the bots"
            assert screen.taken_in == seen_by(table, 0, table.state.version)
    finally:
        session.close()
        host.close()
