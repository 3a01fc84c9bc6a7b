"""Every LAN game kept (issue 25, point 6), on real sockets on 127.0.0.1: each client keeps what its seat saw and
counts the match (a spectator keeps it, uncounted), the host keeps the full replay of the table, and a client's
record checks identical against the host's; without the host's replay it is checked on its own; a disk that refuses
the records is one warning, and the game goes on. Every wait is bounded (lan_helpers.WAIT)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from lan_helpers import WAIT, ServerThread

from engine.lan.remote_session import NetworkSession
from engine.records.paths import replays_dir
from engine.records.seen import check_seen, find_host_replay, load_seen
from engine.records.stats import summary
from tui.apps.lan import LanApp
from tui.apps.lan_records import LanRecords
from tui.apps.navigation import table_in_stack


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    running = ServerThread(name="Hall", keep=tmp_path / "host")
    try:
        yield running
    finally:
        running.stop()


def play_to_the_end(sessions: Sequence[NetworkSession]) -> None:
    """Each person plays their first legal move whenever it is theirs, and says ``next`` otherwise (the end of a
    round waits for them), until every session's snapshot says the match is over."""
    deadline = time.monotonic() + 90
    while True:
        over = []
        for session in sessions:
            snap = session.snapshot()
            if snap.legal:
                session.submit(snap.legal[0])
            elif not snap.over:
                session.ready()
            over.append(snap.over)
        if all(over):
            return
        assert time.monotonic() < deadline, "the match did not end"


def kept(records: LanRecords) -> Path:
    """The record ``records`` kept of the one match it followed (bounded wait)."""
    deadline = time.monotonic() + WAIT
    while not records.kept:
        assert records.wait(WAIT) and time.monotonic() < deadline, "no record was kept"
    (done,) = records.kept
    assert done.problems == [] and done.replay is not None
    return done.replay


def host_replay(match: str) -> Path:
    """The host's full replay of ``match`` in the replays directory, once its thread has written it (bounded)."""
    deadline = time.monotonic() + WAIT
    while (found := find_host_replay(match, [replays_dir()])) is None:
        assert time.monotonic() < deadline, "the host kept no replay"
        time.sleep(0.01)  # (a poll's pause: the condition is what is waited for)
    return found


def test_two_players_and_a_spectator_keep_what_they_saw_and_the_host_keeps_it_all(server: ServerThread) -> None:
    ann = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    ben = NetworkSession.connect("127.0.0.1", server.port, "Ben")
    cat = NetworkSession.connect("127.0.0.1", server.port, "Cat")
    warnings: list[str] = []
    records = [LanRecords(session, warnings.append) for session in (ann, ben, cat)]
    try:
        code = ann.create("screw", 4, bots=[None, None, "easy", "medium"])
        ben.sit(code, 1)
        cat.spectate(code)
        ann.start()
        for session in (ann, ben, cat):
            session.wait_started(WAIT)
        play_to_the_end([ann, ben])
        paths = [kept(record) for record in records]
    finally:
        for record in records:
            record.close()
        for session in (ann, ben, cat):
            session.close()
    assert warnings == []
    seen = [load_seen(path) for path in paths]
    assert [record.header.seat for record in seen] == [0, 1, None]
    assert {record.header.host for record in seen} == {"Hall"} and {r.header.table for r in seen} == {code}
    (match,) = {record.header.match for record in seen}
    assert isinstance(match, str)
    full = host_replay(match)
    header = json.loads(full.read_text(encoding="utf-8").splitlines()[0])
    assert (header["table"], header["match"], header["host"]) == (code, match, "Hall")
    for path, record in zip(paths, seen, strict=True):
        check = check_seen(path)
        assert check.difference is None and check.host_replay == full, check.sentence()
        assert check.sentence().startswith(f"identical: {len(record.events)} events")
        assert "seed" not in json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        for event in record.events:  # nothing the seat could not see
            assert event.audience is None or (record.header.seat is not None and record.header.seat in event.audience)
    # The players' matches are counted, each with its opponents listed; the spectator's is not.
    groups = summary()["groups"]
    assert sorted((g["kind"], g["level"], g["games"]) for g in groups) == [
        ("lan", "people: Ann; bots: easy, medium", 1),
        ("lan", "people: Ben; bots: easy, medium", 1),
    ]


