"""No patches: Parlour's own code (engine/ and tui/, and its tests and benchmarks) never changes the standard
library or a dependency, and never uses their private (underscore) names.

Read from the source (ast), each module on its own:

- (a) no assignment, deletion, ``setattr`` or ``delattr`` on anything imported from outside Parlour (a module, or
  a class or function taken from one), nor on an attribute reached through it;
- (b) no import of a private module or name from outside Parlour (``textual._x``, ``from x import _y``);
- (c) no ``obj._y`` whose name Parlour itself never defines (a function, method, class or module global of ours, a
  ``self._y =``): such a name is a dependency's.

And from the classes, imported: (d) no class of ours defines a private attribute (underscore, not a dunder) that a
base class from outside Parlour already has (overriding a dependency's internals).

:data:`ALLOW` lists what has no public way; each entry says why, and where the check of the dependency's version
that guards it is.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
OURS = ("engine", "tui")
"""Parlour's packages: anything imported from elsewhere is the standard library's or a dependency's."""
READ = (*OURS, "tests", "benchmarks")
"""The folders whose code is checked: the product's, and what tests and measures it."""
LOCAL = frozenset(
    p.stem if p.suffix == ".py" else p.name
    for folder in ("tests", "benchmarks")
    for p in (ROOT / folder).rglob("*")
    if (p.suffix == ".py" or (p / "__init__.py").exists()) and "__pycache__" not in p.parts
)
"""The modules of the tests and benchmarks (imported by their own names: ``tui_helpers``, ``parlour_bench``)."""


class Allowed(NamedTuple):
    path: str
    """The file (from the repository's root)."""
    kind: str
    """``import`` (b) or ``attribute`` (c)."""
    name: str
    """The module or name imported, or the attribute used."""
    reason: str
    guard: str
    """Where the version check that keeps it safe is (a dependency's private names can change in any release)."""


NAMEDTUPLE_API = "the documented API of typing.NamedTuple / collections.namedtuple, underscored to avoid field names"

GUARD = (
    "tui/terminal/textual_version.py: textual_checked() (the installed textual is one checked; "
    "else Textual's public way)"
)

ALLOW: tuple[Allowed, ...] = (
    Allowed(
        "tui/terminal/driver.py",
        "import",
        "textual._xterm_parser.XTermParser",
        "the quick-exit input loop parses keys as Textual's own loop does; Textual has no public key parser",
        GUARD + ", at tui/terminal/driver.py use_quick_exit (else LinuxDriver)",
    ),
    Allowed(
        "tui/terminal/driver.py",
        "import",
        "textual._parser.ParseError",
        "what XTermParser raises on a last, unfinished key sequence (Textual's loop catches the same)",
        GUARD + ", at tui/terminal/driver.py use_quick_exit (else LinuxDriver)",
    ),
    Allowed(
        "tui/widgets/key_footer.py",
        "attribute",
        "_disabled",
        "a footer key greyed in place must ring when clicked, as one built greyed does; no public setter",
        GUARD + ", at KeyFooter.bindings_changed (else the footer is rebuilt)",
    ),
)

ALLOW += (
    Allowed(
        "benchmarks/parlour_bench/app.py",
        "attribute",
        "_exit",
        "os._exit in the forked child whose exec failed, the one use the documentation of os gives it (the parent's "
        "exit handlers and buffers must not run twice); measurement code, not the product",
        "the standard library (no version to check)",
    ),
)

ENUM_API = "the documented API of enum (its _sunder_ names: a member's value, the hook for values not found)"

for _name in ("_replace", "_asdict", "_fields", "_make", "_field_defaults"):
    ALLOW += (Allowed("*", "attribute", _name, NAMEDTUPLE_API, "the standard library (no version to check)"),)
for _name in ("_value_", "_name_", "_missing_", "_generate_next_value_"):
    ALLOW += (Allowed("*", "attribute", _name, ENUM_API, "the standard library (no version to check)"),)


def allowed(path: str, kind: str, name: str) -> bool:
    return any(a.kind == kind and a.name == name and a.path in ("*", path) for a in ALLOW)


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def sources(folders: tuple[str, ...] = READ) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def is_ours(module: str) -> bool:
    first = module.split(".")[0]
    return first in OURS or first in LOCAL or module in TESTED_HERE


TESTED_HERE = {"fake_screens"}
"""The module this test writes to try the override check on (counted as Parlour's)."""


class Problem(NamedTuple):
    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


