"""Your statistics (issue 11): one row per game, house rules and opponents (their level, or for a LAN game the
people and bots listed, a row apart), and for the chosen row the win rate over time (a sparkline of the running
rate) and how the results spread (a histogram of scores).

The figures come from :mod:`engine.records.stats` (SQLite in the user data directory), the same as
``parlour stats``. A file that cannot be read is said in one sentence, and so are rows that do not fit the schema
(they are left out, the rest shown); nothing here writes to it. The names a LAN row lists are shown as plain text.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Sparkline, Static

from engine.records.stats import StatsError, history, summary
from tui.terminal.screen_styles import StylePaths, css_paths

BARS = " ▁▂▃▄▅▆▇█"


def running_rates(games: list[dict[str, Any]]) -> list[float]:
    """The win rate after each game, oldest first (what the sparkline draws).

    >>> running_rates([{"won": True}, {"won": False}, {"won": True}, {"won": True}])
    [1.0, 0.5, 0.6666666666666666, 0.75]
    """
    rates, wins = [], 0
    for n, game in enumerate(games, start=1):
        wins += bool(game["won"])
        rates.append(wins / n)
    return rates


def histogram(scores: list[float], width: int = 40) -> str:
    """How often each result came, one line per result, the bar as long as its count (at most ``width``).

    >>> print(histogram([1, 1, 2, 0, 1], width=6))
     0 ██ 1
     1 ██████ 3
     2 ██ 1
    """
    if not scores:
        return "no games yet"
    counts = Counter(round(s, 2) for s in scores)
    most = max(counts.values())
    lines = []
    for score in sorted(counts):
        shown = int(score) if float(score).is_integer() else score
        bar = "█" * max(1, round(counts[score] * width / most))
        lines.append(f"{shown!s:>2} {bar} {counts[score]}")
    return "\n".join(lines)


class StatsScreen(ModalScreen[None]):
    """Every group's figures; ↑/↓ choose a group, its charts below. ``escape`` closes."""

    CSS_PATH: ClassVar[StylePaths] = css_paths("dialogs.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        with Vertical(id="stats-dialog"):
            yield Static("Your statistics", id="stats-title")
            yield DataTable(id="stats-table", cursor_type="row", zebra_stripes=True)
            yield Static("", id="stats-note")
            yield Static("Win rate over time", id="stats-rate-label")
            yield Sparkline([], id="stats-rate")
            yield Static("", id="stats-histogram")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Game", "House rules", "Opponents", "Games", "Wins", "Win rate", "Streak", "Best", "Figures")
        note = self.query_one("#stats-note", Static)
        try:
            data = summary()
        except StatsError as err:
            note.update(Content(str(err)))
            return
        self.groups: list[dict[str, Any]] = data["groups"]
        if data["problem"]:
            note.update(Content(str(data["problem"])))
        for group in self.groups:
            figures = ", ".join(
                f"{group['labels'][name]} {value}" for name, value in group["figures"].items() if value is not None
            )
            table.add_row(  # (as Text: a DataTable reads a plain string as markup, and a LAN row names people)
                Text(group["title"]),
                Text(group["preset_name"]),
                Text(group["opponents"]),
                str(group["games"]),
                str(group["wins"]),
                f"{group['win_rate']:.0%}",
                str(group["streak"]),
                str(group["best_streak"]),
                Text(figures),
            )
        if not self.groups:
            note.update("No games finished yet: every game you finish is counted here.")
            return
        table.focus()
        self.show_group(0)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_group(event.cursor_row)

    def show_group(self, row: int) -> None:
        groups = getattr(self, "groups", [])
        if not 0 <= row < len(groups):
            return
        group = groups[row]
        try:
            games = history(group["game"], group["preset"], group["level"], kind=group["kind"])
        except StatsError as err:
            self.query_one("#stats-note", Static).update(Content(str(err)))
            return
        self.query_one("#stats-rate", Sparkline).data = running_rates(games)
        label = f"Win rate over time: {group['title']}, {group['opponents']} ({len(games)} games)"
        self.query_one("#stats-rate-label", Static).update(Content(label))
        scores = [float(game["score"]) for game in games]
        self.query_one("#stats-histogram", Static).update(Content("Results (score: games)\n" + histogram(scores)))
