"""The LAN protocol: newline-delimited JSON over TCP, one object per line, each with a ``type``.

Every line a client sends is read by :func:`parse_line` into one typed message (a frozen dataclass) before anything
touches a table. Whatever the line is — bytes that are no UTF-8, no JSON, JSON that is no object, an unknown type,
a missing or mistyped field — the only exception it can raise is :class:`ProtocolError`, which carries a stable
``code`` that the host sends back. The host's own messages are made with :func:`line` (one ``\\n``-ended line of
UTF-8). ``docs/protocol.md`` is the spec for people writing a client in another language.

>>> parse_line(b'{"type": "hello", "protocol": 1, "name": "Ann"}')
Hello(protocol=1, name='Ann', password=None, token=None, max_protocol=None, seen=None, ask=None)
>>> try:
...     parse_line('{"type": "sit", "table": "ABCD"}')
... except ProtocolError as err:
...     print(err.code, "-", err)
bad_field - sit needs the field 'seat'
>>> line({"type": "pong"})
b'{"type":"pong"}\\n'
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from engine.errors import ParlourError, echo
from engine.names import is_control, name_problem

PROTOCOL = 2
"""The newest protocol version this host and client speak (a ``hello`` names the range it speaks)."""
OLDEST_PROTOCOL = 1
"""The oldest version still served: a version 1 client is answered as version 1 describes."""
MAX_LINE = 64 * 1024
"""The longest line (in bytes, without its newline) a host reads; a longer one ends the connection."""
HOST_LINE = 4 * 1024 * 1024
"""The longest line a host sends, and so the longest a client reads: the bound on what a host queues for one
connection (a ``tables`` answer grows with the tables, about 0.7 KiB for a table of ten seats)."""
MAX_ERRORS = 20
"""This many rejected lines in a row end the connection (with an ``error`` first)."""
TEXT_LIMIT = 500
"""The longest chat message, in characters."""
SHORT_LIMIT = 64
"""The longest game key, preset, variant, level, password or token."""
MAX_VARIANTS = 16
MAX_SEATS = 16
MAX_CLOCK = 3600
"""The longest turn clock a table may have, in seconds (an hour: longer is no clock at all)."""

# -- the stable error codes of the protocol (the engine's own codes, engine.errors, are used as they are) --------
BAD_ENCODING = "bad_encoding"
BAD_JSON = "bad_json"
NOT_OBJECT = "not_object"
UNKNOWN_TYPE = "unknown_type"
BAD_FIELD = "bad_field"
LINE_TOO_LONG = "line_too_long"
TOO_MANY_ERRORS = "too_many_errors"
PROTOCOL_VERSION = "protocol_version"
BAD_PASSWORD = "bad_password"
BAD_NAME = "bad_name"
NAME_TAKEN = "name_taken"
BAD_TOKEN = "bad_token"
HELLO_FIRST = "hello_first"
UNKNOWN_TABLE = "unknown_table"
SEAT_TAKEN = "seat_taken"
NOT_AT_TABLE = "not_at_table"
ALREADY_AT_TABLE = "already_at_table"
NOT_CREATOR = "not_creator"
NOT_STARTED = "not_started"
ALREADY_STARTED = "already_started"
CANNOT_START = "cannot_start"
TIMEOUT = "timeout"
SHUTTING_DOWN = "shutting_down"
RESTARTING = "restarting"
HOST_FULL = "host_full"
STALE = "stale"
SLOW_DOWN = "slow_down"
TOO_MANY_TABLES = "too_many_tables"
REFUSED = "refused"
NO_HINTS = "no_hints"

CODES: dict[str, str] = {
    BAD_ENCODING: "the line is not UTF-8 text",
    BAD_JSON: "the line is not JSON",
    NOT_OBJECT: "the line is JSON but not an object",
    UNKNOWN_TYPE: "the object's type is missing or not a message of the protocol",
    BAD_FIELD: "a field is missing, of the wrong kind or out of range",
    LINE_TOO_LONG: "a line longer than 64 KiB (the connection ends)",
    TOO_MANY_ERRORS: "20 rejected lines in a row (the connection ends)",
    PROTOCOL_VERSION: "the hello names a protocol version this host does not speak (the connection ends)",
    BAD_PASSWORD: "a wrong or missing password (the connection ends)",
    BAD_NAME: "a name that is empty, too long or holds control characters (the connection ends)",
    NAME_TAKEN: "someone at this host already has that name (the connection ends)",
    BAD_TOKEN: "a resume token this host does not know, or whose time ran out (the connection ends)",
    HELLO_FIRST: "a message before the hello, or a second hello",
    UNKNOWN_TABLE: "no table has that code",
    SEAT_TAKEN: "that seat is not free",
    NOT_AT_TABLE: "the message needs a table and you are not at one (or not seated)",
    ALREADY_AT_TABLE: "leave your table first",
    NOT_CREATOR: "only the table's creator may do that",
    NOT_STARTED: "the table's game has not started",
    ALREADY_STARTED: "the table's game has started",
    CANNOT_START: "a seat is still free, or a player is not ready",
    TIMEOUT: "no hello in time, or a silent peer (the connection ends)",
    SHUTTING_DOWN: "the host is stopping (sent with bye)",
    RESTARTING: "the host is stopping and will offer its tables again (sent with bye): come back with your token",
    HOST_FULL: "the host has as many connections as it takes (the connection ends)",
    STALE: "an action answering an older snapshot: the table has moved on (version 2; version 1: not_your_turn)",
    SLOW_DOWN: "too many failed tries from your address: wait before trying again (the connection ends)",
    TOO_MANY_TABLES: "you (or your address) made as many tables as the host allows for now",
    REFUSED: "the table did not let you back into the seat, or nobody could be asked (the connection ends)",
    NO_HINTS: "a hint asked at a table made without hints (its creator did not allow them), or by a spectator",
    # The engine's codes (engine.errors), for actions and table settings:
    "invalid": "the action's text could not be read (bad card text...), or the object is no action of this game",
    "illegal": "a well-formed action that the rules do not allow now",
    "not_your_turn": "an action when it is not your seat's turn",
    "game_over": "an action after the match has ended",
    "bad_seat": "a seat number that is not a seat at this table",
    "unknown_game": "no game has that key",
    "bad_option": "a bad number of players, preset, variant or bot level",
    "bad_data": "an action object that does not decode (the codec's form)",
    "error": "any other refusal",
}
"""Every code an ``error`` message may carry, with what it means."""


class ProtocolError(ParlourError):
    """A line or a request the host refuses: ``code`` (stable, for programs) and a short message (for people)."""

    def __init__(self, code: str, message: str, reply_to: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reply_to = reply_to
        """The ``type`` of the message refused, when it could be read."""

    @classmethod
    def of(cls, err: ParlourError) -> ProtocolError:
        """The engine's refusal as the protocol sends it (its code kept)."""
        return cls(err.code, str(err))


