"""The LAN server on real sockets bound to 127.0.0.1: the handshake and each rejection, the lobby, whole matches of
every game with network players and the host's bots, refusals that change nothing, hostile lines, oversized lines,
20 errors in a row, heartbeats, resume, bot takeover, a client that never reads, and shutdown with clients
connected. Every wait is bounded (lan_helpers.WAIT)."""

from __future__ import annotations

import asyncio
import random
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from lan_helpers import WAIT, client, closed, play_to_the_end, running, start_table, until, watch_to_the_end
from test_protocol import hostile_lines

from engine import codec
from engine.errors import ParlourError
from engine.lan import protocol as p
from engine.lan.client import LanClient
from engine.lan.server import LanServer
from engine.play.table_host import TableHost
from engine.registry import ENTRIES

KEYS = [entry.key for entry in ENTRIES]


async def refused_hello(server: LanServer, raw: bytes) -> dict[str, Any]:
    """Send ``raw`` as the first line: the host's error, after which it closes the connection."""
    c = await LanClient.connect("127.0.0.1", server.port)
    try:
        await c.send_raw(raw)
        error = await c.recv(WAIT)
        assert error["type"] == "error", error
        assert await closed(c) == []
        return error
    finally:
        await c.close()


# ---------------------------------------------------------------------------------------------------------------
# The handshake
# ---------------------------------------------------------------------------------------------------------------
async def test_welcome() -> None:
    async with running(name="Den") as server:
        c = await LanClient.connect("127.0.0.1", server.port)
        welcome = await c.hello("Ann")
        assert welcome["protocol"] == 1 and welcome["name"] == "Ann" and welcome["host"] == "Den"
        assert welcome["resumed"] is False and welcome["table"] is None
        assert isinstance(welcome["token"], str) and len(welcome["token"]) >= 16
        await c.send({"type": "ping"})
        assert (await c.recv(WAIT))["type"] == "pong"
        await c.send({"type": "list"})
        assert await c.recv(WAIT) == {"type": "tables", "tables": []}
        await c.send({"type": "bye"})
        assert [m["type"] for m in await closed(c)] == ["bye"]
        await c.close()
        await until(lambda: not server.connections and not server.players)


@pytest.mark.parametrize(
    ("hello", "code"),
    [
        ({"protocol": 3, "name": "Ann"}, p.PROTOCOL_VERSION),
        ({"protocol": 0, "max_protocol": 0, "name": "Ann"}, p.PROTOCOL_VERSION),
        ({"protocol": 0, "name": "Ann"}, p.PROTOCOL_VERSION),
        ({"protocol": 1, "name": "Ann"}, p.BAD_PASSWORD),
        ({"protocol": 1, "name": "Ann", "password": "wrong"}, p.BAD_PASSWORD),
        ({"protocol": 1, "name": "Bob", "password": "pw"}, p.NAME_TAKEN),
        ({"protocol": 1, "name": "BOB ", "password": "pw"}, p.NAME_TAKEN),
        ({"protocol": 1, "name": "   ", "password": "pw"}, p.BAD_NAME),
        ({"protocol": 1, "name": "x" * 25, "password": "pw"}, p.BAD_NAME),
        ({"protocol": 1, "name": "a\u0007b", "password": "pw"}, p.BAD_NAME),
        ({"protocol": 1, "name": "Ann", "password": "pw", "token": "nope"}, p.BAD_TOKEN),
        ({"name": "Ann", "password": "pw"}, p.BAD_FIELD),
    ],
)
async def test_each_refused_hello_gets_its_error_and_the_connection_ends(hello: dict[str, Any], code: str) -> None:
    async with running(password="pw") as server:
        bob = await client(server, "Bob", password="pw")
        error = await refused_hello(server, p.line({"type": "hello", **hello}))
        assert error["code"] == code and error["message"]
        # Nobody else noticed.
        await bob.send({"type": "ping"})
        assert (await bob.recv(WAIT))["type"] == "pong"
        await bob.close()


