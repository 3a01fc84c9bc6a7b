"""The shape of the imports, read from the source (ARCHITECTURE: the layers).

- No import circle anywhere in ``engine/`` and ``tui/``: the module graph is built from the AST of every ``.py``
  file, imports inside functions included (they run too, only later), imports under ``if TYPE_CHECKING:``
  excluded (they never run).
- Asyncio only in ``engine/lan/``; nothing under ``engine/`` imports Textual or the UI.
- The layers, as each package's opening docstring says them (:func:`refusal`): the engine's core (the modules
  directly in ``engine/``, ``engine/bots.py``, ``engine/games/``) imports neither ``engine.play``, ``engine.lan``,
  ``engine.records`` nor the UI, and none of asyncio, socket, subprocess, threading, sqlite3 (but for
  :data:`CORE_EXCEPTIONS`); a game never imports another game, on either side; ``engine.play`` never imports
  ``engine.lan``; ``engine.records`` imports the core only; each package of ``tui`` imports only the packages its
  docstring names (:data:`TUI_LAYERS`). Each rule is shown to refuse an import planted to break it.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Collection, Iterable, Mapping
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "tui")

Graph = Mapping[str, Iterable[str]]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_files() -> dict[str, Path]:
    files = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            files[module_name(path)] = path
    return files


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


class _ImportFinder(ast.NodeVisitor):
    """Every module a file imports (absolute names), with the line of its first import."""

    def __init__(self, module: str, is_package: bool, modules: Collection[str]) -> None:
        self.package = module if is_package else module.rpartition(".")[0]
        self.modules = modules
        self.found: dict[str, int] = {}

    def _add(self, name: str, line: int) -> None:
        self.found.setdefault(name, line)

    def visit_If(self, node: ast.If) -> None:
        if _is_type_checking(node.test):
            for statement in node.orelse:  # the ``else`` of ``if TYPE_CHECKING`` runs
                self.visit(statement)
        else:
            self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            parts = self.package.split(".")
            base_parts = parts[: len(parts) - (node.level - 1)]
            base = ".".join([*base_parts, node.module] if node.module else base_parts)
        else:
            base = node.module or ""
        for alias in node.names:
            # ``from a import b`` imports the module ``a.b`` if there is one, else the name ``b`` from ``a``.
            full = f"{base}.{alias.name}"
            self._add(full if full in self.modules else base, node.lineno)

    def visit_Call(self, node: ast.Call) -> None:
        # importlib.import_module("engine.games") and __import__("...") with a constant name are imports too.
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in ("import_module", "__import__") and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                self._add(first.value, node.lineno)
        self.generic_visit(node)


def imports_of(
    source: str, module: str, is_package: bool = False, modules: Collection[str] = frozenset()
) -> dict[str, int]:
    """Every module ``module`` imports, with the line of its first import; ``modules`` are the modules of ours,
    to tell ``from engine import codec`` (the module ``engine.codec``) from ``from engine.registry import get_entry``
    (a name from ``engine.games``)."""
    finder = _ImportFinder(module, is_package, modules)
    finder.visit(ast.parse(source))
    return finder.found


def _resolve(name: str, modules: Collection[str]) -> str | None:
    """The module of ours that importing ``name`` runs: ``name`` itself, or its longest prefix that is a module."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules:
            return candidate
    return None


def file_imports(module: str, files: Mapping[str, Path]) -> dict[str, int]:
    path = files[module]
    return imports_of(path.read_text(encoding="utf-8"), module, path.name == "__init__.py", files.keys())


def import_graph() -> tuple[dict[str, dict[str, int]], dict[str, Path]]:
    """Module -> {module of ours it imports: line}.

    Importing ``engine.games.chase.rules`` runs ``engine/games/__init__.py`` first, but a package that imports its own
    submodules is not a circle: only the module named is an edge.
    """
    files = source_files()
    graph: dict[str, dict[str, int]] = {}
    for module in files:
        edges: dict[str, int] = {}
        for name, line in file_imports(module, files).items():
            target = _resolve(name, files.keys())
            if target is not None and target != module:
                edges.setdefault(target, line)
        graph[module] = edges
    return graph, files


