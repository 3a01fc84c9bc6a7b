"""The app's stylesheets, parsed once and kept: the next start reads the parsed rules instead of parsing again.

Textual parses every ``.tcss`` file and every widget's default CSS at each start; for Parlour's 1,300 lines that was
the largest single piece of the time from ``App.run`` to the first frame (about a fifth of it), while reading the
same rules back from a file takes a tenth of that. Textual already keeps parsed rules for the length of a run, in
its stylesheet's parse cache (keyed by the CSS text itself, where each rule came from, and its place in the
cascade); :class:`ParsedCss` replaces that cache, before the first parse, with one (:class:`StoredRules`) that
also holds the rules of the file, each stylesheet's pickled apart and unpickled only when asked for (the file holds
every screen's stylesheets, a start needs a few), and writes the file again if anything had to be parsed: a moment
after the first screen is drawn (:func:`save_soon`) and when the app ends.

The file is one per theme (parsing puts the theme's colours into the rules) and per version of Textual and Python
(its contents are their objects, pickled; Textual is known by its files, see :func:`_identity`). It lives in the
user cache directory (see :func:`cache_dir`): it is only ever a copy, so a file that is missing, unreadable, from
another version or damaged is simply ignored (and replaced), and no CSS is ever taken from it that is not the app's
present CSS, to the character.

Only an app run on a terminal uses it (:func:`tui.cli.run_app`): tests, headless, never read or write it.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import sys
import zlib
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

import textual
from textual.cache import LRUCache

from tui.user_cache import CACHE_ENV, cache_dir

__all__ = ["CACHE_ENV", "ParsedCss", "StoredRules", "cache_dir", "save_soon"]


def _identity(variables: dict[str, str]) -> str:
    """What the parsed rules depend on besides the CSS itself: the theme's ``variables``, Textual, Python.

    Textual is told apart by where its package is and when its files were written (an install of another version
    writes them again), not by ``textual.__version__``: that reads the installed packages' metadata, which took a
    tenth of the start-up on its own."""
    return repr((_textual_stamp(), sys.version_info[:2], sorted(variables.items())))


def _textual_stamp() -> tuple[str, int, int]:
    """Textual's package file, its size and when it was written."""
    path = textual.__file__ or ""
    try:
        found = os.stat(path)
    except OSError:
        return path, 0, 0
    return path, found.st_size, found.st_mtime_ns


def _file_for(identity: str) -> Path:
    """The cache file for stylesheets parsed under ``identity`` (the file records it in full and is used only when
    it matches: the name's checksum only keeps themes apart)."""
    return cache_dir() / f"styles-{zlib.crc32(identity.encode()):08x}.pickle"


_KEPT: WeakKeyDictionary[Any, ParsedCss] = WeakKeyDictionary()
"""The apps whose stylesheets are being kept (those run on a terminal), and their ParsedCss."""


def save_soon(app: Any) -> None:
    """Keep what ``app`` has parsed by now if it is an app whose stylesheets are kept (call it once the first screen
    is drawn, so a run that ends without quitting, a closed window, still leaves its rules for the next)."""
    kept = _KEPT.get(app)
    if kept is not None:
        kept.save()


class ParsedCss:
    """The parsed rules of one app's stylesheet, read from the cache before the app runs, written back after."""

    def __init__(self, app: Any) -> None:
        self.stylesheet = app.stylesheet
        self.loaded: set[tuple[Any, ...]] = set()
        """The parse-cache keys filled from the file (the rest were parsed in this run)."""

    @classmethod
    def load(cls, app: Any) -> ParsedCss:
        """Give ``app``'s stylesheet a parse cache that holds the file's rules for its theme, if there is a usable
        file: each stylesheet's rules are unpickled when the app first asks for them (a table's start asks for a
        quarter of them; the rest are other screens')."""
        kept = cls(app)
        identity = _identity(kept.stylesheet._variables)
        stored = dict(_read(_file_for(identity), identity))
        kept.stylesheet._parse_cache = StoredRules(max(kept.stylesheet._parse_cache.maxsize, len(stored) + 64), stored)
        kept.loaded.update(stored)
        _KEPT[app] = kept
        return kept

    def save(self) -> None:
        """Write the file again if anything was parsed in this run (a first start, an edited ``.tcss``, another
        screen's widgets), keeping what other runs parsed; never raises (the next start parses again)."""
        cache = self.stylesheet._parse_cache
        fresh = [key for key in cache.keys() if key not in self.loaded]
        if not fresh:
            return
        identity = _identity(self.stylesheet._variables)
        path = _file_for(identity)
        with contextlib.suppress(Exception):
            added = [(key, pickle.dumps(cache.get(key), protocol=pickle.HIGHEST_PROTOCOL)) for key in fresh]
            known = set(fresh)
            entries = [entry for entry in _read(path, identity) if entry[0] not in known] + added
            data = pickle.dumps((identity, entries[-MOST:]), protocol=pickle.HIGHEST_PROTOCOL)
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            partial.write_bytes(data)
            os.replace(partial, path)
            self.loaded |= known  # kept now: saved again only if more is parsed


class StoredRules(LRUCache[tuple[Any, ...], list[Any]]):
    """A stylesheet's parse cache (Textual's LRU cache, keyed as Textual keys it) that also holds the rules an
    earlier run parsed, pickled, and unpickles a stylesheet's rules the first time they are asked for. A theme
    change clears it all, as it clears Textual's own."""

    def __init__(self, maxsize: int, stored: dict[tuple[Any, ...], bytes]) -> None:
        super().__init__(maxsize)
        self.stored = stored

    def __getitem__(self, key: tuple[Any, ...]) -> list[Any]:
        try:
            return super().__getitem__(key)
        except KeyError:
            data = self.stored.pop(key, None)
            if data is None:
                raise
        try:
            rules = pickle.loads(data)
        except Exception:
            raise KeyError(key) from None  # damaged: parsed again
        if not isinstance(rules, list):
            raise KeyError(key)
        self.set(key, rules)
        return rules

    def clear(self) -> None:
        super().clear()
        self.stored.clear()


MOST = 200
"""The most stylesheets a file keeps (the app's own and every widget's default CSS are some 50): the newest."""


def _read(path: Path, identity: str) -> list[tuple[tuple[Any, ...], bytes]]:
    """The entries of a cache file written under ``identity`` (each stylesheet's key and its rules, pickled); none
    when it is missing, damaged, written under another identity or not what this code writes."""
    try:
        found, entries = pickle.loads(path.read_bytes())
    except Exception:
        return []
    if found != identity or not isinstance(entries, list):
        return []
    return [
        (key, rules)
        for key, rules in (entry for entry in entries if isinstance(entry, tuple) and len(entry) == 2)
        if isinstance(key, tuple) and isinstance(rules, bytes)
    ]
