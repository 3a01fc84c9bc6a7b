"""Addresses that work (issue 25, point 3): the lobby and the headless log name the host by each address of each
network interface it listens on, loopback last, never ``0.0.0.0`` nor a host name; a specific bind address alone."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.lan import lan_host
from engine.lan.lan_host import HostSettings, LanHost, addresses, interface_addresses, join_address
from tui.cli import guest_command

ROOT = Path(__file__).resolve().parent.parent.parent
V4, V6 = int(socket.AF_INET), int(socket.AF_INET6)
FAKE = [
    ("lo", "127.0.0.1", V4),
    ("lo", "::1", V6),
    ("eth0", "192.168.1.20", V4),
    ("eth0", "fe80::1c2:3ff:fe44:5566%eth0", V6),
    ("eth0", "2001:db8::20", V6),
    ("wlan0", "10.0.0.7", V4),
    ("docker0", "fd00::7", V6),
]


def test_every_interface_address_loopback_last() -> None:
    assert addresses("0.0.0.0", FAKE) == ["192.168.1.20", "10.0.0.7", "127.0.0.1"]  # IPv4 only there
    assert addresses("::", FAKE) == ["2001:db8::20", "fd00::7", "::1"]  # IPv6 only (asyncio's IPV6_V6ONLY)
    assert addresses("", FAKE) == ["192.168.1.20", "10.0.0.7", "2001:db8::20", "fd00::7", "127.0.0.1", "::1"]


def test_link_local_only_when_nothing_else_and_with_its_interface() -> None:
    only_link = [("lo", "::1", V6), ("eth0", "fe80::1%eth0", V6)]
    assert addresses("::", only_link) == ["fe80::1%eth0", "::1"]
    assert addresses("0.0.0.0", [("lo", "127.0.0.1", V4)]) == ["127.0.0.1"]
    assert addresses("0.0.0.0", []) == ["127.0.0.1"], "never 0.0.0.0, never a name"


def test_a_specific_bind_address_is_the_one_printed() -> None:
    assert addresses("192.168.1.20", FAKE) == ["192.168.1.20"]
    assert addresses("127.0.0.1", FAKE) == ["127.0.0.1"]


def test_a_bind_name_is_printed_as_the_addresses_it_resolves_to() -> None:
    """``--bind NAME`` listens on what the name resolves to: those addresses are printed, never the name (a name like
    ``vm`` may resolve to 127.0.0.1 only, and another machine would then reach itself)."""
    resolved = {info[4][0] for info in socket.getaddrinfo("localhost", None, type=socket.SOCK_STREAM)}
    found = addresses("localhost", FAKE)
    assert found and set(found) == resolved and "localhost" not in found
    assert found == sorted(found, key=lambda a: ":" in a), "IPv4 first"


def test_the_headless_log_of_a_bind_name_names_no_name() -> None:
    lines = headless_lines("localhost")
    joins = [line for line in lines if "Others join with" in line]
    said = [line for line in lines if line.startswith("parlour:")]  # (the server's own log may name what it bound)
    assert joins and not any("localhost" in line for line in said), lines
    assert any(re.search(r"parlour join (127\.0\.0\.1|\[::1\]):\d+$", line) for line in joins), joins


def test_the_join_lines_bracket_ipv6(monkeypatch: pytest.MonkeyPatch) -> None:
    assert join_address("fd00::7", 7777) == "[fd00::7]:7777" and join_address("10.0.0.7", 7777) == "10.0.0.7:7777"
    monkeypatch.setattr(lan_host, "interface_addresses", lambda: FAKE)
    host = LanHost(HostSettings(bind="", port=7777, ssh_port=2222, ssh_password="pw", guest_command=guest_command()))
    host.port, host.ssh_port = 7777, 2222
    assert host.where() == [
        "Others join with: parlour join 192.168.1.20:7777",
        "Others join with: parlour join 10.0.0.7:7777",
        "Others join with: parlour join [2001:db8::20]:7777",
        "Others join with: parlour join [fd00::7]:7777",
        "Others join with: parlour join 127.0.0.1:7777",
        "Others join with: parlour join [::1]:7777",
        "or over SSH: ssh -p 2222 NAME@192.168.1.20",
        "or over SSH: ssh -p 2222 NAME@10.0.0.7",
        "or over SSH: ssh -p 2222 NAME@2001:db8::20",
        "or over SSH: ssh -p 2222 NAME@fd00::7",
        "or over SSH: ssh -p 2222 NAME@127.0.0.1",
        "or over SSH: ssh -p 2222 NAME@::1",
    ]


def test_this_machines_addresses_are_its_own() -> None:
    """For real: psutil's list, each address one a socket of this machine can be bound to, loopback last."""
    found = addresses("", interface_addresses())
    assert "127.0.0.1" in found and "0.0.0.0" not in found
    loopback = [a for a in found if a in ("127.0.0.1", "::1")]
    assert found[-len(loopback) :] == loopback, "loopback last"
    for address in found:
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            if family == socket.AF_INET6:
                text, _, scope = address.partition("%")
                sock.bind((text, 0, 0, socket.if_nametoindex(scope) if scope else 0))
            else:
                sock.bind((address, 0))
    ipv4 = [a for _, a, family in interface_addresses() if family == V4 and not a.startswith("127.")]
    assert addresses("0.0.0.0") == [*dict.fromkeys(ipv4), "127.0.0.1"] if ipv4 else ["127.0.0.1"]


def headless_lines(bind: str) -> list[str]:
    """What ``parlour host --headless --bind BIND`` logs up to its first join line (then it is stopped)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tui", "host", "--headless", "--bind", bind, "--port", "0", "--no-keep"],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    lines: list[str] = []
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline and not any("Others join with" in line for line in lines):
            line = proc.stderr.readline().decode()
            if not line:
                break
            lines.append(line.strip())
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    return lines


def test_the_headless_log_names_its_bind_address() -> None:
    lines = headless_lines("127.0.0.1")
    hosting = next(line for line in lines if "hosting on" in line)
    port = re.search(r"127\.0\.0\.1:(\d+)", hosting)
    assert port is not None, lines
    assert f"parlour: Others join with: parlour join 127.0.0.1:{port.group(1)}" in lines
    assert not any("0.0.0.0" in line for line in lines)


@pytest.mark.skipif(not socket.has_dualstack_ipv6(), reason="this machine has no dual-stack IPv6 sockets")
async def test_every_address_is_one_port_for_ipv4_and_ipv6() -> None:
    from engine.lan.client import LanClient
    from engine.lan.server import LanServer

    server = LanServer(seed=1)
    port = await server.start("", 0)
    try:
        for host, name in (("127.0.0.1", "Ann"), ("::1", "Bob")):
            c = await LanClient.connect(host, port)
            await c.hello(name)
            peers = {conn.player.name: conn.address for conn in server.connections if conn.player is not None}
            assert peers[name] == host, peers  # an IPv4 peer is written as IPv4, not as ::ffff:127.0.0.1
            await c.close()
    finally:
        await server.close()
