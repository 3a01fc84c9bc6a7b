"""A hostile client written from ``docs/protocol.md`` alone (raw sockets, raw lines, none of Parlour's client code)
holds the host to that page: every message type with wrong fields is one ``error`` naming the message it answers
(the 20th refusal in a row too), names that draw nothing are refused, and a client asking for hints in a loop costs
the host one hint a version. Real sockets on 127.0.0.1; every wait bounded."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from lan_helpers import WAIT, running, until

from engine.hints import Hint
from engine.lan import protocol as p
from engine.lan.client import LanClient
from engine.lan.server import LanServer
from engine.play.table_host import TableHost


class Raw:
    """A client as the page describes one: newline-delimited JSON over TCP, one object per line."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, server: LanServer) -> Raw:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port, limit=1 << 22)
        return cls(reader, writer)

    @classmethod
    async def hello(cls, server: LanServer, name: str, **fields: Any) -> Raw:
        raw = await cls.open(server)
        await raw.send({"type": "hello", "protocol": 1, "max_protocol": 2, "name": name, **fields})
        welcome = await raw.recv()
        assert welcome["type"] == "welcome", welcome
        return raw

    async def send(self, data: Any) -> None:
        self.writer.write(json.dumps(data).encode("utf-8") + b"\n")
        await self.writer.drain()

    async def recv(self) -> dict[str, Any]:
        """The next line as an object; ConnectionError when the host has closed the connection."""
        line = await asyncio.wait_for(self.reader.readline(), WAIT)
        if not line:
            raise ConnectionError("closed")
        data = json.loads(line)
        assert isinstance(data, dict)
        return data

    async def expect(self, kind: str) -> dict[str, Any]:
        while (data := await self.recv())["type"] != kind:
            pass
        return data

    async def closed(self) -> bool:
        """True once the host has closed the connection (every line before that read and dropped)."""
        try:
            while True:
                await self.recv()
        except ConnectionError:
            return True

    def close(self) -> None:
        self.writer.close()


WRONG_FIELDS: list[dict[str, Any]] = [
    {"type": "create", "game": "screw"},
    {"type": "create", "game": 5, "players": 3},
    {"type": "create", "game": "screw", "players": "3"},
    {"type": "create", "game": "screw", "players": 3, "variants": ["x"] * 17},
    {"type": "create", "game": "screw", "players": 3, "bots": [7]},
    {"type": "create", "game": "screw", "players": 3, "seat": 16},
    {"type": "create", "game": "screw", "players": 3, "clock": 0},
    {"type": "create", "game": "screw", "players": 3, "clock": True},
    {"type": "sit", "table": "BCDF"},
    {"type": "sit", "table": 5, "seat": 0},
    {"type": "sit", "table": "BCDF", "seat": -1},
    {"type": "spectate", "table": []},
    {"type": "fill", "level": ""},
    {"type": "chat", "text": ""},
    {"type": "chat", "text": "x" * 501},
    {"type": "chat", "text": "red\x1b[31m"},
    {"type": "act", "action": 7},
    {"type": "act", "action": "x" * 201},
    {"type": "act", "action": "pass", "version": "3"},
    {"type": "let_in", "request": 5, "allow": True},
    {"type": "let_in", "request": "abc", "allow": "yes"},
    {"type": "let_in", "request": "abc", "allow": True},
]


WRONG_HELLOS: list[dict[str, Any]] = [
    {"type": "hello", "name": "Eve"},
    {"type": "hello", "protocol": "1", "name": "Eve"},
    {"type": "hello", "protocol": True, "name": "Eve"},
    {"type": "hello", "protocol": 1.0, "name": "Eve"},
    {"type": "hello", "protocol": -1, "name": "Eve"},
    {"type": "hello", "protocol": 1},
    {"type": "hello", "protocol": 1, "name": 5},
    {"type": "hello", "protocol": 1, "name": "Eve", "password": 5},
    {"type": "hello", "protocol": 1, "name": "Eve", "token": ""},
    {"type": "hello", "protocol": 1, "name": "Eve", "token": "t" * 65},
    {"type": "hello", "protocol": 1, "name": "Eve", "max_protocol": "2"},
    {"type": "hello", "protocol": 1, "name": "Eve", "seen": -1},
    {"type": "hello", "protocol": 1, "name": "Eve", "ask": "yes"},
]


