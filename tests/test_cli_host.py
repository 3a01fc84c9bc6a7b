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
import time
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


def hello(port: int) -> dict[str, object]:
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as sock:
        sock.sendall(b'{"type": "hello", "protocol": 1, "name": "Ann"}\n')
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


def test_host_without_headless_is_refused_with_status_2() -> None:
    proc = parlour("host", "--port", "0")
    _, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 2 and b"--headless" in err and b"Traceback" not in err


@pytest.mark.parametrize("port", ["-1", "65536", "x"])
def test_a_bad_port_is_a_usage_error(port: str) -> None:
    proc = parlour("host", "--headless", "--port", port)
    _, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 2 and b"port" in err and b"Traceback" not in err