def root_name(node: ast.expr) -> str | None:
    """The name an attribute chain (``a.b.c``) or subscript starts from."""
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def foreign_names(tree: ast.Module) -> dict[str, str]:
    """The names a module binds by importing from outside Parlour (anywhere in it), with what they came from."""
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not is_ours(alias.name):
                    found[alias.asname or alias.name.split(".")[0]] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and not is_ours(node.module):
            for alias in node.names:
                found[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return found


def defined_private_names(trees: dict[str, ast.Module]) -> set[str]:
    """Every private name Parlour defines: functions, methods, classes, globals and class attributes, names bound by
    ``self._x =`` (or ``cls._x``), parameters and keyword names of ours."""
    names: set[str] = set()

    def bind(target: ast.expr) -> None:
        if isinstance(target, ast.Name):
            names.add(target.id)
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            if target.value.id in ("self", "cls"):
                names.add(target.attr)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                bind(element)
        elif isinstance(target, ast.Starred):
            bind(target.value)

    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    bind(target)
            elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.NamedExpr):
                bind(node.target)
            elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
                bind(node.target)
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                bind(node.optional_vars)
            elif isinstance(node, ast.ImportFrom) and node.module and is_ours(node.module):
                names.update(alias.asname or alias.name for alias in node.names)
            elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
                if isinstance(node.value, ast.Attribute) and node.value.attr == "__dict__":  # obj.__dict__["_x"] =
                    if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                        names.add(node.slice.value)
    return {name for name in names if is_private(name)}


def problems_in(path: str, tree: ast.Module, ours: set[str]) -> Iterator[Problem]:
    foreign = foreign_names(tree)

    def foreign_root(node: ast.expr) -> str | None:
        name = root_name(node)
        return foreign.get(name) if name is not None else None

    for node in ast.walk(tree):
        where = f"{path}:{getattr(node, 'lineno', 0)}"
        # (a) writing into what was imported from outside
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = list(node.targets)
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and isinstance(part.ctx, ast.Store | ast.Del):
                    source = foreign_root(part.value)
                    if source is not None:
                        yield Problem(where, f"assigns {ast.unparse(part)} (into {source})")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("setattr", "delattr")
            and node.args
        ):
            source = foreign_root(node.args[0])
            if source is not None:
                yield Problem(where, f"{node.func.id} on {ast.unparse(node.args[0])} (from {source})")
        # (b) private modules and names from outside
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not is_ours(alias.name) and any(is_private(p) for p in alias.name.split(".")):
                    if not allowed(path, "import", alias.name):
                        yield Problem(where, f"imports the private module {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and not is_ours(node.module):
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if any(is_private(p) for p in full.split(".")) and not allowed(path, "import", full):
                    yield Problem(where, f"imports the private name {full}")
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and ast.unparse(node.func) in ("importlib.import_module", "import_module", "__import__")
        ):
            module = node.args[0].value
            if not is_ours(module) and any(is_private(p) for p in module.split(".")):
                if not allowed(path, "import", module):
                    yield Problem(where, f"imports the private module {module}")
        # (c) a private attribute Parlour never defines is a dependency's
        if isinstance(node, ast.Attribute) and is_private(node.attr) and node.attr not in ours:
            if not allowed(path, "attribute", node.attr):
                yield Problem(where, f"uses {ast.unparse(node)} (no {node.attr} of Parlour's)")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr", "setattr", "delattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            name = node.args[1].value
            if is_private(name) and name not in ours and not allowed(path, "attribute", name):
                yield Problem(where, f"{node.func.id}(..., {name!r}) (no {name} of Parlour's)")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr", "setattr", "delattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.JoinedStr)
            and node.args[1].values
            and isinstance(first := node.args[1].values[0], ast.Constant)
            and isinstance(first.value, str)
            and first.value.startswith("_")
        ):
            prefix = first.value  # f"_{x}": a private name made at run time; Parlour's if ours start so
            if not any(name.startswith(prefix) for name in ours) or prefix.startswith("__"):
                yield Problem(where, f"{node.func.id}(..., {ast.unparse(node.args[1])}) (no {prefix}… of Parlour's)")


@functools.cache
def parsed(path: Path) -> ast.Module:
    """The syntax tree of the file at ``path``, parsed once for every check of this run that reads it."""
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def source_problems(paths: list[Path]) -> list[Problem]:
    trees = {rel(p): parsed(p) for p in paths}
    ours = defined_private_names(trees)
    return [problem for path, tree in trees.items() for problem in problems_in(path, tree, ours)]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def classes_of(modules: list[str]) -> list[type]:
    """The classes the modules ``modules`` define (imported)."""
    found: list[type] = []
    for name in modules:
        module = importlib.import_module(name)
        found += [cls for cls in vars(module).values() if inspect.isclass(cls) and cls.__module__ == name]
    return found


def class_node(cls: type) -> ast.ClassDef | None:
    """The statement that defines ``cls`` in its module's source: found by its qualified name, else (a class made
    inside a function, or under an ``if``) the first class of that name in the module."""
    file = getattr(inspect.getmodule(cls), "__file__", None)
    if not file or not file.endswith(".py"):
        return None
    tree = parsed(Path(file))
    body: list[ast.stmt] = tree.body
    node: ast.ClassDef | None = None
    for part in cls.__qualname__.split("."):
        node = next((n for n in body if isinstance(n, ast.ClassDef) and n.name == part), None)
        if node is None:
            break
        body = node.body
    if node is not None:
        return node
    return next((n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == cls.__name__), None)


