"""Your turn, noticed (issue 31, point 5): with the bell setting on, the terminal's bell (``App.bell``) rings when
your turn comes after more than a few seconds of waiting, not after a shorter wait, never with the setting off; and
at a LAN table when your clock has 10 s left, once. The screen's clock (``now``) is the test's: nothing waits on
the wall clock."""

from __future__ import annotations

import re

from textual.pilot import Pilot
from textual.widgets import Checkbox
from tui_helpers import TableApp, plain_screen, settled, table_screen, wait_for

from engine.play.local_sessions import LocalSession
from engine.play.table_host import TableHost
from engine.session import Session
from tui.apps.parlour import ParlourApp
from tui.screens.table import BELL_AFTER, BELL_CLOCK, TableScreen
from tui.settings.file import Settings, dumps, load, loads
from tui.settings.in_app import is_settings_screen

NAMES = ("Ann", "Ben", "Cleo")


class BellApp(TableApp):
    """A table app with your settings, counting the bells it is asked to ring."""

    def __init__(self, session: Session, *, bell: bool) -> None:
        super().__init__(session)
        self.settings = Settings(bell=bell)
        self.bells = 0

    def bell(self) -> None:
        self.bells += 1


class Clock:
    def __init__(self) -> None:
        self.time = 1000.0

    def __call__(self) -> float:
        return self.time


def people_table(players: int = 3) -> TableHost:
    """Rank for people only, nothing moving by itself: the tests make each move (one play or draw a turn)."""
    return TableHost.create("rank", players, seed=3, bots=[None] * players, names=NAMES[:players], autostart=False)


async def opened(pilot: Pilot) -> TableScreen:
    assert await wait_for(pilot, lambda: any(isinstance(s, TableScreen) for s in pilot.app.screen_stack))
    screen = table_screen(pilot)
    assert await wait_for(pilot, lambda: screen.snapshot is not None)
    return screen


async def others_play(pilot: Pilot, host: TableHost, screen: TableScreen, seats: dict[int, LocalSession]) -> None:
    """The other seats make their first legal move until it is yours; then wait until the screen shows your turn."""
    me = screen.me
    for _ in range(20):
        snap = host.snapshot(None)
        if snap.to_move == me:
            break
        assert snap.to_move is not None
        mover = seats.setdefault(snap.to_move, host.connect(snap.to_move))
        mover.submit(mover.snapshot().legal[0])
    assert await wait_for(pilot, lambda: screen.my_turn and screen.snapshot == screen.session.snapshot())


async def your_move(pilot: Pilot, screen: TableScreen) -> None:
    version = screen.session.snapshot().version
    screen.session.submit(screen.session.snapshot().legal[0])
    assert await wait_for(pilot, lambda: screen.snapshot is not None and screen.snapshot.version > version)


async def turns(bell: bool) -> list[int]:
    """Your bells after each of three turns: the first (no wait), one after a wait of just BELL_AFTER, one after
    a wait of a second more."""
    host = people_table()
    first = host.snapshot(None).to_move
    assert first is not None
    app = BellApp(host.connect(first), bell=bell)
    seats: dict[int, LocalSession] = {}
    counted: list[int] = []
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await opened(pilot)
        clock = Clock()
        screen.now = clock
        assert await wait_for(pilot, lambda: screen.my_turn)
        counted.append(app.bells)  # your first turn: you have not waited
        await your_move(pilot, screen)
        clock.time += BELL_AFTER  # a wait of just the few seconds
        await others_play(pilot, host, screen, seats)
        counted.append(app.bells)
        await your_move(pilot, screen)
        clock.time += BELL_AFTER + 1  # a longer one
        await others_play(pilot, host, screen, seats)
        counted.append(app.bells)
    host.close()
    return counted


async def test_the_bell_rings_when_your_turn_comes_after_a_wait_and_not_before() -> None:
    assert await turns(bell=True) == [0, 0, 1]


async def test_no_bell_with_the_setting_off() -> None:
    assert await turns(bell=False) == [0, 0, 0]


def shown_clock(screen: TableScreen) -> list[str]:
    return re.findall(r"\b\d+ s\b", plain_screen(screen.app))


def clock_message(screen: TableScreen, seconds: float) -> dict[str, object]:
    snap = screen.session.snapshot()
    return {"type": "clock", "table": "NGQC", "seat": snap.to_move, "version": snap.version, "seconds": seconds}


async def clock_bells(bell: bool, mine: bool) -> list[int]:
    """Bells as a LAN clock of 12 s counts down to 11, 10 and 9 s, for your seat's clock (or another's)."""
    host = people_table()
    first = host.snapshot(None).to_move
    assert first is not None
    seat = first if mine else (first + 1) % 3
    app = BellApp(host.connect(seat), bell=bell)
    counted: list[int] = []
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await opened(pilot)
        clock = Clock()
        screen.now = clock
        screen.hear_clock(clock_message(screen, BELL_CLOCK + 2))
        for seconds in (BELL_CLOCK + 2, BELL_CLOCK + 1, BELL_CLOCK, BELL_CLOCK - 1):
            expected = [f"{seconds} s"]
            assert await wait_for(pilot, lambda e=expected: shown_clock(screen) == e, tries=1000), shown_clock(screen)
            counted.append(app.bells)
            clock.time += 1.0
    host.close()
    return counted


async def test_the_bell_rings_once_when_your_lan_clock_has_10_s_left() -> None:
    assert await clock_bells(bell=True, mine=True) == [0, 0, 1, 1]


async def test_no_clock_bell_for_another_seats_clock_or_with_the_setting_off() -> None:
    assert await clock_bells(bell=True, mine=False) == [0, 0, 0, 0]
    assert await clock_bells(bell=False, mine=True) == [0, 0, 0, 0]


def test_the_setting_is_off_by_default_and_kept() -> None:
    assert Settings().bell is False
    assert loads(dumps(Settings(bell=True))).bell is True
    assert "bell = false" in dumps(Settings())


async def test_the_bell_is_set_in_the_settings_dialog() -> None:
    app = ParlourApp(pace=0)
    async with app.run_test(size=(100, 40)) as pilot:
        assert await settled(pilot)
        app.open_settings_dialog()
        assert await wait_for(pilot, lambda: is_settings_screen(app.screen) and bool(app.screen.query("#set-bell")))
        box = app.screen.query_one("#set-bell", Checkbox)
        assert box.value is False
        box.value = True
        await pilot.press("ctrl+s")
        assert await wait_for(pilot, lambda: app.settings.bell and not is_settings_screen(app.screen))
    assert load()[0].bell is True
