"""Settings: the file (round trip, atomic save, unknown keys kept, a bad file set aside), the screen (by keys and
clicks, save and cancel, from the menu and over a table), the theme kept between runs, and what the settings change
at a table (plain letters, four colours, pace).

Every test has a settings directory of its own (``tests/conftest.py``), so none of this touches your own file.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.content import Content
from textual.widgets import Checkbox, Input, OptionList, Select
from tui_helpers import my_turn, settled, wait_for

from engine.cards import Card
from tui.apps.parlour import ParlourApp, PlayConfig
from tui.dialogs.settings import SettingsScreen, open_settings
from tui.games.big2.table import Big2TableScreen
from tui.screens.menu import MenuScreen
from tui.settings.file import (
    FILE_NAME,
    GameDefaults,
    Settings,
    config_dir,
    dumps,
    load,
    save,
    settings_path,
    store,
)
from tui.widgets.event_log import EventLog
from tui.widgets.hand import HandStrip
from tui.words import faces

SYMBOLS = "♠♥♦♣"


def notices(app: ParlourApp) -> list[str]:
    return list(app.notices)


def one_sentence(text: str) -> bool:
    """One sentence: a capital first, a full stop last and none in between (a path's dots are not followed by a
    space)."""
    return text[:1].isupper() and text.endswith(".") and ". " not in text[:-1]


def write(path: Path, data: bytes | str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)


# -- the file ----------------------------------------------------------------------------------------------------
def test_the_tests_use_their_own_directory(own_settings_dir: Path) -> None:
    assert config_dir() == own_settings_dir
    assert settings_path() == own_settings_dir / FILE_NAME
    assert not own_settings_dir.exists()  # nothing is written until something is saved


def test_a_missing_file_is_the_defaults_without_a_word() -> None:
    settings, problem = load()
    assert settings == Settings() and problem is None
    assert settings.game("big2") == GameDefaults(difficulty="medium", players=4)
    assert settings.game("trash").players == 2


def test_save_and_load_round_trip() -> None:
    settings = Settings(
        name='Ann "[b]x[/b]" \\ Ü',
        theme="nord",
        faces="letters",
        four_colour=True,
        bot_pace=1.5,
        chain_pace=0.0,
    ).with_game("rank", GameDefaults(difficulty="hard", players=7))
    save(settings)
    loaded, problem = load()
    assert problem is None
    assert loaded == settings
    assert loaded.game("rank") == GameDefaults(difficulty="hard", players=7)


def test_save_is_atomic_and_leaves_no_temporary_file(own_settings_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save(Settings(name="Ann"))
    assert sorted(p.name for p in own_settings_dir.iterdir()) == [FILE_NAME]
    before = settings_path().read_bytes()

    def full_disk(source: object, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    problem = store(Settings(name="Ben"))
    assert problem is not None and one_sentence(problem) and "No space left on device" in problem
    assert settings_path().read_bytes() == before  # the old file is whole
    assert sorted(p.name for p in own_settings_dir.iterdir()) == [FILE_NAME]  # and the temporary file is gone


def test_unknown_keys_are_ignored_but_kept() -> None:
    write(
        settings_path(),
        'name = "Ann"\nfuture = [1, 2.5, "x"]\nwhen = 2026-01-02T03:04:05Z\n\n'
        '[games.big2]\nplayers = 3\ncolour = "red"\n\n[games.poker]\nplayers = 9\n\n'
        "[window]\nsize = {w = 80, h = 24}\n",
    )
    settings, problem = load()
    assert problem is None
    assert settings.name == "Ann" and settings.game("big2").players == 3
    assert "poker" not in settings.games  # a game this version does not have is not offered ...
    save(settings.with_game("big2", GameDefaults(difficulty="hard", players=4)))
    text = settings_path().read_text()
    # ... but everything the file held comes back on the next save, the known keys updated.
    for line in ('future = [1, 2.5, "x"]', "when = 2026-01-02T03:04:05+00:00", 'colour = "red"', "[games.poker]"):
        assert line in text
    again, problem = load()
    assert problem is None and again.game("big2") == GameDefaults(difficulty="hard", players=4)
    assert again.unknown["window"] == {"size": {"w": 80, "h": 24}}


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("name = 12\n", "name"),
        ('name = "' + "x" * 25 + '"\n', "at most 24"),
        ('name = "a\\u0007b"\n', "control characters"),
        ('name = "   "\n', "name"),
        ('theme = "no-such-theme"\n', "no-such-theme"),
        ('faces = "pictures"\n', "faces"),
        ('four_colour = "yes"\n', "four_colour"),
        ('bot_pace = "fast"\n', "bot_pace"),
        ("bot_pace = -1\n", "bot_pace"),
        ("chain_pace = 99\n", "chain_pace"),
        ("chain_pace = true\n", "chain_pace"),
        ('games = "all"\n', "games"),
        ("[games.big2]\nplayers = 7\n", "games.big2.players"),
        ('[games.big2]\nplayers = "four"\n', "games.big2.players"),
        ('[games.rank]\ndifficulty = "expert"\n', "games.rank.difficulty"),
        ("name = \n", "not valid TOML"),
    ],
)
def test_a_value_that_cannot_be_used_sets_the_file_aside(text: str, named: str) -> None:
    write(settings_path(), text)
    settings, problem = load()
    assert settings == Settings()  # the defaults, not half a file
    assert problem is not None and one_sentence(problem), problem
    assert named in problem
    assert not settings_path().exists()
    assert (settings_path().parent / "settings.toml.bad").read_text() == text  # moved, intact


def test_a_huge_file_is_not_read_but_set_aside() -> None:
    write(settings_path(), "# " + "x" * 300_000 + "\n")
    settings, problem = load()
    assert settings == Settings() and problem is not None and "larger than 256 KB" in problem
    assert (settings_path().parent / "settings.toml.bad").stat().st_size == 300_003


def test_a_second_bad_file_never_overwrites_the_first() -> None:
    folder = settings_path().parent
    write(settings_path(), b"\xff\xfe not text")
    write(folder / "settings.toml.bad", "older")
    write(folder / "settings.toml.bad-2", "older still")
    _, problem = load()
    assert problem is not None and "settings.toml.bad-3" in problem and "UTF-8" in problem
    assert (folder / "settings.toml.bad").read_text() == "older"
    assert (folder / "settings.toml.bad-2").read_text() == "older still"
    assert (folder / "settings.toml.bad-3").read_bytes() == b"\xff\xfe not text"


def test_the_written_file_reads_as_documented() -> None:
    text = dumps(Settings(name="Ann", theme="nord").with_game("big2", GameDefaults("hard", 3)))
    assert text.startswith("# Parlour's settings")
    assert 'name = "Ann"\ntheme = "nord"\nfaces = "symbols"\nfour_colour = false\n' in text
    assert '[games.big2]\ndifficulty = "hard"\nplayers = 3\n' in text


# -- the app at the start -------------------------------------------------------------------------------------------
async def test_a_garbage_file_is_reported_once_and_set_aside() -> None:
    garbage = b"\x00\xff\xfe\x80 this is not toml \x1b[2J"
    write(settings_path(), garbage)
    app = ParlourApp(pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        said = [text for text in notices(app) if "settings" in text]
        assert len(said) == 1 and one_sentence(said[0]), said
        assert "settings.toml.bad" in said[0]
        assert app.settings == Settings() and app.theme == "textual-dark"
        assert app.screen.query_one("#name", Input).value == "You"
    assert (settings_path().parent / "settings.toml.bad").read_bytes() == garbage
    assert not settings_path().exists()


async def test_a_file_of_wrong_types_is_reported_and_the_defaults_used() -> None:
    text = 'name = "Ann"\ntheme = "nord"\nbot_pace = "slow"\n'
    write(settings_path(), text)
    app = ParlourApp()
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        said = [text for text in notices(app) if "settings" in text]
        assert len(said) == 1 and "bot_pace" in said[0] and one_sentence(said[0])
        assert app.theme == "textual-dark" and app.pace == Settings().bot_pace  # nothing of the bad file is used
        assert app.screen.query_one("#name", Input).value == "You"
    assert (settings_path().parent / "settings.toml.bad").read_text() == text


def test_a_pace_given_to_the_app_wins_over_the_file() -> None:
    save(Settings(bot_pace=2.0, chain_pace=1.2))
    assert (ParlourApp().pace, ParlourApp().chain_pace) == (2.0, 1.2)
    assert (ParlourApp(pace=0).pace, ParlourApp(pace=0).chain_pace) == (0, 0.0)
    assert ParlourApp(pace=0.01).chain_pace == 1.2


def test_a_table_started_without_a_name_takes_yours() -> None:
    save(Settings(name="Ann"))
    assert ParlourApp(start=PlayConfig(game="big2")).start_config.name == "Ann"  # type: ignore[union-attr]
    assert ParlourApp(start=PlayConfig(game="big2", name="Zed")).start_config.name == "Zed"  # type: ignore[union-attr]


def test_parlour_play_without_players_or_difficulty_takes_your_defaults_for_the_game() -> None:
    games = dict(Settings().games)
    games["big2"] = GameDefaults(difficulty="hard", players=3)
    save(Settings(games=games))
    left_open = PlayConfig(game="big2", players=4, difficulty="medium", from_settings=("players", "difficulty"))
    config = ParlourApp(start=left_open).start_config
    assert config is not None and (config.players, config.difficulty) == (3, "hard")
    given = ParlourApp(start=PlayConfig(game="big2", players=2, difficulty="easy")).start_config
    assert given is not None and (given.players, given.difficulty) == (2, "easy")


# -- the screen --------------------------------------------------------------------------------------------------
async def choose(pilot: object, selector: str, label: str) -> None:
    """Pick ``label`` in a Select with the keyboard: focus it, open it, walk down to the option, Enter."""
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    select = pilot.app.screen.query_one(selector, Select)
    select.focus()
    await pilot.pause()
    await pilot.press("enter")
    shown = select.query_one(OptionList)  # the list it opens, the current option highlighted
    assert await wait_for(pilot, lambda: shown.has_focus and shown.highlighted is not None)
    labels = [str(shown.get_option_at_index(i).prompt) for i in range(shown.option_count)]
    wanted = next(i for i, text in enumerate(labels) if text.startswith(label))
    current = shown.highlighted
    assert current is not None
    for _ in range(abs(wanted - current)):
        await pilot.press("down" if wanted > current else "up")
    await pilot.press("enter")
    await pilot.pause()


async def test_settings_round_trip_through_the_screen() -> None:
    app = ParlourApp()
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.press("s")
        assert await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen))
        screen = app.screen
        name = screen.query_one("#set-name", Input)
        assert name.has_focus and name.value == "You"
        await pilot.press("ctrl+a", *"Ann")
        name.value = "Ann"  # whatever the editing keys did, the name is Ann
        await choose(pilot, "#set-theme", "nord")
        await choose(pilot, "#set-faces", "Plain letters")
        await pilot.click("#set-four-colour")
        assert screen.query_one("#set-four-colour", Checkbox).value
        preview = str(screen.query_one("#set-preview").render())
        assert "10H" in preview and not set(SYMBOLS) & set(preview)  # the preview follows before saving
        await choose(pilot, "#set-bot-pace", "Slow")
        await choose(pilot, "#set-chain-pace", "No pause")
        await choose(pilot, "#set-players-big2", "3")
        await choose(pilot, "#set-difficulty-big2", "Hard")
        assert app.theme == "textual-dark" and not faces.current().plain  # nothing applies before Save
        await pilot.press("ctrl+s")
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        # Applied at once ...
        assert app.theme == "nord"
        assert faces.current() == faces.Faces(plain=True, four_colour=True)
        assert (app.pace, app.chain_pace) == (1.0, 0.0)
        assert app.screen.query_one("#name", Input).value == "Ann"
        assert await settled(pilot)
    # ... and written.
    saved, problem = load()
    assert problem is None
    assert (saved.name, saved.theme, saved.faces, saved.four_colour) == ("Ann", "nord", "letters", True)
    assert saved.game("big2") == GameDefaults(difficulty="hard", players=3)
    faces.set_faces()
    # A new run reads it back: theme, faces, pace, name, and the menu's defaults for Big Two.
    again = ParlourApp()
    async with again.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(again.screen, MenuScreen))
        assert again.theme == "nord" and faces.current().plain and again.pace == 1.0
        menu = again.screen
        assert menu.query_one("#name", Input).value == "Ann"
        menu.query_one("#game", Select).value = "big2"
        assert await wait_for(pilot, lambda: menu.query_one("#players", Select).value == 3)
        assert menu.query_one("#difficulty", Select).value == "hard"
        assert not notices(again)
        assert await settled(pilot)


async def test_cancel_and_escape_change_nothing() -> None:
    app = ParlourApp(pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        for leave in ("escape", "#settings-cancel"):
            await pilot.click("#settings")
            assert await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen))
            # (the dialog is on screen before its Select's own parts are mounted: a value set sooner finds no label)
            assert await wait_for(pilot, lambda: bool(app.screen.query("#set-theme #label")))
            app.screen.query_one("#set-name", Input).value = "Zed"
            app.screen.query_one("#set-theme", Select).value = "dracula"
            await pilot.pause()
            if leave == "escape":
                await pilot.press("escape")
            else:
                await pilot.click(leave)
            assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
            assert app.theme == "textual-dark" and app.settings.name == "You"
            assert app.screen.query_one("#name", Input).value == "You"
        assert not settings_path().exists()


async def test_a_name_that_cannot_be_used_is_said_and_the_dialog_stays() -> None:
    app = ParlourApp(pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.press("s")
        assert await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen))
        app.screen.query_one("#set-name", Input).value = "   "
        await pilot.click("#settings-save")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        problem = app.screen.query_one("#settings-problem")
        assert problem.display and "at least one character" in str(problem.render())
        assert not settings_path().exists()


async def test_the_dialog_fits_a_small_terminal() -> None:
    app = ParlourApp(pace=0)
    async with app.run_test(size=(70, 18)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.press("s")
        assert await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen))
        await pilot.pause()
        for button in ("#settings-save", "#settings-cancel"):
            region = app.screen.query_one(button).region
            assert region.height > 0 and region.bottom <= 18 - 1  # above the footer
        assert app.screen.query_one("#settings-scroll").max_scroll_y > 0  # the rest of the form scrolls


async def test_the_theme_from_the_command_palette_is_kept() -> None:
    app = ParlourApp(pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        app.action_change_theme()  # Textual's theme picker (ctrl+p, "Change theme")
        await pilot.pause()
        await pilot.press(*"dracula")

        def found() -> bool:
            lists = app.screen.query("CommandList")
            if not lists:
                return False
            options = lists.first(OptionList)
            return options.option_count == 1 and "dracula" in str(options.get_option_at_index(0).prompt)

        assert await wait_for(pilot, found)
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: app.theme == "dracula")
        assert await wait_for(pilot, lambda: settings_path().exists())
        assert await settled(pilot)
    assert load()[0].theme == "dracula"
    again = ParlourApp(pace=0)
    async with again.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(again.screen, MenuScreen))
        assert again.theme == "dracula"


# -- at the table ------------------------------------------------------------------------------------------------
def hand_text(table: Big2TableScreen) -> Content:
    rendered = table.query_one(HandStrip).render()
    assert isinstance(rendered, Content)
    return rendered


def styles_of(content: Content, text: str) -> set[str]:
    """The styles of the spans that cover exactly ``text`` in ``content``."""
    plain = content.plain
    return {
        str(span.style) for span in content.spans if plain[span.start : span.end] == text and span.style is not None
    }


async def test_letters_and_four_colours_at_a_big_two_table() -> None:
    save(Settings(faces="letters", four_colour=True))
    app = ParlourApp(start=PlayConfig(game="big2", players=4, seed=3), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = app.screen
        assert isinstance(table, Big2TableScreen)
        hand = table.query_one(HandStrip)
        shown = hand_text(table).plain
        assert not set(SYMBOLS) & set(shown)
        for card in hand.cards:
            assert f"└{card.suit.value}─┘" in shown  # type: ignore[union-attr]
        log = "\n".join(table.query_one(EventLog).lines_written)
        assert "3D" in log and not set(SYMBOLS) & set(log)  # "… leads with the 3D", not 3♦
        diamonds = [c for c in hand.cards if c.suit is not None and c.suit.value == "D"]
        clubs = [c for c in hand.cards if c.suit is not None and c.suit.value == "C"]
        assert diamonds and clubs
        assert "$text-primary" in " ".join(styles_of(hand_text(table), "D"))  # blue diamonds
        assert "$text-success" in " ".join(styles_of(hand_text(table), "C"))  # green clubs
        assert await settled(pilot)


async def test_settings_over_a_table_apply_at_once() -> None:
    app = ParlourApp(start=PlayConfig(game="big2", players=4, seed=3), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = app.screen
        assert isinstance(table, Big2TableScreen)
        assert set(SYMBOLS) & set(hand_text(table).plain)
        ten = Card.parse("10H")
        assert faces.card_text(ten) == "10♥"
        open_settings(app)  # what the command palette's "Settings" calls
        assert await wait_for(pilot, lambda: bool(app.screen.query("#set-faces")))
        await choose(pilot, "#set-faces", "Plain letters")
        await pilot.press("ctrl+s")
        assert await wait_for(pilot, lambda: app.screen is table)
        assert faces.card_text(ten) == "10H"
        assert not set(SYMBOLS) & set(hand_text(table).plain)  # the hand was redrawn
        assert app.pace == 0  # the pace the app was given stays
        assert load()[0].faces == "letters"
        assert await settled(pilot)