@pytest.mark.parametrize("hello", WRONG_HELLOS, ids=[json.dumps(h) for h in WRONG_HELLOS])
async def test_a_hello_with_a_wrong_field_is_a_bad_field_and_the_end(hello: dict[str, Any]) -> None:
    async with running() as server:
        eve = await Raw.open(server)
        await eve.send(hello)
        error = await eve.recv()
        assert (error["type"], error["code"], error.get("reply_to")) == ("error", "bad_field", "hello"), error
        assert await eve.closed()
        assert not server.players


async def test_every_wrong_field_is_a_bad_field_naming_the_message() -> None:
    async with running() as server:
        eve = await Raw.hello(server, "Eve")
        for line in WRONG_FIELDS:
            await eve.send(line)
            error = await eve.recv()
            assert (error["type"], error["code"], error.get("reply_to")) == ("error", "bad_field", line["type"]), line
            await eve.send({"type": "ping"})  # (an accepted line: the count of refusals in a row starts again)
            assert (await eve.recv())["type"] == "pong"
        eve.close()


async def test_the_twentieth_refusal_in_a_row_names_the_message_it_answers() -> None:
    async with running() as server:
        eve = await Raw.hello(server, "Eve")
        for _ in range(19):
            await eve.send({"type": "chat", "text": 5})
            assert (await eve.recv())["code"] == "bad_field"
        await eve.send({"type": "sit", "table": "BCDF", "seat": "one"})
        error = await eve.recv()
        assert (error["code"], error.get("reply_to")) == ("too_many_errors", "sit"), error
        assert await eve.closed()
        eve = await Raw.hello(server, "Eve2")
        for _ in range(19):
            await eve.send({"type": "chat", "text": 5})
            await eve.recv()
        await eve.send({"type": "no such type"})  # an unknown type: nothing to name
        error = await eve.recv()
        assert error["code"] == "too_many_errors" and "reply_to" not in error, error
        eve.close()


LOOK_ALIKES = {
    "ANNABEL": "name_taken",
    "\uff21nnabel": "name_taken",  # a fullwidth A
    "Annabe\u0301l": "name_taken",  # a combining accent
    "\u2000Annabel": "name_taken",  # an en quad before it: trimmed
    "\u0410nnabel": "bad_name",  # a Cyrillic A
    "\u0391nnabel": "bad_name",  # a Greek Alpha
    "Anna\u200dbel": "bad_name",  # a zero-width joiner
    "Ann\u2000abel": "bad_name",  # an en quad inside it
    "Annabel\ufe0f": "bad_name",  # a variation selector
    "Annabel\u3164": "bad_name",  # a Hangul filler
    "\u0301": "bad_name",  # accents alone: a name that draws nothing of its own
    "\u0301\u0302": "bad_name",
    "\u20dd": "bad_name",  # an enclosing circle around nothing
}


@pytest.mark.parametrize("name", list(LOOK_ALIKES))
async def test_a_name_that_passes_for_another_or_for_none_is_refused(name: str) -> None:
    async with running() as server:
        annabel = await Raw.hello(server, "Annabel")
        for _ in range(2):  # (accents alone: the second would otherwise be "the same name" as the first)
            eve = await Raw.open(server)
            await eve.send({"type": "hello", "protocol": 1, "name": name})
            error = await eve.recv()
            assert (error["type"], error.get("code")) == ("error", LOOK_ALIKES[name]), error
            assert await eve.closed()
        annabel.close()


class CountingHost(TableHost):
    """A table host that counts the hints it works out."""

    worked_out: list[int | None]

    def hint(self, seat: int | None) -> Hint | None:
        self.worked_out.append(seat)
        return super().hint(seat)


