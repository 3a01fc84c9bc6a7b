"""The table host (engine/play/table_host.py): quitting while a bot thinks, pacing, timing-independent matches, a
bot that fails. Every wait is bounded."""

from __future__ import annotations

import itertools
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import psutil
import pytest

from engine import codec
from engine.bots import DecisionCancelled
from engine.errors import ParlourError
from engine.events import Event
from engine.game import Scenario
from engine.match import RoundOver
from engine.play.bot_process import Decision, ProcessDecider
from engine.play.table_host import TableHost
from engine.table import Table


@pytest.fixture
def hosts() -> Iterator[list[TableHost]]:
    made: list[TableHost] = []
    yield made
    for host in made:
        host.close()


WAIT = 30.0
"""Seconds any wait of these tests is bounded by: generous, so a loaded machine does not fail them."""


def watch_decisions(table: Table, gate: threading.Event | None = None) -> tuple[threading.Event, threading.Event]:
    """Events set when the next bot decision starts and when it ends (wrapping the table's ``decide``); with a
    ``gate``, each decision waits for it before it is worked out (it stays in progress until the test opens it)."""
    started, finished = threading.Event(), threading.Event()
    original = table.decide

    def decide(seat: int, view: Any, legal: Any, version: int, cancelled: Any = None) -> Any:
        started.set()
        try:
            if gate is not None:
                gate.wait(WAIT)
            return original(seat, view, legal, version, cancelled)
        finally:
            finished.set()

    table.decide = decide  # type: ignore[method-assign]
    return started, finished


def test_close_returns_at_once_while_a_hard_bot_thinks(hosts: list[TableHost]) -> None:
    """close() does not wait for the decision in progress (held here until close() has returned), and that
    decision is dropped: the table does not move after close(). How long close() takes is a benchmark's matter."""
    table = Table.create("big2", players=4, seed=12, bots=["hard"] * 4)
    gate = threading.Event()
    started, finished = watch_decisions(table, gate)
    host = TableHost(table, pace=0.0)
    hosts.append(host)
    host.start()
    assert started.wait(WAIT), "the bot never started thinking"
    version = table.state.version
    host.close()
    assert not finished.is_set(), "close() waited for the decision"
    assert host.closed
    thread = host._thread
    assert thread is not None and thread.daemon, "the bot thread must not keep the app alive"
    gate.set()
    assert finished.wait(WAIT)
    thread.join(WAIT)
    assert not thread.is_alive()
    assert table.state.version == version


def test_close_stops_a_host_that_waits(hosts: list[TableHost]) -> None:
    table = Table.create("screw", players=3, seed=1, bots=[None, "easy", "easy"])
    host = TableHost(table)
    hosts.append(host)
    host.connect(0)
    assert host.wait_idle(5)
    host.close()
    assert host._thread is not None
    host._thread.join(1)
    assert not host._thread.is_alive()


def _move_times(pace: float, moves: int, hosts: list[TableHost]) -> list[float]:
    """When each of the first ``moves`` bot moves of an all-bot table was published (bounded)."""
    table = Table.create("screw", players=4, seed=3, bots=["easy"] * 4)
    host = TableHost(table, pace=pace)
    hosts.append(host)
    times: list[float] = []
    seen: set[int] = set()
    enough = threading.Event()

    def got(event: Event) -> None:
        version = table.state.version  # called inside submit: the action is applied
        if version not in seen and version > 0:
            seen.add(version)
            times.append(time.perf_counter())
            if len(times) >= moves:
                enough.set()

    host.subscribe(None, got)
    host.start()
    assert enough.wait(5 + pace * moves * 3), f"only {len(times)} moves came"
    host.close()
    return times[:moves]


def test_pace_spaces_the_bots_moves(hosts: list[TableHost]) -> None:
    times = _move_times(0.2, 4, hosts)
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert all(gap >= 0.18 for gap in gaps), gaps
    # Without a pace they come at once (else the test above would prove nothing).
    fast = _move_times(0.0, 4, hosts)
    assert fast[-1] - fast[0] < 0.3


