"""The app's stylesheets, parsed once and kept: the next start reads the parsed rules instead of parsing again.

Textual parses every ``.tcss`` file and every widget's default CSS at each start; for Parlour's 1,300 lines that was
the largest single piece of the time from ``App.run`` to the first frame (about a fifth of it), while reading the
same rules back from a file takes a tenth of that. Textual already keeps parsed rules for the length of a run, in
its stylesheet's parse cache (keyed by the CSS text itself, where each rule came from, and its place in the
cascade); :class:`ParsedCss` fills that cache from a file before the first parse, and writes the file again if
anything had to be parsed: a moment after the first screen is drawn (:func:`save_soon`) and when the app ends.

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

from tui.user_cache import CACHE_ENV, cache_dir

__all__ = ["CACHE_ENV", "ParsedCss", "cache_dir", "save_soon"]


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
        """Fill ``app``'s parse cache from the file for its theme, if there is a usable one."""
        kept = cls(app)
        identity = _identity(kept.stylesheet._variables)
        entries = _read(_file_for(identity), identity)
        cache = kept.stylesheet._parse_cache
        cache.grow(max(cache.maxsize, len(entries) + 64))  # room for all of them and what this run adds
        for key, rules in entries:
            cache.set(key, rules)
            kept.loaded.add(key)
        _KEPT[app] = kept
        return kept

    def save(self) -> None:
        """Write the file again if anything was parsed in this run (a first start, an edited ``.tcss``, another
        screen's widgets), keeping what other runs parsed; never raises (the next start parses again)."""
        cache = self.stylesheet._parse_cache
        fresh = [(key, cache.get(key)) for key in cache.keys() if key not in self.loaded]
        if not fresh:
            return
        identity = _identity(self.stylesheet._variables)
        path = _file_for(identity)
        with contextlib.suppress(Exception):
            known = {key for key, _ in fresh}
            entries = [entry for entry in _read(path, identity) if entry[0] not in known] + fresh
            data = pickle.dumps((identity, entries[-MOST:]), protocol=pickle.HIGHEST_PROTOCOL)
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            partial.write_bytes(data)
            os.replace(partial, path)
            self.loaded |= known  # kept now: saved again only if more is parsed


MOST = 200
"""The most stylesheets a file keeps (the app's own and every widget's default CSS are some 50): the newest."""


def _read(path: Path, identity: str) -> list[tuple[tuple[Any, ...], list[Any]]]:
    """The entries of a cache file written under ``identity``; none when it is missing, damaged, written under
    another identity or not what this code writes."""
    try:
        found, entries = pickle.loads(path.read_bytes())
    except Exception:
        return []
    if found != identity or not isinstance(entries, list):
        return []
    return [
        (key, rules)
        for key, rules in (entry for entry in entries if isinstance(entry, tuple) and len(entry) == 2)
        if isinstance(key, tuple) and isinstance(rules, list)
    ]
