"""The SSH gateway (tui/ssh.py) on 127.0.0.1, with a stub program in place of the app: the child's terminal (size,
TERM, resizes, input), sessions without a terminal, passwords and keys, the host key, and that nothing outlives a
session or the gateway. Every wait is bounded."""

from __future__ import annotations

import asyncio
import os
import stat
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from engine.errors import ParlourError
from engine.lan.ssh import SshGateway, SshSettings, default_host_key_path

WAIT = 5.0
"""The longest any single wait may take (seconds)."""

PASSWORD = "open sesame"

# The stand-in for `parlour join`: shows its pid, terminal size and TERM, shows each new size on SIGWINCH, echoes
# input lines, and exits with 3 on "quit".
STUB = r"""
import os, signal, sys

def size():
    s = os.get_terminal_size(0)
    return f"size {s.columns}x{s.lines}"

def on_resize(signum, frame):
    os.write(1, (size() + "\n").encode())

print("pid", os.getpid(), flush=True)
print(size(), flush=True)
print("TERM", os.environ.get("TERM"), "SECRET", os.environ.get("PARLOUR_SECRET"), flush=True)
signal.signal(signal.SIGWINCH, on_resize)
print("ready", flush=True)
for line in sys.stdin:
    line = line.strip()
    if line == "quit":
        sys.exit(3)
    print("echo:", line, flush=True)
"""


class Commands:
    """The gateway's ``command``: the stub, and the names it was asked for (so a test can see none was)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, username: str) -> tuple[list[str], dict[str, str]]:
        self.calls.append(username)
        return [sys.executable, "-c", STUB], {"PARLOUR_SECRET": f"for-{username}"}


@asynccontextmanager
async def gateway(tmp_path: Path, commands: Callable[[str], Any] | None = None, **settings: Any) -> AsyncIterator[Any]:
    """A started gateway on 127.0.0.1 and a free port, closed (bounded) at the end."""
    settings.setdefault("password", PASSWORD)
    settings.setdefault("host_key", tmp_path / "keys" / "host_key")
    gw = SshGateway(SshSettings(bind="127.0.0.1", port=0, **settings), commands or Commands())
    port = await asyncio.wait_for(gw.start(), WAIT)
    assert port > 0
    try:
        yield gw
    finally:
        await asyncio.wait_for(gw.close(), WAIT)


async def connect(gw: SshGateway, username: str = "ann", **options: Any) -> asyncssh.SSHClientConnection:
    options.setdefault("password", PASSWORD)
    return await asyncio.wait_for(
        asyncssh.connect("127.0.0.1", gw.port, username=username, known_hosts=None, **options), WAIT
    )


async def until_seen(process: asyncssh.SSHClientProcess[str], text: str, seen: list[str]) -> str:
    """Read the process's output into ``seen`` until ``text`` is in it; all of it so far."""

    async def read() -> str:
        while text not in "".join(seen):
            chunk = await process.stdout.read(4096)
            if not chunk:
                raise AssertionError(f"output ended before {text!r}: {''.join(seen)!r}")
            seen.append(chunk)
        return "".join(seen)

    return await asyncio.wait_for(read(), WAIT)


async def until(check: Callable[[], bool]) -> None:
    async def poll() -> None:
        while not check():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(poll(), WAIT)


def alive(pid: int) -> bool:
    """Whether ``pid`` exists (a zombie counts: it has not been reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def app_session(conn: asyncssh.SSHClientConnection) -> tuple[asyncssh.SSHClientProcess[str], list[str], int]:
    """A shell on an 80x24 pty, once the stub is ready: the process, its output so far, the stub's pid."""
    process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24))
    seen: list[str] = []
    out = await until_seen(process, "ready", seen)
    pid = int(out.split("pid", 1)[1].split()[0])
    return process, seen, pid


# ---------------------------------------------------------------------------------------------------------------
async def test_the_child_gets_a_terminal_resizes_and_input(tmp_path: Path) -> None:
    commands = Commands()
    async with gateway(tmp_path, commands) as gw:
        async with await connect(gw) as conn:
            process, seen, pid = await app_session(conn)
            assert commands.calls == ["ann"] and gw.sessions == 1
            out = "".join(seen)
            assert "size 80x24" in out and "TERM xterm-256color SECRET for-ann" in out
            process.change_terminal_size(100, 30)
            await until_seen(process, "size 100x30", seen)
            process.stdin.write("hello there\n")
            await until_seen(process, "echo: hello there", seen)
            process.stdin.write("quit\n")
            result = await asyncio.wait_for(process.wait(), WAIT)
            assert result.exit_status == 3
            await until(lambda: not alive(pid) and gw.sessions == 0)