# ---------------------------------------------------------------------------------------------------------------
# Field checks: each takes the raw JSON value and the field's name, returns the clean value or raises
# ---------------------------------------------------------------------------------------------------------------
Check = Callable[[Any, str], Any]


def _bad(name: str, what: str, value: Any) -> ProtocolError:
    return ProtocolError(BAD_FIELD, f"{name} must be {what}, not {echo(value, 60)}")


def whole(low: int, high: int | None = None) -> Check:
    """A whole number from ``low`` (to ``high``; None: any larger one, as the page says: a number too large for a
    double is refused as the line is read, ``bad_json``)."""

    def check(value: Any, name: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
            raise _bad(name, f"a whole number from {low}" + ("" if high is None else f" to {high}"), value)
        return value

    return check


def text(limit: int, *, empty: bool = False) -> Check:
    def check(value: Any, name: str) -> str:
        if not isinstance(value, str) or len(value) > limit or (not empty and not value):
            raise _bad(name, f"text of {0 if empty else 1} to {limit} characters", value)
        return value

    return check


def seconds(high: float) -> Check:
    """A time in seconds: a JSON number above 0 and at most ``high`` (as a float; a bool is no number)."""

    def check(value: Any, name: str) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= high:
            raise _bad(name, f"a number of seconds above 0 and at most {high:g}", value)
        return float(value)

    return check


def boolean(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise _bad(name, "true or false", value)
    return value


def optional(inner: Check) -> Check:
    def check(value: Any, name: str) -> Any:
        return None if value is None else inner(value, name)

    return check


def listed(inner: Check, limit: int) -> Check:
    def check(value: Any, name: str) -> tuple[Any, ...]:
        if not isinstance(value, list) or len(value) > limit:
            raise _bad(name, f"a list of at most {limit} items", value)
        return tuple(inner(item, f"{name}[{index}]") for index, item in enumerate(value))

    return check


def table_code(value: Any, name: str) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= 8 or not value.isascii() or not value.isalnum():
        raise _bad(name, "a table code (letters)", value)
    return value.upper()


def action(value: Any, name: str) -> Any:
    """An action: its text (``"3D"``, ``"pass"``) or its object in the codec's form (checked by the table)."""
    if isinstance(value, str):
        if not 1 <= len(value) <= 200:
            raise _bad(name, "an action's text (1 to 200 characters) or object", value)
        return value
    if isinstance(value, dict):
        return value
    raise _bad(name, "an action's text or object", value)


def player_name(value: Any) -> str:
    """A name: 1 to 24 characters once trimmed, no control characters. ProtocolError(bad_name) otherwise."""
    if not isinstance(value, str):
        raise ProtocolError(BAD_NAME, f"a name is text, not {echo(value, 60)}")
    problem = name_problem(value)
    if problem is not None:
        raise ProtocolError(BAD_NAME, problem)
    return value.strip()


def chat_text(value: Any, name: str) -> str:
    clean = text(TEXT_LIMIT)(value, name)
    if any(is_control(c) for c in clean) or not clean.strip():
        raise _bad(name, f"plain text of 1 to {TEXT_LIMIT} characters without control characters", value)
    return str(clean)


def _name_field(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise _bad(name, "text", value)
    return value  # checked as a name by the host (an empty one too), which answers bad_name and closes


# ---------------------------------------------------------------------------------------------------------------
# The messages a client sends
# ---------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Message:
    TYPE: ClassVar[str] = ""
    CHECKS: ClassVar[Mapping[str, Check]] = {}
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()


@dataclass(frozen=True)
class Hello(Message):
    TYPE: ClassVar[str] = "hello"
    CHECKS: ClassVar[Mapping[str, Check]] = {
        "protocol": whole(0),
        "name": _name_field,
        "password": optional(text(SHORT_LIMIT, empty=True)),
        "token": optional(text(SHORT_LIMIT)),
        "max_protocol": optional(whole(0)),
        "seen": optional(whole(0)),
        "ask": optional(boolean),
    }
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"password", "token", "max_protocol", "seen", "ask"})
    protocol: int
    """The oldest version the client speaks (the only one, without ``max_protocol``)."""
    name: str
    password: str | None = None
    token: str | None = None
    max_protocol: int | None = None
    """The newest version the client speaks (version 2): the host answers in the newest both speak."""
    seen: int | None = None
    """With ``token`` (version 2): how many events of the table's match the client has; only the rest is sent."""
    ask: bool | None = None
    """(Version 2) The name is of a player away from a seat in play and the client has no token: ask the table to
    let this connection back into that seat."""

    def speaks(self, oldest: int, newest: int) -> int | None:
        """The newest version both this client and a host speaking ``oldest``..``newest`` speak (None: none)."""
        high = min(newest, self.max_protocol if self.max_protocol is not None else self.protocol)
        return high if high >= max(oldest, self.protocol) else None


@dataclass(frozen=True)
class Ping(Message):
    TYPE: ClassVar[str] = "ping"


@dataclass(frozen=True)
class Pong(Message):
    TYPE: ClassVar[str] = "pong"


@dataclass(frozen=True)
class ListTables(Message):
    TYPE: ClassVar[str] = "list"


@dataclass(frozen=True)
class Create(Message):
    TYPE: ClassVar[str] = "create"
    CHECKS: ClassVar[Mapping[str, Check]] = {
        "game": text(SHORT_LIMIT),
        "players": whole(0),  # how many the game allows is the game's to say (bad_option)
        "preset": optional(text(SHORT_LIMIT)),
        "variants": listed(text(SHORT_LIMIT), MAX_VARIANTS),
        "bots": listed(optional(text(SHORT_LIMIT)), MAX_SEATS),
        "seat": optional(whole(0, MAX_SEATS - 1)),
        "level": optional(text(SHORT_LIMIT)),
        "clock": optional(seconds(MAX_CLOCK)),
        "hints": boolean,
    }
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"preset", "variants", "bots", "seat", "level", "clock", "hints"})
    game: str
    players: int
    preset: str | None = None
    variants: tuple[str, ...] = ()
    bots: tuple[str | None, ...] = ()
    """Seat i's computer player level, or null for a person's seat (missing items: people)."""
    seat: int | None = 0
    """Where the creator sits (null: the creator only watches)."""
    level: str | None = None
    """The table's computer player level: the bot that plays an away seat (default: the game's weakest)."""
    clock: float | None = None
    """Seconds a person has for each move before a bot of ``level`` makes that one move for them (None: no clock,
    the table waits for as long as it takes)."""
    hints: bool = False
    """Whether the table's players may ask for hints (a spectator never may)."""


