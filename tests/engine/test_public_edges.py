"""Typed errors at every public edge (issue 26, point 6).

Whatever object is given as a seat, an action or a card to :meth:`Table.submit`, the sessions (a local one and one
whose messages cross the codec), a game's ``parse_action``, or the codec, the refusal is the engine's typed error
(:mod:`engine.errors`) and nothing changes: every seat's view, the legal actions, the history, the record of actions
and what the subscribers were sent are the same after it as before. A seeded list of hostile shapes (text, lists,
huge numbers, booleans, None, floats, nested objects, enum members of the wrong kind, objects whose every dunder
fails, cards with wrong fields) goes through every edge of every game, and hypothesis draws more.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import codec
from engine.cards import JOKER, Card, Rank, Suit, parse_cards
from engine.errors import CodecError, InvalidActionError, NotYourTurnError, ParlourError, SeatError
from engine.events import Event
from engine.game import GameEntry
from engine.play.local_sessions import CodecSession, LocalSession
from engine.play.table_host import TableHost
from engine.registry import ENTRIES, GAMES
from engine.table import Table

ENTRY_KEYS = [entry.key for entry in ENTRIES]


# ---------------------------------------------------------------------------------------------------------------
# Hostile shapes
# ---------------------------------------------------------------------------------------------------------------
class Hostile:
    """An object every one of whose dunders fails: equality, hashing, text, truth, length, iteration, numbers."""

    def _fail(self, *args: object) -> Any:
        raise RuntimeError("hostile")

    __eq__ = __ne__ = __lt__ = __hash__ = __repr__ = __str__ = __bool__ = __len__ = _fail  # type: ignore[assignment]
    __iter__ = __index__ = __int__ = __float__ = __format__ = __getitem__ = __contains__ = _fail


class TrickyText(str):
    """Text whose methods lie or fail: a caller's ``str`` subclass."""

    def strip(self, chars: str | None = None) -> Any:
        return Hostile()

    def lower(self) -> Any:
        raise RuntimeError("hostile")

    upper = split = lower

    def __len__(self) -> int:
        raise RuntimeError("hostile")


class Nothing(enum.Enum):
    """An enum member whose value is None, and one that looks like a suit."""

    NONE = None
    SPADES = "S"


class Number(enum.IntEnum):
    """Enum members that are numbers, of no kind the engine knows."""

    ZERO = 0
    ONE = 1
    HUGE = 10**9


class Whole(int):
    """A caller's int subclass."""


def forged_card(rank: object, suit: object) -> Card:
    """A Card whose fields were set past its constructor (as a careless decoder or unpickler might)."""
    card = object.__new__(Card)
    object.__setattr__(card, "rank", rank)
    object.__setattr__(card, "suit", suit)
    return card


BAD_CARD_FIELDS: list[tuple[object, object]] = [
    (Rank.FIVE, "H"),
    (5, Suit.HEARTS),
    ("5", "H"),
    ("5", Suit.HEARTS),
    (None, None),
    (Rank.FIVE, None),
    (None, Suit.HEARTS),
    (Rank.JOKER, Suit.HEARTS),
    (Nothing.NONE, Suit.HEARTS),
    (Rank.FIVE, Nothing.NONE),
    (Rank.FIVE, Nothing.SPADES),
    (Number.ONE, Suit.SPADES),
    (True, Suit.SPADES),
    (Rank, Suit),
    (Hostile(), Hostile()),
    (Rank.FIVE, Hostile()),
    (10**9, Suit.CLUBS),
]
FORGED_CARDS = [forged_card(rank, suit) for rank, suit in BAD_CARD_FIELDS]

HOSTILE_SEATS: list[object] = [
    "0",
    "",
    [0],
    (0,),
    {0: 0},
    {0},
    10**9,
    -(10**9),
    2**64,
    -1,
    True,
    False,
    0.0,
    1.0,
    float("nan"),
    float("inf"),
    complex(0),
    b"0",
    bytearray(b"0"),
    object(),
    Hostile(),
    Rank.ACE,
    Suit.SPADES,
    Number.ZERO,
    Number.ONE,
    Number.HUGE,
    Nothing.NONE,
    Whole(0),
    Whole(1),
    [[[0]]],
    Card.parse("AS"),
]

