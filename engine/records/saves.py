"""A match in progress, saved after every action and resumed exactly where it stopped.

:func:`save_match` writes the record (:mod:`engine.records.record`) as one JSON object, atomically: the text goes
to a temporary file in the same directory, is flushed to disk, and replaces the old file in one step, so a crash,
a kill or a full disk mid-save leaves the previous save whole. The file reads::

    {"header":{"format":1,"game":"big2",...},
    "actions":[
    [0,{"game":"big2","type":"Play","cards":["3D"]}],
    [1,{"game":"big2","type":"PassTurn"}]
    ]}

Each action is encoded once per table and kept (:data:`_ENCODED`): a save encodes only the actions played since the
last one and writes the whole file again. A Rank match of 3,000 actions saves in about a millisecond here
(``tests/records/test_record_saves.py`` measures it).

:func:`load_match` rebuilds the table from the file. A file that cannot be read, is not a saved match, was written
in another record format, or whose actions the engine no longer accepts, is moved aside (``autosave.json.bad``,
``.bad-2`` ...: never deleted) and the answer is a :class:`SaveProblem` whose message is the one sentence to show.

>>> import tempfile
>>> from pathlib import Path
>>> from engine.table import Table
>>> table = Table.create("screw", players=3, seed=4, bots=[None, "easy", "easy"])
>>> table.run()  # the computer players play until it is your turn
>>> table.submit(0, "stay")
[...]
>>> with tempfile.TemporaryDirectory() as where:
...     save_match(Path(where) / "autosave.json", table)
...     again = load_match(Path(where) / "autosave.json")
>>> isinstance(again, Table) and again.actions == table.actions and again.state.to_move == table.state.to_move
True
"""

from __future__ import annotations

import json
import logging
import threading
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import codec
from engine.errors import ParlourError, echo
from engine.records.paths import move_aside, one_line, write_atomically
from engine.records.record import FormatError, Header, RecordError, read_action, rebuild
from engine.table import Table

log = logging.getLogger("parlour.records")

MAX_BYTES = 64 * 1024 * 1024
"""A save this large is not a match (a Rank match of 30,000 actions is about 1 MB): it is not read."""

_ENCODED: weakref.WeakKeyDictionary[Table, list[str]] = weakref.WeakKeyDictionary()
"""Per table, its actions already encoded (``[seat,action]`` text), so a save encodes only the new ones."""
_LOCK = threading.Lock()


@dataclass(frozen=True)
class SaveProblem:
    """A save that could not be resumed: the sentence to show, and where the file went (None: it stayed)."""

    message: str
    aside: Path | None

    def __str__(self) -> str:
        return self.message


def dumps_match(table: Table, extra: dict[str, Any] | None = None) -> str:
    """The record of ``table`` as JSON text: the header, then one action a line. ``extra`` (JSON data) is kept
    beside them under ``"extra"``: what a LAN host needs to seat its players again."""
    count = len(table.actions)  # a bot thread may append meanwhile: a prefix of the actions is a whole match
    with _LOCK:
        encoded = _ENCODED.get(table)
        if encoded is None or len(encoded) > count:
            encoded = _ENCODED[table] = []
        for seat, action in table.actions[len(encoded) : count]:
            encoded.append(f"[{seat},{codec.dumps(action)}]")
        lines = encoded[:count]
    header = json.dumps(Header.of(table).to_data(), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    more = "" if extra is None else ',\n"extra":' + json.dumps(extra, ensure_ascii=False, separators=(",", ":"))
    body = ",\n".join(lines) + ("\n" if lines else "")
    return '{"header":' + header + more + ',\n"actions":[\n' + body + "]}\n"


def save_match(path: Path, table: Table, extra: dict[str, Any] | None = None) -> None:
    """Save ``table`` to ``path`` atomically; OSError if it cannot be written (the previous save stays whole)."""
    write_atomically(path, dumps_match(table, extra))


def store_match(path: Path, table: Table, extra: dict[str, Any] | None = None) -> str | None:
    """:func:`save_match`, with a failure as one sentence to tell the player (None when the match was saved)."""
    try:
        save_match(path, table, extra)
    except OSError as err:
        return f"The game could not be saved to {path} ({one_line(err.strerror or str(err))})."
    except ParlourError as err:  # an action the codec cannot write: a bug, but never a crash
        log.exception("a match could not be encoded")
        return f"The game could not be saved to {path} ({one_line(str(err))})."
    return None


def loads_match(text: str) -> Table:
    """The table a saved match's text records; RecordError (FormatError for another format) when it cannot be
    used."""
    return loads_saved(text)[0]


def loads_saved(text: str) -> tuple[Table, dict[str, Any]]:
    """:func:`loads_match`, and the save's ``extra`` data (empty when it has none)."""
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        raise RecordError("it is cut short or is not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("actions"), list) or "header" not in data:
        raise RecordError("it is not a saved game")
    header = Header.from_data(data["header"])
    extra = data.get("extra", {})
    if not isinstance(extra, dict):
        raise RecordError("its extra data is not an object")
    actions = [read_action(item) for item in data["actions"]]
    return rebuild(header, actions), extra


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def load_match(path: Path) -> Table | SaveProblem | None:
    """The match saved in ``path``, rebuilt; None when there is no file; a :class:`SaveProblem` (one sentence) when
    the file cannot be used: it has then been moved aside, never deleted."""
    found = load_saved(path)
    return found[0] if isinstance(found, tuple) else found


def load_saved(path: Path) -> tuple[Table, dict[str, Any]] | SaveProblem | None:
    """:func:`load_match`, with the save's ``extra`` data."""
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        return _set_aside(path, "it is a directory")
    except OSError as err:
        return _set_aside(path, f"it could not be read: {err.strerror or err}")
    if len(raw) > MAX_BYTES:
        return _set_aside(path, f"it is larger than {MAX_BYTES // (1024 * 1024)} MB, far more than a game takes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return _set_aside(path, "it is not UTF-8 text")
    try:
        return loads_saved(text)
    except FormatError as err:
        return _set_aside(path, str(err))
    except RecordError as err:
        return _set_aside(path, str(err))
    except Exception as err:  # a bug met while playing the actions again: the file goes aside, the app goes on
        log.exception("a saved match could not be rebuilt")
        return _set_aside(path, f"it could not be played again ({echo(err, 80)})")


def _set_aside(path: Path, reason: str) -> SaveProblem:
    """Move the save that cannot be used out of the way; the one sentence that tells the player."""
    reason = one_line(reason)
    try:
        aside = move_aside(path)
    except OSError as err:
        return SaveProblem(
            f"The saved game {path} could not be resumed ({reason}) nor moved aside ({err.strerror or err}).", None
        )
    return SaveProblem(
        f"The saved game {path} could not be resumed ({reason}), so it was moved to {aside.name}.", aside
    )


def remove_save(path: Path) -> None:
    """Remove a save whose match is over and kept (as a replay and in the statistics); no error if it is gone."""
    try:
        path.unlink(missing_ok=True)
    except OSError:
        log.warning("the save %s could not be removed", path)
