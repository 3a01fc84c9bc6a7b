"""The SSH gateway (engine/lan/ssh.py) on 127.0.0.1, with a stub program in place of the app: the child's terminal
(size, TERM, resizes, input), sessions without a terminal, passwords and keys, the host key, what is refused (exec,
scp, SFTP, port, agent and X11 forwarding), the limits (failed logins, guests at once, idle guests, slow logins),
and that nothing outlives a session or the gateway. Every wait is bounded."""

from __future__ import annotations

import asyncio
import logging
import os
import stat
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from engine.errors import ParlourError
from engine.lan.ssh import NEEDS_PASSWORD, FailedLogins, SshGateway, SshSettings, _GuestServer, default_host_key_path
from engine.names import name_problem

WAIT = 30.0
"""The longest any single wait may take (seconds)."""

PASSWORD = "open sesame"

# The stand-in for `parlour join`: shows its pid, terminal size and TERM, shows each new size on SIGWINCH, echoes
# input lines, and exits with 3 on "quit".
STUB = r"""
import os, signal, sys

HOST_ONLY = ("SSH_AUTH_SOCK", "DISPLAY", "PARLOUR_GUEST_KEY", "PARLOUR_SSH_PASSWORD", "PARLOUR_HOST_PASSWORD")

def size():
    s = os.get_terminal_size(0)
    return f"size {s.columns}x{s.lines}"

def on_resize(signum, frame):
    os.write(1, (size() + "\n").encode())

print("pid", os.getpid(), flush=True)
print(size(), flush=True)
print("TERM", os.environ.get("TERM"), "SECRET", os.environ.get("PARLOUR_SECRET"), flush=True)
print("HOSTENV", *(f"{k}={os.environ.get(k)}" for k in HOST_ONLY), flush=True)
signal.signal(signal.SIGWINCH, on_resize)
print("ready", flush=True)
for line in sys.stdin:
    line = line.strip()
    if line == "quit":
        sys.exit(3)
    print("echo:", line, flush=True)
"""


