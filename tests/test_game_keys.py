"""Nothing but a game's own packages names the game: each registers once on each side (``engine/games/<key>/`` and
``tui/games/<key>/``), and the registries find them there. The test reads the source of ``engine/`` and ``tui/``
outside those packages and fails on any string that is a game's key, preset key or alias, and on any import or
dotted name of a game's package. Docstrings are allowed (their examples use a game, as doctests must), and so are
the few strings in :data:`ALLOWED`, each with its reason."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.registry import listings

ROOT = Path(__file__).resolve().parents[1]
KEYS = sorted({name for known in listings() for key, _p, _t, aliases in known.entries for name in (key, *aliases)})
GAME_KEYS = sorted(known.key for known in listings())
ALLOWED: dict[tuple[str, str], str] = {
    ("tui/widgets/hand.py", "rank"): "a hand sorted by rank (or by suit), not the game Rank",
    ("tui/messages.py", "screw"): "the game of a PlayConfig made without one (a test's, the command's default)",
}
"""(file, string) and why it is not a game's name."""


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the nodes that are docstrings (a module's, a class's, a function's, or a string after an
    assignment: the house style's attribute docstrings)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for statement in body:
            if (
                isinstance(statement, ast.Expr)
                and isinstance(statement.value, ast.Constant)
                and isinstance(statement.value.value, str)
            ):
                found.add(id(statement.value))
    return found


def _own(path: Path) -> bool:
    """A file of a game's own package, on either side."""
    parts = path.relative_to(ROOT).parts
    return len(parts) > 3 and parts[1] == "games" and parts[2] in GAME_KEYS


def namings(where: str, source: str) -> list[str]:
    """Every place the source of the file ``where`` names a game outside a docstring: ``file:line: what``."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found = []
    packages = tuple(f"{side}.games.{key}" for side in ("engine", "tui") for key in GAME_KEYS)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            text = node.value
            if text.strip().lower() in KEYS and (where, text) not in ALLOWED:
                found.append(f"{where}:{node.lineno}: {text!r}")
            elif any(text == package or text.startswith(package + ".") for package in packages):
                found.append(f"{where}:{node.lineno}: {text!r}")
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            named = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            if any(name == package or name.startswith(package + ".") for name in named for package in packages):
                found.append(f"{where}:{node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if any(alias.name == p or alias.name.startswith(p + ".") for p in packages):
                    found.append(f"{where}:{node.lineno}: import {alias.name}")
    return found


@pytest.mark.parametrize("side", ["engine", "tui"])
def test_no_module_outside_a_games_packages_names_it(side: str) -> None:
    files = [path for path in sorted((ROOT / side).rglob("*.py")) if not _own(path)]
    assert len(files) > 10
    found = [line for path in files for line in namings(str(path.relative_to(ROOT)), path.read_text("utf-8"))]
    assert not found, "\n".join(found)


def test_the_scan_finds_a_planted_key_and_a_planted_import() -> None:
    planted = '"""A docstring may say big2."""\n\nfrom engine.games.rank import LISTING\n\nGAMES = {"trash": 1}\n'
    found = namings("engine/_planted_for_test.py", planted)
    assert found == [
        "engine/_planted_for_test.py:3: from engine.games.rank import ...",
        "engine/_planted_for_test.py:5: 'trash'",
    ]