def test_without_the_hosts_replay_the_record_is_checked_on_its_own() -> None:
    running = ServerThread()  # keep=None: parlour host --no-keep keeps no replay either
    try:
        ann = NetworkSession.open_table("127.0.0.1", running.port, "Ann", "big2", 3, bots=[None, "easy", "easy"])
        records = LanRecords(ann, lambda text: pytest.fail(text))
        try:
            # The table was started before this LanRecords listened: a new table is followed from its start.
            ann.leave()
            ann.create("big2", 3, bots=[None, "easy", "easy"])
            ann.start()
            ann.wait_started(WAIT)
            play_to_the_end([ann])
            path = kept(records)
        finally:
            records.close()
            ann.close()
    finally:
        running.stop()
    check = check_seen(path)
    assert check.difference is None and check.host_replay is None
    assert check.sentence().startswith("checked on its own: the host's replay is not here")
    assert [path.name for path in replays_dir().iterdir()] == [path.name]
    assert summary()["groups"][0]["level"] == "bots: easy x2"


def test_a_disk_that_refuses_the_records_is_one_warning_and_play_goes_on(
    server: ServerThread, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("a file where the data directory should be", encoding="utf-8")
    monkeypatch.setenv("PARLOUR_DATA_DIR", str(blocked))
    ann = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    warnings: list[str] = []
    records = LanRecords(ann, warnings.append)
    try:
        ann.create("screw", 3, bots=[None, "easy", "easy"])
        ann.start()
        ann.wait_started(WAIT)
        play_to_the_end([ann])
        deadline = time.monotonic() + WAIT
        while not records.kept:
            assert records.wait(WAIT) and time.monotonic() < deadline
        assert ann.snapshot().over  # the connection is as it was
        ann.chat("still here")
    finally:
        records.close()
        ann.close()
    (done,) = records.kept
    assert done.replay is None and len(done.problems) == 2
    assert len(warnings) == 1 and warnings[0] == " ".join(done.problems)
    assert warnings[0].startswith("The replay of this game could not be kept (")


async def test_the_lan_app_keeps_the_match_it_watched(server: ServerThread) -> None:
    """The app itself follows its session: a match watched to its end at a table of bots is kept (watched: not
    counted) while the app shows it, and the record checks identical against the host's replay."""
    creator = NetworkSession.connect("127.0.0.1", server.port, "Host")
    ann = NetworkSession.connect("127.0.0.1", server.port, "Ann")
    app = LanApp(ann)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            code = await asyncio.to_thread(creator.create, "screw", 3, bots=["easy"] * 3, seat=None)
            await asyncio.to_thread(ann.spectate, code)
            await asyncio.to_thread(creator.start)
            for _ in range(1000):
                found = list(replays_dir().glob("*-watch.jsonl")) if replays_dir().is_dir() else []
                if found:
                    break
                await pilot.pause(0.01)
            assert found, "the app kept no record of the match it watched"
            # (The match may end before its table is on the screen: the test ends once it is, not in its mounting.)
            for _ in range(1000):
                if table_in_stack(app) is not None and table_in_stack(app) is not app.screen:
                    break
                await pilot.pause(0.01)
    finally:
        creator.close()
        ann.close()
    (path,) = found
    record = load_seen(path)
    assert record.header.seat is None and record.header.table == code and record.match_over is not None
    assert isinstance(record.header.match, str)
    assert check_seen(path).host_replay == host_replay(record.header.match)
    assert check_seen(path).difference is None
    assert summary()["games"] == 0
