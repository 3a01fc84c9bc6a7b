"""The hosting app's quit while tables are in play (issue 25, point 2): it asks what becomes of them, and does
what it says: keep serving in a background host, keep them for the next start, or end them. The host stops before
the app's own connection says goodbye, so the host's own player's seat stays theirs (the fault of before: their
``bye`` gave the seat to a bot, and a table with nobody else on it was forgotten)."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Callable, Iterator

import pytest
from lan_helpers import WAIT, running

from engine.lan.client import LanClient
from engine.lan.lan_host import HostSettings, HostThread, background_command
from engine.lan.remote_session import NetworkSession
from engine.records.paths import host_dir, host_log_path
from tui.apps.lan import LanApp
from tui.cli import headless_command
from tui.dialogs.confirm import ChoiceScreen


@pytest.fixture
def hosting() -> Iterator[HostThread]:
    settings = HostSettings(bind="127.0.0.1", port=0, name="Den", keep=host_dir(), headless_command=headless_command())
    running_host = HostThread(settings)
    running_host.start()
    try:
        yield running_host
    finally:
        running_host.stop()


async def until(check: Callable[[], bool]) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not check():
        assert loop.time() < deadline, "not in time"
        await asyncio.sleep(0.02)  # (a poll's pause: the condition is what is waited for)


def two_tables(port: int) -> tuple[NetworkSession, NetworkSession, str, str]:
    """Ann (the host's own player) at a Big Two table with bots, and Bob (a guest) at a Screw table of his own."""
    ann = NetworkSession.connect("127.0.0.1", port, "Ann")
    mine = ann.create("big2", 4, bots=[None, "easy", "easy", "easy"])
    ann.start()
    bob = NetworkSession.connect("127.0.0.1", port, "Bob")
    his = bob.create("screw", 3, bots=[None, "easy", "easy"])
    bob.start()
    ann.wait_started(WAIT)
    bob.wait_started(WAIT)
    return ann, bob, mine, his


async def quit_with(app: LanApp, answer: str) -> ChoiceScreen:
    async with app.run_test(size=(100, 32)) as pilot:
        await until(lambda: app.screen is not None and app.is_running)
        await pilot.press("q")
        await until(lambda: isinstance(app.screen, ChoiceScreen))
        dialog = app.screen
        assert isinstance(dialog, ChoiceScreen)
        await pilot.press(answer)
        await until(lambda: not app.is_running)
    return dialog


async def test_keep_for_the_next_start_keeps_every_table_and_the_hosts_own_seat(hosting: HostThread) -> None:
    ann, bob, mine, his = two_tables(hosting.host.port)
    try:
        app = LanApp(ann, hosting=hosting)
        dialog = await quit_with(app, "k")
        assert dialog.question == f"Quit Parlour? 2 tables are in play at your host ({mine}, {his})."
        assert [answer for answer, _, _ in dialog.choices] == ["background", "keep", "end", "stay"]
        assert app.farewell == f"parlour: the tables {mine}, {his} are kept: the next parlour host offers them again."
        assert hosting.tables_in_play() == [], "stopped"
        await until(lambda: not bob.connected)
    finally:
        ann.close()
        bob.close()
    async with running(keep=host_dir()) as again:
        assert sorted(again.tables) == sorted([mine, his])
        seats = again.tables[mine].summary()["seats"]
        assert seats[0] == {"seat": 0, "name": "Ann", "bot": None, "status": "away"}, "Ann's seat is still hers"


async def test_the_question_speaks_of_your_seat_only_when_you_have_one(hosting: HostThread) -> None:
    """Seated at a table in play, the host's own player is told how long the seat waits and the command that takes
    them back to it; only watching from the lobby, nothing is said of a seat they do not have."""
    ann, bob, _, his = two_tables(hosting.host.port)
    port = hosting.host.port
    try:
        app = LanApp(ann, hosting=hosting)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press("q")
            await until(lambda: isinstance(app.screen, ChoiceScreen))
            seated = app.screen
            assert isinstance(seated, ChoiceScreen)
            assert f"your seat waits 2 minutes for you (parlour join 127.0.0.1:{port} --name Ann takes you back;" in (
                seated.detail
            ), seated.detail
            await pilot.press("s")
            await until(lambda: not isinstance(app.screen, ChoiceScreen))
            await asyncio.to_thread(ann.leave)  # to the lobby: Bob's table is still in play, and Ann has no seat
            await pilot.press("q")
            await until(lambda: isinstance(app.screen, ChoiceScreen))
            lobby = app.screen
            assert isinstance(lobby, ChoiceScreen) and lobby.question.endswith(f"({his}).")
            assert "your seat" not in lobby.detail and "parlour join" not in lobby.detail, lobby.detail
            await pilot.press("s")
    finally:
        ann.close()
        bob.close()


async def test_one_table_kept_is_said_in_the_singular(hosting: HostThread) -> None:
    ann = NetworkSession.connect("127.0.0.1", hosting.host.port, "Ann")
    code = ann.create("screw", 3, bots=[None, "easy", "easy"])
    ann.start()
    ann.wait_started(WAIT)
    try:
        app = LanApp(ann, hosting=hosting)
        await quit_with(app, "k")
        assert app.farewell == f"parlour: the table {code} is kept: the next parlour host offers it again."
    finally:
        ann.close()


async def test_end_them_ends_every_table(hosting: HostThread) -> None:
    ann, bob, _, _ = two_tables(hosting.host.port)
    guest = await LanClient.connect("127.0.0.1", hosting.host.port)
    await guest.hello("Cy")
    try:
        app = LanApp(ann, hosting=hosting)
        await quit_with(app, "e")
        assert app.farewell is not None and app.farewell.endswith("ended.")
        assert (await guest.expect("bye", WAIT))["reason"] == "shutting_down"
    finally:
        ann.close()
        bob.close()
        await guest.close()
    assert not [path for path in host_dir().iterdir() if path.suffix == ".jsonl"]


async def test_stay_changes_nothing_ctrl_q_twice_keeps_and_with_nothing_in_play_quit_is_at_once(
    hosting: HostThread,
) -> None:
    ann, bob, mine, his = two_tables(hosting.host.port)
    try:
        app = LanApp(ann, hosting=hosting)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press("q")
            await until(lambda: isinstance(app.screen, ChoiceScreen))
            await pilot.press("escape")
            await until(lambda: not isinstance(app.screen, ChoiceScreen))
            assert app.is_running and sorted(hosting.tables_in_play()) == sorted([mine, his])
        app = LanApp(ann, hosting=hosting)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press("ctrl+q")
            await until(lambda: isinstance(app.screen, ChoiceScreen))
            await pilot.press("ctrl+q")  # twice: the answer that loses nothing
            await until(lambda: not app.is_running)
        assert app.farewell is not None and app.farewell.endswith("are kept: the next parlour host offers them again.")
    finally:
        ann.close()
        bob.close()
    quiet = HostThread(HostSettings(bind="127.0.0.1", port=0, keep=host_dir() / "other"))
    quiet.start()
    lone = NetworkSession.connect("127.0.0.1", quiet.host.port, "Lou")
    try:
        app = LanApp(lone, hosting=quiet)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press("q")
            await until(lambda: not app.is_running)  # no question: nothing is in play
    finally:
        lone.close()
        quiet.stop()


async def test_keep_serving_in_the_background_hands_the_tables_to_a_headless_host(hosting: HostThread) -> None:
    ann, bob, mine, his = two_tables(hosting.host.port)
    token = str(ann.welcome["token"])
    port = hosting.host.port
    pid: int | None = None
    try:
        app = LanApp(ann, hosting=hosting)
        await quit_with(app, "b")
        assert app.farewell is not None and "in the background (process " in app.farewell, app.farewell
        pid = int(app.farewell.split("(process ")[1].split(")")[0])
        assert f"logging to {host_log_path()}" in app.farewell and app.farewell.endswith(f"kill {pid}")
        assert f"; parlour join 127.0.0.1:{port} --name Ann takes you back to your seat;" in app.farewell
        back = await LanClient.connect("127.0.0.1", port)
        welcome = await back.hello("Ann", token=token)
        assert welcome["resumed"] is True and welcome["table"] == mine and welcome["host"] == "Den"
        await back.send({"type": "list"})
        listed = (await back.expect("tables", WAIT))["tables"]
        assert sorted(t["code"] for t in listed) == sorted([mine, his])
        await back.close()
    finally:
        ann.close()
        bob.close()
        if pid is not None:
            os.kill(pid, signal.SIGTERM)
            await until(lambda: not _alive(pid))
    assert "parlour: hosting on 127.0.0.1:" in host_log_path().read_text(encoding="utf-8")


def _alive(pid: int) -> bool:
    try:
        waited, _ = os.waitpid(pid, os.WNOHANG)  # (our child: reaped here once it has stopped)
    except ChildProcessError:
        return False
    return waited == 0


def test_the_background_host_gets_its_passwords_from_the_environment_only() -> None:
    settings = HostSettings(
        bind="0.0.0.0",
        port=0,
        name="Den",
        password="s3cret",
        ssh_port=2222,
        ssh_password="pw",
        headless_command=headless_command(),
    )
    command, env = background_command(settings, 7777)
    assert command[: len(headless_command())] == list(headless_command())
    assert "s3cret" not in " ".join(command) and "pw" not in command
    assert env["PARLOUR_HOST_PASSWORD"] == "s3cret" and env["PARLOUR_SSH_PASSWORD"] == "pw"
    assert command[-7:] == ["--port", "7777", "--name", "Den", "--no-keep", "--ssh-port", "2222"]
