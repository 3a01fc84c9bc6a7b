"""LAN play through the UI: a Pilot-driven LanApp in the lobby of a real host on 127.0.0.1, at a table with a
player over the network (a thread playing random legal moves through its own NetworkSession) and bots; whole matches
to the results; names that look like markup shown as typed, in the lobby and at the table."""

from __future__ import annotations

import random
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, Checkbox, DataTable, Footer, Label
from tui_helpers import my_turn, wait_for

from engine.errors import ParlourError
from engine.games.big2.rules import PASS, Play
from engine.lan.remote_session import NetworkSession
from engine.match import RoundOver
from engine.session import Update
from tui.apps.lan import LanApp
from tui.dialogs.confirm import ConfirmScreen
from tui.dialogs.new_table import CreateTableScreen
from tui.games.big2.scoring import Big2ScoringScreen
from tui.games.chase.reveal import RevealScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.table import TableScreen
from tui.widgets.event_log import EventLog
from tui.widgets.hand import HandStrip

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lan"))
from lan_helpers import WAIT, ServerThread


@pytest.fixture
def server() -> Iterator[ServerThread]:
    running = ServerThread()
    try:
        yield running
    finally:
        running.stop()


class NetPlayer(threading.Thread):
    """A person over the network, played by a thread: random legal moves, ``next`` after every round."""

    def __init__(self, session: NetworkSession, seed: int) -> None:
        super().__init__(name="net-player", daemon=True)
        self.session = session
        self.rng = random.Random(seed)
        self.rounds = 0
        self.stop = threading.Event()
        self.failed: BaseException | None = None

    def seen(self, update: Update) -> None:
        self.rounds += sum(isinstance(event, RoundOver) and not event.last for event in update.events)

    def run(self) -> None:
        answered = 0
        try:
            self.session.wait_started(WAIT)
            self.session.subscribe(self.seen)
            deadline = time.monotonic() + 120
            while not self.stop.is_set() and time.monotonic() < deadline:
                if answered < self.rounds:
                    answered += 1
                    self.session.ready()
                snap = self.session.snapshot()
                if snap.over:
                    return
                if snap.legal:
                    try:
                        self.session.submit(self.rng.choice(snap.legal))
                    except ParlourError:
                        pass  # overtaken (the clock, a stale snapshot): look again
                else:
                    time.sleep(0.01)  # (a poll's pause: the condition is what is waited for)
        except BaseException as err:  # reported by the test
            self.failed = err


def screen_text(app: LanApp) -> str:
    """What the screen shows, as text (from the SVG screenshot: spaces come out as no-break spaces)."""
    return app.export_screenshot().replace("&#160;", " ").replace("\xa0", " ")


async def sit_from_the_lobby(pilot: Pilot, app: LanApp, creator: NetworkSession, code: str) -> None:
    """The UI player sits at ``code`` (``--table`` did it) and the creator starts once everybody is ready."""
    lobby = app.lobby

    def seated() -> bool:
        summary = creator.table
        return summary is not None and all(s["status"] in ("ready", "bot") for s in summary["seats"][1:])

    assert await wait_for(pilot, seated, tries=1000)
    creator.sync()
    seats = lobby.query_one("#seats", DataTable)
    assert await wait_for(pilot, lambda: lobby.conn.table is not None and seats.row_count > 0)


async def test_a_hand_of_screw_over_the_lan_then_back_to_the_lobby(server: ServerThread) -> None:
    """A hand played over the LAN to its reveal, then m in the middle of the match: asked first, then the lobby
    (a bot plays on for you). The whole match to the results is Big Two's test below."""
    creator = NetworkSession.connect("127.0.0.1", server.port, "[b]x[/b]")
    code = creator.create("screw", 2, bots=[None, None])
    ann = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    player = NetPlayer(creator, seed=4)
    app = LanApp(ann, table=code.lower())
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await sit_from_the_lobby(pilot, app, creator, code)
            seats = app.lobby.query_one("#seats", DataTable)
            assert await wait_for(pilot, lambda: seats.row_count == 2)
            assert str(seats.get_row_at(0)[1]) == "[b]x[/b]"
            assert "[b]x[/b]" in screen_text(app), "the name was read as markup in the lobby"
            creator.start()
            player.start()
            assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), tries=1000)
            table = app.screen
            assert isinstance(table, TableScreen) and table.session is ann and ann.info.seat == 1
            assert await wait_for(pilot, lambda: "[b]x[/b]" in screen_text(app), tries=300)
            played = 0
            for _ in range(4000):
                screen = app.screen
                if isinstance(screen, RevealScreen):
                    await pilot.press("enter")
                    break
                if my_turn(pilot):
                    await pilot.press("s")
                    played += 1
                else:
                    await pilot.pause(0.01)
            assert played > 0 and not ann.snapshot().over
            assert await wait_for(pilot, lambda: app.screen is table)
            assert player.failed is None
            # Back to the lobby mid-match: asked first.
            await pilot.press("m")
            assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("y")
            assert await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and ann.table is None)
    finally:
        player.stop.set()
        player.join(WAIT)
        creator.close()
        ann.close()