def tangles(graph: Graph) -> list[set[str]]:
    """The strongly connected components that hold a circle (Tarjan): every module in one reaches every other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            components.append(component)

    for node in sorted(graph):
        if node not in index:
            connect(node)

    return [set(c) for c in components if len(c) > 1 or c[0] in set(graph.get(c[0], ()))]


def find_cycles(graph: Graph) -> list[list[str]]:
    """One circle per tangle, as ``[a, b, ..., a]`` from the tangle's first module."""
    return sorted(_path_back(graph, min(members), members) for members in tangles(graph))


def _path_back(graph: Graph, start: str, members: set[str]) -> list[str]:
    """A shortest way from ``start`` back to itself inside its component (breadth first)."""
    parent: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in sorted(graph.get(node, ())):
            if nxt == start:
                path = [node]
                while (before := parent[path[-1]]) is not None:
                    path.append(before)
                return [*reversed(path), start]
            if nxt in members and nxt not in parent:
                parent[nxt] = node
                queue.append(nxt)
    raise AssertionError(f"{start} has no way back in its component")


# -- the cycle finder and the reader find what they should (so a pass means something) -----------------------------
def test_the_cycle_finder_finds_a_cycle_in_a_tiny_graph() -> None:
    graph = {"a": ["b"], "b": ["c"], "c": ["a", "d"], "d": [], "e": ["a"]}
    assert find_cycles(graph) == [["a", "b", "c", "a"]]
    assert find_cycles({"x": ["x"], "y": []}) == [["x", "x"]]
    assert find_cycles({"a": ["b"], "b": ["c"], "c": []}) == []


def test_the_reader_sees_function_imports_and_skips_type_checking() -> None:
    source = (
        "from __future__ import annotations\n"
        "import typing\n"
        "from typing import TYPE_CHECKING\n"
        "from engine import codec\n"
        "from .table import Table\n"
        "if TYPE_CHECKING:\n"
        "    from engine.bots import Bot\n"
        "else:\n"
        "    import engine.events\n"
        "if typing.TYPE_CHECKING:\n"
        "    import tui.apps.parlour\n"
        "def later():\n"
        "    import engine.games\n"
        "    importlib.import_module('engine.simulate')\n"
    )
    found = imports_of(source, "engine.play.table_host", modules={"engine.codec", "engine.play.table"})
    assert {"engine.codec", "engine.play.table", "engine.events", "engine.games", "engine.simulate"} <= set(found)
    assert "engine" not in found  # ``from engine import codec`` imports the module engine.codec
    assert not {"engine.bots", "tui.apps.parlour"} & set(found)
    assert found["engine.games"] == 13


def test_the_graph_holds_known_edges() -> None:
    graph, files = import_graph()
    assert {"engine.cards", "engine.table", "tui.cli"} <= set(files)
    assert "engine.errors" in graph["engine.cards"]
    assert "engine.registry" in graph["tui.cli"]


# -- the rules themselves -----------------------------------------------------------------------------------------
def test_no_import_circle_in_engine_or_tui() -> None:
    graph, files = import_graph()
    reports = []
    for members in tangles(graph):
        cycle = _path_back(graph, min(members), members)
        inside = sorted(
            (str(files[a].relative_to(ROOT)), line, b) for a in members for b, line in graph[a].items() if b in members
        )
        lines = [f"{path}:{line} imports {b}" for path, line, b in inside]
        reports.append(
            " → ".join(cycle) + f"; the imports among its {len(members)} modules:\n      " + "\n      ".join(lines)
        )
    assert not reports, "import circles:\n  " + "\n  ".join(reports)


def _importers(prefixes: tuple[str, ...], where: Iterable[str]) -> list[str]:
    files = source_files()
    out = []
    for module in where:
        path = files[module]
        for name, line in file_imports(module, files).items():
            if name.split(".")[0] in prefixes:
                out.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    return sorted(set(out))


def test_asyncio_only_in_engine_lan() -> None:
    outside = [m for m in source_files() if not (m == "engine.lan" or m.startswith("engine.lan."))]
    offenders = _importers(("asyncio",), outside)
    assert not offenders, "asyncio belongs in engine/lan only:\n" + "\n".join(offenders)


