"""Protocol version 2 (issue 25), on real sockets bound to 127.0.0.1: the versions a hello names, ``stale`` for a move
answering an older snapshot, a resume that is sent only the events it lacks, the turn clock told to everyone at the
table, and a version 1 client still served as version 1 says. Every wait is bounded (lan_helpers.WAIT)."""

from __future__ import annotations

from typing import Any

import pytest
from lan_helpers import WAIT, client, closed, running, start_table, until

from engine.lan import protocol as p
from engine.lan.client import LanClient

V2 = {"max_protocol": 2}


async def prompt(c: LanClient) -> dict[str, Any]:
    """The next snapshot ``c`` reads in which it must act."""
    while True:
        data = await c.expect("snapshot", WAIT)
        if data["snapshot"]["legal"]:
            return data


async def error_for(c: LanClient) -> dict[str, Any]:
    while True:
        data = await c.recv(WAIT)
        if data["type"] == "error":
            return data


@pytest.mark.parametrize(
    ("hello", "version"),
    [
        ({"protocol": 1}, 1),
        ({"protocol": 1, "max_protocol": 1}, 1),
        ({"protocol": 1, "max_protocol": 2}, 2),
        ({"protocol": 1, "max_protocol": 9}, 2),
        ({"protocol": 2}, 2),
        ({"protocol": 2, "max_protocol": 5}, 2),
    ],
)
async def test_the_host_answers_in_the_newest_version_both_speak(hello: dict[str, Any], version: int) -> None:
    async with running() as server:
        c = await LanClient.connect("127.0.0.1", server.port)
        await c.send({"type": "hello", "name": "Ann", **hello})
        welcome = await c.expect("welcome", WAIT)
        assert welcome["protocol"] == version
        await c.close()


@pytest.mark.parametrize(
    "hello", [{"protocol": 3}, {"protocol": 3, "max_protocol": 4}, {"protocol": 2, "max_protocol": 1}]
)
async def test_a_range_the_host_does_not_speak_is_refused(hello: dict[str, Any]) -> None:
    async with running() as server:
        c = await LanClient.connect("127.0.0.1", server.port)
        await c.send({"type": "hello", "name": "Ann", **hello})
        error = await c.recv(WAIT)
        assert error["code"] == p.PROTOCOL_VERSION and "1 to 2" in error["message"]
        assert error["reply_to"] == "hello"
        assert await closed(c) == []
        await c.close()


@pytest.mark.parametrize(("extra", "code"), [(V2, p.STALE), ({}, "not_your_turn")])
async def test_a_move_for_an_older_snapshot_changes_nothing(extra: dict[str, Any], code: str) -> None:
    async with running(seed=3) as server:
        ann = await client(server, "Ann", **extra)
        table = server.tables[await start_table(server, [ann], "big2")]
        assert table.host is not None
        first = (await prompt(ann))["snapshot"]
        await ann.send({"type": "act", "action": first["legal"][0], "version": first["version"]})
        second = (await prompt(ann))["snapshot"]
        assert second["version"] > first["version"]
        before = table.host.table.state.version
        await ann.send({"type": "act", "action": second["legal"][0], "version": first["version"]})
        error = await error_for(ann)
        assert error["code"] == code and error["reply_to"] == "act"
        assert table.host.table.state.version == before, "nothing changed"
        # Still Ann's turn, and the move for the snapshot she has is taken.
        await ann.send({"type": "act", "action": second["legal"][0], "version": second["version"]})
        await until(lambda: table.host is not None and table.host.table.state.version > before)
        await ann.close()


async def test_a_version_ahead_of_the_table_is_a_bad_field() -> None:
    async with running(seed=3) as server:
        ann = await client(server, "Ann", **V2)
        await start_table(server, [ann], "big2")
        snap = (await prompt(ann))["snapshot"]
        await ann.send({"type": "act", "action": snap["legal"][0], "version": snap["version"] + 5})
        error = await error_for(ann)
        assert error["code"] == p.BAD_FIELD and error["reply_to"] == "act"
        await ann.close()


