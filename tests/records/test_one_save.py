"""One process, one save (issue 26): each running Parlour owns a save of its own, a second one is never offered
the first's match in play, every match left unfinished can be gone on with later, and two processes writing
replays of the same name at once never share a file. Tested with real processes at once."""

from __future__ import annotations

import errno
import fcntl
import json
import multiprocessing
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from engine.records import paths
from engine.records.paths import autosave_path, local_saves, write_new_file
from engine.records.replays import write_new
from engine.records.saves import load_match, store_match
from engine.table import Table

ROOT = Path(__file__).resolve().parents[2]
CLI = "import sys; from tui.cli import run; sys.argv[0] = 'parlour'; run()"
ESCAPES = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|.)")
HOLD = "import sys; from engine.records.paths import autosave_path; print(autosave_path().name, flush=True); input()"
"""A process that claims its save, says which, and keeps it until its standard input gets a line."""


def read_line(child: subprocess.Popen[bytes], timeout: float = 60.0) -> str:
    """The next line ``child`` writes (bounded: '' when it wrote none in ``timeout`` seconds or ended)."""
    assert child.stdout is not None
    got = b""
    deadline = time.monotonic() + timeout
    while not got.endswith(b"\n") and time.monotonic() < deadline:
        ready, _, _ = select.select([child.stdout], [], [], 0.1)
        if ready:
            chunk = os.read(child.stdout.fileno(), 1)
            if not chunk:
                break
            got += chunk
    return got.decode().strip()


class Holder:
    """A Python process holding the save it claimed in ``data``, until :meth:`release` or :meth:`kill`."""

    def __init__(self, data: Path) -> None:
        env = os.environ | {paths.DATA_ENV: str(data)}
        self.child = subprocess.Popen(
            [sys.executable, "-c", HOLD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT, env=env
        )
        self.save = read_line(self.child)

    def release(self) -> None:
        assert self.child.stdin is not None
        self.child.stdin.write(b"\n")
        self.child.stdin.close()
        assert self.child.wait(timeout=30) == 0

    def kill(self) -> None:
        self.child.kill()
        self.child.wait(timeout=30)


def test_each_running_process_claims_a_save_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = Holder(tmp_path)
    second = Holder(tmp_path)
    try:
        assert (first.save, second.save) == ("autosave.json", "autosave-2.json")
        monkeypatch.setenv(paths.DATA_ENV, str(tmp_path))  # this process, the third
        assert autosave_path() == tmp_path / "autosave-3.json" == autosave_path()  # this one's, for good
        first.kill()  # SIGKILL: the system lets go of its lock
        third = Holder(tmp_path)
        try:
            assert third.save == "autosave.json"
        finally:
            third.release()
    finally:
        first.kill()
        second.release()


def claimed_in_a_fork(answer: Connection) -> None:
    answer.send(autosave_path().name)


def test_a_forked_child_has_a_save_of_its_own_and_leaves_the_parents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(paths.DATA_ENV, str(tmp_path))
    assert autosave_path() == tmp_path / "autosave.json"
    fork = multiprocessing.get_context("fork")
    mine, theirs = fork.Pipe()
    child = fork.Process(target=claimed_in_a_fork, args=(theirs,))
    child.start()
    assert mine.poll(60) and mine.recv() == "autosave-2.json"
    child.join(30)
    assert child.exitcode == 0
    other = Holder(tmp_path)  # the child is gone, and its copy of the parent's lock with it: the parent's holds
    other.release()
    assert other.save == "autosave-2.json" and autosave_path() == tmp_path / "autosave.json"


def test_the_newest_save_no_running_process_owns_is_claimed_the_others_later(tmp_path: Path) -> None:
    for number, age in ((1, 300), (2, 100), (3, 200)):
        save = paths.save_slot(tmp_path, number)
        save.write_text("{}", encoding="utf-8")
        os.utime(save, (time.time() - age, time.time() - age))
    assert [path.name for path in local_saves(tmp_path)] == ["autosave-2.json", "autosave-3.json", "autosave.json"]
    holders = [Holder(tmp_path) for _ in range(4)]
    try:
        assert [holder.save for holder in holders] == [
            "autosave-2.json",
            "autosave-3.json",
            "autosave.json",
            "autosave-4.json",  # a new one: every save left is owned
        ]
    finally:
        for holder in holders:
            holder.release()
    again = Holder(tmp_path)  # none was dropped: the newest is claimed (and offered) again
    again.release()
    assert again.save == "autosave-2.json"


def test_a_save_whose_lock_is_not_a_file_is_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "autosave.json.lock").mkdir()
    monkeypatch.setenv(paths.DATA_ENV, str(tmp_path))
    assert autosave_path() == tmp_path / "autosave-2.json"


