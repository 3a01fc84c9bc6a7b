"""A host keeps its tables in play across a restart (issue 11): saved after every move, offered again under the
same code when a host starts with the same directory, each person ``away`` until they come back with their token
(or are let back in by someone at the table: tests/lan/test_seat_security.py). A save that cannot be used is moved
aside with one sentence; a finished or abandoned table's save goes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from lan_helpers import WAIT, client, play_to_the_end, running, start_table, until

from engine import codec
from engine.lan.client import LanClient


async def first_snapshot(c: LanClient) -> dict[str, object]:
    """The next snapshot ``c`` reads where it must act."""
    while True:
        data = await c.expect("snapshot", WAIT)
        snap = data["snapshot"]
        if snap["legal"]:
            return snap


async def test_a_restarted_host_offers_its_table_again(tmp_path: Path) -> None:
    async with running(keep=tmp_path, seed=3) as server:
        ann = await client(server, "Ann")
        code = await start_table(server, [ann], "screw", level="easy")
        assert server.saved()
        assert (tmp_path / f"{code}.jsonl").is_file(), "saved as soon as it starts"
        snap = await first_snapshot(ann)
        await ann.send({"type": "act", "action": snap["legal"][0], "version": snap["version"]})
        host = server.tables[code].host
        assert host is not None
        await until(lambda: host.table.state.version > snap["version"])
        assert host.wait_idle()
        token = ann.token
        before = codec.encode(host.snapshot(0))
        assert server.saved()
        lines = (tmp_path / f"{code}.jsonl").read_text().splitlines()
        saved = [json.loads(line) for line in lines]
        assert len(saved) == 1 + len(host.table.actions), "the journal holds every move so far"
        assert saved[0]["extra"]["people"][0] == {"name": "Ann", "token": token}
        crash = tmp_path / "crash"  # the directory as a crash of the host right now would leave it
        crash.mkdir()
        shutil.copy(tmp_path / f"{code}.jsonl", crash / f"{code}.jsonl")
        await ann.close()
    assert (tmp_path / f"{code}.jsonl").is_file(), "stopping the host keeps its tables"
    async with running(keep=crash, seed=4) as again:
        assert again.problems == []
        table = again.tables[code]
        summary = table.summary()
        assert summary["state"] == "playing" and summary["seats"][0] == {
            "seat": 0,
            "name": "Ann",
            "bot": None,
            "status": "away",
        }
        ann = await LanClient.connect("127.0.0.1", again.port)
        welcome = await ann.hello("Ann", token=token)
        assert welcome["resumed"] is True and welcome["table"] == code
        resumed = (await ann.expect("snapshot", WAIT))["snapshot"]
        assert resumed["version"] == before["version"] and resumed["view"] == before["view"], "exactly where it was"
        await until(lambda: again.tables[code].summary()["seats"][0]["status"] == "connected")
        kept = again.tables[code].host
        assert kept is not None and kept.wait_idle()
        # (This seed stops at the end of a round: the bots wait for Ann to say she has seen it, as they did.)
        assert kept.waiting_for == frozenset({0}) and kept.table.state.version == before["version"]
        await ann.send({"type": "next"})
        await play_to_the_end([ann], seed=5)
        await until(lambda: not (crash / f"{code}.jsonl").exists())
        await ann.close()


async def test_a_kept_table_whose_person_leaves_is_forgotten(tmp_path: Path) -> None:
    async with running(keep=tmp_path) as server:
        ann = await client(server, "Ann")
        code = await start_table(server, [ann], "screw")
        assert server.saved()
        assert (tmp_path / f"{code}.jsonl").is_file()
        await ann.send({"type": "leave"})
        await ann.expect("left", WAIT)
        await until(lambda: code not in server.tables)
        assert server.saved()
        assert not (tmp_path / f"{code}.jsonl").exists(), "nobody is left to offer it to"
        await ann.close()


async def test_a_bad_save_is_moved_aside_with_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "BCDF.json").write_text('{"header": {"format": 1', encoding="utf-8")
    (tmp_path / "notes.json").write_text("not a table's: left alone", encoding="utf-8")
    async with running(keep=tmp_path) as server:
        assert server.tables == {}
        assert len(server.problems) == 1
        assert "BCDF.json" in server.problems[0] and "moved to BCDF.json.bad" in server.problems[0]
        assert (tmp_path / "BCDF.json.bad").read_text(encoding="utf-8") == '{"header": {"format": 1'
        assert (tmp_path / "notes.json").is_file()
        ann = await client(server, "Ann")  # the host works all the same
        await ann.close()


async def test_a_save_whose_seats_are_wrong_is_moved_aside(tmp_path: Path) -> None:
    async with running(keep=tmp_path) as server:
        ann = await client(server, "Ann")
        code = await start_table(server, [ann], "screw")
        await ann.close()
    path = tmp_path / f"{code}.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    setup = json.loads(lines[0])
    setup["extra"]["people"] = [{"name": "Ann"}]
    path.write_text(json.dumps(setup) + "\n" + "".join(lines[1:]))
    async with running(keep=tmp_path) as again:
        assert code not in again.tables
        assert len(again.problems) == 1 and "could not be offered again" in again.problems[0]
        assert (tmp_path / f"{code}.jsonl.bad").is_file()


async def test_without_keep_nothing_is_written(tmp_path: Path) -> None:
    async with running() as server:
        ann = await client(server, "Ann")
        await start_table(server, [ann], "screw")
        await until(lambda: server.tables_in_play() != [])  # in play: a host that kept it would have written it
        await ann.close()
    assert list(tmp_path.iterdir()) == []


async def test_a_kept_person_who_stays_away_is_replaced_and_the_table_goes_on(tmp_path: Path) -> None:
    async with running(keep=tmp_path, seed=3) as server:
        ann = await client(server, "Ann")
        code = await start_table(server, [ann], "screw", level="easy")
        snap = await first_snapshot(ann)
        await ann.close()
        await until(lambda: server.tables[code].summary()["seats"][0]["status"] == "away")
    async with running(keep=tmp_path, takeover_after=0.2) as again:
        table = again.tables[code]
        assert table.host is not None
        await until(lambda: table.summary()["seats"][0]["status"] == "replaced")
        await until(lambda: table.host is not None and table.host.table.state.version > snap["version"])
