"""Two LAN hosts with one data directory never share their tables' journals (issue 26, point 2).

A child process runs a host keeping its tables in a directory, with a table in play (a person and two bots). A
second host, in the test's process, is asked to keep its tables in the same directory while the first runs: it
claims ``host-2`` instead, neither offers nor rewrites the first's live journal, and keeps its own table there.
When the first stops (its table kept), the next host to start takes the directory and offers that table again.
Both hosts listen on 127.0.0.1 only."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from engine.lan.client import LanClient
from engine.lan.server import LanServer
from engine.records.paths import HOST_LOCK, claim_tables_dir, host_dir

WAIT = 30.0

FIRST_HOST = textwrap.dedent(
    """
    import asyncio, sys
    from pathlib import Path
    from engine.lan.client import LanClient
    from engine.lan.server import LanServer

    async def main():
        server = LanServer(seed=3, keep=Path(sys.argv[1]))
        port = await server.start("127.0.0.1", 0)
        ann = await LanClient.connect("127.0.0.1", port)
        await ann.hello("Ann")
        await ann.send({"type": "create", "game": "screw", "players": 3, "bots": [None, "easy", "easy"]})
        table = (await ann.expect("table", 30))["table"]
        await ann.send({"type": "start"})
        while table["state"] != "playing":
            table = (await ann.expect("table", 30))["table"]
        assert server.saved()
        print(table["code"], server.keep, flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # until the test says stop
        await ann.close()
        await asyncio.wait_for(server.close(), 30)
        print("stopped", flush=True)

    asyncio.run(main())
    """
)


async def own_table(server: LanServer, name: str) -> str:
    person = await LanClient.connect("127.0.0.1", server.port)
    try:
        await person.hello(name)
        await person.send({"type": "create", "game": "screw", "players": 3, "bots": [None, "easy", "easy"]})
        table: dict[str, Any] = (await person.expect("table", WAIT))["table"]
        await person.send({"type": "start"})
        while table["state"] != "playing":
            table = (await person.expect("table", WAIT))["table"]
        assert server.saved()
        return str(table["code"])
    finally:
        await person.close()


async def test_a_second_host_with_the_same_data_directory_keeps_its_tables_apart() -> None:
    keep = host_dir()
    first = subprocess.Popen(
        [sys.executable, "-c", FIRST_HOST, str(keep)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    try:
        assert first.stdout is not None and first.stdin is not None
        line = await asyncio.wait_for(asyncio.to_thread(first.stdout.readline), WAIT)
        code, where = line.split()
        assert Path(where) == keep
        journal = keep / f"{code}.jsonl"
        live = journal.read_bytes()
        assert live

        second = LanServer(seed=4, keep=keep)
        await second.start("127.0.0.1", 0)
        try:
            assert second.keep == keep.with_name("host-2")
            assert code not in second.tables and second.problems == []  # the first's live table is not taken
            assert journal.read_bytes() == live  # nor written to
            mine = await own_table(second, "Ben")
            assert (second.keep / f"{mine}.jsonl").is_file() and not (keep / f"{mine}.jsonl").exists()
        finally:
            await asyncio.wait_for(second.close(), WAIT)
        assert journal.read_bytes() == live

        first.stdin.write("stop\n")
        first.stdin.flush()
        said = await asyncio.wait_for(asyncio.to_thread(first.stdout.readline), WAIT)
        assert said.strip() == "stopped"
    finally:
        if first.poll() is None:
            first.kill()
        first.wait(WAIT)
    assert journal.is_file(), "the first host's table is kept when it stops"

    again = LanServer(seed=5, keep=keep)  # the next host: the first's directory is free, its table offered again
    await again.start("127.0.0.1", 0)
    try:
        assert again.keep == keep and code in again.tables
    finally:
        await asyncio.wait_for(again.close(), WAIT)


def test_a_claimed_directory_is_let_go_and_claimed_again() -> None:
    keep = host_dir()
    one = claim_tables_dir(keep)
    two = claim_tables_dir(keep)  # (another open file, as another process's: the lock is per open file)
    try:
        assert (one.path, two.path) == (keep, keep.with_name("host-2"))
        assert (keep / HOST_LOCK).is_file() and one.handle is not None and two.handle is not None
    finally:
        one.release()
        two.release()
    (keep.with_name("host-2") / "ABCD.jsonl").write_text("{}\n")  # tables left waiting in host-2 ...
    three = claim_tables_dir(keep)
    try:
        assert three.path == keep.with_name("host-2")  # ... are claimed first, to be offered again
    finally:
        three.release()