def test_a_data_directory_that_takes_no_lock_saves_as_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A data directory that cannot be made (its path is a file): no lock, no error; the save's own write says what
    is wrong, in one sentence."""
    blocked = tmp_path / "data"
    blocked.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv(paths.DATA_ENV, str(blocked))
    assert autosave_path() == blocked / "autosave.json"
    table = Table.create("screw", players=3, seed=4, bots=[None, "easy", "easy"])
    message = store_match(autosave_path(), table)
    assert message is not None and message.startswith("The game could not be saved to") and "\n" not in message


WRITER = """
import sys
from pathlib import Path
from engine.records.replays import write_new
print("ready", flush=True)
input()
for number in range(int(sys.argv[3])):
    write_new(Path(sys.argv[1]), "2025-03-01-201502-big2-8812", f"{sys.argv[2]} {number}\\n")
print("done", flush=True)
"""


def test_two_processes_writing_replays_of_one_name_at_once_never_share_a_file(tmp_path: Path) -> None:
    count = 40
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(tmp_path), who, str(count)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=ROOT,
        )
        for who in ("first", "second")
    ]
    try:
        assert [read_line(writer) for writer in writers] == ["ready", "ready"]
        for writer in writers:  # both start together
            assert writer.stdin is not None
            writer.stdin.write(b"go\n")
            writer.stdin.flush()
        assert [read_line(writer, timeout=120) for writer in writers] == ["done", "done"]
    finally:
        for writer in writers:
            writer.kill()
            writer.wait(timeout=30)
    kept = sorted(tmp_path.iterdir())
    assert len(kept) == 2 * count, "a replay was written over another's"
    assert sorted(path.read_text(encoding="utf-8") for path in kept) == sorted(
        f"{who} {number}\n" for who in ("first", "second") for number in range(count)
    )
    names = {path.name for path in kept}
    assert "2025-03-01-201502-big2-8812.jsonl" in names and "2025-03-01-201502-big2-8812-80.jsonl" in names


def test_a_replay_is_named_without_hard_links_too(tmp_path: Path) -> None:
    """A file system without hard links (FAT): ``link`` (the parameter) fails as :func:`os.link` does there."""

    def no_links(source: str, target: Path) -> None:
        raise OSError(errno.EPERM, "Operation not permitted", str(target))

    taken = tmp_path / "game.jsonl"
    taken.write_text("an earlier game\n", encoding="utf-8")
    names = (tmp_path / ("game.jsonl" if n == 1 else f"game-{n}.jsonl") for n in range(1, 10))
    written = write_new_file(names, "this game\n", link=no_links)
    assert written == tmp_path / "game-2.jsonl" and written.read_text(encoding="utf-8") == "this game\n"
    assert taken.read_text(encoding="utf-8") == "an earlier game\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["game-2.jsonl", "game.jsonl"]  # no temporary left
    again = write_new(tmp_path, "game", "the next game\n")  # with links: the next free name
    assert again == tmp_path / "game-3.jsonl" and again.read_text(encoding="utf-8") == "the next game\n"


# -- two Parlours on terminals ---------------------------------------------------------------------------------------
class Terminal:
    """``parlour ARGS`` in a pseudo-terminal of 100x30, read and typed into as a person would."""

    def __init__(self, args: list[str], data: Path, config: Path) -> None:
        self.controller, terminal = pty.openpty()
        fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_DRIVER"} | {
            "TERM": "xterm-256color",
            paths.DATA_ENV: str(data),
            "PARLOUR_CONFIG_DIR": str(config),
        }
        self.child = subprocess.Popen(
            [sys.executable, "-c", CLI, *args],
            stdin=terminal,
            stdout=terminal,
            stderr=terminal,
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )
        os.close(terminal)
        self.output = b""

    def text(self) -> str:
        return ESCAPES.sub("", self.output.decode(errors="replace"))

    def wait_for(self, *words: str, timeout: float = 60.0) -> bool:
        """Until any of ``words`` is on the screen (True), or ``timeout`` seconds (False)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(word in self.text() for word in words):
                return True
            ready, _, _ = select.select([self.controller], [], [], 0.1)
            if ready:
                try:
                    self.output += os.read(self.controller, 65536)
                except OSError:
                    break
        return any(word in self.text() for word in words)

    def read_for(self, seconds: float) -> None:
        """Read what the app draws for ``seconds`` (so it never waits for its terminal meanwhile)."""
        self.wait_for("\x00", timeout=seconds)  # (no screen shows a NUL)

    def type(self, keys: bytes) -> None:
        self.output = b""  # what comes after the keys
        os.write(self.controller, keys)

    def kill(self) -> None:
        if self.child.poll() is None:
            os.killpg(self.child.pid, signal.SIGKILL)
        self.child.wait(timeout=30)
        os.close(self.controller)


