"""Black-box figures of the app, each beside a reference measured the same way in the same run.

Start-up and quitting are timed from the outside, as a person meets them: the app runs on a real pseudo-terminal
(80x24, ``TERM=xterm-256color``, settings and saves in a fresh temporary directory so no resume question appears),
and the clock runs from the moment the process is started until a text the first screen draws appears in its
output (:func:`startup`), or from the ``ctrl+q`` that quits until the process has ended (:func:`quit_time`). The
reference is a bare Textual app with one ``Static``, started and quit the same way: what Textual itself costs on
this machine at this moment, so a ratio means something on a busy machine too.

The cost of redrawing a hand (:func:`hand_update`) and the longest frame while a bot thinks (:func:`frame_gaps`)
are measured in this process with Textual's headless Pilot.

Every function returns plain numbers (seconds); runs of the app and of its reference alternate (A B A B ...) and
the median is taken, so a machine that gets busier halfway through weighs on both alike.
"""

from __future__ import annotations

import contextlib
import fcntl
import gc
import itertools
import os
import random
import re
import select
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.registry import entries

if TYPE_CHECKING:
    from textual.pilot import Pilot

__all__ = [
    "CLEAN_EXIT",
    "MENU_MARKER",
    "REFERENCE_MARKER",
    "TABLES",
    "BenchError",
    "Figure",
    "PtyRun",
    "app_argv",
    "check_clean",
    "frame_gaps",
    "hand_update",
    "interleaved",
    "quit_figures",
    "quit_keys",
    "quit_time",
    "reference_argv",
    "run_on_pty",
    "startup",
    "startup_figures",
    "static_update",
    "targets",
]

SIZE = (80, 24)
"""The terminal the app is started in: columns, rows."""
TIMEOUT = 20.0
"""Seconds before a run that never draws (or never ends) is given up: it raises BenchError."""
REFERENCE_MARKER = "Reference app ready"
"""What the one-Static reference app draws."""
REFERENCE_CODE = f"""
from textual.app import App
from textual.widgets import Static

class Reference(App[None]):
    def compose(self):
        yield Static({REFERENCE_MARKER!r})

Reference().run()
"""
TABLE_MARKER = "What happened"
"""A text every table screen draws (the log's title, :class:`~tui.screens.table.TableScreen`'s)."""
TABLES: dict[str, str] = {entry.key: TABLE_MARKER for entry in entries()}
"""Each game the app can seat you at (``parlour play GAME``, from the registry) and a text its table screen
draws."""
MENU_MARKER = "Start"
"""A text the main menu draws (its Start button)."""
CLEAN_EXIT: dict[str, bytes] = {
    "leaves the alternate screen": b"\x1b[?1049l",
    "shows the cursor": b"\x1b[?25h",
    "turns mouse reporting off": b"\x1b[?1000l",
    "turns mouse motion reporting off": b"\x1b[?1003l",
    "turns SGR mouse reporting off": b"\x1b[?1006l",
}
"""What a terminal must be sent when the app ends, else the shell it returns to is left unusable."""


class BenchError(RuntimeError):
    """A run that could not be measured (no first frame, no exit, a terminal left dirty): one sentence."""


def reference_argv() -> list[str]:
    """The command of the reference: a Textual app with one Static, in a fresh interpreter."""
    return [sys.executable, "-c", REFERENCE_CODE]


def app_argv(*args: str) -> list[str]:
    """The command of Parlour (``python -m tui ARGS``), as the ``parlour`` entry point runs it."""
    return [sys.executable, "-m", "tui", *args]


def bench_env(home: Path) -> dict[str, str]:
    """The environment of a measured run: a real terminal type and its own data and config directories (no resume
    question, no settings of yours); no COLUMNS or LINES (they would win over the terminal's own size), no
    TEXTUAL_DRIVER (the app runs with the driver it chooses on a terminal)."""
    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES", "TEXTUAL_DRIVER")}
    env.update(
        TERM="xterm-256color",
        PARLOUR_DATA_DIR=str(home / "data"),
        PARLOUR_CONFIG_DIR=str(home / "config"),
        PYTHONPATH=os.pathsep.join(filter(None, [str(_project_root()), env.get("PYTHONPATH", "")])),
    )
    env.pop("PARLOUR_BOT_PROCESS", None)  # the app as it ships: its bots think in a child process
    # Compiled bytecode, as an installed program has it (pip compiles on install), kept apart from the source tree:
    # the first run of each command in a bench fills it and is not counted (see warm_up).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(bytecode_cache())
    return env


