"""Your statistics (issue 11): one row per game, house rules and opponents (their level, or for a LAN game the
people and bots listed, a row apart), and for the chosen row the win rate after each game (a chart on a scale of
0% to 100%) and how the results spread (a bar per score).

The figures come from :mod:`engine.records.stats` (SQLite in the user data directory), the same as
``parlour stats``. A file that cannot be read is said in one sentence, and so are rows that do not fit the schema
(they are left out, the rest shown); nothing here writes to it. The names a LAN row lists are shown as plain text.
They are read on a thread of their own: a database another Parlour holds is said busy after half a second, and
shown once it is free; the screen never waits for it.
"""

from __future__ import annotations

import logging
from collections import Counter
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Static

from engine.records.stats import StatsBusy, StatsError, history, summary
from tui.terminal.screen_styles import StylePaths, css_paths
from tui.words import count

log = logging.getLogger("parlour.tui")

BARS = " ▁▂▃▄▅▆▇█"
"""A column's top cell, by how much of it is filled (eighths)."""
CHART_ROWS = 4
"""The win-rate chart's height in rows: a row is a quarter of the scale (25%)."""
CHART_WIDTH = 60
"""The most games the chart shows, one column each (the latest, when there are more)."""
BAR_WIDTH = 20
"""The longest bar of the results' spread."""


def running_rates(games: list[dict[str, Any]]) -> list[float]:
    """The win rate after each game, oldest first (what the chart draws).

    >>> running_rates([{"won": True}, {"won": False}, {"won": True}, {"won": True}])
    [1.0, 0.5, 0.6666666666666666, 0.75]
    """
    rates, wins = [], 0
    for n, game in enumerate(games, start=1):
        wins += bool(game["won"])
        rates.append(wins / n)
    return rates


def rate_chart(rates: list[float], width: int = CHART_WIDTH, rows: int = CHART_ROWS) -> str:
    """The win rate after each game as a column of blocks each (the latest ``width`` games), on a scale from 0%
    to 100% written beside it, and the games counted under it.

    >>> print(rate_chart([1.0, 0.5, 2 / 3, 0.75]))
    100% █
         █ ▅█
     50% ████
         ████
      0% └────
          games 1 to 4
    """
    if not rates:
        return "no games yet"
    shown = rates[-width:]
    first = len(rates) - len(shown) + 1
    lines = []
    for row in range(rows, 0, -1):  # the top row first
        cells = []
        for rate in shown:
            filled = rate * rows - (row - 1)  # how much of this row the column fills: 0 to 1
            cells.append(BARS[0 if filled <= 0 else 8 if filled >= 1 else max(1, round(filled * 8))])
        scale = "100%" if row == rows else " 50%" if row == (rows + 1) // 2 else "    "
        lines.append(f"{scale} {''.join(cells)}".rstrip())
    lines.append("  0% └" + "─" * len(shown))
    lines.append(f"      game {first}" if first == len(rates) else f"      games {first} to {len(rates)}")
    return "\n".join(lines)


def histogram(scores: list[float], width: int = BAR_WIDTH) -> str:
    """How often each result came, one line per result, the bar as long as its count (at most ``width``).

    >>> print(histogram([1, 1, 2, 0, 1], width=6))
     0 ██ 1 game
     1 ██████ 3 games
     2 ██ 1 game
    """
    if not scores:
        return "no games yet"
    counts = Counter(round(s, 2) for s in scores)
    most = max(counts.values())
    shown = {score: str(int(score) if float(score).is_integer() else score) for score in counts}
    pad = max(2, *(len(text) for text in shown.values()))
    lines = []
    for score in sorted(counts):
        bar = "█" * max(1, round(counts[score] * width / most))
        lines.append(f"{shown[score]:>{pad}} {bar} {count(counts[score], 'game')}")
    return "\n".join(lines)


def game_title(group: dict[str, Any]) -> str:
    """The game, and its house rules where they are not the game's own name (a preset)."""
    title, preset = str(group["title"]), str(group["preset_name"])
    return title if preset in ("", title) else f"{title} ({preset})"


READ_WAIT = 0.5
"""Seconds a read of the statistics waits for another process's hold on them before the screen says they are busy."""

READ_AGAIN = 1.0
"""Seconds between two tries of statistics that were busy."""

BUSY = "The statistics are busy (another Parlour is counting a game): they are shown when free."


