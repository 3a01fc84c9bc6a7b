"""Quitting ``parlour`` on a real pseudo-terminal: the process ends as any Python program does (its ``atexit`` hooks
run), with status 0, the terminal left as it was found, and nothing lost: the move made is in the save on disk.

How fast it quits is measured in benchmarks, not here."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from dataclasses import dataclass
from pathlib import Path

from terminal import ROOT, clean_env, plain

QUIT = b"\x11"  # ctrl+q
CLEAN_EXIT: dict[str, bytes] = {
    "leave the alternate screen": b"\x1b[?1049l",
    "show the cursor": b"\x1b[?25h",
    "turn mouse reporting off": b"\x1b[?1000l",
    "turn SGR mouse reporting off": b"\x1b[?1006l",
}
"""What the terminal must be sent as the app ends, else the shell it returns to is left unusable."""
RUN = (
    "import atexit, sys\n"
    "hook = sys.argv[1]\n"
    "atexit.register(lambda: open(hook, 'w').write('atexit ran'))\n"
    "sys.argv = ['parlour', *sys.argv[2:]]\n"
    "from tui.launch import run\n"
    "run()\n"
)
"""``parlour`` as the installed script starts it (tui.launch), with an ``atexit`` hook that leaves a file behind."""
WAIT = 120.0
"""Seconds any one step may take at most (the machine may be loaded)."""


@dataclass
class Ended:
    status: int
    screen: str
    tail: bytes
    """What was written to the terminal after the last key."""
    modes_kept: bool
    """Echo, line editing, signals and CR translation as they were before the app started."""


def modes(fd: int) -> tuple[int, int]:
    attrs = termios.tcgetattr(fd)
    return attrs[3] & (termios.ECHO | termios.ICANON | termios.ISIG), attrs[0] & termios.ICRNL


def terminal_of_80x24() -> tuple[int, int]:
    """A pseudo-terminal (controller, terminal) of 80 columns and 24 rows."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    return controller, terminal


