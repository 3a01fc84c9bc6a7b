"""docs/protocol.md's example session is a real one: its client lines, sent to a host started as the page says, get
exactly the host lines the page shows (the secret token aside), in the order the page shows for each kind."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from lan_helpers import WAIT

from engine.lan.server import LanServer

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def example() -> list[tuple[str, dict[str, Any]]]:
    text = DOC.read_text(encoding="utf-8")
    block = text[text.index("## An example session") :]
    block = block[block.index("```text\n") + 8 :]
    block = block[: block.index("```")]
    return [(line[:2], json.loads(line[3:])) for line in block.splitlines() if line[:3] in ("C: ", "H: ")]


def without_token(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key != "token"}


async def test_the_example_session_is_what_the_host_does() -> None:
    lines = example()
    assert len(lines) > 20
    server = LanServer(seed=7, name="Den")
    port = await server.start("127.0.0.1", 0)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        wanted = [without_token(data) for side, data in lines if side == "H:"]
        got: list[dict[str, Any]] = []

        async def read_until(count: int) -> None:
            while len(got) < count:
                line = await asyncio.wait_for(reader.readline(), WAIT)
                assert line, f"the host closed after {len(got)} of {len(wanted)} lines"
                got.append(without_token(json.loads(line)))

        before = 0
        for side, data in lines:
            if side == "H:":
                before += 1
                continue
            await read_until(before)  # each client line once the page's host lines before it have come
            writer.write(json.dumps(data).encode() + b"\n")
            await writer.drain()
        await read_until(len(wanted))
        writer.close()
        for kind in {data["type"] for data in wanted}:
            assert [d for d in got if d["type"] == kind] == [d for d in wanted if d["type"] == kind], kind
    finally:
        await asyncio.wait_for(server.close(), WAIT)