@dataclass(frozen=True)
class Sit(Message):
    TYPE: ClassVar[str] = "sit"
    CHECKS: ClassVar[Mapping[str, Check]] = {"table": table_code, "seat": whole(0, MAX_SEATS - 1)}
    table: str
    seat: int


@dataclass(frozen=True)
class Spectate(Message):
    TYPE: ClassVar[str] = "spectate"
    CHECKS: ClassVar[Mapping[str, Check]] = {"table": table_code}
    table: str


@dataclass(frozen=True)
class Stand(Message):
    TYPE: ClassVar[str] = "stand"


@dataclass(frozen=True)
class Leave(Message):
    TYPE: ClassVar[str] = "leave"


@dataclass(frozen=True)
class Fill(Message):
    TYPE: ClassVar[str] = "fill"
    CHECKS: ClassVar[Mapping[str, Check]] = {"level": text(SHORT_LIMIT)}
    level: str


@dataclass(frozen=True)
class Ready(Message):
    TYPE: ClassVar[str] = "ready"


@dataclass(frozen=True)
class Start(Message):
    TYPE: ClassVar[str] = "start"


@dataclass(frozen=True)
class Chat(Message):
    TYPE: ClassVar[str] = "chat"
    CHECKS: ClassVar[Mapping[str, Check]] = {"text": chat_text}
    text: str


