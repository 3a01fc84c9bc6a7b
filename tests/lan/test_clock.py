"""The turn clock of a LAN table (issue 7): ``create``'s ``clock``, a bot of the table's level making the one move
of a person who ran out of time (the seat stays theirs), the end-of-round wait released by the clock, tables
without a clock that wait, and no timer after the host closes. On real sockets bound to 127.0.0.1, with clocks of
0.3-0.5 s; plus :meth:`TableHost.play_once` on its own. Every wait is bounded (lan_helpers.WAIT)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from lan_helpers import WAIT, client, running, until

from engine import codec
from engine.bots import decision_rng
from engine.errors import OptionError
from engine.lan import protocol as p
from engine.lan.client import LanClient
from engine.lan.server import LanServer
from engine.play.bot_process import ProcessDecider
from engine.play.table_host import TableHost
from engine.registry import make_bot
from engine.table import Table

CLOCK = 0.3
"""A clock nobody answers (the test waits for it to run out)."""
IN_TIME = 0.5
"""A clock a test answers within: room for a loaded machine between the prompt and the answer."""


# ---------------------------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------------------------
async def clocked_table(
    server: LanServer, people: list[LanClient], key: str, bots: list[str | None], clock: float | None
) -> str:
    """A started table of ``key`` with ``people`` in the seats ``bots`` leaves to people (in order), made with
    ``clock``. Its code."""
    creator = people[0]
    create: dict[str, Any] = {"type": "create", "game": key, "players": len(bots), "bots": bots, "clock": clock}
    await creator.send(create)
    summary = (await creator.expect("table", WAIT))["table"]
    assert summary["clock"] == clock
    code = str(summary["code"])
    free = [seat for seat, level in enumerate(bots) if level is None][1 : len(people)]
    for seat, person in zip(free, people[1:], strict=True):
        await person.send({"type": "sit", "table": code, "seat": seat})
        await person.expect("table", WAIT)
        await person.send({"type": "ready"})
    while not all(s["status"] in ("ready", "bot") for s in summary["seats"] if s["name"] != summary["creator"]):
        summary = (await creator.expect("table", WAIT))["table"]
    await creator.send({"type": "start"})
    while summary["state"] != "playing":
        summary = (await creator.expect("table", WAIT))["table"]
    return code


async def next_prompt(
    c: LanClient, *, say_next: bool = True, seen: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Read until a snapshot that asks this seat to act (saying ``next`` after each round, if ``say_next``)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while True:
        data = await c.recv(max(0.0, deadline - loop.time()))
        if seen is not None:
            seen.append(data)
        if data["type"] == "snapshot" and data["snapshot"]["legal"] and not data["snapshot"]["over"]:
            return data
        if data["type"] == "error":
            raise AssertionError(f"refused: {data}")
        if data["type"] == "event":
            event = data["event"]
            if event["type"] == "RoundOver" and not event["last"] and say_next:
                await c.send({"type": "next"})
            assert event["type"] != "MatchOver", "the match ended before the test was done"


def record_play_once(host: TableHost) -> list[tuple[int, int, str]]:
    """Every call the server makes to ``host.play_once`` (which still runs)."""
    calls: list[tuple[int, int, str]] = []
    original = host.play_once

    def play_once(seat: int, version: int, level: str) -> None:
        calls.append((seat, version, level))
        original(seat, version, level)

    host.play_once = play_once  # type: ignore[method-assign]
    return calls


async def summary_of(c: LanClient, code: str) -> dict[str, Any]:
    await c.send({"type": "list"})
    tables = (await c.expect("tables", WAIT))["tables"]
    return next(t for t in tables if t["code"] == code)


# ---------------------------------------------------------------------------------------------------------------
# The protocol
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("clock", [0, -1, "x", 4000, True, [30], 3600.5])
def test_a_bad_clock_is_a_bad_field(clock: Any) -> None:
    with pytest.raises(p.ProtocolError) as caught:
        p.parse_line(p.line({"type": "create", "game": "screw", "players": 3, "clock": clock}))
    assert caught.value.code == p.BAD_FIELD


@pytest.mark.parametrize(("clock", "seconds"), [(None, None), (0.3, 0.3), (30, 30.0), (3600, 3600.0)])
def test_a_clock_reads_and_writes_back(clock: Any, seconds: float | None) -> None:
    message = p.parse_line(p.line({"type": "create", "game": "screw", "players": 3, "clock": clock}))
    assert isinstance(message, p.Create) and message.clock == seconds
    assert p.parse_line(p.line(message)) == message
    assert p.parse_line(p.line({"type": "create", "game": "screw", "players": 3})) == p.Create("screw", 3)


async def test_create_refuses_a_bad_clock_and_the_summary_carries_a_good_one() -> None:
    async with running() as server:
        ann = await client(server, "Ann")
        for clock in (0, -1, "x", 4000):
            await ann.send({"type": "create", "game": "screw", "players": 3, "clock": clock})
            error = await ann.recv(WAIT)
            assert error["type"] == "error" and error["code"] == p.BAD_FIELD
        assert server.tables == {}
        await ann.send({"type": "create", "game": "screw", "players": 3, "clock": 0.5})
        assert (await ann.expect("table", WAIT))["table"]["clock"] == 0.5
        await ann.send({"type": "leave"})
        await ann.expect("left", WAIT)
        await ann.send({"type": "create", "game": "screw", "players": 3})
        assert (await ann.expect("table", WAIT))["table"]["clock"] is None
        await ann.close()


# ---------------------------------------------------------------------------------------------------------------
# The turn clock
# ---------------------------------------------------------------------------------------------------------------
async def test_a_person_who_never_answers_gets_one_move_made_and_keeps_the_seat() -> None:
    async with running() as server:
        ann = await client(server, "Ann")
        before = time.monotonic()  # (before the table, so before her clock can have started)
        code = await clocked_table(server, [ann], "screw", [None, "easy", "easy"], IN_TIME)
        host = server.tables[code].host
        assert host is not None
        calls = record_play_once(host)
        prompt = await next_prompt(ann)
        version = prompt["snapshot"]["version"]
        assert 0 < prompt["clock"] <= IN_TIME
        # Ann says nothing: when her time runs out, a bot of the table's level makes her move.
        seen: list[dict[str, Any]] = []
        again = await next_prompt(ann, seen=seen)
        assert time.monotonic() - before >= IN_TIME  # her clock ran its time out: the time passing is the test
        assert calls[0] == (0, version, "easy")
        moved = [m for m in seen if m["type"] == "event" and m["version"] == version + 1]
        assert moved and any(m["event"].get("seat") == 0 for m in moved), "no event of her seat's move"
        assert again["snapshot"]["version"] > version
        # The seat is still hers: the summary shows her, connected, and she plays her next turn herself.
        assert host.info(0).bots[0] is None and not host.table.seats[0].is_bot
        seat = (await summary_of(ann, code))["seats"][0]
        assert seat["name"] == "Ann" and seat["bot"] is None and seat["status"] == "connected"
        mine = again["snapshot"]["version"]
        await ann.send({"type": "act", "action": again["snapshot"]["legal"][0], "version": mine})
        await until(lambda: host.table.state.version > mine)
        assert [call for call in calls if call[1] == mine] == []
        await ann.send({"type": "ping"})
        while (reply := await ann.recv(WAIT))["type"] != "pong":
            assert reply["type"] != "error", reply  # her answer was taken, not refused as too late
        assert not host.errors
        await ann.close()


async def test_a_player_who_answers_in_time_is_never_overridden() -> None:
    async with running() as server:
        ann = await client(server, "Ann")
        code = await clocked_table(server, [ann], "big2", [None, "easy", "easy", "easy"], IN_TIME)
        host = server.tables[code].host
        assert host is not None
        calls = record_play_once(host)
        rng = random.Random(3)
        answered = 0
        begin = time.monotonic()
        while time.monotonic() - begin < 3 * IN_TIME:
            prompt = await next_prompt(ann)
            snap = prompt["snapshot"]
            assert 0 < prompt["clock"] <= IN_TIME
            await ann.send({"type": "act", "action": rng.choice(snap["legal"]), "version": snap["version"]})
            answered += 1
            await asyncio.sleep(IN_TIME / 5)  # slow, but in time
        await ann.send({"type": "leave"})  # (her last prompt's clock goes with her seat)
        await ann.expect("left", WAIT)
        await asyncio.sleep(IN_TIME + 0.1)  # (a clock's time must pass: part of what is tested)
        assert answered >= 4 and calls == [], "a clock ran out for a move made in time"
        assert not host.errors
        await ann.close()


async def test_a_table_without_a_clock_waits() -> None:
    async with running() as server:
        ann = await client(server, "Ann")
        code = await clocked_table(server, [ann], "screw", [None, "easy", "easy"], None)
        host = server.tables[code].host
        assert host is not None
        calls = record_play_once(host)
        prompt = await next_prompt(ann)
        assert "clock" not in prompt
        version = prompt["snapshot"]["version"]
        await asyncio.sleep(3 * CLOCK)  # (a clock's time must pass for "no clock" to mean anything)
        assert host.position == (0, version) and calls == []
        assert (await summary_of(ann, code))["clock"] is None
        await ann.close()


async def test_only_a_prompt_carries_the_clock_and_it_counts_down() -> None:
    async with running() as server:
        ann, bob = await client(server, "Ann"), await client(server, "Bob")
        code = await clocked_table(server, [ann, bob], "screw", [None, None, "easy"], IN_TIME)
        host = server.tables[code].host
        assert host is not None
        await until(lambda: host.to_move in (0, 1) and not host.thinking)
        mover, other = (ann, bob) if host.to_move == 0 else (bob, ann)
        prompt = await next_prompt(mover)
        await asyncio.sleep(0.1)  # (time must pass for the clock to count down: part of what is tested)
        await mover.send({"type": "snapshot"})
        again = await mover.expect("snapshot", WAIT)
        assert again["snapshot"] == prompt["snapshot"]
        assert 0 < again["clock"] < prompt["clock"] <= IN_TIME  # the time left, not a fresh clock
        await other.send({"type": "snapshot"})
        theirs = await other.expect("snapshot", WAIT)
        while theirs["snapshot"]["legal"]:  # (a prompt of its own from before: read on to the answer)
            theirs = await other.expect("snapshot", WAIT)
        assert "clock" not in theirs
        await ann.close()
        await bob.close()


async def test_the_clock_runs_for_an_away_player_without_a_bot_taking_the_seat() -> None:
    async with running(resume_window=30.0, takeover_after=30.0) as server:
        ann, bob = await client(server, "Ann"), await client(server, "Bob")
        code = await clocked_table(server, [ann, bob], "screw", [None, None, "easy"], CLOCK)
        host = server.tables[code].host
        assert host is not None
        calls = record_play_once(host)
        await bob.close()  # dropped: away, his seat still his
        await until(lambda: server.tables[code].summary()["seats"][1]["status"] == "away")
        playing = asyncio.create_task(ann.play(random.Random(4), timeout=3 * WAIT))
        try:
            await until(lambda: any(call[0] == 1 for call in calls), 4 * CLOCK + 2)
            seat = server.tables[code].summary()["seats"][1]
            assert seat["status"] == "away" and seat["name"] == "Bob" and host.info(1).bots[1] is None
        finally:
            playing.cancel()
        assert not host.errors
        await ann.close()


async def test_the_clock_ends_the_wait_at_the_end_of_a_round() -> None:
    async with running() as server:
        ann = await client(server, "Ann")
        code = await clocked_table(server, [ann], "screw", [None, "easy", "easy"], IN_TIME)
        host = server.tables[code].host
        assert host is not None
        rng = random.Random(5)
        over = time.monotonic()  # before the move that ends the round, so before the round's clock can start
        while True:  # Ann plays her turns in time, and never says next
            data = await ann.recv(WAIT)
            if data["type"] == "snapshot" and data["snapshot"]["legal"]:
                snap = data["snapshot"]
                over = time.monotonic()
                await ann.send({"type": "act", "action": rng.choice(snap["legal"]), "version": snap["version"]})
            if data["type"] == "event" and data["event"]["type"] == "RoundOver":
                assert not data["event"]["last"]
                break
        assert host.waiting_for == {0}
        await until(lambda: not host.waiting_for, 4 * IN_TIME + 2)
        assert time.monotonic() - over >= IN_TIME  # the wait ended when its clock ran out, not before
        # The next round goes on: Ann is asked again (the table did not wait for her next).
        prompt = await next_prompt(ann, say_next=False)
        assert prompt["snapshot"]["version"] > snap["version"]
        assert not host.errors
        await ann.close()


async def test_no_timer_fires_after_the_host_closes() -> None:
    async with running() as server:
        ann = await client(server, "Ann")
        code = await clocked_table(server, [ann], "screw", [None, "easy", "easy"], CLOCK)
        table = server.tables[code]
        host = table.host
        assert host is not None
        calls = record_play_once(host)
        await next_prompt(ann)
        turn = table.turn_timer
        assert turn is not None and not turn.cancelled()
        # A round's wait too: a timer for it, as if a round had just ended.
        server._table_news(table, True, False)
        round_timer = table.round_timer
        assert round_timer is not None
        await server.close()
    assert turn.cancelled() and round_timer.cancelled()
    assert table.turn_timer is None and table.round_timer is None
    await asyncio.sleep(CLOCK + 0.2)  # (the cancelled clocks' time must pass: part of what is tested)
    assert calls == [] and host.closed
    server._table_news(table, True, False)  # news that was on its way when the host closed starts nothing
    assert table.turn_timer is None and table.round_timer is None
    await ann.close()


# ---------------------------------------------------------------------------------------------------------------
# TableHost.play_once
# ---------------------------------------------------------------------------------------------------------------
@pytest.fixture
def hosts() -> Iterator[list[TableHost]]:
    made: list[TableHost] = []
    yield made
    for host in made:
        host.close()


@pytest.mark.parametrize("in_a_process", [False, True], ids=["here", "process"])
def test_play_once_makes_one_move_for_a_persons_seat(hosts: list[TableHost], in_a_process: bool) -> None:
    """One move from the seat's own view with the RNG of (seed, seat, version): the twin table where that move is
    played by hand has the same history. A stale version or seat does nothing; the seat stays a person's."""
    table = Table.create("screw", 3, seed=3, bots=[None, "easy", "easy"])
    host = TableHost(table, decider=ProcessDecider() if in_a_process else None)
    hosts.append(host)
    host.connect(0)
    assert host.wait_idle(WAIT) and host.position[0] == 0
    version = table.state.version
    host.play_once(0, version + 1, "easy")  # a moment that is not now
    host.play_once(1, version, "easy")  # a seat not to move
    assert host.wait_idle(WAIT) and host.position == (0, version)  # idle: neither asked for a move
    with pytest.raises(OptionError):
        host.play_once(0, version, "grandmaster")
    host.play_once(0, version, "Easy")
    deadline = time.monotonic() + WAIT
    while table.state.version == version and time.monotonic() < deadline:
        time.sleep(0.01)  # (a poll's pause: the condition is what is waited for)
    assert table.state.version > version and not host.errors
    assert not table.seats[0].is_bot and host.info(0).bots[0] is None
    # The same move, worked out by hand from seat 0's view, on a twin table.
    twin = Table.create("screw", 3, seed=3, bots=[None, "easy", "easy"])
    twin.run()
    assert twin.state.version == version
    chosen = make_bot(twin.game, "easy").choose(
        twin.state.view(0), twin.state.legal_actions(), decision_rng(3, 0, version)
    )
    twin.submit(0, chosen)
    mine = [codec.encode(e) for e in twin.state.history]
    assert [codec.encode(e) for e in table.state.history[: len(mine)]] == mine
    # Then the seat is its person's again: when it is to move next, nobody moves for it.
    seat, now = host.position
    while seat != 0 and time.monotonic() < deadline:
        host.ready(0)  # (the end of a round waits for seat 0's person)
        time.sleep(0.01)  # (a poll's pause: the condition is what is waited for)
        seat, now = host.position
    assert seat == 0 and now > version
    assert host.wait_idle(WAIT) and host.position == (0, now)  # idle: no bot may move for seat 0 any more
    host.close()
    host.play_once(0, now, "easy")  # after close: nothing
    assert host.wait_idle(WAIT) and host.position == (0, now)
