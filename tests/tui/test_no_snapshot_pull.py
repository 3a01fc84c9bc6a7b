"""No screen pulls a snapshot on its own (issue 28, point 3): a table is drawn from the snapshot of the update it is
showing, which shows exactly the events its log has told. ``Session.snapshot()`` stays in the protocol for programs
and tests; in ``tui/`` nothing calls a ``snapshot`` method at all, read from the source with ast (a call of an
attribute named ``snapshot``, or one reached through ``getattr``)."""

from __future__ import annotations

import ast
from pathlib import Path

TUI = Path(__file__).resolve().parents[2] / "tui"


def snapshot_calls(source: str) -> list[int]:
    """The lines of ``source`` that call a ``snapshot`` method (``x.snapshot()``, ``getattr(x, "snapshot")()``)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        called = node.func
        if isinstance(called, ast.Attribute) and called.attr == "snapshot":
            lines.append(node.lineno)
        elif (
            isinstance(called, ast.Call)
            and isinstance(called.func, ast.Name)
            and called.func.id == "getattr"
            and len(called.args) >= 2
            and isinstance(called.args[1], ast.Constant)
            and called.args[1].value == "snapshot"
        ):
            lines.append(node.lineno)
    return sorted(lines)


def test_the_reader_finds_a_pulled_snapshot() -> None:
    pulled = """
def redraw(self):
    self.snapshot = self.session.snapshot()
    fresh = session.snapshot().view
    again = getattr(self.session, "snapshot")()
    drawn = self.snapshot.view  # an attribute read: no call
"""
    assert snapshot_calls(pulled) == [3, 4, 5]


def test_no_module_of_the_ui_pulls_a_snapshot() -> None:
    modules = sorted(TUI.rglob("*.py"))
    assert len(modules) > 20
    found = {
        str(path.relative_to(TUI.parent)): lines
        for path in modules
        if (lines := snapshot_calls(path.read_text(encoding="utf-8")))
    }
    assert not found, f"a snapshot pulled in tui/ (draw from the update being shown instead): {found}"
