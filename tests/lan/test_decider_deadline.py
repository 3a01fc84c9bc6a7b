"""The bot process has a deadline (issue 26, point 5): a child that stops answering is killed and replaced, and the
table's choices stay what they would have been.

A child is made to stop answering the way an unlucky machine does it, from outside: ``SIGSTOP`` (the shipped
protocol has no request that would make a child sleep). Nothing here measures time: the deadlines are short so
that the tests end soon, and each wait is a bounded loop on a condition.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator

import psutil
import pytest

from engine import codec
from engine.events import Event
from engine.play.bot_process import BotProcessLost, Decision, ProcessDecider, answer_deadline
from engine.play.table_host import TableHost
from engine.table import Table


@pytest.fixture
def cleanup() -> Iterator[list[ProcessDecider | TableHost | psutil.Process]]:
    """Deciders and hosts to close, and stopped processes to kill, whatever the test's outcome."""
    made: list[ProcessDecider | TableHost | psutil.Process] = []
    yield made
    for thing in made:
        if isinstance(thing, psutil.Process):
            try:
                if thing.is_running():
                    thing.kill()
            except psutil.NoSuchProcess:
                pass
        else:
            thing.close()


def _gone(process: psutil.Process, timeout: float = 30.0) -> bool:
    """Whether ``process`` has ended and been reaped (its carrying thread reaps it just after the kill), waited for
    within a generous ``timeout``."""
    deadline = time.monotonic() + timeout
    while process.is_running():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)  # (a poll's pause: the condition is what is waited for)
    return True


def _stop(pid: int | None, cleanup: list[ProcessDecider | TableHost | psutil.Process]) -> psutil.Process:
    assert pid is not None
    process = psutil.Process(pid)
    cleanup.append(process)
    os.kill(pid, signal.SIGSTOP)
    return process


def _decision(seed: int, level: str = "medium") -> tuple[Decision, Table]:
    table = Table.create("big2", players=4, seed=seed, bots=[level] * 4)
    state = table.state
    seat = state.to_move
    assert seat is not None
    return Decision("big2", level, state.view(seat), tuple(state.legal_actions()), seed, seat, 0), table


def test_the_deadline_grows_with_the_levels_thinking_time() -> None:
    assert answer_deadline("easy") == answer_deadline("medium") < answer_deadline("hard")
    assert answer_deadline("hard", 1.0) == answer_deadline("hard") / answer_deadline("easy")
    with pytest.raises(ValueError, match="deadlines"):
        ProcessDecider(deadline=0)


def test_a_stopped_bot_process_is_replaced_and_its_choice_is_the_same(
    cleanup: list[ProcessDecider | TableHost | psutil.Process],
) -> None:
    decider = ProcessDecider(deadline=1.0)
    cleanup.append(decider)
    warm, _ = _decision(13)
    decider.decide(warm)  # the child has started and answered once
    stopped = _stop(decider.pid, cleanup)
    request, table = _decision(12)
    seat = request.seat
    chosen = decider.decide(request)
    assert chosen == table.decide(seat, request.view, list(request.legal), 0)
    assert decider.pid is not None and decider.pid != stopped.pid
    assert _gone(stopped)
    assert decider.decide(warm) == decider.decide(warm)  # the new child goes on answering


def test_a_bot_process_killed_between_decisions_is_replaced(
    cleanup: list[ProcessDecider | TableHost | psutil.Process],
) -> None:
    decider = ProcessDecider(deadline=1.0)
    cleanup.append(decider)
    warm, _ = _decision(13)
    decider.decide(warm)
    first = decider.pid
    assert first is not None
    os.kill(first, signal.SIGKILL)
    request, table = _decision(14)
    assert decider.decide(request) == table.decide(request.seat, request.view, list(request.legal), 0)
    assert decider.pid not in (None, first)


class _FrozenDecider(ProcessDecider):
    """Every child it starts is stopped at once: none ever answers."""

    def __init__(self) -> None:
        super().__init__(deadline=0.2, start_deadline=0.0)
        self.stopped: list[psutil.Process] = []

    def start(self) -> None:
        super().start()
        pid = self.pid
        if pid is not None and all(process.pid != pid for process in self.stopped):
            process = psutil.Process(pid)
            self.stopped.append(process)
            os.kill(pid, signal.SIGSTOP)


def test_when_no_child_answers_the_decider_gives_up_and_ends_them_all(
    cleanup: list[ProcessDecider | TableHost | psutil.Process],
) -> None:
    decider = _FrozenDecider()
    cleanup.append(decider)
    request, _ = _decision(12)
    try:
        with pytest.raises(BotProcessLost, match="did not answer"):
            decider.decide(request)
        assert len(decider.stopped) == 2 and decider.pid is None
        assert all(_gone(process) for process in decider.stopped)
    finally:
        cleanup.extend(decider.stopped)


def _bots_only_match(
    decider: ProcessDecider | None,
    cleanup: list[ProcessDecider | TableHost | psutil.Process],
    stop_after: int | None = None,
) -> tuple[list[str], list[psutil.Process]]:
    """A whole one-deal match of bots, its events as JSON; with ``stop_after``, the bot process is stopped once the
    table has had that many moves (on the bot thread, between two decisions: the next one goes to a stopped child)."""
    table = Table.create("big2", players=3, seed=21, bots=["medium", "easy", "medium"], deals=1)
    seen: list[str] = []
    stopped: list[psutil.Process] = []

    def watch(event: Event) -> None:
        seen.append(codec.dumps(event))
        if decider is not None and stop_after is not None and not stopped and len(table.actions) == stop_after:
            stopped.append(_stop(decider.pid, cleanup))

    table.subscribe(None, watch)
    host = TableHost(table, decider=decider)
    cleanup.append(host)
    host.start()
    assert host.wait_idle(120) and table.state.is_over and not host.errors
    return seen, stopped


def test_a_match_whose_bot_process_stops_mid_match_plays_exactly_the_same(
    cleanup: list[ProcessDecider | TableHost | psutil.Process],
) -> None:
    here, _ = _bots_only_match(None, cleanup)
    decider = ProcessDecider(deadline=1.0)
    there, stopped = _bots_only_match(decider, cleanup, stop_after=10)
    assert len(here) > 20 and there == here
    assert len(stopped) == 1 and _gone(stopped[0])
    assert decider.pid not in (None, stopped[0].pid)  # replaced by a new child, not given up on


def test_a_table_whose_bot_process_never_answers_still_plays_the_same_match(
    cleanup: list[ProcessDecider | TableHost | psutil.Process],
) -> None:
    """The host makes the decisions itself once the decider has given up: the same choices again."""
    here, _ = _bots_only_match(None, cleanup)
    decider = _FrozenDecider()
    cleanup.append(decider)
    try:
        there, _ = _bots_only_match(decider, cleanup)
        assert there == here
        assert decider.stopped and all(_gone(process) for process in decider.stopped)
    finally:
        cleanup.extend(decider.stopped)
