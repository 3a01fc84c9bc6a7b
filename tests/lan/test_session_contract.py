"""The Session contract: one suite, run against every way a seat can reach a table host.

Written against the :class:`~engine.session.Session` protocol only (``snapshot``, ``submit``, ``subscribe`` and its
updates, ``hint``, ``ready``, ``last_round_end``, ``close``, ``info``, ``entry``). The host is used only to set a
table up and, for timing, to wait until its bots are idle (``wait_idle``) and to ask whom they wait for
(``waiting_for``).

Factories: a :class:`LocalSession` from ``TableHost(table).connect(seat)``, a ``CodecSession`` around one, whose
every message (views, events, actions, errors, the table's information) crosses as JSON text, and a
:class:`NetworkSession` at a :class:`LanServer` on 127.0.0.1 serving that same host (see :class:`Network`): for it,
``settle`` also waits until every network session at the host has received what the host sent it so far.
"""

from __future__ import annotations

import importlib
import random
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from lan_helpers import ServerThread

from engine import codec
from engine.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    ParlourError,
)
from engine.events import Event
from engine.game import Game, Scenario
from engine.lan.remote_session import NetworkSession
from engine.match import MatchOver, RoundOver
from engine.play.local_sessions import CodecSession
from engine.play.table_host import TableHost, last_round_end
from engine.registry import GAMES, hint_level
from engine.session import Session, Snapshot, Update
from engine.table import Table

# The conformance harness's witnesses say, from RULES.md, what a spectator may see.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
conformance = importlib.import_module("conformance")

WAIT = 10.0
"""The longest any single wait may take (seconds); every loop is bounded by it too."""

Factory = Callable[[TableHost, "int | None"], Session]


def local(host: TableHost, seat: int | None) -> Session:
    return host.connect(seat)


def wired(host: TableHost, seat: int | None) -> Session:
    return CodecSession(host.connect(seat))


@dataclass
class NetTable:
    """A test's host served by a LanServer: its code, the people's sessions not yet handed out, every session."""

    server: ServerThread
    code: str
    unclaimed: dict[int, NetworkSession]
    made: list[NetworkSession]


class Network:
    """The network factory: the first session asked for at a host starts a :class:`LanServer` (127.0.0.1, port 0,
    on its own thread) whose table, once started through the protocol, is that very host (the test's table, seed and
    bots: ``LanServer.prepared_host``). Every person's seat of the table connects then (the first creates the table
    with the same game, players and bots, the others sit and say ready, the first starts it), so later calls hand
    out those sessions; a spectator connects and spectates. ``host.table.state`` and ``host.wait_idle`` are the
    server's own."""

    def __init__(self) -> None:
        self.tables: dict[int, NetTable] = {}
        self.sessions: list[NetworkSession] = []
        self.count = 0

    def _connect(self, server: ServerThread) -> NetworkSession:
        self.count += 1
        session = NetworkSession.connect("127.0.0.1", server.port, f"P{self.count}", timeout=WAIT)
        self.sessions.append(session)
        return session

    def _open(self, host: TableHost) -> NetTable:
        server = ServerThread()
        try:
            server.server.prepared_host = lambda _table: host
            seats = host.table.seats
            people = [n for n, s in enumerate(seats) if not s.is_bot]
            assert people, "a network table needs a person to create it"
            sessions = {n: self._connect(server) for n in people}
            creator = sessions[people[0]]
            code = creator.create(host.entry.key, len(seats), bots=[s.level for s in seats], seat=people[0], hints=True)
            for n in people[1:]:
                sessions[n].sit(code, n)
            creator.start()
            for session in sessions.values():
                session.wait_started(WAIT)
        except BaseException:
            for session in self.sessions:
                session.close()
            server.stop()
            raise
        return NetTable(server, code, sessions, list(sessions.values()))

    def __call__(self, host: TableHost, seat: int | None) -> Session:
        if id(host) not in self.tables:
            self.tables[id(host)] = self._open(host)
        table = self.tables[id(host)]
        if seat is not None and seat in table.unclaimed:
            return table.unclaimed.pop(seat)
        session = self._connect(table.server)  # a spectator, or a seat that is not a person's (refused)
        table.made.append(session)
        if seat is None:
            session.spectate(table.code)
        else:
            session.sit(table.code, seat)
        session.wait_started(WAIT)
        return session

    def sync(self, host: TableHost) -> None:
        """Every network session at ``host`` has received what the host sent it so far."""
        if id(host) in self.tables:
            for session in self.tables[id(host)].made:
                if not session.closed:
                    session.sync()

    def close(self) -> None:
        for session in self.sessions:
            session.close()
        for table in self.tables.values():
            table.server.stop()
        self.sessions.clear()
        self.tables.clear()


