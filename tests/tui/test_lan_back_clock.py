"""A player back in its seat as it connects (``parlour join`` again after a crash, its token kept on disk) is shown
the turn clock that runs for its move (issue 25, points 1 and 4): the host's ``clock`` came while the session was
connecting, before any screen watched it. A Pilot-driven LanApp at a real host on 127.0.0.1; the player's first
connection is a plain socket that is closed without a goodbye."""

from __future__ import annotations

import json
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import wait_for

from engine.lan.remote_session import NetworkSession
from tui.apps.lan import LanApp
from tui.screens.table import TableScreen

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lan"))
from lan_helpers import WAIT, ServerThread

CLOCK = 120.0
"""Long enough never to run out during the test, however busy the machine."""


@pytest.fixture
def server() -> Iterator[ServerThread]:
    running = ServerThread()
    try:
        yield running
    finally:
        running.stop()


def lines_until(file: Any, done: Any) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    while True:
        line = file.readline()
        assert line, seen
        seen.append(json.loads(line))
        if done(seen[-1]):
            return seen


def away_at_my_turn(port: int) -> tuple[str, str]:
    """Bob, at a clocked Big Two table of easy bots, is asked for his move; his connection dies. His token and the
    table's code."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    file = sock.makefile("rb")
    try:
        send = sock.sendall
        send(json.dumps({"type": "hello", "protocol": 1, "max_protocol": 2, "name": "Bob"}).encode() + b"\n")
        token = lines_until(file, lambda m: m["type"] == "welcome")[-1]["token"]
        create = {"type": "create", "game": "big2", "players": 4, "bots": [None, "easy", "easy", "easy"]}
        send(json.dumps({**create, "clock": CLOCK}).encode() + b"\n")
        code = lines_until(file, lambda m: m["type"] == "table")[-1]["table"]["code"]
        send(b'{"type": "start"}\n')
        lines_until(file, lambda m: m["type"] == "snapshot" and bool(m["snapshot"]["legal"]))
    finally:
        file.close()
        sock.close()
    return token, code


def shown_text(app: LanApp) -> str:
    return app.export_screenshot().replace("&#160;", " ").replace("\xa0", " ")


async def test_a_player_back_as_it_connects_sees_its_clock(server: ServerThread) -> None:
    token, code = away_at_my_turn(server.port)
    table = server.server.tables[code]
    conn = NetworkSession.connect("127.0.0.1", server.port, "Bob", token=token)
    try:
        assert conn.welcome["resumed"] is True
        conn.wait_started(WAIT)
        assert table.turn is not None and table.turn[0] == 0, "the clock runs for Bob's move"
        app = LanApp(conn)
        async with app.run_test(size=(100, 30)) as pilot:
            assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), tries=1000)
            screen = app.screen
            assert isinstance(screen, TableScreen)

            def counting() -> bool:
                shown = screen.clock_shown()
                return shown is not None and shown[0] == 0 and f"{shown[1]} s" in shown_text(app)

            assert await wait_for(pilot, counting, tries=1000), "Bob's seconds left are on his screen"
            shown = screen.clock_shown()
            assert shown is not None and 0 < shown[1] <= CLOCK
            assert any("then a bot plays it for you" in notice for notice in app.notices), app.notices
    finally:
        conn.close()


def test_a_watcher_that_comes_late_is_told_the_clock_with_the_time_it_has_left(server: ServerThread) -> None:
    """The session keeps the table's last ``clock`` and tells a later watcher it, its seconds less the time since it
    came (after the ``started``)."""
    token, code = away_at_my_turn(server.port)
    conn = NetworkSession.connect("127.0.0.1", server.port, "Bob", token=token)
    try:
        conn.wait_started(WAIT)
        conn.sync()
        heard: list[dict[str, Any]] = []
        stop = conn.watch(heard.append)
        stop()
        kinds = [m["type"] for m in heard]
        assert kinds == ["started", "clock"], kinds
        clock = heard[1]
        assert clock["table"] == code and clock["seat"] == 0 and not clock.get("ran_out")
        assert 0 < clock["seconds"] <= CLOCK
    finally:
        conn.close()