@pytest.mark.parametrize("forbidden", ["textual", "tui"])
def test_engine_imports_no_ui(forbidden: str) -> None:
    engine = [m for m in source_files() if m.split(".")[0] == "engine"]
    offenders = _importers((forbidden,), engine)
    assert not offenders, f"the engine imports {forbidden}:\n" + "\n".join(offenders)


# -- the layers ---------------------------------------------------------------------------------------------------
CORE_REFUSES = ("engine.play", "engine.lan", "engine.records", "tui", "textual")
"""What the engine's core never imports of Parlour's own (or Textual)."""
CORE_NO_IO = ("asyncio", "socket", "subprocess", "threading", "sqlite3")
"""The standard library's I/O and concurrency, which the core never imports (but for :data:`CORE_EXCEPTIONS`)."""
CORE_EXCEPTIONS: Mapping[tuple[str, str], str] = {
    ("engine.registry", "threading"): "a lock while a game is loaded: bots on other threads may ask for it at once",
    ("engine.simulate", "threading"): "is this the main thread, before it holds signals for its worker processes?",
}
"""The core's imports of :data:`CORE_NO_IO` that stay for now, each with its reason (a test keeps every one needed)."""

TUI_LAYERS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # package: (what of tui it may import, what of the engine: "core", "engine.play", "engine.lan", "engine.records")
    "tui.terminal": (("tui", "tui.terminal.*"), ()),
    "tui.words": (("tui.words", "tui.words.*"), ("core",)),
    "tui.widgets": (("tui.widgets.*", "tui.words", "tui.words.*", "tui.terminal.*"), ("core",)),
    "tui.settings": (("tui.settings.*", "tui.words", "tui.words.*", "tui.screens.*"), ("core", "engine.records")),
    "tui.dialogs": (
        (
            "tui.dialogs.*",
            "tui.widgets.*",
            "tui.words",
            "tui.words.*",
            "tui.terminal.*",
            "tui.settings.*",
            "tui.games",
            "tui.screens.menu",
        ),
        ("core",),
    ),
    "tui.screens": (
        (
            "tui.screens.*",
            "tui.dialogs.*",
            "tui.widgets.*",
            "tui.words",
            "tui.words.*",
            "tui.terminal.*",
            "tui.settings.*",
            "tui.games",
            "tui.messages",
        ),
        ("core", "engine.records"),
    ),
    "tui.games.*": (
        (
            "tui.games",  # its UI listing's class
            "tui.games.{game}.*",
            "tui.screens.*",
            "tui.dialogs.*",
            "tui.widgets.*",
            "tui.words",
            "tui.words.*",
            "tui.terminal.*",
        ),
        ("core",),
    ),
    "tui.games": (("tui.screens.table", "tui.terminal.*"), ("core",)),
}
"""Each package of ``tui`` (``tui.games.*``: each game's package, ``{game}`` its own key; ``tui.games``: the UI's
registration) and what it may import. The apps (``tui.apps``) and the command at the root may import anything, and
nothing but they imports an app."""


def _engine_layer(module: str) -> str:
    """``core``, ``engine.play``, ``engine.lan`` or ``engine.records``."""
    parts = module.split(".")
    return f"engine.{parts[1]}" if len(parts) > 1 and parts[1] in ("play", "lan", "records") else "core"