NETWORK = Network()


def network(host: TableHost, seat: int | None) -> Session:
    return NETWORK(host, seat)


FACTORIES = [
    pytest.param(local, id="local"),
    pytest.param(wired, id="codec"),
    pytest.param(network, id="network"),
]


# ---------------------------------------------------------------------------------------------------------------
# Setting a table up
# ---------------------------------------------------------------------------------------------------------------
def players_for(game: Game[Any, Any, Any]) -> int:
    """Four players where the game allows; Rank three (see ``lan_helpers.players_for``)."""
    return 3 if game.key == "rank" else min(max(game.min_players, 4), game.max_players)


def make_table(game: Game[Any, Any, Any], people: set[int], seed: int, rounds: int = 2, level: str = "easy") -> Table:
    """A short match (``rounds`` deals, or two lives each) with people at ``people`` and bots elsewhere."""
    players = players_for(game)
    deals = rounds if hasattr(game.options(), "deals") else None
    totals = None if deals else (rounds,) * players
    # A game that is one deal unless a variant says otherwise (Trash: *Match*, whose totals are the layout sizes)
    # is played with that variant, so that rounds end before the match does.
    variants = [v.key for v in game.variants if v.key == "match"]
    return Table.create(
        game.key,
        players=players,
        seed=seed,
        bots=[None if s in people else level for s in range(players)],
        variants=variants,
        deals=deals,
        scenario=Scenario(totals=totals) if totals else None,
    )


@dataclass
class Seat:
    """A session and what it has received."""

    session: Session
    events: list[Event] = field(default_factory=list)
    moments: list[tuple[int, Snapshot]] = field(default_factory=list)
    """For each update: how many events had been delivered with it (and before it), and its snapshot."""
    acknowledged: int = 0
    """How many RoundOver events this seat has answered with ready()."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def subscribe(self) -> Callable[[], None]:
        def got(update: Update) -> None:
            with self.lock:
                self.events.extend(update.events)
                self.moments.append((len(self.events), update.snapshot))

        return self.session.subscribe(got)

    def received(self) -> list[Event]:
        with self.lock:
            return list(self.events)

    def rounds_over(self) -> int:
        return sum(1 for e in self.received() if isinstance(e, RoundOver) and not e.last)

    def answer_round_ends(self) -> bool:
        """ready() for each round end seen and not yet answered (as a screen does after its summary)."""
        pending = self.rounds_over() - self.acknowledged
        for _ in range(pending):
            self.session.ready()
        self.acknowledged += pending
        return pending > 0


@pytest.fixture
def hosts() -> Iterator[list[TableHost]]:
    made: list[TableHost] = []
    yield made
    try:
        NETWORK.close()
    finally:
        for host in made:
            host.close()


def open_table(hosts: list[TableHost], table: Table, *, autostart: bool = True) -> TableHost:
    host = TableHost(table, pace=0.0, autostart=autostart)
    hosts.append(host)
    return host


def settle(host: TableHost) -> None:
    assert host.wait_idle(WAIT), "the bots did not stop in time"
    assert not host.errors, host.errors
    NETWORK.sync(host)  # (network sessions: every event the host sent so far has been delivered)


def frozen(session: Session) -> str:
    return codec.dumps(session.snapshot())


def action_pool(game: Game[Any, Any, Any], players: int, options: Any) -> list[Any]:
    """Well-formed actions of the game, gathered from a few random positions (to find illegal ones)."""
    pool: list[Any] = []
    for seed in range(6):
        state = game.new_match(players, options, random.Random(seed))
        rng = random.Random(seed)
        for _ in range(12):
            if state.is_over:
                break
            legal = state.legal_actions()
            pool.extend(a for a in legal if a not in pool)
            state.apply(state.to_move, rng.choice(legal))
    return pool


def turn_of(seats: dict[int, Seat], host: TableHost, number: int, rng: random.Random | None = None) -> Snapshot:
    """Wait (bounded) until it is ``number``'s turn, every person answering round ends and the others among
    ``seats`` playing random legal moves; ``number``'s snapshot then."""
    rng = rng or random.Random(0)
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        settle(host)
        for seat in seats.values():
            seat.answer_round_ends()
        snap = seats[number].session.snapshot()
        assert not snap.over, "the match ended first"
        if snap.to_move == number and snap.legal:
            return snap
        other = seats.get(snap.to_move) if snap.to_move is not None else None
        if other is not None:
            legal = other.session.snapshot().legal
            if legal:
                other.session.submit(rng.choice(legal))
    raise AssertionError(f"it never became seat {number}'s turn")


