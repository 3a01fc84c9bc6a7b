"""Bot decisions in a process of their own, so a thinking bot never takes the interpreter from a person's screen.

A bot thinking on a thread of the app's process holds Python's interpreter lock most of the time: on a busy
machine every step of the UI then waits for it (a key press could take half a second to be handled). A
:class:`ProcessDecider` sends each decision to a child process instead; the app's process only waits on a pipe. The
child makes the same bot and the same per-decision RNG (:func:`engine.bots.decision_rng`) as the table would, so the
choice is identical, and :meth:`ProcessDecider.close` ends the child at once, whatever it is doing.

Each answer has a deadline (:func:`answer_deadline`: a few seconds, longer for a level known to think longer). A child
that has not answered by then (stopped, swapped out, stuck) is killed and a new one is asked the same request: the
per-decision RNG makes its choice the same one. If the new one does not answer either, within twice the time,
:class:`BotProcessLost` is raised (the table host then makes the decision in its own process, the same choice again).

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

import contextlib
import os
import pickle
import queue
import subprocess
import sys
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from engine.bots import DecisionCancelled, decision_rng
from engine.errors import ParlourError
from engine.game import Action

BOT_NICENESS = 10
"""How much lower the bot process's scheduling priority is than the app's."""

ANSWER_DEADLINE = 5.0
"""Seconds a child has to answer a decision of a level that answers at once (:data:`THINKING_TIME` scales it)."""

THINKING_TIME: dict[str, float] = {"hard": 4.0}
"""How many times :data:`ANSWER_DEADLINE` a level may take: ``hard`` Big Two searches for hundreds of milliseconds,
and its slowest decisions on a loaded machine take seconds (docs/performance.md has the figures); the other levels and
games answer within milliseconds."""

START_DEADLINE = 10.0
"""Seconds more for a new child's first answer: it starts an interpreter and imports the engine first, at a lower
priority than the app's, so on a busy machine it starts last."""

ATTEMPTS = 2
"""How many children are asked one decision (each later one with twice the time) before :class:`BotProcessLost`."""


class BotProcessLost(ParlourError, RuntimeError):
    """No bot process answered in time (or every one died): the decision is to be made some other way."""

    code = "bot_lost"


def answer_deadline(level: str, base: float = ANSWER_DEADLINE) -> float:
    """Seconds a child has to answer a decision of bot ``level`` (``base`` for a level that answers at once).

    >>> answer_deadline("easy"), answer_deadline("Hard")
    (5.0, 20.0)
    """
    return base * THINKING_TIME.get(level.strip().lower(), 1.0)


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


def _send(stream: IO[bytes], message: object) -> None:
    """One message down a pipe: its length (4 bytes) and the message pickled."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(len(data).to_bytes(4, "big") + data)
    stream.flush()


def _receive(stream: IO[bytes]) -> Any:
    """The next message up a pipe; EOFError when the other end has gone."""
    head = stream.read(4)
    if len(head) < 4:
        raise EOFError
    size = int.from_bytes(head, "big")
    data = stream.read(size)
    if len(data) < size:
        raise EOFError
    return pickle.loads(data)


def _serve(requests: IO[bytes], answers: IO[bytes]) -> None:
    """The child's loop: one decision per request until the pipe closes. Never writes to the terminal."""
    _lower_priority(0)  # (the parent did it already, as soon as it started this process: this is the same)
    try:
        while True:
            request = _receive(requests)
            if request is None:
                return
            try:
                _send(answers, ("ok", decide_here(request)))
            except Exception as err:
                _send(answers, ("error", repr(err)[:200]))
    except (EOFError, OSError, KeyboardInterrupt):
        return