class StatsScreen(ModalScreen[None]):
    """Every group's figures; ↑/↓ choose a group, its charts below. ``escape`` closes.

    The statistics are read on a thread of their own (a worker), never on the screen's: a database another process
    holds is waited for :data:`READ_WAIT` seconds at most, then said busy and read again every :data:`READ_AGAIN`
    seconds until it is free; a large file takes its time without holding up a key."""

    CSS_PATH: ClassVar[StylePaths] = css_paths("dialogs.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss", "Close")]

    class Read(Message):
        """The figures, read (posted from the reading thread)."""

        def __init__(self, data: dict[str, Any]) -> None:
            super().__init__()
            self.data = data

    class History(Message):
        """One group's games, read for its charts."""

        def __init__(self, row: int, games: list[dict[str, Any]]) -> None:
            super().__init__()
            self.row = row
            self.games = games

    class Unread(Message):
        """The statistics could not be read: ``busy`` (read again soon) or not at all; one sentence."""

        def __init__(self, text: str, *, busy: bool, row: int | None = None) -> None:
            super().__init__()
            self.text = text
            self.busy = busy
            self.row = row

    def __init__(self) -> None:
        super().__init__()
        self.groups: list[dict[str, Any]] = []
        self.reading = True
        """The figures are being read (or were busy and are read again soon): no row is shown yet."""
        self.charted: int | None = None
        """The row whose charts are shown."""

    def compose(self) -> ComposeResult:
        with Vertical(id="stats-dialog"):
            yield Static("Your statistics", id="stats-title")
            yield DataTable(id="stats-table", cursor_type="row", zebra_stripes=True)
            yield Static("Reading your statistics…", id="stats-note")
            yield Static("", id="stats-detail")
            with Horizontal(id="stats-charts"):
                with Vertical(id="stats-rate-box"):
                    yield Static("Win rate after each game", id="stats-rate-label", classes="stats-label")
                    yield Static("", id="stats-rate")
                with Vertical(id="stats-spread-box"):
                    yield Static("Your results: score, games", id="stats-spread-label", classes="stats-label")
                    yield Static("", id="stats-histogram")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Game", "Opponents", "Played", "Won", "Rate", "Streak", "Best")
        self.read_summary()

    # -- on the reading thread: nothing here touches a widget, each outcome is posted ---------------------------------
    def read_summary(self) -> None:
        self.run_worker(self._read_summary, thread=True, group="summary", exclusive=True, exit_on_error=False)

    def _read_summary(self) -> None:
        try:
            self.post_message(self.Read(summary(wait=READ_WAIT)))
        except StatsBusy:
            self.post_message(self.Unread(BUSY, busy=True))
        except StatsError as err:
            self.post_message(self.Unread(str(err), busy=False))
        except Exception as err:  # a bug: said in one sentence, and logged
            log.exception("the statistics could not be read")
            self.post_message(self.Unread(f"The statistics could not be read ({type(err).__name__}).", busy=False))

    def _read_history(self, row: int, group: dict[str, Any]) -> None:
        try:
            games = history(group["game"], group["preset"], group["level"], kind=group["kind"], wait=READ_WAIT)
        except StatsBusy:
            self.post_message(self.Unread(BUSY, busy=True, row=row))
        except StatsError as err:
            self.post_message(self.Unread(str(err), busy=False, row=row))
        except Exception as err:  # a bug: said in one sentence, and logged
            log.exception("a group's games could not be read")
            self.post_message(self.Unread(f"The games could not be read ({type(err).__name__}).", busy=False, row=row))
        else:
            self.post_message(self.History(row, games))

    # -- on the screen's thread --------------------------------------------------------------------------------------
    def on_stats_screen_unread(self, message: StatsScreen.Unread) -> None:
        message.stop()
        self.query_one("#stats-note", Static).update(Content(message.text))
        if not message.busy:
            if message.row is None:
                self.reading = False  # (nothing to show: the sentence says why)
            return
        if message.row is None:
            self.set_timer(READ_AGAIN, self.read_summary)
        else:
            row = message.row
            self.set_timer(READ_AGAIN, lambda: self.show_group(row, again=True))

    def on_stats_screen_read(self, message: StatsScreen.Read) -> None:
        message.stop()
        data = message.data
        table = self.query_one(DataTable)
        note = self.query_one("#stats-note", Static)
        table.clear()
        self.groups = data["groups"]
        self.reading = False
        note.update(Content(str(data["problem"])) if data["problem"] else "")
        for group in self.groups:
            table.add_row(  # (as Text: a DataTable reads a plain string as markup, and a LAN row names people)
                Text(game_title(group)),
                Text(group["opponents"]),
                Text(str(group["games"]), justify="right"),
                Text(str(group["wins"]), justify="right"),
                Text(f"{group['win_rate']:.0%}", justify="right"),
                Text(str(group["streak"]), justify="right"),
                Text(str(group["best_streak"]), justify="right"),
            )
        if not self.groups:
            note.update("No games finished yet: every game you finish is counted here.")
            return
        table.focus()
        self.show_group(table.cursor_row)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_group(event.cursor_row)

    def show_group(self, row: int, *, again: bool = False) -> None:
        """Read the charts of the group at ``row`` (``again``: a read that was busy, if that row is still chosen)."""
        if not 0 <= row < len(self.groups):
            return
        if again and row != self.query_one(DataTable).cursor_row:
            return
        group = self.groups[row]
        self.run_worker(
            lambda: self._read_history(row, group), thread=True, group="history", exclusive=True, exit_on_error=False
        )

    def on_stats_screen_history(self, message: StatsScreen.History) -> None:
        message.stop()
        row, games = message.row, message.games
        if row != self.query_one(DataTable).cursor_row or not 0 <= row < len(self.groups):
            return  # (another row was chosen meanwhile: its own read follows)
        group = self.groups[row]
        figures = ", ".join(
            f"{group['labels'][name]} {value}" for name, value in group["figures"].items() if value is not None
        )
        detail = (
            f"{game_title(group)} against {group['opponents']}: {count(group['games'], 'game')}, "
            f"{count(group['wins'], 'win')} ({group['win_rate']:.0%})" + (f"; {figures}" if figures else "")
        )
        self.query_one("#stats-detail", Static).update(Content(detail))
        self.query_one("#stats-rate", Static).update(Content(rate_chart(running_rates(games))))
        scores = [float(game["score"]) for game in games]
        self.query_one("#stats-histogram", Static).update(Content(histogram(scores)))
        self.charted = row
