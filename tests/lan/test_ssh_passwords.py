"""Where ``parlour host`` takes its passwords from: the flag, a file's first line, or PARLOUR_HOST_PASSWORD /
PARLOUR_SSH_PASSWORD; a file that cannot be used is one sentence and status 2. End to end, a headless host whose
passwords come from a file and from the environment lets in the right password (LAN and SSH) and has neither on
its command line. Every wait is bounded."""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import selectors
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import asyncssh
import pytest

from engine.errors import OptionError, ParlourError
from engine.lan.remote_session import NetworkSession
from engine.lan.secrets_input import HOST_PASSWORD_ENV, SSH_PASSWORD_ENV, password_from, read_password_file
from tui.cli import _host_passwords, build_parser

ROOT = Path(__file__).resolve().parents[2]
WAIT = 20.0


# -- the file and the order -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"open sesame\n", "open sesame"),
        (b"open sesame", "open sesame"),
        (b"crlf\r\nsecond line\r\n", "crlf"),
        (b" spaces kept \n", " spaces kept "),
        ("pâte brisée\n".encode(), "pâte brisée"),
    ],
)
def test_a_password_file_gives_its_first_line(tmp_path: Path, content: bytes, expected: str) -> None:
    path = tmp_path / "password"
    path.write_bytes(content)
    assert read_password_file(path, "--password-file") == expected


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "cannot read"),
        (b"", "is empty"),
        (b"\nsecond line\n", "is empty"),
        (b"\xff\xfe\n", "not UTF-8"),
    ],
    ids=["missing", "empty", "empty first line", "not text"],
)
def test_a_password_file_that_cannot_be_used_is_one_sentence(
    tmp_path: Path, content: bytes | None, problem: str
) -> None:
    path = tmp_path / "password"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(OptionError) as caught:
        read_password_file(path, "--ssh-password-file")
    message = str(caught.value)
    assert message.startswith("--ssh-password-file: ") and problem in message and str(path) in message
    assert "\n" not in message


def test_a_directory_is_no_password_file(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="cannot read"):
        read_password_file(tmp_path, "--password-file")


def test_the_flag_comes_first_then_the_file_then_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "password"
    path.write_text("from the file\n")
    monkeypatch.setenv(HOST_PASSWORD_ENV, "from the environment")
    assert password_from("typed", path, "--password-file", HOST_PASSWORD_ENV) == "typed"
    assert password_from(None, path, "--password-file", HOST_PASSWORD_ENV) == "from the file"
    assert password_from(None, None, "--password-file", HOST_PASSWORD_ENV) == "from the environment"
    monkeypatch.setenv(HOST_PASSWORD_ENV, "")
    assert password_from(None, None, "--password-file", HOST_PASSWORD_ENV) is None
    monkeypatch.delenv(HOST_PASSWORD_ENV)
    assert password_from(None, None, "--password-file", HOST_PASSWORD_ENV) is None


def host_args(*words: str) -> argparse.Namespace:
    return build_parser("host").parse_args(["host", *words])


def test_host_passwords_from_flags_files_and_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(HOST_PASSWORD_ENV, raising=False)
    monkeypatch.delenv(SSH_PASSWORD_ENV, raising=False)
    lan, ssh = tmp_path / "lan", tmp_path / "ssh"
    lan.write_text("lan secret\n")
    ssh.write_text("ssh secret\n")
    assert _host_passwords(host_args()) == (None, None)
    assert _host_passwords(host_args("--password", "a", "--ssh-port", "0", "--ssh-password", "b")) == ("a", "b")
    both = host_args("--password-file", str(lan), "--ssh-port", "0", "--ssh-password-file", str(ssh))
    assert _host_passwords(both) == ("lan secret", "ssh secret")
    monkeypatch.setenv(HOST_PASSWORD_ENV, "lan env")
    monkeypatch.setenv(SSH_PASSWORD_ENV, "ssh env")
    assert _host_passwords(host_args("--ssh-port", "0")) == ("lan env", "ssh env")
    assert _host_passwords(host_args()) == ("lan env", None)  # no SSH without --ssh-port, whatever the environment
    with pytest.raises(OptionError, match="--ssh-password-file needs --ssh-port"):
        _host_passwords(host_args("--ssh-password-file", str(ssh)))


