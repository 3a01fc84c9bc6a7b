"""The dialog that makes a table at a LAN host: the game, the seats (a person or a bot of a level), house rules,
the table's stand-in bot, its turn clock and whether its players may ask for hints. The lobby
(:mod:`tui.screens.lobby`) sends what it asks for as a ``create`` message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Label, Select, Static

from engine.bots import DIFFICULTIES
from engine.errors import ParlourError
from engine.registry import difficulties, get_entry
from tui.games import table_entries
from tui.screens.menu import player_choices, useful_variants
from tui.terminal.screen_styles import StylePaths, css_paths

CLOCKS: list[tuple[str, str]] = [("Off", "off"), ("15 s a turn", "15"), ("30 s a turn", "30"), ("60 s a turn", "60")]
"""The turn clocks a table may have (off by default)."""


@dataclass(frozen=True)
class TableRequest:
    """What the create-table dialog asks for: a ``create`` message's fields."""

    game: str
    players: int
    bots: tuple[str | None, ...] = ()
    variants: tuple[str, ...] = ()
    level: str | None = None
    clock: float | None = None
    hints: bool = False
    """Its players may ask for hints (``h``): what the hard computer player would do, and why."""


class CreateTableScreen(ModalScreen[TableRequest | None]):
    """Make a table: the game, the seats (a person or a bot of a level), house rules, the table's bot and clock."""

    CSS_PATH: ClassVar[StylePaths] = css_paths("lobby.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    AUTO_FOCUS = "#create"
    """Enter makes the table as the form stands (the game's default number of players: you and computer players);
    Tab and shift+Tab reach the form."""

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        entries = table_entries()
        self.game = game if game in {e.key for e in entries} else entries[0].key

    def compose(self) -> ComposeResult:
        entry = get_entry(self.game)
        with Vertical(id="create-dialog"):
            yield Static("A new table", id="create-title")
            yield Static("Enter creates it · shift+Tab to the form · Esc cancels", id="create-help")
            with VerticalScroll(id="create-form"):
                with Horizontal(classes="create-row"):
                    yield Label("Game")
                    yield Select(
                        [(e.title, e.key) for e in table_entries()],
                        value=self.game,
                        allow_blank=False,
                        compact=True,
                        id="game",
                    )
                with Horizontal(classes="create-row"):
                    yield Label("Players")
                    yield Select(
                        player_choices(self.game),
                        value=entry.game.default_players,
                        allow_blank=False,
                        compact=True,
                        id="players",
                    )
                yield Vertical(id="seat-kinds")
                with Horizontal(classes="create-row"):
                    yield Label("Stand-in bot")
                    levels = difficulties(entry.game)
                    yield Select(
                        [(lv.capitalize(), lv) for lv in levels],
                        value=levels[0],
                        allow_blank=False,
                        compact=True,
                        id="level",
                    )
                with Horizontal(classes="create-row"):
                    yield Label("Turn clock")
                    yield Select(CLOCKS, value="off", allow_blank=False, compact=True, id="clock")
                with Horizontal(classes="create-row"):
                    yield Label("Hints")
                    yield Checkbox(
                        "Players may ask for hints (h)",
                        value=False,
                        compact=True,
                        id="hints",
                        tooltip="What the hard computer player would do in their seat, and why",
                    )
                yield Label("House rules")
                yield Vertical(id="create-variants")
            with Horizontal(id="create-buttons"):
                yield Button("Create", id="create", variant="primary")
                yield Button("Cancel", id="cancel")

    async def on_mount(self) -> None:
        await self._game_chosen()

    @property
    def players(self) -> int:
        value = self.query_one("#players", Select).value
        return value if isinstance(value, int) else get_entry(self.game).game.default_players

    @on(Select.Changed, "#game")
    async def _game_changed(self, message: Select.Changed) -> None:
        if isinstance(message.value, str) and message.value != self.game:
            self.game = message.value
            await self._game_chosen()

    async def _game_chosen(self) -> None:
        entry = get_entry(self.game)
        players = self.query_one("#players", Select)
        players.set_options(player_choices(self.game))
        players.value = entry.game.default_players
        levels = difficulties(entry.game)
        level = self.query_one("#level", Select)
        level.set_options([(name.capitalize(), name) for name in levels])
        level.value = levels[0]
        box = self.query_one("#create-variants", Vertical)
        await box.remove_children()
        await box.mount_all(
            Checkbox(name, value=False, compact=True, id=f"variant-{key}", tooltip=description)
            for key, name, description in useful_variants(entry)
        )
        await self._show_seats()

    @on(Select.Changed, "#players")
    async def _players_changed(self) -> None:
        await self._show_seats()

    async def _show_seats(self) -> None:
        box = self.query_one("#seat-kinds", Vertical)
        await box.remove_children()
        levels = [level for level in DIFFICULTIES if level in difficulties(get_entry(self.game).game)]
        kinds: list[tuple[str, str]] = [("A person", "person"), *((f"{lv.capitalize()} bot", lv) for lv in levels)]
        # (seats are counted from 1 as players count them; the ids keep the protocol's numbers, from 0)
        rows = [Horizontal(Label("Seat 1"), Static("you", classes="seat-you"), classes="create-row")]
        for seat in range(1, self.players):
            choose = Select(kinds, value=levels[0], allow_blank=False, compact=True, id=f"seat-{seat}")
            rows.append(Horizontal(Label(f"Seat {seat + 1}"), choose, classes="create-row"))
        await box.mount_all(rows)

    def request(self) -> TableRequest:
        bots: list[str | None] = [None]
        for seat in range(1, self.players):
            value = self.query_one(f"#seat-{seat}", Select).value
            bots.append(None if value == "person" or not isinstance(value, str) else value)
        level = self.query_one("#level", Select).value
        clock = self.query_one("#clock", Select).value
        variants = tuple(
            box.id.removeprefix("variant-")
            for box in self.query(Checkbox)
            if box.value and box.id is not None and box.id.startswith("variant-")
        )
        return TableRequest(
            game=self.game,
            players=self.players,
            bots=tuple(bots),
            variants=variants,
            level=level if isinstance(level, str) else None,
            clock=float(clock) if isinstance(clock, str) and clock.isdigit() else None,
            hints=self.query_one("#hints", Checkbox).value,
        )

    @on(Button.Pressed, "#create")
    def action_create(self) -> None:
        request = self.request()
        entry = get_entry(request.game)
        try:
            entry.game.options(entry.preset, request.variants)
        except ParlourError as err:
            self.notify(str(err), severity="error", markup=False)
            return
        self.dismiss(request)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
