"""The Trash table driven by Pilot: a turn by keys, a King placed by key and by click, a swap, refused keys, the
chain played step by step when paced, and a whole game to the results."""

from __future__ import annotations

from typing import Any

from textual.geometry import Offset
from textual.pilot import Pilot
from textual.widgets import Button
from tui_helpers import my_turn, wait_for

from engine.games.trash.rules import KEEP, STOCK, SWAP, PlaceKing, TrashPhase, TrashView
from tui.apps.parlour import ParlourApp, PlayConfig
from tui.dialogs.results import ResultsScreen
from tui.games.trash.deal_end import TrashDealScreen
from tui.games.trash.layout import SIZE_HEIGHT, SIZE_WIDTH, LayoutPanel, is_king
from tui.games.trash.table import TrashTableScreen
from tui.widgets.event_log import EventLog

KING_FIRST = 7
"""A seed where you start and the stock's top card is a King (seeds 12, 24 and 38 too)."""


def config(seed: int, players: int = 2) -> PlayConfig:
    return PlayConfig(game="trash", players=players, seed=seed, difficulty="easy")


def trash_of(pilot: Pilot) -> TrashTableScreen:
    for screen in reversed(pilot.app.screen_stack):
        if isinstance(screen, TrashTableScreen):
            return screen
    raise AssertionError(f"no Trash table in {pilot.app.screen_stack}")


def log_lines(screen: TrashTableScreen) -> list[str]:
    return screen.query_one(EventLog).lines_written


def view_of(screen: TrashTableScreen) -> TrashView:
    view = screen.session.snapshot().view
    assert isinstance(view, TrashView)
    return view


