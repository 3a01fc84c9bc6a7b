"""Nobody but its player gets a seat that holds cards (issue 25): a name alone never opens one, before or after a
host restart. A player who lost the token asks by name and someone at the table (its creator, else the host's own
player, else another person there) is asked; only a yes gives the seat, with a new token. Impostors with another
case, a look-alike or the very name get nothing of the seat. On real sockets bound to 127.0.0.1; bounded waits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lan_helpers import WAIT, client, closed, running, start_table, until

from engine.lan import protocol as p
from engine.lan.client import LanClient
from engine.lan.server import LanServer
from engine.names import name_problem

V2 = {"max_protocol": 2}
SECRET = ("welcome", "started", "event", "snapshot", "table", "hint")
"""What a connection that was refused must never have been sent."""


async def away_table(server: LanServer) -> tuple[LanClient, str, str]:
    """Ann (the creator, version 2) and Bob at a started Big Two table; Bob's client dies (no bye). Ann, the
    table's code and Bob's old token."""
    ann, bob = await client(server, "Ann", **V2), await client(server, "Bob", **V2)
    code = await start_table(server, [ann, bob], "big2")
    await bob.expect("snapshot", WAIT)
    token = bob.token
    await bob.close()
    await until(lambda: server.tables[code].summary()["seats"][1]["status"] == "away")
    return ann, code, token


async def hello(server: LanServer, name: str, **fields: Any) -> LanClient:
    c = await LanClient.connect("127.0.0.1", server.port)
    await c.send({"type": "hello", "protocol": 1, "name": name, **fields})
    return c


def nothing_secret(c: LanClient) -> None:
    kinds = [m["type"] for m in c.received]
    assert not any(kind in SECRET for kind in kinds), kinds


async def refused_with(c: LanClient, code: str) -> dict[str, Any]:
    seen = await closed(c)
    errors = [m for m in seen if m["type"] == "error"]
    assert errors and errors[-1]["code"] == code, seen
    nothing_secret(c)
    await c.close()
    return errors[-1]


@pytest.mark.parametrize("name", ["Bob", "bob", "BOB", "Ｂob", "B\u200bob", "\u0412ob", "Bo\u0301b", "Bob\u2000"])
async def test_a_name_alone_never_opens_a_seat_in_play(name: str) -> None:
    async with running() as server:
        ann, code, _ = await away_table(server)
        c = await hello(server, name)
        error = await refused_with(c, p.NAME_TAKEN if name_problem(name) is None else p.BAD_NAME)
        assert "Bob" in error["message"] or "name" in error["message"]
        assert server.tables[code].summary()["seats"][1]["status"] == "away", "the seat is still Bob's"
        await ann.close()


async def test_asking_by_name_and_being_refused_gives_nothing() -> None:
    async with running() as server:
        ann, code, _ = await away_table(server)
        impostor = await hello(server, "bob", ask=True, **V2)
        waiting = await impostor.expect("waiting", WAIT)
        assert waiting["table"] == code and waiting["seat"] == 1 and waiting["asked"] == "Ann"
        asking = await ann.expect("asking", WAIT)
        assert asking["name"] == "bob" and asking["seat"] == 1 and asking["table"] == code
        await ann.send({"type": "let_in", "request": asking["request"], "allow": False})
        await refused_with(impostor, p.REFUSED)
        assert impostor.received[0]["type"] == "waiting"
        assert server.tables[code].summary()["seats"][1] == {"seat": 1, "name": "Bob", "bot": None, "status": "away"}
        # A late or second answer is refused, and changes nothing.
        await ann.send({"type": "let_in", "request": asking["request"], "allow": True})
        while (late := await ann.recv(WAIT))["type"] != "error":
            pass
        assert late["code"] == p.BAD_FIELD and late["reply_to"] == "let_in"
        await ann.close()


async def test_asking_by_name_and_being_let_in_gives_the_seat_with_a_new_token() -> None:
    async with running() as server:
        ann, code, old = await away_table(server)
        bob = await hello(server, "Bob", ask=True, **V2)
        asking = await ann.expect("asking", WAIT)
        await ann.send({"type": "let_in", "request": asking["request"], "allow": True})
        welcome = await bob.expect("welcome", WAIT)
        assert welcome["resumed"] is True and welcome["table"] == code and welcome["token"] != old
        started = await bob.expect("started", WAIT)
        assert started["info"]["seat"] == 1
        snap = await bob.expect("snapshot", WAIT)
        assert snap["snapshot"]["seat"] == 1 and len(snap["snapshot"]["view"]["hand"]) == 13
        await until(lambda: server.tables[code].summary()["seats"][1]["status"] == "connected")
        # The old token is no key any more.
        stale = await hello(server, "Bob", token=old)
        await refused_with(stale, p.BAD_TOKEN)
        await bob.close()
        await ann.close()


@pytest.mark.parametrize("cooldown", [None, 0.0], ids=["by-default", "none"])
async def test_a_refused_asker_cannot_ask_again_at_once(cooldown: float | None) -> None:
    """Each request opens a dialog over the creator's table (whose own clock may be running): an address that was
    refused must wait ``ask_cooldown`` seconds (30 by default) before asking again, so a stranger cannot keep the
    creator answering."""
    async with running(**({} if cooldown is None else {"ask_cooldown": cooldown})) as server:
        ann, code, _ = await away_table(server)
        first = await hello(server, "bob", ask=True, **V2)
        asking = await ann.expect("asking", WAIT)
        await ann.send({"type": "let_in", "request": asking["request"], "allow": False})
        await refused_with(first, p.REFUSED)
        again = await hello(server, "Bob", ask=True, **V2)
        if cooldown is None:
            error = await refused_with(again, p.SLOW_DOWN)
            assert "try again in" in error["message"]
            await ann.send({"type": "ping"})
            await ann.expect("pong", WAIT)
            assert [m["type"] for m in ann.received].count("asking") == 1, "Ann was not asked again"
        else:
            await ann.expect("asking", WAIT)
            await again.close()
        assert server.tables[code].summary()["seats"][1]["status"] == "away", "the seat is still Bob's"
        await ann.close()


async def test_nobody_to_ask_is_a_refusal_at_once() -> None:
    async with running() as server:
        ann, bob = await client(server, "Ann", **V2), await client(server, "Bob", **V2)
        code = await start_table(server, [ann, bob], "big2")
        await ann.close()
        await bob.close()
        await until(lambda: all(s["status"] != "connected" for s in server.tables[code].summary()["seats"]))
        c = await hello(server, "Bob", ask=True, **V2)
        error = await refused_with(c, p.REFUSED)
        assert "token" in error["message"]


async def test_a_stranger_watching_the_table_is_never_the_one_asked() -> None:
    """Anyone may watch a table: a watcher who is neither its creator nor seated there never decides who takes a
    seat (else a stranger watching, with a friend asking by name, would let the friend into it, cards and all)."""
    async with running() as server:  # no host's own player to ask
        ann, bob = await client(server, "Ann", **V2), await client(server, "Bob", **V2)
        code = await start_table(server, [ann, bob], "big2")
        await bob.expect("snapshot", WAIT)
        await ann.close()
        await bob.close()
        await until(lambda: all(s["status"] != "connected" for s in server.tables[code].summary()["seats"]))
        mallory = await client(server, "Mallory", **V2)
        await mallory.send({"type": "spectate", "table": code})
        await mallory.expect("snapshot", WAIT)
        friend = await hello(server, "bob", ask=True, **V2)
        await refused_with(friend, p.REFUSED)
        assert all(m["type"] != "asking" for m in mallory.received), "the watcher was asked"
        assert server.tables[code].summary()["seats"][1]["status"] == "away", "the seat is still Bob's"
        await mallory.close()


async def test_a_version_1_client_that_asks_is_not_asked_for() -> None:
    async with running() as server:
        ann, _, _ = await away_table(server)
        c = await hello(server, "Bob", ask=True)  # version 1: no asking exists
        await refused_with(c, p.NAME_TAKEN)
        assert all(m["type"] != "asking" for m in ann.received)
        await ann.close()


async def test_the_host_s_own_player_is_asked_when_the_creator_is_the_one_away() -> None:
    async with running(owner="Den") as server:
        den = await client(server, "Den", **V2)  # at no table
        ann, bob = await client(server, "Ann", **V2), await client(server, "Bob", **V2)
        code = await start_table(server, [ann, bob], "big2")
        await ann.close()
        await until(lambda: server.tables[code].summary()["seats"][0]["status"] == "away")
        c = await hello(server, "Ann", ask=True, **V2)
        assert (await c.expect("waiting", WAIT))["asked"] == "Den"
        asking = await den.expect("asking", WAIT)
        assert all(m["type"] != "asking" for m in bob.received), "the owner, not another player, decides"
        await den.send({"type": "let_in", "request": asking["request"], "allow": True})
        assert (await c.expect("welcome", WAIT))["resumed"] is True
        for person in (c, bob, den):
            await person.close()


async def test_an_unanswered_request_runs_out() -> None:
    async with running(ask_timeout=0.3) as server:
        ann, _, _ = await away_table(server)
        c = await hello(server, "Bob", ask=True, **V2)
        await ann.expect("asking", WAIT)
        error = await refused_with(c, p.REFUSED)
        assert "in time" in error["message"]
        await ann.close()


async def test_an_away_player_without_a_seat_in_play_frees_the_name_at_once() -> None:
    async with running() as server:
        ann = await client(server, "Ann")
        await ann.close()
        await until(lambda: server.players["ann"].conn is None)
        again = await client(server, "Ann")
        assert again.token != ann.token
        await again.close()


async def test_after_a_restart_a_name_alone_gets_nothing_and_asking_needs_a_yes(tmp_path: Path) -> None:
    async with running(keep=tmp_path) as server:
        ann, bob = await client(server, "Ann", **V2), await client(server, "Bob", **V2)
        code = await start_table(server, [ann, bob], "big2")
        await bob.expect("snapshot", WAIT)
        ann_token = ann.token
        await ann.close()
        await bob.close()
    # (the impostor and Bob ask from one address here: no wait after the impostor's refusal)
    async with running(keep=tmp_path, ask_cooldown=0) as again:
        assert code in again.tables
        for name in ("bob", "Bob", "ＢＯＢ"):
            await refused_with(await hello(again, name), p.NAME_TAKEN)
        await refused_with(await hello(again, "Bob", ask=True, **V2), p.REFUSED)  # nobody is back to ask
        ann = await LanClient.connect("127.0.0.1", again.port)
        assert (await ann.hello("Ann", token=ann_token, **V2))["resumed"] is True
        impostor = await hello(again, "bob", ask=True, **V2)
        asking = await ann.expect("asking", WAIT)
        await ann.send({"type": "let_in", "request": asking["request"], "allow": False})
        await refused_with(impostor, p.REFUSED)
        bob = await hello(again, "Bob", ask=True, **V2)
        asking = await ann.expect("asking", WAIT)
        await ann.send({"type": "let_in", "request": asking["request"], "allow": True})
        assert (await bob.expect("welcome", WAIT))["resumed"] is True
        assert (await bob.expect("started", WAIT))["info"]["seat"] == 1
        await bob.close()
        await ann.close()


async def test_the_old_player_s_time_running_out_later_forgets_nobody_else() -> None:
    async with running() as server:
        ann = await client(server, "Ann")
        await ann.close()
        await until(lambda: server.players["ann"].conn is None)
        old = server.players["ann"]
        timers = list(old.timers)
        again = await client(server, "Ann")  # the away Ann had no seat in play: forgotten at once
        assert timers and all(timer.cancelled() for timer in timers)
        server._expire(old)  # as if her timer had fired anyway
        assert server.players["ann"].token == again.token and again.token in server.tokens
        await again.send({"type": "ping"})
        assert (await again.expect("pong", WAIT))["type"] == "pong"
        await again.close()


async def test_the_player_back_with_its_token_voids_a_request_for_its_seat() -> None:
    async with running() as server:
        ann, code, token = await away_table(server)
        asker = await hello(server, "Bob", ask=True, **V2)
        await asker.expect("waiting", WAIT)
        asking = await ann.expect("asking", WAIT)
        bob = await LanClient.connect("127.0.0.1", server.port)
        assert (await bob.hello("Bob", token=token, **V2))["resumed"] is True
        error = await refused_with(asker, p.REFUSED)
        assert "came back" in error["message"]
        await ann.send({"type": "let_in", "request": asking["request"], "allow": True})
        while (late := await ann.recv(WAIT))["type"] != "error":
            pass
        assert late["code"] == p.BAD_FIELD, "the request is over"
        assert server.tables[code].seats[1].player is server.players["bob"] and server.players["bob"].conn is not None
        await bob.close()
        await ann.close()


async def test_a_host_stopping_while_a_request_waits_refuses_it() -> None:
    async with running() as server:
        ann, _, _ = await away_table(server)
        asker = await hello(server, "Bob", ask=True, **V2)
        await asker.expect("waiting", WAIT)
        await ann.expect("asking", WAIT)
        await server.close()
        seen = await closed(asker)
        assert [m.get("code", m.get("reason")) for m in seen] in ([p.REFUSED], [p.SHUTTING_DOWN]), seen
        nothing_secret(asker)
        await asker.close()
        await ann.close()


async def test_spectating_or_resuming_sends_the_table_s_summary_once() -> None:
    async with running() as server:
        ann, code, token = await away_table(server)
        cy = await client(server, "Cy", **V2)
        await cy.send({"type": "spectate", "table": code})
        await cy.expect("snapshot", WAIT)
        assert [m["type"] for m in cy.received].count("table") == 1
        bob = await LanClient.connect("127.0.0.1", server.port)
        await bob.hello("Bob", token=token, **V2)
        await bob.expect("snapshot", WAIT)
        assert [m["type"] for m in bob.received].count("table") == 1
        for c in (ann, cy, bob):
            await c.close()