def bytecode_cache() -> Path:
    """Where the measured runs keep their compiled bytecode: one directory per user, kept between benchmarks
    (Python checks each file against its source, so a stale entry is never used)."""
    return Path(tempfile.gettempdir()) / f"parlour-bench-pycache-{os.getuid()}"


_warmed: set[tuple[str, ...]] = set()


def warm_up(argv: Sequence[str], marker: str) -> None:
    """Run ``argv`` once, uncounted, and quit it as a person does, the first time this process measures it: it
    compiles what it imports into the bytecode cache and the disk cache holds its files, as they are for a program
    used every day. The reference is warmed the same way as every target."""
    key = tuple(argv)
    if key in _warmed:
        return
    _warmed.add(key)
    run_on_pty(argv, marker, quit_keys=[(QUIT, None)], settle=0.1, warm=False, insist=True)


def _project_root() -> Path:
    import tui

    return Path(tui.__file__).resolve().parent.parent


@dataclass
class PtyRun:
    """One run of a command on a pseudo-terminal."""

    first_frame: float
    """Seconds from starting the process to the marker on screen."""
    quit: float | None = None
    """Seconds from the quitting key to the process's end (None: not quit)."""
    status: int | None = None
    """The exit status."""
    problems: tuple[str, ...] = ()
    """What the terminal was not sent at the end (empty: it was left clean)."""
    modes_restored: bool | None = None
    """The terminal's modes (echo, line editing) were as before the run."""


def spawn(argv: Sequence[str], env: dict[str, str]) -> tuple[int, int, int]:
    """Start ``argv`` on a new pseudo-terminal of :data:`SIZE`, as its controlling terminal: (pid, master, slave).

    The slave stays open here too, so its modes can be read after the process has ended."""
    master, slave = os.openpty()
    columns, rows = SIZE
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    pid = os.fork()
    if pid == 0:  # the child: only async-signal-safe work until exec
        try:
            os.close(master)
            os.login_tty(os.dup(slave))
            os.close(slave)
            os.execve(argv[0], list(argv), env)
        finally:
            os._exit(127)
    return pid, master, slave


