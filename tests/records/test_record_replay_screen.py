"""The replay viewer (issue 11): a kept game stepped forward and back, to its start and its end, every hand shown."""

from __future__ import annotations

from records_helpers import bot_match, play_out

from engine import codec
from engine.records.replays import ReplayCursor, keep_replay
from tui.apps.replay import ReplayApp
from tui.screens.replay import ReplayScreen
from tui.words.faces import card_text


async def test_step_through_a_kept_game_of_big_two() -> None:
    table = play_out(bot_match("big2", 2, ["easy", "easy"], deals=1, seed=3))
    cursor = ReplayCursor.open(keep_replay(table))
    assert cursor.total == len(table.actions) > 10
    app = ReplayApp(cursor)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert cursor.position == 0 and "before any move" in screen.move_text
        # Every hand is shown in full, the opponent's too: 13 cards each for two players at the start.
        zones = cursor.table.state.zones()
        for seat in range(2):
            hand = list(zones[f"hand {seat}"])
            assert len(hand) == 13
            assert all(card_text(card) in screen.table_text for card in hand)
        await pilot.press("right")
        assert cursor.position == 1
        assert "play" in screen.move_text.lower()
        await pilot.press("end")
        assert cursor.position == cursor.total
        assert codec.dumps(cursor.table.state.history) == codec.dumps(table.state.history)
        await pilot.press("left")
        assert cursor.position == cursor.total - 1
        assert codec.dumps(cursor.table.state.history) == codec.dumps(table.state.history[: table.bounds[-2]])
        await pilot.press("home")
        assert cursor.position == 0
        await pilot.press("escape")
        await pilot.pause()
    assert not app.is_running
