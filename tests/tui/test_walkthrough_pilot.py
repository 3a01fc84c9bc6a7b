"""The walkthrough screen (issue 31, point 3): opened with "Show me" from the menu's rules and from a table's rules
pane, played a step at a time with Enter or by choosing the move asked, a wrong choice refused with nothing changed,
steps gone through forwards and back, and Escape back where it was opened.

The games' own walkthroughs are written elsewhere (``engine/games/*/walkthrough.py``): these tests build one of
their own for Screw Your Neighbor on stacked deals (:func:`screw_walkthrough`) and hand it to the screen, or, where
the screen is opened by the app, put it in place of ``walkthrough_of`` in the module that asks for it unless the game
has its own (:func:`the_walkthrough`). Each game's own, once it has one, is played through to its end."""

from __future__ import annotations

from typing import Any

import pytest
from test_screen_styles import assert_styled_alike_in_any_order, own_files, read_files
from textual.app import App, ComposeResult
from textual.widgets import Button, OptionList, Select, Static
from tui_helpers import my_turn, table_screen, wait_for

import tui.screens.rules as rules_module
import tui.screens.table as table_module
from engine.cards import parse_cards
from engine.game import GameEntry, Scenario
from engine.registry import ENTRIES, get_entry, walkthrough_of
from engine.walkthrough import Move, Step, Walkthrough
from tui.apps.parlour import ParlourApp, PlayConfig
from tui.screens.menu import MenuScreen
from tui.screens.rules import RulesScreen
from tui.screens.walkthrough import NEXT_ROUND, SEE_IT_MADE, WalkthroughScreen
from tui.terminal.screen_styles import app_css_path

SCREW = get_entry("screw")

BLOCKED_SAYS = "Ben holds a King, so Ada's trade is blocked and the K♦ is shown."
PAID_SAYS = "Ada ends with the lowest card, the 2♣, so she pays a life."


def screw_walkthrough() -> Walkthrough:
    """Three steps of Screw on stacked deals: a trade you are asked to make, then a King blocking one; a hand watched
    to its end; a broken step (its move is not legal there)."""
    game = SCREW.game
    trade = Step(
        "A King blocks a trade",
        ("trades with the player to their left", "A King holder must stay"),
        "You hold the 2♣, Ada the 9♥ and Ben, the dealer, the K♦.",
        3,
        Scenario(decks=(game.deck_for(3, 2, [parse_cards("2C"), parse_cards("9H"), parse_cards("KD")]),), dealer=2),
        (
            Move(0, "trade", "You gave Ada your 2♣ and took her 9♥.", asked=True, ask="Trade with Ada: choose 'trade'"),
            Move(1, "trade", BLOCKED_SAYS, shows=("KingShown",)),
            Move(2, "stay", PAID_SAYS, shows=("Paid",)),
        ),
    )
    lowest = Step(
        "The lowest card pays",
        ("The lowest card pays 1",),
        "Everyone stays: the lowest card pays.",
        3,
        Scenario(decks=(game.deck_for(3, 2, [parse_cards("5C"), parse_cards("9H"), parse_cards("3D")]),), dealer=2),
        (
            Move(0, "stay", "You keep your 5♣.", asked=True, ask="Keep your card: choose 'stay'"),
            Move(1, "stay", "Ada keeps her 9♥."),
            Move(2, "stay", "Ben's 3♦ is the lowest card: he pays.", shows=("Paid",)),
        ),
    )
    broken = Step(
        "A step the rules refuse",
        ("A player with no life left is out",),
        "Ben is not the first to move here.",
        3,
        Scenario(decks=(game.deck_for(3, 2, [parse_cards("5C"), parse_cards("9H"), parse_cards("3D")]),), dealer=2),
        (Move(2, "stay", "Ben stays."),),
    )
    return Walkthrough((trade, lowest, broken))


class WalkApp(App[None]):
    """The walkthrough screen alone, over an empty screen."""

    CSS_PATH = app_css_path()

    def __init__(self, entry: GameEntry, walkthrough: Walkthrough) -> None:
        super().__init__()
        self.entry, self.walkthrough = entry, walkthrough

    def compose(self) -> ComposeResult:
        yield Static("under the walkthrough", id="under")

    def on_mount(self) -> None:
        self.push_screen(WalkthroughScreen(self.entry, self.walkthrough))