async def test_a_deal_of_big_two_over_the_lan_to_its_scoring(server: ServerThread) -> None:
    """A deal of Big Two over the LAN to its scoring dialog (the whole match to the results is played locally in
    tests/tui/test_big2_pilot.py, and over sockets by tests/lan/test_server.py); a name that looks like a click
    action quits nothing."""
    creator = NetworkSession.connect("127.0.0.1", server.port, "[@click=app.quit]q[/]")
    code = creator.create("big2", 2, bots=[None, None])
    ann = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    player = NetPlayer(creator, seed=9)
    app = LanApp(ann, table=code)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await sit_from_the_lobby(pilot, app, creator, code)
            creator.start()
            player.start()
            assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), tries=1000)
            table = app.screen
            assert isinstance(table, TableScreen)
            assert await wait_for(pilot, lambda: "[@click=app.quit]q[/]" in screen_text(app), tries=300)
            for _ in range(4000):
                if isinstance(app.screen, Big2ScoringScreen):
                    break
                if my_turn(pilot):
                    legal = table.session.snapshot().legal
                    plays = [a for a in legal if isinstance(a, Play)]
                    table.submit(max(plays, key=lambda p: len(p.cards)) if plays else PASS)
                await pilot.pause(0.01)
            assert isinstance(app.screen, Big2ScoringScreen), app.screen
            await pilot.press("enter")
            assert await wait_for(pilot, lambda: app.screen is table)
            assert app.is_running, "a name that looks like a click action quit the app"
            assert player.failed is None
    finally:
        player.stop.set()
        player.join(WAIT)
        creator.close()
        ann.close()


async def test_make_a_table_from_the_lobby_and_start_it(server: ServerThread) -> None:
    ann = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    app = LanApp(ann)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("n")
            assert await wait_for(pilot, lambda: isinstance(app.screen, CreateTableScreen))
            await pilot.click("#create")
            assert await wait_for(pilot, lambda: ann.table is not None)
            summary = ann.table
            assert summary is not None and summary["creator"] == "Ann" and summary["game"] == "screw"
            assert [s["status"] for s in summary["seats"]][1:] == ["bot"] * (len(summary["seats"]) - 1)
            await pilot.press("g")
            assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), tries=1000)
            assert ann.info.seat == 0
            # At a LAN table, m leads back to the lobby, and asks first: the match goes on without you.
            table = app.screen
            assert isinstance(table, TableScreen)
            assert await wait_for(pilot, lambda: table.in_progress)
            shown = {key: b.binding.description for key, b in table.active_bindings.items() if b.binding.show}
            assert shown.get("m") == "Lobby" and shown.get("q") == "Quit"
            # Made without hints (the dialog's default): none offered, not even greyed.
            assert not ann.info.hints and not table.hints_offered and "h" not in shown
            await pilot.press("m")
            assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            assert app.screen.question == "Back to the lobby?" and "a computer player" in app.screen.detail
            await pilot.press("y")
            assert await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and ann.table is None)
    finally:
        ann.close()


async def test_a_table_made_with_hints_gives_them_with_their_reason(server: ServerThread) -> None:
    ann = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    app = LanApp(ann)
    try:
        async with app.run_test(size=(120, 50)) as pilot:
            await pilot.press("n")
            assert await wait_for(pilot, lambda: isinstance(app.screen, CreateTableScreen))
            await pilot.click("#hints")
            assert app.screen.query_one("#hints", Checkbox).value
            await pilot.click("#create")
            assert await wait_for(pilot, lambda: ann.table is not None)
            assert ann.table is not None and ann.table["hints"] is True
            await pilot.press("g")
            assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), tries=1000)
            table = app.screen
            assert isinstance(table, TableScreen) and ann.info.hints and table.hints_offered
            assert await wait_for(pilot, lambda: my_turn(pilot), tries=3000)
            await pilot.press("h")

            def hinted() -> list[str]:
                return [line for line in table.query_one(EventLog).lines_written if line.startswith("Hint: ")]

            assert await wait_for(pilot, lambda: bool(hinted()), tries=1000)
            assert hinted()[0].split(": ")[1] in ("Stay", "Trade with the player on your left", "Swap with the deck")
    finally:
        ann.close()


