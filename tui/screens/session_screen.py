"""What every table screen does with its :class:`engine.session.Session`, whatever the game.

A table talks only to a session, so a LAN session can take the place of a local one. Events come in through
``session.subscribe`` (from any thread) and are queued; the queue is worked off on the UI thread, and it stops at
the end of a hand (or deal) until the player has read the dialog that ends it, so no bot moves while it is open.
The computer players think on a worker thread and their moves are applied back on the UI thread.

A game's table subclasses :class:`SessionScreen` and fills in the hooks: what an event means to it (``handle``),
which event starts the next round (``holds_back``), how the end of a round is shown (``open_end_dialog``), how the
table is laid out and drawn (``compose_table``, ``render_view``, ``show_seats``) and the match summary (``summary``).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Markdown
from textual.worker import get_current_worker

from engine.errors import ParlourError
from engine.events import Event
from engine.game import Action
from engine.session import Session
from tui.messages import EngineEvent
from tui.screens.results import MatchSummary, ResultChoice, ResultsScreen
from tui.widgets.event_log import EventLog

SESSION_BINDINGS: list[BindingType] = [
    Binding("r", "toggle_rules", "Rules"),
    Binding("f1", "toggle_rules", "Rules", show=False),
    Binding("q", "app.quit", "Quit"),
]
"""The keys every table has. Subclasses put these after their own rather than inheriting them as ``BINDINGS``:
inherited bindings come first in the footer, and the footer shows the game's keys first."""


