"""Every snapshot a connection is sent comes after every event line it shows (issue 28, point 3; docs/protocol.md,
"Playing"): over a real socket on 127.0.0.1, the raw lines a seat and a spectator read at a table whose bots move
with pace 0, checked against the host's own history. A prompt, the snapshot after ``started`` and the answers to
``snapshot`` requests (the spectator asks after every event it reads, the seat after each of its moves) all show
exactly the events read before them: no event they show is still to come, and none read is missing from them.
The screen's side of the same guarantee is tests/tui/test_update_race.py.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from lan_helpers import WAIT, running

from engine.lan.server import LanServer
from engine.table import Table

MOVES = 40
"""The person stops answering once prompted at this version or later (or the match is over)."""


def seen_by(table: Table, seat: int | None, version: int) -> int:
    """How many events ``seat`` may see of the table's first ``version`` actions (and the deal before them)."""
    return sum(1 for event in table.state.history[: table.bounds[version]] if event.for_seat(seat) is not None)


class Raw:
    """A connection that reads the host's lines as they come, and keeps them."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.lines: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, server: LanServer, name: str) -> Raw:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        raw = cls(reader, writer)
        await raw.send({"type": "hello", "protocol": 1, "max_protocol": 2, "name": name})
        assert (await raw.read())["type"] == "welcome"
        return raw

    async def send(self, *messages: dict[str, Any]) -> None:
        self.writer.write(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
        await self.writer.drain()

    async def read(self) -> dict[str, Any]:
        line = await asyncio.wait_for(self.reader.readline(), WAIT)
        assert line.endswith(b"\n"), f"the host closed after {len(self.lines)} lines"
        data: dict[str, Any] = json.loads(line)
        self.lines.append(data)
        if data["type"] == "ping":
            await self.send({"type": "pong"})
        return data

    async def read_until(self, kind: str) -> dict[str, Any]:
        while (data := await self.read())["type"] != kind:
            pass
        return data

    async def close(self) -> None:
        self.writer.close()
        await asyncio.wait_for(self.writer.wait_closed(), WAIT)


def check_order(lines: list[dict[str, Any]], table: Table, seat: int | None) -> int:
    """Every ``snapshot`` among ``lines`` shows exactly the events read before it; event versions never go back, and
    an event after a snapshot is of a later version. The number of snapshots checked."""
    events = 0
    last_version = -1
    last_snapshot = -1
    checked = 0
    for number, data in enumerate(lines):
        if data["type"] == "event":
            version = data["version"]
            assert version >= last_version, f"line {number}: an event of version {version} after {last_version}"
            assert version > last_snapshot, f"line {number}: an event of version {version} after its snapshot"
            last_version = version
            events += 1
        elif data["type"] == "snapshot":
            snap = data["snapshot"]
            assert snap["seat"] == seat
            version = snap["version"]
            shows = seen_by(table, seat, version)
            assert events == shows, (
                f"line {number}: the snapshot of version {version} came after {events} events; it shows {shows}"
            )
            last_snapshot = version
            checked += 1
    return checked


@pytest.mark.parametrize(("game", "players"), [("screw", 3), ("big2", 4)])
async def test_every_snapshot_comes_after_the_events_it_shows(game: str, players: int) -> None:
    rng = random.Random(players)
    async with running(seed=28) as server:
        seat = await Raw.open(server, "Ann")
        watcher = await Raw.open(server, "Ben")
        await seat.send(
            {"type": "create", "game": game, "players": players, "bots": [None] + ["medium"] * (players - 1)}
        )
        code = (await seat.read_until("table"))["table"]["code"]
        await watcher.send({"type": "spectate", "table": code})
        await watcher.read_until("table")
        await seat.send({"type": "start"})
        lobby = server.tables[code]

        async def watch() -> None:
            """The spectator asks for a snapshot after every event it reads, while the match goes on."""
            while True:
                data = await watcher.read()
                if data["type"] == "event":
                    await watcher.send({"type": "snapshot"})
                if data["type"] == "pong":
                    return

        watching = asyncio.ensure_future(watch())
        answered = -1
        while True:
            data = await seat.read()
            if data["type"] == "event" and data["event"]["type"] == "RoundOver" and not data["event"]["last"]:
                await seat.send({"type": "next"})
            if data["type"] == "event" and data["event"]["type"] == "MatchOver":
                break
            if data["type"] != "snapshot" or not data["texts"] or data["snapshot"]["version"] == answered:
                continue
            answered = data["snapshot"]["version"]
            if answered >= MOVES:
                break
            pick = rng.randrange(len(data["texts"]))
            await seat.send({"type": "act", "action": data["texts"][pick], "version": answered}, {"type": "snapshot"})
        # The end: a last snapshot asked for, and every line before the pong read (the host answers in order).
        await seat.send({"type": "snapshot"}, {"type": "ping"})
        await seat.read_until("pong")
        await watcher.send({"type": "snapshot"}, {"type": "ping"})
        await asyncio.wait_for(watching, WAIT)
        assert lobby.host is not None
        table = lobby.host.table
        assert table.state.version >= min(MOVES, 10) and not lobby.host.errors
        assert check_order(seat.lines, table, 0) > 5
        assert check_order(watcher.lines, table, None) > 10
        assert sum(d["type"] == "event" for d in watcher.lines) == seen_by(table, None, table.state.version)
        await seat.close()
        await watcher.close()


def test_the_checker_finds_a_prompt_that_overtakes_its_events() -> None:
    """The order the example session of docs/protocol.md once showed (the prompt before the bots' events of its own
    moment) is refused by :func:`check_order`."""
    table = Table.create("screw", players=3, seed=7, bots=[None, "easy", "easy"])
    table.run()  # the bots move until seat 0 is to move
    version = table.state.version
    assert version >= 1 and table.state.to_move == 0

    def events_of(v: int) -> list[dict[str, Any]]:
        count = seen_by(table, 0, v) - (seen_by(table, 0, v - 1) if v else 0)
        return [{"type": "event", "version": v}] * count

    lines = [*events_of(0), {"type": "snapshot", "snapshot": {"seat": 0, "version": 0}}]
    for v in range(1, version):
        lines += events_of(v)
    last = events_of(version)
    assert last, "the bots' last move shows seat 0 nothing (pick another seed)"
    prompt = {"type": "snapshot", "snapshot": {"seat": 0, "version": version}}
    assert check_order([*lines, *last, prompt], table, 0) == 2
    with pytest.raises(AssertionError, match="came after"):
        check_order([*lines, prompt, *last], table, 0)