async def test_chat_at_the_table_and_the_turn_clock(server: ServerThread) -> None:
    """At a clocked table the player is told the time to move; an idle player's move is made by a bot, and the seat
    stays theirs. Ctrl+T says something to the table from the table screen."""
    cleo = NetworkSession.connect("127.0.0.1", server.port, "Cleo")
    heard: list[dict[str, object]] = []
    cleo.watch(heard.append)
    code = cleo.create("screw", 2, bots=[None, None], clock=1.5)  # (the match lasts long enough to be seen)
    ann = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    app = LanApp(ann, table=code)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await sit_from_the_lobby(pilot, app, cleo, code)
            cleo.start()

            def at_table() -> bool:  # (a dialog over it or not: with the clock a hand may end before a look)
                return any(isinstance(screen, TableScreen) for screen in app.screen_stack)

            assert await wait_for(pilot, at_table, tries=6000)

            def told() -> bool:
                return any("then a bot plays it for you" in n for n in app.notices)

            assert await wait_for(pilot, told, tries=6000), "no word of the turn clock"
            # Nobody presses anything: the clock plays both seats, and Ann's seat stays hers.
            assert await wait_for(pilot, lambda: ann.snapshot().version >= 3, tries=6000)
            summary = cleo.table
            assert summary is not None and summary["seats"][1]["name"] == "Ann"
            await pilot.press("ctrl+t")
            await pilot.press(*"gg [b]", "enter")

            def chatted() -> bool:
                cleo.sync()
                return {"type": "chat", "table": code, "name": "Ann", "text": "gg [b]"} in heard

            assert await wait_for(pilot, chatted, tries=500)
            assert any(isinstance(screen, TableScreen) for screen in app.screen_stack), "chat left the table"
    finally:
        cleo.close()
        ann.close()


async def test_a_player_who_drops_is_told_about_at_the_table() -> None:
    server = ServerThread(takeover_after=0.3)
    cleo = NetworkSession.connect("127.0.0.1", server.port, "Cleo")
    cleo.resume = False  # she stays away
    code = cleo.create("big2", 2, bots=[None, None])
    ann = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    app = LanApp(ann, table=code)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await sit_from_the_lobby(pilot, app, cleo, code)
            cleo.start()
            assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), tries=1000)
            writer = cleo._writer
            assert writer is not None
            cleo._loop.call_soon_threadsafe(writer.transport.abort)  # her network fails

            def told(words: str) -> bool:
                return any(words in n for n in app.notices)

            assert await wait_for(pilot, lambda: told("Cleo lost the connection"), tries=1000)
            assert await wait_for(pilot, lambda: told("a bot plays their seat until they return"), tries=1000)
            summary = ann.table
            assert summary is not None and summary["seats"][0]["status"] == "replaced"
    finally:
        cleo.close()
        ann.close()
        server.stop()


def counting(table: TableScreen, app: LanApp) -> list[str]:
    """Whose clock the table counts down now, if its seconds are on the screen."""
    shown = table.clock_shown()
    if shown is None or f"{shown[1]} s" not in screen_text(app):
        return []
    return [table.names[shown[0]]]


def clock_lines(app: LanApp) -> list[str]:
    screen = next((s for s in app.screen_stack if isinstance(s, TableScreen)), None)
    logs = screen.query(EventLog) if screen is not None else []
    return [line for log in logs for line in log.lines_written if line.startswith("The clock ran out")]


async def test_the_turn_clock_on_screen_over_the_lan(server: ServerThread) -> None:
    """Issue 25, point 4, end to end: at a clocked table nobody plays; Ann's screen shows the seconds left beside the
    seat to move (hers and Cleo's), Ann is told once a turn, and each move the clock made is logged as a bot's."""
    cleo = NetworkSession.connect("127.0.0.1", server.port, "Cleo")
    # Big Two: a deal lasts longer than the test, so no end-of-deal dialog opens as the app closes.
    code = cleo.create("big2", 2, bots=[None, None], clock=1.0)
    ann = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    app = LanApp(ann, table=code)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await sit_from_the_lobby(pilot, app, cleo, code)
            cleo.start()
            assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), tries=1000)
            table = app.screen
            assert isinstance(table, TableScreen)
            assert await wait_for(pilot, lambda: table.is_mounted and table.snapshot is not None)
            log = table.query_one(EventLog)
            # What the log told before the screen was up (the history it was sent on opening: on a busy machine a
            # 1 s clock may already have run out) is not looked at; from here on every move comes live.
            live_from = len(log.lines_written)
            counted: set[str] = set()
            for _ in range(3000):
                counted.update(counting(table, app))
                lines = clock_lines(app)
                mine = [line for line in lines if line.startswith("The clock ran out: a bot ")]
                hers = [line for line in lines if line.startswith("The clock ran out for Cleo: a bot ")]
                if mine and hers and counted == {"Ann", "Cleo"}:
                    break
                await pilot.pause(0.01)
            assert counted == {"Ann", "Cleo"}, counted
            assert mine and all("for you" in line for line in mine), lines
            assert hers and all("for them" in line for line in hers), lines
            assert not any(line.startswith(("You play", "You pass")) for line in log.lines_written[live_from:])
            told = [n for n in app.notices if "then a bot plays it for you" in n]
            assert 1 <= len(told) <= len(mine) + 1, told
    finally:
        cleo.close()
        ann.close()


