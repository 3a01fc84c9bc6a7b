"""What every table screen does with its :class:`engine.session.Session`, whatever the game.

A table talks only to a session, so a LAN session can take the place of a local one. The host runs the computer
players; the screen only shows what happens and sends its own player's moves.

Updates come in through ``session.subscribe`` (from any thread): each one's events are queued, each with the
update's snapshot, and the queue is worked off on the UI thread, with the pacing of a game's chains. The table is
drawn only from the snapshot of an update whose events have all been taken in (the screen never pulls a snapshot
of its own): what the table shows, its log has told. The match layer's markers drive the shared parts: at
:class:`~engine.match.RoundOver` the queue stops and the game's end-of-round dialog opens; when the player closes
it the screen tells the session it is ``ready`` (the host's bots wait for that) and goes on; after the last round
come the results.

A LAN table may have a turn clock: the host's ``clock`` messages (``hear_clock``, from the session's ``watch`` on
the connection's thread, so they are queued in order with the events) say when a seat's clock starts and when it
ran out. The seconds left are shown beside the seat to move (``clock_shown``), counted down here once a second;
the person whose move it is gets one notice; and the first line the log writes after a clock ran out tells that
a bot made that move (:func:`tui.words.clock.ran_out_line`). A spectator (``watching``: no seat) sees the table
as the public does: no hand, no moves.

A game's table subclasses :class:`TableScreen` and fills in the hooks: what an event means to it (``handle``),
how the table is laid out and drawn (``compose_table``, ``render_snapshot``), the end-of-round dialog
(``round_dialog``) and the match summary (``summary``).
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on
from textual.actions import parse as parse_action
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, Static

from engine.errors import ParlourError
from engine.events import Event
from engine.game import Action
from engine.hints import Hint
from engine.match import MatchOver, RoundOver, RoundStarted
from engine.registry import walkthrough_of
from engine.session import Session, Snapshot, Update
from tui.messages import MainMenu, PlayAgain, TakeBack
from tui.screens.quick import StyledOnce, preset_breakpoints
from tui.terminal.screen_styles import StylePaths, css_paths
from tui.widgets.event_log import EventLog
from tui.widgets.key_footer import KeyFooter
from tui.widgets.title_bar import TitleBar
from tui.words.clock import clock_notice, ran_out_line
from tui.words.faces import in_faces

if TYPE_CHECKING:
    from engine.walkthrough import Walkthrough
    from tui.dialogs.results import MatchSummary, ResultChoice

SESSION_BINDINGS: list[BindingType] = [
    Binding("r", "toggle_rules", "Rules", tooltip="Show or hide the rules of this game"),
    Binding("f1", "toggle_rules", "Rules", show=False),
    # Not in the footer (no room at 80 columns): the rules pane's button says it, the keys panel lists it.
    Binding("e", "show_me", "Show me", show=False, tooltip="A walkthrough of each rule, played on a deal"),
    Binding("m", "to_menu", "Menu", tooltip="Back to the main menu (asks first while the match is on)"),
    Binding("m", "to_lobby", "Lobby", tooltip="Back to the lobby (asks first while the match is on)"),
    Binding("escape", "to_menu", "Menu", show=False),
    Binding("escape", "to_lobby", "Lobby", show=False),
    Binding("q", "app.leave('quit')", "Quit", tooltip="Quit Parlour (asks first while the match is on)"),
    Binding(
        "f",
        "hurry",
        "Fast to the end",
        tooltip="You are out of this deal: the computer players play it to its end at full speed",
    ),
    # Not in the footer (at 80 columns it would push out the keys panel's key): the keys panel and the palette
    # offer it; pressed where it cannot be done, it says why.
    Binding(
        "u",
        "take_back",
        "Take back",
        show=False,
        tooltip="Back to your previous decision, as it was (against computer players only)",
    ),
    Binding("pageup", "scroll_log('page_up')", "Log up", show=False),
    Binding("pagedown", "scroll_log('page_down')", "Log down", show=False),
    Binding("ctrl+home", "scroll_log('home')", "Log start", show=False),
    Binding("ctrl+end", "scroll_log('end')", "Log end", show=False),
]
"""The keys every table has. Subclasses put these after their own rather than inheriting them as ``BINDINGS``:
inherited bindings come first in the footer, and the footer shows the game's keys first. ``m`` and ``escape`` lead
back to the menu, or to the lobby at a LAN table (one of each pair is hidden, see ``check_action``)."""

REFUSAL_SECONDS = 6.0
"""How long a refusal stays in the status line (unless the table changes first)."""

BELL_AFTER = 5.0
"""Seconds you must have waited for your turn before the bell rings when it comes (with the bell setting on)."""

BELL_CLOCK = 10
"""Seconds left on your LAN turn clock when the bell rings (with the bell setting on)."""

PROBLEM_SECONDS = 12.0
"""How long a write problem (the game could not be saved...) stays in the status line, whatever the table does."""


HINT_THINKING = Content.styled("Thinking of a hint…", "italic $text-accent")
"""A table's status line while a hint is worked out."""


