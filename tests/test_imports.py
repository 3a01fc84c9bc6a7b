"""The shape of the imports, read from the source (ARCHITECTURE: the layers).

- No import circle anywhere in ``engine/`` and ``tui/``: the module graph is built from the AST of every ``.py``
  file, imports inside functions included (they run too, only later), imports under ``if TYPE_CHECKING:``
  excluded (they never run).
- Asyncio only in ``engine/lan/``; nothing under ``engine/`` imports Textual or the UI.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Collection, Iterable, Mapping
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
