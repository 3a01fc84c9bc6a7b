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
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, mode],
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
    spoiled = {mode: {text: b"garbage" for text in table} for mode, table in tables.items()}
    the_file(tmp_path).write_bytes(marshal.dumps((code_cache.MAGIC_NUMBER, spoiled)))  # entries that are not code
    result = run(tmp_path)
    assert result["fresh"] != 0 and result["equal"] is True
