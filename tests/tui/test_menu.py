"""The main menu: it starts from your settings, and its summary follows every box ticked, for every game."""

from __future__ import annotations

from itertools import combinations

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Select, Static
from tui_helpers import settled, wait_for

from engine.registry import get_entry
from tui.apps.parlour import ParlourApp
from tui.games import table_entries
from tui.screens.menu import MenuScreen, rules_line, useful_variants
from tui.settings.file import GameDefaults, Settings, save
from tui.words import faces


def summary(menu: MenuScreen) -> str:
    return str(menu.query_one("#preset-text", Static).render())


async def open_menu(pilot: Pilot) -> MenuScreen:
    app = pilot.app
    assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and bool(app.screen.query(Checkbox)))
    menu = app.screen
    assert isinstance(menu, MenuScreen)
    return menu


async def pick_game(pilot: Pilot, menu: MenuScreen, key: str) -> None:
    menu.query_one("#game", Select).value = key
    wanted = {f"variant-{k}" for k, _, _ in useful_variants(get_entry(key))}
    assert await wait_for(pilot, lambda: {box.id for box in menu.query(Checkbox)} == wanted)


async def tick(pilot: Pilot, menu: MenuScreen, key: str) -> str:
    """Tick a house rule with a click, and return the summary once it has changed."""
    before = summary(menu)
    box = menu.query_one(f"#variant-{key}", Checkbox)
    # A box just mounted (the game changed) may not be laid out yet: a click then lands on whatever was there.
    assert await wait_for(pilot, lambda: box.region.area > 0)
    await pilot.click(f"#variant-{key}")
    assert menu.query_one(f"#variant-{key}", Checkbox).value
    assert await wait_for(pilot, lambda: summary(menu) != before)
    return summary(menu)


@pytest.mark.parametrize("key", [entry.key for entry in table_entries()])
def test_every_game_and_every_set_of_house_rules_has_its_own_summary(key: str) -> None:
    entry = get_entry(key)
    variants = [v.key for v in entry.game.useful_variants(entry.preset)]
    seen: dict[str, tuple[str, ...]] = {}
    for n in range(len(variants) + 1):
        for chosen in combinations(variants, n):
            line = rules_line(entry, chosen, entry.game.default_players)
            assert line and not line[0].islower(), line  # sentence case (or a number first)
            try:
                entry.game.options(entry.preset, chosen)
            except Exception:
                assert "cannot be played together" in line
                continue
            assert line not in seen, f"{chosen} reads the same as {seen[line]}: {line}"
            seen[line] = chosen
    assert seen


def test_the_summary_follows_the_options_not_the_preset_text() -> None:
    chase = get_entry("chase")
    assert "honour" in rules_line(chase, (), 5)
    assert "honour" not in rules_line(chase, ("no-honour",), 5)
    screw = get_entry("screw")
    assert "honour" not in rules_line(screw, (), 5) and "a life on honour" in rules_line(screw, ("on-honour",), 5)
    assert "highest card pays" in rules_line(screw, ("high-card-pays",), 5)
    big2 = get_entry("big2")
    assert "3♦ leads" in rules_line(big2, (), 4) and "3♣ leads" in rules_line(big2, ("taiwan",), 4)
    assert "♠ > ♥ > ♣ > ♦" in rules_line(big2, ("standard-suits",), 4)
    assert "pagat scoring" in rules_line(big2, ("pagat-scoring",), 4)
    assert rules_line(big2, ("standard-suits", "taiwan"), 4) == (
        "Standard suits and Taiwan cannot be played together: untick one."
    )
    trash = get_entry("trash")
    assert "one deck" in rules_line(trash, (), 2) and "two decks" in rules_line(trash, (), 3)
    assert "wins the match" in rules_line(trash, ("match",), 2)
    assert "last turn" in rules_line(trash, ("last-turn",), 2)
    rank = get_entry("rank")
    assert "one deck and 2 jokers" in rules_line(rank, (), 4)
    assert "two decks and 4 jokers" in rules_line(rank, (), 5)


