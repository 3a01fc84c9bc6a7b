"""The compiled-code cache of the start-up (tui.code_cache): the same classes, compiled once, and a bad file ignored.

Each run is a fresh interpreter (installing the cache changes ``dataclasses`` and ``collections`` for the process).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tui import code_cache

# A module without ``from __future__ import annotations``: its dataclass's __init__ annotations are the types
# themselves, and must stay so when the generated code comes from the cache.
PROGRAM = r"""
import json, sys
from tui import code_cache
if sys.argv[1] == "install":
    code_cache.install()
import collections, dataclasses, inspect

@dataclasses.dataclass(frozen=True, kw_only=True)
class Event:
    seat: int
    cards: tuple[str, ...] = ()

Point = collections.namedtuple("Point", "x y")
import typing
Pair = typing.NamedTuple("Pair", [("left", "int"), ("right", "list[str]")])  # annotations as text: ForwardRefs
hints = typing.get_type_hints(Pair)
a, b = Event(seat=1, cards=("3D",)), Event(seat=1, cards=("3D",))
try:
    a.seat = 2
    frozen = False
except dataclasses.FrozenInstanceError:
    frozen = True
print(json.dumps({
    "repr": repr(a),
    "equal": a == b and hash(a) == hash(b) and a != Event(seat=2),
    "frozen": frozen,
    "annotations": {k: v if isinstance(v, str) else "a " + repr(v) for k, v in Event.__init__.__annotations__.items()},
    "signature": str(inspect.signature(Event)),
    "point": repr(Point(1, y=2)),
    "hints": {k: repr(v) for k, v in hints.items()},
    "fresh": code_cache._CACHE.fresh if code_cache._CACHE else None,
}))
code_cache.save()
"""


def run(cache: Path, mode: str = "install") -> dict[str, object]:
    return run_program(PROGRAM, cache, mode)


def run_program(program: str, cache: Path, *args: str) -> dict[str, object]:
    """``program`` in a fresh interpreter with its cache in ``cache``: the JSON it prints."""
    done = subprocess.run(
        [sys.executable, "-c", program, *args],
        env={"PARLOUR_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(__file__).parents[2])},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def the_file(cache: Path) -> Path:
    return cache / f"code-{sys.implementation.cache_tag}.marshal"


def test_a_second_start_compiles_nothing_and_makes_the_same_classes(tmp_path: Path) -> None:
    plain = run(tmp_path / "none", "plain")
    assert plain["fresh"] is None and not (tmp_path / "none").exists()  # not installed: Python compiles, no file

    first = run(tmp_path)
    assert isinstance(first["fresh"], int) and first["fresh"] >= 8  # __init__, __repr__, ..., __new__, "int"
    assert the_file(tmp_path).is_file()
    second = run(tmp_path)
    assert second["fresh"] == 0  # every piece of code came from the file
    for result in (first, second):
        assert {k: v for k, v in result.items() if k != "fresh"} == {k: v for k, v in plain.items() if k != "fresh"}
    # the types themselves, not their names (as code compiled under ``from __future__ import annotations`` has)
    assert plain["annotations"] == {
        "seat": "a <class 'int'>",
        "cards": "a tuple[str, ...]",
        "return": "a None",
    }
    assert plain["frozen"] is True and plain["equal"] is True
    assert plain["hints"] == {"left": "<class 'int'>", "right": "list[str]"}


@pytest.mark.parametrize(
    "damage",
    [b"", b"not marshal at all", b"\x00" * 64],
    ids=["empty", "garbage", "zeros"],
)
def test_a_damaged_file_is_ignored_and_replaced(tmp_path: Path, damage: bytes) -> None:
    tmp_path.mkdir(exist_ok=True)
    the_file(tmp_path).write_bytes(damage)
    result = run(tmp_path)
    assert isinstance(result["fresh"], int) and result["fresh"] > 0
    assert result["frozen"] is True and result["equal"] is True
    assert run(tmp_path)["fresh"] == 0  # the damaged file was replaced by a good one


def test_a_file_of_another_python_or_with_wrong_entries_is_not_used(tmp_path: Path) -> None:
    import marshal

    run(tmp_path)
    magic, tables = marshal.loads(the_file(tmp_path).read_bytes())
    assert magic == code_cache.MAGIC_NUMBER
    the_file(tmp_path).write_bytes(marshal.dumps((b"\x00\x00\r\n", tables)))  # another bytecode version
    assert run(tmp_path)["fresh"] != 0
    spoiled = {mode: {text: b"garbage" for text in tables[mode]} for mode in ("exec", "eval")}
    the_file(tmp_path).write_bytes(marshal.dumps((code_cache.MAGIC_NUMBER, spoiled)))  # entries that are not code
    result = run(tmp_path)
    assert result["fresh"] != 0 and result["equal"] is True


# Patterns compiled through the cache: the same patterns as re makes, served from the file on the second run.
REGEXES = r"""
import json, re, sys
from re import _compiler
from tui import code_cache
anew = _compiler.compile  # re's own compiler, before the cache is installed
code_cache.install()
patterns = [
    (r"(?P<rank>10|[2-9AJQK])(?P<suit>[SHDC])", 0),
    (r"\b\w+(?<=ing)\b", re.IGNORECASE),
    ("(?P<word>[a-z]+)  # a word\n    \\s*  # some space\n", re.VERBOSE),
    (b"[\x80-\xff]+", 0),
    (r"^(a|b)*?c{2,5}$", re.MULTILINE | re.DOTALL),
]
re.purge()
compiled = [re.compile(pattern, flags) for pattern, flags in patterns]
print(json.dumps({
    "same": [mine == anew(pattern, int(flags)) for mine, (pattern, flags) in zip(compiled, patterns)],
    "groups": [[mine.groups, sorted(mine.groupindex.items())] for mine in compiled],
    "matches": [
        compiled[0].fullmatch("10H").groupdict(),
        compiled[1].findall("Running and SWIMMING, not swim"),
        [m.group("word") for m in compiled[2].finditer("ab cd  ef")],
        compiled[3].findall(b"a\x80\x81b\xff").__repr__(),
        bool(compiled[4].search("x\nababcc")),
    ],
    "served": [(p, int(f)) in code_cache._CACHE.regexes for p, f in patterns if isinstance(p, str)],
    "fresh": code_cache._CACHE.fresh,
}))
code_cache.save()
"""


def run_regexes(cache: Path) -> dict[str, object]:
    return run_program(REGEXES, cache)


def test_regular_expressions_are_compiled_once_and_the_same(tmp_path: Path) -> None:
    first = run_regexes(tmp_path)
    assert first["same"] == [True] * 5 and first["served"] == [True] * 4
    assert isinstance(first["fresh"], int) and first["fresh"] >= 5
    second = run_regexes(tmp_path)
    assert second["fresh"] == 0  # every pattern's program came from the file
    assert second == {**first, "fresh": 0}  # equal to re's own patterns, matching the same
    assert first["matches"] == [
        {"rank": "10", "suit": "H"},
        ["Running", "SWIMMING"],
        ["ab", "cd", "ef"],
        "[b'\\x80\\x81', b'\\xff']",
        True,
    ]


def test_a_kept_program_that_is_damaged_or_of_another_engine_is_compiled_anew(tmp_path: Path) -> None:
    import marshal

    run_regexes(tmp_path)
    magic, tables = marshal.loads(the_file(tmp_path).read_bytes())
    stamp, programs = tables["regex"]
    assert stamp == code_cache.REGEX_STAMP and programs
    damaged = {key: (flags, (0, 1, 2), *rest) for key, (flags, _, *rest) in programs.items()}
    for regexes in [(stamp, damaged), ((stamp[0] + 1, stamp[1]), programs), "garbage"]:
        the_file(tmp_path).write_bytes(marshal.dumps((magic, {**tables, "regex": regexes})))
        result = run_regexes(tmp_path)
        assert isinstance(result["fresh"], int) and result["fresh"] >= 5  # none of them served
        assert result["same"] == [True] * 5
        assert run_regexes(tmp_path)["fresh"] == 0  # and the file holds good ones again


def test_once_the_app_has_started_re_compiles_as_ever() -> None:
    program = (
        "import re; from re import _compiler; from tui import code_cache\n"
        "anew = _compiler.compile; code_cache.install(); served = _compiler.compile is not anew\n"
        "re.compile('(?P<loading>a+)b')\n"
        "code_cache.started(); re.compile('(?P<typed>c+)d')\n"
        "kept = {pattern for pattern, _ in code_cache._CACHE.regexes}\n"
        "print(served, _compiler.compile is anew, '(?P<loading>a+)b' in kept, '(?P<typed>c+)d' in kept)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        env={
            "PARLOUR_CACHE_DIR": "/nonexistent",
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(Path(__file__).parents[2]),
        },
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.split() == ["True", "True", "True", "False"]