HOSTILE_ACTIONS: list[object] = [
    None,
    0,
    1,
    -1,
    10**9,
    2**200,
    True,
    False,
    1.5,
    float("nan"),
    float("-inf"),
    complex(1, 1),
    b"pass",
    bytearray(b"stay"),
    "",
    " ",
    "\x00",
    "\x1b[2J",
    "\ud800",
    "x" * 100_000,
    "10H 10H",
    "10X",
    "king 0",
    "king 99999999999999999999",
    "٣",
    "king ٣",
    "１",
    "name JK",
    "name 0",
    "play",
    TrickyText("pass"),
    TrickyText("stay"),
    [],
    ["pass"],
    ("pass",),
    {},
    {"type": "pass"},
    {"game": "big2", "type": "PassTurn"},
    set(),
    frozenset({"pass"}),
    [[[[["pass"]]]]],
    object(),
    Hostile(),
    Nothing.NONE,
    Nothing.SPADES,
    Number.ZERO,
    Number.HUGE,
    Rank.ACE,
    Rank.JOKER,
    Suit.HEARTS,
    Card,
    Rank,
    print,
    Ellipsis,
    ValueError("pass"),
    JOKER,
    Card.parse("KH"),
    (Card.parse("KH"),),
    [Card.parse("KH")],
    *FORGED_CARDS,
    tuple(FORGED_CARDS),
]

FILLERS: list[object] = [
    None,
    5,
    10**9,
    -1,
    True,
    1.5,
    "x",
    "3D",
    ("3D",),
    (None,),
    [Card.parse("3D")],
    (Card.parse("3D"),) * 20,
    (Card.parse("3D"), 7),
    Nothing.NONE,
    Number.HUGE,
    Rank.JOKER,
    Hostile(),
    (Hostile(),),
    *FORGED_CARDS,
    *((card,) for card in FORGED_CARDS),
]
"""What goes inside a game's own action classes, in place of each field."""


def game_action_garbage(entry: GameEntry) -> list[object]:
    """Objects of the game's own action classes with garbage in each field: built through their constructors, and
    forged past them."""
    out: list[object] = []
    state = entry.game.new_match(entry.game.default_players, entry.game.options(), random.Random(0))
    for cls in state.action_types:
        if not dataclasses.is_dataclass(cls):
            continue
        fields = [f.name for f in dataclasses.fields(cls) if f.init]
        for filler in FILLERS:
            try:
                out.append(cls(**dict.fromkeys(fields, filler)))
            except ParlourError:
                pass  # refused at once: the constructor is an edge too, and it gave a typed error
            forged = object.__new__(cls)
            for name in fields:
                object.__setattr__(forged, name, filler)
            out.append(forged)
    return out


def _foreign_actions(entry: GameEntry) -> list[object]:
    """The legal actions of the other games at their start (garbage here, unless they mean the same)."""
    out: list[object] = []
    for game in GAMES:
        if game is not entry.game:
            out.extend(game.new_match(game.default_players, game.options(), random.Random(0)).legal_actions())
    return out


