"""A sixth game, High Card (this folder), registered once on each side and nowhere else, is played everywhere a
game is: found in the menu's list and played there against a bot, over the codec and over a real socket, its
replay checked as ``parlour replay --check`` checks it and shown in the replay viewer in its own words, and counted
in the statistics. The two registrations are undone at the end of each test (xdist runs many tests in one
process)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterator
from functools import partial

import pytest
from textual.pilot import Pilot
from textual.widgets import Select

import engine
from engine import registry
from engine.cards import Card
from engine.events import Event
from engine.lan.remote_session import NetworkSession
from engine.lan.server import LanServer
from engine.match import RoundOver
from engine.play.local_sessions import CodecSession
from engine.play.table_host import TableHost
from engine.records import paths
from engine.records.replays import ReplayCursor
from engine.session import Session, Update
from engine.table import Table
from sixth_game import LISTING
from sixth_game.rules import Dealt, Shown
from sixth_game.ui import UI_LISTING
from tui import games
from tui.apps.parlour import ParlourApp
from tui.apps.replay import ReplayApp
from tui.cli import main
from tui.dialogs.results import ResultsScreen
from tui.dialogs.round_over import RoundOverScreen
from tui.screens.menu import MenuScreen
from tui.screens.replay import ReplayScreen
from tui.screens.table import TableScreen
from tui.terminal.screen_styles import style_order
from tui.widgets.event_log import EventLog

WAIT = 30.0
"""The longest any one thing is waited for (seconds)."""


@pytest.fixture
def high_card() -> Iterator[None]:
    """High Card registered on both sides for one test, and taken away again after it."""
    registry.register(LISTING)
    try:
        games.register(UI_LISTING)
        try:
            yield
        finally:
            games.unregister(UI_LISTING.key)
    finally:
        registry.unregister(LISTING.key)


def test_it_is_no_game_until_registered_and_none_after() -> None:
    def known() -> bool:
        in_registry = "highcard" in registry.game_keys()
        assert in_registry == ("highcard" in [entry.key for entry in engine.ENTRIES])  # the library's names agree
        return in_registry

    assert not known() and games.ui_listing("highcard") is None
    registry.register(LISTING)
    games.register(UI_LISTING)
    try:
        assert known()
        assert "highcard" in [entry.key for entry in games.table_entries()]
        assert UI_LISTING.styles[0] in style_order()
    finally:
        games.unregister(UI_LISTING.key)
        registry.unregister(LISTING.key)
    assert not known() and "highcard" not in [entry.key for entry in games.table_entries()]
    assert UI_LISTING.styles[0] not in style_order()


def test_its_spec_says_what_its_listing_says(high_card: None) -> None:
    game = registry.get_entry("high-card").game
    assert (game.key, game.min_players, game.default_players, game.max_players) == ("highcard", 2, 2, 4)
    assert [(e.key, e.preset, e.title, e.aliases) for e in game.entries()] == list(LISTING.entries)
    assert tuple(registry.bot_levels(game)) == LISTING.levels == ("easy",)
    assert registry.hint_level(game) is None


# -- through the menu, against a bot --------------------------------------------------------------------------------
async def wait_for(pilot: Pilot[None], condition: Callable[[], bool], tries: int = 1500) -> bool:
    """Let the app run until ``condition`` holds (bounded: ``tries`` short pauses)."""
    for _ in range(tries):
        if condition():
            return True
        await pilot.pause(0.01)
    return condition()


async def test_found_in_the_menu_and_played_there_then_replayed_and_counted(
    high_card: None, capsys: pytest.CaptureFixture[str]
) -> None:
    app = ParlourApp(pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        menu = app.screen
        assert "highcard" in [entry.key for entry in games.table_entries()]
        menu.query_one("#game", Select).value = "highcard"  # (a value that is not in the list is refused)
        assert await wait_for(pilot, lambda: "the highest rank takes the deal" in _preset_text(menu))
        menu.query_one("#difficulty", Select).value = "easy"
        await pilot.click("#start")
        assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        table = app.screen
        assert isinstance(table, TableScreen) and table.GAME_KEY == "highcard"
        assert type(table).__name__ == "HighCardTableScreen"
        for _ in range(3000):
            screen = app.screen
            if isinstance(screen, ResultsScreen):
                break
            if isinstance(screen, RoundOverScreen):
                await pilot.press("enter")
            elif table.idle() and table.my_turn:
                await pilot.press("v")
            else:
                await pilot.pause(0.01)
        assert isinstance(app.screen, ResultsScreen)
        lines = "\n".join(table.query_one(EventLog).lines_written)
        assert "the deal with the" in lines and "the match" in lines
        # The rules pane and the stylesheet are its own.
        assert any(str(path).endswith("highcard.tcss") for path in table.css_path)
    # What the app keeps of a finished match: its replay, checked as `parlour replay --check` does...
    (kept,) = sorted(paths.replays_dir().glob("*.jsonl"))
    assert main(["replay", str(kept), "--check"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("identical: ") and err == ""
    # ...shown in the replay viewer in its own words...
    cursor = ReplayCursor.open(kept)
    viewer = ReplayApp(cursor)
    async with viewer.run_test(size=(100, 30)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(viewer.screen, ReplayScreen))
        screen = viewer.screen
        assert isinstance(screen, ReplayScreen)
        seen = []
        for _ in range(cursor.total):
            await pilot.press("right")
            seen.append(screen.move_text)
        assert any("the deal with the" in text for text in seen), seen
        assert any(" show the " in text or " shows the " in text for text in seen), seen
    # ...and counted in the statistics, with its own figure.
    assert main(["stats", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    (group,) = [group for group in report["groups"] if group["game"] == "highcard"]
    assert group["games"] == 1 and group["title"] == "High Card" and group["level"] == "easy"
    assert set(group["figures"]) == {"deals_won_per_deal"} and group["counts"]["deals"] == 3


def _preset_text(menu: MenuScreen) -> str:
    return str(menu.query_one("#preset-text").render())


# -- over the codec and over a socket -------------------------------------------------------------------------------
def play(session: Session) -> list[Event]:
    """Play ``session``'s seat to the end of the match (each time, its one move), saying ready after each deal;
    every event the seat was sent, in order."""
    got: list[Event] = []
    changed = threading.Condition()

    def hear(update: Update) -> None:
        with changed:
            got.extend(update.events)
            changed.notify_all()

    stop = session.subscribe(hear)
    answered = 0
    try:
        for _ in range(1000):
            snapshot = session.snapshot()
            if snapshot.over:
                break
            with changed:
                ends = sum(1 for event in got if isinstance(event, RoundOver) and not event.last)
                heard = len(got)
            for _ in range(ends - answered):
                session.ready()
            answered = ends
            if snapshot.legal:
                session.submit(snapshot.legal[0])
            else:
                with changed:
                    changed.wait_for(partial(_more_than, got, heard), timeout=1.0)
        assert session.snapshot().over
        sync = getattr(session, "sync", None)
        if callable(sync):
            sync()
    finally:
        stop()
    with changed:
        return list(got)


def _more_than(got: list[Event], heard: int) -> bool:
    return len(got) > heard


def assert_hidden_until_shown(events: list[Event], seat: int) -> None:
    """The seat was told its own card, and of the others only that they were dealt one, until shown."""
    dealt = [event for event in events if isinstance(event, Dealt)]
    assert dealt and all((event.card is not None) == (event.seat == seat) for event in dealt)
    assert any(isinstance(event, Shown) and event.seat != seat for event in events)


def test_played_over_the_codec(high_card: None) -> None:
    table = Table.create("highcard", players=3, seed=5, bots=[None, "easy", "easy"])
    host = TableHost(table, pace=0.0)
    try:
        events = play(CodecSession(host.connect(0)))
    finally:
        host.close()
    assert table.state.is_over and table.state.result is not None
    assert sum(table.state.result.scores) == 3
    assert_hidden_until_shown(events, 0)


class ServerThread:
    """A LanServer on 127.0.0.1 (a free port), on a thread and an event loop of its own."""

    def __init__(self) -> None:
        self.server = LanServer(seed=1)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="high-card-server", daemon=True)
        self.thread.start()
        self.port = asyncio.run_coroutine_threadsafe(self.server.start("127.0.0.1", 0), self.loop).result(WAIT)

    def stop(self) -> None:
        try:
            asyncio.run_coroutine_threadsafe(self.server.close(), self.loop).result(WAIT)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(WAIT)
            self.loop.close()


def test_played_over_a_socket(high_card: None) -> None:
    server = ServerThread()
    try:
        session = NetworkSession.connect("127.0.0.1", server.port, "Ann", timeout=WAIT)
        try:
            code = session.create("highcard", 2, bots=[None, "easy"], seat=0)
            assert code
            session.start()
            session.wait_started(WAIT)
            assert session.entry.title == "High Card"
            events = play(session)
        finally:
            session.close()
    finally:
        server.stop()
    assert_hidden_until_shown(events, 0)
    assert sum(event.round == 3 for event in events if isinstance(event, RoundOver)) == 1


def test_its_words_are_its_own_in_replays(high_card: None) -> None:
    words = games.describer("high-card", None)
    assert words(Event(), ("You", "Ben"), 0) is None  # (an event it does not log)
    assert words(Shown(seat=1, card=Card.parse("KH")), ("You", "Ben"), 0) == "Ben shows the K♥"
    assert words(Shown(seat=0, card=Card.parse("2C")), ("You", "Ben"), 0) == "You show the 2♣"
