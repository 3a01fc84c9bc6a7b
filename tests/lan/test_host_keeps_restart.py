"""A host that keeps its tables, whichever way it stops (issue 25, point 2): told ``restarting`` as it stops while it
keeps tables in play (``shutting_down`` when it keeps none, or ends them); a real ``parlour host --headless``
stopped by SIGTERM, by Ctrl+C (SIGINT) or killed with SIGKILL offers its table again at its next start, exactly
where it was, its player back with the token."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from lan_helpers import WAIT, client, running, start_table, until

from engine.lan.client import LanClient

ROOT = Path(__file__).resolve().parent.parent.parent


async def my_turn(c: LanClient) -> dict[str, Any]:
    while True:
        snap = (await c.expect("snapshot", WAIT))["snapshot"]
        if snap["legal"]:
            return dict(snap)


async def test_a_host_that_keeps_tables_in_play_says_restarting_to_everybody(tmp_path: Path) -> None:
    async with running(keep=tmp_path, seed=3) as server:
        ann, watcher = await client(server, "Ann"), await client(server, "Lou")  # Lou: in the lobby only
        code = await start_table(server, [ann], "screw")
        assert server.kept_tables() == [code]
        await server.close()
        for c in (ann, watcher):
            bye = await c.expect("bye", WAIT)
            assert bye["reason"] == "restarting"
            await c.close()
    assert (tmp_path / f"{code}.jsonl").is_file()


async def test_a_host_that_keeps_nothing_or_ends_its_tables_says_shutting_down(tmp_path: Path) -> None:
    async with running() as server:  # --no-keep
        ann = await client(server, "Ann")
        await start_table(server, [ann], "screw")
        assert server.kept_tables() == []
        await server.close()
        assert (await ann.expect("bye", WAIT))["reason"] == "shutting_down"
        await ann.close()
    async with running(keep=tmp_path) as server:
        ann = await client(server, "Ann")
        code = await start_table(server, [ann], "screw")
        assert server.saved() and (tmp_path / f"{code}.jsonl").is_file()
        await server.close(end_tables=True)
        assert (await ann.expect("bye", WAIT))["reason"] == "shutting_down"
        await ann.close()
    assert not (tmp_path / f"{code}.jsonl").exists(), "ended: nothing to offer again"


async def test_a_player_saying_bye_as_the_host_stops_does_not_lose_the_table(tmp_path: Path) -> None:
    """A client that answers the host's bye with its own (or leaves) while the host stops: the table stays kept."""
    async with running(keep=tmp_path) as server:
        ann = await client(server, "Ann")
        code = await start_table(server, [ann], "screw")
        closing = asyncio.ensure_future(server.close())
        await ann.send({"type": "bye"})
        await closing
        await ann.close()
    assert (tmp_path / f"{code}.jsonl").is_file()
    async with running(keep=tmp_path) as again:
        assert code in again.tables


# -- a real parlour host --headless, stopped three ways ----------------------------------------------------------------
def start_host(data: Path) -> tuple[subprocess.Popen[bytes], int]:
    env = {**os.environ, "PARLOUR_DATA_DIR": str(data)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tui", "host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--name", "Den"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    seen = b""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        seen += line
        found = re.search(rb"hosting on 127\.0\.0\.1:(\d+)", line)
        if found:
            return proc, int(found.group(1))
    proc.kill()
    raise AssertionError(f"the host did not start: {seen!r}")


def journal_lines(path: Path) -> int:
    """The complete lines of a journal (0 when there is none yet)."""
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL], ids=["sigterm", "ctrl-c", "kill-9"])
async def test_a_headless_host_offers_its_table_again_whichever_way_it_stopped(
    stop: signal.Signals, tmp_path: Path
) -> None:
    proc, port = start_host(tmp_path)
    try:
        ann = await LanClient.connect("127.0.0.1", port)
        await ann.hello("Ann")
        token = ann.token
        await ann.send({"type": "create", "game": "big2", "players": 4, "bots": [None, "easy", "easy", "easy"]})
        code = str((await ann.expect("table", WAIT))["table"]["code"])
        await ann.send({"type": "start"})
        snap = await my_turn(ann)
        await ann.send({"type": "act", "action": snap["legal"][-1], "version": snap["version"]})
        snap = await my_turn(ann)  # the bots have played round to Ann again
        journal = tmp_path / "host" / f"{code}.jsonl"
        await until(lambda: journal_lines(journal) == 1 + snap["version"], timeout=WAIT)  # the set-up, each move
        proc.send_signal(stop)
        if stop != signal.SIGKILL:
            assert (await ann.expect("bye", WAIT))["reason"] == "restarting"
        _, err = await asyncio.to_thread(proc.communicate, timeout=WAIT)
        assert proc.returncode == (-signal.SIGKILL if stop == signal.SIGKILL else 0)
        assert b"Traceback" not in err
        await ann.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(WAIT)
    proc, port = start_host(tmp_path)
    try:
        ann = await LanClient.connect("127.0.0.1", port)
        welcome = await ann.hello("Ann", token=token)
        assert welcome["resumed"] is True and welcome["table"] == code
        resumed = await my_turn(ann)
        assert resumed["version"] == snap["version"] and resumed["view"] == snap["view"], "exactly where it was"
        await ann.close()
        proc.send_signal(signal.SIGTERM)
        await asyncio.to_thread(proc.communicate, timeout=WAIT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(WAIT)
