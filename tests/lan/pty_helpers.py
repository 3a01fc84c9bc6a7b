"""``parlour`` on a real pseudo-terminal of 80x24 for the LAN tests, its output read on a thread of its own; every
wait is bounded."""

from __future__ import annotations

import asyncio
import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import threading
from collections.abc import Sequence
from pathlib import Path

from lan_helpers import WAIT
from terminal import CLI, ROOT, clean_env, plain

AS_ON_A_TERMINAL = "import signal; signal.signal(signal.SIGHUP, signal.SIG_DFL); "
"""What a terminal's shell gives the program it starts: a hang-up ends it by default, whatever this test run
inherited (a run started under ``nohup`` ignores SIGHUP, and so would every child it starts)."""


class OnTerminal:
    """``parlour ARGS`` on a pseudo-terminal of 80x24, with ``data`` as its data directory."""

    def __init__(self, args: Sequence[str], data: Path) -> None:
        self.controller, terminal = pty.openpty()
        fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.child = subprocess.Popen(
            [sys.executable, "-c", AS_ON_A_TERMINAL + CLI, *args],
            stdin=terminal,
            stdout=terminal,
            stderr=terminal,
            cwd=ROOT,
            env=clean_env(PARLOUR_DATA_DIR=str(data), PARLOUR_BOT_PROCESS="0"),
            start_new_session=True,
        )
        os.close(terminal)
        self.output = bytearray()
        self._lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while True:
            ready, _, _ = select.select([self.controller], [], [], 0.1)
            if not ready:
                if self.child.poll() is not None:
                    return
                continue
            try:
                chunk = os.read(self.controller, 65536)
            except OSError:  # every copy of the terminal is closed: the child is done with it
                return
            if not chunk:
                return
            with self._lock:
                self.output += chunk

    def written(self) -> bytes:
        with self._lock:
            return bytes(self.output)

    def shown(self, since: int = 0) -> str:
        """What was written from byte ``since`` on, without escape codes."""
        return plain(self.written()[since:].decode(errors="replace"))

    async def wait_for(self, text: str, since: int = 0) -> str:
        """Everything written (plain) from byte ``since`` once ``text`` is among it; bounded."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 6 * WAIT
        while text not in (shown := self.shown(since)):
            assert self.child.poll() is None, shown[-2000:]
            assert loop.time() < deadline, f"never shown: {text!r} in {shown[-2000:]}"
            await asyncio.sleep(0.05)  # (a poll's pause: the text is what is waited for)
        return shown

    def end(self) -> None:
        if self.child.poll() is None:
            self.child.kill()
        self.child.wait(WAIT)
        self.reader.join(WAIT)
        os.close(self.controller)