def hint_status(move: str | Content) -> Content:
    """A table's status line once the hint came: its move, the reason being in the log (a sentence needs room)."""
    return Content.assemble(("Hint: ", "bold $text-success"), move, (" · why: in the log", "$text-muted"))


@dataclass(frozen=True)
class ClockNote:
    """A ``clock`` message of the host, queued with the events: ``seat``'s clock for the moment ``version`` started
    with ``seconds`` left, or (``ran_out``) ran out, and a bot makes that move (its events follow)."""

    seat: int
    version: int
    seconds: float
    ran_out: bool = False

    @classmethod
    def parse(cls, data: dict[str, Any]) -> ClockNote | None:
        """The note of a ``clock`` message, or None when it is not one this screen can use."""
        seat, version, seconds = data.get("seat"), data.get("version"), data.get("seconds", 0)
        if data.get("type") != "clock" or not isinstance(seat, int) or not isinstance(version, int):
            return None
        if isinstance(seat, bool) or isinstance(version, bool) or isinstance(seconds, bool):
            return None
        if not isinstance(seconds, int | float) or not math.isfinite(seconds):
            return None
        return cls(seat, version, max(0.0, float(seconds)), bool(data.get("ran_out", False)))


class ClockHeard(Message):
    """A clock message was queued for the screen (posted from whatever thread heard it)."""


class UpdateHeard(Message):
    """An update of the session was queued for the screen (posted from whatever thread the session called back on)."""


Arrival = tuple[Event | None, Snapshot]
"""One item of the screen's queue for an update: each of its events with its snapshot, then ``(None, snapshot)``
once they are all in (the table may then be drawn from it)."""


def turn_keys(*bindings: Binding) -> list[BindingType]:
    """The bindings of a table's moves, each followed by a hidden twin on the same key.

    A move that cannot be made now is greyed in the footer (``check_action`` answers None), so Textual skips its
    binding and runs the twin, ``explain``: it calls the very same action, which says in the status line why it
    cannot be done. The footer shows what can be done, and a key pressed anyway is answered in words."""
    keys: list[BindingType] = []
    for binding in bindings:
        keys.append(binding)
        keys.append(Binding(binding.key, f"explain({binding.action!r})", binding.description, show=False))
    return keys


