"""The main menu: which game, how many players, house rules, difficulty, your name.

It starts from your settings (:mod:`tui.settings.file`): your name, and for each game the number of players and the
opponents' level you chose as its defaults. The line under the form sums up the rules as they stand with the house
rules ticked, built from the game's options object (not from the preset's fixed description), so it follows every
box you tick.
"""

from __future__ import annotations

from itertools import combinations
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from engine.errors import ParlourError
from engine.game import GameEntry
from engine.registry import difficulties, get_entry
from tui.dialogs.confirm import ConfirmScreen
from tui.dialogs.settings import open_settings
from tui.games import summary_of, table_entries
from tui.messages import PlayConfig, ResumeMatch, StartGame
from tui.screens.quick import StyledOnce
from tui.settings.file import Settings
from tui.settings.in_app import app_settings
from tui.terminal.screen_styles import StylePaths, css_paths
from tui.widgets.key_footer import KeyFooter
from tui.widgets.title_bar import TitleBar


def sentence_case(text: str) -> str:
    """``text`` with its first letter in upper case, the rest as written (``pagat scoring`` -> ``Pagat scoring``).

    >>> sentence_case("pagat scoring"), sentence_case("3 lives")
    ('Pagat scoring', '3 lives')
    """
    return text[:1].upper() + text[1:]


def useful_variants(entry: GameEntry) -> list[tuple[str, str, str]]:
    """The variants that may be chosen for this entry's preset: (key, label, description), labels in sentence
    case like the rest of the form."""
    return [(v.key, sentence_case(v.name), v.description) for v in entry.game.useful_variants(entry.preset)]


def player_choices(game: str) -> list[tuple[str, int]]:
    """The numbers of players ``game`` can be played by, for the Players list."""
    rules = get_entry(game).game
    return [(str(n), n) for n in range(rules.min_players, rules.max_players + 1)]


def rules_line(entry: GameEntry, variants: tuple[str, ...], players: int) -> str:
    """The one line under the menu's form: the rules in force for ``entry`` with ``variants``, in sentence case;
    the reason in words when the variants cannot be played together. Cards are written as the settings say."""
    try:
        options = entry.game.options(entry.preset, variants)
    except ParlourError as err:
        names = {v.key: sentence_case(v.name) for v in entry.game.variants}
        clash = [(names[a], names[b]) for a, b in combinations(variants, 2) if _exclude(entry, a, b)]
        if clash:
            return f"{clash[0][0]} and {clash[0][1]} cannot be played together: untick one."
        return sentence_case(str(err)) + "."
    summary = summary_of(entry.game.key)
    if summary is not None:
        return sentence_case(summary(options, players))
    preset = next((p for p in entry.game.presets if p.key == entry.game.preset_key(options)), None)
    return sentence_case(preset.description) if preset else ""


def _exclude(entry: GameEntry, a: str, b: str) -> bool:
    """Whether the variants ``a`` and ``b`` of ``entry``'s game contradict each other."""
    known = {v.key: v for v in entry.game.variants}
    first, second = known.get(a), known.get(b)
    return first is not None and second is not None and (b in first.excludes or a in second.excludes)


