"""The codec (engine/codec.py): every registered class round-trips over self-play; tags never collide; malformed
data of any kind raises CodecError (a ParlourError) and nothing else."""

from __future__ import annotations

import dataclasses
import enum
import json
from typing import Any

import pytest
from game_helpers import walk
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import codec
from engine.cards import Card
from engine.errors import CodecError, ParlourError
from engine.events import Event
from engine.game import Scenario
from engine.games.big2.rules import PASS, Play, Played
from engine.games.chase.rules import ChaseAction, HandVoid
from engine.games.rank import rules as rank
from engine.games.trash.rules import StockShuffled
from engine.match import RoundOver
from engine.registry import GAMES, get_entry
from engine.session import Snapshot, TableInfo
from engine.table import Table

SETTINGS = [  # (registry key, players, bots, variants, deals, starting totals)
    ("screw", 4, ["easy", "medium"], (), None, (2, 2, 2, 2)),
    ("chase", 3, ["medium", "easy"], ("high-card-pays",), None, None),
    ("screw", 2, ["easy"], ("high-card-pays",), None, None),
    ("big2", 4, ["easy", "medium"], (), 2, None),
    ("big2", 3, ["easy"], ("pagat-scoring",), 1, None),
    ("big2", 2, ["easy"], ("no-play-after-pass",), 1, None),
    ("trash", 2, ["easy"], ("last-turn",), None, None),
    ("trash", 3, ["easy"], ("match", "last-turn"), None, (2, 2, 2)),
    ("trash", 4, ["easy"], (), None, None),
    ("rank", 2, ["easy"], (), 1, None),
]


def _round_trip(value: Any) -> None:
    assert codec.decode(codec.encode(value)) == value, value
    text = codec.dumps(value)
    assert codec.loads(text) == value, value
    assert json.loads(text) == codec.encode(value)  # plain JSON data
    assert "\n" not in text  # one line


def _self_play_values() -> list[Any]:
    """Every view, event (full and redacted), action, legal list, options, snapshot and table info of a few bot
    matches, at every step; each object once (a public event is its own form for every seat)."""
    values: list[Any] = []
    for key, players, levels, variants, deals, totals in SETTINGS:
        table = Table.create(
            key,
            players=players,
            seed=3,
            bots=[levels[s % len(levels)] for s in range(players)],
            variants=variants,
            deals=deals,
            scenario=Scenario(totals=totals) if totals else None,
        )
        state = table.state
        values.append(table.options)
        for step in range(2000):  # a two-player Rank deal between easy bots may run long (seed 3: 1,468 moves)
            if state.is_over:
                break
            if step % 4 == 0:
                for seat in [*range(players), None]:
                    values.append(state.view(seat))
                legal = tuple(state.legal_actions())
                values.append(legal)
                values.append(
                    Snapshot(
                        version=state.version,
                        seat=state.to_move,
                        view=state.view(state.to_move),
                        legal=legal,
                        to_move=state.to_move,
                        over=False,
                    )
                )
            seat, action = table.think()
            values.append(action)
            table.submit(seat, action)
        assert state.is_over, f"{key} {players} did not end"
        for event in state.history:
            values.append(event)
            values.extend(event.for_seat(s) for s in [*range(players), None])
    return list({id(v): v for v in values if v is not None}.values())


@pytest.fixture(scope="module")
def played() -> list[Any]:
    return _self_play_values()


def test_every_value_of_self_play_round_trips(played: list[Any]) -> None:
    for value in played:
        _round_trip(value)


def test_table_info_round_trips() -> None:
    """What a session is told of its table crosses the wire (CodecSession sends it first)."""
    table = Table.create("big2", players=4, seed=3, bots=["easy"] * 3)
    info = TableInfo(
        key="big2", options=table.options, names=table.names, bots=(None, "easy", "easy", "easy"), seed=3, seat=0
    )
    _round_trip(info)


def test_a_field_named_like_a_tag_key_is_refused_or_kept() -> None:
    """A registered class whose field is called ``game`` or ``type`` must not lose it to the tag (or be refused
    when it is registered)."""

    @dataclasses.dataclass(frozen=True)
    class Clash:
        game: str
        type: int

    try:
        codec.register("test-clash", Clash)
    except TypeError:
        return  # refused at registration: fine
    _round_trip(Clash(game="screw", type=3))


