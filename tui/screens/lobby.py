"""The LAN lobby: the host's tables, your table's seats, its chat (the dialog that makes a table is
:mod:`tui.dialogs.new_table`).

The lobby talks to the host through a :class:`~engine.lan.remote_session.NetworkSession`. Every request runs on a
worker thread (a slow network never freezes the screen); the host's lobby messages arrive on the connection's
thread and reach the screen as :class:`LobbyMessage` posts. Everything a person typed (names, chat) is shown as
plain text: ``[b]x[/b]`` stays ``[b]x[/b]``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Footer, Input, Log, Static

from engine.errors import ParlourError
from engine.session import Lobby
from tui.dialogs.new_table import CreateTableScreen, TableRequest
from tui.terminal.screen_styles import StylePaths, css_paths
from tui.widgets.title_bar import TitleBar

STATUS_WORDS = {
    "open": "free",
    "creator": "starts it",
    "waiting": "not ready",
    "ready": "ready",
    "bot": "computer",
    "connected": "playing",
    "away": "away",
    "replaced": "away: a bot plays",
}
"""A seat's status as the protocol names it, in the words the lobby shows."""


@dataclass
class LobbyMessage(Message):
    """A lobby message from the host (``table``, ``chat``, ``started``, ``left``, ``lost``, ``resumed``...)."""

    data: dict[str, Any]


def seat_line(seat: dict[str, Any]) -> str:
    """Who sits in a seat of a table summary, as plain text."""
    if seat.get("bot") is not None and seat.get("name") is None:
        return f"{str(seat['bot']).capitalize()} bot"
    name = seat.get("name")
    return str(name) if name is not None else "—"


def seats_text(summary: dict[str, Any]) -> str:
    """The tables list's last column: ``2/4`` seats taken while the table is open, else ``playing`` or ``over``."""
    if summary.get("state") != "open":
        return str(summary.get("state"))
    seats = summary.get("seats", [])
    taken = sum(1 for seat in seats if seat.get("status") != "open")
    return f"{taken}/{len(seats)}"


def table_title(summary: dict[str, Any]) -> str:
    variants = summary.get("variants") or []
    rules = f" · {', '.join(map(str, variants))}" if variants else ""
    clock = summary.get("clock")
    timer = f" · {clock:g} s a turn" if isinstance(clock, int | float) else ""
    hints = " · hints" if summary.get("hints") is True else ""
    return f"{summary.get('code')} · {summary.get('title')} · {summary.get('state')}{rules}{timer}{hints}"


