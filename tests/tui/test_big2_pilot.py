"""The Big Two table driven by Pilot: keys, clicks, an illegal play, the hint, sorting, the end of a deal."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Markdown
from tui_helpers import my_turn, settled, wait_for

from engine.cards import Card
from engine.games.big2.rules import PASS, Play, classify
from tui.apps.parlour import ParlourApp, PlayConfig
from tui.dialogs.results import ResultsScreen
from tui.games.big2.scoring import Big2ScoringScreen
from tui.games.big2.table import Big2TableScreen
from tui.games.big2.words import loss_steps
from tui.widgets.event_log import EventLog
from tui.widgets.hand import CARD_WIDTH, HandStrip
from tui.words.faces import set_faces

BIG2 = PlayConfig(game="big2", players=4, seed=3)


def big2_of(pilot: Pilot) -> Big2TableScreen:
    for screen in reversed(pilot.app.screen_stack):
        if isinstance(screen, Big2TableScreen):
            return screen
    raise AssertionError(f"no Big Two table in {pilot.app.screen_stack}")


def log_lines(screen: Big2TableScreen) -> list[str]:
    return screen.query_one(EventLog).lines_written


def hand_of(screen: Big2TableScreen) -> HandStrip:
    return screen.query_one(HandStrip)


async def select_with_keys(pilot: Pilot, cards: tuple[Card, ...]) -> None:
    """Move the cursor to each card with the arrow keys and press space on it."""
    hand = hand_of(big2_of(pilot))
    for card in cards:
        target = hand.cards.index(card)
        step = "right" if target > hand.cursor else "left"
        for _ in range(abs(target - hand.cursor)):
            await pilot.press(step)
        assert hand.cursor == target
        await pilot.press("space")
    assert set(hand.selection) == set(cards)


def smallest_play(screen: Big2TableScreen) -> Play:
    plays = [a for a in screen.session.snapshot().legal if isinstance(a, Play)]
    return min(plays, key=lambda p: (len(p.cards), [str(c) for c in p.cards]))


async def test_play_a_round_with_keys() -> None:
    app = ParlourApp(start=BIG2, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = big2_of(pilot)
        before = len(table.view.hand)
        play = smallest_play(table)
        await select_with_keys(pilot, play.cards)
        combo = classify(play.cards, table.options)
        assert combo is not None
        assert table.status_text.startswith(f"Selected: {combo.describe()}")
        await pilot.press("enter")
        await pilot.pause()
        assert len(table.view.hand) == before - len(play.cards)
        assert len(hand_of(table).cards) == before - len(play.cards)
        assert any(line.startswith(f"You play {combo.describe()}") for line in log_lines(table))
        # Play on until passing is allowed, then pass with x.
        passed = False
        for _ in range(20):
            assert await wait_for(pilot, lambda: my_turn(pilot) or table.session.snapshot().over)
            if table.session.snapshot().view.table is not None:
                await pilot.press("x")
                assert await wait_for(pilot, lambda: "You pass" in log_lines(table))
                passed = True
                break
            await select_with_keys(pilot, smallest_play(table).cards)
            await pilot.press("enter")
            await pilot.pause()
        assert passed


async def test_play_by_clicking_the_hand() -> None:
    app = ParlourApp(start=BIG2, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = big2_of(pilot)
        hand = hand_of(table)
        play = smallest_play(table)
        for card in play.cards:
            x = hand.cards.index(card) * CARD_WIDTH + 1
            await pilot.click(HandStrip, offset=(x + hand.styles.padding.left + 1, 3))
        assert set(hand.selection) == set(play.cards)
        before = len(hand.cards)
        await pilot.click("#b2-play-button")
        assert await wait_for(pilot, lambda: len(hand.cards) == before - len(play.cards))
        assert any(line.startswith("You play ") for line in log_lines(table))


async def test_an_illegal_selection_explains_itself() -> None:
    app = ParlourApp(start=BIG2, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = big2_of(pilot)
        hand = hand_of(table)
        first, second = next((a, b) for a in hand.cards for b in hand.cards if a.rank != b.rank)
        await select_with_keys(pilot, (first, second))
        assert "not a combination" in table.status_text
        before = table.session.snapshot()
        lines = list(log_lines(table))
        await pilot.press("enter")
        await pilot.pause()
        assert "is not a combination" in table.status_text
        assert table.session.snapshot() == before
        assert table.my_turn
        assert log_lines(table) == lines
        assert len(hand.cards) == len(before.view.hand)
        # Said once, in the status line beside the hand: no toast over the cards repeats it.
        assert not any("is not a combination" in n for n in app.notices)


async def test_hint_selects_a_legal_play() -> None:
    app = ParlourApp(start=BIG2, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = big2_of(pilot)
        await pilot.press("h")
        assert await wait_for(pilot, lambda: table.status_text.startswith("Hint:"))
        hand = hand_of(table)
        legal = table.session.snapshot().legal
        if "Hint: pass" in table.status_text:
            assert PASS in legal and not hand.selection
        else:
            assert hand.selection and hand.hinted == set(hand.selection)
            assert any(isinstance(a, Play) and set(a.cards) == set(hand.selection) for a in legal)


async def test_sort_toggle_and_rules_pane() -> None:
    app = ParlourApp(start=BIG2, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = big2_of(pilot)
        hand = hand_of(table)
        by_rank = hand.cards
        assert [c.rank for c in by_rank] == sorted((c.rank for c in by_rank), key=lambda r: (int(r) - 3) % 13)
        await pilot.press("o")
        by_suit = hand.cards
        assert by_suit != by_rank and set(by_suit) == set(by_rank)
        suits = [c.suit for c in by_suit]
        assert all(suits.index(s) == i or suits[i - 1] == s for i, s in enumerate(suits))  # grouped by suit
        assert "by suit" in str(hand.border_title)
        await pilot.press("o")
        assert hand.cards == by_rank
        await pilot.press("r")
        await pilot.pause()
        assert table.rules_open
        assert "# Big Two" in table.query_one("#rules-text", Markdown).source
        await pilot.press("r")
        assert not table.rules_open


async def test_finish_a_deal_and_see_the_scoring() -> None:
    config = PlayConfig(game="big2", players=4, seed=3, difficulty="easy")
    app = ParlourApp(start=config, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        table = big2_of(pilot)
        keyed = False
        for _ in range(400):
            if isinstance(app.screen, Big2ScoringScreen):
                break
            if my_turn(pilot):
                if not keyed:
                    await select_with_keys(pilot, smallest_play(table).cards)
                    await pilot.press("enter")
                    keyed = True
                else:
                    # The rest of the deal through the session: the biggest play (or pass), to finish quickly.
                    legal = table.session.snapshot().legal
                    plays = [a for a in legal if isinstance(a, Play)]
                    table.submit(max(plays, key=lambda p: len(p.cards)) if plays else PASS)
            await pilot.pause()
        assert keyed
        scoring = app.screen
        assert isinstance(scoring, Big2ScoringScreen)
        deal = scoring.deal
        text = " ".join(str(s.render()) for s in scoring.query(".scoring-seat"))
        for seat, lost in enumerate(deal.losses):
            if lost is not None:
                assert all(step in text for step in loss_steps(lost, table.options))
                assert all(card.pretty() in text for card in deal.hands[seat])
        assert sum(deal.deltas) == 0
        # The table was drawn as the deal left it before the dialog opened: no seat still "thinking".
        assert table.thinking is None
        assert not any("thinking" in str(seat.render()) for seat in table.query(".b2seat"))
        assert "wins the deal" in " ".join(log_lines(table)) or "win the deal" in " ".join(log_lines(table))
        # Nobody moves while the scoring is open.
        events = len(log_lines(table))
        for _ in range(5):
            await pilot.pause()
        assert len(log_lines(table)) == events
        version = table.session.snapshot().version
        for _ in range(5):
            await pilot.pause(0.02)
        assert table.session.snapshot().version == version  # the bots wait for the player
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: app.screen is table)
        assert await wait_for(pilot, lambda: any(line.startswith("Deal 2 — ") for line in log_lines(table)))
        assert table.round == 2


async def test_a_whole_match_to_the_results() -> None:
    config = PlayConfig(game="big2", players=2, seed=5, difficulty="easy")
    app = ParlourApp(start=config, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        table = big2_of(pilot)
        for _ in range(2000):
            screen = app.screen
            if isinstance(screen, ResultsScreen):
                break
            if isinstance(screen, Big2ScoringScreen):
                await pilot.press("enter")
            elif my_turn(pilot):
                legal = table.session.snapshot().legal
                plays = [a for a in legal if isinstance(a, Play)]
                table.submit(max(plays, key=lambda p: len(p.cards)) if plays else PASS)
            await pilot.pause()
        assert isinstance(app.screen, ResultsScreen)
        summary = app.screen.summary
        assert summary.seed == 5 and len(summary.places) == 2
        assert table.session.snapshot().over
        assert any("the match with" in line for line in log_lines(table))


async def test_menu_offers_big_two_for_two_to_four() -> None:
    from textual.widgets import Checkbox, Select

    from tui.screens.menu import MenuScreen

    app = ParlourApp(pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        menu.query_one("#game", Select).value = "big2"
        players = menu.query_one("#players", Select)
        # The lists follow the game through messages: wait for them (a loaded machine takes a while).
        assert await wait_for(pilot, lambda: players.value == 4 and len(menu.query(Checkbox)) == 4)
        assert {box.id for box in menu.query(Checkbox)} == {
            "variant-standard-suits",
            "variant-taiwan",
            "variant-no-play-after-pass",
            "variant-pagat-scoring",
        }
        players.value = 3
        menu.query_one("#variant-taiwan", Checkbox).value = True
        assert await wait_for(pilot, lambda: menu.config().players == 3 and menu.chosen_variants() == ("taiwan",))
        # By keyboard: a click lands where the button was when the menu last laid itself out, which a loaded
        # machine may not have redone yet after the ticks above.
        menu.query_one("#start").focus()
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: isinstance(app.screen, Big2TableScreen))
        assert await settled(pilot)
        table = big2_of(pilot)
        assert len(table.session.info.names) == 3
        assert table.session.info.options.lead == "3C"
        assert len(hand_of(table).cards) in (17, 18)


async def test_a_refusal_writes_its_cards_in_plain_letters_when_they_are_chosen() -> None:
    app = ParlourApp(start=BIG2, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = big2_of(pilot)
        hand = hand_of(table)
        first, second = next((a, b) for a in hand.cards for b in hand.cards if a.rank != b.rank)
        set_faces(plain=True)
        try:
            await select_with_keys(pilot, (first, second))
            await pilot.press("enter")
            assert await wait_for(pilot, lambda: table.refusal is not None)
            shown = f"{first} {second}" if hand.cards.index(first) < hand.cards.index(second) else f"{second} {first}"
            assert table.refusal is not None and f"{shown} is not a combination" in table.refusal
            assert not set("♠♥♦♣") & set(table.refusal + table.status_text), table.refusal
        finally:
            set_faces()
