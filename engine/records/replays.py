"""Every finished match, kept as JSON Lines, and checked again against the engine.

A replay is ``data_dir()/replays/<date>-<game>-<seed>.jsonl`` (``2025-03-01-201502-big2-8812.jsonl``; ``-2`` ...
when that name is taken). Line 1 is the record's header (:class:`~engine.records.record.Header`) with the match's
``result``, ``finished_at`` and its numbers of ``actions`` and ``events``; line 2 the events of the deal, before any
action (``"seat": null, "action": null``); then one line per action: its seat, the action and every event it caused,
in full (the game is over, every hand may be shown), all in the codec's form (:mod:`engine.codec`)::

    {"format":1,"game":"screw",...,"result":{"winners":[2],"scores":[0,0,2]},"finished_at":"...","actions":17,...}
    {"seat":null,"action":null,"events":[{"game":"match","type":"RoundStarted",...},...]}
    {"seat":0,"action":{"game":"chase","type":"ChaseAction","value":"trade"},"events":[...]}

:func:`check_replay` plays the actions again through the engine and compares every event with the file's: None
when they are identical, else the first difference in one sentence. :func:`list_replays` reads the first line of
each file for ``parlour replays``.

A replay is read as a stranger's file: only a regular file (a FIFO, a directory or a device is refused without
being waited on), at most :data:`MAX_FILE` bytes, one line at a time, each at most :data:`MAX_LINE` bytes (a file
without a newline is refused once that much is read, never read whole); its header is checked as
:meth:`~engine.records.record.Header.from_data` says (the game, preset, variants and levels against the registry,
each name as a typed name is), so nothing it holds reaches the terminal unchecked.

>>> import tempfile
>>> from engine.table import Table
>>> table = Table.create("screw", players=3, seed=5, bots=["easy", "easy", "easy"])
>>> table.run()
>>> with tempfile.TemporaryDirectory() as where:
...     path = keep_replay(table, Path(where))
...     check = verify_replay(path)
...     kept = list_replays(Path(where))
>>> check.difference, check.actions == len(table.actions), check.events == len(table.state.history)
(None, True, True)
>>> kept[0].game, kept[0].result
('Screw Your Neighbor', 'Cleo won')
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import count
from pathlib import Path
from typing import Any

from engine import codec
from engine.errors import ParlourError, echo
from engine.events import Event
from engine.game import Action
from engine.records.paths import (
    NotAFileError,
    TooLargeError,
    UnreadableError,
    one_line,
    open_regular,
    replays_dir,
    size_words,
    write_new_file,
)
from engine.records.record import (
    SEEN_FORMAT,
    FormatError,
    Header,
    RecordError,
    SeenHeader,
    describe_action,
    new_table,
    result_data,
)
from engine.registry import get_entry
from engine.table import Table

SUFFIX = ".jsonl"
MAX_LINE = 16 * 1024 * 1024
"""A line longer than this is not one of ours (the longest, a deal's events, is a few KB): it is refused once this
many bytes of it are read."""
MAX_FILE = 256 * 1024 * 1024
"""A replay larger than this is far larger than any match's: it is not read."""


class ReplayError(ParlourError):
    """A file that is not a replay this version can check (missing, unreadable, not JSON Lines, another format);
    the message is one sentence."""

    code = "bad_replay"


def _json(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _events(events: Sequence[Event]) -> list[Any]:
    return [codec.encode(event) for event in events]


def replay_lines(
    table: Table, finished_at: datetime.datetime | None = None, extra: dict[str, Any] | None = None
) -> Iterator[str]:
    """The replay of ``table`` line by line (no line ends): the header (with ``extra``'s fields), the deal, then
    one line per action."""
    history = table.state.history
    count = len(table.actions)
    bounds = table.bounds[: count + 1]
    when = finished_at or datetime.datetime.now(datetime.UTC)
    header = Header.of(table).to_data() | {
        "result": result_data(table.state.result),
        "finished_at": when.isoformat(),
        "actions": count,
        "events": bounds[-1],
    }
    yield _json(header | (extra or {}))
    yield _json({"seat": None, "action": None, "events": _events(history[: bounds[0]])})
    for index, (seat, action) in enumerate(table.actions[:count]):
        events = history[bounds[index] : bounds[index + 1]]
        yield _json({"seat": seat, "action": codec.encode(action), "events": _events(events)})


def keep_replay(table: Table, directory: Path | None = None, extra: dict[str, Any] | None = None) -> Path:
    """Write the replay of the finished match at ``table`` (atomically) and return its path; OSError if it cannot
    be written. ``directory`` defaults to ``data_dir()/replays``; ``extra`` adds fields to the header (a LAN host's
    table code, match id and name)."""
    if not table.state.is_over:
        raise ParlourError("only a finished match is kept as a replay")
    where = replays_dir() if directory is None else directory
    finished = datetime.datetime.now(datetime.UTC)
    text = "\n".join(replay_lines(table, finished, extra)) + "\n"
    stem = f"{finished.astimezone():%Y-%m-%d-%H%M%S}-{table.entry.key}-{table.seed}"
    return write_new(where, stem, text)


def write_new(where: Path, stem: str, text: str) -> Path:
    """Write ``text`` (atomically) as ``where/STEM.jsonl``, or ``STEM-2.jsonl``... the first free name; its path.
    A name is taken in one step that fails when it is already taken, so two processes writing at once (two
    Parlours finishing a game of the same seed in the same second) never share a file. OSError if it cannot be
    written."""
    names = (where / (f"{stem}{SUFFIX}" if number == 1 else f"{stem}-{number}{SUFFIX}") for number in count(1))
    return write_new_file(names, text)


# -- reading ---------------------------------------------------------------------------------------------------------
def read_lines(path: Path) -> Generator[tuple[int, Any], None, None]:
    """Each line of ``path`` as JSON data, with its number (from 1), read one line at a time: never a line longer
    than :data:`MAX_LINE` (a file without a newline is refused at that many bytes, never read whole), never a file
    larger than :data:`MAX_FILE`, never anything but a regular file. ReplayError (one sentence) for any of these and
    for a line that is not JSON."""
    try:
        with open_regular(path, MAX_FILE) as file:
            number = 0
            while line := file.readline(MAX_LINE + 1):
                number += 1
                if len(line) > MAX_LINE:
                    raise ReplayError(f"Line {number} of {path} is far too long for a replay.")
                if not line.strip():
                    continue
                try:
                    yield number, json.loads(line.decode("utf-8"))
                except UnicodeDecodeError:
                    raise ReplayError(f"{path} is not UTF-8 text, so it is not a replay.") from None
                except (ValueError, RecursionError):
                    raise ReplayError(f"Line {number} of {path} is not JSON, so the file is not a replay.") from None
    except FileNotFoundError:
        raise ReplayError(f"There is no file {path}.") from None
    except TooLargeError:
        raise ReplayError(f"{path} is larger than {size_words(MAX_FILE)}, far more than a replay takes.") from None
    except NotAFileError as err:
        raise ReplayError(f"{path} is not a replay: {err}.") from None
    except OSError as err:
        raise ReplayError(f"{path} could not be read ({err.strerror or err}).") from None


def first_line(path: Path) -> Any:
    """The first line of the replay at ``path`` as JSON data (at most :data:`MAX_LINE` bytes of it read); OSError
    (:class:`~engine.records.paths.UnreadableError` for what is not a regular file or is too large) or ValueError
    when it cannot be read."""
    with open_regular(path, MAX_FILE) as file:
        line = file.readline(MAX_LINE + 1)
    if len(line) > MAX_LINE:
        raise ValueError("its first line is far too long for a replay")
    return json.loads(line.decode("utf-8"))


def _header(path: Path, data: Any) -> Header:
    if isinstance(data, dict) and data.get("format") == SEEN_FORMAT:
        raise ReplayError(f"{path} is what one seat saw of a LAN game, not a replay the engine can play again.")
    try:
        return Header.from_data(data)
    except FormatError as err:
        raise ReplayError(f"{path} cannot be checked: {err}.") from None
    except RecordError as err:
        raise ReplayError(f"{path} is not a replay: {err}.") from None


def is_seen_file(path: Path) -> bool:
    """Whether the file at ``path`` is a LAN seat's record of what it saw (:mod:`engine.records.seen`), by its
    first line; False for anything else, a file that cannot be read included (reading it says why)."""
    try:
        data = first_line(path)
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("format") == SEEN_FORMAT


def load_replay(path: Path) -> tuple[Header, list[tuple[int, Action]]]:
    """The header and the actions of the replay at ``path`` (what the replay viewer steps through); ReplayError
    in one sentence for a file that is not a replay."""
    lines = read_lines(path)
    first = next(lines, None)
    if first is None:
        raise ReplayError(f"{path} is empty, so it is not a replay.")
    header = _header(path, first[1])
    actions: list[tuple[int, Action]] = []
    for number, step in lines:
        if not isinstance(step, dict) or "events" not in step:
            raise ReplayError(f"Line {number} of {path} is not a step of a replay.")
        if step.get("seat") is None and step.get("action") is None:
            continue  # the deal's own events, before any action
        seat = step.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or "action" not in step:
            raise ReplayError(f"Line {number} of {path} is not a step of a replay.")
        try:
            actions.append((seat, codec.decode(step["action"])))
        except ParlourError as err:
            raise ReplayError(f"Line {number} of {path} holds an action that cannot be read ({err}).") from None
    return header, actions


@dataclass(frozen=True)
class ReplayCheck:
    """What :func:`verify_replay` found: the numbers of actions and events played, and the first difference."""

    actions: int
    events: int
    difference: str | None


def field_difference(expected: object, found: object) -> str:
    """What differs between an event in the file and the one the engine gives, as briefly as can be said."""
    if isinstance(expected, dict) and isinstance(found, dict):
        if (expected.get("game"), expected.get("type")) == (found.get("game"), found.get("type")):
            for key in [*found, *(k for k in expected if k not in found)]:
                if expected.get(key, "(none)") != found.get(key, "(none)"):
                    return f"expected {key} {_brief(expected.get(key, '(none)'))} but found {_brief(found.get(key))}"
        return f"expected a {expected.get('type', '?')} but found a {found.get('type', '?')}"
    return f"expected {_brief(expected)} but found {_brief(found)}"


def _brief(data: object) -> str:
    text = _json(data)
    return text if len(text) <= 120 else text[:119] + "…"


def _compare(where: str, expected: Any, found: list[Any]) -> str | None:
    if not isinstance(expected, list):
        return f"{where}: expected a list of events but found {_brief(expected)}."
    for index, (want, got) in enumerate(zip(expected, found, strict=False), start=1):
        if want != got:
            kind = got.get("type", "?") if isinstance(got, dict) else "?"
            return f"{where}, event {index} ({kind}): {field_difference(want, got)}."
    if len(expected) != len(found):
        return f"{where}: expected {len(expected)} events but found {len(found)}."
    return None


def verify_replay(path: Path) -> ReplayCheck:
    """Play the replay at ``path`` again through the engine and compare event by event.

    ReplayError (one sentence) when the file is not a replay that can be checked; otherwise the numbers of actions
    and events checked and the first difference (None: identical)."""
    lines = read_lines(path)
    try:
        return _verify(path, lines)
    finally:
        lines.close()  # an early answer leaves the file open no longer than this


def _verify(path: Path, lines: Iterator[tuple[int, Any]]) -> ReplayCheck:
    first = next(lines, None)
    if first is None:
        raise ReplayError(f"{path} is empty, so it is not a replay.")
    data = first[1]
    header = _header(path, data)
    try:
        table = new_table(header)
    except RecordError as err:
        raise ReplayError(f"{path} cannot be checked: {err}.") from None
    second = next(lines, None)
    if second is None or not isinstance(second[1], dict) or second[1].get("seat") is not None:
        raise ReplayError(f"{path} has no line for the deal after its header, so it is not a replay.")
    events = len(table.state.history)
    found = _events(table.state.history)
    difference = _compare("The deal (before any action)", second[1].get("events"), found)
    if difference is not None:
        return ReplayCheck(0, events, difference)
    actions = 0
    for number, step in lines:
        if not isinstance(step, dict) or "action" not in step or "events" not in step:
            raise ReplayError(f"Line {number} of {path} is not a step of a replay.")
        actions += 1
        seat = step.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int):
            return ReplayCheck(actions, events, f"Action {actions}: expected a seat but found {_brief(seat)}.")
        try:
            action = codec.decode(step["action"])
        except ParlourError as err:
            return ReplayCheck(actions, events, f"Action {actions}: its action cannot be read ({err}).")
        where = f"Action {actions} ({describe_action(seat, action)})"
        try:
            played = table.submit(seat, action)
        except ParlourError as err:
            return ReplayCheck(actions, events, f"{where} is refused by the engine: {err}.")
        except Exception as err:  # a bug in a game: said, never a traceback
            return ReplayCheck(actions, events, f"{where} made the engine fail: {echo(err, 80)}.")
        found = _events(played)
        events += len(found)
        difference = _compare(where, step["events"], found)
        if difference is not None:
            return ReplayCheck(actions, events, difference)
    expected = data.get("result") if isinstance(data, dict) else None
    result = result_data(table.state.result)
    if expected != result:
        return ReplayCheck(
            actions,
            events,
            f"After the last action ({actions}): expected the result {_brief(expected)} but found {_brief(result)}.",
        )
    return ReplayCheck(actions, events, None)


def check_replay(path: Path) -> str | None:
    """None when the replay at ``path`` plays again identically, else the first difference in one sentence
    (action number, expected vs found). ReplayError when the file is not a replay that can be checked."""
    return verify_replay(path).difference


# -- listing ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ReplayInfo:
    """A kept game, as ``parlour replays`` lists it (``problem`` set, and the rest blank, for an unreadable file)."""

    path: Path
    finished_at: datetime.datetime | None
    game: str
    """The game's title (its preset's name for a game with presets)."""
    players: tuple[str, ...]
    result: str
    problem: str | None = None
    seen: str | None = None
    """For a LAN seat's record (:mod:`engine.records.seen`): whose eyes it is, in words; None for a full replay."""
    takebacks: int = 0
    """How many moves were taken back in the match (its header says; 0 for a record that does not)."""


def result_text(names: Sequence[str], winners: Sequence[int]) -> str:
    """Who won, in words: ``Ana won``, ``Ana and Ben shared the win``."""
    who = [names[seat] for seat in winners if isinstance(seat, int) and 0 <= seat < len(names)]
    if not who:
        return "nobody won"
    if len(who) == 1:
        return f"{who[0]} won"
    return f"{', '.join(who[:-1])} and {who[-1]} shared the win"


def replay_info(path: Path) -> ReplayInfo:
    """What the first line of the replay at ``path`` says (never raises: a problem is kept in ``problem``)."""
    try:
        data = first_line(path)
        if isinstance(data, dict) and data.get("format") == SEEN_FORMAT:
            return seen_info(path, data)
        header = Header.from_data(data)
        finished = datetime.datetime.fromisoformat(str(data.get("finished_at")))
    except (OSError, ValueError, RecursionError, ParlourError) as err:
        if isinstance(err, ParlourError | UnreadableError):
            reason = str(err)
        elif isinstance(err, OSError):
            reason = f"it could not be read ({one_line(err.strerror or str(err))})"
        else:
            reason = "it is not a replay"
        return ReplayInfo(path, None, "", (), "", problem=reason)
    game = get_entry(header.game).game
    result = data.get("result") if isinstance(data.get("result"), dict) else {}
    winners = result.get("winners", []) if isinstance(result.get("winners"), list) else []
    return ReplayInfo(
        path,
        finished,
        game.preset_name(header.preset),
        header.names,
        result_text(header.names, winners) if data.get("result") is not None else "not finished",
        takebacks=header.takebacks,
    )


def seen_info(path: Path, data: Mapping[str, Any]) -> ReplayInfo:
    """How ``parlour replays`` lists the record whose first line is ``data`` (a problem kept, never raised)."""
    try:
        header = SeenHeader.from_data(data)
        finished = datetime.datetime.fromisoformat(str(data.get("finished_at")))
    except (RecordError, ValueError) as err:
        reason = str(err) if isinstance(err, ParlourError) else "it is not a replay"
        return ReplayInfo(path, None, "", (), "", problem=reason)
    game = get_entry(header.game).game
    result = data.get("result")
    winners = result.get("winners") if isinstance(result, dict) else None
    return ReplayInfo(
        path,
        finished,
        game.preset_name(header.preset),
        header.names,
        result_text(header.names, winners) if isinstance(winners, list) else "not finished",
        seen=f"as {header.who} saw it at {header.host}, table {header.table}",
    )


def list_replays(directory: Path | None = None) -> list[ReplayInfo]:
    """The kept games in ``directory`` (default ``data_dir()/replays``), newest first (files that cannot be read
    last)."""
    where = replays_dir() if directory is None else directory
    try:
        paths = [path for path in where.iterdir() if path.name.endswith(SUFFIX) and path.is_file()]
    except OSError:
        return []
    infos = [replay_info(path) for path in paths]

    def newest(info: ReplayInfo) -> tuple[bool, float, str]:
        """Readable replays by when they finished, newest first; those that cannot be read after them."""
        when = info.finished_at
        if when is None:
            return False, 0.0, info.path.name
        return True, (when if when.tzinfo else when.replace(tzinfo=datetime.UTC)).timestamp(), info.path.name

    return sorted(infos, key=newest, reverse=True)


class ReplayCursor:
    """A kept game at any step, for the replay viewer: :meth:`go` to action ``n`` (0: the deal, before any action;
    :attr:`total`: the end). Forward steps play on; a step back plays the game again from its deal."""

    def __init__(self, header: Header, actions: Sequence[tuple[int, Action]]) -> None:
        self.header = header
        self.actions = list(actions)
        self.table = new_table(header)
        self.position = 0

    @classmethod
    def open(cls, path: Path) -> ReplayCursor:
        header, actions = load_replay(path)
        try:
            return cls(header, actions)
        except RecordError as err:
            raise ReplayError(f"{path} cannot be shown: {err}.") from None

    @property
    def total(self) -> int:
        return len(self.actions)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.header.names)

    def go(self, position: int) -> None:
        """Show the game after ``position`` actions (clamped to the game); ReplayError if an action is refused."""
        position = max(0, min(position, self.total))
        if position < self.position:
            self.table, self.position = new_table(self.header), 0
        while self.position < position:
            seat, action = self.actions[self.position]
            try:
                self.table.submit(seat, action)
            except ParlourError as err:
                raise ReplayError(f"Action {self.position + 1} is refused by the engine: {err}.") from None
            self.position += 1

    def last_events(self) -> list[Event]:
        """The events of the action just shown (the deal's own at the start)."""
        history, bounds = self.table.state.history, self.table.bounds
        if self.position == 0:
            return list(history[: bounds[0]])
        return list(history[bounds[self.position - 1] : bounds[self.position]])