def walk_screen(app: App[Any]) -> WalkthroughScreen:
    screen = app.screen
    assert isinstance(screen, WalkthroughScreen), screen
    return screen


def hand_of(screen: WalkthroughScreen, seat: int) -> list[str]:
    assert screen.walk is not None
    return [card.pretty() for card in screen.walk.state.zones()[f"hand {seat}"]]


def position_in_sight(screen: WalkthroughScreen) -> bool:
    """The first line of the position is within the step's part of the screen, not scrolled out of it."""
    body, table = screen.query_one("#walk-body").region, screen.query_one("#walk-table").region
    return body.y <= table.y < body.bottom


async def choose(pilot: Any, screen: WalkthroughScreen, words: str) -> None:
    """Choose ``words`` in the list of moves with the keys (down to it, then Enter)."""
    choices = screen.query_one("#walk-choices", OptionList)
    labels = [str(choices.get_option_at_index(i).prompt) for i in range(choices.option_count)]
    assert words in labels, labels
    assert choices.has_focus and choices.highlighted == 0
    for _ in range(labels.index(words)):
        await pilot.press("down")
    await pilot.press("enter")
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_step_played_with_the_move_asked_and_enter(size: tuple[int, int]) -> None:
    app = WalkApp(SCREW, screw_walkthrough())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = walk_screen(app)
        assert "Step 1 of 3" in screen.text_of("walk-heading")
        assert "A King blocks a trade" in screen.text_of("walk-heading")
        rules = screen.text_of("walk-rules")
        assert "who must accept" in rules and "A King holder must stay" in rules  # the rules' own words
        assert "You hold the 2♣" in screen.text_of("walk-intro")
        table = screen.text_of("walk-table")
        assert "You" in table and "2♣" in table and "K♦" in table and "Deck" in table
        assert "Trade with Ada" in screen.text_of("walk-ask")
        assert not screen.query_one("#walk-said").display  # no move made yet

        # The wrong move: refused in the step's words, and nothing changes.
        assert screen.walk is not None
        before = screen.walk.state.version
        await choose(pilot, screen, "Stay")
        assert "Not this time: trade" in screen.text_of("walk-ask")
        assert screen.walk.state.version == before and screen.walk.made == 0
        assert hand_of(screen, 0) == ["2♣"]

        # The move asked, chosen: made, and the position after it in sight.
        await choose(pilot, screen, "Trade")
        assert screen.walk.made == 1 and hand_of(screen, 0) == ["9♥"]
        assert await wait_for(pilot, lambda: position_in_sight(screen))
        said = screen.text_of("walk-said")
        assert "You gave Ada your 2♣" in said
        assert "You traded with Ada" in said  # the log's words for the move's events
        assert "9♥" in screen.text_of("walk-table")
        assert "Enter: see Ada's move" in screen.text_of("walk-prompt")

        # Enter: the moves shown being made, each with the log's words and why.
        await pilot.press("enter")
        await pilot.pause()
        said = screen.text_of("walk-said")
        assert BLOCKED_SAYS in said and "blocked Ada's trade" in said
        await pilot.press("enter")
        await pilot.pause()
        said = screen.text_of("walk-said")
        assert PAID_SAYS in said and "pays 1" in said
        # The hand is over and the engine has dealt the next: the position says so, the log's words stop there.
        assert screen.text_of("walk-table").startswith(NEXT_ROUND) and "You were dealt" not in said
        assert screen.walk.done
        assert "End of this step" in screen.text_of("walk-prompt")
        await pilot.press("enter")  # on to the next step
        await pilot.pause()
        assert screen.index == 1 and "The lowest card pays" in screen.text_of("walk-heading")


async def test_enter_alone_sees_an_asked_move_made() -> None:
    app = WalkApp(SCREW, screw_walkthrough())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = walk_screen(app)
        choices = screen.query_one("#walk-choices", OptionList)
        assert str(choices.get_option_at_index(0).prompt) == f"▸ {SEE_IT_MADE}"
        await pilot.press("enter")
        await pilot.pause()
        assert screen.walk is not None and screen.walk.made == 1 and hand_of(screen, 0) == ["9♥"]
        assert not choices.display and not choices.has_focus


