"""``parlour host --headless`` in a subprocess: it serves on 127.0.0.1, answers a hello with a welcome, stops
cleanly on SIGTERM and on Ctrl+C (SIGINT) with status 0; a port in use is one clear sentence and status 2."""

from __future__ import annotations

import json
import os
import re
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WAIT = 20.0


def parlour(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "tui.cli", *args],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def read_port(proc: subprocess.Popen[bytes]) -> int:
    """The port from the host's 'hosting on ADDR:PORT' line on stderr (bounded)."""
    assert proc.stderr is not None
    selector = selectors.DefaultSelector()
    selector.register(proc.stderr, selectors.EVENT_READ)
    deadline = time.monotonic() + WAIT
    seen = b""
    while time.monotonic() < deadline:
        if selector.select(timeout=0.1):
            chunk = os.read(proc.stderr.fileno(), 65536)  # unbuffered: select() sees what is left
            if not chunk:
                break
            seen += chunk
            found = re.search(rb"hosting on 127\.0\.0\.1:(\d+)", seen)
            if found:
                return int(found.group(1))
    proc.kill()
    raise AssertionError(f"the host did not say where it listens: {seen!r}")


def hello(port: int, token: str | None = None) -> dict[str, object]:
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as sock:
        line = {"type": "hello", "protocol": 1, "name": "Ann"} | ({"token": token} if token else {})
        sock.sendall(json.dumps(line).encode() + b"\n")
        reader = sock.makefile("rb")
        welcome: dict[str, object] = json.loads(reader.readline())
        return welcome


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "ctrl-c"])
def test_headless_host_serves_and_stops_cleanly(stop: signal.Signals) -> None:
    proc = parlour("host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--name", "Den")
    try:
        port = read_port(proc)
        welcome = hello(port)
        assert welcome["type"] == "welcome" and welcome["host"] == "Den" and welcome["name"] == "Ann"
        # A guest still connected when the host stops.
        guest = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
        guest.sendall(b'{"type": "hello", "protocol": 1, "name": "Bob"}\n')
        assert b"welcome" in guest.makefile("rb").readline()
        proc.send_signal(stop)
        assert proc.wait(WAIT) == 0
        guest.close()
        _, err = proc.communicate(timeout=WAIT)
        assert b"Traceback" not in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(WAIT)


def test_a_port_in_use_is_one_sentence_and_status_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = parlour("host", "--headless", "--bind", "127.0.0.1", "--port", str(port))
        try:
            out, err = proc.communicate(timeout=WAIT)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 2
    lines = err.decode().strip().splitlines()
    assert lines == [f"parlour: port {port} is in use on 127.0.0.1: choose another with --port"]
    assert out == b""


def test_host_without_a_terminal_points_to_headless_with_status_2() -> None:
    proc = parlour("host", "--port", "0")
    _, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 2 and b"--headless" in err and b"Traceback" not in err


@pytest.mark.parametrize("port", ["-1", "65536", "x"])
def test_a_bad_port_is_a_usage_error(port: str) -> None:
    proc = parlour("host", "--headless", "--port", port)
    _, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 2 and b"port" in err and b"Traceback" not in err


# -- parlour join: every way of not getting in is one sentence and status 2 ------------------------------------------
def join_error(*args: str, usage: bool = False) -> str:
    """The one sentence ``parlour join ARGS`` ends with (status 2); after argparse's usage lines for a bad argument."""
    proc = parlour("join", *args)
    out, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 2, (proc.returncode, err)
    assert b"Traceback" not in err and out == b""
    lines = err.decode().strip().splitlines()
    if usage:
        assert lines[0].startswith("usage: parlour join"), lines
        lines = [line for line in lines if not line.startswith(("usage:", " "))]
    assert len(lines) == 1, lines
    return lines[0]


@pytest.fixture
def headless_host() -> Iterator[int]:
    proc = parlour("host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--password", "pw", "--name", "Den")
    try:
        yield read_port(proc)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=WAIT)


def test_join_a_host_that_does_not_answer() -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    line = join_error(f"127.0.0.1:{port}", "--name", "Ann")
    assert line == f"parlour: cannot reach the host at 127.0.0.1:{port} (connection refused)"


def test_join_with_a_wrong_or_missing_password(headless_host: int) -> None:
    assert join_error(f"127.0.0.1:{headless_host}", "--password", "nope") == (
        f"parlour: cannot join 127.0.0.1:{headless_host}: wrong password"
    )
    assert "this host needs a password" in join_error(f"127.0.0.1:{headless_host}")


def test_join_a_host_of_another_protocol_version() -> None:
    """A fake host that answers every hello as a host of protocol 2 would."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]

        def answer() -> None:
            conn, _ = listener.accept()
            with conn:
                conn.makefile("rb").readline()
                refusal = {"type": "error", "code": "protocol_version", "message": "this host speaks protocol 2, not 1"}
                conn.sendall(json.dumps(refusal).encode() + b"\n")

        thread = threading.Thread(target=answer, daemon=True)
        thread.start()
        line = join_error(f"127.0.0.1:{port}", "--name", "Ann")
        thread.join(WAIT)
    assert line == f"parlour: cannot join 127.0.0.1:{port}: this host speaks protocol 2, not 1"


def test_join_an_unknown_table_or_a_bad_address(headless_host: int) -> None:
    address = f"127.0.0.1:{headless_host}"
    assert join_error(address, "--password", "pw", "--table", "zzzz") == (
        f"parlour: the host at {address} has no table ZZZZ"
    )
    assert "a table code is four letters" in join_error(address, "--table", "12", usage=True)
    assert "not HOST[:PORT]" in join_error("a b:7777", usage=True)
    assert "port" in join_error("127.0.0.1:99999", usage=True)


def test_join_without_a_terminal(headless_host: int) -> None:
    line = join_error(f"127.0.0.1:{headless_host}", "--password", "pw")
    assert line.startswith("parlour: the game needs a terminal")


def test_a_restarted_headless_host_offers_its_tables_again() -> None:
    """A table in play when the host stopped is offered again by the next ``parlour host`` on this machine (the
    same data directory: the tests' own, from conftest), and its player comes back with the token."""
    import asyncio

    from engine.lan.client import LanClient
    from engine.lan.server import LanServer
    from engine.records.paths import host_dir

    async def make_table() -> tuple[str, str]:
        server = LanServer(keep=host_dir())
        await server.start("127.0.0.1", 0)
        ann = await LanClient.connect("127.0.0.1", server.port)
        await ann.hello("Ann")
        assert ann.token is not None
        await ann.send({"type": "create", "game": "big2", "players": 4, "bots": [None, "easy", "easy", "easy"]})
        code = str((await ann.expect("table", WAIT))["table"]["code"])
        await ann.send({"type": "start"})
        await ann.expect("started", WAIT)
        await server.close()
        await ann.close()
        return code, ann.token

    code, token = asyncio.run(make_table())
    proc = parlour("host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--name", "Den")
    try:
        port = read_port(proc)
        assert hello(port)["code"] == "name_taken", "a name alone never opens a seat in play"
        welcome = hello(port, token)
        assert welcome["resumed"] is True and welcome["table"] == code and welcome["name"] == "Ann"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=WAIT)
        assert proc.returncode == 0
        assert b"Traceback" not in err
        assert (host_dir() / f"{code}.jsonl").is_file(), "still kept: the match is not over"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(WAIT)
