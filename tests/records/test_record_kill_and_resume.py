"""Never lose a game (issue 11): ``parlour play`` killed with SIGKILL mid-match is offered again at the next start,
and the saved match goes on exactly as an uninterrupted one with the same moves would."""

from __future__ import annotations

import fcntl
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
from pathlib import Path

from engine import codec
from engine.records.saves import load_match
from engine.table import Table

ROOT = Path(__file__).resolve().parents[2]
ESCAPES = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|.)")
CLI = "import sys; from tui.cli import run; sys.argv[0] = 'parlour'; run()"


class Terminal:
    """``parlour ARGS`` in a pseudo-terminal of 100x30, read and typed into as a person would."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.controller, terminal = pty.openpty()
        fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        base = {k: v for k, v in os.environ.items() if k != "TEXTUAL_DRIVER"}
        self.child = subprocess.Popen(
            [sys.executable, "-c", CLI, *args],
            stdin=terminal,
            stdout=terminal,
            stderr=terminal,
            cwd=ROOT,
            env=base | {"TERM": "xterm-256color"} | env,
            start_new_session=True,
        )
        os.close(terminal)
        self.output = b""

    def text(self) -> str:
        return ESCAPES.sub("", self.output.decode(errors="replace"))

    def wait_for(self, *words: str, timeout: float = 30.0) -> bool:
        """Until any of ``words`` is on the screen (True), or ``timeout`` seconds (False)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(w in self.text() for w in words):
                return True
            ready, _, _ = select.select([self.controller], [], [], 0.1)
            if ready:
                try:
                    self.output += os.read(self.controller, 65536)
                except OSError:
                    return any(w in self.text() for w in words)
        return False

    def type(self, keys: bytes) -> None:
        self.output = b""  # what comes after the keys
        os.write(self.controller, keys)

    def close(self, sig: int = signal.SIGKILL) -> int:
        if self.child.poll() is None:
            os.killpg(self.child.pid, sig)
        status = self.child.wait(timeout=30)
        os.close(self.controller)
        return status


def reference_for(saved: Table) -> Table:
    """The same match played without interruption: the same setup, your moves as saved, the bots' own."""
    table = Table.create(
        saved.entry.key,
        players=len(saved.seats),
        seed=saved.seed,
        bots=[seat.level for seat in saved.seats],
        names=[seat.name for seat in saved.seats],
        preset=saved.preset,
        variants=saved.variants,
    )
    for seat, action in saved.actions:
        if table.seats[seat].is_bot:
            assert table.think() == (seat, action), "the bots would have played otherwise"
        table.submit(seat, action)
    return table


def _has_your_move(save: Path) -> bool:
    """Whether the autosave holds a move of seat 0's."""
    saved = load_match(save) if save.is_file() else None
    return isinstance(saved, Table) and any(seat == 0 for seat, _ in saved.actions)


def test_a_killed_match_is_offered_again_and_goes_on_as_if_never_stopped(tmp_path: Path) -> None:
    env = {"PARLOUR_DATA_DIR": str(tmp_path / "data"), "PARLOUR_CONFIG_DIR": str(tmp_path / "config")}
    save = tmp_path / "data" / "autosave.json"
    play = Terminal(["play", "chase", "--players", "4", "--seed", "7", "--difficulty", "easy", "--name", "Ana"], env)
    try:
        assert play.wait_for("Your turn"), play.text()[-2000:]
        play.type(b"s")
        assert play.wait_for("You stayed"), play.text()[-2000:]
        deadline = time.monotonic() + 60
        while not _has_your_move(save):  # the autosave after your move (written whole: temporary file, rename)
            assert time.monotonic() < deadline, "your move was never saved"
            time.sleep(0.02)  # (a poll's pause: the condition is what is waited for)
    finally:
        assert play.close(signal.SIGKILL) == -signal.SIGKILL
    saved = load_match(save)
    assert isinstance(saved, Table), saved
    assert any(seat == 0 for seat, _ in saved.actions), "your move was not saved"
    assert not saved.state.is_over

    # The save is the uninterrupted match at the same point, and both play on identically.
    reference = reference_for(saved)
    assert codec.dumps(reference.state.history) == codec.dumps(saved.state.history)
    for _ in range(400):
        if saved.state.is_over:
            break
        if saved.state.to_move == 0:
            move = saved.state.legal_actions()[0]
            saved.submit(0, move)
            reference.submit(0, move)
        else:
            saved.step_bot()
            reference.step_bot()
    assert saved.state.is_over
    assert codec.dumps(reference.state.history) == codec.dumps(saved.state.history)

    # The next start offers it again, and "go on" opens the table where it stopped.
    again = Terminal([], env)
    try:
        assert again.wait_for("Go on with your match of Chase the Ace?"), again.text()[-2000:]
        again.type(b"y")
        assert again.wait_for("Your turn", "to play"), again.text()[-2000:]
        assert "Ana" in again.text() or "You" in again.text()
    finally:
        again.close(signal.SIGTERM)
