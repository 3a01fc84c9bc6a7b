"""Takebacks against computer players (issue 31, point 2), in the engine: the table goes back to your latest
decision exactly as it was (the same view, the same moves offered, the same history as your seat saw it, nothing
more), and the bots' seeded choices on the way forward are the same; refused where it is not offered."""

from __future__ import annotations

import queue
import random
import threading
from dataclasses import dataclass

import pytest

from engine.errors import ParlourError
from engine.events import Event
from engine.game import Action
from engine.play.bot_process import Decision as Request
from engine.play.bot_process import ProcessDecider, decide_here
from engine.play.local_sessions import LocalSession
from engine.play.table_host import TableHost
from engine.session import Snapshot, Update
from engine.table import Table


@dataclass(frozen=True)
class Decision:
    snapshot: Snapshot
    seen: tuple[Event, ...]
    """The history as seat 0 saw it at that moment."""


def settle(host: TableHost, me: LocalSession) -> None:
    """Let the bots play until it is seat 0's turn or the match is over (saying ready at each round's end)."""
    for _ in range(10_000):
        assert host.wait_idle(30.0), host.errors
        if 0 in host.waiting_for:
            me.ready()
            continue
        return
    raise AssertionError("the table never came to rest")


def seen_by(table: Table, seat: int) -> tuple[Event, ...]:
    return tuple(seen for event in table.state.history if (seen := event.for_seat(seat)) is not None)


def first_update(me: LocalSession) -> Update:
    got: list[Update] = []
    stop = me.subscribe(got.append)
    stop()
    return got[0]


def play(host: TableHost, me: LocalSession, rng: random.Random, decisions: int) -> tuple[list[Decision], list[Action]]:
    made: list[Decision] = []
    moves: list[Action] = []
    for _ in range(decisions):
        settle(host, me)
        snap = me.snapshot()
        if snap.over:
            break
        made.append(Decision(snap, seen_by(host.table, 0)))
        move = rng.choice(snap.legal)
        moves.append(move)
        me.submit(move)
    settle(host, me)
    return made, moves


GAMES = [("screw", 4, "easy"), ("chase", 3, "medium"), ("big2", 4, "easy"), ("trash", 2, "easy"), ("rank", 3, "easy")]


@pytest.mark.parametrize(("game", "players", "level"), GAMES)
def test_a_takeback_restores_the_decision_and_the_bots_play_the_same_again(game: str, players: int, level: str) -> None:
    for seed in range(11, 40):  # the first seed whose match is still on after your few moves
        table = Table.create(game, players=players, seed=seed, bots=[None] + [level] * (players - 1))
        host = TableHost(table, takebacks=True)
        me = host.connect(0)
        made, moves = play(host, me, random.Random(4), 4)
        if len(made) >= 3 and not table.state.is_over:
            break
        me.close()
        host.close()
    try:
        assert len(made) >= 3 and not table.state.is_over
        line = list(table.actions)
        history = list(table.state.history)

        # Back one decision: exactly as it was, for your seat and for the table.
        version = me.take_back()
        last = made[-1]
        assert version == last.snapshot.version
        assert me.snapshot() == last.snapshot
        assert seen_by(host.table, 0) == last.seen
        update = first_update(me)  # what a screen following the table again is handed: what you had seen, no more
        assert update.events == last.seen and update.snapshot == last.snapshot
        assert host.table.takebacks == 1

        # The same move again: the bots answer as they did, to the same position.
        me.submit(moves[-1])
        settle(host, me)
        assert host.table.actions == line
        assert host.table.state.history == history

        # Two decisions back, then forward again with the same moves: the same match.
        me.take_back()
        me.take_back()
        assert me.snapshot() == made[-2].snapshot
        assert seen_by(host.table, 0) == made[-2].seen
        assert host.table.takebacks == 3
        for move in moves[-2:]:
            me.submit(move)
            settle(host, me)
        assert host.table.actions == line
    finally:
        me.close()
        host.close()


