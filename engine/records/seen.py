"""What one seat saw of a LAN match: kept as a replay of its own kind, stepped through, counted, and checked.

A client at a LAN host never learns the table's seed nor the cards it may not see, so it cannot keep a full replay
(:mod:`engine.records.replays`) that the engine plays again. It keeps what its seat was sent instead: the table's
information and every event as it came, redacted for the seat (a spectator: the public events), in the codec's form.
The file sits with the full replays (``data_dir()/replays/<date>-<game>-<table>-seat<N>.jsonl``, ``-watch`` for a
spectator), so ``parlour replays`` lists it and ``parlour replay`` shows it, event by event. Line 1 is its header,
then one line per event::

    {"format":"seen-1","seen":true,"game":"big2","names":["Ann","Ben"],"levels":[null,"easy"],"seat":0,
     "host":"Parlour","table":"NGQC","match":"3fa2...","result":{"winners":[1],"totals":[-6,6]},"events":212,...}
    {"event":{"game":"match","type":"RoundStarted","audience":null,"round":1,"dealer":1,"seats":[0,1]}}

The ``format`` is text (:data:`~engine.records.record.SEEN_FORMAT`), so a reader of full replays only refuses the file
as another format rather than taking it for one it could play.

:func:`check_seen` checks a record on its own (every line decodes, every event is of its game and for this seat's
eyes, the seats and names add up, the match ends once, with the result the header says) and, when the host's full
replay of the same match (the ``match`` its header names) is in the replays directory (the host's own player's
machine, or a copy put there), that the record's events are exactly the host's events as the engine redacts them for
this seat (:meth:`~engine.events.Event.for_seat`), after checking the host's replay itself against the engine.

>>> import tempfile
>>> from engine.table import Table
>>> table = Table.create("screw", players=3, seed=5, bots=[None, "easy", "easy"], names=["Ann", "Ben", "Cy"])
>>> while not table.state.is_over:
...     _ = table.submit(table.state.to_move, table.state.legal_actions()[0])
>>> header = SeenHeader(game="screw", preset=table.preset, variants=(), options=table.options,
...     names=table.names, levels=(None, "easy", "easy"), seat=0, host="Parlour", table="NGQC", match="m1",
...     started_at=table.started_at)
>>> seen = [e for e in (event.for_seat(0) for event in table.state.history) if e is not None]
>>> with tempfile.TemporaryDirectory() as where:
...     path = keep_seen(SeenRecord(header, seen), Path(where))
...     back = load_seen(path)
...     check = check_seen(path)
>>> back.header == header, len(back.events) == len(seen), check.difference, check.host_replay is None
(True, True, None, True)
"""

from __future__ import annotations

import datetime
import json
import logging
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import codec
from engine.errors import ParlourError
from engine.events import Event
from engine.match import MatchOver
from engine.records.paths import replays_dir
from engine.records.record import FORMAT, SEEN_FORMAT, RecordError, SeenHeader
from engine.records.replays import (
    SUFFIX,
    ReplayError,
    field_difference,
    first_line,
    keep_replay,
    read_lines,
    verify_replay,
    write_new,
)
from engine.registry import get_entry
from engine.table import Table

__all__ = [
    "SeenCheck",
    "SeenCursor",
    "SeenHeader",
    "SeenRecord",
    "check_seen",
    "find_host_replay",
    "is_seen",
    "keep_seen",
    "load_seen",
]

log = logging.getLogger("parlour.records")

_SEAT_FIELDS = ("seat", "target", "winner", "loser", "leader", "dealer")
"""Fields of an event that name one seat (checked to be a seat of the table)."""
_SEATS_FIELDS = ("winners", "seats")
"""Fields of an event that name several."""


@dataclass
class SeenRecord:
    """A seat's record: its header and the events it was sent, in order."""

    header: SeenHeader
    events: list[Event] = field(default_factory=list)
    finished_at: datetime.datetime | None = None

    @property
    def match_over(self) -> MatchOver | None:
        """The match's end, once it is among the events."""
        for event in reversed(self.events):
            if isinstance(event, MatchOver):
                return event
        return None

    def lines(self, finished_at: datetime.datetime | None = None) -> Iterator[str]:
        """The file's lines (no line ends): the header with the result, then one line per event."""
        over = self.match_over
        when = finished_at or self.finished_at or datetime.datetime.now(datetime.UTC)
        result = None if over is None else {"winners": list(over.winners), "totals": list(over.totals)}
        yield _json(
            self.header.to_data() | {"result": result, "finished_at": when.isoformat(), "events": len(self.events)}
        )
        for event in self.events:
            yield _json({"event": codec.encode(event)})