# Classes a short self-play may not meet; each is made by hand here (a new game adds its rare ones).
RARE: list[Any] = [
    HandVoid(would_pay=(0, 1)),
    StockShuffled(cards=30),  # random play seldom empties a Trash stock
    rank.JokerReturned(),  # a joker turned up as the starter: 2 deals in 54
    (rank.Pass(),),  # declining a Joker's follow-up, or nothing to play nor to draw
    rank.Passed(seat=1),
]


def test_every_registered_class_is_covered(played: list[Any]) -> None:
    seen = {type(v) for value in played for v in walk(value)}
    for value in RARE:
        _round_trip(value)
        seen.update(type(v) for v in walk(value))
    registered = {cls for (game, _), cls in codec._BY_TAG.items() if game in {g.key for g in GAMES} | {"match"}}
    missing = sorted(cls.__name__ for cls in registered - seen)
    assert not missing, f"registered but never round-tripped: {missing} (play more, or add a sample to RARE)"


def test_every_game_registers_its_view_and_options() -> None:
    for game in GAMES:
        assert codec.tag_of(game.view_type) == (game.key, game.view_type.__name__)
        options = game.options()
        assert codec.tag_of(type(options))[0] == game.key
        for cls in game.codec_types():
            assert codec.tag_of(cls) == (game.key, cls.__name__)


def test_the_form_of_the_json() -> None:
    """Cards as text, tagged events, enums by value where the field names the type, sets sorted, no masks."""
    played = Played(seat=2, cards=(Card.parse("10H"), Card.parse("JS")), kind="pair", left=3)
    data = codec.encode(played)
    assert data == {
        "game": "big2",
        "type": "Played",
        "audience": None,
        "seat": 2,
        "cards": ["10H", "JS"],
        "kind": "pair",
        "left": 3,
    }
    assert codec.encode(ChaseAction.TRADE) == {"game": "chase", "type": "ChaseAction", "value": "trade"}
    event = RoundOver(round=1, winners=(0,), deltas=(1, -1), totals=(1, -1), last=False, audience=frozenset({3, 1}))
    assert codec.encode(event)["audience"] == [1, 3]
    assert codec.encode({Card.parse("KS"), Card.parse("2C"), Card.parse("10D")}) == ["10D", "2C", "KS"]
    assert codec.decode(codec.encode(PASS)) == PASS


# ---------------------------------------------------------------------------------------------------------------
# Tags
# ---------------------------------------------------------------------------------------------------------------
def _twin_classes() -> tuple[type, type]:
    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Played(Event):
        seat: int

    first = Played

    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Played(Event):  # type: ignore[no-redef]
        seat: int
        card: Card

    return first, Played


def test_two_games_with_the_same_class_name_do_not_collide() -> None:
    one, two = _twin_classes()
    codec.register("test-one", one)
    codec.register("test-two", two)
    a, b = one(seat=1), two(seat=1, card=Card.parse("AS"))
    assert codec.encode(a)["game"] == "test-one" and codec.encode(b)["game"] == "test-two"
    assert type(codec.decode(codec.encode(a))) is one
    assert type(codec.decode(codec.encode(b))) is two
    assert codec.decode(codec.encode(a)) == a and codec.decode(codec.encode(b)) == b
    # And Big Two's own Played is still Big Two's.
    real = Played(seat=0, cards=(Card.parse("3D"),), kind="single", left=12)
    assert codec.decode(codec.encode(real)) == real
    # One tag, two classes: refused.
    with pytest.raises(TypeError):
        codec.register("test-one", two)
    codec.register("test-one", one)  # the same class again is fine


def test_real_games_share_no_tag() -> None:
    tags = [(g.key, cls.__name__) for g in GAMES for cls in g.codec_types()]
    assert len(tags) == len(set(tags))


def test_an_unregistered_class_is_refused() -> None:
    @dataclasses.dataclass(frozen=True)
    class Stranger:
        x: int

    with pytest.raises(CodecError):
        codec.encode(Stranger(1))
    with pytest.raises(CodecError):
        codec.encode(object())


# ---------------------------------------------------------------------------------------------------------------
# Malformed data
# ---------------------------------------------------------------------------------------------------------------
def _deep(depth: int) -> Any:
    data: Any = 0
    for _ in range(depth):
        data = [data]
    return data