class LobbyScreen(Screen[None]):
    """The tables at the host; your table's seats and chat."""

    CSS_PATH: ClassVar[StylePaths] = css_paths("lobby.tcss", "dialogs.tcss", "settings.tcss")

    AUTO_FOCUS = "#tables"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_table", "New table"),
        Binding("w", "watch", "Watch"),
        Binding("r", "ready", "Ready"),
        Binding("f", "fill", "Fill", tooltip="Fill the free seats with computer players"),
        Binding("g", "start", "Start"),
        Binding("s", "stand", "Stand"),
        Binding("l", "leave", "Leave"),
        Binding("slash", "chat", "Chat"),
        Binding("q", "app.quit", "Quit"),
        Binding("escape", "focus_tables", "Tables", show=False),
    ]

    def __init__(self, conn: Lobby, *, banner: str = "", table: str | None = None) -> None:
        super().__init__()
        self.conn = conn
        self.banner = banner
        self.go_to = table
        """A table code to sit at (or watch) as soon as the lobby opens (``parlour join --table CODE``)."""
        self.tables: list[dict[str, Any]] = []
        self._joining = False
        """A join is on its way to the host: another Enter waits for it."""

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="lobby-body"):
            with Vertical(id="lobby-tables"):
                yield DataTable(id="tables", cursor_type="row", zebra_stripes=True)
                yield Static(self.banner, id="lobby-banner")
            with Vertical(id="lobby-mine"):
                yield Static("You are at no table: Enter sits at the one chosen, n makes one.", id="my-table")
                yield DataTable(id="seats", cursor_type="row")
                yield Log(id="chat-log", max_lines=500)
                yield Input(placeholder="/ to chat at your table", max_length=500, compact=True, id="chat")
        yield Footer()

    def on_mount(self) -> None:
        welcome = self.conn.welcome
        self.sub_title = f"Lobby at {welcome.get('host', 'the host')} · you are {welcome.get('name', '?')}"
        tables = self.query_one("#tables", DataTable)
        tables.add_columns("Code", "Game", "Seats")
        seats = self.query_one("#seats", DataTable)
        seats.add_columns("#", "Player", "Status")
        self.query_one("#lobby-tables").border_title = "Tables"
        self.query_one("#lobby-mine").border_title = "Your table"
        self.query_one("#chat-log", Log).border_title = "Chat"
        self.query_one("#lobby-banner", Static).display = bool(self.banner)
        self.show_mine(self.conn.table)
        self.refresh_tables()
        self.set_interval(2.0, self.refresh_tables)
        if self.go_to:
            code, self.go_to = self.go_to, None
            self._request(lambda: self._sit_or_watch(code), f"join table {code.upper()}")

    # -- talking to the host (on worker threads) -----------------------------------------------------------------
    def _request(self, call: Callable[[], Any], what: str, then: Callable[[Any], None] | None = None) -> None:
        def work() -> None:
            try:
                result = call()
            except ParlourError as err:
                self.app.call_from_thread(self._refused, what, str(err))
                return
            if then is not None:
                self.app.call_from_thread(then, result)
            self.app.call_from_thread(self.refresh_tables)

        self.run_worker(work, thread=True, group="lobby", exit_on_error=False)

    def _refused(self, what: str, why: str) -> None:
        if self.is_attached:
            self.notify(f"Could not {what}: {why}", severity="error", markup=False)

    def refresh_tables(self) -> None:
        def work() -> None:
            try:
                tables = self.conn.tables()
            except ParlourError:
                return  # the connection is down: the app says so
            self.app.call_from_thread(self.show_tables, tables)

        self.run_worker(work, thread=True, group="list", exclusive=True, exit_on_error=False)

    def _sit_or_watch(self, code: str) -> None:
        """Sit at the first free seat of table ``code`` (ready at once), or watch it if none is free."""
        summary = next((t for t in self.conn.tables() if str(t.get("code")).upper() == code.upper()), None)
        if summary is None:
            raise ParlourError(f"no table has the code {code.upper()}")
        free = [s["seat"] for s in summary.get("seats", []) if s.get("status") == "open"]
        if summary.get("state") == "open" and free:
            self.conn.sit(str(summary["code"]), int(free[0]))
        else:
            self.conn.spectate(str(summary["code"]))

    # -- showing -------------------------------------------------------------------------------------------------
    def show_tables(self, tables: list[dict[str, Any]]) -> None:
        if not self.is_attached:
            return
        self.tables = tables
        widget = self.query_one("#tables", DataTable)
        row = widget.cursor_row
        widget.clear()
        for summary in tables:
            widget.add_row(
                str(summary.get("code")),
                Text(str(summary.get("title"))),
                seats_text(summary),
                key=str(summary.get("code")),
            )
        if tables:
            widget.move_cursor(row=min(max(row, 0), len(tables) - 1))

    def show_mine(self, summary: dict[str, Any] | None) -> None:
        seats = self.query_one("#seats", DataTable)
        seats.clear()
        seats.display = summary is not None
        mine = self.query_one("#my-table", Static)
        if summary is None:
            mine.update("You are at no table: Enter sits at the one chosen, n makes one.")
            return
        me = self.conn.welcome.get("name")
        creator = "you" if summary.get("creator") == me else summary.get("creator")
        spectators = summary.get("spectators", 0)
        watching = f" · {spectators} watching" if spectators else ""
        mine.update(Content(f"{table_title(summary)}\nmade by {creator}{watching}"))
        for seat in summary.get("seats", []):
            status = str(seat.get("status"))
            if status == "waiting" and seat.get("name") == summary.get("creator"):
                status = "creator"  # starts the game: needs no "ready"
            number = seat.get("seat")
            seats.add_row(
                str(number + 1) if isinstance(number, int) else "?",  # (counted from 1 as players count)
                Text(seat_line(seat)),
                STATUS_WORDS.get(status, status),
                key=str(seat.get("seat")),
            )

    def heard(self, data: dict[str, Any]) -> None:
        """A lobby message from the host (the app passes them on)."""
        kind = data.get("type")
        if kind == "table":
            table = data.get("table")
            self.show_mine(table if isinstance(table, dict) else None)
            self.refresh_tables()
            self.refresh_bindings()  # (the keys that mean something follow your table: check_action)
        elif kind == "left":
            self.show_mine(None)
            self.refresh_tables()
            self.refresh_bindings()
        elif kind == "chat":
            self.query_one("#chat-log", Log).write_line(f"{data.get('name')}: {data.get('text')}")

    # -- actions -------------------------------------------------------------------------------------------------
    def chosen(self) -> dict[str, Any] | None:
        widget = self.query_one("#tables", DataTable)
        if not self.tables or not 0 <= widget.cursor_row < len(self.tables):
            return None
        return self.tables[widget.cursor_row]

    @on(DataTable.RowSelected, "#tables")
    def _table_selected(self) -> None:
        summary = self.chosen()
        if summary is not None and not self._joining:
            code = str(summary["code"])
            self._joining = True

            def join() -> None:
                try:
                    self._sit_or_watch(code)
                finally:
                    self._joining = False

            self._request(join, f"join table {code}")

    @on(DataTable.RowSelected, "#seats")
    def _seat_selected(self, message: DataTable.RowSelected) -> None:
        summary = self.conn.table
        if summary is None or message.row_key.value is None:
            return
        seat, code = int(message.row_key.value), str(summary["code"])
        self._request(lambda: self.conn.sit(code, seat), f"sit in seat {seat + 1}")

    def action_new_table(self) -> None:
        def made(request: TableRequest | None) -> None:
            if request is not None:
                self._request(
                    lambda: self.conn.create(
                        request.game,
                        request.players,
                        bots=request.bots,
                        variants=request.variants,
                        level=request.level,
                        clock=request.clock,
                        hints=request.hints,
                    ),
                    "make the table",
                )

        self.app.push_screen(CreateTableScreen(), callback=made)

    def action_watch(self) -> None:
        summary = self.chosen()
        if summary is not None:
            code = str(summary["code"])
            self._request(lambda: self.conn.spectate(code), f"watch table {code}")

    def action_ready(self) -> None:
        self._request(self.conn.declare_ready, "say you are ready")

    def action_fill(self) -> None:
        summary = self.conn.table
        level = str(summary.get("level")) if summary else "easy"
        self._request(lambda: self.conn.fill(level), "fill the free seats")

    def action_start(self) -> None:
        self._request(self.conn.start, "start the game")

    def action_stand(self) -> None:
        self._request(self.conn.stand, "stand up")

    def action_leave(self) -> None:
        self._request(self.conn.leave, "leave the table")

    def action_chat(self) -> None:
        self.query_one("#chat", Input).focus()

    def action_focus_tables(self) -> None:
        self.query_one("#tables", DataTable).focus()

    @on(Input.Submitted, "#chat")
    def _say(self, message: Input.Submitted) -> None:
        text = message.value.strip()
        message.input.value = ""
        if text:
            self._request(lambda: self.conn.chat(text), "send the message")
        self.action_focus_tables()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys that mean nothing now are left out of the footer (and do nothing): a table's keys away from a table,
        its creator's keys for the others, the keys of an open table once it plays. (Greyed, all of them did not
        fit a footer of 80 or 100 columns.)"""
        summary = self.conn.table
        me = self.conn.welcome.get("name")
        if action in ("ready", "stand", "leave", "fill", "start") and summary is None:
            return False
        if action in ("new_table", "watch") and summary is not None:
            return False  # (at a table: leave it first)
        if summary is not None and action in ("fill", "start") and summary.get("creator") != me:
            return False
        if summary is not None and action in ("ready", "stand", "fill", "start") and summary.get("state") != "open":
            return False
        return True


class ChatScreen(ModalScreen[str | None]):
    """One line to say at your table, over the table screen (Enter sends, Escape does not)."""

    CSS_PATH: ClassVar[StylePaths] = css_paths("lobby.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="chat-dialog"):
            yield Input(placeholder="Say something at your table (Enter sends)", max_length=500, id="chat-line")

    @on(Input.Submitted, "#chat-line")
    def _send(self, message: Input.Submitted) -> None:
        self.dismiss(message.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
