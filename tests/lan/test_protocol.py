"""The protocol's messages: every line is read into a typed message or refused with a ProtocolError and a stable
code — never any other exception, whatever the bytes (a fuzz of 10,000+ hostile lines, seeded, plus hypothesis)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import ERRORS
from engine.lan import protocol as p


def parse(data: Any) -> p.Message:
    return p.parse_line(json.dumps(data))


def refused(raw: bytes | str, code: str) -> p.ProtocolError:
    with pytest.raises(p.ProtocolError) as caught:
        p.parse_line(raw)
    assert caught.value.code == code, caught.value
    assert caught.value.code in p.CODES
    assert 0 < len(str(caught.value)) <= 300
    return caught.value


# ---------------------------------------------------------------------------------------------------------------
# Well-formed messages
# ---------------------------------------------------------------------------------------------------------------
EXAMPLES: list[tuple[dict[str, Any], p.Message]] = [
    ({"type": "hello", "protocol": 1, "name": "Ann"}, p.Hello(1, "Ann")),
    (
        {"type": "hello", "protocol": 1, "name": "Ann", "password": "pw", "token": "abc"},
        p.Hello(1, "Ann", "pw", "abc"),
    ),
    ({"type": "ping"}, p.Ping()),
    ({"type": "pong"}, p.Pong()),
    ({"type": "list"}, p.ListTables()),
    (
        {"type": "create", "game": "big2", "players": 4, "bots": [None, "easy"], "variants": ["x"], "level": "hard"},
        p.Create("big2", 4, None, ("x",), (None, "easy"), 0, "hard"),
    ),
    ({"type": "create", "game": "screw", "players": 3, "seat": None}, p.Create("screw", 3, seat=None)),
    ({"type": "sit", "table": "bcdf", "seat": 2}, p.Sit("BCDF", 2)),
    ({"type": "spectate", "table": "BCDF"}, p.Spectate("BCDF")),
    ({"type": "stand"}, p.Stand()),
    ({"type": "leave"}, p.Leave()),
    ({"type": "fill", "level": "easy"}, p.Fill("easy")),
    ({"type": "ready"}, p.Ready()),
    ({"type": "start"}, p.Start()),
    ({"type": "chat", "text": "[b]hi[/b]"}, p.Chat("[b]hi[/b]")),
    ({"type": "act", "action": "3D"}, p.Act("3D")),
    (
        {"type": "act", "action": {"game": "big2", "type": "PassTurn"}, "version": 7},
        p.Act({"game": "big2", "type": "PassTurn"}, 7),
    ),
    ({"type": "snapshot"}, p.Look()),
    ({"type": "hint"}, p.Hint()),
    ({"type": "next"}, p.Next()),
    ({"type": "bye"}, p.Bye()),
    (
        {"type": "hello", "protocol": 1, "max_protocol": 2, "name": "Ann", "token": "abc", "seen": 12},
        p.Hello(1, "Ann", token="abc", max_protocol=2, seen=12),
    ),
    (
        {"type": "hello", "protocol": 1, "max_protocol": 2, "name": "Ann", "ask": True},
        p.Hello(1, "Ann", max_protocol=2, ask=True),
    ),
    ({"type": "let_in", "request": "r1", "allow": False}, p.LetIn("r1", False)),
]


@pytest.mark.parametrize(("data", "message"), EXAMPLES, ids=[d["type"] for d, _ in EXAMPLES])
def test_each_message_reads_and_writes_back(data: dict[str, Any], message: p.Message) -> None:
    assert parse(data) == message
    assert p.parse_line(json.dumps(data).encode("utf-8") + b"\n") == message  # bytes with the newline
    assert p.parse_line(p.line(message)) == message  # the client's side writes what the host reads


def test_every_client_message_has_an_example() -> None:
    assert {d["type"] for d, _ in EXAMPLES} == set(p.CLIENT_MESSAGES)


def test_unknown_fields_are_ignored_for_later_versions() -> None:
    assert parse({"type": "ping", "extra": [1, 2]}) == p.Ping()


def test_line_is_one_utf8_json_object_per_line() -> None:
    out = p.line({"type": "chat", "text": "déjà vu\nnext"})
    assert out.endswith(b"\n") and out.count(b"\n") == 1
    assert json.loads(out) == {"type": "chat", "text": "déjà vu\nnext"}
    with pytest.raises(ValueError):
        p.line({"no": "type"})


# ---------------------------------------------------------------------------------------------------------------
# Each refusal and its code
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b"\xff\xfe{}", p.BAD_ENCODING),
        ("{not json", p.BAD_JSON),
        ("", p.BAD_JSON),
        ('{"type": "ping", "x": NaN}', p.BAD_JSON),
        ("[1, 2]", p.NOT_OBJECT),
        ('"hello"', p.NOT_OBJECT),
        ("null", p.NOT_OBJECT),
        ("{}", p.UNKNOWN_TYPE),
        ('{"type": "launch"}', p.UNKNOWN_TYPE),
        ('{"type": 5}', p.UNKNOWN_TYPE),
        ('{"type": ["ping"]}', p.UNKNOWN_TYPE),
        ('{"type": "hello", "name": "Ann"}', p.BAD_FIELD),
        ('{"type": "hello", "protocol": "1", "name": "Ann"}', p.BAD_FIELD),
        ('{"type": "hello", "protocol": true, "name": "Ann"}', p.BAD_FIELD),
        ('{"type": "hello", "protocol": 1, "name": 7}', p.BAD_FIELD),
        ('{"type": "hello", "protocol": 1, "name": "A", "token": ""}', p.BAD_FIELD),
        ('{"type": "create", "game": "big2", "players": -1}', p.BAD_FIELD),
        ('{"type": "create", "game": "big2", "players": 1e400}', p.BAD_JSON),
        ('{"type": "create", "game": "big2", "players": ' + "9" * 400 + "}", p.BAD_JSON),
        ('{"type": "create", "game": "big2", "players": 4.0}', p.BAD_FIELD),
        ('{"type": "create", "game": "big2", "players": 4, "bots": "easy"}', p.BAD_FIELD),
        ('{"type": "create", "game": "big2", "players": 4, "bots": [1]}', p.BAD_FIELD),
        ('{"type": "create", "game": "", "players": 4}', p.BAD_FIELD),
        ('{"type": "sit", "table": "AB CD", "seat": 1}', p.BAD_FIELD),
        ('{"type": "sit", "table": "ABCD", "seat": -1}', p.BAD_FIELD),
        ('{"type": "sit", "table": "ABCD", "seat": 99999999999999999999}', p.BAD_FIELD),
        ('{"type": "chat", "text": ""}', p.BAD_FIELD),
        ('{"type": "chat", "text": "a\\u0007b"}', p.BAD_FIELD),
        ('{"type": "chat", "text": "' + "x" * 501 + '"}', p.BAD_FIELD),
        ('{"type": "act"}', p.BAD_FIELD),
        ('{"type": "act", "action": 5}', p.BAD_FIELD),
        ('{"type": "act", "action": ""}', p.BAD_FIELD),
        ('{"type": "act", "action": ["3D"]}', p.BAD_FIELD),
        ("x" * (p.MAX_LINE + 10), p.LINE_TOO_LONG),
    ],
)
def test_each_refusal_has_its_code(raw: bytes | str, code: str) -> None:
    refused(raw, code)


def test_deep_nesting_is_refused_not_a_crash() -> None:
    refused("[" * 50_000 + "]" * 50_000, p.LINE_TOO_LONG)
    refused('{"type": "act", "action": ' + "[" * 10_000 + "]" * 10_000 + "}", p.BAD_JSON)
    refused('{"type": "act", "action": {"a": 1e400}}', p.BAD_JSON)
    refused("[" * 30_000, p.BAD_JSON)


@pytest.mark.parametrize(
    ("name", "ok"),
    [("Ann", "Ann"), ("  Bo  ", "Bo"), ("x" * 24, "x" * 24), ("[b]x[/b]", "[b]x[/b]"), ("👩‍👩‍👧", "👩‍👩‍👧")],
)
def test_names(name: str, ok: str) -> None:
    assert p.player_name(name) == ok


@pytest.mark.parametrize("name", ["", "   ", "x" * 25, "a\nb", "a\x1bb", "a\u202eb", 5, None])
def test_bad_names(name: Any) -> None:
    with pytest.raises(p.ProtocolError) as caught:
        p.player_name(name)
    assert caught.value.code == p.BAD_NAME


def test_every_code_is_documented_and_the_engines_codes_are_listed() -> None:
    assert {cls.code for cls in ERRORS} <= set(p.CODES)
    text = (__import__("pathlib").Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text("utf-8")
    for code in p.CODES:
        assert f"`{code}`" in text, f"docs/protocol.md does not explain the code {code}"
    for kind in [*p.CLIENT_MESSAGES, *p.HOST_MESSAGES]:
        assert f"| `{kind}` |" in text, f"docs/protocol.md has no row for the message {kind}"


# ---------------------------------------------------------------------------------------------------------------
# Fuzz: nothing but ProtocolError, whatever the line
# ---------------------------------------------------------------------------------------------------------------
def _json_value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 3 or roll < 0.45:
        return rng.choice(
            [None, True, False, 0, -1, 1, 2**70, 1.5, -0.0, 1e308, "", "x", "3D", "ABCD", "é" * 30, "\u0000", "hello"]
        )
    if roll < 0.7:
        return [_json_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["type", "protocol", "name", "password", "token", "game", "players", "bots", "seat", "table", "text"]
    keys += ["action", "version", "level", "variants", "preset", "junk"]
    return {rng.choice(keys): _json_value(rng, depth + 1) for _ in range(rng.randrange(5))}


def hostile_lines(count: int, seed: int) -> list[bytes]:
    """Malformed and hostile lines: mutated messages, random JSON, random bytes, odd encodings and sizes."""
    rng = random.Random(seed)
    valid = [json.dumps(d).encode() for d, _ in EXAMPLES]
    types = list(p.CLIENT_MESSAGES)
    out: list[bytes] = []
    for _ in range(count):
        kind = rng.randrange(8)
        if kind == 0:  # a valid message with bytes flipped, cut or inserted
            data = bytearray(rng.choice(valid))
            for _ in range(rng.randrange(1, 4)):
                at = rng.randrange(len(data))
                op = rng.randrange(3)
                if op == 0:
                    data[at] = rng.randrange(256)
                elif op == 1:
                    del data[at:]
                    if not data:
                        data = bytearray(b"{")
                else:
                    data[at:at] = bytes([rng.randrange(256)])
            out.append(bytes(data).replace(b"\n", b" "))
        elif kind == 1:  # a known type with random fields
            obj = _json_value(rng)
            obj = obj if isinstance(obj, dict) else {}
            obj["type"] = rng.choice(types)
            out.append(json.dumps(obj).encode())
        elif kind == 2:  # random JSON of any kind
            out.append(json.dumps(_json_value(rng)).encode())
        elif kind == 3:  # random bytes
            out.append(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60))).replace(b"\n", b" "))
        elif kind == 4:  # a type of the wrong kind or case
            out.append(json.dumps({"type": rng.choice([*types, "HELLO", "Ping", " ping", None, 1])}).encode())
        elif kind == 5:  # big numbers, deep nesting, long text
            out.append(
                rng.choice(
                    [
                        b'{"type":"sit","table":"ABCD","seat":' + b"9" * rng.randrange(1, 5000) + b"}",
                        b'{"type":"act","action":' + b"[" * 3000 + b"]" * 3000 + b"}",
                        b'{"type":"chat","text":"' + b"a" * rng.randrange(400, 3000) + b'"}',
                        b'{"type":"hello","protocol":1e400,"name":"x"}',
                        b'{"type":"ping"' + b',"a":1' * rng.randrange(1, 500) + b"}",
                    ]
                )
            )
        elif kind == 6:  # other encodings of a valid line
            text = rng.choice(valid).decode()
            out.append(text.encode(rng.choice(["utf-16", "utf-32", "latin-1"])).replace(b"\n", b" "))
        else:  # duplicated keys, a BOM, surrogates
            out.append(
                rng.choice(
                    [
                        b'{"type":"ping","type":"launch"}',
                        b'\xef\xbb\xbf{"type":"ping"}',
                        b'{"type":"chat","text":"\\ud800"}',
                        b'{"type":"hello","protocol":1,"name":"\\ud83d"}',
                        b'{"type":"act","action":"\\u0000"}',
                    ]
                )
            )
    return out


def test_ten_thousand_hostile_lines_only_ever_give_protocol_errors() -> None:
    lines = hostile_lines(12_000, seed=2026)
    codes: set[str] = set()
    accepted = 0
    for raw in lines:
        try:
            message = p.parse_line(raw)
        except p.ProtocolError as err:
            assert err.code in p.CODES
            codes.add(err.code)
        else:
            assert isinstance(message, p.Message)
            accepted += 1
    # The fuzz reaches every way a line can be wrong (and a few mutations stay valid).
    assert {p.BAD_ENCODING, p.BAD_JSON, p.NOT_OBJECT, p.UNKNOWN_TYPE, p.BAD_FIELD} <= codes
    assert accepted < len(lines) // 2


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes(raw: bytes) -> None:
    try:
        p.parse_line(raw)
    except p.ProtocolError as err:
        assert err.code in p.CODES


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # (cores busy)
@given(
    st.sampled_from(sorted(p.CLIENT_MESSAGES)),
    st.dictionaries(
        st.sampled_from(
            [
                "protocol",
                "name",
                "password",
                "token",
                "game",
                "players",
                "bots",
                "seat",
                "table",
                "text",
                "action",
                "version",
                "level",
                "variants",
                "preset",
            ]
        ),
        json_values,
        max_size=6,
    ),
)
def test_any_fields_of_any_message(kind: str, fields: dict[str, Any]) -> None:
    try:
        message = parse({**fields, "type": kind})
    except p.ProtocolError as err:
        assert err.code in p.CODES
    else:
        assert message.TYPE == kind
        assert p.parse_line(p.line(message)) == message