def _deep_dict(depth: int) -> Any:
    data: Any = {"game": "match", "type": "MatchOver", "winners": [0], "totals": [0]}
    for _ in range(depth):
        data = {"x": data}
    return data


MEGA = "x" * 1_000_000
PLAYED = {"game": "big2", "type": "Played", "audience": None, "seat": 0, "cards": ["3D"], "kind": "single", "left": 1}

MALFORMED: list[tuple[str, Any]] = [
    ("unknown type", {"game": "big2", "type": "Nope"}),
    ("unknown game", {"game": "nope", "type": "Played"}),
    ("type not text", {"game": "big2", "type": 5}),
    ("game missing", {"type": "Played", "game": None}),
    ("missing field", {"game": "big2", "type": "Played", "seat": 0}),
    ("wrong type: text for int", {**PLAYED, "seat": "zero"}),
    ("wrong type: bool for int", {**PLAYED, "left": True}),
    ("wrong type: float for int", {**PLAYED, "left": 1.5}),
    ("wrong type: text for tuple", {**PLAYED, "cards": "3D"}),
    ("a list where a card is expected", {**PLAYED, "cards": [["3D"]]}),
    ("a number where a card is expected", {**PLAYED, "cards": [5]}),
    ("null where a card is expected", {**PLAYED, "cards": [None]}),
    ("not a card", {**PLAYED, "cards": ["ZZ"]}),
    ("an object where a card is expected", {**PLAYED, "cards": [{"game": "big2", "type": "PassTurn"}]}),
    ("an event where a number is expected", {**PLAYED, "seat": PLAYED}),
    ("audience of text", {**PLAYED, "audience": ["a"]}),
    ("audience not a list", {**PLAYED, "audience": 3}),
    ("dict for a tuple", {"game": "match", "type": "MatchOver", "winners": {}, "totals": [0]}),
    ("wrong tuple length", {"game": "chase", "type": "Revealed", "cards": [[0, "3D", 1]]}),
    ("enum value unknown", {"game": "chase", "type": "ChaseAction", "value": "fly"}),
    ("enum value missing", {"game": "chase", "type": "ChaseAction"}),
    (
        "enum field bad",
        {"game": "chase", "type": "Paid", "seat": 0, "amount": 1, "card": "3D", "reason": "fun", "lives_left": 0},
    ),
    ("bad options", {"game": "big2", "type": "Big2Options", "suits": "moon"}),
    ("deep list", _deep(100_000)),
    ("deep objects", _deep_dict(100_000)),
    ("1 MB type", {"game": "big2", "type": MEGA}),
    ("1 MB game", {"game": MEGA, "type": "Played"}),
    ("1 MB card", {**PLAYED, "cards": [MEGA]}),
    ("1 MB kind of int", {**PLAYED, "seat": MEGA}),
    ("a Python object", object()),
    ("bytes", b"pass"),
    ("a set", {1, 2}),
    ("huge number for a float-less int field", {**PLAYED, "seat": 1e308 * 10}),
]


@pytest.mark.parametrize("data", [d for _, d in MALFORMED], ids=[name for name, _ in MALFORMED])
def test_malformed_data_raises_codec_error(data: Any) -> None:
    with pytest.raises(CodecError) as caught:
        codec.decode(data)
    assert isinstance(caught.value, ParlourError)
    assert len(str(caught.value)) <= 500


NOT_JSON: list[Any] = [
    "",
    "{",
    "{'game': 'big2'}",
    "undefined",
    "[1, 2",
    b"\xff\xfe\x00",
    "\x00",
    "[" * 100_000 + "]" * 100_000,
    '{"a":' * 50_000 + "1" + "}" * 50_000,
    '"' + MEGA,
    MEGA,
    "9" * 5000,
    None,
    5,
]


@pytest.mark.parametrize("text", NOT_JSON, ids=range(len(NOT_JSON)))
def test_loads_refuses_what_is_not_json(text: Any) -> None:
    with pytest.raises(CodecError) as caught:
        codec.loads(text)
    assert len(str(caught.value)) <= 500


def _self_containing() -> list[Any]:
    loop: list[Any] = []
    loop.append(loop)
    return loop


UNENCODABLE: list[tuple[str, Any]] = [
    ("a list that contains itself", _self_containing()),
    ("an int too long for text", 10**5000),
    ("not a number", float("nan")),
    ("infinity", float("inf")),
    ("bytes", b"pass"),
    ("an object", object()),
    ("an unregistered class", ValueError("x")),
]


