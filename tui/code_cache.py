"""Code that Python writes at each start, compiled once: the methods of every dataclass and named tuple, the
annotations that :mod:`typing` reads from text, and the regular expressions the modules compile as they load.

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

Regular expressions are the same story: Textual, Rich and the standard library compile some 75 patterns as they
are imported (``re.compile`` at module level), in :mod:`re`'s own Python parser and compiler, about a tenth of the
import time of ``parlour play chase``. The file also keeps each pattern's compiled program (the list of numbers
:mod:`re` hands to its C engine, which checks it), keyed by the pattern and its flags and stamped with the engine's
version (``_sre.MAGIC``); a pattern not in the file is compiled by :mod:`re` as ever, and its program is kept only
if it makes a pattern equal to the one :mod:`re` made (equal patterns have the same program, text and flags), so
a Python whose compiler works otherwise is simply not served from the file.
"""

from __future__ import annotations

import _sre
import builtins
import contextlib
import marshal
import os
import sys
from collections.abc import Callable
from functools import partial
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType
from typing import Any

from tui.user_cache import cache_dir

__all__ = ["install", "installed", "save", "started"]

MOST = 4000
"""The most pieces of code the file keeps (Parlour's every screen needs some 700): past that, this run's alone."""

_MODES = ("exec", "eval")
"""``dataclasses`` calls ``exec`` on its text, ``collections`` calls ``eval`` and ``typing`` compiles for ``eval``:
one table of compiled code each."""


REGEX_STAMP = (_sre.MAGIC, _sre.CODESIZE)
"""The version of :mod:`re`'s engine and the size of its code units: a compiled program is for these only."""

Program = tuple[int, tuple[int, ...], int, tuple[tuple[str, int], ...], tuple[str | None, ...]]
"""A pattern compiled: its flags, its program, its number of groups, its named groups and each group's name."""


class _Cache:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.known: dict[str, dict[str, bytes]] = {mode: {} for mode in _MODES}
        """By mode, source text -> its compiled code, marshalled (unmarshalled only when the text comes up)."""
        self.regexes: dict[tuple[str | bytes, int], Program] = {}
        """(pattern, flags) -> the pattern's compiled program."""
        self.used_regexes: set[tuple[str | bytes, int]] = set()
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
                regexes = tables.get("regex")
                if isinstance(regexes, tuple) and len(regexes) == 2 and regexes[0] == REGEX_STAMP:
                    self.regexes = dict(regexes[1])

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

    def regex(self, pattern: str | bytes, flags: int, compile_anew: Any) -> Any:
        """``pattern`` compiled with ``flags``: from its program in the file, or by ``compile_anew`` (re's own
        compiler) and its program kept."""
        key = (pattern, flags)
        self.used_regexes.add(key)
        found = self.regexes.get(key)
        if found is not None:
            with contextlib.suppress(Exception):  # (damaged: compiled anew below)
                return _sre.compile(pattern, *_arguments(found))
        compiled = compile_anew(pattern, flags)
        with contextlib.suppress(Exception):  # a pattern re's parser takes otherwise than this is just not kept
            program = _program(pattern, flags)
            if _sre.compile(pattern, *_arguments(program)) == compiled:
                self.regexes[key] = program
                self.fresh += 1
        return compiled

    def save(self) -> None:
        if not self.fresh:
            return
        with contextlib.suppress(Exception):  # a cache that cannot be written is only a slower next start
            if sum(len(table) for table in self.known.values()) + len(self.regexes) > MOST:
                self.known = {
                    mode: {text: code for text, code in table.items() if text in self.used[mode]}
                    for mode, table in self.known.items()
                }
                self.regexes = {key: found for key, found in self.regexes.items() if key in self.used_regexes}
            tables: dict[str, Any] = {**self.known, "regex": (REGEX_STAMP, self.regexes)}
            data = marshal.dumps((MAGIC_NUMBER, tables))
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            partial.write_bytes(data)
            os.replace(partial, self.path)
            self.fresh = 0


def _program(pattern: str | bytes, flags: int) -> Program:
    """``pattern`` parsed and compiled as :func:`re._compiler.compile` does, up to the program it hands the engine."""
    from re import _compiler, _parser  # type: ignore[attr-defined]

    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    names = parsed.state.groupdict
    index: list[str | None] = [None] * parsed.state.groups
    for name, number in names.items():
        index[number] = name
    return (
        int(flags | parsed.state.flags),
        tuple(map(int, code)),
        parsed.state.groups - 1,
        tuple(names.items()),
        tuple(index),
    )


def _arguments(program: Program) -> tuple[Any, ...]:
    final, code, groups, names, index = program
    return final, list(code), groups, dict(names), index


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

    from re import DEBUG, _compiler  # type: ignore[attr-defined]

    compile_anew = _compiler.compile

    def cached_regex(pattern: Any, flags: int = 0) -> Any:
        if type(pattern) in (str, bytes) and type(flags) is int and not flags & DEBUG:
            return cache.regex(pattern, flags, compile_anew)
        return compile_anew(pattern, flags)

    # Each module finds these names in its own globals before the builtins: only its own calls are served.
    dataclasses.exec = cached_exec  # type: ignore[attr-defined]
    collections.eval = cached_eval  # type: ignore[attr-defined]
    typing.compile = cached_compile  # type: ignore[attr-defined]
    _compiler.compile = cached_regex  # (re.compile and the like, past re's own cache, call it)
    _UNDO.append(partial(setattr, _compiler, "compile", compile_anew))


_UNDO: list[Callable[[], None]] = []
"""What puts :mod:`re`'s own compiler back (:func:`started`)."""


def started() -> None:
    """The app has started: from now on :mod:`re` compiles as ever. The patterns worth keeping are those modules
    compile as they load; a running app's (a search typed in the command palette, a highlight) are made from what
    a person types, and would only grow the file."""
    while _UNDO:
        _UNDO.pop()()


def installed() -> bool:
    return _CACHE is not None


def save() -> None:
    """Keep what this run compiled for the next start (nothing to do if it compiled nothing new); never raises."""
    if _CACHE is not None:
        _CACHE.save()
