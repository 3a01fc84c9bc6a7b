"""The review in the replay viewer (issue 31, point 4): a kept game is opened, its review runs on a worker thread,
the moves the hard bot would have made otherwise are marked ("Hard would: ..."), ``n`` and ``p`` jump between
them, the summary shows once the review is done, and closing the viewer stops a review still running."""

from __future__ import annotations

from collections.abc import Sequence

from tui_helpers import wait_for

from engine.cards import parse_cards
from engine.game import Scenario
from engine.records.record import Header, new_table
from engine.records.replays import ReplayCursor, keep_replay
from engine.registry import get_entry
from engine.review import review
from engine.table import Table
from tui.apps.replay import ReplayApp
from tui.screens.replay import MARKED, ReplayScreen


def against_the_hint(
    key: str, players: int, hands: Sequence[str], rest: str = "", deals: int | None = None, asks: bool = True
) -> Table:
    """A finished match of ``key`` in which seat 0, a person, plays every choice against the hard bot's hint (the
    others are ``medium``), its first deal stacked (``hands``, then ``rest``); with ``asks`` False, seat 0 plays
    its first legal move without asking (mostly not the hard bot's either)."""
    game = get_entry(key).game
    dealer = players - 1
    order = game.deck_for(players, dealer, [parse_cards(h) for h in hands], parse_cards(rest))
    table = Table.create(
        key,
        players,
        seed=5,
        bots=[None] + ["medium"] * (players - 1),
        scenario=Scenario(decks=(order,), dealer=dealer),
        deals=deals,
    )
    while not table.state.is_over:
        if table.state.to_move != 0:
            table.step_bot()
            continue
        legal = table.state.legal_actions()
        if not asks:
            table.submit(0, legal[0])
            continue
        hint = table.hint(0, table.state.view(0), legal, table.state.version)
        assert hint is not None
        table.submit(0, next((a for a in legal if a != hint.action), legal[0]))
    return table


def viewer(pilot_app: ReplayApp) -> ReplayScreen:
    screen = pilot_app.screen
    assert isinstance(screen, ReplayScreen)
    return screen


async def test_the_marks_the_summary_and_the_keys_between_marks() -> None:
    table = against_the_hint("screw", 4, ["2C", "9H", "JD", "5S"], rest="4D")
    expected = review(new_table(Header.of(table)), table.actions)
    assert len(expected.marks) >= 3
    first, second, last = expected.marks[0], expected.marks[1], expected.marks[-1]
    cursor = ReplayCursor.open(keep_replay(table))
    app = ReplayApp(cursor)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = viewer(app)
        assert await wait_for(pilot, lambda: screen.review is not None)
        assert screen.review == expected
        assert screen.review_line == f"Review: {expected.summary()}"
        assert cursor.position == 0 and "Hard would" not in screen.move_text
        await pilot.press("n")
        assert cursor.position == first.step == 1  # the person moves first, against the hint
        assert MARKED in screen.position_text
        assert f"Hard would: {first.hint.reason}" in screen.move_text
        assert first.hint.reason.startswith("Trade with the player on your left: keeping your 2♣ pays")
        await pilot.press("n")
        assert cursor.position == second.step
        assert f"Hard would: {second.hint.reason}" in screen.move_text
        await pilot.press("p")
        assert cursor.position == first.step
        # The viewer's own keys still step through every move, marked or not.
        await pilot.press("right")
        assert cursor.position == first.step + 1
        assert ("Hard would" in screen.move_text) == (cursor.position in screen.marks)
        assert MARKED not in screen.position_text or cursor.position in screen.marks
        await pilot.press("end")
        assert cursor.position == cursor.total
        assert f"Review: {expected.summary()}" in screen.move_text
        assert screen.review_line == f"Review done: press p and n to see the {len(expected.marks)} marked moves."
        await pilot.press("p")
        assert cursor.position == last.step
        await pilot.press("home")
        assert cursor.position == 0 and screen.review_line == f"Review: {expected.summary()}"
        await pilot.press("p")  # nothing before the deal: the viewer stays, and says so
        assert cursor.position == 0
        await pilot.press("escape")
        await pilot.pause()
    assert not app.is_running


async def test_marks_come_while_the_review_runs_and_closing_stops_it() -> None:
    # Two deals of Big Two, the person playing its first legal move: the review takes a hard decision for each
    # of the person's moves, far longer than it takes to see the first marks and close the viewer.
    hands = ["3D 3S 4D 5C 6H 7S 9D 10S JH QC KD AS 2S", "3C 5D 5S 6D 7C 8D 9C 10D JD QD KC AD 2D"]
    table = against_the_hint("big2", 4, hands, deals=2, asks=False)
    cursor = ReplayCursor.open(keep_replay(table))
    app = ReplayApp(cursor)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = viewer(app)
        assert await wait_for(pilot, lambda: len(screen.marks) >= 2)
        assert screen.review is None  # still running
        assert screen.review_line.startswith("Reviewing your moves against the hard bot: ")
        assert f"of {screen.to_review}, " in screen.review_line and "marked so far" in screen.review_line
        await pilot.press("n")
        mark = screen.marks[min(screen.marks)]
        assert cursor.position == mark.step and f"Hard would: {mark.hint.reason}" in screen.move_text
        worker = screen.review_worker
        assert worker is not None and not worker.is_finished
        await pilot.press("escape")
        await pilot.pause()
    assert not app.is_running
    assert screen.review_stopped.wait(120)  # the review's thread returns soon after (bounded: never hangs the test)
    assert worker.is_cancelled and screen.review is None
    assert screen.reviewed < screen.to_review


async def test_a_game_of_bots_has_nothing_to_review() -> None:
    table = Table.create("screw", 3, seed=5, bots=["medium"] * 3)
    table.run()
    app = ReplayApp(ReplayCursor.open(keep_replay(table)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = viewer(app)
        await pilot.pause()
        assert screen.review_worker is None
        assert screen.review_line == "Nothing to review: every seat was a computer player"
        await pilot.press("n")
        assert screen.cursor.position == 0
        await pilot.press("end")
        assert screen.cursor.position == screen.cursor.total and "Hard would" not in screen.move_text


async def test_the_log_words_the_persons_own_moves_as_theirs() -> None:
    game = get_entry("screw").game
    order = game.deck_for(3, 2, [parse_cards("2C"), parse_cards("9H"), parse_cards("JD")])
    table = Table.create(
        "screw", 3, seed=5, bots=[None, "medium", "medium"], scenario=Scenario(decks=(order,), dealer=2)
    )
    table.submit(0, "trade")
    while not table.state.is_over:
        if table.state.to_move == 0:
            table.submit(0, "stay")
        else:
            table.step_bot()
    app = ReplayApp(ReplayCursor.open(keep_replay(table)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = viewer(app)
        await pilot.press("right")
        assert screen.cursor.position == 1
        # The person's own trade, with the cards it showed them, in the second person (not "You trades").
        assert "you gave 2♣ and got 9♥" in screen.move_text