@pytest.mark.parametrize("value", [v for _, v in UNENCODABLE], ids=[name for name, _ in UNENCODABLE])
def test_what_cannot_be_sent_raises_codec_error(value: Any) -> None:
    """A session sends whatever a caller submits through dumps(): garbage must come back as a CodecError (a
    ParlourError), never another exception, and never as text that is not JSON (``NaN`` is not)."""
    with pytest.raises(CodecError):
        codec.dumps(value)


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", '{"x": NaN}'])
def test_loads_refuses_what_strict_json_refuses(text: str) -> None:
    """Only JSON crosses the wire: Python's extensions (NaN, Infinity) are refused."""
    with pytest.raises(CodecError):
        codec.loads(text)


def test_loads_reads_a_line_and_refuses_a_deep_one() -> None:
    assert codec.loads(codec.dumps(PASS)) == PASS
    assert codec.loads(codec.dumps(PASS).encode()) == PASS
    assert codec.decode_as(codec.encode(PASS), type(PASS)) == PASS
    with pytest.raises(CodecError):
        codec.decode_as(codec.encode(PASS), Play)


def test_decode_as_checks_the_class() -> None:
    data = codec.encode(Played(seat=0, cards=(Card.parse("3D"),), kind="single", left=12))
    with pytest.raises(CodecError):
        codec.decode_as(data, RoundOver)


# ---------------------------------------------------------------------------------------------------------------
# Fuzz
# ---------------------------------------------------------------------------------------------------------------
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=30,
)


def _tags() -> list[tuple[str, str]]:
    get_entry("big2")  # every game loaded
    return sorted(codec._BY_TAG)


def _samples() -> list[dict[str, Any]]:
    """Real encoded objects of every game, to mutate."""
    out: list[dict[str, Any]] = []
    for game in GAMES:
        table = Table.create(game.key, players=game.min_players, seed=2, bots=["easy"] * game.min_players)
        for _ in range(8):
            if table.state.is_over:
                break
            table.step_bot()
        out.append(codec.encode(table.state.view(0)))
        out.append(codec.encode(table.options))
        out.extend(codec.encode(e) for e in table.state.history)
        out.extend(codec.encode(a) for a in table.state.legal_actions())
    return [d for d in out if isinstance(d, dict)]


SAMPLES = _samples()


def _decode_only_codec_errors(data: Any) -> None:
    try:
        value = codec.decode(data)
    except CodecError as err:
        assert len(str(err)) <= 500
        return
    # What decodes must encode again (or be refused as a CodecError).
    try:
        codec.encode(value)
    except CodecError:
        pass


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON)
def test_fuzz_arbitrary_json(data: Any) -> None:
    _decode_only_codec_errors(data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_tags()), st.dictionaries(st.text(max_size=12), JSON, max_size=6))
def test_fuzz_tagged_objects(tag: tuple[str, str], fields: dict[str, Any]) -> None:
    _decode_only_codec_errors({**fields, "game": tag[0], "type": tag[1]})


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SAMPLES), st.data())
def test_fuzz_mutated_real_objects(sample: dict[str, Any], data: st.DataObject) -> None:
    """A real event, view or action with one field (at any depth) replaced by arbitrary JSON."""
    mutated = json.loads(json.dumps(sample))
    node: Any = mutated
    for _ in range(data.draw(st.integers(0, 3))):
        children = list(node.items()) if isinstance(node, dict) else list(enumerate(node))
        children = [(k, v) for k, v in children if isinstance(v, dict | list) and v]
        if not children:
            break
        key, node = data.draw(st.sampled_from(children))
    keys = list(node) if isinstance(node, dict) else list(range(len(node)))
    if keys:
        key = data.draw(st.sampled_from(keys))
        node[key] = data.draw(JSON)
    _decode_only_codec_errors(mutated)


def test_enums_without_a_known_field_are_tagged() -> None:
    for game in GAMES:
        for cls in game.codec_types():
            if isinstance(cls, type) and issubclass(cls, enum.Enum):
                for member in cls:
                    data = codec.encode(member)
                    assert data == {"game": game.key, "type": cls.__name__, "value": member.value}
                    assert codec.decode(data) is member
