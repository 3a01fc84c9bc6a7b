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

import contextlib
import os
import pickle
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

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


class ProcessDecider:
    """One child process that makes bot decisions, one at a time. Started on first use (or by :meth:`start`).

    The child is a fresh interpreter (``python -m engine.lan.decider``) talking over its standard input and output:
    a request and its answer are pickled, each after its length. It is started with :mod:`subprocess`, not
    :mod:`multiprocessing`, whose start would import some 30 ms of modules into the app and start a second process
    (its resource tracker) for a child that shares nothing but two pipes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._closed = False

    def start(self) -> None:
        with self._lock:
            if self._process is not None or self._closed:
                return
            root = str(Path(__file__).resolve().parents[2])  # where ``engine`` is, for the child to import it
            env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
            process = subprocess.Popen(
                [sys.executable, "-P", "-m", "engine.lan.decider"],  # -P: not the working directory's modules
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,  # never on the app's screen
                env=env,
                start_new_session=True,  # no signal of the terminal's; it ends when its pipe closes
            )
            # At once, not when it is ready: starting an interpreter and importing the bots would otherwise take the
            # processor from the app.
            _lower_priority(process.pid)
            self._process = process

    def decide(self, request: Decision) -> Action:
        """The bot's choice; DecisionCancelled if the decider was closed meanwhile."""
        self.start()
        process = self._process
        if process is None or self._closed:
            raise DecisionCancelled
        assert process.stdin is not None and process.stdout is not None
        try:
            _send(process.stdin, request)
            status, value = _receive(process.stdout)
        except (EOFError, OSError, ValueError) as err:  # (ValueError: a pipe closed meanwhile)
            raise DecisionCancelled from err
        if status != "ok":
            raise RuntimeError(f"the bot process failed: {value}")
        return value

    def close(self) -> None:
        """End the child now (a decision in progress is dropped)."""
        with self._lock:
            self._closed = True
            process = self._process
            self._process = None
        if process is not None:
            # Killed, not waited for: this may be the app quitting. (subprocess reaps it with its next child, or
            # when this one is forgotten.)
            process.kill()
            for stream in (process.stdin, process.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()


def main() -> None:
    """The child process: serve decisions on standard input and output."""
    _serve(sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    main()
