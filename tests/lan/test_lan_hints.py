"""Hints at a LAN table (real sockets on 127.0.0.1): a table offers them only when its creator allowed them. Without
hints the host refuses a ``hint`` with ``no_hints`` and a clear sentence; with them it answers the move and its
reason (the codec's ``Hint``); a spectator never gets one. The same through a :class:`NetworkSession`. Every wait is
bounded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lan_helpers import WAIT, ServerThread, client, running, start_table

from engine import codec
from engine.errors import ParlourError
from engine.hints import Hint
from engine.lan import protocol as p
from engine.lan.client import LanClient
from engine.lan.remote_session import NetworkSession


async def my_turn(c: LanClient) -> dict[str, Any]:
    """The snapshot that asks this seat to act (asked for first: the one that came with the start may be read
    already)."""
    await c.send({"type": "snapshot"})
    while not (prompt := await c.expect("snapshot", WAIT))["snapshot"]["legal"]:
        pass
    return prompt


async def test_a_table_made_without_hints_refuses_them() -> None:
    async with running() as server:
        ann = await client(server, "Ann")
        code = await start_table(server, [ann], "screw", bots=[None, "easy", "easy", "easy"])
        assert server.tables[code].summary()["hints"] is False
        await my_turn(ann)
        await ann.send({"type": "hint"})
        refused = await ann.expect("error", WAIT)
        assert refused["code"] == p.NO_HINTS and refused["reply_to"] == "hint"
        assert "without hints" in refused["message"]
        await ann.close()


async def test_a_table_with_hints_serves_the_move_and_its_reason() -> None:
    async with running() as server:
        ann, eve = await client(server, "Ann"), await client(server, "Eve")
        code = await start_table(
            server, [ann], "screw", bots=[None, "easy", "easy", "easy"], spectators=[eve], hints=True
        )
        assert server.tables[code].summary()["hints"] is True
        prompt = await my_turn(ann)
        await ann.send({"type": "hint"})
        answer = await ann.expect("hint", WAIT)
        hint = codec.decode(answer["hint"])
        assert isinstance(hint, Hint)
        assert answer["action"] in prompt["snapshot"]["legal"] and answer["text"] in prompt["texts"]
        assert codec.decode(answer["action"]) == hint.action
        assert answer["reason"] == hint.reason
        # A sentence that starts with the move in words and names the card the seat holds.
        mine = dict(codec.decode(prompt["snapshot"]).view.known)[0]
        assert hint.reason.split(":")[0] in ("Stay", "Trade with the player on your left", "Swap with the deck")
        assert mine.pretty() in hint.reason
        # A spectator of that table gets none.
        started = await eve.expect("started", WAIT)
        assert codec.decode(started["info"]).hints is False  # (a spectator's info: never hints)
        await eve.send({"type": "hint"})
        refused = await eve.expect("error", WAIT)
        assert refused["code"] == p.NO_HINTS and "spectator" in refused["message"]
        await ann.close()
        await eve.close()


@pytest.mark.parametrize("hints", [False, True], ids=["without", "with"])
def test_a_network_session_says_whether_it_may_ask(hints: bool) -> None:
    server = ServerThread()
    session = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    try:
        session.create("screw", 3, bots=[None, "easy", "easy"], hints=hints)
        session.start()
        session.wait_started(WAIT)
        assert session.info.hints is hints
        snap = session.snapshot()
        for _ in range(1000):  # (the bots before this seat play on the host's thread: each sync a round trip)
            if snap.legal:
                break
            session.sync()
            snap = session.snapshot()
        assert snap.legal
        if not hints:
            with pytest.raises(ParlourError, match="without hints"):
                session.hint()
            return
        hint = session.hint()
        assert hint is not None and hint.action in snap.legal and hint.reason
    finally:
        session.close()
        server.stop()


async def test_a_table_kept_across_a_restart_keeps_its_hints(tmp_path: Path) -> None:
    async with running(keep=tmp_path, seed=3) as server:
        ann, bob = await client(server, "Ann"), await client(server, "Bob")
        with_hints = await start_table(server, [ann], "screw", bots=[None, "easy", "easy", "easy"], hints=True)
        without = await start_table(server, [bob], "screw", bots=[None, "easy", "easy", "easy"])
        assert server.saved()
        await ann.close()
        await bob.close()
    async with running(keep=tmp_path, seed=4) as again:
        assert again.problems == []
        assert again.tables[with_hints].summary()["hints"] is True
        assert again.tables[without].summary()["hints"] is False
