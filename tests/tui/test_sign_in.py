"""The join app asks the name (and the host's password) before it connects, as a browser session's does
(``PARLOUR_ASK``): a Pilot-driven LanApp with no session, at a real host on 127.0.0.1. Nothing of the host's is
shown before the host has welcomed the player; a refusal (a wrong password, a name that cannot be one) is said on the
same screen, which lets the player try again."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.widgets import Input
from tui_helpers import wait_for

from engine.lan.remote_session import NetworkSession
from tui.apps.lan import LanApp
from tui.apps.sign_in import SignIn, SignInScreen
from tui.screens.lobby import LobbyScreen

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lan"))
from lan_helpers import ServerThread


@pytest.fixture
def server() -> Iterator[ServerThread]:
    running = ServerThread(password="swordfish")
    try:
        yield running
    finally:
        running.stop()


def screen_text(app: LanApp) -> str:
    return app.export_screenshot().replace("&#160;", " ").replace("\xa0", " ")


def signing_in(server: ServerThread, tried: list[tuple[str, str | None]], password: bool = True) -> SignIn:
    made: list[NetworkSession] = []

    def connect(name: str, given: str | None, waiting: Callable[[str], None]) -> NetworkSession:
        tried.append((name, given))
        conn = NetworkSession.connect("127.0.0.1", server.port, name, password=given, timeout=5.0)
        made.append(conn)
        return conn

    return SignIn(where=f"127.0.0.1:{server.port}", password=password, connect=connect)


async def test_the_name_and_the_password_are_asked_before_the_lobby(server: ServerThread) -> None:
    creator = NetworkSession.connect("127.0.0.1", server.port, "Cleo", password="swordfish")
    code = creator.create("screw", 3, bots=[None, "easy", "easy"])
    tried: list[tuple[str, str | None]] = []
    app = LanApp(None, sign_in=signing_in(server, tried))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            assert await wait_for(pilot, lambda: isinstance(app.screen, SignInScreen))
            assert code not in screen_text(app) and not app.attached
            assert "password" in screen_text(app)
            await pilot.press(*"Zoe", "enter")  # Enter in the name goes on to the password
            assert app.screen.focused is app.screen.query_one("#password", Input)
            await pilot.press(*"wrong", "enter")
            assert await wait_for(pilot, lambda: "wrong password" in screen_text(app).lower(), tries=1000)
            assert isinstance(app.screen, SignInScreen) and not app.attached
            assert code not in screen_text(app)
            password = app.screen.query_one("#password", Input)
            password.value = ""
            await pilot.press(*"swordfish", "enter")
            assert await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), tries=1000)
            assert app.conn.welcome.get("name") == "Zoe"
            assert await wait_for(pilot, lambda: code in screen_text(app))
            assert tried == [("Zoe", "wrong"), ("Zoe", "swordfish")]
    finally:
        if app.attached:
            app.conn.close()
        creator.close()


async def test_a_name_that_cannot_be_one_is_said_and_nothing_is_sent(server: ServerThread) -> None:
    tried: list[tuple[str, str | None]] = []
    app = LanApp(None, sign_in=signing_in(server, tried, password=False))
    async with app.run_test(size=(100, 30)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, SignInScreen))
        await pilot.press("space", "enter")
        assert await wait_for(pilot, lambda: "A name needs at least one character" in screen_text(app))
        assert tried == [] and not app.attached
        assert app.check_action("chat", ()) is False  # no chat before there is a host to chat at
