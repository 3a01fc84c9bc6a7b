"""The Parlour app: the main menu, or straight to a table for a given configuration.

The app is the only part of the UI that sets up tables: it builds a host for the table (which runs the computer
players) and gives the screen a session for your seat. Screens ask for a new game, a replay of the setup or the
menu by posting messages (:mod:`tui.messages`), so no screen imports the app.
"""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen

from engine.errors import ParlourError
from engine.events import Event
from engine.match import MatchOver
from engine.play.bot_process import ProcessDecider
from engine.play.table_host import TableHost
from engine.records.paths import autosave_path
from engine.registry import difficulties, get_entry
from tui.apps.navigation import Navigation, navigation_commands
from tui.apps.notices import KeepsNotices
from tui.dialogs.confirm import ConfirmScreen
from tui.games import screen_class
from tui.messages import MainMenu, PlayAgain, PlayConfig, ResumeMatch, StartGame, TakeBack
from tui.screens.table import TableScreen
from tui.settings.file import GameDefaults, store
from tui.settings.in_app import KeepsSettings, is_settings_screen
from tui.terminal.screen_styles import StylePaths, app_css_path, first_css_path
from tui.words import and_list

if TYPE_CHECKING:
    from engine.records.finish import Keeper
    from engine.table import Table as SavedTable  # built by engine.records from a save, never here
    from tui.screens.menu import MenuScreen

# Imported where they are first needed, not here: the menu's screen, the statistics, and each game's table
# (tui.games) are only loaded when shown, so `parlour play GAME` starts without the menu or the other games, and
# `parlour` without any table.

__all__ = ["ParlourApp", "PlayConfig"]

KEEP_ON_QUIT = 2.0
"""Seconds the app waits at most, as it ends, for the keeper to write what is asked (a full or locked disk never
keeps Parlour from quitting)."""


class WriteProblem(Message):
    """A save, replay or statistics write failed (posted from the keeper's thread): said in the table's status line."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class Told(Message):
    """A warning posted from another thread, shown as a notice by the app's own thread."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


def bots_in_a_process() -> bool:
    """Do the computer players think in a child process (the default)? ``PARLOUR_BOT_PROCESS=0`` keeps them on a
    thread of the app's process: the test suite does, as a child process costs a fresh interpreter per table."""
    return os.environ.get("PARLOUR_BOT_PROCESS", "1") != "0"


def menu_screen(
    game: str | None = None, players: int | None = None, difficulty: str | None = None, name: str | None = None
) -> MenuScreen:
    """The main menu (its module, with the forms and the rules dialog, is loaded the first time it is shown)."""
    from tui.screens.menu import MenuScreen

    return MenuScreen(game, players, difficulty, name)


def first_screen_class(start: PlayConfig | None) -> type[Screen[None]] | None:
    """The class of the app's first screen: the menu, or the table of ``start``'s game (None if it has none)."""
    if start is None:
        from tui.screens.menu import MenuScreen

        return MenuScreen
    try:
        return screen_class(get_entry(start.game))
    except ParlourError:  # said when the table is opened (start_game)
        return None


def new_seed() -> int:
    """A seed from the system's randomness (``random.SystemRandom``: the ``secrets`` module, with the hashing it
    imports, would cost the start-up a few milliseconds for the same numbers)."""
    return random.SystemRandom().randrange(1_000_000)


