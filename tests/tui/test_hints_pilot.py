"""The hint at every game's table, driven by Pilot (issue 31, point 1): ``h``, the button and the command palette
show what the hard computer player would do in your seat and why, the reason written in the log and the move in the
status line, and the table does not move. A table that does not offer hints (a LAN table made without them) shows
no key, no button and no command for one. The hint itself is the engine's (tests/engine/test_hints.py); the LAN
side is tests/lan/test_lan_hints.py."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.widgets import Button, Static
from tui_helpers import TableApp, my_turn, table_screen, wait_for

from engine.cards import Card, parse_cards
from engine.errors import ParlourError
from engine.game import Action, GameEntry, Scenario
from engine.games.rank.rules import Name
from engine.games.rank.rules import Play as RankPlay
from engine.hints import Hint
from engine.play.table_host import TableHost
from engine.registry import get_entry
from engine.session import Session, Snapshot, TableInfo, Update
from engine.table import Table
from tui.apps.parlour import ParlourApp, PlayConfig
from tui.games.rank.dialogs import JokerNameScreen
from tui.screens.table import TableScreen
from tui.widgets.event_log import EventLog
from tui.words.faces import in_faces

GAMES = [("screw", 3), ("chase", 4), ("big2", 4), ("trash", 2), ("rank", 3)]
NAMES = ("Ann", "Ben", "Cleo", "Dan")


def people_table(game: str, players: int, seed: int = 11) -> TableHost:
    """People only and nothing moving by itself: the table stands at a move a player would be offered."""
    return TableHost.create(game, players, seed=seed, bots=[None] * players, names=NAMES[:players], autostart=False)


async def opened(pilot: Pilot) -> TableScreen:
    assert await wait_for(pilot, lambda: any(isinstance(s, TableScreen) for s in pilot.app.screen_stack))
    screen = table_screen(pilot)
    assert await wait_for(pilot, lambda: screen.snapshot is not None and screen.my_turn)
    return screen


def hint_lines(screen: TableScreen) -> list[str]:
    return [line for line in screen.query_one(EventLog).lines_written if line.startswith("Hint: ")]


def status_text(screen: TableScreen) -> str:
    return str(screen.query_one(f"#{screen.STATUS_ID}", Static).render())


def hint_buttons(screen: TableScreen) -> list[Button]:
    return [
        b for b in screen.query(Button) if str(b.label) == "Hint (h)" and all(a.display for a in b.ancestors_with_self)
    ]


async def shown_hint(pilot: Pilot, screen: TableScreen, expected: Hint, ask: Callable[[], object]) -> None:
    """``ask`` for a hint; the log then says ``expected`` (the engine's hint for that moment), the status line that
    there is a hint, and the table has not moved."""
    version = screen.session.snapshot().version
    await ask()  # type: ignore[misc]
    assert await wait_for(pilot, lambda: bool(hint_lines(screen)))
    assert hint_lines(screen) == [in_faces(f"Hint: {expected.reason}")]
    assert expected.reason.startswith(f"{expected.move}: ") and len(expected.reason) > len(expected.move) + 10
    assert await wait_for(pilot, lambda: status_text(screen).startswith("Hint:"))
    assert screen.session.snapshot().version == version  # a hint changes nothing
    assert not screen.hint_busy


@pytest.mark.parametrize(("game", "players"), GAMES)
async def test_h_shows_the_hard_players_move_and_its_reason(game: str, players: int) -> None:
    host = people_table(game, players)
    seat = host.snapshot(None).to_move
    expected = host.hint(seat)  # (the same hint: its RNG is the seat's and the moment's)
    assert expected is not None
    app = TableApp(host.connect(seat))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        assert hint_buttons(screen), "no Hint button"
        await shown_hint(pilot, screen, expected, lambda: pilot.press("h"))
    host.close()


@pytest.mark.parametrize(("game", "players"), GAMES)
async def test_the_palette_and_the_button_give_the_hint(game: str, players: int) -> None:
    app = ParlourApp(start=PlayConfig(game=game, players=players, seed=12), pace=0)
    async with app.run_test(size=(120, 40)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        screen = table_screen(pilot)
        expected = screen.session.hint()  # (the table waits for this seat: the same moment, the same hint)
        assert expected is not None
        assert "Hint" in [command.title for command in app.get_system_commands(screen)]

        async def from_the_palette() -> None:
            await pilot.press("ctrl+p")
            assert await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
            await pilot.press(*"Hint")
            await pilot.pause()
            await pilot.press("down", "enter")
            assert await wait_for(pilot, lambda: app.screen is screen)

        await shown_hint(pilot, screen, expected, from_the_palette)
        await pilot.click(hint_buttons(screen)[0])
        assert await wait_for(pilot, lambda: len(hint_lines(screen)) == 2)
        assert hint_lines(screen)[1] == hint_lines(screen)[0]  # (the same moment: the same hint)


class NoHints:
    """A seat's session at a table that offers no hints, as a LAN table made without them is (``info.hints``
    false; asking is refused)."""

    def __init__(self, inner: Session) -> None:
        self.inner = inner
        self.asked = 0

    @property
    def info(self) -> TableInfo:
        return dataclasses.replace(self.inner.info, hints=False)

    @property
    def entry(self) -> GameEntry:
        return self.inner.entry

    def snapshot(self) -> Snapshot:
        return self.inner.snapshot()

    def submit(self, action: Action) -> None:
        self.inner.submit(action)

    def subscribe(self, callback: Callable[[Update], None]) -> Callable[[], None]:
        return self.inner.subscribe(callback)

    def hint(self) -> Hint | None:
        self.asked += 1
        raise ParlourError("this table was made without hints")

    def ready(self) -> None:
        self.inner.ready()

    def last_round_end(self) -> int | None:
        return self.inner.last_round_end()

    def close(self) -> None:
        self.inner.close()


@pytest.mark.parametrize(("game", "players"), GAMES)
async def test_a_table_without_hints_offers_none(game: str, players: int) -> None:
    host = people_table(game, players)
    seat = host.snapshot(None).to_move
    session = NoHints(host.connect(seat))
    app = TableApp(session)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        assert not screen.hints_offered
        assert hint_buttons(screen) == []
        shown = {key for key, b in screen.active_bindings.items() if b.binding.show}
        assert "h" not in shown
        assert "Hint" not in [command.title for command in app.get_system_commands(screen)]
        await pilot.press("h")
        await pilot.pause()
        assert session.asked == 0 and hint_lines(screen) == [] and screen.refusal is None
    host.close()


async def test_the_jokers_dialogs_give_a_hint_too() -> None:
    # Seat 0 holds a Joker and no card next to the 7 on the pile: it plays the Joker, and the dialog that asks for
    # the Joker's rank gives the hint for that question (h), in the dialog and in the log.
    game = get_entry("rank").game
    order = game.deck_for(3, 2, [parse_cards("JK 2S 4D 10C QH")], parse_cards("7H"))
    host = TableHost(
        Table.create("rank", 3, seed=4, bots=[None] * 3, scenario=Scenario(decks=(order,), dealer=2)), autostart=False
    )
    app = TableApp(host.connect(0))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await opened(pilot)
        screen.submit(RankPlay(Card.parse("JK")))
        assert await wait_for(pilot, lambda: isinstance(app.screen, JokerNameScreen))
        dialog = app.screen
        expected = host.hint(0)
        assert expected is not None and isinstance(expected.action, Name)
        await pilot.press("h")

        def said() -> str:
            return str(dialog.query_one("#rk-joker-hint", Static).render())

        assert await wait_for(pilot, lambda: said().startswith("Hint: Name"))
        assert said() == in_faces(f"Hint: {expected.reason}")
        assert hint_lines(screen) == [in_faces(f"Hint: {expected.reason}")]
        assert app.screen is dialog  # (the question is still asked: the hint answers nothing)
    host.close()