GAME_IDS = [g.key for g in GAMES]


def game_of(key: str) -> Game[Any, Any, Any]:
    return next(g for g in GAMES if g.key == key)


# ---------------------------------------------------------------------------------------------------------------
# The contract
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("factory", FACTORIES)
@pytest.mark.parametrize("key", GAME_IDS)
def test_info_and_entry(factory: Factory, key: str, hosts: list[TableHost]) -> None:
    game = game_of(key)
    table = make_table(game, {0}, seed=1)
    session = factory(open_table(hosts, table), 0)
    info = session.info
    assert info.seat == 0
    assert info.key == table.entry.key
    assert info.names == table.names and len(info.names) == players_for(game)
    assert info.bots[0] is None and all(level == "easy" for level in info.bots[1:])
    # No session is told the seed, in this process or over the network: it would deal every card still to come.
    assert info.seed is None
    assert info.options == table.options
    assert session.entry.game.key == key


@pytest.mark.parametrize("factory", FACTORIES)
@pytest.mark.parametrize("key", GAME_IDS)
def test_snapshot_fields(factory: Factory, key: str, hosts: list[TableHost]) -> None:
    game = game_of(key)
    host = open_table(hosts, make_table(game, {0}, seed=2))
    me = Seat(factory(host, 0))
    snap = turn_of({0: me}, host, 0)
    assert snap.seat == 0 and not snap.over
    assert isinstance(snap.view, game.view_type)
    assert snap.to_move == 0 and snap.legal
    # Taken at one moment: the view agrees with the snapshot.
    assert getattr(snap.view, "seat", 0) == 0
    version = snap.version
    me.session.submit(snap.legal[0])
    settle(host)
    later = me.session.snapshot()
    assert later.version > version
    if later.to_move != 0:
        assert later.legal == ()
    else:
        assert later.legal
    # Versions never go back.
    versions = [me.session.snapshot().version for _ in range(3)]
    assert versions == sorted(versions)


@pytest.mark.parametrize("factory", FACTORIES)
@pytest.mark.parametrize("key", GAME_IDS)
def test_a_legal_action_publishes_its_events_in_order(factory: Factory, key: str, hosts: list[TableHost]) -> None:
    game = game_of(key)
    host = open_table(hosts, make_table(game, {0}, seed=3))
    me = Seat(factory(host, 0))
    me.subscribe()
    snap = turn_of({0: me}, host, 0)
    before = len(me.received())
    assert before > 0, "the history so far comes first"
    me.session.submit(snap.legal[-1])
    settle(host)
    got = me.received()
    assert len(got) > before
    truth = [seen for e in host.table.state.history if (seen := e.for_seat(0)) is not None]
    assert got == truth


@pytest.mark.parametrize("factory", FACTORIES)
@pytest.mark.parametrize("key", GAME_IDS)
def test_errors_come_back_typed_and_change_nothing(factory: Factory, key: str, hosts: list[TableHost]) -> None:
    game = game_of(key)
    table = make_table(game, {0, 1}, seed=4)
    host = open_table(hosts, table)
    seats = {0: Seat(factory(host, 0)), 1: Seat(factory(host, 1))}
    for seat in seats.values():
        seat.subscribe()
    pool = action_pool(game, players_for(game), table.options)
    snap = turn_of(seats, host, 0)
    mover, other = seats[0], seats[1]

    def refused(seat: Seat, action: Any, kind: type[ParlourError]) -> None:
        before = {n: frozen(s.session) for n, s in seats.items()}
        counts = {n: len(s.received()) for n, s in seats.items()}
        with pytest.raises(kind) as caught:
            seat.session.submit(action)
        assert len(str(caught.value)) <= 300
        settle(host)
        assert {n: frozen(s.session) for n, s in seats.items()} == before, f"{action!r} changed something"
        assert {n: len(s.received()) for n, s in seats.items()} == counts, f"{action!r} published something"

    refused(mover, "garbage!", InvalidActionError)
    refused(mover, "x" * 100_000, InvalidActionError)
    refused(mover, "", InvalidActionError)
    illegal = [a for a in pool if a not in snap.legal]
    assert illegal, "no illegal action found to try"
    for action in illegal[:3]:
        refused(mover, action, IllegalActionError)
    # Playing for another seat: seat 1 tries seat 0's legal moves.
    for action in snap.legal[:2]:
        refused(other, action, NotYourTurnError)
        refused(other, str(action), NotYourTurnError)
    # Objects that are no action at all (a remote session cannot even send them: any ParlourError).
    loop: list[Any] = []
    loop.append(loop)
    for junk in (None, 5, object(), b"pass", loop, 10**5000, float("nan")):
        refused(mover, junk, ParlourError)