class _Reader:
    """The output of a process on a pseudo-terminal, read as it comes (a terminal that is not read blocks the
    program writing to it)."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.data = bytearray()
        self.closed = False

    def read_for(self, seconds: float) -> None:
        """Read whatever comes within ``seconds``."""
        end = time.perf_counter() + seconds
        while not self.closed and (left := end - time.perf_counter()) > 0:
            self._read(left)

    def until(self, marker: bytes, start: int, deadline: float) -> bool:
        """Read until ``marker`` appears after offset ``start``; False when the deadline passed or output ended."""
        while marker not in self.data[max(0, start) :]:
            left = deadline - time.perf_counter()
            if self.closed or left <= 0:
                return False
            self._read(left)
        return True

    def _read(self, timeout: float) -> None:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if ready:
            try:
                chunk = os.read(self.master, 1 << 16)
            except OSError:  # EIO: every copy of the slave is closed
                chunk = b""
            if chunk:
                self.data += chunk
            else:
                self.closed = True


def _wait_exit(pid: int, reader: _Reader, deadline: float, again: Callable[[], object] | None = None) -> int | None:
    """Read the output until the process ends; its exit status (None: still running at the deadline). ``again``
    is called every half second meanwhile, if given."""
    nudge = time.perf_counter() + 0.5
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        now = time.perf_counter()
        if now > deadline:
            return None
        if again is not None and now > nudge:
            again()
            nudge = now + 0.5
        reader._read(0.001)


ESCAPE = re.compile(r"\x1b(\[[0-9;?<>=$]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|.)")
"""A terminal escape sequence: CSI (colours, cursor moves, modes), OSC (titles), charset choices, two-byte ones."""


def _plain(output: bytes) -> str:
    """Terminal output as text: escape sequences dropped, runs of blanks made one space."""
    text = ESCAPE.sub(" ", output.decode(errors="replace"))
    return " ".join(text.split())


def _modes(fd: int) -> tuple[int, int]:
    attrs = termios.tcgetattr(fd)
    return attrs[3] & (termios.ECHO | termios.ICANON | termios.ISIG), attrs[0] & termios.ICRNL


def run_on_pty(
    argv: Sequence[str],
    marker: str,
    *,
    quit_keys: Sequence[tuple[bytes, str | None]] = (),
    settle: float = 0.0,
    home: Path | None = None,
    warm: bool = True,
    insist: bool = False,
) -> PtyRun:
    """Run ``argv`` on a pseudo-terminal until ``marker`` is on screen; then, if ``quit_keys`` is given, send them
    one at a time (each key, then the text to wait for before the next; None for the last key, which quits) and
    time the last key to the process's end.

    ``settle``: seconds to let the app go on before each key (what it does once started or once a question is
    drawn, such as finishing the dialog or a computer player's move, is then not counted in the quit).
    ``insist``: the last key is sent again every half second until the process ends (a warm-up run, not timed,
    quitting whatever asks first).
    """
    if warm:
        warm_up(argv, marker)
    with contextlib.ExitStack() as stack:
        if home is None:
            home = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="parlour-bench-")))
        env = bench_env(home)
        started = time.perf_counter()
        pid, master, slave = spawn(argv, env)
        before = _modes(slave)
        reader = _Reader(master)
        try:
            if not reader.until(marker.encode(), 0, started + TIMEOUT):
                said = _plain(bytes(reader.data))[-300:]
                raise BenchError(f"{' '.join(argv[-2:])} drew no {marker!r} within {TIMEOUT:g} s; it said: {said}")
            run = PtyRun(first_frame=time.perf_counter() - started)
            if not quit_keys:
                return run
            for key, wait_for in quit_keys:
                reader.read_for(settle)  # as a person: the key comes once the screen has settled
                mark = len(reader.data)
                sent = time.perf_counter()
                os.write(master, key)
                if wait_for is not None:
                    if not reader.until(wait_for.encode(), mark, time.perf_counter() + TIMEOUT):
                        raise BenchError(f"{' '.join(argv[-2:])} never drew {wait_for!r} after a key")
                    continue
                again = partial(os.write, master, key) if insist else None
                status = _wait_exit(pid, reader, sent + TIMEOUT, again)
                if status is None:
                    raise BenchError(f"{' '.join(argv[-2:])} did not end within {TIMEOUT:g} s of ctrl+q")
                run.quit = time.perf_counter() - sent
                run.status = status
                pid = 0
                reader.read_for(0.02)  # whatever was still in the terminal's buffer
                tail = bytes(reader.data[mark:])
                run.problems = tuple(what for what, code in CLEAN_EXIT.items() if code not in tail)
                run.modes_restored = _modes(slave) == before
            return run
        finally:
            if pid:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            os.close(master)
            os.close(slave)


def interleaved(measures: Sequence[Callable[[], float]], runs: int) -> list[float]:
    """The median of ``runs`` results of each measure, taken in turn (A B A B ...): one median per measure."""
    results: list[list[float]] = [[] for _ in measures]
    for _ in range(runs):
        for index, measure in enumerate(measures):
            results[index].append(measure())
    return [statistics.median(values) for values in results]


def startup(argv: Sequence[str], marker: str) -> float:
    """Seconds from starting ``argv`` on a pseudo-terminal to ``marker`` on screen (its first frame).

    The process is ended once measured. ``startup(reference_argv(), REFERENCE_MARKER)`` is the reference."""
    return run_on_pty(argv, marker).first_frame


QUIT = b"\x11"
"""ctrl+q"""
LEAVE_QUESTION = "Quit Parlour?"
"""What the app asks when ctrl+q is pressed at a table with a match on: a second ctrl+q quits."""


def quit_keys(argv: Sequence[str]) -> list[tuple[bytes, str | None]]:
    """The keys that quit ``argv``: ctrl+q, or at a table in play ctrl+q twice (the first one asks)."""
    if "play" in argv:
        return [(QUIT, LEAVE_QUESTION), (QUIT, None)]
    return [(QUIT, None)]


def quit_time(argv: Sequence[str], marker: str, settle: float = 0.2) -> float:
    """Seconds from the ctrl+q that quits ``argv`` (once ``marker`` is on screen) to the process's end.

    Raises :class:`BenchError` when the terminal was not left clean (the alternate screen left, the cursor shown,
    mouse reporting off, its modes restored) or the process ended with a status other than 0."""
    run = run_on_pty(argv, marker, quit_keys=quit_keys(argv), settle=settle)
    check_clean(run, argv)
    assert run.quit is not None
    return run.quit


def check_clean(run: PtyRun, argv: Sequence[str]) -> None:
    """Raise BenchError unless the run ended with status 0 and left the terminal as it found it."""
    name = " ".join(argv[-2:])
    if run.status != 0:
        raise BenchError(f"{name} ended with status {run.status} after ctrl+q")
    if run.problems:
        raise BenchError(f"{name} left the terminal dirty: it never {', '.join(run.problems)}")
    if not run.modes_restored:
        raise BenchError(f"{name} left the terminal's modes changed (echo or line editing)")


# -- in this process, with Pilot -------------------------------------------------------------------------------------
HAND_CSS = """
HandStrip { height: 7; border: round $panel-lighten-2; padding: 0 0 0 1; }
Static#reference { height: 7; border: round $panel-lighten-2; padding: 0 0 0 1; }
"""
"""The hand as the Big Two table draws it at 80x24 (a 7-row strip of mini faces), and a Static of the same size."""


def _hands(cards: int, count: int = 8) -> list[list[Any]]:
    """``count`` different hands of ``cards`` cards (from two decks when a hand is larger than one)."""
    from engine.cards import deck

    rng = random.Random(cards)
    cycle = []
    for _ in range(count):
        pack = deck(decks=2)
        rng.shuffle(pack)
        cycle.append(pack[:cards])
    return cycle


def _redraws(make: Callable[[], Any], update: Callable[[Any, int], None], updates: int) -> float:
    """Seconds per redraw: a one-widget app (headless, 80x24) whose widget gets ``update(widget, i)`` then a refresh
    of the screen, ``updates`` times."""
    from textual.app import App, ComposeResult

    made: list[Any] = []

    class Probe(App[None]):
        CSS = HAND_CSS

        def compose(self) -> ComposeResult:
            made.append(make())
            yield made[0]

    results: list[float] = []

    async def measure(pilot: Pilot[object]) -> None:
        await pilot.pause()
        # The widget itself, not the screen's first child: Textual's toast rack is among the screen's children, and
        # comes first on Python 3.12 and later.
        widget = made[0]
        started = time.perf_counter()
        for index in range(updates):
            update(widget, index)
            await pilot.pause(0)  # the screen redraws what changed
        results.append((time.perf_counter() - started) / updates)
        pilot.app.exit()

    with _quiet_home():
        Probe().run(headless=True, size=SIZE, auto_pilot=measure)
    if not results:
        raise BenchError("the redraw probe ended before it measured anything")
    return results[0]


def hand_update(cards: int, updates: int = 200) -> float:
    """Seconds per redraw of a hand of ``cards`` cards: ``HandStrip.show`` of a different hand, then the screen's
    refresh (the hand as at the Big Two table at 80x24)."""
    from tui.widgets.hand import HandStrip

    hands = _hands(cards)

    def show(strip: HandStrip, index: int) -> None:
        strip.show(hands[index % len(hands)])

    return _redraws(HandStrip, show, updates)


def static_update(updates: int = 200) -> float:
    """Seconds per ``Static.update`` with a different text, refreshed the same way: the reference of
    :func:`hand_update`."""
    from textual.widgets import Static

    def update(static: Static, index: int) -> None:
        static.update(f"update {index}")

    return _redraws(lambda: Static("", id="reference"), update, updates)


TICK = 0.01
"""Seconds between the ticks of the frame probe's timer: a late tick is the event loop held by something."""


def frame_gaps(seconds: float = 3.0, level: str = "hard") -> float:
    """The longest the event loop was held (seconds beyond the timer's own :data:`TICK`) at a 4-player Big Two table
    whose bots are ``level``, over ``seconds`` of play: a 10 ms timer notes how late each tick comes while the bots
    think (in a child process, as the app ships) and the table draws their moves. Your own moves are made for you
    (a pass when allowed, else the first play); each deal's scoring is closed as soon as it opens."""
    from textual.screen import ModalScreen

    from tui.apps.parlour import ParlourApp, PlayConfig
    from tui.screens.table import TableScreen

    ticks: list[float] = []

    async def play(pilot: Pilot[object]) -> None:
        app = pilot.app
        await pilot.pause()
        app.set_interval(TICK, lambda: ticks.append(time.perf_counter()))
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            await pilot.pause(0.02)
            screen = app.screen
            if isinstance(screen, ModalScreen):
                if type(screen).__name__ == "ResultsScreen":
                    break
                screen.dismiss(None)
            elif isinstance(screen, TableScreen) and screen.my_turn:
                legal = screen.legal
                passes = [action for action in legal if str(action) == "pass"]
                screen.submit((passes or list(legal))[0])
        app.exit()

    with _quiet_home(), _env(PARLOUR_BOT_PROCESS="1"):
        app = ParlourApp(start=PlayConfig(game="big2", players=4, seed=7, difficulty=level), pace=0.0)
        # As the app runs on a terminal: what is alive when it starts is out of the collector's sight. Here that is
        # also everything the benchmark made before (a full collection of it would land inside the frames measured).
        gc.collect()
        gc.freeze()
        try:
            app.run(headless=True, size=SIZE, auto_pilot=play)
        finally:
            gc.unfreeze()
    if len(ticks) < 2:
        raise BenchError("the frame probe ended before its timer ticked")
    gaps = [later - earlier for earlier, later in itertools.pairwise(ticks)]
    return max(0.0, max(gaps) - TICK)


@contextlib.contextmanager
def _quiet_home() -> Iterator[Path]:
    """Settings and saves in a temporary directory for a run in this process: a benchmark never reads your settings
    nor overwrites the match you left to come back to."""
    with (
        tempfile.TemporaryDirectory(prefix="parlour-bench-") as home,
        _env(PARLOUR_DATA_DIR=str(Path(home) / "data"), PARLOUR_CONFIG_DIR=str(Path(home) / "config")),
    ):
        yield Path(home)


@contextlib.contextmanager
def _env(**values: str) -> Iterator[None]:
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@dataclass(frozen=True)
class Figure:
    """One measured target beside its reference, both medians of the same interleaved run (seconds)."""

    name: str
    app: float
    reference: float

    @property
    def ratio(self) -> float:
        return self.app / self.reference if self.reference > 0 else float("inf")


def targets(tables: Sequence[str] | None = None) -> list[tuple[str, list[str], str]]:
    """(name, argv, marker) of the menu and of each table screen (``parlour play GAME --seed 1``)."""
    chosen = list(TABLES) if tables is None else list(tables)
    found = [("menu", app_argv(), MENU_MARKER)]
    found += [(f"play {game}", app_argv("play", game, "--seed", "1"), TABLES[game]) for game in chosen]
    return found


def startup_figures(runs: int = 5, tables: Sequence[str] | None = None) -> list[Figure]:
    """Start-up to the first frame of the menu and of each table (``tables``: every one by default) against the
    one-Static app: each round runs the reference, then every target; the median of ``runs`` rounds."""
    chosen = targets(tables)
    measures: list[Callable[[], float]] = [lambda: startup(reference_argv(), REFERENCE_MARKER)]
    measures += [partial(startup, argv, marker) for _, argv, marker in chosen]
    medians = interleaved(measures, runs)
    return [Figure(name, value, medians[0]) for (name, _, _), value in zip(chosen, medians[1:], strict=True)]


def quit_figures(runs: int = 5, tables: Sequence[str] | None = ("big2",)) -> list[Figure]:
    """ctrl+q to the process's end on the menu and on each table in ``tables`` (the terminal checked clean each
    time), against the one-Static app quit the same way."""
    chosen = targets(tables)
    measures: list[Callable[[], float]] = [lambda: quit_time(reference_argv(), REFERENCE_MARKER)]
    measures += [partial(quit_time, argv, marker) for _, argv, marker in chosen]
    medians = interleaved(measures, runs)
    return [Figure(name, value, medians[0]) for (name, _, _), value in zip(chosen, medians[1:], strict=True)]