# ---------------------------------------------------------------------------------------------------------------
# Tables and what must not change
# ---------------------------------------------------------------------------------------------------------------
def people_table(key: str, seed: int = 5, moves: int = 3) -> Table:
    """A table of people only, a few random moves in (so the first deal's special cases are behind it)."""
    entry = next(e for e in ENTRIES if e.key == key)
    players = entry.game.default_players
    table = Table.create(key, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if table.state.is_over:
            break
        table.submit(table.state.to_move, rng.choice(table.state.legal_actions()))  # type: ignore[arg-type]
    return table


def fingerprint(table: Table) -> tuple[Any, ...]:
    """Everything a refusal must leave as it was, as text: each seat's view and a spectator's, the legal actions,
    the seat to move, the history, where every card is, and the record of actions."""
    state = table.state
    seats: list[int | None] = [*range(state.players), None]
    return (
        state.version,
        state.to_move,
        tuple(codec.dumps(state.view(seat)) for seat in seats),
        codec.dumps(tuple(state.legal_actions())),
        codec.dumps(tuple(state.history)),
        tuple((seat, codec.dumps(action)) for seat, action in table.actions),
        tuple(table.bounds),
        tuple(sorted((place, tuple(map(str, cards))) for place, cards in state.zones().items())),
    )


class Watched:
    """A table with a subscriber per seat: a refusal must publish nothing to anybody."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.sent: list[Event] = []
        for seat in [*range(table.state.players), None]:
            table.subscribe(seat, self.sent.append)
        self.before = fingerprint(table)
        self.published = len(self.sent)

    def refused(self, call: Callable[[], object], error: type[ParlourError] = ParlourError) -> ParlourError:
        """``call()`` raises ``error`` (a ParlourError, never a bare exception) and changes nothing."""
        with pytest.raises(ParlourError) as caught:
            call()
        assert isinstance(caught.value, error), caught.value
        assert str(caught.value) and len(str(caught.value)) <= 1000
        self.unchanged()
        return caught.value

    def unchanged(self) -> None:
        assert fingerprint(self.table) == self.before
        assert len(self.sent) == self.published

    def accepted(self) -> None:
        """The call was accepted: what follows is compared with the table as it is now."""
        self.before = fingerprint(self.table)
        self.published = len(self.sent)


def _ids(values: list[object]) -> list[str]:
    return [f"{i}-{type(v).__name__}" for i, v in enumerate(values)]


@pytest.fixture(params=ENTRY_KEYS)
def watched(request: pytest.FixtureRequest) -> Watched:
    return Watched(people_table(request.param))


# ---------------------------------------------------------------------------------------------------------------
# Cards, ranks and suits
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("rank", "suit"), BAD_CARD_FIELDS, ids=_ids([f for f, _ in BAD_CARD_FIELDS]))
def test_a_card_with_wrong_fields_cannot_be_built(rank: object, suit: object) -> None:
    with pytest.raises(InvalidActionError, match="card"):
        Card(rank, suit)  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError):
        dataclasses.replace(Card.parse("5H"), rank=rank, suit=suit)  # type: ignore[arg-type]


def test_good_cards_are_still_built_and_read() -> None:
    assert Card(Rank.FIVE, Suit.HEARTS) == Card.parse("5h") == Card.parse("5♥")
    assert Card(Rank.JOKER, None) == JOKER == Card.parse("joker")
    assert str(Card(Rank.TEN, Suit.SPADES)) == "10S" == str(Card.parse("TS"))
    assert [str(c) for c in parse_cards("3D, 10S  AH")] == ["3D", "10S", "AH"]


@pytest.mark.parametrize("value", [99, -1, 14, "5", "ace", "S", None, 1.5, (), "X", Nothing.NONE, Number.HUGE])
def test_a_rank_or_suit_that_is_none_is_a_typed_error(value: object) -> None:
    with pytest.raises(InvalidActionError, match="rank"):
        Rank(value)
    if value != "S":
        with pytest.raises(InvalidActionError, match="suit"):
            Suit(value)


def test_known_ranks_and_suits_are_still_found() -> None:
    assert Rank(1) is Rank.ACE and Rank(13) is Rank.KING and Rank(0) is Rank.JOKER
    assert Suit("S") is Suit.SPADES and Suit("C") is Suit.CLUBS


NOT_CARDS = [x for x in HOSTILE_ACTIONS if not isinstance(x, Card)]


@pytest.mark.parametrize("text", NOT_CARDS, ids=_ids(NOT_CARDS))
def test_card_text_that_is_not_a_card_is_refused(text: object) -> None:
    with pytest.raises(InvalidActionError):
        Card.parse(text)  # type: ignore[arg-type]
    try:
        cards = parse_cards(text)  # type: ignore[arg-type]
    except InvalidActionError:
        return
    assert isinstance(text, str) and all(type(card) is Card for card in cards)


# ---------------------------------------------------------------------------------------------------------------
# Table.submit, the views and the subscriptions: seats
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seat", HOSTILE_SEATS, ids=_ids(HOSTILE_SEATS))
def test_a_hostile_seat_is_a_seat_error_everywhere(watched: Watched, seat: object) -> None:
    table = watched.table
    legal = table.state.legal_actions()[0]
    watched.refused(lambda: table.submit(seat, legal), SeatError)  # type: ignore[arg-type]
    watched.refused(lambda: table.submit(seat, str(legal)), SeatError)  # type: ignore[arg-type]
    watched.refused(lambda: table.state.view(seat), SeatError)  # type: ignore[arg-type]
    watched.refused(lambda: table.subscribe(seat, watched.sent.append), SeatError)  # type: ignore[arg-type]
    watched.refused(lambda: table.hint(seat, None, (), 0), SeatError)  # type: ignore[arg-type]
    watched.refused(lambda: table.decide(seat, None, (), 0), SeatError)  # type: ignore[arg-type]


def test_a_bot_seat_decides_and_a_hostile_one_does_not() -> None:
    table = Table.create("screw", players=3, seed=2, bots=["easy", "easy", "easy"])
    watched = Watched(table)
    seat, action = table.think()
    assert action in table.state.legal_actions()
    for bad in (seat + 3, -1, str(seat), [seat], Whole(seat), Number.ONE):
        watched.refused(lambda bad=bad: table.decide(bad, None, table.state.legal_actions(), 0), SeatError)  # type: ignore[misc]


# ---------------------------------------------------------------------------------------------------------------
# Table.submit and parse_action: actions
# ---------------------------------------------------------------------------------------------------------------
def _refusals(entry: GameEntry) -> list[object]:
    return [*HOSTILE_ACTIONS, *game_action_garbage(entry)]


def _well_formed(table: Table, action: object) -> bool:
    """Does the game read ``action`` as one of its actions (legal now or not)? Only InvalidActionError says no."""
    try:
        table.state.coerce_action(action)
    except InvalidActionError:
        return False
    return True


def _is_legal(table: Table, action: object) -> bool:
    """Is ``action``, read as the game reads it, one of the legal actions now?"""
    return _well_formed(table, action) and table.state.coerce_action(action) in table.state.legal_actions()


def _entry(key: str) -> GameEntry:
    return next(e for e in ENTRIES if e.key == key)


@pytest.mark.parametrize("key", ENTRY_KEYS)
def test_hostile_actions_are_typed_errors_and_change_nothing(key: str) -> None:
    watched = Watched(people_table(key))
    table = watched.table
    tried = 0
    for action in [*_refusals(_entry(key)), *_foreign_actions(_entry(key))]:
        mover = table.state.to_move
        assert mover is not None
        if _is_legal(table, action):
            continue  # garbage that means a legal move here (another game's "pass", a King on slot 5)
        tried += 1
        watched.refused(lambda: table.submit(mover, action))  # noqa: B023
        watched.refused(lambda: table.state.apply(mover, action))  # noqa: B023
        if not _well_formed(table, action):
            watched.refused(lambda: table.state.coerce_action(action), InvalidActionError)  # noqa: B023
        if not isinstance(action, str):
            watched.refused(lambda: table.state.parse_action(action), InvalidActionError)  # type: ignore[arg-type]  # noqa: B023
    assert tried > len(HOSTILE_ACTIONS)


@pytest.mark.parametrize("key", ENTRY_KEYS)
def test_parse_action_gives_an_action_or_invalid_action_error(key: str) -> None:
    table = people_table(key)
    state = table.state
    for action in _refusals(next(e for e in ENTRIES if e.key == key)):
        try:
            move = state.parse_action(action)  # type: ignore[arg-type]
        except InvalidActionError as err:
            assert len(str(err)) <= 1000
        else:
            assert isinstance(action, str) and isinstance(move, state.action_types), (action, move)


def one_of_list(values: list[object]) -> st.SearchStrategy[object]:
    """One of ``values`` (by index: ``sampled_from`` hashes what it samples, and a Hostile cannot be hashed)."""
    return st.integers(0, len(values) - 1).map(values.__getitem__)


SEATS = st.one_of(
    st.integers(),
    st.integers(min_value=-3, max_value=8),
    st.text(max_size=4),
    st.floats(),
    st.booleans(),
    st.none(),
    st.lists(st.integers(min_value=0, max_value=3), max_size=2),
    one_of_list(HOSTILE_SEATS),
)
ACTION_TEXT = st.text(alphabet="0123456789AJQKTSHDCjkpasdrwxtynmeg ,♠♥♦♣\x00", max_size=16)
ACTIONS = st.one_of(
    st.text(max_size=30),
    ACTION_TEXT,
    st.integers(),
    st.floats(),
    st.binary(max_size=6),
    st.lists(st.one_of(st.integers(), ACTION_TEXT), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
    st.builds(
        forged_card,
        st.sampled_from([*Rank, *Suit, None, 5, "5", Nothing.NONE]),
        st.sampled_from([*Suit, None, "H", Nothing.SPADES]),
    ),
    one_of_list(HOSTILE_ACTIONS),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(ENTRY_KEYS), seat=SEATS, seed=st.integers(0, 50))
def test_fuzz_seats_through_submit(key: str, seat: object, seed: int) -> None:
    watched = Watched(people_table(key, seed=seed))
    table = watched.table
    state = table.state
    action = state.legal_actions()[0]
    if type(seat) is int and 0 <= seat < state.players:
        if seat == state.to_move:
            table.submit(seat, action)
            assert table.actions[-1] == (seat, action)
        else:
            watched.refused(lambda: table.submit(seat, action), NotYourTurnError)  # type: ignore[arg-type]
    else:
        watched.refused(lambda: table.submit(seat, action), SeatError)  # type: ignore[arg-type]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(ENTRY_KEYS), actions=st.lists(ACTIONS, min_size=1, max_size=6), seed=st.integers(0, 50))
def test_fuzz_actions_through_submit_and_parse(key: str, actions: list[object], seed: int) -> None:
    watched = Watched(people_table(key, seed=seed))
    table = watched.table
    for action in actions:
        state = table.state
        if state.is_over:
            break
        try:
            parsed = state.parse_action(action)  # type: ignore[arg-type]
        except InvalidActionError:
            pass
        else:
            assert isinstance(action, str) and isinstance(parsed, state.action_types)
        legal = state.legal_actions()
        mover = state.to_move
        assert mover is not None
        try:
            table.submit(mover, action)
        except ParlourError:
            watched.unchanged()
        else:
            assert table.actions[-1][1] in legal and isinstance(table.actions[-1][1], state.action_types)
            watched.accepted()


# ---------------------------------------------------------------------------------------------------------------
# The sessions
# ---------------------------------------------------------------------------------------------------------------
@pytest.fixture(params=ENTRY_KEYS)
def hosted(request: pytest.FixtureRequest) -> Iterator[tuple[Watched, TableHost]]:
    watched = Watched(people_table(request.param))
    host = TableHost(watched.table, autostart=False)
    try:
        yield watched, host
    finally:
        host.close()


@pytest.mark.parametrize("seat", HOSTILE_SEATS, ids=_ids(HOSTILE_SEATS))
def test_a_session_for_a_hostile_seat_is_refused(hosted: tuple[Watched, TableHost], seat: object) -> None:
    watched, host = hosted
    watched.refused(lambda: host.connect(seat), SeatError)  # type: ignore[arg-type]
    watched.refused(lambda: LocalSession(host, seat), SeatError)  # type: ignore[arg-type]


def test_hostile_actions_through_the_sessions(hosted: tuple[Watched, TableHost]) -> None:
    watched, host = hosted
    table = watched.table
    entry = table.entry
    mover = table.state.to_move
    other = (mover + 1) % table.state.players  # type: ignore[operator]
    local = host.connect(mover)
    wired = CodecSession(host.connect(mover))
    waiting = host.connect(other)
    spectator = host.connect(None)
    for action in _refusals(entry):
        watched.refused(lambda: waiting.submit(action))  # noqa: B023
        watched.refused(lambda: spectator.submit(action))  # noqa: B023
        if not _is_legal(table, action):
            watched.refused(lambda: local.submit(action))  # noqa: B023
        try:
            sent = codec.loads(codec.dumps(action))  # what the other side of a wire would read
        except CodecError:
            sent = None
        if sent is None or not _is_legal(table, sent):
            watched.refused(lambda: wired.submit(action))  # noqa: B023
    legal = table.state.legal_actions()[0]
    watched.refused(lambda: waiting.submit(legal), NotYourTurnError)
    watched.refused(lambda: spectator.submit(legal))
    wired.submit(legal)
    assert table.actions[-1] == (mover, legal)


# ---------------------------------------------------------------------------------------------------------------
# The codec
# ---------------------------------------------------------------------------------------------------------------
def _codec_garbage() -> list[object]:
    out: list[object] = [*HOSTILE_ACTIONS, *HOSTILE_SEATS]
    for entry in ENTRIES:
        out.extend(game_action_garbage(entry))
    return out


def test_what_cannot_be_sent_is_a_codec_error() -> None:
    """Every hostile object is sent as JSON or refused with CodecError; what is sent is read back or refused so."""
    for value in _codec_garbage():
        try:
            text = codec.dumps(value)
        except CodecError:
            continue
        try:
            codec.loads(text)
        except CodecError:
            pass


def test_a_card_with_wrong_fields_is_not_sent() -> None:
    for card in FORGED_CARDS:
        with pytest.raises(CodecError):
            codec.encode(card)
        with pytest.raises(CodecError):
            codec.dumps((card,))


BAD_DATA: list[object] = [
    10**400,
    [10**400],
    {"game": "big2", "type": "Play", "cards": ["3D"] * 20},
    {"game": "big2", "type": "Play", "cards": "3D"},
    {"game": "big2", "type": "Play", "cards": [None]},
    {"game": "big2", "type": "Play", "cards": ["XX"]},
    {"game": "big2", "type": "Play", "cards": ["JK"]},
    {"game": "rank", "type": "Name", "rank": 0},
    {"game": "rank", "type": "Name", "rank": 99},
    {"game": "rank", "type": "Name", "rank": None},
    {"game": "rank", "type": "Play", "card": "XX"},
    {"game": "rank", "type": "Play", "card": 5},
    {"game": "trash", "type": "PlaceKing", "slot": 10**400},
    {"game": "trash", "type": "PlaceKing", "slot": 1.5},
    {"game": "trash", "type": "Draw", "source": None},
    {"game": "chase", "type": "ChaseAction", "value": None},
    {"game": "chase", "type": "ChaseAction", "value": [1]},
    {"game": "rank", "type": "RankPhase", "value": None},
    {"game": 1, "type": []},
    {"game": "table", "type": "Snapshot", "version": "x", "seat": "0", "view": None, "legal": [], "to_move": None},
    object(),
    Hostile(),
    b"x",
    {1: 2},
    {"a": object()},
    float("nan"),
    Nothing.NONE,
    TrickyText("x"),
]


@pytest.mark.parametrize("data", BAD_DATA, ids=_ids(BAD_DATA))
def test_bad_data_is_a_codec_error(data: object) -> None:
    try:
        value = codec.decode(data)
    except CodecError:
        return
    codec.encode(value)  # what is read must be sendable again


@pytest.mark.parametrize(
    "text",
    ["", "[", "9" * 5000, '{"game":"trash","type":"PlaceKing","slot":1e400}', b"\xff", "NaN", '{"a":', "[" * 10**5],
)
def test_text_that_is_not_a_message_is_a_codec_error(text: str | bytes) -> None:
    with pytest.raises(CodecError):
        codec.loads(text)


@pytest.mark.parametrize("seat", ["0", [0], 10**9, 1.0, True, -1])
def test_the_table_host_refuses_what_is_no_seat_with_a_seat_error(seat: Any) -> None:
    from engine.errors import SeatError
    from engine.play.table_host import TableHost
    from engine.table import Table

    host = TableHost(Table.create("screw", players=3, seed=4, bots=[None, "easy", "easy"]), autostart=False)
    before = host.table.state.version
    for edge in (host.snapshot, lambda s: host.submit(s, "stay"), host.hint):
        with pytest.raises(SeatError):
            edge(seat)
    assert host.table.state.version == before
    host.close()
