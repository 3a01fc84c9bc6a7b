"""Quitting at once: a terminal driver whose input thread ends when told, for the Textual it was written for.

Textual's Linux driver reads the keyboard on a thread that polls every 100 ms, and at shutdown it waits for that
thread twice (the end of its current poll, then one more poll after it stops listening) between ``ctrl+q`` and a
restored terminal. :class:`QuickExitDriver` is the same driver with one more thing in the poll, the read end of a
pipe: the moment the app asks the thread to stop, a byte on the pipe wakes it, and the last poll only takes in what
the keyboard has already sent.

Its input loop is Textual's own (``LinuxDriver.run_input_thread``) with the pipe added, and parses keys with
Textual's key parser, which Textual does not make public. So it is used only with the Textual it was written for
(:func:`tui.terminal.textual_version.textual_checked`); with any other, the app runs on Textual's own
``LinuxDriver``. The process then ends as any Python program does (``atexit`` hooks run, buffered writers are
flushed), after :func:`settle_heap` has spared the interpreter's last collection.
"""

from __future__ import annotations

import contextlib
import gc
import os
import selectors
import threading
from codecs import getincrementaldecoder
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from textual.drivers.linux_driver import LinuxDriver

from tui.terminal.textual_version import textual_checked

__all__ = ["QuickExitDriver", "freeze_heap", "loop_last", "settle_heap", "use_quick_exit"]

POLL = 0.1
"""Seconds between the input thread's looks at the clock when no key comes (an Esc on its own is told from the start
of a longer key sequence by time, so the thread cannot simply wait for input)."""

T = TypeVar("T")


def loop_last(values: Iterable[T]) -> Iterator[tuple[bool, T]]:
    """Each of ``values`` with whether it is the last."""
    iterator = iter(values)
    try:
        previous = next(iterator)
    except StopIteration:
        return
    for value in iterator:
        yield False, previous
        previous = value
    yield True, previous


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
    """Textual's Linux driver, but the input thread stops the moment it is asked to (no 100 ms polls to wait out).

    Only for the Textual releases it was written for (:func:`use_quick_exit` checks)."""

    def __init__(self, app: Any, *, debug: bool = False, **kwargs: Any) -> None:
        super().__init__(app, debug=debug, **kwargs)
        self.parse_debug = debug
        self.wake_read, self.wake_write = os.pipe()
        os.set_blocking(self.wake_read, False)
        os.set_blocking(self.wake_write, False)
        self.exit_event = _WakingEvent(self.wake_write)

    def close(self) -> None:
        super().close()
        for fd in (self.wake_read, self.wake_write):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.wake_read = self.wake_write = -1

    def run_input_thread(self) -> None:
        """Textual's input loop (LinuxDriver.run_input_thread), also woken by the stop pipe; the last poll after the
        keyboard is let go takes what is already there and does not wait."""
        from textual._parser import ParseError  # (tests/test_no_patches.py: allowed here)
        from textual._xterm_parser import XTermParser

        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        wake = self.wake_read
        selector.register(wake, selectors.EVENT_READ)

        fileno = self.fileno
        EVENT_READ = selectors.EVENT_READ

        parser = XTermParser(self.parse_debug)
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
    or macOS; not headless, not ``textual serve``, not Windows) and the installed Textual is one it was written for;
    otherwise leave it on Textual's own."""
    if app.driver_class is LinuxDriver and textual_checked():
        app.driver_class = QuickExitDriver


def settle_heap() -> None:
    """Once the app has ended, move every object still alive out of the garbage collector's sight, as
    :func:`freeze_heap` did at start for what importing made.

    The interpreter's last collection, as the process ends, would otherwise walk every object of the app only to
    find what the modules' teardown frees anyway. The process still ends as any Python program does: ``atexit``
    hooks run, objects freed as the modules are torn down are finalized, buffered writers are flushed. What the
    last collection alone would have found (objects in reference cycles nothing refers to any more) is left to the
    operating system, unfinalized: nothing of Parlour's relies on that, since what holds data to write (the saves,
    settings, statistics, a LAN connection) is closed before the app ends (``tests/tui/test_quit.py``)."""
    gc.freeze()


def freeze_heap() -> None:
    """Move every object alive now out of the garbage collector's sight: the modules and classes imported so far are
    never garbage, and each full collection would otherwise walk them all again (a pause in the middle of play).
    Collection, paused while the app was imported (:func:`tui.launch.run`), goes on from here."""
    gc.freeze()
    gc.enable()
