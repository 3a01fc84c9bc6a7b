"""Quitting at once: a terminal driver whose input thread ends when told, and a process that ends when the app has.

Textual's Linux driver reads the keyboard on a thread that polls every 100 ms, and at shutdown it waits for that
thread twice (the end of its current poll, then one more poll after it stops listening): about 200 ms between
``ctrl+q`` and a restored terminal. :class:`QuickExitDriver` is the same driver with one more thing in the poll, the
read end of a pipe: the moment the app asks the thread to stop, a byte on the pipe wakes it, and the last poll
only takes in what the keyboard has already sent.

Then the interpreter's own shutdown: collecting every object the app made (a tenth of a second for a Textual app)
and the ``atexit`` work of libraries that have nothing left to do. :func:`exit_now` ends the process as soon as
``parlour`` is done with everything of its own (the app has restored the terminal and returned, the table is
closed, the last save and statistics are on disk, a LAN connection is closed) and its output is flushed.

Textual is pinned (8.2.8): :meth:`QuickExitDriver.run_input_thread` is Textual's own loop with the pipe added.
"""

from __future__ import annotations

import contextlib
import gc
import os
import selectors
import sys
import threading
from codecs import getincrementaldecoder
from typing import Any

from textual._loop import loop_last
from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver

__all__ = ["QuickExitDriver", "exit_now", "freeze_heap", "use_quick_exit"]

POLL = 0.1
"""Seconds between the input thread's looks at the clock when no key comes (an Esc on its own is told from the start
of a longer key sequence by time, so the thread cannot simply wait for input)."""


class _WakingEvent(threading.Event):
    """The driver's "stop reading" flag; setting it also writes a byte to a pipe the input thread is watching."""

    def __init__(self, wake: int) -> None:
        super().__init__()
        self.wake = wake

    def set(self) -> None:
        super().set()
        with contextlib.suppress(OSError):  # the pipe is full (a byte is already waiting) or closed
            os.write(self.wake, b"x")


class QuickExitDriver(LinuxDriver):
    """Textual's Linux driver, but the input thread stops the moment it is asked to (no 100 ms polls to wait out)."""

    ENDS_PROCESS = True
    """An app on this driver is run by ``tui.cli.run_app``, whose process ends as soon as the app returns
    (:func:`exit_now`): the app need not take its widgets down one by one (ParlourApp._close_all)."""

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_read, False)
        os.set_blocking(self._wake_write, False)
        self.exit_event = _WakingEvent(self._wake_write)

    def close(self) -> None:
        super().close()
        for fd in (self._wake_read, self._wake_write):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._wake_read = self._wake_write = -1

    def run_input_thread(self) -> None:
        """Textual's input loop (LinuxDriver.run_input_thread), also woken by the stop pipe; the last poll after the
        keyboard is let go takes what is already there and does not wait."""
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        wake = self._wake_read
        selector.register(wake, selectors.EVENT_READ)

        fileno = self.fileno
        EVENT_READ = selectors.EVENT_READ

        parser = XTermParser(self._debug)
        feed = parser.feed
        tick = parser.tick

        decode = getincrementaldecoder("utf-8")().decode
        read = os.read

        def drain() -> None:
            """Empty the stop pipe (a byte left from an earlier stop, before a suspended app resumed)."""
            with contextlib.suppress(OSError):
                while read(wake, 64):
                    pass

        def process_selector_events(
            selector_events: list[tuple[selectors.SelectorKey, int]], final: bool = False
        ) -> None:
            keyboard = [(key, mask) for key, mask in selector_events if key.fd == fileno]
            if len(keyboard) < len(selector_events) and not self.exit_event.is_set():
                drain()
            for last, (_selector_key, mask) in loop_last(keyboard):
                if mask & EVENT_READ:
                    unicode_data = decode(read(fileno, 1024 * 4), final=final and last)
                    if not unicode_data:
                        # This can occur if the stdin is piped
                        break
                    for event in feed(unicode_data):
                        self.process_message(event)
            for event in tick():
                self.process_message(event)

        drain()
        try:
            while not self.exit_event.is_set():
                process_selector_events(selector.select(POLL))
            selector.unregister(wake)
            process_selector_events(selector.select(0), final=True)
        finally:
            selector.close()
            try:
                for _event in feed(""):
                    pass
            except (EOFError, ParseError):
                pass


def use_quick_exit(app: Any) -> None:
    """Run ``app`` on :class:`QuickExitDriver` when it would run on Textual's Linux driver (a real terminal on Linux
    or macOS; not headless, not ``textual serve``, not Windows)."""
    if app.driver_class is LinuxDriver:
        app.driver_class = QuickExitDriver


def freeze_heap() -> None:
    """Move every object alive now out of the garbage collector's sight: the modules and classes imported so far are
    never garbage, and each full collection would otherwise walk them all again (a pause in the middle of play).
    Collection, paused while the app was imported (:func:`tui.launch.run`), goes on from here."""
    gc.freeze()
    gc.enable()


def exit_now(code: int) -> None:
    """End the process with ``code`` at once: standard output and error flushed, nothing else run.

    For when the app has ended and everything of Parlour's own is done (see the module's docstring): what is left
    is the interpreter collecting objects and libraries' exit hooks, with nothing to save and nobody to tell."""
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        with contextlib.suppress(Exception):
            if stream is not None:
                stream.flush()
    os._exit(code)