async def test_events_are_numbered_and_a_resume_gets_only_those_it_lacks() -> None:
    async with running(seed=5) as server:
        ann = await client(server, "Ann", **V2)
        code = await start_table(server, [ann], "screw")
        started = await ann.expect("started", WAIT)
        assert started["from"] == 0 and isinstance(started["match"], str)
        snap = (await prompt(ann))["snapshot"]
        events = [m for m in ann.received if m["type"] == "event"]
        assert [e["seq"] for e in events] == list(range(len(events)))
        token = ann.token
        await ann.close()
        await until(lambda: server.tables[code].summary()["seats"][0]["status"] == "away")
        back = await LanClient.connect("127.0.0.1", server.port)
        welcome = await back.hello("Ann", token=token, seen=len(events) - 1, **V2)
        assert welcome["resumed"] is True
        again = await back.expect("started", WAIT)
        assert again["from"] == len(events) - 1
        resumed = await back.expect("snapshot", WAIT)
        sent = [m for m in back.received if m["type"] == "event"]
        assert [m["seq"] for m in sent] == [len(events) - 1], "only the event it lacked"
        assert sent[0]["event"] == events[-1]["event"]
        assert resumed["snapshot"]["version"] == snap["version"]
        await back.close()


async def test_a_resume_claiming_more_events_than_there_are_gets_them_all() -> None:
    async with running(seed=5) as server:
        ann = await client(server, "Ann", **V2)
        await start_table(server, [ann], "screw")
        await prompt(ann)
        count = sum(1 for m in ann.received if m["type"] == "event")
        token = ann.token
        await ann.close()
        back = await LanClient.connect("127.0.0.1", server.port)
        await back.hello("Ann", token=token, seen=count + 50, **V2)
        assert (await back.expect("started", WAIT))["from"] == 0
        await back.expect("snapshot", WAIT)
        assert sum(1 for m in back.received if m["type"] == "event") == count
        await back.close()


async def test_a_version_1_client_gets_the_version_1_messages() -> None:
    async with running(seed=5) as server:
        ann = await client(server, "Ann")
        await start_table(server, [ann], "screw")
        started = await ann.expect("started", WAIT)
        assert "from" not in started
        await prompt(ann)
        assert all("seq" not in m for m in ann.received if m["type"] == "event")
        await ann.close()


async def test_the_clock_is_told_to_everyone_at_the_table_and_its_running_out_before_the_bots_move() -> None:
    async with running(seed=2) as server:
        ann, cy = await client(server, "Ann", **V2), await client(server, "Cy", **V2)
        old = await client(server, "Old")  # a version 1 spectator: never sent a message it does not know
        await ann.send({"type": "create", "game": "screw", "players": 3, "bots": [None, "easy", "easy"], "clock": 0.3})
        code = (await ann.expect("table", WAIT))["table"]["code"]
        for watcher in (cy, old):
            await watcher.send({"type": "spectate", "table": code})
            await watcher.expect("table", WAIT)
        await ann.send({"type": "start"})
        snap = (await prompt(ann))["snapshot"]
        table = server.tables[code]
        host = table.host
        assert host is not None
        # Nobody answers: the clock runs out, and a bot moves for Ann.
        await until(lambda: host.table.state.version > snap["version"], WAIT)
        for person in (ann, cy):
            await until(
                lambda person=person: any(
                    m["type"] == "event" and m["version"] > snap["version"] for m in person.received
                )
            )
            clocks = [m for m in person.received if m["type"] == "clock"]
            start = next(m for m in clocks if not m.get("ran_out") and m["seat"] == 0)
            assert start["table"] == code and start["version"] == snap["version"] and 0 < start["seconds"] <= 0.3
            out = next(m for m in clocks if m.get("ran_out"))
            assert out == {
                "type": "clock",
                "table": code,
                "seat": 0,
                "version": snap["version"],
                "seconds": 0,
                "ran_out": True,
            }
            at = person.received.index(out)
            moved = [m for m in person.received[at:] if m["type"] == "event" and m["version"] > snap["version"]]
            assert moved, "the bot's move comes after the clock's news"
        assert all(m["type"] != "clock" for m in old.received)
        for c in (ann, cy, old):
            await c.close()


async def test_a_spectator_joining_while_the_clock_runs_is_told_it() -> None:
    async with running(seed=2) as server:
        ann, cy = await client(server, "Ann", **V2), await client(server, "Cy", **V2)
        await ann.send({"type": "create", "game": "screw", "players": 3, "bots": [None, "easy", "easy"], "clock": 30})
        code = (await ann.expect("table", WAIT))["table"]["code"]
        await ann.send({"type": "start"})
        snap = (await prompt(ann))["snapshot"]
        await cy.send({"type": "spectate", "table": code})
        clock = await cy.expect("clock", WAIT)
        assert clock["seat"] == 0 and clock["version"] == snap["version"] and 0 < clock["seconds"] <= 30
        assert any(m["type"] == "started" for m in cy.received)
        await ann.close()
        await cy.close()
