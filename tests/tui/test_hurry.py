"""``f``: out of the round, you let the computer players play it to its end at full speed; every move is still in
the log, and the round's end waits for you as ever. Only where you are out, only at a table in this process."""

from __future__ import annotations

from textual.pilot import Pilot
from tui_helpers import ScriptedApp, wait_for

from engine.game import Scenario
from engine.play.table_host import TableHost
from engine.table import Table
from tui.games.chase.table import ChaseTableScreen
from tui.screens.table import TableScreen
from tui.widgets.event_log import EventLog

SLOW = 3600.0
"""A computer player's pace no test could sit out: a round that ends was hurried."""


def table_of(pilot: Pilot) -> TableScreen:
    screen = next(s for s in reversed(pilot.app.screen_stack) if isinstance(s, TableScreen))
    return screen


def footer_keys(table: TableScreen) -> set[str]:
    return {key for key, active in table.active_bindings.items() if active.binding.show and active.enabled}


async def test_out_of_the_match_f_plays_the_hand_to_its_end_at_full_speed() -> None:
    table = Table.create("screw", players=3, seed=1, bots=[None, "easy", "easy"], scenario=Scenario(totals=(0, 3, 3)))
    host = TableHost(table, pace=SLOW)
    app = ScriptedApp(host)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(
            pilot, lambda: isinstance(app.screen, ChaseTableScreen) and app.screen.snapshot is not None
        )
        screen = table_of(pilot)
        assert screen.out_of_the_round() and screen.may_hurry()
        assert "f" in footer_keys(screen)
        before = table.state.version
        await pilot.press("f")
        assert await wait_for(pilot, lambda: screen.round_over is not None)
        assert table.state.version > before
        lines = screen.query_one(EventLog).lines_written
        assert sum(line.startswith(("Ben ", "Cleo ")) for line in lines) >= 2, lines  # every move told
        assert not host.hurrying, "only to the round's end"
        await pilot.press("enter")  # the next hand: at the pace again, f offered again
        assert await wait_for(pilot, lambda: screen.round_over is None)
        assert await wait_for(pilot, lambda: screen.may_hurry())


async def test_in_the_round_f_is_not_offered_and_does_nothing() -> None:
    table = Table.create("screw", players=3, seed=1, bots=[None, "easy", "easy"])
    host = TableHost(table, pace=SLOW)
    app = ScriptedApp(host)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(
            pilot, lambda: isinstance(app.screen, ChaseTableScreen) and app.screen.snapshot is not None
        )
        screen = table_of(pilot)
        assert not screen.out_of_the_round() and not screen.may_hurry()
        assert "f" not in footer_keys(screen)
        await pilot.press("f")
        await pilot.pause()
        assert not host.hurrying
