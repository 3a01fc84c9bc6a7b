"""Hostile clients cost the host little (issue 25): silent sockets are capped apart and never lock players out,
wrong passwords are limited per address, a client that does not read is dropped once its queued bytes pass the
bound, tables per player and per address are capped, and the host keeps to its document (``reply_to`` on a refused
field, a full 64 KiB line ended by ``\\r\\n``). Real sockets on 127.0.0.1; every wait bounded."""

from __future__ import annotations

import asyncio
import json

from lan_helpers import WAIT, client, closed, running, until

from engine.lan import protocol as p
from engine.lan.client import LanClient


async def silent(port: int, count: int) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    return [await asyncio.open_connection("127.0.0.1", port) for _ in range(count)]


async def test_silent_sockets_never_lock_players_out() -> None:
    async with running(max_unwelcomed=8, max_connections=4) as server:
        sockets = await silent(server.port, 30)
        await until(lambda: len(server.unwelcomed) <= 8)
        ann = await client(server, "Ann")  # a player gets in all the same: the oldest silent one made room
        assert ann.token
        await until(lambda: len(server.unwelcomed) <= 8)
        for _, writer in sockets:
            writer.close()
        await ann.close()


async def test_too_many_silent_sockets_from_one_address_are_refused() -> None:
    async with running(max_unwelcomed_per_address=3) as server:
        sockets = await silent(server.port, 3)
        await until(lambda: len(server.unwelcomed) == 3)
        c = await LanClient.connect("127.0.0.1", server.port)
        assert (await c.recv(WAIT))["code"] == p.HOST_FULL
        await c.close()
        for _, writer in sockets:
            writer.close()
        await until(lambda: not server.unwelcomed)
        ann = await client(server, "Ann")  # room again
        await ann.close()


async def test_wrong_passwords_are_limited_per_address() -> None:
    async with running(password="right", password_tries=3) as server:
        for _ in range(3):
            c = await LanClient.connect("127.0.0.1", server.port)
            await c.send({"type": "hello", "protocol": 1, "name": "Eve", "password": "guess"})
            assert (await c.recv(WAIT))["code"] == p.BAD_PASSWORD
            await c.close()
        c = await LanClient.connect("127.0.0.1", server.port)
        await c.send({"type": "hello", "protocol": 1, "name": "Eve", "password": "right"})
        error = await c.recv(WAIT)
        assert error["code"] == p.SLOW_DOWN and "try again in" in error["message"]
        assert await closed(c) == []
        await c.close()


async def test_no_password_is_not_a_wrong_one() -> None:
    async with running(password="right") as server:
        c = await LanClient.connect("127.0.0.1", server.port)
        await c.send({"type": "hello", "protocol": 1, "name": "Eve"})
        error = await c.recv(WAIT)
        assert error["code"] == p.BAD_PASSWORD and error["message"] == "this host needs a password"
        await c.close()


async def test_a_client_that_asks_and_never_reads_is_dropped_at_the_byte_bound() -> None:
    bound = 256 * 1024
    async with running(queue_bytes=bound) as server:
        makers = [await client(server, f"Maker{n}") for n in range(12)]
        for maker in makers:
            await maker.send({"type": "create", "game": "rank", "players": 10})
            await maker.expect("table", WAIT)
        greedy = await LanClient.connect("127.0.0.1", server.port, answer_pings=False)
        await greedy.hello("Greedy")
        conn = next(c for c in server.connections if c.player is not None and c.player.name == "Greedy")
        greedy.pause_reading()
        lines = b"".join(p.line({"type": "list"}) for _ in range(2000))
        most = 0
        for start in range(0, len(lines), 32 * 1024):
            if conn not in server.connections:
                break
            await greedy.send_raw(lines[start : start + 32 * 1024])
            most = max(most, conn.queued)
            await asyncio.sleep(0)  # (a turn of the loop for the server to read: no wait for anything)
        await until(lambda: conn not in server.connections, WAIT)
        assert most <= bound
        # Everybody else is served as before.
        await makers[0].send({"type": "ping"})
        assert (await makers[0].expect("pong", WAIT))["type"] == "pong"
        for maker in makers:
            await maker.close()
        await greedy.close()