def your_move_saved(save: Path, terminal: Terminal) -> bool:
    """Until ``save`` holds a move of your seat (bounded; read as text, so nothing is moved aside meanwhile)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if any(seat == 0 for seat, _ in json.loads(save.read_text(encoding="utf-8"))["actions"]):
                return True
        except (OSError, ValueError):
            pass
        terminal.read_for(0.2)
    return False


def play(game: str, seed: int, data: Path, config: Path) -> Terminal:
    """``parlour play GAME`` with three players: started, you stay once."""
    args = ["play", game, "--players", "3", "--seed", str(seed), "--difficulty", "easy", "--name", "Ana"]
    terminal = Terminal(args, data, config)
    assert terminal.wait_for("Your turn", "Go on with"), terminal.text()[-2000:]
    assert "Go on with" not in terminal.text(), "offered a match another Parlour is playing"
    terminal.type(b"s")  # (saved: your_move_saved)
    return terminal


def test_two_parlours_at_once_keep_two_saves_and_each_is_offered_later(tmp_path: Path) -> None:
    data, config = tmp_path / "data", tmp_path / "config"
    config.mkdir()
    (config / "settings.toml").write_text("bot_pace = 0.05\n", encoding="utf-8")  # the bots need not be watched
    first = play("chase", 7, data, config)
    try:
        assert your_move_saved(data / "autosave.json", first)
        second = play("screw", 8, data, config)  # while the first plays: its match is not offered
        try:
            assert your_move_saved(data / "autosave-2.json", second)
        finally:
            second.kill()
    finally:
        first.kill()
    # Both were killed: both matches are whole, each in its own save, and each can be gone on with.
    chase, screw = load_match(data / "autosave.json"), load_match(data / "autosave-2.json")
    assert isinstance(chase, Table) and isinstance(screw, Table)
    assert (chase.entry.key, chase.seed, screw.entry.key, screw.seed) == ("chase", 7, "screw", 8)
    assert not chase.state.is_over and not screw.state.is_over
    assert {path.name for path in local_saves(data)} == {"autosave.json", "autosave-2.json"}

    # Two Parlours started again, together: each is offered one of them, never the same.
    offered: list[str] = []
    again = [Terminal([], data, config), Terminal([], data, config)]
    try:
        for terminal in again:
            assert terminal.wait_for("Go on with your match of"), terminal.text()[-2000:]
            found = re.search(r"Go on with your match of ([A-Za-z ]+)\?", terminal.text())
            assert found is not None
            offered.append(found.group(1))
        assert sorted(offered) == ["Chase the Ace", "Screw Your Neighbor"]
        again[0].type(b"y")
        assert again[0].wait_for("Your turn", "Next hand"), again[0].text()[-2000:]  # the table, where it stopped
    finally:
        for terminal in again:
            terminal.kill()