@dataclass(frozen=True)
class Act(Message):
    TYPE: ClassVar[str] = "act"
    CHECKS: ClassVar[Mapping[str, Check]] = {"action": action, "version": optional(whole(0))}
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"version"})
    action: Any
    version: int | None = None
    """The snapshot's version the action answers (optional): an older one is refused as ``stale`` (version 1:
    ``not_your_turn``), one ahead of the table's as ``bad_field`` (version 2)."""


@dataclass(frozen=True)
class Look(Message):
    """Ask for your seat's snapshot now (a screen redraws from it after events)."""

    TYPE: ClassVar[str] = "snapshot"


@dataclass(frozen=True)
class Hint(Message):
    """Ask what the game's hint would play now for your seat."""

    TYPE: ClassVar[str] = "hint"


@dataclass(frozen=True)
class Next(Message):
    TYPE: ClassVar[str] = "next"


@dataclass(frozen=True)
class Bye(Message):
    TYPE: ClassVar[str] = "bye"


@dataclass(frozen=True)
class LetIn(Message):
    """(Version 2) The answer to an ``asking``: let the person who asks by name back into the seat, or not."""

    TYPE: ClassVar[str] = "let_in"
    CHECKS: ClassVar[Mapping[str, Check]] = {"request": text(SHORT_LIMIT), "allow": boolean}
    request: str
    allow: bool


CLIENT_MESSAGES: dict[str, type[Message]] = {
    cls.TYPE: cls
    for cls in (
        Hello,
        Ping,
        Pong,
        ListTables,
        Create,
        Sit,
        Spectate,
        Stand,
        Leave,
        Fill,
        Ready,
        Start,
        Chat,
        Act,
        Look,
        Hint,
        Next,
        Bye,
        LetIn,
    )
}


def decode_text(raw: bytes | str) -> str:
    if isinstance(raw, str):
        return raw
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError(BAD_ENCODING, "the line is not UTF-8 text") from None


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text_: str) -> float:
    value = float(text_)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text_[:20]} is too large")
    return value