async def test_a_turn_by_keys_shows_the_chain() -> None:
    app = ParlourApp(start=config(3), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = trash_of(pilot)
        assert table.query_one("#tr-discard", Button).disabled == ("discard" not in map(str, table.legal))
        assert not table.query_one("#tr-stock", Button).disabled
        stock = view_of(table).stock
        before = len(log_lines(table))
        await pilot.press("s")
        assert await wait_for(pilot, lambda: len(log_lines(table)) > before)
        lines = log_lines(table)[before:]
        assert lines[0].startswith("You draw the ") and lines[0].endswith(" from the stock")
        assert view_of(table).stock < stock
        # The chain went on without you until a choice or the end of your turn; its steps are in the log.
        assert await wait_for(pilot, lambda: my_turn(pilot) or view_of(table).to_move == 1)
        lines = log_lines(table)[before:]
        if view_of(table).to_move != 0 or view_of(table).phase is TrashPhase.DRAW:
            assert any("discarded" in line or "discard pile" in line for line in lines)


async def test_a_king_placed_by_key() -> None:
    app = ParlourApp(start=config(KING_FIRST), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = trash_of(pilot)
        await pilot.press("s")
        assert await wait_for(pilot, lambda: my_turn(pilot) and view_of(table).phase is TrashPhase.KING)
        king = view_of(table).held
        assert king is not None and king.rank.name == "KING"
        assert f"Place the {king.pretty()}" in table.turn_text
        assert table.query_one("#layout-0", LayoutPanel).offered(5)
        await pilot.press("5")
        assert await wait_for(pilot, lambda: view_of(table).layouts[0][4] == king)
        assert any(line.startswith(f"You put the {king.pretty()} on slot 5") for line in log_lines(table))
        assert is_king(table.query_one("#layout-0", LayoutPanel).card(5))


async def test_a_king_placed_by_click_and_a_click_refused() -> None:
    app = ParlourApp(start=config(KING_FIRST), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = trash_of(pilot)
        await pilot.click("#tr-stock")
        assert await wait_for(pilot, lambda: my_turn(pilot) and view_of(table).phase is TrashPhase.KING)
        king = view_of(table).held
        before = table.session.snapshot()
        bens = table.query_one("#layout-1", LayoutPanel)
        await pilot.click("#layout-1", offset=bens.slot_offset(3))  # Ben's layout: not yours
        await pilot.pause()
        assert "Ben's layout" in table.status_text
        assert table.session.snapshot() == before
        mine = table.query_one("#layout-0", LayoutPanel)
        await pilot.click("#layout-0", offset=mine.slot_offset(10) + Offset(1, 1))
        assert await wait_for(pilot, lambda: view_of(table).layouts[0][9] == king)
        assert any(line.startswith(f"You put the {king.pretty()} on slot 10") for line in log_lines(table))


async def test_keys_that_do_nothing_now_are_refused_in_words() -> None:
    app = ParlourApp(start=config(KING_FIRST), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = trash_of(pilot)
        before = table.session.snapshot()
        lines = list(log_lines(table))
        await pilot.press("d")  # the discard pile is empty on the first turn
        await pilot.pause()
        assert "discard pile is empty" in table.status_text
        for key, words in (("w", "Nothing to swap"), ("x", "Nothing to keep"), ("4", "no King to place")):
            await pilot.press(key)
            await pilot.pause()
            assert words in table.status_text
        assert table.session.snapshot() == before
        assert log_lines(table) == lines
        # Holding the King: drawing again is refused, and so is a face-up slot.
        await pilot.press("s")
        assert await wait_for(pilot, lambda: my_turn(pilot) and view_of(table).phase is TrashPhase.KING)
        await pilot.press("s")
        await pilot.pause()
        assert "Place the K" in table.status_text
        up = [slot for slot in range(1, 11) if slot not in view_of(table).face_down(0)]
        held = table.session.snapshot()
        if up:
            await pilot.press(str(up[0] % 10))
            await pilot.pause()
            assert "is face up" in table.status_text
        assert table.session.snapshot() == held
        # The command palette's path, called directly, refuses as well instead of raising.
        table.action_keep()
        table.action_draw("discard")
        assert app.screen is table


async def swap_out_a_king(pilot: Pilot, table: TrashTableScreen) -> bool:
    """Play from the stock (a King to the first face-down slot) until a drawn card could swap out your King; then
    swap it out by key. False when the game ended first."""
    for _ in range(300):
        if not await wait_for(pilot, lambda: my_turn(pilot) or table.session.snapshot().over):
            return False
        view = view_of(table)
        if table.session.snapshot().over:
            return False
        if view.phase is TrashPhase.SWAP and KEEP in table.legal:
            assert "swap (w) or keep the King (x)" in table.turn_text
            assert table.query_one("#tr-swap", Button).display
            assert not table.query_one("#tr-stock", Button).display
            held = view.held
            assert held is not None
            await pilot.press("w")
            assert await wait_for(pilot, lambda: view_of(table).layouts[0][held.rank.value - 1] == held)  # noqa: B023 (used at once)
            assert any("in place of the K" in line for line in log_lines(table))
            assert view_of(table).phase is TrashPhase.KING and view_of(table).held_from == "king"
            return True
        if view.phase is TrashPhase.SWAP:
            table.submit(SWAP)
        elif view.phase is TrashPhase.KING:
            table.submit(PlaceKing(view.face_down(0)[0]))
        else:
            table.submit(STOCK)
    return False


async def test_a_swap_decision() -> None:
    for seed in (17, 2, 9, 15):
        app = ParlourApp(start=config(seed), pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            if await swap_out_a_king(pilot, trash_of(pilot)):
                return
    raise AssertionError("no swap decision came up in the seeds tried")


async def test_the_chain_plays_step_by_step_when_paced() -> None:
    app = ParlourApp(start=config(KING_FIRST), pace=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = trash_of(pilot)
        assert table.pace > 0
        steps: list[tuple[bool, bool]] = []
        draw = table._draw

        def spy(view: TrashView, *, live: bool) -> None:
            steps.append((live, table.idle()))
            draw(view, live=live)

        table._draw = spy  # type: ignore[method-assign]
        table.action_draw("stock")
        assert not table.idle() and not table.legal  # the draw is held on screen: nothing offered meanwhile
        assert log_lines(table)[-1].startswith("You draw the K")
        assert await wait_for(pilot, lambda: my_turn(pilot), tries=1000)
        steps.clear()
        version = table.session.snapshot().version
        pauses: list[float] = []
        set_timer = table.set_timer

        def noted_timer(delay: float, *args: Any, **kwargs: Any) -> Any:
            pauses.append(delay)
            return set_timer(delay, *args, **kwargs)

        table.set_timer = noted_timer  # type: ignore[method-assign]
        table.action_slot(3)
        shown = table.query_one("#layout-0", LayoutPanel).card(3)
        assert shown is not None and shown.rank.name == "KING"  # drawn at once, before the rest of the chain
        table.action_draw("stock")
        assert "Wait a moment" in table.status_text
        assert table.session.snapshot().version == version + 1  # only the King's placement was sent
        assert await wait_for(pilot, lambda: table.idle() and table.snapshot is not None, tries=2000)
        chain = [live for live, _ in steps if not live]
        assert len(chain) >= 2  # the King placed, the card under it turned up, …
        # Each step held on screen for the table's pace before the next (a timer of that pause each time; how long
        # the timers really took is the machine's matter):
        assert pauses.count(table.pace) >= len(chain) - 1
        assert any(line.startswith("You put the K") for line in log_lines(table))


async def test_a_whole_game_to_the_results() -> None:
    app = ParlourApp(start=config(5), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        table = trash_of(pilot)
        for _ in range(3000):
            screen = app.screen
            if isinstance(screen, ResultsScreen):
                break
            if isinstance(screen, TrashDealScreen):
                assert "the deal" in screen.title_text
                await pilot.press("enter")
            elif my_turn(pilot):
                view = view_of(table)
                if view.phase is TrashPhase.KING:
                    table.submit(PlaceKing(view.face_down(0)[0]))
                elif view.phase is TrashPhase.SWAP:
                    table.submit(SWAP)
                else:
                    table.submit(STOCK)
            await pilot.pause()
        assert isinstance(app.screen, ResultsScreen)
        summary = app.screen.summary
        assert summary.seed == 5 and len(summary.places) == 2
        assert table.session.snapshot().over
        lines = log_lines(table)
        assert any("the deal" in line for line in lines)
        assert any("layout in" in line for line in lines)
        assert any(line.endswith("the match") for line in lines)


async def test_match_deal_dialog_shows_the_sizes_next_deal() -> None:
    match = PlayConfig(game="trash", players=2, seed=4, difficulty="easy", variants=("match",))
    app = ParlourApp(start=match, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        table = trash_of(pilot)
        for _ in range(3000):
            screen = app.screen
            if isinstance(screen, TrashDealScreen):
                break
            if my_turn(pilot):
                view = view_of(table)
                if view.phase is TrashPhase.KING:
                    table.submit(PlaceKing(view.face_down(0)[0]))
                elif view.phase is TrashPhase.SWAP:
                    table.submit(SWAP)
                else:
                    table.submit(STOCK)
            await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, TrashDealScreen)
        text = " ".join(str(s.render()) for s in dialog.query(".trash-deal-seat"))
        assert "10 → 9 cards next deal" in text and "10 cards again next deal" in text
        winner = dialog.deal.winners[0]
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: app.screen is table and view_of(table).deal == 2)
        assert view_of(table).sizes[winner] == 9
        panel = table.query_one(f"#layout-{winner}")
        assert not table.query_one(f"#layout-{winner}", LayoutPanel).shows(10)
        assert "9 cards" in str(panel.border_subtitle)


def test_a_layout_maps_every_cell_of_each_card_to_its_slot_and_the_gaps_to_none() -> None:
    panel = LayoutPanel(0, "small")
    for size in SIZE_WIDTH:
        panel.card_size = size
        for shown in (10, 7, 3):
            panel.layout_cards = (None,) * shown
            width, height = SIZE_WIDTH[size], SIZE_HEIGHT[size]
            for slot in range(1, 11):
                row, column = divmod(slot - 1, 5)
                corner = Offset(column * (width + 1), row * height)
                cells = [corner + Offset(x, y) for x in range(width) for y in range(height)]
                assert {panel.slot_at(cell) for cell in cells} == {slot if slot <= shown else None}
                assert panel.slot_at(corner + Offset(width, 0)) is None  # the column between two cards