class SessionScreen(Screen[None]):
    """The session plumbing of a table: the event queue, the end-of-round hold, the bots, the rules pane, results.

    Subclasses must not define ``on_mount`` or ``on_unmount``: Textual calls the handler of every class along the
    MRO, so an override that also called ``super()`` would subscribe twice. They set up in ``set_up`` instead.
    """

    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [(0, "-narrow"), (110, "-wide")]

    def __init__(self, session: Session, *, seed: int | None = None, pace: float = 0.6) -> None:
        super().__init__()
        self.session = session
        self.seed = seed
        self.pace = pace
        self.names: tuple[str, ...] = tuple(session.names)
        self.me: int = session.seat
        self._inbox: deque[Event] = deque()
        self._inbox_lock = threading.Lock()
        self._dialog_open = False
        """The end-of-round dialog is showing; nothing is drained until it is closed."""
        self._bot_busy = False
        self._thinking: int | None = None
        self._results_shown = False
        self._unsubscribe: Callable[[], None] | None = None

    # -- hooks for the game's table ------------------------------------------------------------------------------
    def compose_table(self) -> ComposeResult:
        """The table itself, beside the rules pane; it must hold an :class:`EventLog`."""
        raise NotImplementedError

    def set_up(self) -> None:
        """Set up the widgets once mounted, before the first event is drained."""

    def handle(self, event: Event) -> None:
        """Take in one event from the session (log it, note what the table must remember)."""
        raise NotImplementedError

    def holds_back(self, event: Event) -> bool:
        """True when ``event``, next in the queue, must wait (it starts a round while the last one's dialog is due)."""
        raise NotImplementedError

    def end_pending(self) -> bool:
        """True from the event that ends a round until its dialog has been closed."""
        raise NotImplementedError

    def match_over_seen(self) -> bool:
        """True once the event that ends the match has been taken in (the round's events are then all here)."""
        raise NotImplementedError

    def view_on_ended_round(self) -> bool:
        """True while the session's view is still of the round that just ended."""
        raise NotImplementedError

    def open_end_dialog(self) -> None:
        """Push the end-of-round dialog, with :meth:`_end_dialog_closed` as its callback."""
        raise NotImplementedError

    def forget_ended_round(self) -> None:
        """Drop what was kept for the end-of-round dialog, now that the player has read it."""
        raise NotImplementedError

    def render_view(self) -> None:
        """Draw the whole table from the session's view."""
        raise NotImplementedError

    def show_seats(self, view: Any) -> None:
        """Draw the seats from ``view``, marking the seat in ``self._thinking``."""
        raise NotImplementedError

    def summary(self) -> MatchSummary:
        raise NotImplementedError

    def idle(self) -> bool:
        """True when the table may move on: no round's end waiting to be read."""
        return not self.end_pending() and not self._dialog_open

    # -- layout and mounting -------------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="body"):
            with Vertical(id="main"):
                yield from self.compose_table()
            with VerticalScroll(id="rules-pane"):
                yield Markdown(self.rules_markdown, id="rules-text")
        yield Footer()

    @property
    def rules_markdown(self) -> str:
        return self.session.entry.game.rules_summary(self.session.options)

    def on_mount(self) -> None:
        title = self.session.entry.title
        self.sub_title = f"{title} · seed {self.seed}" if self.seed is not None else title
        self.query_one(EventLog).border_title = "What happened"
        self.set_up()
        self._unsubscribe = self.session.subscribe(self._from_session)
        self._drain()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    # -- events in -----------------------------------------------------------------------------------------------
    def _from_session(self, event: Event) -> None:
        """Session callback: may run on any thread, so it only queues the event and posts a message."""
        with self._inbox_lock:
            self._inbox.append(event)
        self.post_message(EngineEvent(event))

    def on_engine_event(self, message: EngineEvent) -> None:
        message.stop()
        self._drain()

    def _next_event(self) -> Event | None:
        with self._inbox_lock:
            if not self._inbox:
                return None
            # The next round waits until the player has read the end of this one.
            if self.holds_back(self._inbox[0]):
                return None
            return self._inbox.popleft()

    def _drain(self) -> None:
        if self._dialog_open or not self.is_mounted:
            return
        while (event := self._next_event()) is not None:
            self.handle(event)
        if self.end_pending():
            if not self._still_gathering():
                self._open_end_dialog()
            return
        self.render_view()
        self._maybe_start_bot()

    def _still_gathering(self) -> bool:
        """True while the end-of-round events may still be on their way (a remote session sends them one by one)."""
        if self.match_over_seen():
            return False
        with self._inbox_lock:
            waiting = bool(self._inbox)
        return not waiting and not self.session.is_over and self.view_on_ended_round()

    # -- the end of a round and the results ----------------------------------------------------------------------
    def _open_end_dialog(self) -> None:
        self._dialog_open = True
        self._thinking = None
        self.open_end_dialog()

    def _end_dialog_closed(self, _: None = None) -> None:
        self._dialog_open = False
        match_over = self.match_over_seen()  # asked before the round is forgotten, which may be what knows it
        self.forget_ended_round()
        if match_over or self.session.is_over:
            self.render_view()
            self._show_results()
            return
        self._drain()

    def _show_results(self) -> None:
        if self._results_shown:
            return
        self._results_shown = True
        self.app.push_screen(ResultsScreen(self.summary()), callback=self._results_chosen)

    def _results_chosen(self, choice: ResultChoice | None) -> None:
        from tui.app import ParlourApp  # the app imports the tables

        app = self.app
        if choice == "quit":
            app.exit()
        elif isinstance(app, ParlourApp):
            if choice == "again":
                app.play_again()
            elif choice == "menu":
                app.main_menu()

    # -- the rules pane ------------------------------------------------------------------------------------------
    def action_toggle_rules(self) -> None:
        self.toggle_class("-rules-open")

    @property
    def rules_open(self) -> bool:
        return self.has_class("-rules-open")

    # -- the computer players ------------------------------------------------------------------------------------
    def _maybe_start_bot(self) -> None:
        if self._bot_busy or not self.idle() or self.session.is_over:
            return
        if not self.session.bot_pending():
            return
        self._bot_busy = True
        self._thinking = self.session.view().to_move
        self.show_seats(self.session.view())
        self._bot_turn()

    @work(thread=True, exclusive=True, group="bots")
    def _bot_turn(self) -> None:
        worker = get_current_worker()
        try:
            seat, action = self.session.think()
        except ParlourError:
            self.app.call_from_thread(self._bot_done, None, None)
            return
        # The pause lets the player follow each bot's move.
        if self.pace > 0:
            time.sleep(self.pace)
        if worker.is_cancelled:
            return
        try:
            self.app.call_from_thread(self._bot_done, seat, action)
        except RuntimeError:
            pass  # the app is closing

    def _bot_done(self, seat: int | None, action: Action | None) -> None:
        self._bot_busy = False
        self._thinking = None
        if not self.is_attached or seat is None:
            return
        try:
            self.session.play(seat, action)
        except ParlourError as err:
            self.notify(str(err), severity="error")
        self._drain()