@pytest.mark.parametrize("factory", FACTORIES)
@pytest.mark.parametrize("key", GAME_IDS)
def test_a_session_cannot_play_for_a_bot(factory: Factory, key: str, hosts: list[TableHost]) -> None:
    game = game_of(key)
    players = players_for(game)
    first = make_table(game, set(), seed=5).state.to_move  # who moves first with this seed
    assert first is not None
    person = (first + 1) % players
    table = make_table(game, {person}, seed=5)
    host = open_table(hosts, table, autostart=False)  # the bots never move: a bot's turn stays a bot's turn
    assert table.state.to_move == first and table.seats[first].is_bot
    mine = factory(host, person)
    bots_legal = table.state.legal_actions()
    before = frozen(mine)
    for action in bots_legal:
        with pytest.raises(NotYourTurnError):
            mine.submit(action)
    # A session opened on the bot's own seat still cannot move for the bot.
    try:
        theirs = factory(host, first)
    except ParlourError:
        theirs = None
    if theirs is not None:
        for action in bots_legal:
            with pytest.raises(ParlourError):
                theirs.submit(action)
    assert frozen(mine) == before and table.state.version == 0


@pytest.mark.parametrize("factory", FACTORIES)
@pytest.mark.parametrize("key", GAME_IDS)
def test_a_spectator_sees_only_public_information(factory: Factory, key: str, hosts: list[TableHost]) -> None:
    game = game_of(key)
    table = make_table(game, {0}, seed=6)
    host = open_table(hosts, table)
    me = Seat(factory(host, 0))
    me.subscribe()
    watcher = Seat(factory(host, None))
    watcher.subscribe()
    assert watcher.session.info.seat is None
    witness = conformance.PLUGS[key].witness(table.state.players)
    rules = codec.dumps(table.options)
    fed = 0
    rng = random.Random(6)
    deadline = time.monotonic() + 12 * WAIT  # (a generous cap: a whole match, Rank's the longest, on a busy machine)
    views = 0
    while time.monotonic() < deadline:
        settle(host)
        if me.answer_round_ends():
            settle(host)  # the bots go on after ready(): the history and the snapshot below must be of one moment
        history = table.state.history
        for event in history[fed:]:
            witness.feed(event)
        fed = len(history)
        snap = watcher.session.snapshot()
        assert snap.seat is None and snap.legal == ()
        text = codec.dumps(snap.view).replace(rules, "")
        leaked = conformance.card_tokens(text) - witness.may_see_in_view(None)
        assert not leaked, f"a spectator's view names {sorted(leaked)}"
        views += 1
        if snap.legal == () and snap.to_move is not None:
            assert watcher.session.hint() is None
            with pytest.raises(ParlourError):
                watcher.session.submit(table.state.legal_actions()[0])
        mine = me.session.snapshot()
        if mine.over:
            break
        if mine.to_move == 0 and mine.legal:
            me.session.submit(rng.choice(mine.legal))
    assert table.state.is_over and views > 3
    # Every event the spectator got, checked against what it could have seen at that moment.
    witness = conformance.PLUGS[key].witness(table.state.players)
    got = iter(watcher.received())
    for event in table.state.history:
        witness.feed(event)
        public = event.for_seat(None)
        if public is None:
            continue
        seen = next(got)
        assert seen == public
        leaked = conformance.card_tokens(codec.dumps(seen)) - witness.may_see(None)
        assert not leaked, f"a spectator was sent {sorted(leaked)} in {type(seen).__name__}"
    assert next(got, None) is None


