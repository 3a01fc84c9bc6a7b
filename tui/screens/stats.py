"""Your statistics (issue 11): one row per game, house rules and opponents (their level, or for a LAN game the
people and bots listed, a row apart), and for the chosen row the win rate over time (a sparkline of the running
rate) and how the results spread (a histogram of scores).

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
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Sparkline, Static

from engine.records.stats import StatsBusy, StatsError, history, summary
from tui.terminal.screen_styles import StylePaths, css_paths

log = logging.getLogger("parlour.tui")

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
            yield Static("Win rate over time", id="stats-rate-label")
            yield Sparkline([], id="stats-rate")
            yield Static("", id="stats-histogram")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Game", "House rules", "Opponents", "Games", "Wins", "Win rate", "Streak", "Best", "Figures")
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
        self.query_one("#stats-rate", Sparkline).data = running_rates(games)
        label = f"Win rate over time: {group['title']}, {group['opponents']} ({len(games)} games)"
        self.query_one("#stats-rate-label", Static).update(Content(label))
        scores = [float(game["score"]) for game in games]
        self.query_one("#stats-histogram", Static).update(Content("Results (score: games)\n" + histogram(scores)))
        self.charted = row
