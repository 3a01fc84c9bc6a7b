"""NetworkSession beyond the Session contract (tests/lan/test_session_contract.py runs the contract over it): the
lobby helpers, a host that goes away or misbehaves, and a close that leaves no thread behind. Every wait is bounded
(lan_helpers.WAIT)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest
from lan_helpers import WAIT, ServerThread

from engine.errors import ParlourError
from engine.events import Event
from engine.lan.net_session import NetworkSession
from engine.match import RoundStarted
from engine.session import Snapshot


def net_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "parlour-net" and t.is_alive()]


@pytest.fixture
def server() -> Iterator[ServerThread]:
    running = ServerThread()
    try:
        yield running
    finally:
        running.stop()


def test_open_table_plays_and_close_leaves_no_thread(server: ServerThread) -> None:
    before = len(net_threads())
    session = NetworkSession.open_table("127.0.0.1", server.port, "Ann", "screw", 3, bots=[None, "easy", "easy"])
    got: list[Event] = []
    threads: set[str] = set()

    def seen(event: Event) -> None:
        got.append(event)
        threads.add(threading.current_thread().name)

    session.subscribe(seen)
    assert session.info.seat == 0 and session.info.key == "screw" and session.entry.game.key == "chase"
    snap = session.snapshot()
    assert isinstance(snap, Snapshot) and snap.seat == 0
    assert got and isinstance(got[0], RoundStarted)
    assert len(net_threads()) == before + 1
    started = time.monotonic()
    session.close()
    assert time.monotonic() - started < 3.0
    assert len(net_threads()) == before, "close() left the connection's thread running"
    session.close()  # twice is harmless
    with pytest.raises(ParlourError, match="left the table"):
        session.snapshot()


def test_join_table_waits_for_the_start(server: ServerThread) -> None:
    creator = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    joined: list[NetworkSession] = []
    failed: list[BaseException] = []
    try:
        code = creator.create("big2", 4, bots=[None, None, "easy", "easy"])

        def join() -> None:
            try:
                joined.append(NetworkSession.join_table("127.0.0.1", server.port, "Ben", code.lower(), 1))
            except BaseException as err:
                failed.append(err)

        joiner = threading.Thread(target=join)
        joiner.start()
        deadline = time.monotonic() + WAIT
        while True:  # the creator may start once Ben sat down and said ready
            try:
                creator.start()
                break
            except ParlourError:
                assert time.monotonic() < deadline, "Ben never sat down"
                time.sleep(0.02)
        creator.wait_started()
        joiner.join(WAIT)
        assert not failed, failed
        assert joined and joined[0].info.seat == 1 and joined[0].info.names[0] == "Ann"
        assert creator.info.seat == 0
    finally:
        creator.close()
        for session in joined:
            session.close()


def test_a_refused_hello_is_a_parlour_error(server: ServerThread) -> None:
    first = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    try:
        with pytest.raises(ParlourError, match="already called"):
            NetworkSession.connect("127.0.0.1", server.port, "ANN")
        with pytest.raises(ParlourError, match="no table"):
            NetworkSession.join_table("127.0.0.1", server.port, "Ben", "ZZZZ", 0)
    finally:
        first.close()


def test_a_host_that_goes_away_mid_game_is_a_parlour_error() -> None:
    server = ServerThread()
    before = len(net_threads())
    try:
        session = NetworkSession.open_table("127.0.0.1", server.port, "Ann", "screw", 3, bots=[None, "easy", "easy"])
        session.snapshot()
    finally:
        server.stop()
    started = time.monotonic()
    with pytest.raises(ParlourError, match="host"):
        session.snapshot()
    with pytest.raises(ParlourError, match="host"):
        session.submit("stay")
    with pytest.raises(ParlourError):
        session.hint()
    assert time.monotonic() - started < WAIT / 2
    assert not session.connected
    session.close()
    assert len(net_threads()) == before


def fake_host(reply: bytes | None) -> tuple[socket.socket, threading.Thread]:
    """A listening socket that answers its first connection with ``reply`` (None: nothing) and closes it."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(WAIT)

    def serve() -> None:
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        with conn:
            conn.settimeout(WAIT)
            conn.recv(4096)  # the hello
            if reply is not None:
                conn.sendall(reply)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return listener, thread


@pytest.mark.parametrize(
    "reply",
    [None, b"this is not json\n", b'{"type": "welcome"', b'{"type": "nonsense"}\n', b"\xff\xfe\n"],
    ids=["closes", "not-json", "unfinished", "unknown-type", "not-utf8"],
)
def test_a_host_that_misbehaves_is_a_parlour_error(reply: bytes | None) -> None:
    before = len(net_threads())
    listener, thread = fake_host(reply)
    try:
        started = time.monotonic()
        with pytest.raises(ParlourError) as caught:
            NetworkSession.connect("127.0.0.1", listener.getsockname()[1], "Ann", timeout=WAIT)
        assert time.monotonic() - started < WAIT / 2
        assert "Traceback" not in str(caught.value) and len(str(caught.value)) < 300
    finally:
        listener.close()
        thread.join(WAIT)
    assert len(net_threads()) == before


def test_a_silent_host_times_out() -> None:
    listener = socket.create_server(("127.0.0.1", 0))  # accepts (the backlog) but never answers
    try:
        started = time.monotonic()
        with pytest.raises(ParlourError, match="did not answer"):
            NetworkSession.connect("127.0.0.1", listener.getsockname()[1], "Ann", timeout=0.5)
        assert time.monotonic() - started < 4.0
    finally:
        listener.close()


def test_nobody_listening_is_a_parlour_error() -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    listener.close()
    with pytest.raises(ParlourError, match="cannot reach"):
        NetworkSession.connect("127.0.0.1", port, "Ann", timeout=2.0)


def test_waiting_on_the_host_from_an_event_callback_is_refused(server: ServerThread) -> None:
    session = NetworkSession.open_table("127.0.0.1", server.port, "Ann", "screw", 3, bots=[None, "easy", "easy"])
    try:
        outcome: list[str] = []
        done = threading.Event()

        def inner(event: Event) -> None:
            if threading.current_thread().name != "parlour-net" or done.is_set():
                return
            try:
                session.snapshot()
                outcome.append("answered")
            except ParlourError as err:
                outcome.append(str(err))
            done.set()

        session.subscribe(inner)
        deadline = time.monotonic() + WAIT
        while not done.is_set() and time.monotonic() < deadline:  # play until an event comes from the connection
            snap = session.snapshot()
            if snap.over:
                break
            if snap.legal:
                session.submit(snap.legal[0])
            else:
                time.sleep(0.01)
        assert done.is_set() and outcome and "callback" in outcome[0]
        assert session.snapshot().seat == 0  # the connection is still fine
    finally:
        session.close()


def test_the_host_says_why_it_went_away(server: ServerThread) -> None:
    session = NetworkSession.open_table("127.0.0.1", server.port, "Ann", "screw", 3, bots=[None, "easy", "easy"])
    try:
        server.stop()
        with pytest.raises(ParlourError, match="the host is stopping"):
            session.snapshot()
    finally:
        session.close()