def seat_history(table: Table, seat: int | None, version: int) -> list[Event]:
    """The events ``seat`` may see of the table's first ``version`` actions (and the deal before them)."""
    return [seen for e in table.state.history[: table.bounds[version]] if (seen := e.for_seat(seat)) is not None]


@pytest.mark.parametrize("factory", FACTORIES)
@pytest.mark.parametrize("key", GAME_IDS)
def test_each_update_shows_exactly_the_events_delivered(factory: Factory, key: str, hosts: list[TableHost]) -> None:
    """A whole match, the bots moving at once: the first update carries the history so far with the snapshot that
    shows exactly it; every later update's snapshot shows every event delivered so far and nothing still to come.
    A seat at a host in this process (or through the codec) gets one update per action, even an action that shows
    it nothing; a remote seat may get several actions' events in one."""
    game = game_of(key)
    table = make_table(game, {0}, seed=12)
    host = open_table(hosts, table)
    me = Seat(factory(host, 0))
    watcher = Seat(factory(host, None))
    me.subscribe()
    watcher.subscribe()
    rng = random.Random(12)
    deadline = time.monotonic() + 3 * WAIT
    while time.monotonic() < deadline:
        settle(host)
        me.answer_round_ends()
        snap = me.session.snapshot()
        if snap.over:
            break
        if snap.to_move == 0 and snap.legal:
            me.session.submit(rng.choice(snap.legal))
    assert table.state.is_over, "the match did not end in time"
    settle(host)
    for seat, number in ((me, 0), (watcher, None)):
        with seat.lock:
            moments, received = list(seat.moments), list(seat.events)
        assert moments and moments[-1][1].over
        versions = [snap.version for _, snap in moments]
        assert versions == sorted(versions) and len(set(versions)) == len(versions), "an update went back in time"
        if factory is not network:
            assert versions == list(range(versions[0], table.state.version + 1)), "not one update per action"
        for count, snap in moments:
            assert snap.seat == number
            assert received[:count] == seat_history(table, number, snap.version), (
                f"the update of version {snap.version} does not show exactly the events delivered with it"
            )
        assert received == seat_history(table, number, table.state.version)


@pytest.mark.parametrize("factory", FACTORIES)
@pytest.mark.parametrize("key", GAME_IDS)
def test_hint_is_legal_or_none(factory: Factory, key: str, hosts: list[TableHost]) -> None:
    game = game_of(key)
    host = open_table(hosts, make_table(game, {0, 1}, seed=7, level="easy"))
    me, other = Seat(factory(host, 0)), Seat(factory(host, 1))
    snap = turn_of({0: me, 1: other}, host, 0)
    hint = me.session.hint()
    if hint_level(game) is None:
        assert hint is None
    else:
        assert hint is not None and hint.action in snap.legal and hint.reason
    assert other.session.hint() is None  # not its turn
    assert me.session.snapshot().version == snap.version  # a hint changes nothing


@pytest.mark.parametrize("factory", FACTORIES)
@pytest.mark.parametrize("key", GAME_IDS)
def test_bots_wait_at_the_end_of_a_round_for_every_person(factory: Factory, key: str, hosts: list[TableHost]) -> None:
    game = game_of(key)
    table = make_table(game, {0, 1}, seed=10, rounds=3)
    host = open_table(hosts, table)
    seats = {0: Seat(factory(host, 0)), 1: Seat(factory(host, 1))}
    for seat in seats.values():
        seat.subscribe()
    rng = random.Random(8)
    waited_with_a_bot_to_move = 0
    deadline = time.monotonic() + 3 * WAIT
    while time.monotonic() < deadline:
        settle(host)
        snap = seats[0].session.snapshot()
        if snap.over:
            break
        if seats[0].rounds_over() > seats[0].acknowledged:
            assert host.waiting_for == {0, 1}
            if snap.to_move not in seats:  # a bot would move now: it must not
                version = snap.version
                settle(host)  # idle: no bot may move (the host waits for the people at the round's end)
                assert seats[0].session.snapshot().version == version, "a bot moved before anyone was ready"
                seats[0].answer_round_ends()
                assert host.waiting_for == {1}
                settle(host)
                assert seats[1].session.snapshot().version == version, "a bot moved before everyone was ready"
                seats[1].answer_round_ends()
                settle(host)
                assert not host.waiting_for
                assert seats[0].session.snapshot().version > version, "the bots did not go on after ready()"
                waited_with_a_bot_to_move += 1
            else:
                seats[0].answer_round_ends()
                seats[1].answer_round_ends()
            continue
        seats[1].answer_round_ends()  # (its count follows seat 0's)
        mover = seats.get(snap.to_move) if snap.to_move is not None else None
        if mover is not None:
            mine = mover.session.snapshot()
            if mine.legal:
                mover.session.submit(rng.choice(mine.legal))
    assert table.state.is_over, "the match did not end in time"
    assert waited_with_a_bot_to_move, "no round ended with a bot to move (pick another seed)"