async def test_hints_asked_in_a_loop_are_worked_out_once_a_version() -> None:
    host = CountingHost.create("big2", 4, seed=5, bots=[None, "easy", "easy", "easy"])
    host.worked_out = []
    async with running() as server:
        server.prepared_host = lambda _table: host
        eve = await Raw.hello(server, "Eve")
        await eve.send(
            {"type": "create", "game": "big2", "players": 4, "bots": [None, "easy", "easy", "easy"], "hints": True}
        )
        await eve.expect("table")
        await eve.send({"type": "start"})
        while not (prompt := await eve.expect("snapshot"))["snapshot"]["legal"]:
            pass  # (the bots wait for a person's move; whoever holds the 3 of diamonds leads)
        version = prompt["snapshot"]["version"]
        eve.writer.write(b'{"type":"hint"}\n' * 200)
        answers = [await eve.expect("hint") for _ in range(200)]
        assert len({json.dumps(answer, sort_keys=True) for answer in answers}) == 1
        assert answers[0]["action"] in prompt["snapshot"]["legal"]
        assert host.table.state.version == version and host.worked_out == [0], host.worked_out
        await eve.send({"type": "act", "action": answers[0]["action"], "version": version})
        while not (prompt := await eve.expect("snapshot"))["snapshot"]["legal"]:
            pass
        await eve.send({"type": "hint"})
        assert (await eve.expect("hint"))["action"] in prompt["snapshot"]["legal"]
        assert host.worked_out == [0, 0]  # a new version: worked out again
        eve.close()


async def test_wrong_moves_in_play_get_the_codes_the_page_gives() -> None:
    async with running() as server:
        eve = await Raw.hello(server, "Eve")
        await eve.send({"type": "create", "game": "big2", "players": 4, "bots": [None, "easy", "easy", "easy"]})
        code = (await eve.expect("table"))["table"]["code"]
        await eve.send({"type": "start"})
        while not (prompt := await eve.expect("snapshot"))["snapshot"]["legal"]:
            pass
        version = prompt["snapshot"]["version"]
        wrong = [
            ({"action": {}}, "invalid"),  # an object that decodes to no action of this game
            ({"action": {"game": "chase", "type": "ChaseAction", "value": "swap"}}, "invalid"),  # another game's
            ({"action": {"game": "big2", "type": "Play", "cards": ["ZZ"]}}, "bad_data"),
            ({"action": {"game": "nope", "type": "Nope"}}, "bad_data"),
            ({"action": "9Z"}, "invalid"),
            ({"action": "pass", "version": version + 1}, "bad_field"),
            ({"action": "pass", "version": 2**40}, "bad_field"),  # ahead of the table, however far
        ]
        if version > 0:
            wrong.append(({"action": "pass", "version": version - 1}, "stale"))
        for fields, code_ in wrong:
            await eve.send({"type": "act", **fields})
            error = await eve.expect("error")
            assert (error["code"], error.get("reply_to")) == (code_, "act"), (fields, error)
        await eve.send({"type": "spectate", "table": code})
        error = await eve.expect("error")
        assert error["code"] == "already_at_table" and "stand" not in error["message"], error  # (no standing now)
        await eve.send({"type": "stand"})
        assert (await eve.expect("error"))["code"] == "already_started"
        eve.close()


async def test_a_whole_number_is_any_the_page_allows() -> None:
    """The page bounds a number only where it says so (a seat 0 to 15) and by a double's range (``bad_json``)."""
    async with running() as server:
        wide = await Raw.open(server)  # a client that speaks every version from 1 on
        await wide.send({"type": "hello", "protocol": 1, "max_protocol": 2**40, "name": "Wide"})
        welcome = await wide.recv()
        assert welcome["protocol"] == 2, welcome
        late = await Raw.open(server)
        await late.send({"type": "hello", "protocol": 2**40, "name": "Late"})
        assert (await late.recv())["code"] == "protocol_version"
        assert await late.closed()
        await wide.send({"type": "create", "game": "screw", "players": 2**40})
        error = await wide.recv()
        assert (error["code"], error["reply_to"]) == ("bad_option", "create"), error
        await wide.send({"type": "create", "game": "screw", "players": 3, "bots": [None, "easy", "easy"]})
        await wide.expect("table")
        await wide.send({"type": "start"})
        await wide.expect("snapshot")
        wide.close()
        # "a seen larger than the events there are is ignored": all of them again, from 0
        back = await Raw.open(server)
        await back.send({"type": "hello", "protocol": 2, "name": "Wide", "token": welcome["token"], "seen": 2**40})
        assert (await back.recv())["resumed"] is True
        assert (await back.expect("started"))["from"] == 0
        assert (await back.recv())["type"] == "event"
        back.close()


