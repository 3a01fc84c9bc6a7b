"""Takebacks at the table (issue 31, point 2), by key and from the palette: ``u`` opens the table again exactly as
it was at your previous decision (the same snapshot, the same log), the bots answer the same move the same way, and
the save holds the line played; refused in words at a LAN table, with another person at the table, or for a
spectator, and never offered there."""

from __future__ import annotations

from textual.pilot import Pilot
from tui_helpers import TableApp, my_turn, table_screen, wait_for

from engine.game import Action
from engine.play.local_sessions import CodecSession
from engine.play.table_host import TableHost
from engine.records.paths import autosave_path
from engine.records.saves import load_match
from engine.session import Snapshot
from engine.table import Table
from tui.apps.parlour import ParlourApp, PlayConfig
from tui.screens.table import TableScreen
from tui.widgets.event_log import EventLog


async def next_turn(pilot: Pilot) -> TableScreen:
    """Close every end of a hand on the way, until it is your turn again; the table screen then."""
    for _ in range(50):
        if await wait_for(pilot, lambda: my_turn(pilot) or not isinstance(pilot.app.screen, TableScreen)):
            if my_turn(pilot):
                return table_screen(pilot)
            await pilot.press("enter")  # (a hand's end: on to the next)
    raise AssertionError("never your turn again")


def position(screen: TableScreen) -> tuple[Snapshot, list[str]]:
    assert screen.snapshot is not None
    return screen.snapshot, screen.query_one(EventLog).lines_written


def commands(app: ParlourApp, screen: TableScreen) -> list[str]:
    return [command.title for command in app.get_system_commands(screen)]


async def test_u_goes_back_to_your_decision_and_the_bots_play_the_same_again() -> None:
    app = ParlourApp(start=PlayConfig(game="screw", players=3, seed=21, difficulty="easy"), pace=0)
    async with app.run_test(size=(120, 40)) as pilot:
        first = await next_turn(pilot)
        assert first.takeback_refusal() == "There is no move of yours to take back yet."
        assert "Take back" not in commands(app, first)  # (the palette offers it only when it can be done)
        await pilot.press("u")
        assert await wait_for(pilot, lambda: first.refusal == "There is no move of yours to take back yet.")
        before, log_before = position(first)
        move: Action = before.legal[0]
        await pilot.press("s" if str(move) == "stay" else "t")
        later = await next_turn(pilot)
        host = app.host
        assert host is not None
        line = list(host.table.actions)
        assert later.takeback_refusal() is None and "Take back" in commands(app, later)

        await pilot.press("u")
        assert await wait_for(pilot, lambda: my_turn(pilot) and table_screen(pilot) is not later)
        again = table_screen(pilot)
        assert position(again) == (before, log_before)  # exactly as it was, log and all
        assert host.table.takebacks == 1
        assert app.keeper is not None and app.keeper.flush()
        saved = load_match(autosave_path())
        assert isinstance(saved, Table) and saved.actions == host.table.actions and saved.takebacks == 1

        # The same move again: the bots answer as before, to your next turn.
        await pilot.press("s" if str(move) == "stay" else "t")
        await next_turn(pilot)
        assert host.table.actions == line

        # From the palette too.
        screen = table_screen(pilot)
        entry = next(command for command in app.get_system_commands(screen) if command.title == "Take back")
        entry.callback()
        assert await wait_for(pilot, lambda: my_turn(pilot) and table_screen(pilot) is not screen)
        assert position(table_screen(pilot)) == (before, log_before)
        assert host.table.takebacks == 2


async def _refused(session_seat: int | None, host: TableHost, lan: bool, words: str) -> None:
    me = host.connect(session_seat)
    session = CodecSession(me) if lan else me
    app = TableApp(session)
    async with app.run_test(size=(120, 40)) as pilot:
        assert await wait_for(pilot, lambda: table_screen(pilot).snapshot is not None)
        screen = table_screen(pilot)
        versions = host.table.state.version
        await pilot.press("u")
        assert await wait_for(pilot, lambda: screen.refusal == words)
        assert host.table.takebacks == 0 and host.table.state.version == versions
    host.close()


def _after_a_move(bots: list[str | None], takebacks: bool) -> TableHost:
    table = Table.create("screw", players=3, seed=5, bots=bots)
    while len(table.actions) < 3 or table.state.to_move != 0:
        seat = table.state.to_move
        assert seat is not None
        table.submit(seat, table.state.legal_actions()[0])
    return TableHost(table, takebacks=takebacks)


async def test_refused_at_a_lan_table() -> None:
    host = _after_a_move([None, "easy", "easy"], takebacks=False)
    await _refused(0, host, True, "Takebacks are only for a table in this process, against computer players.")


async def test_refused_when_another_person_sits_at_the_table() -> None:
    host = _after_a_move([None, None, "easy"], takebacks=True)
    await _refused(0, host, False, "Takebacks are only for a table where every other seat is a computer player.")


async def test_refused_for_a_spectator() -> None:
    host = _after_a_move([None, "easy", "easy"], takebacks=True)
    await _refused(None, host, False, "You are watching this table: there is no move of yours to take back.")


async def test_u_in_the_hands_dialog_takes_back_the_move_that_ended_the_hand() -> None:
    """As the dealer your move ends the hand and its dialog opens: ``u`` there takes that move back too, and the
    table is as it was at that decision (the dialog goes with the table it belonged to)."""
    from tui.dialogs.round_over import RoundOverScreen

    app = ParlourApp(start=PlayConfig(game="screw", players=3, seed=21, difficulty="easy"), pace=0)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(12):
            screen = await next_turn(pilot)
            assert screen.snapshot is not None
            view = screen.snapshot.view
            if view.turn == len(view.order) - 1:  # the dealer: nobody acts after you
                break
            await pilot.press("s")
        else:
            raise AssertionError("never the dealer")
        before = position(screen)
        await pilot.press("s")
        assert await wait_for(pilot, lambda: isinstance(app.screen, RoundOverScreen))
        await pilot.press("u")
        assert await wait_for(pilot, lambda: my_turn(pilot) and table_screen(pilot) is not screen)
        assert not isinstance(app.screen, RoundOverScreen)
        assert position(table_screen(pilot)) == before
        host = app.host
        assert host is not None and host.table.takebacks == 1