_LARGEST_DIGITS = len(str(int(sys.float_info.max)))


def _whole(text_: str) -> int:
    """A JSON integer, refused (as a float would be) when it is too large for a double."""
    digits = len(text_) - text_.startswith("-")
    if digits > _LARGEST_DIGITS or abs(value := int(text_)) > sys.float_info.max:
        raise ValueError(f"{text_[:20]}... is too large")
    return value


def content_length(raw: bytes | str) -> int:
    """The length of a line without its ending (``\n``, or ``\r\n``): what :data:`MAX_LINE` limits."""
    end = 0
    if raw[-1:] in (b"\n", "\n"):
        end = 2 if raw[-2:] in (b"\r\n", "\r\n") else 1
    return len(raw) - end


def load_object(raw: bytes | str, limit: int = MAX_LINE) -> dict[str, Any]:
    """One line of at most ``limit`` bytes as a JSON object (its trailing newline allowed); ProtocolError for
    anything else."""
    if content_length(raw) > limit:
        raise ProtocolError(LINE_TOO_LONG, f"a line is at most {limit} bytes")
    text_ = decode_text(raw)
    try:
        data = json.loads(text_, parse_constant=_no_constants, parse_float=_finite, parse_int=_whole)
    except (ValueError, RecursionError):
        raise ProtocolError(BAD_JSON, f"the line is not JSON: {echo(text_, 80)}") from None
    if not isinstance(data, dict):
        raise ProtocolError(NOT_OBJECT, f"a line must be a JSON object, not {echo(data, 60)}")
    return data


def parse_line(raw: bytes | str) -> Message:
    """One client line as its typed message. Raises ProtocolError, and nothing else, for anything wrong."""
    data = load_object(raw)
    kind = data.get("type")
    cls = CLIENT_MESSAGES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ProtocolError(UNKNOWN_TYPE, f"unknown message type {echo(kind, 60)}")
    values: dict[str, Any] = {}
    try:
        for name, check in cls.CHECKS.items():
            if name not in data:
                if name in cls.OPTIONAL:
                    continue
                raise ProtocolError(BAD_FIELD, f"{cls.TYPE} needs the field {name!r}")
            values[name] = check(data[name], name)
    except ProtocolError as err:
        err.reply_to = cls.TYPE
        raise
    return cls(**values)


def to_data(message: Message) -> dict[str, Any]:
    """A client message as the JSON object it is sent as (the client's side of :func:`parse_line`)."""
    out: dict[str, Any] = {"type": message.TYPE}
    for f in fields(message):
        value = getattr(message, f.name)
        if f.name in message.OPTIONAL and value == f.default:
            continue
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def line(data: Mapping[str, Any] | Message) -> bytes:
    """One message as a line of UTF-8 JSON ending in a newline (a JSON object with a ``type``)."""
    obj = to_data(data) if isinstance(data, Message) else data
    if not isinstance(obj.get("type"), str):
        raise ValueError("a message needs a text 'type'")
    text_ = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    try:
        return (text_ + "\n").encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: JSON's own escapes carry it
        return (json.dumps(obj, separators=(",", ":"), allow_nan=False) + "\n").encode("ascii")


def error(code: str, message: str, reply_to: str | None = None) -> dict[str, Any]:
    """The host's ``error`` message."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if reply_to is not None:
        out["reply_to"] = reply_to
    return out


HOST_MESSAGES = frozenset(
    {
        "welcome",
        "error",
        "tables",
        "table",
        "left",
        "started",
        "snapshot",
        "hint",
        "event",
        "chat",
        "ping",
        "pong",
        "bye",
        # version 2
        "clock",
        "asking",
        "waiting",
    }
)
"""The ``type`` of every message a host sends."""


def parse_host_line(raw: bytes | str) -> dict[str, Any]:
    """A host's line (at most :data:`HOST_LINE` bytes) as a JSON object with a known ``type`` (for clients);
    ProtocolError otherwise."""
    data = load_object(raw, HOST_LINE)
    if data.get("type") not in HOST_MESSAGES:
        raise ProtocolError(UNKNOWN_TYPE, f"unknown message type {echo(data.get('type'), 60)}")
    return data