class ParlourApp(Navigation, KeepsSettings, KeepsNotices, App[None]):
    TITLE = "Parlour"
    CSS_PATH: ClassVar[StylePaths] = app_css_path()  # and each screen's own CSS_PATH, when shown
    BINDINGS: ClassVar[list[BindingType]] = [
        *Navigation.NAVIGATION_BINDINGS,
        Binding("q", "leave('quit')", "Quit", tooltip="Quit Parlour (asks first while a match is on)"),
    ]

    def __init__(self, start: PlayConfig | None = None, pace: float | None = None) -> None:
        """``pace``: seconds a computer player's move stays before the next; given, it wins over the settings for
        this run (the tests pass 0), and 0 also plays chains of placements at once."""
        super().__init__(css_path=first_css_path(first_screen_class(start)))
        self.load_settings()  # what was wrong with their file is said once, when the app is mounted
        self.pace_fixed = pace is not None
        self.pace = self.settings.bot_pace if pace is None else pace
        self.chain_pace = self.settings.chain_pace if pace is None or pace > 0 else 0.0
        """Seconds each step of a chain of placements (Trash) stays on screen."""
        if start is not None and start.name == PlayConfig().name:
            start = replace(start, name=self.settings.name)  # no name given: yours from the settings
        if start is not None and start.from_settings:
            start = self._with_game_defaults(start)
        self.start_config = start
        self.config: PlayConfig | None = None
        """The configuration of the table in play (its seed filled in)."""
        self.host: TableHost | None = None
        """The host of the table in play: it runs the computer players."""
        self.keeper: Keeper | None = None
        """What writes the saves, replays and statistics (made with the first move): a thread of its own. One
        given before (a test's, writing through a disk that fails) is used instead, and told to say its problems
        in the status line when it has nobody to tell."""
        self._keeper_lock = threading.Lock()
        self._kept: tuple[TableHost, Callable[[], None]] | None = None
        """The host whose match is kept (:meth:`_keep`), and what saves it now (after a takeback)."""
        self._app_thread: int | None = None
        self.unfinished: SavedTable | None = None
        """The match left unfinished that the menu offers to resume (left for the menu, or not taken up at the
        start), until another game starts or it is resumed."""

    @property
    def unfinished_text(self) -> str | None:
        """What the menu says of the match it offers to resume: the game, the opponents, the moves in."""
        table = self.unfinished
        if table is None:
            return None
        moves = len(table.actions)
        names = and_list([seat.name for seat in table.seats[1:]])
        return f"{table.entry.title} against {names}, {moves} move{'s' * (moves != 1)} in"

    def _with_game_defaults(self, config: PlayConfig) -> PlayConfig:
        """``config`` with the fields the command line left open taken from your settings for its game."""
        defaults = self.settings.games.get(config.game)
        if defaults is None:
            return config
        rules = get_entry(config.game).game
        if "players" in config.from_settings and rules.min_players <= defaults.players <= rules.max_players:
            config = replace(config, players=defaults.players)
        if "difficulty" in config.from_settings and defaults.difficulty in difficulties(rules):
            config = replace(config, difficulty=defaults.difficulty)
        return replace(config, from_settings=())

    def on_mount(self) -> None:
        self._app_thread = threading.get_ident()  # (the thread _tell posts to from any other)
        self.apply_loaded_settings()
        # The first screen is pushed once the app has started, not from here: Textual runs this handler inside an
        # update batch that lasts until a screen pushed now has mounted every widget, and a frame the screen draws
        # meanwhile is thrown away (a whole table, a sixth of the start-up). Pushed a moment later, its first
        # frame is the one on the terminal.
        self.call_later(self._first_screen)

    def _first_screen(self) -> None:
        """The menu, or the table the command line asked for; either way first the offer to resume a match."""
        start = self.start_config
        if start is None:
            self.push_screen(menu_screen())
        self.offer_resume(lambda: self.start_game(start) if start is not None else None)

    def on_unmount(self) -> None:
        self._close_table()
        if self.keeper is not None:
            self.keeper.close(KEEP_ON_QUIT)  # the last save (or the match's end) written, within bounds
            self.keeper = None  # (an app run again writes through a new one)

    async def action_quit(self) -> None:
        self._close_table()  # the bots stop at once; a decision in progress is dropped
        self.exit()

    def start_game(self, config: PlayConfig) -> TableScreen | None:
        """Open a table for ``config`` (a random seed if it has none) in place of the current screen.

        A configuration the table cannot be set up for is reported, and the main menu shown instead.
        """
        self.unfinished = None  # (its save is replaced with this game's first move)
        seed = config.seed if config.seed is not None else new_seed()
        players = config.players
        try:
            entry = get_entry(config.game)
            screen_type = screen_class(entry)
            host = TableHost.create(
                config.game,
                players=players,
                seed=seed,
                bots=[None] + [config.difficulty] * (players - 1),
                names=[config.name],
                preset=config.preset,
                variants=config.variants,
                pace=self.pace,
                bot_process=bots_in_a_process(),  # a thinking bot never slows this process (keys, drawing, quitting)
                autostart=False,  # started once the table is drawn (_open_table)
                takebacks=True,  # (every other seat is a computer player's)
            )
        except ParlourError as err:
            self.notify(str(err), severity="error", timeout=8, markup=False)
            self._show_screen(menu_screen())
            return None
        return self._open_table(host, replace(config, seed=seed), screen_type)

    def _open_table(self, host: TableHost, config: PlayConfig, screen_type: type[TableScreen]) -> TableScreen:
        """Show the table ``host`` runs, your seat 0, and keep it: saved after every move, kept as a replay and
        counted in the statistics when it is over.

        The host's bots start once the table's first frame is drawn: their thread would otherwise start the bot
        process (a second interpreter, importing the engine) and the first bot's decision while the screen is
        being built, on the same two processors and under the same lock on the interpreter. Their first move is
        seldom later for it: a bot's move is shown once its pace (0.6 s by default) has passed since the table last
        moved, and the screen is drawn well within that; only a start whose bot process and first decision take
        longer than the pace shows it later, by at most the time the screen took to draw."""
        self._close_table()
        self.config = config
        self.host = host
        self._keep(host)
        screen = screen_type(host.connect(0))
        screen.seed = host.table.seed  # (the session is never told it: it deals the hands)
        self._show_screen(screen)
        screen.call_after_refresh(host.start)
        return screen

    def _keep(self, host: TableHost) -> None:
        """Save the match after every move (atomically, engine.records.saves), so a closed or killed Parlour
        offers it again at the next start; at its end, keep its replay and count it (then the save goes).

        The writing is the keeper's (a thread of its own): a move made under the host's lock only asks for it, so
        a slow, full, read-only or locked disk never holds up a bot, the host or the screen; a write that fails is
        said once, in the table's status line (:meth:`on_write_problem`)."""
        table, path = host.table, autosave_path()
        saved = [len(table.actions)]

        def save() -> None:
            saved[0] = len(table.actions)
            self._keeper().save(path, table)

        def on_event(event: Event) -> None:  # under the host's lock, on whichever thread applied the move: no I/O
            if isinstance(event, MatchOver):
                self._keeper().finish(table, 0, save=path)
            elif len(table.actions) != saved[0]:
                save()

        host.subscribe(None, on_event, replay=False)
        self._kept = (host, save)

    def _keeper(self) -> Keeper:
        with self._keeper_lock:
            if self.keeper is None:
                from engine.records.finish import Keeper  # (loaded with the first move, not at start-up)

                self.keeper = Keeper(self._write_problem)
            elif self.keeper.tell is None:
                self.keeper.tell = self._write_problem
            return self.keeper

    def _write_problem(self, text: str) -> None:
        """From the keeper's thread: posted, never waited for (the app's thread may be busy, or closing)."""
        self.post_message(WriteProblem(text))

    def on_write_problem(self, message: WriteProblem) -> None:
        message.stop()
        for screen in reversed(self.screen_stack):
            if isinstance(screen, TableScreen):
                screen.say_problem(message.text)
                return
        self.notify(message.text, severity="warning", timeout=10, markup=False)  # no table: said once all the same

    def _tell(self, text: str) -> None:
        """A warning to the player, from any thread: from another, posted to the app's thread, never waited for
        (a thread that waits for the screen while holding a lock the screen needs would stop both)."""
        if threading.get_ident() == self._app_thread:
            self.notify(text, severity="warning", timeout=10, markup=False)
        else:
            self.post_message(Told(text))

    def on_told(self, message: Told) -> None:
        message.stop()
        self.notify(message.text, severity="warning", timeout=10, markup=False)

    def offer_resume(self, then: Callable[[], object]) -> None:
        """If a match was left unfinished (Parlour closed or killed), ask whether to go on with it; otherwise, or
        when the answer is no, ``then()``. A save that cannot be used is moved aside and said in one sentence.

        Offered is this process's own save (:func:`~engine.records.paths.autosave_path`): the newest that no other
        running Parlour owns, so a match in play elsewhere is never offered; the older ones, at later starts."""
        path = autosave_path()
        if not os.path.lexists(path):  # no match left unfinished: the save machinery is not even loaded
            then()
            return
        from engine.records.saves import SaveProblem, load_match

        found = load_match(path)
        if isinstance(found, SaveProblem):
            self._tell(str(found))
            then()
            return
        if found is None or found.state.is_over:
            then()
            return
        table = found
        title = table.entry.title
        names = and_list([seat.name for seat in table.seats[1:]])
        question = f"Go on with your match of {title}?"
        moves = len(table.actions)
        detail = (
            f"Against {names}, {moves} move{'s' * (moves != 1)} in. "
            "Answer No and the menu offers it (Resume) until another game starts."
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self.resume(table)
            else:
                self.unfinished = table  # (the menu offers it again)
                then()

        self.push_screen(ConfirmScreen(question, detail, yes="Go on", no="No"), callback=answered)

    def resume(self, table: SavedTable) -> TableScreen:
        """Open the saved ``table`` exactly where it stopped (same cards, seat to move, bots and seed)."""
        self.unfinished = None
        decider = ProcessDecider() if bots_in_a_process() else None
        host = TableHost(
            table, pace=self.pace, decider=decider, autostart=False, takebacks=True
        )  # (_open_table starts it)
        levels = [seat.level for seat in table.seats if seat.level is not None]
        config = PlayConfig(
            game=table.entry.key,
            players=len(table.seats),
            seed=table.seed,
            preset=table.preset,
            variants=tuple(table.variants),
            difficulty=levels[0] if levels else "medium",
            name=table.seats[0].name,
        )
        return self._open_table(host, config, screen_class(table.entry))

    def _close_table(self) -> None:
        if self.host is not None:
            self.host.close()
            self.host = None

    def play_again(self) -> None:
        """The same table setup with a new seed."""
        base = self.config or self.start_config or PlayConfig()
        self.start_game(replace(base, seed=None))

    def main_menu(self) -> None:
        if self.host is not None and not self.host.table.state.is_over:
            self.unfinished = self.host.table  # (saved: the menu offers to go on with it)
        self._close_table()
        base = self.config or self.start_config or PlayConfig()
        self._show_screen(menu_screen(base.game, base.players, base.difficulty, base.name))

    def on_start_game(self, message: StartGame) -> None:
        message.stop()
        if message.chosen:
            self._remember(message.config)
        self.start_game(message.config)

    def on_resume_match(self, message: ResumeMatch) -> None:
        message.stop()
        if self.unfinished is not None:
            self.resume(self.unfinished)

    def _remember(self, config: PlayConfig) -> None:
        """Keep the game, players and opponents chosen at the menu: it opens on them next time, in this run or the
        next. A settings file that cannot be written is said once."""
        settings = replace(
            self.settings.with_game(config.game, GameDefaults(config.difficulty, config.players)),
            last_game=config.game,
        )
        if settings == self.settings:
            return
        self.settings = settings
        problem = store(settings, self.settings_path)
        if problem is not None:
            self.notify(problem, severity="warning", timeout=10, markup=False)

    def on_take_back(self, message: TakeBack) -> None:
        """Your latest move taken back: the host goes back to that decision, exactly as it was, the save is written
        again, and the table is opened anew on it (its log and table as your seat saw them then, nothing more)."""
        message.stop()
        host = self.host
        screen = next((s for s in reversed(self.screen_stack) if isinstance(s, TableScreen)), None)
        if host is None or screen is None or screen.me is None:
            return
        try:
            host.take_back(screen.me)
        except ParlourError as err:
            screen.refuse(str(err))
            return
        kept = self._kept
        if kept is not None and kept[0] is host:
            kept[1]()  # the save holds the line of play from here on
        fresh = type(screen)(host.connect(screen.me))
        fresh.seed = host.table.seed
        self._show_screen(fresh)
        screen.session.close()  # (after the new one has connected: the seat is never left empty)
        self.notify("Your move is taken back: the table is as it was at that decision.", timeout=4, markup=False)

    def on_play_again(self, message: PlayAgain) -> None:
        message.stop()
        self.play_again()

    def on_main_menu(self, message: MainMenu) -> None:
        message.stop()
        self.main_menu()

    def _show_screen(self, screen: Screen[None]) -> None:
        # Close any dialogs above the current screen, then swap it (the default screen stays at the bottom).
        while len(self.screen_stack) > 2:
            self.pop_screen()
        if len(self.screen_stack) > 1:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def open_settings_dialog(self) -> None:
        """The settings dialog over the current screen (its module, with its form widgets, loaded the first time)."""
        from tui.dialogs.settings import open_settings

        open_settings(self)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from navigation_commands(self, super().get_system_commands(screen))
        if isinstance(screen, TableScreen):
            yield from screen.commands()
            yield SystemCommand("Toggle rules", "Show or hide the rules pane (r)", screen.action_toggle_rules)
            if screen.takeback_refusal() is None:
                yield SystemCommand(
                    "Take back", "Back to your previous decision, as it was (u)", screen.action_take_back
                )
            yield SystemCommand(
                "Main menu", "Back to the main menu (m; asks first while the match is on)", self._to_menu
            )
        if not is_settings_screen(screen):
            yield SystemCommand(
                "Settings", "Your name, theme, card faces, pace and game defaults", self.open_settings_dialog
            )
        if type(screen).__name__ != "StatsScreen":  # (tui.screens.stats is imported when it is opened)
            yield SystemCommand(
                "Statistics", "Games, wins, streaks and figures per game (t on the menu)", self.show_stats
            )

    def show_stats(self) -> None:
        """Your statistics over the current screen (``t`` on the menu, or the palette)."""
        from tui.screens.stats import StatsScreen

        if not isinstance(self.screen, StatsScreen):
            self.push_screen(StatsScreen())

    action_show_stats = show_stats

    def _to_menu(self) -> None:
        self.action_leave("menu")