@pytest.mark.parametrize(
    "words",
    [
        ["--password", "a", "--password-file", "f"],
        ["--ssh-port", "0", "--ssh-password", "a", "--ssh-password-file", "f"],
    ],
    ids=["lan", "ssh"],
)
def test_a_password_and_a_password_file_together_are_a_usage_error(
    words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        host_args(*words)
    assert caught.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


def test_the_help_says_a_password_flag_is_visible_to_others(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        host_args("--help")
    text = " ".join(capsys.readouterr().out.split())
    for option in ("--password-file", "--ssh-password-file", HOST_PASSWORD_ENV, SSH_PASSWORD_ENV):
        assert option in text
    assert text.count("can read it in ps") == 2


# -- parlour host, end to end ---------------------------------------------------------------------------------
def parlour(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "tui.cli", *args],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )


def read_ports(proc: subprocess.Popen[bytes], ssh: bool) -> tuple[int, int | None]:
    """The LAN port (and the SSH port) from what the headless host says on stderr (bounded)."""
    assert proc.stderr is not None
    selector = selectors.DefaultSelector()
    selector.register(proc.stderr, selectors.EVENT_READ)
    deadline = time.monotonic() + WAIT
    seen = b""
    while time.monotonic() < deadline:
        if selector.select(timeout=0.1):
            chunk = os.read(proc.stderr.fileno(), 65536)
            if not chunk:
                break
            seen += chunk
            lan = re.search(rb"hosting on 127\.0\.0\.1:(\d+)", seen)
            over_ssh = re.search(rb"SSH on port (\d+)", seen)
            if lan and (over_ssh or not ssh):
                return int(lan.group(1)), int(over_ssh.group(1)) if over_ssh else None
    proc.kill()
    raise AssertionError(f"the host did not say where it listens: {seen!r}")


@pytest.fixture
def stopped() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Hosts started by a test, each stopped (SIGTERM, then killed) at its end."""
    procs: list[subprocess.Popen[bytes]] = []
    yield procs
    for proc in procs:
        proc.terminate()
        try:
            proc.communicate(timeout=WAIT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate(timeout=WAIT)


def test_a_headless_host_takes_its_passwords_from_a_file_and_the_environment(
    tmp_path: Path, stopped: list[subprocess.Popen[bytes]]
) -> None:
    lan_file = tmp_path / "lan-password"
    lan_file.write_text("lan from a file\n")
    ssh_secret = "ssh from the environment"
    proc = parlour(
        "host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--password-file", str(lan_file),
        "--ssh-port", "0", "--name", "Den",
        env={SSH_PASSWORD_ENV: ssh_secret},
    )  # fmt: skip
    stopped.append(proc)
    port, ssh_port = read_ports(proc, ssh=True)
    assert ssh_port is not None
    command_line = Path(f"/proc/{proc.pid}/cmdline").read_bytes()
    assert b"lan from a file" not in command_line and ssh_secret.encode() not in command_line

    session = NetworkSession.connect("127.0.0.1", port, "Ann", password="lan from a file", timeout=WAIT)
    session.close()
    with pytest.raises(ParlourError, match="wrong password"):
        NetworkSession.connect("127.0.0.1", port, "Bob", password="guess", timeout=WAIT)

    async def ssh_login(password: str) -> None:
        conn = await asyncio.wait_for(
            asyncssh.connect(
                "127.0.0.1", ssh_port, username="ann", password=password, known_hosts=None, client_keys=None
            ),
            WAIT,
        )
        conn.close()
        await asyncio.wait_for(conn.wait_closed(), WAIT)

    asyncio.run(ssh_login(ssh_secret))
    with pytest.raises(asyncssh.PermissionDenied):
        asyncio.run(ssh_login("guess"))
    # The host key is made in Parlour's data directory (the tests' own, through PARLOUR_DATA_DIR).
    assert (Path(os.environ["PARLOUR_DATA_DIR"]) / "ssh_host_key").is_file()


@pytest.mark.parametrize("flag", ["--password-file", "--ssh-password-file"])
def test_parlour_host_with_an_empty_password_file_is_one_sentence_and_status_2(tmp_path: Path, flag: str) -> None:
    path = tmp_path / "password"
    path.write_text("")
    proc = parlour("host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--ssh-port", "0", flag, str(path))
    out, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 2 and out == b"" and b"Traceback" not in err
    lines = [line for line in err.decode().splitlines() if line and not line.startswith(("usage:", " "))]
    assert lines == [f"parlour: error: {flag}: the first line of {path} is empty, and it should hold the password"]


def test_ssh_without_a_password_or_keys_names_every_way_to_give_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SSH_PASSWORD_ENV, raising=False)
    proc = parlour("host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--ssh-port", "0")
    _, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 2 and b"Traceback" not in err
    assert b"--ssh-password-file" in err and SSH_PASSWORD_ENV.encode() in err