async def test_a_terminal_type_is_passed_on(tmp_path: Path) -> None:
    async with gateway(tmp_path) as gw, await connect(gw) as conn:
        process = await conn.create_process(term_type="vt100", term_size=(132, 43))
        out = await until_seen(process, "ready", [])
        assert "size 132x43" in out and "TERM vt100" in out
        process.stdin.write("quit\n")
        assert (await asyncio.wait_for(process.wait(), WAIT)).exit_status == 3


@pytest.mark.parametrize("how", ["exec", "shell without a pty", "exec with a pty"])
async def test_a_session_without_a_terminal_is_told_how_to_connect(tmp_path: Path, how: str) -> None:
    commands = Commands()
    async with gateway(tmp_path, commands) as gw, await connect(gw, "bob") as conn:
        if how == "exec":
            result = await asyncio.wait_for(conn.run("anything"), WAIT)
        elif how == "shell without a pty":
            result = await asyncio.wait_for((await conn.create_process()).wait(), WAIT)
        else:
            result = await asyncio.wait_for(conn.run("anything", term_type="xterm", term_size=(80, 24)), WAIT)
        assert result.exit_status == 1
        message = f"Parlour needs a terminal: connect with ssh -t -p {gw.port} bob@127.0.0.1\r\n"
        assert message in str(result.stderr) + str(result.stdout)
        assert commands.calls == []


async def test_sftp_and_forwarding_are_refused(tmp_path: Path) -> None:
    async with gateway(tmp_path) as gw, await connect(gw) as conn:
        with pytest.raises((asyncssh.SFTPError, asyncssh.ChannelOpenError)):
            await asyncio.wait_for(conn.start_sftp_client(), WAIT)
        with pytest.raises(asyncssh.ChannelOpenError):
            await asyncio.wait_for(conn.open_connection("127.0.0.1", gw.port), WAIT)


# -- who gets in ------------------------------------------------------------------------------------------------
async def test_a_wrong_password_is_refused(tmp_path: Path) -> None:
    async with gateway(tmp_path) as gw:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(gw, password="guess")
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(gw, password="")
        assert gw.sessions == 0


async def test_key_login_from_an_authorized_keys_file(tmp_path: Path) -> None:
    guest = asyncssh.generate_private_key("ssh-ed25519")
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(guest.export_public_key())
    async with gateway(tmp_path, password=None, authorized_keys=keys) as gw:
        async with await connect(gw, password=None, client_keys=[guest]) as conn:
            process, _seen, _pid = await app_session(conn)
            process.stdin.write("quit\n")
            assert (await asyncio.wait_for(process.wait(), WAIT)).exit_status == 3
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(gw, password=None, client_keys=[stranger])
        with pytest.raises(asyncssh.PermissionDenied):  # no password method is offered at all
            await connect(gw, password=PASSWORD, client_keys=None)


def test_a_gateway_with_no_way_in_refuses_to_be_made(tmp_path: Path) -> None:
    for password in (None, ""):
        with pytest.raises(ParlourError, match="password or an authorized_keys file"):
            SshGateway(SshSettings(password=password, host_key=tmp_path / "k"), Commands())


async def test_an_unreadable_authorized_keys_file_is_one_clear_error(tmp_path: Path) -> None:
    keys = tmp_path / "missing_keys"
    gw = SshGateway(SshSettings(bind="127.0.0.1", port=0, authorized_keys=keys, host_key=tmp_path / "k"), Commands())
    with pytest.raises(ParlourError, match="missing_keys"):
        await gw.start()


