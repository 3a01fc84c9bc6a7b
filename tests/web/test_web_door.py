"""The browser door without a browser: its cap (a page past it, and no process), the environment of a session's
process (no secret of the host's; its app asked to ask the name and the password; its errors in a log, not on the
host's screen), a closed websocket ending its
process within seconds, the host's close leaving no task and no process behind; and ``--web-port`` without the
optional dependency said in one sentence. Every wait is bounded."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
import psutil
import pytest
from conftest import GONE, ROOT, START, WAIT

from engine.lan.lan_host import HostSettings, LanHost
from engine.lan.web import MISSING, SESSION_ENV
from tui.cli import guest_command


def sessions() -> list[psutil.Process]:
    """This process's children that are browser sessions (their environment carries the gateway's marker)."""
    found = []
    for child in psutil.Process().children(recursive=True):
        try:
            if child.status() != psutil.STATUS_ZOMBIE and SESSION_ENV in child.environ():
                found.append(child)
        except psutil.Error:
            continue  # gone meanwhile
    return found


async def until(check: Any, timeout: float, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        await asyncio.sleep(0.1)  # (a poll's pause: the condition is what is waited for)


async def test_the_cap_the_environment_and_the_end_of_a_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARLOUR_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PARLOUR_HOST_PASSWORD", "the-host-secret")  # (the host's own: no session inherits it)
    monkeypatch.setenv("PARLOUR_PASSWORD", "a-join-secret")
    before = asyncio.all_tasks()
    settings = HostSettings(
        bind="127.0.0.1",
        port=0,
        name="Door",
        password="pw",
        web_port=0,
        web_max_guests=1,
        guest_command=guest_command(),
    )
    host = LanHost(settings)
    await asyncio.wait_for(host.start(), WAIT)
    web = host.web
    assert web is not None and host.web_port
    assert f"or in a browser: http://127.0.0.1:{host.web_port}/" in host.where()
    url = f"http://127.0.0.1:{host.web_port}"
    try:
        async with aiohttp.ClientSession() as client:
            async with client.get(f"{url}/") as page:
                assert page.status == 200
                assert f"ws://127.0.0.1:{host.web_port}/ws" in await page.text()
            # A page of another site may not open a session from a visitor's browser.
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect(f"{url}/ws", headers={"Origin": "http://elsewhere.example"})
            assert refused.value.status == 403 and not sessions()
            first = await client.ws_connect(f"{url}/ws?width=100&height=30", headers={"Origin": url})
            got = await asyncio.wait_for(first.receive(), START)  # the app's first output
            assert got.type == aiohttp.WSMsgType.BINARY
            await until(lambda: len(sessions()) == 1, START, "the session's process")
            env = sessions()[0].environ()
            assert env["PARLOUR_ASK"] == "name,password" and env["PARLOUR_GUEST"] == "web"
            assert "PARLOUR_HOST_PASSWORD" not in env and "PARLOUR_PASSWORD" not in env
            assert "the-host-secret" not in str(env) and "a-join-secret" not in str(env)
            # Its errors go to a log of the host's, not through textual-serve to the host's screen.
            pid = sessions()[0].pid
            assert os.readlink(f"/proc/{pid}/fd/2") == str(tmp_path / "data" / "guests" / "web" / "sessions.log")

            # Full: the page says so, and a websocket is told so in its terminal and closed, with no process.
            async with client.get(f"{url}/") as page:
                assert page.status == 503
                assert "This Parlour host is full (1 players in the browser): try again later." in await page.text()
            second = await client.ws_connect(f"{url}/ws")
            said = await asyncio.wait_for(second.receive(), WAIT)
            assert said.type == aiohttp.WSMsgType.BINARY and b"This Parlour host is full" in said.data
            closed = await asyncio.wait_for(second.receive(), WAIT)
            assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
            assert len(sessions()) == 1 and web.sessions == 1

            # The tab closes: its process is ended within seconds, and the door has room again.
            await first.close()
            await until(lambda: not sessions(), GONE, "the session's process gone")
            await until(lambda: web.sessions == 0, WAIT, "the session forgotten")
            async with client.get(f"{url}/") as page:
                assert page.status == 200
            third = await client.ws_connect(f"{url}/ws")
            await asyncio.wait_for(third.receive(), START)
            await until(lambda: len(sessions()) == 1, START, "another session's process")
    finally:
        await asyncio.wait_for(host.close(), 3 * WAIT)  # (with the third session open: close ends it)
    assert not sessions() and web.sessions == 0
    current = asyncio.current_task()
    await until(
        lambda: not {t for t in asyncio.all_tasks() - before if t is not current and not t.done()},
        WAIT,
        "every task of the host and the door finished",
    )


def test_web_port_without_textual_serve_is_one_sentence(tmp_path: Path) -> None:
    # An interpreter that sees every installed package but textual-serve: site-packages copied as links, less it.
    site = Path(aiohttp.__file__).resolve().parent.parent
    packages = tmp_path / "site"
    packages.mkdir()
    for entry in site.iterdir():
        if not entry.name.lower().startswith(("textual_serve", "textual-serve")) and entry.suffix != ".pth":
            (packages / entry.name).symlink_to(entry)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TEXTUAL_DRIVER")}
    env |= {"PYTHONPATH": os.pathsep.join([str(ROOT), str(packages)]), "PARLOUR_DATA_DIR": str(tmp_path / "data")}
    command = [sys.executable, "-S", "-m", "tui", "host", "--headless", "--bind", "127.0.0.1", "--port", "0"]
    done = subprocess.run(
        [*command, "--web-port", "0", "--no-keep"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=START
    )
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr == f"parlour: {MISSING}\n"
    assert "Traceback" not in done.stderr and done.stdout == ""