def start_on(terminal: int, args: list[str], hook: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """``parlour ARGS`` (as :data:`RUN` starts it) on ``terminal``, a session of its own as a shell's job."""
    return subprocess.Popen(
        [sys.executable, "-c", RUN, str(hook), *args],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )


def end(child: subprocess.Popen[bytes], controller: int, terminal: int) -> None:
    """The child ended (killed if it is still running) and the terminal closed."""
    if child.poll() is None:
        child.kill()
    child.wait()
    os.close(controller)
    os.close(terminal)


def run_and_type(args: list[str], steps: list[tuple[str, bytes]], hook: Path, env: dict[str, str]) -> Ended:
    """Run ``parlour ARGS`` on a terminal of 80x24; for each (text, keys), once ``text`` is on the screen since the
    keys before, type ``keys``. Then read until the process ends."""
    controller, terminal = terminal_of_80x24()
    before = modes(terminal)
    child = start_on(terminal, args, hook, env)
    output = bytearray()
    since = 0
    typed = 0
    deadline = time.monotonic() + WAIT
    try:
        while True:
            shown = plain(output[since:].decode(errors="replace"))
            assert time.monotonic() < deadline, f"stuck at step {typed}: {shown}"
            ready = os.read(controller, 65536) if _readable(controller) else b""
            output += ready
            if child.poll() is not None and not ready:
                break
            if typed < len(steps) and steps[typed][0] in plain(output[since:].decode(errors="replace")):
                os.write(controller, steps[typed][1])
                typed, since, deadline = typed + 1, len(output), time.monotonic() + WAIT
        kept = modes(terminal) == before
    finally:
        end(child, controller, terminal)
    assert typed == len(steps)
    return Ended(child.returncode, plain(output.decode(errors="replace")), bytes(output[since:]), kept)


def _readable(fd: int) -> bool:
    return bool(select.select([fd], [], [], 0.05)[0])


def test_quitting_a_table_keeps_the_move_runs_atexit_and_restores_the_terminal(tmp_path: Path) -> None:
    data, config = tmp_path / "data", tmp_path / "config"
    env = clean_env(PARLOUR_DATA_DIR=str(data), PARLOUR_CONFIG_DIR=str(config), PARLOUR_BOT_PROCESS="0")
    hook = tmp_path / "atexit.txt"
    steps = [
        ("Your turn", b"s"),  # at Chase the Ace: keep your card (the dealer, you are the last to move)
        ("Next hand", QUIT),  # the hand is over, the match is on: ctrl+q asks first
        ("Quit Parlour?", QUIT),  # and again: quit
    ]
    ended = run_and_type(["play", "chase", "--players", "2", "--seed", "1", "--difficulty", "easy"], steps, hook, env)

    assert ended.status == 0, ended.screen[-2000:]
    assert hook.read_text() == "atexit ran"  # the interpreter ended as usual: no os._exit
    missing = [what for what, code in CLEAN_EXIT.items() if code not in ended.tail]
    assert not missing, f"the app did not {', '.join(missing)}"
    assert ended.modes_kept
    saves = sorted(data.glob("autosave*.json"))
    assert saves, "no save on disk"
    saved = json.loads(saves[0].read_text())
    assert "stay" in json.dumps(saved), saved  # the move made before quitting


def play_to_the_end_and_quit(args: list[str], hook: Path, env: dict[str, str]) -> Ended:
    """Run ``parlour ARGS`` on a terminal of 80x24 and play by rule: keep your card when it is your turn, go on
    when a hand is over, and quit (``q``) from the match's results. Then read until the process ends."""
    rules = [("Play again", b"q"), ("See the results", b"\r"), ("Next hand", b"\r"), ("Your turn", b"s")]
    controller, terminal = terminal_of_80x24()
    child = start_on(terminal, args, hook, env)
    output = bytearray()
    since = 0
    quit_typed = False
    typed: list[str] = []
    deadline = time.monotonic() + WAIT
    try:
        while True:
            shown = plain(output[since:].decode(errors="replace"))
            assert time.monotonic() < deadline, f"stuck after {typed[-3:]} ({len(typed)} keys): {shown[-1500:]}"
            ready = os.read(controller, 65536) if _readable(controller) else b""
            output += ready
            if child.poll() is not None and not ready:
                break
            shown = plain(output[since:].decode(errors="replace"))
            for text, keys in rules:
                # (never the same twice in a row: a redraw may show the last prompt again before the next comes)
                if not quit_typed and text in shown and (not typed or typed[-1] != text):
                    os.write(controller, keys)
                    typed.append(text)
                    quit_typed = keys == b"q"
                    since, deadline = len(output), time.monotonic() + WAIT
                    if text == "See the results":  # (a redraw may show it again: the results' Enter is Play again)
                        rules = rules[:1]
                    break
    finally:
        end(child, controller, terminal)
    assert quit_typed, "the match never ended"
    return Ended(child.returncode, plain(output.decode(errors="replace")), bytes(output[since:]), True)


def test_quitting_at_the_end_of_a_match_keeps_its_statistics(tmp_path: Path) -> None:
    """The match's last move and ``q`` from its results at once: the game is counted in the statistics on disk
    before the process ends (the keeper's thread is given the time it needs), and nothing is left to resume."""
    data, config = tmp_path / "data", tmp_path / "config"
    config.mkdir()
    (config / "settings.toml").write_text("bot_pace = 0.0\n", encoding="utf-8")
    env = clean_env(PARLOUR_DATA_DIR=str(data), PARLOUR_CONFIG_DIR=str(config), PARLOUR_BOT_PROCESS="0")
    hook = tmp_path / "atexit.txt"
    ended = play_to_the_end_and_quit(
        ["play", "chase", "--players", "2", "--seed", "1", "--difficulty", "easy"], hook, env
    )

    assert ended.status == 0, ended.screen[-2000:]
    assert hook.read_text() == "atexit ran"
    missing = [what for what, code in CLEAN_EXIT.items() if code not in ended.tail]
    assert not missing, f"the app did not {', '.join(missing)}"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from tui.cli import run; sys.argv[0] = 'parlour'; run()",
            "stats",
            "--json",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=WAIT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    counted = json.loads(done.stdout)
    assert "chase" in json.dumps(counted) and '"games": 1' in json.dumps(counted), counted
    assert not list(data.glob("stats-pending*")) or not (data / "stats-pending.jsonl").read_text().strip()
    assert not sorted(data.glob("autosave*.json")), "a finished match is not offered again"