async def test_a_spectator_over_the_lan_sees_the_clock_and_leaves_unasked(server: ServerThread) -> None:
    """Issue 25, point 5, end to end: Ann watches a table in play (``--table`` of a full table): no hand, no moves,
    Cleo's clock counted down and her clock's move logged as a bot's; m leads back to the lobby without a question."""
    cleo = NetworkSession.connect("127.0.0.1", server.port, "Cleo")
    code = cleo.create("big2", 2, bots=[None, "easy"], clock=1.5)
    cleo.start()
    cleo.wait_started(WAIT)
    ann = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    app = LanApp(ann, table=code)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), tries=1000)
            table = app.screen
            assert isinstance(table, TableScreen) and table.watching and ann.info.seat is None
            assert await wait_for(pilot, lambda: table.is_mounted and table.snapshot is not None)
            assert await wait_for(pilot, lambda: counting(table, app) == ["Cleo"], tries=1000)
            assert not table.query(HandStrip).first().display
            assert {k for k, b in table.active_bindings.items() if b.binding.show} <= {
                "r",
                "m",
                "q",
                "question_mark",
                "ctrl+t",
            }
            assert await wait_for(pilot, lambda: bool(clock_lines(app)), tries=1000)
            assert clock_lines(app)[0].startswith("The clock ran out for Cleo: a bot ")
            assert not [n for n in app.notices if "Your move" in n]
            await pilot.press("m")
            assert await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and ann.table is None)
            assert not any(isinstance(screen, ConfirmScreen) for screen in app.screen_stack)
    finally:
        cleo.close()
        ann.close()


async def test_the_new_table_dialog_opens_on_create_and_counts_seats_from_one(server: ServerThread) -> None:
    ann = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    app = LanApp(ann)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("n")
            assert await wait_for(pilot, lambda: isinstance(app.screen, CreateTableScreen))
            dialog = app.screen
            assert await wait_for(pilot, lambda: bool(dialog.query("#seat-1")))
            assert dialog.focused is dialog.query_one("#create", Button)
            labels = [str(label.render()) for label in dialog.query("#seat-kinds Label").results(Label)]
            assert labels[:2] == ["Seat 1", "Seat 2"] and "Seat 0" not in labels
            await pilot.press("enter")  # one key: the table as the form stands
            assert await wait_for(pilot, lambda: ann.table is not None)
    finally:
        ann.close()


async def test_the_lobby_footer_shows_only_what_can_be_done_and_fits_80_columns(server: ServerThread) -> None:
    ann = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    app = LanApp(ann)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = app.lobby

            def shown() -> list[str]:
                return [b.binding.key for b in lobby.active_bindings.values() if b.binding.show]

            assert await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
            assert {"n", "w", "slash", "q"} <= set(shown()) and not {"r", "f", "g", "s", "l"} & set(shown())
            assert "ctrl+t" not in shown(), "chat is / in the lobby: said once"
            await pilot.press("n")
            assert await wait_for(pilot, lambda: isinstance(app.screen, CreateTableScreen))
            await pilot.press("enter")
            assert await wait_for(pilot, lambda: ann.table is not None and app.screen is lobby)
            await pilot.pause()
            assert {"r", "f", "g", "s", "l"} <= set(shown()) and not {"n", "w"} & set(shown())
            footer = lobby.query_one(Footer)

            def parts() -> list[Any]:
                return [child for child in footer.children if child.display]

            # (the footer redraws its keys a moment after the bindings change: wait for it, bounded)
            assert await wait_for(pilot, lambda: len(parts()) >= len(shown()))
            *keys, palette = parts()  # (the palette's key, docked right, last)
            assert all(key.region.width > 0 for key in keys)
            assert max(key.region.right for key in keys) <= palette.region.x, [key.region for key in keys]
    finally:
        ann.close()