def _json(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def is_seen(data: object) -> bool:
    """Whether ``data`` (a replay file's first line, read as JSON) is a seat's record rather than a full replay."""
    return isinstance(data, Mapping) and data.get("format") == SEEN_FORMAT


# -- writing ---------------------------------------------------------------------------------------------------------
def keep_seen(record: SeenRecord, directory: Path | None = None) -> Path:
    """Write ``record`` (atomically) in ``directory`` (default ``data_dir()/replays``) and return its path; OSError
    if it cannot be written."""
    where = replays_dir() if directory is None else directory
    finished = record.finished_at or datetime.datetime.now(datetime.UTC)
    text = "\n".join(record.lines(finished)) + "\n"
    header = record.header
    mine = "watch" if header.seat is None else f"seat{header.seat}"
    code = "".join(letter for letter in header.table if letter.isalnum())[:16] or "table"
    return write_new(where, f"{finished.astimezone():%Y-%m-%d-%H%M%S}-{header.game}-{code}-{mine}", text)


# -- reading ---------------------------------------------------------------------------------------------------------
@dataclass
class _Read:
    record: SeenRecord
    raw: list[Any]
    """Each event as the file has it (the codec's form), for comparing with the host's."""
    result: Any


def _read(path: Path) -> _Read:
    lines = read_lines(path)
    try:
        first = next(lines, None)
        if first is None:
            raise ReplayError(f"{path} is empty, so it is not a replay.")
        data = first[1]
        try:
            header = SeenHeader.from_data(data)
        except RecordError as err:
            raise ReplayError(f"{path} is not the record of a LAN game: {err}.") from None
        finished = None
        try:
            finished = datetime.datetime.fromisoformat(str(data.get("finished_at")))
        except ValueError:
            pass
        record = SeenRecord(header, [], finished)
        raw: list[Any] = []
        for number, step in lines:
            if not isinstance(step, dict) or "event" not in step:
                raise ReplayError(f"Line {number} of {path} is not an event of a LAN game's record.")
            try:
                event = codec.decode(step["event"])
            except ParlourError as err:
                raise ReplayError(f"Line {number} of {path} holds an event that cannot be read ({err}).") from None
            if not isinstance(event, Event):
                raise ReplayError(f"Line {number} of {path} holds something that is not an event.")
            record.events.append(event)
            raw.append(step["event"])
        return _Read(record, raw, data.get("result"))
    finally:
        lines.close()


def load_seen(path: Path) -> SeenRecord:
    """The seat's record at ``path``; ReplayError in one sentence for a file that is not one."""
    return _read(path).record


class SeenCursor:
    """A seat's record at any step, for the replay viewer: :meth:`go` to event ``n`` (0: before the first)."""

    def __init__(self, record: SeenRecord) -> None:
        self.record = record
        self.header = record.header
        self.position = 0

    @classmethod
    def open(cls, path: Path) -> SeenCursor:
        return cls(load_seen(path))

    @property
    def total(self) -> int:
        return len(self.record.events)

    @property
    def names(self) -> tuple[str, ...]:
        return self.header.names

    def go(self, position: int) -> None:
        self.position = max(0, min(position, self.total))

    def last_events(self) -> list[Event]:
        """The event just shown (none at the start)."""
        return [self.record.events[self.position - 1]] if self.position else []

    def shown(self) -> list[Event]:
        """Every event up to the one shown."""
        return self.record.events[: self.position]


# -- checking --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SeenCheck:
    """What :func:`check_seen` found: the events checked, the host's replay compared with (None: not found), the
    first problem (None: none)."""

    events: int
    who: str
    game: str
    host_replay: Path | None
    difference: str | None

    def sentence(self) -> str:
        """What ``parlour replay --check`` prints."""
        count = f"{self.events} event" + ("" if self.events == 1 else "s")
        if self.difference is not None:
            return f"different: {self.difference}"
        if self.host_replay is None:
            return (
                f"checked on its own: the host's replay is not here; {count} of {self.game}, each one {self.who} "
                "could see, the seats and names consistent"
            )
        return f"identical: {count}, as the host's replay {self.host_replay.name} shows them to {self.who}"


def _inconsistency(read: _Read) -> str | None:
    """The first thing in a record that does not hold together, in one sentence (None: it does)."""
    header = read.record.header
    entry = get_entry(header.game)
    allowed = {entry.game.key, "match"}
    players = header.players
    seats = range(players)
    for number, (event, raw) in enumerate(zip(read.record.events, read.raw, strict=True), start=1):
        kind = type(event).__name__
        if raw.get("game") not in allowed:
            return f"Event {number} ({kind}) is not one of {entry.title}'s."
        audience = event.audience
        if audience is not None:
            if not audience <= set(seats):
                return f"Event {number} ({kind}) is addressed to a seat the table does not have."
            if header.seat is None or header.seat not in audience:
                return f"Event {number} ({kind}) was for other eyes than {header.who}'s."
        for name in _SEAT_FIELDS:
            value = raw.get(name)
            if isinstance(value, int) and not isinstance(value, bool) and value not in seats:
                return f"Event {number} ({kind}) names seat {value}, and the table has {players}."
        for name in _SEATS_FIELDS:
            value = raw.get(name)
            if isinstance(value, list) and any(not isinstance(s, int) or s not in seats for s in value):
                return f"Event {number} ({kind}) names a seat the table does not have."
        if isinstance(event, MatchOver) and number != len(read.raw):
            return f"Event {number} ends the match, and {len(read.raw) - number} more follow it."
    over = read.record.match_over
    if over is None:
        return "The match does not end in this record (no MatchOver)."
    if len(over.totals) != players:
        return f"The match ends with {len(over.totals)} totals for {players} seats."
    expected = {"winners": list(over.winners), "totals": list(over.totals)}
    if read.result != expected:
        return f"Its header says the result {_brief(read.result)} but its events end with {_brief(expected)}."
    return None


def _brief(data: object) -> str:
    text = _json(data)
    return text if len(text) <= 120 else text[:119] + "…"


def find_host_replay(match: str, directories: Sequence[Path]) -> Path | None:
    """The host's full replay of ``match`` in one of ``directories`` (the first found), or None."""
    for where in directories:
        try:
            paths = sorted(path for path in where.iterdir() if path.name.endswith(SUFFIX) and path.is_file())
        except OSError:
            continue
        for path in paths:
            try:
                data = first_line(path)
            except (OSError, ValueError, RecursionError):
                continue
            if isinstance(data, dict) and data.get("format") == FORMAT and data.get("match") == match:
                return path
    return None


def _host_events(path: Path) -> tuple[dict[str, Any], list[Any]]:
    """The header and every event of the full replay at ``path``, in order (the codec's form)."""
    lines = read_lines(path)
    try:
        first = next(lines, None)
        if first is None or not isinstance(first[1], dict):
            raise ReplayError(f"{path} is not a replay.")
        events: list[Any] = []
        for number, step in lines:
            found = step.get("events") if isinstance(step, dict) else None
            if not isinstance(found, list):
                raise ReplayError(f"Line {number} of {path} is not a step of a replay.")
            events.extend(found)
        return first[1], events
    finally:
        lines.close()


def _against_host(read: _Read, path: Path) -> str | None:
    """The first difference between the record and the host's replay at ``path`` redacted for its seat."""
    header = read.record.header
    check = verify_replay(path)
    if check.difference is not None:
        return f"the host's replay {path.name} does not play again as it says ({check.difference})"
    data, events = _host_events(path)
    if data.get("game") != header.game or tuple(data.get("names", ())) != header.names:
        return f"the host's replay {path.name} is of another table ({_brief(data.get('names'))})"
    expected: list[Any] = []
    for raw in events:
        event = codec.decode(raw)
        assert isinstance(event, Event)
        seen = event.for_seat(header.seat)
        if seen is not None:
            expected.append(codec.encode(seen))
    for number, (want, got) in enumerate(zip(expected, read.raw, strict=False), start=1):
        if want != got:
            kind = got.get("type", "?") if isinstance(got, dict) else "?"
            return f"Event {number} ({kind}): {field_difference(want, got)}."
    if len(expected) != len(read.raw):
        return f"the host's replay shows {len(expected)} events to {header.who}, and this record has {len(read.raw)}."
    return None


def check_seen(path: Path, directory: Path | None = None) -> SeenCheck:
    """Check the seat's record at ``path`` on its own, then against the host's full replay of the same match if it
    is in the record's own directory or in ``directory`` (default ``data_dir()/replays``).

    ReplayError (one sentence) when the file is not a record that can be read."""
    read = _read(path)
    header = read.record.header
    title = get_entry(header.game).title
    count = len(read.raw)
    problem = _inconsistency(read)
    if problem is not None:
        return SeenCheck(count, header.who, title, None, problem)
    if header.match is None:
        return SeenCheck(count, header.who, title, None, None)
    places = [path.parent]
    other = replays_dir() if directory is None else directory
    if other.resolve() != path.parent.resolve():
        places.append(other)
    host = find_host_replay(header.match, places)
    if host is None:
        return SeenCheck(count, header.who, title, None, None)
    try:
        difference = _against_host(read, host)
    except ReplayError as err:
        difference = f"the host's replay {host.name} cannot be read: {err}"
    except ParlourError as err:
        difference = f"the host's replay {host.name} holds an event that cannot be read ({err})"
    return SeenCheck(count, header.who, title, host, difference)


# -- the host's side -------------------------------------------------------------------------------------------------
def keep_host_replay_soon(table: Table, *, code: str, match: str, host: str, directory: Path | None = None) -> None:
    """Keep the full replay of the finished LAN table ``table`` (an engine Table), with its table ``code``, its
    ``match`` id and the ``host``'s name in the header (so a seat's record finds it), on a thread of its own: the
    caller (the host's event loop) goes on at once. A failure is logged, never raised."""

    def keep() -> None:
        try:
            path = keep_replay(table, directory, extra={"table": code, "match": match, "host": host})
        except (OSError, ParlourError) as err:
            log.warning("the replay of table %s could not be kept: %s", code, err)
        except Exception:  # a bug must not reach the host's loop or its log as a traceback only
            log.exception("the replay of table %s could not be kept", code)
        else:
            log.info("table %s: replay kept in %s", code, path)

    threading.Thread(target=keep, name=f"parlour-replay-{code}").start()
