"""The main menu: which game, how many players, house rules, difficulty, your name."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from engine.bots import DIFFICULTIES
from engine.errors import ParlourError
from engine.game import GameEntry
from engine.registry import get_entry
from tui.games import table_entries
from tui.messages import PlayConfig, StartGame
from tui.screens.rules import RulesScreen
from tui.widgets.title_bar import TitleBar


def useful_variants(entry: GameEntry) -> list[tuple[str, str, str]]:
    """The variants that may be chosen for this entry's preset: (key, name, description)."""
    return [(v.key, v.name, v.description) for v in entry.game.useful_variants(entry.preset)]


def player_choices(game: str) -> list[tuple[str, int]]:
    """The numbers of players ``game`` can be played by, for the Players list."""
    rules = get_entry(game).game
    return [(str(n), n) for n in range(rules.min_players, rules.max_players + 1)]


class MenuScreen(Screen[None]):
    AUTO_FOCUS = "#start"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "app.quit", "Quit"),
        Binding("ctrl+q", "app.quit", "Quit", show=False),
        Binding("r", "rules", "Rules"),
        Binding("f1", "rules", "Rules", show=False),
    ]

    def __init__(self, game: str = "screw", players: int = 5, difficulty: str = "medium", name: str = "You") -> None:
        super().__init__()
        self.initial = (game, players, difficulty, name)
        self._variants_for: str | None = None
        rules = get_entry(game).game
        self._players_range = (rules.min_players, rules.max_players)

    def compose(self) -> ComposeResult:
        game, players, difficulty, name = self.initial
        if game not in {entry.key for entry in table_entries()}:
            game = table_entries()[0].key
        rules = get_entry(game).game
        if not rules.min_players <= players <= rules.max_players:
            players = rules.default_players
        yield TitleBar()
        with Vertical(id="menu-box"):
            yield Static("Parlour — card games at the terminal table", id="menu-title")
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
                    [(level.capitalize(), level) for level in DIFFICULTIES],
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
                yield Button("Quit", id="quit", variant="error")
        yield Footer()

    async def on_mount(self) -> None:
        self.sub_title = "Main menu"
        await self._show_variants()

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
            Checkbox(name, value=False, compact=True, id=f"variant-{key}", tooltip=description)
            for key, name, description in useful_variants(entry)
        )
        preset = next((p for p in entry.game.presets if p.key == entry.preset), None)
        self.query_one("#preset-text", Static).update(preset.description if preset else "")

    @on(Select.Changed, "#game")
    async def _game_changed(self) -> None:
        self._show_players()
        await self._show_variants()

    def _show_players(self) -> None:
        """Offer only the numbers of players the chosen game takes (Big Two: 2 to 4)."""
        players = self.query_one("#players", Select)
        rules = self.entry.game
        current = players.value
        if (rules.min_players, rules.max_players) == self._players_range:
            return
        self._players_range = (rules.min_players, rules.max_players)
        players.set_options(player_choices(self.entry.key))
        fits = isinstance(current, int) and rules.min_players <= current <= rules.max_players
        players.value = current if fits else rules.default_players

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
            players=players if isinstance(players, int) else 5,
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
        self.post_message(StartGame(config))

    def action_rules(self) -> None:
        entry = self.entry
        try:
            options = entry.game.options(entry.preset, self.chosen_variants())
        except ParlourError as err:
            self.notify(str(err), severity="error", markup=False)
            return
        self.app.push_screen(RulesScreen(entry.game.rules_summary(options)))

    @on(Button.Pressed, "#start")
    def _start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#rules")
    def _rules_pressed(self) -> None:
        self.action_rules()

    @on(Button.Pressed, "#quit")
    def _quit_pressed(self) -> None:
        self.app.exit()

    @on(Input.Submitted, "#name")
    def _name_submitted(self) -> None:
        self.action_start()