async def test_parlour_s_client_reads_the_tables_of_a_busy_host() -> None:
    """A ``tables`` answer past 64 KiB (the bound on a client's lines, not the host's) is read by Parlour's own
    client: the page bounds the host's lines at 4 MiB."""
    async with running(tables_per_address=200) as server:
        makers = []
        for number in range(100):
            maker = await Raw.hello(server, f"Maker{number}")
            await maker.send({"type": "create", "game": "rank", "players": 10})
            await maker.expect("table")
            makers.append(maker)
        ann = await LanClient.connect("127.0.0.1", server.port)
        await ann.hello("Ann")
        await ann.send({"type": "list"})
        tables = await ann.expect("tables", WAIT)
        assert len(tables["tables"]) == 100 and len(ann.raw[-1]) > p.MAX_LINE
        await ann.send({"type": "ping"})
        await ann.expect("pong", WAIT)
        await ann.close()
        for maker in makers:
            maker.close()


async def test_a_match_asked_for_again_and_again_counts_as_the_lines_it_sends() -> None:
    """A spectate sends the match so far: it counts as that many lines against the connection's pace (2,000 at
    once, then 1,000 a second), so spectating and leaving a long match in a loop gets its history no faster."""
    async with running(line_burst=100) as server:
        ann = await Raw.hello(server, "Ann")  # watches a table of bots play to the end
        await ann.send({"type": "create", "game": "big2", "players": 4, "bots": ["easy"] * 4, "seat": None})
        code = (await ann.expect("table"))["table"]["code"]
        await ann.send({"type": "start"})
        while (await ann.expect("event"))["event"]["type"] != "MatchOver":
            pass
        eve = await Raw.hello(server, "Eve")
        await eve.send({"type": "spectate", "table": code})
        await eve.expect("started")
        events = 0
        while (await eve.recv())["type"] == "event":
            events += 1
        assert events > 100
        (conn,) = [c for c in server.connections if c.player is not None and c.player.name == "Eve"]
        assert conn.allowance < 100 - events, (conn.allowance, events)  # its next line waits its turn
        await eve.send({"type": "leave"})
        assert (await eve.expect("left"))["type"] == "left"  # read in its time, not refused
        eve.close()
        ann.close()


async def test_coming_back_again_and_again_goes_on_at_the_pace_the_last_connection_left() -> None:
    """A resume sends the match so far too: it counts against the pace, and a new connection with the same token
    goes on at the pace the last one left (waiting first if it was behind), so resuming in a loop is paced too."""
    async with running(line_burst=100, lines_per_second=100) as server:
        ann = await Raw.hello(server, "Ann")
        await ann.send({"type": "create", "game": "big2", "players": 4, "bots": ["easy"] * 4, "seat": None})
        code = (await ann.expect("table"))["table"]["code"]
        await ann.send({"type": "start"})
        while (await ann.expect("event"))["event"]["type"] != "MatchOver":
            pass
        eve = await Raw.open(server)
        await eve.send({"type": "hello", "protocol": 1, "max_protocol": 2, "name": "Eve"})
        token = (await eve.recv())["token"]
        await eve.send({"type": "spectate", "table": code})
        await eve.expect("snapshot")
        eve.close()
        await until(lambda: server.players["eve"].conn is None)
        back = await Raw.open(server)
        await back.send({"type": "hello", "protocol": 2, "name": "Eve", "token": token})
        assert (await back.recv())["resumed"] is True
        started = await back.expect("started")
        events = 0
        while (await back.recv())["type"] == "event":
            events += 1
        assert started["from"] == 0 and events > 100
        (conn,) = [c for c in server.connections if c.player is not None and c.player.name == "Eve"]
        assert conn.allowance < 0, (conn.allowance, events)  # its next line, or next resume, waits its turn
        back.close()
        ann.close()
