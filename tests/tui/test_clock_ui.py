"""The turn clock on screen (issue 25, point 4), at every game's table: the seconds left beside the seat to move,
counted down; one notice for the person whose move it is; gone once the table moves on; a move the clock made
logged as a bot's. The host's ``clock`` messages are handed to the screen as the LAN app does (``hear_clock``);
the end-to-end test on real sockets is in test_lan_pilot.py."""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from tui_helpers import TableApp, plain_screen, table_screen, wait_for

from engine.play.table_host import TableHost
from tui.screens.table import TableScreen
from tui.widgets.event_log import EventLog
from tui.words.clock import ran_out_line

GAMES = [("screw", 3), ("big2", 4), ("trash", 2), ("rank", 3)]
NAMES = ("Ann", "Ben", "Cleo", "Dan")


def people_table(game: str, players: int) -> TableHost:
    """A table of people only, nothing moving by itself: the tests make each move."""
    return TableHost.create(game, players, seed=11, bots=[None] * players, names=NAMES[:players], autostart=False)


def clock(screen: TableScreen, seconds: float, *, ran_out: bool = False, seat: int | None = None) -> dict[str, Any]:
    """The host's clock message for the moment the screen's table is at."""
    snap = screen.session.snapshot()
    message: dict[str, Any] = {
        "type": "clock",
        "table": "NGQC",
        "seat": snap.to_move if seat is None else seat,
        "version": snap.version,
        "seconds": seconds,
    }
    if ran_out:
        message["ran_out"] = True
    return message


def notices(pilot: Pilot) -> list[str]:
    return list(pilot.app.notices)


async def opened(pilot: Pilot) -> TableScreen:
    assert await wait_for(pilot, lambda: any(isinstance(s, TableScreen) for s in pilot.app.screen_stack))
    screen = table_screen(pilot)
    assert await wait_for(pilot, lambda: screen.snapshot is not None)
    return screen


async def move_on(pilot: Pilot, host: TableHost, screen: TableScreen, seat: int, version: int) -> None:
    """``seat`` (to move at ``version``) makes its first legal move; then wait for the screen to draw past it."""
    mover = host.connect(seat)
    mover.submit(mover.snapshot().legal[0])
    assert await wait_for(pilot, lambda: screen.snapshot is not None and screen.snapshot.version > version)


def shown_clock(app: App[None]) -> list[str]:
    """Every "N s" the screen shows."""
    return re.findall(r"\b\d+ s\b", plain_screen(app))


@pytest.mark.parametrize(("game", "players"), GAMES)
async def test_the_seconds_left_beside_the_seat_to_move_count_down(game: str, players: int) -> None:
    host = people_table(game, players)
    session = host.connect(1)  # seat 1 watches the others' clocks too
    app = TableApp(session)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await opened(pilot)
        assert shown_clock(app) == []
        to_move = screen.session.snapshot().to_move
        assert to_move is not None
        now = [1000.0]  # the screen's clock, moved on by the test: what it shows never waits on a busy machine
        screen.now = lambda: now[0]
        screen.hear_clock(clock(screen, 2.5))
        for seconds in ("3 s", "2 s", "1 s", "0 s"):  # counted down, a second at a time, to 0
            expected = [seconds]
            assert await wait_for(pilot, lambda e=expected: shown_clock(app) == e, tries=1000), shown_clock(app)
            now[0] += 1.0
        assert screen.clock_shown() == (to_move, 0)


@pytest.mark.parametrize(("game", "players"), GAMES)
async def test_the_clock_goes_when_the_table_moves_on(game: str, players: int) -> None:
    host = people_table(game, players)
    session = host.connect(0)
    app = TableApp(session)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await opened(pilot)
        snap = session.snapshot()
        assert snap.to_move is not None
        screen.now = lambda: 1000.0  # (the screen's clock stands still: a busy machine never shows 29 s instead)
        screen.hear_clock(clock(screen, 30))
        assert await wait_for(pilot, lambda: shown_clock(app) == ["30 s"])
        await move_on(pilot, host, screen, snap.to_move, snap.version)
        assert await wait_for(pilot, lambda: shown_clock(app) == [])
        assert screen.clock_shown() is None


async def test_an_earlier_moments_clock_heard_late_leaves_the_clock_that_runs_now() -> None:
    """A screen that starts watching a table is told the clock running now (the session's watch), and the app may
    pass on an earlier moment's clock message still on its way: the clock of now stays on the screen."""
    host = people_table("screw", 3)
    session = host.connect(2)
    app = TableApp(session)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await opened(pilot)
        first = session.snapshot()
        assert first.to_move is not None
        earlier = clock(screen, 30)  # the first seat's clock, at the first moment
        await move_on(pilot, host, screen, first.to_move, first.version)
        screen.now = lambda: 1000.0
        now = clock(screen, 40)
        assert now["version"] > earlier["version"] and now["seat"] != earlier["seat"]
        screen.hear_clock(now)  # the watch's news of the clock running now
        screen.hear_clock(earlier)  # then the earlier moment's, late
        screen.hear_clock(dict(now))  # and the clock of now again, as the app passes it on
        assert await wait_for(pilot, lambda: shown_clock(app) == ["40 s"]), plain_screen(app)
        assert screen.clock_shown() == (now["seat"], 40)