@pytest.mark.parametrize("factory", FACTORIES)
@pytest.mark.parametrize("key", GAME_IDS)
def test_the_last_round_end_is_the_version_it_came_at(factory: Factory, key: str, hosts: list[TableHost]) -> None:
    """``last_round_end``: None before a round has ended, then the version right after the action that ended the
    latest round (what a screen opening then compares with its first snapshot), as the table itself says."""
    game = game_of(key)
    table = make_table(game, {0}, seed=12, rounds=3)
    host = open_table(hosts, table)
    seat = Seat(factory(host, 0))
    seat.subscribe()
    rng = random.Random(5)
    ends: set[int] = set()
    deadline = time.monotonic() + 3 * WAIT
    while time.monotonic() < deadline:
        settle(host)
        snap = seat.session.snapshot()
        expected = last_round_end(table)
        assert seat.session.last_round_end() == expected
        if expected is not None:
            ends.add(expected)
        if snap.over:
            break
        seat.answer_round_ends()
        if snap.legal:
            seat.session.submit(rng.choice(snap.legal))
    assert table.state.is_over, "the match did not end in time"
    assert len(ends) >= 2, "two rounds ended before the match's last"


@pytest.mark.parametrize("factory", FACTORIES)
@pytest.mark.parametrize("key", GAME_IDS)
def test_close_stops_events_and_play(factory: Factory, key: str, hosts: list[TableHost]) -> None:
    game = game_of(key)
    table = make_table(game, {0, 1}, seed=9)
    host = open_table(hosts, table)
    keep, leave = Seat(factory(host, 0)), Seat(factory(host, 1))
    keep.subscribe()
    leave.subscribe()
    settle(host)
    leave.session.close()
    count = len(leave.received())
    version = keep.session.snapshot().version
    rng = random.Random(9)
    deadline = time.monotonic() + WAIT
    # Seat 0 plays on (seat 1's turns are its own to take, so play stops there: the bots still move).
    while time.monotonic() < deadline and table.state.version < version + 6:
        settle(host)
        keep.answer_round_ends()
        snap = keep.session.snapshot()
        if snap.over or (snap.to_move == 1 and not host.waiting_for):
            break
        if snap.legal:
            keep.session.submit(rng.choice(snap.legal))
    assert table.state.version > version, "nothing happened after the close"
    assert len(leave.received()) == count, "a closed session still got events"
    assert 1 not in host.waiting_for
    with pytest.raises(ParlourError):
        leave.session.submit("pass")
    leave.session.close()  # twice is harmless


@pytest.mark.parametrize("factory", FACTORIES)
@pytest.mark.parametrize("key", GAME_IDS)
def test_a_whole_match_through_a_session(factory: Factory, key: str, hosts: list[TableHost]) -> None:
    game = game_of(key)
    table = make_table(game, {0}, seed=10, level="medium")
    host = open_table(hosts, table)
    me = Seat(factory(host, 0))
    me.subscribe()
    rng = random.Random(10)
    deadline = time.monotonic() + 3 * WAIT
    moves = 0
    while time.monotonic() < deadline:
        settle(host)
        me.answer_round_ends()
        snap = me.session.snapshot()
        if snap.over:
            break
        if snap.to_move == 0 and snap.legal:
            me.session.submit(rng.choice(snap.legal))
            moves += 1
    snap = me.session.snapshot()
    assert snap.over and snap.to_move is None and snap.legal == ()
    assert moves > 0
    got = me.received()
    assert isinstance(got[-1], MatchOver)
    assert got == [seen for e in table.state.history if (seen := e.for_seat(0)) is not None]
    assert me.acknowledged == me.rounds_over() >= 1
    pool = action_pool(game, players_for(game), table.options)
    before = frozen(me.session)
    with pytest.raises(GameOverError):
        me.session.submit(pool[0])
    assert frozen(me.session) == before
    assert me.session.hint() is None
