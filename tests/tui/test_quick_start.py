"""Starting at Textual's own pace: only what the first screen needs is imported or built, a table is styled once
when it opens, and the bots start once it is drawn (issue 12). Quitting: tests/tui/test_quit.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from parlour_bench.app import MENU_MARKER, app_argv, quit_time
from textual.dom import DOMNode
from textual.widgets import Markdown
from tui_helpers import my_turn, table_screen, wait_for

from engine.play.table_host import TableHost
from tui.apps.parlour import ParlourApp, PlayConfig
from tui.screens.table import TableScreen

ROOT = Path(__file__).resolve().parents[2]


def _modules_after(code: str) -> set[str]:
    """The modules loaded in a fresh interpreter after ``code``."""
    shown = f"{code}; import sys; print('\\n'.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", shown], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def _in_a_game(name: str) -> bool:
    """A module inside a game's package of the UI (``tui.games.big2.table``), not the package itself."""
    parts = name.split(".")
    return len(parts) > 3 and parts[:2] == ["tui", "games"]


def test_the_app_loads_no_table_nor_menu_nor_markdown_before_it_shows_one() -> None:
    loaded = _modules_after("import tui.cli, tui.apps.parlour")
    screens = {name for name in loaded if name.startswith("tui.screens.")}
    # Each game's package is read for its listing (its __init__ names its modules as text), nothing in it.
    assert not {name for name in loaded if _in_a_game(name)}, "a game's screens before its table opens"
    assert not {"tui.screens.menu", "tui.screens.rules", "tui.screens.stats"} & screens
    assert "markdown_it" not in loaded and "engine.simulate" not in loaded


def test_a_table_loads_its_own_screen_only() -> None:
    loaded = _modules_after(
        "from engine.registry import get_entry; from tui.games import screen_class; screen_class(get_entry('big2'))"
    )
    assert "tui.games.big2.table" in loaded
    others = ("tui.games.chase.", "tui.games.trash.", "tui.games.rank.", "engine.games.chase.", "engine.games.trash.")
    assert not {name for name in loaded if name.startswith(others)}


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_table_is_styled_once_when_it_opens(size: tuple[int, int]) -> None:
    """No restyle of the whole table once its widgets are mounted: not when it is shown (ScreenResume), not on the
    first resize (its -narrow/-wide class is set before its widgets exist, when restyling it is restyling one node)."""
    restyled: list[tuple[DOMNode, int]] = []
    app = ParlourApp(start=PlayConfig(game="big2", players=4, seed=3, difficulty="easy"), pace=0)
    update_styles = app.update_styles

    def noting(node: DOMNode, animate: bool = True) -> None:
        restyled.append((node, len(node.walk_children())))
        update_styles(node, animate=animate)

    app.update_styles = noting  # type: ignore[method-assign]
    async with app.run_test(size=size) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = table_screen(pilot)
        assert table.has_class("-wide" if size[0] >= 120 else "-narrow")
        assert [widgets for node, widgets in restyled if node is table] == [0]  # its classes, set in compose


@pytest.mark.parametrize("game", ["chase", "big2"])
async def test_the_bots_start_once_the_table_is_drawn(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots' thread (and with it the bot process and the first bot's decision) starts after the table's first
    frame, not while the screen is being built; and then they play."""
    laid_out: list[bool] = []
    start = TableHost.start

    def noting(host: TableHost) -> None:
        # Textual lays a screen out (each widget's place on it) just before it draws the frame.
        screen = app.screen
        laid_out.append(
            isinstance(screen, TableScreen) and sum(widget.region.area > 0 for widget in screen.query("*")) > 5
        )
        start(host)

    monkeypatch.setattr(TableHost, "start", noting)
    app = ParlourApp(start=PlayConfig(game=game, players=4, seed=2, difficulty="easy"), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))  # the bots before you have moved
        assert laid_out == [True]


async def test_the_rules_pane_is_built_when_first_opened() -> None:
    app = ParlourApp(start=PlayConfig(game="chase", players=3, seed=5, difficulty="easy"), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(pilot.app.screen, TableScreen))
        table = table_screen(pilot)
        assert not table.query("#rules-text")
        await pilot.press("r")
        await pilot.pause()
        assert "# Chase the Ace" in table.query_one("#rules-text", Markdown).source
        await pilot.press("r", "r")
        await pilot.pause()
        assert table.rules_open and len(table.query("#rules-text")) == 1


def test_ctrl_q_ends_the_menu_at_once_with_the_terminal_clean() -> None:
    """On a real pseudo-terminal: from ctrl+q to the end of the process (Textual's own driver waited out two
    100 ms polls of its input thread, then the interpreter collected every object). quit_time raises when the
    terminal is left in the alternate screen, without its cursor, with mouse reporting on, or in raw mode (how long
    it takes is benchmarks/bench.py's figure)."""
    assert quit_time(app_argv(), MENU_MARKER) > 0


def test_ctrl_q_twice_ends_a_table_at_once_with_the_terminal_clean() -> None:
    assert quit_time(app_argv("play", "chase", "--seed", "1"), "What happened") > 0
