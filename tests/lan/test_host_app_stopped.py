"""The hosting app (``parlour host`` with its lobby, on a real pseudo-terminal of 80x24) stopped by a signal while a
table is in play (issue 25, point 2): SIGTERM stops it as "keep the tables for the next start" would, everybody
told the host is restarting, the terminal given back as at a quit, the farewell printed, and the next host offers
the table again; after SIGKILL nothing can be said, but the next host offers the table all the same."""

from __future__ import annotations

import asyncio
import re
import signal
from pathlib import Path

import pytest
from lan_helpers import WAIT, running
from pty_helpers import OnTerminal
from terminal import plain

from engine.lan.client import LanClient

LEAVE_ALTERNATE_SCREEN = b"\x1b[?1049l"
MOUSE_OFF = b"\x1b[?1000l"


class HostApp(OnTerminal):
    """``parlour host --bind 127.0.0.1 --port 0 --name Hal``."""

    def __init__(self, data: Path) -> None:
        super().__init__(["host", "--bind", "127.0.0.1", "--port", "0", "--name", "Hal"], data)

    async def port(self) -> int:
        shown = await self.wait_for("Lobby at Hal")
        found = re.search(r"parlour join 127\.0\.0\.1:(\d+)", shown)
        assert found is not None, shown[-2000:]
        return int(found.group(1))


async def a_table_in_play(port: int) -> tuple[LanClient, str, str]:
    """Ann, a guest, at a Big Two table of her own with bots, started: her client, its token and the code."""
    ann = await LanClient.connect("127.0.0.1", port)
    await ann.hello("Ann", max_protocol=2)
    await ann.send({"type": "create", "game": "big2", "players": 4, "bots": [None, "easy", "easy", "easy"]})
    code = str((await ann.expect("table", WAIT))["table"]["code"])
    await ann.send({"type": "start"})
    await ann.expect("snapshot", WAIT)
    assert ann.token is not None
    return ann, ann.token, code


async def offered_again(data: Path, code: str, token: str) -> None:
    async with running(keep=data / "host") as again:
        assert code in again.tables, "the next host offers the table again"
        ann = await LanClient.connect("127.0.0.1", again.port)
        welcome = await ann.hello("Ann", token=token, max_protocol=2)
        assert welcome["resumed"] is True and welcome["table"] == code
        await ann.close()


async def test_sigterm_keeps_the_tables_says_restarting_and_gives_the_terminal_back(tmp_path: Path) -> None:
    app = HostApp(tmp_path)
    try:
        port = await app.port()
        ann, token, code = await a_table_in_play(port)
        before = len(app.written())
        app.child.send_signal(signal.SIGTERM)
        bye = await ann.expect("bye", WAIT)
        assert bye["reason"] == "restarting", bye
        await ann.close()
        status = await asyncio.to_thread(app.child.wait, WAIT)
        app.reader.join(WAIT)
        tail = app.written()[before:]
        assert status == 0, plain(tail.decode(errors="replace"))[-2000:]
        assert LEAVE_ALTERNATE_SCREEN in tail and MOUSE_OFF in tail, "the terminal is given back"
        said = plain(tail.decode(errors="replace"))
        assert f"the table {code} is kept: the next parlour host offers it again" in said, said[-2000:]
    finally:
        app.end()
    await offered_again(tmp_path, code, token)


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGHUP], ids=["kill-9", "hang-up"])
async def test_a_host_app_killed_or_hung_up_on_offers_its_table_at_the_next_start(
    tmp_path: Path, stop: signal.Signals
) -> None:
    app = HostApp(tmp_path)
    try:
        port = await app.port()
        ann, token, code = await a_table_in_play(port)
        journal = tmp_path / "host" / f"{code}.jsonl"
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while not journal.is_file() or journal.stat().st_size == 0:  # (the set-up is on disk: written off the loop)
            assert loop.time() < deadline, "no journal"
            await asyncio.sleep(0.02)  # (a poll's pause: the file is what is waited for)
        app.child.send_signal(stop)
        await asyncio.to_thread(app.child.wait, WAIT)
        await ann.close()
    finally:
        app.end()
    await offered_again(tmp_path, code, token)