# -- the host key -----------------------------------------------------------------------------------------------
async def test_the_host_key_is_made_once_and_reused(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "dir" / "host_key"
    fingerprints = []
    for _ in range(2):
        async with gateway(tmp_path, host_key=path) as gw, await connect(gw) as conn:
            key = conn.get_server_host_key()
            assert key is not None
            fingerprints.append(key.get_fingerprint())
        if len(fingerprints) == 1:
            content = path.read_bytes()
            assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert fingerprints[0] == fingerprints[1]
    assert path.read_bytes() == content


async def test_a_corrupt_host_key_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "broken_host_key"
    path.write_text("this is not a key\n")
    gw = SshGateway(SshSettings(bind="127.0.0.1", port=0, password=PASSWORD, host_key=path), Commands())
    with pytest.raises(ParlourError, match="broken_host_key") as caught:
        await gw.start()
    assert "\n" not in str(caught.value)
    assert path.read_text() == "this is not a key\n"  # left for the user to look at, not replaced


def test_the_default_host_key_lives_in_the_user_data_directory() -> None:
    path = default_host_key_path()
    assert path.name == "ssh_host_key" and "parlour" in str(path).lower()


async def test_a_port_in_use_is_an_os_error(tmp_path: Path) -> None:
    async with gateway(tmp_path) as gw:
        other = SshGateway(
            SshSettings(bind="127.0.0.1", port=gw.port, password=PASSWORD, host_key=tmp_path / "keys" / "host_key"),
            Commands(),
        )
        with pytest.raises(OSError):
            await other.start()


# -- nothing left behind ----------------------------------------------------------------------------------------
async def no_tasks_but(before: set[asyncio.Task[Any]]) -> None:
    """Wait until the only tasks left are ``before`` (taken at the test's start), the test's own and the poll's."""
    ours = {asyncio.current_task()}

    def left() -> set[asyncio.Task[Any]]:
        return {task for task in asyncio.all_tasks() if task not in ours and task is not asyncio.current_task()}

    await until(lambda: left() <= before)


async def test_a_guest_who_goes_leaves_no_child_and_close_leaves_no_task(tmp_path: Path) -> None:
    before = asyncio.all_tasks() - {asyncio.current_task()}
    gw = SshGateway(
        SshSettings(bind="127.0.0.1", port=0, password=PASSWORD, host_key=tmp_path / "host_key"), Commands()
    )
    await gw.start()
    conn = await connect(gw)
    _process, _seen, pid = await app_session(conn)
    assert alive(pid)
    conn.close()
    await asyncio.wait_for(conn.wait_closed(), WAIT)
    await until(lambda: not alive(pid))  # hung up and reaped: not even a zombie
    await until(lambda: gw.sessions == 0)
    await asyncio.wait_for(gw.close(), WAIT)
    await no_tasks_but(before)


async def test_close_ends_a_connected_session_and_its_child(tmp_path: Path) -> None:
    before = asyncio.all_tasks() - {asyncio.current_task()}
    gw = SshGateway(
        SshSettings(bind="127.0.0.1", port=0, password=PASSWORD, host_key=tmp_path / "host_key"), Commands()
    )
    await gw.start()
    conn = await connect(gw)
    process, _seen, pid = await app_session(conn)
    await asyncio.wait_for(gw.close(), WAIT)
    assert not alive(pid) and gw.sessions == 0
    result = await asyncio.wait_for(process.wait(check=False), WAIT)
    assert result.exit_signal is not None or result.exit_status != 0
    await asyncio.wait_for(conn.wait_closed(), WAIT)
    await no_tasks_but(before)
    with pytest.raises((OSError, asyncssh.Error)):
        await connect(gw)


async def test_a_child_that_ignores_the_hang_up_is_killed(tmp_path: Path) -> None:
    stubborn = "import os, signal, time\nfor s in (signal.SIGHUP, signal.SIGTERM): signal.signal(s, signal.SIG_IGN)\n"
    stubborn += "print('pid', os.getpid(), 'ready', flush=True)\ntime.sleep(60)\n"

    def command(username: str) -> tuple[list[str], dict[str, str]]:
        return [sys.executable, "-c", stubborn], {}

    gw = SshGateway(SshSettings(bind="127.0.0.1", port=0, password=PASSWORD, host_key=tmp_path / "host_key"), command)
    await gw.start()
    conn = await connect(gw)
    _process, _seen, pid = await app_session(conn)
    await asyncio.wait_for(gw.close(), WAIT)
    assert not alive(pid)
    conn.close()
    await asyncio.wait_for(conn.wait_closed(), WAIT)


async def test_a_command_that_does_not_exist_ends_the_session(tmp_path: Path) -> None:
    def command(username: str) -> tuple[list[str], dict[str, str]]:
        return [str(tmp_path / "no-such-program")], {}

    async with gateway(tmp_path, command) as gw, await connect(gw) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24))
        result = await asyncio.wait_for(process.wait(check=False), WAIT)
        assert result.exit_status == 127
        assert "could not start" in str(result.stdout)
        await until(lambda: gw.sessions == 0)


async def test_a_command_that_raises_ends_only_that_session(tmp_path: Path) -> None:
    def command(username: str) -> tuple[list[str], dict[str, str]]:
        raise RuntimeError("no seat for " + username)

    async with gateway(tmp_path, command) as gw, await connect(gw) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24))
        result = await asyncio.wait_for(process.wait(check=False), WAIT)
        assert result.exit_status == 1 and "could not start your session" in str(result.stderr)
        await until(lambda: gw.sessions == 0)