async def test_after_a_move_the_position_is_in_sight_below_a_long_intro() -> None:
    step = screw_walkthrough().steps[0]
    long = Step(step.title, step.rules, "Watch the King. " * 60, 3, step.scenario, step.moves)
    app = WalkApp(SCREW, Walkthrough((long,)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = walk_screen(app)
        assert not position_in_sight(screen)  # the step opens on its title and rules
        await pilot.press("enter")
        await pilot.pause()
        assert await wait_for(pilot, lambda: position_in_sight(screen))
        await pilot.press("enter")  # the box of the last move grows: the position stays in sight
        await pilot.pause()
        assert await wait_for(pilot, lambda: position_in_sight(screen))


async def test_steps_forwards_back_again_and_a_refused_step() -> None:
    app = WalkApp(SCREW, screw_walkthrough())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = walk_screen(app)
        await pilot.press("enter")  # the trade made
        await pilot.pause()
        assert screen.walk is not None and screen.walk.made == 1
        await pilot.press("r")  # the step again, from its start
        await pilot.pause()
        assert screen.index == 0 and screen.walk.made == 0 and hand_of(screen, 0) == ["2♣"]
        await pilot.press("n")
        await pilot.pause()
        assert screen.index == 1 and "Step 2 of 3" in screen.text_of("walk-heading")
        assert "The lowest card pays 1" in screen.text_of("walk-rules")
        await pilot.press("p")
        await pilot.pause()
        assert screen.index == 0 and screen.walk.made == 0
        await pilot.press("left")  # no step before the first: it stays
        await pilot.pause()
        assert screen.index == 0
        await pilot.press("right", "right")
        await pilot.pause()
        assert screen.index == 2
        # The last step's move is not legal where it is made: said plainly, and no traceback.
        await pilot.press("enter")
        await pilot.pause()
        assert app.return_code is None and walk_screen(app) is screen
        said = screen.query_one("#walk-said")
        assert said.display and said.has_class("-problem")
        assert "A step the rules refuse" in screen.text_of("walk-said") and "refused" in screen.text_of("walk-said")
        assert "Enter or Escape: close" in screen.text_of("walk-prompt")
        await pilot.press("enter")  # at the end of the last step Enter closes
        await pilot.pause()
        assert not isinstance(app.screen, WalkthroughScreen)
        assert app.screen.query_one("#under")


async def test_a_step_whose_setup_is_refused_says_so() -> None:
    step = screw_walkthrough().steps[1]
    broken = Step(step.title, step.rules, step.intro, 3, step.scenario, step.moves, setup=((1, "stay"),))
    app = WalkApp(SCREW, Walkthrough((broken, step)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = walk_screen(app)
        assert screen.walk is None
        assert "cannot be shown" in str(screen.query_one("#walk-said").border_title)
        assert "setup move" in screen.text_of("walk-said")
        await pilot.press("enter")  # on to the next step
        await pilot.pause()
        assert screen.index == 1 and screen.walk is not None


def titles(walkthrough: Walkthrough) -> list[str]:
    """Its steps' titles (a game's walkthrough is made anew each time it is asked for)."""
    return [step.title for step in walkthrough.steps]


def the_walkthrough(entry: GameEntry, monkeypatch: pytest.MonkeyPatch, module: Any) -> Walkthrough:
    """The game's own walkthrough once it has one; until then this file's, put in place in ``module``."""
    own = walkthrough_of(entry)
    if own is not None:
        return own
    made = screw_walkthrough()
    monkeypatch.setattr(module, "walkthrough_of", lambda asked: made if asked.key == entry.key else None)
    return made


async def test_show_me_from_the_menu_s_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    walkthrough = the_walkthrough(SCREW, monkeypatch, rules_module)
    app = ParlourApp(pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        menu.query_one("#game", Select).value = "screw"
        assert await wait_for(pilot, lambda: menu.entry.key == "screw")
        menu.action_rules()
        assert await wait_for(pilot, lambda: isinstance(app.screen, RulesScreen))
        rules = app.screen
        assert await wait_for(pilot, lambda: bool(rules.query("#rules-show-me")))
        await pilot.press("e")
        assert await wait_for(pilot, lambda: isinstance(app.screen, WalkthroughScreen))
        screen = walk_screen(app)
        assert titles(screen.walkthrough) == titles(walkthrough) and screen.entry.key == "screw"
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: app.screen is rules)
        await pilot.click("#rules-show-me")
        assert await wait_for(pilot, lambda: isinstance(app.screen, WalkthroughScreen))
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: app.screen is rules)
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: app.screen is menu)


async def test_no_show_me_for_a_game_without_a_walkthrough(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules_module, "walkthrough_of", lambda entry: None)
    app = App[None]()
    async with app.run_test(size=(80, 24)) as pilot:
        rules = RulesScreen("# Screw\n\nSome rules.", SCREW)
        await app.push_screen(rules)
        await pilot.pause()
        assert not rules.query("#rules-show-me")
        await pilot.press("e")  # nothing to open
        await pilot.pause()
        assert app.screen is rules


async def test_show_me_from_a_table_s_rules_pane_and_back(monkeypatch: pytest.MonkeyPatch) -> None:
    walkthrough = the_walkthrough(SCREW, monkeypatch, table_module)
    app = ParlourApp(start=PlayConfig(game="screw", players=3, seed=5, difficulty="easy"), pace=0)
    async with app.run_test(size=(120, 40)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = table_screen(pilot)
        before = table.session.snapshot()
        await pilot.press("r")  # the rules pane
        await pilot.pause()
        button = table.query_one("#rules-show-me", Button)
        assert button.display and table.rules_open
        await pilot.click("#rules-show-me")
        assert await wait_for(pilot, lambda: isinstance(app.screen, WalkthroughScreen))
        screen = walk_screen(app)
        assert titles(screen.walkthrough) == titles(walkthrough)
        await pilot.press("enter")  # a move of the walkthrough: the table's own match is another
        await pilot.pause()
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: app.screen is table)
        assert table.rules_open  # as it was: the pane open, the match where it stood, your move still to make
        assert table.session.snapshot() == before and my_turn(pilot)
        await pilot.press("e")  # the key, pane open or not
        assert await wait_for(pilot, lambda: isinstance(app.screen, WalkthroughScreen))
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: app.screen is table)
        assert table.session.snapshot() == before


async def test_no_show_me_at_a_table_without_a_walkthrough(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_module, "walkthrough_of", lambda entry: None)
    app = ParlourApp(start=PlayConfig(game="screw", players=3, seed=5, difficulty="easy"), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = table_screen(pilot)
        await pilot.press("r")
        await pilot.pause()
        assert table.rules_open and not table.query("#rules-show-me")
        await pilot.press("e")
        await pilot.pause()
        assert app.screen is table and table.refusal == "Screw Your Neighbor has no walkthrough of its rules yet"


async def test_the_walkthrough_reads_no_stylesheet_and_looks_alike_in_any_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    the_walkthrough(SCREW, monkeypatch, table_module)
    app = ParlourApp(start=PlayConfig(game="screw", players=3, seed=5, difficulty="easy"), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        before = read_files(app)
        await pilot.press("e")
        assert await wait_for(pilot, lambda: isinstance(app.screen, WalkthroughScreen))
        await pilot.pause()
        assert set(own_files(app.screen)) <= set(before) and read_files(app) == before  # the table's files hold its
        assert_styled_alike_in_any_order(app, app.screen)


@pytest.mark.parametrize("key", [entry.key for entry in ENTRIES])
async def test_each_game_s_own_walkthrough_plays_through_or_is_not_offered(key: str) -> None:
    """A game with a walkthrough of its own: it plays from its first step to its end with Enter alone, every move
    made and said, no step refused. A game without: its rules offer no "Show me"."""
    entry = get_entry(key)
    walkthrough = walkthrough_of(entry)
    if walkthrough is None:
        app = App[None]()
        async with app.run_test(size=(80, 24)) as pilot:
            rules = RulesScreen(entry.game.rules_summary(), entry)
            await app.push_screen(rules)
            await pilot.pause()
            assert not rules.query("#rules-show-me")
        return
    app = WalkApp(entry, walkthrough)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = walk_screen(app)
        for index, step in enumerate(walkthrough.steps):
            assert screen.index == index and step.title in screen.text_of("walk-heading")
            await pilot.press(*["enter"] * len(step.moves))
            await pilot.pause()
            assert screen.problem is None, screen.problem
            assert screen.walk is not None and screen.walk.done
            assert step.moves[-1].says.split()[0] in screen.text_of("walk-said")
            await pilot.press("enter")
        assert not isinstance(app.screen, WalkthroughScreen)