def body_names(cls: type) -> set[str]:
    """The names the body of ``cls`` (its source) defines: methods, class attributes (not what a metaclass adds)."""
    found = class_node(cls)
    nodes = [] if found is None else [found]
    names: set[str] = set()
    for node in nodes[:1]:
        for statement in node.body:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(statement.name)
            elif isinstance(statement, ast.Assign):
                names.update(t.id for t in statement.targets if isinstance(t, ast.Name))
            elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                names.add(statement.target.id)
    return names


def override_problems(classes: list[type]) -> list[Problem]:
    """(d) A private attribute (not a dunder) that the body of a class of ours defines, and a base class from outside
    Parlour later in the method order of a class of ours has too: a dependency's internals replaced (also through a
    mixin of ours that does not itself inherit from the dependency)."""
    found: list[Problem] = []
    for cls in classes:
        foreign_bases = [base for base in cls.__mro__ if not is_ours(base.__module__) and base is not object]
        for index, own in enumerate(cls.__mro__):
            if not is_ours(own.__module__):
                continue
            path = own.__module__.replace(".", "/") + ".py"
            later = [base for base in cls.__mro__[index + 1 :] if base in foreign_bases]
            for attr in sorted(body_names(own)):
                if not is_private(attr) or allowed(path, "attribute", attr):
                    continue
                owners = [base for base in later if attr in vars(base)]
                if owners:
                    owner = owners[0]
                    what = f"overrides {owner.__module__}.{owner.__qualname__}.{attr}"
                    where = f"{own.__module__}.{own.__qualname__}" + (
                        f" (in {cls.__qualname__})" if own is not cls else ""
                    )
                    problem = Problem(where, what)
                    if problem not in found:
                        found.append(problem)
    return found


# Modules that need what the test machine may lack, or end the process as they are imported.
NOT_IMPORTED = frozenset({"tui.__main__"})


def test_no_module_of_parlour_patches_or_uses_private_names() -> None:
    problems = source_problems(sources())
    assert not problems, "\n".join(map(str, problems))


def test_no_class_of_parlour_overrides_a_private_attribute_of_a_dependency() -> None:
    modules = [module_name(p) for p in sources(OURS) if module_name(p) not in NOT_IMPORTED]
    problems = override_problems(classes_of(modules))
    assert not problems, "\n".join(map(str, problems))


def test_every_allowed_entry_is_still_needed() -> None:
    """An entry no file needs any more goes (the list stays short and true)."""
    trees = {rel(p): parsed(p) for p in sources()}
    for entry in ALLOW:
        if entry.path == "*":
            continue
        tree = trees[entry.path]
        imported = {
            f"{node.module}.{alias.name}"
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
            for alias in node.names
        } | {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        used = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        assert entry.name in (imported if entry.kind == "import" else used), entry


# -- the checks themselves, on code written to break them --------------------------------------------------------
BAD = {
    "assign": "import dataclasses\ndataclasses.exec = print\n",
    "assign through": "from textual.drivers import linux_driver\nlinux_driver.LinuxDriver.write = print\n",
    "setattr": "import re\nsetattr(re, 'compile', print)\n",
    "private module": "import re._compiler\n",
    "private from": "from textual._loop import loop_last\n",
    "private name": "from re import _compiler\n",
    "private attribute": "import os\nos._exit(0)\n",
    "foreign self attribute": "class A:\n    def f(self):\n        return self._driver\n",
    "getattr private": "import textual.app\ngetattr(textual.app.App, '_close_all')\n",
    "getattr made private": "def f(app, x):\n    return getattr(app, f'_close_{x}')\n",
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_the_source_check_finds_a_patch_or_a_private_name(case: str, tmp_path: Path) -> None:
    tree = ast.parse(BAD[case])
    assert list(problems_in("x.py", tree, set())), case


def test_the_source_check_lets_our_own_private_names_be() -> None:
    tree = ast.parse("class A:\n    def _f(self):\n        self._x = 1\n        return self._x, self._f()\n")
    ours = defined_private_names({"x.py": tree})
    assert ours == {"_f", "_x"} and not list(problems_in("x.py", tree, ours))


def test_the_override_check_finds_an_override_of_a_private_method(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "fake_screens.py").write_text(
        "from textual.app import App\n\n\nclass Bad(App):\n    def _close_all(self):\n        pass\n\n"
        "    def _ours(self):\n        pass\n\n\nclass Mixin:\n"
        "    def _load_screen_css(self, screen):\n        pass\n\n\nclass Mixed(Mixin, App):\n    pass\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    found = override_problems(classes_of(["fake_screens"]))
    assert [str(problem) for problem in found] == [
        "fake_screens.Bad: overrides textual.app.App._close_all",
        "fake_screens.Mixin (in Mixed): overrides textual.app.App._load_screen_css",
    ]