async def test_tables_per_player_and_minute_are_capped() -> None:
    async with running(tables_per_minute=3) as server:
        ann = await client(server, "Ann")
        for _ in range(3):
            await ann.send({"type": "create", "game": "screw", "players": 3})
            await ann.expect("table", WAIT)
            await ann.send({"type": "leave"})
            await ann.expect("left", WAIT)
        await ann.send({"type": "create", "game": "screw", "players": 3})
        error = await ann.recv(WAIT)
        assert error["code"] == p.TOO_MANY_TABLES and error["reply_to"] == "create"
        assert not server.tables
        await ann.close()


async def test_tables_per_address_are_capped() -> None:
    async with running(tables_per_address=2) as server:
        people = [await client(server, name) for name in ("Ann", "Bob", "Cy")]
        for person in people[:2]:
            await person.send({"type": "create", "game": "screw", "players": 3})
            await person.expect("table", WAIT)
        await people[2].send({"type": "create", "game": "screw", "players": 3})
        assert (await people[2].recv(WAIT))["code"] == p.TOO_MANY_TABLES
        assert len(server.tables) == 2
        for person in people:
            await person.close()


async def test_a_refused_field_names_the_message_it_answers() -> None:
    async with running() as server:
        ann = await client(server, "Ann")
        for line in (
            {"type": "chat", "text": 5},
            {"type": "create", "game": "screw"},
            {"type": "sit", "table": "BCDF"},
            {"type": "act", "action": 7},
            {"type": "fill", "level": ""},
        ):
            await ann.send(line)
            error = await ann.recv(WAIT)
            assert error["code"] == p.BAD_FIELD and error["reply_to"] == line["type"], error
        await ann.close()


async def test_a_full_line_may_end_in_crlf_and_a_longer_one_ends_the_connection() -> None:
    async with running() as server:
        ann = await client(server, "Ann")
        head = b'{"type":"ping","pad":"'
        full = head + b"x" * (p.MAX_LINE - len(head) - 2) + b'"}'
        assert len(full) == p.MAX_LINE
        await ann.send_raw(full + b"\r\n")
        assert (await ann.recv(WAIT))["type"] == "pong"
        await ann.send_raw(full[:-2] + b'x"}' + b"\r\n")
        error = await ann.recv(WAIT)
        assert error["code"] == p.LINE_TOO_LONG
        assert await closed(ann) == []
        await ann.close()


async def test_huge_numbers_are_not_json() -> None:
    async with running() as server:
        ann = await client(server, "Ann")
        for digits in (400, 4300):
            await ann.send_raw(b'{"type":"sit","table":"BCDF","seat":' + b"9" * digits + b"}\n")
            error = await ann.recv(WAIT)
            assert error["code"] == p.BAD_JSON, error
        await ann.close()


async def test_a_spectator_watching_already_gets_its_answer() -> None:
    async with running() as server:
        ann, bob = await client(server, "Ann"), await client(server, "Bob")
        await ann.send({"type": "create", "game": "screw", "players": 3})
        code = (await ann.expect("table", WAIT))["table"]["code"]
        for _ in range(2):
            await bob.send({"type": "spectate", "table": code})
            assert (await bob.expect("table", WAIT))["table"]["code"] == code
        await ann.close()
        await bob.close()


def test_codes_and_seeds_are_secret_without_a_seed() -> None:
    from engine.lan.server import LanServer

    assert type(LanServer().rng).__name__ == "SystemRandom"
    assert json.dumps(LanServer(seed=3).rng.random())  # a seed given: repeatable, for tests


async def test_a_flood_is_held_back_not_refused() -> None:
    async with running(lines_per_second=2000, line_burst=100) as server:
        ann = await client(server, "Ann")
        await ann.send_raw(p.line({"type": "ping"}) * 3000)
        for _ in range(3000):
            assert (await ann.recv(WAIT))["type"] == "pong"
        conn = next(c for c in server.connections if c.player is not None)
        assert conn.allowance < 100, "the burst was spent: the rest was read at the host's pace"
        await ann.close()