class MenuScreen(StyledOnce, Screen[None]):
    CSS_PATH: ClassVar[StylePaths] = css_paths("menu.tcss", "dialogs.tcss", "settings.tcss")

    AUTO_FOCUS = "#start"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "app.quit", "Quit"),
        Binding("ctrl+q", "app.quit", "Quit", show=False),
        Binding("r", "rules", "Rules"),
        Binding("f1", "rules", "Rules", show=False),
        Binding("s", "settings", "Settings", tooltip="Your name, theme, card faces, pace and game defaults"),
        Binding("t", "app.show_stats", "Statistics", tooltip="Your games, wins, streaks and figures per game"),
        Binding("g", "resume", "Resume", tooltip="Go on with your unfinished match"),
    ]

    def __init__(
        self,
        game: str | None = None,
        players: int | None = None,
        difficulty: str | None = None,
        name: str | None = None,
    ) -> None:
        """What is not given comes from the settings: ``game`` the first game, ``players`` and ``difficulty`` its
        defaults, ``name`` yours. The app gives all four when it comes back from a table (the table just left)."""
        super().__init__()
        self.initial = (game, players, difficulty, name)
        self._variants_for: str | None = None
        self._defaults_for: str | None = None
        self._applied: tuple[object, object] = (None, None)
        """The players and difficulty the menu itself last set: a value you have changed since stays."""

    @property
    def settings(self) -> Settings:
        return app_settings(self.app)

    def compose(self) -> ComposeResult:
        game, players, difficulty, name = self.initial
        if game is None:
            game = self.settings.last_game  # (the game last started here, in this run or an earlier one)
        keys = [entry.key for entry in table_entries()]
        if game not in keys:
            game = keys[0]
        rules = get_entry(game).game
        defaults = self.settings.game(game)
        if players is None or not rules.min_players <= players <= rules.max_players:
            players = defaults.players
        if not rules.min_players <= players <= rules.max_players:
            players = rules.default_players
        levels = difficulties(rules)
        if difficulty not in levels:
            difficulty = defaults.difficulty if defaults.difficulty in levels else levels[0]
        name = name if name is not None else self.settings.name
        self._defaults_for = game
        self._applied = (players, difficulty)
        yield TitleBar()
        with Vertical(id="menu-box"):
            yield Static("Parlour — card games at the terminal table", id="menu-title")
            with Horizontal(id="resume-row"):
                yield Static("", id="resume-text")
                yield Button(
                    "Resume", id="resume", variant="success", compact=True, tooltip="Go on with your unfinished match"
                )
            with Grid(id="menu-form"):
                yield Label("Game")
                yield Select(
                    [(entry.title, entry.key) for entry in table_entries()],
                    value=game,
                    allow_blank=False,
                    compact=True,
                    id="game",
                )
                yield Label("Players")
                yield Select(player_choices(game), value=players, allow_blank=False, compact=True, id="players")
                yield Label("Opponents")
                yield Select(
                    [(level.capitalize(), level) for level in levels],
                    value=difficulty,
                    allow_blank=False,
                    compact=True,
                    id="difficulty",
                )
                yield Label("Your name")
                yield Input(value=name, placeholder="You", max_length=24, compact=True, id="name")
                yield Label("House rules")
                yield Vertical(id="variants")
            yield Static("", id="preset-text")
            with Horizontal(id="menu-buttons"):
                yield Button("Start", id="start", variant="primary")
                yield Button("Rules", id="rules")
                yield Button("Settings", id="settings")
                yield Button("Statistics", id="stats")
                yield Button("Quit", id="quit", variant="error")
        yield KeyFooter()

    async def on_mount(self) -> None:
        self.sub_title = "Main menu"
        await self._show_variants()
        self._show_unfinished()
        if self.unfinished is not None:
            self.query_one("#resume", Button).focus()

    @on(events.ScreenResume)
    def _back_on_top(self) -> None:
        self._show_unfinished()  # (the offer at the start, answered No, leaves its match to resume here)

    @property
    def unfinished(self) -> str | None:
        """What the app says of the match left unfinished (game, opponents, moves in), if there is one."""
        text = getattr(self.app, "unfinished_text", None)
        return text if isinstance(text, str) else None

    def _show_unfinished(self) -> None:
        text = self.unfinished
        self.query_one("#resume-row").display = text is not None
        self.query_one("#menu-title").display = text is None  # (its line, on a screen of 24 rows)
        self.query_one("#resume-text", Static).update(Content(text or ""))
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "resume":
            return self.unfinished is not None
        return True

    @property
    def entry(self) -> GameEntry:
        value = self.query_one("#game", Select).value
        return get_entry(value if isinstance(value, str) else table_entries()[0].key)

    async def _show_variants(self) -> None:
        entry = self.entry
        if entry.key == self._variants_for:
            return
        self._variants_for = entry.key
        box = self.query_one("#variants", Vertical)
        await box.remove_children()
        await box.mount_all(
            Checkbox(label, value=False, compact=True, id=f"variant-{key}", tooltip=description)
            for key, label, description in useful_variants(entry)
        )
        self.show_summary()

    def show_summary(self) -> None:
        """Sum up the rules as they stand (the game, the boxes ticked, the number of players)."""
        players = self.query_one("#players", Select).value
        count = players if isinstance(players, int) else self.entry.game.default_players
        variants = self.chosen_variants()
        line = rules_line(self.entry, variants, count)
        shown = self.query_one("#preset-text", Static)
        shown.update(Content(line))
        shown.set_class(not self._playable(variants), "-problem")

    @on(Select.Changed, "#game")
    async def _game_changed(self) -> None:
        self._show_defaults()
        await self._show_variants()
        self.show_summary()

    @on(Select.Changed, "#players")
    @on(Checkbox.Changed)
    def _rules_changed(self) -> None:
        self.show_summary()

    def _show_defaults(self) -> None:
        """Offer only the numbers of players and levels the chosen game takes, starting from its defaults in your
        settings; a number or a level you changed yourself stays when the new game takes it too."""
        entry = self.entry
        if entry.key == self._defaults_for:
            return
        self._defaults_for = entry.key
        rules = entry.game
        defaults = self.settings.game(entry.key)
        players = self.query_one("#players", Select)
        difficulty = self.query_one("#difficulty", Select)
        current_players, current_level = players.value, difficulty.value
        set_players, set_level = self._applied
        players.set_options(player_choices(entry.key))
        if current_players != set_players and isinstance(current_players, int):
            chosen_players = current_players  # yours, kept if it fits
        else:
            chosen_players = defaults.players
        if not (isinstance(chosen_players, int) and rules.min_players <= chosen_players <= rules.max_players):
            chosen_players = rules.default_players
        levels = difficulties(rules)
        difficulty.set_options([(level.capitalize(), level) for level in levels])
        chosen_level = current_level if current_level != set_level else defaults.difficulty
        if chosen_level not in levels:
            chosen_level = defaults.difficulty if defaults.difficulty in levels else levels[0]
        players.value = chosen_players
        difficulty.value = chosen_level
        self._applied = (chosen_players, chosen_level)

    def _playable(self, variants: tuple[str, ...]) -> bool:
        entry = self.entry
        try:
            entry.game.options(entry.preset, variants)
        except ParlourError:
            return False
        return True

    def chosen_variants(self) -> tuple[str, ...]:
        return tuple(
            box.id.removeprefix("variant-") for box in self.query(Checkbox) if box.value and box.id is not None
        )

    def config(self) -> PlayConfig:
        players = self.query_one("#players", Select).value
        difficulty = self.query_one("#difficulty", Select).value
        name = self.query_one("#name", Input).value.strip() or "You"
        return PlayConfig(
            game=self.entry.key,
            players=players if isinstance(players, int) else self.entry.game.default_players,
            seed=None,
            preset=None,
            variants=self.chosen_variants(),
            difficulty=difficulty if isinstance(difficulty, str) else "medium",
            name=name,
        )

    def action_start(self) -> None:
        try:
            config = self.config()
            entry = get_entry(config.game)
            entry.game.options(entry.preset, config.variants)
        except ParlourError as err:
            self.notify(str(err), severity="error", markup=False)
            return
        unfinished = self.unfinished
        if unfinished is None:
            self.post_message(StartGame(config, chosen=True))
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.post_message(StartGame(config, chosen=True))

        question = f"Start a new match of {get_entry(config.game).title}?"
        detail = f"Your unfinished match ({unfinished}) is dropped: Resume goes on with it instead."
        self.app.push_screen(ConfirmScreen(question, detail, yes="Start", no="Back"), callback=answered)

    def action_resume(self) -> None:
        if self.unfinished is not None:
            self.post_message(ResumeMatch())

    def action_rules(self) -> None:
        entry = self.entry
        try:
            options = entry.game.options(entry.preset, self.chosen_variants())
        except ParlourError as err:
            self.notify(str(err), severity="error", markup=False)
            return
        from tui.screens.rules import RulesScreen  # (with the Markdown widget and its parser: loaded when first asked)

        self.app.push_screen(RulesScreen(entry.game.rules_summary(options), entry))

    def action_settings(self) -> None:
        before = self.settings

        def closed(saved: Settings | None) -> None:
            if saved is None:
                return
            name = self.query_one("#name", Input)
            if name.value.strip() == before.name:
                name.value = saved.name  # the name from the settings, unless you typed another here
            self._defaults_for = None
            self._show_defaults()  # the new defaults for this game, where you have not chosen otherwise
            self.show_summary()  # the cards in it may be written in letters now

        open_settings(self.app, closed)

    @on(Button.Pressed, "#start")
    def _start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#resume")
    def _resume_pressed(self) -> None:
        self.action_resume()

    @on(Button.Pressed, "#stats")
    async def _stats_pressed(self) -> None:
        await self.run_action("app.show_stats")

    @on(Button.Pressed, "#rules")
    def _rules_pressed(self) -> None:
        self.action_rules()

    @on(Button.Pressed, "#settings")
    def _settings_pressed(self) -> None:
        self.action_settings()

    @on(Button.Pressed, "#quit")
    def _quit_pressed(self) -> None:
        self.app.exit()

    @on(Input.Submitted, "#name")
    def _name_submitted(self) -> None:
        self.action_start()
