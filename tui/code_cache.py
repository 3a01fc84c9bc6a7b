"""Code that Python writes at each start, compiled once: the methods of every dataclass and named tuple, and the
annotations that :mod:`typing` reads from text.

Python's :mod:`dataclasses` writes each class's ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` (and for a
frozen class ``__setattr__`` and ``__delattr__``) as source text and compiles it, at every start; so does
:func:`collections.namedtuple` for each ``__new__``, and :mod:`typing` for each annotation given as text to a
``NamedTuple`` or a generic type (a ``ForwardRef``). Parlour and Textual make some 90 dataclasses before the first
frame of a table: compiling their methods was about a seventh of the instructions of ``parlour play big2`` to its
first frame (220M of 1,470M, counted with callgrind), twice what the whole one-Static Textual app spends compiling.

:func:`install` (the first thing :mod:`tui.launch` does, before anything else is imported) has those three modules
take the compiled code from a file instead, keyed by the source text itself, as a ``.pyc`` keeps a module's: a
class whose fields changed writes other text, which is compiled as ever and kept too. The code is compiled exactly
as the modules would compile it (no compiler flag of this module's), so the methods are the same in every way.
The file is per Python bytecode version (its magic number is checked), lives in the user cache directory
(:func:`tui.user_cache.cache_dir`), and is only ever a copy: one that is missing, unreadable, from another Python
or damaged is ignored and replaced. :func:`save` writes it when this run compiled anything new (once the first
screen is drawn, and when the app ends); nothing else changes, and a process that never calls :func:`install`
(tests, ``python -c``) compiles as Python does.
"""

from __future__ import annotations

import builtins
import contextlib
import marshal
import os
import sys
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType
from typing import Any

from tui.user_cache import cache_dir

__all__ = ["install", "installed", "save"]

MOST = 4000
"""The most pieces of code the file keeps (Parlour's every screen needs some 700): past that, this run's alone."""

_MODES = ("exec", "eval")
"""``dataclasses`` calls ``exec`` on its text, ``collections`` calls ``eval`` and ``typing`` compiles for ``eval``:
one table of compiled code each."""


class _Cache:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.known: dict[str, dict[str, bytes]] = {mode: {} for mode in _MODES}
        """By mode, source text -> its compiled code, marshalled (unmarshalled only when the text comes up)."""
        self.fresh = 0
        """How many pieces of code this run compiled and the file does not hold yet."""
        self.used: dict[str, set[str]] = {mode: set() for mode in _MODES}
        """By mode, the source texts this run asked for."""

    def read(self) -> None:
        with contextlib.suppress(Exception):  # missing, unreadable, damaged: compile as ever
            with self.path.open("rb") as handle:
                magic, tables = marshal.load(handle)
            if magic == MAGIC_NUMBER and isinstance(tables, dict):
                for mode in _MODES:
                    table = tables.get(mode)
                    if isinstance(table, dict):
                        self.known[mode] = table

    def code(self, source: str, mode: str) -> CodeType:
        """``source`` compiled, from the file when it holds it."""
        table = self.known[mode]
        self.used[mode].add(source)
        data = table.get(source)
        if data is not None:
            with contextlib.suppress(Exception):
                code = marshal.loads(data)
                if type(code) is CodeType:
                    return code
        # dont_inherit: compiled as the text's own module compiles it, not with this module's __future__ flags
        code = compile(source, "<string>", mode, dont_inherit=True)
        table[source] = marshal.dumps(code)
        self.fresh += 1
        return code

    def save(self) -> None:
        if not self.fresh:
            return
        with contextlib.suppress(Exception):  # a cache that cannot be written is only a slower next start
            if sum(len(table) for table in self.known.values()) > MOST:
                self.known = {
                    mode: {text: code for text, code in table.items() if text in self.used[mode]}
                    for mode, table in self.known.items()
                }
            data = marshal.dumps((MAGIC_NUMBER, self.known))
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            partial.write_bytes(data)
            os.replace(partial, self.path)
            self.fresh = 0


_CACHE: _Cache | None = None


def cache_file() -> Path:
    """The file for this Python (its implementation and version: bytecode differs between them)."""
    return cache_dir() / f"code-{sys.implementation.cache_tag}.marshal"


def install() -> None:
    """Have ``dataclasses`` and ``collections`` compile through the cache from now on (once per process)."""
    global _CACHE
    if _CACHE is not None:
        return
    cache = _Cache(cache_file())
    cache.read()
    _CACHE = cache
    import collections
    import dataclasses
    import typing

    def cached_exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:
        if globals is None:  # as exec does: the caller's namespaces (they would be this function's)
            caller = sys._getframe(1)
            globals, locals = caller.f_globals, caller.f_locals if locals is None else locals
        if type(source) is str:
            source = cache.code(source, "exec")
        builtins.exec(source, globals, locals)

    def cached_eval(source: Any, globals: Any = None, locals: Any = None, /) -> Any:
        if globals is None:
            caller = sys._getframe(1)
            globals, locals = caller.f_globals, caller.f_locals if locals is None else locals
        if type(source) is str:
            source = cache.code(source, "eval")
        return builtins.eval(source, globals, locals)

    def cached_compile(source: Any, filename: Any, mode: str, *args: Any, **kwargs: Any) -> Any:
        if type(source) is str and filename == "<string>" and mode == "eval" and not args and not kwargs:
            return cache.code(source, "eval")
        return builtins.compile(source, filename, mode, *args, **kwargs)

    # Each module finds these names in its own globals before the builtins: only its own calls are served.
    dataclasses.exec = cached_exec  # type: ignore[attr-defined]
    collections.eval = cached_eval  # type: ignore[attr-defined]
    typing.compile = cached_compile  # type: ignore[attr-defined]


def installed() -> bool:
    return _CACHE is not None


def save() -> None:
    """Keep what this run compiled for the next start (nothing to do if it compiled nothing new); never raises."""
    if _CACHE is not None:
        _CACHE.save()