def test_the_summary_writes_cards_as_the_settings_say() -> None:
    faces.set_faces(plain=True)
    line = rules_line(get_entry("big2"), (), 4)
    assert "S > H > D > C, the 3D leads" in line and "♦" not in line


def test_house_rule_labels_are_in_sentence_case() -> None:
    labels = [label for entry in table_entries() for _, label, _ in useful_variants(entry)]
    assert "Pagat scoring" in labels
    assert all(label[0].isupper() for label in labels), labels


async def test_the_summary_follows_the_boxes_ticked_on_screen() -> None:
    app = ParlourApp(pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await open_menu(pilot)
        await pick_game(pilot, menu, "chase")
        assert await wait_for(pilot, lambda: summary(menu).startswith("3 tokens + a life on honour"))
        line = await tick(pilot, menu, "no-honour")
        assert line.startswith("3 tokens;") and "honour" not in line
        await pick_game(pilot, menu, "big2")
        assert await wait_for(pilot, lambda: summary(menu).startswith("Suits ♠ > ♥ > ♦ > ♣, the 3♦ leads"))
        assert "Pagat scoring" in {str(box.label) for box in menu.query(Checkbox)}
        assert "pagat scoring" in await tick(pilot, menu, "pagat-scoring")
        assert "3♣ leads" in await tick(pilot, menu, "taiwan")
        line = await tick(pilot, menu, "standard-suits")
        assert line == "Standard suits and Taiwan cannot be played together: untick one."
        assert menu.query_one("#preset-text").has_class("-problem")
        await pick_game(pilot, menu, "trash")
        assert await wait_for(pilot, lambda: "one deck" in summary(menu))
        menu.query_one("#players", Select).value = 3
        assert await wait_for(pilot, lambda: "two decks" in summary(menu))  # the summary follows the players too
        assert await settled(pilot)


async def test_the_menu_starts_from_your_settings() -> None:
    save(
        Settings(name="Ann")
        .with_game("rank", GameDefaults(difficulty="hard", players=6))
        .with_game("screw", GameDefaults(difficulty="easy", players=3))
    )
    app = ParlourApp(pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await open_menu(pilot)
        assert menu.query_one("#name", Input).value == "Ann"
        assert menu.query_one("#players", Select).value == 3
        assert menu.query_one("#difficulty", Select).value == "easy"
        await pick_game(pilot, menu, "rank")
        assert await wait_for(pilot, lambda: menu.query_one("#players", Select).value == 6)
        assert menu.query_one("#difficulty", Select).value == "hard"
        assert await wait_for(pilot, lambda: "two decks" in summary(menu))
        # A choice of your own stays when the next game takes it too; what the menu set follows the game.
        menu.query_one("#difficulty", Select).value = "medium"
        await pilot.pause()
        await pick_game(pilot, menu, "big2")
        assert await wait_for(pilot, lambda: menu.query_one("#players", Select).value == 4)
        assert menu.query_one("#difficulty", Select).value == "medium"
        config = menu.config()
        assert (config.game, config.players, config.difficulty, config.name) == ("big2", 4, "medium", "Ann")
        assert await settled(pilot)


async def test_settings_saved_from_the_menu_update_it() -> None:
    app = ParlourApp(pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await open_menu(pilot)
        await pick_game(pilot, menu, "big2")
        await pilot.press("s")
        assert await wait_for(pilot, lambda: bool(app.screen.query("#set-players-big2")))
        app.screen.query_one("#set-name", Input).value = "Bea"
        app.screen.query_one("#set-players-big2", Select).value = 2
        app.screen.query_one("#set-faces", Select).value = "letters"
        await pilot.pause()
        await pilot.click("#settings-save")
        assert await wait_for(pilot, lambda: app.screen is menu)
        assert await wait_for(pilot, lambda: menu.query_one("#players", Select).value == 2)
        assert menu.query_one("#name", Input).value == "Bea"
        assert "the 3D leads" in summary(menu)
        assert await settled(pilot)