def _play(pace: float, delays: random.Random | None, hosts: list[TableHost]) -> tuple[list[str], list[str]]:
    """One match with a person at seat 0 who plays a fixed strategy, with random thinking times if ``delays``:
    the whole history and what seat 0 received, as JSON."""
    table = Table.create(
        "big2", players=4, seed=21, bots=[None, "medium", "easy", "hard"], deals=1, scenario=Scenario()
    )
    host = TableHost(table, pace=pace)
    hosts.append(host)
    session = host.connect(0)
    received: list[str] = []
    session.subscribe(lambda update: received.extend(codec.dumps(e) for e in update.events))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert host.wait_idle(30) and not host.errors
        snap = session.snapshot()
        if snap.over:
            break
        if any('"RoundOver"' in line for line in received):
            session.ready()
        if snap.to_move == 0 and snap.legal:
            if delays:
                time.sleep(delays.random() * 0.03)  # (a person slow on purpose: the timing the match must not see)
            # The person's choice depends only on what they see (not on timing).
            choice = snap.legal[(snap.version * 7) % len(snap.legal)]
            session.submit(choice)
    assert table.state.is_over
    host.close()
    return [codec.dumps(e) for e in table.state.history], received


@pytest.mark.parametrize("hard_playouts", [12])
def test_the_same_seed_and_moves_give_the_same_match_whatever_the_timing(
    hosts: list[TableHost], hard_playouts: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.games.big2 import bots as big2_bots

    monkeypatch.setattr(big2_bots.HardBig2Bot, "playouts", hard_playouts)  # keep the test short
    quick = _play(0.0, None, hosts)
    slow = _play(0.004, random.Random(1), hosts)
    assert quick == slow
    assert any('"RoundOver"' in line for line in quick[0])


def _broken_bots(table: Table, seats: tuple[int, ...], choose: Any) -> None:
    for seat in seats:
        bot = table.seats[seat].bot
        assert bot is not None
        bot.choose = choose  # type: ignore[method-assign]


def _raise(view: Any, legal: Any, rng: random.Random) -> Any:
    raise RuntimeError("a bug in a bot")


def test_a_bot_that_raises_is_recorded_and_the_host_survives(hosts: list[TableHost]) -> None:
    table = Table.create("screw", players=3, seed=2, bots=[None, "easy", "easy"])
    _broken_bots(table, (1, 2), _raise)
    host = TableHost(table)
    hosts.append(host)
    session = host.connect(0)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not host.errors:
        host.wait_idle(0.5)
        snap = session.snapshot()
        if snap.to_move == 0 and snap.legal:
            session.submit(snap.legal[0])
    assert host.errors and isinstance(host.errors[0], RuntimeError)
    # The host still answers; the person can still look, and closing works.
    snap = session.snapshot()
    assert not snap.over and snap.to_move in (1, 2)
    host.close()


def test_a_bot_that_answers_garbage_is_recorded(hosts: list[TableHost]) -> None:
    table = Table.create("big2", players=2, seed=2, bots=["easy", "easy"])
    _broken_bots(table, (0, 1), lambda view, legal, rng: "not a move")
    host = TableHost(table)
    hosts.append(host)
    host.start()
    assert host.wait_idle(WAIT), "the failed bot was never noticed"  # (a bot's failure ends the wait)
    assert host.errors and isinstance(host.errors[0], ParlourError)
    assert table.state.version == 0


@pytest.mark.parametrize("choose", [_raise, lambda view, legal, rng: "not a move"], ids=["raises", "garbage"])
def test_wait_idle_returns_when_a_bot_fails(hosts: list[TableHost], choose: Any) -> None:
    """A UI waiting for the bots must not hang for its whole timeout because a bot failed."""
    table = Table.create("big2", players=2, seed=2, bots=["easy", "easy"])
    _broken_bots(table, (0, 1), choose)
    host = TableHost(table)
    hosts.append(host)
    host.start()
    # wait_idle is True when the wait ends because a bot failed, False only when its time runs out (the bots of a
    # failed table never go idle by themselves).
    assert host.wait_idle(WAIT)
    assert host.errors


def test_round_end_waits_only_for_people_still_connected(hosts: list[TableHost]) -> None:
    table = Table.create("screw", players=3, seed=4, bots=[None, "easy", "easy"], scenario=Scenario(totals=(2, 2, 2)))
    host = TableHost(table)
    hosts.append(host)
    session = host.connect(0)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        assert host.wait_idle(5)
        if host.waiting_for:
            break
        snap = session.snapshot()
        if snap.to_move == 0 and snap.legal:
            session.submit(snap.legal[0])
    assert host.waiting_for == {0}
    assert any(isinstance(e, RoundOver) for e in table.state.history)
    session.close()  # leaving: the bots no longer wait
    assert not host.waiting_for


def _bots_only_match(decider: ProcessDecider | None, hosts: list[TableHost]) -> list[str]:
    table = Table.create("big2", players=3, seed=21, bots=["medium", "easy", "medium"], deals=1)
    seen: list[str] = []
    table.subscribe(None, lambda event: seen.append(codec.dumps(event)))
    host = TableHost(table, decider=decider)
    hosts.append(host)
    host.start()
    assert host.wait_idle(60) and table.state.is_over and not host.errors
    return seen


def test_bots_in_a_child_process_play_exactly_as_in_this_one(hosts: list[TableHost]) -> None:
    """The app runs its bots in a child process (engine/play/bot_process.py): same bots, same per-decision RNG, so the
    same match, event for event."""
    here = _bots_only_match(None, hosts)
    there = _bots_only_match(ProcessDecider(), hosts)
    assert here == there and len(here) > 20


def _opening_decision(seed: int) -> Decision:
    """The hard Big Two bot's first decision of the deal dealt from ``seed``."""
    table = Table.create("big2", players=4, seed=seed, bots=["hard"] * 4)
    state = table.state
    seat = state.to_move
    assert seat is not None
    return Decision("big2", "hard", state.view(seat), tuple(state.legal_actions()), seed, seat, 0)


def test_closing_a_process_decider_stops_its_decision_at_once() -> None:
    request = _opening_decision(12)
    decider = ProcessDecider()
    # Warm on another deal: the child has started and imported the engine, but has not seen this position (the
    # bot's caches would make a second look at the same one too quick to interrupt).
    decider.decide(_opening_decision(13))
    outcome: list[object] = []

    def decide() -> None:
        try:
            outcome.append(decider.decide(request))
        except DecisionCancelled:
            outcome.append("cancelled")

    assert decider.pid is not None
    child = psutil.Process(decider.pid)
    spent = sum(child.cpu_times()[:2])
    worker = threading.Thread(target=decide, daemon=True)
    worker.start()
    deadline = time.monotonic() + WAIT
    while sum(child.cpu_times()[:2]) <= spent:  # the child has begun to work the decision out
        assert time.monotonic() < deadline, "the bot process never started thinking"
        time.sleep(0.005)  # (a poll's pause: the condition is what is waited for)
    decider.close()
    worker.join(WAIT)
    assert not worker.is_alive()
    assert outcome == ["cancelled"], "close() waited for the decision's answer"
    with pytest.raises(DecisionCancelled):
        decider.decide(request)


class _BrokenDecider(ProcessDecider):
    """A bot process that cannot be had (a machine that refuses to start one)."""

    def start(self) -> None:
        raise OSError("no processes here")


def test_a_bot_process_that_cannot_start_leaves_the_bots_thinking_here(hosts: list[TableHost]) -> None:
    here = _bots_only_match(None, hosts)
    assert _bots_only_match(_BrokenDecider(), hosts) == here


def test_the_bot_process_is_a_plain_child_on_two_pipes(tmp_path: Any) -> None:
    """The decider starts one interpreter with subprocess (not multiprocessing, which would import its modules into
    the app and start a resource tracker too), away from the working directory's modules, and its choice is the
    table's own."""
    import subprocess
    import sys
    from pathlib import Path

    (tmp_path / "engine.py").write_text("raise SystemExit('the working directory was imported')\n")
    program = (
        "import sys; from engine.play.bot_process import ProcessDecider; from engine.table import Table\n"
        "table = Table.create('big2', players=4, seed=3, bots=['medium'] * 4); state = table.state\n"
        "seat = state.to_move; view, legal = state.view(seat), state.legal_actions()\n"
        "from engine.play.bot_process import Decision\n"
        "decider = ProcessDecider()\n"
        "chosen = decider.decide(Decision('big2', 'medium', view, tuple(legal), 3, seat, 0))\n"
        "print(chosen == table.decide(seat, view, legal, 0), 'multiprocessing' in sys.modules)\n"
        "decider.close()\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(root)!r}); exec({program!r})"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False"]
