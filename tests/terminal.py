"""One way for the tests to run ``parlour`` on a real pseudo-terminal: ``isatty`` and Rich decide as they do for
users, and a test may type into it as a person would. Every wait is bounded."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = "import sys; from tui.cli import run; sys.argv[0] = 'parlour'; run()"
"""``parlour`` itself, as the installed script runs it."""
ESCAPES = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|.)")
LOUD = ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS", "LINES", "TEXTUAL_DRIVER")
"""Variables that would make Rich, argparse or Textual decide differently from what a test asks for."""


def clean_env(**extra: str) -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in LOUD} | {"TERM": "xterm-256color"} | extra


def plain(text: str) -> str:
    """``text`` without its escape codes."""
    return ESCAPES.sub("", text)


@dataclass(frozen=True)
class Run:
    status: int
    terminal: str
    """Everything written to the pseudo-terminal (escape codes kept)."""
    stdout: str
    """Standard output when it went to a file ('' when it went to the terminal)."""
    stderr: str
    """Standard error when it went to a file ('' when it went to the terminal)."""
    typed: int
    """How many of the steps were typed."""


def run_on_terminal(
    args: Sequence[str],
    *,
    steps: Sequence[tuple[str, bytes]] = (),
    stdin_tty: bool = True,
    stdout_tty: bool = True,
    stderr_tty: bool = True,
    size: tuple[int, int] = (80, 24),
    env: dict[str, str] | None = None,
    settle: float = 1.0,
    timeout: float = 120.0,
) -> Run:
    """``parlour ARGS`` with the chosen streams on a pseudo-terminal of ``size`` (columns, rows); the others go to
    files (stdin: /dev/null). For each ``(text, keys)`` of ``steps``, once ``text`` is on the screen (written after
    the keys before it) and ``settle`` seconds have passed, ``keys`` are typed. Reads until the child is done."""
    controller, terminal = pty.openpty()
    width, height = size
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
    with tempfile.TemporaryFile() as out_file, tempfile.TemporaryFile() as err_file:
        child = subprocess.Popen(
            [sys.executable, "-c", CLI, *args],
            stdin=terminal if stdin_tty else subprocess.DEVNULL,
            stdout=terminal if stdout_tty else out_file,
            stderr=terminal if stderr_tty else err_file,
            cwd=ROOT,
            env=env if env is not None else clean_env(),
            start_new_session=True,
        )
        os.close(terminal)
        output = b""
        typed = 0
        since = 0  # where the output after the last keys starts
        seen_at: float | None = None
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                ready, _, _ = select.select([controller], [], [], 0.1)
                if ready:
                    try:
                        chunk = os.read(controller, 65536)
                    except OSError:  # every copy of the terminal is closed: the child is done with it
                        break
                    if not chunk:
                        break
                    output += chunk
                elif child.poll() is not None:
                    break
                if typed == len(steps):
                    continue
                text, keys = steps[typed]
                if seen_at is None and text in plain(output[since:].decode(errors="replace")):
                    seen_at = time.monotonic()
                if seen_at is not None and time.monotonic() - seen_at >= settle:
                    os.write(controller, keys)
                    typed, since, seen_at = typed + 1, len(output), None
            status = child.wait(timeout=max(1.0, deadline - time.monotonic()))
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
            os.close(controller)
        out_file.seek(0)
        err_file.seek(0)
        return Run(status, output.decode(errors="replace"), out_file.read().decode(), err_file.read().decode(), typed)
