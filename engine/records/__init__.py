"""Never lose a game: saves to resume a match, replays of finished ones, and statistics.

- :mod:`engine.records.record`: a match as a record (a :class:`Header` and the table's actions) and
  :func:`rebuild`, which plays the actions again to give the very same table;
- :mod:`engine.records.saves`: :func:`save_match` (atomic, after every action) and :func:`load_match` (a file that
  cannot be used is moved aside, with one sentence to tell);
- :mod:`engine.records.replays`: every finished match as JSON Lines (:func:`keep_replay`), checked again against
  the engine (:func:`check_replay`), listed (:func:`list_replays`);
- :mod:`engine.records.seen`: what one seat saw of a LAN match (:class:`SeenRecord`), kept beside the replays
  (:func:`keep_seen`), checked on its own and against the host's full replay (:func:`check_seen`);
- :mod:`engine.records.stats`: SQLite statistics (:func:`record_game`, :func:`summary`);
- :mod:`engine.records.paths`: where all of it lives (``$PARLOUR_DATA_DIR`` or the user data directory).

:func:`finish_match` does what the app does when a match ends: keep the replay, count the game, remove the save;
:func:`finish_seen` what a LAN client does when the match at its seat ends.

Each name below is read from its module the first time it is asked for (``from engine.records import load_match``
loads :mod:`engine.records.saves` and what it needs, no more): the app's start-up reads where the save is
(:mod:`engine.records.paths`) and nothing else unless there is a save to resume; the statistics bring SQLite.

It may import the engine's core only (the modules directly in ``engine/``, :mod:`engine.bots` and
:mod:`engine.games`): never :mod:`engine.play`, :mod:`engine.lan`, the UI or Textual (a test reads the imports:
``tests/test_imports.py``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.records.finish import Finished, finish_match, finish_seen
    from engine.records.paths import autosave_path, data_dir, host_save_path, host_saves, replays_dir
    from engine.records.record import FORMAT, FormatError, Header, RecordError, rebuild
    from engine.records.replays import ReplayError, check_replay, keep_replay, list_replays, verify_replay
    from engine.records.saves import SaveProblem, load_match, remove_save, save_match, store_match
    from engine.records.seen import SeenRecord, check_seen, keep_seen, load_seen
    from engine.records.stats import StatsError, record_game, summary

_MODULES = {
    "finish": ("Finished", "finish_match", "finish_seen"),
    "paths": ("autosave_path", "data_dir", "host_save_path", "host_saves", "replays_dir"),
    "record": ("FORMAT", "FormatError", "Header", "RecordError", "rebuild"),
    "replays": ("ReplayError", "check_replay", "keep_replay", "list_replays", "verify_replay"),
    "saves": ("SaveProblem", "load_match", "remove_save", "save_match", "store_match"),
    "seen": ("SeenRecord", "check_seen", "keep_seen", "load_seen"),
    "stats": ("StatsError", "record_game", "summary"),
}
_HOME = {name: module for module, names in _MODULES.items() for name in names}
"""Which module of the package each name comes from."""


def __getattr__(name: str) -> object:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = [
    "FORMAT",
    "Finished",
    "FormatError",
    "Header",
    "RecordError",
    "ReplayError",
    "SaveProblem",
    "SeenRecord",
    "StatsError",
    "autosave_path",
    "check_replay",
    "check_seen",
    "data_dir",
    "finish_match",
    "finish_seen",
    "host_save_path",
    "host_saves",
    "keep_replay",
    "keep_seen",
    "list_replays",
    "load_match",
    "load_seen",
    "rebuild",
    "record_game",
    "remove_save",
    "replays_dir",
    "save_match",
    "store_match",
    "summary",
    "verify_replay",
]