class _Child:
    """A running bot process and the thread that carries requests to it and its answers back.

    The thread may wait on the pipes for ever (a child that has stopped); whoever asked waits on :attr:`answers` only
    as long as it wants. The thread ends when the child does: it then closes the pipes and reaps the child."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.requests: queue.SimpleQueue[Decision | None] = queue.SimpleQueue()
        self.answers: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
        """("ok", action), ("error", text) or ("gone", None): the child ended, or was ended."""
        self.answered = 0
        """How many answers the child has given (before its first, it may still be starting)."""
        threading.Thread(target=self._carry, name="parlour-bot-pipe", daemon=True).start()

    def _carry(self) -> None:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        try:
            while (request := self.requests.get()) is not None:
                _send(stdin, request)
                self.answers.put(_receive(stdout))
        except (EOFError, OSError, ValueError, pickle.UnpicklingError):  # (ValueError: a pipe closed meanwhile)
            pass
        finally:
            self.answers.put(("gone", None))
            self.process.kill()
            for stream in (stdin, stdout):
                with contextlib.suppress(OSError):
                    stream.close()
            self.process.wait()  # at once: it was killed (this thread is the only one that waits for it)

    def end(self) -> None:
        """Kill the child now; whoever waits for an answer hears "gone" at once."""
        self.answers.put(("gone", None))
        self.requests.put(None)
        with contextlib.suppress(OSError):
            self.process.kill()


class ProcessDecider:
    """One child process that makes bot decisions, one at a time. Started on first use (or by :meth:`start`), and
    replaced by a new one when it does not answer by its deadline (:func:`answer_deadline`, from ``deadline``: the
    seconds a level that answers at once may take; a new child has ``start_deadline`` seconds more for its first).

    The child is a fresh interpreter (``python -m engine.play.bot_process``) talking over its standard input and output:
    a request and its answer are pickled, each after its length. It is started with :mod:`subprocess`, not
    :mod:`multiprocessing`, whose start would import many modules into the app and start a second process
    (its resource tracker) for a child that shares nothing but two pipes. A thread of this process carries the
    requests and answers, so that a child that has stopped answering holds up that thread only."""

    def __init__(self, *, deadline: float = ANSWER_DEADLINE, start_deadline: float = START_DEADLINE) -> None:
        if not (deadline > 0 and start_deadline >= 0):
            raise ValueError("the bot process's deadlines must be positive numbers of seconds")
        self.deadline = deadline
        self.start_deadline = start_deadline
        self._lock = threading.Lock()
        self._child: _Child | None = None
        self._ends: dict[_Child, Callable[[], object]] = {}
        """Each running child's end, called once (by :meth:`_end`, or when this decider is forgotten)."""
        self._closed = False

    @property
    def pid(self) -> int | None:
        """The process id of the child running now (None before the first is started, and once closed)."""
        child = self._child
        return child.process.pid if child is not None else None

    def start(self) -> None:
        with self._lock:
            if self._child is not None or self._closed:
                return
            root = str(Path(__file__).resolve().parents[2])  # where ``engine`` is, for the child to import it
            env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
            process = subprocess.Popen(
                [sys.executable, "-P", "-m", "engine.play.bot_process"],  # -P: not the working directory's modules
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,  # never on the app's screen
                env=env,
                start_new_session=True,  # no signal of the terminal's; it ends when its pipe closes
            )
            # At once, not when it is ready: starting an interpreter and importing the bots would otherwise take the
            # processor from the app.
            _lower_priority(process.pid)
            child = _Child(process)
            # A decider dropped without close (its user gave up on it) ends its child too: the carrying thread would
            # otherwise keep it waiting for requests as long as this process lives.
            self._ends[child] = weakref.finalize(self, child.end)
            self._child = child

    def _running(self) -> _Child:
        """The child to ask, started if need be; DecisionCancelled once closed."""
        self.start()
        with self._lock:
            child = self._child
            if child is None or self._closed:
                raise DecisionCancelled
            return child

    def _end(self, child: _Child) -> None:
        """Kill ``child`` and forget it: the next decision starts a new one."""
        with self._lock:
            if self._child is child:
                self._child = None
            end = self._ends.pop(child, child.end)
        end()

    def decide(self, request: Decision) -> Action:
        """The bot's choice; DecisionCancelled if the decider was closed meanwhile, BotProcessLost if no child
        answered by its deadline, RuntimeError if the bot failed in the child."""
        deadline = answer_deadline(request.level, self.deadline)
        for attempt in range(ATTEMPTS):
            child = self._running()
            wait = deadline * 2**attempt + (self.start_deadline if child.answered == 0 else 0.0)
            child.requests.put(request)
            try:
                status, value = child.answers.get(timeout=wait)
            except queue.Empty:
                status, value = "late", None
            if self._closed:
                raise DecisionCancelled
            if status == "ok":
                child.answered += 1
                return value
            if status == "error":
                child.answered += 1
                raise RuntimeError(f"the bot process failed: {value}")
            self._end(child)  # it stopped answering, or it died: the same request goes to a new one
        raise BotProcessLost(f"the bot process did not answer a {request.level} bot's decision in time")

    def close(self) -> None:
        """End the child now (a decision in progress is dropped)."""
        with self._lock:
            self._closed = True
            child = self._child
        if child is not None:
            # Killed, not waited for here: this may be the app quitting. (Its carrying thread reaps it.)
            self._end(child)


def main() -> None:
    """The child process: serve decisions on standard input and output."""
    _serve(sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    main()
