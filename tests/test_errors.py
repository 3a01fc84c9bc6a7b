"""One error tree: every exception class defined in ``engine/`` and ``tui/`` is a :class:`ParlourError`, or is named
in :data:`OUTSIDE` with the reason it is deliberately not one (its docstring says it too).

The classes are found both ways: every module imported and :meth:`type.__subclasses__` walked from
:class:`BaseException`, and every ``class`` statement of the source read (so one defined inside a function, or in a
module the walk did not reach, is not missed).
"""

from __future__ import annotations

import ast
import builtins
import importlib
import importlib.util
from collections.abc import Iterable, Mapping
from pathlib import Path

from engine.errors import ParlourError

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "tui")

OUTSIDE: Mapping[str, str] = {
    "engine.bots.DecisionCancelled": "a signal that unwinds a bot's decision when the table closes, not a refusal",
    "engine.records.paths.UnreadableError": "an OSError: readers catch it with the system's errors on the same file",
    "engine.records.stats._UnknownSchema": "private: it never leaves engine/records/stats.py",
}
"""The exception classes deliberately outside the tree (with their subclasses), each with its reason."""


def _module_names() -> list[str]:
    names = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__main__":  # running it starts the app
                continue
            if parts[-1] == "__init__":
                parts.pop()
            names.append(".".join(parts))
    return names


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _ours(cls: type) -> bool:
    return cls.__module__.split(".")[0] in PACKAGES


def exception_classes() -> dict[str, type[BaseException]]:
    """Every exception class of ours that importing every module of ``engine`` and ``tui`` defines."""
    for module in _module_names():
        importlib.import_module(module)
    found: dict[str, type[BaseException]] = {}
    todo: list[type[BaseException]] = [BaseException]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub not in todo and _name(sub) not in found:
                todo.append(sub)
                if _ours(sub):
                    found[_name(sub)] = sub
    return found


def outside_the_tree(classes: Iterable[type[BaseException]], outside: Iterable[str] = OUTSIDE) -> list[str]:
    """The classes that are neither under :class:`ParlourError` nor (a subclass of) one named in ``outside``."""
    allowed = set(outside)
    return sorted(
        _name(cls)
        for cls in classes
        if not issubclass(cls, ParlourError) and not any(_name(base) in allowed for base in cls.__mro__)
    )


def _class_statements() -> list[tuple[str, str, list[str]]]:
    """Every ``class`` statement of the source: its module, its name, and the last part of each base's name."""
    out = []
    for module in _module_names():
        spec = importlib.util.find_spec(module)
        assert spec is not None and spec.origin is not None, module
        tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = [
                    base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
                    for base in node.bases
                ]
                out.append((module, node.name, bases))
    return out


def test_every_exception_class_is_in_the_tree_or_named_outside_it() -> None:
    classes = exception_classes()
    assert not outside_the_tree(classes.values()), (
        "exception classes outside ParlourError and not in OUTSIDE:\n" + "\n".join(outside_the_tree(classes.values()))
    )


def test_the_walk_finds_the_known_classes_and_every_class_statement() -> None:
    """The walk is not vacuous (it finds errors of every layer), and no ``class`` statement whose base is an
    exception escapes it (one inside a function would)."""
    classes = exception_classes()
    for name in (
        "engine.errors.NotYourTurnError",
        "engine.lan.protocol.ProtocolError",
        "engine.lan.client.HostError",
        "engine.play.bot_process.BotProcessLost",
        "engine.records.paths.TooLargeError",
        "tui.settings.file.SettingsError",
        *OUTSIDE,
    ):
        assert name in classes, name
    exception_names = {name.rpartition(".")[2] for name in classes} | {
        name for name, value in vars(builtins).items() if isinstance(value, type) and issubclass(value, BaseException)
    }
    missed = [
        f"{module}.{name}"
        for module, name, bases in _class_statements()
        if set(bases) & exception_names and f"{module}.{name}" not in classes
    ]
    assert not missed, missed


def test_each_class_outside_says_why_in_its_docstring() -> None:
    classes = exception_classes()
    for name in OUTSIDE:
        assert not issubclass(classes[name], ParlourError), f"{name} is in the tree now: take it off OUTSIDE"
        assert "Deliberately" in (classes[name].__doc__ or ""), name


def test_the_check_refuses_a_class_planted_outside_the_tree() -> None:
    class Planted(ValueError):
        pass

    class InTheTree(ParlourError, ValueError):
        pass

    classes = exception_classes()
    assert outside_the_tree([Planted, InTheTree, *classes.values()]) == [_name(Planted)]
    # Without its entry, an outsider and its subclasses are refused too.
    unread = {name for name in classes if issubclass(classes[name], classes["engine.records.paths.UnreadableError"])}
    others = [name for name in OUTSIDE if name != "engine.records.paths.UnreadableError"]
    assert set(outside_the_tree(classes.values(), others)) == unread


def test_the_errors_of_the_network_and_the_settings_keep_their_codes_and_bases() -> None:
    """The classes brought into the tree are still caught as before (``except ValueError``, ``except
    RuntimeError``) and carry a ``code``."""
    from engine.lan.client import HostError
    from engine.lan.protocol import BAD_FIELD, ProtocolError, parse_line
    from engine.play.bot_process import BotProcessLost
    from tui.settings.file import SettingsError, loads

    try:
        parse_line('{"type": "sit", "table": "ABCD"}')
    except ParlourError as err:
        assert isinstance(err, ProtocolError) and err.code == BAD_FIELD
    else:
        raise AssertionError("a sit without its seat was read")
    assert HostError({"type": "error", "code": "name_taken", "message": "taken"}).code == "name_taken"
    assert issubclass(BotProcessLost, RuntimeError) and BotProcessLost.code == "bot_lost"
    try:
        loads("name = 3")
    except ValueError as err:
        assert isinstance(err, SettingsError) and isinstance(err, ParlourError) and err.code == "bad_settings"
    else:
        raise AssertionError("a name that is a number was taken")