async def test_one_notice_for_the_person_whose_move_it_is() -> None:
    host = people_table("big2", 4)
    to_move = host.snapshot(None).to_move
    assert to_move is not None
    app = TableApp(host.connect(to_move))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await opened(pilot)
        screen.now = lambda: 1000.0  # (the screen's clock stands still: 29.6 s shows as 30 s however busy the machine)
        message = clock(screen, 29.6)
        screen.hear_clock(message)
        screen.hear_clock(dict(message))  # the same message twice (heard by the session and by the app)
        assert await wait_for(pilot, lambda: shown_clock(app) == ["30 s"])
        assert await wait_for(pilot, lambda: any("Your move" in n for n in notices(pilot)))
        assert [n for n in notices(pilot) if "Your move" in n] == ["Your move: 30 s, then a bot plays it for you"]
        screen.hear_clock({**message, "seconds": 12.0})  # a resumed connection is told the same clock again
        await pilot.pause(0.05)
        assert len([n for n in notices(pilot) if "Your move" in n]) == 1


async def test_no_notice_for_another_seat_or_a_spectator() -> None:
    host = people_table("big2", 4)
    to_move = host.snapshot(None).to_move
    assert to_move is not None
    for seat in ((to_move + 1) % 4, None):
        app = TableApp(host.connect(seat))
        async with app.run_test(size=(100, 30)) as pilot:
            screen = await opened(pilot)
            screen.now = lambda: 1000.0  # (the screen's clock stands still: never 19 s on a busy machine)
            screen.hear_clock(clock(screen, 20))
            assert await wait_for(pilot, lambda: shown_clock(pilot.app) == ["20 s"])
            assert not [n for n in notices(pilot) if "Your move" in n]


@pytest.mark.parametrize(("game", "players"), GAMES)
@pytest.mark.parametrize("mine", [True, False])
async def test_a_move_the_clock_made_is_logged_as_a_bots(game: str, players: int, mine: bool) -> None:
    host = people_table(game, players)
    to_move = host.snapshot(None).to_move
    assert to_move is not None
    me = to_move if mine else (to_move + 1) % players
    app = TableApp(host.connect(me))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await opened(pilot)
        log = screen.query_one(EventLog)
        before = len(log.lines_written)
        screen.hear_clock(clock(screen, 30))
        screen.hear_clock(clock(screen, 0, ran_out=True))
        mover = host.connect(to_move)  # (the host's bot, as far as the screen can tell)
        mover.submit(mover.snapshot().legal[0])
        assert await wait_for(pilot, lambda: len(log.lines_written) > before)
        await pilot.pause(0.05)
        first = log.lines_written[before]
        who = "" if mine else f" for {NAMES[to_move]}"
        assert first.startswith(f"The clock ran out{who}: a bot "), first
        assert ("for you" if mine else "for them") in first
        assert not any(line.startswith("You ") for line in log.lines_written[before : before + 1])
        assert shown_clock(app) == []
        # Only that move: the next one is logged as usual.
        count = len(log.lines_written)
        next_seat = host.snapshot(None).to_move
        assert next_seat is not None
        mover = host.connect(next_seat)
        mover.submit(mover.snapshot().legal[0])
        assert await wait_for(pilot, lambda: len(log.lines_written) > count)
        await pilot.pause(0.05)
        assert not any("clock" in line for line in log.lines_written[count:])


def test_a_clock_line_in_each_games_words() -> None:
    names = ("Ann", "Ben")
    cases = {
        "You play a pair of Jacks (J♠ J♥) — 3 left": "The clock ran out: a bot played a pair of Jacks for you (J♠ J♥)"
        " — 3 left",
        "You pass": "The clock ran out: a bot passed for you",
        "You stayed": "The clock ran out: a bot stayed for you",
        "You traded with Ben: you gave 5♥ and got K♠": "The clock ran out: a bot traded with Ben for you: you gave 5♥"
        " and got K♠",
        "You put the 7♥ on slot 7 and turn up the Q♣": "The clock ran out: a bot put the 7♥ on slot 7 and turned up"
        " the Q♣ for you",
        "You draw the 5♥": "The clock ran out: a bot drew the 5♥ for you",
        "You keep the King: the 5♥ is discarded": "The clock ran out: a bot kept the King for you: the 5♥ is discarded",
    }
    for line, told in cases.items():
        assert ran_out_line(line, 0, names, 0) == [told]
    assert ran_out_line("Ben plays a Joker and names 6", 1, names, 0) == [
        "The clock ran out for Ben: a bot played a Joker and named 6 for them"
    ]
    assert ran_out_line("Ben passes", 1, names, None) == ["The clock ran out for Ben: a bot passed for them"]
    # A line that does not tell the seat's move: said first, then the line as it is.
    assert ran_out_line("Ben's K♠ blocked your trade", 0, names, 0) == [
        "The clock ran out: a bot moved for you",
        "Ben's K♠ blocked your trade",
    ]


async def test_clock_messages_the_screen_cannot_use_change_nothing() -> None:
    host = people_table("screw", 3)
    app = TableApp(host.connect(0))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await opened(pilot)
        good = clock(screen, 30)
        for bad in (
            {"type": "clock", "seconds": 30},  # no seat, no version
            {**good, "seat": "1"},
            {**good, "version": True},
            {**good, "seconds": float("nan")},
            {**good, "seconds": "30"},
            {**good, "type": "chat"},
        ):
            screen.hear_clock(bad)
        await pilot.pause(0.05)
        assert shown_clock(app) == [] and screen.clock_shown() is None