class Commands:
    """The gateway's ``command``: the stub, and the names it was asked for (so a test can see none was), with the
    key each guest logged in with."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.keys: list[str | None] = []

    def __call__(self, username: str, key_id: str | None) -> tuple[list[str], dict[str, str]]:
        self.calls.append(username)
        self.keys.append(key_id)
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
            await asyncio.sleep(0.02)  # (a poll's pause: the condition is what is waited for)

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
        why = "Parlour needs a terminal" if how == "shell without a pty" else "Parlour runs no commands"
        message = f"{why}: connect with ssh -t -p {gw.port} bob@127.0.0.1\r\n"
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


def test_the_default_host_key_lives_in_the_data_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARLOUR_DATA_DIR", str(tmp_path / "data"))
    assert default_host_key_path() == tmp_path / "data" / "ssh_host_key"
    monkeypatch.delenv("PARLOUR_DATA_DIR")
    path = default_host_key_path()
    assert path.name == "ssh_host_key" and "parlour" in str(path).lower()


async def test_a_gateway_without_a_host_key_path_makes_it_in_the_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARLOUR_DATA_DIR", str(tmp_path / "data"))
    async with gateway(tmp_path, host_key=None) as gw, await connect(gw) as conn:
        key = conn.get_server_host_key()
        assert key is not None
    made = asyncssh.read_private_key(tmp_path / "data" / "ssh_host_key")
    assert made.get_fingerprint() == key.get_fingerprint()


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
    # (its sleep is what is tested: a child that will not end by itself; the test kills it long before)
    stubborn += "print('pid', os.getpid(), 'ready', flush=True)\ntime.sleep(60)\n"

    def command(username: str, key_id: str | None) -> tuple[list[str], dict[str, str]]:
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
    def command(username: str, key_id: str | None) -> tuple[list[str], dict[str, str]]:
        return [str(tmp_path / "no-such-program")], {}

    async with gateway(tmp_path, command) as gw, await connect(gw) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24))
        result = await asyncio.wait_for(process.wait(check=False), WAIT)
        assert result.exit_status == 127
        assert "could not start" in str(result.stdout)
        await until(lambda: gw.sessions == 0)


async def test_a_command_that_raises_ends_only_that_session(tmp_path: Path) -> None:
    def command(username: str, key_id: str | None) -> tuple[list[str], dict[str, str]]:
        raise RuntimeError("no seat for " + username)

    async with gateway(tmp_path, command) as gw, await connect(gw) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24))
        result = await asyncio.wait_for(process.wait(check=False), WAIT)
        assert result.exit_status == 1 and "could not start your session" in str(result.stderr)
        await until(lambda: gw.sessions == 0)


# -- refused: forwarding of every kind, scp, and the key a guest logged in with -----------------------------------
async def test_port_forwarding_of_every_kind_is_refused(tmp_path: Path) -> None:
    commands = Commands()
    async with gateway(tmp_path, commands) as gw, await connect(gw) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):  # direct-tcpip (ssh -L)
            await asyncio.wait_for(conn.open_connection("127.0.0.1", gw.port), WAIT)
        with pytest.raises(asyncssh.ChannelOpenError):  # direct-streamlocal (ssh -L to a socket)
            await asyncio.wait_for(conn.open_unix_connection(str(tmp_path / "socket")), WAIT)
        with pytest.raises(asyncssh.ChannelListenError):  # tcpip-forward (ssh -R)
            await asyncio.wait_for(conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", gw.port), WAIT)
        with pytest.raises(asyncssh.ChannelListenError):  # streamlocal-forward (ssh -R from a socket)
            await asyncio.wait_for(conn.forward_remote_path(str(tmp_path / "remote"), str(tmp_path / "local")), WAIT)
        assert not (tmp_path / "remote").exists()
        # The connection is still good for playing.
        process, _seen, _pid = await app_session(conn)
        process.stdin.write("quit\n")
        assert (await asyncio.wait_for(process.wait(), WAIT)).exit_status == 3
    assert commands.calls == ["ann"]


async def test_agent_forwarding_is_refused_and_no_host_secret_reaches_a_guest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The host's own agent, display and secrets, which no guest may be handed.
    for name in ("SSH_AUTH_SOCK", "DISPLAY", "PARLOUR_GUEST_KEY", "PARLOUR_SSH_PASSWORD", "PARLOUR_HOST_PASSWORD"):
        monkeypatch.setenv(name, f"host-{name}")
    asked: list[int] = []

    async def agent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        asked.append(1)
        writer.close()

    with tempfile.TemporaryDirectory() as short:  # a socket path must be short
        path = str(Path(short) / "agent")
        server = await asyncio.start_unix_server(agent, path)
        try:
            async with gateway(tmp_path) as gw:
                conn = await connect(gw, agent_forwarding=True, agent_path=path, client_keys=None)
                async with conn:
                    _process, seen, _pid = await app_session(conn)
                    line = next(line for line in "".join(seen).splitlines() if line.startswith("HOSTENV"))
                    assert line.split()[1:] == [
                        "SSH_AUTH_SOCK=None",
                        "DISPLAY=None",
                        "PARLOUR_GUEST_KEY=None",
                        "PARLOUR_SSH_PASSWORD=None",
                        "PARLOUR_HOST_PASSWORD=None",
                    ]
        finally:
            server.close()
            await server.wait_closed()
    assert asked == []


@pytest.mark.parametrize("tolerant", [False, True], ids=["required", "ignore_failure"])
async def test_x11_forwarding_is_refused(tmp_path: Path, tolerant: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISPLAY", ":99")  # the host's display: not the guest's either
    commands = Commands()
    x11: Any = "ignore_failure" if tolerant else True
    options = {"x11_forwarding": x11, "x11_display": "127.0.0.1:0", "x11_auth_path": str(tmp_path / "no-xauth")}
    async with gateway(tmp_path, commands) as gw, await connect(gw) as conn:
        if not tolerant:
            with pytest.raises(asyncssh.ChannelOpenError, match="X11"):
                await asyncio.wait_for(conn.create_process(term_type="xterm", term_size=(80, 24), **options), WAIT)
            assert commands.calls == []
            return
        process = await asyncio.wait_for(conn.create_process(term_type="xterm", term_size=(80, 24), **options), WAIT)
        out = await until_seen(process, "ready", [])
        assert "DISPLAY=None" in out
        process.stdin.write("quit\n")
        assert (await asyncio.wait_for(process.wait(), WAIT)).exit_status == 3


@pytest.mark.parametrize("direction", ["download", "upload"])
async def test_scp_is_refused(tmp_path: Path, direction: str) -> None:
    commands = Commands()
    local = tmp_path / "local.txt"
    local.write_text("a file\n")
    async with gateway(tmp_path, commands) as gw, await connect(gw) as conn:
        with pytest.raises(asyncssh.SFTPError):  # the scp command is not run: the channel ends
            if direction == "download":
                await asyncio.wait_for(asyncssh.scp((conn, "anything.txt"), str(tmp_path / "copy.txt")), WAIT)
            else:
                await asyncio.wait_for(asyncssh.scp(str(local), (conn, str(tmp_path / "uploaded.txt"))), WAIT)
    assert not (tmp_path / "copy.txt").exists() and not (tmp_path / "uploaded.txt").exists()
    assert commands.calls == []


async def test_the_command_is_told_which_key_a_guest_logged_in_with(tmp_path: Path) -> None:
    guest = asyncssh.generate_private_key("ssh-ed25519")
    other = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(guest.export_public_key())
    commands = Commands()
    async with gateway(tmp_path, commands, authorized_keys=keys) as gw:
        # A key that is not known first, then the guest's: the one they logged in with is named.
        async with await connect(gw, password=None, client_keys=[other, guest]) as conn:
            process, _seen, _pid = await app_session(conn)
            process.stdin.write("quit\n")
            await asyncio.wait_for(process.wait(), WAIT)
        # The password, with an unknown key tried first: no key.
        async with await connect(gw, client_keys=[other]) as conn:
            process, _seen, _pid = await app_session(conn)
            process.stdin.write("quit\n")
            await asyncio.wait_for(process.wait(), WAIT)
    assert commands.keys == [guest.get_fingerprint("sha256"), None]
    assert str(commands.keys[0]).startswith("SHA256:")


# -- who gets in: the words a client is told ----------------------------------------------------------------------
class Told(asyncssh.SSHClient):
    """A client that keeps the banners it is shown and answers keyboard-interactive prompts from ``answers``."""

    def __init__(self, banners: list[str], instructions: list[str], answers: list[str]) -> None:
        self.banners = banners
        self.instructions = instructions
        self.answers = answers

    def auth_banner_received(self, msg: str, lang: str) -> None:
        self.banners.append(msg)

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(
        self, name: str, instructions: str, lang: str, prompts: Sequence[tuple[str, bool]]
    ) -> list[str] | None:
        self.instructions.append(instructions)
        if not prompts:
            return []
        return [self.answers.pop(0)] if self.answers else None


async def told(
    gw: SshGateway, banners: list[str], instructions: list[str], answers: list[str], **options: Any
) -> asyncssh.SSHClientConnection:
    """Log in with a :class:`Told` client keeping what it is told in ``banners`` and ``instructions``."""
    options.setdefault("client_keys", None)
    return await connect(gw, client_factory=lambda: Told(banners, instructions, answers), **options)


async def test_a_client_that_gives_no_password_is_told_the_host_needs_one(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="parlour.ssh")
    needs = NEEDS_PASSWORD + "\r\n"
    async with gateway(tmp_path) as gw:
        # Nothing to offer at all ("none", then nothing): the banner says what is missing.
        banners: list[str] = []
        with pytest.raises(asyncssh.PermissionDenied):
            await told(gw, banners, [], [], password=None, kbdint_auth=False)
        assert banners == [needs]
        # An empty password: told again, and never that it was wrong.
        banners = []
        with pytest.raises(asyncssh.PermissionDenied):
            await told(gw, banners, [], [], password="", kbdint_auth=False)
        assert banners == [needs, needs]
        # Keyboard-interactive with empty answers: asked again, saying why; after a few, the connection closes.
        banners, instructions = [], []
        with pytest.raises(asyncssh.PermissionDenied) as caught:
            await told(gw, banners, instructions, [""] * 10, password=None)
        assert caught.value.reason == NEEDS_PASSWORD
        assert instructions == ["", NEEDS_PASSWORD, NEEDS_PASSWORD, NEEDS_PASSWORD] and banners == [needs]
    assert "no SSH password from ann" in caplog.text and "wrong" not in caplog.text
    assert not gw.failed_logins.blocked("127.0.0.1") and len(gw.failed_logins) == 0  # none is not a wrong one


async def test_keyboard_interactive_asks_again_then_lets_the_right_password_in(tmp_path: Path) -> None:
    commands = Commands()
    instructions: list[str] = []
    async with (
        gateway(tmp_path, commands) as gw,
        await told(gw, [], instructions, ["", PASSWORD], password=None) as conn,
    ):
        process, _seen, _pid = await app_session(conn)
        process.stdin.write("quit\n")
        assert (await asyncio.wait_for(process.wait(), WAIT)).exit_status == 3
    assert instructions == ["", NEEDS_PASSWORD]
    assert commands.calls == ["ann"]


@pytest.mark.parametrize("name", ["x" * 25, "   "], ids=["too long", "spaces"])
async def test_a_user_name_that_cannot_be_a_player_name_is_refused_before_any_password(
    tmp_path: Path, name: str
) -> None:
    commands = Commands()
    async with gateway(tmp_path, commands) as gw:
        with pytest.raises(asyncssh.IllegalUserName) as caught:
            await connect(gw, name)
    assert "player name" in caught.value.reason and "\n" not in caught.value.reason
    assert name_problem(name) is not None and str(name_problem(name)) in caught.value.reason
    assert commands.calls == []


async def test_a_player_name_with_spaces_around_is_the_name_trimmed(tmp_path: Path) -> None:
    commands = Commands()
    async with gateway(tmp_path, commands) as gw, await connect(gw, "Ann Lee") as conn:
        process, _seen, _pid = await app_session(conn)
        process.stdin.write("quit\n")
        await asyncio.wait_for(process.wait(), WAIT)
    assert commands.calls == ["Ann Lee"]


# -- the limits ---------------------------------------------------------------------------------------------------
def test_failed_logins_are_counted_per_address_over_a_window_and_bounded() -> None:
    now = [100.0]
    logins = FailedLogins(limit=3, window=60.0, tracked=4, clock=lambda: now[0])
    for at in (100.0, 110.0):
        now[0] = at
        logins.failed("10.0.0.1")
    assert not logins.blocked("10.0.0.1")
    now[0] = 120.0
    logins.failed("10.0.0.1")
    assert logins.blocked("10.0.0.1") and not logins.blocked("10.0.0.2")
    now[0] = 159.0
    assert logins.blocked("10.0.0.1")  # the first of the three is 59 s old
    now[0] = 160.0
    assert not logins.blocked("10.0.0.1")  # it is 60 s old: two left in the window
    logins.failed("10.0.0.1")
    assert logins.blocked("10.0.0.1")
    logins.succeeded("10.0.0.1")
    assert not logins.blocked("10.0.0.1") and len(logins) == 0
    # Never more than `tracked` addresses: the one that failed longest ago goes first.
    for number in range(10):
        now[0] += 1
        for _ in range(3):
            logins.failed(f"10.1.0.{number}")
    assert len(logins) == 4
    assert [logins.blocked(f"10.1.0.{n}") for n in (5, 6, 7, 8, 9)] == [False, True, True, True, True]
    now[0] += 60
    assert len(logins) == 0  # all of it older than the window: forgotten


class Guesser(asyncssh.SSHClient):
    """A client that tries one password after another on one connection."""

    def __init__(self, guesses: list[str], tried: list[str]) -> None:
        self.guesses = guesses
        self.tried = tried

    def password_auth_requested(self) -> str | None:
        if not self.guesses:
            return None
        self.tried.append(self.guesses.pop(0))
        return self.tried[-1]


async def test_failed_logins_are_limited_per_address(tmp_path: Path) -> None:
    commands = Commands()
    limits = {"max_failed_logins": 3, "failed_login_delay": 0.0}
    async with gateway(tmp_path, commands, **limits) as gw:
        # One connection guessing: after three wrong passwords even the right one is refused, and it is told why.
        tried: list[str] = []
        guesses = ["one", "two", "three", PASSWORD, "five"]
        with pytest.raises(asyncssh.PermissionDenied) as caught:
            await connect(
                gw, password=None, kbdint_auth=False, client_keys=None, client_factory=lambda: Guesser(guesses, tried)
            )
        assert tried == ["one", "two", "three", PASSWORD]
        assert caught.value.reason == "Too many failed logins from your address: try again in 1 minute."
        # A new connection from the same address, with the right password: refused as well.
        with pytest.raises(asyncssh.PermissionDenied, match="Too many failed logins"):
            await connect(gw)
        assert gw.failed_logins.blocked("127.0.0.1")
        # Another address is not held to it.
        async with await connect(gw, local_addr=("127.0.0.2", 0)) as conn:
            process, _seen, _pid = await app_session(conn)
            process.stdin.write("quit\n")
            await asyncio.wait_for(process.wait(), WAIT)
    assert commands.calls == ["ann"]


async def test_a_full_host_says_so_and_starts_no_child(tmp_path: Path) -> None:
    commands = Commands()
    async with gateway(tmp_path, commands, max_guests=2) as gw, await connect(gw) as conn:
        first, _seen, _pid = await app_session(conn)
        second, _seen, _pid = await app_session(conn)
        assert gw.guests == 2
        result = await asyncio.wait_for(conn.run(term_type="xterm", term_size=(80, 24)), WAIT)
        assert result.exit_status == 1
        assert "This Parlour host is full (2 guests): try again later.\r\n" in str(result.stderr) + str(result.stdout)
        assert len(commands.calls) == 2 and gw.guests == 2
        first.stdin.write("quit\n")
        await asyncio.wait_for(first.wait(), WAIT)
        await until(lambda: gw.guests == 1)
        third, _seen, _pid = await app_session(conn)  # a place again
        assert len(commands.calls) == 3
        for process in (second, third):
            process.stdin.write("quit\n")
            await asyncio.wait_for(process.wait(), WAIT)


async def test_an_idle_guest_is_told_and_their_child_ended(tmp_path: Path) -> None:
    async with gateway(tmp_path, idle_timeout=0.5) as gw, await connect(gw) as conn:
        process, _seen, pid = await app_session(conn)
        result = await asyncio.wait_for(process.wait(check=False), WAIT)
        assert "Parlour ended your session: no key pressed in 0.5 seconds.\r\n" in str(result.stderr)
        assert result.exit_signal is not None or result.exit_status != 0
        await until(lambda: not alive(pid) and gw.sessions == 0 and gw.guests == 0)


async def test_keys_keep_a_guest_from_being_idle(tmp_path: Path) -> None:
    loop = asyncio.get_running_loop()
    async with gateway(tmp_path, idle_timeout=2.0) as gw, await connect(gw) as conn:
        process, seen, pid = await app_session(conn)
        started = loop.time()
        number = 0
        while loop.time() - started < 3.0:  # longer than the timeout, a key at least every echo
            number += 1
            process.stdin.write(f"key {number}\n")
            await until_seen(process, f"echo: key {number}", seen)
        assert alive(pid) and "no key pressed" not in "".join(seen)
        result = await asyncio.wait_for(process.wait(check=False), WAIT)  # and then no more keys
        assert "no key pressed in 2 seconds" in str(result.stderr)
        await until(lambda: not alive(pid) and gw.guests == 0)


async def test_a_connection_that_does_not_log_in_is_closed(tmp_path: Path) -> None:
    async with gateway(tmp_path, login_timeout=0.5) as gw:
        reader, writer = await asyncio.open_connection("127.0.0.1", gw.port)
        try:
            version = await asyncio.wait_for(reader.readline(), WAIT)
            assert version.startswith(b"SSH-2.0-")

            async def until_closed() -> None:
                while await reader.read(65536):
                    pass

            await asyncio.wait_for(until_closed(), WAIT)  # never logged in: the gateway hangs up
        finally:
            writer.close()
        await until(lambda: not gw._connections)


def test_limits_that_make_no_sense_are_refused(tmp_path: Path) -> None:
    for field, value in [("max_guests", 0), ("idle_timeout", 0), ("max_failed_logins", 0), ("login_timeout", -1)]:
        with pytest.raises(ParlourError, match=field):
            SshGateway(SshSettings(password=PASSWORD, host_key=tmp_path / "k", **{field: value}), Commands())


async def test_a_key_offered_and_then_not_used_is_not_the_guests_identity(tmp_path: Path) -> None:
    # Whoever has a guest's public key (it is no secret) can offer it, be told it is known, and then log in with
    # the shared password: the session must not carry that guest's key. asyncssh's client always signs a key it
    # offered, so the server's callbacks are driven here in the order such a client would make them happen.
    guest = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(guest.export_public_key())
    async with gateway(tmp_path, authorized_keys=keys) as gw, await connect(gw, password=None, client_keys=[guest]):
        server = _GuestServer(gw)
        assert server.validate_public_key("ann", guest.convert_to_public())
        assert await server.validate_password("ann", PASSWORD)
        assert server._key_id is None
        assert server.validate_public_key("ann", guest.convert_to_public())
        assert not await server.validate_kbdint_response("ann", ["a guess"])
        assert server._key_id is None


async def test_close_does_not_wait_for_a_refusal_being_delayed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="parlour.ssh")
    before = asyncio.all_tasks() - {asyncio.current_task()}
    gw = SshGateway(
        SshSettings(
            bind="127.0.0.1",
            port=0,
            password=PASSWORD,
            host_key=tmp_path / "host_key",
            max_failed_logins=1,
            failed_login_delay=600.0,
        ),
        Commands(),
    )
    await gw.start()
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(gw, password="guess")
    attempt = asyncio.get_running_loop().create_task(connect(gw))
    await until(lambda: "refused: too many failed logins" in caplog.text)  # held back by the delay now
    await asyncio.wait_for(gw.close(), WAIT)
    with pytest.raises((asyncssh.Error, OSError)):
        await asyncio.wait_for(attempt, WAIT)
    await no_tasks_but(before)