class TableScreen(StyledOnce, Screen[None]):
    """The session plumbing of a table: the event queue, the end-of-round hold, the rules pane, the results.

    Subclasses must not define ``on_mount`` or ``on_unmount``: Textual calls the handler of every class along the
    MRO, so an override that also called ``super()`` would subscribe twice. They set up in ``set_up`` instead.
    """

    CSS_PATH: ClassVar[StylePaths] = css_paths("table.tcss", "dialogs.tcss", "settings.tcss")
    GAME_KEY: ClassVar[str]
    """The key of the game this table plays (each game's screen sets it; :func:`tui.games.screen_class` checks)."""

    HORIZONTAL_BREAKPOINTS: list[tuple[int, str]] | None = [(0, "-narrow"), (120, "-wide")]  # noqa: RUF012 (Screen's)
    """Where the rules pane goes: beside the table from 120 columns (the table keeps 80), over it below. The table
    itself is laid out by its room's size classes (:mod:`tui.widgets.room`), not by these."""
    MIN_SIZE: ClassVar[tuple[int, int]] = (70, 22)
    """The smallest terminal (columns, rows) at which this table is complete; below it the screen says so."""
    STATUS_ID: ClassVar[str] = "status"
    """The id of the table's status line (beside your hand): where a refused move is said."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        info = session.info
        self.info = info
        self.options: Any = info.options
        self.seed: int | None = None
        """The table's seed, shown in the subtitle and the results: set by the app that made a local table
        (:mod:`tui.apps.parlour`), before the screen is shown. No session is told it (it deals the hands)."""
        self.names: tuple[str, ...] = tuple(info.names)
        self.me: int | None = info.seat
        self.round = 0
        self._inbox: deque[Arrival | ClockNote] = deque()
        self._inbox_lock = threading.Lock()
        self._clocks_heard: deque[ClockNote] = deque(maxlen=8)
        """The last clock notes queued (the same message may come twice: from the session and from the app)."""
        self._clock: ClockNote | None = None
        """The turn clock running (its note), until the table moves on or it runs out."""
        self._clock_deadline = 0.0
        """When it runs out, in :attr:`now`'s time."""
        self._clock_timer: Timer | None = None
        self._clock_notified = False
        """The notice of your clock was given this turn (it is given again once another seat has moved)."""
        self._clock_belled: ClockNote | None = None
        """The clock the bell rang for at :data:`BELL_CLOCK` seconds left (once a clock)."""
        self._waiting_since: float | None = None
        """Since when (in :attr:`now`'s time) the table drawn has not been at your turn: None at your turn."""
        self._clock_moved: int | None = None
        """The seat a bot is moving for, its clock having run out: the log's next line tells it so."""
        self._stop_watching: Callable[[], None] | None = None
        self._round_over: RoundOver | None = None
        """The round just over, from its marker until the player has closed its dialog."""
        self._match_over: MatchOver | None = None
        self._results_shown = False
        self.snapshot: Snapshot | None = None
        """The snapshot the table was last drawn from."""
        self.arriving: Snapshot | None = None
        """The snapshot of the update whose events are being taken in: it shows them all (and the table may move on
        further before they are all in; it is drawn once they are)."""
        self._ready: Snapshot | None = None
        """The snapshot of the last update whose events have all been taken in: what the next drawing shows."""
        self._unsubscribe: Callable[[], None] | None = None
        self._hint_busy = False
        self._hurrying = False
        """The computer players play to the round's end at full speed, and its events are shown without a hold."""
        self._stepping = False
        """True while the table holds an event on screen (``step_pause``) before working off the next."""
        self._refusal: tuple[str, int | None] | None = None
        """The refusal the status line shows (its text, and the version it was said at), until the table moves."""
        self._refusal_timer: Timer | None = None
        self._problem: str | None = None
        """A write problem the status line shows (when no refusal does) for :data:`PROBLEM_SECONDS`."""
        self._problem_timer: Timer | None = None
        self._catching_up = 0
        """How many events of the history the subscription handed over at once are still to be worked off: they
        are shown without pauses (a resumed match or a LAN table opens where it is)."""
        self._stale_rounds = 0
        """How many of those ends of rounds are followed by another: no dialog for them, only for the latest."""
        self._walkthrough: tuple[Walkthrough | None] | None = None
        """The game's walkthrough (in a tuple once asked for: None is an answer), for "Show me" in the rules pane."""

    # -- hooks for the game's table ------------------------------------------------------------------------------
    def compose_table(self) -> ComposeResult:
        """The table itself, beside the rules pane; it must hold an :class:`EventLog`."""
        raise NotImplementedError

    def set_up(self) -> None:
        """Set up the widgets once mounted, before the first event is drained."""

    def handle(self, event: Event) -> None:
        """Take in one event from the session (log it, note what the table must remember)."""
        raise NotImplementedError

    def render_snapshot(self, snapshot: Snapshot) -> None:
        """Draw the whole table from ``snapshot`` (``self.thinking`` names a computer player choosing)."""
        raise NotImplementedError

    def round_dialog(self, event: RoundOver) -> ModalScreen[None]:
        """The dialog that shows the end of a round; the table waits until it is closed."""
        raise NotImplementedError

    def summary(self) -> MatchSummary:
        raise NotImplementedError

    def commands(self) -> Iterator[SystemCommand]:
        """The game's entries in the command palette (only those that can be used now)."""
        yield from ()

    def step_pause(self, event: Event) -> float:
        """Seconds to hold the table as ``event`` left it before the next event is worked off (0: no hold).

        A game whose one move makes a chain of events returns a short pause for each step, so a person can
        follow the chain; while the table holds it is not idle (no moves), and ``redraw`` waits for the end."""
        return 0.0

    # -- layout and mounting -------------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        preset_breakpoints(self)  # before the widgets exist: the first resize then restyles nothing
        yield TitleBar()
        with Horizontal(id="body"):
            with Vertical(id="main"):
                yield from self.compose_table()
            # (the rules pane, #rules-pane, is mounted here the first time it opens)
        # (so is the notice of a window too small, #too-small, the first time the window is)
        yield KeyFooter()

    def on_resize(self, event: events.Resize) -> None:
        """Below :attr:`MIN_SIZE` the table would lose its buttons or its turn line without a word: a notice
        takes its place until the window is large enough (the game goes on meanwhile)."""
        width, height = event.size
        need_w, need_h = self.MIN_SIZE
        small = width < need_w or height < need_h
        if small:
            text = Content(f"Make the window at least {need_w}x{need_h} to play.\n(It is {width}x{height} now.)")
            found = self.query("#too-small")
            if found:
                found.only_one(Static).update(text)
            else:  # the first time: made then, not with every table
                self.mount(Static(text, id="too-small"), before=self.query_one(KeyFooter))
        self.set_class(small, "-too-small")

    @property
    def rules_markdown(self) -> str:
        return self.session.entry.game.rules_summary(self.options)

    @property
    def title_text(self) -> str:
        return self.session.entry.title

    now: Callable[[], float] = staticmethod(time.monotonic)
    """The clock the turn clock is counted down on (tests give a screen their own)."""

    @property
    def watching(self) -> bool:
        """A spectator's screen: no seat, so no hand and no moves; leaving asks nothing."""
        return self.me is None

    def hides(self, action: str) -> bool:
        """Is ``action`` one a spectator is not offered (a move, a hint, a hand's key)? Each game's ``check_action``
        asks first, so the footer, the keys panel and the command palette offer a spectator none of them."""
        return self.watching and action in self.HAND_ACTIONS

    HAND_ACTIONS: ClassVar[frozenset[str]] = frozenset()
    """The actions of a seat's moves and hand (filled in for each game's table from its ``turn_keys``, plus the
    hand's own keys it names in ``SEAT_ACTIONS``)."""
    SEAT_ACTIONS: ClassVar[frozenset[str]] = frozenset()
    """A game's actions that belong to a seat's hand, besides its moves (cursor, selection, sorting)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        moves: set[str] = set()
        for binding in cls.__dict__.get("BINDINGS", ()):
            if isinstance(binding, Binding) and binding.action.startswith("explain("):
                _, _, (inner, *_) = parse_action(binding.action)
                if isinstance(inner, str):
                    moves.add(parse_action(inner)[1])
        if moves or cls.SEAT_ACTIONS:
            cls.HAND_ACTIONS = frozenset(moves | cls.SEAT_ACTIONS | {"explain"})

    def on_mount(self) -> None:
        title = self.title_text
        self.sub_title = f"{title} · seed {self.seed}" if self.seed is not None else title
        self.query_one(EventLog).border_title = "What happened"
        self.set_class(self.watching, "-watching")
        self.set_up()
        watch = getattr(self.session, "watch", None)  # a LAN session: the host's clock messages, in order
        if callable(watch):
            self._stop_watching = watch(self.hear_clock)
        self._unsubscribe = self.session.subscribe(self._from_session)
        with self._inbox_lock:
            items = [item for item in self._inbox if isinstance(item, tuple)]
        history = [event for event, _ in items if event is not None]
        first = next((snapshot for event, snapshot in items if event is None), None)
        self._catching_up = len(history)
        # The ends of rounds in the history were seen before, but the latest one when the table stands just after
        # it: a resumed or joined match opens on the table as it is, never on an earlier round's dialog.
        unseen = first is not None and self.session.last_round_end() == first.version
        self._stale_rounds = max(0, sum(isinstance(event, RoundOver) for event in history) - unseen)
        self._drain()  # before the first frame: it shows the table as it is
        # Drawn once more after that frame, when every widget knows its size (a seat fits its row of card backs to
        # its width, unknown until the screen is laid out).
        self.call_after_refresh(self._redraw_laid_out)

    def _redraw_laid_out(self) -> None:
        # Through the queue: the bots start at this same moment (ParlourApp._open_table), and their updates may be
        # queued by now.
        if self.idle() and self.snapshot is not None and self.is_attached:
            self._drain()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._stop_watching is not None:
            self._stop_watching()
            self._stop_watching = None

    # -- events in -----------------------------------------------------------------------------------------------
    def _from_session(self, update: Update) -> None:
        """Session callback: may run on any thread, so it only queues the update's events (each with its snapshot)
        and posts a message."""
        snapshot = update.snapshot
        with self._inbox_lock:
            self._inbox.extend((event, snapshot) for event in update.events)
            self._inbox.append((None, snapshot))
        self.post_message(UpdateHeard())

    def hear_clock(self, data: dict[str, Any]) -> None:
        """Take in a host message if it is a ``clock`` one (from any thread): queued with the events, in the order
        heard, so a move the clock made is told after the note that it ran out. A note heard twice counts once."""
        note = ClockNote.parse(data)
        if note is None:
            return
        with self._inbox_lock:
            if any(
                (seen.seat, seen.version, seen.ran_out) == (note.seat, note.version, note.ran_out)
                for seen in self._clocks_heard
            ):
                return
            self._clocks_heard.append(note)
            self._inbox.append(note)
        self.post_message(ClockHeard())

    def on_clock_heard(self, message: ClockHeard) -> None:
        message.stop()
        with self._inbox_lock:
            pending = bool(self._inbox)
        if pending:
            self._drain()

    def on_update_heard(self, message: UpdateHeard) -> None:
        message.stop()
        with self._inbox_lock:
            pending = bool(self._inbox)
        if pending:  # else an earlier message's drain took this update too, and the table was drawn after it
            self._drain()

    def _next_event(self) -> Arrival | ClockNote | None:
        with self._inbox_lock:
            return self._inbox.popleft() if self._inbox else None

    def _drain(self) -> None:
        # Attached, not "mounted": on_mount drains the events the session has already sent (is_mounted turns true
        # only after it), so the screen's first frame shows the table as it is, not an empty one.
        while True:
            if self._stepping or self._round_over is not None or self._results_shown or not self.is_attached:
                return
            while (item := self._next_event()) is not None:
                if isinstance(item, ClockNote):
                    self._take_clock(item)
                    continue
                event, self.arriving = item
                if event is None:
                    self._ready = self.arriving  # every event it shows has been taken in: it may be drawn
                    continue
                if isinstance(event, RoundStarted):
                    self.round = event.round
                elif isinstance(event, MatchOver):
                    self._match_over = event
                self.handle(event)
                if isinstance(event, RoundOver):
                    self._hurrying = False  # (the round hurried to its end is over: the next goes at the pace)
                if self._refusal is None:
                    self._show_problem()  # (a game may write its status line as it takes an event in)
                catching_up = self._catching_up > 0
                self._catching_up = max(0, self._catching_up - 1)
                if isinstance(event, RoundOver) and self._stale_rounds and catching_up:
                    self._stale_rounds -= 1  # a round of the history whose end was seen before: the next one is on
                elif isinstance(event, RoundOver):
                    self._round_over = event
                    # Draw the table as the round left it before the dialog opens: no seat still "thinking", no move
                    # offered. (The snapshot is the last one drawn: the engine has already dealt the next round, so
                    # this update's would show it; the game's round_dialog puts the round's last cards on the table.)
                    if self.snapshot is not None:
                        self.render_snapshot(self.snapshot)
                    self.refresh_bindings()
                    dialog = self.round_dialog(event)
                    if self._refusal is None:
                        self._show_problem()
                    self.app.push_screen(dialog, callback=self._round_dialog_closed)
                    return
                pause = 0.0 if catching_up or self._hurrying else self.step_pause(event)
                if pause > 0:
                    self._stepping = True
                    self.refresh_bindings()
                    self.set_timer(pause, self._step_done)
                    return
            if self._match_over is not None:
                self.redraw()
                self._show_results()
                return
            self.redraw()
            # An update may have come while the table was drawn (a bot's move, on the host's thread): its events are
            # taken in and it is drawn now.
            with self._inbox_lock:
                if not self._inbox:
                    return

    # -- the turn clock -------------------------------------------------------------------------------------------
    def _take_clock(self, note: ClockNote) -> None:
        """A clock note, in its turn in the queue: a clock to count down, or one that ran out."""
        if note.ran_out:
            if self._clock is not None and self._clock.seat == note.seat:
                self._clock = None
            self._clock_moved = note.seat
            self.query_one(EventLog).rewrite_next(self._clock_line)
            return
        if self._clock is not None and note.version < self._clock.version:
            # An earlier moment's note heard after a later one: the session's watch tells a new watcher the clock
            # running now at once, and the app may pass on an older one still on its way. The later clock stays.
            return
        self._clock = note
        self._clock_deadline = self.now() + note.seconds
        snap = self.snapshot
        fresh = snap is None or snap.version <= note.version  # (not a copy heard after the move was made)
        if note.seat == self.me and fresh and not self._clock_notified:
            self._clock_notified = True
            self.notify(clock_notice(note.seconds), timeout=6, markup=False)

    def _clock_line(self, line: str) -> list[str]:
        seat, self._clock_moved = self._clock_moved, None
        return ran_out_line(line, seat, self.names, self.me) if seat is not None else [line]

    def clock_shown(self) -> tuple[int, int] | None:
        """The turn clock to show now: (the seat to move, its whole seconds left), or None. A clock is for one
        moment of the table: once the table drawn has moved on (another version, another seat to move), it is
        not shown."""
        clock, snap = self._clock, self.snapshot
        if clock is None or snap is None or snap.over or not self.idle():
            return None
        if snap.version != clock.version or snap.to_move != clock.seat:
            return None
        return clock.seat, max(0, math.ceil(self._clock_deadline - self.now()))

    def _clock_drawn(self) -> None:
        """After the table is drawn: the next tick of the countdown (and, once another seat is to move, the notice
        of your clock may be given again)."""
        snap = self.snapshot
        if snap is not None and snap.to_move != self.me:
            self._clock_notified = False
        if snap is not None and self._clock is not None and snap.version > self._clock.version:
            self._clock = None  # the table has moved on: that clock is over
        shown = self.clock_shown()
        clock = self._clock
        if shown is not None and shown[0] == self.me and shown[1] <= BELL_CLOCK and clock is not self._clock_belled:
            self._clock_belled = clock
            if self.bell_on:
                self.app.bell()
        if self._clock_timer is not None:
            self._clock_timer.stop()
            self._clock_timer = None
        if shown is not None and shown[1] > 0:
            # The next tick when the whole seconds shown change (a clock may start at 29.6 s).
            left = self._clock_deadline - self.now()
            wait = left - (math.ceil(left) - 1)
            self._clock_timer = self.set_timer(max(0.05, wait), self._clock_tick)

    def _clock_tick(self) -> None:
        self._clock_timer = None
        if self.is_attached and self.snapshot is not None and self.idle():
            self.draw_clock()
            self._clock_drawn()

    def draw_clock(self) -> None:
        """Show the clock's new seconds: by default the table is drawn again from the snapshot it shows (the
        game's widgets draw only what changed); the refusal in the status line stays."""
        if self.snapshot is not None:
            self.render_snapshot(self.snapshot)
            if self._refusal is not None:
                self._show_refusal(self._refusal[0])
            else:
                self._show_problem()

    def _step_done(self) -> None:
        self._stepping = False
        self._drain()

    def redraw(self) -> None:
        """Draw the table from the snapshot of the last update taken in whole (a refusal stays in the status line
        until the table moves)."""
        if self._ready is None:
            return  # no update yet: nothing to draw from
        self.snapshot = self._ready
        self.render_snapshot(self.snapshot)
        if self._refusal is not None:
            text, version = self._refusal
            if version == self.snapshot.version:
                self._show_refusal(text)
            else:
                self._refusal = None
        if self._refusal is None:
            self._show_problem()
        self.refresh_bindings()
        self._clock_drawn()
        self._notice_turn()

    # -- the bell -----------------------------------------------------------------------------------------------
    @property
    def bell_on(self) -> bool:
        """Does your bell setting ask for the bell (an app without settings: no)?"""
        return getattr(getattr(self.app, "settings", None), "bell", False) is True

    def _notice_turn(self) -> None:
        """After the table is drawn: the bell when your turn has come after more than :data:`BELL_AFTER` seconds
        of waiting (counted on :attr:`now`, from when the table last left your turn or you closed a dialog)."""
        if self.me is None:
            return
        now = self.now()
        if not self.my_turn:
            if self._waiting_since is None:
                self._waiting_since = now
            return
        since, self._waiting_since = self._waiting_since, None
        if since is not None and now - since > BELL_AFTER and self.bell_on:
            self.app.bell()

    @property
    def table_snapshot(self) -> Snapshot:
        """The snapshot the table is drawn from; before the first drawing, the one of the update being taken in."""
        snap = self.snapshot if self.snapshot is not None else self.arriving
        assert snap is not None, "the screen has had no update yet"
        return snap

    @property
    def table_over(self) -> bool:
        """The match is over in the newest snapshot this screen has had (that of the update being taken in)."""
        snap = self.arriving if self.arriving is not None else self.snapshot
        return snap is not None and snap.over

    @property
    def thinking(self) -> int | None:
        """The computer player now choosing, if any (its seat shows it)."""
        snap = self.snapshot
        if snap is None or snap.over or snap.to_move is None or not self.idle():
            return None
        return snap.to_move if self.info.bots[snap.to_move] is not None else None

    # -- the end of a round and the results ----------------------------------------------------------------------
    @property
    def round_over(self) -> RoundOver | None:
        """The round whose end is being shown, or None."""
        return self._round_over

    def _round_dialog_closed(self, _: None = None) -> None:
        self._round_over = None
        if self._waiting_since is not None:
            self._waiting_since = self.now()  # (you have just closed it: the wait for your turn starts again)
        self.session.ready()
        self._drain()

    def _show_results(self) -> None:
        if self._results_shown:
            return
        self._results_shown = True
        self.refresh_bindings()
        from tui.dialogs.results import ResultsScreen  # loaded at a match's end, not with the table

        self.app.push_screen(ResultsScreen(self.summary()), callback=self._results_chosen)

    def _results_chosen(self, choice: ResultChoice | None) -> None:
        if choice == "quit":
            self.app.exit()
        elif choice == "again":
            self.post_message(PlayAgain())
        elif choice == "menu":
            self.post_message(MainMenu())

    def idle(self) -> bool:
        """True when the table is in play on this screen: no round's end or results showing, no step held."""
        return self._round_over is None and not self._results_shown and not self._stepping

    # -- your moves ----------------------------------------------------------------------------------------------
    @property
    def legal(self) -> tuple[Action, ...]:
        """What you may do now (nothing while a dialog is up)."""
        if not self.idle() or self.snapshot is None:
            return ()
        return self.snapshot.legal

    @property
    def my_turn(self) -> bool:
        return bool(self.legal)

    def submit(self, action: Action) -> ParlourError | None:
        """Send your move; a rejection is shown and returned (nothing else changes)."""
        try:
            self.session.submit(action)
        except ParlourError as err:
            self.refuse(str(err))
            return err
        self._drain()
        return None

    @property
    def hints_offered(self) -> bool:
        """Whether this table offers you hints (``h``): always at a table in this process, at a LAN table only
        when its creator allowed them, never to a spectator."""
        return not self.watching and self.info.hints

    def request_hint(self, done: Callable[[int, Hint | None], None]) -> bool:
        """Ask the session for a hint on a thread of its own; ``done(version, hint)`` runs on the UI thread (a
        refusal is said in the status line instead).

        The thread is a daemon, so quitting never waits for a hint being worked out."""
        if self._hint_busy or self.snapshot is None or not self.my_turn or not self.hints_offered:
            return False
        self._hint_busy = True
        version = self.snapshot.version
        app = self.app

        def work() -> None:
            hint: Hint | None = None
            refused: str | None = None
            try:
                hint = self.session.hint()
            except ParlourError as err:
                refused = str(err)
            try:
                app.call_from_thread(self._hint_done, done, version, hint, refused)
            except RuntimeError:
                pass  # the app is closing

        threading.Thread(target=work, name="parlour-hint", daemon=True).start()
        return True

    def _hint_done(
        self, done: Callable[[int, Hint | None], None], version: int, hint: Hint | None, refused: str | None
    ) -> None:
        self._hint_busy = False
        if not self.is_attached:
            return
        done(version, hint)
        if refused is not None:
            self.refuse(refused)
        self.refresh_bindings()

    def log_hint(self, hint: Hint) -> None:
        """Write the hint, its move and its reason, in the log, where a sentence has room."""
        self.query_one(EventLog).add(in_faces(f"Hint: {hint}"), emphasis=True)

    @property
    def hint_busy(self) -> bool:
        return self._hint_busy

    def may_hint(self) -> bool:
        """May you ask for a hint now: the table offers them, it is your turn and none is being worked out."""
        return self.hints_offered and self.my_turn and not self._hint_busy

    @staticmethod
    def hint_command(ask: Callable[[], None]) -> SystemCommand:
        """The palette's Hint, running ``ask`` (the game table's ``action_hint``; offered where :meth:`may_hint`)."""
        return SystemCommand("Hint", "What the hard computer player would do, and why (h)", ask)

    # -- saying no ----------------------------------------------------------------------------------------------
    def refuse(self, text: str) -> None:
        """Say once, in the status line beside your hand, why a move cannot be made; nothing is sent. The words
        stay until the table moves on or a few seconds pass (no toast over the cards). Cards in ``text`` are
        written in the faces chosen (an engine's message writes suit symbols)."""
        text = in_faces(text)
        version = self.snapshot.version if self.snapshot is not None else None
        self._refusal = (text, version)
        self._show_refusal(text)
        if self._refusal_timer is not None:
            self._refusal_timer.stop()
        self._refusal_timer = self.set_timer(REFUSAL_SECONDS, self._refusal_expired)

    def why_not_now(self) -> str:
        """Why no move of yours can be made at this moment ("" when it is your turn at a table in play)."""
        snap = self.snapshot
        if snap is None or self._results_shown or snap.over:
            return "The match is over"
        if self.me is None:
            return "You are watching this table"
        if not self.idle():
            return "Wait a moment: the table is still showing the last move"
        if snap.to_move != self.me:
            if snap.to_move is None:
                return "Nobody is to move"
            return f"Wait: it is {self.names[snap.to_move]}'s turn"
        return ""

    @property
    def refusal(self) -> str | None:
        """The refusal the status line shows now, if any."""
        return self._refusal[0] if self._refusal is not None else None

    def _show_refusal(self, text: str) -> None:
        for status in self.query(f"#{self.STATUS_ID}").results(Static):
            status.update(Content.styled(text, "bold $text-error"))

    def _refusal_expired(self) -> None:
        self._refusal_timer = None
        if self._refusal is not None:
            self._refusal = None
            if self.snapshot is not None:
                self.render_snapshot(self.snapshot)
                self._show_problem()

    # -- saying that a write failed ----------------------------------------------------------------------------
    def say_problem(self, text: str) -> None:
        """Say in the status line that a save, a replay or the statistics could not be written (the app says each
        kind once, not at every move). It stays :data:`PROBLEM_SECONDS` whatever the table does; a refused move
        is said over it meanwhile."""
        self._problem = text
        if self._refusal is None:
            self._show_problem()
        if self._problem_timer is not None:
            self._problem_timer.stop()
        self._problem_timer = self.set_timer(PROBLEM_SECONDS, self._problem_expired)

    @property
    def problem(self) -> str | None:
        """The write problem the status line shows now (when no refusal is said over it), if any."""
        return self._problem

    def _show_problem(self) -> None:
        if self._problem is not None:
            for status in self.query(f"#{self.STATUS_ID}").results(Static):
                status.update(Content.styled(self._problem, "bold $text-warning"))

    def _problem_expired(self) -> None:
        self._problem_timer = None
        if self._problem is not None:
            self._problem = None
            if self.snapshot is not None and self._refusal is None:
                self.render_snapshot(self.snapshot)

    # -- keys every table shares -----------------------------------------------------------------------------
    @property
    def in_progress(self) -> bool:
        """Is a match on at this table (leaving would abandon it)? Not once it is over."""
        if self._round_over is not None and self._round_over.last:
            return False  # the last round's dialog: the match is decided
        return self.snapshot is not None and not self.snapshot.over and self._match_over is None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("to_menu", "to_lobby"):
            lobby = getattr(self.app, "MENU_LABEL", "Menu") == "Lobby"
            return lobby == (action == "to_lobby")
        if action == "hurry":
            return self.may_hurry()
        if action == "explain" and parameters and isinstance(parameters[0], str):
            # The twin of a move's key runs only when the move is greyed, not when the table hides it.
            _, name, inner = parse_action(parameters[0])
            return self.check_action(name, inner) is not False
        return True

    def out_of_the_round(self) -> bool:
        """Whether your seat has no move left in the round in play (each game says: out of the match, or out of
        the deal), so only computer players play it on."""
        return False

    def may_hurry(self) -> bool:
        """Whether ``f`` may play the rest of the round at full speed: a table in this process (over the LAN the
        others keep the pace), a match on, your seat out of the round, and not hurrying already."""
        snap = self.snapshot
        return (
            callable(getattr(self.session, "hurry", None))
            and snap is not None
            and not snap.over
            and self.me is not None
            and not self._hurrying
            and self.out_of_the_round()
        )

    def action_hurry(self) -> None:
        """The computer players play the round to its end at full speed; every move is still told in the log."""
        hurry = getattr(self.session, "hurry", None)
        if not self.may_hurry() or not callable(hurry):
            return
        self._hurrying = True
        hurry()
        self.refresh_bindings()

    def takeback_refusal(self) -> str | None:
        """Why ``u`` cannot take your move back now, in one sentence (None: it can). Only at a table in this process
        whose every other seat is a computer player (the session says), never a LAN table or a spectator's."""
        ask = getattr(self.session, "takeback_refusal", None)
        if not callable(ask):
            return "Takebacks are only for a table in this process, against computer players."
        if self.watching:
            return "You are watching this table: there is no move of yours to take back."
        if self._stepping:
            return "Wait a moment: the table is still showing the last move."
        refusal = ask()
        return refusal if isinstance(refusal, str) or refusal is None else str(refusal)

    def action_take_back(self) -> None:
        """Ask the app to take your latest move back (it opens the table again as it was at that decision)."""
        refusal = self.takeback_refusal()
        if refusal is not None:
            self.refuse(refusal)
            return
        self.post_message(TakeBack())

    def action_to_menu(self) -> None:
        self._leave("menu")

    def action_to_lobby(self) -> None:
        self._leave("menu")

    def _leave(self, where: str) -> None:
        leave = getattr(self.app, "action_leave", None)  # tui.apps.navigation.Navigation, in both apps
        if leave is not None:
            leave(where)
        elif where == "menu":
            self.post_message(MainMenu())

    def action_explain(self, action: str) -> None:
        """Run a move's action although ``check_action`` greys it: the action says why it cannot be made."""
        _, name, parameters = parse_action(action)
        method = getattr(self, f"action_{name}", None)
        if method is not None:
            method(*parameters)

    def action_scroll_log(self, how: str) -> None:
        log = self.query_one(EventLog)
        if how == "page_up":
            log.scroll_page_up()
        elif how == "page_down":
            log.scroll_page_down()
        elif how == "home":
            log.scroll_home()
        else:
            log.scroll_end()

    # -- the rules pane ------------------------------------------------------------------------------------------
    def action_toggle_rules(self) -> None:
        if not self.rules_open and not self.query("#rules-text"):
            # Built on first opening, not with the table: a page of Markdown is dozens of widgets to mount and style
            # (and a Markdown parser to import) that most games never show.
            from textual.widgets import Markdown

            from tui.screens.rules import SHOW_ME, SHOW_ME_TIP

            parts: list[Widget] = []
            if self.walkthrough is not None:
                show_me = Button(SHOW_ME, id="rules-show-me", compact=True, tooltip=SHOW_ME_TIP)
                show_me.can_focus = False  # a click or its key: Enter and the arrows stay the table's
                parts.append(show_me)
            parts.append(Markdown(self.rules_markdown, id="rules-text"))
            self.query_one("#body").mount(VerticalScroll(*parts, id="rules-pane"))  # beside #main
        self.toggle_class("-rules-open")

    @property
    def walkthrough(self) -> Walkthrough | None:
        """The walkthrough of this table's game ("Show me"), made when first asked; None when it has none."""
        if self._walkthrough is None:
            self._walkthrough = (walkthrough_of(self.session.entry),)
        return self._walkthrough[0]

    def action_show_me(self) -> None:
        """The walkthrough of this game's rules, over the table. The table goes on underneath as it would with any
        dialog open: at a local table the computer players move up to your turn and wait for you there; at a LAN
        table the others play on (and your turn clock runs)."""
        walkthrough = self.walkthrough
        if walkthrough is None:
            self.refuse(f"{self.session.entry.title} has no walkthrough of its rules yet")
            return
        from tui.screens.walkthrough import WalkthroughScreen

        self.app.push_screen(WalkthroughScreen(self.session.entry, walkthrough))

    @on(Button.Pressed, "#rules-show-me")
    def _show_me_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_show_me()

    @property
    def rules_open(self) -> bool:
        return self.has_class("-rules-open")
