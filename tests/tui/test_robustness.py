"""The UI's side of the robustness points: names as plain text, keys in the order typed, a quick quit, and the
screens never touching the table themselves."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from textual.content import Content
from tui_helpers import my_turn, settled, table_screen, wait_for

from engine.cards import Card
from engine.games.big2.rules import Play
from tui.apps.parlour import ParlourApp, PlayConfig
from tui.dialogs.confirm import ConfirmScreen
from tui.dialogs.results import MatchSummary, ResultsScreen
from tui.games.big2.table import Big2TableScreen
from tui.games.chase.seats import SeatBox
from tui.widgets.event_log import EventLog
from tui.widgets.hand import HandStrip

WAIT = 30.0
"""Seconds a wait of these tests is bounded by."""

ROOT = Path(__file__).resolve().parents[2]
NASTY_NAMES = ["Ana[/b]", "[@click=app.quit]Q[/]", "[red]x", "$text-error", "[b]Bo[/b]"]


@pytest.mark.parametrize("name", NASTY_NAMES)
async def test_a_name_is_plain_text_at_the_chase_table(name: str) -> None:
    app = ParlourApp(start=PlayConfig(game="chase", players=3, seed=5, name=name), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        seat = table_screen(pilot).query_one("#seat-0", SeatBox)
        # The title reads back as markup in which the name is escaped: parsed again, it is the name itself.
        title = Content.from_markup(seat.border_title or "")
        assert name in title.plain
        assert not any("@click" in str(span.style) for span in title.spans)
        # Clicking where the name is drawn must not run an action hidden in it.
        await pilot.click("#seat-0", offset=(4, 0))
        await pilot.pause()
        assert app.is_running
    assert app.return_code in (0, None)


async def test_a_name_is_plain_text_at_the_big_two_table_and_in_the_results() -> None:
    name = "[@click=app.quit]Q[/]"
    app = ParlourApp(start=PlayConfig(game="big2", players=2, seed=5, name=name), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        hand = table_screen(pilot).query_one(HandStrip)
        assert "You" in Content.from_markup(hand.border_title or "").plain
        summary = MatchSummary(title="Big Two", winner=f"{name} wins", places=((1, name),), pot=None, seed=5)
        app.push_screen(ResultsScreen(summary))
        await pilot.pause()
        shown = " ".join(str(w.render()) for w in app.screen.query("#results-title, #results-places"))
        assert name in shown
        assert app.is_running


async def test_keys_typed_in_a_burst_apply_in_order() -> None:
    """``right space enter`` sent at once selects the second card and plays it (never the first)."""
    app = ParlourApp(start=PlayConfig(game="big2", players=4, seed=1, difficulty="easy"), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):
            assert await wait_for(pilot, lambda: my_turn(pilot))
            table = table_screen(pilot)
            assert isinstance(table, Big2TableScreen)
            hand = table.query_one(HandStrip)
            singles = {a.cards[0] for a in table.legal if isinstance(a, Play) and len(a.cards) == 1}
            if len(hand.cards) > 1 and hand.cards[1] in singles and hand.cursor == 0:
                break
            table.submit(next(iter(table.legal)))
        else:
            pytest.fail("no position where the second card alone is a legal play")
        second: Card = hand.cards[1]
        await pilot.press("right", "space", "enter")
        assert await wait_for(pilot, lambda: any(second.pretty() in line for line in log_lines(table)))
        played = [line for line in log_lines(table) if line.startswith("You play")]
        assert played and second.pretty() in played[-1]


def log_lines(screen: Big2TableScreen) -> list[str]:
    return screen.query_one(EventLog).lines_written


async def test_quit_ends_the_app_while_a_bot_thinks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 5 deals the 3♦ to seat 1: three hard bots think before your first turn. The match is on, so ``q`` asks
    first (the bots play on meanwhile); ``y`` quits while a bot thinks: the app ends (Textual used to wait for the
    bots' thread), the host is closed, and no bot moves afterwards. How long quitting takes is measured by
    ``benchmarks/bench.py``, not here."""
    monkeypatch.setenv("PARLOUR_BOT_PROCESS", "1")  # what a player runs: the bots in a child process
    app = ParlourApp(start=PlayConfig(game="big2", players=4, seed=5, difficulty="hard"), pace=0)
    quits: list[bool] = []
    quit_action = app.action_quit

    async def noted_quit() -> None:
        quits.append(True)
        await quit_action()

    app.action_quit = noted_quit  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        host = app.host
        assert host is not None
        assert await settled(pilot)  # the table is up (its first frame drawn), as a player would see it
        assert await wait_for(pilot, lambda: host.thinking is not None, tries=200)
        await pilot.press("q")  # the match is on: asked first
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert not quits, "q quit without asking"
        await pilot.press("y")
    assert quits and host.closed
    version = host.table.state.version
    thread = host._thread
    assert thread is not None
    thread.join(WAIT)  # the bots' thread has ended: nothing can move the table any more
    assert not thread.is_alive()
    assert host.table.state.version == version, "a bot moved after the app quit"


def test_screens_never_build_tables_or_move_bots() -> None:
    """The UI talks to a Session only: no screen, dialog, widget or game's package imports the table, a bot or the
    host, and nothing in tui/ builds a table (the app asks a host for one)."""
    forbidden = ("engine.table", "engine.play", "engine.lan", "engine.simulate")
    offenders = []
    shown = ("screens", "dialogs", "widgets", "games")
    for path in [p for folder in shown for p in (ROOT / "tui" / folder).rglob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            bots = [n for n in names if re.fullmatch(r"engine\.games\.\w+\.bots", n)]  # a game's computer players
            offenders += [f"{path.name}: {n}" for n in names if n.startswith(forbidden) or n in bots]
    for path in (ROOT / "tui").rglob("*.py"):
        if "Table.create" in path.read_text(encoding="utf-8") or "import Table\n" in path.read_text(encoding="utf-8"):
            offenders.append(f"{path.name} builds a table")
    assert offenders == []
