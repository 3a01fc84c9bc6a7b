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
from engine.lan.remote_session import NetworkSession
from engine.match import RoundStarted
from engine.session import Snapshot, Update


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

    def seen(update: Update) -> None:
        got.extend(update.events)
        threads.add(threading.current_thread().name)

    session.subscribe(seen)
    assert session.info.seat == 0 and session.info.key == "screw" and session.entry.game.key == "chase"
    snap = session.snapshot()
    assert isinstance(snap, Snapshot) and snap.seat == 0
    assert got and isinstance(got[0], RoundStarted)
    assert len(net_threads()) == before + 1
    session.close()
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
                time.sleep(0.02)  # (a poll's pause: the condition is what is waited for)
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
    # Each is told at once that the host went: not "did not answer" once a timeout has run out.
    for ask in (session.snapshot, lambda: session.submit("stay"), session.hint):
        with pytest.raises(ParlourError, match="host") as caught:
            ask()
        assert "did not answer" not in str(caught.value)
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
        with pytest.raises(ParlourError) as caught:
            NetworkSession.connect("127.0.0.1", listener.getsockname()[1], "Ann", timeout=WAIT)
        said = str(caught.value)
        assert "did not answer" not in said, "it waited for its timeout instead of reading what the host did"
        assert "Traceback" not in said and len(said) < 300
    finally:
        listener.close()
        thread.join(WAIT)
    assert len(net_threads()) == before


def test_a_silent_host_times_out() -> None:
    listener = socket.create_server(("127.0.0.1", 0))  # accepts (the backlog) but never answers
    try:
        failed: list[BaseException] = []

        def connect() -> None:
            try:
                NetworkSession.connect("127.0.0.1", listener.getsockname()[1], "Ann", timeout=0.5)
            except BaseException as err:
                failed.append(err)

        trying = threading.Thread(target=connect, daemon=True)
        trying.start()
        trying.join(WAIT)  # the timeout of 0.5 s ends it; WAIT only bounds this test should it not
        assert not trying.is_alive(), "connect() never gave up on a silent host"
        assert len(failed) == 1 and isinstance(failed[0], ParlourError) and "did not answer" in str(failed[0])
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

        def inner(update: Update) -> None:
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
                time.sleep(0.01)  # (a poll's pause: the condition is what is waited for)
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


def test_the_lobby_calls_and_what_the_watcher_hears(server: ServerThread) -> None:
    ann = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    ben = NetworkSession.connect("127.0.0.1", server.port, "Ben")
    heard: list[dict[str, object]] = []
    ben.watch(heard.append)
    try:
        code = ann.create("screw", 3, bots=[None, None, None])
        listed = {t["code"]: t for t in ben.tables()}
        assert listed[code]["game"] == "screw" and listed[code]["state"] == "open"
        ben.sit(code, 1, ready=False)
        assert ben.table is not None and ben.table["seats"][1]["status"] == "waiting"
        ben.declare_ready()
        assert ben.table["seats"][1]["status"] == "ready"
        ben.stand()
        assert ben.table["seats"][1]["status"] == "open" and ben.table["spectators"] == 1
        ben.sit(code, 1)
        with pytest.raises(ParlourError, match="only the table's creator"):
            ben.fill("easy")
        ann.fill("medium")
        ann.chat("[b]hello[/b]")
        ben.sync()
        assert {"type": "chat", "table": code, "name": "Ann", "text": "[b]hello[/b]"} in heard
        ann.start()
        ben.wait_started()
        assert ben.info.seat == 1 and ben.info.bots == (None, None, "medium")
        assert any(m["type"] == "started" for m in heard)
        ben.leave()  # a bot of the table's level takes Ben's seat; Ben is back in the lobby
        assert ben.table is None and ben.code is None
        with pytest.raises(ParlourError, match="has not started"):
            ben.info  # noqa: B018
        seats = {t["code"]: t for t in ann.tables()}[code]["seats"]
        assert seats[1] == {"seat": 1, "name": None, "bot": "easy", "status": "bot"}
        assert any(m["type"] == "left" for m in heard)
    finally:
        ann.close()
        ben.close()


def my_turn(session: NetworkSession) -> Snapshot:
    """The session's snapshot once its seat must act (bounded)."""
    deadline = time.monotonic() + WAIT
    while not (snap := session.snapshot()).legal:
        assert time.monotonic() < deadline and not snap.over, "the seat never came to act"
        time.sleep(0.02)  # (a poll's pause: the condition is what is waited for)
    return snap


def drop(session: NetworkSession) -> None:
    """Cut the session's connection as a failing network would (no bye, no FIN handshake)."""
    writer = session._writer
    assert writer is not None
    session._loop.call_soon_threadsafe(writer.transport.abort)


def test_a_dropped_connection_comes_back_with_its_token(server: ServerThread) -> None:
    session = NetworkSession.open_table("127.0.0.1", server.port, "Ann", "big2", 4, bots=[None, "easy", "easy", "easy"])
    heard: list[dict[str, object]] = []
    session.watch(heard.append)
    got: list[Event] = []
    session.subscribe(lambda update: got.extend(update.events))
    try:
        for _ in range(3):  # a few moves, then the line drops
            session.submit(my_turn(session).legal[0])
        before = list(got)
        drop(session)
        deadline = time.monotonic() + WAIT
        while not any(m["type"] == "resumed" for m in heard):
            assert time.monotonic() < deadline, f"no resume: {heard}"
            time.sleep(0.02)  # (a poll's pause: the condition is what is waited for)
        assert any(m["type"] == "lost" and m["final"] is False for m in heard)
        host = next(iter(server.server.tables.values())).host
        assert host is not None and host.wait_idle(WAIT)  # Ann's turn: nothing more happens until she plays
        snap = my_turn(session)
        session.sync()
        # Every event exactly once: what the subscriber got is the seat's whole history at the host.
        replay: list[Event] = []
        host.subscribe(0, replay.append)()
        assert got[: len(before)] == before and got == replay, "the resumed history was lost or delivered twice"
        session.submit(snap.legal[0])  # and the game goes on
        assert session.welcome["resumed"] is True
    finally:
        session.close()


def test_no_resume_after_the_host_said_goodbye(server: ServerThread) -> None:
    session = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    heard: list[dict[str, object]] = []
    session.watch(heard.append)
    server.call(server.server.close())
    deadline = time.monotonic() + WAIT
    while not any(m["type"] == "lost" for m in heard):
        assert time.monotonic() < deadline
        time.sleep(0.02)  # (a poll's pause: the condition is what is waited for)
    lost = next(m for m in heard if m["type"] == "lost")
    assert lost["final"] is True and "goodbye" in str(lost["reason"])
    session.close()


def test_sitting_again_in_your_own_seat_is_answered_at_once(server: ServerThread) -> None:
    ann = NetworkSession.connect("127.0.0.1", server.port, "Ann", timeout=3.0)
    try:
        code = ann.create("screw", 3, bots=[None, None, "easy"], seat=0)
        ann.sit(code, 0, ready=False)  # a second Enter in the lobby, say: answered (unanswered, it raises)
        assert ann.table is not None and ann.table["seats"][0]["name"] == "Ann"
    finally:
        ann.close()
