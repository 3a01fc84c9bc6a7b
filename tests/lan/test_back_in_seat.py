"""Back in your seat after a crash (issue 25): the client keeps its resume token per host in its data directory
(mode 0600), so a ``parlour join`` process killed with SIGKILL in the middle of its turn and started again is back
in its seat at once, the dead connection replaced, a seat a bot took over handed back. The client processes run
``tui.cli._connect`` (what ``parlour join`` connects with) against a host on 127.0.0.1; every wait is bounded."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import stat
import sys
from pathlib import Path

import pytest
from lan_helpers import WAIT, client, running, until
from pty_helpers import OnTerminal

from engine.lan.server import LanServer

ROOT = Path(__file__).resolve().parents[2]

FIRST = """
import sys, time
from tui.cli import _connect
conn = _connect("127.0.0.1", int(sys.argv[1]), "Bob", None)
conn.sit(sys.argv[2], 0)
print("seated", flush=True)
time.sleep(120)  # (a client that stays connected until the test kills it: not a wait for anything)
"""

AGAIN = """
import json, sys
from tui.cli import _connect
conn = _connect("127.0.0.1", int(sys.argv[1]), "Bob", None)
conn.wait_started(10)
snap = conn.snapshot()
print(json.dumps({"resumed": conn.welcome["resumed"], "table": conn.welcome["table"], "seat": conn.seat,
                  "legal": len(snap.legal)}), flush=True)
"""


async def python(code: str, *args: str, data: Path) -> asyncio.subprocess.Process:
    env = {**os.environ, "PARLOUR_DATA_DIR": str(data), "PYTHONPATH": str(ROOT)}
    return await asyncio.create_subprocess_exec(
        sys.executable, "-c", code, *args, cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE
    )


async def seated_mid_turn(
    server: LanServer, data: Path, clock: float | None = None
) -> tuple[str, asyncio.subprocess.Process]:
    """Bob (a client process) in seat 0 of a Big Two table of bots that Ann made and only watches (with a turn
    clock of ``clock`` seconds); started and waiting for Bob's move. The table's code and Bob's process."""
    ann = await client(server, "Ann", max_protocol=2)
    create = {"type": "create", "game": "big2", "players": 4, "bots": [None, "easy", "easy", "easy"], "seat": None}
    await ann.send(create if clock is None else {**create, "clock": clock})
    code = str((await ann.expect("table", WAIT))["table"]["code"])
    bob = await python(FIRST, str(server.port), code, data=data)
    assert bob.stdout is not None
    assert (await asyncio.wait_for(bob.stdout.readline(), WAIT)).strip() == b"seated"
    table = server.tables[code]
    await until(lambda: table.seats[0].ready)
    await ann.send({"type": "start"})
    await until(lambda: table.host is not None and table.host.position[0] == 0)
    return code, bob


async def back_again(server: LanServer, data: Path) -> dict[str, object]:
    again = await python(AGAIN, str(server.port), data=data)
    out, _ = await asyncio.wait_for(again.communicate(), 3 * WAIT)
    assert again.returncode == 0, out
    said: dict[str, object] = json.loads(out.decode().strip().splitlines()[-1])
    return said


async def test_a_client_killed_mid_turn_is_back_in_its_seat_at_once(tmp_path: Path) -> None:
    async with running(seed=4) as server:
        code, bob = await seated_mid_turn(server, tmp_path)
        tokens = list((tmp_path / "tokens").iterdir())
        assert len(tokens) == 1 and stat.S_IMODE(tokens[0].stat().st_mode) == 0o600
        assert stat.S_IMODE(tokens[0].parent.stat().st_mode) == 0o700
        bob.send_signal(signal.SIGKILL)
        await bob.wait()
        table = server.tables[code]
        await until(lambda: table.summary()["seats"][0]["status"] == "away")
        said = await back_again(server, tmp_path)
        assert said == {"resumed": True, "table": code, "seat": 0, "legal": said["legal"]}
        assert isinstance(said["legal"], int) and said["legal"] > 0, "still Bob's turn, and his to play"
        assert server.players["bob"].name == "Bob" and server.tables[code].seats[0].player is server.players["bob"]