@pytest.mark.parametrize(
    ("raw", "code"),
    [(b'{"type": "list"}\n', p.HELLO_FIRST), (b"garbage\n", p.BAD_JSON), (b"[]\n", p.NOT_OBJECT)],
)
async def test_the_first_line_must_be_a_hello(raw: bytes, code: str) -> None:
    async with running() as server:
        assert (await refused_hello(server, raw))["code"] == code


async def test_no_hello_in_time() -> None:
    async with running(hello_timeout=0.2) as server:
        c = await LanClient.connect("127.0.0.1", server.port)
        error = await c.recv(WAIT)
        assert error["code"] == p.TIMEOUT
        assert await closed(c) == []
        await c.close()


async def test_a_second_hello_is_refused() -> None:
    async with running() as server:
        c = await client(server, "Ann")
        await c.send({"type": "hello", "protocol": 1, "name": "Ann"})
        assert (await c.recv(WAIT))["code"] == p.HELLO_FIRST
        await c.close()


# ---------------------------------------------------------------------------------------------------------------
# The lobby
# ---------------------------------------------------------------------------------------------------------------
async def table_where(c: LanClient, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Read ``table`` news until one satisfies ``check`` (bounded)."""
    for _ in range(100):
        table: dict[str, Any] = (await c.expect("table", WAIT))["table"]
        if check(table):
            return table
    raise AssertionError("the table never got there")


async def test_lobby_flow_and_its_refusals() -> None:
    async with running() as server:
        ann, bob, cat = [await client(server, name) for name in ("Ann", "Bob", "[b]x[/b]")]

        async def refused(c: LanClient, data: dict[str, Any], code: str) -> None:
            await c.send(data)
            reply = await c.recv(WAIT)
            while reply["type"] != "error":  # news of the table, or of its game
                reply = await c.recv(WAIT)
            assert reply["type"] == "error" and reply["code"] == code, reply
            assert reply["reply_to"] == data["type"]

        await refused(ann, {"type": "create", "game": "poker", "players": 4}, "unknown_game")
        await refused(ann, {"type": "create", "game": "big2", "players": 9}, "bad_option")
        await refused(ann, {"type": "create", "game": "big2", "players": 4, "variants": ["nope"]}, "bad_option")
        await refused(ann, {"type": "create", "game": "big2", "players": 4, "bots": [None, "godlike"]}, "bad_option")
        await refused(ann, {"type": "create", "game": "big2", "players": 4, "bots": ["easy"]}, p.SEAT_TAKEN)
        await refused(ann, {"type": "chat", "text": "hi"}, p.NOT_AT_TABLE)
        await refused(ann, {"type": "act", "action": "pass"}, p.NOT_AT_TABLE)
        await refused(ann, {"type": "sit", "table": "ZZZZ", "seat": 0}, p.UNKNOWN_TABLE)
        assert server.tables == {}

        await ann.send({"type": "create", "game": "big2", "players": 4, "bots": [None, None, None, "easy"]})
        table = (await ann.expect("table"))["table"]
        code = table["code"]
        assert len(code) == 4 and code.isalpha() and code.isupper()
        assert [s["status"] for s in table["seats"]] == ["waiting", "open", "open", "bot"]
        assert table["creator"] == "Ann" and table["state"] == "open"
        await refused(ann, {"type": "create", "game": "big2", "players": 4}, p.ALREADY_AT_TABLE)
        await refused(ann, {"type": "act", "action": "pass"}, p.NOT_STARTED)
        await refused(bob, {"type": "sit", "table": code, "seat": 0}, p.SEAT_TAKEN)
        await refused(bob, {"type": "sit", "table": code, "seat": 3}, p.SEAT_TAKEN)
        await refused(bob, {"type": "sit", "table": code, "seat": 7}, "bad_seat")
        await bob.send({"type": "sit", "table": code.lower(), "seat": 1})  # codes are read in any case
        assert (await bob.expect("table"))["table"]["seats"][1] == {
            "seat": 1,
            "name": "Bob",
            "bot": None,
            "status": "waiting",
        }
        await refused(bob, {"type": "start"}, p.NOT_CREATOR)
        await refused(bob, {"type": "fill", "level": "easy"}, p.NOT_CREATOR)
        await refused(ann, {"type": "start"}, p.CANNOT_START)  # seat 2 is free
        await cat.send({"type": "spectate", "table": code})
        assert (await cat.expect("table"))["table"]["spectators"] == 1
        await cat.send({"type": "chat", "text": "[@click=app.quit]q[/]"})
        for c in (ann, bob, cat):
            chat = await c.expect("chat")
            assert chat == {"type": "chat", "table": code, "name": "[b]x[/b]", "text": "[@click=app.quit]q[/]"}
        await refused(ann, {"type": "fill", "level": "godlike"}, "bad_option")
        await ann.send({"type": "fill", "level": "medium"})
        table = (await ann.expect("table"))["table"]
        assert [s["status"] for s in table["seats"]] == ["waiting", "waiting", "bot", "bot"]
        await refused(ann, {"type": "start"}, p.CANNOT_START)  # Bob is not ready
        await bob.send({"type": "stand"})
        await table_where(bob, lambda t: t["seats"][1]["status"] == "open" and t["spectators"] == 2)
        await bob.send({"type": "sit", "table": code, "seat": 1})
        await bob.send({"type": "ready"})
        await until(lambda: server.tables[code].seats[1].ready)
        await ann.send({"type": "start"})
        await ann.expect("started")
        await refused(cat, {"type": "sit", "table": code, "seat": 2}, p.ALREADY_STARTED)
        await refused(ann, {"type": "start"}, p.ALREADY_STARTED)
        await refused(cat, {"type": "act", "action": "pass"}, "not_your_turn")
        await bob.send({"type": "list"})
        listed = (await bob.expect("tables"))["tables"]
        assert [t["code"] for t in listed] == [code] and listed[0]["state"] == "playing"
        for c in (ann, bob, cat):
            await c.close()


# ---------------------------------------------------------------------------------------------------------------
# Whole matches
# ---------------------------------------------------------------------------------------------------------------
def events_of(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m["event"] for m in messages if m["type"] == "event"]


@pytest.mark.parametrize("key", KEYS)
async def test_a_whole_match_of_every_game(key: str) -> None:
    """Two network players and a spectator at a table with the host's bots: the match ends, and each received
    exactly its seat's events, in the order of the table's history."""
    async with running(seed=KEYS.index(key)) as server:
        people = [await client(server, name) for name in ("Ann", "Bob")]
        watcher = await client(server, "Cy")
        code = await start_table(server, people, key, spectators=[watcher])
        played, watched = await asyncio.gather(play_to_the_end(people, seed=5), watch_to_the_end(watcher))
        host = server.tables[code].host
        assert host is not None and host.table.state.is_over and not host.errors
        assert any(level is not None for level in host.info(None).bots)
        history = host.table.state.history
        for seat, seen in [(0, played[0]), (1, played[1]), (None, watched)]:
            truth = [codec.encode(e) for event in history if (e := event.for_seat(seat)) is not None]
            assert events_of(seen) == truth, f"seat {seat} did not get its events"
            versions = [m["version"] for m in seen if m["type"] == "event"]
            assert versions == sorted(versions), "event versions went back"
            started = next(m for m in seen if m["type"] == "started")
            assert started["table"] == code and started["info"]["seat"] == seat
            assert started["info"]["key"] == key
        # A person got a snapshot each time it had to act, with legal actions and their texts.
        prompts = [m for m in played[0] if m["type"] == "snapshot" and m["snapshot"]["legal"]]
        assert prompts and all(len(m["texts"]) == len(m["snapshot"]["legal"]) for m in prompts)
        assert all(m["snapshot"]["seat"] == 0 for m in played[0] if m["type"] == "snapshot")
        for c in [*people, watcher]:
            await c.close()


async def test_refused_actions_change_nothing() -> None:
    async with running() as server:
        ann, bob = await client(server, "Ann"), await client(server, "Bob")
        code = await start_table(server, [ann, bob], "big2")
        host = server.tables[code].host
        assert host is not None
        # Wait until a person is to move, then for that person's prompt.
        await until(lambda: host.table.state.to_move in (0, 1) and not host.thinking)
        mover, other = (ann, bob) if host.table.state.to_move == 0 else (bob, ann)
        prompt = await mover.expect("snapshot", WAIT)
        while not prompt["snapshot"]["legal"]:
            prompt = await mover.expect("snapshot", WAIT)
        snap = prompt["snapshot"]
        before = codec.dumps(host.snapshot(None)), host.table.state.version

        async def refused(c: LanClient, action: Any, code_: str) -> None:
            await c.send({"type": "act", "action": action})
            reply = await c.expect("error", WAIT)
            assert reply["code"] == code_, reply
            assert (codec.dumps(host.snapshot(None)), host.table.state.version) == before

        await refused(mover, "garbage!", "invalid")
        await refused(mover, "3X", "invalid")
        await refused(mover, {"game": "big2", "type": "Nope"}, "bad_data")
        await refused(mover, {"game": "big2", "type": "Play", "cards": ["ZZ"]}, "bad_data")
        await refused(mover, {"game": "chase", "type": "Stay"}, "bad_data")
        await refused(other, snap["legal"][0], "not_your_turn")
        await refused(other, prompt["texts"][0], "not_your_turn")
        hand = set(snap["view"]["hand"])
        foreign = next(c for c in ("3C", "4C", "5C", "6C", "7C", "8C", "9C", "JC", "QC", "KC") if c not in hand)
        await refused(mover, {"game": "big2", "type": "Play", "cards": [foreign]}, "illegal")
        await refused(mover, foreign, "illegal")
        await mover.send({"type": "act", "action": snap["legal"][0], "version": snap["version"] + 5})
        assert (await mover.expect("error"))["code"] == "not_your_turn"
        # The right answer still works.
        await mover.send({"type": "act", "action": snap["legal"][0], "version": snap["version"]})
        await until(lambda: host.table.state.version > snap["version"])
        await ann.close()
        await bob.close()


# ---------------------------------------------------------------------------------------------------------------
# Hostile input
# ---------------------------------------------------------------------------------------------------------------
async def test_ten_thousand_hostile_lines_then_the_host_still_serves_a_game() -> None:
    lines = []
    for raw in hostile_lines(14_000, seed=7):
        try:
            p.parse_line(raw)
        except p.ProtocolError as err:
            if err.code != p.LINE_TOO_LONG:
                lines.append(raw)
    assert len(lines) >= 10_000
    lines = lines[:10_000]
    async with running() as server:
        bystander = await client(server, "Dee")
        fuzzers = [await client(server, f"Fuzz{n}") for n in range(4)]

        async def fuzz(c: LanClient, mine: list[bytes]) -> list[str]:
            codes: list[str] = []
            for start in range(0, len(mine), 10):
                chunk = mine[start : start + 10]
                # 10 refused lines, then a ping: the count of errors in a row starts again.
                await c.send_raw(b"".join(raw + b"\n" for raw in chunk) + b'{"type":"ping"}\n')
                for _ in chunk:
                    reply = await c.recv(WAIT)
                    assert reply["type"] == "error", reply
                    codes.append(reply["code"])
                assert (await c.recv(WAIT))["type"] == "pong"
            return codes

        results = await asyncio.gather(*(fuzz(c, lines[n::4]) for n, c in enumerate(fuzzers)))
        codes = [code for result in results for code in result]
        assert len(codes) == 10_000 and set(codes) <= set(p.CODES)
        assert {p.BAD_JSON, p.NOT_OBJECT, p.UNKNOWN_TYPE, p.BAD_FIELD, p.BAD_ENCODING} <= set(codes)
        # Hostile first lines too: each gets its error and the connection ends.
        for raw in lines[:30]:
            c = await LanClient.connect("127.0.0.1", server.port)
            await c.send_raw(raw + b"\n")
            assert (await c.recv(WAIT))["type"] == "error"
            assert await closed(c) == []
            await c.close()
        assert server.tables == {} and len(server.players) == 5
        # The host still serves a whole match correctly.
        code = await start_table(server, [bystander, fuzzers[0]], "screw")
        await play_to_the_end([bystander, fuzzers[0]], seed=3)
        host = server.tables[code].host
        assert host is not None and host.table.state.is_over and not host.errors
        for c in [bystander, *fuzzers]:
            await c.close()


async def test_an_oversized_line_ends_that_connection_only() -> None:
    async with running() as server:
        big, other = await client(server, "Big"), await client(server, "Other")
        await big.send_raw(b'{"type":"chat","text":"' + b"x" * (p.MAX_LINE + 100) + b'"}\n')
        error = await big.recv(WAIT)
        assert error["code"] == p.LINE_TOO_LONG
        assert await closed(big) == []
        await other.send({"type": "ping"})
        assert (await other.recv(WAIT))["type"] == "pong"
        # A line of exactly the limit is read (and refused for what it says, not its size).
        await other.send_raw(b'{"type":"x","p":"' + b"y" * (p.MAX_LINE - 20) + b'"}\n')
        assert (await other.recv(WAIT))["code"] == p.UNKNOWN_TYPE
        await big.close()
        await other.close()


async def test_twenty_rejected_lines_in_a_row_end_the_connection() -> None:
    async with running() as server:
        c = await client(server, "Ann")
        for _ in range(p.MAX_ERRORS - 1):
            await c.send_raw(b"nope\n")
            assert (await c.recv(WAIT))["code"] == p.BAD_JSON
        await c.send({"type": "ping"})  # one good line: the count starts again
        assert (await c.recv(WAIT))["type"] == "pong"
        for n in range(p.MAX_ERRORS - 1):  # refusals of the lobby and of the engine count alike
            if n % 2:
                await c.send({"type": "sit", "table": "QQQQ", "seat": 0})
                assert (await c.recv(WAIT))["code"] == p.UNKNOWN_TABLE
            else:
                await c.send({"type": "create", "game": "poker", "players": 4})
                assert (await c.recv(WAIT))["code"] == "unknown_game"
        await c.send_raw(b"[]\n")
        last = await c.recv(WAIT)
        assert last["code"] == p.TOO_MANY_ERRORS
        assert await closed(c) == []
        await c.close()


# ---------------------------------------------------------------------------------------------------------------
# Faults
# ---------------------------------------------------------------------------------------------------------------
async def test_heartbeats_drop_a_silent_peer_and_keep_a_live_one() -> None:
    async with running(heartbeat=0.05, peer_timeout=0.4) as server:
        silent = await LanClient.connect("127.0.0.1", server.port, answer_pings=False)
        await silent.hello("Silent")
        alive = await client(server, "Alive")
        seen = await closed(silent)  # (bounded: a peer never dropped fails here)
        assert [m["type"] for m in seen if m["type"] != "ping"] == ["error"]
        assert seen[-1]["code"] == p.TIMEOUT
        assert any(m["type"] == "ping" for m in seen)
        await alive.send({"type": "ping"})
        assert (await alive.recv(WAIT))["type"] == "pong"
        assert len(server.connections) == 1
        await silent.close()
        await alive.close()


async def test_a_dropped_player_comes_back_with_its_token_and_gets_a_full_snapshot() -> None:
    async with running(resume_window=5.0, takeover_after=30.0) as server:
        ann, bob = await client(server, "Ann"), await client(server, "Bob")
        code = await start_table(server, [ann, bob], "big2")
        token = bob.token
        await bob.close()  # dropped (no bye)
        await until(lambda: server.tables[code].summary()["seats"][1]["status"] == "away")
        # The name is still Bob's while he may come back.
        assert (await refused_hello(server, p.line({"type": "hello", "protocol": 1, "name": "bob"})))[
            "code"
        ] == p.NAME_TAKEN
        bob = await LanClient.connect("127.0.0.1", server.port)
        welcome = await bob.hello("anything", token=token)
        assert welcome["resumed"] is True and welcome["name"] == "Bob" and welcome["table"] == code
        assert welcome["token"] == token
        assert (await bob.expect("table"))["table"]["code"] == code
        started = await bob.expect("started")
        assert started["info"]["seat"] == 1
        snap = await bob.expect("snapshot")
        assert snap["snapshot"]["seat"] == 1 and len(snap["snapshot"]["view"]["hand"]) > 0
        await until(lambda: server.tables[code].summary()["seats"][1]["status"] == "connected")
        await play_to_the_end([ann, bob], seed=11)
        host = server.tables[code].host
        assert host is not None and host.table.state.is_over
        await ann.close()
        await bob.close()


async def test_a_token_runs_out() -> None:
    async with running(resume_window=0.2) as server:
        ann = await client(server, "Ann")
        token = ann.token
        await ann.close()
        await until(lambda: not server.players)
        error = await refused_hello(server, p.line({"type": "hello", "protocol": 1, "name": "Ann", "token": token}))
        assert error["code"] == p.BAD_TOKEN
        again = await client(server, "Ann")  # the name is free again
        await again.close()


async def test_a_bot_plays_an_away_seat_until_its_player_returns() -> None:
    async with running(resume_window=30.0, takeover_after=0.2) as server:
        ann, bob = await client(server, "Ann"), await client(server, "Bob")
        code = await start_table(server, [ann, bob], "big2", level="easy")
        token = bob.token
        await bob.close()
        await until(lambda: server.tables[code].summary()["seats"][1]["status"] == "replaced")
        host = server.tables[code].host
        assert host is not None
        version = host.table.state.version
        # Ann plays on; Bob's seat is played by the bot, so the table moves past his turns.
        task = asyncio.create_task(ann.play(random.Random(1), timeout=3 * WAIT))
        await until(lambda: host.table.state.version > version + 12, 3 * WAIT)
        bob = await LanClient.connect("127.0.0.1", server.port)
        await bob.hello("Bob", token=token)
        await until(lambda: server.tables[code].summary()["seats"][1]["status"] == "connected")
        assert host.info(1).bots[1] is None
        await asyncio.gather(task, bob.play(random.Random(2), timeout=3 * WAIT))
        assert host.table.state.is_over and not host.errors
        await ann.close()
        await bob.close()


async def test_a_client_that_never_reads_does_not_stall_the_others() -> None:
    async with running(queue_limit=50, drain_timeout=0.5) as server:
        ann, bob = await client(server, "Ann"), await client(server, "Bob")
        # A client whose socket takes in almost nothing and who never reads what it is sent.
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
        _, writer = await asyncio.open_connection(sock=sock, limit=1024)
        writer.write(p.line({"type": "hello", "protocol": 1, "name": "Deaf"}))
        code = await start_table(server, [ann, bob], "big2")
        writer.write(p.line({"type": "spectate", "table": code}))
        others = [await client(server, f"T{n}") for n in range(8)]
        for c in others:  # more tables: each answer to "list" is a few KiB
            await c.send({"type": "create", "game": "big2", "players": 4})
            await c.expect("table", WAIT)
        # Megabytes of answers it will never read: more than the sockets' buffers hold.
        flood = b"".join(p.line({"type": "list"}) for _ in range(3000))
        writer.write(flood)
        await asyncio.wait_for(play_to_the_end([ann, bob], seed=2), 3 * WAIT)  # the deaf one holds nobody up
        await until(lambda: "deaf" not in {c.player.name.casefold() for c in server.connections if c.player})
        host = server.tables[code].host
        assert host is not None and host.table.state.is_over
        writer.transport.abort()
        for c in [ann, bob, *others]:
            await c.close()


async def test_shutdown_with_clients_connected() -> None:
    server = LanServer(seed=3)
    await server.start("127.0.0.1", 0)
    ann, bob = await client(server, "Ann"), await client(server, "Bob")
    idle = await client(server, "Idle")
    code = await start_table(server, [ann, bob], "big2", level="hard")
    host = server.tables[code].host
    assert host is not None
    await asyncio.wait_for(server.close(), WAIT)  # (a hard bot may be thinking: close does not wait for it)
    for c in (ann, bob, idle):
        seen = await closed(c)
        assert any(m["type"] == "bye" and m["reason"] == p.SHUTTING_DOWN for m in seen)
        await c.close()
    assert not server.connections and host.closed
    with pytest.raises(OSError):
        await asyncio.wait_for(asyncio.open_connection("127.0.0.1", server.port), WAIT)


async def test_a_port_in_use_is_an_oserror() -> None:
    async with running() as server:
        other = LanServer()
        with pytest.raises(OSError):
            await other.start("127.0.0.1", server.port)


def test_table_host_seat_bot_puts_a_bot_in_and_takes_it_out() -> None:
    """TableHost.seat_bot (for the server's bot takeover): a bot plays an away person's seat until taken out; then
    the seat is a person's again (sessions may connect to it, the bots wait for it)."""
    host = TableHost.create("screw", 3, seed=3, bots=[None, "easy", "easy"])
    try:
        seat0 = host.connect(0)
        assert host.wait_idle(WAIT) and host.table.state.to_move == 0
        host.seat_bot(0, "easy")
        assert host.info(0).bots[0] == "easy"
        with pytest.raises(ParlourError):
            host.connect(0)  # a bot's seat now
        with pytest.raises(ParlourError):
            seat0.submit(host.table.state.legal_actions()[0])
        deadline = time.monotonic() + WAIT
        while host.table.state.version < 6 and not host.table.state.is_over and time.monotonic() < deadline:
            host.ready(0)
            time.sleep(0.01)  # (a poll's pause: the condition is what is waited for)
        assert host.table.state.version >= 6 or host.table.state.is_over, "the bot did not play the seat"
        host.seat_bot(0, None)
        assert host.info(0).bots[0] is None
        again = host.connect(0)
        assert again.snapshot().seat == 0
        with pytest.raises(ParlourError):
            host.seat_bot(7, "easy")
    finally:
        host.close()


# ---------------------------------------------------------------------------------------------------------------
# The example bot (examples/bot_client.py, standard library only), run as a program against a live host
# ---------------------------------------------------------------------------------------------------------------
BOT_CLIENT = Path(__file__).resolve().parents[2] / "examples" / "bot_client.py"


async def bot_client(*args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        str(BOT_CLIENT),
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


@pytest.mark.parametrize("key", KEYS)
async def test_the_example_bot_makes_a_table_and_plays_it_to_the_end(key: str) -> None:
    async with running() as server:
        proc = await bot_client("127.0.0.1", str(server.port), "--name", "Robo", "--game", key, "--seed", "1")
        out, err = await asyncio.wait_for(proc.communicate(), 3 * WAIT)
        assert proc.returncode == 0, err
        assert b"the match is over" in out
        assert all(t.host is not None and t.host.table.state.is_over for t in server.tables.values())


async def test_the_example_bot_joins_a_table_by_its_code_and_plays_with_a_person() -> None:
    async with running() as server:
        ann = await client(server, "Ann")
        await ann.send({"type": "create", "game": "big2", "players": 4, "bots": [None, None, "easy", "easy"]})
        code = (await ann.expect("table"))["table"]["code"]
        proc = await bot_client("127.0.0.1", str(server.port), "--name", "Robo", "--table", code.lower())
        await table_where(ann, lambda t: t["seats"][1]["status"] == "ready")
        await ann.send({"type": "start"})
        await play_to_the_end([ann], seed=4)
        out, err = await asyncio.wait_for(proc.communicate(), 3 * WAIT)
        assert proc.returncode == 0 and b"the match is over" in out, err
        host = server.tables[code].host
        assert host is not None and host.table.state.is_over and host.info(1).names[1] == "Robo"
        # Refused: a table that does not exist is one sentence and status 2.
        proc = await bot_client("127.0.0.1", str(server.port), "--name", "Robo2", "--table", "QQQQ")
        _, err = await asyncio.wait_for(proc.communicate(), WAIT)
        assert proc.returncode == 2 and b"no table QQQQ" in err and b"Traceback" not in err
        await ann.close()


async def test_leaving_a_lobby_passes_the_table_on_and_leaving_a_game_leaves_a_bot() -> None:
    async with running() as server:
        ann, bob, cy = await client(server, "Ann"), await client(server, "Bob"), await client(server, "Cy")
        await ann.send({"type": "create", "game": "big2", "players": 4, "bots": [None, None, "easy", "easy"]})
        code = (await ann.expect("table"))["table"]["code"]
        await bob.send({"type": "sit", "table": code, "seat": 1})
        await ann.send({"type": "leave"})
        await ann.expect("left")
        table = await table_where(bob, lambda t: t["creator"] == "Bob")
        assert table["seats"][0]["status"] == "open"
        await bob.send({"type": "leave"})
        await bob.expect("left")
        await until(lambda: code not in server.tables)  # nobody left at it: gone
        # In a game, a person who leaves is replaced by a bot of the table's level for the rest of the match.
        code = await start_table(server, [ann, bob], "big2")
        await cy.send({"type": "spectate", "table": code})
        await cy.expect("started")
        await bob.send({"type": "leave"})
        await bob.expect("left")
        table = await table_where(cy, lambda t: t["seats"][1]["status"] == "bot")
        assert table["state"] == "playing"
        await play_to_the_end([ann], seed=9)
        host = server.tables[code].host
        assert host is not None and host.table.state.is_over and not host.errors
        for c in (ann, bob, cy):
            await c.close()


async def test_the_same_token_again_replaces_the_old_connection() -> None:
    async with running() as server:
        ann, bob = await client(server, "Ann"), await client(server, "Bob")
        code = await start_table(server, [ann, bob], "screw")
        again = await LanClient.connect("127.0.0.1", server.port)
        welcome = await again.hello("Ann", token=ann.token)
        assert welcome["resumed"] is True and welcome["table"] == code
        seen = await closed(ann)
        assert seen[-1]["type"] == "bye" and seen[-1]["reason"] == "replaced"
        await again.expect("started")
        await play_to_the_end([again, bob], seed=6)
        host = server.tables[code].host
        assert host is not None and host.table.state.is_over
        assert len(server.players) == 2
        for c in (ann, bob, again):
            await c.close()


async def test_snapshot_and_hint_on_request() -> None:
    async with running() as server:
        ann, bob = await client(server, "Ann"), await client(server, "Bob")
        await ann.send({"type": "create", "game": "screw", "players": 3, "bots": [None, None, "easy"], "hints": True})
        code = (await ann.expect("table"))["table"]["code"]
        for request in ({"type": "snapshot"}, {"type": "hint"}):
            await ann.send(request)
            assert (await ann.expect("error", WAIT))["code"] == p.NOT_STARTED
        await bob.send({"type": "sit", "table": code, "seat": 1})
        await bob.send({"type": "ready"})
        await table_where(ann, lambda t: t["seats"][1]["status"] == "ready")
        await ann.send({"type": "start"})
        await ann.expect("started", WAIT)
        host = server.tables[code].host
        assert host is not None
        await until(lambda: host.to_move in (0, 1) and not host.thinking)
        mover, other = (ann, bob) if host.to_move == 0 else (bob, ann)
        prompt = await mover.expect("snapshot", WAIT)
        while not prompt["snapshot"]["legal"]:
            prompt = await mover.expect("snapshot", WAIT)
        await mover.send({"type": "snapshot"})
        again = await mover.expect("snapshot", WAIT)
        assert again["snapshot"] == prompt["snapshot"] and again["texts"] == prompt["texts"]
        await mover.send({"type": "hint"})
        hint = await mover.expect("hint", WAIT)
        assert hint["action"] in prompt["snapshot"]["legal"] and hint["text"] in prompt["texts"]
        await other.send({"type": "hint"})
        assert (await other.expect("hint", WAIT))["action"] is None
        await other.send({"type": "snapshot"})
        theirs = (await other.expect("snapshot", WAIT))["snapshot"]
        assert theirs["legal"] == [] and theirs["seat"] != prompt["snapshot"]["seat"]
        await ann.close()
        await bob.close()


async def test_a_full_host_says_so_and_closes() -> None:
    async with running(max_connections=2) as server:
        ann, bob = await client(server, "Ann"), await client(server, "Bob")
        third = await LanClient.connect("127.0.0.1", server.port)
        assert (await third.recv(WAIT))["code"] == p.HOST_FULL
        assert await closed(third) == []
        await third.close()
        await bob.send({"type": "bye"})
        await closed(bob)
        await until(lambda: len(server.connections) == 1)
        fourth = await client(server, "Cy")  # room again
        for c in (ann, bob, fourth):
            await c.close()