def test_another_move_after_a_takeback_plays_on_from_there() -> None:
    table = Table.create("screw", players=3, seed=2, bots=[None, "easy", "easy"])
    host = TableHost(table, takebacks=True)
    me = host.connect(0)
    try:
        made, moves = play(host, me, random.Random(1), 2)
        me.take_back()
        other = next(action for action in made[-1].snapshot.legal if action != moves[-1])
        me.submit(other)
        settle(host, me)
        assert host.table.actions[made[-1].snapshot.version] == (0, other)
        again = Table.create("screw", players=3, seed=2, bots=[None, "easy", "easy"])
        for seat, action in host.table.actions:  # the line played is a match of its own, from the seed
            again.submit(seat, action)
        assert again.state.history == host.table.state.history
    finally:
        me.close()
        host.close()


def test_refused_where_it_is_not_offered() -> None:
    # A LAN host's table (made without takebacks).
    lan = TableHost(Table.create("screw", players=3, seed=1, bots=[None, "easy", "easy"]))
    me = lan.connect(0)
    play(lan, me, random.Random(1), 1)
    with pytest.raises(ParlourError, match="in this process"):
        me.take_back()
    lan.close()

    # Another person at the table.
    two = TableHost(Table.create("screw", players=3, seed=1, bots=[None, None, "easy"]), takebacks=True)
    ann, ben = two.connect(0), two.connect(1)
    for _ in range(20):
        two.wait_idle(10.0)
        snap = two.snapshot(None)
        if snap.to_move in (0, 1) and len(two.table.actions) >= 2:
            break
        mover = ann if snap.to_move == 0 else ben
        mover.submit(mover.snapshot().legal[0])
    with pytest.raises(ParlourError, match="every other seat is a computer player"):
        ann.take_back()
    assert ben.takeback_refusal() == "Takebacks are only for a table where every other seat is a computer player."
    two.close()

    # A spectator; no move made yet; the match over.
    host = TableHost(Table.create("screw", players=3, seed=1, bots=[None, "easy", "easy"]), takebacks=True)
    watcher, me = host.connect(None), host.connect(0)
    settle(host, me)
    with pytest.raises(ParlourError, match="no move of yours"):
        me.take_back()
    with pytest.raises(ParlourError, match="spectator"):
        watcher.take_back()
    while not me.snapshot().over:
        me.submit(me.snapshot().legal[0])
        settle(host, me)
    with pytest.raises(ParlourError, match="over"):
        me.take_back()
    assert host.table.takebacks == 0
    host.close()


class HeldDecider(ProcessDecider):
    """Where the host's bots think, as the bot process would (:func:`decide_here`), no child started: while
    ``holding``, each decision waits for the test to let it go, so a takeback can come while a bot thinks."""

    def __init__(self) -> None:
        super().__init__()
        self.holding = False
        self.asked: queue.Queue[Request] = queue.Queue()
        self.go = threading.Event()

    def start(self) -> None:
        pass

    def close(self) -> None:
        self.go.set()

    def decide(self, request: Request) -> Action:
        self.asked.put(request)
        if self.holding:
            assert self.go.wait(30.0)
        return decide_here(request)


def test_a_decision_a_bot_was_making_when_the_move_was_taken_back_is_not_played() -> None:
    seed = next(s for s in range(100) if Table.create("screw", players=3, seed=s).state.to_move == 0)
    decider = HeldDecider()
    table = Table.create("screw", players=3, seed=seed, bots=[None, "easy", "easy"])
    host = TableHost(table, decider=decider, takebacks=True)
    me = host.connect(0)
    try:
        assert host.wait_idle(30.0)
        first, second = me.snapshot().legal  # stay, trade
        decider.holding = True
        me.submit(second)  # (a trade with the bot on your left: its card, and so its view, changes)
        old = decider.asked.get(timeout=30.0)  # the bot on your left is thinking of its answer to it
        assert old.version == 1 and old.seat == 1
        me.take_back()
        me.submit(first)  # the same version again, on another line of play
        decider.holding = False
        decider.go.set()  # the old decision is made now: too late
        assert host.wait_idle(30.0) and not host.errors
        new = decider.asked.get(timeout=30.0)
        assert (new.version, new.seat) == (1, 1) and new.view != old.view  # asked again, from where it stands now
        assert table.actions[:2] == [(0, first), (1, decide_here(new))]
    finally:
        me.close()
        host.close()