async def test_parlour_join_typed_again_shows_the_seat_at_its_turn_with_its_clock(tmp_path: Path) -> None:
    """As the player sees it: the client holding seat 0 is killed with SIGKILL at Bob's turn; ``parlour join`` typed
    again on a terminal of 80x24 (same data directory) opens the table at once, at Bob's turn, his hand and the
    seconds he has left on the screen."""
    async with running(seed=4) as server:
        code, bob = await seated_mid_turn(server, tmp_path, clock=600.0)
        bob.send_signal(signal.SIGKILL)
        await bob.wait()
        table = server.tables[code]
        await until(lambda: table.summary()["seats"][0]["status"] == "away")
        again = OnTerminal(["join", f"127.0.0.1:{server.port}", "--name", "Bob"], tmp_path)
        try:
            await again.wait_for("Your turn")
            await again.wait_for("13 cards")
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 3 * WAIT
            while not re.search(r"\b\d+ s You\b", again.shown()):  # the hand's title: the seconds, then whose
                assert loop.time() < deadline, again.shown()[-2000:]
                await asyncio.sleep(0.05)  # (a poll's pause: the screen is what is waited for)
            assert table.summary()["seats"][0]["status"] == "connected"
            assert table.seats[0].player is server.players["bob"]
        finally:
            again.end()


async def test_a_frozen_client_s_connection_is_replaced_by_the_one_started_again(tmp_path: Path) -> None:
    """The client's machine froze (SIGSTOP): its connection looks alive to the host, which has seen no close. The
    player starts ``parlour join`` again (same data directory) and is back in the seat; the old connection is told
    it was replaced and dropped."""
    async with running(seed=4) as server:
        code, bob = await seated_mid_turn(server, tmp_path)
        old = server.players["bob"].conn
        assert old is not None
        bob.send_signal(signal.SIGSTOP)
        try:
            said = await back_again(server, tmp_path)
            assert said == {"resumed": True, "table": code, "seat": 0, "legal": said["legal"]}
            assert isinstance(said["legal"], int) and said["legal"] > 0, "still Bob's turn, and his to play"
            assert old.closing and old.player is None, "the frozen connection is no longer Bob's"
            assert server.tables[code].seats[0].player is server.players["bob"]
        finally:
            bob.send_signal(signal.SIGKILL)
            await bob.wait()


async def test_a_seat_a_bot_took_over_is_handed_back_at_once(tmp_path: Path) -> None:
    async with running(seed=4, takeover_after=0.2) as server:
        code, bob = await seated_mid_turn(server, tmp_path)
        bob.send_signal(signal.SIGKILL)
        await bob.wait()
        table = server.tables[code]
        await until(lambda: table.summary()["seats"][0]["status"] == "replaced")
        said = await back_again(server, tmp_path)
        assert said["resumed"] is True and said["seat"] == 0
        assert table.host is not None and not table.host.table.seats[0].is_bot, "the seat is Bob's again"


async def test_a_kept_token_the_host_no_longer_knows_is_dropped_and_the_name_joins(tmp_path: Path) -> None:
    async with running(seed=4) as server:
        port = server.port
        _, bob = await seated_mid_turn(server, tmp_path)
        bob.send_signal(signal.SIGKILL)
        await bob.wait()
    old = json.loads(next((tmp_path / "tokens").iterdir()).read_text())["token"]
    again = LanServer(seed=5)  # the same address, started again without its tables: it never gave that token
    await again.start("127.0.0.1", port)
    try:
        joined = await python(
            "import sys\nfrom tui.cli import _connect\n"
            "conn = _connect('127.0.0.1', int(sys.argv[1]), 'Bob', None)\n"
            "print(conn.welcome['resumed'], flush=True)\n",
            str(port),
            data=tmp_path,
        )
        out, _ = await asyncio.wait_for(joined.communicate(), 3 * WAIT)
        assert out.strip().splitlines()[-1] == b"False"
        kept = json.loads(next((tmp_path / "tokens").iterdir()).read_text())
        assert kept["name"] == "Bob" and kept["token"] != old, "the new welcome's token is kept instead"
    finally:
        await asyncio.wait_for(again.close(), WAIT)


def test_each_ssh_guest_key_has_a_data_directory_and_tokens_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.lan.lan_host import guest_command
    from engine.lan.tokens import token_path
    from engine.records.paths import data_dir
    from tui import cli

    command = guest_command(cli.guest_command(), 7777, None)
    _, bea = command("bea", "SHA256:aaaa")
    _, cy = command("cy", "SHA256:bbbb")
    _, dot = command("dot", None)
    assert bea["PARLOUR_GUEST_KEY"] == "SHA256:aaaa" and "PARLOUR_GUEST_KEY" not in dot
    homes = {Path(env["PARLOUR_DATA_DIR"]) for env in (bea, cy, dot)}
    assert len(homes) == 3 and all(home.parent == data_dir() / "guests" for home in homes)
    for env in (bea, cy):
        with monkeypatch.context() as patched:
            for name, value in env.items():
                patched.setenv(name, value)
            path = token_path("127.0.0.1", 7777)
            assert path is not None and path.is_relative_to(env["PARLOUR_DATA_DIR"])
    with monkeypatch.context() as patched:
        for name, value in dot.items():
            patched.setenv(name, value)
        assert token_path("127.0.0.1", 7777) is None, "a password guest has no identity to keep a token for"
