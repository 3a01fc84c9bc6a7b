"""Start ``parlour`` (the main menu) on a pseudo-terminal, wait for its first frame, quit with ctrl+q, and check
that it exited with status 0 and left the terminal as it found it (modes, main screen, cursor shown).

Usage: ``python .ci/first_frame.py PATH/TO/parlour``. Standard library only, so any venv's Python runs it. The
app's settings, statistics and saves go to a temporary home, never the user's.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable

FIRST_FRAME = ("Start", "Rules", "Settings", "Quit", "Statistics")
"""The main menu's buttons and its footer's keys: the first frame is drawn once they are all on the screen."""
ESCAPE = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[PX^_][^\x1b]*\x1b\\|.)")
CAP = 60.0
"""Seconds at most for the first frame, and again for the exit: a cap, not a measurement."""


def read_until(master: int, done: Callable[[], bool], seen: bytearray, cap: float) -> bool:
    """Read the terminal's output into ``seen`` until ``done()`` is true or ``cap`` seconds pass."""
    deadline = time.monotonic() + cap
    while time.monotonic() < deadline:
        if done():
            return True
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the other side closed: the program has exited
                return done()
            seen.extend(chunk)
    return done()


def main(parlour: str) -> int:
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    modes = termios.tcgetattr(slave)
    home = tempfile.mkdtemp(prefix="parlour-home-")
    env = dict(os.environ, TERM="xterm-256color", HOME=home, COLUMNS="120", LINES="40")
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        env[name] = os.path.join(home, name.lower())
    child = subprocess.Popen([parlour], stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    seen = bytearray()

    def text() -> str:
        return ESCAPE.sub(b"", bytes(seen)).decode("utf-8", "replace")

    try:
        if not read_until(master, lambda: all(word in text() for word in FIRST_FRAME), seen, CAP):
            print(f"no first frame within {CAP:.0f} s; the screen had: {text()[-2000:]!r}", file=sys.stderr)
            return 1
        quit_from = len(seen)
        os.write(master, b"\x11")  # ctrl+q
        if not read_until(master, lambda: child.poll() is not None, seen, CAP):
            print(f"ctrl+q did not quit within {CAP:.0f} s", file=sys.stderr)
            return 1
        read_until(master, lambda: False, seen, 0.2)  # what is still on its way
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    after = bytes(seen[quit_from:])
    problems = []
    if child.returncode != 0:
        problems.append(f"exit status {child.returncode}")
    if termios.tcgetattr(slave) != modes:
        problems.append("the terminal's modes were not restored")
    if b"\x1b[?1049l" not in after:
        problems.append("the alternate screen was not left")
    if after.rfind(b"\x1b[?25h") < after.rfind(b"\x1b[?25l"):
        problems.append("the cursor was left hidden")
    os.close(slave)
    os.close(master)
    if problems:
        print(f"{parlour}: " + "; ".join(problems) + f"; output after ctrl+q: {after[-600:]!r}", file=sys.stderr)
        return 1
    print(f"{parlour}: first frame drawn, ctrl+q quit with status 0, terminal restored")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