def _game(module: str, side: str) -> str | None:
    """The game key of a module of ``engine.games.<key>`` or ``tui.games.<key>`` (``side``: engine or tui)."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == [side, "games"] else None


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _tui_layer(module: str) -> str | None:
    """The key of :data:`TUI_LAYERS` that ``module`` belongs to (None: an app, the command, or the root)."""
    if _game(module, "tui") is not None:
        return "tui.games.*"
    if module == "tui.games":
        return "tui.games"
    return next((layer for layer in TUI_LAYERS if "*" not in layer and _within(module, layer)), None)


def refusal(module: str, name: str) -> str | None:
    """Why ``module`` (one of ours) may not import ``name`` (the module it names), or None when it may."""
    top = name.split(".")[0]
    if top == "engine" or module.split(".")[0] == "engine":
        return _engine_refusal(module, name)
    if top != "tui":
        return None
    if _within(name, "tui.apps") and not (_within(module, "tui.apps") or module == "tui.cli"):
        return "only the command and the apps import an app (screens post messages: tui.messages)"
    layer = _tui_layer(module)
    if layer is None:
        return None
    allowed = [pattern.format(game=_game(module, "tui")) for pattern in TUI_LAYERS[layer][0]]
    if not any(fnmatchcase(name, pattern) or name == pattern.removesuffix(".*") for pattern in allowed):
        return f"{layer} imports only {', '.join(allowed)} of tui"
    return None


def _engine_refusal(module: str, name: str) -> str | None:
    top = name.split(".")[0]
    if module.split(".")[0] == "tui":  # the UI importing the engine: by the layer of the UI module
        layer = _tui_layer(module)
        if layer is None:
            return None
        target = _engine_layer(name)
        if target not in TUI_LAYERS[layer][1]:
            return f"{layer} imports {', '.join(TUI_LAYERS[layer][1]) or 'nothing'} of the engine"
        mine, theirs = _game(module, "tui"), _game(name, "engine")
        if mine is not None and theirs is not None and theirs != mine:
            return f"a game's UI imports its own game's engine, not {theirs}"
        return None
    layer = _engine_layer(module)
    if top in ("tui", "textual"):
        return "nothing in engine imports the UI or Textual"
    if layer == "core":
        if any(_within(name, refused) for refused in CORE_REFUSES):
            return "the core imports none of engine.play, engine.lan, engine.records"
        if top in CORE_NO_IO and (module, top) not in CORE_EXCEPTIONS:
            return f"the core does no I/O and runs nothing concurrently: not {top}"
        mine, theirs = _game(module, "engine"), _game(name, "engine")
        if mine is not None and theirs is not None and theirs != mine:
            return f"a game never imports another game ({theirs})"
        return None
    if layer == "engine.play" and _within(name, "engine.lan"):
        return "engine.play never imports engine.lan (the network is built on play, not the reverse)"
    if layer == "engine.records" and (_within(name, "engine.play") or _within(name, "engine.lan")):
        return "engine.records imports the core only"
    return None


def layer_problems(imports: Mapping[str, Mapping[str, int]], paths: Mapping[str, str] | None = None) -> list[str]:
    """Every import in ``imports`` (module -> the names it imports, with their lines) that :func:`refusal`
    refuses, as ``path:line: module imports name (why)``."""
    problems = []
    for module, found in imports.items():
        where = (paths or {}).get(module, module)
        for name, line in found.items():
            why = refusal(module, name)
            if why is not None:
                problems.append(f"{where}:{line}: {module} imports {name} ({why})")
    return sorted(problems)


def _all_imports() -> tuple[dict[str, dict[str, int]], dict[str, str]]:
    files = source_files()
    imports = {module: file_imports(module, files) for module in files}
    return imports, {module: str(path.relative_to(ROOT)) for module, path in files.items()}


def test_every_package_keeps_to_its_layer() -> None:
    imports, paths = _all_imports()
    problems = layer_problems(imports, paths)
    assert not problems, "imports across the layers:\n" + "\n".join(problems)


def test_every_exception_of_the_core_is_still_needed() -> None:
    """An exception no module needs any more goes (the list stays short and true)."""
    imports, _ = _all_imports()
    for module, stdlib in CORE_EXCEPTIONS:
        assert any(name.split(".")[0] == stdlib for name in imports[module]), (module, stdlib)


def test_every_package_of_tui_has_its_layer() -> None:
    """A new package of tui is given its rules (or is an app): none slips past them unnamed."""
    packages = {m for m, path in source_files().items() if path.name == "__init__.py" and m.startswith("tui.")}
    unnamed = {p for p in packages if _tui_layer(p) is None and not _within(p, "tui.apps")}
    assert not unnamed, unnamed


# -- the rules refuse what they should (so a pass means something) -----------------------------------------------
PLANTED = {
    # (module, is it a package, its source): what the refusal says
    ("engine.cards", False, "import threading\n"): "not threading",
    ("engine.table", False, "def later():\n    import sqlite3\n"): "not sqlite3",
    ("engine.games.big2.rules", False, "import socket\n"): "not socket",
    ("engine.game", False, "import subprocess\n"): "not subprocess",
    ("engine.codec", False, "import asyncio\n"): "not asyncio",
    ("engine.registry", False, "import asyncio\n"): "not asyncio",
    ("engine.simulate", False, "import subprocess\n"): "not subprocess",
    ("engine.table", False, "from engine.play.table_host import TableHost\n"): "engine.records",
    ("engine.bots", False, "from engine.records import paths\n"): "engine.records",
    ("engine.session", False, "from engine.lan import protocol\n"): "engine.records",
    ("engine.games.chase.rules", False, "from engine.games.big2.rules import classify\n"): "another game",
    ("engine.games.rank.bots", False, "import engine.games.trash.bots\n"): "another game",
    ("engine.codec", False, "from textual.app import App\n"): "the UI or Textual",
    ("engine.lan.server", False, "from tui.cli import guest_command\n"): "the UI or Textual",
    ("engine.records.stats", False, "from tui.words import who\n"): "the UI or Textual",
    ("engine.play.table_host", False, "from engine.lan.server import LanServer\n"): "never imports engine.lan",
    ("engine.records.stats", False, "from engine.play.table_host import TableHost\n"): "the core only",
    ("engine.records.paths", False, "from engine.lan import tokens\n"): "the core only",
    ("tui.games.chase.table", False, "from tui.games.big2.words import signed\n"): "imports only",
    ("tui.games.rank.table", False, "from engine.games.trash.rules import TrashView\n"): "not trash",
    ("tui.widgets.seats", False, "from tui.screens.table import TableScreen\n"): "imports only",
    ("tui.widgets.card", False, "from tui.dialogs.confirm import ConfirmScreen\n"): "imports only",
    ("tui.widgets.hand", False, "def later():\n    from tui.games.chase import words\n"): "imports only",
    ("tui.words.faces", False, "from tui.widgets.card import card_markup\n"): "imports only",
    ("tui.terminal.driver", False, "from engine.cards import Card\n"): "nothing of the engine",
    ("tui.screens.menu", False, "from tui.apps.parlour import ParlourApp\n"): "only the command and the apps",
    ("tui.dialogs.results", False, "from tui.games.big2.table import Big2TableScreen\n"): "imports only",
    ("tui.screens.lobby", False, "from engine.play.table_host import TableHost\n"): "core, engine.records",
    ("tui.screens.replay", False, "from tui.games.rank.words import describe_rank\n"): "imports only",
    ("tui.games", False, "from tui.games.chase.table import ChaseTableScreen\n"): "imports only",
}
FINE = {
    ("engine.registry", False, "import threading\n"),
    ("engine.games.big2.rules", False, "from engine.games.big2 import core\nfrom engine.match import MatchRule\n"),
    ("engine.games.chase", True, "from . import rules\n"),
    ("engine.lan.server", False, "from engine.play.table_host import TableHost\nfrom engine.records import saves\n"),
    ("engine.play.table_host", False, "from engine.records.paths import data_dir\nimport threading\n"),
    ("tui.games.chase.table", False, "from tui.screens.table import TableScreen\nimport engine.games.chase.rules\n"),
    ("tui.widgets.seats", False, "from tui.words.clock import seconds_text\nfrom engine.cards import Card\n"),
    ("tui.cli", False, "from tui.apps.parlour import ParlourApp\nfrom engine.lan import lan_host\n"),
    ("tui.screens.replay", False, "from tui.games import describer\n"),
}


def _planted(module: str, is_package: bool, source: str) -> list[str]:
    return layer_problems({module: imports_of(source, module, is_package, source_files().keys())})


@pytest.mark.parametrize("case", sorted(PLANTED))
def test_each_rule_refuses_an_import_planted_to_break_it(case: tuple[str, bool, str]) -> None:
    problems = _planted(*case)
    assert len(problems) == 1 and PLANTED[case] in problems[0], problems


@pytest.mark.parametrize("case", sorted(FINE))
def test_the_rules_let_the_layers_own_imports_be(case: tuple[str, bool, str]) -> None:
    assert _planted(*case) == []
