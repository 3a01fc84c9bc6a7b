"""What the browser tests share: a headless ``parlour host --web-port`` on 127.0.0.1 (a process of its own, whose
children are the browser sessions' processes), Debian's chromium driven by Playwright, and a page's terminal read as
text.

The terminal of textual-serve's page is xterm.js drawn on a canvas, so its text is not in the DOM. The page's own
xterm.js instance is caught as the page makes it (an init script: a setter for the first property the page's
terminal wrapper assigns after its terminal, ``fitAddon``, keeps the wrapper's ``terminal``), and its text is read
through xterm.js's public buffer API (``buffer.active.getLine(y).getCell(x)``): exactly the characters the page
shows, cell by cell, with each cell's column for a click at it. Every wait is bounded."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
START = 60.0
"""The longest the host (and a page's app, started by it) may take to come up, with both cores busy."""
WAIT = 30.0
"""The longest any other one step may take."""
GONE = 15.0
"""The longest a closed tab's process may outlive it (the gateway needs a few seconds at most)."""

HOOK = """
Object.defineProperty(Object.prototype, "fitAddon", {
  configurable: true,
  set(value) {
    if (this.terminal && !window.parlourTerminal) window.parlourTerminal = this.terminal;
    Object.defineProperty(this, "fitAddon", {value, writable: true, configurable: true, enumerable: true});
  },
});
"""

READ = """() => {
  const t = window.parlourTerminal;
  if (!t) return null;
  const buffer = t.buffer.active, rows = [];
  for (let y = 0; y < t.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    let text = "", cols = [];
    for (let x = 0; line && x < t.cols; x++) {
      const cell = line.getCell(x);
      if (!cell || cell.getWidth() === 0) continue;
      const chars = cell.getChars() || " ";
      for (const c of chars) { text += c; cols.push(x); }
    }
    rows.push({text, cols});
  }
  return {rows, cols: t.cols, height: t.rows};
}"""

ENV_DROPPED = ("NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES", "TEXTUAL_DRIVER", "PARLOUR_PASSWORD", "PARLOUR_ASK")


def install_chromium() -> None:
    """Debian's chromium, installed once by the first worker that needs it where the machine can (root, with
    apt-get): the README's test command sets up all the suite needs. Elsewhere it is said in one line."""
    import fcntl
    import shutil

    if CHROMIUM.is_file():
        return
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        pytest.fail("install chromium: apt-get install chromium", pytrace=False)
    with open(Path(tempfile.gettempdir()) / "parlour-chromium.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # (the other workers wait for the first one's install)
        if not CHROMIUM.is_file():
            env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
            for command in (["apt-get", "update"], ["apt-get", "install", "-y", "chromium"]):
                subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=900)
    if not CHROMIUM.is_file():
        pytest.fail("install chromium: apt-get install chromium (apt-get could not)", pytrace=False)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One headless chromium for a module's tests (Debian's, installed if it is missing; never Playwright's
    download). Not one a session: Playwright's sync API keeps an event loop running on the thread while it is open,
    and the worker's next asyncio test, of another file, would find it there ("Runner.run() cannot be called from a
    running event loop"); pytest closes a module's fixtures before a test of another module runs."""
    install_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Host:
    process: subprocess.Popen[bytes]
    port: int
    url: str
    log: list[str]

    def children(self) -> list[psutil.Process]:
        """The host's child processes now (the browser sessions' ``parlour join``), zombies left out: the host's
        event loop reaps each as it ends."""
        try:
            found = psutil.Process(self.process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []
        alive = []
        for child in found:
            with contextlib.suppress(psutil.NoSuchProcess):
                if child.status() != psutil.STATUS_ZOMBIE:
                    alive.append(child)
        return alive

    def why(self) -> str:
        return "the host's log ends: " + " | ".join(self.log[-15:])


def start_host(data: Path, *extra: str) -> Host:
    env = {k: v for k, v in os.environ.items() if k not in ENV_DROPPED} | {"PARLOUR_DATA_DIR": str(data)}
    command = [sys.executable, "-m", "tui", "host", "--headless", "--bind", "127.0.0.1", "--port", "0"]
    command += ["--web-port", "0", "--no-keep", "--name", "Web Test", *extra]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    log: list[str] = []
    found: dict[str, str] = {}
    ready = threading.Event()

    def read() -> None:
        assert process.stderr is not None
        for raw in process.stderr:
            line = raw.decode(errors="replace").rstrip()
            log.append(line)
            if match := re.search(r"hosting on 127\.0\.0\.1:(\d+)", line):
                found["port"] = match.group(1)
            if match := re.search(r"or in a browser: (http://\S+)", line):
                found["url"] = match.group(1)
                ready.set()
        ready.set()

    threading.Thread(target=read, name="web-test-host-log", daemon=True).start()
    ready.wait(START)
    if "url" not in found or "port" not in found:
        stop_host(process)
        raise AssertionError(f"the host did not start: {' | '.join(log[-15:])}")
    return Host(process, int(found["port"]), found["url"], log)


def stop_host(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(WAIT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(WAIT)


@pytest.fixture
def host(tmp_path: Path) -> Iterator[Host]:
    running = start_host(tmp_path / "data")
    try:
        yield running
    finally:
        stop_host(running.process)


def until(check: Callable[[], Any], timeout: float, what: str, why: Callable[[], str] = str, every: float = 0.2) -> Any:
    """Poll ``check`` until it gives something true (returned), for at most ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}: {why()}")
        time.sleep(every)  # (a poll's pause: the condition is what is waited for)


class Terminal:
    """A page of the host's browser door, read and typed into as its player would."""

    def __init__(self, browser: Any, url: str, width: int, height: int) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.page.add_init_script(HOOK)
        self.page.goto(url)

    def screen(self) -> dict[str, Any] | None:
        try:
            return self.page.evaluate(READ)  # type: ignore[no-any-return]
        except Exception:  # (the page navigating, or closed)
            return None

    def rows(self) -> list[str]:
        screen = self.screen()
        return [row["text"] for row in screen["rows"]] if screen else []

    def text(self) -> str:
        return "\n".join(self.rows())

    def why(self) -> str:
        lines = [line.rstrip() for line in self.rows() if line.strip()]
        return "the page shows: " + " | ".join(lines)

    def wait(self, text: str, timeout: float = WAIT) -> None:
        until(lambda: text in self.text(), timeout, f"{text!r} on the page", self.why)

    def focus(self) -> None:
        self.page.locator(".xterm-helper-textarea").focus()

    def type(self, text: str) -> None:
        self.focus()
        self.page.keyboard.type(text)

    def press(self, key: str) -> None:
        self.focus()
        self.page.keyboard.press(key)

    def find(self, text: str) -> tuple[int, int] | None:
        """The (column, row) of the cell where ``text`` starts on the page, if it shows."""
        screen = self.screen()
        for y, row in enumerate(screen["rows"] if screen else []):
            at = row["text"].find(text)
            if at >= 0:
                return row["cols"][at], y
        return None

    def click(self, text: str) -> bool:
        """Click the middle of the first cell of ``text`` where the page shows it; False when it does not show."""
        screen, where = self.screen(), self.find(text)
        if screen is None or where is None:
            return False
        box = self.page.locator(".xterm-screen").bounding_box()
        assert box is not None
        column, row = where
        width, height = box["width"] / screen["cols"], box["height"] / screen["height"]
        self.page.mouse.click(box["x"] + (column + 1.5) * width, box["y"] + (row + 0.5) * height)
        return True

    def screenshot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(path))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.context.close()


SCREENSHOTS_ENV = "PARLOUR_SCREENSHOTS"
"""Where the browser tests write their screenshots (default: build/screenshots in the repository), for a person to
look at; each test run replaces its own."""


def screenshots_dir() -> Path:
    return Path(os.environ.get(SCREENSHOTS_ENV) or ROOT / "build" / "screenshots")


class Creator(threading.Thread):
    """Cleo, the table's creator at the terminal end of the protocol (a scripted client): a random legal action on
    each of her turns, ``next`` after every round; every event she sees is kept."""

    def __init__(self, session: Any, seed: int) -> None:
        super().__init__(name="web-test-creator", daemon=True)
        import random

        self.session = session
        self.rng = random.Random(seed)
        self.rounds = 0
        self.stop = threading.Event()
        self.failed: BaseException | None = None
        self._lock = threading.Lock()
        self._events: list[Any] = []

    @property
    def events(self) -> list[Any]:
        with self._lock:
            return list(self._events)

    def seen(self, update: Any) -> None:
        from engine.match import RoundOver

        with self._lock:
            for event in update.events:
                self._events.append(event)
                if isinstance(event, RoundOver) and not event.last:
                    self.rounds += 1

    def run(self) -> None:
        from engine.errors import ParlourError

        answered = 0
        try:
            self.session.wait_started(WAIT)
            self.session.subscribe(self.seen)
            deadline = time.monotonic() + 10 * WAIT
            while not self.stop.is_set() and time.monotonic() < deadline:
                with self._lock:
                    rounds = self.rounds
                if answered < rounds:
                    answered += 1
                    self.session.ready()
                snap = self.session.snapshot()
                if snap.over:
                    return
                if snap.legal:
                    try:
                        self.session.submit(self.rng.choice(snap.legal))
                    except ParlourError:
                        pass  # overtaken (a stale snapshot): look again
                else:
                    self.stop.wait(0.05)  # not her turn: look again in a moment, without hammering the host
        except BaseException as err:  # reported by the test
            self.failed = err

    def finish(self) -> None:
        self.stop.set()
        if self.ident is not None:
            self.join(WAIT)
