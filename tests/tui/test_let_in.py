"""The table's creator is asked, in one key, whether to let back into a seat someone who gives the name of a player
away from it without its token (issue 25): ``y`` lets them in, ``n`` (or Esc) refuses. A Pilot-driven LanApp at a
real host on 127.0.0.1; the player asking is a plain socket."""

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
from tui.dialogs.confirm import ConfirmScreen
from tui.screens.table import TableScreen

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lan"))
from lan_helpers import WAIT, ServerThread


@pytest.fixture
def server() -> Iterator[ServerThread]:
    running = ServerThread()
    try:
        yield running
    finally:
        running.stop()


class Raw:
    """A client on a plain socket: lines out, lines in (bounded)."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
        self.file = self.sock.makefile("rb")

    def send(self, data: dict[str, Any]) -> None:
        self.sock.sendall(json.dumps(data).encode() + b"\n")

    def read_until(self, kind: str) -> list[dict[str, Any]]:
        seen: list[dict[str, Any]] = []
        while True:
            line = self.file.readline()
            if not line:
                return seen
            seen.append(json.loads(line))
            if seen[-1]["type"] in (kind, "error"):
                return seen

    def close(self) -> None:
        self.file.close()
        self.sock.close()


@pytest.mark.parametrize(("key", "let_in"), [("y", True), ("n", False)])
async def test_the_creator_is_asked_in_one_key(server: ServerThread, key: str, let_in: bool) -> None:
    ann = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    bob = Raw(server.port)
    bob.send({"type": "hello", "protocol": 1, "max_protocol": 2, "name": "Bob"})
    bob.read_until("welcome")
    code = ann.create("big2", 4, bots=[None, None, "easy", "easy"])
    bob.send({"type": "sit", "table": code, "seat": 1})
    bob.send({"type": "ready"})
    app = LanApp(ann)
    asker: Raw | None = None
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            assert await wait_for(pilot, lambda: ann.table is not None and ann.table["seats"][1]["status"] == "ready")
            ann.start()
            assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), tries=1000)
            bob.close()  # Bob's client dies, without a goodbye
            assert await wait_for(
                pilot, lambda: ann.table is not None and ann.table["seats"][1]["status"] == "away", tries=1000
            )
            asker = Raw(server.port)
            asker.send({"type": "hello", "protocol": 1, "max_protocol": 2, "name": "bob", "ask": True})
            assert asker.read_until("waiting")[-1]["asked"] == "Ann"
            assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), tries=1000)
            dialog = app.screen
            assert isinstance(dialog, ConfirmScreen) and "bob asks to be let back into seat 2" in dialog.question
            await pilot.press(key)
            answer = asker.read_until("welcome")[-1]
            if let_in:
                assert answer["type"] == "welcome" and answer["resumed"] is True and answer["table"] == code
            else:
                assert answer["type"] == "error" and answer["code"] == "refused"
            assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
    finally:
        if asker is not None:
            asker.close()
        ann.close()


async def test_a_question_nobody_answered_in_time_goes_by_itself() -> None:
    """The host gives up on a request after its ``timeout``: the question goes from the creator's screen then, and
    no late answer is sent (it would only be refused, with an error notice)."""
    server = ServerThread(ask_timeout=0.5)
    ann = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    bob = Raw(server.port)
    asker: Raw | None = None
    try:
        bob.send({"type": "hello", "protocol": 1, "max_protocol": 2, "name": "Bob"})
        bob.read_until("welcome")
        code = ann.create("big2", 4, bots=[None, None, "easy", "easy"])
        bob.send({"type": "sit", "table": code, "seat": 1})
        bob.send({"type": "ready"})
        app = LanApp(ann)
        async with app.run_test(size=(100, 30)) as pilot:
            assert await wait_for(pilot, lambda: ann.table is not None and ann.table["seats"][1]["status"] == "ready")
            ann.start()
            assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), tries=1000)
            bob.close()
            assert await wait_for(
                pilot, lambda: ann.table is not None and ann.table["seats"][1]["status"] == "away", tries=1000
            )
            asker = Raw(server.port)
            asker.send({"type": "hello", "protocol": 1, "max_protocol": 2, "name": "bob", "ask": True})
            assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), tries=1000)
            assert asker.read_until("welcome")[-1]["code"] == "refused", "the host gave up on the request"
            assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), tries=1000), "the question went"
            await pilot.pause(0.1)
            assert not [n for n in app.notices if n.startswith("Not answered")], app.notices
    finally:
        if asker is not None:
            asker.close()
        ann.close()
        server.stop()


async def test_a_player_back_in_its_seat_as_it_connects_sees_its_table_at_once(server: ServerThread) -> None:
    """``parlour join`` after a crash comes back with the kept token before the app starts: the app opens the
    table it is back at, not the lobby (the session tells it the table's ``started`` it already had)."""
    ann = Raw(server.port)
    ann.send({"type": "hello", "protocol": 1, "max_protocol": 2, "name": "Ann"})
    token = ann.read_until("welcome")[-1]["token"]
    ann.send({"type": "create", "game": "screw", "players": 3, "bots": [None, "easy", "easy"]})
    ann.send({"type": "start"})
    ann.read_until("snapshot")
    ann.close()
    conn = NetworkSession.connect("127.0.0.1", server.port, "Ann", token=token)
    assert conn.welcome["resumed"] is True
    conn.wait_started(WAIT)
    app = LanApp(conn)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), tries=1000)
            assert conn.seat == 0
    finally:
        conn.close()
