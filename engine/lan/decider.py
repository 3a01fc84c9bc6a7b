"""Bot decisions in a process of their own, so a thinking bot never takes the interpreter from a person's screen.

A bot thinking on a thread of the app's process holds Python's interpreter lock most of the time: on a busy
machine every step of the UI then waits for it (a key press could take half a second to be handled). A
:class:`ProcessDecider` sends each decision to a child process instead; the app's process only waits on a pipe. The
child makes the same bot and the same per-decision RNG (:func:`engine.bots.decision_rng`) as the table would, so the
choice is identical, and :meth:`ProcessDecider.close` ends the child at once, whatever it is doing.

>>> from engine.table import Table
>>> table = Table.create("big2", 4, seed=5, bots=["easy", "medium", "medium", "medium"])
>>> state = table.state
>>> seat = state.to_move
>>> request = Decision(table.entry.key, "medium", state.view(seat), tuple(state.legal_actions()), 5, seat, 0)
>>> decider = ProcessDecider()
>>> decider.decide(request) == table.decide(seat, state.view(seat), state.legal_actions(), 0)
True
>>> decider.close()
"""

from __future__ import annotations

import os
import sys
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

from engine.bots import DecisionCancelled, decision_rng
from engine.game import Action

BOT_NICENESS = 10
"""How much lower the bot process's scheduling priority is than the app's."""


@dataclass(frozen=True)
class Decision:
    """Everything a bot needs to choose, and nothing more: its seat's view and legal actions."""

    game: str
    """The registry key of the game."""
    level: str
    view: Any
    legal: tuple[Action, ...]
    seed: int
    seat: int
    version: int


def decide_here(request: Decision) -> Action:
    """Make the decision in this process (what the child does)."""
    from engine.registry import get_entry, make_bot  # the child imports the registry once, on its first decision

    game = get_entry(request.game).game
    bot = make_bot(game, request.level)
    return bot.choose(request.view, request.legal, decision_rng(request.seed, request.seat, request.version))


def _lower_priority(pid: int) -> None:
    """Give process ``pid`` (0: this one) the bot's scheduling priority, BOT_NICENESS below its parent's: on a busy
    machine the person's screen comes first; on an idle one this costs nothing."""
    try:
        parent = os.getppid() if pid == 0 else os.getpid()
        os.setpriority(os.PRIO_PROCESS, pid, min(19, os.getpriority(os.PRIO_PROCESS, parent) + BOT_NICENESS))
    except (AttributeError, OSError):
        pass


def _serve(conn: Connection) -> None:
    """The child's loop: one decision per request until the pipe closes. Never writes to the terminal."""
    _lower_priority(0)  # (the parent did it already, as soon as it started this process: this is the same)
    try:
        while True:
            request = conn.recv()
            if request is None:
                return
            try:
                conn.send(("ok", decide_here(request)))
            except Exception as err:
                conn.send(("error", repr(err)[:200]))
    except (EOFError, OSError, KeyboardInterrupt):
        return


class ProcessDecider:
    """One child process that makes bot decisions, one at a time. Started on first use (or by :meth:`start`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: Any = None
        self._conn: Connection | None = None
        self._closed = False

    def start(self) -> None:
        with self._lock:
            if self._process is not None or self._closed:
                return
            import multiprocessing  # (here: the app's start-up does not wait for it)

            context = multiprocessing.get_context("spawn")  # no fork of a process that has threads
            parent, child = context.Pipe()
            process = context.Process(target=_serve, args=(child,), name="parlour-bots", daemon=True)
            # A full-screen app replaces sys.stdout/stderr with objects that have no file descriptor, and starting
            # a process hands stderr's descriptor on: give it the real streams for that moment.
            saved = sys.stdout, sys.stderr
            sys.stdout = sys.__stdout__ or saved[0]
            sys.stderr = sys.__stderr__ or saved[1]
            try:
                process.start()
            finally:
                sys.stdout, sys.stderr = saved
            # At once, not when it is ready: starting an interpreter and importing the bots would otherwise take the
            # processor from the app drawing its first screen.
            if process.pid is not None:
                _lower_priority(process.pid)
            child.close()
            self._process, self._conn = process, parent

    def decide(self, request: Decision) -> Action:
        """The bot's choice; DecisionCancelled if the decider was closed meanwhile."""
        self.start()
        conn = self._conn
        if conn is None or self._closed:
            raise DecisionCancelled
        try:
            conn.send(request)
            status, value = conn.recv()
        except (EOFError, OSError) as err:
            raise DecisionCancelled from err
        if status != "ok":
            raise RuntimeError(f"the bot process failed: {value}")
        return value

    def close(self) -> None:
        """End the child now (a decision in progress is dropped)."""
        with self._lock:
            self._closed = True
            process, conn = self._process, self._conn
            self._process = self._conn = None
        if process is not None:
            process.kill()
        if conn is not None:
            conn.close()
